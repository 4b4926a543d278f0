#!/usr/bin/python3
# OpenBLAS SGEMM through numpy, the CPU reference for benchmark ratios (run with Debian's
# /usr/bin/python3: python3-numpy + libopenblas0-pthread). Prints one JSON record per size.
# usage: scripts/openblas_sgemm.py SIZE[,SIZE..] [REPS]
import json, statistics, sys, time
import numpy as np

try:
    from numpy.__config__ import show  # noqa: F401  (numpy links libblas.so.3: say which it is)
except ImportError:
    pass
sizes = [int(s) for s in (sys.argv[1] if len(sys.argv) > 1 else "1024").split(",")]
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 7
rng = np.random.default_rng(1)
for n in sizes:
    a = rng.random((n, n), dtype=np.float32)
    b = rng.random((n, n), dtype=np.float32)
    a @ b  # warm-up: thread pool start, page faults
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        a @ b
        times.append(time.perf_counter() - t)
    med = statistics.median(times)
    print(json.dumps({"library": "OpenBLAS via numpy " + np.__version__, "M": n, "N": n, "K": n, "reps": reps,
                      "median_s": med, "min_s": min(times), "gflops": 2 * n**3 / med / 1e9}), flush=True)
