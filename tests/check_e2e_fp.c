/*
 * tests/check_e2e_fp.c: end-to-end runs of the floating-point corpus
 * kernels (f32_math, f64_math, f32_fastmath, fp16_arith, bf16_arith,
 * templates.saxpy_f16, conv_half.conv_fp8, conversions.conv_round_sat)
 * through the public API, each against a host C reference of the same
 * operations in the same order (fmaf where nvcc contracted to fma).
 *
 * Correctly rounded operations are compared bit for bit; directed
 * rounding, f16, bf16 and fp8 results are formed exactly in double (or
 * GMP rationals for f64) and rounded by tests/fp_ref.h, which shares no
 * code with emu/fp.c.  Approximate instructions (.approx, fast-math
 * intrinsics) are checked against the PTX ISA's documented maximum
 * error, carried through the kernel's arithmetic as an error bound.
 */
#include <check.h>
#include <gmp.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/ptxemu.h"

#include "tests/e2e_util.h"
#include "tests/fp_ref.h"

/* Load tests/corpus/ptx/BASE.ARCH.ptx (e2e_util.h's open_ptx is for
 * sm80 only).  Every test runs twice (a loop test): _i = 0 on the sm_80
 * build, 1 on the sm_90 build (native bf16 arithmetic, fp8 cvt). */
static void open_ptx_arch(const char *base, const char *arch)
{
    const char *top = getenv("top_srcdir");
    char path[1024];
    snprintf(path, sizeof(path), "%s/tests/corpus/ptx/%s.%s.ptx",
             top ? top : ".", base, arch);
    e2e_device();
    ptxemu_status st = ptxemu_module_load_file(dev, path, &mod);
    ck_assert_msg(st == PTXEMU_SUCCESS, "loading %s: %s", path,
                  ptxemu_last_error_message(dev));
}

#define ARCH (_i ? "sm90" : "sm80")

/* ------------------------------------------------------- f32 helpers */

static float f32r(double hi, double lo, int mode)
{
    return (float)ref_round(&REF_F32, hi, lo, mode, 0);
}

static float fadd_m(float x, float y, int m)
{
    double e, s = two_sum(x, y, &e);
    return f32r(s, e, m);
}

static float fmul_m(float x, float y, int m)
{
    return f32r((double)x * y, 0, m); /* exact: 48 bits */
}

static float ffma_m(float x, float y, float z, int m)
{
    double e, s = two_sum((double)x * y, z, &e);
    return f32r(s, e, m);
}

/* The double quotient is within half a double ulp of x/y, never on an
 * f32 rounding boundary unless exact; the remainder's sign says on which
 * side the exact quotient lies. */
static float fdiv_m(float x, float y, int m)
{
    double q = (double)x / y, r = fma(-q, y, x);
    return f32r(q, r == 0 ? 0 : ((r > 0) == (y > 0) ? 1 : -1), m);
}

static float fsqrt_m(float x, int m)
{
    double s = sqrt((double)x), r = fma(-s, s, x);
    return f32r(s, r == 0 ? 0 : (r > 0 ? 1 : -1), m);
}

static float fsat(float x)
{
    return x != x ? 0.0f : x <= 0 ? 0.0f : x > 1 ? 1.0f : x;
}

/* PTX min/max: a NaN operand is ignored; +0 > -0. */
static double pmax(double a, double b)
{
    if (a != a)
        return b;
    if (b != b)
        return a;
    if (a == b)
        return signbit(a) ? b : a;
    return a > b ? a : b;
}

static double pmin(double a, double b)
{
    if (a != a)
        return b;
    if (b != b)
        return a;
    if (a == b)
        return signbit(a) ? a : b;
    return a < b ? a : b;
}

/* A nonzero float of moderate size, sometimes small or an integer. */
static float rnd_f32_mixed(int i)
{
    float v;
    switch (i % 5) {
    case 0: v = rndf(-100.0f, 100.0f); break;
    case 1: v = rndf(-1.0f, 1.0f); break;
    case 2: v = (float)((int)(rnd() % 41) - 20) * 0.5f; break;
    case 3: v = rndf(-1e4f, 1e4f); break;
    default: v = rndf(-8.0f, 8.0f) * 1e-3f; break;
    }
    return fabsf(v) < 1e-6f ? 0.75f : v;
}

/* ------------------------------------------------------ f32_basic */

START_TEST(e2e_f32_basic)
{
    open_ptx_arch("f32_math", ARCH);
    rng_seed(401);
    static float a[NN], b[NN], c[NN], out[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = rnd_f32_mixed(i);
        b[i] = rnd_f32_mixed(i + 1);
        c[i] = rnd_f32_mixed(i + 3);
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dc = dbuf(c, sizeof(c)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dc, &dout, &n};
    launch("f32_basic", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        float x = a[i], y = b[i], z = c[i];
        float r = x + y;
        r += x - z;
        r = fmaf(x, y, r); /* r += x * y, contracted */
        r += x / y;
        r += sqrtf(fabsf(z));
        r = fmaf(r, x, z);
        r += fadd_m(x, y, RD) + fadd_m(x, z, RU) + fadd_m(y, z, RZ) +
             fadd_m(x, x, RN);
        r += fadd_m(x, -y, RD) + fadd_m(y, -z, RU);
        r += fmul_m(x, y, RD) + fmul_m(y, z, RU) + fmul_m(x, z, RZ) +
             fmul_m(y, y, RN);
        r += ffma_m(x, y, z, RZ) + ffma_m(x, y, z, RD) +
             ffma_m(x, y, z, RU) + ffma_m(z, y, x, RN);
        r += fdiv_m(x, y, RD) + fdiv_m(x, z, RU) + fdiv_m(y, z, RZ) +
             fdiv_m(z, x, RN);
        r += fdiv_m(1, y, RN) + fdiv_m(1, z, RZ) + fdiv_m(1, x, RD) +
             fdiv_m(1, y, RU);
        r += fsqrt_m(fabsf(x), RD) + fsqrt_m(fabsf(y), RU) +
             fsqrt_m(fabsf(z), RZ) + fsqrt_m(fabsf(r), RN);
        /* __frsqrt_rn is correctly rounded: 1/sqrt in double is within
         * 2^-52 relative, never on an f32 boundary for these inputs */
        r += (float)(1.0 / sqrt((double)(fabsf(x) + 1.0f)));
        float dm = x <= z ? 0.0f : x - z;
        r += (float)pmin(x, y) + (float)pmax(y, z) + dm;
        r += copysignf(x, z) + fabsf(y) - (-z);
        r += fsat(x);
        r += floorf(x) + ceilf(y) + truncf(z) + nearbyintf(x) +
             roundf(y) + nearbyintf(z);
        r += fmodf(x, 3.5f) + remainderf(y, 2.25f);
        r += ldexpf(x, 3) + scalbnf(y, -2);
        EQ_F("f32_basic", i, out[i], r);
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------- conv_round_sat */

static int32_t sat_i(double v, double lo, double hi)
{
    return v != v ? 0 : v < lo ? (int32_t)lo : v > hi ? (int32_t)hi
                                                        : (int32_t)v;
}

START_TEST(e2e_conv_round_sat)
{
    open_ptx_arch("conversions", ARCH);
    rng_seed(402);
    static float a[NN], out[NN];
    static int32_t sat[NN];
    for (int i = 0; i < NN; i++) {
        switch (i % 6) {
        case 0: a[i] = (float)((int)(rnd() % 41) - 20) * 0.5f; break;
        case 1: a[i] = rndf(-1.0f, 1.0f); break;
        case 2: a[i] = rndf(-300.0f, 300.0f); break;
        case 3: a[i] = rndf(-1e-6f, 1e-6f); break;
        case 4: a[i] = (i % 12 == 4) ? NAN : rndf(-2.0f, 2.0f); break;
        default: a[i] = rndf(-1e9f, 1e9f); break;
        }
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out)),
                  ds = dbuf(NULL, sizeof(sat));
    int n = NN;
    void *pp[] = {&da, &dout, &ds, &n};
    launch("conv_round_sat", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    dget(sat, ds, sizeof(sat));
    for (int i = 0; i < NN; i++) {
        float x = a[i];
        float r = fmaf(floorf(x), 2.0f, nearbyintf(x));
        r = fmaf(ceilf(x), 3.0f, r);
        r = fmaf(truncf(x), 4.0f, r);
        r = fsat(x) + r;
        if (x != x)
            ck_assert_msg(out[i] != out[i], "conv_round_sat[%d]", i);
        else
            EQ_F("conv_round_sat", i, out[i], r);
        /* cvt.rni.sat.s32.f32 of x * 1e10f; cvt.rzi.sat.s8.f32;
         * cvt.sat.u16.s32; cvt.rzi.ftz.sat.f32.f32, * 100, truncated */
        int32_t s1 = sat_i(nearbyint((double)(x * 1e10f)), -2147483648.0,
                           2147483647.0);
        int32_t s2 = sat_i(trunc((double)x), -128, 127);
        uint32_t s3 = s1 < 0 ? 0u : s1 > 65535 ? 65535u : (uint32_t)s1;
        float f1 = fsat(truncf(x));
        int32_t e = (int32_t)((uint32_t)s2 + (uint32_t)s1 + s3 +
                              (uint32_t)(int32_t)(f1 * 100.0f));
        EQ_I("conv_round_sat.sat", i, (uint32_t)sat[i], (uint32_t)e);
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------ f16 / bf16 */

static double hv(uint16_t h)
{
    return half_to_float(h);
}

static double bv(uint16_t b)
{
    return bf16_to_float(b);
}

/* A half/bf16 of moderate size: small integers and halves, random
 * values, sometimes subnormal (f16) or tiny. */
static uint16_t rnd_h(double lo, double hi, int i)
{
    double v = i % 7 == 3 ? (double)((int)(rnd() % 33) - 16) * 0.25
               : i % 11 == 5 ? (double)rndf(-1.0f, 1.0f) * 0x1p-16
                             : (double)rndf((float)lo, (float)hi);
    return half_bits(v, RN);
}

static uint16_t rnd_b(double lo, double hi, int i)
{
    double v = i % 7 == 3 ? (double)((int)(rnd() % 33) - 16) * 0.25
                          : (double)rndf((float)lo, (float)hi);
    return bf16_bits((double)(float)v, RN);
}

/* .sat: [0, 1], NaN and -0 to +0; .relu: negative (and -0) to +0. */
static double dsat(double v)
{
    return v != v || v <= 0 ? 0.0 : v > 1 ? 1.0 : v;
}

static double drelu(double v)
{
    return v != v ? v : v <= 0 ? 0.0 : v;
}

/* Rounded exact fma in a narrow format (products of f16/bf16 operands
 * are exact in double). */
static double nfma(const RefFmt *f, double a, double b, double c)
{
    double e, s = two_sum(a * b, c, &e);
    return ref_round(f, s, e, RN, 0);
}

/* Rounded exact quotient. */
static double ndiv(const RefFmt *f, double a, double b)
{
    double q = a / b, r = fma(-q, b, a);
    return ref_round(f, q, r == 0 ? 0 : ((r > 0) == (b > 0) ? 1 : -1), RN,
                     0);
}

/* The neighbours of an f16 or bf16 value (k = -1, 0, 1 ulp). */
static double nstep(double v, int k, int bf)
{
    uint16_t h = bf ? bf16_bits(v, RN) : half_bits(v, RN);
    if (k == 0)
        return v;
    if ((h & 0x7fff) == 0)
        h = k > 0 ? 1 : 0x8001;
    else
        h = (uint16_t)(((h & 0x8000) ? -k : k) + h);
    return bf ? bv(h) : hv(h);
}

START_TEST(e2e_saxpy_f16)
{
    open_ptx_arch("templates", ARCH);
    rng_seed(403);
    static uint16_t x[NN], y[NN], y0[NN];
    for (int i = 0; i < NN; i++) {
        x[i] = rnd_h(-60.0, 60.0, i);
        y0[i] = y[i] = rnd_h(-300.0, 300.0, i + 2);
    }
    uint16_t alpha = half_bits(-1.8125, RN);
    ptxemu_devptr dx = dbuf(x, sizeof(x)), dy = dbuf(y, sizeof(y));
    int n = NN;
    void *pp[] = {&alpha, &dx, &dy, &n};
    launch("saxpy_f16", NB, BS, 0, pp);
    dget(y, dy, sizeof(y));
    for (int i = 0; i < NN; i++) {
        double e = rh(rh(hv(alpha) * hv(x[i]), 0) + hv(y0[i]), 0);
        EQ_I("saxpy_f16", i, y[i], half_bits(e, RN));
    }
    close_ptx();
}
END_TEST

/* half_scalar with the quotient __hdiv gave (its rcp.approx may move
 * the correctly rounded quotient by one ulp near a rounding boundary). */
static double half_scalar_ref(double x, double y, double z, double q)
{
    double r = rh(x + y, 0);
    r = rh(r + rh(x - z, 0), 0);
    r = rh(r + rh(x * y, 0), 0);
    r = rh(r + q, 0);
    r = nfma(&REF_F16, r, y, z);
    r = rh(r + dsat(nfma(&REF_F16, x, y, z)), 0);
    r = rh(r + dsat(rh(x + y, 0)), 0);
    r = rh(r - z, 0);
    r = rh(r + fabs(x), 0);
    r = rh(r + pmax(x, y), 0);
    r = rh(r + pmin(x, z), 0);
    r = rh(r + pmax(y, z), 0); /* max.NaN: no NaN inputs */
    r = rh(r + drelu(nfma(&REF_F16, x, y, z)), 0);
    r = rh(r + rh(x + z, 0), 0);
    r = rh(r + rh(x * z, 0), 0);
    return r;
}

START_TEST(e2e_half_scalar)
{
    open_ptx_arch("fp16_arith", ARCH);
    rng_seed(404);
    static uint16_t a[NN], b[NN], c[NN], out[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = rnd_h(-8.0, 8.0, i);
        b[i] = rnd_h(-3.5, 3.5, i + 1);
        c[i] = rnd_h(-8.0, 8.0, i + 2);
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dc = dbuf(c, sizeof(c)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dc, &dout, &n};
    launch("half_scalar", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        double x = hv(a[i]), y = hv(b[i]), z = hv(c[i]);
        double q = ndiv(&REF_F16, x, rh(y + 4.0, 0));
        uint16_t e = half_bits(half_scalar_ref(x, y, z, q), RN);
        for (int k = -1; k <= 1 && out[i] != e; k += 2) {
            uint16_t e2 =
                half_bits(half_scalar_ref(x, y, z, nstep(q, k, 0)), RN);
            e = out[i] == e2 ? e2 : e;
        }
        EQ_I("half_scalar", i, out[i], e);
    }
    close_ptx();
}
END_TEST

static double bf16_scalar_ref(double x, double y, double z, double q)
{
    double r = rb(x + y, 0);
    r = rb(r + rb(x - z, 0), 0);
    r = rb(r + rb(x * y, 0), 0);
    r = rb(r + q, 0);
    r = nfma(&REF_BF16, r, y, z);
    r = rb(r + drelu(nfma(&REF_BF16, x, y, z)), 0);
    r = rb(r - z, 0);
    r = rb(r + pmax(x, y), 0);
    r = rb(r + pmin(x, z), 0); /* min.NaN: no NaN inputs */
    r = rb(r + dsat(rb(x + y, 0)), 0);
    r = rb(r + rb(x * y, 0), 0);
    return r;
}

START_TEST(e2e_bf16_scalar)
{
    open_ptx_arch("bf16_arith", ARCH);
    rng_seed(405);
    static uint16_t a[NN], b[NN], c[NN], out[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = rnd_b(-50.0, 50.0, i);
        b[i] = rnd_b(-4.0, 4.0, i + 1);
        c[i] = rnd_b(-50.0, 50.0, i + 2);
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dc = dbuf(c, sizeof(c)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dc, &dout, &n};
    launch("bf16_scalar", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        double x = bv(a[i]), y = bv(b[i]), z = bv(c[i]);
        /* __hdiv: div.approx.f32 (2 ulp) then one bf16 rounding */
        double q = ndiv(&REF_BF16, x, rb(fabs(y) + 1.0, 0));
        uint16_t e = bf16_bits(bf16_scalar_ref(x, y, z, q), RN);
        for (int k = -1; k <= 1 && out[i] != e; k += 2) {
            uint16_t e2 =
                bf16_bits(bf16_scalar_ref(x, y, z, nstep(q, k, 1)), RN);
            e = out[i] == e2 ? e2 : e;
        }
        EQ_I("bf16_scalar", i, out[i], e);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_bf16_compare)
{
    open_ptx_arch("bf16_arith", ARCH);
    rng_seed(406);
    static uint16_t a[NN], b[NN];
    static uint32_t c[NN], d[NN], out[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = rnd_b(-4.0, 4.0, i);
        b[i] = i % 4 == 0 ? a[i] : rnd_b(-4.0, 4.0, i + 1);
        if (i % 9 == 2)
            a[i] = 0x7fc0;
        if (i % 13 == 6)
            b[i] = 0xffc1;
        c[i] = (uint32_t)rnd_b(-2, 2, i) << 16 | rnd_b(-2, 2, i + 3);
        d[i] = i % 5 == 1 ? c[i]
                          : (uint32_t)rnd_b(-2, 2, i + 4) << 16 |
                                rnd_b(-2, 2, i + 5);
        if (i % 10 == 7)
            c[i] |= 0x7fc0;
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dc = dbuf(c, sizeof(c)), dd = dbuf(d, sizeof(d)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dc, &dd, &dout, &n};
    launch("bf16_compare", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        double x = bv(a[i]), y = bv(b[i]);
        double p0 = bv((uint16_t)c[i]), p1 = bv((uint16_t)(c[i] >> 16));
        double q0 = bv((uint16_t)d[i]), q1 = bv((uint16_t)(d[i] >> 16));
        int un = x != x || y != y;
        uint32_t e = 0;
        e |= (uint32_t)(x == y) << 0;
        e |= (uint32_t)(!un && x != y) << 1;
        e |= (uint32_t)(x < y) << 2;
        e |= (uint32_t)(x >= y) << 3;
        e |= (uint32_t)(un || x > y) << 4;
        e |= (uint32_t)(x != x) << 5;
        e |= (uint32_t)(p0 == q0 && p1 == q1) << 6;
        e |= (uint32_t)(p0 > q0 && p1 > q1) << 7;
        e |= (uint32_t)(p0 <= q0) << 8;
        e |= (p0 < q0 ? 0xffffu : 0u) << 16;
        EQ_I("bf16_compare", i, out[i], e);
    }
    close_ptx();
}
END_TEST

/* --------------------------------------------------------- fp8 */

/* fp8 of a float as CUDA's integer emulation on sm_80 does it: the
 * float widened to double, rounded to nearest even; .satfinite clamps
 * overflow (and inf) to the largest finite value, without it e5m2
 * overflows to inf. */
static uint8_t to_fp8(float v, int e5m2, int satf)
{
    double r = ref_round(e5m2 ? &REF_E5M2 : &REF_E4M3, v, 0, RN, satf);
    return fp8_bits(r, e5m2);
}

/* The sm_80 build does fp8 in integer code; the sm_90 build's
 * satfinite conversions are cvt.rn.satfinite.e4m3x2.f32 and
 * cvt.rn.f16x2.e4m3x2/e5m2x2 themselves. */
START_TEST(e2e_conv_fp8)
{
    open_ptx_arch("conv_half", ARCH);
    rng_seed(407);
    static float a[NN], b[NN], back[NN];
    static uint16_t packed[2 * NN];
    for (int i = 0; i < NN; i++) {
        float *v[2] = {&a[i], &b[i]};
        for (int k = 0; k < 2; k++) {
            switch ((i + k) % 6) {
            case 0: *v[k] = rndf(-500.0f, 500.0f); break;
            case 1: *v[k] = rndf(-1.0f, 1.0f) * 0x1p-7f; break;
            case 2: *v[k] = (float)((int)(rnd() % 65) - 32) * 0.125f; break;
            case 3: *v[k] = rndf(-1.0f, 1.0f) * 0x1p-15f; break;
            case 4: *v[k] = rndf(-7e4f, 7e4f); break;
            default: *v[k] = rndf(-20.0f, 20.0f); break;
            }
        }
        if (i % 17 == 3)
            a[i] = i % 2 ? INFINITY : -INFINITY;
        if (i % 19 == 4)
            b[i] = 464.0f;    /* e4m3 tie between 448 and NaN: even */
        if (i % 23 == 5)
            a[i] = 61440.0f;  /* e5m2 tie at the top: to inf */
        if (i % 29 == 6)
            b[i] = 0x1p-10f;  /* e4m3: half the smallest subnormal */
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dp = dbuf(NULL, sizeof(packed)),
                  dback = dbuf(NULL, sizeof(back));
    int n = NN;
    void *pp[] = {&da, &db, &dp, &dback, &n};
    launch("conv_fp8", NB, BS, 0, pp);
    dget(packed, dp, sizeof(packed));
    dget(back, dback, sizeof(back));
    for (int i = 0; i < NN; i++) {
        uint8_t e4a = to_fp8(a[i], 0, 1), e4b = to_fp8(b[i], 0, 1);
        uint8_t e5a = to_fp8(a[i], 1, 0), e5b = to_fp8(b[i], 1, 0);
        EQ_I("conv_fp8.e4m3x2", i, packed[2 * i], e4b << 8 | e4a);
        EQ_I("conv_fp8.e5m2x2", i, packed[2 * i + 1], e5b << 8 | e5a);
        /* back through f16 (exact) to float, summed in order */
        float s = (float)fp8_value(e4a, 0) + (float)fp8_value(e4b, 0);
        s += (float)fp8_value(e5a, 1);
        s += (float)fp8_value(e5b, 1);
        s += (float)fp8_value(e4a, 0);
        if (s != s)
            ck_assert_msg(back[i] != back[i], "conv_fp8.back[%d]: %g", i,
                          (double)back[i]);
        else
            EQ_F("conv_fp8.back", i, back[i], s);
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ f64 */

/* Directed rounding of an f64 operation: rn is the host's correctly
 * rounded result, c = sign(rn - exact) from GMP's exact rationals; the
 * directed result is rn or its neighbour toward the exact value. */
static double dfix(double rn, int c, int m)
{
    if (m == RZ && c != 0 && (c > 0) == (rn > 0))
        return nextafter(rn, 0.0);
    if (m == RD && c > 0)
        return nextafter(rn, -INFINITY);
    if (m == RU && c < 0)
        return nextafter(rn, INFINITY);
    return rn;
}

static int qcmp_d(double rn, const mpq_t exact)
{
    mpq_t t;
    mpq_init(t);
    mpq_set_d(t, rn);
    int c = mpq_cmp(t, exact);
    mpq_clear(t);
    return c > 0 ? 1 : c < 0 ? -1 : 0;
}

enum { Q_ADD, Q_MUL, Q_DIV, Q_FMA };

static double dop_m(int op, double x, double y, double z, int m)
{
    mpq_t qx, qy, qz, e;
    mpq_inits(qx, qy, qz, e, NULL);
    mpq_set_d(qx, x);
    mpq_set_d(qy, y);
    mpq_set_d(qz, z);
    double rn;
    switch (op) {
    case Q_ADD: rn = x + y; mpq_add(e, qx, qy); break;
    case Q_MUL: rn = x * y; mpq_mul(e, qx, qy); break;
    case Q_DIV: rn = x / y; mpq_div(e, qx, qy); break;
    default:
        rn = fma(x, y, z);
        mpq_mul(e, qx, qy);
        mpq_add(e, e, qz);
        break;
    }
    int c = qcmp_d(rn, e);
    mpq_clears(qx, qy, qz, e, NULL);
    return dfix(rn, c, m);
}

static double dsqrt_m(double x, int m)
{
    double s = sqrt(x);
    mpq_t qs, qx;
    mpq_inits(qs, qx, NULL);
    mpq_set_d(qs, s);
    mpq_mul(qs, qs, qs);
    mpq_set_d(qx, x);
    int c = mpq_cmp(qs, qx); /* sign(s - sqrt(x)) = sign(s^2 - x) */
    mpq_clears(qs, qx, NULL);
    return dfix(s, c > 0 ? 1 : c < 0 ? -1 : 0, m);
}

static double rnd_f64_mixed(int i)
{
    double v = (double)rnd_f32_mixed(i) + (double)(int32_t)rnd() * 0x1p-55;
    return v == 0 ? 0.625 : v;
}

START_TEST(e2e_f64_basic)
{
    open_ptx_arch("f64_math", ARCH);
    rng_seed(408);
    static double a[NN], b[NN], c[NN], out[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = rnd_f64_mixed(i);
        b[i] = rnd_f64_mixed(i + 1);
        c[i] = rnd_f64_mixed(i + 2);
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dc = dbuf(c, sizeof(c)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dc, &dout, &n};
    launch("f64_basic", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        double x = a[i], y = b[i], z = c[i];
        double r = x + y;
        r += x - z;
        r = fma(x, y, r);
        r += x / y;
        r += sqrt(fabs(z));
        r = fma(r, x, z);
        r += dop_m(Q_ADD, x, y, 0, RD) + dop_m(Q_ADD, x, z, 0, RU) +
             dop_m(Q_ADD, y, z, 0, RZ) + (x + x);
        r += dop_m(Q_ADD, x, -y, 0, RD) + dop_m(Q_ADD, y, -z, 0, RU) +
             dop_m(Q_ADD, x, -z, 0, RZ);
        r += dop_m(Q_MUL, x, y, 0, RD) + dop_m(Q_MUL, y, z, 0, RU) +
             dop_m(Q_MUL, x, z, 0, RZ);
        r += dop_m(Q_FMA, x, y, z, RD) + dop_m(Q_FMA, x, y, z, RU) +
             dop_m(Q_FMA, x, y, z, RZ) + fma(z, y, x);
        r += dop_m(Q_DIV, x, y, 0, RD) + dop_m(Q_DIV, x, z, 0, RU) +
             dop_m(Q_DIV, y, z, 0, RZ) + z / x;
        r += 1.0 / y + dop_m(Q_DIV, 1, z, 0, RZ) +
             dop_m(Q_DIV, 1, x, 0, RD) + dop_m(Q_DIV, 1, y, 0, RU);
        r += dsqrt_m(fabs(x), RD) + dsqrt_m(fabs(y), RU) +
             dsqrt_m(fabs(z), RZ) + sqrt(fabs(r));
        r += pmin(x, y) + pmax(y, z) + copysign(x, z);
        r += floor(x) + ceil(y) + trunc(z) + nearbyint(x) + round(y);
        /* rsqrt(): rsqrt.approx.f64, within a relative 2^-40 (taken
         * generously); round-to-nearest addition is monotonic, so the
         * result lies between the sums with the bound's two ends */
        double rs = 1.0 / sqrt(fabs(x) + 1.0);
        double lo = r + nextafter(rs * (1 - 0x1p-40), 0),
               hi = r + nextafter(rs * (1 + 0x1p-40), INFINITY);
        ck_assert_msg(out[i] >= lo && out[i] <= hi,
                      "f64_basic[%d]: got %.17g, expected [%.17g, %.17g]", i,
                      out[i], lo, hi);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_f64_asm)
{
    open_ptx_arch("f64_math", ARCH);
    rng_seed(409);
    static double a[NN], b[NN], out[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = rnd_f64_mixed(i);
        b[i] = rnd_f64_mixed(i + 3);
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dout, &n};
    launch("f64_asm", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        double x = a[i], y = b[i];
        double r1 = 1.0 / y, r2 = 1.0 / sqrt(fabs(x) + 1.0);
        double r3 = dop_m(Q_DIV, x, y, 0, RZ), r4 = pmin(x, y);
        double r5 = fabs(x), s = sqrt(fabs(y));
        /* r2 is rsqrt.approx.f64 (relative 2^-40, as in f64_basic); the
         * sum is monotonic in it */
        double r2lo = nextafter(r2 * (1 - 0x1p-40), 0),
               r2hi = nextafter(r2 * (1 + 0x1p-40), INFINITY);
        double lo = r1 + r2lo + r3 + r4 + r5 + s,
               hi = r1 + r2hi + r3 + r4 + r5 + s;
        ck_assert_msg(out[i] >= lo && out[i] <= hi,
                      "f64_asm[%d]: got %.17g, expected [%.17g, %.17g]", i,
                      out[i], lo, hi);
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------- approximate: intervals */

/* The value an approximate instruction returns is only known to lie in
 * an interval (its reference +- the PTX ISA's bound).  Every later
 * operation the kernel does rounds to nearest, which is monotonic in
 * each operand, so evaluating the same operations on the interval ends
 * (corners for products) bounds the kernel's result: it must lie in the
 * final interval. */
typedef struct Iv {
    double lo, hi;
} Iv;

static Iv iv(double lo, double hi)
{
    Iv r = {lo < hi ? lo : hi, lo < hi ? hi : lo};
    return r;
}

static Iv ipt(double v)
{
    return iv(v, v);
}

/* ref +- (abs + rel * |ref|) */
static Iv iapprox(double ref, double abs, double rel)
{
    double b = abs + rel * fabs(ref);
    return iv(ref - b, ref + b);
}

/* Round-to-nearest of a + b, and of a * b + c (exact products via
 * fma's error term; only the sign of the remainder matters). */
static double radd(const RefFmt *f, double a, double b)
{
    double e, s = two_sum(a, b, &e);
    return ref_round(f, s, e, RN, 0);
}

static double rfma(const RefFmt *f, double a, double b, double c)
{
    double p = a * b, pe = fma(a, b, -p), e2, s = two_sum(p, c, &e2);
    return ref_round(f, s, e2 + pe, RN, 0);
}

static Iv iadd(const RefFmt *f, Iv a, Iv b)
{
    return iv(radd(f, a.lo, b.lo), radd(f, a.hi, b.hi));
}

/* a * b + c with intervals a, b (corners) and c */
static Iv ifma(const RefFmt *f, Iv a, Iv b, Iv c)
{
    double x[4] = {rfma(f, a.lo, b.lo, c.lo), rfma(f, a.lo, b.hi, c.lo),
                   rfma(f, a.hi, b.lo, c.lo), rfma(f, a.hi, b.hi, c.lo)};
    double y[4] = {rfma(f, a.lo, b.lo, c.hi), rfma(f, a.lo, b.hi, c.hi),
                   rfma(f, a.hi, b.lo, c.hi), rfma(f, a.hi, b.hi, c.hi)};
    Iv r = iv(x[0], y[0]);
    for (int k = 0; k < 4; k++) {
        r.lo = fmin(r.lo, fmin(x[k], y[k]));
        r.hi = fmax(r.hi, fmax(x[k], y[k]));
    }
    return r;
}

static Iv imul(const RefFmt *f, Iv a, Iv b)
{
    return ifma(f, a, b, ipt(0.0));
}

static int in_iv(double v, Iv r)
{
    return v >= r.lo && v <= r.hi;
}

#define IN_IV(what, i, got, r)                                          \
    ck_assert_msg(in_iv((got), (r)),                                    \
                  "%s[%d]: got %.9g, expected [%.9g, %.9g]", what,      \
                  (int)(i), (double)(got), (r).lo, (r).hi)

/* One f32 ulp at v (the subnormal quantum near zero). */
static double ulp32(double v)
{
    int e = v == 0 ? -126 : ilogb(v);
    return ldexp(1.0, (e < -126 ? -126 : e) - 23);
}

/* PTX ISA 9.0 bounds of the .approx.f32 instructions (section 9.7.3):
 * sin/cos absolute 2^-20.9 on [-pi, pi]; ex2 relative 2^-22.5 (taken
 * as 2^-22); lg2 absolute 2^-22.6 (taken as 2^-22); rsqrt relative
 * 2^-22.9; rcp and sqrt relative 2^-23; div.approx and div.full 2 ulp;
 * tanh relative 2^-10.987 (taken as 2^-10.9). */
#define B_SINCOS 5.12e-7 /* 2^-20.9 */
#define B_EX2 2.39e-7    /* 2^-22 */
#define B_LG2 2.39e-7
#define B_RSQRT 1.29e-7  /* 2^-22.9 */
#define B_RCP 1.193e-7   /* 2^-23 */
#define B_TANH 5.25e-4   /* 2^-10.9 */

static Iv iex2(Iv t)
{
    return iv(exp2(t.lo) * (1 - B_EX2), exp2(t.hi) * (1 + B_EX2));
}

static Iv ilg2(double v)
{
    return iapprox(log2(v), B_LG2, 0);
}

/* div.approx.f32 of intervals (positive denominators here) */
static Iv idiv_approx(Iv a, Iv b)
{
    double q[4] = {a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi};
    Iv r = iv(q[0], q[0]);
    for (int k = 1; k < 4; k++) {
        r.lo = fmin(r.lo, q[k]);
        r.hi = fmax(r.hi, q[k]);
    }
    r.lo -= 2 * ulp32(r.lo) + 2 * ulp32(r.hi);
    r.hi += 2 * ulp32(r.lo) + 2 * ulp32(r.hi);
    return r;
}

START_TEST(e2e_f32_intrinsics)
{
    open_ptx_arch("f32_fastmath", ARCH);
    rng_seed(410);
    static float a[NN], b[NN], out[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = rndf(-2.5f, 2.5f);
        b[i] = rndf(-3.1f, 3.1f);
        if (fabsf(b[i]) < 0.01f)
            b[i] = 0.5f;
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dout, &n};
    launch("f32_intrinsics", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    const RefFmt *F = &REF_F32;
    for (int i = 0; i < NN; i++) {
        float x = a[i], y = b[i];
        Iv sx = iapprox(sin(x), B_SINCOS, 0);
        Iv r = iadd(F, sx, iapprox(cos(y), B_SINCOS, 0));
        float xh = x * 0.5f; /* __tanf: sin.approx / cos.approx */
        r = iadd(F, r,
                 idiv_approx(iapprox(sin(xh), B_SINCOS, 0),
                             iapprox(cos(xh), B_SINCOS, 0)));
        r = iadd(F, r, iex2(ipt(x * 0x1.715476p0f))); /* __expf */
        float t10 = y * 0.1f * 0x1.a934f0p1f;              /* __exp10f */
        r = iadd(F, r, iex2(ipt(t10)));
        float ax = fabsf(x), ay1 = fabsf(y) + 1.0f;
        Iv l1 = ilg2(ax + 1.0f); /* __logf: lg2 * ln 2, fused */
        r = ifma(F, l1, ipt(0x1.62e430p-1f), r);
        r = iadd(F, r, ilg2(ay1)); /* __log2f */
        r = ifma(F, ilg2(ax + 2.0f), ipt(0x1.344136p-2f), r); /* __log10f */
        r = iadd(F, r, iex2(imul(F, l1, ipt(0.75)))); /* __powf */
        r = iadd(F, r, idiv_approx(ipt(x), ipt(y)));  /* __fdividef */
        r = iadd(F, r, iapprox(1.0 / sqrt((double)ay1), 0, B_RSQRT));
        /* __frsqrt_rn: correctly rounded */
        r = iadd(F, r, ipt((float)(1.0 / sqrt((double)(ax + 4.0f)))));
        r = iadd(F, r, iex2(ipt(y)));                 /* exp2f */
        /* __sincosf: s * c fused into the sum */
        r = ifma(F, sx, iapprox(cos(x), B_SINCOS, 0), r);
        IN_IV("f32_intrinsics", i, out[i], r);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_f32_approx_asm)
{
    open_ptx_arch("f32_fastmath", ARCH);
    rng_seed(411);
    static float a[NN], out[NN];
    static uint16_t hout[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = i % 9 == 4 ? (float)((int)(rnd() % 9) - 4) * 0.5f
                          : rndf(-2.5f, 3.1f);
        if (a[i] == -2.0f) /* rcp of x + 2 */
            a[i] = 0.125f;
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out)),
                  dh = dbuf(NULL, sizeof(hout));
    int n = NN;
    void *pp[] = {&da, &dout, &dh, &n};
    launch("f32_approx_asm", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    dget(hout, dh, sizeof(hout));
    const RefFmt *F = &REF_F32;
    for (int i = 0; i < NN; i++) {
        double x = a[i], ax = fabsf(a[i]);
        Iv r = iadd(F, iapprox(tanh(x), 0, B_TANH),
                    iapprox(exp2(x), 0, B_EX2));
        r = iadd(F, r, ilg2(fabsf(a[i]) + 1.0f));
        r = iadd(F, r, iapprox(1.0 / (double)(a[i] + 3.0f), 0, B_RCP));
        r = iadd(F, r, iapprox(1.0 / sqrt((double)(fabsf(a[i]) + 1.0f)),
                               0, B_RSQRT));
        r = iadd(F, r, iapprox(sqrt(ax), 0, B_RCP));
        r = iadd(F, r, iapprox(sin(x), B_SINCOS, 0));
        r = iadd(F, r, iapprox(cos(x), B_SINCOS, 0));
        /* rcp.approx.ftz.f64 then cvt.rn.f32.f64: taken within 2^-20
         * relative before the final rounding */
        Iv q = iapprox(1.0 / (double)(a[i] + 2.0f), 0, 0x1p-20);
        r = iadd(F, r, iv((float)q.lo, (float)q.hi));
        IN_IV("f32_approx_asm", i, out[i], r);
        /* f16: tanh.approx.f16 (relative 2^-8 here, the ISA's 2^-10.7
         * plus the f16 result's rounding) + ex2.approx.f16 (2^-9.9) */
        double h = hv(half_bits(x, RN));
        Iv t = iapprox(tanh(h), 0x1p-24, 0x1p-8);
        Iv e = iapprox(exp2(h), 0, 1.05e-3); /* 2^-9.9 */
        Iv s = iadd(&REF_F16, t, e);
        IN_IV("f32_approx_asm.f16", i, hv(hout[i]), s);
    }
    close_ptx();
}
END_TEST

/* f32 flush-to-zero of a subnormal (sign kept). */
static float ftzf(float v)
{
    return fabsf(v) < 0x1p-126f ? copysignf(0.0f, v) : v;
}

START_TEST(e2e_f32_ftz_asm)
{
    open_ptx_arch("f32_fastmath", ARCH);
    rng_seed(412);
    static float a[NN], b[NN], out[NN];
    static int32_t cls[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = rnd_f32_mixed(i);
        b[i] = rnd_f32_mixed(i + 2);
        if (i % 7 == 1)
            a[i] = rndf(-1.0f, 1.0f) * 0x1p-127f; /* subnormal */
        if (i % 11 == 2)
            b[i] = rndf(-1.0f, 1.0f) * 0x1p-130f;
        if (i % 13 == 5)
            a[i] = 0x1p-64f * (i % 2 ? 1.0f : -1.0f); /* product: subn. */
        if (i % 13 == 5)
            b[i] = 0x1.8p-63f;
        if (i % 17 == 3)
            a[i] = NAN;
        if (i % 19 == 7)
            a[i] = -INFINITY;
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dout = dbuf(NULL, sizeof(out)), dc = dbuf(NULL, sizeof(cls));
    int n = NN;
    void *pp[] = {&da, &db, &dout, &dc, &n};
    launch("f32_ftz_asm", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    dget(cls, dc, sizeof(cls));
    for (int i = 0; i < NN; i++) {
        float x = a[i], y = b[i], xf = ftzf(x), yf = ftzf(y);
        int c = (isfinite(x) ? 1 : 0) + (fpclassify(x) == FP_SUBNORMAL ? 2 : 0)
                + (x != x ? 4 : 0);
        EQ_I("f32_ftz_asm.cls", i, cls[i], c);
        float s = ftzf(xf + yf);
        float m = ftzf(fmul_m(xf, yf, RZ));
        float f = fsat(ftzf(fmaf(xf, yf, s)));
        float mn = (x != x || y != y) ? NAN : (float)pmin(x, y);
        float mx = (float)pmax(xf, yf);
        /* div.full.f32: within 2 ulp of x / y */
        float q = x / y;
        if (q != q || isinf(q)) {
            ck_assert_msg(out[i] != out[i] || isinf(out[i]),
                          "f32_ftz_asm[%d]: got %g", i, (double)out[i]);
            continue;
        }
        float r0 = s + m;
        float qlo = nextafterf(nextafterf(q, -INFINITY), -INFINITY);
        float qhi = nextafterf(nextafterf(q, INFINITY), INFINITY);
        float lo = r0 + qlo, hi = r0 + qhi;
        lo = lo + f + mn + mx;
        hi = hi + f + mn + mx;
        if (mn != mn) {
            ck_assert_msg(out[i] != out[i], "f32_ftz_asm[%d]: got %g", i,
                          (double)out[i]);
            continue;
        }
        IN_IV("f32_ftz_asm", i, out[i], iv(lo, hi));
    }
    close_ptx();
}
END_TEST

/* ------------------------------------ f16 / bf16 math: intervals */

/* One unit in the last place of v in format f. */
static double nulp(const RefFmt *f, double v)
{
    int e = v == 0 ? f->emin : ilogb(v);
    return ldexp(1.0, (e < f->emin ? f->emin : e) - (f->p - 1));
}

/* The f16/bf16 math intrinsics (hsqrt, hexp, h2sin ...) compute in f32
 * with .approx instructions and polynomials, round once to the narrow
 * format and sometimes nudge a known hard case by one ulp: taken as
 * within 2 ulp (and 2^-22 absolute) of the exact function. */
static Iv iapx(const RefFmt *f, double v)
{
    double b = 2 * nulp(f, v) + 0x1p-22;
    return iv(v - b, v + b);
}

START_TEST(e2e_half_math)
{
    open_ptx_arch("fp16_arith", ARCH);
    rng_seed(413);
    static uint16_t a[NN], out[NN];
    for (int i = 0; i < NN; i++)
        a[i] = rnd_h(-4.0, 4.0, i);
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &dout, &n};
    launch("half_math", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    const RefFmt *F = &REF_F16;
    for (int i = 0; i < NN; i++) {
        double x = hv(a[i]), ax = fabs(x), ax1 = rh(ax + 1, 0);
        Iv r = iapx(F, sqrt(ax));
        r = iadd(F, r, iapx(F, 1 / sqrt(ax1)));
        r = iadd(F, r, iapx(F, 1 / ax1));
        r = iadd(F, r, iapx(F, exp(x)));
        r = iadd(F, r, iapx(F, exp2(x)));
        r = iadd(F, r, iapx(F, pow(10, x)));
        r = iadd(F, r, iapx(F, log(ax1)));
        r = iadd(F, r, iapx(F, log2(ax1)));
        r = iadd(F, r, iapx(F, log10(ax1)));
        r = iadd(F, r, iapx(F, sin(x)));
        r = iadd(F, r, iapx(F, cos(x)));
        r = iadd(F, r, iapx(F, tanh(x)));
        r = iadd(F, r, ipt(floor(x)));
        r = iadd(F, r, ipt(ceil(x)));
        r = iadd(F, r, ipt(trunc(x)));
        r = iadd(F, r, ipt(nearbyint(x)));
        IN_IV("half_math", i, hv(out[i]), r);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_half2_arith)
{
    open_ptx_arch("fp16_arith", ARCH);
    rng_seed(414);
    static uint32_t a[NN], b[NN], c[NN], out[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = (uint32_t)rnd_h(-4, 4, i) << 16 | rnd_h(-4, 4, i + 1);
        b[i] = (uint32_t)rnd_h(-4, 4, i + 2) << 16 | rnd_h(-4, 4, i + 3);
        c[i] = (uint32_t)rnd_h(-4, 4, i + 4) << 16 | rnd_h(-4, 4, i + 5);
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dc = dbuf(c, sizeof(c)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dc, &dout, &n};
    launch("half2_arith", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    const RefFmt *F = &REF_F16;
    for (int i = 0; i < NN; i++) {
        double X[2] = {hv((uint16_t)a[i]), hv((uint16_t)(a[i] >> 16))};
        double Y[2] = {hv((uint16_t)b[i]), hv((uint16_t)(b[i] >> 16))};
        double Z[2] = {hv((uint16_t)c[i]), hv((uint16_t)(c[i] >> 16))};
        /* __hcmadd: x, y, z complex (low = real part) */
        double cre = nfma(F, -X[1], Y[1], nfma(F, X[0], Y[0], Z[0]));
        double cim = nfma(F, X[1], Y[0], nfma(F, X[0], Y[1], Z[1]));
        for (int k = 0; k < 2; k++) {
            double x = X[k], y = Y[k], z = Z[k];
            double r0 = rh(x + y, 0);
            r0 = rh(r0 + rh(x - z, 0), 0);
            r0 = rh(r0 + rh(x * y, 0), 0);
            /* __h2div: rcp.approx-based, one ulp either way */
            double q = ndiv(F, x, rh(fabs(y) + 1, 0));
            Iv r = iadd(F, ipt(r0), iv(nstep(q, -1, 0), nstep(q, 1, 0)));
            r = ifma(F, r, ipt(y), ipt(z));
            r = iadd(F, r, ipt(dsat(nfma(F, x, y, z))));
            r = iadd(F, r, ipt(drelu(nfma(F, x, y, z))));
            r = iadd(F, r, ipt(-z));
            r = iadd(F, r, ipt(pmax(x, y)));
            r = iadd(F, r, ipt(pmin(x, y)));
            r = iadd(F, r, iapx(F, exp(x)));
            r = iadd(F, r, iapx(F, exp2(y)));
            r = iadd(F, r, iapx(F, sqrt(fabs(z))));
            r = iadd(F, r, iapx(F, log(rh(fabs(z) + 1, 0))));
            r = iadd(F, r, iapx(F, sin(x)));
            r = iadd(F, r, iapx(F, cos(y)));
            r = iadd(F, r, iapx(F, 1 / rh(fabs(z) + 2, 0)));
            r = iadd(F, r, ipt(X[1 - k]));             /* lanes swapped */
            r = iadd(F, r, ipt(k == 0 ? Y[0] : Z[1])); /* halves2half2 */
            r = iadd(F, r, ipt(k == 0 ? cre : cim));
            IN_IV("half2_arith", 2 * i + k,
                  hv((uint16_t)(out[i] >> (16 * k))), r);
        }
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_bf16_math)
{
    open_ptx_arch("bf16_arith", ARCH);
    rng_seed(415);
    static uint16_t a[NN], out[NN];
    for (int i = 0; i < NN; i++)
        a[i] = rnd_b(-4.0, 4.0, i);
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &dout, &n};
    launch("bf16_math", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    const RefFmt *F = &REF_BF16;
    for (int i = 0; i < NN; i++) {
        double x = bv(a[i]), ax1 = rb(fabs(x) + 1, 0);
        Iv r = iapx(F, sqrt(ax1));
        r = iadd(F, r, iapx(F, 1 / sqrt(ax1)));
        r = iadd(F, r, iapx(F, 1 / ax1));
        r = iadd(F, r, iapx(F, exp(x)));
        r = iadd(F, r, iapx(F, exp2(x)));
        r = iadd(F, r, iapx(F, log(ax1)));
        r = iadd(F, r, iapx(F, log2(ax1)));
        r = iadd(F, r, iapx(F, sin(x)));
        r = iadd(F, r, iapx(F, cos(x)));
        r = iadd(F, r, iapx(F, tanh(x)));
        r = iadd(F, r, ipt(floor(x)));
        r = iadd(F, r, ipt(ceil(x)));
        r = iadd(F, r, ipt(nearbyint(x)));
        IN_IV("bf16_math", i, bv(out[i]), r);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_bf162_arith)
{
    open_ptx_arch("bf16_arith", ARCH);
    rng_seed(416);
    static uint32_t a[NN], b[NN], c[NN], out[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = (uint32_t)rnd_b(-4, 4, i) << 16 | rnd_b(-4, 4, i + 1);
        b[i] = (uint32_t)rnd_b(-4, 4, i + 2) << 16 | rnd_b(-4, 4, i + 3);
        c[i] = (uint32_t)rnd_b(-4, 4, i + 4) << 16 | rnd_b(-4, 4, i + 5);
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dc = dbuf(c, sizeof(c)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dc, &dout, &n};
    launch("bf162_arith", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    const RefFmt *F = &REF_BF16;
    for (int i = 0; i < NN; i++) {
        double X[2] = {bv((uint16_t)a[i]), bv((uint16_t)(a[i] >> 16))};
        for (int k = 0; k < 2; k++) {
            double x = X[k], y = bv((uint16_t)(b[i] >> (16 * k)));
            double z = bv((uint16_t)(c[i] >> (16 * k)));
            double r0 = rb(x + y, 0);
            r0 = rb(r0 + rb(x - z, 0), 0);
            r0 = rb(r0 + rb(x * y, 0), 0);
            r0 = nfma(F, r0, y, z);
            r0 = rb(r0 + drelu(nfma(F, x, y, z)), 0);
            r0 = rb(r0 - z, 0);
            r0 = rb(r0 + fabs(x), 0);
            r0 = rb(r0 + pmax(x, y), 0);
            r0 = rb(r0 + pmin(x, z), 0);
            Iv r = iadd(F, ipt(r0), iapx(F, exp(x)));
            r = iadd(F, r, iapx(F, sqrt(fabs(y))));
            r = iadd(F, r, iapx(F, sin(z)));
            r = iadd(F, r, ipt(X[1 - k]));
            IN_IV("bf162_arith", 2 * i + k,
                  bv((uint16_t)(out[i] >> (16 * k))), r);
        }
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ suite */

Suite *e2e_fp_suite(void);

Suite *e2e_fp_suite(void)
{
    Suite *s = suite_create("e2e_fp");
    TCase *tc = tcase_create("corpus");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, NULL, close_ptx);
    const TTest *const tests[] = {
        e2e_f32_basic,
        e2e_conv_round_sat,
        e2e_saxpy_f16,
        e2e_half_scalar,
        e2e_bf16_scalar,
        e2e_bf16_compare,
        e2e_conv_fp8,
        e2e_f64_basic,
        e2e_f64_asm,
        e2e_f32_intrinsics,
        e2e_f32_approx_asm,
        e2e_f32_ftz_asm,
        e2e_half_math,
        e2e_half2_arith,
        e2e_bf16_math,
        e2e_bf162_arith,
    };
    for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
        tcase_add_loop_test(tc, tests[i], 0, 2); /* sm80, sm90 */
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(e2e_fp_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
