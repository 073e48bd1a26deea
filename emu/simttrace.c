/*
 * emu/simttrace.c: the per-instruction SIMT trace (emu/simttrace.h), a
 * client of the emulator that watches steps and launch starts.
 */
#include <inttypes.h>
#include <stdio.h>

#include "emu/client.h"
#include "emu/simttrace.h"
#include "ptx/opcode.h"

static void on_step(void *ctx, const EmuCta *cta, const EmuWarp *w,
                    const EmuStepRecord *rec)
{
    FILE *o = ctx;
    const IrFunc *f = rec->func ? rec->func->ir : NULL;
    uint32_t line = f && rec->pc < f->ninsns ? f->insns[rec->pc].loc.line
                                             : 0;
    fprintf(o, "%" PRIu64 " %u %u %s %u 0x%08x 0x%08x %u %s\n",
            cta->launch->gridid, cta->linear, w->id, f ? f->name : "?",
            rec->pc, rec->active, rec->exec, line,
            ptx_opinfo((PtxOpcode)rec->op)->name);
}

static void on_event(void *ctx, const EmuEvent *e)
{
    FILE *o = ctx;
    const EmuLaunch *l = e->launch;
    if (e->kind != EMU_EV_LAUNCH_BEGIN || !l) {
        return;
    }
    fprintf(o, "# launch %" PRIu64 " kernel %s grid %u,%u,%u block %u,%u,%u "
            "mode %s\n", l->gridid, l->kernel->ir->name, l->grid[0],
            l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2],
            l->mod->reconv == EMU_RECONV_ITS ? "its" : "ipdom");
}

int emu_simttrace_attach(EmuDevice *d, FILE *out, char *why, size_t n)
{
    EmuClient c = {
        .abi_version = EMU_CLIENT_ABI, .struct_size = sizeof(c),
        .name = "simttrace", .ctx = out, .on_step = on_step,
        .on_event = on_event, .want_steps = true,
        .events = 1u << EMU_EV_LAUNCH_BEGIN,
    };
    int h = emu_client_attach(d, &c, why, n);
    if (h >= 0) {
        fputs("# ptxemu simt trace 1\n", out);
    }
    return h;
}
