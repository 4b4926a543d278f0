// Naive matrix multiply with the NDRange turned round: dimension 0 runs down the rows
// of C, so the 32 neighbouring work-items of a sub-group read 32 different rows of A
// (32 sectors per request) and all read the same element of B (1 sector).

__kernel void mm_uncoalesced(const int M, const int N, const int K,
                             const __global float* A,
                             const __global float* B,
                             __global float* C)
{
    const int row = get_global_id(0);
    const int col = get_global_id(1);
    if (row >= M || col >= N)
        return;

    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
        acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
}
