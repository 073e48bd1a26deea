/*
 * runtime/cuda/drv_graph.c: CUDA graphs in the drop-in driver
 * (cuGraph*; CUDA Driver API, "Graph Management"): the shared graph
 * (runtime/graph/gph.h, which says what a graph is and how it runs)
 * with the driver's node parameters (drv_node_params) and entry points.
 * A launched graph runs its nodes through the driver's own calls on the
 * launch's stream; launched into a capturing stream, it becomes a child
 * graph node of the capture.  Every entry point answers gph.h's errors,
 * which are CUresult values.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "runtime/cuda/drv_capture.h"
#include "runtime/cuda/drv_queue.h"
#include "runtime/graph/gattr.h"
#include "runtime/graph/gcond.h"
#include "runtime/graph/glaunch.h"
#include "runtime/graph/gmem.h"
#include "runtime/graph/gph.h"

_Static_assert(sizeof(drv_node_params) <= GPH_PARAMS_SIZE,
               "drv_node_params does not fit a graph node");
_Static_assert((int)CUDA_ERROR_INVALID_VALUE == GPH_EINVAL
               && (int)CUDA_ERROR_OUT_OF_MEMORY == GPH_ENOMEM
               && (int)CUDA_ERROR_ILLEGAL_STATE == GPH_ESTATE
               && (int)CUDA_ERROR_NOT_SUPPORTED == GPH_ENOTSUP
               && (int)CUDA_ERROR_STREAM_CAPTURE_IMPLICIT
                      == GPH_ECAP_IMPLICIT
               && (int)CUDA_ERROR_CAPTURED_EVENT == GPH_ECAPTURED_EVENT
               && (int)CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE == GPH_EUPDATE,
               "gph.h's errors are not CUresult values");

static drv_node_params *P(CUgraphNode n)
{
    return (drv_node_params *)(void *)n->p;
}

/* ------------------------------------------------------ node params */

static CUresult set_kernel(CUgraphNode n, const CUDA_KERNEL_NODE_PARAMS *k)
{
    CUfunction f = k->func ? k->func : (CUfunction)k->kern;
    if (!f || !drv_handle_valid(DRV_FUNC, f)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (k->extra) {
        return CUDA_ERROR_NOT_SUPPORTED;        /* only kernelParams */
    }
    if (!k->gridDimX || !k->gridDimY || !k->gridDimZ || !k->blockDimX
        || !k->blockDimY || !k->blockDimZ) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    void **argv;
    int e = gph_copy_args(n, f, k->kernelParams, &argv);
    if (e) {
        return (CUresult)e;
    }
    P(n)->kernel = *k;
    P(n)->kernel.func = f;
    P(n)->kernel.kern = NULL;
    P(n)->kernel.kernelParams = argv;
    return CUDA_SUCCESS;
}

/* Checks a node's parameters and stores them in n (gph_ops.set). */
static int set_params(CUgraphNode n, int type, const void *pv)
{
    const drv_node_params *p = pv;
    switch (type) {
    case CU_GRAPH_NODE_TYPE_KERNEL:
        return set_kernel(n, &p->kernel);
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        /* Checked when it runs, as cuMemcpy3DAsync does. */
        P(n)->memcpy = p->memcpy;
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_MEMSET:
        if (!gph_memset_ok(p->memset.dst != 0, p->memset.elementSize,
                           p->memset.width, p->memset.height,
                           p->memset.pitch)) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        P(n)->memset = p->memset;
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_HOST:
        if (!p->host.fn) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        P(n)->host = p->host;
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        if (!drv_handle_valid(DRV_EVENT, p->event)) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        P(n)->event = p->event;
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC: {
        drv_node_params q = *p;
        CUresult r = drv_graph_alloc_set(&q);
        if (!r) {
            P(n)->alloc = q.alloc;
        }
        return r;
    }
    case CU_GRAPH_NODE_TYPE_MEM_FREE:
        if (!gmem_known(p->free_ptr)) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        P(n)->free_ptr = p->free_ptr;
        return CUDA_SUCCESS;
    default:
        return CUDA_ERROR_NOT_SUPPORTED;
    }
}

const gph_ops drv_graph_ops = { set_params };

/* ------------------------------------------------------------ graphs */

CUresult cuGraphCreate(CUgraph *phGraph, unsigned int flags)
{
    CUresult r = flags ? CUDA_ERROR_INVALID_VALUE
                       : (CUresult)gph_create(phGraph, &drv_graph_ops);
    return drv_trace(r, "cuGraphCreate", "%p, 0x%x", (void *)phGraph, flags);
}

CUresult cuGraphDestroy(CUgraph hGraph)
{
    return drv_trace((CUresult)gph_destroy(hGraph), "cuGraphDestroy", "%p",
                     (void *)hGraph);
}

/* A graph with memory nodes "cannot be cloned" (cuGraphAddMemAllocNode). */
CUresult cuGraphClone(CUgraph *phGraphClone, CUgraph originalGraph)
{
    return drv_trace(gph_mine(originalGraph) && gmem_graph_has_mem(originalGraph)
                     ? CUDA_ERROR_NOT_SUPPORTED
                     : (CUresult)gph_clone(phGraphClone, originalGraph),
                     "cuGraphClone", "%p, %p", (void *)phGraphClone,
                     (void *)originalGraph);
}

CUresult cuGraphNodeFindInClone(CUgraphNode *phNode,
                                CUgraphNode hOriginalNode,
                                CUgraph hClonedGraph)
{
    return drv_trace((CUresult)gph_find_in_clone(phNode, hOriginalNode,
                                                 hClonedGraph),
                     "cuGraphNodeFindInClone", "%p, %p, %p", (void *)phNode,
                     (void *)hOriginalNode, (void *)hClonedGraph);
}

/* --------------------------------------------------------- adding */

/* A node of `type` whose parameters are *src (size bytes; NULL with a
 * non-zero size: CUDA_ERROR_INVALID_VALUE), zero-extended. */
static CUresult add(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
                    size_t nd, int type, const void *src, size_t size)
{
    drv_node_params p;
    if (!src && size) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    memset(&p, 0, sizeof(p));
    if (size) {
        memcpy(&p, src, size);
    }
    return (CUresult)gph_add(g, out, deps, nd, type, &p);
}

static CUresult add_kernel_v1(CUgraphNode *out, CUgraph g,
                              const CUgraphNode *deps, size_t nd,
                              const CUDA_KERNEL_NODE_PARAMS_v1 *k)
{
    return add(out, g, deps, nd, CU_GRAPH_NODE_TYPE_KERNEL, k,
               k ? sizeof(*k) : 0);
}

#define ADD_TRACE(r, name, g, deps, nd) \
    drv_trace((r), name, "%p, %p, %p, %zu, ...", (void *)phGraphNode, \
              (void *)(g), (const void *)(deps), (nd))

CUresult cuGraphAddKernelNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                              const CUgraphNode *dependencies,
                              size_t numDependencies,
                              const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
    return ADD_TRACE(add_kernel_v1(phGraphNode, hGraph, dependencies,
                                   numDependencies, nodeParams),
                     "cuGraphAddKernelNode", hGraph, dependencies,
                     numDependencies);
}

CUresult cuGraphAddKernelNode_v2(CUgraphNode *phGraphNode, CUgraph hGraph,
                                 const CUgraphNode *dependencies,
                                 size_t numDependencies,
                                 const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
    return ADD_TRACE(add(phGraphNode, hGraph, dependencies, numDependencies,
                         CU_GRAPH_NODE_TYPE_KERNEL, nodeParams,
                         nodeParams ? sizeof(*nodeParams) : 0),
                     "cuGraphAddKernelNode_v2", hGraph, dependencies,
                     numDependencies);
}

/* The context argument names the one emulated device's context. */
CUresult cuGraphAddMemcpyNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                              const CUgraphNode *dependencies,
                              size_t numDependencies,
                              const CUDA_MEMCPY3D *copyParams,
                              CUcontext ctx)
{
    (void)ctx;
    return ADD_TRACE(add(phGraphNode, hGraph, dependencies, numDependencies,
                         CU_GRAPH_NODE_TYPE_MEMCPY, copyParams,
                         copyParams ? sizeof(*copyParams) : 0),
                     "cuGraphAddMemcpyNode", hGraph, dependencies,
                     numDependencies);
}

CUresult cuGraphAddMemsetNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                              const CUgraphNode *dependencies,
                              size_t numDependencies,
                              const CUDA_MEMSET_NODE_PARAMS *memsetParams,
                              CUcontext ctx)
{
    (void)ctx;
    return ADD_TRACE(add(phGraphNode, hGraph, dependencies, numDependencies,
                         CU_GRAPH_NODE_TYPE_MEMSET, memsetParams,
                         memsetParams ? sizeof(*memsetParams) : 0),
                     "cuGraphAddMemsetNode", hGraph, dependencies,
                     numDependencies);
}

CUresult cuGraphAddHostNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                            const CUgraphNode *dependencies,
                            size_t numDependencies,
                            const CUDA_HOST_NODE_PARAMS *nodeParams)
{
    return ADD_TRACE(add(phGraphNode, hGraph, dependencies, numDependencies,
                         CU_GRAPH_NODE_TYPE_HOST, nodeParams,
                         nodeParams ? sizeof(*nodeParams) : 0),
                     "cuGraphAddHostNode", hGraph, dependencies,
                     numDependencies);
}

CUresult cuGraphAddEmptyNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                             const CUgraphNode *dependencies,
                             size_t numDependencies)
{
    return ADD_TRACE(add(phGraphNode, hGraph, dependencies, numDependencies,
                         CU_GRAPH_NODE_TYPE_EMPTY, NULL, 0),
                     "cuGraphAddEmptyNode", hGraph, dependencies,
                     numDependencies);
}

CUresult cuGraphAddChildGraphNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                  const CUgraphNode *dependencies,
                                  size_t numDependencies, CUgraph childGraph)
{
    CUresult r = childGraph == hGraph
                     ? CUDA_ERROR_INVALID_VALUE
                     : add(phGraphNode, hGraph, dependencies,
                           numDependencies, CU_GRAPH_NODE_TYPE_GRAPH,
                           &childGraph, sizeof(childGraph));
    return ADD_TRACE(r, "cuGraphAddChildGraphNode", hGraph, dependencies,
                     numDependencies);
}

CUresult cuGraphAddEventRecordNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                   const CUgraphNode *dependencies,
                                   size_t numDependencies, CUevent event)
{
    return ADD_TRACE(add(phGraphNode, hGraph, dependencies, numDependencies,
                         CU_GRAPH_NODE_TYPE_EVENT_RECORD, &event,
                         sizeof(event)),
                     "cuGraphAddEventRecordNode", hGraph, dependencies,
                     numDependencies);
}

CUresult cuGraphAddEventWaitNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                 const CUgraphNode *dependencies,
                                 size_t numDependencies, CUevent event)
{
    return ADD_TRACE(add(phGraphNode, hGraph, dependencies, numDependencies,
                         CU_GRAPH_NODE_TYPE_WAIT_EVENT, &event,
                         sizeof(event)),
                     "cuGraphAddEventWaitNode", hGraph, dependencies,
                     numDependencies);
}

/* ------------------------------------------------- node parameters */

/* Replaces n's parameters (of a node of `type`) by *src, size bytes,
 * zero-extended; x: of the executable graph's copy of n. */
static CUresult set_node(CUgraphExec x, CUgraphNode n, int type,
                         const void *src, size_t size)
{
    drv_node_params p;
    if (!src) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (x && !(n = gph_exec_node(x, n, type))) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    memset(&p, 0, sizeof(p));
    memcpy(&p, src, size);
    return (CUresult)gph_set(n, type, &p);
}

#define NODE_TRACE(r, name, n, p) \
    drv_trace((r), name, "%p, %p", (void *)(n), (const void *)(p))
#define EXEC_TRACE(r, name, x, n, p) \
    drv_trace((r), name, "%p, %p, %p", (void *)(x), (void *)(n), \
              (const void *)(p))

CUresult cuGraphKernelNodeGetParams(CUgraphNode hNode,
                                    CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
    return NODE_TRACE((CUresult)gph_get(hNode, CU_GRAPH_NODE_TYPE_KERNEL,
                                        nodeParams, sizeof(*nodeParams)),
                      "cuGraphKernelNodeGetParams", hNode, nodeParams);
}

CUresult cuGraphKernelNodeGetParams_v2(CUgraphNode hNode,
                                       CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
    return NODE_TRACE((CUresult)gph_get(hNode, CU_GRAPH_NODE_TYPE_KERNEL,
                                        nodeParams, sizeof(*nodeParams)),
                      "cuGraphKernelNodeGetParams_v2", hNode, nodeParams);
}

CUresult cuGraphKernelNodeSetParams(CUgraphNode hNode,
                                    const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
    return NODE_TRACE(set_node(NULL, hNode, CU_GRAPH_NODE_TYPE_KERNEL,
                               nodeParams, sizeof(*nodeParams)),
                      "cuGraphKernelNodeSetParams", hNode, nodeParams);
}

CUresult cuGraphKernelNodeSetParams_v2(CUgraphNode hNode,
                                       const CUDA_KERNEL_NODE_PARAMS *p)
{
    return NODE_TRACE(set_node(NULL, hNode, CU_GRAPH_NODE_TYPE_KERNEL, p,
                               sizeof(*p)),
                      "cuGraphKernelNodeSetParams_v2", hNode, p);
}

CUresult cuGraphMemcpyNodeGetParams(CUgraphNode hNode,
                                    CUDA_MEMCPY3D *nodeParams)
{
    return NODE_TRACE((CUresult)gph_get(hNode, CU_GRAPH_NODE_TYPE_MEMCPY,
                                        nodeParams, sizeof(*nodeParams)),
                      "cuGraphMemcpyNodeGetParams", hNode, nodeParams);
}

CUresult cuGraphMemcpyNodeSetParams(CUgraphNode hNode,
                                    const CUDA_MEMCPY3D *nodeParams)
{
    return NODE_TRACE(set_node(NULL, hNode, CU_GRAPH_NODE_TYPE_MEMCPY,
                               nodeParams, sizeof(*nodeParams)),
                      "cuGraphMemcpyNodeSetParams", hNode, nodeParams);
}

CUresult cuGraphMemsetNodeGetParams(CUgraphNode hNode,
                                    CUDA_MEMSET_NODE_PARAMS *nodeParams)
{
    return NODE_TRACE((CUresult)gph_get(hNode, CU_GRAPH_NODE_TYPE_MEMSET,
                                        nodeParams, sizeof(*nodeParams)),
                      "cuGraphMemsetNodeGetParams", hNode, nodeParams);
}

CUresult cuGraphMemsetNodeSetParams(CUgraphNode hNode,
                                    const CUDA_MEMSET_NODE_PARAMS *nodeParams)
{
    return NODE_TRACE(set_node(NULL, hNode, CU_GRAPH_NODE_TYPE_MEMSET,
                               nodeParams, sizeof(*nodeParams)),
                      "cuGraphMemsetNodeSetParams", hNode, nodeParams);
}

CUresult cuGraphHostNodeGetParams(CUgraphNode hNode,
                                  CUDA_HOST_NODE_PARAMS *nodeParams)
{
    return NODE_TRACE((CUresult)gph_get(hNode, CU_GRAPH_NODE_TYPE_HOST,
                                        nodeParams, sizeof(*nodeParams)),
                      "cuGraphHostNodeGetParams", hNode, nodeParams);
}

CUresult cuGraphHostNodeSetParams(CUgraphNode hNode,
                                  const CUDA_HOST_NODE_PARAMS *nodeParams)
{
    return NODE_TRACE(set_node(NULL, hNode, CU_GRAPH_NODE_TYPE_HOST,
                               nodeParams, sizeof(*nodeParams)),
                      "cuGraphHostNodeSetParams", hNode, nodeParams);
}

CUresult cuGraphEventRecordNodeGetEvent(CUgraphNode hNode, CUevent *event_out)
{
    return NODE_TRACE((CUresult)gph_get(hNode,
                                        CU_GRAPH_NODE_TYPE_EVENT_RECORD,
                                        event_out, sizeof(*event_out)),
                      "cuGraphEventRecordNodeGetEvent", hNode, event_out);
}

CUresult cuGraphEventRecordNodeSetEvent(CUgraphNode hNode, CUevent event)
{
    return NODE_TRACE(set_node(NULL, hNode, CU_GRAPH_NODE_TYPE_EVENT_RECORD,
                               &event, sizeof(event)),
                      "cuGraphEventRecordNodeSetEvent", hNode, event);
}

CUresult cuGraphEventWaitNodeGetEvent(CUgraphNode hNode, CUevent *event_out)
{
    return NODE_TRACE((CUresult)gph_get(hNode, CU_GRAPH_NODE_TYPE_WAIT_EVENT,
                                        event_out, sizeof(*event_out)),
                      "cuGraphEventWaitNodeGetEvent", hNode, event_out);
}

CUresult cuGraphEventWaitNodeSetEvent(CUgraphNode hNode, CUevent event)
{
    return NODE_TRACE(set_node(NULL, hNode, CU_GRAPH_NODE_TYPE_WAIT_EVENT,
                               &event, sizeof(event)),
                      "cuGraphEventWaitNodeSetEvent", hNode, event);
}

/* The embedded graph (the node's own: changing it changes the node). */
CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode hNode, CUgraph *phGraph)
{
    CUresult r = CUDA_ERROR_INVALID_VALUE;
    if (gph_node_mine(hNode) && phGraph
        && hNode->type == CU_GRAPH_NODE_TYPE_GRAPH) {
        *phGraph = gph_child(hNode);
        r = CUDA_SUCCESS;
    }
    return NODE_TRACE(r, "cuGraphChildGraphNodeGetGraph", hNode, phGraph);
}

CUresult cuGraphNodeGetType(CUgraphNode hNode, CUgraphNodeType *type)
{
    CUresult r = CUDA_ERROR_INVALID_VALUE;
    if (gph_node_mine(hNode) && type) {
        *type = (CUgraphNodeType)hNode->type;
        r = CUDA_SUCCESS;
    }
    return NODE_TRACE(r, "cuGraphNodeGetType", hNode, type);
}

/* ------------------------------------------------------- topology */

CUresult cuGraphGetNodes(CUgraph hGraph, CUgraphNode *nodes,
                         size_t *numNodes)
{
    return drv_trace((CUresult)gph_nodes(hGraph, nodes, numNodes, 0),
                     "cuGraphGetNodes", "%p, %p, %p", (void *)hGraph,
                     (void *)nodes, (void *)numNodes);
}

CUresult cuGraphGetRootNodes(CUgraph hGraph, CUgraphNode *rootNodes,
                             size_t *numRootNodes)
{
    return drv_trace((CUresult)gph_nodes(hGraph, rootNodes, numRootNodes, 1),
                     "cuGraphGetRootNodes", "%p, %p, %p", (void *)hGraph,
                     (void *)rootNodes, (void *)numRootNodes);
}

CUresult cuGraphGetEdges(CUgraph hGraph, CUgraphNode *from, CUgraphNode *to,
                         size_t *numEdges)
{
    return drv_trace((CUresult)gph_edges(hGraph, from, to, NULL, numEdges),
                     "cuGraphGetEdges", "%p, %p, %p, %p", (void *)hGraph,
                     (void *)from, (void *)to, (void *)numEdges);
}

CUresult cuGraphGetEdges_v2(CUgraph hGraph, CUgraphNode *from,
                            CUgraphNode *to, CUgraphEdgeData *edgeData,
                            size_t *numEdges)
{
    return drv_trace((CUresult)gph_edges(hGraph, from, to, edgeData,
                                         numEdges),
                     "cuGraphGetEdges_v2", "%p, %p, %p, %p, %p",
                     (void *)hGraph, (void *)from, (void *)to,
                     (void *)edgeData, (void *)numEdges);
}

CUresult cuGraphNodeGetDependencies(CUgraphNode hNode,
                                    CUgraphNode *dependencies,
                                    size_t *numDependencies)
{
    return drv_trace((CUresult)gph_node_deps(hNode, dependencies, NULL,
                                             numDependencies),
                     "cuGraphNodeGetDependencies", "%p, %p, %p",
                     (void *)hNode, (void *)dependencies,
                     (void *)numDependencies);
}

CUresult cuGraphNodeGetDependencies_v2(CUgraphNode hNode,
                                       CUgraphNode *dependencies,
                                       CUgraphEdgeData *edgeData,
                                       size_t *numDependencies)
{
    return drv_trace((CUresult)gph_node_deps(hNode, dependencies, edgeData,
                                             numDependencies),
                     "cuGraphNodeGetDependencies_v2", "%p, %p, %p, %p",
                     (void *)hNode, (void *)dependencies, (void *)edgeData,
                     (void *)numDependencies);
}

CUresult cuGraphNodeGetDependentNodes(CUgraphNode hNode,
                                      CUgraphNode *dependentNodes,
                                      size_t *numDependentNodes)
{
    return drv_trace((CUresult)gph_node_dependents(hNode, dependentNodes,
                                                   NULL, numDependentNodes),
                     "cuGraphNodeGetDependentNodes", "%p, %p, %p",
                     (void *)hNode, (void *)dependentNodes,
                     (void *)numDependentNodes);
}

CUresult cuGraphNodeGetDependentNodes_v2(CUgraphNode hNode,
                                         CUgraphNode *dependentNodes,
                                         CUgraphEdgeData *edgeData,
                                         size_t *numDependentNodes)
{
    return drv_trace((CUresult)gph_node_dependents(hNode, dependentNodes,
                                                   edgeData,
                                                   numDependentNodes),
                     "cuGraphNodeGetDependentNodes_v2", "%p, %p, %p, %p",
                     (void *)hNode, (void *)dependentNodes,
                     (void *)edgeData, (void *)numDependentNodes);
}

CUresult cuGraphAddDependencies(CUgraph hGraph, const CUgraphNode *from,
                                const CUgraphNode *to, size_t numDependencies)
{
    return drv_trace((CUresult)gph_add_deps(hGraph, from, to, NULL,
                                            numDependencies),
                     "cuGraphAddDependencies", "%p, %p, %p, %zu",
                     (void *)hGraph, (const void *)from, (const void *)to,
                     numDependencies);
}

CUresult cuGraphAddDependencies_v2(CUgraph hGraph, const CUgraphNode *from,
                                   const CUgraphNode *to,
                                   const CUgraphEdgeData *edgeData,
                                   size_t numDependencies)
{
    return drv_trace((CUresult)gph_add_deps(hGraph, from, to, edgeData,
                                            numDependencies),
                     "cuGraphAddDependencies_v2", "%p, %p, %p, %p, %zu",
                     (void *)hGraph, (const void *)from, (const void *)to,
                     (const void *)edgeData, numDependencies);
}

CUresult cuGraphRemoveDependencies(CUgraph hGraph, const CUgraphNode *from,
                                   const CUgraphNode *to,
                                   size_t numDependencies)
{
    return drv_trace((CUresult)gph_remove_deps(hGraph, from, to, NULL,
                                               numDependencies),
                     "cuGraphRemoveDependencies", "%p, %p, %p, %zu",
                     (void *)hGraph, (const void *)from, (const void *)to,
                     numDependencies);
}

CUresult cuGraphRemoveDependencies_v2(CUgraph hGraph,
                                      const CUgraphNode *from,
                                      const CUgraphNode *to,
                                      const CUgraphEdgeData *edgeData,
                                      size_t numDependencies)
{
    return drv_trace((CUresult)gph_remove_deps(hGraph, from, to, edgeData,
                                               numDependencies),
                     "cuGraphRemoveDependencies_v2", "%p, %p, %p, %p, %zu",
                     (void *)hGraph, (const void *)from, (const void *)to,
                     (const void *)edgeData, numDependencies);
}

CUresult cuGraphDestroyNode(CUgraphNode hNode)
{
    return drv_trace((CUresult)gph_destroy_node(hNode), "cuGraphDestroyNode",
                     "%p", (void *)hNode);
}

/* ------------------------------------------------- instantiation */

/* The first form: an error node and a log buffer, neither of which
 * the emulator fills (instantiation fails only on a cycle). */
CUresult cuGraphInstantiate(CUgraphExec *phGraphExec, CUgraph hGraph,
                            CUgraphNode *phErrorNode, char *logBuffer,
                            size_t bufferSize)
{
    if (phErrorNode) {
        *phErrorNode = NULL;
    }
    if (logBuffer && bufferSize) {
        logBuffer[0] = '\0';
    }
    return drv_trace((CUresult)gph_instantiate(phGraphExec, hGraph, 0),
                     "cuGraphInstantiate", "%p, %p, ...",
                     (void *)phGraphExec, (void *)hGraph);
}

CUresult cuGraphInstantiate_v2(CUgraphExec *phGraphExec, CUgraph hGraph,
                               CUgraphNode *phErrorNode, char *logBuffer,
                               size_t bufferSize)
{
    return cuGraphInstantiate(phGraphExec, hGraph, phErrorNode, logBuffer,
                              bufferSize);
}

CUresult cuGraphInstantiateWithFlags(CUgraphExec *phGraphExec,
                                     CUgraph hGraph, unsigned long long flags)
{
    return drv_trace((CUresult)gph_instantiate(phGraphExec, hGraph, flags),
                     "cuGraphInstantiateWithFlags", "%p, %p, 0x%llx",
                     (void *)phGraphExec, (void *)hGraph, flags);
}

static CUresult upload(CUgraphExec x, CUstream s);

/* cuGraphInstantiateWithParams: with CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD
 * the graph is also uploaded to hUploadStream (cuGraphUpload; the _ptsz
 * form's stream 0 is the thread's per-thread stream). */
static CUresult with_params(CUgraphExec *x, CUgraph g,
                            CUDA_GRAPH_INSTANTIATE_PARAMS *p, int ptsz)
{
    if (!x || !p) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUgraphExec ex;
    CUresult r = (CUresult)gph_instantiate(&ex, g, p->flags);
    if (!r && (p->flags & CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD)) {
        CUstream s = p->hUploadStream;
        r = upload(ex, ptsz && !s ? CU_STREAM_PER_THREAD : s);
        if (r) {
            (void)gph_exec_destroy(ex);
        }
    }
    if (!r) {
        *x = ex;
    }
    p->hErrNode_out = r ? gph_cyclic(g) : NULL;
    p->result_out = !r ? CUDA_GRAPH_INSTANTIATE_SUCCESS
                    : p->hErrNode_out ? CUDA_GRAPH_INSTANTIATE_INVALID_STRUCTURE
                                      : CUDA_GRAPH_INSTANTIATE_ERROR;
    return r;
}

CUresult cuGraphInstantiateWithParams(CUgraphExec *phGraphExec,
                                      CUgraph hGraph,
                                      CUDA_GRAPH_INSTANTIATE_PARAMS
                                          *instantiateParams)
{
    return drv_trace(with_params(phGraphExec, hGraph, instantiateParams, 0),
                     "cuGraphInstantiateWithParams", "%p, %p, %p",
                     (void *)phGraphExec, (void *)hGraph,
                     (void *)instantiateParams);
}

CUresult cuGraphInstantiateWithParams_ptsz(CUgraphExec *phGraphExec,
                                           CUgraph hGraph,
                                           CUDA_GRAPH_INSTANTIATE_PARAMS
                                               *instantiateParams)
{
    return drv_trace(with_params(phGraphExec, hGraph, instantiateParams, 1),
                     "cuGraphInstantiateWithParams_ptsz", "%p, %p, %p",
                     (void *)phGraphExec, (void *)hGraph,
                     (void *)instantiateParams);
}

/* Launches still queued hold what they run (glaunch.h) and run it. */
CUresult cuGraphExecDestroy(CUgraphExec hGraphExec)
{
    return drv_trace((CUresult)gph_exec_destroy(hGraphExec),
                     "cuGraphExecDestroy", "%p", (void *)hGraphExec);
}

CUresult cuGraphExecGetFlags(CUgraphExec hGraphExec, cuuint64_t *flags)
{
    CUresult r = CUDA_ERROR_INVALID_VALUE;
    if (gph_exec_mine(hGraphExec) && flags) {
        *flags = hGraphExec->flags;
        r = CUDA_SUCCESS;
    }
    return drv_trace(r, "cuGraphExecGetFlags", "%p, %p", (void *)hGraphExec,
                     (void *)flags);
}

/* ------------------------------------------------------- launching */

/* Runs one node on the launch's stream (gph_run). */
static int run_node(CUgraphNode n, void *arg)
{
    CUstream s = arg;
    const drv_node_params *p = P(n);
    const CUDA_KERNEL_NODE_PARAMS *k = &p->kernel;
    const CUDA_MEMSET_NODE_PARAMS *m = &p->memset;
    switch (n->type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: {
        CUlaunchAttribute at[GATTR_LAUNCH_MAX];
        CUlaunchConfig c = {
            k->gridDimX, k->gridDimY, k->gridDimZ, k->blockDimX,
            k->blockDimY, k->blockDimZ, k->sharedMemBytes, s, at,
            gattr_node_launch(n, at)
        };
        if (!c.numAttrs) {
            return cuLaunchKernel(k->func, k->gridDimX, k->gridDimY,
                                  k->gridDimZ, k->blockDimX, k->blockDimY,
                                  k->blockDimZ, k->sharedMemBytes, s,
                                  k->kernelParams, NULL);
        }
        return cuLaunchKernelEx(&c, k->func, k->kernelParams, NULL);
    }
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        return cuMemcpy3DAsync_v2(&p->memcpy, s);
    case CU_GRAPH_NODE_TYPE_MEMSET: {
        size_t h = m->height ? m->height : 1;
        size_t pitch = h > 1 ? m->pitch : m->width * m->elementSize;
        switch (m->elementSize) {
        case 1:
            return cuMemsetD2D8Async(m->dst, pitch, (unsigned char)m->value,
                                     m->width, h, s);
        case 2:
            return cuMemsetD2D16Async(m->dst, pitch,
                                      (unsigned short)m->value, m->width, h,
                                      s);
        default:
            return cuMemsetD2D32Async(m->dst, pitch, m->value, m->width, h,
                                      s);
        }
    }
    case CU_GRAPH_NODE_TYPE_HOST:
        p->host.fn(p->host.userData);
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
        return cuEventRecord(p->event, s);
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        /* Only in a conditional node's body (glaunch.c puts the others
         * on the stream): run on the worker, it only checks the event. */
        return cuStreamWaitEvent(s, p->event, 0);
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
    case CU_GRAPH_NODE_TYPE_MEM_FREE:
        return (CUresult)gmem_run(n);
    default:
        return CUDA_SUCCESS;
    }
}

static int enqueue(void *s, const DrvStep *steps, size_t n)
{
    return drv_enqueue_seq(s, steps, n);
}

/* A graph launch as stream work (glaunch.h). */
static const glaunch_ops launch_ops = { run_node, enqueue };

static CUresult launch(CUgraphExec x, CUstream s, int ptsz)
{
    if (ptsz && !s) {
        s = CU_STREAM_PER_THREAD;
    }
    if (!gph_exec_mine(x)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = drv_ready_stream(s);
    if (r) {
        return r;
    }
    drv_node_params p;
    memset(&p, 0, sizeof(p));
    p.child = x->g;
    int taken;
    r = drv_capture_node(s, CU_GRAPH_NODE_TYPE_GRAPH, &p, &taken);
    if (taken) {
        return r;
    }
    if (!gmem_graph_has_mem(x->g)) {
        return (CUresult)glaunch_start(x, s, &launch_ops, 0, NULL);
    }
    /* Memory nodes: the launch waits for its graph, so that a failure
     * of theirs (an allocation still live) is the launch's. */
    glaunch *l;
    r = (CUresult)glaunch_start(x, s, &launch_ops, 1, &l);
    if (r) {
        return r;
    }
    drv_queue_sync_stream(s);
    r = (CUresult)glaunch_result(l);
    glaunch_put(l);
    return r;
}

CUresult cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream)
{
    return drv_trace(launch(hGraphExec, hStream, 0), "cuGraphLaunch",
                     "%p, %p", (void *)hGraphExec, (void *)hStream);
}

CUresult cuGraphLaunch_ptsz(CUgraphExec hGraphExec, CUstream hStream)
{
    return drv_trace(launch(hGraphExec, hStream, 1), "cuGraphLaunch_ptsz",
                     "%p, %p", (void *)hGraphExec, (void *)hStream);
}

/* Nothing to upload: the emulated device reads the host's copy. */
static CUresult upload(CUgraphExec x, CUstream s)
{
    return gph_exec_mine(x) ? drv_ready_stream(s) : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGraphUpload(CUgraphExec hGraphExec, CUstream hStream)
{
    return drv_trace(upload(hGraphExec, hStream), "cuGraphUpload", "%p, %p",
                     (void *)hGraphExec, (void *)hStream);
}

CUresult cuGraphUpload_ptsz(CUgraphExec hGraphExec, CUstream hStream)
{
    return drv_trace(upload(hGraphExec, hStream), "cuGraphUpload_ptsz",
                     "%p, %p", (void *)hGraphExec, (void *)hStream);
}

/* ----------------------------------------------------------- updates */

CUresult cuGraphExecKernelNodeSetParams(CUgraphExec hGraphExec,
                                        CUgraphNode hNode,
                                        const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
    return EXEC_TRACE(set_node(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_KERNEL,
                               nodeParams, sizeof(*nodeParams)),
                      "cuGraphExecKernelNodeSetParams", hGraphExec, hNode,
                      nodeParams);
}

CUresult cuGraphExecKernelNodeSetParams_v2(CUgraphExec hGraphExec,
                                           CUgraphNode hNode,
                                           const CUDA_KERNEL_NODE_PARAMS *p)
{
    return EXEC_TRACE(set_node(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_KERNEL,
                               p, sizeof(*p)),
                      "cuGraphExecKernelNodeSetParams_v2", hGraphExec, hNode,
                      p);
}

CUresult cuGraphExecMemcpyNodeSetParams(CUgraphExec hGraphExec,
                                        CUgraphNode hNode,
                                        const CUDA_MEMCPY3D *copyParams,
                                        CUcontext ctx)
{
    (void)ctx;
    return EXEC_TRACE(set_node(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_MEMCPY,
                               copyParams, sizeof(*copyParams)),
                      "cuGraphExecMemcpyNodeSetParams", hGraphExec, hNode,
                      copyParams);
}

CUresult cuGraphExecMemsetNodeSetParams(CUgraphExec hGraphExec,
                                        CUgraphNode hNode,
                                        const CUDA_MEMSET_NODE_PARAMS
                                            *memsetParams,
                                        CUcontext ctx)
{
    (void)ctx;
    return EXEC_TRACE(set_node(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_MEMSET,
                               memsetParams, sizeof(*memsetParams)),
                      "cuGraphExecMemsetNodeSetParams", hGraphExec, hNode,
                      memsetParams);
}

CUresult cuGraphExecHostNodeSetParams(CUgraphExec hGraphExec,
                                      CUgraphNode hNode,
                                      const CUDA_HOST_NODE_PARAMS *nodeParams)
{
    return EXEC_TRACE(set_node(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_HOST,
                               nodeParams, sizeof(*nodeParams)),
                      "cuGraphExecHostNodeSetParams", hGraphExec, hNode,
                      nodeParams);
}

CUresult cuGraphExecEventRecordNodeSetEvent(CUgraphExec hGraphExec,
                                            CUgraphNode hNode, CUevent event)
{
    return EXEC_TRACE(set_node(hGraphExec, hNode,
                               CU_GRAPH_NODE_TYPE_EVENT_RECORD, &event,
                               sizeof(event)),
                      "cuGraphExecEventRecordNodeSetEvent", hGraphExec,
                      hNode, event);
}

CUresult cuGraphExecEventWaitNodeSetEvent(CUgraphExec hGraphExec,
                                          CUgraphNode hNode, CUevent event)
{
    return EXEC_TRACE(set_node(hGraphExec, hNode,
                               CU_GRAPH_NODE_TYPE_WAIT_EVENT, &event,
                               sizeof(event)),
                      "cuGraphExecEventWaitNodeSetEvent", hGraphExec, hNode,
                      event);
}

CUresult cuGraphExecChildGraphNodeSetParams(CUgraphExec hGraphExec,
                                            CUgraphNode hNode,
                                            CUgraph childGraph)
{
    return EXEC_TRACE((CUresult)gph_exec_child(hGraphExec, hNode,
                                               childGraph),
                      "cuGraphExecChildGraphNodeSetParams", hGraphExec,
                      hNode, childGraph);
}

/* The first form reports the failing node and the reason apart. */
CUresult cuGraphExecUpdate(CUgraphExec hGraphExec, CUgraph hGraph,
                           CUgraphNode *hErrorNode_out,
                           CUgraphExecUpdateResult *updateResult_out)
{
    CUgraphExecUpdateResultInfo info = { 0, NULL, NULL };
    CUresult r = hErrorNode_out && updateResult_out
                     ? (CUresult)gph_exec_update(hGraphExec, hGraph, &info)
                     : CUDA_ERROR_INVALID_VALUE;
    if (hErrorNode_out && updateResult_out) {
        *hErrorNode_out = info.errorNode;
        *updateResult_out = info.result;
    }
    return drv_trace(r, "cuGraphExecUpdate", "%p, %p, %p, %p",
                     (void *)hGraphExec, (void *)hGraph,
                     (void *)hErrorNode_out, (void *)updateResult_out);
}

CUresult cuGraphExecUpdate_v2(CUgraphExec hGraphExec, CUgraph hGraph,
                              CUgraphExecUpdateResultInfo *resultInfo)
{
    return drv_trace((CUresult)gph_exec_update(hGraphExec, hGraph,
                                               resultInfo),
                     "cuGraphExecUpdate_v2", "%p, %p, %p",
                     (void *)hGraphExec, (void *)hGraph, (void *)resultInfo);
}
