/*
 * runtime/cuda/drv_graph_mem.c: graph memory nodes in the drop-in driver
 * (cuGraphAddMemAllocNode, cuGraphAddMemFreeNode; CUDA Driver API,
 * "Graph Management") and the device's graph memory attributes, over
 * the shared graph memory (runtime/graph/gmem.h: an allocation's
 * address is reserved when its node is made and backed from the node's
 * run to the allocation's free; one executable graph of such a graph at
 * a time, gph_instantiate).  Model limits: one device.
 */
#include "config.h"

#include <string.h>

#include "runtime/cuda/drv_capture.h"
#include "runtime/graph/gmem.h"
#include "runtime/graph/gph.h"

static drv_node_params *P(CUgraphNode n)
{
    return (drv_node_params *)(void *)n->p;
}

CUresult drv_graph_alloc_set(drv_node_params *p)
{
    CUDA_MEM_ALLOC_NODE_PARAMS *a = &p->alloc.a;
    if (!a->bytesize) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = (CUresult)gmem_check(&a->poolProps, a->accessDescs,
                                      a->accessDescCount);
    if (r) {
        return r;
    }
    if (a->accessDescCount) {
        p->alloc.desc = *a->accessDescs;
    }
    a->accessDescs = NULL;              /* the node's own: p->alloc.desc */
    if (a->dptr) {
        return gmem_known(a->dptr) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    }
    return (CUresult)gmem_reserve(a->bytesize, &a->dptr);
}

int drv_graph_mem_free(CUdeviceptr a)
{
    if (!gmem_known(a)) {
        return 0;
    }
    return gmem_free(a) == 0 ? 1 : -1;
}

/* ------------------------------------------------------------ nodes */

static CUresult add_alloc(CUgraphNode *out, CUgraph g,
                          const CUgraphNode *deps, size_t nd,
                          CUDA_MEM_ALLOC_NODE_PARAMS *np)
{
    CUresult r = drv_ready(NULL);
    if (r) {
        return r;
    }
    if (!np || !out) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    drv_node_params p;
    memset(&p, 0, sizeof(p));
    p.alloc.a = *np;
    p.alloc.a.dptr = 0;                 /* an output */
    r = (CUresult)gph_add(g, out, deps, nd, CU_GRAPH_NODE_TYPE_MEM_ALLOC, &p);
    if (!r) {
        np->dptr = P(*out)->alloc.a.dptr;
    }
    return r;
}

CUresult cuGraphAddMemAllocNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                const CUgraphNode *dependencies,
                                size_t numDependencies,
                                CUDA_MEM_ALLOC_NODE_PARAMS *nodeParams)
{
    return drv_trace(add_alloc(phGraphNode, hGraph, dependencies,
                               numDependencies, nodeParams),
                     "cuGraphAddMemAllocNode", "%p, %p, %p, %zu, %p",
                     (void *)phGraphNode, (void *)hGraph,
                     (const void *)dependencies, numDependencies,
                     (void *)nodeParams);
}

static CUresult alloc_get(CUgraphNode n, CUDA_MEM_ALLOC_NODE_PARAMS *out)
{
    if (!out || !gph_node_mine(n) || n->type != CU_GRAPH_NODE_TYPE_MEM_ALLOC) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    *out = P(n)->alloc.a;
    if (out->accessDescCount) {
        out->accessDescs = &P(n)->alloc.desc;
    }
    return CUDA_SUCCESS;
}

CUresult cuGraphMemAllocNodeGetParams(CUgraphNode hNode,
                                      CUDA_MEM_ALLOC_NODE_PARAMS *params_out)
{
    return drv_trace(alloc_get(hNode, params_out),
                     "cuGraphMemAllocNodeGetParams", "%p, %p", (void *)hNode,
                     (void *)params_out);
}

static CUresult add_free(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
                         size_t nd, CUdeviceptr dptr)
{
    CUresult r = drv_ready(NULL);
    if (r) {
        return r;
    }
    drv_node_params p;
    memset(&p, 0, sizeof(p));
    p.free_ptr = dptr;
    return (CUresult)gph_add(g, out, deps, nd, CU_GRAPH_NODE_TYPE_MEM_FREE,
                             &p);
}

CUresult cuGraphAddMemFreeNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                               const CUgraphNode *dependencies,
                               size_t numDependencies, CUdeviceptr dptr)
{
    return drv_trace(add_free(phGraphNode, hGraph, dependencies,
                              numDependencies, dptr),
                     "cuGraphAddMemFreeNode", "%p, %p, %p, %zu, 0x%llx",
                     (void *)phGraphNode, (void *)hGraph,
                     (const void *)dependencies, numDependencies, dptr);
}

static CUresult free_get(CUgraphNode n, CUdeviceptr *out)
{
    if (!out || !gph_node_mine(n) || n->type != CU_GRAPH_NODE_TYPE_MEM_FREE) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    *out = P(n)->free_ptr;
    return CUDA_SUCCESS;
}

CUresult cuGraphMemFreeNodeGetParams(CUgraphNode hNode, CUdeviceptr *dptr_out)
{
    return drv_trace(free_get(hNode, dptr_out), "cuGraphMemFreeNodeGetParams",
                     "%p, %p", (void *)hNode, (void *)dptr_out);
}

/* ------------------------------------------------ device attributes */

static CUresult device_ok(CUdevice dev)
{
    CUresult r = drv_ready(NULL);
    return r ? r : dev != 0 ? CUDA_ERROR_INVALID_DEVICE : CUDA_SUCCESS;
}

/* Freed graph memory goes back at once: nothing is cached to trim. */
CUresult cuDeviceGraphMemTrim(CUdevice device)
{
    return drv_trace(device_ok(device), "cuDeviceGraphMemTrim", "%d", device);
}

static CUresult mem_attr(CUdevice dev, CUgraphMem_attribute a, void *v,
                         int set)
{
    CUresult r = device_ok(dev);
    if (r) {
        return r;
    }
    if (!v || (unsigned)a > CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    uint64_t used, high, x;
    if (set) {
        memcpy(&x, v, sizeof(x));
        if (x != 0 || (a != CU_GRAPH_MEM_ATTR_USED_MEM_HIGH &&
                       a != CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH)) {
            return CUDA_ERROR_INVALID_VALUE;    /* reset to zero only */
        }
        gmem_reset_high();
        return CUDA_SUCCESS;
    }
    gmem_usage(&used, &high);
    x = a == CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT ||
        a == CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT ? used : high;
    memcpy(v, &x, sizeof(x));
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetGraphMemAttribute(CUdevice device,
                                      CUgraphMem_attribute attr, void *value)
{
    return drv_trace(mem_attr(device, attr, value, 0),
                     "cuDeviceGetGraphMemAttribute", "%d, %d, %p", device,
                     (int)attr, value);
}

CUresult cuDeviceSetGraphMemAttribute(CUdevice device,
                                      CUgraphMem_attribute attr, void *value)
{
    return drv_trace(mem_attr(device, attr, value, 1),
                     "cuDeviceSetGraphMemAttribute", "%d, %d, %p", device,
                     (int)attr, value);
}
