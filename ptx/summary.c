/*
 * ptx/summary.c: what `ptxemu check` prints for a valid module: version,
 * targets, then per function its kind, parameters, registers by type and
 * static memory.  Kept apart from the printer: this is for people, the
 * printer is for the parser.
 */
#include "config.h"

#include <string.h>

#include "ptx/summary.h"

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return a > 1 ? (v + a - 1) / a * a : v;
}

static uint64_t natural_align(const IrSymbol *s)
{
    if (s->align) {
        return s->align;
    }
    unsigned bits = ptx_type_bits(s->type);
    uint64_t a = bits >= 8 ? bits / 8 : 1;
    return a * (s->vec ? s->vec : 1);
}

static uint64_t space_bytes(IrSymbol *const *v, uint32_t n, PtxSpace space)
{
    uint64_t total = 0;
    for (uint32_t i = 0; i < n; i++) {
        const IrSymbol *s = v[i];
        if (s->space != space || s->kind != IR_SYM_VAR ||
            s->linkage == IR_LINK_EXTERN) {
            continue;
        }
        total = align_up(total, natural_align(s)) + s->size;
    }
    return total;
}

uint64_t ptx_func_static_bytes(const IrModule *m, const IrFunc *f,
                               PtxSpace space)
{
    uint64_t n = f ? space_bytes(f->vars, f->nvars, space) : 0;
    if (space == PTX_SPACE_SHARED || space == PTX_SPACE_CONST) {
        n += space_bytes(m->globals, m->nglobals, space);
    }
    return n;
}

static void print_param(FILE *out, const IrSymbol *p)
{
    fprintf(out, ".%s", ptx_space_name(p->space));
    if (p->is_ptr) {
        fprintf(out, " .ptr");
        if (p->ptr_space) {
            fprintf(out, " .%s", ptx_space_name(p->ptr_space));
        }
        if (p->ptr_align) {
            fprintf(out, " .align %u", p->ptr_align);
        }
    } else if (p->align) {
        fprintf(out, " .align %u", p->align);
    }
    if (p->vec > 1) {
        fprintf(out, " .v%u", p->vec);
    }
    fprintf(out, " .%s %s", ptx_type_name(p->type), p->name);
    for (uint32_t d = 0; d < p->ndims; d++) {
        fprintf(out, "[%llu]", (unsigned long long)p->dims[d]);
    }
}

static void print_func(FILE *out, const IrModule *m, const IrFunc *f)
{
    fprintf(out, "%s %s(", f->is_entry ? "kernel" : "function", f->name);
    for (uint32_t i = 0; i < f->nparams; i++) {
        fprintf(out, "%s", i ? ", " : "");
        print_param(out, f->params[i]);
    }
    fprintf(out, ")");
    if (f->nrets) {
        fprintf(out, " -> (");
        for (uint32_t i = 0; i < f->nrets; i++) {
            fprintf(out, "%s", i ? ", " : "");
            print_param(out, f->rets[i]);
        }
        fprintf(out, ")");
    }
    if (f->is_decl) {
        fprintf(out, " [declaration only]\n");
        return;
    }
    fprintf(out, "\n  instructions: %u, basic blocks: %u\n", f->ninsns,
            f->nblocks);
    uint32_t count[PTX_T_COUNT];
    memset(count, 0, sizeof(count));
    for (uint32_t i = 0; i < f->nregs; i++) {
        count[f->regs[i].type] += f->regs[i].vec ? f->regs[i].vec : 1;
    }
    fprintf(out, "  registers:");
    bool any = false;
    for (int t = 1; t < PTX_T_COUNT; t++) {
        if (count[t]) {
            fprintf(out, " .%s=%u", ptx_type_name((PtxType)t), count[t]);
            any = true;
        }
    }
    fprintf(out, "%s\n", any ? "" : " none");
    fprintf(out, "  static bytes: shared=%llu local=%llu const=%llu\n",
            (unsigned long long)ptx_func_static_bytes(m, f, PTX_SPACE_SHARED),
            (unsigned long long)ptx_func_static_bytes(m, f, PTX_SPACE_LOCAL),
            (unsigned long long)ptx_func_static_bytes(m, f, PTX_SPACE_CONST));
    if (f->maxntid[0] || f->reqntid[0] || f->minnctapersm || f->maxnreg) {
        fprintf(out, "  directives:");
        if (f->maxntid[0]) {
            fprintf(out, " .maxntid %u,%u,%u", f->maxntid[0], f->maxntid[1],
                    f->maxntid[2]);
        }
        if (f->reqntid[0]) {
            fprintf(out, " .reqntid %u,%u,%u", f->reqntid[0], f->reqntid[1],
                    f->reqntid[2]);
        }
        if (f->minnctapersm) {
            fprintf(out, " .minnctapersm %u", f->minnctapersm);
        }
        if (f->maxnreg) {
            fprintf(out, " .maxnreg %u", f->maxnreg);
        }
        fprintf(out, "\n");
    }
}

void ptx_print_summary(FILE *out, const IrModule *m)
{
    fprintf(out, "%s: PTX %u.%u, target", m->filename, m->version_major,
            m->version_minor);
    for (uint32_t i = 0; i < m->ntargets; i++) {
        fprintf(out, "%s%s", i ? ", " : " ", m->targets[i]);
    }
    fprintf(out, ", address size %u\n", m->address_size);
    uint32_t nk = 0, nf = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        if (m->funcs[i]->is_entry) {
            nk++;
        } else {
            nf++;
        }
    }
    fprintf(out, "%u kernel%s, %u function%s, %u global variable%s\n", nk,
            nk == 1 ? "" : "s", nf, nf == 1 ? "" : "s", m->nglobals,
            m->nglobals == 1 ? "" : "s");
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        print_func(out, m, m->funcs[i]);
    }
}
