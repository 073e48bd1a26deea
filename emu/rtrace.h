/*
 * emu/rtrace.h: the reconvergence trace (EmuConfig.trace_reconv, set by
 * `--trace-reconvergence`): one line per event of a warp's paths, so
 * that how divergent code ran under --reconvergence ipdom|its can be
 * read and compared.
 *
 * Contract:
 *  - Nothing is written, and nothing costs more than a test of the
 *    pointer, while EmuConfig.trace_reconv is NULL.
 *  - Each line is "reconvergence: kernel 'K' CTA c warp w: EVENT", the
 *    events being
 *      split at pc P (line L): lanes M1 to pc Q1, lanes M2 to pc Q2[, ...];
 *        reconvergence at pc R (line L)     (the paths in the order they
 *                                            run; R may be "exit")
 *      lanes M reach the reconvergence point pc R (line L); next: lanes
 *        N at pc Q                          (N at R: the warp reconverged)
 *      lanes M spin at pc P (line L): yield to lanes N at pc Q
 *      lanes M wait at OP pc P (line L) for members X: run lanes N at pc Q
 *      lanes M join lanes N at OP pc P (line L)
 *      grid quiet: lanes M waiting at pc R go on, before the spinning
 *        lanes N at pc Q
 *    with masks as 0x%08x and pcs as instruction indices of the running
 *    function (lines are PTX lines).
 */
#ifndef PTXEMU_EMU_RTRACE_H
#define PTXEMU_EMU_RTRACE_H

#include <stdint.h>

#include "emu/exec.h"

static inline bool emu_rtrace_on(const EmuWarp *w)
{
    return w->cta->launch->dev->cfg.trace_reconv != NULL;
}

/* One event line for warp w (the prefix is added). */
void emu_rtrace(const EmuWarp *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The PTX line of pc in w's running function (0 when past the end). */
uint32_t emu_rtrace_line(const EmuWarp *w, uint32_t pc);
/* The top entry, about to be popped at its reconvergence point. */
void emu_rtrace_arrive(const EmuWarp *w);
/* A divergent branch at pc just pushed its n paths (the top n entries). */
void emu_rtrace_split(const EmuWarp *w, uint32_t pc, uint32_t n);

#endif
