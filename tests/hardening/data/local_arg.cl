// A kernel with a __local argument whose size the command line gives (--arg t=local:E).
__kernel void with_local(__global float* C, __local float* t)
{
    t[get_local_id(0)] = 1.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    C[get_global_id(0)] = t[0];
}
