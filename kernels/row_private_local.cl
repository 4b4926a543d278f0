// Rung 4, row_private_local: the work-items of one group all need the same column of
// B at the same time, so they copy it into local memory together, each fetching a
// share, then all read it from there. Loads of B drop from M*N*K to (groups)*N*K.
// Two barriers per column: one before the column is read (all of it has arrived),
// one before it is overwritten (everyone has finished with it).
// Work-items past the last row must still reach the barriers: no early return.

#ifndef KMAX
#define KMAX 1024
#endif

__kernel void mm_row_private_local(const int M, const int N, const int K,
                                   const __global float* A,
                                   const __global float* B,
                                   __global float* C,
                                   __local float* bcol)
{
    const int row = get_global_id(0);
    const int lid = get_local_id(0);
    const int nloc = get_local_size(0);
    const bool active = row < M;

    float arow[KMAX];
    if (active)
        for (int k = 0; k < K; ++k)
            arow[k] = A[row * K + k];

    for (int col = 0; col < N; ++col) {
        for (int k = lid; k < K; k += nloc)
            bcol[k] = B[k * N + col];
        barrier(CLK_LOCAL_MEM_FENCE);

        if (active) {
            float acc = 0.0f;
            for (int k = 0; k < K; ++k)
                acc += arow[k] * bcol[k];
            C[row * N + col] = acc;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
