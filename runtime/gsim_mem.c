/*
 * runtime/gsim_mem.c: the GPGPU-Sim import's memory-system options
 * (gsim_ctx.h has the handlers' contract): the cache descriptions, the
 * DRAM timing list, the partition queues and the DRAM burst.  Option
 * meanings from GPGPU-Sim's public configurations, as gsim_import.c
 * names them.
 */
#include "runtime/gsim_ctx.h"

#include <stdio.h>
#include <string.h>

/* -gpgpu_cache:* ; r->key is our prefix (l1d, l2, l1i, l1c, l1t). */
int gsim_h_cache(Ctx *c, const GsimOpt *o, const Row *r)
{
    const char *p = r->key;
    char k[48];
    if (!strcmp(o->value, "none")) {
        if (!strcmp(p, "l1d")) {
            gsim_set(c, "mem.l1d", o, "false");
            return 0;
        }
        if (!strcmp(p, "l2")) {
            gsim_set(c, "l2.bypass", o, "global,const,tex,inst");
            return 0;
        }
        return gsim_unmapped(c, "the gpu model's hier memory always has this "
                           "cache");
    }
    char buf[256];
    snprintf(buf, sizeof buf, "%s", o->value);
    char *grp[8];
    int ng = gsim_split(buf, ',', grp, 8);
    char *f[8];
    int nf = ng > 0 ? gsim_split(grp[0], ':', f, 8) : -1;
    int base = nf > 0 && (!strcmp(f[0], "S") || !strcmp(f[0], "N"));
    int64_t sets, line, ways;
    if (nf != base + 3 || !gsim_i64(f[base], &sets) ||
        !gsim_i64(f[base + 1], &line) || !gsim_i64(f[base + 2], &ways) ||
        sets < 1 || line < 1 || ways < 1 || sets > (1 << 24) ||
        ways > (1 << 24) || line > (1 << 20)) {
        return gsim_bad(c, o, "a GPGPU-Sim cache description "
                         "([S|N:]sets:line:ways,...)");
    }
    if (line < 32 || line > 1024 || (line & (line - 1))) {
        return gsim_unmapped(c, "%lld-byte lines: the gpu model's caches take "
                           "powers of two from 32 to 1024",
                        (long long)line);
    }
    if (!strcmp(p, "l2")) {
        int64_t sub = gsim_int_opt(c, "-gpgpu_n_sub_partition_per_mchannel", 1);
        if (sub >= 1 && sub <= 64) {
            sets *= sub; /* one slice per channel holds its sub-partitions */
        }
    }
    if (!strcmp(p, "l1d")) {
        gsim_set(c, "mem.l1d", o, "true");
    }
    if (base && !strcmp(f[0], "N")) {
        gsim_leave_out(c, "N (whole-line fills: the model's lines are always "
                     "sectored)");
    }
    snprintf(k, sizeof k, "%s.sets", p);
    gsim_set(c, k, o, "%lld", (long long)sets);
    snprintf(k, sizeof k, "%s.line", p);
    gsim_set(c, k, o, "%lld", (long long)line);
    snprintf(k, sizeof k, "%s.ways", p);
    gsim_set(c, k, o, "%lld", (long long)ways);
    if (ng > 1) { /* rep:wr:alloc:wr_alloc[:set_index] */
        nf = gsim_split(grp[1], ':', f, 8);
        if (nf < 4 || nf > 5) {
            return gsim_bad(c, o, "a cache description (rep:wr:alloc:wr_alloc)");
        }
        snprintf(k, sizeof k, "%s.repl", p);
        if (!strcmp(f[0], "L")) {
            gsim_set(c, k, o, "lru");
        } else if (!strcmp(f[0], "F")) {
            gsim_set(c, k, o, "fifo");
        } else {
            gsim_leave_out(c, "replacement '%s'", f[0]);
        }
        snprintf(k, sizeof k, "%s.write", p);
        if (!strcmp(f[1], "B")) {
            gsim_set(c, k, o, "back");
        } else if (!strcmp(f[1], "T") || !strcmp(f[1], "R")) {
            gsim_set(c, k, o, "through");
        } else {
            gsim_set(c, k, o, "through");
            gsim_leave_out(c, "write policy '%s' (taken as write-through)", f[1]);
        }
        if (strcmp(f[2], "m")) {
            gsim_leave_out(c, "allocation '%s' (the model allocates on a miss)",
                      f[2]);
        }
        snprintf(k, sizeof k, "%s.alloc", p);
        if (!strcmp(f[3], "N")) {
            gsim_set(c, k, o, "false");
        } else {
            gsim_set(c, k, o, "true");
            if (strcmp(f[3], "W")) {
                gsim_leave_out(c, "write-allocate kind '%s' (taken as allocate "
                             "on write)", f[3]);
            }
        }
        if (nf == 5 && strcmp(f[4], "L")) {
            gsim_leave_out(c, "set-index function '%s' (the model indexes "
                         "linearly)", f[4]);
        }
    }
    if (ng > 2) { /* mshr type:entries:merge */
        int64_t n, merge;
        nf = gsim_split(grp[2], ':', f, 8);
        if (nf != 3 || !gsim_i64(f[1], &n) || !gsim_i64(f[2], &merge) ||
            n < 1 || n > (1 << 20) || merge < 1 || merge > (1 << 20)) {
            return gsim_bad(c, o, "a cache description (mshr:N:merge)");
        }
        snprintf(k, sizeof k, "%s.mshrs", p);
        gsim_set(c, k, o, "%lld", (long long)n);
        snprintf(k, sizeof k, "%s.merge", p);
        gsim_set(c, k, o, "%lld", (long long)merge);
        if (strcmp(f[0], "A") && strcmp(f[0], "S")) {
            gsim_leave_out(c, "MSHR kind '%s' (the model's are associative)",
                      f[0]);
        }
    }
    if (ng > 3) { /* miss queue[:fifo] */
        int64_t mq, fifo = 0;
        nf = gsim_split(grp[3], ':', f, 8);
        if (nf < 1 || nf > 2 || !gsim_i64(f[0], &mq) || mq < 1 ||
            mq > (1 << 20) || (nf == 2 && !gsim_i64(f[1], &fifo))) {
            return gsim_bad(c, o, "a cache description (mq[:fifo])");
        }
        snprintf(k, sizeof k, "%s.missq", p);
        gsim_set(c, k, o, "%lld", (long long)mq);
        if (fifo) {
            gsim_leave_out(c, "fill FIFO of %lld", (long long)fifo);
        }
    }
    if (ng > 4) {
        gsim_leave_out(c, "the fields after the miss queue (',%s...')", grp[4]);
    }
    return 0;
}

/* -gpgpu_dram_timing_opt: "nbk=16:CCD=2:..." or the older positional
 * "nbk:CCD:RRD:RCD:RAS:RP:RC:CL:WL:CDLR:WR:nbkgrp:CCDL:RTPL". */
int gsim_h_dram_timing(Ctx *c, const GsimOpt *o, const Row *r)
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
    int n = gsim_split(buf, ':', f, 32);
    bool named = strchr(o->value, '=') != NULL;
    if (n < 1 || (!named && n > nn)) {
        return gsim_bad(c, o, "a DRAM timing list");
    }
    for (int i = 0; i < n; i++) {
        char *key = NULL, *val = gsim_trim(f[i]);
        if (named) {
            char *eq = strchr(val, '=');
            if (!eq) {
                return gsim_bad(c, o, "a list of NAME=VALUE");
            }
            *eq = 0;
            key = gsim_trim(val);
            val = gsim_trim(eq + 1);
        } else {
            key = (char *)names[i].gs;
        }
        int64_t v;
        if (!gsim_i64(val, &v) || v < 0 || v > 1000000) {
            return gsim_bad(c, o, "a DRAM timing list of integers");
        }
        int k = 0;
        while (k < nn && strcmp(names[k].gs, key)) {
            k++;
        }
        if (k == nn) {
            gsim_leave_out(c, "%s=%lld", key, (long long)v);
        } else if (v == 0) {
            gsim_leave_out(c, "%s=0 (kept the preset's)", key);
        } else {
            gsim_set(c, names[k].ours, o, "%lld", (long long)v);
        }
    }
    return 0;
}

/* -gpgpu_dram_partition_queues icnt_to_L2:L2_to_dram:dram_to_L2:
 * L2_to_icnt: the second is the L2 slice's miss queue, the fourth its
 * reply queue. */
int gsim_h_part_queues(Ctx *c, const GsimOpt *o, const Row *r)
{
    (void)r;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", o->value);
    char *f[8];
    int64_t q[4];
    if (gsim_split(buf, ':', f, 8) != 4) {
        return gsim_bad(c, o, "four queue sizes a:b:c:d");
    }
    for (int i = 0; i < 4; i++) {
        if (!gsim_i64(f[i], &q[i]) || q[i] < 1 || q[i] > (1 << 20)) {
            return gsim_bad(c, o, "four queue sizes a:b:c:d");
        }
    }
    gsim_set(c, "l2.missq", o, "%lld", (long long)q[1]);
    gsim_set(c, "l2.outq", o, "%lld", (long long)q[3]);
    gsim_leave_out(c, "the interconnect-to-L2 and DRAM-to-L2 queues (%lld, "
                 "%lld): the slice takes requests and fills as they come",
              (long long)q[0], (long long)q[2]);
    return 0;
}

/* The burst options: resolved after every row (gsim_resolve_burst). */
int gsim_h_burst(Ctx *c, const GsimOpt *o, const Row *r)
{
    int64_t v;
    if (!gsim_i64(o->value, &v) || v < r->lo || v > r->hi) {
        return gsim_bad(c, o, "a positive integer");
    }
    return 2;
}

/* An option gsim_resolve_burst could not use: listed as unmapped. */
static void unused(Ctx *c, const GsimOpt *o, const char *why)
{
    if (o) {
        fprintf(c->notes, "%s:%u: unmapped: %s %.60s (%s)\n", c->file,
                o->line, o->name, o->value, why);
        c->mapped--;
        c->unmapped++;
    }
}

void gsim_resolve_burst(Ctx *c)
{
    const GsimOpt *bw = gsim_last(c, "-gpgpu_dram_buswidth");
    const GsimOpt *bl = gsim_last(c, "-gpgpu_dram_burst_length");
    const GsimOpt *ratio = gsim_last(c, "-dram_data_command_freq_ratio");
    const GsimOpt *per = gsim_last(c, "-gpgpu_n_mem_per_ctrlr");
    int64_t w = gsim_int_opt(c, "-gpgpu_dram_buswidth", 0);
    int64_t l = gsim_int_opt(c, "-gpgpu_dram_burst_length", 0);
    int64_t q = gsim_int_opt(c, "-dram_data_command_freq_ratio", 0);
    int64_t m = gsim_int_opt(c, "-gpgpu_n_mem_per_ctrlr", 1);
    if (bl && ratio) { /* beats / (beats per command cycle) */
        gsim_set(c, "dram.tBURST", ratio, "%lld", (long long)((l + q - 1) / q));
        gsim_comment(c, "dram.tBURST: %s %lld (line %u) / %s %lld", bl->name,
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
        gsim_set(c, "dram.burst_bytes", bw, "%lld", (long long)(w * l * m));
        gsim_comment(c, "dram.burst_bytes: %s %lld (line %u) x %s %lld x %s "
                   "%lld",
                bw->name, (long long)w, bw->line, bl->name, (long long)l,
                per ? per->name : "chips per controller", (long long)m);
    }
}
