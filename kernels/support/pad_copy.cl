// Not a rung: the copy the runner makes for a rung that may run padded (ladder.json "pad";
// warp_tile and splitk). One work-item per element of the destination, a rows x cols matrix:
// it takes the element of the source (src_rows x src_cols, row-major) at the same row and
// column, or zero where the source has none. Copying A (M x K) into an M x K' buffer with K'
// the next multiple of 4 pads each row with zeros; copying the padded C back into the user's
// M x N drops the extra columns. Each copy moves its matrix once: O(n^2) against the
// product's O(n^3).
inline void copy_element(const int r, const int c, const int rows, const int cols, const __global float* src,
                         const int src_rows, const int src_cols, __global float* dst)
{
    if (r >= rows || c >= cols) return;
    dst[(size_t)r * cols + c] = (r < src_rows && c < src_cols) ? src[(size_t)r * src_cols + c] : 0.0f;
}

__kernel void pad_copy(const int rows, const int cols, const __global float* src, const int src_rows,
                       const int src_cols, __global float* dst)
{
    copy_element(get_global_id(1), get_global_id(0), rows, cols, src, src_rows, src_cols, dst);
}

// Two copies in one launch (A's and B's, before the product): one work-item per element of
// either destination, the first rows0 x cols0 of them for the first copy, the rest for the
// second. A launch costs the GPU a gap of several microseconds, about as long as a copy itself
// at 1234 x 1234, so one launch instead of two.
__kernel void pad_copy2(const int rows0, const int cols0, const __global float* src0, const int src_rows0,
                        const int src_cols0, __global float* dst0,
                        const int rows1, const int cols1, const __global float* src1, const int src_rows1,
                        const int src_cols1, __global float* dst1)
{
    const size_t i = get_global_id(0), n0 = (size_t)rows0 * cols0;
    if (i < n0) copy_element(i / cols0, i % cols0, rows0, cols0, src0, src_rows0, src_cols0, dst0);
    else copy_element((i - n0) / cols1, (i - n0) % cols1, rows1, cols1, src1, src_rows1, src_cols1, dst1);
}

// pad_copy2 four elements at a time: the same two copies, for destinations whose rows are a
// whole number of float4s (cols0 and cols1 multiples of 4, as the padded A and B of warp_tile
// and splitk always are) and of fewer than 2^31 elements each. A work-item writes one aligned
// float4 of a destination (its four source elements read one by one: the user's rows need not
// be aligned) and its index arithmetic is 32-bit, one division per four elements. The
// element-wise pad_copy2 spends a 64-bit division on every element, and that division, not the
// memory, was its limit where A and B are large (a long K): the copy moves the same bytes.
inline void copy_four(const uint r, const uint c, const int cols, const __global float* src, const int src_rows,
                      const int src_cols, __global float* dst)
{
    float4 v = (float4)(0.0f);
    if ((int)r < src_rows) {
        const __global float* s = src + (size_t)r * src_cols;
        if ((int)c < src_cols) v.x = s[c];
        if ((int)c + 1 < src_cols) v.y = s[c + 1];
        if ((int)c + 2 < src_cols) v.z = s[c + 2];
        if ((int)c + 3 < src_cols) v.w = s[c + 3];
    }
    vstore4(v, 0, dst + (size_t)r * cols + c);
}

__kernel void pad_copy2_x4(const int rows0, const int cols0, const __global float* src0, const int src_rows0,
                           const int src_cols0, __global float* dst0,
                           const int rows1, const int cols1, const __global float* src1, const int src_rows1,
                           const int src_cols1, __global float* dst1)
{
    const uint i = get_global_id(0), q0 = (uint)cols0 / 4, n0 = (uint)rows0 * q0;
    if (i < n0) {
        const uint r = i / q0;
        copy_four(r, (i - r * q0) * 4, cols0, src0, src_rows0, src_cols0, dst0);
    } else {
        const uint j = i - n0, q1 = (uint)cols1 / 4, r = j / q1;
        if (r < (uint)rows1) copy_four(r, (j - r * q1) * 4, cols1, src1, src_rows1, src_cols1, dst1);
    }
}
