/*
 * tests/check_par.c: guest atomics stay exact when the CTAs of a launch
 * run on several host threads (emu/pool.h).  64 CTAs of 128 threads hammer
 * one word of each width, 8 times each: atom.add.u32 (the returned old
 * values are a permutation of 0..N-1), red.add.u64, compare-and-swap
 * increment loops of 16, 32 and 64 bits (the final count is N, mod 2^16
 * for 16 bits), atom.exch.b32 and .b64 (every value put in comes out
 * exactly once: the old values and the final one are a permutation).
 * These are facts of the PTX ISA's atomicity ("atom": the
 * read-modify-write is performed atomically), independent of order.
 * Then deterministic mode: racy float red.add, atom.exch chains and
 * volatile read-modify-writes give one thread's bits at 1, 2 and 3
 * threads, run after run; --fast keeps the atomics atomic.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/envopts.h"
#include "runtime/ptxemu.h"

#define CTAS 64
#define TPB 128
#define K 8
#define N ((uint64_t)CTAS * TPB * K)

static const char *ptx =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry hammer(.param .u64 pc, .param .u64 pa, .param .u64 p32,"
    " .param .u64 p64)\n{\n"
    " .reg .pred %p<4>;\n .reg .b16 %h<4>;\n .reg .b32 %r<20>;\n"
    " .reg .b64 %rd<20>;\n"
    " ld.param.u64 %rd1, [pc];\n ld.param.u64 %rd2, [pa];\n"
    " ld.param.u64 %rd3, [p32];\n ld.param.u64 %rd4, [p64];\n"
    " mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n mov.u32 %r4, %tid.x;\n"
    " mad.lo.u32 %r5, %r2, %r3, %r4;\n"      /* gid */
    " mov.u32 %r6, 0;\n"                      /* iteration */
    "LOOP:\n"
    " mad.lo.u32 %r11, %r5, 8, %r6;\n"        /* slot = gid * K + it */
    " mul.wide.u32 %rd5, %r11, 4;\n mul.wide.u32 %rd6, %r11, 8;\n"
    " atom.global.add.u32 %r7, [%rd1], 1;\n"
    " add.u64 %rd7, %rd2, %rd5;\n st.global.u32 [%rd7], %r7;\n"
    " red.global.add.u64 [%rd1+8], 4294967297;\n"
    /* 32-bit compare-and-swap increment, the guess from the last swap */
    " mov.u32 %r8, 0;\n"
    "C32:\n add.u32 %r9, %r8, 1;\n"
    " atom.global.cas.b32 %r10, [%rd1+16], %r8, %r9;\n"
    " setp.ne.u32 %p1, %r10, %r8;\n mov.u32 %r8, %r10;\n @%p1 bra C32;\n"
    " mov.u64 %rd8, 0;\n"
    "C64:\n add.u64 %rd9, %rd8, 1;\n"
    " atom.global.cas.b64 %rd10, [%rd1+24], %rd8, %rd9;\n"
    " setp.ne.u64 %p2, %rd10, %rd8;\n mov.u64 %rd8, %rd10;\n @%p2 bra C64;\n"
    " mov.b16 %h1, 0;\n"
    "C16:\n add.u16 %h2, %h1, 1;\n"
    " atom.global.cas.b16 %h3, [%rd1+32], %h1, %h2;\n"
    " setp.ne.u16 %p3, %h3, %h1;\n mov.b16 %h1, %h3;\n @%p3 bra C16;\n"
    /* exchange slot + 1 in; the old value out */
    " add.u32 %r12, %r11, 1;\n"
    " atom.global.exch.b32 %r13, [%rd1+40], %r12;\n"
    " add.u64 %rd11, %rd3, %rd5;\n st.global.u32 [%rd11], %r13;\n"
    " cvt.u64.u32 %rd12, %r12;\n shl.b64 %rd12, %rd12, 32;\n"
    " or.b64 %rd12, %rd12, 7;\n"
    " atom.global.exch.b64 %rd13, [%rd1+48], %rd12;\n"
    " add.u64 %rd14, %rd4, %rd6;\n st.global.u64 [%rd14], %rd13;\n"
    " add.u32 %r6, %r6, 1;\n setp.lt.u32 %p1, %r6, 8;\n @%p1 bra LOOP;\n"
    " ret;\n}\n";

static int cmp32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* A device on `threads` host threads (fast: --fast) with src loaded
 * (*mod), and its kernel `name` (src's file is name.ptx). */
static ptxemu_function *load_on(unsigned threads, int fast, const char *src,
                                const char *name, ptxemu_device **dev,
                                ptxemu_module **mod)
{
    ptxemu_device_options o;
    ptxemu_device_options_default(&o);
    o.threads = threads;
    o.fast = fast;
    ck_assert_int_eq(ptxemu_device_create(&o, dev), PTXEMU_SUCCESS);
    char file[64];
    snprintf(file, sizeof(file), "%s.ptx", name);
    ck_assert_msg(ptxemu_module_load_string(*dev, file, src, 0, mod) ==
                  PTXEMU_SUCCESS, "%s", ptxemu_last_error_message(*dev));
    ptxemu_function *f;
    ck_assert_int_eq(ptxemu_module_get_function(*mod, name, &f),
                     PTXEMU_SUCCESS);
    return f;
}

/* Run hammer on `threads` host threads and check every word exactly. */
static void hammer(unsigned threads)
{
    ptxemu_device *dev;
    ptxemu_module *mod;
    ptxemu_function *f = load_on(threads, 0, ptx, "hammer", &dev, &mod);
    ptxemu_devptr c, a, x32, x64;
    ck_assert_int_eq(ptxemu_malloc(dev, 64, &c), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_malloc(dev, N * 4, &a), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_malloc(dev, N * 4, &x32), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_malloc(dev, N * 8, &x64), PTXEMU_SUCCESS);
    uint8_t zero[64] = {0};
    ck_assert_int_eq(ptxemu_memcpy_htod(dev, c, zero, 64), PTXEMU_SUCCESS);
    void *params[] = { &c, &a, &x32, &x64 };
    unsigned grid[3] = { CTAS, 1, 1 }, block[3] = { TPB, 1, 1 };
    ck_assert_msg(ptxemu_launch(f, grid, block, 0, params) ==
                  PTXEMU_SUCCESS, "%s", ptxemu_last_error_message(dev));
    uint8_t ctr[64];
    uint32_t *va = malloc((N + 1) * 4), *v32 = malloc((N + 1) * 4);
    uint64_t *v64 = malloc((N + 1) * 8);
    ck_assert(va && v32 && v64);
    ck_assert_int_eq(ptxemu_memcpy_dtoh(dev, ctr, c, 64), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_memcpy_dtoh(dev, va, a, N * 4), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_memcpy_dtoh(dev, v32, x32, N * 4),
                     PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_memcpy_dtoh(dev, v64, x64, N * 8),
                     PTXEMU_SUCCESS);
    uint32_t w32;
    uint64_t w64;
    uint16_t w16;
    memcpy(&w32, ctr, 4);
    ck_assert_uint_eq(w32, N);
    memcpy(&w64, ctr + 8, 8);
    ck_assert_uint_eq(w64, N * 0x100000001ull);
    memcpy(&w32, ctr + 16, 4);
    ck_assert_uint_eq(w32, N);
    memcpy(&w64, ctr + 24, 8);
    ck_assert_uint_eq(w64, N);
    memcpy(&w16, ctr + 32, 2);
    ck_assert_uint_eq(w16, N & 0xffff);
    /* atom.add's old values: 0..N-1, each once */
    qsort(va, N, 4, cmp32);
    for (uint64_t k = 0; k < N; k++) {
        ck_assert_uint_eq(va[k], k);
    }
    /* exch: the olds and the final value are 0 and 1..N, each once */
    memcpy(&v32[N], ctr + 40, 4);
    memcpy(&v64[N], ctr + 48, 8);
    qsort(v32, N + 1, 4, cmp32);
    qsort(v64, N + 1, 8, cmp64);
    ck_assert_uint_eq(v64[0], 0);
    for (uint64_t k = 0; k <= N; k++) {
        ck_assert_uint_eq(v32[k], k);
        if (k) {
            ck_assert_uint_eq(v64[k], k << 32 | 7);
        }
    }
    free(va);
    free(v32);
    free(v64);
    ptxemu_module_unload(mod);
    ptxemu_device_destroy(dev);
}

/* ---------------------------------------------- deterministic mode
 *
 * Racy by design: every thread adds its input to one float with red.add
 * (rounding depends on the order) and exchanges its id + 1 into one word
 * (each thread gets whoever exchanged before it).  One host thread runs
 * the CTAs one after another, the warps of this kernel (all alike) in
 * index order and the lanes of an instruction in lane order: thread t
 * gets t (thread t - 1's id + 1; thread 0 the initial 0), and the sum is
 * the host's float sum in thread order.  A third word is updated through
 * volatile loads and stores (racy read-modify-writes, morally strong in
 * the PTX memory model).  Deterministic mode (the default) orders global
 * atomics and strong accesses by CTA (emu/par.c), so every thread count
 * gives those same bits, run after run. */
#define OCTAS 96
#define OTPB 64
#define ON (OCTAS * OTPB)

static const char *order_ptx =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry order(.param .u64 pin, .param .u64 pacc,"
    " .param .u64 pout)\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<10>;\n .reg .f32 %f<2>;\n"
    " .reg .b64 %rd<8>;\n"
    " ld.param.u64 %rd1, [pin];\n ld.param.u64 %rd2, [pacc];\n"
    " ld.param.u64 %rd3, [pout];\n"
    " mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n mov.u32 %r4, %tid.x;\n"
    " mad.lo.u32 %r5, %r2, %r3, %r4;\n"
    " mul.wide.u32 %rd4, %r5, 4;\n add.u64 %rd5, %rd1, %rd4;\n"
    " ld.global.f32 %f1, [%rd5];\n"
    /* work before the atomics, longer than a scheduling quantum, so that
     * CTAs on other threads overlap */
    " mov.u32 %r6, 0;\n"
    "W:\n add.u32 %r6, %r6, 1;\n setp.lt.u32 %p1, %r6, 40;\n @%p1 bra W;\n"
    " red.global.add.f32 [%rd2], %f1;\n"
    " add.u32 %r7, %r5, 1;\n"
    " atom.global.exch.b32 %r8, [%rd2+4], %r7;\n"
    " add.u64 %rd6, %rd3, %rd4;\n st.global.u32 [%rd6], %r8;\n"
    /* a read-modify-write through volatile accesses, not atomic: x =
     * x * 3 + gid, updates lost as the order has it */
    " ld.volatile.global.u32 %r9, [%rd2+8];\n"
    " mad.lo.u32 %r9, %r9, 3, %r5;\n"
    " st.volatile.global.u32 [%rd2+8], %r9;\n"
    " ret;\n}\n";

static float order_input(unsigned t)
{
    /* 2^-20 .. 2^19, no subnormals (red.add.f32 flushes them) */
    return ldexpf(1.0f + (float)((t * 37u) % 101u) / 128.0f,
                  (int)((t * 13u) % 40u) - 20);
}

/* One launch of `order` on `threads` host threads (fast: --fast). */
static void order_run(unsigned threads, int fast, uint32_t *sum_bits,
                      uint32_t *last, uint32_t *chain, uint32_t *out)
{
    ptxemu_device *dev;
    ptxemu_module *mod;
    ptxemu_function *f = load_on(threads, fast, order_ptx, "order", &dev,
                                 &mod);
    float in[ON];
    for (unsigned t = 0; t < ON; t++) {
        in[t] = order_input(t);
    }
    ptxemu_devptr din, dacc, dout;
    ck_assert_int_eq(ptxemu_malloc(dev, sizeof(in), &din), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_malloc(dev, 12, &dacc), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_malloc(dev, ON * 4, &dout), PTXEMU_SUCCESS);
    uint8_t zero[12] = {0};
    ck_assert_int_eq(ptxemu_memcpy_htod(dev, din, in, sizeof(in)),
                     PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_memcpy_htod(dev, dacc, zero, 12),
                     PTXEMU_SUCCESS);
    void *params[] = { &din, &dacc, &dout };
    unsigned grid[3] = { OCTAS, 1, 1 }, block[3] = { OTPB, 1, 1 };
    ck_assert_msg(ptxemu_launch(f, grid, block, 0, params) ==
                  PTXEMU_SUCCESS, "%s", ptxemu_last_error_message(dev));
    uint32_t acc[3];
    ck_assert_int_eq(ptxemu_memcpy_dtoh(dev, acc, dacc, 12), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_memcpy_dtoh(dev, out, dout, ON * 4),
                     PTXEMU_SUCCESS);
    *sum_bits = acc[0];
    *last = acc[1];
    *chain = acc[2];
    ptxemu_module_unload(mod);
    ptxemu_device_destroy(dev);
}

START_TEST(deterministic_order)
{
    float want = 0.0f;
    for (unsigned t = 0; t < ON; t++) {
        want += order_input(t);
    }
    uint32_t want_bits;
    memcpy(&want_bits, &want, 4);
    static uint32_t out[ON];
    uint32_t chain1 = 0;
    for (unsigned threads = 1; threads <= 3; threads++) {
        for (int run = 0; run < 5; run++) {
            uint32_t sum, last, chain;
            order_run(threads, 0, &sum, &last, &chain, out);
            if (threads == 1 && run == 0) {
                chain1 = chain;       /* the volatile chain: one thread's */
            }
            ck_assert_msg(chain == chain1, "%u threads, run %d: volatile "
                          "chain %08x, one thread's %08x", threads, run,
                          chain, chain1);
            ck_assert_msg(sum == want_bits, "%u threads, run %d: sum %08x, "
                          "want %08x", threads, run, sum, want_bits);
            ck_assert_uint_eq(last, ON);
            for (unsigned t = 0; t < ON; t++) {
                ck_assert_msg(out[t] == t, "%u threads, run %d: thread %u "
                              "got %u", threads, run, t, out[t]);
            }
        }
    }
}
END_TEST

/* The same racy read-modify-write through one 16-byte .b128 volatile
 * load and store (PTX ISA 8.3), before any other strong access of the
 * CTA (after one, the CTA has its turn already): (lo, hi) = (lo * 3 +
 * gid, hi * 5 + gid).  Deterministic mode orders it as the 32-bit one:
 * every thread count gives one thread's bits, run after run. */
static const char *chain128_ptx =
    ".version 8.3\n.target sm_90\n.address_size 64\n"
    ".visible .entry chain128(.param .u64 pacc)\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<6>;\n"
    " .reg .b128 %q<2>;\n"
    " ld.param.u64 %rd1, [pacc];\n"
    " mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n mov.u32 %r4, %tid.x;\n"
    " mad.lo.u32 %r5, %r2, %r3, %r4;\n cvt.u64.u32 %rd5, %r5;\n"
    " mov.u32 %r6, 0;\n"
    "W:\n add.u32 %r6, %r6, 1;\n setp.lt.u32 %p1, %r6, 40;\n @%p1 bra W;\n"
    " ld.volatile.global.b128 %q1, [%rd1];\n"
    /* ...and between the load and the store, so that without the
     * ordering CTAs on other threads would overlap it */
    " mov.u32 %r6, 0;\n"
    "V:\n add.u32 %r6, %r6, 1;\n setp.lt.u32 %p1, %r6, 100;\n @%p1 bra V;\n"
    " mov.b128 {%rd2, %rd3}, %q1;\n"
    " mad.lo.u64 %rd2, %rd2, 3, %rd5;\n"
    " mad.lo.u64 %rd3, %rd3, 5, %rd5;\n"
    " mov.b128 %q1, {%rd2, %rd3};\n"
    " st.volatile.global.b128 [%rd1], %q1;\n"
    " ret;\n}\n";

static void chain128_run(unsigned threads, uint64_t out[2])
{
    ptxemu_device *dev;
    ptxemu_module *mod;
    ptxemu_function *f = load_on(threads, 0, chain128_ptx, "chain128", &dev,
                                 &mod);
    ptxemu_devptr dacc;
    uint64_t zero[2] = {0, 0};
    ck_assert_int_eq(ptxemu_malloc(dev, 16, &dacc), PTXEMU_SUCCESS);
    ck_assert_int_eq(ptxemu_memcpy_htod(dev, dacc, zero, 16),
                     PTXEMU_SUCCESS);
    void *params[] = { &dacc };
    unsigned grid[3] = { OCTAS, 1, 1 }, block[3] = { OTPB, 1, 1 };
    ck_assert_msg(ptxemu_launch(f, grid, block, 0, params) ==
                  PTXEMU_SUCCESS, "%s", ptxemu_last_error_message(dev));
    ck_assert_int_eq(ptxemu_memcpy_dtoh(dev, out, dacc, 16), PTXEMU_SUCCESS);
    ptxemu_module_unload(mod);
    ptxemu_device_destroy(dev);
}

START_TEST(deterministic_b128)
{
    uint64_t one[2];
    chain128_run(1, one);
    ck_assert(one[0] != 0 && one[1] != 0);
    for (unsigned threads = 2; threads <= 3; threads++) {
        for (int run = 0; run < 5; run++) {
            uint64_t got[2];
            chain128_run(threads, got);
            ck_assert_msg(got[0] == one[0] && got[1] == one[1],
                          "%u threads, run %d: b128 chain %016llx %016llx, "
                          "one thread's %016llx %016llx", threads, run,
                          (unsigned long long)got[0],
                          (unsigned long long)got[1],
                          (unsigned long long)one[0],
                          (unsigned long long)one[1]);
        }
    }
}
END_TEST

/* --fast: the atomics stay atomic (every id comes out once, the sum is
 * the exact sum to within the rounding of N additions), in any order. */
START_TEST(fast_still_atomic)
{
    double exact = 0;
    for (unsigned t = 0; t < ON; t++) {
        exact += order_input(t);
    }
    static uint32_t out[ON + 1];
    uint32_t sum, last, chain;
    order_run(3, 1, &sum, &last, &chain, out);
    float got;
    memcpy(&got, &sum, 4);
    ck_assert(fabs(got - exact) <= exact * ON * 0x1p-24);
    out[ON] = last;
    qsort(out, ON + 1, 4, cmp32);
    for (unsigned k = 0; k <= ON; k++) {
        ck_assert_uint_eq(out[k], k);
    }
}
END_TEST

/* The drop-ins' switches: PTXEMU_FAST=1 is --fast, and it may not be
 * given with PTXEMU_DETERMINISTIC=1 (the default, said out loud). */
START_TEST(env_modes)
{
    ptxemu_device_options o;
    unsigned arch;
    char err[256] = "";
    ptxemu_device_options_default(&o);
    ck_assert_int_eq(o.fast, 0);
    setenv("PTXEMU_FAST", "1", 1);
    ck_assert_int_eq(ptxemu_env_device_options(&o, &arch, err, sizeof(err)),
                     0);
    ck_assert_int_eq(o.fast, 1);
    ptxemu_env_device_options_fini(&o);
    setenv("PTXEMU_DETERMINISTIC", "1", 1);
    ptxemu_device_options_default(&o);
    ck_assert_int_eq(ptxemu_env_device_options(&o, &arch, err, sizeof(err)),
                     -1);
    ck_assert_ptr_nonnull(strstr(err, "choose one"));
    ptxemu_env_device_options_fini(&o);
    unsetenv("PTXEMU_FAST");
    ptxemu_device_options_default(&o);
    ck_assert_int_eq(ptxemu_env_device_options(&o, &arch, err, sizeof(err)),
                     0);
    ck_assert_int_eq(o.fast, 0);
    ptxemu_env_device_options_fini(&o);
    unsetenv("PTXEMU_DETERMINISTIC");
}
END_TEST

START_TEST(atomics_one_thread) { hammer(1); }
END_TEST

START_TEST(atomics_three_threads) { hammer(3); }
END_TEST

START_TEST(atomics_eight_threads) { hammer(8); }
END_TEST

int main(void)
{
    Suite *s = suite_create("par");
    TCase *tc = tcase_create("atomics");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, atomics_one_thread);
    tcase_add_test(tc, atomics_three_threads);
    tcase_add_test(tc, atomics_eight_threads);
    suite_add_tcase(s, tc);
    TCase *td = tcase_create("deterministic");
    tcase_set_timeout(td, 120);
    tcase_add_test(td, deterministic_order);
    tcase_add_test(td, deterministic_b128);
    tcase_add_test(td, fast_still_atomic);
    tcase_add_test(td, env_modes);
    suite_add_tcase(s, td);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
