// Ceiling: the device's peak single-precision FLOP/s, for the roofline. Each work-item
// runs K multiply-adds (2*K FLOPs) in CHAINS independent float16 mad chains, and touches
// memory once, so the time is pure arithmetic. Wide vectors and enough independent chains
// to cover the FMA latency keep every FMA unit busy. A CPU needs many: on a 2-core Zen 5
// under PoCL, 4 chains measured 148 GFLOP/s, 8 measured 281 and 16 measured 407-444. A
// GPU runs many work-items per unit instead and needs few (16 chains would be 256
// registers a work-item): the host picks CHAINS by device type.
// M*N work-items: 2*M*N*K FLOPs in all. K must be a multiple of 16*CHAINS.
#ifndef CHAINS
#define CHAINS 4
#endif
#if CHAINS != 4 && CHAINS != 8 && CHAINS != 16
#error CHAINS must be 4, 8 or 16
#endif
// One chain: a0..af, written out (a private array defeated PoCL's vectoriser).
#define FOR_CHAINS(X) X(0) X(1) X(2) X(3) FOR_8(X) FOR_16(X)
#if CHAINS >= 8
#define FOR_8(X) X(4) X(5) X(6) X(7)
#else
#define FOR_8(X)
#endif
#if CHAINS >= 16
#define FOR_16(X) X(8) X(9) X(a) X(b) X(c) X(d) X(e) X(f)
#else
#define FOR_16(X)
#endif
#define DECLARE(j) float16 a##j = (float16)(i * 1e-7f + 0.05f * (float)0x##j);
#define STEP(j) a##j = mad(a##j, b, c);
#define SUM(j) s += a##j;

__kernel void ceiling_flops(const int K, __global float* C)
{
    const int i = get_global_id(0);
    const float16 b = (float16)(0.999f), c = (float16)(0.001f);
    FOR_CHAINS(DECLARE)
    for (int k = 0; k < K; k += 16 * CHAINS) {
        FOR_CHAINS(STEP)
    }
    float16 s = (float16)(0.0f);
    FOR_CHAINS(SUM)
    C[i] = s.s0 + s.s1 + s.s2 + s.s3 + s.s4 + s.s5 + s.s6 + s.s7 +
           s.s8 + s.s9 + s.sa + s.sb + s.sc + s.sd + s.se + s.sf;
}
