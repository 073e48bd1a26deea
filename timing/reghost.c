/*
 * timing/reghost.c: the parameters-and-statistics host (reghost.h).
 */
#include "timing/reghost.h"

#include <string.h>

static int r_declare(ptxemu_tm_host *h, const ptxemu_tm_param *t,
                     uint32_t n)
{
    return tm_params_declare(h->p, t, n, h->err, sizeof h->err);
}

static int64_t r_int(ptxemu_tm_host *h, const char *n)
{
    return tm_params_int(h->p, n);
}

static uint64_t r_uint(ptxemu_tm_host *h, const char *n)
{
    return tm_params_uint(h->p, n);
}

static double r_double(ptxemu_tm_host *h, const char *n)
{
    return tm_params_double(h->p, n);
}

static bool r_bool(ptxemu_tm_host *h, const char *n)
{
    return tm_params_bool(h->p, n);
}

static const char *r_string(ptxemu_tm_host *h, const char *n)
{
    return tm_params_string(h->p, n);
}

static int r_stat(ptxemu_tm_host *h, const char *path, const uint64_t *c,
                  const char *help)
{
    return tm_stats_add(h->s, path, c, help);
}

static void r_error(ptxemu_tm_host *h, const char *msg)
{
    snprintf(h->err, sizeof h->err, "%s", msg);
}

const ptxemu_tm_host_api tm_reghost_api = {
    .abi_version = PTXEMU_TM_ABI_VERSION,
    .struct_size = sizeof(ptxemu_tm_host_api),
    .declare_params = r_declare,
    .param_int = r_int,
    .param_uint = r_uint,
    .param_double = r_double,
    .param_bool = r_bool,
    .param_string = r_string,
    .stat = r_stat,
    .error = r_error,
};

int tm_reghost_init(TmRegHost *h)
{
    memset(h, 0, sizeof *h);
    h->p = tm_params_new();
    h->s = tm_stats_new();
    if (!h->p || !h->s) {
        tm_reghost_fini(h);
        return -1;
    }
    return 0;
}

void tm_reghost_fini(TmRegHost *h)
{
    tm_params_free(h->p);
    tm_stats_free(h->s);
    h->p = NULL;
    h->s = NULL;
}

bool tm_reghost_stat(const TmRegHost *h, const char *path, uint64_t *out)
{
    for (size_t k = 0; k < tm_stats_count(h->s); k++) {
        if (strcmp(tm_stats_name(h->s, k), path) == 0) {
            *out = tm_stats_delta(h->s, k);
            return true;
        }
    }
    return false;
}
