#!/bin/bash
# Issue 30, session 47: one sitting with main after round 2's split-in-two in-place point (f8852a3): session 45's sitting
# (sizes drawn in the call, seeds printed; cuBLAS before and after; `bench --kernel fastest` with the trial) with the carry
# folder .carry/s47 (tilescope built from main, lib/, cublas.py, draw-sizes, tuning/ empty).
# usage (from the checkout): [HELD=...] [BENCH_T=seconds] bash docs/results/session47/sitting.sh
D=${D:-.carry/s47} exec bash docs/results/session45/sitting.sh
