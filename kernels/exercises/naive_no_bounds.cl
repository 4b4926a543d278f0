// Exercise: the naive kernel without its bounds check. The NDRange is rounded up to whole
// work-groups, so when M or N is not a multiple of TS some work-items compute elements
// that do not exist, reading past the ends of A and B and writing past the end of C.
// Run it at 37x29x45 with TS 8 and read the diagnostics.

__kernel void mm_naive_nobounds(const int M, const int N, const int K,
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
