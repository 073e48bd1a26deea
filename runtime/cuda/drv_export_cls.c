/*
 * runtime/cuda/drv_export_cls.c: the context-local storage table of
 * the driver's private interface (drv_export.h).
 *
 * The static CUDA runtime keeps its per-context state (registered fat
 * binaries, their modules and functions) under a key of its own in
 * each context: put(ctx, key, value, destructor), get(&value, ctx,
 * key), delete(ctx, key); a NULL context means the calling thread's
 * current one.  When a context goes away its destructors run with
 * (ctx, key, value), so the runtime forgets state that died with it
 * (ZLUDA's notes: the destructor must run at cuDevicePrimaryCtxReset).
 * A lookup that finds nothing answers CUDA_ERROR_INVALID_HANDLE, as
 * ZLUDA found the real driver does; the runtime then creates its
 * state and puts it.
 */
#include "config.h"

#include <stdlib.h>

#include "runtime/cuda/drv_export.h"

typedef struct ClsEntry {
    CUcontext ctx;
    void *key;
    void *value;
    DrvClsDtor dtor;
} ClsEntry;

static pthread_mutex_t cls_lock = PTHREAD_MUTEX_INITIALIZER;
static ClsEntry *entries;
static size_t nentries, capacity;

static CUresult resolve(CUcontext *ctx)
{
    if (!drv.initialized) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    if (!*ctx) {
        *ctx = drv_current();
    }
    return *ctx && drv_handle_valid(DRV_CTX, *ctx)
           ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

/* The entry of (ctx, key), or NULL; cls_lock held. */
static ClsEntry *find(CUcontext ctx, const void *key)
{
    for (size_t i = 0; i < nentries; i++) {
        if (entries[i].ctx == ctx && entries[i].key == key) {
            return &entries[i];
        }
    }
    return NULL;
}

static CUresult put(CUcontext ctx, void *key, void *value, DrvClsDtor dtor)
{
    CUresult r = resolve(&ctx);
    if (r != CUDA_SUCCESS) {
        return r;
    }
    pthread_mutex_lock(&cls_lock);
    ClsEntry *e = find(ctx, key);
    if (!e && nentries == capacity) {
        size_t n = capacity ? capacity * 2 : 8;
        ClsEntry *grown = realloc(entries, n * sizeof(*grown));
        if (grown) {
            entries = grown;
            capacity = n;
        }
    }
    if (!e && nentries < capacity) {
        e = &entries[nentries++];
    }
    if (e) {
        *e = (ClsEntry){ctx, key, value, dtor};
    } else {
        r = CUDA_ERROR_OUT_OF_MEMORY;
    }
    pthread_mutex_unlock(&cls_lock);
    return r;
}

CUresult drv_cls_put(CUcontext ctx, void *key, void *value, DrvClsDtor dtor)
{
    return drv_trace(put(ctx, key, value, dtor),
                     "CONTEXT_LOCAL_STORAGE[0] put", "%p, %p, %p, %p",
                     (void *)ctx, key, value,
                     (void *)(uintptr_t)dtor);
}

/* The value of (ctx, key) into *value (when not NULL), the entry
 * removed when `remove`; a miss is CUDA_ERROR_INVALID_HANDLE. */
static CUresult lookup(CUcontext ctx, void *key, void **value, int remove)
{
    CUresult r = resolve(&ctx);
    if (r != CUDA_SUCCESS) {
        return r;
    }
    pthread_mutex_lock(&cls_lock);
    ClsEntry *e = find(ctx, key);
    if (!e) {
        r = CUDA_ERROR_INVALID_HANDLE;
    } else {
        if (value) {
            *value = e->value;
        }
        if (remove) {
            *e = entries[--nentries];
        }
    }
    pthread_mutex_unlock(&cls_lock);
    return r;
}

CUresult drv_cls_delete(CUcontext ctx, void *key)
{
    return drv_trace(lookup(ctx, key, NULL, 1), "CONTEXT_LOCAL_STORAGE[1] delete",
                     "%p, %p", (void *)ctx, key);
}

static CUresult get(void **value, CUcontext ctx, void *key)
{
    if (!value) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    *value = NULL;
    return lookup(ctx, key, value, 0);
}

CUresult drv_cls_get(void **value, CUcontext ctx, void *key)
{
    return drv_trace(get(value, ctx, key), "CONTEXT_LOCAL_STORAGE[2] get",
                     "%p, %p, %p", (void *)value, (void *)ctx, key);
}

void drv_export_ctx_gone(CUcontext ctx)
{
    for (;;) {
        ClsEntry e = {0};
        pthread_mutex_lock(&cls_lock);
        for (size_t i = 0; i < nentries; i++) {
            if (entries[i].ctx == ctx) {
                e = entries[i];
                entries[i] = entries[--nentries];
                break;
            }
        }
        pthread_mutex_unlock(&cls_lock);
        if (!e.ctx) {
            return;
        }
        /* One at a time, unlocked: a destructor may call back in. */
        if (e.dtor) {
            e.dtor(ctx, e.key, e.value);
        }
    }
}
