// Writes past the end of C, a page at a time, until the process that runs it dies
// (SIGSEGV on a CPU driver): the kernel a hostile saved trace carries (issue 32). Its
// signature is endless.cl's, so one traced launch serves both.
__kernel void endless(__global volatile float* C, int n)
{
    for (long i = 0;; i += 1024) C[i] = (float)n;
}
