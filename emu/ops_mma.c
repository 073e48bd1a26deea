/*
 * emu/ops_mma.c: warp-level matrix instructions: mma.sync, wmma.load,
 * wmma.mma, wmma.store, ldmatrix, stmatrix and movmatrix.
 *
 * Each handler sees the registers of all 32 lanes: it gathers the whole
 * matrices from the lanes' fragments (layouts in emu/mma_layout.h),
 * computes, and scatters the result.  These instructions are .sync
 * .aligned: every lane of the warp must execute them together.  When not
 * all 32 lanes take part (divergence, a partial last warp) the result is
 * undefined in PTX; we stop the launch with an illegal-instruction fault
 * rather than invent one.
 *
 * Implemented (PTX ISA 9.0, 9.7.14): mma.sync.aligned m16n8k16/m16n8k8
 * .f16/.bf16 (f16 or f32 C/D for .f16), m16n8k8/m16n8k4 .tf32, m8n8k4
 * and (sm_90) m16n8k4/m16n8k8/m16n8k16 .f64, m8n8k4 .f16 (any .row/.col
 * A and B), m16n8k16/m16n8k32/m8n8k16 .s8/.u8, m16n8k32/m16n8k64/m8n8k32
 * .s4/.u4 (with or without .satfinite), m8n8k128/m16n8k128/m16n8k256 .b1
 * .and/.xor.popc, m16n8k16/m16n8k32 .e4m3/.e5m2; wmma.load/mma/store for
 * m16n16k16, m32n8k16, m8n32k16 (.f16/.bf16/.s8/.u8), m16n16k8 .tf32,
 * m8n8k4 .f64 (.rn/.rz/.rm/.rp), m8n8k32 .s4/.u4 and m8n8k128 .b1, from
 * .global, .shared or generic addresses; ldmatrix/stmatrix .m8n8
 * .x1/.x2/.x4 {.trans} .b16; movmatrix .m8n8.trans.b16.  Other forms
 * (.kind:: and .block_scale forms, mma.sp, the .b8 ldmatrix/stmatrix
 * shapes) fail the module load as "not supported".  wmma.load/store
 * check each element's natural alignment, not the ISA's fragment-size
 * alignment of row starts (which the corpus kernel wmma_f16_shapes, an
 * f16 A with ld 8, does not meet either).
 *
 * Numerics (hardware comparison still pending: no GPU was available).
 *  - Integer mma (s8/u8/s4/u4, b1 .and/.xor.popc) is exact: the sum of
 *    the products and C, wrapped to 32 bits, or clamped to the s32 range
 *    with .satfinite.
 *  - Floating point (f16, bf16, tf32, e4m3, e5m2 and f64 inputs): every
 *    product is exact, and the exact sum of the K products and C is
 *    rounded once, to nearest even (f64: the .rnd of wmma, .rn default).
 *    This is not the published behaviour of Ampere tensor cores (Fasi,
 *    Higham, Mikaitis, Pranesh, "Numerical behavior of NVIDIA tensor
 *    cores", PeerJ CS 2021, found truncating alignment and
 *    normalisation), whose block sizes and guard bits we could not pin
 *    down per shape from that description; results may differ from
 *    hardware in the last bit when cancellation or alignment shifts
 *    occur.  An f16 D is that f32 result converted to f16 (RN).
 *  - tf32 operands are the high 19 bits of the .b32 register: the low 13
 *    mantissa bits are ignored (truncated), as cvt.rna.tf32.f32 leaves
 *    them zero.
 *  - Subnormal inputs and results are kept (no flush to zero).  Any NaN
 *    input, inf * 0, or inf - inf gives the canonical NaN of D's type
 *    (f32 0x7FFFFFFF, f16 0x7FFF, f64 0x7FFFFFFFFFFFFFFF); otherwise an
 *    infinite product or C gives that infinity.  An exact zero sum is -0
 *    only when every term is -0 (or, rounding toward -inf, when any is
 *    negative), as in IEEE 754 addition.
 */
#include <string.h>

#include "emu/access.h"
#include "emu/cluster.h"
#include "emu/exec.h"
#include "emu/fp.h"
#include "emu/memory.h"
#include "emu/mma_arith.h"
#include "emu/mma_layout.h"
#include "emu/ops.h"
#include "ptx/opcode.h"

/* ------------------------------------------------ element kinds */

typedef enum Ek {
    EK_NONE, EK_F16, EK_BF16, EK_TF32, EK_F32, EK_F64, EK_E4M3, EK_E5M2,
    EK_S8, EK_U8, EK_S4, EK_U4, EK_B1, EK_S32, EK_N
} Ek;

static const uint8_t ek_bits[EK_N] = {
    0, 16, 16, 32, 32, 64, 8, 8, 8, 8, 4, 4, 1, 32
};

static Ek ek_of(unsigned t)
{
    switch ((PtxType)t) {
    case PTX_T_F16: return EK_F16;
    case PTX_T_BF16: return EK_BF16;
    case PTX_T_TF32: return EK_TF32;
    case PTX_T_F32: return EK_F32;
    case PTX_T_F64: return EK_F64;
    case PTX_T_E4M3: return EK_E4M3;
    case PTX_T_E5M2: return EK_E5M2;
    case PTX_T_S8: return EK_S8;
    case PTX_T_U8: return EK_U8;
    case PTX_T_S4: return EK_S4;
    case PTX_T_U4: return EK_U4;
    case PTX_T_B1: return EK_B1;
    case PTX_T_S32: return EK_S32;
    default: return EK_NONE;
    }
}

static bool ek_float(Ek k)
{
    return k >= EK_F16 && k <= EK_E5M2;
}

/* Elements of one A/B register (32 bits; an f64 register holds one). */
static unsigned ek_epr(Ek k)
{
    return k == EK_F64 ? 1 : 32 / ek_bits[k];
}

/* ------------------------------------------------ the decoded form */

/* Shape and types, kept in the unused last operand slot (these
 * instructions have at most 4 operands). */
typedef struct MmaDesc {
    uint8_t m, n;
    uint16_t k;
    uint8_t ta, tb, tc, td;     /* Ek; wmma.load/store: ta = element */
} MmaDesc;

#define DESC_SLOT (EMU_MAX_OPNDS - 1)

/* EmuInsn.aux */
enum {
    MF_SAT = 1u << 0,           /* .satfinite */
    MF_XOR = 1u << 1,           /* b1: .xor.popc (else .and.popc) */
    MF_WMMA = 1u << 2,          /* wmma fragment sizes (repeated slots) */
    MF_COL = 1u << 3,           /* wmma.load/store: .col */
    MF_TRANS = 1u << 4,         /* ldmatrix/stmatrix .trans */
    MF_ROLE_SH = 5,             /* wmma.load/store: MmaRole, 2 bits */
    MF_RND_SH = 8,              /* FP_RN .. FP_RP, 2 bits */
    MF_NUM_SH = 10,             /* ldmatrix/stmatrix: matrices, 3 bits */
    MF_ACOL = 1u << 13,         /* mma.m8n8k4 .f16: A is .col */
    MF_BCOL = 1u << 14,         /* mma.m8n8k4 .f16: B is .col */
};

static inline MmaDesc desc_of(const EmuInsn *i)
{
    MmaDesc d;
    memcpy(&d, &i->o[DESC_SLOT].imm, sizeof(d));
    return d;
}

/* Matrix dimensions of a role. */
static void role_dims(const MmaDesc *d, MmaRole r, unsigned *rows,
                      unsigned *cols)
{
    *rows = r == MMA_B ? d->k : d->m;
    *cols = r == MMA_A ? d->k : d->n;
}

/* Elements per register of a fragment of kind k in role r. */
static unsigned per_reg(MmaRole r, Ek k)
{
    if (r == MMA_C) {
        return k == EK_F16 ? 2 : 1;
    }
    return ek_epr(k);
}

/* Registers of a fragment: the distinct elements, except wmma's f16 A/B
 * fragments, which are 8 registers whatever the shape. */
static unsigned frag_regs(MmaRole r, Ek k, unsigned rows, unsigned cols,
                          bool wmma)
{
    if (wmma && r != MMA_C && k == EK_F16) {
        return 8;
    }
    return rows * cols / 32 / per_reg(r, k);
}

/* ------------------------------------------------ register access */

static inline uint32_t vec_slot(const EmuCtx *x, const EmuOpnd *o,
                                unsigned r)
{
    if (o->kind == EO_VEC) {
        return x->func->vslots[o->reg + r];
    }
    return o->kind == EO_REG ? o->reg + r : EMU_NOREG;
}

#define MAX_A (16 * 256)        /* m16n8k256 .b1 */
#define MAX_B (256 * 8)
#define MAX_C 256
#define MAX_FA 512              /* float A: m32n8k16, fp8 m16n8k32 */
#define MAX_FB 512              /* float B: m8n32k16 */

/* The rows x cols matrix held by operand o, as raw element bits. */
static void gather(EmuCtx *x, const EmuOpnd *o, MmaRole role, Ek k,
                   unsigned rows, unsigned cols, uint64_t *out)
{
    unsigned u = rows * cols / 32, bits = ek_bits[k];
    unsigned per = per_reg(role, k);
    uint64_t emask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++) {
        for (unsigned e = 0; e < u; e++) {
            unsigned r, c;
            uint32_t s = vec_slot(x, o, e / per);
            uint64_t v = s == EMU_NOREG
                ? 0 : x->regs[(size_t)s * EMU_WARP_SIZE + lane];
            mma_elem_pos(role, rows, cols, per, lane, e, &r, &c);
            out[r * cols + c] = (v >> ((e % per) * bits)) & emask;
        }
    }
}

/* Register values of a fragment from its matrix: nslots slots per lane,
 * slot s holding element s mod (rows*cols/32).  vals[r * 32 + lane]. */
static void pack(MmaRole role, Ek k, unsigned rows, unsigned cols,
                 unsigned nslots, const uint64_t *m, uint64_t *vals)
{
    unsigned u = rows * cols / 32, bits = ek_bits[k];
    unsigned per = per_reg(role, k);
    memset(vals, 0, sizeof(uint64_t) * EMU_WARP_SIZE * (nslots / per));
    for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++) {
        for (unsigned s = 0; s < nslots; s++) {
            unsigned r, c;
            mma_elem_pos(role, rows, cols, per, lane, s % u, &r, &c);
            vals[(s / per) * EMU_WARP_SIZE + lane] |=
                m[r * cols + c] << ((s % per) * bits);
        }
    }
}

static void write_regs(EmuCtx *x, const EmuOpnd *o, unsigned nregs,
                       const uint64_t *vals)
{
    for (unsigned r = 0; r < nregs; r++) {
        uint32_t s = vec_slot(x, o, r);
        if (s != EMU_NOREG) {
            memcpy(emu_slot(x, s), vals + r * EMU_WARP_SIZE,
                   sizeof(uint64_t) * EMU_WARP_SIZE);
        }
    }
}

static bool whole_warp(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    if (mask == 0xffffffffu) {
        return true;
    }
    unsigned lane = (unsigned)__builtin_ctz(~mask);
    emu_fault(x, EMU_ERR_ILLEGAL_INSTRUCTION, mask ? (unsigned)
              __builtin_ctz(mask) : 0, 0, 0, PTX_SPACE_NONE,
              "%s needs all 32 lanes of the warp (.sync.aligned); lane %u "
              "does not take part (active mask 0x%08x)",
              ptx_opinfo((PtxOpcode)i->op)->name, lane, mask);
    return false;
}

/* ------------------------------------------------ exact values */

enum { XC_ZERO, XC_FIN, XC_INF, XC_NAN };

/* A decoded float: value (-1)^neg * m * 2^e. */
typedef struct Xv {
    uint8_t cls;
    bool neg;
    int16_t e;
    uint64_t m;
} Xv;

static Xv xdecode(Ek k, uint64_t b)
{
    unsigned eb, mb;
    bool e4m3 = false;
    switch (k) {
    case EK_F16: eb = 5; mb = 10; break;
    case EK_BF16: eb = 8; mb = 7; break;
    case EK_TF32: b &= ~(uint64_t)0x1fff; eb = 8; mb = 23; break;
    case EK_F32: eb = 8; mb = 23; break;
    case EK_F64: eb = 11; mb = 52; break;
    case EK_E4M3: eb = 4; mb = 3; e4m3 = true; break;
    default: eb = 5; mb = 2; break;         /* e5m2 */
    }
    Xv v = { XC_FIN, (b >> (eb + mb)) & 1, 0, 0 };
    uint64_t ef = (b >> mb) & ((1ull << eb) - 1);
    uint64_t mf = b & ((1ull << mb) - 1);
    int bias = (1 << (eb - 1)) - 1;
    if (e4m3 ? (ef == 15 && mf == 7) : ef == (1ull << eb) - 1) {
        v.cls = (e4m3 || mf) ? XC_NAN : XC_INF;
    } else if (ef == 0) {
        v.cls = mf ? XC_FIN : XC_ZERO;
        v.m = mf;
        v.e = (int16_t)(1 - bias - (int)mb);
    } else {
        v.m = mf | (1ull << mb);
        v.e = (int16_t)((int)ef - bias - (int)mb);
    }
    return v;
}

/* An exact accumulator: the positive and negative terms summed apart in
 * fixed point (bit 0 weighs 2^XMIN), wide enough for any sum of a few
 * hundred f64 products (2^-2148 .. 2^2060). */
#define XL 70
#define XMIN (-2240)

typedef struct Xacc {
    uint64_t p[XL], n[XL];
    int lo, hi;                 /* limbs in use, hi < lo when empty */
} Xacc;

static void xadd(Xacc *a, bool neg, unsigned __int128 m, int e)
{
    if (!m) {
        return;
    }
    unsigned sh = (unsigned)(e - XMIN), li = sh >> 6, b = sh & 63;
    unsigned __int128 low = m << b;
    uint64_t w[3] = { (uint64_t)low, (uint64_t)(low >> 64),
                      b ? (uint64_t)(m >> (128 - b)) : 0 };
    uint64_t *v = neg ? a->n : a->p, c = 0;
    unsigned j;
    for (j = 0; (j < 3 || c) && li + j < XL; j++) {
        uint64_t add = j < 3 ? w[j] : 0;
        uint64_t s = v[li + j] + add;
        uint64_t c1 = s < add;
        v[li + j] = s + c;
        c = c1 | (v[li + j] < c);
    }
    if ((int)li < a->lo) {
        a->lo = (int)li;
    }
    if ((int)(li + j - 1) > a->hi) {
        a->hi = (int)(li + j - 1);
    }
}

static void xclear(Xacc *a)
{
    if (a->hi >= a->lo) {
        size_t n = (size_t)(a->hi - a->lo + 1) * sizeof(uint64_t);
        memset(a->p + a->lo, 0, n);
        memset(a->n + a->lo, 0, n);
    }
    a->lo = XL;
    a->hi = -1;
}

/* The sum, rounded to f; an exact zero gets the sign zneg.  Clears a. */
static uint64_t xround(Xacc *a, const FpFmt *f, unsigned rnd, bool zneg)
{
    int lo = a->lo, hi = a->hi, cmp = 0;
    for (int j = hi; j >= lo && !cmp; j--) {
        if (a->p[j] != a->n[j]) {
            cmp = a->p[j] > a->n[j] ? 1 : -1;
        }
    }
    if (!cmp) {
        xclear(a);
        return fp_round(f, zneg, 0, 0, false, rnd, 0);
    }
    bool neg = cmp < 0;
    uint64_t *x = neg ? a->n : a->p, *y = neg ? a->p : a->n, br = 0;
    for (int j = lo; j <= hi; j++) {
        uint64_t t = x[j] - y[j];
        uint64_t b1 = x[j] < y[j];
        x[j] = t - br;
        br = b1 | (t < br);
    }
    int tj = hi;
    while (!x[tj]) {
        tj--;
    }
    unsigned nb = 64 - (unsigned)__builtin_clzll(x[tj]);
    uint64_t m = x[tj];
    bool sticky = false;
    int j = tj - 1;
    if (nb < 64) {
        uint64_t nx = j >= lo ? x[j] : 0;
        m = (m << (64 - nb)) | (nx >> nb);
        sticky = (nx & ((1ull << nb) - 1)) != 0;
        j--;
    }
    for (; j >= lo && !sticky; j--) {
        sticky = x[j] != 0;
    }
    int e = XMIN + 64 * tj + (int)nb - 64;
    xclear(a);
    return fp_round(f, neg, m, e, sticky, rnd, 0);
}

/* ------------------------------------------------ mma arithmetic */

static const FpFmt *fmt_of(Ek k)
{
    return k == EK_F16 ? &fp_fmt_f16 : k == EK_F64 ? &fp_fmt_f64
        : &fp_fmt_f32;
}

/* Specials and zero signs of the terms of one dot product. */
typedef struct Terms {
    bool nan, pinf, ninf, pos0, neg0, nonzero;
} Terms;

static void term(Terms *t, Xacc *acc, Xv a, Xv b)
{
    bool neg = a.neg ^ b.neg;
    if (a.cls == XC_NAN || b.cls == XC_NAN) {
        t->nan = true;
    } else if (a.cls == XC_INF || b.cls == XC_INF) {
        if (a.cls == XC_ZERO || b.cls == XC_ZERO) {
            t->nan = true;
        } else if (neg) {
            t->ninf = true;
        } else {
            t->pinf = true;
        }
    } else if (a.cls == XC_ZERO || b.cls == XC_ZERO) {
        if (neg) {
            t->neg0 = true;
        } else {
            t->pos0 = true;
        }
    } else {
        t->nonzero = true;
        xadd(acc, neg, (unsigned __int128)a.m * b.m, a.e + b.e);
    }
}

/* D element bits from the terms and the accumulated finite sum. */
static uint64_t finish(Terms *t, Xacc *acc, Ek td, unsigned rnd)
{
    const FpFmt *f = td == EK_F64 ? &fp_fmt_f64 : &fp_fmt_f32;
    if (t->nan || (t->pinf && t->ninf)) {
        xclear(acc);
        return fmt_of(td)->nan;
    }
    uint64_t r;
    if (t->pinf || t->ninf) {
        xclear(acc);
        r = fp_round(f, t->ninf, 1, 30000, false, FP_RN, 0);
    } else {
        bool zneg = t->nonzero ? rnd == FP_RM
            : (t->neg0 && (!t->pos0 || rnd == FP_RM));
        r = xround(acc, f, rnd, zneg);
    }
    if (td != EK_F16) {
        return r;
    }
    Xv v = xdecode(EK_F32, r);
    if (v.cls == XC_NAN) {
        return FP_NAN16;
    }
    if (v.cls == XC_INF) {
        return ((uint64_t)v.neg << 15) | 0x7c00;
    }
    return fp_round(&fp_fmt_f16, v.neg, v.m, v.e, false, FP_RN, 0);
}

static int64_t ival(Ek k, uint64_t b)
{
    switch (k) {
    case EK_S8: return (int8_t)b;
    case EK_S4: return (int64_t)((b ^ 8) & 15) - 8;
    case EK_S32: return (int32_t)b;
    default: return (int64_t)b;
    }
}

static void compute(const MmaDesc *d, unsigned aux, const uint64_t *ra,
                    const uint64_t *rb, const uint64_t *rc, uint64_t *rd)
{
    unsigned M = d->m, N = d->n, K = d->k;
    Ek ta = (Ek)d->ta, tb = (Ek)d->tb, tc = (Ek)d->tc, td = (Ek)d->td;
    if (!ek_float(ta)) {
        for (unsigned r = 0; r < M; r++) {
            for (unsigned c = 0; c < N; c++) {
                int64_t s = ival(tc, rc[r * N + c]);
                for (unsigned k = 0; k < K; k++) {
                    uint64_t a = ra[r * K + k], b = rb[k * N + c];
                    if (ta == EK_B1) {
                        s += ((aux & MF_XOR) ? a ^ b : a & b) & 1;
                    } else {
                        s += ival(ta, a) * ival(tb, b);
                    }
                }
                if (aux & MF_SAT) {
                    s = s > INT32_MAX ? INT32_MAX
                        : s < INT32_MIN ? INT32_MIN : s;
                }
                rd[r * N + c] = (uint32_t)s;
            }
        }
        return;
    }
    Xv xa[MAX_FA], xb[MAX_FB];
    Xacc acc;
    memset(&acc, 0, sizeof(acc));
    acc.lo = XL;
    acc.hi = -1;
    for (unsigned e = 0; e < M * K; e++) {
        xa[e] = xdecode(ta, ra[e]);
    }
    for (unsigned e = 0; e < K * N; e++) {
        xb[e] = xdecode(tb, rb[e]);
    }
    unsigned rnd = (aux >> MF_RND_SH) & 3;
    Xv one = { XC_FIN, false, 0, 1 };
    for (unsigned r = 0; r < M; r++) {
        for (unsigned c = 0; c < N; c++) {
            Terms t = { 0 };
            for (unsigned k = 0; k < K; k++) {
                term(&t, &acc, xa[r * K + k], xb[k * N + c]);
            }
            term(&t, &acc, xdecode(tc, rc[r * N + c]), one);
            rd[r * N + c] = finish(&t, &acc, td, rnd);
        }
    }
}

/* For wgmma (ops_wgmma.c): compute() on blocks of w columns of D, w as
 * large as compute()'s B and C buffers allow, whatever n is. */
bool emu_mma_compute(unsigned m, unsigned n, unsigned k, unsigned ta,
                     unsigned tb, unsigned tc, unsigned td, bool sat,
                     bool xor_popc, const uint64_t *a, const uint64_t *b,
                     const uint64_t *c, uint64_t *d)
{
    MmaDesc md = { (uint8_t)m, 1, (uint16_t)k, (uint8_t)ek_of(ta),
                   (uint8_t)ek_of(tb), (uint8_t)ek_of(tc),
                   (uint8_t)ek_of(td) };
    if (m == 0 || m > MAX_C || k == 0 || m * k > MAX_A || k > MAX_FB ||
        !md.ta || !md.tb || !md.tc || !md.td ||
        (ek_float((Ek)md.ta) && m * k > MAX_FA) ||
        (ek_float((Ek)md.ta) != ek_float((Ek)md.tb))) {
        return false;
    }
    unsigned aux = (sat ? MF_SAT : 0) | (xor_popc ? MF_XOR : 0) |
                   (FP_RN << MF_RND_SH);
    unsigned w = MAX_FB / k < MAX_C / m ? MAX_FB / k : MAX_C / m;
    w = w > 255 ? 255 : w;                  /* MmaDesc.n is 8 bits */
    uint64_t bc[MAX_FB], cc[MAX_C], dc[MAX_C];
    for (unsigned j0 = 0; j0 < n; j0 += w) {
        unsigned nw = n - j0 < w ? n - j0 : w;
        md.n = (uint8_t)nw;
        for (unsigned r = 0; r < k; r++) {
            memcpy(bc + r * nw, b + (size_t)r * n + j0, nw * sizeof(*b));
        }
        for (unsigned r = 0; r < m; r++) {
            memcpy(cc + r * nw, c + (size_t)r * n + j0, nw * sizeof(*c));
        }
        compute(&md, aux, a, bc, cc, dc);
        for (unsigned r = 0; r < m; r++) {
            memcpy(d + (size_t)r * n + j0, dc + r * nw, nw * sizeof(*d));
        }
    }
    return true;
}

/* mma.sync / wmma.mma: d, a, b, c */
static void h_mma(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    if (!whole_warp(x, i, mask)) {
        return;
    }
    uint64_t ra[MAX_A], rb[MAX_B], rc[MAX_C], rd[MAX_C];
    uint64_t vals[8 * EMU_WARP_SIZE];
    MmaDesc d = desc_of(i);
    gather(x, &i->o[1], MMA_A, (Ek)d.ta, d.m, d.k, ra);
    gather(x, &i->o[2], MMA_B, (Ek)d.tb, d.k, d.n, rb);
    gather(x, &i->o[3], MMA_C, (Ek)d.tc, d.m, d.n, rc);
    compute(&d, i->aux, ra, rb, rc, rd);
    unsigned u = d.m * d.n / 32, per = per_reg(MMA_C, (Ek)d.td);
    pack(MMA_C, (Ek)d.td, d.m, d.n, u, rd, vals);
    write_regs(x, &i->o[0], u / per, vals);
}

static inline uint64_t lane_reg(EmuCtx *x, const EmuOpnd *o, unsigned r,
                                unsigned lane)
{
    uint32_t s = vec_slot(x, o, r);
    return s == EMU_NOREG ? 0 : x->regs[(size_t)s * EMU_WARP_SIZE + lane];
}

/* mma.m8n8k4 .f16: four independent 8 x 8 x 4 products, one per
 * quad-pair (mma_layout.h); A and B may be .row or .col. */
static void h_mma884(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    if (!whole_warp(x, i, mask)) {
        return;
    }
    MmaDesc d = desc_of(i);
    bool acol = i->aux & MF_ACOL, bcol = i->aux & MF_BCOL;
    bool cf32 = d.tc == EK_F32, df32 = d.td == EK_F32;
    uint64_t ra[32], rb[32], rc[64], rd[64], vals[8 * EMU_WARP_SIZE];
    memset(vals, 0, sizeof(vals));
    for (unsigned q = 0; q < 4; q++) {
        for (unsigned l = 0; l < 8; l++) {
            unsigned lane = 16 * (l >> 2) + 4 * q + (l & 3), r, c;
            for (unsigned e = 0; e < 4; e++) {
                mma884_pos(MMA_A, acol, 0, lane, e, &r, &c);
                ra[r * 4 + c] = (lane_reg(x, &i->o[1], e / 2, lane)
                                 >> (16 * (e % 2))) & 0xffff;
                mma884_pos(MMA_B, bcol, 0, lane, e, &r, &c);
                rb[r * 8 + c] = (lane_reg(x, &i->o[2], e / 2, lane)
                                 >> (16 * (e % 2))) & 0xffff;
            }
            for (unsigned e = 0; e < 8; e++) {
                mma884_pos(MMA_C, 0, cf32, lane, e, &r, &c);
                uint64_t v = cf32 ? lane_reg(x, &i->o[3], e, lane)
                    : lane_reg(x, &i->o[3], e / 2, lane) >> (16 * (e % 2));
                rc[r * 8 + c] = v & (cf32 ? 0xffffffffu : 0xffffu);
            }
        }
        compute(&d, i->aux, ra, rb, rc, rd);
        for (unsigned l = 0; l < 8; l++) {
            unsigned lane = 16 * (l >> 2) + 4 * q + (l & 3), r, c;
            for (unsigned e = 0; e < 8; e++) {
                mma884_pos(MMA_C, 0, df32, lane, e, &r, &c);
                unsigned reg = df32 ? e : e / 2;
                vals[reg * EMU_WARP_SIZE + lane] |=
                    rd[r * 8 + c] << (df32 ? 0 : 16 * (e % 2));
            }
        }
    }
    write_regs(x, &i->o[0], df32 ? 8 : 4, vals);
}

/* ------------------------------------------------ memory forms */

/* Element (r, c) of a fragment matrix in memory: its bit offset from the
 * lane's base address, for a row- or column-major matrix with the given
 * stride (in elements). */
static inline uint64_t elem_bitoff(unsigned aux, uint64_t stride,
                                   unsigned r, unsigned c, unsigned bits)
{
    uint64_t idx = (aux & MF_COL) ? c * stride + r : r * stride + c;
    return idx * bits;
}

/* wmma.load.{a,b,c}: d, [p] {, stride} */
static void h_wmma_load(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    if (!whole_warp(x, i, mask)) {
        return;
    }
    uint64_t vals[8 * EMU_WARP_SIZE];
    MmaDesc d = desc_of(i);
    MmaRole role = (MmaRole)((i->aux >> MF_ROLE_SH) & 3);
    Ek k = (Ek)d.ta;
    unsigned rows, cols, bits = ek_bits[k], per = per_reg(role, k);
    role_dims(&d, role, &rows, &cols);
    unsigned u = rows * cols / 32;
    unsigned nregs = frag_regs(role, k, rows, cols, true);
    unsigned nslots = nregs * per;
    uint64_t emask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    PtxSpace sp = (PtxSpace)i->space;
    memset(vals, 0, sizeof(uint64_t) * EMU_WARP_SIZE * nregs);
    for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++) {
        uint64_t base = emu_lane_addr(x, &i->o[1], lane);
        uint64_t stride = i->nopnd > 2 ? (uint32_t)emu_src(x, &i->o[2], lane)
            : (i->aux & MF_COL) ? rows : cols;
        for (unsigned s = 0; s < nslots; s++) {
            unsigned r, c;
            mma_elem_pos(role, rows, cols, per, lane, s % u, &r, &c);
            uint64_t off = elem_bitoff(i->aux, stride, r, c, bits);
            unsigned sz = bits < 8 ? 1 : bits / 8;
            const uint8_t *p = emu_access(x, lane, sp, base + off / 8, sz,
                                          EMU_ACC_READ);
            if (!p) {
                return;
            }
            uint64_t v = 0;
            memcpy(&v, p, sz);
            v = (v >> (off % 8)) & emask;
            vals[(s / per) * EMU_WARP_SIZE + lane] |=
                v << ((s % per) * bits);
        }
    }
    write_regs(x, &i->o[0], nregs, vals);
}

/* wmma.store.d: [p], d {, stride} */
static void h_wmma_store(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    if (!whole_warp(x, i, mask)) {
        return;
    }
    MmaDesc d = desc_of(i);
    Ek k = (Ek)d.ta;
    unsigned rows = d.m, cols = d.n, bits = ek_bits[k];
    unsigned per = per_reg(MMA_C, k), u = rows * cols / 32, sz = bits / 8;
    uint64_t emask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    PtxSpace sp = (PtxSpace)i->space;
    bool changed = false;
    for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++) {
        uint64_t base = emu_lane_addr(x, &i->o[0], lane);
        uint64_t stride = i->nopnd > 2 ? (uint32_t)emu_src(x, &i->o[2], lane)
            : (i->aux & MF_COL) ? rows : cols;
        for (unsigned e = 0; e < u; e++) {
            unsigned r, c;
            mma_elem_pos(MMA_C, rows, cols, per, lane, e, &r, &c);
            uint32_t s = vec_slot(x, &i->o[1], e / per);
            uint64_t v = s == EMU_NOREG
                ? 0 : x->regs[(size_t)s * EMU_WARP_SIZE + lane];
            v = (v >> ((e % per) * bits)) & emask;
            uint64_t off = elem_bitoff(i->aux, stride, r, c, bits) / 8;
            uint8_t *p = emu_access(x, lane, sp, base + off, sz,
                                    EMU_ACC_WRITE);
            if (!p) {
                return;
            }
            changed |= memcmp(p, &v, sz) != 0;
            memcpy(p, &v, sz);
        }
    }
    if (changed) {
        emu_progress(x->cta);
    }
}

/* ------------------------------------------------ ldmatrix & co */

/* The 16-bit element of an 8 x 8 matrix that lane `lane` holds in half h,
 * as (row, col) of the matrix in memory (.trans swaps them). */
static inline void ldm_mem_pos(unsigned lane, unsigned h, bool tr,
                               unsigned *r, unsigned *c)
{
    unsigned row, col;
    ldm_elem_pos(lane, h, &row, &col);
    *r = tr ? col : row;
    *c = tr ? row : col;
}

/* ldmatrix.sync.aligned.m8n8.xN{.trans}.b16: d, [p] */
static void h_ldmatrix(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    if (!whole_warp(x, i, mask)) {
        return;
    }
    unsigned nm = (i->aux >> MF_NUM_SH) & 7;
    bool tr = i->aux & MF_TRANS;
    uint16_t mat[4][8][8];
    uint64_t vals[4 * EMU_WARP_SIZE];
    PtxSpace sp = (PtxSpace)i->space;
    for (unsigned q = 0; q < nm; q++) {
        for (unsigned r = 0; r < 8; r++) {
            unsigned lane = 8 * q + r;
            uint64_t a = emu_lane_addr(x, &i->o[1], lane);
            const uint8_t *p = emu_access(x, lane, sp, a, 16,
                                          EMU_ACC_READ);
            if (!p) {
                return;
            }
            memcpy(mat[q][r], p, 16);
        }
    }
    for (unsigned q = 0; q < nm; q++) {
        for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++) {
            uint64_t v = 0;
            for (unsigned h = 0; h < 2; h++) {
                unsigned r, c;
                ldm_mem_pos(lane, h, tr, &r, &c);
                v |= (uint64_t)mat[q][r][c] << (16 * h);
            }
            vals[q * EMU_WARP_SIZE + lane] = v;
        }
    }
    write_regs(x, &i->o[0], nm, vals);
}

/* stmatrix.sync.aligned.m8n8.xN{.trans}.b16: [p], r */
static void h_stmatrix(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    if (!whole_warp(x, i, mask)) {
        return;
    }
    unsigned nm = (i->aux >> MF_NUM_SH) & 7;
    bool tr = i->aux & MF_TRANS;
    uint16_t mat[4][8][8];
    for (unsigned q = 0; q < nm; q++) {
        uint32_t s = vec_slot(x, &i->o[1], q);
        for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++) {
            uint64_t v = s == EMU_NOREG
                ? 0 : x->regs[(size_t)s * EMU_WARP_SIZE + lane];
            for (unsigned h = 0; h < 2; h++) {
                unsigned r, c;
                ldm_mem_pos(lane, h, tr, &r, &c);
                mat[q][r][c] = (uint16_t)(v >> (16 * h));
            }
        }
    }
    PtxSpace sp = (PtxSpace)i->space;
    bool changed = false;
    for (unsigned q = 0; q < nm; q++) {
        for (unsigned r = 0; r < 8; r++) {
            unsigned lane = 8 * q + r;
            uint64_t a = emu_lane_addr(x, &i->o[0], lane);
            uint8_t *p = emu_access(x, lane, sp, a, 16,
                                    EMU_ACC_WRITE);
            if (!p) {
                return;
            }
            changed |= memcmp(p, mat[q][r], 16) != 0;
            memcpy(p, mat[q][r], 16);
        }
    }
    if (changed) {
        emu_progress(x->cta);
    }
}

/* movmatrix.sync.aligned.m8n8.trans.b16: d, a */
static void h_movmatrix(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    if (!whole_warp(x, i, mask)) {
        return;
    }
    uint16_t mat[8][8];
    uint64_t vals[EMU_WARP_SIZE];
    for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++) {
        uint64_t v = emu_src(x, &i->o[1], lane);
        for (unsigned h = 0; h < 2; h++) {
            unsigned r, c;
            ldm_elem_pos(lane, h, &r, &c);
            mat[r][c] = (uint16_t)(v >> (16 * h));
        }
    }
    for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++) {
        uint64_t v = 0;
        for (unsigned h = 0; h < 2; h++) {
            unsigned r, c;
            ldm_elem_pos(lane, h, &r, &c);
            v |= (uint64_t)mat[c][r] << (16 * h);
        }
        vals[lane] = v;
    }
    write_regs(x, &i->o[0], 1, vals);
}

/* ------------------------------------------------ selector */

/* Shapes: m, n, k from the modifier. */
typedef struct ShapeDim {
    uint16_t mod;
    uint8_t m, n;
    uint16_t k;
} ShapeDim;

static const ShapeDim shapes[] = {
    { PTX_M_M16N8K4, 16, 8, 4 },     { PTX_M_M16N8K8, 16, 8, 8 },
    { PTX_M_M16N8K16, 16, 8, 16 },   { PTX_M_M16N8K32, 16, 8, 32 },
    { PTX_M_M16N8K64, 16, 8, 64 },   { PTX_M_M16N8K128, 16, 8, 128 },
    { PTX_M_M16N8K256, 16, 8, 256 }, { PTX_M_M8N8K4, 8, 8, 4 },
    { PTX_M_M8N8K16, 8, 8, 16 },     { PTX_M_M8N8K32, 8, 8, 32 },
    { PTX_M_M8N8K128, 8, 8, 128 },   { PTX_M_M16N16K16, 16, 16, 16 },
    { PTX_M_M32N8K16, 32, 8, 16 },   { PTX_M_M8N32K16, 8, 32, 16 },
    { PTX_M_M16N16K8, 16, 16, 8 },
};

static const ShapeDim *shape_of(const IrInsn *in)
{
    PtxMod s = ir_insn_mod(in, PTX_MG_SHAPE);
    for (size_t j = 0; j < sizeof(shapes) / sizeof(shapes[0]); j++) {
        if (shapes[j].mod == s) {
            return &shapes[j];
        }
    }
    return NULL;
}

/* Input families and the shapes each allows (PTX ISA 9.0, 9.7.14.5.14
 * "mma" and 9.7.14.4 "wmma.mma"): K of the m16n8 (m8n8 for 8-row ones)
 * shapes, as a bit per shape index of shapes[]. */
enum { FAM_F16, FAM_BF16, FAM_TF32, FAM_F64, FAM_I8, FAM_I4, FAM_B1,
       FAM_F8, FAM_N };

static int family(Ek k)
{
    switch (k) {
    case EK_F16: return FAM_F16;
    case EK_BF16: return FAM_BF16;
    case EK_TF32: return FAM_TF32;
    case EK_F64: return FAM_F64;
    case EK_S8: case EK_U8: return FAM_I8;
    case EK_S4: case EK_U4: return FAM_I4;
    case EK_B1: return FAM_B1;
    case EK_E4M3: case EK_E5M2: return FAM_F8;
    default: return -1;
    }
}

#define SH(mod) (1u << shape_index(PTX_M_##mod))

static unsigned shape_index(unsigned mod)
{
    for (unsigned j = 0; j < sizeof(shapes) / sizeof(shapes[0]); j++) {
        if (shapes[j].mod == mod) {
            return j;
        }
    }
    return 31;
}

static unsigned mma_shapes(int fam)
{
    switch (fam) {
    case FAM_F16: return SH(M16N8K8) | SH(M16N8K16);
    case FAM_BF16: return SH(M16N8K8) | SH(M16N8K16);
    case FAM_TF32: return SH(M16N8K4) | SH(M16N8K8);
    case FAM_F64:               /* m16n8k*: sm_90 */
        return SH(M8N8K4) | SH(M16N8K4) | SH(M16N8K8) | SH(M16N8K16);
    case FAM_I8: return SH(M8N8K16) | SH(M16N8K16) | SH(M16N8K32);
    case FAM_I4: return SH(M8N8K32) | SH(M16N8K32) | SH(M16N8K64);
    case FAM_B1: return SH(M8N8K128) | SH(M16N8K128) | SH(M16N8K256);
    case FAM_F8: return SH(M16N8K16) | SH(M16N8K32);
    default: return 0;
    }
}

static unsigned wmma_shapes(int fam)
{
    unsigned f16 = SH(M16N16K16) | SH(M32N8K16) | SH(M8N32K16);
    switch (fam) {
    case FAM_F16: case FAM_BF16: case FAM_I8: return f16;
    case FAM_TF32: return SH(M16N16K8);
    case FAM_F64: return SH(M8N8K4);
    case FAM_I4: return SH(M8N8K32);
    case FAM_B1: return SH(M8N8K128);
    default: return 0;
    }
}

/* C/D types each family allows. */
static bool acc_ok(int fam, Ek tc, Ek td)
{
    switch (fam) {
    case FAM_F16: case FAM_F8:
        return (tc == EK_F16 || tc == EK_F32) &&
               (td == EK_F16 || td == EK_F32);
    case FAM_BF16: case FAM_TF32: return tc == EK_F32 && td == EK_F32;
    case FAM_F64: return tc == EK_F64 && td == EK_F64;
    default: return tc == EK_S32 && td == EK_S32;
    }
}

static bool vec_ok(const EmuOpnd *o, unsigned n)
{
    return (o->kind == EO_VEC && o->n == n) ||
           (o->kind == EO_REG && n == 1 && o->n <= 1);
}

static void put_desc(EmuInsn *ei, MmaDesc d)
{
    memset(&ei->o[DESC_SLOT], 0, sizeof(ei->o[DESC_SLOT]));
    memcpy(&ei->o[DESC_SLOT].imm, &d, sizeof(d));
}

/* mma.sync.aligned and wmma.mma.sync.aligned */
static EmuHandler select_mma(const IrInsn *in, EmuInsn *ei, bool wmma)
{
    const ShapeDim *sd = shape_of(in);
    Ek td, ta, tb, tc;
    if (!sd || ei->nopnd != 4) {
        return NULL;
    }
    if (in->ntypes == 2 && wmma) {
        td = ek_of(in->types[0]);
        tc = ek_of(in->types[1]);
        ta = tb = EK_F16;
    } else if (in->ntypes == 4) {
        td = ek_of(in->types[0]);
        ta = ek_of(in->types[1]);
        tb = ek_of(in->types[2]);
        tc = ek_of(in->types[3]);
    } else {
        return NULL;
    }
    int fam = family(ta);
    if (fam < 0 || family(tb) != fam || !acc_ok(fam, tc, td)) {
        return NULL;
    }
    if (fam == FAM_F16 && ta != tb) {
        return NULL;
    }
    PtxMod la = ir_insn_mod(in, PTX_MG_LAYOUT);
    PtxMod lb = ir_insn_mod(in, PTX_MG_LAYOUT2);
    bool qp = !wmma && fam == FAM_F16 && sd->mod == PTX_M_M8N8K4;
    unsigned allowed = wmma ? wmma_shapes(fam) : mma_shapes(fam);
    if (!qp && !(allowed & (1u << (unsigned)(sd - shapes)))) {
        return NULL;
    }
    if (!wmma && !qp && (la != PTX_M_ROW || lb != PTX_M_COL2)) {
        return NULL;
    }
    if (qp && (la == PTX_M_NONE || lb == PTX_M_NONE)) {
        return NULL;
    }
    if (wmma && (la == PTX_M_NONE || lb == PTX_M_NONE)) {
        return NULL;
    }
    bool intfam = fam == FAM_I8 || fam == FAM_I4;
    bool sat = ir_insn_mod(in, PTX_MG_SATFINITE) != PTX_M_NONE;
    if (sat && !intfam) {
        return NULL;
    }
    PtxMod bop = ir_insn_mod(in, PTX_MG_BOOLOP);
    PtxMod rop = ir_insn_mod(in, PTX_MG_REDOP);
    if (fam == FAM_B1) {
        if ((bop != PTX_M_BOOL_AND && bop != PTX_M_BOOL_XOR) ||
            rop != PTX_M_POPC) {
            return NULL;
        }
    } else if (bop != PTX_M_NONE || rop != PTX_M_NONE) {
        return NULL;
    }
    unsigned rnd = FP_RN;
    switch (ir_insn_mod(in, PTX_MG_ROUND)) {
    case PTX_M_NONE: case PTX_M_RN: break;
    case PTX_M_RZ: rnd = FP_RZ; break;
    case PTX_M_RM: rnd = FP_RM; break;
    case PTX_M_RP: rnd = FP_RP; break;
    default: return NULL;
    }
    if (rnd != FP_RN && !(wmma && fam == FAM_F64)) {
        return NULL;
    }
    if (ir_insn_mod(in, PTX_MG_KIND) || ir_insn_mod(in, PTX_MG_BLOCKSCALE)
        || ir_insn_mod(in, PTX_MG_SCALE)) {
        return NULL;
    }
    MmaDesc d = { sd->m, sd->n, sd->k, (uint8_t)ta, (uint8_t)tb,
                  (uint8_t)tc, (uint8_t)td };
    if (qp) {
        /* per lane: A, B 2 x .f16x2; C, D 4 x .f16x2 or 8 x .f32 */
        if (!vec_ok(&ei->o[0], td == EK_F16 ? 4 : 8) ||
            !vec_ok(&ei->o[1], 2) || !vec_ok(&ei->o[2], 2) ||
            !vec_ok(&ei->o[3], tc == EK_F16 ? 4 : 8)) {
            return NULL;
        }
        put_desc(ei, d);
        ei->aux = (uint16_t)((la == PTX_M_COL ? MF_ACOL : 0) |
                             (lb == PTX_M_COL2 ? MF_BCOL : 0));
        return h_mma884;
    }
    if (!vec_ok(&ei->o[0], frag_regs(MMA_C, td, d.m, d.n, wmma)) ||
        !vec_ok(&ei->o[1], frag_regs(MMA_A, ta, d.m, d.k, wmma)) ||
        !vec_ok(&ei->o[2], frag_regs(MMA_B, tb, d.k, d.n, wmma)) ||
        !vec_ok(&ei->o[3], frag_regs(MMA_C, tc, d.m, d.n, wmma))) {
        return NULL;
    }
    put_desc(ei, d);
    ei->aux = (uint16_t)((sat ? MF_SAT : 0) |
                         (bop == PTX_M_BOOL_XOR ? MF_XOR : 0) |
                         (wmma ? MF_WMMA : 0) | (rnd << MF_RND_SH));
    return h_mma;
}

/* Element types each wmma fragment may have, per family of shape. */
static bool wmma_frag_ok(MmaRole role, Ek k, const ShapeDim *sd,
                         bool col, bool store)
{
    unsigned si = 1u << (unsigned)(sd - shapes);
    if (role == MMA_C) {
        switch (k) {
        case EK_F16: return (wmma_shapes(FAM_F16) & si) != 0;
        case EK_F32: return ((wmma_shapes(FAM_F16) |
                              wmma_shapes(FAM_TF32)) & si) != 0;
        case EK_S32: return ((wmma_shapes(FAM_I8) | wmma_shapes(FAM_I4) |
                              wmma_shapes(FAM_B1)) & si) != 0;
        case EK_F64: return (wmma_shapes(FAM_F64) & si) != 0;
        default: return false;
        }
    }
    if (store) {
        return false;
    }
    int fam = family(k);
    if (fam < 0 || !(wmma_shapes(fam) & si)) {
        return false;
    }
    /* sub-byte A is row-major only, B column-major only */
    if (fam == FAM_I4 || fam == FAM_B1) {
        return role == MMA_A ? !col : col;
    }
    return true;
}

static EmuHandler select_wmma_mem(const IrInsn *in, EmuInsn *ei,
                                  bool store)
{
    const ShapeDim *sd = shape_of(in);
    if (!sd || in->ntypes != 1 || ei->nopnd < 2 || ei->nopnd > 3) {
        return NULL;
    }
    MmaRole role;
    switch (ir_insn_mod(in, PTX_MG_FRAG)) {
    case PTX_M_FRAG_A: role = MMA_A; break;
    case PTX_M_FRAG_B: role = MMA_B; break;
    case PTX_M_FRAG_C: role = MMA_C; break;
    case PTX_M_FRAG_D: role = MMA_C; break;
    default: return NULL;
    }
    if (store != (ir_insn_mod(in, PTX_MG_FRAG) == PTX_M_FRAG_D)) {
        return NULL;
    }
    PtxMod lay = ir_insn_mod(in, PTX_MG_LAYOUT);
    if (lay != PTX_M_ROW && lay != PTX_M_COL) {
        return NULL;
    }
    bool col = lay == PTX_M_COL;
    Ek k = ek_of(in->types[0]);
    if (k == EK_NONE || !wmma_frag_ok(role, k, sd, col, store)) {
        return NULL;
    }
    MmaDesc d = { sd->m, sd->n, sd->k, (uint8_t)k, 0, 0, 0 };
    unsigned rows, cols;
    role_dims(&d, role, &rows, &cols);
    if (!vec_ok(&ei->o[store ? 1 : 0],
                frag_regs(role, k, rows, cols, true)) ||
        ei->o[store ? 0 : 1].kind != EO_ADDR) {
        return NULL;
    }
    put_desc(ei, d);
    ei->aux = (uint16_t)((col ? MF_COL : 0) | (role << MF_ROLE_SH));
    return store ? h_wmma_store : h_wmma_load;
}

/* ldmatrix/stmatrix .m8n8 .x1/.x2/.x4 .b16 */
static EmuHandler select_ldst_matrix(const IrInsn *in, EmuInsn *ei,
                                     bool store)
{
    unsigned n;
    switch (ir_insn_mod(in, PTX_MG_NUM)) {
    case PTX_M_X1: n = 1; break;
    case PTX_M_X2: n = 2; break;
    case PTX_M_X4: n = 4; break;
    default: return NULL;
    }
    if (ir_insn_mod(in, PTX_MG_SHAPE) != PTX_M_M8N8 || in->ntypes != 1 ||
        in->types[0] != PTX_T_B16 || ei->nopnd != 2 ||
        !vec_ok(&ei->o[store ? 1 : 0], n) ||
        ei->o[store ? 0 : 1].kind != EO_ADDR) {
        return NULL;
    }
    bool tr = ir_insn_mod(in, PTX_MG_TRANS) != PTX_M_NONE;
    ei->aux = (uint16_t)((n << MF_NUM_SH) | (tr ? MF_TRANS : 0));
    return store ? h_stmatrix : h_ldmatrix;
}

EMU_SELECTOR(mma)
{
    (void)m;
    (void)f;
    EmuHandler h;
    switch ((PtxOpcode)in->op) {
    case PTX_OP_MMA:
        h = select_mma(in, ei, false);
        break;
    case PTX_OP_WMMA_MMA:
        h = select_mma(in, ei, true);
        break;
    case PTX_OP_WMMA_LOAD:
        h = select_wmma_mem(in, ei, false);
        break;
    case PTX_OP_WMMA_STORE:
        h = select_wmma_mem(in, ei, true);
        break;
    case PTX_OP_LDMATRIX:
        h = select_ldst_matrix(in, ei, false);
        break;
    case PTX_OP_STMATRIX:
        h = select_ldst_matrix(in, ei, true);
        break;
    case PTX_OP_MOVMATRIX:
        h = ir_insn_mod(in, PTX_MG_SHAPE) == PTX_M_M8N8 &&
            ir_insn_mod(in, PTX_MG_TRANS) != PTX_M_NONE &&
            ei->nopnd == 2 && ei->o[0].kind == EO_REG ? h_movmatrix : NULL;
        break;
    default:
        return false;
    }
    ei->fn = h;
    return true;
}
