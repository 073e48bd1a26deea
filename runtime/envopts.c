/*
 * runtime/envopts.c: the PTXEMU_* environment options (see envopts.h).
 */
#include "runtime/envopts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const ptxemu_env_option ptxemu_env_options[] = {
    {"PTXEMU_ARCH", "--arch", "sm_XX",
     "GPU to emulate: picks the PTX of a fat binary and the compute "
     "capability reported (default sm_80)"},
    {"PTXEMU_SMS", "--sms", "N",
     "number of streaming multiprocessors reported (default 108)"},
    {"PTXEMU_INSN_LIMIT", "--insn-limit", "N",
     "stop a kernel after N warp instructions (default: no limit)"},
    {"PTXEMU_WATCHDOG", "--watchdog", "N",
     "scheduler rounds without progress before a kernel is reported as "
     "deadlocked (default 1000)"},
    {"PTXEMU_DIVERGE", "--diverge", "taken-first|majority-last",
     "order of the two sides of a divergent branch (default taken-first)"},
    {"PTXEMU_HEAP", "--heap", "BYTES",
     "device malloc heap size (default 8 MiB)"},
    {"PTXEMU_DEVICE_MEMORY", "--device-memory", "BYTES",
     "device memory reported and allocatable (default: the GPU's, at "
     "most half the host's physical memory)"},
    {"PTXEMU_STATS", "--stats", "FILE.json",
     "write execution statistics to FILE.json at exit"},
    {"PTXEMU_TRACE", "--trace-api", NULL,
     "print every CUDA API call and its result on stderr"},
    {"PTXEMU_ACCESS", "--access", "gpu|strict",
     "accesses outside every allocation: fault only where a GPU would "
     "(gpu, with a warning; default) or always (strict)"},
    {NULL, NULL, NULL, NULL}
};

const ptxemu_env_option *ptxemu_env_option_by_flag(const char *flag)
{
    for (const ptxemu_env_option *o = ptxemu_env_options; o->env; o++) {
        if (strcmp(o->flag, flag) == 0) {
            return o;
        }
    }
    return NULL;
}

static int parse_u64(const char *name, const char *v, unsigned long long max,
                     unsigned long long *out, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 0);
    if (errno || end == v || *end || v[0] == '-' || x > max) {
        snprintf(err, errlen, "%s=%s: expected a number up to %llu", name, v,
                 max);
        return -1;
    }
    *out = x;
    return 0;
}

int ptxemu_env_device_options(ptxemu_device_options *opts, unsigned *arch,
                              char *err, size_t errlen)
{
    unsigned long long x;
    const char *v;
    *arch = 80;
    if ((v = getenv("PTXEMU_ARCH")) && *v) {
        const char *d = v;
        if (!strncmp(d, "sm_", 3) || !strncmp(d, "compute_", 8)) {
            d = strchr(d, '_') + 1;
        }
        char *end;
        unsigned long a = strtoul(d, &end, 10);
        if (end == d || (*end && strcmp(end, "a") && strcmp(end, "f")) ||
            a < 50 || a > 130) {
            snprintf(err, errlen, "PTXEMU_ARCH=%s: expected sm_XX such as "
                     "sm_80 or sm_90", v);
            return -1;
        }
        *arch = (unsigned)a;
    }
    opts->arch = *arch;
    if ((v = getenv("PTXEMU_SMS")) && *v) {
        if (parse_u64("PTXEMU_SMS", v, 4096, &x, err, errlen)) {
            return -1;
        }
        if (!x) {
            snprintf(err, errlen, "PTXEMU_SMS=%s: at least 1", v);
            return -1;
        }
        opts->num_sms = (uint32_t)x;
    }
    if ((v = getenv("PTXEMU_INSN_LIMIT")) && *v) {
        if (parse_u64("PTXEMU_INSN_LIMIT", v, ~0ull, &x, err, errlen)) {
            return -1;
        }
        opts->insn_limit = x;
    }
    if ((v = getenv("PTXEMU_WATCHDOG")) && *v) {
        if (parse_u64("PTXEMU_WATCHDOG", v, 1u << 30, &x, err, errlen)) {
            return -1;
        }
        opts->watchdog_rounds = (uint32_t)x;
    }
    if ((v = getenv("PTXEMU_DIVERGE")) && *v) {
        if (!strcmp(v, "taken-first")) {
            opts->diverge_order = PTXEMU_DIVERGE_TAKEN_FIRST;
        } else if (!strcmp(v, "majority-last")) {
            opts->diverge_order = PTXEMU_DIVERGE_MAJORITY_LAST;
        } else {
            snprintf(err, errlen, "PTXEMU_DIVERGE=%s: expected taken-first "
                     "or majority-last", v);
            return -1;
        }
    }
    if ((v = getenv("PTXEMU_HEAP")) && *v) {
        if (parse_u64("PTXEMU_HEAP", v, 1ull << 36, &x, err, errlen)) {
            return -1;
        }
        opts->heap_bytes = x;
    }
    if ((v = getenv("PTXEMU_DEVICE_MEMORY")) && *v) {
        if (parse_u64("PTXEMU_DEVICE_MEMORY", v, 1ull << 36, &x, err,
                      errlen)) {
            return -1;
        }
        if (!x) {
            snprintf(err, errlen, "PTXEMU_DEVICE_MEMORY=%s: at least 1", v);
            return -1;
        }
        opts->mem_bytes = x;
    }
    if ((v = getenv("PTXEMU_STATS")) && *v) {
        opts->collect_stats = 1;
    }
    /* real programs run as on a GPU (emu/tolerate.h) */
    opts->access = PTXEMU_ACCESS_GPU;
    if ((v = getenv("PTXEMU_ACCESS")) && *v) {
        if (!strcmp(v, "strict")) {
            opts->access = PTXEMU_ACCESS_STRICT;
        } else if (strcmp(v, "gpu") != 0) {
            snprintf(err, errlen, "PTXEMU_ACCESS=%s: expected gpu or strict",
                     v);
            return -1;
        }
    }
    return 0;
}
