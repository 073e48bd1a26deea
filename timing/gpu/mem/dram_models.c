/*
 * timing/gpu/mem/dram_models.c: the DRAM channel models a partition may
 * use, by name (`dram.model`; contract in dram.h): `channel`, the
 * command-level controller of dram.c (the default), and `fixed`
 * (dram_fixed.c).  A model added to the tree, such as a wrapper of
 * Ramulator 2 or DRAMSim3, adds one row.
 */
#include <string.h>

#include "timing/gpu/mem/dram.h"

/* dram.c's functions behind the handle type of DramOps. */
static void *ch_make(const DramCfg *cfg, DramStats *st, char *err,
                     size_t errlen)
{
    return dram_new(cfg, st, err, errlen);
}

static void ch_free(void *d)
{
    dram_free(d);
}

static bool ch_accept(void *d, const MemMsg *m, uint32_t bankid,
                      uint64_t row, uint64_t now)
{
    return dram_accept(d, m, bankid, row, now);
}

static bool ch_refuse_full(void *d, const MemMsg *m, uint64_t now)
{
    return dram_refuse_full(d, m, now);
}

static void ch_tick(void *d, uint64_t now)
{
    dram_tick(d, now);
}

static uint64_t ch_next(const void *d)
{
    return dram_next(d);
}

static const MemMsg *ch_out_peek(const void *d, uint64_t now)
{
    return dram_out_peek(d, now);
}

static void ch_out_pop(void *d)
{
    dram_out_pop(d);
}

static void ch_set_sum(void *d, DramStats *sum)
{
    dram_set_sum(d, sum);
}

static const DramBankStats *ch_bank_stats(const void *d)
{
    return dram_bank_stats(d);
}

static const DramOps dram_model_channel = {
    .name = "channel",
    .about = "ranks x banks with row buffers, JEDEC timings, fr-fcfs or "
             "fifo (dram.c)",
    .make = ch_make,
    .free = ch_free,
    .accept = ch_accept,
    .refuse_full = ch_refuse_full,
    .tick = ch_tick,
    .next = ch_next,
    .out_peek = ch_out_peek,
    .out_pop = ch_out_pop,
    .set_sum = ch_set_sum,
    .bank_stats = ch_bank_stats,
};

const DramOps *const dram_models[] = {
    &dram_model_channel,
    &dram_model_fixed,
    NULL,
};

const DramOps *dram_model_find(const char *name)
{
    for (size_t i = 0; dram_models[i]; i++) {
        if (strcmp(dram_models[i]->name, name) == 0) {
            return dram_models[i];
        }
    }
    return NULL;
}
