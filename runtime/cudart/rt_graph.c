/*
 * runtime/cudart/rt_graph.c: CUDA graphs for the runtime: the shared
 * graph (runtime/graph/gph.h, which says what a graph is and how it
 * runs) with the runtime's node parameters (rt_node_params: a kernel
 * node names its kernel by its host stub) and entry points.
 */
#include <stdint.h>
#include <string.h>

#include "runtime/cuda/queue_table.h"
#include "runtime/cudart/rt_internal.h"
#include "runtime/graph/gattr.h"
#include "runtime/graph/gcond.h"
#include "runtime/graph/glaunch.h"
#include "runtime/graph/gmem.h"
#include "runtime/graph/gph.h"

_Static_assert(sizeof(rt_node_params) <= GPH_PARAMS_SIZE,
               "rt_node_params does not fit a graph node");
_Static_assert((int)cudaErrorInvalidValue == GPH_EINVAL
               && (int)cudaErrorMemoryAllocation == GPH_ENOMEM
               && (int)cudaErrorNotSupported == GPH_ENOTSUP
               && (int)cudaErrorGraphExecUpdateFailure == GPH_EUPDATE
               && (int)cudaGraphNodeTypeEventRecord
                      == (int)CU_GRAPH_NODE_TYPE_EVENT_RECORD
               && (int)cudaGraphNodeTypeWaitEvent
                      == (int)CU_GRAPH_NODE_TYPE_WAIT_EVENT
               && (int)cudaGraphNodeTypeGraph
                      == (int)CU_GRAPH_NODE_TYPE_GRAPH
               && sizeof(cudaGraphExecUpdateResultInfo)
                      == sizeof(CUgraphExecUpdateResultInfo),
               "runtime and driver graph codes differ");

/* A node's parameters. */
static rt_node_params *P(cudaGraphNode_t n)
{
    return (rt_node_params *)(void *)n->p;
}

/* Copies the values of the kernel's arguments (gph_copy_args). */
static cudaError_t copy_kernel(cudaGraphNode_t n,
                               const struct cudaKernelNodeParams *kp)
{
    if (kp->extra)
        return cudaErrorNotSupported;   /* only kernelParams */
    rt_func *f = kp->func ? rt_func_lookup(kp->func) : NULL;
    if (!f)
        return cudaErrorInvalidDeviceFunction;
    CUfunction fn;
    cudaError_t e = rt_func_get(f, &fn);
    if (e != cudaSuccess)
        return e;
    void **argv;
    if ((e = (cudaError_t)gph_copy_args(n, fn, kp->kernelParams, &argv))
        != cudaSuccess)
        return e;
    P(n)->kernel = *kp;
    P(n)->kernel.kernelParams = argv;
    return cudaSuccess;
}

/* Checks a node's parameters and stores them in n (gph_ops.set). */
static int set_params(cudaGraphNode_t n, int type, const void *pv)
{
    const rt_node_params *p = pv;
    switch (type) {
    case cudaGraphNodeTypeKernel:
        return copy_kernel(n, &p->kernel);
    case cudaGraphNodeTypeMemcpy:
        /* Arrays: rt_memcpy_now hands them to rt_array.c; each side
         * is an array or a pointer, not both. */
        if ((p->memcpy.srcArray || p->memcpy.dstArray)
            && (!p->memcpy.srcArray == !p->memcpy.srcPtr.ptr
                || !p->memcpy.dstArray == !p->memcpy.dstPtr.ptr))
            return cudaErrorInvalidValue;
        if ((unsigned)p->memcpy.kind > cudaMemcpyDefault)
            return cudaErrorInvalidMemcpyDirection;
        P(n)->memcpy = p->memcpy;
        return cudaSuccess;
    case cudaGraphNodeTypeMemset:
        if (!gph_memset_ok(p->memset.dst != NULL, p->memset.elementSize,
                           p->memset.width, p->memset.height,
                           p->memset.pitch))
            return cudaErrorInvalidValue;
        P(n)->memset = p->memset;
        return cudaSuccess;
    case cudaGraphNodeTypeHost:
        if (!p->host.fn)
            return cudaErrorInvalidValue;
        P(n)->host = p->host;
        return cudaSuccess;
    case cudaGraphNodeTypeEventRecord:
    case cudaGraphNodeTypeWaitEvent:
        if (!p->event)
            return cudaErrorInvalidValue;
        P(n)->event = p->event;
        return cudaSuccess;
    case cudaGraphNodeTypeMemAlloc: {
        rt_node_params q = *p;
        cudaError_t e = rt_graph_alloc_set(&q);
        if (e == cudaSuccess)
            P(n)->alloc = q.alloc;
        return e;
    }
    case cudaGraphNodeTypeMemFree:
        if (!gmem_known((CUdeviceptr)(uintptr_t)p->free_ptr))
            return cudaErrorInvalidValue;
        P(n)->free_ptr = p->free_ptr;
        return cudaSuccess;
    default:
        return cudaErrorNotSupported;
    }
}

const gph_ops rt_graph_ops = { set_params };

/* ---------------------------------------------------------- graphs */

RT_API cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *out,
                                            cudaGraphNode_t n,
                                            cudaGraph_t clone)
{
    return rt_err((cudaError_t)gph_find_in_clone(out, n, clone));
}

RT_API cudaError_t cudaGraphCreate(cudaGraph_t *g, unsigned flags)
{
    if (flags != 0)
        return rt_err(cudaErrorInvalidValue);
    return rt_err((cudaError_t)gph_create(g, &rt_graph_ops));
}

RT_API cudaError_t cudaGraphDestroy(cudaGraph_t g)
{
    return rt_err((cudaError_t)gph_destroy(g));
}

/* "The graph cannot be cloned" when it holds memory nodes (CUDA
 * runtime API, cudaGraphAddMemAllocNode). */
RT_API cudaError_t cudaGraphClone(cudaGraph_t *out, cudaGraph_t g)
{
    if (gph_mine(g) && gmem_graph_has_mem(g))
        return rt_err(cudaErrorNotSupported);
    return rt_err((cudaError_t)gph_clone(out, g));
}

static cudaError_t add_node(cudaGraphNode_t *n, cudaGraph_t g,
                            const cudaGraphNode_t *deps, size_t nd,
                            enum cudaGraphNodeType type,
                            const rt_node_params *p)
{
    return rt_err((cudaError_t)gph_add(g, n, deps, nd, (int)type, p));
}

#define ADD_NODE(type, p) return add_node(n, g, deps, nd, (type), (p))

/* A node whose parameters are one struct or handle, *src (NULL:
 * cudaErrorInvalidValue), copied into zeroed parameters: every member
 * of the rt_node_params union starts at its beginning. */
static cudaError_t add_copied(cudaGraphNode_t *n, cudaGraph_t g,
                              const cudaGraphNode_t *deps, size_t nd,
                              enum cudaGraphNodeType type, const void *src,
                              size_t size)
{
    rt_node_params p;
    if (!src && size)
        return rt_err(cudaErrorInvalidValue);
    memset(&p, 0, sizeof p);
    if (size)
        memcpy(&p, src, size < sizeof p ? size : sizeof p);
    return add_node(n, g, deps, nd, type, &p);
}

#define ADD_COPIED(type, src) \
    return add_copied(n, g, deps, nd, (type), (src), sizeof *(src))

RT_API cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *n, cudaGraph_t g,
                                          const cudaGraphNode_t *deps,
                                          size_t nd,
                                          const struct cudaKernelNodeParams
                                              *kp)
{
    ADD_COPIED(cudaGraphNodeTypeKernel, kp);
}

RT_API cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *n, cudaGraph_t g,
                                          const cudaGraphNode_t *deps,
                                          size_t nd,
                                          const struct cudaMemcpy3DParms
                                              *cp)
{
    ADD_COPIED(cudaGraphNodeTypeMemcpy, cp);
}

/* A 1D copy as memcpy node parameters. */
static rt_node_params params_1d(void *dst, const void *src, size_t count,
                                enum cudaMemcpyKind kind)
{
    rt_node_params p;
    memset(&p, 0, sizeof p);
    p.memcpy.srcPtr.ptr = (void *)src;
    p.memcpy.srcPtr.pitch = count;
    p.memcpy.srcPtr.xsize = count;
    p.memcpy.srcPtr.ysize = 1;
    p.memcpy.dstPtr = p.memcpy.srcPtr;
    p.memcpy.dstPtr.ptr = dst;
    p.memcpy.extent.width = count;
    p.memcpy.extent.height = 1;
    p.memcpy.extent.depth = 1;
    p.memcpy.kind = kind;
    return p;
}

/* A copy to (to_symbol) or from a registered device variable as memcpy
 * node parameters: the variable's address now, as CUDA resolves it
 * when the node is made. */
static cudaError_t symbol_params(rt_node_params *p, const void *symbol,
                                 void *host, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind, int to_symbol)
{
    if ((unsigned)kind > cudaMemcpyDefault || kind == cudaMemcpyHostToHost
        || kind == (to_symbol ? cudaMemcpyDeviceToHost
                              : cudaMemcpyHostToDevice))
        return rt_err(cudaErrorInvalidMemcpyDirection);
    if (count && !host)
        return rt_err(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    CUdeviceptr addr;
    size_t size;
    if ((e = rt_var_get(symbol, &addr, &size)) != cudaSuccess)
        return rt_err(e);
    if (offset > size || count > size - offset)
        return rt_err(cudaErrorInvalidValue);
    void *dev = (char *)(uintptr_t)addr + offset;
    *p = to_symbol ? params_1d(dev, host, count, kind)
                   : params_1d(host, dev, count, kind);
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *n,
                                                  cudaGraph_t g,
                                                  const cudaGraphNode_t
                                                      *deps,
                                                  size_t nd,
                                                  const void *symbol,
                                                  const void *src,
                                                  size_t count,
                                                  size_t offset,
                                                  enum cudaMemcpyKind kind)
{
    rt_node_params p;
    cudaError_t e = symbol_params(&p, symbol, (void *)src, count, offset,
                                  kind, 1);
    if (e != cudaSuccess)
        return e;
    ADD_NODE(cudaGraphNodeTypeMemcpy, &p);
}

RT_API cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *n,
                                                    cudaGraph_t g,
                                                    const cudaGraphNode_t
                                                        *deps,
                                                    size_t nd, void *dst,
                                                    const void *symbol,
                                                    size_t count,
                                                    size_t offset,
                                                    enum cudaMemcpyKind kind)
{
    rt_node_params p;
    cudaError_t e = symbol_params(&p, symbol, dst, count, offset, kind, 0);
    if (e != cudaSuccess)
        return e;
    ADD_NODE(cudaGraphNodeTypeMemcpy, &p);
}

RT_API cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *n,
                                            cudaGraph_t g,
                                            const cudaGraphNode_t *deps,
                                            size_t nd, void *dst,
                                            const void *src, size_t count,
                                            enum cudaMemcpyKind kind)
{
    if (count && (!dst || !src))
        return rt_err(cudaErrorInvalidValue);
    rt_node_params p = params_1d(dst, src, count, kind);
    ADD_NODE(cudaGraphNodeTypeMemcpy, &p);
}

RT_API cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *n, cudaGraph_t g,
                                          const cudaGraphNode_t *deps,
                                          size_t nd,
                                          const struct cudaMemsetParams *mp)
{
    ADD_COPIED(cudaGraphNodeTypeMemset, mp);
}

RT_API cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *n, cudaGraph_t g,
                                        const cudaGraphNode_t *deps,
                                        size_t nd,
                                        const struct cudaHostNodeParams *hp)
{
    ADD_COPIED(cudaGraphNodeTypeHost, hp);
}

RT_API cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *n, cudaGraph_t g,
                                         const cudaGraphNode_t *deps,
                                         size_t nd)
{
    return add_copied(n, g, deps, nd, cudaGraphNodeTypeEmpty, NULL, 0);
}

RT_API cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *n,
                                              cudaGraph_t g,
                                              const cudaGraphNode_t *deps,
                                              size_t nd, cudaGraph_t child)
{
    if (child == g)
        return rt_err(cudaErrorInvalidValue);
    ADD_COPIED(cudaGraphNodeTypeGraph, &child);
}

RT_API cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *n,
                                               cudaGraph_t g,
                                               const cudaGraphNode_t *deps,
                                               size_t nd, cudaEvent_t ev)
{
    ADD_COPIED(cudaGraphNodeTypeEventRecord, &ev);
}

RT_API cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *n,
                                             cudaGraph_t g,
                                             const cudaGraphNode_t *deps,
                                             size_t nd, cudaEvent_t ev)
{
    ADD_COPIED(cudaGraphNodeTypeWaitEvent, &ev);
}

RT_API cudaError_t cudaGraphAddDependencies(cudaGraph_t g,
                                            const cudaGraphNode_t *from,
                                            const cudaGraphNode_t *to,
                                            const cudaGraphEdgeData *edges,
                                            size_t n)
{
    return rt_err((cudaError_t)gph_add_deps(
        g, from, to, (const CUgraphEdgeData *)edges, n));
}

RT_API cudaError_t cudaGraphRemoveDependencies(cudaGraph_t g,
                                               const cudaGraphNode_t *from,
                                               const cudaGraphNode_t *to,
                                               const cudaGraphEdgeData *edges,
                                               size_t n)
{
    return rt_err((cudaError_t)gph_remove_deps(
        g, from, to, (const CUgraphEdgeData *)edges, n));
}

RT_API cudaError_t cudaGraphGetEdges(cudaGraph_t g, cudaGraphNode_t *from,
                                     cudaGraphNode_t *to,
                                     cudaGraphEdgeData *edges, size_t *n)
{
    return rt_err((cudaError_t)gph_edges(g, from, to,
                                         (CUgraphEdgeData *)edges, n));
}

RT_API cudaError_t cudaGraphDestroyNode(cudaGraphNode_t n)
{
    return rt_err((cudaError_t)gph_destroy_node(n));
}

RT_API cudaError_t cudaGraphGetNodes(cudaGraph_t g, cudaGraphNode_t *nodes,
                                     size_t *n)
{
    return rt_err((cudaError_t)gph_nodes(g, nodes, n, 0));
}

RT_API cudaError_t cudaGraphGetRootNodes(cudaGraph_t g,
                                         cudaGraphNode_t *nodes, size_t *n)
{
    return rt_err((cudaError_t)gph_nodes(g, nodes, n, 1));
}

RT_API cudaError_t cudaGraphNodeGetType(cudaGraphNode_t n,
                                        enum cudaGraphNodeType *type)
{
    if (!gph_node_mine(n) || !type)
        return rt_err(cudaErrorInvalidValue);
    *type = (enum cudaGraphNodeType)n->type;
    return cudaSuccess;
}

/* A node's parameters: read, or replaced (checked as when added; the
 * node keeps its old ones if they are refused). */
static cudaError_t get_params(cudaGraphNode_t n, enum cudaGraphNodeType t,
                              void *out, size_t size)
{
    return rt_err((cudaError_t)gph_get(n, (int)t, out, size));
}

static cudaError_t set_node(cudaGraphNode_t n, enum cudaGraphNodeType t,
                            const rt_node_params *p)
{
    return rt_err((cudaError_t)gph_set(n, (int)t, p));
}

/* The typed entry points: each copies the caller's struct into the
 * union (GET/SET) or reads it out. */
#define GET(name, T, member, type) \
    RT_API cudaError_t name(cudaGraphNode_t n, T *out) \
    { \
        return get_params(n, type, out, sizeof *out); \
    }
#define SET(name, T, member, type) \
    RT_API cudaError_t name(cudaGraphNode_t n, const T *in) \
    { \
        if (!in) \
            return rt_err(cudaErrorInvalidValue); \
        rt_node_params p; \
        memset(&p, 0, sizeof p); \
        p.member = *in; \
        return set_node(n, type, &p); \
    }

GET(cudaGraphKernelNodeGetParams, struct cudaKernelNodeParams, kernel,
    cudaGraphNodeTypeKernel)
SET(cudaGraphKernelNodeSetParams, struct cudaKernelNodeParams, kernel,
    cudaGraphNodeTypeKernel)
GET(cudaGraphMemcpyNodeGetParams, struct cudaMemcpy3DParms, memcpy,
    cudaGraphNodeTypeMemcpy)
SET(cudaGraphMemcpyNodeSetParams, struct cudaMemcpy3DParms, memcpy,
    cudaGraphNodeTypeMemcpy)
GET(cudaGraphMemsetNodeGetParams, struct cudaMemsetParams, memset,
    cudaGraphNodeTypeMemset)
SET(cudaGraphMemsetNodeSetParams, struct cudaMemsetParams, memset,
    cudaGraphNodeTypeMemset)
GET(cudaGraphHostNodeGetParams, struct cudaHostNodeParams, host,
    cudaGraphNodeTypeHost)
SET(cudaGraphHostNodeSetParams, struct cudaHostNodeParams, host,
    cudaGraphNodeTypeHost)

/* Event nodes: the event, read or replaced. */
#define EVENT_NODE(get, set, type) \
    RT_API cudaError_t get(cudaGraphNode_t n, cudaEvent_t *ev) \
    { \
        return get_params(n, type, ev, sizeof *ev); \
    } \
    RT_API cudaError_t set(cudaGraphNode_t n, cudaEvent_t ev) \
    { \
        rt_node_params p; \
        memset(&p, 0, sizeof p); \
        p.event = ev; \
        return set_node(n, type, &p); \
    }

EVENT_NODE(cudaGraphEventRecordNodeGetEvent,
           cudaGraphEventRecordNodeSetEvent, cudaGraphNodeTypeEventRecord)
EVENT_NODE(cudaGraphEventWaitNodeGetEvent, cudaGraphEventWaitNodeSetEvent,
           cudaGraphNodeTypeWaitEvent)

RT_API cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t n,
                                                  void *dst, const void *src,
                                                  size_t count,
                                                  enum cudaMemcpyKind kind)
{
    if (count && (!dst || !src))
        return rt_err(cudaErrorInvalidValue);
    rt_node_params p = params_1d(dst, src, count, kind);
    return set_node(n, cudaGraphNodeTypeMemcpy, &p);
}

RT_API cudaError_t
cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t n, const void *symbol,
                                     const void *src, size_t count,
                                     size_t offset, enum cudaMemcpyKind kind)
{
    rt_node_params p;
    cudaError_t e = symbol_params(&p, symbol, (void *)src, count, offset,
                                  kind, 1);
    return e != cudaSuccess ? e : set_node(n, cudaGraphNodeTypeMemcpy, &p);
}

RT_API cudaError_t
cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t n, void *dst,
                                       const void *symbol, size_t count,
                                       size_t offset,
                                       enum cudaMemcpyKind kind)
{
    rt_node_params p;
    cudaError_t e = symbol_params(&p, symbol, dst, count, offset, kind, 0);
    return e != cudaSuccess ? e : set_node(n, cudaGraphNodeTypeMemcpy, &p);
}

/* The embedded graph (the node's own: changing it changes the node). */
RT_API cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t n,
                                                   cudaGraph_t *g)
{
    if (!gph_node_mine(n) || !g || n->type != cudaGraphNodeTypeGraph)
        return rt_err(cudaErrorInvalidValue);
    *g = gph_child(n);
    return cudaSuccess;
}

/* As cudaGraphGetNodes, for a node's dependencies; every edge is a
 * default one (zeroed edge data). */
RT_API cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t n,
                                                cudaGraphNode_t *deps,
                                                cudaGraphEdgeData *edges,
                                                size_t *count)
{
    return rt_err((cudaError_t)gph_node_deps(n, deps,
                                             (CUgraphEdgeData *)edges,
                                             count));
}

/* The nodes that depend on n, in creation order. */
RT_API cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t n,
                                                  cudaGraphNode_t *out,
                                                  cudaGraphEdgeData *edges,
                                                  size_t *count)
{
    return rt_err((cudaError_t)gph_node_dependents(
        n, out, (CUgraphEdgeData *)edges, count));
}

/* ------------------------------------------------- instantiation */

RT_API cudaError_t cudaGraphInstantiate(cudaGraphExec_t *x, cudaGraph_t g,
                                        unsigned long long flags)
{
    return rt_err((cudaError_t)gph_instantiate(x, g, flags));
}

RT_API cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *x,
                                                 cudaGraph_t g,
                                                 unsigned long long flags)
{
    return rt_err((cudaError_t)gph_instantiate(x, g, flags));
}

/* CUDA runtime API, cudaGraphInstantiateWithParams: as
 * cudaGraphInstantiateWithFlags with p->flags, then, with
 * cudaGraphInstantiateFlagUpload, an upload to p->uploadStream
 * (cudaGraphUpload); p->result_out says whether it worked:
 * cudaGraphInstantiateInvalidStructure for a cycle ("invalid structure,
 * such as cycles"), with a node on it in p->errNode_out; no other
 * failure here is one node's (a flag, a memory-node rule), and
 * errNode_out is NULL then. */
static cudaError_t with_params(cudaGraphExec_t *x, cudaGraph_t g,
                               cudaGraphInstantiateParams *p, int ptsz)
{
    if (!x || !p)
        return rt_err(cudaErrorInvalidValue);
    p->errNode_out = NULL;
    p->result_out = cudaGraphInstantiateError;
    cudaGraphExec_t ex;
    cudaError_t e = (cudaError_t)gph_instantiate(&ex, g, p->flags);
    if (e == cudaSuccess && (p->flags & cudaGraphInstantiateFlagUpload)) {
        cudaStream_t s = p->uploadStream;
        e = ptsz ? cudaGraphUpload_ptsz(ex, s) : cudaGraphUpload(ex, s);
        if (e != cudaSuccess)
            (void)gph_exec_destroy(ex);
    }
    if (e != cudaSuccess) {
        p->errNode_out = gph_cyclic(g);
        if (p->errNode_out)
            p->result_out = cudaGraphInstantiateInvalidStructure;
        return rt_err(e);
    }
    *x = ex;
    p->result_out = cudaGraphInstantiateSuccess;
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *x,
                                                  cudaGraph_t g,
                                                  cudaGraphInstantiateParams *p)
{
    return with_params(x, g, p, 0);
}

/* The upload stream 0 is the calling thread's per-thread stream. */
RT_API cudaError_t
cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *x, cudaGraph_t g,
                                    cudaGraphInstantiateParams *p)
{
    return with_params(x, g, p, 1);
}

/* Launches still queued hold what they run (glaunch.h) and run it. */
RT_API cudaError_t cudaGraphExecDestroy(cudaGraphExec_t x)
{
    return rt_err((cudaError_t)gph_exec_destroy(x));
}

/* ------------------------------------------------------- launching */

static int run_node(cudaGraphNode_t n, void *arg)
{
    cudaStream_t s = arg;
    const rt_node_params *p = P(n);
    const struct cudaKernelNodeParams *k = &p->kernel;
    CUlaunchAttribute at[GATTR_LAUNCH_MAX];
    CUresult r;
    switch (n->type) {
    case cudaGraphNodeTypeKernel:
        return rt_launch_now(k->func, k->gridDim, k->blockDim,
                             k->kernelParams, k->sharedMemBytes, s, at,
                             gattr_node_launch(n, at));
    case cudaGraphNodeTypeMemcpy:
        return rt_memcpy_now(&p->memcpy);
    case cudaGraphNodeTypeMemset:
        return rt_memset_now(&p->memset);
    case cudaGraphNodeTypeHost:
        p->host.fn(p->host.userData);
        return cudaSuccess;
    case cudaGraphNodeTypeEventRecord:
        r = cuEventRecord((CUevent)p->event, rt_stream(s));
        return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
    case cudaGraphNodeTypeWaitEvent:
        /* Only in a conditional node's body (glaunch.c puts the others
         * on the stream): run on the worker, it only checks the event. */
        r = cuStreamWaitEvent(rt_stream(s), (CUevent)p->event, 0);
        return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
    case cudaGraphNodeTypeMemAlloc:
    case cudaGraphNodeTypeMemFree:
        return (cudaError_t)gmem_run(n);
    default:
        return cudaSuccess;
    }
}

/* The driver's PTXEMU_QUEUE table (runtime/cuda/queue_table.h). */
static const DrvQueueTable *queue_table(void)
{
    static const DrvQueueTable *_Atomic table;
    const DrvQueueTable *t = table;
    if (!t) {
        CUuuid id = {DRV_PTXEMU_QUEUE_UUID};
        const void *p = NULL;
        if (cuGetExportTable(&p, &id) == CUDA_SUCCESS && p &&
            ((const DrvQueueTable *)p)->size >= sizeof(DrvQueueTable))
            t = table = p;
    }
    return t;
}

static cudaError_t done_cu(CUresult r)
{
    return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
}

/* Puts a graph launch's work on s (glaunch_ops.enqueue): the
 * driver's answer as the runtime's error. */
static int enqueue(void *s, const DrvStep *steps, size_t n)
{
    const DrvQueueTable *q = queue_table();
    if (!q) {
        for (size_t i = 0; i < n; i++)
            steps[i].fr(steps[i].arg);
        return cudaErrorUnknown;
    }
    return done_cu(q->enqueue_seq(rt_stream(s), steps, n));
}

static const glaunch_ops launch_ops = { run_node, enqueue };

RT_API cudaError_t cudaGraphLaunch(cudaGraphExec_t x, cudaStream_t s)
{
    if (!gph_exec_mine(x))
        return rt_err(cudaErrorInvalidValue);
    /* Launched into a capturing stream, the graph becomes a child graph
     * node of the capture. */
    rt_node_params p;
    memset(&p, 0, sizeof p);
    p.child = x->g;
    int taken;
    cudaError_t e = rt_capture_node(s, cudaGraphNodeTypeGraph, &p, &taken);
    if (taken)
        return e;
    if ((e = rt_enter()) != cudaSuccess ||
        (e = rt_stream_check(s)) != cudaSuccess)
        return e;
    if (!gmem_graph_has_mem(x->g))
        return rt_err((cudaError_t)glaunch_start(x, s, &launch_ops, 0, NULL));
    /* Memory nodes: the launch waits for its graph, so that a failure
     * of theirs (an allocation still live) is the launch's. */
    glaunch *l;
    if ((e = (cudaError_t)glaunch_start(x, s, &launch_ops, 1, &l))
        != cudaSuccess)
        return rt_err(e);
    CUresult r = cuStreamSynchronize(rt_stream(s));
    e = r != CUDA_SUCCESS ? done_cu(r) : (cudaError_t)glaunch_result(l);
    glaunch_put(l);
    return rt_err(e);
}

/* Nothing to upload: the emulated device reads the host's copy. */
RT_API cudaError_t cudaGraphUpload(cudaGraphExec_t x, cudaStream_t s)
{
    if (!gph_exec_mine(x))
        return rt_err(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    return e != cudaSuccess ? e : rt_stream_check(s);
}

/* ----------------------------------------------------------- updates */

RT_API cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t x,
                                         unsigned long long *flags)
{
    if (!gph_exec_mine(x) || !flags)
        return rt_err(cudaErrorInvalidValue);
    *flags = x->flags;
    return cudaSuccess;
}

/* Sets the parameters of the executable copy's node for n, a node of
 * the graph x was made (or last updated) from, if it is of type t. */
static cudaError_t exec_set(cudaGraphExec_t x, cudaGraphNode_t n,
                            enum cudaGraphNodeType t,
                            const rt_node_params *p)
{
    cudaGraphNode_t c = gph_exec_node(x, n, (int)t);
    if (!c)
        return rt_err(cudaErrorInvalidValue);
    return set_node(c, t, p);
}

#define EXEC_SET(name, T, member, type) \
    RT_API cudaError_t name(cudaGraphExec_t x, cudaGraphNode_t n, \
                            const T *in) \
    { \
        if (!in) \
            return rt_err(cudaErrorInvalidValue); \
        rt_node_params p; \
        memset(&p, 0, sizeof p); \
        p.member = *in; \
        return exec_set(x, n, type, &p); \
    }

EXEC_SET(cudaGraphExecKernelNodeSetParams, struct cudaKernelNodeParams,
         kernel, cudaGraphNodeTypeKernel)
EXEC_SET(cudaGraphExecMemcpyNodeSetParams, struct cudaMemcpy3DParms,
         memcpy, cudaGraphNodeTypeMemcpy)
EXEC_SET(cudaGraphExecMemsetNodeSetParams, struct cudaMemsetParams,
         memset, cudaGraphNodeTypeMemset)
EXEC_SET(cudaGraphExecHostNodeSetParams, struct cudaHostNodeParams, host,
         cudaGraphNodeTypeHost)

RT_API cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t x,
                                                       cudaGraphNode_t n,
                                                       cudaEvent_t ev)
{
    rt_node_params p;
    memset(&p, 0, sizeof p);
    p.event = ev;
    return exec_set(x, n, cudaGraphNodeTypeEventRecord, &p);
}

RT_API cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t x,
                                                     cudaGraphNode_t n,
                                                     cudaEvent_t ev)
{
    rt_node_params p;
    memset(&p, 0, sizeof p);
    p.event = ev;
    return exec_set(x, n, cudaGraphNodeTypeWaitEvent, &p);
}

RT_API cudaError_t
cudaGraphExecMemcpyNodeSetParamsToSymbol(cudaGraphExec_t x,
                                         cudaGraphNode_t n,
                                         const void *symbol, const void *src,
                                         size_t count, size_t offset,
                                         enum cudaMemcpyKind kind)
{
    rt_node_params p;
    cudaError_t e = symbol_params(&p, symbol, (void *)src, count, offset,
                                  kind, 1);
    return e != cudaSuccess ? e
                            : exec_set(x, n, cudaGraphNodeTypeMemcpy, &p);
}

RT_API cudaError_t
cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t x,
                                           cudaGraphNode_t n, void *dst,
                                           const void *symbol, size_t count,
                                           size_t offset,
                                           enum cudaMemcpyKind kind)
{
    rt_node_params p;
    cudaError_t e = symbol_params(&p, symbol, dst, count, offset, kind, 0);
    return e != cudaSuccess ? e
                            : exec_set(x, n, cudaGraphNodeTypeMemcpy, &p);
}

RT_API cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t x,
                                                      cudaGraphNode_t n,
                                                      void *dst,
                                                      const void *src,
                                                      size_t count,
                                                      enum cudaMemcpyKind
                                                          kind)
{
    if (count && (!dst || !src))
        return rt_err(cudaErrorInvalidValue);
    rt_node_params p = params_1d(dst, src, count, kind);
    return exec_set(x, n, cudaGraphNodeTypeMemcpy, &p);
}

/* A child graph node of an executable graph takes a copy of child,
 * which must have the topology of the one it replaces. */
RT_API cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t x,
                                                        cudaGraphNode_t n,
                                                        cudaGraph_t child)
{
    return rt_err((cudaError_t)gph_exec_child(x, n, child));
}

RT_API cudaError_t cudaGraphExecUpdate(cudaGraphExec_t x, cudaGraph_t g,
                                       cudaGraphExecUpdateResultInfo *info)
{
    return rt_err((cudaError_t)gph_exec_update(
        x, g, (CUgraphExecUpdateResultInfo *)info));
}
