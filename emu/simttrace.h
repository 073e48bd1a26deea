/*
 * emu/simttrace.h: the per-instruction SIMT trace (EmuConfig.trace_simt,
 * set by `--trace-simt FILE`): one line per warp instruction issued,
 * with the pc and the active mask, the control-flow trace that Hanoi
 * (seed digest 1.6, HANOI section IX) compares with a hardware trace,
 * warp by warp, by Levenshtein distance / trace length.
 *
 * Contract:
 *  - emu_simttrace_attach(d, out) attaches a client (emu/client.h) that
 *    writes to `out` (not closed here); emu_device_new calls it when
 *    EmuConfig.trace_simt is set.  -1 with a message in why when the
 *    client cannot be attached.  While no trace is asked for nothing
 *    runs: the fast loop is untouched.
 *  - The format (version 1), every field separated by one space:
 *      # ptxemu simt trace 1
 *      # launch G kernel K grid X,Y,Z block X,Y,Z mode ipdom|its
 *      G CTA WARP FUNC PC MASK EXEC LINE OP
 *    G is the launch's %gridid, CTA the linear CTA index, WARP the warp
 *    index in the CTA, FUNC the running function (the kernel, or a
 *    callee), PC the instruction index in FUNC, MASK the active mask of
 *    the issuing path (the warp split: Hanoi's WS top, the SIMT stack's
 *    TOS) and EXEC the lanes that executed it (MASK less the lanes its
 *    guard predicate turned off), both as 0x%08x with lane 0 the least
 *    significant bit; LINE is the PTX line and OP the opcode's name.
 *    One warp's lines, in order, are its control-flow trace; lines of
 *    different warps interleave as the scheduler ran them.
 */
#ifndef PTXEMU_EMU_SIMTTRACE_H
#define PTXEMU_EMU_SIMTTRACE_H

#include <stddef.h>
#include <stdio.h>

#include "emu/exec.h"

int emu_simttrace_attach(EmuDevice *d, FILE *out, char *why, size_t n);

#endif
