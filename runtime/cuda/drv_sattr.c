/*
 * runtime/cuda/drv_sattr.c: stream and kernel node attributes
 * (cuStreamSetAttribute, cuStreamGetAttribute, cuStreamCopyAttributes,
 * cuGraphKernelNodeSetAttribute ...).
 *
 * Kernel node attributes (cuGraphKernelNodeSetAttribute ...) are at the
 * end: runtime/graph/gattr.h says which a node takes.
 *
 * CUDA Driver API, "Stream Management": a stream takes the access-policy
 * window (an L2 persistence hint), the synchronization policy, the
 * priority, and the memory synchronization domain and its map; any other
 * attribute id is CUDA_ERROR_INVALID_VALUE.  The values are checked as
 * the CUDA documentation of their types states and recorded per stream
 * (the legacy default stream has its own record); a stream that never
 * set one answers the default (priority: the stream's own; sync policy:
 * auto; domain map: default 0, remote 1).  The emulator runs each stream
 * in order, so no value changes a result; the priority set here is the
 * one cuStreamGetPriority reports, and the access-policy window goes
 * with each kernel launched on the stream to a timing model's L2
 * (drv_stream_window).
 */
#include <stdbool.h>
#include <string.h>

#include "runtime/cuda/drv.h"
#include "runtime/graph/gattr.h"

/* The attributes a stream takes. */
static const unsigned stream_attrs =
    1u << CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW |
    1u << CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY |
    1u << CU_LAUNCH_ATTRIBUTE_PRIORITY |
    1u << CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP |
    1u << CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN;

/* The legacy default stream's record. */
static struct CUstream_st legacy;

static CUresult stream_of(CUstream h, CUstream *out)
{
    CUresult r = drv_ready_stream(h);
    if (!r) {
        *out = h && h != CU_STREAM_LEGACY && h != CU_STREAM_PER_THREAD
            ? h : &legacy;
    }
    return r;
}

int drv_max_window(void)
{
    int w = 0;
    emu_gpu_attribute(&drv.gpu,
                      CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE, &w);
    return w;
}

static bool attr_ok(CUlaunchAttributeID id)
{
    return (unsigned)id < DRV_NSTREAM_ATTR && (stream_attrs >> id & 1);
}

/* A value CUDA would accept for attribute id (runtime/graph/gattr.h). */
static bool value_ok(CUlaunchAttributeID id, const CUlaunchAttributeValue *v)
{
    return gattr_value_ok(id, v, drv_max_window()) == GPH_OK;
}

CUresult cuStreamSetAttribute(CUstream hStream, CUlaunchAttributeID attr,
                              const CUlaunchAttributeValue *value)
{
    CUstream s = NULL;
    CUresult r = stream_of(hStream, &s);
    if (!r && (!value || !attr_ok(attr) || !value_ok(attr, value))) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        s->attr[attr] = *value;
        s->attr_set |= 1u << attr;
        if (attr == CU_LAUNCH_ATTRIBUTE_PRIORITY) {
            s->priority = value->priority;
        }
    }
    return drv_trace(r, "cuStreamSetAttribute", "%p, %d, %p",
                     (void *)hStream, (int)attr, (const void *)value);
}

CUresult cuStreamGetAttribute(CUstream hStream, CUlaunchAttributeID attr,
                              CUlaunchAttributeValue *value_out)
{
    CUstream s = NULL;
    CUresult r = stream_of(hStream, &s);
    if (!r && (!value_out || !attr_ok(attr))) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        CUlaunchAttributeValue v;
        memset(&v, 0, sizeof(v));
        if (s->attr_set >> attr & 1) {
            v = s->attr[attr];
        } else if (attr == CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY) {
            v.syncPolicy = CU_SYNC_POLICY_AUTO;
        } else if (attr == CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP) {
            v.memSyncDomainMap.remote = 1;
        }
        if (attr == CU_LAUNCH_ATTRIBUTE_PRIORITY) {
            v.priority = s->priority;
        }
        *value_out = v;
    }
    return drv_trace(r, "cuStreamGetAttribute", "%p, %d, %p",
                     (void *)hStream, (int)attr, (void *)value_out);
}

CUresult cuStreamCopyAttributes(CUstream dst, CUstream src)
{
    CUstream d = NULL, s = NULL;
    CUresult r = stream_of(dst, &d);
    if (!r) {
        r = stream_of(src, &s);
    }
    if (!r && d != s) {
        memcpy(d->attr, s->attr, sizeof(d->attr));
        d->attr_set = s->attr_set;
        if (s->attr_set >> CU_LAUNCH_ATTRIBUTE_PRIORITY & 1) {
            d->priority = s->priority;
        }
    }
    return drv_trace(r, "cuStreamCopyAttributes", "%p, %p", (void *)dst,
                     (void *)src);
}

bool drv_stream_window(CUstream h, CUaccessPolicyWindow *out)
{
    CUstream s = h && h != CU_STREAM_LEGACY && h != CU_STREAM_PER_THREAD
                 ? h : &legacy;
    if (!(s->attr_set >> CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW & 1)) {
        return false;
    }
    *out = s->attr[CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW]
               .accessPolicyWindow;
    return true;
}

DRV_ALIAS(cuStreamSetAttribute_ptsz, cuStreamSetAttribute)
DRV_ALIAS(cuStreamGetAttribute_ptsz, cuStreamGetAttribute)
DRV_ALIAS(cuStreamCopyAttributes_ptsz, cuStreamCopyAttributes)

/* ------------------------------------------------ kernel node attributes */

CUresult cuGraphKernelNodeSetAttribute(CUgraphNode hNode,
                                       CUlaunchAttributeID attr,
                                       const CUlaunchAttributeValue *value)
{
    CUresult r = drv_ready(NULL);
    if (!r) {
        r = (CUresult)gattr_node_set(hNode, attr, value, drv_max_window());
    }
    return drv_trace(r, "cuGraphKernelNodeSetAttribute", "%p, %d, %p",
                     (void *)hNode, (int)attr, (const void *)value);
}

CUresult cuGraphKernelNodeGetAttribute(CUgraphNode hNode,
                                       CUlaunchAttributeID attr,
                                       CUlaunchAttributeValue *value_out)
{
    return drv_trace((CUresult)gattr_node_get(hNode, attr, value_out),
                     "cuGraphKernelNodeGetAttribute", "%p, %d, %p",
                     (void *)hNode, (int)attr, (void *)value_out);
}

CUresult cuGraphKernelNodeCopyAttributes(CUgraphNode dst, CUgraphNode src)
{
    return drv_trace((CUresult)gattr_node_copy(dst, src),
                     "cuGraphKernelNodeCopyAttributes", "%p, %p",
                     (void *)dst, (void *)src);
}
