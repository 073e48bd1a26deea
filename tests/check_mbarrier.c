/*
 * tests/check_mbarrier.c: the arrive/wait barriers (mbarrier.*,
 * cp.async.mbarrier.arrive, cp.async.bulk with complete_tx) of
 * emu/ops_mbarrier.c.
 *
 * Hand-written kernels check each instruction against values worked out
 * by hand from the PTX ISA 9.0 mbarrier section (phase completion when
 * pending arrivals and tx-count reach zero, arrive_drop lowering the
 * expected count of later phases, token and parity waits); only
 * behaviour the ISA defines is asserted, never the opaque encoding.
 * Where the order of arrivals is the scheduler's choice, only facts that
 * hold for every order are checked (the pending counts of one phase's
 * tokens are a permutation of 0..count-1).  The corpus kernels of
 * tests/corpus/cu/mbarrier.cu and pipeline2.cu (sm80 and sm90 PTX) are
 * compared with host references.
 */
#include <check.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/ptxemu.h"

#include "tests/e2e_util.h"

static void open_src(const char *name, const char *src)
{
    ck_assert_int_eq(ptxemu_device_create(NULL, &dev), PTXEMU_SUCCESS);
    ptxemu_status st = ptxemu_module_load_string(dev, name, src, 0, &mod);
    ck_assert_msg(st == PTXEMU_SUCCESS, "loading %s: %s", name,
                  ptxemu_last_error_message(dev));
}

/* tests/corpus/ptx/BASE.ARCH.ptx */
static void open_corpus(const char *base, const char *arch)
{
    const char *top = getenv("top_srcdir");
    char path[1024];
    snprintf(path, sizeof(path), "%s/tests/corpus/ptx/%s.%s.ptx",
             top ? top : ".", base, arch);
    ck_assert_int_eq(ptxemu_device_create(NULL, &dev), PTXEMU_SUCCESS);
    ptxemu_status st = ptxemu_module_load_file(dev, path, &mod);
    ck_assert_msg(st == PTXEMU_SUCCESS, "loading %s: %s", path,
                  ptxemu_last_error_message(dev));
}

/* A launch that may fail: its status (launch or synchronisation). */
static ptxemu_status try_launch(const char *name, unsigned gx, unsigned bx,
                                void **params)
{
    ptxemu_function *f = NULL;
    ck_assert_msg(ptxemu_module_get_function(mod, name, &f) == PTXEMU_SUCCESS,
                  "no kernel %s", name);
    unsigned grid[3] = {gx, 1, 1}, block[3] = {bx, 1, 1};
    ptxemu_status st = ptxemu_launch(f, grid, block, 0, params);
    if (st == PTXEMU_SUCCESS)
        st = ptxemu_synchronize(dev);
    return st;
}

#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n"

/* ------------------------------------------------- one thread, exact */

static const char single_ptx[] = HDR
    ".visible .entry single(.param .u64 out)\n"
    "{\n"
    "  .reg .b64 %rd<20>;\n"
    "  .reg .b32 %r<40>;\n"
    "  .reg .pred %p<20>;\n"
    "  .shared .align 8 .b64 bar[3];\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mov.u32 %r1, bar;\n"
    /* phase 0 expects 3 arrivals */
    "  mbarrier.init.shared.b64 [%r1], 3;\n"
    "  mbarrier.arrive.shared.b64 %rd2, [%r1];\n"
    "  mbarrier.test_wait.shared.b64 %p1, [%r1], %rd2;\n"
    "  mbarrier.arrive.shared::cta.b64 %rd3, [%r1], 2;\n"
    "  mbarrier.test_wait.shared.b64 %p2, [%r1], %rd2;\n"
    "  mbarrier.test_wait.parity.shared.b64 %p3, [%r1], 0;\n"
    "  mbarrier.test_wait.parity.shared.b64 %p4, [%r1], 1;\n"
    "  mbarrier.pending_count.b64 %r2, %rd2;\n"
    "  mbarrier.pending_count.b64 %r3, %rd3;\n"
    /* phase 1: a drop, so phase 2 expects 2 */
    "  mbarrier.arrive_drop.shared.b64 %rd4, [%r1];\n"
    "  mbarrier.pending_count.b64 %r4, %rd4;\n"
    "  mbarrier.test_wait.shared.b64 %p5, [%r1], %rd4;\n"
    "  mbarrier.arrive.noComplete.shared.b64 %rd5, [%r1], 1;\n"
    "  mbarrier.pending_count.b64 %r5, %rd5;\n"
    "  mbarrier.arrive.release.cta.shared::cta.b64 %rd6, [%r1];\n"
    "  mbarrier.test_wait.shared.b64 %p6, [%r1], %rd4;\n"
    "  mbarrier.test_wait.parity.shared.b64 %p7, [%r1], 1;\n"
    /* phase 2 */
    "  mbarrier.arrive.shared.b64 %rd7, [%r1];\n"
    "  mbarrier.pending_count.b64 %r6, %rd7;\n"
    "  mbarrier.test_wait.parity.shared.b64 %p16, [%r1], 0;\n"
    "  mbarrier.arrive.relaxed.cta.shared::cta.b64 %rd8, [%r1];\n"
    "  mbarrier.test_wait.parity.shared.b64 %p17, [%r1], 0;\n"
    /* transaction counts */
    "  add.u32 %r10, %r1, 8;\n"
    "  mbarrier.init.shared::cta.b64 [%r10], 1;\n"
    "  mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r10], 32;\n"
    "  mbarrier.arrive.shared.b64 %rd11, [%r10];\n"
    "  mbarrier.test_wait.parity.shared.b64 %p8, [%r10], 0;\n"
    "  mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%r10], 16;\n"
    "  mbarrier.test_wait.parity.shared.b64 %p9, [%r10], 0;\n"
    "  mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%r10], 16;\n"
    "  mbarrier.try_wait.parity.shared::cta.b64 %p10, [%r10], 0;\n"
    "  mbarrier.try_wait.shared::cta.b64 %p11, [%r10], %rd11, 1000;\n"
    "  mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %rd12, "
    "[%r10], 64;\n"
    "  mbarrier.try_wait.parity.shared::cta.b64 %p12, [%r10], 1;\n"
    "  mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%r10], 64;\n"
    "  mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p13, "
    "[%r10], 1;\n"
    /* generic and shared::cluster addresses of one object; inval */
    "  add.u32 %r11, %r1, 16;\n"
    "  cvt.u64.u32 %rd14, %r11;\n"
    "  cvta.shared.u64 %rd13, %rd14;\n"
    "  mbarrier.init.b64 [%rd13], 2;\n"
    "  mbarrier.arrive.b64 %rd15, [%rd13];\n"
    "  mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r11];\n"
    "  mbarrier.test_wait.b64 %p14, [%rd13], %rd15;\n"
    "  mbarrier.inval.b64 [%rd13];\n"
    "  mbarrier.init.shared.b64 [%r11], 1;\n"
    "  mbarrier.test_wait.parity.shared.b64 %p15, [%r11], 0;\n"
    "  selp.u32 %r20, 1, 0, %p1;  st.global.u32 [%rd1+0], %r20;\n"
    "  selp.u32 %r20, 1, 0, %p2;  st.global.u32 [%rd1+4], %r20;\n"
    "  selp.u32 %r20, 1, 0, %p3;  st.global.u32 [%rd1+8], %r20;\n"
    "  selp.u32 %r20, 1, 0, %p4;  st.global.u32 [%rd1+12], %r20;\n"
    "  st.global.u32 [%rd1+16], %r2;\n"
    "  st.global.u32 [%rd1+20], %r3;\n"
    "  st.global.u32 [%rd1+24], %r4;\n"
    "  selp.u32 %r20, 1, 0, %p5;  st.global.u32 [%rd1+28], %r20;\n"
    "  st.global.u32 [%rd1+32], %r5;\n"
    "  selp.u32 %r20, 1, 0, %p6;  st.global.u32 [%rd1+36], %r20;\n"
    "  selp.u32 %r20, 1, 0, %p7;  st.global.u32 [%rd1+40], %r20;\n"
    "  st.global.u32 [%rd1+44], %r6;\n"
    "  selp.u32 %r20, 1, 0, %p8;  st.global.u32 [%rd1+48], %r20;\n"
    "  selp.u32 %r20, 1, 0, %p9;  st.global.u32 [%rd1+52], %r20;\n"
    "  selp.u32 %r20, 1, 0, %p10; st.global.u32 [%rd1+56], %r20;\n"
    "  selp.u32 %r20, 1, 0, %p11; st.global.u32 [%rd1+60], %r20;\n"
    "  selp.u32 %r20, 1, 0, %p12; st.global.u32 [%rd1+64], %r20;\n"
    "  selp.u32 %r20, 1, 0, %p13; st.global.u32 [%rd1+68], %r20;\n"
    "  selp.u32 %r20, 1, 0, %p14; st.global.u32 [%rd1+72], %r20;\n"
    "  selp.u32 %r20, 1, 0, %p15; st.global.u32 [%rd1+76], %r20;\n"
    "  selp.u32 %r20, 1, 0, %p16; st.global.u32 [%rd1+80], %r20;\n"
    "  selp.u32 %r20, 1, 0, %p17; st.global.u32 [%rd1+84], %r20;\n"
    "  ret;\n"
    "}\n";

START_TEST(mb_single_thread)
{
    /* by hand: phase 0 wants 3; arrive (2 left), arrive 2 (0 left,
     * phase 0 completes); phase 1 wants 3: drop (2 left, later phases
     * want 2), noComplete 1 (1 left), arrive (completes); phase 2 wants
     * 2: arrive (1 left, incomplete), arrive (completes).  tx: 1
     * arrival + 32 bytes; 16 + 16 bytes complete it; phase 1: arrive
     * with expect_tx 64, complete_tx 64. */
    static const struct {
        const char *what;
        uint32_t v;
    } want[] = {
        {"test_wait own token before the phase completes", 0},
        {"test_wait token after arrive count 2 completes", 1},
        {"test_wait.parity 0 after phase 0", 1},
        {"test_wait.parity 1 during phase 1", 0},
        {"pending_count of the first token", 2},
        {"pending_count of the completing token", 0},
        {"pending_count after arrive_drop", 2},
        {"test_wait right after arrive_drop", 0},
        {"pending_count after arrive.noComplete", 1},
        {"test_wait phase 1 token after completion", 1},
        {"test_wait.parity 1 after phase 1", 1},
        {"pending_count in phase 2 (expected lowered to 2)", 1},
        {"tx: arrivals done, 32 bytes outstanding", 0},
        {"tx: 16 bytes outstanding", 0},
        {"try_wait.parity 0 after the last bytes", 1},
        {"try_wait token with suspend hint", 1},
        {"arrive.expect_tx 64: incomplete", 0},
        {"complete_tx 64: phase 1 complete", 1},
        {"generic + shared::cluster arrivals complete", 1},
        {"re-initialised after inval: phase 0 open", 0},
        {"phase 2 with one of 2 arrivals", 0},
        {"phase 2 complete with 2 arrivals", 1},
    };
    enum { N = sizeof(want) / sizeof(want[0]) };
    open_src("single.ptx", single_ptx);
    uint32_t out[N];
    memset(out, 0xee, sizeof(out));
    ptxemu_devptr d = dbuf(out, sizeof(out));
    void *pp[] = {&d};
    launch("single", 1, 1, 0, pp);
    dget(out, d, sizeof(out));
    for (int k = 0; k < N; k++)
        ck_assert_msg(out[k] == want[k].v, "%s: got %u, expected %u",
                      want[k].what, out[k], want[k].v);
    close_ptx();
}
END_TEST

/* Every participant drops: init 1, arrive_drop.  The drop lowers the
 * expected count to 0 and its arrive-on brings the pending count of
 * phase 0 to 0, which completes the phase (PTX ISA 9.0, mbarrier:
 * "arrive-drop ... decrement the expected count ... and then perform
 * an arrive-on operation"; a phase completes when its pending count
 * and tx-count reach zero): a waiter on parity 0 or on the token sees
 * it complete. */
static const char dropall_ptx[] = HDR
    ".visible .entry dropall(.param .u64 out)\n"
    "{\n"
    "  .reg .b64 %rd<4>;\n  .reg .b32 %r<4>;\n  .reg .pred %p<3>;\n"
    "  .shared .align 8 .b64 bar;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mov.u32 %r1, bar;\n"
    "  mbarrier.init.shared.b64 [%r1], 1;\n"
    "  mbarrier.arrive_drop.shared.b64 %rd2, [%r1];\n"
    "  mbarrier.test_wait.parity.shared.b64 %p1, [%r1], 0;\n"
    "  mbarrier.test_wait.shared.b64 %p2, [%r1], %rd2;\n"
    "  selp.u32 %r2, 1, 0, %p1;  st.global.u32 [%rd1+0], %r2;\n"
    "  selp.u32 %r2, 1, 0, %p2;  st.global.u32 [%rd1+4], %r2;\n"
    "  ret;\n"
    "}\n";

START_TEST(mb_drop_all_completes)
{
    open_src("dropall.ptx", dropall_ptx);
    uint32_t out[2] = {0xee, 0xee};
    ptxemu_devptr d = dbuf(out, sizeof(out));
    void *pp[] = {&d};
    launch("dropall", 1, 1, 0, pp);
    dget(out, d, sizeof(out));
    ck_assert_uint_eq(out[0], 1);
    ck_assert_uint_eq(out[1], 1);
}
END_TEST

/* --------------------------------------- several warps, several rounds */

static const char phases_ptx[] = HDR
    ".visible .entry phases(.param .u64 in, .param .u64 out,\n"
    "                       .param .u64 pend)\n"
    "{\n"
    "  .reg .b64 %rd<20>;\n"
    "  .reg .b32 %r<40>;\n"
    "  .reg .pred %p<10>;\n"
    "  .shared .align 8 .b64 pbar;\n"
    "  .shared .align 4 .b32 pbuf[128];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ntid.x;\n"
    "  mov.u32 %r3, pbar;\n"
    "  setp.ne.u32 %p1, %r1, 0;\n"
    "  @!%p1 mbarrier.init.shared.b64 [%r3], %r2;\n"
    "  bar.sync 0;\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  ld.param.u64 %rd3, [pend];\n"
    "  mul.wide.u32 %rd4, %r1, 4;\n"
    "  add.u64 %rd5, %rd1, %rd4;\n"
    "  ld.global.u32 %r4, [%rd5];\n"
    "  mov.u32 %r5, pbuf;\n"
    "  shl.b32 %r6, %r1, 2;\n"
    "  add.u32 %r7, %r5, %r6;\n"
    "  add.u32 %r8, %r1, 1;\n"
    "  rem.u32 %r8, %r8, %r2;\n"
    "  shl.b32 %r8, %r8, 2;\n"
    "  add.u32 %r9, %r5, %r8;\n"
    "  mov.u32 %r10, 0;\n"
    "LOOP:\n"
    "  st.shared.u32 [%r7], %r4;\n"
    "  mbarrier.arrive.shared.b64 %rd6, [%r3];\n"
    "WAIT1:\n"
    "  mbarrier.test_wait.shared.b64 %p2, [%r3], %rd6;\n"
    "  @!%p2 bra WAIT1;\n"
    "  mbarrier.pending_count.b64 %r11, %rd6;\n"
    "  mad.lo.u32 %r12, %r10, %r2, %r1;\n"
    "  mul.wide.u32 %rd7, %r12, 4;\n"
    "  add.u64 %rd8, %rd3, %rd7;\n"
    "  st.global.u32 [%rd8], %r11;\n"
    "  ld.shared.u32 %r13, [%r9];\n"
    "  add.u32 %r4, %r4, %r13;\n"
    /* the odd phase keeps pbuf until every thread has read it */
    "  mbarrier.arrive.shared.b64 %rd9, [%r3];\n"
    "WAIT2:\n"
    "  mbarrier.try_wait.parity.shared.b64 %p3, [%r3], 1;\n"
    "  @!%p3 bra WAIT2;\n"
    "  add.u32 %r10, %r10, 1;\n"
    "  setp.lt.u32 %p4, %r10, 3;\n"
    "  @%p4 bra LOOP;\n"
    "  add.u64 %rd10, %rd2, %rd4;\n"
    "  st.global.u32 [%rd10], %r4;\n"
    "  ret;\n"
    "}\n"
    /* one arrival short: the waiters can never succeed */
    ".visible .entry short(.param .u64 out)\n"
    "{\n"
    "  .reg .b64 %rd<4>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .pred %p<4>;\n"
    "  .shared .align 8 .b64 sbar;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ntid.x;\n"
    "  add.u32 %r2, %r2, 1;\n"
    "  setp.ne.u32 %p1, %r1, 0;\n"
    "  @!%p1 mbarrier.init.shared.b64 [sbar], %r2;\n"
    "  bar.sync 0;\n"
    "  mbarrier.arrive.shared.b64 %rd1, [sbar];\n"
    "SPIN:\n"
    "  mbarrier.test_wait.shared.b64 %p2, [sbar], %rd1;\n"
    "  @!%p2 bra SPIN;\n"
    "  ret;\n"
    "}\n"
    /* the same with a changing register in the loop (as libcu++'s
     * %globaltimer back-off): no state repeats, the mbarrier rule of the
     * watchdog must catch it */
    ".visible .entry short_counting(.param .u64 out)\n"
    "{\n"
    "  .reg .b64 %rd<4>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .pred %p<4>;\n"
    "  .shared .align 8 .b64 cbar;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ntid.x;\n"
    "  add.u32 %r2, %r2, 1;\n"
    "  setp.ne.u32 %p1, %r1, 0;\n"
    "  @!%p1 mbarrier.init.shared.b64 [cbar], %r2;\n"
    "  bar.sync 0;\n"
    "  mbarrier.arrive.shared.b64 %rd1, [cbar];\n"
    "  mov.u32 %r3, 0;\n"
    "CSPIN:\n"
    "  add.u32 %r3, %r3, 1;\n"
    "  mbarrier.try_wait.shared.b64 %p2, [cbar], %rd1;\n"
    "  @!%p2 bra CSPIN;\n"
    "  ret;\n"
    "}\n"
    /* warps 0 and 1 poll for a long time while warp 2 computes in
     * registers only, then arrives: correct, must not be reported */
    ".visible .entry late(.param .u64 out)\n"
    "{\n"
    "  .reg .b64 %rd<8>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .pred %p<4>;\n"
    "  .shared .align 8 .b64 lbar;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ntid.x;\n"
    "  setp.ne.u32 %p1, %r1, 0;\n"
    "  @!%p1 mbarrier.init.shared.b64 [lbar], %r2;\n"
    "  bar.sync 0;\n"
    "  mov.u32 %r3, 0;\n"
    "  setp.lt.u32 %p1, %r1, 64;\n"
    "  @%p1 bra ARRIVE;\n"
    "WORK:\n"
    "  add.u32 %r3, %r3, 1;\n"
    "  setp.lt.u32 %p2, %r3, 250000;\n"
    "  @%p2 bra WORK;\n"
    "ARRIVE:\n"
    "  mbarrier.arrive.shared.b64 %rd1, [lbar];\n"
    "LSPIN:\n"
    "  mbarrier.try_wait.shared.b64 %p3, [lbar], %rd1;\n"
    "  @!%p3 bra LSPIN;\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.u64 %rd2, %rd2, %rd3;\n"
    "  add.u32 %r3, %r3, 1;\n"
    "  st.global.u32 [%rd2], %r3;\n"
    "  ret;\n"
    "}\n";

START_TEST(mb_phases_multi_warp)
{
    enum { T = 96, R = 3 };
    open_src("phases.ptx", phases_ptx);
    uint32_t in[T], out[T], pend[R * T], ref[T];
    rng_seed(7);
    for (int t = 0; t < T; t++)
        in[t] = ref[t] = rnd() & 0xffff;
    ptxemu_devptr din = dbuf(in, sizeof(in)), dout = dbuf(NULL, sizeof(out));
    ptxemu_devptr dp = dbuf(NULL, sizeof(pend));
    void *pp[] = {&din, &dout, &dp};
    launch("phases", 1, T, 0, pp);
    dget(out, dout, sizeof(out));
    dget(pend, dp, sizeof(pend));
    for (int r = 0; r < R; r++) {
        uint32_t nx[T];
        for (int t = 0; t < T; t++)
            nx[t] = ref[t] + ref[(t + 1) % T];
        memcpy(ref, nx, sizeof(ref));
        /* the tokens of one phase count down T-1 .. 0, one each */
        int seen[T] = {0};
        for (int t = 0; t < T; t++) {
            uint32_t v = pend[r * T + t];
            ck_assert_msg(v < T && !seen[v], "round %d thread %d: pending "
                          "count %u repeated or out of range", r, t, v);
            seen[v] = 1;
        }
    }
    for (int t = 0; t < T; t++)
        EQ_I("phases", t, out[t], ref[t]);
    close_ptx();
}
END_TEST

START_TEST(mb_deadlock_reported)
{
    open_src("phases.ptx", phases_ptx);
    ptxemu_devptr d = dbuf(NULL, 16);
    void *pp[] = {&d};
    ptxemu_status st = try_launch("short", 1, 64, pp);
    const char *msg = ptxemu_last_error_message(dev);
    ck_assert_msg(st == PTXEMU_ERROR_DEADLOCK, "status %s: %s",
                  ptxemu_status_name(st), msg);
    ck_assert_msg(strstr(msg, "mbarrier deadlock") &&
                  strstr(msg, "warp 0 of CTA 0") &&
                  strstr(msg, "warp 1 of CTA 0") &&
                  strstr(msg, "polls mbarrier 0x"), "message: %s", msg);
    close_ptx();
}
END_TEST

START_TEST(mb_deadlock_changing_registers)
{
    open_src("phases.ptx", phases_ptx);
    ptxemu_devptr d = dbuf(NULL, 16);
    void *pp[] = {&d};
    ptxemu_status st = try_launch("short_counting", 1, 64, pp);
    const char *msg = ptxemu_last_error_message(dev);
    ck_assert_msg(st == PTXEMU_ERROR_DEADLOCK, "status %s: %s",
                  ptxemu_status_name(st), msg);
    ck_assert_msg(strstr(msg, "mbarrier deadlock") &&
                  strstr(msg, "polls mbarrier 0x"), "message: %s", msg);
    close_ptx();
}
END_TEST

START_TEST(mb_long_wait_not_deadlock)
{
    enum { T = 96 };
    open_src("phases.ptx", phases_ptx);
    uint32_t out[T];
    ptxemu_devptr d = dbuf(NULL, sizeof(out));
    void *pp[] = {&d};
    launch("late", 1, T, 0, pp);
    dget(out, d, sizeof(out));
    for (int t = 0; t < T; t++)
        EQ_I("late", t, out[t], t < 64 ? 1 : 250001);
    close_ptx();
}
END_TEST

/* ---------------------------------------------------------- faults */

static const char faults_ptx[] = HDR
    ".visible .entry misaligned()\n"
    "{\n"
    "  .shared .align 8 .b64 fbar[2];\n"
    "  mbarrier.init.shared.b64 [fbar+4], 1;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry notshared(.param .u64 p)\n"
    "{\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  mbarrier.init.b64 [%rd1], 1;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry uninit()\n"
    "{\n"
    "  .reg .b64 %rd<4>;\n"
    "  .shared .align 8 .b64 ubar;\n"
    "  mbarrier.arrive.shared.b64 %rd1, [ubar];\n"
    "  ret;\n"
    "}\n"
    ".visible .entry toomany()\n"
    "{\n"
    "  .reg .b64 %rd<4>;\n"
    "  .shared .align 8 .b64 tbar;\n"
    "  mbarrier.init.shared.b64 [tbar], 2;\n"
    "  mbarrier.arrive.shared::cta.b64 %rd1, [tbar], 3;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry bulkodd(.param .u64 p)\n"
    "{\n"
    "  .reg .b64 %rd<4>;\n"
    "  .shared .align 8 .b64 kbar;\n"
    "  .shared .align 16 .b8 kbuf[64];\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  mbarrier.init.shared.b64 [kbar], 1;\n"
    "  cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes "
    "[kbuf], [%rd1], 24, [kbar];\n"
    "  ret;\n"
    "}\n";

START_TEST(mb_faults)
{
    static const struct {
        const char *kernel;
        ptxemu_status st;
        const char *text;
    } cases[] = {
        {"misaligned", PTXEMU_ERROR_MISALIGNED, "misaligned"},
        {"notshared", PTXEMU_ERROR_ILLEGAL_ADDRESS, "not in shared memory"},
        {"uninit", PTXEMU_ERROR_ILLEGAL_INSTRUCTION, "no initialised"},
        {"toomany", PTXEMU_ERROR_ILLEGAL_INSTRUCTION, "awaits only 2"},
        {"bulkodd", PTXEMU_ERROR_MISALIGNED, "multiples of 16"},
    };
    for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        open_src("faults.ptx", faults_ptx);
        ptxemu_devptr d = dbuf(NULL, 64);
        void *pp[] = {&d};
        ptxemu_status st = try_launch(cases[k].kernel, 1, 1, pp);
        const char *msg = ptxemu_last_error_message(dev);
        ck_assert_msg(st == cases[k].st && strstr(msg, cases[k].text),
                      "%s: status %s: %s", cases[k].kernel,
                      ptxemu_status_name(st), msg);
        close_ptx();
    }
}
END_TEST

/* ------------------------------- cp.async double-buffered pipeline */

/* ISSUE(s): thread t copies in[s*64 + t] into cbuf[s&1][t] and arrives
 * on full[s&1] when the copy is done (.noinc: the copy's arrival is one
 * of the 64; else cp.async.mbarrier.arrive leaves the count alone and
 * the thread arrives itself). */
#define ISSUE(S)                                                         \
    "  and.b32 %r20, " S ", 1;\n"                                        \
    "  shl.b32 %r21, %r20, 6;\n"                                         \
    "  add.u32 %r21, %r21, %r1;\n"                                       \
    "  shl.b32 %r21, %r21, 2;\n"                                         \
    "  add.u32 %r22, %r5, %r21;\n"                                       \
    "  shl.b32 %r23, %r20, 3;\n"                                         \
    "  add.u32 %r24, %r3, %r23;\n"                                       \
    "  shl.b32 %r25, " S ", 6;\n"                                        \
    "  add.u32 %r25, %r25, %r1;\n"                                       \
    "  mul.wide.u32 %rd5, %r25, 4;\n"                                    \
    "  add.u64 %rd5, %rd1, %rd5;\n"                                      \
    "  cp.async.ca.shared.global [%r22], [%rd5], 4;\n"                   \
    "  @%p9 cp.async.mbarrier.arrive.noinc.shared.b64 [%r24];\n"         \
    "  @!%p9 cp.async.mbarrier.arrive.shared.b64 [%r24];\n"              \
    "  @!%p9 mbarrier.arrive.shared.b64 _, [%r24];\n"

static const char pipe_ptx[] = HDR
    ".visible .entry cpa_pipe(.param .u64 in, .param .u64 out,\n"
    "                         .param .u32 nstages, .param .u32 noinc)\n"
    "{\n"
    "  .reg .b64 %rd<20>;\n"
    "  .reg .b32 %r<40>;\n"
    "  .reg .pred %p<10>;\n"
    "  .shared .align 8 .b64 full[2];\n"
    "  .shared .align 8 .b64 empty[2];\n"
    "  .shared .align 16 .b32 cbuf[128];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r3, full;\n"
    "  mov.u32 %r4, empty;\n"
    "  mov.u32 %r5, cbuf;\n"
    "  setp.ne.u32 %p1, %r1, 0;\n"
    "  @!%p1 mbarrier.init.shared.b64 [full], 64;\n"
    "  @!%p1 mbarrier.init.shared.b64 [full+8], 64;\n"
    "  @!%p1 mbarrier.init.shared.b64 [empty], 64;\n"
    "  @!%p1 mbarrier.init.shared.b64 [empty+8], 64;\n"
    "  bar.sync 0;\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  cvta.to.global.u64 %rd2, %rd2;\n"
    "  ld.param.u32 %r6, [nstages];\n"
    "  ld.param.u32 %r8, [noinc];\n"
    "  setp.ne.u32 %p9, %r8, 0;\n"
    "  mov.u32 %r7, 0;\n"
    "PRO:\n"
    ISSUE("%r7")
    "  add.u32 %r7, %r7, 1;\n"
    "  setp.lt.u32 %p2, %r7, 2;\n"
    "  @%p2 bra PRO;\n"
    "  add.u32 %r9, %r1, 1;\n"
    "  and.b32 %r9, %r9, 63;\n"
    "  mov.u32 %r7, 0;\n"
    "MAIN:\n"
    "  and.b32 %r10, %r7, 1;\n"
    "  shr.u32 %r11, %r7, 1;\n"
    "  and.b32 %r11, %r11, 1;\n"
    "  shl.b32 %r12, %r10, 3;\n"
    "  add.u32 %r13, %r3, %r12;\n"
    "  add.u32 %r14, %r4, %r12;\n"
    "WFULL:\n"
    "  mbarrier.test_wait.parity.shared.b64 %p3, [%r13], %r11;\n"
    "  @!%p3 bra WFULL;\n"
    "  shl.b32 %r15, %r10, 6;\n"
    "  add.u32 %r15, %r15, %r9;\n"
    "  shl.b32 %r15, %r15, 2;\n"
    "  add.u32 %r15, %r5, %r15;\n"
    "  ld.shared.u32 %r16, [%r15];\n"
    "  shl.b32 %r17, %r7, 6;\n"
    "  add.u32 %r17, %r17, %r1;\n"
    "  mul.wide.u32 %rd6, %r17, 4;\n"
    "  add.u64 %rd6, %rd2, %rd6;\n"
    "  st.global.u32 [%rd6], %r16;\n"
    "  mbarrier.arrive.shared.b64 _, [%r14];\n"
    "  add.u32 %r18, %r7, 2;\n"
    "  setp.ge.u32 %p4, %r18, %r6;\n"
    "  @%p4 bra NEXT;\n"
    "WEMPTY:\n"
    "  mbarrier.try_wait.parity.shared.b64 %p5, [%r14], %r11;\n"
    "  @!%p5 bra WEMPTY;\n"
    ISSUE("%r18")
    "NEXT:\n"
    "  add.u32 %r7, %r7, 1;\n"
    "  setp.lt.u32 %p6, %r7, %r6;\n"
    "  @%p6 bra MAIN;\n"
    "  ret;\n"
    "}\n";

START_TEST(mb_cp_async_pipeline)
{
    enum { T = 64, S = 7 };
    for (uint32_t noinc = 0; noinc < 2; noinc++) {
        open_src("pipe.ptx", pipe_ptx);
        uint32_t in[S * T], out[S * T];
        rng_seed(11 + noinc);
        for (int k = 0; k < S * T; k++)
            in[k] = rnd();
        ptxemu_devptr din = dbuf(in, sizeof(in));
        ptxemu_devptr dout = dbuf(NULL, sizeof(out));
        uint32_t ns = S;
        void *pp[] = {&din, &dout, &ns, &noinc};
        launch("cpa_pipe", 1, T, 0, pp);
        dget(out, dout, sizeof(out));
        for (int s = 0; s < S; s++)
            for (int t = 0; t < T; t++)
                EQ_I(noinc ? "pipeline .noinc" : "pipeline", s * T + t,
                     out[s * T + t], in[s * T + (t + 1) % T]);
        close_ptx();
    }
}
END_TEST

/* ------------------------------------------ bulk copy with complete_tx */

static const char bulk_ptx[] = HDR
    ".visible .entry bulk(.param .u64 in, .param .u64 out,\n"
    "                     .param .u32 nbytes)\n"
    "{\n"
    "  .reg .b64 %rd<10>;\n"
    "  .reg .b32 %r<20>;\n"
    "  .reg .pred %p<10>;\n"
    "  .shared .align 8 .b64 bbar;\n"
    "  .shared .align 16 .b8 bbuf[1024];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  ld.param.u32 %r2, [nbytes];\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  cvta.to.global.u64 %rd2, %rd2;\n"
    "  mov.u32 %r3, bbar;\n"
    "  mov.u32 %r4, bbuf;\n"
    "  elect.sync %r5|%p1, 0xffffffff;\n"
    "  setp.eq.u32 %p2, %r1, 0;\n"
    "  @%p2 mbarrier.init.shared::cta.b64 [%r3], 1;\n"
    "  fence.mbarrier_init.release.cluster;\n"
    "  bar.sync 0;\n"
    "  @%p2 mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, "
    "[%r3], %r2;\n"
    "  @%p2 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx"
    "::bytes [%r4], [%rd1], %r2, [%r3];\n"
    "WAIT:\n"
    "  mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r3], 0;\n"
    "  @!%p3 bra WAIT;\n"
    "  fence.proxy.async.shared::cta;\n"
    "  shl.b32 %r6, %r1, 2;\n"
    "  add.u32 %r7, %r4, %r6;\n"
    "  ld.shared.u32 %r8, [%r7];\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.u64 %rd3, %rd2, %rd3;\n"
    "  st.global.u32 [%rd3], %r8;\n"
    "  ret;\n"
    "}\n";

START_TEST(mb_bulk_complete_tx)
{
    enum { T = 256 };
    open_src("bulk.ptx", bulk_ptx);
    uint32_t in[T], out[T];
    rng_seed(5);
    for (int k = 0; k < T; k++)
        in[k] = rnd();
    ptxemu_devptr din = dbuf(in, sizeof(in));
    ptxemu_devptr dout = dbuf(NULL, sizeof(out));
    uint32_t nb = sizeof(in);
    void *pp[] = {&din, &dout, &nb};
    launch("bulk", 1, T, 0, pp);
    dget(out, dout, sizeof(out));
    for (int k = 0; k < T; k++)
        EQ_I("bulk", k, out[k], in[k]);
    close_ptx();
}
END_TEST

/* ------------------------------------------------- corpus kernels */

static const char *const archs[] = {"sm80", "sm90"};

START_TEST(mb_corpus_barrier_phases)
{
    enum { B = 128, NBLK = 3, N = 300, ROUNDS = 4 };
    open_corpus("mbarrier", archs[_i]);
    int32_t in[NBLK * B], out[NBLK * B], ref[NBLK * B];
    rng_seed(21);
    for (int k = 0; k < NBLK * B; k++)
        in[k] = (int32_t)(rnd() % 2001) - 1000;
    memset(out, 0x5a, sizeof(out));
    ptxemu_devptr din = dbuf(in, sizeof(in));
    ptxemu_devptr dout = dbuf(out, sizeof(out));
    int n = N, rounds = ROUNDS;
    void *pp[] = {&din, &dout, &n, &rounds};
    launch("cuda_barrier_phases", NBLK, B, 0, pp);
    dget(out, dout, sizeof(out));
    for (int b = 0; b < NBLK; b++) {
        int32_t v[B];
        for (int t = 0; t < B; t++)
            v[t] = b * B + t < N ? in[b * B + t] : 0;
        for (int r = 0; r < ROUNDS; r++) {
            int32_t nx[B];
            for (int t = 0; t < B; t++)
                nx[t] = v[t] + v[(t + 1) % B];
            memcpy(v, nx, sizeof(v));
        }
        for (int t = 0; t < B; t++)
            ref[b * B + t] = b * B + t < N ? v[t] : 0x5a5a5a5a;
    }
    for (int k = 0; k < NBLK * B; k++)
        EQ_I("cuda_barrier_phases", k, out[k], ref[k]);
    close_ptx();
}
END_TEST

START_TEST(mb_corpus_barrier_drop)
{
    enum { B = 128, NBLK = 3, N = 300 };
    open_corpus("mbarrier", archs[_i]);
    float in[NBLK * B], out[NBLK * B];
    rng_seed(22);
    for (int k = 0; k < NBLK * B; k++)
        in[k] = rndf(-4.0f, 4.0f);
    memset(out, 0, sizeof(out));
    ptxemu_devptr din = dbuf(in, sizeof(in));
    ptxemu_devptr dout = dbuf(out, sizeof(out));
    int n = N;
    void *pp[] = {&din, &dout, &n};
    launch("cuda_barrier_drop", NBLK, B, 0, pp);
    dget(out, dout, sizeof(out));
    for (int b = 0; b < NBLK; b++)
        for (int t = 0; t < B; t++) {
            int i = b * B + t;
            float exp = 0.0f;
            if (t < B / 2 && i < N) {
                float hi = i + B / 2 < N ? in[i + B / 2] : 0.0f;
                exp = in[i] * 2.0f + hi;
            }
            EQ_F("cuda_barrier_drop", i, out[i], exp);
        }
    close_ptx();
}
END_TEST

START_TEST(mb_corpus_memcpy_async)
{
    enum { NBLK = 3, N = 300 };
    open_corpus("mbarrier", archs[_i]);
    int32_t in[NBLK * 128 * 4], out[NBLK * 128 * 4];
    rng_seed(23);
    for (int k = 0; k < NBLK * 128 * 4; k++)
        in[k] = (int32_t)rnd();
    memset(out, 0, sizeof(out));
    ptxemu_devptr din = dbuf(in, sizeof(in));
    ptxemu_devptr dout = dbuf(out, sizeof(out));
    int n = N;
    void *pp[] = {&din, &dout, &n};
    launch("barrier_memcpy_async", NBLK, 128, 0, pp);
    dget(out, dout, sizeof(out));
    for (int b = 0; b < NBLK; b++) {
        int base = b * 128, count = N - base < 128 ? N - base : 128;
        for (int t = 0; t < 128; t++) {
            int i = base + t;
            for (int c = 0; c < 4; c++) {
                int32_t exp = t < count
                    ? (int32_t)((uint32_t)in[(base + count - 1 - t) * 4 + c]
                                + (uint32_t)(c + 1))
                    : 0;
                EQ_I("barrier_memcpy_async", i * 4 + c, out[i * 4 + c],
                     exp);
            }
        }
    }
    close_ptx();
}
END_TEST

START_TEST(mb_corpus_raw)
{
    /* one warp per CTA: the kernel's shared data exchange is then free
     * of races (its lanes run in lockstep) */
    enum { B = 32, NBLK = 3, N = 90 };
    open_corpus("mbarrier", archs[_i]);
    int32_t in[NBLK * B], out[NBLK * B];
    rng_seed(24);
    for (int k = 0; k < NBLK * B; k++)
        in[k] = (int32_t)(rnd() % 100001);
    memset(out, 0, sizeof(out));
    ptxemu_devptr din = dbuf(in, sizeof(in));
    ptxemu_devptr dout = dbuf(out, sizeof(out));
    int n = N;
    void *pp[] = {&din, &dout, &n};
    launch("mbarrier_raw", NBLK, B, 0, pp);
    dget(out, dout, sizeof(out));
    for (int b = 0; b < NBLK; b++) {
        int32_t d0[B], v[B];
        for (int t = 0; t < B; t++)
            d0[t] = b * B + t < N ? in[b * B + t] : 0;
        for (int t = 0; t < B; t++)
            v[t] = d0[(t + 7) % B];
        int seen[B] = {0};
        for (int t = 0; t < B; t++) {
            int i = b * B + t;
            int32_t r = v[t];
            if (!(t & 1))
                r += v[(t + 2) % B];     /* data[t+2] = v[t+2], phase 1 */
            if (i >= N) {
                EQ_I("mbarrier_raw tail", i, out[i], 0);
                continue;
            }
            /* out = r + the pending count of the thread's phase-0 token:
             * the 32 arrivals leave 31 .. 0 pending, one each */
            int64_t pend = (int64_t)out[i] - r;
            ck_assert_msg(pend >= 0 && pend < B && !seen[pend],
                          "mbarrier_raw[%d]: pending count %" PRId64
                          " repeated or out of range", i, pend);
            seen[pend] = 1;
        }
    }
    close_ptx();
}
END_TEST

START_TEST(mb_corpus_cp_async)
{
    enum { NBLK = 3, N = 300 };
    open_corpus("mbarrier", archs[_i]);
    int32_t in[NBLK * 128], out[NBLK * 128];
    rng_seed(25);
    for (int k = 0; k < NBLK * 128; k++)
        in[k] = (int32_t)rnd();
    memset(out, 0, sizeof(out));
    ptxemu_devptr din = dbuf(in, sizeof(in));
    ptxemu_devptr dout = dbuf(out, sizeof(out));
    int n = N;
    void *pp[] = {&din, &dout, &n};
    launch("mbarrier_cp_async", NBLK, 128, 0, pp);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NBLK * 128; i++) {
        int b = i / 128, t = i % 128, j = b * 128 + 127 - t;
        int32_t exp = i < N ? (j < N ? in[j] : 0) : 0;
        EQ_I("mbarrier_cp_async", i, out[i], exp);
    }
    close_ptx();
}
END_TEST

START_TEST(mb_corpus_pipeline2)
{
    enum { T = 128, NBLK = 2, NT = 5 };
    open_corpus("pipeline2", archs[_i]);
    static int32_t in[NBLK * NT * T], out[NBLK * NT * T];
    rng_seed(26);
    for (int k = 0; k < NBLK * NT * T; k++)
        in[k] = (int32_t)(rnd() % 1000001) - 500000;
    memset(out, 0, sizeof(out));
    ptxemu_devptr din = dbuf(in, sizeof(in));
    ptxemu_devptr dout = dbuf(out, sizeof(out));
    int nt = NT;
    void *pp[] = {&din, &dout, &nt};
    launch("pipeline_double_buffer", NBLK, T, 0, pp);
    dget(out, dout, sizeof(out));
    for (int b = 0; b < NBLK; b++)
        for (int k = 0; k < NT; k++)
            for (int t = 0; t < T; t++) {
                int base = (b * NT + k) * T;
                EQ_I("pipeline_double_buffer", base + t, out[base + t],
                     3 * in[base + (t + 1) % T] + k);
            }
    close_ptx();
}
END_TEST

static Suite *mbarrier_suite(void)
{
    Suite *s = suite_create("mbarrier");
    TCase *tc = tcase_create("mbarrier");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, NULL, close_ptx);
    tcase_add_test(tc, mb_single_thread);
    tcase_add_test(tc, mb_drop_all_completes);
    tcase_add_test(tc, mb_phases_multi_warp);
    tcase_add_test(tc, mb_deadlock_reported);
    tcase_add_test(tc, mb_deadlock_changing_registers);
    tcase_add_test(tc, mb_long_wait_not_deadlock);
    tcase_add_test(tc, mb_faults);
    tcase_add_test(tc, mb_cp_async_pipeline);
    tcase_add_test(tc, mb_bulk_complete_tx);
    tcase_add_loop_test(tc, mb_corpus_barrier_phases, 0, 2);
    tcase_add_loop_test(tc, mb_corpus_barrier_drop, 0, 2);
    tcase_add_loop_test(tc, mb_corpus_memcpy_async, 0, 2);
    tcase_add_loop_test(tc, mb_corpus_raw, 0, 2);
    tcase_add_loop_test(tc, mb_corpus_cp_async, 0, 2);
    tcase_add_loop_test(tc, mb_corpus_pipeline2, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(mbarrier_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
