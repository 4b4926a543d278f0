// Rung 8, reg2d_vec: wider loads. The same 2D register blocking as reg2d, but every
// memory access moves VW floats at once (float4 by default): tiles travel from global
// to local memory as vectors, a work-item reads its columns of the B tile as vectors,
// and writes C as vectors. The number of load instructions falls by VW for the same
// bytes. A work-item's WPTN columns are WPTN/VW vectors, strided across the tile, so
// neighbouring work-items still touch neighbouring addresses. Vectors that would cross
// the edge of a matrix, or start unaligned (K or N not a multiple of VW), fall back to
// guarded scalar accesses, so any M, N, K work.

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
#if TS % WPTM != 0 || TS % WPTN != 0 || WPTN % VW != 0 || TSK % VW != 0
#error "need WPTM | TS, WPTN | TS, VW | WPTN and VW | TSK"
#endif
#define RTSM (TS / WPTM)          // work-items along M
#define RTSN (TS / WPTN)          // work-items along N (dimension 0)
#define WGSIZE (RTSM * RTSN)

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
void mm_vec_block(const int M, const int N, const int K,
                  const __global float* A,
                  const __global float* B,
                  __global float* C)
{
    const int tx = get_local_id(0);
    const int ty = get_local_id(1);
    const int lid = ty * RTSN + tx;
    const int col0 = get_group_id(0) * TS;
    const int row0 = get_group_id(1) * TS;

    __local floatV atile[TS][TSK / VW];
    __local floatV btile[TSK][TS / VW];

    floatV acc[WPTM][WPTN / VW];
    #pragma unroll
    for (int i = 0; i < WPTM; ++i)
        #pragma unroll
        for (int j = 0; j < WPTN / VW; ++j)
            acc[i][j] = (floatV)(0.0f);

    for (int k0 = 0; k0 < K; k0 += TSK) {
        for (int e = lid; e < TS * TSK / VW; e += WGSIZE) {
            const int r = e / (TSK / VW), c = e % (TSK / VW);
            atile[r][c] = load_vec(A, M, K, row0 + r, k0 + c * VW);
        }
        for (int e = lid; e < TSK * TS / VW; e += WGSIZE) {
            const int r = e / (TS / VW), c = e % (TS / VW);
            btile[r][c] = load_vec(B, K, N, k0 + r, col0 + c * VW);
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        const __local float* as = (const __local float*)atile;
        
        for (int k = 0; k < TSK; ++k) {
            floatV b[WPTN / VW];
            #pragma unroll
            for (int j = 0; j < WPTN / VW; ++j) b[j] = btile[k][tx + j * RTSN];
            #pragma unroll
            for (int i = 0; i < WPTM; ++i) {
                const float a = as[(ty + i * RTSM) * TSK + k];
                #pragma unroll
                for (int j = 0; j < WPTN / VW; ++j) acc[i][j] += a * b[j];
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    #pragma unroll
    for (int i = 0; i < WPTM; ++i) {
        const int row = row0 + ty + i * RTSM;
        if (row >= M) continue;
        #pragma unroll
        for (int j = 0; j < WPTN / VW; ++j) {
            const int col = col0 + (tx + j * RTSN) * VW;
            if (col + VW <= N && N % VW == 0) {
                ((__global floatV*)C)[(row * N + col) / VW] = acc[i][j];
            } else {
                #pragma unroll
                for (int c = 0; c < VW; ++c)
                    if (col + c < N) C[row * N + col + c] = vget(acc[i][j], c);
            }
        }
    }
}
