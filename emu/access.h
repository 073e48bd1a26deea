/*
 * emu/access.h: the memory-access funnel.
 *
 * Contract.  Every guest memory access that an instruction makes, of
 * every family (ld/st/atom/red, cp.async, bulk copies and TMA, mbarrier
 * words, wgmma/ldmatrix/stmatrix/wmma operands, texel and surface
 * accesses, device printf and the device runtime), goes through one of
 * the entry points below.  Each one
 *   1. classifies a generic address once (emu_space_of: the param,
 *      shared::cta, shared::cluster and local windows, else global),
 *   2. checks the access (bounds, alignment, writability; a bad access
 *      faults through emu_fault() and returns NULL / false),
 *   3. notes it in the access list of the current step (EmuCtx.acc):
 *      the step record's when one is being filled (emu/exec.h), or the
 *      list the attached clients read (emu/client.h) when one of them
 *      watches the resolved space.
 * When nothing listens (EmuCtx.acc == NULL, the fast loop without
 * clients) emu_access() is today's emu_mem_guest_fast(): one test more
 * than a bare access.
 *
 * Accesses are noted per lane, in the order they happen; a list grows
 * as needed (never truncated).
 */
#ifndef PTXEMU_EMU_ACCESS_H
#define PTXEMU_EMU_ACCESS_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/cluster.h"
#include "emu/exec.h"
#include "emu/memory.h"

/* What an access does to memory. */
typedef enum EmuAccKind {
    EMU_ACC_READ = 0,
    EMU_ACC_WRITE,
    EMU_ACC_ATOMIC,         /* read-modify-write (atom, red, mbarrier) */
    EMU_ACC_ASYNC_READ,     /* by an asynchronous operation the
                               instruction starts (cp.async, bulk, TMA) */
    EMU_ACC_ASYNC_WRITE,
    EMU_ACC_ASYNC_ATOMIC,   /* cp.reduce.async.bulk, red.async, an
                               asynchronous complete_tx on an mbarrier */
    EMU_ACC_TEXEL_READ,     /* a texture fetch or surface load */
    EMU_ACC_TEXEL_WRITE,    /* a surface store or reduction */
    EMU_ACC_KIND_COUNT
} EmuAccKind;

/* One access of one lane.  space: the space it resolved to (never
 * PTX_SPACE_GENERIC; the executing CTA's own shared memory is
 * PTX_SPACE_SHARED even when named through the cluster window).  addr:
 * the address in that space, so that one byte has one name whichever
 * way it was reached: global and const memory the address itself,
 * shared memory the offset in the CTA's shared memory, another CTA's
 * shared memory its shared::cluster address (emu/cluster.h), local
 * memory the offset in the thread's local window, param memory the
 * offset in the launch's parameter buffer. */
typedef struct EmuAccess {
    uint64_t addr;
    uint32_t size;                /* bytes */
    uint8_t lane;
    uint8_t space;                /* PtxSpace */
    uint8_t kind;                 /* EmuAccKind */
    uint8_t pad;
} EmuAccess;

/* A growable list of accesses (owned by its holder: a step record, or
 * a launch's client scratch list).  spaces: the resolved spaces noted
 * (bit 1u << PtxSpace); accesses to other spaces are checked, not
 * noted. */
typedef struct EmuAccList {
    EmuAccess *v;
    uint32_t n, cap;
    uint32_t spaces;
} EmuAccList;

#define EMU_ACC_ALL_SPACES ((1u << PTX_SPACE_COUNT) - 1)

static inline bool emu_acc_writes(EmuAccKind k)
{
    return k != EMU_ACC_READ && k != EMU_ACC_ASYNC_READ &&
           k != EMU_ACC_TEXEL_READ;
}

const char *emu_acc_kind_name(EmuAccKind k);   /* "read", "async-write" */

/* The state space that an access to (space, addr) lands in, and in
 * *off its offset there (the address itself for global and const
 * memory): the one classifier of generic addresses (emu/memory.h
 * windows).  Non-generic spaces are returned unchanged. */
static inline PtxSpace emu_space_of(PtxSpace space, uint64_t addr,
                                    uint64_t *off)
{
    *off = addr;
    if (space != PTX_SPACE_GENERIC) {
        return space;
    }
    if (addr - EMU_SHARED_WINDOW < EMU_SHARED_LIMIT) {
        *off = addr - EMU_SHARED_WINDOW;
        return PTX_SPACE_SHARED;
    }
    if (addr - EMU_SHARED_WINDOW < EMU_SHARED_CLUSTER_LIMIT) {
        *off = addr - EMU_SHARED_WINDOW;      /* another CTA's (mapa) */
        return PTX_SPACE_SHARED_CLUSTER;
    }
    if (addr - EMU_LOCAL_WINDOW < EMU_LOCAL_LIMIT) {
        *off = addr - EMU_LOCAL_WINDOW;
        return PTX_SPACE_LOCAL;
    }
    if (addr - EMU_PARAM_WINDOW < EMU_PARAM_LIMIT) {
        *off = addr - EMU_PARAM_WINDOW;       /* __grid_constant__ */
        return PTX_SPACE_PARAM;
    }
    return PTX_SPACE_GLOBAL;
}

/* emu_mem_guest() with the launch's hit cache in front: an aligned
 * global, generic or (read) const access inside the allocation the
 * previous global access resolved to returns at once, and so does an
 * aligned in-bounds .shared access; everything else, faults included,
 * takes the full path, which refills the cache.  It notes nothing: use
 * emu_access(). */
static inline __attribute__((always_inline)) uint8_t *
emu_mem_guest_fast(EmuCtx *x, unsigned lane, PtxSpace space,
                   uint64_t addr, uint32_t size, bool write)
{
    const EmuMemHit *h = &x->launch->mhit;
    uint64_t off = addr - h->addr;
    if (off < h->size && size <= h->size - off &&
        (addr & (size - 1)) == 0 && *h->genp == h->gen &&
        (space == PTX_SPACE_GLOBAL || space == PTX_SPACE_GENERIC ||
         (space == PTX_SPACE_CONST && !write)) &&
        !(write && h->ro)) {
        return h->host + off;
    }
    if (space == PTX_SPACE_SHARED && (addr & (size - 1)) == 0) {
        uint32_t n = x->cta->shared_bytes;
        if (addr < n && size <= n - addr) {
            return x->cta->shared + addr;
        }
    }
    return emu_mem_guest(x, lane, space, addr, size, write);
}

/* Out of line: what emu_access_note() does not do inline (a list to
 * grow, a shared::cluster address to normalise). */
void emu_access_note_slow(EmuCtx *x, unsigned lane, PtxSpace space,
                          uint64_t addr, uint32_t size, EmuAccKind kind);

/* Note an access in x->acc (which must be set). */
static inline __attribute__((always_inline)) void
emu_access_note_in(EmuCtx *x, unsigned lane, PtxSpace space,
                   uint64_t addr, uint32_t size, EmuAccKind kind)
{
    EmuAccList *L = x->acc;
    uint64_t off;
    PtxSpace sp = emu_space_of(space, addr, &off);
    if (__builtin_expect(sp == PTX_SPACE_SHARED_CLUSTER ||
                         L->n == L->cap, 0)) {
        emu_access_note_slow(x, lane, space, addr, size, kind);
        return;
    }
    if (!(L->spaces >> sp & 1u)) {
        return;
    }
    L->v[L->n++] = (EmuAccess){ off, size, (uint8_t)lane, (uint8_t)sp,
                                (uint8_t)kind, 0 };
}

/* The funnel: host bytes of a naturally aligned access of `size` bytes
 * by `lane` at (space, addr), checked and noted; NULL after a fault. */
static inline __attribute__((always_inline)) uint8_t *
emu_access(EmuCtx *x, unsigned lane, PtxSpace space, uint64_t addr,
           uint32_t size, EmuAccKind kind)
{
    uint8_t *p = emu_mem_guest_fast(x, lane, space, addr, size,
                                    emu_acc_writes(kind));
    if (__builtin_expect(x->acc != NULL, 0) && p) {
        emu_access_note_in(x, lane, space, addr, size, kind);
    }
    return p;
}

/* Note an access whose bytes were checked already: as part of a larger
 * range checked at once (a texture's storage per fetch, a bulk copy's
 * source and destination), or by an earlier pass over the same
 * addresses (a TMA box's dry pass). */
void emu_access_note(EmuCtx *x, unsigned lane, PtxSpace space,
                     uint64_t addr, uint32_t size, EmuAccKind kind);

/* Append to a list, growing it; false when the host is out of memory. */
bool emu_acclist_push(EmuAccList *L, const EmuAccess *a);

#endif
