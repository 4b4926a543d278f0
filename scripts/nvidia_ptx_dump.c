// Builds one OpenCL source on the first GPU with the given options and prints the build log (with
// -cl-nv-verbose, NVIDIA's ptxas reports registers, spills and shared memory); writes the program
// binary (PTX on NVIDIA); with a kernel name, prints its work-group limits; with N G0 G1 L0 L1 too,
// times a square N^3 product (params int M, N, K, buffers A, B, C; no verification: tilescope bench
// does that). Build: gcc -O2 -o nvidia_ptx_dump nvidia_ptx_dump.c -lOpenCL
// usage: nvidia_ptx_dump FILE.cl "OPTIONS" OUT.ptx [KERNEL [N G0 G1 L0 L1]]
// (on a machine without an .icd for NVIDIA: OCL_ICD_VENDORS=DIR with DIR/nv.icd holding libnvidia-opencl.so.1)
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char** argv) {
    if (argc < 4) { fprintf(stderr, "usage: ptxdump FILE.cl OPTIONS OUT.ptx [KERNEL]\n"); return 2; }
    FILE* f = fopen(argv[1], "rb"); if (!f) { perror(argv[1]); return 2; }
    fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
    char* src = malloc(n + 1); fread(src, 1, n, f); src[n] = 0; fclose(f);
    cl_platform_id plats[8]; cl_uint np = 0; clGetPlatformIDs(8, plats, &np);
    cl_device_id dev = 0;
    for (cl_uint i = 0; i < np && !dev; ++i) clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL);
    if (!dev) { fprintf(stderr, "no GPU\n"); return 1; }
    cl_int err; cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    const char* s = src; cl_program prog = clCreateProgramWithSource(ctx, 1, &s, NULL, &err);
    err = clBuildProgram(prog, 1, &dev, argv[2], NULL, NULL);
    size_t ln = 0; clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &ln);
    char* log = malloc(ln + 1); clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, ln, log, NULL); log[ln] = 0;
    printf("build %d\n%s\n", err, log);
    if (err) return 1;
    size_t bs = 0; clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof bs, &bs, NULL);
    unsigned char* bin = malloc(bs); unsigned char* bins[1] = {bin};
    clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL);
    FILE* o = fopen(argv[3], "wb"); fwrite(bin, 1, bs, o); fclose(o);
    if (argc > 4) {
        cl_kernel k = clCreateKernel(prog, argv[4], &err);
        size_t wg = 0; cl_ulong pm = 0, lm = 0;
        clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
        clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof pm, &pm, NULL);
        clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL);
        printf("kernel %s: max work-group %zu, private %llu B, local %llu B\n", argv[4], wg,
               (unsigned long long)pm, (unsigned long long)lm);
        if (argc > 9) {  // N G0 G1 L0 L1: time a square N^3 product (no verification: tilescope bench does that)
            const int N = atoi(argv[5]); size_t g[2] = {(size_t)atol(argv[6]), (size_t)atol(argv[7])}, l[2] = {(size_t)atol(argv[8]), (size_t)atol(argv[9])};
            cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
            size_t bytes = (size_t)N * N * 4; float* h = malloc(bytes);
            for (size_t i = 0; i < (size_t)N * N; ++i) h[i] = (float)((i * 2654435761u) % 1000) / 1000.0f;
            cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, h, &err);
            cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, h, &err);
            cl_mem c = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
            clSetKernelArg(k, 0, 4, &N); clSetKernelArg(k, 1, 4, &N); clSetKernelArg(k, 2, 4, &N);
            clSetKernelArg(k, 3, sizeof a, &a); clSetKernelArg(k, 4, sizeof b, &b); clSetKernelArg(k, 5, sizeof c, &c);
            double best = 1e30, sum = 0; int reps = 10;
            for (int r = 0; r < reps + 2; ++r) {
                cl_event ev; err = clEnqueueNDRangeKernel(q, k, 2, NULL, g, l, 0, NULL, &ev);
                if (err) { printf("launch error %d\n", err); return 1; }
                clWaitForEvents(1, &ev); cl_ulong t0, t1;
                clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, 8, &t0, NULL);
                clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 8, &t1, NULL);
                double s = (t1 - t0) * 1e-9; if (r >= 2) { sum += s; if (s < best) best = s; }
            }
            printf("time N=%d: min %.3f ms mean %.3f ms -> %.0f GFLOP/s (min), %.0f (mean)\n", N, best * 1e3, sum / reps * 1e3,
                   2.0 * N * N * (double)N / best / 1e9, 2.0 * N * N * (double)N / (sum / reps) / 1e9);
        }
    }
    return 0;
}
