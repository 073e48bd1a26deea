/*
 * ptx/build_init.c: variable initializers -> bytes and relocations.
 *
 * PTX ISA 5.4.4: initializers are constant expressions, nested brace lists
 * for arrays, and for 32/64-bit variables the address of a variable or
 * function, optionally inside generic() or mask(), plus an offset.  We
 * flatten the braces, store every constant little-endian at its element's
 * offset, and record addresses as relocations the loader resolves.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/build_int.h"
#include "ptx/constexpr.h"
#include "ptx/opcode.h"

uint64_t pb_elem_bytes(const IrSymbol *sym)
{
    unsigned bits = ptx_type_bits(sym->type);
    uint64_t b = bits >= 8 ? bits / 8 : 1;
    return b * (sym->vec ? sym->vec : 1);
}

/* Initial bytes are kept in memory: larger variables are refused. */
#define INIT_MAX_BYTES ((uint64_t)1 << 28)

typedef struct InitCtx {
    PtxParse *ps;
    IrSymbol *sym;
    uint64_t esize;     /* bytes of one scalar element */
    uint64_t count;     /* scalars written so far */
    uint64_t limit;     /* scalars available (UINT64_MAX when unsized) */
    uint8_t *buf;
    uint64_t cap;       /* bytes in buf */
    IrReloc *relocs;
    uint32_t nrelocs, caprelocs;
    bool failed;
} InitCtx;

/* Little-endian; wider elements (.b128) are zero-extended. */
static void store(uint8_t *p, uint64_t v, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        p[i] = i < 8 ? (uint8_t)(v >> (8 * i)) : 0;
    }
}

static uint16_t f32_to_f16(float f);

/* Convert a folded constant to the variable's element type. */
static bool encode_const(InitCtx *c, const PtxExpr *e, PtxConst k,
                         uint64_t *out)
{
    PtxType t = c->sym->type;
    PtxTypeKind tk = ptx_type_kind(t);
    unsigned bits = ptx_type_bits(t);
    /* Half-precision and packed float variables take integer bit
     * patterns; only f32/f64 convert an integer's value. */
    bool raw_bits = tk != PTX_TK_F || (t != PTX_T_F32 && t != PTX_T_F64);
    if (k.kind == CV_INT) {
        if (!raw_bits) {
            double d = k.is_unsigned ? (double)k.bits
                                     : (double)(int64_t)k.bits;
            k.kind = CV_FLT;
            k.fsize = 64;
            memcpy(&k.bits, &d, sizeof(d));
        } else {
            if (!ptx_int_fits(k.bits, k.is_unsigned, bits)) {
                ptx_error(c->ps->diag, e->loc, "initializer value does not "
                          "fit in .%s", ptx_type_name(t));
                return false;
            }
            *out = bits >= 64 ? k.bits : k.bits & (((uint64_t)1 << bits) - 1);
            return true;
        }
    }
    if (k.kind != CV_FLT) {
        return false;
    }
    /* A hex float literal (0f/0d) gives raw bits: allowed for bit-size
     * and float types of its width (PTX ISA 4.5.2). */
    double d;
    if (k.fsize == 32) {
        float f;
        uint32_t w = (uint32_t)k.bits;
        memcpy(&f, &w, sizeof(f));
        d = f;
    } else {
        memcpy(&d, &k.bits, sizeof(d));
    }
    if (tk == PTX_TK_B && bits == k.fsize) {
        *out = k.bits;
        return true;
    }
    if (tk != PTX_TK_F) {
        ptx_error(c->ps->diag, e->loc, "floating-point initializer for a "
                  ".%s variable", ptx_type_name(t));
        return false;
    }
    if (t == PTX_T_F64) {
        memcpy(out, &d, sizeof(d));
    } else if (t == PTX_T_F32) {
        float f = (float)d;
        uint32_t w;
        memcpy(&w, &f, sizeof(w));
        *out = w;
    } else if (t == PTX_T_F16) {
        *out = f32_to_f16((float)d);
    } else {
        ptx_error(c->ps->diag, e->loc, "initializers of .%s variables must "
                  "be integer bit patterns", ptx_type_name(t));
        return false;
    }
    return true;
}

/* IEEE binary32 -> binary16, round to nearest even. */
static uint16_t f32_to_f16(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof(x));
    uint32_t sign = (x >> 16) & 0x8000u;
    int32_t exp = (int32_t)((x >> 23) & 0xff);
    uint32_t man = x & 0x7fffffu;
    if (exp == 0xff) {
        return (uint16_t)(sign | 0x7c00u | (man ? 0x200u : 0));
    }
    int32_t e = exp - 127 + 15;
    if (e >= 0x1f) {
        return (uint16_t)(sign | 0x7c00u);
    }
    if (e <= 0) {
        if (e < -10) {
            return (uint16_t)sign;
        }
        man |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - e);
        uint32_t half = man >> shift;
        uint32_t rem = man & ((1u << shift) - 1);
        uint32_t mid = 1u << (shift - 1);
        if (rem > mid || (rem == mid && (half & 1))) {
            half++;
        }
        return (uint16_t)(sign | half);
    }
    uint32_t half = ((uint32_t)e << 10) | (man >> 13);
    uint32_t rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (half & 1))) {
        half++;
    }
    return (uint16_t)(sign | half);
}

static uint8_t *slot(InitCtx *c)
{
    uint64_t need = (c->count + 1) * c->esize;
    if (need > c->cap) {
        /* Only unsized arrays grow: a sized variable's bytes are
         * allocated whole when its initializer begins. */
        uint64_t cap = c->cap ? c->cap * 2 : 64;
        while (cap < need) {
            cap *= 2;
        }
        uint8_t *nb = ptx_arena_alloc(c->ps->arena, cap);
        if (c->cap) {
            memcpy(nb, c->buf, c->cap);
        }
        c->buf = nb;
        c->cap = cap;
    }
    return c->buf + c->count * c->esize;
}

static void add_reloc(InitCtx *c, const PtxExpr *e, const PtxExpr *name,
                      int64_t addend, bool generic, uint64_t mask)
{
    PtxParse *ps = c->ps;
    if (!mask && c->esize != 4 && c->esize != 8) {
        ptx_error(ps->diag, e->loc, "an address initializer needs a 32- or "
                  "64-bit element type");
        c->failed = true;
        return;
    }
    PtxBinding *b = ptx_symtab_find(ps->syms, name->name.s, name->name.len);
    if (!b || (b->kind != BIND_VAR && b->kind != BIND_FUNC)) {
        ptx_error(ps->diag, name->loc, "'%.*s' is not a declared variable or "
                  "function", (int)name->name.len, name->name.s);
        c->failed = true;
        return;
    }
    IrReloc *r = c->relocs;
    r = ptx_arena_grow(ps->arena, r, c->nrelocs, &c->caprelocs,
                       c->nrelocs + 1, sizeof(*r));
    c->relocs = r;
    IrReloc *x = &r[c->nrelocs++];
    memset(x, 0, sizeof(*x));
    x->offset = c->count * c->esize;
    x->size = (uint8_t)c->esize;
    x->generic = generic;
    x->sym = b->kind == BIND_VAR ? b->sym : NULL;
    x->func = b->kind == BIND_FUNC ? b->func : NULL;
    x->addend = addend;
    x->mask = mask;
    while (mask && !((mask >> x->shift) & 1)) {
        x->shift++;
    }
}

/* Split "name", "name+k", "generic(name)", "generic(name)+k" into its
 * parts; false if e has another shape. */
static bool split_addr(InitCtx *c, const PtxExpr *e, const PtxExpr **name,
                       int64_t *addend, bool *generic)
{
    *addend = 0;
    *generic = false;
    if (e->kind == EX_BINARY && (e->op == '+' || e->op == '-') &&
        ptx_expr_is_const(e->b)) {
        PtxConst k = ptx_fold(c->ps, e->b);
        if (k.kind != CV_INT) {
            return false;
        }
        *addend = (int64_t)k.bits;
        if (e->op == '-') {
            *addend = (int64_t)(0 - (uint64_t)*addend);
        }
        e = e->a;
    }
    if (e->kind == EX_FCALL && e->n == 1 && e->name.len == 7 &&
        memcmp(e->name.s, "generic", 7) == 0) {
        *generic = true;
        e = e->list;
    } else if (e->kind == EX_FCALL) {
        ptx_error(c->ps->diag, e->loc, "unknown initializer function "
                  "'%.*s' (expected generic)", (int)e->name.len, e->name.s);
        c->failed = true;
        return true;
    }
    if (e->kind != EX_NAME) {
        return false;
    }
    *name = e;
    return true;
}

/* An address initializer: name | name+k | generic(name)+k, or a masked
 * one, MASK(address) (PTX ISA 5.4.4: bytes of an address selected by an
 * integer mask, for .u8 arrays). */
static bool addr_leaf(InitCtx *c, const PtxExpr *e)
{
    const PtxExpr *name = NULL;
    int64_t addend;
    bool generic;
    uint64_t mask = 0;
    if (e->kind == EX_MASK) {
        mask = e->ival;
        if (mask == 0 || (e->flags & NUM_OVERFLOW)) {
            ptx_error(c->ps->diag, e->loc, "address mask must be a non-zero "
                      "64-bit integer");
            c->failed = true;
            return true;
        }
        e = e->a;
    }
    if (!split_addr(c, e, &name, &addend, &generic)) {
        return false;
    }
    if (name) {
        add_reloc(c, e, name, addend, generic, mask);
    }
    return true;
}

static void leaf(InitCtx *c, const PtxExpr *e, uint64_t end)
{
    if (c->count >= end || c->count >= c->limit) {
        if (!c->failed) {
            ptx_error(c->ps->diag, e->loc, "too many initializers for '%s'",
                      c->sym->name);
        }
        c->failed = true;
        return;
    }
    uint8_t *p = slot(c);
    if (ptx_expr_is_const(e)) {
        PtxConst k = ptx_fold(c->ps, e);
        uint64_t v = 0;
        if (k.kind == CV_ERROR) {
            c->failed = true;
        } else if (encode_const(c, e, k, &v)) {
            store(p, v, c->esize);
        } else {
            c->failed = true;
        }
    } else if (!addr_leaf(c, e)) {
        ptx_error(c->ps->diag, e->loc, "initializer is not a constant or an "
                  "address");
        c->failed = true;
    }
    c->count++;
}

/* Scalars in one element of dimension d (d == ndims: the vector
 * components of one element).  C's rules: a brace at depth d+1 is one
 * element of dimension d, starts at the next such element's boundary,
 * and may not spill into the following one; unbraced scalars fill in
 * order (brace elision). */
static uint64_t span(const InitCtx *c, uint32_t d)
{
    const IrSymbol *s = c->sym;
    uint64_t n = s->vec ? s->vec : 1;
    for (uint32_t i = d + 1; i < s->ndims; i++) {
        n *= s->dims[i];
    }
    return d >= s->ndims ? 1 : n;
}

#define INIT_MAX_DEPTH 64

enum { MODE_ENCODE, MODE_OPAQUE, MODE_DISCARD };

/* An initializer being parsed.  Braces form a stack: stop[k] is where
 * the brace at depth k ends (its scalars may not spill past it). */
typedef struct PtxInitStream {
    InitCtx c;
    IrSymbol shape;     /* the variable as declared (name, type, dims) */
    int mode;
    uint32_t depth;     /* braces open */
    uint64_t stop[INIT_MAX_DEPTH + 1];
    bool any;           /* a brace or a scalar came */
    bool braced;
    PtxLoc loc;
    PtxArenaMark mark;  /* scratch memory to give back after each leaf */
    IrTexAttr *attrs;
    uint32_t nattrs, capattrs;
} PtxInitStream;

void pb_decl_begin(PtxParse *ps, IrLinkage link, const PtxDeclSpec *spec)
{
    ps->decl_spec = spec;
    ps->decl_link = link;
}

void pb_decl_name(PtxParse *ps, PtxStr name)
{
    ps->pend_name = name;
}

void pb_init_reset(PtxParse *ps)
{
    free(ps->init);
    ps->init = NULL;
}

uint64_t pb_var_size(const IrSymbol *sym, bool *too_large)
{
    uint64_t n = sym->kind == IR_SYM_VAR ? pb_elem_bytes(sym) : 8;
    bool bad = false;
    *too_large = false;
    for (uint32_t i = 0; i < sym->ndims; i++) {
        if (sym->dims[i] == 0 && i > 0) {
            bad = true;         /* reported by pb_dim_unsized */
        } else if (sym->dims[i] && n > ((uint64_t)1 << 48) / sym->dims[i]) {
            *too_large = true;
            return UINT64_MAX;
        }
        n *= sym->dims[i];
    }
    return bad ? UINT64_MAX : n;
}

void pb_init_begin(PtxParse *ps, PtxLoc loc)
{
    pb_init_reset(ps);
    PtxInitStream *st = calloc(1, sizeof(*st));
    if (!st) {
        fputs("ptxemu: out of memory\n", stderr);
        abort();
    }
    ps->init = st;
    st->loc = loc;
    const PtxDeclSpec *s = ps->decl_spec;
    IrSymbol *sym = &st->shape;
    sym->name = ptx_arena_strndup(ps->scratch, ps->pend_name.s,
                                  ps->pend_name.len);
    st->mark = ptx_arena_mark(ps->scratch); /* keep the name */
    PtxSpace space = s ? s->space : PTX_SPACE_NONE;
    if (s && space == PTX_SPACE_NONE && s->symkind) {
        space = PTX_SPACE_GLOBAL;   /* as pb_declare decides */
    }
    sym->type = s ? s->type : PTX_T_NONE;
    sym->vec = s && s->vec ? s->vec : 1;
    sym->kind = s ? s->symkind : IR_SYM_VAR;
    sym->ndims = ps->pend_ndims;
    memcpy(sym->dims, ps->pend_dims, sizeof(sym->dims));
    bool too_large;
    uint64_t size = pb_var_size(sym, &too_large); /* reported later */
    sym->size = size == UINT64_MAX ? 0 : size;
    /* What make_symbol refuses (and reports then) is only parsed. */
    st->mode = MODE_DISCARD;
    if (!s || (space != PTX_SPACE_GLOBAL && space != PTX_SPACE_CONST) ||
        ps->decl_link == IR_LINK_EXTERN || size == UINT64_MAX) {
        return;
    }
    if (sym->kind != IR_SYM_VAR) {
        st->mode = MODE_OPAQUE;
        return;
    }
    if (sym->type == PTX_T_PRED || sym->type == PTX_T_NONE ||
        sym->size > INIT_MAX_BYTES) {
        return;
    }
    st->mode = MODE_ENCODE;
    InitCtx *c = &st->c;
    c->ps = ps;
    c->sym = sym;
    unsigned bits = ptx_type_bits(sym->type);
    c->esize = bits >= 8 ? bits / 8 : 1;
    bool unsized = sym->ndims && sym->dims[0] == 0;
    c->limit = unsized ? UINT64_MAX : sym->size / c->esize;
    if (!unsized) {
        /* the whole variable, zero where the initializer says nothing */
        c->cap = sym->size ? sym->size : 1;
        c->buf = ptx_arena_alloc(ps->arena, c->cap);
    }
}

static bool opaque_leaf(PtxParse *ps, PtxInitStream *st, PtxExpr *e)
{
    if (e->kind != EX_ASSIGN ||
        (e->a->kind != EX_NAME && e->a->kind != EX_INT)) {
        ptx_error(ps->diag, e->loc, "expected 'attribute = value'");
        return false;
    }
    IrTexAttr *a = ptx_arena_grow(ps->arena, st->attrs, st->nattrs,
                                  &st->capattrs, st->nattrs + 1,
                                  sizeof(*a));
    st->attrs = a;
    a = &a[st->nattrs++];
    a->key = ptx_arena_strndup(ps->arena, e->name.s, e->name.len);
    if (e->a->kind == EX_NAME) {
        a->value = ptx_arena_strndup(ps->arena, e->a->name.s,
                                     e->a->name.len);
    } else {
        char buf[24];
        int n = snprintf(buf, sizeof(buf), "%llu",
                         (unsigned long long)e->a->ival);
        a->value = ptx_arena_strndup(ps->arena, buf, (size_t)n);
    }
    return true;
}

void pb_init_open(PtxParse *ps, PtxLoc loc)
{
    PtxInitStream *st = ps->init;
    if (!st) {
        return;
    }
    InitCtx *c = &st->c;
    uint32_t depth = st->depth++;   /* this brace's depth */
    if (!st->any) {
        st->any = st->braced = true;
        st->loc = loc;
        st->stop[0] = c->limit;
        return;
    }
    if (st->mode == MODE_OPAQUE && !c->failed) {
        ptx_error(ps->diag, loc, "expected 'attribute = value'");
        c->failed = true;
    }
    if (st->mode != MODE_ENCODE || c->failed) {
        return;
    }
    if (depth > INIT_MAX_DEPTH) {
        ptx_error(ps->diag, loc, "initializer nested too deeply");
        c->failed = true;
        return;
    }
    /* This brace is one element of dimension depth-1 (or, past the last
     * dimension, one vector). */
    const IrSymbol *s = c->sym;
    uint32_t d = depth - 1;
    if (d > s->ndims || (d == s->ndims && s->vec <= 1)) {
        ptx_error(ps->diag, loc, "too many braces in the initializer of "
                  "'%s'", s->name);
        c->failed = true;
        return;
    }
    uint64_t end = st->stop[depth - 1];
    uint64_t sz = d < s->ndims ? span(c, d) : (s->vec ? s->vec : 1);
    uint64_t begin = (c->count + sz - 1) / sz * sz;
    st->stop[depth] = begin + sz < end ? begin + sz : end;
    if (begin >= end) {
        ptx_error(ps->diag, loc, "too many initializers for '%s'", s->name);
        c->failed = true;
        return;
    }
    while (c->count < begin) {      /* skipped scalars stay zero */
        slot(c);
        c->count++;
    }
}

void pb_init_leaf(PtxParse *ps, PtxExpr *e)
{
    PtxInitStream *st = ps->init;
    if (!st) {
        return;
    }
    InitCtx *c = &st->c;
    if (!st->any) {
        st->any = true;
        st->loc = e->loc;
        if (st->mode == MODE_OPAQUE) {
            ptx_error(ps->diag, e->loc, "expected '{ attribute = value, "
                      "... }'");
            c->failed = true;
        } else if (st->mode == MODE_ENCODE && st->shape.ndims) {
            ptx_error(ps->diag, e->loc, "array initializer must be in "
                      "braces");
            c->failed = true;
        }
    }
    if (!c->failed && st->mode == MODE_OPAQUE) {
        c->failed = !opaque_leaf(ps, st, e);
    } else if (!c->failed && st->mode == MODE_ENCODE) {
        leaf(c, e, st->depth ? st->stop[st->depth - 1] : c->limit);
    }
    ptx_arena_release(ps->scratch, st->mark);
}

void pb_init_close(PtxParse *ps, PtxLoc loc)
{
    (void)loc;
    PtxInitStream *st = ps->init;
    if (!st || !st->depth) {
        return;
    }
    uint32_t depth = --st->depth;
    InitCtx *c = &st->c;
    if (depth > 0 && depth <= INIT_MAX_DEPTH && st->mode == MODE_ENCODE &&
        !c->failed) {
        while (c->count < st->stop[depth]) { /* the rest of it: zero */
            slot(c);
            c->count++;
        }
    }
}

void pb_init_end(PtxParse *ps)
{
    PtxInitStream *st = ps->init;
    if (!st) {
        return;
    }
    PtxInit *in = ptx_arena_alloc(ps->scratch, sizeof(*in));
    in->loc = st->loc;
    in->braced = st->braced;
    in->failed = st->c.failed;
    in->encoded = st->mode != MODE_DISCARD && !st->c.failed;
    in->count = st->c.count;
    in->bytes = st->c.buf;
    in->relocs = st->c.relocs;
    in->nrelocs = st->c.nrelocs;
    in->attrs = st->attrs;
    in->nattrs = st->nattrs;
    ps->pend_init = in;
    pb_init_reset(ps);
}

void pb_init_attach(PtxParse *ps, IrSymbol *sym, const PtxInit *init)
{
    if (sym->kind != IR_SYM_VAR) {
        if (init->encoded) {
            sym->texattrs = init->attrs;
            sym->ntexattrs = init->nattrs;
        }
        return;
    }
    if (sym->type == PTX_T_PRED || sym->type == PTX_T_NONE) {
        ptx_error(ps->diag, init->loc, "'%s' cannot have an initializer",
                  sym->name);
        return;
    }
    /* Initial bytes are kept in memory: refuse absurd sizes rather than
     * exhaust the host (the limit is far above any real module's). */
    if (sym->size > INIT_MAX_BYTES) {
        ptx_error(ps->diag, init->loc, "initialized variable '%s' is too "
                  "large (%llu bytes; at most 256 MiB)", sym->name,
                  (unsigned long long)sym->size);
        return;
    }
    if (!init->encoded) {
        return;
    }
    uint64_t per = sym->vec ? sym->vec : 1;
    for (uint32_t i = 1; i < sym->ndims; i++) {
        per *= sym->dims[i];
    }
    if (per == 0) {
        return;
    }
    uint64_t esize = pb_elem_bytes(sym) / (sym->vec ? sym->vec : 1);
    const uint8_t *bytes = init->bytes;
    if (sym->ndims && sym->dims[0] == 0) {
        sym->dims[0] = (init->count + per - 1) / per;
        if (sym->dims[0] == 0) {
            sym->dims[0] = 1;
        }
        sym->size = sym->dims[0] * per * esize;
        uint8_t *b = ptx_arena_alloc(ps->arena, sym->size ? sym->size : 1);
        if (bytes) {
            memcpy(b, bytes, init->count * esize);
        }
        bytes = b;
    }
    sym->init = (uint8_t *)bytes;
    sym->relocs = init->relocs;
    sym->nrelocs = init->nrelocs;
}
