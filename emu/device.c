/*
 * emu/device.c: the emulator's configuration defaults and the device
 * (memory, per-SM clocks, the GPU it answers queries for).
 *
 * emu_device_new() fills every zero field of the caller's EmuConfig
 * with its default, so a partly set config is valid.
 */
#include <stdlib.h>
#include <string.h>

#include "emu/builtins.h"
#include "emu/client.h"
#include "emu/exec.h"
#include "emu/its.h"
#include "emu/simttrace.h"
#include "emu/texfetch.h"
#include "emu/tolerate.h"

void emu_config_default(EmuConfig *c)
{
    memset(c, 0, sizeof(*c));
    c->diverge_order = EMU_DIVERGE_BY_MODE;
    c->watchdog_rounds = 1000;
    c->num_sms = 108;
    c->max_threads_per_block = 1024;
    c->max_shared_per_block = 48 * 1024;
    c->max_call_depth = 1024;
    c->local_bytes_per_thread = 1u << 20;
    c->heap_bytes = 8u << 20;
}

/* ------------------------------------------------------------ device */

EmuDevice *emu_device_new(const EmuConfig *cfg)
{
    EmuDevice *d = calloc(1, sizeof(*d));
    if (!d) {
        return NULL;
    }
    if (cfg) {
        d->cfg = *cfg;
    } else {
        emu_config_default(&d->cfg);
    }
    EmuConfig def;
    emu_config_default(&def);
    if (!d->cfg.watchdog_rounds) {
        d->cfg.watchdog_rounds = def.watchdog_rounds;
    }
    if (!d->cfg.num_sms) {
        d->cfg.num_sms = def.num_sms;
    }
    if (!d->cfg.max_threads_per_block) {
        d->cfg.max_threads_per_block = def.max_threads_per_block;
    }
    if (!d->cfg.max_shared_per_block) {
        d->cfg.max_shared_per_block = def.max_shared_per_block;
    }
    if (!d->cfg.max_call_depth) {
        d->cfg.max_call_depth = def.max_call_depth;
    }
    if (!d->cfg.local_bytes_per_thread) {
        d->cfg.local_bytes_per_thread = def.local_bytes_per_thread;
    }
    if (!d->cfg.heap_bytes) {
        d->cfg.heap_bytes = def.heap_bytes;
    }
    d->gpu = emu_gpu_for(d->cfg.arch ? d->cfg.arch
                                     : EMU_GPU_DEFAULT_ARCH);
    d->gpu.sms = d->cfg.num_sms;
    d->reconv_forced = d->cfg.reconvergence != EMU_RECONV_DEFAULT;
    if (d->cfg.reconvergence == EMU_RECONV_DEFAULT) {
        d->cfg.reconvergence = d->gpu.arch >= EMU_ITS_MIN_ARCH
            ? EMU_RECONV_ITS : EMU_RECONV_IPDOM;
    }
    d->mem = emu_mem_new();
    d->sm_clock = aligned_alloc(64, (size_t)d->cfg.num_sms *
                                        EMU_SM_CLOCK_STRIDE *
                                        sizeof(uint64_t));
    if (d->sm_clock) {
        memset(d->sm_clock, 0, (size_t)d->cfg.num_sms *
                                   EMU_SM_CLOCK_STRIDE * sizeof(uint64_t));
    }
    if (!d->mem || !d->sm_clock) {
        emu_device_free(d);
        return NULL;
    }
    char why[160];
    if (d->cfg.trace_simt &&
        emu_simttrace_attach(d, d->cfg.trace_simt, why, sizeof(why)) < 0) {
        emu_device_free(d);
        return NULL;
    }
    return d;
}

void emu_device_free(EmuDevice *d)
{
    if (!d) {
        return;
    }
    emu_device_flush_output(d);
    emu_builtins_device_free(d);
    emu_clients_free(d);
    emu_mem_free(d->mem);
    emu_tolerate_free(d);
    if (d->tex) {
        emu_tex_table_free(d->tex);
        free(d->tex);
    }
    free(d->sm_clock);
    free(d->errstr_off);
    free(d);
}
