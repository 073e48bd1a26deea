/*
 * emu/its.h: independent thread scheduling (its.c), the reconvergence
 * mode EMU_RECONV_ITS.
 *
 * Contract:
 *  - emu_simt_backedge(x) runs after a bra to an earlier pc (a loop back
 *    edge, where ptxas places YIELD) has been executed under ITS.  When
 *    the TOS path took the same back edge before with nothing changed
 *    (its registers, its pc and mask, the launch's progress), it gives
 *    way to a sibling path not yet at their reconvergence point, if any.
 *  - emu_simt_warpsync(): below.
 *  - emu_its_release(w): the grid has been quiet for EMU_ITS_QUIET
 *    rounds; if w's running path has no sibling left and other lanes
 *    wait for it at its reconvergence point, those lanes continue as a
 *    path of their own, run next (reconvergence then happens one level
 *    further out); returns whether it did.
 */
#ifndef PTXEMU_EMU_ITS_H
#define PTXEMU_EMU_ITS_H

#include "emu/exec.h"

/* The first compute capability with independent thread scheduling
 * (Volta, sm_70: CUDA C++ Programming Guide, "Independent Thread
 * Scheduling"); EMU_RECONV_DEFAULT picks ITS from it on. */
#define EMU_ITS_MIN_ARCH 70u

/* Scheduler rounds without progress before emu_its_release. */
#define EMU_ITS_QUIET 16

void emu_simt_backedge(EmuCtx *x);
/* bar.warp.sync members executed by `lanes` of the TOS path under ITS
 * (PTX ISA, bar.warp.sync: a thread waits until every thread of the
 * member mask has executed a bar.warp.sync): when members that have not
 * exited are on a sibling path, this path waits past the instruction and
 * the sibling runs until its lanes arrive too; members that cannot
 * arrive first (waiting at the reconvergence point) are not waited
 * for, as under IPDOM. */
void emu_simt_warpsync(EmuCtx *x, uint32_t members, uint32_t lanes);
bool emu_its_release(EmuWarp *w);

#endif
