// Session 49 probe (issue 30 item 1): the padded copies of A and B in one launch, two ways, timed as custom kernels.
// copy_x4: kernels/support/pad_copy.cl's pad_copy2_x4 as the runner uses it (a float4 of a destination per work-item,
// its four source floats read one by one). copy_2d: a 2-D launch, x the column, y the row over A's rows then B's: one
// float per work-item, consecutive work-items on consecutive floats of a row (reads and writes whole sectors), no
// division. M x K into M x KP and K x N into K x NP (KP, NP: K and N rounded up to 4), zeros in the padding.
#define KP ((K + 3) / 4 * 4)
#define NP ((N + 3) / 4 * 4)

__kernel void copy_x4(const int M, const int N, const int K, const __global float* A, const __global float* B,
                      __global float* AP, __global float* BP)
{
    const uint i = get_global_id(0), q0 = (uint)KP / 4, n0 = (uint)M * q0;
    const __global float* src; __global float* dst; int sr, sc, cols; uint r, c;
    if (i < n0) { r = i / q0; c = (i - r * q0) * 4; src = A; dst = AP; sr = M; sc = K; cols = KP; }
    else { const uint j = i - n0, q1 = (uint)NP / 4; r = j / q1; if (r >= (uint)K) return; c = (j - r * q1) * 4; src = B; dst = BP; sr = K; sc = N; cols = NP; }
    float4 v = (float4)(0.0f);
    if ((int)r < sr) {
        const __global float* s = src + (size_t)r * sc;
        if ((int)c < sc) v.x = s[c];
        if ((int)c + 1 < sc) v.y = s[c + 1];
        if ((int)c + 2 < sc) v.z = s[c + 2];
        if ((int)c + 3 < sc) v.w = s[c + 3];
    }
    vstore4(v, 0, dst + (size_t)r * cols + c);
}

__kernel void copy_2d(const int M, const int N, const int K, const __global float* A, const __global float* B,
                      __global float* AP, __global float* BP)
{
    const int c = get_global_id(0), y = get_global_id(1);
    if (y < M) {
        if (c < KP) AP[(size_t)y * KP + c] = c < K ? A[(size_t)y * K + c] : 0.0f;
    } else {
        const int r = y - M;
        if (r < K && c < NP) BP[(size_t)r * NP + c] = c < N ? B[(size_t)r * N + c] : 0.0f;
    }
}
