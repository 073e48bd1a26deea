/*
 * runtime/cuda/drv_stats.c: PTXEMU_STATS=FILE, the execution statistics
 * of the whole process written as JSON at exit (the writer of
 * `ptxemu run --stats`).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cuda/drv.h"
#include "runtime/stats.h"

void drv_stats_at_exit(void)
{
    const char *file = getenv("PTXEMU_STATS");
    if (!file || !*file || !drv.dev) {
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
