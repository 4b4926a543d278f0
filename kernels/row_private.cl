// Rung 3, row_private: a work-item that owns a row of C uses the same row of A for
// every one of its N results, so it copies that row into private memory once.
// Loads of A drop from M*N*K to M*K; loads of B stay at M*N*K.
// KMAX is the length of the private copy; the host passes -D KMAX=K.

#ifndef KMAX
#define KMAX 1024
#endif

__kernel void mm_row_private(const int M, const int N, const int K,
                             const __global float* A,
                             const __global float* B,
                             __global float* C)
{
    const int row = get_global_id(0);
    if (row >= M)
        return;

    float arow[KMAX];
    for (int k = 0; k < K; ++k)
        arow[k] = A[row * K + k];

    for (int col = 0; col < N; ++col) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
            acc += arow[k] * B[k * N + col];
        C[row * N + col] = acc;
    }
}
