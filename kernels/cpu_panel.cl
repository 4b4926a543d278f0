// Rung 11, cpu_panel: on a CPU, local memory is just more cached RAM. Copying tiles into it
// costs loads, stores and barriers and buys nothing the L1/L2 caches do not already give.
// This rung has no local memory and no barrier: a work-item keeps a WPTM x TS block of C
// in vector registers (TS/VW vectors per row; VW = 16 fills an AVX-512 register) and, for
// every k, reads WPTM floats of A (each broadcast to a vector) and TS contiguous floats of
// B (TS/VW vector loads along N), so each multiply-add costs (WPTM + TS)/(WPTM * TS) global
// loads, served by the caches. Work-items run along N (dimension 0): the WGN x WGM
// work-items of a group share their WPTM-row slices of A, which stay in L1/L2 while the
// group sweeps across B. Blocks that cross the edge of C take a guarded copy of the same
// vector code (only the vector that crosses N goes a float at a time), so any M, N, K work.

#ifndef TS
#define TS 32        // columns of C per work-item
#endif
#ifndef WPTM
#define WPTM 8       // rows of C per work-item
#endif
#ifndef VW
#define VW 16        // floats per vector
#endif
#if TS % VW != 0
#error "need VW | TS"
#endif
#if VW != 4 && VW != 8 && VW != 16
#error "VW must be 4, 8 or 16"
#endif
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define floatV CAT(float, VW)
#define vloadV CAT(vload, VW)
#define vstoreV CAT(vstore, VW)
#define NV (TS / VW)  // vectors per row of the block

__kernel void mm_cpu_panel(const int M, const int N, const int K,
                           const __global float* A,
                           const __global float* B,
                           __global float* C)
{
    const int col0 = get_global_id(0) * TS;
    const int row0 = get_global_id(1) * WPTM;
    if (row0 >= M || col0 >= N) return;

    floatV acc[WPTM][NV];
    #pragma unroll
    for (int i = 0; i < WPTM; ++i)
        #pragma unroll
        for (int j = 0; j < NV; ++j) acc[i][j] = (floatV)(0.0f);

    if (row0 + WPTM <= M && col0 + TS <= N) {
        // The whole block is inside C: straight vector code, what the CPU runs almost always.
        for (int k = 0; k < K; ++k) {
            floatV b[NV];
            #pragma unroll
            for (int j = 0; j < NV; ++j) b[j] = vloadV(0, B + k * N + col0 + j * VW);
            #pragma unroll
            for (int i = 0; i < WPTM; ++i) {
                const floatV a = (floatV)(A[(row0 + i) * K + k]);
                #pragma unroll
                for (int j = 0; j < NV; ++j) acc[i][j] = fma(a, b[j], acc[i][j]);
            }
        }
        #pragma unroll
        for (int i = 0; i < WPTM; ++i)
            #pragma unroll
            for (int j = 0; j < NV; ++j) vstoreV(acc[i][j], 0, C + (row0 + i) * N + col0 + j * VW);
        return;
    }

    // A block on the edge of C: the same vector arithmetic, guarded. Rows past M are skipped
    // (their A is never read), whole vectors inside C are loaded and stored as vectors, and the
    // one vector that crosses the edge of N is gathered and scattered a float at a time. Each
    // in-range float of A and B is still read once per k, as on the fast path, and only C's
    // own elements are written. (It replaced a loop one float at a time; on a real device the
    // runner pads N to 16 first, so this path mostly serves --pad off and the emulator.)
    const int rows = min(WPTM, M - row0), cols = min(TS, N - col0);
    for (int k = 0; k < K; ++k) {
        floatV b[NV];
        #pragma unroll
        for (int j = 0; j < NV; ++j) {
            if ((j + 1) * VW <= cols) {
                b[j] = vloadV(0, B + k * N + col0 + j * VW);
            } else {
                float part[VW];
                for (int v = 0; v < VW; ++v) {
                    part[v] = 0.0f;
                    if (j * VW + v < cols) part[v] = B[k * N + col0 + j * VW + v];
                }
                b[j] = vloadV(0, part);
            }
        }
        #pragma unroll
        for (int i = 0; i < WPTM; ++i) {
            if (i < rows) {
                const floatV a = (floatV)(A[(row0 + i) * K + k]);
                #pragma unroll
                for (int j = 0; j < NV; ++j) acc[i][j] = fma(a, b[j], acc[i][j]);
            }
        }
    }
    #pragma unroll
    for (int i = 0; i < WPTM; ++i) {
        if (i >= rows) continue;
        #pragma unroll
        for (int j = 0; j < NV; ++j) {
            if ((j + 1) * VW <= cols) {
                vstoreV(acc[i][j], 0, C + (row0 + i) * N + col0 + j * VW);
            } else if (j * VW < cols) {
                float part[VW];
                vstoreV(acc[i][j], 0, part);
                for (int v = 0; j * VW + v < cols; ++v) C[(row0 + i) * N + col0 + j * VW + v] = part[v];
            }
        }
    }
}
