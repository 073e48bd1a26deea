/*
 * runtime/cuda/drv_graph_cond.c: conditional graph nodes in the drop-in
 * driver (cuGraphConditionalHandleCreate; cuGraphAddNode, the generic
 * node creation, with CU_GRAPH_NODE_TYPE_CONDITIONAL and the other node
 * types the driver has; cuGraphNodeSetParams and cuGraphExecNodeSetParams,
 * their generic update) over the shared conditional nodes
 * (runtime/graph/gcond.h).  Device code sets a condition with
 * cudaGraphSetConditional (emu/devrt.h).
 */
#include "config.h"

#include <string.h>

#include "runtime/cuda/drv_capture.h"
#include "runtime/graph/gcond.h"
#include "runtime/graph/gph.h"

_Static_assert(sizeof(CUgraphNodeParams) == 256,
               "CUgraphNodeParams is not cuda.h's layout");

CUresult cuGraphConditionalHandleCreate(CUgraphConditionalHandle *pHandle_out,
                                        CUgraph hGraph, CUcontext ctx,
                                        unsigned int defaultLaunchValue,
                                        unsigned int flags)
{
    CUresult r = drv_ready(NULL);
    if (!r) {
        r = (CUresult)gcond_handle_create(pHandle_out, hGraph,
                                          defaultLaunchValue, flags);
    }
    return drv_trace(r, "cuGraphConditionalHandleCreate", "%p, %p, %p, %u, "
                     "%u", (void *)pHandle_out, (void *)hGraph, (void *)ctx,
                     defaultLaunchValue, flags);
}

/* The parameters of a node as its type's own add function takes them,
 * in p (zeroed first). */
static CUresult params_of(const CUgraphNodeParams *np, drv_node_params *p)
{
    memset(p, 0, sizeof(*p));
    switch (np->type) {
    case CU_GRAPH_NODE_TYPE_KERNEL:
        p->kernel = np->kernel;
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        p->memcpy = np->memcpy.copyParams;
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_MEMSET:
        p->memset = np->memset;
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_HOST:
        p->host = np->host;
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_GRAPH:
        /* Only a copy of the child (CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE). */
        if (np->graph.ownership != 0) {
            return CUDA_ERROR_NOT_SUPPORTED;
        }
        p->child = np->graph.graph;
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        p->event = np->event.event;
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
        p->alloc.a = np->alloc;
        p->alloc.a.dptr = 0;            /* an output */
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_MEM_FREE:
        p->free_ptr = np->free.dptr;
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_EMPTY:
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_CONDITIONAL: {
        gph_cond c;
        memset(&c, 0, sizeof(c));
        c.handle = np->conditional.handle;
        c.type = np->conditional.type;
        c.size = np->conditional.size;
        memcpy(p, &c, sizeof(c));
        return CUDA_SUCCESS;
    }
    default:
        return CUDA_ERROR_NOT_SUPPORTED;
    }
}

static CUresult add_node(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
                         const CUgraphEdgeData *edges, size_t nd,
                         CUgraphNodeParams *np)
{
    CUresult r = drv_ready(NULL);
    if (r) {
        return r;
    }
    if (!np || !out) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    /* Only default edges (no ports, no programmatic dependencies). */
    static const CUgraphEdgeData zero;
    for (size_t i = 0; edges && i < nd; i++) {
        if (memcmp(&edges[i], &zero, sizeof(zero)) != 0) {
            return CUDA_ERROR_NOT_SUPPORTED;
        }
    }
    drv_node_params p;
    if ((r = params_of(np, &p)) != CUDA_SUCCESS) {
        return r;
    }
    r = (CUresult)gph_add(g, out, deps, nd, np->type, &p);
    if (r) {
        return r;
    }
    /* Outputs: the allocation's address, the conditional's bodies. */
    if (np->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC) {
        np->alloc.dptr = ((drv_node_params *)(void *)(*out)->p)->alloc.a.dptr;
    } else if (np->type == CU_GRAPH_NODE_TYPE_CONDITIONAL) {
        gph_cond c;
        memcpy(&c, (*out)->p, sizeof(c));
        np->conditional.phGraph_out = c.bodies;
    }
    return CUDA_SUCCESS;
}

CUresult cuGraphAddNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                        const CUgraphNode *dependencies,
                        size_t numDependencies, CUgraphNodeParams *nodeParams)
{
    return drv_trace(add_node(phGraphNode, hGraph, dependencies, NULL,
                              numDependencies, nodeParams),
                     "cuGraphAddNode", "%p, %p, %p, %zu, %p",
                     (void *)phGraphNode, (void *)hGraph,
                     (const void *)dependencies, numDependencies,
                     (void *)nodeParams);
}

CUresult cuGraphAddNode_v2(CUgraphNode *phGraphNode, CUgraph hGraph,
                           const CUgraphNode *dependencies,
                           const CUgraphEdgeData *dependencyData,
                           size_t numDependencies,
                           CUgraphNodeParams *nodeParams)
{
    return drv_trace(add_node(phGraphNode, hGraph, dependencies,
                              dependencyData, numDependencies, nodeParams),
                     "cuGraphAddNode_v2", "%p, %p, %p, %p, %zu, %p",
                     (void *)phGraphNode, (void *)hGraph,
                     (const void *)dependencies,
                     (const void *)dependencyData, numDependencies,
                     (void *)nodeParams);
}

/* The node types whose parameters may change after the node is made:
 * not memory nodes ("Modifying parameters is not supported for node
 * types CU_GRAPH_NODE_TYPE_MEM_ALLOC and CU_GRAPH_NODE_TYPE_MEM_FREE"),
 * nor a conditional node's; a child graph only in an executable graph. */
static CUresult settable(int type, int exec)
{
    switch (type) {
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
    case CU_GRAPH_NODE_TYPE_MEM_FREE:
    case CU_GRAPH_NODE_TYPE_CONDITIONAL:
    case CU_GRAPH_NODE_TYPE_EMPTY:
        return CUDA_ERROR_NOT_SUPPORTED;
    case CU_GRAPH_NODE_TYPE_GRAPH:
        return exec ? CUDA_SUCCESS : CUDA_ERROR_NOT_SUPPORTED;
    default:
        return CUDA_SUCCESS;
    }
}

static CUresult node_set(CUgraphExec x, CUgraphNode n, CUgraphNodeParams *np)
{
    if (!np || (!x && (!gph_node_mine(n) || n->type != np->type))) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    drv_node_params p;
    CUresult r = settable(np->type, x != NULL);
    if (!r) {
        r = params_of(np, &p);
    }
    if (r) {
        return r;
    }
    if (x && np->type == CU_GRAPH_NODE_TYPE_GRAPH) {
        return (CUresult)gph_exec_child(x, n, np->graph.graph);
    }
    if (x && !(n = gph_exec_node(x, n, np->type))) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return (CUresult)gph_set(n, n->type, &p);
}

CUresult cuGraphNodeSetParams(CUgraphNode hNode, CUgraphNodeParams *nodeParams)
{
    return drv_trace(node_set(NULL, hNode, nodeParams), "cuGraphNodeSetParams",
                     "%p, %p", (void *)hNode, (void *)nodeParams);
}

CUresult cuGraphExecNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                  CUgraphNodeParams *nodeParams)
{
    return drv_trace(node_set(hGraphExec, hNode, nodeParams),
                     "cuGraphExecNodeSetParams", "%p, %p, %p",
                     (void *)hGraphExec, (void *)hNode, (void *)nodeParams);
}
