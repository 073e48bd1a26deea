/*
 * emu/intops.h: pure helpers for the integer, logic, compare and warp
 * handlers (ops_int.c, ops_warp.c).  Everything here is a static inline
 * function of its arguments only, so the handlers stay free of calls per
 * lane.  Semantics follow PTX ISA 9.0 chapter 9.7; each helper names the
 * instruction whose pseudo-code it implements.
 */
#ifndef PTXEMU_EMU_INTOPS_H
#define PTXEMU_EMU_INTOPS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* ---- bit counting (popc, clz, bfind, brev) ---- */

static inline uint32_t iop_clz32(uint32_t a)
{
    return a ? (uint32_t)__builtin_clz(a) : 32u;
}

static inline uint32_t iop_clz64(uint64_t a)
{
    return a ? (uint32_t)__builtin_clzll(a) : 64u;
}

/* bfind: position of the most significant 1 bit (unsigned) or of the most
 * significant bit that differs from the sign bit (signed); 0xffffffff when
 * there is none.  .shiftamt returns the left shift that moves that bit to
 * the top instead. */
static inline uint32_t iop_bfind(uint64_t a, unsigned bits, bool sgn,
                                 bool shiftamt)
{
    if (bits == 32) {
        a &= 0xffffffffu;
    }
    if (sgn && ((a >> (bits - 1)) & 1)) {
        a = ~a & (bits == 32 ? 0xffffffffull : ~0ull);
    }
    if (a == 0) {
        return 0xffffffffu;
    }
    uint32_t pos = 63u - (uint32_t)__builtin_clzll(a);
    return shiftamt ? bits - 1 - pos : pos;
}

static inline uint32_t iop_brev32(uint32_t a)
{
    a = ((a >> 1) & 0x55555555u) | ((a & 0x55555555u) << 1);
    a = ((a >> 2) & 0x33333333u) | ((a & 0x33333333u) << 2);
    a = ((a >> 4) & 0x0f0f0f0fu) | ((a & 0x0f0f0f0fu) << 4);
    return __builtin_bswap32(a);
}

static inline uint64_t iop_brev64(uint64_t a)
{
    return ((uint64_t)iop_brev32((uint32_t)a) << 32) |
           iop_brev32((uint32_t)(a >> 32));
}

/* ---- bit fields (bfe, bfi, fns, bmsk, szext) ---- */

/* bfe: len bits of a from pos (both & 0xff); bits past msb read the sign
 * bit a[min(pos+len-1, msb)] (signed, len != 0) or 0. */
static inline uint64_t iop_bfe(uint64_t a, uint32_t b, uint32_t c,
                               unsigned bits, bool sgn)
{
    unsigned msb = bits - 1;
    unsigned pos = b & 0xff, len = c & 0xff;
    uint64_t wmask = bits == 64 ? ~0ull : ((1ull << bits) - 1);
    a &= wmask;
    uint64_t sbit = 0;
    if (sgn && len != 0) {
        unsigned sp = pos + len - 1 < msb ? pos + len - 1 : msb;
        sbit = (a >> sp) & 1;
    }
    uint64_t field = pos <= msb ? a >> pos : 0;   /* bits pos..msb */
    unsigned avail = pos <= msb ? bits - pos : 0; /* how many exist */
    unsigned take = len < avail ? len : avail;
    uint64_t keep = take >= 64 ? ~0ull : ((1ull << take) - 1);
    uint64_t d = field & keep;
    if (sbit) {
        d |= ~keep;
    }
    return d & wmask;
}

/* bfi: b with len bits from pos replaced by the low bits of a. */
static inline uint64_t iop_bfi(uint64_t a, uint64_t b, uint32_t c,
                               uint32_t d, unsigned bits)
{
    unsigned pos = c & 0xff, len = d & 0xff;
    uint64_t wmask = bits == 64 ? ~0ull : ((1ull << bits) - 1);
    if (pos >= bits || len == 0) {
        return b & wmask;
    }
    unsigned take = len < bits - pos ? len : bits - pos;
    uint64_t m = (take >= 64 ? ~0ull : ((1ull << take) - 1)) << pos;
    return ((b & ~m) | ((a << pos) & m)) & wmask;
}

/* fns: position of the |offset|-th set bit of mask, searching from base
 * upwards (offset > 0) or downwards (offset < 0); offset 0 tests bit
 * base.  0xffffffff when not found.  A base past bit 31 finds nothing. */
static inline uint32_t iop_fns(uint32_t mask, uint32_t base, int32_t offset)
{
    if (base > 31) {
        return 0xffffffffu;
    }
    if (offset == 0) {
        return (mask >> base) & 1 ? base : 0xffffffffu;
    }
    int pos = (int)base;
    int inc = offset > 0 ? 1 : -1;
    uint32_t count = offset > 0 ? (uint32_t)offset - 1
                                : (uint32_t)(-(int64_t)offset) - 1;
    for (; pos >= 0 && pos < 32; pos += inc) {
        if ((mask >> pos) & 1) {
            if (count == 0) {
                return (uint32_t)pos;
            }
            count--;
        }
    }
    return 0xffffffffu;
}

/* bmsk (PTX ISA bmsk pseudo-code). */
static inline uint32_t iop_bmsk(uint32_t a, uint32_t b, bool clamp)
{
    uint32_t a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
    uint32_t mask0 = ~0u << a1;
    uint32_t mask1 = sum >= 32 ? 0 : ~0u << sum;
    bool ovf = sum >= 32;
    if (clamp) {
        if (a >= 32) {
            ovf = true;
            mask0 = 0;
        }
        if (b >= 32) {
            ovf = true;
        }
    }
    if (ovf) {
        mask1 = 0;
    } else if (b1 == 0) {
        mask1 = ~0u;
    }
    return mask0 & ~mask1;
}

/* szext (PTX ISA szext pseudo-code). */
static inline uint32_t iop_szext(uint32_t a, uint32_t b, bool clamp,
                                 bool sgn)
{
    uint32_t b1 = b & 0x1f;
    bool too_large = b >= 32 && clamp;
    uint32_t mask = too_large ? 0 : ~0u << b1;
    uint32_t sign_pos = (b1 - 1) & 0x1f;
    bool sign_bit = !(b1 == 0 || too_large || !sgn) &&
                    ((a >> sign_pos) & 1);
    return (a & ~mask) | (sign_bit ? mask : 0);
}

/* ---- prmt ---- */

enum {
    IOP_PRMT_DEFAULT, IOP_PRMT_F4E, IOP_PRMT_B4E, IOP_PRMT_RC8,
    IOP_PRMT_ECL, IOP_PRMT_ECR, IOP_PRMT_RC16, IOP_PRMT_NMODES
};

/* The byte each result byte takes, for the modes other than default,
 * indexed [mode][c & 3]: 4 nibbles, result byte 0 in the low nibble
 * (PTX ISA prmt, the table of modes). */
static const uint16_t iop_prmt_sel[IOP_PRMT_NMODES][4] = {
    [IOP_PRMT_F4E]  = { 0x3210, 0x4321, 0x5432, 0x6543 },
    [IOP_PRMT_B4E]  = { 0x5670, 0x6701, 0x7012, 0x0123 },
    [IOP_PRMT_RC8]  = { 0x0000, 0x1111, 0x2222, 0x3333 },
    [IOP_PRMT_ECL]  = { 0x3210, 0x3211, 0x3222, 0x3333 },
    [IOP_PRMT_ECR]  = { 0x0000, 0x1110, 0x2210, 0x3210 },
    [IOP_PRMT_RC16] = { 0x1010, 0x3232, 0x1010, 0x3232 },
};

static inline uint32_t iop_prmt(uint32_t a, uint32_t b, uint32_t c,
                                unsigned mode)
{
    uint64_t x = ((uint64_t)b << 32) | a;
    uint32_t d = 0;
    if (mode == IOP_PRMT_DEFAULT) {
        for (unsigned k = 0; k < 4; k++) {
            unsigned s = (c >> (4 * k)) & 0xf;
            uint32_t byte = (uint32_t)(x >> (8 * (s & 7))) & 0xff;
            if (s & 8) {
                byte = (byte & 0x80) ? 0xff : 0;
            }
            d |= byte << (8 * k);
        }
        return d;
    }
    unsigned sel = iop_prmt_sel[mode][c & 3];
    for (unsigned k = 0; k < 4; k++) {
        unsigned s = (sel >> (4 * k)) & 7;
        d |= ((uint32_t)(x >> (8 * s)) & 0xff) << (8 * k);
    }
    return d;
}

/* ---- lop3 ---- */

/* Bitwise LUT: bit k of lut is the result for (a,b,c) bits with
 * k = a << 2 | b << 1 | c (so a = 0xF0, b = 0xCC, c = 0xAA). */
static inline uint32_t iop_lop3(uint32_t a, uint32_t b, uint32_t c,
                                uint32_t lut)
{
    uint32_t r = 0;
    for (unsigned k = 0; k < 8; k++) {      /* branch-free: vectorises */
        uint32_t sel = 0u - ((lut >> k) & 1);
        r |= sel & ((k & 4) ? a : ~a) & ((k & 2) ? b : ~b) &
             ((k & 1) ? c : ~c);
    }
    return r;
}

/* The same with the LUT expanded once per instruction into eight
 * all-zeros/all-ones words m[k] (k = a << 2 | b << 1 | c): a mux tree. */
static inline void iop_lop3_masks(uint32_t lut, uint32_t m[8])
{
    for (unsigned k = 0; k < 8; k++) {
        m[k] = 0u - ((lut >> k) & 1);
    }
}

static inline uint32_t iop_lop3m(uint32_t a, uint32_t b, uint32_t c,
                                 const uint32_t m[8])
{
    uint32_t t0 = (m[0] & ~c) | (m[1] & c), t1 = (m[2] & ~c) | (m[3] & c);
    uint32_t t2 = (m[4] & ~c) | (m[5] & c), t3 = (m[6] & ~c) | (m[7] & c);
    uint32_t u0 = (t0 & ~b) | (t1 & b), u1 = (t2 & ~b) | (t3 & b);
    return (u0 & ~a) | (u1 & a);
}

/* ---- 128-bit products without __int128 in the interface ---- */

static inline uint64_t iop_mulhi_u64(uint64_t a, uint64_t b)
{
    return (uint64_t)(((unsigned __int128)a * b) >> 64);
}

static inline uint64_t iop_mulhi_s64(uint64_t a, uint64_t b)
{
    __int128 p = (__int128)(int64_t)a * (__int128)(int64_t)b;
    return (uint64_t)((unsigned __int128)p >> 64);
}

/* ---- floating-point views for compares ---- */

/* IEEE half to double, exactly. */
static inline double iop_h2d(uint32_t h)
{
    uint32_t s = (h >> 15) & 1, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v;
    if (e == 0) {
        v = (double)m * (1.0 / 16777216.0);          /* m * 2^-24 */
    } else if (e == 31) {
        v = m ? __builtin_nan("") : __builtin_inf();
    } else {
        v = (double)(m | 0x400) * __builtin_ldexp(1.0, (int)e - 25);
    }
    return s ? -v : v;
}

static inline double iop_h2d_ftz(uint32_t h)
{
    if ((h & 0x7c00) == 0) {
        h &= 0x8000;
    }
    return iop_h2d(h);
}

static inline double iop_bf2d(uint32_t h)
{
    uint32_t u = (h & 0xffff) << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline double iop_f2d(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline double iop_f2d_ftz(uint32_t u)
{
    if ((u & 0x7f800000u) == 0) {
        u &= 0x80000000u;
    }
    return iop_f2d(u);
}

static inline double iop_d2d(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

static inline double iop_d2d_ftz(uint64_t u)
{
    if ((u & 0x7ff0000000000000ull) == 0) {
        u &= 0x8000000000000000ull;
    }
    return iop_d2d(u);
}

/* A double rounded to nearest even into a small IEEE format with ebits
 * exponent and mbits mantissa bits (f16: 5/10, bf16: 8/7); NaN gives the
 * canonical quiet NaN.  Used at load time for float literals. */
static inline uint32_t iop_d2small(double v, int ebits, int mbits)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    uint32_t sign = (uint32_t)(u >> 63) << (ebits + mbits);
    int bias = (1 << (ebits - 1)) - 1;
    uint32_t emax = (1u << ebits) - 1;
    double a = __builtin_fabs(v);
    if (v != v) {
        return sign | emax << mbits | 1u << (mbits - 1);
    }
    if (a == 0) {
        return sign;
    }
    if (a > 1e300) {
        return sign | emax << mbits;
    }
    int e;
    (void)__builtin_frexp(a, &e);
    int E = e - 1;                       /* a in [2^E, 2^(E+1)) */
    bool sub = E < 1 - bias;
    double q = __builtin_ldexp(a, (sub ? bias - 1 : -E) + mbits);
    double r = __builtin_rint(q);        /* ties to even (default mode) */
    if (sub) {
        return sign | (uint32_t)r;       /* 2^mbits: smallest normal */
    }
    if (r >= __builtin_ldexp(1.0, mbits + 1)) {
        E++;
        r = __builtin_ldexp(r, -1);
    }
    if (E + bias >= (int)emax) {
        return sign | emax << mbits;
    }
    return sign | (uint32_t)(E + bias) << mbits |
           ((uint32_t)r - (1u << mbits));
}

static inline float iop_u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint32_t iop_f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

#endif
