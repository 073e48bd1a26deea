/*
 * runtime/cudart/rt_graph.c: CUDA graphs.  A graph is its nodes in
 * creation order, each with the nodes it depends on; instantiating
 * copies it and fixes one order of its nodes that respects every
 * dependency (Kahn's algorithm, the earliest-created ready node first),
 * and a launch runs the nodes in that order on the one emulated device,
 * as the same calls made eagerly would.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cudart/rt_internal.h"

struct CUgraphNode_st {
    cudaGraph_t graph;
    size_t index;               /* position in its graph */
    /* Creation number in its graph, kept by copies: what names the
     * node in an executable graph (indices move when nodes go). */
    unsigned long long uid;
    enum cudaGraphNodeType type;
    cudaGraphNode_t *deps;
    size_t ndeps, deps_cap;
    rt_node_params p;
    /* A kernel node's argument values: p.kernel.kernelParams points at
     * argv, whose entries point into args. */
    void **argv;
    unsigned char *args;
};

struct CUgraph_st {
    cudaGraphNode_t *nodes;
    size_t n, cap;
    unsigned long long next_uid;
    size_t *order;              /* set when instantiated */
};

struct CUgraphExec_st {
    cudaGraph_t src;            /* whose node handles address it */
    cudaGraph_t g;              /* the executable copy */
    unsigned long long flags;   /* as instantiated */
};

static void node_free(cudaGraphNode_t n);

static void graph_free(cudaGraph_t g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->n; i++)
        node_free(g->nodes[i]);
    free(g->nodes);
    free(g->order);
    free(g);
}

static void node_free(cudaGraphNode_t n)
{
    if (n->type == cudaGraphNodeTypeGraph)
        graph_free(n->p.child);
    free(n->deps);
    free(n->argv);
    free(n->args);
    free(n);
}

static int push_dep(cudaGraphNode_t n, cudaGraphNode_t d)
{
    if (n->ndeps == n->deps_cap) {
        size_t c = n->deps_cap ? 2 * n->deps_cap : 4;
        cudaGraphNode_t *p = realloc(n->deps, c * sizeof *p);
        if (!p)
            return -1;
        n->deps = p;
        n->deps_cap = c;
    }
    n->deps[n->ndeps++] = d;
    return 0;
}

static int has_dep(cudaGraphNode_t n, cudaGraphNode_t d)
{
    for (size_t i = 0; i < n->ndeps; i++)
        if (n->deps[i] == d)
            return 1;
    return 0;
}

/* ------------------------------------------------ kernel arguments */

/* Copies the values of the kernel's arguments (their sizes from the
 * kernel's parameter list), as CUDA does when a node is added or set:
 * later changes to the caller's variables do not reach the node. */
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
    size_t count = 0, total = 0, off, size;
    while (cuFuncGetParamInfo(fn, count, &off, &size) == CUDA_SUCCESS) {
        if (off + size > total)
            total = off + size;
        count++;
    }
    if (count && !kp->kernelParams)
        return cudaErrorInvalidValue;
    void **argv = calloc(count ? count : 1, sizeof *argv);
    unsigned char *args = calloc(total ? total : 1, 1);
    if (!argv || !args) {
        free(argv);
        free(args);
        return cudaErrorMemoryAllocation;
    }
    for (size_t i = 0; i < count; i++) {
        (void)cuFuncGetParamInfo(fn, i, &off, &size);
        if (!kp->kernelParams[i]) {
            free(argv);
            free(args);
            return cudaErrorInvalidValue;
        }
        memcpy(args + off, kp->kernelParams[i], size);
        argv[i] = args + off;
    }
    free(n->argv);
    free(n->args);
    n->argv = argv;
    n->args = args;
    n->p.kernel = *kp;
    n->p.kernel.kernelParams = argv;
    return cudaSuccess;
}

/* ---------------------------------------------------------- nodes */

static cudaError_t graph_clone(cudaGraph_t *out, cudaGraph_t g);

/* Checks a node's parameters and stores them in n. */
static cudaError_t set_params(cudaGraphNode_t n, enum cudaGraphNodeType type,
                              const rt_node_params *p)
{
    n->type = type;
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
        n->p.memcpy = p->memcpy;
        return cudaSuccess;
    case cudaGraphNodeTypeMemset: {
        unsigned es = p->memset.elementSize;
        if (!p->memset.dst || (es != 1 && es != 2 && es != 4)
            || (p->memset.height > 1
                && p->memset.pitch < p->memset.width * es))
            return cudaErrorInvalidValue;
        n->p.memset = p->memset;
        return cudaSuccess;
    }
    case cudaGraphNodeTypeHost:
        if (!p->host.fn)
            return cudaErrorInvalidValue;
        n->p.host = p->host;
        return cudaSuccess;
    case cudaGraphNodeTypeGraph:
        /* The node embeds a copy of the child graph (CUDA clones it). */
        if (!p->child)
            return cudaErrorInvalidValue;
        return graph_clone(&n->p.child, p->child);
    case cudaGraphNodeTypeEmpty:
        return cudaSuccess;
    case cudaGraphNodeTypeEventRecord:
    case cudaGraphNodeTypeWaitEvent:
        if (!p->event)
            return cudaErrorInvalidValue;
        n->p.event = p->event;
        return cudaSuccess;
    default:
        return cudaErrorNotSupported;
    }
}

static cudaError_t append(cudaGraph_t g, cudaGraphNode_t n)
{
    if (g->n == g->cap) {
        size_t c = g->cap ? 2 * g->cap : 16;
        cudaGraphNode_t *p = realloc(g->nodes, c * sizeof *p);
        if (!p)
            return cudaErrorMemoryAllocation;
        g->nodes = p;
        g->cap = c;
    }
    n->graph = g;
    n->index = g->n;
    n->uid = g->next_uid++;
    g->nodes[g->n++] = n;
    return cudaSuccess;
}

cudaError_t rt_graph_add(cudaGraph_t g, cudaGraphNode_t *out,
                         const cudaGraphNode_t *deps, size_t nd,
                         enum cudaGraphNodeType type,
                         const rt_node_params *p)
{
    if (!g || !out || (nd && !deps))
        return cudaErrorInvalidValue;
    cudaGraphNode_t n = calloc(1, sizeof *n);
    if (!n)
        return cudaErrorMemoryAllocation;
    cudaError_t e = cudaSuccess;
    for (size_t i = 0; i < nd && e == cudaSuccess; i++) {
        /* Dependencies are earlier nodes of the same graph, each
         * named once. */
        if (!deps[i] || deps[i]->graph != g || has_dep(n, deps[i]))
            e = cudaErrorInvalidValue;
        else if (push_dep(n, deps[i]))
            e = cudaErrorMemoryAllocation;
    }
    if (e == cudaSuccess)
        e = set_params(n, type, p);
    if (e == cudaSuccess)
        e = append(g, n);
    if (e != cudaSuccess) {
        node_free(n);
        return e;
    }
    *out = n;
    return cudaSuccess;
}

/* ---------------------------------------------------------- graphs */

/* A deep copy: the same nodes in the same order, with the same
 * dependencies (by index: an edge added later may point forwards, so
 * the nodes come first). */
static cudaError_t graph_clone(cudaGraph_t *out, cudaGraph_t g)
{
    cudaGraph_t c = calloc(1, sizeof *c);
    if (!c)
        return cudaErrorMemoryAllocation;
    cudaError_t e = cudaSuccess;
    for (size_t i = 0; i < g->n && e == cudaSuccess; i++) {
        cudaGraphNode_t n = calloc(1, sizeof *n);
        e = n ? set_params(n, g->nodes[i]->type, &g->nodes[i]->p)
              : cudaErrorMemoryAllocation;
        if (e == cudaSuccess)
            e = append(c, n);
        if (e == cudaSuccess)
            n->uid = g->nodes[i]->uid;
        else if (n)
            node_free(n);
    }
    c->next_uid = g->next_uid;
    for (size_t i = 0; i < g->n && e == cudaSuccess; i++) {
        cudaGraphNode_t s = g->nodes[i];
        for (size_t d = 0; d < s->ndeps && e == cudaSuccess; d++)
            if (push_dep(c->nodes[i], c->nodes[s->deps[d]->index]))
                e = cudaErrorMemoryAllocation;
    }
    if (e != cudaSuccess) {
        graph_free(c);
        return e;
    }
    *out = c;
    return cudaSuccess;
}

/* The node of g with creation number uid, or NULL.  Copies keep the
 * creation order, so the numbers increase: a binary search. */
static cudaGraphNode_t find_uid(cudaGraph_t g, unsigned long long uid)
{
    size_t lo = 0, hi = g->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (g->nodes[mid]->uid < uid)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g->n && g->nodes[lo]->uid == uid ? g->nodes[lo] : NULL;
}

RT_API cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *out,
                                            cudaGraphNode_t n,
                                            cudaGraph_t clone)
{
    if (!out || !n || !clone || n->graph == clone)
        return rt_err(cudaErrorInvalidValue);
    *out = find_uid(clone, n->uid);
    return *out ? cudaSuccess : rt_err(cudaErrorInvalidValue);
}

RT_API cudaError_t cudaGraphCreate(cudaGraph_t *g, unsigned flags)
{
    if (!g || flags != 0)
        return rt_err(cudaErrorInvalidValue);
    *g = calloc(1, sizeof **g);
    return *g ? cudaSuccess : rt_err(cudaErrorMemoryAllocation);
}

RT_API cudaError_t cudaGraphDestroy(cudaGraph_t g)
{
    if (!g)
        return rt_err(cudaErrorInvalidValue);
    graph_free(g);
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphClone(cudaGraph_t *out, cudaGraph_t g)
{
    if (!out || !g)
        return rt_err(cudaErrorInvalidValue);
    return rt_err(graph_clone(out, g));
}

static cudaError_t add_node(cudaGraphNode_t *n, cudaGraph_t g,
                            const cudaGraphNode_t *deps, size_t nd,
                            enum cudaGraphNodeType type,
                            const rt_node_params *p)
{
    if (!p)
        return rt_err(cudaErrorInvalidValue);
    return rt_err(rt_graph_add(g, n, deps, nd, type, p));
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

static int edge_is_default(const cudaGraphEdgeData *e)
{
    static const cudaGraphEdgeData zero;
    return memcmp(e, &zero, sizeof zero) == 0;
}

RT_API cudaError_t cudaGraphAddDependencies(cudaGraph_t g,
                                            const cudaGraphNode_t *from,
                                            const cudaGraphNode_t *to,
                                            const cudaGraphEdgeData *edges,
                                            size_t n)
{
    if (!g || (n && (!from || !to)))
        return rt_err(cudaErrorInvalidValue);
    /* All checked first: a failing call adds no edge. */
    for (size_t i = 0; i < n; i++) {
        if (!from[i] || !to[i] || from[i]->graph != g || to[i]->graph != g
            || from[i] == to[i] || has_dep(to[i], from[i]))
            return rt_err(cudaErrorInvalidValue);
        /* Only full-completion edges (ports and programmatic
         * dependencies are not modelled). */
        if (edges && !edge_is_default(&edges[i]))
            return rt_err(cudaErrorNotSupported);
        for (size_t j = 0; j < i; j++)
            if (from[j] == from[i] && to[j] == to[i])
                return rt_err(cudaErrorInvalidValue);
    }
    for (size_t i = 0; i < n; i++)
        if (push_dep(to[i], from[i]))
            return rt_err(cudaErrorMemoryAllocation);
    return cudaSuccess;
}

static void drop_dep(cudaGraphNode_t n, cudaGraphNode_t d)
{
    for (size_t i = 0; i < n->ndeps; i++)
        if (n->deps[i] == d) {
            memmove(&n->deps[i], &n->deps[i + 1],
                    (n->ndeps - i - 1) * sizeof *n->deps);
            n->ndeps--;
            return;
        }
}

RT_API cudaError_t cudaGraphRemoveDependencies(cudaGraph_t g,
                                               const cudaGraphNode_t *from,
                                               const cudaGraphNode_t *to,
                                               const cudaGraphEdgeData *edges,
                                               size_t n)
{
    if (!g || (n && (!from || !to)))
        return rt_err(cudaErrorInvalidValue);
    for (size_t i = 0; i < n; i++) {
        if (!from[i] || !to[i] || to[i]->graph != g
            || !has_dep(to[i], from[i]))
            return rt_err(cudaErrorInvalidValue);
        if (edges && !edge_is_default(&edges[i]))
            return rt_err(cudaErrorInvalidValue);
    }
    for (size_t i = 0; i < n; i++)
        drop_dep(to[i], from[i]);
    return cudaSuccess;
}

/* Every edge, by the creation order of the dependent node, then of its
 * dependencies as added; counted when from is NULL. */
RT_API cudaError_t cudaGraphGetEdges(cudaGraph_t g, cudaGraphNode_t *from,
                                     cudaGraphNode_t *to,
                                     cudaGraphEdgeData *edges, size_t *n)
{
    if (!g || !n || (!from != !to) || (edges && !from))
        return rt_err(cudaErrorInvalidValue);
    size_t have = 0;
    for (size_t i = 0; i < g->n; i++)
        for (size_t d = 0; d < g->nodes[i]->ndeps; d++, have++)
            if (from && have < *n) {
                from[have] = g->nodes[i]->deps[d];
                to[have] = g->nodes[i];
                if (edges)
                    memset(&edges[have], 0, sizeof *edges);
            }
    if (from) {
        for (size_t i = have; i < *n; i++) {
            from[i] = to[i] = NULL;
            if (edges)
                memset(&edges[i], 0, sizeof *edges);
        }
        if (have > *n)
            have = *n;
    }
    *n = have;
    return cudaSuccess;
}

/* The node goes with every edge to and from it. */
RT_API cudaError_t cudaGraphDestroyNode(cudaGraphNode_t n)
{
    if (!n)
        return rt_err(cudaErrorInvalidValue);
    cudaGraph_t g = n->graph;
    for (size_t i = 0; i < g->n; i++)
        drop_dep(g->nodes[i], n);
    memmove(&g->nodes[n->index], &g->nodes[n->index + 1],
            (g->n - n->index - 1) * sizeof *g->nodes);
    g->n--;
    for (size_t i = n->index; i < g->n; i++)
        g->nodes[i]->index = i;
    node_free(n);
    return cudaSuccess;
}

/* Fills out[] with at most *n nodes, NULL after the last, and sets *n
 * to how many there are (or were written), as cudaGraphGetNodes. */
static cudaError_t list_nodes(cudaGraph_t g, cudaGraphNode_t *out,
                              size_t *n, int roots_only)
{
    if (!g || !n)
        return rt_err(cudaErrorInvalidValue);
    size_t have = 0;
    for (size_t i = 0; i < g->n; i++) {
        if (roots_only && g->nodes[i]->ndeps)
            continue;
        if (out && have < *n)
            out[have] = g->nodes[i];
        have++;
    }
    if (out) {
        for (size_t i = have; i < *n; i++)
            out[i] = NULL;
        if (have > *n)
            have = *n;
    }
    *n = have;
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphGetNodes(cudaGraph_t g, cudaGraphNode_t *nodes,
                                     size_t *n)
{
    return list_nodes(g, nodes, n, 0);
}

RT_API cudaError_t cudaGraphGetRootNodes(cudaGraph_t g,
                                         cudaGraphNode_t *nodes, size_t *n)
{
    return list_nodes(g, nodes, n, 1);
}

RT_API cudaError_t cudaGraphNodeGetType(cudaGraphNode_t n,
                                        enum cudaGraphNodeType *type)
{
    if (!n || !type)
        return rt_err(cudaErrorInvalidValue);
    *type = n->type;
    return cudaSuccess;
}

/* A node's parameters: read, or replaced (checked as when added; the
 * node keeps its old ones if they are refused). */
static cudaError_t get_params(cudaGraphNode_t n, enum cudaGraphNodeType t,
                              void *out, size_t size)
{
    if (!n || !out || n->type != t)
        return rt_err(cudaErrorInvalidValue);
    memcpy(out, &n->p, size);
    return cudaSuccess;
}

static cudaError_t set_node(cudaGraphNode_t n, enum cudaGraphNodeType t,
                            const rt_node_params *p)
{
    if (!n || n->type != t)
        return rt_err(cudaErrorInvalidValue);
    return rt_err(set_params(n, t, p));
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
    if (!n || !g || n->type != cudaGraphNodeTypeGraph)
        return rt_err(cudaErrorInvalidValue);
    *g = n->p.child;
    return cudaSuccess;
}

/* As cudaGraphGetNodes, for a node's dependencies; every edge is a
 * default one (zeroed edge data). */
RT_API cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t n,
                                                cudaGraphNode_t *deps,
                                                cudaGraphEdgeData *edges,
                                                size_t *count)
{
    if (!n || !count || (edges && !deps))
        return rt_err(cudaErrorInvalidValue);
    if (!deps) {
        *count = n->ndeps;
        return cudaSuccess;
    }
    for (size_t i = 0; i < *count; i++) {
        deps[i] = i < n->ndeps ? n->deps[i] : NULL;
        if (edges)
            memset(&edges[i], 0, sizeof edges[i]);
    }
    if (*count > n->ndeps)
        *count = n->ndeps;
    return cudaSuccess;
}

/* The nodes that depend on n, in creation order. */
RT_API cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t n,
                                                  cudaGraphNode_t *out,
                                                  cudaGraphEdgeData *edges,
                                                  size_t *count)
{
    if (!n || !count || (edges && !out))
        return rt_err(cudaErrorInvalidValue);
    cudaGraph_t g = n->graph;
    size_t have = 0;
    for (size_t i = 0; i < g->n; i++) {
        if (!has_dep(g->nodes[i], n))
            continue;
        if (out && have < *count) {
            out[have] = g->nodes[i];
            if (edges)
                memset(&edges[have], 0, sizeof *edges);
        }
        have++;
    }
    if (out) {
        for (size_t i = have; i < *count; i++) {
            out[i] = NULL;
            if (edges)
                memset(&edges[i], 0, sizeof *edges);
        }
        if (have > *count)
            have = *count;
    }
    *count = have;
    return cudaSuccess;
}

int rt_graph_precedes(cudaGraph_t g, const cudaGraphNode_t *nodes,
                      size_t n, const cudaGraphNode_t *from, size_t nfrom)
{
    if (n == 0)
        return 1;
    unsigned char *seen = calloc(g->n ? g->n : 1, 1);
    cudaGraphNode_t *stack = malloc((g->n ? g->n : 1) * sizeof *stack);
    int ok = seen && stack;
    size_t top = 0;
    /* Nodes of other graphs (handed to a capture by the caller) precede
     * nothing here and are preceded by nothing. */
    for (size_t i = 0; ok && i < nfrom; i++)
        if (from[i]->graph == g && !seen[from[i]->index]) {
            seen[from[i]->index] = 1;
            stack[top++] = from[i];
        }
    while (ok && top) {
        cudaGraphNode_t x = stack[--top];
        for (size_t d = 0; d < x->ndeps; d++)
            if (!seen[x->deps[d]->index]) {
                seen[x->deps[d]->index] = 1;
                stack[top++] = x->deps[d];
            }
    }
    for (size_t i = 0; ok && i < n; i++)
        ok = nodes[i]->graph == g && seen[nodes[i]->index];
    free(seen);
    free(stack);
    return ok;
}

/* ------------------------------------------------- instantiation */

/* Orders g and, recursively, its child graphs: Kahn's algorithm taking
 * the earliest-created ready node each time, so that the order is the
 * creation order wherever the dependencies allow.  A cycle leaves
 * nodes unordered: cudaErrorInvalidValue. */
static cudaError_t graph_order(cudaGraph_t g)
{
    size_t n = g->n;
    free(g->order);
    g->order = malloc((n ? n : 1) * sizeof *g->order);
    size_t *pending = calloc(n ? n : 1, sizeof *pending);
    unsigned char *done = calloc(n ? n : 1, 1);
    cudaError_t e = g->order && pending && done ? cudaSuccess
                                                : cudaErrorMemoryAllocation;
    for (size_t i = 0; e == cudaSuccess && i < n; i++)
        pending[i] = g->nodes[i]->ndeps;
    /* Each pass takes the first ready node: O(n^2 + edges), which is
     * small next to running the nodes. */
    for (size_t k = 0; e == cudaSuccess && k < n; k++) {
        size_t pick = n;
        for (size_t i = 0; i < n && pick == n; i++)
            if (!done[i] && pending[i] == 0)
                pick = i;
        if (pick == n) {
            e = cudaErrorInvalidValue;      /* a cycle */
            break;
        }
        done[pick] = 1;
        g->order[k] = pick;
        cudaGraphNode_t p = g->nodes[pick];
        for (size_t i = 0; i < n; i++)
            for (size_t d = 0; d < g->nodes[i]->ndeps; d++)
                if (g->nodes[i]->deps[d] == p)
                    pending[i]--;
    }
    for (size_t i = 0; e == cudaSuccess && i < n; i++)
        if (g->nodes[i]->type == cudaGraphNodeTypeGraph)
            e = graph_order(g->nodes[i]->p.child);
    free(pending);
    free(done);
    return e;
}

static cudaError_t instantiate(cudaGraphExec_t *x, cudaGraph_t g,
                               unsigned long long flags)
{
    if (!x || !g)
        return rt_err(cudaErrorInvalidValue);
    /* Device launch and node priorities are not modelled; freeing on
     * launch and uploading have nothing to act on. */
    if (flags & ~(unsigned long long)(cudaGraphInstantiateFlagAutoFreeOnLaunch
                                     | cudaGraphInstantiateFlagUpload))
        return rt_err(flags & (cudaGraphInstantiateFlagDeviceLaunch
                               | cudaGraphInstantiateFlagUseNodePriority)
                          ? cudaErrorNotSupported : cudaErrorInvalidValue);
    cudaGraphExec_t ex = calloc(1, sizeof *ex);
    if (!ex)
        return rt_err(cudaErrorMemoryAllocation);
    cudaError_t e = graph_clone(&ex->g, g);
    if (e == cudaSuccess)
        e = graph_order(ex->g);
    if (e != cudaSuccess) {
        graph_free(ex->g);
        free(ex);
        return rt_err(e);
    }
    ex->src = g;
    ex->flags = flags;
    *x = ex;
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphInstantiate(cudaGraphExec_t *x, cudaGraph_t g,
                                        unsigned long long flags)
{
    return instantiate(x, g, flags);
}

RT_API cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *x,
                                                 cudaGraph_t g,
                                                 unsigned long long flags)
{
    return instantiate(x, g, flags);
}

RT_API cudaError_t cudaGraphExecDestroy(cudaGraphExec_t x)
{
    if (!x)
        return rt_err(cudaErrorInvalidValue);
    graph_free(x->g);
    free(x);
    return cudaSuccess;
}

/* ------------------------------------------------------- launching */

static cudaError_t run_graph(cudaGraph_t g, cudaStream_t s);

static cudaError_t run_node(cudaGraphNode_t n, cudaStream_t s)
{
    const struct cudaKernelNodeParams *k = &n->p.kernel;
    CUresult r;
    switch (n->type) {
    case cudaGraphNodeTypeKernel:
        return rt_launch_now(k->func, k->gridDim, k->blockDim,
                             k->kernelParams, k->sharedMemBytes, s);
    case cudaGraphNodeTypeMemcpy:
        return rt_memcpy_now(&n->p.memcpy);
    case cudaGraphNodeTypeMemset:
        return rt_memset_now(&n->p.memset);
    case cudaGraphNodeTypeHost:
        n->p.host.fn(n->p.host.userData);
        return cudaSuccess;
    case cudaGraphNodeTypeGraph:
        return run_graph(n->p.child, s);
    case cudaGraphNodeTypeEventRecord:
        r = cuEventRecord((CUevent)n->p.event, rt_stream(s));
        return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
    case cudaGraphNodeTypeWaitEvent:
        /* In order anyway: the wait only checks the event. */
        r = cuStreamWaitEvent(rt_stream(s), (CUevent)n->p.event, 0);
        return r == CUDA_SUCCESS ? cudaSuccess : rt_cu(r);
    default:
        return cudaSuccess;
    }
}

static cudaError_t run_graph(cudaGraph_t g, cudaStream_t s)
{
    for (size_t i = 0; i < g->n; i++) {
        cudaError_t e = run_node(g->nodes[g->order[i]], s);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphLaunch(cudaGraphExec_t x, cudaStream_t s)
{
    if (!x)
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
    return rt_err(run_graph(x->g, s));
}

/* Nothing to upload: the emulated device reads the host's copy. */
RT_API cudaError_t cudaGraphUpload(cudaGraphExec_t x, cudaStream_t s)
{
    if (!x)
        return rt_err(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    return e != cudaSuccess ? e : rt_stream_check(s);
}

/* ----------------------------------------------------------- updates */

RT_API cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t x,
                                         unsigned long long *flags)
{
    if (!x || !flags)
        return rt_err(cudaErrorInvalidValue);
    *flags = x->flags;
    return cudaSuccess;
}

/* The executable copy's node for n, a node of the graph x was made
 * (or last updated) from, if it is of type t. */
static cudaError_t exec_set(cudaGraphExec_t x, cudaGraphNode_t n,
                            enum cudaGraphNodeType t,
                            const rt_node_params *p)
{
    cudaGraphNode_t c = x && n && n->graph == x->src
                            ? find_uid(x->g, n->uid) : NULL;
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

/* Whether g has the topology of the executable copy x: as many nodes,
 * of the same types, with the same dependencies, child graphs alike.
 * Otherwise fills info with why. */
static int same_shape(cudaGraph_t x, cudaGraph_t g,
                      cudaGraphExecUpdateResultInfo *info)
{
    if (x->n != g->n) {
        info->result = cudaGraphExecUpdateErrorTopologyChanged;
        return 0;
    }
    for (size_t i = 0; i < g->n; i++) {
        cudaGraphNode_t a = x->nodes[i], b = g->nodes[i];
        info->errorNode = b;
        if (a->type != b->type) {
            info->result = cudaGraphExecUpdateErrorNodeTypeChanged;
            return 0;
        }
        if (a->ndeps != b->ndeps) {
            info->result = cudaGraphExecUpdateErrorTopologyChanged;
            return 0;
        }
        for (size_t d = 0; d < b->ndeps; d++) {
            int found = 0;
            for (size_t k = 0; k < a->ndeps && !found; k++)
                found = a->deps[k]->index == b->deps[d]->index;
            if (!found) {
                info->result = cudaGraphExecUpdateErrorTopologyChanged;
                info->errorFromNode = b->deps[d];
                return 0;
            }
        }
        if (b->type == cudaGraphNodeTypeGraph) {
            cudaGraphExecUpdateResultInfo sub = { 0, NULL, NULL };
            if (!same_shape(a->p.child, b->p.child, &sub)) {
                info->result = sub.result;
                return 0;
            }
        }
    }
    info->errorNode = NULL;
    return 1;
}

/* A child graph node of an executable graph takes a copy of child,
 * which must have the topology of the one it replaces. */
RT_API cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t x,
                                                        cudaGraphNode_t n,
                                                        cudaGraph_t child)
{
    cudaGraphNode_t c = x && n && child && n->graph == x->src
                            ? find_uid(x->g, n->uid) : NULL;
    if (!c || c->type != cudaGraphNodeTypeGraph)
        return rt_err(cudaErrorInvalidValue);
    cudaGraphExecUpdateResultInfo info = { 0, NULL, NULL };
    if (!same_shape(c->p.child, child, &info))
        return rt_err(cudaErrorInvalidValue);
    cudaGraph_t copy;
    cudaError_t e = graph_clone(&copy, child);
    if (e == cudaSuccess && (e = graph_order(copy)) != cudaSuccess)
        graph_free(copy);
    if (e != cudaSuccess)
        return rt_err(e);
    graph_free(c->p.child);
    c->p.child = copy;
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphExecUpdate(cudaGraphExec_t x, cudaGraph_t g,
                                       cudaGraphExecUpdateResultInfo *info)
{
    if (!x || !g || !info)
        return rt_err(cudaErrorInvalidValue);
    info->result = cudaGraphExecUpdateSuccess;
    info->errorNode = NULL;
    info->errorFromNode = NULL;
    if (!same_shape(x->g, g, info))
        return rt_err(cudaErrorGraphExecUpdateFailure);
    cudaGraph_t c;
    cudaError_t e = graph_clone(&c, g);
    if (e == cudaSuccess && (e = graph_order(c)) != cudaSuccess)
        graph_free(c);
    if (e != cudaSuccess) {
        info->result = cudaGraphExecUpdateError;
        return rt_err(e == cudaErrorMemoryAllocation
                          ? e : cudaErrorGraphExecUpdateFailure);
    }
    graph_free(x->g);
    x->g = c;
    x->src = g;
    return cudaSuccess;
}

/* Per-thread default stream forms. */
