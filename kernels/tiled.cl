// Rung 5, tiled: a TSxTS work-group computes a TSxTS tile of C. It walks along K one
// phase at a time; in each phase every work-item loads one element of a TSxTS tile of
// A and one of B into local memory, the group waits at a barrier, then every
// work-item reads a row of the A tile and a column of the B tile from local memory.
// Each global element now serves TS work-items: 2*M*N*K/TS global loads in all.
// The second barrier keeps fast work-items from overwriting a tile still in use.
// Elements past the edge of A or B load as 0, so any M, N, K work.

#ifndef TS
#define TS 16
#endif

__kernel void mm_tiled(const int M, const int N, const int K,
                       const __global float* A,
                       const __global float* B,
                       __global float* C)
{
    const int lc = get_local_id(0);             // column inside the tile
    const int lr = get_local_id(1);             // row inside the tile
    const int col = get_group_id(0) * TS + lc;  // column of C
    const int row = get_group_id(1) * TS + lr;  // row of C

    __local float atile[TS][TS];
    __local float btile[TS][TS];

    float acc = 0.0f;
    const int phases = (K + TS - 1) / TS;
    for (int p = 0; p < phases; ++p) {
        const int acol = p * TS + lc;  // column of A this work-item fetches
        const int brow = p * TS + lr;  // row of B this work-item fetches
        atile[lr][lc] = (row < M && acol < K) ? A[row * K + acol] : 0.0f;
        btile[lr][lc] = (brow < K && col < N) ? B[brow * N + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int k = 0; k < TS; ++k)
            acc += atile[lr][k] * btile[k][lc];
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    if (row < M && col < N)
        C[row * N + col] = acc;
}
