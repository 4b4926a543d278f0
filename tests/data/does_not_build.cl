// Deliberately broken: uses a variable that does not exist.
__kernel void mm_broken(const int M, const int N, const int K,
                        __global const float* A, __global const float* B, __global float* C)
{
    C[get_global_id(0)] = A[0] * undefined_thing;
}
