// Issue 31, cache12: what the GPU's L1 does with a cycle of lines larger or smaller than itself,
// measured rather than fitted (not part of the product; run on the lent GPU under ncu by
// caches_l1probe.sh). One thread follows a chain of N lines `stride` bytes apart, in order or in a
// shuffled order, for LAPS laps; every load depends on the last, so one load is in flight at a time
// and ncu's L1 hit rate is the cache's answer to that cycle alone. An LRU L1 of C lines keeps a
// cycle of up to C lines (hit rate (LAPS-1)/LAPS) and none of a longer one in order; random
// replacement loses it gradually; at a power-of-two stride the lines fall into fewer sets, and
// the N at which the rate falls gives the ways (if the set index is the plain line number).
// The in-order walk is repeated with larger shared-memory carve-outs (a smaller L1), to see whether
// the loss scales with the L1's size.
//   caches_l1probe CONFIGS.txt   (writes the launches in order: kind stride_bytes lines laps carveout_pct)
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <random>
#include <cuda_runtime.h>

__global__ void walk(const unsigned* next, int steps, unsigned* out) {
    unsigned p = 0;
    for (int i = 0; i < steps; ++i) p = next[p];
    out[0] = p;
}

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e)); std::exit(1); } } while (0)

int main(int argc, char** argv) {
    if (argc < 2) { std::fprintf(stderr, "usage: caches_l1probe CONFIGS.txt\n"); return 2; }
    FILE* log = std::fopen(argv[1], "w");
    if (!log) return 1;
    struct Config { const char* kind; size_t stride; int lines; int carve_pct = -1; };  // -1: the driver's choice
    std::vector<Config> configs;
    for (int n : {1024, 1280, 1536, 1600, 1664, 1728, 1760, 1792, 1824, 1856, 1920, 1984, 2048, 2304, 2560, 3072, 4096})
        configs.push_back({"order", 128, n});
    for (int n : {1536, 1664, 1728, 1792, 1856, 1920, 2048, 2304, 2560})
        configs.push_back({"shuffled", 128, n});
    for (size_t s : {size_t(4096), size_t(16384), size_t(65536), size_t(14336)})  // 14,336: 112 lines of 128 B
        for (int n : {2, 4, 6, 8, 12, 16, 17, 20, 24, 32, 48, 64, 96, 128})
            configs.push_back({"order", s, n});
    // 64, 100 and 132 KB of the 228 KB shared memory can hold (L1 192, 156 and 124 KB): cycles around each size.
    for (const auto& [pct, kb] : {std::pair<int, int>{28, 192}, {44, 156}, {58, 124}})
        for (double f : {0.9, 0.95, 0.98, 1.0, 1.02, 1.05, 1.1, 1.2, 1.3, 1.45})
            configs.push_back({"order", 128, int(f * kb * 1024 / 128), pct});
    const int laps = 20;
    size_t max_bytes = 0;
    for (const Config& c : configs) max_bytes = std::max(max_bytes, c.stride * c.lines);
    unsigned *next = nullptr, *out = nullptr;
    CHECK(cudaMalloc(&next, max_bytes + 128));
    CHECK(cudaMalloc(&out, 4));
    std::vector<unsigned> host(max_bytes / 4 + 32, 0);
    std::mt19937 rng(12345);
    for (const Config& c : configs) {
        const size_t words = c.stride / 4;
        std::vector<int> order(c.lines);
        for (int i = 0; i < c.lines; ++i) order[i] = i;
        if (c.kind[0] == 's') std::shuffle(order.begin() + 1, order.end(), rng);
        std::fill(host.begin(), host.end(), 0u);
        for (int i = 0; i < c.lines; ++i) host[order[i] * words] = unsigned(order[(i + 1) % c.lines] * words);
        CHECK(cudaMemcpy(next, host.data(), c.stride * c.lines, cudaMemcpyHostToDevice));
        CHECK(cudaFuncSetAttribute(walk, cudaFuncAttributePreferredSharedMemoryCarveout, c.carve_pct));
        walk<<<1, 1>>>(next, c.lines * laps, out);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        unsigned end = 0;
        CHECK(cudaMemcpy(&end, out, 4, cudaMemcpyDeviceToHost));
        const unsigned expect = unsigned(order[(size_t(c.lines) * laps) % c.lines] * words);
        std::fprintf(log, "%s %zu %d %d %d %s\n", c.kind, c.stride, c.lines, laps, c.carve_pct, end == expect ? "ok" : "WRONG");
    }
    std::fclose(log);
    return 0;
}
