/*
 * timing/lib/kernel.c: a timed kernel's lifecycle (contract in
 * kernel.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "timing/lib/kernel.h"

static uint64_t dim(uint32_t v)
{
    return v ? v : 1;
}

TmKern *tm_kern_begin(TmKern **cur, const ptxemu_tm_kernel *k,
                      uint64_t launch_latency, const TmOccLimits *occ,
                      bool *fresh)
{
    TmKern *parent = *cur && (*cur)->running ? *cur : NULL;
    TmKern *kn = calloc(1, sizeof *kn);
    if (!kn) {
        return NULL;
    }
    size_t n = k->struct_size < sizeof kn->k ? k->struct_size : sizeof kn->k;
    kn->k.carveout = -1;        /* ABI 2's field, for an older host */
    memcpy(&kn->k, k, n);
    kn->k.struct_size = sizeof kn->k;
    *fresh = !parent;
    if (!parent) {
        tm_kern_free_all(cur);
    }
    uint64_t cl = dim(k->cluster[0]) * dim(k->cluster[1]) * dim(k->cluster[2]);
    if (kn->k.cooperative || cl > kn->k.nctas) {
        cl = kn->k.nctas;
    }
    kn->parent = parent;
    kn->cluster_size = cl ? cl : 1;
    kn->grid_done = kn->k.nctas == 0;
    kn->start = kn->k.start_cycle;
    if (parent && kn->start < parent->now) {
        kn->start = parent->now;
    }
    kn->now = kn->end = kn->start;
    kn->launch_at = kn->start + launch_latency;
    kn->running = true;
    tm_occ_need(occ, &kn->k, &kn->need);
    *cur = kn;
    return kn;
}

uint64_t tm_kern_group(const TmKern *kn)
{
    uint64_t left = kn->k.nctas > kn->placed ? kn->k.nctas - kn->placed : 1;
    return kn->cluster_size < left ? kn->cluster_size : left;
}

int tm_kern_cta_next(TmKern *kn, const ptxemu_tm_host_api *api,
                     ptxemu_tm_host *h, uint32_t sm, ptxemu_tm_cta **cta,
                     ptxemu_tm_warp *const **warps, uint32_t *nwarps)
{
    *cta = NULL;
    int rc = api->cta_next(h, sm, cta);
    if (rc == PTXEMU_TM_NONE) {
        kn->grid_done = true;
        return 0;
    }
    if (rc < 0) {
        return rc;
    }
    if (!*cta) {
        api->error(h, "cta_next gave no CTA");
        return PTXEMU_TM_ERROR;
    }
    *warps = NULL;
    *nwarps = api->cta_warps(h, *cta, warps);
    return 1;
}

void tm_kern_placed(TmKern *kn)
{
    kn->placed++;
    kn->resident++;
    if (kn->placed >= kn->k.nctas) {
        kn->grid_done = true;
    }
}

bool tm_kern_over(TmKern *kn, uint64_t t)
{
    if (!kn->grid_done || kn->resident != 0) {
        return false;
    }
    kn->running = false;
    kn->end = t;
    return true;
}

int tm_kern_next(TmKern *kn, uint64_t t, uint64_t *next, bool progress)
{
    int rc = 0;
    if (progress || *next <= t) {
        *next = t + 1;
    }
    if (*next == TM_KERN_NEVER) {
        rc = ++kn->stuck > TM_KERN_STUCK_LIMIT ? -1 : 1;
        *next = t + 1; /* one cycle at a time until an event comes */
    } else {
        kn->stuck = 0;
    }
    if (kn->resume_at > *next) { /* a child grid ran meanwhile */
        *next = kn->resume_at;
    }
    return rc;
}

int tm_kern_stop(TmKern *kn, int rc)
{
    kn->running = false;
    kn->end = kn->now;
    return rc < 0 ? rc : PTXEMU_TM_ERROR;
}

bool tm_kern_end(TmKern **cur, uint64_t *end_cycle)
{
    TmKern *kn = *cur;
    if (kn->running) { /* stopped early: the host ends the kernel */
        kn->running = false;
        kn->end = kn->now;
    }
    *end_cycle = kn->end;
    if (!kn->parent) {
        return false;
    }
    if (kn->end > kn->parent->resume_at) {
        kn->parent->resume_at = kn->end;
    }
    *cur = kn->parent;
    free(kn);
    return true;
}

void tm_kern_free_all(TmKern **cur)
{
    while (*cur) {
        TmKern *parent = (*cur)->parent;
        free(*cur);
        *cur = parent;
    }
}
