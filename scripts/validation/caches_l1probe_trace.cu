// Issue 31, cache12: which lines of a cycle the GPU's L1 keeps, not only how many (the next step
// after caches_l1probe.cu). One thread follows a chain of N lines (128 bytes apart, in order) for
// LAPS laps and times each load of one lap with clock64(): an L1 hit takes about 40 cycles, a miss
// 250 or more. The times go to shared memory (N words: the driver's carve-out stays 32 KB up to
// 3,800 lines) and out after the walk, since a store to global memory during the walk changes
// what the L1 keeps (a first version that stored each time saw a third of ncu's hits).
// Not part of the product; run on the lent GPU (no ncu needed).
//   caches_l1probe_trace OUT.csv   (rows: carve_pct,lines,lap,position,cycles)
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

__global__ void walk_timed(const unsigned* next, int lines, int laps, int timed_lap, unsigned* cycles) {
    extern __shared__ unsigned t[];
    unsigned p = 0;
    for (int lap = 0; lap < laps; ++lap)
        for (int i = 0; i < lines; ++i) {
            const long long t0 = clock64();
            p = next[p];
            t[lines] = p;  // waits for the load; the clock is read after it (in-order issue)
            const long long t1 = clock64();
            if (lap == timed_lap) t[i] = unsigned(t1 - t0);
        }
    for (int i = 0; i < lines; ++i) cycles[i] = t[i];
    cycles[lines] = p;
}

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e)); std::exit(1); } } while (0)

int main(int argc, char** argv) {
    if (argc < 2) { std::fprintf(stderr, "usage: caches_l1probe_trace OUT.csv\n"); return 2; }
    FILE* out = std::fopen(argv[1], "w");
    if (!out) return 1;
    std::fprintf(out, "carve_pct,lines,lap,position,cycles\n");
    struct Config { int carve_pct; int lines; };
    std::vector<Config> configs;
    for (int n : {1024, 1728, 1760, 1792, 1856, 1920, 2048, 2304}) configs.push_back({14, n});
    for (int n : {892, 1041, 1190, 1289}) configs.push_back({58, n});
    const int laps = 20, words = 32;  // 128-byte lines
    unsigned *next = nullptr, *cycles = nullptr;
    CHECK(cudaMalloc(&next, size_t(4096) * 128));
    CHECK(cudaMalloc(&cycles, size_t(4096 + 1) * 4));
    CHECK(cudaFuncSetAttribute(walk_timed, cudaFuncAttributeMaxDynamicSharedMemorySize, 48 * 1024));
    for (const Config& c : configs)
        for (int lap : {1, 2, 3, 5, 10, 19}) {
            std::vector<unsigned> host(size_t(c.lines) * words, 0u), t(c.lines);
            for (int i = 0; i < c.lines; ++i) host[size_t(i) * words] = unsigned(((i + 1) % c.lines) * words);
            CHECK(cudaMemcpy(next, host.data(), host.size() * 4, cudaMemcpyHostToDevice));
            CHECK(cudaFuncSetAttribute(walk_timed, cudaFuncAttributePreferredSharedMemoryCarveout, c.carve_pct));
            walk_timed<<<1, 1, (c.lines + 1) * 4>>>(next, c.lines, laps, lap, cycles);
            CHECK(cudaGetLastError());
            CHECK(cudaDeviceSynchronize());
            CHECK(cudaMemcpy(t.data(), cycles, t.size() * 4, cudaMemcpyDeviceToHost));
            for (int i = 0; i < c.lines; ++i) std::fprintf(out, "%d,%d,%d,%d,%u\n", c.carve_pct, c.lines, lap, i, t[i]);
        }
    std::fclose(out);
    return 0;
}
