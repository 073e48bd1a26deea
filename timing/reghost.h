/*
 * timing/reghost.h: a host for a timing model's parts outside a launch
 * (unit tests, benchmarks): a ptxemu_tm_host_api whose parameter and
 * statistics services are the real registries (params.c, statreg.c);
 * every other service is absent (NULL).  Values are given with
 * tm_params_set on `p` before the part is created; a part's error text
 * lands in `err`.
 */
#ifndef PTXEMU_TIMING_REGHOST_H
#define PTXEMU_TIMING_REGHOST_H

#include "timing/tm.h"

struct ptxemu_tm_host {
    TmParams *p;
    TmStats *s;
    char err[256];
};
typedef struct ptxemu_tm_host TmRegHost;

extern const ptxemu_tm_host_api tm_reghost_api;
/* 0, or -1 when out of memory. */
int tm_reghost_init(TmRegHost *h);
void tm_reghost_fini(TmRegHost *h);
/* A registered counter's delta since registration; false if absent. */
bool tm_reghost_stat(const TmRegHost *h, const char *path, uint64_t *out);

#endif
