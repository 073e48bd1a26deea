/*
 * tests/fp_ref.h: host references for narrow floating-point formats,
 * shared by the end-to-end tests (tests/check_e2e.c, check_e2e_fp.c):
 * IEEE binary16 and bfloat16 encodings with explicit rounding, and a
 * general rounding of an exact value (a double plus the sign of an
 * error term) to any small binary format.  Include after e2e_util.h.
 * Written from the IEEE 754 definitions, sharing no code with emu/fp.c.
 */
#ifndef PTXEMU_TESTS_FP_REF_H
#define PTXEMU_TESTS_FP_REF_H

#include <math.h>
#include <stdint.h>
#include <string.h>

/* Rounding directions: nearest-even, toward zero, down, up. */
enum { RN, RZ, RD, RU };

/* v (exact in double) rounded to IEEE binary16 bits in a direction. */
static inline uint16_t half_bits(double v, int mode)
{
    uint16_t sign = signbit(v) ? 0x8000 : 0;
    if (v != v)
        return 0x7fff;
    double a = fabs(v);
    if (isinf(a))
        return sign | 0x7c00;
    if (a == 0)
        return sign;
    int e;
    frexp(a, &e); /* a in [2^(e-1), 2^e) */
    int qe = (e - 1 < -14 ? -14 : e - 1) - 10;
    double sc = ldexp(a, -qe), nfl = floor(sc), fr = sc - nfl;
    int up;
    switch (mode) {
    case RN: up = fr > 0.5 || (fr == 0.5 && fmod(nfl, 2.0) != 0); break;
    case RZ: up = 0; break;
    case RD: up = sign && fr > 0; break;
    default: up = !sign && fr > 0; break;
    }
    double r = ldexp(nfl + up, qe);
    if (r >= 65536.0 || (r > 65504.0)) {
        int to_inf =
            mode == RN || (mode == RD && sign) || (mode == RU && !sign);
        return sign | (to_inf ? 0x7c00 : 0x7bff);
    }
    if (r < 0x1p-14)
        return sign | (uint16_t)ldexp(r, 24);
    frexp(r, &e);
    uint16_t m = (uint16_t)((ldexp(r, 11 - e) - 1024.0));
    return sign | (uint16_t)((e - 1 + 15) << 10) | m;
}

static inline float half_to_float(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    float v = e == 0    ? ldexpf((float)m, -24)
              : e == 31 ? (m ? NAN : INFINITY)
                        : ldexpf((float)(m + 1024), e - 25);
    return (h & 0x8000) ? -v : v;
}

/* v (exact in double, |v| well inside the float range) rounded to
 * bfloat16 bits in a direction. */
static inline uint16_t bf16_bits(double v, int mode)
{
    float f = (float)v; /* exact for the inputs used */
    ck_assert((double)f == v || v != v);
    uint32_t u = fbits(f);
    if (f != f)
        return 0x7fff;
    uint32_t lo = u & 0xffff, hi = u >> 16, s = u >> 31;
    int up;
    switch (mode) {
    case RN: up = lo > 0x8000 || (lo == 0x8000 && (hi & 1)); break;
    case RZ: up = 0; break;
    case RD: up = s && lo; break;
    default: up = !s && lo; break;
    }
    return (uint16_t)(hi + (uint32_t)up);
}

static inline float bf16_to_float(uint16_t b)
{
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* A small binary format: p significand bits (the hidden one counted),
 * smallest normal 2^emin, largest finite maxv. */
typedef struct RefFmt {
    int p, emin;
    double maxv;
} RefFmt;

static const RefFmt REF_F16 = { 11, -14, 65504.0 };
static const RefFmt REF_BF16 = { 8, -126, 0x1.FEp127 };
static const RefFmt REF_F32 = { 24, -126, 0x1.FFFFFEp127 };
static const RefFmt REF_E4M3 = { 4, -6, 448.0 };
static const RefFmt REF_E5M2 = { 3, -14, 57344.0 };

/* The exact value hi + lo rounded to format f in direction mode.  lo
 * only gives the sign of a remainder far below f's quantum at hi (0:
 * hi is exact).  Overflow gives +-inf, or +-maxv when the direction
 * rounds toward zero or sat is set; NaN stays NaN. */
static inline double ref_round(const RefFmt *f, double hi, double lo,
                               int mode, int sat)
{
    if (hi != hi)
        return hi;
    if (isinf(hi))
        return sat ? copysign(f->maxv, hi) : hi;
    if (hi == 0 && lo == 0)
        return hi;
    if (hi == 0) { /* an infinitesimal of the sign of lo */
        int ng = lo < 0;
        double tiny = ldexp(1.0, f->emin - f->p + 1);
        if ((mode == RD && ng) || (mode == RU && !ng))
            return ng ? -tiny : tiny;
        return ng ? -0.0 : 0.0;
    }
    int neg = hi < 0;
    double a = fabs(hi);
    int l = lo == 0 ? 0 : ((lo < 0) != neg ? -1 : 1); /* relative to a */
    int e = ilogb(a);
    if (l < 0 && a == ldexp(1.0, e) && e > f->emin)
        e--; /* just below a power of two: the lower binade's quantum */
    int qe = (e < f->emin ? f->emin : e) - (f->p - 1);
    double n = ldexp(a, -qe), fl = floor(n), fr = n - fl;
    int inexact = fr != 0 || l != 0, c; /* c: fraction vs one half */
    if (fr == 0 && l < 0) {
        fl -= 1;
        c = 1;
    } else if (fr == 0) {
        c = -1;
    } else {
        c = fr > 0.5 ? 1 : fr < 0.5 ? -1 : l;
    }
    int up;
    switch (mode) {
    case RN: up = c > 0 || (c == 0 && fmod(fl, 2.0) != 0); break;
    case RZ: up = 0; break;
    case RD: up = neg && inexact; break;
    default: up = !neg && inexact; break;
    }
    double r = ldexp(fl + up, qe);
    if (r > f->maxv) {
        int to_inf = !sat && (mode == RN || (mode == RD && neg) ||
                              (mode == RU && !neg));
        r = to_inf ? INFINITY : f->maxv;
    }
    return neg ? -r : r;
}

/* TwoSum: s + *e == a + b exactly. */
static inline double two_sum(double a, double b, double *e)
{
    double s = a + b, bb = s - a;
    *e = (a - (s - bb)) + (b - bb);
    return s;
}

/* Round-to-nearest f16 and bf16 of an exact hi + lo, as values. */
static inline double rh(double hi, double lo)
{
    return ref_round(&REF_F16, hi, lo, RN, 0);
}

static inline double rb(double hi, double lo)
{
    return ref_round(&REF_BF16, hi, lo, RN, 0);
}

/* Bits of a value representable in e4m3 (no inf: inf and NaN are the
 * NaN pattern S.1111.111) or e5m2 (IEEE-like). */
static inline uint8_t fp8_bits(double v, int e5m2)
{
    int mb = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
    uint8_t s = signbit(v) ? 0x80 : 0;
    if (v != v || (!e5m2 && isinf(v)))
        return (uint8_t)(s | 0x7F);
    if (isinf(v))
        return (uint8_t)(s | 0x7C);
    double a = fabs(v);
    if (a < ldexp(1.0, 1 - bias)) /* subnormal or zero */
        return (uint8_t)(s | (int)ldexp(a, bias - 1 + mb));
    int e = ilogb(a);
    int m = (int)(ldexp(a, mb - e) - ldexp(1.0, mb));
    return (uint8_t)(s | ((e + bias) << mb) | m);
}

static inline double fp8_value(uint8_t b, int e5m2)
{
    int mb = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
    int ef = (b & 0x7F) >> mb, m = b & ((1 << mb) - 1);
    double v;
    if (!e5m2 && (b & 0x7F) == 0x7F)
        return NAN;
    if (e5m2 && ef == 31)
        v = m ? NAN : INFINITY;
    else if (ef == 0)
        v = ldexp(m, 1 - bias - mb);
    else
        v = ldexp(m + (1 << mb), ef - bias - mb);
    return (b & 0x80) ? -v : v;
}

#endif
