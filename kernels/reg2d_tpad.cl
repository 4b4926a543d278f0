// Rung 9, reg2d_tpad: A's tile transposed, and padded, in local memory. reg2d_vec reads
// a work-item's WPTM values of A one float at a time, because they lie down a column of
// the A tile. Stored transposed (k-major), they lie along a row, so A is read as vectors
// like B: local load instructions per step fall from WPTM + WPTN/VW to (WPTM+WPTN)/VW.
// A is still fetched from global memory along its rows (coalesced), so the transposing
// stores go down columns of local memory, TS+PAD words apart; PAD words of padding per
// row move those stores onto different banks (PAD must keep rows VW-aligned).
// A work-item's rows and columns are VW-wide slices strided across the tile; vectors
// past the edge of a matrix fall back to guarded scalar accesses, so any M, N, K work.

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
void mm_tpad_block(const int M, const int N, const int K,
                   const __global float* A,
                   const __global float* B,
                   __global float* C)
{
    const int tx = get_local_id(0);
    const int ty = get_local_id(1);
    const int lid = ty * RTSN + tx;
    const int col0 = get_group_id(0) * TS;
    const int row0 = get_group_id(1) * TS;

    __local floatV atile[TSK][ASTRIDE / VW];   // atile[k][m]: TS+PAD floats per k (VW | PAD), the padding drawn as columns
    __local floatV btile[TSK][TS / VW];
    __local float* at = (__local float*)atile;

    floatV acc[WPTM][WPTN / VW];
    #pragma unroll
    for (int i = 0; i < WPTM; ++i)
        #pragma unroll
        for (int j = 0; j < WPTN / VW; ++j)
            acc[i][j] = (floatV)(0.0f);

    for (int k0 = 0; k0 < K; k0 += TSK) {
        for (int e = lid; e < TS * TSK / VW; e += WGSIZE) {
            const int r = e / (TSK / VW), c = (e % (TSK / VW)) * VW;  // along the rows of A
            const floatV x = load_vec(A, M, K, row0 + r, k0 + c);
            #pragma unroll
            for (int i = 0; i < VW; ++i) at[(c + i) * ASTRIDE + r] = vget(x, i);  // transposed
        }
        for (int e = lid; e < TSK * TS / VW; e += WGSIZE) {
            const int r = e / (TS / VW), c = e % (TS / VW);
            btile[r][c] = load_vec(B, K, N, k0 + r, col0 + c * VW);
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        #pragma unroll
        for (int k = 0; k < TSK; ++k) {
            floatV a[WPTM / VW], b[WPTN / VW];
            #pragma unroll
            for (int i = 0; i < WPTM / VW; ++i) a[i] = atile[k][i * RTSM + ty];
            #pragma unroll
            for (int j = 0; j < WPTN / VW; ++j) b[j] = btile[k][j * RTSN + tx];
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
