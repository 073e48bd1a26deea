/*
 * runtime/graph/glaunch.c: a graph launch as stream work (contract in
 * glaunch.h).
 *
 * The executable copy's nodes, child graphs inlined in their order
 * (gph.h) and empty nodes left out, become a sequence of steps put on
 * the stream at once: each run of nodes between host, event record and
 * event wait nodes is one device step; each host node a host step of
 * its own, so that host nodes run on the callback thread as host
 * functions do (a host node that waits for other device work does not
 * hold up the device worker); each event record or wait node the
 * stream's record or wait, put there at the launch as cuEventRecord and
 * cuStreamWaitEvent would be, so that a wait holds back the graph's
 * later nodes until the event's record, made by another stream's work
 * still pending, is done (CUDA programming guide, graphs: event record
 * and wait nodes).  A conditional node runs whole within its device
 * step, its bodies chosen then by the condition the launch's own
 * kernels set (cudaGraphSetConditional); a body holds only kernel,
 * empty, child graph, memset, memcpy and conditional nodes (gph_body_ok,
 * as CUDA_CONDITIONAL_NODE_PARAMS requires), all device work, so nothing
 * in it needs a step of its own. The steps share the launch: the first failure
 * stops the later steps.
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "runtime/graph/gcond.h"
#include "runtime/graph/glaunch.h"
#include "runtime/graph/gmem.h"

/* One step: nodes flat[from..to) of its launch. */
typedef struct gstep {
    struct glaunch *l;
    size_t from, to;
} gstep;

struct glaunch {
    CUgraph g;                          /* held (gph_exec_hold) */
    unsigned long long flags;           /* the executable graph's */
    const glaunch_ops *ops;
    void *s;
    int keep;
    _Atomic int err;
    _Atomic unsigned refs;              /* each step's, the keeper's */
    CUgraphNode *flat;                  /* the nodes to run, in order */
    size_t n, cap;
    gstep *steps;
};

void glaunch_put(glaunch *l)
{
    if (l && atomic_fetch_sub(&l->refs, 1) == 1) {
        gph_release(l->g);
        free(l->flat);
        free(l->steps);
        free(l);
    }
}

static void step_gone(void *p)
{
    glaunch_put(((gstep *)p)->l);
}

/* Appends g's nodes to l->flat in g's order, child graphs inlined,
 * empty nodes left out; GPH_ENOMEM. */
static int flatten(glaunch *l, CUgraph g)
{
    for (size_t i = 0; i < g->n; i++) {
        CUgraphNode n = g->nodes[g->order[i]];
        if (n->type == CU_GRAPH_NODE_TYPE_GRAPH) {
            int e = flatten(l, gph_child(n));
            if (e != GPH_OK)
                return e;
            continue;
        }
        if (n->type == CU_GRAPH_NODE_TYPE_EMPTY)
            continue;
        if (l->n == l->cap) {
            size_t c = l->cap ? 2 * l->cap : 16;
            CUgraphNode *p = realloc(l->flat, c * sizeof *p);
            if (!p)
                return GPH_ENOMEM;
            l->flat = p;
            l->cap = c;
        }
        l->flat[l->n++] = n;
    }
    return GPH_OK;
}

/* What stream step a node is besides device work: a host function
 * (HOST), an event record or wait (DRV_STEP_RECORD, DRV_STEP_WAIT). */
enum { HOST = -1 };

static int step_kind(CUgraphNode n)
{
    switch (n->type) {
    case CU_GRAPH_NODE_TYPE_HOST:
        return HOST;
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
        return DRV_STEP_RECORD;
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        return DRV_STEP_WAIT;
    default:
        return DRV_STEP_WORK;
    }
}

/* Records the launch's first failure. */
static void failed(glaunch *l, int e)
{
    int none = GPH_OK;
    atomic_compare_exchange_strong(&l->err, &none, e);
}

/* A device step: the first also frees what the graph allocated, when
 * it was instantiated to free on launch, and gives the conditional
 * handles their defaults. */
static CUresult run_device(void *p)
{
    const gstep *st = p;
    glaunch *l = st->l;
    if (st == &l->steps[0]) {
        if (l->flags & CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH)
            gmem_auto_free(l->g);
        gcond_launch(l->g);
    }
    int e = GPH_OK;
    for (size_t i = st->from; i < st->to && e == GPH_OK; i++) {
        if (atomic_load(&l->err) != GPH_OK)
            return CUDA_SUCCESS;        /* an earlier step failed */
        CUgraphNode n = l->flat[i];
        e = n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL
                ? gcond_node_run(n, l->ops->run, l->s)
                : l->ops->run(n, l->s);
    }
    if (e == GPH_OK)
        return CUDA_SUCCESS;
    failed(l, e);
    return l->keep ? CUDA_SUCCESS : (CUresult)e;
}

static void run_host(void *p)
{
    const gstep *st = p;
    glaunch *l = st->l;
    if (atomic_load(&l->err) == GPH_OK) {
        int e = l->ops->run(l->flat[st->from], l->s);
        if (e != GPH_OK)
            failed(l, e);
    }
}

/* Cuts l->flat into steps (the first a device step, which may run no
 * node), as DrvSteps for the queue; their number. */
static size_t cut(glaunch *l, DrvStep *ds)
{
    size_t k = 0, i = 0;
    for (;;) {
        size_t from = i;
        while (i < l->n && step_kind(l->flat[i]) == DRV_STEP_WORK)
            i++;
        if (from < i || k == 0) {
            l->steps[k] = (gstep){ l, from, i };
            ds[k] = (DrvStep){ run_device, NULL, &l->steps[k], step_gone,
                               DRV_STEP_WORK, NULL };
            k++;
        }
        if (i == l->n)
            return k;
        int kind = step_kind(l->flat[i]);
        l->steps[k] = (gstep){ l, i, i + 1 };
        if (kind == HOST)
            ds[k] = (DrvStep){ NULL, run_host, &l->steps[k], step_gone,
                               DRV_STEP_WORK, NULL };
        else
            ds[k] = (DrvStep){ NULL, NULL, &l->steps[k], step_gone, kind,
                               gph_event(l->flat[i]) };
        k++;
        i++;
    }
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
    atomic_init(&l->refs, 1);
    size_t cuts = 0;
    int e = flatten(l, l->g);
    for (size_t i = 0; e == GPH_OK && i < l->n; i++)
        cuts += step_kind(l->flat[i]) != DRV_STEP_WORK;
    /* At most a device step before and after each step of its own. */
    size_t max = 2 * cuts + 1;
    DrvStep *ds = e == GPH_OK ? calloc(max, sizeof *ds) : NULL;
    l->steps = ds ? calloc(max, sizeof *l->steps) : NULL;
    if (!l->steps) {
        free(ds);
        glaunch_put(l);
        return GPH_ENOMEM;
    }
    size_t k = cut(l, ds);
    atomic_init(&l->refs, (unsigned)k + (keep ? 1 : 0));
    e = ops->enqueue(s, ds, k);
    free(ds);
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
