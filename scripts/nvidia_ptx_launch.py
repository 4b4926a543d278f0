# Launches one kernel of a PTX file written by NVIDIA's OpenCL compiler (scripts/nvidia_ptx_dump.c)
# through the CUDA driver API, so that Nsight Compute, which does not profile OpenCL kernels, can
# profile the very code the OpenCL driver runs. Inputs are filled with 1.0, so C[0] must equal K.
# usage: nvidia_ptx_launch.py FILE.ptx ENTRY N GX GY BX BY [REPS]
#        (kernel parameters: int M, N, K and float buffers A, B, C; M = N = K = N; grid GX x GY of BX x BY)
# e.g.   ncu --set full -k regex:mm_ --launch-skip 2 -c 1 -o rep python3 nvidia_ptx_launch.py wt.ptx mm_warp_tile 4096 32 32 256 1
import ctypes, re, sys, time

path, name = sys.argv[1], sys.argv[2]
n, gx, gy, bx, by = (int(v) for v in sys.argv[3:8])
reps = int(sys.argv[8]) if len(sys.argv) > 8 else 5
cu = ctypes.CDLL("libcuda.so.1")


def ck(r, what):
    if r:
        sys.exit("%s: CUDA error %d" % (what, r))


ck(cu.cuInit(0), "init")
dev = ctypes.c_int()
ck(cu.cuDeviceGet(ctypes.byref(dev), 0), "device")
ctx = ctypes.c_void_p()
ck(cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "context")
ck(cu.cuCtxSetCurrent(ctx), "current context")
ptx = open(path, "rb").read().split(b"\0")[0]
# OpenCL's group id is %ctaid plus the launch's group offset, read from %envreg0..2: zero here.
ptx = re.sub(rb"%envreg\d+", b"0", ptx) + b"\0"
mod = ctypes.c_void_p()
ck(cu.cuModuleLoadData(ctypes.byref(mod), ptx), "module")
fn = ctypes.c_void_p()
ck(cu.cuModuleGetFunction(ctypes.byref(fn), mod, name.encode()), "function")
regs = ctypes.c_int()
ck(cu.cuFuncGetAttribute(ctypes.byref(regs), 4, fn), "attribute")  # CU_FUNC_ATTRIBUTE_NUM_REGS
print("registers:", regs.value)
bufs = []
for _ in range(3):
    p = ctypes.c_uint64()
    ck(cu.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(n * n * 4)), "alloc")
    ck(cu.cuMemsetD32_v2(p, ctypes.c_uint(0x3F800000), ctypes.c_size_t(n * n)), "memset")
    bufs.append(p)
ints = [ctypes.c_int(n) for _ in range(3)]
args = (ctypes.c_void_p * 6)(*[ctypes.cast(ctypes.byref(x), ctypes.c_void_p) for x in ints + bufs])
times = []
for _ in range(reps):
    t = time.perf_counter()
    ck(cu.cuLaunchKernel(fn, gx, gy, 1, bx, by, 1, 0, None, args, None), "launch")
    ck(cu.cuCtxSynchronize(), "sync")
    times.append(time.perf_counter() - t)
c = (ctypes.c_float * 1)()
ck(cu.cuMemcpyDtoH_v2(c, bufs[2], ctypes.c_size_t(4)), "copy")
print("%s N=%d: best %.3f ms -> %.0f GFLOP/s (wall time, launch included); C[0] = %g (expect %d)"
      % (name, n, min(times) * 1e3, 2.0 * n**3 / min(times) / 1e9, c[0], n))
