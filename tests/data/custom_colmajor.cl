// A column-major custom kernel: element (i,j) of an R-row matrix lives at j*R + i.
__kernel void matmul_colmajor(const int M, const int N, const int K,
                              __global const float* A, __global const float* B, __global float* C)
{
    const int i = get_global_id(0);  // row of C: neighbours are adjacent in column-major
    const int j = get_global_id(1);
    if (i >= M || j >= N)
        return;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
        acc += A[k * M + i] * B[j * K + k];
    C[j * M + i] = acc;
}
