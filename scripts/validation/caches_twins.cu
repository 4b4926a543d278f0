// Validation of the cache model (issue 24), not part of the product: CUDA twins of six
// ladder rungs with the indexing, work-group shape and row-major layout of their OpenCL
// sources (kernels/*.cl at the ladder's default parameters), so Nsight Compute can count
// their L1/L2/DRAM sectors (it does not see OpenCL kernels).
//   naive      kernels/naive.cl      TS 16: 16x16 blocks, one C(i,j) per thread
//   tiled      kernels/tiled.cl      TS 16: 16x16 blocks, 16x16 tiles in shared memory
//   row        kernels/row.cl        TS 16: 16-thread blocks, one row of C per thread
//   reg2d      kernels/reg2d.cl      TS 64, TSK 16, WPTM = WPTN = 4: 16x16 blocks
//   tiled_wpt  kernels/tiled_wpt.cl  TS 32, WPT 4: 32x8 blocks (not used to tune the model)
//   reg2d_tpad kernels/reg2d_tpad.cl TS 64, TSK 16, WPTM = WPTN = 8, VW 4, PAD 4: 8x8 blocks,
//              float4 loads where the OpenCL source makes them (not used to tune the model)
//
//   caches_twins SIZE KERNEL[,KERNEL..]            one launch of each (what ncu profiles)
//   caches_twins SIZE KERNEL[,KERNEL..] place.csv  the same launches, each block recording
//              the SM it ran on and when it started (%smid, %globaltimer): the placement
// It also prints, per kernel, registers per thread, static shared memory and the blocks
// per SM the occupancy calculator allows (cudaOccupancyMaxActiveBlocksPerMultiprocessor).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

struct Rec {
    unsigned* out;  // per block: smid, start time low, start time high
};

template <bool REC>
__device__ __forceinline__ void record(Rec rec) {
    if constexpr (REC) {
        if (threadIdx.x == 0 && threadIdx.y == 0) {
            unsigned smid;
            unsigned long long t;
            asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
            const unsigned b = blockIdx.y * gridDim.x + blockIdx.x;
            rec.out[3 * b] = smid;
            rec.out[3 * b + 1] = unsigned(t);
            rec.out[3 * b + 2] = unsigned(t >> 32);
        }
    }
}

template <bool REC>
__global__ void mm_naive(int M, int N, int K, const float* A, const float* B, float* C, Rec rec) {
    record<REC>(rec);
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
}

// Issue 31's check kernel (scripts/validation/naive_bt.cl): naive with B stored transposed
// (N x K, row-major). Never used to fit the model. The product is checked against A * Bt^T.
template <bool REC>
__global__ void mm_naive_bt(int M, int N, int K, const float* A, const float* B, float* C, Rec rec) {
    record<REC>(rec);
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[col * K + k];
    C[row * N + col] = acc;
}

template <bool REC>
__global__ void mm_row(int M, int N, int K, const float* A, const float* B, float* C, Rec rec) {
    record<REC>(rec);
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M) return;
    for (int col = 0; col < N; ++col) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = acc;
    }
}

template <bool REC>
__global__ void mm_tiled(int M, int N, int K, const float* A, const float* B, float* C, Rec rec) {
    constexpr int TS = 16;
    record<REC>(rec);
    const int lc = threadIdx.x, lr = threadIdx.y;
    const int col = blockIdx.x * TS + lc, row = blockIdx.y * TS + lr;
    __shared__ float atile[TS][TS];
    __shared__ float btile[TS][TS];
    float acc = 0.0f;
    const int phases = (K + TS - 1) / TS;
    for (int p = 0; p < phases; ++p) {
        const int acol = p * TS + lc, brow = p * TS + lr;
        atile[lr][lc] = (row < M && acol < K) ? A[row * K + acol] : 0.0f;
        btile[lr][lc] = (brow < K && col < N) ? B[brow * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TS; ++k) acc += atile[lr][k] * btile[k][lc];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = acc;
}

template <bool REC>
__global__ void mm_wpt_column(int M, int N, int K, const float* A, const float* B, float* C, Rec rec) {
    constexpr int TS = 32, WPT = 4, RTS = TS / WPT;
    record<REC>(rec);
    const int lc = threadIdx.x, lr = threadIdx.y;
    const int col = blockIdx.x * TS + lc, row0 = blockIdx.y * TS;
    __shared__ float atile[TS][TS];
    __shared__ float btile[TS][TS];
    float acc[WPT];
#pragma unroll
    for (int w = 0; w < WPT; ++w) acc[w] = 0.0f;
    const int phases = (K + TS - 1) / TS;
    for (int p = 0; p < phases; ++p) {
#pragma unroll
        for (int w = 0; w < WPT; ++w) {
            const int r = lr + w * RTS;
            const int arow = row0 + r, acol = p * TS + lc, brow = p * TS + r;
            atile[r][lc] = (arow < M && acol < K) ? A[arow * K + acol] : 0.0f;
            btile[r][lc] = (brow < K && col < N) ? B[brow * N + col] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TS; ++k) {
            const float b = btile[k][lc];
#pragma unroll
            for (int w = 0; w < WPT; ++w) acc[w] += atile[lr + w * RTS][k] * b;
        }
        __syncthreads();
    }
#pragma unroll
    for (int w = 0; w < WPT; ++w) {
        const int row = row0 + lr + w * RTS;
        if (row < M && col < N) C[row * N + col] = acc[w];
    }
}

template <bool REC>
__global__ void mm_reg_block(int M, int N, int K, const float* A, const float* B, float* C, Rec rec) {
    constexpr int TS = 64, TSK = 16, WPTM = 4, WPTN = 4, RTSM = TS / WPTM, RTSN = TS / WPTN, WGSIZE = RTSM * RTSN;
    record<REC>(rec);
    const int tx = threadIdx.x, ty = threadIdx.y, lid = ty * RTSN + tx;
    const int col0 = blockIdx.x * TS, row0 = blockIdx.y * TS;
    __shared__ float atile[TS][TSK];
    __shared__ float btile[TSK][TS];
    float acc[WPTM][WPTN];
#pragma unroll
    for (int i = 0; i < WPTM; ++i)
#pragma unroll
        for (int j = 0; j < WPTN; ++j) acc[i][j] = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TSK) {
        for (int e = lid; e < TS * TSK; e += WGSIZE) {
            const int r = e / TSK, c = e % TSK, gr = row0 + r, gc = k0 + c;
            atile[r][c] = (gr < M && gc < K) ? A[gr * K + gc] : 0.0f;
        }
        for (int e = lid; e < TSK * TS; e += WGSIZE) {
            const int r = e / TS, c = e % TS, gr = k0 + r, gc = col0 + c;
            btile[r][c] = (gr < K && gc < N) ? B[gr * N + gc] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TSK; ++k) {
            float a[WPTM], b[WPTN];
#pragma unroll
            for (int i = 0; i < WPTM; ++i) a[i] = atile[ty + i * RTSM][k];
#pragma unroll
            for (int j = 0; j < WPTN; ++j) b[j] = btile[k][tx + j * RTSN];
#pragma unroll
            for (int i = 0; i < WPTM; ++i)
#pragma unroll
                for (int j = 0; j < WPTN; ++j) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < WPTM; ++i) {
        const int row = row0 + ty + i * RTSM;
#pragma unroll
        for (int j = 0; j < WPTN; ++j) {
            const int col = col0 + tx + j * RTSN;
            if (row < M && col < N) C[row * N + col] = acc[i][j];
        }
    }
}

// load_vec of kernels/reg2d_tpad.cl: a float4 where the row holds it and N is a multiple of
// 4, else the elements one by one (those outside read as 0, no load).
__device__ __forceinline__ float4 load_vec(const float* X, int rows, int cols, int r, int c) {
    if (r < rows && c + 4 <= cols && cols % 4 == 0) return reinterpret_cast<const float4*>(X)[(r * cols + c) / 4];
    float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
    for (int i = 0; i < 4; ++i)
        if (r < rows && c + i < cols) v[i] = X[r * cols + c + i];
    return make_float4(v[0], v[1], v[2], v[3]);
}

// reg2d_tpad at its defaults, any size (loads and stores as kernels/reg2d_tpad.cl's: float4
// where the row holds one and the size is a multiple of 4, else element by element).
template <bool REC>
__global__ void mm_tpad_block(int M, int N, int K, const float* A, const float* B, float* C, Rec rec) {
    constexpr int TS = 64, TSK = 16, WPTM = 8, WPTN = 8, VW = 4, PAD = 4;
    constexpr int RTSM = TS / WPTM, RTSN = TS / WPTN, WGSIZE = RTSM * RTSN, ASTRIDE = TS + PAD;
    record<REC>(rec);
    const int tx = threadIdx.x, ty = threadIdx.y, lid = ty * RTSN + tx;
    const int col0 = blockIdx.x * TS, row0 = blockIdx.y * TS;
    __shared__ float4 atile[TSK * ASTRIDE / VW];
    __shared__ float4 btile[TSK][TS / VW];
    float* at = reinterpret_cast<float*>(atile);
    float4 acc[WPTM][WPTN / VW];
#pragma unroll
    for (int i = 0; i < WPTM; ++i)
#pragma unroll
        for (int j = 0; j < WPTN / VW; ++j) acc[i][j] = make_float4(0, 0, 0, 0);
    for (int k0 = 0; k0 < K; k0 += TSK) {
        for (int e = lid; e < TS * TSK / VW; e += WGSIZE) {
            const int r = e / (TSK / VW), c = (e % (TSK / VW)) * VW;
            const float4 x = load_vec(A, M, K, row0 + r, k0 + c);
            at[(c + 0) * ASTRIDE + r] = x.x;
            at[(c + 1) * ASTRIDE + r] = x.y;
            at[(c + 2) * ASTRIDE + r] = x.z;
            at[(c + 3) * ASTRIDE + r] = x.w;
        }
        for (int e = lid; e < TSK * TS / VW; e += WGSIZE) {
            const int r = e / (TS / VW), c = e % (TS / VW);
            btile[r][c] = load_vec(B, K, N, k0 + r, col0 + c * VW);
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TSK; ++k) {
            float4 a[WPTM / VW], b[WPTN / VW];
#pragma unroll
            for (int i = 0; i < WPTM / VW; ++i) a[i] = atile[(k * ASTRIDE) / VW + i * RTSM + ty];
#pragma unroll
            for (int j = 0; j < WPTN / VW; ++j) b[j] = btile[k][j * RTSN + tx];
#pragma unroll
            for (int i = 0; i < WPTM / VW; ++i) {
                const float av[4] = {a[i].x, a[i].y, a[i].z, a[i].w};
#pragma unroll
                for (int v = 0; v < VW; ++v)
#pragma unroll
                    for (int j = 0; j < WPTN / VW; ++j) {
                        float4& c = acc[i * VW + v][j];
                        c.x += av[v] * b[j].x;
                        c.y += av[v] * b[j].y;
                        c.z += av[v] * b[j].z;
                        c.w += av[v] * b[j].w;
                    }
            }
        }
        __syncthreads();
    }
    // Stores as in kernels/reg2d_tpad.cl: row i * RTSM + ty... (vector stores of C)
#pragma unroll
    for (int i = 0; i < WPTM / VW; ++i)
#pragma unroll
        for (int v = 0; v < VW; ++v) {
            const int row = row0 + (i * RTSM + ty) * VW + v;
            if (row >= M) continue;
#pragma unroll
            for (int j = 0; j < WPTN / VW; ++j) {
                const int col = col0 + (j * RTSN + tx) * VW;
                const float4 x = acc[i * VW + v][j];
                if (col + VW <= N && N % VW == 0) {
                    reinterpret_cast<float4*>(C)[(row * N + col) / VW] = x;
                } else {
                    const float e[4] = {x.x, x.y, x.z, x.w};
#pragma unroll
                    for (int c = 0; c < VW; ++c)
                        if (col + c < N) C[row * N + col + c] = e[c];
                }
            }
        }
}

typedef void (*Kern)(int, int, int, const float*, const float*, float*, Rec);
struct Twin {
    const char* name;
    Kern plain, rec;
    int bx, by, ts_m, ts_n;  // block shape; rows and columns of C per block
};

static const Twin kTwins[] = {
    {"naive", mm_naive<false>, mm_naive<true>, 16, 16, 16, 16},
    {"tiled", mm_tiled<false>, mm_tiled<true>, 16, 16, 16, 16},
    {"row", mm_row<false>, mm_row<true>, 16, 1, 16, 0},
    {"reg2d", mm_reg_block<false>, mm_reg_block<true>, 16, 16, 64, 64},
    {"tiled_wpt", mm_wpt_column<false>, mm_wpt_column<true>, 32, 8, 32, 32},
    {"reg2d_tpad", mm_tpad_block<false>, mm_tpad_block<true>, 8, 8, 64, 64},
    {"naive_bt", mm_naive_bt<false>, mm_naive_bt<true>, 16, 16, 16, 16},  // B is N x K (transposed)
};

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: caches_twins SIZE KERNEL[,KERNEL..] [place.csv]\n");
        return 2;
    }
    const int M = std::atoi(argv[1]), N = M, K = M;
    const std::string list = argv[2];
    FILE* place = argc > 3 ? std::fopen(argv[3], "a") : nullptr;
    int dev = 0, sms = 0, l2 = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev);
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, dev);
    std::printf("device=%s sms=%d l2_bytes=%d size=%d\n", prop.name, sms, l2, M);
    std::vector<float> a(size_t(M) * K), b(size_t(K) * N), c(size_t(M) * N);
    srand(1);
    for (auto& x : a) x = float(rand()) / RAND_MAX - 0.5f;
    for (auto& x : b) x = float(rand()) / RAND_MAX - 0.5f;
    float *dA, *dB, *dC;
    cudaMalloc(&dA, a.size() * 4);
    cudaMalloc(&dB, b.size() * 4);
    cudaMalloc(&dC, c.size() * 4);
    cudaMemcpy(dA, a.data(), a.size() * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, b.data(), b.size() * 4, cudaMemcpyHostToDevice);
    for (const Twin& t : kTwins) {
        if (("," + list + ",").find("," + std::string(t.name) + ",") == std::string::npos) continue;
        dim3 block(t.bx, t.by), grid;
        if (t.ts_n == 0) grid = dim3((M + t.ts_m - 1) / t.ts_m);
        else grid = dim3((N + t.ts_n - 1) / t.ts_n, (M + t.ts_m - 1) / t.ts_m);
        // cache9: TWINS_CARVEOUT=P asks for a shared-memory carve-out of P percent of the most (the
        // driver rounds up to a step; ncu's launch__shared_mem_config_size says what it took).
        if (const char* pct = std::getenv("TWINS_CARVEOUT")) {
            cudaFuncSetAttribute(t.plain, cudaFuncAttributePreferredSharedMemoryCarveout, std::atoi(pct));
            cudaFuncSetAttribute(t.rec, cudaFuncAttributePreferredSharedMemoryCarveout, std::atoi(pct));
        }
        cudaFuncAttributes fa{};
        cudaFuncGetAttributes(&fa, t.plain);
        int per_sm = 0;
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, t.plain, t.bx * t.by, 0);
        const size_t blocks = size_t(grid.x) * grid.y;
        unsigned* dRec = nullptr;
        if (place) cudaMalloc(&dRec, blocks * 3 * 4);
        cudaMemset(dC, 0, c.size() * 4);
        cudaDeviceSynchronize();
        (place ? t.rec : t.plain)<<<grid, block>>>(M, N, K, dA, dB, dC, Rec{dRec});
        cudaMemcpy(c.data(), dC, c.size() * 4, cudaMemcpyDeviceToHost);
        const bool bt = std::string(t.name) == "naive_bt";  // M = N = K: b read as Bt (N x K)
        double max_err = 0;  // against a CPU product on a sample of C
        const int step = M >= 1024 ? 61 : 7;
        for (int i = 0; i < M; i += step)
            for (int j = 0; j < N; j += step - 2) {
                double ref = 0;
                for (int k = 0; k < K; ++k)
                    ref += double(a[size_t(i) * K + k]) * (bt ? b[size_t(j) * K + k] : b[size_t(k) * N + j]);
                max_err = std::max(max_err, std::abs(ref - c[size_t(i) * N + j]));
            }
        std::printf("kernel=%s size=%d grid=%ux%u block=%dx%d regs=%d smem_static=%zu local=%zu blocks_per_sm=%d "
                    "max_abs_error=%.2e %s\n",
                    t.name, M, grid.x, grid.y, t.bx, t.by, fa.numRegs, fa.sharedSizeBytes, fa.localSizeBytes, per_sm,
                    max_err, cudaGetErrorString(cudaGetLastError()));
        if (place) {
            std::vector<unsigned> r(blocks * 3);
            cudaMemcpy(r.data(), dRec, r.size() * 4, cudaMemcpyDeviceToHost);
            unsigned long long t0 = ~0ull;
            for (size_t i = 0; i < blocks; ++i) t0 = std::min(t0, r[3 * i + 1] | (unsigned long long)r[3 * i + 2] << 32);
            for (size_t i = 0; i < blocks; ++i)
                std::fprintf(place, "%s,%d,%zu,%zu,%zu,%u,%llu\n", t.name, M, i, i % grid.x, i / grid.x, r[3 * i],
                             (r[3 * i + 1] | (unsigned long long)r[3 * i + 2] << 32) - t0);
            cudaFree(dRec);
        }
    }
    if (place) std::fclose(place);
    return 0;
}
