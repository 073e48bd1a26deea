/*
 * emu/sched.c: the functional scheduler, one driver of emu/grid.h.
 *
 * A set of resident CTAs runs round-robin: each ready warp gets a quantum
 * of steps per round (fewer when it reaches a barrier or exits).  CTAs
 * are made resident one at a time in linear order; with thread-block
 * clusters one cluster at a time (its CTAs in rank order, so that
 * barrier.cluster and distributed shared memory see them all); for a
 * cooperative launch the whole grid at once.  After each round the
 * grid's watchdog (emu/grid.h) looks for deadlocks and livelocks.
 *
 * A launch with a driver of its own (EmuLaunch.driver: a timing model)
 * runs through it instead; child grids of dynamic parallelism inherit
 * the driver.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/client.h"
#include "emu/devrt.h"
#include "emu/exec.h"
#include "emu/gpuspec.h"
#include "emu/grid.h"
#include "emu/par.h"
#include "emu/sched.h"

#define EMU_SCHED_QUANTUM 64

/* The recorded counterpart of emu_warp_run, while a client wants steps
 * (emu/client.h): every step fills the launch's record and the clients
 * see it.  A step that executed no instruction (a warp released from a
 * barrier at the end of its function only settles its stack) is not
 * reported, so the clients see exactly EmuLaunch.insns steps. */
static EmuStatus warp_run_hooked(EmuLaunch *l, EmuCta *cta, EmuWarp *w,
                                 uint32_t max)
{
    EmuStepRecord *rec = l->step_rec;
    for (uint32_t k = 0; k < max && w->state == EMU_WARP_READY; k++) {
        uint64_t before = l->insns;
        EmuStatus st = emu_warp_step(cta, w, rec);
        if (l->insns != before) {
            emu_client_step(l->dev, cta, w, rec);
        }
        if (st != EMU_OK) {
            return st;
        }
    }
    return EMU_OK;
}

EmuStatus emu_sched_resident(EmuLaunch *l, EmuCta *const *ctas, uint32_t n,
                             bool can_grow, bool *stuck)
{
    EmuWatch wd;
    emu_watch_init(&wd, l);
    wd.can_grow = can_grow;
    *stuck = false;
    for (;;) {
        bool left = false, ran = false;
        for (uint32_t c = 0; c < n; c++) {
            EmuCta *cta = ctas[c];
            for (uint32_t wi = 0; wi < cta->nwarps; wi++) {
                EmuWarp *w = &cta->warps[wi];
                if (w->state == EMU_WARP_EXITED) {
                    continue;
                }
                left = true;
                if (w->state == EMU_WARP_READY) {
                    ran = true;
                    EmuStatus st = l->step_rec
                        ? warp_run_hooked(l, cta, w, EMU_SCHED_QUANTUM)
                        : emu_warp_run(cta, w, EMU_SCHED_QUANTUM);
                    if (st != EMU_OK) {
                        return st;
                    }
                }
            }
        }
        if (!left) {
            return EMU_OK;
        }
        EmuStatus st = emu_watch_round(&wd, l, ctas, n, ran);
        if (st != EMU_OK) {
            *stuck = wd.stuck;
            return st;
        }
    }
}

/* How many CTAs of this launch the emulated GPU holds resident at once:
 * its SMs times what one SM holds (the occupancy calculator). */
uint64_t emu_sched_cap(const EmuLaunch *l)
{
    const EmuFunc *f = l->kernel;
    uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    int per = emu_func_blocks_per_sm(&l->dev->gpu, f,
                                     threads > 1024 ? 1024 : (int)threads,
                                     l->dyn_shared, l->carveout);
    uint64_t sms = l->dev->cfg.num_sms ? l->dev->cfg.num_sms
                                       : (uint64_t)l->dev->gpu.sms;
    return (per > 0 ? (uint64_t)per : 1) * (sms ? sms : 1);
}

/* Make the next CTA, or the next cluster whole, resident. */
static EmuStatus admit(EmuLaunch *l, EmuGrid *g)
{
    EmuStatus st;
    do {
        EmuCta *cta;
        st = emu_grid_next(g, EMU_SM_BY_INDEX, &cta);
    } while (st == EMU_OK &&
             (l->cooperative ? emu_grid_left(g) != 0
                             : emu_grid_cluster_pending(g) != 0));
    return st;
}

/* A deadlock while CTAs of the grid have not started: the stuck warps
 * may be waiting for one of those (a flag a later block sets).  The
 * emulator runs as many CTAs at once as the emulated GPU would hold
 * before it says so; CUDA promises co-residency only to cooperative
 * launches. */
static void coresidency_note(EmuLaunch *l, uint64_t left, uint32_t n)
{
    size_t o = strlen(l->fault.detail);
    if (o < sizeof(l->fault.detail)) {
        snprintf(l->fault.detail + o, sizeof(l->fault.detail) - o,
                 "; %llu CTA(s) of the grid had not started (%u were "
                 "resident, all the emulated GPU holds at once: --sms)",
                 (unsigned long long)left, n);
    }
}

/* Make CTAs resident (a cooperative launch: all of them; otherwise one
 * cluster at a time), run them to completion, retire them.  When the
 * resident warps spin without progress while CTAs of the grid wait to
 * start, admit more (doubling the resident set, up to what the emulated
 * GPU holds at once): a block that waits for a flag a later block sets
 * then finishes, as it does on a GPU that holds both. */
EmuStatus emu_sched_grid(EmuLaunch *l, EmuGrid *g)
{
    EmuStatus st = EMU_OK;
    uint64_t cap = l->cooperative ? 0 : emu_sched_cap(l);
    EmuCta *const *res;
    uint32_t n;
    while (st == EMU_OK &&
           (emu_grid_left(g) || emu_grid_resident(g, &res))) {
        /* a resumed grid (emu/par.c) starts with CTAs resident */
        if (!emu_grid_resident(g, &res)) {
            st = admit(l, g);
        }
        n = emu_grid_resident(g, &res);
        bool stuck = false;
        while (st == EMU_OK) {
            n = emu_grid_resident(g, &res);
            bool can_grow = !l->cooperative && emu_grid_left(g) &&
                            n < cap;
            st = emu_sched_resident(l, res, n, can_grow, &stuck);
            if (st != EMU_ERR_DEADLOCK || !stuck) {
                break;
            }
            /* admit as many more as are resident (at least one cluster),
             * within the cap */
            st = EMU_OK;
            for (uint32_t k = 0;
                 st == EMU_OK && k < n && emu_grid_left(g) &&
                 emu_grid_resident(g, &res) < cap;
                 k++) {
                st = admit(l, g);
            }
        }
        n = emu_grid_resident(g, &res);
        if (st == EMU_ERR_DEADLOCK && emu_grid_left(g) && l->faulted &&
            n >= cap) {
            coresidency_note(l, emu_grid_left(g), n);
        }
        while (st == EMU_OK && (n = emu_grid_resident(g, &res)) != 0) {
            emu_grid_retire(g, res[n - 1]);
        }
    }
    emu_grid_close(g);
    return st;
}

static EmuStatus run_grid(EmuLaunch *l)
{
    EmuGrid *g;
    EmuStatus st = emu_grid_open(l, &g);
    return st != EMU_OK ? st : emu_sched_grid(l, g);
}

static EmuStatus launch_run(EmuLaunch *l)
{
    if (l->driver) {
        /* (a timing model's host steps SMs on threads itself) */
        return emu_devrt_finish(l, l->driver(l->driver_ctx, l));
    }
    unsigned threads = emu_par_threads(l);
    if (threads > 1) {
        return emu_devrt_finish(l, emu_par_run(l, threads));
    }
    if (!l->dev->clients || !l->dev->clients->steps) {
        /* then the grids its threads launched (emu/devrt.h) */
        return emu_devrt_finish(l, run_grid(l));
    }
    /* one record per launch, for every step of every warp */
    EmuStepRecord *rec = calloc(1, sizeof(*rec));
    if (!rec) {
        return EMU_ERR_OUT_OF_MEMORY;
    }
    l->step_rec = rec;
    EmuStatus st = run_grid(l);
    l->step_rec = NULL;
    emu_step_record_fini(rec);
    free(rec);
    return emu_devrt_finish(l, st);
}

EmuStatus emu_launch_run(EmuLaunch *l)
{
    EmuEvent ev = { EMU_EV_LAUNCH_BEGIN, l, NULL, NULL, 0, 0, 0 };
    emu_client_event(l->dev, &ev);
    EmuStatus st = launch_run(l);
    ev.kind = EMU_EV_LAUNCH_END;
    emu_client_event(l->dev, &ev);
    return st;
}
