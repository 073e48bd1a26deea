/*
 * emu/module.c: loading a parsed module: its shared-memory layout, its
 * .global/.const variables (allocated, initialised, relocations
 * resolved) and the decoded functions; lookups by name; freeing.
 *
 * The load takes ownership of the IrModule, also on failure.  A function
 * that cannot be loaded (an instruction the emulator cannot execute:
 * EMU_ERR_UNSUPPORTED with decode.c's located message; or a body that did
 * not parse, IrFunc.load_error: EMU_ERR_INVALID_PTX) fails alone, as with
 * CUDA's lazy loading, and so does every function that calls it
 * directly; the others load (EmuModule.load_error).  A module none of
 * whose kernels loads fails as a whole, with the first one's message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/decode.h"
#include "emu/regest.h"
#include "emu/exec.h"
#include "emu/its.h"
#include "emu/shlayout.h"
#include "ptx/ptx.h"

/* ----------------------------------------------------------- modules */

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned k = 0; k < n; k++) {
        p[k] = (uint8_t)(v >> (8 * k));
    }
}

static bool module_globals(EmuModule *m, char **msg)
{
    IrModule *ir = m->ir;
    EmuMemory *mem = m->dev->mem;
    /* .global / .const variables */
    for (uint32_t i = 0; i < ir->nglobals; i++) {
        const IrSymbol *s = ir->globals[i];
        if ((s->space != PTX_SPACE_GLOBAL && s->space != PTX_SPACE_CONST)
            || s->kind != IR_SYM_VAR) {
            continue;
        }
        if (s->linkage == IR_LINK_EXTERN && s->size == 0) {
            continue;
        }
        EmuAllocKind k = s->space == PTX_SPACE_CONST ? EMU_ALLOC_CONST
            : s->managed ? EMU_ALLOC_MANAGED : EMU_ALLOC_GLOBAL;
        uint64_t a = emu_mem_alloc(mem, emu_sym_size(s), k, s->name);
        if (!a) {
            if (msg) {
                *msg = strdup("out of device memory for module variables");
            }
            return false;
        }
        m->global_addr[i] = a;
        if (s->init) {
            emu_mem_write(mem, a, s->init, s->size);
        }
    }
    /* relocations */
    for (uint32_t i = 0; i < ir->nglobals; i++) {
        const IrSymbol *s = ir->globals[i];
        if (!s->nrelocs || !m->global_addr[i]) {
            continue;
        }
        /* a copy of the entry, taken under the table's lock: a module
         * loaded beside a running kernel (emu_mem_beside) must not hold
         * a pointer into the table, which the kernel's device malloc
         * and free change in place */
        EmuAlloc held;
        const EmuAlloc *al = emu_mem_query(mem, m->global_addr[i], &held,
                                           NULL) ? &held : NULL;
        for (uint32_t r = 0; r < s->nrelocs; r++) {
            const IrReloc *rl = &s->relocs[r];
            uint64_t v = 0;
            if (rl->func) {
                v = emu_func_index(m, rl->func);
            } else if (rl->sym) {
                for (uint32_t g = 0; g < ir->nglobals; g++) {
                    if (ir->globals[g] == rl->sym) {
                        if (rl->sym->space == PTX_SPACE_SHARED) {
                            v = m->shared_offset[g];
                            if (rl->generic) {
                                v += EMU_SHARED_WINDOW;
                            }
                        } else {
                            v = m->global_addr[g];
                        }
                        break;
                    }
                }
            }
            v += (uint64_t)rl->addend;
            if (rl->mask) {
                v = (v & rl->mask) >> rl->shift;
            }
            if (al && rl->offset + rl->size <= al->size) {
                put_le(al->host + rl->offset, v, rl->size);
            }
        }
    }
    return true;
}

/* A function that calls one that cannot be loaded cannot be loaded
 * either (to a fixed point); false when out of memory. */
static bool fail_callers(EmuModule *m)
{
    const IrModule *ir = m->ir;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = 0; i < m->nfuncs; i++) {
            if (!m->funcs[i]) {
                continue;
            }
            const IrFunc *f = ir->funcs[i];
            for (uint32_t k = 0; k < f->ninsns && m->funcs[i]; k++) {
                const IrInsn *in = &f->insns[k];
                for (uint32_t o = 0; o < in->nopnds; o++) {
                    if (in->opnds[o].kind != IR_O_FUNC) {
                        continue;
                    }
                    uint32_t j = emu_func_index(m, in->opnds[o].u.func);
                    if (j >= m->nfuncs || !m->load_error[j]) {
                        continue;
                    }
                    static const char fmt[] =
                        "'%s' calls '%s', which cannot be loaded:\n%s";
                    size_t n = sizeof(fmt) + strlen(f->name) +
                        strlen(ir->funcs[j]->name) + strlen(m->load_error[j]);
                    char *e = malloc(n);
                    if (!e) {
                        return false;
                    }
                    snprintf(e, n, fmt, f->name, ir->funcs[j]->name,
                             m->load_error[j]);
                    m->load_error[i] = e;
                    m->load_status[i] = m->load_status[j];
                    emu_func_free(m->funcs[i]);
                    m->funcs[i] = NULL;
                    changed = true;
                    break;
                }
            }
        }
    }
    return true;
}

EmuModule *emu_module_load(EmuDevice *d, IrModule *ir, EmuStatus *st,
                           char **msg)
{
    EmuStatus s = EMU_ERR_OUT_OF_MEMORY;
    if (msg) {
        *msg = NULL;
    }
    EmuModule *m = calloc(1, sizeof(*m));
    if (!m) {
        ptx_module_free(ir);
        goto out;
    }
    m->dev = d;
    m->ir = ir;
    m->reconv = emu_its_module_mode(d, ir);
    m->nfuncs = ir->nfuncs;
    m->funcs = calloc(ir->nfuncs + 1, sizeof(*m->funcs));
    m->global_addr = calloc(ir->nglobals + 1, sizeof(uint64_t));
    m->shared_offset = calloc(ir->nglobals + 1, sizeof(uint64_t));
    if (!m->funcs || !m->global_addr || !m->shared_offset) {
        goto fail;
    }
    /* shared offsets first: initializers may hold them */
    if (!emu_shared_layout(m, msg) || !module_globals(m, msg)) {
        goto fail;
    }
    m->load_error = calloc(ir->nfuncs + 1, sizeof(char *));
    m->load_status = calloc(ir->nfuncs + 1, sizeof(EmuStatus));
    if (!m->load_error || !m->load_status) {
        goto fail;
    }
    for (uint32_t i = 0; i < ir->nfuncs; i++) {
        const IrFunc *f = ir->funcs[i];
        if (f->is_proto) {
            continue;
        }
        if (f->load_error) {
            m->load_error[i] = strdup(f->load_error);
            m->load_status[i] = EMU_ERR_INVALID_PTX;
            if (!m->load_error[i]) {
                goto fail;
            }
            continue;
        }
        char *fmsg = NULL;
        m->funcs[i] = emu_decode_func(m, f, &s, &fmsg);
        if (!m->funcs[i]) {
            if (s != EMU_ERR_UNSUPPORTED) {
                if (msg) {
                    *msg = fmsg;
                } else {
                    free(fmsg);
                }
                goto fail;
            }
            m->load_error[i] = fmsg ? fmsg : strdup("not supported\n");
            m->load_status[i] = s;
        }
    }
    if (!fail_callers(m) || !emu_regest_module(m)) {
        s = EMU_ERR_OUT_OF_MEMORY;
        goto fail;
    }
    uint32_t first_bad = UINT32_MAX;
    bool any_kernel = false;
    for (uint32_t i = 0; i < ir->nfuncs; i++) {
        if (ir->funcs[i]->is_entry && m->funcs[i]) {
            any_kernel = true;
        } else if (first_bad == UINT32_MAX && m->load_error[i] &&
                   ir->funcs[i]->is_entry) {
            first_bad = i;
        }
    }
    if (!any_kernel && first_bad != UINT32_MAX) {
        s = m->load_status[first_bad];
        if (msg) {
            *msg = m->load_error[first_bad];
            m->load_error[first_bad] = NULL;
        }
        goto fail;
    }
    for (uint32_t i = 0; i < ir->nfuncs; i++) {
        if (m->funcs[i] && ir->funcs[i]->is_entry) {
            m->funcs[i]->shared_bytes = emu_shared_static_bytes(m, i);
        }
    }
    emu_shared_layout_free(m);
    if (st) {
        *st = EMU_OK;
    }
    return m;
fail:
    emu_module_free(m);
out:
    if (st) {
        *st = s;
    }
    return NULL;
}

void emu_module_free(EmuModule *m)
{
    if (!m) {
        return;
    }
    if (m->global_addr && m->ir) {
        for (uint32_t i = 0; i < m->ir->nglobals; i++) {
            if (m->global_addr[i]) {
                emu_mem_release(m->dev->mem, m->global_addr[i]);
            }
        }
    }
    if (m->funcs) {
        for (uint32_t i = 0; i < m->nfuncs; i++) {
            EmuFunc *f = m->funcs[i];
            if (!f) {
                continue;
            }
            for (uint32_t v = 0; v < f->ir->nvars; v++) {
                PtxSpace sp = f->ir->vars[v]->space;
                if ((sp == PTX_SPACE_GLOBAL || sp == PTX_SPACE_CONST) &&
                    f->var_offset) {
                    emu_mem_release(m->dev->mem, f->var_offset[v]);
                }
            }
            emu_func_free(f);
        }
    }
    emu_symmap_free(m);
    emu_shared_layout_free(m);
    if (m->load_error) {
        for (uint32_t i = 0; i < m->nfuncs; i++) {
            free(m->load_error[i]);
        }
    }
    free(m->load_error);
    free(m->load_status);
    free(m->funcs);
    free(m->global_addr);
    free(m->shared_offset);
    ptx_module_free(m->ir);
    free(m);
}

EmuFunc *emu_module_kernel(EmuModule *m, const char *name)
{
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        if (m->funcs[i] && m->funcs[i]->ir->is_entry &&
            strcmp(m->funcs[i]->ir->name, name) == 0) {
            return m->funcs[i];
        }
    }
    return NULL;
}

EmuStatus emu_module_kernel_error(const EmuModule *m, const char *name,
                                  const char **msg)
{
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const IrFunc *f = m->ir->funcs[i];
        if (m->load_error[i] && f->is_entry && strcmp(f->name, name) == 0) {
            *msg = m->load_error[i];
            return m->load_status[i];
        }
    }
    *msg = NULL;
    return EMU_ERR_NOT_FOUND;
}

uint64_t emu_module_global(EmuModule *m, const char *name, uint64_t *size)
{
    for (uint32_t i = 0; i < m->ir->nglobals; i++) {
        const IrSymbol *s = m->ir->globals[i];
        if (m->global_addr[i] && strcmp(s->name, name) == 0) {
            if (size) {
                *size = emu_sym_size(s);
            }
            return m->global_addr[i];
        }
    }
    return 0;
}
