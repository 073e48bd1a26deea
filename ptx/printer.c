/*
 * ptx/printer.c: IR back to PTX text.
 *
 * The contract is a round trip: parsing the printed text gives an IR equal
 * (ir_module_equal) to the one printed, and printing that again gives the
 * same text.  So the printer writes everything the IR records and nothing
 * it has to guess:
 *
 * - Floats are written as 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX, never decimal,
 *   so every bit survives (NaN payloads and -0.0 included).
 * - Suffixes are written in the source order kept in IrInsn.sfx.
 * - Declarations are written at the top of their scope: the IR knows the
 *   scope of a .reg or .param but not where in the scope it stood, and a
 *   declaration is in force for the whole scope anyway.
 * - The IR does not record how globals and functions were interleaved.  We
 *   write prototypes first (as far as some later reference needs them),
 *   then all globals, then the functions in IrModule.funcs order, so every
 *   name is declared before use and first-declaration order is kept.
 * - Initializers are written from the bytes, one value per element of the
 *   declared type, nested per array dimension; a relocated element is
 *   written as PTX ISA 5.4.4 spells it: sym, generic(sym)+4, or the
 *   byte-mask form 0xFF00(generic(sym)+4).
 *
 * Output goes to a FILE* with plain fprintf: this is not a hot path.
 */
#include "ptx/ptx.h"
#include "ptx/opcode.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct FuncIndex {
    const IrFunc *f;
    uint32_t idx;
} FuncIndex;

typedef struct Printer {
    FILE *out;
    const IrModule *m;
    IrSrcPos prev;          /* .loc last written in this function */
    FuncIndex *fidx;        /* m->funcs sorted by pointer */
    uint32_t nfidx;
    bool *printed;          /* per function: fully printed already */
} Printer;

/* ---- small pieces ---- */

/* Names from the tables may or may not carry their dot; write exactly one. */
static void put_dotted(FILE *out, const char *name)
{
    if (!name || !*name) {
        return;
    }
    if (name[0] != '.') {
        fputc('.', out);
    }
    fputs(name, out);
}

static void put_space(FILE *out, PtxSpace s)
{
    put_dotted(out, ptx_space_name(s));
}

static void put_type(FILE *out, PtxType t)
{
    put_dotted(out, ptx_type_name(t));
}

static const char *linkage_name(IrLinkage l)
{
    switch (l) {
    case IR_LINK_VISIBLE:
        return ".visible";
    case IR_LINK_EXTERN:
        return ".extern";
    case IR_LINK_WEAK:
        return ".weak";
    case IR_LINK_COMMON:
        return ".common";
    default:
        return NULL;
    }
}

static void put_linkage(FILE *out, IrLinkage l)
{
    const char *s = linkage_name(l);
    if (s) {
        fputs(s, out);
        fputc(' ', out);
    }
}

/* Strings (pragmas, file names) are kept as the text between the quotes,
 * escapes and all, so they are written back unchanged.  A bare quote or
 * newline cannot come from the lexer; escape them anyway so the output
 * stays one token. */
static void put_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const char *p = s ? s : ""; *p; p++) {
        if (*p == '"' && (p == s || p[-1] != '\\')) {
            fputs("\\\"", out);
        } else if (*p == '\n') {
            fputs("\\n", out);
        } else {
            fputc(*p, out);
        }
    }
    fputc('"', out);
}

/* A signed offset after a base: "+8", or "+-8" as nvcc writes it. */
static void put_offset(FILE *out, int64_t v)
{
    if (v != 0) {
        fprintf(out, "+%" PRId64, v);
    }
}

static void put_int(FILE *out, int64_t v)
{
    /* -9223372036854775808 would lex as an unsigned literal and then be
     * negated; the hex spelling has exactly the right bits. */
    if (v == INT64_MIN) {
        fputs("0x8000000000000000", out);
    } else {
        fprintf(out, "%" PRId64, v);
    }
}

static void put_fbits(FILE *out, uint64_t bits, unsigned size)
{
    if (size == 64) {
        fprintf(out, "0d%016" PRIX64, bits);
    } else {
        fprintf(out, "0f%08" PRIX32, (uint32_t)bits);
    }
}

static const char *const sel_names[] = {
    "", ".x", ".y", ".z", ".w", ".b0", ".b1", ".b2", ".b3", ".h0", ".h1"
};

static void put_sel(FILE *out, unsigned sel)
{
    if (sel & (IR_SEL_BYTES | IR_SEL_HALVES)) {
        bool bytes = (sel & IR_SEL_BYTES) != 0;
        unsigned nd = ((sel >> 12) & 3) + 1;
        fputs(bytes ? ".b" : ".h", out);
        for (unsigned i = 0; i < nd; i++) {
            unsigned d = (sel >> (i * (bytes ? 3 : 2))) & (bytes ? 7 : 3);
            fputc('0' + (int)d, out);
        }
    } else if (sel < sizeof(sel_names) / sizeof(sel_names[0])) {
        fputs(sel_names[sel], out);
    }
}

static void put_sreg(FILE *out, const IrOperand *o)
{
    const char *name = ptx_sreg_name((PtxSreg)o->id);
    if (!name) {
        name = "%<bad-sreg>";
    }
    /* Indexed families: %envreg3, %pm5, and %pm5_64 (index before _64). */
    if (ptx_sreg_nidx((PtxSreg)o->id)) {
        size_t n = strlen(name);
        if (n > 3 && strcmp(name + n - 3, "_64") == 0) {
            fprintf(out, "%.*s%" PRId64 "_64", (int)(n - 3), name, o->imm);
        } else {
            fprintf(out, "%s%" PRId64, name, o->imm);
        }
    } else {
        fputs(name, out);
    }
    put_sel(out, o->sel);
}

static const char *reg_name(const IrFunc *f, int32_t id)
{
    if (f && id >= 0 && (uint32_t)id < f->nregs && f->regs[id].name) {
        return f->regs[id].name;
    }
    return "%<bad-reg>";
}

static const char *label_name(const IrFunc *f, int32_t id)
{
    if (f && id >= 0 && (uint32_t)id < f->nlabels && f->labels[id].name) {
        return f->labels[id].name;
    }
    return "<bad-label>";
}

/* ---- operands and instructions ---- */

static void put_operand(FILE *out, const IrFunc *f, const IrOperand *o);

static void put_elems(FILE *out, const IrFunc *f, const IrOperand *o,
                      const char *sep)
{
    for (uint32_t i = 0; i < o->n; i++) {
        if (i > 0) {
            fputs(sep, out);
        }
        put_operand(out, f, &o->u.elems[i]);
    }
}

static void put_operand(FILE *out, const IrFunc *f, const IrOperand *o)
{
    if (o->neg) {
        fputc(o->neg == IR_NEG_MINUS ? '-' : '!', out);
    }
    switch ((IrOpndKind)o->kind) {
    case IR_O_REG:
        fputs(reg_name(f, o->id), out);
        put_sel(out, o->sel);
        break;
    case IR_O_SREG:
        put_sreg(out, o);
        break;
    case IR_O_IMM:
        put_int(out, o->imm);
        break;
    case IR_O_FIMM:
        put_fbits(out, (uint64_t)o->imm, o->fsize);
        break;
    case IR_O_SYM:
        fputs(o->u.sym ? o->u.sym->name : "<bad-sym>", out);
        put_offset(out, o->imm);
        break;
    case IR_O_FUNC:
        fputs(o->u.func ? o->u.func->name : "<bad-func>", out);
        break;
    case IR_O_LABEL:
        fputs(label_name(f, o->id), out);
        break;
    case IR_O_ADDR: {
        bool any = false;
        fputc('[', out);
        if (o->id >= 0) {
            fputs(reg_name(f, o->id), out);
            any = true;
        }
        if (o->u.sym) {
            if (any) {
                fputc('+', out);
            }
            fputs(o->u.sym->name, out);
            any = true;
        }
        if (!any) {
            put_int(out, o->imm);
        } else {
            put_offset(out, o->imm);
        }
        fputc(']', out);
        break;
    }
    case IR_O_VEC:
        fputc('{', out);
        put_elems(out, f, o, ", ");
        fputc('}', out);
        break;
    case IR_O_LIST:
        fputc('(', out);
        put_elems(out, f, o, ", ");
        fputc(')', out);
        break;
    case IR_O_PAIR:
        put_elems(out, f, o, "|");
        break;
    case IR_O_TUPLE:
        fputc('[', out);
        put_elems(out, f, o, ", ");
        fputc(']', out);
        break;
    case IR_O_SINK:
        fputc('_', out);
        break;
    case IR_O_NONE:
    default:
        break;
    }
}

void ptx_print_insn(FILE *out, const IrModule *m, const IrFunc *f,
                    const IrInsn *in)
{
    (void)m;
    if (in->guard >= 0) {
        fprintf(out, "@%s%s ", in->guard_neg ? "!" : "",
                reg_name(f, in->guard));
    }
    const PtxOpInfo *info = ptx_opinfo((PtxOpcode)in->op);
    fputs(info && info->name ? info->name : "<bad-op>", out);
    for (unsigned i = 0; i < in->nsfx; i++) {
        unsigned v = in->sfx[i];
        if (v & IR_SFX_TYPE) {
            put_type(out, (PtxType)(v & ~IR_SFX_TYPE));
        } else {
            put_dotted(out, ptx_mod_name((PtxMod)v));
        }
    }
    for (unsigned i = 0; i < in->nopnds; i++) {
        fputs(i == 0 ? " " : ", ", out);
        put_operand(out, f, &in->opnds[i]);
    }
    fputc(';', out);
}

/* ---- declarations ---- */

static const char *symkind_name(unsigned kind)
{
    switch (kind) {
    case IR_SYM_TEXREF:
        return ".texref";
    case IR_SYM_SAMPLERREF:
        return ".samplerref";
    case IR_SYM_SURFREF:
        return ".surfref";
    default:
        return NULL;
    }
}

/* IEEE binary16 bits -> binary32 bits of the same value (exact). */
static uint32_t f16_to_f32_bits(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    if (exp == 0x1f) {
        return sign | 0x7f800000u | (man << 13);
    }
    if (exp == 0) {
        if (man == 0) {
            return sign;
        }
        /* Subnormal: normalise; 2^-24 * man. */
        uint32_t shifts = 0;
        while (!(man & 0x400u)) {
            man <<= 1;
            shifts++;
        }
        return sign | ((113 - shifts) << 23) | ((man & 0x3ffu) << 13);
    }
    return sign | ((exp + 112) << 23) | (man << 13);
}

/* Element value of an initializer at `p` (elsz bytes, little endian). */
static void put_init_value(FILE *out, const IrSymbol *s, const uint8_t *p,
                           unsigned elsz)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < elsz && i < 8; i++) {
        v |= (uint64_t)p[i] << (8 * i);
    }
    PtxTypeKind k = ptx_type_kind(s->type);
    if (k == PTX_TK_F && (s->type == PTX_T_F32 || s->type == PTX_T_F64)) {
        put_fbits(out, v, elsz * 8);
    } else if (s->type == PTX_T_F16) {
        /* An integer would be converted as a value, and there is no f16
         * literal: write the f32 of the same value, which converts back
         * exactly (only a NaN's payload is not kept). */
        put_fbits(out, f16_to_f32_bits((uint16_t)v), 32);
    } else if (k == PTX_TK_F) {
        /* .bf16 and the x2 types: raw bits. */
        fprintf(out, "0x%" PRIX64, v);
    } else if (k == PTX_TK_S && elsz < 8) {
        unsigned sh = 64 - 8 * elsz;
        put_int(out, (int64_t)(v << sh) >> sh);
    } else if (k == PTX_TK_S) {
        put_int(out, (int64_t)v);
    } else {
        fprintf(out, "%" PRIu64, v);
    }
}

static void put_reloc(FILE *out, const IrReloc *r)
{
    const char *name = r->sym ? r->sym->name
                       : r->func ? r->func->name : "<bad-reloc>";
    if (r->mask) {
        fprintf(out, "0x%" PRIX64 "(", r->mask);
    }
    if (r->generic) {
        fprintf(out, "generic(%s)", name);
    } else {
        fputs(name, out);
    }
    put_offset(out, r->addend);
    if (r->mask) {
        fputc(')', out);
    }
}

typedef struct InitWalk {
    FILE *out;
    const IrSymbol *s;
    unsigned elsz;
    uint64_t off;           /* byte offset of the next element */
    uint32_t reloc;         /* next reloc to consider */
} InitWalk;

static void init_leaf(InitWalk *w)
{
    const IrSymbol *s = w->s;
    /* Relocs are in offset order; one that starts mid-element cannot be
     * written back and is skipped (the round-trip test would show it). */
    while (w->reloc < s->nrelocs && s->relocs[w->reloc].offset < w->off) {
        w->reloc++;
    }
    if (w->reloc < s->nrelocs && s->relocs[w->reloc].offset == w->off) {
        put_reloc(w->out, &s->relocs[w->reloc++]);
    } else {
        put_init_value(w->out, s, s->init + w->off, w->elsz);
    }
    w->off += w->elsz;
}

static void init_element(InitWalk *w)
{
    unsigned vec = w->s->vec > 1 ? w->s->vec : 1;
    if (vec == 1) {
        init_leaf(w);
        return;
    }
    fputc('{', w->out);
    for (unsigned i = 0; i < vec; i++) {
        if (i > 0) {
            fputs(", ", w->out);
        }
        init_leaf(w);
    }
    fputc('}', w->out);
}

/* Nested braces, one level per array dimension; long innermost lists
 * are broken every 16 values to keep lines readable. */
static void init_level(InitWalk *w, const uint64_t *dims, uint32_t nd)
{
    if (nd == 0) {
        init_element(w);
        return;
    }
    fputc('{', w->out);
    for (uint64_t i = 0; i < dims[0]; i++) {
        if (i > 0) {
            fputs(nd == 1 && i % 16 == 0 ? ",\n\t\t" : ", ", w->out);
        }
        init_level(w, dims + 1, nd - 1);
    }
    fputc('}', w->out);
}

static void put_initializer(FILE *out, const IrSymbol *s)
{
    unsigned elsz = ptx_type_bits(s->type) / 8;
    unsigned vec = s->vec > 1 ? s->vec : 1;
    if (!s->init || elsz == 0 || s->size == 0) {
        return;
    }
    /* Element counts per dimension; an unsized first dimension is what
     * the data fills. */
    uint64_t dims[4] = {1, 1, 1, 1};
    uint32_t nd = s->ndims < 4 ? s->ndims : 4;
    uint64_t inner = (uint64_t)elsz * vec;
    for (uint32_t d = 1; d < nd; d++) {
        dims[d] = s->dims[d];
        inner *= s->dims[d] ? s->dims[d] : 1;
    }
    if (nd > 0) {
        dims[0] = s->dims[0] ? s->dims[0] : s->size / inner;
    }
    uint64_t total = inner;
    if (nd > 0) {
        total *= dims[0];
    }
    InitWalk w = {out, s, elsz, 0, 0};
    fputs(" = ", out);
    if (total != s->size) {
        /* Dimensions and size disagree: write a flat list of the data,
         * which is the best that can be done. */
        uint64_t flat[1] = {s->size / ((uint64_t)elsz * vec)};
        init_level(&w, flat, 1);
        return;
    }
    init_level(&w, dims, nd);
}

/* One variable or parameter declaration, without the terminator. */
static void put_symbol_decl(FILE *out, const IrSymbol *s, bool with_linkage,
                            bool with_init)
{
    if (with_linkage) {
        put_linkage(out, s->linkage);
    }
    if (s->space != PTX_SPACE_NONE) {
        put_space(out, s->space);
        fputc(' ', out);
    }
    if (s->managed) {
        fputs(".attribute(.managed) ", out);
    }
    if (s->align) {
        fprintf(out, ".align %" PRIu32 " ", s->align);
    }
    const char *kind = symkind_name(s->kind);
    if (kind && s->type == PTX_T_NONE) {
        fputs(kind, out);
    } else {
        if (s->vec > 1) {
            fprintf(out, ".v%u ", (unsigned)s->vec);
        }
        put_type(out, s->type);
    }
    if (s->is_ptr) {
        fputs(" .ptr", out);
        if (s->ptr_space != PTX_SPACE_NONE) {
            put_space(out, s->ptr_space);
        }
        if (s->ptr_align) {
            fprintf(out, ".align %" PRIu32, s->ptr_align);
        }
    }
    fputc(' ', out);
    fputs(s->name ? s->name : "_", out);
    for (uint32_t d = 0; d < s->ndims && d < 4; d++) {
        if (s->dims[d]) {
            fprintf(out, "[%" PRIu64 "]", s->dims[d]);
        } else {
            fputs("[]", out);
        }
    }
    if (with_init && s->ntexattrs) {
        fputs(" = { ", out);
        for (uint32_t i = 0; i < s->ntexattrs; i++) {
            fprintf(out, "%s%s = %s", i ? ", " : "", s->texattrs[i].key,
                    s->texattrs[i].value);
        }
        fputs(" }", out);
    } else if (with_init) {
        put_initializer(out, s);
    }
}

static void put_param_list(FILE *out, IrSymbol *const *ps, uint32_t n,
                           bool multiline)
{
    fputc('(', out);
    for (uint32_t i = 0; i < n; i++) {
        if (multiline) {
            fputs(i > 0 ? ",\n\t" : "\n\t", out);
        } else if (i > 0) {
            fputs(", ", out);
        }
        put_symbol_decl(out, ps[i], false, false);
    }
    if (multiline && n > 0) {
        fputc('\n', out);
    }
    fputc(')', out);
}

static void put_dims3(FILE *out, const char *dir, const uint32_t v[3])
{
    if (!v[0] && !v[1] && !v[2]) {
        return;
    }
    unsigned n = v[2] ? 3 : v[1] ? 2 : 1;
    fprintf(out, "\n%s ", dir);
    for (unsigned i = 0; i < n; i++) {
        fprintf(out, i ? ", %" PRIu32 : "%" PRIu32, v[i]);
    }
}

/* The header of a function: linkage, kind, returns, name, parameters and
 * the performance directives, each directive on a line of its own; no
 * newline after the last. */
static void put_func_head(FILE *out, const IrFunc *f)
{
    put_linkage(out, f->linkage);
    fputs(f->is_entry ? ".entry " : ".func ", out);
    if (f->nrets > 0) {
        put_param_list(out, f->rets, f->nrets, false);
        fputc(' ', out);
    }
    fputs(f->name, out);
    put_param_list(out, f->params, f->nparams, f->nparams > 0);
    put_dims3(out, ".maxntid", f->maxntid);
    put_dims3(out, ".reqntid", f->reqntid);
    if (f->minnctapersm) {
        fprintf(out, "\n.minnctapersm %" PRIu32, f->minnctapersm);
    }
    if (f->maxnctapersm) {
        fprintf(out, "\n.maxnctapersm %" PRIu32, f->maxnctapersm);
    }
    if (f->maxnreg) {
        fprintf(out, "\n.maxnreg %" PRIu32, f->maxnreg);
    }
    if (f->explicitcluster) {
        fputs("\n.explicitcluster", out);
    }
    if (f->blocksareclusters) {
        fputs("\n.blocksareclusters", out);
    }
    if (f->maxclusterrank) {
        fprintf(out, "\n.maxclusterrank %" PRIu32, f->maxclusterrank);
    }
    put_dims3(out, ".reqnctapercluster", f->reqnctapercluster);
    if (f->noreturn) {
        fputs("\n.noreturn", out);
    }
}

static void put_callproto(FILE *out, const IrFunc *p)
{
    fputs(".callprototype ", out);
    if (p->nrets > 0) {
        put_param_list(out, p->rets, p->nrets, false);
        fputc(' ', out);
    }
    fputc('_', out);
    if (p->nparams > 0) {
        fputc(' ', out);
        put_param_list(out, p->params, p->nparams, false);
    }
    if (p->noreturn) {
        fputs(" .noreturn", out);
    }
}

/* ---- function bodies ---- */

/* Does "PREFIX<k>" (k decimal without leading zeros) name register k of a
 * run starting at `first`?  The prefix must not end in a digit, or
 * "%r1<3>" would be ambiguous. */
static bool reg_in_run(const char *first, size_t plen, const char *name,
                       uint32_t k)
{
    char num[16];
    int n = snprintf(num, sizeof(num), "%" PRIu32, k);
    return strncmp(first, name, plen) == 0 && strlen(name) == plen + (size_t)n
           && memcmp(name + plen, num, (size_t)n) == 0;
}

static void put_reg_type(FILE *out, const IrReg *r)
{
    fputs("\t.reg ", out);
    if (r->vec > 1) {
        fprintf(out, ".v%u ", (unsigned)r->vec);
    }
    put_type(out, r->type);
    fputc(' ', out);
}

/* Is register r declared as a .reg parameter (so not again in the body)? */
static bool reg_is_param(const IrFunc *f, const IrReg *r)
{
    for (uint32_t i = 0; i < f->nparams; i++) {
        const IrSymbol *p = f->params[i];
        if (p->space == PTX_SPACE_REG && p->name && r->name
            && strcmp(p->name, r->name) == 0) {
            return true;
        }
    }
    for (uint32_t i = 0; i < f->nrets; i++) {
        const IrSymbol *p = f->rets[i];
        if (p->space == PTX_SPACE_REG && p->name && r->name
            && strcmp(p->name, r->name) == 0) {
            return true;
        }
    }
    return false;
}

/* Per-function lists, built once so that printing a body is linear in
 * its size even with thousands of call-sequence scopes. */
typedef struct BodyIndex {
    uint32_t *label_head;   /* per insn position 0..ninsns: first label */
    uint32_t *label_next;   /* per label: next at the same position */
    uint32_t *child_head;   /* per scope: first child scope */
    uint32_t *child_next;   /* per scope: next sibling */
    uint32_t *reg_head;     /* per scope: first register */
    uint32_t *reg_next;     /* per register: next one of its scope */
    uint32_t *var_head;     /* per scope: first variable */
    uint32_t *var_next;     /* per variable: next one of its scope */
} BodyIndex;

#define NIL UINT32_MAX

static void put_scope_decls(FILE *out, const IrFunc *f, const BodyIndex *bx,
                            uint32_t scope)
{
    uint32_t i = bx->reg_head[scope];
    while (i != NIL) {
        const IrReg *r = &f->regs[i];
        if (reg_is_param(f, r)) {
            i = bx->reg_next[i];
            continue;
        }
        /* A run %r0, %r1, ... %r(N-1) of one type, consecutive in the
         * register table, is what "%r<N>" declares. */
        size_t len = r->name ? strlen(r->name) : 0;
        uint32_t run = 1, last = i;
        if (len >= 2 && r->name[len - 1] == '0'
            && !(r->name[len - 2] >= '0' && r->name[len - 2] <= '9')) {
            for (;;) {
                uint32_t j = bx->reg_next[last];
                if (j != last + 1) {
                    break;
                }
                const IrReg *q = &f->regs[j];
                if (q->type != r->type || q->vec != r->vec || !q->name
                    || !reg_in_run(r->name, len - 1, q->name, run)) {
                    break;
                }
                run++;
                last = j;
            }
        }
        put_reg_type(out, r);
        if (run >= 2) {
            fprintf(out, "%.*s<%" PRIu32 ">;\n", (int)(len - 1), r->name,
                    run);
        } else {
            fprintf(out, "%s;\n", r->name ? r->name : "%<bad-reg>");
        }
        i = bx->reg_next[last];
    }
    for (uint32_t v = bx->var_head[scope]; v != NIL; v = bx->var_next[v]) {
        fputc('\t', out);
        put_symbol_decl(out, f->vars[v], true, true);
        fputs(";\n", out);
    }
}

static void put_label(Printer *p, const IrFunc *f, const IrLabel *l)
{
    FILE *out = p->out;
    fprintf(out, "%s:", l->name);
    switch (l->kind) {
    case IR_LABEL_BRANCHTARGETS:
        fputs(" .branchtargets ", out);
        for (uint32_t i = 0; i < l->ntargets; i++) {
            fprintf(out, "%s%s", i ? ", " : "", label_name(f, l->targets[i]));
        }
        fputc(';', out);
        break;
    case IR_LABEL_CALLTARGETS:
        fputs(" .calltargets ", out);
        for (uint32_t i = 0; i < l->ntargets; i++) {
            const IrFunc *t = l->ftargets[i];
            fprintf(out, "%s%s", i ? ", " : "", t ? t->name : "<bad-func>");
        }
        fputc(';', out);
        break;
    case IR_LABEL_CALLPROTO:
        fputc(' ', out);
        if (l->proto) {
            put_callproto(out, l->proto);
        }
        fputc(';', out);
        break;
    default:
        break;
    }
    fputc('\n', out);
}

static void put_labels_at(Printer *p, const IrFunc *f, const BodyIndex *bx,
                          uint32_t pos, uint32_t scope)
{
    for (uint32_t l = bx->label_head[pos]; l != NIL; l = bx->label_next[l]) {
        if (f->labels[l].scope == scope) {
            put_label(p, f, &f->labels[l]);
        }
    }
}

static void put_insn_line(Printer *p, const IrFunc *f, const IrInsn *in)
{
    if (in->src.file != 0
        && (in->src.file != p->prev.file || in->src.line != p->prev.line
            || in->src.col != p->prev.col)) {
        fprintf(p->out, "\t.loc\t%" PRIu32 " %" PRIu32 " %" PRIu32 "\n",
                in->src.file, in->src.line, in->src.col);
    }
    p->prev = in->src;
    fputc('\t', p->out);
    ptx_print_insn(p->out, p->m, f, in);
    fputc('\n', p->out);
}

static void put_scope(Printer *p, const IrFunc *f, const BodyIndex *bx,
                      uint32_t s)
{
    const IrScope *sc = &f->scopes[s];
    uint32_t i = sc->first_insn;
    uint32_t child = bx->child_head[s];
    put_scope_decls(p->out, f, bx, s);
    for (;;) {
        put_labels_at(p, f, bx, i, s);
        bool advanced = false;
        while (child != NIL && f->scopes[child].first_insn <= i) {
            const IrScope *c = &f->scopes[child];
            /* Recursion depth is bounded by the scope count: a child's
             * index is always above its parent's. */
            fputs("\t{\n", p->out);
            put_scope(p, f, bx, child);
            fputs("\t}\n", p->out);
            child = bx->child_next[child];
            if (c->end_insn > i) {
                i = c->end_insn;
                advanced = true;
                break;
            }
        }
        if (advanced) {
            continue;
        }
        if (i >= sc->end_insn || i >= f->ninsns) {
            break;
        }
        put_insn_line(p, f, &f->insns[i]);
        i++;
    }
}

static void put_body(Printer *p, const IrFunc *f)
{
    FILE *out = p->out;
    fputs("{\n", out);
    for (uint32_t i = 0; i < f->npragmas; i++) {
        fputs("\t.pragma ", out);
        put_string(out, f->pragmas[i]);
        fputs(";\n", out);
    }
    IrScope whole = {0, 0, f->ninsns, {0, 0}};
    IrFunc tmp;
    if (f->nscopes == 0) {
        /* Hand-built IR may leave out the body scope. */
        tmp = *f;
        tmp.scopes = &whole;
        tmp.nscopes = 1;
        f = &tmp;
    }
    BodyIndex bx;
    size_t ns = f->nscopes;
    bx.label_head = malloc(sizeof(uint32_t) * ((size_t)f->ninsns + 1));
    bx.label_next = malloc(sizeof(uint32_t) * ((size_t)f->nlabels + 1));
    bx.child_head = malloc(sizeof(uint32_t) * ns);
    bx.child_next = malloc(sizeof(uint32_t) * ns);
    bx.reg_head = malloc(sizeof(uint32_t) * ns);
    bx.reg_next = malloc(sizeof(uint32_t) * ((size_t)f->nregs + 1));
    bx.var_head = malloc(sizeof(uint32_t) * ns);
    bx.var_next = malloc(sizeof(uint32_t) * ((size_t)f->nvars + 1));
    if (!bx.label_head || !bx.label_next || !bx.child_head
        || !bx.child_next || !bx.reg_head || !bx.reg_next || !bx.var_head
        || !bx.var_next) {
        fputs("\t// out of memory\n}\n", out);
        goto done;
    }
    for (uint32_t i = 0; i <= f->ninsns; i++) {
        bx.label_head[i] = NIL;
    }
    /* Build the lists back to front so they come out in index order. */
    for (uint32_t l = f->nlabels; l-- > 0;) {
        uint32_t pos = f->labels[l].insn;
        bx.label_next[l] = NIL;
        if (pos <= f->ninsns) {
            bx.label_next[l] = bx.label_head[pos];
            bx.label_head[pos] = l;
        }
    }
    for (uint32_t s = 0; s < f->nscopes; s++) {
        bx.child_head[s] = NIL;
        bx.child_next[s] = NIL;
        bx.reg_head[s] = NIL;
        bx.var_head[s] = NIL;
    }
    /* A declaration in a scope that does not exist is shown in the body
     * rather than lost. */
    for (uint32_t r = f->nregs; r-- > 0;) {
        uint32_t sc = f->regs[r].scope < ns ? f->regs[r].scope : 0;
        bx.reg_next[r] = bx.reg_head[sc];
        bx.reg_head[sc] = r;
    }
    for (uint32_t v = f->nvars; v-- > 0;) {
        uint32_t sc = f->vars[v]->scope < ns ? f->vars[v]->scope : 0;
        bx.var_next[v] = bx.var_head[sc];
        bx.var_head[sc] = v;
    }
    for (uint32_t s = f->nscopes; s-- > 1;) {
        uint32_t par = f->scopes[s].parent;
        if (par < s) {
            bx.child_next[s] = bx.child_head[par];
            bx.child_head[par] = s;
        }
    }
    p->prev = (IrSrcPos){.file = 0};
    put_scope(p, f, &bx, 0);
    fputs("}\n", out);
done:
    free(bx.label_head);
    free(bx.label_next);
    free(bx.child_head);
    free(bx.child_next);
    free(bx.reg_head);
    free(bx.reg_next);
    free(bx.var_head);
    free(bx.var_next);
}

static void put_func(Printer *p, const IrFunc *f, bool decl_only)
{
    put_func_head(p->out, f);
    if (decl_only || f->is_decl) {
        fputs(";\n\n", p->out);
        return;
    }
    fputc('\n', p->out);
    put_body(p, f);
    fputc('\n', p->out);
}

/* ---- module ---- */

static int cmp_fidx(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const FuncIndex *)a)->f;
    uintptr_t y = (uintptr_t)((const FuncIndex *)b)->f;
    return x < y ? -1 : x > y;
}

static int64_t func_index(const Printer *p, const IrFunc *f)
{
    size_t lo = 0, hi = p->nfidx;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if ((uintptr_t)p->fidx[mid].f < (uintptr_t)f) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo < p->nfidx && p->fidx[lo].f == f) {
        return p->fidx[lo].idx;
    }
    return -1;
}

/* Highest function index that is referenced before its definition is
 * written: from a global initializer (globals come first), or from the
 * body of an earlier function. */
static void note_ref(const Printer *p, const IrFunc *f, int64_t from,
                     int64_t *need)
{
    int64_t j = func_index(p, f);
    if (j > from && j > *need) {
        *need = j;
    }
}

static void scan_operand(const Printer *p, const IrOperand *o, int64_t from,
                         int64_t *need)
{
    if (o->kind == IR_O_FUNC && o->u.func) {
        note_ref(p, o->u.func, from, need);
    } else if ((o->kind == IR_O_VEC || o->kind == IR_O_LIST
                || o->kind == IR_O_PAIR || o->kind == IR_O_TUPLE)
               && o->u.elems) {
        for (uint32_t i = 0; i < o->n; i++) {
            scan_operand(p, &o->u.elems[i], from, need);
        }
    }
}

static int64_t last_forward_ref(const Printer *p)
{
    const IrModule *m = p->m;
    int64_t need = -1;
    for (uint32_t g = 0; g < m->nglobals; g++) {
        const IrSymbol *s = m->globals[g];
        for (uint32_t r = 0; r < s->nrelocs; r++) {
            if (s->relocs[r].func) {
                note_ref(p, s->relocs[r].func, -1, &need);
            }
        }
    }
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const IrFunc *f = m->funcs[i];
        for (uint32_t k = 0; k < f->ninsns; k++) {
            const IrInsn *in = &f->insns[k];
            for (uint32_t o = 0; o < in->nopnds; o++) {
                scan_operand(p, &in->opnds[o], i, &need);
            }
        }
        for (uint32_t l = 0; l < f->nlabels; l++) {
            const IrLabel *lb = &f->labels[l];
            if (lb->kind == IR_LABEL_CALLTARGETS && lb->ftargets) {
                for (uint32_t t = 0; t < lb->ntargets; t++) {
                    if (lb->ftargets[t]) {
                        note_ref(p, lb->ftargets[t], i, &need);
                    }
                }
            }
        }
    }
    return need;
}

void ptx_print_module(FILE *out, const IrModule *m)
{
    Printer p = {out, m, {.file = 0}, NULL, 0, NULL};

    fprintf(out, ".version %" PRIu32 ".%" PRIu32 "\n", m->version_major,
            m->version_minor);
    if (m->ntargets > 0) {
        fputs(".target ", out);
        for (uint32_t i = 0; i < m->ntargets; i++) {
            fprintf(out, "%s%s", i ? ", " : "", m->targets[i]);
        }
        fputc('\n', out);
    }
    if (m->address_size) {
        fprintf(out, ".address_size %" PRIu32 "\n", m->address_size);
    }
    fputc('\n', out);
    for (uint32_t i = 1; i < m->nfiles; i++) {
        if (m->files[i]) {
            fprintf(out, ".file %" PRIu32 " ", i);
            put_string(out, m->files[i]);
            fputc('\n', out);
        }
    }
    for (uint32_t i = 0; i < m->npragmas; i++) {
        fputs(".pragma ", out);
        put_string(out, m->pragmas[i]);
        fputs(";\n", out);
    }
    if (m->nfiles > 1 || m->npragmas > 0) {
        fputc('\n', out);
    }

    p.nfidx = m->nfuncs;
    p.fidx = malloc(sizeof(FuncIndex) * ((size_t)m->nfuncs + 1));
    p.printed = calloc((size_t)m->nfuncs + 1, sizeof(bool));
    if (!p.fidx || !p.printed) {
        fputs("// out of memory\n", out);
        goto done;
    }
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        p.fidx[i].f = m->funcs[i];
        p.fidx[i].idx = i;
    }
    qsort(p.fidx, p.nfidx, sizeof(FuncIndex), cmp_fidx);

    /* Prototypes for everything up to the last function that is used
     * before its definition: declaring the whole prefix keeps the order
     * of first declaration, so a kernel inside that prefix is declared
     * too (".entry k(...);": only this case produces one). */
    int64_t need = last_forward_ref(&p);
    for (int64_t i = 0; i <= need; i++) {
        const IrFunc *f = m->funcs[i];
        put_func(&p, f, true);
        if (f->is_decl) {
            p.printed[i] = true;
        }
    }

    for (uint32_t g = 0; g < m->nglobals; g++) {
        put_symbol_decl(out, m->globals[g], true, true);
        fputs(";\n", out);
    }
    if (m->nglobals > 0) {
        fputc('\n', out);
    }

    for (uint32_t i = 0; i < m->nfuncs; i++) {
        if (!p.printed[i]) {
            put_func(&p, m->funcs[i], false);
        }
    }

    for (uint32_t i = 0; i < m->naliases; i++) {
        fprintf(out, ".alias %s, %s;\n", m->aliases[i].alias->name,
                m->aliases[i].target->name);
    }

    for (uint32_t i = 0; i < m->nsections; i++) {
        const char *s = m->sections[i];
        size_t n = strlen(s);
        fputs(s, out);
        if (n == 0 || s[n - 1] != '\n') {
            fputc('\n', out);
        }
    }
done:
    free(p.fidx);
    free(p.printed);
}
