/*
 * tests/check_insninfo.c: the static instruction info made at decode
 * (emu/insninfo.h).
 *
 *  - opcode rows: every row of ptx/opcodes.def has a representative
 *    instruction here; it either loads (decode found a handler) or is
 *    listed as unsupported with the message the load gives.  Every
 *    representative gets a unit class that is no placeholder.
 *  - operand roles: exact source and destination slot lists for one
 *    instruction per family, written by hand from the operand
 *    definitions of the PTX ISA 9.0 (chapter 9.7), and the unit, wait
 *    kind, asynchrony and state space of each.
 *  - unit refinement: one opcode on several units by type/precision.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/insninfo.h"
#include "ptx/opcode.h"
#include "tests/emutest.h"
#include "timing/ptxemu_timing.h"

Suite *insninfo_suite(void);

/* The info's enums and pseudo slots are the timing ABI's values, so an
 * adapter copies them (emu/ never includes timing/). */
#define SAME(a, b) _Static_assert((int)(a) == (int)(b), #a " == " #b)
SAME(EMU_UNIT_INT, PTXEMU_TM_UNIT_INT);
SAME(EMU_UNIT_FP16, PTXEMU_TM_UNIT_FP16);
SAME(EMU_UNIT_FP32, PTXEMU_TM_UNIT_FP32);
SAME(EMU_UNIT_FP64, PTXEMU_TM_UNIT_FP64);
SAME(EMU_UNIT_SFU, PTXEMU_TM_UNIT_SFU);
SAME(EMU_UNIT_TENSOR, PTXEMU_TM_UNIT_TENSOR);
SAME(EMU_UNIT_LDST, PTXEMU_TM_UNIT_LDST);
SAME(EMU_UNIT_TEX, PTXEMU_TM_UNIT_TEX);
SAME(EMU_UNIT_CTRL, PTXEMU_TM_UNIT_CTRL);
SAME(EMU_UNIT_SYNC, PTXEMU_TM_UNIT_SYNC);
SAME(EMU_UNIT_ASYNC, PTXEMU_TM_UNIT_ASYNC);
SAME(EMU_UNIT_MISC, PTXEMU_TM_UNIT_MISC);
SAME(EMU_UNIT_WARP, PTXEMU_TM_UNIT_WARP);
SAME(EMU_UNIT_COUNT, PTXEMU_TM_UNIT_COUNT);
SAME(EMU_WAIT_NONE, PTXEMU_TM_WAIT_NONE);
SAME(EMU_WAIT_BAR_CTA, PTXEMU_TM_WAIT_BARRIER);
SAME(EMU_WAIT_BAR_CLUSTER, PTXEMU_TM_WAIT_CLUSTER);
SAME(EMU_WAIT_CP_ASYNC, PTXEMU_TM_WAIT_ASYNC_GROUP);
SAME(EMU_WAIT_BULK_GROUP, PTXEMU_TM_WAIT_BULK_GROUP);
SAME(EMU_WAIT_MBARRIER, PTXEMU_TM_WAIT_MBARRIER);
SAME(EMU_WAIT_WGMMA, PTXEMU_TM_WAIT_WGMMA);
SAME(EMU_WAIT_FENCE, PTXEMU_TM_WAIT_FENCE);
SAME(EMU_WAIT_BAR_WARP, PTXEMU_TM_WAIT_WARP);
SAME(EMU_WAIT_TCGEN05, PTXEMU_TM_WAIT_TCGEN05);
SAME(EMU_WAIT_GRID, PTXEMU_TM_WAIT_GRID);
SAME(EMU_WAIT_SLEEP, PTXEMU_TM_WAIT_SLEEP);
SAME(EMU_WAIT_COUNT, PTXEMU_TM_WAIT_COUNT);
_Static_assert(EMU_SLOT_CC == PTXEMU_TM_SLOT_CARRY, "carry slot");
_Static_assert(EMU_SLOT_BAR_RED == PTXEMU_TM_SLOT_BAR_RED, "bar.red slot");
_Static_assert(EMU_SLOT_PARAM == PTXEMU_TM_SLOT_PARAM, "param slot");
_Static_assert(EMU_SLOT_STACK == PTXEMU_TM_SLOT_STACK, "stack slot");

/* Module text around one kernel body. */
#define HDR ".version 9.0\n.target sm_90a\n.address_size 64\n"
#define DECLS                                                             \
    ".global .texref tref;\n.global .surfref sref;\n"                     \
    ".global .align 8 .b8 gbuf[256];\n"                                   \
    ".func (.param .b32 fr) callee(.param .b32 fa)\n{\n"                  \
    ".reg .b32 %t<2>;\nld.param.b32 %t0, [fa];\n"                         \
    "st.param.b32 [fr], %t0;\nret;\n}\n"                                  \
    ".func (.reg .b32 rr) rfunc(.reg .b32 ra, .reg .b32 rb)\n{\n"         \
    "add.u32 rr, ra, rb;\nret;\n}\n"                                      \
    ".visible .entry k(.param .u64 p0)\n{\n"                              \
    ".reg .pred %p<8>;\n.reg .b16 %h<8>;\n.reg .b32 %r<40>;\n"            \
    ".reg .b64 %rd<8>;\n.reg .f32 %f<40>;\n.reg .f64 %fd<8>;\n"           \
    ".reg .b128 %q<2>;\n"                                                 \
    ".shared .align 16 .b8 sm[1024];\n"
#define TAIL "\nT0: ret;\n}\n"

static char *module_text(const char *body)
{
    size_t n = strlen(HDR DECLS TAIL) + strlen(body) + 1;
    char *s = malloc(n);
    ck_assert_ptr_nonnull(s);
    snprintf(s, n, "%s%s%s", HDR DECLS, body, TAIL);
    return s;
}

/* ------------------------------------------------------ opcode rows */

/* A representative instruction per opcodes.def row, and NULL or the
 * message its load fails with (the emulator does not run it). */
typedef struct RepRow {
    PtxOpcode op;
    const char *insn;
    const char *unsupported;
} RepRow;

#define NS "is not supported by the emulator yet"

static const RepRow reps[] = {
    { PTX_OP_ADD, "add.s32 %r1, %r2, %r3;", NULL },
    { PTX_OP_SUB, "sub.f32 %f1, %f2, %f3;", NULL },
    { PTX_OP_MUL, "mul.wide.s32 %rd1, %r2, %r3;", NULL },
    { PTX_OP_MAD, "mad.lo.s32 %r1, %r2, %r3, %r4;", NULL },
    { PTX_OP_MUL24, "mul24.lo.s32 %r1, %r2, %r3;", NULL },
    { PTX_OP_MAD24, "mad24.lo.u32 %r1, %r2, %r3, %r4;", NULL },
    { PTX_OP_SAD, "sad.u32 %r1, %r2, %r3, %r4;", NULL },
    { PTX_OP_DIV, "div.rn.f64 %fd1, %fd2, %fd3;", NULL },
    { PTX_OP_REM, "rem.s32 %r1, %r2, %r3;", NULL },
    { PTX_OP_ABS, "abs.s32 %r1, %r2;", NULL },
    { PTX_OP_NEG, "neg.f32 %f1, %f2;", NULL },
    { PTX_OP_MIN, "min.u32 %r1, %r2, %r3;", NULL },
    { PTX_OP_MAX, "max.f64 %fd1, %fd2, %fd3;", NULL },
    { PTX_OP_POPC, "popc.b32 %r1, %r2;", NULL },
    { PTX_OP_CLZ, "clz.b64 %r1, %rd2;", NULL },
    { PTX_OP_BFIND, "bfind.u32 %r1, %r2;", NULL },
    { PTX_OP_FNS, "fns.b32 %r1, %r2, %r3, 1;", NULL },
    { PTX_OP_BREV, "brev.b32 %r1, %r2;", NULL },
    { PTX_OP_BFE, "bfe.u32 %r1, %r2, 3, 4;", NULL },
    { PTX_OP_BFI, "bfi.b32 %r1, %r2, %r3, 3, 4;", NULL },
    { PTX_OP_SZEXT, "szext.clamp.s32 %r1, %r2, %r3;", NULL },
    { PTX_OP_BMSK, "bmsk.clamp.b32 %r1, %r2, %r3;", NULL },
    { PTX_OP_DP4A, "dp4a.u32.u32 %r1, %r2, %r3, %r4;", NULL },
    { PTX_OP_DP2A, "dp2a.lo.s32.s32 %r1, %r2, %r3, %r4;", NULL },
    { PTX_OP_ADDC, "addc.u32 %r1, %r2, %r3;", NULL },
    { PTX_OP_SUBC, "subc.cc.u32 %r1, %r2, %r3;", NULL },
    { PTX_OP_MADC, "madc.hi.u32 %r1, %r2, %r3, %r4;", NULL },
    { PTX_OP_TESTP, "testp.finite.f32 %p1, %f2;", NULL },
    { PTX_OP_COPYSIGN, "copysign.f32 %f1, %f2, %f3;", NULL },
    { PTX_OP_FMA, "fma.rn.f32 %f1, %f2, %f3, %f4;", NULL },
    { PTX_OP_RCP, "rcp.approx.f32 %f1, %f2;", NULL },
    { PTX_OP_SQRT, "sqrt.rn.f32 %f1, %f2;", NULL },
    { PTX_OP_RSQRT, "rsqrt.approx.f32 %f1, %f2;", NULL },
    { PTX_OP_SIN, "sin.approx.f32 %f1, %f2;", NULL },
    { PTX_OP_COS, "cos.approx.f32 %f1, %f2;", NULL },
    { PTX_OP_LG2, "lg2.approx.f32 %f1, %f2;", NULL },
    { PTX_OP_EX2, "ex2.approx.f32 %f1, %f2;", NULL },
    { PTX_OP_TANH, "tanh.approx.f32 %f1, %f2;", NULL },
    { PTX_OP_SET, "set.lt.u32.f32 %r1, %f2, %f3;", NULL },
    { PTX_OP_SETP, "setp.lt.s32 %p1, %r2, %r3;", NULL },
    { PTX_OP_SELP, "selp.b32 %r1, %r2, %r3, %p1;", NULL },
    { PTX_OP_SLCT, "slct.u32.s32 %r1, %r2, %r3, %r4;", NULL },
    { PTX_OP_AND, "and.b32 %r1, %r2, %r3;", NULL },
    { PTX_OP_OR, "or.pred %p1, %p2, %p3;", NULL },
    { PTX_OP_XOR, "xor.b64 %rd1, %rd2, %rd3;", NULL },
    { PTX_OP_NOT, "not.b32 %r1, %r2;", NULL },
    { PTX_OP_CNOT, "cnot.b32 %r1, %r2;", NULL },
    { PTX_OP_LOP3, "lop3.b32 %r1, %r2, %r3, %r4, 0xe8;", NULL },
    { PTX_OP_SHF, "shf.l.wrap.b32 %r1, %r2, %r3, %r4;", NULL },
    { PTX_OP_SHL, "shl.b32 %r1, %r2, 3;", NULL },
    { PTX_OP_SHR, "shr.s32 %r1, %r2, %r3;", NULL },
    { PTX_OP_MOV, "mov.b64 {%r1, %r2}, %rd1;", NULL },
    { PTX_OP_SHFL, "shfl.bfly.b32 %r1, %r2, 1, 31;", NULL },
    { PTX_OP_SHFL_SYNC, "shfl.sync.idx.b32 %r1|%p1, %r2, %r3, 31, -1;",
      NULL },
    { PTX_OP_PRMT, "prmt.b32 %r1, %r2, %r3, %r4;", NULL },
    { PTX_OP_LD, "ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];", NULL },
    { PTX_OP_LDU, "ldu.global.u32 %r1, [%rd1];", NULL },
    { PTX_OP_ST, "st.shared.v2.f32 [%rd1], {%f1, %f2};", NULL },
    { PTX_OP_ST_ASYNC, "st.async.shared::cluster.mbarrier::complete_tx::"
      "bytes.u32 [%rd1], %r1, [%rd2];", NULL },
    { PTX_OP_ST_BULK, "st.bulk.weak.shared::cta [%rd1], %rd2, 0;",
      "instruction 'st.bulk.weak.shared::cta' " NS },
    { PTX_OP_RED_ASYNC, "red.async.relaxed.cluster.shared::cluster."
      "mbarrier::complete_tx::bytes.add.u32 [%rd1], %r1, [%rd2];", NULL },
    { PTX_OP_MULTIMEM_LD_REDUCE,
      "multimem.ld_reduce.global.add.u32 %r1, [%rd1];",
      "instruction 'multimem.ld_reduce.global.add.u32' " NS },
    { PTX_OP_MULTIMEM_ST, "multimem.st.global.u32 [%rd1], %r1;",
      "instruction 'multimem.st.global.u32' " NS },
    { PTX_OP_MULTIMEM_RED, "multimem.red.global.add.u32 [%rd1], %r1;",
      "instruction 'multimem.red.global.add.u32' " NS },
    { PTX_OP_MULTIMEM_CP_ASYNC_BULK,
      "multimem.cp.async.bulk.global.shared::cta.bulk_group "
      "[%rd1], [%rd2], %r1;",
      "instruction 'multimem.cp.async.bulk.global.shared::cta.bulk_group' "
      NS },
    { PTX_OP_MULTIMEM_CP_REDUCE_ASYNC_BULK,
      "multimem.cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 "
      "[%rd1], [%rd2], %r1;",
      "instruction 'multimem.cp.reduce.async.bulk.global.shared::cta."
      "bulk_group.add.u32' " NS },
    { PTX_OP_PREFETCH, "prefetch.global.L2 [%rd1];", NULL },
    { PTX_OP_PREFETCHU, "prefetchu.L1 [%rd1];", NULL },
    { PTX_OP_APPLYPRIORITY,
      "applypriority.global.L2::evict_normal [%rd1], 128;", NULL },
    { PTX_OP_DISCARD, "discard.global.L2 [%rd1], 128;", NULL },
    { PTX_OP_CREATEPOLICY_FRACTIONAL,
      "createpolicy.fractional.L2::evict_last.b64 %rd1, 1.0;", NULL },
    { PTX_OP_CREATEPOLICY_RANGE,
      "createpolicy.range.L2::evict_last.L2::evict_unchanged.b64 "
      "%rd1, [%rd2], %r1, %r2;", NULL },
    { PTX_OP_CREATEPOLICY_CVT, "createpolicy.cvt.L2.b64 %rd1, %rd2;",
      NULL },
    { PTX_OP_ISSPACEP, "isspacep.global %p1, %rd1;", NULL },
    { PTX_OP_CVTA, "cvta.to.global.u64 %rd1, %rd2;", NULL },
    { PTX_OP_CVT, "cvt.rn.f32.s32 %f1, %r1;", NULL },
    { PTX_OP_CVT_PACK, "cvt.pack.sat.u8.s32.b32 %r1, %r2, %r3, %r4;",
      NULL },
    { PTX_OP_MAPA, "mapa.shared::cluster.u32 %r1, %r2, %r3;", NULL },
    { PTX_OP_GETCTARANK, "getctarank.shared::cluster.u32 %r1, %r2;",
      NULL },
    { PTX_OP_CP_ASYNC, "cp.async.ca.shared.global [%rd1], [%rd2], 16;",
      NULL },
    { PTX_OP_CP_ASYNC_COMMIT_GROUP, "cp.async.commit_group;", NULL },
    { PTX_OP_CP_ASYNC_WAIT_GROUP, "cp.async.wait_group 1;", NULL },
    { PTX_OP_CP_ASYNC_WAIT_ALL, "cp.async.wait_all;", NULL },
    { PTX_OP_CP_ASYNC_MBARRIER_ARRIVE,
      "cp.async.mbarrier.arrive.shared.b64 [%rd1];", NULL },
    { PTX_OP_CP_ASYNC_BULK, "cp.async.bulk.shared::cluster.global."
      "mbarrier::complete_tx::bytes [%rd1], [%rd2], %r1, [%rd3];", NULL },
    { PTX_OP_CP_REDUCE_ASYNC_BULK, "cp.reduce.async.bulk.global."
      "shared::cta.bulk_group.add.u32 [%rd1], [%rd2], %r1;", NULL },
    { PTX_OP_CP_ASYNC_BULK_PREFETCH,
      "cp.async.bulk.prefetch.L2.global [%rd1], %r1;", NULL },
    { PTX_OP_CP_ASYNC_BULK_TENSOR, "cp.async.bulk.tensor.2d.shared::"
      "cluster.global.tile.mbarrier::complete_tx::bytes [%rd1], "
      "[%rd2, {%r1, %r2}], [%rd3];", NULL },
    { PTX_OP_CP_REDUCE_ASYNC_BULK_TENSOR, "cp.reduce.async.bulk.tensor."
      "2d.global.shared::cta.add.tile.bulk_group [%rd1, {%r1, %r2}], "
      "[%rd2];", NULL },
    { PTX_OP_CP_ASYNC_BULK_PREFETCH_TENSOR, "cp.async.bulk.prefetch."
      "tensor.2d.L2.global.tile [%rd1, {%r1, %r2}];", NULL },
    { PTX_OP_CP_ASYNC_BULK_COMMIT_GROUP, "cp.async.bulk.commit_group;",
      NULL },
    { PTX_OP_CP_ASYNC_BULK_WAIT_GROUP, "cp.async.bulk.wait_group 0;",
      NULL },
    { PTX_OP_TENSORMAP_REPLACE, "tensormap.replace.tile.global_address."
      "global.b1024.b64 [%rd1], %rd2;",
      "instruction 'tensormap.replace.tile.global_address.global.b1024.b64' "
      NS },
    { PTX_OP_TENSORMAP_CP_FENCEPROXY, "tensormap.cp_fenceproxy.global."
      "shared::cta.tensormap::generic.release.gpu.sync.aligned "
      "[%rd1], [%rd2], 128;",
      "instruction 'tensormap.cp_fenceproxy.global.shared::cta."
      "tensormap::generic.release.gpu.sync.aligned' " NS },
    { PTX_OP_TEX, "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, "
      "[tref, {%f5, %f6}];", NULL },
    { PTX_OP_TLD4, "tld4.r.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, "
      "[tref, {%f5, %f6}];", NULL },
    { PTX_OP_TXQ, "txq.width.b32 %r1, [tref];", NULL },
    { PTX_OP_ISTYPEP, "istypep.texref %p1, %rd1;", NULL },
    { PTX_OP_SULD, "suld.b.2d.v2.b32.trap {%r1, %r2}, [sref, {%r3, %r4}];",
      NULL },
    { PTX_OP_SUST, "sust.b.2d.v2.b32.trap [sref, {%r3, %r4}], {%r1, %r2};",
      NULL },
    { PTX_OP_SURED, "sured.b.add.2d.trap.u32 [sref, {%r3, %r4}], %r1;",
      NULL },
    { PTX_OP_SUQ, "suq.width.b32 %r1, [sref];", NULL },
    { PTX_OP_BRA, "bra T0;", NULL },
    { PTX_OP_BRX_IDX, "ts: .branchtargets T0;\nbrx.idx %r1, ts;", NULL },
    { PTX_OP_CALL, "call.uni (%r3), rfunc, (%r1, %r2);", NULL },
    { PTX_OP_RET, "ret;", NULL },
    { PTX_OP_EXIT, "exit;", NULL },
    { PTX_OP_TRAP, "trap;", NULL },
    { PTX_OP_BRKPT, "brkpt;", NULL },
    { PTX_OP_NANOSLEEP, "nanosleep.u32 %r1;", NULL },
    { PTX_OP_PMEVENT, "pmevent 1;", NULL },
    { PTX_OP_PMEVENT_MASK, "pmevent.mask 3;", NULL },
    { PTX_OP_BAR_SYNC, "bar.sync 0;", NULL },
    { PTX_OP_BAR_ARRIVE, "bar.arrive 1, 64;", NULL },
    { PTX_OP_BAR_RED, "bar.red.popc.u32 %r1, 0, %p1;", NULL },
    { PTX_OP_BAR_CTA_SYNC, "bar.cta.sync 0;", NULL },
    { PTX_OP_BAR_CTA_ARRIVE, "bar.cta.arrive 1, 64;", NULL },
    { PTX_OP_BAR_CTA_RED, "bar.cta.red.or.pred %p1, 0, %p2;", NULL },
    { PTX_OP_BARRIER_SYNC, "barrier.sync 0;", NULL },
    { PTX_OP_BARRIER_ARRIVE, "barrier.arrive 1, 64;", NULL },
    { PTX_OP_BARRIER_RED, "barrier.red.and.pred %p1, 0, %p2;", NULL },
    { PTX_OP_BARRIER_CTA_SYNC, "barrier.cta.sync.aligned 0;", NULL },
    { PTX_OP_BARRIER_CTA_ARRIVE, "barrier.cta.arrive 1, 64;", NULL },
    { PTX_OP_BARRIER_CTA_RED, "barrier.cta.red.popc.u32 %r1, 0, !%p1;",
      NULL },
    { PTX_OP_BAR_WARP_SYNC, "bar.warp.sync -1;", NULL },
    { PTX_OP_BARRIER_CLUSTER_ARRIVE, "barrier.cluster.arrive;", NULL },
    { PTX_OP_BARRIER_CLUSTER_WAIT, "barrier.cluster.wait;", NULL },
    { PTX_OP_MEMBAR, "membar.gl;", NULL },
    { PTX_OP_MEMBAR_PROXY, "membar.proxy.alias;", NULL },
    { PTX_OP_FENCE, "fence.acq_rel.gpu;", NULL },
    { PTX_OP_FENCE_PROXY, "fence.proxy.async.shared::cta;", NULL },
    { PTX_OP_ATOM, "atom.global.cas.b32 %r1, [%rd1], %r2, %r3;", NULL },
    { PTX_OP_RED, "red.global.add.u32 [%rd1], %r1;", NULL },
    { PTX_OP_VOTE, "vote.any.pred %p1, %p2;", NULL },
    { PTX_OP_VOTE_SYNC, "vote.sync.ballot.b32 %r1, %p1, -1;", NULL },
    { PTX_OP_MATCH_ANY_SYNC, "match.any.sync.b32 %r1, %r2, -1;", NULL },
    { PTX_OP_MATCH_ALL_SYNC, "match.all.sync.b32 %r1|%p1, %r2, -1;",
      NULL },
    { PTX_OP_ACTIVEMASK, "activemask.b32 %r1;", NULL },
    { PTX_OP_REDUX_SYNC, "redux.sync.add.u32 %r1, %r2, -1;", NULL },
    { PTX_OP_GRIDDEPCONTROL_LAUNCH_DEPENDENTS,
      "griddepcontrol.launch_dependents;", NULL },
    { PTX_OP_GRIDDEPCONTROL_WAIT, "griddepcontrol.wait;", NULL },
    { PTX_OP_ELECT_SYNC, "elect.sync %r1|%p1, -1;", NULL },
    { PTX_OP_MBARRIER_INIT, "mbarrier.init.shared.b64 [%rd1], %r1;", NULL },
    { PTX_OP_MBARRIER_INVAL, "mbarrier.inval.shared.b64 [%rd1];", NULL },
    { PTX_OP_MBARRIER_ARRIVE, "mbarrier.arrive.shared.b64 %rd2, [%rd1];",
      NULL },
    { PTX_OP_MBARRIER_ARRIVE_DROP,
      "mbarrier.arrive_drop.shared.b64 %rd2, [%rd1];", NULL },
    { PTX_OP_MBARRIER_EXPECT_TX,
      "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%rd1], %r1;",
      NULL },
    { PTX_OP_MBARRIER_COMPLETE_TX,
      "mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%rd1], %r1;",
      NULL },
    { PTX_OP_MBARRIER_TEST_WAIT,
      "mbarrier.test_wait.shared.b64 %p1, [%rd1], %rd2;", NULL },
    { PTX_OP_MBARRIER_TRY_WAIT,
      "mbarrier.try_wait.parity.shared::cta.b64 %p1, [%rd1], %r1;", NULL },
    { PTX_OP_MBARRIER_PENDING_COUNT,
      "mbarrier.pending_count.b64 %r1, %rd1;", NULL },
    { PTX_OP_SETMAXNREG, "setmaxnreg.inc.sync.aligned.u32 240;", NULL },
    { PTX_OP_WMMA_LOAD, "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 "
      "{%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1], %r9;", NULL },
    { PTX_OP_WMMA_STORE, "wmma.store.d.sync.aligned.row.m16n16k16.global."
      "f32 [%rd1], {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, %r9;", NULL },
    { PTX_OP_WMMA_MMA, "wmma.mma.sync.aligned.row.col.m16n16k16.f16.f16 "
      "{%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12}, "
      "{%r13, %r14, %r15, %r16, %r17, %r18, %r19, %r20}, "
      "{%r21, %r22, %r23, %r24};", NULL },
    { PTX_OP_MMA, "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 "
      "{%r1, %r2}, {%r3, %r4, %r5, %r6}, {%r7, %r8}, {%r9, %r10};", NULL },
    { PTX_OP_MMA_SP, "mma.sp.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16 "
      "{%r1, %r2}, {%r3, %r4, %r5, %r6}, {%r7, %r8, %r9, %r10}, "
      "{%r11, %r12}, %r13, 0;",
      "instruction 'mma.sp.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16' "
      NS },
    { PTX_OP_MMA_SP_ORDERED, "mma.sp::ordered_metadata.sync.aligned."
      "m16n8k32.row.col.f16.f16.f16.f16 {%r1, %r2}, {%r3, %r4, %r5, %r6}, "
      "{%r7, %r8, %r9, %r10}, {%r11, %r12}, %r13, 0;",
      "instruction 'mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col."
      "f16.f16.f16.f16' " NS },
    { PTX_OP_LDMATRIX, "ldmatrix.sync.aligned.m8n8.x4.shared.b16 "
      "{%r1, %r2, %r3, %r4}, [%rd1];", NULL },
    { PTX_OP_STMATRIX, "stmatrix.sync.aligned.m8n8.x2.shared.b16 "
      "[%rd1], {%r1, %r2};", NULL },
    { PTX_OP_MOVMATRIX, "movmatrix.sync.aligned.m8n8.trans.b16 %r1, %r2;",
      NULL },
    { PTX_OP_WGMMA_FENCE, "wgmma.fence.sync.aligned;", NULL },
    { PTX_OP_WGMMA_COMMIT_GROUP, "wgmma.commit_group.sync.aligned;", NULL },
    { PTX_OP_WGMMA_WAIT_GROUP, "wgmma.wait_group.sync.aligned 0;", NULL },
    { PTX_OP_WGMMA_MMA_ASYNC, "wgmma.mma_async.sync.aligned.m64n8k16.f32."
      "f16.f16 {%f0, %f1, %f2, %f3}, %rd1, %rd2, %p1, 1, 1, 0, 0;", NULL },
    { PTX_OP_WGMMA_MMA_ASYNC_SP, "wgmma.mma_async.sp.sync.aligned."
      "m64n8k32.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd1, %rd2, %r1, 0, %p1, "
      "1, 1, 0, 0;", NULL },
    { PTX_OP_TCGEN05_ALLOC, "tcgen05.alloc.cta_group::1.sync.aligned."
      "shared::cta.b32 [%rd1], 32;",
      "instruction 'tcgen05.alloc.cta_group::1.sync.aligned.shared::cta."
      "b32' " NS },
    { PTX_OP_TCGEN05_DEALLOC, "tcgen05.dealloc.cta_group::1.sync.aligned."
      "b32 %r1, 32;",
      "instruction 'tcgen05.dealloc.cta_group::1.sync.aligned.b32' " NS },
    { PTX_OP_TCGEN05_RELINQUISH_ALLOC_PERMIT,
      "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;",
      "instruction 'tcgen05.relinquish_alloc_permit.cta_group::1.sync."
      "aligned' " NS },
    { PTX_OP_TCGEN05_LD, "tcgen05.ld.sync.aligned.32x32b.x2.b32 "
      "{%r1, %r2}, [%r3];",
      "instruction 'tcgen05.ld.sync.aligned.32x32b.x2.b32' " NS },
    { PTX_OP_TCGEN05_LD_RED, "tcgen05.ld.red.sync.aligned.32x32b.x2.min."
      "f32 {%f1, %f2}, %f3, [%r3];",
      "instruction 'tcgen05.ld.red.sync.aligned.32x32b.x2.min.f32' " NS },
    { PTX_OP_TCGEN05_ST, "tcgen05.st.sync.aligned.32x32b.x2.b32 [%r3], "
      "{%r1, %r2};",
      "instruction 'tcgen05.st.sync.aligned.32x32b.x2.b32' " NS },
    { PTX_OP_TCGEN05_WAIT_LD, "tcgen05.wait::ld.sync.aligned;",
      "instruction 'tcgen05.wait::ld.sync.aligned' " NS },
    { PTX_OP_TCGEN05_WAIT_ST, "tcgen05.wait::st.sync.aligned;",
      "instruction 'tcgen05.wait::st.sync.aligned' " NS },
    { PTX_OP_TCGEN05_CP, "tcgen05.cp.cta_group::1.128x256b [%r1], %rd1;",
      "instruction 'tcgen05.cp.cta_group::1.128x256b' " NS },
    { PTX_OP_TCGEN05_SHIFT, "tcgen05.shift.cta_group::1.down [%r1];",
      "instruction 'tcgen05.shift.cta_group::1.down' " NS },
    { PTX_OP_TCGEN05_MMA, "tcgen05.mma.cta_group::1.kind::f16 [%r1], "
      "%rd1, %rd2, %r2, %p1;",
      "instruction 'tcgen05.mma.cta_group::1.kind::f16' " NS },
    { PTX_OP_TCGEN05_MMA_SP, "tcgen05.mma.sp.cta_group::1.kind::f16 "
      "[%r1], %rd1, %rd2, [%r4], %r2, %p1;",
      "instruction 'tcgen05.mma.sp.cta_group::1.kind::f16' " NS },
    { PTX_OP_TCGEN05_MMA_WS, "tcgen05.mma.ws.cta_group::1.kind::f16 "
      "[%r1], %rd1, %rd2, %r2, %p1;",
      "instruction 'tcgen05.mma.ws.cta_group::1.kind::f16' " NS },
    { PTX_OP_TCGEN05_MMA_WS_SP, "tcgen05.mma.ws.sp.cta_group::1.kind::f16 "
      "[%r1], %rd1, %rd2, [%r4], %r2, %p1;",
      "instruction 'tcgen05.mma.ws.sp.cta_group::1.kind::f16' " NS },
    { PTX_OP_TCGEN05_COMMIT, "tcgen05.commit.cta_group::1.mbarrier::arrive"
      "::one.shared::cluster.b64 [%rd1];",
      "instruction 'tcgen05.commit.cta_group::1.mbarrier::arrive::one."
      "shared::cluster.b64' " NS },
    { PTX_OP_TCGEN05_FENCE_BEFORE, "tcgen05.fence::before_thread_sync;",
      "instruction 'tcgen05.fence::before_thread_sync' " NS },
    { PTX_OP_TCGEN05_FENCE_AFTER, "tcgen05.fence::after_thread_sync;",
      "instruction 'tcgen05.fence::after_thread_sync' " NS },
    { PTX_OP_CLC_TRY_CANCEL, "clusterlaunchcontrol.try_cancel.async."
      "shared::cta.mbarrier::complete_tx::bytes.b128 [%rd1], [%rd2];",
      "instruction 'clusterlaunchcontrol.try_cancel.async.shared::cta."
      "mbarrier::complete_tx::bytes.b128' " NS },
    { PTX_OP_CLC_QUERY_CANCEL, "clusterlaunchcontrol.query_cancel."
      "is_canceled.pred.b128 %p1, %q1;",
      "instruction 'clusterlaunchcontrol.query_cancel.is_canceled.pred."
      "b128' " NS },
    { PTX_OP_ALLOCA, "alloca.u64 %rd1, %rd2;", NULL },
    { PTX_OP_STACKSAVE, "stacksave.u64 %rd1;", NULL },
    { PTX_OP_STACKRESTORE, "stackrestore.u64 %rd1;", NULL },
    { PTX_OP_VADD, "vadd.u32.u32.u32.sat %r1, %r2.b0, %r3.h1, %r4;", NULL },
    { PTX_OP_VSUB, "vsub.s32.s32.s32 %r1, %r2, %r3;", NULL },
    { PTX_OP_VABSDIFF, "vabsdiff.u32.u32.u32 %r1, %r2, %r3;", NULL },
    { PTX_OP_VMIN, "vmin.s32.s32.s32 %r1, %r2, %r3;", NULL },
    { PTX_OP_VMAX, "vmax.u32.u32.u32 %r1, %r2, %r3;", NULL },
    { PTX_OP_VSHL, "vshl.u32.u32.u32.clamp %r1, %r2, %r3;", NULL },
    { PTX_OP_VSHR, "vshr.s32.s32.u32.wrap %r1, %r2, %r3;", NULL },
    { PTX_OP_VMAD, "vmad.u32.u32.u32 %r1, %r2, %r3, %r4;", NULL },
    { PTX_OP_VSET, "vset.u32.u32.lt %r1, %r2, %r3;", NULL },
    { PTX_OP_VADD2, "vadd2.u32.u32.u32 %r1, %r2, %r3, %r4;", NULL },
    { PTX_OP_VSUB2, "vsub2.s32.s32.s32 %r1, %r2, %r3, %r4;", NULL },
    { PTX_OP_VAVRG2, "vavrg2.u32.u32.u32 %r1, %r2, %r3, %r4;", NULL },
    { PTX_OP_VABSDIFF2, "vabsdiff2.u32.u32.u32 %r1, %r2, %r3, %r4;", NULL },
    { PTX_OP_VMIN2, "vmin2.s32.s32.s32 %r1, %r2, %r3, %r4;", NULL },
    { PTX_OP_VMAX2, "vmax2.u32.u32.u32 %r1, %r2, %r3, %r4;", NULL },
    { PTX_OP_VSET2, "vset2.u32.u32.lt %r1, %r2, %r3, %r4;", NULL },
    { PTX_OP_VADD4, "vadd4.u32.u32.u32 %r1, %r2, %r3, %r4;", NULL },
    { PTX_OP_VSUB4, "vsub4.s32.s32.s32 %r1, %r2, %r3, %r4;", NULL },
    { PTX_OP_VAVRG4, "vavrg4.u32.u32.u32 %r1, %r2, %r3, %r4;", NULL },
    { PTX_OP_VABSDIFF4, "vabsdiff4.u32.u32.u32 %r1, %r2, %r3, %r4;", NULL },
    { PTX_OP_VMIN4, "vmin4.s32.s32.s32 %r1, %r2, %r3, %r4;", NULL },
    { PTX_OP_VMAX4, "vmax4.u32.u32.u32 %r1, %r2, %r3, %r4;", NULL },
    { PTX_OP_VSET4, "vset4.u32.u32.lt %r1, %r2, %r3, %r4;", NULL },
};

#define NREPS (sizeof(reps) / sizeof(reps[0]))

/* Load a module (which owns ir from then on, also on failure); NULL
 * and *msg set when the load fails. */
static EmuModule *try_load(EmuDevice *d, IrModule *ir, char **msg)
{
    EmuStatus st;
    *msg = NULL;
    return emu_module_load(d, ir, &st, msg);
}

/* The first instruction of kernel k in ir with opcode op. */
static const IrInsn *find_insn(const IrModule *ir, PtxOpcode op)
{
    for (uint32_t f = 0; f < ir->nfuncs; f++) {
        const IrFunc *fn = ir->funcs[f];
        if (strcmp(fn->name, "k") != 0) {
            continue;
        }
        for (uint32_t i = 0; i < fn->ninsns; i++) {
            if (fn->insns[i].op == op) {
                return &fn->insns[i];
            }
        }
    }
    return NULL;
}

/* Every opcodes.def row has exactly one representative. */
START_TEST(test_every_row_listed)
{
    unsigned seen[PTX_OP_COUNT] = { 0 };
    for (size_t r = 0; r < NREPS; r++) {
        ck_assert_int_gt(reps[r].op, PTX_OP_INVALID);
        ck_assert_int_lt(reps[r].op, PTX_OP_COUNT);
        seen[reps[r].op]++;
    }
    for (unsigned op = 1; op < PTX_OP_COUNT; op++) {
        ck_assert_msg(seen[op] == 1, "opcode '%s' has %u representatives",
                      ptx_opinfo((PtxOpcode)op)->name, seen[op]);
    }
}
END_TEST

/* Row r: its representative loads with a handler, or fails with its
 * message; either way its unit class is a real one. */
START_TEST(test_row_handler)
{
    const RepRow *r = &reps[_i];
    const char *name = ptx_opinfo(r->op)->name;
    char *src = module_text(r->insn);
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    IrModule *ir = parse_ok(src);
    const IrInsn *in = find_insn(ir, r->op);
    ck_assert_msg(in != NULL, "'%s': representative has no such opcode",
                  name);
    EmuUnit u = emu_insn_unit(in);
    char *msg;
    EmuModule *m = try_load(d, ir, &msg);   /* in: valid if m */
    ck_assert_msg(u >= EMU_UNIT_INT && u < EMU_UNIT_COUNT,
                  "'%s': unit class %d", name, (int)u);
    ck_assert_str_ne(emu_unit_name(u), "?");
    if (r->unsupported) {
        ck_assert_msg(m == NULL, "'%s' now loads: take it off the "
                      "unsupported list", name);
        ck_assert_msg(msg && strstr(msg, r->unsupported),
                      "'%s': expected '%s' in '%s'", name, r->unsupported,
                      msg ? msg : "(none)");
    } else {
        ck_assert_msg(m != NULL, "'%s' does not load: %s", name,
                      msg ? msg : "(no message)");
        EmuFunc *k = emu_module_kernel(m, "k");
        ck_assert_ptr_nonnull(k);
        uint32_t pc = (uint32_t)(in - k->ir->insns);
        ck_assert_uint_lt(pc, k->ncode);
        ck_assert_ptr_nonnull(k->code[pc].fn);
        const EmuInsnInfo *info = emu_insn_info(k, pc);
        ck_assert_int_eq(info->op, r->op);
        ck_assert_int_eq(info->unit, u);
        ck_assert_uint_eq(info->opf, ptx_opinfo(r->op)->flags);
        emu_module_free(m);
    }
    free(msg);
    emu_device_free(d);
    free(src);
}
END_TEST

/* A shape's 'v' operand does not say which way the vector goes: such
 * rows must give their roles in emu/insninfo.def. */
START_TEST(test_vector_rows_have_roles)
{
    for (unsigned op = 1; op < PTX_OP_COUNT; op++) {
        const PtxOpInfo *oi = ptx_opinfo((PtxOpcode)op);
        bool vec = false;
        for (unsigned k = 0; k < oi->nopnd_max; k++) {
            vec |= oi->opnd[k].kind == OK_VEC;
        }
        if (vec) {
            ck_assert_msg(emu_opcode_has_roles((PtxOpcode)op),
                          "'%s' has vector operands but no roles",
                          oi->name);
        }
    }
}
END_TEST

/* ------------------------------------------------------ operand roles */

typedef struct SlotCase {
    const char *id;
    const char *body;            /* kernel instructions */
    unsigned pc;                 /* the instruction checked */
    const char *src, *dst;       /* register names / pseudo slots */
    EmuUnit unit;
    EmuWait wait;
    bool async;
    PtxSpace space, space2;
} SlotCase;

static const SlotCase slot_cases[] = {
    /* add.cc / addc chain (PTX ISA 9.7.2): .cc writes CC.CF, addc
     * reads it */
    { "add.cc", "add.cc.u32 %r1, %r2, %r3;\naddc.cc.u32 %r4, %r5, %r6;\n"
      "addc.u32 %r7, %r8, %r9;", 0, "%r2 %r3", "%r1 CC", EMU_UNIT_INT,
      EMU_WAIT_NONE, false, PTX_SPACE_NONE, PTX_SPACE_NONE },
    { "addc.cc", "add.cc.u32 %r1, %r2, %r3;\naddc.cc.u32 %r4, %r5, %r6;\n"
      "addc.u32 %r7, %r8, %r9;", 1, "%r5 %r6 CC", "%r4 CC", EMU_UNIT_INT,
      EMU_WAIT_NONE, false, PTX_SPACE_NONE, PTX_SPACE_NONE },
    { "addc", "add.cc.u32 %r1, %r2, %r3;\naddc.cc.u32 %r4, %r5, %r6;\n"
      "addc.u32 %r7, %r8, %r9;", 2, "%r8 %r9 CC", "%r7", EMU_UNIT_INT,
      EMU_WAIT_NONE, false, PTX_SPACE_NONE, PTX_SPACE_NONE },
    { "mad.cc", "mad.lo.cc.u32 %r1, %r2, %r3, %r4;\n"
      "madc.hi.u32 %r5, %r2, %r3, %r6;", 1, "%r2 %r3 %r6 CC", "%r5",
      EMU_UNIT_INT, EMU_WAIT_NONE, false, PTX_SPACE_NONE, PTX_SPACE_NONE },
    /* setp with a guard, a pair destination and a predicate c
     * (9.7.6.1: setp.CmpOp.BoolOp p|q, a, b, {!}c) */
    { "setp.pair", "@%p3 setp.lt.and.s32 %p1|%p2, %r1, %r1, !%p4;", 0,
      "%p3 %r1 %p4", "%p1 %p2", EMU_UNIT_INT, EMU_WAIT_NONE, false,
      PTX_SPACE_NONE, PTX_SPACE_NONE },
    /* ld.v4: four destinations, the address base the only source */
    { "ld.global.v4", "ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1+16];",
      0, "%rd1", "%r1 %r2 %r3 %r4", EMU_UNIT_LDST, EMU_WAIT_NONE, false,
      PTX_SPACE_GLOBAL, PTX_SPACE_NONE },
    { "ld.v2.sink", "ld.global.v2.u32 {%r1, _}, [%rd1];", 0, "%rd1", "%r1",
      EMU_UNIT_LDST, EMU_WAIT_NONE, false, PTX_SPACE_GLOBAL,
      PTX_SPACE_NONE },
    { "st.shared.v2", "@!%p1 st.shared.v2.f32 [%rd1], {%f1, %f2};", 0,
      "%p1 %rd1 %f1 %f2", "", EMU_UNIT_LDST, EMU_WAIT_NONE, false,
      PTX_SPACE_SHARED, PTX_SPACE_NONE },
    /* a generic access to a named variable: its space is known */
    { "ld.generic.sym", "ld.u32 %r1, [gbuf+8];", 0, "", "%r1",
      EMU_UNIT_LDST, EMU_WAIT_NONE, false, PTX_SPACE_GLOBAL,
      PTX_SPACE_NONE },
    { "ld.generic.reg", "ld.u32 %r1, [%rd2];", 0, "%rd2", "%r1",
      EMU_UNIT_LDST, EMU_WAIT_NONE, false, PTX_SPACE_GENERIC,
      PTX_SPACE_NONE },
    /* atom.cas d, [a], b, c (9.7.13.5) */
    { "atom.cas", "atom.global.cas.b32 %r1, [%rd1], %r2, %r3;", 0,
      "%rd1 %r2 %r3", "%r1", EMU_UNIT_LDST, EMU_WAIT_NONE, false,
      PTX_SPACE_GLOBAL, PTX_SPACE_NONE },
    { "red.add", "red.shared.add.u32 [%rd1+4], %r2;", 0, "%rd1 %r2", "",
      EMU_UNIT_LDST, EMU_WAIT_NONE, false, PTX_SPACE_SHARED,
      PTX_SPACE_NONE },
    /* mma.m16n8k16 .f16: D 2 regs, A 4, B 2, C 2 (9.7.14.5.8) */
    { "mma.m16n8k16.f16", "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16."
      "f16 {%r1, %r2}, {%r3, %r4, %r5, %r6}, {%r7, %r8}, {%r9, %r10};", 0,
      "%r3 %r4 %r5 %r6 %r7 %r8 %r9 %r10", "%r1 %r2", EMU_UNIT_TENSOR,
      EMU_WAIT_NONE, false, PTX_SPACE_NONE, PTX_SPACE_NONE },
    /* mma .f32 accumulating in place: D and C the same registers */
    { "mma.m16n8k8.f32", "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
      "{%f1, %f2, %f3, %f4}, {%r1, %r2}, {%r3}, {%f1, %f2, %f3, %f4};", 0,
      "%r1 %r2 %r3 %f1 %f2 %f3 %f4", "%f1 %f2 %f3 %f4", EMU_UNIT_TENSOR,
      EMU_WAIT_NONE, false, PTX_SPACE_NONE, PTX_SPACE_NONE },
    /* wgmma.mma_async m64n8k16 .f32: 4 accumulators per thread, read and
     * written (D = A*B + D), descriptors and scale-d read
     * (9.7.15.5.2) */
    { "wgmma.m64n8k16", "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
      "{%f0, %f1, %f2, %f3}, %rd1, %rd2, %p1, 1, 1, 0, 0;", 0,
      "%f0 %f1 %f2 %f3 %rd1 %rd2 %p1", "%f0 %f1 %f2 %f3", EMU_UNIT_TENSOR,
      EMU_WAIT_NONE, true, PTX_SPACE_NONE, PTX_SPACE_NONE },
    /* A from registers: 4 .f16x2 registers, no imm-trans-a */
    { "wgmma.regA", "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
      "{%f0, %f1, %f2, %f3}, {%r1, %r2, %r3, %r4}, %rd2, %p1, 1, 1, 0;", 0,
      "%f0 %f1 %f2 %f3 %r1 %r2 %r3 %r4 %rd2 %p1", "%f0 %f1 %f2 %f3",
      EMU_UNIT_TENSOR, EMU_WAIT_NONE, true, PTX_SPACE_NONE,
      PTX_SPACE_NONE },
    { "wgmma.wait", "wgmma.wait_group.sync.aligned 0;", 0, "", "",
      EMU_UNIT_SYNC, EMU_WAIT_WGMMA, false, PTX_SPACE_NONE,
      PTX_SPACE_NONE },
    /* tex.2d.v4 d, [t, {x, y}] through a texture object register */
    { "tex.2d.v4", "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, "
      "[%rd1, {%f5, %f6}];", 0, "%rd1 %f5 %f6", "%f1 %f2 %f3 %f4",
      EMU_UNIT_TEX, EMU_WAIT_NONE, false, PTX_SPACE_TEX, PTX_SPACE_NONE },
    { "tex.texref", "tex.2d.v4.f32.f32 {%f1, %f2, _, %f4}, "
      "[tref, {%f5, %f6}];", 0, "%f5 %f6", "%f1 %f2 %f4", EMU_UNIT_TEX,
      EMU_WAIT_NONE, false, PTX_SPACE_TEX, PTX_SPACE_NONE },
    { "suld.v2", "suld.b.2d.v2.b32.trap {%r1, %r2}, [%rd1, {%r3, %r4}];", 0,
      "%rd1 %r3 %r4", "%r1 %r2", EMU_UNIT_TEX, EMU_WAIT_NONE, false,
      PTX_SPACE_TEX, PTX_SPACE_NONE },
    { "sust.v2", "sust.b.2d.v2.b32.trap [%rd1, {%r3, %r4}], {%r1, %r2};", 0,
      "%rd1 %r3 %r4 %r1 %r2", "", EMU_UNIT_TEX, EMU_WAIT_NONE, false,
      PTX_SPACE_TEX, PTX_SPACE_NONE },
    /* shfl.sync d|p, a, b, c, membermask (9.7.9.6) */
    { "shfl.sync.pair", "shfl.sync.bfly.b32 %r1|%p1, %r2, %r3, 31, %r4;", 0,
      "%r2 %r3 %r4", "%r1 %p1", EMU_UNIT_WARP, EMU_WAIT_NONE, false,
      PTX_SPACE_NONE, PTX_SPACE_NONE },
    /* call with register arguments and return: 3 is an immediate */
    { "call.regs", "call.uni (%r3), rfunc, (%r1, 3);", 0, "%r1", "%r3",
      EMU_UNIT_CTRL, EMU_WAIT_NONE, false, PTX_SPACE_NONE,
      PTX_SPACE_NONE },
    /* call with .param variables: the frame's call-sequence params */
    { "call.params", "{\n.param .b32 a0;\n.param .b32 r0;\n"
      "st.param.b32 [a0], %r1;\ncall (r0), callee, (a0);\n"
      "ld.param.b32 %r2, [r0];\n}", 1, "PARAM", "PARAM", EMU_UNIT_CTRL,
      EMU_WAIT_NONE, false, PTX_SPACE_NONE, PTX_SPACE_NONE },
    /* bar.red.popc d, a, {!}c: the CTA's reduction is implicit state */
    { "bar.red.popc", "bar.red.popc.u32 %r1, 0, !%p1;", 0, "%p1 BARRED",
      "%r1 BARRED", EMU_UNIT_SYNC, EMU_WAIT_BAR_CTA, false, PTX_SPACE_NONE,
      PTX_SPACE_NONE },
    { "bar.sync", "bar.sync %r1, %r2;", 0, "%r1 %r2", "", EMU_UNIT_SYNC,
      EMU_WAIT_BAR_CTA, false, PTX_SPACE_NONE, PTX_SPACE_NONE },
    /* cvt packing two f32 into f16x2 (9.7.9.21) */
    { "cvt.f16x2", "cvt.rn.f16x2.f32 %r1, %f1, %f2;", 0, "%f1 %f2", "%r1",
      EMU_UNIT_SFU, EMU_WAIT_NONE, false, PTX_SPACE_NONE, PTX_SPACE_NONE },
    { "mov.unpack", "mov.b64 {%r1, %r2}, %rd1;", 0, "%rd1", "%r1 %r2",
      EMU_UNIT_INT, EMU_WAIT_NONE, false, PTX_SPACE_NONE, PTX_SPACE_NONE },
    { "mov.pack", "mov.b64 %rd1, {%r1, %r2};", 0, "%r1 %r2", "%rd1",
      EMU_UNIT_INT, EMU_WAIT_NONE, false, PTX_SPACE_NONE, PTX_SPACE_NONE },
    /* a .b128 register is two slots (low, high 64 bits) */
    { "mov.b128", "mov.b128 {%rd1, %rd2}, %q1;", 0, "%q1 %q1+1",
      "%rd1 %rd2", EMU_UNIT_INT, EMU_WAIT_NONE, false, PTX_SPACE_NONE,
      PTX_SPACE_NONE },
    { "ld.b128", "ld.global.b128 %q0, [%rd1];", 0, "%rd1", "%q0 %q0+1",
      EMU_UNIT_LDST, EMU_WAIT_NONE, false, PTX_SPACE_GLOBAL,
      PTX_SPACE_NONE },
    /* ldmatrix .x4: 4 destinations; stmatrix .x2: 2 sources */
    { "ldmatrix.x4", "ldmatrix.sync.aligned.m8n8.x4.shared.b16 "
      "{%r1, %r2, %r3, %r4}, [%rd1];", 0, "%rd1", "%r1 %r2 %r3 %r4",
      EMU_UNIT_LDST, EMU_WAIT_NONE, false, PTX_SPACE_SHARED,
      PTX_SPACE_NONE },
    { "stmatrix.x2", "stmatrix.sync.aligned.m8n8.x2.shared.b16 "
      "[%rd1], {%r1, %r2};", 0, "%rd1 %r1 %r2", "", EMU_UNIT_LDST,
      EMU_WAIT_NONE, false, PTX_SPACE_SHARED, PTX_SPACE_NONE },
    /* wmma.load.a f16 m16n16k16: 8 registers (9.7.14.4.2) */
    { "wmma.load", "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 "
      "{%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1], %r9;", 0,
      "%rd1 %r9", "%r1 %r2 %r3 %r4 %r5 %r6 %r7 %r8", EMU_UNIT_LDST,
      EMU_WAIT_NONE, false, PTX_SPACE_GLOBAL, PTX_SPACE_NONE },
    { "wmma.store", "wmma.store.d.sync.aligned.row.m16n16k16.shared.f32 "
      "[%rd1], {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8};", 0,
      "%rd1 %f1 %f2 %f3 %f4 %f5 %f6 %f7 %f8", "", EMU_UNIT_LDST,
      EMU_WAIT_NONE, false, PTX_SPACE_SHARED, PTX_SPACE_NONE },
    { "wmma.mma", "wmma.mma.sync.aligned.row.col.m16n16k16.f16.f16 "
      "{%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12}, "
      "{%r13, %r14, %r15, %r16, %r17, %r18, %r19, %r20}, "
      "{%r1, %r2, %r3, %r4};", 0, "%r5 %r6 %r7 %r8 %r9 %r10 %r11 %r12 "
      "%r13 %r14 %r15 %r16 %r17 %r18 %r19 %r20 %r1 %r2 %r3 %r4",
      "%r1 %r2 %r3 %r4", EMU_UNIT_TENSOR, EMU_WAIT_NONE, false,
      PTX_SPACE_NONE, PTX_SPACE_NONE },
    /* mbarrier: arrive returns the state; try_wait reads it */
    { "mbarrier.arrive", "mbarrier.arrive.shared.b64 %rd1, [%rd2];", 0,
      "%rd2", "%rd1", EMU_UNIT_SYNC, EMU_WAIT_NONE, false,
      PTX_SPACE_SHARED, PTX_SPACE_NONE },
    { "mbarrier.try_wait", "mbarrier.try_wait.parity.shared::cta.b64 "
      "%p1, [%rd2], %r1;", 0, "%rd2 %r1", "%p1", EMU_UNIT_SYNC,
      EMU_WAIT_MBARRIER, false, PTX_SPACE_SHARED, PTX_SPACE_NONE },
    /* asynchronous copies: two spaces, dst first */
    { "cp.async", "cp.async.ca.shared.global [%rd1], [%rd2], 16;", 0,
      "%rd1 %rd2", "", EMU_UNIT_LDST, EMU_WAIT_NONE, true,
      PTX_SPACE_SHARED, PTX_SPACE_GLOBAL },
    { "cp.async.wait", "cp.async.wait_group 1;", 0, "", "", EMU_UNIT_SYNC,
      EMU_WAIT_CP_ASYNC, false, PTX_SPACE_NONE, PTX_SPACE_NONE },
    { "cp.async.bulk", "cp.async.bulk.shared::cluster.global.mbarrier::"
      "complete_tx::bytes [%rd1], [%rd2], %r1, [%rd3];", 0,
      "%rd1 %rd2 %r1 %rd3", "", EMU_UNIT_ASYNC, EMU_WAIT_NONE, true,
      PTX_SPACE_SHARED_CLUSTER, PTX_SPACE_GLOBAL },
    { "cp.async.bulk.tensor", "cp.async.bulk.tensor.2d.shared::cluster."
      "global.tile.mbarrier::complete_tx::bytes [%rd1], "
      "[%rd2, {%r1, %r2}], [%rd3];", 0, "%rd1 %rd2 %r1 %r2 %rd3", "",
      EMU_UNIT_ASYNC, EMU_WAIT_NONE, true, PTX_SPACE_SHARED_CLUSTER,
      PTX_SPACE_GLOBAL },
    { "bulk.wait", "cp.async.bulk.wait_group.read 0;", 0, "", "",
      EMU_UNIT_SYNC, EMU_WAIT_BULK_GROUP, false, PTX_SPACE_NONE,
      PTX_SPACE_NONE },
    /* the stack pointer */
    { "alloca", "alloca.u64 %rd1, %rd2;", 0, "%rd2 STACK", "%rd1 STACK",
      EMU_UNIT_INT, EMU_WAIT_NONE, false, PTX_SPACE_NONE, PTX_SPACE_NONE },
    { "stacksave", "stacksave.u64 %rd1;", 0, "STACK", "%rd1", EMU_UNIT_INT,
      EMU_WAIT_NONE, false, PTX_SPACE_NONE, PTX_SPACE_NONE },
    /* vote, elect with a sink destination */
    { "vote.ballot", "vote.sync.ballot.b32 %r1, !%p1, %r2;", 0, "%p1 %r2",
      "%r1", EMU_UNIT_WARP, EMU_WAIT_NONE, false, PTX_SPACE_NONE,
      PTX_SPACE_NONE },
    { "elect.sink", "elect.sync _|%p1, -1;", 0, "", "%p1", EMU_UNIT_WARP,
      EMU_WAIT_NONE, false, PTX_SPACE_NONE, PTX_SPACE_NONE },
    { "fence", "fence.acq_rel.gpu;", 0, "", "", EMU_UNIT_SYNC,
      EMU_WAIT_FENCE, false, PTX_SPACE_NONE, PTX_SPACE_NONE },
    { "bra.guard", "@%p2 bra T0;", 0, "%p2", "", EMU_UNIT_CTRL,
      EMU_WAIT_NONE, false, PTX_SPACE_NONE, PTX_SPACE_NONE },
};

/* The slot of a register: registers take slots in declaration order,
 * a .vN register N of them and a .b128 register two (emu/emu.h, "Layout
 * of state"; emu/decode.c). */
static uint32_t reg_index(const IrFunc *f, const char *name)
{
    uint32_t slot = 0;
    for (uint32_t r = 0; r < f->nregs; r++) {
        if (strcmp(f->regs[r].name, name) == 0) {
            return slot;
        }
        slot += (f->regs[r].vec > 1 ? f->regs[r].vec : 1) *
                (f->regs[r].type == PTX_T_B128 ? 2 : 1);
    }
    ck_abort_msg("no register %s", name);
    return 0;
}

/* "a b c" names -> slots (pseudo slots by name). */
static uint32_t parse_slots(const EmuFunc *k, const char *names,
                            uint32_t *out)
{
    uint32_t n = 0;
    char buf[512];
    snprintf(buf, sizeof(buf), "%s", names);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        ck_assert_uint_lt(n, 64);
        if (strcmp(t, "CC") == 0) {
            out[n++] = EMU_SLOT_CC;
        } else if (strcmp(t, "BARRED") == 0) {
            out[n++] = EMU_SLOT_BAR_RED;
        } else if (strcmp(t, "PARAM") == 0) {
            out[n++] = EMU_SLOT_PARAM;
        } else if (strcmp(t, "STACK") == 0) {
            out[n++] = EMU_SLOT_STACK;
        } else {
            /* "%q1+1": the second slot of a .b128 register */
            char *plus = strchr(t, '+');
            uint32_t add = plus ? (uint32_t)atoi(plus + 1) : 0;
            if (plus) {
                *plus = 0;
            }
            out[n++] = reg_index(k->ir, t) + add;
        }
    }
    return n;
}

static void expect_slots(const char *id, const char *what,
                         const EmuFunc *k, const char *names,
                         const uint32_t *got, uint32_t ngot)
{
    uint32_t want[64];
    uint32_t n = parse_slots(k, names, want);
    char g[512] = "";
    size_t o = 0;
    for (uint32_t i = 0; i < ngot && o < sizeof(g); i++) {
        o += (size_t)snprintf(g + o, sizeof(g) - o, " %u", got[i]);
    }
    ck_assert_msg(ngot == n, "%s: %s: %u slots (%s), expected %u (%s)",
                  id, what, ngot, g, n, names);
    for (uint32_t i = 0; i < n; i++) {
        ck_assert_msg(got[i] == want[i], "%s: %s[%u] = %u, expected %u "
                      "(%s; got%s)", id, what, i, got[i], want[i], names, g);
    }
}

START_TEST(test_slots)
{
    const SlotCase *c = &slot_cases[_i];
    char *src = module_text(c->body);
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    char *msg;
    EmuModule *m = try_load(d, parse_ok(src), &msg);
    ck_assert_msg(m != NULL, "%s: load failed: %s", c->id,
                  msg ? msg : "(no message)");
    EmuFunc *k = emu_module_kernel(m, "k");
    ck_assert_ptr_nonnull(k);
    ck_assert_uint_lt(c->pc, k->ncode);
    const EmuInsnInfo *info = emu_insn_info(k, c->pc);
    expect_slots(c->id, "src", k, c->src, info->src, info->nsrc);
    expect_slots(c->id, "dst", k, c->dst, info->dst, info->ndst);
    ck_assert_msg(info->unit == c->unit, "%s: unit %s, expected %s", c->id,
                  emu_unit_name((EmuUnit)info->unit), emu_unit_name(c->unit));
    ck_assert_msg(info->wait == c->wait, "%s: wait %s, expected %s", c->id,
                  emu_wait_name((EmuWait)info->wait), emu_wait_name(c->wait));
    ck_assert_msg(info->async == c->async, "%s: async %d", c->id,
                  info->async);
    ck_assert_msg(info->space == c->space, "%s: space %d, expected %d",
                  c->id, info->space, c->space);
    ck_assert_msg(info->space2 == c->space2, "%s: space2 %d, expected %d",
                  c->id, info->space2, c->space2);
    emu_module_free(m);
    free(msg);
    emu_device_free(d);
    free(src);
}
END_TEST

/* wgmma m64n256k16 .f32: 128 accumulators per thread (64 x 256 / 128
 * threads), each read and written; variable-length lists. */
START_TEST(test_wgmma_n256)
{
    char body[4096];
    size_t o = (size_t)snprintf(body, sizeof(body),
                                ".reg .f32 %%acc<128>;\n"
                                "wgmma.mma_async.sync.aligned.m64n256k16."
                                "f32.f16.f16 {");
    for (unsigned a = 0; a < 128; a++) {
        o += (size_t)snprintf(body + o, sizeof(body) - o, "%s%%acc%u",
                              a ? ", " : "", a);
    }
    snprintf(body + o, sizeof(body) - o,
             "}, %%rd1, %%rd2, %%p1, 1, -1, 0, 1;");
    char *src = module_text(body);
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    char *msg;
    EmuModule *m = try_load(d, parse_ok(src), &msg);
    ck_assert_msg(m != NULL, "load failed: %s", msg ? msg : "(none)");
    EmuFunc *k = emu_module_kernel(m, "k");
    const EmuInsnInfo *info = emu_insn_info(k, 0);
    ck_assert_uint_eq(info->ndst, 128);
    ck_assert_uint_eq(info->nsrc, 128 + 3);
    char name[16];
    for (unsigned a = 0; a < 128; a++) {
        snprintf(name, sizeof(name), "%%acc%u", a);
        uint32_t s = reg_index(k->ir, name);
        ck_assert_uint_eq(info->dst[a], s);
        ck_assert_uint_eq(info->src[a], s);
    }
    ck_assert_uint_eq(info->src[128], reg_index(k->ir, "%rd1"));
    ck_assert_uint_eq(info->src[129], reg_index(k->ir, "%rd2"));
    ck_assert_uint_eq(info->src[130], reg_index(k->ir, "%p1"));
    emu_module_free(m);
    free(msg);
    emu_device_free(d);
    free(src);
}
END_TEST

/* -------------------------------------------------- unit refinement */

typedef struct UnitCase {
    const char *insn;
    EmuUnit unit;
} UnitCase;

/* One opcode, several units: by type, precision and conversion. */
static const UnitCase unit_cases[] = {
    { "add.s32 %r1, %r2, %r3;", EMU_UNIT_INT },
    { "add.f32 %f1, %f2, %f3;", EMU_UNIT_FP32 },
    { "add.f64 %fd1, %fd2, %fd3;", EMU_UNIT_FP64 },
    { "add.f16x2 %r1, %r2, %r3;", EMU_UNIT_FP16 },
    { "add.bf16 %h1, %h2, %h3;", EMU_UNIT_FP16 },
    { "mul.wide.u32 %rd1, %r2, %r3;", EMU_UNIT_INT },
    { "fma.rn.f64 %fd1, %fd2, %fd3, %fd4;", EMU_UNIT_FP64 },
    { "div.s32 %r1, %r2, %r3;", EMU_UNIT_INT },
    { "div.approx.f32 %f1, %f2, %f3;", EMU_UNIT_SFU },
    { "div.full.f32 %f1, %f2, %f3;", EMU_UNIT_SFU },
    { "div.rn.f32 %f1, %f2, %f3;", EMU_UNIT_FP32 },
    { "div.rn.f64 %fd1, %fd2, %fd3;", EMU_UNIT_FP64 },
    { "rcp.rn.f64 %fd1, %fd2;", EMU_UNIT_FP64 },
    { "rcp.approx.ftz.f64 %fd1, %fd2;", EMU_UNIT_SFU },
    { "sqrt.approx.f32 %f1, %f2;", EMU_UNIT_SFU },
    { "sqrt.rn.f32 %f1, %f2;", EMU_UNIT_FP32 },
    { "rsqrt.approx.f64 %fd1, %fd2;", EMU_UNIT_SFU },
    { "ex2.approx.f16 %h1, %h2;", EMU_UNIT_SFU },
    { "setp.lt.f64 %p1, %fd1, %fd2;", EMU_UNIT_FP64 },
    { "setp.lt.f16x2 %p1|%p2, %r1, %r2;", EMU_UNIT_FP16 },
    { "set.lt.u32.f64 %r1, %fd1, %fd2;", EMU_UNIT_FP64 },
    { "min.f32 %f1, %f2, %f3;", EMU_UNIT_FP32 },
    { "abs.s32 %r1, %r2;", EMU_UNIT_INT },
    { "cvt.u64.u32 %rd1, %r1;", EMU_UNIT_INT },
    { "cvt.rn.f32.s32 %f1, %r1;", EMU_UNIT_SFU },
    { "cvt.rzi.s32.f64 %r1, %fd1;", EMU_UNIT_FP64 },
    { "cvt.rn.f32.f64 %f1, %fd1;", EMU_UNIT_FP64 },
    { "cvt.rn.bf16.f32 %h1, %f1;", EMU_UNIT_SFU },
    { "mov.f64 %fd1, %fd2;", EMU_UNIT_INT },
    { "selp.f32 %f1, %f2, %f3, %p1;", EMU_UNIT_INT },
};

START_TEST(test_unit_refinement)
{
    const UnitCase *c = &unit_cases[_i];
    char *src = module_text(c->insn);
    IrModule *ir = parse_ok(src);
    const IrFunc *k = NULL;
    for (uint32_t f = 0; f < ir->nfuncs; f++) {
        if (strcmp(ir->funcs[f]->name, "k") == 0) {
            k = ir->funcs[f];
        }
    }
    ck_assert_ptr_nonnull(k);
    EmuUnit u = emu_insn_unit(&k->insns[0]);
    ck_assert_msg(u == c->unit, "'%s': unit %s, expected %s", c->insn,
                  emu_unit_name(u), emu_unit_name(c->unit));
    ptx_module_free(ir);
    free(src);
}
END_TEST

START_TEST(test_names)
{
    for (unsigned u = 0; u < EMU_UNIT_COUNT; u++) {
        ck_assert_str_ne(emu_unit_name((EmuUnit)u), "?");
        for (unsigned v = 0; v < u; v++) {
            ck_assert_str_ne(emu_unit_name((EmuUnit)u),
                             emu_unit_name((EmuUnit)v));
        }
    }
    for (unsigned w = 0; w < EMU_WAIT_COUNT; w++) {
        ck_assert_str_ne(emu_wait_name((EmuWait)w), "?");
    }
    ck_assert_str_eq(emu_unit_name(EMU_UNIT_COUNT), "?");
    ck_assert_str_eq(emu_unit_name(EMU_UNIT_FP64), "fp64");
    ck_assert_str_eq(emu_wait_name(EMU_WAIT_BAR_CTA), "bar.cta");
}
END_TEST

Suite *insninfo_suite(void)
{
    Suite *s = suite_create("insninfo");
    TCase *tc = tcase_create("rows");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_every_row_listed);
    tcase_add_loop_test(tc, test_row_handler, 0, (int)NREPS);
    tcase_add_test(tc, test_vector_rows_have_roles);
    tcase_add_test(tc, test_names);
    suite_add_tcase(s, tc);
    tc = tcase_create("roles");
    tcase_add_loop_test(tc, test_slots, 0,
                        (int)(sizeof(slot_cases) / sizeof(slot_cases[0])));
    tcase_add_test(tc, test_wgmma_n256);
    tcase_add_loop_test(tc, test_unit_refinement, 0,
                        (int)(sizeof(unit_cases) / sizeof(unit_cases[0])));
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(insninfo_suite());
}
