/*
 * tests/check_timing_intervals.c: the per-interval CSV of a model's
 * counters (timing/intervals.c), driven directly with hand-made counter
 * changes; every expected row below is worked out by hand from the
 * attribution rules of timing/intervals.h.
 *
 *  - spread: a call that jumps over row boundaries spreads its gains by
 *    cycles (floor(g*C_j/L) differences), a call inside a row adds to it,
 *    a call of no time adds to the row of the last elapsed cycle, the
 *    last row is short.
 *  - boundary: a call ending exactly on a boundary leaves that row open
 *    until time passes; an empty kernel has one row of 0 cycles; launch
 *    numbers count on; a counter registered mid-kernel gets a new header.
 *  - open errors: a file that cannot be created is a message naming it.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/testutil.h"
#include "timing/intervals.h"

Suite *timing_intervals_suite(void);

static char path[64];

static void setup(void)
{
    snprintf(path, sizeof path, "/tmp/ptxemu-iv-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
}

static void teardown(void)
{
    unlink(path);
}

static char *slurp(void)
{
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    static char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

START_TEST(spread)
{
    char err[256];
    TmIntervals *iv = tm_intervals_open(path, 10, err, sizeof err);
    ck_assert_ptr_nonnull(iv);
    TmStats *st = tm_stats_new();
    uint64_t a = 1000, b = 7, c = 0; /* values before the kernel */
    ck_assert_int_eq(tm_stats_add(st, "m.a", &a, ""), 0);
    ck_assert_int_eq(tm_stats_add(st, "m.b", &b, ""), 0);
    ck_assert_int_eq(tm_stats_add(st, "m.c", &c, ""), 0);
    tm_stats_mark(st);
    TmIvRun r;
    tm_iv_begin(iv, &r, st, "k", 100);
    a += 3; b += 5;                     /* [100, 103): row 0 */
    tm_iv_advance(iv, &r, st, 103);
    a += 32; c += 10;                   /* [103, 135): 7, 10, 10, 5 */
    tm_iv_advance(iv, &r, st, 135);
    b += 1;                             /* no time: row 3 (cycle 134) */
    tm_iv_advance(iv, &r, st, 135);
    a += 2;                             /* [135, 137): row 3 */
    tm_iv_end(iv, &r, st, 137);
    tm_intervals_close(iv);
    /* a: 3+7, 10, 10, 5+2; c: floor(10*7/32)=2, floor(10*17/32)-2=3,
     * floor(10*27/32)-5=3, 10-8=2 */
    ck_assert_str_eq(slurp(),
        "kernel,launch,cycle,cycles,m.a,m.b,m.c\n"
        "k,0,100,10,10,5,2\n"
        "k,0,110,10,10,0,3\n"
        "k,0,120,10,10,0,3\n"
        "k,0,130,7,7,1,2\n");
    tm_stats_free(st);
}
END_TEST

START_TEST(boundary)
{
    char err[256];
    TmIntervals *iv = tm_intervals_open(path, 4, err, sizeof err);
    ck_assert_ptr_nonnull(iv);
    TmStats *st = tm_stats_new();
    uint64_t a = 0, late = 50;
    ck_assert_int_eq(tm_stats_add(st, "m.a", &a, ""), 0);
    tm_stats_mark(st);
    TmIvRun r;
    tm_iv_begin(iv, &r, st, "first", 0);
    a += 4;                             /* [0, 4): row 0 exactly */
    tm_iv_advance(iv, &r, st, 4);
    a += 1;                             /* no time: still row 0 */
    tm_iv_advance(iv, &r, st, 4);
    a += 2;                             /* [4, 5): row 1 */
    tm_iv_advance(iv, &r, st, 5);
    tm_iv_end(iv, &r, st, 5);
    /* an empty kernel: one row of no cycles */
    tm_stats_mark(st);
    tm_iv_begin(iv, &r, st, "empty", 5);
    tm_iv_end(iv, &r, st, 5);
    /* a counter registered in kernel_begin counts from then */
    tm_stats_mark(st);
    tm_iv_begin(iv, &r, st, "x,\"y\"", 5);
    ck_assert_int_eq(tm_stats_add(st, "m.late", &late, ""), 0);
    late += 9;
    a += 8;                             /* [5, 13): 4, 4 */
    tm_iv_advance(iv, &r, st, 13);
    tm_iv_end(iv, &r, st, 13);
    tm_intervals_close(iv);
    /* late: 9 over 8 cycles: floor(9*4/8)=4, 9-4=5 */
    ck_assert_str_eq(slurp(),
        "kernel,launch,cycle,cycles,m.a\n"
        "first,0,0,4,5\n"
        "first,0,4,1,2\n"
        "empty,1,5,0,0\n"
        "kernel,launch,cycle,cycles,m.a,m.late\n"
        "\"x,\"\"y\"\"\",2,5,4,4,4\n"
        "\"x,\"\"y\"\"\",2,9,4,4,5\n");
    tm_stats_free(st);
}
END_TEST

START_TEST(open_errors)
{
    char err[256];
    ck_assert_ptr_null(tm_intervals_open("/nonexistent-dir/x.csv", 10, err,
                                         sizeof err));
    ck_assert_str_eq(err, "/nonexistent-dir/x.csv: No such file or "
                          "directory");
}
END_TEST

Suite *timing_intervals_suite(void)
{
    Suite *s = suite_create("timing_intervals");
    TCase *tc = tcase_create("rows");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, spread);
    tcase_add_test(tc, boundary);
    tcase_add_test(tc, open_errors);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(timing_intervals_suite());
}
