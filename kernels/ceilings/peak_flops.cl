// Ceiling: the device's peak single-precision FLOP/s, for the roofline. Each work-item
// runs K multiply-adds (2*K FLOPs) on eight independent register chains and touches
// memory once, so the time is pure arithmetic. M*N work-items: 2*M*N*K FLOPs in all.
__kernel void ceiling_flops(const int K, __global float* C)
{
    const int i = get_global_id(0);
    float a0 = i * 1e-7f, a1 = a0 + 0.1f, a2 = a0 + 0.2f, a3 = a0 + 0.3f;
    float a4 = a0 + 0.4f, a5 = a0 + 0.5f, a6 = a0 + 0.6f, a7 = a0 + 0.7f;
    const float b = 0.999f, c = 0.001f;
    for (int k = 0; k < K; k += 8) {
        a0 = mad(a0, b, c); a1 = mad(a1, b, c); a2 = mad(a2, b, c); a3 = mad(a3, b, c);
        a4 = mad(a4, b, c); a5 = mad(a5, b, c); a6 = mad(a6, b, c); a7 = mad(a7, b, c);
    }
    C[i] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}
