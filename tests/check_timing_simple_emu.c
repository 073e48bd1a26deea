/*
 * tests/check_timing_simple_emu.c: the `simple` timing model on the real
 * emulator (timing/session.h, timing/host.c), where check_timing_simple
 * uses a mock host: exact cycles and %clock64 values of a hand-counted
 * PTX kernel, and results identical with and without the model for a
 * kernel with barriers, shared memory and atomics.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "emu/exec.h"
#include "tests/emutest.h"
#include "timing/session.h"

/* Every unit of latency 4 and interval 1, one scheduler, no launch
 * latency: the counts below then follow from the PTX alone. */
static const char *const flat[] = {
    "schedulers_per_sm=1", "launch_latency=0",
    "lat.int=4", "lat.fp16=4", "lat.fp32=4", "lat.fp64=4", "lat.sfu=4",
    "lat.tensor=4", "lat.ldst=4", "lat.tex=4", "lat.ctrl=4", "lat.sync=4",
    "lat.async=4", "lat.misc=4", "lat.warp=4",
    "ii.int=1", "ii.fp16=1", "ii.fp32=1", "ii.fp64=1", "ii.sfu=1",
    "ii.tensor=1", "ii.ldst=1", "ii.tex=1", "ii.ctrl=1", "ii.sync=1",
    "ii.async=1", "ii.misc=1", "ii.warp=1",
    "mem.param.latency=20", "mem.global.latency=100",
    "mem.bytes_per_cycle=32",
};

static TmSession *open_simple(EmuDevice *d)
{
    TmSession *s = NULL;
    char err[512] = "";
    int r = tm_session_open(d, "simple", NULL, flat,
                            sizeof flat / sizeof flat[0], &s, err,
                            sizeof err);
    ck_assert_msg(r == 0, "open: %s", err);
    return s;
}

static EmuStatus launch(TmSession *s, EmuModule *m, const char *name,
                        uint32_t grid, uint32_t block, void **args)
{
    EmuFunc *k = emu_module_kernel(m, name);
    ck_assert_ptr_nonnull(k);
    uint32_t g[3] = {grid, 1, 1}, b[3] = {block, 1, 1};
    EmuLaunch *l;
    ck_assert_int_eq(emu_launch_begin(m, k, g, b, 0, args, &l), EMU_OK);
    if (s) {
        tm_session_attach(s, l);
    }
    EmuStatus st = emu_launch_run(l);
    emu_launch_end(l);
    return st;
}

/* One thread.  With latency 4 everywhere, parameters 20, global 100 + 1
 * port cycle (one sector at 32 B/cycle), in program order:
 *   0  ld.param rd1            (ready 20)
 *   1  mov rd2, %clock64       reads 1
 *   2  mov r1, 1               (ready 6)
 *   6, 10, ..., 34  add r2..r9, each on the previous (r9 ready 38)
 *  35  mov rd3, %clock64       reads 35 (ready 39)
 *  36  st [rd1], rd2           (done 36 + 101 = 137; port busy to 37)
 *  39  st [rd1+8], rd3         waits for rd3 (done 140)
 *  40  st [rd1+16], r9         (done 141)
 *  41  ret
 * The last store is done at 141: the kernel's cycles (16 instructions). */
static const char *chain_ptx =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry chain(.param .u64 out)\n{\n"
    "  .reg .b32 %r<10>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u64 %rd2, %clock64;\n"
    "  mov.u32 %r1, 1;\n"
    "  add.s32 %r2, %r1, 1;\n"
    "  add.s32 %r3, %r2, 1;\n"
    "  add.s32 %r4, %r3, 1;\n"
    "  add.s32 %r5, %r4, 1;\n"
    "  add.s32 %r6, %r5, 1;\n"
    "  add.s32 %r7, %r6, 1;\n"
    "  add.s32 %r8, %r7, 1;\n"
    "  add.s32 %r9, %r8, 1;\n"
    "  mov.u64 %rd3, %clock64;\n"
    "  st.global.u64 [%rd1], %rd2;\n"
    "  st.global.u64 [%rd1+8], %rd3;\n"
    "  st.global.u32 [%rd1+16], %r9;\n"
    "  ret;\n}\n";

START_TEST(chain_cycles_and_clock)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, chain_ptx);
    TmSession *s = open_simple(d);
    uint64_t out = dev_alloc(d, 24);
    void *args[] = {&out};
    ck_assert_int_eq(launch(s, m, "chain", 1, 1, args), EMU_OK);
    const TmKernelStats *ks;
    ck_assert_uint_eq(tm_session_kernels(s, &ks), 1);
    ck_assert_uint_eq(ks[0].cycles, 141);
    ck_assert_uint_eq(ks[0].warp_insns, 16);
    uint64_t v[3];
    emu_mem_read(d->mem, out, v, 24);
    ck_assert_uint_eq(v[0], 1);
    ck_assert_uint_eq(v[1], 35);
    ck_assert_uint_eq((uint32_t)v[2], 9);
    /* the model's counters reach the session's JSON */
    ck_assert_ptr_nonnull(strstr(ks[0].json, "\"simple.issued\": 16"));
    tm_session_close(s);
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* A block reduction: shared memory, bar.sync in a loop, one atom.add per
 * CTA.  Timed and untimed runs must give the same sums (the host's
 * reference). */
static const char *reduce_ptx =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry reduce(.param .u64 in, .param .u64 sum)\n{\n"
    "  .reg .pred %p<3>;\n"
    "  .reg .b32 %r<12>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  .shared .align 4 .b8 buf[1024];\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  ld.param.u64 %rd2, [sum];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mad.lo.s32 %r3, %r2, 256, %r1;\n"
    "  mul.wide.u32 %rd3, %r3, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u32 %r4, [%rd4];\n"
    "  mov.u32 %r5, buf;\n"
    "  shl.b32 %r6, %r1, 2;\n"
    "  add.s32 %r7, %r5, %r6;\n"
    "  st.shared.u32 [%r7], %r4;\n"
    "  bar.sync 0;\n"
    "  mov.u32 %r8, 128;\n"
    "LOOP:\n"
    "  setp.ge.u32 %p1, %r1, %r8;\n"
    "  @%p1 bra SKIP;\n"
    "  shl.b32 %r9, %r8, 2;\n"
    "  add.s32 %r10, %r7, %r9;\n"
    "  ld.shared.u32 %r11, [%r10];\n"
    "  ld.shared.u32 %r4, [%r7];\n"
    "  add.s32 %r4, %r4, %r11;\n"
    "  st.shared.u32 [%r7], %r4;\n"
    "SKIP:\n"
    "  bar.sync 0;\n"
    "  shr.u32 %r8, %r8, 1;\n"
    "  setp.ne.u32 %p2, %r8, 0;\n"
    "  @%p2 bra LOOP;\n"
    "  setp.ne.u32 %p1, %r1, 0;\n"
    "  @%p1 bra DONE;\n"
    "  ld.shared.u32 %r4, [buf];\n"
    "  red.global.add.u32 [%rd2], %r4;\n"
    "DONE:\n"
    "  ret;\n}\n";

static uint32_t run_reduce(bool timed, uint64_t *cycles)
{
    enum { CTAS = 12, N = CTAS * 256 };
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, reduce_ptx);
    TmSession *s = NULL;
    if (timed) {
        char err[512] = "";
        const char *sets[] = {"max_ctas_per_sm=2"};
        ck_assert_msg(tm_session_open(d, "simple", NULL, sets, 1, &s, err,
                                      sizeof err) == 0, "%s", err);
    }
    static uint32_t host[N];
    for (uint32_t i = 0; i < N; i++) {
        host[i] = i * 2654435761u >> 7;
    }
    uint64_t in = dev_alloc(d, sizeof host), sum = dev_alloc(d, 4);
    emu_mem_write(d->mem, in, host, sizeof host);
    uint32_t zero = 0, got;
    emu_mem_write(d->mem, sum, &zero, 4);
    void *args[] = {&in, &sum};
    ck_assert_int_eq(launch(s, m, "reduce", CTAS, 256, args), EMU_OK);
    emu_mem_read(d->mem, sum, &got, 4);
    *cycles = 0;
    if (s) {
        const TmKernelStats *ks;
        ck_assert_uint_eq(tm_session_kernels(s, &ks), 1);
        *cycles = ks[0].cycles;
        tm_session_close(s);
    }
    emu_module_free(m);
    emu_device_free(d);
    uint32_t want = 0;
    for (uint32_t i = 0; i < N; i++) {
        want += host[i];
    }
    ck_assert_uint_eq(got, want);
    return got;
}

START_TEST(results_do_not_depend_on_timing)
{
    uint64_t c0, c1, c2;
    uint32_t untimed = run_reduce(false, &c0);
    ck_assert_uint_eq(run_reduce(true, &c1), untimed);
    ck_assert_uint_eq(run_reduce(true, &c2), untimed);
    ck_assert_uint_gt(c1, 0);
    ck_assert_uint_eq(c1, c2); /* deterministic on the real host too */
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("timing_simple_emu");
    TCase *t = tcase_create("core");
    tcase_add_test(t, chain_cycles_and_clock);
    tcase_add_test(t, results_do_not_depend_on_timing);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(suite());
}
