/*
 * tests/check_gpu_mem.c: the components of the `gpu` model's `hier`
 * memory system (timing/gpu/mem/), each on a trace worked out by hand
 * from the rules at the top of its header; the comments show the work.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing/gpu/mem/cache.h"

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

static Suite *suite(void)
{
    Suite *s = suite_create("gpu_mem");
    TCase *tc = tcase_create("cache");
    tcase_add_test(tc, cache_l1_trace);
    tcase_add_test(tc, cache_wb_fifo_trace);
    tcase_add_test(tc, cache_split_and_bad_geometry);
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
