/*
 * emu/sched.h: the functional scheduler's pieces that the parallel
 * driver (emu/par.c) runs as well (see emu/sched.c).
 */
#ifndef PTXEMU_EMU_SCHED_H
#define PTXEMU_EMU_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/exec.h"
#include "emu/grid.h"

/* Run the resident CTAs until they finish.  can_grow: more could be
 * made resident; then warps that spin without progress end the run with
 * *stuck set (and no fault) instead of a livelock report. */
EmuStatus emu_sched_resident(EmuLaunch *l, EmuCta *const *ctas, uint32_t n,
                             bool can_grow, bool *stuck);
/* Run an opened (or resumed) grid to completion, then close it. */
EmuStatus emu_sched_grid(EmuLaunch *l, EmuGrid *g);
/* How many CTAs of l the emulated GPU holds resident at once. */
uint64_t emu_sched_cap(const EmuLaunch *l);

#endif
