#!/bin/bash
# Build the overlap16 probe (here, Debian 12, x86-64); the binary goes to the ignored carry folder of the main checkout.
set -e
O=${O:-/work/main/.carry/overlap16}; mkdir -p $O
g++ -O2 -std=c++17 -Wall -Wextra -o $O/probe "$(dirname "$0")/probe.cpp" -lOpenCL
