/*
 * runtime/cudart/rt_graph_attr.c: kernel node attributes
 * (cudaGraphKernelNodeSetAttribute, GetAttribute, CopyAttributes), over
 * the shared launch attributes (runtime/graph/gattr.h says which a node
 * takes and how they are checked; cudaLaunchAttributeValue is the
 * driver's 64-byte union).
 */
#include "runtime/cudart/rt_internal.h"
#include "runtime/graph/gattr.h"

RT_API cudaError_t cudaGraphKernelNodeSetAttribute(cudaGraphNode_t n,
                                                   cudaLaunchAttributeID attr,
                                                   const cudaLaunchAttributeValue
                                                       *v)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    int w = 0;
    (void)cuDeviceGetAttribute(&w,
                               CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE,
                               rt_cudevice());
    return rt_err((cudaError_t)gattr_node_set(
        n, (int)attr, (const CUlaunchAttributeValue *)v, w));
}

RT_API cudaError_t cudaGraphKernelNodeGetAttribute(cudaGraphNode_t n,
                                                   cudaLaunchAttributeID attr,
                                                   cudaLaunchAttributeValue *v)
{
    return rt_err((cudaError_t)gattr_node_get(n, (int)attr,
                                              (CUlaunchAttributeValue *)v));
}

RT_API cudaError_t cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t dst,
                                                     cudaGraphNode_t src)
{
    return rt_err((cudaError_t)gattr_node_copy(dst, src));
}
