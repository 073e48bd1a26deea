/*
 * tests/check_mbgeom.c: cache geometry inference from pointer-chasing
 * curves (bench/micro/geom.c).
 *
 * The reference is independent of the code under test: a direct
 * simulation, in this file, of the chase mb_chase.cu runs (a[i] = i + s
 * mod N, one pass to warm, then timed loads) on an LRU set-associative
 * cache of known geometry, giving each footprint's average latency.
 * The inferred capacity, line size, sets and ways must be exactly the
 * simulated cache's, for:
 *  - Wong et al.'s worked example (section III-C, Fig. 4): 384 B, 3-way,
 *    4 sets, 32-B lines;
 *  - GT200's texture L1 (Wong et al. Table/Fig. 11): 5 KB, 20-way, 32-B
 *    lines (8 sets);
 *  - GT200's constant L1 (Fig. 18): 2 KB, 4-way, 64-B lines, 8 sets;
 *  - an A100-like sector-free 128-B-line cache of 16 KB, 4-way;
 * with samples every stride and every two strides, and with +-0.3 cycle
 * noise (tolerance 0.5).  Curves without a step, without a plateau, or
 * sampled more coarsely than a line are refused with a reason.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench/micro/geom.h"
#include "tests/testutil.h"

Suite *mbgeom_suite(void);

#define HIT 10.0
#define MISS 410.0 /* a DRAM-like miss: steps well above the noise */

/* One LRU set-associative cache: tags[set][way], way 0 most recent. */
typedef struct Lru {
    uint64_t line, sets, ways;
    int64_t *tag;
} Lru;

static int lru_access(Lru *c, uint64_t addr)
{
    uint64_t ln = addr / c->line, set = ln % c->sets;
    int64_t *t = c->tag + set * c->ways;
    uint64_t w = 0;
    while (w < c->ways && t[w] != (int64_t)ln) {
        w++;
    }
    int hit = w < c->ways;
    if (!hit) {
        w = c->ways - 1; /* evict the least recent */
    }
    memmove(t + 1, t, w * sizeof *t);
    t[0] = (int64_t)ln;
    return hit;
}

/* The chase's average latency over footprint n with stride s. */
static double chase(uint64_t line, uint64_t sets, uint64_t ways, uint64_t n,
                    uint64_t s)
{
    Lru c = {line, sets, ways, malloc(sets * ways * sizeof(int64_t))};
    for (uint64_t k = 0; k < sets * ways; k++) {
        c.tag[k] = -1;
    }
    uint64_t words = n / 4, sw = s / 4, j = 0;
    uint64_t chain = (words + sw - 1) / sw;
    for (uint64_t k = 0; k < chain; k++) { /* warm */
        lru_access(&c, j * 4);
        j = (j + sw) % words;
    }
    uint64_t steps = chain * 2 > 512 ? chain * 2 : 512, hits = 0;
    for (uint64_t k = 0; k < steps; k++) {
        hits += (uint64_t)lru_access(&c, j * 4);
        j = (j + sw) % words;
    }
    free(c.tag);
    return (hits * HIT + (steps - hits) * MISS) / (double)steps;
}

typedef struct Case {
    uint64_t line, sets, ways, stride, sample;
} Case;

static const Case cases[] = {
    {32, 4, 3, 4, 4},       /* Wong Fig. 4 */
    {32, 4, 3, 8, 16},
    {32, 8, 20, 8, 8},      /* GT200 texture L1 */
    {64, 8, 4, 16, 16},     /* GT200 constant L1 */
    {64, 8, 4, 16, 32},
    {128, 32, 4, 32, 64},   /* 16 KB, 128-B lines */
};

static size_t curve(const Case *k, MbPoint *p, size_t cap, int noise)
{
    uint64_t size = k->line * k->sets * k->ways;
    uint64_t hi = size + 2 * k->line * k->sets;
    size_t n = 0;
    unsigned r = 12345;
    for (uint64_t fp = size / 2; fp <= hi && n < cap; fp += k->sample) {
        p[n].footprint = fp;
        p[n].latency = chase(k->line, k->sets, k->ways, fp, k->stride);
        if (noise) {
            r = r * 1103515245u + 12345u;
            p[n].latency += ((double)((r >> 16) % 61) - 30.0) / 100.0;
        }
        n++;
    }
    return n;
}

START_TEST(infer_exact)
{
    const Case *k = &cases[_i / 2];
    static MbPoint p[8192];
    size_t n = curve(k, p, 8192, _i % 2);
    MbGeom g;
    char why[256] = "";
    int rc = mb_geom_infer(p, n, 0.5, &g, why, sizeof why);
    ck_assert_msg(rc == 0, "case %d: %s", _i / 2, why);
    ck_assert_uint_eq(g.capacity, k->line * k->sets * k->ways);
    ck_assert_uint_eq(g.line, k->line);
    ck_assert_uint_eq(g.sets, k->sets);
    ck_assert_uint_eq(g.ways, k->ways);
    ck_assert(g.hit > HIT - 0.5 && g.hit < HIT + 0.5);
    /* past every step each line's first load misses and the rest of it
     * hits: about hit + (miss - hit) * stride / line */
    double plat = HIT + (MISS - HIT) * (double)k->stride / (double)k->line;
    ck_assert_msg(g.plateau > plat - 1.0 && g.plateau < plat + 1.0,
                  "plateau %.2f, want about %.2f", g.plateau, plat);
}
END_TEST

START_TEST(refusals)
{
    MbPoint p[64];
    MbGeom g;
    char why[256];
    /* flat: the cache is larger than the sweep */
    for (int i = 0; i < 64; i++) {
        p[i].footprint = 1024 + 64 * (uint64_t)i;
        p[i].latency = HIT;
    }
    ck_assert_int_eq(mb_geom_infer(p, 64, 0.5, &g, why, sizeof why), -1);
    ck_assert_msg(strstr(why, "never rises"), "%s", why);
    /* still rising at the end: no plateau */
    for (int i = 0; i < 64; i++) {
        p[i].latency = i < 8 ? HIT : HIT + (double)i;
    }
    ck_assert_int_eq(mb_geom_infer(p, 64, 0.5, &g, why, sizeof why), -1);
    ck_assert_msg(strstr(why, "no plateau"), "%s", why);
    /* too few points */
    ck_assert_int_eq(mb_geom_infer(p, 3, 0.5, &g, why, sizeof why), -1);
    /* a falling curve */
    for (int i = 0; i < 64; i++) {
        p[i].latency = i < 8 ? HIT : i < 20 ? MISS : i < 30 ? 50 : 60;
    }
    ck_assert_int_eq(mb_geom_infer(p, 64, 0.5, &g, why, sizeof why), -1);
    ck_assert_msg(strstr(why, "falls"), "%s", why);
    /* steps 32 B, then 64 B apart: not one line size */
    for (int i = 0; i < 64; i++) {
        p[i].footprint = 256 + 32 * (uint64_t)i;
        p[i].latency = i < 4 ? HIT : i < 5 ? 30 : i < 7 ? 50 : i < 10 ? 70
                                                                      : 90;
    }
    ck_assert_int_eq(mb_geom_infer(p, 64, 0.5, &g, why, sizeof why), -1);
    ck_assert_msg(strstr(why, "uneven"), "%s", why);
}
END_TEST

Suite *mbgeom_suite(void)
{
    Suite *s = suite_create("mbgeom");
    TCase *tc = tcase_create("infer");
    tcase_add_loop_test(tc, infer_exact, 0,
                        (int)(2 * sizeof cases / sizeof cases[0]));
    tcase_add_test(tc, refusals);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(mbgeom_suite());
}
