/*
 * runtime/cudart/rt_graph_mem.c: graph memory nodes (CUDA runtime API,
 * cudaGraphAddMemAllocNode, cudaGraphAddMemFreeNode) and the device's
 * graph memory attributes, over the shared graph memory
 * (runtime/graph/gmem.h: an allocation's address is reserved when its
 * node is made and backed from the node's run to the allocation's
 * free; one executable graph of such a graph at a time,
 * gph_instantiate).  Model limits: one device; pool properties as
 * cudaMemPoolCreate takes them (pinned device memory, no IPC handle
 * types).
 */
#include <stdint.h>
#include <string.h>

#include "runtime/cudart/rt_internal.h"
#include "runtime/graph/gmem.h"
#include "runtime/graph/gph.h"

#define DP(p) ((CUdeviceptr)(uintptr_t)(p))

static rt_node_params *P(cudaGraphNode_t n)
{
    return (rt_node_params *)(void *)n->p;
}

cudaError_t rt_graph_alloc_set(rt_node_params *p)
{
    struct cudaMemAllocNodeParams *a = &p->alloc.a;
    if (!a->bytesize)
        return cudaErrorInvalidValue;
    cudaError_t e = (cudaError_t)gmem_check(
        (const CUmemPoolProps *)&a->poolProps,
        (const CUmemAccessDesc *)a->accessDescs, a->accessDescCount);
    if (e != cudaSuccess)
        return e;
    if (a->accessDescCount)
        p->alloc.desc = *a->accessDescs;
    a->accessDescs = NULL;      /* the node's own copy: p->alloc.desc */
    if (a->dptr)
        return gmem_known(DP(a->dptr)) ? cudaSuccess : cudaErrorInvalidValue;
    CUdeviceptr d;
    e = (cudaError_t)gmem_reserve(a->bytesize, &d);
    if (e == cudaSuccess)
        a->dptr = (void *)(uintptr_t)d;
    return e;
}

/* ------------------------------------------------------------ nodes */

RT_API cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *n, cudaGraph_t g,
                                            const cudaGraphNode_t *deps,
                                            size_t nd,
                                            struct cudaMemAllocNodeParams *np)
{
    if (!np || !n)
        return rt_err(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    rt_node_params p;
    memset(&p, 0, sizeof p);
    p.alloc.a = *np;
    p.alloc.a.dptr = NULL;      /* an output */
    e = (cudaError_t)gph_add(g, n, deps, nd, cudaGraphNodeTypeMemAlloc, &p);
    if (e == cudaSuccess)
        np->dptr = P(*n)->alloc.a.dptr;
    return rt_err(e);
}

RT_API cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t n,
                                                  struct cudaMemAllocNodeParams
                                                      *out)
{
    if (!out || !gph_node_mine(n) || n->type != cudaGraphNodeTypeMemAlloc)
        return rt_err(cudaErrorInvalidValue);
    *out = P(n)->alloc.a;
    if (out->accessDescCount)
        out->accessDescs = &P(n)->alloc.desc;
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *n, cudaGraph_t g,
                                           const cudaGraphNode_t *deps,
                                           size_t nd, void *dptr)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    rt_node_params p;
    memset(&p, 0, sizeof p);
    p.free_ptr = dptr;
    return rt_err((cudaError_t)gph_add(g, n, deps, nd,
                                       cudaGraphNodeTypeMemFree, &p));
}

RT_API cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t n,
                                                 void *dptr_out)
{
    if (!dptr_out || !gph_node_mine(n) || n->type != cudaGraphNodeTypeMemFree)
        return rt_err(cudaErrorInvalidValue);
    memcpy(dptr_out, &P(n)->free_ptr, sizeof(void *));
    return cudaSuccess;
}

/* ------------------------------------------------ device attributes */

static cudaError_t device_ok(int dev)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess && dev != 0)
        e = rt_err(cudaErrorInvalidDevice);
    return e;
}

/* Freed graph memory goes back at once: nothing is cached to trim. */
RT_API cudaError_t cudaDeviceGraphMemTrim(int dev)
{
    return device_ok(dev);
}

RT_API cudaError_t cudaDeviceGetGraphMemAttribute(int dev,
                                                  enum cudaGraphMemAttributeType
                                                      attr,
                                                  void *value)
{
    cudaError_t e = device_ok(dev);
    if (e != cudaSuccess)
        return e;
    if (!value || (unsigned)attr > cudaGraphMemAttrReservedMemHigh)
        return rt_err(cudaErrorInvalidValue);
    uint64_t used, high;
    gmem_usage(&used, &high);
    uint64_t v = attr == cudaGraphMemAttrUsedMemCurrent ||
                 attr == cudaGraphMemAttrReservedMemCurrent ? used : high;
    memcpy(value, &v, sizeof v);
    return cudaSuccess;
}

/* Only the high watermarks, only reset to zero. */
RT_API cudaError_t cudaDeviceSetGraphMemAttribute(int dev,
                                                  enum cudaGraphMemAttributeType
                                                      attr,
                                                  void *value)
{
    cudaError_t e = device_ok(dev);
    if (e != cudaSuccess)
        return e;
    uint64_t v;
    if (!value || (attr != cudaGraphMemAttrUsedMemHigh &&
                   attr != cudaGraphMemAttrReservedMemHigh))
        return rt_err(cudaErrorInvalidValue);
    memcpy(&v, value, sizeof v);
    if (v != 0)
        return rt_err(cudaErrorInvalidValue);
    gmem_reset_high();
    return cudaSuccess;
}
