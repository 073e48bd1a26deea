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
#include "tests/gpu_mem_kernels.h"
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
    static const uint8_t z[4096];
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

/* ---- the access-policy window and the L2's persisting set-aside ---- */


/* The L2 of these tests: one partition of one set of four 128-byte
 * ways (LRU); no L1, so every load reaches it (mem.l1d = false). */
static const char *const l2_1x4[] = {"mem.l1d=false", "l2.sets=1",
                                     "l2.ways=4"};

typedef struct ApwRun {
    Run r;
    uint64_t s, w;
    uint32_t n;
} ApwRun;

static void apw_open(ApwRun *a)
{
    run_open(&a->r, apw_ptx, l2_1x4, 3);
    a->n = 6;
    a->s = hint_buf(&a->r);     /* 4 KB of zeros: 12 stream lines */
    a->w = hint_buf(&a->r);
}

static void set_window(EmuLaunch *l, void *ctx)
{
    const EmuAccessWindow *w = ctx;
    l->apw = *w;
}

static void apw_kernel(ApwRun *a, const EmuAccessWindow *w)
{
    void *args[] = {&a->s, &a->w, &a->n};
    run_kernel_timed(&a->r, "sw", 1, 1, args, w ? set_window : NULL,
                     (void *)w);
}

/* The window's two lines, persisting for every access (hitRatio 1). */
static EmuAccessWindow window_of(const ApwRun *a)
{
    EmuAccessWindow w = {a->w, 256, 1.0f, 2 /* persisting */,
                         1 /* streaming */};
    return w;
}

/* Without a window, in a set of 4 LRU ways: the parameters' line (a
 * constant read: normal) then P, S0, S1, W0, S2, S3, W1, S4, S5, W0 ...
 * Between two reads of W0 come 5 other lines (S, S, W1, S, S), more
 * than the 3 a 4-way LRU set keeps: every access misses, 1 + 3 x 6 =
 * 19 accesses, 0 hits. */
START_TEST(no_window_misses)
{
    ApwRun a;
    apw_open(&a);
    apw_kernel(&a, NULL);
    ck_assert_uint_eq(stat_of(&a.r, 0, "mem.l2.access"), 19);
    ck_assert_uint_eq(stat_of(&a.r, 0, "mem.l2.hit"), 0);
    run_close(&a.r);
}
END_TEST

/* cudaLimitPersistingL2CacheSize = 256 bytes: 256 / (1 partition x 1
 * set x 128 bytes) = 2 ways of the set are set aside.  W0 and W1 are
 * persisting: P, S0, S1 fill three ways and W0 the fourth; S2 and S3
 * take their victims among the normal lines (P, then S0), W1 among the
 * normal ones too (the set-aside holds 1 < 2): S1.  From then on the
 * stream cycles through the two normal ways and W0, W1 stay: of the 6
 * window reads the first two miss and 4 hit. */
START_TEST(window_persists_in_setaside)
{
    ApwRun a;
    apw_open(&a);
    a.r.d->l2_persist_bytes = 256;
    EmuAccessWindow w = window_of(&a);
    apw_kernel(&a, &w);
    ck_assert_uint_eq(stat_of(&a.r, 0, "mem.l2.access"), 19);
    ck_assert_uint_eq(stat_of(&a.r, 0, "mem.l2.hit"), 4);
    ck_assert_uint_eq(stat_of(&a.r, 0, "mem.l2.miss"), 15);
    run_close(&a.r);
}
END_TEST

/* No set-aside (the limit's default 0): persisting accesses are normal
 * ones, and the window changes nothing; a set-aside smaller than one way
 * (127 bytes) is none either. */
START_TEST(window_without_setaside)
{
    static const uint64_t limit[] = {0, 127};
    for (int k = 0; k < 2; k++) {
        ApwRun a;
        apw_open(&a);
        a.r.d->l2_persist_bytes = limit[k];
        EmuAccessWindow w = window_of(&a);
        apw_kernel(&a, &w);
        ck_assert_uint_eq(stat_of(&a.r, 0, "mem.l2.hit"), 0);
        run_close(&a.r);
    }
}
END_TEST

/* Persisting lines outlive their kernel: a second kernel without a
 * window finds W0 and W1 still there (normal accesses take victims among
 * normal lines only): all 6 window reads hit.  After
 * cudaCtxResetPersistingL2Cache (l2_resets changes) they are normal: the
 * set ends kernel 2 as W0, S10, S11, W1 in LRU order, and kernel 3's P,
 * S0, S1 and W0 misses evict W0 first: 0 hits again. */
START_TEST(persisting_outlives_kernel_until_reset)
{
    ApwRun a;
    apw_open(&a);
    a.r.d->l2_persist_bytes = 256;
    EmuAccessWindow w = window_of(&a);
    apw_kernel(&a, &w);
    apw_kernel(&a, NULL);
    a.r.d->l2_resets++;
    apw_kernel(&a, NULL);
    ck_assert_uint_eq(stat_of(&a.r, 0, "mem.l2.hit"), 4);
    ck_assert_uint_eq(stat_of(&a.r, 1, "mem.l2.hit"), 6);
    ck_assert_uint_eq(stat_of(&a.r, 2, "mem.l2.hit"), 0);
    run_close(&a.r);
}
END_TEST

/* A set-aside that shrinks to nothing (cudaLimitPersistingL2CacheSize
 * set to 0) leaves the persisting lines of earlier kernels as any other:
 * kernel 2, without a window, starts with W0, S10, S11, W1 in LRU order
 * and misses as in no_window_misses (0 hits), where a kept set-aside
 * gives 6 (persisting_outlives_kernel_until_reset). */
START_TEST(setaside_shrunk_frees_lines)
{
    ApwRun a;
    apw_open(&a);
    a.r.d->l2_persist_bytes = 256;
    EmuAccessWindow w = window_of(&a);
    apw_kernel(&a, &w);
    a.r.d->l2_persist_bytes = 0;
    apw_kernel(&a, NULL);
    ck_assert_uint_eq(stat_of(&a.r, 0, "mem.l2.hit"), 4);
    ck_assert_uint_eq(stat_of(&a.r, 1, "mem.l2.hit"), 0);
    run_close(&a.r);
}
END_TEST

/* Whether line number x is among a hitRatio-0.5 window's hit_prop
 * lines: the documented hash (SplitMix64's finaliser, top 32 bits)
 * below 2^31, written out here as the reference. */
static bool half_selects(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return (x >> 32) < (1ull << 31);
}

/* hitRatio selects lines by cache_window_hash (cache.h): with 0.5 the
 * window lines whose hash is below 2^31 persist and the others get
 * missProp (streaming: installed as the next victim).  The window is
 * placed on two neighbouring lines of the buffer of which exactly one is
 * selected: that line misses once and hits on its 2 later reads, the
 * other misses every time (it is the victim of the next stream line):
 * 2 hits. */
START_TEST(hit_ratio_selects_lines_by_hash)
{
    ApwRun a;
    apw_open(&a);
    uint64_t line = a.w >> 7, k = 0;
    while (k < 30 && half_selects(line + k) == half_selects(line + k + 1)) {
        k++;
    }
    ck_assert_uint_lt(k, 30);   /* 31 pairs, none mixed: a broken hash */
    a.w += k * 128;
    a.r.d->l2_persist_bytes = 256;
    EmuAccessWindow w = window_of(&a);
    w.hit_ratio = 0.5f;
    apw_kernel(&a, &w);
    ck_assert_uint_eq(stat_of(&a.r, 0, "mem.l2.hit"), 2);
    run_close(&a.r);
}
END_TEST

/* ---- the L1/shared-memory carve-out ---- */

static void set_carveout(EmuLaunch *l, void *ctx)
{
    l->carveout = *(const int *)ctx;
}

/* An array of 2 KB that the L1 (two 128-byte ways per set) shares with
 * shared memory of 0 or 1 KB (l1d.unified, l1d.carveouts).  The kernel
 * has no shared memory, and no system reserve is counted
 * (occ.shared_reserved = 0; with sm_80's 1 KB a CTA would fill the
 * largest capacity).  Without a preference, or preferring 0%, the
 * driver's choice is the smallest capacity that holds a full SM's
 * shared memory: 0 KB, so the L1 has 2 KB, 8 sets; the 12 lines of the
 * working set (consecutive lines: 4 sets of 2, 4 of 1) all stay, and
 * the second pass hits 12 times.  Preferring 100% or 50% (512 bytes,
 * rounded up to a supported 1 KB) leaves the L1 1 KB, 4 sets of 3
 * lines read in turn through 2 LRU ways: every access misses. */
START_TEST(carveout_sizes_l1)
{
    static const char *const set[] = {"l1d.ways=2", "l1d.unified=2k",
                                      "l1d.carveouts=0,1",
                                      "occ.shared_reserved=0"};
    static const struct {
        int carveout;
        uint64_t hits;
    } t[] = {{-1, 12}, {0, 12}, {50, 0}, {100, 0}};
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
        Run r;
        run_open(&r, ws_ptx, set, 4);
        uint64_t a = hint_buf(&r);
        uint32_t n = 12;
        void *args[] = {&a, &n};
        int c = t[k].carveout;
        run_kernel_timed(&r, "ws", 1, 1, args, set_carveout, &c);
        ck_assert_uint_eq(stat_of(&r, 0, "mem.l1d.access"), 24);
        ck_assert_msg(stat_of(&r, 0, "mem.l1d.hit") == t[k].hits,
                      "carveout %d: %llu hits", c,
                      (unsigned long long)stat_of(&r, 0, "mem.l1d.hit"));
        run_close(&r);
    }
}
END_TEST

/* A carve-out that leaves no whole number of sets keeps the full
 * array's sets and takes ways (hier.c's carve_shape): 16 ways of
 * 128-byte lines are 2 KB a set, so l1d.unified = 4k has 2 sets; 1 KB
 * of shared memory leaves 3 KB, 2 sets of 12 ways (taking a whole set
 * would leave 2 KB).  n consecutive lines fall n/2 in each set, read
 * twice in turn through LRU ways: the second pass hits all n when n/2
 * lines fit a set, none when one more than fit.  Without shared
 * memory (16 ways) 26 lines fit too. */
START_TEST(carveout_takes_ways)
{
    static const char *const set[] = {"l1d.ways=16", "l1d.unified=4k",
                                      "l1d.carveouts=0,1",
                                      "occ.shared_reserved=0"};
    static const struct {
        int carveout;
        uint32_t n;
        uint64_t hits;
    } t[] = {{100, 24, 24}, {100, 26, 0}, {0, 26, 26}};
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
        Run r;
        run_open(&r, ws_ptx, set, 4);
        uint64_t a = hint_buf(&r);
        uint32_t n = t[k].n;
        void *args[] = {&a, &n};
        int c = t[k].carveout;
        run_kernel_timed(&r, "ws", 1, 1, args, set_carveout, &c);
        ck_assert_uint_eq(stat_of(&r, 0, "mem.l1d.access"), 2 * n);
        ck_assert_msg(stat_of(&r, 0, "mem.l1d.hit") == t[k].hits,
                      "carveout %d, %u lines: %llu hits", c, n,
                      (unsigned long long)stat_of(&r, 0, "mem.l1d.hit"));
        run_close(&r);
    }
}
END_TEST

/* ---- dram.model: the channel model chosen by name ---- */

/* The kernel's statistics JSON and cycles, copied before the close. */
static char *json_of(Run *r, uint64_t *cycles)
{
    const TmKernelStats *ks;
    ck_assert_uint_eq(tm_session_kernels(r->s, &ks), 1);
    *cycles = ks[0].cycles;
    char *j = strdup(ks[0].json);
    ck_assert_ptr_nonnull(j);
    return j;
}

/* Naming the built-in model changes nothing: the same cycles and the
 * same statistics, byte for byte, as leaving dram.model at its
 * default (and the kernel reaches the DRAM). */
START_TEST(dram_model_channel_is_default)
{
    static const char *const named[] = {"dram.model=channel"};
    Run r;
    uint64_t c0, c1;
    run_one(&r, "plain4", NULL, 0);
    ck_assert_uint_gt(stat_of(&r, 0, "mem.dram.reads"), 0);
    char *j0 = json_of(&r, &c0);
    run_close(&r);
    run_one(&r, "plain4", named, 1);
    char *j1 = json_of(&r, &c1);
    run_close(&r);
    ck_assert_uint_eq(c0, c1);
    ck_assert_str_eq(j0, j1);
    free(j0);
    free(j1);
}
END_TEST

/* An unknown model is a configuration error naming the parameter, the
 * value and the models there are. */
START_TEST(dram_model_unknown_refused)
{
    static const char *const set[] = {"mem.model=hier",
                                      "dram.model=ramulator2"};
    EmuConfig c;
    emu_config_default(&c);
    c.num_sms = 1;
    EmuDevice *d = emu_device_new(&c);
    ck_assert_ptr_nonnull(d);
    TmSession *s = NULL;
    char err[512] = "";
    ck_assert_int_ne(tm_session_open(d, "gpu", NULL, set, 2, &s, err,
                                     sizeof err), 0);
    ck_assert_ptr_null(s);
    ck_assert_msg(strstr(err, "dram.model") && strstr(err, "ramulator2") &&
                  strstr(err, "channel") && strstr(err, "fixed"),
                  "message: %s", err);
    emu_device_free(d);
}
END_TEST

/* dram.model=fixed is what the partitions drive: no activates, the
 * same reads, and each read on the kernel's critical path costs exactly
 * its CL.  The chain reads four lines from the DRAM one after another
 * (the parameter's, then A, B and C; the second A hits the L2), so with
 * every clock at 1000 MHz, CL 300 against CL 100 adds 4 x 200 cycles. */
START_TEST(dram_model_fixed_selected)
{
    static const char *const lo[] = {"dram.model=fixed", "clock.mhz=1000",
                                     "dram.mhz=1000", "dram.CL=100"};
    static const char *const hi[] = {"dram.model=fixed", "clock.mhz=1000",
                                     "dram.mhz=1000", "dram.CL=300"};
    Run r;
    uint64_t c_lo, c_hi;
    run_one(&r, "plain4", lo, 4);
    ck_assert_uint_eq(stat_of(&r, 0, "mem.dram.reads"), 4);
    ck_assert_uint_eq(stat_of(&r, 0, "mem.dram.act"), 0);
    ck_assert_uint_eq(stat_of(&r, 0, "mem.dram.row_miss"), 0);
    free(json_of(&r, &c_lo));
    run_close(&r);
    run_one(&r, "plain4", hi, 4);
    free(json_of(&r, &c_hi));
    run_close(&r);
    ck_assert_uint_eq(c_hi - c_lo, 4 * 200);
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
    t = tcase_create("l2_window");
    tcase_add_test(t, no_window_misses);
    tcase_add_test(t, window_persists_in_setaside);
    tcase_add_test(t, window_without_setaside);
    tcase_add_test(t, persisting_outlives_kernel_until_reset);
    tcase_add_test(t, setaside_shrunk_frees_lines);
    tcase_add_test(t, hit_ratio_selects_lines_by_hash);
    suite_add_tcase(s, t);
    t = tcase_create("carveout");
    tcase_add_test(t, carveout_sizes_l1);
    tcase_add_test(t, carveout_takes_ways);
    suite_add_tcase(s, t);
    t = tcase_create("dram_model");
    tcase_add_test(t, dram_model_channel_is_default);
    tcase_add_test(t, dram_model_unknown_refused);
    tcase_add_test(t, dram_model_fixed_selected);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
