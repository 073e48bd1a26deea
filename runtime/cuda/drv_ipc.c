/*
 * runtime/cuda/drv_ipc.c: CUDA IPC handles (CUDA Driver API, "Memory
 * Management": cuIpcGetMemHandle, cuIpcOpenMemHandle,
 * cuIpcCloseMemHandle, cuIpcGetEventHandle, cuIpcOpenEventHandle).
 *
 * Model: within one process only.  The emulated device's memory is this
 * process's own, so another process cannot map it: a handle names its
 * exporting process, and opening it in another one fails with
 * CUDA_ERROR_NOT_SUPPORTED (and the device reports
 * CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED 0, so programs that check
 * waive).  Opened in the exporting process, a memory handle gives the
 * allocation's own address, counted per open as CUDA counts repeated
 * opens in one context; cuIpcCloseMemHandle drops one count (the memory
 * stays the exporter's).  An event handle opens as a new event with the
 * exported one's flags and state: all work is complete when it is
 * enqueued, so the two answer queries, waits and synchronisation alike.
 *
 * Handle layout (64 bytes, ours): "PTXEMUIP" or "PTXEMUEV", the pid,
 * then the allocation's address and size or the event's handle; opening
 * checks that the allocation (same address and size) or event is still
 * live, so a stale or forged handle is CUDA_ERROR_INVALID_VALUE /
 * INVALID_HANDLE and never dereferenced.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/cuda/drv.h"
#include "runtime/cuda/drv_queue.h"

typedef struct IpcData {
    char magic[8];
    uint32_t pid;
    uint32_t pad;
    uint64_t addr;                      /* allocation, or CUevent */
    uint64_t size;
} IpcData;

_Static_assert(sizeof(IpcData) <= sizeof(CUipcMemHandle) &&
               sizeof(CUipcMemHandle) == 64 &&
               sizeof(CUipcEventHandle) == 64, "IPC handles are 64 bytes");

static const char mem_magic[8] = "PTXEMUIP", ev_magic[8] = "PTXEMUEV";

/* Opened memory handles: address and open count. */
typedef struct Open {
    CUdeviceptr addr;
    unsigned refs;
    struct Open *next;
} Open;

static pthread_mutex_t ipc_lock = PTHREAD_MUTEX_INITIALIZER;
static Open *opens;

/* The device allocation that starts at p, with its size (0 if none). */
static size_t device_alloc(CUdeviceptr p)
{
    ptxemu_mem_kind kind = PTXEMU_MEM_NONE;
    ptxemu_devptr base = 0;
    size_t size = 0;
    ptxemu_pointer_info(drv.dev, p, &kind, &base, &size);
    return kind == PTXEMU_MEM_DEVICE && base == p ? size : 0;
}

static CUresult decode(const void *h, const char *magic, IpcData *d)
{
    memcpy(d, h, sizeof(*d));
    if (memcmp(d->magic, magic, sizeof(d->magic)) != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return d->pid == (uint32_t)getpid() ? CUDA_SUCCESS
                                        : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult get_mem(CUipcMemHandle *h, CUdeviceptr p)
{
    CUresult r = drv_ready(NULL);
    if (r) {
        return r;
    }
    size_t size = p && h ? device_alloc(p) : 0;
    if (!size) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    IpcData d;
    memset(h, 0, sizeof(*h));
    memset(&d, 0, sizeof(d));
    memcpy(d.magic, mem_magic, sizeof(d.magic));
    d.pid = (uint32_t)getpid();
    d.addr = p;
    d.size = size;
    memcpy(h, &d, sizeof(d));
    return CUDA_SUCCESS;
}

CUresult cuIpcGetMemHandle(CUipcMemHandle *pHandle, CUdeviceptr dptr)
{
    return drv_trace(get_mem(pHandle, dptr), "cuIpcGetMemHandle",
                     "%p, 0x%llx", (void *)pHandle, dptr);
}

static CUresult open_mem(CUdeviceptr *out, const CUipcMemHandle *h,
                         unsigned flags)
{
    CUresult r = drv_ready(NULL);
    IpcData d;
    memset(&d, 0, sizeof(d));
    if (!r && (!out || (flags & ~1u))) {
        r = CUDA_ERROR_INVALID_VALUE;   /* LAZY_ENABLE_PEER_ACCESS only */
    }
    if (!r) {
        r = decode(h, mem_magic, &d);
    }
    if (!r && device_alloc(d.addr) != d.size) {
        r = CUDA_ERROR_INVALID_VALUE;   /* freed since it was exported */
    }
    if (r) {
        return r;
    }
    pthread_mutex_lock(&ipc_lock);
    Open *o = opens;
    while (o && o->addr != d.addr) {
        o = o->next;
    }
    if (!o && (o = calloc(1, sizeof(*o)))) {
        o->addr = d.addr;
        o->next = opens;
        opens = o;
    }
    if (o) {
        o->refs++;
        *out = d.addr;
    }
    pthread_mutex_unlock(&ipc_lock);
    return o ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuIpcOpenMemHandle(CUdeviceptr *pdptr, CUipcMemHandle handle,
                            unsigned int Flags)
{
    return drv_trace(open_mem(pdptr, &handle, Flags), "cuIpcOpenMemHandle",
                     "%p, ..., 0x%x", (void *)pdptr, Flags);
}

CUresult cuIpcOpenMemHandle_v2(CUdeviceptr *pdptr, CUipcMemHandle handle,
                               unsigned int Flags)
{
    return drv_trace(open_mem(pdptr, &handle, Flags),
                     "cuIpcOpenMemHandle_v2", "%p, ..., 0x%x", (void *)pdptr,
                     Flags);
}

static CUresult close_mem(CUdeviceptr p)
{
    CUresult r = drv_ready(NULL);
    if (r) {
        return r;
    }
    r = CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&ipc_lock);
    for (Open **l = &opens; *l; l = &(*l)->next) {
        if ((*l)->addr == p) {
            Open *o = *l;
            if (--o->refs == 0) {
                *l = o->next;
                free(o);
            }
            r = CUDA_SUCCESS;
            break;
        }
    }
    pthread_mutex_unlock(&ipc_lock);
    return r;
}

CUresult cuIpcCloseMemHandle(CUdeviceptr dptr)
{
    return drv_trace(close_mem(dptr), "cuIpcCloseMemHandle", "0x%llx", dptr);
}

/* ----------------------------------------------------------- events */

/* Only events made with CU_EVENT_INTERPROCESS (and so DISABLE_TIMING). */
static CUresult get_event(CUipcEventHandle *h, CUevent e)
{
    CUresult r = drv_ready(NULL);
    if (!r && !h) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r && !drv_handle_valid(DRV_EVENT, e)) {
        r = CUDA_ERROR_INVALID_HANDLE;
    }
    if (!r && !(e->flags & CU_EVENT_INTERPROCESS)) {
        r = CUDA_ERROR_INVALID_HANDLE;
    }
    if (!r) {
        IpcData d;
        memset(h, 0, sizeof(*h));
        memset(&d, 0, sizeof(d));
        memcpy(d.magic, ev_magic, sizeof(d.magic));
        d.pid = (uint32_t)getpid();
        d.addr = (uint64_t)(uintptr_t)e;
        memcpy(h, &d, sizeof(d));
    }
    return r;
}

CUresult cuIpcGetEventHandle(CUipcEventHandle *pHandle, CUevent event)
{
    return drv_trace(get_event(pHandle, event), "cuIpcGetEventHandle",
                     "%p, %p", (void *)pHandle, (void *)event);
}

static CUresult open_event(CUevent *out, const CUipcEventHandle *h)
{
    CUresult r = drv_ready(NULL);
    IpcData d;
    memset(&d, 0, sizeof(d));
    if (!r && !out) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        r = decode(h, ev_magic, &d);
    }
    CUevent src = (CUevent)(uintptr_t)d.addr;
    if (!r && !drv_handle_valid(DRV_EVENT, src)) {
        r = CUDA_ERROR_INVALID_HANDLE;  /* destroyed since */
    }
    if (!r) {
        r = cuEventCreate(out, src->flags);
    }
    if (!r) {
        drv_queue_event_share(*out, src);
    }
    return r;
}

CUresult cuIpcOpenEventHandle(CUevent *phEvent, CUipcEventHandle handle)
{
    return drv_trace(open_event(phEvent, &handle), "cuIpcOpenEventHandle",
                     "%p, ...", (void *)phEvent);
}
