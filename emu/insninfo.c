/*
 * emu/insninfo.c: the static info of decoded instructions (insninfo.h),
 * from the per-opcode table emu/insninfo.def, the opcode table's shapes
 * and flags (ptx/opcodes.def) and the decoded operands.
 */
#include <stdlib.h>
#include <string.h>

#include "emu/decode.h"
#include "emu/insninfo.h"
#include "ptx/opcode.h"

/* IX_* flags of insninfo.def */
enum {
    IX_ASYNC = 1u << 0,
    IX_CC_IN = 1u << 1,
    IX_BAR_RED = 1u << 2,
    IX_CALL = 1u << 3,
    IX_SP_IN = 1u << 4,
    IX_SP_OUT = 1u << 5,
};

/* The UNIT column: an EmuUnit + 1 (0: no row), or a refinement rule. */
enum {
    II_U_INT = EMU_UNIT_INT + 1, II_U_FP16, II_U_FP32, II_U_FP64,
    II_U_SFU, II_U_TENSOR, II_U_LDST, II_U_TEX, II_U_CTRL, II_U_SYNC,
    II_U_ASYNC, II_U_MISC, II_U_WARP,
    II_U_BY_TYPE, II_U_BY_TYPE1, II_U_BY_PREC, II_U_BY_CVT
};
_Static_assert(II_U_WARP == EMU_UNIT_WARP + 1, "II_U_* follow EmuUnit");

typedef struct IiRow {
    uint8_t unit;                /* II_U_* */
    uint8_t wait;                /* EmuWait */
    uint8_t flags;               /* IX_* */
    const char *roles;
} IiRow;

static const IiRow ii_rows[PTX_OP_COUNT] = {
#define II(id, unit, wait, flags, roles)                                  \
    [PTX_OP_##id] = { II_U_##unit, EMU_WAIT_##wait, flags, roles },
#include "emu/insninfo.def"
#undef II
};

/* One II row per opcodes.def row (designated initialisers catch
 * duplicates through -Woverride-init; this catches a missing row). */
_Static_assert(0
#define II(id, unit, wait, flags, roles) + 1
#include "emu/insninfo.def"
#undef II
               == PTX_OP_COUNT - 1, "emu/insninfo.def: one row per opcode");

/* ptx/modifiers.def lists SPACE2 in the order of SPACE */
_Static_assert(PTX_M_SHARED_CLUSTER2 - PTX_M_SHARED_CLUSTER
               == PTX_M_CONST2 - PTX_M_CONST, "SPACE2 parallels SPACE");

static const char *const unit_names[EMU_UNIT_COUNT] = {
    [EMU_UNIT_INT] = "int",
    [EMU_UNIT_FP16] = "fp16", [EMU_UNIT_FP32] = "fp32",
    [EMU_UNIT_FP64] = "fp64", [EMU_UNIT_SFU] = "sfu",
    [EMU_UNIT_TENSOR] = "tensor", [EMU_UNIT_LDST] = "ldst",
    [EMU_UNIT_TEX] = "tex",
    [EMU_UNIT_CTRL] = "ctrl", [EMU_UNIT_SYNC] = "sync",
    [EMU_UNIT_ASYNC] = "async", [EMU_UNIT_MISC] = "misc",
    [EMU_UNIT_WARP] = "warp",
};

static const char *const wait_names[EMU_WAIT_COUNT] = {
    [EMU_WAIT_NONE] = "none", [EMU_WAIT_BAR_CTA] = "bar.cta",
    [EMU_WAIT_BAR_CLUSTER] = "bar.cluster",
    [EMU_WAIT_BAR_WARP] = "bar.warp", [EMU_WAIT_CP_ASYNC] = "cp.async",
    [EMU_WAIT_BULK_GROUP] = "bulk.group",
    [EMU_WAIT_MBARRIER] = "mbarrier", [EMU_WAIT_WGMMA] = "wgmma",
    [EMU_WAIT_TCGEN05] = "tcgen05", [EMU_WAIT_FENCE] = "fence",
    [EMU_WAIT_GRID] = "grid", [EMU_WAIT_SLEEP] = "sleep",
};

const char *emu_unit_name(EmuUnit u)
{
    return (unsigned)u < EMU_UNIT_COUNT ? unit_names[u] : "?";
}

const char *emu_wait_name(EmuWait w)
{
    return (unsigned)w < EMU_WAIT_COUNT ? wait_names[w] : "?";
}

bool emu_opcode_has_roles(PtxOpcode op)
{
    return (unsigned)op < PTX_OP_COUNT && ii_rows[op].roles != NULL;
}

/* ------------------------------------------------------- unit class */

static EmuUnit unit_of_type(PtxType t)
{
    switch (t) {
    case PTX_T_F16: case PTX_T_F16X2: case PTX_T_BF16: case PTX_T_BF16X2:
        return EMU_UNIT_FP16;
    case PTX_T_F32: case PTX_T_F32X2: case PTX_T_TF32:
        return EMU_UNIT_FP32;
    case PTX_T_F64:
        return EMU_UNIT_FP64;
    default:
        return ptx_type_kind(t) == PTX_TK_F || ptx_type_kind(t) == PTX_TK_X
               ? EMU_UNIT_FP32 : EMU_UNIT_INT;
    }
}

static bool is_int_type(PtxType t)
{
    PtxTypeKind k = ptx_type_kind(t);
    return k == PTX_TK_B || k == PTX_TK_U || k == PTX_TK_S ||
           k == PTX_TK_P;
}

static EmuUnit unit_of(const IiRow *row, const IrInsn *in)
{
    PtxType t0 = in->ntypes ? (PtxType)in->types[0] : PTX_T_NONE;
    PtxType t1 = in->ntypes > 1 ? (PtxType)in->types[1] : t0;
    switch (row->unit) {
    case II_U_BY_TYPE:
        return unit_of_type(t0);
    case II_U_BY_TYPE1:
        return unit_of_type(t1);
    case II_U_BY_PREC: {
        PtxMod p = ir_insn_mod(in, PTX_MG_PREC);
        return p == PTX_M_APPROX || p == PTX_M_FULL ? EMU_UNIT_SFU
                                                    : unit_of_type(t0);
    }
    case II_U_BY_CVT:
        if (is_int_type(t0) && is_int_type(t1)) {
            return EMU_UNIT_INT;
        }
        return t0 == PTX_T_F64 || t1 == PTX_T_F64 ? EMU_UNIT_FP64
                                                  : EMU_UNIT_SFU;
    case 0:
        return EMU_UNIT_COUNT;
    default:
        return (EmuUnit)(row->unit - 1);
    }
}

EmuUnit emu_insn_unit(const IrInsn *in)
{
    return in->op < PTX_OP_COUNT ? unit_of(&ii_rows[in->op], in)
                                 : EMU_UNIT_COUNT;
}

/* ---------------------------------------------------- slot collection */

/* A growing pool of slot lists; an instruction's lists are offsets
 * into it until the pool stops moving. */
typedef struct Pool {
    uint32_t *v;
    uint32_t n, cap;
    bool oom;
} Pool;

typedef struct List {
    uint32_t start, n;
} List;

typedef struct Ctx {
    const EmuFunc *f;
    const uint32_t *regslot;
    Pool *pool;
    List src, dst;
    uint32_t *tmp;               /* this instruction's dst until done */
    uint32_t ntmp, captmp;
} Ctx;

static bool has(const uint32_t *v, uint32_t n, uint32_t s)
{
    for (uint32_t k = 0; v && k < n; k++) {
        if (v[k] == s) {
            return true;
        }
    }
    return false;
}

static void push(Pool *p, uint32_t **v, uint32_t *n, uint32_t *cap,
                 uint32_t s)
{
    if (*n == *cap) {
        uint32_t nc = *cap ? *cap * 2 : 64;
        uint32_t *q = realloc(*v, nc * sizeof(*q));
        if (!q) {
            p->oom = true;
            return;
        }
        *v = q;
        *cap = nc;
    }
    (*v)[(*n)++] = s;
}

/* Sources go straight to the pool (they are collected first, then the
 * destinations from tmp). */
static void add_src(Ctx *c, uint32_t s)
{
    if (s == EMU_NOREG || (s >= c->f->nregslots && s < c->f->nslots) ||
        has(c->pool->v + c->src.start, c->src.n, s)) {
        return;
    }
    push(c->pool, &c->pool->v, &c->pool->n, &c->pool->cap, s);
    c->src.n += !c->pool->oom;
}

static void add_dst(Ctx *c, uint32_t s)
{
    if (s == EMU_NOREG || (s >= c->f->nregslots && s < c->f->nslots) ||
        has(c->tmp, c->ntmp, s)) {
        return;
    }
    push(c->pool, &c->tmp, &c->ntmp, &c->captmp, s);
}

static void add(Ctx *c, char role, uint32_t s)
{
    if (role == 's' || role == 'b') {
        add_src(c, s);
    }
    if (role == 'd' || role == 'b') {
        add_dst(c, s);
    }
}

/* Slots of a register operand: a .v register used whole takes all its
 * slots, a .b128 register two (decode.c). */
static void add_reg(Ctx *c, char role, const IrOperand *io, uint32_t slot)
{
    const IrReg *r = &c->f->ir->regs[io->id];
    uint32_t n = r->vec > 1 ? r->vec : 1;
    if (n > 1 && io->sel >= IR_SEL_X && io->sel <= IR_SEL_W) {
        n = 1;
    } else if (r->type == PTX_T_B128) {
        n *= 2;
    }
    for (uint32_t k = 0; k < n; k++) {
        add(c, role, slot + k);
    }
}

static char role_of(const IiRow *row, const PtxOpInfo *oi, unsigned k)
{
    if (row->roles) {
        return k < strlen(row->roles) ? row->roles[k] : 's';
    }
    char kind = k < PTX_MAX_OPNDS ? oi->opnd[k].kind : OK_SRC;
    return kind == OK_DST || kind == OK_PDST ? 'd' : 's';
}

/* One decoded operand k of instruction ei. */
static void add_opnd(Ctx *c, const EmuInsn *ei, unsigned k, char role,
                     int call_tgt)
{
    const EmuOpnd *o = &ei->o[k];
    const IrOperand *io = &ei->ir->opnds[k];
    const uint32_t *vs = c->f->vslots;
    switch (o->kind) {
    case EO_REG:
        add_reg(c, role, io, o->reg);
        break;
    case EO_VEC:
        for (uint32_t e = 0; e < o->n; e++) {
            add(c, role, vs[o->reg + e]);
        }
        break;
    case EO_PAIR:
        add(c, role, o->reg);
        add(c, role, (uint32_t)o->imm);
        break;
    case EO_ADDR:
        add_src(c, o->reg);
        break;
    case EO_LIST: {
        /* call: the list before the target is the returns, after it the
         * arguments (emu/exec.c call_layout) */
        char r = call_tgt >= 0 && (int)k < call_tgt ? 'd' : 's';
        bool param = false;
        for (uint32_t e = 0; e < o->n; e++) {
            uint32_t v = vs[o->reg + e];
            if (v & EMU_LIST_REG) {
                add(c, r, v & ~EMU_LIST_REG);
            } else {
                param = true;
            }
        }
        if (param) {
            add(c, r, EMU_SLOT_PARAM);
        }
        break;
    }
    default:
        break;          /* immediates, special registers, labels, sinks */
    }
}

/* A generic access to a named variable is in the variable's space;
 * texture and surface instructions address through their objects. */
static PtxSpace resolve_space(const EmuInsn *ei, uint32_t opf)
{
    PtxSpace sp = (PtxSpace)ei->space;
    if (sp != PTX_SPACE_GENERIC) {
        return sp;
    }
    if (opf & OPF_TEX) {
        return PTX_SPACE_TEX;
    }
    for (unsigned k = 0; k < ei->ir->nopnds; k++) {
        const IrOperand *io = &ei->ir->opnds[k];
        if (io->kind == IR_O_ADDR && io->id < 0 && io->u.sym) {
            PtxSpace vs = io->u.sym->space;
            return vs == PTX_SPACE_GLOBAL || vs == PTX_SPACE_CONST ||
                   vs == PTX_SPACE_SHARED || vs == PTX_SPACE_LOCAL ||
                   vs == PTX_SPACE_SHARED_CLUSTER ? vs : sp;
        }
    }
    return sp;
}

static void build_one(Ctx *c, const EmuInsn *ei, EmuInsnInfo *info)
{
    const IrInsn *in = ei->ir;
    const IiRow *row = &ii_rows[in->op];
    const PtxOpInfo *oi = ptx_opinfo((PtxOpcode)in->op);
    memset(info, 0, sizeof(*info));
    info->op = ei->op;
    info->type = ei->type;
    info->type2 = ei->type2;
    info->unit = (uint8_t)unit_of(row, in);
    info->wait = row->wait;
    info->async = (row->flags & IX_ASYNC) != 0;
    info->vec = ei->vec;
    info->opf = oi->flags;
    if (oi->flags & (OPF_LOAD | OPF_STORE | OPF_ATOMIC)) {
        info->space = (uint8_t)resolve_space(ei, oi->flags);
        PtxMod m2 = ir_insn_mod(in, PTX_MG_SPACE2);
        if (m2 != PTX_M_NONE) {
            info->space2 = (uint8_t)emu_space_of_mod(
                (PtxMod)(m2 - (PTX_M_CONST2 - PTX_M_CONST)));
        }
    }

    c->src = (List){ c->pool->n, 0 };
    c->ntmp = 0;
    add_src(c, ei->guard);
    int call_tgt = -1;
    if (row->flags & IX_CALL) {
        for (unsigned k = 0; k < ei->nopnd && call_tgt < 0; k++) {
            if (ei->o[k].kind != EO_LIST) {
                call_tgt = (int)k;
            }
        }
    }
    for (unsigned k = 0; k < ei->nopnd; k++) {
        add_opnd(c, ei, k, role_of(row, oi, k), call_tgt);
    }
    /* operands the EmuInsn does not keep (wgmma.mma_async past the
     * sixth: immediates by the PTX ISA, registers listed all the same) */
    for (unsigned k = ei->nopnd; k < in->nopnds; k++) {
        const IrOperand *io = &in->opnds[k];
        if (io->kind == IR_O_REG) {
            add_reg(c, role_of(row, oi, k), io, c->regslot[io->id]);
        }
    }
    if (ei->flags & EMU_F_CC) {
        add_dst(c, EMU_SLOT_CC);
    }
    if (row->flags & IX_CC_IN) {
        add_src(c, EMU_SLOT_CC);
    }
    if (row->flags & IX_BAR_RED) {
        add(c, 'b', EMU_SLOT_BAR_RED);
    }
    if (row->flags & IX_SP_IN) {
        add_src(c, EMU_SLOT_STACK);
    }
    if (row->flags & IX_SP_OUT) {
        add_dst(c, EMU_SLOT_STACK);
    }
    c->dst = (List){ c->pool->n, 0 };
    for (uint32_t k = 0; k < c->ntmp; k++) {
        push(c->pool, &c->pool->v, &c->pool->n, &c->pool->cap, c->tmp[k]);
    }
    c->dst.n = c->ntmp;
    info->nsrc = (uint16_t)c->src.n;
    info->ndst = (uint16_t)c->dst.n;
    /* offsets for now: the pool may still move */
    info->src = (const uint32_t *)(uintptr_t)c->src.start;
    info->dst = (const uint32_t *)(uintptr_t)c->dst.start;
}

bool emu_insninfo_build(EmuFunc *f, const uint32_t *regslot)
{
    Pool pool = { .v = malloc(64 * sizeof(uint32_t)), .cap = 64 };
    Ctx c = { .f = f, .regslot = regslot, .pool = &pool };
    f->info = calloc(f->ncode + 1, sizeof(*f->info));
    if (!f->info || !pool.v) {
        free(pool.v);
        free(f->info);
        f->info = NULL;
        return false;
    }
    for (uint32_t pc = 0; pc < f->ncode && !pool.oom; pc++) {
        build_one(&c, &f->code[pc], &f->info[pc]);
    }
    free(c.tmp);
    if (pool.oom) {
        free(pool.v);
        free(f->info);
        f->info = NULL;
        return false;
    }
    f->info_slots = pool.v;
    for (uint32_t pc = 0; pc < f->ncode; pc++) {
        EmuInsnInfo *i = &f->info[pc];
        i->src = pool.v + (uintptr_t)i->src;
        i->dst = pool.v + (uintptr_t)i->dst;
    }
    return true;
}

void emu_insninfo_free(EmuFunc *f)
{
    free(f->info);
    free(f->info_slots);
    f->info = NULL;
    f->info_slots = NULL;
}
