/*
 * emu/insninfo.h: static information about each decoded instruction, for
 * a timing model's scoreboard and for checkers (gem5's StaticInst is the
 * model: opClass(), srcRegIdx(), destRegIdx()).
 *
 * Contract:
 *  - emu_decode_func() builds one EmuInsnInfo per instruction, after the
 *    instruction's handler is chosen; it never changes what an
 *    instruction computes, and the hot loop never reads it (EmuInsn is
 *    untouched: the info lives in an array parallel to EmuFunc.code).
 *  - emu_insn_info(f, pc) is valid while the function is loaded.
 *  - Register slots are EmuFunc slot numbers, exactly the ones the
 *    handlers read (src) and write (dst): the guard predicate (first
 *    source), every element of a brace vector {..} (sinks '_' omitted),
 *    both halves of a predicate pair p|q, every slot of a .v register or
 *    of a .b128 register (two slots), the base register of an address,
 *    the register elements of call argument/return lists.  Each list
 *    holds a slot once, in operand order.  Decode-time constant slots
 *    (immediates materialised inside vectors, EmuFunc.nregslots and up)
 *    are not registers and are never listed.
 *  - Implicit state is named by pseudo slots (EMU_SLOT_CC ...) at the
 *    top of the slot range; they come after the operand slots in a
 *    list.
 *  - The unit class comes from emu/insninfo.def (one row per opcode of
 *    ptx/opcodes.def, checked complete at compile time), refined by the
 *    instruction's type where one opcode runs on several units.
 */
#ifndef PTXEMU_EMU_INSNINFO_H
#define PTXEMU_EMU_INSNINFO_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/emu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Functional-unit classes, in the order (and with the values) of the
 * timing plug-in ABI's ptxemu_tm_unit (timing/ptxemu_timing.h).  Which
 * instructions go where, and why:
 *  INT     integer and logic ALU, moves, selects, address arithmetic,
 *          integer division (a multi-instruction sequence on the ALU),
 *          video instructions.
 *  FP16    packed half ALU: .f16/.f16x2/.bf16/.bf16x2 arithmetic and
 *          compares (HADD2/HFMA2/HSETP2).
 *  FP32    single precision (and .f32x2) arithmetic, full-precision f32
 *          div/sqrt/rcp (Newton iterations on the FMA pipe).
 *  FP64    double precision, including conversions to or from .f64.
 *  SFU     transcendentals (sin cos lg2 ex2 tanh rsqrt), .approx and
 *          .full div/sqrt/rcp, and conversions between integer and float
 *          or between narrow float formats: the CUDA C++ Programming
 *          Guide's throughput table (section "Arithmetic Instructions")
 *          gives them the SFU's rate, 16 results per clock per SM.
 *  TENSOR  mma, mma.sp, wmma.mma, wgmma.mma_async, tcgen05 matrix ops.
 *  LDST    ld/st/atom/red/prefetch, the fragment loads and stores
 *          (wmma.load/store, ldmatrix/stmatrix), cp.async (each thread's
 *          copy goes through the load/store unit).
 *  TEX     tex tld4 txq istypep suld sust sured suq.
 *  CTRL    bra brx.idx call ret exit trap.
 *  SYNC    waits and orderings: bar/barrier (CTA, cluster, warp),
 *          membar/fence, griddepcontrol.wait, mbarrier ops, the
 *          commit/wait of cp.async, bulk and wgmma groups.
 *  ASYNC   the copy engine (TMA): cp.async.bulk*, cp.reduce.async.bulk*,
 *          their prefetches, st.async, red.async, multimem bulk copies,
 *          clusterlaunchcontrol.try_cancel.
 *  MISC    no data path: brkpt nanosleep pmevent setmaxnreg
 *          griddepcontrol.launch_dependents, tensor-memory allocation.
 *  WARP    warp-synchronous lane exchange: shfl, vote, match, redux,
 *          activemask, elect, movmatrix.  They wait for no other warp
 *          (not SYNC) but combine or move values across lanes, with a
 *          latency of their own (not INT). */
typedef enum EmuUnit {
    EMU_UNIT_INT = 0,
    EMU_UNIT_FP16,
    EMU_UNIT_FP32,
    EMU_UNIT_FP64,
    EMU_UNIT_SFU,
    EMU_UNIT_TENSOR,
    EMU_UNIT_LDST,
    EMU_UNIT_TEX,
    EMU_UNIT_CTRL,
    EMU_UNIT_SYNC,
    EMU_UNIT_ASYNC,
    EMU_UNIT_MISC,
    EMU_UNIT_WARP,
    EMU_UNIT_COUNT
} EmuUnit;

/* What an instruction may wait for before it completes, in the order
 * (and with the values) of the ABI's ptxemu_tm_wait. */
typedef enum EmuWait {
    EMU_WAIT_NONE = 0,
    EMU_WAIT_BAR_CTA,           /* bar.sync / bar.red / barrier.sync ... */
    EMU_WAIT_BAR_CLUSTER,       /* barrier.cluster.wait */
    EMU_WAIT_CP_ASYNC,          /* cp.async.wait_group / wait_all */
    EMU_WAIT_BULK_GROUP,        /* cp.async.bulk.wait_group */
    EMU_WAIT_MBARRIER,          /* mbarrier.test_wait / try_wait */
    EMU_WAIT_WGMMA,             /* wgmma.wait_group */
    EMU_WAIT_FENCE,             /* membar, fence*, wgmma.fence ... */
    EMU_WAIT_BAR_WARP,          /* bar.warp.sync */
    EMU_WAIT_TCGEN05,           /* tcgen05.wait::ld / ::st */
    EMU_WAIT_GRID,              /* griddepcontrol.wait */
    EMU_WAIT_SLEEP,             /* nanosleep */
    EMU_WAIT_COUNT
} EmuWait;

/* Implicit state as pseudo slots at the top of the slot range, the
 * ABI's PTXEMU_TM_SLOT_* (CARRY, BAR_RED, PARAM, STACK).  Real slots are
 * below EmuFunc.nslots; EMU_NOREG is never listed. */
enum {
    EMU_SLOT_CC = 0xFFFFFF00u,      /* the carry flag CC.CF: written by
                                       .cc, read by addc/subc/madc */
    EMU_SLOT_BAR_RED = 0xFFFFFF01u, /* the CTA barrier's reduction:
                                       bar.red adds to it; its result
                                       lands in d when the barrier
                                       releases */
    EMU_SLOT_PARAM = 0xFFFFFF02u,   /* call-sequence .param variables of
                                       the frame: read by call (args),
                                       written by it (returns) */
    EMU_SLOT_STACK = 0xFFFFFF03u,   /* the frame's stack pointer: alloca,
                                       stacksave, stackrestore */
};

typedef struct EmuInsnInfo {
    uint16_t op;                /* PtxOpcode */
    uint8_t type;               /* PtxType of type slot 0 */
    uint8_t type2;              /* PtxType of type slot 1 */
    uint8_t unit;               /* EmuUnit */
    uint8_t wait;               /* EmuWait */
    uint8_t space;              /* PtxSpace of a memory instruction
                                   (EmuInsn.space; a generic access to a
                                   named variable gets the variable's
                                   space; tex/tld4/suld/sust/sured get
                                   PTX_SPACE_TEX); PTX_SPACE_NONE for
                                   the others */
    uint8_t space2;             /* second space (cp.async*: the source) */
    bool async;                 /* completes after it issues: cp.async,
                                   bulk/TMA copies and reductions,
                                   st.async, red.async, wgmma.mma_async,
                                   tcgen05 async ops, the arrive of
                                   cp.async.mbarrier.arrive */
    uint8_t vec;                /* .v2/.v4/.v8: 2/4/8, else 1 */
    uint16_t nsrc, ndst;
    uint32_t opf;               /* OPF_* of the opcode's row */
    const uint32_t *src;        /* nsrc slots read */
    const uint32_t *dst;        /* ndst slots written */
} EmuInsnInfo;

/* The info of instruction pc of f (pc < f->ncode). */
static inline const EmuInsnInfo *emu_insn_info(const EmuFunc *f,
                                               uint32_t pc)
{
    return &f->info[pc];
}

const char *emu_unit_name(EmuUnit u);   /* "int", "fp32" ...; "?" */
const char *emu_wait_name(EmuWait w);   /* "none", "bar.cta" ...; "?" */

/* The unit class of an IR instruction (what the decoded info gets),
 * without loading it: for tests and tools.  EMU_UNIT_COUNT for an
 * opcode without a row (never, emu/insninfo.def is checked complete). */
EmuUnit emu_insn_unit(const IrInsn *in);
/* True when the opcode's row gives its operands' roles explicitly
 * (rows whose shape has 'v' vector operands must). */
bool emu_opcode_has_roles(PtxOpcode op);

/* Build f->info and f->info_slots once f->code is decoded; regslot maps
 * IrReg ids to slots (for operands the EmuInsn does not keep).  False
 * when out of memory. */
bool emu_insninfo_build(EmuFunc *f, const uint32_t *regslot);
void emu_insninfo_free(EmuFunc *f);

#ifdef __cplusplus
}
#endif
#endif
