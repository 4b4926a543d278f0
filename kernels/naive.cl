// Rung 1, naive: one work-item computes one element C(i,j), reading every operand
// straight from global memory. Each element of A is loaded N times and each element
// of B M times: 2*M*N*K loads for 2*M*N*K flops, one load per flop.
//
// Layout: row-major; A is MxK, B is KxN, C is MxN. Dimension 0 runs along the columns
// of C so that neighbouring work-items touch neighbouring addresses of B and C.
// The NDRange is rounded up to whole work-groups; work-items outside C do nothing.

__kernel void mm_naive(const int M, const int N, const int K,
                       const __global float* A,
                       const __global float* B,
                       __global float* C)
{
    const int col = get_global_id(0);
    const int row = get_global_id(1);
    if (row >= M || col >= N)
        return;

    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
        acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
}
