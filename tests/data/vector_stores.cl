// Three ways to store four floats per work-item; each moves 16 bytes per work-item.
__kernel void built(__global float* C, __global const float* A) {
    const int i = get_global_id(0);
    *((__global float4*)(C + 4 * i)) = (float4)(A[4 * i] + 1.0f, A[4 * i + 1], A[4 * i + 2], A[4 * i + 3]);
}
__kernel void with_vstore(__global float* C, __global const float* A) {
    const int i = get_global_id(0);
    vstore4((float4)(A[4 * i] + 1.0f, A[4 * i + 1], A[4 * i + 2], A[4 * i + 3]), i, C);
}
__kernel void copied(__global float* C, __global const float* A) {
    const int i = get_global_id(0);
    *((__global float4*)(C + 4 * i)) = *((__global const float4*)(A + 4 * i));
}
