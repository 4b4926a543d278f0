// Naive matrix multiply with A stored column-major (element (i,k) at A[k*M + i]); B and
// C stay row-major. The trace reports A's tiles in A's own (row, column) coordinates.

__kernel void mm_colmajor(const int M, const int N, const int K,
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
        acc += A[k * M + row] * B[k * N + col];
    C[row * N + col] = acc;
}
