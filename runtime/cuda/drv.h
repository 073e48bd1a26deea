/*
 * runtime/cuda/drv.h: state shared by the files of the drop-in driver
 * (libcuda.so.1).  Internal.
 *
 * One process-global emulated device, created by cuInit.  Everything
 * the driver keeps (contexts, modules, streams, events) is registered
 * in one handle table, so that a stale or forged handle is answered
 * with CUDA_ERROR_INVALID_HANDLE / INVALID_CONTEXT instead of being
 * dereferenced.  drv.lock guards the table and the globals below; the
 * ptxemu_device has its own lock around the emulator.
 */
#ifndef PTXEMU_CUDA_DRV_H
#define PTXEMU_CUDA_DRV_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "emu/gpuspec.h"
#include "abi/cuda_abi.h"
#include "runtime/ptxemu.h"

/* The emulated GPU's figures (emu/gpuspec.h). */
typedef EmuGpu DrvGpu;

enum {
    DRV_SMEM_STATIC_MAX = EMU_GPU_SMEM_STATIC_MAX,
    DRV_SMEM_RESERVED = EMU_GPU_SMEM_RESERVED
};

struct CUctx_st {
    unsigned flags;
    int primary;
    unsigned long long id;
    _Atomic CUresult sticky;            /* set by a kernel fault */
    CUresult async_err;                 /* drv_queue.h: a failed item */
    size_t limits[CU_LIMIT_MAX];
    CUfunc_cache cache;
};

struct CUfunc_st {
    struct CUmod_st *mod;
    ptxemu_function *pf;
    int max_dyn_smem;                   /* cuFuncSetAttribute */
    int carveout;
    CUfunc_cache cache;
};

struct CUmod_st {
    ptxemu_module *pm;
    struct CUfunc_st *funcs;
    unsigned nfuncs;
    int library;                        /* loaded by cuLibraryLoad* */
};

/* The code a launch of a library's kernel with a configuration beyond
 * the device's limits gives: no CUresult of cuda.h, the number of
 * cudaErrorInvalidConfiguration, which CUDA's runtime passes through
 * (drv_launch.c says why). */
#define DRV_ERROR_INVALID_CONFIG ((CUresult)9)

/* Stream attribute ids are below this (CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN
 * is the last one a stream takes). */
#define DRV_NSTREAM_ATTR 11

struct CUstream_st {
    unsigned flags;
    int priority;
    CUcontext ctx;
    unsigned long long id;
    /* cuStreamSetAttribute's values (drv_sattr.c), by attribute id,
     * and which were set */
    CUlaunchAttributeValue attr[DRV_NSTREAM_ATTR];
    unsigned attr_set;
    struct DrvQueue *q;                 /* its work (drv_queue.h) */
};

struct CUevent_st {
    unsigned flags;
    struct DrvItem *rec;                /* its last record (drv_queue.h) */
    struct DrvIpcEv *ipc;               /* INTERPROCESS: the shared page */
};

struct CUarray_st {
    ptxemu_array *pa;
    CUDA_ARRAY3D_DESCRIPTOR desc;       /* as created */
    size_t elem;                        /* bytes per element */
};

/* A mipmapped array: its levels are CUarrays of their own (lv[l]). */
struct CUmipmappedArray_st {
    ptxemu_array *pa;
    CUDA_ARRAY3D_DESCRIPTOR desc;       /* as created */
    unsigned levels;
    struct CUarray_st *lv;
};

typedef enum DrvKind {
    DRV_CTX = 1, DRV_MOD, DRV_FUNC, DRV_STREAM, DRV_EVENT, DRV_LINK,
    DRV_ARRAY, DRV_MIPMAP,
    DRV_MEM,                            /* an allocation, by address */
    DRV_PINNED                          /* a page-locked host one */
} DrvKind;

typedef struct DrvState {
    pthread_mutex_t lock;
    _Atomic int initialized;            /* read without the lock */
    /* A child forked while a driver lock was held (a kernel running,
     * a queue being changed): the driver is unusable there, as CUDA's
     * is after fork; every call returns CUDA_ERROR_NOT_INITIALIZED. */
    _Atomic int forked_broken;
    ptxemu_device *dev;
    DrvGpu gpu;
    int trace;
    struct CUctx_st primary;
    int primary_refs;
    int primary_active;
    unsigned long long next_id;
} DrvState;

extern DrvState drv;

/* Export `name` as a second name of the function `target` (defined in
 * the same file). */
#define DRV_ALIAS(name, target) \
    extern __typeof__(target) name __attribute__((alias(#target)));

/* drv_trace: with PTXEMU_TRACE=1, one stderr line
 * "ptxemu: NAME(ARGS) = RESULT"; returns r. */
__attribute__((format(printf, 3, 4)))
CUresult drv_trace(CUresult r, const char *name, const char *fmt, ...);
const char *drv_result_name(CUresult r);

/* Handle table (locks drv.lock itself). */
int drv_handle_add(DrvKind kind, const void *p);
void drv_handle_remove(DrvKind kind, const void *p);
int drv_handle_valid(DrvKind kind, const void *p);
unsigned long long drv_new_id(void);
/* The handles of `kind` made while ctx was current, in a malloc'd array
 * (*out, caller frees); returns their count. */
size_t drv_handles_owned(CUcontext ctx, DrvKind kind, const void ***out);
/* Frees every allocation ctx owns (drv_mem.c): a reset's. */
void drv_mem_release_owned(CUcontext ctx);

/* The calling thread's current context, or NULL. */
CUcontext drv_current(void);
/* Makes ctx the only current context of the calling thread (the
 * device worker's, for the item it runs). */
void drv_ctx_set_thread(CUcontext ctx);
/* Common entry check of calls that need a usable context: initialised,
 * a current context, no sticky fault.  Sets *ctx when not NULL. */
CUresult drv_ready(CUcontext *ctx);
/* As drv_ready, for calls on a stream: the stream must be 0, a special
 * handle or a live stream. */
CUresult drv_ready_stream(CUstream s);
/* A kernel fault on ctx: print the report once, make ctx unusable. */
CUresult drv_fault(CUcontext ctx, ptxemu_status st);
/* Map an emulator status of a non-launch call. */
CUresult drv_status(ptxemu_status st);
/* A synchronisation point: waits for all work of the current context
 * (drv_queue.h), flushes device printf (ptxemu_synchronize); returns
 * the sticky error of the context or the error of a failed item, if
 * any. */
CUresult drv_sync(void);
/* As drv_sync once the waiting is done (a stream's or an event's). */
CUresult drv_synced(CUcontext ctx);

/* The emulated GPU's attribute answer (drv_init.c). */
int drv_attribute(CUdevice_attribute a, int *out);
/* Blocks of `threads` threads with `smem` shared bytes per SM. */
int drv_blocks_per_sm(CUfunction f, int threads, size_t dyn_smem);
/* The access-policy window set on stream h (cuStreamSetAttribute; the
 * legacy stream's for NULL): false when none was set. */
bool drv_stream_window(CUstream h, CUaccessPolicyWindow *out);
/* The device's MAX_ACCESS_POLICY_WINDOW_SIZE. */
int drv_max_window(void);
size_t drv_static_smem(CUfunction f);
/* cuFuncGetAttribute without the trace line. */
CUresult drv_func_attr(int *pi, CUfunction_attribute a, CUfunction f);

/* Memory pools (drv_pool.c).  cuMemAllocAsync: from the current pool
 * of the device, on stream s. */
CUresult drv_pool_alloc(CUdeviceptr *dptr, size_t n, CUstream s);
/* If a is a block of a pool in use, gives it back to its pool (freed on
 * stream s) and returns 1; else 0. */
int drv_pool_free(CUdeviceptr a, CUstream s);
/* The pool whose live allocation holds a, or NULL
 * (CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE). */
CUmemoryPool drv_pool_owner(CUdeviceptr a);
/* Whether a lies in a live allocation of a host pool (pinned host
 * memory, as cuMemAllocHost's). */
int drv_pool_host(CUdeviceptr a);
/* A stream, event or context synchronisation: pools release free
 * memory above their release thresholds. */
void drv_pool_sync(void);
/* cuDevicePrimaryCtxReset: every pool and its memory goes. */
void drv_pool_reset(void);

/* Bytes held by cuMemCreate's physical allocations (drv_vmm.c). */
uint64_t drv_vmm_bytes(void);
/* Whether [a, a+n) lies in read-write VMM mappings side by side (one
 * buffer to copies and memsets, drv_vmm.c). */
int drv_vmm_covers(CUdeviceptr a, size_t n);

/* A 2D/3D copy with an array on one side or both (drv_array.c). */
CUresult drv_array_copy(const CUDA_MEMCPY3D *p, int sync);

/* At exit: flush device printf, write PTXEMU_STATS (drv_stats.c). */
void drv_at_exit(void);
/* drv_sanitize.c: `ptxemu sanitize`'s checker, after the device is made;
 * its report at exit (may end the process with the error exit code). */
void drv_sanitize_init(void);
void drv_sanitize_exit(void);
/* cuMemFree refused p (not the start of a live allocation): memcheck
 * reports a double or invalid free (runtime/cuda/drv_sanitize.c). */
void drv_sanitize_bad_free(CUdeviceptr p);
/* `--check-api-errors yes` (PTXEMU_SANITIZE_CHECK_API_ERRORS): set
 * while a session reports failing API calls. */
extern bool drv_sanitize_api;
/* Set while memcheck checks: memory pools then give a freed block back
 * to the device at once instead of keeping it for reuse (drv_pool.c),
 * so that an access through a pointer freed with cuMemFreeAsync is a
 * use after free even after a later allocation of the same size (which
 * the pool would have handed the same address). */
extern bool drv_sanitize_memcheck;
/* A call of our runtime failed (its export-table slot, see
 * runtime/sanitize.h RT_SAN_TABLE_UUID). */
void drv_sanitize_api_error(const char *api, int code, const char *name,
                            const char *text);
/* Driver entry point `name` returns r, an error (drv_trace): reported
 * unless our runtime made the call (it reports its own). */
void drv_sanitize_driver_error(CUresult r, const char *name);

#endif
