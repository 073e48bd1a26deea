/*
 * emu/ops_fp.c: floating-point arithmetic and math functions for f16,
 * f16x2, bf16, bf16x2, f32 and f64 (PTX ISA 9.0 sections 9.7.3-9.7.4).
 *
 * Rationale:
 *  - One handler per (opcode, type); the common .rn f32/f64 forms with no
 *    .ftz/.sat get their own tight handlers that use host arithmetic
 *    (round-to-nearest, never fesetround).  Everything else goes through
 *    one worker per type family that forms the exact result in double
 *    and rounds it once with fp_round_hilo() (emu/fp.h), so .rz/.rm/.rp,
 *    .ftz, .sat and .relu are bit-exact without touching the host's
 *    rounding mode.  Only f64 with a directed rounding mode switches the
 *    host mode (fesetround), once per instruction, not per lane.
 *  - NaN results: f32 results are the canonical NaN 0x7FFFFFFF, f16 and
 *    bf16 0x7FFF.  f64 results propagate the first NaN operand (quieted),
 *    else 0xFFF8000000000000 (CUDART_NAN); this is a documented choice.
 *  - Approximate functions (.approx) are computed in double and rounded
 *    to the destination: well within the ISA's error bounds.
 *  - Register values are zero-extended in their 64-bit slots: sources are
 *    truncated to the type's width, results written zero-extended.
 *    Every handler is lane-local, so reading a lane's sources and then
 *    writing its destination is safe when d aliases a source.
 */
#include "config.h"

#include <fenv.h>
#include <math.h>

#include "emu/emu.h"
#include "emu/fp.h"
#include "emu/ops.h"

#define FP_DNAN64 0xFFF8000000000000ull

/* Operation codes of the shared workers. */
enum {
    K_ADD, K_SUB, K_MUL, K_FMA, K_DIV, K_RCP, K_SQRT, K_RSQRT, K_SIN,
    K_COS, K_LG2, K_EX2, K_TANH, K_MIN, K_MAX, K_ABS, K_NEG, K_COPYSIGN,
    K_DIV_APPROX
};

static unsigned rnd_of(const EmuInsn *i)
{
    switch (i->rnd) {
    case EMU_RND_RZ:
        return FP_RZ;
    case EMU_RND_RM:
        return FP_RM;
    case EMU_RND_RP:
        return FP_RP;
    default:
        return FP_RN;
    }
}

/* Exact value of a OP b [OP c] as hi + lo (only lo's sign is used). */
static double exact_op(unsigned op, double a, double b, double c,
                       double *lo)
{
    double r;
    *lo = 0.0;
    switch (op) {
    case K_ADD:
        return fp_two_sum(a, b, lo);
    case K_SUB:
        return fp_two_sum(a, -b, lo);
    case K_MUL:
        return a * b;                  /* exact: <= 2 x 24 bits */
    case K_FMA:
        return fp_two_sum(a * b, c, lo);
    case K_RCP:
        a = 1.0;
        b = c;
        /* fall through */
    case K_DIV:
        r = a / b;
        if (isfinite(r) && r != 0.0) {
            double rem = fma(-r, b, a);
            if (rem != 0.0) {
                *lo = ((rem < 0) != (b < 0)) ? -1.0 : 1.0;
            }
        }
        return r;
    case K_SQRT:
        r = sqrt(a);
        if (isfinite(r) && r != 0.0) {
            double rem = fma(-r, r, a);
            if (rem != 0.0) {
                *lo = rem < 0 ? -1.0 : 1.0;
            }
        }
        return r;
    case K_RSQRT:
        return 1.0 / sqrt(a);
    case K_SIN:
        return sin(a);
    case K_COS:
        return cos(a);
    case K_LG2:
        return log2(a);
    case K_EX2:
        return exp2(a);
    case K_TANH:
        return tanh(a);
    default:
        return NAN;
    }
}

/* An exact zero sum takes the common sign of the addends, else +0
 * (-0 when rounding toward -inf), IEEE 754 6.3. */
static double zero_sign(unsigned op, double a, double b, double c,
                        unsigned rnd, double hi, double lo)
{
    double x1, x2;
    if (hi != 0.0 || lo != 0.0) {
        return hi;
    }
    switch (op) {
    case K_ADD:
        x1 = a;
        x2 = b;
        break;
    case K_SUB:
        x1 = a;
        x2 = -b;
        break;
    case K_FMA:
        x1 = a * b;
        x2 = c;
        break;
    default:
        return hi;
    }
    if (isnan(x1) || isnan(x2)) {
        return hi;
    }
    if (signbit(x1) == signbit(x2)) {
        return copysign(0.0, x1);
    }
    return rnd == FP_RM ? -0.0 : 0.0;
}

/* ------------------------------------------------------------- f32 */

static uint32_t f32_sat(uint32_t r)
{
    if (fp_isnan32(r) || (r & 0x80000000u)) {
        return 0;
    }
    return r > 0x3F800000u ? 0x3F800000u : r;
}

static uint32_t f32_minmax(uint32_t a, uint32_t b, bool is_max,
                           unsigned flags, bool xorsign)
{
    uint32_t sign = 0;
    if (flags & EMU_F_FTZ) {
        a = fp_ftz32(a);
        b = fp_ftz32(b);
    }
    if (xorsign) {
        sign = (a ^ b) & 0x80000000u;
        a &= 0x7FFFFFFFu;
        b &= 0x7FFFFFFFu;
    }
    bool an = fp_isnan32(a), bn = fp_isnan32(b);
    uint32_t r;
    if ((an && bn) || ((flags & EMU_F_NAN) && (an || bn))) {
        return FP_NAN32;
    } else if (an) {
        r = b;
    } else if (bn) {
        r = a;
    } else {
        float fa = fp_f32(a), fb = fp_f32(b);
        if (fa == fb) {
            r = is_max ? (a & b) : (a | b);   /* +0 > -0 */
        } else {
            r = ((fa < fb) != is_max) ? a : b;
        }
    }
    return r ^ sign;
}

/* One f32 lane of any operation, with every modifier. */
static uint32_t f32_lane(unsigned op, unsigned rnd, unsigned flags,
                         uint32_t ua, uint32_t ub, uint32_t uc)
{
    bool ftz = (flags & EMU_F_FTZ) != 0;
    if (ftz) {
        ua = fp_ftz32(ua);
        ub = fp_ftz32(ub);
        uc = fp_ftz32(uc);
    }
    double a = fp_f32(ua), b = fp_f32(ub), c = fp_f32(uc), lo;
    double hi;
    switch (op) {
    case K_DIV_APPROX:
        /* 2^126 < |b| < 2^128: the approximation gives 0 (NaN for inf a) */
        if ((ub & 0x7FFFFFFFu) > 0x7E800000u &&
            (ub & 0x7FFFFFFFu) < 0x7F800000u) {
            if (isinf(a)) {
                return FP_NAN32;
            }
            if (!isnan(a)) {
                return (ua ^ ub) & 0x80000000u;
            }
        }
        hi = exact_op(K_DIV, a, b, c, &lo);
        break;
    case K_RCP:
        hi = exact_op(K_RCP, 0, 0, a, &lo);
        break;
    default:
        hi = exact_op(op, a, b, c, &lo);
        hi = zero_sign(op, a, b, c, rnd, hi, lo);
        break;
    }
    uint32_t r = (uint32_t)fp_round_hilo(&fp_fmt_f32, hi, lo, rnd,
                                         ftz ? FP_FTZ : 0);
    if (flags & EMU_F_SAT) {
        r = f32_sat(r);
    }
    return r;
}

#define LANE_SRC32(k) ((uint32_t)emu_src(x, &i->o[k], lane))
#define LANE_SRC64(k) (emu_src(x, &i->o[k], lane))

/* A source operand as 32 lanes: a register slot in place, else the
 * values of the lanes in mask copied to tmp (immediates to all lanes). */
static inline const uint64_t *opnd_lanes(EmuCtx *x, const EmuOpnd *o,
                                         uint32_t mask, uint64_t *tmp)
{
    if (o->kind == EO_REG) {
        return emu_slot(x, o->reg);
    }
    if (o->kind == EO_IMM) {
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
            tmp[l] = o->imm;
        }
        return tmp;
    }
    EMU_FOR_LANES(mask, lane) {
        tmp[lane] = emu_src(x, o, lane);
    }
    return tmp;
}

/* Stamp a handler whose lanes are lane_fn(a, b, c): a straight loop
 * over all 32 lanes when the mask is full (vectorisable), else the
 * active lanes.  Lane l reads only lane l of the sources (slots or
 * copies) and writes lane l of d, a slot that is a source or overlaps
 * none: ivdep lets the vectoriser drop its overlap check. */
#define LANE_HANDLER(name, nsrc, lane_fn)                                 \
    LANE_HANDLER_A(name, nsrc, lane_fn, )
#define LANE_HANDLER_A(name, nsrc, lane_fn, attr)                         \
    attr static void name(EmuCtx *x, const EmuInsn *i, uint32_t mask)     \
    {                                                                     \
        uint64_t ta[EMU_WARP_SIZE], tb[EMU_WARP_SIZE], tc[EMU_WARP_SIZE]; \
        const uint64_t *pa = opnd_lanes(x, &i->o[1], mask, ta);           \
        const uint64_t *pb = nsrc > 1 ? opnd_lanes(x, &i->o[2], mask, tb) \
                                      : pa;                               \
        const uint64_t *pc = nsrc > 2 ? opnd_lanes(x, &i->o[3], mask, tc) \
                                      : pa;                               \
        uint64_t *d = emu_slot(x, i->o[0].reg);                           \
        if (mask == 0xFFFFFFFFu) {                                        \
            EMU_IVDEP                                                     \
            for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++) {       \
                d[lane] = lane_fn(pa[lane], pb[lane], pc[lane]);          \
            }                                                             \
        } else {                                                          \
            EMU_FOR_LANES(mask, lane) {                                   \
                d[lane] = lane_fn(pa[lane], pb[lane], pc[lane]);          \
            }                                                             \
        }                                                                 \
    }

/* Fast .rn lanes: host float arithmetic is round-to-nearest-even. */
#define F32_FAST(name, expr, ftz)                                         \
    static inline uint64_t name##_lane(uint64_t ua64, uint64_t ub64,      \
                                       uint64_t uc64)                     \
    {                                                                     \
        uint32_t ua = (uint32_t)ua64, ub = (uint32_t)ub64;                \
        uint32_t uc = (uint32_t)uc64;                                     \
        if (ftz) {                                                        \
            ua = fp_ftz32(ua);                                            \
            ub = fp_ftz32(ub);                                            \
            uc = fp_ftz32(uc);                                            \
        }                                                                 \
        float a = fp_f32(ua), b = fp_f32(ub), c = fp_f32(uc);             \
        (void)c;                                                          \
        float r = (expr);                                                 \
        uint32_t ur = r != r ? FP_NAN32 : fp_u32(r);                      \
        return ftz ? fp_ftz32(ur) : ur;                                   \
    }

F32_FAST(f32_add_rn, a + b, 0)
F32_FAST(f32_sub_rn, a - b, 0)
F32_FAST(f32_mul_rn, a * b, 0)
F32_FAST(f32_fma_rn, fmaf(a, b, c), 0)
F32_FAST(f32_add_rn_ftz, a + b, 1)
F32_FAST(f32_sub_rn_ftz, a - b, 1)
F32_FAST(f32_mul_rn_ftz, a * b, 1)
F32_FAST(f32_fma_rn_ftz, fmaf(a, b, c), 1)
LANE_HANDLER(f32_add_rn, 2, f32_add_rn_lane)
LANE_HANDLER(f32_sub_rn, 2, f32_sub_rn_lane)
LANE_HANDLER(f32_mul_rn, 2, f32_mul_rn_lane)
LANE_HANDLER(f32_fma_rn, 3, f32_fma_rn_lane)
LANE_HANDLER(f32_add_rn_ftz, 2, f32_add_rn_ftz_lane)
LANE_HANDLER(f32_sub_rn_ftz, 2, f32_sub_rn_ftz_lane)
LANE_HANDLER(f32_mul_rn_ftz, 2, f32_mul_rn_ftz_lane)
LANE_HANDLER(f32_fma_rn_ftz, 3, f32_fma_rn_ftz_lane)

/* On baseline x86-64 fmaf() is a libm call per lane.  Hosts with FMA3
 * get clones of the fma.rn handlers compiled for it, chosen when the
 * instruction is decoded: the hardware fused multiply-add rounds once,
 * as fmaf() does, so the results are the same bits, and the clones'
 * full-warp loops vectorise. */
#if defined(__x86_64__) && defined(__GNUC__)
#define FMA_TARGET __attribute__((target("fma")))
LANE_HANDLER_A(f32_fma_rn_hw, 3, f32_fma_rn_lane, FMA_TARGET)
LANE_HANDLER_A(f32_fma_rn_ftz_hw, 3, f32_fma_rn_ftz_lane, FMA_TARGET)

static bool host_fma(void)
{
    return __builtin_cpu_supports("fma");
}
#else
#define FMA_TARGET
#define f32_fma_rn_hw f32_fma_rn
#define f32_fma_rn_ftz_hw f32_fma_rn_ftz
static bool host_fma(void)
{
    return false;
}
#endif

/* General f32 handler per operation. */
#define F32_GEN(name, op, nsrc)                                           \
    static void name(EmuCtx *x, const EmuInsn *i, uint32_t mask)          \
    {                                                                     \
        uint64_t *d = emu_slot(x, i->o[0].reg);                           \
        unsigned rnd = rnd_of(i), flags = i->flags;                       \
        EMU_FOR_LANES(mask, lane) {                                       \
            uint32_t ua = LANE_SRC32(1), ub = 0, uc = 0;                  \
            if (nsrc > 1) {                                               \
                ub = LANE_SRC32(2);                                       \
            }                                                             \
            if (nsrc > 2) {                                               \
                uc = LANE_SRC32(3);                                       \
            }                                                             \
            d[lane] = f32_lane(op, rnd, flags, ua, ub, uc);               \
        }                                                                 \
    }

F32_GEN(f32_add, K_ADD, 2)
F32_GEN(f32_sub, K_SUB, 2)
F32_GEN(f32_mul, K_MUL, 2)
F32_GEN(f32_fma, K_FMA, 3)
F32_GEN(f32_div, K_DIV, 2)
F32_GEN(f32_div_approx, K_DIV_APPROX, 2)
F32_GEN(f32_rcp, K_RCP, 1)
F32_GEN(f32_sqrt, K_SQRT, 1)
F32_GEN(f32_rsqrt, K_RSQRT, 1)
F32_GEN(f32_sin, K_SIN, 1)
F32_GEN(f32_cos, K_COS, 1)
F32_GEN(f32_lg2, K_LG2, 1)
F32_GEN(f32_ex2, K_EX2, 1)
F32_GEN(f32_tanh, K_TANH, 1)

static void f32_minmax_h(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    bool is_max = i->op == PTX_OP_MAX;
    bool xs = i->aux != 0;
    bool three = i->nopnd > 3 && i->o[3].kind != EO_NONE;
    EMU_FOR_LANES(mask, lane) {
        uint32_t r = f32_minmax(LANE_SRC32(1), LANE_SRC32(2), is_max,
                                i->flags, xs);
        if (three) {
            r = f32_minmax(r, LANE_SRC32(3), is_max, i->flags, xs);
        }
        d[lane] = r;
    }
}

static void f32_abs(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    bool ftz = i->flags & EMU_F_FTZ;
    EMU_FOR_LANES(mask, lane) {
        uint32_t a = LANE_SRC32(1);
        d[lane] = (ftz ? fp_ftz32(a) : a) & 0x7FFFFFFFu;
    }
}

static void f32_neg(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    bool ftz = i->flags & EMU_F_FTZ;
    EMU_FOR_LANES(mask, lane) {
        uint32_t a = LANE_SRC32(1);
        d[lane] = (ftz ? fp_ftz32(a) : a) ^ 0x80000000u;
    }
}

static void f32_copysign(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    EMU_FOR_LANES(mask, lane) {
        uint32_t a = LANE_SRC32(1), b = LANE_SRC32(2);
        d[lane] = (b & 0x7FFFFFFFu) | (a & 0x80000000u);
    }
}

/* testp classes; aux holds the PtxMod of the class. */
static void f32_testp(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    EMU_FOR_LANES(mask, lane) {
        uint32_t a = LANE_SRC32(1) & 0x7FFFFFFFu;
        bool r;
        switch (i->aux) {
        case PTX_M_FINITE:
            r = a < 0x7F800000u;
            break;
        case PTX_M_INFINITE:
            r = a == 0x7F800000u;
            break;
        case PTX_M_NUMBER:
            r = a <= 0x7F800000u;
            break;
        case PTX_M_NOTANUMBER:
            r = a > 0x7F800000u;
            break;
        case PTX_M_NORMAL:
            r = a >= 0x00800000u && a < 0x7F800000u;
            break;
        default:
            r = a != 0 && a < 0x00800000u;
            break;
        }
        d[lane] = r;
    }
}

/* ------------------------------------------------------------- f64 */

static uint64_t f64_nan(uint64_t r, uint64_t a, uint64_t b, uint64_t c,
                        unsigned nsrc)
{
    if (!fp_isnan64(r)) {
        return r;
    }
    if (fp_isnan64(a)) {
        return a | 0x0008000000000000ull;
    }
    if (nsrc > 1 && fp_isnan64(b)) {
        return b | 0x0008000000000000ull;
    }
    if (nsrc > 2 && fp_isnan64(c)) {
        return c | 0x0008000000000000ull;
    }
    return FP_DNAN64;
}

static int host_mode(unsigned rnd)
{
    switch (rnd) {
    case FP_RZ:
        return FE_TOWARDZERO;
    case FP_RM:
        return FE_DOWNWARD;
    case FP_RP:
        return FE_UPWARD;
    default:
        return FE_TONEAREST;
    }
}

static double f64_op(unsigned op, double a, double b, double c)
{
    switch (op) {
    case K_ADD:
        return a + b;
    case K_SUB:
        return a - b;
    case K_MUL:
        return a * b;
    case K_FMA:
        return fma(a, b, c);
    case K_DIV:
    case K_DIV_APPROX:
        return a / b;
    case K_RCP:
        return 1.0 / a;
    case K_SQRT:
        return sqrt(a);
    case K_RSQRT:
        return 1.0 / sqrt(a);
    default:
        return NAN;
    }
}

#define F64_GEN(name, op, nsrc)                                           \
    static void name(EmuCtx *x, const EmuInsn *i, uint32_t mask)          \
    {                                                                     \
        uint64_t *d = emu_slot(x, i->o[0].reg);                           \
        unsigned rnd = rnd_of(i);                                         \
        bool ftz = (i->flags & EMU_F_FTZ) != 0;                           \
        int old = 0;                                                      \
        if (rnd != FP_RN) {                                               \
            old = fegetround();                                           \
            fesetround(host_mode(rnd));                                   \
        }                                                                 \
        EMU_FOR_LANES(mask, lane) {                                       \
            uint64_t ua = LANE_SRC64(1), ub = 0, uc = 0;                  \
            if (nsrc > 1) {                                               \
                ub = LANE_SRC64(2);                                       \
            }                                                             \
            if (nsrc > 2) {                                               \
                uc = LANE_SRC64(3);                                       \
            }                                                             \
            if (ftz) {                                                    \
                ua = fp_ftz64(ua);                                        \
            }                                                             \
            uint64_t r = fp_u64(f64_op(op, fp_f64(ua), fp_f64(ub),        \
                                       fp_f64(uc)));                      \
            r = f64_nan(r, ua, ub, uc, nsrc);                             \
            d[lane] = ftz ? fp_ftz64(r) : r;                              \
        }                                                                 \
        if (rnd != FP_RN) {                                               \
            fesetround(old);                                              \
        }                                                                 \
    }

/* f64 .rn without .ftz: host double arithmetic. */
#define F64_FAST(name, expr, nsrc)                                        \
    static inline uint64_t name##_lane(uint64_t ua, uint64_t ub,          \
                                       uint64_t uc)                       \
    {                                                                     \
        double a = fp_f64(ua), b = fp_f64(ub), c = fp_f64(uc);            \
        (void)b;                                                          \
        (void)c;                                                          \
        double r = (expr);                                                \
        return r != r ? f64_nan(fp_u64(r), ua, ub, uc, nsrc) : fp_u64(r); \
    }                                                                     \
    LANE_HANDLER(name, nsrc, name##_lane)

F64_FAST(f64_add_rn, a + b, 2)
F64_FAST(f64_sub_rn, a - b, 2)
F64_FAST(f64_mul_rn, a * b, 2)
F64_FAST(f64_fma_rn, fma(a, b, c), 3)
LANE_HANDLER_A(f64_fma_rn_hw, 3, f64_fma_rn_lane, FMA_TARGET)

F64_GEN(f64_add, K_ADD, 2)
F64_GEN(f64_sub, K_SUB, 2)
F64_GEN(f64_mul, K_MUL, 2)
F64_GEN(f64_fma, K_FMA, 3)
F64_GEN(f64_div, K_DIV, 2)
F64_GEN(f64_rcp, K_RCP, 1)
F64_GEN(f64_sqrt, K_SQRT, 1)
F64_GEN(f64_rsqrt, K_RSQRT, 1)

static void f64_minmax_h(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    bool is_max = i->op == PTX_OP_MAX;
    EMU_FOR_LANES(mask, lane) {
        uint64_t a = LANE_SRC64(1), b = LANE_SRC64(2), r;
        bool an = fp_isnan64(a), bn = fp_isnan64(b);
        if (an && bn) {
            r = a | 0x0008000000000000ull;
        } else if (an) {
            r = b;
        } else if (bn) {
            r = a;
        } else if (fp_f64(a) == fp_f64(b)) {
            r = is_max ? (a & b) : (a | b);
        } else {
            r = ((fp_f64(a) < fp_f64(b)) != is_max) ? a : b;
        }
        d[lane] = r;
    }
}

static void f64_abs(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    EMU_FOR_LANES(mask, lane) {
        d[lane] = LANE_SRC64(1) & 0x7FFFFFFFFFFFFFFFull;
    }
}

static void f64_neg(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    EMU_FOR_LANES(mask, lane) {
        d[lane] = LANE_SRC64(1) ^ 0x8000000000000000ull;
    }
}

static void f64_copysign(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    EMU_FOR_LANES(mask, lane) {
        uint64_t a = LANE_SRC64(1), b = LANE_SRC64(2);
        d[lane] = (b & 0x7FFFFFFFFFFFFFFFull) |
                  (a & 0x8000000000000000ull);
    }
}

static void f64_testp(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    const uint64_t inf = 0x7FF0000000000000ull, minn = 1ull << 52;
    EMU_FOR_LANES(mask, lane) {
        uint64_t a = LANE_SRC64(1) & 0x7FFFFFFFFFFFFFFFull;
        bool r;
        switch (i->aux) {
        case PTX_M_FINITE:
            r = a < inf;
            break;
        case PTX_M_INFINITE:
            r = a == inf;
            break;
        case PTX_M_NUMBER:
            r = a <= inf;
            break;
        case PTX_M_NOTANUMBER:
            r = a > inf;
            break;
        case PTX_M_NORMAL:
            r = a >= minn && a < inf;
            break;
        default:
            r = a != 0 && a < minn;
            break;
        }
        d[lane] = r;
    }
}

/* ----------------------------------------------- f16, bf16 and pairs */

static uint16_t h_minmax(const FpFmt *f, uint16_t a, uint16_t b,
                         bool is_max, unsigned flags, bool xorsign)
{
    bool bf = f == &fp_fmt_bf16;
    uint16_t sign = 0;
    if (flags & EMU_F_FTZ) {
        a = bf ? fp_ftzbf(a) : fp_ftz16(a);
        b = bf ? fp_ftzbf(b) : fp_ftz16(b);
    }
    if (xorsign) {
        sign = (a ^ b) & 0x8000u;
        a &= 0x7FFFu;
        b &= 0x7FFFu;
    }
    bool an = bf ? fp_isnanbf(a) : fp_isnan16(a);
    bool bn = bf ? fp_isnanbf(b) : fp_isnan16(b);
    uint16_t r;
    if ((an && bn) || ((flags & EMU_F_NAN) && (an || bn))) {
        return FP_NAN16;
    } else if (an) {
        r = b;
    } else if (bn) {
        r = a;
    } else {
        float fa = bf ? fp_bf16_to_f32(a) : fp_f16_to_f32(a);
        float fb = bf ? fp_bf16_to_f32(b) : fp_f16_to_f32(b);
        if (fa == fb) {
            r = is_max ? (a & b) : (a | b);
        } else {
            r = ((fa < fb) != is_max) ? a : b;
        }
    }
    return r ^ sign;
}

/* One 16-bit element of any f16/bf16 operation. */
static uint16_t h_lane(const FpFmt *f, unsigned op, unsigned rnd,
                       unsigned flags, uint16_t a, uint16_t b, uint16_t c)
{
    bool bf = f == &fp_fmt_bf16;
    bool ftz = (flags & EMU_F_FTZ) != 0;
    switch (op) {
    case K_MIN:
    case K_MAX:
        return h_minmax(f, a, b, op == K_MAX, flags,
                        (flags & 0x8000u) != 0);
    case K_ABS:
        return (uint16_t)((ftz ? (bf ? fp_ftzbf(a) : fp_ftz16(a)) : a) &
                          0x7FFFu);
    case K_NEG:
        return (uint16_t)((ftz ? (bf ? fp_ftzbf(a) : fp_ftz16(a)) : a) ^
                          0x8000u);
    default:
        break;
    }
    if (ftz) {
        a = bf ? fp_ftzbf(a) : fp_ftz16(a);
        b = bf ? fp_ftzbf(b) : fp_ftz16(b);
        c = bf ? fp_ftzbf(c) : fp_ftz16(c);
    }
    double lo, da, db, dc;
    if (bf) {
        da = fp_bf16_to_d(a);
        db = fp_bf16_to_d(b);
        dc = fp_bf16_to_d(c);
    } else {
        da = fp_f16_to_d(a);
        db = fp_f16_to_d(b);
        dc = fp_f16_to_d(c);
    }
    if (op <= K_MUL && rnd == FP_RN &&
        !(flags & (EMU_F_FTZ | EMU_F_SAT | EMU_F_RELU))) {
        /* f16/bf16 sums and products are exact in double */
        double r = op == K_ADD ? da + db : op == K_SUB ? da - db : da * db;
        return bf ? fp_d_to_h_rn(r, 8, 7) : fp_d_to_h_rn(r, 5, 10);
    }
    double hi = exact_op(op, da, db, dc, &lo);
    hi = zero_sign(op, da, db, dc, rnd, hi, lo);
    uint16_t r = (uint16_t)fp_round_hilo(f, hi, lo, rnd, ftz ? FP_FTZ : 0);
    bool nan = bf ? fp_isnanbf(r) : fp_isnan16(r);
    if (flags & EMU_F_RELU) {
        if (!nan && (r & 0x8000u)) {
            r = 0;
        }
    }
    if (flags & EMU_F_SAT) {
        uint16_t one = bf ? 0x3F80u : 0x3C00u;
        if (nan || (r & 0x8000u)) {
            r = 0;
        } else if (r > one) {
            r = one;
        }
    }
    return r;
}

/* Worker: op on one or two 16-bit elements.  aux bit 15 = .xorsign. */
static inline __attribute__((always_inline)) void
h_run(EmuCtx *x, const EmuInsn *i, uint32_t mask, const FpFmt *f, bool x2,
      unsigned op, unsigned nsrc)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    unsigned rnd = rnd_of(i);
    unsigned flags = i->flags | (i->aux ? 0x8000u : 0);
    EMU_FOR_LANES(mask, lane) {
        uint32_t a = LANE_SRC32(1), b = 0, c = 0;
        if (nsrc > 1) {
            b = LANE_SRC32(2);
        }
        if (nsrc > 2) {
            c = LANE_SRC32(3);
        }
        uint32_t r = h_lane(f, op, rnd, flags, (uint16_t)a, (uint16_t)b,
                            (uint16_t)c);
        if (x2) {
            r |= (uint32_t)h_lane(f, op, rnd, flags, (uint16_t)(a >> 16),
                                  (uint16_t)(b >> 16),
                                  (uint16_t)(c >> 16)) << 16;
        }
        d[lane] = r;
    }
}

#define H_HANDLERS(tname, fmt, x2)                                        \
    static void tname##_add(EmuCtx *x, const EmuInsn *i, uint32_t m)      \
    { h_run(x, i, m, fmt, x2, K_ADD, 2); }                                \
    static void tname##_sub(EmuCtx *x, const EmuInsn *i, uint32_t m)      \
    { h_run(x, i, m, fmt, x2, K_SUB, 2); }                                \
    static void tname##_mul(EmuCtx *x, const EmuInsn *i, uint32_t m)      \
    { h_run(x, i, m, fmt, x2, K_MUL, 2); }                                \
    static void tname##_fma(EmuCtx *x, const EmuInsn *i, uint32_t m)      \
    { h_run(x, i, m, fmt, x2, K_FMA, 3); }                                \
    static void tname##_min(EmuCtx *x, const EmuInsn *i, uint32_t m)      \
    { h_run(x, i, m, fmt, x2, K_MIN, 2); }                                \
    static void tname##_max(EmuCtx *x, const EmuInsn *i, uint32_t m)      \
    { h_run(x, i, m, fmt, x2, K_MAX, 2); }                                \
    static void tname##_abs(EmuCtx *x, const EmuInsn *i, uint32_t m)      \
    { h_run(x, i, m, fmt, x2, K_ABS, 1); }                                \
    static void tname##_neg(EmuCtx *x, const EmuInsn *i, uint32_t m)      \
    { h_run(x, i, m, fmt, x2, K_NEG, 1); }                                \
    static void tname##_ex2(EmuCtx *x, const EmuInsn *i, uint32_t m)      \
    { h_run(x, i, m, fmt, x2, K_EX2, 1); }                                \
    static void tname##_tanh(EmuCtx *x, const EmuInsn *i, uint32_t m)     \
    { h_run(x, i, m, fmt, x2, K_TANH, 1); }                               \
    static const EmuHandler tname##_tab[] = {                             \
        [K_ADD] = tname##_add, [K_SUB] = tname##_sub,                     \
        [K_MUL] = tname##_mul, [K_FMA] = tname##_fma,                     \
        [K_MIN] = tname##_min, [K_MAX] = tname##_max,                     \
        [K_ABS] = tname##_abs, [K_NEG] = tname##_neg,                     \
        [K_EX2] = tname##_ex2, [K_TANH] = tname##_tanh,                   \
    };

H_HANDLERS(h16, &fp_fmt_f16, false)
H_HANDLERS(h16x2, &fp_fmt_f16, true)
H_HANDLERS(bf16, &fp_fmt_bf16, false)
H_HANDLERS(bf16x2, &fp_fmt_bf16, true)

/* --------------------------------------------- mixed f32 with f16/bf16 */

/* add/sub{.rnd}{.sat}.f32.atype d, a, c and fma.rnd{.sat}.f32.abtype d, a,
 * b, c (PTX ISA 9.0 section 9.7.5, PTX 8.6): the 16-bit sources widen
 * exactly to f32, then one f32 operation rounds once.  aux: bit 0 =
 * .bf16, bits 1.. = the K_ operation. */
static uint32_t widen16(bool bf, uint64_t v)
{
    uint16_t h = (uint16_t)v;
    return fp_u32(bf ? fp_bf16_to_f32(h) : fp_f16_to_f32(h));
}

static void mixed_f32(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    bool bf = i->aux & 1;
    unsigned op = i->aux >> 1, rnd = rnd_of(i), flags = i->flags;
    EMU_FOR_LANES(mask, lane) {
        uint32_t a = widen16(bf, LANE_SRC64(1)), b, c;
        if (op == K_FMA) {
            b = widen16(bf, LANE_SRC64(2));
            c = LANE_SRC32(3);
        } else {
            b = LANE_SRC32(2);
            c = 0;
        }
        d[lane] = f32_lane(op, rnd, flags, a, b, c);
    }
}

static bool select_mixed(const IrInsn *in, EmuInsn *ei, int k)
{
    PtxType st = (PtxType)in->types[1];
    if (ei->type != PTX_T_F32 || (st != PTX_T_F16 && st != PTX_T_BF16) ||
        (k != K_ADD && k != K_SUB && k != K_FMA) ||
        (ei->flags & (EMU_F_FTZ | EMU_F_RELU)) ||
        ir_insn_mod(in, PTX_MG_MISC) != PTX_M_NONE) {
        return false;
    }
    ei->aux = (uint16_t)((unsigned)k << 1 | (st == PTX_T_BF16));
    ei->fn = mixed_f32;
    return true;
}

/* ---------------------------------------------------------- selector */

static int kop_of(unsigned op)
{
    switch (op) {
    case PTX_OP_ADD: return K_ADD;
    case PTX_OP_SUB: return K_SUB;
    case PTX_OP_MUL: return K_MUL;
    case PTX_OP_FMA: return K_FMA;
    case PTX_OP_MAD: return K_FMA;
    case PTX_OP_DIV: return K_DIV;
    case PTX_OP_RCP: return K_RCP;
    case PTX_OP_SQRT: return K_SQRT;
    case PTX_OP_RSQRT: return K_RSQRT;
    case PTX_OP_SIN: return K_SIN;
    case PTX_OP_COS: return K_COS;
    case PTX_OP_LG2: return K_LG2;
    case PTX_OP_EX2: return K_EX2;
    case PTX_OP_TANH: return K_TANH;
    case PTX_OP_MIN: return K_MIN;
    case PTX_OP_MAX: return K_MAX;
    case PTX_OP_ABS: return K_ABS;
    case PTX_OP_NEG: return K_NEG;
    case PTX_OP_COPYSIGN: return K_COPYSIGN;
    case PTX_OP_TESTP: return 100;
    default: return -1;
    }
}

static EmuHandler select_f32(int k, const EmuInsn *ei, bool approx)
{
    bool rn = ei->rnd == EMU_RND_NONE || ei->rnd == EMU_RND_RN;
    unsigned extra = ei->flags & (EMU_F_SAT);
    bool ftz = (ei->flags & EMU_F_FTZ) != 0;
    switch (k) {
    case K_ADD:
        return (rn && !extra) ? (ftz ? f32_add_rn_ftz : f32_add_rn)
                              : f32_add;
    case K_SUB:
        return (rn && !extra) ? (ftz ? f32_sub_rn_ftz : f32_sub_rn)
                              : f32_sub;
    case K_MUL:
        return (rn && !extra) ? (ftz ? f32_mul_rn_ftz : f32_mul_rn)
                              : f32_mul;
    case K_FMA:
        if (rn && !extra && host_fma()) {
            return ftz ? f32_fma_rn_ftz_hw : f32_fma_rn_hw;
        }
        return (rn && !extra) ? (ftz ? f32_fma_rn_ftz : f32_fma_rn)
                              : f32_fma;
    case K_DIV:
        return (approx && ei->rnd == EMU_RND_NONE) ? f32_div_approx
                                                   : f32_div;
    case K_RCP: return f32_rcp;
    case K_SQRT: return f32_sqrt;
    case K_RSQRT: return f32_rsqrt;
    case K_SIN: return f32_sin;
    case K_COS: return f32_cos;
    case K_LG2: return f32_lg2;
    case K_EX2: return f32_ex2;
    case K_TANH: return f32_tanh;
    case K_MIN:
    case K_MAX: return f32_minmax_h;
    case K_ABS: return f32_abs;
    case K_NEG: return f32_neg;
    case K_COPYSIGN: return f32_copysign;
    case 100: return f32_testp;
    default: return NULL;
    }
}

static EmuHandler select_f64(int k, const EmuInsn *ei)
{
    bool rn = (ei->rnd == EMU_RND_NONE || ei->rnd == EMU_RND_RN) &&
              !(ei->flags & EMU_F_FTZ);
    switch (k) {
    case K_ADD: return rn ? f64_add_rn : f64_add;
    case K_SUB: return rn ? f64_sub_rn : f64_sub;
    case K_MUL: return rn ? f64_mul_rn : f64_mul;
    case K_FMA:
        return !rn ? f64_fma : host_fma() ? f64_fma_rn_hw : f64_fma_rn;
    case K_DIV: return f64_div;
    case K_RCP: return f64_rcp;
    case K_SQRT: return f64_sqrt;
    case K_RSQRT: return f64_rsqrt;
    case K_MIN:
    case K_MAX:
        return (ei->flags & (EMU_F_NAN | EMU_F_FTZ)) || ei->aux
                   ? NULL : f64_minmax_h;
    case K_ABS: return f64_abs;
    case K_NEG: return f64_neg;
    case K_COPYSIGN: return f64_copysign;
    case 100: return f64_testp;
    default: return NULL;
    }
}

EMU_SELECTOR(fp)
{
    (void)m;
    (void)f;
    int k = kop_of(ei->op);
    if (k < 0) {
        return false;
    }
    PtxType t = (PtxType)ei->type;
    if (ptx_type_kind(t) != PTX_TK_F) {
        return false;               /* integer forms: ops_int.c */
    }
    ei->fn = NULL;
    ei->aux = 0;
    if (in->ntypes > 1) {
        select_mixed(in, ei, k);    /* else: not supported, fn NULL */
        return true;
    }
    bool approx = ir_insn_mod(in, PTX_MG_PREC) == PTX_M_APPROX;
    if (k == 100) {
        ei->aux = (uint16_t)ir_insn_mod(in, PTX_MG_CLASS);
    } else if (k == K_MIN || k == K_MAX) {
        bool xs = ir_insn_mod(in, PTX_MG_XORSIGN) != PTX_M_NONE;
        if (xs != (ir_insn_mod(in, PTX_MG_ABSMOD) != PTX_M_NONE) ||
            (ei->flags & EMU_F_RELU)) {
            return true;
        }
        ei->aux = xs;
    }
    /* the .oob form of fma (out-of-bounds zeros) is not supported */
    if (ir_insn_mod(in, PTX_MG_MISC) != PTX_M_NONE) {
        return true;
    }
    switch (t) {
    case PTX_T_F32:
        if (k == K_MIN || k == K_MAX || k == 100 || k == K_COPYSIGN) {
            ei->fn = select_f32(k, ei, approx);
        } else if (ei->flags & EMU_F_RELU) {
            ei->fn = NULL;
        } else {
            ei->fn = select_f32(k, ei, approx);
        }
        break;
    case PTX_T_F64:
        if (ei->flags & (EMU_F_SAT | EMU_F_RELU)) {
            return true;
        }
        ei->fn = select_f64(k, ei);
        break;
    case PTX_T_F16:
    case PTX_T_F16X2:
    case PTX_T_BF16:
    case PTX_T_BF16X2: {
        if (k >= (int)(sizeof(h16_tab) / sizeof(h16_tab[0]))) {
            return true;
        }
        const EmuHandler *tab = t == PTX_T_F16 ? h16_tab
                                : t == PTX_T_F16X2 ? h16x2_tab
                                : t == PTX_T_BF16 ? bf16_tab : bf16x2_tab;
        ei->fn = tab[k];
        break;
    }
    default:
        break;
    }
    return true;
}
