/*
 * ptx/link.c: linking PTX modules by name (see link.h).
 *
 * The inputs' IR stays where the parser built it (in the inputs'
 * arenas, which the linked module adopts); linking only builds new
 * global and function lists and redirects the operands, relocations,
 * call targets and aliases that name a resolved declaration.  CFGs and
 * reconvergence points are per function and stay valid.
 */
#include "ptx/link.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/arena.h"
#include "ptx/diag.h"
#include "ptx/ptx.h"
#include "ptx/symtab.h"

typedef struct Linker {
    IrModule **mods;
    uint32_t n;
    const char *const *srcs;
    const size_t *lens;
    PtxSymtab *vars;              /* name -> defining IrSymbol */
    PtxSymtab *funcs;             /* name -> defining IrFunc */
    char *msg;                    /* accumulated messages */
    size_t msglen;
    unsigned nerrors;
} Linker;

/* One located message against input i, appended to lk->msg. */
static void link_report(Linker *lk, uint32_t i, PtxSeverity sev, PtxLoc loc,
                        const char *fmt, const char *name)
{
    PtxDiag d;
    ptx_diag_init(&d, lk->mods[i]->filename, lk->srcs ? lk->srcs[i] : NULL,
                  lk->srcs && lk->lens ? lk->lens[i] : 0, NULL);
    ptx_diag_report(&d, sev, loc, fmt, name);
    ptx_diag_finish(&d);
    if (d.buf) {
        size_t k = strlen(d.buf);
        char *nm = realloc(lk->msg, lk->msglen + k + 1);
        if (nm) {
            memcpy(nm + lk->msglen, d.buf, k + 1);
            lk->msg = nm;
            lk->msglen += k;
        }
    }
    ptx_diag_fini(&d);
    if (sev == PTX_SEV_ERROR) {
        lk->nerrors++;
    }
}

static bool is_definition_var(const IrSymbol *s)
{
    return s->linkage == IR_LINK_VISIBLE || s->linkage == IR_LINK_WEAK ||
           s->linkage == IR_LINK_COMMON;
}

static bool is_definition_func(const IrFunc *f)
{
    return !f->is_decl && !f->is_proto &&
           (f->linkage == IR_LINK_VISIBLE || f->linkage == IR_LINK_WEAK ||
            f->is_entry);
}

/* Which input a symbol/function belongs to: recorded in the binding's
 * index when it is bound. */
static void bind_var(Linker *lk, uint32_t i, IrSymbol *s)
{
    uint32_t len = (uint32_t)strlen(s->name);
    PtxBinding *b = ptx_symtab_find(lk->vars, s->name, len);
    if (!b) {
        b = ptx_symtab_bind(lk->vars, s->name, len);
        b->kind = BIND_VAR;
        b->sym = s;
        b->index = i;
        return;
    }
    IrSymbol *old = b->sym;
    bool replace = false;
    if (s->linkage == IR_LINK_VISIBLE && old->linkage == IR_LINK_VISIBLE) {
        link_report(lk, i, PTX_SEV_ERROR, s->loc,
                    "multiple definition of '%s'", s->name);
        link_report(lk, b->index, PTX_SEV_NOTE, old->loc,
                    "'%s' was first defined here", old->name);
    } else if (s->linkage == IR_LINK_VISIBLE) {
        replace = true;               /* strong beats weak/common */
    } else if (s->linkage == IR_LINK_COMMON &&
               old->linkage == IR_LINK_COMMON && s->size > old->size) {
        replace = true;               /* the largest .common wins */
    }
    if (replace) {
        b->sym = s;
        b->index = i;
    }
}

static void bind_func(Linker *lk, uint32_t i, IrFunc *f)
{
    uint32_t len = (uint32_t)strlen(f->name);
    PtxBinding *b = ptx_symtab_find(lk->funcs, f->name, len);
    if (!b) {
        b = ptx_symtab_bind(lk->funcs, f->name, len);
        b->kind = BIND_FUNC;
        b->func = f;
        b->index = i;
        return;
    }
    IrFunc *old = b->func;
    bool strong = f->linkage != IR_LINK_WEAK;
    bool old_strong = old->linkage != IR_LINK_WEAK;
    if (strong && old_strong) {
        link_report(lk, i, PTX_SEV_ERROR, f->loc,
                    "multiple definition of '%s'", f->name);
        link_report(lk, b->index, PTX_SEV_NOTE, old->loc,
                    "'%s' was first defined here", old->name);
    } else if (strong) {
        b->func = f;
        b->index = i;
    }
}

/* The definition a variable reference binds to (itself when it is not a
 * resolved declaration). */
static const IrSymbol *resolve_var(Linker *lk, const IrSymbol *s)
{
    if (!s || s->scope != 0 || s->linkage == IR_LINK_INTERNAL) {
        return s;
    }
    PtxBinding *b = ptx_symtab_find(lk->vars, s->name,
                                    (uint32_t)strlen(s->name));
    return b ? b->sym : s;
}

static const IrFunc *resolve_func(Linker *lk, const IrFunc *f)
{
    if (!f || f->is_proto || f->linkage == IR_LINK_INTERNAL) {
        return f;
    }
    PtxBinding *b = ptx_symtab_find(lk->funcs, f->name,
                                    (uint32_t)strlen(f->name));
    return b ? b->func : f;
}

static void redirect_operand(Linker *lk, IrOperand *o)
{
    switch (o->kind) {
    case IR_O_SYM:
    case IR_O_ADDR:
        o->u.sym = resolve_var(lk, o->u.sym);
        break;
    case IR_O_FUNC:
        o->u.func = resolve_func(lk, o->u.func);
        break;
    case IR_O_VEC:
    case IR_O_LIST:
    case IR_O_PAIR:
    case IR_O_TUPLE:
        for (uint32_t k = 0; k < o->n; k++) {
            redirect_operand(lk, &o->u.elems[k]);
        }
        break;
    default:
        break;
    }
}

static void redirect_func(Linker *lk, IrFunc *f)
{
    for (uint32_t pc = 0; pc < f->ninsns; pc++) {
        IrInsn *in = &f->insns[pc];
        for (uint32_t k = 0; k < in->nopnds; k++) {
            redirect_operand(lk, &in->opnds[k]);
        }
    }
    for (uint32_t l = 0; l < f->nlabels; l++) {
        IrLabel *lb = &f->labels[l];
        for (uint32_t t = 0; lb->ftargets && t < lb->ntargets; t++) {
            lb->ftargets[t] = resolve_func(lk, lb->ftargets[t]);
        }
    }
}

static void redirect_relocs(Linker *lk, IrSymbol *s)
{
    for (uint32_t r = 0; r < s->nrelocs; r++) {
        s->relocs[r].sym = resolve_var(lk, s->relocs[r].sym);
        s->relocs[r].func = resolve_func(lk, s->relocs[r].func);
    }
}

/* .file indices of input i move up by `base` in the linked table. */
static void renumber_files(IrFunc *f, uint32_t base)
{
    for (uint32_t pc = 0; pc < f->ninsns; pc++) {
        if (f->insns[pc].src.file) {
            f->insns[pc].src.file += base;
        }
        if (f->insns[pc].src.inl_file) {
            f->insns[pc].src.inl_file += base;
        }
    }
}

static void free_inputs(IrModule **mods, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        ptx_module_free(mods[i]);
    }
}

IrModule *ptx_link(IrModule **mods, uint32_t n, const char *name,
                   const char *const *srcs, const size_t *lens, char **msg)
{
    if (msg) {
        *msg = NULL;
    }
    if (n == 0) {
        if (msg) {
            *msg = strdup("error: nothing to link\n");
        }
        return NULL;
    }
    if (n == 1) {
        return mods[0];
    }
    Linker lk = {mods, n, srcs, lens, ptx_symtab_new(), ptx_symtab_new(),
                 NULL, 0, 0};
    for (uint32_t i = 1; i < n; i++) {
        if (mods[i]->address_size != mods[0]->address_size) {
            link_report(&lk, i, PTX_SEV_ERROR, ptx_loc(1, 1),
                        "'.address_size' differs from the first module's "
                        "(%s)", mods[0]->filename);
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        for (uint32_t g = 0; g < mods[i]->nglobals; g++) {
            if (is_definition_var(mods[i]->globals[g])) {
                bind_var(&lk, i, mods[i]->globals[g]);
            }
        }
        for (uint32_t k = 0; k < mods[i]->nfuncs; k++) {
            if (is_definition_func(mods[i]->funcs[k])) {
                bind_func(&lk, i, mods[i]->funcs[k]);
            }
        }
    }
    if (lk.nerrors) {
        goto fail;
    }

    IrModule *out = ptx_module_new(name);
    PtxArena *a = out->arena;
    out->address_size = mods[0]->address_size;
    out->targets = mods[0]->targets;
    out->ntargets = mods[0]->ntargets;
    uint32_t nglobals = 0, nfuncs = 0, nfiles = 1, nsections = 0,
             npragmas = 0, naliases = 0;
    for (uint32_t i = 0; i < n; i++) {
        const IrModule *m = mods[i];
        if (m->version_major > out->version_major ||
            (m->version_major == out->version_major &&
             m->version_minor > out->version_minor)) {
            out->version_major = m->version_major;
            out->version_minor = m->version_minor;
        }
        nglobals += m->nglobals;
        nfuncs += m->nfuncs;
        nfiles += m->nfiles ? m->nfiles - 1 : 0;
        nsections += m->nsections;
        npragmas += m->npragmas;
        naliases += m->naliases;
    }
    out->globals = ptx_arena_alloc(a, (nglobals + 1) * sizeof(*out->globals));
    out->funcs = ptx_arena_alloc(a, (nfuncs + 1) * sizeof(*out->funcs));
    out->files = ptx_arena_alloc(a, nfiles * sizeof(*out->files));
    out->sections = ptx_arena_alloc(a, (nsections + 1) * sizeof(char *));
    out->pragmas = ptx_arena_alloc(a, (npragmas + 1) * sizeof(char *));
    out->aliases = ptx_arena_alloc(a, (naliases + 1) * sizeof(IrAlias));
    out->more_arenas = ptx_arena_alloc(a, n * sizeof(*out->more_arenas));
    out->nfiles = 1;
    for (uint32_t i = 0; i < n; i++) {
        IrModule *m = mods[i];
        uint32_t file_base = out->nfiles - 1;
        for (uint32_t k = 1; k < m->nfiles; k++) {
            out->files[out->nfiles++] = m->files[k];
        }
        for (uint32_t g = 0; g < m->nglobals; g++) {
            IrSymbol *s = m->globals[g];
            redirect_relocs(&lk, s);
            /* A declaration or a losing weak/common definition gives way
             * to the definition it binds to. */
            if (s->scope == 0 && s->linkage != IR_LINK_INTERNAL &&
                resolve_var(&lk, s) != s) {
                continue;
            }
            out->globals[out->nglobals++] = s;
        }
        for (uint32_t k = 0; k < m->nfuncs; k++) {
            IrFunc *f = m->funcs[k];
            f->file = m->filename;
            renumber_files(f, file_base);
            redirect_func(&lk, f);
            if (resolve_func(&lk, f) != f) {
                continue;
            }
            out->funcs[out->nfuncs++] = f;
        }
        for (uint32_t k = 0; k < m->naliases; k++) {
            IrAlias al = m->aliases[k];
            al.target = (IrFunc *)resolve_func(&lk, al.target);
            out->aliases[out->naliases++] = al;
        }
        for (uint32_t k = 0; k < m->nsections; k++) {
            out->sections[out->nsections++] = m->sections[k];
        }
        for (uint32_t k = 0; k < m->npragmas; k++) {
            out->pragmas[out->npragmas++] = m->pragmas[k];
        }
        out->more_arenas[out->nmore_arenas++] = m->arena;
    }
    ptx_symtab_free(lk.vars);
    ptx_symtab_free(lk.funcs);
    free(lk.msg);
    return out;

fail:
    ptx_symtab_free(lk.vars);
    ptx_symtab_free(lk.funcs);
    free_inputs(mods, n);
    if (msg) {
        *msg = lk.msg;
    } else {
        free(lk.msg);
    }
    return NULL;
}
