/*
 * emu/client.c: attaching clients, delivering accesses, events and
 * steps to them, and their per-launch/CTA/warp slots (emu/client.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/client.h"

/* emu_mem_alloc/emu_mem_release of the device's memory, as events. */
static void on_mem(void *ctx, uint64_t addr, uint64_t size,
                   EmuAllocKind kind, bool alloc)
{
    EmuDevice *d = ctx;
    EmuEvent e = { kind == EMU_ALLOC_HEAP
                       ? (alloc ? EMU_EV_DEV_ALLOC : EMU_EV_DEV_FREE)
                       : (alloc ? EMU_EV_HOST_ALLOC : EMU_EV_HOST_FREE),
                   NULL, NULL, NULL, addr, size, 0 };
    emu_client_event(d, &e);
}

static void on_wrote(void *ctx, uint64_t addr, uint64_t size)
{
    EmuEvent e = { EMU_EV_HOST_WRITE, NULL, NULL, NULL, addr, size, 0 };
    emu_client_event(ctx, &e);
}

static void unions(EmuDevice *d)
{
    EmuClients *cs = d->clients;
    cs->spaces = cs->events = 0;
    cs->nstep = cs->nacc = 0;
    cs->acc_common = EMU_ACC_ALL_SPACES;
    for (unsigned k = 0; k < EMU_CLIENT_MAX; k++) {
        if (cs->used[k]) {
            if (cs->c[k].on_access && cs->c[k].spaces) {
                cs->spaces |= cs->c[k].spaces;
                cs->acc_common &= cs->c[k].spaces;
                cs->accc[cs->nacc++] = (uint8_t)k;
            }
            cs->events |= cs->c[k].on_event ? cs->c[k].events : 0;
            if (cs->c[k].want_steps && cs->c[k].on_step) {
                cs->stepc[cs->nstep++] = (uint8_t)k;
            }
        }
    }
    cs->steps = cs->nstep != 0;
}

int emu_client_attach(EmuDevice *d, const EmuClient *c, char *why,
                      size_t n)
{
    const char *name = c && c->struct_size >= EMU_CLIENT_SIZE_V1 &&
                       c->name ? c->name : "(unnamed)";
    if (!c) {
        snprintf(why, n, "no client");
        return -1;
    }
    if (c->abi_version < EMU_CLIENT_ABI_MIN) {
        snprintf(why, n, "client %s: ABI version %u is too old (this "
                 "emulator accepts %u to %u)", name, c->abi_version,
                 EMU_CLIENT_ABI_MIN, EMU_CLIENT_ABI);
        return -1;
    }
    if (c->abi_version > EMU_CLIENT_ABI) {
        snprintf(why, n, "client %s: ABI version %u is too new (this "
                 "emulator accepts %u to %u)", name, c->abi_version,
                 EMU_CLIENT_ABI_MIN, EMU_CLIENT_ABI);
        return -1;
    }
    if (c->struct_size < EMU_CLIENT_SIZE_V1) {
        snprintf(why, n, "client %s: struct_size %u is smaller than "
                 "version %u's %zu bytes", name, c->struct_size,
                 c->abi_version, EMU_CLIENT_SIZE_V1);
        return -1;
    }
    if (!d->clients) {
        d->clients = calloc(1, sizeof(*d->clients));
        if (!d->clients) {
            snprintf(why, n, "client %s: out of memory", name);
            return -1;
        }
        emu_mem_observe(d->mem, on_mem, d);
        emu_mem_observe_writes(d->mem, on_wrote, d);
    }
    EmuClients *cs = d->clients;
    for (int k = 0; k < EMU_CLIENT_MAX; k++) {
        if (!cs->used[k]) {
            cs->c[k] = *c;
            cs->c[k].struct_size = sizeof(EmuClient);
            cs->used[k] = true;
            unions(d);
            return k;
        }
    }
    snprintf(why, n, "client %s: %d clients are attached already", name,
             EMU_CLIENT_MAX);
    return -1;
}

void emu_client_detach(EmuDevice *d, int h)
{
    EmuClients *cs = d->clients;
    if (!cs || h < 0 || h >= EMU_CLIENT_MAX || !cs->used[h]) {
        return;
    }
    cs->used[h] = false;
    unions(d);
    for (int k = 0; k < EMU_CLIENT_MAX; k++) {
        if (cs->used[k]) {
            return;
        }
    }
    emu_mem_observe(d->mem, NULL, NULL);
    emu_mem_observe_writes(d->mem, NULL, NULL);
    free(cs);
    d->clients = NULL;
}

void emu_clients_free(EmuDevice *d)
{
    if (d->clients) {
        emu_mem_observe(d->mem, NULL, NULL);
        emu_mem_observe_writes(d->mem, NULL, NULL);
        free(d->clients);
        d->clients = NULL;
    }
}

void emu_client_event_slow(EmuDevice *d, const EmuEvent *e)
{
    EmuClients *cs = d->clients;
    for (unsigned k = 0; k < EMU_CLIENT_MAX; k++) {
        if (cs->used[k] && cs->c[k].on_event &&
            (cs->c[k].events >> e->kind & 1u)) {
            cs->c[k].on_event(cs->c[k].ctx, e);
        }
    }
}

void emu_client_warp_event(EmuCtx *x, EmuEventKind k, uint64_t addr,
                           uint32_t id)
{
    EmuEvent e = { k, x->launch, x->cta, x->warp, addr, 0, id };
    emu_client_event(x->dev, &e);
}

EmuAccList *emu_client_acclist(EmuLaunch *l)
{
    EmuClients *cs = l->dev->clients;
    if (!cs || !cs->spaces) {
        return NULL;
    }
    if (!l->cacc) {
        l->cacc = calloc(1, sizeof(*l->cacc));
        if (!l->cacc) {
            return NULL;
        }
    }
    l->cacc->spaces = cs->spaces;
    return l->cacc;
}

void emu_client_access_slow(EmuCtx *x, const EmuAccess *a, uint32_t n)
{
    EmuClients *cs = x->dev->clients;
    for (unsigned j = 0; j < cs->nacc; j++) {
        const EmuClient *c = &cs->c[cs->accc[j]];
        if ((c->spaces & x->acc->spaces) == x->acc->spaces) {
            /* it watches every space noted: the list as it is */
            c->on_access(c->ctx, x, a, n);
            continue;
        }
        uint32_t first = 0;
        while (first < n && !(c->spaces >> a[first].space & 1u)) {
            first++;
        }
        uint32_t end = first;
        while (end < n && (c->spaces >> a[end].space & 1u)) {
            end++;
        }
        if (first == n) {
            continue;
        }
        if (end == n) {
            /* one run: the common case, no copy */
            c->on_access(c->ctx, x, a + first, n - first);
            continue;
        }
        EmuAccess *f = malloc(n * sizeof(*f));
        if (!f) {
            emu_fault(x, EMU_ERR_OUT_OF_MEMORY, a[0].lane, a[0].addr,
                      a[0].size, (PtxSpace)a[0].space,
                      "cannot give accesses to client %s (host out of "
                      "memory)", c->name ? c->name : "(unnamed)");
            return;
        }
        uint32_t m = 0;
        for (uint32_t t = first; t < n; t++) {
            if (c->spaces >> a[t].space & 1u) {
                f[m++] = a[t];
            }
        }
        c->on_access(c->ctx, x, f, m);
        free(f);
    }
}

void emu_client_step(EmuDevice *d, const EmuCta *cta, const EmuWarp *w,
                     const EmuStepRecord *rec)
{
    EmuClients *cs = d->clients;
    for (unsigned j = 0; cs && j < cs->nstep; j++) {
        const EmuClient *c = &cs->c[cs->stepc[j]];
        c->on_step(c->ctx, cta, w, rec);
    }
}

/* ------------------------------------------------------------ slots */

void **emu_client_launch_slot(EmuLaunch *l, int h)
{
    if (h < 0 || h >= EMU_CLIENT_MAX) {
        return NULL;
    }
    if (!l->cslots) {
        l->cslots = calloc(EMU_CLIENT_MAX, sizeof(*l->cslots));
        if (!l->cslots) {
            return NULL;
        }
    }
    return &l->cslots[h];
}

/* A CTA's slots: EMU_CLIENT_MAX for the CTA, then as many per warp. */
static void **cta_slots(EmuCta *c)
{
    if (!c->cslots) {
        c->cslots = calloc((size_t)EMU_CLIENT_MAX * (1 + c->nwarps),
                           sizeof(*c->cslots));
    }
    return c->cslots;
}

void **emu_client_cta_slot(EmuCta *c, int h)
{
    void **s = h >= 0 && h < EMU_CLIENT_MAX ? cta_slots(c) : NULL;
    return s ? &s[h] : NULL;
}

void **emu_client_warp_slot(EmuWarp *w, int h)
{
    void **s = h >= 0 && h < EMU_CLIENT_MAX ? cta_slots(w->cta) : NULL;
    return s ? &s[(size_t)EMU_CLIENT_MAX * (1 + w->id) + (size_t)h] : NULL;
}

void emu_client_launch_fini(EmuLaunch *l)
{
    free(l->cslots);
    l->cslots = NULL;
    if (l->cacc) {
        free(l->cacc->v);
        free(l->cacc);
        l->cacc = NULL;
    }
}

void emu_client_cta_fini(EmuCta *c)
{
    free(c->cslots);
    c->cslots = NULL;
}

static void noop_access(void *ctx, const EmuCtx *x, const EmuAccess *a,
                        uint32_t n)
{
    (void)ctx;
    (void)x;
    (void)a;
    (void)n;
}

static void noop_event(void *ctx, const EmuEvent *e)
{
    (void)ctx;
    (void)e;
}

void emu_client_noop(EmuClient *c)
{
    memset(c, 0, sizeof(*c));
    c->abi_version = EMU_CLIENT_ABI;
    c->struct_size = sizeof(*c);
    c->name = "noop";
    c->spaces = EMU_ACC_ALL_SPACES;
    c->events = EMU_EV_ALL;
    c->on_access = noop_access;
    c->on_event = noop_event;
}
