/*
 * tests/tmplug.c: tiny timing plug-ins for the loader's tests, one shared
 * object per TMPLUG_* variant (tests/Makefile.inc builds each):
 *   GOOD     a well-formed table (it times nothing: the loader only
 *            checks the table); init also checks that the host handed
 *            it a zero-filled table stamped with the host's version and
 *            size, and refuses (returns 5) otherwise
 *   NEWER    claims version PTXEMU_TM_ABI_VERSION + 1
 *   OLDER    claims version 0
 *   V1       claims version 1 (older than the host's, still accepted)
 *   V2       claims version 2 (the same), with version 1's table size
 *   NOSYM    exports no ptxemu_timing_plugin_init
 *   REFUSE   init returns 3
 *   NULLCB   leaves the required `cycle` callback NULL
 *   SMALL    claims a struct_size of 16 bytes
 *   NOSTART  create refuses (api->error), for --timing-help's note
 * create (GOOD) declares one more parameter, `late.width`, as a model
 * declares its components' tables (declare_params), and reads it; and
 * `more.depth` too when `name` is "more" (a component chosen by a
 * parameter).
 * Built against the public header only, as an out-of-tree plug-in is.
 */
#include <stddef.h>
#include <string.h>

#include "timing/ptxemu_timing.h"

#ifndef TMPLUG_NOSYM
static const ptxemu_tm_param late[] = {
    {"late.width", PTXEMU_TM_P_INT, "8", "declared at create"},
};
static const ptxemu_tm_param more[] = {
    {"more.depth", PTXEMU_TM_P_UINT, "3", "declared when name = more"},
};

static void *create(const ptxemu_tm_host_api *api, ptxemu_tm_host *h)
{
    static int instance;
#ifdef TMPLUG_NOSTART
    api->error(h, "tmplug: no start");
    return NULL;
#endif
    if (api->declare_params(h, late, 1) != 0) {
        return NULL;
    }
    instance = (int)api->param_int(h, "late.width");
    if (strcmp(api->param_string(h, "name"), "more") == 0 &&
        api->declare_params(h, more, 1) != 0) {
        return NULL;
    }
    return &instance;
}

static void destroy(void *tm)
{
}

static int kernel_begin(void *tm, const ptxemu_tm_kernel *k)
{
    return 0;
}

__attribute__((unused)) static int cycle(void *tm, uint64_t *now)
{
    return 0;
}

static int kernel_end(void *tm, uint64_t *end)
{
    return 0;
}

static const ptxemu_tm_param params[] = {
    {"lat", PTXEMU_TM_P_UINT, "4", "latency"},
    {"name", PTXEMU_TM_P_STRING, "x", "a name"},
};

int ptxemu_timing_plugin_init(uint32_t host_abi_version, ptxemu_tm_ops *ops)
{
    static const ptxemu_tm_ops zero;
    if (host_abi_version != PTXEMU_TM_ABI_VERSION ||
        ops->abi_version != host_abi_version ||
        ops->struct_size != sizeof(*ops) ||
        memcmp((const char *)ops + 8, (const char *)&zero + 8,
               sizeof(*ops) - 8)) {
        return 5;
    }
#ifdef TMPLUG_REFUSE
    return 3;
#endif
    ops->abi_version = PTXEMU_TM_ABI_VERSION;
#ifdef TMPLUG_NEWER
    ops->abi_version = PTXEMU_TM_ABI_VERSION + 1;
#endif
#ifdef TMPLUG_OLDER
    ops->abi_version = 0;
#endif
#ifdef TMPLUG_V1
    ops->abi_version = 1;
#endif
#ifdef TMPLUG_V2
    ops->abi_version = 2;
    /* (version 2 and 3 added nothing to this table) */
    ops->struct_size = (uint32_t)(offsetof(ptxemu_tm_ops, event) +
                                  sizeof(ops->event));
#endif
#ifdef TMPLUG_SMALL
    ops->struct_size = 16;
#endif
    ops->name = "tmplug";
    ops->help = "a test plug-in";
    ops->params = params;
    ops->nparams = 2;
    ops->create = create;
    ops->destroy = destroy;
    ops->kernel_begin = kernel_begin;
#ifndef TMPLUG_NULLCB
    ops->cycle = cycle;
#endif
    ops->kernel_end = kernel_end;
    return 0;
}
#else
int tmplug_other_symbol(void);
int tmplug_other_symbol(void)
{
    return 0;
}
#endif
