/*
 * emu/ops.h: the instruction families.  Each family file (ops_*.c) owns
 * the handlers of a group of opcodes and one selector that decode.c calls
 * for every instruction at module load:
 *
 *   bool emu_select_X(const IrModule *m, const IrFunc *f, const IrInsn *in,
 *                     EmuInsn *ei);
 *
 * The decoder has already filled ei's generic fields (op, type, type2,
 * nopnd, space, rnd, vec, flags, guard, target, reconv, operands o[]).
 * The selector returns false if the opcode is not its family's; else it
 * sets ei->fn (specialised per type/modifier where that keeps the hot
 * loop free of switches) and may use ei->aux for family data, and
 * returns true.  A selector that recognises its opcode but not the
 * modifier combination leaves ei->fn NULL and returns true: decode then
 * fails the load with "instruction not supported by the emulator".
 */
#ifndef PTXEMU_EMU_OPS_H
#define PTXEMU_EMU_OPS_H

#include "emu/emu.h"

/* The loop that follows has no dependence between its iterations: tell
 * GCC's vectoriser (ivdep), so that a possible overlap of register slots
 * does not stop it.  Nothing for clang: its closest spelling, "clang loop
 * vectorize(assume_safety)", warns wherever the vectoriser is off (the
 * sanitizer builds of the fuzz targets), and it checks overlap at run
 * time on its own. */
#if defined(__GNUC__) && !defined(__clang__)
#define EMU_IVDEP _Pragma("GCC ivdep")
#else
#define EMU_IVDEP
#endif

#define EMU_SELECTOR(name)                                                \
    bool emu_select_##name(const IrModule *m, const IrFunc *f,            \
                           const IrInsn *in, EmuInsn *ei)

/* ops_ctrl.c: bra to an earlier pc on a device with independent
 * thread scheduling (emu/its.h); decode.c selects it. */
void emu_op_bra_yield(EmuCtx *x, const EmuInsn *i, uint32_t mask);
/* ops_ctrl.c: bar.warp.sync on such a device. */
void emu_op_warpsync_its(EmuCtx *x, const EmuInsn *i, uint32_t mask);

EMU_SELECTOR(ctrl);   /* ops_ctrl.c: bra brx.idx call ret exit trap brkpt
                         bar/barrier nanosleep membar fence ... */
EMU_SELECTOR(mem);    /* ops_mem.c: ld ldu st prefetch cvta isspacep atom
                         red mov of addresses */
EMU_SELECTOR(int);    /* ops_int.c: integer, logic, shifts, bit ops, prmt,
                         lop3, video, setp/set/selp/slct (all types) */
EMU_SELECTOR(fp);     /* ops_fp.c: f16/bf16/f32/f64 arithmetic and math */
EMU_SELECTOR(cvt);    /* ops_cvt.c: cvt, cvt.pack, mov (register moves,
                         packing/unpacking) */
EMU_SELECTOR(warp);   /* ops_warp.c: shfl vote match redux activemask,
                         special-register reads */
EMU_SELECTOR(mma);    /* ops_mma.c: mma wmma.load/mma/store ldmatrix
                         stmatrix movmatrix */
EMU_SELECTOR(cluster);  /* ops_cluster.c: barrier.cluster mapa getctarank */
EMU_SELECTOR(mbarrier); /* ops_mbarrier.c: mbarrier.*, cp.async.mbarrier
                           .arrive */
EMU_SELECTOR(bulk);     /* ops_bulk.c: cp.async.bulk*, cp.reduce.async
                           .bulk*, st.async, red.async (TMA) */
/* ops_mbarrier.c, for asynchronous operations: check the mbarrier at
 * addr (space sp), and perform complete_tx(bytes) on it; false after a
 * fault. */
bool emu_mbar_check(EmuCtx *x, const EmuInsn *i, unsigned lane,
                    PtxSpace sp, uint64_t addr);
bool emu_mbar_complete_tx(EmuCtx *x, const EmuInsn *i, unsigned lane,
                          PtxSpace sp, uint64_t addr, uint64_t bytes);
EMU_SELECTOR(tex);      /* ops_tex.c: tex tld4 txq istypep suld sust
                           sured suq */
EMU_SELECTOR(wgmma);    /* ops_wgmma.c: wgmma.*, setmaxnreg */

#endif
