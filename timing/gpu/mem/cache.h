/*
 * timing/gpu/mem/cache.h: one generic sectored cache, used for every
 * cache of the `hier` memory system (L1 data, constant, texture and
 * instruction caches per SM; the L2 slice of each memory partition).
 * It keeps memif.h's contract; what follows are its own rules, which
 * tests/check_gpu_mem.c checks on hand-worked traces.
 *
 * Geometry: `sets` x `ways` lines of `line` bytes (a power of two, 32 to
 * 1024), each made of 32-byte sectors with their own valid, pending
 * (being filled) and dirty bits.  The set of a line is (addr / line) %
 * sets; its bank (addr / line) % banks.  A cache that is the slice of
 * one of idx_parts > 1 memory partitions uses, instead of addr, the
 * address inside its partition, (addr / (idx_gran x idx_parts)) x
 * idx_gran + addr % idx_gran (addrmap.h's `local`): the partition bits
 * take no part in the index, or under a linear interleave a slice would
 * use only 1/idx_parts of its sets (GPGPU-Sim indexes its L2 slices by
 * the partition address too).  idx_gran is a power of two of at least
 * a line.  A message lies within one line (for lines under 128 bytes
 * the sender splits: cache_line_split; lines over 128 bytes take
 * several messages, one per 128-byte piece).
 *
 * An access at cycle now (cache_access) first needs its bank: each bank
 * takes one access per cycle, a second one is refused (FAIL_BANK, a bank
 * conflict).  Then, for a read (or fetch):
 *  - HIT: the line is present and every sector asked for is valid; the
 *    reply is due at now + hit_lat.
 *  - MERGE: the line is present and each missing sector is already
 *    being filled: the request waits in that line's MSHR.
 *  - SECTOR_MISS: the line is present but some missing sector is not
 *    being fetched: a fill for those sectors goes down; the request
 *    waits in the line's MSHR (allocating one if the line has none).
 *  - MISS: the line is absent: a victim is chosen (an unused way first,
 *    else the least recently used (LRU) or the oldest filled (FIFO) way
 *    among those with no sector being filled), written back first if it
 *    holds dirty sectors, and the line installed with the asked sectors
 *    pending; a fill goes down; the request waits in a new MSHR.
 * A waiting request is answered at (the cycle its last sector arrived)
 * + fill_lat (a hardware cache forwards a fill without a second full
 * lookup: fill_lat may be below hit_lat; 0 means hit_lat).  Everything going down (fills, write-backs, writes passed
 * on) leaves at now + 1 (the tag lookup) through the miss queue.
 * Writes: write-back caches mark the sectors valid and dirty and answer
 * at now + hit_lat (allocating on a miss when write_alloc, with no fetch:
 * messages cover whole sectors); write-through caches update a present
 * line (or allocate one when write_alloc) and pass the write down; its
 * acknowledgement comes back through cache_fill and goes up at once.  A
 * write-back cache that does not allocate passes a write miss down the
 * same way.  Atomics pass through a write-through cache (dropping its
 * copy of the sectors) and are done by a write-back one like a read that
 * leaves the sectors dirty.  Write-backs (MEM_F_NOREPLY) are answered to
 * nobody.
 *
 * Persisting lines (CUDA's L2 set-aside, Programming Guide "L2 Access
 * Management"; used for the L2 slices).  cache_set_persist_ways gives
 * the set-aside as P ways of each set (at most ways - 1, so every set
 * keeps a way for normal accesses).  An access-policy window
 * (cache_set_window) gives each access of the units it names to a line
 * in [base, base + bytes) a property: hit_prop when the line's hash
 * (cache_window_hash: a fixed mix of the line number, the same on every
 * host) is below hit_ratio x 2^32, miss_prop otherwise, so the fraction
 * hit_ratio of the window's lines gets hit_prop, always the same lines.
 *  - persisting (with P > 0): the line becomes persisting.  A miss then
 *    takes its victim among the set's normal lines while the set holds
 *    fewer than P persisting lines, else among the persisting ones (they
 *    compete among themselves for the set-aside); a hit marks the line
 *    persisting when the set holds fewer than P.
 *  - streaming: evict-first (as MEM_F_EVICT_FIRST), and no longer
 *    persisting; normal: no longer persisting (CUDA: "resets previously
 *    applied persisting access property to a normal status").
 * Every other access (outside the window, no window, another unit)
 * takes its victim among the normal lines of the set, or among all when
 * the set holds more than P persisting lines (the set-aside shrank) or
 * no normal line is free to go.  cache_reset_persist makes every line
 * normal (cudaCtxResetPersistingL2Cache).
 *
 * Refusals (nothing changes, the sender retries): FAIL_BANK, or
 * FAIL_RES (a reservation failure): no free MSHR, an MSHR already
 * holding `merge` requests, no way of the set free of pending fills,
 * too little room in the miss queue, or no room for the reply (the
 * reply queue holds `outq` answers plus the room every waiting request
 * has reserved).
 */
#ifndef PTXEMU_TIMING_GPU_MEM_CACHE_H
#define PTXEMU_TIMING_GPU_MEM_CACHE_H

#include "timing/gpu/mem/memif.h"

typedef enum CacheRepl { CACHE_LRU = 0, CACHE_FIFO } CacheRepl;

typedef struct CacheCfg {
    uint32_t sets, ways, line;  /* line in bytes */
    uint32_t banks;
    uint32_t idx_parts;         /* partitions this cache is a slice of
                                   (0 or 1: index by the whole address) */
    uint32_t idx_gran;          /* their interleave, bytes */
    uint32_t hit_lat;           /* cycles */
    uint32_t fill_lat;          /* cycles from a fill to the replies of
                                   the requests that waited for it (0:
                                   hit_lat) */
    uint32_t mshrs, merge;      /* MSHR entries; requests per entry */
    uint32_t missq;             /* messages waiting to go down */
    uint32_t outq;              /* replies waiting to go up */
    CacheRepl repl;
    bool write_back, write_alloc;
} CacheCfg;

typedef struct CacheStats {
    uint64_t access, hit, miss, sector_miss, mshr_merge;
    uint64_t resfail, bank_conflict, writeback;
    uint64_t bytes;             /* 32 per sector of each access taken: the
                                   data it returned up or took in */
} CacheStats;

typedef enum CacheOutcome {
    CACHE_HIT = 0,
    CACHE_MISS,
    CACHE_SECTOR_MISS,
    CACHE_MERGE,
    CACHE_FAIL_BANK,            /* refused from here on */
    CACHE_FAIL_RES,
} CacheOutcome;

/* Access properties (CUDA's cudaAccessProperty values). */
typedef enum CacheProp {
    CACHE_PROP_NORMAL = 0,
    CACHE_PROP_STREAMING = 1,
    CACHE_PROP_PERSISTING = 2,
    CACHE_PROP_NONE = 3,                /* not in a window: default */
} CacheProp;

typedef struct CacheWindow {
    uint64_t base, bytes;               /* bytes 0: no window */
    uint64_t hit_below;                 /* hit_ratio x 2^32 */
    uint8_t hit_prop, miss_prop;        /* CacheProp */
    uint32_t units;                     /* bit u: MemUnit u's messages */
} CacheWindow;

typedef struct Cache Cache;

/* NULL with a message in err (bad geometry) or out of memory.  Counts
 * go to *st (shared by several caches when the caller wishes). */
Cache *cache_new(const CacheCfg *cfg, CacheStats *st, char *err,
                 size_t errlen);
void cache_free(Cache *c);
/* Invalidate every line that is not being filled (kernel launch). */
void cache_invalidate(Cache *c);
/* Nothing in flight: no MSHR busy, nothing queued or promised. */
bool cache_idle(const Cache *c);
/* Use `sets` sets of `ways` ways (at most the lines it was made with;
 * the L1's share of an array it shares with shared memory), every line
 * invalid.  Only when idle. */
void cache_set_shape(Cache *c, uint32_t sets, uint32_t ways);
/* Offer a request at cycle now; accepted unless >= CACHE_FAIL_BANK. */
CacheOutcome cache_access(Cache *c, const MemMsg *m, uint64_t now);
/* Count everything into *sum as well (the sum over several caches,
 * such as every L2 slice; NULL: stop). */
void cache_set_sum(Cache *c, CacheStats *sum);
/* Count a reservation failure without the lookup: an owner that knows
 * an access refused with CACHE_FAIL_RES would be refused again (nothing
 * in this cache changed since) keeps the counts what the lookup would
 * have made them (n such refusals). */
void cache_count_resfail(Cache *c, uint64_t n);
/* A reply from below at cycle now: a fill of this cache's (m->mshr >=
 * 0) or the acknowledgement of a message it passed on.  Never refused
 * (its room was reserved). */
void cache_fill(Cache *c, const MemMsg *m, uint64_t now);
/* Outputs: replies going up, messages going down (memif.h). */
const MemMsg *cache_up_peek(const Cache *c, uint64_t now);
void cache_up_pop(Cache *c);
const MemMsg *cache_down_peek(const Cache *c, uint64_t now);
void cache_down_pop(Cache *c);
uint64_t cache_next(const Cache *c);
/* The due cycle of the head of each output (MEM_NEVER: empty). */
uint64_t cache_up_next(const Cache *c);
uint64_t cache_down_next(const Cache *c);
const CacheCfg *cache_cfg(const Cache *c);

/* The set-aside for persisting lines: `ways` ways of each set (capped
 * at the cache's ways - 1). */
void cache_set_persist_ways(Cache *c, uint32_t ways);
/* Every persisting line becomes normal. */
void cache_reset_persist(Cache *c);
/* The access-policy window (NULL or bytes 0: none). */
void cache_set_window(Cache *c, const CacheWindow *w);
/* The hash that picks a window's hit_prop lines: the line number
 * (addr / line) mixed by SplitMix64's finaliser (Steele, Lea and Flood,
 * "Fast splittable pseudorandom number generators", OOPSLA 2014), top
 * 32 bits. */
uint32_t cache_window_hash(uint64_t line_no);
/* Persisting lines held (for tests). */
uint32_t cache_persist_lines(const Cache *c);

/* Split m into the pieces that each lie within one line of `line` bytes
 * (lines under 128 bytes); returns their number (1..4). */
uint32_t cache_line_split(const MemMsg *m, uint32_t line, MemMsg out[4]);

#endif
