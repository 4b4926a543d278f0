// A loop of barriers and nothing else: each one closes an interval of every work-group,
// with no access to count (issue 32: 200,000 of them gave every detail group 200,000
// empty intervals, 3.6 GB, before the plugin counted what an interval costs).
__kernel void many_barriers(__global float* C, int n) {
    for (int i = 0; i < n; ++i) barrier(CLK_LOCAL_MEM_FENCE);
    C[get_global_id(0)] = 1.0f;
}
