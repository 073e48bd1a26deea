/*
 * ptx/cfg.h: queries on the control-flow graph that ir_cfg_build
 * (declared in ptx/ptx.h, implemented in ptx/cfg.c) leaves in an IrFunc.
 *
 * Contract, after a successful ir_cfg_build(m, f):
 *  - Blocks are numbered in layout order; block 0 starts at instruction 0
 *    and is the entry.  A function without instructions has no blocks.
 *  - A block ends after bra, brx.idx, ret, exit and trap (guarded or not)
 *    and before every instruction a code label points at.  call does not
 *    end a block.
 *  - IrBlock.succ lists distinct successors: the taken target(s) first
 *    (brx.idx targets in .branchtargets order), then the fall-through
 *    when the branch is guarded; IR_EXIT_BLOCK for ret/exit/trap, for a
 *    branch to a label at the very end, and for falling off the end.
 *    IrBlock.pred lists predecessor blocks in increasing order; edges to
 *    the exit have no predecessor entry.
 *  - IrBlock.ipdom is the immediate post-dominator (ptx/postdom.h; blocks
 *    in an infinite loop get one through a virtual exit edge from the
 *    bottom of the loop).
 *  - IrFunc.reconv[i] is the reconvergence PC of instruction i, see
 *    ir_reconv_pc.
 */
#ifndef PTXEMU_CFG_H
#define PTXEMU_CFG_H

#include <stdint.h>
#include "ptx/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where the lanes of a warp that diverge at instruction `insn` meet
 * again: for bra, brx.idx and guarded ret/exit/trap, the first
 * instruction of the immediate post-dominator of the instruction's block;
 * for call, the next instruction.  UINT32_MAX means "at thread exit" (the
 * post-dominator is the exit, or the call is the last instruction), and
 * is also returned for every other instruction, for an index out of
 * range, and before the CFG is built. */
uint32_t ir_reconv_pc(const IrFunc *f, uint32_t insn);

#ifdef __cplusplus
}
#endif
#endif
