// Exercise: the tiled kernel without the barrier between loading the tiles and using
// them. A work-item starts its multiply-adds as soon as it has stored its own two
// elements, reading elements of the tiles that its neighbours have not stored yet: it
// reads what the previous phase left there (or nothing at all in phase 0). A data race.

#ifndef TS
#define TS 16
#endif

__kernel void mm_tiled_noloadbarrier(const int M, const int N, const int K,
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

    float acc = 0.0f;
    const int phases = (K + TS - 1) / TS;
    for (int p = 0; p < phases; ++p) {
        const int acol = p * TS + lc;
        const int brow = p * TS + lr;
        atile[lr][lc] = (row < M && acol < K) ? A[row * K + acol] : 0.0f;
        btile[lr][lc] = (brow < K && col < N) ? B[brow * N + col] : 0.0f;
        // (the barrier that belongs here is missing)

        for (int k = 0; k < TS; ++k)
            acc += atile[lr][k] * btile[k][lc];
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    if (row < M && col < N)
        C[row * N + col] = acc;
}
