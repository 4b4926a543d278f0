// Exercise: the tiled kernel with an early return for work-items outside C. When M or N
// is not a multiple of TS, the work-items past the edge leave before the barrier that
// the rest of their work-group waits at: barrier divergence, undefined behaviour in
// OpenCL. Run it with a size that is not a multiple of TS, e.g. 37x29x45 with TS 8.

#ifndef TS
#define TS 16
#endif

__kernel void mm_tiled_earlyreturn(const int M, const int N, const int K,
                                   const __global float* A,
                                   const __global float* B,
                                   __global float* C)
{
    const int lc = get_local_id(0);
    const int lr = get_local_id(1);
    const int col = get_group_id(0) * TS + lc;
    const int row = get_group_id(1) * TS + lr;
    if (row >= M || col >= N)
        return;  // the mistake: these work-items never reach the barriers below

    __local float atile[TS][TS];
    __local float btile[TS][TS];

    float acc = 0.0f;
    const int phases = (K + TS - 1) / TS;
    for (int p = 0; p < phases; ++p) {
        const int acol = p * TS + lc;
        const int brow = p * TS + lr;
        atile[lr][lc] = acol < K ? A[row * K + acol] : 0.0f;
        btile[lr][lc] = brow < K ? B[brow * N + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int k = 0; k < TS; ++k)
            acc += atile[lr][k] * btile[k][lc];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * N + col] = acc;
}
