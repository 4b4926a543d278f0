// Ceiling: the device's peak single-precision FLOP/s, for the roofline. Each work-item
// runs K multiply-adds (2*K FLOPs) as K/64 steps of four independent float16 mad
// chains (wide vectors and independent chains keep every FMA unit busy on CPUs and
// GPUs alike), and touches memory once, so the time is pure arithmetic.
// M*N work-items: 2*M*N*K FLOPs in all. K must be a multiple of 64.
__kernel void ceiling_flops(const int K, __global float* C)
{
    const int i = get_global_id(0);
    const float16 b = (float16)(0.999f), c = (float16)(0.001f);
    float16 a0 = (float16)(i * 1e-7f), a1 = a0 + 0.1f, a2 = a0 + 0.2f, a3 = a0 + 0.3f;
    for (int k = 0; k < K; k += 64) {
        a0 = mad(a0, b, c);
        a1 = mad(a1, b, c);
        a2 = mad(a2, b, c);
        a3 = mad(a3, b, c);
    }
    const float16 s = a0 + a1 + a2 + a3;
    C[i] = s.s0 + s.s1 + s.s2 + s.s3 + s.s4 + s.s5 + s.s6 + s.s7 +
           s.s8 + s.s9 + s.sa + s.sb + s.sc + s.sd + s.se + s.sf;
}
