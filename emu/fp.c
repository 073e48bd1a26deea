/*
 * emu/fp.c: software rounding to the small binary formats (see fp.h).
 *
 * Rationale: PTX asks for .rz/.rm/.rp on f32, f16 and bf16 arithmetic and
 * on every conversion.  Switching the host's rounding mode per
 * instruction is slow and global; instead every such result is formed
 * exactly (or as an exact value plus an infinitesimal) and rounded here
 * with integer arithmetic, so all modes, subnormals, overflow and
 * .satfinite follow one code path that the tests can check bit by bit.
 */
#include "config.h"

#include <math.h>

#include "emu/fp.h"

const FpFmt fp_fmt_f16 = { 5, 10, FP_K_IEEE, 0, FP_NAN16 };
const FpFmt fp_fmt_bf16 = { 8, 7, FP_K_IEEE, 0, FP_NAN16 };
const FpFmt fp_fmt_tf32 = { 8, 10, FP_K_IEEE, 13, FP_NAN32 };
const FpFmt fp_fmt_f32 = { 8, 23, FP_K_IEEE, 0, FP_NAN32 };
const FpFmt fp_fmt_f64 = { 11, 52, FP_K_IEEE, 0, FP_NAN64 };
const FpFmt fp_fmt_e4m3 = { 4, 3, FP_K_E4M3, 0, 0x7F };
const FpFmt fp_fmt_e5m2 = { 5, 2, FP_K_IEEE, 0, 0x7F };
/* OCP MX formats (PTX ISA 9.0 section 5.2.5.2): all exponents finite;
 * "nan" is the pattern a NaN input converts to, +max. */
const FpFmt fp_fmt_e2m1 = { 2, 1, FP_K_FINITE, 0, 0x7 };
const FpFmt fp_fmt_e2m3 = { 2, 3, FP_K_FINITE, 0, 0x1F };
const FpFmt fp_fmt_e3m2 = { 3, 2, FP_K_FINITE, 0, 0x1F };

/* Largest finite magnitude, as (exponent field, mantissa field) bits. */
static uint64_t fmt_max(const FpFmt *f)
{
    uint64_t mmask = (1ull << f->mbits) - 1;
    if (f->kind == FP_K_E4M3) {
        return ((uint64_t)15 << f->mbits) | (mmask - 1);
    }
    if (f->kind == FP_K_FINITE) {
        return ((((uint64_t)1 << f->ebits) - 1) << f->mbits) | mmask;
    }
    return ((((uint64_t)1 << f->ebits) - 2) << f->mbits) | mmask;
}

static uint64_t fmt_inf(const FpFmt *f)
{
    return (((uint64_t)1 << f->ebits) - 1) << f->mbits;
}

static uint64_t fmt_overflow(const FpFmt *f, bool neg, unsigned rnd,
                             unsigned flags)
{
    uint64_t sign = (uint64_t)neg << (f->ebits + f->mbits);
    bool to_max;
    if ((flags & FP_SATFINITE) || f->kind == FP_K_FINITE) {
        to_max = true;
    } else if (f->kind == FP_K_E4M3) {
        return f->nan;
    } else {
        switch (rnd) {
        case FP_RZ:
            to_max = true;
            break;
        case FP_RM:
            to_max = !neg;
            break;
        case FP_RP:
            to_max = neg;
            break;
        default:
            to_max = false;
            break;
        }
    }
    return (sign | (to_max ? fmt_max(f) : fmt_inf(f))) << f->shift;
}

uint64_t fp_round(const FpFmt *f, bool neg, uint64_t mant, int exp,
                  bool sticky, unsigned rnd, unsigned flags)
{
    const int mb = f->mbits;
    const int bias = (1 << (f->ebits - 1)) - 1;
    const int emin = 1 - bias;
    const uint64_t sign = (uint64_t)neg << (f->ebits + mb);
    uint64_t n;
    bool gt, eq, inexact;

    if (mant == 0) {
        if (!sticky) {
            return sign << f->shift;
        }
        mant = 1;          /* an infinitesimal: far below any quantum */
        exp = -30000;
        sticky = false;
    }
    int nb = 64 - __builtin_clzll(mant);
    int e = exp + nb - 1;
    int q = (e < emin ? emin : e) - mb;
    int sh = q - exp;
    if (sh <= 0) {
        n = mant << -sh;
        gt = eq = false;
        inexact = sticky;
    } else if (sh > 64) {
        n = 0;
        gt = eq = false;
        inexact = true;
    } else {
        uint64_t rem, half;
        if (sh == 64) {
            n = 0;
            rem = mant;
            half = 1ull << 63;
        } else {
            n = mant >> sh;
            rem = mant & ((1ull << sh) - 1);
            half = 1ull << (sh - 1);
        }
        gt = rem > half || (rem == half && sticky);
        eq = rem == half && !sticky;
        inexact = rem != 0 || sticky;
    }
    bool up;
    switch (rnd) {
    case FP_RZ:
        up = false;
        break;
    case FP_RM:
        up = inexact && neg;
        break;
    case FP_RP:
        up = inexact && !neg;
        break;
    case FP_RNA:
        up = gt || eq;
        break;
    default:
        up = gt || (eq && (n & 1));
        break;
    }
    n += up;
    if (n >> (mb + 1)) {
        n >>= 1;
        q++;
    }
    uint64_t ef, mf;
    if (n < (1ull << mb)) {
        ef = 0;
        mf = n;
    } else {
        ef = (uint64_t)(q + mb + bias);
        mf = n - (1ull << mb);
    }
    uint64_t mag = (ef << mb) | mf;
    if (q + mb + bias > (int)((1u << f->ebits) - 1) || mag > fmt_max(f)) {
        return fmt_overflow(f, neg, rnd, flags);
    }
    if ((flags & FP_FTZ) && ef == 0) {
        mag = 0;
    }
    return (sign | mag) << f->shift;
}

uint64_t fp_round_hilo(const FpFmt *f, double hi, double lo, unsigned rnd,
                       unsigned flags)
{
    uint64_t b = fp_u64(hi);
    bool neg = (b >> 63) != 0;
    uint64_t ef = (b >> 52) & 0x7FF;
    uint64_t mant = b & ((1ull << 52) - 1);
    int exp;

    if (ef == 0x7FF) {
        if (mant) {
            return f->nan;
        }
        if ((flags & FP_SATFINITE) || f->kind != FP_K_IEEE) {
            return fmt_overflow(f, neg, rnd, flags | FP_SATFINITE);
        }
        return (((uint64_t)neg << (f->ebits + f->mbits)) | fmt_inf(f))
               << f->shift;
    }
    if (ef == 0) {
        if (mant == 0 && lo != 0.0) {
            return fp_round_hilo(f, lo, 0.0, rnd, flags);
        }
        exp = -1074;
    } else {
        mant |= 1ull << 52;
        exp = (int)ef - 1075;
    }
    bool sticky = false;
    if (lo != 0.0 && mant != 0) {
        mant <<= 1;
        exp -= 1;
        if ((lo < 0) != neg) {
            mant -= 1;
        }
        sticky = true;
    }
    return fp_round(f, neg, mant, exp, sticky, rnd, flags);
}

uint64_t fp_round_rs(const FpFmt *f, double v, uint32_t rbits,
                     unsigned nbits, unsigned flags)
{
    if (v != v) {
        return f->nan;
    }
    bool neg = signbit(v);
    double a = fabs(v);
    const int bias = (1 << (f->ebits - 1)) - 1, mb = f->mbits;
    int emax = f->kind == FP_K_IEEE ? bias : bias + 1;
    if (a == 0.0) {
        return fp_round_d(f, v, FP_RZ, flags);   /* keeps the sign */
    }
    if (isinf(a) || ilogb(a) > emax) {
        /* past the top binade: overflows as a rounding up would */
        return fp_round_d(f, v, neg ? FP_RM : FP_RP, flags);
    }
    int e = ilogb(a);
    int qe = (e < 1 - bias ? 1 - bias : e) - mb;
    uint64_t t = fp_round_d(f, a, FP_RZ, flags);
    double frac = ldexp(a - fp_decode(f, t), -qe); /* in [0, 1), exact */
    uint64_t top = (uint64_t)ldexp(frac, (int)nbits);
    bool up = frac != 0 && top + rbits >= (1ull << nbits);
    return fp_round_d(f, v, up ? (neg ? FP_RM : FP_RP) : FP_RZ, flags);
}

double fp_decode(const FpFmt *f, uint64_t bits)
{
    const int mb = f->mbits;
    const int bias = (1 << (f->ebits - 1)) - 1;
    bits >>= f->shift;
    bool neg = (bits >> (f->ebits + mb)) & 1;
    uint64_t ef = (bits >> mb) & ((1u << f->ebits) - 1);
    uint64_t mf = bits & ((1ull << mb) - 1);
    double v;
    if (f->kind == FP_K_E4M3 && ef == 15 && mf == 7) {
        return NAN;
    }
    if (f->kind == FP_K_IEEE && ef == (1u << f->ebits) - 1) {
        if (mf) {
            return NAN;
        }
        v = INFINITY;
    } else if (ef == 0) {
        v = ldexp((double)mf, 1 - bias - mb);
    } else {
        v = ldexp((double)(mf | (1ull << mb)), (int)ef - bias - mb);
    }
    return neg ? -v : v;
}

double fp_rint(double v, unsigned rnd)
{
    if (!(fabs(v) < 4503599627370496.0)) {   /* 2^52, inf, NaN */
        return v;
    }
    double r;
    switch (rnd) {
    case FP_RZ:
        r = trunc(v);
        break;
    case FP_RM:
        r = floor(v);
        break;
    case FP_RP:
        r = ceil(v);
        break;
    default: {
        r = floor(v);
        double d = v - r;
        if (d > 0.5 || (d == 0.5 && fmod(r, 2.0) != 0.0)) {
            r += 1.0;
        }
        break;
    }
    }
    return copysign(r, v);
}
