/*
 * tests/check_ops_mma.c: the tensor-core instructions of emu/ops_mma.c
 * (mma.sync, wmma.load/mma/store, ldmatrix, stmatrix, movmatrix), run as
 * hand-written PTX kernels through the public API.
 *
 * References, all independent of the emulator's code:
 *  - mma fragment layouts: isa_pos() below, transcribed shape by shape
 *    from the PTX ISA 9.0 tables ("Matrix fragments for mma.m16n8k16"
 *    etc., section 9.7.14.5), not the generic tiling emu/mma_layout.h
 *    uses.
 *  - wmma layouts are unspecified by the ISA: those kernels go through
 *    memory (wmma.load, wmma.mma, wmma.store), so only the matrices in
 *    memory are compared.
 *  - values: (1) small-integer matrices, exact under every accumulation
 *    model, computed in double; (2) random matrices against a GMP model
 *    of the documented accumulation (exact sum of the products and C,
 *    one rounding; tf32 operands truncated to 19 bits; an f16 D is the
 *    f32 result rounded to f16); integer forms exactly, wrapped or
 *    saturated; (3) ldmatrix/stmatrix/movmatrix element placement
 *    against the ISA's "row laneid/4, columns 2*(laneid%4)+{0,1}".
 */
#include <check.h>
#include <gmp.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/ptxemu.h"

/* ------------------------------------------------------------ types */

enum {
    T_F16, T_BF16, T_TF32, T_F32, T_F64, T_E4M3, T_E5M2, T_S8, T_U8,
    T_S4, T_U4, T_B1, T_S32
};
static const char *const tname[] = {
    "f16", "bf16", "tf32", "f32", "f64", "e4m3", "e5m2", "s8", "u8", "s4",
    "u4", "b1", "s32"
};
static const unsigned tbits[] = {
    16, 16, 32, 32, 64, 8, 8, 8, 8, 4, 4, 1, 32
};
/* exponent and stored mantissa bits of the float types */
static const unsigned teb[] = { 5, 8, 8, 8, 11, 4, 5 };
static const unsigned tmb[] = { 10, 7, 23, 23, 52, 3, 2 };

static bool is_float(int t)
{
    return t <= T_E5M2;
}

/* elements per 32-bit register (f64: per 64-bit register) */
static unsigned epr(int t)
{
    return t == T_F64 ? 1 : 32 / tbits[t];
}

/* ------------------------------------------------------------ rng */

static uint64_t rs = 88172645463325252ull;

static uint64_t rnd64(void)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return rs;
}

static int rndi(int lo, int hi)
{
    return lo + (int)(rnd64() % (uint64_t)(hi - lo + 1));
}

/* ------------------------------------------------------------ values */

/* Exactly representable double -> element bits (test values only). */
static uint64_t enc(int t, double v)
{
    if (!is_float(t)) {
        return (uint64_t)(int64_t)v & (tbits[t] == 64 ? ~0ull
                                       : (1ull << tbits[t]) - 1);
    }
    unsigned eb = teb[t], mb = tmb[t];
    int bias = (1 << (eb - 1)) - 1;
    uint64_t s = 0;
    if (v < 0 || (v == 0 && 1 / v < 0)) {
        s = 1ull << (eb + mb);
        v = -v;
    }
    if (v == 0) {
        return s;
    }
    int e = 0;
    double f = v;
    while (f >= 2) {
        f /= 2;
        e++;
    }
    while (f < 1) {
        f *= 2;
        e--;
    }
    if (e < 1 - bias) {                 /* subnormal */
        double m = v;
        for (int k = 0; k < bias - 1 + (int)mb; k++) {
            m *= 2;
        }
        ck_assert_msg(m == (double)(uint64_t)m, "not exact");
        return s | (uint64_t)m;
    }
    double m = (f - 1);
    for (unsigned k = 0; k < mb; k++) {
        m *= 2;
    }
    ck_assert_msg(m == (double)(uint64_t)m, "%g not exact in %s", v,
                  tname[t]);
    uint64_t out = s | ((uint64_t)(e + bias) << mb) | (uint64_t)m;
    return out;
}

/* Element bits -> (class, sign, integer mantissa, exponent). */
enum { C_ZERO, C_FIN, C_INF, C_NAN };

static int parts(int t, uint64_t b, bool *neg, uint64_t *m, long *e)
{
    unsigned eb = teb[t], mb = tmb[t];
    if (t == T_TF32) {
        b &= ~0x1fffull;                /* documented: truncated */
    }
    long bias = (1L << (eb - 1)) - 1;
    uint64_t ef = (b >> mb) & ((1ull << eb) - 1);
    uint64_t mf = b & ((1ull << mb) - 1);
    *neg = (b >> (eb + mb)) & 1;
    if (t == T_E4M3) {
        if (ef == 15 && mf == 7) {
            return C_NAN;
        }
    } else if (ef == (1ull << eb) - 1) {
        return mf ? C_NAN : C_INF;
    }
    if (ef == 0) {
        *m = mf;
        *e = 1 - bias - (long)mb;
        return mf ? C_FIN : C_ZERO;
    }
    *m = mf | (1ull << mb);
    *e = (long)ef - bias - (long)mb;
    return C_FIN;
}

static double dec(int t, uint64_t b)
{
    bool neg;
    uint64_t m = 0;
    long e = 0;
    int c = parts(t, b, &neg, &m, &e);
    double v = c == C_ZERO ? 0 : c == C_INF ? 1.0 / 0.0
        : c == C_NAN ? 0.0 / 0.0 : (double)m;
    for (; c == C_FIN && e > 0; e--) {
        v *= 2;
    }
    for (; c == C_FIN && e < 0; e++) {
        v /= 2;
    }
    return neg ? -v : v;
}

static int64_t ival(int t, uint64_t b)
{
    switch (t) {
    case T_S8: return (int8_t)b;
    case T_S4: return (b & 8) ? (int64_t)(b & 15) - 16 : (int64_t)(b & 15);
    case T_S32: return (int32_t)b;
    default: return (int64_t)b;
    }
}

/* ------------------------------------------------------------ GMP model */

#define SC 2400                         /* fixed point: bit 0 = 2^-SC */
enum { RN, RZ, RM, RP };

/* acc += (-1)^neg * m1 * m2 * 2^(e1+e2) */
static void acc_add(mpz_t acc, bool neg, uint64_t m1, long e1, uint64_t m2,
                    long e2)
{
    mpz_t t;
    mpz_init_set_ui(t, m1);
    mpz_mul_ui(t, t, m2);
    mpz_mul_2exp(t, t, (mp_bitcnt_t)(e1 + e2 + SC));
    if (neg) {
        mpz_sub(acc, acc, t);
    } else {
        mpz_add(acc, acc, t);
    }
    mpz_clear(t);
}

/* x * 2^-SC rounded to the float type t in direction rnd. */
static uint64_t round_mpz(const mpz_t x, int t, int rnd, bool zneg)
{
    unsigned eb = teb[t], mb = tmb[t];
    long bias = (1L << (eb - 1)) - 1, emin = 1 - bias;
    uint64_t inf = ((1ull << eb) - 1) << mb;
    int sg = mpz_sgn(x);
    if (!sg) {
        return zneg ? 1ull << (eb + mb) : 0;
    }
    bool neg = sg < 0;
    uint64_t sign = (uint64_t)neg << (eb + mb);
    mpz_t a, q;
    mpz_inits(a, q, NULL);
    mpz_abs(a, x);
    long nb = (long)mpz_sizeinbase(a, 2);
    long E = nb - 1 - SC;
    long qe = (E < emin ? emin : E) - (long)mb;
    long sh = qe + SC;
    mpz_tdiv_q_2exp(q, a, (mp_bitcnt_t)sh);
    uint64_t mant = mpz_get_ui(q);
    bool half = sh > 0 && mpz_tstbit(a, (mp_bitcnt_t)(sh - 1));
    bool sticky = sh > 1 && mpz_scan1(a, 0) < (mp_bitcnt_t)(sh - 1);
    bool inexact = half || sticky;
    bool up = rnd == RN ? half && (sticky || (mant & 1))
        : rnd == RZ ? false : rnd == RM ? inexact && neg : inexact && !neg;
    mpz_clears(a, q, NULL);
    mant += up;
    if (mant >> (mb + 1)) {
        mant >>= 1;
        qe++;
    }
    if (!(mant >> mb)) {
        return sign | mant;
    }
    long ef = qe + (long)mb + bias;
    if (ef >= (1L << eb) - 1) {
        bool tomax = rnd == RZ || (rnd == RM && !neg) || (rnd == RP && neg);
        return sign | (tomax ? inf - 1 : inf);
    }
    return sign | ((uint64_t)ef << mb) | (mant & ((1ull << mb) - 1));
}

/* The documented model: one D element from a row of A, a column of B
 * (raw bits) and C. */
static uint64_t model(int ta, int tb, int tc, int td, unsigned K,
                      const uint64_t *arow, unsigned astep,
                      const uint64_t *bcol, unsigned bstep, uint64_t c,
                      int rnd)
{
    bool nan = false, pinf = false, ninf = false, p0 = false, n0 = false;
    bool nz = false;
    mpz_t acc;
    mpz_init(acc);
    for (unsigned k = 0; k <= K; k++) {
        bool na, nb2;
        uint64_t ma = 1, mb2 = 1;
        long ea = 0, eb2 = 0;
        int ca, cb;
        if (k < K) {
            ca = parts(ta, arow[k * astep], &na, &ma, &ea);
            cb = parts(tb, bcol[k * bstep], &nb2, &mb2, &eb2);
        } else {
            ca = parts(tc, c, &na, &ma, &ea);
            cb = C_FIN;
            nb2 = false;
        }
        bool ng = na ^ nb2;
        if (ca == C_NAN || cb == C_NAN) {
            nan = true;
        } else if (ca == C_INF || cb == C_INF) {
            if (ca == C_ZERO || cb == C_ZERO) {
                nan = true;
            } else if (ng) {
                ninf = true;
            } else {
                pinf = true;
            }
        } else if (ca == C_ZERO || cb == C_ZERO) {
            if (ng) {
                n0 = true;
            } else {
                p0 = true;
            }
        } else {
            nz = true;
            acc_add(acc, ng, ma, ea, mb2, eb2);
        }
    }
    int t32 = td == T_F64 ? T_F64 : T_F32;
    uint64_t r;
    if (nan || (pinf && ninf)) {
        mpz_clear(acc);
        return td == T_F64 ? 0x7fffffffffffffffull
            : td == T_F16 ? 0x7fff : 0x7fffffff;
    }
    if (pinf || ninf) {
        r = ((uint64_t)ninf << (teb[t32] + tmb[t32])) |
            (((1ull << teb[t32]) - 1) << tmb[t32]);
    } else {
        bool zneg = nz ? rnd == RM : (n0 && (!p0 || rnd == RM));
        r = round_mpz(acc, t32, rnd, zneg);
    }
    mpz_clear(acc);
    if (td != T_F16) {
        return r;
    }
    /* f16 D: the f32 result rounded to f16 */
    bool ng;
    uint64_t m = 0;
    long e = 0;
    int cl = parts(T_F32, r, &ng, &m, &e);
    if (cl == C_INF) {
        return ((uint64_t)ng << 15) | 0x7c00;
    }
    mpz_t v;
    mpz_init(v);
    if (cl == C_FIN) {
        acc_add(v, ng, m, e, 1, 0);
    }
    uint64_t h = round_mpz(v, T_F16, RN, ng);
    mpz_clear(v);
    return h;
}

/* ------------------------------------------------------------ device */

static ptxemu_device *dev;
static ptxemu_module *mod;

static void setup(void)
{
    ck_assert_int_eq(ptxemu_device_create(NULL, &dev), PTXEMU_SUCCESS);
}

static void teardown(void)
{
    if (mod) {
        ptxemu_module_unload(mod);
    }
    mod = NULL;
    ptxemu_device_destroy(dev);
    dev = NULL;
}

static void load(const char *src)
{
    if (mod) {
        ptxemu_module_unload(mod);
        mod = NULL;
    }
    ptxemu_status st = ptxemu_module_load_string(dev, "mma.ptx", src, 0,
                                                 &mod);
    ck_assert_msg(st == PTXEMU_SUCCESS, "load: %s\n%s",
                  ptxemu_last_error_message(dev), src);
}

static ptxemu_devptr dbuf(const void *src, size_t bytes)
{
    ptxemu_devptr p = 0;
    ck_assert_int_eq(ptxemu_malloc(dev, bytes, &p), PTXEMU_SUCCESS);
    if (src) {
        ck_assert_int_eq(ptxemu_memcpy_htod(dev, p, src, bytes),
                         PTXEMU_SUCCESS);
    } else {
        ck_assert_int_eq(ptxemu_memset(dev, p, 0, bytes), PTXEMU_SUCCESS);
    }
    return p;
}

static ptxemu_status run_k(unsigned threads, ptxemu_devptr *args,
                           unsigned nargs)
{
    ptxemu_function *f = NULL;
    ck_assert_int_eq(ptxemu_module_get_function(mod, "k", &f),
                     PTXEMU_SUCCESS);
    void *params[8];
    for (unsigned k = 0; k < nargs; k++) {
        params[k] = &args[k];
    }
    unsigned grid[3] = { 1, 1, 1 }, block[3] = { threads, 1, 1 };
    ptxemu_status st = ptxemu_launch(f, grid, block, 0, params);
    if (st == PTXEMU_SUCCESS) {
        st = ptxemu_synchronize(dev);
    }
    return st;
}

#define HDR ".version 9.0\n.target sm_90\n.address_size 64\n"            \
            ".visible .entry k(.param .u64 p0, .param .u64 p1, "         \
            ".param .u64 p2, .param .u64 p3)\n{\n"                       \
            ".reg .b32 %r<16>;\n.reg .b64 %rd<32>;\n.reg .pred %p<4>;\n" \
            "ld.param.u64 %rd0, [p0];\nld.param.u64 %rd1, [p1];\n"       \
            "ld.param.u64 %rd2, [p2];\nld.param.u64 %rd3, [p3];\n"       \
            "mov.u32 %r0, %tid.x;\n"

/* A growing PTX text. */
typedef struct Buf {
    char s[32768];
    size_t n;
} Buf;

static void put(Buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void put(Buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b->s + b->n, sizeof(b->s) - b->n, fmt, ap);
    va_end(ap);
    ck_assert(k >= 0 && (size_t)k < sizeof(b->s) - b->n);
    b->n += (size_t)k;
}

/* "{%x0, %x1, ...}" */
static void regs(Buf *b, const char *x, unsigned n)
{
    put(b, "{");
    for (unsigned k = 0; k < n; k++) {
        put(b, "%s%%%s%u", k ? ", " : "", x, k);
    }
    put(b, "}");
}

/* ============================================================ mma.sync */

typedef struct MForm {
    const char *shape;
    unsigned m, n, k;
    int ta, tb, tc, td;
    const char *mods;           /* e.g. ".satfinite", ".xor.popc" */
} MForm;

static const MForm mforms[] = {
    { "m16n8k16", 16, 8, 16, T_F16, T_F16, T_F32, T_F32, "" },
    { "m16n8k16", 16, 8, 16, T_F16, T_F16, T_F16, T_F16, "" },
    { "m16n8k16", 16, 8, 16, T_F16, T_F16, T_F16, T_F32, "" },
    { "m16n8k16", 16, 8, 16, T_F16, T_F16, T_F32, T_F16, "" },
    { "m16n8k8", 16, 8, 8, T_F16, T_F16, T_F32, T_F32, "" },
    { "m16n8k8", 16, 8, 8, T_F16, T_F16, T_F16, T_F16, "" },
    { "m16n8k16", 16, 8, 16, T_BF16, T_BF16, T_F32, T_F32, "" },
    { "m16n8k8", 16, 8, 8, T_BF16, T_BF16, T_F32, T_F32, "" },
    { "m16n8k8", 16, 8, 8, T_TF32, T_TF32, T_F32, T_F32, "" },
    { "m16n8k4", 16, 8, 4, T_TF32, T_TF32, T_F32, T_F32, "" },
    { "m8n8k4", 8, 8, 4, T_F64, T_F64, T_F64, T_F64, "" },
    { "m16n8k4", 16, 8, 4, T_F64, T_F64, T_F64, T_F64, "" },
    { "m16n8k8", 16, 8, 8, T_F64, T_F64, T_F64, T_F64, ".rn" },
    { "m16n8k16", 16, 8, 16, T_F64, T_F64, T_F64, T_F64, ".rn" },
    { "m16n8k32", 16, 8, 32, T_E4M3, T_E4M3, T_F32, T_F32, "" },
    { "m16n8k32", 16, 8, 32, T_E5M2, T_E4M3, T_F32, T_F32, "" },
    { "m16n8k16", 16, 8, 16, T_S8, T_S8, T_S32, T_S32, "" },
    { "m16n8k16", 16, 8, 16, T_U8, T_S8, T_S32, T_S32, ".satfinite" },
    { "m16n8k32", 16, 8, 32, T_S8, T_U8, T_S32, T_S32, "" },
    { "m16n8k32", 16, 8, 32, T_U8, T_U8, T_S32, T_S32, ".satfinite" },
    { "m8n8k16", 8, 8, 16, T_S8, T_S8, T_S32, T_S32, ".satfinite" },
    { "m8n8k16", 8, 8, 16, T_U8, T_U8, T_S32, T_S32, "" },
    { "m16n8k32", 16, 8, 32, T_S4, T_S4, T_S32, T_S32, "" },
    { "m16n8k64", 16, 8, 64, T_U4, T_S4, T_S32, T_S32, ".satfinite" },
    { "m8n8k32", 8, 8, 32, T_S4, T_U4, T_S32, T_S32, ".satfinite" },
    { "m8n8k32", 8, 8, 32, T_U4, T_U4, T_S32, T_S32, "" },
    { "m8n8k128", 8, 8, 128, T_B1, T_B1, T_S32, T_S32, ".and.popc" },
    { "m8n8k128", 8, 8, 128, T_B1, T_B1, T_S32, T_S32, ".xor.popc" },
    { "m16n8k128", 16, 8, 128, T_B1, T_B1, T_S32, T_S32, ".and.popc" },
    { "m16n8k256", 16, 8, 256, T_B1, T_B1, T_S32, T_S32, ".xor.popc" },
};
#define NMFORMS (sizeof(mforms) / sizeof(mforms[0]))

/* PTX ISA 9.0, 9.7.14.5.x "Matrix fragments for mma.mXnYkZ": element i
 * of lane `lane`'s fragment of A, B or C, per shape and type. */
static void isa_pos(const MForm *f, int role, unsigned lane, unsigned i,
                    unsigned *row, unsigned *col)
{
    unsigned g = lane >> 2, t = lane % 4;
    unsigned bits = tbits[role == 0 ? f->ta : f->tb];
    if (role == 2) {                            /* C, D */
        *row = (f->m == 16 && i >= 2) ? g + 8 : g;
        *col = t * 2 + (i & 1);
        return;
    }
    if (role == 0) {                            /* A */
        if (f->m == 8) {                        /* m8n8k*: one row */
            unsigned e = bits == 64 ? 1 : 32 / bits;
            *row = g;
            *col = t * e + i;
            return;
        }
        switch (bits) {
        case 16:
            if (f->k == 8) {
                *row = i < 2 ? g : g + 8;
                *col = t * 2 + (i & 1);
            } else {
                *row = (i < 2 || (i >= 4 && i < 6)) ? g : g + 8;
                *col = t * 2 + (i & 1) + (i >= 4 ? 8 : 0);
            }
            return;
        case 64:                                /* f64 (sm_90) */
            /* 9.7.14.5.8 m16n8k16: "row = groupID for ai where i % 2
             * = 0, groupID + 8 otherwise; col = (i * 2) +
             * threadID_in_group [even i], (i * 2) - 2 +
             * threadID_in_group otherwise"; m16n8k8 and m16n8k4 the
             * same rule on fewer elements */
            *row = i % 2 ? g + 8 : g;
            *col = t + 4 * (i / 2);
            return;
        case 32:                                /* tf32 */
            if (f->k == 4) {
                *row = i == 0 ? g : g + 8;
                *col = t;
            } else {
                *row = (i == 0 || i == 2) ? g : g + 8;
                *col = i < 2 ? t : t + 4;
            }
            return;
        case 8:
            if (f->k == 16) {
                *row = i < 4 ? g : g + 8;
                *col = t * 4 + (i & 3);
            } else {
                *row = (i < 4 || (i >= 8 && i < 12)) ? g : g + 8;
                *col = t * 4 + (i & 3) + (i >= 8 ? 16 : 0);
            }
            return;
        case 4:
            if (f->k == 32) {
                *row = i < 8 ? g : g + 8;
                *col = t * 8 + (i & 7);
            } else {
                *row = (i < 8 || (i >= 16 && i < 24)) ? g : g + 8;
                *col = t * 8 + (i & 7) + (i >= 16 ? 32 : 0);
            }
            return;
        default:                                /* b1 */
            if (f->k == 128) {
                *row = i < 32 ? g : g + 8;
                *col = t * 32 + (i & 31);
            } else {
                *row = (i < 32 || (i >= 64 && i < 96)) ? g : g + 8;
                *col = t * 32 + (i & 31) + (i >= 64 ? 128 : 0);
            }
            return;
        }
    }
    *col = g;                                   /* B */
    switch (bits) {
    case 64: *row = t + 4 * i; return;
    case 16:
        *row = t * 2 + (i & 1) + (i >= 2 ? 8 : 0);
        return;
    case 32:
        *row = i == 0 ? t : t + 4;
        return;
    case 8:
        *row = t * 4 + (i & 3) + (i >= 4 ? 16 : 0);
        return;
    case 4:
        *row = t * 8 + (i & 7) + (i >= 8 ? 32 : 0);
        return;
    default:
        *row = t * 32 + (i & 31) + (i >= 32 ? 128 : 0);
        return;
    }
}

/* Elements per lane and registers of a role. */
static unsigned nelem(const MForm *f, int role)
{
    unsigned r = role == 1 ? f->k : f->m, c = role == 0 ? f->k : f->n;
    return r * c / 32;
}

static unsigned nregs_of(const MForm *f, int role, int t)
{
    unsigned per = role == 2 ? (t == T_F16 ? 2 : 1) : epr(t);
    return nelem(f, role) / per;
}

/* Fragment registers [lane][r] from a matrix (rows x cols raw bits). */
static void to_frag(const MForm *f, int role, int t, const uint64_t *mat,
                    unsigned cols, uint64_t *fr)
{
    unsigned ne = nelem(f, role), nr = nregs_of(f, role, t);
    unsigned per = ne / nr, bits = tbits[t];
    memset(fr, 0, sizeof(uint64_t) * 32 * nr);
    for (unsigned l = 0; l < 32; l++) {
        for (unsigned i = 0; i < ne; i++) {
            unsigned r, c;
            isa_pos(f, role, l, i, &r, &c);
            fr[l * nr + i / per] |= mat[r * cols + c] << ((i % per) * bits);
        }
    }
}

static void from_frag(const MForm *f, int t, const uint64_t *fr,
                      unsigned cols, uint64_t *mat)
{
    unsigned ne = nelem(f, 2), nr = nregs_of(f, 2, t);
    unsigned per = ne / nr, bits = tbits[t];
    uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    for (unsigned l = 0; l < 32; l++) {
        for (unsigned i = 0; i < ne; i++) {
            unsigned r, c;
            isa_pos(f, 2, l, i, &r, &c);
            mat[r * cols + c] = (fr[l * nr + i / per] >> ((i % per) * bits))
                & mask;
        }
    }
}

/* A kernel: load the lane's A, B, C registers (na, nb, nc words of w
 * bits, lane-major), run `op` and store D's nd registers. */
static void mma_text_n(Buf *b, const char *op, unsigned na, unsigned nb,
                       unsigned nc, unsigned nd, unsigned w)
{
    unsigned n[4] = { na, nb, nc, nd };
    const char *x[4] = { "a", "b", "c", "d" };
    b->n = 0;
    put(b, "%s", HDR);
    put(b, ".reg .b%u %%a<16>;\n.reg .b%u %%b<8>;\n.reg .b%u %%c<8>;\n"
        ".reg .b%u %%d<8>;\n", w, w, w, w);
    for (unsigned o = 0; o < 4; o++) {
        put(b, "mul.wide.u32 %%rd%u, %%r0, %u;\n"
            "add.s64 %%rd%u, %%rd%u, %%rd%u;\n", 4 + o, n[o] * w / 8,
            8 + o, o, 4 + o);
    }
    for (unsigned o = 0; o < 3; o++) {
        for (unsigned k = 0; k < n[o]; k++) {
            put(b, "ld.global.b%u %%%s%u, [%%rd%u+%u];\n", w, x[o], k,
                8 + o, k * w / 8);
        }
    }
    put(b, "%s ", op);
    regs(b, "d", nd);
    put(b, ", ");
    regs(b, "a", na);
    put(b, ", ");
    regs(b, "b", nb);
    put(b, ", ");
    regs(b, "c", nc);
    put(b, ";\n");
    for (unsigned k = 0; k < nd; k++) {
        put(b, "st.global.b%u [%%rd11+%u], %%d%u;\n", w, k * w / 8, k);
    }
    put(b, "ret;\n}\n");
}

static void mma_text(Buf *b, const MForm *f)
{
    char op[128];
    snprintf(op, sizeof(op), "mma.sync.aligned.%s.row.col%s.%s.%s.%s.%s",
             f->shape, f->mods, tname[f->td], tname[f->ta], tname[f->tb],
             tname[f->tc]);
    mma_text_n(b, op, nregs_of(f, 0, f->ta), nregs_of(f, 1, f->tb),
               nregs_of(f, 2, f->tc), nregs_of(f, 2, f->td),
               f->ta == T_F64 ? 64 : 32);
}

/* Upload fragments (as 32- or 64-bit words), run, read D's fragment. */
static void run_mma_n(const unsigned n[4], unsigned w, const uint64_t *fa,
                      const uint64_t *fb, const uint64_t *fc, uint64_t *fd)
{
    const uint64_t *src[3] = { fa, fb, fc };
    ptxemu_devptr args[4];
    uint8_t tmp[32 * 16 * 8];
    for (unsigned o = 0; o < 4; o++) {
        for (unsigned k = 0; k < 32 * n[o]; k++) {
            uint64_t v = o < 3 ? src[o][k] : 0;
            memcpy(tmp + k * w, &v, w);
        }
        args[o] = dbuf(tmp, 32 * n[o] * w);
    }
    ck_assert_int_eq(run_k(32, args, 4), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_memcpy_dtoh(dev, tmp, args[3], 32 * n[3] * w),
                     PTXEMU_SUCCESS);
    for (unsigned k = 0; k < 32 * n[3]; k++) {
        fd[k] = 0;
        memcpy(&fd[k], tmp + k * w, w);
    }
    for (unsigned o = 0; o < 4; o++) {
        ptxemu_free(dev, args[o]);
    }
}

static void run_mma(const MForm *f, const uint64_t *fa, const uint64_t *fb,
                    const uint64_t *fc, uint64_t *fd)
{
    unsigned n[4] = { nregs_of(f, 0, f->ta), nregs_of(f, 1, f->tb),
                      nregs_of(f, 2, f->tc), nregs_of(f, 2, f->td) };
    run_mma_n(n, f->ta == T_F64 ? 8 : 4, fa, fb, fc, fd);
}

/* Element bits for test (1): small integers exact everywhere; (2)
 * random; integers: the full range either way. */
static uint64_t small_val(int t)
{
    switch (t) {
    case T_F16: case T_BF16: case T_TF32: case T_F64:
        return enc(t, rndi(-4, 4));
    case T_E4M3: case T_E5M2:
        return enc(t, rndi(-3, 3));
    case T_F32:
        return enc(t, rndi(-40, 40));
    case T_B1:
        return rnd64() & 1;
    default:
        return rnd64() & ((1ull << tbits[t]) - 1);
    }
}

static uint64_t rand_float(int t)
{
    unsigned eb = teb[t], mb = tmb[t];
    int bias = (1 << (eb - 1)) - 1;
    uint64_t s = rnd64() & 1, m = rnd64() & ((1ull << mb) - 1);
    int r = rndi(0, 15), ef;
    if (r == 0) {
        ef = 0;                                 /* subnormal or zero */
    } else if (r == 1) {
        ef = rndi(1, (1 << eb) - 2);            /* anywhere */
    } else {
        ef = bias + rndi(-6, 6);                /* cancellation */
    }
    uint64_t v = (s << (eb + mb)) | ((uint64_t)ef << mb) | m;
    if (t == T_E4M3 && (v & 0x7f) == 0x7f) {
        v &= ~1ull;                             /* not the NaN */
    }
    return v;
}

static uint64_t rand_val(int t)
{
    return is_float(t) ? rand_float(t) : small_val(t);
}

/* Reference D for a form: exact (test 1) or the GMP model (test 2). */
static uint64_t ref_elem(int ta, int tb, int tc, int td, unsigned K,
                         const uint64_t *arow, unsigned astep,
                         const uint64_t *bcol, unsigned bstep, uint64_t c,
                         bool sat, bool xr, int rnd)
{
    if (is_float(ta)) {
        return model(ta, tb, tc, td, K, arow, astep, bcol, bstep, c, rnd);
    }
    int64_t s = ival(tc, c);
    for (unsigned k = 0; k < K; k++) {
        uint64_t a = arow[k * astep], b = bcol[k * bstep];
        s += ta == T_B1 ? (int64_t)(xr ? a ^ b : a & b)
                        : ival(ta, a) * ival(tb, b);
    }
    if (sat) {
        s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
    }
    return (uint32_t)s;
}

/* Exact double evaluation for test (1), encoded in D's type. */
static uint64_t exact_elem(const MForm *f, const uint64_t *arow,
                           const uint64_t *bcol, uint64_t c)
{
    if (!is_float(f->ta)) {
        return ref_elem(f->ta, f->tb, f->tc, f->td, f->k, arow, 1, bcol,
                        f->n, c, strstr(f->mods, "satfinite") != NULL,
                        strstr(f->mods, "xor") != NULL, RN);
    }
    double s = dec(f->tc, c);
    for (unsigned k = 0; k < f->k; k++) {
        s += dec(f->ta, arow[k]) * dec(f->tb, bcol[k * f->n]);
    }
    return enc(f->td, s + 0.0);
}

static void check_mform(const MForm *f, bool random)
{
    static uint64_t A[16 * 256], B[256 * 8], C[16 * 8], D[16 * 8];
    static uint64_t fa[32 * 16], fb[32 * 8], fc[32 * 8], fd[32 * 8];
    unsigned M = f->m, N = f->n, K = f->k;
    for (unsigned e = 0; e < M * K; e++) {
        A[e] = random ? rand_val(f->ta) : small_val(f->ta);
    }
    for (unsigned e = 0; e < K * N; e++) {
        B[e] = random ? rand_val(f->tb) : small_val(f->tb);
    }
    for (unsigned e = 0; e < M * N; e++) {
        C[e] = random ? rand_val(f->tc) : small_val(f->tc);
    }
    to_frag(f, 0, f->ta, A, K, fa);
    to_frag(f, 1, f->tb, B, N, fb);
    to_frag(f, 2, f->tc, C, N, fc);
    Buf *b = malloc(sizeof(Buf));
    mma_text(b, f);
    load(b->s);
    free(b);
    run_mma(f, fa, fb, fc, fd);
    from_frag(f, f->td, fd, N, D);
    bool sat = strstr(f->mods, "satfinite") != NULL;
    bool xr = strstr(f->mods, "xor") != NULL;
    for (unsigned r = 0; r < M; r++) {
        for (unsigned c = 0; c < N; c++) {
            uint64_t want = random
                ? ref_elem(f->ta, f->tb, f->tc, f->td, K, A + r * K, 1,
                           B + c, N, C[r * N + c], sat, xr, RN)
                : exact_elem(f, A + r * K, B + c, C[r * N + c]);
            ck_assert_msg(D[r * N + c] == want,
                          "mma.%s %s.%s.%s.%s%s %s: D[%u][%u] = 0x%" PRIx64
                          ", expected 0x%" PRIx64, f->shape, tname[f->td],
                          tname[f->ta], tname[f->tb], tname[f->tc], f->mods,
                          random ? "random" : "exact", r, c, D[r * N + c],
                          want);
        }
    }
}

START_TEST(test_mma_exact)
{
    const MForm *f = &mforms[_i];
    for (int rep = 0; rep < 2; rep++) {
        check_mform(f, false);
    }
}
END_TEST

START_TEST(test_mma_random)
{
    const MForm *f = &mforms[_i];
    for (int rep = 0; rep < 3; rep++) {
        check_mform(f, true);
    }
}
END_TEST

/* mma.m8n8k4 .f16, PTX ISA 9.0 9.7.14.5.1: four independent products,
 * product q by lanes 4q..4q+3 (low group) and 16+4q..16+4q+3 (high).
 * Element i of lane l's fragment in its product's matrices. */
static void isa884(int role, bool colmajor, bool f32, unsigned l,
                   unsigned i, unsigned *row, unsigned *col)
{
    bool low = l < 16;
    if (role == 0 && !colmajor) {               /* Figure 46 */
        *row = low ? l % 4 : l % 4 + 4;
        *col = i;
    } else if (role == 0) {                     /* Figure 47 */
        *row = low ? i % 4 : i % 4 + 4;
        *col = l % 4;
    } else if (role == 1 && !colmajor) {        /* Figure 48 */
        *row = l % 4;
        *col = low ? i : i + 4;
    } else if (role == 1) {                     /* Figure 49 */
        *row = i;
        *col = low ? l % 4 : l % 4 + 4;
    } else if (!f32) {                          /* Figure 50 */
        *row = low ? l % 4 : l % 4 + 4;
        *col = i;
    } else {                                    /* Figures 51, 52 */
        unsigned x = (l & 1) + (i & 2);
        *row = low ? x : x + 4;
        *col = (i & 4) + (l & 2) + (i & 1);
    }
}

START_TEST(test_mma_m8n8k4_f16)
{
    bool acol = _i & 1, bcol = _i & 2, cf32 = _i & 4, df32 = _i & 8;
    int tc = cf32 ? T_F32 : T_F16, td = df32 ? T_F32 : T_F16;
    unsigned n[4] = { 2, 2, cf32 ? 8u : 4u, df32 ? 8u : 4u };
    static uint64_t A[4][8 * 4], B[4][4 * 8], C[4][8 * 8];
    static uint64_t fa[64], fb[64], fc[256], fd[256];
    for (int rep = 0; rep < 3; rep++) {
        bool random = rep > 0;
        for (unsigned q = 0; q < 4; q++) {
            for (unsigned e = 0; e < 32; e++) {
                A[q][e] = random ? rand_val(T_F16) : small_val(T_F16);
                B[q][e] = random ? rand_val(T_F16) : small_val(T_F16);
            }
            for (unsigned e = 0; e < 64; e++) {
                C[q][e] = random ? rand_val(tc) : small_val(tc);
            }
        }
        memset(fa, 0, sizeof(fa));
        memset(fb, 0, sizeof(fb));
        memset(fc, 0, sizeof(fc));
        for (unsigned l = 0; l < 32; l++) {
            unsigned q = (l / 4) % 4, r, c;
            for (unsigned i = 0; i < 4; i++) {
                isa884(0, acol, false, l, i, &r, &c);
                fa[l * 2 + i / 2] |= A[q][r * 4 + c] << (16 * (i % 2));
                isa884(1, bcol, false, l, i, &r, &c);
                fb[l * 2 + i / 2] |= B[q][r * 8 + c] << (16 * (i % 2));
            }
            for (unsigned i = 0; i < 8; i++) {
                isa884(2, false, cf32, l, i, &r, &c);
                if (cf32) {
                    fc[l * 8 + i] = C[q][r * 8 + c];
                } else {
                    fc[l * 4 + i / 2] |= C[q][r * 8 + c] << (16 * (i % 2));
                }
            }
        }
        char op[128];
        snprintf(op, sizeof(op), "mma.sync.aligned.m8n8k4.%s.%s.%s.f16.f16"
                 ".%s", acol ? "col" : "row", bcol ? "col" : "row",
                 tname[td], tname[tc]);
        Buf *b = malloc(sizeof(Buf));
        mma_text_n(b, op, n[0], n[1], n[2], n[3], 32);
        load(b->s);
        free(b);
        run_mma_n(n, 4, fa, fb, fc, fd);
        for (unsigned l = 0; l < 32; l++) {
            unsigned q = (l / 4) % 4, r, c;
            for (unsigned i = 0; i < 8; i++) {
                isa884(2, false, df32, l, i, &r, &c);
                uint64_t got = df32 ? fd[l * 8 + i]
                    : (fd[l * 4 + i / 2] >> (16 * (i % 2))) & 0xffff;
                uint64_t want;
                if (random) {
                    want = model(T_F16, T_F16, tc, td, 4, A[q] + r * 4, 1,
                                 B[q] + c, 8, C[q][r * 8 + c], RN);
                } else {
                    double s = dec(tc, C[q][r * 8 + c]);
                    for (unsigned k = 0; k < 4; k++) {
                        s += dec(T_F16, A[q][r * 4 + k]) *
                             dec(T_F16, B[q][k * 8 + c]);
                    }
                    want = enc(td, s + 0.0);
                }
                ck_assert_msg(got == want, "%s lane %u D%u: 0x%" PRIx64
                              ", expected 0x%" PRIx64, op, l, i, got, want);
            }
        }
    }
}
END_TEST

/* NaN, inf, inf*0, inf-inf and signed zeros in one m16n8k8 f16 mma with
 * f32 accumulate; expectations follow the documented rules. */
START_TEST(test_mma_specials)
{
    static const MForm f = { "m16n8k8", 16, 8, 8, T_F16, T_F16, T_F32,
                             T_F32, "" };
    uint64_t A[16 * 8], B[8 * 8], C[16 * 8], D[16 * 8];
    uint64_t fa[32 * 2], fb[32], fc[32 * 4], fd[32 * 4];
    for (unsigned e = 0; e < 16 * 8; e++) {
        A[e] = 0x0000;                          /* +0 */
        C[e] = 0x00000000;
    }
    for (unsigned e = 0; e < 8 * 8; e++) {
        B[e] = 0x3c00;                          /* 1 */
    }
    A[0 * 8 + 3] = 0x7e00;                      /* row 0: NaN */
    A[1 * 8 + 0] = 0x7c00;                      /* row 1: +inf */
    A[2 * 8 + 0] = 0x7c00;                      /* row 2: inf - inf */
    A[2 * 8 + 1] = 0xfc00;
    A[3 * 8 + 5] = 0xfc00;                      /* row 3: -inf, */
    B[5 * 8 + 2] = 0x0000;                      /* col 2: -inf * 0 */
    for (unsigned k = 0; k < 8; k++) {
        A[4 * 8 + k] = 0x8000;                  /* row 4: -0 * 1 */
    }
    C[4 * 8 + 1] = 0x80000000;                  /* (4,1): all -0 */
    A[5 * 8 + 0] = 0x3c00;                      /* row 5: 1 - 1 = +0 */
    A[5 * 8 + 1] = 0xbc00;
    A[6 * 8 + 0] = 0x0001;                      /* row 6: subnormal */
    to_frag(&f, 0, T_F16, A, 8, fa);
    to_frag(&f, 1, T_F16, B, 8, fb);
    to_frag(&f, 2, T_F32, C, 8, fc);
    Buf *b = malloc(sizeof(Buf));
    mma_text(b, &f);
    load(b->s);
    free(b);
    run_mma(&f, fa, fb, fc, fd);
    from_frag(&f, T_F32, fd, 8, D);
    for (unsigned c = 0; c < 8; c++) {
        ck_assert_uint_eq(D[0 * 8 + c], 0x7fffffff);
        ck_assert_uint_eq(D[1 * 8 + c], 0x7f800000);
        ck_assert_uint_eq(D[2 * 8 + c], 0x7fffffff);
        ck_assert_uint_eq(D[3 * 8 + c], c == 2 ? 0x7fffffff : 0xff800000);
        ck_assert_uint_eq(D[4 * 8 + c], c == 1 ? 0x80000000 : 0);
        ck_assert_uint_eq(D[5 * 8 + c], 0);
        ck_assert_uint_eq(D[6 * 8 + c], 0x33800000);   /* 2^-24 */
    }
}
END_TEST

/* ============================================================ wmma */

typedef struct WForm {
    const char *shape;
    unsigned m, n, k;
    int ta, tb, tc, td;
    bool acol, bcol, ccol, dcol;
    const char *mods;           /* ".satfinite", ".rz", ".xor.popc" */
    const char *space;          /* "global", "" (generic), "shared" */
} WForm;

static const WForm wforms[] = {
    { "m16n16k16", 16, 16, 16, T_F16, T_F16, T_F32, T_F32, 0, 1, 0, 0,
      "", "global" },
    { "m16n16k16", 16, 16, 16, T_F16, T_F16, T_F16, T_F16, 1, 0, 1, 1,
      "", "global" },
    { "m16n16k16", 16, 16, 16, T_F16, T_F16, T_F32, T_F16, 0, 0, 1, 0,
      "", "" },
    { "m16n16k16", 16, 16, 16, T_F16, T_F16, T_F16, T_F32, 1, 1, 0, 1,
      "", "shared" },
    { "m32n8k16", 32, 8, 16, T_F16, T_F16, T_F32, T_F32, 0, 0, 0, 1,
      "", "global" },
    { "m32n8k16", 32, 8, 16, T_F16, T_F16, T_F16, T_F16, 1, 1, 0, 0,
      "", "" },
    { "m8n32k16", 8, 32, 16, T_F16, T_F16, T_F32, T_F32, 1, 1, 1, 1,
      "", "global" },
    { "m8n32k16", 8, 32, 16, T_F16, T_F16, T_F16, T_F32, 0, 1, 0, 0,
      "", "shared" },
    { "m16n16k16", 16, 16, 16, T_BF16, T_BF16, T_F32, T_F32, 0, 1, 0, 0,
      "", "global" },
    { "m32n8k16", 32, 8, 16, T_BF16, T_BF16, T_F32, T_F32, 1, 0, 1, 0,
      "", "" },
    { "m8n32k16", 8, 32, 16, T_BF16, T_BF16, T_F32, T_F32, 0, 0, 0, 1,
      "", "shared" },
    { "m16n16k16", 16, 16, 16, T_S8, T_S8, T_S32, T_S32, 0, 1, 0, 0,
      ".satfinite", "global" },
    { "m16n16k16", 16, 16, 16, T_U8, T_U8, T_S32, T_S32, 1, 0, 1, 1,
      "", "" },
    { "m32n8k16", 32, 8, 16, T_U8, T_U8, T_S32, T_S32, 0, 0, 0, 1,
      "", "global" },
    { "m8n32k16", 8, 32, 16, T_S8, T_S8, T_S32, T_S32, 1, 1, 0, 0,
      ".satfinite", "shared" },
    { "m16n16k8", 16, 16, 8, T_TF32, T_TF32, T_F32, T_F32, 0, 0, 0, 1,
      "", "global" },
    { "m16n16k8", 16, 16, 8, T_TF32, T_TF32, T_F32, T_F32, 1, 1, 1, 0,
      "", "" },
    { "m8n8k4", 8, 8, 4, T_F64, T_F64, T_F64, T_F64, 0, 1, 0, 0,
      "", "global" },
    { "m8n8k4", 8, 8, 4, T_F64, T_F64, T_F64, T_F64, 1, 0, 1, 1,
      ".rn", "" },
    { "m8n8k4", 8, 8, 4, T_F64, T_F64, T_F64, T_F64, 0, 0, 0, 0,
      ".rz", "global" },
    { "m8n8k4", 8, 8, 4, T_F64, T_F64, T_F64, T_F64, 1, 1, 0, 1,
      ".rm", "shared" },
    { "m8n8k4", 8, 8, 4, T_F64, T_F64, T_F64, T_F64, 0, 1, 1, 0,
      ".rp", "global" },
    { "m8n8k32", 8, 8, 32, T_S4, T_S4, T_S32, T_S32, 0, 1, 0, 0,
      "", "global" },
    { "m8n8k32", 8, 8, 32, T_U4, T_U4, T_S32, T_S32, 0, 1, 1, 1,
      ".satfinite", "" },
    { "m8n8k128", 8, 8, 128, T_B1, T_B1, T_S32, T_S32, 0, 1, 0, 0,
      ".xor.popc", "global" },
    { "m8n8k128", 8, 8, 128, T_B1, T_B1, T_S32, T_S32, 0, 1, 0, 1,
      ".and.popc", "shared" },
};
#define NWFORMS (sizeof(wforms) / sizeof(wforms[0]))

/* Fragment registers (PTX ISA 9.0, 9.7.14.4 "wmma.load": f16 A/B are
 * 8 x .f16x2 for every shape; the others hold the lane's share). */
static unsigned wregs(const WForm *f, int role, int t)
{
    unsigned r = role == 1 ? f->k : f->m, c = role == 0 ? f->k : f->n;
    if (role < 2 && t == T_F16) {
        return 8;
    }
    unsigned per = role == 2 ? (t == T_F16 ? 2 : 1) : epr(t);
    return r * c / 32 / per;
}

/* A matrix in memory: element (r, c) at index r*ld + c (row) or
 * c*ld + r (col), packed LSB first for sub-byte types. */
typedef struct Mem {
    unsigned rows, cols, ld;
    bool col;
    int t;
    size_t bytes;
    uint8_t *p;
} Mem;

static void mem_init(Mem *m, unsigned rows, unsigned cols, bool col, int t)
{
    m->rows = rows;
    m->cols = cols;
    m->col = col;
    m->t = t;
    unsigned nat = col ? rows : cols;
    m->ld = tbits[t] < 8 ? nat * 2 : nat + 8;   /* padded stride */
    size_t n = (size_t)m->ld * (col ? cols : rows);
    m->bytes = (n * tbits[t] / 8 + 127) / 128 * 128;
    m->p = calloc(1, m->bytes);
}

static size_t mem_idx(const Mem *m, unsigned r, unsigned c)
{
    return m->col ? (size_t)c * m->ld + r : (size_t)r * m->ld + c;
}

static void mem_set(Mem *m, unsigned r, unsigned c, uint64_t v)
{
    size_t bit = mem_idx(m, r, c) * tbits[m->t];
    if (tbits[m->t] < 8) {
        m->p[bit / 8] |= (uint8_t)(v << (bit % 8));
    } else {
        memcpy(m->p + bit / 8, &v, tbits[m->t] / 8);
    }
}

static uint64_t mem_get(const Mem *m, unsigned r, unsigned c)
{
    size_t bit = mem_idx(m, r, c) * tbits[m->t];
    uint64_t v = 0;
    memcpy(&v, m->p + bit / 8, tbits[m->t] < 8 ? 1 : tbits[m->t] / 8);
    if (tbits[m->t] < 8) {
        v = (v >> (bit % 8)) & ((1ull << tbits[m->t]) - 1);
    }
    return v;
}

/* Copy n bytes (a multiple of 128) between global %rd<g> and the shared
 * variable `sh`, 4 bytes a lane per step. */
static void copy_loop(Buf *b, unsigned g, const char *sh, size_t n,
                      bool to_shared, unsigned id)
{
    put(b, "mul.lo.u32 %%r1, %%r0, 4;\nL%u:\n"
        "setp.ge.u32 %%p0, %%r1, %zu;\n@%%p0 bra L%ue;\n"
        "cvt.u64.u32 %%rd20, %%r1;\nadd.s64 %%rd21, %%rd%u, %%rd20;\n"
        "mov.u64 %%rd22, %s;\nadd.s64 %%rd22, %%rd22, %%rd20;\n", id, n,
        id, g, sh);
    if (to_shared) {
        put(b, "ld.global.b32 %%r2, [%%rd21];\nst.shared.b32 [%%rd22], "
            "%%r2;\n");
    } else {
        put(b, "ld.shared.b32 %%r2, [%%rd22];\nst.global.b32 [%%rd21], "
            "%%r2;\n");
    }
    put(b, "add.u32 %%r1, %%r1, 128;\nbra L%u;\nL%ue:\nbar.sync 0;\n", id,
        id);
}

static void wmma_text(Buf *b, const WForm *f, const Mem *mm)
{
    unsigned w = f->ta == T_F64 ? 64 : 32;
    unsigned na = wregs(f, 0, f->ta), nb = wregs(f, 1, f->tb);
    unsigned nc = wregs(f, 2, f->tc), nd = wregs(f, 2, f->td);
    bool sh = !strcmp(f->space, "shared");
    const char *sp = *f->space ? "." : "";
    const char *lay[2] = { "row", "col" };
    b->n = 0;
    put(b, "%s", HDR);
    put(b, ".reg .b%u %%a<16>;\n.reg .b%u %%b<16>;\n.reg .b%u %%c<8>;\n"
        ".reg .b%u %%d<8>;\n", w, w, w, w);
    const char *addr[4] = { "%rd0", "%rd1", "%rd2", "%rd3" };
    if (sh) {
        const char *nm[4] = { "sa", "sb", "sc", "sd" };
        for (unsigned o = 0; o < 4; o++) {
            put(b, ".shared .align 16 .b8 %s[%zu];\n", nm[o], mm[o].bytes);
        }
        for (unsigned o = 0; o < 3; o++) {
            copy_loop(b, o, nm[o], mm[o].bytes, true, o);
        }
        addr[0] = "sa";
        addr[1] = "sb";
        addr[2] = "sc";
        addr[3] = "sd";
    }
    /* the stride of B as a register, the others immediate */
    put(b, "mov.u32 %%r5, %u;\n", mm[1].ld);
    put(b, "wmma.load.a.sync.aligned.%s.%s%s%s.%s ", lay[f->acol], f->shape,
        sp, f->space, tname[f->ta]);
    regs(b, "a", na);
    put(b, ", [%s], %u;\n", addr[0], mm[0].ld);
    put(b, "wmma.load.b.sync.aligned.%s.%s%s%s.%s ", lay[f->bcol], f->shape,
        sp, f->space, tname[f->tb]);
    regs(b, "b", nb);
    put(b, ", [%s], %%r5;\n", addr[1]);
    put(b, "wmma.load.c.sync.aligned.%s.%s%s%s.%s ", lay[f->ccol], f->shape,
        sp, f->space, tname[f->tc]);
    regs(b, "c", nc);
    put(b, ", [%s], %u;\n", addr[2], mm[2].ld);
    bool b1 = f->ta == T_B1;
    put(b, "wmma.mma%s.sync.aligned.%s.%s.%s", b1 ? f->mods : "",
        lay[f->acol], lay[f->bcol], f->shape);
    if (f->ta == T_F16) {
        put(b, ".%s.%s", tname[f->td], tname[f->tc]);
    } else {
        put(b, ".%s.%s.%s.%s", tname[f->td], tname[f->ta], tname[f->tb],
            tname[f->tc]);
    }
    put(b, "%s ", b1 ? "" : f->mods);
    regs(b, "d", nd);
    put(b, ", ");
    regs(b, "a", na);
    put(b, ", ");
    regs(b, "b", nb);
    put(b, ", ");
    regs(b, "c", nc);
    put(b, ";\n");
    put(b, "wmma.store.d.sync.aligned.%s.%s%s%s.%s [%s], ", lay[f->dcol],
        f->shape, sp, f->space, tname[f->td], addr[3]);
    regs(b, "d", nd);
    put(b, ", %u;\n", mm[3].ld);
    if (sh) {
        put(b, "bar.sync 0;\n");
        copy_loop(b, 3, "sd", mm[3].bytes, false, 3);
    }
    put(b, "ret;\n}\n");
}

static int rnd_of(const char *mods)
{
    return strstr(mods, ".rz") ? RZ : strstr(mods, ".rm") ? RM
        : strstr(mods, ".rp") ? RP : RN;
}

static void check_wform(const WForm *f, bool random)
{
    Mem mm[4];
    unsigned M = f->m, N = f->n, K = f->k;
    mem_init(&mm[0], M, K, f->acol, f->ta);
    mem_init(&mm[1], K, N, f->bcol, f->tb);
    mem_init(&mm[2], M, N, f->ccol, f->tc);
    mem_init(&mm[3], M, N, f->dcol, f->td);
    uint64_t *A = calloc(M * K, 8), *B = calloc(K * N, 8);
    uint64_t *C = calloc(M * N, 8);
    for (unsigned r = 0; r < M; r++) {
        for (unsigned c = 0; c < K; c++) {
            A[r * K + c] = random ? rand_val(f->ta) : small_val(f->ta);
            mem_set(&mm[0], r, c, A[r * K + c]);
        }
    }
    for (unsigned r = 0; r < K; r++) {
        for (unsigned c = 0; c < N; c++) {
            B[r * N + c] = random ? rand_val(f->tb) : small_val(f->tb);
            mem_set(&mm[1], r, c, B[r * N + c]);
        }
    }
    for (unsigned r = 0; r < M; r++) {
        for (unsigned c = 0; c < N; c++) {
            C[r * N + c] = random ? rand_val(f->tc) : small_val(f->tc);
            mem_set(&mm[2], r, c, C[r * N + c]);
        }
    }
    Buf *b = malloc(sizeof(Buf));
    wmma_text(b, f, mm);
    load(b->s);
    free(b);
    ptxemu_devptr args[4];
    for (unsigned o = 0; o < 4; o++) {
        args[o] = dbuf(o < 3 ? mm[o].p : NULL, mm[o].bytes);
    }
    ptxemu_status st = run_k(32, args, 4);
    ck_assert_msg(st == PTXEMU_SUCCESS, "%s: %s", f->shape,
                  ptxemu_last_error_message(dev));
    ck_assert_int_eq(ptxemu_memcpy_dtoh(dev, mm[3].p, args[3], mm[3].bytes),
                     PTXEMU_SUCCESS);
    bool sat = strstr(f->mods, "satfinite") != NULL;
    bool xr = strstr(f->mods, "xor") != NULL;
    for (unsigned r = 0; r < M; r++) {
        for (unsigned c = 0; c < N; c++) {
            uint64_t want;
            if (random || !is_float(f->ta)) {
                want = ref_elem(f->ta, f->tb, f->tc, f->td, K, A + r * K,
                                1, B + c, N, C[r * N + c], sat, xr,
                                rnd_of(f->mods));
            } else {
                double s = dec(f->tc, C[r * N + c]);
                for (unsigned k = 0; k < K; k++) {
                    s += dec(f->ta, A[r * K + k]) * dec(f->tb, B[k * N + c]);
                }
                /* IEEE: an exact zero from nonzero terms is -0 when
                 * rounding toward -inf */
                bool nz = dec(f->tc, C[r * N + c]) != 0;
                for (unsigned k = 0; k < K; k++) {
                    nz |= dec(f->ta, A[r * K + k]) != 0 &&
                          dec(f->tb, B[k * N + c]) != 0;
                }
                want = enc(f->td, s == 0 && nz && rnd_of(f->mods) == RM
                           ? -0.0 : s + 0.0);
            }
            uint64_t got = mem_get(&mm[3], r, c);
            ck_assert_msg(got == want, "wmma.%s %s.%s.%s.%s%s (%s) %s: "
                          "D[%u][%u] = 0x%" PRIx64 ", expected 0x%" PRIx64,
                          f->shape, tname[f->td], tname[f->ta],
                          tname[f->tb], tname[f->tc], f->mods, f->space,
                          random ? "random" : "exact", r, c, got, want);
        }
    }
    /* nothing outside the matrix was written */
    for (unsigned r = 0; r < (f->dcol ? N : M); r++) {
        for (unsigned c = f->dcol ? M : N; c < mm[3].ld; c++) {
            size_t at = ((size_t)r * mm[3].ld + c) * tbits[f->td] / 8;
            ck_assert_uint_eq(mm[3].p[at], 0);
        }
    }
    for (unsigned o = 0; o < 4; o++) {
        ptxemu_free(dev, args[o]);
        free(mm[o].p);
    }
    free(A);
    free(B);
    free(C);
}

START_TEST(test_wmma_exact)
{
    check_wform(&wforms[_i], false);
}
END_TEST

START_TEST(test_wmma_random)
{
    for (int rep = 0; rep < 2; rep++) {
        check_wform(&wforms[_i], true);
    }
}
END_TEST

/* ============================================================ ldmatrix */

/* Matrix q's row r lives at row slot perm(q, r) of a shared buffer of
 * 32-byte rows, so that a wrong lane-to-row assignment shows. */
static unsigned perm(unsigned q, unsigned r)
{
    return (q * 8 + r) * 5 % 32;
}

static void ldm_text(Buf *b, unsigned nm, bool trans, bool store)
{
    b->n = 0;
    put(b, "%s", HDR);
    put(b, ".reg .b32 %%m<4>;\n.shared .align 16 .b8 sm[1024];\n");
    copy_loop(b, 0, "sm", 1024, true, 0);
    /* row address of lane l: matrix l/8, row l%8 -> slot perm */
    put(b, "shr.u32 %%r6, %%r0, 3;\nand.b32 %%r7, %%r0, 7;\n"
        "mad.lo.u32 %%r8, %%r6, 8, %%r7;\nmul.lo.u32 %%r8, %%r8, 5;\n"
        "rem.u32 %%r8, %%r8, 32;\nmul.lo.u32 %%r8, %%r8, 32;\n"
        "mov.u32 %%r9, sm;\nadd.u32 %%r9, %%r9, %%r8;\n"
        "mul.wide.u32 %%rd5, %%r0, 16;\nadd.s64 %%rd6, %%rd1, %%rd5;\n");
    if (store) {
        for (unsigned q = 0; q < nm; q++) {
            put(b, "ld.global.b32 %%m%u, [%%rd6+%u];\n", q, 4 * q);
        }
        put(b, "stmatrix.sync.aligned.m8n8.x%u%s.shared.b16 [%%r9], ", nm,
            trans ? ".trans" : "");
        regs(b, "m", nm);
        put(b, ";\nbar.sync 0;\n");
        copy_loop(b, 2, "sm", 1024, false, 1);
    } else {
        put(b, "ldmatrix.sync.aligned.m8n8.x%u%s.shared.b16 ", nm,
            trans ? ".trans" : "");
        regs(b, "m", nm);
        put(b, ", [%%r9];\n");
        for (unsigned q = 0; q < nm; q++) {
            put(b, "st.global.b32 [%%rd6+%u], %%m%u;\n", 4 * q, q);
        }
    }
    put(b, "ret;\n}\n");
}

/* ISA: lane l holds row l/4, columns 2*(l%4) and 2*(l%4)+1 (low half
 * first) of each matrix; .trans delivers the transpose. */
static uint16_t ldm_expect(const uint16_t *sm, unsigned q, unsigned l,
                           unsigned h, bool trans)
{
    unsigned r = l / 4, c = 2 * (l % 4) + h;
    if (trans) {
        unsigned t = r;
        r = c;
        c = t;
    }
    return sm[perm(q, r) * 16 + c];
}

START_TEST(test_ldmatrix)
{
    unsigned nm = 1u << (_i % 3);
    bool trans = _i >= 3;
    uint16_t sm[512], out[32 * 8];
    for (unsigned k = 0; k < 512; k++) {
        sm[k] = (uint16_t)(k * 7 + 3);
    }
    Buf *b = malloc(sizeof(Buf));
    ldm_text(b, nm, trans, false);
    load(b->s);
    free(b);
    ptxemu_devptr args[4] = { dbuf(sm, sizeof(sm)), dbuf(NULL, 32 * 16),
                              dbuf(NULL, 16), dbuf(NULL, 16) };
    ck_assert_int_eq(run_k(32, args, 4), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_memcpy_dtoh(dev, out, args[1], 32 * 16),
                     PTXEMU_SUCCESS);
    for (unsigned l = 0; l < 32; l++) {
        for (unsigned q = 0; q < nm; q++) {
            for (unsigned h = 0; h < 2; h++) {
                ck_assert_msg(out[l * 8 + q * 2 + h] ==
                              ldm_expect(sm, q, l, h, trans),
                              "x%u%s lane %u matrix %u half %u", nm,
                              trans ? ".trans" : "", l, q, h);
            }
        }
    }
}
END_TEST

START_TEST(test_stmatrix)
{
    unsigned nm = 1u << (_i % 3);
    bool trans = _i >= 3;
    uint16_t in[32 * 8], sm[512];
    for (unsigned k = 0; k < 32 * 8; k++) {
        in[k] = (uint16_t)(k * 13 + 1);
    }
    Buf *b = malloc(sizeof(Buf));
    ldm_text(b, nm, trans, true);
    load(b->s);
    free(b);
    ptxemu_devptr args[4] = { dbuf(NULL, 1024), dbuf(in, sizeof(in)),
                              dbuf(NULL, 1024), dbuf(NULL, 16) };
    ck_assert_int_eq(run_k(32, args, 4), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_memcpy_dtoh(dev, sm, args[2], 1024),
                     PTXEMU_SUCCESS);
    /* every stored element is where ldmatrix would read it back from */
    uint16_t want[512] = { 0 };
    for (unsigned l = 0; l < 32; l++) {
        for (unsigned q = 0; q < nm; q++) {
            for (unsigned h = 0; h < 2; h++) {
                unsigned r = l / 4, c = 2 * (l % 4) + h;
                if (trans) {
                    unsigned t = r;
                    r = c;
                    c = t;
                }
                want[perm(q, r) * 16 + c] = in[l * 8 + q * 2 + h];
            }
        }
    }
    for (unsigned k = 0; k < 512; k++) {
        ck_assert_msg(sm[k] == want[k], "x%u%s element %u: %u, want %u",
                      nm, trans ? ".trans" : "", k, sm[k], want[k]);
    }
}
END_TEST

START_TEST(test_movmatrix)
{
    uint32_t in[32], out[32];
    for (unsigned l = 0; l < 32; l++) {
        in[l] = (uint32_t)rnd64();
    }
    load(HDR ".reg .b32 %m<2>;\n"
         "mul.wide.u32 %rd5, %r0, 4;\nadd.s64 %rd6, %rd0, %rd5;\n"
         "add.s64 %rd7, %rd1, %rd5;\nld.global.b32 %m0, [%rd6];\n"
         "movmatrix.sync.aligned.m8n8.trans.b16 %m1, %m0;\n"
         "st.global.b32 [%rd7], %m1;\nret;\n}\n");
    ptxemu_devptr args[4] = { dbuf(in, sizeof(in)), dbuf(NULL, 128),
                              dbuf(NULL, 16), dbuf(NULL, 16) };
    ck_assert_int_eq(run_k(32, args, 4), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_memcpy_dtoh(dev, out, args[1], 128),
                     PTXEMU_SUCCESS);
    for (unsigned l = 0; l < 32; l++) {
        for (unsigned h = 0; h < 2; h++) {
            /* D[r][c] = S[c][r]; S[r][c] is in lane 4r + c/2, half c%2 */
            unsigned r = l / 4, c = 2 * (l % 4) + h;
            uint16_t want = (uint16_t)(in[4 * c + r / 2] >> (16 * (r % 2)));
            ck_assert_uint_eq((uint16_t)(out[l] >> (16 * h)), want);
        }
    }
}
END_TEST

/* ============================================================ errors */

START_TEST(test_partial_warp)
{
    static const MForm f = { "m16n8k8", 16, 8, 8, T_F16, T_F16, T_F32,
                             T_F32, "" };
    Buf *b = malloc(sizeof(Buf));
    mma_text(b, &f);
    load(b->s);
    free(b);
    ptxemu_devptr args[4] = { dbuf(NULL, 4096), dbuf(NULL, 4096),
                              dbuf(NULL, 4096), dbuf(NULL, 4096) };
    ptxemu_status st = run_k(16, args, 4);
    ck_assert_int_ne(st, PTXEMU_SUCCESS);
    ck_assert_ptr_nonnull(strstr(ptxemu_last_error_message(dev),
                                 "all 32 lanes"));
}
END_TEST

START_TEST(test_unsupported_form)
{
    /* mma.sp (sparse A) is not implemented yet: the load must say so,
     * not run it wrongly. */
    const char *src = HDR ".reg .b32 %a<8>;\n.reg .f32 %d<4>;\n"
        "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
        "{%d0, %d1, %d2, %d3}, {%a0, %a1}, {%a2, %a3}, "
        "{%d0, %d1, %d2, %d3}, %a4, 0x0;\nret;\n}\n";
    ptxemu_module *m2 = NULL;
    ptxemu_status st = ptxemu_module_load_string(dev, "u.ptx", src, 0, &m2);
    ck_assert_int_ne(st, PTXEMU_SUCCESS);
    ck_assert_ptr_nonnull(strstr(ptxemu_last_error_message(dev),
                                 "not supported"));
}
END_TEST

/* A fragment load past the end of its buffer stops the launch with a
 * located out-of-bounds fault, and writes no register. */
START_TEST(test_wmma_out_of_bounds)
{
    load(HDR ".reg .b32 %a<8>;\n"
         "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 "
         "{%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7}, [%rd0], 16;\n"
         "ret;\n}\n");
    ptxemu_devptr args[4] = { dbuf(NULL, 256), dbuf(NULL, 16),
                              dbuf(NULL, 16), dbuf(NULL, 16) };
    ptxemu_status st = run_k(32, args, 4);
    ck_assert_int_eq(st, PTXEMU_ERROR_ILLEGAL_ADDRESS);
    ck_assert_ptr_nonnull(strstr(ptxemu_last_error_message(dev),
                                 "wmma.load"));
}
END_TEST

/* ldmatrix through a generic address (cvta.shared), .x4.trans. */
START_TEST(test_ldmatrix_generic)
{
    uint16_t sm[512], out[32 * 8];
    for (unsigned k = 0; k < 512; k++) {
        sm[k] = (uint16_t)(k * 11 + 5);
    }
    Buf *b = malloc(sizeof(Buf));
    ldm_text(b, 4, true, false);
    /* turn the shared row address into a generic one */
    char *at = strstr(b->s, "ldmatrix.sync.aligned.m8n8.x4.trans.shared");
    ck_assert_ptr_nonnull(at);
    char rest[4096];
    snprintf(rest, sizeof(rest), "%s", at);
    b->n = (size_t)(at - b->s);
    put(b, "cvt.u64.u32 %%rd23, %%r9;\ncvta.shared.u64 %%rd23, %%rd23;\n");
    char *sh = strstr(rest, ".shared.b16");
    memmove(sh, sh + 7, strlen(sh + 7) + 1);
    char *ad = strstr(rest, "[%r9]");
    ck_assert_ptr_nonnull(ad);
    size_t pre = (size_t)(ad - rest);
    put(b, "%.*s[%%rd23]%s", (int)pre, rest, ad + 5);
    load(b->s);
    free(b);
    ptxemu_devptr args[4] = { dbuf(sm, sizeof(sm)), dbuf(NULL, 32 * 16),
                              dbuf(NULL, 16), dbuf(NULL, 16) };
    ck_assert_int_eq(run_k(32, args, 4), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_memcpy_dtoh(dev, out, args[1], 32 * 16),
                     PTXEMU_SUCCESS);
    for (unsigned l = 0; l < 32; l++) {
        for (unsigned q = 0; q < 4; q++) {
            for (unsigned h = 0; h < 2; h++) {
                ck_assert_uint_eq(out[l * 8 + q * 2 + h],
                                  ldm_expect(sm, q, l, h, true));
            }
        }
    }
}
END_TEST

static Suite *ops_mma_suite(void)
{
    Suite *s = suite_create("ops_mma");
    TCase *tc = tcase_create("mma");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_mma_exact, 0, (int)NMFORMS);
    tcase_add_loop_test(tc, test_mma_random, 0, (int)NMFORMS);
    tcase_add_test(tc, test_mma_specials);
    tcase_add_loop_test(tc, test_mma_m8n8k4_f16, 0, 16);
    suite_add_tcase(s, tc);
    tc = tcase_create("wmma");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_wmma_exact, 0, (int)NWFORMS);
    tcase_add_loop_test(tc, test_wmma_random, 0, (int)NWFORMS);
    suite_add_tcase(s, tc);
    tc = tcase_create("matrix");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, test_ldmatrix, 0, 6);
    tcase_add_loop_test(tc, test_stmatrix, 0, 6);
    tcase_add_test(tc, test_movmatrix);
    tcase_add_test(tc, test_partial_warp);
    tcase_add_test(tc, test_unsupported_form);
    tcase_add_test(tc, test_wmma_out_of_bounds);
    tcase_add_test(tc, test_ldmatrix_generic);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(ops_mma_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
