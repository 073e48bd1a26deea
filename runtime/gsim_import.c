/*
 * runtime/gsim_import.c: GPGPU-Sim options as `gpu` model parameters
 * (gsim_import.h has the contract).
 *
 * What each option means is taken from GPGPU-Sim's public
 * configurations and their comments (Accel-Sim's tested-cfgs, e.g.
 * SM7_QV100/gpgpusim.config: the cache description
 * "<sector?>:<nsets>:<bsize>:<assoc>,<rep>:<wr>:<alloc>:<wr_alloc>:
 * <set_index_fn>,<mshr>:<N>:<merge>,<mq>:<fifo_entry>", one L2 per
 * memory sub-partition, -gpgpu_clock_domains "<Core>:<Interconnect>:
 * <L2>:<DRAM>", the DRAM timing names) and from GPGPU-Sim's manual.
 * The mapping is one row per option; options consumed together (the
 * DRAM burst) are resolved after every row has run.
 */
#include "runtime/gsim_import.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ENT 192
#define MAX_COMMENT 64

typedef struct Ent {
    char key[40];
    char val[48];
    char why[160];
} Ent;

typedef struct Ctx {
    const GsimFile *f;
    const char *file;
    FILE *notes;
    char *err;
    size_t errlen;
    Ent ent[MAX_ENT];
    size_t nent;
    char comment[MAX_COMMENT][200];
    size_t ncomment;
    char why[200];      /* a handler's reason for not mapping */
    char left[400];     /* what a handler left out of a mapped option */
    unsigned mapped, partial, unmapped, superseded;
} Ctx;

typedef struct Row Row;
/* 0: mapped; 1: not mapped (reason in c->why); -1: an error (c->err) */
typedef int (*Handler)(Ctx *c, const GsimOpt *o, const Row *r);
struct Row {
    const char *opt;
    Handler h;
    const char *key;
    int64_t lo, hi;
};

/* ------------------------------------------------------------ helpers */

__attribute__((format(printf, 4, 5)))
static void set(Ctx *c, const char *key, const GsimOpt *o, const char *fmt,
                ...)
{
    size_t i = 0;
    while (i < c->nent && strcmp(c->ent[i].key, key)) {
        i++;
    }
    if (i == MAX_ENT) {
        return; /* more keys than the table holds: cannot happen */
    }
    Ent *e = &c->ent[i];
    if (i == c->nent) {
        c->nent++;
        snprintf(e->key, sizeof e->key, "%s", key);
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->val, sizeof e->val, fmt, ap);
    va_end(ap);
    snprintf(e->why, sizeof e->why, "%s, line %u", o->name, o->line);
}

__attribute__((format(printf, 2, 3)))
static void comment(Ctx *c, const char *fmt, ...)
{
    if (c->ncomment == MAX_COMMENT) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->comment[c->ncomment++], sizeof c->comment[0], fmt, ap);
    va_end(ap);
}

__attribute__((format(printf, 2, 3)))
static void leave_out(Ctx *c, const char *fmt, ...)
{
    size_t n = strlen(c->left);
    if (n + 4 >= sizeof c->left) {
        return;
    }
    if (n) {
        c->left[n++] = ';';
        c->left[n++] = ' ';
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->left + n, sizeof c->left - n, fmt, ap);
    va_end(ap);
}

__attribute__((format(printf, 2, 3)))
static int unmapped(Ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->why, sizeof c->why, fmt, ap);
    va_end(ap);
    return 1;
}

static int bad(Ctx *c, const GsimOpt *o, const char *expect)
{
    snprintf(c->err, c->errlen, "%s:%u: %s: '%.60s' is not %s", c->file,
             o->line, o->name, o->value, expect);
    return -1;
}

/* A decimal integer, blanks around it allowed. */
static bool to_i64(const char *s, int64_t *v)
{
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') {
        s++;
    }
    if (!(*s >= '0' && *s <= '9') && *s != '-' && *s != '+') {
        return false;
    }
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (end == s || errno) {
        return false;
    }
    while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r') {
        end++;
    }
    *v = x;
    return !*end;
}

static const GsimOpt *last(const Ctx *c, const char *name)
{
    for (size_t i = c->f->n; i-- > 0;) {
        if (!strcmp(c->f->opt[i].name, name)) {
            return &c->f->opt[i];
        }
    }
    return NULL;
}

/* The last value of an integer option, or dflt when absent or bad. */
static int64_t int_opt(const Ctx *c, const char *name, int64_t dflt)
{
    const GsimOpt *o = last(c, name);
    int64_t v;
    return o && to_i64(o->value, &v) ? v : dflt;
}

static int64_t scheds(const Ctx *c)
{
    int64_t s = int_opt(c, "-gpgpu_num_sched_per_core", 1);
    return s >= 1 && s <= 64 ? s : 1;
}

/* Split s at sep into at most max fields (s is modified). */
static int split(char *s, char sep, char **field, int max)
{
    int n = 0;
    for (;;) {
        if (n == max) {
            return -1;
        }
        field[n++] = s;
        char *p = strchr(s, sep);
        if (!p) {
            return n;
        }
        *p = 0;
        s = p + 1;
    }
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') {
        s++;
    }
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' ||
                 s[n - 1] == '\r')) {
        s[--n] = 0;
    }
    return s;
}

/* ----------------------------------------------------------- handlers */

static int h_int(Ctx *c, const GsimOpt *o, const Row *r)
{
    int64_t v;
    if (!to_i64(o->value, &v) || v < r->lo || v > r->hi) {
        char what[64];
        snprintf(what, sizeof what, "an integer in [%lld, %lld]",
                 (long long)r->lo, (long long)r->hi);
        return bad(c, o, what);
    }
    set(c, r->key, o, "%lld", (long long)v);
    return 0;
}

/* Options another row or the SM count uses: a comment in the output. */
static int h_note(Ctx *c, const GsimOpt *o, const Row *r)
{
    int64_t v;
    if (!to_i64(o->value, &v) || v < r->lo || v > r->hi) {
        return bad(c, o, "an integer in range");
    }
    comment(c, "%s %lld (line %u): %s", o->name, (long long)v, o->line,
            r->key);
    return 0;
}

static int h_sched(Ctx *c, const GsimOpt *o, const Row *r)
{
    (void)r;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", o->value);
    char *f[8];
    int n = split(buf, ':', f, 8);
    if (n < 1) {
        return bad(c, o, "a scheduler");
    }
    if (!strcmp(f[0], "lrr") || !strcmp(f[0], "gto")) {
        set(c, "sched.policy", o, "%s", f[0]);
    } else if (!strcmp(f[0], "two_level_active")) {
        int64_t pool;
        if (n < 2 || !to_i64(f[1], &pool) || pool < 1 || pool > 1024) {
            return bad(c, o, "two_level_active:<active warps>:...");
        }
        set(c, "sched.policy", o, "two-level");
        set(c, "sched.pool", o, "%lld", (long long)pool);
        if (n > 2) {
            leave_out(c, "the inner and outer policies after the pool size "
                         "(the gpu model's two-level is round robin)");
        }
    } else {
        return unmapped(c, "the gpu model's policies are lrr, gto, oldest "
                           "and two-level");
    }
    return 0;
}

/* -gpgpu_cache:* ; r->key is our prefix (l1d, l2, l1i, l1c, l1t). */
static int h_cache(Ctx *c, const GsimOpt *o, const Row *r)
{
    const char *p = r->key;
    char k[48];
    if (!strcmp(o->value, "none")) {
        if (!strcmp(p, "l1d")) {
            set(c, "mem.l1d", o, "false");
            return 0;
        }
        if (!strcmp(p, "l2")) {
            set(c, "l2.bypass", o, "global,const,tex,inst");
            return 0;
        }
        return unmapped(c, "the gpu model's hier memory always has this "
                           "cache");
    }
    char buf[256];
    snprintf(buf, sizeof buf, "%s", o->value);
    char *grp[8];
    int ng = split(buf, ',', grp, 8);
    char *f[8];
    int nf = ng > 0 ? split(grp[0], ':', f, 8) : -1;
    int base = nf > 0 && (!strcmp(f[0], "S") || !strcmp(f[0], "N"));
    int64_t sets, line, ways;
    if (nf != base + 3 || !to_i64(f[base], &sets) ||
        !to_i64(f[base + 1], &line) || !to_i64(f[base + 2], &ways) ||
        sets < 1 || line < 1 || ways < 1 || sets > (1 << 24) ||
        ways > (1 << 24) || line > (1 << 20)) {
        return bad(c, o, "a GPGPU-Sim cache description "
                         "([S|N:]sets:line:ways,...)");
    }
    if (line < 32 || line > 1024 || (line & (line - 1))) {
        return unmapped(c, "%lld-byte lines: the gpu model's caches take "
                           "powers of two from 32 to 1024",
                        (long long)line);
    }
    if (!strcmp(p, "l2")) {
        int64_t sub = int_opt(c, "-gpgpu_n_sub_partition_per_mchannel", 1);
        if (sub >= 1 && sub <= 64) {
            sets *= sub; /* one slice per channel holds its sub-partitions */
        }
    }
    if (!strcmp(p, "l1d")) {
        set(c, "mem.l1d", o, "true");
    }
    if (base && !strcmp(f[0], "N")) {
        leave_out(c, "N (whole-line fills: the model's lines are always "
                     "sectored)");
    }
    snprintf(k, sizeof k, "%s.sets", p);
    set(c, k, o, "%lld", (long long)sets);
    snprintf(k, sizeof k, "%s.line", p);
    set(c, k, o, "%lld", (long long)line);
    snprintf(k, sizeof k, "%s.ways", p);
    set(c, k, o, "%lld", (long long)ways);
    if (ng > 1) { /* rep:wr:alloc:wr_alloc[:set_index] */
        nf = split(grp[1], ':', f, 8);
        if (nf < 4 || nf > 5) {
            return bad(c, o, "a cache description (rep:wr:alloc:wr_alloc)");
        }
        snprintf(k, sizeof k, "%s.repl", p);
        if (!strcmp(f[0], "L")) {
            set(c, k, o, "lru");
        } else if (!strcmp(f[0], "F")) {
            set(c, k, o, "fifo");
        } else {
            leave_out(c, "replacement '%s'", f[0]);
        }
        snprintf(k, sizeof k, "%s.write", p);
        if (!strcmp(f[1], "B")) {
            set(c, k, o, "back");
        } else if (!strcmp(f[1], "T") || !strcmp(f[1], "R")) {
            set(c, k, o, "through");
        } else {
            set(c, k, o, "through");
            leave_out(c, "write policy '%s' (taken as write-through)", f[1]);
        }
        if (strcmp(f[2], "m")) {
            leave_out(c, "allocation '%s' (the model allocates on a miss)",
                      f[2]);
        }
        snprintf(k, sizeof k, "%s.alloc", p);
        if (!strcmp(f[3], "N")) {
            set(c, k, o, "false");
        } else {
            set(c, k, o, "true");
            if (strcmp(f[3], "W")) {
                leave_out(c, "write-allocate kind '%s' (taken as allocate "
                             "on write)", f[3]);
            }
        }
        if (nf == 5 && strcmp(f[4], "L")) {
            leave_out(c, "set-index function '%s' (the model indexes "
                         "linearly)", f[4]);
        }
    }
    if (ng > 2) { /* mshr type:entries:merge */
        int64_t n, merge;
        nf = split(grp[2], ':', f, 8);
        if (nf != 3 || !to_i64(f[1], &n) || !to_i64(f[2], &merge) ||
            n < 1 || n > (1 << 20) || merge < 1 || merge > (1 << 20)) {
            return bad(c, o, "a cache description (mshr:N:merge)");
        }
        snprintf(k, sizeof k, "%s.mshrs", p);
        set(c, k, o, "%lld", (long long)n);
        snprintf(k, sizeof k, "%s.merge", p);
        set(c, k, o, "%lld", (long long)merge);
        if (strcmp(f[0], "A") && strcmp(f[0], "S")) {
            leave_out(c, "MSHR kind '%s' (the model's are associative)",
                      f[0]);
        }
    }
    if (ng > 3) { /* miss queue[:fifo] */
        int64_t mq, fifo = 0;
        nf = split(grp[3], ':', f, 8);
        if (nf < 1 || nf > 2 || !to_i64(f[0], &mq) || mq < 1 ||
            mq > (1 << 20) || (nf == 2 && !to_i64(f[1], &fifo))) {
            return bad(c, o, "a cache description (mq[:fifo])");
        }
        snprintf(k, sizeof k, "%s.missq", p);
        set(c, k, o, "%lld", (long long)mq);
        if (fifo) {
            leave_out(c, "fill FIFO of %lld", (long long)fifo);
        }
    }
    if (ng > 4) {
        leave_out(c, "the fields after the miss queue (',%s...')", grp[4]);
    }
    return 0;
}

/* -gpgpu_dram_timing_opt: "nbk=16:CCD=2:..." or the older positional
 * "nbk:CCD:RRD:RCD:RAS:RP:RC:CL:WL:CDLR:WR:nbkgrp:CCDL:RTPL". */
static int h_dram_timing(Ctx *c, const GsimOpt *o, const Row *r)
{
    (void)r;
    static const struct {
        const char *gs, *ours;
    } names[] = {
        {"nbk", "dram.banks"},      {"CCD", "dram.tCCDS"},
        {"RRD", "dram.tRRD"},       {"RCD", "dram.tRCD"},
        {"RAS", "dram.tRAS"},       {"RP", "dram.tRP"},
        {"RC", "dram.tRC"},         {"CL", "dram.CL"},
        {"WL", "dram.WL"},          {"CDLR", "dram.tWTR"},
        {"WR", "dram.tWR"},         {"nbkgrp", "dram.bankgroups"},
        {"CCDL", "dram.tCCDL"},     {"RTPL", "dram.tRTP"},
    };
    const int nn = (int)(sizeof names / sizeof names[0]);
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", o->value);
    char *f[32];
    int n = split(buf, ':', f, 32);
    bool named = strchr(o->value, '=') != NULL;
    if (n < 1 || (!named && n > nn)) {
        return bad(c, o, "a DRAM timing list");
    }
    for (int i = 0; i < n; i++) {
        char *key = NULL, *val = trim(f[i]);
        if (named) {
            char *eq = strchr(val, '=');
            if (!eq) {
                return bad(c, o, "a list of NAME=VALUE");
            }
            *eq = 0;
            key = trim(val);
            val = trim(eq + 1);
        } else {
            key = (char *)names[i].gs;
        }
        int64_t v;
        if (!to_i64(val, &v) || v < 0 || v > 1000000) {
            return bad(c, o, "a DRAM timing list of integers");
        }
        int k = 0;
        while (k < nn && strcmp(names[k].gs, key)) {
            k++;
        }
        if (k == nn) {
            leave_out(c, "%s=%lld", key, (long long)v);
        } else if (v == 0) {
            leave_out(c, "%s=0 (kept the preset's)", key);
        } else {
            set(c, names[k].ours, o, "%lld", (long long)v);
        }
    }
    return 0;
}

static int h_clocks(Ctx *c, const GsimOpt *o, const Row *r)
{
    (void)r;
    static const char *const key[4] = {"clock.mhz", "icnt.mhz", "l2.mhz",
                                       "dram.mhz"};
    char buf[256];
    snprintf(buf, sizeof buf, "%s", o->value);
    char *f[8];
    if (split(buf, ':', f, 8) != 4) {
        return bad(c, o, "<core>:<interconnect>:<L2>:<DRAM> in MHz");
    }
    for (int i = 0; i < 4; i++) {
        char *end;
        double v = strtod(trim(f[i]), &end);
        if (end == f[i] || *end || !(v > 0 && v <= 1e6)) {
            return bad(c, o, "<core>:<interconnect>:<L2>:<DRAM> in MHz");
        }
        set(c, key[i], o, "%g", v);
    }
    return 0;
}

/* -gpgpu_shader_core_pipeline <threads per SM>:<warp size> */
static int h_pipeline(Ctx *c, const GsimOpt *o, const Row *r)
{
    (void)r;
    char buf[64];
    snprintf(buf, sizeof buf, "%s", o->value);
    char *f[4];
    int64_t t, w;
    if (split(buf, ':', f, 4) != 2 || !to_i64(f[0], &t) ||
        !to_i64(f[1], &w) || t < 32 || t > (1 << 20) || w < 1 || w > 64) {
        return bad(c, o, "<threads per SM>:<warp size>");
    }
    set(c, "occ.max_threads", o, "%lld", (long long)t);
    set(c, "occ.max_warps", o, "%lld", (long long)(t / 32));
    if (w != 32) {
        leave_out(c, "warp size %lld (ptxemu's warps are 32 threads)",
                  (long long)w);
    }
    return 0;
}

/* -ptx_opcode_latency_X / _initiation_X: the first entry (ADD) is the
 * unit's; r->key is "unit.CLASS.lat" or "unit.CLASS.ii". */
static int h_oplat(Ctx *c, const GsimOpt *o, const Row *r)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", o->value);
    char *f[16];
    int n = split(buf, ',', f, 16);
    int64_t v;
    if (n < 1 || !to_i64(f[0], &v) || v < 1 || v > (1 << 20)) {
        return bad(c, o, "a list of cycle counts");
    }
    for (int i = 1; i < n; i++) {
        int64_t x;
        if (!to_i64(f[i], &x)) {
            return bad(c, o, "a list of cycle counts");
        }
    }
    set(c, r->key, o, "%lld", (long long)v);
    const char *dot = strrchr(r->key, '.');
    if (dot && !strcmp(dot, ".ii")) {
        char k[48];
        snprintf(k, sizeof k, "%.*s.lanes", (int)(dot - r->key), r->key);
        set(c, k, o, "32"); /* a whole warp per initiation interval */
    }
    if (n > 1) {
        leave_out(c, "the entries after the first (MAX, MUL, MAD, DIV...: "
                     "the gpu model times a unit class, and multi-"
                     "instruction operations by its expansion tables)");
    }
    return 0;
}

/* -gpgpu_num_X_units: units per SM, ours per scheduler. */
static int h_units(Ctx *c, const GsimOpt *o, const Row *r)
{
    int64_t v;
    if (!to_i64(o->value, &v) || v < 0 || v > 1024) {
        return bad(c, o, "a unit count");
    }
    if (v == 0) {
        return unmapped(c, "no units: the gpu model has every unit class");
    }
    int64_t s = scheds(c);
    char k[48];
    snprintf(k, sizeof k, "%s.count", r->key);
    set(c, k, o, "%lld", (long long)((v + s - 1) / s));
    snprintf(k, sizeof k, "%s.lanes", r->key);
    set(c, k, o, "32");
    if (v % s) {
        leave_out(c, "%lld units over %lld schedulers (rounded up)",
                  (long long)v, (long long)s);
    }
    return 0;
}

static int h_coalesce(Ctx *c, const GsimOpt *o, const Row *r)
{
    (void)r;
    int64_t v;
    if (!to_i64(o->value, &v)) {
        return bad(c, o, "a compute capability such as 13 or 60");
    }
    if (v >= 10 && v < 20) {
        set(c, "lsu.coalesce", o, "cc13");
    } else if (v >= 20 && v < 50) {
        set(c, "lsu.coalesce", o, "line128");
    } else if (v >= 50 && v < 200) {
        set(c, "lsu.coalesce", o, "sector32");
    } else {
        return unmapped(c, "no coalescing rule for %lld", (long long)v);
    }
    return 0;
}

/* The expansion table of a compute capability's major version. */
static int expand_for(Ctx *c, const GsimOpt *o, int64_t major)
{
    static const char *const arch[10] = {
        [1] = "gt200", [2] = "fermi", [3] = "fermi", [7] = "volta",
        [8] = "ampere", [9] = "hopper",
    };
    if (major < 0 || major > 9 || !arch[major]) {
        return unmapped(c, "no expansion table for compute capability %lld"
                           ".x",
                        (long long)major);
    }
    set(c, "expand.arch", o, "%s", arch[major]);
    return 0;
}

static int h_cap_major(Ctx *c, const GsimOpt *o, const Row *r)
{
    (void)r;
    int64_t v;
    if (!to_i64(o->value, &v) || v < 0 || v > 20) {
        return bad(c, o, "a compute capability major version");
    }
    return expand_for(c, o, v);
}

static int h_cap_max(Ctx *c, const GsimOpt *o, const Row *r)
{
    (void)r;
    int64_t v;
    if (!to_i64(o->value, &v) || v < 0 || v > 200) {
        return bad(c, o, "a compute capability such as 70");
    }
    return expand_for(c, o, v / 10);
}

static int h_warp_parts(Ctx *c, const GsimOpt *o, const Row *r)
{
    (void)r;
    int64_t v;
    if (!to_i64(o->value, &v) || v < 1 || v > 32 || (32 % v)) {
        return bad(c, o, "a divisor of 32");
    }
    set(c, "smem.group", o, "%lld", (long long)(32 / v));
    return 0;
}

/* An integer option with named values: r->key "KEY=n0,n1,n2..." gives
 * the value for 0, 1, 2... */
static int h_enum(Ctx *c, const GsimOpt *o, const Row *r)
{
    int64_t v;
    if (!to_i64(o->value, &v)) {
        return bad(c, o, "an integer");
    }
    char buf[128];
    snprintf(buf, sizeof buf, "%s", r->key);
    char *eq = strchr(buf, '=');
    char *f[8];
    int n = eq ? split(eq + 1, ',', f, 8) : 0;
    if (!eq || v < 0 || v >= n || !*f[v]) {
        return unmapped(c, "value %lld has no equivalent", (long long)v);
    }
    *eq = 0;
    set(c, buf, o, "%s", f[v]);
    return 0;
}

static int h_dual_diff(Ctx *c, const GsimOpt *o, const Row *r)
{
    (void)r;
    int64_t v;
    if (!to_i64(o->value, &v) || v < 0 || v > 1) {
        return bad(c, o, "0 or 1");
    }
    if (!v) {
        return unmapped(c, "dual issue to one unit: the gpu model's unit "
                           "refuses a second instruction while busy");
    }
    comment(c, "%s 1 (line %u): as the gpu model, whose busy unit refuses "
               "a second instruction",
            o->name, o->line);
    return 0;
}

/* Operand collection: banks and collector units per SM in GPGPU-Sim,
 * per scheduler (sub-core) here when -gpgpu_sub_core_model is on. */
static int h_opcoll(Ctx *c, const GsimOpt *o, const Row *r)
{
    int64_t v;
    if (!to_i64(o->value, &v) || v < 1 || v > 1024) {
        return bad(c, o, "a count of at least 1");
    }
    int64_t s = int_opt(c, "-gpgpu_sub_core_model", 0) ? scheds(c) : 1;
    int64_t per = v / s ? v / s : 1;
    set(c, r->key, o, "%lld", (long long)(per > r->hi ? r->hi : per));
    set(c, "oc.enabled", o, "true");
    return 0;
}

/* -gpgpu_dram_partition_queues icnt_to_L2:L2_to_dram:dram_to_L2:
 * L2_to_icnt: the second is the L2 slice's miss queue, the fourth its
 * reply queue. */
static int h_part_queues(Ctx *c, const GsimOpt *o, const Row *r)
{
    (void)r;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", o->value);
    char *f[8];
    int64_t q[4];
    if (split(buf, ':', f, 8) != 4) {
        return bad(c, o, "four queue sizes a:b:c:d");
    }
    for (int i = 0; i < 4; i++) {
        if (!to_i64(f[i], &q[i]) || q[i] < 1 || q[i] > (1 << 20)) {
            return bad(c, o, "four queue sizes a:b:c:d");
        }
    }
    set(c, "l2.missq", o, "%lld", (long long)q[1]);
    set(c, "l2.outq", o, "%lld", (long long)q[3]);
    leave_out(c, "the interconnect-to-L2 and DRAM-to-L2 queues (%lld, "
                 "%lld): the slice takes requests and fills as they come",
              (long long)q[0], (long long)q[2]);
    return 0;
}

/* The burst options: resolved after every row (resolve_burst). */
static int h_burst(Ctx *c, const GsimOpt *o, const Row *r)
{
    int64_t v;
    if (!to_i64(o->value, &v) || v < r->lo || v > r->hi) {
        return bad(c, o, "a positive integer");
    }
    return 2;
}

/* -gpgpu_n_clusters x -gpgpu_n_cores_per_cluster: the SM count, which
 * is the device's (--sms), not the model's. */
static int h_sms(Ctx *c, const GsimOpt *o, const Row *r)
{
    (void)r;
    int64_t v;
    if (!to_i64(o->value, &v) || v < 1 || v > 4096) {
        return bad(c, o, "a count from 1 to 4096");
    }
    return 2;
}

/* The option rows: every option with an equivalent. */
static const Row rows[] = {
    {"-gpgpu_n_clusters", h_sms, NULL, 0, 0},
    {"-gpgpu_n_cores_per_cluster", h_sms, NULL, 0, 0},
    {"-gpgpu_shader_registers", h_int, "occ.regs", 1, 1 << 26},
    {"-gpgpu_shader_cta", h_int, "occ.max_ctas", 1, 1 << 16},
    {"-gpgpu_shader_core_pipeline", h_pipeline, NULL, 0, 0},
    {"-gpgpu_num_sched_per_core", h_int, "sched.per_sm", 1, 64},
    {"-gpgpu_scheduler", h_sched, NULL, 0, 0},
    {"-gpgpu_max_insn_issue_per_warp", h_int, "issue.width", 1, 8},
    {"-gpgpu_dual_issue_diff_exec_units", h_dual_diff, NULL, 0, 0},
    {"-gpgpu_sub_core_model", h_note, "splits units, banks and collectors "
     "over the schedulers", 0, 1},
    {"-gpgpu_num_sp_units", h_units, "unit.fp32", 0, 0},
    {"-gpgpu_num_int_units", h_units, "unit.int", 0, 0},
    {"-gpgpu_num_dp_units", h_units, "unit.fp64", 0, 0},
    {"-gpgpu_num_sfu_units", h_units, "unit.sfu", 0, 0},
    {"-gpgpu_num_tensor_core_units", h_units, "unit.tensor", 0, 0},
    {"-ptx_opcode_latency_int", h_oplat, "unit.int.lat", 0, 0},
    {"-ptx_opcode_initiation_int", h_oplat, "unit.int.ii", 0, 0},
    {"-ptx_opcode_latency_fp", h_oplat, "unit.fp32.lat", 0, 0},
    {"-ptx_opcode_initiation_fp", h_oplat, "unit.fp32.ii", 0, 0},
    {"-ptx_opcode_latency_dp", h_oplat, "unit.fp64.lat", 0, 0},
    {"-ptx_opcode_initiation_dp", h_oplat, "unit.fp64.ii", 0, 0},
    {"-ptx_opcode_latency_sfu", h_oplat, "unit.sfu.lat", 0, 0},
    {"-ptx_opcode_initiation_sfu", h_oplat, "unit.sfu.ii", 0, 0},
    {"-ptx_opcode_latency_tesnor", h_oplat, "unit.tensor.lat", 0, 0},
    {"-ptx_opcode_latency_tensor", h_oplat, "unit.tensor.lat", 0, 0},
    {"-ptx_opcode_initiation_tensor", h_oplat, "unit.tensor.ii", 0, 0},
    {"-gpgpu_num_reg_banks", h_opcoll, "oc.banks", 0, 64},
    {"-gpgpu_operand_collector_num_units_gen", h_opcoll, "oc.collectors", 0,
     64},
    {"-gpgpu_reg_file_port_throughput", h_int, "oc.ports", 1, 16},
    {"-gpgpu_shmem_size", h_int, "occ.shared", 0, 1ll << 32},
    {"-gpgpu_shmem_num_banks", h_int, "smem.banks", 1, 64},
    {"-gpgpu_shmem_limited_broadcast", h_int, "smem.one_broadcast", 0, 1},
    {"-gpgpu_shmem_warp_parts", h_warp_parts, NULL, 0, 0},
    {"-gpgpu_smem_latency", h_int, "smem.latency", 1, 1 << 20},
    {"-gpgpu_coalesce_arch", h_coalesce, NULL, 0, 0},
    {"-gpgpu_compute_capability_major", h_cap_major, NULL, 0, 0},
    {"-gpgpu_compute_capability_minor", h_note, "the minor version "
     "(--arch sm_XY)", 0, 9},
    {"-gpgpu_ptx_force_max_capability", h_cap_max, NULL, 0, 0},
    {"-gpgpu_kernel_launch_latency", h_int, "launch.latency", 0, 1ll << 32},
    {"-gpgpu_cache:dl1", h_cache, "l1d", 0, 0},
    {"-gpgpu_cache:dl2", h_cache, "l2", 0, 0},
    {"-gpgpu_cache:il1", h_cache, "l1i", 0, 0},
    {"-gpgpu_const_cache:l1", h_cache, "l1c", 0, 0},
    {"-gpgpu_tex_cache:l1", h_cache, "l1t", 0, 0},
    {"-gpgpu_l1_latency", h_int, "l1d.lat", 1, 1 << 20},
    {"-gpgpu_l1_banks", h_int, "l1d.banks", 1, 64},
    {"-gpgpu_l2_rop_latency", h_int, "l2.lat", 1, 1 << 20},
    {"-gpgpu_n_mem", h_int, "mem.parts", 1, 1024},
    {"-gpgpu_n_sub_partition_per_mchannel", h_note, "multiplies the L2 "
     "sets: one slice per channel", 1, 64},
    {"-gpgpu_memory_partition_indexing", h_enum, "map.hash=linear,xor,poly",
     0, 0},
    {"-gpgpu_dram_timing_opt", h_dram_timing, NULL, 0, 0},
    {"-gpgpu_dram_partition_queues", h_part_queues, NULL, 0, 0},
    {"-gpgpu_dram_scheduler", h_enum, "dram.sched=fifo,frfcfs", 0, 0},
    {"-gpgpu_frfcfs_dram_sched_queue_size", h_int, "dram.rdq", 1, 1 << 20},
    {"-gpgpu_clock_domains", h_clocks, NULL, 0, 0},
    {"-gpgpu_dram_buswidth", h_burst, NULL, 1, 1024},
    {"-gpgpu_dram_burst_length", h_burst, NULL, 1, 1024},
    {"-dram_data_command_freq_ratio", h_burst, NULL, 1, 64},
    {"-gpgpu_n_mem_per_ctrlr", h_burst, NULL, 1, 64},
    {"-network_mode", h_enum, "icnt.model=,crossbar,crossbar", 0, 0},
    {"-icnt_flit_size", h_int, "icnt.flit", 1, 1 << 16},
    {"-icnt_in_buffer_limit", h_int, "icnt.inbuf", 1, 1 << 20},
    {"-icnt_out_buffer_limit", h_int, "icnt.outbuf", 1, 1 << 20},
};

/* Why a known option has no row (prefix match). */
static const struct {
    const char *prefix, *why;
} no_row[] = {
    {"-gpgpu_ptx_", "functional simulation"},
    {"-gpgpu_stack_size_limit", "a device limit"},
    {"-gpgpu_heap_size_limit", "a device limit (--heap)"},
    {"-gpgpu_registers_per_block", "a device limit"},
    {"-gpgpu_shmem_per_block", "a device limit"},
    {"-gpgpu_memlatency_stat", "statistics output"},
    {"-gpgpu_runtime_stat", "statistics output"},
    {"-gpgpu_runtime_", "a device limit"},
    {"-enable_ptx_file_line_stats", "statistics output"},
    {"-visualizer", "statistics output"},
    {"-trace", "tracing output"},
    {"-gpgpu_pipeline_widths", "pipeline-register widths: the gpu model "
     "has none between issue, operand collection and execution"},
    {"-dram_latency", "a fixed DRAM latency: the gpu model's DRAM is timed "
     "by its commands"},
    {"-gpgpu_gmem_skip_L1D", "global-only L1 bypass: mem.l1d = false "
     "bypasses local memory too"},
    {"-gpgpu_adaptive_cache_config", "the L1/shared carve-out is fixed: "
     "occ.shared and the L1's sets x ways"},
    {"-gpgpu_shmem_size", "the L1/shared carve-out is fixed: occ.shared"},
    {"-gpgpu_tensor_core_avail", "the gpu model always has tensor units"},
    {"-gpgpu_enable_specialized_operand_collector", "the gpu model's "
     "collectors are generic"},
    {"-gpgpu_operand_collector_num_", "collector ports: the gpu model's "
     "collectors read oc.collector_reads operands a cycle"},
    {"-icnt_subnets", "the crossbar has a request and a reply network"},
    {"-icnt_arbiter_algo", "the crossbar arbitrates round robin"},
    {"-gpgpu_mem_addr_mapping", "an address bit map: the gpu model maps by "
     "map.hash, map.gran and map.row_bytes"},
    {"-gpgpu_mem_address_mask", "an address bit map: the gpu model maps by "
     "map.hash, map.gran and map.row_bytes"},
    {"-dram_bnk", "bank indexing: the gpu model interleaves banks by "
     "permutation (addrmap.c)"},
    {"-dram_dual_bus_interface", "the DRAM channel has one command bus"},
    {"-gpgpu_clock_gated_lanes", "power modelling"},
    {"-gpgpu_TB_launch_latency", "per-CTA launch latency: the gpu model "
     "times the kernel's launch (launch.latency)"},
};

/* ------------------------------------------------------- after the rows */

/* An option resolve_burst could not use: listed as unmapped. */
static void unused(Ctx *c, const GsimOpt *o, const char *why)
{
    if (o) {
        fprintf(c->notes, "%s:%u: unmapped: %s %.60s (%s)\n", c->file,
                o->line, o->name, o->value, why);
        c->mapped--;
        c->unmapped++;
    }
}

static void resolve_burst(Ctx *c)
{
    const GsimOpt *bw = last(c, "-gpgpu_dram_buswidth");
    const GsimOpt *bl = last(c, "-gpgpu_dram_burst_length");
    const GsimOpt *ratio = last(c, "-dram_data_command_freq_ratio");
    const GsimOpt *per = last(c, "-gpgpu_n_mem_per_ctrlr");
    int64_t w = int_opt(c, "-gpgpu_dram_buswidth", 0);
    int64_t l = int_opt(c, "-gpgpu_dram_burst_length", 0);
    int64_t q = int_opt(c, "-dram_data_command_freq_ratio", 0);
    int64_t m = int_opt(c, "-gpgpu_n_mem_per_ctrlr", 1);
    if (bl && ratio) { /* beats / (beats per command cycle) */
        set(c, "dram.tBURST", ratio, "%lld", (long long)((l + q - 1) / q));
        comment(c, "dram.tBURST: %s %lld (line %u) / %s %lld", bl->name,
                (long long)l, bl->line, ratio->name, (long long)q);
    }
    if (!bl) {
        unused(c, bw, "needs -gpgpu_dram_burst_length");
        unused(c, ratio, "needs -gpgpu_dram_burst_length");
    } else if (!ratio && !bw) {
        unused(c, bl, "needs -dram_data_command_freq_ratio or "
                      "-gpgpu_dram_buswidth");
    }
    if (!(bw && bl)) {
        unused(c, per, "needs -gpgpu_dram_buswidth and "
                       "-gpgpu_dram_burst_length");
    }
    if (bw && bl) { /* GPGPU-Sim's "atom": bus bytes x burst x chips */
        set(c, "dram.burst_bytes", bw, "%lld", (long long)(w * l * m));
        comment(c, "dram.burst_bytes: %s %lld (line %u) x %s %lld x %s "
                   "%lld",
                bw->name, (long long)w, bw->line, bl->name, (long long)l,
                per ? per->name : "chips per controller", (long long)m);
    }
}

static void resolve_sms(Ctx *c)
{
    const GsimOpt *cl = last(c, "-gpgpu_n_clusters");
    const GsimOpt *co = last(c, "-gpgpu_n_cores_per_cluster");
    if (cl && co) {
        long long n = (long long)(int_opt(c, cl->name, 1) *
                                  int_opt(c, co->name, 1));
        comment(c, "SMs: %s x %s (lines %u, %u) = %lld, the device's "
                   "option: run with --sms %lld",
                cl->name, co->name, cl->line, co->line, n, n);
    } else if (cl || co) {
        const GsimOpt *o = cl ? cl : co;
        comment(c, "SMs: %s %s (line %u) without %s: run with --sms N",
                o->name, o->value, o->line,
                cl ? "-gpgpu_n_cores_per_cluster" : "-gpgpu_n_clusters");
    }
}

/* Whether a later option of the same name replaces the one at i. */
static bool superseded(const Ctx *c, size_t i)
{
    return last(c, c->f->opt[i].name) != &c->f->opt[i];
}

int gsim_convert(const GsimFile *f, const char *file, FILE *out,
                 FILE *notes, char *err, size_t errlen)
{
    Ctx *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    *c = (Ctx){.f = f, .file = file, .notes = notes, .err = err,
               .errlen = errlen};
    /* a later option wins: earlier ones still get their values checked */
    int rc = 0;
    for (size_t i = 0; i < f->n && !rc; i++) {
        const GsimOpt *o = &f->opt[i];
        if (superseded(c, i)) {
            fprintf(notes, "%s:%u: %s: superseded by line %u\n", file,
                    o->line, o->name, last(c, o->name)->line);
            c->superseded++;
            continue;
        }
        const Row *r = NULL;
        for (size_t k = 0; !r && k < sizeof rows / sizeof rows[0]; k++) {
            if (!strcmp(rows[k].opt, o->name)) {
                r = &rows[k];
            }
        }
        c->why[0] = c->left[0] = 0;
        int k = r ? r->h(c, o, r) : 1;
        if (k < 0) {
            rc = -1;
            break;
        }
        if (k == 1) {
            const char *why = c->why[0] ? c->why : NULL;
            for (size_t j = 0; !why && j < sizeof no_row / sizeof no_row[0];
                 j++) {
                if (!strncmp(o->name, no_row[j].prefix,
                             strlen(no_row[j].prefix))) {
                    why = no_row[j].why;
                }
            }
            fprintf(notes, "%s:%u: unmapped: %s %.60s (%s)\n", file, o->line,
                    o->name, o->value,
                    why ? why : "no equivalent in the gpu model");
            c->unmapped++;
            continue;
        }
        c->mapped++;
        if (c->left[0]) {
            fprintf(notes, "%s:%u: partly mapped: %s: left out: %s\n", file,
                    o->line, o->name, c->left);
            c->partial++;
        }
    }
    if (!rc) {
        resolve_burst(c);
        resolve_sms(c);
        fprintf(out,
                "# A ptxemu timing configuration for the `gpu` model, "
                "imported from\n# %s (a GPGPU-Sim configuration) by "
                "`ptxemu config import`.\n# Each value names the option "
                "and line it came from; the options without\n# an "
                "equivalent were listed by the import.  Run:\n"
                "#   ptxemu exec --sms N --timing gpu --timing-config "
                "THIS-FILE -- ./app\n",
                file);
        for (size_t i = 0; i < c->ncomment; i++) {
            fprintf(out, "# %s\n", c->comment[i]);
        }
        fprintf(out, "gpu.arch = ampere          # the base for what is "
                     "not set below\n");
        fprintf(out, "mem.model = hier           # caches, interconnect, "
                     "L2 slices and DRAM, as GPGPU-Sim\n");
        for (size_t i = 0; i < c->nent; i++) {
            char kv[96];
            snprintf(kv, sizeof kv, "%s = %s", c->ent[i].key, c->ent[i].val);
            fprintf(out, "%-26s # %s\n", kv, c->ent[i].why);
        }
        fprintf(notes, "%s: %zu options: %u mapped (%u in part), %u "
                       "unmapped, %u superseded\n",
                file, f->n, c->mapped, c->partial, c->unmapped,
                c->superseded);
    }
    free(c);
    return rc;
}
