// Rung 6, tiled_wpt: more work per work-item. The tiled kernel's TS x TS tiles of A and
// B, but a work-item computes a column of WPT elements of C instead of one (rows lr,
// lr + TS/WPT, ...), so a work-group is TS x TS/WPT work-items. Each value of the B tile
// a work-item reads from local memory now serves WPT multiply-adds: local loads per
// multiply-add fall from 2 to (1 + WPT)/WPT. Global traffic is the tiled kernel's
// (2*M*N*K/TS loads); each work-item simply loads WPT elements of each tile per phase.
// Elements past the edge of A or B load as 0, so any M, N, K work.

#ifndef TS
#define TS 32
#endif
#ifndef WPT
#define WPT 4
#endif
#if TS % WPT != 0
#error "WPT must divide TS"
#endif
#define RTS (TS / WPT)  // work-items along the rows of a tile

__kernel __attribute__((reqd_work_group_size(TS, RTS, 1)))
void mm_wpt_column(const int M, const int N, const int K,
                   const __global float* A,
                   const __global float* B,
                   __global float* C)
{
    const int lc = get_local_id(0);             // column inside the tile
    const int lr = get_local_id(1);             // first of this work-item's rows
    const int col = get_group_id(0) * TS + lc;  // column of C
    const int row0 = get_group_id(1) * TS;      // first row of the tile

    __local float atile[TS][TS];
    __local float btile[TS][TS];

    float acc[WPT];
    #pragma unroll
    for (int w = 0; w < WPT; ++w) acc[w] = 0.0f;

    const int phases = (K + TS - 1) / TS;
    for (int p = 0; p < phases; ++p) {
        #pragma unroll
        for (int w = 0; w < WPT; ++w) {
            const int r = lr + w * RTS;  // row of both tiles this work-item fills
            const int arow = row0 + r, acol = p * TS + lc, brow = p * TS + r;
            atile[r][lc] = (arow < M && acol < K) ? A[arow * K + acol] : 0.0f;
            btile[r][lc] = (brow < K && col < N) ? B[brow * N + col] : 0.0f;
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        #pragma unroll
        for (int k = 0; k < TS; ++k) {
            const float b = btile[k][lc];  // one local load, WPT uses
            #pragma unroll
            for (int w = 0; w < WPT; ++w)
                acc[w] += atile[lr + w * RTS][k] * b;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    #pragma unroll
    for (int w = 0; w < WPT; ++w) {
        const int row = row0 + lr + w * RTS;
        if (row < M && col < N) C[row * N + col] = acc[w];
    }
}
