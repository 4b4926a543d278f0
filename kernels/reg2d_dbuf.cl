// Rung 10, reg2d_dbuf: double-buffered (prefetching) local tiles. reg2d_tpad waits at a
// barrier for every tile to arrive, computes, then waits again before the next load may
// overwrite it: two barriers per phase, and the loads of a phase never overlap its
// arithmetic. Here there are two sets of tiles. While the group computes on one, each
// work-item has already issued the global loads of the next phase into registers and
// stores them into the other set afterwards; one barrier per phase is enough, because
// the set being written is the one every work-item finished reading a phase ago.
// Everything else (transposed, padded A tile; VW-wide accesses; WPTM x WPTN per
// work-item; guarded edges, so any M, N, K) is reg2d_tpad's.

// VW (floats per vector, default 4), floatV, vget and vset: kernels/prelude_vector.cl,
// which the catalog puts before this file (ladder.json "prelude").

#ifndef TS
#define TS 64
#endif
#ifndef TSK
#define TSK 16
#endif
#ifndef WPTM
#define WPTM 8
#endif
#ifndef WPTN
#define WPTN 8
#endif
#ifndef PAD
#define PAD 4
#endif
#if TS % WPTM != 0 || TS % WPTN != 0 || WPTM % VW != 0 || WPTN % VW != 0 || TSK % VW != 0 || PAD % VW != 0
#error "need WPTM | TS, WPTN | TS, VW | WPTM, VW | WPTN, VW | TSK and VW | PAD"
#endif
#define RTSM (TS / WPTM)          // work-items along M
#define RTSN (TS / WPTN)          // work-items along N (dimension 0)
#define WGSIZE (RTSM * RTSN)
#define ASTRIDE (TS + PAD)        // floats per row of the transposed A tile
#define AVECS (TS * TSK / VW)     // vectors per tile (A and B alike)
#define LOADS ((AVECS + WGSIZE - 1) / WGSIZE)  // vectors of each tile per work-item

// VW floats of row r from column c of a matrix with `cols` columns: one aligned vector
// load when possible, else element by element with zeros past the edge.
inline floatV load_vec(const __global float* X, int rows, int cols, int r, int c) {
    if (r < rows && c + VW <= cols && cols % VW == 0)
        return ((const __global floatV*)X)[(r * cols + c) / VW];
    floatV x = (floatV)(0.0f);
    #pragma unroll
    for (int i = 0; i < VW; ++i)
        if (r < rows && c + i < cols) x = vset(x, i, X[r * cols + c + i]);
    return x;
}

__kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1)))
void mm_dbuf_block(const int M, const int N, const int K,
                   const __global float* A,
                   const __global float* B,
                   __global float* C)
{
    const int tx = get_local_id(0);
    const int ty = get_local_id(1);
    const int lid = ty * RTSN + tx;
    const int col0 = get_group_id(0) * TS;
    const int row0 = get_group_id(1) * TS;

    __local floatV atile[2][TSK * ASTRIDE / VW];  // [set][k][m], TS+PAD floats per k
    __local floatV btile[2][TSK * TS / VW];       // [set][k][n]

    floatV acc[WPTM][WPTN / VW];
    #pragma unroll
    for (int i = 0; i < WPTM; ++i)
        #pragma unroll
        for (int j = 0; j < WPTN / VW; ++j)
            acc[i][j] = (floatV)(0.0f);

    // The next phase's tiles, held in registers between its global loads and its stores.
    floatV anext[LOADS], bnext[LOADS];

    const int phases = (K + TSK - 1) / TSK;
    for (int p = 0; p <= phases; ++p) {
        // Issue phase p's global loads (nothing waits for them until the stores below).
        if (p < phases) {
            const int k0 = p * TSK;
            #pragma unroll
            for (int l = 0; l < LOADS; ++l) {
                const int e = lid + l * WGSIZE;
                if (e < AVECS) {
                    anext[l] = load_vec(A, M, K, row0 + e / (TSK / VW), k0 + (e % (TSK / VW)) * VW);
                    bnext[l] = load_vec(B, K, N, k0 + e / (TS / VW), col0 + (e % (TS / VW)) * VW);
                }
            }
        }
        // Compute phase p-1 from the set its tiles were stored in.
        if (p > 0) {
            const __local floatV* as = atile[(p - 1) & 1];
            const __local floatV* bs = btile[(p - 1) & 1];
            #pragma unroll
            for (int k = 0; k < TSK; ++k) {
                floatV a[WPTM / VW], b[WPTN / VW];
                #pragma unroll
                for (int i = 0; i < WPTM / VW; ++i) a[i] = as[(k * ASTRIDE) / VW + i * RTSM + ty];
                #pragma unroll
                for (int j = 0; j < WPTN / VW; ++j) b[j] = bs[k * (TS / VW) + j * RTSN + tx];
                #pragma unroll
                for (int i = 0; i < WPTM / VW; ++i) {
                    #pragma unroll
                    for (int v = 0; v < VW; ++v) {
                        const float av = vget(a[i], v);
                        #pragma unroll
                        for (int j = 0; j < WPTN / VW; ++j) acc[i * VW + v][j] += av * b[j];
                    }
                }
            }
        }
        // Store phase p's tiles into the other set; nobody reads it until after the barrier.
        if (p < phases) {
            __local float* at = (__local float*)atile[p & 1];
            __local floatV* bt = btile[p & 1];
            #pragma unroll
            for (int l = 0; l < LOADS; ++l) {
                const int e = lid + l * WGSIZE;
                if (e < AVECS) {
                    const int r = e / (TSK / VW), c = (e % (TSK / VW)) * VW;
                    #pragma unroll
                    for (int i = 0; i < VW; ++i) at[(c + i) * ASTRIDE + r] = vget(anext[l], i);  // transposed
                    bt[e] = bnext[l];
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    #pragma unroll
    for (int i = 0; i < WPTM / VW; ++i)
        #pragma unroll
        for (int v = 0; v < VW; ++v) {
            const int row = row0 + (i * RTSM + ty) * VW + v;
            if (row >= M) continue;
            #pragma unroll
            for (int j = 0; j < WPTN / VW; ++j) {
                const int col = col0 + (j * RTSN + tx) * VW;
                const floatV x = acc[i * VW + v][j];
                if (col + VW <= N && N % VW == 0) {
                    ((__global floatV*)C)[(row * N + col) / VW] = x;
                } else {
                    #pragma unroll
                    for (int c = 0; c < VW; ++c)
                        if (col + c < N) C[row * N + col + c] = vget(x, c);
                }
            }
        }
}
