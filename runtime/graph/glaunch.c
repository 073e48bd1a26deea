/*
 * runtime/graph/glaunch.c: a graph launch as stream work (contract in
 * glaunch.h).
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "runtime/graph/gcond.h"
#include "runtime/graph/glaunch.h"
#include "runtime/graph/gmem.h"

struct glaunch {
    CUgraph g;                          /* held (gph_exec_hold) */
    unsigned long long flags;           /* the executable graph's */
    const glaunch_ops *ops;
    void *s;
    int keep;
    _Atomic int err;
    _Atomic unsigned refs;              /* the item's, the keeper's */
};

void glaunch_put(glaunch *l)
{
    if (l && atomic_fetch_sub(&l->refs, 1) == 1) {
        gph_release(l->g);
        free(l);
    }
}

static void item_gone(void *p)
{
    glaunch_put(p);
}

/* Frees what the graph's allocation nodes allocated, when it was
 * instantiated to free on launch. */
static void auto_free(const glaunch *l)
{
    if (l->flags & CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH)
        gmem_auto_free(l->g);
}

static CUresult run(void *p)
{
    glaunch *l = p;
    auto_free(l);
    gcond_launch(l->g);
    int e = gph_run(l->g, l->ops->run, l->s);
    atomic_store(&l->err, e);
    return l->keep ? CUDA_SUCCESS : (CUresult)e;
}

int glaunch_start(CUgraphExec x, void *s, const glaunch_ops *ops, int keep,
                  glaunch **out)
{
    glaunch *l = calloc(1, sizeof *l);
    if (!l)
        return GPH_ENOMEM;
    l->g = gph_exec_hold(x);
    l->flags = x->flags;
    l->ops = ops;
    l->s = s;
    l->keep = keep;
    atomic_init(&l->err, GPH_OK);
    atomic_init(&l->refs, keep ? 2 : 1);
    int e = ops->enqueue(s, run, l, item_gone);
    if (keep) {
        if (e != GPH_OK)
            glaunch_put(l);
        else
            *out = l;
    }
    return e;
}

int glaunch_result(const glaunch *l)
{
    return atomic_load(&l->err);
}
