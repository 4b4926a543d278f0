// Not a rung: the copy the runner makes for a rung that may run padded (ladder.json "pad";
// warp_tile and splitk). One work-item per element of the destination, a rows x cols matrix:
// it takes the element of the source (src_rows x src_cols, row-major) at the same row and
// column, or zero where the source has none. Copying A (M x K) into an M x K' buffer with K'
// the next multiple of 4 pads each row with zeros; copying the padded C back into the user's
// M x N drops the extra columns. Each copy moves its matrix once: O(n^2) against the
// product's O(n^3).
__kernel void pad_copy(const int rows, const int cols, const __global float* src, const int src_rows,
                       const int src_cols, __global float* dst)
{
    const int c = get_global_id(0), r = get_global_id(1);
    if (r >= rows || c >= cols) return;
    dst[(size_t)r * cols + c] = (r < src_rows && c < src_cols) ? src[(size_t)r * src_cols + c] : 0.0f;
}
