// Exercise: a local array that is read but never written. The kernel loads its tile of A
// but forgot the line that loads its tile of B, so every multiply-add reads btile, which
// nothing in this launch ever stored: local memory starts with no defined value and lives
// only as long as the work-group. The tiles come in as __local arguments (the host sets
// their size), and the emulator's uninitialised-value check follows what is stored in them.

#ifndef TS
#define TS 16
#endif

__kernel void mm_tiled_nobtile(const int M, const int N, const int K,
                               const __global float* A,
                               const __global float* B,
                               __global float* C,
                               __local float* atile,   // TS*TS floats
                               __local float* btile)   // TS*TS floats
{
    const int lc = get_local_id(0);
    const int lr = get_local_id(1);
    const int col = get_group_id(0) * TS + lc;
    const int row = get_group_id(1) * TS + lr;

    float acc = 0.0f;
    const int phases = (K + TS - 1) / TS;
    for (int p = 0; p < phases; ++p) {
        const int acol = p * TS + lc;
        atile[lr * TS + lc] = (row < M && acol < K) ? A[row * K + acol] : 0.0f;
        // (the load of this phase's tile of B into btile is missing)
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int k = 0; k < TS; ++k)
            acc += atile[lr * TS + k] * btile[k * TS + lc];
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    if (row < M && col < N)
        C[row * N + col] = acc;
}
