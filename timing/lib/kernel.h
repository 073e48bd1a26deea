/*
 * timing/lib/kernel.h: one kernel being timed, as the built-in models
 * keep it: what the host said about it, how many of its CTAs are placed
 * and resident, its time, and the kernel it interrupted.
 *
 * Nesting.  ptxemu's host times a child grid of dynamic parallelism
 * after its parent; a host that times one inside a step of its parent
 * calls kernel_begin while the parent runs.  Then the parent's CTAs stay
 * resident (holding their resources) but issue nothing until the
 * child's kernel_end, and the parent resumes at the child's end cycle
 * (resume_at).  `cur` below is the innermost kernel.
 *
 * CTA groups.  A cluster's CTAs are placed together, and a cooperative
 * grid's all at once (every CTA must be co-resident); any other CTA
 * alone.
 */
#ifndef PTXEMU_TIMING_LIB_KERNEL_H
#define PTXEMU_TIMING_LIB_KERNEL_H

#include <stdbool.h>
#include <stdint.h>

#include "timing/lib/occupancy.h"
#include "timing/ptxemu_timing.h"

#define TM_KERN_NEVER UINT64_MAX
/* Cycles in a row in which nothing can happen before a model gives up
 * (ptxemu's host reports a guest deadlock within about a thousand). */
#define TM_KERN_STUCK_LIMIT 100000u

typedef struct TmKern {
    struct TmKern *parent;
    ptxemu_tm_kernel k;
    uint64_t cluster_size;      /* CTAs placed together */
    uint64_t placed;            /* CTAs handed out */
    TmOccUse need;              /* what one CTA holds on an SM */
    uint32_t resident;          /* its CTAs on SMs */
    uint32_t next_sm, next_gpc; /* round-robin placement starts */
    bool grid_done;             /* every CTA handed out */
    bool running, warned;
    uint64_t start, launch_at, now, end;
    uint64_t resume_at;         /* a child kernel's end */
    uint64_t stuck;             /* cycles in a row nothing could happen */
} TmKern;

/* Kernel k begins.  *cur: the kernel timed so far (running: k is its
 * child; else it is freed and k is a new launch, *fresh set).  NULL when
 * out of memory (*cur unchanged). */
TmKern *tm_kern_begin(TmKern **cur, const ptxemu_tm_kernel *k,
                      uint64_t launch_latency, const TmOccLimits *occ,
                      bool *fresh);
/* CTAs to place together next. */
uint64_t tm_kern_group(const TmKern *kn);
/* The host's next CTA for SM sm: 1 (with its warps), 0 when every CTA
 * was handed out, negative: the host's error or PTXEMU_TM_ERROR after
 * api->error.  tm_kern_placed once the model took it. */
int tm_kern_cta_next(TmKern *kn, const ptxemu_tm_host_api *api,
                     ptxemu_tm_host *h, uint32_t sm, ptxemu_tm_cta **cta,
                     ptxemu_tm_warp *const **warps, uint32_t *nwarps);
void tm_kern_placed(TmKern *kn);
/* At the start of cycle t: whether the kernel is over (nothing resident,
 * nothing left); then it ended at t. */
bool tm_kern_over(TmKern *kn, uint64_t t);
/* After cycle t: *next is the earliest cycle something can happen
 * (TM_KERN_NEVER: only an event), progress: something happened that
 * needs cycle t + 1.  Sets *next to the cycle to go on at.  0; 1 when
 * nothing can happen (the caller looks at barriers again: a cluster or
 * grid barrier may release warps without an event for their CTA);
 * -1 when that has lasted TM_KERN_STUCK_LIMIT cycles. */
int tm_kern_next(TmKern *kn, uint64_t t, uint64_t *next, bool progress);
/* The kernel stops early (an error): its end is now. */
int tm_kern_stop(TmKern *kn, int rc);
/* kernel_end: *end_cycle; a child pops back to its parent (then true:
 * the parent's warps may issue again). */
bool tm_kern_end(TmKern **cur, uint64_t *end_cycle);
void tm_kern_free_all(TmKern **cur);

#endif
