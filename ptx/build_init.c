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

static void walk(InitCtx *c, const PtxExpr *e, uint32_t depth, uint64_t end)
{
    if (depth > 64) {
        ptx_error(c->ps->diag, e->loc, "initializer nested too deeply");
        c->failed = true;
        return;
    }
    if (e->kind != EX_VEC) {
        leaf(c, e, end);
        return;
    }
    const IrSymbol *s = c->sym;
    uint64_t begin = c->count;
    uint64_t stop = end;
    if (depth > 0) {
        /* This brace is one element of dimension depth-1 (or, past the
         * last dimension, one vector). */
        uint32_t d = depth - 1;
        if (d > s->ndims || (d == s->ndims && s->vec <= 1)) {
            ptx_error(c->ps->diag, e->loc, "too many braces in the "
                      "initializer of '%s'", s->name);
            c->failed = true;
            return;
        }
        uint64_t sz = d < s->ndims ? span(c, d) : (s->vec ? s->vec : 1);
        begin = (c->count + sz - 1) / sz * sz;
        stop = begin + sz < end ? begin + sz : end;
        if (begin >= end) {
            ptx_error(c->ps->diag, e->loc, "too many initializers for '%s'",
                      s->name);
            c->failed = true;
            return;
        }
        while (c->count < begin) {      /* skipped scalars stay zero */
            slot(c);
            c->count++;
        }
    }
    for (const PtxExpr *x = e->list; x && !c->failed; x = x->next) {
        walk(c, x, depth + 1, stop);
    }
    if (depth > 0 && !c->failed) {
        while (c->count < stop) {       /* the rest of this element: zero */
            slot(c);
            c->count++;
        }
    }
}

/* .texref/.samplerref/.surfref = { key = value, ... } (PTX ISA 5.3.3):
 * kept as written; the texture unit interprets them. */
static void init_opaque(PtxParse *ps, IrSymbol *sym, PtxExpr *init)
{
    if (init->kind != EX_VEC) {
        ptx_error(ps->diag, init->loc, "expected '{ attribute = value, ... }'");
        return;
    }
    sym->texattrs = ptx_arena_alloc(ps->arena,
                                    sizeof(IrTexAttr) * (init->n + 1));
    for (PtxExpr *e = init->list; e; e = e->next) {
        if (e->kind != EX_ASSIGN ||
            (e->a->kind != EX_NAME && e->a->kind != EX_INT)) {
            ptx_error(ps->diag, e->loc, "expected 'attribute = value'");
            return;
        }
        IrTexAttr *a = &sym->texattrs[sym->ntexattrs++];
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
    }
}

void pb_init_symbol(PtxParse *ps, IrSymbol *sym, PtxExpr *init)
{
    if (sym->kind != IR_SYM_VAR) {
        init_opaque(ps, sym, init);
        return;
    }
    if (sym->type == PTX_T_PRED ||
        sym->type == PTX_T_NONE) {
        ptx_error(ps->diag, init->loc, "'%s' cannot have an initializer",
                  sym->name);
        return;
    }
    /* Initial bytes are kept in memory: refuse absurd sizes rather than
     * exhaust the host (the limit is far above any real module's). */
    if (sym->size > ((uint64_t)1 << 28)) {
        ptx_error(ps->diag, init->loc, "initialized variable '%s' is too "
                  "large (%llu bytes; at most 256 MiB)", sym->name,
                  (unsigned long long)sym->size);
        return;
    }
    InitCtx c;
    memset(&c, 0, sizeof(c));
    c.ps = ps;
    c.sym = sym;
    unsigned bits = ptx_type_bits(sym->type);
    c.esize = bits >= 8 ? bits / 8 : 1;
    bool unsized = sym->ndims && sym->dims[0] == 0;
    c.limit = unsized ? UINT64_MAX : sym->size / c.esize;
    if (init->kind != EX_VEC && sym->ndims) {
        ptx_error(ps->diag, init->loc, "array initializer must be in braces");
        return;
    }
    walk(&c, init, 0, c.limit);
    if (c.failed) {
        return;
    }
    uint64_t per = sym->vec ? sym->vec : 1;
    for (uint32_t i = 1; i < sym->ndims; i++) {
        per *= sym->dims[i];
    }
    if (per == 0) {
        return;
    }
    if (unsized) {
        sym->dims[0] = (c.count + per - 1) / per;
        if (sym->dims[0] == 0) {
            sym->dims[0] = 1;
        }
        sym->size = sym->dims[0] * per * c.esize;
    }
    uint8_t *bytes = ptx_arena_alloc(ps->arena, sym->size ? sym->size : 1);
    if (c.buf) {
        memcpy(bytes, c.buf, c.count * c.esize);
    }
    sym->init = bytes;
    sym->relocs = c.relocs;
    sym->nrelocs = c.nrelocs;
}
