// Validation of the cache model (issue 11), not part of the product: CUDA versions of the
// ladder's naive and tiled kernels with the same indexing, work-group shape (TS x TS) and
// row-major layout as kernels/naive.cl and kernels/tiled.cl, so Nsight Compute can count
// their L1/L2/DRAM sectors (it does not see OpenCL kernels). One launch of each.
//   caches_mm M N K [TS=16]
#include <cstdio>
#include <cstdlib>
#include <vector>

#ifndef TS
#define TS 16
#endif

__global__ void mm_naive(int M, int N, int K, const float* A, const float* B, float* C) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
}

__global__ void mm_tiled(int M, int N, int K, const float* A, const float* B, float* C) {
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

int main(int argc, char** argv) {
    const int M = argc > 1 ? std::atoi(argv[1]) : 128, N = argc > 2 ? std::atoi(argv[2]) : M,
              K = argc > 3 ? std::atoi(argv[3]) : M;
    int dev = 0, sms = 0, l2 = 0, smem = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev);
    cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev);
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, dev);
    std::printf("device=%s sms=%d l2_bytes=%d max_smem_per_sm=%d M=%d N=%d K=%d TS=%d\n", prop.name, sms, l2, smem,
                M, N, K, TS);
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
    const dim3 block(TS, TS), grid((N + TS - 1) / TS, (M + TS - 1) / TS);
    for (int which = 0; which < 2; ++which) {
        cudaMemset(dC, 0, c.size() * 4);
        if (which == 0) mm_naive<<<grid, block>>>(M, N, K, dA, dB, dC);
        else mm_tiled<<<grid, block>>>(M, N, K, dA, dB, dC);
        cudaMemcpy(c.data(), dC, c.size() * 4, cudaMemcpyDeviceToHost);
        double max_err = 0;  // against a CPU product, so the counted launch computed the right thing
        for (int i = 0; i < M; i += 7)
            for (int j = 0; j < N; j += 5) {
                double ref = 0;
                for (int k = 0; k < K; ++k) ref += double(a[size_t(i) * K + k]) * b[size_t(k) * N + j];
                max_err = std::max(max_err, std::abs(ref - c[size_t(i) * N + j]));
            }
        std::printf("%s max_abs_error=%.2e %s\n", which ? "tiled" : "naive", max_err, cudaGetErrorString(cudaGetLastError()));
    }
    return 0;
}
