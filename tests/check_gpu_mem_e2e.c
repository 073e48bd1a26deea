/*
 * tests/check_gpu_mem_e2e.c: the `gpu` model's `hier` memory system
 * driven by real PTX on the emulator (timing/session.h): what a kernel
 * asks of the memory system reaches it and changes what the caches keep,
 * counted in the statistics of the kernel (TmKernelStats.json).
 *
 * Each kernel here is one thread whose loads are chained (each address
 * adds the value the previous load read, 0), so they reach the caches
 * one at a time in program order and the hit/miss sequence follows from
 * the cache geometry alone, worked out by hand at each test.
 */
#include <check.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/exec.h"
#include "tests/emutest.h"
#include "timing/session.h"

/* One SM, one memory partition, the L1 data cache one set of two
 * 128-byte ways (LRU), the L2 slice at its defaults unless a test says
 * otherwise.  The kernel's parameter is read through the constant cache,
 * whose miss is one more L2 access (a line of its own). */
static const char *const base_set[] = {
    "mem.model=hier", "mem.parts=1", "l1d.sets=1", "l1d.ways=2",
};
#define NBASE (sizeof base_set / sizeof base_set[0])

typedef struct Run {
    EmuDevice *d;
    EmuModule *m;
    TmSession *s;
} Run;

static void run_open(Run *r, const char *ptx, const char *const *extra,
                     size_t nextra)
{
    const char *set[32];
    size_t n = 0;
    for (size_t k = 0; k < NBASE; k++) {
        set[n++] = base_set[k];
    }
    for (size_t k = 0; k < nextra; k++) {
        ck_assert(n < 32);
        set[n++] = extra[k];
    }
    EmuConfig c;
    emu_config_default(&c);
    c.num_sms = 1;
    r->d = emu_device_new(&c);
    ck_assert_ptr_nonnull(r->d);
    r->m = mod_load(r->d, ptx);
    char err[512] = "";
    ck_assert_msg(tm_session_open(r->d, "gpu", NULL, set, n, &r->s, err,
                                  sizeof err) == 0,
                  "open: %s", err);
}

static void run_close(Run *r)
{
    tm_session_close(r->s);
    emu_module_free(r->m);
    emu_device_free(r->d);
}

/* Launch `name` (grid x block threads) timed; returns the launch so the
 * caller may set its fields first when prep is given. */
static void run_kernel_timed(Run *r, const char *name, uint32_t grid,
                             uint32_t block, void **args,
                             void (*prep)(EmuLaunch *, void *), void *ctx)
{
    EmuFunc *k = emu_module_kernel(r->m, name);
    ck_assert_ptr_nonnull(k);
    uint32_t g[3] = {grid, 1, 1}, b[3] = {block, 1, 1};
    EmuLaunch *l;
    ck_assert_int_eq(emu_launch_begin(r->m, k, g, b, 0, args, &l), EMU_OK);
    if (prep) {
        prep(l, ctx);
    }
    tm_session_attach(r->s, l);
    ck_assert_int_eq(emu_launch_run(l), EMU_OK);
    emu_launch_end(l);
}

/* Counter `name` of kernel k (0-based) in the session's statistics. */
static uint64_t stat_of(Run *r, size_t k, const char *name)
{
    const TmKernelStats *ks;
    size_t n = tm_session_kernels(r->s, &ks);
    ck_assert_uint_gt(n, k);
    char key[160];
    snprintf(key, sizeof key, "\"%s\": ", name);
    const char *p = strstr(ks[k].json, key);
    ck_assert_msg(p != NULL, "no %s in %s", name, ks[k].json);
    return strtoull(p + strlen(key), NULL, 10);
}

/* ---- cache operators from PTX to the caches ---- */

/* Four chained loads of lines A (+0), B (+128), C (+256), A; the
 * operator of the load of B is OP (a macro argument, "" or ".cs"). */
#define CHAIN4(name, op)                                                   \
    ".visible .entry " name "(.param .u64 p)\n{\n"                        \
    "  .reg .b32 %r<5>;\n  .reg .b64 %rd<12>;\n"                          \
    "  ld.param.u64 %rd1, [p];\n"                                         \
    "  ld.global.u32 %r1, [%rd1];\n"                                      \
    "  cvt.u64.u32 %rd2, %r1;\n  add.s64 %rd3, %rd1, %rd2;\n"             \
    "  ld.global" op ".u32 %r2, [%rd3+128];\n"                            \
    "  cvt.u64.u32 %rd4, %r2;\n  add.s64 %rd5, %rd1, %rd4;\n"             \
    "  ld.global.u32 %r3, [%rd5+256];\n"                                  \
    "  cvt.u64.u32 %rd6, %r3;\n  add.s64 %rd7, %rd1, %rd6;\n"             \
    "  ld.global.u32 %r4, [%rd7];\n"                                      \
    "  ret;\n}\n"

/* Two chained loads of line A, both with operator OP. */
#define CHAIN2(name, op)                                                   \
    ".visible .entry " name "(.param .u64 p)\n{\n"                        \
    "  .reg .b32 %r<3>;\n  .reg .b64 %rd<4>;\n"                           \
    "  ld.param.u64 %rd1, [p];\n"                                         \
    "  ld.global" op ".u32 %r1, [%rd1];\n"                                \
    "  cvt.u64.u32 %rd2, %r1;\n  add.s64 %rd3, %rd1, %rd2;\n"             \
    "  ld.global" op ".u32 %r2, [%rd3];\n"                                \
    "  ret;\n}\n"

static const char *hint_ptx =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    CHAIN4("plain4", "") CHAIN4("cs4", ".cs")
    CHAIN2("plain2", "") CHAIN2("cg2", ".cg");

static uint64_t hint_buf(Run *r)
{
    uint64_t a = dev_alloc(r->d, 4096);
    /* line-aligned, zero: the chains add 0 */
    ck_assert_uint_eq(a % 128, 0);
    uint8_t z[512] = {0};
    emu_mem_write(r->d->mem, a, z, sizeof z);
    return a;
}

/* One kernel timed on a fresh device and session (cold caches). */
static void run_one(Run *r, const char *name, const char *const *extra,
                    size_t nextra)
{
    run_open(r, hint_ptx, extra, nextra);
    uint64_t a = hint_buf(r);
    void *args[] = {&a};
    run_kernel_timed(r, name, 1, 1, args, NULL, NULL);
}

/* L1: one set of two ways, LRU.  Plain: A miss, B miss, C miss evicts
 * A (least recently used), A miss: 4 misses, 0 hits.  With ld.global.cs
 * for B (PTX ISA, "Cache Operators": .cs "evict first"), B is installed
 * as its set's next victim, so C evicts B and the last A hits: 3 misses
 * and 1 hit, and the L2 sees one access fewer (the parameter's line, A,
 * B, C: 4 against 5). */
START_TEST(cs_evict_first_reaches_l1)
{
    Run r;
    run_one(&r, "plain4", NULL, 0);
    ck_assert_uint_eq(stat_of(&r, 0, "mem.l1d.access"), 4);
    ck_assert_uint_eq(stat_of(&r, 0, "mem.l1d.hit"), 0);
    ck_assert_uint_eq(stat_of(&r, 0, "mem.l1d.miss"), 4);
    ck_assert_uint_eq(stat_of(&r, 0, "mem.l2.access"), 5);
    run_close(&r);
    run_one(&r, "cs4", NULL, 0);
    ck_assert_uint_eq(stat_of(&r, 0, "mem.l1d.access"), 4);
    ck_assert_uint_eq(stat_of(&r, 0, "mem.l1d.hit"), 1);
    ck_assert_uint_eq(stat_of(&r, 0, "mem.l1d.miss"), 3);
    ck_assert_uint_eq(stat_of(&r, 0, "mem.l2.access"), 4);
    run_close(&r);
}
END_TEST

/* .cs evicts first in the L2 as well.  With the L1 bypassed for
 * everything (l1d off is GT200's layout; here mem.l1d = false) and an
 * L2 of one set of two ways, the chain A, B, C, A: the parameter's line
 * (a constant read, its own L1 cache) and A fill the set; B misses and
 * evicts the parameter's line; C misses and evicts A, the least recently
 * used; A misses: 5 misses (param, A, B, C, A), 0 hits.  With .cs for
 * B, B is the set's next victim: C evicts B, and A hits: 4 misses, 1
 * hit. */
START_TEST(cs_evict_first_reaches_l2)
{
    static const char *const l2small[] = {"mem.l1d=false", "l2.sets=1",
                                          "l2.ways=2"};
    Run r;
    run_one(&r, "plain4", l2small, 3);
    ck_assert_uint_eq(stat_of(&r, 0, "mem.l2.access"), 5);
    ck_assert_uint_eq(stat_of(&r, 0, "mem.l2.hit"), 0);
    ck_assert_uint_eq(stat_of(&r, 0, "mem.l2.miss"), 5);
    run_close(&r);
    run_one(&r, "cs4", l2small, 3);
    ck_assert_uint_eq(stat_of(&r, 0, "mem.l2.access"), 5);
    ck_assert_uint_eq(stat_of(&r, 0, "mem.l2.hit"), 1);
    ck_assert_uint_eq(stat_of(&r, 0, "mem.l2.miss"), 4);
    run_close(&r);
}
END_TEST

/* ld.global.cg ("cache global": in L2, not L1): two loads of A.  Plain:
 * L1 miss then hit; the L2 sees the parameter's line and A, both
 * misses.  With .cg both loads go around the L1 (each counted an L1
 * access and miss, nothing allocated) and the L2 sees them both: a
 * miss, then a hit. */
START_TEST(cg_goes_around_l1)
{
    Run r;
    run_one(&r, "plain2", NULL, 0);
    ck_assert_uint_eq(stat_of(&r, 0, "mem.l1d.hit"), 1);
    ck_assert_uint_eq(stat_of(&r, 0, "mem.l1d.miss"), 1);
    ck_assert_uint_eq(stat_of(&r, 0, "mem.l2.access"), 2);
    ck_assert_uint_eq(stat_of(&r, 0, "mem.l2.hit"), 0);
    run_close(&r);
    run_one(&r, "cg2", NULL, 0);
    ck_assert_uint_eq(stat_of(&r, 0, "mem.l1d.hit"), 0);
    ck_assert_uint_eq(stat_of(&r, 0, "mem.l1d.miss"), 2);
    ck_assert_uint_eq(stat_of(&r, 0, "mem.l2.access"), 3);
    ck_assert_uint_eq(stat_of(&r, 0, "mem.l2.hit"), 1);
    run_close(&r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gpu_mem_e2e");
    TCase *t = tcase_create("hints");
    tcase_add_test(t, cs_evict_first_reaches_l1);
    tcase_add_test(t, cs_evict_first_reaches_l2);
    tcase_add_test(t, cg_goes_around_l1);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
