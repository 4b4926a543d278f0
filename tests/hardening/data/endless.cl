// Never ends: for the tests that cancel a run with Ctrl-C. The pointer is volatile so
// the compiler may not assume the loop terminates and remove it.
__kernel void endless(__global volatile float* C, int n)
{
    while (C[1] >= 0.0f) C[0] += (float)n;
}
