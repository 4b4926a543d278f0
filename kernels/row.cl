// Rung 2, row: one work-item computes a whole row of C. Fewer, longer work-items:
// the same 2*M*N*K global loads as the naive kernel, but now the work-items of a
// group walk B in lock-step down the same column, so their loads of B no longer sit
// side by side in memory. More work per item is not, by itself, less traffic.

__kernel void mm_row(const int M, const int N, const int K,
                     const __global float* A,
                     const __global float* B,
                     __global float* C)
{
    const int row = get_global_id(0);
    if (row >= M)
        return;

    for (int col = 0; col < N; ++col) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
            acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = acc;
    }
}
