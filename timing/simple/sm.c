/*
 * timing/simple/sm.c: per-SM residency: what a CTA holds, whether more
 * fit, placing the grid's next CTA and retiring finished ones.
 *
 * A CTA holds its threads, its warps (one SM warp slot each: the lowest
 * free ones; slot % schedulers picks its scheduler), its registers
 * (regs_per_thread * 32 per warp rounded up to reg_alloc_unit, times its
 * warps) and its shared memory (static + dynamic + the per-CTA reserve,
 * rounded up to shared_alloc_unit); the CUDA occupancy calculator's
 * rules for compute capability 8.0.  It is retired when every warp has
 * exited and its last write and asynchronous operation are done.
 */
#include "config.h"

#include <stdlib.h>

#include "timing/simple/simple.h"

SimpleSm *simple_sm_new(uint32_t id, uint64_t nsched, uint64_t nslots)
{
    SimpleSm *sm = calloc(1, sizeof *sm);
    if (!sm) {
        return NULL;
    }
    sm->id = id;
    sm->sched = calloc(nsched, sizeof *sm->sched);
    if (!sm->sched || tm_slots_init(&sm->slots, (uint32_t)nslots) != 0) {
        simple_sm_free(sm);
        return NULL;
    }
    sm->nsched = (uint32_t)nsched;
    for (uint64_t k = 0; k < nsched; k++) {
        sm->sched[k].last = UINT32_MAX; /* first search starts at slot k */
    }
    return sm;
}

/* A scheduler's slot list: sorted insert and removal. */
static int list_add(SimpleSched *sc, uint32_t slot)
{
    if (sc->nws == sc->capws) {
        uint32_t cap = sc->capws ? sc->capws * 2 : 16;
        uint32_t *ws = realloc(sc->ws, cap * sizeof *ws);
        if (!ws) {
            return -1;
        }
        sc->ws = ws;
        sc->capws = cap;
    }
    uint32_t i = sc->nws;
    while (i > 0 && sc->ws[i - 1] > slot) {
        sc->ws[i] = sc->ws[i - 1];
        i--;
    }
    sc->ws[i] = slot;
    sc->nws++;
    return 0;
}

static void list_del(SimpleSched *sc, uint32_t slot)
{
    uint32_t i = 0;
    while (i < sc->nws && sc->ws[i] != slot) {
        i++;
    }
    if (i < sc->nws) {
        sc->nws--;
        for (; i < sc->nws; i++) {
            sc->ws[i] = sc->ws[i + 1];
        }
    }
}

static void cta_free(Simple *s, SimpleSm *sm, SimpleCta *c)
{
    for (uint32_t i = 0; i < c->nwarps; i++) {
        SimpleWarp *w = &c->w[i];
        if (sm && tm_slots_give(&sm->slots, w->slot, w)) {
            list_del(&sm->sched[w->slot % sm->nsched], w->slot);
        }
        if (s) {
            tm_map_del(&s->warps, tm_map_ptr(w->h));
        }
        simple_sb_free(&w->sb);
    }
    free(c->w);
    free(c);
}

void simple_sm_free(SimpleSm *sm)
{
    if (!sm) {
        return;
    }
    while (sm->ctas) {
        SimpleCta *c = sm->ctas;
        sm->ctas = c->next;
        cta_free(NULL, NULL, c);
    }
    for (uint32_t k = 0; sm->sched && k < sm->nsched; k++) {
        free(sm->sched[k].ws);
    }
    free(sm->sched);
    tm_slots_fini(&sm->slots);
    free(sm);
}

uint64_t simple_sm_room(const Simple *s, const SimpleSm *sm)
{
    TmOccUse need;
    tm_occ_need(&s->c.occ, &s->kern->k, &need);
    return tm_occ_room(&s->c.occ, &sm->used, &need);
}

static int take_slot(SimpleSm *sm, SimpleWarp *w)
{
    int64_t i = tm_slots_take(&sm->slots, w);
    if (i < 0 || list_add(&sm->sched[i % sm->nsched], (uint32_t)i) != 0) {
        return -1;
    }
    w->slot = (uint32_t)i;
    return 0;
}

static int oom(Simple *s)
{
    s->api->error(s->h, "simple: out of memory");
    return PTXEMU_TM_ERROR;
}

int simple_sm_place(Simple *s, SimpleSm *sm)
{
    ptxemu_tm_cta *h;
    ptxemu_tm_warp *const *ws;
    uint32_t n;
    SimpleKernel *kn = s->kern;
    int rc = tm_kern_cta_next(kn, s->api, s->h, sm->id, &h, &ws, &n);
    if (rc <= 0) {
        return rc;
    }
    SimpleCta *c = calloc(1, sizeof *c);
    if (!c || (n && !(c->w = calloc(n, sizeof *c->w)))) {
        free(c);
        return oom(s);
    }
    c->h = h;
    c->kern = kn;
    c->sm = sm->id;
    tm_occ_need(&s->c.occ, &kn->k, &c->use);
    for (uint32_t i = 0; i < n; i++) {
        SimpleWarp *w = &c->w[i];
        w->h = ws[i];
        w->cta = c;
        w->slot = UINT32_MAX;
        c->nwarps = i + 1;
        if (take_slot(sm, w) != 0 || tm_map_put(&s->warps, tm_map_ptr(w->h), w)) {
            cta_free(s, sm, c);
            return oom(s);
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        simple_sched_poke(s, &c->w[i]);
    }
    tm_occ_add(&sm->used, &c->use, +1);
    c->next = sm->ctas;
    sm->ctas = c;
    tm_kern_placed(kn);
    s->st_ctas++;
    return 1;
}

uint64_t simple_cta_retire_at(const SimpleCta *c)
{
    if (c->nexited < c->nwarps) {
        return SIMPLE_NEVER;
    }
    uint64_t t = c->last_exit + 1;
    if (c->async_done > t) {
        t = c->async_done;
    }
    for (uint32_t i = 0; i < c->nwarps; i++) {
        if (c->w[i].drain > t) {
            t = c->w[i].drain;
        }
        if (c->w[i].async_done > t) {
            t = c->w[i].async_done;
        }
    }
    return t;
}

/* Give back what an unlinked CTA held and free it. */
static void release(Simple *s, SimpleSm *sm, SimpleCta *c)
{
    c->kern->resident--;
    tm_occ_add(&sm->used, &c->use, -1);
    cta_free(s, sm, c);
}

void simple_sm_retire(Simple *s, SimpleSm *sm, uint64_t now)
{
    SimpleCta **pp = &sm->ctas;
    while (*pp) {
        SimpleCta *c = *pp;
        if (c->kern != s->kern || simple_cta_retire_at(c) > now) {
            pp = &c->next;
            continue;
        }
        *pp = c->next;
        s->api->cta_retire(s->h, c->h);
        release(s, sm, c);
    }
}

void simple_sm_drop(Simple *s, SimpleSm *sm)
{
    SimpleCta **pp = &sm->ctas;
    while (*pp) {
        SimpleCta *c = *pp;
        if (c->kern != s->kern) {
            pp = &c->next;
            continue;
        }
        *pp = c->next;
        release(s, sm, c);
    }
}

void simple_sm_drop_stale(Simple *s, SimpleSm *sm)
{
    while (sm->ctas) { /* their kernel's record is gone: no release() */
        SimpleCta *c = sm->ctas;
        sm->ctas = c->next;
        tm_occ_add(&sm->used, &c->use, -1);
        cta_free(s, sm, c);
    }
}
