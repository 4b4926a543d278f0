// One store per work-item and nothing else: what a launch costs the emulator per
// work-group and per work-item, whatever the kernel does (issue 32's custom NDRanges).
__kernel void one_store(__global float* C) {
    C[get_global_id(1) * get_global_size(0) + get_global_id(0)] = 1.0f;
}
