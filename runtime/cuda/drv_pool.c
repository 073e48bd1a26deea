/*
 * runtime/cuda/drv_pool.c: stream-ordered allocation and memory pools
 * (CUDA Driver API reference, "Stream Ordered Memory Allocator":
 * cuMemAllocAsync, cuMemFreeAsync, cuMemPool*, cuDeviceGetDefaultMemPool
 * ...).
 *
 * Contract.  A pool holds blocks: device allocations of the emulator
 * (ptxemu_malloc, 256-byte multiples: cudaMalloc's alignment) that are
 * either in use (handed out by cuMemAllocAsync) or free (given back by
 * cuMemFreeAsync and kept for reuse).  Its reserved memory is the bytes
 * of all its blocks, its used memory those in use; both have high
 * watermarks that may only be reset (set to 0).  The device has one
 * default pool, made on first use, and a current pool (the default one
 * until cuDeviceSetMemPool) that cuMemAllocAsync takes from.
 *
 * Ordering.  cuMemFreeAsync waits for its stream's earlier work before
 * giving the block back (drv_mem.c), so a free has always completed
 * when it returns and any reuse of its block is safe.  Which reuses the pool makes still
 * follows the pool's reuse attributes, as CUDA's allocator would: a
 * free block is given to an allocation on the stream that freed it; to
 * one on another stream only when one of the three reuse attributes is
 * enabled (CUDA's dependencies, event-based or inserted, are then always
 * met, the free having completed) or after a stream, event or context
 * synchronisation.  Reuse picks the smallest free block that holds the
 * request and is at most twice its size.
 *
 * Release.  At each synchronisation (cuStreamSynchronize,
 * cuEventSynchronize, cuCtxSynchronize: drv_sync) every pool gives free
 * blocks back to the device until it reserves no more than its release
 * threshold (CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, default 0);
 * cuMemPoolTrimTo does so down to its argument.  An allocation that
 * finds the device full releases every pool's free blocks and retries.
 * Under memcheck (drv_sanitize_memcheck) a freed block's memory goes
 * back at once, so that a stale pointer stays a use after free, but the
 * block stays in the pool as a ghost: counted as reserved, reused and
 * released exactly as a kept block would be (a reuse gets fresh memory
 * of its size), so that the pool's attributes read as in a plain run
 * (a correct program checking them passes under memcheck too).
 *
 * Kinds.  A pool is of one of the slots below: pinned memory of device
 * 0 (the default pool's kind), pinned host memory (location HOST:
 * CUDA 12.6+, cuDeviceGetAttribute's HOST_MEMORY_POOLS_SUPPORTED), or
 * managed memory with a preferred location of none, device 0 or the
 * host (CUDA 13).  Host and managed blocks are the memory
 * cuMemAllocHost and cuMemAllocManaged hand out (ptxemu_malloc_managed).
 * Each slot has its default pool, made on first use, and its current
 * pool (cuMemGetDefaultMemPool, cuMemGetMemPool, cuMemSetMemPool; for
 * device memory also cuDeviceGetDefaultMemPool and friends);
 * cuMemAllocAsync takes from the device slot's current pool.
 *
 * Model limits: one device and no host NUMA nodes (HOST_NUMA locations
 * are not supported, as HOST_NUMA_MEMORY_POOLS_SUPPORTED = 0 says); IPC
 * (handle types, export and import) answers CUDA_ERROR_NOT_SUPPORTED,
 * as cuDeviceGetAttribute's MEMPOOL_SUPPORTED_HANDLE_TYPES (0) says;
 * access is recorded and reported but not enforced: the device can read
 * and write a host pool's blocks before cuMemPoolSetAccess grants it,
 * where a GPU would fault.
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cuda/drv.h"
#include "runtime/cuda/drv_capture.h"

#define POOL_ALIGN ((size_t)256)

typedef struct Block {
    CUdeviceptr addr;
    size_t size;                        /* a POOL_ALIGN multiple */
    bool in_use;
    bool ghost;                         /* free, its memory given back
                                           (memcheck): addr is stale */
    bool synced;                        /* free, and synchronised since */
    unsigned long long freed_on;        /* stream key of the free */
    struct Block *next;
} Block;

/* Which memory a pool holds: each slot has its own default and current
 * pool (cuMemGetDefaultMemPool: "for a given location and allocation
 * type"). */
enum {
    SLOT_DEVICE,                        /* pinned, device 0 */
    SLOT_HOST,                          /* pinned, host */
    SLOT_MANAGED_NONE,                  /* managed, no preferred location */
    SLOT_MANAGED_DEVICE,                /* managed, prefers device 0 */
    SLOT_MANAGED_HOST,                  /* managed, prefers the host */
    NSLOTS
};

struct CUmemPoolHandle_st {
    CUmemPoolProps props;
    int slot;
    bool is_default, destroyed;
    bool device_access;                 /* a host pool's, by SetAccess */
    int reuse[3];                       /* the REUSE_* attributes */
    uint64_t threshold;
    uint64_t reserved, used, reserved_high, used_high;
    Block *blocks;
    struct CUmemPoolHandle_st *next;
};

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct CUmemPoolHandle_st *pools;        /* every live pool */
/* Per slot: the default pool once made, the current one when set to
 * another than the default. */
static CUmemoryPool default_pool[NSLOTS], current_pool[NSLOTS];

/* The slot of memory of allocation type `type` at location l, as
 * cuMemGetDefaultMemPool and cuMemPoolCreate accept them. */
/* Each slot's allocation type and location type: the one table both
 * directions read (slot_of, default_get). */
static const struct {
    int type, loc;
} slot_props[NSLOTS] = {
    [SLOT_DEVICE] = {CU_MEM_ALLOCATION_TYPE_PINNED,
                     CU_MEM_LOCATION_TYPE_DEVICE},
    [SLOT_HOST] = {CU_MEM_ALLOCATION_TYPE_PINNED, CU_MEM_LOCATION_TYPE_HOST},
    [SLOT_MANAGED_NONE] = {CU_MEM_ALLOCATION_TYPE_MANAGED,
                           CU_MEM_LOCATION_TYPE_NONE},
    [SLOT_MANAGED_DEVICE] = {CU_MEM_ALLOCATION_TYPE_MANAGED,
                             CU_MEM_LOCATION_TYPE_DEVICE},
    [SLOT_MANAGED_HOST] = {CU_MEM_ALLOCATION_TYPE_MANAGED,
                           CU_MEM_LOCATION_TYPE_HOST},
};

static CUresult slot_of(int type, const CUmemLocation *l, int *slot)
{
    if (!l) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (l->type == CU_MEM_LOCATION_TYPE_DEVICE && l->id != 0) {
        return CUDA_ERROR_INVALID_DEVICE;
    }
    if (l->type == CU_MEM_LOCATION_TYPE_HOST_NUMA) {
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    for (int k = 0; k < NSLOTS; k++) {
        if (slot_props[k].type == type && slot_props[k].loc == l->type) {
            *slot = k;
            return CUDA_SUCCESS;
        }
    }
    return CUDA_ERROR_INVALID_VALUE;
}

/* A stream's identity for "freed on the same stream": its id (a handle
 * may be reused after cuStreamDestroy); the default streams apart. */
static unsigned long long stream_key(CUstream s)
{
    if (!s || s == CU_STREAM_LEGACY) {
        return ~0ull;
    }
    if (s == CU_STREAM_PER_THREAD) {
        return ~0ull - 1;
    }
    return s->id;
}

static CUmemoryPool pool_new(const CUmemPoolProps *props, int slot,
                             bool is_default)
{
    CUmemoryPool p = calloc(1, sizeof(*p));
    if (!p) {
        return NULL;
    }
    p->props = *props;
    p->slot = slot;
    p->is_default = is_default;
    p->reuse[0] = p->reuse[1] = p->reuse[2] = 1;       /* CUDA's defaults */
    p->next = pools;
    pools = p;
    return p;
}

static void pool_unlink(CUmemoryPool p)
{
    for (CUmemoryPool *q = &pools; *q; q = &(*q)->next) {
        if (*q == p) {
            *q = p->next;
            break;
        }
    }
    free(p);
}

/* A slot's default pool, made on first use (pool_lock held). */
static CUmemoryPool default_get(int slot)
{
    if (!default_pool[slot]) {
        CUmemPoolProps props;
        memset(&props, 0, sizeof(props));
        props.allocType = slot_props[slot].type;
        props.location.type = slot_props[slot].loc;
        default_pool[slot] = pool_new(&props, slot, true);
    }
    return default_pool[slot];
}

static CUmemoryPool current_get(int slot)
{
    return current_pool[slot] ? current_pool[slot] : default_get(slot);
}

/* Whether p names a live pool (pool_lock held): forged and destroyed
 * handles are never dereferenced. */
static bool pool_valid(CUmemoryPool p)
{
    for (CUmemoryPool q = pools; q; q = q->next) {
        if (q == p && !q->destroyed) {
            return true;
        }
    }
    return false;
}

static void block_release(CUmemoryPool p, Block **link)
{
    Block *b = *link;
    *link = b->next;
    p->reserved -= b->size;
    if (!b->ghost) {
        (void)ptxemu_free(drv.dev, (ptxemu_devptr)b->addr);
    }
    free(b);
}

/* Gives free blocks of p back until it reserves at most keep bytes;
 * a destroyed pool with nothing in use goes (pool_lock held). */
static void pool_trim(CUmemoryPool p, uint64_t keep)
{
    for (Block **l = &p->blocks; *l && p->reserved > keep;) {
        if ((*l)->in_use) {
            l = &(*l)->next;
        } else {
            block_release(p, l);
        }
    }
    if (p->destroyed && !p->blocks) {
        pool_unlink(p);
    }
}

static void trim_all(void)
{
    for (CUmemoryPool p = pools, nx; p; p = nx) {
        nx = p->next;
        pool_trim(p, 0);
    }
}

void drv_pool_sync(void)
{
    pthread_mutex_lock(&pool_lock);
    for (CUmemoryPool p = pools, nx; p; p = nx) {
        nx = p->next;
        for (Block *b = p->blocks; b; b = b->next) {
            b->synced = !b->in_use;
        }
        pool_trim(p, p->threshold);
    }
    pthread_mutex_unlock(&pool_lock);
}

void drv_pool_reset(void)
{
    pthread_mutex_lock(&pool_lock);
    while (pools) {
        CUmemoryPool p = pools;
        while (p->blocks) {
            block_release(p, &p->blocks);
        }
        pool_unlink(p);
    }
    memset(default_pool, 0, sizeof(default_pool));
    memset(current_pool, 0, sizeof(current_pool));
    pthread_mutex_unlock(&pool_lock);
}

/* The free block of p that an allocation of n bytes on stream key sk
 * may take, or NULL. */
static Block *reusable(CUmemoryPool p, size_t n, unsigned long long sk)
{
    bool any_stream = p->reuse[0] || p->reuse[1] || p->reuse[2];
    Block *best = NULL;
    for (Block *b = p->blocks; b; b = b->next) {
        if (b->in_use || b->size < n || b->size / 2 > n) {
            continue;
        }
        if (b->freed_on != sk && !any_stream && !b->synced) {
            continue;
        }
        if (!best || b->size < best->size) {
            best = b;
        }
    }
    return best;
}

static void note_use(CUmemoryPool p, size_t n)
{
    p->used += n;
    if (p->used > p->used_high) {
        p->used_high = p->used;
    }
}

/* A new block of n bytes of p's kind of memory. */
static ptxemu_status block_alloc(CUmemoryPool p, size_t n, CUdeviceptr *out)
{
    if (p->slot == SLOT_DEVICE) {
        ptxemu_devptr a = 0;
        ptxemu_status st = ptxemu_malloc(drv.dev, n, &a);
        *out = (CUdeviceptr)a;
        return st;
    }
    void *h = NULL;
    ptxemu_status st = ptxemu_malloc_managed(drv.dev, n, &h);
    *out = (CUdeviceptr)(uintptr_t)h;
    return st;
}

/* An allocation of bytes from p on stream s (pool_lock held). */
static CUresult pool_alloc(CUmemoryPool p, size_t bytes, CUstream s,
                           CUdeviceptr *out)
{
    size_t n = (bytes + POOL_ALIGN - 1) & ~(POOL_ALIGN - 1);
    if (n < bytes) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    Block *b = reusable(p, n, stream_key(s));
    if (b && b->ghost) {
        CUdeviceptr a;
        ptxemu_status st = block_alloc(p, b->size, &a);
        if (st != PTXEMU_SUCCESS) {
            trim_all();           /* b is free: it may go too */
            return pool_alloc(p, bytes, s, out);
        }
        b->addr = a;
        b->ghost = false;
    }
    if (b) {
        b->in_use = true;
        note_use(p, b->size);
        *out = b->addr;
        return CUDA_SUCCESS;
    }
    if (p->props.maxSize && p->reserved + n > p->props.maxSize) {
        pool_trim(p, p->props.maxSize >= n ? p->props.maxSize - n : 0);
        if (p->reserved + n > p->props.maxSize) {
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
    }
    b = calloc(1, sizeof(*b));
    if (!b) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    CUdeviceptr a;
    ptxemu_status st = block_alloc(p, n, &a);
    if (st != PTXEMU_SUCCESS) {
        trim_all();
        st = block_alloc(p, n, &a);
    }
    if (st != PTXEMU_SUCCESS) {
        free(b);
        return drv_status(st);
    }
    b->addr = a;
    b->size = n;
    b->in_use = true;
    b->next = p->blocks;
    p->blocks = b;
    p->reserved += n;
    if (p->reserved > p->reserved_high) {
        p->reserved_high = p->reserved;
    }
    note_use(p, n);
    *out = a;
    return CUDA_SUCCESS;
}

CUmemoryPool drv_pool_owner(CUdeviceptr a)
{
    CUmemoryPool owner = NULL;
    pthread_mutex_lock(&pool_lock);
    for (CUmemoryPool p = pools; p && !owner; p = p->next) {
        for (Block *b = p->blocks; b; b = b->next) {
            if (b->in_use && a >= b->addr && a - b->addr < b->size) {
                owner = p;
                break;
            }
        }
    }
    pthread_mutex_unlock(&pool_lock);
    return owner;
}

int drv_pool_host(CUdeviceptr a)
{
    CUmemoryPool p = drv_pool_owner(a);
    return p && p->slot == SLOT_HOST;
}

int drv_pool_free(CUdeviceptr a, CUstream s)
{
    int found = 0;
    pthread_mutex_lock(&pool_lock);
    for (CUmemoryPool p = pools; p && !found; p = p->next) {
        for (Block *b = p->blocks; b; b = b->next) {
            if (b->addr == a && b->in_use) {
                b->in_use = false;
                b->synced = false;
                b->freed_on = stream_key(s);
                p->used -= b->size;
                found = 1;
                if (p->destroyed) {
                    pool_trim(p, 0);
                } else if (drv_sanitize_memcheck) {
                    (void)ptxemu_free(drv.dev, (ptxemu_devptr)b->addr);
                    b->ghost = true;
                }
                break;
            }
        }
    }
    pthread_mutex_unlock(&pool_lock);
    return found;
}

/* Pools belong to the device, not to a context: their calls need an
 * initialised driver only (the static runtime asks for the default pool
 * before it makes a context current). */
static CUresult ready(void)
{
    return drv.initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
}

/* ------------------------------------------------------ allocation */

static CUresult alloc_async(CUdeviceptr *dptr, size_t n, CUmemoryPool pool,
                            CUstream s)
{
    CUresult r = drv_ready_stream(s);
    if (r) {
        return r;
    }
    if (!dptr || n == 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (drv_capture_status(s) == CU_STREAM_CAPTURE_STATUS_INVALIDATED) {
        return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    }
    pthread_mutex_lock(&pool_lock);
    if (!pool) {
        pool = current_get(SLOT_DEVICE);
    }
    if (!pool) {
        r = CUDA_ERROR_OUT_OF_MEMORY;
    } else if (!pool_valid(pool)) {
        r = CUDA_ERROR_INVALID_VALUE;
    } else {
        r = pool_alloc(pool, n, s, dptr);
    }
    pthread_mutex_unlock(&pool_lock);
    return r;
}

CUresult drv_pool_alloc(CUdeviceptr *dptr, size_t n, CUstream s)
{
    return alloc_async(dptr, n, NULL, s);
}

CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize,
                                 CUmemoryPool pool, CUstream hStream)
{
    CUresult r = pool ? alloc_async(dptr, bytesize, pool, hStream)
                      : CUDA_ERROR_INVALID_VALUE;
    return drv_trace(r, "cuMemAllocFromPoolAsync", "%p, %zu, %p, %p",
                     (void *)dptr, bytesize, (void *)pool, (void *)hStream);
}
DRV_ALIAS(cuMemAllocFromPoolAsync_ptsz, cuMemAllocFromPoolAsync)

/* ----------------------------------------------------------- pools */

/* What a pool may be made with here (cuMemPoolCreate): a slot's
 * allocation type and location; no IPC handle types (not supported;
 * for host pools CUDA documents CUDA_ERROR_INVALID_VALUE); reserved
 * bytes zero. */
static CUresult check_props(const CUmemPoolProps *pp, int *slot)
{
    if (!pp) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = slot_of(pp->allocType, &pp->location, slot);
    if (r) {
        return r;
    }
    if (pp->handleTypes != CU_MEM_HANDLE_TYPE_NONE) {
        return *slot == SLOT_HOST ? CUDA_ERROR_INVALID_VALUE
                                  : CUDA_ERROR_NOT_SUPPORTED;
    }
    for (size_t i = 0; i < sizeof(pp->reserved); i++) {
        if (pp->reserved[i]) {
            return CUDA_ERROR_INVALID_VALUE;
        }
    }
    return CUDA_SUCCESS;
}

static CUresult pool_create(CUmemoryPool *out, const CUmemPoolProps *pp)
{
    CUresult r = ready();
    if (!r && !out) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    int slot = SLOT_DEVICE;
    if (!r) {
        r = check_props(pp, &slot);
    }
    if (r) {
        return r;
    }
    pthread_mutex_lock(&pool_lock);
    CUmemoryPool p = pool_new(pp, slot, false);
    pthread_mutex_unlock(&pool_lock);
    if (!p) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *out = p;
    return CUDA_SUCCESS;
}

CUresult cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *props)
{
    return drv_trace(pool_create(pool, props), "cuMemPoolCreate", "%p, %p",
                     (void *)pool, (const void *)props);
}

/* Destroying: the free blocks go now, the pool itself once its last
 * allocation is freed (CUDA: "resources ... released automatically
 * once there are no more outstanding allocations"). */
static CUresult pool_destroy(CUmemoryPool p)
{
    CUresult r = ready();
    if (r) {
        return r;
    }
    pthread_mutex_lock(&pool_lock);
    if (!pool_valid(p) || p->is_default) {
        r = CUDA_ERROR_INVALID_VALUE;
    } else {
        if (current_pool[p->slot] == p) {
            current_pool[p->slot] = NULL;
        }
        p->destroyed = true;
        pool_trim(p, 0);
    }
    pthread_mutex_unlock(&pool_lock);
    return r;
}

CUresult cuMemPoolDestroy(CUmemoryPool pool)
{
    return drv_trace(pool_destroy(pool), "cuMemPoolDestroy", "%p",
                     (void *)pool);
}

static CUresult trim_to(CUmemoryPool p, size_t keep)
{
    CUresult r = ready();
    if (r) {
        return r;
    }
    pthread_mutex_lock(&pool_lock);
    if (pool_valid(p)) {
        pool_trim(p, keep);
    } else {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    pthread_mutex_unlock(&pool_lock);
    return r;
}

CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep)
{
    return drv_trace(trim_to(pool, minBytesToKeep), "cuMemPoolTrimTo",
                     "%p, %zu", (void *)pool, minBytesToKeep);
}

/* Attributes: the reuse flags are ints, the others cuuint64_t. */
static CUresult attr(CUmemoryPool p, CUmemPool_attribute a, void *v, int set)
{
    CUresult r = ready();
    if (r) {
        return r;
    }
    if (!v) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&pool_lock);
    uint64_t *u = v;
    int *i = v;
    if (!pool_valid(p)) {
        r = CUDA_ERROR_INVALID_VALUE;
    } else if (a >= CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES &&
               a <= CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES) {
        int *f = &p->reuse[a - CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES];
        if (set) {
            *f = *i != 0;
        } else {
            *i = *f;
        }
    } else if (a == CU_MEMPOOL_ATTR_RELEASE_THRESHOLD) {
        if (set) {
            p->threshold = *u;
        } else {
            *u = p->threshold;
        }
    } else if (a == CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH ||
               a == CU_MEMPOOL_ATTR_USED_MEM_HIGH) {
        bool res = a == CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH;
        uint64_t *h = res ? &p->reserved_high : &p->used_high;
        if (!set) {
            *u = *h;
        } else if (*u != 0) {
            r = CUDA_ERROR_INVALID_VALUE;   /* "can only be reset to zero" */
        } else {
            *h = res ? p->reserved : p->used;
        }
    } else if ((a == CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT ||
                a == CU_MEMPOOL_ATTR_USED_MEM_CURRENT) && !set) {
        *u = a == CU_MEMPOOL_ATTR_USED_MEM_CURRENT ? p->used : p->reserved;
    } else {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    pthread_mutex_unlock(&pool_lock);
    return r;
}

CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute a,
                               void *value)
{
    return drv_trace(attr(pool, a, value, 1), "cuMemPoolSetAttribute",
                     "%p, %d, %p", (void *)pool, (int)a, value);
}

CUresult cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute a,
                               void *value)
{
    return drv_trace(attr(pool, a, value, 0), "cuMemPoolGetAttribute",
                     "%p, %d, %p", (void *)pool, (int)a, value);
}

static CUresult valid(CUmemoryPool p)
{
    CUresult r = ready();
    if (!r) {
        pthread_mutex_lock(&pool_lock);
        r = pool_valid(p) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
        pthread_mutex_unlock(&pool_lock);
    }
    return r;
}

/* Access (cuMemPoolSetAccess): a device pool's own device always
 * reads and writes it, and CUDA lets no one revoke that; a host pool is
 * the host's, and device 0 may be given read-write access or none;
 * managed memory is everyone's.  Host locations cannot be given access
 * to device pools. */
static CUresult set_access(CUmemoryPool p, const CUmemAccessDesc *map,
                           size_t count)
{
    CUresult r = valid(p);
    if (!r && count && !map) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    for (size_t i = 0; !r && i < count; i++) {
        int f = map[i].flags;
        if (map[i].location.type != CU_MEM_LOCATION_TYPE_DEVICE) {
            r = CUDA_ERROR_INVALID_VALUE;
        } else if (map[i].location.id != 0) {
            r = CUDA_ERROR_INVALID_DEVICE;
        } else if (f != CU_MEM_ACCESS_FLAGS_PROT_READWRITE &&
                   (p->slot != SLOT_HOST ||
                    f != CU_MEM_ACCESS_FLAGS_PROT_NONE)) {
            r = CUDA_ERROR_INVALID_VALUE;
        }
    }
    if (!r && p->slot == SLOT_HOST) {
        pthread_mutex_lock(&pool_lock);
        for (size_t i = 0; i < count; i++) {
            p->device_access =
                map[i].flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
        }
        pthread_mutex_unlock(&pool_lock);
    }
    return r;
}

CUresult cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc *map,
                            size_t count)
{
    return drv_trace(set_access(pool, map, count), "cuMemPoolSetAccess",
                     "%p, %p, %zu", (void *)pool, (const void *)map, count);
}

static CUresult get_access(int *flags, CUmemoryPool p, const CUmemLocation *l)
{
    CUresult r = valid(p);
    if (!r && (!flags || !l)) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (r) {
        return r;
    }
    bool host_pool = p->slot == SLOT_HOST, device_pool = p->slot == SLOT_DEVICE;
    if (l->type == CU_MEM_LOCATION_TYPE_DEVICE) {
        if (l->id != 0) {
            return CUDA_ERROR_INVALID_DEVICE;
        }
        pthread_mutex_lock(&pool_lock);
        bool rw = !host_pool || p->device_access;
        pthread_mutex_unlock(&pool_lock);
        *flags = rw ? CU_MEM_ACCESS_FLAGS_PROT_READWRITE
                    : CU_MEM_ACCESS_FLAGS_PROT_NONE;
    } else if (l->type == CU_MEM_LOCATION_TYPE_HOST) {
        *flags = device_pool ? CU_MEM_ACCESS_FLAGS_PROT_NONE
                             : CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    } else {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

CUresult cuMemPoolGetAccess(int *flags, CUmemoryPool pool,
                            CUmemLocation *location)
{
    return drv_trace(get_access(flags, pool, location), "cuMemPoolGetAccess",
                     "%p, %p, %p", (void *)flags, (void *)pool,
                     (void *)location);
}

/* ---------------------------------------------- the device's pools */

enum { GET_DEFAULT, GET_CURRENT };

static CUresult slot_pool(CUmemoryPool *out, int slot, int which)
{
    CUresult r = ready();
    if (!r && !out) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (r) {
        return r;
    }
    pthread_mutex_lock(&pool_lock);
    *out = which == GET_DEFAULT ? default_get(slot) : current_get(slot);
    pthread_mutex_unlock(&pool_lock);
    return *out ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

/* Makes p the slot's current pool; p must be of that slot ("the
 * location and allocation type specified must match those of the
 * pool", cuMemSetMemPool). */
static CUresult slot_set_pool(int slot, CUmemoryPool p)
{
    CUresult r = ready();
    if (r) {
        return r;
    }
    pthread_mutex_lock(&pool_lock);
    if (!pool_valid(p) || p->slot != slot) {
        r = CUDA_ERROR_INVALID_VALUE;
    } else {
        current_pool[slot] = p == default_pool[slot] ? NULL : p;
    }
    pthread_mutex_unlock(&pool_lock);
    return r;
}

static CUresult dev_check(CUdevice dev)
{
    CUresult r = ready();
    return r ? r : dev != 0 ? CUDA_ERROR_INVALID_DEVICE : CUDA_SUCCESS;
}

CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool, CUdevice dev)
{
    CUresult r = dev_check(dev);
    return drv_trace(r ? r : slot_pool(pool, SLOT_DEVICE, GET_DEFAULT),
                     "cuDeviceGetDefaultMemPool", "%p, %d", (void *)pool,
                     dev);
}

CUresult cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev)
{
    CUresult r = dev_check(dev);
    return drv_trace(r ? r : slot_pool(pool, SLOT_DEVICE, GET_CURRENT),
                     "cuDeviceGetMemPool", "%p, %d", (void *)pool, dev);
}

CUresult cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool)
{
    CUresult r = dev_check(dev);
    return drv_trace(r ? r : slot_set_pool(SLOT_DEVICE, pool),
                     "cuDeviceSetMemPool", "%d, %p", dev, (void *)pool);
}

/* The location-based forms (CUDA 13), for every slot. */
CUresult cuMemGetDefaultMemPool(CUmemoryPool *pool, CUmemLocation *location,
                                int type)
{
    int slot = SLOT_DEVICE;
    CUresult r = slot_of(type, location, &slot);
    return drv_trace(r ? r : slot_pool(pool, slot, GET_DEFAULT),
                     "cuMemGetDefaultMemPool", "%p, %p, %d", (void *)pool,
                     (void *)location, type);
}

CUresult cuMemGetMemPool(CUmemoryPool *pool, CUmemLocation *location,
                         int type)
{
    int slot = SLOT_DEVICE;
    CUresult r = slot_of(type, location, &slot);
    return drv_trace(r ? r : slot_pool(pool, slot, GET_CURRENT),
                     "cuMemGetMemPool", "%p, %p, %d", (void *)pool,
                     (void *)location, type);
}

CUresult cuMemSetMemPool(CUmemLocation *location, int type,
                         CUmemoryPool pool)
{
    int slot = SLOT_DEVICE;
    CUresult r = slot_of(type, location, &slot);
    return drv_trace(r ? r : slot_set_pool(slot, pool), "cuMemSetMemPool",
                     "%p, %d, %p", (void *)location, type, (void *)pool);
}

/* ------------------------------------------------------------ IPC */

/* No pool is made with a handle type (check_props), so none can be
 * exported, and there is nothing to import. */
static CUresult ipc(void)
{
    CUresult r = ready();
    return r ? r : CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuMemPoolExportToShareableHandle(void *handle, CUmemoryPool pool,
                                          int handleType,
                                          unsigned long long flags)
{
    return drv_trace(ipc(), "cuMemPoolExportToShareableHandle",
                     "%p, %p, %d, 0x%llx", handle, (void *)pool, handleType,
                     flags);
}

CUresult cuMemPoolImportFromShareableHandle(CUmemoryPool *pool, void *handle,
                                            int handleType,
                                            unsigned long long flags)
{
    return drv_trace(ipc(), "cuMemPoolImportFromShareableHandle",
                     "%p, %p, %d, 0x%llx", (void *)pool, handle, handleType,
                     flags);
}

CUresult cuMemPoolExportPointer(CUmemPoolPtrExportData *out, CUdeviceptr ptr)
{
    return drv_trace(ipc(), "cuMemPoolExportPointer", "%p, 0x%llx",
                     (void *)out, ptr);
}

CUresult cuMemPoolImportPointer(CUdeviceptr *ptr, CUmemoryPool pool,
                                CUmemPoolPtrExportData *data)
{
    return drv_trace(ipc(), "cuMemPoolImportPointer", "%p, %p, %p",
                     (void *)ptr, (void *)pool, (void *)data);
}
