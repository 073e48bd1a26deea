/*
 * emu/rtrace.c: the reconvergence trace (emu/rtrace.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "emu/rtrace.h"

void emu_rtrace(const EmuWarp *w, const char *fmt, ...)
{
    const EmuCta *cta = w->cta;
    FILE *o = cta->launch->dev->cfg.trace_reconv;
    if (!o) {
        return;
    }
    fprintf(o, "reconvergence: kernel '%s' CTA %u warp %u: ",
            cta->launch->kernel->ir->name, cta->linear, w->id);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(o, fmt, ap);
    va_end(ap);
    fputc('\n', o);
}

uint32_t emu_rtrace_line(const EmuWarp *w, uint32_t pc)
{
    const IrFunc *f = w->frames[w->nframes - 1].func->ir;
    return pc < f->ninsns ? f->insns[pc].loc.line : 0;
}

void emu_rtrace_arrive(const EmuWarp *w)
{
    const EmuSimtEntry *e = &w->stack[w->depth - 1];
    uint32_t base = w->nframes > 1 ? w->frames[w->nframes - 1].stack_base
                                   : 0;
    /* the next entry with lanes, below the one that arrived */
    const EmuSimtEntry *n = NULL;
    for (uint32_t d = w->depth - 1; d-- > base;) {
        if (w->stack[d].mask) {
            n = &w->stack[d];
            break;
        }
    }
    if (n) {
        emu_rtrace(w, "lanes 0x%08x reach the reconvergence point pc %u "
                   "(line %u); next: lanes 0x%08x at pc %u", e->mask, e->rpc,
                   emu_rtrace_line(w, e->rpc), n->mask, n->npc);
    } else {
        emu_rtrace(w, "lanes 0x%08x reach the reconvergence point pc %u "
                   "(line %u)", e->mask, e->rpc, emu_rtrace_line(w, e->rpc));
    }
}

void emu_rtrace_split(const EmuWarp *w, uint32_t pc, uint32_t n)
{
    char paths[768];
    size_t o = 0;
    paths[0] = 0;
    for (uint32_t k = 0; k < n && k < w->depth && o < sizeof(paths); k++) {
        const EmuSimtEntry *e = &w->stack[w->depth - 1 - k];
        int m = snprintf(paths + o, sizeof(paths) - o,
                         "%slanes 0x%08x to pc %u", k ? ", " : "", e->mask,
                         e->npc);
        o += m > 0 ? (size_t)m : 0;
    }
    uint32_t r = w->stack[w->depth - 1].rpc;
    uint32_t rl = emu_rtrace_line(w, r);
    if (rl) {
        emu_rtrace(w, "split at pc %u (line %u): %s; reconvergence at pc %u "
                   "(line %u)", pc, emu_rtrace_line(w, pc), paths, r, rl);
    } else {
        emu_rtrace(w, "split at pc %u (line %u): %s; reconvergence at the "
                   "function's end", pc, emu_rtrace_line(w, pc), paths);
    }
}
