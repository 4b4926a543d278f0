// Rung 12, warp_tile: a third level of tiling, for the warp. A work-group computes a TS x TS
// tile of C from TSK-deep tiles of A and B in local memory, as in reg2d; but its work-items
// are dealt out by sub-group (32 consecutive work-items, a warp on NVIDIA GPUs), and each
// sub-group owns one WM x WN tile of C. Its 32 work-items read only that tile's WM rows of A
// and WN columns of B from local memory, so a sub-group's local reads stay within a small,
// contiguous set of words (broadcasts, few banks), and each work-item keeps
// WMITER*TM x WNITER*TN results in registers: every local float it loads feeds
// WNITER*TN (or WMITER*TM) multiply-adds. A's tile is stored transposed (k-major, padded by
// PAD words) so that both operands are read as float4 vectors. The tiles are double-buffered
// as in reg2d_dbuf (the next phase's global loads wait in registers while this phase is
// computed; one barrier per phase). Edges load zeros and store nothing outside C, so any
// M, N, K work.

#ifndef TS
#define TS 128      // C tile per work-group: TS x TS
#endif
#ifndef TSK
#define TSK 8       // depth of the A and B tiles (two sets of each: 2*(TS+PAD+TS)*TSK floats)
#endif
#ifndef WM
#define WM 32       // C tile per sub-group: WM x WN
#endif
#ifndef WN
#define WN 64
#endif
#ifndef WNITER
#define WNITER 2    // the sub-group's tile is swept in WMITER x WNITER steps
#endif
#ifndef TM
#define TM 4        // results per work-item and step: TM x TN
#endif
#ifndef TN
#define TN 4
#endif
#ifndef PAD
#define PAD 4       // words of padding per row of the transposed A tile
#endif

#define WARP 32
#define NT ((TS / WM) * (TS / WN) * WARP)              // work-items per group
#define WMITER ((WM * WN) / (WARP * TM * TN * WNITER))
#define WSUBM (WM / WMITER)
#define WSUBN (WN / WNITER)
#define AROW (TS + PAD)
#define AVECS (TS * TSK / 4)                            // float4s per tile, A's and B's alike
#define LOADS ((AVECS + NT - 1) / NT)                   // of each tile per work-item

#if TS % WM != 0 || TS % WN != 0 || WN % WNITER != 0
#error "need WM | TS, WN | TS and WNITER | WN"
#endif
#if WMITER < 1 || (WM * WN) % (WARP * TM * TN * WNITER) != 0 || WM % WMITER != 0
#error "the sub-group tile must split into WMITER x WNITER steps of 32 work-items x TM x TN"
#endif
#if WSUBM % TM != 0 || WSUBN % TN != 0 || (WSUBM / TM) * (WSUBN / TN) != WARP
#error "a step must give each of the 32 work-items one TM x TN block"
#endif
#if TM % 4 != 0 || TN % 4 != 0 || TSK % 4 != 0 || TS % 4 != 0 || AROW % 4 != 0
#error "TM, TN, TSK, TS and TS+PAD must be multiples of 4"
#endif


// Experiment: fast path only (sizes that TS and TSK divide), peeled; UNROLL2: phase loop by
// two so that the buffer sets are constants; PREFETCH: the next k's fragments loaded during
// this k's FFMAs.
#ifndef UNROLL2
#define UNROLL2 0
#endif
#ifndef PREFETCH
#define PREFETCH 0
#endif

#define FRAG(as, bs, k, a, b) { \
    _Pragma("unroll") for (int wm = 0; wm < WMITER; ++wm) \
    _Pragma("unroll") for (int i = 0; i < TM / 4; ++i) { \
        const float4 v = (as)[(k) * (AROW / 4) + afrag + wm * (WSUBM / 4) + i]; \
        a[wm * TM + i * 4 + 0] = v.x; a[wm * TM + i * 4 + 1] = v.y; a[wm * TM + i * 4 + 2] = v.z; a[wm * TM + i * 4 + 3] = v.w; } \
    _Pragma("unroll") for (int wn = 0; wn < WNITER; ++wn) \
    _Pragma("unroll") for (int j = 0; j < TN / 4; ++j) { \
        const float4 v = (bs)[(k) * (TS / 4) + bfrag + wn * (WSUBN / 4) + j]; \
        b[wn * TN + j * 4 + 0] = v.x; b[wn * TN + j * 4 + 1] = v.y; b[wn * TN + j * 4 + 2] = v.z; b[wn * TN + j * 4 + 3] = v.w; } }

#define FMAS(a, b) { _Pragma("unroll") for (int i = 0; i < WMITER * TM; ++i) \
    _Pragma("unroll") for (int j = 0; j < WNITER * TN; ++j) acc[i][j] = fma(a[i], b[j], acc[i][j]); }

#if PREFETCH
#define COMPUTE(set) { const __local float4* as = at4[set]; const __local float4* bs = bt[set]; \
    float a0[WMITER * TM], b0[WNITER * TN], a1[WMITER * TM], b1[WNITER * TN]; \
    FRAG(as, bs, 0, a0, b0) \
    _Pragma("unroll") for (int k = 0; k < TSK; k += 2) { \
        FRAG(as, bs, k + 1, a1, b1) FMAS(a0, b0) \
        if (k + 2 < TSK) FRAG(as, bs, k + 2, a0, b0) FMAS(a1, b1) } }
#else
#define COMPUTE(set) { const __local float4* as = at4[set]; const __local float4* bs = bt[set]; \
    _Pragma("unroll") for (int k = 0; k < TSK; ++k) { float a[WMITER * TM], b[WNITER * TN]; FRAG(as, bs, k, a, b) FMAS(a, b) } }
#endif

#define LOAD(p) { const int k0 = (p) * TSK; _Pragma("unroll") for (int l = 0; l < LOADS; ++l) { \
    anext[l] = *(const __global float4*)(A + aoff[l] + k0); \
    bnext[l] = *(const __global float4*)(B + boff[l] + k0 * N); } }

#define STORE(set) { __local float* at = (__local float*)at4[set]; _Pragma("unroll") for (int l = 0; l < LOADS; ++l) { \
    const int e = tid + l * NT; \
    at[(acol[l] + 0) * AROW + arow[l]] = anext[l].x; at[(acol[l] + 1) * AROW + arow[l]] = anext[l].y; \
    at[(acol[l] + 2) * AROW + arow[l]] = anext[l].z; at[(acol[l] + 3) * AROW + arow[l]] = anext[l].w; \
    bt[set][e] = bnext[l]; } barrier(CLK_LOCAL_MEM_FENCE); }

__kernel __attribute__((reqd_work_group_size(NT, 1, 1)))
void mm_warp_tile(const int M, const int N, const int K,
                  const __global float* A,
                  const __global float* B,
                  __global float* C)
{
    const int tid = get_local_id(0);
    const int warp = tid / WARP, lane = tid % WARP;
    const int wrow = warp / (TS / WN), wcol = warp % (TS / WN);
    const int trow = lane / (WSUBN / TN), tcol = lane % (WSUBN / TN);
    const int row0 = get_group_id(1) * TS, col0 = get_group_id(0) * TS;
    const int afrag = (wrow * WM + trow * TM) / 4, bfrag = (wcol * WN + tcol * TN) / 4;
    __local float4 at4[2][TSK * AROW / 4];
    __local float4 bt[2][TSK * (TS / 4)];
    float acc[WMITER * TM][WNITER * TN];
    _Pragma("unroll") for (int i = 0; i < WMITER * TM; ++i) _Pragma("unroll") for (int j = 0; j < WNITER * TN; ++j) acc[i][j] = 0.0f;
    float4 anext[LOADS], bnext[LOADS];
    const int phases = K / TSK;
    int arow[LOADS], acol[LOADS], aoff[LOADS], boff[LOADS];
    _Pragma("unroll") for (int l = 0; l < LOADS; ++l) {
        const int e = tid + l * NT;
        arow[l] = e / (TSK / 4); acol[l] = (e % (TSK / 4)) * 4;
        aoff[l] = (row0 + arow[l]) * K + acol[l];
        boff[l] = (e / (TS / 4)) * N + col0 + (e % (TS / 4)) * 4;
    }
    LOAD(0) STORE(0)
#if UNROLL2
    int p = 1;
    for (; p + 1 < phases; p += 2) {
        LOAD(p) COMPUTE(0) STORE(1)
        LOAD(p + 1) COMPUTE(1) STORE(0)
    }
    if (p < phases) { LOAD(p) COMPUTE(0) STORE(1) COMPUTE(1) } else { COMPUTE(0) }
#else
    for (int p = 1; p < phases; ++p) { LOAD(p) COMPUTE((p - 1) & 1) STORE(p & 1) }
    COMPUTE((phases - 1) & 1)
#endif
    _Pragma("unroll") for (int wm = 0; wm < WMITER; ++wm)
    _Pragma("unroll") for (int i = 0; i < TM; ++i) {
        const int row = row0 + wrow * WM + wm * WSUBM + trow * TM + i;
        _Pragma("unroll") for (int wn = 0; wn < WNITER; ++wn)
        _Pragma("unroll") for (int j = 0; j < TN; j += 4) {
            const int col = col0 + wcol * WN + wn * WSUBN + tcol * TN + j;
            *(__global float4*)(C + row * N + col) = (float4)(acc[wm * TM + i][wn * TN + j], acc[wm * TM + i][wn * TN + j + 1],
                                      acc[wm * TM + i][wn * TN + j + 2], acc[wm * TM + i][wn * TN + j + 3]);
        }
    }
}
