#!/bin/bash
# Issue 30, session 46: session 45's sitting (docs/results/session45/sitting.sh), unchanged but for the carry folder:
# .carry/s46 (tilescope built from main at f122681, lib/, cublas.py, draw-sizes, tuning/ empty).
# usage (from the checkout): [HELD=...] [BENCH_T=seconds] bash docs/results/session46/sitting.sh
D=${D:-.carry/s46} exec bash "$(dirname "${BASH_SOURCE[0]}")/../session45/sitting.sh"
