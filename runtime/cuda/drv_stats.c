/*
 * runtime/cuda/drv_stats.c: what the driver does at process exit:
 * device printf output still buffered appears (as when the real driver
 * tears its context down), and with PTXEMU_STATS=FILE the execution
 * statistics of the whole process go to FILE as JSON (the writer of
 * `ptxemu run --stats`).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cuda/drv.h"
#include "runtime/cuda/drv_queue.h"
#include "runtime/stats.h"

static void write_stats(void);

void drv_at_exit(void)
{
    if (!drv.dev || drv.forked_broken) {
        return;
    }
    /* Work still queued finishes first, as the context's destruction
     * at exit would have it. */
    drv_queue_sync_ctx(NULL);
    (void)ptxemu_synchronize(drv.dev);
    fflush(stdout);
    write_stats();
    drv_queue_stop();
    drv_sanitize_exit();
}

/* PTXEMU_STATS=FILE */
static void write_stats(void)
{
    const char *file = getenv("PTXEMU_STATS");
    if (!file || !*file) {
        return;
    }
    FILE *fp = fopen(file, "w");
    if (!fp) {
        fprintf(stderr, "ptxemu: PTXEMU_STATS=%s: %s\n", file,
                strerror(errno));
        return;
    }
    rt_stats_write_json(fp, drv.dev, NULL, NULL, NULL);
    if (fclose(fp) != 0) {
        fprintf(stderr, "ptxemu: PTXEMU_STATS=%s: %s\n", file,
                strerror(errno));
    }
}
