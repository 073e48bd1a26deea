/*
 * tests/check_e2e_wgmma.c: end-to-end runs of the Hopper corpus kernels
 * of tests/corpus/cu/wgmma_sm90a.cu (PTX from nvcc 13 for sm_90a in
 * tests/corpus/ptx/wgmma_sm90a.sm90.ptx) with host references.
 *
 *  - wgmma_m64n8k16: one warpgroup, D (64 x 8, f32) = A (64 x 16, f16,
 *    row-major) * B, with B given as 16 x 8 row-major halves that the
 *    kernel copies verbatim into a no-swizzle K-major tile (descriptor
 *    LBO 128, SBO 256).  The expected D is derived here from the PTX ISA
 *    alone: the core-matrix addressing of 9.7.15.5.1.2 says which
 *    element of the flat arrays each (row, k) of A and (k, n) of B is,
 *    and the register fragment figure of D (9.7.15.5.1.1: warp w holds
 *    rows 16w + l/4 and 16w + l/4 + 8, columns 2(l%4), 2(l%4) + 1) says
 *    where thread t's d0 .. d3 land.  Inputs are small integers, so every
 *    sum is exact under any accumulation order.
 *  - setmaxnreg_specialised: warpgroup 0 stages the input in shared
 *    memory and arrives on barrier 1, warpgroup 1 waits there and
 *    computes acc = fma(acc, 0.5, v * k) for k = 0 .. 31 (single f32
 *    roundings reproduced with fmaf on the host).
 */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/ptxemu.h"

#include "tests/e2e_util.h"

static void open_ptx90(const char *base)
{
    const char *top = getenv("top_srcdir");
    char path[1024];
    snprintf(path, sizeof(path), "%s/tests/corpus/ptx/%s.sm90.ptx",
             top ? top : ".", base);
    e2e_device();
    ptxemu_status st = ptxemu_module_load_file(dev, path, &mod);
    ck_assert_msg(st == PTXEMU_SUCCESS, "loading %s: %s", path,
                  ptxemu_last_error_message(dev));
}

/* f16 bits of a small integer (|v| < 2048). */
static uint16_t h_int(int v)
{
    if (v == 0)
        return 0;
    uint16_t s = v < 0 ? 0x8000 : 0;
    unsigned a = (unsigned)(v < 0 ? -v : v), e = 0;
    while ((a >> e) > 1)
        e++;
    unsigned m = (a << (10 - e)) & 0x3ff;
    return (uint16_t)(s | ((e + 15) << 10) | m);
}

/* Byte offset of element (mn, k) of a no-swizzle K-major f16 operand
 * with LBO/SBO in bytes: 8 x 8 core matrices of 128 contiguous bytes
 * (row r at 16 r, 8 halves of K per row), LBO apart along K, SBO apart
 * along MN (ISA 9.7.15.5.1.2, matrix descriptor LBO/SBO). */
static unsigned kmajor_off(unsigned mn, unsigned k, unsigned lbo,
                           unsigned sbo)
{
    return (mn / 8) * sbo + (k / 8) * lbo + (mn % 8) * 16 + (k % 8) * 2;
}

START_TEST(e2e_wgmma_m64n8k16)
{
    open_ptx90("wgmma_sm90a");
    uint16_t A[64 * 16], B[16 * 8];
    int av[64 * 16], bv[16 * 8];
    rng_seed(90);
    for (int i = 0; i < 64 * 16; i++) {
        av[i] = (int)(rnd() % 17) - 8;
        A[i] = h_int(av[i]);
    }
    for (int i = 0; i < 16 * 8; i++) {
        bv[i] = (int)(rnd() % 17) - 8;
        B[i] = h_int(bv[i]);
    }
    /* the kernel copies A and B verbatim into sa / sb and describes both
     * with LBO 128, SBO 256: logical A(m, k) is the half at byte
     * kmajor_off(m, k) of the array, B(k, n) the one at kmajor_off(n, k) */
    double Am[64][16], Bm[16][8];
    for (unsigned m = 0; m < 64; m++)
        for (unsigned k = 0; k < 16; k++)
            Am[m][k] = av[kmajor_off(m, k, 128, 256) / 2];
    for (unsigned k = 0; k < 16; k++)
        for (unsigned n = 0; n < 8; n++)
            Bm[k][n] = bv[kmajor_off(n, k, 128, 256) / 2];
    ptxemu_devptr da = dbuf(A, sizeof(A)), db = dbuf(B, sizeof(B));
    ptxemu_devptr dd = dbuf(NULL, 128 * 4 * sizeof(float));
    void *pp[] = {&da, &db, &dd};
    launch("wgmma_m64n8k16", 1, 128, 0, pp);
    float D[128 * 4];
    dget(D, dd, sizeof(D));
    int nonzero = 0;
    for (unsigned t = 0; t < 128; t++) {
        unsigned w = t / 32, l = t % 32;
        for (unsigned i = 0; i < 4; i++) {
            unsigned row = 16 * w + l / 4 + (i >= 2 ? 8 : 0);
            unsigned col = 2 * (l % 4) + (i & 1);
            double s = 0;
            for (unsigned k = 0; k < 16; k++)
                s += Am[row][k] * Bm[k][col];
            nonzero += s != 0;
            EQ_F("D", t * 4 + i, D[t * 4 + i], (float)s);
        }
    }
    ck_assert_int_gt(nonzero, 400);
    close_ptx();
}
END_TEST

START_TEST(e2e_setmaxnreg_specialised)
{
    open_ptx90("wgmma_sm90a");
    enum { N = 300, GRID = 3 };
    float in[N], out[GRID * 128];
    rng_seed(7);
    for (int i = 0; i < N; i++)
        in[i] = rndf(-4.0f, 4.0f);
    ptxemu_devptr di = dbuf(in, sizeof(in));
    ptxemu_devptr dout = dbuf(NULL, sizeof(out));
    int n = N;
    void *pp[] = {&di, &dout, &n};
    launch("setmaxnreg_specialised", GRID, 256, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < GRID * 128; i++) {
        if (i >= N) {
            EQ_F("out (untouched)", i, out[i], 0.0f);
            continue;
        }
        float acc = 0.0f;
        for (int k = 0; k < 32; k++)
            acc = fmaf(acc, 0.5f, in[i] * (float)k);
        EQ_F("out", i, out[i], acc);
    }
    close_ptx();
}
END_TEST

/* A block size that is not a multiple of 128 leaves warp 4's warpgroup
 * short: a located illegal-instruction error, not a wrong answer. */
START_TEST(e2e_wgmma_partial_warpgroup)
{
    open_ptx90("wgmma_sm90a");
    float in[64] = {0};
    ptxemu_devptr di = dbuf(in, sizeof(in));
    ptxemu_devptr dout = dbuf(NULL, sizeof(in));
    int n = 64;
    void *pp[] = {&di, &dout, &n};
    ptxemu_function *f = NULL;
    ck_assert_int_eq(ptxemu_module_get_function(mod,
                                                "setmaxnreg_specialised",
                                                &f), PTXEMU_SUCCESS);
    unsigned grid[3] = {1, 1, 1}, block[3] = {160, 1, 1};
    ptxemu_status st = ptxemu_launch(f, grid, block, 0, pp);
    if (st == PTXEMU_SUCCESS)
        st = ptxemu_synchronize(dev);
    ck_assert_int_ne(st, PTXEMU_SUCCESS);
    const char *msg = ptxemu_last_error_message(dev);
    ck_assert_msg(strstr(msg, "setmaxnreg") &&
                  strstr(msg, "multiple of 128") &&
                  strstr(msg, "wgmma_sm90a.sm90.ptx:"), "message: %s", msg);
    close_ptx();
}
END_TEST

static Suite *e2e_wgmma_suite(void)
{
    Suite *s = suite_create("e2e_wgmma");
    TCase *tc = tcase_create("corpus");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, NULL, close_ptx);
    tcase_add_test(tc, e2e_wgmma_m64n8k16);
    tcase_add_test(tc, e2e_setmaxnreg_specialised);
    tcase_add_test(tc, e2e_wgmma_partial_warpgroup);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(e2e_wgmma_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
