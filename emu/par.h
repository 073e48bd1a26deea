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
/* Why a timed launch l (timing/host.c) must step its SMs on one thread,
 * or NULL: the same reasons but the driver, and only clients that watch
 * accesses or events (those that count steps are called under a lock). */
const char *emu_par_timed_reason(const EmuLaunch *l);
/* Run l's grid on `threads` host threads (at least 2). */
EmuStatus emu_par_run(EmuLaunch *l, unsigned threads);
/* Deterministic mode: called by a worker's CTA (l->det set, l->det_ok
 * not yet) before a global atomic or morally strong access.  Waits until every lower CTA of the
 * launch has finished, then returns true (and sets l->det_ok); returns
 * false when the CTA must stop before the atomic instead (a lower CTA
 * faulted or waits for a later one: the launch goes on on one thread,
 * where the atomic runs). */
bool emu_par_atomic_turn(EmuLaunch *l, const EmuCta *cta);
/* Whether f has an instruction that may call emu_par_atomic_turn (an
 * atomic, a morally strong ld or st; emu/ops_mem.c). */
bool emu_func_has_turnstile(const EmuFunc *f);
/* Whether in, an access to space sp, is one other CTAs may synchronise
 * through: .volatile, or .relaxed/.acquire/.release at a scope wider
 * than the CTA, of global or generic memory (the PTX memory model's
 * morally strong accesses; the turnstile orders them, and a timing
 * model steps them one SM after another: timing/host.c). */
bool emu_access_strong(const IrInsn *in, PtxSpace sp);

#endif
