# What cuBLAS runs (FP32 SGEMM through PyTorch, TF32 off) at the shapes where tilescope loses:
# kernel name, grid, block, registers per thread, shared memory and the time of every kernel a
# product launches (a split-K reduction shows as a second kernel), from torch.profiler's trace.
# usage: cublas_profile.py S[,S..] OUT.json   S: N or MxNxK (C is MxN, A MxK, B KxN)
import json, os, sys, tempfile, torch
from torch.profiler import profile, ProfilerActivity
torch.backends.cuda.matmul.allow_tf32 = False
torch.set_float32_matmul_precision("highest")
out = []
for s in sys.argv[1].split(","):
    m, n, k = ([int(s)] * 3) if "x" not in s else [int(v) for v in s.split("x")]
    a = torch.randn(m, k, device="cuda"); b = torch.randn(k, n, device="cuda")
    for _ in range(5): c = a @ b
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as p:
        for _ in range(3): c = a @ b
        torch.cuda.synchronize()
    f = tempfile.mktemp(suffix=".json"); p.export_chrome_trace(f)
    ev = [e for e in json.load(open(f))["traceEvents"] if e.get("cat") == "kernel"]
    os.unlink(f)
    ks = []
    for e in ev[: len(ev) // 3 or len(ev)]:  # the kernels of one product
        g = e["args"]
        ks.append({"name": e["name"], "grid": g.get("grid"), "block": g.get("block"),
                   "registers_per_thread": g.get("registers per thread"), "shared_memory": g.get("shared memory"),
                   "blocks_per_sm": g.get("blocks per SM"), "warps_per_sm": g.get("warps per SM"),
                   "occupancy_pct": g.get("est. achieved occupancy %"), "dur_us": e.get("dur")})
    tot = sum(x["dur_us"] for x in ks)
    r = {"M": m, "N": n, "K": k, "device": torch.cuda.get_device_name(), "torch": torch.__version__,
         "kernels": ks, "gflops_from_kernel_time": 2 * m * n * k / (tot * 1e-6) / 1e9 if tot else None}
    out.append(r)
    print("%dx%dx%d: %.0f GFLOP/s" % (m, n, k, r["gflops_from_kernel_time"] or 0))
    for x in ks:
        print("   %s grid=%s block=%s regs=%s smem=%s blk/SM=%s %.1f us" % (x["name"][:110], x["grid"], x["block"],
              x["registers_per_thread"], x["shared_memory"], x["blocks_per_sm"], x["dur_us"]))
    del a, b, c
json.dump(out, open(sys.argv[2], "w"), indent=1)
