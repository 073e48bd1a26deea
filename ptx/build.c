/*
 * ptx/build.c: the IR builder behind the grammar's actions: module
 * directives, declarations, functions, scopes and labels.  Instructions
 * and their operands are in build_insn.c, initializers in build_init.c.
 *
 * Scoping: the symbol table has one level per open { } block (level 0 is
 * the module).  Each function scope also has an IrScope so the printer
 * can rebuild the blocks.  Label references are resolved when the scope
 * that made them closes: a label defined anywhere in an enclosing block,
 * before or after the branch, is found, and an inner block's label
 * shadows an outer one of the same name.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/build_int.h"
#include "ptx/constexpr.h"
#include "ptx/opcode.h"
#include "ptx/parser.h"
#include "ptx/ptx.h"
#include "ptx/validate.h"

void *pb_vec_grow(void *p, uint32_t n, uint32_t *cap, size_t elsize)
{
    if (n < *cap) {
        return p;
    }
    uint32_t ncap = *cap ? *cap * 2 : 16;
    while (ncap <= n) {
        ncap *= 2;
    }
    void *q = realloc(p, (size_t)ncap * elsize);
    if (!q) {
        fputs("ptxemu: out of memory\n", stderr);
        abort();
    }
    *cap = ncap;
    return q;
}

const char *pb_str(PtxParse *ps, PtxStr s)
{
    return ptx_arena_intern(ps->arena, s.s, s.len);
}

PtxExpr *pb_expr(PtxParse *ps, PtxExprKind kind, PtxLoc loc)
{
    PtxExpr *e = ptx_arena_alloc(ps->scratch, sizeof(*e));
    e->kind = (uint8_t)kind;
    e->loc = loc;
    e->depth = 1;
    return e;
}

/* The predefined constants of the PTX ISA (section 4.4, "Predefined
 * Identifiers": "PTX predefines one constant and a small number of
 * special registers"); the special registers are in sregs.def. */
static const struct {
    const char *name;
    uint32_t len;
    uint64_t value;
} predef_consts[] = {
    { "WARP_SZ", 7, 32 },     /* the warp size, CUDA's warpSize */
};

PtxExpr *pb_word_expr(PtxParse *ps, PtxStr w, PtxLoc loc)
{
    for (size_t k = 0; k < sizeof(predef_consts) / sizeof(predef_consts[0]);
         k++) {
        if (w.len == predef_consts[k].len &&
            memcmp(w.s, predef_consts[k].name, w.len) == 0) {
            PtxExpr *e = pb_expr(ps, EX_INT, loc);
            e->ival = predef_consts[k].value;
            return e;
        }
    }
    PtxExpr *e = pb_expr(ps, EX_NAME, loc);
    e->name = w;
    return e;
}

static unsigned depth_of(const PtxExpr *e)
{
    return e ? e->depth : 0;
}

PtxExpr *pb_nest(PtxParse *ps, PtxExpr *e)
{
    unsigned d = depth_of(e->a);
    d = depth_of(e->b) > d ? depth_of(e->b) : d;
    d = depth_of(e->c) > d ? depth_of(e->c) : d;
    for (const PtxExpr *x = e->list; x; x = x->next) {
        d = depth_of(x) > d ? depth_of(x) : d;
    }
    if (d < PTX_MAX_NESTING) {
        e->depth = (uint16_t)(d + 1);
        return e;
    }
    if (!ps->nest_reported) {
        ptx_error(ps->diag, e->loc, "expression nested more than %d levels "
                  "deep (operators, parentheses or braces)",
                  PTX_MAX_NESTING);
        ps->nest_reported = true;
    }
    PtxExpr *leaf = pb_expr(ps, EX_INT, e->loc);
    leaf->depth = 1;
    return leaf;
}

PtxExprList pb_list1(PtxExpr *e)
{
    PtxExprList l = {e, e, 1};
    return l;
}

PtxExprList pb_list_add(PtxExprList l, PtxExpr *e)
{
    if (!l.head) {
        return pb_list1(e);
    }
    l.tail->next = e;
    l.tail = e;
    l.n++;
    return l;
}

void pb_stmt_done(PtxParse *ps)
{
    ptx_arena_reset(ps->scratch);
    ps->nest_reported = false;
    /* what pointed into the statement's scratch memory, or was left
     * half-parsed by a syntax error */
    ps->decl_spec = NULL;
    ps->pend_init = NULL;
    pb_init_reset(ps);
}

/* ------------------------------------------------------------ module */

void pb_version(PtxParse *ps, PtxStr text, PtxLoc dirloc, PtxLoc loc)
{
    unsigned maj = 0, min = 0;
    uint32_t i = 0;
    while (i < text.len && text.s[i] >= '0' && text.s[i] <= '9') {
        maj = maj * 10 + (unsigned)(text.s[i++] - '0');
    }
    bool ok = i > 0 && i < text.len && text.s[i] == '.';
    uint32_t j = ++i;
    while (i < text.len && text.s[i] >= '0' && text.s[i] <= '9') {
        min = min * 10 + (unsigned)(text.s[i++] - '0');
    }
    if (!ok || i == j || i != text.len || maj > 99 || min > 99) {
        ptx_error(ps->diag, loc, "malformed .version '%.*s', expected "
                  "MAJOR.MINOR", (int)text.len, text.s);
        return;
    }
    /* PTX ISA 9.0 is the newest version we know the rules of. */
    if (maj < 1 || maj > 9 || (maj == 9 && min > 0)) {
        ptx_error(ps->diag, loc, "unsupported PTX version %u.%u "
                  "(supported: 1.0 to 9.0)", maj, min);
    }
    if (ps->seen_version) {
        ptx_error(ps->diag, dirloc, "duplicate .version directive");
    }
    ps->seen_version = true;
    ps->mod->version_major = maj;
    ps->mod->version_minor = min;
}

/* PTX ISA 11.1.2: sm_NN / compute_NN with an optional a or f suffix, and
 * the texturing / debug / f64 options. */
static bool valid_target(PtxStr t)
{
    static const char *const opts[] = {
        "texmode_unified", "texmode_independent", "debug", "map_f64_to_f32",
    };
    for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
        if (strlen(opts[i]) == t.len && memcmp(opts[i], t.s, t.len) == 0) {
            return true;
        }
    }
    uint32_t p;
    if (t.len > 3 && memcmp(t.s, "sm_", 3) == 0) {
        p = 3;
    } else if (t.len > 8 && memcmp(t.s, "compute_", 8) == 0) {
        p = 8;
    } else {
        return false;
    }
    uint32_t d = p;
    while (d < t.len && t.s[d] >= '0' && t.s[d] <= '9') {
        d++;
    }
    if (d - p < 2 || d - p > 3) {
        return false;
    }
    return d == t.len ||
           (d + 1 == t.len && (t.s[d] == 'a' || t.s[d] == 'f'));
}

void pb_target(PtxParse *ps, PtxStr name, PtxLoc loc)
{
    if (!valid_target(name)) {
        ptx_error(ps->diag, loc, "unknown target '%.*s'", (int)name.len,
                  name.s);
    }
    IrModule *m = ps->mod;
    *PS_ARRAY_PUSH(ps, m->targets, m->ntargets, ps->cap_targets) =
        pb_str(ps, name);
}

void pb_address_size(PtxParse *ps, uint64_t n, PtxLoc loc)
{
    if (n != 32 && n != 64) {
        ptx_error(ps->diag, loc, ".address_size must be 32 or 64");
        return;
    }
    ps->mod->address_size = (uint32_t)n;
}

/* A string token without its quotes, escapes kept as written. */
static const char *unquote(PtxParse *ps, PtxStr s)
{
    if (s.len >= 2 && s.s[0] == '"' && s.s[s.len - 1] == '"') {
        s.s++;
        s.len -= 2;
    }
    return ptx_arena_strndup(ps->arena, s.s, s.len);
}

void pb_file(PtxParse *ps, uint64_t idx, PtxStr name, PtxLoc loc)
{
    IrModule *m = ps->mod;
    if (idx == 0 || idx > 1000000) {
        ptx_error(ps->diag, loc, ".file index must be in 1..1000000");
        return;
    }
    if (idx >= m->nfiles) {
        uint32_t need = (uint32_t)idx + 1;
        m->files = ptx_arena_grow(ps->arena, m->files, m->nfiles,
                                  &ps->cap_files, need, sizeof(*m->files));
        m->nfiles = need;
    }
    m->files[idx] = unquote(ps, name);
}

void pb_pragma(PtxParse *ps, PtxStr str, PtxLoc loc)
{
    (void)loc;
    const char *p = unquote(ps, str);
    if (ps->func) {
        IrFunc *f = ps->func;
        *PS_ARRAY_PUSH(ps, f->pragmas, f->npragmas, ps->cap_fpragmas) = p;
    } else {
        IrModule *m = ps->mod;
        *PS_ARRAY_PUSH(ps, m->pragmas, m->npragmas, ps->cap_pragmas) = p;
    }
}

void pb_section(PtxParse *ps, size_t start, size_t end)
{
    IrModule *m = ps->mod;
    if (end > ps->srclen || start > end) {
        return;
    }
    *PS_ARRAY_PUSH(ps, m->sections, m->nsections, ps->cap_sections) =
        ptx_arena_strndup(ps->arena, ps->src + start, end - start);
}

static IrFunc *declared_func(PtxParse *ps, PtxStr name, PtxLoc loc)
{
    PtxBinding *b = ptx_symtab_find(ps->syms, name.s, name.len);
    if (!b || b->kind != BIND_FUNC) {
        ptx_error(ps->diag, loc, "'%.*s' is not a declared function",
                  (int)name.len, name.s);
        return NULL;
    }
    return b->func;
}

void pb_alias(PtxParse *ps, PtxStr alias, PtxLoc aloc, PtxStr target,
              PtxLoc tloc)
{
    IrFunc *a = declared_func(ps, alias, aloc);
    IrFunc *t = declared_func(ps, target, tloc);
    if (!a || !t) {
        return;
    }
    if (!a->is_decl) {
        ptx_error(ps->diag, aloc, "the alias '%s' must be a declaration "
                  "without a body", a->name);
        return;
    }
    if (a->nparams != t->nparams || a->nrets != t->nrets) {
        ptx_error(ps->diag, aloc, "'%s' and '%s' have different "
                  "prototypes", a->name, t->name);
        return;
    }
    IrModule *m = ps->mod;
    IrAlias *x = PS_ARRAY_PUSH(ps, m->aliases, m->naliases, ps->cap_aliases);
    x->alias = a;
    x->target = t;
}

/* ------------------------------------------------------ declarations */

void pb_spec_add(PtxParse *ps, PtxDeclSpec *s, int kind, uint64_t v,
                 PtxLoc loc)
{
    switch (kind) {
    case T_SPACE:
        if (s->is_ptr && s->space == PTX_SPACE_PARAM) {
            if (s->ptr_space) {
                ptx_error(ps->diag, loc, "duplicate .ptr state space");
            }
            s->ptr_space = (PtxSpace)v;
        } else if (s->space) {
            ptx_error(ps->diag, loc, "more than one state space in a "
                      "declaration");
        } else {
            s->space = (PtxSpace)v;
        }
        break;
    case T_TYPE:
        if (s->type) {
            ptx_error(ps->diag, loc, "more than one type in a declaration");
        }
        s->type = (PtxType)v;
        break;
    case T_VEC:
        if (s->vec) {
            ptx_error(ps->diag, loc, "more than one vector width");
        }
        s->vec = (uint8_t)v;
        break;
    case T_ALIGN:
        if (v == 0 || (v & (v - 1)) || v > (1u << 20)) {
            ptx_error(ps->diag, loc, ".align must be a power of two");
            v = 1;
        }
        if (s->is_ptr) {
            s->ptr_align = (uint32_t)v;
        } else {
            s->align = (uint32_t)v;
        }
        break;
    case T_PTR:
        if (s->space != PTX_SPACE_PARAM) {
            ptx_error(ps->diag, loc, ".ptr is only allowed on .param "
                      "declarations");
        }
        s->is_ptr = true;
        break;
    case T_TEXREF:
        s->symkind = (uint8_t)v;
        break;
    case T_ATTRIBUTE:
        s->managed = true;
        break;
    }
}

PtxDeclarator *pb_declarator(PtxParse *ps, PtxStr name, PtxLoc loc)
{
    PtxDeclarator *d = ptx_arena_alloc(ps->scratch, sizeof(*d));
    d->name = name;
    d->loc = loc;
    d->ndims = ps->pend_ndims;
    memcpy(d->dims, ps->pend_dims, sizeof(d->dims));
    d->unsized = ps->pend_unsized;
    d->init = ps->pend_init;
    ps->pend_ndims = 0;
    ps->pend_unsized = false;
    ps->pend_init = NULL;
    ps->pend_dims_bad = false;
    return d;
}

void pb_declarator_range(PtxParse *ps, PtxDeclarator *d, uint64_t n,
                         PtxLoc loc)
{
    /* Far above what compilers emit, low enough that a hostile count
     * cannot exhaust memory (each register costs ~40 bytes here). */
    if (n == 0 || n > (1u << 20)) {
        ptx_error(ps->diag, loc, "register count must be in 1..1048576");
        n = 1;
    }
    d->range = (uint32_t)n;
}

uint64_t pb_dim(PtxParse *ps, PtxExpr *e, PtxLoc loc)
{
    PtxConst c = ptx_fold(ps, e);
    uint64_t v = 1;
    if (c.kind == CV_NOTCONST || c.kind == CV_FLT) {
        ptx_error(ps->diag, loc, "array size must be an integer constant");
    } else if (c.kind == CV_INT) {
        if ((!c.is_unsigned && (int64_t)c.bits <= 0) || c.bits == 0 ||
            c.bits > ((uint64_t)1 << 40)) {
            ptx_error(ps->diag, loc, "array size must be in 1..2^40");
        } else {
            v = c.bits;
        }
    }
    if (ps->pend_ndims >= 4) {
        if (!ps->pend_dims_bad) {
            ptx_error(ps->diag, loc, "more than 4 array dimensions");
        }
        ps->pend_dims_bad = true;
        return v;
    }
    ps->pend_dims[ps->pend_ndims++] = v;
    return v;
}

void pb_dim_unsized(PtxParse *ps, PtxLoc loc)
{
    if (ps->pend_ndims != 0) {
        ptx_error(ps->diag, loc, "only the first array dimension may be "
                  "unsized");
    }
    if (ps->pend_ndims < 4) {
        ps->pend_dims[ps->pend_ndims++] = 0;
        ps->pend_unsized = ps->pend_ndims == 1;
    }
}

PtxDeclList pb_decls_add(PtxParse *ps, PtxDeclList l, PtxDeclSpec spec,
                         PtxDeclarator *d)
{
    PtxDecl *x = ptx_arena_alloc(ps->scratch, sizeof(*x));
    x->spec = spec;
    x->decl = d;
    if (!l.head) {
        l.head = x;
    } else {
        l.tail->next = x;
    }
    l.tail = x;
    l.n++;
    return l;
}

static uint32_t cur_scope(const PtxParse *ps)
{
    return ps->func && ps->in_body ? ps->scope : 0;
}

/* Make an IrSymbol from a declaration (no binding, no placement). */
static IrSymbol *make_symbol(PtxParse *ps, const PtxDeclSpec *s,
                             const PtxDeclarator *d, IrLinkage link)
{
    IrSymbol *sym = ptx_arena_alloc(ps->arena, sizeof(*sym));
    sym->name = pb_str(ps, d->name);
    sym->space = s->space;
    sym->type = s->type;
    sym->vec = s->vec ? s->vec : 1;
    sym->kind = s->symkind;
    sym->linkage = link;
    sym->align = s->align;
    sym->ndims = d->ndims;
    memcpy(sym->dims, d->dims, sizeof(sym->dims));
    sym->is_ptr = s->is_ptr;
    sym->ptr_space = s->ptr_space;
    sym->ptr_align = s->ptr_align;
    sym->scope = cur_scope(ps);
    sym->managed = s->managed;
    sym->loc = d->loc;
    if (sym->kind == IR_SYM_VAR && sym->type == PTX_T_NONE) {
        ptx_error(ps->diag, d->loc, "declaration of '%s' has no type",
                  sym->name);
    }
    if (sym->kind == IR_SYM_VAR && sym->vec > 1 &&
        ptx_type_bits(sym->type) * sym->vec > 128 &&
        !(sym->vec == 8 && ptx_type_bits(sym->type) <= 32)) {
        ptx_error(ps->diag, d->loc, "vector of %u x .%s is wider than "
                  "128 bits", sym->vec, ptx_type_name(sym->type));
    }
    bool too_large;
    uint64_t n = pb_var_size(sym, &too_large);
    bool bad_dims = n == UINT64_MAX;
    if (too_large) {
        ptx_error(ps->diag, d->loc, "array '%s' is too large", sym->name);
    }
    sym->size = bad_dims ? 0 : n;
    if (d->init && !bad_dims) {
        if (sym->space != PTX_SPACE_GLOBAL && sym->space != PTX_SPACE_CONST) {
            ptx_error(ps->diag, d->init->loc, "only .global and .const "
                      "variables may have initializers");
        } else if (link == IR_LINK_EXTERN) {
            ptx_error(ps->diag, d->init->loc, "an .extern variable cannot "
                      "have an initializer");
        } else {
            pb_init_attach(ps, sym, d->init);
        }
    }
    if (d->unsized && !d->init && link != IR_LINK_EXTERN &&
        sym->space != PTX_SPACE_SHARED && sym->space != PTX_SPACE_PARAM) {
        ptx_error(ps->diag, d->loc, "array '%s' has no size; only "
                  ".extern arrays may be unsized", sym->name);
    }
    return sym;
}

static bool check_redecl(PtxParse *ps, PtxStr name, PtxLoc loc)
{
    PtxBinding *b = ptx_symtab_find(ps->syms, name.s, name.len);
    if (b && b->depth == ptx_symtab_depth(ps->syms)) {
        ptx_error(ps->diag, loc, "redeclaration of '%.*s'", (int)name.len,
                  name.s);
        return false;
    }
    return true;
}

static uint32_t add_reg(PtxParse *ps, const char *name, PtxType t,
                        uint8_t vec)
{
    IrFunc *f = ps->func;
    IrReg *r = PS_VEC_PUSH(f->regs, f->nregs, ps->cap_regs);
    memset(r, 0, sizeof(*r));
    r->name = name;
    r->type = t;
    r->vec = vec ? vec : 1;
    r->scope = ps->scope;
    return f->nregs - 1;
}

static void declare_regs(PtxParse *ps, const PtxDeclSpec *s,
                         PtxDeclarator *d)
{
    if (!ps->func || !ps->in_body) {
        ptx_error(ps->diag, d->loc, "registers can only be declared inside "
                  "a function body");
        return;
    }
    if (s->type == PTX_T_NONE) {
        ptx_error(ps->diag, d->loc, "register declaration without a type");
        return;
    }
    if (d->init || d->ndims) {
        ptx_error(ps->diag, d->loc, "registers cannot be arrays or have "
                  "initializers");
    }
    if (!check_redecl(ps, d->name, d->loc)) {
        return;
    }
    /* A short file must not be able to declare gigabytes of registers:
     * allow a million plus a few per byte of source. */
    uint64_t nnew = d->range ? d->range : 1;
    if (ps->total_regs + nnew > ((uint64_t)1 << 20) + 4 * ps->srclen) {
        ptx_error(ps->diag, d->loc, "too many registers declared in this "
                  "module");
        return;
    }
    ps->total_regs += nnew;
    const char *base = pb_str(ps, d->name);
    PtxBinding *b = ptx_symtab_bind(ps->syms, base, d->name.len);
    if (d->range) {
        ps->func->regs = pb_vec_grow(ps->func->regs, ps->func->nregs +
                                     d->range - 1, &ps->cap_regs,
                                     sizeof(IrReg));
        b->kind = BIND_REGRANGE;
        b->count = d->range;
        b->index = ps->func->nregs;
        /* Names "%r0".."%rN-1", built without printf: nvcc declares
         * thousands of these per module. */
        uint32_t plen = d->name.len;
        for (uint32_t i = 0; i < d->range; i++) {
            char digits[12];
            int nd = 0;
            uint32_t v = i;
            do {
                digits[nd++] = (char)('0' + v % 10);
                v /= 10;
            } while (v);
            char *nm = ptx_arena_strndup(ps->arena, d->name.s,
                                         plen + (uint32_t)nd);
            for (int k = 0; k < nd; k++) {
                nm[plen + (uint32_t)k] = digits[nd - 1 - k];
            }
            add_reg(ps, nm, s->type, s->vec);
        }
    } else {
        b->kind = BIND_REG;
        b->index = add_reg(ps, base, s->type, s->vec);
    }
}

void pb_declare(PtxParse *ps, IrLinkage link, PtxDeclSpec *s,
                PtxDeclarator *list)
{
    if (s->space == PTX_SPACE_NONE) {
        if (s->symkind) {
            s->space = PTX_SPACE_GLOBAL;
        } else {
            ptx_error(ps->diag, s->loc, "declaration without a state space");
            return;
        }
    }
    for (PtxDeclarator *d = list; d; d = d->next) {
        if (s->space == PTX_SPACE_REG) {
            declare_regs(ps, s, d);
            continue;
        }
        if (s->space == PTX_SPACE_SREG) {
            ptx_error(ps->diag, d->loc, "special registers cannot be "
                      "declared");
            continue;
        }
        if (d->range) {
            ptx_error(ps->diag, d->loc, "'<N>' declares registers; use it "
                      "only with .reg");
            continue;
        }
        bool in_func = ps->func && ps->in_body;
        PtxBinding *old = ptx_symtab_find(ps->syms, d->name.s, d->name.len);
        if (!in_func && old && old->depth == 0 && old->kind == BIND_VAR &&
            (old->sym->linkage == IR_LINK_EXTERN || link == IR_LINK_EXTERN)) {
            /* .extern then definition (or the reverse): one symbol. */
            IrSymbol *prev = old->sym;
            if (link == IR_LINK_EXTERN) {
                continue;
            }
            IrSymbol *sym = make_symbol(ps, s, d, link);
            *prev = *sym;
            continue;
        }
        if (!check_redecl(ps, d->name, d->loc)) {
            continue;
        }
        IrSymbol *sym = make_symbol(ps, s, d, link);
        PtxBinding *b = ptx_symtab_bind(ps->syms, sym->name, d->name.len);
        b->kind = BIND_VAR;
        b->sym = sym;
        if (in_func) {
            IrFunc *f = ps->func;
            *PS_VEC_PUSH(f->vars, f->nvars, ps->cap_vars) = sym;
        } else {
            IrModule *m = ps->mod;
            *PS_ARRAY_PUSH(ps, m->globals, m->nglobals, ps->cap_globals) = sym;
        }
    }
}

/* --------------------------------------------------------- functions */

static IrSymbol **make_params(PtxParse *ps, PtxDeclList *l, uint32_t *n)
{
    *n = l ? l->n : 0;
    if (!*n) {
        return NULL;
    }
    IrSymbol **v = ptx_arena_alloc(ps->arena, sizeof(*v) * *n);
    uint32_t i = 0;
    for (PtxDecl *d = l->head; d; d = d->next) {
        if (d->spec.space != PTX_SPACE_PARAM &&
            d->spec.space != PTX_SPACE_REG) {
            ptx_error(ps->diag, d->decl->loc, "parameter '%.*s' must be "
                      "in .param or .reg space", (int)d->decl->name.len,
                      d->decl->name.s);
        }
        if (d->decl->range || d->decl->init) {
            ptx_error(ps->diag, d->decl->loc, "invalid parameter "
                      "declarator");
        }
        v[i++] = make_symbol(ps, &d->spec, d->decl, IR_LINK_INTERNAL);
    }
    return v;
}

void pb_func_head(PtxParse *ps, bool is_entry, PtxStr name, PtxLoc loc,
                  PtxDeclList *rets, bool has_rets, PtxDeclList *params)
{
    IrModule *m = ps->mod;
    IrFunc *f = NULL;
    PtxBinding *b = ptx_symtab_find(ps->syms, name.s, name.len);
    if (b && b->kind == BIND_FUNC) {
        f = b->func;
        if (f->is_entry != is_entry) {
            ptx_error(ps->diag, loc, "'%.*s' redeclared as a different kind "
                      "of function", (int)name.len, name.s);
        }
    } else if (b) {
        ptx_error(ps->diag, loc, "'%.*s' redeclared as a function",
                  (int)name.len, name.s);
    }
    if (!f) {
        f = ptx_arena_alloc(ps->arena, sizeof(*f));
        f->name = pb_str(ps, name);
        f->is_entry = is_entry;
        f->is_decl = true;
        f->loc = loc;
        if (!b) {
            PtxBinding *nb = ptx_symtab_bind(ps->syms, f->name, name.len);
            nb->kind = BIND_FUNC;
            nb->func = f;
        }
        *PS_ARRAY_PUSH(ps, m->funcs, m->nfuncs, ps->cap_funcs) = f;
    }
    if (is_entry && has_rets) {
        ptx_error(ps->diag, loc, "a kernel (.entry) cannot return values");
    }
    f->linkage = ps->linkage;
    ps->head_loc = loc;
    f->params = make_params(ps, params, &f->nparams);
    f->rets = make_params(ps, rets, &f->nrets);
    ps->func = f;
    ps->in_body = false;
    ps->cap_fpragmas = f->npragmas;
}

static uint32_t dir_value(PtxParse *ps, PtxExpr *e)
{
    PtxConst c = ptx_fold(ps, e);
    if (c.kind != CV_INT || c.bits > UINT32_MAX) {
        if (c.kind != CV_ERROR) {
            ptx_error(ps->diag, e->loc, "expected a 32-bit unsigned integer");
        }
        return 0;
    }
    return (uint32_t)c.bits;
}

void pb_func_directive(PtxParse *ps, int which, PtxExprList vals, PtxLoc loc)
{
    IrFunc *f = ps->func;
    if (!f) {
        return;
    }
    uint32_t v[3] = {0, 0, 0};
    uint32_t i = 0;
    for (PtxExpr *e = vals.head; e && i < 3; e = e->next) {
        v[i++] = dir_value(ps, e);
    }
    static const uint8_t nmin[] = {
        [PD_MAXNREG] = 1, [PD_MAXNTID] = 1, [PD_REQNTID] = 1,
        [PD_MINNCTAPERSM] = 1, [PD_MAXNCTAPERSM] = 1,
        [PD_EXPLICITCLUSTER] = 0, [PD_REQNCTAPERCLUSTER] = 1,
        [PD_NORETURN] = 0, [PD_BLOCKSARECLUSTERS] = 0,
        [PD_MAXCLUSTERRANK] = 1,
    };
    static const uint8_t nmax[] = {
        [PD_MAXNREG] = 1, [PD_MAXNTID] = 3, [PD_REQNTID] = 3,
        [PD_MINNCTAPERSM] = 1, [PD_MAXNCTAPERSM] = 1,
        [PD_EXPLICITCLUSTER] = 0, [PD_REQNCTAPERCLUSTER] = 3,
        [PD_NORETURN] = 0, [PD_BLOCKSARECLUSTERS] = 0,
        [PD_MAXCLUSTERRANK] = 1,
    };
    if (vals.n < nmin[which] || vals.n > nmax[which]) {
        ptx_error(ps->diag, loc, "wrong number of values for this "
                  "directive (expected %u to %u)", nmin[which], nmax[which]);
        return;
    }
    /* Unspecified trailing dimensions are 1 (PTX ISA 11.4). */
    for (uint32_t k = i; k < 3; k++) {
        v[k] = 1;
    }
    switch (which) {
    case PD_MAXNREG: f->maxnreg = v[0]; break;
    case PD_MAXNTID: memcpy(f->maxntid, v, sizeof(v)); break;
    case PD_REQNTID: memcpy(f->reqntid, v, sizeof(v)); break;
    case PD_MINNCTAPERSM: f->minnctapersm = v[0]; break;
    case PD_MAXNCTAPERSM: f->maxnctapersm = v[0]; break;
    case PD_EXPLICITCLUSTER: f->explicitcluster = true; break;
    case PD_REQNCTAPERCLUSTER: memcpy(f->reqnctapercluster, v, sizeof(v));
        break;
    case PD_NORETURN: f->noreturn = true; break;
    case PD_BLOCKSARECLUSTERS: f->blocksareclusters = true; break;
    case PD_MAXCLUSTERRANK: f->maxclusterrank = v[0]; break;
    }
}

void pb_func_no_body(PtxParse *ps)
{
    ps->func = NULL;
    ps->in_body = false;
}

static void bind_params(PtxParse *ps, IrSymbol **v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        const char *nm = v[i]->name;
        uint32_t len = (uint32_t)strlen(nm);
        if (len == 1 && nm[0] == '_') {
            continue;
        }
        PtxBinding *old = ptx_symtab_find(ps->syms, nm, len);
        if (old && old->depth == ptx_symtab_depth(ps->syms)) {
            ptx_error(ps->diag, v[i]->loc, "duplicate parameter '%s'", nm);
            continue;
        }
        PtxBinding *b = ptx_symtab_bind(ps->syms, nm, len);
        if (v[i]->space == PTX_SPACE_REG) {
            /* Old-style .reg parameters are registers of the function. */
            b->kind = BIND_REG;
            b->index = add_reg(ps, nm, v[i]->type, v[i]->vec);
        } else {
            b->kind = BIND_VAR;
            b->sym = v[i];
        }
    }
}

static void open_scope(PtxParse *ps, PtxLoc loc, uint32_t parent)
{
    IrFunc *f = ps->func;
    IrScope *s = PS_VEC_PUSH(f->scopes, f->nscopes, ps->cap_scopes);
    memset(s, 0, sizeof(*s));
    s->parent = parent;
    s->first_insn = f->ninsns;
    s->end_insn = f->ninsns;
    s->loc = loc;
    *PS_VEC_PUSH(ps->scope_refs, ps->nscope_refs, ps->cap_scope_refs) =
        NULL;
    ps->scope = f->nscopes - 1;
    ptx_symtab_push(ps->syms);
}

void pb_func_body_begin(PtxParse *ps, PtxLoc loc)
{
    IrFunc *f = ps->func;
    if (!f) {
        return;
    }
    if (!f->is_decl) {
        ptx_error(ps->diag, ps->head_loc, "redefinition of function '%s'",
                  f->name);
        /* Parse the body into a throwaway function to keep going. */
        IrFunc *g = ptx_arena_alloc(ps->arena, sizeof(*g));
        *g = *f;
        f = ps->func = g;
    }
    f->is_decl = false;
    f->regs = NULL;
    f->nregs = 0;
    f->insns = NULL;
    f->ninsns = 0;
    f->labels = NULL;
    f->nlabels = 0;
    f->scopes = NULL;
    f->nscopes = 0;
    f->vars = NULL;
    f->nvars = 0;
    ps->cap_regs = ps->cap_insns = ps->cap_labels = 0;
    ps->cap_scopes = ps->cap_vars = 0;
    ps->nscope_refs = 0;
    ps->in_body = true;
    ps->cur_src = (IrSrcPos){.file = 0};
    open_scope(ps, loc, 0);
    bind_params(ps, f->rets, f->nrets);
    bind_params(ps, f->params, f->nparams);
}

void pb_scope_open(PtxParse *ps, PtxLoc loc)
{
    if (!ps->func || !ps->in_body) {
        return;
    }
    /* Passes over the scopes recurse (the printer's): bound the depth. */
    unsigned depth = 0;
    for (uint32_t s = ps->scope; depth <= PTX_MAX_NESTING && s != 0;
         s = ps->func->scopes[s].parent) {
        depth++;
    }
    if (depth >= PTX_MAX_NESTING && !ps->nest_reported) {
        ptx_error(ps->diag, loc, "blocks nested more than %d levels deep",
                  PTX_MAX_NESTING);
        ps->nest_reported = true;
    }
    open_scope(ps, loc, ps->scope);
}

void pb_label_ref(PtxParse *ps, int32_t *slot, PtxStr name, PtxLoc loc)
{
    PtxLabelRef *r = ptx_arena_alloc(ps->arena, sizeof(*r));
    r->slot = slot;
    r->name = ptx_arena_strndup(ps->arena, name.s, name.len);
    r->len = name.len;
    r->loc = loc;
    *slot = -1;
    r->next = ps->scope_refs[ps->scope];
    ps->scope_refs[ps->scope] = r;
}

/* Resolve the references made in the closing scope against the labels
 * visible there; pass the rest to the parent scope, or report them when
 * the function scope closes. */
static void close_scope(PtxParse *ps)
{
    IrFunc *f = ps->func;
    uint32_t s = ps->scope;
    PtxLabelRef *r = ps->scope_refs[s];
    ps->scope_refs[s] = NULL;
    uint32_t parent = f->scopes[s].parent;
    while (r) {
        PtxLabelRef *next = r->next;
        PtxBinding *b = ptx_symtab_find(ps->syms, r->name, r->len);
        if (b && b->kind == BIND_LABEL) {
            *r->slot = (int32_t)b->index;
        } else if (s == 0) {
            ptx_error(ps->diag, r->loc, "'%s' is not declared", r->name);
        } else {
            r->next = ps->scope_refs[parent];
            ps->scope_refs[parent] = r;
        }
        r = next;
    }
    f->scopes[s].end_insn = f->ninsns;
    ptx_symtab_pop(ps->syms);
    ps->scope = parent;
}

void pb_scope_close(PtxParse *ps, PtxLoc loc)
{
    (void)loc;
    if (!ps->func || !ps->in_body || ps->scope == 0) {
        return;
    }
    close_scope(ps);
}

void pb_block_end(PtxParse *ps, PtxLoc loc)
{
    if (ps->func && ps->in_body && ps->scope != 0) {
        pb_scope_close(ps, loc);
    } else {
        pb_func_end(ps, loc);
    }
}

void pb_unknown_directive(PtxParse *ps, PtxStr name, PtxLoc loc)
{
    ptx_error(ps->diag, loc, "unknown directive '%.*s'", (int)name.len,
              name.s);
}

static void finish_function(PtxParse *ps, IrFunc *f)
{
    unsigned before = ps->diag->nerrors;
    for (uint32_t i = 0; i < f->ninsns && !ptx_diag_full(ps->diag); i++) {
        IrInsn *in = &f->insns[i];
        /* Operands with unresolved labels were already reported. */
        ptx_validate_insn(ps->mod, f, in, ps->diag);
    }
    if (ps->diag->nerrors == before) {
        ir_cfg_build(ps->mod, f);
    }
}

/* Move a malloc'd vector into the arena at its exact size. */
static void *settle(PtxParse *ps, void *v, uint32_t n, size_t elsize)
{
    void *a = n ? ptx_arena_dup(ps->arena, v, (size_t)n * elsize) : NULL;
    free(v);
    return a;
}

void pb_func_end(PtxParse *ps, PtxLoc loc)
{
    (void)loc;
    IrFunc *f = ps->func;
    if (!f || !ps->in_body) {
        ps->func = NULL;
        return;
    }
    while (ps->scope != 0) {
        close_scope(ps);
    }
    close_scope(ps);
    ps->in_body = false;
    ps->func = NULL;
    f->regs = settle(ps, f->regs, f->nregs, sizeof(*f->regs));
    f->insns = settle(ps, f->insns, f->ninsns, sizeof(*f->insns));
    f->labels = settle(ps, f->labels, f->nlabels, sizeof(*f->labels));
    f->scopes = settle(ps, f->scopes, f->nscopes, sizeof(*f->scopes));
    f->vars = settle(ps, f->vars, f->nvars, sizeof(*f->vars));
    finish_function(ps, f);
}

/* ------------------------------------------------------------ labels */

static IrLabel *new_label(PtxParse *ps, PtxStr name, PtxLoc loc)
{
    IrFunc *f = ps->func;
    if (!f || !ps->in_body) {
        ptx_error(ps->diag, loc, "label outside a function body");
        return NULL;
    }
    if (!check_redecl(ps, name, loc)) {
        return NULL;
    }
    IrLabel *l = PS_VEC_PUSH(f->labels, f->nlabels, ps->cap_labels);
    memset(l, 0, sizeof(*l));   /* realloc'd memory is not zeroed */
    l->name = pb_str(ps, name);
    l->insn = f->ninsns;
    l->scope = ps->scope;
    l->loc = loc;
    PtxBinding *b = ptx_symtab_bind(ps->syms, l->name, name.len);
    b->kind = BIND_LABEL;
    b->index = f->nlabels - 1;
    return l;
}

void pb_label(PtxParse *ps, PtxStr name, PtxLoc loc)
{
    new_label(ps, name, loc);
}

void pb_branchtargets(PtxParse *ps, PtxStr name, PtxLoc loc, PtxExprList l)
{
    IrLabel *lab = new_label(ps, name, loc);
    if (!lab) {
        return;
    }
    lab->kind = IR_LABEL_BRANCHTARGETS;
    lab->ntargets = l.n;
    lab->targets = ptx_arena_alloc(ps->arena, sizeof(int32_t) * (l.n + 1));
    /* new_label may have moved f->labels; refs point at targets[], which
     * does not move. */
    uint32_t i = 0;
    for (PtxExpr *e = l.head; e; e = e->next, i++) {
        if (e->kind != EX_NAME) {
            ptx_error(ps->diag, e->loc, ".branchtargets expects labels");
            lab->targets[i] = -1;
            continue;
        }
        PtxBinding *b = ptx_symtab_find(ps->syms, e->name.s, e->name.len);
        if (b && b->kind == BIND_LABEL &&
            b->depth == ptx_symtab_depth(ps->syms)) {
            lab->targets[i] = (int32_t)b->index;
        } else {
            /* forward, or possibly shadowed further down this block */
            pb_label_ref(ps, &lab->targets[i], e->name, e->loc);
        }
    }
}

void pb_calltargets(PtxParse *ps, PtxStr name, PtxLoc loc, PtxExprList l)
{
    IrLabel *lab = new_label(ps, name, loc);
    if (!lab) {
        return;
    }
    lab->kind = IR_LABEL_CALLTARGETS;
    lab->ntargets = l.n;
    lab->ftargets = ptx_arena_alloc(ps->arena, sizeof(IrFunc *) * (l.n + 1));
    uint32_t i = 0;
    for (PtxExpr *e = l.head; e; e = e->next, i++) {
        PtxBinding *b = e->kind == EX_NAME
            ? ptx_symtab_find(ps->syms, e->name.s, e->name.len) : NULL;
        if (!b || b->kind != BIND_FUNC) {
            ptx_error(ps->diag, e->loc, ".calltargets expects declared "
                      "functions");
            continue;
        }
        lab->ftargets[i] = b->func;
    }
}

void pb_callproto(PtxParse *ps, PtxStr name, PtxLoc loc, PtxDeclList rets,
                  bool has_rets, PtxDeclList params, bool noreturn)
{
    IrLabel *lab = new_label(ps, name, loc);
    if (!lab) {
        return;
    }
    (void)has_rets;
    IrFunc *p = ptx_arena_alloc(ps->arena, sizeof(*p));
    p->name = lab->name;
    p->is_proto = true;
    p->is_decl = true;
    p->noreturn = noreturn;
    p->loc = loc;
    p->rets = make_params(ps, &rets, &p->nrets);
    p->params = make_params(ps, &params, &p->nparams);
    lab->kind = IR_LABEL_CALLPROTO;
    lab->proto = p;
}

void pb_loc_inlined(PtxParse *ps, PtxStr word, uint64_t file,
                    uint64_t line, PtxLoc loc)
{
    if (word.len != 10 || memcmp(word.s, "inlined_at", 10)) {
        return;                 /* another attribute: not ours to read */
    }
    if (file > UINT32_MAX || line > UINT32_MAX) {
        ptx_error(ps->diag, loc, ".loc inlined_at value out of range");
        return;
    }
    ps->loc_inl.inl_file = (uint32_t)file;
    ps->loc_inl.inl_line = (uint32_t)line;
}

void pb_loc(PtxParse *ps, uint64_t file, uint64_t line, uint64_t col,
            PtxLoc loc)
{
    IrSrcPos inl = ps->loc_inl;
    ps->loc_inl = (IrSrcPos){.file = 0};
    if (file > UINT32_MAX || line > UINT32_MAX || col > UINT32_MAX) {
        ptx_error(ps->diag, loc, ".loc value out of range");
        return;
    }
    ps->cur_src.file = (uint32_t)file;
    ps->cur_src.line = (uint32_t)line;
    ps->cur_src.col = (uint32_t)col;
    ps->cur_src.inl_file = inl.inl_file;
    ps->cur_src.inl_line = inl.inl_line;
}
