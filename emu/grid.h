/*
 * emu/grid.h: a launch's CTAs, for any driver.
 *
 * A driver decides when CTAs become resident and when warps step; the
 * functional scheduler (sched.c) and a timing model (timing/host.c) are
 * the two drivers.  What they share lives here, so neither copies it:
 *  - CTAs handed out in linear order, made resident on demand.  With
 *    thread-block clusters the whole cluster is made when its first CTA
 *    is asked for (distributed shared memory and barrier.cluster need
 *    every member to exist), and its members are handed out next, in
 *    rank order.
 *  - A cooperative launch's grid-sync workspace (%envreg1:%envreg2),
 *    made at open, freed at close.
 *  - Retirement: a finished CTA is freed; a cluster's CTAs are freed
 *    when the last of them retires (another member may still read their
 *    shared memory until then).
 *  - The watchdog (EmuWatch): deadlock and livelock detection over the
 *    resident CTAs, and the located report of the stuck warps.
 *
 * Watchdog.  A round in which no resident warp can issue while some
 * remain is a deadlock (warps waiting at barriers that can never
 * complete).  A livelock (the SIMT spin lock of seed digest 1.4: the lock
 * holder waits at the reconvergence point while the others spin) keeps
 * issuing, so the watchdog also watches EmuLaunch.progress (memory
 * writes that changed a value, warp exits, barrier releases).  After
 * watchdog_rounds rounds without progress it hashes the whole
 * architectural state of the resident CTAs every 8th round and runs
 * Brent's cycle detection: the emulator is deterministic, so a repeated
 * state with unchanged memory means the CTAs loop forever.  Loops that
 * make progress or change registers each iteration (counters, %clock)
 * are never flagged; EmuConfig.insn_limit bounds those.
 *
 * mbarrier waits.  Polling loops as libcu++ writes them read
 * %globaltimer and back off, so their state never repeats.  A warp can
 * only leave such a loop when its wait succeeds, i.e. when someone else
 * writes the mbarrier.  So after watchdog_rounds more rounds without
 * progress, if every live warp is at a barrier or has failed at least
 * one mbarrier wait per round over those rounds without a success
 * (EmuWarp.mbar_fails, ops_mbarrier.c), nobody can ever complete the
 * phase: a deadlock.
 *
 * Time limit.  A launch that runs longer than EmuConfig.time_limit_ms of
 * wall-clock time (a loop whose state keeps changing, which neither rule
 * above can call a deadlock) stops with EMU_ERR_TIMEOUT naming the warps
 * still running and their pcs, as a GPU's watchdog stops a kernel.
 *
 * A "round" is the driver's: the functional scheduler gives every ready
 * warp a quantum per round; a timing driver calls emu_watch_round only
 * for stretches in which instructions ran (a warp waiting on a modelled
 * latency changes no state, and must not look like a livelock).
 */
#ifndef PTXEMU_EMU_GRID_H
#define PTXEMU_EMU_GRID_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/exec.h"

typedef struct EmuGrid EmuGrid;

/* Open l's grid (a cooperative launch's workspace is made here). */
EmuStatus emu_grid_open(EmuLaunch *l, EmuGrid **out);
/* Free every CTA still resident and the grid. */
void emu_grid_close(EmuGrid *g);
/* Make the next CTA resident on SM sm (its %smid and %clock;
 * EMU_SM_BY_INDEX: its linear index modulo the SM count); *out = NULL
 * when every CTA has been handed out.  The CTA's warps are ready. */
#define EMU_SM_BY_INDEX UINT32_MAX
EmuStatus emu_grid_next(EmuGrid *g, uint32_t sm, EmuCta **out);
/* CTAs not handed out yet. */
uint64_t emu_grid_left(const EmuGrid *g);
/* CTAs of the current cluster still to be handed out (0 without
 * clusters, or between clusters): a driver places them before stepping
 * any of the cluster's warps. */
uint32_t emu_grid_cluster_pending(const EmuGrid *g);
/* The CTA is finished (every warp exited) or abandoned: free it. */
void emu_grid_retire(EmuGrid *g, EmuCta *cta);
/* The resident CTAs, in the order they were made. */
uint32_t emu_grid_resident(const EmuGrid *g, EmuCta *const **ctas);
/* Every warp of cta has exited. */
bool emu_cta_done(const EmuCta *cta);

/* For the parallel driver (emu/par.c): CTA `linear` of l made on its
 * own, as a cluster of one (freed by emu_grid_drop, or retired by a grid
 * that adopted it); and a grid that continues a launch begun elsewhere:
 * the adopted CTAs are resident, then it hands out the CTAs of order
 * (linear indices; the grid owns the array, also on failure), then
 * those from `from` to the end of the grid.  No clusters, not
 * cooperative. */
EmuStatus emu_grid_make_one(EmuLaunch *l, uint32_t linear, EmuCta **out);
void emu_grid_drop(EmuCta *cta);
EmuStatus emu_grid_resume(EmuLaunch *l, EmuCta **adopt, uint32_t nadopt,
                          uint32_t *order, uint32_t norder, uint64_t from,
                          EmuGrid **out);

typedef struct EmuWatch {
    uint64_t last, saved, power, lam, sample_insns, budget;
    uint32_t quiet, limit, since;
    uint64_t rounds;
    bool have_saved;
    /* Set by the driver: more CTAs could be made resident.  Then a
     * livelock (warps that keep issuing without progress, e.g. spinning
     * on a flag a CTA not yet started would set) is not reported: the
     * round returns EMU_ERR_DEADLOCK with `stuck` set and no fault, and
     * the driver admits more CTAs. */
    bool can_grow;
    bool stuck;
    /* The host's stamp (EmuDevice.host_stamp) when the spinning warps
     * were marked, -1 when none. */
    int64_t mark_stamp;
} EmuWatch;

void emu_watch_init(EmuWatch *w, const EmuLaunch *l);
/* One round is over; ran: some warp could issue in it.  EMU_OK, or
 * EMU_ERR_DEADLOCK with the launch's fault describing the stuck warps. */
EmuStatus emu_watch_round(EmuWatch *w, EmuLaunch *l, EmuCta *const *ctas,
                          uint32_t n, bool ran);
/* The deadlock report itself (livelock: the warps keep issuing). */
EmuStatus emu_watch_report(EmuLaunch *l, EmuCta *const *ctas, uint32_t n,
                           bool livelock);

#endif
