/*
 * runtime/cuda/drv_sattr.c: stream attributes (cuStreamSetAttribute,
 * cuStreamGetAttribute, cuStreamCopyAttributes).
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
 * one cuStreamGetPriority reports.
 */
#include <stdbool.h>
#include <string.h>

#include "runtime/cuda/drv.h"

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

static bool attr_ok(CUlaunchAttributeID id)
{
    return (unsigned)id < DRV_NSTREAM_ATTR && (stream_attrs >> id & 1);
}

/* A value CUDA would accept for attribute id. */
static bool value_ok(CUlaunchAttributeID id, const CUlaunchAttributeValue *v)
{
    int gran = 0;
    switch (id) {
    case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW: {
        const CUaccessPolicyWindow *w = &v->accessPolicyWindow;
        emu_gpu_attribute(&drv.gpu,
                          CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE,
                          &gran);
        /* hitRatio in [0, 1]; a miss is never persisting */
        return w->hitRatio >= 0.0f && w->hitRatio <= 1.0f &&
               (unsigned)w->hitProp <= CU_ACCESS_PROPERTY_PERSISTING &&
               (unsigned)w->missProp <= CU_ACCESS_PROPERTY_STREAMING &&
               w->num_bytes <= (size_t)gran;
    }
    case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
        return v->syncPolicy >= CU_SYNC_POLICY_AUTO &&
               v->syncPolicy <= CU_SYNC_POLICY_BLOCKING_SYNC;
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
        return v->memSyncDomain == 0 || v->memSyncDomain == 1;
    default:
        return true;
    }
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

DRV_ALIAS(cuStreamSetAttribute_ptsz, cuStreamSetAttribute)
DRV_ALIAS(cuStreamGetAttribute_ptsz, cuStreamGetAttribute)
DRV_ALIAS(cuStreamCopyAttributes_ptsz, cuStreamCopyAttributes)
