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

// Four floats of row r from column c: one vector load when aligned and inside, else
// element by element with zeros past the edge.
inline float4 load4(const __global float* X, int rows, int cols, int r, int c) {
    if (r < rows && c + 4 <= cols && (cols & 3) == 0) return *(const __global float4*)(X + r * cols + c);
    float4 x = (float4)(0.0f);
    if (r < rows) {
        const __global float* p = X + r * cols;
        if (c < cols) x.x = p[c];
        if (c + 1 < cols) x.y = p[c + 1];
        if (c + 2 < cols) x.z = p[c + 2];
        if (c + 3 < cols) x.w = p[c + 3];
    }
    return x;
}

__kernel __attribute__((reqd_work_group_size(NT, 1, 1)))
void mm_warp_tile(const int M, const int N, const int K,
                  const __global float* A,
                  const __global float* B,
                  __global float* C)
{
    const int tid = get_local_id(0);
    const int warp = tid / WARP, lane = tid % WARP;
    const int wrow = warp / (TS / WN), wcol = warp % (TS / WN);   // the sub-group's tile of C
    const int trow = lane / (WSUBN / TN), tcol = lane % (WSUBN / TN);
    const int row0 = get_group_id(1) * TS, col0 = get_group_id(0) * TS;
    // Where the work-item's fragments start in the tiles, in float4s (k adds a constant).
    const int afrag = (wrow * WM + trow * TM) / 4, bfrag = (wcol * WN + tcol * TN) / 4;

    // Two sets of tiles. Declared as float4 so that the vector reads are aligned (a float
    // array may be aligned to 4 bytes only, and a misaligned float4 read of local memory
    // faults on NVIDIA GPUs).
    __local float4 at4[2][TSK * AROW / 4];    // A's tiles transposed: at[k * AROW + m]
    __local float4 bt[2][TSK * (TS / 4)];     // B's tiles: bt[k * TS/4 + n/4]

    float acc[WMITER * TM][WNITER * TN];
    #pragma unroll
    for (int i = 0; i < WMITER * TM; ++i)
        #pragma unroll
        for (int j = 0; j < WNITER * TN; ++j) acc[i][j] = 0.0f;

    // A phase's tiles, held in registers between their global loads and their stores.
    float4 anext[LOADS], bnext[LOADS];
    const int phases = (K + TSK - 1) / TSK;
    // Which float4 of each tile a work-item loads: row and column inside the tile.
    int arow[LOADS], acol[LOADS], brow[LOADS], bcol[LOADS];
    #pragma unroll
    for (int l = 0; l < LOADS; ++l) {
        const int e = tid + l * NT;
        arow[l] = e / (TSK / 4);
        acol[l] = (e % (TSK / 4)) * 4;
        brow[l] = e / (TS / 4);
        bcol[l] = (e % (TS / 4)) * 4;
    }

    // A group whose tiles all lie inside A and B (every group when TS divides M and N and TSK
    // divides K, the usual case for large sizes) loads aligned float4s with no checks at all;
    // the groups along the edges of C go through load4. The branch is the same for the whole
    // group, so no work-item waits for another.
#ifdef FORCE_INSIDE
    const bool inside = true;
#else
    const bool inside = row0 + TS <= M && col0 + TS <= N && K % TSK == 0 && (N & 3) == 0;
#endif

    for (int p = 0; p <= phases; ++p) {
        // Issue phase p's global loads (nothing waits for them until the stores below).
        if (p < phases) {
            const int k0 = p * TSK;
            if (inside) {
                #pragma unroll
                for (int l = 0; l < LOADS; ++l)
                    if (AVECS % NT == 0 || tid + l * NT < AVECS) {
                        anext[l] = *(const __global float4*)(A + (row0 + arow[l]) * K + k0 + acol[l]);
                        bnext[l] = *(const __global float4*)(B + (k0 + brow[l]) * N + col0 + bcol[l]);
                    }
            } else {
                #pragma unroll
                for (int l = 0; l < LOADS; ++l)
                    if (AVECS % NT == 0 || tid + l * NT < AVECS) {
                        anext[l] = load4(A, M, K, row0 + arow[l], k0 + acol[l]);
                        bnext[l] = load4(B, K, N, k0 + brow[l], col0 + bcol[l]);
                    }
            }
        }
        // Compute phase p-1 from the set its tiles were stored in.
        if (p > 0) {
            const __local float4* as = at4[(p - 1) & 1];
            const __local float4* bs = bt[(p - 1) & 1];
            #pragma unroll
            for (int k = 0; k < TSK; ++k) {
                float a[WMITER * TM], b[WNITER * TN];
                #pragma unroll
                for (int wm = 0; wm < WMITER; ++wm)
                    #pragma unroll
                    for (int i = 0; i < TM / 4; ++i) {
                        const float4 v = as[k * (AROW / 4) + afrag + wm * (WSUBM / 4) + i];
                        a[wm * TM + i * 4 + 0] = v.x;
                        a[wm * TM + i * 4 + 1] = v.y;
                        a[wm * TM + i * 4 + 2] = v.z;
                        a[wm * TM + i * 4 + 3] = v.w;
                    }
                #pragma unroll
                for (int wn = 0; wn < WNITER; ++wn)
                    #pragma unroll
                    for (int j = 0; j < TN / 4; ++j) {
                        const float4 v = bs[k * (TS / 4) + bfrag + wn * (WSUBN / 4) + j];
                        b[wn * TN + j * 4 + 0] = v.x;
                        b[wn * TN + j * 4 + 1] = v.y;
                        b[wn * TN + j * 4 + 2] = v.z;
                        b[wn * TN + j * 4 + 3] = v.w;
                    }
                #pragma unroll
                for (int i = 0; i < WMITER * TM; ++i)
                    #pragma unroll
                    for (int j = 0; j < WNITER * TN; ++j) acc[i][j] = fma(a[i], b[j], acc[i][j]);
            }
        }
        // Store phase p's tiles into the other set; nobody reads it until after the barrier,
        // and everybody finished reading it (phase p-2) before the last one.
        if (p < phases) {
            __local float* at = (__local float*)at4[p & 1];
            #pragma unroll
            for (int l = 0; l < LOADS; ++l) {
                const int e = tid + l * NT;
                if (AVECS % NT == 0 || e < AVECS) {
                    at[(acol[l] + 0) * AROW + arow[l]] = anext[l].x;
                    at[(acol[l] + 1) * AROW + arow[l]] = anext[l].y;
                    at[(acol[l] + 2) * AROW + arow[l]] = anext[l].z;
                    at[(acol[l] + 3) * AROW + arow[l]] = anext[l].w;
                    bt[p & 1][e] = bnext[l];
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }

    #pragma unroll
    for (int wm = 0; wm < WMITER; ++wm)
        #pragma unroll
        for (int i = 0; i < TM; ++i) {
            const int row = row0 + wrow * WM + wm * WSUBM + trow * TM + i;
            if (row >= M) continue;
            #pragma unroll
            for (int wn = 0; wn < WNITER; ++wn)
                #pragma unroll
                for (int j = 0; j < TN; j += 4) {
                    const int col = col0 + wcol * WN + wn * WSUBN + tcol * TN + j;
                    const float4 v = (float4)(acc[wm * TM + i][wn * TN + j], acc[wm * TM + i][wn * TN + j + 1],
                                              acc[wm * TM + i][wn * TN + j + 2], acc[wm * TM + i][wn * TN + j + 3]);
                    if (col + 4 <= N && (N & 3) == 0) {
                        vstore4(v, 0, C + row * N + col);
                    } else {
                        if (col < N) C[row * N + col] = v.x;
                        if (col + 1 < N) C[row * N + col + 1] = v.y;
                        if (col + 2 < N) C[row * N + col + 2] = v.z;
                        if (col + 3 < N) C[row * N + col + 3] = v.w;
                    }
                }
        }
}
