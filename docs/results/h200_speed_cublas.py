# cuBLAS FP32 SGEMM through PyTorch, TF32 off: median of 20 timed products (CUDA events) after 5 warm-ups.
import json, statistics, sys, torch
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
torch.set_float32_matmul_precision("highest")
out = []
for n in [int(s) for s in sys.argv[1].split(",")]:
    a = torch.randn(n, n, device="cuda"); b = torch.randn(n, n, device="cuda")
    for _ in range(5): c = a @ b
    torch.cuda.synchronize()
    ts = []
    for _ in range(20):
        s = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
        s.record(); c = a @ b; e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e) / 1e3)
    ref = (a[:256].double() @ b.double()); err = ((c[:256].double() - ref).norm() / ref.norm()).item()
    med = statistics.median(ts)
    r = {"library": "cuBLAS via torch " + torch.__version__, "tf32": False, "M": n, "N": n, "K": n, "median_s": med,
         "min_s": min(ts), "gflops": 2 * n**3 / med / 1e9, "rel_error_vs_fp64": err, "reps": 20, "times_s": ts,
         "device": torch.cuda.get_device_name()}
    print("cublas %d: %.1f GFLOP/s (median %.3f ms, rel err %.1e)" % (n, r["gflops"], med * 1e3, err), flush=True)
    out.append(r)
json.dump(out, open(sys.argv[2], "w"), indent=1)
