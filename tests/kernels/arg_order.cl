// The naive kernel as someone else's slides might write it: output first, other names,
// sizes last. Arguments bind by name, so the trace still knows which buffer is which.

__kernel void matmul(__global float* out,
                     const __global float* left,
                     const __global float* right,
                     const int rows, const int cols, const int inner)
{
    const int j = get_global_id(0);
    const int i = get_global_id(1);
    if (i >= rows || j >= cols)
        return;

    float sum = 0.0f;
    for (int k = 0; k < inner; ++k)
        sum += left[i * inner + k] * right[k * cols + j];
    out[i * cols + j] = sum;
}
