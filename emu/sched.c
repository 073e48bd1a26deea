/*
 * emu/sched.c: the functional scheduler.
 *
 * A set of resident CTAs runs round-robin: each ready warp gets a quantum
 * of steps per round (fewer when it reaches a barrier or exits).  CTAs
 * are made resident one at a time in linear order; with thread-block
 * clusters one cluster at a time (its CTAs in rank order, so that
 * barrier.cluster and distributed shared memory see them all); for a
 * cooperative launch the whole grid at once.
 *
 * Watchdog.  A round in which no warp could issue while some remain is
 * a deadlock (warps waiting at barriers that can never complete).  A
 * livelock (the SIMT spin lock of seed digest 1.4: the lock holder waits
 * at the reconvergence point while the others spin) keeps issuing, so
 * the scheduler also watches EmuLaunch.progress (memory writes that
 * changed a value, warp exits, barrier releases).  After watchdog_rounds
 * rounds without progress it hashes the whole architectural state of the
 * resident CTAs every 8th round boundary and runs Brent's cycle detection:
 * the emulator is deterministic, so a repeated state with unchanged
 * memory means the CTAs loop forever.  Loops that make progress or
 * change registers each iteration (counters, %clock) are never flagged;
 * EmuConfig.insn_limit bounds those.
 *
 * mbarrier waits.  Polling loops as libcu++ writes them read %globaltimer
 * and back off, so their state never repeats.  A warp can only leave
 * such a loop when its wait succeeds, i.e. when someone else writes the
 * mbarrier.  So after watchdog_rounds more rounds without progress, if
 * every live warp is at a barrier or has failed at least one mbarrier
 * wait per round over those rounds without a success
 * (EmuWarp.mbar_fails, ops_mbarrier.c), nobody can ever complete the
 * phase: a deadlock.  (A loop that gives up after a timeout would be
 * reported too; the ISA makes no promise about such timeouts.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/cluster.h"
#include "emu/devrt.h"
#include "emu/exec.h"

#define EMU_SCHED_QUANTUM 64

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

/* The hash of the resident CTAs' state; *words: 64-bit words hashed. */
static uint64_t hash_state(const EmuCta *ctas, uint32_t n, uint64_t *words)
{
    uint64_t nw = 0;
    uint64_t h = 0x243f6a8885a308d3ull;
    for (uint32_t c = 0; c < n; c++) {
        const EmuCta *cta = &ctas[c];
        for (unsigned b = 0; b < EMU_MAX_BARRIERS; b++) {
            h = mix(h, cta->bar_arrived[b] | (uint64_t)cta->bar_expected[b]
                       << 32);
            h = mix(h, cta->bar_red[b]);
        }
        for (uint32_t wi = 0; wi < cta->nwarps; wi++) {
            const EmuWarp *w = &cta->warps[wi];
            h = mix(h, (uint64_t)w->state | (uint64_t)w->barrier_id << 8 |
                       (uint64_t)w->exited << 32);
            h = mix(h, w->depth | (uint64_t)w->nframes << 32);
            h = mix(h, w->carry);
            for (uint32_t d = 0; d < w->depth; d++) {
                const EmuSimtEntry *e = &w->stack[d];
                h = mix(h, e->rpc | (uint64_t)e->npc << 32);
                h = mix(h, e->mask);
            }
            for (uint32_t f = 0; f < w->nframes; f++) {
                const EmuFrame *fr = &w->frames[f];
                h = mix(h, fr->func->index | (uint64_t)fr->returned << 32);
                h = mix(h, fr->local_base);
                size_t ns = (size_t)fr->func->nslots * EMU_WARP_SIZE;
                for (size_t k = 0; k < ns; k++) {
                    h = mix(h, fr->regs[k]);
                }
                nw += ns;
            }
        }
    }
    *words = nw;
    return h;
}

/* Fault describing the stuck warps. */
static EmuStatus report_stuck(EmuLaunch *l, EmuCta *ctas, uint32_t n,
                              bool livelock)
{
    char buf[256];
    size_t o = 0;
    EmuCta *fc = NULL;
    EmuWarp *fw = NULL;
    unsigned shown = 0, total = 0;
    bool polling = false;
    for (uint32_t c = 0; c < n; c++) {
        for (uint32_t wi = 0; wi < ctas[c].nwarps; wi++) {
            EmuWarp *w = &ctas[c].warps[wi];
            if (w->state == EMU_WARP_EXITED || w->depth == 0) {
                continue;
            }
            total++;
            polling |= w->mbar_poll != 0;
            if (!fw) {
                fc = &ctas[c];
                fw = w;
            }
            if (shown < 5 && o < sizeof(buf)) {
                const EmuSimtEntry *e = &w->stack[w->depth - 1];
                const EmuFrame *fr = &w->frames[w->nframes - 1];
                const IrFunc *f = fr->func->ir;
                uint32_t line = e->npc < f->ninsns
                    ? f->insns[e->npc].loc.line : 0;
                char poll[64] = "";
                if (w->mbar_poll) {
                    snprintf(poll, sizeof(poll), ", polls mbarrier 0x%llx",
                             (unsigned long long)
                             (w->mbar_poll & ~1ull));
                }
                int k = snprintf(buf + o, sizeof(buf) - o,
                                 "%swarp %u of CTA %u at pc %u (line %u, "
                                 "mask 0x%x%s%s)", shown ? "; " : "", w->id,
                                 ctas[c].linear, e->npc, line, e->mask,
                                 w->state != EMU_WARP_AT_BARRIER ? ""
                                 : w->barrier_id == EMU_CLUSTER_BARRIER
                                 ? ", at the cluster barrier"
                                 : ", at a barrier", poll);
                o += k > 0 ? (size_t)k : 0;
                shown++;
            }
        }
    }
    if (!fw) {
        return EMU_OK;
    }
    EmuCtx x;
    memset(&x, 0, sizeof(x));
    x.dev = l->dev;
    x.launch = l;
    x.cta = fc;
    x.warp = fw;
    x.frame = &fw->frames[fw->nframes - 1];
    x.regs = x.frame->regs;
    x.func = x.frame->func;
    x.pc = fw->stack[fw->depth - 1].npc;
    if (x.pc >= x.frame->func->ncode) {
        x.pc = 0;
    }
    unsigned lane = (unsigned)__builtin_ctz(fw->stack[fw->depth - 1].mask |
                                            (1u << 31));
    const char *kind =
        livelock && polling
            ? "mbarrier deadlock (the warps poll for a phase that cannot "
              "complete)"
        : livelock ? "SIMT deadlock (the warps repeat the same state "
                     "without progress)"
                   : "deadlock (warps wait at barriers that cannot "
                     "complete)";
    emu_fault(&x, EMU_ERR_DEADLOCK, lane, 0, 0, PTX_SPACE_NONE,
              "%s: %u warp(s) cannot make progress: %s%s", kind, total, buf,
              shown < total ? "; ..." : "");
    return EMU_ERR_DEADLOCK;
}

/* Start (mark) or judge the mbarrier rule's window; see the top. */
static void mbar_mark(EmuCta *ctas, uint32_t n)
{
    for (uint32_t c = 0; c < n; c++) {
        for (uint32_t wi = 0; wi < ctas[c].nwarps; wi++) {
            EmuWarp *w = &ctas[c].warps[wi];
            w->mbar_mark = w->mbar_fails;
        }
    }
}

static bool mbar_all_stuck(const EmuCta *ctas, uint32_t n, uint32_t rounds)
{
    bool polling = false;
    for (uint32_t c = 0; c < n; c++) {
        for (uint32_t wi = 0; wi < ctas[c].nwarps; wi++) {
            const EmuWarp *w = &ctas[c].warps[wi];
            if (w->state == EMU_WARP_EXITED ||
                w->state == EMU_WARP_AT_BARRIER) {
                continue;
            }
            /* a success resets mbar_fails below the mark */
            if (!w->mbar_poll || w->mbar_fails < w->mbar_mark + rounds) {
                return false;
            }
            polling = true;
        }
    }
    return polling;
}

/* The hooked counterpart of emu_warp_run: every step fills the launch's
 * record and the hook sees it.  A step that executed no instruction (a
 * warp released from a barrier at the end of its function only settles
 * its stack) leaves a stale record and is not reported, so the hook sees
 * exactly EmuLaunch.insns steps. */
static EmuStatus warp_run_hooked(EmuLaunch *l, EmuCta *cta, EmuWarp *w,
                                 uint32_t max)
{
    EmuStepRecord *rec = l->step_rec;
    for (uint32_t k = 0; k < max && w->state == EMU_WARP_READY; k++) {
        uint64_t before = l->insns;
        EmuStatus st = emu_warp_step(cta, w, rec);
        if (l->insns != before) {
            l->step_hook(l->step_hook_ctx, cta, w, rec);
        }
        if (st != EMU_OK) {
            return st;
        }
    }
    return EMU_OK;
}

static EmuStatus run_resident(EmuLaunch *l, EmuCta *ctas, uint32_t n)
{
    uint64_t last = l->progress;
    uint32_t quiet = 0;
    uint32_t limit = l->dev->cfg.watchdog_rounds ? l->dev->cfg.watchdog_rounds
                                                 : 1000;
    uint64_t saved = 0, power = 1, lam = 0;
    bool have_saved = false;
    /* sampling: at least 8 rounds and `budget` warp instructions after
     * the previous sample (see below) */
    uint32_t since = 0;
    uint64_t sample_insns = 0, budget = 0;
    for (;;) {
        bool left = false, ran = false;
        for (uint32_t c = 0; c < n; c++) {
            EmuCta *cta = &ctas[c];
            for (uint32_t wi = 0; wi < cta->nwarps; wi++) {
                EmuWarp *w = &cta->warps[wi];
                if (w->state == EMU_WARP_EXITED) {
                    continue;
                }
                left = true;
                if (w->state == EMU_WARP_READY) {
                    ran = true;
                    EmuStatus st = l->step_hook
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
        if (!ran) {
            return report_stuck(l, ctas, n, false);
        }
        if (l->progress != last) {
            last = l->progress;
            quiet = 0;
            have_saved = false;
            since = 0;
            budget = 0;
            continue;
        }
        if (quiet < limit) {
            quiet++;
            continue;
        }
        if (quiet == limit) {
            mbar_mark(ctas, n);
        } else if (quiet == 2ull * limit &&
                   mbar_all_stuck(ctas, n, limit)) {
            return report_stuck(l, ctas, n, true);
        }
        /* Brent's steps run from one sample to the next round boundary
         * that is at least 8 rounds and `budget` warp instructions later,
         * where budget is twice the words hashed at the previous sample:
         * a deterministic function of the sampled state (so Brent's
         * method still finds every cycle), and the hashing stays a small
         * fraction of the work when the warps hold many registers (a long
         * compute loop that writes no memory would otherwise spend ~15%
         * of its time here). */
        quiet++;
        if (++since < 8 || l->insns - sample_insns < budget) {
            continue;
        }
        since = 0;
        uint64_t words;
        uint64_t h = hash_state(ctas, n, &words);
        sample_insns = l->insns;
        budget = 2 * words;
        if (have_saved && h == saved) {
            return report_stuck(l, ctas, n, true);
        }
        lam++;
        if (!have_saved || lam == power) {
            saved = h;
            have_saved = true;
            power *= 2;
            lam = 0;
        }
    }
}

/* The linear CTA index of rank r of cluster ci (clusters and ranks both
 * x-fastest, see emu/cluster.h). */
static uint32_t member(const EmuLaunch *l, uint64_t ci, uint32_t r)
{
    const uint32_t *c = l->cluster, *g = l->grid;
    uint32_t nx = g[0] / c[0], ny = g[1] / c[1];
    uint32_t id[3] = {
        (uint32_t)(ci % nx) * c[0] + r % c[0],
        (uint32_t)(ci / nx % ny) * c[1] + r / c[0] % c[1],
        (uint32_t)(ci / nx / ny) * c[2] + r / (c[0] * c[1]),
    };
    return id[0] + g[0] * (id[1] + g[1] * id[2]);
}

/* Run CTAs of `count` consecutive clusters from cluster first, all
 * resident together (a cooperative launch runs every cluster at once;
 * otherwise each cluster runs alone, CTAs of one cluster interleaved). */
static EmuStatus run_clusters(EmuLaunch *l, uint64_t first, uint64_t count)
{
    uint32_t cs = emu_cluster_size(l);
    uint64_t total = count * cs;
    EmuCta *ctas = calloc(total, sizeof(*ctas));
    EmuCta **ptrs = calloc(total, sizeof(*ptrs));
    EmuCluster *cls = calloc(count, sizeof(*cls));
    EmuStatus st = ctas && ptrs && cls ? EMU_OK : EMU_ERR_OUT_OF_MEMORY;
    uint64_t n = 0;
    for (; st == EMU_OK && n < total; n++) {
        EmuCluster *cl = &cls[n / cs];
        st = emu_cta_init(l, member(l, first + n / cs, (uint32_t)(n % cs)),
                          &ctas[n]);
        if (st != EMU_OK) {
            break;
        }
        ptrs[n] = &ctas[n];
        cl->ctas = &ptrs[n - n % cs];
        cl->nctas = cs;
        ctas[n].cluster = cl;
    }
    if (st == EMU_OK) {
        st = run_resident(l, ctas, (uint32_t)total);
    }
    for (uint64_t c = 0; c < n; c++) {
        emu_cta_fini(&ctas[c]);
    }
    free(ctas);
    free(ptrs);
    free(cls);
    return st;
}

/* Cooperative launch: every CTA resident, round-robin over all. */
static EmuStatus run_cooperative(EmuLaunch *l, uint64_t total)
{
    if (total > 65536) {
        return EMU_ERR_LAUNCH_CONFIG;
    }
    EmuMemory *mem = l->dev->mem;
    l->coop_ws = emu_mem_alloc(mem, 64, EMU_ALLOC_DEVICE,
                               "grid sync workspace");
    if (!l->coop_ws) {
        return EMU_ERR_OUT_OF_MEMORY;
    }
    EmuStatus st = run_clusters(l, 0, total / emu_cluster_size(l));
    emu_mem_release(mem, l->coop_ws);
    return st;
}

static EmuStatus run_grid(EmuLaunch *l)
{
    uint64_t total = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    uint32_t cs = emu_cluster_size(l);
    if (l->cooperative) {
        return run_cooperative(l, total);
    }
    if (cs > 1 || l->explicit_cluster) {
        for (uint64_t ci = 0; ci < total / cs; ci++) {
            EmuStatus st = run_clusters(l, ci, 1);
            if (st != EMU_OK) {
                return st;
            }
        }
        return EMU_OK;
    }
    for (uint64_t c = 0; c < total; c++) {
        EmuCta cta;
        EmuStatus st = emu_cta_init(l, (uint32_t)c, &cta);
        if (st != EMU_OK) {
            return st;
        }
        /* a cluster of one, for barrier.cluster and mapa */
        EmuCta *self = &cta;
        EmuCluster one = { &self, 1, 0 };
        cta.cluster = &one;
        st = run_resident(l, &cta, 1);
        emu_cta_fini(&cta);
        if (st != EMU_OK) {
            return st;
        }
    }
    return EMU_OK;
}

EmuStatus emu_launch_run(EmuLaunch *l)
{
    if (!l->step_hook) {
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
    free(rec);
    return emu_devrt_finish(l, st);
}
