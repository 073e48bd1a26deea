/*
 * emu/decode.c: IR -> EmuInsn, once per function at module load.
 *
 * Everything the hot loop needs is resolved here: register slots,
 * immediates as raw bits, symbol addresses folded into address offsets,
 * label targets and reconvergence PCs as instruction indices, and the
 * handler chosen by the family selectors (emu/ops.h).  See decode.h for
 * the operand conventions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/decode.h"
#include "emu/insninfo.h"
#include "emu/regest.h"
#include "emu/ops.h"
#include "emu/shlayout.h"
#include "ptx/opcode.h"

/* ------------------------------------------------------ symbol sizes */

uint64_t emu_sym_size(const IrSymbol *s)
{
    if (s->size) {
        return s->size;
    }
    unsigned bits = ptx_type_bits(s->type);
    uint64_t b = bits >= 8 ? bits / 8 : 1;
    return b * (s->vec ? s->vec : 1);
}

uint32_t emu_sym_align(const IrSymbol *s)
{
    if (s->align) {
        return s->align;
    }
    unsigned bits = ptx_type_bits(s->type);
    uint32_t b = bits >= 8 ? bits / 8 : 1;
    b *= s->vec ? s->vec : 1;
    if (b > 16) {
        b = 16;
    }
    return b ? b : 1;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return a ? (v + a - 1) / a * a : v;
}

/* ----------------------------------------------- module symbol lookup */

typedef struct SymEnt {
    const void *p;
    uint32_t idx;
} SymEnt;

typedef struct SymMap {
    SymEnt *e;
    uint32_t n;
} SymMap;

static int symcmp(const void *a, const void *b)
{
    const SymEnt *x = a, *y = b;
    return x->p < y->p ? -1 : x->p > y->p;
}

static SymMap *symmap_get(EmuModule *m)
{
    if (m->symmap) {
        return m->symmap;
    }
    SymMap *sm = calloc(1, sizeof(*sm));
    if (!sm) {
        return NULL;
    }
    uint32_t n = m->ir->nglobals + m->ir->nfuncs;
    sm->e = calloc(n ? n : 1, sizeof(*sm->e));
    if (!sm->e) {
        free(sm);
        return NULL;
    }
    for (uint32_t i = 0; i < m->ir->nglobals; i++) {
        sm->e[sm->n++] = (SymEnt){ m->ir->globals[i], i };
    }
    for (uint32_t i = 0; i < m->ir->nfuncs; i++) {
        sm->e[sm->n++] = (SymEnt){ m->ir->funcs[i], i };
    }
    qsort(sm->e, sm->n, sizeof(*sm->e), symcmp);
    m->symmap = sm;
    return sm;
}

static uint32_t symmap_find(EmuModule *m, const void *p)
{
    SymMap *sm = symmap_get(m);
    if (!sm) {
        return UINT32_MAX;
    }
    SymEnt key = { p, 0 };
    SymEnt *r = bsearch(&key, sm->e, sm->n, sizeof(*sm->e), symcmp);
    return r ? r->idx : UINT32_MAX;
}

void emu_symmap_free(EmuModule *m)
{
    SymMap *sm = m->symmap;
    if (sm) {
        free(sm->e);
        free(sm);
        m->symmap = NULL;
    }
}

uint32_t emu_func_index(const EmuModule *m, const IrFunc *f)
{
    for (uint32_t k = 0; k < m->ir->naliases; k++) {
        if (m->ir->aliases[k].alias == f) {
            f = m->ir->aliases[k].target;
            break;
        }
    }
    return symmap_find((EmuModule *)m, f);
}

uint32_t emu_global_index(const EmuModule *m, const IrSymbol *s)
{
    uint32_t g = symmap_find((EmuModule *)m, s);
    return g < m->ir->nglobals && m->ir->globals[g] == s ? g : UINT32_MAX;
}

/* --------------------------------------------------------- the state */

typedef struct Dec {
    EmuModule *m;
    const IrFunc *f;
    EmuFunc *ef;
    uint32_t *regslot;            /* per IrReg: first slot */
    uint32_t nslots;
    uint64_t *consts;             /* values of constant slots */
    uint32_t nconsts, capconsts;
    uint32_t *vslots;
    uint32_t nvslots, capvslots;
    bool oom;
} Dec;

static uint32_t new_const(Dec *d, uint64_t v)
{
    if (d->nconsts == d->capconsts) {
        uint32_t nc = d->capconsts ? d->capconsts * 2 : 16;
        uint64_t *p = realloc(d->consts, nc * sizeof(*p));
        if (!p) {
            d->oom = true;
            return EMU_NOREG;
        }
        d->consts = p;
        d->capconsts = nc;
    }
    d->consts[d->nconsts++] = v;
    return d->nslots++;
}

static uint32_t vslot_reserve(Dec *d, uint32_t n)
{
    if (d->nvslots + n > d->capvslots) {
        uint32_t nc = d->capvslots ? d->capvslots : 16;
        while (nc < d->nvslots + n) {
            nc *= 2;
        }
        uint32_t *p = realloc(d->vslots, nc * sizeof(*p));
        if (!p) {
            d->oom = true;
            return 0;
        }
        d->vslots = p;
        d->capvslots = nc;
    }
    uint32_t r = d->nvslots;
    d->nvslots += n;
    return r;
}

/* How a symbol is addressed. */
typedef enum SymKind { SK_NONE, SK_ABS, SK_FRAME } SymKind;

static SymKind sym_lookup(Dec *d, const IrSymbol *s, uint64_t *val,
                          PtxSpace *space)
{
    const IrFunc *f = d->f;
    EmuFunc *ef = d->ef;
    for (uint32_t i = 0; i < f->nparams; i++) {
        if (f->params[i] == s) {
            *val = ef->param_offset[i];
            *space = f->is_entry ? PTX_SPACE_PARAM : PTX_SPACE_LOCAL;
            return f->is_entry ? SK_ABS : SK_FRAME;
        }
    }
    for (uint32_t i = 0; i < f->nrets; i++) {
        if (f->rets[i] == s) {
            *val = ef->ret_offset[i];
            *space = PTX_SPACE_LOCAL;
            return SK_FRAME;
        }
    }
    for (uint32_t i = 0; i < f->nvars; i++) {
        if (f->vars[i] == s) {
            *val = ef->var_offset[i];
            switch (s->space) {
            case PTX_SPACE_LOCAL:
            case PTX_SPACE_PARAM:
                *space = PTX_SPACE_LOCAL;
                return SK_FRAME;
            default:
                *space = s->space;
                return SK_ABS;
            }
        }
    }
    uint32_t g = emu_global_index(d->m, s);
    if (g != UINT32_MAX) {
        *space = s->space;
        if (s->space == PTX_SPACE_SHARED ||
            s->space == PTX_SPACE_SHARED_CLUSTER) {
            /* a kernel's own code finds dynamic shared after its own
             * static shared (emu/shlayout.h) */
            *val = emu_is_dynamic_shared(s) ? ef->dyn_shared_offset
                                            : d->m->shared_offset[g];
        } else {
            *val = d->m->global_addr[g];
        }
        return SK_ABS;
    }
    return SK_NONE;
}

/* ------------------------------------------------------------ layout */

static bool layout(Dec *d)
{
    const IrFunc *f = d->f;
    EmuFunc *ef = d->ef;
    EmuModule *m = d->m;
    ef->var_offset = calloc(f->nvars + 1, sizeof(uint64_t));
    ef->param_offset = calloc(f->nparams + 1, sizeof(uint64_t));
    ef->param_size = calloc(f->nparams + 1, sizeof(uint64_t));
    ef->ret_offset = calloc(f->nrets + 1, sizeof(uint64_t));
    ef->ret_size = calloc(f->nrets + 1, sizeof(uint64_t));
    if (!ef->var_offset || !ef->param_offset || !ef->ret_offset ||
        !ef->param_size || !ef->ret_size) {
        return false;
    }
    ef->dyn_shared_offset = emu_shared_dyn_offset(m, ef->index);
    uint64_t local = 0;
    for (uint32_t i = 0; i < f->nvars; i++) {
        const IrSymbol *s = f->vars[i];
        uint64_t sz = emu_sym_size(s);
        uint32_t al = emu_sym_align(s);
        switch (s->space) {
        case PTX_SPACE_LOCAL:
        case PTX_SPACE_PARAM:
            local = align_up(local, al);
            ef->var_offset[i] = local;
            local += sz;
            break;
        case PTX_SPACE_SHARED:
        case PTX_SPACE_SHARED_CLUSTER:
            ef->var_offset[i] = emu_shared_var_offset(m, ef->index, i);
            break;
        case PTX_SPACE_GLOBAL:
        case PTX_SPACE_CONST: {
            uint64_t a = emu_mem_alloc(m->dev->mem, sz,
                                       s->space == PTX_SPACE_CONST
                                       ? EMU_ALLOC_CONST : EMU_ALLOC_GLOBAL,
                                       s->name);
            if (!a) {
                return false;
            }
            if (s->init) {
                emu_mem_write(m->dev->mem, a, s->init, s->size);
            }
            ef->var_offset[i] = a;
            break;
        }
        default:
            break;
        }
    }
    if (f->is_entry) {
        uint64_t pb = 0;
        for (uint32_t i = 0; i < f->nparams; i++) {
            const IrSymbol *s = f->params[i];
            pb = align_up(pb, emu_sym_align(s));
            ef->param_offset[i] = pb;
            ef->param_size[i] = emu_sym_size(s);
            pb += ef->param_size[i];
        }
        ef->param_bytes = pb;
    } else {
        for (uint32_t i = 0; i < f->nparams; i++) {
            const IrSymbol *s = f->params[i];
            local = align_up(local, emu_sym_align(s));
            ef->param_offset[i] = local;
            ef->param_size[i] = emu_sym_size(s);
            local += ef->param_size[i];
        }
    }
    for (uint32_t i = 0; i < f->nrets; i++) {
        const IrSymbol *s = f->rets[i];
        local = align_up(local, emu_sym_align(s));
        ef->ret_offset[i] = local;
        ef->ret_size[i] = emu_sym_size(s);
        local += ef->ret_size[i];
    }
    ef->local_bytes = align_up(local, 16);
    return true;
}

/* ---------------------------------------------------------- operands */

static uint64_t fimm_convert(const IrOperand *io, PtxType t, uint32_t *n)
{
    uint64_t bits = (uint64_t)io->imm;
    *n = io->fsize;
    double dv;
    float fv;
    if (io->fsize == 32) {
        uint32_t b32 = (uint32_t)bits;
        memcpy(&fv, &b32, 4);
        dv = fv;
    } else {
        memcpy(&dv, &bits, 8);
    }
    unsigned tb = ptx_type_bits(t);
    if (t == PTX_T_F64) {
        memcpy(&bits, &dv, 8);
        *n = 64;
    } else if (t == PTX_T_F32 ||
               (tb == 32 && ptx_type_kind(t) != PTX_TK_F &&
                ptx_type_kind(t) != PTX_TK_X)) {
        fv = (float)dv;
        uint32_t b32;
        memcpy(&b32, &fv, 4);
        bits = b32;
        *n = 32;
    } else if (tb == 64 && ptx_type_kind(t) != PTX_TK_F) {
        if (io->fsize == 32) {
            memcpy(&bits, &dv, 8);
            *n = 64;
        }
    }
    return bits;
}

/* Slot of a register operand (component of a vector register folded). */
static uint32_t reg_slot(Dec *d, const IrOperand *io, uint16_t *sel)
{
    const IrReg *r = &d->f->regs[io->id];
    uint32_t s = d->regslot[io->id];
    *sel = io->sel;
    if (r->vec > 1 && io->sel >= IR_SEL_X && io->sel <= IR_SEL_W) {
        s += io->sel - IR_SEL_X;
        *sel = 0;
    }
    return s;
}

/* One element of a vector or list as a slot. */
static uint32_t elem_slot(Dec *d, const IrOperand *io, PtxType ft)
{
    uint16_t sel;
    uint32_t n;
    switch (io->kind) {
    case IR_O_REG:
        return reg_slot(d, io, &sel);
    case IR_O_IMM:
        return new_const(d, (uint64_t)io->imm);
    case IR_O_FIMM:
        return new_const(d, fimm_convert(io, ft, &n));
    default:
        return EMU_NOREG;
    }
}

/* The type a float immediate in operand k is converted to: the type slot
 * the opcode table gives that operand (set.lt.u32.f64 d, a, 0d3FF0...
 * compares as .f64, types[1]; slct.f64.f32's c is .f32), types[0] when
 * the instruction has fewer types; cvt's sources are the second type. */
static PtxType opnd_type(const IrInsn *in, unsigned k)
{
    if (in->ntypes == 0) {
        return PTX_T_NONE;
    }
    const PtxOpInfo *oi = ptx_opinfo((PtxOpcode)in->op);
    unsigned slot = 0;
    if (in->op == PTX_OP_CVT) {
        slot = k >= 1;
    } else if (k < PTX_MAX_OPNDS && oi->opnd[k].tclass >= '0' &&
               oi->opnd[k].tclass <= '3') {
        slot = (unsigned)(oi->opnd[k].tclass - '0');
    }
    return (PtxType)(slot < in->ntypes ? in->types[slot] : in->types[0]);
}

/* [h, {c...}] (tex, suld, sust...): an EO_VEC of the flattened
 * elements, pad = index of the first coordinate.  A .texref/.surfref
 * symbol as h is EMU_NOREG; ops_tex.c finds its binding by name. */
static bool dec_tuple(Dec *d, const IrInsn *in, const IrOperand *io,
                      EmuOpnd *eo)
{
    PtxType ct = in->ntypes > 1 ? (PtxType)in->types[1] : PTX_T_S32;
    uint32_t n = 0;
    for (uint32_t e = 0; e < io->n; e++) {
        const IrOperand *el = &io->u.elems[e];
        n += el->kind == IR_O_VEC ? el->n : 1;
    }
    eo->kind = EO_VEC;
    eo->n = n;
    eo->pad = io->n ? io->n - 1 : 0;
    eo->reg = vslot_reserve(d, n);
    if (d->oom) {
        return false;
    }
    uint32_t at = eo->reg;
    for (uint32_t e = 0; e < io->n; e++) {
        const IrOperand *el = &io->u.elems[e];
        if (el->kind != IR_O_VEC) {
            d->vslots[at++] = elem_slot(d, el, ct);
            continue;
        }
        for (uint32_t c = 0; c < el->n; c++) {
            d->vslots[at++] = elem_slot(d, &el->u.elems[c], ct);
        }
    }
    return !d->oom;
}

/* How many bits of an address operand's sum register + offset are kept
 * (EmuOpnd.pad = 64 - that).  PTX ISA 9.0 section 6.4.1 ("Addresses as
 * Operands"): "Addresses are zero-extended to the specified width as
 * needed, and truncated if the register width exceeds the state space
 * address width for the target architecture."  So a 32-bit register
 * plus an offset wraps at 32 bits (nvcc relies on it: a negative 32-bit
 * shared offset plus a displacement), and an address in a state space
 * of 32-bit addresses (.shared::cta, .shared::cluster, .local, .param)
 * keeps 32 bits even from a 64-bit register.  The space rule applies
 * when the instruction has a single address operand, whose space is then
 * the instruction's (cp.async and the bulk copies pair a global address
 * with a shared one). */
static unsigned addr_bits(const Dec *d, const IrInsn *in,
                          const IrOperand *io, PtxSpace space)
{
    if (io->id >= 0 && ptx_type_bits(d->f->regs[io->id].type) == 32) {
        return 32;
    }
    unsigned naddr = 0;
    for (unsigned k = 0; k < in->nopnds; k++) {
        naddr += in->opnds[k].kind == IR_O_ADDR;
    }
    bool narrow = space == PTX_SPACE_SHARED ||
        space == PTX_SPACE_SHARED_CLUSTER || space == PTX_SPACE_LOCAL ||
        space == PTX_SPACE_PARAM;
    return naddr == 1 && narrow ? 32 : 64;
}

static bool dec_opnd(Dec *d, const IrInsn *in, unsigned k, EmuOpnd *eo,
                     EmuInsn *ei)
{
    const IrOperand *io = &in->opnds[k];
    memset(eo, 0, sizeof(*eo));
    eo->neg = io->neg;
    eo->sel = io->sel;
    PtxType ft = opnd_type(in, k);
    uint64_t val;
    PtxSpace sp;
    switch (io->kind) {
    case IR_O_NONE:
        eo->kind = EO_NONE;
        return true;
    case IR_O_REG:
        eo->kind = EO_REG;
        eo->reg = reg_slot(d, io, &eo->sel);
        eo->n = d->f->regs[io->id].vec;
        return true;
    case IR_O_SREG:
        eo->kind = EO_SREG;
        eo->imm = (uint64_t)(uint32_t)io->id | ((uint64_t)io->imm << 16);
        return true;
    case IR_O_IMM:
        eo->kind = EO_IMM;
        eo->imm = (uint64_t)io->imm;
        return true;
    case IR_O_FIMM:
        eo->kind = EO_IMM;
        eo->imm = fimm_convert(io, ft, &eo->n);
        return true;
    case IR_O_SYM: {
        SymKind sk = sym_lookup(d, io->u.sym, &val, &sp);
        if (sk == SK_FRAME) {
            eo->kind = EO_SREG;
            eo->imm = EMU_SREG_FRAME_ADDR;
            eo->reg = (uint32_t)(val + (uint64_t)io->imm);
        } else {
            /* SK_NONE: opaque (texref...) symbols get 0 */
            eo->kind = EO_IMM;
            eo->imm = (sk == SK_ABS ? val : 0) + (uint64_t)io->imm;
        }
        return true;
    }
    case IR_O_FUNC: {
        uint32_t fi = emu_func_index(d->m, io->u.func);
        eo->kind = EO_FUNC;
        eo->imm = fi;
        return fi != UINT32_MAX;
    }
    case IR_O_LABEL: {
        const IrLabel *lb = &d->f->labels[io->id];
        eo->kind = EO_LABEL;
        eo->imm = lb->insn;
        if (lb->kind == IR_LABEL_BRANCHTARGETS) {
            eo->n = lb->ntargets;
            eo->reg = vslot_reserve(d, lb->ntargets);
            if (d->oom) {
                return false;
            }
            for (uint32_t t = 0; t < lb->ntargets; t++) {
                d->vslots[eo->reg + t] =
                    d->f->labels[lb->targets[t]].insn;
            }
        }
        return true;
    }
    case IR_O_ADDR: {
        eo->kind = EO_ADDR;
        eo->imm = (uint64_t)io->imm;
        eo->reg = EMU_NOREG;
        eo->sel = 0;
        eo->pad = 64 - addr_bits(d, in, io, (PtxSpace)ei->space);
        if (io->id >= 0) {
            uint16_t sel;
            eo->reg = reg_slot(d, &(IrOperand){ .kind = IR_O_REG,
                                                .id = io->id }, &sel);
        }
        if (io->u.sym) {
            SymKind sk = sym_lookup(d, io->u.sym, &val, &sp);
            if (sk == SK_NONE) {
                /* [texref] of txq/suq: ops_tex.c finds the binding */
                return io->u.sym->kind == IR_SYM_TEXREF
                       || io->u.sym->kind == IR_SYM_SURFREF;
            }
            eo->imm += val;
            if (sk == SK_FRAME) {
                eo->sel = EMU_ADDR_FRAME;
                if (ei->space == PTX_SPACE_PARAM ||
                    ei->space == PTX_SPACE_LOCAL) {
                    ei->space = PTX_SPACE_LOCAL;
                }
            }
        } else if (ei->space == PTX_SPACE_PARAM && !d->f->is_entry &&
                   eo->reg != EMU_NOREG) {
            /* a .func reads its own params through a register holding a
             * frame address (mov %rd, param) */
            ei->space = PTX_SPACE_LOCAL;
        }
        return true;
    }
    case IR_O_VEC:
    case IR_O_LIST: {
        eo->kind = io->kind == IR_O_VEC ? EO_VEC : EO_LIST;
        eo->n = io->n;
        eo->reg = vslot_reserve(d, io->n);
        if (d->oom) {
            return false;
        }
        for (uint32_t e = 0; e < io->n; e++) {
            const IrOperand *el = &io->u.elems[e];
            uint32_t v;
            if (io->kind == IR_O_LIST) {
                if (el->kind == IR_O_SYM) {
                    if (sym_lookup(d, el->u.sym, &val, &sp) != SK_FRAME) {
                        return false;
                    }
                    v = (uint32_t)(val + (uint64_t)el->imm);
                } else {
                    v = elem_slot(d, el, ft);
                    if (v == EMU_NOREG) {
                        return false;
                    }
                    v |= EMU_LIST_REG;
                }
            } else {
                v = elem_slot(d, el, ft);
            }
            d->vslots[eo->reg + e] = v;
        }
        return !d->oom;
    }
    case IR_O_PAIR: {
        uint16_t sel;
        eo->kind = EO_PAIR;
        const IrOperand *a = &io->u.elems[0], *b = &io->u.elems[1];
        eo->reg = a->kind == IR_O_REG ? reg_slot(d, a, &sel) : EMU_NOREG;
        eo->imm = b->kind == IR_O_REG ? reg_slot(d, b, &sel) : EMU_NOREG;
        return true;
    }
    case IR_O_SINK:
        eo->kind = EO_SINK;
        eo->reg = EMU_NOREG;
        return true;
    case IR_O_TUPLE:
        return dec_tuple(d, in, io, eo);
    default:
        eo->kind = EO_NONE;
        return true;
    }
}

/* ------------------------------------------------------ instructions */

PtxSpace emu_space_of_mod(PtxMod mv)
{
    switch (mv) {
    case PTX_M_CONST: return PTX_SPACE_CONST;
    case PTX_M_GLOBAL: return PTX_SPACE_GLOBAL;
    case PTX_M_LOCAL: return PTX_SPACE_LOCAL;
    case PTX_M_PARAM:
    case PTX_M_PARAM_ENTRY:
    case PTX_M_PARAM_FUNC: return PTX_SPACE_PARAM;
    case PTX_M_SHARED:
    case PTX_M_SHARED_CTA: return PTX_SPACE_SHARED;
    case PTX_M_SHARED_CLUSTER: return PTX_SPACE_SHARED_CLUSTER;
    default: return PTX_SPACE_NONE;
    }
}

static void insn_name(const IrInsn *in, char *buf, size_t len)
{
    size_t o = (size_t)snprintf(buf, len, "%s",
                                ptx_opinfo((PtxOpcode)in->op)->name);
    for (unsigned k = 0; k < in->nsfx && o < len; k++) {
        unsigned v = in->sfx[k];
        const char *s = (v & IR_SFX_TYPE)
            ? ptx_type_name((PtxType)(v & ~IR_SFX_TYPE))
            : ptx_mod_name((PtxMod)v);
        o += (size_t)snprintf(buf + o, len - o, ".%s", s);
    }
}

static char *located(const EmuModule *m, const IrInsn *in, const char *what)
{
    char name[128];
    insn_name(in, name, sizeof(name));
    const char *file = m->ir->filename ? m->ir->filename : "<ptx>";
    size_t n = strlen(file) + strlen(name) + strlen(what) + 96;
    char *s = malloc(n);
    if (s) {
        snprintf(s, n, "%s:%u:%u: error: instruction '%s' %s", file,
                 in->loc.line, in->loc.col, name, what);
    }
    return s;
}

/* The callee of a direct call to a function without a body, or NULL. */
static const IrFunc *extern_callee(const EmuModule *m, const IrInsn *in)
{
    if (in->op != PTX_OP_CALL) {
        return NULL;
    }
    for (unsigned k = 0; k < in->nopnds; k++) {
        if (in->opnds[k].kind == IR_O_FUNC) {
            const IrFunc *cf = in->opnds[k].u.func;
            for (uint32_t a = 0; a < m->ir->naliases; a++) {
                if (m->ir->aliases[a].alias == cf) {
                    cf = m->ir->aliases[a].target;
                }
            }
            return cf && (cf->is_decl || cf->ninsns == 0) ? cf : NULL;
        }
    }
    return NULL;
}

static bool decode_insn(Dec *d, uint32_t pc, EmuInsn *ei)
{
    const IrInsn *in = &d->f->insns[pc];
    const PtxOpInfo *oi = ptx_opinfo((PtxOpcode)in->op);
    memset(ei, 0, sizeof(*ei));
    ei->op = in->op;
    ei->ir = in;
    ei->type = in->ntypes ? in->types[0] : PTX_T_NONE;
    ei->type2 = in->ntypes > 1 ? in->types[1] : PTX_T_NONE;
    ei->vec = 1;
    ei->guard = in->guard >= 0 ? d->regslot[in->guard] : EMU_NOREG;
    ei->guard_neg = in->guard_neg;
    ei->target = EMU_NOPC;
    ei->reconv = d->f->reconv ? d->f->reconv[pc] : EMU_NOPC;
    if (oi->flags & (OPF_LOAD | OPF_STORE | OPF_ATOMIC)) {
        ei->space = PTX_SPACE_GENERIC;
    }
    for (unsigned k = 0; k < in->nsfx; k++) {
        unsigned v = in->sfx[k];
        if (v & IR_SFX_TYPE) {
            continue;
        }
        PtxMod mv = (PtxMod)v;
        switch (ptx_mod_group(mv)) {
        case PTX_MG_ROUND:
            ei->rnd = (uint8_t)(EMU_RND_RN + (mv - PTX_M_RN));
            break;
        case PTX_MG_FTZ: ei->flags |= EMU_F_FTZ; break;
        case PTX_MG_SAT: ei->flags |= EMU_F_SAT; break;
        case PTX_MG_PREC:
            if (mv == PTX_M_APPROX) {
                ei->flags |= EMU_F_APPROX;
            }
            break;
        case PTX_MG_CC: ei->flags |= EMU_F_CC; break;
        case PTX_MG_MULMODE:
            if (mv == PTX_M_HI) {
                ei->flags |= EMU_F_HI;
            } else if (mv == PTX_M_WIDE) {
                ei->flags |= EMU_F_WIDE;
            }
            break;
        case PTX_MG_RELU: ei->flags |= EMU_F_RELU; break;
        case PTX_MG_NAN: ei->flags |= EMU_F_NAN; break;
        case PTX_MG_UNI: ei->flags |= EMU_F_UNI; break;
        case PTX_MG_SYNC: ei->flags |= EMU_F_SYNC; break;
        case PTX_MG_ALIGNED: ei->flags |= EMU_F_ALIGNED; break;
        case PTX_MG_SPACE: ei->space = (uint8_t)emu_space_of_mod(mv); break;
        case PTX_MG_VEC:
            ei->vec = mv == PTX_M_V2 ? 2 : mv == PTX_M_V4 ? 4 : 8;
            break;
        default:
            break;
        }
    }
    /* wgmma.mma_async{.sp} has up to 10 operands, those past the sixth
     * immediates that its selector (ops_wgmma.c) reads from the IR */
    unsigned nop = in->nopnds;
    if (nop > EMU_MAX_OPNDS) {
        if (in->op != PTX_OP_WGMMA_MMA_ASYNC &&
            in->op != PTX_OP_WGMMA_MMA_ASYNC_SP) {
            return false;
        }
        nop = EMU_MAX_OPNDS;
    }
    ei->nopnd = (uint8_t)nop;
    for (unsigned k = 0; k < nop; k++) {
        if (!dec_opnd(d, in, k, &ei->o[k], ei)) {
            return false;
        }
        if (ei->o[k].kind == EO_LABEL && ei->target == EMU_NOPC &&
            d->f->labels[in->opnds[k].id].kind == IR_LABEL_CODE) {
            ei->target = (uint32_t)ei->o[k].imm;
        }
    }
    if (in->op == PTX_OP_CALL) {
        d->ef->has_calls = true;
    }
    if (in->op == PTX_OP_ALLOCA) {
        d->ef->has_alloca = true;
    }
    const IrModule *im = d->m->ir;
    if (emu_select_ctrl(im, d->f, in, ei) || emu_select_mem(im, d->f, in, ei)
        || emu_select_int(im, d->f, in, ei) || emu_select_fp(im, d->f, in, ei)
        || emu_select_cvt(im, d->f, in, ei)
        || emu_select_warp(im, d->f, in, ei)
        || emu_select_mma(im, d->f, in, ei)
        || emu_select_cluster(im, d->f, in, ei)
        || emu_select_mbarrier(im, d->f, in, ei)
        || emu_select_bulk(im, d->f, in, ei)
        || emu_select_tex(im, d->f, in, ei)
        || emu_select_wgmma(im, d->f, in, ei)) {
        if (ei->fn && in->op == PTX_OP_BRA && ei->target <= pc) {
            /* a loop back edge: YIELD under ITS, and in both modes the
             * spin detector that the watchdog consults (emu/its.h) */
            ei->fn = emu_op_bra_yield;
        }
        if (ei->fn && in->op == PTX_OP_BAR_WARP_SYNC && ei->nopnd >= 1 &&
            d->m->reconv == EMU_RECONV_ITS) {
            ei->fn = emu_op_warpsync_its;
        }
        return ei->fn != NULL;
    }
    return false;
}

void emu_func_free(EmuFunc *ef)
{
    if (!ef) {
        return;
    }
    emu_insninfo_free(ef);
    free(ef->code);
    free(ef->consts);
    free(ef->vslots);
    free(ef->var_offset);
    free(ef->param_offset);
    free(ef->param_size);
    free(ef->ret_offset);
    free(ef->ret_size);
    free(ef->call_across);
    free(ef);
}
/* Registers per thread for occupancy (emu/regest.h): each slot weighs
 * its register's width in 32-bit units, predicates nothing. */
static bool estimate_regs(EmuFunc *ef, const uint32_t *regslot)
{
    const IrFunc *f = ef->ir;
    uint8_t *w = calloc(ef->nregslots + 1, 1);
    if (!w) {
        return false;
    }
    for (uint32_t r = 0; r < f->nregs; r++) {
        PtxType t = f->regs[r].type;
        uint32_t n = (f->regs[r].vec > 1 ? f->regs[r].vec : 1) *
                     (t == PTX_T_B128 ? 2 : 1);
        unsigned bits = t == PTX_T_B128 ? 64 : ptx_type_bits(t);
        uint8_t u = t == PTX_T_PRED ? 0 : bits > 32 ? 2 : 1;
        for (uint32_t k = 0; k < n && regslot[r] + k < ef->nregslots; k++) {
            w[regslot[r] + k] = u;
        }
    }
    if (ef->has_calls) {
        ef->call_across = calloc(ef->ncode ? ef->ncode : 1,
                                 sizeof(*ef->call_across));
        if (!ef->call_across) {
            free(w);
            return false;
        }
    }
    ef->reg_pressure = emu_regest_pressure(ef, w, ef->call_across);
    ef->regs = emu_regest_regs(ef->reg_pressure, f);
    free(w);
    return true;
}


EmuFunc *emu_decode_func(EmuModule *m, const IrFunc *f, EmuStatus *st,
                         char **msg)
{
    Dec d = { .m = m, .f = f };
    EmuFunc *ef = calloc(1, sizeof(*ef));
    *st = EMU_ERR_OUT_OF_MEMORY;
    if (msg) {
        *msg = NULL;
    }
    if (!ef) {
        return NULL;
    }
    d.ef = ef;
    ef->ir = f;
    ef->mod = m;
    ef->index = emu_func_index(m, f);
    d.regslot = calloc(f->nregs + 1, sizeof(uint32_t));
    if (!d.regslot || !layout(&d)) {
        goto oom;
    }
    for (uint32_t r = 0; r < f->nregs; r++) {
        /* a .b128 register takes two slots: low and high 64 bits */
        uint32_t w = f->regs[r].type == PTX_T_B128 ? 2 : 1;
        d.regslot[r] = d.nslots;
        d.nslots += (f->regs[r].vec > 1 ? f->regs[r].vec : 1) * w;
    }
    ef->nregslots = d.nslots;
    ef->ncode = f->ninsns;
    ef->code = calloc(f->ninsns + 1, sizeof(EmuInsn));
    if (!ef->code) {
        goto oom;
    }
    for (uint32_t pc = 0; pc < f->ninsns; pc++) {
        if (!decode_insn(&d, pc, &ef->code[pc])) {
            if (d.oom) {
                goto oom;
            }
            *st = EMU_ERR_UNSUPPORTED;
            if (msg) {
                const IrFunc *ext = extern_callee(m, &f->insns[pc]);
                char what[256];
                if (ext) {
                    snprintf(what, sizeof(what), "calls '%s', an external "
                             "function without a body: not supported by "
                             "the emulator (its device library has vprintf, "
                             "malloc, free, __nv_aligned_device_malloc, "
                             "__assertfail and the device runtime's "
                             "launches, streams, events and errors)",
                             ext->name);
                }
                *msg = located(m, &f->insns[pc], ext ? what
                               : "is not supported by the emulator yet");
            }
            goto fail;
        }
    }
    ef->nslots = d.nslots;
    ef->consts = calloc(d.nslots + 1, sizeof(uint64_t));
    if (!ef->consts) {
        goto oom;
    }
    for (uint32_t k = 0; k < d.nconsts; k++) {
        ef->consts[ef->nregslots + k] = d.consts[k];
    }
    ef->vslots = d.vslots;
    ef->nvslots = d.nvslots;
    d.vslots = NULL;
    if (!emu_insninfo_build(ef, d.regslot)) {
        goto oom;
    }
    if (!estimate_regs(ef, d.regslot)) {
        goto oom;
    }
    free(d.consts);
    free(d.regslot);
    *st = EMU_OK;
    return ef;
oom:
    if (msg && !*msg) {
        *msg = strdup("out of memory while decoding");
    }
fail:
    free(d.consts);
    free(d.vslots);
    free(d.regslot);
    emu_func_free(ef);
    return NULL;
}
