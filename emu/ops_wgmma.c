/*
 * emu/ops_wgmma.c: warpgroup-level instructions of sm_90a:
 * wgmma.fence, wgmma.commit_group, wgmma.wait_group, wgmma.mma_async
 * (PTX ISA 9.0, 9.7.15) and setmaxnreg (miscellaneous instructions).
 *
 * A warpgroup is 4 contiguous warps whose first warp index is a multiple
 * of 4.  These instructions are .sync.aligned over it; a warp that
 * executes one with lanes missing, or whose warpgroup is not 4 full
 * warps (a block size that is not a multiple of 128), stops the launch
 * with an illegal-instruction fault.
 *
 * wgmma.mma_async m64nNkK: D (64 x N) = A (64 x K) * B (K x N) + D.  Warp
 * w of the warpgroup holds rows 16w .. 16w+15 of D (and of A when A is
 * in registers), laid out per warp as the m16n8 C/D (and A) fragments of
 * mma.sync, repeated along N ("Register Fragments", 9.7.15.5.1.1: lane
 * l holds row l/4 and l/4 + 8, columns 8j + 2(l%4) + {0,1} of each
 * 8-column block j; emu/mma_layout.h).  Those rows depend only on the
 * warp's rows of A and on B, so each warp computes its part when it
 * issues the instruction.  A wgmma-group is complete when all 4 warps
 * have issued it, so wgmma.wait_group N blocks a warp until every warp
 * of its warpgroup has committed all but the N most recent of the
 * warp's groups: a warp that waits and then releases the shared-memory
 * stage (one elected thread arriving on an mbarrier, as CUTLASS's
 * pipelines do) cannot let it be overwritten before its sibling warps
 * have read it.  A and B in shared memory are read
 * through matrix descriptors (emu/wgmma_desc.h), which must be the same
 * in every lane of the warp; an element outside the CTA's shared memory
 * faults.  The arithmetic is mma.sync's (emu/mma_arith.h): exact
 * products, one rounding to nearest of the exact sum (an f16 D is the
 * f32 result rounded to f16); integers exact, wrapped or .satfinite.
 *
 * Forms (all of 9.7.15.5.2): .f16 (D .f16/.f32) and .bf16 (D .f32) with
 * K = 16, imm-scale-a/b (1 or -1: negate A or B) and imm-trans-a/b
 * (MN-major A or B; no imm-trans-a when A is in registers); .tf32 with
 * K = 8 and .e4m3/.e5m2 with K = 32, imm-scale only; .s8/.u8 with K =
 * 32 (D .s32, optional .satfinite) and .b1 .and.popc with K = 256; N is
 * 8 .. 256 in steps of 8, for .s8/.u8/.b1 8, 16, 24 and multiples of 16.
 * scale-d false computes D = A * B: we add -0 instead of D, the identity
 * of round-to-nearest addition, so NaNs or infinities in the old D do not
 * leak in.  wgmma.mma_async.sp (sparse A) faults as not supported when
 * executed.
 *
 * setmaxnreg.{inc,dec}.sync.aligned.u32 n: the emulator has no register
 * file to repartition, so it only checks n (24 .. 256, a multiple of 8,
 * else a fault when executed) and the warpgroup; .inc never has to wait
 * for registers, and the registers it "adds" keep their values (the ISA
 * leaves them undefined).
 */
#include <stdio.h>
#include <string.h>

#include "emu/access.h"
#include "emu/async.h"
#include "emu/exec.h"
#include "emu/insninfo.h"
#include "emu/mma_arith.h"
#include "emu/mma_layout.h"
#include "emu/ops.h"
#include "emu/wgmma_desc.h"
#include "ptx/opcode.h"

/* ------------------------------------------------ the decoded form */

/* Kept in o[5] (wgmma's operands from o[4] on are immediates, consumed
 * at decode). */
typedef struct WgForm {
    uint16_t n, k;
    uint8_t ta, tb, td;         /* PtxType */
    uint8_t flags;              /* WF_* */
} WgForm;

enum {
    WF_REGA = 1u << 0,          /* A in registers */
    WF_NEGA = 1u << 1,          /* imm-scale-a = -1 */
    WF_NEGB = 1u << 2,
    WF_TRA = 1u << 3,           /* imm-trans-a = 1: A is M-major */
    WF_TRB = 1u << 4,           /* imm-trans-b = 1: B is N-major */
    WF_SAT = 1u << 5,           /* .satfinite */
};

#define FORM_SLOT 5

static inline WgForm form_of(const EmuInsn *i)
{
    WgForm f;
    memcpy(&f, &i->o[FORM_SLOT].imm, sizeof(f));
    return f;
}

static unsigned tbits(unsigned t)
{
    switch ((PtxType)t) {
    case PTX_T_F16: case PTX_T_BF16: return 16;
    case PTX_T_TF32: case PTX_T_F32: case PTX_T_S32: return 32;
    case PTX_T_B1: return 1;
    default: return 8;
    }
}

/* EmuWarp.barrier_id of a warp blocked in wgmma.wait_group (CTA
 * barriers use 0 .. EMU_MAX_BARRIERS - 1, the cluster barrier 0xC1). */
#define EMU_WGMMA_BARRIER 0xC2u

/* ------------------------------------------------ warpgroup checks */

static const char *opname(const EmuInsn *i)
{
    return ptx_opinfo((PtxOpcode)i->op)->name;
}

/* The warpgroup must be 4 whole warps, all of whose lanes take part. */
static bool whole_group(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    const EmuCta *c = x->cta;
    uint32_t g0 = x->warp->id & ~3u, threads = 0;
    for (uint32_t w = g0; w < g0 + 4 && w < c->nwarps; w++) {
        threads += (uint32_t)__builtin_popcount(c->warps[w].valid);
    }
    if (threads != 128) {
        emu_fault(x, EMU_ERR_ILLEGAL_INSTRUCTION, 0, 0, 0, PTX_SPACE_NONE,
                  "%s is executed by a warpgroup (4 warps, 128 threads) "
                  "but the warpgroup of warp %u (warps %u .. %u) has %u "
                  "threads: the block size must be a multiple of 128",
                  opname(i), x->warp->id, g0, g0 + 3, threads);
        return false;
    }
    if (mask != 0xffffffffu) {
        emu_fault(x, EMU_ERR_ILLEGAL_INSTRUCTION,
                  mask ? (unsigned)__builtin_ctz(mask) : 0, 0, 0,
                  PTX_SPACE_NONE, "%s needs all 32 lanes of the warp "
                  "(.sync.aligned); lane %u does not take part (active "
                  "mask 0x%08x)", opname(i),
                  (unsigned)__builtin_ctz(~mask), mask);
        return false;
    }
    return true;
}

/* wgmma.fence: register accesses are in order here already. */
static void h_fence(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    whole_group(x, i, mask);
}

/* The fewest commit_groups any warp of x's warpgroup has executed. */
static uint32_t group_committed(const EmuCtx *x)
{
    const EmuCta *c = x->cta;
    uint32_t g0 = x->warp->id & ~3u, least = UINT32_MAX;
    for (uint32_t w = g0; w < g0 + 4; w++) {
        if (c->warps[w].wg_committed < least) {
            least = c->warps[w].wg_committed;
        }
    }
    return least;
}

/* wgmma.commit_group: closes the warp's group; waiters of the warpgroup
 * whose groups every warp has now issued go on. */
static void h_commit(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    if (!whole_group(x, i, mask)) {
        return;
    }
    x->warp->wg_committed++;
    emu_async_commit(x, EMU_CHAN_WGMMA, emu_async_warp_id(x));
    uint32_t least = group_committed(x), g0 = x->warp->id & ~3u;
    for (uint32_t w = g0; w < g0 + 4; w++) {
        EmuWarp *wp = &x->cta->warps[w];
        if (wp->state == EMU_WARP_AT_BARRIER &&
            wp->barrier_id == EMU_WGMMA_BARRIER && least >= wp->wg_wait) {
            emu_warp_set_state(wp, EMU_WARP_READY);
            emu_progress(x->cta);
        }
    }
}

/* wgmma.wait_group N: the warp's own part of every wgmma is done at
 * issue, but a group is complete only when all 4 warps have issued it:
 * wait until every warp of the warpgroup has committed all but the
 * warp's N most recent groups. */
static void h_wait(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    if (!whole_group(x, i, mask)) {
        return;
    }
    EmuWarp *w = x->warp;
    uint64_t n = i->o[0].imm;
    emu_async_wait(x, EMU_WAIT_WGMMA, EMU_CHAN_WGMMA, emu_async_warp_id(x),
                   n > UINT32_MAX ? UINT32_MAX : (uint32_t)n, false);
    uint32_t need = n >= w->wg_committed ? 0
                                         : w->wg_committed - (uint32_t)n;
    if (group_committed(x) < need) {
        w->wg_wait = need;
        emu_warp_set_state(w, EMU_WARP_AT_BARRIER);
        w->barrier_id = EMU_WGMMA_BARRIER;
    }
}

static void h_setmaxnreg(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    whole_group(x, i, mask);
}

static void h_setmaxnreg_bad(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    (void)mask;
    emu_fault(x, EMU_ERR_ILLEGAL_INSTRUCTION, 0, 0, 0, PTX_SPACE_NONE,
              "setmaxnreg: register count %llu is not in 24 .. 256 or "
              "not a multiple of 8", (unsigned long long)i->o[0].imm);
}

static void h_mma_sp(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    (void)i;
    (void)mask;
    emu_fault(x, EMU_ERR_UNSUPPORTED, 0, 0, 0, PTX_SPACE_NONE,
              "wgmma.mma_async.sp (sparse warpgroup MMA) is not supported "
              "by the emulator");
}

/* ------------------------------------------------ operands */

static inline uint32_t vec_slot(const EmuCtx *x, const EmuOpnd *o,
                                unsigned r)
{
    if (o->kind == EO_VEC) {
        return x->func->vslots[o->reg + r];
    }
    return o->kind == EO_REG ? o->reg + r : EMU_NOREG;
}

static inline uint64_t lane_reg(EmuCtx *x, const EmuOpnd *o, unsigned r,
                                unsigned lane)
{
    uint32_t s = vec_slot(x, o, r);
    return s == EMU_NOREG ? 0 : x->regs[(size_t)s * EMU_WARP_SIZE + lane];
}

/* A descriptor operand, which must be the same in all lanes. */
static bool uniform_desc(EmuCtx *x, const EmuOpnd *o, char which,
                         uint64_t *out)
{
    uint64_t v = emu_src(x, o, 0);
    for (unsigned lane = 1; lane < EMU_WARP_SIZE; lane++) {
        uint64_t u = emu_src(x, o, lane);
        if (u != v) {
            emu_fault(x, EMU_ERR_ILLEGAL_INSTRUCTION, lane, 0, 0,
                      PTX_SPACE_NONE, "wgmma.mma_async: the matrix %c "
                      "descriptor differs between lanes (lane 0 0x%016llx, "
                      "lane %u 0x%016llx)", which, (unsigned long long)v,
                      lane, (unsigned long long)u);
            return false;
        }
    }
    *out = v;
    return true;
}

/* Element (mn, k) of the matrix described by d. */
static bool smem_elem(EmuCtx *x, char which, uint64_t raw, const WgDesc *d,
                      bool mn_major, unsigned bits, unsigned mn, unsigned k,
                      uint64_t *out)
{
    uint64_t ba = wg_elem_bitaddr(d, mn_major, bits, mn, k);
    uint64_t at = ba / 8;
    unsigned size = bits < 8 ? 1 : bits / 8;
    uint32_t have = x->cta->shared_bytes;
    if (at > have || size > have - at) {
        emu_fault(x, EMU_ERR_ILLEGAL_ADDRESS, 0, at, size, PTX_SPACE_SHARED,
                  "wgmma.mma_async: element (%u, %u) of matrix %c "
                  "(descriptor 0x%016llx) is at shared address 0x%llx, "
                  "outside the CTA's %u bytes of shared memory",
                  which == 'A' ? mn : k, which == 'A' ? k : mn, which,
                  (unsigned long long)raw, (unsigned long long)at, have);
        return false;
    }
    /* read by the asynchronous operation, for the warp: noted as lane
     * 0's */
    const uint8_t *p = emu_access(x, 0, PTX_SPACE_SHARED, at, size,
                                  EMU_ACC_ASYNC_READ);
    if (!p) {
        return false;
    }
    uint64_t v = 0;
    memcpy(&v, p, size);
    *out = bits < 8 ? (v >> (ba % 8)) & 1 : v & ((1ull << bits) - 1);
    return true;
}

static void negate(uint64_t *v, size_t n, unsigned bits)
{
    for (size_t e = 0; e < n; e++) {
        v[e] ^= 1ull << (bits - 1);
    }
}

/* ------------------------------------------------ wgmma.mma_async */

#define MAXN 256
#define MAXK 256

/* d, a-desc | {a}, b-desc, scale-d {, imm-scale-a, imm-scale-b
 * {, imm-trans-a}, imm-trans-b} */
static void h_mma_async(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    if (!whole_group(x, i, mask)) {
        return;
    }
    WgForm f = form_of(i);
    unsigned N = f.n, K = f.k, abits = tbits(f.ta), bbits = tbits(f.tb);
    unsigned dper = f.td == PTX_T_F16 ? 2 : 1, row0 = 16 * (x->warp->id % 4);
    bool flt = f.td != PTX_T_S32;
    uint64_t a[16 * MAXK], b[MAXK * 8], c[16 * 8], d[16 * 8];
    uint64_t vals[MAXN / 2 * EMU_WARP_SIZE];
    uint64_t adesc = 0, bdesc;
    WgDesc da, db;
    if (!uniform_desc(x, &i->o[2], 'B', &bdesc)) {
        return;
    }
    db = wg_desc_decode(bdesc);
    if (f.flags & WF_REGA) {
        /* the m16nNkK A fragment of mma.sync: 4 registers per lane */
        unsigned per = 32 / abits;
        for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++) {
            for (unsigned e = 0; e < 4 * per; e++) {
                unsigned r, col;
                uint64_t v = lane_reg(x, &i->o[1], e / per, lane);
                mma_elem_pos(MMA_A, 16, K, per, lane, e, &r, &col);
                a[r * K + col] = (v >> (e % per * abits)) &
                                 ((1ull << abits) - 1);
            }
        }
    } else {
        if (!uniform_desc(x, &i->o[1], 'A', &adesc)) {
            return;
        }
        da = wg_desc_decode(adesc);
        for (unsigned r = 0; r < 16; r++) {
            for (unsigned k = 0; k < K; k++) {
                if (!smem_elem(x, 'A', adesc, &da, f.flags & WF_TRA, abits,
                               row0 + r, k, &a[r * K + k])) {
                    return;
                }
            }
        }
    }
    if (f.flags & WF_NEGA) {
        negate(a, 16 * K, abits);
    }
    /* scale-d per lane: a predicate (or an immediate) */
    uint32_t keep = 0;
    for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++) {
        uint64_t s = emu_src(x, &i->o[3], lane) & 1;
        if (i->o[3].neg == IR_NEG_NOT) {
            s ^= 1;
        }
        keep |= (uint32_t)s << lane;
    }
    uint64_t zero = !flt ? 0 : f.td == PTX_T_F16 ? 0x8000 : 0x80000000u;
    unsigned nd = N / 2 / dper;
    memset(vals, 0, sizeof(uint64_t) * EMU_WARP_SIZE * nd);
    for (unsigned jb = 0; jb < N / 8; jb++) {
        for (unsigned k = 0; k < K; k++) {
            for (unsigned j = 0; j < 8; j++) {
                if (!smem_elem(x, 'B', bdesc, &db, f.flags & WF_TRB, bbits,
                               8 * jb + j, k, &b[k * 8 + j])) {
                    return;
                }
            }
        }
        if (f.flags & WF_NEGB) {
            negate(b, 8 * K, bbits);
        }
        /* block jb of a lane's D fragment: elements 4 jb .. 4 jb + 3 */
        for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++) {
            for (unsigned e = 4 * jb; e < 4 * jb + 4; e++) {
                unsigned r, col;
                mma_elem_pos(MMA_C, 16, N, dper, lane, e, &r, &col);
                uint64_t v = lane_reg(x, &i->o[0], e / dper, lane) >>
                             (e % dper * 16);
                c[r * 8 + col % 8] = !(keep >> lane & 1) ? zero
                    : v & (dper == 2 ? 0xffffu : 0xffffffffu);
            }
        }
        emu_mma_compute(16, 8, K, f.ta, f.tb, f.td, f.td, f.flags & WF_SAT,
                        false, a, b, c, d);
        for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++) {
            for (unsigned e = 4 * jb; e < 4 * jb + 4; e++) {
                unsigned r, col;
                mma_elem_pos(MMA_C, 16, N, dper, lane, e, &r, &col);
                vals[e / dper * EMU_WARP_SIZE + lane] |=
                    d[r * 8 + col % 8] << (e % dper * 16);
            }
        }
    }
    for (unsigned r = 0; r < nd; r++) {
        uint32_t s = vec_slot(x, &i->o[0], r);
        if (s != EMU_NOREG) {
            memcpy(emu_slot(x, s), vals + r * EMU_WARP_SIZE,
                   sizeof(uint64_t) * EMU_WARP_SIZE);
        }
    }
    emu_async_issue(x, EMU_CHAN_WGMMA, emu_async_warp_id(x));
}

/* ------------------------------------------------ selector */

enum { FAM_F16, FAM_BF16, FAM_TF32, FAM_F8, FAM_I8, FAM_B1 };

/* Per family (9.7.15.5.2): K, and the operand counts with A from a
 * descriptor and from registers. */
static const struct {
    uint16_t k;
    uint8_t nop_desc, nop_reg;
} fams[] = {
    [FAM_F16] = { 16, 8, 7 },
    [FAM_BF16] = { 16, 8, 7 },
    [FAM_TF32] = { 8, 6, 6 },
    [FAM_F8] = { 32, 6, 6 },
    [FAM_I8] = { 32, 4, 4 },
    [FAM_B1] = { 256, 4, 4 },
};

static int family(PtxType ta, PtxType tb, PtxType td)
{
    bool f8a = ta == PTX_T_E4M3 || ta == PTX_T_E5M2;
    bool f8b = tb == PTX_T_E4M3 || tb == PTX_T_E5M2;
    bool i8a = ta == PTX_T_S8 || ta == PTX_T_U8;
    bool i8b = tb == PTX_T_S8 || tb == PTX_T_U8;
    if (ta == PTX_T_F16 && tb == PTX_T_F16 &&
        (td == PTX_T_F16 || td == PTX_T_F32)) {
        return FAM_F16;
    }
    if (ta == PTX_T_BF16 && tb == PTX_T_BF16 && td == PTX_T_F32) {
        return FAM_BF16;
    }
    if (ta == PTX_T_TF32 && tb == PTX_T_TF32 && td == PTX_T_F32) {
        return FAM_TF32;
    }
    if (f8a && f8b && (td == PTX_T_F16 || td == PTX_T_F32)) {
        return FAM_F8;
    }
    if (i8a && i8b && td == PTX_T_S32) {
        return FAM_I8;
    }
    if (ta == PTX_T_B1 && tb == PTX_T_B1 && td == PTX_T_S32) {
        return FAM_B1;
    }
    return -1;
}

/* An immediate operand of the IR whose value is one of two. */
static bool imm_of(const IrInsn *in, unsigned k, int64_t v0, int64_t v1,
                   bool *is_v1)
{
    const IrOperand *o = &in->opnds[k];
    if (k >= in->nopnds || o->kind != IR_O_IMM ||
        (o->imm != v0 && o->imm != v1)) {
        return false;
    }
    *is_v1 = o->imm == v1;
    return true;
}

static EmuHandler select_mma_async(const IrInsn *in, EmuInsn *ei)
{
    unsigned n, k;
    char tail;
    PtxMod sh = ir_insn_mod(in, PTX_MG_SHAPE);
    if (!sh || in->ntypes != 3 ||
        sscanf(ptx_mod_name(sh), "m64n%uk%u%c", &n, &k, &tail) != 2 ||
        n < 8 || n > MAXN || n % 8) {
        return NULL;
    }
    PtxType td = (PtxType)in->types[0], ta = (PtxType)in->types[1];
    PtxType tb = (PtxType)in->types[2];
    int fam = family(ta, tb, td);
    if (fam < 0 || fams[fam].k != k) {
        return NULL;
    }
    bool intfam = fam == FAM_I8 || fam == FAM_B1;
    if (intfam && n > 24 && n % 16) {
        return NULL;
    }
    bool sat = ir_insn_mod(in, PTX_MG_SATFINITE) != PTX_M_NONE;
    PtxMod bop = ir_insn_mod(in, PTX_MG_BOOLOP);
    PtxMod rop = ir_insn_mod(in, PTX_MG_REDOP);
    if ((sat && fam != FAM_I8) ||
        (fam == FAM_B1 ? bop != PTX_M_BOOL_AND || rop != PTX_M_POPC
                       : bop != PTX_M_NONE || rop != PTX_M_NONE)) {
        return NULL;
    }
    WgForm f = { (uint16_t)n, (uint16_t)k, (uint8_t)ta, (uint8_t)tb,
                 (uint8_t)td, sat ? WF_SAT : 0 };
    const EmuOpnd *oa = &ei->o[1];
    bool rega = oa->kind == EO_VEC;
    unsigned nop = rega ? fams[fam].nop_reg : fams[fam].nop_desc;
    unsigned nd = n / 2 / (td == PTX_T_F16 ? 2 : 1);
    if (in->nopnds != nop || ei->o[0].kind != EO_VEC || ei->o[0].n != nd ||
        (rega && oa->n != 4) ||
        (!rega && oa->kind != EO_REG && oa->kind != EO_IMM) ||
        (ei->o[2].kind != EO_REG && ei->o[2].kind != EO_IMM) ||
        (ei->o[3].kind != EO_REG && ei->o[3].kind != EO_IMM)) {
        return NULL;
    }
    f.flags |= rega ? WF_REGA : 0;
    bool v;
    if (nop >= 6) {
        if (!imm_of(in, 4, 1, -1, &v)) {
            return NULL;
        }
        f.flags |= v ? WF_NEGA : 0;
        if (!imm_of(in, 5, 1, -1, &v)) {
            return NULL;
        }
        f.flags |= v ? WF_NEGB : 0;
    }
    if (nop == 8) {
        if (!imm_of(in, 6, 0, 1, &v)) {
            return NULL;
        }
        f.flags |= v ? WF_TRA : 0;
    }
    if (nop >= 7) {
        if (!imm_of(in, nop - 1, 0, 1, &v)) {
            return NULL;
        }
        f.flags |= v ? WF_TRB : 0;
    }
    memset(&ei->o[FORM_SLOT], 0, sizeof(ei->o[FORM_SLOT]));
    memcpy(&ei->o[FORM_SLOT].imm, &f, sizeof(f));
    return h_mma_async;
}

EMU_SELECTOR(wgmma)
{
    (void)m;
    (void)f;
    switch ((PtxOpcode)in->op) {
    case PTX_OP_WGMMA_FENCE:
        ei->fn = h_fence;
        return true;
    case PTX_OP_WGMMA_COMMIT_GROUP:
        ei->fn = h_commit;
        return true;
    case PTX_OP_WGMMA_WAIT_GROUP:
        ei->fn = ei->nopnd == 1 && ei->o[0].kind == EO_IMM ? h_wait : NULL;
        return true;
    case PTX_OP_WGMMA_MMA_ASYNC:
        ei->fn = select_mma_async(in, ei);
        return true;
    case PTX_OP_WGMMA_MMA_ASYNC_SP:
        ei->fn = h_mma_sp;
        return true;
    case PTX_OP_SETMAXNREG: {
        uint64_t n = ei->o[0].imm;
        if (ei->nopnd != 1 || ei->o[0].kind != EO_IMM) {
            ei->fn = NULL;
        } else {
            ei->fn = n >= 24 && n <= 256 && n % 8 == 0 ? h_setmaxnreg
                                                      : h_setmaxnreg_bad;
        }
        return true;
    }
    default:
        return false;
    }
}
