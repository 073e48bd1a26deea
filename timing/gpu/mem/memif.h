/*
 * timing/gpu/mem/memif.h: the contract every component of the `hier`
 * memory system keeps (caches, crossbar, DRAM channel, partition), and
 * the two things they share: the message (MemMsg) and the bounded timed
 * queue (MemQ).
 *
 * Messages.  A MemMsg names one 128-byte GPU line (`addr`, aligned to
 * GPU_LINE) and the 32-byte sectors of it that it touches (`sectors`,
 * bits 0..3), never data.  It carries who sent it (sm, unit), a tag
 * that only its sender reads, and `mshr`, the MSHR of the cache that
 * made it (-1: a message a cache passes on unchanged).  A reply is the
 * request itself, handed back up.
 *
 * Components are passive.  Each keeps its own time in cycles of its
 * clock domain and has:
 *  - accept(x, msg, now): take a request at cycle now, or refuse it
 *    (false: a full queue, no MSHR, a busy bank); the sender keeps it
 *    and offers it again on a later cycle.  Nothing is unbounded: every
 *    queue has a capacity from the parameters, and a component accepts
 *    only what it has room to finish (an MSHR reserves the room of the
 *    replies it will give).
 *  - outputs as bounded queues that the owner (hier.c) drains: peek the
 *    head if it is due by now, pop it once the next component took it.
 *    A component never calls another: the wiring is all in hier.c.
 *  - tick(x, now) where it has work of its own (arbitration, DRAM
 *    scheduling), and next(x): the earliest cycle at which it has
 *    something to do (an output due, a command to issue), MEM_NEVER when
 *    idle.  Idle components are not ticked: the owner jumps to the
 *    earliest next() of all (so a cycle with nothing in flight costs
 *    nothing).
 * Replies due in the same cycle leave in queue order (insertion order
 * for equal due cycles): deterministic on every host.
 */
#ifndef PTXEMU_TIMING_GPU_MEM_MEMIF_H
#define PTXEMU_TIMING_GPU_MEM_MEMIF_H

#include <stdbool.h>
#include <stdint.h>

#include "timing/gpu/gpu_mem.h"

#define MEM_NEVER UINT64_MAX

/* Which per-SM structure sent a message (replies are routed back by it). */
typedef enum MemUnit {
    MEM_UNIT_L1D = 0,   /* global and local data */
    MEM_UNIT_L1C,       /* constant (and kernel parameter) reads */
    MEM_UNIT_L1T,       /* texture */
    MEM_UNIT_L1I,       /* instruction fetch */
    MEM_UNIT_DIRECT,    /* no L1 in the way (GT200's global memory) */
    MEM_UNIT_WALK,      /* a page-table read of the SM's TLB walker */
    MEM_UNIT_COUNT
} MemUnit;

/* MemMsg.flags */
enum {
    MEM_F_NOREPLY = 1u << 0,    /* a write-back: nobody waits for it */
    MEM_F_BYPASS = 1u << 1,     /* went around the L2 slice (l2.bypass) */
    /* cache operators (GPU_HINT_*): for the cache the message enters, */
    MEM_F_EVICT_FIRST = 1u << 2,
    MEM_F_NO_ALLOC = 1u << 3,
    /* and for the one below it (mem_hint_down moves them up) */
    MEM_F_NEXT_EVICT_FIRST = 1u << 4,
    MEM_F_NEXT_NO_ALLOC = 1u << 5,
    MEM_F_TPC = 1u << 6,        /* a miss of a TPC's shared cache: its
                                   reply fills that cache */
};
#define MEM_F_HINTS (MEM_F_EVICT_FIRST | MEM_F_NO_ALLOC)
#define MEM_F_NEXT_HINTS (MEM_F_NEXT_EVICT_FIRST | MEM_F_NEXT_NO_ALLOC)

/* The flags of a message going one level down: the next level's hints
 * become its own. */
static inline uint8_t mem_hint_down(uint8_t f)
{
    return (uint8_t)((f & ~(MEM_F_HINTS | MEM_F_NEXT_HINTS)) |
                     ((f & MEM_F_NEXT_HINTS) >> 2));
}

typedef struct MemMsg {
    uint64_t addr;      /* the 128-byte line, aligned */
    uint8_t sectors;    /* bits 0..3: the 32-byte sectors touched */
    uint8_t kind;       /* GpuMemKind */
    uint8_t unit;       /* MemUnit */
    uint8_t flags;      /* MEM_F_* */
    uint16_t sm;        /* the SM it came from */
    uint16_t part;      /* its memory partition (set by the sender) */
    int32_t mshr;       /* the MSHR of the cache that made it, or -1 */
    uint32_t tag;       /* the SM-side sender's handle */
} MemMsg;

/* The bytes a message puts on a wire: a header, plus the data of the
 * sectors for a write going down or a read coming back. */
static inline uint32_t mem_sector_count(uint32_t sectors)
{
    return (uint32_t)__builtin_popcount(sectors);
}

/* ---- MemQ: a bounded queue ordered by due cycle (memq.c) ---- */
typedef struct MemQItem {
    MemMsg m;
    uint64_t due;       /* the cycle it may leave */
} MemQItem;

typedef struct MemQ {
    MemQItem *it;       /* ring of cap items */
    uint32_t cap, head, n;
} MemQ;

/* 0, or -1 when out of memory. */
int memq_init(MemQ *q, uint32_t cap);
void memq_fini(MemQ *q);
static inline bool memq_full(const MemQ *q) { return q->n >= q->cap; }
static inline uint32_t memq_room(const MemQ *q) { return q->cap - q->n; }
/* Insert in due order, after every item due at the same cycle or
 * earlier.  The caller checked memq_full (a full push is our bug). */
void memq_push(MemQ *q, const MemMsg *m, uint64_t due);
/* The head if it is due by now, else NULL. */
static inline const MemMsg *memq_peek(const MemQ *q, uint64_t now)
{
    if (!q->n || q->it[q->head].due > now) {
        return 0;
    }
    return &q->it[q->head].m;
}
void memq_pop(MemQ *q);
/* The head's due cycle, MEM_NEVER when empty. */
static inline uint64_t memq_next(const MemQ *q)
{
    return q->n ? q->it[q->head].due : MEM_NEVER;
}

/* Count v in field f of the statistics *st and, unless sum is NULL, of
 * *sum (a component's own counts and their sum over every component of
 * its kind, such as all L2 slices). */
#define MEM_COUNT(st, sum, f, v)                                           \
    do {                                                                   \
        (st)->f += (v);                                                    \
        if (sum) {                                                         \
            (sum)->f += (v);                                               \
        }                                                                  \
    } while (0)

static inline uint64_t mem_min(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

#endif
