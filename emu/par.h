/*
 * emu/par.h: the parallel functional driver: the CTAs of one launch on a
 * pool of host threads (the contract is in emu/pool.h).
 */
#ifndef PTXEMU_EMU_PAR_H
#define PTXEMU_EMU_PAR_H

#include "emu/exec.h"

/* The host threads l runs on: EmuConfig.threads, or 1 when l needs one
 * thread (then, if more were asked for, the reason goes to
 * EmuConfig.par_log). */
unsigned emu_par_threads(EmuLaunch *l);
/* Why l must run on one thread, or NULL. */
const char *emu_par_serial_reason(const EmuLaunch *l);
/* Run l's grid on `threads` host threads (at least 2). */
EmuStatus emu_par_run(EmuLaunch *l, unsigned threads);

#endif
