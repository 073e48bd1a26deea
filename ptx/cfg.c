/*
 * ptx/cfg.c: basic blocks, CFG edges, immediate post-dominators and the
 * reconvergence PC of every instruction that may diverge.
 *
 * The emulator's SIMT stack needs, for each divergent branch, the PC at
 * which the split lanes meet again: the immediate post-dominator (IPDOM)
 * of the branch (AFR section 3.1.1).  We compute it once per function when
 * the module is loaded, so the hot loop only reads IrFunc.reconv.
 *
 * Everything the function owns goes into the module's arena; scratch
 * memory is malloc'd and freed here.  Rebuilding is allowed (it abandons
 * the old arrays to the arena) so that a pass that edits the instruction
 * list can simply call ir_cfg_build again.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/arena.h"
#include "ptx/cfg.h"
#include "ptx/opcode.h"
#include "ptx/postdom.h"
#include "ptx/ptx.h"

#define CFG_ENDS_BLOCK (OPF_BRANCH | OPF_BRX | OPF_RET | OPF_EXIT)

static uint32_t cfg_flags(const IrInsn *in)
{
    const PtxOpInfo *info = ptx_opinfo((PtxOpcode)in->op);

    return info ? info->flags : 0;
}

/* The block a code label starts, IR_EXIT_BLOCK for a label at the very
 * end, or UINT32_MAX - 1 when `id` names no code label (the parser
 * rejects that; we must not crash on a hand-built IR either). */
#define CFG_NO_TARGET (UINT32_MAX - 1)

static uint32_t cfg_label_block(const IrFunc *f, int32_t id)
{
    const IrLabel *l;

    if (id < 0 || (uint32_t)id >= f->nlabels) {
        return CFG_NO_TARGET;
    }
    l = &f->labels[id];
    if (l->kind != IR_LABEL_CODE || l->insn > f->ninsns) {
        return CFG_NO_TARGET;
    }
    return l->insn == f->ninsns ? IR_EXIT_BLOCK : f->insns[l->insn].block;
}

/* The label operand of a branch: for brx.idx the one that names a
 * .branchtargets list, for bra the first label. */
static const IrOperand *cfg_label_opnd(const IrFunc *f, const IrInsn *in,
                                       bool targets)
{
    for (uint32_t k = 0; k < in->nopnds; k++) {
        const IrOperand *o = &in->opnds[k];
        if (o->kind != IR_O_LABEL) {
            continue;
        }
        if (!targets) {
            return o;
        }
        if (o->id >= 0 && (uint32_t)o->id < f->nlabels
            && f->labels[o->id].kind == IR_LABEL_BRANCHTARGETS) {
            return o;
        }
    }
    return NULL;
}

/* Successor collection with de-duplication: `seen` holds, per block (and
 * at index nblocks for the exit), the stamp of the last list it joined. */
typedef struct CfgSuccs {
    uint32_t *seen;
    uint32_t stamp;
    uint32_t nblocks;
    uint32_t n;
    uint32_t *out;              /* NULL while counting */
} CfgSuccs;

static void cfg_add(CfgSuccs *cs, uint32_t b)
{
    uint32_t slot = b == IR_EXIT_BLOCK ? cs->nblocks : b;

    if (b == CFG_NO_TARGET || cs->seen[slot] == cs->stamp) {
        return;
    }
    cs->seen[slot] = cs->stamp;
    if (cs->out) {
        cs->out[cs->n] = b;
    }
    cs->n++;
}

/* Successors of block `bk` into cs (see cfg.h for the order). */
static void cfg_block_succs(const IrFunc *f, const IrBlock *bk, CfgSuccs *cs)
{
    const IrInsn *in = &f->insns[bk->end - 1];
    uint32_t fl = cfg_flags(in);
    uint32_t next = bk->end < f->ninsns ? f->insns[bk->end].block
                                        : IR_EXIT_BLOCK;
    bool falls = in->guard >= 0 || !(fl & CFG_ENDS_BLOCK);

    cs->stamp++;
    cs->n = 0;
    if (fl & OPF_BRANCH) {
        const IrOperand *o = cfg_label_opnd(f, in, false);
        uint32_t t = o ? cfg_label_block(f, o->id) : CFG_NO_TARGET;
        /* A bra without a usable target acts as a no-op. */
        falls = falls || t == CFG_NO_TARGET;
        cfg_add(cs, t);
    } else if (fl & OPF_BRX) {
        const IrOperand *o = cfg_label_opnd(f, in, true);
        uint32_t before = cs->n;
        if (o) {
            const IrLabel *l = &f->labels[o->id];
            for (uint32_t k = 0; k < l->ntargets; k++) {
                cfg_add(cs, cfg_label_block(f, l->targets[k]));
            }
        }
        falls = falls || cs->n == before;
    } else if (fl & (OPF_RET | OPF_EXIT)) {
        cfg_add(cs, IR_EXIT_BLOCK);
    }
    if (falls) {
        cfg_add(cs, next);
    }
}

uint32_t ir_reconv_pc(const IrFunc *f, uint32_t insn)
{
    if (!f->reconv || insn >= f->ninsns) {
        return UINT32_MAX;
    }
    return f->reconv[insn];
}

int ir_cfg_build(IrModule *m, IrFunc *f)
{
    uint32_t n = f->ninsns, nb = 0, nedges = 0, npreds = 0;
    uint8_t *lead = NULL;
    uint32_t *seen = NULL, *succ_off = NULL, *ipdom = NULL, *fill = NULL;
    uint32_t *succ_all, *pred_all;
    IrBlock *blocks;
    CfgSuccs cs;
    int rc = -1;

    if (f->is_decl || f->is_proto) {
        return -1;
    }
    f->blocks = NULL;
    f->nblocks = 0;
    f->reconv = NULL;
    if (n == 0) {
        return 0;
    }

    /* Leaders: instruction 0, label targets, and whatever follows an
     * instruction that transfers control. */
    lead = calloc(n, 1);
    if (!lead) {
        goto out;
    }
    lead[0] = 1;
    for (uint32_t k = 0; k < f->nlabels; k++) {
        const IrLabel *l = &f->labels[k];
        if (l->kind == IR_LABEL_CODE && l->insn < n) {
            lead[l->insn] = 1;
        }
    }
    for (uint32_t i = 0; i + 1 < n; i++) {
        if (cfg_flags(&f->insns[i]) & CFG_ENDS_BLOCK) {
            lead[i + 1] = 1;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        nb += lead[i];
        f->insns[i].block = nb - 1;
    }
    blocks = ptx_arena_alloc(m->arena, (size_t)nb * sizeof(*blocks));
    for (uint32_t i = 0, b = 0; i < n; i++) {
        if (lead[i]) {
            if (b > 0) {
                blocks[b - 1].end = i;
            }
            blocks[b++].first = i;
        }
    }
    blocks[nb - 1].end = n;

    /* Edges: count, then fill one arena array shared by all blocks, which
     * doubles as the CSR successor array for ir_postdom. */
    seen = calloc((size_t)nb + 1, sizeof(*seen));
    succ_off = malloc(((size_t)nb + 1) * sizeof(*succ_off));
    ipdom = malloc((size_t)nb * sizeof(*ipdom));
    fill = calloc((size_t)nb, sizeof(*fill));
    if (!seen || !succ_off || !ipdom || !fill) {
        goto out;
    }
    memset(&cs, 0, sizeof(cs));
    cs.seen = seen;
    cs.nblocks = nb;
    for (uint32_t b = 0; b < nb; b++) {
        cfg_block_succs(f, &blocks[b], &cs);
        succ_off[b] = nedges;
        blocks[b].nsucc = cs.n;
        nedges += cs.n;
    }
    succ_off[nb] = nedges;
    succ_all = ptx_arena_alloc(m->arena, (size_t)nedges * sizeof(*succ_all));
    for (uint32_t b = 0; b < nb; b++) {
        cs.out = succ_all + succ_off[b];
        cfg_block_succs(f, &blocks[b], &cs);
        blocks[b].succ = cs.out;
        for (uint32_t k = 0; k < cs.n; k++) {
            if (cs.out[k] != IR_EXIT_BLOCK) {
                blocks[cs.out[k]].npred++;
                npreds++;
            }
        }
    }
    pred_all = ptx_arena_alloc(m->arena, (size_t)npreds * sizeof(*pred_all));
    for (uint32_t b = 0, off = 0; b < nb; b++) {
        blocks[b].pred = pred_all + off;
        off += blocks[b].npred;
    }
    for (uint32_t b = 0; b < nb; b++) {
        for (uint32_t k = 0; k < blocks[b].nsucc; k++) {
            uint32_t s = blocks[b].succ[k];
            if (s != IR_EXIT_BLOCK) {
                blocks[s].pred[fill[s]++] = b;
            }
        }
    }

    if (ir_postdom(nb, succ_off, succ_all, ipdom) != 0) {
        goto out;
    }
    for (uint32_t b = 0; b < nb; b++) {
        blocks[b].ipdom = ipdom[b];
    }

    /* Reconvergence PCs. */
    f->reconv = ptx_arena_alloc(m->arena, (size_t)n * sizeof(*f->reconv));
    memset(f->reconv, 0xff, (size_t)n * sizeof(*f->reconv));
    for (uint32_t b = 0; b < nb; b++) {
        uint32_t last = blocks[b].end - 1;
        const IrInsn *in = &f->insns[last];
        uint32_t fl = cfg_flags(in);
        if ((fl & (OPF_BRANCH | OPF_BRX))
            || ((fl & (OPF_RET | OPF_EXIT)) && in->guard >= 0)) {
            uint32_t p = blocks[b].ipdom;
            f->reconv[last] = p == IR_EXIT_BLOCK ? UINT32_MAX
                                                 : blocks[p].first;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        /* An indirect call may run different functions on different
         * lanes; they meet again when the call returns. */
        if (cfg_flags(&f->insns[i]) & OPF_CALL) {
            f->reconv[i] = i + 1 < n ? i + 1 : UINT32_MAX;
        }
    }
    f->blocks = blocks;
    f->nblocks = nb;
    rc = 0;
out:
    if (rc != 0) {
        f->reconv = NULL;
    }
    free(lead);
    free(seen);
    free(succ_off);
    free(ipdom);
    free(fill);
    return rc;
}
