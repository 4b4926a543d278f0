# cuBLAS FP32 SGEMM through PyTorch, TF32 off: median of 20 timed products (CUDA events) after 5 warm-ups.
# usage: cublas.py S[,S..] OUT.json   S: N or MxNxK (C is MxN, A MxK, B KxN)
import json, statistics, sys, torch
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
torch.set_float32_matmul_precision("highest")
out = []
for s in sys.argv[1].split(","):
    m, n, k = ([int(s)] * 3) if "x" not in s else [int(v) for v in s.split("x")]
    a = torch.randn(m, k, device="cuda"); b = torch.randn(k, n, device="cuda")
    for _ in range(5): c = a @ b
    torch.cuda.synchronize()
    ts = []
    for _ in range(20):
        st = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
        st.record(); c = a @ b; e.record(); torch.cuda.synchronize(); ts.append(st.elapsed_time(e) / 1e3)
    r0 = min(m, 256)
    ref = (a[:r0].double() @ b.double()); err = ((c[:r0].double() - ref).norm() / ref.norm()).item()
    med = statistics.median(ts)
    r = {"library": "cuBLAS via torch " + torch.__version__, "tf32": False, "M": m, "N": n, "K": k, "median_s": med,
         "min_s": min(ts), "gflops": 2 * m * n * k / med / 1e9, "rel_error_vs_fp64": err, "reps": 20, "times_s": ts,
         "device": torch.cuda.get_device_name()}
    print("cublas %dx%dx%d: %.1f GFLOP/s (median %.3f ms, rel err %.1e)" % (m, n, k, r["gflops"], med * 1e3, err), flush=True)
    out.append(r)
    del a, b, c
json.dump(out, open(sys.argv[2], "w"), indent=1)
