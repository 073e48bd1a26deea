/*
 * timing/progress.h: the progress line of timed kernels on stderr
 * (`--progress`, README "Progress").
 *
 * While a kernel is simulated: its name, simulated cycles, warp
 * instructions, the simulation rate and, the grid's size being known,
 * the fraction of CTAs done and an estimate of the time left.  On a
 * terminal one line rewritten in place ("\r", erase to the end of the
 * line) at most every TM_PROGRESS_TTY_S seconds; elsewhere (a log file)
 * a new line at most every TM_PROGRESS_LOG_S seconds.  Then one
 * summary line per kernel.  The host wall clock is read only every
 * TM_PROGRESS_CHECK cycles or warp instructions, so the line costs
 * nothing measurable; it never changes what is simulated.
 * PTXEMU_PROGRESS_PERIOD (seconds, a decimal) overrides both periods
 * (tests use 0: an update at every check).
 */
#ifndef PTXEMU_TIMING_PROGRESS_H
#define PTXEMU_TIMING_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define TM_PROGRESS_CHECK 65536u
#define TM_PROGRESS_TTY_S 0.25
#define TM_PROGRESS_LOG_S 5.0

typedef struct TmProgress {
    FILE *out;
    bool tty;                     /* rewrite one line in place */
    double period;                /* seconds between updates */
} TmProgress;

/* Progress to out (stderr), as a terminal when tty. */
void tm_progress_init(TmProgress *p, FILE *out, bool tty);

typedef struct TmProgRun {
    const char *kernel;           /* not copied */
    uint64_t begin;               /* device cycle at the start */
    uint64_t nctas;               /* 0: unknown */
    uint64_t check_cycle, check_insns; /* when to read the clock next */
    double t0, last;              /* wall clock: start, last update */
    bool shown;                   /* an in-place line is on screen */
} TmProgRun;

void tm_progress_begin(const TmProgress *p, TmProgRun *r,
                       const char *kernel, uint64_t begin, uint64_t nctas);
/* Cheap: true when the clock is due to be read. */
static inline bool tm_progress_due(const TmProgRun *r, uint64_t now,
                                   uint64_t insns)
{
    return now >= r->check_cycle || insns >= r->check_insns;
}
/* Read the clock; print an update when the period has passed. */
void tm_progress_update(const TmProgress *p, TmProgRun *r, uint64_t now,
                        uint64_t insns, uint64_t ctas_done);
/* The summary line (ok false: the kernel failed). */
void tm_progress_end(const TmProgress *p, TmProgRun *r, uint64_t now,
                     uint64_t insns, uint64_t ctas_done, bool ok);

#endif
