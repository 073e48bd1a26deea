/*
 * runtime/graph/gmem.c: graph memory (contract in gmem.h), over the
 * driver's virtual memory management.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/graph/gmem.h"
#include "runtime/graph/gph.h"

typedef struct Gmem {
    CUdeviceptr addr;
    size_t size;                /* a granularity multiple */
    int live;
    struct Gmem *next;
} Gmem;

static pthread_mutex_t gmem_lock = PTHREAD_MUTEX_INITIALIZER;
static Gmem *allocs;
static uint64_t used, used_high;

static CUmemAllocationProp device_prop(void)
{
    CUmemAllocationProp p;
    memset(&p, 0, sizeof(p));
    p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    p.location.id = 0;
    return p;
}

int gmem_reserve(size_t bytes, CUdeviceptr *out)
{
    if (!bytes || !out)
        return GPH_EINVAL;
    CUmemAllocationProp prop = device_prop();
    size_t g = 0;
    CUresult r = cuMemGetAllocationGranularity(&g, &prop,
                                               CU_MEM_ALLOC_GRANULARITY_MINIMUM);
    if (r)
        return (int)r;
    size_t size = (bytes + g - 1) / g * g;
    if (size < bytes)
        return GPH_ENOMEM;
    Gmem *m = calloc(1, sizeof(*m));
    if (!m)
        return GPH_ENOMEM;
    r = cuMemAddressReserve(&m->addr, size, 0, 0, 0);
    if (r) {
        free(m);
        return (int)r;
    }
    m->size = size;
    pthread_mutex_lock(&gmem_lock);
    m->next = allocs;
    allocs = m;
    pthread_mutex_unlock(&gmem_lock);
    *out = m->addr;
    return GPH_OK;
}

static Gmem *find(CUdeviceptr a)
{
    for (Gmem *m = allocs; m; m = m->next)
        if (m->addr == a)
            return m;
    return NULL;
}

int gmem_known(CUdeviceptr a)
{
    pthread_mutex_lock(&gmem_lock);
    int k = a && find(a) != NULL;
    pthread_mutex_unlock(&gmem_lock);
    return k;
}

/* Maps zeroed physical memory at m, read-write for the device. */
static int back(Gmem *m)
{
    CUmemAllocationProp prop = device_prop();
    CUmemGenericAllocationHandle h;
    CUresult r = cuMemCreate(&h, m->size, &prop, 0);
    if (r)
        return (int)r;
    r = cuMemMap(m->addr, m->size, 0, h, 0);
    (void)cuMemRelease(h);      /* the mapping keeps it */
    if (r)
        return (int)r;
    CUmemAccessDesc d;
    memset(&d, 0, sizeof(d));
    d.location = prop.location;
    d.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    r = cuMemSetAccess(m->addr, m->size, &d, 1);
    if (r)
        (void)cuMemUnmap(m->addr, m->size);
    return (int)r;
}

int gmem_alloc(CUdeviceptr a)
{
    pthread_mutex_lock(&gmem_lock);
    Gmem *m = find(a);
    int e = !m || m->live ? GPH_EINVAL : back(m);
    if (!e) {
        m->live = 1;
        used += m->size;
        if (used > used_high)
            used_high = used;
    }
    pthread_mutex_unlock(&gmem_lock);
    return e;
}

int gmem_free(CUdeviceptr a)
{
    pthread_mutex_lock(&gmem_lock);
    Gmem *m = find(a);
    int e = !m || !m->live ? GPH_EINVAL : (int)cuMemUnmap(m->addr, m->size);
    if (!e) {
        m->live = 0;
        used -= m->size;
    }
    pthread_mutex_unlock(&gmem_lock);
    return e;
}

void gmem_usage(uint64_t *u, uint64_t *h)
{
    pthread_mutex_lock(&gmem_lock);
    *u = used;
    *h = used_high;
    pthread_mutex_unlock(&gmem_lock);
}

void gmem_reset_high(void)
{
    pthread_mutex_lock(&gmem_lock);
    used_high = used;
    pthread_mutex_unlock(&gmem_lock);
}

int gmem_check(const CUmemPoolProps *pp, const CUmemAccessDesc *descs,
               size_t count)
{
    if (pp->allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
        pp->location.type != CU_MEM_LOCATION_TYPE_DEVICE)
        return GPH_EINVAL;
    if (pp->location.id != 0)
        return 101;             /* CUDA_ERROR_INVALID_DEVICE */
    if (pp->handleTypes != CU_MEM_HANDLE_TYPE_NONE)
        return GPH_ENOTSUP;
    if (count > 1 || (count && !descs))
        return GPH_EINVAL;
    if (count && (descs->location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
                  descs->location.id != 0 ||
                  descs->flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE))
        return GPH_EINVAL;
    return GPH_OK;
}

static CUdeviceptr node_addr(CUgraphNode n)
{
    if (n->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC) {
        CUDA_MEM_ALLOC_NODE_PARAMS a;
        memcpy(&a, n->p, sizeof a);
        return a.dptr;
    }
    CUdeviceptr d;
    memcpy(&d, n->p, sizeof d);
    return d;
}

int gmem_run(CUgraphNode n)
{
    return n->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC ? gmem_alloc(node_addr(n))
                                                   : gmem_free(node_addr(n));
}

int gmem_graph_has_mem(CUgraph g)
{
    for (size_t i = 0; i < g->n; i++) {
        int t = g->nodes[i]->type;
        if (t == CU_GRAPH_NODE_TYPE_MEM_ALLOC ||
            t == CU_GRAPH_NODE_TYPE_MEM_FREE)
            return 1;
    }
    return 0;
}

void gmem_auto_free(CUgraph g)
{
    for (size_t i = 0; i < g->n; i++)
        if (g->nodes[i]->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC)
            (void)gmem_free(node_addr(g->nodes[i]));
}
