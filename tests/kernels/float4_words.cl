// float4 accesses by one sub-group of 32 lanes, the access width the ideals must follow.
// Lane l moves the 16-byte word l: a global request touches 32*16/32 = 16 sectors, the
// ideal for float4. In local memory a float4 request is served in 4 passes of 8 lanes;
// with STRIDE 1 each pass covers the 8 groups of 4 banks once (degree 1, no conflict).
// STRIDE 2 puts the 8 lanes of a pass into 4 groups, two words each: a 2-way conflict.

#ifndef STRIDE
#define STRIDE 1
#endif

__kernel void float4_words(const __global float4* src, __global float4* dst)
{
    __local float4 words[32 * STRIDE];
    const int l = get_local_id(0);
    words[l * STRIDE] = src[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    dst[l] = words[l * STRIDE];
}
