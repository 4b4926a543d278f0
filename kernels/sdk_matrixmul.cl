// Rung 6, sdk_matrixmul: the tiled kernel in the form GPU SDK samples give it. Square
// BLOCK_SIZE x BLOCK_SIZE work-groups each compute a block of C; per step along K every
// work-item copies one element of A and one of B into two local tiles, the group meets at a
// barrier, and each work-item takes a row of the A tile times a column of the B tile. The
// local tiles are not declared in the kernel but passed as __local arguments, so the host
// sizes them (BLOCK_SIZE*BLOCK_SIZE floats each), and the matrices come with their widths
// (wA = K, wB = N) and A's height (hA = M). The traffic is the tiled rung's: where local
// memory is sized changes nothing the trace counts. Out-of-range elements load as 0 and
// out-of-range elements of C are not written, so any M, N, K work.

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 16
#endif

// Element (r, c) of a BLOCK_SIZE-wide tile held in a flat __local array.
#define TILE(t, r, c) t[(r) * BLOCK_SIZE + (c)]

__kernel void mm_sdk(__global float* C, const __global float* A, const __global float* B,
                     __local float* As, __local float* Bs,
                     const int wA, const int wB, const int hA)
{
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int crow = get_group_id(1) * BLOCK_SIZE + ty;  // row of C (and of A) this work-item owns
    const int ccol = get_group_id(0) * BLOCK_SIZE + tx;  // column of C (and of B)

    float sum = 0.0f;
    for (int k0 = 0; k0 < wA; k0 += BLOCK_SIZE) {
        TILE(As, ty, tx) = (crow < hA && k0 + tx < wA) ? A[crow * wA + k0 + tx] : 0.0f;
        TILE(Bs, ty, tx) = (k0 + ty < wA && ccol < wB) ? B[(k0 + ty) * wB + ccol] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < BLOCK_SIZE; ++k)
            sum += TILE(As, ty, k) * TILE(Bs, k, tx);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (crow < hA && ccol < wB)
        C[crow * wB + ccol] = sum;
}
