/*
 * emu/simt.h: what the SIMT stack and frames (simt.c) offer the other
 * parts of the execution core (launch.c, step.c).  Handlers use the
 * emu_simt_* services declared in exec.h instead.
 *
 * Contract:
 *  - emu_frame_regs() sizes a frame's register file for f and starts it:
 *    register slots zero, constant slots holding f's constants.
 *  - emu_simt_settle() runs after an instruction: it pops the stack
 *    entries that reached their reconvergence pc or lost every lane,
 *    returns from frames whose lanes all returned, and marks the warp
 *    exited (releasing barriers it no longer holds back) when the stack
 *    is empty.  It leaves a warp waiting at a barrier at the end of a
 *    function alone until the barrier releases it.
 */
#ifndef PTXEMU_EMU_SIMT_H
#define PTXEMU_EMU_SIMT_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/exec.h"

/* v rounded up to a multiple of a (a = 0: v). */
static inline uint64_t emu_align_up(uint64_t v, uint64_t a)
{
    return a ? (v + a - 1) / a * a : v;
}

/* false when out of memory. */
bool emu_frame_regs(EmuFrame *fr, const EmuFunc *f);
void emu_simt_settle(EmuCta *cta, EmuWarp *w);

#endif
