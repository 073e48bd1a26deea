/*
 * timing/gpu/gpu.h: the `gpu` timing model's internal contract.
 *
 * A cycle-level SM pipeline after the three-loop model of Aamodt, Fung
 * and Rogers, "General-Purpose Graphics Processor Architectures" (2018,
 * ch. 3), written only against the plug-in ABI <ptxemu/ptxemu_timing.h>
 * and the memory-system contract gpu_mem.h.  Per SM:
 *  - fetch (fetch.c): per warp an I-buffer of `ibuf.depth` instructions
 *    filled by fetches of `fetch.bytes` bytes; instruction addresses are
 *    made from (function, pc): GPU_CODE_BASE + func_id * 2^24 +
 *    pc * fetch.insn_bytes.  A warp whose next instruction is not
 *    buffered (start, a taken branch, a call) refetches; with
 *    fetch.perfect_icache a fetch starts in a slot of its fetch port
 *    (one per SM, or per scheduler with fetch.port_per_sched;
 *    fetch.per_cycle starts a cycle, 0: no limit) and takes
 *    fetch.latency cycles, else it is a FETCH request to the memory
 *    system (one send per SM per cycle);
 *  - scoreboard (scoreboard.c): per warp, pending writes of register
 *    slots, each of a kind: fixed-latency (stall `wait`), variable
 *    short-latency (`short_scoreboard`: SFU, shared memory, lane
 *    exchange, FP64, tensor) or long-latency (`long_scoreboard`: results
 *    of the memory system, ready only when its reply comes);
 *  - warp schedulers (sched.c): `sched.per_sm` per SM, a warp belongs to
 *    (SM warp slot % N); each issues up to `issue.width` instructions a
 *    cycle, choosing by `sched.policy` (a table of policies by name:
 *    lrr, gto, oldest, two-level);
 *  - function units (units.c): per scheduler `unit.X.count` units of
 *    each class of ptxemu_tm_unit, each `unit.X.lanes` wide: a 32-thread
 *    warp instruction occupies a unit ceil(32 / lanes) * unit.X.ii
 *    cycles; its result is ready unit.X.lat cycles after issue (plus the
 *    operand-read latency); an instruction issues only when a unit of
 *    its class is free (`math_pipe_throttle`); an instruction ptxas
 *    expands (expand.h) issues its machine parts one by one, each in an
 *    issue slot once the previous part's result is ready and a unit of
 *    its class is free, occupying it;
 *  - load/store (lsu.c): shared-memory accesses take smem wavefronts
 *    (smem.h) through the SM's MIO pipe (`mio_throttle` when its backlog
 *    exceeds lsu.mio_queue cycles); global, local, constant and texture
 *    accesses are coalesced (coalesce.h) into GpuMemReq transactions in
 *    a per-SM queue of lsu.queue instructions (`lg_throttle` when full),
 *    sent lsu.txn_per_cycle a cycle with back-pressure; an instruction's
 *    results are ready when its last reply comes; with lsu.replay, a
 *    memory instruction issued while the queue is full is refused: it
 *    is not executed, stays in the I-buffer and may issue again
 *    lsu.replay cycles later (`lg_throttle` until then; gpu.replays);
 *  - asynchronous operations (async.c): an instruction that starts one
 *    (step->async_token) completes with its last memory reply (or after
 *    its unit latency when it has none; a math unit's, wgmma's, at the
 *    later of its unit latency and its shared-memory operand reads
 *    through the MIO pipe); the instruction after a wait
 *    that lists tokens (step->wait_tokens) issues once they completed;
 *  - barriers: a released warp issues bar.latency cycles after the
 *    release; a fence issues once its warp's earlier memory requests are
 *    answered (`membar`), the next instruction fence.latency later;
 *  - CTA dispatch (cta.c): occupancy by threads, warps, registers,
 *    shared memory and CTA slots with allocation granularities
 *    (timing/lib/occupancy.h), round-robin placement after a launch
 *    latency, a cluster's CTAs together on the SMs of one GPC
 *    (gpc.sms SMs each);
 *  - %clock: set_time(sm, t - t % clock.divider) (GT200's clock register
 *    counts at half the shader clock: Wong et al., ISPASS 2010).
 * The loop (gpu.c) skips work: a scheduler whose warps cannot issue
 * before a known cycle is not looked at until then, an SM without CTAs
 * is not visited, and when nothing can happen time jumps to the next
 * cycle at which something can (a warp ready, a memory reply, a CTA
 * retiring).  Deterministic: no decision depends on host addresses or
 * wall time.
 *
 * Host threads (gpu.c's "Parallel stepping", par.c; the host grants
 * them through ABI 3).  A cycle's memory-system part (sends, replies,
 * placement, retirement) stays on the calling thread, in SM order, but
 * for a memory system split by SM, whose sends and replies each SM
 * makes and takes itself (gpu.c).  The
 * SMs' collectors and schedulers then run on the host threads, each SM
 * on one, touching only what is its own: the GpuSm (its counters in
 * GpuSmStat, scoreboard tags, LSU ops, scratch, expansion cache,
 * collector records), its CTAs and warps.  A scheduler about to issue
 * what gpu_issue_shared says other SMs may see (the host's
 * PTXEMU_TM_I_SHARED, but for plain global loads and stores when they
 * are buffered: Gpu.buffered) stops there (GpuHeld); afterwards, on the calling
 * thread and in SM order, a phase-1 failure stops the kernel and every
 * held SM issues that instruction and finishes its cycle; the SMs'
 * counts are folded in SM order.  Cycles, statistics and results are
 * one thread's at any thread count; which thread steps an SM, and
 * whether a cycle fans out at all (par.adapt), change no result.
 *
 * Statistics (gpu.c): gpu.cycles, gpu.issued (PTX warp instructions),
 * gpu.thread_insns, gpu.ctas, gpu.sm<N>.{issued,cycles,warps_resident}
 * and gpu.stall.<reason> per scheduler cycle (GpuStall; `selected`: it
 * issued, the later parts of an expanded instruction too); selected +
 * every stall = cycles x SMs x sched.per_sm.  gpu.not_selected: warp
 * cycles in which a warp could issue but its scheduler issued others
 * (Nsight's `not_selected`; per warp, so outside that sum).
 */
#ifndef PTXEMU_TIMING_GPU_GPU_H
#define PTXEMU_TIMING_GPU_GPU_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "timing/gpu/coalesce.h"
#include "timing/gpu/expand.h"
#include "timing/gpu/gpu_mem.h"
#include "timing/gpu/opcoll.h"
#include "timing/gpu/smem.h"
#include "timing/lib/kernel.h"
#include "timing/lib/map.h"
#include "timing/lib/occupancy.h"
#include "timing/lib/slots.h"
#include "timing/ptxemu_timing.h"

#define GPU_WARP_SIZE 32u
#define GPU_CODE_BASE 0x7f0000000000ull /* instruction addresses */
#define GPU_LOCAL_BASE 0x7e0000000000ull /* local memory, per warp */
#define GPU_LB_LG (GPU_NEVER - 1) /* GpuLb.ex: waits for LSU room */

/* Why a scheduler issued nothing in a cycle; named as NVIDIA Nsight
 * Compute names warp states where one matches.  On a tie between
 * constraints of one warp the first in this order names the stall. */
typedef enum GpuStall {
    GPU_ST_SELECTED = 0,    /* not a stall: the scheduler issued */
    GPU_ST_BARRIER,         /* at a CTA/cluster barrier, or its latency */
    GPU_ST_MEMBAR,          /* a fence waits for earlier memory */
    GPU_ST_ASYNC,           /* waits for asynchronous operations */
    GPU_ST_SLEEPING,        /* nanosleep */
    GPU_ST_NO_INSTRUCTION,  /* the next instruction is not fetched */
    GPU_ST_BRANCH,          /* branch_resolving */
    GPU_ST_LONG_SB,         /* a memory-system result */
    GPU_ST_SHORT_SB,        /* an MIO / variable-latency result */
    GPU_ST_WAIT,            /* a fixed-latency result */
    GPU_ST_MATH,            /* math_pipe_throttle: the unit is busy */
    GPU_ST_MIO,             /* mio_throttle: shared-memory pipe backlog */
    GPU_ST_LG,              /* lg_throttle: the LSU queue is full */
    GPU_ST_DISPATCH,        /* dispatch_stall: no free collector unit */
    GPU_ST_IDLE,            /* no live warp on the scheduler */
    GPU_ST_COUNT
} GpuStall;

extern const char *const gpu_stall_name[GPU_ST_COUNT];

/* ---- config.c ---- */
struct GpuPolicy;

typedef struct GpuUnitCfg {
    uint64_t count, lanes, lat, ii;
} GpuUnitCfg;

typedef struct GpuConfig {
    const char *arch;
    int expand_arch;            /* expand.h's, -1: no expansion */
    uint64_t sched_per_sm, issue_width, pool;
    const struct GpuPolicy *policy;
    uint64_t ibuf_depth, fetch_bytes, insn_bytes, fetch_latency;
    uint64_t fetch_per_cycle, fetch_port_per_sched;
    bool perfect_icache;
    bool par_adapt;             /* par.c: fan out only when faster */
    bool par_split;             /* use a memory system's split (gpu.c) */
    uint64_t branch_latency, bar_latency, fence_latency, oc_latency;
    GpuUnitCfg unit[PTXEMU_TM_UNIT_COUNT];
    uint64_t sfu_mul_ii;        /* GT200: FP32 multiplies on the SFUs */
    uint64_t full_delay;        /* unit.full_delay (units.c) */
    uint64_t lsu_queue, lsu_txn_per_cycle, mio_queue, lsu_replay;
    uint64_t smem_latency, dsmem_latency;
    GpuBanks banks;
    GpuCoalesceRule coalesce;
    GpuOcConfig oc;             /* operand collection (oc.enabled) */
    TmOccLimits occ;
    uint64_t launch_latency, gpc_sms, clock_div;
    double clock_mhz;
    const GpuMemOps *mem;
} GpuConfig;

extern const ptxemu_tm_param gpu_params[];
extern const uint32_t gpu_nparams;
/* Read every parameter (the gpu.arch preset for those left at -1 / "");
 * 0, or -1 after api->error(). */
int gpu_config_read(GpuConfig *c, const ptxemu_tm_host_api *api,
                    ptxemu_tm_host *h);

/* ---- scoreboard.c: pending register writes of one warp ---- */
typedef enum GpuSbKind {
    GPU_SB_FIXED = 0,   /* stall reason `wait` */
    GPU_SB_SHORT,       /* `short_scoreboard` */
    GPU_SB_LONG,        /* `long_scoreboard` */
} GpuSbKind;

typedef struct GpuSbEntry {
    uint32_t slot;
    uint8_t kind;       /* GpuSbKind */
    uint64_t ready;     /* GPU_NEVER: until its reply (tag) */
    uint64_t tag;
} GpuSbEntry;

typedef struct GpuSb {
    GpuSbEntry *e;
    uint32_t n, cap;
    /* gpu_sb_ready_insn's last answer, for `ckey` (NULL: none): a warp
     * asks about the same instruction every cycle until it issues, and
     * the answer changes only when the entries do. */
    const ptxemu_tm_insn *ckey;
    uint64_t cready;
    uint8_t ckind;
} GpuSb;

void gpu_sb_free(GpuSb *sb);
/* The cycle from which none of the slots has a pending write, and the
 * kind of the entry that decides it. */
uint64_t gpu_sb_ready(const GpuSb *sb, const uint32_t *slots, uint32_t n,
                      GpuSbKind *kind);
/* gpu_sb_ready over an instruction's sources and destinations (RAW and
 * WAW), the later of the two deciding (the sources' on a tie); cached
 * until the entries change or gpu_sb_forget. */
uint64_t gpu_sb_ready_insn(GpuSb *sb, const ptxemu_tm_insn *in,
                           GpuSbKind *kind);
/* The warp's next instruction changed: drop the cached answer. */
static inline void gpu_sb_forget(GpuSb *sb)
{
    sb->ckey = NULL;
}
/* Slots will be written at `ready` (GPU_NEVER: when `tag` completes);
 * entries done by `now` are dropped.  0, or -1 when out of memory. */
int gpu_sb_write(GpuSb *sb, const uint32_t *slots, uint32_t n, uint64_t ready,
                 GpuSbKind kind, uint64_t tag, uint64_t now);
/* The writes waiting for `tag` are done at `cycle`. */
void gpu_sb_release(GpuSb *sb, uint64_t tag, uint64_t cycle);
/* The last known write (GPU_NEVER while one waits for a reply). */
uint64_t gpu_sb_drain(const GpuSb *sb);

/* ---- model state ---- */
struct GpuCta;
struct Gpu;

/* A warp's I-buffer: instructions [lo, hi) are fetched and decoded; a
 * fetch of [plo, phi) arrives at `at` (perfect I-cache) or with its
 * reply (memory: at = GPU_NEVER while in flight). */
typedef struct GpuIbuf {
    uint64_t lo, hi;
    uint64_t plo, phi, at;
    bool pending;       /* a fetch is on its way */
    bool want;          /* memory: not sent yet (refused or queued) */
    bool inflight;      /* memory: a request is out (one at a time) */
    uint32_t gen;       /* the current fetch */
    uint32_t sent_gen;  /* the one in flight (an older one is dropped) */
} GpuIbuf;

typedef struct GpuWarp {
    /* first, on one cache line: what a scheduler reads of every
     * candidate each cycle (sched.c's scan and eligible) */
    struct GpuCta *cta;
    const GpuExpand *xp;        /* expanded instruction's parts (below);
                                   NULL: none */
    uint64_t xnext;             /* its next part may issue from
                                   (GPU_NEVER: the first, until its
                                   operands are read) */
    uint64_t not_before;        /* released, branch resolved ... */
    bool peeked, at_barrier, exited;
    bool pooled;                /* two-level: in the active pool */
    uint8_t nb_why;             /* GpuStall of not_before */
    /* The warp's own constraints on its issue cycle (sched.c: all but
     * the scheduler's units, the MIO pipe, the LSU queue and the
     * collectors), kept while own_ok and the cycle is before own_quiet
     * (a fetch due then changes the I-buffer): a blocked warp is not
     * worked out again each cycle.  gpu_warp_touch drops it on every
     * change of what it reads. */
    bool own_ok, own_fin;       /* own_fin: own_t is the whole answer */
    uint8_t own_why;
    uint64_t own_t, own_quiet;
    struct GpuLb *lbp;          /* its entry of its scheduler's lb */
    ptxemu_tm_warp *h;
    uint64_t age;               /* placement order: oldest first */
    uint32_t slot;              /* SM warp slot */
    const ptxemu_tm_insn *next; /* cached peek; NULL: blocked or exited */
    uint32_t exec;
    uint64_t pool_seq;          /* two-level: FIFO order of the rest */
    GpuSb sb;
    GpuIbuf ib;
    uint32_t waits;             /* async tokens waited for, not done */
    uint32_t mem_out;           /* synchronous memory instructions out */
    uint32_t oc_out;            /* instructions collecting operands */
    uint32_t async_out;         /* asynchronous ones */
    uint64_t drain;             /* last known completion */
    uint32_t nostep;
    const GpuExpand *nexp;      /* the expansion of next (NULL: none) */
    uint8_t unit0;              /* the unit class next (or its first
                                   part) issues to */
    bool sfumul;                /* next may issue to the SFUs too */
    /* an expanded instruction's machine parts being issued (units.c;
     * xp and xnext above) */
    const ptxemu_tm_insn *xin;
    uint32_t xk;                /* the next part */
    uint64_t xtag;              /* scoreboard tag of the results */
} GpuWarp;

typedef struct GpuCta {
    ptxemu_tm_cta *h;
    TmKern *kern;
    struct GpuCta *next;        /* on its SM */
    struct GpuSm *smp;          /* that SM */
    uint32_t sm, nwarps, nexited;
    uint64_t last_exit;
    uint64_t retire;            /* gpu_cta_retire_at's answer, while */
    bool retire_ok;             /* no warp of it was touched */
    TmOccUse use;
    GpuWarp *w;
} GpuCta;

/* A fetch port: the latest cycle it started fetches in, and how many. */
typedef struct GpuFetchPort {
    uint64_t cycle;
    uint64_t used;
} GpuFetchPort;

/* A warp's entry in its scheduler's lb array (sched.c). */
typedef struct GpuLb {
    uint64_t lb;                /* it cannot issue before (0: unknown) */
    uint64_t ex;                /* its issue cycle, exactly, while gen is
                                   the scheduler's sgen (GPU_NEVER:
                                   unknown), or GPU_LB_LG: never
                                   (lg_throttle) while gen is the SM's
                                   qgen */
    uint64_t gen;
} GpuLb;

/* A scheduler's cycle stopped before issuing an instruction whose
 * functional effect other SMs may see (gpu.c's phase 1), resumed there
 * in phase 2. */
typedef struct GpuHeld {
    struct GpuWarp *pick, *first;
    uint64_t slot, others;
    uint32_t issued;
    bool on;
} GpuHeld;

typedef struct GpuSched {
    uint32_t idx;
    GpuHeld held;
    GpuFetchPort fport;         /* fetch.port_per_sched */
    /* per unit i of a class of n: [i] the cycle it is free from;
     * [n + i] the cycle its current run of back-to-back issues began */
    uint64_t *ufree[PTXEMU_TM_UNIT_COUNT];
    uint64_t umin[PTXEMU_TM_UNIT_COUNT]; /* per class: the least ufree
                                   (the first of its units to free) */
    GpuWarp **w;                /* its warps, oldest first */
    /* lb[i].lb: w[i] cannot issue before this cycle, and working it
     * out before then changes nothing (the lesser of own_t and
     * own_quiet; 0: not known); lb[i].ex: the cycle it can issue,
     * while its units, the SM's MIO pipe and LSU queue are as they
     * were (gen == this sgen): the scheduler passes over it, or counts
     * it eligible, without reading the warp (host caches hold these
     * arrays, not every warp). */
    GpuLb *lb;
    uint64_t sgen;              /* bumped when what lb[].ex read changed */
    uint32_t nw, capw;
    uint64_t last_age;          /* the warp it issued last (lrr, gto) */
    bool has_last;
    struct GpuWarp *last_w;     /* that warp while it is in w (gto) */
    uint64_t wake;              /* nothing can issue before (0: look) */
    uint8_t why;
    uint32_t *order;            /* candidates (indices into w) in policy
                                   order; kept while order_ok (not for
                                   two-level, whose pool moves): cleared
                                   when w or the warp issued last
                                   changes */
    uint32_t order_n;
    bool order_ok;
    GpuOc *oc;                  /* operand collectors (NULL: off) */
} GpuSched;

/* An instruction's accesses queued at the LSU, then in the memory
 * system (cookie: its address).  Freed when its last reply came. */
typedef struct GpuLsuOp {
    struct GpuLsuOp *next;      /* queue, then the in-flight list */
    struct GpuLsuOp *prev_all, *next_all; /* its SM's ops_all */
    struct GpuSm *sm;
    GpuWarp *w;                 /* NULL: its kernel was dropped */
    GpuMemReq *req;
    uint32_t nreq, nsent, pending, cap;
    uint64_t tag;               /* scoreboard tag (0: no results) */
    uint64_t token;             /* async token (0: none) */
    uint64_t done;              /* latest reply so far (and shared part) */
    uint64_t extra;             /* constant-cache passes beyond one */
    uint64_t hold;              /* not sent before its operands are read
                                   (the collecting instruction's tag) */
    bool queued;                /* still in its SM's queue */
} GpuLsuOp;

/* The model's counters an SM's cycle adds to: per SM, so that SMs step
 * in parallel; folded into Gpu's st_* in SM order after each cycle. */
typedef struct GpuSmStat {
    uint64_t issued, thread_insns, replays, not_selected, txn, wavefronts,
        fetches, oc_reads, oc_conflicts, parts;
} GpuSmStat;

typedef struct GpuSm {
    uint32_t id;
    GpuCta *ctas;
    uint32_t ndone;             /* CTAs whose warps all exited: only
                                   they can retire (cta.c) */
    GpuCta **done;              /* those CTAs, in no order, so that the
                                   least retirement cycle reads only them
                                   (room for every CTA on the SM, made
                                   when one is placed) */
    uint32_t capdone;
    /* Nothing on the SM can act before this cycle (gpu.c: the least of
     * its schedulers' wakes, collectors and CTA retirements after its
     * last visit; 0: visit it): a sleeping SM is counted, not visited.
     * Any poke of its schedulers and any gpu_warp_touch clear it. */
    uint64_t look;
    uint64_t retire_min;        /* the least retirement cycle of its */
    bool retire_ok;             /* CTAs, while no warp was touched */
    TmOccUse used;
    TmSlots slots;              /* warp slots (GpuWarp *) */
    GpuSched *sched;
    uint32_t nsched;
    /* LSU */
    GpuLsuOp *qhead, *qtail;    /* not fully sent, in order */
    uint32_t qlen;
    /* Bumped when the queue may have room again (a pop, a CTA, a
     * launch): what an lb entry saying lg_throttle (GPU_LB_LG) read;
     * an issue on a unit or the MIO pipe leaves that answer as it is */
    uint64_t qgen;
    /* The memory system called the refusal of qhead's next request
     * sticky (gpu_mem.h): it is not offered again, but each cycle in
     * which it would have been is reported (refused_again), until
     * GPU_MEM_RETRY. */
    bool lsu_sleep;
    uint64_t mio_free;          /* shared-memory pipe free from */
    GpuFetchPort fport;         /* perfect I-cache, one port per SM */
    /* memory-backed fetch: warps waiting to send, in order */
    GpuWarp **fq;
    uint32_t nfq, capfq;
    /* statistics */
    uint64_t issued, cycles, warps_resident;
    /* Kept lazily (gpu_sm_settle): cycles and warps_resident hold the
     * cycles before acct_t; a sleeping LSU's refusals (refused_again)
     * are reported up to rf_from */
    uint64_t acct_t, rf_from;
    uint64_t visit_t;           /* the cycle of its last visit */
    /* What its cycle changes that was the model's (gpu.c: an SM's
     * phase 1 touches only its own): counters, scoreboard tags, ops
     * made, scratch, the expansion cache, records in its collectors,
     * two-level demotions (their order numbers: pool_base + k). */
    GpuSmStat st;
    uint64_t next_tag, hold_tag;
    uint64_t pool_n;
    struct GpuLsuOp *ops_all;       /* every live GpuLsuOp of it */
    GpuTxn *txn;                    /* coalescer scratch */
    size_t txncap;
    ptxemu_tm_access *acc;          /* access scratch */
    size_t acccap;
    TmMap expand;                   /* insn -> its GpuExpand (or none) */
    struct GpuOcRec *oc_recs;       /* instructions in its collectors */
    /* its cycle (gpu.c): stall counts (cnt: cnt_own, folded after
     * the cycle in SM order, or with one host thread the cycle's own
     * counts, which it then adds to directly), the earliest next
     * event, busy, a scheduler held for phase 2 (hk), a phase-1
     * failure */
    uint64_t *cnt;
    uint64_t cnt_own[GPU_ST_COUNT];
    uint64_t next;
    bool busy, defer, held;
    /* Running ahead (ahead.c): its cycles before `ahead` are done and
     * counted (in ra_cnt until gpu.c folds them); pend: it stopped in
     * its cycle `ahead` before a step flagged PTXEMU_TM_I_SHARED
     * (held) or on a failure (rc), which phase 2 of that cycle takes
     * up in SM order. */
    uint64_t ahead;
    bool pend;
    uint32_t owner;             /* par.c: the thread of its last phase 1 */
    uint64_t ra_cnt[GPU_ST_COUNT];
    /* What the SM adds to Gpu.rest (gpu.c: GPU_REST_*) */
    uint8_t rest;
    uint32_t hk;
    int rc;
    /* the message of its cycle's failure (a static string): a step may
     * fail on a helper thread, where the host's error() must not be
     * called; gpu.c reports the first failing SM's, in SM order */
    const char *err;
} GpuSm;

/* One kernel being timed (nesting of child grids: timing/lib/kernel.h). */
typedef TmKern GpuKernel;

typedef struct GpuToken {
    uint64_t done;              /* GPU_NEVER: not yet */
    GpuWarp **waiter;
    uint32_t nwaiter, cap;
} GpuToken;

typedef struct Gpu {
    const ptxemu_tm_host_api *api;
    ptxemu_tm_host *h;
    GpuConfig c;
    GpuSm **sm;
    uint32_t nsms, smcap, active_sms;
    TmMap warps;                /* ptxemu_tm_warp* -> GpuWarp* */
    TmMap fetching;             /* GpuWarp* with a fetch in flight */
    TmMap tokens;               /* async token -> GpuToken* (under
                                   tokens_mu: with a split memory system
                                   replies complete them in phase 1) */
    pthread_mutex_t tokens_mu;
    bool split_ok;              /* the memory system is split by SM
                                   (gpu_mem.h) and may be used so */
    bool split;                 /* this kernel uses it so: each SM's
                                   replies and sends in its own visits */
    void *mem;                  /* the memory system */
    GpuKernel *kern;
    TmOccLimits occ_k;          /* c.occ with the shared memory per SM
                                   that the memory system's carve-out
                                   leaves the kernel (reset_sms) */
    bool place_full;            /* the last placement found no room, and
                                   no CTA left an SM since (cta.c) */
    uint64_t next_age;
    uint64_t pool_base;         /* next_age when the cycle's SMs ran */
    bool in_cycle;              /* inside cycle(): a kernel_begin now is
                                   a child grid's */
    /* The running cycle's stall counts and how many SMs it has looked
     * at (sm_visit): what a child grid timed inside one of its steps
     * leaves as it was (gpu.c, rest_nest) */
    uint64_t *cyc_cnt;
    uint32_t cyc_seen;
    struct GpuPar *par;         /* host threads stepping SMs (par.c) */
    GpuSm **run;                /* the cycle's SMs with CTAs */
    /* The cycle's horizon (ahead.c): an SM visited may run its cycles
     * up to it (exclusive); <= the cycle + 1: none runs ahead */
    uint64_t horizon;
    uint64_t until;             /* ... and for an SM with nothing in the
                                   memory system: the host's look */
    bool ahead_on;              /* the host lets SMs run ahead (ABI 5) */
    bool buffered;              /* plain global steps are buffered in
                                   sections (with a split memory
                                   system): every SM steps in one (ABI
                                   6, gpu.c's top) */
    uint32_t threads;           /* for this kernel (1: no phases) */
    /* statistics */
    uint64_t st_cycles, st_issued, st_thread_insns, st_ctas, st_kernels;
    uint64_t st_stall[GPU_ST_COUNT];
    /* The stall reasons each cycle of the SMs not visited (idle, or
     * every scheduler asleep), summed: their counts change only when
     * such an SM is visited or gains or loses its CTAs (gpu.c) */
    uint64_t rest[GPU_ST_COUNT];
    uint64_t st_txn, st_wavefronts, st_fetches;
    uint64_t st_oc_reads, st_oc_conflicts, st_parts;
    uint64_t st_not_selected;   /* warps eligible, another issued */
    uint64_t st_replays;        /* memory instructions refused, replayed */
} Gpu;

/* ---- policies (sched.c) ---- */
typedef struct GpuPolicy {
    const char *name;
    const char *help;
    /* The scheduler's candidate warps (indices into sc->w), in the
     * order it tries them. */
    uint32_t (*order)(Gpu *g, GpuSched *sc, uint32_t *out);
    /* Its warps leaving the pool take order numbers from the count the
     * warps placed take their ages from (Gpu.next_age): an SM running
     * ahead would number them before CTAs placed in earlier cycles, so
     * no SM runs ahead (ahead.c) under it. */
    bool numbers;
} GpuPolicy;
extern const GpuPolicy gpu_policies[];
const GpuPolicy *gpu_policy_find(const char *name);

/* ---- units.c ---- */
unsigned gpu_unit(const ptxemu_tm_insn *insn);
/* The expansion of insn on expand.arch (expand.h), NULL when it is one
 * machine instruction (or none); cached per static instruction. */
const GpuExpand *gpu_unit_expansion(const Gpu *g, GpuSm *sm,
                                    const ptxemu_tm_insn *insn);
/* w's next instruction changed: the unit classes it may issue to
 * (w->unit0, w->sfumul). */
void gpu_unit_classify(const Gpu *g, GpuWarp *w);
/* The earliest cycle a unit is free on sc for what w issues next: the
 * next part of its expanded instruction, else the first part of its next
 * instruction's expansion, else a unit of that instruction's class
 * (inline: asked for every candidate warp). */
static inline uint64_t gpu_unit_free(const GpuSched *sc, const GpuWarp *w)
{
    if (w->xp) {
        return sc->umin[w->xp->part[w->xk].unit];
    }
    const uint64_t t = sc->umin[w->unit0];
    const uint64_t s = sc->umin[PTXEMU_TM_UNIT_SFU];
    return w->sfumul && s < t ? s : t;
}
/* The scoreboard kind of its results. */
GpuSbKind gpu_unit_kind(const ptxemu_tm_insn *insn);
/* A one-part instruction occupies a unit of its class from now; the
 * cycle its result is ready (unit.full_delay later when that unit's
 * pipeline was full). */
uint64_t gpu_unit_issue(Gpu *g, GpuSched *sc, const ptxemu_tm_insn *insn,
                        uint64_t now);
/* An instruction ptxas expands into several machine instructions
 * (expand.h): w issues its parts from now on with gpu_unit_part, one per
 * issue slot, nothing else meanwhile; after the last, the scoreboard
 * entries of `tag` (0: none) are released at its result. */
void gpu_unit_expand(Gpu *g, GpuWarp *w, const ptxemu_tm_insn *insn,
                     const GpuExpand *e, uint64_t tag);
/* w issues the next part of its expanded instruction at now. */
void gpu_unit_part(Gpu *g, GpuSched *sc, GpuWarp *w, uint64_t now);

/* ---- fetch.c ---- */
uint64_t gpu_insn_addr(const GpuConfig *c, const ptxemu_tm_insn *in);
/* The cycle w's next instruction is (or will be) in its I-buffer;
 * GPU_NEVER while a memory fetch is outstanding.  May start a fetch. */
uint64_t gpu_fetch_ready(Gpu *g, GpuWarp *w, uint64_t now);
/* w issued its next instruction at now: take it out of the I-buffer and
 * prefetch when there is room. */
void gpu_fetch_issued(Gpu *g, GpuWarp *w, uint64_t now);
/* Memory-backed fetch: send the SM's queued fetches (one a cycle);
 * whether some are still queued. */
bool gpu_fetch_send(Gpu *g, GpuSm *sm, uint64_t now);
/* A fetch reply (cookie from fetch.c). */
void gpu_fetch_reply(Gpu *g, GpuWarp *w, uint64_t cycle);

/* ---- lsu.c ---- */
/* Whether an instruction needs room in the LSU queue or the MIO pipe
 * (decided from static info before issue; inline: the schedulers ask
 * for every candidate). */
#define GPU_LSU_MEM_FLAGS                                                      \
    (PTXEMU_TM_I_LOAD | PTXEMU_TM_I_STORE | PTXEMU_TM_I_ATOMIC |               \
     PTXEMU_TM_I_ASYNC)
static inline bool gpu_lsu_mio_space(unsigned sp)
{
    return sp == PTXEMU_TM_SPACE_SHARED || sp == PTXEMU_TM_SPACE_SHARED_CLUSTER;
}
static inline bool gpu_lsu_needs_queue(const ptxemu_tm_insn *in)
{
    return (in->flags & GPU_LSU_MEM_FLAGS) && !gpu_lsu_mio_space(in->space);
}
static inline bool gpu_lsu_needs_mio(const ptxemu_tm_insn *in)
{
    return (in->flags & GPU_LSU_MEM_FLAGS) &&
           (in->space == PTXEMU_TM_SPACE_NONE || gpu_lsu_mio_space(in->space));
}
/* Time the accesses of an issued step; *ready / *kind: when its
 * results are ready (GPU_NEVER: with tag's replies).  0, or -1 when out
 * of memory. */
int gpu_lsu_issue(Gpu *g, GpuSm *sm, GpuWarp *w, const ptxemu_tm_step *st,
                  uint64_t now, uint64_t *ready, GpuSbKind *kind,
                  uint64_t *tag);
/* Send queued transactions for cycle now; whether some are left. */
bool gpu_lsu_cycle(Gpu *g, GpuSm *sm, uint64_t now);
/* The memory system's reply callback (GpuMemDone). */
void gpu_mem_done(void *ctx, uint32_t sm, uint64_t cookie, uint64_t cycle);
/* Detach in-flight ops from their warps (a kernel stopped early): those
 * of the current kernel, or all. */
void gpu_lsu_orphan(Gpu *g, bool all);
void gpu_lsu_free_all(Gpu *g);

/* ---- async.c ---- */
/* Token `token` completes at `done` (GPU_NEVER: later, by
 * gpu_token_done).  0, or -1 when out of memory. */
int gpu_token_start(Gpu *g, uint64_t token, uint64_t done);
void gpu_token_done(Gpu *g, uint64_t token, uint64_t cycle);
/* w waits for the tokens of its wait instruction issued at now. */
int gpu_token_wait(Gpu *g, GpuWarp *w, const uint64_t *tok, uint32_t n,
                   uint64_t now);
void gpu_tokens_clear(Gpu *g);

/* ---- cta.c ---- */
GpuSm *gpu_sm_new(const GpuConfig *c, uint32_t id);
void gpu_sm_free(GpuSm *sm);
/* Place as many of the kernel's CTAs as fit (round robin, clusters on
 * one GPC).  0, or a host's negative result. */
int gpu_cta_place_all(Gpu *g);
/* The cycle a CTA may retire (GPU_NEVER: it runs, or waits for a
 * reply); kept until a warp of it is touched. */
uint64_t gpu_cta_retire_at(GpuCta *c);
/* The least of that over sm's CTAs of the current kernel; kept until a
 * warp of the SM is touched or its CTAs change. */
uint64_t gpu_sm_retire_at(const Gpu *g, GpuSm *sm);
/* Retire the current kernel's CTAs on sm finished and drained by now;
 * drop: forget all of them without retiring (a kernel stopped early:
 * the host frees its own). */
void gpu_sm_retire(Gpu *g, GpuSm *sm, uint64_t now, bool drop);
/* Forget every CTA on sm, of any kernel (kernels the host abandoned). */
void gpu_sm_drop_all(Gpu *g, GpuSm *sm);
/* Every warp of c (on sm) exited: it may retire once drained. */
void gpu_sm_cta_done(GpuSm *sm, GpuCta *c);

/* ---- gpu.c ---- */
/* Bring sm's per-cycle counters up to cycle t (each cycle before t
 * counted once): its cycles and resident warps while it holds CTAs,
 * and an LSU asleep on a sticky refusal reports the offer it would
 * have made each cycle.  Called before what they depend on changes (its
 * CTAs, the LSU's sleep) and before the host reads them. */
void gpu_sm_settle(Gpu *g, GpuSm *sm, uint64_t t);
/* Only the LSU's part. */
void gpu_lsu_settle(Gpu *g, GpuSm *sm, uint64_t t);

/* ---- sched.c ---- */
GpuSched *gpu_sched_of(const Gpu *g, const GpuWarp *w);
void gpu_poke(const Gpu *g, const GpuWarp *w);
void gpu_poke_sm(const Gpu *g, uint32_t sm);
/* The SM's MIO pipe, LSU queue or CTAs changed: every lb[].ex of its
 * schedulers is forgotten. */
void gpu_sm_changed(GpuSm *sm);
void gpu_poke_all(Gpu *g);
void gpu_warp_exited(Gpu *g, GpuWarp *w, uint64_t now);
void gpu_warp_refresh(Gpu *g, GpuWarp *w, uint64_t now);
/* The earliest cycle w can issue and why not before. */
uint64_t gpu_warp_ready(Gpu *g, GpuSm *sm, GpuSched *sc, GpuWarp *w,
                        uint64_t now, GpuStall *why);
/* Run scheduler k of sm for cycle now: *issued instructions; else *why;
 * *wake: the earliest cycle one of its warps could issue.  With
 * sm->defer (phase 1, gpu.c), 1 when it stopped before issuing what
 * gpu_issue_shared says (sc->held): called again for the same cycle, it
 * issues that and goes on. */
int gpu_sched_cycle(Gpu *g, GpuSm *sm, uint32_t k, uint64_t now,
                    uint32_t *issued, GpuStall *why, uint64_t *wake);

/* ---- collect.c: operand collection (opcoll.h), when oc.enabled ---- */
/* An instruction of w issued at now takes a collector of sc; its
 * results become ready (tag) and its unit busy when its operands are
 * read.  The tag, or 0 when out of memory. */
uint64_t gpu_collect_take(Gpu *g, GpuSched *sc, GpuWarp *w,
                          const ptxemu_tm_insn *in, uint64_t now);
/* Run sc's collectors for cycle now and dispatch what they read. */
void gpu_collect_cycle(Gpu *g, GpuSm *sm, GpuSched *sc, uint64_t now);
/* Every collector empty (a new launch); 0, or -1 when out of memory. */
int gpu_collect_reset(Gpu *g);

/* ---- gpu.c ---- */
/* Step 6 of a cycle for sm (gpu.c's top): 0; 1 when a scheduler is
 * held (sm->defer), called again in phase 2 to finish; negative: the
 * kernel stops (also kept in sm->rc).  Results in sm->cnt, next,
 * busy. */
int gpu_sm_run(Gpu *g, GpuSm *sm, uint64_t t);

/* Add to cnt what sm counts in d cycles it is not visited with CTAs:
 * each scheduler its reason (Gpu.rest's rule, gpu.c). */
void gpu_sm_count_asleep(uint64_t *cnt, const GpuSm *sm, uint64_t d);
/* What a visit of sm at cycle t begins with (step 5 but the sends):
 * the SM's %clock, its visit cycle, its look cleared for the visit. */
void gpu_sm_visit_begin(Gpu *g, GpuSm *sm, uint64_t t);

/* ---- ahead.c: running an SM ahead of the others ---- */
/* Phase 1 for sm, visited at t (par.c, on any thread): with
 * g->horizon > t + 1 and nothing of the SM's own waiting for the
 * calling thread (a queue, a CTA to retire), its cycles from t on
 * until something outside it may reach it, sm->ahead and sm->ra_cnt
 * set; else gpu_sm_run for t alone (sm->ahead 0). */
void gpu_sm_phase1(Gpu *g, GpuSm *sm, uint64_t t);
/* How far sm may run ahead (exclusive) in this cycle's phase 1. */
uint64_t gpu_sm_horizon(const Gpu *g, const GpuSm *sm);
/* Whether sm, asleep until sm->look > t with nothing queued, may start
 * running ahead at sm->look in this cycle's phase 1. */
bool gpu_sm_may_wake(const Gpu *g, const GpuSm *sm, uint64_t t);

/* ---- par.c: host threads for phase 1 ---- */
/* gpu_sm_phase1 for each of list[0..n) with defer set, inside the
 * host's parallel section, spread over g->threads host threads (the
 * calling thread one of them) when fan, else on the calling thread;
 * returns when all have. */
void gpu_par_phase1(Gpu *g, GpuSm **list, uint32_t n, uint64_t t,
                    bool fan);
/* Whether this cycle's step 6 should fan out (measured: par.c), and
 * that it is over, having visited n SMs. */
bool gpu_par_want(Gpu *g);
void gpu_par_took(Gpu *g, uint32_t n);
void gpu_par_free(struct GpuPar *p);
/* Release the warps the host released from a barrier without telling
 * (those of other CTAs, at a cluster or grid barrier). */
void gpu_recheck_barriers(Gpu *g, uint64_t now);

/* ---- issue.c ---- */
/* Step w (selected by sc at now) and account what it did. */
int gpu_issue(Gpu *g, GpuSm *sm, GpuSched *sc, GpuWarp *w, uint64_t now);
/* Whether issuing w's next instruction may do what other SMs can see
 * in the same cycle (the host's PTXEMU_TM_I_SHARED: global and generic
 * memory, atomics, asynchronous copies and their waits, fences, calls,
 * exits, cluster and grid barriers), or what is not known (a step that
 * settles its stack): such an instruction is issued in phase 2. */
static inline bool gpu_issue_shared(const Gpu *g, const GpuWarp *w)
{
    if (w->xp) {
        return false;
    }
    if (!w->next) {
        return true;
    }
    const uint32_t f = w->next->flags;
    return (f & PTXEMU_TM_I_SHARED) &&
           !(g->buffered && (f & PTXEMU_TM_I_BUFFERED));
}

/* Something w's own readiness reads changed (its next instruction,
 * scoreboard, I-buffer, not_before, barrier, async waits, outstanding
 * memory, expanded parts, exit), or what its CTA's retirement waits
 * for (requests, collectors, fetches out; results): sched.c and cta.c
 * work them out again. */
static inline void gpu_warp_touch(GpuWarp *w)
{
    w->own_ok = false;
    w->cta->retire_ok = false; /* (what it reads changes with these) */
    w->cta->smp->retire_ok = false;
    w->cta->smp->look = 0;
    if (w->lbp) { /* an exited warp never issues again */
        w->lbp->lb = w->exited ? GPU_NEVER : 0;
        w->lbp->ex = GPU_NEVER;
    }
}

static inline uint64_t gpu_max(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

static inline uint64_t gpu_min(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

#endif
