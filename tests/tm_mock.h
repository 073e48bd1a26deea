/*
 * tests/tm_mock.h: a mock timing host for unit tests of timing models.
 *
 * A fake ptxemu_tm_host_api (<ptxemu/ptxemu_timing.h>) serving
 * hand-built instruction streams instead of the emulator: warp j of CTA c
 * runs program prog[j + cta_prog[c]] (cta_prog is 0 unless a test gives
 * a CTA programs of its own),
 * each a list of ptxemu_tm_insn with the accesses, async token, barrier
 * or fault its step reports; the last instruction of a program must be
 * an exit (PTXEMU_TM_I_EXIT).  The mock keeps the host's side of the
 * contract the way host.c does and asserts the model keeps its own:
 *  - cta_next hands CTAs out in order; cta_retire only of a live CTA
 *    whose warps all exited; peek/step only on live, ready warps;
 *  - bar.sync (MockOp.bar = 1): the warp waits until every warp of its
 *    CTA that has not exited arrived; the last arrival releases them and
 *    the event PTXEMU_TM_EV_BARRIER_RELEASE is sent from inside its
 *    step; MockOp.bar = 2 is a barrier that never releases; MockOp.bar =
 *    3 a grid-wide one (as barrier.cluster or a cooperative grid sync):
 *    released when every warp of the grid that has not exited arrived,
 *    with the event sent for the releasing warp's CTA only (as
 *    timing/host.c does);
 *  - spin loops (an mbarrier try_wait or a grid.sync poll and the
 *    branch back): MockOp.arrive = k adds 1 to counter k (1..
 *    MOCK_MAXCNT-1; as mbarrier.arrive or grid.sync's atomic does);
 *    MockOp.poll = k fails while counter k is below MockOp.need (the
 *    functional result of the poll); MockOp.loop, a branch, goes to
 *    op MockOp.to of the program after a failed poll, else on;
 *  - exits send PTXEMU_TM_EV_WARP_EXIT, then PTXEMU_TM_EV_CTA_DONE;
 *  - MockOp.child: the step launches the child grid (MockHost.ck, its
 *    CTAs' warps running programs child_prog + warp index) and times it
 *    to the end inside the step (a host may time dynamic parallelism
 *    so; ptxemu's times children after the parent): kernel_begin
 *    (start: the latest SM time), cycle until
 *    0, kernel_end; its end cycle lands in child_end;
 *  - set_time must not go back on an SM; the time of the warp's SM at
 *    each step is the instruction's issue cycle (MockWarp.issue[pc]),
 *    which is what %clock would read there;
 *  - parameters: a name read must be declared in ops->params or with
 *    declare_params (a component's table, kept by pointer); the value
 *    is the last "key=value" in MockHost.set, else the table default;
 *  - statistics are recorded by path (no path twice).
 */
#ifndef PTXEMU_TESTS_TM_MOCK_H
#define PTXEMU_TESTS_TM_MOCK_H

#include <stdint.h>

#include "timing/ptxemu_timing.h"

#define MOCK_MAXW 16    /* warps per CTA */
#define MOCK_MAXOPS 64  /* instructions per warp program */
#define MOCK_MAXCTA 64
#define MOCK_MAXSM 8
#define MOCK_MAXINSN 256
#define MOCK_MAXSET 48
#define MOCK_MAXSTAT 512
#define MOCK_MAXDECL 16  /* tables declared with declare_params (hier
                            declares one per cache) */
#define MOCK_MAXCNT 4    /* spin-loop counters (MockOp.arrive/poll) */
#define MOCK_NOSLOT UINT32_MAX

typedef struct MockOp {
    const ptxemu_tm_insn *insn;
    const ptxemu_tm_access *acc;
    uint32_t nacc;
    uint64_t token;   /* async token the step reports */
    const uint64_t *wait; /* tokens the step (a wait) lists */
    uint32_t nwait;
    int bar;          /* 1: bar.sync; 2: never released; 3: grid-wide */
    int fault;        /* the step returns PTXEMU_TM_FAULT */
    int child;        /* the step runs the child grid */
    uint32_t arrive;  /* counter it adds 1 to (0: none) */
    uint32_t poll, need; /* counter it polls (0: none), value it waits for */
    int loop;         /* a branch to op `to` after a failed poll */
    uint32_t to;
} MockOp;

struct ptxemu_tm_warp {
    struct ptxemu_tm_cta *cta;
    uint32_t idx, prog, pc;
    int state;
    int failed;       /* its last poll failed */
    uint64_t issue[MOCK_MAXOPS]; /* (in a loop: the last time round) */
};

struct ptxemu_tm_cta {
    uint32_t id, sm, nwarps, arrived, exited;
    int live, retired, done_sent;
    struct ptxemu_tm_warp w[MOCK_MAXW];
    struct ptxemu_tm_warp *wp[MOCK_MAXW];
};

typedef struct MockInsn {
    ptxemu_tm_insn in;
    uint32_t src[4], dst[4];
} MockInsn;

typedef struct MockStat {
    char path[64];
    const uint64_t *ctr;
} MockStat;

struct ptxemu_tm_host {
    ptxemu_tm_host_api api;
    ptxemu_tm_ops ops;
    void *tm;
    uint32_t nsms;
    uint64_t time[MOCK_MAXSM];
    uint64_t nset[MOCK_MAXSM];
    ptxemu_tm_kernel k;
    MockOp prog[MOCK_MAXW][MOCK_MAXOPS];
    uint32_t nops[MOCK_MAXW];
    uint32_t cta_prog[MOCK_MAXCTA];
    struct ptxemu_tm_cta cta[MOCK_MAXCTA];
    uint32_t next_cta, retired;
    uint32_t garrived;            /* at the grid-wide barrier */
    uint32_t count[MOCK_MAXCNT];  /* spin-loop counters */
    /* the child grid (MockOp.child) */
    ptxemu_tm_kernel ck;
    struct ptxemu_tm_cta ccta[4];
    uint32_t child_prog, cnext, cretired;
    int in_child;
    uint64_t child_end;
    MockInsn insn[MOCK_MAXINSN];
    uint32_t ninsn;
    const char *set[MOCK_MAXSET];
    uint32_t nsetkv;
    MockStat stat[MOCK_MAXSTAT];
    uint32_t nstat;
    const ptxemu_tm_param *decl[MOCK_MAXDECL];
    uint32_t ndecl[MOCK_MAXDECL], ndecls;
    char err[256];
    uint32_t nlog;
    double mhz;
    uint64_t ncycle_calls;
    /* ABI 5 (mock_ahead): the host looks every ahead_q cycles, next at
     * ahead_at; the SMs whose faults the model dropped; in a section */
    uint64_t ahead_q, ahead_at;
    uint32_t ndropped, dropped[MOCK_MAXSM];
    int in_section;
};
typedef struct ptxemu_tm_host MockHost;

/* A host with nsms SMs for the `simple` model; parameters for the
 * tests' baseline set (see tm_mock.c); then add overrides with mock_set
 * and programs. */
void mock_init(MockHost *m, uint32_t nsms);
/* A host with nsms SMs for the model `init` fills in, no overrides. */
void mock_init_model(MockHost *m, uint32_t nsms, ptxemu_tm_init_fn init);
void mock_set(MockHost *m, const char *kv);
/* The grid: nctas CTAs of nwarps full warps each. */
void mock_grid(MockHost *m, uint32_t nctas, uint32_t nwarps);
/* An instruction (src/dst MOCK_NOSLOT: none). */
const ptxemu_tm_insn *mock_insn(MockHost *m, unsigned unit, unsigned flags,
                                unsigned wait, unsigned space, uint32_t src,
                                uint32_t dst);
/* Append an instruction to warp w's program. */
MockOp *mock_op(MockHost *m, uint32_t w, const ptxemu_tm_insn *in);
/* Common shapes. */
MockOp *mock_add(MockHost *m, uint32_t w, uint32_t src, uint32_t dst);
MockOp *mock_exit(MockHost *m, uint32_t w);
/* n dependent INT adds (slot i reads slot i-1), then exit. */
void mock_chain(MockHost *m, uint32_t w, uint32_t n);

/* Create the model (NULL: it refused; m->err says why). */
/* Offer the model running ahead (ABI 5, with ABI 3's sections on one
 * thread): the host looks every q cycles on a fixed grid (q huge: at
 * most at the memory system's events); mock_run checks that no SM's
 * time passed the look. */
void mock_ahead(MockHost *m, uint64_t q);
void *mock_create(MockHost *m);
/* Time the grid on the created model: kernel_begin, cycle until 0,
 * kernel_end; returns the cycle() result that ended it (0, or negative)
 * and *cycles = end - start. */
int mock_run(MockHost *m, uint64_t *cycles);
/* Run the grid on the created model until cycle() stops it with a
 * fault, without kernel_end (as timing/host.c leaves a kernel after a
 * guest fault); the device time it stopped at. */
uint64_t mock_run_to_fault(MockHost *m);
/* Create, run, check it ended normally; the kernel's cycles. */
uint64_t mock_time(MockHost *m);
void mock_fini(MockHost *m);
/* A registered counter's value (fails the test if missing). */
uint64_t mock_stat(const MockHost *m, const char *path);

#endif
