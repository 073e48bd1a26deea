/*
 * timing/simple/simple.h: the `simple` timing model's internal contract.
 *
 * A fast, understandable first model built only on the plug-in ABI
 * (<ptxemu/ptxemu_timing.h>; nothing else of ptxemu).  Per SM:
 *  - N warp schedulers; a warp belongs to scheduler (SM warp slot % N);
 *    each issues at most one warp instruction per cycle, loose round
 *    robin starting after the warp it issued last;
 *  - a per-warp scoreboard on register slots: an instruction issues only
 *    when none of its source or destination slots has a pending write;
 *  - per scheduler one unit per class (ptxemu_tm_unit) with a fixed
 *    latency and initiation interval (busy `ii` cycles after an issue);
 *  - memory: a fixed latency per state space; global and local accesses
 *    are coalesced into 32-byte sectors and pass one memory port per SM
 *    of `mem.bytes_per_cycle` bytes per cycle (the result is ready after
 *    latency + sectors*32/B cycles, the port busy for sectors*32/B);
 *  - a warp at a barrier waits; released warps issue from the next cycle;
 *  - asynchronous operations (step->async_token) complete after their
 *    memory (or tensor) latency; a wait instruction (ASYNC_GROUP,
 *    BULK_GROUP, WGMMA, TCGEN05) does not issue while its warp has an incomplete
 *    asynchronous operation, an MBARRIER wait while its CTA has one
 *    (the copy feeding an mbarrier is usually issued by another warp).
 *    Conservative: a wait_group N waits for all groups, not all but N.
 *  - CTAs are placed (host->cta_next) while they fit the SM's threads,
 *    warps, registers (per-warp allocation granularity), shared memory
 *    (granularity and a per-CTA reserve) and CTA slots; a cluster's CTAs
 *    are placed together or not at all (on any SMs: GPCs are not
 *    modelled), a cooperative grid all at once.  A CTA, cluster or
 *    cooperative grid that cannot fit even an empty device is placed
 *    anyway (one log line) so that a kernel the emulator runs also runs
 *    timed.
 *  - the first CTA is placed `launch_latency` cycles after the launch;
 *  - cycles in which no warp can issue are skipped: time jumps to the
 *    first cycle at which one can (or a CTA retires).
 * Not modelled: caches, bank conflicts, the interconnect and DRAM timing,
 * instruction fetch, register-file ports, dual issue.
 *
 * Files: config.c (parameter table, validated SimpleConfig), units.c
 * (latencies, memory cost), scoreboard.c, timing/lib/ (handle map, occupancy arithmetic),
 * sm.c (residency and occupancy), sched.c (readiness, selection, issue,
 * stall reasons), simple.c (ops, events, the cycle loop, statistics).
 */
#ifndef PTXEMU_TIMING_SIMPLE_H
#define PTXEMU_TIMING_SIMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "timing/lib/kernel.h"
#include "timing/lib/map.h"
#include "timing/lib/occupancy.h"
#include "timing/lib/slots.h"
#include "timing/ptxemu_timing.h"

#define SIMPLE_NEVER UINT64_MAX
#define SIMPLE_SECTOR 32u /* bytes: the unit of global memory transactions */

/* ---- config.c ---- */
typedef struct SimpleConfig {
    uint64_t schedulers;
    uint64_t lat[PTXEMU_TM_UNIT_COUNT];
    uint64_t ii[PTXEMU_TM_UNIT_COUNT];
    uint64_t mem_lat[PTXEMU_TM_SPACE_COUNT];
    uint64_t bytes_per_cycle;
    uint64_t launch_latency;
    TmOccLimits occ;
    double clock_mhz;
} SimpleConfig;

extern const ptxemu_tm_param simple_params[];
extern const uint32_t simple_nparams;
/* Read every parameter through the host; 0, or -1 after api->error(). */
int simple_config_read(SimpleConfig *c, const ptxemu_tm_host_api *api,
                       ptxemu_tm_host *h);

/* ---- scoreboard.c: pending register writes of one warp ---- */
typedef struct SimpleSbEntry {
    uint32_t slot;
    uint64_t ready;
} SimpleSbEntry;
typedef struct SimpleScoreboard {
    SimpleSbEntry *e;
    uint32_t n, cap;
} SimpleScoreboard;
void simple_sb_free(SimpleScoreboard *sb);
/* The cycle from which none of the slots has a pending write. */
uint64_t simple_sb_ready(const SimpleScoreboard *sb, const uint32_t *slots,
                         uint32_t n);
/* Slots will be written at `ready` (entries done by `now` are dropped).
 * 0, or -1 when out of memory. */
int simple_sb_write(SimpleScoreboard *sb, const uint32_t *slots, uint32_t n,
                    uint64_t ready, uint64_t now);

/* ---- units.c ---- */
/* An instruction's unit class, MISC for an unknown one. */
unsigned simple_unit(const ptxemu_tm_insn *insn);
/* Whether an instruction may use the SM's memory port (global or local
 * space, or a generic address), decided before issue. */
bool simple_needs_port(const ptxemu_tm_insn *insn);
/* The memory cost of what a step accessed.  kinds_async: count only
 * asynchronous accesses (true) or only synchronous ones (false). */
typedef struct SimpleMemCost {
    bool any;             /* some access of that kind */
    uint64_t latency;     /* the slowest space's latency (+ transfer) */
    uint64_t transfer;    /* port cycles: ceil(sectors*32 / B) */
} SimpleMemCost;
typedef struct SimpleScratch {
    uint64_t *iv;         /* sector intervals: pairs (first, last) */
    size_t cap;
} SimpleScratch;
int simple_mem_cost(const SimpleConfig *c, const ptxemu_tm_step *st,
                    bool kinds_async, SimpleScratch *scr,
                    SimpleMemCost *out);

/* ---- model state ---- */
typedef enum SimpleStall {
    SIMPLE_STALL_SCOREBOARD = 0,
    SIMPLE_STALL_UNIT,
    SIMPLE_STALL_BARRIER,
    SIMPLE_STALL_ASYNC,
    SIMPLE_STALL_THROTTLE,
    SIMPLE_STALL_IDLE,
    SIMPLE_STALL_COUNT
} SimpleStall;

struct SimpleCta;

typedef struct SimpleWarp {
    ptxemu_tm_warp *h;
    struct SimpleCta *cta;
    const ptxemu_tm_insn *next; /* cached peek; NULL: blocked or exited */
    uint64_t sb_ready;          /* scoreboard cycle for `next` */
    uint64_t not_before;        /* released from a barrier: the cycle after */
    uint64_t async_done;        /* its last asynchronous operation's end */
    uint64_t drain;             /* its last pending write */
    uint32_t exec;              /* lanes `next` will execute */
    uint32_t slot;              /* SM warp slot */
    uint32_t nostep;            /* consecutive steps that ran nothing */
    bool at_barrier, exited, peeked;
    SimpleScoreboard sb;
} SimpleWarp;

typedef struct SimpleCta {
    ptxemu_tm_cta *h;
    TmKern *kern;               /* the kernel it belongs to */
    struct SimpleCta *next;     /* on its SM */
    uint32_t sm, nwarps, nexited;
    uint64_t last_exit;
    uint64_t async_done;
    TmOccUse use;               /* what it holds of the SM */
    SimpleWarp *w;              /* nwarps */
} SimpleCta;

typedef struct SimpleSched {
    uint64_t unit_free[PTXEMU_TM_UNIT_COUNT];
    uint32_t last;              /* slot it issued last */
    /* A lower bound of the cycle any of its warps can issue and the
     * stall until then, valid until something can make a warp ready
     * sooner: its own issue, a warp placed on it, a barrier release
     * (then wake = 0: look again).  Everything else only delays warps
     * (the memory port, async operations of the CTA). */
    uint64_t wake;
    SimpleStall why;
    /* Its occupied warp slots (slot % schedulers == its index), in
     * ascending order: round robin visits only these. */
    uint32_t *ws;
    uint32_t nws, capws;
} SimpleSched;

typedef struct SimpleSm {
    uint32_t id;
    SimpleCta *ctas;
    TmOccUse used;              /* in use (used.ctas: resident CTAs) */
    TmSlots slots;              /* warp slots (SimpleWarp *) */
    uint64_t port_free;
    SimpleSched *sched;
    uint32_t nsched;
    uint64_t issued;            /* stat: simple.smN.issued */
    uint64_t warps_resident;    /* stat: simple.smN.warps_resident, the
                                   sum over cycles of `used.warps` */
} SimpleSm;

/* One kernel being timed (nesting of child grids: timing/lib/kernel.h). */
typedef TmKern SimpleKernel;

typedef struct Simple {
    const ptxemu_tm_host_api *api;
    ptxemu_tm_host *h;
    SimpleConfig c;
    SimpleSm **sm;
    uint32_t nsms, smcap;       /* made (stats registered) */
    TmMap warps;                /* ptxemu_tm_warp* -> SimpleWarp* */
    SimpleScratch scratch;

    SimpleKernel *kern;         /* the kernel being timed (innermost) */
    uint32_t active_sms;        /* the device's, this kernel */

    /* statistics */
    uint64_t st_cycles, st_issued, st_thread_insns, st_ctas, st_kernels;
    uint64_t st_stall[SIMPLE_STALL_COUNT];
} Simple;

/* ---- sm.c ---- */
SimpleSm *simple_sm_new(uint32_t id, uint64_t nsched, uint64_t nslots);
void simple_sm_free(SimpleSm *sm);
/* How many more of the kernel's CTAs fit on the SM now. */
uint64_t simple_sm_room(const Simple *s, const SimpleSm *sm);
/* Place the grid's next CTA on the SM (force: ignore the limits).
 * 1 placed, 0 none left, negative: a host error. */
int simple_sm_place(Simple *s, SimpleSm *sm);
/* Retire the current kernel's CTAs on the SM that are finished and
 * drained by `now`. */
void simple_sm_retire(Simple *s, SimpleSm *sm, uint64_t now);
/* Forget the current kernel's CTAs without retiring them (a kernel
 * stopped early: the host frees its own). */
void simple_sm_drop(Simple *s, SimpleSm *sm);
/* Forget every CTA on the SM: a new launch while no kernel runs finds
 * only those of a kernel the host abandoned after a guest fault (it
 * skips kernel_end then, and frees them). */
void simple_sm_drop_stale(Simple *s, SimpleSm *sm);
/* The cycle a finished CTA may retire (SIMPLE_NEVER while it runs). */
uint64_t simple_cta_retire_at(const SimpleCta *cta);

/* ---- sched.c ---- */
/* The scheduler a warp belongs to; make it look at its warps again. */
SimpleSched *simple_sched_of(const Simple *s, const SimpleWarp *w);
void simple_sched_poke(const Simple *s, const SimpleWarp *w);
/* Every scheduler looks again (kernels begin and end). */
void simple_sched_poke_all(Simple *s);
/* Refresh a warp's cached next instruction (after a step or release). */
void simple_warp_refresh(Simple *s, SimpleWarp *w);
/* Mark a warp exited at `now` (idempotent). */
void simple_warp_exited(Simple *s, SimpleWarp *w, uint64_t now);
/* Run scheduler `k` of an SM for cycle `now`: issue one warp or say why
 * none.  *issued: 1 when a warp issued; *why: the stall otherwise;
 * *wake: the earliest cycle one of its warps could issue (NEVER: none
 * without an event).  0, or a host's negative result. */
int simple_sched_cycle(Simple *s, SimpleSm *sm, uint32_t k, uint64_t now,
                       int *issued, SimpleStall *why, uint64_t *wake);

#endif
