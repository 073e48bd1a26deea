/*
 * emu/fp.h: pure floating-point helpers for the emulator's arithmetic and
 * conversion handlers (ops_fp.c, ops_cvt.c).
 *
 * Contract:
 *  - Everything here is a pure function of its arguments: no global
 *    state, no allocation, and no change to the host's floating-point
 *    environment.  Directed rounding is done in software by fp_round(),
 *    which rounds an exact value (a 64-bit integer significand, a binary
 *    exponent and a sticky bit) to any of the small binary formats
 *    FpFmt describes: f16, bf16, tf32, f32, f64, e4m3, e5m2, and the
 *    finite-only fp6/fp4 formats e2m3, e3m2, e2m1.
 *  - An f32, f16 or bf16 operation is made exact in double first (sums
 *    with the TwoSum error term, products exactly, quotients and roots
 *    with the sign of an fma() remainder), then rounded once by
 *    fp_round_hilo().  Because double carries more than twice the
 *    target's precision, only the sign of the error term matters.
 *  - NaN results of the narrow formats are canonical: f32 0x7FFFFFFF,
 *    f16 and bf16 0x7FFF, e4m3 and e5m2 0x7F (PTX ISA 9.0); the fp6/fp4
 *    formats have no NaN: a NaN input gives +max (CUDA 13's cuda_fp6.hpp
 *    and cuda_fp4.hpp reference conversions).
 */
#ifndef PTXEMU_EMU_FP_H
#define PTXEMU_EMU_FP_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define FP_NAN32 0x7FFFFFFFu
#define FP_NAN16 0x7FFFu
#define FP_NAN64 0x7FFFFFFFFFFFFFFFull

/* A binary format: ebits exponent bits, mbits stored mantissa bits,
 * and how it treats the top of its range. */
typedef struct FpFmt {
    uint8_t ebits;
    uint8_t mbits;
    uint8_t kind;            /* FP_K_* */
    uint8_t shift;           /* tf32: result bits shifted left by this */
    uint64_t nan;            /* canonical NaN bits (before shift) */
} FpFmt;

enum {
    FP_K_IEEE = 0,           /* all-ones exponent = inf/NaN */
    FP_K_E4M3,               /* no inf; only S.1111.111 is NaN */
    FP_K_FINITE,             /* no inf, no NaN (e2m1, e2m3, e3m2) */
};

extern const FpFmt fp_fmt_f16, fp_fmt_bf16, fp_fmt_tf32, fp_fmt_f32,
    fp_fmt_f64, fp_fmt_e4m3, fp_fmt_e5m2, fp_fmt_e2m1, fp_fmt_e2m3,
    fp_fmt_e3m2;

/* Rounding directions of fp_round (EMU_RND_* mapped by the callers). */
enum { FP_RN = 0, FP_RZ, FP_RM, FP_RP, FP_RNA };

/* Flags for fp_round. */
enum {
    FP_SATFINITE = 1u << 0,  /* overflow and inf give +-max finite */
    FP_FTZ = 1u << 1,        /* subnormal results become signed zero */
};

/* Round sign * (mant + sticky*eps) * 2^exp to fmt.  mant may be 0. */
uint64_t fp_round(const FpFmt *f, bool neg, uint64_t mant, int exp,
                  bool sticky, unsigned rnd, unsigned flags);

/* Round the exact value hi + lo (|lo| <= ulp(hi)/2, hi = RN(hi + lo);
 * only the sign of lo is used) to fmt.  NaN and inf in hi are handled. */
uint64_t fp_round_hilo(const FpFmt *f, double hi, double lo, unsigned rnd,
                       unsigned flags);

static inline uint64_t fp_round_d(const FpFmt *f, double v, unsigned rnd,
                                  unsigned flags)
{
    return fp_round_hilo(f, v, 0.0, rnd, flags);
}

/* Stochastic rounding (cvt.rs, PTX ISA 9.0 section 9.7.9.21) of the
 * exact value v: the nbits-wide random value rbits is added to the top
 * nbits of the bits the truncation discards, and a carry out rounds the
 * magnitude up, else it is truncated.  (For a normal f16/bf16 result
 * from f32, nbits is exactly the discarded width: 13 and 16.)  A value
 * beyond the format's largest binade overflows to inf, or +-max with
 * FP_SATFINITE; NaN gives the canonical NaN. */
uint64_t fp_round_rs(const FpFmt *f, double v, uint32_t rbits,
                     unsigned nbits, unsigned flags);

/* Exact decode of a narrow format to double. */
double fp_decode(const FpFmt *f, uint64_t bits);

/* Bit casts. */
static inline float fp_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint32_t fp_u32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline double fp_f64(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

static inline uint64_t fp_u64(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* Exact f16 and bf16 to f32 with integer operations (NaN payloads kept,
 * shifted into the f32 mantissa). */
static inline float fp_f16_to_f32(uint16_t h)
{
    uint32_t s = (uint32_t)(h & 0x8000u) << 16;
    uint32_t e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
    if (e == 0x1F) {
        return fp_f32(s | 0x7F800000u | (m << 13));
    }
    if (e == 0) {
        float v = (float)m * 0x1p-24f;
        return s ? -v : v;
    }
    return fp_f32(s | ((e + 112) << 23) | (m << 13));
}

static inline float fp_bf16_to_f32(uint16_t h)
{
    return fp_f32((uint32_t)h << 16);
}

static inline double fp_f16_to_d(uint16_t h)
{
    return fp_f16_to_f32(h);
}

static inline double fp_bf16_to_d(uint16_t h)
{
    return fp_bf16_to_f32(h);
}

/* Classification on raw bits. */
static inline bool fp_isnan32(uint32_t u)
{
    return (u & 0x7FFFFFFFu) > 0x7F800000u;
}

static inline bool fp_isnan64(uint64_t u)
{
    return (u & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull;
}

static inline bool fp_isnan16(uint16_t u)
{
    return (u & 0x7FFFu) > 0x7C00u;
}

static inline bool fp_isnanbf(uint16_t u)
{
    return (u & 0x7FFFu) > 0x7F80u;
}

/* Flush a subnormal to sign-preserving zero (f32, f64, f16 bits). */
static inline uint32_t fp_ftz32(uint32_t u)
{
    return (u & 0x7F800000u) ? u : (u & 0x80000000u);
}

static inline uint64_t fp_ftz64(uint64_t u)
{
    return (u & 0x7FF0000000000000ull) ? u : (u & 0x8000000000000000ull);
}

static inline uint16_t fp_ftz16(uint16_t u)
{
    return (u & 0x7C00u) ? u : (uint16_t)(u & 0x8000u);
}

static inline uint16_t fp_ftzbf(uint16_t u)
{
    return (u & 0x7F80u) ? u : (uint16_t)(u & 0x8000u);
}

/* TwoSum: s + e == a + b exactly (round-to-nearest host arithmetic). */
static inline double fp_two_sum(double a, double b, double *e)
{
    double s = a + b;
    double bb = s - a;
    *e = (a - (s - bb)) + (b - bb);
    return s;
}

/* Round-to-nearest-even of a double to f16 (eb 5, mb 10) or bf16 (eb 8,
 * mb 7) with integer operations; the same result as fp_round_d(). */
static inline uint16_t fp_d_to_h_rn(double v, unsigned eb, unsigned mb)
{
    uint64_t b = fp_u64(v);
    uint32_t s = (uint32_t)(b >> 48) & 0x8000u;
    uint64_t a = b & 0x7FFFFFFFFFFFFFFFull;
    const int bias = (1 << (eb - 1)) - 1;
    if (a > 0x7FF0000000000000ull) {
        return FP_NAN16;
    }
    int e = (int)(a >> 52) - 1023;
    if (e > bias) {
        return (uint16_t)(s | (((1u << eb) - 1) << mb));
    }
    int sh = 52 - (int)mb + (e >= 1 - bias ? 0 : 1 - bias - e);
    if (a == 0 || sh > 54) {
        return (uint16_t)s;
    }
    uint64_t m = (a & ((1ull << 52) - 1)) | (1ull << 52);
    uint64_t q = m >> sh, rem = m & ((1ull << sh) - 1);
    uint64_t half = 1ull << (sh - 1);
    q += rem > half || (rem == half && (q & 1));
    uint32_t r = (uint32_t)q;
    if (e >= 1 - bias) {
        r = ((uint32_t)(e + bias) << mb) + (uint32_t)(q - (1ull << mb));
    }
    return (uint16_t)(s | r);
}

/* Round a double to an integral value in direction EMU_RND_RNI..RPI
 * mapped to FP_RN/RZ/RM/RP.  Exact, no fenv. */
double fp_rint(double v, unsigned rnd);

#endif
