// Exercise: the bounds check put around the whole body. It looks tidy, but the barriers
// are now inside a branch that only some work-items of an edge work-group take: the
// others never arrive, while the ones inside wait for them (barrier divergence). Worse,
// the work-items outside no longer load their part of the tiles. Run it at a size that
// is not a multiple of TS, e.g. 37x29x45 with TS 8.

#ifndef TS
#define TS 16
#endif

__kernel void mm_tiled_guarded(const int M, const int N, const int K,
                               const __global float* A,
                               const __global float* B,
                               __global float* C)
{
    const int lc = get_local_id(0);
    const int lr = get_local_id(1);
    const int col = get_group_id(0) * TS + lc;
    const int row = get_group_id(1) * TS + lr;

    __local float atile[TS][TS];
    __local float btile[TS][TS];

    if (row < M && col < N) {  // the mistake: barriers inside a branch not all take
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
}
