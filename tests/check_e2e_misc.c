/*
 * tests/check_e2e_misc.c: end-to-end tests of the corpus kernels that
 * exercise less common PTX: SIMD video instructions, packed half
 * atomics, libcu++ atomics, cache operators, miscellaneous integer and
 * packing forms, special registers and predefined identifiers, traps, -G and -rdc output, pointer
 * arithmetic, cooperative grid synchronisation and alloca.
 *
 * Every expected value comes from host code written from the CUDA / PTX
 * ISA documentation of the instruction or intrinsic (cited where the
 * semantics are not obvious).  Where the order of threads decides a
 * value (racing atomics), only facts that hold for every order are
 * checked; special registers are checked against their documented
 * relations.
 */
#include <check.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/ptxemu.h"

#include "tests/e2e_util.h"

/* The whole of a corpus PTX file, malloc'd. */
static char *read_ptx(const char *base)
{
    const char *top = getenv("top_srcdir");
    char path[1024];
    snprintf(path, sizeof(path), "%s/tests/corpus/ptx/%s.sm80.ptx",
             top ? top : ".", base);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    ck_assert(s != NULL);
    ck_assert_int_eq(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = 0;
    fclose(f);
    return s;
}

static void launch_coop(const char *name, unsigned gx, unsigned bx,
                        void **params)
{
    ptxemu_function *f = NULL;
    ck_assert_int_eq(ptxemu_module_get_function(mod, name, &f),
                     PTXEMU_SUCCESS);
    unsigned grid[3] = {gx, 1, 1}, block[3] = {bx, 1, 1};
    ptxemu_status st = ptxemu_launch_cooperative(f, grid, block, 0, params);
    ck_assert_msg(st == PTXEMU_SUCCESS, "%s: %s: %s", name,
                  ptxemu_status_name(st), ptxemu_last_error_message(dev));
    ck_assert_int_eq(ptxemu_synchronize(dev), PTXEMU_SUCCESS);
}

#define HAS(msg, sub)                                                      \
    ck_assert_msg(strstr((msg), (sub)) != NULL, "'%s' not in: %s", (sub), \
                  (msg))

/* ------------------------------------------------------------- SIMD */

/* Lane k (of w bits) of x, zero- or sign-extended. */
static int64_t lane_of(uint32_t x, int k, int w, int sgn)
{
    uint32_t m = (w == 32) ? ~0u : ((1u << w) - 1);
    uint32_t v = (x >> (k * w)) & m;
    if (sgn && w < 32 && (v >> (w - 1)))
        return (int64_t)v - ((int64_t)1 << w);
    if (sgn && w == 32)
        return (int32_t)v;
    return v;
}

static int64_t clampi(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* The per-lane operations of the __v*2 / __v*4 intrinsics (CUDA Math
 * API, "SIMD Intrinsics"). */
enum {
    V_ADD, V_ADDSS, V_ADDUS, V_SUB, V_SUBSS, V_SUBUS, V_ABSDIFFS,
    V_ABSDIFFU, V_ABS, V_ABSSS, V_AVGS, V_AVGU, V_HADDU, V_MAXS, V_MAXU,
    V_MINS, V_MINU, V_CMPEQ, V_CMPGES, V_CMPGTU, V_CMPLES, V_CMPLEU,
    V_CMPLTS, V_CMPLTU, V_CMPNE, V_SETGTU, V_SETGES, V_SETEQ, V_SETLTU,
    V_SETNE, V_NEG, V_NEGSS
};

static uint32_t simd(int op, uint32_t x, uint32_t y, int w)
{
    int nl = 32 / w;
    int64_t smin = -((int64_t)1 << (w - 1)), smax = -smin - 1;
    int64_t umax = ((int64_t)1 << w) - 1;
    uint32_t r = 0;
    for (int k = 0; k < nl; k++) {
        int64_t sa = lane_of(x, k, w, 1), sb = lane_of(y, k, w, 1);
        int64_t ua = lane_of(x, k, w, 0), ub = lane_of(y, k, w, 0);
        int64_t t = 0, all = umax;
        switch (op) {
        case V_ADD: t = ua + ub; break;
        case V_ADDSS: t = clampi(sa + sb, smin, smax); break;
        case V_ADDUS: t = clampi(ua + ub, 0, umax); break;
        case V_SUB: t = ua - ub; break;
        case V_SUBSS: t = clampi(sa - sb, smin, smax); break;
        case V_SUBUS: t = clampi(ua - ub, 0, umax); break;
        case V_ABSDIFFS: t = llabs(sa - sb); break;
        case V_ABSDIFFU: t = llabs(ua - ub); break;
        case V_ABS: t = llabs(sa); break;
        case V_ABSSS: t = clampi(llabs(sa), 0, smax); break;
        /* signed rounded average: halves round away from zero */
        case V_AVGS: t = (sa + sb) >= 0 ? (sa + sb + 1) >> 1
                                        : (sa + sb) >> 1;
            break;
        case V_AVGU: t = (ua + ub + 1) >> 1; break;
        case V_HADDU: t = (ua + ub) >> 1; break;
        case V_MAXS: t = sa > sb ? sa : sb; break;
        case V_MAXU: t = ua > ub ? ua : ub; break;
        case V_MINS: t = sa < sb ? sa : sb; break;
        case V_MINU: t = ua < ub ? ua : ub; break;
        case V_CMPEQ: t = ua == ub ? all : 0; break;
        case V_CMPGES: t = sa >= sb ? all : 0; break;
        case V_CMPGTU: t = ua > ub ? all : 0; break;
        case V_CMPLES: t = sa <= sb ? all : 0; break;
        case V_CMPLEU: t = ua <= ub ? all : 0; break;
        case V_CMPLTS: t = sa < sb ? all : 0; break;
        case V_CMPLTU: t = ua < ub ? all : 0; break;
        case V_CMPNE: t = ua != ub ? all : 0; break;
        case V_SETGTU: t = ua > ub; break;
        case V_SETGES: t = sa >= sb; break;
        case V_SETEQ: t = ua == ub; break;
        case V_SETLTU: t = ua < ub; break;
        case V_SETNE: t = ua != ub; break;
        case V_NEG: t = -sa; break;
        case V_NEGSS: t = clampi(-sa, smin, smax); break;
        default: ck_abort(); break;
        }
        r |= (uint32_t)((uint64_t)t & (uint64_t)umax) << (k * w);
    }
    return r;
}

/* __vsads / __vsadu: the sum of the lanes' absolute differences. */
static uint32_t sad(uint32_t x, uint32_t y, int w, int sgn)
{
    uint32_t s = 0;
    for (int k = 0; k < 32 / w; k++)
        s += (uint32_t)llabs(lane_of(x, k, w, sgn) - lane_of(y, k, w, sgn));
    return s;
}

static const int pair_ops[] = {
    V_ADD, V_ADDSS, V_ADDUS, V_SUB, V_SUBSS, V_SUBUS, V_ABSDIFFS,
    V_ABSDIFFU, V_ABS, V_ABSSS, V_AVGS, V_AVGU, V_HADDU, V_MAXS, V_MAXU,
    V_MINS, V_MINU, V_CMPEQ, V_CMPGES, V_CMPGTU, V_CMPLES, V_CMPLTU,
    V_CMPNE, V_SETGTU, V_SETGES, V_SETEQ, V_SETLTU};
static const int quad_ops[] = {
    V_ADD, V_ADDSS, V_ADDUS, V_SUB, V_SUBSS, V_SUBUS, V_ABSDIFFS,
    V_ABSDIFFU, V_ABS, V_ABSSS, V_AVGS, V_AVGU, V_HADDU, V_MAXS, V_MAXU,
    V_MINS, V_MINU, V_CMPEQ, V_CMPGES, V_CMPGTU, V_CMPLEU, V_CMPLTS,
    V_CMPNE, V_SETGTU, V_SETGES, V_SETEQ, V_SETNE};

/* Inputs with equal, extreme and random lanes. */
static void simd_inputs(uint32_t *a, uint32_t *b, int n)
{
    static const uint32_t edge[] = {0x00000000u, 0xffffffffu, 0x80008000u,
                                    0x7fff7fffu, 0x80808080u, 0x7f7f7f7fu,
                                    0x00ff8001u, 0x01000100u};
    for (int i = 0; i < n; i++) {
        a[i] = rnd();
        b[i] = (i % 5 == 0) ? a[i] ^ (rnd() & 0x00ff00ffu) : rnd();
        if (i % 7 == 0)
            a[i] = edge[rnd() % 8];
        if (i % 11 == 0)
            b[i] = edge[rnd() % 8];
    }
}

static void run_simd(const char *kernel, const int *ops, int nops, int w,
                     uint32_t seed)
{
    open_ptx("simd_video");
    rng_seed(seed);
    static uint32_t a[NN], b[NN], out[NN];
    simd_inputs(a, b, NN);
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dout, &n};
    launch(kernel, NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        uint32_t x = a[i], y = b[i], r = 0;
        for (int k = 0; k < nops; k++)
            r ^= simd(ops[k], x, y, w);
        r ^= sad(x, y, w, 1) ^ sad(x, y, w, 0);
        r ^= simd(V_NEG, x, 0, w) ^ simd(V_NEGSS, x, 0, w);
        EQ_I(kernel, i, out[i], r);
    }
    close_ptx();
}

START_TEST(e2e_simd_pairs)
{
    run_simd("simd_pairs", pair_ops,
             (int)(sizeof(pair_ops) / sizeof(pair_ops[0])), 16, 301);
}
END_TEST

START_TEST(e2e_simd_quads)
{
    run_simd("simd_quads", quad_ops,
             (int)(sizeof(quad_ops) / sizeof(quad_ops[0])), 8, 302);
}
END_TEST

static int32_t smax32(int32_t a, int32_t b)
{
    return a > b ? a : b;
}

static int32_t smin32(int32_t a, int32_t b)
{
    return a < b ? a : b;
}

START_TEST(e2e_simd_minmax3)
{
    open_ptx("simd_video");
    rng_seed(303);
    static int32_t a[NN], b[NN], c[NN], out[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = (int32_t)rnd();
        b[i] = (i % 3 == 0) ? a[i] : (int32_t)rnd();
        c[i] = (i % 4 == 0) ? (int32_t)(rnd() % 200) - 100 : (int32_t)rnd();
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dc = dbuf(c, sizeof(c)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dc, &dout, &n};
    launch("simd_minmax3", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        int32_t x = a[i], y = b[i], z = c[i];
        uint32_t ux = (uint32_t)x, uy = (uint32_t)y, uz = (uint32_t)z;
        int32_t sum = (int32_t)(ux + uy);
        uint32_t r = (uint32_t)smax32(smax32(x, y), z);
        r += (uint32_t)smin32(smin32(x, y), z);
        r += (uint32_t)smax32(sum, z);               /* __viaddmax_s32 */
        r += (uint32_t)smin32(sum, z);               /* __viaddmin_s32 */
        r += (uint32_t)smax32(smax32(x, y), 0);      /* __vimax_s32_relu */
        uint32_t m3 = 0, mr = 0;
        for (int k = 0; k < 2; k++) {
            uint32_t p = (uint32_t)lane_of(ux, k, 16, 0),
                     q = (uint32_t)lane_of(uy, k, 16, 0),
                     s = (uint32_t)lane_of(uz, k, 16, 0);
            uint32_t mx = p > q ? p : q;
            m3 |= (mx > s ? mx : s) << (16 * k);
            int64_t sp = lane_of(ux, k, 16, 1), sq = lane_of(uy, k, 16, 1);
            int64_t mn = sp < sq ? sp : sq;
            mr |= (uint32_t)(mn < 0 ? 0 : mn) << (16 * k);
        }
        r += m3 + mr;
        /* __vibmax_s32: max, and the predicate a >= b */
        r += (uint32_t)smax32(x, y) + (x >= y ? 1u : 0u);
        EQ_I("simd_minmax3", i, (uint32_t)out[i], r);
    }
    close_ptx();
}
END_TEST

/* Lane `sel` (IR byte/half select) of x per the PTX video operand
 * selectors, sign-extended when sgn. */
START_TEST(e2e_simd_video_asm)
{
    open_ptx("simd_video");
    rng_seed(304);
    static uint32_t a[NN], b[NN], out[NN];
    simd_inputs(a, b, NN);
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dout, &n};
    launch("simd_video_asm", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        uint32_t x = a[i], y = b[i];
        int32_t sx = (int32_t)x, sy = (int32_t)y;
        /* PTX ISA "SIMD video instructions": vadd2 .sat clamps each
         * unsigned halfword; vabsdiff4 .add sums the four byte results
         * into c. */
        uint32_t r0 = simd(V_ADDUS, x, y, 16);
        uint32_t r1 = sad(x, y, 8, 0);
        uint32_t r2 = (uint32_t)smax32(sx, sy);
        uint32_t r3 = simd(V_SETNE, x, y, 16);
        /* scalar video: computed with more than 32 bits, .sat clamps */
        uint32_t r4 =
            (uint32_t)(int32_t)clampi((int64_t)sx - sy, INT32_MIN,
                                      INT32_MAX);
        uint32_t r5 = (x < y ? x : y) + r4;           /* vmin .add c */
        uint32_t r6 = x << (y & 31);                  /* vshl .clamp */
        uint32_t r7 = (uint32_t)(sx >> (y & 31));     /* vshr .wrap */
        uint32_t r8 = (x & 0xffff) * (y & 0xffff) + r5;
        /* vabsdiff .max: |sext(x.b0) - sext(y.b1)| then max with c */
        int32_t d9 = (int32_t)llabs(lane_of(x, 0, 8, 1) -
                                    lane_of(y, 1, 8, 1));
        uint32_t r9 = (uint32_t)smax32(d9, (int32_t)r6);
        uint32_t r10 = simd(V_MINS, x, y, 8);
        uint32_t r11 = simd(V_AVGU, x, y, 16);
        uint32_t r = r0 ^ r1 ^ r2 ^ r3 ^ r4 ^ r5 ^ r6 ^ r7 ^ r8 ^ r9 ^
                     r10 ^ r11;
        EQ_I("simd_video_asm", i, out[i], r);
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------ half atomics */

/* Small integers are exact in binary16 and bfloat16; the sums below
 * stay under 2^11 (f16) and 2^8 (bf16), so every order of the racing
 * additions gives the same, exact, result. */
static uint16_t h_of_int(int v)
{
    if (v == 0)
        return 0;
    uint16_t s = v < 0 ? 0x8000 : 0;
    int a = abs(v), e = 0;
    while ((a >> e) > 1)
        e++;
    /* a = 1.m * 2^e, e <= 10: mantissa bits exact */
    return s | (uint16_t)((e + 15) << 10) | (uint16_t)((a << (10 - e)) & 1023);
}

static int int_of_h(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    if (e == 0) {
        ck_assert_msg(m == 0, "half 0x%04x is not an integer", h);
        return 0;
    }
    ck_assert_msg(e >= 15 && e <= 25, "half 0x%04x out of range", h);
    int a = ((1024 + m) >> (25 - e));
    ck_assert_msg((a << (25 - e)) == 1024 + m, "half 0x%04x not integer", h);
    return (h & 0x8000) ? -a : a;
}

static uint16_t bf_of_int(int v)
{
    float f = (float)v;
    return (uint16_t)(fbits(f) >> 16);
}

static int int_of_bf(uint16_t b)
{
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    ck_assert_msg(f == floorf(f), "bf16 0x%04x not an integer", b);
    return (int)f;
}

static int cmp_int(const void *p, const void *q)
{
    int a = *(const int *)p, b = *(const int *)q;
    return (a > b) - (a < b);
}

/* The old values returned by racing fetch-and-adds of v[] to one cell
 * starting at 0 are the prefix sums of some order: as multisets,
 * {0} + {old_i + v_i} == {old_i} + {final}. */
static void check_chain(const char *what, const int *old, const int *v,
                        int n, int fin)
{
    int *l = malloc(sizeof(int) * (size_t)(n + 1)),
        *r = malloc(sizeof(int) * (size_t)(n + 1));
    ck_assert(l && r);
    l[0] = 0;
    r[0] = fin;
    for (int i = 0; i < n; i++) {
        l[i + 1] = old[i] + v[i];
        r[i + 1] = old[i];
    }
    qsort(l, (size_t)n + 1, sizeof(int), cmp_int);
    qsort(r, (size_t)n + 1, sizeof(int), cmp_int);
    for (int i = 0; i <= n; i++)
        EQ_I(what, i, l[i], r[i]);
    free(l);
    free(r);
}

START_TEST(e2e_atomics_half2)
{
    open_ptx("atomics_half");
    rng_seed(311);
    static uint16_t v2[2 * NN], old[2 * NN];
    static int vl[NN], vh[NN], ol[NN], oh[NN];
    int sl = 0, sh = 0;
    for (int i = 0; i < NN; i++) {
        vl[i] = (int)(rnd() % 7) - 3;
        vh[i] = (int)(rnd() % 5) - 2;
        v2[2 * i] = h_of_int(vl[i]);
        v2[2 * i + 1] = h_of_int(vh[i]);
        sl += vl[i];
        sh += vh[i];
    }
    uint16_t acc2[4] = {0, 0, h_of_int(10), h_of_int(-20)}, acc[1] = {
        h_of_int(7)};
    ptxemu_devptr da2 = dbuf(acc2, sizeof(acc2)), da = dbuf(acc, 2),
                  dv = dbuf(v2, sizeof(v2)), dold = dbuf(NULL, sizeof(old));
    int n = NN;
    void *pp[] = {&da2, &da, &dv, &dold, &n};
    launch("atomics_half2", NB, BS, 0, pp);
    dget(acc2, da2, sizeof(acc2));
    dget(acc, da, 2);
    dget(old, dold, sizeof(old));
    EQ_I("acc2.x", 0, int_of_h(acc2[0]), sl);
    EQ_I("acc2.y", 0, int_of_h(acc2[1]), sh);
    /* acc2[1] += (high, low): swapped halves */
    EQ_I("acc2[1].x", 0, int_of_h(acc2[2]), 10 + sh);
    EQ_I("acc2[1].y", 0, int_of_h(acc2[3]), -20 + sl);
    EQ_I("acc", 0, int_of_h(acc[0]), 7 + sl);
    for (int i = 0; i < NN; i++) {
        ol[i] = int_of_h(old[2 * i]);
        oh[i] = int_of_h(old[2 * i + 1]);
    }
    check_chain("old.x", ol, vl, NN, sl);
    check_chain("old.y", oh, vh, NN, sh);
    close_ptx();
}
END_TEST

START_TEST(e2e_atomics_bf162)
{
    open_ptx("atomics_half");
    rng_seed(312);
    enum { M = 200 };   /* partial sums stay within 8 bits */
    static uint16_t v2[2 * M], old[2 * M];
    static int vl[M], vh[M], ol[M], oh[M];
    int sl = 0, sh = 0;
    for (int i = 0; i < M; i++) {
        vl[i] = (int)(rnd() % 3) - 1;
        vh[i] = (int)(rnd() % 3) - 1;
        v2[2 * i] = bf_of_int(vl[i]);
        v2[2 * i + 1] = bf_of_int(vh[i]);
        sl += vl[i];
        sh += vh[i];
    }
    uint16_t acc2[4] = {0, 0, bf_of_int(3), bf_of_int(-5)},
             acc[1] = {bf_of_int(1)};
    ptxemu_devptr da2 = dbuf(acc2, sizeof(acc2)), da = dbuf(acc, 2),
                  dv = dbuf(v2, sizeof(v2)), dold = dbuf(NULL, sizeof(old));
    int n = M;
    void *pp[] = {&da2, &da, &dv, &dold, &n};
    launch("atomics_bf162", 2, BS, 0, pp);
    dget(acc2, da2, sizeof(acc2));
    dget(acc, da, 2);
    dget(old, dold, sizeof(old));
    EQ_I("acc2.x", 0, int_of_bf(acc2[0]), sl);
    EQ_I("acc2.y", 0, int_of_bf(acc2[1]), sh);
    EQ_I("acc2[1].x", 0, int_of_bf(acc2[2]), 3 + sl);
    EQ_I("acc2[1].y", 0, int_of_bf(acc2[3]), -5 + sh);
    EQ_I("acc", 0, int_of_bf(acc[0]), 1 + sh);
    for (int i = 0; i < M; i++) {
        ol[i] = int_of_bf(old[2 * i]);
        oh[i] = int_of_bf(old[2 * i + 1]);
    }
    check_chain("old.x", ol, vl, M, sl);
    check_chain("old.y", oh, vh, M, sh);
    close_ptx();
}
END_TEST

START_TEST(e2e_atomics_half_shared)
{
    open_ptx("atomics_half");
    rng_seed(313);
    static uint16_t v2[2 * NN], out[2 * NB];
    static int vl[NN], vh[NN];
    for (int i = 0; i < NN; i++) {
        vl[i] = (int)(rnd() % 9) - 4;
        vh[i] = (int)(rnd() % 3);
        v2[2 * i] = h_of_int(vl[i]);
        v2[2 * i + 1] = h_of_int(vh[i]);
    }
    ptxemu_devptr dv = dbuf(v2, sizeof(v2)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&dv, &dout, &n};
    launch("atomics_half_shared", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (unsigned b = 0; b < NB; b++) {
        int sl = 0, sh = 0;
        for (unsigned t = 0; t < BS; t++) {
            unsigned i = b * BS + t;
            if (i < NN) {
                sl += vl[i];
                sh += vh[i];
            }
        }
        EQ_I("half_shared.x", b, int_of_h(out[2 * b]), sl);
        EQ_I("half_shared.y", b, int_of_h(out[2 * b + 1]), sh);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_atomics_float_vec)
{
    open_ptx("atomics_half");
    rng_seed(314);
    static float v[NN];
    float s = 0;
    for (int i = 0; i < NN; i++) {
        v[i] = (float)((int)(rnd() % 201) - 100) * 0.5f;   /* exact sums */
        s += v[i];
    }
    float acc2[2] = {1.0f, 2.0f}, acc4[4] = {3.0f, 4.0f, 5.0f, 6.0f};
    ptxemu_devptr d2 = dbuf(acc2, sizeof(acc2)), d4 = dbuf(acc4, sizeof(acc4)),
                  dv = dbuf(v, sizeof(v));
    int n = NN;
    void *pp[] = {&d2, &d4, &dv, &n};
    launch("atomics_float_vec", NB, BS, 0, pp);
    dget(acc2, d2, sizeof(acc2));
    dget(acc4, d4, sizeof(acc4));
    /* the sm_80 build: scalar atomics on x, y, x and w */
    EQ_F("acc2.x", 0, acc2[0], 1.0f + s);
    EQ_F("acc2.y", 0, acc2[1], 2.0f + 2.0f * s);
    EQ_F("acc4.x", 0, acc4[0], 3.0f + s);
    EQ_F("acc4.y", 0, acc4[1], 4.0f);
    EQ_F("acc4.z", 0, acc4[2], 5.0f);
    EQ_F("acc4.w", 0, acc4[3], 6.0f + (float)NN);
    close_ptx();
}
END_TEST

/* ------------------------------------------------------- atomic_ref */

/* One thread: every operation's value follows from the initial state
 * (libcu++ atomic_ref semantics). */
static void atomic_ref_one(int32_t c0)
{
    int32_t ctr[3] = {c0, -9, 0x40};
    uint64_t big = 0x123456789ull;
    float fs = 1.25f;
    int32_t out[1] = {0};
    ptxemu_devptr dc = dbuf(ctr, sizeof(ctr)), db = dbuf(&big, 8),
                  df = dbuf(&fs, 4), dout = dbuf(NULL, 4);
    int n = 1;
    void *pp[] = {&dc, &db, &df, &dout, &n};
    launch("atomic_ref_orders", 1, 1, 0, pp);
    dget(ctr, dc, sizeof(ctr));
    dget(&big, db, 8);
    dget(&fs, df, 4);
    dget(out, dout, 4);
    uint32_t r = (uint32_t)c0;                 /* fetch_add(1) */
    r += (uint32_t)c0 + 1;                     /* fetch_sub(1) */
    r += (uint32_t)-9;                         /* fetch_max(0) */
    r += 0;                                    /* fetch_min(0) */
    r += 0x40;                                 /* fetch_or(1) */
    r += 0x41;                                 /* exchange(0) */
    r += 2 * (uint32_t)c0;                     /* two loads */
    if (c0 == 0)
        r += 1000;                             /* CAS 0 -> 0 succeeds */
    r += (uint32_t)0x123456789ull;             /* fetch_add(2) */
    r += (uint32_t)0x12345678bull;             /* fetch_xor(0) */
    r += 1;                                    /* (int)1.25f */
    EQ_I("atomic_ref_orders.out", c0, (uint32_t)out[0], r);
    EQ_I("counter[0]", c0, ctr[0], c0);
    EQ_I("counter[1]", c0, ctr[1], 0);
    EQ_I("counter[2]", c0, ctr[2], 0);
    EQ_I("big", c0, big, 0x12345678bull);
    EQ_F("fsum", c0, fs, 1.75f);
}

START_TEST(e2e_atomic_ref_orders)
{
    open_ptx("atomic_ref");
    atomic_ref_one(0);
    atomic_ref_one(5);
    /* The whole grid: only order-independent facts. */
    int32_t ctr[3] = {0, 0, 0};
    uint64_t big = 0;
    float fs = 0.0f;
    static int32_t out[NN];
    ptxemu_devptr dc = dbuf(ctr, sizeof(ctr)), db = dbuf(&big, 8),
                  df = dbuf(&fs, 4), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&dc, &db, &df, &dout, &n};
    launch("atomic_ref_orders", NB, BS, 0, pp);
    dget(ctr, dc, sizeof(ctr));
    dget(&fs, df, 4);
    /* each thread's last operation on counter[1] is store(i), on
     * counter[2] exchange(i); counter[0] nets +1-1 and a CAS 0 -> i */
    ck_assert_int_ge(ctr[0], 0);
    ck_assert_int_lt(ctr[0], NN);
    ck_assert_int_ge(ctr[1], 0);
    ck_assert_int_lt(ctr[1], NN);
    ck_assert_int_ge(ctr[2], 0);
    ck_assert_int_lt(ctr[2], NN);
    EQ_F("fsum", 0, fs, 0.5f * NN);
    close_ptx();
}
END_TEST

START_TEST(e2e_atomic_ref_spinlock)
{
    open_ptx("atomic_ref");
    rng_seed(321);
    static int32_t vals[NN];
    int32_t lock = 0, total = 17, want = 17;
    for (int i = 0; i < NN; i++) {
        vals[i] = (int32_t)(rnd() % 1000) - 300;
        if (i % BS % 32 == 0)
            want += vals[i];
    }
    ptxemu_devptr dl = dbuf(&lock, 4), dt = dbuf(&total, 4),
                  dv = dbuf(vals, sizeof(vals));
    int n = NN;
    void *pp[] = {&dl, &dt, &dv, &n};
    launch("atomic_ref_spinlock", NB, BS, 0, pp);
    dget(&lock, dl, 4);
    dget(&total, dt, 4);
    EQ_I("lock", 0, lock, 0);
    EQ_I("total", 0, total, want);
    close_ptx();
}
END_TEST

START_TEST(e2e_atomic_ticket)
{
    open_ptx("atomic_ref");
    static uint32_t t[NN];
    static uint8_t seen[NN];
    ptxemu_devptr dt = dbuf(NULL, sizeof(t)), dg = 0;
    int n = NN;
    void *pp[] = {&dt, &n};
    launch("atomic_ticket", NB, BS, 0, pp);
    dget(t, dt, sizeof(t));
    for (int i = 0; i < NN; i++) {      /* a permutation of 0..n-1 */
        ck_assert_msg(t[i] < NN && !seen[t[i]], "ticket[%d] = %u", i, t[i]);
        seen[t[i]] = 1;
    }
    uint32_t g = 0;
    ck_assert_int_eq(ptxemu_module_get_global(mod, "g_ticket", &dg, NULL),
                     PTXEMU_SUCCESS);
    dget(&g, dg, 4);
    EQ_I("g_ticket", 0, g, NN);
    close_ptx();
}
END_TEST

/* ------------------------------------------------------ cache_hints */

START_TEST(e2e_cache_loads)
{
    open_ptx("cache_hints");
    rng_seed(331);
    static float a[NN], b[4 * NN], out[NN];
    static int32_t c[NN];
    static double d[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = rndf(-10.0f, 10.0f);
        for (int k = 0; k < 4; k++)
            b[4 * i + k] = rndf(-1.0f, 1.0f);
        c[i] = (int32_t)(rnd() % 20001) - 10000;
        d[i] = (double)rndf(-100.0f, 100.0f) / 3.0;
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dc = dbuf(c, sizeof(c)), dd = dbuf(d, sizeof(d)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dc, &dd, &dout, &n};
    launch("cache_loads", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        const float *v = &b[4 * i];
        float r = a[i];
        r += ((v[0] + v[1]) + v[2]) + v[3];
        r += (float)c[i];
        r += (float)c[(i + 1) % NN];
        r += (float)c[(i + 2) % NN];
        r += (float)c[(i + 3) % NN];
        r += (float)c[(i + 4) % NN];
        r += (float)d[i];
        r += (float)d[(i + 1) % NN];
        EQ_F("cache_loads", i, out[i], r);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_cache_stores)
{
    open_ptx("cache_hints");
    rng_seed(332);
    static float a[NN], o1[4 * NN], o2[4 * NN];
    static int32_t o3[NN];
    static double o4[NN];
    for (int i = 0; i < NN; i++)
        a[i] = rndf(-1000.0f, 1000.0f);
    ptxemu_devptr da = dbuf(a, sizeof(a)), d1 = dbuf(NULL, sizeof(o1)),
                  d2 = dbuf(NULL, sizeof(o2)), d3 = dbuf(NULL, sizeof(o3)),
                  d4 = dbuf(NULL, sizeof(o4));
    int n = NN;
    void *pp[] = {&da, &d1, &d2, &d3, &d4, &n};
    launch("cache_stores", NB, BS, 0, pp);
    dget(o1, d1, sizeof(o1));
    dget(o2, d2, sizeof(o2));
    dget(o3, d3, sizeof(o3));
    dget(o4, d4, sizeof(o4));
    for (int i = 0; i < NN; i++) {
        float x = a[i];
        EQ_F("o1.cs", i, o1[i], x);
        EQ_F("o1.wb", i, o1[NN + i], x * 2.0f);
        EQ_F("o1.cg", i, o1[2 * NN + i], x * 3.0f);
        EQ_F("o1.wt", i, o1[3 * NN + i], x * 4.0f);
        for (int k = 0; k < 4; k++)
            EQ_F("o2", 4 * i + k, o2[4 * i + k], x);
        EQ_I("o3", i, o3[i], (int32_t)x);
        EQ_D("o4", i, o4[i], (double)x);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_cache_prefetch)
{
    open_ptx("cache_hints");
    rng_seed(333);
    /* a is 128-byte aligned (device allocations are 256-aligned) and
     * out has room past n for the discard of the line after it */
    static float a[NN], out[NN + 64];
    for (int i = 0; i < NN; i++)
        a[i] = rndf(-50.0f, 50.0f);
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out));
    int n = NN, dist = 8;
    void *pp[] = {&da, &dout, &n, &dist};
    launch("cache_prefetch", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    /* discard.global.L2 leaves the 128-byte line holding out + n
     * indeterminate (PTX ISA "discard"): not checked */
    int kept = (NN * 4 & ~127) / 4;
    for (int i = 0; i < kept; i++) {
        float v = a[i], w = a[(i ^ 1) % NN];
        EQ_F("cache_prefetch", i, out[i], (v + w) + v);
    }
    close_ptx();
}
END_TEST

/* --------------------------------------------------------- ptx_misc */

/* prmt with a mode: the byte of {b, a} that d.b[k] takes, per the PTX
 * ISA table of prmt modes (selector c[1:0]). */
static uint32_t prmt_mode(uint32_t a, uint32_t b, uint32_t c, int mode)
{
    static const uint8_t tab[4][4][4] = {
        /* f4e */ {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},
        /* b4e */ {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},
        /* rc8 */ {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
        /* ecl */ {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
    };
    uint64_t src = ((uint64_t)b << 32) | a;
    uint32_t d = 0;
    for (int k = 0; k < 4; k++)
        d |= (uint32_t)((src >> (8 * tab[mode][c & 3][k])) & 0xff)
             << (8 * k);
    return d;
}

static int64_t sext24(uint32_t v)
{
    return (int32_t)(v << 8) >> 8;
}

START_TEST(e2e_misc_int)
{
    open_ptx("ptx_misc");
    rng_seed(341);
    static uint32_t a[NN], b[NN], out[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = rnd();
        b[i] = (i % 4 == 0) ? rnd() % 64 : rnd();
        if (i % 9 == 0)
            a[i] = (i & 1) ? 0x7fffffffu : 0x80000000u;
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dout, &n};
    launch("misc_int", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        uint32_t x = a[i], y = b[i], r[12];
        r[0] = prmt_mode(x, y, (uint32_t)i & 7, 0);
        r[1] = prmt_mode(x, y, (uint32_t)i & 7, 1);
        r[2] = prmt_mode(x, y, (uint32_t)i & 3, 2);
        r[3] = prmt_mode(x, y, (uint32_t)i & 3, 3);
        /* bmsk: (b) ones starting at bit (a) */
        r[4] = (uint32_t)((((uint64_t)1 << (y & 31)) - 1) << (x & 31));
        /* szext.s32: the low N bits sign-extended, N = 0 gives 0 */
        uint32_t nb = y & 31;
        r[5] = nb ? (uint32_t)((int32_t)(x << (32 - nb)) >> (32 - nb)) : 0;
        r[6] = (uint32_t)(int32_t)clampi((int64_t)(int32_t)x + (int32_t)y,
                                         INT32_MIN, INT32_MAX);
        /* mad24.hi: bits 47..16 of the 48-bit product of the sign-
         * extended low 24 bits, plus c, saturated */
        int64_t p = sext24(x) * sext24(y);
        r[7] = (uint32_t)(int32_t)clampi((p >> 16) + (int32_t)x, INT32_MIN,
                                         INT32_MAX);
        r[8] = (uint32_t)(((uint64_t)(x & 0xffffff) * (y & 0xffffff)) >> 16);
        r[9] = (int32_t)(x - y) >= 0 ? x : y;        /* slct */
        r[10] = (x & 1) ? 0 : 1;                     /* cnot */
        r[11] = (uint32_t)(((uint64_t)x * y) >> 32) + 7u;
        uint32_t s = 0;
        for (int k = 0; k < 12; k++)
            s = s * 31 + r[k];
        uint64_t w = (uint64_t)x * y + 0x100000000ull;
        uint32_t h = ((x & 0xffff) * (y & 0xffff)) >> 16;
        EQ_I("misc_int", i, out[i], s ^ (uint32_t)(w >> 16) ^ h);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_misc_cvt_pack)
{
    open_ptx("ptx_misc");
    rng_seed(342);
    static int32_t a[NN], b[NN];
    static uint32_t out[NN];
    for (int i = 0; i < NN; i++) {
        int sh = (int)(rnd() % 28);
        a[i] = (int32_t)rnd() >> sh;
        b[i] = (int32_t)rnd() >> (int)(rnd() % 28);
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dout, &n};
    launch("misc_cvt_pack", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        /* cvt.pack: a saturated into the upper part, b the lower, and
         * for 8-bit results c fills the bits above (PTX ISA cvt.pack) */
        uint32_t p0 = (uint32_t)(clampi(a[i], -32768, 32767) & 0xffff) << 16 |
                      (uint32_t)(clampi(b[i], -32768, 32767) & 0xffff);
        uint32_t p1 = (uint32_t)clampi(a[i], 0, 255) << 8 |
                      (uint32_t)clampi(b[i], 0, 255) | (p0 & 0xffff) << 16;
        EQ_I("misc_cvt_pack", i, out[i], p0 ^ p1);
    }
    close_ptx();
}
END_TEST

/* float -> binary16 bits, round to nearest even (finite inputs). */
static uint16_t f2h(float f)
{
    uint32_t u = fbits(f), s = (u >> 16) & 0x8000;
    double a = fabs((double)f);
    if (f != f)
        return 0x7fff;
    if (a >= 65520.0)
        return (uint16_t)(s | 0x7c00);
    int e;
    frexp(a, &e);
    int q = (e - 1 < -14 ? -14 : e - 1) - 10;   /* ulp exponent */
    double m = ldexp(a, -q), fl = floor(m), fr = m - fl;
    if (fr > 0.5 || (fr == 0.5 && fmod(fl, 2.0) != 0))
        fl += 1;
    double r = ldexp(fl, q);
    if (r == 0)
        return (uint16_t)s;
    if (r < 0x1p-14)
        return (uint16_t)(s | (uint32_t)ldexp(r, 24));
    frexp(r, &e);
    return (uint16_t)(s | (uint32_t)(e + 14) << 10 |
                      ((uint32_t)ldexp(r, 11 - e) & 1023));
}

/* float -> bfloat16 bits, round to nearest even (finite inputs). */
static uint16_t f2bf(float f)
{
    uint32_t u = fbits(f), lo = u & 0xffff, hi = u >> 16;
    return (uint16_t)(hi + (lo > 0x8000 || (lo == 0x8000 && (hi & 1))));
}

/* v rounded to `bits` significant bits, to nearest even (normal range,
 * so that one rounding of the exact value is modelled). */
static double round_sig(double v, int bits)
{
    if (v == 0)
        return v;
    int e;
    frexp(v, &e);
    double m = ldexp(fabs(v), bits - e), fl = floor(m), fr = m - fl;
    if (fr > 0.5 || (fr == 0.5 && fmod(fl, 2.0) != 0))
        fl += 1;
    return copysign(ldexp(fl, e - bits), v);
}

static float bf2f(uint16_t b)
{
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

START_TEST(e2e_misc_float)
{
    open_ptx("ptx_misc");
    rng_seed(343);
    static float a[NN], b[NN], out[NN];
    static uint32_t hout[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = rndf(-4.0f, 4.0f);
        b[i] = rndf(-4.0f, 4.0f);
        if (i % 13 == 0)
            b[i] = NAN;
        if (i % 17 == 0)
            a[i] = -0.0f;
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dout = dbuf(NULL, sizeof(out)),
                  dh = dbuf(NULL, sizeof(hout));
    int n = NN;
    void *pp[] = {&da, &db, &dout, &dh, &n};
    launch("misc_float", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    dget(hout, dh, sizeof(hout));
    for (int i = 0; i < NN; i++) {
        float x = a[i], y = b[i];
        /* min.NaN: NaN if either input is */
        float r1 = (x != x || y != y) ? NAN : fminf(x, y);
        if (r1 == 0 && x == 0 && y == 0)
            r1 = (signbit(x) || signbit(y)) ? -0.0f : 0.0f;
        /* copysign d, a, b: b's value with a's sign (PTX ISA) */
        float r2 = copysignf(x, y);
        float e = (r1 + r2) + 0.0f;
        if (e != e)
            ck_assert_msg(out[i] != out[i], "misc_float[%d]: %g, want NaN",
                          i, (double)out[i]);
        else
            EQ_F("misc_float", i, out[i], e);
        if (y != y)
            continue;   /* the f16/bf16 part: finite inputs only */
        /* cvt.rn.relu.f16x2.f32 d, a, b: a in the upper half */
        uint16_t hx = f2h(x), hy = f2h(y);
        uint32_t r3 = (uint32_t)((hx & 0x8000) ? 0 : hx) << 16 |
                      ((hy & 0x8000) ? 0 : hy);
        uint16_t bx = f2bf(x), by = f2bf(y);
        uint32_t hb = (uint32_t)bx << 16 | by;
        uint32_t hn = hb ^ 0x80008000u;
        /* fma.rn.relu.bf16x2: relu(p * -p + p), rounded once; a
         * negative result (or -0) becomes +0 */
        uint32_t hm = 0;
        for (int k = 0; k < 2; k++) {
            double p = bf2f((uint16_t)(hb >> (16 * k)));
            double v = p * -p + p;        /* exact in double */
            uint16_t rb = f2bf((float)round_sig(v, 8));
            if ((rb & 0x8000) || v <= 0)
                rb = 0;
            hm |= (uint32_t)rb << (16 * k);
        }
        uint16_t ha = hx & 0x7fff;
        EQ_I("misc_float.h", i, hout[i], hb ^ hn ^ hm ^ ha ^ r3);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_misc_memory)
{
    open_ptx("ptx_misc");
    rng_seed(344);
    static int32_t a[NN], out[NN];
    for (int i = 0; i < NN; i++)
        a[i] = (int32_t)(rnd() % 100000) - 50000;
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &dout, &n};
    launch("misc_memory", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        int u = a[0];
        int loc = ((i >> 1) & 1) ? u : i;
        /* isspacep: a is global, not shared; &loc[] local; &c_scale
         * const; c_scale = 3; g_flags = {1, 2, 3, 4} */
        int e = u + loc + (1 + 0 + 4 + 8) + 3 * ((i & 3) + 1);
        EQ_I("misc_memory", i, out[i], e);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_misc_pack)
{
    open_ptx("ptx_misc");
    rng_seed(345);
    static uint64_t a[NN], out[NN];
    for (int i = 0; i < NN; i++)
        a[i] = rnd64();
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &dout, &n};
    launch("misc_pack", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        uint64_t v = a[i];
        uint32_t lo = (uint32_t)v, hi = (uint32_t)(v >> 32);
        uint64_t r = (uint64_t)lo << 32 | hi;   /* {hi, lo}: hi is low */
        uint64_t sh = (uint64_t)((int64_t)v >> (hi & 63));
        uint64_t e = r ^ sh ^ (lo & 0xffff) ^ ((uint64_t)(lo >> 16) << 48);
        EQ_I("misc_pack", i, out[i], e);
    }
    close_ptx();
}
END_TEST

/* ----------------------------------------------------- special_regs */

static void launch_dims(const char *name, const unsigned grid[3],
                        const unsigned block[3], unsigned shmem,
                        void **params)
{
    ptxemu_function *f = NULL;
    ck_assert_int_eq(ptxemu_module_get_function(mod, name, &f),
                     PTXEMU_SUCCESS);
    ptxemu_status st = ptxemu_launch(f, grid, block, shmem, params);
    ck_assert_msg(st == PTXEMU_SUCCESS, "%s: %s: %s", name,
                  ptxemu_status_name(st), ptxemu_last_error_message(dev));
    ck_assert_int_eq(ptxemu_synchronize(dev), PTXEMU_SUCCESS);
}

START_TEST(e2e_special_registers)
{
    open_ptx("special_regs");
    const unsigned grid[3] = {2, 2, 1}, block[3] = {8, 4, 3};
    enum { NT = 96, NBLK = 4, TOT = NT * NBLK, DSH = 256 };
    static uint32_t out[2][TOT * 10];
    static uint64_t times[TOT * 2];
    for (int run = 0; run < 2; run++) {
        ptxemu_devptr dout = dbuf(NULL, sizeof(out[0])),
                      dt = dbuf(NULL, sizeof(times));
        void *pp[] = {&dout, &dt};
        launch_dims("special_registers", grid, block, DSH, pp);
        dget(out[run], dout, sizeof(out[0]));
        dget(times, dt, sizeof(times));
        for (int g = 0; g < TOT; g++) {
            const uint32_t *o = &out[run][g * 10];
            uint32_t tid = (uint32_t)g % NT, bid = (uint32_t)g / NT;
            EQ_I("tid", g, o[8], tid);
            EQ_I("bid", g, o[9], bid);
            /* threads are numbered x fastest into warps of 32 */
            EQ_I("%laneid", g, o[0], tid % 32);
            ck_assert_msg(o[1] < o[4], "[%d] %%warpid %u >= %%nwarpid %u",
                          g, o[1], o[4]);
            ck_assert_msg(o[2] < o[3], "[%d] %%smid %u >= %%nsmid %u", g,
                          o[2], o[3]);
            EQ_I("%nsmid", g, o[3], out[run][3]);
            /* %dynamic_smem_size is the launch's; %total_smem_size
             * includes it */
            ck_assert_msg(o[5] >= 2 * DSH, "[%d] smem sizes %u", g, o[5]);
            EQ_I("smem sizes", g, o[5], out[run][5]);
            /* %gridid and %envreg0 are the same for the whole launch */
            EQ_I("%gridid+%envreg0", g, o[6], out[run][6]);
            ck_assert_msg((int64_t)times[2 * g] >= 0,
                          "[%d] %%clock64 went back by %" PRId64, g,
                          -(int64_t)times[2 * g]);
            ck_assert_msg((int64_t)times[2 * g + 1] >= 0,
                          "[%d] %%globaltimer went back", g);
        }
    }
    /* %gridid tells launches apart */
    ck_assert_msg(out[0][6] != out[1][6], "%%gridid repeated: %u",
                  out[0][6]);
    close_ptx();
}
END_TEST

START_TEST(e2e_clock_spin)
{
    open_ptx("special_regs");
    static int32_t out[2 * 64];
    ptxemu_devptr dout = dbuf(NULL, sizeof(out));
    long long cycles = 0;
    void *pp[] = {&dout, &cycles};
    launch("clock_spin", 2, 64, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < 128; i++)       /* clock64() - start >= 0 */
        EQ_I("clock_spin(0)", i, out[i], 0);
    cycles = 300;
    launch("clock_spin", 2, 64, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < 128; i++)
        ck_assert_msg(out[i] >= 1 && out[i] <= 300,
                      "clock_spin(300)[%d] = %d spins", i, out[i]);
    close_ptx();
}
END_TEST

/* %lanemask_* against %laneid (PTX ISA "Special Registers"). */
static const char lanemask_ptx[] =
    ".version 7.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    ".visible .entry lanemasks(.param .u64 out)\n"
    "{\n"
    "    .reg .u32 %r<9>;\n"
    "    .reg .u64 %rd<4>;\n"
    "    ld.param.u64 %rd1, [out];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    mov.u32 %r2, %laneid;\n"
    "    mov.u32 %r3, %lanemask_eq;\n"
    "    mov.u32 %r4, %lanemask_lt;\n"
    "    mov.u32 %r5, %lanemask_le;\n"
    "    mov.u32 %r6, %lanemask_gt;\n"
    "    mov.u32 %r7, %lanemask_ge;\n"
    "    mul.wide.u32 %rd2, %r1, 24;\n"
    "    add.u64 %rd3, %rd1, %rd2;\n"
    "    st.global.u32 [%rd3], %r2;\n"
    "    st.global.u32 [%rd3+4], %r3;\n"
    "    st.global.u32 [%rd3+8], %r4;\n"
    "    st.global.u32 [%rd3+12], %r5;\n"
    "    st.global.u32 [%rd3+16], %r6;\n"
    "    st.global.u32 [%rd3+20], %r7;\n"
    "    ret;\n"
    "}\n";

START_TEST(e2e_lanemasks)
{
    e2e_open_src("lanemasks.ptx", lanemask_ptx);
    enum { T = 80 };
    static uint32_t o[T * 6];
    ptxemu_devptr d = dbuf(NULL, sizeof(o));
    void *pp[] = {&d};
    launch("lanemasks", 1, T, 0, pp);
    dget(o, d, sizeof(o));
    for (int t = 0; t < T; t++) {
        uint32_t lane = (uint32_t)t % 32, eq = 1u << lane;
        uint32_t le = (uint32_t)(((uint64_t)eq << 1) - 1);
        EQ_I("%laneid", t, o[6 * t], lane);
        EQ_I("%lanemask_eq", t, o[6 * t + 1], eq);
        EQ_I("%lanemask_lt", t, o[6 * t + 2], eq - 1);
        EQ_I("%lanemask_le", t, o[6 * t + 3], le);
        EQ_I("%lanemask_gt", t, o[6 * t + 4], ~le);
        EQ_I("%lanemask_ge", t, o[6 * t + 5], ~(eq - 1));
    }
    close_ptx();
}
END_TEST

/* --------------------------------------------------------- trap_asm */

static void div_inputs(int32_t *a, int32_t *b, int n)
{
    for (int i = 0; i < n; i++) {
        a[i] = (int32_t)rnd() >> (rnd() % 31);
        b[i] = (int32_t)rnd() >> (rnd() % 31);
        if (b[i] == 0 || (b[i] == -1 && a[i] == INT32_MIN))
            b[i] = 3;
    }
}

START_TEST(e2e_checked_div)
{
    open_ptx("trap_asm");
    rng_seed(351);
    static int32_t a[NN], b[NN], out[NN];
    div_inputs(a, b, NN);
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dout, &n};
    launch("checked_div", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++)
        EQ_I("checked_div", i, out[i], a[i] / b[i]);
    /* a zero divisor traps: the launch fails with the trap error, naming
     * the kernel and the PTX line of the trap instruction */
    int32_t zero = 0;
    ck_assert_int_eq(ptxemu_memcpy_htod(dev, db + 4 * 200, &zero, 4),
                     PTXEMU_SUCCESS);
    const char *msg = e2e_launch_fail("checked_div", NB, BS, pp,
                                  PTXEMU_ERROR_TRAP);
    HAS(msg, "checked_div");
    HAS(msg, "trap_asm.sm80.ptx:47");
    HAS(msg, "trap");
    ck_assert_int_eq(ptxemu_synchronize(dev), PTXEMU_ERROR_TRAP);
    /* the device stays usable: the next launch runs */
    ck_assert_int_eq(ptxemu_memcpy_htod(dev, db + 4 * 200, &b[200], 4),
                     PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_memset(dev, dout, 0, sizeof(out)),
                     PTXEMU_SUCCESS);
    launch("checked_div", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++)
        EQ_I("checked_div after trap", i, out[i], a[i] / b[i]);
    close_ptx();
}
END_TEST

START_TEST(e2e_asm_exit)
{
    open_ptx("trap_asm");
    rng_seed(352);
    static int32_t a[NN], out[NN + 64];
    for (int i = 0; i < NN; i++)
        a[i] = (int32_t)rnd();
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &dout, &n};
    launch("asm_exit", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++)
        EQ_I("asm_exit", i, out[i], (int32_t)((uint32_t)a[i] + 1u));
    for (int i = NN; i < NN + 36; i++)  /* exited threads stored nothing */
        EQ_I("asm_exit tail", i, out[i], 0);
    close_ptx();
}
END_TEST

START_TEST(e2e_asm_scopes)
{
    open_ptx("trap_asm");
    rng_seed(353);
    static uint32_t a[NN], out[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = (i % 3 == 0) ? rnd() % 150 + 1 : rnd() << (rnd() % 32);
        if (a[i] == 0)
            a[i] = 0x80000000u;   /* the first asm leaves r unset for 0 */
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &dout, &n};
    launch("asm_scopes", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        uint32_t x = a[i];
        uint32_t cnt = (uint32_t)__builtin_ctz(x), r = 1;
        /* lop3 0x96 is a ^ b ^ c: (lo ^ hi) ^ lo ^ hi = 0 */
        uint32_t y = 0;
        int q = x > 10 && x < 100;
        uint32_t z = q ? 1 : 2;
        EQ_I("asm_scopes", i, out[i], cnt + y + z + r);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_asm_predicates)
{
    open_ptx("trap_asm");
    rng_seed(354);
    static int32_t a[NN], out[NN];
    for (int i = 0; i < NN; i++)
        a[i] = (int32_t)(rnd() % 200) - 100;
    a[0] = 0;
    a[1] = 50;
    a[2] = 49;
    a[3] = 1;
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &dout, &n};
    launch("asm_predicates", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        int x = a[i], p0 = x > 0, p1 = x < 50, p2 = p0 && p1;
        int p3 = (p0 || p1) ^ p2;
        int r = !p3 ? 10 : 20;
        if (p2)
            r += 1;
        EQ_I("asm_predicates", i, out[i], r);
    }
    close_ptx();
}
END_TEST

/* ---------------------------------------------------------- debug_g */

START_TEST(e2e_debug_kernel)
{
    open_ptx("debug_g");
    rng_seed(361);
    static int32_t in[NN], out[NN];
    static float fin[NN];
    for (int i = 0; i < NN; i++) {
        in[i] = (int32_t)(rnd() % 2000001) - 1000000;
        fin[i] = rndf(-1000.0f, 1000.0f);
    }
    ptxemu_devptr di = dbuf(in, sizeof(in)), df = dbuf(fin, sizeof(fin)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&di, &df, &dout, &n};
    launch("debug_kernel", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        int acc = 0;
        for (int k = 0; k < 4; k++)
            acc += in[i] * k + (fin[i] > 0.0f ? (int)fin[i] : 0);
        EQ_I("debug_kernel", i, out[i], acc);
    }
    close_ptx();
}
END_TEST

/* --------------------------------------------------- extern_linkage */

/* Replace the first `from` in *s by `to`. */
static void replace1(char **s, const char *from, const char *to)
{
    char *p = strstr(*s, from);
    ck_assert_msg(p != NULL, "'%s' not found", from);
    size_t a = (size_t)(p - *s), lf = strlen(from), lt = strlen(to),
           n = strlen(*s);
    char *r = malloc(n - lf + lt + 1);
    ck_assert(r != NULL);
    memcpy(r, *s, a);
    memcpy(r + a, to, lt);
    memcpy(r + a + lt, p + lf, n - a - lf + 1);
    free(*s);
    *s = r;
}

START_TEST(e2e_uses_externs)
{
    /* Alone, the -rdc module cannot run: its external function has no
     * body, and the load says so, at the call. */
    char *src = read_ptx("extern_linkage");
    e2e_device();
    ck_assert_int_eq(ptxemu_module_load_string(dev, "extern_linkage.ptx",
                                               src, 0, &mod),
                     PTXEMU_ERROR_UNSUPPORTED);
    HAS(ptxemu_last_error_message(dev), "ext_helper");
    HAS(ptxemu_last_error_message(dev), "extern_linkage.ptx:102:");
    mod = NULL;
    close_ptx();    /* (finishes an attached sanitizer session too) */
    /* Linked by hand with a second translation unit that defines
     * ext_helper (3x - y), ext_counter (100) and ext_table. */
    replace1(&src,
             ".extern .func  (.param .b32 func_retval0) ext_helper\n"
             "(\n"
             "\t.param .b32 ext_helper_param_0,\n"
             "\t.param .b32 ext_helper_param_1\n"
             ")\n"
             ";",
             ".visible .func  (.param .b32 func_retval0) ext_helper(\n"
             "\t.param .b32 ext_helper_param_0,\n"
             "\t.param .b32 ext_helper_param_1\n"
             ")\n"
             "{\n"
             "\t.reg .b32 %r<4>;\n"
             "\tld.param.u32 %r1, [ext_helper_param_0];\n"
             "\tld.param.u32 %r2, [ext_helper_param_1];\n"
             "\tmul.lo.s32 %r3, %r1, 3;\n"
             "\tsub.s32 %r3, %r3, %r2;\n"
             "\tst.param.b32 [func_retval0], %r3;\n"
             "\tret;\n"
             "}");
    replace1(&src, ".extern .global .align 4 .u32 ext_counter;",
             ".visible .global .align 4 .u32 ext_counter = 100;");
    replace1(&src, ".extern .global .align 4 .b8 ext_table[];",
             ".visible .global .align 4 .b8 ext_table[32];");
    e2e_open_src("extern_linkage_linked.ptx", src);
    free(src);
    rng_seed(371);
    static int32_t in[NN], out[NN];
    static float fout[NN];
    float table[8];
    for (int k = 0; k < 8; k++)
        table[k] = rndf(-10.0f, 10.0f);
    for (int i = 0; i < NN; i++)
        in[i] = (int32_t)(rnd() % 20001) - 10000;
    ptxemu_devptr dtab = 0, dcnt = 0;
    size_t tsz = 0;
    ck_assert_int_eq(ptxemu_module_get_global(mod, "ext_table", &dtab, &tsz),
                     PTXEMU_SUCCESS);
    ck_assert_int_eq(tsz, sizeof(table));
    ck_assert_int_eq(ptxemu_memcpy_htod(dev, dtab, table, sizeof(table)),
                     PTXEMU_SUCCESS);
    ptxemu_devptr di = dbuf(in, sizeof(in)), dout = dbuf(NULL, sizeof(out)),
                  dfo = dbuf(NULL, sizeof(fout));
    int n = NN;
    void *pp[] = {&di, &dout, &dfo, &n};
    launch("uses_externs", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    dget(fout, dfo, sizeof(fout));
    for (int i = 0; i < NN; i++) {
        int32_t v = in[i];
        int32_t base = (3 * v - i) + (v * v + 5) + (v + 1) + (v - 1);
        /* the counter read races with the other threads' atomicAdd */
        int32_t c = out[i] - base;
        ck_assert_msg(c >= 100 && c < 100 + NN,
                      "uses_externs[%d]: ext_counter read as %d", i, c);
        EQ_F("uses_externs.f", i, fout[i],
             table[i & 7] * ((i & 1) ? 2.0f : 0.5f));
    }
    uint32_t cnt = 0;
    ck_assert_int_eq(ptxemu_module_get_global(mod, "ext_counter", &dcnt,
                                              NULL),
                     PTXEMU_SUCCESS);
    dget(&cnt, dcnt, 4);
    EQ_I("ext_counter", 0, cnt, 100 + NN);
    close_ptx();
}
END_TEST

/* ------------------------------------------------------- addr_arith */

START_TEST(e2e_addr_ptr_math)
{
    open_ptx("addr_arith");
    rng_seed(381);
    static float p[4 * NN], out[NN];
    static uint8_t pk[8 * NN];
    static int64_t diffs[NN];
    for (int i = 0; i < NN; i++) {
        for (int k = 0; k < 3; k++)
            p[4 * i + k] = rndf(-100.0f, 100.0f);
        uint32_t id = rnd();
        memcpy(&p[4 * i + 3], &id, 4);
    }
    for (int i = 0; i < 8 * NN; i++)
        pk[i] = (uint8_t)rnd();
    ptxemu_devptr dp = dbuf(p, sizeof(p)), dk = dbuf(pk, sizeof(pk)),
                  dd = dbuf(NULL, sizeof(diffs)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&dp, &dk, &dd, &dout, &n};
    launch("addr_ptr_math", NB, BS, 0, pp);
    dget(diffs, dd, sizeof(diffs));
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        int j = NN - 1 - i;
        EQ_I("diffs", i, diffs[i], (int64_t)(j - i));
        /* Packed: tag at byte 0, len at 2, value at 4; 8 bytes */
        const uint8_t *e = &pk[8 * i];
        uint32_t len = (uint32_t)e[2] | (uint32_t)e[3] << 8;
        uint32_t v = 0;
        for (int k = 0; k < 4; k++)
            v |= (uint32_t)pk[i * 3 + 1 + k] << (8 * k);
        float r = p[4 * i] + p[4 * j + 1];
        r += (float)len;
        r += (float)(v & 0xffff);
        r += (float)e[0];
        EQ_F("addr_ptr_math", i, out[i], r);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_addr_volatile)
{
    open_ptx("addr_arith");
    int32_t flag = 21;
    static float data[NN];
    static int32_t out[NN];
    ptxemu_devptr df = dbuf(&flag, 4), dd = dbuf(NULL, sizeof(data)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&df, &dd, &dout, &n};
    launch("addr_volatile", NB, BS, 0, pp);
    dget(data, dd, sizeof(data));
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        EQ_F("data", i, data[i], (float)i + 1.0f);
        /* vs[] is written without a barrier: only threads whose whole
         * warp stored its 32 entries read a known neighbour */
        unsigned t = (unsigned)i % BS, w0 = (unsigned)i - t % 32;
        if (t - t % 32 + 32 <= BS && w0 + 32 <= NN)
            EQ_I("addr_volatile", i, out[i], 4 * flag);
    }
    close_ptx();
}
END_TEST

/* -------------------------------------------------------- grid_sync */

START_TEST(e2e_grid_reduce)
{
    open_ptx("grid_sync");
    rng_seed(391);
    enum { G = 4, B = 128, N = 5000 };
    static float in[N], part[G];
    float res = 0;
    for (int i = 0; i < N; i++)
        in[i] = rndf(-1.0f, 1.0f);
    ptxemu_devptr di = dbuf(in, sizeof(in)), dp = dbuf(NULL, sizeof(part)),
                  dr = dbuf(NULL, 4);
    int n = N;
    void *pp[] = {&di, &dp, &dr, &n};
    /* without a cooperative launch grid.sync() has no workspace */
    e2e_launch_fail("grid_reduce", G, B, pp, PTXEMU_ERROR_TRAP);
    ck_assert_int_eq(ptxemu_synchronize(dev), PTXEMU_ERROR_TRAP);
    launch_coop("grid_reduce", G, B, pp);
    dget(part, dp, sizeof(part));
    dget(&res, dr, 4);
    float want = 0;
    for (int b = 0; b < G; b++) {
        float sd[B];
        for (int t = 0; t < B; t++) {
            float s = 0;
            for (int i = b * B + t; i < N; i += G * B)
                s += in[i];
            sd[t] = s;
        }
        for (int st = B / 2; st > 0; st >>= 1)
            for (int t = 0; t < st; t++)
                sd[t] += sd[t + st];
        EQ_F("partial", b, part[b], sd[0]);
        want += sd[0];
    }
    EQ_F("result", 0, res, want);
    close_ptx();
}
END_TEST

START_TEST(e2e_grid_two_phase)
{
    open_ptx("grid_sync");
    rng_seed(392);
    static int32_t d[NN], got[NN];
    for (int i = 0; i < NN; i++)
        d[i] = (int32_t)(rnd() % 100001) - 50000;
    ptxemu_devptr dd = dbuf(d, sizeof(d)), dv = dbuf(NULL, 4);
    int n = NN, valid = 0;
    void *pp[] = {&dd, &n, &dv};
    launch_coop("grid_two_phase", 3, 128, pp);
    dget(got, dd, sizeof(got));
    dget(&valid, dv, 4);
    EQ_I("valid", 0, valid, 1);
    for (int i = 0; i < NN; i++)
        EQ_I("grid_two_phase", i, got[i], 2 * d[i] + 2 * d[(i + 37) % NN]);
    close_ptx();
}
END_TEST

/* ----------------------------------------------------------- alloca */

static int sum_sorted_prefix(const int32_t *src, int count, int k)
{
    int32_t tmp[64];
    for (int a = 0; a < count; a++)
        tmp[a] = src[a];
    for (int a = 1; a < count; a++) {
        int32_t v = tmp[a];
        int b = a - 1;
        while (b >= 0 && tmp[b] > v) {
            tmp[b + 1] = tmp[b];
            b--;
        }
        tmp[b + 1] = v;
    }
    int s = 0;
    for (int a = 0; a < k && a < count; a++)
        s += tmp[a];
    return s;
}

START_TEST(e2e_alloca_kernel)
{
    open_ptx("alloca");
    rng_seed(401);
    static int32_t in[NN], counts[NN], out[NN];
    for (int i = 0; i < NN; i++) {
        in[i] = (int32_t)(rnd() % 2001) - 1000;
        counts[i] = (int32_t)rnd();
    }
    ptxemu_devptr di = dbuf(in, sizeof(in)),
                  dc = dbuf(counts, sizeof(counts)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&di, &dc, &dout, &n};
    launch("alloca_kernel", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        int count = (counts[i] & 31) + 1, s = 0;
        for (int r = 0; r < 3; r++) {
            int k = (r * 7) % ((r + 1) * count);
            s += (int)(in[(i + k) % NN] * 0.5);
        }
        int m = count < NN - (i % 4) ? count : NN - (i % 4);
        EQ_I("alloca_kernel", i, out[i],
             s + count + sum_sorted_prefix(in + (i % 4), m, 4));
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------- predefined */

/* warpSize is WARP_SZ in the PTX (PTX ISA 4.4): 32 */
START_TEST(e2e_warp_size)
{
    open_ptx("predefined");
    enum { N = 200 };
    static int32_t out[256];
    ptxemu_devptr dout = dbuf(NULL, sizeof(out));
    int n = N;
    void *pp[] = {&dout, &n};
    launch("warp_size", 4, 64, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < 256; i++)
        EQ_I("warp_size", i, out[i], i < N ? 32000 + (i % 64) % 32 : 0);
    close_ptx();
}
END_TEST

/* cooperative_groups::tiled_partition<64>: the tile's sync (a barrier
 * word at %reserved_smem_offset_1) orders each thread's write before the
 * reads of the tile's other warp, and its second sync the reads before
 * the overwrite. */
START_TEST(e2e_wide_tile)
{
    open_ptx("predefined");
    enum { TB = 3, TS = 256 };
    static int32_t out[TB * TS];
    ptxemu_devptr dout = dbuf(NULL, sizeof(out));
    void *pp[] = {&dout};
    launch("wide_tile", TB, TS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < TB * TS; i++) {
        int t = i % TS, r = t % 64, other = (r + 33) % 64;
        EQ_I("wide_tile", i, out[i], (t / 64) * 100000 + r * 1000 +
             other * 3 + 1);
    }
    close_ptx();
}
END_TEST

/* The reserved shared memory (PTX ISA 10.34): cap = end - begin = the
 * 1 KiB that CUDA reports as cudaDevAttrReservedSharedMemoryPerBlock
 * on sm_80, the offsets lie in it, it overlaps none of the user's
 * static or dynamic shared memory, and it is the CTA's own memory. */
START_TEST(e2e_reserved_smem)
{
    open_ptx("predefined");
    enum { RB = 64, RD = RB * 4 };
    static uint32_t out[RB * 12];
    ptxemu_devptr dout = dbuf(NULL, sizeof(out));
    uint32_t v = 0x5150;
    void *pp[] = {&dout, &v};
    launch("reserved_smem", 1, RB, RD, pp);
    dget(out, dout, sizeof(out));
    for (int t = 0; t < RB; t++) {
        const uint32_t *o = &out[t * 12];
        uint32_t b = o[0], e = o[1], c = o[2];
        EQ_I("cap", t, c, 1024);
        EQ_I("end - begin", t, e - b, c);
        for (int k = 3; k <= 4; k++)
            ck_assert_msg(o[k] >= b && o[k] + 4 <= e,
                          "%%reserved_smem_offset_%d = %u outside [%u, %u)",
                          k - 3, o[k], b, e);
        /* user shared: stat[40] at o[11], dyn[BS] at o[6] */
        ck_assert_msg(o[11] + 160 <= b || o[11] >= e, "static overlaps");
        ck_assert_msg(o[6] + RD <= b || o[6] >= e, "dynamic overlaps");
        EQ_I("%dynamic_smem_size", t, o[7], RD);
        ck_assert_msg(o[5] >= 160 + RD, "%%total_smem_size %u", o[5]);
        EQ_I("reserved word", t, o[8], v + 2);
        EQ_I("static", t, o[9], v);
        EQ_I("dynamic", t, o[10], v + 1);
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ suite */

Suite *e2e_misc_suite(void);

Suite *e2e_misc_suite(void)
{
    Suite *s = suite_create("e2e_misc");
    TCase *tc = tcase_create("corpus");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, NULL, close_ptx);
    const TTest *const tests[] = {
        e2e_simd_pairs,
        e2e_simd_quads,
        e2e_simd_minmax3,
        e2e_simd_video_asm,
        e2e_atomics_half2,
        e2e_atomics_bf162,
        e2e_atomics_half_shared,
        e2e_atomics_float_vec,
        e2e_atomic_ref_orders,
        e2e_atomic_ref_spinlock,
        e2e_atomic_ticket,
        e2e_cache_loads,
        e2e_cache_stores,
        e2e_cache_prefetch,
        e2e_misc_int,
        e2e_misc_cvt_pack,
        e2e_misc_float,
        e2e_misc_memory,
        e2e_misc_pack,
        e2e_special_registers,
        e2e_clock_spin,
        e2e_warp_size,
        e2e_wide_tile,
        e2e_reserved_smem,
        e2e_lanemasks,
        e2e_checked_div,
        e2e_asm_exit,
        e2e_asm_scopes,
        e2e_asm_predicates,
        e2e_debug_kernel,
        e2e_uses_externs,
        e2e_addr_ptr_math,
        e2e_addr_volatile,
        e2e_grid_reduce,
        e2e_grid_two_phase,
        e2e_alloca_kernel,
    };
    for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
        tcase_add_test(tc, tests[i]);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(e2e_misc_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
