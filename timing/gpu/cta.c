/*
 * timing/gpu/cta.c: CTA dispatch and retirement (gpu.h).
 *
 * A CTA holds threads, warps (one SM warp slot each, the lowest free;
 * slot % sched.per_sm picks its scheduler), registers and shared memory
 * by the occupancy calculator's rules (timing/lib/occupancy.h) and one
 * of the SM's CTA slots.  CTAs are placed round robin over the SMs, each
 * on the first SM from the one after the last placement that has room;
 * a cluster's CTAs go together onto the SMs of one GPC (gpc.sms
 * consecutive SMs; the GPCs are tried round robin), spread one per SM
 * in turn, as the CUDA programming guide describes clusters ("Thread
 * Block Clusters": co-scheduled on one GPC); a cooperative grid goes
 * whole onto the device.  A CTA, cluster or grid that cannot fit an
 * empty device is placed anyway, alone (one log line), so that every
 * kernel the emulator runs also runs timed.  A CTA retires once its
 * warps exited and every result and memory request of theirs is done.
 */
#include "config.h"

#include <stdlib.h>

#include "timing/gpu/gpu.h"

GpuSm *gpu_sm_new(const GpuConfig *c, uint32_t id)
{
    GpuSm *sm = calloc(1, sizeof *sm);
    if (!sm) {
        return NULL;
    }
    sm->id = id;
    sm->nsched = (uint32_t)c->sched_per_sm;
    sm->sched = calloc(sm->nsched, sizeof *sm->sched);
    if (!sm->sched ||
        tm_slots_init(&sm->slots, (uint32_t)c->occ.max_warps) != 0) {
        gpu_sm_free(sm);
        return NULL;
    }
    for (uint32_t k = 0; k < sm->nsched; k++) {
        GpuSched *sc = &sm->sched[k];
        sc->idx = k;
        for (unsigned u = 0; u < PTXEMU_TM_UNIT_COUNT; u++) {
            sc->ufree[u] = calloc(2 * c->unit[u].count, sizeof(uint64_t));
            if (!sc->ufree[u]) {
                gpu_sm_free(sm);
                return NULL;
            }
        }
    }
    return sm;
}

static void cta_free(Gpu *g, GpuSm *sm, GpuCta *c);

void gpu_sm_free(GpuSm *sm)
{
    if (!sm) {
        return;
    }
    while (sm->ctas) {
        GpuCta *c = sm->ctas;
        sm->ctas = c->next;
        cta_free(NULL, NULL, c);
    }
    for (uint32_t k = 0; sm->sched && k < sm->nsched; k++) {
        for (unsigned u = 0; u < PTXEMU_TM_UNIT_COUNT; u++) {
            free(sm->sched[k].ufree[u]);
        }
        gpu_oc_free(sm->sched[k].oc);
        free(sm->sched[k].w);
        free(sm->sched[k].order);
        free(sm->sched[k].lb);
    }
    free(sm->sched);
    tm_slots_fini(&sm->slots);
    free(sm->fq);
    free(sm->done);
    tm_map_free(&sm->expand);
    free(sm->txn);
    free(sm->acc);
    free(sm);
}

/* A scheduler's warps stay in age order: new ones are the youngest.
 * Each warp points at its entry of lb, which moves with it. */
static int sched_add(GpuSched *sc, GpuWarp *w)
{
    if (sc->nw == sc->capw) {
        uint32_t cap = sc->capw ? sc->capw * 2 : 16;
        GpuWarp **a = realloc(sc->w, cap * sizeof *a);
        if (!a) {
            return -1;
        }
        sc->w = a;
        uint32_t *o = realloc(sc->order, 2 * cap * sizeof *o);
        if (!o) {
            return -1;
        }
        sc->order = o;
        GpuLb *lb = realloc(sc->lb, cap * sizeof *lb);
        if (!lb) {
            return -1;
        }
        sc->lb = lb;
        sc->capw = cap;
        for (uint32_t i = 0; i < sc->nw; i++) {
            sc->w[i]->lbp = &sc->lb[i];
        }
    }
    sc->lb[sc->nw] = (GpuLb){0, GPU_NEVER, 0};
    w->lbp = &sc->lb[sc->nw];
    sc->w[sc->nw++] = w;
    sc->order_ok = false;
    return 0;
}

static void sched_del(GpuSched *sc, GpuWarp *w)
{
    if (sc->last_w == w) {
        sc->last_w = NULL; /* gto then starts from the oldest */
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < sc->nw; i++) {
        if (sc->w[i] != w) {
            sc->lb[k] = sc->lb[i];
            sc->w[i]->lbp = &sc->lb[k];
            sc->w[k++] = sc->w[i];
        }
    }
    sc->nw = k;
    sc->order_ok = false;
    w->lbp = NULL;
}

/* Room in sm->done for `need` CTAs: 0, or -1 when out of memory. */
static int done_room(GpuSm *sm, uint32_t need)
{
    if (need <= sm->capdone) {
        return 0;
    }
    uint32_t cap = sm->capdone ? 2 * sm->capdone : 8;
    cap = cap < need ? need : cap;
    GpuCta **a = realloc(sm->done, cap * sizeof *a);
    if (!a) {
        return -1;
    }
    sm->done = a;
    sm->capdone = cap;
    return 0;
}

void gpu_sm_cta_done(GpuSm *sm, GpuCta *c)
{
    sm->done[sm->ndone++] = c; /* (room made when c was placed) */
}

static void cta_free(Gpu *g, GpuSm *sm, GpuCta *c)
{
    if (sm && c->nwarps && c->nexited == c->nwarps) {
        for (uint32_t i = 0; i < sm->ndone; i++) {
            if (sm->done[i] == c) {
                sm->done[i] = sm->done[sm->ndone - 1];
                break;
            }
        }
        sm->ndone--;
    }
    for (uint32_t i = 0; i < c->nwarps; i++) {
        GpuWarp *w = &c->w[i];
        if (sm && tm_slots_give(&sm->slots, w->slot, w)) {
            sched_del(&sm->sched[w->slot % sm->nsched], w);
        }
        if (g) {
            tm_map_del(&g->warps, tm_map_ptr(w->h));
            tm_map_del(&g->fetching, tm_map_ptr(w));
        }
        uint32_t k = 0; /* its queued fetch, if any, is dropped */
        for (uint32_t j = 0; sm && j < sm->nfq; j++) {
            if (sm->fq[j] != w) {
                sm->fq[k++] = sm->fq[j];
            }
        }
        if (sm) {
            sm->nfq = k;
        }
        gpu_sb_free(&w->sb);
    }
    free(c->w);
    free(c);
}

static int take_slot(GpuSm *sm, GpuWarp *w)
{
    int64_t i = tm_slots_take(&sm->slots, w);
    if (i < 0 || sched_add(&sm->sched[i % sm->nsched], w) != 0) {
        return -1;
    }
    w->slot = (uint32_t)i;
    return 0;
}

static int oom(Gpu *g)
{
    g->api->error(g->h, "gpu: out of memory");
    return PTXEMU_TM_ERROR;
}

/* Place the grid's next CTA on sm: 1 placed, 0 none left, negative. */
static int place_on(Gpu *g, GpuSm *sm)
{
    GpuKernel *kn = g->kern;
    ptxemu_tm_cta *h;
    ptxemu_tm_warp *const *ws;
    uint32_t n;
    /* every CTA on sm may finish: room for all in sm->done, so that a
     * warp's exit (perhaps on a helper thread) never allocates */
    if (done_room(sm, sm->used.ctas + 1) != 0) {
        return oom(g);
    }
    int rc = tm_kern_cta_next(kn, g->api, g->h, sm->id, &h, &ws, &n);
    if (rc <= 0) {
        return rc;
    }
    GpuCta *c = calloc(1, sizeof *c);
    if (!c || (n && !(c->w = calloc(n, sizeof *c->w)))) {
        free(c);
        return oom(g);
    }
    c->h = h;
    c->kern = kn;
    c->sm = sm->id;
    c->smp = sm;
    c->use = kn->need;
    for (uint32_t i = 0; i < n; i++) {
        GpuWarp *w = &c->w[i];
        w->h = ws[i];
        w->cta = c;
        w->slot = UINT32_MAX;
        w->age = w->pool_seq = ++g->next_age;
        c->nwarps = i + 1;
        if (take_slot(sm, w) != 0 ||
            tm_map_put(&g->warps, tm_map_ptr(w->h), w) != 0) {
            cta_free(g, sm, c);
            return oom(g);
        }
    }
    gpu_poke_sm(g, sm->id);
    gpu_sm_settle(g, sm, kn->now);
    tm_occ_add(&sm->used, &c->use, +1);
    c->next = sm->ctas;
    sm->ctas = c;
    tm_kern_placed(kn);
    g->st_ctas++;
    return 1;
}

static uint64_t room(const Gpu *g, const GpuSm *sm)
{
    return tm_occ_room(&g->occ_k, &sm->used, &g->kern->need);
}

/* Place `group` CTAs on SMs [lo, hi), one per SM in turn from next_sm
 * (force: ignoring the limits).  0, or negative. */
static int fill(Gpu *g, uint32_t lo, uint32_t hi, uint64_t group, bool force)
{
    GpuKernel *kn = g->kern;
    uint32_t i = kn->next_sm >= lo && kn->next_sm < hi ? kn->next_sm : lo;
    uint32_t idle = 0;
    while (group > 0 && !kn->grid_done && idle < hi - lo) {
        GpuSm *sm = g->sm[i];
        i = i + 1 == hi ? lo : i + 1;
        if (!force && room(g, sm) == 0) {
            idle++;
            continue;
        }
        int rc = place_on(g, sm);
        if (rc < 0) {
            return rc;
        }
        idle = 0;
        group -= (uint64_t)rc;
        kn->next_sm = i;
    }
    return 0;
}

/* One CTA, cluster or cooperative grid: 1 placed, 0 not now. */
static int place_group(Gpu *g, uint64_t group)
{
    GpuKernel *kn = g->kern;
    const uint32_t n = g->active_sms;
    uint32_t span = n;
    if (group > 1 && !kn->k.cooperative && g->c.gpc_sms < n) {
        span = (uint32_t)g->c.gpc_sms;
    }
    uint32_t ndom = (n + span - 1) / span;
    for (uint32_t d0 = 0; d0 < ndom; d0++) {
        uint32_t d = (kn->next_gpc + d0) % ndom;
        uint32_t lo = d * span, hi = lo + span < n ? lo + span : n;
        uint64_t total = 0;
        for (uint32_t i = lo; i < hi && total < group; i++) {
            uint64_t r = room(g, g->sm[i]);
            total += r > group ? group : r;
        }
        if (total >= group) {
            if (ndom > 1) {
                kn->next_gpc = (d + 1) % ndom;
            }
            int rc = fill(g, lo, hi, group, false);
            return rc < 0 ? rc : 1;
        }
    }
    if (kn->resident) {
        return 0;
    }
    if (!kn->warned) {
        kn->warned = true;
        g->api->log(g->h, "gpu: a CTA (or cluster) exceeds an SM's limits; "
                          "placed anyway, alone");
    }
    int rc = fill(g, 0, n, group, true);
    return rc < 0 ? rc : 1;
}

int gpu_cta_place_all(Gpu *g)
{
    /* Room appears only when a CTA leaves an SM or a kernel begins or
     * ends (both clear place_full): until then the answer is the last
     * one, without asking every SM again each cycle. */
    if (g->place_full) {
        return 0;
    }
    GpuKernel *kn = g->kern;
    while (!kn->grid_done) {
        int rc = place_group(g, tm_kern_group(kn));
        if (rc <= 0) {
            g->place_full = rc == 0;
            return rc;
        }
    }
    return 0;
}

static uint64_t retire_at(const GpuCta *c)
{
    if (c->nexited < c->nwarps) {
        return GPU_NEVER;
    }
    uint64_t t = c->last_exit + 1;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        const GpuWarp *w = &c->w[i];
        if (w->mem_out || w->async_out || w->oc_out || w->ib.inflight) {
            return GPU_NEVER;
        }
        t = gpu_max(t, gpu_max(w->drain, gpu_sb_drain(&w->sb)));
    }
    return t;
}

uint64_t gpu_cta_retire_at(GpuCta *c)
{
    if (!c->retire_ok) {
        c->retire = retire_at(c);
        c->retire_ok = true;
    }
    return c->retire;
}

uint64_t gpu_sm_retire_at(const Gpu *g, GpuSm *sm)
{
    if (!sm->ndone) {
        return GPU_NEVER; /* every CTA has a live warp */
    }
    if (!sm->retire_ok) {
        uint64_t r = GPU_NEVER;
        for (uint32_t i = 0; i < sm->ndone; i++) {
            if (sm->done[i]->kern == g->kern) {
                r = gpu_min(r, gpu_cta_retire_at(sm->done[i]));
            }
        }
        sm->retire_min = r;
        sm->retire_ok = true;
    }
    return sm->retire_min;
}

void gpu_sm_retire(Gpu *g, GpuSm *sm, uint64_t now, bool drop)
{
    if (!drop && gpu_sm_retire_at(g, sm) > now) {
        return; /* no CTA can retire yet */
    }
    sm->retire_ok = false;
    for (GpuCta **pp = &sm->ctas; *pp;) {
        GpuCta *c = *pp;
        if (c->kern != g->kern || (!drop && gpu_cta_retire_at(c) > now)) {
            pp = &c->next;
            continue;
        }
        *pp = c->next;
        if (!drop) {
            g->api->cta_retire(g->h, c->h);
        }
        c->kern->resident--;
        gpu_sm_settle(g, sm, g->kern->now);
        tm_occ_add(&sm->used, &c->use, -1);
        g->place_full = false;
        cta_free(g, sm, c);
    }
}

void gpu_sm_drop_all(Gpu *g, GpuSm *sm)
{
    sm->retire_ok = false;
    sm->look = 0;
    while (sm->ctas) {
        GpuCta *c = sm->ctas;
        sm->ctas = c->next;
        tm_occ_add(&sm->used, &c->use, -1);
        g->place_full = false;
        cta_free(g, sm, c); /* its kernel's record may be gone */
    }
}
