// Exercise: the tiled kernel with its second barrier removed. A work-item that finishes
// its multiply-adds early goes on to the next phase and overwrites its element of the
// tiles while neighbours are still reading the old values: a data race. The result may
// even come out right on one device and wrong on another. Find the line that is missing.

#ifndef TS
#define TS 16
#endif

__kernel void mm_tiled_nobarrier(const int M, const int N, const int K,
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
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int k = 0; k < TS; ++k)
            acc += atile[lr][k] * btile[k][lc];
        // (the barrier that belongs here is missing)
    }

    if (row < M && col < N)
        C[row * N + col] = acc;
}
