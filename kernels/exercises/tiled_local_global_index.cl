// Exercise: local arrays indexed with the global id. Each work-group has its own TSxTS
// tiles, so they must be indexed with the local id. With the global id only work-group
// (0,0) stays inside its tiles (there the two ids are equal); every other group writes
// and reads past their ends.

#ifndef TS
#define TS 16
#endif

__kernel void mm_tiled_globalindex(const int M, const int N, const int K,
                                   const __global float* A,
                                   const __global float* B,
                                   __global float* C)
{
    const int col = get_global_id(0);
    const int row = get_global_id(1);
    const int lc = get_local_id(0);
    const int lr = get_local_id(1);

    __local float atile[TS][TS];
    __local float btile[TS][TS];

    float acc = 0.0f;
    const int phases = (K + TS - 1) / TS;
    for (int p = 0; p < phases; ++p) {
        const int acol = p * TS + lc;
        const int brow = p * TS + lr;
        atile[row][col] = (row < M && acol < K) ? A[row * K + acol] : 0.0f;  // the mistake: row, col
        btile[row][col] = (brow < K && col < N) ? B[brow * N + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int k = 0; k < TS; ++k)
            acc += atile[row][k] * btile[k][col];
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    if (row < M && col < N)
        C[row * N + col] = acc;
}
