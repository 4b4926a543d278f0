// Never ends: every work-item waits for a value no one writes.
__kernel void mm(const int M, const int N, const int K, __global const float* A, __global const float* B, __global float* C) {
    const int i = get_global_id(1), j = get_global_id(0);
    if (i >= M || j >= N) return;
    volatile __global const float* a = A;
    float s = 0.0f;
    while (a[0] < 1e30f) s += a[1];
    C[i * N + j] = s;
}
