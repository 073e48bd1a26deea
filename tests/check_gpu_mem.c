/*
 * tests/check_gpu_mem.c: the components of the `gpu` model's `hier`
 * memory system (timing/gpu/mem/), each on a trace worked out by hand
 * from the rules at the top of its header; the comments show the work.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing/gpu/mem/addrmap.h"
#include "timing/gpu/mem/cache.h"
#include "timing/gpu/mem/dram.h"
#include "timing/gpu/mem/tlb.h"
#include "timing/gpu/mem/xbar.h"
#include "timing/reghost.h"

/* ------------------------------------------------------------ helpers */

static MemMsg msg(uint64_t addr, unsigned sectors, GpuMemKind kind,
                  uint32_t tag)
{
    MemMsg m = {.addr = addr, .sectors = (uint8_t)sectors,
                .kind = (uint8_t)kind, .mshr = -1, .tag = tag};
    return m;
}

/* The head of a cache's down queue is due exactly at `due` and is this
 * message; pop it. */
static void expect_down(Cache *c, uint64_t due, uint64_t addr,
                        unsigned sectors, int mshr, GpuMemKind kind)
{
    ck_assert_ptr_null(cache_down_peek(c, due - 1));
    const MemMsg *d = cache_down_peek(c, due);
    ck_assert_ptr_nonnull(d);
    ck_assert_uint_eq(d->addr, addr);
    ck_assert_uint_eq(d->sectors, sectors);
    ck_assert_int_eq(d->mshr, mshr);
    ck_assert_uint_eq(d->kind, kind);
    cache_down_pop(c);
}

/* The head of the up queue is due at `due` and answers `tag`; pop it. */
static void expect_up(Cache *c, uint64_t due, uint32_t tag)
{
    ck_assert_ptr_null(cache_up_peek(c, due - 1));
    const MemMsg *u = cache_up_peek(c, due);
    ck_assert_ptr_nonnull(u);
    ck_assert_uint_eq(u->tag, tag);
    cache_up_pop(c);
}

/* ------------------------------------------------------------- cache */

/* An L1-like cache: 2 sets x 2 ways of 128-byte lines, 2 banks, hit
 * latency 2, 2 MSHRs merging 2 requests each, LRU, write-through
 * without write-allocate.  Line A = 0x000 and C = 0x100, E = 0x200 map
 * to set 0 and bank 0 ((addr / 128) % 2 = 0); B = 0x080 and D = 0x180
 * to set 1, bank 1. */
static const CacheCfg l1cfg = {
    .sets = 2, .ways = 2, .line = 128, .banks = 2, .hit_lat = 2,
    .mshrs = 2, .merge = 2, .missq = 4, .outq = 4, .repl = CACHE_LRU,
    .write_back = false, .write_alloc = false,
};

START_TEST(cache_l1_trace)
{
    CacheStats st = {0};
    char err[128];
    Cache *c = cache_new(&l1cfg, &st, err, sizeof err);
    ck_assert_ptr_nonnull(c);
    MemMsg m;
    /* c0: A sector 0: absent -> MISS, MSHR 0 (the free stack gives 0
     * first), fill {A, 0x1, mshr 0} leaves at 0 + 1 */
    m = msg(0x000, 0x1, GPU_MEM_READ, 1);
    ck_assert_int_eq(cache_access(c, &m, 0), CACHE_MISS);
    expect_down(c, 1, 0x000, 0x1, 0, GPU_MEM_READ);
    /* c1: A sector 0 again: pending -> MERGE (MSHR 0 holds 2 now) */
    m = msg(0x000, 0x1, GPU_MEM_READ, 2);
    ck_assert_int_eq(cache_access(c, &m, 1), CACHE_MERGE);
    /* c2: A sector 1: not valid, not pending: a sector miss, but MSHR 0
     * already holds merge = 2 requests -> FAIL_RES (nothing changes) */
    m = msg(0x000, 0x2, GPU_MEM_READ, 3);
    ck_assert_int_eq(cache_access(c, &m, 2), CACHE_FAIL_RES);
    /* c2: B all sectors (bank 1): MISS, MSHR 1 */
    m = msg(0x080, 0xF, GPU_MEM_READ, 4);
    ck_assert_int_eq(cache_access(c, &m, 2), CACHE_MISS);
    expect_down(c, 3, 0x080, 0xF, 1, GPU_MEM_READ);
    /* c2: C (bank 0, unused at c2: the refused access took no bank):
     * absent, both MSHRs busy -> FAIL_RES */
    m = msg(0x100, 0x1, GPU_MEM_READ, 5);
    ck_assert_int_eq(cache_access(c, &m, 2), CACHE_FAIL_RES);
    /* c3: B sector 0: pending -> MERGE; then D, same bank 1, same cycle
     * -> FAIL_BANK */
    m = msg(0x080, 0x1, GPU_MEM_READ, 6);
    ck_assert_int_eq(cache_access(c, &m, 3), CACHE_MERGE);
    m = msg(0x180, 0x1, GPU_MEM_READ, 7);
    ck_assert_int_eq(cache_access(c, &m, 3), CACHE_FAIL_BANK);
    ck_assert_uint_eq(cache_next(c), MEM_NEVER);   /* all waiting below */
    /* c10: A's fill: requests 1 and 2 answered at 10 + 2, in order;
     * MSHR 0 is free again */
    MemMsg f = msg(0x000, 0x1, GPU_MEM_READ, 0);
    f.mshr = 0;
    cache_fill(c, &f, 10);
    ck_assert_uint_eq(cache_next(c), 12);
    expect_up(c, 12, 1);
    expect_up(c, 12, 2);
    /* c11: A sector 1 -> SECTOR_MISS (line present), MSHR 0; a second
     * access to bank 0 in c11 -> FAIL_BANK; in c12 A sector 0 -> HIT,
     * answered at 14 */
    m = msg(0x000, 0x2, GPU_MEM_READ, 8);
    ck_assert_int_eq(cache_access(c, &m, 11), CACHE_SECTOR_MISS);
    expect_down(c, 12, 0x000, 0x2, 0, GPU_MEM_READ);
    m = msg(0x000, 0x1, GPU_MEM_READ, 9);
    ck_assert_int_eq(cache_access(c, &m, 11), CACHE_FAIL_BANK);
    ck_assert_int_eq(cache_access(c, &m, 12), CACHE_HIT);
    /* c13: B's fill: requests 4 and 6 at 15 (the hit at 14 first) */
    f = msg(0x080, 0xF, GPU_MEM_READ, 0);
    f.mshr = 1;
    cache_fill(c, &f, 13);
    expect_up(c, 14, 9);
    expect_up(c, 15, 4);
    expect_up(c, 15, 6);
    /* c20: C: set 0 has A and an unused way -> MISS into it; MSHR 1
     * (freed at 13; MSHR 0 still waits for A's sector 1) */
    m = msg(0x100, 0x1, GPU_MEM_READ, 10);
    ck_assert_int_eq(cache_access(c, &m, 20), CACHE_MISS);
    expect_down(c, 21, 0x100, 0x1, 1, GPU_MEM_READ);
    f = msg(0x000, 0x2, GPU_MEM_READ, 0);
    f.mshr = 0;
    cache_fill(c, &f, 21);      /* request 8 at 23 */
    f = msg(0x100, 0x1, GPU_MEM_READ, 0);
    f.mshr = 1;
    cache_fill(c, &f, 22);      /* request 10 at 24 */
    expect_up(c, 23, 8);
    expect_up(c, 24, 10);
    /* LRU: c30 A hit (A used at 30, C at 20); c31 E: set 0 full ->
     * victim C, the least recently used; MSHR 1 (the free stack: 0
     * freed at 21, then 1 at 22, so 1 is on top) */
    m = msg(0x000, 0x1, GPU_MEM_READ, 11);
    ck_assert_int_eq(cache_access(c, &m, 30), CACHE_HIT);
    m = msg(0x200, 0x1, GPU_MEM_READ, 12);
    ck_assert_int_eq(cache_access(c, &m, 31), CACHE_MISS);
    expect_down(c, 32, 0x200, 0x1, 1, GPU_MEM_READ);
    /* c32 A both sectors: still there -> HIT; c33 C: evicted -> MISS,
     * victim A (E is being filled, so it cannot go), MSHR 0 */
    m = msg(0x000, 0x3, GPU_MEM_READ, 13);
    ck_assert_int_eq(cache_access(c, &m, 32), CACHE_HIT);
    m = msg(0x100, 0x1, GPU_MEM_READ, 14);
    ck_assert_int_eq(cache_access(c, &m, 33), CACHE_MISS);
    expect_down(c, 34, 0x100, 0x1, 0, GPU_MEM_READ);
    /* c34 A again: evicted -> absent, and both ways of set 0 are being
     * filled (no victim) -> FAIL_RES */
    m = msg(0x000, 0x1, GPU_MEM_READ, 15);
    ck_assert_int_eq(cache_access(c, &m, 34), CACHE_FAIL_RES);
    /* c35: a write to E (present, pending): write-through hit, passed
     * down unchanged at 36; its acknowledgement (c40) goes up at once */
    m = msg(0x200, 0x1, GPU_MEM_WRITE, 16);
    ck_assert_int_eq(cache_access(c, &m, 35), CACHE_HIT);
    expect_up(c, 32 + 0, 11);   /* the hits of c30 (32) and c32 (34) */
    expect_up(c, 34, 13);
    expect_down(c, 36, 0x200, 0x1, -1, GPU_MEM_WRITE);
    MemMsg ack = msg(0x200, 0x1, GPU_MEM_WRITE, 16);
    cache_fill(c, &ack, 40);
    expect_up(c, 40, 16);
    /* a write miss without write-allocate: passed on, nothing cached */
    m = msg(0x080 + 0x400, 0x1, GPU_MEM_WRITE, 17);
    ck_assert_int_eq(cache_access(c, &m, 41), CACHE_MISS);
    expect_down(c, 42, 0x480, 0x1, -1, GPU_MEM_WRITE);
    /* counts: accepted 13 (refused: 2 bank conflicts, 3 reservation
     * failures); hits: c12, c30, c32, c35 (write); misses: c0, c2, c20,
     * c31, c33, c41 (write); sector miss c11; merges c1, c3 */
    ck_assert_uint_eq(st.access, 13);
    ck_assert_uint_eq(st.hit, 4);
    ck_assert_uint_eq(st.miss, 6);
    ck_assert_uint_eq(st.sector_miss, 1);
    ck_assert_uint_eq(st.mshr_merge, 2);
    ck_assert_uint_eq(st.bank_conflict, 2);
    ck_assert_uint_eq(st.resfail, 3);
    cache_free(c);
}
END_TEST

/* An L2-slice-like cache: 1 set x 2 ways of 256-byte lines (8 sectors,
 * two 128-byte pieces), write-back with write-allocate, FIFO, hit
 * latency 3. */
START_TEST(cache_wb_fifo_trace)
{
    CacheCfg cfg = {
        .sets = 1, .ways = 2, .line = 256, .banks = 1, .hit_lat = 3,
        .mshrs = 4, .merge = 4, .missq = 8, .outq = 8, .repl = CACHE_FIFO,
        .write_back = true, .write_alloc = true,
    };
    CacheStats st = {0};
    Cache *c = cache_new(&cfg, &st, NULL, 0);
    ck_assert_ptr_nonnull(c);
    MemMsg m;
    /* c0: write 0x000 sector 0: MISS, allocated (line 0x000, fill order
     * 1) with sector 0 valid and dirty, no fetch; acknowledged at 3 */
    m = msg(0x000, 0x1, GPU_MEM_WRITE, 1);
    ck_assert_int_eq(cache_access(c, &m, 0), CACHE_MISS);
    /* c1: read 0x080 sector 0 = sector 4 of line 0x000: SECTOR_MISS,
     * fill {0x080, 0x1} (the second piece) */
    m = msg(0x080, 0x1, GPU_MEM_READ, 2);
    ck_assert_int_eq(cache_access(c, &m, 1), CACHE_SECTOR_MISS);
    /* c2: read 0x100: MISS into the free way (fill order 2) */
    m = msg(0x100, 0xF, GPU_MEM_READ, 3);
    ck_assert_int_eq(cache_access(c, &m, 2), CACHE_MISS);
    expect_down(c, 2, 0x080, 0x1, 0, GPU_MEM_READ);
    expect_down(c, 3, 0x100, 0xF, 1, GPU_MEM_READ);
    MemMsg f = msg(0x080, 0x1, GPU_MEM_READ, 0);
    f.mshr = 0;
    cache_fill(c, &f, 5);       /* request 2 at 8 */
    f = msg(0x100, 0xF, GPU_MEM_READ, 0);
    f.mshr = 1;
    cache_fill(c, &f, 6);       /* request 3 at 9 */
    expect_up(c, 3, 1);
    expect_up(c, 8, 2);
    expect_up(c, 9, 3);
    /* c10: read 0x000 sector 0: HIT (FIFO: a hit does not refresh) */
    m = msg(0x000, 0x1, GPU_MEM_READ, 4);
    ck_assert_int_eq(cache_access(c, &m, 10), CACHE_HIT);
    /* c11: write 0x200: MISS; FIFO victim = 0x000 (filled first; LRU
     * would take 0x100), dirty sector 0 written back at 12, then the
     * line 0x200 (fill order 3) valid+dirty in sector 0 */
    m = msg(0x200, 0x1, GPU_MEM_WRITE, 5);
    ck_assert_int_eq(cache_access(c, &m, 11), CACHE_MISS);
    expect_down(c, 12, 0x000, 0x1, -1, GPU_MEM_WRITE);
    /* c12: write 0x280 sector 1 = sector 5 of 0x200: HIT, dirty 0 and 5 */
    m = msg(0x280, 0x2, GPU_MEM_WRITE, 6);
    ck_assert_int_eq(cache_access(c, &m, 12), CACHE_HIT);
    /* c13: read 0x300: MISS, victim 0x100 (order 2 < 3), clean: no
     * write-back; MSHR 1 (the free stack: 0 freed at 5, then 1 at 6) */
    m = msg(0x300, 0x1, GPU_MEM_READ, 7);
    ck_assert_int_eq(cache_access(c, &m, 13), CACHE_MISS);
    expect_down(c, 14, 0x300, 0x1, 1, GPU_MEM_READ);
    /* c14: read 0x400: MISS, victim 0x200 (0x300 is being filled):
     * its dirty sectors 0 and 5 go as two write-backs, one per
     * 128-byte piece, before the fill */
    m = msg(0x400, 0x1, GPU_MEM_READ, 8);
    ck_assert_int_eq(cache_access(c, &m, 14), CACHE_MISS);
    expect_down(c, 15, 0x200, 0x1, -1, GPU_MEM_WRITE);
    const MemMsg *d = cache_down_peek(c, 15);
    ck_assert_uint_eq(d->addr, 0x280);
    ck_assert_uint_eq(d->sectors, 0x2);
    ck_assert(d->flags & MEM_F_NOREPLY);
    cache_down_pop(c);
    expect_down(c, 15, 0x400, 0x1, 0, GPU_MEM_READ);
    expect_up(c, 13, 4);
    expect_up(c, 14, 5);
    expect_up(c, 15, 6);
    ck_assert_uint_eq(st.writeback, 2);
    ck_assert_uint_eq(st.hit, 2);
    ck_assert_uint_eq(st.miss, 5);
    ck_assert_uint_eq(st.sector_miss, 1);
    /* a write-back arriving here (NOREPLY) is absorbed: no reply */
    m = msg(0x400, 0x2, GPU_MEM_WRITE, 9);
    m.flags = MEM_F_NOREPLY;
    ck_assert_int_eq(cache_access(c, &m, 20), CACHE_HIT);
    ck_assert_uint_eq(cache_next(c), MEM_NEVER);
    cache_free(c);
}
END_TEST

/* Cache operators as hints (gpu_cache_hint), from the PTX ISA's cache
 * operator tables: only the instruction's first word counts. */
START_TEST(cache_hint_table)
{
    static const struct {
        const char *text;
        uint8_t hint;
    } t[] = {
        {"ld.global.cs.f32 %f1, [%rd1];",
         GPU_HINT_L1_EVICT_FIRST | GPU_HINT_L2_EVICT_FIRST},
        {"@%p1 ld.global.lu.v4.f32 {%f1, %f2, %f3, %f4}, [%rd2];",
         GPU_HINT_L1_EVICT_FIRST | GPU_HINT_L2_EVICT_FIRST},
        {"st.global.cs.f32 [%rd1], %f1;",
         GPU_HINT_L1_EVICT_FIRST | GPU_HINT_L2_EVICT_FIRST},
        {"ld.global.cg.u32 %r1, [%rd1];", GPU_HINT_L1_NO_ALLOC},
        {"ld.global.cv.u32 %r1, [%rd1];",
         GPU_HINT_L1_NO_ALLOC | GPU_HINT_L2_NO_ALLOC},
        {"ld.global.L1::evict_first.f32 %f1, [%rd1];",
         GPU_HINT_L1_EVICT_FIRST},
        {"ld.global.L1::no_allocate.b32 %r1, [%rd1];", GPU_HINT_L1_NO_ALLOC},
        {"ld.global.L1::evict_last.f32 %f1, [%rd1];", 0},
        {"ld.global.ca.f32 %f1, [%rd1];", 0},
        {"ld.global.nc.f32 %f1, [%rd1];", 0},
        {"st.global.wb.u32 [%rd1], %r1;", 0},
        {"ld.global.f32 %f1, [cs.cs];", 0},
        {"", 0},
    };
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
        ck_assert_msg(gpu_cache_hint(t[k].text) == t[k].hint, "%s: %u",
                      t[k].text, gpu_cache_hint(t[k].text));
    }
    ck_assert_uint_eq(gpu_cache_hint(NULL), 0);
}
END_TEST

/* Streaming and no-allocate accesses in a 1-set, 2-way LRU cache (hit
 * latency 2):
 *  c0  A (0x000) misses (MSHR 0), fill at 5, answered 7;
 *  c10 B (0x080) evict-first misses: installed as the set's next victim;
 *      its fill goes down with the next level's hint; answered 17;
 *  c20 B evict-first hits (answered 22) and stays the next victim;
 *  c21 C (0x100) misses: B goes, though A is the least recently used
 *      (plain LRU would have taken A); answered 27;
 *  c30 B misses again (it was evicted): this time A goes; answered 37;
 *  c40 C hits (42).
 *  c50 D (0x180) no-allocate: passed down as it is (MSHR -1), its reply
 *      passed up at once (55); c60 D again, plain: a miss (nothing was
 *      allocated). */
START_TEST(cache_stream_and_no_alloc)
{
    static const CacheCfg cfg = {
        .sets = 1, .ways = 2, .line = 128, .banks = 1, .hit_lat = 2,
        .mshrs = 2, .merge = 2, .missq = 4, .outq = 4, .repl = CACHE_LRU,
    };
    CacheStats st = {0};
    Cache *c = cache_new(&cfg, &st, NULL, 0);
    ck_assert_ptr_nonnull(c);
    MemMsg m = msg(0x000, 0x1, GPU_MEM_READ, 1), f;
    ck_assert_int_eq(cache_access(c, &m, 0), CACHE_MISS);
    expect_down(c, 1, 0x000, 0x1, 0, GPU_MEM_READ);
    f = msg(0x000, 0x1, GPU_MEM_READ, 0);
    f.mshr = 0;
    cache_fill(c, &f, 5);
    expect_up(c, 7, 1);

    m = msg(0x080, 0x1, GPU_MEM_READ, 2);
    m.flags = MEM_F_EVICT_FIRST | MEM_F_NEXT_EVICT_FIRST;
    ck_assert_int_eq(cache_access(c, &m, 10), CACHE_MISS);
    const MemMsg *d = cache_down_peek(c, 11);
    ck_assert_ptr_nonnull(d);
    ck_assert_uint_eq(d->flags, MEM_F_NEXT_EVICT_FIRST);
    ck_assert_uint_eq(mem_hint_down(d->flags), MEM_F_EVICT_FIRST);
    expect_down(c, 11, 0x080, 0x1, 0, GPU_MEM_READ);
    f = msg(0x080, 0x1, GPU_MEM_READ, 0);
    f.mshr = 0;
    cache_fill(c, &f, 15);
    expect_up(c, 17, 2);
    m.tag = 3;
    ck_assert_int_eq(cache_access(c, &m, 20), CACHE_HIT);
    expect_up(c, 22, 3);

    m = msg(0x100, 0x1, GPU_MEM_READ, 4);
    ck_assert_int_eq(cache_access(c, &m, 21), CACHE_MISS);
    expect_down(c, 22, 0x100, 0x1, 0, GPU_MEM_READ);
    f = msg(0x100, 0x1, GPU_MEM_READ, 0);
    f.mshr = 0;
    cache_fill(c, &f, 25);
    expect_up(c, 27, 4);

    m = msg(0x080, 0x1, GPU_MEM_READ, 5);
    ck_assert_int_eq(cache_access(c, &m, 30), CACHE_MISS);
    expect_down(c, 31, 0x080, 0x1, 0, GPU_MEM_READ);
    f = msg(0x080, 0x1, GPU_MEM_READ, 0);
    f.mshr = 0;
    cache_fill(c, &f, 35);
    expect_up(c, 37, 5);
    m = msg(0x100, 0x1, GPU_MEM_READ, 6);
    ck_assert_int_eq(cache_access(c, &m, 40), CACHE_HIT);
    expect_up(c, 42, 6);

    m = msg(0x180, 0x1, GPU_MEM_READ, 7);
    m.flags = MEM_F_NO_ALLOC;
    ck_assert_int_eq(cache_access(c, &m, 50), CACHE_MISS);
    expect_down(c, 51, 0x180, 0x1, -1, GPU_MEM_READ);
    cache_fill(c, &m, 55);
    expect_up(c, 55, 7);
    m = msg(0x180, 0x1, GPU_MEM_READ, 8);
    ck_assert_int_eq(cache_access(c, &m, 60), CACHE_MISS);
    ck_assert_uint_eq(st.miss, 6);
    ck_assert_uint_eq(st.hit, 2);
    cache_free(c);
}
END_TEST

START_TEST(cache_split_and_bad_geometry)
{
    /* a 32-byte-line cache takes one sector per access: 0xB (sectors
     * 0, 1, 3) splits into three pieces, 64-byte lines into two */
    MemMsg m = msg(0x1000, 0xB, GPU_MEM_READ, 0), out[4];
    ck_assert_uint_eq(cache_line_split(&m, 32, out), 3);
    ck_assert_uint_eq(out[0].sectors, 0x1);
    ck_assert_uint_eq(out[1].sectors, 0x2);
    ck_assert_uint_eq(out[2].sectors, 0x8);
    ck_assert_uint_eq(cache_line_split(&m, 64, out), 2);
    ck_assert_uint_eq(out[0].sectors, 0x3);
    ck_assert_uint_eq(out[1].sectors, 0x8);
    ck_assert_uint_eq(cache_line_split(&m, 128, out), 1);
    CacheCfg bad = l1cfg;
    bad.line = 96;
    char err[128] = "";
    CacheStats st = {0};
    ck_assert_ptr_null(cache_new(&bad, &st, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "power of two"));
    /* a 32-byte-line texture-like cache: sector 3 of 0x1000 is the line
     * 0x1060, a miss fetches exactly that sector */
    CacheCfg t = l1cfg;
    t.line = 32;
    Cache *c = cache_new(&t, &st, NULL, 0);
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(cache_access(c, &out[1], 0), CACHE_MISS);
    expect_down(c, 1, 0x1000, 0x8, 0, GPU_MEM_READ);
    cache_free(c);
}
END_TEST

/* A slice of one of 4 partitions interleaved every 256 bytes (linear),
 * with 2 sets x 1 way of 256-byte lines (8 sectors): partition 0 holds
 * 0x000 (local 0: set 0) and 0x400 (chunk 4, up 1: local 256, set 1).
 * Indexed by the whole address both would be line 0 and line 4, set 0,
 * and the second would evict the first; indexed by the local address
 * both stay.  A read of sectors 0 and 7 of the line at 0x400 (two
 * 128-byte halves) fetches exactly those two sectors. */
START_TEST(cache_partition_index)
{
    CacheCfg cfg = {
        .sets = 2, .ways = 1, .line = 256, .banks = 1, .hit_lat = 2,
        .mshrs = 2, .merge = 2, .missq = 4, .outq = 4, .repl = CACHE_LRU,
        .idx_parts = 4, .idx_gran = 256,
    };
    for (int local = 1; local >= 0; local--) {
        cfg.idx_parts = local ? 4 : 0;
        CacheStats st = {0};
        Cache *c = cache_new(&cfg, &st, NULL, 0);
        ck_assert_ptr_nonnull(c);
        MemMsg a = msg(0x000, 0x1, GPU_MEM_READ, 1), f;
        ck_assert_int_eq(cache_access(c, &a, 0), CACHE_MISS);
        expect_down(c, 1, 0x000, 0x1, 0, GPU_MEM_READ);
        f = a;
        f.mshr = 0;
        cache_fill(c, &f, 5);
        expect_up(c, 7, 1);
        /* sector 0 of the first half, sector 3 of the second (byte
         * 0x4E0 = sector 7 of the line) */
        MemMsg b = msg(0x400, 0x1, GPU_MEM_READ, 2);
        ck_assert_int_eq(cache_access(c, &b, 10), CACHE_MISS);
        expect_down(c, 11, 0x400, 0x1, 0, GPU_MEM_READ);
        f = b;
        f.mshr = 0;
        cache_fill(c, &f, 15);
        expect_up(c, 17, 2);
        MemMsg b2 = msg(0x480, 0x8, GPU_MEM_READ, 3);
        ck_assert_int_eq(cache_access(c, &b2, 20), CACHE_SECTOR_MISS);
        expect_down(c, 21, 0x480, 0x8, 0, GPU_MEM_READ);
        /* set 0 still holds 0x000 when indexed locally; otherwise its
         * only way holds 0x400, whose sector is being filled: refused */
        a.tag = 4;
        ck_assert_int_eq(cache_access(c, &a, 22),
                         (local ? CACHE_HIT : CACHE_FAIL_RES));
        cache_free(c);
    }
    /* the interleave must hold a whole line */
    cfg.idx_parts = 4;
    cfg.idx_gran = 128;
    char err[128] = "";
    CacheStats st = {0};
    ck_assert_ptr_null(cache_new(&cfg, &st, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "interleave"));
}
END_TEST


/* ----------------------------------------------------------- addrmap */

typedef struct MapCase {
    uint64_t addr;
    uint32_t part, bankid, bg, bank, col;
    uint64_t row;
} MapCase;

static void check_map(const AddrMapCfg *cfg, const MapCase *t, size_t n)
{
    ck_assert_ptr_null(addrmap_check(cfg));
    for (size_t i = 0; i < n; i++) {
        AddrLoc l;
        addrmap_map(cfg, t[i].addr, &l);
        ck_assert_msg(l.part == t[i].part && l.bankid == t[i].bankid &&
                          l.bg == t[i].bg && l.bank == t[i].bank &&
                          l.col == t[i].col && l.row == t[i].row,
                      "0x%llx: part %u bank %u (bg %u, %u) row %llu col %u",
                      (unsigned long long)t[i].addr, l.part, l.bankid, l.bg,
                      l.bank, (unsigned long long)l.row, l.col);
        ck_assert_uint_eq(addrmap_part(cfg, t[i].addr), t[i].part);
    }
}

/* 4 partitions, 256-byte interleave, 1 rank of 4 banks in 2 groups,
 * 1 KB rows.  chunk = addr / 256, low = chunk % 4, up = chunk / 4,
 * local = up * 256 + addr % 256, col = local % 1024, r = local / 1024,
 * bank = r % 4, row = r / 4, group = bank % 2, bank in group = bank / 2.
 *   0x0000: chunk 0 -> part 0, local 0
 *   0x0150: chunk 1 -> part 1, local 0x50 = 80: col 80
 *   0x0400: chunk 4 (low 0, up 1) -> part 0, local 256: col 256
 *   0x1000: chunk 16 (up 4) -> part 0, local 1024: r 1, bank 1 (group 1)
 *   0x3C40: chunk 60 (up 15), +64 -> local 3904: col 832, r 3, bank 3
 *   0x4000: chunk 64 (up 16) -> local 4096: r 4: bank 0, row 1 */
START_TEST(addrmap_linear)
{
    AddrMapCfg cfg = {.parts = 4, .gran = 256, .ranks = 1, .banks = 4,
                      .bankgroups = 2, .row_bytes = 1024,
                      .hash = ADDR_LINEAR};
    static const MapCase t[] = {
        {0x0000, 0, 0, 0, 0, 0, 0},   {0x0150, 1, 0, 0, 0, 80, 0},
        {0x0400, 0, 0, 0, 0, 256, 0}, {0x1000, 0, 1, 1, 0, 0, 0},
        {0x3C40, 0, 3, 1, 1, 832, 0}, {0x4000, 0, 0, 0, 0, 0, 1},
    };
    check_map(&cfg, t, sizeof t / sizeof t[0]);
}
END_TEST

/* The same with xor: part = low ^ fold(up) (2-bit fields), bank ^= row %
 * 4.  0x1000: up 4 = 01.00 -> fold 1 -> part 1; r 1: bank 1 ^ 0 = 1.
 * 0x4000: up 16 = 01.00.00 -> 1 -> part 1; r 4: row 1, bank 0 ^ 1 = 1.
 * 0x3C40: up 15 = 11.11 -> 0 -> part 0; bank 3.  A stride of 4 x 256 =
 * 1 KB (chunks 0, 4, 8, 12: up 0..3, low 0) lands on partitions 0, 1, 2,
 * 3 where linear keeps it on 0. */
START_TEST(addrmap_xor_poly)
{
    AddrMapCfg cfg = {.parts = 4, .gran = 256, .ranks = 1, .banks = 4,
                      .bankgroups = 2, .row_bytes = 1024, .hash = ADDR_XOR};
    static const MapCase t[] = {
        {0x1000, 1, 1, 1, 0, 0, 0},
        {0x4000, 1, 1, 1, 0, 0, 1},
        {0x3C40, 0, 3, 1, 1, 832, 0},
    };
    check_map(&cfg, t, sizeof t / sizeof t[0]);
    for (uint32_t k = 0; k < 4; k++) {
        ck_assert_uint_eq(addrmap_part(&cfg, k * 1024), k);
    }
    /* poly: chunk mod p, p = x^2 + x + 1.  x^2 = x + 1 (mod p), x^3 =
     * x^2 + x = 1, x^4 = x.  chunk 4 = x^2 -> 0b11 = 3; chunk 5 = x^2 +
     * 1 -> x = 2; chunk 8 = x^3 -> 1; chunk 12 = x^3 + x^2 -> 1 + x + 1
     * = x = 2; chunk 16 = x^4 -> x = 2.  So the 1 KB stride goes to 0,
     * 3, 1, 2. */
    cfg.hash = ADDR_POLY;
    ck_assert_uint_eq(addrmap_part(&cfg, 0x400), 3);
    ck_assert_uint_eq(addrmap_part(&cfg, 0x500), 2);
    ck_assert_uint_eq(addrmap_part(&cfg, 0x800), 1);
    ck_assert_uint_eq(addrmap_part(&cfg, 0xC00), 2);
    ck_assert_uint_eq(addrmap_part(&cfg, 0x1000), 2);
    ck_assert_uint_eq(addrmap_part(&cfg, 0x0), 0);
}
END_TEST

/* 3 partitions (not a power of two).  linear: chunk % 3.  xor: (low +
 * fold(up)) % 3 with 2-bit fields: chunk 3 (low 0, up 1) -> 1, chunk 4
 * (1, 1) -> 2, chunk 5 (2, 1) -> 0, chunk 12 (0, up 4 = 01.00 -> 1) ->
 * 1; local = up x 256: 256 for chunks 3 to 5, 1024 for 12.  poly needs a power of two. */
START_TEST(addrmap_three_parts)
{
    AddrMapCfg cfg = {.parts = 3, .gran = 256, .ranks = 1, .banks = 4,
                      .bankgroups = 1, .row_bytes = 2048,
                      .hash = ADDR_LINEAR};
    ck_assert_uint_eq(addrmap_part(&cfg, 0x000), 0);
    ck_assert_uint_eq(addrmap_part(&cfg, 0x100), 1);
    ck_assert_uint_eq(addrmap_part(&cfg, 0x200), 2);
    ck_assert_uint_eq(addrmap_part(&cfg, 0x300), 0);
    cfg.hash = ADDR_XOR;
    static const MapCase t[] = {
        {0x300, 1, 0, 0, 0, 256, 0}, {0x400, 2, 0, 0, 0, 256, 0},
        {0x500, 0, 0, 0, 0, 256, 0}, {0xC00, 1, 0, 0, 0, 1024, 0},
    };
    check_map(&cfg, t, sizeof t / sizeof t[0]);
    cfg.hash = ADDR_POLY;
    ck_assert_ptr_nonnull(addrmap_check(&cfg));
    ck_assert_int_eq(addrmap_hash_by_name("xor"), ADDR_XOR);
    ck_assert_int_eq(addrmap_hash_by_name("crc"), -1);
}
END_TEST

/* -------------------------------------------------------------- dram */

/* Small round numbers so the timeline can be worked by hand: 1 rank of
 * 4 banks in 2 groups (bank b in group b % 2), one 32-byte burst per
 * sector. */
static DramCfg dcfg(void)
{
    DramCfg c = {.ranks = 1, .bankgroups = 2, .banks = 4,
                 .burst_bytes = 32, .rdq = 8, .wrq = 8,
                 .policy = DRAM_OPEN, .sched = DRAM_FRFCFS};
    static const uint32_t t[DT_COUNT] = {
        [DT_RCD] = 3, [DT_RP] = 3, [DT_RAS] = 6, [DT_RC] = 9, [DT_CL] = 4,
        [DT_WL] = 2, [DT_CCDS] = 2, [DT_CCDL] = 3, [DT_RRD] = 2,
        [DT_WR] = 3, [DT_WTR] = 2, [DT_RTW] = 5, [DT_RTP] = 2,
        [DT_BURST] = 2, [DT_RFC] = 10, [DT_REFI] = 0,
    };
    memcpy(c.t, t, sizeof t);
    return c;
}

typedef struct DramRun {
    Dram *d;
    DramStats st;
    DramCmd log[64];
    uint32_t nlog;
    uint64_t done[16];          /* by tag: the cycle its reply is out */
} DramRun;

static void drun_init(DramRun *r, const DramCfg *c)
{
    memset(r, 0, sizeof *r);
    r->d = dram_new(c, &r->st, NULL, 0);
    ck_assert_ptr_nonnull(r->d);
    dram_set_log(r->d, r->log, 64, &r->nlog);
}

static void drun_read(DramRun *r, uint32_t tag, uint32_t bank, uint64_t row,
                      uint64_t now)
{
    MemMsg m = msg(0, 0x1, GPU_MEM_READ, tag);
    ck_assert(dram_accept(r->d, &m, bank, row, now));
}

/* Run to idle by jumping from next() to next() (so a wrong next() that
 * skips a cycle where a command could issue shows in the timeline), up
 * to cycle `until`. */
static void drun(DramRun *r, uint64_t until)
{
    for (;;) {
        uint64_t t = dram_next(r->d);
        if (t == MEM_NEVER || t > until) {
            return;
        }
        const MemMsg *m;
        while ((m = dram_out_peek(r->d, t))) {
            r->done[m->tag] = t;
            dram_out_pop(r->d);
        }
        dram_tick(r->d, t);
    }
}

static void expect_cmd(const DramRun *r, uint32_t i, uint64_t cycle,
                       DramCmdKind k, uint32_t bank, uint64_t row)
{
    ck_assert_uint_gt(r->nlog, i);
    const DramCmd *c = &r->log[i];
    ck_assert_msg(c->cycle == cycle && c->cmd == k && c->bank == bank &&
                      (k == DC_REF || c->row == row),
                  "command %u: got %u at %llu bank %u row %llu", i, c->cmd,
                  (unsigned long long)c->cycle, c->bank,
                  (unsigned long long)c->row);
}

/* FR-FCFS, open rows.  At cycle 0: R1 (bank 0, row 5), R2 (bank 0, row
 * 5), R3 (bank 1, row 7), R4 (bank 0, row 9).
 *  c0  ACT b0 r5 for R1 (nothing open): b0 column at 3, PRE at 6, ACT at
 *      9; rank ACT at 2 (tRRD)
 *  c1  nothing: R1/R2 wait for tRCD, R3's ACT for tRRD, R4 would
 *      precharge row 5 which R1 and R2 still hit
 *  c2  ACT b1 r7 for R3: b1 column at 5
 *  c3  RD b0 (R1): group 0 column at 6 (tCCDL), channel at 5 (tCCDS);
 *      data back at 3 + CL 4 + burst 2 = 9
 *  c5  RD b1 (R3), group 1, only tCCDS after R1 (a same-group read had
 *      to wait for 6): channel at 7; back at 11
 *  c7  RD b0 (R2, a row hit): back at 13; b0 PRE at max(6, 7 + tRTP 2)
 *  c9  PRE b0 (R4: no queued request hits row 5 now): ACT at 9 + 3 = 12
 *  c12 ACT b0 r9;  c15 RD b0 (R4): back at 21.
 * Row hits: R2; misses (bank closed): R1, R3; conflicts: R4. */
START_TEST(dram_frfcfs_timeline)
{
    DramCfg c = dcfg();
    DramRun r;
    drun_init(&r, &c);
    drun_read(&r, 1, 0, 5, 0);
    drun_read(&r, 2, 0, 5, 0);
    drun_read(&r, 3, 1, 7, 0);
    drun_read(&r, 4, 0, 9, 0);
    drun(&r, 1000);
    ck_assert_uint_eq(r.nlog, 8);
    expect_cmd(&r, 0, 0, DC_ACT, 0, 5);
    expect_cmd(&r, 1, 2, DC_ACT, 1, 7);
    expect_cmd(&r, 2, 3, DC_RD, 0, 5);
    expect_cmd(&r, 3, 5, DC_RD, 1, 7);
    expect_cmd(&r, 4, 7, DC_RD, 0, 5);
    expect_cmd(&r, 5, 9, DC_PRE, 0, 5);
    expect_cmd(&r, 6, 12, DC_ACT, 0, 9);
    expect_cmd(&r, 7, 15, DC_RD, 0, 9);
    ck_assert_uint_eq(r.done[1], 9);
    ck_assert_uint_eq(r.done[3], 11);
    ck_assert_uint_eq(r.done[2], 13);
    ck_assert_uint_eq(r.done[4], 21);
    ck_assert_uint_eq(r.st.row_hit, 1);
    ck_assert_uint_eq(r.st.row_miss, 2);
    ck_assert_uint_eq(r.st.row_conflict, 1);
    ck_assert_uint_eq(r.st.data_cycles, 8);
    ck_assert_uint_eq(dram_next(r.d), MEM_NEVER);
    dram_free(r.d);
}
END_TEST

/* FIFO against FR-FCFS on R1 (b0 r5), R2 (b0 r9), R3 (b0 r5).
 * fifo:    ACT r5 @0, RD @3 (R1, back 9; PRE allowed at max(6, 5)),
 *          PRE @6 (ACT at max(9, 9)), ACT r9 @9, RD @12 (R2, back 18;
 *          PRE at max(15, 14)), PRE @15, ACT r5 @18, RD @21 (R3, 27).
 * fr-fcfs: ACT @0, RD @3 (R1), RD @6 (R3 hits row 5; tCCDL from 3; back
 *          12; PRE at max(6, 8)), PRE @8 (ACT at max(9, 11)), ACT r9
 *          @11, RD @14 (R2, back 20).
 * closed:  (fr-fcfs) ACT r5 @0, RD @3 (R1) and auto-precharge at the
 *          first legal PRE, 6: ACT at max(9, 6 + 3); ACT r9 @9, RD @12
 *          (R2, 18), PRE at max(15, 14) -> ACT at 18; ACT r5 @18, RD @21
 *          (R3, 27). */
START_TEST(dram_fifo_closed)
{
    DramCfg c = dcfg();
    DramRun r;
    static const struct {
        DramSched s;
        DramPolicy p;
        uint64_t done[3];
        uint32_t ncmd;
    } want[] = {
        {DRAM_FIFO, DRAM_OPEN, {9, 18, 27}, 8},
        {DRAM_FRFCFS, DRAM_OPEN, {9, 20, 12}, 6},
        {DRAM_FRFCFS, DRAM_CLOSED, {9, 18, 27}, 6},
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        c.sched = want[k].s;
        c.policy = want[k].p;
        drun_init(&r, &c);
        drun_read(&r, 1, 0, 5, 0);
        drun_read(&r, 2, 0, 9, 0);
        drun_read(&r, 3, 0, 5, 0);
        drun(&r, 1000);
        ck_assert_uint_eq(r.done[1], want[k].done[0]);
        ck_assert_uint_eq(r.done[2], want[k].done[1]);
        ck_assert_uint_eq(r.done[3], want[k].done[2]);
        ck_assert_uint_eq(r.nlog, want[k].ncmd);
        dram_free(r.d);
    }
}
END_TEST

/* Refresh every 20 cycles, tRFC 10.  R1 (b0 r1) at 0: ACT @0, RD @3
 * (back 9); then the channel is idle and not ticked.  R2 (b1 r2)
 * arrives at 21: the refresh due at 20 is caught up first: b0 was open,
 * PRE allowed from max(6, 5): PRE @20 (b0 ACT at max(9, 23)); REF when
 * every bank may be activated, 23 > 21: still to come, so the channel
 * goes on from there: REF @23, every bank's ACT at 33, next refresh due
 * at 40.  R2 waits for it: ACT @33, RD @36 (back 42).  R3 (b2 r3)
 * arrives at 45, the channel idle since 36: the refresh due at 40 is
 * caught up: b1 open, PRE allowed from max(33 + 6, 36 + 2) = 39: @40;
 * REF when every bank may be activated: b1 at max(33 + 9, 40 + 3) = 43,
 * the others 33: @43 <= 45, done; ACT at 53.  R3: ACT @53, RD @56
 * (back 62). */
START_TEST(dram_refresh)
{
    DramCfg c = dcfg();
    c.t[DT_REFI] = 20;
    DramRun r;
    drun_init(&r, &c);
    drun_read(&r, 1, 0, 1, 0);
    drun(&r, 100);
    ck_assert_uint_eq(dram_next(r.d), MEM_NEVER);  /* idle: sleeps */
    drun_read(&r, 2, 1, 2, 21);
    drun(&r, 100);
    drun_read(&r, 3, 2, 3, 45);
    drun(&r, 100);
    ck_assert_uint_eq(r.nlog, 10);
    expect_cmd(&r, 0, 0, DC_ACT, 0, 1);
    expect_cmd(&r, 1, 3, DC_RD, 0, 1);
    expect_cmd(&r, 2, 20, DC_PRE, 0, 1);
    expect_cmd(&r, 3, 23, DC_REF, 0, 0);
    expect_cmd(&r, 4, 33, DC_ACT, 1, 2);
    expect_cmd(&r, 5, 36, DC_RD, 1, 2);
    expect_cmd(&r, 6, 40, DC_PRE, 1, 2);
    expect_cmd(&r, 7, 43, DC_REF, 0, 0);
    expect_cmd(&r, 8, 53, DC_ACT, 2, 3);
    expect_cmd(&r, 9, 56, DC_RD, 2, 3);
    ck_assert_uint_eq(r.done[1], 9);
    ck_assert_uint_eq(r.done[2], 42);
    ck_assert_uint_eq(r.done[3], 62);
    ck_assert_uint_eq(r.st.ref, 2);
    dram_free(r.d);
}
END_TEST

/* Writes and turnarounds, and back-pressure.  W1 (b0 r1, a write-back
 * nobody waits for) and R2 (b2 r1, same group 0) at 0, wrq = 1.
 *  c0 ACT b0; c2 ACT b2 (tRRD); c3 WR b0 (W1): reads in the channel
 *  wait for 3 + WL 2 + burst 2 + tWTR 2 = 9, group 0 for 6; c5 RD b2
 *  is not allowed (tWTR) until 9: RD @9, back 15.  A second write while
 *  W1 is queued is refused (wrq 1); after W1's column command (it left
 *  the queue, no reply) one is taken. */
START_TEST(dram_write_turnaround)
{
    DramCfg c = dcfg();
    c.wrq = 1;
    DramRun r;
    drun_init(&r, &c);
    MemMsg w = msg(0, 0x1, GPU_MEM_WRITE, 1);
    w.flags = MEM_F_NOREPLY;
    ck_assert(dram_accept(r.d, &w, 0, 1, 0));
    drun_read(&r, 2, 2, 1, 0);
    ck_assert(!dram_accept(r.d, &w, 0, 1, 0));
    ck_assert_uint_eq(r.st.refused, 1);
    drun(&r, 1000);
    expect_cmd(&r, 0, 0, DC_ACT, 0, 1);
    expect_cmd(&r, 1, 2, DC_ACT, 2, 1);
    expect_cmd(&r, 2, 3, DC_WR, 0, 1);
    expect_cmd(&r, 3, 9, DC_RD, 2, 1);
    ck_assert_uint_eq(r.done[2], 15);
    ck_assert_uint_eq(r.done[1], 0);    /* no reply */
    ck_assert(dram_accept(r.d, &w, 0, 1, 20));
    dram_free(r.d);
}
END_TEST

/* The four-activate window, and the per-bank counts.  8 banks in 2
 * groups (bank b in group b % 2), tRRD 2, tFAW 10; reads R1..R5 at 0 to
 * banks 0..4, row 1 each (every bank closed):
 *  c0 ACT b0; c2 ACT b1 (tRRD); c3 RD b0 (column commands first);
 *  c4 ACT b2; c5 RD b1; c6 ACT b3 (the fourth ACT in the window
 *  [0, 10)); c7 RD b2; c8 nothing may issue: R4's column waits for tRCD
 *  (9) and R5's ACT, allowed by tRRD at 8, is the fifth: tFAW after the
 *  first, at 0 + 10; c9 RD b3; c10 ACT b4; c13 RD b4 (tRCD).
 * Data back CL 4 + burst 2 after each RD: 9, 11, 13, 15, 19.  With
 * tFAW 0 the ACT issues at 8, its RD at 11 (tRCD), back at 17.
 * Then R6 (b0 row 1, a row hit) and R7 (b0 row 2, a conflict) at 20:
 * bank 0 ends with 2 ACTs, a hit, a miss and a conflict; banks 1..4
 * one ACT and one miss each; banks 5..7 nothing. */
START_TEST(dram_faw_and_bank_stats)
{
    DramCfg c = dcfg();
    c.banks = 8;
    c.t[DT_FAW] = 10;
    DramRun r;
    drun_init(&r, &c);
    for (uint32_t k = 0; k < 5; k++) {
        drun_read(&r, k + 1, k, 1, 0);
    }
    drun(&r, 19);
    ck_assert_uint_eq(r.nlog, 10);
    expect_cmd(&r, 0, 0, DC_ACT, 0, 1);
    expect_cmd(&r, 1, 2, DC_ACT, 1, 1);
    expect_cmd(&r, 2, 3, DC_RD, 0, 1);
    expect_cmd(&r, 3, 4, DC_ACT, 2, 1);
    expect_cmd(&r, 4, 5, DC_RD, 1, 1);
    expect_cmd(&r, 5, 6, DC_ACT, 3, 1);
    expect_cmd(&r, 6, 7, DC_RD, 2, 1);
    expect_cmd(&r, 7, 9, DC_RD, 3, 1);
    expect_cmd(&r, 8, 10, DC_ACT, 4, 1);
    expect_cmd(&r, 9, 13, DC_RD, 4, 1);
    static const uint64_t want[] = {0, 9, 11, 13, 15, 19};
    for (uint32_t k = 1; k <= 5; k++) {
        ck_assert_uint_eq(r.done[k], want[k]);
    }
    drun_read(&r, 6, 0, 1, 20);
    drun_read(&r, 7, 0, 2, 20);
    drun(&r, 1000);
    const DramBankStats *b = dram_bank_stats(r.d);
    ck_assert_uint_eq(b[0].act, 2);
    ck_assert_uint_eq(b[0].row_hit, 1);
    ck_assert_uint_eq(b[0].row_miss, 1);
    ck_assert_uint_eq(b[0].row_conflict, 1);
    for (uint32_t k = 1; k < 8; k++) {
        ck_assert_uint_eq(b[k].act, k <= 4);
        ck_assert_uint_eq(b[k].row_miss, k <= 4);
        ck_assert_uint_eq(b[k].row_hit + b[k].row_conflict, 0);
    }
    ck_assert_uint_eq(r.st.act, 6);
    dram_free(r.d);

    c.t[DT_FAW] = 0;
    drun_init(&r, &c);
    for (uint32_t k = 0; k < 5; k++) {
        drun_read(&r, k + 1, k, 1, 0);
    }
    drun(&r, 1000);
    expect_cmd(&r, 7, 8, DC_ACT, 4, 1);
    expect_cmd(&r, 8, 9, DC_RD, 3, 1);
    expect_cmd(&r, 9, 11, DC_RD, 4, 1);
    ck_assert_uint_eq(r.done[5], 17);
    dram_free(r.d);
}
END_TEST

START_TEST(dram_presets_sane)
{
    /* every preset can build a channel, and names resolve */
    for (uint32_t i = 0; i < dram_npresets; i++) {
        const DramPreset *p = &dram_presets[i];
        ck_assert_ptr_eq(dram_preset_find(p->name), p);
        ck_assert(p->source && strlen(p->source) > 20);
        DramCfg c = {.ranks = 1, .bankgroups = p->bankgroups,
                     .banks = p->banks, .burst_bytes = p->burst_bytes,
                     .rdq = 4, .wrq = 4};
        memcpy(c.t, p->t, sizeof c.t);
        DramStats st = {0};
        Dram *d = dram_new(&c, &st, NULL, 0);
        ck_assert_ptr_nonnull(d);
        /* the row must be open before it can be closed or read (the
         * ACT-to-ACT time is at least tRAS + tRP here anyway: ACT, PRE
         * after tRAS, ACT after tRP; Accel-Sim's scaled GDDR6 numbers
         * have tRC 62 < 50 + 20) */
        ck_assert_uint_ge(p->t[DT_RC], p->t[DT_RAS]);
        ck_assert_uint_le(p->t[DT_RCD], p->t[DT_RAS]);
        dram_free(d);
    }
    ck_assert_ptr_null(dram_preset_find("ddr9"));
}
END_TEST

/* -------------------------------------------------------------- xbar */

/* Two sources, two outputs, 32-byte flits, input buffers of 4 flits,
 * output buffers of 2, latency 2.  Every cycle: first the outputs'
 * arrived packets are taken (popped), then the crossbar ticks.
 * Pushed at 0: s0 P1 (64 B -> d0) and P3 (32 B -> d1); s1 P2 and P4
 * (64 B -> d0 each: s1 holds 4 flits) and P5 (32 B) is refused; at 1,
 * s0 P6 (64 B -> d0; s0 then holds P3 + P6 = 3 flits).
 *  c0 d0: s0 and s1 ready, pointer 0: s0 wins (1 conflict); P1 holds
 *     d0 and s0 for 2 flits, arrives 0 + 2 + 1 = 3; pointer -> 1.  d1:
 *     s0's head is now P3 but s0 is sending.
 *  c2 d0 free but its buffer holds P1 (2 flits): a stall.  d1: P3 from
 *     s0, arrives 2 + 2 + 0 = 4.
 *  c3 P1 taken; d0: s1 (pointer 1) before s0 (its head P6): P2 (a
 *     conflict), arrives 3 + 3 = 6; pointer -> 0; d0 busy until 5.
 *  c5 d0 free, buffer holds P2: a stall.
 *  c6 P2 taken; d0: s0 (P6) before s1 (P4) (a conflict): P6 arrives 9.
 *  c8 stall (P6 in the buffer); c9 P6 taken, P4 granted: arrives 12. */
START_TEST(xbar_two_source_conflict)
{
    XbarCfg cfg = {.nsrc = 2, .ndst = 2, .flit = 32, .inbuf = 4,
                   .outbuf = 2, .lat = 2, .kind = XBAR_CROSSBAR};
    XbarStats st = {0};
    Xbar *x = xbar_new(&cfg, &st, NULL, 0);
    ck_assert_ptr_nonnull(x);
    MemMsg p[7];
    for (uint32_t i = 0; i < 7; i++) {
        p[i] = msg(0, 0xF, GPU_MEM_READ, i);
    }
    ck_assert(xbar_push(x, 0, 0, &p[1], 64, 0));
    ck_assert(xbar_push(x, 0, 1, &p[3], 32, 0));
    ck_assert(xbar_push(x, 1, 0, &p[2], 64, 0));
    ck_assert(xbar_push(x, 1, 0, &p[4], 64, 0));
    ck_assert(!xbar_push(x, 1, 0, &p[5], 32, 0));
    uint64_t arrived[7] = {0};
    uint32_t at[7] = {0};
    for (uint64_t t = 0; t < 20; t++) {
        if (t == 1) {
            ck_assert(xbar_push(x, 0, 0, &p[6], 64, 1));
        }
        for (uint32_t d = 0; d < 2; d++) {
            const MemMsg *m;
            while ((m = xbar_peek(x, d, t))) {
                arrived[m->tag] = t;
                at[m->tag] = d;
                xbar_pop(x, d);
            }
        }
        xbar_tick(x, t);
    }
    ck_assert_uint_eq(arrived[1], 3);
    ck_assert_uint_eq(arrived[3], 4);
    ck_assert_uint_eq(at[3], 1);
    ck_assert_uint_eq(arrived[2], 6);
    ck_assert_uint_eq(arrived[6], 9);
    ck_assert_uint_eq(arrived[4], 12);
    ck_assert_uint_eq(arrived[5], 0);
    ck_assert_uint_eq(st.conflicts, 3);
    ck_assert_uint_eq(st.stalls, 3);
    ck_assert_uint_eq(st.refused, 1);
    ck_assert_uint_eq(st.packets, 5);
    ck_assert_uint_eq(st.flits, 9);
    ck_assert_uint_eq(xbar_next(x), MEM_NEVER);
    xbar_free(x);
}
END_TEST

/* The ideal network: no contention, arrival at push + lat; the output
 * buffer (2 flits) still bounds what is in flight. */
START_TEST(xbar_ideal)
{
    XbarCfg cfg = {.nsrc = 2, .ndst = 1, .flit = 32, .inbuf = 1,
                   .outbuf = 2, .lat = 5, .kind = XBAR_IDEAL};
    XbarStats st = {0};
    Xbar *x = xbar_new(&cfg, &st, NULL, 0);
    ck_assert_ptr_nonnull(x);
    MemMsg a = msg(0, 1, GPU_MEM_READ, 1), b = msg(0, 1, GPU_MEM_READ, 2);
    ck_assert(xbar_push(x, 0, 0, &a, 32, 3));
    ck_assert(xbar_push(x, 1, 0, &b, 32, 3));
    ck_assert(!xbar_push(x, 1, 0, &b, 32, 3));
    ck_assert_uint_eq(xbar_next(x), 8);
    ck_assert_ptr_null(xbar_peek(x, 0, 7));
    ck_assert_uint_eq(xbar_peek(x, 0, 8)->tag, 1);
    xbar_pop(x, 0);
    ck_assert_uint_eq(xbar_peek(x, 0, 8)->tag, 2);
    xbar_pop(x, 0);
    ck_assert_int_eq(xbar_kind_by_name("ideal"), XBAR_IDEAL);
    ck_assert_int_eq(xbar_kind_by_name("mesh"), -1);
    xbar_free(x);
}
END_TEST

/* --------------------------------------------------------------- tlb */

/* L1 TLB: 1 set x 2 ways; L2 TLB: 2 sets x 2 ways (set = page % 2);
 * 4 KB pages; an L2 hit costs 10, a walk 50.  LRU everywhere.
 *  P0 miss (50): L2 set 0 {P0}, L1 {P0}
 *  P0 again (0x800): L1 hit (0)
 *  P1 miss (50): L2 set 1 {P1}, L1 {P0, P1}
 *  P2 miss (50): L2 set 0 {P0, P2}; L1 drops P0 (LRU): {P1, P2}
 *  P0: L1 miss, L2 hit (10; P0 now newer than P2); L1 drops P1
 *  P4 miss (50): L2 set 0 drops P2 (LRU): {P0, P4}; L1 drops P2
 *  P2 miss (50): evicted from both; L2 drops P0
 *  P1: L1 miss, L2 set 1 still has it (10). */
START_TEST(tlb_trace)
{
    TlbCfg cfg = {.l1_sets = 1, .l1_ways = 2, .l2_sets = 2, .l2_ways = 2,
                  .page = 4096, .l2_lat = 10, .walk_lat = 50};
    TlbStats st = {0};
    Tlb *t = tlb_new(&cfg, &st, NULL, 0);
    ck_assert_ptr_nonnull(t);
    static const struct {
        uint64_t addr;
        uint32_t lat;
    } tr[] = {
        {0x0000, 50}, {0x0800, 0}, {0x1000, 50}, {0x2000, 50},
        {0x0000, 10}, {0x4000, 50}, {0x2000, 50}, {0x1FFF, 10},
    };
    for (size_t i = 0; i < sizeof tr / sizeof tr[0]; i++) {
        ck_assert_msg(tlb_lookup(t, tr[i].addr) == tr[i].lat, "step %zu", i);
    }
    ck_assert_uint_eq(st.l1_hit, 1);
    ck_assert_uint_eq(st.l2_hit, 2);
    ck_assert_uint_eq(st.miss, 5);
    tlb_flush(t);
    ck_assert_uint_eq(tlb_lookup(t, 0x1000), 50);
    tlb_free(t);
    cfg.page = 3000;
    char err[128] = "";
    ck_assert_ptr_null(tlb_new(&cfg, &st, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "power of two"));
}
END_TEST

/* -------------------------------------------------------------- hier */

typedef struct MemRun {
    TmRegHost h;
    const GpuMemOps *ops;
    void *m;
    uint64_t done[16];          /* by cookie: the reply's core cycle */
    uint32_t ndone;
} MemRun;

static void on_done(void *ctx, uint32_t sm, uint64_t cookie, uint64_t cycle)
{
    MemRun *r = ctx;
    (void)sm;
    ck_assert_uint_lt(cookie, 16);
    ck_assert_uint_eq(r->done[cookie], 0);
    r->done[cookie] = cycle;
    r->ndone++;
}

/* The baseline of the end-to-end tests: every clock at 1000 MHz, two
 * SMs, two partitions interleaved linearly every 256 bytes, L1 hit
 * latency 4, L2 hit latency 10, crossbar latency 2 with 32-byte flits
 * and 8-byte headers, GDDR5 timing (tRCD 12, CL 12, tBURST 2), atomic
 * unit 4 cycles; then the test's own settings. */
static void mem_open(MemRun *r, const char *const *extra, size_t nextra)
{
    memset(r, 0, sizeof *r);
    ck_assert_int_eq(tm_reghost_init(&r->h), 0);
    static const char *const base[] = {
        "mem.parts=2", "map.hash=linear", "map.gran=256", "l1d.lat=4",
        "l2.lat=10", "icnt.lat=2", "icnt.flit=32", "icnt.ctrl_bytes=8",
        "dram.preset=gddr5", "dram.mhz=1000", "atom.lat=4",
    };
    char err[256];
    for (size_t i = 0; i < sizeof base / sizeof base[0]; i++) {
        ck_assert_int_eq(tm_params_set(r->h.p, base[i], err, sizeof err), 0);
    }
    for (size_t i = 0; i < nextra; i++) {
        ck_assert_int_eq(tm_params_set(r->h.p, extra[i], err, sizeof err), 0);
    }
    r->ops = gpu_mem_find("hier");
    ck_assert_ptr_nonnull(r->ops);
    r->m = r->ops->create(&tm_reghost_api, &r->h, 2, 1000.0, on_done, r);
}

static void mem_close(MemRun *r)
{
    if (r->m) {
        r->ops->destroy(r->m);
    }
    tm_reghost_fini(&r->h);
}

static void mem_send(MemRun *r, uint32_t sm, uint64_t addr, GpuMemKind kind,
                     uint8_t space, uint64_t cookie, uint64_t now)
{
    GpuMemReq q = {.addr = addr, .size = 4, .kind = (uint8_t)kind,
                   .space = space, .sm = sm, .cookie = cookie};
    r->ops->advance(r->m, now);
    ck_assert(r->ops->send(r->m, &q, now));
}

/* Jump from next() to next() until idle. */
static void mem_drain(MemRun *r)
{
    for (int guard = 0; guard < 100000; guard++) {
        uint64_t t = r->ops->next(r->m);
        if (t == GPU_NEVER) {
            return;
        }
        r->ops->advance(r->m, t);
    }
    ck_abort_msg("the memory system never went idle");
}

static uint64_t mem_stat(const MemRun *r, const char *name)
{
    uint64_t v = 0;
    ck_assert_msg(tm_reghost_stat(&r->h, name, &v), "no statistic %s", name);
    return v;
}

/* Latencies from the parameters (all clocks equal, so cycles add):
 *  DRAM access, a read of 0x000 sector 0 by SM0 at 0 (cold):
 *    1 (L1 tag lookup: the miss leaves at 1)
 *    + 2 (request crossbar: a header-only packet is 1 flit: granted at
 *      1, arrives at 1 + lat 2 + 1 - 1 = 3)
 *    + 1 (L2 lookup: the miss leaves at 4, the channel takes it at 4)
 *    + 12 + 12 + 2 (ACT at 4, RD at 4 + tRCD = 16, data at 16 + CL +
 *      tBURST = 30)
 *    + 10 (L2 fill + hit latency: the reply leaves the slice at 40)
 *    + 3 (reply crossbar: 8 + 32 bytes = 2 flits, granted at 40, arrives
 *      at 40 + 2 + 2 - 1 = 43)
 *    + 4 (L1 fill + hit latency) = 47.
 *  L2 hit, SM1 reads 0x000 sector 0 at 100 (its L1 is cold, the L2 has
 *    the sector): 1 + 2 + 10 + 3 + 4 = 20 -> 120.
 *  L1 hit, SM0 again at 200: 4 -> 204.
 *  DRAM row hit, SM0 reads sector 1 at 300 (a sector miss in L1 and
 *    L2; row 0 is still open): RD at 304 without an ACT: 47 - 12 = 35
 *    -> 335.
 *  Atomic, SM1 on 0x000 sector 0 at 400: through the write-through L1
 *    (leaves at 401); a 40-byte request is 2 flits: arrives at 401 + 3 =
 *    404; an L2 hit (the sector is valid): 414; the atomic unit: 418;
 *    reply 2 flits: 421; passed through the L1 at once: 421 (21). */
START_TEST(hier_latencies)
{
    MemRun r;
    mem_open(&r, NULL, 0);
    ck_assert_msg(r.m, "%s", r.h.err);
    mem_send(&r, 0, 0x000, GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL, 1, 0);
    mem_drain(&r);
    ck_assert_uint_eq(r.done[1], 47);
    mem_send(&r, 1, 0x000, GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL, 2, 100);
    mem_drain(&r);
    ck_assert_uint_eq(r.done[2], 120);
    mem_send(&r, 0, 0x004, GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL, 3, 200);
    mem_drain(&r);
    ck_assert_uint_eq(r.done[3], 204);
    mem_send(&r, 0, 0x020, GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL, 4, 300);
    mem_drain(&r);
    ck_assert_uint_eq(r.done[4], 335);
    mem_send(&r, 1, 0x000, GPU_MEM_ATOMIC, PTXEMU_TM_SPACE_GLOBAL, 5, 400);
    mem_drain(&r);
    ck_assert_uint_eq(r.done[5], 421);
    ck_assert_uint_eq(r.ndone, 5);
    ck_assert_uint_eq(mem_stat(&r, "mem.l1d.sm0.miss"), 1);
    ck_assert_uint_eq(mem_stat(&r, "mem.l1d.sm0.sector_miss"), 1);
    ck_assert_uint_eq(mem_stat(&r, "mem.l1d.sm0.hit"), 1);
    ck_assert_uint_eq(mem_stat(&r, "mem.l2.hit"), 2);
    ck_assert_uint_eq(mem_stat(&r, "mem.l2.miss"), 1);
    ck_assert_uint_eq(mem_stat(&r, "mem.l2.sector_miss"), 1);
    ck_assert_uint_eq(mem_stat(&r, "mem.dram.row_hit"), 1);
    ck_assert_uint_eq(mem_stat(&r, "mem.dram.row_miss"), 1);
    ck_assert_uint_eq(mem_stat(&r, "mem.dram.act"), 1);
    ck_assert_uint_eq(mem_stat(&r, "mem.icnt.req.packets"), 4);
    ck_assert_uint_eq(mem_stat(&r, "mem.icnt.reply.flits"), 8);
    /* every clock 1000 MHz: after advance(421), 2 channels x 421 */
    ck_assert_uint_eq(mem_stat(&r, "mem.dram.peak_cycles"), 2 * 421);
    ck_assert_uint_eq(mem_stat(&r, "mem.dram.data_cycles"), 2 * 2);
    mem_close(&r);
}
END_TEST

/* The interconnect at 500 MHz (2 core cycles per cycle), the rest at
 * 1000.  SM1 reads a line the L2 holds, at core 1000: its L1 miss leaves
 * at 1001; the network takes it at its first edge at or after that, icnt
 * cycle 501 (core 1002); granted there, it arrives at 503 (core 1006);
 * the L2 hits at 1006, the reply leaves at 1016 = icnt 508; 2 flits:
 * arrives at 508 + 3 = 511 (core 1022); the L1 answers at 1026. */
START_TEST(hier_clock_domains)
{
    static const char *const x[] = {"icnt.mhz=500"};
    MemRun r;
    mem_open(&r, x, 1);
    ck_assert_msg(r.m, "%s", r.h.err);
    mem_send(&r, 0, 0x000, GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL, 1, 0);
    mem_drain(&r);
    mem_send(&r, 1, 0x000, GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL, 2, 1000);
    mem_drain(&r);
    ck_assert_uint_eq(r.done[2], 1026);
    mem_close(&r);
}
END_TEST

/* No L1 (GT200): a read goes straight to the network at its cycle: the
 * DRAM path without the L1's lookup (1) and fill (4): 47 - 5 = 42.  A
 * constant read still goes through the constant cache. */
START_TEST(hier_no_l1)
{
    static const char *const x[] = {"mem.l1d=false"};
    MemRun r;
    mem_open(&r, x, 1);
    ck_assert_msg(r.m, "%s", r.h.err);
    mem_send(&r, 0, 0x000, GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL, 1, 0);
    mem_drain(&r);
    ck_assert_uint_eq(r.done[1], 42);
    mem_send(&r, 0, 0x1000, GPU_MEM_READ, PTXEMU_TM_SPACE_CONST, 2, 100);
    mem_drain(&r);
    ck_assert_uint_eq(mem_stat(&r, "mem.l1c.miss"), 1);
    ck_assert_uint_ne(r.done[2], 0);
    mem_close(&r);
}
END_TEST

/* With a TLB (walk 50 extra cycles, second level 47): the first access
 * to a page waits 50 before entering the L1: 47 + 50 = 97; a second
 * access to the page (another line, in DRAM's open row) pays nothing
 * extra: at 200, sector 1 of the line: a sector miss, DRAM row hit:
 * 35 -> 235. */
START_TEST(hier_tlb)
{
    static const char *const x[] = {"tlb.on=true", "tlb.walk=50"};
    MemRun r;
    mem_open(&r, x, 2);
    ck_assert_msg(r.m, "%s", r.h.err);
    mem_send(&r, 0, 0x000, GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL, 1, 0);
    mem_drain(&r);
    ck_assert_uint_eq(r.done[1], 97);
    mem_send(&r, 0, 0x020, GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL, 2, 200);
    mem_drain(&r);
    ck_assert_uint_eq(r.done[2], 235);
    ck_assert_uint_eq(mem_stat(&r, "mem.tlb.miss"), 1);
    ck_assert_uint_eq(mem_stat(&r, "mem.tlb.l1_hit"), 1);
    mem_close(&r);
}
END_TEST

/* A refused request offered again every cycle (as the LSU does): with
 * l1d.mshrs = 1, SM0's cold read of 0x000 at 0 holds the only MSHR until
 * its fill reaches the L1 at 43 (47 - the hit latency 4).  A read of
 * line 0x1000 is refused at every cycle 1..42 (each offer counts one
 * reservation failure, as a lookup would, though the memory system
 * answers repeats without one) and taken at 43; its path is the cold
 * one of hier_latencies (another bank of partition 0, closed: ACT, no
 * tRRD wait): 43 + 47 = 90. */
START_TEST(hier_refused_retry)
{
    static const char *const x[] = {"l1d.mshrs=1"};
    MemRun r;
    mem_open(&r, x, 1);
    ck_assert_msg(r.m, "%s", r.h.err);
    mem_send(&r, 0, 0x000, GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL, 1, 0);
    GpuMemReq q = {.addr = 0x1000, .size = 4, .kind = GPU_MEM_READ,
                   .space = PTXEMU_TM_SPACE_GLOBAL, .sm = 0, .cookie = 2};
    for (uint64_t t = 1; t <= 42; t++) {
        r.ops->advance(r.m, t);
        ck_assert_msg(!r.ops->send(r.m, &q, t), "taken at %llu",
                      (unsigned long long)t);
    }
    ck_assert_uint_eq(mem_stat(&r, "mem.l1d.sm0.resfail"), 42);
    r.ops->advance(r.m, 43);
    ck_assert(r.ops->send(r.m, &q, 43));
    /* requests count when answered (with their latency): none yet */
    ck_assert_uint_eq(mem_stat(&r, "mem.l1d.requests"), 0);
    mem_drain(&r);
    ck_assert_uint_eq(mem_stat(&r, "mem.l1d.requests"), 2);
    ck_assert_uint_eq(mem_stat(&r, "mem.l1d.latency"), 47 + 47);
    ck_assert_uint_eq(r.done[1], 47);
    ck_assert_uint_eq(r.done[2], 90);
    ck_assert_uint_eq(mem_stat(&r, "mem.l1d.sm0.resfail"), 42);
    mem_close(&r);
}
END_TEST

/* hier_refused_retry's refusal, sticky (gpu_mem.h): refused at 1 from
 * the 1-MSHR L1 (its one MSHR holds 0x000's miss), the SM's state does
 * not change until that line's fill at 43 (the reply leaves the L1 at
 * 47, after its 4-cycle hit latency), so the memory system calls the
 * sender back (cookie GPU_MEM_RETRY) at 43 and not before; the 41
 * offers of 2..42 the sender did not make count as refusals, 42 as
 * when it made them; at 43 the request is taken. */
START_TEST(hier_sticky_refusal)
{
    static const char *const x[] = {"l1d.mshrs=1"};
    MemRun r;
    mem_open(&r, x, 1);
    ck_assert_msg(r.m, "%s", r.h.err);
    ck_assert(r.ops->sticky && r.ops->refused_again);
    mem_send(&r, 0, 0x000, GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL, 1, 0);
    GpuMemReq q = {.addr = 0x1000, .size = 4, .kind = GPU_MEM_READ,
                   .space = PTXEMU_TM_SPACE_GLOBAL, .sm = 0, .cookie = 2};
    r.ops->advance(r.m, 1);
    ck_assert(!r.ops->send(r.m, &q, 1));
    ck_assert(r.ops->sticky(r.m, 0));
    for (uint64_t t = 2; t <= 42; t++) {
        r.ops->advance(r.m, t);
        ck_assert_msg(r.done[GPU_MEM_RETRY] == 0, "called back at %llu",
                      (unsigned long long)t);
    }
    r.ops->refused_again(r.m, 0, 41);
    ck_assert_uint_eq(mem_stat(&r, "mem.l1d.sm0.resfail"), 42);
    r.ops->advance(r.m, 43);
    ck_assert_uint_eq(r.done[GPU_MEM_RETRY], 43);
    ck_assert(r.ops->send(r.m, &q, 43));
    mem_drain(&r);
    ck_assert_uint_eq(r.done[1], 47);
    ck_assert_uint_eq(r.done[2], 90);
    ck_assert_uint_eq(mem_stat(&r, "mem.l1d.sm0.resfail"), 42);
    mem_close(&r);
}
END_TEST

/* Traffic per level, counted by hand on hier_latencies' trace plus a
 * write: SM0 writes 0x100 at 500 (partition 1: bytes 256..511).  Every
 * access touches one 32-byte sector.
 *  l1d: SM0 reads 0x000, 0x004, 0x020 and writes 0x100 (4 x 32 = 128);
 *       SM1 reads 0x000 and its atomic (64); 192 in all, 6 requests.
 *       Latencies: 47, 20, 4, 35, 21 (hier_latencies), and the write:
 *       through the L1 (leaves at 501), 8 + 32 bytes = 2 flits (arrive
 *       at 504), written into the write-back L2 (answered at 514), a
 *       1-flit acknowledgement (516), passed up at once: 16.  Sum 143.
 *  l2:  partition 0: the cold read, SM1's read, the sector miss and the
 *       atomic (4 accesses, 128 bytes); partition 1: the write (1, 32).
 *  dram: partition 0 reads two sectors, one 32-byte burst each (64);
 *       partition 1 nothing (the write stays in the write-back L2).
 *  Bank 0 of partition 0 (0x000 and 0x020 share row 0): one ACT, a row
 *  miss and then a row hit. */
START_TEST(hier_bytes_per_level)
{
    static const char *const x[] = {"dram.bank_stats=true"};
    MemRun r;
    mem_open(&r, x, 1);
    ck_assert_msg(r.m, "%s", r.h.err);
    mem_send(&r, 0, 0x000, GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL, 1, 0);
    mem_send(&r, 1, 0x000, GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL, 2, 100);
    mem_send(&r, 0, 0x004, GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL, 3, 200);
    mem_send(&r, 0, 0x020, GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL, 4, 300);
    mem_send(&r, 1, 0x000, GPU_MEM_ATOMIC, PTXEMU_TM_SPACE_GLOBAL, 5, 400);
    mem_send(&r, 0, 0x100, GPU_MEM_WRITE, PTXEMU_TM_SPACE_GLOBAL, 6, 500);
    mem_drain(&r);
    ck_assert_uint_eq(r.done[6], 516);
    static const struct {
        const char *name;
        uint64_t v;
    } want[] = {
        {"mem.l1d.bytes", 192},        {"mem.l1d.sm0.bytes", 128},
        {"mem.l1d.sm1.bytes", 64},     {"mem.l1d.requests", 6},
        {"mem.l1d.latency", 143},      {"mem.l1d.access", 6},
        {"mem.l1d.hit", 1},            {"mem.l2.bytes", 160},
        {"mem.l2.p0.bytes", 128},      {"mem.l2.p1.bytes", 32},
        {"mem.l2.p0.access", 4},       {"mem.l2.p1.access", 1},
        {"mem.l2.p0.hit", 2},          {"mem.l2.p1.miss", 1},
        {"mem.dram.bytes", 64},        {"mem.dram.p0.bytes", 64},
        {"mem.dram.p1.bytes", 0},      {"mem.dram.p0.reads", 2},
        {"mem.dram.p0.bank0.act", 1},  {"mem.dram.p0.bank0.row_miss", 1},
        {"mem.dram.p0.bank0.row_hit", 1},
        {"mem.dram.p0.bank1.act", 0},
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        uint64_t v = mem_stat(&r, want[k].name);
        ck_assert_msg(v == want[k].v, "%s: %llu, want %llu", want[k].name,
                      (unsigned long long)v, (unsigned long long)want[k].v);
    }
    mem_close(&r);
}
END_TEST

/* TLB walks through the memory system: tlb.walk_levels = 2, the page
 * table at 0x100 (partition 1: bytes 256..511 of each 512).  SM0 reads
 * 0x000 at 0 (page 0): the TLB misses; the walker reads
 *  level 0 at 0x100 (partition 1, local address 0: bank 0, row 0): sent
 *    at 0, a 1-flit request arrives at 2, the L2 misses (leaves at 3),
 *    ACT @3, RD @15, data at 29, L2 fill + 10 = 39, a 2-flit reply
 *    arrives at 42;
 *  level 1 at 0x100 + 2^32 (chunk 2^24 + 1: partition 1, local 2^31:
 *    bank 0, row 2^16, another row of the same bank): sent at 42,
 *    arrives 44, L2 miss at 45; PRE @45 (tRAS from 3 and tRTP from 15
 *    long past), ACT @57 (tRP 12), RD @69, data 83, L2 93, back at 96.
 * The translation is installed at 96 and the read enters the L1: the
 * cold path of hier_latencies (47): 143.  A second read of the page at
 * 200 (0x020, a sector miss, a DRAM row hit in partition 0): no walk,
 * 35 -> 235. */
START_TEST(hier_tlb_walk)
{
    static const char *const x[] = {"tlb.on=true", "tlb.walk_levels=2",
                                    "tlb.pt_base=0x100"};
    MemRun r;
    mem_open(&r, x, 3);
    ck_assert_msg(r.m, "%s", r.h.err);
    mem_send(&r, 0, 0x000, GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL, 1, 0);
    mem_drain(&r);
    ck_assert_uint_eq(r.done[1], 143);
    mem_send(&r, 0, 0x020, GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL, 2, 200);
    mem_drain(&r);
    ck_assert_uint_eq(r.done[2], 235);
    ck_assert_uint_eq(mem_stat(&r, "mem.tlb.miss"), 1);
    ck_assert_uint_eq(mem_stat(&r, "mem.tlb.walks"), 1);
    ck_assert_uint_eq(mem_stat(&r, "mem.tlb.l1_hit"), 1);
    ck_assert_uint_eq(mem_stat(&r, "mem.walk.requests"), 2);
    ck_assert_uint_eq(mem_stat(&r, "mem.walk.latency"), 42 + 54);
    ck_assert_uint_eq(mem_stat(&r, "mem.l2.p1.miss"), 2);
    ck_assert_uint_eq(mem_stat(&r, "mem.dram.p1.row_conflict"), 1);
    mem_close(&r);
}
END_TEST

/* Latency by position: icnt.hop_lat = 3, one SM per port: ports 0 and
 * 1 (SM0, SM1), partitions at 0 x 2 / 2 = 0 and 1 x 2 / 2 = 1.  SM0's
 * cold read of 0x000 (partition 0, distance 0): 47 as in
 * hier_latencies.  SM1 reads 0x000 at 100 (distance 1): the L2 hit's
 * 20 plus 3 each way: 126.  SM0 reads 0x100 at 200 (partition 1,
 * distance 1, its own channel cold): 47 + 6 -> 253. */
START_TEST(hier_position_latency)
{
    static const char *const x[] = {"icnt.hop_lat=3"};
    MemRun r;
    mem_open(&r, x, 1);
    ck_assert_msg(r.m, "%s", r.h.err);
    mem_send(&r, 0, 0x000, GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL, 1, 0);
    mem_drain(&r);
    mem_send(&r, 1, 0x000, GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL, 2, 100);
    mem_drain(&r);
    mem_send(&r, 0, 0x100, GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL, 3, 200);
    mem_drain(&r);
    ck_assert_uint_eq(r.done[1], 47);
    ck_assert_uint_eq(r.done[2], 126);
    ck_assert_uint_eq(r.done[3], 253);
    mem_close(&r);
}
END_TEST

/* ld.global.cv (no allocation in the L1 nor the L2): SM0 reads 0x000 at
 * 0 around both: the DRAM path of hier_latencies without either hit
 * latency (the replies pass up as they come): 47 - 10 - 4 = 33.  A
 * plain read of it at 100 misses both again (nothing was allocated):
 * the DRAM row is open: 35 -> 135. */
START_TEST(hier_no_alloc_read)
{
    MemRun r;
    mem_open(&r, NULL, 0);
    ck_assert_msg(r.m, "%s", r.h.err);
    GpuMemReq q = {.addr = 0x000, .size = 4, .kind = GPU_MEM_READ,
                   .space = PTXEMU_TM_SPACE_GLOBAL, .sm = 0, .cookie = 1,
                   .hint = gpu_cache_hint("ld.global.cv.u32 %r1, [%rd1];")};
    r.ops->advance(r.m, 0);
    ck_assert(r.ops->send(r.m, &q, 0));
    mem_drain(&r);
    ck_assert_uint_eq(r.done[1], 33);
    mem_send(&r, 0, 0x000, GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL, 2, 100);
    mem_drain(&r);
    ck_assert_uint_eq(r.done[2], 135);
    ck_assert_uint_eq(mem_stat(&r, "mem.l2.miss"), 2);
    ck_assert_uint_eq(mem_stat(&r, "mem.l1d.miss"), 2);
    ck_assert_uint_eq(mem_stat(&r, "mem.dram.row_hit"), 1);
    mem_close(&r);
}
END_TEST

/* The carve-out: a 2 KB array shared by a 2-way L1 of 128-byte lines
 * and shared memory of 0 or 1 KB.  SM0 reads 0x000 (cold: 47), 0x200
 * at 100 and 0x400 at 200 (both partition 0, bank 0, row 0: row hits,
 * 35 each), then 0x000 again at 300.  With 8 sets (no shared memory)
 * 0x000 and 0x400 share set 0 and 0x200 is in set 4: an L1 hit, 304.
 * With 4 sets (1 KB of shared memory) all three are in set 0 and the
 * LRU one, 0x000, went: an L2 hit, 320.  The shared part is 1 KB when
 * the kernel's CTAs hold 512 bytes (the smallest capacity that holds
 * them), when they would hold more than any capacity (the largest),
 * and when 100% is preferred; 0 otherwise. */
START_TEST(hier_carveout)
{
    static const struct {
        const char *pref;
        uint64_t shared, want;
    } t[] = {
        {"l1d.carveout=-1", 0, 304},   {"l1d.carveout=-1", 512, 320},
        {"l1d.carveout=-1", 4096, 320}, {"l1d.carveout=100", 0, 320},
        {"l1d.carveout=0", 0, 304},
    };
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
        const char *const x[] = {"l1d.ways=2", "l1d.unified=2k",
                                 "l1d.carveouts=0,1", t[k].pref};
        MemRun r;
        mem_open(&r, x, 4);
        ck_assert_msg(r.m, "%s", r.h.err);
        GpuMemKernel mk = {.shared = t[k].shared, .carveout = -1};
        r.ops->kernel_begin(r.m, 0, &mk);
        mem_send(&r, 0, 0x000, GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL, 1, 0);
        mem_send(&r, 0, 0x200, GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL, 2,
                 100);
        mem_send(&r, 0, 0x400, GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL, 3,
                 200);
        mem_send(&r, 0, 0x000, GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL, 4,
                 300);
        mem_drain(&r);
        ck_assert_uint_eq(r.done[1], 47);
        ck_assert_uint_eq(r.done[2], 135);
        ck_assert_uint_eq(r.done[3], 235);
        ck_assert_msg(r.done[4] == t[k].want, "case %zu: %llu", k,
                      (unsigned long long)r.done[4]);
        mem_close(&r);
    }
}
END_TEST

/* Constants in a cache of their own in the partitions (mem.ci_l3, GT200's
 * L3; l3ci.lat 10 here), not the L2 slice.  SM0 reads the constant at
 * 0x1000 at 0: the constant L1 misses (leaves at 1), a 1-flit request
 * reaches partition 0 at 3, the L3 misses (leaves at 4), the channel
 * (bank 1, closed): ACT @4, RD @16, data at 30, the L3 answers at 40, a
 * 2-flit reply arrives at 43, the constant L1's hit latency 8: 51.  SM1
 * reads it at 100: an L3 hit: 1 + 2 + 10 + 3 + 8 -> 124. */
START_TEST(hier_ci_l3)
{
    static const char *const x[] = {"mem.ci_l3=true", "l3ci.lat=10"};
    MemRun r;
    mem_open(&r, x, 2);
    ck_assert_msg(r.m, "%s", r.h.err);
    mem_send(&r, 0, 0x1000, GPU_MEM_READ, PTXEMU_TM_SPACE_CONST, 1, 0);
    mem_drain(&r);
    mem_send(&r, 1, 0x1000, GPU_MEM_READ, PTXEMU_TM_SPACE_CONST, 2, 100);
    mem_drain(&r);
    ck_assert_uint_eq(r.done[1], 51);
    ck_assert_uint_eq(r.done[2], 124);
    ck_assert_uint_eq(mem_stat(&r, "mem.l3ci.miss"), 1);
    ck_assert_uint_eq(mem_stat(&r, "mem.l3ci.hit"), 1);
    ck_assert_uint_eq(mem_stat(&r, "mem.l2.access"), 0);
    mem_close(&r);
}
END_TEST

/* Constant misses through a cache shared by the SMs of a TPC
 * (mem.tpc_ci, GT200's L2; l2ci.lat 5).  SM0 reads the constant at
 * 0x1000 at 0: its L1 misses (the miss leaves at 1), the TPC's cache
 * misses (leaves at 2), the request reaches partition 0 at 4, the L2
 * misses (5), ACT @5, RD @17, data at 31, the L2 answers at 41, the
 * reply reaches the TPC's cache at 44, which answers at 49, and the L1
 * 8 later: 57.  SM1 reads it at 100: its L1 misses (101); in SM0's TPC
 * (icnt.group 2) the shared cache hits: 106, the L1: 114.  In a TPC of
 * its own (icnt.group 1) it misses there too (102), the L2 hits: 104 +
 * 10, the reply 3, the TPC cache 5, the L1 8: 130. */
START_TEST(hier_tpc_ci)
{
    static const struct {
        const char *group;
        uint64_t want;
        uint64_t l2ci_hit;
    } t[] = {{"icnt.group=2", 114, 1}, {"icnt.group=1", 130, 0}};
    for (size_t k = 0; k < 2; k++) {
        const char *const x[] = {"mem.tpc_ci=true", "l2ci.lat=5",
                                 t[k].group};
        MemRun r;
        mem_open(&r, x, 3);
        ck_assert_msg(r.m, "%s", r.h.err);
        mem_send(&r, 0, 0x1000, GPU_MEM_READ, PTXEMU_TM_SPACE_CONST, 1, 0);
        mem_drain(&r);
        mem_send(&r, 1, 0x1000, GPU_MEM_READ, PTXEMU_TM_SPACE_CONST, 2,
                 100);
        mem_drain(&r);
        ck_assert_uint_eq(r.done[1], 57);
        ck_assert_uint_eq(r.done[2], t[k].want);
        ck_assert_uint_eq(mem_stat(&r, "mem.l2ci.hit"), t[k].l2ci_hit);
        ck_assert_uint_eq(mem_stat(&r, "mem.l2ci.miss"), 2 - t[k].l2ci_hit);
        mem_close(&r);
    }
}
END_TEST

/* GT200 keeps no global data in its partitions (l2.bypass=global): the
 * DRAM access of hier_latencies without the L2's lookup (1) and hit
 * latency (10): the request reaches the partition at 3 and the channel
 * at once: ACT @3, RD @15, data at 29, out at 29 (an L2 cycle), reply
 * crossbar 3, L1 4: 36.  Constant reads still use the L2. */
START_TEST(hier_l2_bypass)
{
    static const char *const x[] = {"l2.bypass=global"};
    MemRun r;
    mem_open(&r, x, 1);
    ck_assert_msg(r.m, "%s", r.h.err);
    mem_send(&r, 0, 0x000, GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL, 1, 0);
    mem_drain(&r);
    ck_assert_uint_eq(r.done[1], 36);
    ck_assert_uint_eq(mem_stat(&r, "mem.l2.access"), 0);
    mem_send(&r, 0, 0x4000, GPU_MEM_READ, PTXEMU_TM_SPACE_CONST, 2, 100);
    mem_drain(&r);
    ck_assert_uint_eq(mem_stat(&r, "mem.l2.miss"), 1);
    mem_close(&r);
}
END_TEST

/* Stress: 4 SMs with tiny queues everywhere (so every refusal and every
 * sleeping-on-back-pressure path is taken) and a pseudo-random mix of
 * reads, writes, atomics, constant, texture and instruction reads over
 * 64 KB.  The driver offers each SM's next request every cycle while it
 * has fewer than 4 outstanding.  Run twice: advancing every cycle, and
 * jumping to next() whenever no SM has anything to offer.  Every request
 * must be answered exactly once, and at the same cycle in both runs (a
 * next() that skipped work would show as a later reply). */
#define STRESS_N 600
#define STRESS_SMS 4

typedef struct Stress {
    uint64_t done[STRESS_N];
    uint32_t out[STRESS_SMS];
    uint32_t ndone;
} Stress;

static void stress_done(void *ctx, uint32_t sm, uint64_t cookie,
                        uint64_t cycle)
{
    Stress *st = ctx;
    ck_assert_uint_lt(cookie, STRESS_N);
    ck_assert_uint_eq(st->done[cookie], 0);
    st->done[cookie] = cycle + 1;       /* 0: not answered */
    st->out[sm]--;
    st->ndone++;
}

static void stress_run(const char *const *set, size_t nset, bool jump,
                       Stress *st)
{
    TmRegHost h;
    char err[256];
    ck_assert_int_eq(tm_reghost_init(&h), 0);
    static const char *const tiny[] = {
        "mem.parts=2", "map.hash=xor", "icnt.inbuf=2", "icnt.outbuf=3",
        "l1d.sets=4", "l1d.ways=2", "l1d.mshrs=2", "l1d.merge=2",
        "l1d.missq=2", "l1d.outq=2", "l1d.banks=2", "l2.sets=8",
        "l2.ways=2", "l2.mshrs=2", "l2.missq=2", "l2.outq=2",
        "dram.rdq=2", "dram.wrq=2", "dram.mhz=700", "l2.mhz=900",
        "icnt.mhz=1100", "dram.tREFI=300", "dram.tRFC=20",
        "mem.direct_q=2", "l1t.line=32",
    };
    for (size_t i = 0; i < sizeof tiny / sizeof tiny[0]; i++) {
        ck_assert_int_eq(tm_params_set(h.p, tiny[i], err, sizeof err), 0);
    }
    for (size_t i = 0; i < nset; i++) {
        ck_assert_int_eq(tm_params_set(h.p, set[i], err, sizeof err), 0);
    }
    const GpuMemOps *ops = gpu_mem_find("hier");
    memset(st, 0, sizeof *st);
    void *m = ops->create(&tm_reghost_api, &h, STRESS_SMS, 1000.0,
                          stress_done, st);
    ck_assert_msg(m, "%s", h.err);
    GpuMemKernel mk = {.carveout = -1};
    ops->kernel_begin(m, 0, &mk);
    uint32_t next[STRESS_SMS] = {0, 1, 2, 3};   /* request index */
    uint64_t rng = 12345, t = 0;
    GpuMemReq q[STRESS_N];
    for (uint32_t i = 0; i < STRESS_N; i++) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t r = (uint32_t)(rng >> 33);
        static const struct {
            uint8_t kind, space;
        } mix[8] = {
            {GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL},
            {GPU_MEM_READ, PTXEMU_TM_SPACE_GLOBAL},
            {GPU_MEM_READ, PTXEMU_TM_SPACE_LOCAL},
            {GPU_MEM_WRITE, PTXEMU_TM_SPACE_GLOBAL},
            {GPU_MEM_ATOMIC, PTXEMU_TM_SPACE_GLOBAL},
            {GPU_MEM_READ, PTXEMU_TM_SPACE_CONST},
            {GPU_MEM_READ, PTXEMU_TM_SPACE_TEX},
            {GPU_MEM_FETCH, PTXEMU_TM_SPACE_NONE},
        };
        q[i] = (GpuMemReq){.addr = (r % 65536) & ~3u, .size = 4,
                           .sectors = (uint8_t)(1 + (r >> 16) % 15),
                           .kind = mix[(r >> 20) % 8].kind,
                           .space = mix[(r >> 20) % 8].space,
                           .sm = i % STRESS_SMS, .cookie = i};
    }
    while (st->ndone < STRESS_N) {
        ck_assert_msg(t < 200000, "stuck: %u of %u answered (%s, %s)",
                      st->ndone, STRESS_N, set[0], jump ? "jump" : "step");
        ops->advance(m, t);
        bool offering = false;
        for (uint32_t s = 0; s < STRESS_SMS; s++) {
            if (next[s] >= STRESS_N || st->out[s] >= 4) {
                continue;
            }
            offering = true;
            if (ops->send(m, &q[next[s]], t)) {
                st->out[s]++;
                next[s] += STRESS_SMS;
            }
        }
        uint64_t n = ops->next(m);
        if (jump && !offering && n != GPU_NEVER && n > t) {
            t = n;
        } else {
            t++;
        }
    }
    ck_assert_uint_eq(ops->next(m), GPU_NEVER);
    ops->destroy(m);
    tm_reghost_fini(&h);
}

START_TEST(hier_stress_deterministic)
{
    static const char *const cfgs[][4] = {
        {"icnt.model=crossbar", "dram.sched=frfcfs", "tlb.on=false",
         "tlb.queue=2"},
        {"icnt.model=ideal", "dram.sched=fifo", "dram.policy=closed",
         "tlb.queue=2"},
        {"mem.l1d=false", "tlb.on=true", "map.hash=poly", "tlb.queue=2"},
        {"l2.repl=fifo", "l1d.write=back", "l1d.alloc=true", "tlb.queue=2"},
        {"l2.bypass=global,tex", "mem.l1d=false", "dram.policy=closed",
         "tlb.queue=2"},
        {"icnt.hop_lat=5", "icnt.group=3", "icnt.model=crossbar",
         "tlb.queue=2"},
        {"icnt.hop_lat=4", "icnt.group=2", "icnt.model=ideal",
         "tlb.queue=2"},
        {"mem.ci_l3=true", "l3ci.mshrs=1", "l3ci.outq=1",
         "tlb.queue=2"},
        {"mem.tpc_ci=true", "icnt.group=2", "l2ci.mshrs=1",
         "l2ci.outq=1"},
        /* walks through memory: 1 KB pages, a 2-entry first level */
        {"tlb.on=true", "tlb.walk_levels=3", "tlb.page=1k",
         "tlb.l1.ways=2"},
    };
    static Stress a, b;
    for (size_t k = 0; k < sizeof cfgs / sizeof cfgs[0]; k++) {
        stress_run(cfgs[k], 4, false, &a);
        stress_run(cfgs[k], 4, true, &b);
        ck_assert_uint_eq(a.ndone, STRESS_N);
        for (uint32_t i = 0; i < STRESS_N; i++) {
            ck_assert_msg(a.done[i] == b.done[i],
                          "config %zu request %u: %llu stepping, %llu "
                          "jumping", k, i,
                          (unsigned long long)a.done[i],
                          (unsigned long long)b.done[i]);
        }
    }
}
END_TEST

/* Configuration errors are messages, not crashes. */
START_TEST(hier_bad_config)
{
    static const struct {
        const char *set, *want;
    } t[] = {
        {"dram.preset=ddr9", "unknown preset 'ddr9'"},
        {"icnt.model=mesh", "icnt.model: 'mesh' is not one of"},
        {"l1d.line=96", "l1d: line size must be a power of two"},
        {"l2.bypass=global,data", "l2.bypass: 'data' is not one of"},
        {"map.hash=poly", NULL},        /* 2 partitions: fine */
        {"mem.parts=3", NULL},          /* linear: any count */
        {"l1d.unified=128k", "l1d.unified needs l1d.carveouts"},
        {"l1d.carveouts=0,8,x", "l1d.carveouts: up to 16"},
        {"l1d.carveout=101", "l1d.carveout: a percentage"},
        {"icnt.group=0", "icnt.group at least 1"},
        {"tlb.walk_levels=8", "tlb.walk_levels at most 7"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        MemRun r;
        mem_open(&r, &t[i].set, 1);
        if (t[i].want) {
            ck_assert_ptr_null(r.m);
            ck_assert_msg(strstr(r.h.err, t[i].want), "%s: %s", t[i].set,
                          r.h.err);
        } else {
            ck_assert_msg(r.m, "%s: %s", t[i].set, r.h.err);
        }
        mem_close(&r);
    }
    ck_assert_ptr_null(gpu_mem_find("perfect"));
}
END_TEST

/* dram.model's registry: the built-in channel first (the default), the
 * fixed-latency model by name, nothing for an unknown name; the fixed
 * model's answers at the cycles dram_fixed.c promises, worked out by
 * hand: a read CL + tBURST + path_lat = 20 + 4 + 3 = 27 cycles after it
 * arrives, a write WL + tBURST + path_lat = 7 + 4 + 3 = 14, at most rdq
 * reads and wrq writes held. */
START_TEST(dram_model_fixed_by_name)
{
    ck_assert_str_eq(dram_models[0]->name, "channel");
    ck_assert_ptr_eq(dram_model_find("channel"), dram_models[0]);
    ck_assert_ptr_null(dram_model_find("ramulator2"));
    const DramOps *o = dram_model_find("fixed");
    ck_assert_ptr_eq(o, &dram_model_fixed);

    DramCfg c = {.rdq = 0, .wrq = 1, .path_lat = 3};
    DramStats st = {0}, sum = {0};
    char err[128] = "";
    ck_assert_ptr_null(o->make(&c, &st, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "queue"));
    c.rdq = 2;
    c.t[DT_CL] = 20;
    c.t[DT_WL] = 7;
    c.t[DT_BURST] = 4;
    void *d = o->make(&c, &st, err, sizeof err);
    ck_assert_ptr_nonnull(d);
    o->set_sum(d, &sum);
    ck_assert_ptr_null(o->bank_stats(d));
    ck_assert_uint_eq(o->next(d), MEM_NEVER);

    MemMsg r1 = msg(0x000, 0x1, GPU_MEM_READ, 1);
    MemMsg r2 = msg(0x100, 0x3, GPU_MEM_READ, 2);
    MemMsg r3 = msg(0x200, 0x1, GPU_MEM_READ, 3);
    MemMsg w4 = msg(0x300, 0x1, GPU_MEM_WRITE, 4);
    MemMsg w5 = msg(0x400, 0x1, GPU_MEM_WRITE, 5);
    w5.flags |= MEM_F_NOREPLY;
    ck_assert(o->accept(d, &r1, 0, 0, 10));
    ck_assert(o->accept(d, &r2, 5, 9, 11));
    ck_assert(o->refuse_full(d, &r3, 12));          /* rdq = 2 held */
    ck_assert(!o->accept(d, &r3, 0, 0, 12));
    ck_assert(o->accept(d, &w4, 0, 0, 12));
    ck_assert(!o->accept(d, &w5, 0, 0, 13));        /* wrq = 1 held */
    ck_assert_uint_eq(o->next(d), 26);
    ck_assert_ptr_null(o->out_peek(d, 25));
    ck_assert_uint_eq(o->out_peek(d, 26)->tag, 4);
    o->out_pop(d);
    ck_assert(o->accept(d, &w5, 0, 0, 26));         /* counted only */
    ck_assert_uint_eq(o->next(d), 37);
    ck_assert_ptr_null(o->out_peek(d, 36));
    ck_assert_uint_eq(o->out_peek(d, 37)->tag, 1);
    o->out_pop(d);
    ck_assert(o->accept(d, &r3, 0, 0, 37));
    ck_assert_uint_eq(o->out_peek(d, 38)->tag, 2);
    o->out_pop(d);
    ck_assert_uint_eq(o->next(d), 64);
    ck_assert_uint_eq(o->out_peek(d, 64)->tag, 3);
    o->out_pop(d);
    ck_assert_uint_eq(o->next(d), MEM_NEVER);
    ck_assert_uint_eq(st.reads, 3);
    ck_assert_uint_eq(st.writes, 2);
    ck_assert_uint_eq(st.refused, 3);
    ck_assert_uint_eq(st.bytes, 6 * GPU_SECTOR);
    ck_assert_uint_eq(st.act, 0);
    ck_assert_mem_eq(&st, &sum, sizeof st);
    o->free(d);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("gpu_mem");
    TCase *tc = tcase_create("cache");
    tcase_add_test(tc, cache_l1_trace);
    tcase_add_test(tc, cache_wb_fifo_trace);
    tcase_add_test(tc, cache_split_and_bad_geometry);
    tcase_add_test(tc, cache_partition_index);
    tcase_add_test(tc, cache_hint_table);
    tcase_add_test(tc, cache_stream_and_no_alloc);
    suite_add_tcase(s, tc);
    tc = tcase_create("addrmap");
    tcase_add_test(tc, addrmap_linear);
    tcase_add_test(tc, addrmap_xor_poly);
    tcase_add_test(tc, addrmap_three_parts);
    suite_add_tcase(s, tc);
    tc = tcase_create("dram");
    tcase_add_test(tc, dram_frfcfs_timeline);
    tcase_add_test(tc, dram_fifo_closed);
    tcase_add_test(tc, dram_refresh);
    tcase_add_test(tc, dram_write_turnaround);
    tcase_add_test(tc, dram_presets_sane);
    tcase_add_test(tc, dram_faw_and_bank_stats);
    tcase_add_test(tc, dram_model_fixed_by_name);
    suite_add_tcase(s, tc);
    tc = tcase_create("xbar");
    tcase_add_test(tc, xbar_two_source_conflict);
    tcase_add_test(tc, xbar_ideal);
    suite_add_tcase(s, tc);
    tc = tcase_create("tlb");
    tcase_add_test(tc, tlb_trace);
    suite_add_tcase(s, tc);
    tc = tcase_create("hier");
    tcase_add_test(tc, hier_latencies);
    tcase_add_test(tc, hier_clock_domains);
    tcase_add_test(tc, hier_no_l1);
    tcase_add_test(tc, hier_tlb);
    tcase_add_test(tc, hier_tlb_walk);
    tcase_add_test(tc, hier_position_latency);
    tcase_add_test(tc, hier_no_alloc_read);
    tcase_add_test(tc, hier_carveout);
    tcase_add_test(tc, hier_ci_l3);
    tcase_add_test(tc, hier_tpc_ci);
    tcase_add_test(tc, hier_l2_bypass);
    tcase_add_test(tc, hier_refused_retry);
    tcase_add_test(tc, hier_sticky_refusal);
    tcase_add_test(tc, hier_bytes_per_level);
    tcase_add_test(tc, hier_stress_deterministic);
    tcase_add_test(tc, hier_bad_config);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
