#include <stdlib.h>
#include <stdio.h>
#include <time.h>
int main(int c, char** v) {
  int mem = atoi(v[1]); double secs = atof(v[2]);
  time_t end = time(0) + (time_t)secs;
  if (mem > 0) {
    size_t n = (size_t)mem * 1024 * 1024 / 8; double* a = malloc(n * 8);
    for (size_t i = 0; i < n; ++i) a[i] = i;
    double s = 0;
    while (time(0) < end) for (size_t i = 0; i < n; i += 8) { s += a[i]; a[i] = s * 0.5; }
    printf("%g\n", s);
  } else {
    double x[16] = {1}; while (time(0) < end) for (int r = 0; r < 1000000; ++r) for (int j = 0; j < 16; ++j) x[j] = x[j] * 0.999999 + 1e-7;
    printf("%g\n", x[3]);
  }
}
