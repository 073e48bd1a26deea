/*
 * runtime/envopts.c: the PTXEMU_* environment options (see envopts.h).
 */
#include "runtime/envopts.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const ptxemu_env_option ptxemu_env_options[] = {
    {"PTXEMU_ARCH", "--arch", "sm_XX",
     "GPU to emulate: picks the PTX of a fat binary and the compute "
     "capability reported (default sm_80)", 0},
    {"PTXEMU_SMS", "--sms", "N",
     "number of streaming multiprocessors reported (default 108)", 0},
    {"PTXEMU_THREADS", "--threads", "N",
     "host threads that run the CTAs of a kernel (default: the cores "
     "available; see the README, \"Parallel simulation\")", 0},
    {"PTXEMU_FAST", "--fast", NULL,
     "the global atomics of CTAs run on several host threads land in the "
     "order the threads reach them (default: --deterministic)", 0},
    {"PTXEMU_DETERMINISTIC", "--deterministic", NULL,
     "the default: global atomics land in CTA order, as on one thread "
     "(README, \"Parallel simulation\")", 0},
    {"PTXEMU_VERBOSE", "--verbose", NULL,
     "say on stderr why a kernel runs on one host thread", 0},
    {"PTXEMU_INSN_LIMIT", "--insn-limit", "N",
     "stop a kernel after N warp instructions (default: no limit)", 0},
    {"PTXEMU_TIME_LIMIT", "--time-limit", "SECONDS",
     "stop a kernel that runs longer than SECONDS of host time, naming "
     "its warps and their pcs (default 600; 0: no limit)", 0},
    {"PTXEMU_WATCHDOG", "--watchdog", "N",
     "scheduler rounds without progress before a kernel is reported as "
     "deadlocked (default 1000)", 0},
    {"PTXEMU_DIVERGE", "--diverge", "taken-first|majority-last|majority-first",
     "order of the two sides of a divergent branch (default: taken-first "
     "under ipdom, majority-first under its)", 0},
    {"PTXEMU_RECONVERGENCE", "--reconvergence", "ipdom|its",
     "divergent warps: pre-Volta SIMT stack (ipdom) or independent "
     "thread scheduling (its: a path spinning without progress yields to "
     "the others); default its for sm_70 and newer, ipdom before", 0},
    {"PTXEMU_TRACE_RECONVERGENCE", "--trace-reconvergence", NULL,
     "print each warp's path splits, reconvergences, yields and .sync "
     "waits on stderr", 0},
    {"PTXEMU_TRACE_SIMT", "--trace-simt", "FILE",
     "write every warp instruction's pc and active mask to FILE ('-': "
     "stderr), the control-flow trace Hanoi compares with hardware's "
     "(README, \"SIMT trace\")", 0},
    {"PTXEMU_HEAP", "--heap", "BYTES",
     "device malloc heap size (default 8 MiB)", 0},
    {"PTXEMU_DEVICE_MEMORY", "--device-memory", "BYTES",
     "device memory reported and allocatable (default: the GPU's, at "
     "most half the host's physical memory)", 0},
    {"PTXEMU_STATS", "--stats", "FILE.json",
     "write execution statistics to FILE.json at exit", 0},
    {"PTXEMU_TRACE", "--trace-api", NULL,
     "print every CUDA API call and its result on stderr", 0},
    {"PTXEMU_SYNC_STREAMS", "--sync-streams", NULL,
     "run stream work (kernels, asynchronous copies, host functions) "
     "inside the call that enqueues it, as before asynchronous streams: "
     "for debugging (default: on a device worker thread, overlapping the "
     "host)", 0},
    {"PTXEMU_ACCESS", "--access", "gpu|strict",
     "accesses outside every allocation: fault only where a GPU would "
     "(gpu, with a warning; default) or always (strict)", 0},
    {"PTXEMU_TIMING", "--timing", "NAME|PATH.so",
     "time kernels with a timing model: a built-in one by name (simple) or "
     "a plug-in by path (default none: untimed); --timing-help lists its "
     "parameters", 0},
    {"PTXEMU_TIMING_CONFIG", "--timing-config", "FILE",
     "the timing model's parameters, as `key = value` lines ('#' "
     "comments)", 0},
    {"PTXEMU_TIMING_SET", "--timing-set", "KEY=VALUE",
     "set one timing parameter, over the config file; repeatable (in the "
     "variable, several are separated by ';', or by ',' before another "
     "KEY=, so that list values keep their commas)", 1},
    {"PTXEMU_STATS_INTERVAL", "--stats-interval", "N",
     "with a timing model: every N simulated cycles, one CSV row of the "
     "model's counters (their change over the interval)", 0},
    {"PTXEMU_STATS_CSV", "--stats-csv", "FILE.csv",
     "where the rows of --stats-interval go (default ptxemu-stats.csv; "
     "`ptxemu plot` draws them)", 0},
    {"PTXEMU_PROGRESS", "--progress", NULL,
     "with a timing model: a progress line per kernel on stderr even when "
     "it is not a terminal (on a terminal it is on unless --no-progress, "
     "PTXEMU_PROGRESS=0)", 0},
    {NULL, NULL, NULL, NULL, 0}
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

int ptxemu_parse_reconvergence(const char *v, ptxemu_reconvergence *out)
{
    if (!strcmp(v, "ipdom")) {
        *out = PTXEMU_RECONVERGENCE_IPDOM;
    } else if (!strcmp(v, "its")) {
        *out = PTXEMU_RECONVERGENCE_ITS;
    } else {
        return -1;
    }
    return 0;
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

/* PTXEMU_TIMING_SET="a=1;b=2,c=3;l1d.carveouts=0,8,16": the list of
 * overrides, in order, in one allocation (the pointers, then a copy of
 * the text split in place); empty items are skipped.  ';' always ends
 * an item; ',' only when what follows it, up to the next separator,
 * holds a '=' (a new KEY=VALUE), so that list values keep their commas. */
static int split_sets(ptxemu_device_options *opts, const char *v, char *err,
                      size_t errlen)
{
    size_t len = strlen(v), n = 1;
    for (const char *c = v; *c; c++) {
        n += *c == ';' || *c == ',';
    }
    const char **list = malloc(n * sizeof(char *) + len + 1);
    if (!list) {
        snprintf(err, errlen, "PTXEMU_TIMING_SET: out of memory");
        return -1;
    }
    char *text = (char *)(list + n);
    memcpy(text, v, len + 1);
    size_t k = 0;
    char *item = text;
    for (char *c = text;; c++) {
        bool end = *c == '\0' || *c == ';';
        if (*c == ',') {
            size_t next = strcspn(c + 1, ";,");
            const char *eq = memchr(c + 1, '=', next);
            /* an empty item between two separators ends one too */
            end = eq != NULL || next == 0;
        }
        if (!end) {
            continue;
        }
        bool last = *c == '\0';
        *c = '\0';
        if (*item) {
            list[k++] = item;
        }
        if (last) {
            break;
        }
        item = c + 1;
    }
    opts->timing_set = list;
    opts->ntiming_set = k;
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
    if ((v = getenv("PTXEMU_TIME_LIMIT")) && *v) {
        if (parse_u64("PTXEMU_TIME_LIMIT", v, ~0ull / 1000, &x, err,
                      errlen)) {
            return -1;
        }
        opts->time_limit_ms = x * 1000;
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
        } else if (!strcmp(v, "majority-first")) {
            opts->diverge_order = PTXEMU_DIVERGE_MAJORITY_FIRST;
        } else {
            snprintf(err, errlen, "PTXEMU_DIVERGE=%s: expected taken-first, "
                     "majority-last or majority-first", v);
            return -1;
        }
    }
    if ((v = getenv("PTXEMU_RECONVERGENCE")) && *v) {
        if (ptxemu_parse_reconvergence(v, &opts->reconvergence)) {
            snprintf(err, errlen, "PTXEMU_RECONVERGENCE=%s: expected ipdom "
                     "or its", v);
            return -1;
        }
    }
    if ((v = getenv("PTXEMU_THREADS")) && *v) {
        if (parse_u64("PTXEMU_THREADS", v, 1024, &x, err, errlen)) {
            return -1;
        }
        if (!x) {
            snprintf(err, errlen, "PTXEMU_THREADS=%s: at least 1", v);
            return -1;
        }
        opts->threads = (uint32_t)x;
    }
    const char *det = getenv("PTXEMU_DETERMINISTIC");
    if ((v = getenv("PTXEMU_FAST")) && *v && strcmp(v, "0") != 0) {
        if (det && *det && strcmp(det, "0") != 0) {
            snprintf(err, errlen, "PTXEMU_FAST and PTXEMU_DETERMINISTIC "
                     "(--fast and --deterministic): choose one");
            return -1;
        }
        opts->fast = 1;
    }
    if ((v = getenv("PTXEMU_VERBOSE")) && *v && strcmp(v, "0") != 0) {
        opts->verbose = 1;
    }
    if ((v = getenv("PTXEMU_TRACE_RECONVERGENCE")) && *v &&
        strcmp(v, "0") != 0) {
        opts->trace_reconvergence = 1;
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
    if ((v = getenv("PTXEMU_STATS_INTERVAL")) && *v) {
        if (parse_u64("PTXEMU_STATS_INTERVAL", v, ~0ull, &x, err, errlen)) {
            return -1;
        }
        if (!x) {
            snprintf(err, errlen, "PTXEMU_STATS_INTERVAL=%s: at least 1", v);
            return -1;
        }
        opts->stats_interval = x;
    }
    opts->stats_csv = getenv("PTXEMU_STATS_CSV");
    opts->trace_simt = getenv("PTXEMU_TRACE_SIMT");
    opts->progress = PTXEMU_PROGRESS_AUTO;
    if ((v = getenv("PTXEMU_PROGRESS")) && *v) {
        if (!strcmp(v, "1")) {
            opts->progress = PTXEMU_PROGRESS_ON;
        } else if (!strcmp(v, "0")) {
            opts->progress = PTXEMU_PROGRESS_OFF;
        } else {
            snprintf(err, errlen, "PTXEMU_PROGRESS=%s: expected 1 (on) or 0 "
                     "(off)", v);
            return -1;
        }
    }
    opts->timing = getenv("PTXEMU_TIMING");
    opts->timing_config = getenv("PTXEMU_TIMING_CONFIG");
    if ((v = getenv("PTXEMU_TIMING_SET")) && *v) {
        return split_sets(opts, v, err, errlen);
    }
    return 0;
}

void ptxemu_env_device_options_fini(ptxemu_device_options *opts)
{
    free((void *)opts->timing_set);
    opts->timing_set = NULL;
    opts->ntiming_set = 0;
}
