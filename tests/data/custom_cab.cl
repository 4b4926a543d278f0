// A custom kernel in the style of the CUDA-port tutorials: arguments in the order
// C, A, B, then the widths of A and B; BLOCK x BLOCK tiles in local memory.
#ifndef BLOCK
#define BLOCK 16
#endif

__kernel void matmul_cab(__global float* C, __global const float* A, __global const float* B,
                         int wA, int wB, int hA)
{
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int col = get_group_id(0) * BLOCK + tx;
    const int row = get_group_id(1) * BLOCK + ty;
    __local float as[BLOCK][BLOCK];
    __local float bs[BLOCK][BLOCK];
    float sum = 0.0f;
    for (int t = 0; t < wA; t += BLOCK) {
        as[ty][tx] = (row < hA && t + tx < wA) ? A[row * wA + t + tx] : 0.0f;
        bs[ty][tx] = (t + ty < wA && col < wB) ? B[(t + ty) * wB + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < BLOCK; ++k)
            sum += as[ty][k] * bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < hA && col < wB)
        C[row * wB + col] = sum;
}
