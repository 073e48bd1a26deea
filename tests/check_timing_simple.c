/*
 * tests/check_timing_simple.c: the `simple` timing model
 * (timing/simple/) driven through a mock host (tests/tm_mock.c) with
 * hand-built instruction streams, against cycle counts worked out by hand
 * from the model's rules (timing/simple/simple.h):
 *  - an instruction issued at cycle t with latency L makes its
 *    destinations ready at t + L; a dependant issues at t + L;
 *  - one scheduler issues at most one warp instruction per cycle,
 *    searching its warps round robin from the one after the warp it
 *    issued last (so warps take turns);
 *  - a CTA retires at max(last exit + 1, its last pending write or
 *    memory access or asynchronous operation); the kernel ends when the
 *    last CTA retires; exits and barriers have no destination, so their
 *    own latency never delays a retirement;
 *  - unless a test says otherwise (mock_init's baseline): one SM, one
 *    scheduler, no launch latency, lat.int 4, ii.int/ii.ctrl/ii.sync 1.
 * Every trace below lists the issue cycles; the mock records each
 * instruction's issue cycle from set_time (what %clock reads), so the
 * traces are asserted, not only the totals.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/testutil.h"
#include "tests/tm_mock.h"
#include "timing/tm.h"

static MockHost M; /* large: static, one per test process */

#define ISSUE(c_, w_, pc_) (M.cta[c_].w[w_].issue[pc_])
#define NONE MOCK_NOSLOT

static const char *param_default(const char *name)
{
    ptxemu_tm_ops ops = {.abi_version = PTXEMU_TM_ABI_VERSION,
                         .struct_size = sizeof ops};
    ck_assert_int_eq(tm_simple_init(PTXEMU_TM_ABI_VERSION, &ops), 0);
    for (uint32_t i = 0; i < ops.nparams; i++) {
        if (strcmp(ops.params[i].name, name) == 0) {
            return ops.params[i].def;
        }
    }
    ck_abort_msg("no parameter %s", name);
    return NULL;
}

/* Issued + every stall reason = cycles * SMs * schedulers: each scheduler
 * is counted once per cycle. */
static void check_accounting(uint64_t nsched)
{
    static const char *const why[] = {"scoreboard", "unit", "barrier",
                                      "async", "throttle", "idle"};
    uint64_t sum = mock_stat(&M, "simple.issued");
    for (size_t i = 0; i < sizeof why / sizeof why[0]; i++) {
        char path[64];
        snprintf(path, sizeof path, "simple.stall.%s", why[i]);
        sum += mock_stat(&M, path);
    }
    ck_assert_uint_eq(sum, mock_stat(&M, "simple.cycles") * M.nsms * nsched);
}

/* ---- a dependent chain ---- */

/* 8 dependent adds, latency 4: issued at 0, 4, ..., 28 (each waits for
 * the previous result), exit at 29; the last add's result is ready at
 * 32 = 8 x 4, so the CTA retires at 32.  Scheduler cycles: 9 issues,
 * 7 x 3 scoreboard stalls (1-3, 5-7, ..., 25-27), idle 30-31 (the warp
 * has exited): 9 + 21 + 2 = 32. */
START_TEST(chain_takes_n_times_latency)
{
    mock_init(&M, 1);
    mock_chain(&M, 0, 8);
    ck_assert_uint_eq(mock_time(&M), 32);
    for (uint32_t i = 0; i < 8; i++) {
        ck_assert_uint_eq(ISSUE(0, 0, i), 4 * i);
    }
    ck_assert_uint_eq(ISSUE(0, 0, 8), 29);
    ck_assert_uint_eq(mock_stat(&M, "simple.cycles"), 32);
    ck_assert_uint_eq(mock_stat(&M, "simple.issued"), 9);
    ck_assert_uint_eq(mock_stat(&M, "simple.sm0.issued"), 9);
    ck_assert_uint_eq(mock_stat(&M, "simple.thread_insns"), 9 * 32);
    ck_assert_uint_eq(mock_stat(&M, "simple.stall.scoreboard"), 21);
    ck_assert_uint_eq(mock_stat(&M, "simple.stall.idle"), 2);
    ck_assert_uint_eq(mock_stat(&M, "simple.stall.unit"), 0);
    ck_assert_uint_eq(mock_stat(&M, "simple.ctas"), 1);
    check_accounting(1);
    mock_fini(&M);
}
END_TEST

/* The same chain with the model's own defaults (4 schedulers, ii.int 2,
 * the launch latency): launch_latency + 8 x lat.int, both read from the
 * parameter table. */
START_TEST(chain_with_defaults)
{
    mock_init(&M, 1);
    M.nsetkv = 0; /* drop the baseline overrides */
    mock_chain(&M, 0, 8);
    uint64_t lat = strtoull(param_default("lat.int"), NULL, 10);
    uint64_t launch = strtoull(param_default("launch_latency"), NULL, 10);
    ck_assert_uint_eq(mock_time(&M), launch + 8 * lat);
    ck_assert_uint_eq(ISSUE(0, 0, 0), launch);
    ck_assert(M.mhz == strtod(param_default("clock_mhz"), NULL));
    check_accounting(strtoull(param_default("schedulers_per_sm"), NULL, 10));
    mock_fini(&M);
}
END_TEST

/* ---- independent chains from K warps on one scheduler ---- */

/* K warps of 16 dependent adds each (latency 4), one CTA.  Round robin
 * gives warp k's add i the cycle i * max(K, 4) + k while K <= 4 (each
 * result is ready just as the warp's turn comes back) and i * K + k once
 * K > 4 (the scheduler issues every cycle: saturated).  Then the exits,
 * one per cycle.  Worked out:
 *   K=1: adds 0..60, exit 61; last result 64               -> 64
 *   K=2: adds at 4i, 4i+1; exits 62, 63; last result 61+4  -> 65
 *   K=4: adds fill 0..63; exits 64..67; retire 67+1        -> 68
 *   K=8: adds fill 0..127; exits 128..135; retire 136      -> 136
 * i.e. max(16*4 + K - 1, K*(16+1)): latency-bound, then issue-bound. */
static const struct {
    uint32_t k;
    uint64_t cycles;
} overlap[] = {{1, 64}, {2, 65}, {3, 66}, {4, 68}, {8, 136}, {12, 204}};

START_TEST(independent_chains_overlap)
{
    uint32_t k = overlap[_i].k;
    mock_init(&M, 1);
    mock_grid(&M, 1, k);
    for (uint32_t w = 0; w < k; w++) {
        mock_chain(&M, w, 16);
    }
    uint64_t want = 16 * 4 + k - 1;
    if (want < k * 17) {
        want = k * 17;
    }
    ck_assert_uint_eq(want, overlap[_i].cycles); /* the table is the rule */
    ck_assert_uint_eq(mock_time(&M), overlap[_i].cycles);
    uint32_t period = k > 4 ? k : 4;
    for (uint32_t w = 0; w < k; w++) {
        for (uint32_t i = 0; i < 16; i++) {
            ck_assert_uint_eq(ISSUE(0, w, i), i * period + w);
        }
    }
    ck_assert_uint_eq(mock_stat(&M, "simple.issued"), k * 17);
    check_accounting(1);
    mock_fini(&M);
}
END_TEST

/* Four schedulers, eight warps: slot % 4 puts warps 0 and 4 on scheduler
 * 0, 1 and 5 on scheduler 1, ...  Each scheduler is the K=2 case: 65
 * cycles; warp 4 issues its first add at cycle 1 (after warp 0), warp 1
 * at cycle 0 (another scheduler). */
START_TEST(schedulers_by_slot_modulo)
{
    mock_init(&M, 1);
    mock_set(&M, "schedulers_per_sm=4");
    mock_grid(&M, 1, 8);
    for (uint32_t w = 0; w < 8; w++) {
        mock_chain(&M, w, 16);
    }
    ck_assert_uint_eq(mock_time(&M), 65);
    for (uint32_t w = 0; w < 8; w++) {
        ck_assert_uint_eq(ISSUE(0, w, 0), w < 4 ? 0 : 1);
    }
    check_accounting(4);
    mock_fini(&M);
}
END_TEST

/* ---- units ---- */

/* 8 independent FP32 ops (no sources, distinct destinations) with
 * ii.fp32 = 2, lat.fp32 = 4: issued at 0, 2, ..., 14 (the unit is busy
 * in between: 7 unit stalls), exit at 15 (CTRL is free); the last result
 * is ready at 14 + 4 = 18.  Cycles: 9 issues + 7 unit + 2 idle = 18. */
START_TEST(unit_initiation_interval)
{
    mock_init(&M, 1);
    mock_set(&M, "ii.fp32=2");
    mock_set(&M, "lat.fp32=4");
    for (uint32_t i = 0; i < 8; i++) {
        mock_op(&M, 0, mock_insn(&M, PTXEMU_TM_UNIT_FP32, 0, 0, 0, NONE, i));
    }
    mock_exit(&M, 0);
    ck_assert_uint_eq(mock_time(&M), 18);
    for (uint32_t i = 0; i < 8; i++) {
        ck_assert_uint_eq(ISSUE(0, 0, i), 2 * i);
    }
    ck_assert_uint_eq(ISSUE(0, 0, 8), 15);
    ck_assert_uint_eq(mock_stat(&M, "simple.stall.unit"), 7);
    ck_assert_uint_eq(mock_stat(&M, "simple.stall.idle"), 2);
    check_accounting(1);
    mock_fini(&M);
}
END_TEST

/* Write-after-write and implicit slots.  A global load to slot 7
 * (latency 100, 1 sector at 32 B/cycle: +1) is ready at 101; an add that
 * only writes slot 7 waits for it (issues at 101); add.cc writes the
 * carry slot at 102 (ready 106); addc reads the carry: 106; exit 107;
 * addc's result at 110 ends the kernel. */
START_TEST(scoreboard_waw_and_carry)
{
    static const ptxemu_tm_access ld = {.addr = 0x1000, .size = 4,
                                        .space = PTXEMU_TM_SPACE_GLOBAL,
                                        .kind = PTXEMU_TM_READ};
    mock_init(&M, 1);
    mock_set(&M, "mem.global.latency=100");
    mock_set(&M, "mem.bytes_per_cycle=32");
    MockOp *op = mock_op(&M, 0, mock_insn(&M, PTXEMU_TM_UNIT_LDST,
                                          PTXEMU_TM_I_LOAD, 0,
                                          PTXEMU_TM_SPACE_GLOBAL, 1, 7));
    op->acc = &ld;
    op->nacc = 1;
    mock_add(&M, 0, NONE, 7);
    mock_add(&M, 0, 2, PTXEMU_TM_SLOT_CARRY);
    mock_add(&M, 0, PTXEMU_TM_SLOT_CARRY, 8);
    mock_exit(&M, 0);
    ck_assert_uint_eq(mock_time(&M), 110);
    static const uint64_t want[] = {0, 101, 102, 106, 107};
    for (uint32_t i = 0; i < 5; i++) {
        ck_assert_uint_eq(ISSUE(0, 0, i), want[i]);
    }
    mock_fini(&M);
}
END_TEST

/* ---- barriers ---- */

/* Two warps on two schedulers.  The fast warp: 2 dependent adds,
 * bar.sync, add, exit; the slow warp: 6 dependent adds, bar.sync, add,
 * exit.
 *   fast: adds 0, 4; bar 5; waits; add 22; exit 23
 *   slow: adds 0, 4, 8, 12, 16, 20; bar 21 (releases); add 22; exit 23
 * Released warps issue from the cycle after the release (21 + 1 = 22),
 * also when the fast warp's scheduler comes after the releasing one in
 * the same cycle (the loop runs both orders: slow = warp 0 or warp 1).
 * The post-barrier adds are ready at 26, the end.  Fast scheduler: 5
 * issues, 3 scoreboard, 16 barrier (6..21), 2 idle; slow one: 9 issues,
 * 15 scoreboard, 2 idle: 52 = 26 x 2. */
START_TEST(barrier_waits_for_slowest)
{
    const uint32_t slow = (uint32_t)_i, fast = 1 - slow;
    mock_init(&M, 1);
    mock_set(&M, "schedulers_per_sm=2");
    mock_grid(&M, 1, 2);
    const ptxemu_tm_insn *bar =
        mock_insn(&M, PTXEMU_TM_UNIT_SYNC, PTXEMU_TM_I_BARRIER,
                  PTXEMU_TM_WAIT_BARRIER, 0, NONE, NONE);
    for (uint32_t w = 0; w < 2; w++) {
        uint32_t n = w == slow ? 6 : 2;
        for (uint32_t i = 0; i < n; i++) {
            mock_add(&M, w, i ? i - 1 : NONE, i);
        }
        mock_op(&M, w, bar)->bar = 1;
        mock_add(&M, w, NONE, 20);
        mock_exit(&M, w);
    }
    ck_assert_uint_eq(mock_time(&M), 26);
    ck_assert_uint_eq(ISSUE(0, fast, 2), 5);  /* arrives */
    ck_assert_uint_eq(ISSUE(0, slow, 6), 21); /* arrives: release */
    ck_assert_uint_eq(ISSUE(0, fast, 3), 22);
    ck_assert_uint_eq(ISSUE(0, slow, 7), 22);
    ck_assert_uint_eq(mock_stat(&M, "simple.issued"), 14);
    ck_assert_uint_eq(mock_stat(&M, "simple.stall.barrier"), 16);
    ck_assert_uint_eq(mock_stat(&M, "simple.stall.scoreboard"), 18);
    ck_assert_uint_eq(mock_stat(&M, "simple.stall.idle"), 4);
    check_accounting(2);
    mock_fini(&M);
}
END_TEST

/* The same two chains in two CTAs of one cluster meeting at a grid-wide
 * barrier (barrier.cluster): the release event names only the releasing
 * CTA, yet the other CTA's warp issues the cycle after it too (26, as
 * above; both CTAs retire at 26). */
START_TEST(cluster_barrier_releases_other_ctas)
{
    const uint32_t slow = (uint32_t)_i;
    mock_init(&M, 1);
    mock_set(&M, "schedulers_per_sm=2");
    mock_grid(&M, 2, 1);
    M.k.cluster[0] = 2;
    const ptxemu_tm_insn *bar =
        mock_insn(&M, PTXEMU_TM_UNIT_SYNC, PTXEMU_TM_I_BARRIER,
                  PTXEMU_TM_WAIT_CLUSTER, 0, NONE, NONE);
    M.cta_prog[1] = 1; /* CTA 1's warp runs program 1 */
    for (uint32_t p = 0; p < 2; p++) {
        uint32_t n = p == slow ? 6 : 2;
        for (uint32_t i = 0; i < n; i++) {
            mock_add(&M, p, i ? i - 1 : NONE, i);
        }
        mock_op(&M, p, bar)->bar = 3;
        mock_add(&M, p, NONE, 20);
        mock_exit(&M, p);
    }
    ck_assert_uint_eq(mock_time(&M), 26);
    ck_assert_uint_eq(ISSUE(1 - slow, 0, 2), 5);  /* arrives */
    ck_assert_uint_eq(ISSUE(slow, 0, 6), 21);     /* the release */
    ck_assert_uint_eq(ISSUE(1 - slow, 0, 3), 22);
    ck_assert_uint_eq(ISSUE(slow, 0, 7), 22);
    mock_fini(&M);
}
END_TEST

/* A barrier nothing releases: time goes on cycle by cycle (the host's
 * watchdog reports a guest deadlock with its own located message), and a
 * host that never does gets the model's error, naming the barrier,
 * after 100000 cycles: the model must not spin for ever. */
START_TEST(barrier_deadlock_is_an_error)
{
    mock_init(&M, 1);
    mock_grid(&M, 1, 2);
    const ptxemu_tm_insn *bar =
        mock_insn(&M, PTXEMU_TM_UNIT_SYNC, PTXEMU_TM_I_BARRIER,
                  PTXEMU_TM_WAIT_BARRIER, 0, NONE, NONE);
    for (uint32_t w = 0; w < 2; w++) {
        mock_op(&M, w, bar)->bar = 2;
        mock_exit(&M, w);
    }
    ck_assert_ptr_nonnull(mock_create(&M));
    uint64_t cycles;
    ck_assert_int_lt(mock_run(&M, &cycles), 0);
    ck_assert_ptr_nonnull(strstr(M.err, "barrier"));
    /* bars at 0 and 1; cycles 2..100001 are barrier stalls; at 100002
     * (the 100001st stuck cycle) the model gives up */
    ck_assert_uint_eq(cycles, 2 + 100000);
    ck_assert_uint_eq(mock_stat(&M, "simple.stall.barrier"), 100000);
    mock_fini(&M);
}
END_TEST

/* A guest fault in a step stops the kernel with the host's result. */
START_TEST(fault_stops_the_kernel)
{
    mock_init(&M, 1);
    mock_add(&M, 0, NONE, 0);
    mock_add(&M, 0, NONE, 1)->fault = 1;
    mock_exit(&M, 0);
    ck_assert_ptr_nonnull(mock_create(&M));
    uint64_t cycles;
    ck_assert_int_eq(mock_run(&M, &cycles), PTXEMU_TM_FAULT);
    mock_fini(&M);
}
END_TEST

/* ---- occupancy: waves ---- */

/* Six CTAs of one warp, each a chain of 8 adds (32 cycles alone), one SM
 * with four schedulers.  When the SM holds only 2 CTAs the grid runs in
 * 3 waves: CTAs 0-1 in 0..32, 2-3 in 32..64, 4-5 in 64..96 (retired
 * CTAs free their slots at 32 and 64 and the next are placed in the same
 * cycle) = 96.  Each row limits residency another way:
 *   CTAs:      max_ctas_per_sm = 2
 *   threads:   64 per SM, 32 per CTA
 *   warps:     2 per SM
 *   registers: 33 per thread = 1056 per warp, allocated in units of 256:
 *              1280; 3 CTAs need 3840 > 3200 (1056 x 3 = 3168 would fit)
 *   shared:    40000 + 1024 reserved = 41024, in units of 128: 41088;
 *              3 CTAs need 123264 > 123100 (41024 x 3 = 123072 would fit)
 *   clusters:  room for 3 CTAs, clusters of 2: the second cluster waits
 *              for both places (3 per wave would take 64 cycles) */
static const struct {
    const char *what, *set;
    uint32_t regs, shared, cluster;
} waves[] = {
    {"ctas", "max_ctas_per_sm=2", 0, 0, 1},
    {"threads", "max_threads_per_sm=64", 0, 0, 1},
    {"warps", "max_warps_per_sm=2", 0, 0, 1},
    {"registers", "regs_per_sm=3200", 33, 0, 1},
    {"shared", "shared_per_sm=123100", 0, 40000, 1},
    {"cluster", "max_ctas_per_sm=3", 0, 0, 2},
};

START_TEST(occupancy_waves)
{
    mock_init(&M, 1);
    mock_set(&M, "schedulers_per_sm=4");
    mock_set(&M, waves[_i].set);
    mock_grid(&M, 6, 1);
    M.k.regs_per_thread = waves[_i].regs;
    M.k.shared_per_cta = waves[_i].shared;
    M.k.cluster[0] = waves[_i].cluster;
    mock_chain(&M, 0, 8);
    uint64_t cycles = mock_time(&M);
    ck_assert_msg(cycles == 96, "%s: %llu cycles", waves[_i].what,
                  (unsigned long long)cycles);
    for (uint32_t c = 0; c < 6; c++) {
        ck_assert_uint_eq(ISSUE(c, 0, 0), 32 * (c / 2));
    }
    mock_fini(&M);
}
END_TEST

/* The control: no limit reached, all six resident at once.  Slots 0-5 on
 * four schedulers: scheduler 0 has CTAs 0 and 4, scheduler 1 CTAs 1 and
 * 5 (the K=2 case of 8 adds: the second warp's last result at 29 + 4 =
 * 33), schedulers 2 and 3 one each (32): 33. */
START_TEST(occupancy_all_resident)
{
    mock_init(&M, 1);
    mock_set(&M, "schedulers_per_sm=4");
    mock_grid(&M, 6, 1);
    mock_chain(&M, 0, 8);
    ck_assert_uint_eq(mock_time(&M), 33);
    mock_fini(&M);
}
END_TEST

/* Two SMs, one CTA each, clusters of two: a cluster spans both SMs, CTA
 * 0 on SM 0 and CTA 1 on SM 1; 4 CTAs = 2 waves of 32 = 64.  Neither SM
 * gets set_time before it holds a CTA, both get it while they do. */
START_TEST(cluster_spans_sms)
{
    mock_init(&M, 2);
    mock_set(&M, "max_ctas_per_sm=1");
    mock_grid(&M, 4, 1);
    M.k.cluster[0] = 2;
    mock_chain(&M, 0, 8);
    ck_assert_uint_eq(mock_time(&M), 64);
    ck_assert_uint_eq(M.cta[0].sm, 0);
    ck_assert_uint_eq(M.cta[1].sm, 1);
    ck_assert_uint_eq(ISSUE(1, 0, 0), 0);
    ck_assert_uint_eq(ISSUE(3, 0, 0), 32);
    ck_assert_uint_gt(M.nset[0], 0);
    ck_assert_uint_gt(M.nset[1], 0);
    ck_assert_uint_eq(mock_stat(&M, "simple.sm1.issued"), 18);
    check_accounting(1);
    mock_fini(&M);
}
END_TEST

/* A CTA larger than an SM (64 threads, 32 allowed) still runs, alone:
 * two such CTAs of 2 chains of 8 (two schedulers: 32 cycles) take 64,
 * with one log line. */
START_TEST(oversized_cta_runs_alone)
{
    mock_init(&M, 1);
    mock_set(&M, "schedulers_per_sm=2");
    mock_set(&M, "max_threads_per_sm=32");
    mock_grid(&M, 2, 2);
    mock_chain(&M, 0, 8);
    mock_chain(&M, 1, 8);
    ck_assert_uint_eq(mock_time(&M), 64);
    ck_assert_uint_eq(ISSUE(1, 1, 0), 32);
    ck_assert_uint_eq(M.nlog, 1);
    mock_fini(&M);
}
END_TEST

/* ---- asynchronous operations ---- */

/* One warp: start an async operation at 0, commit (1), wait, add, exit.
 *   cp.async (LDST) / cp.async.bulk (ASYNC) of 128 global bytes = 4
 *   sectors at 32 B/cycle: done at 0 + 100 + 4 = 104 (the shared write,
 *   23, is sooner);
 *   wgmma or tcgen05 (TENSOR, no accesses): done at lat.tensor = 50.
 * The wait issues when it is done (W), the add at W + 1 (ready W + 5),
 * exit W + 2: the kernel takes W + 5.  The wait is stalled (async) from
 * cycle 2 to W - 1. */
static const struct {
    unsigned unit, wait;
    int global;
    uint64_t w;
} asyncs[] = {
    {PTXEMU_TM_UNIT_LDST, PTXEMU_TM_WAIT_ASYNC_GROUP, 1, 104},
    {PTXEMU_TM_UNIT_ASYNC, PTXEMU_TM_WAIT_BULK_GROUP, 1, 104},
    {PTXEMU_TM_UNIT_TENSOR, PTXEMU_TM_WAIT_WGMMA, 0, 50},
    {PTXEMU_TM_UNIT_TENSOR, PTXEMU_TM_WAIT_TCGEN05, 0, 50},
};

static ptxemu_tm_access copy_acc[64];

static void async_copy(MockOp *op)
{
    for (uint32_t i = 0; i < 32; i++) {
        copy_acc[i] = (ptxemu_tm_access){.addr = 0x2000 + 4 * i, .size = 4,
                                         .lane = (uint8_t)i,
                                         .space = PTXEMU_TM_SPACE_GLOBAL,
                                         .kind = PTXEMU_TM_ASYNC_READ};
        copy_acc[32 + i] = (ptxemu_tm_access){
            .addr = 4 * i, .size = 4, .lane = (uint8_t)i,
            .space = PTXEMU_TM_SPACE_SHARED, .kind = PTXEMU_TM_ASYNC_WRITE};
    }
    op->acc = copy_acc;
    op->nacc = 64;
}

START_TEST(async_wait_stalls)
{
    mock_init(&M, 1);
    mock_set(&M, "mem.global.latency=100");
    mock_set(&M, "mem.shared.latency=23");
    mock_set(&M, "mem.bytes_per_cycle=32");
    mock_set(&M, "lat.tensor=50");
    mock_set(&M, "ii.ldst=1");
    mock_set(&M, "ii.misc=1");
    MockOp *op = mock_op(&M, 0, mock_insn(&M, asyncs[_i].unit,
                                          PTXEMU_TM_I_ASYNC, 0,
                                          PTXEMU_TM_SPACE_NONE, NONE, NONE));
    op->token = 1;
    if (asyncs[_i].global) {
        async_copy(op);
    }
    mock_op(&M, 0, mock_insn(&M, PTXEMU_TM_UNIT_MISC, 0, 0, 0, NONE, NONE));
    mock_op(&M, 0, mock_insn(&M, PTXEMU_TM_UNIT_SYNC, 0, asyncs[_i].wait, 0,
                             NONE, NONE));
    mock_add(&M, 0, NONE, 3);
    mock_exit(&M, 0);
    uint64_t w = asyncs[_i].w;
    ck_assert_uint_eq(mock_time(&M), w + 5);
    ck_assert_uint_eq(ISSUE(0, 0, 1), 1);
    ck_assert_uint_eq(ISSUE(0, 0, 2), w);
    ck_assert_uint_eq(ISSUE(0, 0, 3), w + 1);
    ck_assert_uint_eq(mock_stat(&M, "simple.stall.async"), w - 2);
    check_accounting(1);
    mock_fini(&M);
}
END_TEST

/* An mbarrier wait waits for its CTA's async operations: warp 0 (on
 * scheduler 0) starts a bulk copy at 0 (done 104) and exits at 1; warp 1
 * (scheduler 1, same cycle, after it) cannot pass mbarrier.try_wait until
 * 104, adds at 105 (ready 109), exits 106: 109. */
START_TEST(mbarrier_wait_is_cta_wide)
{
    mock_init(&M, 1);
    mock_set(&M, "schedulers_per_sm=2");
    mock_set(&M, "mem.global.latency=100");
    mock_set(&M, "mem.bytes_per_cycle=32");
    mock_grid(&M, 1, 2);
    MockOp *op = mock_op(&M, 0, mock_insn(&M, PTXEMU_TM_UNIT_ASYNC,
                                          PTXEMU_TM_I_ASYNC, 0, 0, NONE,
                                          NONE));
    op->token = 7;
    async_copy(op);
    mock_exit(&M, 0);
    mock_op(&M, 1, mock_insn(&M, PTXEMU_TM_UNIT_SYNC, 0,
                             PTXEMU_TM_WAIT_MBARRIER, 0, NONE, 4));
    mock_add(&M, 1, NONE, 5);
    mock_exit(&M, 1);
    ck_assert_uint_eq(mock_time(&M), 109);
    ck_assert_uint_eq(ISSUE(0, 0, 1), 1);
    ck_assert_uint_eq(ISSUE(0, 1, 0), 104);
    ck_assert_uint_eq(ISSUE(0, 1, 1), 105);
    mock_fini(&M);
}
END_TEST

/* ---- memory bandwidth ---- */

/* One warp-wide global load (32 lanes x 4 bytes, lane i at base +
 * stride*i), latency 100, 16 bytes/cycle: ready at 100 + sectors*32/16.
 *   stride 4, aligned:    128 B in 4 sectors -> 8  -> 108
 *   stride 4, base+16:    5 sectors (straddles) -> 10 -> 110
 *   stride 64:            32 sectors -> 64 -> 164
 *   stride 0:             1 sector -> 2 -> 102
 * The exit issues at 1; the load's result ends the kernel. */
static const struct {
    uint64_t base, stride, cycles;
} coalesce[] = {
    {0x1000, 4, 108}, {0x1010, 4, 110}, {0x1000, 64, 164}, {0x1000, 0, 102},
};

static ptxemu_tm_access load_acc[4][32];

static MockOp *warp_load(uint32_t w, uint32_t dst, uint32_t k, uint64_t base,
                         uint64_t stride)
{
    for (uint32_t i = 0; i < 32; i++) {
        load_acc[k][i] = (ptxemu_tm_access){
            .addr = base + stride * i, .size = 4, .lane = (uint8_t)i,
            .space = PTXEMU_TM_SPACE_GLOBAL, .kind = PTXEMU_TM_READ};
    }
    MockOp *op = mock_op(&M, w, mock_insn(&M, PTXEMU_TM_UNIT_LDST,
                                          PTXEMU_TM_I_LOAD, 0,
                                          PTXEMU_TM_SPACE_GLOBAL, NONE, dst));
    op->acc = load_acc[k];
    op->nacc = 32;
    return op;
}

START_TEST(coalescing_into_sectors)
{
    mock_init(&M, 1);
    mock_set(&M, "mem.global.latency=100");
    mock_set(&M, "mem.bytes_per_cycle=16");
    warp_load(0, 1, 0, coalesce[_i].base, coalesce[_i].stride);
    mock_exit(&M, 0);
    ck_assert_uint_eq(mock_time(&M), coalesce[_i].cycles);
    mock_fini(&M);
}
END_TEST

/* One 4-byte load from each state space, each space's latency set apart:
 * the result (and the kernel's end; the exit issues at 1) comes after
 * that space's latency, plus 1 port cycle (1 sector at 32 B/cycle) for
 * the spaces behind the SM's memory port (global, local). */
static const struct {
    unsigned space, unit;
    uint64_t cycles;
} spaces[] = {
    {PTXEMU_TM_SPACE_GLOBAL, PTXEMU_TM_UNIT_LDST, 100 + 1},
    {PTXEMU_TM_SPACE_SHARED, PTXEMU_TM_UNIT_LDST, 20},
    {PTXEMU_TM_SPACE_SHARED_CLUSTER, PTXEMU_TM_UNIT_LDST, 30},
    {PTXEMU_TM_SPACE_LOCAL, PTXEMU_TM_UNIT_LDST, 110 + 1},
    {PTXEMU_TM_SPACE_CONST, PTXEMU_TM_UNIT_LDST, 40},
    {PTXEMU_TM_SPACE_PARAM, PTXEMU_TM_UNIT_LDST, 50},
    {PTXEMU_TM_SPACE_TEX, PTXEMU_TM_UNIT_TEX, 60},
};

START_TEST(latency_per_space)
{
    static ptxemu_tm_access acc;
    acc = (ptxemu_tm_access){.addr = 0x40, .size = 4,
                             .space = (uint8_t)spaces[_i].space,
                             .kind = PTXEMU_TM_READ};
    mock_init(&M, 1);
    mock_set(&M, "mem.global.latency=100");
    mock_set(&M, "mem.shared.latency=20");
    mock_set(&M, "mem.dsmem.latency=30");
    mock_set(&M, "mem.local.latency=110");
    mock_set(&M, "mem.const.latency=40");
    mock_set(&M, "mem.param.latency=50");
    mock_set(&M, "mem.tex.latency=60");
    mock_set(&M, "mem.bytes_per_cycle=32");
    MockOp *op = mock_op(&M, 0, mock_insn(&M, spaces[_i].unit,
                                          PTXEMU_TM_I_LOAD, 0,
                                          spaces[_i].space, NONE, 1));
    op->acc = &acc;
    op->nacc = 1;
    mock_exit(&M, 0);
    ck_assert_uint_eq(mock_time(&M), spaces[_i].cycles);
    mock_fini(&M);
}
END_TEST

/* A burst of 4 independent coalesced loads (4 sectors each) at 16
 * bytes/cycle: each holds the SM's port 8 cycles, so they issue at 0, 8,
 * 16, 24 (21 throttle stalls between), the exit at 25; the last is ready
 * at 24 + 100 + 8 = 132.  Idle 26..131: 106.  5 + 21 + 106 = 132. */
START_TEST(bandwidth_capped_burst)
{
    mock_init(&M, 1);
    mock_set(&M, "mem.global.latency=100");
    mock_set(&M, "mem.bytes_per_cycle=16");
    mock_set(&M, "ii.ldst=1");
    for (uint32_t k = 0; k < 4; k++) {
        warp_load(0, 10 + k, k, 0x10000 * (k + 1), 4);
    }
    mock_exit(&M, 0);
    ck_assert_uint_eq(mock_time(&M), 132);
    for (uint32_t k = 0; k < 4; k++) {
        ck_assert_uint_eq(ISSUE(0, 0, k), 8 * k);
    }
    ck_assert_uint_eq(mock_stat(&M, "simple.stall.throttle"), 21);
    ck_assert_uint_eq(mock_stat(&M, "simple.stall.idle"), 106);
    check_accounting(1);
    mock_fini(&M);
}
END_TEST

/* ---- launch latency, device time ---- */

/* A launch at device cycle 1000 with launch_latency 50: the first CTA is
 * placed at 1050 (%clock reads 1050 at the first add), the chain of 8
 * ends at 1050 + 32 = 1082; the kernel takes 82 cycles.  The 50 launch
 * cycles are idle scheduler cycles. */
START_TEST(launch_latency)
{
    mock_init(&M, 1);
    mock_set(&M, "launch_latency=50");
    mock_chain(&M, 0, 8);
    M.k.start_cycle = 1000;
    ck_assert_uint_eq(mock_time(&M), 82);
    ck_assert_uint_eq(ISSUE(0, 0, 0), 1050);
    ck_assert_uint_eq(ISSUE(0, 0, 7), 1078);
    ck_assert_uint_eq(mock_stat(&M, "simple.stall.idle"), 50 + 2);
    check_accounting(1);
    mock_fini(&M);
}
END_TEST

/* ---- dynamic parallelism ---- */

/* A child grid timed inside its parent's step (a host may run it there;
 * ptxemu's runs it after the parent).
 * Parent (one warp): add r0 at 0; the launching step at 1; add r1 <- r0;
 * exit.  Child (one CTA, one warp): a chain of 8 adds from device cycle
 * 1: adds at 1, 5, ..., 29, exit 30, its end 1 + 32 = 33.  The parent's
 * warps issue nothing meanwhile and resume at the child's end: add at
 * 33 (ready 37), exit 34: the parent ends at 37.  simple.cycles adds
 * both kernels' cycles: 37 + 32. */
START_TEST(child_grid_inside_a_step)
{
    mock_init(&M, 1);
    mock_add(&M, 0, NONE, 0);
    mock_op(&M, 0, mock_insn(&M, PTXEMU_TM_UNIT_MISC, 0, 0, 0, NONE, NONE))
        ->child = 1;
    mock_add(&M, 0, 0, 1);
    mock_exit(&M, 0);
    M.child_prog = 1;
    mock_chain(&M, 1, 8);
    M.ck = M.k;
    ck_assert_uint_eq(mock_time(&M), 37);
    ck_assert_uint_eq(M.child_end, 33);
    for (uint32_t i = 0; i < 8; i++) {
        ck_assert_uint_eq(M.ccta[0].w[0].issue[i], 1 + 4 * i);
    }
    ck_assert_uint_eq(ISSUE(0, 0, 2), 33);
    ck_assert_uint_eq(ISSUE(0, 0, 3), 34);
    ck_assert_uint_eq(mock_stat(&M, "simple.cycles"), 37 + 32);
    mock_fini(&M);
}
END_TEST

/* ---- determinism ---- */

/* A mixed kernel: 2 SMs x 2 schedulers, 10 CTAs of 3 warps (residency 2
 * CTAs per SM), chains, loads and a barrier. */
static void mixed_kernel(void)
{
    mock_set(&M, "schedulers_per_sm=2");
    mock_set(&M, "max_ctas_per_sm=2");
    mock_set(&M, "mem.global.latency=120");
    mock_set(&M, "mem.bytes_per_cycle=8");
    mock_grid(&M, 10, 3);
    const ptxemu_tm_insn *bar =
        mock_insn(&M, PTXEMU_TM_UNIT_SYNC, PTXEMU_TM_I_BARRIER,
                  PTXEMU_TM_WAIT_BARRIER, 0, NONE, NONE);
    for (uint32_t w = 0; w < 3; w++) {
        warp_load(w, 1, w, 0x1000 * (w + 1), 4 + 60 * w);
        mock_add(&M, w, 1, 2);
        for (uint32_t i = 0; i < 3 + 2 * w; i++) {
            mock_add(&M, w, 2 + i, 3 + i);
        }
        mock_op(&M, w, bar)->bar = 1;
        mock_add(&M, w, 3, 40);
        mock_exit(&M, w);
    }
}

START_TEST(deterministic)
{
    uint64_t issue[10][3][16];
    mock_init(&M, 2);
    mixed_kernel();
    uint64_t first = mock_time(&M);
    check_accounting(2);
    for (uint32_t c = 0; c < 10; c++) {
        for (uint32_t w = 0; w < 3; w++) {
            memcpy(issue[c][w], M.cta[c].w[w].issue, sizeof issue[c][w]);
        }
    }
    /* The same instance again, launched where the first kernel ended. */
    M.k.start_cycle = first;
    uint64_t again;
    ck_assert_int_eq(mock_run(&M, &again), 0);
    ck_assert_uint_eq(again, first);
    ck_assert_uint_eq(M.cta[9].w[2].issue[0], issue[9][2][0] + first);
    mock_fini(&M);
    /* A fresh instance. */
    mock_init(&M, 2);
    mixed_kernel();
    ck_assert_uint_eq(mock_time(&M), first);
    for (uint32_t c = 0; c < 10; c++) {
        for (uint32_t w = 0; w < 3; w++) {
            ck_assert_mem_eq(M.cta[c].w[w].issue, issue[c][w],
                             sizeof issue[c][w]);
        }
    }
    mock_fini(&M);
}
END_TEST

/* ---- parameters ---- */

/* Every row has a unique name, a default and help; the defaults parse. */
START_TEST(param_table)
{
    ptxemu_tm_ops ops = {.abi_version = PTXEMU_TM_ABI_VERSION,
                         .struct_size = sizeof ops};
    ck_assert_int_eq(tm_simple_init(PTXEMU_TM_ABI_VERSION, &ops), 0);
    ck_assert_str_eq(ops.name, "simple");
    ck_assert_uint_gt(ops.nparams, 30);
    for (uint32_t i = 0; i < ops.nparams; i++) {
        const ptxemu_tm_param *p = &ops.params[i];
        ck_assert(p->name && p->def && p->help && p->help[0]);
        char *end;
        if (p->type == PTXEMU_TM_P_UINT) {
            strtoull(p->def, &end, 10);
        } else {
            ck_assert_int_eq(p->type, PTXEMU_TM_P_DOUBLE);
            strtod(p->def, &end);
        }
        ck_assert_msg(*end == 0 && end != p->def, "%s: bad default '%s'",
                      p->name, p->def);
        for (uint32_t j = 0; j < i; j++) {
            ck_assert_str_ne(ops.params[j].name, p->name);
        }
    }
    /* Every stall reason and the per-SM counters are registered. */
    mock_init(&M, 3);
    ck_assert_ptr_nonnull(mock_create(&M));
    ck_assert_uint_eq(mock_stat(&M, "simple.sm2.issued"), 0);
    ck_assert_uint_eq(mock_stat(&M, "simple.stall.async"), 0);
    mock_fini(&M);
}
END_TEST

/* The host's parameter parser (timing/params.c) accepts the table and
 * gives back its defaults, and --timing-help would list every row. */
START_TEST(param_table_in_host_parser)
{
    ptxemu_tm_ops ops = {.abi_version = PTXEMU_TM_ABI_VERSION,
                         .struct_size = sizeof ops};
    ck_assert_int_eq(tm_simple_init(PTXEMU_TM_ABI_VERSION, &ops), 0);
    TmParams *p = tm_params_new();
    char err[256] = "";
    ck_assert_int_eq(tm_params_set(p, "lat.int=7", err, sizeof err), 0);
    ck_assert_msg(tm_params_declare(p, ops.params, ops.nparams, err,
                                    sizeof err) == 0, "%s", err);
    ck_assert_int_eq(tm_params_check_unused(p, err, sizeof err), 0);
    ck_assert_uint_eq(tm_params_uint(p, "lat.int"), 7);
    ck_assert_uint_eq(tm_params_uint(p, "max_threads_per_sm"), 2048);
    ck_assert(tm_params_double(p, "clock_mhz") == 1410.0);
    tm_params_free(p);
}
END_TEST

/* Out-of-range values are refused at create with the parameter named. */
static const char *const bad[] = {"lat.int=0", "ii.fp32=0",
                                  "schedulers_per_sm=0",
                                  "mem.bytes_per_cycle=0", "clock_mhz=-1"};

START_TEST(param_refused)
{
    mock_init(&M, 1);
    mock_set(&M, bad[_i]);
    ck_assert_ptr_null(mock_create(&M));
    char name[32];
    snprintf(name, sizeof name, "%s", bad[_i]);
    *strchr(name, '=') = 0;
    ck_assert_msg(strstr(M.err, name), "'%s' does not name %s", M.err, name);
}
END_TEST

/* A host older than the model's minimum is refused. */
START_TEST(abi_refused)
{
    ptxemu_tm_ops ops = {.abi_version = PTXEMU_TM_ABI_VERSION,
                         .struct_size = sizeof ops};
    ck_assert_int_ne(tm_simple_init(PTXEMU_TM_ABI_MIN - 1, &ops), 0);
}
END_TEST

/* A kernel stopped by a guest fault that the host never ends (no
 * kernel_end: timing/host.c skips it after a fault): its CTA must not
 * hold the SM's only CTA slot at the next launch (which would then be
 * placed beyond the limits, with a log line).  add; add (faults the
 * first time); exit: adds at 0 and 1, the exit at 2, the last result at
 * 5. */
START_TEST(fault_without_kernel_end)
{
    mock_init(&M, 1);
    mock_set(&M, "max_ctas_per_sm=1");
    mock_add(&M, 0, NONE, 0);
    mock_add(&M, 0, NONE, 1)->fault = 1;
    mock_exit(&M, 0);
    ck_assert_ptr_nonnull(mock_create(&M));
    uint64_t now = mock_run_to_fault(&M);
    M.prog[0][1].fault = 0; /* the host lives on; a new launch */
    M.k.start_cycle = now;
    uint64_t cycles = 0;
    ck_assert_int_eq(mock_run(&M, &cycles), 0);
    ck_assert_uint_eq(cycles, 5);
    ck_assert_uint_eq(M.nlog, 0);
    mock_fini(&M);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("timing_simple");
    TCase *t = tcase_create("core");
    tcase_add_test(t, chain_takes_n_times_latency);
    tcase_add_test(t, chain_with_defaults);
    tcase_add_loop_test(t, independent_chains_overlap, 0,
                        sizeof overlap / sizeof overlap[0]);
    tcase_add_test(t, schedulers_by_slot_modulo);
    tcase_add_test(t, unit_initiation_interval);
    tcase_add_test(t, scoreboard_waw_and_carry);
    tcase_add_loop_test(t, barrier_waits_for_slowest, 0, 2);
    tcase_add_loop_test(t, cluster_barrier_releases_other_ctas, 0, 2);
    tcase_add_test(t, barrier_deadlock_is_an_error);
    tcase_add_test(t, fault_stops_the_kernel);
    tcase_add_loop_test(t, occupancy_waves, 0,
                        sizeof waves / sizeof waves[0]);
    tcase_add_test(t, occupancy_all_resident);
    tcase_add_test(t, cluster_spans_sms);
    tcase_add_test(t, oversized_cta_runs_alone);
    tcase_add_loop_test(t, async_wait_stalls, 0,
                        sizeof asyncs / sizeof asyncs[0]);
    tcase_add_test(t, mbarrier_wait_is_cta_wide);
    tcase_add_loop_test(t, coalescing_into_sectors, 0,
                        sizeof coalesce / sizeof coalesce[0]);
    tcase_add_loop_test(t, latency_per_space, 0,
                        sizeof spaces / sizeof spaces[0]);
    tcase_add_test(t, bandwidth_capped_burst);
    tcase_add_test(t, launch_latency);
    tcase_add_test(t, child_grid_inside_a_step);
    tcase_add_test(t, deterministic);
    tcase_add_test(t, param_table);
    tcase_add_test(t, param_table_in_host_parser);
    tcase_add_loop_test(t, param_refused, 0, sizeof bad / sizeof bad[0]);
    tcase_add_test(t, abi_refused);
    tcase_add_test(t, fault_without_kernel_end);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(suite());
}
