// Issue 31's check kernel, not part of the ladder and never used to fit the cache model:
// naive with B stored transposed (Bt is N x K, row-major), so a sub-group's B request
// walks 16 rows of Bt, K floats apart, instead of one contiguous row of B. Its CUDA twin
// is mm_naive_bt in caches_twins.cu ("naive_bt").
//   tilescope trace --source scripts/validation/naive_bt.cl --entry mm_naive_bt \
//     --global '((N+15)/16)*16,((M+15)/16)*16' --local 16,16 --arg M=int:M --arg N=int:N \
//     --arg K=int:K --arg A=matrix:MxK:in --arg B=matrix:NxK:in --arg C=matrix:MxN:out ...
__kernel void mm_naive_bt(const int M, const int N, const int K,
                          const __global float* A,
                          const __global float* B,
                          __global float* C)
{
    const int col = get_global_id(0);
    const int row = get_global_id(1);
    if (row >= M || col >= N)
        return;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
        acc += A[row * K + k] * B[col * K + k];
    C[row * N + col] = acc;
}
