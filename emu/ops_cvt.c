/*
 * emu/ops_cvt.c: cvt, cvt.pack and mov (PTX ISA 9.0 sections 9.7.9.3,
 * 9.7.9.21-9.7.9.22).
 *
 * Rationale: a conversion is "decode the source exactly" (an integer,
 * widened to 128 bits, or a double: every f16/bf16/f32/f64 value is
 * exact in double) followed by "encode for the destination" (integer
 * rounding with fp_rint and clamping, or one software rounding with
 * fp_round, emu/fp.h).  Handlers are split by the kind of the pair
 * (int->int, float->int, int->float, float->float, packed forms) so the
 * lane loops do not switch on types; the hot pairs (u32<->u64 and
 * s32->s64, s32/u32->f32 and f32<->f64 with .rn, f32->s32 with .rzi)
 * have their own loops.
 *
 * Semantics kept here:
 *  - float->int saturates to the destination range always; NaN gives 0.
 *  - int->int: the source is sign/zero extended per its type, then
 *    truncated to the destination (or clamped with .sat).
 *  - The relaxed size rule for the destination (PTX ISA 9.4.1): a
 *    signed integer result narrower than its register is sign-extended
 *    to the register's width (aux = register width in bits); all other
 *    results are zero-extended.
 *  - NaN: f32 results 0x7FFFFFFF, f16/bf16 0x7FFF, tf32 0x7FFFFFFF,
 *    e4m3/e5m2 0x7F, ue8m0 0xFF; the fp6/fp4 formats (e2m3, e3m2, e2m1)
 *    have no NaN and give +max; an f64 result keeps the (quieted)
 *    source NaN.
 *  - cvt.rs: the f16x2/bf16x2 forms and the x4 forms (d, {a, b, e, f},
 *    rbits; see cvt_rs_x4 for how rbits is shared out).
 *  - mov copies the value truncated to the type's width; it packs and
 *    unpacks brace vectors (elements of width type/n, element 0 in the
 *    low bits; '_' elements are skipped).  mov of a symbol's or a
 *    function's address belongs to ops_mem.c: the selector declines it.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>

#include "emu/emu.h"
#include "emu/fp.h"
#include "emu/ops.h"

typedef __int128 i128;

/* .satfinite, kept in a flag bit that emu.h leaves free (set by the
 * selector from the IR, so decode need not know it). */
#define EMU_F_SATFINITE_ (1u << 15)

#define LANE_SRC(k) (emu_src(x, &i->o[k], lane))

static uint64_t width_mask(unsigned bits)
{
    return bits >= 64 ? ~0ull : ((1ull << bits) - 1);
}

static unsigned rnd_float(unsigned r)
{
    switch (r) {
    case EMU_RND_RZ:
    case EMU_RND_RZI:
        return FP_RZ;
    case EMU_RND_RM:
    case EMU_RND_RMI:
        return FP_RM;
    case EMU_RND_RP:
    case EMU_RND_RPI:
        return FP_RP;
    case EMU_RND_RNA:
        return FP_RNA;
    default:
        return FP_RN;
    }
}

static bool rnd_integral(unsigned r)
{
    return r >= EMU_RND_RNI && r <= EMU_RND_RPI;
}

static const FpFmt *fmt_of(PtxType t)
{
    switch (t) {
    case PTX_T_F16:
    case PTX_T_F16X2:
        return &fp_fmt_f16;
    case PTX_T_BF16:
    case PTX_T_BF16X2:
        return &fp_fmt_bf16;
    case PTX_T_F32:
        return &fp_fmt_f32;
    case PTX_T_F64:
        return &fp_fmt_f64;
    case PTX_T_TF32:
        return &fp_fmt_tf32;
    case PTX_T_E4M3X2:
    case PTX_T_E4M3X4:
        return &fp_fmt_e4m3;
    case PTX_T_E5M2X2:
    case PTX_T_E5M2X4:
        return &fp_fmt_e5m2;
    case PTX_T_E2M1X2:
    case PTX_T_E2M1X4:
        return &fp_fmt_e2m1;
    case PTX_T_E2M3X2:
    case PTX_T_E2M3X4:
        return &fp_fmt_e2m3;
    case PTX_T_E3M2X2:
    case PTX_T_E3M2X4:
        return &fp_fmt_e3m2;
    default:
        return NULL;
    }
}

/* Width of one packed element of a pair type (e2m3x2/e3m2x2: 6-bit
 * values zero-padded to bytes, PTX ISA 9.7.9.21). */
static unsigned elem_width(PtxType t)
{
    switch (t) {
    case PTX_T_F16X2:
    case PTX_T_BF16X2:
        return 16;
    case PTX_T_E2M1X2:
    case PTX_T_E2M1X4:
        return 4;
    default:
        return 8;
    }
}

/* The sign bit of an element of format f. */
static uint64_t sign_bit(const FpFmt *f)
{
    return 1ull << (f->ebits + f->mbits);
}

/* Exact value of a float source. */
static double src_float(PtxType t, uint64_t bits, bool ftz)
{
    switch (t) {
    case PTX_T_F32: {
        uint32_t u = (uint32_t)bits;
        return fp_f32(ftz ? fp_ftz32(u) : u);
    }
    case PTX_T_F64:
        return fp_f64(bits);
    case PTX_T_F16:
        return fp_f16_to_d((uint16_t)bits);
    case PTX_T_BF16:
        return fp_bf16_to_d((uint16_t)bits);
    default:
        return NAN;
    }
}

static uint64_t one_of(PtxType t)
{
    switch (t) {
    case PTX_T_F16:
        return 0x3C00;
    case PTX_T_BF16:
        return 0x3F80;
    case PTX_T_F32:
        return 0x3F800000;
    default:
        return 0x3FF0000000000000ull;
    }
}

/* Encode v for float destination t (not f64 NaN handling). */
static uint64_t dst_float(PtxType t, double v, unsigned rnd, unsigned flags)
{
    const FpFmt *f = fmt_of(t);
    unsigned ff = 0;
    uint64_t r;
    if ((flags & EMU_F_FTZ) && t == PTX_T_F32) {
        ff |= FP_FTZ;
    }
    if (flags & EMU_F_SATFINITE_) {
        ff |= FP_SATFINITE;
    }
    if (t == PTX_T_F64) {
        r = fp_u64(v);
        if (fp_isnan64(r)) {
            r |= 0x0008000000000000ull;
        }
    } else {
        r = fp_round_d(f, v, rnd, ff);
    }
    unsigned bits = t == PTX_T_F64 ? 64 : t == PTX_T_F32 ? 32 : 16;
    uint64_t sign = 1ull << (bits - 1);
    bool nan = isnan(v);
    if ((flags & EMU_F_RELU) && !nan && (r & sign)) {
        r = 0;
    }
    if (flags & EMU_F_SAT) {
        if (nan || (r & sign)) {
            r = 0;
        } else if (fp_decode(f, r) > 1.0) {
            r = one_of(t);
        }
    }
    return r;
}

/* ---------------------------------------------------- integer helpers */

typedef struct IntInfo {
    unsigned bits;
    bool sgn;
} IntInfo;

static IntInfo int_info(PtxType t)
{
    IntInfo ii = { ptx_type_bits(t), ptx_type_kind(t) == PTX_TK_S };
    return ii;
}

static i128 int_value(IntInfo s, uint64_t bits)
{
    uint64_t v = bits & width_mask(s.bits);
    if (s.sgn && s.bits < 64 && (v >> (s.bits - 1)) & 1) {
        v |= ~width_mask(s.bits);
    }
    return s.sgn ? (i128)(int64_t)v : (i128)v;
}

static i128 int_min(IntInfo d)
{
    return d.sgn ? -((i128)1 << (d.bits - 1)) : 0;
}

static i128 int_max(IntInfo d)
{
    return d.sgn ? ((i128)1 << (d.bits - 1)) - 1
                 : ((i128)1 << d.bits) - 1;
}

/* Final destination bits: truncate to the type, then extend a signed
 * value to the register width (aux). */
static uint64_t int_store(IntInfo d, unsigned regbits, i128 v)
{
    uint64_t u = (uint64_t)v & width_mask(d.bits);
    if (d.sgn && regbits > d.bits && (u >> (d.bits - 1)) & 1) {
        u |= ~width_mask(d.bits);
    }
    return u & width_mask(regbits > d.bits ? regbits : d.bits);
}

/* ------------------------------------------------------------ handlers */

static void cvt_ii(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    IntInfo di = int_info((PtxType)i->type);
    IntInfo si = int_info((PtxType)i->type2);
    bool sat = (i->flags & EMU_F_SAT) != 0;
    i128 lo = int_min(di), hi = int_max(di);
    EMU_FOR_LANES(mask, lane) {
        i128 v = int_value(si, LANE_SRC(1));
        if (sat) {
            v = v < lo ? lo : v > hi ? hi : v;
        }
        d[lane] = int_store(di, i->aux, v);
    }
}

/* Without .sat an integer conversion is a bit function of the source:
 * extend it from the source width (sign or zero), keep the destination
 * width, and extend that to the register width (aux) when the
 * destination is signed: cvt_ii's bits without its per-lane 128-bit
 * arithmetic.  Extending from b bits is ((v & mask) ^ s) - s with s the
 * sign bit of b bits for a signed extension and 0 for a zero one:
 * branch-free, so the full-warp loop vectorises. */
static inline uint64_t ext_bits(uint64_t v, uint64_t m, uint64_t s)
{
    return ((v & m) ^ s) - s;
}

static void cvt_ii_wrap(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    IntInfo di = int_info((PtxType)i->type);
    IntInfo si = int_info((PtxType)i->type2);
    uint64_t sm = width_mask(si.bits), dm = width_mask(di.bits);
    uint64_t ssg = si.sgn ? 1ull << (si.bits - 1) : 0;
    uint64_t dsg = di.sgn && i->aux > di.bits ? 1ull << (di.bits - 1) : 0;
    uint64_t keep = width_mask(i->aux > di.bits ? i->aux : di.bits);
    if (mask == 0xffffffffu && i->o[1].kind == EO_REG) {
        const uint64_t *a = emu_slot(x, i->o[1].reg);
        /* slots are disjoint 32-entry arrays: d is a or overlaps none */
        EMU_IVDEP
        for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++) {
            d[lane] = ext_bits(ext_bits(a[lane], sm, ssg), dm, dsg) & keep;
        }
        return;
    }
    EMU_FOR_LANES(mask, lane) {
        d[lane] = ext_bits(ext_bits(LANE_SRC(1), sm, ssg), dm, dsg) & keep;
    }
}

static void cvt_u64_u32(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    EMU_FOR_LANES(mask, lane) {
        d[lane] = (uint32_t)LANE_SRC(1);
    }
}

static void cvt_s64_s32(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    EMU_FOR_LANES(mask, lane) {
        d[lane] = (uint64_t)(int64_t)(int32_t)(uint32_t)LANE_SRC(1);
    }
}

static void cvt_fi(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    IntInfo di = int_info((PtxType)i->type);
    PtxType st = (PtxType)i->type2;
    bool ftz = (i->flags & EMU_F_FTZ) != 0;
    unsigned rnd = rnd_float(i->rnd == EMU_RND_NONE ? EMU_RND_RZI : i->rnd);
    i128 lo = int_min(di), hi = int_max(di);
    double dlo = (double)lo, dhi = ldexp(1.0, di.sgn ? (int)di.bits - 1
                                                     : (int)di.bits);
    EMU_FOR_LANES(mask, lane) {
        double v = src_float(st, LANE_SRC(1), ftz);
        i128 r;
        if (isnan(v)) {
            r = 0;
        } else {
            v = fp_rint(v, rnd);
            if (v < dlo) {
                r = lo;
            } else if (v >= dhi) {
                r = hi;
            } else {
                r = (i128)v;
            }
        }
        d[lane] = int_store(di, i->aux, r);
    }
}

/* cvt.rzi.s32.f32 (C's (int)f): truncation, saturating, NaN -> 0. */
static void cvt_rzi_s32_f32(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    EMU_FOR_LANES(mask, lane) {
        float v = fp_f32((uint32_t)LANE_SRC(1));
        int32_t r;
        if (v != v) {
            r = 0;
        } else if (v >= 2147483648.0f) {
            r = INT32_MAX;
        } else if (v <= -2147483648.0f) {
            r = INT32_MIN;
        } else {
            r = (int32_t)v;
        }
        d[lane] = (uint32_t)r;
    }
}

static void cvt_if(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    PtxType dt = (PtxType)i->type;
    IntInfo si = int_info((PtxType)i->type2);
    const FpFmt *f = fmt_of(dt);
    unsigned rnd = rnd_float(i->rnd);
    bool sat = (i->flags & EMU_F_SAT) != 0;
    EMU_FOR_LANES(mask, lane) {
        i128 v = int_value(si, LANE_SRC(1));
        bool neg = v < 0;
        uint64_t mag = (uint64_t)(neg ? -v : v);
        uint64_t r = fp_round(f, neg, mag, 0, false, rnd, 0);
        if (sat) {
            r = neg ? 0 : (mag >= 1 ? one_of(dt) : r);
        }
        d[lane] = r;
    }
}

static void cvt_rn_f32_s32(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    EMU_FOR_LANES(mask, lane) {
        d[lane] = fp_u32((float)(int32_t)(uint32_t)LANE_SRC(1));
    }
}

static void cvt_rn_f32_u32(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    EMU_FOR_LANES(mask, lane) {
        d[lane] = fp_u32((float)(uint32_t)LANE_SRC(1));
    }
}

static void cvt_ff(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    PtxType dt = (PtxType)i->type, st = (PtxType)i->type2;
    bool ftz = (i->flags & EMU_F_FTZ) != 0;
    bool integral = rnd_integral(i->rnd);
    unsigned rnd = rnd_float(i->rnd);
    unsigned flags = i->flags;
    EMU_FOR_LANES(mask, lane) {
        uint64_t s = LANE_SRC(1);
        double v = src_float(st, s, ftz);
        if (integral) {
            v = fp_rint(v, rnd);
        }
        uint64_t r;
        if (dt == PTX_T_F64 && st == PTX_T_F64 && isnan(v)) {
            r = s | 0x0008000000000000ull;
        } else {
            r = dst_float(dt, v, integral ? FP_RN : rnd, flags);
        }
        d[lane] = r;
    }
}

static void cvt_f64_f32(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    EMU_FOR_LANES(mask, lane) {
        double v = fp_f32((uint32_t)LANE_SRC(1));
        uint64_t r = fp_u64(v);
        d[lane] = fp_isnan64(r) ? r | 0x0008000000000000ull : r;
    }
}

static void cvt_rn_f32_f64(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    EMU_FOR_LANES(mask, lane) {
        float v = (float)fp_f64(LANE_SRC(1));
        d[lane] = v != v ? FP_NAN32 : fp_u32(v);
    }
}

/* d = cvt(a) << w | cvt(b): f16x2/bf16x2 and the fp8/fp6/fp4 pairs from
 * two f32. */
static void cvt_pair_f32(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    PtxType dt = (PtxType)i->type;
    const FpFmt *f = fmt_of(dt);
    unsigned w = elem_width(dt);
    unsigned rnd = rnd_float(i->rnd);
    unsigned ff = (i->flags & EMU_F_SATFINITE_) ? FP_SATFINITE : 0;
    bool relu = (i->flags & EMU_F_RELU) != 0;
    uint64_t sign = sign_bit(f);
    EMU_FOR_LANES(mask, lane) {
        uint64_t a = LANE_SRC(1), b = LANE_SRC(2);
        uint64_t ra = fp_round_d(f, fp_f32((uint32_t)a), rnd, ff);
        uint64_t rb = fp_round_d(f, fp_f32((uint32_t)b), rnd, ff);
        if (relu) {
            if (!fp_isnan32((uint32_t)a) && (ra & sign)) {
                ra = 0;
            }
            if (!fp_isnan32((uint32_t)b) && (rb & sign)) {
                rb = 0;
            }
        }
        d[lane] = (ra << w) | rb;
    }
}

/* cvt.rs{.relu}{.satfinite}.f16x2/bf16x2.f32 d, a, b, rbits (PTX ISA
 * 9.7.9.21): stochastic rounding; a takes its random bits from the
 * upper half of rbits, b from the lower (f16: the 13 low bits of each
 * half, bf16: all 16). */
static void cvt_rs_pair(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    bool bf = i->type == PTX_T_BF16X2;
    const FpFmt *f = bf ? &fp_fmt_bf16 : &fp_fmt_f16;
    unsigned nb = bf ? 16 : 13;
    uint32_t rm = (1u << nb) - 1;
    unsigned ff = (i->flags & EMU_F_SATFINITE_) ? FP_SATFINITE : 0;
    bool relu = (i->flags & EMU_F_RELU) != 0;
    EMU_FOR_LANES(mask, lane) {
        uint32_t a = (uint32_t)LANE_SRC(1), b = (uint32_t)LANE_SRC(2);
        uint32_t rbits = (uint32_t)LANE_SRC(3);
        uint64_t ra = fp_round_rs(f, fp_f32(a), (rbits >> 16) & rm, nb, ff);
        uint64_t rb = fp_round_rs(f, fp_f32(b), rbits & rm, nb, ff);
        if (relu && !fp_isnan32(a) && (ra & 0x8000)) {
            ra = 0;
        }
        if (relu && !fp_isnan32(b) && (rb & 0x8000)) {
            rb = 0;
        }
        d[lane] = (ra << 16) | rb;
    }
}

/* cvt.rs{.relu}.satfinite.{e4m3,e5m2,e2m3,e3m2,e2m1}x4.f32 d,
 * {a, b, e, f}, rbits (PTX ISA 9.0 section 9.7.9.21): a lands in the
 * top element of d, f in the bottom one.  The ISA's text on rbits: for
 * the 8-bit-wide forms "lower 16-bits are used for operands e, f and
 * upper 16 bits are used for operands a, b" (so a and b share one
 * 16-bit value, e and f the other); for e2m1x4 "lower 8-bits from both
 * 16-bits half of rbits are used for operands e, f and upper 8-bits
 * from both 16-bits half of rbits are used for operands a, b", read
 * here as a: bits 31:24, b: 15:8, e: 23:16, f: 7:0.  Each value is
 * added to the top of the element's discarded bits (fp_round_rs). */
static const uint8_t rs_x4_shift[2][4] = {
    { 16, 16, 0, 0 },                 /* 8-bit elements, 16 random bits */
    { 24, 8, 16, 0 },                 /* e2m1, 8 random bits */
};

static void cvt_rs_x4(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    PtxType dt = (PtxType)i->type;
    const FpFmt *f = fmt_of(dt);
    unsigned w = elem_width(dt), fp4 = w == 4, nb = fp4 ? 8 : 16;
    uint32_t rm = (1u << nb) - 1;
    const uint32_t *vs = &x->func->vslots[i->o[1].reg];
    bool relu = (i->flags & EMU_F_RELU) != 0;
    uint64_t sign = sign_bit(f);
    EMU_FOR_LANES(mask, lane) {
        uint32_t rbits = (uint32_t)LANE_SRC(2);
        uint64_t r = 0;
        for (unsigned k = 0; k < 4; k++) {
            uint32_t v = vs[k] == EMU_NOREG ? 0 : (uint32_t)
                x->regs[(size_t)vs[k] * EMU_WARP_SIZE + lane];
            uint32_t rb = (rbits >> rs_x4_shift[fp4][k]) & rm;
            uint64_t e = fp_round_rs(f, fp_f32(v), rb, nb, FP_SATFINITE);
            if (relu && !fp_isnan32(v) && (e & sign)) {
                e = 0;
            }
            r |= e << (w * (3 - k));
        }
        d[lane] = r;
    }
}

/* fp8/fp6/fp4 pairs from f16x2 or bf16x2 (one source, always
 * .satfinite): the upper half of a goes to the upper element. */
static void cvt_narrow_x2(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    PtxType dt = (PtxType)i->type;
    const FpFmt *f = fmt_of(dt);
    bool bf = i->type2 == PTX_T_BF16X2;
    unsigned w = elem_width(dt), rnd = rnd_float(i->rnd);
    bool relu = (i->flags & EMU_F_RELU) != 0;
    uint64_t sign = sign_bit(f);
    EMU_FOR_LANES(mask, lane) {
        uint32_t a = (uint32_t)LANE_SRC(1);
        uint64_t r = 0;
        for (unsigned k = 0; k < 2; k++) {
            uint16_t h = (uint16_t)(a >> (16 * k));
            double v = bf ? fp_bf16_to_d(h) : fp_f16_to_d(h);
            uint64_t e = fp_round_d(f, v, rnd, FP_SATFINITE);
            if (relu && !isnan(v) && (e & sign)) {
                e = 0;
            }
            r |= e << (w * k);
        }
        d[lane] = r;
    }
}

/* f16x2 from an fp8/fp6/fp4 pair (exact): the upper element goes to
 * the upper half. */
static void cvt_f16x2_narrow(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    const FpFmt *f = fmt_of((PtxType)i->type2);
    unsigned w = elem_width((PtxType)i->type2);
    uint64_t em = (sign_bit(f) << 1) - 1;
    bool relu = (i->flags & EMU_F_RELU) != 0;
    EMU_FOR_LANES(mask, lane) {
        uint32_t a = (uint32_t)LANE_SRC(1);
        uint64_t r = 0;
        for (unsigned k = 0; k < 2; k++) {
            double v = fp_decode(f, (a >> (w * k)) & em);
            uint64_t h = fp_round_d(&fp_fmt_f16, v, FP_RN, 0);
            if (relu && !isnan(v) && (h & 0x8000)) {
                h = 0;
            }
            r |= h << (16 * k);
        }
        d[lane] = r;
    }
}

/* ue8m0 (an unsigned power of two 2^(e-127), 0xFF NaN) from the bits of
 * an f32 (mbits 23) or bf16 (mbits 7), with .rz or .rp and optional
 * .satfinite.  The sign is ignored; .rp rounds up a magnitude above
 * 2^-127 with a nonzero mantissa; .satfinite turns a non-NaN overflow
 * into 0xFE (PTX ISA 9.7.9.21; CUDA 13's cuda_fp8.hpp host conversion
 * agrees). */
static uint64_t ue8m0_of(uint32_t bits, unsigned mbits, bool rp, bool sat)
{
    uint32_t a = bits & ((1u << (mbits + 8)) - 1);
    uint32_t inf = 0xFFu << mbits, mant = (1u << mbits) - 1;
    uint32_t e = a >> mbits;
    if (rp && (a & mant) && a > (1u << (mbits - 1)) && a < inf) {
        e++;
    }
    if (sat && a <= inf && e == 0xFF) {
        e = 0xFE;
    }
    return e;
}

/* cvt.{rz,rp}{.satfinite}.ue8m0x2.f32 d, a, b and .ue8m0x2.bf16x2 d, a */
static void cvt_ue8m0x2(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    bool rp = i->rnd == EMU_RND_RP;
    bool sat = (i->flags & EMU_F_SATFINITE_) != 0;
    bool bf = i->type2 == PTX_T_BF16X2;
    EMU_FOR_LANES(mask, lane) {
        uint64_t a = LANE_SRC(1), hi, lo;
        if (bf) {
            hi = ue8m0_of((uint32_t)(a >> 16) & 0xFFFF, 7, rp, sat);
            lo = ue8m0_of((uint32_t)a & 0xFFFF, 7, rp, sat);
        } else {
            hi = ue8m0_of((uint32_t)a, 23, rp, sat);
            lo = ue8m0_of((uint32_t)LANE_SRC(2), 23, rp, sat);
        }
        d[lane] = (hi << 8) | lo;
    }
}

/* cvt.rn.bf16x2.ue8m0x2 d, a: exact; 0xFF is NaN, 0 is 2^-127 (a bf16
 * subnormal). */
static void cvt_bf16x2_ue8m0x2(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    EMU_FOR_LANES(mask, lane) {
        uint32_t a = (uint32_t)LANE_SRC(1);
        uint64_t r = 0;
        for (unsigned k = 0; k < 2; k++) {
            uint32_t e = (a >> (8 * k)) & 0xFF;
            uint64_t h = e == 0xFF ? FP_NAN16 : e == 0 ? 0x0040 : e << 7;
            r |= h << (16 * k);
        }
        d[lane] = r;
    }
}

static void cvt_tf32(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    unsigned rnd = rnd_float(i->rnd);
    unsigned ff = (i->flags & EMU_F_SATFINITE_) ? FP_SATFINITE : 0;
    EMU_FOR_LANES(mask, lane) {
        d[lane] = fp_round_d(&fp_fmt_tf32, fp_f32((uint32_t)LANE_SRC(1)),
                             rnd, ff);
    }
}

/* cvt.pack.sat.T.s32[.b32] d, a, b[, c]; aux = width of T. */
static void cvt_pack(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    IntInfo di = { i->aux & 0xFF, (i->aux >> 8) != 0 };
    i128 lo = int_min(di), hi = int_max(di);
    uint64_t m = width_mask(di.bits);
    bool has_c = i->nopnd > 3 && i->o[3].kind != EO_NONE;
    EMU_FOR_LANES(mask, lane) {
        i128 a = (int32_t)(uint32_t)LANE_SRC(1);
        i128 b = (int32_t)(uint32_t)LANE_SRC(2);
        a = a < lo ? lo : a > hi ? hi : a;
        b = b < lo ? lo : b > hi ? hi : b;
        uint64_t r = ((uint64_t)b & m) | (((uint64_t)a & m) << di.bits);
        if (has_c && di.bits < 16) {
            r |= LANE_SRC(3) << (2 * di.bits);
        }
        d[lane] = r & 0xFFFFFFFFu;
    }
}

/* ----------------------------------------------------------------- mov */

/* The operand kind is tested once per instruction, not per lane: a
 * register or an immediate source (nearly every mov) then takes a plain
 * loop, counted for a full warp. */
static void mov_scalar(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    uint64_t m = width_mask(i->aux);
    const EmuOpnd *s = &i->o[1];
    if (s->kind == EO_REG) {
        const uint64_t *a = emu_slot(x, s->reg);
        if (mask == 0xffffffffu) {
            for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++) {
                d[lane] = a[lane] & m;
            }
            return;
        }
        EMU_FOR_LANES(mask, lane) {
            d[lane] = a[lane] & m;
        }
        return;
    }
    if (s->kind == EO_IMM) {
        uint64_t v = s->imm & m;
        if (mask == 0xffffffffu) {
            for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++) {
                d[lane] = v;
            }
            return;
        }
        EMU_FOR_LANES(mask, lane) {
            d[lane] = v;
        }
        return;
    }
    EMU_FOR_LANES(mask, lane) {
        d[lane] = LANE_SRC(1) & m;
    }
}

/* mov.bN d, {e0, e1, ...}: element 0 in the low bits. */
static void mov_pack(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    const uint32_t *vs = &x->func->vslots[i->o[1].reg];
    unsigned n = i->o[1].n, w = i->aux / n;
    uint64_t m = width_mask(w);
    EMU_FOR_LANES(mask, lane) {
        uint64_t r = 0;
        for (unsigned k = 0; k < n; k++) {
            if (vs[k] != EMU_NOREG) {
                r |= (x->regs[(size_t)vs[k] * EMU_WARP_SIZE + lane] & m)
                     << (w * k);
            }
        }
        d[lane] = r;
    }
}

/* mov.bN {e0, e1, ...}, a: reads a for all lanes, then writes. */
static void mov_unpack(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    const uint32_t *vs = &x->func->vslots[i->o[0].reg];
    unsigned n = i->o[0].n, w = i->aux / n;
    uint64_t m = width_mask(w);
    uint64_t src[EMU_WARP_SIZE];
    EMU_FOR_LANES(mask, lane) {
        src[lane] = LANE_SRC(1);
    }
    for (unsigned k = 0; k < n; k++) {
        if (vs[k] == EMU_NOREG) {
            continue;
        }
        uint64_t *d = emu_slot(x, vs[k]);
        EMU_FOR_LANES(mask, lane) {
            d[lane] = (src[lane] >> (w * k)) & m;
        }
    }
}

/* ------------------------------------------------------------ selector */

static bool is_int(PtxType t)
{
    PtxTypeKind k = ptx_type_kind(t);
    return k == PTX_TK_U || k == PTX_TK_S || k == PTX_TK_B;
}

static bool is_scalar_float(PtxType t)
{
    return t == PTX_T_F16 || t == PTX_T_BF16 || t == PTX_T_F32 ||
           t == PTX_T_F64;
}

/* The fp8/fp6/fp4 pair types. */
static bool narrow(PtxType t)
{
    return t == PTX_T_E4M3X2 || t == PTX_T_E5M2X2 || t == PTX_T_E2M1X2 ||
           t == PTX_T_E2M3X2 || t == PTX_T_E3M2X2;
}

static bool narrow_x4(PtxType t)
{
    return t == PTX_T_E4M3X4 || t == PTX_T_E5M2X4 || t == PTX_T_E2M1X4 ||
           t == PTX_T_E2M3X4 || t == PTX_T_E3M2X4;
}

static unsigned reg_bits(const IrFunc *f, const IrOperand *o)
{
    if (o->kind == IR_O_REG && o->id >= 0 && (uint32_t)o->id < f->nregs) {
        return ptx_type_bits(f->regs[o->id].type);
    }
    return 0;
}

static bool select_mov(const IrFunc *f, const IrInsn *in, EmuInsn *ei)
{
    if (in->nopnds < 2) {
        return true;
    }
    unsigned sk = in->opnds[1].kind;
    if (sk == IR_O_SYM || sk == IR_O_FUNC) {
        return false;                 /* address of a variable: ops_mem.c */
    }
    (void)f;
    unsigned bits = ptx_type_bits((PtxType)ei->type);
    if (bits == 0 || bits > 64) {
        return true;                  /* .b128: not yet */
    }
    ei->aux = (uint16_t)bits;
    if (ei->o[0].kind == EO_VEC && ei->o[1].kind != EO_VEC &&
        ei->o[0].n && bits % ei->o[0].n == 0) {
        ei->fn = mov_unpack;
    } else if (ei->o[1].kind == EO_VEC && ei->o[0].kind == EO_REG &&
               ei->o[1].n && bits % ei->o[1].n == 0) {
        ei->fn = mov_pack;
    } else if (ei->o[0].kind == EO_REG) {
        ei->fn = mov_scalar;
    }
    return true;
}

static void select_cvt(const IrFunc *f, const IrInsn *in, EmuInsn *ei)
{
    PtxType dt = (PtxType)ei->type, st = (PtxType)ei->type2;
    unsigned rnd = ei->rnd;
    if (ei->o[0].kind != EO_REG) {
        return;
    }
    if (rnd == EMU_RND_RS) {
        /* f16x2/bf16x2 d, a, b, rbits; the x4 forms d, {a, b, e, f},
         * rbits (always .satfinite) */
        if ((dt == PTX_T_F16X2 || dt == PTX_T_BF16X2) && st == PTX_T_F32 &&
            ei->nopnd == 4 && ei->o[1].kind != EO_VEC) {
            ei->fn = cvt_rs_pair;
        } else if (narrow_x4(dt) && st == PTX_T_F32 && ei->nopnd == 3 &&
                   ei->o[1].kind == EO_VEC && ei->o[1].n == 4 &&
                   ei->o[2].kind != EO_VEC &&
                   (ei->flags & EMU_F_SATFINITE_)) {
            ei->fn = cvt_rs_x4;
        }
        return;
    }
    if (is_int(dt) && is_int(st)) {
        unsigned rb = reg_bits(f, &in->opnds[0]);
        ei->aux = (uint16_t)(rb ? rb : ptx_type_bits(dt));
        if (rnd != EMU_RND_NONE) {
            return;
        }
        bool plain = !(ei->flags & EMU_F_SAT) && ei->aux == 64;
        if (plain && dt == PTX_T_U64 && st == PTX_T_U32) {
            ei->fn = cvt_u64_u32;
        } else if (plain && dt == PTX_T_S64 && st == PTX_T_S32) {
            ei->fn = cvt_s64_s32;
        } else if (!(ei->flags & EMU_F_SAT)) {
            ei->fn = cvt_ii_wrap;
        } else {
            ei->fn = cvt_ii;
        }
    } else if (is_int(dt) && is_scalar_float(st)) {
        unsigned rb = reg_bits(f, &in->opnds[0]);
        ei->aux = (uint16_t)(rb ? rb : ptx_type_bits(dt));
        if (rnd != EMU_RND_NONE && !rnd_integral(rnd)) {
            return;
        }
        ei->fn = cvt_fi;
        if (rnd == EMU_RND_RZI && dt == PTX_T_S32 && st == PTX_T_F32 &&
            ei->aux == 32 && !(ei->flags & EMU_F_FTZ)) {
            ei->fn = cvt_rzi_s32_f32;
        }
    } else if (is_scalar_float(dt) && is_int(st)) {
        if (rnd_integral(rnd) || rnd == EMU_RND_RNA) {
            return;
        }
        bool rn = rnd == EMU_RND_NONE || rnd == EMU_RND_RN;
        bool plain = rn && !(ei->flags & EMU_F_SAT);
        if (plain && dt == PTX_T_F32 && st == PTX_T_S32) {
            ei->fn = cvt_rn_f32_s32;
        } else if (plain && dt == PTX_T_F32 && st == PTX_T_U32) {
            ei->fn = cvt_rn_f32_u32;
        } else {
            ei->fn = cvt_if;
        }
    } else if (is_scalar_float(dt) && is_scalar_float(st)) {
        if (rnd == EMU_RND_RNA) {
            return;
        }
        bool extra = (ei->flags & (EMU_F_SAT | EMU_F_FTZ | EMU_F_RELU |
                                   EMU_F_SATFINITE_)) != 0;
        bool rn = rnd == EMU_RND_NONE || rnd == EMU_RND_RN;
        if (!extra && rnd == EMU_RND_NONE && dt == PTX_T_F64 &&
            st == PTX_T_F32) {
            ei->fn = cvt_f64_f32;
        } else if (!extra && rn && dt == PTX_T_F32 && st == PTX_T_F64) {
            ei->fn = cvt_rn_f32_f64;
        } else {
            ei->fn = cvt_ff;
        }
    } else if ((dt == PTX_T_F16X2 || dt == PTX_T_BF16X2 || narrow(dt)) &&
               st == PTX_T_F32) {
        if (ei->nopnd < 3 || ei->o[2].kind == EO_NONE ||
            rnd_integral(rnd) || rnd == EMU_RND_RNA) {
            return;
        }
        ei->fn = cvt_pair_f32;
    } else if (narrow(dt) && (st == PTX_T_F16X2 || st == PTX_T_BF16X2)) {
        ei->fn = cvt_narrow_x2;
    } else if (dt == PTX_T_F16X2 && narrow(st)) {
        ei->fn = cvt_f16x2_narrow;
    } else if (dt == PTX_T_UE8M0X2 &&
               (st == PTX_T_F32 || st == PTX_T_BF16X2)) {
        if (rnd != EMU_RND_RZ && rnd != EMU_RND_RP) {
            return;
        }
        if (st == PTX_T_F32 && (ei->nopnd < 3 || ei->o[2].kind == EO_NONE)) {
            return;
        }
        ei->fn = cvt_ue8m0x2;
    } else if (dt == PTX_T_BF16X2 && st == PTX_T_UE8M0X2) {
        ei->fn = cvt_bf16x2_ue8m0x2;
    } else if (dt == PTX_T_TF32 && st == PTX_T_F32) {
        if (rnd_integral(rnd)) {
            return;
        }
        ei->fn = cvt_tf32;
    }
}

EMU_SELECTOR(cvt)
{
    (void)m;
    ei->fn = NULL;
    switch (ei->op) {
    case PTX_OP_MOV:
        return select_mov(f, in, ei);
    case PTX_OP_CVT:
        if (ir_insn_mod(in, PTX_MG_SATFINITE) != PTX_M_NONE) {
            ei->flags |= EMU_F_SATFINITE_;
        }
        select_cvt(f, in, ei);
        return true;
    case PTX_OP_CVT_PACK: {
        unsigned bits = 0;
        PtxType t = (PtxType)ei->type;
        bool sgn = t == PTX_T_S2 || t == PTX_T_S4 || t == PTX_T_S8 ||
                   t == PTX_T_S16;
        switch (t) {
        case PTX_T_U2: case PTX_T_S2: bits = 2; break;
        case PTX_T_U4: case PTX_T_S4: bits = 4; break;
        case PTX_T_U8: case PTX_T_S8: bits = 8; break;
        case PTX_T_U16: case PTX_T_S16: bits = 16; break;
        default: return true;
        }
        ei->aux = (uint16_t)(bits | (unsigned)sgn << 8);
        if (ei->o[0].kind == EO_REG &&
            ir_insn_mod(in, PTX_MG_SAT) != PTX_M_NONE &&
            ei->type2 == PTX_T_S32) {
            ei->fn = cvt_pack;
        }
        return true;
    }
    default:
        return false;
    }
}
