/*
 * emu/fault.c: status names and guest faults.
 *
 * A guest fault (an illegal address, a trap, the instruction limit, ...)
 * is recorded once per launch by emu_fault(): the first fault wins, the
 * launch stops after the faulting instruction, and the device keeps a
 * copy (last_fault) that the runtime turns into a CUDA error and a
 * located report.  The host never aborts for a guest fault.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "emu/exec.h"
#include "ptx/ptx.h"

/* ------------------------------------------------------------ status */

const char *emu_status_name(EmuStatus s)
{
    static const char *const names[EMU_STATUS_COUNT] = {
        [EMU_OK] = "no error",
        [EMU_ERR_INVALID_VALUE] = "invalid value",
        [EMU_ERR_OUT_OF_MEMORY] = "out of memory",
        [EMU_ERR_INVALID_PTX] = "invalid PTX",
        [EMU_ERR_UNSUPPORTED] = "unsupported by the emulator",
        [EMU_ERR_NOT_FOUND] = "not found",
        [EMU_ERR_LAUNCH_CONFIG] = "invalid launch configuration",
        [EMU_ERR_ILLEGAL_ADDRESS] = "illegal address",
        [EMU_ERR_MISALIGNED] = "misaligned address",
        [EMU_ERR_READ_ONLY] = "write to read-only memory",
        [EMU_ERR_TRAP] = "trap instruction",
        [EMU_ERR_ASSERT] = "device-side assertion",
        [EMU_ERR_TIMEOUT] = "instruction limit reached",
        [EMU_ERR_DEADLOCK] = "deadlock",
        [EMU_ERR_ILLEGAL_INSTRUCTION] = "illegal instruction",
        [EMU_ERR_STACK_OVERFLOW] = "stack overflow",
    };
    if ((unsigned)s >= EMU_STATUS_COUNT || !names[s]) {
        return "unknown error";
    }
    return names[s];
}
/* ------------------------------------------------------------ faults */

void emu_fault(EmuCtx *x, EmuStatus st, unsigned lane, uint64_t addr,
               uint32_t size, PtxSpace space, const char *fmt, ...)
{
    EmuLaunch *l = x->launch;
    if (x->fault || l->faulted) {
        return;
    }
    EmuFault *f = &l->fault;
    memset(f, 0, sizeof(*f));
    f->status = st;
    f->kernel = l->kernel->ir->name;
    memcpy(f->ctaid, x->cta->ctaid, sizeof(f->ctaid));
    for (int c = 0; c < 3; c++) {
        f->tid[c] = x->warp->tid[c][lane & 31];
    }
    f->pc = x->pc;
    const EmuFunc *fn = x->frame->func;
    f->func = fn->ir->name;
    f->file = ir_func_file(l->mod->ir, fn->ir);
    f->addr = addr;
    f->size = size;
    f->space = space;
    const IrInsn *in = NULL;
    if (x->pc < fn->ir->ninsns) {
        in = &fn->ir->insns[x->pc];
        f->loc = in->loc;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->detail, sizeof(f->detail), fmt, ap);
    va_end(ap);
    emu_fault_print_insn(l, fn->ir, in);
    l->faulted = true;
    x->fault = f;
    if (!l->worker) {     /* the parallel driver publishes the lowest */
        l->dev->last_fault = *f;
        l->dev->has_fault = true;
    }
}

const char *emu_src_pos(const IrModule *m, const IrFunc *f, uint32_t pc,
                        char *buf, size_t n)
{
    buf[0] = 0;
    if (pc < f->ninsns) {
        const IrSrcPos *s = &f->insns[pc].src;
        if (s->file && s->file < m->nfiles && m->files[s->file]) {
            snprintf(buf, n, "%s:%u", m->files[s->file], s->line);
        }
    }
    return buf;
}

void emu_fault_print_insn(EmuLaunch *l, const IrFunc *fn,
                          const IrInsn *in)
{
    l->fault_text[0] = 0;
    if (!in) {
        return;
    }
    FILE *fp = fmemopen(l->fault_text, sizeof(l->fault_text) - 1, "w");
    if (fp) {
        ptx_print_insn(fp, l->mod->ir, fn, in);
        fclose(fp);
    }
    l->fault_text[sizeof(l->fault_text) - 1] = 0;
    size_t n = strlen(l->fault_text);
    while (n && (l->fault_text[n - 1] == '\n' ||
                 l->fault_text[n - 1] == ' ')) {
        l->fault_text[--n] = 0;
    }
}
