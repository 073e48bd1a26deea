/*
 * emu/ops_bulk.c: the bulk asynchronous operations of compute_90 (PTX
 * ISA 9.0, "Data Movement and Conversion Instructions: cp.async.bulk",
 * "cp.reduce.async.bulk", "cp.async.bulk.prefetch", "Tensor copy
 * instructions: cp.async.bulk.tensor", "cp.reduce.async.bulk.tensor",
 * "cp.async.bulk.prefetch.tensor", "cp.async.bulk.commit_group /
 * wait_group", "st.async", "red.async").
 *
 * Completion.  Every operation is performed when it is issued: its bytes
 * have moved before the next instruction runs.  An operation completing
 * on an mbarrier then performs complete_tx of its byte count there
 * (ops_mbarrier.c); one of the bulk async-group then counts in the
 * thread's open group.  cp.async.bulk.commit_group closes that group,
 * and wait_group N / wait_group.read N retire all committed groups but
 * the newest N (EmuWarp.bulk_open / bulk_groups, per thread).  As every
 * group is complete by construction, the waits never block; what a real
 * GPU adds is only latency, so any program correct on hardware gets the
 * same result here, and a program that reads shared memory a bulk store
 * reads before waiting sees no race here either.
 *
 * Checks, as faults located at the instruction: sizes and addresses of
 * the non-tensor forms multiples of 16 (ISA: "size ... multiple of 16",
 * "srcMem and dstMem must be 16-byte aligned"), the whole source and
 * destination ranges inside one allocation or shared window (checked
 * before any byte moves), the mbarrier initialised, the shared-memory
 * side of a tensor copy 128-byte aligned, the tensor map valid and
 * 64-byte aligned, its rank equal to the instruction's .Nd.
 *
 * Tensor copies (tile mode only; im2col is refused at load): the box of
 * a tensor map is traversed with dimension 0 fastest; along dimension i
 * (i >= 1) ceil(boxDim[i] / elementStrides[i]) elements, coordinates
 * c + k * elementStrides[i]; along dimension 0 boxDim[0] elements (the
 * CUDA driver API ignores elementStrides[0] without interleave).  In
 * shared memory the box is dense in that order, then swizzled
 * (emu_tmap_swizzle).  A load fills out-of-bound elements with zero, or
 * with the canonical NaN of the type for the NaN fill; a store or
 * reduction skips them.  complete_tx counts the whole box.
 */
#include <string.h>

#include "emu/access.h"
#include "emu/async.h"
#include "emu/cluster.h"
#include "emu/exec.h"
#include "emu/fp.h"
#include "emu/insninfo.h"
#include "emu/memory.h"
#include "emu/ops.h"
#include "emu/tensormap.h"
#include "ptx/opcode.h"

/* aux: kind flags in bits 0..8, the reduction in 9..12, the tensor
 * rank in 13..15 */
enum {
    BK_SRC_GLOBAL = 1u << 0,    /* source in global memory */
    BK_MBAR = 1u << 1,          /* completes on an mbarrier */
    BK_GROUP = 1u << 2,         /* completes in the bulk async-group */
    BK_LOAD = 1u << 3,          /* tensor: global -> shared */
    BK_STORE = 1u << 4,         /* tensor: shared -> global */
    BK_REDUCE = 1u << 5,        /* reduction into the destination */
    BK_PREFETCH = 1u << 6,      /* tensor prefetch */
    BK_READ = 1u << 7,          /* wait_group.read */
    BK_MCAST = 1u << 8          /* .multicast::cluster: ctaMask operand */
};
#define BK_OP(aux) (((aux) >> 9) & 15u)
#define BK_RANK(aux) (((aux) >> 13) & 7u)
#define BK_OPSHIFT 9
#define BK_RANKSHIFT 13

typedef enum RedOp {
    R_NONE, R_ADD, R_MIN, R_MAX, R_INC, R_DEC, R_AND, R_OR, R_XOR
} RedOp;

static const char *const red_name[] = {
    "", "add", "min", "max", "inc", "dec", "and", "or", "xor"
};

static RedOp red_of(PtxMod m)
{
    switch (m) {
    case PTX_M_ADD: return R_ADD;
    case PTX_M_MIN: return R_MIN;
    case PTX_M_MAX: return R_MAX;
    case PTX_M_INC: return R_INC;
    case PTX_M_DEC: return R_DEC;
    case PTX_M_RED_AND: return R_AND;
    case PTX_M_RED_OR: return R_OR;
    case PTX_M_RED_XOR: return R_XOR;
    default: return R_NONE;
    }
}

/* ------------------------------------------------------- reductions */

/* Where the reduction lands: the ISA allows fewer combinations in
 * shared::cluster (cp.reduce.async.bulk, red.async) than in global. */
static bool red_ok(RedOp op, PtxType t, bool global)
{
    bool i32 = t == PTX_T_U32 || t == PTX_T_S32;
    bool half = t == PTX_T_F16 || t == PTX_T_BF16;
    switch (op) {
    case R_ADD:
        return i32 || t == PTX_T_U64 ||
               (global && (t == PTX_T_F32 || t == PTX_T_F64 || half));
    case R_MIN:
    case R_MAX:
        return i32 || (global && (t == PTX_T_U64 || t == PTX_T_S64 ||
                                  half));
    case R_INC:
    case R_DEC:
        return t == PTX_T_U32;
    case R_AND:
    case R_OR:
    case R_XOR:
        return t == PTX_T_B32 || t == PTX_T_B64;
    default:
        return false;
    }
}

static uint32_t ftz32(uint32_t b)
{
    return (b & 0x7f800000u) == 0 ? b & 0x80000000u : b;
}

static uint16_t half_op(RedOp op, PtxType t, uint16_t a, uint16_t b)
{
    const FpFmt *fmt = t == PTX_T_F16 ? &fp_fmt_f16 : &fp_fmt_bf16;
    double x = fp_decode(fmt, a), y = fp_decode(fmt, b);
    if (op == R_ADD) {
        /* .noftz: round to nearest, subnormals kept */
        double e;
        double hi = fp_two_sum(x, y, &e);
        return (uint16_t)fp_round_hilo(fmt, hi, e, FP_RN, 0);
    }
    /* min/max: a NaN operand yields the other; -0 < +0 */
    if (x != x) {
        return b;
    }
    if (y != y) {
        return a;
    }
    bool less = x < y || (x == y && (a & 0x8000u) && !(b & 0x8000u));
    return (op == R_MIN) == less ? a : b;
}

/* old op= v for one element of type t (width from t). */
static uint64_t red_apply(RedOp op, PtxType t, uint64_t old, uint64_t v,
                          bool ftz)
{
    bool s = t == PTX_T_S32 || t == PTX_T_S64;
    bool w64 = ptx_type_bits(t) == 64;
    if (t == PTX_T_F16 || t == PTX_T_BF16) {
        return half_op(op, t, (uint16_t)old, (uint16_t)v);
    }
    if (t == PTX_T_F32) {
        uint32_t a = (uint32_t)old, b = (uint32_t)v;
        if (ftz) {
            return ftz32(fp_u32(fp_f32(ftz32(a)) + fp_f32(ftz32(b))));
        }
        return fp_u32(fp_f32(a) + fp_f32(b));
    }
    if (t == PTX_T_F64) {
        return fp_u64(fp_f64(old) + fp_f64(v));
    }
    if (!w64) {
        old = (uint32_t)old;
        v = (uint32_t)v;
    }
    int64_t so = w64 ? (int64_t)old : (int32_t)old;
    int64_t sv = w64 ? (int64_t)v : (int32_t)v;
    switch (op) {
    case R_ADD: return old + v;
    case R_MIN: return s ? (so < sv ? old : v) : (old < v ? old : v);
    case R_MAX: return s ? (so > sv ? old : v) : (old > v ? old : v);
    case R_INC: return old >= v ? 0 : old + 1;
    case R_DEC: return (old == 0 || old > v) ? v : old - 1;
    case R_AND: return old & v;
    case R_OR: return old | v;
    case R_XOR: return old ^ v;
    default: return old;
    }
}

/* Reduce the element at d (size n bytes) with the value bits v. */
static void red_elem(EmuCtx *x, RedOp op, PtxType t, bool ftz, uint8_t *d,
                     uint64_t v, unsigned n)
{
    uint64_t old = 0;
    memcpy(&old, d, n);
    uint64_t r = red_apply(op, t, old, v, ftz);
    if (memcmp(&r, d, n) != 0) {
        memcpy(d, &r, n);
        emu_progress(x->cta);
    }
}

/* ------------------------------------------------------- utilities */

/* Element k of an EO_VEC operand. */
static uint64_t vec_elem(EmuCtx *x, const EmuOpnd *o, unsigned k,
                         unsigned lane)
{
    uint32_t s = x->func->vslots[o->reg + k];
    return x->regs[(size_t)s * EMU_WARP_SIZE + lane];
}

static const char *opname(const EmuInsn *i)
{
    return ptx_opinfo((PtxOpcode)i->op)->name;
}

/* Does generic/explicit address a in space sp resolve to global
 * memory? */
static bool is_global(PtxSpace sp, uint64_t a)
{
    uint64_t off;
    return emu_space_of(sp, a, &off) == PTX_SPACE_GLOBAL;
}

/* Host bytes of [a, a+n) (n > 0, both multiples of 16) for a bulk
 * operation, checked as a whole and noted as one access of `kind`: NULL
 * after a fault. */
static uint8_t *bulk_range(EmuCtx *x, const EmuInsn *i, unsigned lane,
                           PtxSpace sp, uint64_t a, uint64_t n,
                           EmuAccKind kind)
{
    bool write = emu_acc_writes(kind);
    uint8_t *p = emu_mem_guest(x, lane, sp, a, 16, write);
    if (!p) {
        return NULL;
    }
    if (n == 16) {
        emu_access_note(x, lane, sp, a, 16, kind);
        return p;
    }
    uint8_t *q = emu_mem_guest(x, lane, sp, a + n - 16, 16, write);
    if (!q) {
        return NULL;
    }
    bool one = is_global(sp, a)
               ? emu_mem_find(x->dev->mem, a, n) != NULL
               : q == p + (n - 16) &&
                 a >> EMU_CLUSTER_RANK_SHIFT ==
                     (a + n - 16) >> EMU_CLUSTER_RANK_SHIFT;
    if (!one) {
        emu_fault(x, EMU_ERR_ILLEGAL_ADDRESS, lane, a, 16, sp,
                  "%s: the %llu bytes at %s address 0x%llx span more than "
                  "one allocation or shared window", opname(i),
                  (unsigned long long)n, ptx_space_name(sp),
                  (unsigned long long)a);
        return NULL;
    }
    emu_access_note(x, lane, sp, a, (uint32_t)n, kind);
    return p;
}

static void move_bytes(EmuCtx *x, uint8_t *d, const uint8_t *s, size_t n)
{
    if (d != s && memcmp(d, s, n) != 0) {
        memmove(d, s, n);
        emu_progress(x->cta);
    }
}

/* An operation of the bulk async-group was issued by lane. */
static void group_issue(EmuCtx *x, unsigned lane)
{
    x->warp->bulk_open[lane]++;
    emu_async_issue(x, EMU_CHAN_BULK, emu_async_warp_id(x));
}

/* ---------------------------------------------- non-tensor bulk ops */

/* size and both addresses multiples of 16 (PTX ISA) */
static bool check16(EmuCtx *x, const EmuInsn *i, unsigned lane,
                    PtxSpace dsp, PtxSpace ssp, uint64_t da, uint64_t sa,
                    uint64_t n)
{
    if (((n | da | sa) & 15) == 0) {
        return true;
    }
    emu_fault(x, EMU_ERR_MISALIGNED, lane, (da & 15) ? da : sa,
              (uint32_t)n, (da & 15) ? dsp : ssp, "%s: size %llu and addresses 0x%llx <- "
              "0x%llx must be multiples of 16", opname(i),
              (unsigned long long)n, (unsigned long long)da,
              (unsigned long long)sa);
    return false;
}

/* The shared::cluster address of offset a (any CTA) in the CTA of
 * cluster rank r (emu/cluster.h). */
static uint64_t rank_addr(uint64_t a, unsigned r)
{
    uint64_t off = a & (((uint64_t)1 << EMU_CLUSTER_RANK_SHIFT) - 1);
    return off | (uint64_t)(r + 1) << EMU_CLUSTER_RANK_SHIFT;
}

/* The ctaMask of a .multicast::cluster operation, else 0. */
static uint32_t cta_mask(EmuCtx *x, const EmuInsn *i, unsigned k,
                         unsigned lane)
{
    return (i->aux & BK_MCAST) ? (uint32_t)emu_src(x, &i->o[k], lane) &
                                     0xffffu
                               : 0;
}

/* One destination of op_bulk; false after a fault. */
static bool bulk_one(EmuCtx *x, const EmuInsn *i, unsigned lane,
                     PtxSpace ssp, uint64_t da, uint64_t sa, uint64_t n,
                     uint64_t ma)
{
    PtxSpace dsp = (PtxSpace)i->space;
    RedOp op = (RedOp)BK_OP(i->aux);
    PtxType t = (PtxType)i->type;
    unsigned es = op ? ptx_type_bits(t) / 8 : 1;
    /* .add.f32 into global memory flushes subnormal inputs and results,
     * as red/atom .add.f32 on global memory do (PTX ISA, atom); the
     * ISA text of cp.reduce.async.bulk does not say otherwise */
    bool ftz = dsp == PTX_SPACE_GLOBAL;
    if ((i->aux & BK_MBAR) && !emu_mbar_check(x, i, lane, dsp, ma)) {
        return false;
    }
    if (n) {
        const uint8_t *s = bulk_range(x, i, lane, ssp, sa, n,
                                      EMU_ACC_ASYNC_READ);
        uint8_t *d = s ? bulk_range(x, i, lane, dsp, da, n,
                                    op ? EMU_ACC_ASYNC_ATOMIC
                                       : EMU_ACC_ASYNC_WRITE)
                       : NULL;
        if (!d) {
            return false;
        }
        if (!op) {
            move_bytes(x, d, s, (size_t)n);
        }
        for (uint64_t k = 0; op && k < n; k += es) {
            uint64_t v = 0;
            memcpy(&v, s + k, es);
            red_elem(x, op, t, ftz, d + k, v, es);
        }
    }
    if (i->aux & BK_MBAR) {
        return emu_mbar_complete_tx(x, i, lane, dsp, ma, n);
    }
    group_issue(x, lane);
    return true;
}

/* cp.async.bulk: [dst], [src], size{, [mbar]{, ctaMask}}: global or
 * shared::cta to shared::cta/cluster (mbarrier; multicast: to the same
 * offset in every CTA of ctaMask, each completing on its own mbarrier
 * at the offset of mbar), shared::cta to global (bulk_group).
 * cp.reduce.async.bulk: the same shapes with a reduction of .type. */
static void op_bulk(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    PtxSpace dsp = (PtxSpace)i->space;
    PtxSpace ssp = (i->aux & BK_SRC_GLOBAL) ? PTX_SPACE_GLOBAL
                                             : PTX_SPACE_SHARED;
    EMU_FOR_LANES(mask, lane) {
        uint64_t da = emu_lane_addr(x, &i->o[0], lane);
        uint64_t sa = emu_lane_addr(x, &i->o[1], lane);
        uint64_t n = emu_src(x, &i->o[2], lane) & 0xffffffffu;
        uint64_t ma = (i->aux & BK_MBAR) ? emu_lane_addr(x, &i->o[3], lane)
                                         : 0;
        if (!check16(x, i, lane, dsp, ssp, da, sa, n)) {
            return;
        }
        if (!(i->aux & BK_MCAST)) {
            if (!bulk_one(x, i, lane, ssp, da, sa, n, ma)) {
                return;
            }
            continue;
        }
        for (uint32_t m = cta_mask(x, i, 4, lane); m; m &= m - 1) {
            unsigned r = (unsigned)__builtin_ctz(m);
            if (!bulk_one(x, i, lane, ssp, rank_addr(da, r), sa, n,
                          rank_addr(ma, r))) {
                return;
            }
        }
    }
}

/* cp.async.bulk.prefetch.L2.global [src], size: no cache here; the
 * operands are still checked (a prefetch of a bad range is no fault on
 * hardware, so only the ISA's operand rules fault). */
static void op_bulk_prefetch(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        uint64_t sa = emu_lane_addr(x, &i->o[0], lane);
        uint64_t n = emu_src(x, &i->o[1], lane) & 0xffffffffu;
        if (!check16(x, i, lane, PTX_SPACE_GLOBAL, PTX_SPACE_GLOBAL, 0, sa,
                     n)) {
            return;
        }
    }
}

static void op_commit(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    (void)i;
    EmuWarp *w = x->warp;
    if (mask) {
        emu_async_commit(x, EMU_CHAN_BULK, emu_async_warp_id(x));
    }
    EMU_FOR_LANES(mask, lane) {
        /* an empty group is legal (and complete) */
        w->bulk_groups[lane]++;
        w->bulk_open[lane] = 0;
    }
}

static void op_wait(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EmuWarp *w = x->warp;
    uint64_t keep = i->o[0].imm;
    if (mask) {
        emu_async_wait(x, EMU_WAIT_BULK_GROUP, EMU_CHAN_BULK,
                       emu_async_warp_id(x),
                       keep > UINT32_MAX ? UINT32_MAX : (uint32_t)keep,
                       false);
    }
    EMU_FOR_LANES(mask, lane) {
        /* complete at issue: retiring is bookkeeping only */
        if (w->bulk_groups[lane] > keep) {
            w->bulk_groups[lane] = (uint32_t)keep;
        }
    }
}

/* st.async / red.async .shared::cluster.mbarrier::complete_tx::bytes
 * [a], b, [mbar] */
static void op_st_async(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    PtxSpace sp = PTX_SPACE_SHARED_CLUSTER;
    PtxType t = (PtxType)i->type;
    unsigned es = ptx_type_bits(t) / 8;
    unsigned nv = i->o[1].kind == EO_VEC ? i->o[1].n : 1;
    RedOp op = (RedOp)BK_OP(i->aux);
    EMU_FOR_LANES(mask, lane) {
        uint64_t a = emu_lane_addr(x, &i->o[0], lane);
        uint64_t ma = emu_lane_addr(x, &i->o[2], lane);
        if (!emu_mbar_check(x, i, lane, sp, ma)) {
            return;
        }
        uint8_t *d = emu_access(x, lane, sp, a, es * nv,
                                op ? EMU_ACC_ASYNC_ATOMIC
                                   : EMU_ACC_ASYNC_WRITE);
        if (!d) {
            return;
        }
        for (unsigned k = 0; k < nv; k++) {
            uint64_t v = i->o[1].kind == EO_VEC ? vec_elem(x, &i->o[1], k,
                                                           lane)
                                                : emu_src(x, &i->o[1], lane);
            if (op) {
                red_elem(x, op, t, false, d + k * es, v, es);
            } else if (memcmp(d + k * es, &v, es) != 0) {
                memcpy(d + k * es, &v, es);
                emu_progress(x->cta);
            }
        }
        if (!emu_mbar_complete_tx(x, i, lane, sp, ma, es * nv)) {
            return;
        }
    }
}

/* ----------------------------------------------------- tensor copies */

typedef struct Tile {
    EmuTmap m;
    int32_t c[EMU_TMAP_MAX_RANK];       /* box origin */
    uint32_t n[EMU_TMAP_MAX_RANK];      /* elements traversed per dim */
    uint64_t bytes;                     /* of the box in shared memory */
    uint64_t smem;                      /* shared::cta/cluster address */
    PtxSpace ssp;
} Tile;

/* Read and check the tensor map and coordinates of operand o. */
static bool tile_setup(EmuCtx *x, const EmuInsn *i, unsigned lane,
                       const EmuOpnd *o, Tile *t)
{
    uint64_t ma = vec_elem(x, o, 0, lane);
    unsigned rank = BK_RANK(i->aux);
    if (ma % EMU_TMAP_ALIGN) {
        emu_fault(x, EMU_ERR_MISALIGNED, lane, ma, EMU_TMAP_BYTES,
                  PTX_SPACE_GENERIC, "%s: tensor map address 0x%llx is not "
                  "64-byte aligned", opname(i), (unsigned long long)ma);
        return false;
    }
    uint8_t raw[EMU_TMAP_BYTES];
    for (unsigned h = 0; h < EMU_TMAP_BYTES; h += EMU_TMAP_ALIGN) {
        const uint8_t *p = emu_access(x, lane, PTX_SPACE_GENERIC, ma + h,
                                      EMU_TMAP_ALIGN, EMU_ACC_ASYNC_READ);
        if (!p) {
            return false;
        }
        memcpy(raw + h, p, EMU_TMAP_ALIGN);
    }
    const char *why;
    if (!emu_tmap_decode(raw, &t->m, &why)) {
        emu_fault(x, EMU_ERR_ILLEGAL_INSTRUCTION, lane, ma, EMU_TMAP_BYTES,
                  PTX_SPACE_GENERIC, "%s: the tensor map at 0x%llx is not "
                  "valid: %s", opname(i), (unsigned long long)ma, why);
        return false;
    }
    if (t->m.rank != rank) {
        emu_fault(x, EMU_ERR_ILLEGAL_INSTRUCTION, lane, ma, EMU_TMAP_BYTES,
                  PTX_SPACE_GENERIC, "%s.%ud with a tensor map of rank %u",
                  opname(i), rank, t->m.rank);
        return false;
    }
    t->bytes = t->m.esize;
    for (unsigned d = 0; d < EMU_TMAP_MAX_RANK; d++) {
        bool in = d < rank;
        t->c[d] = in ? (int32_t)vec_elem(x, o, 1 + d, lane) : 0;
        uint32_t es = d == 0 ? 1 : t->m.estride[d];
        t->n[d] = in ? (t->m.box[d] + es - 1) / es : 1;
        t->bytes *= t->n[d];
    }
    return true;
}

static bool smem_check(EmuCtx *x, const EmuInsn *i, unsigned lane,
                       Tile *t)
{
    if (t->smem % 128) {
        emu_fault(x, EMU_ERR_MISALIGNED, lane, t->smem, 128, t->ssp,
                  "%s: shared memory address 0x%llx is not 128-byte "
                  "aligned", opname(i), (unsigned long long)t->smem);
        return false;
    }
    return true;
}

/* The canonical NaN of a tensor element type (NaN fill). */
static uint64_t nan_of(unsigned dtype)
{
    switch (dtype) {
    case EMU_TMAP_F16: return 0x7e00u;
    case EMU_TMAP_BF16: return 0x7fc0u;
    case EMU_TMAP_F64: return 0x7ff8000000000000ull;
    default: return 0x7fc00000u;
    }
}

/* The PTX type a tensor reduction computes in (NONE: none allowed). */
static PtxType red_type(RedOp op, unsigned dtype)
{
    bool bits = op == R_AND || op == R_OR || op == R_XOR;
    switch (dtype) {
    case EMU_TMAP_U32: return bits ? PTX_T_B32 : PTX_T_U32;
    case EMU_TMAP_S32: return bits ? PTX_T_B32 : PTX_T_S32;
    case EMU_TMAP_U64: return bits ? PTX_T_B64 : PTX_T_U64;
    case EMU_TMAP_S64: return bits ? PTX_T_B64 : PTX_T_S64;
    case EMU_TMAP_F16: return PTX_T_F16;
    case EMU_TMAP_BF16: return PTX_T_BF16;
    case EMU_TMAP_F32: case EMU_TMAP_F32_FTZ: case EMU_TMAP_TF32:
    case EMU_TMAP_TF32_FTZ: return PTX_T_F32;
    case EMU_TMAP_F64: return PTX_T_F64;
    default: return PTX_T_NONE;
    }
}

/* Walk the box: dry = resolve every address (faults) without changing
 * memory; else move (and reduce) the elements, noting each access. */
static bool tile_walk(EmuCtx *x, const EmuInsn *i, unsigned lane,
                      const Tile *t, bool dry)
{
    const EmuTmap *m = &t->m;
    unsigned es = m->esize;
    RedOp op = (RedOp)BK_OP(i->aux);
    PtxType rt = red_type(op, m->dtype);
    bool ftz = m->dtype == EMU_TMAP_F32_FTZ || m->dtype == EMU_TMAP_TF32_FTZ;
    bool load = (i->aux & BK_LOAD) != 0;
    uint64_t fill = m->oobfill == EMU_TMAP_OOB_NAN ? nan_of(m->dtype) : 0;
    uint64_t off = 0;
    uint32_t k[EMU_TMAP_MAX_RANK] = { 0 };
    for (;;) {
        /* the row k[1..4]: its coordinates and whether it is inside */
        bool row_in = true;
        uint64_t gbase = m->addr;
        for (unsigned d = 1; d < EMU_TMAP_MAX_RANK; d++) {
            int64_t c = (int64_t)t->c[d] + (int64_t)k[d] * m->estride[d];
            if (d < m->rank) {
                row_in &= c >= 0 && (uint64_t)c < m->dim[d];
                gbase += (uint64_t)c * m->gstride[d - 1];
            }
        }
        for (uint32_t k0 = 0; k0 < t->n[0]; k0++, off += es) {
            int64_t c0 = (int64_t)t->c[0] + k0;
            bool in = row_in && c0 >= 0 && (uint64_t)c0 < m->dim[0];
            uint64_t sa = emu_tmap_swizzle(m->swizzle, t->smem + off);
            uint8_t *s = emu_mem_guest(x, lane, t->ssp, sa, es, load);
            if (!s) {
                return false;
            }
            if (!in && !load) {
                continue;
            }
            uint8_t *g = NULL;
            if (in) {
                uint64_t ga = gbase + (uint64_t)c0 * es;
                g = emu_mem_guest(x, lane, PTX_SPACE_GLOBAL, ga, es, !load);
                if (!g) {
                    return false;
                }
            }
            if (dry) {
                continue;
            }
            /* checked by the dry pass, noted by this one */
            if (g) {
                emu_access_note(x, lane, PTX_SPACE_GLOBAL,
                                gbase + (uint64_t)c0 * es, es,
                                load ? EMU_ACC_ASYNC_READ
                                : op ? EMU_ACC_ASYNC_ATOMIC
                                     : EMU_ACC_ASYNC_WRITE);
            }
            emu_access_note(x, lane, t->ssp, sa, es,
                            load ? EMU_ACC_ASYNC_WRITE : EMU_ACC_ASYNC_READ);
            if (load) {
                uint64_t v = fill;
                if (g) {
                    memcpy(&v, g, es);
                }
                if (memcmp(s, &v, es) != 0) {
                    memcpy(s, &v, es);
                    emu_progress(x->cta);
                }
            } else if (op) {
                uint64_t v = 0;
                memcpy(&v, s, es);
                red_elem(x, op, rt, ftz, g, v, es);
            } else if (memcmp(g, s, es) != 0) {
                memcpy(g, s, es);
                emu_progress(x->cta);
            }
        }
        unsigned d = 1;
        while (d < EMU_TMAP_MAX_RANK && ++k[d] == t->n[d]) {
            k[d++] = 0;
        }
        if (d == EMU_TMAP_MAX_RANK) {
            return true;
        }
    }
}

/* One shared-memory side of a tensor copy (a multicast load has
 * several); false after a fault. */
static bool tile_one(EmuCtx *x, const EmuInsn *i, unsigned lane, Tile *t,
                     uint64_t smem, uint64_t ma)
{
    bool load = (i->aux & BK_LOAD) != 0;
    t->smem = smem;
    if (!smem_check(x, i, lane, t) ||
        (load && !emu_mbar_check(x, i, lane, t->ssp, ma)) ||
        !tile_walk(x, i, lane, t, true) ||
        !tile_walk(x, i, lane, t, false)) {
        return false;
    }
    if (load) {
        return emu_mbar_complete_tx(x, i, lane, t->ssp, ma, t->bytes);
    }
    group_issue(x, lane);
    return true;
}

/* cp.async.bulk.tensor / cp.reduce.async.bulk.tensor /
 * cp.async.bulk.prefetch.tensor, tile mode */
static void op_tensor(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    bool load = (i->aux & BK_LOAD) != 0;
    const EmuOpnd *to = &i->o[load ? 1 : 0];
    EMU_FOR_LANES(mask, lane) {
        Tile t;
        if (!tile_setup(x, i, lane, to, &t)) {
            return;
        }
        if (i->aux & BK_PREFETCH) {
            continue;
        }
        RedOp op = (RedOp)BK_OP(i->aux);
        PtxType rt = red_type(op, t.m.dtype);
        if (op && (rt == PTX_T_NONE || !red_ok(op, rt, true))) {
            emu_fault(x, EMU_ERR_ILLEGAL_INSTRUCTION, lane, t.m.addr, 0,
                      PTX_SPACE_GLOBAL, "%s: reduction .%s is not defined "
                      "for the tensor map's data type %u", opname(i),
                      red_name[op], t.m.dtype);
            return;
        }
        t.ssp = load ? (PtxSpace)i->space : PTX_SPACE_SHARED;
        uint64_t sa = emu_lane_addr(x, &i->o[load ? 0 : 1], lane);
        uint64_t ma = load ? emu_lane_addr(x, &i->o[2], lane) : 0;
        if (!(i->aux & BK_MCAST)) {
            if (!tile_one(x, i, lane, &t, sa, ma)) {
                return;
            }
            continue;
        }
        for (uint32_t m = cta_mask(x, i, 3, lane); m; m &= m - 1) {
            unsigned r = (unsigned)__builtin_ctz(m);
            if (!tile_one(x, i, lane, &t, rank_addr(sa, r),
                          rank_addr(ma, r))) {
                return;
            }
        }
    }
}

/* ---------------------------------------------------------- decode */

static bool has_mod(const IrInsn *in, PtxMod m)
{
    for (unsigned k = 0; k < in->nsfx; k++) {
        if (!(in->sfx[k] & IR_SFX_TYPE) && (PtxMod)in->sfx[k] == m) {
            return true;
        }
    }
    return false;
}

static bool is_value(const EmuInsn *ei, unsigned k)
{
    return k < ei->nopnd &&
           (ei->o[k].kind == EO_REG || ei->o[k].kind == EO_IMM);
}

static bool is_addr(const EmuInsn *ei, unsigned k)
{
    return k < ei->nopnd && ei->o[k].kind == EO_ADDR;
}

/* [map, {c...}]: a register holding the map's generic address and rank
 * coordinates, each a register or an immediate */
static bool ir_elem_ok(const IrOperand *e)
{
    return e->kind == IR_O_REG || e->kind == IR_O_IMM;
}

static bool tensor_opnd(const IrInsn *in, const EmuInsn *ei, unsigned k,
                        unsigned rank)
{
    if (k >= ei->nopnd || ei->o[k].kind != EO_VEC ||
        ei->o[k].n != rank + 1 || in->opnds[k].kind != IR_O_TUPLE ||
        in->opnds[k].n < 1 || in->opnds[k].u.elems[0].kind != IR_O_REG) {
        return false;
    }
    const IrOperand *io = &in->opnds[k];
    for (uint32_t e = 1; e < io->n; e++) {
        const IrOperand *el = &io->u.elems[e];
        if (el->kind != IR_O_VEC) {
            if (!ir_elem_ok(el)) {
                return false;
            }
            continue;
        }
        for (uint32_t c = 0; c < el->n; c++) {
            if (!ir_elem_ok(&el->u.elems[c])) {
                return false;
            }
        }
    }
    return true;
}

static unsigned geom_rank(const IrInsn *in)
{
    switch (ir_insn_mod(in, PTX_MG_GEOM)) {
    case PTX_M_G1D: return 1;
    case PTX_M_G2D: return 2;
    case PTX_M_G3D: return 3;
    case PTX_M_G4D: return 4;
    case PTX_M_G5D: return 5;
    default: return 0;
    }
}

static EmuHandler sel_bulk(const IrInsn *in, EmuInsn *ei)
{
    PtxMod src = ir_insn_mod(in, PTX_MG_SPACE2);
    PtxMod done = ir_insn_mod(in, PTX_MG_COMPLETE);
    bool reduce = in->op == PTX_OP_CP_REDUCE_ASYNC_BULK;
    unsigned aux = 0;
    PtxMod mc = ir_insn_mod(in, PTX_MG_MULTICAST);
    if (has_mod(in, PTX_M_CP_MASK) || has_mod(in, PTX_M_IGNORE_OOB) ||
        (mc != PTX_M_NONE && (mc != PTX_M_MULTICAST_CLUSTER || reduce ||
                              src != PTX_M_GLOBAL2 ||
                              ei->space != PTX_SPACE_SHARED_CLUSTER ||
                              ei->nopnd < 5 || !is_value(ei, 4)))) {
        return NULL;                /* sm_100 forms */
    }
    if (mc != PTX_M_NONE) {
        aux |= BK_MCAST;
    }
    if (reduce) {
        RedOp op = red_of(ir_insn_mod(in, PTX_MG_REDOP));
        PtxType t = (PtxType)ei->type;
        bool half = t == PTX_T_F16 || t == PTX_T_BF16;
        bool noftz = has_mod(in, PTX_M_NOFTZ);
        /* f16/bf16 add needs .noftz; nothing else takes it */
        if (!red_ok(op, t, ei->space == PTX_SPACE_GLOBAL) ||
            noftz != (half && op == R_ADD)) {
            return NULL;
        }
        aux |= (unsigned)op << BK_OPSHIFT;
    }
    if ((ei->space == PTX_SPACE_SHARED ||
         ei->space == PTX_SPACE_SHARED_CLUSTER) &&
        done == PTX_M_MBARRIER_COMPLETE_TX_BYTES && is_addr(ei, 3)) {
        if (src == PTX_M_GLOBAL2 && !reduce) {
            aux |= BK_SRC_GLOBAL;
        } else if (ei->space != PTX_SPACE_SHARED_CLUSTER ||
                   (src != PTX_M_SHARED_CTA2 && src != PTX_M_SHARED2)) {
            return NULL;
        }
        ei->aux = (uint16_t)(aux | BK_MBAR);
        return op_bulk;
    }
    if (ei->space == PTX_SPACE_GLOBAL && done == PTX_M_BULK_GROUP &&
        (src == PTX_M_SHARED_CTA2 || src == PTX_M_SHARED2)) {
        ei->aux = (uint16_t)(aux | BK_GROUP);
        return op_bulk;
    }
    return NULL;
}

static EmuHandler sel_tensor(const IrInsn *in, EmuInsn *ei)
{
    unsigned rank = geom_rank(in);
    PtxMod mode = ir_insn_mod(in, PTX_MG_LOADMODE);
    PtxMod src = ir_insn_mod(in, PTX_MG_SPACE2);
    PtxMod done = ir_insn_mod(in, PTX_MG_COMPLETE);
    PtxMod mc = ir_insn_mod(in, PTX_MG_MULTICAST);
    if (!rank || (mode != PTX_M_NONE && mode != PTX_M_TILE) ||
        (mc != PTX_M_NONE && mc != PTX_M_MULTICAST_CLUSTER) ||
        ir_insn_mod(in, PTX_MG_CTAGROUP) != PTX_M_NONE) {
        return NULL;            /* im2col, gather4, sm_100 forms */
    }
    unsigned aux = rank << BK_RANKSHIFT;
    if (mc != PTX_M_NONE) {
        /* loads into shared::cluster only, ctaMask after [mbar] */
        if (in->op != PTX_OP_CP_ASYNC_BULK_TENSOR ||
            ei->space != PTX_SPACE_SHARED_CLUSTER || ei->nopnd < 4 ||
            !is_value(ei, 3)) {
            return NULL;
        }
        aux |= BK_MCAST;
    }
    switch ((PtxOpcode)in->op) {
    case PTX_OP_CP_ASYNC_BULK_PREFETCH_TENSOR:
        ei->aux = (uint16_t)(aux | BK_PREFETCH);
        return tensor_opnd(in, ei, 0, rank)
               ? op_tensor : NULL;
    case PTX_OP_CP_REDUCE_ASYNC_BULK_TENSOR: {
        RedOp op = red_of(ir_insn_mod(in, PTX_MG_REDOP));
        if (!op) {
            return NULL;
        }
        aux |= (unsigned)op << BK_OPSHIFT | BK_REDUCE;
    }
        /* fall through */
    case PTX_OP_CP_ASYNC_BULK_TENSOR:
        if (ei->space == PTX_SPACE_GLOBAL && done == PTX_M_BULK_GROUP &&
            (src == PTX_M_SHARED_CTA2 || src == PTX_M_SHARED2) &&
            tensor_opnd(in, ei, 0, rank) &&
            is_addr(ei, 1)) {
            ei->aux = (uint16_t)(aux | BK_STORE | BK_GROUP);
            return op_tensor;
        }
        if (!(aux & BK_REDUCE) &&
            (ei->space == PTX_SPACE_SHARED ||
             ei->space == PTX_SPACE_SHARED_CLUSTER) &&
            src == PTX_M_GLOBAL2 && done == PTX_M_MBARRIER_COMPLETE_TX_BYTES
            && is_addr(ei, 0) && tensor_opnd(in, ei, 1, rank) &&
            is_addr(ei, 2)) {
            ei->aux = (uint16_t)(aux | BK_LOAD | BK_MBAR);
            return op_tensor;
        }
        return NULL;
    default:
        return NULL;
    }
}

EMU_SELECTOR(bulk)
{
    (void)m;
    (void)f;
    switch ((PtxOpcode)in->op) {
    case PTX_OP_CP_ASYNC_BULK:
    case PTX_OP_CP_REDUCE_ASYNC_BULK:
        ei->fn = sel_bulk(in, ei);
        return true;
    case PTX_OP_CP_ASYNC_BULK_PREFETCH:
        ei->fn = ei->nopnd >= 2 && is_addr(ei, 0) ? op_bulk_prefetch
                                                   : NULL;
        return true;
    case PTX_OP_CP_ASYNC_BULK_COMMIT_GROUP:
        ei->fn = op_commit;
        return true;
    case PTX_OP_CP_ASYNC_BULK_WAIT_GROUP:
        ei->aux = has_mod(in, PTX_M_READ) ? BK_READ : 0;
        ei->fn = ei->o[0].kind == EO_IMM ? op_wait : NULL;
        return true;
    case PTX_OP_CP_ASYNC_BULK_TENSOR:
    case PTX_OP_CP_REDUCE_ASYNC_BULK_TENSOR:
    case PTX_OP_CP_ASYNC_BULK_PREFETCH_TENSOR:
        ei->fn = sel_tensor(in, ei);
        return true;
    case PTX_OP_ST_ASYNC:
    case PTX_OP_RED_ASYNC: {
        RedOp op = R_NONE;
        ei->fn = NULL;
        if (in->op == PTX_OP_RED_ASYNC) {
            op = red_of(ir_insn_mod(in, PTX_MG_REDOP));
            PtxType t = (PtxType)ei->type;
            /* and/or/xor on .b types; the typed ones elsewhere */
            if (!red_ok(op, t, false) || ei->vec != 1) {
                return true;
            }
        }
        ei->aux = (uint16_t)((unsigned)op << BK_OPSHIFT);
        if (ei->space == PTX_SPACE_SHARED_CLUSTER &&
            ir_insn_mod(in, PTX_MG_COMPLETE) ==
                PTX_M_MBARRIER_COMPLETE_TX_BYTES &&
            ei->nopnd == 3 && is_addr(ei, 0) && is_addr(ei, 2) &&
            (ei->o[1].kind == EO_VEC ? ei->o[1].n == ei->vec
                                     : ei->vec == 1)) {
            ei->fn = op_st_async;
        }
        return true;
    }
    default:
        return false;
    }
}
