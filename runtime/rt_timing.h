/*
 * runtime/rt_timing.h: the timing-model options a device keeps (the
 * timing, timing_config and timing_set fields of ptxemu_device_options),
 * the message of a failed ptxemu_device_create, and --timing-help.
 *
 * The device copies the option strings at create (the caller's may go
 * away); timing/host.c's session is opened from this copy.
 */
#ifndef PTXEMU_RUNTIME_RT_TIMING_H
#define PTXEMU_RUNTIME_RT_TIMING_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/ptxemu.h"
#include "timing/session.h"

typedef struct RtTiming {
    char *spec;                 /* NULL: untimed ("none" and "" too) */
    char *config;               /* NULL: no file */
    char **set;                 /* nset "key=value" strings */
    size_t nset;
    uint64_t interval;          /* stats_interval: 0 none */
    char *csv;                  /* stats_csv (NULL: the default) */
    ptxemu_progress progress;
} RtTiming;

/* The CSV file of --stats-interval when none is named. */
#define RT_STATS_CSV_DEFAULT "ptxemu-stats.csv"

/* Start what t asks of the open session tm: the interval CSV, the
 * progress line.  0, or -1 with the reason in the create error. */
int rt_timing_observe(const RtTiming *t, TmSession *tm);

/* Copy o's timing fields (those within o->size) into *t.  0, or -1 with
 * the reason in the thread's create error (out of memory, a NULL list
 * with a non-zero count). */
int rt_timing_copy(RtTiming *t, const ptxemu_device_options *o);
void rt_timing_free(RtTiming *t);

/* The thread's ptxemu_device_create_error(): set, and cleared at the
 * start of each create. */
void rt_create_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
void rt_create_error_clear(void);

/* The device's timing session (api.c), NULL when untimed: --stats
 * reports it (stats.c). */
TmSession *rt_device_timing(ptxemu_device *dev);

#endif
