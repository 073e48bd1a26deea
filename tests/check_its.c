/*
 * tests/check_its.c: reconvergence modes (emu/its.h): independent thread
 * scheduling (--reconvergence its) against the pre-Volta IPDOM stack.
 *
 * Hand-written kernels, expected values and warp-instruction counts
 * worked out by hand from the model (seed digest 1.4 and 1.6; AFR
 * 3.1.2): the intra-warp spin lock and a producer/consumer pair inside
 * one warp complete under ITS and are diagnosed as SIMT deadlock under
 * IPDOM; well-structured divergent code runs the same instructions in
 * both modes; the divergent-path order is a policy.
 */
#include <check.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/ptxemu.h"

#include "tests/e2e_util.h"

#define HEAD ".version 7.0\n.target sm_80\n.address_size 64\n"

/* A kernel's end: label J, out[tid] = r3, ret. */
#define J_STORE_R3                                                        \
    "J:\n"                                                                \
    "  mul.wide.u32 rd2, r1, 4;\n"                                        \
    "  add.u64 rd3, rd1, rd2;\n"                                          \
    "  st.global.u32 [rd3], r3;\n"                                        \
    "  ret;\n"                                                            \
    "}\n"

/* while (atomicCAS(mutex, 0, 1)); order[(*counter)++] = tid;
 * atomicExch(mutex, 0); */
static const char spin_src[] = HEAD
    ".visible .entry spinlock(.param .u64 mutex, .param .u64 counter,\n"
    "                         .param .u64 order)\n"
    "{\n"
    "  .reg .pred p;\n  .reg .b32 r<6>;\n  .reg .b64 rd<6>;\n"
    "  ld.param.u64 rd1, [mutex];\n"
    "  ld.param.u64 rd2, [counter];\n"
    "  ld.param.u64 rd3, [order];\n"
    "  mov.u32 r1, %tid.x;\n"
    "LOOP:\n"
    "  atom.global.cas.b32 r2, [rd1], 0, 1;\n"
    "  setp.ne.u32 p, r2, 0;\n"
    "  @p bra LOOP;\n"
    "  ld.volatile.global.u32 r3, [rd2];\n"
    "  mul.wide.u32 rd4, r3, 4;\n"
    "  add.u64 rd5, rd3, rd4;\n"
    "  st.global.u32 [rd5], r1;\n"
    "  add.u32 r3, r3, 1;\n"
    "  st.volatile.global.u32 [rd2], r3;\n"
    "  membar.gl;\n"
    "  atom.global.exch.b32 r4, [rd1], 0;\n"
    "  ret;\n"
    "}\n";

/* Lanes 0-15 wait for a flag that lane 16 sets after writing data; every
 * lane then stores what it has (consumers: the data, producers: 100 +
 * tid). */
static const char prodcons_src[] = HEAD
    ".visible .entry prodcons(.param .u64 flag, .param .u64 data,\n"
    "                         .param .u64 out)\n"
    "{\n"
    "  .reg .pred p, q, w;\n  .reg .b32 r<6>;\n  .reg .b64 rd<6>;\n"
    "  ld.param.u64 rd1, [flag];\n"
    "  ld.param.u64 rd2, [data];\n"
    "  ld.param.u64 rd3, [out];\n"
    "  mov.u32 r1, %tid.x;\n"
    "  setp.lt.u32 p, r1, 16;\n"
    "  @p bra CONS;\n"
    "  add.u32 r3, r1, 100;\n"
    "  setp.eq.u32 q, r1, 16;\n"
    "  @q st.global.u32 [rd2], 42;\n"
    "  membar.gl;\n"
    "  @q st.volatile.global.u32 [rd1], 1;\n"
    "  bra JOIN;\n"
    "CONS:\n"
    "  ld.volatile.global.u32 r2, [rd1];\n"
    "  setp.eq.u32 w, r2, 0;\n"
    "  @w bra CONS;\n"
    "  ld.global.u32 r3, [rd2];\n"
    "JOIN:\n"
    "  mul.wide.u32 rd4, r1, 4;\n"
    "  add.u64 rd5, rd3, rd4;\n"
    "  st.global.u32 [rd5], r3;\n"
    "  ret;\n"
    "}\n";

/* out[tid] = sum of i*i + (i odd ? 3 : 1) for i < tid % 7, with a
 * divergent loop and a divergent if inside it */
static const char loop_src[] = HEAD
    ".visible .entry loops(.param .u64 out)\n"
    "{\n"
    "  .reg .pred p, q;\n  .reg .b32 r<9>;\n  .reg .b64 rd<4>;\n"
    "  ld.param.u64 rd1, [out];\n"
    "  mov.u32 r1, %tid.x;\n"
    "  rem.u32 r2, r1, 7;\n"
    "  mov.u32 r3, 0;\n"
    "  mov.u32 r4, 0;\n"
    "  setp.eq.u32 p, r2, 0;\n"
    "  @p bra DONE;\n"
    "TOP:\n"
    "  mul.lo.u32 r5, r3, r3;\n"
    "  add.u32 r4, r4, r5;\n"
    "  and.b32 r6, r3, 1;\n"
    "  setp.eq.u32 q, r6, 0;\n"
    "  @q bra EVEN;\n"
    "  add.u32 r4, r4, 3;\n"
    "  bra NEXT;\n"
    "EVEN:\n"
    "  add.u32 r4, r4, 1;\n"
    "NEXT:\n"
    "  add.u32 r3, r3, 1;\n"
    "  setp.lt.u32 p, r3, r2;\n"
    "  @p bra TOP;\n"
    "DONE:\n"
    "  mul.wide.u32 rd2, r1, 4;\n"
    "  add.u64 rd3, rd1, rd2;\n"
    "  st.global.u32 [rd3], r4;\n"
    "  ret;\n"
    "}\n";

/* A long divergent loop that writes no memory until the end:
 * out[tid] = sum over i < 2000 of ((i + tid) odd ? i : 3).  The grid is
 * quiet (no progress) for hundreds of scheduler rounds, yet no path
 * spins, so ITS must reconverge every iteration as IPDOM does. */
static const char longloop_src[] = HEAD
    ".visible .entry longloop(.param .u64 out)\n"
    "{\n"
    "  .reg .pred p, q;\n  .reg .b32 r<6>;\n  .reg .b64 rd<4>;\n"
    "  ld.param.u64 rd1, [out];\n"
    "  mov.u32 r1, %tid.x;\n"
    "  mov.u32 r2, 0;\n"
    "  mov.u32 r3, 0;\n"
    "TOP:\n"
    "  add.u32 r4, r2, r1;\n"
    "  and.b32 r4, r4, 1;\n"
    "  setp.eq.u32 q, r4, 0;\n"
    "  @q bra EVEN;\n"
    "  add.u32 r3, r3, r2;\n"
    "  bra NEXT;\n"
    "EVEN:\n"
    "  add.u32 r3, r3, 3;\n"
    "NEXT:\n"
    "  add.u32 r2, r2, 1;\n"
    "  setp.lt.u32 p, r2, 2000;\n"
    "  @p bra TOP;\n"
    "  mul.wide.u32 rd2, r1, 4;\n"
    "  add.u64 rd3, rd1, rd2;\n"
    "  st.global.u32 [rd3], r3;\n"
    "  ret;\n"
    "}\n";

/* Lanes 0-7 and lanes 8-31 each take a ticket with atomicAdd on their
 * own side of a branch: the tickets show which side ran first. */
static const char order_src[] = HEAD
    ".visible .entry order(.param .u64 ctr, .param .u64 out)\n"
    "{\n"
    "  .reg .pred p;\n  .reg .b32 r<4>;\n  .reg .b64 rd<5>;\n"
    "  ld.param.u64 rd1, [ctr];\n"
    "  ld.param.u64 rd2, [out];\n"
    "  mov.u32 r1, %tid.x;\n"
    "  setp.lt.u32 p, r1, 8;\n"
    "  @p bra FEW;\n"
    "  atom.global.add.u32 r2, [rd1], 1;\n"
    "  bra END;\n"
    "FEW:\n"
    "  atom.global.add.u32 r2, [rd1], 1;\n"
    "END:\n"
    "  mul.wide.u32 rd3, r1, 4;\n"
    "  add.u64 rd4, rd2, rd3;\n"
    "  st.global.u32 [rd4], r2;\n"
    "  ret;\n"
    "}\n";

/* __syncwarp() on both sides of a branch: lanes 0-15 write shared
 * memory before theirs, lanes 16-31 read it after theirs (the taken
 * side, so they get there first). */
static const char wsync_src[] = HEAD
    ".visible .entry wsync(.param .u64 out)\n"
    "{\n"
    "  .reg .pred p;\n  .reg .b32 r<8>;\n  .reg .b64 rd<4>;\n"
    "  .shared .align 4 .b32 s[16];\n"
    "  ld.param.u64 rd1, [out];\n"
    "  mov.u32 r1, %tid.x;\n"
    "  mov.u32 r5, s;\n"
    "  setp.ge.u32 p, r1, 16;\n"
    "  @p bra READ;\n"
    "  shl.b32 r3, r1, 2;\n"
    "  add.u32 r4, r5, r3;\n"
    "  mad.lo.u32 r6, r1, 10, 7;\n"
    "  st.shared.u32 [r4], r6;\n"
    "  bar.warp.sync -1;\n"
    "  add.u32 r2, r1, 1000;\n"
    "  bra JOIN;\n"
    "READ:\n"
    "  bar.warp.sync -1;\n"
    "  sub.u32 r3, r1, 16;\n"
    "  shl.b32 r3, r3, 2;\n"
    "  add.u32 r4, r5, r3;\n"
    "  ld.shared.u32 r2, [r4];\n"
    "JOIN:\n"
    "  mul.wide.u32 rd2, r1, 4;\n"
    "  add.u64 rd3, rd1, rd2;\n"
    "  st.global.u32 [rd3], r2;\n"
    "  ret;\n"
    "}\n";

/* A .sync operation reached by two paths before they reconverge: lanes
 * 0-15 (taken) compute v = 10 * lane and pass a second, never taken
 * exit, so the branch's post-dominator is the ret and the operation
 * at S runs inside the divergent region; lanes 16-31 compute
 * v = 100 * lane.  OP reads v of every lane into r3. */
static const char dsync_fmt[] = HEAD
    ".visible .entry dsync(.param .u64 out)\n"
    "{\n"
    "  .reg .pred p, q;\n  .reg .b32 r<6>;\n  .reg .b64 rd<4>;\n"
    "  ld.param.u64 rd1, [out];\n"
    "  mov.u32 r1, %%tid.x;\n"
    "  setp.lt.u32 p, r1, 16;\n"
    "  @p bra A;\n"
    "  mul.lo.u32 r2, r1, 100;\n"
    "  bra S;\n"
    "A:\n"
    "  mul.lo.u32 r2, r1, 10;\n"
    "  setp.eq.u32 q, r1, 99;\n"
    "  @q bra OUT;\n"
    "S:\n"
    "  %s\n"
    "  mul.wide.u32 rd2, r1, 4;\n"
    "  add.u64 rd3, rd1, rd2;\n"
    "  st.global.u32 [rd3], r3;\n"
    "OUT:\n"
    "  ret;\n"
    "}\n";

/* Lanes 0-15 run OP (pc 6, line 17, CUDA source k.cu:7) inside an if
 * that lanes 16-31 skip (BR "bra J"), or after lanes 16-31 exited (BR
 * "exit").  J is pc 7, line 19. */
static const char half_fmt[] = HEAD
    ".file 1 \"k.cu\"\n"
    ".visible .entry half(.param .u64 out)\n"
    "{\n"
    "  .reg .pred p;\n  .reg .b32 r<6>;\n  .reg .b64 rd<4>;\n"
    "  ld.param.u64 rd1, [out];\n"
    "  mov.u32 r1, %%tid.x;\n"
    "  mul.lo.u32 r2, r1, 3;\n"
    "  mov.u32 r3, 0;\n"
    "  setp.ge.u32 p, r1, 16;\n"
    "  @p %s;\n"
    ".loc 1 7 0\n"
    "  %s\n"
    J_STORE_R3;

static void open_mode(const char *name, const char *src,
                      ptxemu_reconvergence mode, ptxemu_diverge_order order)
{
    ptxemu_device_options o;
    ptxemu_device_options_default(&o);
    o.reconvergence = mode;
    o.diverge_order = order;
    o.watchdog_rounds = 50;
    ck_assert_int_eq(ptxemu_device_create(&o, &dev), PTXEMU_SUCCESS);
    ptxemu_status st = ptxemu_module_load_string(dev, name, src, 0, &mod);
    ck_assert_msg(st == PTXEMU_SUCCESS, "loading %s: %s", name,
                  ptxemu_last_error_message(dev));
}

static uint64_t warp_insns(void)
{
    ptxemu_stats s;
    ck_assert_int_eq(ptxemu_get_stats(dev, &s), PTXEMU_SUCCESS);
    return s.warp_insns;
}

/* ------------------------------------------------------- spin lock */

/* One warp.  Lanes CAS in ascending order, so lane k takes the lock in
 * round k, and the order is 0..31.  (The warp instructions spent
 * spinning depend on the scheduler's quantum and EMU_ITS_QUIET: the
 * winner goes on once the grid has been quiet that long.) */
START_TEST(its_spinlock_one_warp)
{
    open_mode("spin", spin_src, PTXEMU_RECONVERGENCE_ITS,
              PTXEMU_DIVERGE_TAKEN_FIRST);
    ptxemu_devptr m = dbuf(NULL, 4), c = dbuf(NULL, 4), o = dbuf(NULL, 128);
    void *params[] = { &m, &c, &o };
    launch("spinlock", 1, 32, 0, params);
    uint32_t cnt, order[32], mu;
    dget(&cnt, c, 4);
    dget(&mu, m, 4);
    dget(order, o, sizeof(order));
    ck_assert_uint_eq(cnt, 32);
    ck_assert_uint_eq(mu, 0);
    for (unsigned i = 0; i < 32; i++) {
        EQ_I("order", i, order[i], i);
    }
    close_ptx();
}
END_TEST

/* Four warps on one lock: every thread gets in exactly once. */
START_TEST(its_spinlock_four_warps)
{
    open_mode("spin", spin_src, PTXEMU_RECONVERGENCE_ITS,
              PTXEMU_DIVERGE_MAJORITY_FIRST);
    ptxemu_devptr m = dbuf(NULL, 4), c = dbuf(NULL, 4), o = dbuf(NULL, 512);
    void *params[] = { &m, &c, &o };
    launch("spinlock", 1, 128, 0, params);
    uint32_t cnt, order[128], seen[128] = { 0 };
    dget(&cnt, c, 4);
    dget(order, o, sizeof(order));
    ck_assert_uint_eq(cnt, 128);
    for (unsigned i = 0; i < 128; i++) {
        ck_assert_uint_lt(order[i], 128);
        seen[order[i]]++;
    }
    for (unsigned i = 0; i < 128; i++) {
        EQ_I("entries of thread", i, seen[i], 1);
    }
    close_ptx();
}
END_TEST

/* Under IPDOM the winner waits at the reconvergence point (pc 7, line
 * 18) while the others spin: a SIMT deadlock, reported with the lanes,
 * the pcs and the way out. */
START_TEST(ipdom_spinlock_diagnosed)
{
    open_mode("spin", spin_src, PTXEMU_RECONVERGENCE_IPDOM,
              PTXEMU_DIVERGE_TAKEN_FIRST);
    ptxemu_devptr m = dbuf(NULL, 4), c = dbuf(NULL, 4), o = dbuf(NULL, 128);
    void *params[] = { &m, &c, &o };
    const char *msg = e2e_launch_fail("spinlock", 1, 32, params,
                                      PTXEMU_ERROR_DEADLOCK);
    ck_assert_msg(strstr(msg, "SIMT deadlock") &&
                  strstr(msg, "warp 0 of CTA 0 at pc ") &&
                  strstr(msg, "mask 0xfffffffe)") &&
                  strstr(msg, "lanes 0x1 of warp 0 wait at the "
                              "reconvergence point pc 7 (line 18)") &&
                  strstr(msg, "--reconvergence its"), "%s", msg);
    close_ptx();
}
END_TEST

/* The report gives CUDA source positions when the PTX has .loc
 * directives: the spin loop at lock.cu:5, the reconvergence point (the
 * critical section) at lock.cu:9. */
START_TEST(ipdom_deadlock_names_cuda_lines)
{
    char src[4096];
    const char *loop = strstr(spin_src, "LOOP:\n");
    const char *crit = strstr(spin_src, "  ld.volatile.global.u32 r3");
    ck_assert(loop && crit);
    snprintf(src, sizeof(src), "%.*s.file 1 \"lock.cu\"\n%.*s.loc 1 5 0\n"
             "%.*s.loc 1 9 0\n%s", (int)strlen(HEAD), spin_src,
             (int)(loop + 6 - spin_src - strlen(HEAD)),
             spin_src + strlen(HEAD), (int)(crit - loop - 6), loop + 6,
             crit);
    open_mode("spin", src, PTXEMU_RECONVERGENCE_IPDOM,
              PTXEMU_DIVERGE_TAKEN_FIRST);
    ptxemu_devptr m = dbuf(NULL, 4), c = dbuf(NULL, 4), o = dbuf(NULL, 128);
    void *params[] = { &m, &c, &o };
    const char *msg = e2e_launch_fail("spinlock", 1, 32, params,
                                      PTXEMU_ERROR_DEADLOCK);
    ck_assert_msg(strstr(msg, ", lock.cu:5, mask 0xfffffffe)") &&
                  strstr(msg, "reconvergence point pc 7 (line 21, "
                              "lock.cu:9)"), "%s", msg);
    close_ptx();
}
END_TEST

/* The default follows the device's arch (README, "Reconvergence"): ITS
 * on the default sm_80 (the spin lock completes, in order), IPDOM on an
 * sm_60 (Pascal has no independent thread scheduling: the spin lock is
 * a SIMT deadlock). */
START_TEST(default_by_arch)
{
    static const unsigned archs[] = { 0, 70, 90, 60, 52 };
    for (unsigned a = 0; a < sizeof(archs) / sizeof(archs[0]); a++) {
        ptxemu_device_options o;
        ptxemu_device_options_default(&o);
        o.watchdog_rounds = 50;
        o.arch = archs[a];
        ck_assert_int_eq(o.reconvergence, PTXEMU_RECONVERGENCE_DEFAULT);
        ck_assert_int_eq(ptxemu_device_create(&o, &dev), PTXEMU_SUCCESS);
        ck_assert_int_eq(ptxemu_module_load_string(dev, "spin", spin_src, 0,
                                                   &mod), PTXEMU_SUCCESS);
        ptxemu_devptr m = dbuf(NULL, 4), c = dbuf(NULL, 4);
        ptxemu_devptr ord = dbuf(NULL, 128);
        void *params[] = { &m, &c, &ord };
        if (archs[a] == 0 || archs[a] >= 70) {
            launch("spinlock", 1, 32, 0, params);
            uint32_t cnt;
            dget(&cnt, c, 4);
            EQ_I("lock entries, arch", archs[a], cnt, 32);
        } else {
            const char *msg = e2e_launch_fail("spinlock", 1, 32, params,
                                              PTXEMU_ERROR_DEADLOCK);
            ck_assert_msg(strstr(msg, "--reconvergence its"), "%s", msg);
        }
        close_ptx();
    }
}
END_TEST

/* The module's .target counts too (emu/its.h, emu_its_module_mode):
 * ITS needs an sm_70+ device and an sm_70+ target (CUDA runs code
 * compiled for compute_60 with Pascal's scheduling on Volta: Volta
 * Tuning Guide); an explicit --reconvergence holds whatever the target. */
START_TEST(mode_by_target)
{
    static const struct {
        unsigned arch;
        ptxemu_reconvergence forced;
        const char *target;
        bool its;
    } cases[] = {
        { 0, PTXEMU_RECONVERGENCE_DEFAULT, "sm_60", false },
        { 0, PTXEMU_RECONVERGENCE_DEFAULT, "sm_70", true },
        { 0, PTXEMU_RECONVERGENCE_DEFAULT, "sm_90a", true },
        { 90, PTXEMU_RECONVERGENCE_DEFAULT, "sm_61", false },
        { 60, PTXEMU_RECONVERGENCE_DEFAULT, "sm_80", false },
        { 0, PTXEMU_RECONVERGENCE_ITS, "sm_60", true },
        { 60, PTXEMU_RECONVERGENCE_ITS, "sm_52", true },
        { 0, PTXEMU_RECONVERGENCE_IPDOM, "sm_80", false },
    };
    for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        char src[sizeof(spin_src) + 8];
        const char *t = strstr(spin_src, "sm_80");
        ck_assert(t != NULL);
        snprintf(src, sizeof(src), "%.*s%s%s", (int)(t - spin_src),
                 spin_src, cases[k].target, t + 5);
        ptxemu_device_options o;
        ptxemu_device_options_default(&o);
        o.watchdog_rounds = 50;
        o.arch = cases[k].arch;
        o.reconvergence = cases[k].forced;
        ck_assert_int_eq(ptxemu_device_create(&o, &dev), PTXEMU_SUCCESS);
        ck_assert_int_eq(ptxemu_module_load_string(dev, "spin", src, 0,
                                                   &mod), PTXEMU_SUCCESS);
        ptxemu_devptr m = dbuf(NULL, 4), c = dbuf(NULL, 4);
        ptxemu_devptr ord = dbuf(NULL, 128);
        void *params[] = { &m, &c, &ord };
        if (cases[k].its) {
            launch("spinlock", 1, 32, 0, params);
            uint32_t cnt;
            dget(&cnt, c, 4);
            EQ_I("lock entries, case", k, cnt, 32);
        } else {
            const char *msg = e2e_launch_fail("spinlock", 1, 32, params,
                                              PTXEMU_ERROR_DEADLOCK);
            ck_assert_msg(strstr(msg, "SIMT deadlock"), "case %u: %s", k,
                          msg);
        }
        close_ptx();
    }
}
END_TEST

START_TEST(bad_mode_rejected)
{
    ptxemu_device_options o;
    ptxemu_device_options_default(&o);
    o.reconvergence = (ptxemu_reconvergence)7;
    ck_assert_int_eq(ptxemu_device_create(&o, &dev),
                     PTXEMU_ERROR_INVALID_VALUE);
    ck_assert_ptr_null(dev);
}
END_TEST

/* ------------------------------------------------ producer/consumer */

/* Prologue to the branch: 6.  The consumers (taken) run first: two
 * iterations (6) with the flag 0, yield at the second to the producers
 * (6 to JOIN, where they wait), then one iteration that sees the flag
 * (3) and the load of data (1); all 32 lanes then run JOIN (4): 26. */
START_TEST(its_producer_consumer)
{
    open_mode("pc", prodcons_src, PTXEMU_RECONVERGENCE_ITS,
              PTXEMU_DIVERGE_TAKEN_FIRST);
    ptxemu_devptr f = dbuf(NULL, 4), d = dbuf(NULL, 4), o = dbuf(NULL, 128);
    void *params[] = { &f, &d, &o };
    launch("prodcons", 1, 32, 0, params);
    uint32_t out[32];
    dget(out, o, sizeof(out));
    for (unsigned i = 0; i < 32; i++) {
        EQ_I("out", i, out[i], i < 16 ? 42 : 100 + i);
    }
    ck_assert_uint_eq(warp_insns(), 26);
    close_ptx();
}
END_TEST

/* Spins whose registers change (emu/its.c, steady_steps): the consumers
 * count their polls.  Prologue to the branch: 7.  The consumers (taken)
 * poll three times (12): the counter changes every time, by the same
 * step from the second round trip on, so the third yields to the
 * producers (6 to JOIN, where they wait); one more poll sees the flag
 * (4) and loads the data (1); all 32 lanes run JOIN (4): 34. */
START_TEST(its_counting_consumer)
{
    char src[sizeof(prodcons_src) + 128];
    const char *cons = strstr(prodcons_src, "CONS:\n");
    const char *cmp = strstr(prodcons_src, "  setp.eq.u32 w");
    const char *br = strstr(prodcons_src, "  setp.lt.u32 p");
    ck_assert(cons && cmp && br);
    snprintf(src, sizeof(src), "%.*s  mov.u32 r5, 0;\n%.*s"
             "  add.u32 r5, r5, 1;\n%s", (int)(br - prodcons_src),
             prodcons_src, (int)(cmp - br), br, cmp);
    for (unsigned k = 0; k < 2; k++) {
        open_mode("pc", src, k ? PTXEMU_RECONVERGENCE_ITS
                               : PTXEMU_RECONVERGENCE_IPDOM,
                  PTXEMU_DIVERGE_TAKEN_FIRST);
        ptxemu_devptr f = dbuf(NULL, 4), d = dbuf(NULL, 4);
        ptxemu_devptr o = dbuf(NULL, 128);
        void *params[] = { &f, &d, &o };
        if (!k) {
            /* IPDOM: diagnosed, in bounded time, not a live-lock */
            const char *msg = e2e_launch_fail("prodcons", 1, 32, params,
                                              PTXEMU_ERROR_DEADLOCK);
            ck_assert_msg(strstr(msg, "SIMT deadlock"), "%s", msg);
            close_ptx();
            continue;
        }
        launch("prodcons", 1, 32, 0, params);
        uint32_t out[32];
        dget(out, o, sizeof(out));
        for (unsigned i = 0; i < 32; i++) {
            EQ_I("out", i, out[i], i < 16 ? 42 : 100 + i);
        }
        ck_assert_uint_eq(warp_insns(), 34);
        close_ptx();
    }
}
END_TEST

/* The spin lock with a retry counter in the loop: the lanes waiting for
 * the spinners still go on once the grid is quiet (no live-lock), and
 * every lane enters once, in lane order. */
START_TEST(its_spinlock_retry_counter)
{
    char src[sizeof(spin_src) + 64];
    const char *loop = strstr(spin_src, "LOOP:\n");
    ck_assert(loop != NULL);
    loop += strlen("LOOP:\n");
    snprintf(src, sizeof(src), "%.*s  add.u32 r5, r5, 3;\n%s",
             (int)(loop - spin_src), spin_src, loop);
    open_mode("spin", src, PTXEMU_RECONVERGENCE_ITS,
              PTXEMU_DIVERGE_TAKEN_FIRST);
    ptxemu_devptr m = dbuf(NULL, 4), c = dbuf(NULL, 4), o = dbuf(NULL, 128);
    void *params[] = { &m, &c, &o };
    launch("spinlock", 1, 32, 0, params);
    uint32_t cnt, order[32];
    dget(&cnt, c, 4);
    dget(order, o, sizeof(order));
    ck_assert_uint_eq(cnt, 32);
    for (unsigned i = 0; i < 32; i++) {
        EQ_I("order", i, order[i], i);
    }
    close_ptx();
}
END_TEST

/* A divergent counting loop that reads no memory changes its registers
 * by constant steps too, but polls nothing: it is not taken for a spin,
 * so lanes that left it wait at its exit as under IPDOM, and both modes
 * run the same warp instructions.  out[tid] = 5 * 2000 * (tid & 3). */
static const char count_src[] = HEAD
    ".visible .entry count(.param .u64 out)\n"
    "{\n"
    "  .reg .pred p;\n  .reg .b32 r<6>;\n  .reg .b64 rd<4>;\n"
    "  ld.param.u64 rd1, [out];\n"
    "  mov.u32 r1, %tid.x;\n"
    "  and.b32 r2, r1, 3;\n"
    "  mul.lo.u32 r2, r2, 2000;\n"
    "  mov.u32 r3, 0;\n"
    "  mov.u32 r4, 0;\n"
    "  setp.ge.u32 p, r3, r2;\n"
    "  @p bra DONE;\n"
    "TOP:\n"
    "  add.u32 r4, r4, 5;\n"
    "  add.u32 r3, r3, 1;\n"
    "  setp.lt.u32 p, r3, r2;\n"
    "  @p bra TOP;\n"
    "DONE:\n"
    "  mul.wide.u32 rd2, r1, 4;\n"
    "  add.u64 rd3, rd1, rd2;\n"
    "  st.global.u32 [rd3], r4;\n"
    "  ret;\n"
    "}\n";

START_TEST(counting_loop_same_in_both_modes)
{
    uint64_t n[2];
    for (unsigned k = 0; k < 2; k++) {
        open_mode("count", count_src,
                  k ? PTXEMU_RECONVERGENCE_ITS : PTXEMU_RECONVERGENCE_IPDOM,
                  PTXEMU_DIVERGE_TAKEN_FIRST);
        ptxemu_devptr o = dbuf(NULL, 4 * 32);
        void *params[] = { &o };
        launch("count", 1, 32, 0, params);
        uint32_t out[32];
        dget(out, o, sizeof(out));
        for (unsigned t = 0; t < 32; t++) {
            EQ_I("out", t, out[t], 5 * 2000 * (t & 3));
        }
        n[k] = warp_insns();
        close_ptx();
    }
    /* IPDOM's count is the reference: no lanes were let go early */
    ck_assert_uint_eq(n[0], n[1]);
}
END_TEST

START_TEST(ipdom_producer_consumer_diagnosed)
{
    open_mode("pc", prodcons_src, PTXEMU_RECONVERGENCE_IPDOM,
              PTXEMU_DIVERGE_TAKEN_FIRST);
    ptxemu_devptr f = dbuf(NULL, 4), d = dbuf(NULL, 4), o = dbuf(NULL, 128);
    void *params[] = { &f, &d, &o };
    const char *msg = e2e_launch_fail("prodcons", 1, 32, params,
                                      PTXEMU_ERROR_DEADLOCK);
    ck_assert_msg(strstr(msg, "SIMT deadlock") &&
                  strstr(msg, "mask 0xffff)"), "%s", msg);
    close_ptx();
}
END_TEST

/* --------------------------------------------- well-structured code */

/* The same results and warp instructions in both modes, and under every
 * order (the divergent loop and the if inside it compute; they never
 * spin). */
START_TEST(structured_same_in_both_modes)
{
    static const ptxemu_diverge_order orders[] = {
        PTXEMU_DIVERGE_TAKEN_FIRST, PTXEMU_DIVERGE_MAJORITY_LAST,
        PTXEMU_DIVERGE_MAJORITY_FIRST
    };
    uint64_t ref_insns = 0;
    for (unsigned k = 0; k < 6; k++) {
        open_mode("loops", loop_src, k % 2 ? PTXEMU_RECONVERGENCE_ITS
                                           : PTXEMU_RECONVERGENCE_IPDOM,
                  orders[k / 2]);
        ptxemu_devptr o = dbuf(NULL, 4 * 64);
        void *params[] = { &o };
        launch("loops", 1, 64, 0, params);
        uint32_t out[64];
        dget(out, o, sizeof(out));
        for (unsigned t = 0; t < 64; t++) {
            uint32_t s = 0;
            for (uint32_t i = 0; i < t % 7; i++) {
                s += i * i + (i & 1 ? 3 : 1);
            }
            EQ_I("out", t, out[t], s);
        }
        uint64_t n = warp_insns();
        if (k == 0) {
            ref_insns = n;
        }
        ck_assert_msg(n == ref_insns, "mode %u: %" PRIu64 " warp "
                      "instructions, IPDOM taken-first %" PRIu64, k, n,
                      ref_insns);
        close_ptx();
    }
}
END_TEST

/* Every iteration splits the warp (lane parities differ): 4 warp
 * instructions to the branch, 2 on the odd path, 1 on the even one, 3
 * after they reconverge; 4 before the loop and 4 after it:
 * 4 + 2000 * 10 + 4 = 20008 in both modes. */
START_TEST(long_quiet_loop_same_in_both_modes)
{
    for (unsigned k = 0; k < 2; k++) {
        open_mode("longloop", longloop_src,
                  k ? PTXEMU_RECONVERGENCE_ITS : PTXEMU_RECONVERGENCE_IPDOM,
                  PTXEMU_DIVERGE_TAKEN_FIRST);
        ptxemu_devptr o = dbuf(NULL, 4 * 32);
        void *params[] = { &o };
        launch("longloop", 1, 32, 0, params);
        uint32_t out[32];
        dget(out, o, sizeof(out));
        for (unsigned t = 0; t < 32; t++) {
            uint32_t acc = 0;
            for (uint32_t i = 0; i < 2000; i++) {
                acc += (i + t) & 1 ? i : 3;
            }
            EQ_I("out", t, out[t], acc);
        }
        ck_assert_msg(warp_insns() == 20008, "mode %u: %" PRIu64 " warp "
                      "instructions, want 20008", k, warp_insns());
        close_ptx();
    }
}
END_TEST

/* ------------------------------------------------------ path order */

static void order_run(ptxemu_reconvergence mode, ptxemu_diverge_order o,
                      uint32_t few_first)
{
    open_mode("order", order_src, mode, o);
    ptxemu_devptr c = dbuf(NULL, 4), d = dbuf(NULL, 128);
    void *params[] = { &c, &d };
    launch("order", 1, 32, 0, params);
    uint32_t out[32];
    dget(out, d, sizeof(out));
    for (unsigned i = 0; i < 32; i++) {
        uint32_t want = i < 8 ? (few_first ? i : 24 + i)
                              : (few_first ? i : i - 8);
        EQ_I("ticket", i, out[i], want);
    }
    close_ptx();
}

/* The taken side is lanes 0-7: taken-first and majority-last run it
 * first, majority-first (Turing, Hanoi) the 24 lanes of the other. */
START_TEST(path_order_policy)
{
    for (unsigned m = 0; m < 2; m++) {
        ptxemu_reconvergence mode = m ? PTXEMU_RECONVERGENCE_ITS
                                      : PTXEMU_RECONVERGENCE_IPDOM;
        order_run(mode, PTXEMU_DIVERGE_TAKEN_FIRST, 1);
        order_run(mode, PTXEMU_DIVERGE_MAJORITY_LAST, 1);
        order_run(mode, PTXEMU_DIVERGE_MAJORITY_FIRST, 0);
    }
}
END_TEST

/* ------------------------------------------------- bar.warp.sync */

/* Under ITS the readers stop at their bar.warp.sync until the writers
 * reach theirs: 5 to the branch, the readers' bar.warp.sync (1), the
 * writers' 7, the readers' other 4, JOIN with all lanes (4): 21, the
 * same count as under IPDOM, where bar.warp.sync waits for nobody and
 * the readers, running first, miss the writes. */
START_TEST(its_syncwarp_across_paths)
{
    for (unsigned m = 0; m < 2; m++) {
        open_mode("wsync", wsync_src, m ? PTXEMU_RECONVERGENCE_ITS
                                        : PTXEMU_RECONVERGENCE_IPDOM,
                  PTXEMU_DIVERGE_TAKEN_FIRST);
        ptxemu_devptr o = dbuf(NULL, 128);
        void *params[] = { &o };
        launch("wsync", 1, 32, 0, params);
        uint32_t out[32];
        dget(out, o, sizeof(out));
        for (unsigned i = 0; i < 16; i++) {
            EQ_I("writer", i, out[i], 1000 + i);
            if (m) {
                EQ_I("reader", 16 + i, out[16 + i], 10 * i + 7);
            }
        }
        if (!m) {
            ck_assert_uint_ne(out[16], 7);
        }
        ck_assert_uint_eq(warp_insns(), 21);
        close_ptx();
    }
}
END_TEST

/* ------------------------------------------ .sync warp operations */

/* Each .sync operation at S with the full mask: under ITS lanes 0-15
 * wait there for lanes 16-31 (PTX ISA: it waits for every non-exited
 * thread of the membermask), which then join them, so it sees every
 * lane's v as on Volta; under IPDOM lanes 0-15 run it alone first.
 * v(l) = l < 16 ? 10 l : 100 l.  Warp instructions, ITS: 4 to the
 * branch, A's 3, the operation parked (1), lanes 16-31 to S (2), their
 * arrival that joins the paths (1), the joined operation (1), 3 stores,
 * ret (1): 16.  IPDOM: 4, A's 3 + 4 from S, the other side's 2 + 4, ret:
 * 18. */
static uint32_t v_of(unsigned l)
{
    return l < 16 ? 10 * l : 100 * l;
}

START_TEST(its_sync_ops_in_divergent_code)
{
    static const struct {
        const char *op;
        int kind;                  /* 0 shfl bfly 16, 1 ballot, 2 redux
                                      add, 3 match.any */
    } ops[] = {
        { "shfl.sync.bfly.b32 r3, r2, 16, 31, 0xffffffff;", 0 },
        { "setp.ge.u32 q, r2, 150;\n  vote.sync.ballot.b32 r3, q, "
          "0xffffffff;", 1 },
        { "redux.sync.add.u32 r3, r2, 0xffffffff;", 2 },
        { "and.b32 r4, r2, 1;\n  match.any.sync.b32 r3, r4, 0xffffffff;",
          3 },
    };
    uint32_t sum = 0, ballot = 0, even = 0;
    for (unsigned l = 0; l < 32; l++) {
        sum += v_of(l);
        ballot |= (uint32_t)(v_of(l) >= 150) << l;
        even |= (uint32_t)((v_of(l) & 1) == 0) << l;
    }
    for (unsigned k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
        char src[2048];
        snprintf(src, sizeof(src), dsync_fmt, ops[k].op);
        /* the extra setp/and before OP adds one instruction per path */
        uint64_t extra = ops[k].kind == 1 || ops[k].kind == 3;
        for (unsigned m = 0; m < 2; m++) {
            open_mode("dsync", src, m ? PTXEMU_RECONVERGENCE_ITS
                                      : PTXEMU_RECONVERGENCE_IPDOM,
                      PTXEMU_DIVERGE_TAKEN_FIRST);
            ptxemu_devptr o = dbuf(NULL, 128);
            void *params[] = { &o };
            launch("dsync", 1, 32, 0, params);
            uint32_t out[32];
            dget(out, o, sizeof(out));
            bool all_right = true;
            for (unsigned l = 0; l < 32; l++) {
                uint32_t want = ops[k].kind == 0 ? v_of(l ^ 16)
                    : ops[k].kind == 1 ? ballot
                    : ops[k].kind == 2 ? sum
                    : (v_of(l) & 1) ? ~even : even;
                if (m) {
                    EQ_I(ops[k].op, l, out[l], want);
                }
                all_right &= out[l] == want;
            }
            if (m) {
                /* ITS: one more issue per path that waited (2 paths) */
                ck_assert_uint_eq(warp_insns(), 16 + 2 * extra);
            } else {
                /* IPDOM: lanes 0-15 ran it without lanes 16-31 */
                ck_assert_msg(!all_right, "%s: right under IPDOM",
                              ops[k].op);
                ck_assert_uint_eq(warp_insns(), 18 + 2 * extra);
            }
            close_ptx();
        }
    }
}
END_TEST

/* Lanes 16-31 exited: the full mask waits for nobody (PTX ISA: "all
 * non-exited threads"): lane l < 16 reads 3 (l ^ 1). */
START_TEST(its_sync_exited_lanes_not_waited_for)
{
    char src[2048];
    snprintf(src, sizeof(src), half_fmt, "exit",
             "shfl.sync.bfly.b32 r3, r2, 1, 31, 0xffffffff;");
    open_mode("half", src, PTXEMU_RECONVERGENCE_ITS,
              PTXEMU_DIVERGE_TAKEN_FIRST);
    ptxemu_devptr o = dbuf(NULL, 128);
    void *params[] = { &o };
    launch("half", 1, 32, 0, params);
    uint32_t out[32];
    dget(out, o, sizeof(out));
    for (unsigned l = 0; l < 32; l++) {
        EQ_I("out", l, out[l], l < 16 ? 3 * (l ^ 1) : 0);
    }
    close_ptx();
}
END_TEST

/* `if (tid >= 16) return;` as nvcc writes it: lanes 16-31 branch to the
 * kernel's ret, where a GPU has them EXIT, so the full mask does not
 * wait for them either: lane l < 16 reads 3 (l ^ 1). */
static const char leave_src[] = HEAD
    ".visible .entry leave(.param .u64 out)\n"
    "{\n"
    "  .reg .pred p;\n  .reg .b32 r<6>;\n  .reg .b64 rd<4>;\n"
    "  ld.param.u64 rd1, [out];\n"
    "  mov.u32 r1, %tid.x;\n"
    "  mul.lo.u32 r2, r1, 3;\n"
    "  setp.ge.u32 p, r1, 16;\n"
    "  @p bra END;\n"
    "  shfl.sync.bfly.b32 r3, r2, 1, 31, 0xffffffff;\n"
    "  mul.wide.u32 rd2, r1, 4;\n"
    "  add.u64 rd3, rd1, rd2;\n"
    "  st.global.u32 [rd3], r3;\n"
    "END:\n"
    "  ret;\n"
    "}\n";

START_TEST(its_sync_leaving_lanes_not_waited_for)
{
    open_mode("leave", leave_src, PTXEMU_RECONVERGENCE_ITS,
              PTXEMU_DIVERGE_TAKEN_FIRST);
    ptxemu_devptr o = dbuf(NULL, 128);
    void *params[] = { &o };
    launch("leave", 1, 32, 0, params);
    uint32_t out[32];
    dget(out, o, sizeof(out));
    for (unsigned l = 0; l < 32; l++) {
        EQ_I("out", l, out[l], l < 16 ? 3 * (l ^ 1) : 0);
    }
    close_ptx();
}
END_TEST

/* Lanes 16-31 skip the shuffle and wait at its post-dominator J (pc 7,
 * line 19): the membermask names lanes that never execute it.  Under ITS
 * a located error (PTX line 17, CUDA source k.cu:7), not a hang; under
 * IPDOM it runs with lanes 0-15 as before. */
/* Kernel `name` of fmt (two %s filled with a and b) under ITS on 32
 * threads with out[32]: it must stop with an illegal instruction; its
 * message (valid until close_ptx). */
static const char *its_illegal(const char *name, const char *fmt,
                               const char *a, const char *b)
{
    char src[2048];
    snprintf(src, sizeof(src), fmt, a, b);
    open_mode(name, src, PTXEMU_RECONVERGENCE_ITS,
              PTXEMU_DIVERGE_TAKEN_FIRST);
    ptxemu_devptr o = dbuf(NULL, 128);
    void *params[] = { &o };
    return e2e_launch_fail(name, 1, 32, params,
                           PTXEMU_ERROR_ILLEGAL_INSTRUCTION);
}

/* Two .sync operations at different instructions, one per side of a
 * branch, both with membermask 0xffffffff: lanes 0-15 run OPA with their
 * values in r2, lanes 16-31 run OPB with theirs in r4 (v = 10 * lane
 * and 100 * lane); the result goes to r3 on both sides. */
static const char two_fmt[] = HEAD
    ".visible .entry two(.param .u64 out)\n"
    "{\n"
    "  .reg .pred p, q;\n  .reg .b32 r<8>;\n  .reg .b64 rd<4>;\n"
    "  ld.param.u64 rd1, [out];\n"
    "  mov.u32 r1, %%tid.x;\n"
    "  xor.b32 r6, r1, 16;\n"
    "  and.b32 r7, r1, 1;\n"
    "  setp.eq.u32 q, r7, 1;\n"
    "  setp.lt.u32 p, r1, 16;\n"
    "  @p bra A;\n"
    "  mul.lo.u32 r4, r1, 100;\n"
    "  %s\n"
    "  bra J;\n"
    "A:\n"
    "  mul.lo.u32 r2, r1, 10;\n"
    "  %s\n"
    J_STORE_R3;

static void two_run(const char *opb, const char *opa, uint32_t *out)
{
    char src[2048];
    snprintf(src, sizeof(src), two_fmt, opb, opa);
    open_mode("two", src, PTXEMU_RECONVERGENCE_ITS,
              PTXEMU_DIVERGE_TAKEN_FIRST);
    ptxemu_devptr o = dbuf(NULL, 128);
    void *params[] = { &o };
    launch("two", 1, 32, 0, params);
    dget(out, o, 128);
    close_ptx();
}

/* PTX ISA, shfl.sync: the executing thread waits "until all non-exited
 * threads corresponding to membermask have executed shfl.sync with the
 * same qualifiers and same membermask value"; only "for .target sm_6x
 * or below" must they "execute the same shfl.sync instruction in
 * convergence" (match.sync, vote.sync and redux.sync say the same).  So
 * on sm_70+ shuffles at two places exchange across the branch: lane l
 * reads v of lane l ^ 16, whichever side it ran.  Likewise a ballot
 * sees both sides' predicates (odd lanes): 0xaaaaaaaa everywhere. */
START_TEST(its_sync_same_op_two_places)
{
    /* the shuffles: the same one with its operands in other registers,
     * then with an immediate source lane on both sides; the ballot */
    static const struct {
        const char *opb, *opa;
        bool ballot;
    } cases[] = {
        { "shfl.sync.idx.b32 r3, r4, r6, 31, 0xffffffff;",
          "shfl.sync.idx.b32 r3, r2, r6, 31, 0xffffffff;", false },
        { "shfl.sync.bfly.b32 r3, r4, 16, 31, 0xffffffff;",
          "mov.u32 r5, r2;\n  shfl.sync.bfly.b32 r3, r5, 16, 31, "
          "0xffffffff;", false },
        { "vote.sync.ballot.b32 r3, q, 0xffffffff;",
          "setp.ne.u32 p, r7, 0;\n  vote.sync.ballot.b32 r3, p, "
          "0xffffffff;", true },
    };
    for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        uint32_t out[32];
        two_run(cases[k].opb, cases[k].opa, out);
        for (unsigned l = 0; l < 32; l++) {
            unsigned src = l ^ 16;
            EQ_I(cases[k].opa, l, out[l], cases[k].ballot ? 0xaaaaaaaau
                 : src < 16 ? 10 * src : 100 * src);
        }
    }
}
END_TEST

/* The same shuffle at two places under a guard that leaves the even lanes
 * out (q: odd lanes): the odd lanes of both sides exchange across the
 * branch (lane l reads lane l ^ 16, odd too), the even lanes keep r3 =
 * 7.  The guarded-off lanes still count as present while the joined
 * shuffle runs (5ed17e7); counting only the lanes that execute parked
 * the path midway. */
START_TEST(its_sync_two_places_guarded)
{
    uint32_t out[32];
    two_run("mov.u32 r3, 7;\n  @q shfl.sync.bfly.b32 r3, r4, 16, 31, "
            "0xffffffff;",
            "mov.u32 r3, 7;\n  @q shfl.sync.bfly.b32 r3, r2, 16, 31, "
            "0xffffffff;", out);
    for (unsigned l = 0; l < 32; l++) {
        unsigned src = l ^ 16;
        EQ_I("guarded bfly", l, out[l],
             l % 2 == 0 ? 7u : src < 16 ? 10 * src : 100 * src);
    }
}
END_TEST

/* Different operations do not wait for each other: bar.warp.sync waits
 * until the members "have executed a bar.warp.sync with the same
 * membermask value", shfl.sync for a shfl.sync with the same
 * qualifiers (PTX ISA 9.7.13.2 and shfl.sync), so a bar.warp.sync on
 * one side and a shfl.sync on the other, or two shuffles of different
 * modes, never complete: the located error of members that never
 * execute it, naming where the others wait. */
START_TEST(its_sync_different_ops_never_meet)
{
    static const struct {
        const char *opb, *opa, *want;
    } cases[] = {
        { "bar.warp.sync 0xffffffff;",
          "shfl.sync.idx.b32 r3, r2, r6, 31, 0xffffffff;",
          "lanes 0x0000ffff wait at shfl.sync" },
        { "shfl.sync.down.b32 r3, r4, 16, 31, 0xffffffff;",
          "shfl.sync.idx.b32 r3, r2, r6, 31, 0xffffffff;",
          "lanes 0x0000ffff wait at shfl.sync" },
    };
    for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        const char *msg = its_illegal("two", two_fmt, cases[k].opb,
                                      cases[k].opa);
        ck_assert_msg(strstr(msg, "never execute it") &&
                      strstr(msg, cases[k].want), "case %u: %s", k, msg);
        close_ptx();
    }
}
END_TEST

START_TEST(its_sync_members_never_arrive)
{
    char src[2048];
    snprintf(src, sizeof(src), half_fmt, "bra J",
             "shfl.sync.bfly.b32 r3, r2, 1, 31, 0xffffffff;");
    const char *msg = its_illegal("half", "%s", src, "");
    ck_assert_msg(strstr(msg, "kernel 'half' failed") &&
                  strstr(msg, ":17:") && strstr(msg, "CTA (0,0,0)") &&
                  strstr(msg, "shfl.sync: lanes 0x0000ffff of warp 0 wait "
                              "for members 0xffffffff that never execute "
                              "it: lanes 0xffff0000 wait at the "
                              "reconvergence point pc 7 (line 19)") &&
                  strstr(msg, "CUDA source: k.cu:7"), "%s", msg);
    close_ptx();
    open_mode("half", src, PTXEMU_RECONVERGENCE_IPDOM,
              PTXEMU_DIVERGE_TAKEN_FIRST);
    ptxemu_devptr o = dbuf(NULL, 128);
    void *params[] = { &o };
    launch("half", 1, 32, 0, params);
    close_ptx();
}
END_TEST

/* A lane outside its own membermask: lane 0 runs a shuffle whose mask
 * names lanes 1-15 only (PTX ISA: undefined; here an illegal
 * instruction naming the lane); bar.warp.sync likewise. */
START_TEST(its_sync_lane_not_in_own_mask)
{
    static const char *ops[] = {
        "shfl.sync.idx.b32 r3, r2, 1, 31, 0xfffe;",
        "bar.warp.sync 0xfffffffe;",
    };
    static const char *want[] = {
        "shfl.sync: lane 0 of warp 0 (lanes 0xffffffff execute it) is not "
        "in its own membermask 0x0000fffe",
        "bar.warp.sync: lane 0 of warp 0 (lanes 0xffffffff execute it) is "
        "not in its own membermask 0xfffffffe",
    };
    for (unsigned k = 0; k < 2; k++) {
        char src[2048];
        snprintf(src, sizeof(src), half_fmt, "bra J", ops[k]);
        /* converged: no branch around it */
        char *b = strstr(src, "  @p bra J;\n");
        ck_assert_ptr_nonnull(b);
        memset(b, ' ', strlen("  @p bra J;"));
        open_mode("half", src, PTXEMU_RECONVERGENCE_ITS,
                  PTXEMU_DIVERGE_TAKEN_FIRST);
        ptxemu_devptr o = dbuf(NULL, 128);
        void *params[] = { &o };
        const char *msg = e2e_launch_fail("half", 1, 32, params,
                                          PTXEMU_ERROR_ILLEGAL_INSTRUCTION);
        ck_assert_msg(strstr(msg, want[k]) && strstr(msg, ":17:") &&
                      strstr(msg, "CUDA source: k.cu:7"), "%s", msg);
        close_ptx();
    }
}
END_TEST

static Suite *its_suite(void)
{
    Suite *s = suite_create("its");
    TCase *tc = tcase_create("its");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, its_spinlock_one_warp);
    tcase_add_test(tc, its_spinlock_four_warps);
    tcase_add_test(tc, ipdom_spinlock_diagnosed);
    tcase_add_test(tc, ipdom_deadlock_names_cuda_lines);
    tcase_add_test(tc, default_by_arch);
    tcase_add_test(tc, mode_by_target);
    tcase_add_test(tc, bad_mode_rejected);
    tcase_add_test(tc, its_producer_consumer);
    tcase_add_test(tc, ipdom_producer_consumer_diagnosed);
    tcase_add_test(tc, its_counting_consumer);
    tcase_add_test(tc, its_spinlock_retry_counter);
    tcase_add_test(tc, counting_loop_same_in_both_modes);
    tcase_add_test(tc, structured_same_in_both_modes);
    tcase_add_test(tc, long_quiet_loop_same_in_both_modes);
    tcase_add_test(tc, path_order_policy);
    tcase_add_test(tc, its_syncwarp_across_paths);
    tcase_add_test(tc, its_sync_ops_in_divergent_code);
    tcase_add_test(tc, its_sync_exited_lanes_not_waited_for);
    tcase_add_test(tc, its_sync_leaving_lanes_not_waited_for);
    tcase_add_test(tc, its_sync_same_op_two_places);
    tcase_add_test(tc, its_sync_two_places_guarded);
    tcase_add_test(tc, its_sync_different_ops_never_meet);
    tcase_add_test(tc, its_sync_members_never_arrive);
    tcase_add_test(tc, its_sync_lane_not_in_own_mask);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(its_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
