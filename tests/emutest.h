/*
 * tests/emutest.h: helpers for the emulator's Check suites: load a PTX
 * string into a device, launch a kernel with cuLaunchKernel-style
 * arguments, and trace one warp's (pc, active mask) sequence.
 */
#ifndef PTXEMU_EMUTEST_H
#define PTXEMU_EMUTEST_H

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/exec.h"
#include "emu/memory.h"
#include "tests/testutil.h"

/* A device with the reconvergence mode given (EMU_RECONV_DEFAULT: by
 * the default arch, i.e. independent thread scheduling). */
static inline EmuDevice *dev_new_mode(EmuDivergeOrder order,
                                      EmuReconvergence mode)
{
    EmuConfig c;
    emu_config_default(&c);
    c.diverge_order = order;
    c.watchdog_rounds = 50;
    c.reconvergence = mode;
    EmuDevice *d = emu_device_new(&c);
    ck_assert_ptr_nonnull(d);
    return d;
}

static inline EmuDevice *dev_new(EmuDivergeOrder order)
{
    return dev_new_mode(order, EMU_RECONV_DEFAULT);
}

static inline EmuModule *mod_load(EmuDevice *d, const char *src)
{
    IrModule *ir = parse_ok(src);
    EmuStatus st;
    char *msg = NULL;
    EmuModule *m = emu_module_load(d, ir, &st, &msg);
    if (!m) {
        char copy[512];
        snprintf(copy, sizeof(copy), "%s", msg ? msg : "(no message)");
        free(msg);
        ck_abort_msg("module load failed (%s): %s", emu_status_name(st),
                     copy);
    }
    return m;
}

/* Launch kernel `name` on a 1-D grid; *fault gets the launch's fault. */
static inline EmuStatus run_kernel(EmuModule *m, const char *name,
                                   uint32_t grid, uint32_t block,
                                   void **args, EmuFault *fault)
{
    EmuFunc *k = emu_module_kernel(m, name);
    ck_assert_msg(k != NULL, "no kernel %s", name);
    uint32_t g[3] = { grid, 1, 1 }, b[3] = { block, 1, 1 };
    EmuLaunch *l;
    EmuStatus st = emu_launch_begin(m, k, g, b, 0, args, &l);
    if (st != EMU_OK) {
        return st;
    }
    st = emu_launch_run(l);
    if (fault) {
        *fault = l->fault;
    }
    emu_launch_end(l);
    return st;
}

static inline uint64_t dev_alloc(EmuDevice *d, uint64_t size)
{
    uint64_t a = emu_mem_alloc(d->mem, size, EMU_ALLOC_DEVICE, NULL);
    ck_assert(a != 0);
    return a;
}

typedef struct TraceStep {
    uint32_t pc;
    uint32_t mask;
} TraceStep;

/* Run the single CTA of a launch of `name` and record warp 0's steps
 * (the pc and the TOS mask of every instruction).  Returns the count. */
static inline unsigned trace_warp0(EmuModule *m, const char *name,
                                   uint32_t block, void **args,
                                   TraceStep *out, unsigned max)
{
    EmuFunc *k = emu_module_kernel(m, name);
    ck_assert(k != NULL);
    uint32_t g[3] = { 1, 1, 1 }, b[3] = { block, 1, 1 };
    EmuLaunch *l;
    ck_assert_int_eq(emu_launch_begin(m, k, g, b, 0, args, &l), EMU_OK);
    EmuCta cta;
    ck_assert_int_eq(emu_cta_init(l, 0, &cta), EMU_OK);
    static EmuStepRecord rec;
    unsigned n = 0;
    EmuWarp *w = &cta.warps[0];
    while (w->state != EMU_WARP_EXITED) {
        ck_assert_int_eq(w->state, EMU_WARP_READY);
        ck_assert_int_eq(emu_warp_step(&cta, w, &rec), EMU_OK);
        ck_assert_uint_lt(n, max);
        out[n].pc = rec.pc;
        out[n].mask = rec.active;
        n++;
    }
    emu_cta_fini(&cta);
    emu_launch_end(l);
    return n;
}

#endif
