// overlap16 (issue 30 item 1): does an OpenCL implementation run a memory-bound copy kernel and a
// compute-bound kernel at the same time when they sit on two command queues of one context and
// device? Standalone probe, not part of tilescope. Build: see build.sh beside this file.
//
// Kernels: `copy4` copies a buffer of float4s (grid-stride, so its group count is free);
// `fma_loop` runs 8 independent FMA chains per work-item for `iters` iterations on registers and
// writes their sum. The iteration count is calibrated so that the full-size compute launch takes
// about as long as the copy alone.
//
// Modes (medians of --reps after --warmup; host wall clock around clFinish, and the device
// interval from event profiling: first START to last END of the mode's kernels):
//   a  copy alone (queue 1)
//   b  compute alone, full grid (queue 2)
//   c  copy then compute on ONE in-order queue
//   d  copy on queue 1, compute on queue 2, enqueued back to back (each flushed), clFinish both
//   d' as d, compute enqueued first
//   dn as d on two queues without profiling (wall clock only)
//   e0 compute with a quarter of the groups (4x the iterations), alone
//   e  copy on queue 1 + quarter compute on queue 2
//   f  copy + compute on one out-of-order queue (where the device has them)
// overlap: the time both kernels' profiled [START, END] intervals share, over the shorter one.
//
// usage: probe [--mb N] [--reps N] [--warmup N] [--ms-target X]
// Exit: 0 ok, 1 OpenCL error or wrong result, 2 bad arguments.
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

static void check(cl_int err, const char* what, int line)
{
    if (err != CL_SUCCESS) {
        std::fprintf(stderr, "OpenCL error %d in %s (line %d)\n", err, what, line);
        std::exit(1);
    }
}
#define CK(x) check((x), #x, __LINE__)

static const char* kSource = R"CLC(
__kernel void copy4(const __global float4* src, __global float4* dst, const uint n)
{
    for (uint i = get_global_id(0); i < n; i += get_global_size(0)) dst[i] = src[i];
}

__kernel void fma_loop(__global float* out, const int iters)
{
    const uint gid = get_global_id(0);
    const float m = 0.99999f, c = 1.0e-4f * (float)(gid & 255);
    float a[8];
    for (int k = 0; k < 8; ++k) a[k] = (float)k;
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int k = 0; k < 8; ++k) a[k] = fma(a[k], m, c);
    }
    float s = 0.0f;
    for (int k = 0; k < 8; ++k) s += a[k];
    out[gid] = s;
}
)CLC";

static double now_ms()
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static cl_ulong prof(cl_event e, cl_profiling_info what)
{
    cl_ulong t = 0;
    CK(clGetEventProfilingInfo(e, what, sizeof t, &t, nullptr));
    return t;
}

static bool parse_int(const char* s, long lo, long hi, long* out)
{
    char* end = nullptr;
    const long v = std::strtol(s, &end, 10);
    if (!*s || *end || v < lo || v > hi) return false;
    *out = v;
    return true;
}

struct Ctx {
    cl_context ctx;
    cl_device_id dev;
    cl_kernel copy, fma;
    cl_mem src, dst, out;
    cl_uint n4;           // float4s in the copy
    size_t copy_global;   // work-items of the copy
    size_t fma_full, fma_quarter;
    cl_int iters;
};

static cl_event launch_copy(const Ctx& c, cl_command_queue q)
{
    cl_event e;
    const size_t local = 256;
    CK(clEnqueueNDRangeKernel(q, c.copy, 1, nullptr, &c.copy_global, &local, 0, nullptr, &e));
    return e;
}

// The quarter grid runs 4 times the iterations: as much arithmetic as the full grid, on a quarter
// of the threads, so it lasts about as long while leaving 3/4 of each compute unit's slots free.
static cl_event launch_fma(const Ctx& c, cl_command_queue q, size_t global)
{
    cl_event e;
    const size_t local = 256;
    const cl_int iters = global == c.fma_quarter ? 4 * c.iters : c.iters;
    CK(clSetKernelArg(c.fma, 1, sizeof(cl_int), &iters));
    CK(clEnqueueNDRangeKernel(q, c.fma, 1, nullptr, &global, &local, 0, nullptr, &e));
    return e;
}

struct Result {
    double wall, device, overlap;  // ms, ms, fraction (-1: not measured)
};

// Runs `body` (which enqueues, flushes and returns its events) warmup + reps times, finishing the
// queues after each; returns the medians.
static Result measure(const std::vector<cl_command_queue>& qs, int warmup, int reps, bool profiled,
                      const std::function<std::vector<cl_event>()>& body)
{
    std::vector<double> walls, devs, overlaps;
    for (int r = 0; r < warmup + reps; ++r) {
        for (cl_command_queue q : qs) CK(clFinish(q));
        const double t0 = now_ms();
        std::vector<cl_event> ev = body();
        for (cl_command_queue q : qs) CK(clFinish(q));
        const double t1 = now_ms();
        if (r >= warmup) {
            walls.push_back(t1 - t0);
            if (profiled) {
                cl_ulong s = ~0ull, e = 0;
                for (cl_event x : ev) {
                    s = std::min(s, prof(x, CL_PROFILING_COMMAND_START));
                    e = std::max(e, prof(x, CL_PROFILING_COMMAND_END));
                }
                devs.push_back((e - s) * 1e-6);
                if (ev.size() == 2) {
                    const cl_ulong s0 = prof(ev[0], CL_PROFILING_COMMAND_START), e0 = prof(ev[0], CL_PROFILING_COMMAND_END);
                    const cl_ulong s1 = prof(ev[1], CL_PROFILING_COMMAND_START), e1 = prof(ev[1], CL_PROFILING_COMMAND_END);
                    const double shared = std::max(0.0, (double)std::min(e0, e1) - (double)std::max(s0, s1));
                    overlaps.push_back(shared / (double)std::min(e0 - s0, e1 - s1));
                }
            }
        }
        for (cl_event x : ev) CK(clReleaseEvent(x));
    }
    return {median(walls), profiled ? median(devs) : -1.0, overlaps.empty() ? -1.0 : median(overlaps)};
}

static void verify(const Ctx& c, cl_command_queue q, size_t fma_items, int iters)
{
    // Copy: the whole destination against the source pattern.
    std::vector<float> dst((size_t)c.n4 * 4);
    CK(clEnqueueReadBuffer(q, c.dst, CL_TRUE, 0, dst.size() * sizeof(float), dst.data(), 0, nullptr, nullptr));
    for (size_t i = 0; i < dst.size(); ++i)
        if (dst[i] != (float)(i % 1000003)) {
            std::fprintf(stderr, "copy wrong at %zu: %g\n", i, dst[i]);
            std::exit(1);
        }
    // Compute: a few work-items against the same chains on the CPU (fma is correctly rounded on both).
    std::vector<float> out(fma_items);
    CK(clEnqueueReadBuffer(q, c.out, CL_TRUE, 0, out.size() * sizeof(float), out.data(), 0, nullptr, nullptr));
    for (size_t gid : {(size_t)0, (size_t)1, (size_t)255, fma_items / 2, fma_items - 1}) {
        const float m = 0.99999f, cc = 1.0e-4f * (float)(gid & 255);
        float a[8];
        for (int k = 0; k < 8; ++k) a[k] = (float)k;
        for (int i = 0; i < iters; ++i)
            for (int k = 0; k < 8; ++k) a[k] = std::fma(a[k], m, cc);
        float s = 0.0f;
        for (int k = 0; k < 8; ++k) s += a[k];
        if (std::fabs(s - out[gid]) > 1e-5f * std::fabs(s) + 1e-6f) {
            std::fprintf(stderr, "compute wrong at %zu: %g, CPU %g\n", gid, out[gid], s);
            std::exit(1);
        }
    }
}

int main(int argc, char** argv)
{
    long mb = 256, reps = 10, warmup = 2, target_pct = 100;
    for (int i = 1; i < argc; ++i) {
        long* slot = nullptr;
        long lo = 1, hi = 1 << 20;
        if (!std::strcmp(argv[i], "--mb")) slot = &mb, hi = 4096;
        else if (!std::strcmp(argv[i], "--reps")) slot = &reps, hi = 1000;
        else if (!std::strcmp(argv[i], "--warmup")) slot = &warmup, lo = 0, hi = 100;
        else if (!std::strcmp(argv[i], "--target-pct")) slot = &target_pct, hi = 1000;
        if (!slot || i + 1 >= argc || !parse_int(argv[i + 1], lo, hi, slot)) {
            std::fprintf(stderr, "usage: probe [--mb 1..4096] [--reps 1..1000] [--warmup 0..100] [--target-pct 1..1000]\n");
            return 2;
        }
        ++i;
    }

    // First GPU device of any platform; otherwise the first device at all (PoCL on a CPU).
    cl_uint np = 0;
    CK(clGetPlatformIDs(0, nullptr, &np));
    std::vector<cl_platform_id> plats(np);
    CK(clGetPlatformIDs(np, plats.data(), nullptr));
    Ctx c{};
    cl_platform_id plat = nullptr;
    for (cl_device_type type : {(cl_device_type)CL_DEVICE_TYPE_GPU, (cl_device_type)CL_DEVICE_TYPE_ALL}) {
        for (cl_platform_id p : plats) {
            cl_uint nd = 0;
            if (clGetDeviceIDs(p, type, 1, &c.dev, &nd) == CL_SUCCESS && nd) { plat = p; break; }
        }
        if (plat) break;
    }
    if (!plat) { std::fprintf(stderr, "no OpenCL device\n"); return 1; }
    char pname[256] = {}, dname[256] = {}, dver[256] = {}, drv[256] = {};
    cl_uint cus = 0;
    cl_command_queue_properties qprops = 0;
    CK(clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof pname - 1, pname, nullptr));
    CK(clGetDeviceInfo(c.dev, CL_DEVICE_NAME, sizeof dname - 1, dname, nullptr));
    CK(clGetDeviceInfo(c.dev, CL_DEVICE_VERSION, sizeof dver - 1, dver, nullptr));
    CK(clGetDeviceInfo(c.dev, CL_DRIVER_VERSION, sizeof drv - 1, drv, nullptr));
    CK(clGetDeviceInfo(c.dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, nullptr));
    CK(clGetDeviceInfo(c.dev, CL_DEVICE_QUEUE_PROPERTIES, sizeof qprops, &qprops, nullptr));
    const bool ooo = qprops & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
    std::printf("platform: %s\ndevice: %s (%u compute units), %s, driver %s\nout-of-order queues: %s\n", pname, dname, cus,
                dver, drv, ooo ? "yes" : "no");

    cl_int err;
    c.ctx = clCreateContext(nullptr, 1, &c.dev, nullptr, nullptr, &err);
    CK(err);
    cl_program prog = clCreateProgramWithSource(c.ctx, 1, &kSource, nullptr, &err);
    CK(err);
    if (clBuildProgram(prog, 1, &c.dev, "", nullptr, nullptr) != CL_SUCCESS) {
        char log[8192] = {};
        clGetProgramBuildInfo(prog, c.dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, nullptr);
        std::fprintf(stderr, "build failed:\n%s\n", log);
        return 1;
    }
    c.copy = clCreateKernel(prog, "copy4", &err);
    CK(err);
    c.fma = clCreateKernel(prog, "fma_loop", &err);
    CK(err);

    const size_t bytes = (size_t)mb << 20;
    c.n4 = (cl_uint)(bytes / 16);
    c.copy_global = c.n4;  // one float4 per work-item (a multiple of 256: mb >= 1)
    c.fma_full = (size_t)cus * 8 * 256;  // 8 groups of 256 per compute unit: 2048 threads, a full H100 SM
    c.fma_quarter = c.fma_full / 4;
    std::vector<float> host(bytes / 4);
    for (size_t i = 0; i < host.size(); ++i) host[i] = (float)(i % 1000003);
    c.src = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, host.data(), &err);
    CK(err);
    c.dst = clCreateBuffer(c.ctx, CL_MEM_WRITE_ONLY, bytes, nullptr, &err);
    CK(err);
    c.out = clCreateBuffer(c.ctx, CL_MEM_WRITE_ONLY, c.fma_full * sizeof(float), nullptr, &err);
    CK(err);
    CK(clSetKernelArg(c.copy, 0, sizeof(cl_mem), &c.src));
    CK(clSetKernelArg(c.copy, 1, sizeof(cl_mem), &c.dst));
    CK(clSetKernelArg(c.copy, 2, sizeof(cl_uint), &c.n4));
    CK(clSetKernelArg(c.fma, 0, sizeof(cl_mem), &c.out));

    const cl_command_queue_properties P = CL_QUEUE_PROFILING_ENABLE;
    cl_command_queue q1 = clCreateCommandQueue(c.ctx, c.dev, P, &err);
    CK(err);
    cl_command_queue q2 = clCreateCommandQueue(c.ctx, c.dev, P, &err);
    CK(err);
    cl_command_queue n1 = clCreateCommandQueue(c.ctx, c.dev, 0, &err);
    CK(err);
    cl_command_queue n2 = clCreateCommandQueue(c.ctx, c.dev, 0, &err);
    CK(err);
    cl_command_queue qo = nullptr;
    if (ooo) {
        qo = clCreateCommandQueue(c.ctx, c.dev, P | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
        CK(err);
    }

    const int W = (int)warmup, R = (int)reps;
    // Calibrate: the full compute launch should take target_pct % of the copy alone.
    const Result a = measure({q1}, W, R, true, [&] { return std::vector<cl_event>{launch_copy(c, q1)}; });
    c.iters = 256;
    const Result probe_b = measure({q2}, 1, 3, true, [&] { return std::vector<cl_event>{launch_fma(c, q2, c.fma_full)}; });
    c.iters = (cl_int)std::max(16.0, std::min(1e8, 256.0 * a.device * target_pct / 100.0 / probe_b.device));
    std::printf("copy %ld MiB (%u float4 items), compute %zu items full / %zu quarter, %d iterations x 8 FMA chains (quarter: %d)\n", mb,
                c.n4, c.fma_full, c.fma_quarter, c.iters, 4 * c.iters);

    const Result b = measure({q2}, W, R, true, [&] { return std::vector<cl_event>{launch_fma(c, q2, c.fma_full)}; });
    verify(c, q1, c.fma_full, c.iters);
    const Result cc = measure({q1}, W, R, true, [&] {
        return std::vector<cl_event>{launch_copy(c, q1), launch_fma(c, q1, c.fma_full)};
    });
    auto two = [&](cl_command_queue qa, cl_command_queue qb, size_t fma_items, bool copy_first) {
        return [&, qa, qb, fma_items, copy_first] {
            std::vector<cl_event> ev;
            if (copy_first) {
                ev.push_back(launch_copy(c, qa));
                CK(clFlush(qa));
                ev.push_back(launch_fma(c, qb, fma_items));
                CK(clFlush(qb));
            } else {
                ev.push_back(launch_fma(c, qb, fma_items));
                CK(clFlush(qb));
                ev.push_back(launch_copy(c, qa));
                CK(clFlush(qa));
            }
            return ev;
        };
    };
    const Result d = measure({q1, q2}, W, R, true, two(q1, q2, c.fma_full, true));
    const Result d2 = measure({q1, q2}, W, R, true, two(q1, q2, c.fma_full, false));
    const Result dn = measure({n1, n2}, W, R, false, two(n1, n2, c.fma_full, true));
    const Result e0 = measure({q2}, W, R, true, [&] { return std::vector<cl_event>{launch_fma(c, q2, c.fma_quarter)}; });
    const Result e = measure({q1, q2}, W, R, true, two(q1, q2, c.fma_quarter, true));
    verify(c, q1, c.fma_quarter, 4 * c.iters);
    Result f{-1, -1, -1};
    if (qo) {
        f = measure({qo}, W, R, true, two(qo, qo, c.fma_full, true));
        verify(c, q1, c.fma_full, c.iters);
    }

    std::printf("\nmedians of %d after %d warm-ups; ms; overlap = shared part of the two kernels' profiled intervals over the shorter\n\n",
                R, W);
    std::printf("| mode | what | wall ms | device ms | overlap |\n|---|---|---:|---:|---:|\n");
    auto row = [](const char* m, const char* what, const Result& r) {
        if (r.wall < 0) { std::printf("| %s | %s | n/a | n/a | n/a |\n", m, what); return; }
        std::printf("| %s | %s | %.3f | ", m, what, r.wall);
        if (r.device >= 0) std::printf("%.3f | ", r.device); else std::printf("- | ");
        if (r.overlap >= 0) std::printf("%.0f %% |\n", 100 * r.overlap); else std::printf("- |\n");
    };
    row("a", "copy alone", a);
    row("b", "compute alone (full grid)", b);
    row("c", "copy + compute, one in-order queue", cc);
    row("d", "copy q1 + compute q2", d);
    row("d'", "compute q2 + copy q1 (compute enqueued first)", d2);
    row("dn", "as d, queues without profiling", dn);
    row("e0", "compute alone (quarter grid, 4x iterations)", e0);
    row("e", "copy q1 + quarter compute q2", e);
    row("f", "copy + compute, one out-of-order queue", f);
    std::printf("\nd/max(a,b) = %.2f, d/(a+b) = %.2f (wall); e/max(a,e0) = %.2f, e/(a+e0) = %.2f (wall)\n",
                d.wall / std::max(a.wall, b.wall), d.wall / (a.wall + b.wall), e.wall / std::max(a.wall, e0.wall),
                e.wall / (a.wall + e0.wall));

    for (cl_command_queue q : {q1, q2, n1, n2}) CK(clReleaseCommandQueue(q));
    if (qo) CK(clReleaseCommandQueue(qo));
    for (cl_mem m : {c.src, c.dst, c.out}) CK(clReleaseMemObject(m));
    CK(clReleaseKernel(c.copy));
    CK(clReleaseKernel(c.fma));
    CK(clReleaseProgram(prog));
    CK(clReleaseContext(c.ctx));
    return 0;
}
