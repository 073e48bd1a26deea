/*
 * timing/gpu/mem/dram_fixed.c: `dram.model = fixed`, a channel with no
 * banks, rows or bus: a read is answered CL + tBURST + path_lat DRAM
 * cycles after it is accepted, a write WL + tBURST + path_lat (a
 * write-back nobody waits for is only counted).  It holds up to rdq
 * reads and wrq writes (queued or waiting to be popped) and refuses the
 * next.  A bound on what a perfect scheduler could do with the preset's
 * latencies, and the smallest model that keeps dram.h's contract (a
 * template for a wrapper of another simulator).
 */
#include <stdio.h>
#include <stdlib.h>

#include "timing/gpu/mem/dram.h"

typedef struct Fixed {
    DramCfg c;
    DramStats *st, *sum;
    MemQ out;
    uint32_t nrd, nwr;          /* held: waiting or in out */
} Fixed;

#define COUNT(f, fld, v) MEM_COUNT((f)->st, (f)->sum, fld, v)

static void fixed_free(void *d)
{
    Fixed *f = d;
    if (f) {
        memq_fini(&f->out);
        free(f);
    }
}

static void *fixed_make(const DramCfg *cfg, DramStats *st, char *err,
                        size_t errlen)
{
    if (!cfg->rdq || !cfg->wrq) {
        if (err && errlen) {
            snprintf(err, errlen, "queue depths must be at least 1");
        }
        return NULL;
    }
    Fixed *f = calloc(1, sizeof *f);
    if (!f) {
        return NULL;
    }
    f->c = *cfg;
    f->st = st;
    if (memq_init(&f->out, cfg->rdq + cfg->wrq)) {
        fixed_free(f);
        return NULL;
    }
    return f;
}

static bool fixed_refuse_full(void *d, const MemMsg *m, uint64_t now)
{
    (void)now;
    Fixed *f = d;
    bool write = m->kind == GPU_MEM_WRITE;
    if (write ? f->nwr < f->c.wrq : f->nrd < f->c.rdq) {
        return false;
    }
    COUNT(f, refused, 1);
    return true;
}

static bool fixed_accept(void *d, const MemMsg *m, uint32_t bankid,
                         uint64_t row, uint64_t now)
{
    (void)bankid;
    (void)row;
    Fixed *f = d;
    if (fixed_refuse_full(d, m, now)) {
        return false;
    }
    bool write = m->kind == GPU_MEM_WRITE;
    uint64_t lat = (uint64_t)f->c.t[write ? DT_WL : DT_CL] +
                   f->c.t[DT_BURST] + f->c.path_lat;
    COUNT(f, bytes, mem_sector_count(m->sectors) * GPU_SECTOR);
    if (write) {
        COUNT(f, writes, 1);
        if (m->flags & MEM_F_NOREPLY) {
            return true;
        }
        f->nwr++;
    } else {
        COUNT(f, reads, 1);
        f->nrd++;
    }
    memq_push(&f->out, m, now + lat);
    return true;
}

static void fixed_tick(void *d, uint64_t now)
{
    (void)d;
    (void)now;
}

static uint64_t fixed_next(const void *d)
{
    return memq_next(&((const Fixed *)d)->out);
}

static const MemMsg *fixed_out_peek(const void *d, uint64_t now)
{
    return memq_peek(&((const Fixed *)d)->out, now);
}

static void fixed_out_pop(void *d)
{
    Fixed *f = d;
    if (f->out.it[f->out.head].m.kind == GPU_MEM_WRITE) {
        f->nwr--;
    } else {
        f->nrd--;
    }
    memq_pop(&f->out);
}

static void fixed_set_sum(void *d, DramStats *sum)
{
    ((Fixed *)d)->sum = sum;
}

static const DramBankStats *fixed_bank_stats(const void *d)
{
    (void)d;
    return NULL;
}

const DramOps dram_model_fixed = {
    .name = "fixed",
    .about = "every request answered CL (writes WL) + tBURST + path_lat "
             "cycles after it arrives; no banks",
    .make = fixed_make,
    .free = fixed_free,
    .accept = fixed_accept,
    .refuse_full = fixed_refuse_full,
    .tick = fixed_tick,
    .next = fixed_next,
    .out_peek = fixed_out_peek,
    .out_pop = fixed_out_pop,
    .set_sum = fixed_set_sum,
    .bank_stats = fixed_bank_stats,
};
