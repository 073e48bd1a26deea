/*
 * emu/cluster.c: cluster shape, distributed shared memory addressing and
 * the cluster barrier (contracts in emu/cluster.h).
 */
#include <stdio.h>

#include "emu/client.h"
#include "emu/cluster.h"

uint32_t emu_cluster_size(const EmuLaunch *l)
{
    return l->cluster[0] * l->cluster[1] * l->cluster[2];
}

uint32_t emu_cluster_rank_of(const EmuLaunch *l, const uint32_t id[3])
{
    const uint32_t *c = l->cluster;
    return id[0] % c[0] + c[0] * (id[1] % c[1] + c[1] * (id[2] % c[2]));
}

EmuStatus emu_launch_cluster(EmuLaunch *l, const uint32_t dims[3],
                             bool non_portable, char *why, size_t n)
{
    const IrFunc *k = l->kernel->ir;
    const uint32_t *req = k->reqnctapercluster;
    bool has_req = req[0] && req[1] && req[2];
    bool given = dims[0] || dims[1] || dims[2];
    uint32_t d[3] = { 1, 1, 1 };
    if (given && (!dims[0] || !dims[1] || !dims[2])) {
        snprintf(why, n, "cluster (%u,%u,%u) must be at least 1 in every "
                 "dimension", dims[0], dims[1], dims[2]);
        return EMU_ERR_LAUNCH_CONFIG;
    }
    if (given && has_req && (dims[0] != req[0] || dims[1] != req[1] ||
                             dims[2] != req[2])) {
        snprintf(why, n, "cluster (%u,%u,%u) differs from the kernel's "
                 ".reqnctapercluster %u, %u, %u", dims[0], dims[1],
                 dims[2], req[0], req[1], req[2]);
        return EMU_ERR_LAUNCH_CONFIG;
    }
    if (!given && !has_req && k->explicitcluster) {
        snprintf(why, n, "the kernel is .explicitcluster but the launch "
                 "gives no cluster dimensions");
        return EMU_ERR_LAUNCH_CONFIG;
    }
    for (int i = 0; i < 3; i++) {
        d[i] = given ? dims[i] : has_req ? req[i] : 1;
    }
    uint64_t sz = (uint64_t)d[0] * d[1] * d[2];
    uint32_t max = non_portable ? EMU_CLUSTER_MAX : EMU_CLUSTER_PORTABLE;
    if (sz > max || (k->maxclusterrank && sz > k->maxclusterrank)) {
        snprintf(why, n, "cluster (%u,%u,%u) has %llu CTAs; at most %u "
                 "(%s)", d[0], d[1], d[2], (unsigned long long)sz,
                 k->maxclusterrank && k->maxclusterrank < max
                 ? k->maxclusterrank : max,
                 k->maxclusterrank && k->maxclusterrank < max
                 ? ".maxclusterrank" : non_portable
                 ? "non-portable limit" : "portable limit");
        return EMU_ERR_LAUNCH_CONFIG;
    }
    if (l->grid[0] % d[0] || l->grid[1] % d[1] || l->grid[2] % d[2]) {
        snprintf(why, n, "grid (%u,%u,%u) is not a multiple of the cluster "
                 "(%u,%u,%u)", l->grid[0], l->grid[1], l->grid[2], d[0],
                 d[1], d[2]);
        return EMU_ERR_LAUNCH_CONFIG;
    }
    for (int i = 0; i < 3; i++) {
        l->cluster[i] = d[i];
    }
    l->explicit_cluster = given || has_req || k->explicitcluster;
    return EMU_OK;
}

static uint32_t cluster_n(const EmuCta *c)
{
    return c->cluster ? c->cluster->nctas : 1;
}

static EmuCta *cluster_cta(EmuCta *c, uint32_t rank)
{
    return c->cluster ? c->cluster->ctas[rank] : c;
}

EmuCta *emu_cluster_target(EmuCtx *x, unsigned lane, PtxSpace space,
                           uint64_t addr, uint32_t size, bool write,
                           uint64_t *off)
{
    uint64_t field = *off >> EMU_CLUSTER_RANK_SHIFT;
    *off &= ((uint64_t)1 << EMU_CLUSTER_RANK_SHIFT) - 1;
    if (field == 0) {
        return x->cta;
    }
    uint32_t n = cluster_n(x->cta);
    if (field - 1 >= n) {
        emu_fault(x, EMU_ERR_ILLEGAL_ADDRESS, lane, addr, size, space,
                  "%s of %u bytes at %s address 0x%llx: it names CTA rank "
                  "%llu, outside the cluster of %u CTA(s)",
                  write ? "write" : "read", size, ptx_space_name(space),
                  (unsigned long long)addr,
                  (unsigned long long)(field - 1), n);
        return NULL;
    }
    EmuCta *t = cluster_cta(x->cta, (uint32_t)(field - 1));
    if (t->nexited == t->nwarps) {
        emu_fault(x, EMU_ERR_ILLEGAL_ADDRESS, lane, addr, size, space,
                  "%s of %u bytes at %s address 0x%llx: the shared "
                  "memory of cluster CTA rank %llu, which has exited",
                  write ? "write" : "read", size, ptx_space_name(space),
                  (unsigned long long)addr, (unsigned long long)(field - 1));
        return NULL;
    }
    return t;
}

bool emu_cluster_is_shared(EmuCtx *x, uint64_t generic, bool cta_only)
{
    uint64_t off = generic - EMU_SHARED_WINDOW;
    if (off >= EMU_SHARED_CLUSTER_LIMIT) {
        return false;
    }
    uint64_t field = off >> EMU_CLUSTER_RANK_SHIFT;
    if (field == 0) {
        return true;
    }
    if (cta_only) {
        return field - 1 == x->cta->cluster_rank;
    }
    return field - 1 < cluster_n(x->cta);
}

/* Every live thread of the cluster has arrived in the current phase. */
static bool all_arrived(const EmuCluster *cl)
{
    for (uint32_t c = 0; c < cl->nctas; c++) {
        const EmuCta *cta = cl->ctas[c];
        for (uint32_t wi = 0; wi < cta->nwarps; wi++) {
            const EmuWarp *w = &cta->warps[wi];
            if (w->valid & ~w->exited & ~w->cl_arrived) {
                return false;
            }
        }
    }
    return true;
}

void emu_cluster_check(EmuCluster *cl, EmuLaunch *l)
{
    if (!cl || !cl->narrived || !all_arrived(cl)) {
        return;
    }
    for (uint32_t c = 0; c < cl->nctas; c++) {
        EmuCta *cta = cl->ctas[c];
        for (uint32_t wi = 0; wi < cta->nwarps; wi++) {
            EmuWarp *w = &cta->warps[wi];
            w->cl_passed |= w->cl_arrived;
            w->cl_arrived = 0;
            if (w->state == EMU_WARP_AT_BARRIER &&
                w->barrier_id == EMU_CLUSTER_BARRIER) {
                w->cl_passed &= ~w->cl_wait;
                w->cl_wait = 0;
                emu_warp_set_state(w, EMU_WARP_READY);
            }
        }
    }
    cl->narrived = 0;
    l->progress++;
    for (uint32_t c = 0; c < cl->nctas; c++) {
        cl->ctas[c]->progress++; /* (each CTA's warps were released) */
    }
    for (uint32_t c = 0; c < cl->nctas; c++) {
        EmuEvent ev = { EMU_EV_BARRIER, l, cl->ctas[c], NULL, 0, 0,
                        EMU_CLUSTER_BARRIER };
        emu_client_event(l->dev, &ev);
    }
}

void emu_cluster_arrive(EmuCtx *x, uint32_t lanes)
{
    EmuWarp *w = x->warp;
    uint32_t twice = lanes & (w->cl_arrived | w->cl_passed);
    if (twice) {
        emu_fault(x, EMU_ERR_ILLEGAL_INSTRUCTION,
                  (unsigned)__builtin_ctz(twice), 0, 0, PTX_SPACE_NONE,
                  "barrier.cluster.arrive by a thread that already "
                  "arrived and has not executed barrier.cluster.wait");
        return;
    }
    w->cl_arrived |= lanes;
    if (!x->cta->cluster) {
        /* a CTA outside any cluster: a cluster of one */
        EmuCta *self = x->cta;
        EmuCluster one = { &self, 1, 0 };
        one.narrived = (uint32_t)__builtin_popcount(lanes);
        emu_cluster_check(&one, x->launch);
        return;
    }
    x->cta->cluster->narrived += (uint32_t)__builtin_popcount(lanes);
    emu_cluster_check(x->cta->cluster, x->launch);
}

void emu_cluster_wait(EmuCtx *x, uint32_t lanes)
{
    EmuWarp *w = x->warp;
    uint32_t none = lanes & ~(w->cl_arrived | w->cl_passed);
    if (none) {
        emu_fault(x, EMU_ERR_ILLEGAL_INSTRUCTION,
                  (unsigned)__builtin_ctz(none), 0, 0, PTX_SPACE_NONE,
                  "barrier.cluster.wait by a thread that has not executed "
                  "barrier.cluster.arrive");
        return;
    }
    if (!(lanes & w->cl_arrived)) {
        w->cl_passed &= ~lanes;
        return;
    }
    w->cl_wait = lanes;
    emu_warp_set_state(w, EMU_WARP_AT_BARRIER);
    w->barrier_id = EMU_CLUSTER_BARRIER;
}
