// prelude_vector.cl: the vector helpers of the rungs that move VW floats at a time
// (reg2d_vec, reg2d_tpad, reg2d_dbuf). Not a rung: a rung names it in kernels/ladder.json
// ("prelude": "prelude_vector.cl") and the catalog puts this text before the rung's own
// file when the program is built, followed by "#line 1", so every line number the compiler,
// the emulator (barriers, diagnostics, per-line traffic) and the views report is a line of
// the rung's file. For that to hold, nothing here may touch memory: these are register-level
// helpers only (a load from global or local memory here would be traced at a line of this
// file, which no view shows). Kernels given with --source get no prelude.
//
// VW (floats per vector) comes from the rung's build options (-D VW=..., its "params").

#ifndef VW
#define VW 4
#endif
#if VW != 2 && VW != 4 && VW != 8 && VW != 16
#error "VW must be 2, 4, 8 or 16"
#endif
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define floatV CAT(float, VW)

// Component v of a vector, and the vector with component v replaced. v is a constant
// once loops are unrolled, so both fold to register moves: no private array, no stack.
inline float vget(floatV x, int v) {
    switch (v) {
    case 1: return x.s1;
#if VW > 2
    case 2: return x.s2;
    case 3: return x.s3;
#endif
#if VW > 4
    case 4: return x.s4;
    case 5: return x.s5;
    case 6: return x.s6;
    case 7: return x.s7;
#endif
#if VW > 8
    case 8: return x.s8;
    case 9: return x.s9;
    case 10: return x.sa;
    case 11: return x.sb;
    case 12: return x.sc;
    case 13: return x.sd;
    case 14: return x.se;
    case 15: return x.sf;
#endif
    default: return x.s0;
    }
}

inline floatV vset(floatV x, int v, float value) {
    switch (v) {
    case 1: x.s1 = value; break;
#if VW > 2
    case 2: x.s2 = value; break;
    case 3: x.s3 = value; break;
#endif
#if VW > 4
    case 4: x.s4 = value; break;
    case 5: x.s5 = value; break;
    case 6: x.s6 = value; break;
    case 7: x.s7 = value; break;
#endif
#if VW > 8
    case 8: x.s8 = value; break;
    case 9: x.s9 = value; break;
    case 10: x.sa = value; break;
    case 11: x.sb = value; break;
    case 12: x.sc = value; break;
    case 13: x.sd = value; break;
    case 14: x.se = value; break;
    case 15: x.sf = value; break;
#endif
    default: x.s0 = value; break;
    }
    return x;
}
