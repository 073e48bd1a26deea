/*
 * emu/ops_mem.c: loads, stores, atomics and address-space conversions.
 *
 * Every guest access goes through the funnel, emu_access() (emu/access.h:
 * bounds, alignment, writability, faults that name the nearest
 * allocation, the step's access list); ld, st and atom/red, one access
 * per lane in the instruction's space, through its lane-loop form
 * (emu_access_lane, EMU_ACCESS_LANES_HANDLER), which decides once per
 * instruction how to note.  Atomics run lane by
 * lane in ascending lane order, so their outcome is deterministic.
 * Each lane's read-modify-write is one host atomic of its width (a
 * compare-and-swap loop; 128 bits under a striped lock), so that CTAs
 * run by the pool's threads (emu/pool.h) give exact results.
 * Memory writes that change a value bump EmuLaunch.progress, which the
 * scheduler's livelock detector watches.
 *
 * Register slots hold values zero-extended to 64 bits.  The relaxed
 * size rules of PTX ISA 9.4.1: a load into a wider register sign- or
 * zero-extends per the instruction type up to the register's width (the
 * selector records it in aux); a store from a wider register stores the
 * low bytes.  The host is little-endian (checked at compile time).
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
#include "emu/par.h"
#include "emu/pool.h"
#include "ptx/opcode.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "ptxemu's memory handlers assume a little-endian host"
#endif

/* aux of ld/st: element bytes | destination register bits << 8 |
 * sign-extend flag */
#define AUX_ESZ(a) ((unsigned)(a) & 0xffu)
#define AUX_DBITS(a) (((unsigned)(a) >> 8) & 0x7fu)
#define AUX_SEXT 0x8000u

/* Slot of element e of a data operand, or EMU_NOREG (sink). */
static inline uint32_t elem_slot(EmuCtx *x, const EmuOpnd *o, unsigned e)
{
    if (o->kind == EO_VEC) {
        return x->frame->func->vslots[o->reg + e];
    }
    if (o->kind == EO_REG) {
        return o->reg + e;
    }
    return EMU_NOREG;
}

/* Element reads and writes of 1, 2, 4 or 8 bytes are host relaxed
 * atomics (a plain move on x86-64): the CTAs the pool runs at once
 * (emu/pool.h) may read a word that another one updates with an atom,
 * as the CUDA idiom `old = *p; do ... while (atomicCAS(p, ...))` does,
 * and a GPU never tears such an aligned access.  Guest accesses are
 * aligned to their size (the funnel faults otherwise). */
static inline uint64_t rd_le(const uint8_t *p, unsigned n)
{
    switch (n) {
    case 1: return __atomic_load_n(p, __ATOMIC_RELAXED);
    case 2: return __atomic_load_n((const uint16_t *)p, __ATOMIC_RELAXED);
    case 4: return __atomic_load_n((const uint32_t *)p, __ATOMIC_RELAXED);
    case 8: return __atomic_load_n((const uint64_t *)p, __ATOMIC_RELAXED);
    default: {
        uint64_t v = 0;
        memcpy(&v, p, n);
        return v;
    }
    }
}

static inline void wr_le(uint8_t *p, unsigned n, uint64_t v)
{
    switch (n) {
    case 1: __atomic_store_n(p, (uint8_t)v, __ATOMIC_RELAXED); break;
    case 2: __atomic_store_n((uint16_t *)p, (uint16_t)v, __ATOMIC_RELAXED);
        break;
    case 4: __atomic_store_n((uint32_t *)p, (uint32_t)v, __ATOMIC_RELAXED);
        break;
    case 8: __atomic_store_n((uint64_t *)p, v, __ATOMIC_RELAXED); break;
    default: memcpy(p, &v, n); break;
    }
}

static inline uint64_t extend(uint64_t v, unsigned esz, unsigned aux)
{
    unsigned db = AUX_DBITS(aux);
    if ((aux & AUX_SEXT) && esz < 8) {
        unsigned sh = 64 - esz * 8;
        v = (uint64_t)((int64_t)(v << sh) >> sh);
    }
    if (db && db < 64) {
        v &= (1ull << db) - 1;
    }
    return v;
}

/* ld / ldu: d, [a] */
static inline __attribute__((always_inline)) void
ld_lanes(EmuCtx *x, const EmuInsn *i, uint32_t mask,
         EmuAccLanes *acl)
{
    const EmuOpnd *d = &i->o[0], *a = &i->o[1];
    unsigned esz = AUX_ESZ(i->aux), n = i->vec;
    uint32_t size = esz * n;
    PtxSpace sp = (PtxSpace)i->space;
    EMU_FOR_LANES(mask, lane) {
        uint64_t addr = emu_lane_addr(x, a, lane);
        const uint8_t *p = emu_access_lane(x, acl, lane, sp, addr,
                                           size, EMU_ACC_READ);
        if (!p) {
            return;
        }
        for (unsigned e = 0; e < n; e++) {
            uint32_t s = elem_slot(x, d, e);
            if (s != EMU_NOREG) {
                x->regs[(size_t)s * EMU_WARP_SIZE + lane] =
                    extend(rd_le(p + e * esz, esz), esz, i->aux);
            }
        }
    }
}
EMU_ACCESS_LANES_HANDLER(op_ld, ld_lanes)

/* ld of one value into a register: op_ld without the element loop,
 * the element read with a constant-size copy (esz is 1, 2, 4 or 8). */
static inline __attribute__((always_inline)) void
ld1_lanes(EmuCtx *x, const EmuInsn *i, uint32_t mask,
          EmuAccLanes *acl)
{
    const EmuOpnd *a = &i->o[1];
    uint64_t *d = &x->regs[(size_t)i->o[0].reg * EMU_WARP_SIZE];
    unsigned esz = AUX_ESZ(i->aux);
    PtxSpace sp = (PtxSpace)i->space;
    EMU_FOR_LANES(mask, lane) {
        uint64_t addr = emu_lane_addr(x, a, lane);
        const uint8_t *p = emu_access_lane(x, acl, lane, sp, addr,
                                           esz, EMU_ACC_READ);
        if (!p) {
            return;
        }
        uint64_t v;
        switch (esz) {
        case 1: v = rd_le(p, 1); break;
        case 2: v = rd_le(p, 2); break;
        case 4: v = rd_le(p, 4); break;
        default: v = rd_le(p, 8); break;
        }
        d[lane] = extend(v, esz, i->aux);
    }
}
EMU_ACCESS_LANES_HANDLER(op_ld1, ld1_lanes)

/* Fast path: scalar 32-bit load into a register. */
static inline __attribute__((always_inline)) void
ld32_lanes(EmuCtx *x, const EmuInsn *i, uint32_t mask,
           EmuAccLanes *acl)
{
    const EmuOpnd *a = &i->o[1];
    uint64_t *d = &x->regs[(size_t)i->o[0].reg * EMU_WARP_SIZE];
    PtxSpace sp = (PtxSpace)i->space;
    EMU_FOR_LANES(mask, lane) {
        uint64_t addr = emu_lane_addr(x, a, lane);
        const uint8_t *p = emu_access_lane(x, acl, lane, sp, addr,
                                           4, EMU_ACC_READ);
        if (!p) {
            return;
        }
        d[lane] = (uint32_t)rd_le(p, 4);
    }
}
EMU_ACCESS_LANES_HANDLER(op_ld32, ld32_lanes)

/* st: [a], b */
static inline __attribute__((always_inline)) void
st_lanes(EmuCtx *x, const EmuInsn *i, uint32_t mask,
         EmuAccLanes *acl)
{
    const EmuOpnd *a = &i->o[0], *b = &i->o[1];
    unsigned esz = AUX_ESZ(i->aux), n = i->vec;
    uint32_t size = esz * n;
    PtxSpace sp = (PtxSpace)i->space;
    bool changed = false;
    EMU_FOR_LANES(mask, lane) {
        uint64_t addr = emu_lane_addr(x, a, lane);
        uint8_t *p = emu_access_lane(x, acl, lane, sp, addr,
                                     size, EMU_ACC_WRITE);
        if (!p) {
            return;
        }
        for (unsigned e = 0; e < n; e++) {
            uint64_t v;
            if (b->kind == EO_VEC || (b->kind == EO_REG && n > 1)) {
                uint32_t s = elem_slot(x, b, e);
                v = s == EMU_NOREG ? 0
                    : x->regs[(size_t)s * EMU_WARP_SIZE + lane];
            } else {
                v = emu_src(x, b, lane);
            }
            uint64_t m = esz >= 8 ? ~0ull : (1ull << (8 * esz)) - 1;
            if (!changed && rd_le(p + e * esz, esz) != (v & m)) {
                changed = true;
            }
            wr_le(p + e * esz, esz, v);
        }
    }
    if (changed) {
        emu_progress(x->cta);
    }
}
EMU_ACCESS_LANES_HANDLER(op_st, st_lanes)

/* st of one 32-bit value (the common scalar store): op_st without its
 * element loop, per-element operand-kind tests and variable-size
 * compare and copy.  Same order of effects: lanes in order, a fault
 * stops at its lane, progress counts a store that changed memory. */
static inline __attribute__((always_inline)) void
st32_lanes(EmuCtx *x, const EmuInsn *i, uint32_t mask,
           EmuAccLanes *acl)
{
    const EmuOpnd *a = &i->o[0], *b = &i->o[1];
    PtxSpace sp = (PtxSpace)i->space;
    bool changed = false;
    EMU_FOR_LANES(mask, lane) {
        uint64_t addr = emu_lane_addr(x, a, lane);
        uint8_t *p = emu_access_lane(x, acl, lane, sp, addr, 4, EMU_ACC_WRITE);
        if (!p) {
            return;
        }
        uint32_t v = (uint32_t)emu_src(x, b, lane);
        changed |= (uint32_t)rd_le(p, 4) != v;
        wr_le(p, 4, v);
    }
    if (changed) {
        emu_progress(x->cta);
    }
}
EMU_ACCESS_LANES_HANDLER(op_st32, st32_lanes)

/* ------------------------------------------------------------ atomics */

static float f32_of(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return f;
}

static uint32_t bits_of_f32(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

static uint32_t ftz32(uint32_t b)
{
    return (b & 0x7f800000u) == 0 ? b & 0x80000000u : b;
}

static uint64_t atom_op32(unsigned op, PtxType t, uint32_t old, uint32_t b,
                          uint32_t c)
{
    switch (op) {
    case PTX_M_ADD:
        if (t == PTX_T_F32) {
            /* atom.add.f32: RN, subnormal inputs and result flushed */
            return ftz32(bits_of_f32(f32_of(ftz32(old)) + f32_of(ftz32(b))));
        }
        return old + b;
    case PTX_M_MIN:
        if (t == PTX_T_S32) {
            return (int32_t)old < (int32_t)b ? old : b;
        }
        return old < b ? old : b;
    case PTX_M_MAX:
        if (t == PTX_T_S32) {
            return (int32_t)old > (int32_t)b ? old : b;
        }
        return old > b ? old : b;
    case PTX_M_INC: return old >= b ? 0 : old + 1;
    case PTX_M_DEC: return (old == 0 || old > b) ? b : old - 1;
    case PTX_M_RED_AND: return old & b;
    case PTX_M_RED_OR: return old | b;
    case PTX_M_RED_XOR: return old ^ b;
    case PTX_M_EXCH: return b;
    case PTX_M_CAS: return old == b ? c : old;
    default: return old;
    }
}

/* f16/bf16 add, round to nearest, no flush (.noftz). */
static uint16_t add_half(const FpFmt *fmt, uint16_t a, uint16_t b)
{
    double e;
    double hi = fp_two_sum(fp_decode(fmt, a), fp_decode(fmt, b), &e);
    return (uint16_t)fp_round_hilo(fmt, hi, e, FP_RN, 0);
}

static uint32_t add_half2(PtxType t, uint32_t a, uint32_t b)
{
    const FpFmt *fmt = (t == PTX_T_F16X2 || t == PTX_T_F16) ? &fp_fmt_f16
                                                          : &fp_fmt_bf16;
    uint32_t lo = add_half(fmt, (uint16_t)a, (uint16_t)b);
    uint32_t hi = add_half(fmt, (uint16_t)(a >> 16), (uint16_t)(b >> 16));
    return lo | hi << 16;
}

static uint64_t atom_op64(unsigned op, PtxType t, uint64_t old, uint64_t b,
                          uint64_t c)
{
    switch (op) {
    case PTX_M_ADD:
        if (t == PTX_T_F64) {
            double x, y;
            memcpy(&x, &old, 8);
            memcpy(&y, &b, 8);
            x += y;
            memcpy(&old, &x, 8);
            return old;
        }
        return old + b;
    case PTX_M_MIN:
        if (t == PTX_T_S64) {
            return (int64_t)old < (int64_t)b ? old : b;
        }
        return old < b ? old : b;
    case PTX_M_MAX:
        if (t == PTX_T_S64) {
            return (int64_t)old > (int64_t)b ? old : b;
        }
        return old > b ? old : b;
    case PTX_M_RED_AND: return old & b;
    case PTX_M_RED_OR: return old | b;
    case PTX_M_RED_XOR: return old ^ b;
    case PTX_M_EXCH: return b;
    case PTX_M_CAS: return old == b ? c : old;
    default: return old;
    }
}

/* Host atomics of 2, 4 or 8 bytes at p (aligned: guest atomics fault
 * when misaligned, and allocations are EMU_ALLOC_ALIGN aligned). */
static inline uint64_t hload(const uint8_t *p, unsigned sz)
{
    switch (sz) {
    case 2: return __atomic_load_n((const uint16_t *)p, __ATOMIC_RELAXED);
    case 4: return __atomic_load_n((const uint32_t *)p, __ATOMIC_RELAXED);
    default: return __atomic_load_n((const uint64_t *)p, __ATOMIC_RELAXED);
    }
}

/* Store nv if *p still holds *old; else *old = what it holds. */
static inline bool hcas(uint8_t *p, unsigned sz, uint64_t *old, uint64_t nv)
{
    switch (sz) {
    case 2: {
        uint16_t o = (uint16_t)*old;
        bool ok = __atomic_compare_exchange_n((uint16_t *)p, &o,
                                              (uint16_t)nv, false,
                                              __ATOMIC_SEQ_CST,
                                              __ATOMIC_RELAXED);
        *old = o;
        return ok;
    }
    case 4: {
        uint32_t o = (uint32_t)*old;
        bool ok = __atomic_compare_exchange_n((uint32_t *)p, &o,
                                              (uint32_t)nv, false,
                                              __ATOMIC_SEQ_CST,
                                              __ATOMIC_RELAXED);
        *old = o;
        return ok;
    }
    default:
        return __atomic_compare_exchange_n((uint64_t *)p, old, nv, false,
                                           __ATOMIC_SEQ_CST,
                                           __ATOMIC_RELAXED);
    }
}

/* PTX ISA (atom): "atom.add.f32 on global memory flushes subnormal
 * inputs and results to sign-preserving zero; whereas atom.add.f32 on
 * shared memory supports subnormal inputs and results". */
static bool flushes_f32(PtxSpace sp, uint64_t addr)
{
    uint64_t off;
    PtxSpace r = emu_space_of(sp, addr, &off);
    return r != PTX_SPACE_SHARED && r != PTX_SPACE_SHARED_CLUSTER;
}

/* Deterministic mode (emu/par.h): a global atomic, or a morally strong
 * global load or store (.volatile, or .relaxed/.acquire/.release at a
 * scope wider than the CTA: PTX ISA, "Memory Consistency Model"), of a
 * CTA run by a pool worker first waits for the CTA's turn.  A CTA refused its turn
 * stops before the instruction: not executed (its step is not counted),
 * the warp stays at its pc, and the warp run ends with a status the
 * driver knows by EmuLaunch.det_stop (never a guest fault: l->faulted
 * stays false); the CTA later resumes on one thread and runs it. */
static EmuFault det_stopped = { .status = EMU_ERR_DEADLOCK };

static __attribute__((noinline)) bool
atom_turn_slow(EmuCtx *x, const EmuInsn *i, const EmuOpnd *a, uint32_t mask)
{
    PtxSpace sp = (PtxSpace)i->space;
    if (sp == PTX_SPACE_SHARED) {
        return true;                  /* the CTA's own memory */
    }
    if (sp == PTX_SPACE_GENERIC) {
        bool global = false;
        EMU_FOR_LANES(mask, lane) {
            uint64_t off;
            PtxSpace r = emu_space_of(sp, emu_lane_addr(x, a, lane), &off);
            if (r != PTX_SPACE_SHARED) {
                global = true;
                break;
            }
        }
        if (!global) {
            return true;
        }
    }
    if (emu_par_atomic_turn(x->launch, x->cta)) {
        return true;
    }
    x->launch->insns--;               /* run_impl/step_impl count it */
    (*x->cta->clock)--;
    x->warp->ninsns--;
    x->next_pc = x->pc;
    x->fault = &det_stopped;
    return false;
}

static inline bool atom_turn(EmuCtx *x, const EmuInsn *i, const EmuOpnd *a,
                             uint32_t mask)
{
    const EmuLaunch *l = x->launch;
    return __builtin_expect(l->det == NULL || l->det_ok, 1) ||
           atom_turn_slow(x, i, a, mask);
}

/* ld and st that are morally strong on global or generic memory
 * (decode: strong_access): through the turnstile, then as op_ld/op_st. */
static void op_ld_strong(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    if (atom_turn(x, i, &i->o[1], mask)) {
        op_ld(x, i, mask);
    }
}

static void op_st_strong(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    if (atom_turn(x, i, &i->o[0], mask)) {
        op_st(x, i, mask);
    }
}

bool emu_func_has_turnstile(const EmuFunc *f)
{
    for (uint32_t pc = 0; pc < f->ncode; pc++) {
        const EmuInsn *in = &f->code[pc];
        if (in->fn == op_ld_strong || in->fn == op_st_strong ||
            (emu_insn_info(f, pc)->opf & OPF_ATOMIC)) {
            return true;
        }
    }
    return false;
}

/* The value atom/red i leaves at addr (sz bytes) that held old. */
static inline uint64_t atom_value(const EmuInsn *i, PtxSpace sp,
                                  uint64_t addr, unsigned sz, uint64_t old,
                                  uint64_t bv, uint64_t cv)
{
    if (i->type == PTX_T_F16X2 || i->type == PTX_T_BF16X2) {
        return add_half2((PtxType)i->type, (uint32_t)old, (uint32_t)bv);
    }
    if (sz == 2) {
        if (i->aux == PTX_M_CAS) {          /* atom.cas.b16 */
            return (uint16_t)old == (uint16_t)bv ? (uint16_t)cv
                                                 : (uint16_t)old;
        }
        return (uint16_t)add_half2((PtxType)i->type, (uint16_t)old,
                                   (uint16_t)bv);
    }
    if (sz == 4) {
        if (i->aux == PTX_M_ADD && i->type == PTX_T_F32 &&
            !flushes_f32(sp, addr)) {
            return bits_of_f32(f32_of((uint32_t)old) + f32_of((uint32_t)bv));
        }
        return (uint32_t)atom_op32(i->aux, (PtxType)i->type, (uint32_t)old,
                                   (uint32_t)bv, (uint32_t)cv);
    }
    return atom_op64(i->aux, (PtxType)i->type, old, bv, cv);
}

/* atom: d, [a], b{, c}   red: [a], b   (aux = PtxMod of the operation) */
static inline __attribute__((always_inline)) void
atom_lanes(EmuCtx *x, const EmuInsn *i, uint32_t mask,
           EmuAccLanes *acl)
{
    bool is_red = i->op == PTX_OP_RED;
    const EmuOpnd *a = &i->o[is_red ? 0 : 1];
    const EmuOpnd *b = &i->o[is_red ? 1 : 2];
    const EmuOpnd *c = is_red ? NULL : &i->o[3];
    uint64_t *d = (!is_red && i->o[0].kind == EO_REG)
        ? &x->regs[(size_t)i->o[0].reg * EMU_WARP_SIZE] : NULL;
    unsigned sz = ptx_type_bits((PtxType)i->type) / 8;
    PtxSpace sp = (PtxSpace)i->space;
    bool changed = false;
    if (!atom_turn(x, i, a, mask)) {
        return;
    }
    EMU_FOR_LANES(mask, lane) {
        uint64_t addr = emu_lane_addr(x, a, lane);
        uint8_t *p = emu_access_lane(x, acl, lane, sp, addr,
                                     sz, EMU_ACC_ATOMIC);
        if (!p) {
            return;
        }
        uint64_t bv = emu_src(x, b, lane);
        uint64_t cv = (c && i->nopnd > 3) ? emu_src(x, c, lane) : 0;
        uint64_t old = hload(p, sz), nv;
        do {
            nv = atom_value(i, sp, addr, sz, old, bv, cv);
        } while (!hcas(p, sz, &old, nv));
        changed |= nv != old;
        if (d) {
            d[lane] = old;
        }
    }
    if (changed) {
        emu_progress(x->cta);
    }
}
EMU_ACCESS_LANES_HANDLER(op_atom, atom_lanes)

/* atom/red.add.u32/.s32 (counters, histograms): op_atom's 32-bit
 * integer add without its per-lane type and operation dispatch; the
 * same effects in the same lane order. */
static inline __attribute__((always_inline)) void
atom_add32_lanes(EmuCtx *x, const EmuInsn *i, uint32_t mask,
                 EmuAccLanes *acl)
{
    bool is_red = i->op == PTX_OP_RED;
    const EmuOpnd *a = &i->o[is_red ? 0 : 1];
    const EmuOpnd *b = &i->o[is_red ? 1 : 2];
    uint64_t *d = (!is_red && i->o[0].kind == EO_REG)
        ? &x->regs[(size_t)i->o[0].reg * EMU_WARP_SIZE] : NULL;
    PtxSpace sp = (PtxSpace)i->space;
    bool changed = false;
    if (!atom_turn(x, i, a, mask)) {
        return;
    }
    EMU_FOR_LANES(mask, lane) {
        uint64_t addr = emu_lane_addr(x, a, lane);
        uint8_t *p = emu_access_lane(x, acl, lane, sp, addr,
                                     4, EMU_ACC_ATOMIC);
        if (!p) {
            return;
        }
        uint32_t v = (uint32_t)emu_src(x, b, lane);
        uint32_t o32 = __atomic_fetch_add((uint32_t *)p, v,
                                          __ATOMIC_SEQ_CST);
        changed |= v != 0;
        if (d) {
            d[lane] = o32;
        }
    }
    if (changed) {
        emu_progress(x->cta);
    }
}
EMU_ACCESS_LANES_HANDLER(op_atom_add32, atom_add32_lanes)

/* 128-bit atomics (PTX ISA 8.3, sm_90): atom.exch.b128 d, [a], b and
 * atom.cas.b128 d, [a], b, c; each operand a .b128 register (two slots,
 * low half first). */
static inline __attribute__((always_inline)) void
atom128_lanes(EmuCtx *x, const EmuInsn *i, uint32_t mask,
              EmuAccLanes *acl)
{
    const EmuOpnd *a = &i->o[1];
    bool cas = i->aux == PTX_M_CAS;
    uint64_t *r = x->regs;
    PtxSpace sp = (PtxSpace)i->space;
    bool changed = false;
    if (!atom_turn(x, i, a, mask)) {
        return;
    }
    EMU_FOR_LANES(mask, lane) {
        uint64_t addr = emu_lane_addr(x, a, lane);
        uint8_t *p = emu_access_lane(x, acl, lane, sp, addr,
                                     16, EMU_ACC_ATOMIC);
        if (!p) {
            return;
        }
        uint64_t old[2], b[2], nv[2];
        emu_atomic_lock(p);
        memcpy(old, p, 16);
        for (unsigned h = 0; h < 2; h++) {
            b[h] = r[(size_t)(i->o[2].reg + h) * EMU_WARP_SIZE + lane];
            nv[h] = b[h];
        }
        if (cas) {
            bool eq = old[0] == b[0] && old[1] == b[1];
            for (unsigned h = 0; h < 2; h++) {
                nv[h] = eq ? r[(size_t)(i->o[3].reg + h) * EMU_WARP_SIZE +
                               lane] : old[h];
            }
        }
        changed |= memcmp(p, nv, 16) != 0;
        memcpy(p, nv, 16);
        emu_atomic_unlock(p);
        if (i->o[0].kind == EO_REG) {
            for (unsigned h = 0; h < 2; h++) {
                r[(size_t)(i->o[0].reg + h) * EMU_WARP_SIZE + lane] = old[h];
            }
        }
    }
    if (changed) {
        emu_progress(x->cta);
    }
}
EMU_ACCESS_LANES_HANDLER(op_atom128, atom128_lanes)

/* min / max of two f16 or bf16 values, as min/max.f16: a NaN operand
 * gives the other one (two NaNs the canonical NaN), and -0 < +0. */
static uint16_t minmax_half(const FpFmt *fmt, uint16_t a, uint16_t b,
                            bool max)
{
    double x = fp_decode(fmt, a), y = fp_decode(fmt, b);
    if (x != x && y != y) {
        return 0x7fff;
    }
    if (x != x) {
        return b;
    }
    if (y != y) {
        return a;
    }
    if (x == y) {     /* equal values: the signs decide (-0 < +0) */
        bool an = (a >> 15) != 0;
        return (an != max) ? a : b;
    }
    return ((x < y) != max) ? a : b;
}

/* aux of vector atomics: the PtxMod operation; ei->type is the element
 * type (f32, f16, bf16, f16x2, bf16x2). */
static uint32_t vec_elem_op(const EmuInsn *i, uint32_t old, uint32_t b,
                            bool flush)
{
    PtxType t = (PtxType)i->type;
    if (t == PTX_T_F32) {
        if (flush) {
            return (uint32_t)atom_op32(PTX_M_ADD, t, old, b, 0);
        }
        return bits_of_f32(f32_of(old) + f32_of(b));
    }
    const FpFmt *fmt = (t == PTX_T_F16 || t == PTX_T_F16X2) ? &fp_fmt_f16
                                                          : &fp_fmt_bf16;
    unsigned nh = (t == PTX_T_F16 || t == PTX_T_BF16) ? 1 : 2;
    uint32_t r = 0;
    for (unsigned h = 0; h < nh; h++) {
        uint16_t p = (uint16_t)(old >> (16 * h));
        uint16_t q = (uint16_t)(b >> (16 * h));
        uint16_t v = i->aux == PTX_M_ADD ? add_half(fmt, p, q)
            : minmax_half(fmt, p, q, i->aux == PTX_M_MAX);
        r |= (uint32_t)v << (16 * h);
    }
    return r;
}

/* Vector atomics and reductions (PTX ISA 8.1, sm_90):
 * {atom d,|red} .global .op .vN .type [a], b with d and b brace
 * vectors; each element is its own atomic operation on adjacent
 * elements in memory. */
static inline __attribute__((always_inline)) void
atom_vec_lanes(EmuCtx *x, const EmuInsn *i, uint32_t mask,
               EmuAccLanes *acl)
{
    bool is_red = i->op == PTX_OP_RED;
    const EmuOpnd *a = &i->o[is_red ? 0 : 1], *b = &i->o[is_red ? 1 : 2];
    const EmuOpnd *d = is_red ? NULL : &i->o[0];
    unsigned esz = ptx_type_bits((PtxType)i->type) / 8, n = i->vec;
    PtxSpace sp = (PtxSpace)i->space;
    bool changed = false;
    if (!atom_turn(x, i, a, mask)) {
        return;
    }
    EMU_FOR_LANES(mask, lane) {
        uint64_t addr = emu_lane_addr(x, a, lane);
        uint8_t *p = emu_access_lane(x, acl, lane, sp, addr,
                                     esz * n, EMU_ACC_ATOMIC);
        if (!p) {
            return;
        }
        bool flush = flushes_f32(sp, addr);
        uint32_t bv[8];       /* read first: d may name b's registers */
        for (unsigned e = 0; e < n; e++) {
            uint32_t s = elem_slot(x, b, e);
            bv[e] = s == EMU_NOREG ? 0
                : (uint32_t)x->regs[(size_t)s * EMU_WARP_SIZE + lane];
        }
        for (unsigned e = 0; e < n; e++) {
            uint64_t o = hload(p + e * esz, esz);
            uint32_t old, nv;
            do {
                old = (uint32_t)o;
                nv = vec_elem_op(i, old, bv[e], flush);
            } while (!hcas(p + e * esz, esz, &o, nv));
            changed |= nv != old;
            uint32_t ds = d ? elem_slot(x, d, e) : EMU_NOREG;
            if (ds != EMU_NOREG) {
                x->regs[(size_t)ds * EMU_WARP_SIZE + lane] = old;
            }
        }
    }
    if (changed) {
        emu_progress(x->cta);
    }
}
EMU_ACCESS_LANES_HANDLER(op_atom_vec, atom_vec_lanes)

/* mov.b128: d, a (copy); {lo, hi}, a (unpack); d, {lo, hi} (pack).
 * A .b128 register is two slots, low half first. */
static void op_mov128(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *r = x->regs;
    uint32_t ds[2], ss[2];
    for (unsigned h = 0; h < 2; h++) {
        ds[h] = i->o[0].kind == EO_VEC ? elem_slot(x, &i->o[0], h)
                                       : i->o[0].reg + h;
        ss[h] = i->o[1].kind == EO_VEC ? elem_slot(x, &i->o[1], h)
                                       : i->o[1].reg + h;
    }
    EMU_FOR_LANES(mask, lane) {
        uint64_t v[2];
        for (unsigned h = 0; h < 2; h++) {
            v[h] = ss[h] == EMU_NOREG ? 0
                : r[(size_t)ss[h] * EMU_WARP_SIZE + lane];
        }
        for (unsigned h = 0; h < 2; h++) {
            if (ds[h] != EMU_NOREG) {
                r[(size_t)ds[h] * EMU_WARP_SIZE + lane] = v[h];
            }
        }
    }
}

/* ------------------------------------------------ address conversions */

/* cvta{.to}.space.size d, a   (aux: 1 = .to) */
static void op_cvta(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = &x->regs[(size_t)i->o[0].reg * EMU_WARP_SIZE];
    uint64_t base = i->space == PTX_SPACE_SHARED ||
                    i->space == PTX_SPACE_SHARED_CLUSTER ? EMU_SHARED_WINDOW
        : i->space == PTX_SPACE_LOCAL ? EMU_LOCAL_WINDOW
        : i->space == PTX_SPACE_PARAM ? EMU_PARAM_WINDOW : 0;
    bool to = i->aux != 0;
    bool narrow = ptx_type_bits((PtxType)i->type) == 32;
    EMU_FOR_LANES(mask, lane) {
        uint64_t v = emu_src(x, &i->o[1], lane);
        v = to ? v - base : v + base;
        d[lane] = narrow ? (uint32_t)v : v;
    }
}

/* isspacep.space p, a */
static void op_isspacep(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = &x->regs[(size_t)i->o[0].reg * EMU_WARP_SIZE];
    EMU_FOR_LANES(mask, lane) {
        uint64_t v = emu_src(x, &i->o[1], lane);
        bool sh = emu_cluster_is_shared(x, v, false);
        bool lo = v - EMU_LOCAL_WINDOW < EMU_LOCAL_LIMIT;
        bool r;
        switch (i->space) {
        case PTX_SPACE_SHARED:
            r = emu_cluster_is_shared(x, v, true);
            break;
        case PTX_SPACE_SHARED_CLUSTER:
            r = sh;
            break;
        case PTX_SPACE_LOCAL:
            r = lo;
            break;
        case PTX_SPACE_GLOBAL:
            r = !sh && !lo;
            break;
        case PTX_SPACE_CONST: {
            const EmuAlloc *e = emu_mem_find(x->dev->mem, v, 1);
            r = e && e->kind == EMU_ALLOC_CONST;
            break;
        }
        default:
            r = false;
            break;
        }
        d[lane] = r;
    }
}

/* mov d, symbol-or-function: the address (decode resolved it) */
static void op_mov_addr(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = &x->regs[(size_t)i->o[0].reg * EMU_WARP_SIZE];
    bool narrow = ptx_type_bits((PtxType)i->type) == 32;
    EMU_FOR_LANES(mask, lane) {
        uint64_t v = i->o[1].kind == EO_FUNC ? i->o[1].imm
                                             : emu_src(x, &i->o[1], lane);
        d[lane] = narrow ? (uint32_t)v : v;
    }
}

/* cp.async.{ca,cg}.shared.global [dst], [src], cp-size{, src-size |
 * ignore-src}: done synchronously at issue (a program may not look at
 * dst before cp.async.wait_*, nor write src, so this is one of the legal
 * orders); the bytes past src-size are zero-filled.  aux: 1 = operand 3
 * is the ignore-src predicate. */
static void op_cp_async(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint32_t cp = (uint32_t)i->o[2].imm;
    EMU_FOR_LANES(mask, lane) {
        uint32_t ssz = cp;
        if (i->nopnd > 3 && i->o[3].kind != EO_NONE) {
            uint64_t v = emu_src(x, &i->o[3], lane);
            if (i->aux) {
                ssz = v ? 0 : cp;
            } else {
                ssz = v < cp ? (uint32_t)v : cp;
            }
        }
        uint64_t da = emu_lane_addr(x, &i->o[0], lane);
        uint64_t sa = emu_lane_addr(x, &i->o[1], lane);
        uint8_t buf[16] = { 0 };
        if (ssz) {
            /* the whole cp-size is checked, the src-size read */
            const uint8_t *sp = emu_mem_guest(x, lane, PTX_SPACE_GLOBAL, sa,
                                              cp, false);
            if (!sp) {
                return;
            }
            memcpy(buf, sp, ssz);
            emu_access_note(x, lane, PTX_SPACE_GLOBAL, sa, ssz,
                            EMU_ACC_ASYNC_READ);
        }
        uint8_t *dp = emu_access(x, lane, (PtxSpace)i->space, da, cp,
                                 EMU_ACC_ASYNC_WRITE);
        if (!dp) {
            return;
        }
        if (memcmp(dp, buf, cp) != 0) {
            memcpy(dp, buf, cp);
            emu_progress(x->cta);
        }
        emu_async_issue(x, EMU_CHAN_CP, emu_async_warp_id(x));
    }
}

/* cp.async.commit_group, cp.async.wait_group N, cp.async.wait_all: the
 * copies are complete at issue, so these only tell the step record
 * which copies a wait depends on (emu/async.h). */
static void op_cp_commit(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    (void)i;
    if (mask) {
        emu_async_commit(x, EMU_CHAN_CP, emu_async_warp_id(x));
    }
}

static void op_cp_wait(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    bool all = i->op == PTX_OP_CP_ASYNC_WAIT_ALL;
    uint64_t keep = all ? 0 : i->o[0].imm;
    if (mask) {
        emu_async_wait(x, EMU_WAIT_CP_ASYNC, EMU_CHAN_CP,
                       emu_async_warp_id(x),
                       keep > UINT32_MAX ? UINT32_MAX : (uint32_t)keep, all);
    }
}

/* ------------------------------------------------ dynamic stack */

/* alloca.type d, size{, align} (PTX ISA 7.3): per lane, `size` bytes of
 * the lane's local memory above its stack top, aligned to max(align, 8)
 * (8 is the guaranteed minimum); d gets their .local address.  They are
 * freed when the frame returns or by stackrestore.  aux = log2(align). */
static void op_alloca(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = &x->regs[(size_t)i->o[0].reg * EMU_WARP_SIZE];
    bool narrow = ptx_type_bits((PtxType)i->type) == 32;
    uint64_t al = 1ull << i->aux, lim = x->cta->local_stride;
    if (al < 8) {
        al = 8;
    }
    EMU_FOR_LANES(mask, lane) {
        uint64_t size = emu_src(x, &i->o[1], lane);
        uint64_t top = (x->frame->sp[lane] + al - 1) & ~(al - 1);
        if (narrow) {
            size = (uint32_t)size;
        }
        if (top > lim || size > lim - top) {
            emu_fault(x, EMU_ERR_STACK_OVERFLOW, lane, top, 0,
                      PTX_SPACE_LOCAL, "alloca of %llu bytes (aligned to "
                      "%llu) overflows the thread's %llu-byte local stack "
                      "(top at %llu)", (unsigned long long)size,
                      (unsigned long long)al, (unsigned long long)lim,
                      (unsigned long long)x->frame->sp[lane]);
            return;
        }
        x->frame->sp[lane] = top + size;
        d[lane] = narrow ? (uint32_t)top : top;
    }
}

/* stacksave.type d: the lane's stack top */
static void op_stacksave(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = &x->regs[(size_t)i->o[0].reg * EMU_WARP_SIZE];
    bool narrow = ptx_type_bits((PtxType)i->type) == 32;
    EMU_FOR_LANES(mask, lane) {
        uint64_t v = x->frame->sp[lane];
        d[lane] = narrow ? (uint32_t)v : v;
    }
}

/* stackrestore.type a: the stack top back to a (from stacksave in this
 * frame); a value outside the frame's dynamic area is a fault rather
 * than a corrupted stack. */
static void op_stackrestore(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t lo = x->frame->local_base + x->frame->func->local_bytes;
    bool narrow = ptx_type_bits((PtxType)i->type) == 32;
    EMU_FOR_LANES(mask, lane) {
        uint64_t v = emu_src(x, &i->o[0], lane);
        if (narrow) {
            v = (uint32_t)v;
        }
        if (v < lo || v > x->cta->local_stride) {
            emu_fault(x, EMU_ERR_ILLEGAL_ADDRESS, lane, v, 0,
                      PTX_SPACE_LOCAL, "stackrestore to %llu, outside "
                      "this frame's stack [%llu, %llu]",
                      (unsigned long long)v, (unsigned long long)lo,
                      (unsigned long long)x->cta->local_stride);
            return;
        }
        x->frame->sp[lane] = v;
    }
}

/* createpolicy.*: an L2 cache policy is an opaque 64-bit value that
 * only cache-hinted accesses consume, and the emulator has no cache, so
 * any value is a correct one.  It is made from the instruction's
 * priorities (aux, AUX_POLICY_*) and .fractional's fraction so that
 * different policies differ; createpolicy.cvt passes the access property
 * through. */
#define AUX_POLICY_CVT 0x8000u
#define POLICY_TAG 0x0ECE000000000000ull

static void op_createpolicy(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = &x->regs[(size_t)i->o[0].reg * EMU_WARP_SIZE];
    bool frac = i->op == PTX_OP_CREATEPOLICY_FRACTIONAL;
    EMU_FOR_LANES(mask, lane) {
        uint64_t v = POLICY_TAG | (uint64_t)(i->aux & 0xff) << 40;
        if (i->aux & AUX_POLICY_CVT) {
            v = emu_src(x, &i->o[1], lane);
        } else if (frac && i->nopnd > 1) {
            v ^= emu_src(x, &i->o[1], lane) >> 24;
        }
        d[lane] = v;
    }
}

static void op_nop(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    (void)x;
    (void)i;
    (void)mask;
}

/* ------------------------------------------------------------ selector */

static unsigned reg_bits(const IrFunc *f, const IrOperand *o)
{
    if (o->kind == IR_O_REG) {
        return ptx_type_bits(f->regs[o->id].type);
    }
    if (o->kind == IR_O_VEC) {
        for (uint32_t e = 0; e < o->n; e++) {
            if (o->u.elems[e].kind == IR_O_REG) {
                return ptx_type_bits(f->regs[o->u.elems[e].id].type);
            }
        }
    }
    return 64;
}

static bool is_b128_reg(const IrFunc *f, const IrOperand *o)
{
    return o->kind == IR_O_REG && f->regs[o->id].type == PTX_T_B128 &&
           f->regs[o->id].vec <= 1;
}

/* A .b128 register or a brace pair of 64-bit registers (or sinks). */
static bool b128_or_pair(const IrFunc *f, const IrOperand *o)
{
    if (is_b128_reg(f, o)) {
        return true;
    }
    if (o->kind != IR_O_VEC || o->n != 2) {
        return false;
    }
    for (unsigned e = 0; e < 2; e++) {
        const IrOperand *el = &o->u.elems[e];
        if (el->kind == IR_O_SINK) {
            continue;
        }
        if (el->kind != IR_O_REG || f->regs[el->id].vec > 1 ||
            ptx_type_bits(f->regs[el->id].type) != 64) {
            return false;
        }
    }
    return true;
}

/* A .volatile access, or a .relaxed/.acquire/.release one at a scope
 * wider than the CTA, of global or generic memory: the accesses other
 * CTAs may synchronise through (deterministic mode orders them). */
bool emu_access_strong(const IrInsn *in, PtxSpace sp)
{
    if (sp != PTX_SPACE_GLOBAL && sp != PTX_SPACE_GENERIC) {
        return false;
    }
    PtxMod sem = ir_insn_mod(in, PTX_MG_SEM);
    if (sem == PTX_M_VOLATILE) {
        return true;
    }
    return (sem == PTX_M_RELAXED || sem == PTX_M_ACQUIRE ||
            sem == PTX_M_RELEASE) && ir_insn_mod(in, PTX_MG_SCOPE) !=
           PTX_M_CTA;
}

static bool atom_space_ok(const EmuInsn *ei)
{
    return ei->space == PTX_SPACE_GLOBAL || ei->space == PTX_SPACE_SHARED ||
           ei->space == PTX_SPACE_GENERIC ||
           ei->space == PTX_SPACE_SHARED_CLUSTER;
}

/* The vector atomics of PTX ISA 8.1: .f32 add in .v2/.v4; .f16/.bf16
 * add/min/max in .v2/.v4/.v8; .f16x2/.bf16x2 add/min/max in .v2/.v4. */
static bool vec_atom_ok(unsigned op, PtxType t, unsigned vec)
{
    bool mm = op == PTX_M_ADD || op == PTX_M_MIN || op == PTX_M_MAX;
    switch (t) {
    case PTX_T_F32: return op == PTX_M_ADD && vec <= 4;
    case PTX_T_F16:
    case PTX_T_BF16: return mm;
    case PTX_T_F16X2:
    case PTX_T_BF16X2: return mm && vec <= 4;
    default: return false;
    }
}

static bool atom_ok(unsigned op, PtxType t)
{
    bool i32 = t == PTX_T_U32 || t == PTX_T_S32;
    bool i64 = t == PTX_T_U64 || t == PTX_T_S64;
    bool b = t == PTX_T_B32 || t == PTX_T_B64;
    switch (op) {
    case PTX_M_ADD:
        return i32 || i64 || t == PTX_T_F32 || t == PTX_T_F64 ||
               t == PTX_T_F16X2 || t == PTX_T_BF16X2 || t == PTX_T_F16 ||
               t == PTX_T_BF16;
    case PTX_M_MIN:
    case PTX_M_MAX:
        return i32 || i64;
    case PTX_M_INC:
    case PTX_M_DEC:
        return t == PTX_T_U32;
    case PTX_M_RED_AND:
    case PTX_M_RED_OR:
    case PTX_M_RED_XOR:
    case PTX_M_EXCH:
        return b || i32 || i64;
    case PTX_M_CAS:
        return b || i32 || i64 || t == PTX_T_B16;
    default:
        return false;
    }
}

EMU_SELECTOR(mem)
{
    (void)m;
    switch ((PtxOpcode)in->op) {
    case PTX_OP_LD:
    case PTX_OP_LDU:
    case PTX_OP_ST: {
        unsigned bits = ptx_type_bits((PtxType)ei->type);
        ei->fn = NULL;
        if (bits == 128) {
            /* .b128 (PTX ISA 8.3): the two 64-bit halves of a .b128
             * register, moved as one 16-byte aligned access; a strong
             * one ordered as the narrower ones are */
            bool st = in->op == PTX_OP_ST;
            const IrOperand *data = &in->opnds[st];
            if (ei->vec == 1 && is_b128_reg(f, data)) {
                ei->vec = 2;
                ei->aux = (uint16_t)(8 | 64u << 8);
                ei->fn = emu_access_strong(in, (PtxSpace)ei->space)
                    ? (st ? op_st_strong : op_ld_strong)
                    : (st ? op_st : op_ld);
            }
            return true;
        }
        if (bits != 8 && bits != 16 && bits != 32 && bits != 64) {
            return true;
        }
        bool st = in->op == PTX_OP_ST;
        const IrOperand *data = &in->opnds[st ? 1 : 0];
        unsigned db = st ? 64 : reg_bits(f, data);
        unsigned aux = bits / 8 | (db >= 64 ? 64u : db) << 8;
        if (ptx_type_kind((PtxType)ei->type) == PTX_TK_S) {
            aux |= AUX_SEXT;
        }
        ei->aux = (uint16_t)aux;
        if (emu_access_strong(in, (PtxSpace)ei->space)) {
            ei->fn = st ? op_st_strong : op_ld_strong;
        } else if (st) {
            ei->fn = bits == 32 && ei->vec == 1 && ei->o[1].kind != EO_VEC
                ? op_st32 : op_st;
        } else if (bits == 32 && ei->vec == 1 && ei->o[0].kind == EO_REG &&
                   !(aux & AUX_SEXT)) {
            ei->fn = op_ld32;
        } else if (ei->vec == 1 && ei->o[0].kind == EO_REG) {
            ei->fn = op_ld1;
        } else {
            ei->fn = op_ld;
        }
        return true;
    }
    case PTX_OP_ATOM:
    case PTX_OP_RED: {
        PtxMod op = ir_insn_mod(in, PTX_MG_REDOP);
        ei->aux = (uint16_t)op;
        ei->fn = NULL;
        if (ei->type == PTX_T_B128) {
            bool cas = op == PTX_M_CAS;
            /* exch may end with a cache-policy operand (ignored) */
            unsigned hint = ir_insn_mod(in, PTX_MG_L2HINT) != PTX_M_NONE;
            if (in->op == PTX_OP_ATOM && (cas || op == PTX_M_EXCH) &&
                in->nopnds == (cas ? 4u : 3u + hint) && atom_space_ok(ei) &&
                (is_b128_reg(f, &in->opnds[0]) ||
                 in->opnds[0].kind == IR_O_SINK) &&
                is_b128_reg(f, &in->opnds[2]) &&
                (!cas || is_b128_reg(f, &in->opnds[3]))) {
                ei->fn = op_atom128;
            }
            return true;
        }
        if (ei->vec > 1) {
            if (vec_atom_ok(op, (PtxType)ei->type, ei->vec) &&
                (ei->space == PTX_SPACE_GLOBAL ||
                 ei->space == PTX_SPACE_GENERIC) &&
                ei->o[in->op == PTX_OP_RED ? 1 : 2].kind == EO_VEC &&
                (in->op == PTX_OP_RED || ei->o[0].kind == EO_VEC)) {
                ei->fn = op_atom_vec;
            }
            return true;
        }
        if (ei->vec == 1 && atom_ok(op, (PtxType)ei->type) &&
            atom_space_ok(ei)) {
            ei->fn = op == PTX_M_ADD && (ei->type == PTX_T_U32 ||
                                         ei->type == PTX_T_S32)
                ? op_atom_add32 : op_atom;
        }
        return true;
    }
    case PTX_OP_CVTA:
        ei->aux = ir_insn_mod(in, PTX_MG_TO) != PTX_M_NONE;
        if (ei->space == PTX_SPACE_PARAM && !f->is_entry) {
            /* a .func's params live in its frame (local memory) */
            ei->space = PTX_SPACE_LOCAL;
        }
        ei->fn = (ei->space == PTX_SPACE_SHARED ||
                  ei->space == PTX_SPACE_PARAM ||
                  ei->space == PTX_SPACE_SHARED_CLUSTER ||
                  ei->space == PTX_SPACE_LOCAL ||
                  ei->space == PTX_SPACE_GLOBAL ||
                  ei->space == PTX_SPACE_CONST) &&
                 ei->o[0].kind == EO_REG ? op_cvta : NULL;
        return true;
    case PTX_OP_ISSPACEP:
        ei->fn = ei->o[0].kind == EO_REG ? op_isspacep : NULL;
        return true;
    case PTX_OP_CP_ASYNC: {
        uint64_t cp = ei->o[2].imm;
        ei->fn = NULL;
        if (ei->o[2].kind == EO_IMM && (cp == 4 || cp == 8 || cp == 16) &&
            (ei->space == PTX_SPACE_SHARED ||
             ei->space == PTX_SPACE_SHARED_CLUSTER)) {
            const IrOperand *o3 = in->nopnds > 3 ? &in->opnds[3] : NULL;
            if (in->nopnds == 4 &&
                ir_insn_mod(in, PTX_MG_L2HINT) != PTX_M_NONE) {
                ei->nopnd = 3;      /* operand 3 is the cache policy */
            }
            ei->aux = o3 && o3->kind == IR_O_REG &&
                      f->regs[o3->id].type == PTX_T_PRED;
            ei->fn = op_cp_async;
        }
        return true;
    }
    case PTX_OP_CP_ASYNC_COMMIT_GROUP:
        ei->fn = op_cp_commit;
        return true;
    case PTX_OP_CP_ASYNC_WAIT_GROUP:
    case PTX_OP_CP_ASYNC_WAIT_ALL:
        ei->fn = op_cp_wait;
        return true;
    case PTX_OP_ALLOCA: {
        uint64_t al = in->nopnds > 2 ? ei->o[2].imm : 8;
        ei->fn = NULL;
        /* immAlign: a power of 2, at most 2^23 (PTX ISA) */
        if (ei->o[0].kind == EO_REG && (in->nopnds < 3 ||
            ei->o[2].kind == EO_IMM) && al && !(al & (al - 1)) &&
            al <= (1u << 23)) {
            ei->aux = (uint16_t)__builtin_ctzll(al);
            ei->fn = op_alloca;
        }
        return true;
    }
    case PTX_OP_STACKSAVE:
        ei->fn = ei->o[0].kind == EO_REG ? op_stacksave : NULL;
        return true;
    case PTX_OP_STACKRESTORE:
        ei->fn = op_stackrestore;
        return true;
    case PTX_OP_CREATEPOLICY_FRACTIONAL:
    case PTX_OP_CREATEPOLICY_RANGE:
    case PTX_OP_CREATEPOLICY_CVT: {
        PtxMod e1 = ir_insn_mod(in, PTX_MG_L2EVICT);
        PtxMod e2 = ir_insn_mod(in, PTX_MG_L2EVICT2);
        unsigned aux = e1 == PTX_M_NONE ? 0 : e1 - PTX_M_L2_EVICT_NORMAL + 1;
        aux |= (e2 == PTX_M_NONE ? 0 : e2 - PTX_M_L2_EVICT_NORMAL2 + 1) << 4;
        if (in->op == PTX_OP_CREATEPOLICY_CVT) {
            aux |= AUX_POLICY_CVT;
        }
        ei->aux = (uint16_t)aux;
        ei->fn = ei->o[0].kind == EO_REG ? op_createpolicy : NULL;
        return true;
    }
    case PTX_OP_DISCARD:
        /* the lines' contents become undefined: keeping them is one of
         * the allowed outcomes */
    case PTX_OP_APPLYPRIORITY:
    case PTX_OP_PREFETCH:
    case PTX_OP_PREFETCHU:
        ei->fn = op_nop;
        return true;
    case PTX_OP_MOV:
        if (ei->type == PTX_T_B128) {
            ei->fn = NULL;
            if (in->nopnds == 2 && b128_or_pair(f, &in->opnds[0]) &&
                b128_or_pair(f, &in->opnds[1]) &&
                (is_b128_reg(f, &in->opnds[0]) ||
                 is_b128_reg(f, &in->opnds[1]))) {
                ei->fn = op_mov128;
            }
            return true;
        }
        if (in->nopnds == 2 && ei->o[0].kind == EO_REG &&
            (in->opnds[1].kind == IR_O_SYM ||
             in->opnds[1].kind == IR_O_FUNC)) {
            ei->fn = op_mov_addr;
            return true;
        }
        return false;
    default:
        return false;
    }
}
