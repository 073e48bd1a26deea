/*
 * timing/intervals.h: the per-interval time series of a timing model's
 * counters (`--stats-interval N`, `--stats-csv FILE`), written by the
 * host for every model, built in or plug-in.
 *
 * The host sees time only through the model: each cycle() call moves the
 * device from cycle a to cycle b >= a, and whatever the model's counters
 * gained during the call happened over [a, b).  Kernel k's rows cover
 * [begin + j*N, begin + (j+1)*N), j = 0 .. ceil(cycles/N) - 1 (one row
 * of 0 cycles for a kernel of none); the last row may be shorter.
 *  - A call inside one row adds its gains to that row.
 *  - A call that crosses row boundaries (a model jumping over cycles in
 *    which nothing happens, as simple does) spreads each counter's gain
 *    over the rows in proportion to the cycles of [a, b) in each, in
 *    integers: row j gets floor(g*C_j/L) - floor(g*C_{j-1}/L), C_j the
 *    cycles of [a, b) up to the end of row j, L = b - a.  Exact for
 *    what accrues per cycle (stall cycles, resident warps) while nothing
 *    changes, deterministic, and each counter's column still sums to
 *    its --stats total.
 *  - A call that does not advance (the last one, kernel_end) adds to the
 *    row of the last cycle elapsed.
 * Every counter's column is its change since the kernel's
 * tm_stats_mark (statreg.c), the same quantity --stats reports, so the
 * columns of a kernel's rows sum to its --stats values.  A kernel that
 * fails (a guest fault, the model's error) still has its rows, up to
 * where it stopped; --stats leaves it out.
 *
 * CSV (RFC 4180, values never need quoting but kernel names are quoted
 * when they must be): a header line
 *     kernel,launch,cycle,cycles,<counter>,<counter>...
 * then rows: the kernel's name, its launch number (0, 1, ... over the
 * session), the device cycle the interval starts at, its length, and
 * each counter's gain.  A model that registers counters after the
 * first row (in kernel_begin) makes the host write a new header line
 * before its next row.
 */
#ifndef PTXEMU_TIMING_INTERVALS_H
#define PTXEMU_TIMING_INTERVALS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "timing/tm.h"

typedef struct TmIntervals TmIntervals;

/* Create (truncate) path for rows of n cycles.  NULL with a message
 * "PATH: reason" in err. */
TmIntervals *tm_intervals_open(const char *path, uint64_t n, char *err,
                               size_t errlen);
/* Flush and close; a write error is reported on stderr (the run's
 * results are not at stake). */
void tm_intervals_close(TmIntervals *iv);
uint64_t tm_intervals_length(const TmIntervals *iv);

/* One kernel's sampling state (a child grid timed inside its parent has
 * its own). */
typedef struct TmIvRun {
    const char *kernel;           /* not copied: lives as long as the run */
    uint64_t launch;
    uint64_t begin;               /* the kernel's first cycle */
    uint64_t at;                  /* gains are attributed up to here */
    uint64_t row;                 /* the open row */
    size_t nc, cap;
    uint64_t *prev;               /* counter deltas at `at` */
    uint64_t *acc;                /* the open row's gains */
    bool nomem;
} TmIvRun;

/* At the kernel's start, after tm_stats_mark. */
void tm_iv_begin(TmIntervals *iv, TmIvRun *r, const TmStats *st,
                 const char *kernel, uint64_t begin);
/* After a cycle() call that brought the device to `now`. */
void tm_iv_advance(TmIntervals *iv, TmIvRun *r, const TmStats *st,
                   uint64_t now);
/* Take the counters as they are now without attributing anything (after
 * a child grid's run, which marked them anew). */
void tm_iv_rebase(TmIvRun *r, const TmStats *st);
/* After kernel_end: the last rows, up to end; frees r's arrays. */
void tm_iv_end(TmIntervals *iv, TmIvRun *r, const TmStats *st,
               uint64_t end);

#endif
