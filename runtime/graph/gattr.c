/*
 * runtime/graph/gattr.c: launch attributes of streams and kernel nodes
 * (contract in gattr.h).
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/graph/gattr.h"

/* The attributes cuda.h marks valid for graph nodes. */
static const unsigned node_attrs =
    1u << CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW |
    1u << CU_LAUNCH_ATTRIBUTE_COOPERATIVE |
    1u << CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION |
    1u << CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE |
    1u << CU_LAUNCH_ATTRIBUTE_PRIORITY |
    1u << CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP |
    1u << CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN |
    1u << CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION |
    1u << CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE |
    1u << 16;   /* CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING */

int gattr_value_ok(int id, const CUlaunchAttributeValue *v, int max_window)
{
    switch (id) {
    case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW: {
        const CUaccessPolicyWindow *w = &v->accessPolicyWindow;
        /* hitRatio in [0, 1]; a miss is never persisting */
        return w->hitRatio >= 0.0f && w->hitRatio <= 1.0f &&
               (unsigned)w->hitProp <= CU_ACCESS_PROPERTY_PERSISTING &&
               (unsigned)w->missProp <= CU_ACCESS_PROPERTY_STREAMING &&
               w->num_bytes <= (size_t)max_window
               ? GPH_OK : GPH_EINVAL;
    }
    case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
        return v->syncPolicy >= CU_SYNC_POLICY_AUTO &&
               v->syncPolicy <= CU_SYNC_POLICY_BLOCKING_SYNC
               ? GPH_OK : GPH_EINVAL;
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
        return v->memSyncDomain == 0 || v->memSyncDomain == 1
               ? GPH_OK : GPH_EINVAL;
    case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
        /* CU_CLUSTER_SCHEDULING_POLICY_DEFAULT, _SPREAD, _LOAD_BALANCING */
        return (unsigned)v->clusterSchedulingPolicyPreference <= 2
               ? GPH_OK : GPH_EINVAL;
    default:
        return GPH_OK;
    }
}

CUlaunchAttributeValue gattr_default(int id)
{
    CUlaunchAttributeValue v;
    memset(&v, 0, sizeof v);
    if (id == CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY)
        v.syncPolicy = CU_SYNC_POLICY_AUTO;
    else if (id == CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP)
        v.memSyncDomainMap.remote = 1;
    return v;
}

static int node_attr_ok(CUgraphNode n, int id)
{
    if (!gph_node_mine(n) || n->type != CU_GRAPH_NODE_TYPE_KERNEL)
        return GPH_EINVAL;
    return id >= 0 && id < GPH_NATTR && (node_attrs >> id & 1)
           ? GPH_OK : GPH_EINVAL;
}

int gattr_node_set(CUgraphNode n, int id, const CUlaunchAttributeValue *v,
                   int max_window)
{
    int e = node_attr_ok(n, id);
    if (e == GPH_OK && !v)
        e = GPH_EINVAL;
    if (e == GPH_OK)
        e = gattr_value_ok(id, v, max_window);
    if (e == GPH_OK && !n->attrs && !(n->attrs = calloc(1, sizeof *n->attrs)))
        e = GPH_ENOMEM;
    if (e == GPH_OK) {
        n->attrs->v[id] = *v;
        n->attrs->set |= 1u << id;
    }
    return e;
}

int gattr_node_get(CUgraphNode n, int id, CUlaunchAttributeValue *out)
{
    int e = node_attr_ok(n, id);
    if (e == GPH_OK && !out)
        e = GPH_EINVAL;
    if (e == GPH_OK)
        *out = n->attrs && (n->attrs->set >> id & 1) ? n->attrs->v[id]
                                                      : gattr_default(id);
    return e;
}

int gattr_node_copy(CUgraphNode dst, CUgraphNode src)
{
    int e = node_attr_ok(dst, CU_LAUNCH_ATTRIBUTE_PRIORITY);
    if (e == GPH_OK)
        e = node_attr_ok(src, CU_LAUNCH_ATTRIBUTE_PRIORITY);
    if (e != GPH_OK || dst == src)
        return e;
    if (!src->attrs) {
        free(dst->attrs);
        dst->attrs = NULL;
        return GPH_OK;
    }
    if (!dst->attrs && !(dst->attrs = malloc(sizeof *dst->attrs)))
        return GPH_ENOMEM;
    *dst->attrs = *src->attrs;
    return GPH_OK;
}

unsigned gattr_node_launch(CUgraphNode n,
                           CUlaunchAttribute out[GATTR_LAUNCH_MAX])
{
    static const int ids[GATTR_LAUNCH_MAX] = {
        CU_LAUNCH_ATTRIBUTE_COOPERATIVE, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION,
        CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW
    };
    unsigned k = 0;
    for (int i = 0; i < GATTR_LAUNCH_MAX && n->attrs; i++) {
        if (n->attrs->set >> ids[i] & 1) {
            memset(&out[k], 0, sizeof out[k]);
            out[k].id = (CUlaunchAttributeID)ids[i];
            out[k].value = n->attrs->v[ids[i]];
            k++;
        }
    }
    return k;
}
