/*
 * timing/gpu/gpu_mem.h: the memory system as the `gpu` model's SM
 * pipeline sees it.  The contract between timing/gpu/ (the SM: fetch,
 * load/store unit) and timing/gpu/mem/ (caches, TLBs, interconnect, L2
 * slices, DRAM).  Written only against <ptxemu/ptxemu_timing.h>.
 *
 * A memory system is chosen by name (`mem.model = ideal|hier`, table
 * gpu_mem_models[] in timing/gpu/mem/models.c) and is one instance per
 * model instance, for every SM of the device.
 *
 * Requests carry address, size, kind, source and an opaque cookie, never
 * data (the functional emulator has already done the access).  The SM
 * side sends one request per transaction its coalescer made: a request
 * never crosses a 128-byte aligned line, `sectors` says which 32-byte
 * sectors of that line it touches (bit k: bytes [32k, 32k+32)).  Which
 * per-SM structure a request enters is decided by its space: GLOBAL and
 * LOCAL go to the L1 data cache (local addresses are already made
 * global-like and distinct per thread by the sender), CONST to the
 * constant cache, TEX to the texture cache, kind FETCH to the
 * instruction cache.  Shared memory never reaches the memory system (the
 * SM's load/store unit times it).  A global or local request carries
 * the hints of its instruction's cache operator (`hint`: .cs streams,
 * .cg and .cv do not allocate, gpu_cache_hint); a memory system may
 * ignore them.
 *
 * Back-pressure everywhere: send() may refuse (false) when the first
 * structure the request meets is full (no MSHR, a full miss queue); the
 * sender keeps the request and offers it again on a later cycle.  No
 * queue inside is unbounded.
 *
 * Every accepted request is answered exactly once through the `done`
 * callback given at create, with the cookie it carried, from inside
 * advance(), at the core cycle the data (or, for a write or an atomic,
 * the acknowledgement) is back at the SM.  Replies due in the same cycle
 * come in a deterministic order (the order of the components and of
 * their queues, never of host addresses).  A reply is never delivered
 * from inside send().
 *
 * Time.  All arguments are core cycles.  advance(now) runs every clock
 * domain (core-side caches, interconnect, L2, DRAM, each at its own
 * frequency) up to and including core cycle `now`, in a fixed order;
 * calls have non-decreasing `now`.  next() says the earliest core cycle
 * after the last advance at which something will happen inside (a reply
 * due, a queue to drain), GPU_NEVER when the system is idle: the model
 * may jump straight there.  Idle components do not tick.
 *
 * Determinism: same requests at the same cycles, same replies at the
 * same cycles, on any host.
 *
 * Split by SM (optional: split, advance_sm, next_sm, stats_sync).  A
 * memory system in which nothing of one SM's requests meets another
 * SM's (no structure is shared: whether send() takes a request of SM s
 * and when its reply is due follow from s's requests alone) may say so
 * (split() true).  The model may then drive each SM on its own instead
 * of calling advance() and next(): advance_sm(m, s, now) delivers SM s's
 * replies due by core cycle `now` (calls for one SM have non-decreasing
 * `now`), next_sm(m, s) says when its next one is due, and send(),
 * advance_sm() and next_sm() for SM s may run on any host thread, one
 * thread for an SM at a time, side by side with other SMs' calls.  Its
 * statistics then count per SM and reach the registered counters in
 * stats_sync(), which the model calls before the host reads them, on
 * its calling thread with no SM's call running.  A split system is
 * never sticky.
 */
#ifndef PTXEMU_TIMING_GPU_MEM_H
#define PTXEMU_TIMING_GPU_MEM_H

#include <stdbool.h>
#include <stdint.h>

#include "timing/ptxemu_timing.h"

#define GPU_NEVER UINT64_MAX
#define GPU_LINE 128u   /* bytes: the largest transaction */
#define GPU_SECTOR 32u  /* bytes */

typedef enum GpuMemKind {
    GPU_MEM_READ = 0,
    GPU_MEM_WRITE,
    GPU_MEM_ATOMIC,     /* read-modify-write, performed near L2 */
    GPU_MEM_FETCH,      /* instruction fetch */
    GPU_MEM_KIND_COUNT
} GpuMemKind;

/* GpuMemReq.hint: what the instruction's cache operator asks of the
 * L1 and the L2 (gpu_cache_hint, timing/gpu/mem/cacheop.c). */
enum {
    GPU_HINT_L1_EVICT_FIRST = 1u << 0,  /* allocate as the next victim */
    GPU_HINT_L1_NO_ALLOC = 1u << 1,     /* go around, allocate nothing */
    GPU_HINT_L2_EVICT_FIRST = 1u << 2,
    GPU_HINT_L2_NO_ALLOC = 1u << 3,
};

/* The hint bits of a PTX memory instruction (its text: "ld.global.cs.f32
 * ..."); 0 for the default operators or no text. */
uint8_t gpu_cache_hint(const char *text);

typedef struct GpuMemReq {
    uint64_t addr;      /* first byte */
    uint32_t size;      /* bytes, within one 128-byte line */
    uint32_t sectors;   /* sectors of the line touched, bits 0..3 */
    uint8_t kind;       /* GpuMemKind */
    uint8_t space;      /* ptxemu_tm_space (FETCH: PTXEMU_TM_SPACE_NONE) */
    uint8_t hint;       /* GPU_HINT_* (global and local accesses) */
    uint8_t pad;
    uint32_t sm;        /* the sending SM */
    uint64_t cookie;    /* the sender's, given back with the reply */
} GpuMemReq;

/* A reply: the request `cookie` sent by `sm` is back at core cycle
 * `cycle`.  Cookie GPU_MEM_RETRY (never a request's) instead tells an
 * SM whose refused request the memory system called sticky that
 * offering it again may now go otherwise. */
typedef void (*GpuMemDone)(void *ctx, uint32_t sm, uint64_t cookie,
                           uint64_t cycle);
#define GPU_MEM_RETRY 0u

/* What a memory system is told of a kernel at its beginning. */
typedef struct GpuMemKernel {
    /* the bytes of shared memory its CTAs hold on an SM that has as
     * many as fit (one CTA's need times the CTAs that fit), and one
     * CTA's, for a memory system whose L1 shares its array with shared
     * memory */
    uint64_t shared, cta_shared;
    int32_t carveout;           /* preferred carve-out, percent; -1: none */
    /* the L2 set aside for persisting accesses, the resets so far, and
     * the access-policy window (ptxemu_tm_kernel's fields of ABI 2) */
    uint64_t persist_bytes;
    uint32_t resets;
    uint64_t apw_base, apw_bytes;
    float apw_hit_ratio;
    uint8_t apw_hit_prop, apw_miss_prop;
} GpuMemKernel;

typedef struct GpuMemOps {
    const char *name;                   /* "ideal", "hier" */
    const char *help;                   /* one line */
    /* Make the memory system of a device of `nsms` SMs whose core clock
     * runs at core_mhz.  It declares and reads its own parameters
     * through api (names under "mem.", "l1.", "l2.", "icnt.", "dram."
     * ...) and registers its statistics with api->stat.  NULL after
     * api->error() to refuse. */
    void *(*create)(const ptxemu_tm_host_api *api, ptxemu_tm_host *h,
                    uint32_t nsms, double core_mhz, GpuMemDone done,
                    void *ctx);
    void (*destroy)(void *m);
    /* A kernel begins at core cycle now (L1s are not coherent across
     * kernels: they start clean, as CUDA invalidates them at launch).
     * Returns the shared memory an SM may give the kernel's CTAs (the
     * carve-out chosen, which limits how many are resident), GPU_NEVER
     * when the memory system does not limit it. */
    uint64_t (*kernel_begin)(void *m, uint64_t now, const GpuMemKernel *k);
    /* Offer a request at core cycle now: true taken, false refused. */
    bool (*send)(void *m, const GpuMemReq *r, uint64_t now);
    /* Run up to and including core cycle now; deliver replies due. */
    void (*advance)(void *m, uint64_t now);
    /* Earliest core cycle something will happen (GPU_NEVER: idle). */
    uint64_t (*next)(const void *m);
    /* Optional (NULL: a sender offers a refused request every cycle).
     * Called right after send() refused SM sm's request: true when
     * offering that request again would be refused, and counted, the
     * same way each cycle until the memory system calls done(ctx, sm,
     * GPU_MEM_RETRY, ...), which it then does at the first change of
     * what decided (within an advance).  The sender then stops
     * offering it and reports the offers it did not make with
     * refused_again, which counts them as refusals would have been:
     * when it likes, up to and inside that done() call (then still
     * asleep), not after it. */
    bool (*sticky)(void *m, uint32_t sm);
    void (*refused_again)(void *m, uint32_t sm, uint64_t n);
    /* Optional (NULL: not split): the top's "Split by SM". */
    bool (*split)(const void *m);
    void (*advance_sm)(void *m, uint32_t sm, uint64_t now);
    uint64_t (*next_sm)(const void *m, uint32_t sm);
    void (*stats_sync)(void *m);
} GpuMemOps;

/* The memory systems, by name; NULL-terminated by name. */
extern const GpuMemOps *const gpu_mem_models[];
const GpuMemOps *gpu_mem_find(const char *name);

#endif
