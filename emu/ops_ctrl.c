/*
 * emu/ops_ctrl.c: control flow, calls and barriers.
 *
 * Handlers never touch the SIMT stack directly: they describe what the
 * lanes do (emu_simt_split for branches, emu_simt_call/ret/exit, and
 * emu_barrier_arrive), and simt.c keeps the stack and frames consistent.
 *
 * Serialisation: brx.idx groups its lanes by target, and an indirect call
 * whose lanes hold different functions splits the warp into one path per
 * function, each path re-executing the call (then uniform) and all of
 * them reconverging after it.  Paths run lowest lane first (or smallest
 * path first under EMU_MAJORITY_LAST).
 */
#include <string.h>

#include "emu/builtins.h"
#include "emu/client.h"
#include "emu/exec.h"
#include "emu/its.h"
#include "emu/ops.h"
#include "ptx/opcode.h"

/* A thread fence orders nothing more in this sequentially consistent
 * emulator; the clients that model ordering (racecheck) are told of it. */
static void op_fence(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    if (__builtin_expect(x->dev->clients != NULL, 0) && mask) {
        emu_client_warp_event(x, EMU_EV_FENCE, mask, i->aux);
    }
}

static void op_nop(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    (void)x;
    (void)i;
    (void)mask;
}

static void op_bra(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    if (mask == x->active) {
        x->next_pc = i->target;
        return;
    }
    uint32_t pcs[2] = { i->target, x->pc + 1 };
    uint32_t masks[2] = { mask, x->active & ~mask };
    emu_simt_split(x, 2, pcs, masks, i->reconv);
}

/* A bra to an earlier pc under independent thread scheduling: a loop
 * back edge, where ptxas puts YIELD (emu/its.h).  decode.c picks it for
 * such branches on an ITS device only, so IPDOM runs op_bra as before. */
void emu_op_bra_yield(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    op_bra(x, i, mask);
    emu_simt_backedge(x);
}

/* bar.warp.sync membermask under independent thread scheduling
 * (emu/its.h); decode.c selects it on an ITS device (IPDOM: a nop). */
void emu_op_warpsync_its(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    emu_its_warpsync(x, &i->o[0], mask);
}

/* Group lanes by a per-lane value; returns the number of groups, in
 * order of their lowest lane. */
static uint32_t group_lanes(const uint64_t *val, uint32_t mask,
                            uint64_t *keys, uint32_t *masks)
{
    uint32_t n = 0;
    EMU_FOR_LANES(mask, lane) {
        uint32_t g = 0;
        while (g < n && keys[g] != val[lane]) {
            g++;
        }
        if (g == n) {
            keys[n] = val[lane];
            masks[n++] = 0;
        }
        masks[g] |= 1u << lane;
    }
    return n;
}

static void op_brx(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    const EmuOpnd *lst = &i->o[1];
    const uint32_t *tg = &x->frame->func->vslots[lst->reg];
    uint64_t val[EMU_WARP_SIZE];
    EMU_FOR_LANES(mask, lane) {
        uint64_t k = (uint32_t)emu_src(x, &i->o[0], lane);
        if (k >= lst->n) {
            emu_fault(x, EMU_ERR_ILLEGAL_INSTRUCTION, lane, 0, 0,
                      PTX_SPACE_NONE, "brx.idx index %llu out of range "
                      "(%u targets)", (unsigned long long)k, lst->n);
            return;
        }
        val[lane] = tg[k];
    }
    uint64_t keys[EMU_WARP_SIZE + 1];
    uint32_t masks[EMU_WARP_SIZE + 1], pcs[EMU_WARP_SIZE + 1];
    uint32_t n = group_lanes(val, mask, keys, masks);
    for (uint32_t g = 0; g < n; g++) {
        pcs[g] = (uint32_t)keys[g];
    }
    pcs[n] = x->pc + 1;
    masks[n] = x->active & ~mask;
    emu_simt_split(x, n + 1, pcs, masks, i->reconv);
}

static int call_target(const EmuInsn *i)
{
    for (int k = 0; k < i->nopnd; k++) {
        if (i->o[k].kind != EO_LIST) {
            return k;
        }
    }
    return -1;
}

static const EmuFunc *callee_of(EmuCtx *x, uint64_t idx)
{
    const EmuModule *m = x->launch->mod;
    if (idx >= m->nfuncs || !m->funcs[idx] || !m->funcs[idx]->ncode ||
        m->funcs[idx]->ir->is_entry) {
        return NULL;
    }
    return m->funcs[idx];
}

static void op_call(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    const EmuOpnd *t = &i->o[i->aux];
    if (!mask) {
        return;
    }
    if (t->kind == EO_FUNC) {
        emu_simt_call(x, mask, x->launch->mod->funcs[t->imm], i);
        return;
    }
    uint64_t val[EMU_WARP_SIZE];
    EMU_FOR_LANES(mask, lane) {
        val[lane] = emu_src(x, t, lane);
    }
    uint64_t keys[EMU_WARP_SIZE + 1];
    uint32_t masks[EMU_WARP_SIZE + 1], pcs[EMU_WARP_SIZE + 1];
    uint32_t n = group_lanes(val, mask, keys, masks);
    if (n == 1) {
        const EmuFunc *cf = callee_of(x, keys[0]);
        if (!cf) {
            emu_fault(x, EMU_ERR_ILLEGAL_INSTRUCTION,
                      (unsigned)__builtin_ctz(mask), 0, 0, PTX_SPACE_NONE,
                      "indirect call through an invalid function value "
                      "0x%llx", (unsigned long long)keys[0]);
            return;
        }
        emu_simt_call(x, mask, cf, i);
        return;
    }
    /* divergent targets: one path per function, each re-executes the
     * call with a uniform target; all reconverge after the call */
    for (uint32_t g = 0; g < n; g++) {
        pcs[g] = x->pc;
    }
    pcs[n] = x->pc + 1;
    masks[n] = x->active & ~mask;
    emu_simt_split(x, n + 1, pcs, masks, x->pc + 1);
}

static void op_ret(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    (void)i;
    if (mask) {
        emu_simt_ret(x, mask);
    }
}

static void op_exit(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    (void)i;
    if (mask) {
        emu_simt_exit(x, mask);
    }
}

static void op_trap(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    (void)i;
    if (mask) {
        emu_fault(x, EMU_ERR_TRAP, (unsigned)__builtin_ctz(mask), 0, 0,
                  PTX_SPACE_NONE, "trap instruction executed");
    }
}

/* Barrier id and expected warp count of bar/barrier instructions:
 * operand a (id) at index `ia`, optional thread count at `ib`. */
static void bar_args(EmuCtx *x, const EmuInsn *i, uint32_t mask, int ia,
                     int ib, unsigned *id, uint32_t *expected)
{
    unsigned lane = (unsigned)__builtin_ctz(mask);
    *id = (unsigned)emu_src(x, &i->o[ia], lane) & (EMU_MAX_BARRIERS - 1);
    *expected = 0;
    if (ib >= 0 && ib < i->nopnd && i->o[ib].kind != EO_NONE) {
        uint64_t cnt = (uint32_t)emu_src(x, &i->o[ib], lane);
        *expected = (uint32_t)((cnt + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE);
        if (*expected == 0) {
            *expected = 1;
        }
    }
}

static void op_bar_sync(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    if (!mask) {
        return;
    }
    unsigned id;
    uint32_t exp;
    bar_args(x, i, mask, 0, 1, &id, &exp);
    emu_barrier_arrive(x, id, exp, true);
}

static void op_bar_arrive(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    if (!mask) {
        return;
    }
    unsigned id;
    uint32_t exp;
    bar_args(x, i, mask, 0, 1, &id, &exp);
    emu_barrier_arrive(x, id, exp, false);
}

/* bar.red.op d, a{, b}, {!}c */
static void op_bar_red(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    if (!mask) {
        return;
    }
    int ic = i->nopnd - 1;
    unsigned id;
    uint32_t exp;
    bar_args(x, i, mask, 1, ic > 2 ? 2 : -1, &id, &exp);
    EmuCta *cta = x->cta;
    EmuWarp *w = x->warp;
    uint32_t yes = 0;
    EMU_FOR_LANES(mask, lane) {
        bool p = emu_src(x, &i->o[ic], lane) != 0;
        if (i->o[ic].neg == IR_NEG_NOT) {
            p = !p;
        }
        yes |= (uint32_t)p << lane;
    }
    if (cta->bar_arrived[id] == 0) {
        cta->bar_red[id] = i->aux == PTX_M_RED_AND ? 1 : 0;
        cta->bar_op[id] = (uint8_t)i->aux;
    }
    switch (i->aux) {
    case PTX_M_POPC:
        cta->bar_red[id] += (uint32_t)__builtin_popcount(yes);
        break;
    case PTX_M_RED_AND:
        cta->bar_red[id] &= yes == mask;
        break;
    default:
        cta->bar_red[id] |= yes != 0;
        break;
    }
    w->red_dst = i->o[0].reg;
    w->red_lanes = mask;
    w->red_op = (uint8_t)i->aux;
    w->red_pred = i->type == PTX_T_PRED;
    emu_barrier_arrive(x, id, exp, true);
}

/* elect.sync d|p, membermask: the lowest executing lane of membermask
 * is elected; d = its lane id in every lane, p = true in it only. */
static void op_elect(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    const EmuOpnd *o = &i->o[0];
    uint32_t members = mask;
    if (mask) {
        members &= (uint32_t)emu_src(x, &i->o[1],
                                     (unsigned)__builtin_ctz(mask));
    }
    uint32_t leader = members ? (uint32_t)__builtin_ctz(members) : 0;
    uint32_t ds = EMU_NOREG, ps = EMU_NOREG;
    if (o->kind == EO_PAIR) {
        ds = o->reg;
        ps = (uint32_t)o->imm;
    } else if (o->kind == EO_REG) {
        ds = o->reg;
    }
    EMU_FOR_LANES(mask, lane) {
        if (ds != EMU_NOREG) {
            x->regs[(size_t)ds * EMU_WARP_SIZE + lane] = leader;
        }
        if (ps != EMU_NOREG) {
            x->regs[(size_t)ps * EMU_WARP_SIZE + lane] =
                members && lane == leader;
        }
    }
}

EMU_SELECTOR(ctrl)
{
    (void)m;
    (void)f;
    switch ((PtxOpcode)in->op) {
    case PTX_OP_BRA:
        ei->fn = ei->target != EMU_NOPC ? op_bra : NULL;
        return true;
    case PTX_OP_BRX_IDX:
        ei->fn = ei->nopnd == 2 && ei->o[1].kind == EO_LABEL ? op_brx : NULL;
        return true;
    case PTX_OP_CALL: {
        int t = call_target(ei);
        ei->fn = NULL;
        if (t < 0) {
            return true;
        }
        ei->aux = (uint16_t)t;
        if (ei->o[t].kind == EO_FUNC) {
            const IrFunc *cf = in->opnds[t].u.func;
            for (uint32_t k = 0; k < m->naliases; k++) {
                if (m->aliases[k].alias == cf) {
                    cf = m->aliases[k].target;
                }
            }
            if (cf->is_decl || cf->ninsns == 0) {
                /* an extern function without a body: a device library
                 * function of emu/builtins.c, or unsupported (NULL) */
                ei->fn = emu_builtin_handler(cf->name);
                return true;
            }
            ei->fn = op_call;
        } else if (ei->o[t].kind == EO_REG) {
            ei->fn = op_call;
        }
        return true;
    }
    case PTX_OP_ELECT_SYNC:
        ei->fn = ei->nopnd == 2 ? op_elect : NULL;
        return true;
    case PTX_OP_RET:
        ei->fn = op_ret;
        return true;
    case PTX_OP_EXIT:
        ei->fn = op_exit;
        return true;
    case PTX_OP_TRAP:
        ei->fn = op_trap;
        return true;
    case PTX_OP_BRKPT:
    case PTX_OP_NANOSLEEP:
    case PTX_OP_PMEVENT:
    case PTX_OP_PMEVENT_MASK:
    case PTX_OP_MEMBAR:
    case PTX_OP_FENCE: {
        /* membar.gl is fence.sc.gpu (PTX ISA 9.7.13.4) */
        PtxMod sc = ir_insn_mod(in, PTX_MG_SCOPE);
        ei->aux = (uint16_t)(sc == PTX_M_GL ? PTX_M_GPU : sc);
        ei->fn = op_fence;
        return true;
    }
    case PTX_OP_MEMBAR_PROXY:
    case PTX_OP_FENCE_PROXY:
    case PTX_OP_GRIDDEPCONTROL_LAUNCH_DEPENDENTS:
    case PTX_OP_GRIDDEPCONTROL_WAIT:
    case PTX_OP_BAR_WARP_SYNC:
        ei->fn = op_nop;
        return true;
    case PTX_OP_BAR_SYNC:
    case PTX_OP_BAR_CTA_SYNC:
    case PTX_OP_BARRIER_SYNC:
    case PTX_OP_BARRIER_CTA_SYNC:
        ei->fn = op_bar_sync;
        return true;
    case PTX_OP_BAR_ARRIVE:
    case PTX_OP_BAR_CTA_ARRIVE:
    case PTX_OP_BARRIER_ARRIVE:
    case PTX_OP_BARRIER_CTA_ARRIVE:
        ei->fn = op_bar_arrive;
        return true;
    case PTX_OP_BAR_RED:
    case PTX_OP_BAR_CTA_RED:
    case PTX_OP_BARRIER_RED:
    case PTX_OP_BARRIER_CTA_RED: {
        PtxMod r = ir_insn_mod(in, PTX_MG_REDOP);
        ei->aux = (uint16_t)r;
        ei->fn = (r == PTX_M_POPC || r == PTX_M_RED_AND ||
                  r == PTX_M_RED_OR) && ei->o[0].kind == EO_REG
                 ? op_bar_red : NULL;
        return true;
    }
    default:
        return false;
    }
}
