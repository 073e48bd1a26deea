/*
 * ptx/summary.h: the human-readable module summary of `ptxemu check`.
 */
#ifndef PTXEMU_SUMMARY_H
#define PTXEMU_SUMMARY_H

#include <stdio.h>
#include "ptx/ir.h"

/* Static bytes a function uses in a state space: its own variables plus
 * (for .shared and .const) the module-level ones, which every kernel can
 * reach.  Unsized extern arrays count 0. */
uint64_t ptx_func_static_bytes(const IrModule *m, const IrFunc *f,
                               PtxSpace space);

void ptx_print_summary(FILE *out, const IrModule *m);

#endif
