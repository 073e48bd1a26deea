/*
 * tests/check_e2e.c: end-to-end runs of the front end's corpus kernels
 * (tests/corpus/cu/NAME.cu, compiled to tests/corpus/ptx/NAME.sm80.ptx)
 * through the public API (runtime/ptxemu.h), each against a host C
 * reference of the same computation (issue 3, "End-to-end").
 *
 * Every test loads one PTX file, fills its inputs with deterministic
 * pseudo-random data, launches a few CTAs, mostly of 112 threads (several
 * warps, a partial last warp, a bounds check that diverges in the last
 * CTA; whole warps, 96 or 128, where a collective names all 32 lanes),
 * and compares every output element: integers bit-exactly, floats
 * bit-exactly where the PTX operation is correctly rounded (the reference
 * uses the same operations in the same order: fmaf where nvcc contracted
 * to fma), and within the documented error bound for the libm functions
 * (f32_libm, f64_libm).  Where the launch order of threads decides a value
 * (atomic exchange/CAS results, warp-aggregated slots) only the
 * order-independent facts are checked.
 *
 * Corpus kernels left out are listed, with the reason, in `skipped` and
 * printed by main.  The other corpus kernels run in check_e2e_fp.c,
 * check_e2e_misc.c, check_e2e_mma.c, check_mbarrier.c and
 * check_cluster.c.
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
#include "tests/fp_ref.h"

static uint32_t mulhi_s32(int32_t a, int32_t b)
{
    return (uint32_t)(((int64_t)a * b) >> 32);
}

static uint32_t mulhi_u32(uint32_t a, uint32_t b)
{
    return (uint32_t)(((uint64_t)a * b) >> 32);
}

/* ------------------------------------------------------------ int_arith */

START_TEST(e2e_int_arith_s32)
{
    open_ptx("int_arith");
    rng_seed(11);
    static int32_t a[NN], b[NN], out[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = (int32_t)rnd();
        b[i] = (i % 7 == 0)    ? 0
               : (i % 11 == 0) ? -(int32_t)(rnd() % 40)
                               : (int32_t)rnd();
        if (a[i] == INT32_MIN)
            a[i] = 5;
        if (i % 5 == 0)
            a[i] >>= (rnd() % 24);
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dout, &n};
    launch("int_arith_s32", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        int32_t x = a[i], y = b[i], d = y == 0 ? 1 : y;
        uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
        uint32_t r = 0;
        r += ux + uy;
        r ^= ux - uy;
        r += ux * uy;
        r += mulhi_s32(x, y);
        r += (uint32_t)(x / d);
        r += (uint32_t)(x % d);
        r += (uint32_t)(x < y ? x : y) * 3u + (uint32_t)(x > y ? x : y) * 5u;
        uint32_t df = ux - uy;
        r += ((int32_t)df < 0) ? 0u - df : df;
        r += 0u - ux;
        r += (ux << (y & 31)) ^ (uint32_t)(x >> (y & 31));
        r += ux * 7u + uy;
        EQ_I("int_arith_s32", i, (uint32_t)out[i], r);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_int_arith_u32)
{
    open_ptx("int_arith");
    rng_seed(12);
    static uint32_t a[NN], b[NN], out[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = rnd();
        b[i] = (i % 3) ? rnd() : rnd() % 100;
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dout, &n};
    launch("int_arith_u32", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        uint32_t x = a[i], y = b[i], d = y | 1u, r = 0;
        r += x + y;
        r ^= x - y;
        r += x * y;
        r += mulhi_u32(x, y);
        r += x / d;
        r += x % d;
        r += (x < y ? x : y) + (x > y ? x : y) * 9u;
        r += (x >> (y & 31)) | (x << ((32 - y) & 31));
        r += ~x & y;
        EQ_I("int_arith_u32", i, out[i], r);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_int_arith_64)
{
    open_ptx("int_arith");
    rng_seed(13);
    static int64_t a[NN], b[NN], so[NN];
    static uint64_t uo[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = (int64_t)rnd64();
        b[i] = (i % 9 == 0)   ? 0
               : (i % 4 == 0) ? (int64_t)(rnd() % 1000) - 500
                              : (int64_t)rnd64();
        if (i % 6 == 0)
            a[i] >>= rnd() % 50;
        if (a[i] == INT64_MIN)
            a[i] = 1;
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dso = dbuf(NULL, sizeof(so)), duo = dbuf(NULL, sizeof(uo));
    int n = NN;
    void *pp[] = {&da, &db, &dso, &duo, &n};
    launch("int_arith_64", NB, BS, 0, pp);
    dget(so, dso, sizeof(so));
    dget(uo, duo, sizeof(uo));
    for (int i = 0; i < NN; i++) {
        int64_t x = a[i], y = b[i], d = y == 0 ? 3 : y;
        uint64_t ux = (uint64_t)x, uy0 = (uint64_t)y;
        uint64_t r = ux + uy0;
        r ^= ux - uy0;
        r += ux * uy0;
        r += (uint64_t)(int64_t)(((__int128)x * y) >> 64);
        r += (uint64_t)(x / d);
        r += (uint64_t)(x % d);
        r += (uint64_t)(x < y ? x : y) - (uint64_t)(x > y ? x : y);
        r += x < 0 ? 0 - ux : ux;
        EQ_I("int_arith_64.s", i, so[i], r);
        uint64_t uy = uy0 | 1u;
        uint64_t ur =
            ux / uy + ux % uy + (uint64_t)(((unsigned __int128)ux * uy) >> 64);
        ur += (ux < uy ? ux : uy) ^ (ux > uy ? ux : uy);
        ur += ux >> (uy & 63);
        EQ_I("int_arith_64.u", i, uo[i], ur);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_int_arith_wide)
{
    open_ptx("int_arith");
    rng_seed(14);
    static int32_t a[NN], b[NN];
    static int64_t ws[NN];
    static uint64_t wu[NN];
    static int16_t s16[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = (int32_t)rnd();
        b[i] = (int32_t)rnd();
        if (i % 10 == 0)
            b[i] = -1, a[i] = (int32_t)0xffff8000u;
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dws = dbuf(NULL, sizeof(ws)), dwu = dbuf(NULL, sizeof(wu)),
                  ds = dbuf(NULL, sizeof(s16));
    int n = NN;
    void *pp[] = {&da, &db, &dws, &dwu, &ds, &n};
    launch("int_arith_wide", NB, BS, 0, pp);
    dget(ws, dws, sizeof(ws));
    dget(wu, dwu, sizeof(wu));
    dget(s16, ds, sizeof(s16));
    for (int i = 0; i < NN; i++) {
        int32_t x = a[i], y = b[i];
        EQ_I("wide_s", i, ws[i], (int64_t)x * y + x);
        EQ_I("wide_u", i, wu[i], (uint64_t)(uint32_t)x * (uint32_t)y);
        int16_t sx = (int16_t)x, sy = (int16_t)y;
        int q = sx / (int16_t)(sy | 1);
        int16_t e = (int16_t)(uint16_t)((uint32_t)(sx * sy) +
                                        (uint32_t)(int16_t)(uint16_t)q);
        EQ_I("s16", i, (uint16_t)s16[i], (uint16_t)e);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_int_div_const)
{
    open_ptx("int_arith");
    rng_seed(15);
    static int32_t a[NN], out[NN];
    static uint32_t uo[NN];
    for (int i = 0; i < NN; i++)
        a[i] = (i & 1) ? (int32_t)rnd() : (int32_t)(rnd() % 2001) - 1000;
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out)),
                  duo = dbuf(NULL, sizeof(uo));
    int n = NN;
    void *pp[] = {&da, &dout, &duo, &n};
    launch("int_div_const", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    dget(uo, duo, sizeof(uo));
    for (int i = 0; i < NN; i++) {
        int32_t x = a[i];
        uint32_t u = (uint32_t)x;
        EQ_I("div_const", i, (uint32_t)out[i],
             (uint32_t)(x / 7) + (uint32_t)(x % 13) + (uint32_t)(x / 16) +
                 (uint32_t)(x % 32));
        EQ_I("div_const.u", i, uo[i], u / 10u + u % 1000u + u / 64u);
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ int_bits */

static int clz64(uint64_t x)
{
    return x ? __builtin_clzll(x) : 64;
}

static uint64_t brev64(uint64_t x)
{
    uint64_t r = 0;
    for (int k = 0; k < 64; k++)
        r |= ((x >> k) & 1) << (63 - k);
    return r;
}

START_TEST(e2e_int_bits64)
{
    open_ptx("int_bits");
    rng_seed(21);
    static uint64_t a[NN], b[NN], out[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = rnd64() >> (rnd() % 64);
        b[i] = (i % 13 == 0) ? 0 : rnd64() << (rnd() % 64);
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dout, &n};
    launch("int_bits64", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        uint64_t x = a[i], y = b[i], r = 0;
        r += (uint64_t)__builtin_popcountll(x);
        r += (uint64_t)clz64(x);
        r += brev64(x);
        r += (uint64_t)(y ? __builtin_ctzll(y) + 1 : 0);
        r += (x >> 17) & 0xfffffull;
        r += (uint64_t)(63 - clz64(y | 1));
        r += (x << (y & 63)) | (x >> ((64 - y) & 63));
        EQ_I("int_bits64", i, out[i], r);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_int_bits_asm)
{
    open_ptx("int_bits");
    rng_seed(22);
    static uint32_t a[NN], out[NN];
    static int32_t b[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = (i % 17 == 0) ? 0 : rnd() >> (rnd() % 32);
        b[i] = (i % 19 == 0)   ? 0
               : (i % 23 == 0) ? -1
                               : (int32_t)rnd() >> (rnd() % 32);
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dout, &n};
    launch("int_bits_asm", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        uint32_t x = a[i];
        int32_t s = b[i];
        uint32_t e = (x >> 4) & 0xfffu;
        unsigned pos = (unsigned)(s & 15);
        uint32_t h = (x >> pos) & 0x1ffu;
        if (h & 0x100u)
            h |= 0xfffffe00u;
        uint32_t f = (x & ~0xff00u) | ((e & 0xffu) << 8);
        uint32_t g = x ? 31u - (uint32_t)__builtin_clz(x) : 0xffffffffu;
        uint32_t k;
        uint32_t t = s < 0 ? ~(uint32_t)s : (uint32_t)s;
        if (t == 0)
            k = 0xffffffffu;
        else
            k = (uint32_t)__builtin_clz(t); /* 31 - position */
        EQ_I("int_bits_asm", i, out[i], e + f + g + h + k);
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ atomics */

START_TEST(e2e_atomics_int)
{
    open_ptx("atomics_global");
    rng_seed(31);
    static int32_t v[NN], old[NN];
    int32_t ctr[12] = {5, 7, 0, INT32_MAX, INT32_MIN, -1,
                       0, 0, 0, 0,         INT32_MAX, 0};
    int32_t c0[12];
    memcpy(c0, ctr, sizeof(ctr));
    for (int i = 0; i < NN; i++)
        v[i] = (int32_t)rnd();
    ptxemu_devptr dc = dbuf(ctr, sizeof(ctr)), dv = dbuf(v, sizeof(v)),
                  dold = dbuf(NULL, sizeof(old));
    int n = NN;
    void *pp[] = {&dc, &dv, &dold, &n};
    launch("atomics_int", NB, BS, 0, pp);
    dget(ctr, dc, sizeof(ctr));
    uint32_t add = (uint32_t)c0[0], sub = (uint32_t)c0[1], an = ~0u, orr = 0,
             xr = 0, bits = 0;
    int32_t mn = INT32_MAX, mx = INT32_MIN;
    for (int i = 0; i < NN; i++) {
        add += (uint32_t)v[i];
        sub -= (uint32_t)v[i];
        mn = v[i] < mn ? v[i] : mn;
        mx = v[i] > mx ? v[i] : mx;
        an &= (uint32_t)v[i];
        orr |= (uint32_t)v[i];
        xr ^= (uint32_t)v[i];
        bits |= 1u << (i & 31);
    }
    EQ_I("ctr", 0, (uint32_t)ctr[0], add);
    EQ_I("ctr", 1, (uint32_t)ctr[1], sub);
    EQ_I("ctr", 3, ctr[3], mn);
    EQ_I("ctr", 4, ctr[4], mx);
    EQ_I("ctr", 5, (uint32_t)ctr[5], an);
    EQ_I("ctr", 6, (uint32_t)ctr[6], orr);
    EQ_I("ctr", 7, (uint32_t)ctr[7], xr);
    EQ_I("ctr", 9, ctr[9], NN);
    EQ_I("ctr", 10, ctr[10], mn);
    EQ_I("ctr", 11, (uint32_t)ctr[11], bits);
    /* ctr[2] (exch) and ctr[8] (cas) hold some thread's value. */
    int found2 = 0;
    for (int i = 0; i < NN; i++)
        found2 |= ctr[2] == v[i];
    ck_assert(found2);
    close_ptx();
}
END_TEST

START_TEST(e2e_atomics_uint)
{
    open_ptx("atomics_global");
    rng_seed(32);
    static uint32_t v[NN], old[NN];
    uint32_t ctr[14] = {0, 0, 0, ~0u, 0, 3, 3, ~0u, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < NN; i++)
        v[i] = rnd() >> (rnd() % 8);
    ptxemu_devptr dc = dbuf(ctr, sizeof(ctr)), dv = dbuf(v, sizeof(v)),
                  dold = dbuf(NULL, sizeof(old));
    int n = NN;
    void *pp[] = {&dc, &dv, &dold, &n};
    launch("atomics_uint", NB, BS, 0, pp);
    dget(ctr, dc, sizeof(ctr));
    uint32_t add = 0, mn = ~0u, mx = 0, an = ~0u, orr = 0, xr = 0;
    uint32_t inc17 = 3, dec23 = 3, inc100 = 0, dec100 = 0;
    for (int i = 0; i < NN; i++) {
        add += v[i];
        mn = v[i] < mn ? v[i] : mn;
        mx = v[i] > mx ? v[i] : mx;
        an &= v[i];
        orr |= v[i];
        xr ^= v[i];
        inc17 = inc17 >= 17 ? 0 : inc17 + 1;
        dec23 = (dec23 == 0 || dec23 > 23) ? 23 : dec23 - 1;
        inc100 = inc100 >= 100 ? 0 : inc100 + 1;
        dec100 = (dec100 == 0 || dec100 > 100) ? 100 : dec100 - 1;
    }
    EQ_I("ctr", 0, ctr[0], add);
    EQ_I("ctr", 1, ctr[1], 0u - add);
    EQ_I("ctr", 3, ctr[3], mn);
    EQ_I("ctr", 4, ctr[4], mx);
    EQ_I("ctr", 5, ctr[5], inc17);
    EQ_I("ctr", 6, ctr[6], dec23);
    EQ_I("ctr", 7, ctr[7], an);
    EQ_I("ctr", 8, ctr[8], orr);
    EQ_I("ctr", 9, ctr[9], xr);
    EQ_I("ctr", 11, ctr[11], inc100);
    EQ_I("ctr", 12, ctr[12], dec100);
    EQ_I("ctr", 13, ctr[13], mx);
    close_ptx();
}
END_TEST

START_TEST(e2e_atomics_u64)
{
    open_ptx("atomics_global");
    rng_seed(33);
    static uint64_t v[NN], old[NN];
    uint64_t ctr[10] = {0, 0, ~0ull, 0, ~0ull, 0, 0, 0, 0, 0};
    int64_t sctr[3] = {INT64_MAX, INT64_MIN, -1};
    for (int i = 0; i < NN; i++)
        v[i] = rnd64() >> (rnd() % 16);
    ptxemu_devptr dc = dbuf(ctr, sizeof(ctr)), ds = dbuf(sctr, sizeof(sctr)),
                  dv = dbuf(v, sizeof(v)), dold = dbuf(NULL, sizeof(old));
    int n = NN;
    void *pp[] = {&dc, &ds, &dv, &dold, &n};
    launch("atomics_u64", NB, BS, 0, pp);
    dget(ctr, dc, sizeof(ctr));
    dget(sctr, ds, sizeof(sctr));
    uint64_t add = 0, mn = ~0ull, mx = 0, an = ~0ull, orr = 0, xr = 0;
    int64_t smn = INT64_MAX, smx = INT64_MIN;
    for (int i = 0; i < NN; i++) {
        add += v[i];
        mn = v[i] < mn ? v[i] : mn;
        mx = v[i] > mx ? v[i] : mx;
        an &= v[i];
        orr |= v[i];
        xr ^= v[i];
        smn = (int64_t)v[i] < smn ? (int64_t)v[i] : smn;
        smx = (int64_t)v[i] > smx ? (int64_t)v[i] : smx;
    }
    EQ_I("ctr", 0, ctr[0], add);
    EQ_I("ctr", 2, ctr[2], mn);
    EQ_I("ctr", 3, ctr[3], mx);
    EQ_I("ctr", 4, ctr[4], an);
    EQ_I("ctr", 5, ctr[5], orr);
    EQ_I("ctr", 6, ctr[6], xr);
    EQ_I("ctr", 8, ctr[8], NN);
    EQ_I("ctr", 9, ctr[9], xr);
    EQ_I("sctr", 0, sctr[0], smn);
    EQ_I("sctr", 1, sctr[1], smx);
    EQ_I("sctr", 2, sctr[2], an);
    close_ptx();
}
END_TEST

START_TEST(e2e_atomics_fp)
{
    open_ptx("atomics_global");
    rng_seed(34);
    /* Multiples of 1/4 in [-64, 64): every partial sum is exact, so the
     * order of the atomic adds does not matter. */
    static float v[NN], fold[NN];
    static double dold[NN];
    float fctr[3] = {0, 0, 0};
    double dctr[2] = {0, 0};
    for (int i = 0; i < NN; i++)
        v[i] = (float)((int)(rnd() % 512) - 256) * 0.25f;
    ptxemu_devptr df = dbuf(fctr, sizeof(fctr)), dd = dbuf(dctr, sizeof(dctr)),
                  dv = dbuf(v, sizeof(v)), dfo = dbuf(NULL, sizeof(fold)),
                  ddo = dbuf(NULL, sizeof(dold));
    int n = NN;
    void *pp[] = {&df, &dd, &dv, &dfo, &ddo, &n};
    launch("atomics_fp", NB, BS, 0, pp);
    dget(fctr, df, sizeof(fctr));
    dget(dctr, dd, sizeof(dctr));
    float s = 0, s2 = 0;
    double ds = 0, ds3 = 0;
    for (int i = 0; i < NN; i++) {
        s += v[i];
        s2 += v[i] * 2.0f;
        ds += v[i];
        ds3 += (double)v[i] * 3.0;
    }
    EQ_F("fctr", 0, fctr[0], s);
    EQ_F("fctr", 2, fctr[2], s2);
    EQ_D("dctr", 0, dctr[0], ds);
    EQ_D("dctr", 1, dctr[1], ds3);
    close_ptx();
}
END_TEST

START_TEST(e2e_atomics_cas_loop)
{
    open_ptx("atomics_global");
    rng_seed(35);
    static float v[NN];
    float mx = -1000.0f;
    uint64_t packed = 0;
    for (int i = 0; i < NN; i++)
        v[i] = rndf(-100.0f, 100.0f);
    ptxemu_devptr dm = dbuf(&mx, sizeof(mx)), dp = dbuf(&packed, 8),
                  dv = dbuf(v, sizeof(v));
    int n = NN;
    void *pp[] = {&dm, &dp, &dv, &n};
    launch("atomics_cas_loop", NB, BS, 0, pp);
    dget(&mx, dm, sizeof(mx));
    dget(&packed, dp, 8);
    float emx = -1000.0f;
    uint32_t sum = 0;
    for (int i = 0; i < NN; i++) {
        emx = v[i] > emx ? v[i] : emx;
        sum += (uint32_t)i;
    }
    EQ_F("maxv", 0, mx, emx);
    EQ_I("packed", 0, packed, ((uint64_t)NN << 32) | sum);
    close_ptx();
}
END_TEST

START_TEST(e2e_shared_histogram)
{
    open_ptx("atomics_shared");
    rng_seed(36);
    enum { N = 5000 };
    static uint8_t data[N];
    uint32_t hist[64], exp[64];
    memset(exp, 0, sizeof(exp));
    for (int i = 0; i < N; i++) {
        data[i] = (uint8_t)(rnd() % 7 == 0 ? 13 : rnd());
        exp[data[i] % 64]++;
    }
    ptxemu_devptr dd = dbuf(data, sizeof(data)), dh = dbuf(NULL, sizeof(hist));
    int n = N;
    void *pp[] = {&dd, &dh, &n};
    launch("shared_histogram", NB, BS, 0, pp);
    dget(hist, dh, sizeof(hist));
    for (int b = 0; b < 64; b++)
        EQ_I("hist", b, hist[b], exp[b]);
    close_ptx();
}
END_TEST

START_TEST(e2e_shared_atomic_mix)
{
    open_ptx("atomics_shared");
    rng_seed(37);
    static int32_t v[NN], out[NN + NB * 16];
    static float fout[NN + NB];
    static uint64_t uout[NN];
    double dout[NB];
    for (int i = 0; i < NN; i++)
        v[i] = (int32_t)(rnd() % 20001) - 10000;
    ptxemu_devptr dv = dbuf(v, sizeof(v)), dout_ = dbuf(NULL, sizeof(out)),
                  dfo = dbuf(NULL, sizeof(fout)),
                  duo = dbuf(NULL, sizeof(uout)),
                  ddo = dbuf(NULL, sizeof(dout));
    int n = NN;
    void *pp[] = {&dv, &dout_, &dfo, &duo, &ddo, &n};
    launch("shared_atomic_mix", NB, BS, 0, pp);
    dget(out, dout_, sizeof(out));
    dget(fout, dfo, sizeof(fout));
    dget(dout, ddo, sizeof(dout));
    for (unsigned blk = 0; blk < NB; blk++) {
        int32_t si[9] = {0, 0, 0, INT32_MAX, 0, 0, 0, 0, 0};
        float sf = 0;
        double sd = 0;
        for (unsigned t = 0; t < BS; t++) {
            unsigned i = blk * BS + t;
            int32_t x = i < NN ? v[i] : 0;
            si[0] += x;
            si[1] -= x;
            si[3] = x < si[3] ? x : si[3];
            si[4] = x > si[4] ? x : si[4];
            si[5] &= x;
            si[6] |= x;
            si[7] ^= x;
            sf += (float)x;
            sd += x;
        }
        for (int k = 0; k < 8; k++)
            if (k != 2)
                EQ_I("si", blk * 16 + k, out[NN + blk * 16 + k], si[k]);
        EQ_F("sf", blk, fout[NN + blk], sf);
        EQ_D("sd", blk, dout[blk], sd);
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ warps */

/* Warp kernels use whole warps (shuffles with a full mask name every lane):
 * 3 CTAs of 96 threads, n leaves the last warp partly idle (v = 0). */
#define WB 96u
#define WN 270

/* CUDA's __shfl*_sync(..., width) source lane for lane l, or -1 for "own". */
static int shfl_src(int mode, int l, int b, int width)
{
    int base = l & ~(width - 1);
    switch (mode) {
    case 0: return base + (b & (width - 1));
    case 1: return (l - base) < b ? l : l - b;               /* up */
    case 2: return (l - base) + b >= width ? l : l + b;      /* down */
    default: return ((l ^ b) >= base + width) ? l : (l ^ b); /* xor */
    }
}

START_TEST(e2e_warp_shuffle_basic)
{
    open_ptx("warp_shuffle");
    rng_seed(41);
    static int32_t a[WN], out[WN];
    for (int i = 0; i < WN; i++)
        a[i] = (int32_t)(rnd() % 100000);
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out));
    int n = WN;
    void *pp[] = {&da, &dout, &n};
    launch("warp_shuffle_basic", NB, WB, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < WN; i++) {
        int l = i & 31, w0 = i - l;
#define V(src) ((w0 + (src)) < WN ? a[w0 + (src)] : 0)
        int32_t r = V(shfl_src(0, l, 0, 32));
        r += V(shfl_src(0, l, (l + 5) & 31, 32));
        r += V(shfl_src(1, l, 1, 32));
        r += V(shfl_src(2, l, 2, 32));
        r += V(shfl_src(3, l, 16, 32));
        r += V(shfl_src(0, l, l ^ 1, 8));
        r += V(shfl_src(1, l, 3, 16));
        r += V(shfl_src(2, l, 1, 4));
#undef V
        EQ_I("warp_shuffle_basic", i, (uint32_t)out[i], (uint32_t)r);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_warp_shuffle_types)
{
    open_ptx("warp_shuffle");
    rng_seed(42);
    static float a[WN], fo[WN];
    static double b[WN], dout[WN];
    static int64_t c[WN], lo[WN];
    for (int i = 0; i < WN; i++) {
        a[i] = rndf(-10.0f, 10.0f);
        b[i] = (double)rndf(-1.0f, 1.0f) / 3.0;
        c[i] = (int64_t)rnd64() >> 8;
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dc = dbuf(c, sizeof(c)), dfo = dbuf(NULL, sizeof(fo)),
                  ddo = dbuf(NULL, sizeof(dout)), dlo = dbuf(NULL, sizeof(lo));
    int n = WN;
    void *pp[] = {&da, &db, &dc, &dfo, &ddo, &dlo, &n};
    launch("warp_shuffle_types", NB, WB, 0, pp);
    dget(fo, dfo, sizeof(fo));
    dget(dout, ddo, sizeof(dout));
    dget(lo, dlo, sizeof(lo));
    for (int w0 = 0; w0 < WN; w0 += 32) {
        float f[32], nf[32];
        double d[32], nd[32];
        uint64_t l[32], nl[32];
        for (int k = 0; k < 32; k++) {
            int i = w0 + k;
            f[k] = i < WN ? a[i] : 0.0f;
            d[k] = i < WN ? b[i] : 0.0;
            l[k] = i < WN ? (uint64_t)c[i] : 0;
        }
        for (int off = 16; off > 0; off >>= 1) {
            for (int k = 0; k < 32; k++) {
                nf[k] = f[k] + f[k ^ off];
                nd[k] = d[k] + d[k ^ off];
            }
            memcpy(f, nf, sizeof(f));
            memcpy(d, nd, sizeof(d));
        }
        for (int off = 1; off < 32; off <<= 1) {
            for (int k = 0; k < 32; k++)
                nl[k] = k >= off ? l[k] + l[k - off] : l[k];
            memcpy(l, nl, sizeof(l));
        }
        for (int k = 0; k < 32 && w0 + k < WN; k++) {
            EQ_F("fo", w0 + k, fo[w0 + k], f[k]);
            EQ_D("dout", w0 + k, dout[w0 + k], d[k]);
            EQ_I("lo", w0 + k, lo[w0 + k], l[k]);
        }
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_warp_shuffle_partial)
{
    open_ptx("warp_shuffle");
    rng_seed(43);
    static int32_t a[WN], out[WN];
    for (int i = 0; i < WN; i++)
        a[i] = (int32_t)(rnd() % 1000) - 500;
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out));
    int n = WN;
    void *pp[] = {&da, &dout, &n};
    /* Only full warps: the partial masks name lanes that must exist. */
    launch("warp_shuffle_partial", NB, WB, 0, pp);
    dget(out, dout, sizeof(out));
    for (int w0 = 0; w0 + 32 <= WN; w0 += 32) {
        int32_t v[32], nv[32];
        for (int k = 0; k < 32; k++)
            v[k] = a[w0 + k];
        for (int k = 0; k < 16; k++)
            nv[k] = v[k] + v[shfl_src(2, k, 8, 16)];
        for (int k = 0; k < 16; k++)
            v[k] = nv[k];
        for (int k = 0; k < 16; k++)
            nv[k] = v[k] + v[shfl_src(2, k, 4, 16)];
        for (int k = 0; k < 16; k++)
            EQ_I("partial.lo", w0 + k, (uint32_t)out[w0 + k], (uint32_t)nv[k]);
        for (int k = 16; k < 32; k++)
            EQ_I("partial.hi", w0 + k, (uint32_t)out[w0 + k],
                 (uint32_t)(v[k] * v[16]));
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_warp_shuffle_pred)
{
    open_ptx("warp_shuffle");
    rng_seed(44);
    static int32_t a[WN], out[WN];
    for (int i = 0; i < WN; i++)
        a[i] = (int32_t)rnd();
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out));
    int n = WN;
    void *pp[] = {&da, &dout, &n};
    launch("warp_shuffle_pred", NB, WB, 0, pp);
    dget(out, dout, sizeof(out));
    /* shfl.sync.up.b32 d|p, a, 4, 0 (c = 0: clamp 0, segment mask 0). */
    for (int i = 0; i < WN; i++) {
        int l = i & 31;
        int32_t e = l >= 4 ? a[i - 4] : -1;
        EQ_I("shuffle_pred", i, (uint32_t)out[i], (uint32_t)e);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_warp_vote)
{
    open_ptx("warp_vote");
    rng_seed(45);
    static int32_t a[WN], flags[WN];
    static uint32_t ballots[WN];
    for (int i = 0; i < WN; i++) {
        a[i] = (int32_t)(rnd() % 7) - 2;
        if (i >= 32 && i < 64)
            a[i] = 2 * (int32_t)(rnd() % 5) + 1; /* all odd, non-zero */
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(NULL, sizeof(ballots)),
                  df = dbuf(NULL, sizeof(flags));
    int n = WN;
    void *pp[] = {&da, &db, &df, &n};
    launch("warp_vote", NB, WB, 0, pp);
    dget(ballots, db, sizeof(ballots));
    dget(flags, df, sizeof(flags));
    for (int w0 = 0; w0 < WN; w0 += 32) {
        uint32_t bal = 0;
        int all = 1, any = 0, odd = 0, even = 0;
        for (int k = 0; k < 32; k++) {
            int v = w0 + k < WN ? a[w0 + k] : 0;
            bal |= (uint32_t)(v > 0) << k;
            all &= v != 0;
            any |= v < 0;
            odd |= v & 1;
            even |= !(v & 1);
        }
        int uni = !(odd && even);
        for (int k = 0; k < 32 && w0 + k < WN; k++) {
            int rank = __builtin_popcount(bal & ((1u << k) - 1));
            EQ_I("ballot", w0 + k, ballots[w0 + k], bal);
            EQ_I("flags", w0 + k, (uint32_t)flags[w0 + k],
                 (uint32_t)(all | (any << 1) | (uni << 2) | (rank << 8)));
        }
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_warp_match)
{
    open_ptx("warp_vote");
    rng_seed(46);
    static int32_t a[WN];
    static int64_t b[WN];
    static uint32_t out[WN];
    for (int i = 0; i < WN; i++) {
        a[i] = (int32_t)(rnd() % 5);
        b[i] = (int64_t)((uint64_t)(rnd() % 3) << 60 | (rnd() % 3));
        if (i >= 32 && i < 64)
            a[i] = 4 * (int32_t)(rnd() % 3) + 2,
            b[i] = (int64_t)(1ull << 60) + (rnd() % 2);
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dout = dbuf(NULL, sizeof(out));
    int n = WN;
    void *pp[] = {&da, &db, &dout, &n};
    launch("warp_match", NB, WB, 0, pp);
    dget(out, dout, sizeof(out));
    for (int w0 = 0; w0 < WN; w0 += 32) {
        int32_t v[32];
        int64_t w[32];
        for (int k = 0; k < 32; k++) {
            v[k] = w0 + k < WN ? a[w0 + k] : -1;
            w[k] = w0 + k < WN ? b[w0 + k] : -1;
        }
        int p32 = 1, p64 = 1;
        for (int k = 1; k < 32; k++) {
            p32 &= (v[k] & 3) == (v[0] & 3);
            p64 &= (w[k] >> 60) == (w[0] >> 60);
        }
        uint32_t all32 = p32 ? ~0u : 0, all64 = p64 ? ~0u : 0;
        for (int k = 0; k < 32 && w0 + k < WN; k++) {
            uint32_t any32 = 0, any64 = 0;
            for (int j = 0; j < 32; j++) {
                any32 |= (uint32_t)(v[j] == v[k]) << j;
                any64 |= (uint32_t)(w[j] == w[k]) << j;
            }
            uint32_t leader = (uint32_t)((__builtin_ffs((int)any32) - 1) == k);
            uint32_t e = any32 ^ (any64 << 1) ^ all32 ^ all64 ^
                         ((uint32_t)p32 << 30) ^ ((uint32_t)p64 << 31) ^ leader;
            EQ_I("warp_match", w0 + k, out[w0 + k], e);
        }
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_warp_redux)
{
    open_ptx("warp_reduce");
    rng_seed(47);
    static int32_t a[WN], si[2 * WN];
    static uint32_t b[WN], ui[6 * WN];
    for (int i = 0; i < WN; i++) {
        a[i] = (int32_t)rnd();
        b[i] = rnd() | (rnd() & 0x80000001u);
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dsi = dbuf(NULL, sizeof(si)), dui = dbuf(NULL, sizeof(ui));
    int n = WN;
    void *pp[] = {&da, &db, &dsi, &dui, &n};
    launch("warp_redux", NB, WB, 0, pp);
    dget(si, dsi, sizeof(si));
    dget(ui, dui, sizeof(ui));
    for (int w0 = 0; w0 < WN; w0 += 32) {
        int32_t mn = INT32_MAX, mx = INT32_MIN;
        uint32_t add = 0, umn = ~0u, umx = 0, an = ~0u, orr = 0, xr = 0;
        for (int k = 0; k < 32; k++) {
            int32_t v = w0 + k < WN ? a[w0 + k] : 0;
            uint32_t u = w0 + k < WN ? b[w0 + k] : 0;
            mn = v < mn ? v : mn;
            mx = v > mx ? v : mx;
            add += u;
            umn = u < umn ? u : umn;
            umx = u > umx ? u : umx;
            an &= u;
            orr |= u;
            xr ^= u;
        }
        uint32_t e[6] = {add, umn, umx, an, orr, xr};
        for (int k = 0; k < 32 && w0 + k < WN; k++) {
            int i = w0 + k;
            EQ_I("smin", i, si[2 * i], mn);
            EQ_I("smax", i, si[2 * i + 1], mx);
            for (int j = 0; j < 6; j++)
                EQ_I("ui", 6 * i + j, ui[6 * i + j], e[j]);
        }
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_warp_redux_partial)
{
    open_ptx("warp_reduce");
    rng_seed(48);
    static uint32_t b[NN], out[NN];
    for (int i = 0; i < NN; i++)
        b[i] = rnd() >> 4;
    ptxemu_devptr db = dbuf(b, sizeof(b)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&db, &dout, &n};
    launch("warp_redux_partial", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        /* warps are 32 threads of one CTA */
        int cta = i / (int)BS, t = i % (int)BS, w0 = cta * (int)BS + (t & ~31);
        uint32_t s = 0;
        for (int k = 0; k < 32; k++) {
            int j = w0 + k;
            if ((t & ~31) + k < (int)BS && j < NN && (b[j] & 1))
                s += b[j];
        }
        EQ_I("redux_partial", i, out[i], (b[i] & 1) ? s : 0);
    }
    close_ptx();
}
END_TEST

static float shfl_down_reduce(float *v)
{
    float nv[32];
    for (int off = 16; off > 0; off /= 2) {
        for (int k = 0; k < 32; k++)
            nv[k] = v[k] + (k + off < 32 ? v[k + off] : v[k]);
        memcpy(v, nv, sizeof(nv));
    }
    return v[0];
}

START_TEST(e2e_block_sum)
{
    open_ptx("warp_reduce");
    rng_seed(49);
    enum { B = 128 };
    static float a[NN], out[NB];
    for (int i = 0; i < NN; i++)
        a[i] = rndf(-4.0f, 4.0f);
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &dout, &n};
    launch("block_sum", NB, B, 0, pp);
    dget(out, dout, sizeof(out));
    for (unsigned c = 0; c < NB; c++) {
        float part[32], v[32];
        for (int w = 0; w < B / 32; w++) {
            for (int k = 0; k < 32; k++) {
                int i = (int)c * B + w * 32 + k;
                v[k] = i < NN ? a[i] : 0.0f;
            }
            part[w] = shfl_down_reduce(v);
        }
        for (int k = 0; k < 32; k++)
            v[k] = k < B / 32 ? part[k] : 0.0f;
        EQ_F("block_sum", c, out[c], shfl_down_reduce(v));
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ shared */

START_TEST(e2e_transpose_tiled)
{
    open_ptx("shared_static");
    rng_seed(51);
    enum { W = 70, H = 45 };
    static float in[W * H], out[W * H];
    for (int i = 0; i < W * H; i++)
        in[i] = rndf(-1.0f, 1.0f);
    ptxemu_devptr di = dbuf(in, sizeof(in)), dout = dbuf(NULL, sizeof(out));
    int w = W, h = H;
    void *pp[] = {&di, &dout, &w, &h};
    launch3("transpose_tiled", (W + 31) / 32, (H + 31) / 32, 32, 8, 0, pp);
    dget(out, dout, sizeof(out));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            EQ_F("transpose", x * H + y, out[x * H + y], in[y * W + x]);
    close_ptx();
}
END_TEST

START_TEST(e2e_stencil_1d)
{
    open_ptx("shared_static");
    rng_seed(52);
    enum { B = 128, N = 3 * 128 - 17 };
    static int32_t in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = (int32_t)(rnd() % 2001) - 1000;
    ptxemu_devptr di = dbuf(in, sizeof(in)), dout = dbuf(NULL, sizeof(out));
    int n = N;
    void *pp[] = {&di, &dout, &n};
    launch("stencil_1d", 3, B, 0, pp);
    dget(out, dout, sizeof(out));
    for (int g = 0; g < N; g++) {
        int32_t r = 0;
        for (int k = -3; k <= 3; k++)
            if (g + k >= 0 && g + k < N)
                r += in[g + k];
        EQ_I("stencil", g, (uint32_t)out[g], (uint32_t)r);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_dyn_shared_scan)
{
    open_ptx("shared_dynamic");
    rng_seed(53);
    static int32_t in[NN], out[NN];
    for (int i = 0; i < NN; i++)
        in[i] = (int32_t)(rnd() % 201) - 100;
    ptxemu_devptr di = dbuf(in, sizeof(in)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&di, &dout, &n};
    launch("dyn_shared_scan", NB, BS, 2 * BS * 4, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        int32_t s = 0;
        for (int j = i - i % (int)BS; j < i; j++)
            s += in[j];
        EQ_I("scan", i, (uint32_t)out[i], (uint32_t)s);
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ local */

START_TEST(e2e_local_array)
{
    open_ptx("local_mem");
    rng_seed(61);
    static int32_t idx[NN], vals[NN], out[NN];
    for (int i = 0; i < NN; i++) {
        idx[i] = (int32_t)rnd();
        vals[i] = (int32_t)(rnd() % 20001) - 10000;
    }
    ptxemu_devptr di = dbuf(idx, sizeof(idx)), dv = dbuf(vals, sizeof(vals)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&di, &dv, &dout, &n};
    launch("local_array", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        int32_t arr[64], r = 0;
        for (int k = 0; k < 64; k++)
            arr[k] = vals[(i + k) % NN] * k;
        for (int k = 0; k < 16; k++) {
            int j = idx[(i * 16 + k) % NN] & 63;
            arr[j] += k;
            r += arr[(j * 7) & 63];
        }
        EQ_I("local_array", i, (uint32_t)out[i], (uint32_t)r);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_local_sort)
{
    open_ptx("local_mem");
    rng_seed(62);
    static float keys[NN], sorted[NN];
    static int32_t ids[NN];
    for (int i = 0; i < NN; i++)
        keys[i] = (float)(rnd() % 50); /* many ties */
    ptxemu_devptr dk = dbuf(keys, sizeof(keys)),
                  ds = dbuf(NULL, sizeof(sorted)), di = dbuf(NULL, sizeof(ids));
    int n = NN;
    void *pp[] = {&dk, &ds, &di, &n};
    launch("local_sort", NB, BS, 0, pp);
    dget(sorted, ds, sizeof(sorted));
    dget(ids, di, sizeof(ids));
    for (int i = 0; i < NN; i++) {
        float k[12];
        int id[12];
        for (int j = 0; j < 12; j++)
            k[j] = keys[(i * 12 + j) % NN], id[j] = j;
        for (int a = 0; a < 11; a++)
            for (int b = 0; b < 11 - a; b++)
                if (k[b] > k[b + 1]) {
                    float tk = k[b];
                    int ti = id[b];
                    k[b] = k[b + 1], id[b] = id[b + 1];
                    k[b + 1] = tk, id[b + 1] = ti;
                }
        EQ_F("sorted", i, sorted[i], k[6]);
        EQ_I("ids", i, ids[i], id[0] * 100 + id[11]);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_local_asm)
{
    open_ptx("local_mem");
    rng_seed(63);
    static int32_t a[NN], out[NN];
    for (int i = 0; i < NN; i++)
        a[i] = (int32_t)rnd();
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &dout, &n};
    launch("local_asm", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++)
        EQ_I("local_asm", i, (uint32_t)out[i], (uint32_t)a[i] * 2u);
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ const/global */

START_TEST(e2e_const_poly)
{
    open_ptx("const_mem");
    rng_seed(71);
    static float x[NN], y[NN];
    static const float c[8] = {1.0f,    -0.5f,     0.25f,     -0.125f,
                               0.0625f, -0.03125f, 0.015625f, -0.0078125f};
    for (int i = 0; i < NN; i++)
        x[i] = rndf(-3.0f, 3.0f);
    ptxemu_devptr dx = dbuf(x, sizeof(x)), dy = dbuf(NULL, sizeof(y));
    int n = NN;
    void *pp[] = {&dx, &dy, &n};
    launch("const_poly", NB, BS, 0, pp);
    dget(y, dy, sizeof(y));
    for (int i = 0; i < NN; i++) {
        float acc = 0.0f;
        for (int k = 7; k >= 0; k--)
            acc = fmaf(x[i], acc, c[k]);
        EQ_F("const_poly", i, y[i], fmaf(acc, 2.0f, -1.0f));
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_const_lut)
{
    open_ptx("const_mem");
    rng_seed(72);
    static uint8_t in[NN];
    static int32_t out[NN], lut[256];
    static double dout[NN];
    static const double dv[4] = {3.14159265358979, 2.718281828459045,
                                 1.4142135623730951, 0.5};
    static const int16_t sm[3] = {-1, 2, -3};
    for (int i = 0; i < 256; i++)
        lut[i] = (int32_t)rnd();
    for (int i = 0; i < NN; i++)
        in[i] = (uint8_t)rnd();
    ptxemu_devptr dl = 0;
    size_t sz = 0;
    ck_assert_int_eq(ptxemu_module_get_global(mod, "c_lut", &dl, &sz),
                     PTXEMU_SUCCESS);
    ck_assert_uint_eq(sz, sizeof(lut));
    ck_assert_int_eq(ptxemu_memcpy_htod(dev, dl, lut, sizeof(lut)),
                     PTXEMU_SUCCESS);
    ptxemu_devptr di = dbuf(in, sizeof(in)), dout_ = dbuf(NULL, sizeof(out)),
                  dd = dbuf(NULL, sizeof(dout));
    int n = NN;
    void *pp[] = {&di, &dout_, &dd, &n};
    launch("const_lut", NB, BS, 0, pp);
    dget(out, dout_, sizeof(out));
    dget(dout, dd, sizeof(dout));
    for (int i = 0; i < NN; i++) {
        uint32_t v = ((uint32_t)lut[in[i]] << 3) & 0xff00ff00u;
        v += (uint32_t)(int32_t)sm[i % 3];
        EQ_I("const_lut", i, (uint32_t)out[i], v);
        EQ_D("const_lut.d", i, dout[i], dv[i & 3] * (int32_t)v);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_globals_read)
{
    open_ptx("globals_init");
    static int32_t out[NN];
    static float fout[NN];
    static const int32_t table[10] = {1, 1, 2, 3, 5, 8, 13, 21, 34, 55};
    static const int32_t keys[3] = {7, 11, 13};
    static const float weight[3] = {0.5f, 1.25f, -2.0f};
    static const char first[3] = {'s', 'e', 't'};
    static const int16_t shorts[4] = {-1, 0, 1, 32767};
    static const int32_t ptrs[3] = {42, 1, 55};
    ptxemu_devptr dout = dbuf(NULL, sizeof(out)),
                  dfo = dbuf(NULL, sizeof(fout));
    int n = NN;
    void *pp[] = {&dout, &dfo, &n};
    launch("globals_read", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    dget(fout, dfo, sizeof(fout));
    for (int i = 0; i < NN; i++) {
        uint32_t r = (uint32_t)(42 + table[i % 10] + 3 + ptrs[i % 3] - 7);
        r += (uint32_t)("ptxemu"[i % 6] + shorts[i & 3]);
        r += (uint32_t)(keys[i % 3] + first[i % 3] + 11);
        r += (uint32_t)(0x0123456789abcdefull >> (i & 63));
        EQ_I("globals_read", i, (uint32_t)out[i], r);
        float f = fmaf(weight[i % 3], 1.5f, (float)3.141592653589793) + 0.0f;
        EQ_F("globals_read.f", i, fout[i], f);
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ recursion */

static uint64_t h_fact(unsigned k)
{
    return k <= 1 ? 1 : k * h_fact(k - 1);
}

static int h_fib(int k)
{
    return k < 2 ? k : h_fib(k - 1) + h_fib(k - 2);
}

START_TEST(e2e_recursion)
{
    open_ptx("recursion");
    rng_seed(81);
    static int32_t in[NN], fibs[NN], par[NN];
    static uint64_t fact[NN];
    for (int i = 0; i < NN; i++)
        in[i] = (int32_t)rnd();
    ptxemu_devptr di = dbuf(in, sizeof(in)), df = dbuf(NULL, sizeof(fact)),
                  dfi = dbuf(NULL, sizeof(fibs)), dp = dbuf(NULL, sizeof(par));
    int n = NN;
    void *pp[] = {&di, &df, &dfi, &dp, &n};
    launch("recursion_kernel", NB, BS, 0, pp);
    dget(fact, df, sizeof(fact));
    dget(fibs, dfi, sizeof(fibs));
    dget(par, dp, sizeof(par));
    for (int i = 0; i < NN; i++) {
        int v = in[i] & 15;
        EQ_I("fact", i, fact[i], h_fact((unsigned)v));
        EQ_I("fib", i, fibs[i], h_fib(v));
        EQ_I("parity", i, par[i], (v & 1) ? 1 : 2);
    }
    close_ptx();
}
END_TEST

typedef struct {
    int32_t value, left, right;
} node;

static int h_tree(const node *nd, int idx, int depth, int *md)
{
    if (idx < 0)
        return 0;
    if (depth > *md)
        *md = depth;
    return nd[idx].value + h_tree(nd, nd[idx].left, depth + 1, md) +
           h_tree(nd, nd[idx].right, depth + 1, md);
}

START_TEST(e2e_tree)
{
    open_ptx("recursion");
    rng_seed(82);
    enum { NODES = 64 };
    static node nodes[NODES];
    static int32_t roots[NN], sums[NN], depths[NN];
    for (int j = 0; j < NODES; j++) {
        nodes[j].value = (int32_t)(rnd() % 100);
        nodes[j].left =
            (j + 1 < NODES && rnd() % 3) ? j + 1 + (int)(rnd() % 5) : -1;
        nodes[j].right =
            (j + 2 < NODES && rnd() % 2) ? j + 2 + (int)(rnd() % 9) : -1;
        if (nodes[j].left >= NODES)
            nodes[j].left = -1;
        if (nodes[j].right >= NODES)
            nodes[j].right = -1;
    }
    for (int i = 0; i < NN; i++)
        roots[i] = (i % 11 == 0) ? -1 : (int32_t)(rnd() % NODES);
    ptxemu_devptr dn = dbuf(nodes, sizeof(nodes)),
                  dr = dbuf(roots, sizeof(roots)),
                  ds = dbuf(NULL, sizeof(sums)),
                  dd = dbuf(NULL, sizeof(depths));
    int n = NN;
    void *pp[] = {&dn, &dr, &ds, &dd, &n};
    launch("tree_kernel", NB, BS, 0, pp);
    dget(sums, ds, sizeof(sums));
    dget(depths, dd, sizeof(depths));
    for (int i = 0; i < NN; i++) {
        int md = 0;
        int s = h_tree(nodes, roots[i], 0, &md);
        EQ_I("tree.sum", i, sums[i], s);
        EQ_I("tree.depth", i, depths[i], md);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_inversions)
{
    open_ptx("recursion");
    rng_seed(83);
    static int32_t in[NN], out[NN];
    for (int i = 0; i < NN; i++)
        in[i] = (int32_t)(rnd() % 10);
    ptxemu_devptr di = dbuf(in, sizeof(in)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&di, &dout, &n};
    launch("inversions_kernel", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        int a[8], c = 0;
        for (int k = 0; k < 8; k++)
            a[k] = in[(i + k * 3) % NN];
        for (int x = 0; x < 8; x++)
            for (int y = x + 1; y < 8; y++)
                c += a[x] > a[y];
        EQ_I("inversions", i, out[i], c);
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ control flow */

START_TEST(e2e_divergent_branches)
{
    open_ptx("control_flow");
    rng_seed(91);
    static int32_t a[NN], out[NN];
    for (int i = 0; i < NN; i++)
        a[i] = (i % 4 == 0) ? (int32_t)(rnd() % 21) - 10
                            : (int32_t)(rnd() % 2001) - 1000;
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &dout, &n};
    launch("divergent_branches", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        int v = a[i], r, tid = i % (int)BS;
        if (v < 0)
            r = -v * 3;
        else if (v == 0)
            r = 100;
        else if (v < 10)
            r = v * v + ((tid & 1) ? 7 : -7);
        else
            r = v / 3;
        if ((v > 5 && i % 3 == 0) || (v < -5 && i % 5 == 0))
            r ^= 0x5a5a;
        EQ_I("divergent", i, out[i], r);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_loops_break_continue)
{
    open_ptx("control_flow");
    rng_seed(92);
    static int32_t a[NN], out[NN];
    for (int i = 0; i < NN; i++)
        a[i] = (rnd() % 29 == 0)  ? -1
               : (rnd() % 4 == 0) ? 0
                                  : (int32_t)(rnd() % 60);
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out));
    int n = NN, limit = 500;
    void *pp[] = {&da, &dout, &n, &limit};
    launch("loops_break_continue", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        int sum = 0;
        for (int k = 0; k < NN; k++) {
            int v = a[(i + k) % NN];
            if (v == 0)
                continue;
            if (v < 0)
                break;
            sum += v;
            if (sum > limit)
                break;
        }
        int steps = 0;
        uint32_t x = (uint32_t)a[i] | 1u;
        while (x != 1 && steps < 1000) {
            x = (x & 1) ? 3 * x + 1 : x >> 1;
            steps++;
        }
        int d = 0;
        do
            d += 2;
        while (d < (a[i] & 15));
        EQ_I("loops", i, out[i], sum + steps * 1000 + d);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_nested_loops)
{
    open_ptx("control_flow");
    rng_seed(93);
    enum { R = 250, C = 9 };
    static float m[R * C], out[R];
    for (int i = 0; i < R * C; i++)
        m[i] = (rnd() % 37 == 0) ? NAN : rndf(-2.0f, 2.0f);
    ptxemu_devptr dm = dbuf(m, sizeof(m)), dout = dbuf(NULL, sizeof(out));
    int rows = R, cols = C;
    void *pp[] = {&dm, &dout, &rows, &cols};
    launch("nested_loops", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int r = 0; r < R; r++) {
        float best = -1e30f;
        int bestc = -1;
        for (int c = 0; c < C; c++) {
            float acc = 0.0f;
            int nan = 0;
            for (int k = 0; k <= c && !nan; k++) {
                float v = m[r * C + k];
                if (v != v)
                    nan = 1;
                else
                    acc = fmaf(v, (float)(c - k + 1), acc);
            }
            if (!nan && acc > best)
                best = acc, bestc = c;
        }
        EQ_F("nested_loops", r, out[r], best + (float)bestc);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_goto_state_machine)
{
    open_ptx("control_flow");
    rng_seed(94);
    enum { L = 400 };
    static uint8_t text[L];
    static int32_t counts[2 * NN];
    static const char alpha[] = "ab 0123  xyz 9 q";
    for (int i = 0; i < L; i++)
        text[i] = (uint8_t)alpha[rnd() % (sizeof(alpha) - 1)];
    ptxemu_devptr dt = dbuf(text, sizeof(text)),
                  dc = dbuf(NULL, sizeof(counts));
    int len = L, n = NN;
    void *pp[] = {&dt, &len, &dc, &n};
    launch("goto_state_machine", NB, BS, 0, pp);
    dget(counts, dc, sizeof(counts));
    for (int i = 0; i < NN; i++) {
        int pos = i, words = 0, digits = 0;
        while (pos < L) {
            uint8_t ch = text[pos++];
            if (ch >= '0' && ch <= '9') {
                digits++;
                while (pos < L && text[pos] >= '0' && text[pos] <= '9')
                    pos++, digits++;
            } else if (ch != ' ') {
                words++;
                while (pos < L && text[pos] != ' ')
                    pos++;
            }
        }
        EQ_I("words", i, counts[2 * i], words);
        EQ_I("digits", i, counts[2 * i + 1], digits);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_selects)
{
    open_ptx("control_flow");
    rng_seed(95);
    static float a[NN], b[NN], out[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = rndf(-5.0f, 5.0f);
        b[i] = (i % 9 == 0) ? a[i] : rndf(-5.0f, 5.0f);
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dout = dbuf(NULL, sizeof(out));
    for (int mode = 0; mode < 5; mode += 2) {
        int n = NN, md = mode == 2 ? 1 : mode;
        void *pp[] = {&da, &db, &dout, &n, &md};
        launch("selects", NB, BS, 0, pp);
        dget(out, dout, sizeof(out));
        for (int i = 0; i < NN; i++) {
            float x = a[i], y = b[i];
            float r = x > y ? x - y : y - x;
            r = md == 1 ? r * 2.0f : r;
            r = (x < 0.0f) != (y < 0.0f) ? -r : r;
            int p = (x == y) ^ (md > 3);
            EQ_F("selects", i, out[i], p ? 0.0f : r);
        }
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ switch */

static int32_t h_dense_switch(int op, int32_t a, int32_t b)
{
    uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
    switch (op) {
    case 0: return (int32_t)(ua + ub);
    case 1: return (int32_t)(ua - ub);
    case 2: return (int32_t)(ua * ub);
    case 3: return b ? (a == INT32_MIN && b == -1 ? INT32_MIN : a / b) : 0;
    case 4: return b ? (a == INT32_MIN && b == -1 ? 0 : a % b) : 0;
    case 5: return a & b;
    case 6: return a | b;
    case 7: return a ^ b;
    case 8: return (int32_t)(ua << (b & 31));
    case 9: return a >> (b & 31);
    case 10: return (int32_t)(ua >> (b & 31));
    case 11: return a < b ? a : b;
    case 12: return a > b ? a : b;
    case 13: return a == b;
    case 14: return ~a;
    case 15: return (int32_t)(0u - ub);
    case 16: return (int32_t)(ua * ua + ub);
    case 17: return (int32_t)((uint32_t)__builtin_popcount(ua) + ub);
    case 18: return (int32_t)((uint32_t)(a ? __builtin_clz(ua) : 32) - ub);
    case 19: return (int32_t)(ua + ub) >> 1;
    default: return 0x7fffffff;
    }
}

START_TEST(e2e_interpreter)
{
    open_ptx("switch_table");
    rng_seed(101);
    enum { CL = 60 };
    static uint8_t code[CL];
    static int32_t in[NN], out[NN];
    int depth = 1, len = 0;
    while (len < CL - 1) {
        if (depth < 2 || (depth < 12 && rnd() % 3 == 0)) {
            code[len++] = (uint8_t)(31 | ((rnd() % 8) << 5));
            depth++;
        } else {
            code[len++] = (uint8_t)(rnd() % 30);
            depth--;
        }
    }
    code[len++] = 30;
    for (int i = 0; i < NN; i++)
        in[i] = (int32_t)rnd() >> (rnd() % 28);
    ptxemu_devptr dc = dbuf(code, sizeof(code)), di = dbuf(in, sizeof(in)),
                  dout = dbuf(NULL, sizeof(out));
    int cl = len, n = NN;
    void *pp[] = {&dc, &cl, &di, &dout, &n};
    launch("interpreter", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        int32_t st[16];
        int sp = 0;
        st[sp++] = in[i];
        for (int pc = 0; pc < len; pc++) {
            int op = code[pc] & 31;
            if (op == 31) {
                st[sp++ & 15] = code[pc] >> 5;
                continue;
            }
            if (op == 30)
                break;
            int32_t b = st[--sp & 15];
            int32_t a = sp > 0 ? st[--sp & 15] : 0;
            st[sp++ & 15] = h_dense_switch(op, a, b);
        }
        EQ_I("interpreter", i, (uint32_t)out[i], (uint32_t)st[(sp - 1) & 15]);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_switch_direct)
{
    open_ptx("switch_table");
    rng_seed(102);
    static int32_t ops[NN], a[NN], b[NN], out[NN];
    static const int32_t special[4] = {-1000, 7, 4096, 123456};
    for (int i = 0; i < NN; i++) {
        ops[i] = (int32_t)(rnd() % 21) - 1;
        a[i] =
            (i % 5 == 0) ? special[rnd() % 4] : (int32_t)rnd() >> (rnd() % 31);
        b[i] = (int32_t)rnd() >> (rnd() % 31);
    }
    ptxemu_devptr dops = dbuf(ops, sizeof(ops)), da = dbuf(a, sizeof(a)),
                  db = dbuf(b, sizeof(b)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&dops, &da, &db, &dout, &n};
    launch("switch_direct", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        int32_t x = a[i], y = b[i];
        uint32_t ux = (uint32_t)x, uy = (uint32_t)y, r;
        switch (ops[i]) {
        case 0: r = ux + 1; break;
        case 1: r = uy * 3; break;
        case 2: r = ux - uy; break;
        case 3: r = ux * uy + 7; break;
        case 4: r = ux ^ 0x55; break;
        case 5: r = uy << 2; break;
        case 6: r = (uint32_t)(x >> 1); break;
        case 7: r = ux | uy; break;
        case 8: r = 0u - ux; break;
        case 9: r = ux & 0xff; break;
        case 10: r = (uint32_t)(y / 3); break;
        case 11: r = (uint32_t)(x % 5); break;
        case 12: r = ux + uy + 12; break;
        case 13: r = uy - 13; break;
        case 14: r = ux * 14; break;
        case 15: r = uy ^ ux ^ 15; break;
        case 16: r = ux + 16 * uy; break;
        case 17: r = 17; break;
        default: r = ~0u; break;
        }
        switch (x) {
        case -1000: r += 1; break;
        case 7: r += 2; break;
        case 4096: r += 3; break;
        case 123456: r += 4; break;
        }
        EQ_I("switch_direct", i, (uint32_t)out[i], r);
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ func_ptr */

START_TEST(e2e_indirect_unary)
{
    open_ptx("func_ptr");
    rng_seed(111);
    static float x[NN], out[NN];
    static int32_t sel[NN];
    for (int i = 0; i < NN; i++) {
        x[i] = rndf(-8.0f, 8.0f);
        sel[i] = (int32_t)(rnd() % 16);
    }
    ptxemu_devptr dx = dbuf(x, sizeof(x)), ds = dbuf(sel, sizeof(sel)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&dx, &ds, &dout, &n};
    launch("indirect_unary", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        float v = x[i];
        for (int s = 0; s < 2; s++) {
            switch ((sel[i] >> (2 * s)) & 3) {
            case 0: v = v * v; break;
            case 1: v = -v; break;
            case 2: v = 0.5f * v; break;
            default: v = 1.0f / v; break;
            }
        }
        EQ_F("indirect_unary", i, out[i], v);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_indirect_binary)
{
    open_ptx("func_ptr");
    rng_seed(112);
    static int32_t a[NN], b[NN], ops[NN], out[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = (int32_t)rnd();
        b[i] = (int32_t)rnd() >> (rnd() % 31);
        ops[i] = (int32_t)(rnd() % 256);
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dops = dbuf(ops, sizeof(ops)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dops, &dout, &n};
    launch("indirect_binary", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        int32_t acc = a[i];
        for (int k = 0; k < 4; k++) {
            int32_t y = b[(i + k) % NN];
            switch ((ops[i] >> (2 * k)) & 3) {
            case 0: acc = (int32_t)((uint32_t)acc + (uint32_t)y); break;
            case 1: acc = (int32_t)((uint32_t)acc - (uint32_t)y); break;
            case 2: acc = (int32_t)((uint32_t)acc * (uint32_t)y); break;
            default: acc = acc < y ? acc : y; break;
            }
        }
        EQ_I("indirect_binary", i, (uint32_t)out[i], (uint32_t)acc);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_virtual_dispatch)
{
    open_ptx("func_ptr");
    rng_seed(113);
    static float dims[2 * NN], area[NN];
    static int32_t kind[NN];
    for (int i = 0; i < NN; i++) {
        dims[2 * i] = rndf(0.0f, 10.0f);
        dims[2 * i + 1] = rndf(0.0f, 10.0f);
        kind[i] = (int32_t)(rnd() % 1000);
    }
    ptxemu_devptr dd = dbuf(dims, sizeof(dims)), dk = dbuf(kind, sizeof(kind)),
                  da = dbuf(NULL, sizeof(area));
    int n = NN;
    void *pp[] = {&dd, &dk, &da, &n};
    launch("virtual_dispatch", NB, BS, 0, pp);
    dget(area, da, sizeof(area));
    for (int i = 0; i < NN; i++) {
        float a = dims[2 * i], b = dims[2 * i + 1], e;
        switch (kind[i] % 3) {
        case 0: e = a * b; break;
        case 1: e = 0.5f * a * b; break;
        default: e = 3.14159265f * a * a; break;
        }
        EQ_F("virtual_dispatch", i, area[i], e);
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ int128 */

typedef unsigned __int128 u128;

/* u128_ops and s128_ops: the 128-bit division nvcc inlines ends
 * sub.cc/subc.cc chains with `addc.u32 r, 0, 0` to read the flag as the
 * hardware carry (NOT borrow); these found the emulator's former borrow
 * convention (emu/ops_int.c SUB_BODY). */
START_TEST(e2e_u128_ops)
{
    open_ptx("int128");
    rng_seed(121);
    static uint64_t a[2 * NN], b[2 * NN], out[2 * NN];
    for (int i = 0; i < 2 * NN; i++) {
        a[i] = rnd64();
        b[i] = (i % 3 == 1) ? 0 : rnd64() >> (rnd() % 64);
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dout, &n};
    launch("u128_ops", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        u128 x = ((u128)a[2 * i + 1] << 64) | a[2 * i];
        u128 y = ((u128)b[2 * i + 1] << 64) | b[2 * i];
        u128 acc = (x + y) ^ (x - y) ^ (x * y) ^ (x / (y | 1)) ^ (x % (y | 1)) ^
                   ((x << (b[2 * i] & 127)) ^ (y >> (a[2 * i] & 127)));
        EQ_I("u128.lo", i, out[2 * i], (uint64_t)acc);
        EQ_I("u128.hi", i, out[2 * i + 1], (uint64_t)(acc >> 64));
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_s128_ops)
{
    open_ptx("int128");
    rng_seed(122);
    static int64_t a[NN], b[NN], out[2 * NN];
    for (int i = 0; i < NN; i++) {
        a[i] = (int64_t)rnd64();
        b[i] = (int64_t)rnd64() >> (rnd() % 64);
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dout, &n};
    launch("s128_ops", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        __int128 x = (__int128)a[i] * b[i];
        __int128 y = x / 1000003 + (x >> 7);
        EQ_I("s128.lo", i, out[2 * i], (uint64_t)y);
        EQ_I("s128.hi", i, out[2 * i + 1], (uint64_t)((u128)y >> 64));
    }
    close_ptx();
}
END_TEST


START_TEST(e2e_add256_carry)
{
    open_ptx("int128");
    rng_seed(123);
    static uint32_t a[8 * NN], b[8 * NN], out[8 * NN];
    for (int i = 0; i < 8 * NN; i++) {
        a[i] = (rnd() % 3) ? rnd() : ~0u;
        b[i] = (rnd() % 3) ? rnd() : (rnd() & 1);
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dout, &n};
    launch("add256_carry", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        uint64_t c = 0;
        for (int k = 0; k < 8; k++) {
            uint64_t s = (uint64_t)a[8 * i + k] + b[8 * i + k] + c;
            EQ_I("add256", 8 * i + k, out[8 * i + k], (uint32_t)s);
            c = s >> 32;
        }
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_carry_chain64)
{
    open_ptx("int128");
    rng_seed(124);
    static uint64_t a[2 * NN], b[2 * NN], out[4 * NN];
    for (int i = 0; i < 2 * NN; i++) {
        a[i] = rnd64();
        b[i] = (i % 4 == 0) ? a[i] + (rnd() % 3) - 1 : rnd64();
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dout, &n};
    launch("carry_chain64", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        u128 x = ((u128)a[2 * i + 1] << 64) | a[2 * i];
        u128 y = ((u128)b[2 * i + 1] << 64) | b[2 * i];
        u128 d = x - y;
        EQ_I("sub.lo", i, out[4 * i], (uint64_t)d);
        EQ_I("sub.hi", i, out[4 * i + 1], (uint64_t)(d >> 64));
        /* x0 (64 bit) * y0 (low 32 bits): a 96-bit product */
        u128 m = (u128)a[2 * i] * (uint32_t)b[2 * i];
        EQ_I("mul.lo", i, out[4 * i + 2], (uint64_t)m);
        EQ_I("mul.hi", i, out[4 * i + 3], (uint64_t)(m >> 64));
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ barriers */

START_TEST(e2e_barrier_reductions)
{
    open_ptx("sync_count");
    rng_seed(131);
    static int32_t a[NN], out[NN];
    for (int i = 0; i < NN; i++)
        a[i] =
            (i < (int)BS) ? (int32_t)(rnd() % 5) + 1 : (int32_t)(rnd() % 7) - 3;
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &dout, &n};
    launch("barrier_reductions", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (unsigned c = 0; c < NB; c++) {
        int cnt = 0, all = 1, any = 0;
        for (unsigned t = 0; t < BS; t++) {
            unsigned i = c * BS + t;
            int v = i < NN ? a[i] : 0;
            cnt += v > 0;
            all &= v != 0;
            any |= v < 0;
        }
        for (unsigned t = 0; t < BS && c * BS + t < NN; t++)
            EQ_I("bar.red", c * BS + t, out[c * BS + t],
                 cnt * 4 + all * 2 + any);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_named_barriers)
{
    open_ptx("sync_count");
    rng_seed(132);
    enum { N = 100 };
    static int32_t a[N], out[N];
    for (int i = 0; i < N; i++)
        a[i] = (int32_t)(rnd() % 100000);
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out));
    int n = N;
    void *pp[] = {&da, &dout, &n};
    launch("named_barriers", 4, 64, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < N; i++) {
        int base = i - i % 32, j = base + 31 - i % 32;
        EQ_I("named_barriers", i, out[i], (j < N ? a[j] * 2 : 0) + 1);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_barrier_red_asm)
{
    open_ptx("sync_count");
    rng_seed(133);
    static int32_t a[NN], out[NN];
    for (int i = 0; i < NN; i++)
        a[i] = (int32_t)(rnd() % 30);
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &dout, &n};
    launch("barrier_red_asm", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        int c0 = i - i % (int)BS, cnt = 0;
        for (int j = c0; j < c0 + (int)BS && j < NN; j++)
            cnt += a[j] > 10;
        EQ_I("bar.red.popc", i, out[i], cnt);
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ vectors */

START_TEST(e2e_vec_float4)
{
    open_ptx("vector_mem");
    rng_seed(141);
    static float a[4 * NN], b[4 * NN], out[4 * NN];
    for (int i = 0; i < 4 * NN; i++) {
        a[i] = rndf(-10.0f, 10.0f);
        b[i] = rndf(0.0f, 10.0f);
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dout, &n};
    launch("vec_float4", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        const float *x = a + 4 * i, *y = b + 4 * i;
        float e[4] = {x[0] + y[3], x[1] * y[2], x[2] - y[1],
                      x[3] / (y[0] + 1.0f)};
        for (int k = 0; k < 4; k++)
            EQ_F("vec_float4", 4 * i + k, out[4 * i + k], e[k]);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_vec_int2_double2)
{
    open_ptx("vector_mem");
    rng_seed(142);
    static int32_t a[2 * NN], oi[2 * NN];
    static double b[2 * NN], od[2 * NN];
    for (int i = 0; i < 2 * NN; i++) {
        a[i] = (int32_t)rnd() >> 2;
        b[i] = (double)rndf(-1.0f, 1.0f) / 7.0;
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  doi = dbuf(NULL, sizeof(oi)), dod = dbuf(NULL, sizeof(od));
    int n = NN;
    void *pp[] = {&da, &db, &doi, &dod, &n};
    launch("vec_int2_double2", NB, BS, 0, pp);
    dget(oi, doi, sizeof(oi));
    dget(od, dod, sizeof(od));
    for (int i = 0; i < NN; i++) {
        int32_t x0 = a[2 * i], x1 = a[2 * i + 1];
        EQ_I("oi.x", i, oi[2 * i], x1);
        EQ_I("oi.y", i, (uint32_t)oi[2 * i + 1], (uint32_t)x0 + (uint32_t)x1);
        EQ_D("od.x", i, od[2 * i], b[2 * i] * x0);
        EQ_D("od.y", i, od[2 * i + 1], b[2 * i + 1] + x1);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_vec_small_types)
{
    open_ptx("vector_mem");
    rng_seed(143);
    static uint8_t a[4 * NN], oa[4 * NN];
    static int16_t b[2 * NN], ob[4 * NN];
    static int64_t c[2 * NN];
    static uint64_t oc[2 * NN];
    for (int i = 0; i < 4 * NN; i++)
        a[i] = (uint8_t)rnd();
    for (int i = 0; i < 2 * NN; i++) {
        b[i] = (int16_t)rnd();
        c[i] = (int64_t)rnd64();
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dc = dbuf(c, sizeof(c)), doa = dbuf(NULL, sizeof(oa)),
                  dob = dbuf(NULL, sizeof(ob)), doc = dbuf(NULL, sizeof(oc));
    int n = NN;
    void *pp[] = {&da, &db, &dc, &doa, &dob, &doc, &n};
    launch("vec_small_types", NB, BS, 0, pp);
    dget(oa, doa, sizeof(oa));
    dget(ob, dob, sizeof(ob));
    dget(oc, doc, sizeof(oc));
    for (int i = 0; i < NN; i++) {
        const uint8_t *x = a + 4 * i;
        int16_t y0 = b[2 * i], y1 = b[2 * i + 1];
        for (int k = 0; k < 4; k++)
            EQ_I("oa", 4 * i + k, oa[4 * i + k], x[3 - k]);
        int16_t e[4] = {y0, y1, (int16_t)(uint16_t)(x[0] + y0),
                        (int16_t)(uint16_t)(x[3] - y1)};
        for (int k = 0; k < 4; k++)
            EQ_I("ob", 4 * i + k, (uint16_t)ob[4 * i + k], (uint16_t)e[k]);
        EQ_I("oc.x", i, oc[2 * i], (uint64_t)c[2 * i] + (uint64_t)c[2 * i + 1]);
        EQ_I("oc.y", i, oc[2 * i + 1], (uint64_t)(c[2 * i] ^ (int64_t)y0));
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_vec_param)
{
    open_ptx("vector_mem");
    rng_seed(144);
    static float a[4 * NN], out[4 * NN];
    for (int i = 0; i < 4 * NN; i++)
        a[i] = rndf(-5.0f, 5.0f);
    float scale[4] = {1.5f, -0.75f, 3.25f, 0.1f};
    int32_t offs[2] = {7, -3};
    double dd[2] = {0.3, -1.7};
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {scale, offs, dd, &da, &dout, &n};
    launch("vec_param", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int j = 0; j < (int)(NB * BS); j++) {
        int i = j + offs[0];
        if (i >= NN)
            continue;
        const float *v = a + 4 * i;
        float e[4] = {fmaf(v[0], scale[0], (float)dd[0]),
                      fmaf(v[1], scale[1], (float)offs[1]),
                      fmaf(v[2], scale[2], (float)dd[1]), v[3] * scale[3]};
        for (int k = 0; k < 4; k++)
            EQ_F("vec_param", 4 * j + k, out[4 * j + k], e[k]);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_vec_shared)
{
    open_ptx("vector_mem");
    rng_seed(145);
    enum { B = 256, N = 2 * 256 + 100 };
    static float a[2 * N], out[2 * N];
    for (int i = 0; i < 2 * N; i++)
        a[i] = rndf(-100.0f, 100.0f);
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out));
    int n = N;
    void *pp[] = {&da, &dout, &n};
    launch("vec_shared", 3, B, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < N; i++) {
        int t = i % B, src = i - t + (B - 1 - t);
        float vx = src < N ? a[2 * src] : 0.0f,
              vy = src < N ? a[2 * src + 1] : 0.0f;
        int wx = t & 63;
        EQ_F("vec_shared.x", i, out[2 * i], vy + (float)wx);
        EQ_F("vec_shared.y", i, out[2 * i + 1], vx + (float)(wx + 3));
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ templates */

START_TEST(e2e_saxpy)
{
    open_ptx("templates");
    rng_seed(151);
    static float xf[NN], yf[NN], of[NN];
    static double xd[NN], yd[NN], od[NN];
    static int32_t xi[NN], yi[NN], oi[NN];
    for (int i = 0; i < NN; i++) {
        xf[i] = rndf(-3.0f, 3.0f), yf[i] = rndf(-3.0f, 3.0f);
        xd[i] = xf[i] / 3.0, yd[i] = yf[i] / 7.0;
        xi[i] = (int32_t)rnd(), yi[i] = (int32_t)rnd();
    }
    ptxemu_devptr dxf = dbuf(xf, sizeof(xf)), dyf = dbuf(yf, sizeof(yf)),
                  dxd = dbuf(xd, sizeof(xd)), dyd = dbuf(yd, sizeof(yd)),
                  dxi = dbuf(xi, sizeof(xi)), dyi = dbuf(yi, sizeof(yi));
    int n = NN;
    float af = 1.7f;
    double ad = -2.3;
    int32_t ai = 12345;
    void *p1[] = {&af, &dxf, &dyf, &n};
    void *p2[] = {&ad, &dxd, &dyd, &n};
    void *p3[] = {&ai, &dxi, &dyi, &n};
    launch("saxpy_f32", NB, BS, 0, p1);
    launch("saxpy_f64", NB, BS, 0, p2);
    launch("saxpy_i32", NB, BS, 0, p3);
    dget(of, dyf, sizeof(of));
    dget(od, dyd, sizeof(od));
    dget(oi, dyi, sizeof(oi));
    for (int i = 0; i < NN; i++) {
        EQ_F("saxpy_f32", i, of[i], fmaf(af, xf[i], yf[i]));
        EQ_D("saxpy_f64", i, od[i], fma(ad, xd[i], yd[i]));
        EQ_I("saxpy_i32", i, (uint32_t)oi[i],
             (uint32_t)ai * (uint32_t)xi[i] + (uint32_t)yi[i]);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_reduce_templates)
{
    open_ptx("templates");
    rng_seed(152);
    enum { N = 1000, G = 3 };
    static float f[N];
    static int64_t l[N];
    static uint8_t u[N];
    for (int i = 0; i < N; i++) {
        f[i] = rndf(-1.0f, 1.0f);
        l[i] = (int64_t)rnd64() >> 3;
        u[i] = (uint8_t)rnd();
    }
    float fo[G], fm[G];
    int64_t lo[G], lm[G];
    uint8_t uo[G], um[G];
    ptxemu_devptr df = dbuf(f, sizeof(f)), dfo = dbuf(NULL, sizeof(fo)),
                  dfm = dbuf(NULL, sizeof(fm)), dl = dbuf(l, sizeof(l)),
                  dlo = dbuf(NULL, sizeof(lo)), dlm = dbuf(NULL, sizeof(lm)),
                  du = dbuf(u, sizeof(u)), duo = dbuf(NULL, sizeof(uo)),
                  dum = dbuf(NULL, sizeof(um));
    int n = N;
    void *p1[] = {&df, &dfo, &dfm, &n};
    void *p2[] = {&dl, &dlo, &dlm, &n};
    void *p3[] = {&du, &duo, &dum, &n};
    launch("reduce_f32", G, 128, 0, p1);
    launch("reduce_i64", G, 64, 0, p2);
    launch("reduce_u8", G, 32, 0, p3);
    dget(fo, dfo, sizeof(fo));
    dget(fm, dfm, sizeof(fm));
    dget(lo, dlo, sizeof(lo));
    dget(lm, dlm, sizeof(lm));
    dget(uo, duo, sizeof(uo));
    dget(um, dum, sizeof(um));
    for (int g = 0; g < G; g++) {
        float ss[128], sm[128];
        for (int t = 0; t < 128; t++) {
            ss[t] = 0.0f, sm[t] = f[0];
            for (int i = g * 128 + t; i < N; i += G * 128) {
                ss[t] += f[i];
                sm[t] = f[i] > sm[t] ? f[i] : sm[t];
            }
        }
        for (int s = 64; s > 0; s >>= 1)
            for (int t = 0; t < s; t++) {
                ss[t] += ss[t + s];
                if (sm[t + s] > sm[t])
                    sm[t] = sm[t + s];
            }
        EQ_F("reduce_f32.sum", g, fo[g], ss[0]);
        EQ_F("reduce_f32.max", g, fm[g], sm[0]);
        uint64_t ls[64];
        int64_t lx[64];
        for (int t = 0; t < 64; t++) {
            ls[t] = 0, lx[t] = l[0];
            for (int i = g * 64 + t; i < N; i += G * 64) {
                ls[t] += (uint64_t)l[i];
                lx[t] = l[i] > lx[t] ? l[i] : lx[t];
            }
        }
        for (int s = 32; s > 0; s >>= 1)
            for (int t = 0; t < s; t++) {
                ls[t] += ls[t + s];
                if (lx[t + s] > lx[t])
                    lx[t] = lx[t + s];
            }
        EQ_I("reduce_i64.sum", g, lo[g], ls[0]);
        EQ_I("reduce_i64.max", g, lm[g], lx[0]);
        uint8_t us = 0, ux = u[0];
        for (int t = 0; t < 32; t++)
            for (int i = g * 32 + t; i < N; i += G * 32) {
                us = (uint8_t)(us + u[i]);
                ux = u[i] > ux ? u[i] : ux;
            }
        EQ_I("reduce_u8.sum", g, uo[g], us);
        EQ_I("reduce_u8.max", g, um[g], ux);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_dots)
{
    open_ptx("templates");
    rng_seed(153);
    enum { T = 70 };
    static float a[4 * T + 4], fo[T];
    static double b[3 * T + 3], dout[T];
    static int32_t c[8 * T + 8], io[T];
    for (int i = 0; i < 4 * T + 4; i++)
        a[i] = rndf(-2.0f, 2.0f);
    for (int i = 0; i < 3 * T + 3; i++)
        b[i] = rndf(-2.0f, 2.0f) / 3.0;
    for (int i = 0; i < 8 * T + 8; i++)
        c[i] = (int32_t)rnd();
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dc = dbuf(c, sizeof(c)), dfo = dbuf(NULL, sizeof(fo)),
                  ddo = dbuf(NULL, sizeof(dout)), dio = dbuf(NULL, sizeof(io));
    void *pp[] = {&da, &db, &dc, &dfo, &ddo, &dio};
    launch("dots", 1, T, 0, pp);
    dget(fo, dfo, sizeof(fo));
    dget(dout, ddo, sizeof(dout));
    dget(io, dio, sizeof(io));
    for (int i = 0; i < T; i++) {
        float rf = 0.0f;
        for (int k = 0; k < 4; k++)
            rf = fmaf(a[4 * i + k], a[4 * i + 4 + k], rf);
        double rd = 0.0;
        for (int k = 0; k < 3; k++)
            rd = fma(b[3 * i + k], b[3 * i + 3 + k], rd);
        uint32_t ri = 0;
        for (int k = 0; k < 8; k++)
            ri += (uint32_t)c[8 * i + k] * (uint32_t)c[8 * i + 8 + k];
        EQ_F("dots.f", i, fo[i], rf);
        EQ_D("dots.d", i, dout[i], rd);
        EQ_I("dots.i", i, (uint32_t)io[i], ri);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_scale_kernel)
{
    open_ptx("templates");
    rng_seed(154);
    static float d[NN], o[NN];
    static uint16_t u[NN], uo[NN];
    for (int i = 0; i < NN; i++)
        d[i] = rndf(-9.0f, 9.0f), u[i] = (uint16_t)rnd();
    ptxemu_devptr dd = dbuf(d, sizeof(d)), du = dbuf(u, sizeof(u));
    int n = NN;
    float ff = 0.3f;
    uint16_t fu = 77;
    void *p1[] = {&dd, &ff, &n};
    void *p2[] = {&du, &fu, &n};
    launch("_Z12scale_kernelIfEvPT_S0_i", NB, BS, 0, p1);
    launch("_Z12scale_kernelItEvPT_S0_i", NB, BS, 0, p2);
    dget(o, dd, sizeof(o));
    dget(uo, du, sizeof(uo));
    for (int i = 0; i < NN; i++) {
        EQ_F("scale<float>", i, o[i], d[i] * ff);
        EQ_I("scale<ushort>", i, uo[i], (uint16_t)(u[i] * fu));
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ cp.async */

START_TEST(e2e_cp_async_primitives)
{
    open_ptx("cp_async");
    rng_seed(161);
    enum { TILES = 5, G = 2 };
    static float in[4 * G * TILES * 128], out[G * 128];
    for (size_t i = 0; i < sizeof(in) / 4; i++)
        in[i] = rndf(-1.0f, 1.0f);
    ptxemu_devptr di = dbuf(in, sizeof(in)), dout = dbuf(NULL, sizeof(out));
    int tiles = TILES;
    void *pp[] = {&di, &dout, &tiles};
    launch("cp_async_primitives", G, 128, 0, pp);
    dget(out, dout, sizeof(out));
    for (int g = 0; g < G; g++)
        for (int t = 0; t < 128; t++) {
            float acc = 0.0f;
            for (int k = 0; k < TILES; k++) {
                const float *v = in + 4 * ((size_t)g * TILES * 128 + k * 128 +
                                           (t + 1) % 128);
                acc += v[0] + v[1] + v[2] + v[3];
            }
            EQ_F("cp_async_primitives", g * 128 + t, out[g * 128 + t], acc);
        }
    close_ptx();
}
END_TEST

START_TEST(e2e_cp_async_small)
{
    open_ptx("cp_async");
    rng_seed(162);
    enum { N = 300 };
    static int32_t in[N], in2[2 * N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = (int32_t)rnd(), in2[2 * i] = (int32_t)rnd(),
        in2[2 * i + 1] = (int32_t)rnd();
    ptxemu_devptr di = dbuf(in, sizeof(in)), di2 = dbuf(in2, sizeof(in2)),
                  dout = dbuf(NULL, sizeof(out));
    int n = N;
    void *pp[] = {&di, &di2, &dout, &n};
    launch("cp_async_small", 3, 128, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < N; i++) {
        int t = i % 128, j = i - t + 127 - t;
        uint32_t s1 = j < N ? (uint32_t)in[j] : 0;
        uint32_t e = s1 + (uint32_t)in2[2 * i] * (uint32_t)in2[2 * i + 1];
        EQ_I("cp_async_small", i, (uint32_t)out[i], e);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_cp_async_cg)
{
    open_ptx("cp_async");
    rng_seed(163);
    static int32_t in[NN], out[NN];
    for (int i = 0; i < NN; i++)
        in[i] = (int32_t)(rnd() % 100000);
    ptxemu_devptr di = dbuf(in, sizeof(in)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&di, &dout, &n};
    launch("cp_async_cg", NB, BS, BS * 4, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        int base = i - i % (int)BS, t = i - base;
        int count = NN - base < (int)BS ? NN - base : (int)BS;
        EQ_I("cp_async_cg", i, out[i], in[base + t] + in[base + count - 1 - t]);
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ params */

START_TEST(e2e_struct_by_value)
{
    open_ptx("params");
    rng_seed(171);
    struct {
        int32_t rows, cols;
        float alpha, beta;
        double gamma;
        char tag[5];
        char pad[3];
    } cfg = {10, 29, 1.25f, -0.5f, 0.1, {'a', 'B', '!', 0, 'z'}, {0, 0, 0}};
    struct {
        int16_t a;
        uint8_t b;
        uint8_t pad;
    } sm = {-300, 200, 0};
    static float in[NN], out[NN];
    for (int i = 0; i < NN; i++)
        in[i] = rndf(-4.0f, 4.0f);
    ptxemu_devptr di = dbuf(in, sizeof(in)), dout = dbuf(NULL, sizeof(out));
    void *pp[] = {&cfg, &sm, &di, &dout};
    launch("struct_by_value", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        float e = 0.0f;
        if (i < cfg.rows * cfg.cols)
            e = fmaf(cfg.alpha, in[i], cfg.beta) + (float)cfg.gamma +
                (float)cfg.tag[i % 5] + (float)(sm.a * sm.b);
        EQ_F("struct_by_value", i, out[i], e);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_many_params)
{
    open_ptx("params");
    rng_seed(172);
    static int32_t p[4][NN], o[NN];
    static float p16[NN];
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < NN; i++)
            p[k][i] = (int32_t)(rnd() % 200001) - 100000;
    for (int i = 0; i < NN; i++)
        p16[i] = rndf(-100.0f, 100.0f);
    ptxemu_devptr d0 = dbuf(p[0], sizeof(p[0])), d1 = dbuf(p[1], sizeof(p[1])),
                  d2 = dbuf(p[2], sizeof(p[2])), d3 = dbuf(p[3], sizeof(p[3])),
                  d4 = dbuf(NULL, sizeof(o)), d16 = dbuf(p16, sizeof(p16));
    int8_t c5 = -7;
    uint8_t c6 = 250, b15 = 1;
    int16_t s7 = -1234;
    uint16_t s8 = 54321;
    int32_t i9 = -99999, i18 = 1, i19 = -2, i20 = 3, i21 = -4, i22 = 5,
            i23 = -6;
    uint32_t u10 = 4000000000u;
    int64_t l11 = -5000000000ll;
    uint64_t l12 = 7000000000ull;
    float f13 = 0.375f, f17 = -2.5f;
    double d14 = 123.75;
    int n = NN;
    void *pp[] = {&d0,  &d1,  &d2,  &d3,  &d4,  &c5,  &c6,  &s7,  &s8,
                  &i9,  &u10, &l11, &l12, &f13, &d14, &b15, &d16, &f17,
                  &i18, &i19, &i20, &i21, &i22, &i23, &n};
    launch("many_params", NB, BS, 0, pp);
    dget(o, d4, sizeof(o));
    for (int i = 0; i < NN; i++) {
        int32_t si =
            p[0][i] + p[1][i] + p[2][i] + p[3][i] + c5 + c6 + s7 + s8 + i9;
        int64_t r = (int64_t)((uint32_t)si + u10) + l11 + (int64_t)l12;
        r += (int64_t)fmaf(f13, p16[i], f17) + (int64_t)d14 + 1;
        r += i18 * 2 + i19 * 3 + i20 * 5 + i21 * 7 + i22 * 11 + i23 * 13;
        EQ_I("many_params", i, (uint32_t)o[i], (uint32_t)r);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_big_params)
{
    open_ptx("params");
    rng_seed(173);
    struct {
        float table[64];
        int32_t count;
    } big;
    for (int k = 0; k < 64; k++)
        big.table[k] = rndf(-10.0f, 10.0f);
    big.count = 3;
    static int32_t idx[NN];
    static float out[NN];
    for (int i = 0; i < NN; i++)
        idx[i] = (int32_t)rnd();
    ptxemu_devptr di = dbuf(idx, sizeof(idx)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&big, &di, &dout, &n};
    launch("grid_constant_param", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++)
        EQ_F("grid_constant", i, out[i], big.table[idx[i] & 63] * 3.0f);
    launch("param_copy", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        float t[64];
        memcpy(t, big.table, sizeof(t));
        t[idx[i] & 63] += 1.0f;
        EQ_F("param_copy", i, out[i], t[(idx[i] + 1) & 63] + t[idx[i] & 63]);
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ conversions */

/* Directed rounding by correcting the round-to-nearest result f, given
 * c = sign(f - v) with v the exact value (no long double: valgrind's x87
 * is only 64 bits wide). */
static float f_fix(float f, int c, int mode)
{
    if (mode == RZ && c != 0 && (f > 0) == (c > 0))
        f = nextafterf(f, 0.0f);
    if (mode == RD && c > 0)
        f = nextafterf(f, -INFINITY);
    if (mode == RU && c < 0)
        f = nextafterf(f, INFINITY);
    return f;
}

static double d_fix(double d, int c, int mode)
{
    if (mode == RZ && c != 0 && (d > 0) == (c > 0))
        d = nextafter(d, 0.0);
    if (mode == RD && c > 0)
        d = nextafter(d, -INFINITY);
    if (mode == RU && c < 0)
        d = nextafter(d, INFINITY);
    return d;
}

/* sign(f - v) for an integral double f (a rounding of v). */
static int cmp_s64(double f, int64_t v)
{
    if (f >= 0x1p63)
        return 1;
    int64_t fi = (int64_t)f;
    return fi > v ? 1 : fi < v ? -1 : 0;
}

static int cmp_u64(double f, uint64_t v)
{
    if (f >= 0x1p64)
        return 1;
    uint64_t fi = (uint64_t)f;
    return fi > v ? 1 : fi < v ? -1 : 0;
}

static float f_of_s64(int64_t v, int mode)
{
    float f = (float)v;
    return f_fix(f, cmp_s64(f, v), mode);
}

static float f_of_u64(uint64_t v, int mode)
{
    float f = (float)v;
    return f_fix(f, cmp_u64(f, v), mode);
}

static double d_of_s64(int64_t v, int mode)
{
    double d = (double)v;
    return d_fix(d, cmp_s64(d, v), mode);
}

static double d_of_u64(uint64_t v, int mode)
{
    double d = (double)v;
    return d_fix(d, cmp_u64(d, v), mode);
}

static float f_of_d(double v, int mode)
{
    float f = (float)v;
    double fd = f;
    return f_fix(f, fd > v ? 1 : fd < v ? -1 : 0, mode);
}

static double round_int(double x, int mode)
{
    switch (mode) {
    case RN: return nearbyint(x);
    case RZ: return trunc(x);
    case RD: return floor(x);
    default: return ceil(x);
    }
}

/* cvt.rXi.{s,u}{32,64}.f{32,64}: saturating, NaN -> 0. */
static int64_t sat_s(double x, int mode, int bits)
{
    if (x != x)
        return 0;
    double r = round_int(x, mode), hi = ldexp(1.0, bits - 1);
    if (r >= hi)
        return bits == 64 ? INT64_MAX : (int64_t)hi - 1;
    if (r < -hi)
        return bits == 64 ? INT64_MIN : -(int64_t)hi;
    return (int64_t)r;
}

static uint64_t sat_u(double x, int mode, int bits)
{
    if (x != x)
        return 0;
    double r = round_int(x, mode), hi = ldexp(1.0, bits);
    if (r <= 0)
        return 0;
    if (r >= hi)
        return bits == 64 ? UINT64_MAX : (uint64_t)hi - 1;
    return (uint64_t)r;
}

static float rnd_conv_float(int i)
{
    switch (i % 6) {
    case 0: return (float)((int)(rnd() % 41) - 20) * 0.5f; /* ties */
    case 1: return rndf(-3e9f, 5e9f);
    case 2: return rndf(-1e20f, 1e20f);
    case 3: return rndf(-100.0f, 100.0f);
    case 4: return (i % 12 == 4) ? NAN : rndf(-1.0f, 1.0f);
    default: return rndf(-2e19f, 2e19f);
    }
}

START_TEST(e2e_conv_float_to_int)
{
    open_ptx("conversions");
    rng_seed(181);
    static float a[NN];
    static int32_t si[4 * NN];
    static uint32_t ui[4 * NN];
    static int64_t sl[2 * NN];
    static uint64_t ul[2 * NN];
    for (int i = 0; i < NN; i++)
        a[i] = rnd_conv_float(i);
    ptxemu_devptr da = dbuf(a, sizeof(a)), dsi = dbuf(NULL, sizeof(si)),
                  dui = dbuf(NULL, sizeof(ui)), dsl = dbuf(NULL, sizeof(sl)),
                  dul = dbuf(NULL, sizeof(ul));
    int n = NN;
    void *pp[] = {&da, &dsi, &dui, &dsl, &dul, &n};
    launch("conv_float_to_int", NB, BS, 0, pp);
    dget(si, dsi, sizeof(si));
    dget(ui, dui, sizeof(ui));
    dget(sl, dsl, sizeof(sl));
    dget(ul, dul, sizeof(ul));
    static const int m4[4] = {RN, RZ, RD, RU};
    for (int i = 0; i < NN; i++) {
        double x = a[i];
        for (int k = 0; k < 4; k++) {
            EQ_I("f2i", 4 * i + k, si[4 * i + k], (int32_t)sat_s(x, m4[k], 32));
            EQ_I("f2u", 4 * i + k, ui[4 * i + k],
                 (uint32_t)sat_u(x, m4[k], 32));
        }
        EQ_I("f2ll", 2 * i, sl[2 * i], sat_s(x, RN, 64));
        EQ_I("f2ll.sum", 2 * i + 1, (uint64_t)sl[2 * i + 1],
             (uint64_t)sat_s(x, RD, 64) + (uint64_t)sat_s(x, RU, 64) +
                 (uint64_t)sat_s(x, RZ, 64));
        EQ_I("f2ull", 2 * i, ul[2 * i], sat_u(x, RN, 64));
        EQ_I("f2ull.sum", 2 * i + 1, ul[2 * i + 1],
             sat_u(x, RD, 64) + sat_u(x, RU, 64) + sat_u(x, RZ, 64));
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_conv_double_to_x)
{
    open_ptx("conversions");
    rng_seed(182);
    static double a[NN];
    static int32_t si[NN];
    static uint32_t ui[NN];
    static int64_t sl[NN];
    static uint64_t ul[NN];
    static float f[4 * NN];
    for (int i = 0; i < NN; i++) {
        double s = (double)rnd() / 4294967296.0;
        switch (i % 5) {
        case 0: a[i] = (double)((int)(rnd() % 41) - 20) * 0.5; break;
        case 1: a[i] = (s - 0.3) * 1e10; break;
        case 2: a[i] = (s - 0.5) * 1e40; break;
        case 3: a[i] = (s - 0.5) * 1e-3 / 3.0; break;
        default: a[i] = (s - 0.4) * 4e19; break;
        }
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), dsi = dbuf(NULL, sizeof(si)),
                  dui = dbuf(NULL, sizeof(ui)), dsl = dbuf(NULL, sizeof(sl)),
                  dul = dbuf(NULL, sizeof(ul)), df = dbuf(NULL, sizeof(f));
    int n = NN;
    void *pp[] = {&da, &dsi, &dui, &dsl, &dul, &df, &n};
    launch("conv_double_to_x", NB, BS, 0, pp);
    dget(si, dsi, sizeof(si));
    dget(ui, dui, sizeof(ui));
    dget(sl, dsl, sizeof(sl));
    dget(ul, dul, sizeof(ul));
    dget(f, df, sizeof(f));
    for (int i = 0; i < NN; i++) {
        double x = a[i];
        uint32_t es = 0, eu = 0;
        uint64_t el = 0, eul = 0;
        for (int m = 0; m < 4; m++) {
            es += (uint32_t)sat_s(x, m, 32);
            eu += (uint32_t)sat_u(x, m, 32);
            el += (uint64_t)sat_s(x, m, 64);
            eul += sat_u(x, m, 64);
        }
        EQ_I("d2i", i, (uint32_t)si[i], es);
        EQ_I("d2u", i, ui[i], eu);
        EQ_I("d2ll", i, (uint64_t)sl[i], el);
        EQ_I("d2ull", i, ul[i], eul);
        for (int m = 0; m < 4; m++)
            EQ_F("d2f", 4 * i + m, f[4 * i + m], f_of_d(x, m));
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_conv_int_to_float)
{
    open_ptx("conversions");
    rng_seed(183);
    static int32_t a[NN];
    static uint64_t b[NN];
    static float f[8 * NN];
    static double d[4 * NN];
    for (int i = 0; i < NN; i++) {
        a[i] = (int32_t)rnd() >> (rnd() % 8);
        b[i] = rnd64() >> (rnd() % 40);
        if (i % 3 == 0)
            b[i] = (uint64_t) - (int64_t)b[i];
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  df = dbuf(NULL, sizeof(f)), dd = dbuf(NULL, sizeof(d));
    int n = NN;
    void *pp[] = {&da, &db, &df, &dd, &n};
    launch("conv_int_to_float", NB, BS, 0, pp);
    dget(f, df, sizeof(f));
    dget(d, dd, sizeof(d));
    for (int i = 0; i < NN; i++) {
        int32_t x = a[i];
        uint32_t ux = (uint32_t)x;
        int64_t lx = (int64_t)b[i];
        uint64_t ulx = b[i];
        float e[8];
        e[0] = f_of_s64(x, RN);
        e[1] = f_of_s64(x, RZ) + f_of_s64(x, RD) + f_of_s64(x, RU);
        e[2] = f_of_u64(ux, RN) + f_of_u64(ux, RZ) + f_of_u64(ux, RD) +
               f_of_u64(ux, RU);
        e[3] = f_of_s64(lx, RN) + f_of_s64(lx, RZ) + f_of_s64(lx, RD) +
               f_of_s64(lx, RU);
        e[4] = f_of_u64(ulx, RN) + f_of_u64(ulx, RZ) + f_of_u64(ulx, RD) +
               f_of_u64(ulx, RU);
        e[5] = (float)(int16_t)x + (float)(uint8_t)x;
        e[6] = f_of_s64(x, RN);
        e[7] = f_of_u64(ulx, RN);
        for (int k = 0; k < 8; k++)
            EQ_F("i2f", 8 * i + k, f[8 * i + k], e[k]);
        double ed[4];
        ed[0] = (double)x + (double)ux;
        ed[1] = d_of_s64(lx, RN) + d_of_s64(lx, RZ) + d_of_s64(lx, RD) +
                d_of_s64(lx, RU);
        ed[2] = d_of_u64(ulx, RN) + d_of_u64(ulx, RZ) + d_of_u64(ulx, RD) +
                d_of_u64(ulx, RU);
        ed[3] = (double)(int8_t)x;
        for (int k = 0; k < 4; k++)
            EQ_D("i2d", 4 * i + k, d[4 * i + k], ed[k]);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_conv_int_widths)
{
    open_ptx("conversions");
    rng_seed(184);
    static int64_t a[NN];
    static int8_t s8[NN];
    static uint8_t u8[NN];
    static int16_t s16[NN];
    static uint16_t u16[NN];
    static int32_t s32[NN];
    static uint64_t u64[NN];
    for (int i = 0; i < NN; i++)
        a[i] = (int64_t)rnd64() >> (rnd() % 60);
    ptxemu_devptr da = dbuf(a, sizeof(a)), d1 = dbuf(NULL, sizeof(s8)),
                  d2 = dbuf(NULL, sizeof(u8)), d3 = dbuf(NULL, sizeof(s16)),
                  d4 = dbuf(NULL, sizeof(u16)), d5 = dbuf(NULL, sizeof(s32)),
                  d6 = dbuf(NULL, sizeof(u64));
    int n = NN;
    void *pp[] = {&da, &d1, &d2, &d3, &d4, &d5, &d6, &n};
    launch("conv_int_widths", NB, BS, 0, pp);
    dget(s8, d1, sizeof(s8));
    dget(u8, d2, sizeof(u8));
    dget(s16, d3, sizeof(s16));
    dget(u16, d4, sizeof(u16));
    dget(s32, d5, sizeof(s32));
    dget(u64, d6, sizeof(u64));
    for (int i = 0; i < NN; i++) {
        int64_t x = a[i];
        EQ_I("s8", i, (uint8_t)s8[i], (uint8_t)x);
        EQ_I("u8", i, u8[i], (uint8_t)(x >> 3));
        EQ_I("s16", i, (uint16_t)s16[i], (uint16_t)(x >> 5));
        EQ_I("u16", i, u16[i], (uint16_t)(x >> 7));
        EQ_I("s32", i, (uint32_t)s32[i],
             (uint32_t)((int32_t)(int8_t)(x >> 11) +
                        (int32_t)(int16_t)(x >> 13) + (int32_t)(uint16_t)x));
        EQ_I("u64", i, u64[i],
             (uint64_t)(uint32_t)(x >> 17) + (uint64_t)(int64_t)(int32_t)x);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_conv_bits)
{
    open_ptx("conversions");
    rng_seed(185);
    static float a[NN], of[NN];
    static double b[NN], od[NN];
    static int32_t oi[NN];
    static int64_t ol[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = rndf(-1e3f, 1e3f);
        b[i] = (double)rndf(-1e3f, 1e3f) / 3.0;
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  doi = dbuf(NULL, sizeof(oi)), dof = dbuf(NULL, sizeof(of)),
                  dol = dbuf(NULL, sizeof(ol)), dod = dbuf(NULL, sizeof(od));
    int n = NN;
    void *pp[] = {&da, &db, &doi, &dof, &dol, &dod, &n};
    launch("conv_bits", NB, BS, 0, pp);
    dget(oi, doi, sizeof(oi));
    dget(of, dof, sizeof(of));
    dget(ol, dol, sizeof(ol));
    dget(od, dod, sizeof(od));
    for (int i = 0; i < NN; i++) {
        uint32_t xu = fbits(a[i]);
        uint64_t yl = dbits(b[i]);
        EQ_I("oi", i, (uint32_t)oi[i], xu ^ (xu >> 1));
        float f1, f2;
        uint32_t t1 = xu + 1, t2 = xu & 0x7fffffffu;
        memcpy(&f1, &t1, 4);
        memcpy(&f2, &t2, 4);
        EQ_F("of", i, of[i], f1 + f2);
        EQ_I("ol", i, (uint64_t)ol[i],
             yl + (uint64_t)(int64_t)(int32_t)(yl >> 32) +
                 (uint64_t)(int64_t)(int32_t)(uint32_t)yl);
        double d1, d2;
        uint64_t u1 = yl ^ 0x8000000000000000ull, u2 = (uint64_t)xu << 32;
        memcpy(&d1, &u1, 8);
        memcpy(&d2, &u2, 8);
        EQ_D("od", i, od[i], d1 + d2);
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ f32 */

START_TEST(e2e_f32_classify)
{
    open_ptx("f32_math");
    rng_seed(191);
    static float a[NN];
    static int32_t out[NN];
    for (int i = 0; i < NN; i++) {
        switch (i % 8) {
        case 0: a[i] = NAN; break;
        case 1: a[i] = (i & 8) ? INFINITY : -INFINITY; break;
        case 2: a[i] = (i & 8) ? 0.0f : -0.0f; break;
        case 3: a[i] = rndf(-1.0f, 1.0f) * 1e-39f; break; /* subnormal */
        default:
            a[i] = ldexpf(rndf(-1.0f, 1.0f), (int)(rnd() % 200) - 100);
            break;
        }
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &dout, &n};
    launch("f32_classify", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        float x = a[i];
        uint32_t r = 0;
        r |= isnan(x) ? 1 : 0;
        r |= isinf(x) ? 2 : 0;
        r |= isfinite(x) ? 4 : 0;
        r |= signbit(x) ? 8 : 0;
        r |= (x < 1.0f) ? 16 : 0;
        r |= (x != x) ? 32 : 0;
        r |= !(x >= 0.0f) ? 64 : 0;
        int e = 0;
        float m = frexpf(x, &e);
        if (!isfinite(x))
            e = 0;
        r += (uint32_t)e << 8;
        r += (uint32_t)ilogbf(x + 1.0f) << 16;
        r += (m > 0.5f);
        EQ_I("f32_classify", i, (uint32_t)out[i], r);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_f32_libm)
{
    open_ptx("f32_math");
    rng_seed(192);
    static float a[NN], out[NN];
    for (int i = 0; i < NN; i++)
        a[i] = rndf(-20.0f, 20.0f);
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &dout, &n};
    launch("f32_libm", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        /* CUDA's single-precision functions are within 1-4 ulp
         * (Programming Guide, "Mathematical Functions"); the terms are
         * summed in float, so allow a few ulp of the largest partial sum. */
        double x = a[i], terms[12];
        terms[0] = sin(x);
        terms[1] = cos(x);
        terms[2] = exp((double)(float)(a[i] * 0.1f));
        terms[3] = log(fabs(x) + 1.0);
        terms[4] = pow(fabs(x), 1.5);
        terms[5] = atan2(x, 2.0);
        terms[6] = exp2((double)(a[i] * 0.25f));
        terms[7] = log2(fabs(x) + 2.0);
        terms[8] = tanh(x);
        terms[9] = erf(x);
        terms[10] = cbrt(x);
        terms[11] = hypot(x, 3.0);
        double s = 0, mag = 0;
        for (int k = 0; k < 12; k++) {
            s += terms[k];
            mag = fabs(s) > mag ? fabs(s) : mag;
            mag = fabs(terms[k]) > mag ? fabs(terms[k]) : mag;
        }
        double tol = mag * 16 * 0x1p-23;
        ck_assert_msg(fabs((double)out[i] - s) <= tol,
                      "f32_libm[%d] x=%.9g: got %.9g, expected %.9g (tol %.3g)",
                      i, x, (double)out[i], s, tol);
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ more shared */

START_TEST(e2e_shared_types)
{
    open_ptx("shared_static");
    rng_seed(201);
    enum { B = 128, N = 3 * 128 - 40 };
    static double a[N], out[N];
    for (int i = 0; i < N; i++)
        a[i] = (double)rndf(-300.0f, 300.0f) / 3.0;
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out));
    int n = N;
    void *pp[] = {&da, &dout, &n};
    launch("shared_types", 3, B, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < N; i++) {
        int t = i % B, c0 = i - t;
#define VAL(j) ((c0 + (j)) < N ? a[c0 + (j)] : 0.0)
        int o = (t + 1) % B;
        double vo = VAL(o), vh = VAL(B - 1 - t), vq = VAL((t / 4) % (B / 4));
        uint8_t by = (uint8_t)(int32_t)vo;
        int16_t hf = (int16_t)(int32_t)(vh * 2.0);
        double r = vo + (double)by + (double)hf + (double)(float)vq + 3.0;
#undef VAL
        EQ_D("shared_types", i, out[i], r);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_dyn_shared_multi)
{
    open_ptx("shared_dynamic");
    rng_seed(202);
    enum { M = 80 };
    static float a[NN], out[NN];
    static int32_t b[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = rndf(-10.0f, 10.0f);
        b[i] = (int32_t)rnd() >> (rnd() % 20);
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN, m = M;
    unsigned shm = (unsigned)(((M * 8 + 7) & ~7) + M * 8);
    void *pp[] = {&da, &db, &dout, &n, &m};
    launch("dyn_shared_multi", NB, BS, shm, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        int t = i % (int)BS, c0 = i - t;
        if (t >= M) {
            EQ_F("dyn_shared_multi.untouched", i, out[i], 0.0f);
            continue;
        }
        int j = b[i] % M;
        if (j < 0)
            j += M;
        float fa = c0 + j < NN ? a[c0 + j] : 0.0f;
        EQ_F("dyn_shared_multi", i, out[i], fa * (float)(0.5 * (M - 1 - t)));
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_dyn_shared_generic)
{
    open_ptx("shared_dynamic");
    rng_seed(203);
    static int32_t a[NN], out[NN];
    static uint32_t addrs[NN];
    for (int i = 0; i < NN; i++)
        a[i] = (int32_t)(rnd() % 100000);
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out)),
                  dad = dbuf(NULL, sizeof(addrs));
    int n = NN;
    void *pp[] = {&da, &dout, &dad, &n};
    launch("dyn_shared_generic", NB, BS, BS * 4, pp);
    dget(out, dout, sizeof(out));
    dget(addrs, dad, sizeof(addrs));
    /* The dynamic window's shared address: thread 1's address minus 0. */
    uint32_t base = addrs[1];
    for (int i = 0; i < NN; i++) {
        int t = i % (int)BS, c0 = i - t;
        if (t & 1) {
            /* p = &sm[t ^ 1] = &sm[t - 1]; q = address ^ 4 */
            uint32_t sa = base + 4u * (uint32_t)(t - 1);
            EQ_I("addrs", i, addrs[i], sa);
            uint32_t qa = sa ^ 4u;
            int k = (int)((qa - base) / 4);
            EQ_I("generic.shared", i, out[i], a[c0 + k] + 10);
        } else {
            EQ_I("addrs", i, addrs[i], 0);
            EQ_I("generic.global", i, out[i], a[i] + 100);
        }
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_globals_write)
{
    open_ptx("globals_init");
    rng_seed(204);
    static int32_t in[NN];
    for (int i = 0; i < NN; i++)
        in[i] = (int32_t)(rnd() % 1000);
    ptxemu_devptr di = dbuf(in, sizeof(in));
    int n = NN;
    void *pp[] = {&di, &n};
    launch("globals_write", NB, BS, 0, pp);
    ptxemu_devptr gz, gt, gc;
    ck_assert_int_eq(ptxemu_module_get_global(mod, "g_zeroed", &gz, NULL),
                     PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_module_get_global(mod, "g_table", &gt, NULL),
                     PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_module_get_global(mod, "g_counter", &gc, NULL),
                     PTXEMU_SUCCESS);
    float z[16];
    int32_t table[10], counter;
    dget(z, gz, sizeof(z));
    dget(table, gt, sizeof(table));
    dget(&counter, gc, 4);
    static const int32_t t0[10] = {1, 1, 2, 3, 5, 8, 13, 21, 34, 55};
    for (int k = 0; k < 16; k++)
        EQ_F("g_zeroed", k, z[k], (float)in[k]);
    for (int k = 0; k < 10; k++)
        EQ_I("g_table", k, table[k], t0[k] + NN / 10 + (k < NN % 10));
    EQ_I("g_counter", 0, counter, 42 + in[0]);
    close_ptx();
}
END_TEST

START_TEST(e2e_warp_activemask)
{
    open_ptx("warp_vote");
    rng_seed(205);
    static int32_t a[NN];
    static uint32_t masks[NN];
    for (int i = 0; i < NN; i++)
        a[i] = (int32_t)rnd();
    ptxemu_devptr da = dbuf(a, sizeof(a)), dm = dbuf(NULL, sizeof(masks));
    int n = NN;
    void *pp[] = {&da, &dm, &n};
    launch("warp_activemask", NB, BS, 0, pp);
    dget(masks, dm, sizeof(masks));
    for (int i = 0; i < NN; i++) {
        int t = i % (int)BS, l = t & 31, w0 = i - l;
        uint32_t m0 = 0, odd = 0;
        for (int k = 0; k < 32; k++) {
            int j = w0 + k;
            if ((t - l) + k < (int)BS && j < NN) {
                m0 |= 1u << k;
                if (a[j] & 1)
                    odd |= 1u << k;
            }
        }
        uint32_t m1 = (a[i] & 1) ? odd : ~(m0 & ~odd);
        uint32_t eq = 1u << l, lt = eq - 1, le = lt | eq, ge = ~lt, gt = ~le;
        EQ_I("activemask", i, masks[i],
             m0 ^ m1 ^ ge ^ (le << 1) ^ (gt >> 1) ^ eq);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_atomics_red_asm)
{
    open_ptx("atomics_global");
    rng_seed(206);
    static uint32_t v[NN];
    uint32_t u[9] = {0, 0, ~0u, 0, 0, 0, 0, 0, 0};
    float f = 0.0f;
    uint64_t l = 0;
    uint32_t h = 0;
    for (int i = 0; i < NN; i++)
        v[i] = rnd() % 4096;
    ptxemu_devptr du = dbuf(u, sizeof(u)), df = dbuf(&f, 4), dl = dbuf(&l, 8),
                  dh = dbuf(&h, 4), dv = dbuf(v, sizeof(v));
    int n = NN;
    void *pp[] = {&du, &df, &dl, &dh, &dv, &n};
    launch("atomics_red_asm", NB, BS, 0, pp);
    dget(u, du, sizeof(u));
    dget(&f, df, 4);
    dget(&l, dl, 8);
    dget(&h, dh, 4);
    uint32_t add = 0, mx = 0, an = ~0u, inc = 0, xr = 0, sh[4] = {0, 0, 0, 0};
    float fs = 0.0f;
    uint64_t ls = 0;
    for (unsigned i = 0; i < NB * BS; i++) {
        uint32_t x = i < NN ? v[i] : 0;
        add += x;
        mx = x > mx ? x : mx;
        an &= x | 0xff000000u;
        inc = inc >= 63 ? 0 : inc + 1;
        xr ^= x;
        fs += (float)x * 0.5f;
        ls += x;
        sh[x & 3]++;
    }
    EQ_I("red.add", 0, u[0], add);
    EQ_I("red.max", 1, u[1], mx);
    EQ_I("red.and", 2, u[2], an);
    EQ_I("red.inc", 3, u[3], inc);
    EQ_I("red.xor", 4, u[4], xr);
    for (int k = 0; k < 4; k++)
        EQ_I("red.shared", 5 + k, u[5 + k], sh[k]);
    EQ_F("red.add.f32", 0, f, fs);
    EQ_I("red.add.u64", 0, l, ls);
    /* f16x2 += 1.0 per thread, 336 times: exact in f16 (integers <= 2048) */
    EQ_I("red.add.f16x2", 0, h, 0x5d405d40u);
    close_ptx();
}
END_TEST

START_TEST(e2e_f64_classify)
{
    open_ptx("f64_math");
    rng_seed(207);
    static double a[NN], b[NN];
    static int32_t out[NN];
    for (int i = 0; i < NN; i++) {
        switch (i % 7) {
        case 0: a[i] = NAN; break;
        case 1: a[i] = (i & 8) ? INFINITY : -INFINITY; break;
        case 2: a[i] = (i & 8) ? 0.0 : -0.0; break;
        case 3: a[i] = 1e-310 * (double)rndf(-1.0f, 1.0f); break;
        default:
            a[i] = ldexp((double)rndf(-1.0f, 1.0f), (int)(rnd() % 400) - 200);
            break;
        }
        b[i] = (i % 5 == 0)    ? a[i]
               : (i % 11 == 0) ? NAN
                               : (double)rndf(-1.0f, 1.0f);
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dout, &n};
    launch("f64_classify", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        double x = a[i], y = b[i];
        uint32_t r = 0;
        r |= isnan(x) ? 1 : 0;
        r |= isinf(x) ? 2 : 0;
        r |= signbit(x) ? 4 : 0;
        r |= (x < y) ? 8 : 0;
        r |= (x <= y) ? 16 : 0;
        r |= !(x > y) ? 32 : 0;
        r |= (x == y) ? 64 : 0;
        uint64_t hl =
            (dbits(x) & 0xffffffff00000000ull) | (dbits(y) & 0xffffffffull);
        double d;
        memcpy(&d, &hl, 8);
        r |= d > 0.0 ? 128 : 0;
        int e = 0;
        frexp(x, &e);
        if (!isfinite(x))
            e = 0;
        EQ_I("f64_classify", i, (uint32_t)out[i], r + ((uint32_t)e << 8));
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ coop groups */

START_TEST(e2e_cg_block_tiles)
{
    open_ptx("coop_groups");
    rng_seed(211);
    static int32_t a[WN], sums[WN], ranks[WN];
    for (int i = 0; i < WN; i++)
        a[i] = (int32_t)(rnd() % 2001) - 900;
    ptxemu_devptr da = dbuf(a, sizeof(a)), ds = dbuf(NULL, sizeof(sums)),
                  dr = dbuf(NULL, sizeof(ranks));
    int n = WN;
    void *pp[] = {&da, &ds, &dr, &n};
    launch("cg_block_tiles", NB, WB, 0, pp);
    dget(sums, ds, sizeof(sums));
    dget(ranks, dr, sizeof(ranks));
    for (int i = 0; i < WN; i++) {
        int l = i & 31, w0 = i - l, t0 = i - (l & 7), t = i % (int)WB;
#define V(j) ((j) < WN ? a[j] : 0)
        uint32_t wsum = 0, bal = 0;
        int any = 0;
        for (int k = 0; k < 32; k++) {
            wsum += (uint32_t)V(w0 + k);
            bal |= (uint32_t)(V(w0 + k) > 0) << k;
            any |= V(w0 + k) < 0;
        }
        int32_t mx = INT32_MIN;
        uint32_t scan = 0;
        for (int k = 0; k < 8; k++) {
            mx = V(t0 + k) > mx ? V(t0 + k) : mx;
            if (t0 + k <= i)
                scan += (uint32_t)V(t0 + k);
        }
        int32_t shf = ((l & 7) < 7 ? V(i + 1) : V(i)) + V(w0 + (l ^ 4));
        uint32_t e = wsum + (uint32_t)mx + scan + (uint32_t)shf +
                     (uint32_t)__builtin_popcount(bal) + (uint32_t)any;
#undef V
        EQ_I("cg.sums", i, (uint32_t)sums[i], e);
        EQ_I("cg.ranks", i, ranks[i], (t >> 5) * 100 + (l & 7) * 10 + (l >> 3));
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_cg_dynamic_tiles)
{
    open_ptx("coop_groups");
    rng_seed(212);
    static float a[NN], out[NN];
    for (int i = 0; i < NN; i++)
        a[i] = rndf(-8.0f, 8.0f);
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &dout, &n};
    launch("cg_dynamic_tiles", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        int t0 = i - (i % (int)BS) % 16;
        float s = 0.0f;
        for (int k = 0; k < 16; k++)
            s += t0 + k < NN ? a[t0 + k] : 0.0f;
        EQ_F("cg_dynamic_tiles", i, out[i], s / 16.0f);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_cg_coalesced)
{
    open_ptx("coop_groups");
    rng_seed(213);
    static int32_t a[NN], slots[NN];
    int32_t counter = 0;
    for (int i = 0; i < NN; i++)
        a[i] = (int32_t)(rnd() % 1000) - 500;
    ptxemu_devptr da = dbuf(a, sizeof(a)), dc = dbuf(&counter, 4),
                  ds = dbuf(NULL, sizeof(slots));
    int n = NN;
    void *pp[] = {&da, &dc, &ds, &n};
    launch("cg_coalesced", NB, BS, 0, pp);
    dget(&counter, dc, 4);
    dget(slots, ds, sizeof(slots));
    /* The warps' order on the counter is the emulator's; check that the
     * slots are a permutation of 0..count-1, in lane order within a warp,
     * plus 1000 x the number of same-parity active lanes of the warp. */
    static uint8_t seen[NN];
    memset(seen, 0, sizeof(seen));
    int count = 0;
    for (int i = 0; i < NN; i++)
        count += a[i] % 3 == 0;
    EQ_I("counter", 0, counter, count);
    for (int i = 0; i < NN; i++) {
        if (a[i] % 3 != 0) {
            EQ_I("slots", i, slots[i], -1);
            continue;
        }
        int t = i % (int)BS, l = t & 31, w0 = i - l, par = 0, rank = 0,
            first = -1;
        for (int k = 0; k < 32; k++) {
            int j = w0 + k;
            if (t - l + k >= (int)BS || j >= NN || a[j] % 3 != 0)
                continue;
            if (first < 0)
                first = j;
            rank += k < l;
            par += (a[j] & 1) == (a[i] & 1);
        }
        int slot = slots[i] - par * 1000;
        ck_assert_msg(slot >= 0 && slot < count && !seen[slot],
                      "slots[%d] = %d (parity count %d)", i, slots[i], par);
        seen[slot] = 1;
        EQ_I("slot.rank", i,
             slot - (slots[first] - 1000 * (slots[first] / 1000)), rank);
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ int_bits32 */

static uint32_t byte_perm(uint32_t x, uint32_t y, uint32_t s)
{
    uint64_t v = ((uint64_t)y << 32) | x;
    uint32_t r = 0;
    for (int k = 0; k < 4; k++)
        r |= (uint32_t)((v >> (8 * ((s >> (4 * k)) & 7))) & 0xff) << (8 * k);
    return r;
}

/* fns.b32 with offset > 0: the offset-th set bit at or above base. */
static uint32_t fns_up(uint32_t m, uint32_t base, int off)
{
    for (uint32_t p = base; p < 32; p++)
        if ((m >> p) & 1)
            if (--off == 0)
                return p;
    return 0xffffffffu;
}

static int32_t sext(uint32_t v, int bits)
{
    return (int32_t)(v << (32 - bits)) >> (32 - bits);
}

START_TEST(e2e_int_bits32)
{
    open_ptx("int_bits");
    rng_seed(221);
    static uint32_t a[NN], b[NN], out[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = (i % 17 == 0) ? 0 : rnd() >> (rnd() % 8);
        b[i] = (i % 13 == 0) ? 0 : rnd() >> (rnd() % 8);
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dout, &n};
    launch("int_bits32", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        uint32_t x = a[i], y = b[i], r = 0;
        uint64_t yx = ((uint64_t)y << 32) | x;
        r += (uint32_t)__builtin_popcount(x);
        r += x ? (uint32_t)__builtin_clz(x) : 32u;
        uint32_t bx = 0;
        for (int k = 0; k < 32; k++)
            bx |= ((x >> k) & 1) << (31 - k);
        r += bx;
        r += x ? (uint32_t)__builtin_ctz(x) + 1 : 0;
        r += byte_perm(x, y, 0x5140);
        r += byte_perm(x, y, y & 0x7777);
        r += (uint32_t)((yx << (y & 31)) >> 32);
        r += (uint32_t)(yx >> (x & 31));
        r += (uint32_t)((yx << (y < 32 ? y : 32)) >> 32);
        r += (uint32_t)(yx >> (x < 32 ? x : 32));
        r += (x > y ? x - y : y - x) + 7u;
        int64_t sd = (int64_t)(int32_t)x - (int32_t)y;
        r += (uint32_t)(sd < 0 ? -sd : sd) + 3u;
        r += (x & 0xffffff) * (y & 0xffffff);
        r += (uint32_t)((int64_t)sext(x & 0xffffff, 24) *
                        sext(y & 0xffffff, 24));
        r += mulhi_u32(x, y);
        int32_t d4 = 11;
        uint32_t u4 = 5;
        for (int k = 0; k < 4; k++) {
            d4 += (int8_t)(x >> (8 * k)) * (int8_t)(y >> (8 * k));
            u4 += ((x >> (8 * k)) & 0xff) * ((y >> (8 * k)) & 0xff);
        }
        r += (uint32_t)d4 + u4;
        int32_t lo =
            1 + (int16_t)x * (int8_t)y + (int16_t)(x >> 16) * (int8_t)(y >> 8);
        uint32_t hi =
            2 + (x & 0xffff) * ((y >> 16) & 0xff) + (x >> 16) * (y >> 24);
        r += (uint32_t)lo + hi;
        r += fns_up(x, 0, 3);
        r += (x >> 5) & 0x3ff;
        r += (x & ~(0xffu << 8)) | ((y & 0xffu) << 8);
        r += 31u - (uint32_t)__builtin_clz(x | 1);
        EQ_I("int_bits32", i, out[i], r);
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ calls */

static int h_classify(int v)
{
    return v < 0 ? -1 : v == 0 ? 0 : v < 100 ? 1 : 2;
}

START_TEST(e2e_calls)
{
    open_ptx("calls");
    rng_seed(231);
    static float pts[3 * NN], fout[NN];
    static int32_t iv[NN];
    static double dout[NN];
    static int64_t lout[NN];
    for (int i = 0; i < 3 * NN; i++)
        pts[i] = rndf(-3.0f, 3.0f);
    for (int i = 0; i < NN; i++)
        iv[i] = (i % 7 == 0) ? 0 : (int32_t)(rnd() % 2001) - 1000;
    ptxemu_devptr dp = dbuf(pts, sizeof(pts)), di = dbuf(iv, sizeof(iv)),
                  df = dbuf(NULL, sizeof(fout)), dd = dbuf(NULL, sizeof(dout)),
                  dl = dbuf(NULL, sizeof(lout));
    int n = NN;
    void *pp[] = {&dp, &di, &df, &dd, &dl, &n};
    launch("calls_kernel", NB, BS, 0, pp);
    dget(fout, df, sizeof(fout));
    dget(dout, dd, sizeof(dout));
    dget(lout, dl, sizeof(lout));
    for (int i = 0; i < NN; i++) {
        float ax = pts[3 * i], ay = pts[3 * i + 1], az = pts[3 * i + 2];
        float bx = az, by = ax, bz = ay;
        float cx = ay * bz - az * by, cy = az * bx - ax * bz,
              cz = ax * by - ay * bx;
        /* dot3 as nvcc emitted it: fma(z, z, fma(x, x, y * y)) */
        float d = fmaf(cz, az, fmaf(cx, ax, cy * ay)) +
                  fmaf(az, bz, fmaf(ax, bx, ay * by));
        float l0 = d * 0.5f, l1 = cx * 0.5f, l2 = cy * 0.5f, l3 = cz * 0.5f;
        int v = iv[i];
        int s = v + h_classify(v) + h_classify(-v);
        float px = fmaf(d, (float)v, (float)s), py = fmaf(l1, 2.0f, -3.0f);
        EQ_F("calls.f", i, fout[i], l0 + l1 + l2 + l3 + px + py);
        double md = (double)(int8_t)s + s * 0.5;
        md = md + (double)(int16_t)(s * 3);
        md = md + s;
        md = md + (s + 1);
        md = md + (s + 2);
        EQ_D("calls.d", i, dout[i], md);
        uint32_t ab =
            (uint32_t)((int8_t)v + (uint8_t)s + (int16_t)v + (uint16_t)s + v) +
            (uint32_t)s;
        int64_t e = (int64_t)ab + (int64_t)((uint64_t)(int64_t)v << 33) +
                    (int64_t)d + (int64_t)((double)d * 2.0);
        EQ_I("calls.l", i, lout[i], e);
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ misc */

START_TEST(e2e_cp_async_asm)
{
    open_ptx("cp_async");
    rng_seed(241);
    enum { N = 300 };
    static int32_t in[4 * N], out[4 * N];
    for (int i = 0; i < 4 * N; i++)
        in[i] = (int32_t)rnd();
    ptxemu_devptr di = dbuf(in, sizeof(in)), dout = dbuf(NULL, sizeof(out));
    int n = N;
    void *pp[] = {&di, &dout, &n};
    launch("cp_async_asm", 3, 128, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < N; i++) {
        int t = i % 128, j = i - t + 127 - t;
        for (int k = 0; k < 4; k++)
            EQ_I("cp_async_asm", 4 * i + k, out[4 * i + k],
                 j < N ? in[4 * j + 3 - k] : 0);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_cp_async_cuda_pipeline)
{
    open_ptx("cp_async");
    rng_seed(242);
    enum { N = 3 * 128 };
    static double in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = (double)rndf(-5.0f, 5.0f) / 3.0;
    ptxemu_devptr di = dbuf(in, sizeof(in)), dout = dbuf(NULL, sizeof(out));
    int n = N;
    void *pp[] = {&di, &dout, &n};
    launch("cp_async_cuda_pipeline", 3, 128, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < N; i++) {
        int t = i % 128, c0 = i - t;
        EQ_D("cp_async_cuda_pipeline", i, out[i],
             in[i] * 2.0 + in[c0 + (t + 3) % 128]);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_params_small_kernels)
{
    open_ptx("params");
    enum { G = 3 };
    float out[G * 64], o2[G * BS];
    ptxemu_devptr d1 = dbuf(NULL, sizeof(out)), d2 = dbuf(NULL, sizeof(o2));
    void *p1[] = {&d1};
    void *p2[] = {&d2};
    launch("bounds3", G, 64, 0, p1);
    launch("maxnreg_kernel", G, BS, 0, p2);
    launch("empty_kernel", G, BS, 0, NULL);
    dget(out, d1, sizeof(out));
    dget(o2, d2, sizeof(o2));
    for (int i = 0; i < G * 64; i++)
        EQ_F("bounds3", i, out[i], (float)(i % 64));
    for (int i = 0; i < G * (int)BS; i++)
        EQ_F("maxnreg", i, o2[i], 1.0f / (float)(i % (int)BS + 1));
    close_ptx();
}
END_TEST

START_TEST(e2e_addr_2d3d)
{
    open_ptx("addr_arith");
    rng_seed(243);
    enum { NX = 37, NY = 9, NZ = 5, PITCH = 48 * 4 };
    static float vol[NZ * NY * PITCH / 4], out[NX * NY * NZ];
    for (size_t i = 0; i < sizeof(vol) / 4; i++)
        vol[i] = rndf(-1.0f, 1.0f);
    ptxemu_devptr dv = dbuf(vol, sizeof(vol)), dout = dbuf(NULL, sizeof(out));
    int nx = NX, ny = NY, nz = NZ;
    long long pitch = PITCH;
    void *pp[] = {&dv, &dout, &nx, &ny, &nz, &pitch};
    ptxemu_function *f = NULL;
    ck_assert_int_eq(ptxemu_module_get_function(mod, "addr_2d3d", &f),
                     PTXEMU_SUCCESS);
    unsigned grid[3] = {3, 3, 2}, block[3] = {16, 4, 3};
    ck_assert_int_eq(ptxemu_launch(f, grid, block, 0, pp), PTXEMU_SUCCESS);
    dget(out, dout, sizeof(out));
    for (int z = 0; z < NZ; z++)
        for (int y = 0; y < NY; y++)
            for (int x = 0; x < NX; x++) {
                const float *row = vol + (z * NY + y) * (PITCH / 4);
                float c = row[x], l = x > 0 ? row[x - 1] : c,
                      r = x + 1 < NX ? row[x + 1] : c;
                int idx = (z * NY + y) * NX + x;
                EQ_F("addr_2d3d", idx, out[idx],
                     fmaf(c, 0.5f, (l + r) * 0.25f));
            }
    close_ptx();
}
END_TEST

START_TEST(e2e_addr_generic)
{
    open_ptx("addr_arith");
    rng_seed(244);
    static int32_t g[NN], out[NN];
    for (int i = 0; i < NN; i++)
        g[i] = (int32_t)(rnd() % 1000);
    ptxemu_devptr dg = dbuf(g, sizeof(g)), dout = dbuf(NULL, sizeof(out));
    /* 64-thread CTAs: sh[t & 63] = t has one writer per element. */
    int n = 180;
    void *pp[] = {&dg, &dout, &n};
    launch("addr_generic", NB, 64, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < n; i++) {
        int t = i % 64;
        int loc = 0, sh8 = 0, w;
        for (int k = 0; k < 8; k++)
            loc += k * t, sh8 += k; /* sh[k] = k (t & 63 == k) */
        if (i & 1)
            w = g[0] + g[1] + g[2] + g[3];
        else if (i & 2)
            w = 0 + 1 + 2 + 3;
        else
            w = (0 + 1 + 2 + 3) * t;
        EQ_I("addr_generic", i, out[i], w + loc + sh8);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_addr_shared32)
{
    open_ptx("addr_arith");
    rng_seed(245);
    enum { B = 128 };
    static int32_t in[NN], out[NN];
    for (int i = 0; i < NN; i++)
        in[i] = (int32_t)rnd();
    ptxemu_devptr di = dbuf(in, sizeof(in)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&di, &dout, &n};
    launch("addr_shared32", NB, B, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        int t = i % B, c0 = i - t, j = ((t + 1) & 126) + 1;
        EQ_I("addr_shared32", i, out[i], c0 + j < NN ? in[c0 + j] : 0);
    }
    close_ptx();
}
END_TEST

/* ----------------------------------------------------------- scoped, fences */

static void check_scoped_final(const int32_t *ctr, const uint32_t *uctr, int n)
{
    uint32_t an = ~0u, orr = 0, xr = 0, inc = 0, dec = 0;
    for (int i = 0; i < n; i++) {
        an &= ~(uint32_t)i;
        orr |= (uint32_t)i;
        xr ^= (uint32_t)i;
        inc = inc >= 255 ? 0 : inc + 1;
        dec = (dec == 0 || dec > 255) ? 255 : dec - 1;
    }
    EQ_I("ctr", 0, ctr[0], n);
    EQ_I("ctr", 1, ctr[1], -2 * n);
    EQ_I("ctr", 3, ctr[3], 0);
    EQ_I("ctr", 4, ctr[4], n - 1);
    EQ_I("ctr", 6, (uint32_t)ctr[6], an);
    EQ_I("ctr", 7, (uint32_t)ctr[7], orr);
    EQ_I("ctr", 8, (uint32_t)ctr[8], xr);
    EQ_I("uctr", 0, uctr[0], inc);
    EQ_I("uctr", 1, uctr[1], dec);
}

START_TEST(e2e_atomics_scoped)
{
    open_ptx("atomics_scoped");
    int32_t ctr[9] = {0, 0, 0, INT32_MAX, INT32_MIN, 0, -1, 0, 0};
    uint32_t uctr[2] = {0, 0};
    float fctr = 0.0f;
    double dctr = 0.0;
    uint64_t lctr = 0;
    static int32_t out[NN];
    ptxemu_devptr dc = dbuf(ctr, sizeof(ctr)), du = dbuf(uctr, sizeof(uctr)),
                  df = dbuf(&fctr, 4), dl = dbuf(&lctr, 8),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&dc, &du, &df, &dl, &dout, &n};
    launch("atomics_block_scope", NB, BS, 0, pp);
    dget(ctr, dc, sizeof(ctr));
    dget(uctr, du, sizeof(uctr));
    dget(&fctr, df, 4);
    dget(&lctr, dl, 8);
    check_scoped_final(ctr, uctr, NN);
    EQ_F("fctr", 0, fctr, 0.5f * NN);
    EQ_I("lctr", 0, lctr, 3 * NN);

    int32_t c2[9] = {0, 0, 0, INT32_MAX, INT32_MIN, 0, -1, 0, 0};
    uint32_t u2[2] = {0, 0};
    lctr = 0;
    ptxemu_devptr dc2 = dbuf(c2, sizeof(c2)), du2 = dbuf(u2, sizeof(u2)),
                  dd = dbuf(&dctr, 8), dl2 = dbuf(&lctr, 8);
    void *p2[] = {&dc2, &du2, &dd, &dl2, &dout, &n};
    launch("atomics_system_scope", NB, BS, 0, p2);
    dget(c2, dc2, sizeof(c2));
    dget(u2, du2, sizeof(u2));
    dget(&dctr, dd, 8);
    dget(&lctr, dl2, 8);
    check_scoped_final(c2, u2, NN);
    EQ_D("dctr", 0, dctr, 0.25 * NN);
    EQ_I("lctr.max", 0, lctr, NN - 1);
    close_ptx();
}
END_TEST

START_TEST(e2e_atomics_ordered_asm)
{
    open_ptx("atomics_scoped");
    int32_t flag[4] = {0, 0, INT32_MIN, 0};
    static int32_t data[NN], out[NN];
    ptxemu_devptr df = dbuf(flag, sizeof(flag)), dd = dbuf(NULL, sizeof(data)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&df, &dd, &dout, &n};
    launch("atomics_ordered_asm", NB, BS, 0, pp);
    dget(flag, df, sizeof(flag));
    dget(data, dd, sizeof(data));
    EQ_I("flag", 0, flag[0], NN);
    EQ_I("flag", 1, flag[1], 2 * NN);
    EQ_I("flag", 2, flag[2], NN - 1);
    ck_assert_int_ge(flag[3], 0);
    ck_assert_int_lt(flag[3], NN);
    /* the old values of the counter are a permutation of 0..n-1 */
    static uint8_t seen[NN];
    memset(seen, 0, sizeof(seen));
    for (int i = 0; i < NN; i++) {
        ck_assert_msg(data[i] >= 0 && data[i] < NN && !seen[data[i]],
                      "data[%d] = %d", i, data[i]);
        seen[data[i]] = 1;
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_fences)
{
    open_ptx("fences");
    rng_seed(251);
    static int32_t a[WN], out[WN], data[WN], flags[WN];
    for (int i = 0; i < WN; i++)
        a[i] = (int32_t)(rnd() % 100000);
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out)),
                  ddata = dbuf(NULL, sizeof(data)),
                  dfl = dbuf(NULL, sizeof(flags));
    int n = WN;
    void *p1[] = {&da, &dout, &n};
    launch("syncwarp_exchange", NB, WB, 0, p1);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < WN; i++) {
        int l = i & 31, w0 = i - l, src = w0 + ((31 - l + 1) & 31);
        EQ_I("syncwarp_exchange", i, out[i], 2 * (src < WN ? a[src] : 0));
    }
    void *p2[] = {&ddata, &dfl, &dout, &n};
    launch("fence_publish", NB, WB, 0, p2);
    dget(data, ddata, sizeof(data));
    dget(out, dout, sizeof(out));
    for (int i = 0; i < WN; i++) {
        EQ_I("fence_publish.data", i, data[i], 3 * i + 1);
        int p = i ^ 1;
        ck_assert_msg(out[i] == 0 || (p < WN && out[i] == 3 * p + 1),
                      "fence_publish.out[%d] = %d", i, out[i]);
    }
    memcpy(data, a, sizeof(data));
    ptxemu_memcpy_htod(dev, ddata, data, sizeof(data));
    void *p3[] = {&ddata, &n};
    launch("fence_asm", NB, WB, 0, p3);
    dget(data, ddata, sizeof(data));
    for (int i = 0; i < WN; i++)
        EQ_I("fence_asm", i, data[i], (a[i] + 1) * 2);
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ half */

START_TEST(e2e_conv_half)
{
    open_ptx("conv_half");
    rng_seed(261);
    static float a[NN], f[2 * NN];
    static double b[NN];
    static int32_t c[NN], oi[4 * NN];
    static uint16_t h[8 * NN];
    for (int i = 0; i < NN; i++) {
        switch (i % 5) {
        case 0: a[i] = rndf(-70000.0f, 70000.0f); break;
        case 1: a[i] = rndf(-1.0f, 1.0f) * 1e-5f; break; /* subnormal halves */
        case 2: a[i] = (float)((int)(rnd() % 4001) - 2000) * 0.25f; break;
        default: a[i] = rndf(-300.0f, 300.0f); break;
        }
        b[i] = (double)rndf(-2.0f, 2.0f) / 3.0 * (double)(1 << (rnd() % 14));
        c[i] = (int32_t)rnd() >> (rnd() % 32);
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dc = dbuf(c, sizeof(c)), dh = dbuf(NULL, sizeof(h)),
                  df = dbuf(NULL, sizeof(f)), doi = dbuf(NULL, sizeof(oi));
    int n = NN;
    void *pp[] = {&da, &db, &dc, &dh, &df, &doi, &n};
    launch("conv_half", NB, BS, 0, pp);
    dget(h, dh, sizeof(h));
    dget(f, df, sizeof(f));
    dget(oi, doi, sizeof(oi));
    for (int i = 0; i < NN; i++) {
        double x = a[i];
        uint16_t e[8] = {half_bits(x, RN),
                         half_bits(x, RZ),
                         half_bits(x, RD),
                         half_bits(x, RU),
                         half_bits(b[i], RN),
                         half_bits((double)c[i], RN),
                         half_bits((double)(uint32_t)c[i], RZ),
                         half_bits((double)(int16_t)c[i], RD)};
        for (int k = 0; k < 8; k++)
            EQ_I("conv_half.h", 8 * i + k, h[8 * i + k], e[k]);
        float hx = half_to_float(e[0]);
        EQ_F("conv_half.f0", i, f[2 * i], hx);
        float qy = half_to_float(half_bits((double)(float)b[i], RN));
        EQ_F("conv_half.f1", i, f[2 * i + 1], hx - qy);
        double d = hx;
        EQ_I("conv_half.i0", i, oi[4 * i], (int32_t)sat_s(d, RN, 32));
        EQ_I("conv_half.i1", i, (uint32_t)oi[4 * i + 1],
             (uint32_t)sat_s(d, RZ, 32) + (uint32_t)sat_s(d, RD, 32) +
                 (uint32_t)sat_s(d, RU, 32));
        EQ_I("conv_half.i2", i, (uint32_t)oi[4 * i + 2],
             (uint32_t)sat_u(d, RZ, 32) + (uint32_t)sat_s(d, RN, 16) +
                 (uint32_t)sat_u(d, RZ, 64));
        EQ_I("conv_half.i3", i, (uint32_t)oi[4 * i + 3],
             (uint32_t)e[0] + (uint32_t)sat_s(d, RZ, 64));
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_conv_bf16)
{
    open_ptx("conv_half");
    rng_seed(262);
    static float a[NN], f[2 * NN];
    static double b[NN];
    static int32_t c[NN], oi[2 * NN];
    static uint16_t h[8 * NN];
    for (int i = 0; i < NN; i++) {
        a[i] = (i % 3 == 0) ? rndf(-1e6f, 1e6f) : rndf(-300.0f, 300.0f);
        b[i] = (double)rndf(-2.0f, 2.0f); /* float-exact doubles */
        /* at most 24 significant bits: exact in float */
        c[i] = (int32_t)(rnd() & ~0xffu) >> (rnd() % 32);
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dc = dbuf(c, sizeof(c)), dh = dbuf(NULL, sizeof(h)),
                  df = dbuf(NULL, sizeof(f)), doi = dbuf(NULL, sizeof(oi));
    int n = NN;
    void *pp[] = {&da, &db, &dc, &dh, &df, &doi, &n};
    launch("conv_bf16", NB, BS, 0, pp);
    dget(h, dh, sizeof(h));
    dget(f, df, sizeof(f));
    dget(oi, doi, sizeof(oi));
    for (int i = 0; i < NN; i++) {
        double x = a[i];
        uint16_t ei = bf16_bits((double)c[i], RN);
        /* truncating twice is truncating once */
        uint16_t eu = bf16_bits((double)f_of_u64((uint32_t)c[i], RZ), RZ);
        uint16_t e[8] = {bf16_bits(x, RN),
                         bf16_bits(x, RZ),
                         bf16_bits(x, RD),
                         bf16_bits(x, RU),
                         bf16_bits(b[i], RN),
                         ei,
                         eu,
                         bf16_bits((double)(a[i] * 2.0f), RN)};
        for (int k = 0; k < 8; k++)
            EQ_I("conv_bf16.h", 8 * i + k, h[8 * i + k], e[k]);
        float bx = bf16_to_float(e[0]);
        EQ_F("conv_bf16.f0", i, f[2 * i], bx);
        EQ_F("conv_bf16.f1", i, f[2 * i + 1],
             bx * bf16_to_float(bf16_bits(b[i], RN)));
        double d = bx;
        EQ_I("conv_bf16.i0", i, (uint32_t)oi[2 * i],
             (uint32_t)sat_s(d, RN, 32) + (uint32_t)sat_s(d, RZ, 32));
        EQ_I("conv_bf16.i1", i, (uint32_t)oi[2 * i + 1],
             (uint32_t)e[0] + (uint32_t)sat_s(d, RD, 16));
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_f64_libm)
{
    open_ptx("f64_math");
    rng_seed(271);
    static double a[NN], out[NN];
    for (int i = 0; i < NN; i++)
        a[i] = (double)rndf(-50.0f, 50.0f) / 3.0;
    ptxemu_devptr da = dbuf(a, sizeof(a)), dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &dout, &n};
    launch("f64_libm", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        /* CUDA's double functions are within 1-2 ulp; six terms summed. */
        double x = a[i],
               t[6] = {exp(x * 0.01), log(fabs(x) + 1.0), sin(x),
                       tanh(x),       exp2(x * 0.125),    pow(fabs(x), 0.5)};
        double s = 0, mag = 0;
        for (int k = 0; k < 6; k++) {
            s += t[k];
            mag = fabs(s) > mag ? fabs(s) : mag;
            mag = fabs(t[k]) > mag ? fabs(t[k]) : mag;
        }
        double tol = mag * 16 * 0x1p-52;
        ck_assert_msg(fabs(out[i] - s) <= tol,
                      "f64_libm[%d] x=%.17g: got %.17g, expected %.17g", i, x,
                      out[i], s);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_half_compare)
{
    open_ptx("fp16_arith");
    rng_seed(281);
    static const uint16_t pool[] = {0x0000, 0x8000, 0x3c00, 0xbc00,
                                    0x7c00, 0xfc00, 0x7e00, 0x3c01,
                                    0x0001, 0x7bff, 0x4000, 0xc000};
    enum { P = sizeof(pool) / sizeof(pool[0]) };
    static uint16_t a[NN], b[NN], c[2 * NN], d[2 * NN];
    static uint32_t out[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = pool[rnd() % P];
        b[i] = (rnd() % 3 == 0) ? a[i] : pool[rnd() % P];
        c[2 * i] = pool[rnd() % P];
        c[2 * i + 1] = pool[rnd() % P];
        d[2 * i] = (rnd() % 3 == 0) ? c[2 * i] : pool[rnd() % P];
        d[2 * i + 1] = (rnd() % 3 == 0) ? c[2 * i + 1] : pool[rnd() % P];
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dc = dbuf(c, sizeof(c)), dd = dbuf(d, sizeof(d)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dc, &dd, &dout, &n};
    launch("half_compare", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        float x = half_to_float(a[i]), y = half_to_float(b[i]);
        float p0 = half_to_float(c[2 * i]), p1 = half_to_float(c[2 * i + 1]);
        float q0 = half_to_float(d[2 * i]), q1 = half_to_float(d[2 * i + 1]);
        int un = x != x || y != y;
        uint32_t e = 0;
        e |= (uint32_t)(x == y) << 0;
        e |= (uint32_t)(!un && x != y) << 1;
        e |= (uint32_t)(x < y) << 2;
        e |= (uint32_t)(x <= y) << 3;
        e |= (uint32_t)(x > y) << 4;
        e |= (uint32_t)(x >= y) << 5;
        e |= (uint32_t)(un || x == y) << 6;
        e |= (uint32_t)(un || x < y) << 7;
        e |= (uint32_t)(x != x) << 8;
        e |= (uint32_t)(isinf(y) != 0) << 9;
        e |= (uint32_t)(p0 == q0 && p1 == q1) << 10;
        e |= (uint32_t)(p0 < q0 && p1 < q1) << 11;
        e |= (uint32_t)(!(p0 < q0) && !(p1 < q1)) << 12; /* unordered >= */
        e |= (uint32_t)(p0 > q0) << 13;
        e |= (uint32_t)(p1 == p1 && q1 == q1 && p1 != q1) << 14;
        e |= (uint32_t)(p0 != p0) << 15;
        e |= (p0 > q0 ? 0xffu : 0u) << 16;
        e |= (p1 <= q1 ? 0xffu : 0u) << 24;
        EQ_I("half_compare", i, out[i], e);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_half2_dot)
{
    open_ptx("fp16_arith");
    rng_seed(282);
    /* small integers and halves: every product and partial sum is exact
     * in f16, so the fma's rounding cannot differ from the reference */
    static uint16_t a[16 * NN], b[16 * NN];
    static float out[NN];
    for (int i = 0; i < 16 * NN; i++) {
        a[i] = half_bits((double)((int)(rnd() % 9) - 4) * 0.5, RN);
        b[i] = half_bits((double)((int)(rnd() % 9) - 4), RN);
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  dout = dbuf(NULL, sizeof(out));
    int n = NN;
    void *pp[] = {&da, &db, &dout, &n};
    launch("half2_dot", NB, BS, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        float lo = 0.0f, hi = 0.0f;
        for (int k = 0; k < 8; k++) {
            int j = 2 * (i * 8 + k);
            lo = half_to_float(half_bits(
                (double)fmaf(half_to_float(a[j]), half_to_float(b[j]), lo),
                RN));
            hi = half_to_float(
                half_bits((double)fmaf(half_to_float(a[j + 1]),
                                       half_to_float(b[j + 1]), hi),
                          RN));
        }
        EQ_F("half2_dot", i, out[i], lo + hi);
    }
    close_ptx();
}
END_TEST

START_TEST(e2e_conv_half_bf16)
{
    open_ptx("conv_half");
    rng_seed(291);
    static uint16_t a[NN], b[NN], oh[NN], ob[NN];
    for (int i = 0; i < NN; i++) {
        a[i] = (uint16_t)rnd();
        b[i] = (uint16_t)rnd();
        if ((a[i] & 0x7c00) == 0x7c00)
            a[i] &= 0xbfff; /* no inf/NaN */
        if ((b[i] & 0x7f80) == 0x7f80)
            b[i] &= 0xbfff;
    }
    ptxemu_devptr da = dbuf(a, sizeof(a)), db = dbuf(b, sizeof(b)),
                  doh = dbuf(NULL, sizeof(oh)), dob = dbuf(NULL, sizeof(ob));
    int n = NN;
    void *pp[] = {&da, &db, &doh, &dob, &n};
    launch("conv_half_bf16", NB, BS, 0, pp);
    dget(oh, doh, sizeof(oh));
    dget(ob, dob, sizeof(ob));
    for (int i = 0; i < NN; i++) {
        EQ_I("bf16->half", i, oh[i],
             half_bits((double)bf16_to_float(b[i]), RN));
        EQ_I("half->bf16", i, ob[i],
             bf16_bits((double)half_to_float(a[i]), RN));
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------------------ suite */

/* Corpus kernels not run here, and why (printed by main). */
static const char *const skipped[] = {
    /* each runs in its own test program */
    "printf.printf_kernel, malloc.heap_list, malloc.heap_buffer: covered "
    "by tests/check_builtins.c (exact output text)",
    "tma_bulk: sm_90 only (no sm80 PTX): tests/check_e2e_tma.c",
    "wgmma_sm90a: sm_90a only (no sm80 PTX): tests/check_e2e_wgmma.c",
    "dyn_parallel: needs -rdc=true (device-side launches): "
    "tests/check_e2e_cdp.c",
    "cdp_runtime: needs -rdc=true (device runtime queries, memcpy and "
    "memset into streams): tests/check_e2e_cdp.c",
    NULL};

Suite *e2e_suite(void);

Suite *e2e_suite(void)
{
    Suite *s = suite_create("e2e");
    TCase *tc = tcase_create("corpus");
    tcase_set_timeout(tc, 120);
    /* Runs even when a test fails (no leak under CK_FORK=no). */
    tcase_add_checked_fixture(tc, NULL, close_ptx);
    const TTest *const tests[] = {
        e2e_int_arith_s32,
        e2e_int_arith_u32,
        e2e_int_arith_64,
        e2e_int_arith_wide,
        e2e_int_div_const,
        e2e_int_bits64,
        e2e_int_bits_asm,
        e2e_atomics_int,
        e2e_atomics_uint,
        e2e_atomics_u64,
        e2e_atomics_fp,
        e2e_atomics_cas_loop,
        e2e_shared_histogram,
        e2e_shared_atomic_mix,
        e2e_warp_shuffle_basic,
        e2e_warp_shuffle_types,
        e2e_warp_shuffle_partial,
        e2e_warp_shuffle_pred,
        e2e_warp_vote,
        e2e_warp_match,
        e2e_warp_redux,
        e2e_warp_redux_partial,
        e2e_block_sum,
        e2e_transpose_tiled,
        e2e_stencil_1d,
        e2e_dyn_shared_scan,
        e2e_local_array,
        e2e_local_sort,
        e2e_local_asm,
        e2e_const_poly,
        e2e_const_lut,
        e2e_globals_read,
        e2e_recursion,
        e2e_tree,
        e2e_inversions,
        e2e_divergent_branches,
        e2e_loops_break_continue,
        e2e_nested_loops,
        e2e_goto_state_machine,
        e2e_selects,
        e2e_interpreter,
        e2e_switch_direct,
        e2e_indirect_unary,
        e2e_indirect_binary,
        e2e_virtual_dispatch,
        e2e_u128_ops,
        e2e_s128_ops,
        e2e_add256_carry,
        e2e_carry_chain64,
        e2e_barrier_reductions,
        e2e_named_barriers,
        e2e_barrier_red_asm,
        e2e_vec_float4,
        e2e_vec_int2_double2,
        e2e_vec_small_types,
        e2e_vec_param,
        e2e_vec_shared,
        e2e_saxpy,
        e2e_reduce_templates,
        e2e_dots,
        e2e_scale_kernel,
        e2e_cp_async_primitives,
        e2e_cp_async_small,
        e2e_cp_async_cg,
        e2e_struct_by_value,
        e2e_many_params,
        e2e_big_params,
        e2e_conv_float_to_int,
        e2e_conv_double_to_x,
        e2e_conv_int_to_float,
        e2e_conv_int_widths,
        e2e_conv_bits,
        e2e_f32_classify,
        e2e_f32_libm,
        e2e_shared_types,
        e2e_dyn_shared_multi,
        e2e_dyn_shared_generic,
        e2e_globals_write,
        e2e_warp_activemask,
        e2e_atomics_red_asm,
        e2e_f64_classify,
        e2e_cg_block_tiles,
        e2e_cg_dynamic_tiles,
        e2e_cg_coalesced,
        e2e_int_bits32,
        e2e_calls,
        e2e_cp_async_asm,
        e2e_cp_async_cuda_pipeline,
        e2e_params_small_kernels,
        e2e_addr_2d3d,
        e2e_addr_generic,
        e2e_addr_shared32,
        e2e_atomics_scoped,
        e2e_atomics_ordered_asm,
        e2e_fences,
        e2e_conv_half,
        e2e_conv_bf16,
        e2e_f64_libm,
        e2e_half_compare,
        e2e_half2_dot,
        e2e_conv_half_bf16,
    };
    for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
        tcase_add_test(tc, tests[i]);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    for (size_t i = 0; skipped[i]; i++)
        printf("SKIP %s\n", skipped[i]);
    SRunner *sr = srunner_create(e2e_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
