/*
 * ptx/ptx.h: the public entry points of the PTX front end.
 *
 *   PtxDiag d;
 *   IrModule *m = ptx_parse_file("k.ptx", &d, stderr);
 *   if (!m) { ... d.nerrors errors, text in d.buf ... }
 *   ...
 *   ptx_module_free(m);
 *   ptx_diag_fini(&d);
 *
 * A module that parses has been validated against the opcode table, its
 * symbols are resolved, and every function with a body has its CFG and
 * post-dominators (IrFunc.blocks, IrFunc.reconv) built.
 */
#ifndef PTXEMU_PTX_H
#define PTXEMU_PTX_H

#include <stdio.h>
#include "ptx/ir.h"
#include "ptx/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parse PTX text.  `d` is initialised here (call ptx_diag_fini after);
 * errors are echoed to `echo` when not NULL.  Returns NULL when any error
 * was reported.  The text need not be NUL-terminated. */
IrModule *ptx_parse_string(const char *filename, const char *src, size_t len,
                           PtxDiag *d, FILE *echo);

/* As ptx_parse_string, for a loader that fails kernels one by one as
 * CUDA's lazy loading does: when every error lies inside function bodies,
 * those bodies are blanked in src (hence not const) and the module is
 * returned with each such function's errors in IrFunc.load_error; *d
 * keeps the first parse's diagnostics.  Otherwise NULL, as
 * ptx_parse_string. */
IrModule *ptx_parse_lazy(const char *filename, char *src, size_t len,
                         PtxDiag *d);

/* Read and parse a file; an unreadable file is a diagnostic too. */
IrModule *ptx_parse_file(const char *path, PtxDiag *d, FILE *echo);

/* An empty module named filename (address size 64), with its arena;
 * ptx_module_free frees both. */
IrModule *ptx_module_new(const char *filename);
void ptx_module_free(IrModule *m);

/* Control flow (ptx/cfg.c): basic blocks, edges, immediate
 * post-dominators, and reconvergence points.  Called by the parser;
 * idempotent.  Returns 0, or -1 when the function has no body. */
int ir_cfg_build(IrModule *m, IrFunc *f);

/* Printing (ptx/printer.c): PTX text that parses back to an equal IR. */
void ptx_print_module(FILE *out, const IrModule *m);
void ptx_print_insn(FILE *out, const IrModule *m, const IrFunc *f,
                    const IrInsn *in);

/* Structural equality of two modules (ptx/ir_equal.c).  On a difference,
 * writes a short description of the first one into why. */
bool ir_module_equal(const IrModule *a, const IrModule *b, char *why,
                     size_t whylen);

/* Graphviz dot of a function's CFG with reconvergence points marked
 * (ptx/dot.c). */
void ptx_print_cfg_dot(FILE *out, const IrModule *m, const IrFunc *f);

#ifdef __cplusplus
}
#endif
#endif
