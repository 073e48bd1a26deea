/*
 * ptx/ir_equal.c: deep structural equality of two modules.
 *
 * Used by the round-trip tests (parse, print, parse again): it compares
 * everything the PTX text determines and nothing the parser derives from
 * where things happened to be in the file.  Ignored on purpose: PtxLoc
 * (line:col), the file name, and the CFG (IrFunc.blocks, reconv,
 * IrInsn.block), which are recomputed from the rest.
 *
 * Pointers are never compared: symbols and functions referenced from
 * operands, relocs and call targets are compared by name (and a symbol
 * also by scope, since callseq scopes reuse names like "param0").
 *
 * On the first difference, `why` receives a path to it, for example
 *   func 'k' insn 12 operand 1: imm 4 != 8
 */
#include "ptx/ptx.h"
#include "ptx/opcode.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

typedef struct Eq {
    char *why;
    size_t len;
} Eq;

/* Record the difference (ctx, then the formatted detail); returns false
 * so callers can write "return fail(...)". */
static bool fail(Eq *e, const char *ctx, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool fail(Eq *e, const char *ctx, const char *fmt, ...)
{
    if (!e->why || e->len == 0) {
        return false;
    }
    int n = snprintf(e->why, e->len, "%s%s", ctx, *ctx ? ": " : "");
    if (n < 0 || (size_t)n >= e->len) {
        return false;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->why + n, e->len - (size_t)n, fmt, ap);
    va_end(ap);
    return false;
}

/* Extend a context path ("func 'k' insn 3" + " operand 1").  Paths that
 * do not fit are cut short: they only ever feed a message. */
static void subpath(char *dst, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void subpath(char *dst, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dst, n, fmt, ap);
    va_end(ap);
}

static bool str_eq(const char *a, const char *b)
{
    if (a == b) {
        return true;
    }
    return a && b && strcmp(a, b) == 0;
}

static const char *nz(const char *s)
{
    return s ? s : "(null)";
}

#define CMP_U(ctx, a, b, field)                                            \
    do {                                                                   \
        if ((a)->field != (b)->field) {                                    \
            return fail(e, (ctx), #field " %" PRIu64 " != %" PRIu64,       \
                        (uint64_t)(a)->field, (uint64_t)(b)->field);       \
        }                                                                  \
    } while (0)

#define CMP_I(ctx, a, b, field)                                            \
    do {                                                                   \
        if ((a)->field != (b)->field) {                                    \
            return fail(e, (ctx), #field " %" PRId64 " != %" PRId64,       \
                        (int64_t)(a)->field, (int64_t)(b)->field);         \
        }                                                                  \
    } while (0)

#define CMP_S(ctx, a, b, field)                                            \
    do {                                                                   \
        if (!str_eq((a)->field, (b)->field)) {                             \
            return fail(e, (ctx), #field " '%s' != '%s'", nz((a)->field),  \
                        nz((b)->field));                                   \
        }                                                                  \
    } while (0)

static const char *type_str(unsigned t)
{
    const char *s = t < PTX_T_COUNT ? ptx_type_name((PtxType)t) : NULL;
    return s ? s : "?";
}

/* Name of a referenced symbol or function, for by-name comparison. */
static const char *sym_name(const IrSymbol *s)
{
    return s ? s->name : NULL;
}

static const char *func_name(const IrFunc *f)
{
    return f ? f->name : NULL;
}

/* ---- symbols ---- */

static bool reloc_equal(Eq *e, const char *ctx, const IrReloc *a,
                        const IrReloc *b)
{
    CMP_U(ctx, a, b, offset);
    CMP_U(ctx, a, b, size);
    CMP_U(ctx, a, b, generic);
    if (!str_eq(sym_name(a->sym), sym_name(b->sym))) {
        return fail(e, ctx, "sym '%s' != '%s'", nz(sym_name(a->sym)),
                    nz(sym_name(b->sym)));
    }
    if (!str_eq(func_name(a->func), func_name(b->func))) {
        return fail(e, ctx, "func '%s' != '%s'", nz(func_name(a->func)),
                    nz(func_name(b->func)));
    }
    CMP_I(ctx, a, b, addend);
    CMP_U(ctx, a, b, mask);
    CMP_U(ctx, a, b, shift);
    return true;
}

static bool sym_equal(Eq *e, const char *ctx, const IrSymbol *a,
                      const IrSymbol *b)
{
    if (!a || !b) {
        if (a != b) {
            return fail(e, ctx, "symbol %s != %s", a ? "present" : "NULL",
                        b ? "present" : "NULL");
        }
        return true;
    }
    CMP_S(ctx, a, b, name);
    CMP_U(ctx, a, b, space);
    if (a->type != b->type) {
        return fail(e, ctx, "type %s != %s", type_str(a->type),
                    type_str(b->type));
    }
    CMP_U(ctx, a, b, vec);
    CMP_U(ctx, a, b, kind);
    CMP_U(ctx, a, b, linkage);
    CMP_U(ctx, a, b, align);
    CMP_U(ctx, a, b, ndims);
    for (uint32_t d = 0; d < a->ndims && d < 4; d++) {
        if (a->dims[d] != b->dims[d]) {
            return fail(e, ctx, "dims[%" PRIu32 "] %" PRIu64 " != %" PRIu64,
                        d, a->dims[d], b->dims[d]);
        }
    }
    CMP_U(ctx, a, b, size);
    if (!a->init != !b->init) {
        return fail(e, ctx, "init %s != %s", a->init ? "present" : "none",
                    b->init ? "present" : "none");
    }
    if (a->init) {
        for (uint64_t i = 0; i < a->size; i++) {
            if (a->init[i] != b->init[i]) {
                return fail(e, ctx, "init byte %" PRIu64 ": %u != %u", i,
                            a->init[i], b->init[i]);
            }
        }
    }
    CMP_U(ctx, a, b, nrelocs);
    for (uint32_t r = 0; r < a->nrelocs; r++) {
        char sub[512];
        subpath(sub, sizeof(sub), "%s reloc %" PRIu32, ctx, r);
        if (!reloc_equal(e, sub, &a->relocs[r], &b->relocs[r])) {
            return false;
        }
    }
    CMP_U(ctx, a, b, ntexattrs);
    for (uint32_t t = 0; t < a->ntexattrs; t++) {
        if (strcmp(a->texattrs[t].key, b->texattrs[t].key) != 0 ||
            strcmp(a->texattrs[t].value, b->texattrs[t].value) != 0) {
            return fail(e, ctx, "texture attribute %" PRIu32 ": %s = %s != "
                        "%s = %s", t, a->texattrs[t].key,
                        a->texattrs[t].value, b->texattrs[t].key,
                        b->texattrs[t].value);
        }
    }
    CMP_U(ctx, a, b, is_ptr);
    CMP_U(ctx, a, b, managed);
    CMP_U(ctx, a, b, ptr_space);
    CMP_U(ctx, a, b, ptr_align);
    CMP_U(ctx, a, b, scope);
    return true;
}

static bool sym_list_equal(Eq *e, const char *ctx, const char *what,
                           IrSymbol *const *a, uint32_t na,
                           IrSymbol *const *b, uint32_t nb)
{
    if (na != nb) {
        return fail(e, ctx, "%s count %" PRIu32 " != %" PRIu32, what, na, nb);
    }
    for (uint32_t i = 0; i < na; i++) {
        char sub[512];
        subpath(sub, sizeof(sub), "%s%s%s %" PRIu32 " '%s'", ctx,
                 *ctx ? " " : "", what, i, nz(a[i] ? a[i]->name : NULL));
        if (!sym_equal(e, sub, a[i], b[i])) {
            return false;
        }
    }
    return true;
}

static bool str_list_equal(Eq *e, const char *ctx, const char *what,
                           const char *const *a, uint32_t na,
                           const char *const *b, uint32_t nb)
{
    if (na != nb) {
        return fail(e, ctx, "%s count %" PRIu32 " != %" PRIu32, what, na, nb);
    }
    for (uint32_t i = 0; i < na; i++) {
        if (!str_eq(a[i], b[i])) {
            return fail(e, ctx, "%s %" PRIu32 ": '%s' != '%s'", what, i,
                        nz(a[i]), nz(b[i]));
        }
    }
    return true;
}

/* ---- operands and instructions ---- */

static bool opnd_equal(Eq *e, const char *ctx, const IrOperand *a,
                       const IrOperand *b, unsigned depth)
{
    CMP_U(ctx, a, b, kind);
    CMP_U(ctx, a, b, neg);
    CMP_U(ctx, a, b, sel);
    CMP_U(ctx, a, b, fsize);
    CMP_U(ctx, a, b, n);
    CMP_I(ctx, a, b, id);
    CMP_I(ctx, a, b, imm);
    switch ((IrOpndKind)a->kind) {
    case IR_O_SYM:
    case IR_O_ADDR: {
        const IrSymbol *x = a->u.sym, *y = b->u.sym;
        if (!str_eq(sym_name(x), sym_name(y))) {
            return fail(e, ctx, "sym '%s' != '%s'", nz(sym_name(x)),
                        nz(sym_name(y)));
        }
        if (x && y && (x->scope != y->scope || x->space != y->space)) {
            return fail(e, ctx, "sym '%s' scope/space %" PRIu32 "/%u != "
                        "%" PRIu32 "/%u", nz(x->name), x->scope,
                        (unsigned)x->space, y->scope, (unsigned)y->space);
        }
        break;
    }
    case IR_O_FUNC:
        if (!str_eq(func_name(a->u.func), func_name(b->u.func))) {
            return fail(e, ctx, "func '%s' != '%s'",
                        nz(func_name(a->u.func)), nz(func_name(b->u.func)));
        }
        break;
    case IR_O_VEC:
    case IR_O_LIST:
    case IR_O_PAIR:
    case IR_O_TUPLE:
        if (a->n > 0 && (!a->u.elems || !b->u.elems)) {
            return fail(e, ctx, "elems missing");
        }
        if (depth > 64) {
            return fail(e, ctx, "operand nesting too deep");
        }
        for (uint32_t i = 0; i < a->n; i++) {
            char sub[512];
            subpath(sub, sizeof(sub), "%s elem %" PRIu32, ctx, i);
            if (!opnd_equal(e, sub, &a->u.elems[i], &b->u.elems[i],
                            depth + 1)) {
                return false;
            }
        }
        break;
    default:
        break;
    }
    return true;
}

static const char *op_str(unsigned op)
{
    const PtxOpInfo *info = op < PTX_OP_COUNT ? ptx_opinfo((PtxOpcode)op)
                                               : NULL;
    return info && info->name ? info->name : "?";
}

static bool insn_equal(Eq *e, const char *ctx, const IrInsn *a,
                       const IrInsn *b)
{
    if (a->op != b->op) {
        return fail(e, ctx, "op %s != %s", op_str(a->op), op_str(b->op));
    }
    CMP_U(ctx, a, b, ntypes);
    for (unsigned i = 0; i < a->ntypes && i < IR_MAX_TYPES; i++) {
        if (a->types[i] != b->types[i]) {
            return fail(e, ctx, "types[%u] %s != %s", i,
                        type_str(a->types[i]), type_str(b->types[i]));
        }
    }
    CMP_U(ctx, a, b, nsfx);
    for (unsigned i = 0; i < a->nsfx && i < IR_MAX_SFX; i++) {
        if (a->sfx[i] != b->sfx[i]) {
            return fail(e, ctx, "sfx[%u] %#x != %#x", i, a->sfx[i],
                        b->sfx[i]);
        }
    }
    CMP_I(ctx, a, b, guard);
    CMP_U(ctx, a, b, guard_neg);
    CMP_U(ctx, a, b, scope);
    CMP_U(ctx, a, b, src.file);
    CMP_U(ctx, a, b, src.line);
    CMP_U(ctx, a, b, src.col);
    CMP_U(ctx, a, b, nopnds);
    for (unsigned i = 0; i < a->nopnds; i++) {
        char sub[512];
        subpath(sub, sizeof(sub), "%s operand %u", ctx, i);
        if (!opnd_equal(e, sub, &a->opnds[i], &b->opnds[i], 0)) {
            return false;
        }
    }
    return true;
}

/* ---- functions ---- */

static bool func_equal(Eq *e, const char *ctx, const IrFunc *a,
                       const IrFunc *b, unsigned depth);

static bool label_equal(Eq *e, const char *ctx, const IrLabel *a,
                        const IrLabel *b, unsigned depth)
{
    CMP_S(ctx, a, b, name);
    CMP_U(ctx, a, b, insn);
    CMP_U(ctx, a, b, scope);
    CMP_U(ctx, a, b, kind);
    CMP_U(ctx, a, b, ntargets);
    for (uint32_t i = 0; i < a->ntargets; i++) {
        if (a->kind == IR_LABEL_BRANCHTARGETS) {
            if (!a->targets || !b->targets) {
                return fail(e, ctx, "targets missing");
            }
            if (a->targets[i] != b->targets[i]) {
                return fail(e, ctx, "target %" PRIu32 ": %" PRId32
                            " != %" PRId32, i, a->targets[i], b->targets[i]);
            }
        } else if (a->kind == IR_LABEL_CALLTARGETS) {
            if (!a->ftargets || !b->ftargets) {
                return fail(e, ctx, "ftargets missing");
            }
            if (!str_eq(func_name(a->ftargets[i]),
                        func_name(b->ftargets[i]))) {
                return fail(e, ctx, "ftarget %" PRIu32 ": '%s' != '%s'", i,
                            nz(func_name(a->ftargets[i])),
                            nz(func_name(b->ftargets[i])));
            }
        }
    }
    if (!a->proto != !b->proto) {
        return fail(e, ctx, "proto %s != %s", a->proto ? "present" : "none",
                    b->proto ? "present" : "none");
    }
    if (a->proto) {
        char sub[512];
        subpath(sub, sizeof(sub), "%s proto", ctx);
        return func_equal(e, sub, a->proto, b->proto, depth + 1);
    }
    return true;
}

static bool func_equal(Eq *e, const char *ctx, const IrFunc *a,
                       const IrFunc *b, unsigned depth)
{
    char sub[512];
    if (depth > 4) {
        return fail(e, ctx, "prototype nesting too deep");
    }
    CMP_S(ctx, a, b, name);
    CMP_U(ctx, a, b, is_entry);
    CMP_U(ctx, a, b, is_decl);
    CMP_U(ctx, a, b, is_proto);
    CMP_U(ctx, a, b, noreturn);
    CMP_U(ctx, a, b, linkage);
    if (!sym_list_equal(e, ctx, "param", a->params, a->nparams, b->params,
                        b->nparams)
        || !sym_list_equal(e, ctx, "ret", a->rets, a->nrets, b->rets,
                           b->nrets)) {
        return false;
    }
    static const struct {
        const char *name;
        size_t off;
    } dims3[] = {
        {"maxntid", offsetof(IrFunc, maxntid)},
        {"reqntid", offsetof(IrFunc, reqntid)},
        {"reqnctapercluster", offsetof(IrFunc, reqnctapercluster)},
    };
    for (unsigned d = 0; d < 3; d++) {
        const uint32_t *x = (const uint32_t *)((const char *)a + dims3[d].off);
        const uint32_t *y = (const uint32_t *)((const char *)b + dims3[d].off);
        for (unsigned i = 0; i < 3; i++) {
            if (x[i] != y[i]) {
                return fail(e, ctx, "%s[%u] %" PRIu32 " != %" PRIu32,
                            dims3[d].name, i, x[i], y[i]);
            }
        }
    }
    CMP_U(ctx, a, b, maxnreg);
    CMP_U(ctx, a, b, minnctapersm);
    CMP_U(ctx, a, b, maxnctapersm);
    CMP_U(ctx, a, b, explicitcluster);
    CMP_U(ctx, a, b, blocksareclusters);
    CMP_U(ctx, a, b, maxclusterrank);
    if (!str_list_equal(e, ctx, "pragma", a->pragmas, a->npragmas,
                        b->pragmas, b->npragmas)) {
        return false;
    }

    CMP_U(ctx, a, b, nregs);
    for (uint32_t i = 0; i < a->nregs; i++) {
        subpath(sub, sizeof(sub), "%s reg %" PRIu32, ctx, i);
        const IrReg *x = &a->regs[i], *y = &b->regs[i];
        CMP_S(sub, x, y, name);
        if (x->type != y->type) {
            return fail(e, sub, "type %s != %s", type_str(x->type),
                        type_str(y->type));
        }
        CMP_U(sub, x, y, vec);
        CMP_U(sub, x, y, scope);
    }
    if (!sym_list_equal(e, ctx, "var", a->vars, a->nvars, b->vars,
                        b->nvars)) {
        return false;
    }
    CMP_U(ctx, a, b, nscopes);
    for (uint32_t i = 0; i < a->nscopes; i++) {
        subpath(sub, sizeof(sub), "%s scope %" PRIu32, ctx, i);
        CMP_U(sub, &a->scopes[i], &b->scopes[i], parent);
        CMP_U(sub, &a->scopes[i], &b->scopes[i], first_insn);
        CMP_U(sub, &a->scopes[i], &b->scopes[i], end_insn);
    }
    CMP_U(ctx, a, b, nlabels);
    for (uint32_t i = 0; i < a->nlabels; i++) {
        subpath(sub, sizeof(sub), "%s label %" PRIu32 " '%s'", ctx, i,
                 nz(a->labels[i].name));
        if (!label_equal(e, sub, &a->labels[i], &b->labels[i], depth)) {
            return false;
        }
    }
    CMP_U(ctx, a, b, ninsns);
    for (uint32_t i = 0; i < a->ninsns; i++) {
        subpath(sub, sizeof(sub), "%s insn %" PRIu32, ctx, i);
        if (!insn_equal(e, sub, &a->insns[i], &b->insns[i])) {
            return false;
        }
    }
    return true;
}

/* ---- module ---- */

bool ir_module_equal(const IrModule *a, const IrModule *b, char *why,
                     size_t whylen)
{
    Eq eq = {why, whylen};
    Eq *e = &eq;
    if (why && whylen) {
        why[0] = '\0';
    }
    if (!a || !b) {
        if (a == b) {
            return true;
        }
        return fail(e, "module", "%s != %s", a ? "present" : "NULL",
                    b ? "present" : "NULL");
    }
    CMP_U("module", a, b, version_major);
    CMP_U("module", a, b, version_minor);
    if (!str_list_equal(e, "module", "target", a->targets, a->ntargets,
                        b->targets, b->ntargets)) {
        return false;
    }
    CMP_U("module", a, b, address_size);
    CMP_U("module", a, b, nfiles);
    for (uint32_t i = 1; i < a->nfiles; i++) {
        if (!str_eq(a->files[i], b->files[i])) {
            return fail(e, "module", "file %" PRIu32 ": '%s' != '%s'", i,
                        nz(a->files[i]), nz(b->files[i]));
        }
    }
    if (!str_list_equal(e, "module", "pragma", a->pragmas, a->npragmas,
                        b->pragmas, b->npragmas)
        || !sym_list_equal(e, "", "global", a->globals, a->nglobals,
                           b->globals, b->nglobals)) {
        return false;
    }
    CMP_U("module", a, b, nfuncs);
    for (uint32_t i = 0; i < a->nfuncs; i++) {
        char ctx[512];
        subpath(ctx, sizeof(ctx), "func '%s'", nz(a->funcs[i]->name));
        if (!func_equal(e, ctx, a->funcs[i], b->funcs[i], 0)) {
            return false;
        }
    }
    CMP_U("module", a, b, naliases);
    for (uint32_t i = 0; i < a->naliases; i++) {
        if (strcmp(a->aliases[i].alias->name, b->aliases[i].alias->name) ||
            strcmp(a->aliases[i].target->name, b->aliases[i].target->name)) {
            return fail(e, "module", "alias %" PRIu32 " differs", i);
        }
    }
    return str_list_equal(e, "module", "section", a->sections, a->nsections,
                          b->sections, b->nsections);
}
