// Rung 7, reg2d: 2D register blocking. Each work-item computes a WPTM x WPTN block of
// C. Per step k it reads WPTM values of the A tile and WPTN values of the B tile from
// local memory into registers and does WPTM*WPTN multiply-adds with them, so local
// loads per multiply-add fall from 2 (tiled) to (WPTM+WPTN)/(WPTM*WPTN). The block of a
// work-item is strided (rows ty + i*TS/WPTM, columns tx + j*TS/WPTN), so neighbouring
// work-items still read neighbouring words of local memory and write neighbouring C.
// A work-group computes a TS x TS tile of C from TS x TSK tiles of A and TSK x TS tiles
// of B; elements past the edge of A or B load as 0, so any M, N, K work.

#ifndef TS
#define TS 64
#endif
#ifndef TSK
#define TSK 16
#endif
#ifndef WPTM
#define WPTM 4
#endif
#ifndef WPTN
#define WPTN 4
#endif
#if TS % WPTM != 0 || TS % WPTN != 0
#error "WPTM and WPTN must divide TS"
#endif
#define RTSM (TS / WPTM)          // work-items along M
#define RTSN (TS / WPTN)          // work-items along N (dimension 0)
#define WGSIZE (RTSM * RTSN)

__kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1)))
void mm_reg_block(const int M, const int N, const int K,
                  const __global float* A,
                  const __global float* B,
                  __global float* C)
{
    const int tx = get_local_id(0);
    const int ty = get_local_id(1);
    const int lid = ty * RTSN + tx;
    const int col0 = get_group_id(0) * TS;  // first column of this group's tile of C
    const int row0 = get_group_id(1) * TS;  // first row

    __local float atile[TS][TSK];
    __local float btile[TSK][TS];

    float acc[WPTM][WPTN];
    #pragma unroll
    for (int i = 0; i < WPTM; ++i)
        #pragma unroll
        for (int j = 0; j < WPTN; ++j)
            acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += TSK) {
        // The whole group loads both tiles, consecutive work-items along a row.
        for (int e = lid; e < TS * TSK; e += WGSIZE) {
            const int r = e / TSK, c = e % TSK;
            const int gr = row0 + r, gc = k0 + c;
            atile[r][c] = (gr < M && gc < K) ? A[gr * K + gc] : 0.0f;
        }
        for (int e = lid; e < TSK * TS; e += WGSIZE) {
            const int r = e / TS, c = e % TS;
            const int gr = k0 + r, gc = col0 + c;
            btile[r][c] = (gr < K && gc < N) ? B[gr * N + gc] : 0.0f;
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        #pragma unroll
        for (int k = 0; k < TSK; ++k) {
            float a[WPTM], b[WPTN];
            #pragma unroll
            for (int i = 0; i < WPTM; ++i) a[i] = atile[ty + i * RTSM][k];
            #pragma unroll
            for (int j = 0; j < WPTN; ++j) b[j] = btile[k][tx + j * RTSN];
            #pragma unroll
            for (int i = 0; i < WPTM; ++i)
                #pragma unroll
                for (int j = 0; j < WPTN; ++j)
                    acc[i][j] += a[i] * b[j];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    #pragma unroll
    for (int i = 0; i < WPTM; ++i) {
        const int row = row0 + ty + i * RTSM;
        #pragma unroll
        for (int j = 0; j < WPTN; ++j) {
            const int col = col0 + tx + j * RTSN;
            if (row < M && col < N) C[row * N + col] = acc[i][j];
        }
    }
}
