/*
 * emu/tolerate.c: global accesses that a GPU tolerates (see tolerate.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "emu/tolerate.h"
#include "emu/memory.h"

/* The instructions already warned about. */
struct EmuTolSites {
    struct { const void *func; uint32_t pc; } *at;
    uint32_t n, cap;
};

/* True the first time (func, pc) is seen; false after, or when the
 * record cannot grow (then the warning is dropped, never repeated). */
static bool first_time(EmuDevice *d, const void *func, uint32_t pc)
{
    struct EmuTolSites *s = d->tol_sites;
    if (!s) {
        s = d->tol_sites = calloc(1, sizeof(*s));
        if (!s) {
            return false;
        }
    }
    for (uint32_t i = 0; i < s->n; i++) {
        if (s->at[i].func == func && s->at[i].pc == pc) {
            return false;
        }
    }
    if (s->n == s->cap) {
        uint32_t nc = s->cap ? s->cap * 2 : 16;
        void *p = realloc(s->at, nc * sizeof(*s->at));
        if (!p) {
            return false;
        }
        s->at = p;
        s->cap = nc;
    }
    s->at[s->n].func = func;
    s->at[s->n++].pc = pc;
    return true;
}

uint8_t *emu_access_tolerated(EmuCtx *x, unsigned lane, PtxSpace space,
                              uint64_t addr, uint32_t size, bool write)
{
    EmuDevice *d = x->dev;
    if (d->cfg.access != EMU_ACCESS_GPU) {
        return NULL;
    }
    const EmuAlloc *owner;
    uint8_t *p = emu_mem_slack(d->mem, addr, size, &owner);
    if (!p || (write && (space == PTX_SPACE_CONST ||
                         (owner && owner->kind == EMU_ALLOC_CONST)))) {
        return NULL;
    }
    const EmuFunc *fn = x->frame->func;
    EmuTolerated t = {
        .launch = x->launch, .func = fn->ir->name,
        .file = ir_func_file(x->launch->mod->ir, fn->ir), .pc = x->pc,
        .addr = addr, .size = size, .write = write, .space = space,
    };
    if (x->pc < fn->ir->ninsns) {
        t.loc = fn->ir->insns[x->pc].loc;
    }
    for (int c = 0; c < 3; c++) {
        t.ctaid[c] = x->cta->ctaid[c];
        t.tid[c] = x->warp->tid[c][lane & 31];
    }
    if (d->tolerated_hook) {
        d->tolerated_hook(d->tolerated_ctx, &t);
    } else if (first_time(d, fn, x->pc)) {
        char near[160];
        emu_mem_describe_near(d->mem, addr, near, sizeof(near));
        fprintf(stderr, "ptxemu: warning: %s:%u: kernel '%s', thread "
                "(%u,%u,%u) of CTA (%u,%u,%u): %s of %u bytes at %s "
                "address 0x%llx outside every allocation (%s); a GPU maps "
                "that memory and does not fault, so neither does ptxemu "
                "(reported once per instruction)\n",
                t.file ? t.file : "?", t.loc.line,
                x->launch->kernel->ir->name, t.tid[0], t.tid[1], t.tid[2],
                t.ctaid[0], t.ctaid[1], t.ctaid[2],
                write ? "write" : "read", size, ptx_space_name(space),
                (unsigned long long)addr, near);
    }
    return p;
}

void emu_tolerate_free(EmuDevice *d)
{
    if (d->tol_sites) {
        free(d->tol_sites->at);
        free(d->tol_sites);
        d->tol_sites = NULL;
    }
}
