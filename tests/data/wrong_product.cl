// Deliberately wrong: the loop stops one term short, so C misses A(i,K-1)*B(K-1,j).
__kernel void mm_wrong(const int M, const int N, const int K,
                       __global const float* A, __global const float* B, __global float* C)
{
    const int col = get_global_id(0), row = get_global_id(1);
    if (row >= M || col >= N)
        return;
    float acc = 0.0f;
    for (int k = 0; k < K - 1; ++k)
        acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
}
