/*
 * tests/e2e_util.h: the harness shared by the end-to-end corpus tests
 * (tests/check_e2e*.c): load one corpus PTX file
 * (tests/corpus/ptx/NAME.sm80.ptx), deterministic inputs, device buffers,
 * launches that must succeed, and bit-exact comparison macros.
 * Each test program includes it once.
 */
#ifndef PTXEMU_TESTS_E2E_UTIL_H
#define PTXEMU_TESTS_E2E_UTIL_H

#include <check.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/client.h"
#include "runtime/api_emu.h"
#include "runtime/ptxemu.h"
#include "runtime/sanitize.h"
#include "runtime/stats.h"

static ptxemu_device *dev;
static ptxemu_module *mod;
static RtSanitize *e2e_san;

static uint32_t rng_state;

static inline void rng_seed(uint32_t s)
{
    rng_state = s ? s : 1u;
}

static inline uint32_t rnd(void)
{
    uint32_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    rng_state = x;
    return x;
}

static inline uint64_t rnd64(void)
{
    uint64_t hi = rnd();
    return (hi << 32) | rnd();
}

/* Uniform in [lo, hi). */
static inline float rndf(float lo, float hi)
{
    return lo + (hi - lo) * (float)(rnd() >> 8) * (1.0f / 16777216.0f);
}

/* The device of an e2e test: untimed, or driven by the timing model that
 * PTXEMU_TEST_TIMING names, optionally with one of its parameters set
 * (NAME:KEY=VALUE), configured by PTXEMU_TEST_TIMING_CONFIG
 * (tests/timing_corpus.test reruns the suites
 * so: every corpus kernel must compute the same values under a model),
 * with the reconvergence mode PTXEMU_TEST_RECONVERGENCE=ipdom|its
 * names (every corpus kernel must give the same results under both),
 * and on PTXEMU_TEST_THREADS host threads. */
static inline void e2e_device(void)
{
    ptxemu_device_options o;
    ptxemu_device_options_default(&o);
    /* NAME, or NAME:KEY=VALUE (one parameter of the model set) */
    const char *t = getenv("PTXEMU_TEST_TIMING");
    static char tname[64];
    static const char *tset[1];
    if (t && *t) {
        const char *colon = strchr(t, ':');
        size_t n = colon ? (size_t)(colon - t) : strlen(t);
        ck_assert_uint_lt(n, sizeof tname);
        memcpy(tname, t, n);
        tname[n] = 0;
        o.timing = tname;
        if (colon) {
            tset[0] = colon + 1;
            o.timing_set = tset;
            o.ntiming_set = 1;
        }
    }
    /* PTXEMU_TEST_TIMING_CONFIG: a --timing-config file for that model
     * (timing_corpus.test runs the `gpu` model's variants so) */
    const char *tc = getenv("PTXEMU_TEST_TIMING_CONFIG");
    if (tc && *tc) {
        o.timing_config = tc;
    }
    const char *r = getenv("PTXEMU_TEST_RECONVERGENCE");
    if (r && !strcmp(r, "its")) {
        o.reconvergence = PTXEMU_RECONVERGENCE_ITS;
    } else if (r && !strcmp(r, "ipdom")) {
        o.reconvergence = PTXEMU_RECONVERGENCE_IPDOM;
    }
    /* PTXEMU_TEST_THREADS=N (tests/par_corpus.test): the CTAs of each
     * launch run on N host threads; every result must stay the same */
    const char *th = getenv("PTXEMU_TEST_THREADS");
    if (th && *th) {
        o.threads = (uint32_t)strtoul(th, NULL, 10);
        o.verbose = getenv("PTXEMU_TEST_VERBOSE") != NULL;
    }
    /* PTXEMU_TEST_STATS_LOG=FILE (tests/timing_par.test): per-instruction
     * statistics are collected, and close_ptx() appends the device's
     * --stats JSON (the timing model's counters included) to FILE */
    const char *sl = getenv("PTXEMU_TEST_STATS_LOG");
    if (sl && *sl) {
        o.collect_stats = 1;
    }
    ck_assert_msg(ptxemu_device_create(&o, &dev) == PTXEMU_SUCCESS,
                  "device: %s", ptxemu_device_create_error());
    /* PTXEMU_TEST_NOOP_CLIENT (tests/client_corpus.test): a client that
     * watches everything is attached; it must change no result */
    const char *nc = getenv("PTXEMU_TEST_NOOP_CLIENT");
    if (nc && *nc) {
        EmuClient c;
        char why[160];
        emu_client_noop(&c);
        ck_assert_msg(emu_client_attach(rt_device_emu(dev), &c, why,
                                        sizeof(why)) >= 0, "%s", why);
    }
    /* PTXEMU_TEST_SANITIZE=TOOL,... (tests/sanitize_corpus.test): those
     * checkers watch; close_ptx() fails the test when they reported an
     * error (the report is on stderr) */
    const char *san = getenv("PTXEMU_TEST_SANITIZE");
    if (san && *san) {
        RtSanOptions so = { .out = stderr };
        char why[160];
        ck_assert_msg(rt_sanitize_tools(san, &so.tools), "tools %s", san);
        e2e_san = rt_sanitize_start(dev, &so, why, sizeof(why));
        ck_assert_msg(e2e_san != NULL, "%s", why);
    }
}

static inline void open_ptx(const char *base)
{
    const char *top = getenv("top_srcdir");
    char path[1024];
    snprintf(path, sizeof(path), "%s/tests/corpus/ptx/%s.sm80.ptx",
             top ? top : ".", base);
    e2e_device();
    ptxemu_status st = ptxemu_module_load_file(dev, path, &mod);
    ck_assert_msg(st == PTXEMU_SUCCESS, "loading %s: %s", path,
                  ptxemu_last_error_message(dev));
}

/* Load PTX text (hand-written kernels, or a corpus file edited by
 * the test) into a fresh device. */
static inline void e2e_open_src(const char *name, const char *src)
{
    e2e_device();
    ptxemu_status st = ptxemu_module_load_string(dev, name, src, 0, &mod);
    ck_assert_msg(st == PTXEMU_SUCCESS, "loading %s: %s", name,
                  ptxemu_last_error_message(dev));
}

/* A launch that must fail with `want`; returns the device's message. */
static inline const char *e2e_launch_fail(const char *name, unsigned gx,
                                          unsigned bx, void **params,
                                          ptxemu_status want)
{
    ptxemu_function *f = NULL;
    ck_assert_int_eq(ptxemu_module_get_function(mod, name, &f),
                     PTXEMU_SUCCESS);
    unsigned grid[3] = {gx, 1, 1}, block[3] = {bx, 1, 1};
    ptxemu_status st = ptxemu_launch(f, grid, block, 0, params);
    ck_assert_msg(st == want, "%s: got %s, expected %s (%s)", name,
                  ptxemu_status_name(st), ptxemu_status_name(want),
                  ptxemu_last_error_message(dev));
    return ptxemu_last_error_message(dev);
}

static inline void close_ptx(void)
{
    if (mod)
        ptxemu_module_unload(mod);
    mod = NULL;
    if (e2e_san) {
        uint64_t errors = rt_sanitize_finish(e2e_san);
        e2e_san = NULL;
        ck_assert_msg(errors == 0, "%s: %" PRIu64 " sanitizer errors",
                      getenv("PTXEMU_TEST_SANITIZE"), errors);
    }
    const char *sl = getenv("PTXEMU_TEST_STATS_LOG");
    FILE *slf = dev && sl && *sl ? fopen(sl, "a") : NULL;
    if (slf) {
        rt_stats_write_json(slf, dev, NULL, NULL, NULL);
        fclose(slf);
    }
    if (dev)
        ptxemu_device_destroy(dev);
    dev = NULL;
}

/* A device buffer of `bytes`, holding a copy of src (zeroed if NULL). */
static inline ptxemu_devptr dbuf(const void *src, size_t bytes)
{
    ptxemu_devptr p = 0;
    ck_assert_int_eq(ptxemu_malloc(dev, bytes, &p), PTXEMU_SUCCESS);
    /* zeroed as a CUDA program must (cudaMalloc does not), so that
     * initcheck (tests/sanitize_corpus.test) sees the bytes written */
    if (src)
        ck_assert_int_eq(ptxemu_memcpy_htod(dev, p, src, bytes),
                         PTXEMU_SUCCESS);
    else
        ck_assert_int_eq(ptxemu_memset(dev, p, 0, bytes), PTXEMU_SUCCESS);
    return p;
}

static inline void dget(void *dst, ptxemu_devptr p, size_t bytes)
{
    ck_assert_int_eq(ptxemu_memcpy_dtoh(dev, dst, p, bytes), PTXEMU_SUCCESS);
}

static inline void launch3(const char *name, unsigned gx, unsigned gy,
                           unsigned bx, unsigned by, unsigned shmem,
                           void **params)
{
    ptxemu_function *f = NULL;
    ck_assert_msg(ptxemu_module_get_function(mod, name, &f) == PTXEMU_SUCCESS,
                  "no kernel %s", name);
    unsigned grid[3] = {gx, gy, 1}, block[3] = {bx, by, 1};
    ptxemu_status st = ptxemu_launch(f, grid, block, shmem, params);
    ck_assert_msg(st == PTXEMU_SUCCESS, "%s: %s: %s", name,
                  ptxemu_status_name(st), ptxemu_last_error_message(dev));
    ck_assert_int_eq(ptxemu_synchronize(dev), PTXEMU_SUCCESS);
}

static inline void launch(const char *name, unsigned gx, unsigned bx,
                          unsigned shmem, void **params)
{
    launch3(name, gx, 1, bx, 1, shmem, params);
}

static inline uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline uint64_t dbits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

#define EQ_I(what, i, got, exp)                                                \
    ck_assert_msg((uint64_t)(got) == (uint64_t)(exp),                          \
                  "%s[%d]: got 0x%" PRIx64 ", expected 0x%" PRIx64, what,      \
                  (int)(i), (uint64_t)(got), (uint64_t)(exp))
#define EQ_F(what, i, got, exp)                                                \
    ck_assert_msg(fbits(got) == fbits(exp),                                    \
                  "%s[%d]: got %.9g (0x%08x), expected %.9g (0x%08x)", what,   \
                  (int)(i), (double)(got), fbits(got), (double)(exp),          \
                  fbits(exp))
#define EQ_D(what, i, got, exp)                                                \
    ck_assert_msg(dbits(got) == dbits(exp),                                    \
                  "%s[%d]: got %.17g, expected %.17g", what, (int)(i),         \
                  (double)(got), (double)(exp))

/* Standard launch shape: 3 CTAs of 112 threads (3.5 warps), n a bit less
 * than the thread count so the tail CTA diverges on the bounds check. */
#define NB 3u
#define BS 112u
#define NN 300

#endif
