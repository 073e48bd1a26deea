/*
 * emu/grid.c: a launch's CTAs and the watchdog, for any driver (see
 * emu/grid.h for the contract).
 */
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include "emu/client.h"
#include "emu/cluster.h"
#include "emu/grid.h"
#include "emu/its.h"
#include "emu/panic.h"
#include "ptx/opcode.h"


/* A resident cluster: its CTAs (one for a launch without clusters, which
 * still runs as a cluster of one for barrier.cluster and mapa). */
typedef struct GridCluster {
    EmuCluster cl;
    uint32_t retired;
    EmuCta *ctas[];               /* cl.nctas, allocated with it */
} GridCluster;

struct EmuGrid {
    EmuLaunch *l;
    uint64_t total;               /* CTAs in the grid */
    uint64_t next;                /* next cluster index to make */
    uint32_t cs;                  /* CTAs per cluster */
    GridCluster *open;            /* the cluster being handed out */
    uint32_t handed;              /* of its CTAs, handed out so far */
    EmuCta **res;                 /* resident CTAs */
    uint32_t nres, capres;
    uint32_t *order;              /* emu_grid_resume: the linear indices
                                     to hand out first (owned), then */
    uint32_t norder;
    uint64_t from;                /* those from `from` on */
};

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

/* The hash of the resident CTAs' state; *words: 64-bit words hashed. */
static uint64_t hash_state(EmuCta *const *ctas, uint32_t n, uint64_t *words)
{
    uint64_t nw = 0;
    uint64_t h = 0x243f6a8885a308d3ull;
    for (uint32_t c = 0; c < n; c++) {
        const EmuCta *cta = ctas[c];
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

/* Lanes of w that wait at the reconvergence point of its running path
 * (for the livelock report): 0 when none; *rpc is that point. */
static uint32_t reconv_waiters(const EmuWarp *w, uint32_t *rpc)
{
    const EmuSimtEntry *t = &w->stack[w->depth - 1];
    uint32_t base = w->nframes > 1 ? w->frames[w->nframes - 1].stack_base
                                   : 0;
    *rpc = t->rpc;
    if (t->rpc == EMU_NOPC) {
        return 0;
    }
    uint32_t j = w->depth - 1, above = t->mask;
    while (j-- > base && w->stack[j].rpc == t->rpc) {
        if (w->stack[j].npc != t->rpc) {
            above |= w->stack[j].mask;  /* a sibling still on its way */
        }
    }
    if (j == UINT32_MAX || j < base) {
        return 0;
    }
    return w->stack[j].mask & ~above & ~w->exited;
}

/* The fault naming the stuck warps (up to five, with pc, line and mask):
 * kind 0 deadlock, 1 livelock, 2 the launch's time limit. */
static EmuStatus report(EmuLaunch *l, EmuCta *const *ctas, uint32_t n,
                        int how)
{
    bool livelock = how == 1;
    char buf[384];
    size_t o = 0;
    char wait[320] = "";
    EmuCta *fc = NULL;
    EmuWarp *fw = NULL;
    unsigned shown = 0, total = 0;
    bool polling = false;
    for (uint32_t c = 0; c < n; c++) {
        for (uint32_t wi = 0; wi < ctas[c]->nwarps; wi++) {
            EmuWarp *w = &ctas[c]->warps[wi];
            if (w->state == EMU_WARP_EXITED || w->depth == 0) {
                continue;
            }
            total++;
            polling |= w->mbar_poll != 0;
            if (!fw) {
                fc = ctas[c];
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
                char src[96], srcs[104] = "";
                if (*emu_src_pos(l->mod->ir, f, e->npc, src, sizeof(src))) {
                    snprintf(srcs, sizeof(srcs), ", %s", src);
                }
                int k = snprintf(buf + o, sizeof(buf) - o,
                                 "%swarp %u of CTA %u at pc %u (line %u%s, "
                                 "mask 0x%x%s%s)", shown ? "; " : "", w->id,
                                 ctas[c]->linear, e->npc, line, srcs, e->mask,
                                 w->state != EMU_WARP_AT_BARRIER ? ""
                                 : w->barrier_id == EMU_CLUSTER_BARRIER
                                 ? ", at the cluster barrier"
                                 : ", at a barrier", poll);
                o += k > 0 ? (size_t)k : 0;
                uint32_t rpc, waiters = reconv_waiters(w, &rpc);
                if (livelock && waiters && !wait[0] && rpc < f->ninsns) {
                    bool ipdom = l->mod->reconv ==
                                 EMU_RECONV_IPDOM;
                    char rsrc[96], rsrcs[104] = "";
                    if (*emu_src_pos(l->mod->ir, f, rpc, rsrc,
                                     sizeof(rsrc))) {
                        snprintf(rsrcs, sizeof(rsrcs), ", %s", rsrc);
                    }
                    snprintf(wait, sizeof(wait),
                             "; lanes 0x%x of warp %u wait at the "
                             "reconvergence point pc %u (line %u%s) for the "
                             "spinning ones%s", waiters, w->id, rpc,
                             f->insns[rpc].loc.line, rsrcs,
                             ipdom ? " (an intra-warp lock or producer/"
                                     "consumer needs independent thread "
                                     "scheduling: --reconvergence its)"
                                   : "");
                }
                uint32_t parked = w->its_parked & ~w->exited;
                for (uint32_t d = w->depth; livelock && parked && !wait[0] &&
                     d-- > 0;) {
                    const EmuSimtEntry *pe = &w->stack[d];
                    if ((pe->mask & parked) && pe->npc < f->ninsns) {
                        char psrc[96], psrcs[104] = "";
                        if (*emu_src_pos(l->mod->ir, f, pe->npc, psrc,
                                         sizeof(psrc))) {
                            snprintf(psrcs, sizeof(psrcs), ", %s", psrc);
                        }
                        snprintf(wait, sizeof(wait),
                                 "; lanes 0x%x of warp %u wait at %s pc %u "
                                 "(line %u%s) for members of the spinning "
                                 "path (its membermask)",
                                 pe->mask & parked, w->id,
                                 ptx_opinfo(f->insns[pe->npc].op)->name,
                                 pe->npc, f->insns[pe->npc].loc.line, psrcs);
                    }
                }
                shown++;
            }
        }
    }
    if (!fw) {
        return EMU_OK;
    }
    /* the clients (synccheck) see the stuck CTAs before they go */
    for (uint32_t c = 0; how != 2 && c < n; c++) {
        if (!emu_cta_done(ctas[c])) {
            EmuEvent ev = { EMU_EV_DEADLOCK, l, ctas[c], NULL, 0, 0, 0 };
            emu_client_event(l->dev, &ev);
        }
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
    if (how == 2) {
        emu_fault(&x, EMU_ERR_TIMEOUT, lane, 0, 0, PTX_SPACE_NONE,
                  "time limit of %llu ms reached (the GPU watchdog's "
                  "timeout; --time-limit 0 lifts it): %u warp(s) still "
                  "running: %s%s",
                  (unsigned long long)l->dev->cfg.time_limit_ms, total, buf,
                  shown < total ? "; ..." : "");
        return EMU_ERR_TIMEOUT;
    }
    const char *kind =
        livelock && polling
            ? "mbarrier deadlock (the warps poll for a phase that cannot "
              "complete)"
        : livelock ? "SIMT deadlock (the warps repeat the same state, or "
                     "poll memory with only counters changing, without "
                     "progress)"
                   : "deadlock (warps wait at barriers that cannot "
                     "complete)";
    emu_fault(&x, EMU_ERR_DEADLOCK, lane, 0, 0, PTX_SPACE_NONE,
              "%s: %u warp(s) cannot make progress: %s%s%s", kind, total,
              buf, shown < total ? "; ..." : "", wait);
    return EMU_ERR_DEADLOCK;
}

EmuStatus emu_watch_report(EmuLaunch *l, EmuCta *const *ctas, uint32_t n,
                          bool livelock)
{
    return report(l, ctas, n, livelock ? 1 : 0);
}

static uint64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Start (mark) or judge the mbarrier rule's window; see the top. */
static void mbar_mark(EmuCta *const *ctas, uint32_t n)
{
    for (uint32_t c = 0; c < n; c++) {
        for (uint32_t wi = 0; wi < ctas[c]->nwarps; wi++) {
            EmuWarp *w = &ctas[c]->warps[wi];
            w->mbar_mark = w->mbar_fails;
        }
    }
}

/* Every warp that can run spins: its running path was last seen taking
 * a back edge of a loop that polls memory with nothing changed but
 * registers that step by constant amounts (emu/its.c: a retry counter),
 * which no state hash sees repeat. */
static bool spin_all_stuck(EmuCta *const *ctas, uint32_t n)
{
    bool spinning = false;
    for (uint32_t c = 0; c < n; c++) {
        for (uint32_t wi = 0; wi < ctas[c]->nwarps; wi++) {
            const EmuWarp *w = &ctas[c]->warps[wi];
            if (w->state == EMU_WARP_EXITED ||
                w->state == EMU_WARP_AT_BARRIER) {
                continue;
            }
            if (!w->depth || !w->its_spin_mask ||
                w->its_spin_depth != w->depth ||
                w->stack[w->depth - 1].mask != w->its_spin_mask) {
                return false;
            }
            spinning = true;
        }
    }
    return spinning;
}

static bool mbar_all_stuck(EmuCta *const *ctas, uint32_t n,
                           uint32_t rounds)
{
    bool polling = false;
    for (uint32_t c = 0; c < n; c++) {
        for (uint32_t wi = 0; wi < ctas[c]->nwarps; wi++) {
            const EmuWarp *w = &ctas[c]->warps[wi];
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

void emu_watch_init(EmuWatch *w, const EmuLaunch *l)
{
    memset(w, 0, sizeof(*w));
    w->last = l->progress;
    w->power = 1;
    w->mark_stamp = -1;
    w->limit = l->dev->cfg.watchdog_rounds ? l->dev->cfg.watchdog_rounds
                                           : 1000;
}

/* The host's stamp: -1 when a host thread may write host-visible
 * memory now (or nobody can say), else a value that changes whenever
 * one may have (EmuDevice.host_stamp). */
static int64_t host_stamp(const EmuLaunch *l)
{
    const EmuDevice *d = l->dev;
    return d->host_stamp ? d->host_stamp(d->host_stamp_arg) : -1;
}

/* Warps that keep issuing without progress: reported, unless the driver
 * can make more CTAs resident (one of them may be what they wait for).
 * When the warps read memory the host may write while the kernel runs
 * (managed or registered host memory, with asynchronous streams), a
 * repeated state proves something only if no host thread could have
 * written meanwhile: the callers check the host's stamp first. */
static EmuStatus livelock(EmuWatch *w, EmuLaunch *l, EmuCta *const *ctas,
                          uint32_t n)
{
    if (w->can_grow) {
        w->stuck = true;
        return EMU_ERR_DEADLOCK;
    }
    return emu_watch_report(l, ctas, n, true);
}

EmuStatus emu_watch_round(EmuWatch *w, EmuLaunch *l, EmuCta *const *ctas,
                          uint32_t n, bool ran)
{
    if (!ran) {
        return emu_watch_report(l, ctas, n, false);
    }
    /* the launch's wall-clock budget, looked at every 64th round */
    uint64_t limit = l->dev->cfg.time_limit_ms;
    if (limit && (++w->rounds & 63) == 0) {
        if (!l->start_ms) {
            l->start_ms = mono_ms();
        } else if (mono_ms() - l->start_ms >= limit) {
            return report(l, ctas, n, 2);
        }
    }
    if (l->progress != w->last) {
        w->last = l->progress;
        w->quiet = 0;
        w->have_saved = false;
        w->since = 0;
        w->budget = 0;
        return EMU_OK;
    }
    if (l->mod->reconv == EMU_RECONV_ITS &&
        w->quiet + 1 >= EMU_ITS_QUIET) {
        /* independent thread scheduling: lanes waiting for a path that
         * spins go on without it (emu/its.h) */
        bool released = false;
        for (uint32_t c = 0; c < n; c++) {
            for (uint32_t wi = 0; wi < ctas[c]->nwarps; wi++) {
                released |= emu_its_release(&ctas[c]->warps[wi]);
            }
        }
        if (released) {
            w->quiet = 0;
            w->have_saved = false;
            w->since = 0;
            w->budget = 0;
            return EMU_OK;
        }
    }
    if (w->quiet < w->limit) {
        w->quiet++;
        return EMU_OK;
    }
    if (w->quiet == w->limit) {
        mbar_mark(ctas, n);
        w->mark_stamp = l->reads_host ? host_stamp(l) : -1;
    } else if (w->quiet == 2ull * w->limit &&
               (mbar_all_stuck(ctas, n, w->limit) ||
                spin_all_stuck(ctas, n)) &&
               (!l->reads_host ||
                (w->mark_stamp >= 0 && host_stamp(l) == w->mark_stamp))) {
        return livelock(w, l, ctas, n);
    }
    /* Brent's steps run from one sample to the next round boundary that
     * is at least 8 rounds and `budget` warp instructions later, where
     * budget is twice the words hashed at the previous sample: a
     * deterministic function of the sampled state (so Brent's method
     * still finds every cycle), and the hashing stays a small fraction of
     * the work when the warps hold many registers (a long compute loop
     * that writes no memory would otherwise spend ~15% of its time
     * here). */
    w->quiet++;
    if (++w->since < 8 || l->insns - w->sample_insns < w->budget) {
        return EMU_OK;
    }
    w->since = 0;
    uint64_t words;
    uint64_t h = hash_state(ctas, n, &words);
    w->sample_insns = l->insns;
    w->budget = 2 * words;
    if (l->reads_host) {
        /* the host's stamp is part of the state: equal hashes then also
         * mean no host thread could have written in between */
        int64_t stamp = host_stamp(l);
        if (stamp < 0) {
            w->have_saved = false;
            return EMU_OK;
        }
        h ^= (uint64_t)stamp * 0x9e3779b97f4a7c15ull;
    }
    if (w->have_saved && h == w->saved) {
        return livelock(w, l, ctas, n);
    }
    w->lam++;
    if (!w->have_saved || w->lam == w->power) {
        w->saved = h;
        w->have_saved = true;
        w->power *= 2;
        w->lam = 0;
    }
    return EMU_OK;
}

/* ------------------------------------------------------------ the grid */

EmuStatus emu_grid_open(EmuLaunch *l, EmuGrid **out)
{
    *out = NULL;
    EmuGrid *g = calloc(1, sizeof(*g));
    if (!g) {
        return EMU_ERR_OUT_OF_MEMORY;
    }
    g->l = l;
    g->total = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    g->cs = emu_cluster_size(l);
    if (l->cooperative) {
        if (g->total > 65536) {
            free(g);
            return EMU_ERR_LAUNCH_CONFIG;
        }
        l->coop_ws = emu_mem_alloc(l->dev->mem, 64, EMU_ALLOC_DEVICE,
                                   "grid sync workspace");
        if (!l->coop_ws) {
            free(g);
            return EMU_ERR_OUT_OF_MEMORY;
        }
        /* zeroed by the driver before the grid starts (a written value,
         * for the clients that watch host writes: initcheck) */
        (void)emu_mem_set(l->dev->mem, l->coop_ws, 0, 64);
    }
    *out = g;
    return EMU_OK;
}

/* The linear CTA index of rank r of cluster ci (clusters and ranks both
 * x-fastest, see emu/cluster.h). */
static uint32_t member(const EmuGrid *gr, uint64_t ci, uint32_t r)
{
    const EmuLaunch *l = gr->l;
    if (gr->order) {              /* resumed: clusters of one */
        return ci < gr->norder ? gr->order[ci]
                               : (uint32_t)(gr->from + ci - gr->norder);
    }
    const uint32_t *c = l->cluster, *g = l->grid;
    uint32_t nx = g[0] / c[0], ny = g[1] / c[1];
    uint32_t id[3] = {
        (uint32_t)(ci % nx) * c[0] + r % c[0],
        (uint32_t)(ci / nx % ny) * c[1] + r / c[0] % c[1],
        (uint32_t)(ci / nx / ny) * c[2] + r / (c[0] * c[1]),
    };
    return id[0] + g[0] * (id[1] + g[1] * id[2]);
}

static void free_cluster(GridCluster *gc)
{
    for (uint32_t k = 0; k < gc->cl.nctas; k++) {
        if (gc->ctas[k]) {
            emu_cta_fini(gc->ctas[k]);
            free(gc->ctas[k]);
        }
    }
    free(gc);
}

/* Make cluster g->next (all its CTAs). */
static EmuStatus make_cluster(EmuGrid *g)
{
    uint32_t cs = g->cs;
    GridCluster *gc = calloc(1, sizeof(*gc) + cs * sizeof(EmuCta *));
    if (!gc) {
        return EMU_ERR_OUT_OF_MEMORY;
    }
    gc->cl.ctas = gc->ctas;
    gc->cl.nctas = cs;
    for (uint32_t r = 0; r < cs; r++) {
        EmuCta *cta = malloc(sizeof(*cta));
        EmuStatus st = cta ? emu_cta_init(g->l, member(g, g->next, r),
                                          cta)
                           : EMU_ERR_OUT_OF_MEMORY;
        if (st != EMU_OK) {
            free(cta);
            free_cluster(gc);
            return st;
        }
        cta->cluster = &gc->cl;
        gc->ctas[r] = cta;
    }
    g->next++;
    g->open = gc;
    g->handed = 0;
    return EMU_OK;
}

EmuStatus emu_grid_next(EmuGrid *g, uint32_t sm, EmuCta **out)
{
    *out = NULL;
    if (!g->open) {
        if (g->next * g->cs >= g->total) {
            return EMU_OK;
        }
        EmuStatus st = make_cluster(g);
        if (st != EMU_OK) {
            return st;
        }
    }
    if (g->nres == g->capres) {
        uint32_t cap = g->capres ? 2 * g->capres : 16;
        EmuCta **p = realloc(g->res, cap * sizeof(*p));
        if (!p) {
            return EMU_ERR_OUT_OF_MEMORY;
        }
        g->res = p;
        g->capres = cap;
    }
    EmuCta *cta = g->open->ctas[g->handed++];
    if (g->handed == g->open->cl.nctas) {
        g->open = NULL;
    }
    if (sm == EMU_SM_BY_INDEX) {
        sm = cta->linear % g->l->dev->cfg.num_sms;
    }
    cta->sm = sm;
    cta->clock = g->l->timed ? &cta->clock_sink : emu_sm_clock(g->l->sm_clock, sm);
    g->res[g->nres++] = cta;
    *out = cta;
    return EMU_OK;
}

uint64_t emu_grid_left(const EmuGrid *g)
{
    return g->total - g->next * g->cs +
           (g->open ? g->open->cl.nctas - g->handed : 0);
}

uint32_t emu_grid_cluster_pending(const EmuGrid *g)
{
    return g->open ? g->open->cl.nctas - g->handed : 0;
}

void emu_grid_retire(EmuGrid *g, EmuCta *cta)
{
    for (uint32_t k = 0; k < g->nres; k++) {
        if (g->res[k] == cta) {
            memmove(&g->res[k], &g->res[k + 1],
                    (g->nres - k - 1) * sizeof(*g->res));
            g->nres--;
            GridCluster *gc = (GridCluster *)cta->cluster;
            if (++gc->retired == gc->cl.nctas) {
                free_cluster(gc);
            }
            return;
        }
    }
    EMU_PANIC("emu_grid_retire: CTA %u is not resident", cta->linear);
}

uint32_t emu_grid_resident(const EmuGrid *g, EmuCta *const **ctas)
{
    *ctas = g->res;
    return g->nres;
}

bool emu_cta_done(const EmuCta *cta)
{
    for (uint32_t wi = 0; wi < cta->nwarps; wi++) {
        if (cta->warps[wi].state != EMU_WARP_EXITED) {
            return false;
        }
    }
    return true;
}

void emu_grid_close(EmuGrid *g)
{
    if (!g) {
        return;
    }
    GridCluster *open = g->open;
    g->open = NULL;
    if (open) {
        /* members never handed out count as retired */
        open->retired += open->cl.nctas - g->handed;
        if (open->retired == open->cl.nctas) {
            free_cluster(open);
        }
    }
    while (g->nres) {
        emu_grid_retire(g, g->res[g->nres - 1]);
    }
    free(g->res);
    free(g->order);
    if (g->l->cooperative && g->l->coop_ws) {
        emu_mem_release(g->l->dev->mem, g->l->coop_ws);
        g->l->coop_ws = 0;
    }
    free(g);
}

/* ------------------------------------------- the parallel driver's */

EmuStatus emu_grid_make_one(EmuLaunch *l, uint32_t linear, EmuCta **out)
{
    *out = NULL;
    GridCluster *gc = calloc(1, sizeof(*gc) + sizeof(EmuCta *));
    EmuCta *cta = malloc(sizeof(*cta));
    EmuStatus st = gc && cta ? emu_cta_init(l, linear, cta)
                             : EMU_ERR_OUT_OF_MEMORY;
    if (st != EMU_OK) {
        free(cta);
        free(gc);
        return st;
    }
    gc->cl.ctas = gc->ctas;
    gc->cl.nctas = 1;
    gc->ctas[0] = cta;
    cta->cluster = &gc->cl;
    *out = cta;
    return EMU_OK;
}

void emu_grid_drop(EmuCta *cta)
{
    free_cluster((GridCluster *)cta->cluster);
}

EmuStatus emu_grid_resume(EmuLaunch *l, EmuCta **adopt, uint32_t nadopt,
                          uint32_t *order, uint32_t norder, uint64_t from,
                          EmuGrid **out)
{
    *out = NULL;
    EmuGrid *g = calloc(1, sizeof(*g));
    uint32_t cap = nadopt ? nadopt : 1;
    EmuCta **res = malloc(cap * sizeof(*res));
    if (!g || !res) {
        free(g);
        free(res);
        free(order);
        return EMU_ERR_OUT_OF_MEMORY;
    }
    g->l = l;
    g->cs = 1;
    g->order = order;
    g->norder = norder;
    g->from = from;
    g->total = norder + ((uint64_t)l->grid[0] * l->grid[1] * l->grid[2] -
                         from);
    g->res = res;
    g->capres = cap;
    for (uint32_t k = 0; k < nadopt; k++) {
        g->res[g->nres++] = adopt[k];
    }
    *out = g;
    return EMU_OK;
}
