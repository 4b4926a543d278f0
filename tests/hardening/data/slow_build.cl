// Builds slowly, on purpose: the preprocessor expands R16 into 2^16 dependent
// statements, which every driver's compiler must parse and optimise. For the tests of
// the build time limit (TILESCOPE_BUILD_TIMEOUT_S), so they need not wait 120 s.
#define R0(x) x = x * 1.0001f + C[1];
#define R1(x) R0(x) R0(x)
#define R2(x) R1(x) R1(x)
#define R3(x) R2(x) R2(x)
#define R4(x) R3(x) R3(x)
#define R5(x) R4(x) R4(x)
#define R6(x) R5(x) R5(x)
#define R7(x) R6(x) R6(x)
#define R8(x) R7(x) R7(x)
#define R9(x) R8(x) R8(x)
#define R10(x) R9(x) R9(x)
#define R11(x) R10(x) R10(x)
#define R12(x) R11(x) R11(x)
#define R13(x) R12(x) R12(x)
#define R14(x) R13(x) R13(x)
#define R15(x) R14(x) R14(x)
#define R16(x) R15(x) R15(x)
__kernel void slow_build(__global float* C, int n)
{
    float x = C[0] + n;
    R16(x)
    C[0] = x;
}
