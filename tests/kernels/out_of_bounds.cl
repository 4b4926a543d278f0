// The naive kernel without its bounds test: when M or N is not a multiple of the tile
// size, the work-items of the last groups read past the end of A and write past C.

__kernel void mm_out_of_bounds(const int M, const int N, const int K,
                               const __global float* A,
                               const __global float* B,
                               __global float* C)
{
    const int col = get_global_id(0);
    const int row = get_global_id(1);

    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
        acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
}
