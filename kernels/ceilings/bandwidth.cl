// Ceiling: the device's global-memory bandwidth, for the roofline. A straight copy of
// M*N floats as float4: every byte is read once and written once (8*M*N bytes moved),
// consecutive work-items touch consecutive addresses.
__kernel void ceiling_copy(const __global float4* A, __global float4* C)
{
    const int i = get_global_id(0);
    C[i] = A[i];
}
