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
#include <string.h>

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

/* The funnel for a handler's lane loop in which every lane of the mask
 * makes one access, all in the instruction's space (so at most a
 * warp's worth per instruction).  What the loop must do to note is
 * decided once per instruction, not per lane: EMU_ACCESS_LANES_HANDLER
 * makes the handler from a body that calls emu_access_lane() and runs
 * it in one of three modes, each a copy of the loop compiled for it:
 *  - NONE: nothing listens to this space (or at all): no noting, the
 *    fast path as it was;
 *  - DIRECT: a watched non-generic space other than shared::cluster,
 *    with room for a warp reserved: each lane stores its access at a
 *    cursor kept in a register, the list's count set once at the end;
 *  - EACH: generic or cluster addresses (classified per lane), or no
 *    room could be reserved: emu_access_note_in per lane. */
typedef struct EmuAccLanes {
    EmuAccess *cur;         /* DIRECT: where the next access goes */
    uint8_t mode;           /* EmuAccLanesMode */
} EmuAccLanes;

enum EmuAccLanesMode { EMU_ACCL_NONE = 0, EMU_ACCL_DIRECT, EMU_ACCL_EACH };

/* Room for k more accesses in L; false when out of memory. */
bool emu_acclist_reserve(EmuAccList *L, uint32_t k);

/* Whether an instruction of `space` notes anything (x->acc set). */
static inline bool emu_access_lanes_noted(const EmuCtx *x, PtxSpace space)
{
    return space == PTX_SPACE_GENERIC ||
           space == PTX_SPACE_SHARED_CLUSTER ||
           (x->acc->spaces >> space & 1u);
}

/* emu_access() for a lane of such a loop, in the mode of b. */
static inline __attribute__((always_inline)) uint8_t *
emu_access_lane(EmuCtx *x, EmuAccLanes *b, unsigned lane, PtxSpace space,
                uint64_t addr, uint32_t size, EmuAccKind kind)
{
    uint8_t *p = emu_mem_guest_fast(x, lane, space, addr, size,
                                    emu_acc_writes(kind));
    if (b->mode == EMU_ACCL_DIRECT && p) {
        EmuAccess a = { addr, size, (uint8_t)lane, (uint8_t)space,
                        (uint8_t)kind, 0 };
        memcpy(b->cur++, &a, sizeof(a));
    } else if (b->mode == EMU_ACCL_EACH && p) {
        emu_access_note_in(x, lane, space, addr, size, kind);
    }
    return p;
}

/* Defines handler `name` from `body`, an always_inline function
 * (EmuCtx *, const EmuInsn *, uint32_t mask, EmuAccLanes *) whose lane
 * loop calls emu_access_lane() in the instruction's space i->space. */
#define EMU_ACCESS_LANES_HANDLER(name, body)                              \
    static __attribute__((noinline)) void                                 \
    name##_noted(EmuCtx *x, const EmuInsn *i, uint32_t mask)              \
    {                                                                     \
        EmuAccList *L_ = x->acc;                                          \
        PtxSpace sp_ = (PtxSpace)i->space;                                \
        if (sp_ != PTX_SPACE_GENERIC &&                                   \
            sp_ != PTX_SPACE_SHARED_CLUSTER &&                            \
            (L_->cap - L_->n >= EMU_WARP_SIZE ||                          \
             emu_acclist_reserve(L_, EMU_WARP_SIZE))) {                   \
            EmuAccLanes b_ = { L_->v + L_->n, EMU_ACCL_DIRECT };          \
            body(x, i, mask, &b_);                                        \
            L_->n = (uint32_t)(b_.cur - L_->v);                           \
        } else {                                                          \
            EmuAccLanes b_ = { NULL, EMU_ACCL_EACH };                     \
            body(x, i, mask, &b_);                                        \
        }                                                                 \
    }                                                                     \
    static void name(EmuCtx *x, const EmuInsn *i, uint32_t mask)          \
    {                                                                     \
        if (__builtin_expect(x->acc != NULL, 0) &&                        \
            emu_access_lanes_noted(x, (PtxSpace)i->space)) {              \
            name##_noted(x, i, mask);                                     \
            return;                                                       \
        }                                                                 \
        EmuAccLanes b_ = { NULL, EMU_ACCL_NONE };                         \
        body(x, i, mask, &b_);                                            \
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
