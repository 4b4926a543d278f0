/* Registers, spills and local memory of one build of a kernel on NVIDIA's OpenCL: builds FILE.cl with
 * "-cl-nv-verbose" and the given -D options and prints ptxas's lines from the build log, plus the
 * kernel's local memory and work-group size as the driver reports them.
 * usage: nvregs FILE.cl ENTRY "-D TS=128 -D ..."      (build: gcc -O2 nvregs.c -o nvregs -lOpenCL) */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char** argv) {
    if (argc != 4) { fprintf(stderr, "usage: nvregs FILE.cl ENTRY OPTIONS\n"); return 2; }
    FILE* f = fopen(argv[1], "rb"); if (!f) { fprintf(stderr, "cannot read %s\n", argv[1]); return 2; }
    fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
    char* src = malloc(n + 1); if (fread(src, 1, n, f) != (size_t)n) return 2; src[n] = 0; fclose(f);
    cl_platform_id ps[8]; cl_uint np = 0; clGetPlatformIDs(8, ps, &np);
    cl_device_id d = 0;
    for (cl_uint i = 0; i < np && !d; ++i) if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_GPU, 1, &d, NULL) != CL_SUCCESS) d = 0;
    if (!d) { fprintf(stderr, "no GPU\n"); return 2; }
    cl_int e; cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
    const char* s = src; cl_program p = clCreateProgramWithSource(c, 1, &s, NULL, &e);
    char opt[4096]; snprintf(opt, sizeof opt, "-cl-nv-verbose %s", argv[3]);
    e = clBuildProgram(p, 1, &d, opt, NULL, NULL);
    size_t ln = 0; clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, 0, NULL, &ln);
    char* log = malloc(ln + 1); clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, ln, log, NULL); log[ln] = 0;
    for (char* l = strtok(log, "\n"); l; l = strtok(NULL, "\n")) if (strstr(l, "ptxas") || strstr(l, "error")) printf("%s\n", l);
    if (e != CL_SUCCESS) { printf("build failed %d\n", e); return 1; }
    cl_kernel k = clCreateKernel(p, argv[2], &e); if (e != CL_SUCCESS) { printf("no kernel %s\n", argv[2]); return 1; }
    cl_ulong lm = 0; size_t wg = 0;
    clGetKernelWorkGroupInfo(k, d, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL);
    clGetKernelWorkGroupInfo(k, d, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    printf("local_mem %llu B, max work-group %zu\n", (unsigned long long)lm, wg);
    return 0;
}
