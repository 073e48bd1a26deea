/*
 * emu/memory.h: device memory and address spaces.
 *
 * Contract.  One 64-bit device address space, as on hardware with unified
 * addressing: every global allocation (cudaMalloc, module .global and
 * .const variables, the device heap) has a unique address range and is
 * found through a sorted allocation table.  Shared and local memory have
 * their own windows of generic addresses (EMU_SHARED_WINDOW,
 * EMU_LOCAL_WINDOW, and EMU_PARAM_WINDOW for kernel parameters), so
 * cvta and generic loads behave as on hardware:
 *   generic = window base + space offset   (cvta.shared / cvta.local)
 *   space offset = generic - window base   (cvta.to.shared / .to.local)
 *   global and const generic addresses are the addresses themselves.
 * Shared memory is per CTA (static bytes, then dynamic), local memory per
 * thread (each thread's frame stack).  Param memory of a kernel is a
 * read-only buffer of the launch.
 *
 * Every access is checked: in bounds of one allocation (or window
 * region), naturally aligned for its size, and not a write to read-only
 * memory.  Checks report through emu_fault() with the nearest allocation
 * named.  Accesses touch only host buffers owned here: a faulting guest
 * can never corrupt the host.
 */
#ifndef PTXEMU_EMU_MEMORY_H
#define PTXEMU_EMU_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emu/emu.h"

#define EMU_GLOBAL_BASE    0x0000700000000000ull  /* the device range */
/* The emulated GPU maps device memory in pages of this size (what
 * cuMemGetAllocationGranularity reports on NVIDIA GPUs, 2 MiB): an access
 * outside every allocation but inside a page that a live allocation
 * overlaps does not fault on a GPU.  The first page of the device range
 * holds the context's own data (a GPU's driver keeps its buffers before a
 * program's allocations): it is always mapped, and allocations start
 * EMU_CTX_BYTES into it. */
#define EMU_MAP_GRANULARITY 0x200000ull
#define EMU_CTX_BYTES      0x10000ull
#define EMU_SHARED_WINDOW  0x0000000100000000ull  /* generic shared base */
#define EMU_SHARED_LIMIT   0x0000000001000000ull  /* 16 MiB window */
#define EMU_LOCAL_WINDOW   0x0000000200000000ull  /* generic local base */
#define EMU_LOCAL_LIMIT    0x0000000100000000ull  /* 4 GiB window */
/* Kernel parameters (cvta.param, __grid_constant__): generic = window
 * base + offset in the launch's parameter buffer; read-only. */
#define EMU_PARAM_WINDOW   0x0000000300000000ull
#define EMU_PARAM_LIMIT    0x0000000001000000ull  /* 16 MiB window */

typedef enum EmuAllocKind {
    EMU_ALLOC_DEVICE,     /* cudaMalloc */
    EMU_ALLOC_MANAGED,    /* cudaMallocManaged: host pointer == device */
    EMU_ALLOC_GLOBAL,     /* module .global variable */
    EMU_ALLOC_CONST,      /* module .const variable (device read-only) */
    EMU_ALLOC_HEAP,       /* device malloc */
    EMU_ALLOC_HOST,       /* registered host memory (not ours to free) */
    EMU_ALLOC_VMM         /* physical memory mapped into a reserved range
                             (cuMemMap; the caller owns the bytes) */
} EmuAllocKind;

typedef struct EmuAlloc {
    uint64_t addr;        /* device address */
    uint64_t size;
    uint8_t *host;        /* backing bytes */
    EmuAllocKind kind;
    const char *name;     /* variable name, or NULL */
    bool shared;          /* host is a MAP_SHARED memfd mapping
                             (emu_mem_share), memfd its descriptor */
    int memfd;
    bool readonly;        /* an EMU_ALLOC_VMM mapping the device may only
                             read (cuMemSetAccess PROT_READ): its writes
                             fault */
    uint64_t seq;         /* its place in the memory's allocations, in
                             the order they were made: what names a
                             managed or registered host allocation, whose
                             address the host's heap decides, the same
                             on every run (the timed host, host.c) */
    bool mapped;          /* host is an anonymous mapping of its own
                             (a large device allocation), not heap */
} EmuAlloc;

typedef struct EmuMemory EmuMemory;

EmuMemory *emu_mem_new(void);
void emu_mem_free(EmuMemory *m);

/* Allocate size bytes (zeroed), aligned to 256 bytes like cudaMalloc.
 * EMU_ALLOC_MANAGED memory lives at its host address (the device address
 * is the host pointer, as with unified memory); every other kind gets
 * an address from the device range starting at EMU_GLOBAL_BASE.
 * Returns 0 on failure. */
uint64_t emu_mem_alloc(EmuMemory *m, uint64_t size, EmuAllocKind kind,
                       const char *name);
/* emu_mem_alloc for a thread that does not exclude running kernels (a
 * host allocation while a kernel runs: cudaMalloc does not wait for
 * the device).  A kernel's lookups take no lock, so the table is not
 * changed in place: a changed copy replaces it, and the old one stays
 * readable until emu_mem_reclaim.  Returns 0 on failure, and also while
 * the replaced tables kept hold 64 MiB or while an observer is set (emu_mem_observe: clients are attached, whose
 * events must not run beside the kernel's), when the caller must wait
 * for the kernel and use emu_mem_alloc.  No name: DEVICE or MANAGED. */
uint64_t emu_mem_alloc_concurrent(EmuMemory *m, uint64_t size,
                                  EmuAllocKind kind);
/* Whether an observer is set (emu_mem_alloc_concurrent then fails). */
bool emu_mem_observed(EmuMemory *m);
/* From on until off, every table change the calling thread makes is
 * made as emu_mem_alloc_concurrent makes its own (a module loaded while
 * a kernel runs): emu_mem_alloc, emu_mem_map_host and emu_mem_map_at
 * insert into a copy and fail where it does, and emu_mem_release takes
 * out of a copy and keeps the host bytes for emu_mem_reclaim, for
 * allocations no kernel was given yet (it notifies no observer and
 * leaves the access caches); emu_mem_write, emu_mem_read and
 * emu_mem_set look allocations up under the table's lock (a kernel's
 * device malloc and free change the table in place), and host writes
 * notify no write observer (emu_mem_wrote).  Per thread. */
void emu_mem_beside(bool on);
/* Frees the tables emu_mem_alloc_concurrent replaced.  Only when no
 * kernel runs and no other thread looks allocations up without the
 * table's lock (the runtime: with its device lock held, no launch
 * running). */
void emu_mem_reclaim(EmuMemory *m);
/* Register host memory [host, host+size) at its own address
 * (EMU_ALLOC_HOST).  Fails with EMU_ERR_INVALID_VALUE when the range is
 * empty or overlaps an allocation.  Releasing it never frees it. */
EmuStatus emu_mem_map_host(EmuMemory *m, void *host, uint64_t size,
                           const char *name);
/* Virtual memory management (cuMemAddressReserve / cuMemMap).
 * emu_mem_reserve hands out [addr, addr+size) of the device range,
 * aligned to `align` (a power of two), that no later allocation gets; it
 * enters nothing in the table, so accesses there fault until part of it
 * is mapped.  Returns 0 when the range is exhausted.
 * emu_mem_map_at makes [addr, addr+size) resolve to host[0, size) as an
 * EMU_ALLOC_VMM entry (fails on overlap); the caller owns `host`, and
 * emu_mem_release of the entry never frees it.  Two mappings side by
 * side are two entries: a naturally aligned access never spans them
 * because mappings are EMU_MAP_GRANULARITY-aligned. */
uint64_t emu_mem_reserve(EmuMemory *m, uint64_t size, uint64_t align);
EmuStatus emu_mem_map_at(EmuMemory *m, uint64_t addr, uint8_t *host,
                         uint64_t size);
/* The mapping made by emu_mem_map_at at addr becomes read-only to the
 * device (or read-write again). */
EmuStatus emu_mem_protect(EmuMemory *m, uint64_t addr, bool readonly);
/* Cross-process sharing (CUDA IPC, runtime/cuda/drv_ipc.c): makes the
 * EMU_ALLOC_DEVICE allocation that starts at addr live in a memfd
 * (memfd_create(2), MAP_SHARED) that another process can map through
 * /proc/<pid>/fd/<fd>; the bytes are copied over once and the old
 * buffer freed, and the table's generation is bumped so that no access
 * cache keeps the old buffer (the caller holds whatever lock excludes
 * running kernels).  Later calls return the same descriptor.  *fd gets
 * the descriptor (owned here: emu_mem_release closes it), *bytes the
 * file's size (the allocation's padded host bytes).  Fails with
 * EMU_ERR_INVALID_VALUE for any other address or kind, and
 * EMU_ERR_OUT_OF_MEMORY when the memfd cannot be made. */
EmuStatus emu_mem_share(EmuMemory *m, uint64_t addr, int *fd,
                        uint64_t *bytes);
/* A memfd (memfd_create(2)) called name, of `bytes` zero bytes, sealed
 * (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL, fcntl(2) "File Sealing")
 * so that no process that opens it through /proc can change its size:
 * a mapping of it never meets SIGBUS.  Close-on-exec.  -1 on failure.
 * emu_memfd_is_sealed tells whether fd carries F_SEAL_SHRINK (what an
 * importer checks before mapping another process's memfd). */
int emu_memfd_sealed(const char *name, uint64_t bytes);
bool emu_memfd_is_sealed(int fd);
/* The host bytes emu_mem_alloc gives an allocation of size bytes (size
 * padded to 256): what an importer of a shared allocation maps. */
uint64_t emu_mem_host_span(uint64_t size);
const char *emu_alloc_kind_name(EmuAllocKind k);  /* "device allocation" */
EmuStatus emu_mem_release(EmuMemory *m, uint64_t addr);
/* Quarantine for `ptxemu sanitize` (check/memcheck.c).  Device-range
 * addresses are never handed out twice (a released range stays unused),
 * but a managed allocation lives at its host pointer, which the C
 * library gives to the next allocation of that size: a stale pointer
 * would then reach the new allocation and no checker could tell.  With
 * a quarantine, a released managed allocation's host bytes are freed
 * only once `count` later releases or `bytes` bytes of them have come
 * after it (first in, first out, as AddressSanitizer's quarantine of
 * freed heap memory), so that its address stays unused meanwhile and
 * an access through it faults as a use after free.  count or bytes 0:
 * none (the default); setting it frees what the previous one held.
 * False when out of memory (then none). */
bool emu_mem_set_quarantine(EmuMemory *m, uint32_t count, uint64_t bytes);
/* The released allocations the quarantine holds now, and their host
 * bytes in *bytes. */
uint32_t emu_mem_quarantine_held(const EmuMemory *m, uint64_t *bytes);

/* The allocation containing [addr, addr+size), or NULL. */
const EmuAlloc *emu_mem_find(const EmuMemory *m, uint64_t addr,
                             uint64_t size);
/* The allocation nearest to addr (for fault messages), or NULL. */
const EmuAlloc *emu_mem_nearest(const EmuMemory *m, uint64_t addr);
/* "nearest allocation: device allocation at 0x... (N bytes), K bytes
 * before it" (or "no allocations") into near[len]. */
void emu_mem_describe_near(const EmuMemory *m, uint64_t addr, char *near,
                           size_t len);

/* Host copies (the runtime's memcpy/memset); check bounds, no faults. */
/* Whether [addr, addr+size) lies in one allocation or in VMM mappings
 * side by side: the ranges emu_mem_write, _read and _set take. */
bool emu_mem_covers(const EmuMemory *m, uint64_t addr, uint64_t size);
EmuStatus emu_mem_write(EmuMemory *m, uint64_t addr, const void *src,
                        uint64_t size);
EmuStatus emu_mem_read(const EmuMemory *m, uint64_t addr, void *dst,
                       uint64_t size);
EmuStatus emu_mem_set(EmuMemory *m, uint64_t addr, uint8_t byte,
                      uint64_t size);

/* Called after every allocation (alloc = true: emu_mem_alloc,
 * emu_mem_map_host) and before every release, with the range and its
 * kind: the clients' allocation events (emu/client.h).  fn NULL: none. */
typedef void (*EmuMemObserver)(void *ctx, uint64_t addr, uint64_t size,
                               EmuAllocKind kind, bool alloc);
void emu_mem_observe(EmuMemory *m, EmuMemObserver fn, void *ctx);

/* Called after every host write of device memory: emu_mem_write,
 * emu_mem_set, and the writes through host pointers that the runtime
 * announces with emu_mem_wrote (a device-to-device copy): the clients'
 * EMU_EV_HOST_WRITE (emu/client.h).  fn NULL: none. */
typedef void (*EmuMemWriteObserver)(void *ctx, uint64_t addr,
                                    uint64_t size);
void emu_mem_observe_writes(EmuMemory *m, EmuMemWriteObserver fn,
                            void *ctx);
void emu_mem_wrote(EmuMemory *m, uint64_t addr, uint64_t size);

/* Bytes used / limit, for cudaMemGetInfo. */
uint64_t emu_mem_used(const EmuMemory *m);
/* The most bytes allocations may hold at once (default 64 GiB): an
 * allocation past it fails, as cudaMalloc past the GPU's memory does. */
void emu_mem_set_limit(EmuMemory *m, uint64_t bytes);

/* Whether addr lies in the range device addresses have been handed out
 * from (EMU_GLOBAL_BASE up to the next free one): an address there that
 * no allocation holds is a freed or wild device pointer, never host
 * memory (addresses are never reused, see emu/memory.c). */
bool emu_mem_in_device_range(const EmuMemory *m, uint64_t addr);
/* For other threads, also while a kernel runs: emu_mem_find(m, addr, 0)
 * copied into *out (false: none), and emu_mem_in_device_range into
 * *in_range when not NULL, under the table's own lock. */
bool emu_mem_query(EmuMemory *m, uint64_t addr, EmuAlloc *out,
                   bool *in_range);

/* Host bytes for a guest access [addr, addr+size) that is in no
 * allocation but that a GPU would not fault on: in the 256-byte padding
 * after an allocation (*owner = it), or in a mapped page of the device
 * range (EMU_MAP_GRANULARITY; *owner = NULL).  NULL when a GPU would
 * fault.  Slack bytes start zeroed and keep what is written to them
 * while their page stays mapped.  `cache` (or NULL) remembers the last
 * page's host bytes for its caller (one launch context: a page's bytes
 * live until emu_mem_release, which no kernel runs beside), so that a
 * hot access takes no lock. */
typedef struct EmuSlackCache {
    uint64_t page;
    uint8_t *host;                /* NULL: empty */
} EmuSlackCache;
uint8_t *emu_mem_slack_cached(EmuMemory *m, uint64_t addr, uint64_t size,
                              const EmuAlloc **owner, EmuSlackCache *cache);
uint8_t *emu_mem_slack(EmuMemory *m, uint64_t addr, uint64_t size,
                       const EmuAlloc **owner);

/* Guest accesses from instructions: resolve (space, address) to host
 * bytes for `size` bytes, checking bounds, natural alignment for size
 * and writability.  Generic addresses are classified by window
 * (emu_space_of, emu/access.h).  Instructions use the funnel in
 * emu/access.h, which calls these and notes the access.  Returns NULL after emu_fault()
 * on a bad access. */
uint8_t *emu_mem_guest(EmuCtx *x, unsigned lane, PtxSpace space,
                       uint64_t addr, uint32_t size, bool write);

/* The global allocation the last guest access of a launch resolved to
 * (EmuLaunch.mhit), so that runs of accesses to one buffer skip the
 * table search: see emu_mem_guest_fast() in emu/access.h.  It is valid
 * while *genp == gen; every removal from the table (host or device
 * free, module unload) and every change of an entry (emu_mem_protect,
 * emu_mem_share) bumps the counter, so a block freed by device free()
 * is never served from here.  Insertions change no cached entry and do
 * not bump it (one made while a kernel runs must not write what the
 * kernel's threads read without a lock). */
typedef struct EmuMemHit {
    uint64_t addr, size;          /* size 0: empty */
    uint8_t *host;
    const uint64_t *genp;         /* the table's generation counter */
    uint64_t gen;                 /* its value when filled */
    bool ro;                      /* a .const variable, or read-only */
} EmuMemHit;

#endif
