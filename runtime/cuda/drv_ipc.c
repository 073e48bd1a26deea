/*
 * runtime/cuda/drv_ipc.c: CUDA IPC handles (CUDA Driver API, "Memory
 * Management": cuIpcGetMemHandle, cuIpcOpenMemHandle,
 * cuIpcCloseMemHandle, cuIpcGetEventHandle, cuIpcOpenEventHandle).
 *
 * Memory, between processes of one host.  The emulated device's memory
 * is host memory of the process that allocated it, so exporting an
 * allocation (cuIpcGetMemHandle) moves its bytes, once, into a memfd
 * mapped MAP_SHARED (emu_mem_share, emu/memory.h; the device lock is
 * held so that no kernel is running on it meanwhile).  The handle names
 * the exporting pid, the memfd's descriptor number and its inode; another
 * process opens /proc/<pid>/fd/<fd> (allowed between processes of one
 * user, proc(5)), checks that the file is the same inode of the expected
 * size, maps it MAP_SHARED and enters the mapping at a new device
 * address of its own, so both processes' copies, kernels and memsets see
 * one set of bytes, as two contexts on one GPU do.  Repeated opens of one
 * handle in a process give one address, counted; the last
 * cuIpcCloseMemHandle unmaps it.  A handle whose allocation was freed
 * (its memfd closed), whose exporter has exited, or whose descriptor now
 * names another file, fails to open with CUDA_ERROR_INVALID_HANDLE
 * (cudaErrorInvalidResourceHandle), never a crash; a handle that is not
 * ours at all (wrong magic) is CUDA_ERROR_INVALID_VALUE.  Opened in the
 * exporting process, a memory handle gives the allocation's own address,
 * counted the same way (the memory stays the exporter's).  As in CUDA,
 * ordering between the processes is the program's business (events,
 * or synchronising before signalling the other process).
 *
 * Events, between processes too (CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED
 * is 1).  An event made with CU_EVENT_INTERPROCESS keeps its completion
 * state in a one-page memfd of its own (drv_ipcev.h); its handle names
 * that memfd as a memory handle names an allocation's, and opening it
 * (in any process, the exporter included) maps the page under a new
 * event with the flags INTERPROCESS | DISABLE_TIMING, as CUDA's opened
 * events have.  Records made in either process count, and queries,
 * synchronisations and stream waits read the page (drv_queue.c).  A
 * destroyed event's handle, an exited exporter's, or a forged one fails
 * with CUDA_ERROR_INVALID_HANDLE; an event already opened keeps its
 * mapping, so its last state stays readable after the exporter exits.
 *
 * Handle layout (64 bytes, ours): "PTXEMUIP" or "PTXEMUEV", the pid,
 * the memfd's descriptor, then the allocation's address and size (or
 * the event's handle, for tracing only), the memfd's inode, device and
 * size.
 */
#include "config.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/api_emu.h"
#include "runtime/cuda/drv.h"
#include "runtime/cuda/drv_ipcev.h"
#include "runtime/cuda/drv_queue.h"

typedef struct IpcData {
    char magic[8];
    uint32_t pid;
    int32_t fd;                         /* the exporter's memfd */
    uint64_t addr;                      /* allocation, or CUevent */
    uint64_t size;
    uint64_t ino, dev, bytes;           /* the memfd: inode, size */
} IpcData;

_Static_assert(sizeof(IpcData) <= sizeof(CUipcMemHandle) &&
               sizeof(CUipcMemHandle) == 64 &&
               sizeof(CUipcEventHandle) == 64, "IPC handles are 64 bytes");

static const char mem_magic[8] = "PTXEMUIP", ev_magic[8] = "PTXEMUEV";

/* Opened memory handles: the exporter's pid and allocation, the address
 * here, the open count, and (another process's memory) the mapping. */
typedef struct Open {
    uint32_t pid;
    uint64_t src;                       /* the exporter's address */
    uint64_t ino;
    CUdeviceptr addr;
    void *host;                         /* NULL: our own allocation */
    uint64_t bytes;
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

/* The handle's data; CUDA_ERROR_INVALID_VALUE when it is not ours. */
static CUresult decode(const void *h, const char *magic, IpcData *d)
{
    memcpy(d, h, sizeof(*d));
    return memcmp(d->magic, magic, sizeof(d->magic)) == 0
               ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
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
    int fd = -1;
    uint64_t bytes = 0;
    struct stat st;
    drv_dev_lock();                     /* no kernel runs on the bytes */
    int bad = rt_mem_share(drv.dev, p, &fd, &bytes);
    drv_dev_unlock();
    if (bad) {
        return CUDA_ERROR_INVALID_VALUE;  /* a VMM mapping, an import */
    }
    if (fstat(fd, &st) != 0) {
        return CUDA_ERROR_OPERATING_SYSTEM;
    }
    IpcData d;
    memset(h, 0, sizeof(*h));
    memset(&d, 0, sizeof(d));
    memcpy(d.magic, mem_magic, sizeof(d.magic));
    d.pid = (uint32_t)getpid();
    d.fd = fd;
    d.addr = p;
    d.size = size;
    d.ino = (uint64_t)st.st_ino;
    d.dev = (uint64_t)st.st_dev;
    d.bytes = bytes;
    memcpy(h, &d, sizeof(d));
    return CUDA_SUCCESS;
}

CUresult cuIpcGetMemHandle(CUipcMemHandle *pHandle, CUdeviceptr dptr)
{
    return drv_trace(get_mem(pHandle, dptr), "cuIpcGetMemHandle",
                     "%p, 0x%llx", (void *)pHandle, dptr);
}

/* Maps the exporter's memfd named by d, when it is still one of ours
 * called `name` ("/memfd:NAME "), the same inode, of d->bytes bytes;
 * NULL otherwise (freed, the exporter gone, a forged handle, or a
 * memfd not sealed against resizing: another process could shrink it
 * and the next access here would die of SIGBUS). */
static void *map_exported(const IpcData *d, const char *name)
{
    char path[64];
    if (d->fd < 0 || !d->bytes) {
        return NULL;
    }
    snprintf(path, sizeof(path), "/proc/%u/fd/%d", d->pid, d->fd);
    /* Only our memfds are opened (a forged handle could name any file
     * the other process holds: a FIFO, a device), and never blocking. */
    char target[64];
    size_t len = strlen(name);
    ssize_t n = readlink(path, target, sizeof(target) - 1);
    if (n < (ssize_t)len || memcmp(target, name, len) != 0) {
        return NULL;
    }
    int fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        return NULL;
    }
    struct stat st;
    void *h = MAP_FAILED;
    if (emu_memfd_is_sealed(fd) &&    /* its size can never change */
        fstat(fd, &st) == 0 && (uint64_t)st.st_ino == d->ino &&
        (uint64_t)st.st_dev == d->dev && S_ISREG(st.st_mode) &&
        (uint64_t)st.st_size == d->bytes) {
        h = mmap(NULL, d->bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    }
    close(fd);                          /* the mapping keeps the file */
    return h == MAP_FAILED ? NULL : h;
}

/* Maps another process's exported allocation here: its address in *out
 * and the mapping in *host. */
static CUresult import(const IpcData *d, CUdeviceptr *out, void **host)
{
    if (!d->size || d->bytes != emu_mem_host_span(d->size)) {
        return CUDA_ERROR_INVALID_HANDLE;   /* not a handle we made */
    }
    void *h = map_exported(d, "/memfd:ptxemu-ipc ");
    if (!h) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    ptxemu_devptr a = 0;
    CUresult r = CUDA_ERROR_OUT_OF_MEMORY;
    drv_dev_lock();
    if (ptxemu_va_reserve(drv.dev, d->bytes, 256, &a) == PTXEMU_SUCCESS &&
        ptxemu_va_map(drv.dev, a, h, d->size) == PTXEMU_SUCCESS) {
        r = CUDA_SUCCESS;
    }
    drv_dev_unlock();
    if (r) {
        munmap(h, d->bytes);
        return r;
    }
    *out = a;
    *host = h;
    return CUDA_SUCCESS;
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
    int own = d.pid == (uint32_t)getpid();
    if (!r && own && device_alloc(d.addr) != d.size) {
        r = CUDA_ERROR_INVALID_HANDLE;  /* freed since it was exported */
    }
    if (r) {
        return r;
    }
    pthread_mutex_lock(&ipc_lock);
    Open *o = opens;
    while (o && !(o->pid == d.pid && o->src == d.addr &&
                  (own || o->ino == d.ino))) {
        o = o->next;
    }
    if (!o && (o = calloc(1, sizeof(*o)))) {
        o->pid = d.pid;
        o->src = d.addr;
        o->ino = d.ino;
        o->addr = d.addr;
        o->bytes = d.bytes;
        r = own ? CUDA_SUCCESS : import(&d, &o->addr, &o->host);
        if (r) {
            free(o);
            o = NULL;
        } else {
            o->next = opens;
            opens = o;
        }
    } else if (!o) {
        r = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (o) {
        o->refs++;
        *out = o->addr;
    }
    pthread_mutex_unlock(&ipc_lock);
    return r;
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
                if (o->host) {
                    /* under the device lock: no kernel is reading it */
                    drv_dev_lock();
                    ptxemu_va_unmap(drv.dev, o->addr);
                    drv_dev_unlock();
                    munmap(o->host, o->bytes);
                }
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
    struct stat st;
    if (!r && fstat(drv_ipcev_fd(e->ipc), &st) != 0) {
        r = CUDA_ERROR_OPERATING_SYSTEM;
    }
    if (!r) {
        IpcData d;
        memset(h, 0, sizeof(*h));
        memset(&d, 0, sizeof(d));
        memcpy(d.magic, ev_magic, sizeof(d.magic));
        d.pid = (uint32_t)getpid();
        d.fd = drv_ipcev_fd(e->ipc);
        d.addr = (uint64_t)(uintptr_t)e;
        d.ino = (uint64_t)st.st_ino;
        d.dev = (uint64_t)st.st_dev;
        d.bytes = DRV_IPCEV_BYTES;
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
    DrvIpcEv *v = NULL;
    if (!r && d.bytes == DRV_IPCEV_BYTES) {
        v = drv_ipcev_adopt(map_exported(&d, "/memfd:ptxemu-ipcev "));
    }
    if (!r && !v) {
        r = CUDA_ERROR_INVALID_HANDLE;  /* destroyed, exporter gone, forged */
    }
    if (!r) {
        r = cuEventCreate(out, CU_EVENT_DISABLE_TIMING);
    }
    if (!r) {
        (*out)->flags |= CU_EVENT_INTERPROCESS;
        (*out)->ipc = v;
    } else {
        drv_ipcev_unref(v);
    }
    return r;
}

CUresult cuIpcOpenEventHandle(CUevent *phEvent, CUipcEventHandle handle)
{
    return drv_trace(open_event(phEvent, &handle), "cuIpcOpenEventHandle",
                     "%p, ...", (void *)phEvent);
}
