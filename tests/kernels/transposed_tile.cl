// Tiled matrix multiply that keeps the tile of B transposed in local memory. With
// TS = 32 and no padding, the 32 work-items of a sub-group (one row of the work-group)
// store and read words 32 apart: all in one bank, a 32-way conflict. PAD=1 adds a
// column to the tile so the same accesses spread over all 32 banks.

#ifndef TS
#define TS 32
#endif
#ifndef PAD
#define PAD 0
#endif

__kernel void mm_transposed_tile(const int M, const int N, const int K,
                                 const __global float* A,
                                 const __global float* B,
                                 __global float* C)
{
    const int lc = get_local_id(0);
    const int lr = get_local_id(1);
    const int col = get_group_id(0) * TS + lc;
    const int row = get_group_id(1) * TS + lr;

    __local float atile[TS][TS];
    __local float btile_t[TS][TS + PAD];

    float acc = 0.0f;
    for (int p = 0; p < K / TS; ++p) {
        atile[lr][lc] = A[row * K + p * TS + lc];
        btile_t[lc][lr] = B[(p * TS + lr) * N + col];
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int k = 0; k < TS; ++k)
            acc += atile[lr][k] * btile_t[lc][k];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * N + col] = acc;
}
