// Session 50 probe: build an OpenCL source with the given options on the first GPU and print what
// CL_PROGRAM_BINARIES gives (PTX text on NVIDIA's OpenCL), to compare two builds of warp_tile.cl.
// cc -O2 -o dump_ptx dump_ptx.c -lOpenCL;  ./dump_ptx FILE.cl "-D TS=64 ..." > out.ptx
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char** argv) {
    if (argc < 3) { fprintf(stderr, "usage: dump_ptx FILE.cl OPTIONS\n"); return 2; }
    FILE* f = fopen(argv[1], "rb"); if (!f) { perror(argv[1]); return 2; }
    fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
    char* src = malloc(n + 1); if (fread(src, 1, n, f) != (size_t)n) return 2; src[n] = 0; fclose(f);
    cl_platform_id p; cl_device_id d; cl_int e;
    if (clGetPlatformIDs(1, &p, NULL) || clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 1, &d, NULL)) { fprintf(stderr, "no GPU\n"); return 2; }
    cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
    cl_program prog = clCreateProgramWithSource(c, 1, (const char**)&src, NULL, &e);
    e = clBuildProgram(prog, 1, &d, argv[2], NULL, NULL);
    size_t logn = 0; clGetProgramBuildInfo(prog, d, CL_PROGRAM_BUILD_LOG, 0, NULL, &logn);
    char* log = malloc(logn + 1); clGetProgramBuildInfo(prog, d, CL_PROGRAM_BUILD_LOG, logn, log, NULL); log[logn] = 0;
    fprintf(stderr, "build %d: %s\n", e, log);
    if (e) return 1;
    size_t bn = 0; clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof bn, &bn, NULL);
    unsigned char* b = malloc(bn + 1); unsigned char* bs[1] = {b};
    clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bs, bs, NULL); b[bn] = 0;
    fwrite(b, 1, bn, stdout);
    return 0;
}
