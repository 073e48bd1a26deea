/*
 * tests/check_ops_wgmma.c: the warpgroup instructions of
 * emu/ops_wgmma.c (wgmma.fence / mma_async / commit_group / wait_group,
 * setmaxnreg), run as generated PTX kernels of one warpgroup through the
 * public API.
 *
 * References, all independent of the emulator's code:
 *  - shared-memory layouts: place() below builds each operand's bytes
 *    from the PTX ISA 9.0 text (9.7.15.5.1.2 "Shared Memory Matrix
 *    Layout", Table 38's swizzle atoms and 9.7.15.5.1.2.2 "Matrix
 *    Descriptor Format"), atom by atom: an atom is 8 rows of W bytes
 *    (W = 16 no swizzle, 32, 64, 128), its 16-byte units permuted per
 *    row by XOR with the row's index in the 8 x 128-byte repeating
 *    pattern (row r of a W-byte atom is pattern row r * W / 128).  The
 *    emulator computes the same from shared-memory address bits and the
 *    descriptor's base offset; the base-offset and K-advance cases check
 *    that the two views agree where they must.
 *  - register fragments: frag_pos() transcribes the wgmma "Register
 *    Fragments" figures (9.7.15.5.1.1) per type.
 *  - values: a GMP model of the documented arithmetic (exact sum of the
 *    products and, when scale-d is true, of D; one rounding to nearest
 *    even to f32; an f16 D is that rounded again to f16; tf32 operands
 *    lose their low 13 bits; NaN inputs, inf - inf and inf * 0 give the
 *    canonical NaN); integer forms exactly, wrapped or saturated.  A
 *    chain of wgmma (a main loop over K) rounds after each instruction.
 *  - group completion: a warp's wgmma.wait_group returns only once the
 *    other warps of its warpgroup have issued the groups it waits for
 *    (a kernel that clobbers B right after the wait must still see the
 *    product of the old B in every warp).
 * Each case runs on random inputs drawn from a fixed seed; the error
 * paths (descriptor outside shared memory or not warp-uniform, partial
 * warpgroups, divergence, undefined forms, sparse wgmma, setmaxnreg
 * counts) must give located errors.
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

enum { T_F16, T_BF16, T_TF32, T_F32, T_E4M3, T_E5M2, T_S8, T_U8, T_B1,
       T_S32 };
static const char *const tname[] = {
    "f16", "bf16", "tf32", "f32", "e4m3", "e5m2", "s8", "u8", "b1", "s32"
};
static const unsigned tbits[] = { 16, 16, 32, 32, 8, 8, 8, 8, 1, 32 };
static const unsigned teb[] = { 5, 8, 8, 8, 4, 5 };
static const unsigned tmb[] = { 10, 7, 23, 23, 3, 2 };

static bool is_float(int t)
{
    return t <= T_E5M2;
}

/* K of the instruction for an input type (32 bytes of K per row) */
static unsigned k_of(int t)
{
    return 256 / tbits[t];
}

/* ------------------------------------------------------------ rng */

static uint64_t rs = 0x9e3779b97f4a7c15ull;

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

/* Random element bits: floats mostly near 1 (cancellation and rounding),
 * some anywhere, some subnormal or zero, a few specials; integers
 * anywhere. */
static uint64_t rand_val(int t)
{
    if (!is_float(t)) {
        return t == T_B1 ? rnd64() & 1
            : rnd64() & ((1ull << tbits[t]) - 1);
    }
    unsigned eb = teb[t], mb = tmb[t];
    int bias = (1 << (eb - 1)) - 1, r = rndi(0, 63), ef;
    uint64_t s = rnd64() & 1, m = rnd64() & ((1ull << mb) - 1);
    if (r == 0) {
        ef = (1 << eb) - 1;                     /* inf / NaN */
    } else if (r < 4) {
        ef = 0;                                 /* subnormal or zero */
    } else if (r < 8) {
        ef = rndi(1, (1 << eb) - 2);
    } else {
        ef = bias + rndi(-5, 5);
    }
    if (t == T_E4M3 && ef == 15 && m == 7 && r) {
        m = 6;                                  /* NaN only when asked */
    }
    if (t == T_TF32) {
        m = rnd64() & ((1ull << mb) - 1);       /* low bits ignored */
    }
    return (s << (eb + mb)) | ((uint64_t)ef << mb) | m;
}

/* ------------------------------------------------------------ GMP model */

enum { C_ZERO, C_FIN, C_INF, C_NAN };

static int parts(int t, uint64_t b, bool *neg, uint64_t *m, long *e)
{
    unsigned eb = teb[t], mb = tmb[t];
    if (t == T_TF32) {
        b &= ~0x1fffull;
    }
    long bias = (1L << (eb - 1)) - 1;
    uint64_t ef = (b >> mb) & ((1ull << eb) - 1);
    uint64_t mf = b & ((1ull << mb) - 1);
    *neg = (b >> (eb + mb)) & 1;
    if (t == T_E4M3 ? (ef == 15 && mf == 7) : ef == (1ull << eb) - 1) {
        return (t == T_E4M3 || mf) ? C_NAN : C_INF;
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

#define SC 400                  /* fixed point: bit 0 weighs 2^-SC */

static void acc_add(mpz_t acc, bool neg, uint64_t m, long e)
{
    mpz_t t;
    mpz_init_set_ui(t, m);
    mpz_mul_2exp(t, t, (mp_bitcnt_t)(e + SC));
    if (neg) {
        mpz_sub(acc, acc, t);
    } else {
        mpz_add(acc, acc, t);
    }
    mpz_clear(t);
}

/* x * 2^-SC to nearest even in float type t (f16 or f32). */
static uint64_t round_rn(const mpz_t x, int t, bool zneg)
{
    unsigned eb = teb[t], mb = tmb[t];
    long bias = (1L << (eb - 1)) - 1, emin = 1 - bias;
    int sg = mpz_sgn(x);
    if (!sg) {
        return zneg ? 1ull << (eb + mb) : 0;
    }
    uint64_t sign = (uint64_t)(sg < 0) << (eb + mb);
    mpz_t a, q;
    mpz_inits(a, q, NULL);
    mpz_abs(a, x);
    long E = (long)mpz_sizeinbase(a, 2) - 1 - SC;
    long qe = (E < emin ? emin : E) - (long)mb, sh = qe + SC;
    ck_assert_int_gt(sh, 1);
    mpz_tdiv_q_2exp(q, a, (mp_bitcnt_t)sh);
    uint64_t mant = mpz_get_ui(q);
    bool half = mpz_tstbit(a, (mp_bitcnt_t)(sh - 1));
    bool sticky = mpz_scan1(a, 0) < (mp_bitcnt_t)(sh - 1);
    mpz_clears(a, q, NULL);
    mant += half && (sticky || (mant & 1));
    if (mant >> (mb + 1)) {
        mant >>= 1;
        qe++;
    }
    if (!(mant >> mb)) {
        return sign | mant;
    }
    long ef = qe + (long)mb + bias;
    if (ef >= (1L << eb) - 1) {
        return sign | (((1ull << eb) - 1) << mb);
    }
    return sign | ((uint64_t)ef << mb) | (mant & ((1ull << mb) - 1));
}

/* One float D element: sum over k of (sa A[k]) (sb B[k]), plus C when
 * hasc. */
static uint64_t model_f(int ta, int tb, int td, unsigned K,
                        const uint64_t *a, const uint64_t *b, bool nega,
                        bool negb, bool hasc, uint64_t c)
{
    bool nan = false, pinf = false, ninf = false, p0 = false, n0 = false;
    bool nz = false;
    mpz_t acc;
    mpz_init(acc);
    for (unsigned k = 0; k <= K; k++) {
        bool na = false, nb = false;
        uint64_t ma = 1, mb = 1;
        long ea = 0, eb = 0;
        int ca, cb;
        if (k < K) {
            ca = parts(ta, a[k], &na, &ma, &ea);
            cb = parts(tb, b[k], &nb, &mb, &eb);
            na ^= nega;
            nb ^= negb;
        } else if (hasc) {
            ca = parts(td, c, &na, &ma, &ea);
            cb = C_FIN;
        } else {
            break;
        }
        bool ng = na ^ nb;
        if (ca == C_NAN || cb == C_NAN ||
            ((ca == C_INF || cb == C_INF) &&
             (ca == C_ZERO || cb == C_ZERO))) {
            nan = true;
        } else if (ca == C_INF || cb == C_INF) {
            *(ng ? &ninf : &pinf) = true;
        } else if (ca == C_ZERO || cb == C_ZERO) {
            *(ng ? &n0 : &p0) = true;
        } else {
            nz = true;
            acc_add(acc, ng, ma * mb, ea + eb);
        }
    }
    uint64_t r;
    if (nan || (pinf && ninf)) {
        mpz_clear(acc);
        return td == T_F16 ? 0x7fff : 0x7fffffff;
    }
    if (pinf || ninf) {
        r = ninf ? 0xff800000u : 0x7f800000u;
    } else {
        r = round_rn(acc, T_F32, !nz && n0 && !p0);
    }
    mpz_clear(acc);
    if (td == T_F32) {
        return r;
    }
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
        acc_add(v, ng, m, e);
    }
    uint64_t h = round_rn(v, T_F16, ng);
    mpz_clear(v);
    return h;
}

static int64_t ival(int t, uint64_t b)
{
    return t == T_S8 ? (int8_t)b : t == T_S32 ? (int32_t)b : (int64_t)b;
}

static uint64_t model_i(int ta, int tb, unsigned K, const uint64_t *a,
                        const uint64_t *b, bool hasc, uint64_t c, bool sat)
{
    int64_t s = hasc ? ival(T_S32, c) : 0;
    for (unsigned k = 0; k < K; k++) {
        s += ta == T_B1 ? (int64_t)(a[k] & b[k] & 1)
                        : ival(ta, a[k]) * ival(tb, b[k]);
    }
    if (sat) {
        s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
    }
    return (uint32_t)s;
}

/* ------------------------------------------------------------ layouts */

/* Descriptor swizzle codes (9.7.15.5.1.2.2) and their atom widths. */
enum { SW_NONE, SW_128, SW_64, SW_32 };

static unsigned atom_w(int sw)
{
    static const unsigned w[] = { 16, 128, 64, 32 };
    return w[sw];
}

typedef struct Lay {
    bool mn_major;
    int sw;
    unsigned lbo, sbo;          /* bytes */
    unsigned start;             /* tile offset in the shared buffer */
} Lay;

/* Bit offset in the shared buffer of element (mn, k) of a tile of
 * `bits`-bit elements laid out as l says. */
static unsigned long place(const Lay *l, unsigned bits, unsigned mn,
                           unsigned k)
{
    unsigned t = 128 / bits, w = atom_w(l->sw);
    unsigned row, unit, inner;
    unsigned long atom;
    if (!l->mn_major) {
        /* atom: 8 rows of mn, each W bytes of k */
        row = mn % 8;
        unit = k / t;
        inner = k % t;
        atom = (unsigned long)(mn / 8) * l->sbo;
        if (l->sw == SW_NONE) {
            atom += (unsigned long)unit * l->lbo;    /* core matrices */
            unit = 0;
        }
    } else {
        /* atom: 8 rows of k, each W bytes of mn */
        unsigned e = w * 8 / bits;                  /* mn per atom row */
        row = k % 8;
        unit = mn % e / t;
        inner = mn % t;
        atom = l->sw == SW_NONE
            ? (unsigned long)(mn / e) * l->sbo + (unsigned long)(k / 8) *
              l->lbo
            : (unsigned long)(mn / e) * l->lbo + (unsigned long)(k / 8) *
              l->sbo;
    }
    unsigned phase = row * w / 128 % (w / 16);
    unsigned long byte = l->start + atom + row * w + 16 * (unit ^ phase);
    return byte * 8 + (unsigned long)inner * bits;
}

/* The canonical strides of a tile mn x kk (elements) for a layout. */
static void strides(Lay *l, unsigned bits, unsigned mn, unsigned kk)
{
    unsigned w = atom_w(l->sw), kbytes = kk * bits / 8;
    if (!l->mn_major) {
        if (l->sw == SW_NONE) {
            l->lbo = 128 * (mn / 8);        /* all of K unit 0 first */
            l->sbo = 128;
        } else {
            l->lbo = 16;                    /* unused */
            l->sbo = 8 * w * (kbytes > w ? kbytes / w : 1);
        }
    } else {
        unsigned e = w * 8 / bits;
        if (l->sw == SW_NONE) {
            l->sbo = 128;
            l->lbo = 128 * (mn / 8);
        } else {
            l->sbo = 8 * w;
            l->lbo = 8 * w * (kk / 8);
        }
        (void)e;
    }
}

static uint64_t desc_of(const Lay *l, unsigned start, unsigned base)
{
    return (uint64_t)((start & 0x3ffff) >> 4) |
           (uint64_t)((l->lbo & 0x3ffff) >> 4) << 16 |
           (uint64_t)((l->sbo & 0x3ffff) >> 4) << 32 |
           (uint64_t)base << 49 | (uint64_t)l->sw << 62;
}

static void put_bits(uint8_t *img, unsigned long bitoff, unsigned bits,
                     uint64_t v)
{
    for (unsigned b = 0; b < bits; b++) {
        unsigned long p = bitoff + b;
        img[p / 8] = (uint8_t)((img[p / 8] & ~(1u << (p % 8))) |
                               (((v >> b) & 1) << (p % 8)));
    }
}

/* ------------------------------------------------------------ fragments */

/* Register fragments of wgmma (9.7.15.5.1.1): thread t of the
 * warpgroup, element i; D: (row, col) of the 64 x N matrix; A: of the
 * 64 x K matrix for input type ta. */
static void frag_d(unsigned t, unsigned i, unsigned *row, unsigned *col)
{
    unsigned w = t / 32, l = t % 32;
    *row = 16 * w + l / 4 + 8 * ((i / 2) % 2);
    *col = 8 * (i / 4) + 2 * (l % 4) + (i % 2);
}

static void frag_a(int ta, unsigned t, unsigned i, unsigned *row,
                   unsigned *col)
{
    unsigned w = t / 32, l = t % 32, g = l / 4, q = l % 4;
    switch (tbits[ta]) {
    case 16:                    /* a0..a7 in 4 .f16x2 / .bf16x2 */
        *row = 16 * w + g + 8 * ((i / 2) % 2);
        *col = 2 * q + i % 2 + 8 * (i / 4);
        return;
    case 32:                    /* tf32: a0..a3 */
        *row = 16 * w + g + 8 * (i % 2);
        *col = q + 4 * (i / 2);
        return;
    case 8:                     /* 4 bytes per register */
        *row = 16 * w + g + 8 * ((i / 4) % 2);
        *col = 4 * q + i % 4 + 16 * (i / 8);
        return;
    default:                    /* b1: 32 bits per register */
        *row = 16 * w + g + 8 * ((i / 32) % 2);
        *col = 32 * q + i % 32 + 128 * (i / 64);
        return;
    }
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

static ptxemu_status load(const char *src)
{
    if (mod) {
        ptxemu_module_unload(mod);
        mod = NULL;
    }
    return ptxemu_module_load_string(dev, "wgmma.ptx", src, 0, &mod);
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

typedef struct Buf {
    char s[65536];
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

/* ------------------------------------------------------------ cases */

typedef struct WCase {
    unsigned n;
    int ta, tb, td;
    bool rega;                  /* A from registers */
    int swa, swb;               /* SW_* */
    bool tra, trb;              /* imm-trans: MN-major A / B */
    bool nega, negb;            /* imm-scale -1 */
    bool scaled;                /* scale-d */
    bool sat;
    unsigned kadv;              /* > 0: K block kadv - 1 of 64-wide tiles */
    unsigned base;              /* A tile 128 * base past 1024 */
    unsigned chain;             /* > 1: that many wgmma over the K blocks
                                   of 64-wide tiles, in commit groups */
    unsigned wgs;               /* warpgroups (default 1) */
    bool sdimm;                 /* scale-d as an immediate 0 / 1 */
} WCase;

#define MAXND 128
#define SHBYTES 40960u

/* The kernel: copy the image (p0) into shared memory, load D (p1) and A
 * registers (p3), run the wgmma (or a chain of them, each in its own
 * commit group, waiting with wait_group 1 as a pipelined main loop
 * would), store D (p2).  Descriptors: p4, p5 (offsets in the shared
 * buffer, relocated by its address); scale-d: p6 != 0 (for the first of
 * a chain; the others accumulate). */
static void gen_mma(Buf *b, const WCase *c, unsigned nd, const char *sd);

static void gen(Buf *b, const WCase *c, unsigned nd)
{
    put(b, ".version 9.0\n.target sm_90a\n.address_size 64\n"
        ".visible .entry k(.param .u64 p0, .param .u64 p1, .param .u64 "
        "p2, .param .u64 p3, .param .u64 p4, .param .u64 p5, .param .u32 "
        "p6)\n{\n.reg .b32 %%r<16>;\n.reg .b64 %%rd<24>;\n"
        ".reg .pred %%p<4>;\n.reg .b32 %%d<%u>;\n.reg .b32 %%a<4>;\n"
        ".shared .align 1024 .b8 sm[%u];\n", nd, SHBYTES);
    put(b, "ld.param.u64 %%rd0, [p0];\nld.param.u64 %%rd1, [p1];\n"
        "ld.param.u64 %%rd2, [p2];\nld.param.u64 %%rd3, [p3];\n"
        "ld.param.u64 %%rd4, [p4];\nld.param.u64 %%rd5, [p5];\n"
        "ld.param.u32 %%r9, [p6];\nmov.u32 %%r0, %%tid.x;\n"
        "mov.u32 %%r1, %%r0;\nL0:\nsetp.ge.u32 %%p0, %%r1, %u;\n"
        "@%%p0 bra L1;\nmul.wide.u32 %%rd6, %%r1, 4;\n"
        "add.s64 %%rd7, %%rd0, %%rd6;\nld.global.u32 %%r2, [%%rd7];\n"
        "mov.u32 %%r3, sm;\nshl.b32 %%r4, %%r1, 2;\n"
        "add.u32 %%r3, %%r3, %%r4;\nst.shared.u32 [%%r3], %%r2;\n"
        "mov.u32 %%r6, %%ntid.x;\nadd.u32 %%r1, %%r1, %%r6;\nbra L0;\n"
        "L1:\nbar.sync 0;\n",
        SHBYTES / 4);
    put(b, "mul.wide.u32 %%rd8, %%r0, %u;\nadd.s64 %%rd9, %%rd1, %%rd8;\n"
        "add.s64 %%rd10, %%rd2, %%rd8;\n", nd * 4);
    for (unsigned r = 0; r < nd; r++) {
        put(b, "ld.global.u32 %%d%u, [%%rd9+%u];\n", r, 4 * r);
    }
    put(b, "mul.wide.u32 %%rd11, %%r0, 16;\nadd.s64 %%rd12, %%rd3, "
        "%%rd11;\n");
    for (unsigned r = 0; r < 4; r++) {
        put(b, "ld.global.u32 %%a%u, [%%rd12+%u];\n", r, 4 * r);
    }
    put(b, "mov.u32 %%r5, sm;\nshr.u32 %%r5, %%r5, 4;\n"
        "cvt.u64.u32 %%rd13, %%r5;\nadd.s64 %%rd14, %%rd4, %%rd13;\n"
        "add.s64 %%rd15, %%rd5, %%rd13;\n");
    put(b, "setp.ne.u32 %%p1, %%r9, 0;\nsetp.ne.u32 %%p2, %%r0, 999;\n"
        "wgmma.fence.sync.aligned;\n");
    unsigned n = c->chain ? c->chain : 1;
    for (unsigned j = 0; j < n; j++) {
        gen_mma(b, c, nd, j ? "%p2" : !c->sdimm ? "%p1"
                                 : c->scaled ? "1" : "0");
        put(b, "wgmma.commit_group.sync.aligned;\n");
        if (j) {
            put(b, "wgmma.wait_group.sync.aligned 1;\n");
        }
        /* the next K block: 32 bytes further (descriptor units of 16) */
        put(b, "add.s64 %%rd14, %%rd14, 2;\nadd.s64 %%rd15, %%rd15, 2;\n");
    }
    put(b, "wgmma.wait_group.sync.aligned 0;\n");
    for (unsigned r = 0; r < nd; r++) {
        put(b, "st.global.u32 [%%rd10+%u], %%d%u;\n", 4 * r, r);
    }
    put(b, "ret;\n}\n");
}

static void gen_mma(Buf *b, const WCase *c, unsigned nd, const char *sd)
{
    unsigned K = k_of(c->ta);
    put(b, "wgmma.mma_async.sync.aligned.m64n%uk%u%s.%s.%s.%s%s {",
        c->n, K, c->sat ? ".satfinite" : "", tname[c->td], tname[c->ta],
        tname[c->tb], c->ta == T_B1 ? ".and.popc" : "");
    for (unsigned r = 0; r < nd; r++) {
        put(b, "%s%%d%u", r ? ", " : "", r);
    }
    put(b, "}, %s, %%rd15, %s", c->rega ? "{%a0, %a1, %a2, %a3}"
        : "%rd14", sd);
    if (is_float(c->ta)) {
        put(b, ", %d, %d", c->nega ? -1 : 1, c->negb ? -1 : 1);
    }
    if (c->ta == T_F16 || c->ta == T_BF16) {
        if (!c->rega) {
            put(b, ", %d", c->tra);
        }
        put(b, ", %d", c->trb);
    }
    put(b, ";\n");
}

/* Run case c with random inputs against the model. */
static void check_case(const WCase *c)
{
    unsigned N = c->n, K = k_of(c->ta);
    unsigned kk = c->kadv || c->chain ? 64 : K;
    unsigned dper = c->td == T_F16 ? 2 : 1, nd = N / 2 / dper;
    unsigned nt = 128 * (c->wgs ? c->wgs : 1), steps = c->chain ? c->chain
                                                                : 1;
    unsigned ab = tbits[c->ta], bb = tbits[c->tb];
    static uint64_t A[64 * 256], B[256 * 256];  /* [mn][k], k < kk */
    static uint8_t img[SHBYTES];
    static uint32_t din[256 * MAXND], dout[256 * MAXND], areg[256 * 4];
    static Buf b;
    for (unsigned e = 0; e < 64 * kk; e++) {
        A[e] = rand_val(c->ta);
    }
    for (unsigned e = 0; e < N * kk; e++) {
        B[e] = rand_val(c->tb);
    }
    for (unsigned e = 0; e < nt * nd; e++) {
        uint32_t v = 0;
        for (unsigned h = 0; h < dper; h++) {
            uint64_t x = c->td == T_S32
                ? (c->sat ? (uint32_t)rndi(-8, 8) + (rnd64() & 1 ?
                                                    0x7ffffff0u : 0x80000010u)
                          : (uint32_t)rnd64())
                : rand_val(c->td);
            v |= (uint32_t)x << (16 * h);
        }
        din[e] = v;
    }
    /* tiles: A at 128 * base, B at the next 1024-byte boundary */
    Lay la = { c->tra, c->swa, 0, 0, 128 * c->base };
    Lay lb = { c->trb, c->swb, 0, 0, 0 };
    strides(&la, ab, 64, kk);
    strides(&lb, bb, N, kk);
    memset(img, 0xA5, sizeof(img));
    unsigned long amax = 0;
    for (unsigned m = 0; m < 64 && !c->rega; m++) {
        for (unsigned k = 0; k < kk; k++) {
            unsigned long o = place(&la, ab, m, k);
            amax = o > amax ? o : amax;
        }
    }
    lb.start = c->rega ? 0 : (unsigned)((amax / 8 + 1024) / 1024 * 1024);
    for (unsigned m = 0; m < 64 && !c->rega; m++) {
        for (unsigned k = 0; k < kk; k++) {
            put_bits(img, place(&la, ab, m, k), ab, A[m * kk + k]);
        }
    }
    for (unsigned n = 0; n < N; n++) {
        for (unsigned k = 0; k < kk; k++) {
            unsigned long o = place(&lb, bb, n, k);
            ck_assert_uint_lt(o / 8, SHBYTES);
            put_bits(img, o, bb, B[n * kk + k]);
        }
    }
    /* the instruction's K block: kadv - 1 (32 bytes of K further) */
    unsigned k0 = c->kadv ? (c->kadv - 1) * K : 0;
    unsigned koff = c->kadv ? (c->kadv - 1) * 32 : 0;
    uint64_t da = desc_of(&la, la.start + koff, c->base);
    uint64_t db = desc_of(&lb, lb.start + koff, 0);
    memset(areg, 0, sizeof(areg));
    for (unsigned t = 0; t < nt && c->rega; t++) {
        for (unsigned i = 0; i < 128 / ab; i++) {
            unsigned r, col;
            frag_a(c->ta, t % 128, i, &r, &col);
            areg[t * 4 + i / (32 / ab)] |=
                (uint32_t)A[r * kk + col] << (i % (32 / ab) * ab);
        }
    }
    b.n = 0;
    gen(&b, c, nd);
    ck_assert_msg(load(b.s) == PTXEMU_SUCCESS, "load: %s\n%s",
                  ptxemu_last_error_message(dev), b.s);
    ptxemu_devptr args[7] = {
        dbuf(img, sizeof(img)), dbuf(din, nt * nd * 4),
        dbuf(NULL, nt * nd * 4), dbuf(areg, sizeof(areg)), da, db,
        c->scaled
    };
    ptxemu_function *f = NULL;
    ck_assert_int_eq(ptxemu_module_get_function(mod, "k", &f),
                     PTXEMU_SUCCESS);
    uint32_t sd = c->scaled;
    void *params[7] = { &args[0], &args[1], &args[2], &args[3], &args[4],
                        &args[5], &sd };
    unsigned grid[3] = { 1, 1, 1 }, block[3] = { nt, 1, 1 };
    ptxemu_status st = ptxemu_launch(f, grid, block, 0, params);
    if (st == PTXEMU_SUCCESS) {
        st = ptxemu_synchronize(dev);
    }
    ck_assert_msg(st == PTXEMU_SUCCESS, "run: %s",
                  ptxemu_last_error_message(dev));
    ck_assert_int_eq(ptxemu_memcpy_dtoh(dev, dout, args[2], nt * nd * 4),
                     PTXEMU_SUCCESS);
    uint64_t arow[256], bcol[256];
    unsigned special = 0;
    for (unsigned t = 0; t < nt; t++) {
        for (unsigned i = 0; i < N / 2; i++) {
            unsigned r, col;
            frag_d(t % 128, i, &r, &col);
            unsigned reg = t * nd + i / dper, sh = i % dper * 16;
            uint64_t emask = dper == 2 ? 0xffff : 0xffffffff;
            uint64_t exp = (din[reg] >> sh) & emask;
            uint64_t got = (dout[reg] >> sh) & emask;
            /* each wgmma of a chain rounds its own result */
            for (unsigned j = 0; j < steps; j++) {
                for (unsigned k = 0; k < K; k++) {
                    arow[k] = A[r * kk + k0 + j * K + k];
                    bcol[k] = B[col * kk + k0 + j * K + k];
                }
                bool hasc = c->scaled || j > 0;
                exp = is_float(c->ta)
                    ? model_f(c->ta, c->tb, c->td, K, arow, bcol, c->nega,
                              c->negb, hasc, exp)
                    : model_i(c->ta, c->tb, K, arow, bcol, hasc, exp,
                              c->sat);
            }
            special += c->td == T_S32 ? (exp == INT32_MAX ||
                                         exp == 0x80000000u)
                : dper == 2 ? (exp & 0x7c00) == 0x7c00
                            : (exp & 0x7f800000) == 0x7f800000;
            ck_assert_msg(got == exp,
                          "m64n%uk%u .%s.%s.%s thread %u element %u "
                          "(row %u col %u): got 0x%" PRIx64 ", expected 0x%"
                          PRIx64, N, K, tname[c->td], tname[c->ta],
                          tname[c->tb], t, i, r, col, got, exp);
        }
    }
    if (c->sat) {
        ck_assert_uint_gt(special, 0);      /* saturation was exercised */
    }
}

static const WCase cases[] = {
    /* f16, each swizzle mode, both accumulators, N = 8, 16, 64, 256 */
    { 8, T_F16, T_F16, T_F32, false, SW_NONE, SW_NONE, 0, 0, 0, 0, 1,
      0, 0, 0, 0, 0, 0 },
    { 16, T_F16, T_F16, T_F16, false, SW_128, SW_64, 0, 0, 0, 0, 1,
      0, 0, 0, 0, 0, 0 },
    { 64, T_F16, T_F16, T_F32, false, SW_32, SW_128, 0, 0, 1, 0, 1,
      0, 0, 0, 0, 0, 0 },
    { 256, T_F16, T_F16, T_F32, false, SW_128, SW_128, 0, 0, 0, 1, 0,
      0, 0, 0, 0, 0, 0 },
    { 256, T_F16, T_F16, T_F16, false, SW_64, SW_32, 0, 0, 1, 1, 1,
      0, 0, 0, 0, 0, 0 },
    /* transposed (MN-major) A and B, every swizzle */
    { 128, T_F16, T_F16, T_F32, false, SW_128, SW_64, 1, 1, 0, 1, 1,
      0, 0, 0, 0, 0, 0 },
    { 24, T_BF16, T_BF16, T_F32, false, SW_NONE, SW_NONE, 1, 1, 0, 0,
      1, 0, 0, 0, 0, 0, 0 },
    { 72, T_BF16, T_BF16, T_F32, false, SW_32, SW_128, 1, 0, 1, 0, 0,
      0, 0, 0, 0, 0, 0 },
    { 40, T_F16, T_F16, T_F16, false, SW_64, SW_32, 0, 1, 0, 0, 1,
      0, 0, 0, 0, 0, 0 },
    /* tf32, fp8 */
    { 32, T_TF32, T_TF32, T_F32, false, SW_128, SW_32, 0, 0, 0, 1, 1,
      0, 0, 0, 0, 0, 0 },
    { 8, T_TF32, T_TF32, T_F32, false, SW_NONE, SW_64, 0, 0, 1, 0, 0,
      0, 0, 0, 0, 0, 0 },
    { 40, T_E4M3, T_E5M2, T_F32, false, SW_64, SW_NONE, 0, 0, 1, 1, 1,
      0, 0, 0, 0, 0, 0 },
    { 16, T_E5M2, T_E4M3, T_F16, false, SW_128, SW_128, 0, 0, 0, 0, 1,
      0, 0, 0, 0, 0, 0 },
    { 256, T_E4M3, T_E4M3, T_F32, false, SW_32, SW_128, 0, 0, 0, 0, 1,
      0, 0, 0, 0, 0, 0 },
    /* integers, .satfinite, b1 */
    { 48, T_S8, T_U8, T_S32, false, SW_128, SW_NONE, 0, 0, 0, 0, 1,
      1, 0, 0, 0, 0, 0 },
    { 24, T_U8, T_S8, T_S32, false, SW_32, SW_64, 0, 0, 0, 0, 1, 0, 0,
      0, 0, 0, 0 },
    { 256, T_S8, T_S8, T_S32, false, SW_64, SW_128, 0, 0, 0, 0, 1, 1,
      0, 0, 0, 0, 0 },
    { 16, T_U8, T_U8, T_S32, false, SW_NONE, SW_32, 0, 0, 0, 0, 0, 0,
      0, 0, 0, 0, 0 },
    { 16, T_B1, T_B1, T_S32, false, SW_128, SW_NONE, 0, 0, 0, 0, 1, 0,
      0, 0, 0, 0, 0 },
    { 256, T_B1, T_B1, T_S32, false, SW_NONE, SW_64, 0, 0, 0, 0, 1, 0,
      0, 0, 0, 0, 0 },
    /* A from registers */
    { 32, T_F16, T_F16, T_F32, true, 0, SW_128, 0, 1, 1, 0,
      1, 0, 0, 0, 0, 0, 0 },
    { 8, T_BF16, T_BF16, T_F32, true, 0, SW_NONE, 0, 0, 0, 1, 1, 0, 0,
      0, 0, 0, 0 },
    { 16, T_TF32, T_TF32, T_F32, true, 0, SW_64, 0, 0, 0, 0,
      1, 0, 0, 0, 0, 0, 0 },
    { 64, T_E5M2, T_E5M2, T_F16, true, 0, SW_32, 0, 0, 1, 0,
      1, 0, 0, 0, 0, 0, 0 },
    { 32, T_S8, T_S8, T_S32, true, 0, SW_128, 0, 0, 0, 0,
      1, 1, 0, 0, 0, 0, 0 },
    { 64, T_B1, T_B1, T_S32, true, 0, SW_128, 0, 0, 0, 0,
      1, 0, 0, 0, 0, 0, 0 },
    /* a tile whose swizzle pattern starts off its 1024-byte boundary,
     * with the base offset saying where */
    { 16, T_F16, T_F16, T_F32, false, SW_128, SW_128, 0, 0, 0, 0, 1, 0,
      0, 3, 0, 0, 0 },
    { 16, T_F16, T_F16, T_F32, false, SW_64, SW_64, 0, 0, 0, 0, 1, 0,
      0, 1, 0, 0, 0 },
    { 24, T_BF16, T_BF16, T_F32, false, SW_128, SW_NONE, 0, 0, 0, 0, 1,
      0, 0, 6, 0, 0, 0 },
    { 16, T_F16, T_F16, T_F32, false, SW_32, SW_32, 0, 0, 0, 0, 1, 0,
      0, 1, 0, 0, 0 },
    /* K blocks 1 .. 3 of 64-wide 128-byte-swizzled tiles: the start
     * address moves 32 bytes into the atom, base offset 0 */
    { 16, T_F16, T_F16, T_F32, false, SW_128, SW_128, 0, 0, 0, 0, 1, 0,
      2, 0, 0, 0, 0 },
    { 32, T_BF16, T_BF16, T_F32, false, SW_128, SW_128, 0, 0, 0, 0, 1,
      0, 4, 0, 0, 0, 0 },
    /* a main loop: 4 wgmma over K, each its own commit group, wait 1 */
    { 64, T_F16, T_F16, T_F32, false, SW_128, SW_128, 0, 0, 0, 0, 0, 0,
      0, 0, 4, 0, 0 },
    { 16, T_BF16, T_BF16, T_F32, false, SW_128, SW_128, 0, 0, 1, 0, 1, 0,
      0, 0, 4, 0, 0 },
    /* two warpgroups: warps 4 .. 7 hold rows 16 (w mod 4) .. */
    { 24, T_F16, T_F16, T_F16, false, SW_64, SW_32, 0, 1, 0, 0, 1, 0, 0,
      0, 0, 2, 0 },
    { 16, T_S8, T_U8, T_S32, true, 0, SW_128, 0, 0, 0, 0, 1, 0, 0, 0, 0,
      2, 0 },
    /* scale-d given as an immediate */
    { 16, T_F16, T_F16, T_F32, false, SW_NONE, SW_128, 0, 0, 0, 0, 0, 0,
      0, 0, 0, 0, 1 },
    { 8, T_S8, T_S8, T_S32, false, SW_32, SW_NONE, 0, 0, 0, 0, 1, 0, 0,
      0, 0, 0, 1 },
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

START_TEST(wgmma_forms)
{
    check_case(&cases[_i]);
}
END_TEST

/* ------------------------------------------------------------ errors */

/* Run a one-warpgroup kernel text expecting failure with `want` (and
 * the file position) in the message. */
static void expect_run_error(const char *src, unsigned threads,
                             const char *want)
{
    ck_assert_msg(load(src) == PTXEMU_SUCCESS, "load: %s",
                  ptxemu_last_error_message(dev));
    ptxemu_devptr args[7] = { dbuf(NULL, SHBYTES), dbuf(NULL, 4096),
                              dbuf(NULL, 4096), dbuf(NULL, 4096), 0, 0,
                              1 };
    ptxemu_status st = run_k(threads, args, 4);
    ck_assert_int_ne(st, PTXEMU_SUCCESS);
    const char *msg = ptxemu_last_error_message(dev);
    ck_assert_msg(strstr(msg, want) && strstr(msg, "wgmma.ptx:"),
                  "message: %s (want %s)", msg, want);
}

#define SIMPLE_HDR                                                        \
    ".version 9.0\n.target sm_90a\n.address_size 64\n"                    \
    ".visible .entry k(.param .u64 p0, .param .u64 p1, .param .u64 p2, " \
    ".param .u64 p3)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"          \
    ".reg .pred %p<2>;\n.reg .f32 %f<4>;\n"                              \
    ".shared .align 1024 .b8 sm[512];\n"                                 \
    "mov.u32 %r0, %tid.x;\nsetp.ne.u32 %p1, %r0, 999;\n"

START_TEST(wgmma_desc_outside_shared)
{
    /* B starts at 0x10000, far past the 512 bytes of shared memory */
    expect_run_error(SIMPLE_HDR
        "mov.b64 %rd1, 0;\nmov.b64 %rd2, 0x0000001000081000;\n"
        "wgmma.fence.sync.aligned;\n"
        "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
        "{%f0, %f1, %f2, %f3}, %rd1, %rd2, %p1, 1, 1, 0, 0;\n"
        "ret;\n}\n", 128, "outside the CTA's 512 bytes of shared memory");
}
END_TEST

START_TEST(wgmma_desc_not_uniform)
{
    expect_run_error(SIMPLE_HDR
        "cvt.u64.u32 %rd1, %r0;\nmov.b64 %rd2, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
        "{%f0, %f1, %f2, %f3}, %rd1, %rd2, %p1, 1, 1, 0, 0;\n"
        "ret;\n}\n", 128, "matrix A descriptor differs between lanes");
}
END_TEST

START_TEST(wgmma_partial_warpgroup)
{
    static const char src[] = SIMPLE_HDR
        "wgmma.fence.sync.aligned;\nret;\n}\n";
    expect_run_error(src, 96, "the block size must be a multiple of 128");
    expect_run_error(src, 130, "has 2 threads");
}
END_TEST

START_TEST(wgmma_divergent)
{
    expect_run_error(SIMPLE_HDR
        "setp.lt.u32 %p0, %r0, 16;\n@%p0 bra DONE;\n"
        "wgmma.commit_group.sync.aligned;\nDONE:\nret;\n}\n", 128,
        "needs all 32 lanes of the warp");
}
END_TEST

START_TEST(wgmma_sparse_unsupported)
{
    expect_run_error(SIMPLE_HDR
        "mov.b64 %rd1, 0;\nmov.b64 %rd2, 0;\n"
        "wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 "
        "{%f0, %f1, %f2, %f3}, %rd1, %rd2, %r0, 0, %p1, 1, 1, 0, 0;\n"
        "ret;\n}\n", 128, "wgmma.mma_async.sp (sparse warpgroup MMA) is "
        "not supported");
}
END_TEST

/* Forms the ISA does not define are refused at load. */
START_TEST(wgmma_bad_forms)
{
    static const char *const bad[] = {
        /* tf32 takes no imm-trans */
        "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 "
        "{%f0, %f1, %f2, %f3}, %rd1, %rd2, %p1, 1, 1, 0, 0;",
        /* K 16 with tf32 */
        "wgmma.mma_async.sync.aligned.m64n8k16.f32.tf32.tf32 "
        "{%f0, %f1, %f2, %f3}, %rd1, %rd2, %p1, 1, 1;",
        /* imm-scale must be 1 or -1 */
        "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
        "{%f0, %f1, %f2, %f3}, %rd1, %rd2, %p1, 2, 1, 0, 0;",
        /* bf16 accumulates in f32 only */
        "wgmma.mma_async.sync.aligned.m64n8k16.f16.bf16.bf16 "
        "{%r1, %r2}, %rd1, %rd2, %p1, 1, 1, 0, 0;",
        /* wrong D register count */
        "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 "
        "{%f0, %f1, %f2, %f3}, %rd1, %rd2, %p1, 1, 1, 0, 0;",
    };
    for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
        char src[2048];
        snprintf(src, sizeof(src), "%s%s\nret;\n}\n", SIMPLE_HDR, bad[k]);
        ck_assert_msg(load(src) != PTXEMU_SUCCESS, "accepted: %s", bad[k]);
    }
    /* N = 40 is not an integer shape; N = 48 is */
    char src[2048];
    snprintf(src, sizeof(src), "%s%s", SIMPLE_HDR,
             "wgmma.mma_async.sync.aligned.m64n40k32.s32.s8.s8 {");
    for (unsigned r = 0; r < 20; r++) {
        snprintf(src + strlen(src), sizeof(src) - strlen(src), "%s%%r%u",
                 r ? ", " : "", r % 8);
    }
    snprintf(src + strlen(src), sizeof(src) - strlen(src),
             "}, %%rd1, %%rd2, %%p1;\nret;\n}\n");
    ck_assert_msg(load(src) != PTXEMU_SUCCESS, "accepted m64n40k32.s8");
    char *p = strstr(src, "n40k32");
    memcpy(p, "n48k32", 6);
    p = strstr(src, "}, %rd1");
    char tail[256];
    snprintf(tail, sizeof(tail), "%s", p);
    snprintf(p, sizeof(src) - (size_t)(p - src), ", %%r0, %%r1, %%r2, "
             "%%r3%s", tail);
    ck_assert_msg(load(src) == PTXEMU_SUCCESS, "refused: %s",
                  ptxemu_last_error_message(dev));
}
END_TEST

/* ------------------------------------------------------------ groups */

/* A, B all 1.0 (f16) in no-swizzle K-major tiles: A at 0 (LBO 128, SBO
 * 256), B at 2048.  Warps 1 .. 3 spin before issuing the wgmma; warp 0
 * zeroes B as soon as its wait_group 0 returns.  A group is complete
 * only when every warp of the warpgroup has issued it, so all of D must
 * be 16 (K ones), none 0. */
static const char group_src[] =
    ".version 9.0\n.target sm_90a\n.address_size 64\n"
    ".visible .entry k(.param .u64 p0, .param .u64 p1, .param .u64 p2, "
    ".param .u64 p3)\n{\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"
    ".reg .pred %p<4>;\n.reg .f32 %f<4>;\n"
    ".shared .align 1024 .b8 sm[2304];\n"
    "ld.param.u64 %rd0, [p1];\nmov.u32 %r0, %tid.x;\nmov.u32 %r1, %r0;\n"
    "F:\nsetp.ge.u32 %p0, %r1, 576;\n@%p0 bra F1;\nmov.u32 %r2, sm;\n"
    "shl.b32 %r3, %r1, 2;\nadd.u32 %r2, %r2, %r3;\n"
    "st.shared.u32 [%r2], 0x3C003C00;\nadd.u32 %r1, %r1, 128;\nbra F;\n"
    "F1:\nbar.sync 0;\nshr.u32 %r4, %r0, 5;\nsetp.eq.u32 %p1, %r4, 0;\n"
    "@%p1 bra GO;\nmov.u32 %r5, 0;\nD:\nadd.u32 %r5, %r5, 1;\n"
    "setp.lt.u32 %p2, %r5, %WAIT;\n@%p2 bra D;\n"
    "GO:\nmov.u32 %r6, sm;\nshr.u32 %r6, %r6, 4;\n"
    "cvt.u64.u32 %rd1, %r6;\nadd.s64 %rd2, %rd1, 0x0000001000080000;\n"
    "add.s64 %rd3, %rd1, 0x0000001000080080;\n"
    "setp.ne.u32 %p3, %r0, %r0;\nmov.f32 %f0, 0f00000000;\n"
    "mov.f32 %f1, %f0;\nmov.f32 %f2, %f0;\nmov.f32 %f3, %f0;\n"
    "wgmma.fence.sync.aligned;\n"
    "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
    "{%f0, %f1, %f2, %f3}, %rd2, %rd3, %p3, 1, 1, 0, 0;\n"
    "wgmma.commit_group.sync.aligned;\n"
    "wgmma.wait_group.sync.aligned 0;\n"
    "@!%p1 bra ST;\nmov.u32 %r7, sm;\nadd.u32 %r7, %r7, 2048;\n"
    "and.b32 %r8, %r0, 31;\nshl.b32 %r8, %r8, 2;\n"
    "add.u32 %r7, %r7, %r8;\nst.shared.u32 [%r7], 0;\n"
    "st.shared.u32 [%r7+128], 0;\n"
    "ST:\nmul.wide.u32 %rd4, %r0, 16;\nadd.s64 %rd5, %rd0, %rd4;\n"
    "st.global.v4.f32 [%rd5], {%f0, %f1, %f2, %f3};\nret;\n}\n";

START_TEST(wgmma_wait_covers_warpgroup)
{
    char src[sizeof(group_src) + 16], *p;
    snprintf(src, sizeof(src), "%s", group_src);
    p = strstr(src, "%WAIT");
    memcpy(p, "  400", 5);
    ck_assert_msg(load(src) == PTXEMU_SUCCESS, "%s",
                  ptxemu_last_error_message(dev));
    float out[512];
    ptxemu_devptr args[4] = { 0, dbuf(NULL, sizeof(out)), 0, 0 };
    ck_assert_int_eq(run_k(128, args, 4), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_memcpy_dtoh(dev, out, args[1], sizeof(out)),
                     PTXEMU_SUCCESS);
    for (unsigned e = 0; e < 512; e++) {
        ck_assert_msg(out[e] == 16.0f, "D[%u] = %g", e, (double)out[e]);
    }
}
END_TEST

/* A warp of the warpgroup that never issues the group leaves the others
 * waiting: a deadlock, reported, not a hang. */
START_TEST(wgmma_wait_deadlock)
{
    ck_assert_msg(load(SIMPLE_HDR
                       "shr.u32 %r1, %r0, 5;\nsetp.ne.u32 %p0, %r1, 0;\n"
                       "@%p0 exit;\nwgmma.commit_group.sync.aligned;\n"
                       "wgmma.wait_group.sync.aligned 0;\nret;\n}\n")
                  == PTXEMU_SUCCESS, "%s", ptxemu_last_error_message(dev));
    ptxemu_devptr args[4] = { 0, 0, 0, 0 };
    ptxemu_status st = run_k(128, args, 4);
    ck_assert_int_ne(st, PTXEMU_SUCCESS);
    const char *msg = ptxemu_last_error_message(dev);
    ck_assert_msg(strstr(msg, "deadlock") != NULL, "message: %s", msg);
}
END_TEST

/* ------------------------------------------------------------ setmaxnreg */

START_TEST(setmaxnreg_values)
{
    static const unsigned ok[] = { 24, 32, 128, 232, 240, 256 };
    static const unsigned bad[] = { 0, 16, 20, 100, 264 };
    char src[1024];
    for (size_t k = 0; k < sizeof(ok) / sizeof(ok[0]); k++) {
        snprintf(src, sizeof(src), "%s"
                 "setmaxnreg.%s.sync.aligned.u32 %u;\n"
                 "ld.param.u64 %%rd1, [p1];\nmul.wide.u32 %%rd2, %%r0, "
                 "4;\nadd.s64 %%rd3, %%rd1, %%rd2;\n"
                 "st.global.u32 [%%rd3], %%r0;\nret;\n}\n",
                 SIMPLE_HDR, k % 2 ? "inc" : "dec", ok[k]);
        ck_assert_msg(load(src) == PTXEMU_SUCCESS, "%s",
                      ptxemu_last_error_message(dev));
        uint32_t out[256];
        ptxemu_devptr args[4] = { dbuf(NULL, 16), dbuf(NULL, sizeof(out)),
                                  0, 0 };
        ck_assert_int_eq(run_k(256, args, 4), PTXEMU_SUCCESS);
        ck_assert_int_eq(ptxemu_memcpy_dtoh(dev, out, args[1],
                                            sizeof(out)), PTXEMU_SUCCESS);
        for (unsigned t = 0; t < 256; t++) {
            ck_assert_uint_eq(out[t], t);
        }
    }
    for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
        snprintf(src, sizeof(src), "%ssetmaxnreg.inc.sync.aligned.u32 "
                 "%u;\nret;\n}\n", SIMPLE_HDR, bad[k]);
        char want[96];
        snprintf(want, sizeof(want), "register count %u is not in 24 .. "
                 "256", bad[k]);
        expect_run_error(src, 128, want);
    }
}
END_TEST

static Suite *wgmma_suite(void)
{
    Suite *s = suite_create("ops_wgmma");
    TCase *tc = tcase_create("wgmma");
    tcase_set_timeout(tc, 300);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, wgmma_forms, 0, (int)NCASES);
    tcase_add_test(tc, wgmma_desc_outside_shared);
    tcase_add_test(tc, wgmma_desc_not_uniform);
    tcase_add_test(tc, wgmma_partial_warpgroup);
    tcase_add_test(tc, wgmma_divergent);
    tcase_add_test(tc, wgmma_sparse_unsupported);
    tcase_add_test(tc, wgmma_bad_forms);
    tcase_add_test(tc, wgmma_wait_covers_warpgroup);
    tcase_add_test(tc, wgmma_wait_deadlock);
    tcase_add_test(tc, setmaxnreg_values);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(wgmma_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
