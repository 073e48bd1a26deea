/*
 * tests/check_timing_gpu.c: the `gpu` timing model (timing/gpu/) driven
 * through the mock host (tests/tm_mock.c) with hand-built instruction
 * streams, against cycle counts worked out by hand from the model's
 * rules (timing/gpu/gpu.h):
 *  - fetch: a warp's first instruction is fetched when it is first
 *    looked at (placement at cycle 0) and decoded fetch.latency (here 1)
 *    cycles later (no fetch-port limit unless a test sets one); with 16-byte instructions, 32-byte fetches and an
 *    I-buffer of 2, issuing the first instruction of a block prefetches
 *    the next block, so straight-line code never waits for fetch;
 *  - an instruction issued at t with latency L makes its results ready
 *    at t + L; a dependant issues at t + L;
 *  - a unit of `lanes` lanes is busy ceil(32/lanes) * ii cycles a warp;
 *  - the LSU sends a memory instruction's requests from the cycle after
 *    its issue, one a cycle; the ideal memory answers a request sent at
 *    s at ceil((s*B + bytes) / B) + latency (B bytes per cycle, the
 *    port in order), and its results are ready then;
 *  - a CTA retires at max(last exit + 1, its last result); the kernel
 *    ends when the last CTA retires.
 * Unless a test says otherwise (gpu_base): one SM, one scheduler (lrr),
 * no launch latency, integer adds of latency 4 on one 32-lane unit,
 * control and sync units of latency 1, global latency 100 through a port
 * so wide that transfers take one cycle.  Traces list issue cycles; the
 * mock records each instruction's issue cycle from set_time.
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
#define U(x) PTXEMU_TM_UNIT_##x

static void gpu_base(uint32_t nsms)
{
    mock_init_model(&M, nsms, tm_gpu_init);
    static const char *const base[] = {
        "sched.per_sm=1", "sched.policy=lrr", "launch.latency=0",
        "fetch.latency=1", "ibuf.depth=2", "fetch.bytes=32",
        "fetch.insn_bytes=16", "branch.latency=0", "oc.latency=0",
        "unit.int.lanes=32", "unit.int.lat=4", "unit.int.ii=1",
        "unit.ctrl.lanes=32", "unit.ctrl.lat=1", "unit.sync.lanes=32",
        "unit.sync.lat=1", "unit.ldst.lanes=32", "unit.ldst.lat=1",
        "mem.ideal.global_latency=100", "mem.ideal.bytes_per_cycle=10000",
        "lsu.txn_per_cycle=1", "issue.width=1", "fetch.per_cycle=0",
        "lsu.replay=0",
    };
    for (size_t i = 0; i < sizeof base / sizeof base[0]; i++) {
        mock_set(&M, base[i]);
    }
}

static const char *const stalls[] = {
    "selected", "barrier", "membar", "async", "sleeping",
    "no_instruction", "branch_resolving", "long_scoreboard",
    "short_scoreboard", "wait", "math_pipe_throttle", "mio_throttle",
    "lg_throttle", "dispatch_stall", "idle"};

static uint64_t stall(const char *why)
{
    char path[64];
    snprintf(path, sizeof path, "gpu.stall.%s", why);
    return mock_stat(&M, path);
}

/* selected + every stall = cycles x SMs x schedulers. */
static void check_accounting(uint64_t nsched)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < sizeof stalls / sizeof stalls[0]; i++) {
        sum += stall(stalls[i]);
    }
    ck_assert_uint_eq(sum, mock_stat(&M, "gpu.cycles") * M.nsms * nsched);
}

static const ptxemu_tm_insn *insn(unsigned unit, unsigned flags,
                                  unsigned wait, unsigned space, uint32_t src,
                                  uint32_t dst)
{
    return mock_insn(&M, unit, flags, wait, space, src, dst);
}

/* A warp instruction's accesses: lane i at base + i * stride. */
static ptxemu_tm_access acc_pool[8][32];
static const ptxemu_tm_access *lanes(int k, unsigned space, unsigned kind,
                                     uint64_t base, uint64_t stride,
                                     uint32_t size)
{
    for (uint32_t i = 0; i < 32; i++) {
        acc_pool[k][i] = (ptxemu_tm_access){.addr = base + i * stride,
                                            .size = size,
                                            .lane = (uint8_t)i,
                                            .space = (uint8_t)space,
                                            .kind = (uint8_t)kind};
    }
    return acc_pool[k];
}

static MockOp *load(uint32_t w, int k, uint64_t base, uint32_t dst)
{
    MockOp *op = mock_op(&M, w, insn(U(LDST), PTXEMU_TM_I_LOAD, 0,
                                     PTXEMU_TM_SPACE_GLOBAL, NONE, dst));
    op->acc = lanes(k, PTXEMU_TM_SPACE_GLOBAL, PTXEMU_TM_READ, base, 4, 4);
    op->nacc = 32;
    return op;
}

/* ---- the front end and the scoreboard ---- */

/* 8 dependent adds: the first waits one cycle for its fetch (cycle 0:
 * no_instruction), then one every 4 cycles: 1, 5, ..., 29; the exit at
 * 30; the last result is ready at 33, so the CTA retires at 33.
 * Scheduler cycles: 9 issues, 1 no_instruction, 7 x 3 `wait` (a
 * fixed-latency result), 2 idle (31-32): 33. */
START_TEST(chain_waits_fixed_latency)
{
    gpu_base(1);
    mock_chain(&M, 0, 8);
    ck_assert_uint_eq(mock_time(&M), 33);
    for (uint32_t i = 0; i < 8; i++) {
        ck_assert_uint_eq(ISSUE(0, 0, i), 1 + 4 * i);
    }
    ck_assert_uint_eq(ISSUE(0, 0, 8), 30);
    ck_assert_uint_eq(mock_stat(&M, "gpu.cycles"), 33);
    ck_assert_uint_eq(mock_stat(&M, "gpu.issued"), 9);
    ck_assert_uint_eq(mock_stat(&M, "gpu.thread_insns"), 9 * 32);
    ck_assert_uint_eq(mock_stat(&M, "gpu.sm0.issued"), 9);
    ck_assert_uint_eq(mock_stat(&M, "gpu.sm0.cycles"), 33);
    ck_assert_uint_eq(mock_stat(&M, "gpu.sm0.warps_resident"), 33);
    ck_assert_uint_eq(stall("selected"), 9);
    ck_assert_uint_eq(stall("no_instruction"), 1);
    ck_assert_uint_eq(stall("wait"), 21);
    ck_assert_uint_eq(stall("idle"), 2);
    check_accounting(1);
    mock_fini(&M);
}
END_TEST

/* A taken branch to an instruction outside the I-buffer refetches: the
 * branch (pc 0) issues at 1; its target, the exit, is 4 instructions on
 * (pc 4, in the block fetched only now): the peek after the branch sees
 * it outside [lo, hi) and fetches its block at 1, decoded at 2; the
 * branch.latency of 3 holds the warp until 4 (branch_resolving 2-3).
 * The mock's program order is the target order, so the untaken pcs
 * 1..3 are instructions of another warp.  Four fetches: pcs 0-1 (at
 * 0), 2-3 (prefetched when the branch issues, then dropped), 4-5 (the
 * target) and 6-7 (prefetched when the exit issues). */
START_TEST(branch_redirects_fetch)
{
    gpu_base(1);
    mock_set(&M, "branch.latency=3");
    mock_op(&M, 0, insn(U(CTRL), PTXEMU_TM_I_BRANCH, 0, 0, NONE, NONE));
    for (int i = 0; i < 3; i++) {
        mock_add(&M, 1, NONE, 1); /* pcs 1..3: warp 1's, never run */
    }
    mock_exit(&M, 0); /* pc 4 */
    ck_assert_uint_eq(mock_time(&M), 5);
    ck_assert_uint_eq(ISSUE(0, 0, 0), 1);
    ck_assert_uint_eq(ISSUE(0, 0, 1), 4);
    ck_assert_uint_eq(stall("branch_resolving"), 2);
    ck_assert_uint_eq(mock_stat(&M, "gpu.fetches"), 4);
    check_accounting(1);
    mock_fini(&M);
}
END_TEST

/* A global load (32 lanes x 4 contiguous bytes: one 128-byte line, 4
 * sectors) issues at 1 and is sent at 2.  A port of 32 bytes a cycle:
 * ceil((2 x 32 + 128) / 32) = 6, + latency 100: the reply and the
 * dependent add at 106; exit 107; the add's result at 110.  Cycles
 * 2..105 are long_scoreboard (104). */
START_TEST(load_waits_long_scoreboard)
{
    gpu_base(1);
    mock_set(&M, "mem.ideal.bytes_per_cycle=32");
    load(0, 0, 0x1000, 0);
    mock_add(&M, 0, 0, 1);
    mock_exit(&M, 0);
    ck_assert_uint_eq(mock_time(&M), 110);
    ck_assert_uint_eq(ISSUE(0, 0, 0), 1);
    ck_assert_uint_eq(ISSUE(0, 0, 1), 106);
    ck_assert_uint_eq(ISSUE(0, 0, 2), 107);
    ck_assert_uint_eq(stall("long_scoreboard"), 104);
    ck_assert_uint_eq(mock_stat(&M, "gpu.mem_requests"), 1);
    ck_assert_uint_eq(mock_stat(&M, "mem.ideal.bytes"), 128);
    check_accounting(1);
    mock_fini(&M);
}
END_TEST

/* Two independent loads of one line each (issued 1, 2; sent 2, 3),
 * then an add of both.  A port of 32 B/cycle: the first transfer ends
 * at 6 (reply 106), the second starts when the port is free, at 6, and
 * ends at 10 (reply 110): the add at 110, exit 111, retire 114.  A port
 * of 10000 B/cycle: ends at 3 and 4: replies 103, 104; add 104, retire
 * 108.  The bandwidth costs 6 cycles. */
START_TEST(ideal_memory_bandwidth)
{
    static const struct {
        const char *bpc;
        uint64_t add, cycles;
    } t[] = {{"mem.ideal.bytes_per_cycle=32", 110, 114},
             {"mem.ideal.bytes_per_cycle=10000", 104, 108}};
    for (size_t i = 0; i < 2; i++) {
        gpu_base(1);
        mock_set(&M, t[i].bpc);
        load(0, 0, 0x1000, 0);
        load(0, 1, 0x2000, 1);
        const ptxemu_tm_insn *add = insn(U(INT), 0, 0, 0, 0, 2);
        MockInsn *x = &M.insn[M.ninsn - 1]; /* it reads s1 too */
        x->src[x->in.nsrc++] = 1;
        mock_op(&M, 0, add);
        mock_exit(&M, 0);
        ck_assert_uint_eq(mock_time(&M), t[i].cycles);
        ck_assert_uint_eq(ISSUE(0, 0, 1), 2);
        ck_assert_uint_eq(ISSUE(0, 0, 2), t[i].add);
        check_accounting(1);
        mock_fini(&M);
    }
}
END_TEST

/* An LSU queue of one instruction and loads of two lines each (stride
 * 8 bytes: 256 bytes), one request sent a cycle: ld0 issues at 1, its
 * requests go at 2 and 3 (the queue is full at 2: lg_throttle), ld1
 * issues at 3 (sent 4, 5), ld2 at 5 (sent 6, 7), the exit at 6.
 * Replies: 100 after each send's one-cycle transfer: 104, 106, 108; the
 * CTA retires at 108. */
START_TEST(lsu_queue_throttles)
{
    gpu_base(1);
    mock_set(&M, "lsu.queue=1");
    for (uint32_t k = 0; k < 3; k++) {
        MockOp *op = load(0, (int)k, 0x1000 * (k + 1), k);
        op->acc = lanes((int)k, PTXEMU_TM_SPACE_GLOBAL, PTXEMU_TM_READ,
                        0x1000 * (k + 1), 8, 4);
    }
    mock_exit(&M, 0);
    ck_assert_uint_eq(mock_time(&M), 108);
    ck_assert_uint_eq(ISSUE(0, 0, 1), 3);
    ck_assert_uint_eq(ISSUE(0, 0, 2), 5);
    ck_assert_uint_eq(ISSUE(0, 0, 3), 6);
    ck_assert_uint_eq(stall("lg_throttle"), 2);
    ck_assert_uint_eq(mock_stat(&M, "gpu.mem_requests"), 6);
    check_accounting(1);
    mock_fini(&M);
}
END_TEST

/* The same loads with lsu.replay 3: a load issued while the queue is
 * full is refused and may issue again 3 cycles later.  ld0 issues at 1
 * (sent 2, 3; out of the queue at 3); ld1 is issued at 2 and refused
 * (replay), held until 5 (lg_throttle 3-4), issues at 5 (sent 6, 7);
 * ld2 is refused at 6, held until 9 (lg_throttle 7-8), issues at 9 (sent
 * 10, 11); the exit at 10.  Replies at send + 1 + 100: the last at 112,
 * when the CTA retires.  Scheduler cycles: selected 6 (3 loads, 2
 * replays, the exit), no_instruction 1 (cycle 0), lg_throttle 4, idle
 * 11-111 (101). */
START_TEST(lsu_refusal_replays)
{
    gpu_base(1);
    mock_set(&M, "lsu.queue=1");
    mock_set(&M, "lsu.replay=3");
    for (uint32_t k = 0; k < 3; k++) {
        MockOp *op = load(0, (int)k, 0x1000 * (k + 1), k);
        op->acc = lanes((int)k, PTXEMU_TM_SPACE_GLOBAL, PTXEMU_TM_READ,
                        0x1000 * (k + 1), 8, 4);
    }
    mock_exit(&M, 0);
    ck_assert_uint_eq(mock_time(&M), 112);
    ck_assert_uint_eq(ISSUE(0, 0, 0), 1);
    ck_assert_uint_eq(ISSUE(0, 0, 1), 5);
    ck_assert_uint_eq(ISSUE(0, 0, 2), 9);
    ck_assert_uint_eq(ISSUE(0, 0, 3), 10);
    ck_assert_uint_eq(mock_stat(&M, "gpu.replays"), 2);
    ck_assert_uint_eq(mock_stat(&M, "gpu.issued"), 4);
    ck_assert_uint_eq(stall("selected"), 6);
    ck_assert_uint_eq(stall("no_instruction"), 1);
    ck_assert_uint_eq(stall("lg_throttle"), 4);
    ck_assert_uint_eq(stall("idle"), 101);
    ck_assert_uint_eq(mock_stat(&M, "gpu.mem_requests"), 6);
    check_accounting(1);
    mock_fini(&M);
}
END_TEST

/* A store (issued 1, sent 2, acknowledged at 103), a fence, an add.
 * The fence waits for the acknowledgement (membar 2..102) and issues at
 * 103; fence.latency 8 holds the add until 111 (membar 104..110); exit
 * 112; the add's result at 115. */
START_TEST(fence_waits_for_stores)
{
    gpu_base(1);
    mock_set(&M, "fence.latency=8");
    MockOp *st = mock_op(&M, 0, insn(U(LDST), PTXEMU_TM_I_STORE, 0,
                                     PTXEMU_TM_SPACE_GLOBAL, NONE, NONE));
    st->acc = lanes(0, PTXEMU_TM_SPACE_GLOBAL, PTXEMU_TM_WRITE, 0x1000, 4,
                    4);
    st->nacc = 32;
    mock_op(&M, 0, insn(U(SYNC), 0, PTXEMU_TM_WAIT_FENCE, 0, NONE, NONE));
    mock_add(&M, 0, NONE, 0);
    mock_exit(&M, 0);
    ck_assert_uint_eq(mock_time(&M), 115);
    ck_assert_uint_eq(ISSUE(0, 0, 1), 103);
    ck_assert_uint_eq(ISSUE(0, 0, 2), 111);
    ck_assert_uint_eq(stall("membar"), 108);
    check_accounting(1);
    mock_fini(&M);
}
END_TEST

/* Fetch through the memory system (fetch latency 10): the first fetch
 * is queued at 0, sent at 1, back at 11: add0 at 11; the next block
 * (prefetched when the first arrived: queued at 11, sent 12, back 22)
 * holds the exit; add1 (dependent) at 15; exit at 22; retire 23.
 * no_instruction 0..10 and 16..21, wait 12..14. */
START_TEST(fetch_through_memory)
{
    gpu_base(1);
    mock_set(&M, "fetch.perfect_icache=false");
    mock_set(&M, "mem.ideal.fetch_latency=10");
    mock_chain(&M, 0, 2);
    ck_assert_uint_eq(mock_time(&M), 23);
    ck_assert_uint_eq(ISSUE(0, 0, 0), 11);
    ck_assert_uint_eq(ISSUE(0, 0, 1), 15);
    ck_assert_uint_eq(ISSUE(0, 0, 2), 22);
    ck_assert_uint_eq(stall("no_instruction"), 17);
    ck_assert_uint_eq(stall("wait"), 3);
    ck_assert_uint_eq(mock_stat(&M, "gpu.fetches"), 2);
    check_accounting(1);
    mock_fini(&M);
}
END_TEST

/* Fetch ports under a perfect I-cache, one fetch a cycle each.  Two
 * schedulers; 4 warps (add; exit: one block each), w0 and w2 on
 * scheduler 0, w1 and w3 on 1; every warp is first looked at in cycle
 * 0, scheduler 0's before scheduler 1's.  The prefetches that issuing
 * a block's first instruction makes come later and delay nobody.
 *  - one port per SM: fetches start at 0 (w0), 1 (w2), 2 (w1), 3 (w3),
 *    decoded at 1, 2, 3, 4: scheduler 0 issues w0's add at 1, w2's at 2,
 *    the exits at 3 and 4; scheduler 1 w1's add at 3 (no_instruction
 *    1-2), w3's at 4, exits 5 and 6; w3's result at 8, the CTA retires
 *    then.  no_instruction: 2 (cycle 0) + 2 = 4;
 *  - one port per scheduler: each scheduler's two fetches start at 0
 *    and 1: adds at 1 and 2 on both, exits at 3 and 4, the last result
 *    at 6;
 *  - no limit (fetch.per_cycle=0): all decoded at 1: the same 6. */
START_TEST(fetch_port_competition)
{
    static const struct {
        const char *per_cycle, *per_sched;
        uint64_t add[4], exit[4], cycles, noinsn;
    } t[] = {
        {"fetch.per_cycle=1", "fetch.port_per_sched=0", {1, 3, 2, 4},
         {3, 5, 4, 6}, 8, 4},
        {"fetch.per_cycle=1", "fetch.port_per_sched=1", {1, 1, 2, 2},
         {3, 3, 4, 4}, 6, 2},
        {"fetch.per_cycle=0", "fetch.port_per_sched=0", {1, 1, 2, 2},
         {3, 3, 4, 4}, 6, 2},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        gpu_base(1);
        mock_set(&M, "sched.per_sm=2");
        mock_set(&M, t[i].per_cycle);
        mock_set(&M, t[i].per_sched);
        mock_grid(&M, 1, 4);
        for (uint32_t w = 0; w < 4; w++) {
            mock_add(&M, w, NONE, 0);
            mock_exit(&M, w);
        }
        uint64_t cycles = mock_time(&M);
        ck_assert_msg(cycles == t[i].cycles, "%zu: %llu cycles", i,
                      (unsigned long long)cycles);
        for (uint32_t w = 0; w < 4; w++) {
            ck_assert_uint_eq(ISSUE(0, w, 0), t[i].add[w]);
            ck_assert_uint_eq(ISSUE(0, w, 1), t[i].exit[w]);
        }
        ck_assert_uint_eq(stall("no_instruction"), t[i].noinsn);
        check_accounting(2);
        mock_fini(&M);
    }
}
END_TEST

/* ---- function units ---- */

/* 8 independent FP32 ops on a unit of 8 lanes (GT200's SPs): each takes
 * 32/8 = 4 passes, so they issue at 1, 5, ..., 29 (math_pipe_throttle
 * between); latency 24: the last result at 53.  Two such units: pairs
 * at 1-2, 5-6, 9-10, 13-14: the last result at 38. */
START_TEST(narrow_unit_occupancy)
{
    static const struct {
        const char *count;
        uint64_t last, cycles, math;
    } t[] = {{"unit.fp32.count=1", 29, 53, 21},
             {"unit.fp32.count=2", 14, 38, 6}};
    for (size_t i = 0; i < 2; i++) {
        gpu_base(1);
        mock_set(&M, "unit.fp32.lanes=8");
        mock_set(&M, "unit.fp32.lat=24");
        mock_set(&M, "unit.fp32.ii=1");
        mock_set(&M, t[i].count);
        for (uint32_t k = 0; k < 8; k++) {
            mock_op(&M, 0, insn(U(FP32), 0, 0, 0, NONE, k));
        }
        mock_exit(&M, 0);
        ck_assert_uint_eq(mock_time(&M), t[i].cycles);
        ck_assert_uint_eq(ISSUE(0, 0, 7), t[i].last);
        ck_assert_uint_eq(ISSUE(0, 0, 8), t[i].last + 1);
        ck_assert_uint_eq(stall("math_pipe_throttle"), t[i].math);
        check_accounting(1);
        mock_fini(&M);
    }
}
END_TEST

/* GT200's SFUs take FP32 multiplies while the SPs are busy
 * (unit.sfu.mul_ii 8: 8 cycles a warp): 8 independent mul.f32 on an
 * 8-lane FP32 unit (4 cycles a warp).  mul0@1 FP32 (busy to 5); mul1@2
 * SFU (to 10); mul2@5 FP32 (to 9); mul3@9 FP32 (to 13); mul4@10 SFU (to
 * 18); mul5@13 FP32 (to 17); mul6@17 FP32 (to 21); mul7@18 SFU; exit@19;
 * latency 24 on either: the last result at 42.  Without it: 1, 5, ...,
 * 29, results to 53; and an add (not a multiply) never goes to the
 * SFUs. */
START_TEST(sfu_takes_multiplies)
{
    static const uint64_t with[] = {1, 2, 5, 9, 10, 13, 17, 18};
    for (int on = 0; on < 3; on++) {
        gpu_base(1);
        mock_set(&M, "unit.fp32.lanes=8");
        mock_set(&M, "unit.fp32.lat=24");
        mock_set(&M, "unit.fp32.ii=1");
        mock_set(&M, "unit.sfu.lanes=2");
        mock_set(&M, on ? "unit.sfu.mul_ii=8" : "unit.sfu.mul_ii=0");
        for (uint32_t k = 0; k < 8; k++) {
            mock_op(&M, 0, insn(U(FP32), 0, 0, 0, NONE, k));
            M.insn[M.ninsn - 1].in.opname = on == 2 ? "add" : "mul";
        }
        mock_exit(&M, 0);
        ck_assert_uint_eq(mock_time(&M), (on == 1 ? 42 : 53));
        for (uint32_t k = 0; k < 8; k++) {
            ck_assert_uint_eq(ISSUE(0, 0, k),
                              (on == 1 ? with[k] : 1 + 4 * k));
        }
        check_accounting(1);
        mock_fini(&M);
    }
}
END_TEST

/* unit.full_delay: N warps each run 3 dependent adds on an 8-lane INT
 * unit (4 cycles a warp, latency 24), then exit.  A result comes 8 cycles
 * late when its add issued to a unit that had taken adds back to back
 * for at least 24 cycles.
 *  - 1 warp: adds at 1, 25, 49 (the unit idle between): no delay, the
 *    last result at 73, with the delay or without;
 *  - 6 warps: the first adds at 1, 5, ..., 21, the second at 25, ...,
 *    45 (a run since 1: 24 cycles or more), so their results come at
 *    57, ..., 77 instead of 49, ..., 69: the third adds at 57, ..., 77
 *    (after a gap of 49-57 the run starts again: no delay), results
 *    until 101 (without: third adds 49, ..., 69, results until 93);
 *  - 8 warps: second adds at 33, ..., 61 and third at 65, ..., 93 with
 *    the delay or without (each warp waits for the unit longer than
 *    the delay), only the last results later: 125 instead of 117. */
START_TEST(full_pipeline_delay)
{
    static const struct {
        uint32_t warps;
        uint64_t delay, first3, last3, cycles;
    } t[] = {{1, 0, 49, 49, 73},  {1, 8, 49, 49, 73},
             {6, 0, 49, 69, 93},  {6, 8, 57, 77, 101},
             {8, 0, 65, 93, 117}, {8, 8, 65, 93, 125}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        gpu_base(1);
        mock_set(&M, "unit.int.lanes=8");
        mock_set(&M, "unit.int.lat=24");
        mock_set(&M, t[i].delay ? "unit.full_delay=8" : "unit.full_delay=0");
        mock_grid(&M, 1, t[i].warps);
        for (uint32_t w = 0; w < t[i].warps; w++) {
            mock_chain(&M, w, 3);
        }
        uint32_t last = t[i].warps - 1;
        ck_assert_msg(mock_time(&M) == t[i].cycles, "%u warps, delay %llu: "
                      "%llu cycles", t[i].warps,
                      (unsigned long long)t[i].delay,
                      (unsigned long long)mock_time(&M));
        ck_assert_uint_eq(ISSUE(0, 0, 1), t[i].warps == 8 ? 33 : 25);
        ck_assert_uint_eq(ISSUE(0, 0, 2), t[i].first3);
        ck_assert_uint_eq(ISSUE(0, last, 2), t[i].last3);
        ck_assert_uint_eq(ISSUE(0, 0, 3), t[i].first3 + 1);
        check_accounting(1);
        mock_fini(&M);
    }
}
END_TEST

/* Dual issue: 8 independent adds and an exit.  issue.width 2 with two
 * INT units: two a cycle from 1 (each issue of a block's first
 * instruction prefetches the next block, decoded the next cycle): adds
 * at 1,1,2,2,3,3,4,4, the exit at 5, the last result at 8.  Width 2 with
 * one INT unit: one add a cycle (1..8) but the exit pairs with the last
 * add at 8; results until 12.  Width 1: adds 1..8, exit 9; 12. */
START_TEST(dual_issue)
{
    static const struct {
        const char *width, *count;
        uint64_t add7, exit, cycles;
    } t[] = {{"issue.width=2", "unit.int.count=2", 4, 5, 8},
             {"issue.width=2", "unit.int.count=1", 8, 8, 12},
             {"issue.width=1", "unit.int.count=2", 8, 9, 12}};
    for (size_t i = 0; i < 3; i++) {
        gpu_base(1);
        mock_set(&M, t[i].width);
        mock_set(&M, t[i].count);
        for (uint32_t k = 0; k < 8; k++) {
            mock_add(&M, 0, NONE, k);
        }
        mock_exit(&M, 0);
        ck_assert_uint_eq(mock_time(&M), t[i].cycles);
        ck_assert_uint_eq(ISSUE(0, 0, 1), i == 0 ? 1 : 2);
        ck_assert_uint_eq(ISSUE(0, 0, 7), t[i].add7);
        ck_assert_uint_eq(ISSUE(0, 0, 8), t[i].exit);
        ck_assert_uint_eq(mock_stat(&M, "gpu.issued"), 9);
        check_accounting(1);
        mock_fini(&M);
    }
}
END_TEST

/* ---- operand collection ---- */

/* oc.enabled with 2 banks of 1 port and one collector; bank = (slot +
 * warp) % 2, warp slot 0.  A: s4 <- s0 + sB; B: s5 <- s4; exit.
 *  - sB = s2 (bank 0, as s0): A issues at 1, reads s0 at 2 and s2 at 3
 *    (a conflict), is dispatched at 3: s4 ready at 7; B issues at 7
 *    (until then `wait`, and the only collector is busy until 3), reads
 *    s4 at 8 (its writeback took bank 0 at 7), dispatched at 8: s5 at
 *    12; the exit takes the collector freed at 8: issued at 8; retire
 *    at 12;
 *  - sB = s1 (bank 1): both read at 2, s4 at 6, B at 6, its read at 7,
 *    s5 at 11, exit at 7: 11;
 *  - collectors off: A at 1, B at 5, exit at 6, s5 at 9. */
START_TEST(operand_collector_conflicts)
{
    static const struct {
        const char *on;
        uint32_t sb;
        uint64_t b, exit, cycles, conflicts;
    } t[] = {{"oc.enabled=true", 2, 7, 8, 12, 1},
             {"oc.enabled=true", 1, 6, 7, 11, 0},
             {"oc.enabled=false", 2, 5, 6, 9, 0}};
    for (size_t i = 0; i < 3; i++) {
        gpu_base(1);
        mock_set(&M, t[i].on);
        mock_set(&M, "oc.banks=2");
        mock_set(&M, "oc.ports=1");
        mock_set(&M, "oc.collectors=1");
        const ptxemu_tm_insn *a = insn(U(INT), 0, 0, 0, 0, 4);
        MockInsn *x = &M.insn[M.ninsn - 1];
        x->src[x->in.nsrc++] = t[i].sb;
        mock_op(&M, 0, a);
        mock_add(&M, 0, 4, 5);
        mock_exit(&M, 0);
        ck_assert_uint_eq(mock_time(&M), t[i].cycles);
        ck_assert_uint_eq(ISSUE(0, 0, 0), 1);
        ck_assert_uint_eq(ISSUE(0, 0, 1), t[i].b);
        ck_assert_uint_eq(ISSUE(0, 0, 2), t[i].exit);
        ck_assert_uint_eq(mock_stat(&M, "gpu.oc.conflicts"), t[i].conflicts);
        check_accounting(1);
        mock_fini(&M);
    }
}
END_TEST

/* ---- scheduling policies ---- */

/* Warp 0: add s0; add s1 <- s0; exit.  Warp 1: 6 independent adds;
 * exit.  All fetched by 1.
 *  lrr:    w0 a0@1, w1 a0@2, w1 a1@3 (w0 waits until 5), w1 a2@4,
 *          w0 a1@5, w1 a3@6, w0 exit@7, w1 a4@8, a5@9, exit@10;
 *  gto:    w0 a0@1, then w1 (oldest ready) and greedily w1 until it
 *          exits: a0..a5 @2..7, exit@8; then w0 a1@9, exit@10;
 *  oldest: w0 a0@1, w1 a0@2, a1@3, a2@4, w0 a1@5 (the oldest ready),
 *          w0 exit@6, w1 a3..a5 @7..9, exit@10.
 *  two-level (pool 1): only w0 is a candidate until it exits at 6 (its
 *          a1@5; `wait` 2..4); w1 enters the pool at 7, is looked at
 *          for the first time and fetches (decoded at 8): a0..a5
 *          @8..13, exit@14, the last result at 17.
 * not_selected counts, per issuing cycle, the other warp when it could
 * have issued too (its operands ready, a unit free before this issue):
 *  lrr:    @1 (w1's a0), @5 (w1's a3), @6 (w0's exit), @7 (w1's a4): 4;
 *  gto:    @1 (w1's a0), then w0's a1 (ready from 5) while w1 issues at
 *          5, 6, 7, 8: 5;
 *  oldest: @1 (w1's a0), @5 (w1's a3), @6 (w1's a3 again): 3;
 *  two-level: the other warp is outside the pool, never a candidate: 0. */
START_TEST(policies_issue_order)
{
    static const struct {
        const char *policy;
        uint64_t w0[3], w1[7], cycles, not_selected;
    } t[] = {
        {"sched.policy=lrr", {1, 5, 7}, {2, 3, 4, 6, 8, 9, 10}, 13, 4},
        {"sched.policy=gto", {1, 9, 10}, {2, 3, 4, 5, 6, 7, 8}, 13, 5},
        {"sched.policy=oldest", {1, 5, 6}, {2, 3, 4, 7, 8, 9, 10}, 13, 3},
        {"sched.policy=two-level", {1, 5, 6}, {8, 9, 10, 11, 12, 13, 14},
         17, 0},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        gpu_base(1);
        mock_set(&M, t[i].policy);
        mock_set(&M, "sched.pool=1");
        mock_grid(&M, 1, 2);
        mock_add(&M, 0, NONE, 0);
        mock_add(&M, 0, 0, 1);
        mock_exit(&M, 0);
        for (uint32_t k = 0; k < 6; k++) {
            mock_add(&M, 1, NONE, k);
        }
        mock_exit(&M, 1);
        ck_assert_msg(mock_time(&M) == t[i].cycles, "%s: %llu cycles",
                      t[i].policy, (unsigned long long)mock_time(&M));
        for (int k = 0; k < 3; k++) {
            ck_assert_msg(ISSUE(0, 0, k) == t[i].w0[k], "%s: w0 pc %d at %llu",
                          t[i].policy, k,
                          (unsigned long long)ISSUE(0, 0, k));
        }
        for (int k = 0; k < 7; k++) {
            ck_assert_msg(ISSUE(0, 1, k) == t[i].w1[k], "%s: w1 pc %d at %llu",
                          t[i].policy, k,
                          (unsigned long long)ISSUE(0, 1, k));
        }
        ck_assert_msg(mock_stat(&M, "gpu.not_selected") == t[i].not_selected,
                      "%s: not_selected %llu", t[i].policy,
                      (unsigned long long)mock_stat(&M, "gpu.not_selected"));
        check_accounting(1);
        mock_fini(&M);
    }
}
END_TEST

/* Two-level with a pool of one: warps 0 and 1 each load (one line),
 * add the result, exit.  Only w0 is looked at first (fetched by 1): its
 * load issues at 1 (sent 2, back at 103).  At 2 its add waits for
 * memory, so it leaves the pool and w1 enters in the same cycle, is
 * looked at for the first time and fetches (decoded at 3): w1's load at
 * 3 (sent 4, back at 105).  Both then wait for memory and leave the pool
 * in turn; the replies bring them back: w0's add at 103, its exit at
 * 104, w1's add at 105, exit 106; w1's result at 109. */
START_TEST(two_level_pool_on_long_latency)
{
    gpu_base(1);
    mock_set(&M, "sched.policy=two-level");
    mock_set(&M, "sched.pool=1");
    mock_grid(&M, 1, 2);
    for (uint32_t w = 0; w < 2; w++) {
        load(w, (int)w, 0x1000 * (w + 1), 0);
        mock_add(&M, w, 0, 1);
        mock_exit(&M, w);
    }
    ck_assert_uint_eq(mock_time(&M), 109);
    ck_assert_uint_eq(ISSUE(0, 0, 0), 1);
    ck_assert_uint_eq(ISSUE(0, 1, 0), 3);
    ck_assert_uint_eq(ISSUE(0, 0, 1), 103);
    ck_assert_uint_eq(ISSUE(0, 0, 2), 104);
    ck_assert_uint_eq(ISSUE(0, 1, 1), 105);
    ck_assert_uint_eq(ISSUE(0, 1, 2), 106);
    check_accounting(1);
    mock_fini(&M);
}
END_TEST

START_TEST(unknown_policy_refused)
{
    gpu_base(1);
    mock_set(&M, "sched.policy=fifo");
    mock_exit(&M, 0);
    ck_assert_ptr_null(mock_create(&M));
    ck_assert_msg(strstr(M.err, "sched.policy") != NULL, "%s", M.err);
    mock_fini(&M);
}
END_TEST

/* ---- barriers and asynchronous operations ---- */

/* Warp 0: add, bar.sync, exit; warp 1: bar.sync, exit (lrr).  w0 add@1,
 * w1 bar@2 (waits), w0 bar@3 releases both; bar.latency 20: both issue
 * again from 23 (barrier stall 4..22 = 19 cycles): w1 exit@23 (after
 * w0 in round robin), w0 exit@24; retire 25. */
START_TEST(barrier_latency)
{
    gpu_base(1);
    mock_set(&M, "bar.latency=20");
    mock_grid(&M, 1, 2);
    const ptxemu_tm_insn *bar = insn(U(SYNC), PTXEMU_TM_I_BARRIER,
                                     PTXEMU_TM_WAIT_BARRIER, 0, NONE, NONE);
    mock_add(&M, 0, NONE, 0);
    mock_op(&M, 0, bar)->bar = 1;
    mock_exit(&M, 0);
    mock_op(&M, 1, bar)->bar = 1;
    mock_exit(&M, 1);
    ck_assert_uint_eq(mock_time(&M), 25);
    ck_assert_uint_eq(ISSUE(0, 0, 1), 3);
    ck_assert_uint_eq(ISSUE(0, 1, 0), 2);
    ck_assert_uint_eq(ISSUE(0, 1, 1), 23);
    ck_assert_uint_eq(ISSUE(0, 0, 2), 24);
    ck_assert_uint_eq(stall("barrier"), 19);
    check_accounting(1);
    mock_fini(&M);
}
END_TEST

/* A CTA of one warp: bar.sync, bar.sync, exit.  The warp arrives alone
 * and goes on at once, with no release event (no other warp changed
 * state), and the barrier's latency holds it all the same (Wong et al.
 * IV-D: 20 cycles per __syncthreads() for one warp): bar@1, bar@21,
 * exit@41, retire 42; barrier stalls 2..20 and 22..40 = 38. */
START_TEST(barrier_latency_one_warp)
{
    gpu_base(1);
    mock_set(&M, "bar.latency=20");
    const ptxemu_tm_insn *bar = insn(U(SYNC), PTXEMU_TM_I_BARRIER,
                                     PTXEMU_TM_WAIT_BARRIER, 0, NONE, NONE);
    mock_op(&M, 0, bar)->bar = 1;
    mock_op(&M, 0, bar)->bar = 1;
    mock_exit(&M, 0);
    ck_assert_uint_eq(mock_time(&M), 42);
    ck_assert_uint_eq(ISSUE(0, 0, 0), 1);
    ck_assert_uint_eq(ISSUE(0, 0, 1), 21);
    ck_assert_uint_eq(ISSUE(0, 0, 2), 41);
    ck_assert_uint_eq(stall("barrier"), 38);
    check_accounting(1);
    mock_fini(&M);
}
END_TEST

/* An async copy (token 7: 32 lanes x 4 bytes of global, one line)
 * issues at 1, is sent at 2 and answered at 3 + 100 = 103; an
 * independent add at 2; the wait (listing token 7) at 3; the add after
 * it waits for the token (`async` 4..102) and issues at 103; exit 104;
 * its result at 107. */
START_TEST(async_wait_for_token)
{
    static const uint64_t tok[] = {7};
    gpu_base(1);
    MockOp *cp = mock_op(&M, 0, insn(U(ASYNC), PTXEMU_TM_I_ASYNC, 0,
                                     PTXEMU_TM_SPACE_GLOBAL, NONE, NONE));
    cp->acc = lanes(0, PTXEMU_TM_SPACE_GLOBAL, PTXEMU_TM_ASYNC_READ, 0x1000,
                    4, 4);
    cp->nacc = 32;
    cp->token = 7;
    mock_add(&M, 0, NONE, 0);
    MockOp *wt = mock_op(&M, 0, insn(U(SYNC), 0, PTXEMU_TM_WAIT_ASYNC_GROUP,
                                     0, NONE, NONE));
    wt->wait = tok;
    wt->nwait = 1;
    mock_add(&M, 0, NONE, 1);
    mock_exit(&M, 0);
    ck_assert_uint_eq(mock_time(&M), 107);
    ck_assert_uint_eq(ISSUE(0, 0, 2), 3);
    ck_assert_uint_eq(ISSUE(0, 0, 3), 103);
    ck_assert_uint_eq(stall("async"), 99);
    check_accounting(1);
    mock_fini(&M);
}
END_TEST

/* ---- shared memory ---- */

/* Shared loads of 32 lanes x 4 bytes at stride s words on 32 banks:
 * stride 1 one wavefront, 2 two, 32 thirty-two.  Issued at 1, its
 * result at 1 + W - 1 + smem.latency (23): the dependent add then. */
START_TEST(shared_bank_conflicts)
{
    static const struct {
        uint64_t stride, waves;
    } t[] = {{1, 1}, {2, 2}, {32, 32}};
    for (size_t i = 0; i < 3; i++) {
        gpu_base(1);
        mock_set(&M, "smem.latency=23");
        MockOp *op = mock_op(&M, 0, insn(U(LDST), PTXEMU_TM_I_LOAD, 0,
                                         PTXEMU_TM_SPACE_SHARED, NONE, 0));
        op->acc = lanes(0, PTXEMU_TM_SPACE_SHARED, PTXEMU_TM_READ, 0,
                        4 * t[i].stride, 4);
        op->nacc = 32;
        mock_add(&M, 0, 0, 1);
        mock_exit(&M, 0);
        mock_time(&M);
        ck_assert_uint_eq(ISSUE(0, 0, 1), 1 + t[i].waves - 1 + 23);
        ck_assert_uint_eq(mock_stat(&M, "gpu.smem_wavefronts"), t[i].waves);
        ck_assert_uint_eq(stall("short_scoreboard"), t[i].waves - 1 + 22);
        check_accounting(1);
        mock_fini(&M);
    }
}
END_TEST

/* ---- CTA dispatch ---- */

/* Four CTAs of one warp (add; exit) on one SM with two schedulers; each
 * limit lets two CTAs be resident.  A wave: fetch decoded at 1, add@1,
 * exit@2, retire at max(3, 5) = 5: the second wave is placed at 5 and
 * ends at 10.  Without a limit all four are resident from 0 (two warps
 * per scheduler): adds at 1 and 2, exits at 3 and 4, the last retires at
 * max(5, 6) = 6. */
START_TEST(cta_waves_per_limit)
{
    static const struct {
        const char *limit;
        uint64_t cycles;
    } t[] = {
        {"occ.max_threads=64", 10},
        {"occ.max_warps=2", 10},
        {"occ.max_ctas=2", 10},
        {"occ.regs=4096", 10},    /* 64 regs x 32 = 2048 per warp */
        {"occ.shared=4096", 10},  /* 1000 B + 1024 reserved -> 2048 */
        {"occ.max_ctas=32", 6},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        gpu_base(1);
        mock_set(&M, "sched.per_sm=2");
        mock_set(&M, t[i].limit);
        mock_grid(&M, 4, 1);
        M.k.regs_per_thread = 64;
        M.k.shared_per_cta = 1000;
        mock_add(&M, 0, NONE, 0);
        mock_exit(&M, 0);
        ck_assert_msg(mock_time(&M) == t[i].cycles, "%s", t[i].limit);
        ck_assert_uint_eq(mock_stat(&M, "gpu.ctas"), 4);
        check_accounting(2);
        mock_fini(&M);
    }
}
END_TEST

/* The carve-out limits residency (CUDA's occupancy calculator,
 * cuda_occupancy.h): the same four CTAs of 1000 bytes of shared memory
 * (2048 with the 1024-byte reserve) under hier with an L1/shared array
 * whose shared part may be 0, 4 or 16 KB (occ.shared 16 KB).  No
 * preference: the driver's choice holds a full SM's CTAs (16 KB), all
 * four are resident: 6 cycles.  Preferring 25% (4096 bytes: 4 KB) or 0%
 * (0 KB, raised to the 4 KB that holds one CTA) leaves room for two:
 * two waves, 10 cycles.  100%: 16 KB, 6 cycles. */
START_TEST(cta_waves_per_carveout)
{
    static const struct {
        int carveout;
        uint64_t cycles;
    } t[] = {{-1, 6}, {25, 10}, {0, 10}, {100, 6}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        gpu_base(1);
        mock_set(&M, "sched.per_sm=2");
        mock_set(&M, "occ.shared=16384");
        mock_set(&M, "mem.model=hier");
        mock_set(&M, "l1d.unified=32768");
        mock_set(&M, "l1d.carveouts=0,4,16");
        mock_grid(&M, 4, 1);
        M.k.regs_per_thread = 64;
        M.k.shared_per_cta = 1000;
        M.k.carveout = t[i].carveout;
        mock_add(&M, 0, NONE, 0);
        mock_exit(&M, 0);
        ck_assert_msg(mock_time(&M) == t[i].cycles, "carveout %d",
                      t[i].carveout);
        ck_assert_uint_eq(mock_stat(&M, "gpu.ctas"), 4);
        check_accounting(2);
        mock_fini(&M);
    }
}
END_TEST

/* Round-robin placement: 4 CTAs on 2 SMs go to SMs 0, 1, 0, 1. */
START_TEST(cta_round_robin)
{
    gpu_base(2);
    mock_grid(&M, 4, 1);
    mock_add(&M, 0, NONE, 0);
    mock_exit(&M, 0);
    mock_time(&M);
    for (uint32_t c = 0; c < 4; c++) {
        ck_assert_uint_eq(M.cta[c].sm, c % 2);
    }
    check_accounting(1);
    mock_fini(&M);
}
END_TEST

/* Clusters of 2 CTAs on 4 SMs, one CTA per SM (occ.max_ctas 1); a CTA
 * (add; exit) ends 5 cycles after its placement.  GPCs of 2 SMs: the
 * clusters go to SMs 0-1 and 2-3 at once: 5 cycles.  GPCs of 3 SMs
 * (SMs 0-2 and 3): the second GPC cannot hold a cluster and the first
 * has one SM left, so the second cluster waits for the first (placed
 * at 5 on SMs 2 and 0): 10 cycles. */
START_TEST(clusters_on_one_gpc)
{
    static const struct {
        const char *gpc;
        uint64_t cycles;
        uint32_t sm[4];
    } t[] = {{"gpc.sms=2", 5, {0, 1, 2, 3}}, {"gpc.sms=3", 10, {0, 1, 2, 0}}};
    for (size_t i = 0; i < 2; i++) {
        gpu_base(4);
        mock_set(&M, t[i].gpc);
        mock_set(&M, "occ.max_ctas=1");
        mock_grid(&M, 4, 1);
        M.k.cluster[0] = 2;
        mock_add(&M, 0, NONE, 0);
        mock_exit(&M, 0);
        ck_assert_uint_eq(mock_time(&M), t[i].cycles);
        for (uint32_t c = 0; c < 4; c++) {
            ck_assert_uint_eq(M.cta[c].sm, t[i].sm[c]);
        }
        check_accounting(1);
        mock_fini(&M);
    }
}
END_TEST

/* ---- presets, clock, determinism ---- */

/* gt200: dependent SP adds 24 cycles apart (Wong et al.), 64-byte
 * fetches decoded 2 cycles after the start, %clock in steps of 2:
 * adds issue at 2, 26, 50; the mock records what %clock reads. */
START_TEST(gt200_preset)
{
    mock_init_model(&M, 1, tm_gpu_init);
    mock_set(&M, "gpu.arch=gt200");
    mock_set(&M, "launch.latency=0");
    mock_set(&M, "clock.divider=2");
    mock_chain(&M, 0, 3);
    ck_assert_uint_eq(mock_time(&M), 2 + 3 * 24);
    ck_assert_uint_eq(ISSUE(0, 0, 1), 26);
    ck_assert(M.mhz == 1296.0);
    mock_fini(&M);
    /* %clock: an odd issue cycle reads the even one below it */
    mock_init_model(&M, 1, tm_gpu_init);
    mock_set(&M, "gpu.arch=gt200");
    mock_set(&M, "launch.latency=1");
    mock_chain(&M, 0, 2);
    ck_assert_uint_eq(mock_time(&M), 1 + 2 + 2 * 24);
    ck_assert_uint_eq(ISSUE(0, 0, 0), 2);  /* issued at 3 */
    ck_assert_uint_eq(ISSUE(0, 0, 1), 26); /* issued at 27 */
    mock_fini(&M);
}
END_TEST

/* PTX-to-machine expansion on GT200: mul.lo.u32 is 4 dependent SP
 * instructions of 24 cycles (Wong et al.: 96 cycles).  Two dependent
 * muls and an exit, first fetch decoded at 2: mul0's parts at 2, 26,
 * 50, 74 (result 98); mul1 at 98 (parts to 170, result 194); the warp
 * issues nothing else before its last part, so the exit goes at 171;
 * 194 cycles.  Without expansion: one INT instruction of 24: mul1 at
 * 26, exit 27, done at 50. */
START_TEST(expansion_gt200_mul)
{
    static const struct {
        const char *table;
        uint64_t mul1, exit, cycles, parts;
    } t[] = {{"expand.arch=gt200", 98, 171, 194, 8},
             {"expand.arch=none", 26, 27, 50, 0}};
    for (size_t i = 0; i < 2; i++) {
        mock_init_model(&M, 1, tm_gpu_init);
        mock_set(&M, "gpu.arch=gt200");
        mock_set(&M, "launch.latency=0");
        mock_set(&M, "clock.divider=1");
        mock_set(&M, t[i].table);
        for (uint32_t k = 0; k < 2; k++) {
            mock_add(&M, 0, k ? 0 : NONE, k);
            MockInsn *x = &M.insn[M.ninsn - 1];
            x->in.opname = "mul";
            x->in.text = "mul.lo.u32 %r1, %r2, %r3;";
            x->in.type = 4;
        }
        mock_exit(&M, 0);
        ck_assert_uint_eq(mock_time(&M), t[i].cycles);
        ck_assert_uint_eq(ISSUE(0, 0, 0), 2);
        ck_assert_uint_eq(ISSUE(0, 0, 1), t[i].mul1);
        ck_assert_uint_eq(ISSUE(0, 0, 2), t[i].exit);
        ck_assert_uint_eq(mock_stat(&M, "gpu.machine_parts"), t[i].parts);
        check_accounting(1);
        mock_fini(&M);
    }
}
END_TEST

/* Every machine part of an expanded instruction occupies its unit.
 * gt200's table on the base config: mul.lo.u32 is 4 dependent INT
 * parts of latency 24, each busy 4 cycles on the (one) INT unit.  8
 * warps, each: mul; exit; all fetched by 1, lrr.
 *  - round 0: w_k's part 0 at 1 + 4k (the unit is busy 4 cycles each);
 *    its part 1 may go from 25 + 4k;
 *  - round 1: the unit is free from 33 (w7's part 0 at 29): w0 (ready
 *    since 25) at 33, then w_k at 33 + 4k; round 2 from 61 + 4 = 65:
 *    w_k at 65 + 4k; round 3: w_k at 97 + 4k (w7 at 125);
 *  - w_k's exit (a ctrl unit) goes the cycle after its last part while
 *    the others wait for the INT unit: 98 + 4k (w7 at 126);
 *  - w7's result at 125 + 24 = 149: the CTA retires then.
 * Were only the first part to occupy the unit, w_k's parts would go at
 * 1 + 4k + 24j and the kernel would end at 29 + 72 + 24 = 125.
 * Scheduler cycles: 32 parts + 8 exits selected; cycle 0
 * no_instruction; 127-148 idle (every warp exited); the other 86 a warp
 * could issue but for the busy unit (math_pipe_throttle: it is busy
 * from 1 to 128 without a break, so no cycle is `wait`). */
START_TEST(expansion_parts_occupy_units)
{
    gpu_base(1);
    mock_set(&M, "expand.arch=gt200");
    mock_set(&M, "unit.int.count=1");
    mock_grid(&M, 1, 8);
    for (uint32_t w = 0; w < 8; w++) {
        mock_add(&M, w, NONE, 0);
        MockInsn *x = &M.insn[M.ninsn - 1];
        x->in.opname = "mul";
        x->in.text = "mul.lo.u32 %r1, %r2, %r3;";
        x->in.type = 4;
        mock_exit(&M, w);
    }
    ck_assert_uint_eq(mock_time(&M), 149);
    for (uint32_t w = 0; w < 8; w++) {
        ck_assert_uint_eq(ISSUE(0, w, 0), 1 + 4 * w);
        ck_assert_uint_eq(ISSUE(0, w, 1), 98 + 4 * w);
    }
    ck_assert_uint_eq(mock_stat(&M, "gpu.machine_parts"), 32);
    ck_assert_uint_eq(mock_stat(&M, "gpu.issued"), 16);
    ck_assert_uint_eq(stall("selected"), 40);
    ck_assert_uint_eq(stall("no_instruction"), 1);
    ck_assert_uint_eq(stall("idle"), 22);
    ck_assert_uint_eq(stall("math_pipe_throttle"), 86);
    ck_assert_uint_eq(stall("wait"), 0);
    check_accounting(1);
    mock_fini(&M);
}
END_TEST

/* An expanded instruction with operand collectors (2 banks of 1 port,
 * one collector; bank = (slot + warp) % 2): mul.lo.u32 s1 <- s0 on
 * gt200's table (4 INT parts, latency 24), add s2 <- s1, exit.  The mul
 * issues at 1, reads s0 at 2 and is dispatched then: part 0 at 2, parts
 * 1-3 in issue slots at 26, 50, 74; s1 is ready and written back (bank
 * 1) at 98.  The add waits for s1 (the collector was freed at 2),
 * issues at 98, reads s1 at 99 (bank 1 wrote at 98), is dispatched at
 * 99: s2 at 103; the exit takes the collector freed at 99.  103 cycles.
 * Without the table the mul is one INT instruction of 4: s1 at 6, the
 * add at 6 (dispatched 7, s2 at 11), the exit at 7: 11 cycles. */
START_TEST(expansion_with_collectors)
{
    static const struct {
        const char *table;
        uint64_t add, exit, cycles, parts;
    } t[] = {{"expand.arch=gt200", 98, 99, 103, 4},
             {"expand.arch=none", 6, 7, 11, 0}};
    for (size_t i = 0; i < 2; i++) {
        gpu_base(1);
        mock_set(&M, t[i].table);
        mock_set(&M, "unit.int.count=1");
        mock_set(&M, "oc.enabled=true");
        mock_set(&M, "oc.banks=2");
        mock_set(&M, "oc.ports=1");
        mock_set(&M, "oc.collectors=1");
        mock_add(&M, 0, 0, 1);
        MockInsn *x = &M.insn[M.ninsn - 1];
        x->in.opname = "mul";
        x->in.text = "mul.lo.u32 %r1, %r0, 3;";
        x->in.type = 4;
        mock_add(&M, 0, 1, 2);
        mock_exit(&M, 0);
        uint64_t cycles = mock_time(&M);
        ck_assert_msg(cycles == t[i].cycles, "%s: %llu cycles", t[i].table,
                      (unsigned long long)cycles);
        ck_assert_uint_eq(ISSUE(0, 0, 0), 1);
        ck_assert_uint_eq(ISSUE(0, 0, 1), t[i].add);
        ck_assert_uint_eq(ISSUE(0, 0, 2), t[i].exit);
        ck_assert_uint_eq(mock_stat(&M, "gpu.machine_parts"), t[i].parts);
        check_accounting(1);
        mock_fini(&M);
    }
}
END_TEST

/* A kernel stopped by a guest fault that the host never ends (no
 * kernel_end: timing/host.c skips it after a fault) must not hold the
 * SM or make the next kernel its child: the next launch times as on a
 * fresh model.  Program: add; add (faults the first time); exit: adds
 * at 1 and 2, exit at 3, the last result at 6. */
START_TEST(fault_without_kernel_end)
{
    gpu_base(1);
    mock_set(&M, "occ.max_ctas=1");
    mock_add(&M, 0, NONE, 0);
    mock_add(&M, 0, NONE, 1)->fault = 1;
    mock_exit(&M, 0);
    ck_assert_ptr_nonnull(mock_create(&M));
    uint64_t now = mock_run_to_fault(&M);
    M.prog[0][1].fault = 0; /* the host lives on; a new launch */
    M.k.start_cycle = now;    /* device time goes on */
    uint64_t cycles = 0;
    ck_assert_int_eq(mock_run(&M, &cycles), 0);
    ck_assert_uint_eq(cycles, 6);
    ck_assert_uint_eq(ISSUE(0, 0, 2), now + 3);
    /* resident warps x cycles: 1 x 2 before the fault, 1 x 6 after (the
     * faulted CTA's warp would count again if it still held the SM) */
    ck_assert_uint_eq(mock_stat(&M, "gpu.sm0.warps_resident"), 2 + 6);
    mock_fini(&M);
}
END_TEST

/* ---- dynamic parallelism ---- */

/* A child grid timed inside its parent's step (tests/tm_mock.h,
 * MockOp.child; a host may run it there, timing/lib/kernel.h
 * "Nesting"; ptxemu's runs it after the parent).  One SM.  Parent (one
 * warp): add r0 at 1 (its fetch at 0), the launching step at 2.  Child
 * (one CTA, one warp, 8 dependent adds) from the SM's time 2: fetch at
 * 2, adds at 3, 7, ..., 31, exit 32, last result 35: it ends at 35 (33
 * cycles).  The parent's warp resumes then: add r1 <- r0 at 35, exit 36,
 * result 39: the parent ends at 39.  gpu.cycles adds both, 39 + 33, and
 * so do the stall counts (the parent's cycle 2 spans the child's 33):
 * selected 1 + 33 + 1 + 1 (parent) + 9 (child), no_instruction 1 + 1,
 * wait 7 x 3 (the chain), idle 2 + 2 (waiting for the last results).
 * The parent's SM is the one stepped when the child's cycles step it
 * too: its counts must land in the parent's sum, not in a child cycle's
 * (gone) one. */
/* Program w: add r0, the step that times the child grid (one warp
 * running program `child`: 8 dependent adds), add r1 <- r0, exit. */
static void launcher(uint32_t w, uint32_t child)
{
    mock_set(&M, "unit.misc.lanes=32");
    mock_set(&M, "unit.misc.lat=1");
    mock_add(&M, w, NONE, 0);
    mock_op(&M, w, insn(U(MISC), 0, 0, 0, NONE, NONE))->child = 1;
    mock_add(&M, w, 0, 1);
    mock_exit(&M, w);
    M.child_prog = child;
    mock_chain(&M, child, 8);
    M.ck = M.k;
    M.ck.nctas = 1;
}

START_TEST(child_grid_inside_a_step)
{
    gpu_base(1);
    launcher(0, 1);
    ck_assert_uint_eq(mock_time(&M), 39);
    ck_assert_uint_eq(M.child_end, 35);
    for (uint32_t i = 0; i < 8; i++) {
        ck_assert_uint_eq(M.ccta[0].w[0].issue[i], 3 + 4 * i);
    }
    ck_assert_uint_eq(M.ccta[0].w[0].issue[8], 32);
    ck_assert_uint_eq(ISSUE(0, 0, 1), 2);
    ck_assert_uint_eq(ISSUE(0, 0, 2), 35);
    ck_assert_uint_eq(ISSUE(0, 0, 3), 36);
    ck_assert_uint_eq(mock_stat(&M, "gpu.cycles"), 39 + 33);
    ck_assert_uint_eq(stall("selected"), 36 + 9);
    ck_assert_uint_eq(stall("no_instruction"), 2);
    ck_assert_uint_eq(stall("wait"), 21);
    ck_assert_uint_eq(stall("idle"), 4);
    check_accounting(1);
    mock_fini(&M);
}
END_TEST

/* The same child launched from SM1 (the parent's CTA 1: add, launch,
 * add, exit) while SM0 (CTA 0: two adds, exit) issued its second add in
 * the launching cycle 2, before SM1 in that cycle.  The child's cycles
 * step SM0 too (its warp waits for the child's end) and leave it asleep;
 * the parent's cycle still counts SM0 once for its 33 cycles, as its
 * visit at 2 did, not once more from what the child's cycles left: every
 * SM's scheduler counts one reason a cycle, 2 x (39 + 33) in all. */
START_TEST(child_grid_beside_a_looked_at_sm)
{
    gpu_base(2);
    mock_grid(&M, 2, 1);
    M.cta_prog[1] = 1;
    mock_add(&M, 0, NONE, 0);
    mock_add(&M, 0, NONE, 1);
    mock_exit(&M, 0);
    launcher(1, 2);
    ck_assert_uint_eq(mock_time(&M), 39);
    ck_assert_uint_eq(M.child_end, 35);
    ck_assert_uint_eq(ISSUE(0, 0, 1), 2);   /* SM0, in the launching cycle */
    ck_assert_uint_eq(ISSUE(1, 0, 1), 2);   /* SM1: the launch */
    ck_assert_uint_eq(ISSUE(0, 0, 2), 35);  /* both resume at the end */
    ck_assert_uint_eq(ISSUE(1, 0, 2), 35);
    ck_assert_uint_eq(mock_stat(&M, "gpu.cycles"), 39 + 33);
    check_accounting(1);
    mock_fini(&M);
}
END_TEST

START_TEST(deterministic)
{
    uint64_t first = 0;
    for (int run = 0; run < 2; run++) {
        gpu_base(2);
        mock_set(&M, "sched.policy=gto");
        mock_grid(&M, 6, 3);
        for (uint32_t w = 0; w < 3; w++) {
            load(w, (int)w, 0x1000 * (w + 1), 0);
            mock_add(&M, w, 0, 1);
            mock_add(&M, w, 1, 2);
            mock_exit(&M, w);
        }
        uint64_t c = mock_time(&M);
        if (run == 0) {
            first = c;
        } else {
            ck_assert_uint_eq(c, first);
        }
        check_accounting(1);
        mock_fini(&M);
    }
}
END_TEST

/* ---- running ahead (ABI 5: timing/gpu/ahead.c) ---- */

/* What a run leaves: its cycles, every statistic and every issue cycle
 * of every warp of every CTA. */
typedef struct Outcome {
    uint64_t cycles;
    uint32_t nstat;
    uint64_t stat[MOCK_MAXSTAT];
    uint64_t issue[MOCK_MAXCTA][MOCK_MAXW][MOCK_MAXOPS];
} Outcome;

static Outcome ahead_out[2];

/* Build a scenario with build(), set `set` (NULL: nothing) and offer
 * running ahead with the host's look every q cycles (0: not), run it
 * and keep its cycles, statistics and issue cycles in *o. */
static void outcome(void (*build)(void), const char *set, uint64_t q,
                    Outcome *o)
{
    build();
    if (set) {
        mock_set(&M, set);
    }
    if (q) {
        mock_ahead(&M, q);
    }
    memset(o, 0, sizeof *o);
    o->cycles = mock_time(&M);
    o->nstat = M.nstat;
    for (uint32_t i = 0; i < M.nstat; i++) {
        o->stat[i] = *M.stat[i].ctr;
    }
    for (uint32_t c = 0; c < M.k.nctas; c++) {
        for (uint32_t w = 0; w < M.cta[c].nwarps; w++) {
            memcpy(o->issue[c][w], M.cta[c].w[w].issue,
                   sizeof o->issue[c][w]);
        }
    }
    check_accounting(2);
    mock_fini(&M);
}

/* ahead_out[0] (run as `a`) and [1] (as `b`) are the same. */
static void same_outcomes(const char *a, const char *b)
{
    const Outcome *x = &ahead_out[0], *y = &ahead_out[1];
    ck_assert_uint_eq(x->cycles, y->cycles);
    ck_assert_uint_eq(x->nstat, y->nstat);
    for (uint32_t i = 0; i < x->nstat; i++) {
        ck_assert_msg(x->stat[i] == y->stat[i], "%s: %llu %s, %llu %s",
                      M.stat[i].path, (unsigned long long)x->stat[i], a,
                      (unsigned long long)y->stat[i], b);
    }
    ck_assert_msg(!memcmp(x->issue, y->issue, sizeof x->issue),
                  "an instruction issued in another cycle %s", b);
}

/* Run a scenario cycle by cycle and with the SMs let run ahead up to
 * the host's look every q cycles (from 64 on: an SM runs ahead only
 * that far, gpu.c): the same cycles, statistics and issue cycles (what
 * gpu.c's top claims). */
static void same_running_ahead(void (*build)(void), uint64_t q)
{
    outcome(build, NULL, 0, &ahead_out[0]);
    outcome(build, NULL, q, &ahead_out[1]);
    same_outcomes("cycle by cycle", "running ahead");
}

/* Run a scenario with the `ideal` memory driven as one
 * (par.split_mem=false) and SM by SM (the default), running ahead as
 * same_running_ahead's q says (0: not): the same. */
static void same_split(void (*build)(void), uint64_t q)
{
    outcome(build, "par.split_mem=false", q, &ahead_out[0]);
    outcome(build, NULL, q, &ahead_out[1]);
    same_outcomes("driven as one", "split");
}

/* Four SMs, two schedulers each, eight CTAs of three warps: a load of
 * warp 0 in flight while chains of different lengths run up to a
 * bar.sync, a global load whose result the chain waits for, a store
 * flagged PTXEMU_TM_I_SHARED (held for phase 2 of its cycle), exits;
 * the ideal memory's latency 100. */
static void scene_chains(void)
{
    gpu_base(4);
    mock_set(&M, "sched.per_sm=2");
    mock_set(&M, "bar.latency=6");
    mock_grid(&M, 8, 3);
    const ptxemu_tm_insn *bar = insn(U(SYNC), PTXEMU_TM_I_BARRIER,
                                     PTXEMU_TM_WAIT_BARRIER, 0, NONE, NONE);
    const ptxemu_tm_insn *st = insn(U(LDST), PTXEMU_TM_I_STORE |
                                        PTXEMU_TM_I_SHARED,
                                    0, PTXEMU_TM_SPACE_GLOBAL, 3, NONE);
    for (uint32_t w = 0; w < 3; w++) {
        if (w == 0) { /* in flight while the others compute */
            load(w, 7, 0x40000, 2);
        }
        for (uint32_t i = 0; i < 4 + 13 * w; i++) { /* to 120 cycles */
            mock_add(&M, w, i ? 0 : NONE, 0);
        }
        mock_op(&M, w, bar)->bar = 1;
        load(w, (int)w, 0x10000 * (w + 1), 2);
        mock_add(&M, w, 2, 3);
        MockOp *o = mock_op(&M, w, st);
        o->acc = lanes(3 + (int)w, PTXEMU_TM_SPACE_GLOBAL, PTXEMU_TM_WRITE,
                       0x80000 + 0x1000 * w, 4, 4);
        o->nacc = 32;
        for (uint32_t i = 0; i < 12 - 3 * w; i++) {
            mock_add(&M, w, 3, 3);
        }
        mock_exit(&M, w);
    }
}

/* The same with the detailed memory system (requests in flight: an SM
 * runs ahead only to its next event). */
static void scene_chains_hier(void)
{
    scene_chains();
    mock_set(&M, "mem.model=hier");
}

/* Two SMs, a CTA at a time on each, of two warps streaming loads of
 * two lines each through a narrow port (refusals: the LSU offers again
 * every cycle), each result used at once, then an exit; six CTAs, so
 * that CTAs retire on replies and others take their place. */
static void scene_stream(void)
{
    gpu_base(2);
    mock_set(&M, "sched.per_sm=2");
    mock_set(&M, "mem.ideal.bytes_per_cycle=16");
    mock_set(&M, "mem.ideal.queue=4");
    mock_set(&M, "occ.max_ctas=1");
    mock_grid(&M, 6, 2);
    for (uint32_t w = 0; w < 2; w++) {
        for (uint32_t i = 0; i < 3; i++) {
            MockOp *op = load(w, (int)(3 * w + i),
                              0x10000 * (w + 1) + 0x400 * i, i);
            op->acc = lanes((int)(3 * w + i), PTXEMU_TM_SPACE_GLOBAL,
                            PTXEMU_TM_READ, 0x10000 * (w + 1) + 0x400 * i,
                            8, 4);
            mock_add(&M, w, i, 3);
        }
        mock_exit(&M, w);
    }
}

START_TEST(split_memory_changes_nothing)
{
    same_split(scene_chains, 0);
    same_split(scene_chains, 1u << 30);
    same_split(scene_chains, 70);
    same_split(scene_stream, 0);
    same_split(scene_stream, 1u << 30);
    same_split(scene_stream, 64);
}
END_TEST

START_TEST(running_ahead_changes_nothing)
{
    same_running_ahead(scene_chains, 1u << 30);
    same_running_ahead(scene_chains, 70);
    same_running_ahead(scene_chains_hier, 1u << 30);
    same_running_ahead(scene_chains_hier, 100);
}
END_TEST

/* SM 1 faults at its warp's fourth step; SM 0's warp, with nothing to
 * wait for, runs ahead past that cycle to a fault of its own, later:
 * the kernel stops where cycle by cycle it stops, SM 1's fault reported
 * and SM 0's dropped (host->drop_fault). */
START_TEST(running_ahead_drops_later_faults)
{
    uint64_t stop[2];
    for (int ahead = 0; ahead < 2; ahead++) {
        gpu_base(2);
        mock_set(&M, "occ.max_ctas=1");
        mock_grid(&M, 2, 1);
        M.cta_prog[1] = 1;
        for (uint32_t i = 0; i < 3; i++) {
            mock_add(&M, 0, NONE, i);      /* independent: one a cycle */
        }
        for (uint32_t i = 0; i < 20; i++) {
            mock_add(&M, 0, NONE, 0);
        }
        mock_add(&M, 0, NONE, 1)->fault = 1; /* about 24 */
        mock_exit(&M, 0);
        for (uint32_t i = 0; i < 3; i++) {
            mock_add(&M, 1, NONE, i);
        }
        mock_add(&M, 1, NONE, 4)->fault = 1; /* about 4 */
        mock_exit(&M, 1);
        if (ahead) {
            mock_ahead(&M, 1u << 30);
        }
        ck_assert_ptr_nonnull(mock_create(&M));
        stop[ahead] = mock_run_to_fault(&M);
        if (ahead) {
            ck_assert_uint_eq(M.ndropped, 1);
            ck_assert_uint_eq(M.dropped[0], 0);
        }
        mock_fini(&M);
    }
    ck_assert_uint_lt(stop[0], 20); /* (SM 1's fault, the first) */
    ck_assert_uint_eq(stop[1], stop[0]);
}
END_TEST

/* A spin loop: a poll (an mbarrier try_wait, SYNC; or a volatile load)
 * writing predicate slot 5, then a branch on it back to the poll
 * (op `at`) while it fails. */
static void spin(uint32_t w, uint32_t at, MockOp *poll, uint32_t ctr,
                 uint32_t need)
{
    poll->poll = ctr;
    poll->need = need;
    MockOp *br = mock_op(&M, w, insn(U(CTRL), PTXEMU_TM_I_BRANCH, 0, 0, 5,
                                     NONE));
    br->loop = 1;
    br->to = at;
}

static const ptxemu_tm_insn *try_wait(void)
{
    return insn(U(SYNC), 0, PTXEMU_TM_WAIT_MBARRIER, PTXEMU_TM_SPACE_SHARED,
                NONE, 5);
}

/* An mbarrier whose phase completes with another warp's arrive (PTX
 * ISA, mbarrier.try_wait: a failed wait returns false and the program
 * loops; the emulator never blocks in it).  Two schedulers, one warp
 * each (warp slot % sched.per_sm), so the warps do not share issue
 * slots.  Warp 1: an independent add at 1, three dependent adds at 2,
 * 6, 10 (int latency 4), the arrive (reads the last add's result) at
 * 14, exit at 15.  Warp 0: try_wait (sync latency 1: its predicate
 * ready a cycle later) at 1, the branch on it at 2, the target fetched
 * then and decoded at 3 (fetch.latency 1): a poll every 2 cycles, at 1,
 * 3, ..., 13 (counter still 0: fail) and 15 (after the arrive at 14:
 * success); the branch at 16 falls through; the add after the loop at
 * 17, exit at 18, its result at 21: the kernel's end. */
START_TEST(mbarrier_wait_spins)
{
    gpu_base(1);
    mock_set(&M, "sched.per_sm=2");
    mock_grid(&M, 1, 2);
    spin(0, 0, mock_op(&M, 0, try_wait()), 1, 1);
    mock_add(&M, 0, NONE, 0);
    mock_exit(&M, 0);
    mock_add(&M, 1, NONE, 3);
    mock_add(&M, 1, NONE, 0);
    mock_add(&M, 1, 0, 1);
    mock_add(&M, 1, 1, 2);
    mock_op(&M, 1, insn(U(SYNC), 0, 0, PTXEMU_TM_SPACE_SHARED, 2, NONE))
        ->arrive = 1;
    mock_exit(&M, 1);
    ck_assert_uint_eq(mock_time(&M), 21);
    ck_assert_uint_eq(ISSUE(0, 1, 4), 14); /* the arrive */
    ck_assert_uint_eq(ISSUE(0, 0, 0), 15); /* the last (successful) poll */
    ck_assert_uint_eq(ISSUE(0, 0, 1), 16);
    ck_assert_uint_eq(ISSUE(0, 0, 2), 17);
    ck_assert_uint_eq(ISSUE(0, 0, 3), 18);
    ck_assert_uint_eq(mock_stat(&M, "gpu.issued"), 8 * 2 + 2 + 6);
    check_accounting(2);
    mock_fini(&M);
}
END_TEST

/* A bulk copy (cp.async.bulk global -> shared, completing on an
 * mbarrier through complete_tx: the emulator copies at issue, so the
 * waiter's first try_wait succeeds and lists the copy's token): 128
 * bytes as 8 accesses of 16 bytes, one 128-byte line read and one
 * shared-memory wavefront written (8 x 16 bytes over 32 4-byte banks).
 * The copy issues at 1, the try_wait at 2; the instruction after the
 * wait (the branch, not taken) issues when the token completes, at the
 * later of the global reply (sent at 2, answered at 3 + latency) and
 * the shared write (one MIO pass at 1, ready 1 + smem.latency 23 = 24):
 * latency 100: 103; latency 5: 24.  The add after it one later, the
 * exit two later; the add's result (4 after its issue) ends the
 * kernel: 108 and 29. */
START_TEST(bulk_copy_completes_mbarrier)
{
    static const struct {
        const char *lat;
        uint64_t br;
    } t[] = {{"mem.ideal.global_latency=100", 103},
             {"mem.ideal.global_latency=5", 24}};
    static const uint64_t tok[] = {9};
    static ptxemu_tm_access acc[16];
    for (uint32_t i = 0; i < 8; i++) {
        acc[i] = (ptxemu_tm_access){.addr = 0x1000 + 16 * i, .size = 16,
                                    .space = PTXEMU_TM_SPACE_GLOBAL,
                                    .kind = PTXEMU_TM_ASYNC_READ};
        acc[8 + i] = (ptxemu_tm_access){.addr = 16 * i, .size = 16,
                                        .space = PTXEMU_TM_SPACE_SHARED,
                                        .kind = PTXEMU_TM_ASYNC_WRITE};
    }
    for (size_t i = 0; i < 2; i++) {
        gpu_base(1);
        mock_set(&M, "smem.latency=23");
        mock_set(&M, t[i].lat);
        MockOp *cp = mock_op(&M, 0, insn(U(ASYNC), PTXEMU_TM_I_ASYNC, 0,
                                         PTXEMU_TM_SPACE_GLOBAL, NONE, NONE));
        cp->acc = acc;
        cp->nacc = 16;
        cp->token = 9;
        MockOp *tw = mock_op(&M, 0, try_wait());
        tw->wait = tok;
        tw->nwait = 1;
        spin(0, 1, tw, 0, 0);
        mock_add(&M, 0, NONE, 0);
        mock_exit(&M, 0);
        ck_assert_uint_eq(mock_time(&M), t[i].br + 5);
        ck_assert_uint_eq(ISSUE(0, 0, 1), 2);
        ck_assert_uint_eq(ISSUE(0, 0, 2), t[i].br);
        ck_assert_uint_eq(ISSUE(0, 0, 3), t[i].br + 1);
        ck_assert_uint_eq(stall("async"), t[i].br - 3);
        check_accounting(1);
        mock_fini(&M);
    }
}
END_TEST

/* barrier.cluster across a cluster of two CTAs, one per SM (a cluster
 * spreads one CTA per SM of its GPC).  CTA 1 arrives at 1; CTA 0 runs
 * three dependent adds (1, 5, 9) and arrives (the barrier reads no
 * register) at 10, last: the release, from the step of CTA 0's warp
 * (the host sends no event for CTA 1's); bar.latency 20 holds both
 * CTAs' warps until 30; exits at 30, the kernel ends at 31.  Barrier
 * stalls: SM1 2..29 (28), SM0 11..29 (19). */
START_TEST(cluster_barrier_release)
{
    gpu_base(2);
    mock_set(&M, "bar.latency=20");
    mock_grid(&M, 2, 1);
    M.k.cluster[0] = 2;
    M.cta_prog[1] = 1;
    const ptxemu_tm_insn *bar = insn(U(SYNC), PTXEMU_TM_I_BARRIER,
                                     PTXEMU_TM_WAIT_CLUSTER, 0, NONE, NONE);
    mock_add(&M, 0, NONE, 0);
    mock_add(&M, 0, 0, 1);
    mock_add(&M, 0, 1, 2);
    mock_op(&M, 0, bar)->bar = 3;
    mock_exit(&M, 0);
    mock_op(&M, 1, bar)->bar = 3;
    mock_exit(&M, 1);
    ck_assert_uint_eq(mock_time(&M), 31);
    ck_assert_uint_eq(M.cta[0].sm, 0);
    ck_assert_uint_eq(M.cta[1].sm, 1);
    ck_assert_uint_eq(ISSUE(0, 0, 3), 10);
    ck_assert_uint_eq(ISSUE(1, 0, 0), 1);
    ck_assert_uint_eq(ISSUE(0, 0, 4), 30);
    ck_assert_uint_eq(ISSUE(1, 0, 1), 30);
    ck_assert_uint_eq(stall("barrier"), 28 + 19);
    check_accounting(1);
    mock_fini(&M);
}
END_TEST

/* grid.sync() of a cooperative launch, as cooperative_groups compiles
 * it for one warp per CTA: an atomic add on the grid's workspace
 * (global, ideal latency 100), then volatile loads of it in a loop
 * until every CTA arrived.  Two CTAs, one per SM (occ.max_ctas 1: the
 * cooperative grid is resident at once).  A request sent at s is
 * answered at s + 1 + 100.  CTA 1 runs three dependent adds (1, 5, 9)
 * first and its atomic (no operands) at 10: the second arrival.  CTA
 * 0: atomic at 1 (sent at 2), first poll at 2 (count 1: fails; sent
 * at 3, answered at 104), the branch on it at 104, the target fetched
 * then, the poll again at 105 (succeeds; sent 106, answered 207), the
 * branch at 207 falls through, add 208, exit 209, the add's result at
 * 212: the kernel's end.  CTA 1: atomic at 10 (sent 11), poll at 11
 * (succeeds; sent 12, answered 113), branch 113, add 114. */
START_TEST(grid_sync_cooperative)
{
    gpu_base(2);
    mock_set(&M, "occ.max_ctas=1");
    mock_grid(&M, 2, 1);
    M.k.cooperative = 1;
    M.cta_prog[1] = 1;
    for (uint32_t w = 0; w < 2; w++) {
        if (w == 1) {
            mock_add(&M, 1, NONE, 0);
            mock_add(&M, 1, 0, 1);
            mock_add(&M, 1, 1, 2);
        }
        uint32_t at = w ? 4 : 1;
        MockOp *a = mock_op(&M, w, insn(U(LDST), PTXEMU_TM_I_ATOMIC, 0,
                                        PTXEMU_TM_SPACE_GLOBAL, NONE, NONE));
        a->acc = lanes(0, PTXEMU_TM_SPACE_GLOBAL, PTXEMU_TM_ATOMIC, 0x100, 0,
                       4);
        a->nacc = 1;
        a->arrive = 1;
        MockOp *p = mock_op(&M, w, insn(U(LDST), PTXEMU_TM_I_LOAD, 0,
                                        PTXEMU_TM_SPACE_GLOBAL, NONE, 5));
        p->acc = lanes(1, PTXEMU_TM_SPACE_GLOBAL, PTXEMU_TM_READ, 0x100, 0, 4);
        p->nacc = 1;
        spin(w, at, p, 1, 2);
        mock_add(&M, w, NONE, 3);
        mock_exit(&M, w);
    }
    ck_assert_uint_eq(mock_time(&M), 212);
    ck_assert_uint_ne(M.cta[0].sm, M.cta[1].sm);
    ck_assert_uint_eq(ISSUE(0, 0, 1), 105);
    ck_assert_uint_eq(ISSUE(0, 0, 2), 207);
    ck_assert_uint_eq(ISSUE(0, 0, 3), 208);
    ck_assert_uint_eq(ISSUE(0, 0, 4), 209);
    ck_assert_uint_eq(ISSUE(1, 0, 3), 10);
    ck_assert_uint_eq(ISSUE(1, 0, 4), 11);
    ck_assert_uint_eq(ISSUE(1, 0, 5), 113);
    ck_assert_uint_eq(ISSUE(1, 0, 6), 114);
    check_accounting(1);
    mock_fini(&M);
}
END_TEST

/* wgmma.mma_async m64n8k16 (f16) with A and B in shared memory: each
 * warp reads its 16 rows of A (16 x 16 x 2 = 512 bytes) and all of B
 * (16 x 8 x 2 = 256 bytes), as the emulator reports them (async reads
 * of lane 0, one per element); 768 contiguous bytes over 32 4-byte
 * banks are 6 wavefronts of the MIO pipe.  wgmma.wait_group lists its
 * token; the add after it issues when the wgmma completed: at the
 * later of issue + unit.tensor.lat and the last operand wavefront's
 * result (first free pass p: p + 6 - 1 + smem.latency 23).
 *  - tensor latency 10, wgmma at 1, passes 1..6: max(11, 29) = 29;
 *  - tensor latency 40: max(41, 29) = 41;
 *  - latency 40 behind a shared load of stride 32 (32 wavefronts, MIO
 *    busy 1..32) at 1: the wgmma at 2 (lsu.mio_queue 64: no
 *    mio_throttle), its passes 33..38: max(42, 61) = 61.
 * The wait issues right after the wgmma; the exit one after the add,
 * whose result (4 after it) ends the kernel. */
START_TEST(wgmma_reads_shared_operands)
{
    static const struct {
        const char *lat;
        int busy;
        uint64_t add;
    } t[] = {{"unit.tensor.lat=10", 0, 29},
             {"unit.tensor.lat=40", 0, 41},
             {"unit.tensor.lat=40", 1, 61}};
    static const uint64_t tok[] = {11};
    static ptxemu_tm_access acc[384];
    for (uint32_t i = 0; i < 384; i++) { /* A at 0, B right after it */
        acc[i] = (ptxemu_tm_access){.addr = 2 * i, .size = 2,
                                    .space = PTXEMU_TM_SPACE_SHARED,
                                    .kind = PTXEMU_TM_ASYNC_READ};
    }
    for (size_t i = 0; i < 3; i++) {
        gpu_base(1);
        mock_set(&M, "smem.latency=23");
        mock_set(&M, "unit.tensor.lanes=32");
        mock_set(&M, "lsu.mio_queue=64");
        mock_set(&M, t[i].lat);
        uint32_t pc = 0;
        if (t[i].busy) {
            MockOp *ld = mock_op(&M, 0, insn(U(LDST), PTXEMU_TM_I_LOAD, 0,
                                             PTXEMU_TM_SPACE_SHARED, NONE,
                                             3));
            ld->acc = lanes(0, PTXEMU_TM_SPACE_SHARED, PTXEMU_TM_READ, 0,
                            4 * 32, 4);
            ld->nacc = 32;
            pc = 1;
        }
        MockOp *mma = mock_op(&M, 0, insn(U(TENSOR), PTXEMU_TM_I_ASYNC, 0,
                                          PTXEMU_TM_SPACE_SHARED, NONE,
                                          NONE));
        mma->acc = acc;
        mma->nacc = 384;
        mma->token = 11;
        MockOp *wt = mock_op(&M, 0, insn(U(SYNC), 0, PTXEMU_TM_WAIT_WGMMA,
                                         0, NONE, NONE));
        wt->wait = tok;
        wt->nwait = 1;
        mock_add(&M, 0, NONE, 0);
        mock_exit(&M, 0);
        ck_assert_msg(mock_time(&M) == t[i].add + 4, "case %zu", i);
        ck_assert_uint_eq(ISSUE(0, 0, pc), 1 + pc);
        ck_assert_uint_eq(ISSUE(0, 0, pc + 1), 2 + pc);
        ck_assert_uint_eq(ISSUE(0, 0, pc + 2), t[i].add);
        ck_assert_uint_eq(mock_stat(&M, "gpu.smem_wavefronts"),
                          6 + (t[i].busy ? 32 : 0));
        check_accounting(1);
        mock_fini(&M);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("timing_gpu");
    TCase *tc = tcase_create("gpu");
    tcase_add_test(tc, chain_waits_fixed_latency);
    tcase_add_test(tc, branch_redirects_fetch);
    tcase_add_test(tc, load_waits_long_scoreboard);
    tcase_add_test(tc, ideal_memory_bandwidth);
    tcase_add_test(tc, lsu_queue_throttles);
    tcase_add_test(tc, lsu_refusal_replays);
    tcase_add_test(tc, fence_waits_for_stores);
    tcase_add_test(tc, fetch_through_memory);
    tcase_add_test(tc, fetch_port_competition);
    tcase_add_test(tc, narrow_unit_occupancy);
    tcase_add_test(tc, dual_issue);
    tcase_add_test(tc, operand_collector_conflicts);
    tcase_add_test(tc, policies_issue_order);
    tcase_add_test(tc, two_level_pool_on_long_latency);
    tcase_add_test(tc, unknown_policy_refused);
    tcase_add_test(tc, barrier_latency);
    tcase_add_test(tc, barrier_latency_one_warp);
    tcase_add_test(tc, async_wait_for_token);
    tcase_add_test(tc, mbarrier_wait_spins);
    tcase_add_test(tc, bulk_copy_completes_mbarrier);
    tcase_add_test(tc, cluster_barrier_release);
    tcase_add_test(tc, grid_sync_cooperative);
    tcase_add_test(tc, wgmma_reads_shared_operands);
    tcase_add_test(tc, shared_bank_conflicts);
    tcase_add_test(tc, cta_waves_per_limit);
    tcase_add_test(tc, cta_waves_per_carveout);
    tcase_add_test(tc, cta_round_robin);
    tcase_add_test(tc, clusters_on_one_gpc);
    tcase_add_test(tc, gt200_preset);
    tcase_add_test(tc, expansion_gt200_mul);
    tcase_add_test(tc, sfu_takes_multiplies);
    tcase_add_test(tc, full_pipeline_delay);
    tcase_add_test(tc, expansion_parts_occupy_units);
    tcase_add_test(tc, expansion_with_collectors);
    tcase_add_test(tc, fault_without_kernel_end);
    tcase_add_test(tc, deterministic);
    tcase_add_test(tc, running_ahead_changes_nothing);
    tcase_add_test(tc, split_memory_changes_nothing);
    tcase_add_test(tc, running_ahead_drops_later_faults);
    tcase_add_test(tc, child_grid_inside_a_step);
    tcase_add_test(tc, child_grid_beside_a_looked_at_sm);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(suite());
}
