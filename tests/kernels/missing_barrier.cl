// The tiled kernel without its second barrier: a fast work-item starts the next phase
// and overwrites the tiles while slower ones are still reading them. Oclgrind's race
// detector reports it; the fix is the barrier after the inner loop.

#ifndef TS
#define TS 8
#endif

__kernel void mm_missing_barrier(const int M, const int N, const int K,
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
    for (int p = 0; p < K / TS; ++p) {
        atile[lr][lc] = A[row * K + p * TS + lc];
        btile[lr][lc] = B[(p * TS + lr) * N + col];
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int k = 0; k < TS; ++k)
            acc += atile[lr][k] * btile[k][lc];
        // missing: barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * N + col] = acc;
}
