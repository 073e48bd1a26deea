/*
 * runtime/cuda/drv_vmm.c: virtual memory management (CUDA Driver API
 * reference, "Virtual Memory Management": cuMemCreate, cuMemAddressReserve,
 * cuMemMap, cuMemSetAccess, cuMemUnmap, cuMemRelease ...).
 *
 * Contract.  Three kinds of object, kept here under vmm_lock:
 *   - a physical allocation (cuMemCreate): zeroed host bytes of a size
 *     that is a multiple of the granularity (EMU_MAP_GRANULARITY, 2 MiB
 *     as on NVIDIA GPUs).  Its CUmemGenericAllocationHandle is its
 *     address, only ever used after it is found in the list (a forged
 *     handle is CUDA_ERROR_INVALID_VALUE).  It lives while it has a handle
 *     reference (cuMemCreate, cuMemRetainAllocationHandle; dropped by
 *     cuMemRelease) or a mapping: the bytes are freed when the last of
 *     them goes, as the reference says.
 *   - a reservation (cuMemAddressReserve): a range of device addresses
 *     that nothing else is given (ptxemu_va_reserve).  Unmapped parts
 *     fault on access, as on a GPU.
 *   - a mapping (cuMemMap): a granularity-aligned part of a reservation
 *     backed by one physical allocation.  It enters the emulator's
 *     allocation table (ptxemu_va_map, the physical bytes themselves, no
 *     copy) only while cuMemSetAccess has made it read-write for the
 *     device: mapped but not accessible memory faults, as on a GPU.
 *     Mappings side by side are separate table entries; no naturally
 *     aligned access spans two, since both are 2 MiB aligned.
 * Copies and memsets may run across mappings side by side, as across
 * one buffer (emu_mem_write, drv_vmm_covers).
 * Model limits: cuMemSetAccess and cuMemUnmap take whole mappings (the
 * range starts at a mapping's start and ends at one's end); read-only
 * access (CU_MEM_ACCESS_FLAGS_PROT_READ) makes device writes fault, while
 * host copies still reach the memory; handles are exported to other
 * processes as POSIX file descriptors only (a memfd holds the bytes of an
 * allocation made with CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR; other
 * types answer CUDA_ERROR_NOT_SUPPORTED); the only location is
 * device 0.  Compression is a hardware property the emulated GPU lacks:
 * a request for it gives uncompressed memory, which
 * cuMemGetAllocationPropertiesFromHandle reports, as the reference allows.
 */
#include "config.h"

#define _GNU_SOURCE 1 /* F_GET_SEALS, F_SEAL_SHRINK (fcntl(2)) */
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emu/memory.h"
#include "runtime/cuda/drv.h"

#define VMM_GRAN ((size_t)EMU_MAP_GRANULARITY)

typedef struct Phys {
    uint8_t *host;
    size_t size;
    int fd;                             /* a memfd when exportable, else -1 */
    CUmemAllocationProp prop;
    unsigned handles, maps;             /* references */
    struct Phys *next;
} Phys;

typedef struct Resv {
    CUdeviceptr addr;
    size_t size;
    struct Resv *next;
} Resv;

typedef struct Map {
    CUdeviceptr addr;
    size_t size;
    Phys *p;
    bool rw;                            /* in the table: accessible */
    bool ro;                            /* ...for reading only */
    struct Map *next;
} Map;

static pthread_mutex_t vmm_lock = PTHREAD_MUTEX_INITIALIZER;
static Phys *physs;
static Resv *resvs;
static Map *maps;                       /* sorted by address */
static uint64_t phys_bytes;             /* held by physical allocations */

static Phys *phys_find(CUmemGenericAllocationHandle h)
{
    for (Phys *p = physs; p; p = p->next) {
        if ((CUmemGenericAllocationHandle)(uintptr_t)p == h &&
            p->handles) {
            return p;
        }
    }
    return NULL;
}

uint64_t drv_vmm_bytes(void)
{
    pthread_mutex_lock(&vmm_lock);
    uint64_t n = phys_bytes;
    pthread_mutex_unlock(&vmm_lock);
    return n;
}

/* Gives back a physical allocation's bytes: a shared mapping of its
 * memfd fd, or (fd -1) an anonymous one. */
static void bytes_free(uint8_t *host, size_t size, int fd)
{
    if (fd >= 0) {
        munmap(host, size);
        close(fd);
    } else {
        munmap(host, size);
    }
}

/* Frees p once nothing refers to it. */
static void phys_put(Phys *p)
{
    if (p->handles || p->maps) {
        return;
    }
    for (Phys **pp = &physs; *pp; pp = &(*pp)->next) {
        if (*pp == p) {
            *pp = p->next;
            break;
        }
    }
    phys_bytes -= p->size;
    bytes_free(p->host, p->size, p->fd);
    free(p);
}

static Resv *resv_of(CUdeviceptr a, size_t n)
{
    for (Resv *r = resvs; r; r = r->next) {
        if (a >= r->addr && n <= r->size && a - r->addr <= r->size - n) {
            return r;
        }
    }
    return NULL;
}

static Map *map_at(CUdeviceptr a)
{
    for (Map *m = maps; m; m = m->next) {
        if (a >= m->addr && a - m->addr < m->size) {
            return m;
        }
    }
    return NULL;
}

int drv_vmm_covers(CUdeviceptr a, size_t n)
{
    int ok = 0;
    pthread_mutex_lock(&vmm_lock);
    for (Map *m = map_at(a); m && m->rw && !ok; m = m->next) {
        CUdeviceptr end = m->addr + m->size;
        if (end - a >= n) {
            ok = 1;
        } else if (!m->next || m->next->addr != end) {
            break;
        }
    }
    pthread_mutex_unlock(&vmm_lock);
    return ok;
}

/* The mappings that exactly tile [a, a+n): the first (NULL if they do
 * not), *last set to the final one. */
static Map *maps_tiling(CUdeviceptr a, size_t n, Map **last)
{
    Map *first = map_at(a);
    if (!first || first->addr != a || n == 0) {
        return NULL;
    }
    CUdeviceptr end = a + n;
    for (Map *m = first; m; m = m->next) {
        CUdeviceptr mend = m->addr + m->size;
        if (mend == end) {
            *last = m;
            return first;
        }
        if (mend > end || !m->next || m->next->addr != mend) {
            return NULL;
        }
    }
    return NULL;
}

/* A device-0 location and a pinned allocation type. */
static CUresult check_prop(const CUmemAllocationProp *prop)
{
    if (!prop || prop->type != CU_MEM_ALLOCATION_TYPE_PINNED ||
        prop->location.type != CU_MEM_LOCATION_TYPE_DEVICE) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return prop->location.id == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CUresult cuMemGetAllocationGranularity(size_t *granularity,
                                       const CUmemAllocationProp *prop,
                                       int option)
{
    CUresult r = drv_ready(NULL);
    if (!r && (!granularity ||
               (option != CU_MEM_ALLOC_GRANULARITY_MINIMUM &&
                option != CU_MEM_ALLOC_GRANULARITY_RECOMMENDED))) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        r = check_prop(prop);
    }
    if (!r) {
        *granularity = VMM_GRAN;
    }
    return drv_trace(r, "cuMemGetAllocationGranularity", "%p, %p, %d",
                     (void *)granularity, (const void *)prop, option);
}

/* A new physical allocation over host bytes (vmm_lock held); on failure
 * the bytes are given back. */
static Phys *phys_add(uint8_t *host, size_t size, int fd,
                      const CUmemAllocationProp *prop)
{
    Phys *p = calloc(1, sizeof(*p));
    if (!p) {
        bytes_free(host, size, fd);
        return NULL;
    }
    p->host = host;
    p->size = size;
    p->fd = fd;
    p->prop = *prop;
    p->prop.allocFlags.compressionType = CU_MEM_ALLOCATION_COMP_NONE;
    p->handles = 1;
    p->next = physs;
    physs = p;
    phys_bytes += size;
    return p;
}

static CUresult mem_create(CUmemGenericAllocationHandle *handle, size_t size,
                           const CUmemAllocationProp *prop,
                           unsigned long long flags)
{
    CUresult r = drv_ready(NULL);
    if (r) {
        return r;
    }
    if (!handle || !size || size % VMM_GRAN || flags) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if ((r = check_prop(prop))) {
        return r;
    }
    int types = prop->requestedHandleTypes;
    if (types & ~CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) {
        return CUDA_ERROR_NOT_SUPPORTED;    /* Win32, fabric: see the top */
    }
    pthread_mutex_lock(&vmm_lock);
    uint64_t used = ptxemu_mem_used(drv.dev) + phys_bytes;
    int fd = -1;
    uint8_t *host = NULL;
    if (used <= drv.gpu.total_mem && size <= drv.gpu.total_mem - used) {
        if (!types) {
            /* page-aligned, as a device allocation's host bytes are
             * 256-aligned: the timing model's store buffer names lines
             * by host address, so two mappings share them (emu/shadow.c),
             * and zero pages cost nothing until touched */
            host = mmap(NULL, size, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (host == MAP_FAILED) {
                host = NULL;
            }
        } else if ((fd = emu_memfd_sealed("ptxemu-vmm", size)) >= 0) {
            /* exportable: the bytes live in a memfd other processes can
             * map (zeroed, its size sealed) */
            host = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
                        0);
            if (host == MAP_FAILED) {
                host = NULL;
                close(fd);
            }
        }
    }
    Phys *p = host ? phys_add(host, size, fd, prop) : NULL;
    if (!p) {
        pthread_mutex_unlock(&vmm_lock);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *handle = (CUmemGenericAllocationHandle)(uintptr_t)p;
    pthread_mutex_unlock(&vmm_lock);
    return CUDA_SUCCESS;
}

CUresult cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size,
                     const CUmemAllocationProp *prop,
                     unsigned long long flags)
{
    return drv_trace(mem_create(handle, size, prop, flags), "cuMemCreate",
                     "%p, %zu, %p, %llu", (void *)handle, size,
                     (const void *)prop, flags);
}

CUresult cuMemRelease(CUmemGenericAllocationHandle handle)
{
    CUresult r = drv_ready(NULL);
    if (!r) {
        pthread_mutex_lock(&vmm_lock);
        Phys *p = phys_find(handle);
        if (p) {
            p->handles--;
            phys_put(p);
        } else {
            r = CUDA_ERROR_INVALID_VALUE;
        }
        pthread_mutex_unlock(&vmm_lock);
    }
    return drv_trace(r, "cuMemRelease", "0x%llx", handle);
}

static CUresult address_reserve(CUdeviceptr *ptr, size_t size,
                                size_t alignment)
{
    CUresult r = drv_ready(NULL);
    if (r) {
        return r;
    }
    if (!ptr || !size || size % VMM_GRAN ||
        (alignment & (alignment - 1))) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    Resv *v = calloc(1, sizeof(*v));
    if (!v) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    ptxemu_devptr a;
    if (ptxemu_va_reserve(drv.dev, size,
                          alignment > VMM_GRAN ? alignment : VMM_GRAN,
                          &a) != PTXEMU_SUCCESS) {
        free(v);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    pthread_mutex_lock(&vmm_lock);
    v->addr = a;
    v->size = size;
    v->next = resvs;
    resvs = v;
    pthread_mutex_unlock(&vmm_lock);
    *ptr = a;
    return CUDA_SUCCESS;
}

/* The requested address `addr` is a hint the reference lets the driver
 * ignore; flags (CU_MEM_ADDRESS_RESERVE_*) are hints too. */
CUresult cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t alignment,
                             CUdeviceptr addr, unsigned long long flags)
{
    return drv_trace(address_reserve(ptr, size, alignment),
                     "cuMemAddressReserve", "%p, %zu, %zu, 0x%llx, %llu",
                     (void *)ptr, size, alignment, addr, flags);
}

CUresult cuMemAddressFree(CUdeviceptr ptr, size_t size)
{
    CUresult r = drv_ready(NULL);
    if (!r) {
        pthread_mutex_lock(&vmm_lock);
        Resv **pv = &resvs;
        while (*pv && ((*pv)->addr != ptr || (*pv)->size != size)) {
            pv = &(*pv)->next;
        }
        Map *m = maps;
        while (*pv && m && (m->addr < ptr || m->addr - ptr >= size)) {
            m = m->next;
        }
        if (!*pv || m) {
            /* not a reservation, or still mapped: unmap first */
            r = CUDA_ERROR_INVALID_VALUE;
        } else {
            Resv *v = *pv;
            *pv = v->next;
            free(v);
        }
        pthread_mutex_unlock(&vmm_lock);
    }
    return drv_trace(r, "cuMemAddressFree", "0x%llx, %zu", ptr, size);
}

static CUresult mem_map(CUdeviceptr ptr, size_t size, size_t offset,
                        CUmemGenericAllocationHandle handle,
                        unsigned long long flags)
{
    CUresult r = drv_ready(NULL);
    if (r) {
        return r;
    }
    /* The reference: offset "currently must be zero", flags too. */
    if (!size || size % VMM_GRAN || ptr % VMM_GRAN || offset || flags) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    Map *n = calloc(1, sizeof(*n));
    if (!n) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    pthread_mutex_lock(&vmm_lock);
    Phys *p = phys_find(handle);
    Map **at = &maps, *prev = NULL;
    while (*at && (*at)->addr < ptr) {
        prev = *at;
        at = &(*at)->next;
    }
    bool overlap = (*at && (*at)->addr - ptr < size) ||
                   (prev && prev->addr + prev->size > ptr);
    if (!p || size > p->size || !resv_of(ptr, size) || overlap) {
        pthread_mutex_unlock(&vmm_lock);
        free(n);
        return CUDA_ERROR_INVALID_VALUE;
    }
    n->addr = ptr;
    n->size = size;
    n->p = p;
    n->next = *at;
    *at = n;
    p->maps++;
    pthread_mutex_unlock(&vmm_lock);
    return CUDA_SUCCESS;
}

CUresult cuMemMap(CUdeviceptr ptr, size_t size, size_t offset,
                  CUmemGenericAllocationHandle handle,
                  unsigned long long flags)
{
    return drv_trace(mem_map(ptr, size, offset, handle, flags), "cuMemMap",
                     "0x%llx, %zu, %zu, 0x%llx, %llu", ptr, size, offset,
                     handle, flags);
}

/* Enters m into the emulator's table (rw), read-only when ro, or takes
 * it out. */
static CUresult set_rw(Map *m, bool rw, bool ro)
{
    ro = rw && ro;
    if (m->rw != rw) {
        ptxemu_status st = rw ? ptxemu_va_map(drv.dev, m->addr,
                                              m->p->host, m->size)
                              : ptxemu_va_unmap(drv.dev, m->addr);
        if (st != PTXEMU_SUCCESS) {
            return drv_status(st);
        }
        m->rw = rw;
        m->ro = false;
    }
    if (rw && m->ro != ro) {
        ptxemu_status st = ptxemu_va_protect(drv.dev, m->addr, ro);
        if (st != PTXEMU_SUCCESS) {
            return drv_status(st);
        }
        m->ro = ro;
    }
    return CUDA_SUCCESS;
}

CUresult cuMemUnmap(CUdeviceptr ptr, size_t size)
{
    CUresult r = drv_ready(NULL);
    if (!r) {
        pthread_mutex_lock(&vmm_lock);
        Map *last = NULL, *first = maps_tiling(ptr, size, &last);
        if (!first) {
            r = CUDA_ERROR_INVALID_VALUE;
        } else {
            Map **pp = &maps;
            while (*pp != first) {
                pp = &(*pp)->next;
            }
            Map *stop = last->next;
            for (Map *m = first, *nx; m != stop; m = nx) {
                nx = m->next;
                (void)set_rw(m, false, false);
                m->p->maps--;
                phys_put(m->p);
                free(m);
            }
            *pp = stop;
        }
        pthread_mutex_unlock(&vmm_lock);
    }
    return drv_trace(r, "cuMemUnmap", "0x%llx, %zu", ptr, size);
}

static CUresult set_access(CUdeviceptr ptr, size_t size,
                           const CUmemAccessDesc *desc, size_t count)
{
    CUresult r = drv_ready(NULL);
    if (r) {
        return r;
    }
    if (!desc || !count) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    bool rw = false, ro = false;
    for (size_t i = 0; i < count; i++) {
        if (desc[i].location.type != CU_MEM_LOCATION_TYPE_DEVICE) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        if (desc[i].location.id != 0) {
            return CUDA_ERROR_INVALID_DEVICE;
        }
        switch (desc[i].flags) {
        case CU_MEM_ACCESS_FLAGS_PROT_NONE: rw = ro = false; break;
        case CU_MEM_ACCESS_FLAGS_PROT_READWRITE: rw = true; ro = false; break;
        case CU_MEM_ACCESS_FLAGS_PROT_READ: rw = ro = true; break;
        default: return CUDA_ERROR_INVALID_VALUE;
        }
    }
    pthread_mutex_lock(&vmm_lock);
    Map *last = NULL, *first = maps_tiling(ptr, size, &last);
    if (!first) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    for (Map *m = first; !r && m != last->next; m = m->next) {
        r = set_rw(m, rw, ro);
    }
    pthread_mutex_unlock(&vmm_lock);
    return r;
}

CUresult cuMemSetAccess(CUdeviceptr ptr, size_t size,
                        const CUmemAccessDesc *desc, size_t count)
{
    return drv_trace(set_access(ptr, size, desc, count), "cuMemSetAccess",
                     "0x%llx, %zu, %p, %zu", ptr, size, (const void *)desc,
                     count);
}

CUresult cuMemGetAccess(unsigned long long *flags,
                        const CUmemLocation *location, CUdeviceptr ptr)
{
    CUresult r = drv_ready(NULL);
    if (!r && (!flags || !location ||
               location->type != CU_MEM_LOCATION_TYPE_DEVICE)) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r && location->id != 0) {
        r = CUDA_ERROR_INVALID_DEVICE;
    }
    if (!r) {
        pthread_mutex_lock(&vmm_lock);
        Map *m = map_at(ptr);
        if (m) {
            *flags = !m->rw ? CU_MEM_ACCESS_FLAGS_PROT_NONE
                     : m->ro ? CU_MEM_ACCESS_FLAGS_PROT_READ
                             : CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
        } else {
            r = CUDA_ERROR_INVALID_VALUE;
        }
        pthread_mutex_unlock(&vmm_lock);
    }
    return drv_trace(r, "cuMemGetAccess", "%p, %p, 0x%llx", (void *)flags,
                     (const void *)location, ptr);
}

CUresult cuMemRetainAllocationHandle(CUmemGenericAllocationHandle *handle,
                                     void *addr)
{
    CUresult r = drv_ready(NULL);
    if (!r && !handle) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        pthread_mutex_lock(&vmm_lock);
        Map *m = map_at((CUdeviceptr)(uintptr_t)addr);
        if (m) {
            m->p->handles++;
            *handle = (CUmemGenericAllocationHandle)(uintptr_t)m->p;
        } else {
            r = CUDA_ERROR_INVALID_VALUE;
        }
        pthread_mutex_unlock(&vmm_lock);
    }
    return drv_trace(r, "cuMemRetainAllocationHandle", "%p, %p",
                     (void *)handle, addr);
}

CUresult cuMemGetAllocationPropertiesFromHandle(
    CUmemAllocationProp *prop, CUmemGenericAllocationHandle handle)
{
    CUresult r = drv_ready(NULL);
    if (!r && !prop) {
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (!r) {
        pthread_mutex_lock(&vmm_lock);
        Phys *p = phys_find(handle);
        if (p) {
            *prop = p->prop;
        } else {
            r = CUDA_ERROR_INVALID_VALUE;
        }
        pthread_mutex_unlock(&vmm_lock);
    }
    return drv_trace(r, "cuMemGetAllocationPropertiesFromHandle",
                     "%p, 0x%llx", (void *)prop, handle);
}

/* POSIX file descriptors only (CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
 * requested at cuMemCreate): the handle written is a new descriptor of
 * the allocation's memfd, the caller's to close (CUDA Driver API
 * reference, cuMemExportToShareableHandle). */
static CUresult export_fd(void *out, CUmemGenericAllocationHandle handle,
                          int type, unsigned long long flags)
{
    CUresult r = drv_ready(NULL);
    if (r) {
        return r;
    }
    if (!out || flags) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&vmm_lock);
    Phys *p = phys_find(handle);
    if (!p) {
        r = CUDA_ERROR_INVALID_VALUE;
    } else if (type != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) {
        r = CUDA_ERROR_NOT_SUPPORTED;
    } else if (p->fd < 0) {
        r = CUDA_ERROR_INVALID_VALUE;   /* not requested at creation */
    } else {
        int d = fcntl(p->fd, F_DUPFD_CLOEXEC, 0);
        if (d < 0) {
            r = CUDA_ERROR_OUT_OF_MEMORY;
        } else {
            *(int *)out = d;
        }
    }
    pthread_mutex_unlock(&vmm_lock);
    return r;
}

CUresult cuMemExportToShareableHandle(void *shareableHandle,
                                      CUmemGenericAllocationHandle handle,
                                      int handleType,
                                      unsigned long long flags)
{
    return drv_trace(export_fd(shareableHandle, handle, handleType, flags),
                     "cuMemExportToShareableHandle", "%p, 0x%llx, %d, %llu",
                     shareableHandle, handle, handleType, flags);
}

/* The descriptor's memory becomes a physical allocation of this process
 * (it keeps a descriptor of its own; the caller may close the one it
 * passed).  Only memfds made by cuMemCreate here are accepted: sealed
 * against resizing, a granularity multiple. */
static CUresult import_fd(CUmemGenericAllocationHandle *handle, void *os,
                          int type)
{
    CUresult r = drv_ready(NULL);
    if (r) {
        return r;
    }
    if (!handle || type != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) {
        return !handle ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_NOT_SUPPORTED;
    }
    int src = (int)(intptr_t)os;
    struct stat st;
    int seals = fcntl(src, F_GET_SEALS);
    if (src < 0 || fstat(src, &st) != 0 || seals < 0 ||
        !(seals & F_SEAL_SHRINK) || st.st_size <= 0 ||
        (uint64_t)st.st_size % VMM_GRAN) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    size_t size = (size_t)st.st_size;
    int fd = fcntl(src, F_DUPFD_CLOEXEC, 0);
    if (fd < 0) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    uint8_t *host = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
                         0);
    if (host == MAP_FAILED) {
        close(fd);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof(prop));
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    pthread_mutex_lock(&vmm_lock);
    Phys *p = phys_add(host, size, fd, &prop);
    pthread_mutex_unlock(&vmm_lock);
    if (!p) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *handle = (CUmemGenericAllocationHandle)(uintptr_t)p;
    return CUDA_SUCCESS;
}

CUresult cuMemImportFromShareableHandle(CUmemGenericAllocationHandle *handle,
                                        void *osHandle, int shHandleType)
{
    return drv_trace(import_fd(handle, osHandle, shHandleType),
                     "cuMemImportFromShareableHandle", "%p, %p, %d",
                     (void *)handle, osHandle, shHandleType);
}
