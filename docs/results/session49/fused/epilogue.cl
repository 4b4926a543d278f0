#ifdef FUSED
    // (session 49 probe) This group's partial tile is in W. The last of the tile's S groups to get
    // here adds the S slices in slice order, as mm_slice_sum does (the same sums), and stores C:
    // no second launch, and the slices are read while they are still in L2.
    __local int fused_last;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (tid == 0) {
        const int t = get_group_id(1) * get_num_groups(0) + get_group_id(0);
        fused_last = atomic_inc(CNT + t) == (int)get_num_groups(2) - 1;
        if (fused_last) CNT[t] = 0;  // ready for the next launch
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!fused_last) return;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    const int fused_mn = M * N, fused_s = get_num_groups(2);
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
                    if (col >= N) continue;  // N a multiple of 4 (the padded size): whole float4s
#if FUSED == 2
                    // plain float4 loads (no volatile): the tile's slices were never read on this unit
                    float4 s = vload4(0, W + row * N + col);
                    for (int z = 1; z < fused_s; ++z) s += vload4(0, W + z * fused_mn + row * N + col);
#else
                    const volatile __global float* w = W + row * N + col;
                    float4 s = (float4)(w[0], w[1], w[2], w[3]);
                    for (int z = 1; z < fused_s; ++z) {
                        w += fused_mn;
                        s += (float4)(w[0], w[1], w[2], w[3]);
                    }
#endif
                    vstore4(s, 0, C + row * N + col);
                }
        }
#endif
