/*
 * ptx/build_insn.c: instructions and operands.
 *
 * The mnemonic token ("ld.global.nc.v4.f32") is split here: the longest
 * opcode-name prefix names the instruction, every further suffix is a
 * type or a modifier of a group the opcode allows (opcodes.def).  An
 * operand expression is turned into an IrOperand by its shape: a name is
 * looked up (register, special register, variable, function, label), a
 * bracket is an address, braces a vector, "!p" a negated predicate,
 * "p|q" a predicate pair, and anything else must fold to a constant.
 */
#include "config.h"

#include <string.h>

#include "ptx/build_int.h"
#include "ptx/constexpr.h"
#include "ptx/opcode.h"
#include "ptx/parser.h"

/* The register binding for "%r17": the exact name, or a %r<N> range.
 * The innermost of the two wins when both exist. */
static PtxBinding *find_name(PtxParse *ps, const char *s, uint32_t len,
                             uint32_t *index)
{
    uint32_t d = len;
    while (d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9') {
        d--;
    }
    if (d == len || d == 0) {
        PtxBinding *b = ptx_symtab_find(ps->syms, s, len);
        if (b) {
            *index = b->index;
        }
        return b;
    }
    PtxBinding *exact = s[0] != '%' || ptx_symtab_has_digit_names(ps->syms)
        ? ptx_symtab_find(ps->syms, s, len) : NULL;
    PtxBinding *range = NULL;
    uint64_t idx = 0;
    /* "%r01" is not member 1 of %r<N>: no leading zeros. */
    if ((s[d] != '0' || d + 1 == len) && len - d <= 9) {
        range = ptx_symtab_find(ps->syms, s, d);
        if (range && range->kind != BIND_REGRANGE) {
            range = NULL;
        }
        if (range) {
            for (uint32_t i = d; i < len; i++) {
                idx = idx * 10 + (uint64_t)(s[i] - '0');
            }
            if (idx >= range->count) {
                range = NULL;
            }
        }
    }
    if (exact && (!range || exact->depth >= range->depth)) {
        *index = exact->index;
        return exact;
    }
    if (range) {
        *index = range->index + (uint32_t)idx;
        return range;
    }
    return NULL;
}

/* .x .y .z .w (and .r .g .b .a), .b0-.b3, .h0/.h1, and the multi-digit
 * SIMD video selectors .bNNNN (digits 0-7) and .hNN (digits 0-3). */
static uint16_t component(const char *s, uint32_t n)
{
    static const struct { const char *name; uint8_t sel; } comps[] = {
        {"x", IR_SEL_X}, {"y", IR_SEL_Y}, {"z", IR_SEL_Z}, {"w", IR_SEL_W},
        {"r", IR_SEL_X}, {"g", IR_SEL_Y}, {"b", IR_SEL_Z}, {"a", IR_SEL_W},
        {"b0", IR_SEL_B0}, {"b1", IR_SEL_B1}, {"b2", IR_SEL_B2},
        {"b3", IR_SEL_B3}, {"h0", IR_SEL_H0}, {"h1", IR_SEL_H1},
    };
    for (size_t i = 0; i < sizeof(comps) / sizeof(comps[0]); i++) {
        if (strlen(comps[i].name) == n && memcmp(comps[i].name, s, n) == 0) {
            return comps[i].sel;
        }
    }
    if (n < 3 || (s[0] != 'b' && s[0] != 'h')) {
        return IR_SEL_NONE;
    }
    bool bytes = s[0] == 'b';
    uint32_t nd = n - 1;
    if (nd > (bytes ? 4u : 2u)) {
        return IR_SEL_NONE;
    }
    uint16_t v = 0;
    for (uint32_t i = 0; i < nd; i++) {
        int dgt = s[1 + i] - '0';
        if (dgt < 0 || dgt > (bytes ? 7 : 3)) {
            return IR_SEL_NONE;
        }
        v |= (uint16_t)(dgt << (i * (bytes ? 3 : 2)));
    }
    return (uint16_t)((bytes ? IR_SEL_BYTES : IR_SEL_HALVES) |
                      ((nd - 1) << 12) | v);
}

void pb_name_opnd(PtxParse *ps, PtxStr name, PtxLoc loc, IrOperand *o,
                  bool fwd_label)
{
    o->loc = loc;
    o->id = -1;
    if (name.len == 1 && name.s[0] == '_') {
        o->kind = IR_O_SINK;
        return;
    }
    const char *dot = memchr(name.s, '.', name.len);
    uint32_t blen = dot ? (uint32_t)(dot - name.s) : name.len;
    if (dot) {
        uint32_t clen = name.len - blen - 1;
        o->sel = component(dot + 1, clen);
        if (!o->sel || memchr(dot + 1, '.', clen)) {
            ptx_error(ps->diag, loc, "invalid component '%.*s' on '%.*s'",
                      (int)(name.len - blen), dot, (int)blen, name.s);
            o->kind = IR_O_NONE;
            return;
        }
    }
    uint32_t idx = 0;
    PtxBinding *b = find_name(ps, name.s, blen, &idx);
    if (b) {
        switch (b->kind) {
        case BIND_REG:
        case BIND_REGRANGE:
            o->kind = IR_O_REG;
            o->id = (int32_t)idx;
            return;
        case BIND_VAR:
            o->kind = IR_O_SYM;
            o->u.sym = b->sym;
            break;
        case BIND_FUNC:
            o->kind = IR_O_FUNC;
            o->u.func = b->func;
            break;
        case BIND_LABEL:
            o->kind = IR_O_LABEL;
            o->id = (int32_t)b->index;
            /* A label of an enclosing block may still be shadowed by one
             * defined further down in this block: decide at its close. */
            if (fwd_label && b->depth < ptx_symtab_depth(ps->syms)) {
                PtxStr base = {name.s, blen};
                pb_label_ref(ps, &o->id, base, loc);
            }
            break;
        }
        if (o->sel) {
            ptx_error(ps->diag, loc, "component selector on '%.*s', which "
                      "is not a register", (int)blen, name.s);
        }
        return;
    }
    if (name.s[0] == '%') {
        int index = 0;
        PtxSreg sr = ptx_sreg_lookup(name.s, blen, &index);
        if (sr != PTX_SREG_NONE) {
            o->kind = IR_O_SREG;
            o->id = (int32_t)sr;
            o->imm = index;
            unsigned nc = ptx_sreg_ncomp(sr);
            if (nc == 3 && !o->sel) {
                ptx_error(ps->diag, loc, "'%.*s' needs a component (.x, .y "
                          "or .z)", (int)blen, name.s);
            } else if (nc != 3 && o->sel) {
                ptx_error(ps->diag, loc, "'%.*s' has no components",
                          (int)blen, name.s);
            } else if (nc == 3 && o->sel > IR_SEL_Z) {
                ptx_error(ps->diag, loc, "invalid component on '%.*s'",
                          (int)blen, name.s);
            }
            return;
        }
        ptx_error(ps->diag, loc, "'%.*s' is not declared", (int)blen,
                  name.s);
        o->kind = IR_O_NONE;
        return;
    }
    if (o->sel || !fwd_label) {
        ptx_error(ps->diag, loc, "'%.*s' is not declared", (int)blen,
                  name.s);
        o->kind = IR_O_NONE;
        return;
    }
    /* Perhaps a label defined further down: resolved at scope close. */
    o->kind = IR_O_LABEL;
    PtxStr base = {name.s, blen};
    pb_label_ref(ps, &o->id, base, loc);
}

static void conv(PtxParse *ps, const PtxExpr *e, IrOperand *o, bool call);

static void const_opnd(PtxParse *ps, const PtxExpr *e, IrOperand *o)
{
    /* Fast path: a plain literal needs no GMP. */
    if (e->kind == EX_INT && !(e->flags & NUM_OVERFLOW)) {
        o->kind = IR_O_IMM;
        o->imm = (int64_t)e->ival;
        return;
    }
    if (e->kind == EX_FLT) {
        o->kind = IR_O_FIMM;
        o->imm = (int64_t)e->ival;
        o->fsize = e->flags == 32 ? 32 : 64;
        return;
    }
    PtxConst c = ptx_fold(ps, e);
    switch (c.kind) {
    case CV_INT:
        o->kind = IR_O_IMM;
        o->imm = (int64_t)c.bits;
        break;
    case CV_FLT:
        o->kind = IR_O_FIMM;
        o->imm = (int64_t)c.bits;
        o->fsize = c.fsize;
        break;
    default:
        o->kind = IR_O_NONE;
        break;
    }
}

/* Split "name", "name + c", "name - c", "c + name" or "c" into a base name
 * and a constant offset.  Returns false (after reporting) on anything else. */
static bool split_base(PtxParse *ps, const PtxExpr *e, const PtxExpr **base,
                       int64_t *off)
{
    *base = NULL;
    *off = 0;
    if (e->kind == EX_PAREN && e->n == 1) {
        return split_base(ps, e->list, base, off);
    }
    if (e->kind == EX_NAME) {
        *base = e;
        return true;
    }
    if (ptx_expr_is_const(e)) {
        PtxConst c = ptx_fold(ps, e);
        if (c.kind != CV_INT) {
            if (c.kind == CV_FLT) {
                ptx_error(ps->diag, e->loc, "address offset must be an "
                          "integer");
            }
            return false;
        }
        *off = (int64_t)c.bits;
        return true;
    }
    if (e->kind == EX_BINARY && (e->op == '+' || e->op == '-')) {
        const PtxExpr *nb = NULL, *k = NULL;
        if (ptx_expr_is_const(e->b)) {
            nb = e->a;
            k = e->b;
        } else if (e->op == '+' && ptx_expr_is_const(e->a)) {
            nb = e->b;
            k = e->a;
        }
        if (nb) {
            int64_t inner = 0;
            if (!split_base(ps, nb, base, &inner)) {
                return false;
            }
            PtxConst c = ptx_fold(ps, k);
            if (c.kind != CV_INT) {
                if (c.kind == CV_FLT) {
                    ptx_error(ps->diag, k->loc, "address offset must be an "
                              "integer");
                }
                return false;
            }
            int64_t kv = (int64_t)c.bits;
            if (e->op == '-') {
                kv = (int64_t)(0 - (uint64_t)kv);
            }
            *off = (int64_t)((uint64_t)inner + (uint64_t)kv);
            return true;
        }
    }
    ptx_error(ps->diag, e->loc, "expected a register or symbol plus a "
              "constant offset");
    return false;
}

static void addr_opnd(PtxParse *ps, const PtxExpr *e, IrOperand *o)
{
    o->kind = IR_O_ADDR;
    o->id = -1;
    const PtxExpr *base;
    int64_t off;
    if (!split_base(ps, e->a, &base, &off)) {
        o->kind = IR_O_NONE;
        return;
    }
    o->imm = off;
    if (!base) {
        return;
    }
    IrOperand b;
    memset(&b, 0, sizeof(b));
    pb_name_opnd(ps, base->name, base->loc, &b, false);
    switch (b.kind) {
    case IR_O_REG:
        if (b.sel) {
            ptx_error(ps->diag, base->loc, "a vector component cannot be an "
                      "address base");
        }
        o->id = b.id;
        break;
    case IR_O_SYM:
        o->u.sym = b.u.sym;
        break;
    case IR_O_NONE:
        o->kind = IR_O_NONE;
        break;
    case IR_O_LABEL:
        ptx_error(ps->diag, base->loc, "'%.*s' is not a register or "
                  "variable", (int)base->name.len, base->name.s);
        o->kind = IR_O_NONE;
        break;
    default:
        ptx_error(ps->diag, base->loc, "'%.*s' cannot be used as an "
                  "address", (int)base->name.len, base->name.s);
        o->kind = IR_O_NONE;
        break;
    }
}

static IrOperand *conv_list(PtxParse *ps, const PtxExpr *head, uint32_t n,
                            bool call)
{
    IrOperand *v = ptx_arena_alloc(ps->arena, sizeof(*v) * (n ? n : 1));
    uint32_t i = 0;
    for (const PtxExpr *e = head; e && i < n; e = e->next, i++) {
        conv(ps, e, &v[i], call);
    }
    return v;
}

static void conv(PtxParse *ps, const PtxExpr *e, IrOperand *o, bool call)
{
    memset(o, 0, sizeof(*o));
    o->loc = e->loc;
    o->id = -1;
    switch (e->kind) {
    case EX_NAME:
        pb_name_opnd(ps, e->name, e->loc, o, true);
        return;
    case EX_ADDR:
        addr_opnd(ps, e, o);
        return;
    case EX_TUPLE:
        o->kind = IR_O_TUPLE;
        o->n = e->n;
        o->u.elems = conv_list(ps, e->list, e->n, false);
        return;
    case EX_VEC:
        o->kind = IR_O_VEC;
        o->n = e->n;
        o->u.elems = conv_list(ps, e->list, e->n, false);
        return;
    case EX_PAREN:
        if (call) {
            o->kind = IR_O_LIST;
            o->n = e->n;
            o->u.elems = conv_list(ps, e->list, e->n, false);
            return;
        }
        if (e->n == 1 && !ptx_expr_is_const(e)) {
            conv(ps, e->list, o, false);
            return;
        }
        break;
    case EX_UNARY:
        if ((e->op == '!' || e->op == '-') && e->a->kind == EX_NAME) {
            pb_name_opnd(ps, e->a->name, e->a->loc, o, true);
            o->loc = e->loc;
            if (o->kind == IR_O_REG) {
                o->neg = e->op == '!' ? IR_NEG_NOT : IR_NEG_MINUS;
                return;
            }
            if (o->kind == IR_O_NONE) {
                return;
            }
            if (e->op == '!') {
                ptx_error(ps->diag, e->loc, "'!' applies only to predicate "
                          "registers");
                o->kind = IR_O_NONE;
                return;
            }
            /* -sym: fall through to constant folding, which reports it */
        }
        break;
    case EX_BINARY:
        if (e->op == '|' && e->a->kind == EX_NAME && e->b->kind == EX_NAME) {
            IrOperand *v = ptx_arena_alloc(ps->arena, 2 * sizeof(*v));
            pb_name_opnd(ps, e->a->name, e->a->loc, &v[0], true);
            pb_name_opnd(ps, e->b->name, e->b->loc, &v[1], true);
            o->kind = IR_O_PAIR;
            o->n = 2;
            o->u.elems = v;
            return;
        }
        break;
    case EX_FCALL:
        ptx_error(ps->diag, e->loc, "'%.*s(...)' is only allowed in "
                  "initializers", (int)e->name.len, e->name.s);
        o->kind = IR_O_NONE;
        return;
    case EX_MASK:
        ptx_error(ps->diag, e->loc, "masked addresses are only allowed in "
                  "initializers");
        o->kind = IR_O_NONE;
        return;
    case EX_ASSIGN:
        ptx_error(ps->diag, e->loc, "'name = value' is only allowed in "
                  "texture and sampler initializers");
        o->kind = IR_O_NONE;
        return;
    default:
        break;
    }
    if (ptx_expr_is_const(e)) {
        const_opnd(ps, e, o);
        return;
    }
    /* symbol + offset as a value (mov.u64 %rd, sym+8) */
    const PtxExpr *base;
    int64_t off;
    if (!split_base(ps, e, &base, &off) || !base) {
        o->kind = IR_O_NONE;
        return;
    }
    pb_name_opnd(ps, base->name, base->loc, o, false);
    o->loc = e->loc;
    if (o->kind == IR_O_SYM) {
        o->imm = off;
    } else if (o->kind != IR_O_NONE) {
        ptx_error(ps->diag, e->loc, "only a variable's address can have an "
                  "offset");
        o->kind = IR_O_NONE;
    }
}

/* Split the mnemonic into opcode, types and modifiers. */
static bool decode_word(PtxParse *ps, PtxStr w, PtxLoc loc, IrInsn *in,
                        const PtxOpInfo **info_out)
{
    size_t used = 0;
    PtxOpcode op = ptx_opcode_lookup(w.s, w.len, &used);
    if (op == PTX_OP_INVALID) {
        const char *dot = memchr(w.s, '.', w.len);
        int n = dot ? (int)(dot - w.s) : (int)w.len;
        ptx_error(ps->diag, loc, "unknown instruction '%.*s'", n, w.s);
        return false;
    }
    const PtxOpInfo *info = ptx_opinfo(op);
    /* ptxas takes ".sync" anywhere among the suffixes (CUB writes
     * "vote.ballot.sync.b32"): it still names the OP.sync instruction. */
    const char *skip = NULL;
    for (const char *q = w.s + used; q && q < w.s + w.len;
         q = memchr(q + 1, '.', (size_t)(w.s + w.len - q - 1))) {
        size_t rest = (size_t)(w.s + w.len - q);
        if (rest >= 5 && memcmp(q, ".sync", 5) == 0 &&
            (rest == 5 || q[5] == '.')) {
            char nm[64];
            int k = snprintf(nm, sizeof(nm), "%s.sync", info->name);
            size_t all = 0;
            PtxOpcode sop = k > 0 && (size_t)k < sizeof(nm)
                ? ptx_opcode_lookup(nm, (size_t)k, &all) : PTX_OP_INVALID;
            if (sop != PTX_OP_INVALID && all == (size_t)k) {
                op = sop;
                info = ptx_opinfo(op);
                skip = q;
            }
            break;
        }
    }
    *info_out = info;
    in->op = (uint16_t)op;
    uint64_t used_groups = 0;
    const char *p = w.s + used, *end = w.s + w.len;
    bool ok = true;
    while (p < end) {
        /* p points at '.'; a suffix runs to the next '.' outside "::". */
        const char *s = ++p;
        while (p < end && *p != '.') {
            p++;
        }
        if (s - 1 == skip) {
            continue;
        }
        uint32_t n = (uint32_t)(p - s);
        PtxLoc sl = loc;
        sl.col += (uint32_t)(s - 1 - w.s);
        if (in->nsfx >= IR_MAX_SFX) {
            ptx_error(ps->diag, sl, "too many suffixes on '%s'", info->name);
            return false;
        }
        PtxType t = ptx_type_lookup(s, n);
        if (t != PTX_T_NONE) {
            if (in->ntypes >= IR_MAX_TYPES) {
                ptx_error(ps->diag, sl, "too many type suffixes on '%s'",
                          info->name);
                ok = false;
                continue;
            }
            in->types[in->ntypes++] = (uint8_t)t;
            in->sfx[in->nsfx++] = (uint16_t)(IR_SFX_TYPE | t);
            continue;
        }
        PtxMod m = ptx_mod_lookup(s, n, info->groups & ~used_groups);
        if (m == PTX_M_NONE) {
            m = ptx_mod_lookup(s, n, info->groups);
        }
        if (m == PTX_M_NONE) {
            ptx_error(ps->diag, sl, "unknown modifier '.%.*s' on '%s'",
                      (int)n, s, info->name);
            ok = false;
            continue;
        }
        PtxModGroup g = ptx_mod_group(m);
        if (!(info->groups & ((uint64_t)1 << g))) {
            ptx_error(ps->diag, sl, "modifier '.%.*s' is not allowed on "
                      "'%s'", (int)n, s, info->name);
            ok = false;
            continue;
        }
        if (used_groups & ((uint64_t)1 << g)) {
            PtxModGroup ov = ptx_modgroup_overflow(g);
            PtxMod m2 = ov < PTX_MG_COUNT
                ? ptx_mod_lookup(s, n, (uint64_t)1 << ov) : PTX_M_NONE;
            if (m2 == PTX_M_NONE || (used_groups & ((uint64_t)1 << ov))) {
                ptx_error(ps->diag, sl, "conflicting or repeated modifier "
                          "'.%.*s' on '%s'", (int)n, s, info->name);
                ok = false;
                continue;
            }
            m = m2;
            g = ov;
        }
        used_groups |= (uint64_t)1 << g;
        in->sfx[in->nsfx++] = (uint16_t)m;
    }
    return ok;
}

void pb_insn(PtxParse *ps, PtxExpr *guard, bool guard_neg, PtxStr word,
             PtxLoc loc, PtxExprList opnds)
{
    IrFunc *f = ps->func;
    if (!f || !ps->in_body) {
        ptx_error(ps->diag, loc, "instruction outside a function body");
        return;
    }
    IrInsn tmp;
    memset(&tmp, 0, sizeof(tmp));
    tmp.guard = -1;
    const PtxOpInfo *info = NULL;
    if (!decode_word(ps, word, loc, &tmp, &info)) {
        return;
    }
    if (guard) {
        IrOperand g;
        memset(&g, 0, sizeof(g));
        pb_name_opnd(ps, guard->name, guard->loc, &g, false);
        if (g.kind != IR_O_REG || g.sel ||
            f->regs[g.id].type != PTX_T_PRED) {
            if (g.kind != IR_O_NONE) {
                ptx_error(ps->diag, guard->loc, "guard '%.*s' is not a "
                          "predicate register", (int)guard->name.len,
                          guard->name.s);
            }
            return;
        }
        tmp.guard = g.id;
        tmp.guard_neg = guard_neg;
    }
    if (opnds.n > 255) {
        ptx_error(ps->diag, loc, "too many operands");
        return;
    }
    tmp.scope = ps->scope;
    tmp.loc = loc;
    tmp.src = ps->cur_src;
    tmp.nopnds = (uint8_t)opnds.n;
    bool call = (info->flags & OPF_CALL) != 0;
    IrInsn *in = PS_VEC_PUSH(f->insns, f->ninsns, ps->cap_insns);
    *in = tmp;
    /* Operands are converted after the push: forward label references
     * point into the operand array, which is stable arena memory. */
    in->opnds = opnds.n ? conv_list(ps, opnds.head, opnds.n, call) : NULL;
}
