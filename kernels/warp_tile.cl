// Rung 12, warp_tile: a third level of tiling, for the warp. A work-group computes a TS x TSN
// tile of C (TSN = TS*NMUL/NDIV columns: NDIV 1 gives square tiles, 2 tiles half as wide, so twice
// as many groups, which fill the last round of groups on the compute units better; NMUL 2 tiles
// twice as wide as tall, 64 x 128 at TS 64, the shape cuBLAS runs at 2474^3 on the H200) from
// TSK-deep tiles of A and B in local memory, as in reg2d; but its work-items
// are dealt out by sub-group (32 consecutive work-items, a warp on NVIDIA GPUs), and each
// sub-group owns one WM x WN tile of C. Its 32 work-items read only that tile's WM rows of A
// and WN columns of B from local memory, so a sub-group's local reads stay within a small,
// contiguous set of words (broadcasts, few banks), and each work-item keeps
// WMITER*TM x WNITER*TN results in registers: every local float it loads feeds
// WNITER*TN (or WMITER*TM) multiply-adds. A's tile is stored transposed (k-major, padded by
// PAD words) so that both operands are read as float4 vectors. The tiles are double-buffered
// as in reg2d_dbuf (the next phase's global loads wait in registers while this phase is
// computed; one barrier per phase), and the phase loop is written out so that its body has
// no test at all: phase 0 is loaded before it, the last phase computed after it.
// The kernel is built for its size: the host defines EDGES as M%TS + N%TSN + K%TSK and ODD as
// K%4 + N%4. When EDGES is 0 (TS divides M, TSN N, TSK K) every global load and store
// is a whole aligned float4 with no check. When only ODD is 0 (rows of A, B and C start on
// float4 boundaries) the work-groups inside C run that same loop: a work-item whose float4 of
// A or B lies past the bottom or right edge (only in the groups on those edges) has its offset
// set to -1 once, before the loop, and skips that load in every phase (its registers keep the
// zeros phase 0 gave them: a skipped load, not a select, which measured 9-13% faster on an
// H200), so the loop's only test is on that offset; and the K loop starts K%TSK - TSK before 0,
// so that the one partial phase is phase 0, loaded before the loop with checks. Otherwise (rows not float4-aligned) every load is
// checked, unless the host defines INPLACE 1 (rung parameter INPLACE: it then makes no padded
// copies): the groups run the unchecked loop as when ODD is 0, reading each float4 with vload4
// (rows of A start anywhere; a float4 of A inside its row, since the partial phase is phase 0),
// and the float4s of B that cross its right edge element by element. Loads past an edge give
// zeros and stores outside C are skipped, so any M, N, K work. INPLACE 2 reads those rows in
// place too, but one float per work-item and load, consecutive work-items on consecutive floats
// of a row (whole 32-byte sectors per sub-group; vload4's four loads each touch a sector for
// every two work-items): on the H200 up to 9 % faster than the padded copies at splitk points of TSK 8 where
// one side is short and K long, slower at the wide point (docs/benchmarks.md, speed14).
// On padded copies (the runner's, when N or K is not a multiple of 4) the host may define CN, the
// user's N: C is then the user's own M x CN matrix, stored where it lies (float4 stores where CN
// is a multiple of 4, else element by element, columns past CN skipped), so C needs no padded copy
// and no copy back. Without it C's rows are N long (CN is N). W, splitk's slices, stays N wide.
// Split K (rung splitk, for C too small to give every compute unit work-groups of its own):
// the host defines PPS, the phases per K-slice; the NDRange's third dimension is the slice, a
// group of slice z runs phases z*PPS .. z*PPS+PPS-1 of the same loop and stores its partial
// tile of C into W + z*M*N, and a second launch, mm_slice_sum, adds the slices into C in slice
// order (no atomics: the same sum on every run). Slice 0 holds the one partial phase.

#ifndef TS
#define TS 128      // C tile per work-group: TS x TS
#endif
#ifndef NDIV
#define NDIV 1      // the group's tile of C is TS rows x TS*NMUL/NDIV columns
#endif
#ifndef NMUL
#define NMUL 1
#endif
#define TSN (TS * NMUL / NDIV)
#ifndef TSK
#define TSK 8       // depth of the A and B tiles (two sets of each: 2*(TS+PAD+TSN)*TSK floats)
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
#ifndef EDGES
#define EDGES 1     // M%TS + N%TSN + K%TSK, set by the host: 0 when no tile crosses an edge
#endif
#ifndef ODD
#define ODD 1       // K%4 + N%4, set by the host: 0 when every row of A, B and C is float4-aligned
#endif
#ifndef PPS
#define PPS 0       // phases per K-slice (rung splitk), set by the host; 0: a group walks all of K
#endif
#ifndef INPLACE
#define INPLACE 0   // 1: rows not float4-aligned are read in place with vload4, 2: a float at a time (the host makes no padded copies)
#endif
#ifdef CN
#define C_IN_PLACE 1  // CN, the user's N, set by the host on padded copies: C is the user's M x CN matrix
#else
#define C_IN_PLACE 0
#define CN N        // C's row length: N
#endif
#define CHECKED (EDGES != 0 && ODD != 0 && !INPLACE)    // every load checked, every phase
#if ODD != 0 && INPLACE
#define LD4(p) vload4(0, (p))                          // an unaligned float4 of global memory
#else
#define LD4(p) (*(const __global float4*)(p))
#endif
#if PPS
#define OUT W       // the partial products, one M x N slice per K-slice
#define LDO N       // its rows: N long
#else
#define OUT C
#define LDO CN      // C's rows: CN long (the user's N where the host stores C in place on padded copies)
#endif

#define WARP 32
#define NT ((TS / WM) * (TSN / WN) * WARP)             // work-items per group
#define WMITER ((WM * WN) / (WARP * TM * TN * WNITER))
#define WSUBM (WM / WMITER)
#define WSUBN (WN / WNITER)
#define AROW (TS + PAD)
#define AVECS (TS * TSK / 4)                            // float4s per tile of A
#define BVECS (TSN * TSK / 4)                           // and of B
#define ALOADS ((AVECS + NT - 1) / NT)                  // of A's tile per work-item
#define LOADS (ALOADS > BLOADS ? ALOADS : BLOADS)       // load slots per work-item (B's exceed A's when NMUL > NDIV)
#define BLOADS ((BVECS + NT - 1) / NT)                  // of B's tile per work-item
#define ASC (TS * TSK / NT)                             // INPLACE 2: floats of A's tile per work-item
#define BSC (TSK * TSN / NT)                            // and of B's

#if NDIV < 1 || NMUL < 1 || (TS * NMUL) % NDIV != 0 || TS % WM != 0 || TSN % WN != 0 || WN % WNITER != 0
#error "need NDIV | TS*NMUL, WM | TS, WN | TS*NMUL/NDIV and WNITER | WN"
#endif
#if WMITER < 1 || (WM * WN) % (WARP * TM * TN * WNITER) != 0 || WM % WMITER != 0
#error "the sub-group tile must split into WMITER x WNITER steps of 32 work-items x TM x TN"
#endif
#if WSUBM % TM != 0 || WSUBN % TN != 0 || (WSUBM / TM) * (WSUBN / TN) != WARP
#error "a step must give each of the 32 work-items one TM x TN block"
#endif
#if INPLACE == 2 && ((TS * TSK) % NT != 0 || NT % TSK != 0 || NT % TSN != 0)
#error "INPLACE 2 needs NT | TS*TSK, TSK | NT and TSN | NT"
#endif
#if TM % 4 != 0 || TN % 4 != 0 || TSK % 4 != 0 || TS % 4 != 0 || TSN % 4 != 0 || AROW % 4 != 0
#error "TM, TN, TSK, TS and TS+PAD must be multiples of 4"
#endif

// Four floats of row r from column c: one vector load when aligned and inside, else
// element by element with zeros outside the matrix (r and c may be negative).
inline float4 load4(const __global float* X, int rows, int cols, int r, int c) {
    if (r >= 0 && r < rows && c >= 0 && c + 4 <= cols && (cols & 3) == 0) return *(const __global float4*)(X + r * cols + c);
    float4 x = (float4)(0.0f);
    if (r >= 0 && r < rows) {
        const __global float* p = X + r * cols;
        if (c >= 0 && c < cols) x.x = p[c];
        if (c + 1 >= 0 && c + 1 < cols) x.y = p[c + 1];
        if (c + 2 >= 0 && c + 2 < cols) x.z = p[c + 2];
        if (c + 3 >= 0 && c + 3 < cols) x.w = p[c + 3];
    }
    return x;
}

// The pieces of one phase, written once and used where the phase loop needs them.
// LOAD_PHASE(p): issue phase p's global loads into anext/bnext (nothing waits for them yet).
// FIRST_PHASE: phase 0's loads (K%TSK - TSK before 0 when TSK does not divide K).
#if INPLACE == 2 && ODD != 0
// INPLACE 2: rows not float4-aligned read in place one float per work-item and load, consecutive
// work-items on consecutive floats of a row (a sub-group reads whole 32-byte sectors, where
// vload4's four loads each touch a sector per two work-items). ASC floats of A's tile and BSC of
// B's per work-item: float j of A at row tid/TSK + j*NT/TSK, column tid%TSK of the tile; of B
// at e = tid + j*NT: row e/TSN, column e%TSN. Past the bottom or right edge: zeros (skipped).
#define LOAD_PHASE(p) { const int k0 = (p) * TSK + kfirst; \
    _Pragma("unroll") for (int j = 0; j < ASC; ++j) if (j < arows) asn[j] = A[aoffs + j * (NT / TSK) * K + k0]; \
    _Pragma("unroll") for (int j = 0; j < BSC; ++j) if (bin(j)) bsn[j] = B[boffs(j) + k0 * N]; }
#define FIRST_PHASE { const int k0 = kfirst; \
    _Pragma("unroll") for (int j = 0; j < ASC; ++j) asn[j] = (j < arows && k0 + tid % TSK >= 0) ? A[aoffs + j * (NT / TSK) * K + k0] : 0.0f; \
    _Pragma("unroll") for (int j = 0; j < BSC; ++j) bsn[j] = (bin(j) && k0 + (tid + j * NT) / TSN >= 0) ? B[boffs(j) + k0 * N] : 0.0f; }
#define STORE_PHASE(set) { __local float* at = (__local float*)at4[set]; __local float* btf = (__local float*)bt[set]; \
    _Pragma("unroll") for (int j = 0; j < ASC; ++j) at[(tid % TSK) * AROW + tid / TSK + j * (NT / TSK)] = asn[j]; \
    _Pragma("unroll") for (int j = 0; j < BSC; ++j) btf[tid + j * NT] = bsn[j]; \
    barrier(CLK_LOCAL_MEM_FENCE); }
#elif !CHECKED
#define LOAD_PHASE(p) { const int k0 = (p) * TSK + kfirst; \
    _Pragma("unroll") for (int l = 0; l < LOADS; ++l) { \
        if (((AVECS % NT == 0 && l < ALOADS) || tid + l * NT < AVECS) && (EDGES == 0 || aoff[l] >= 0)) anext[l] = LD4(A + aoff[l] + k0); \
        if (l < BLOADS && (BVECS % NT == 0 || tid + l * NT < BVECS) && (EDGES == 0 || boff[l] >= 0)) \
            bnext[l] = (ODD != 0 && bcut[l]) ? load4(B, K, N, k0 + brow[l], col0 + bcol[l]) : LD4(B + boff[l] + k0 * N); } }
#if EDGES == 0
#define FIRST_PHASE LOAD_PHASE(0)
#else
#define FIRST_PHASE { \
    _Pragma("unroll") for (int l = 0; l < LOADS; ++l) { \
        if ((AVECS % NT == 0 && l < ALOADS) || tid + l * NT < AVECS) anext[l] = load4(A, M, K, row0 + arow[l], kfirst + acol[l]); \
        if (l < BLOADS && (BVECS % NT == 0 || tid + l * NT < BVECS)) bnext[l] = load4(B, K, N, kfirst + brow[l], col0 + bcol[l]); } }
#endif
#else
#define LOAD_PHASE(p) { const int k0 = (p) * TSK + kfirst; \
    _Pragma("unroll") for (int l = 0; l < LOADS; ++l) { \
        if ((AVECS % NT == 0 && l < ALOADS) || tid + l * NT < AVECS) anext[l] = load4(A, M, K, row0 + arow[l], k0 + acol[l]); \
        if (l < BLOADS && (BVECS % NT == 0 || tid + l * NT < BVECS)) bnext[l] = load4(B, K, N, k0 + brow[l], col0 + bcol[l]); } }
#define FIRST_PHASE LOAD_PHASE(0)
#endif
#if !(INPLACE == 2 && ODD != 0)
// STORE_PHASE(set): store the loaded tiles into one set (A transposed) and wait for everyone.
#define STORE_PHASE(set) { __local float* at = (__local float*)at4[set]; \
    _Pragma("unroll") for (int l = 0; l < LOADS; ++l) { \
        if ((AVECS % NT == 0 && l < ALOADS) || tid + l * NT < AVECS) { \
        at[(acol[l] + 0) * AROW + arow[l]] = anext[l].x; \
        at[(acol[l] + 1) * AROW + arow[l]] = anext[l].y; \
        at[(acol[l] + 2) * AROW + arow[l]] = anext[l].z; \
        at[(acol[l] + 3) * AROW + arow[l]] = anext[l].w; } \
        if (l < BLOADS && (BVECS % NT == 0 || tid + l * NT < BVECS)) bt[set][tid + l * NT] = bnext[l]; } \
    barrier(CLK_LOCAL_MEM_FENCE); }
#endif
// COMPUTE_PHASE(set): for each k of the tiles in one set, read the work-item's fragments of
// A and B (float4s) and do its WMITER*TM x WNITER*TN multiply-adds.
#define COMPUTE_PHASE(set) { const __local float4* as = at4[set]; const __local float4* bs = bt[set]; \
    _Pragma("unroll") for (int k = 0; k < TSK; ++k) { \
        float a[WMITER * TM], b[WNITER * TN]; \
        _Pragma("unroll") for (int wm = 0; wm < WMITER; ++wm) \
        _Pragma("unroll") for (int i = 0; i < TM / 4; ++i) { \
            const float4 v = as[k * (AROW / 4) + afrag + wm * (WSUBM / 4) + i]; \
            a[wm * TM + i * 4 + 0] = v.x; a[wm * TM + i * 4 + 1] = v.y; \
            a[wm * TM + i * 4 + 2] = v.z; a[wm * TM + i * 4 + 3] = v.w; } \
        _Pragma("unroll") for (int wn = 0; wn < WNITER; ++wn) \
        _Pragma("unroll") for (int j = 0; j < TN / 4; ++j) { \
            const float4 v = bs[k * (TSN / 4) + bfrag + wn * (WSUBN / 4) + j]; \
            b[wn * TN + j * 4 + 0] = v.x; b[wn * TN + j * 4 + 1] = v.y; \
            b[wn * TN + j * 4 + 2] = v.z; b[wn * TN + j * 4 + 3] = v.w; } \
        _Pragma("unroll") for (int i = 0; i < WMITER * TM; ++i) \
        _Pragma("unroll") for (int j = 0; j < WNITER * TN; ++j) acc[i][j] = fma(a[i], b[j], acc[i][j]); } }

__kernel __attribute__((reqd_work_group_size(NT, 1, 1)))
void mm_warp_tile(const int M, const int N, const int K,
                  const __global float* A,
                  const __global float* B,
                  __global float* OUT)
{
    const int tid = get_local_id(0);
    const int warp = tid / WARP, lane = tid % WARP;
    const int wrow = warp / (TSN / WN), wcol = warp % (TSN / WN);   // the sub-group's tile of C
    const int trow = lane / (WSUBN / TN), tcol = lane % (WSUBN / TN);
    const int row0 = get_group_id(1) * TS, col0 = get_group_id(0) * TSN;
    // Where the work-item's fragments start in the tiles, in float4s (k adds a constant).
    const int afrag = (wrow * WM + trow * TM) / 4, bfrag = (wcol * WN + tcol * TN) / 4;

    // Two sets of tiles. Declared as float4 so that the vector reads are aligned (a float
    // array may be aligned to 4 bytes only, and a misaligned float4 read of local memory
    // faults on NVIDIA GPUs).
    __local float4 at4[2][TSK * AROW / 4];    // A's tiles transposed: at[k * AROW + m]
    __local float4 bt[2][TSK * (TSN / 4)];    // B's tiles: bt[k * TSN/4 + n/4]

    float acc[WMITER * TM][WNITER * TN];
    #pragma unroll
    for (int i = 0; i < WMITER * TM; ++i)
        #pragma unroll
        for (int j = 0; j < WNITER * TN; ++j) acc[i][j] = 0.0f;

#if INPLACE == 2 && ODD != 0
    // A phase's tiles, one float at a time (INPLACE 2): where the work-item's floats start in A
    // and B at k = 0, how many of its rows of A lie inside M, whether its column of B lies inside N.
    float asn[ASC], bsn[BSC];
    const int aoffs = (row0 + tid / TSK) * K + tid % TSK;
    const int arows = (M - row0 - tid / TSK + NT / TSK - 1) / (NT / TSK);
    const int boffs0 = (tid / TSN) * N + col0 + tid % TSN;
    const bool bin0 = col0 + tid % TSN < N;
#define boffs(j) (boffs0 + (j) * (NT / TSN) * N)
#define bin(j) bin0
#else
    // A phase's tiles, held in registers between their global loads and their stores.
    float4 anext[LOADS], bnext[LOADS];
#endif
    // Where the K loop starts: K%TSK - TSK before 0 when TSK does not divide K, so that only
    // phase 0 is partial (the checked paths start at 0 and need no shift).
    const int kshift = (CHECKED || K % TSK == 0) ? 0 : K % TSK - TSK;
#if PPS
    // This group's K-slice: PPS phases from phase z*PPS (the last slice may have fewer), and
    // its own M x N slice of W for the partial products.
    const int phase0 = get_group_id(2) * PPS;
    const int phases = min(PPS, (K + TSK - 1) / TSK - phase0);
    __global float* const Cz = W + get_group_id(2) * M * N;
#else
    const int phase0 = 0;
    const int phases = (K + TSK - 1) / TSK;
    __global float* const Cz = C;
#endif
    const int kfirst = kshift + phase0 * TSK;   // the k of the group's first phase
    // Which float4 of each tile a work-item loads: row and column inside the tile, and (for
    // the loads without checks) its offset in A and B at k = 0; -1 when that float4 lies
    // outside A or B (below the last row of A, right of the last column of B), which only
    // happens in the groups on those edges.
    // bcut (INPLACE, N not a multiple of 4): the float4 of B crosses its right edge, so it is
    // read element by element (a whole one would read past the end of B's last row).
#if !(INPLACE == 2 && ODD != 0)
    int arow[LOADS], acol[LOADS], brow[LOADS], bcol[LOADS], aoff[LOADS], boff[LOADS];
    bool bcut[LOADS];
    #pragma unroll
    for (int l = 0; l < LOADS; ++l) {
        const int e = tid + l * NT;
        arow[l] = e / (TSK / 4);
        acol[l] = (e % (TSK / 4)) * 4;
        brow[l] = e / (TSN / 4);
        bcol[l] = (e % (TSN / 4)) * 4;
        aoff[l] = (EDGES == 0 || row0 + arow[l] < M) ? (row0 + arow[l]) * K + acol[l] : -1;
        boff[l] = (EDGES == 0 || col0 + bcol[l] < N) ? brow[l] * N + col0 + bcol[l] : -1;
        bcut[l] = col0 + bcol[l] + 4 > N;
    }
#endif

    // Phase 0's tiles go into set 0. Then, for each later phase p: issue p's global loads,
    // compute phase p-1 from its set, store p's tiles into the other set (everybody finished
    // reading it, phase p-2, before the last barrier), and wait once. The last phase is
    // computed after the loop.
    FIRST_PHASE
    STORE_PHASE(0)
    for (int p = 1; p < phases; ++p) {
        LOAD_PHASE(p)
        COMPUTE_PHASE((p - 1) & 1)
        STORE_PHASE(p & 1)
    }
    COMPUTE_PHASE((phases - 1) & 1)

    #pragma unroll
    for (int wm = 0; wm < WMITER; ++wm)
        #pragma unroll
        for (int i = 0; i < TM; ++i) {
            const int row = row0 + wrow * WM + wm * WSUBM + trow * TM + i;
            if (EDGES != 0 && row >= M) continue;
            #pragma unroll
            for (int wn = 0; wn < WNITER; ++wn)
                #pragma unroll
                for (int j = 0; j < TN; j += 4) {
                    const int col = col0 + wcol * WN + wn * WSUBN + tcol * TN + j;
                    const float4 v = (float4)(acc[wm * TM + i][wn * TN + j], acc[wm * TM + i][wn * TN + j + 1],
                                              acc[wm * TM + i][wn * TN + j + 2], acc[wm * TM + i][wn * TN + j + 3]);
                    if ((EDGES == 0 && (PPS || !C_IN_PLACE)) || (col + 4 <= LDO && (LDO & 3) == 0)) {
                        vstore4(v, 0, Cz + row * LDO + col);
                    } else {
                        if (col < LDO) Cz[row * LDO + col] = v.x;
                        if (col + 1 < LDO) Cz[row * LDO + col + 1] = v.y;
                        if (col + 2 < LDO) Cz[row * LDO + col + 2] = v.z;
                        if (col + 3 < LDO) Cz[row * LDO + col + 3] = v.w;
                    }
                }
        }
}

#if PPS
// Rung splitk's second launch: C = the sum of W's slices, added in slice order, four
// consecutive elements of C per work-item (one float4 per slice where M*N allows it).
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void mm_slice_sum(const int M, const int N, const int K, const __global float* W, __global float* C)
{
    const int mn = M * N, i = get_global_id(0) * 4;
    const int slices = ((K + TSK - 1) / TSK + PPS - 1) / PPS;
    if ((mn & 3) == 0 && i < mn) {
        // Eight slices' loads are issued before their adds (many slices: the loads overlap
        // instead of waiting one by one); the adds stay in slice order.
        float4 s = vload4(0, W + i);
        int z = 1;
        for (; z + 8 <= slices; z += 8) {
            float4 w[8];
            #pragma unroll
            for (int u = 0; u < 8; ++u) w[u] = vload4(0, W + (z + u) * mn + i);
            #pragma unroll
            for (int u = 0; u < 8; ++u) s += w[u];
        }
        for (; z < slices; ++z) s += vload4(0, W + z * mn + i);
#if !C_IN_PLACE
        vstore4(s, 0, C + i);
#else
        // C is the user's M x CN matrix (padded copies): W's four elements lie in one row
        // (N is a multiple of 4), stored where they go in C, those past column CN skipped.
        const int row = i / N, col = i % N;
        __global float* const c = C + row * CN + col;
        if (col + 4 <= CN && (CN & 3) == 0) {
            vstore4(s, 0, c);
        } else {
            if (col < CN) c[0] = s.x;
            if (col + 1 < CN) c[1] = s.y;
            if (col + 2 < CN) c[2] = s.z;
            if (col + 3 < CN) c[3] = s.w;
        }
#endif
    } else {
        for (int e = i; e < i + 4 && e < mn; ++e) {
            float s = W[e];
            for (int z = 1; z < slices; ++z) s += W[z * mn + e];
#if !C_IN_PLACE
            C[e] = s;
#else
            if (e % N < CN) C[e / N * CN + e % N] = s;
#endif
        }
    }
}
#endif
