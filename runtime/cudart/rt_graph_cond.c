/*
 * runtime/cudart/rt_graph_cond.c: conditional graph nodes
 * (cudaGraphConditionalHandleCreate; cudaGraphAddNode, the generic node
 * creation, with cudaGraphNodeTypeConditional and the other node types
 * the runtime has; cudaGraphNodeSetParams and cudaGraphExecNodeSetParams,
 * their generic update) over the shared conditional nodes
 * (runtime/graph/gcond.h: handles, bodies, how they run).  Device code
 * sets a condition with cudaGraphSetConditional (emu/devrt.h).
 */
#include <string.h>

#include "runtime/cudart/rt_internal.h"
#include "runtime/graph/gcond.h"
#include "runtime/graph/gph.h"

_Static_assert(sizeof(gph_cond) == 24 && sizeof(gph_cond) <= GPH_PARAMS_SIZE
               && sizeof(struct cudaGraphNodeParams) == 256,
               "gph_cond or cudaGraphNodeParams is not CUDA's layout");

RT_API cudaError_t cudaGraphConditionalHandleCreate(unsigned long long *h,
                                                    cudaGraph_t g,
                                                    unsigned dflt,
                                                    unsigned flags)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return rt_err((cudaError_t)gcond_handle_create(h, g, dflt, flags));
}

/* The parameters of a node of type t as the type's own add function
 * takes them, in p (zeroed first). */
static cudaError_t params_of(const struct cudaGraphNodeParams *np,
                             rt_node_params *p)
{
    memset(p, 0, sizeof *p);
    switch (np->type) {
    case cudaGraphNodeTypeKernel:
        p->kernel = np->kernel;
        return cudaSuccess;
    case cudaGraphNodeTypeMemcpy:
        p->memcpy = np->memcpy.copyParams;
        return cudaSuccess;
    case cudaGraphNodeTypeMemset:
        p->memset = np->memset;
        return cudaSuccess;
    case cudaGraphNodeTypeHost:
        p->host = np->host;
        return cudaSuccess;
    case cudaGraphNodeTypeGraph:
        /* Only a copy of the child (cudaGraphChildGraphOwnershipClone). */
        if (np->graph.ownership != 0)
            return cudaErrorNotSupported;
        p->child = np->graph.graph;
        return cudaSuccess;
    case cudaGraphNodeTypeEventRecord:
    case cudaGraphNodeTypeWaitEvent:
        p->event = np->event.event;
        return cudaSuccess;
    case cudaGraphNodeTypeMemAlloc:
        p->alloc.a = np->alloc;
        p->alloc.a.dptr = NULL;         /* an output */
        return cudaSuccess;
    case cudaGraphNodeTypeMemFree:
        p->free_ptr = np->free.dptr;
        return cudaSuccess;
    case cudaGraphNodeTypeEmpty:
        return cudaSuccess;
    case cudaGraphNodeTypeConditional: {
        gph_cond c;
        memset(&c, 0, sizeof c);
        c.handle = np->conditional.handle;
        c.type = np->conditional.type;
        c.size = np->conditional.size;
        memcpy(p, &c, sizeof c);
        return cudaSuccess;
    }
    default:
        return cudaErrorNotSupported;
    }
}

RT_API cudaError_t cudaGraphAddNode(cudaGraphNode_t *n, cudaGraph_t g,
                                    const cudaGraphNode_t *deps,
                                    const cudaGraphEdgeData *edges,
                                    size_t nd,
                                    struct cudaGraphNodeParams *np)
{
    if (!np || !n)
        return rt_err(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    /* Only default edges (no ports, no programmatic dependencies). */
    static const cudaGraphEdgeData zero;
    for (size_t i = 0; edges && i < nd; i++)
        if (memcmp(&edges[i], &zero, sizeof zero) != 0)
            return rt_err(cudaErrorNotSupported);
    rt_node_params p;
    if ((e = params_of(np, &p)) != cudaSuccess)
        return rt_err(e);
    e = (cudaError_t)gph_add(g, n, deps, nd, (int)np->type, &p);
    if (e != cudaSuccess)
        return rt_err(e);
    /* Outputs: the allocation's address, the conditional's bodies. */
    if (np->type == cudaGraphNodeTypeMemAlloc) {
        rt_node_params *q = (rt_node_params *)(void *)(*n)->p;
        np->alloc.dptr = q->alloc.a.dptr;
    } else if (np->type == cudaGraphNodeTypeConditional) {
        gph_cond c;
        memcpy(&c, (*n)->p, sizeof c);
        np->conditional.phGraph_out = c.bodies;
    }
    return cudaSuccess;
}

/* The node types whose parameters may change after the node is made:
 * not memory nodes ("Modifying parameters is not supported for node
 * types ... MEM_ALLOC and MEM_FREE"), nor a conditional node's; a child
 * graph only in an executable graph. */
static cudaError_t settable(int type, int exec)
{
    switch (type) {
    case cudaGraphNodeTypeMemAlloc:
    case cudaGraphNodeTypeMemFree:
    case cudaGraphNodeTypeConditional:
    case cudaGraphNodeTypeEmpty:
        return cudaErrorNotSupported;
    case cudaGraphNodeTypeGraph:
        return exec ? cudaSuccess : cudaErrorNotSupported;
    default:
        return cudaSuccess;
    }
}

RT_API cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t n,
                                          struct cudaGraphNodeParams *np)
{
    if (!np || !gph_node_mine(n) || n->type != (int)np->type)
        return rt_err(cudaErrorInvalidValue);
    rt_node_params p;
    cudaError_t e = settable(n->type, 0);
    if (e == cudaSuccess)
        e = params_of(np, &p);
    if (e == cudaSuccess)
        e = (cudaError_t)gph_set(n, n->type, &p);
    return e == cudaSuccess ? e : rt_err(e);
}

RT_API cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t x,
                                              cudaGraphNode_t n,
                                              struct cudaGraphNodeParams *np)
{
    if (!np)
        return rt_err(cudaErrorInvalidValue);
    rt_node_params p;
    cudaError_t e = settable((int)np->type, 1);
    if (e == cudaSuccess)
        e = params_of(np, &p);
    if (e != cudaSuccess)
        return rt_err(e);
    if (np->type == cudaGraphNodeTypeGraph)
        return rt_err((cudaError_t)gph_exec_child(x, n, np->graph.graph));
    cudaGraphNode_t c = gph_exec_node(x, n, (int)np->type);
    if (!c)
        return rt_err(cudaErrorInvalidValue);
    e = (cudaError_t)gph_set(c, c->type, &p);
    return e == cudaSuccess ? e : rt_err(e);
}
