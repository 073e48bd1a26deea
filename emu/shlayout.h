/*
 * emu/shlayout.h: where the .shared variables of a module live in a
 * CTA's shared memory, and each kernel's static shared size.
 *
 * Contract: emu_shared_layout() runs in emu_module_load() before any
 * function is decoded.  It sets EmuModule.shared_offset for module
 * .shared variables and keeps, in EmuModule.shlayout, the offsets of
 * function-scope .shared variables, each kernel's static shared bytes
 * and where each function's code finds dynamic (extern, unsized) shared
 * memory; decode.c reads them (emu_shared_var_offset...).
 *
 * Like ptxas, a kernel is given only the shared variables it can reach:
 * its own, those of the functions it calls (transitively; a call through
 * a register may reach every function whose address is taken), and the
 * module variables any of those functions names.  A variable whose
 * address an initializer holds may be used from any kernel.  A function
 * is decoded once for all kernels, so a variable has one offset for
 * every kernel that reaches it: variables reached by more kernels are
 * placed first, each at the lowest offset above what its kernels already
 * hold (a high-water mark per kernel), so different kernels' variables
 * overlap.  A kernel's static size is its mark.  A variable no kernel
 * reaches is dead: offset 0, no room.
 *
 * Dynamic shared: a kernel's own code finds it just after the kernel's
 * static shared.  A .func naming it has one offset for all its callers:
 * the module's dynamic offset, past the static shared of every kernel
 * that reaches such a function, and those kernels use that offset too.
 * The CTA's allocation therefore covers the dynamic offset plus the
 * dynamic bytes, which may exceed the static plus dynamic bytes that the
 * launch limits count (as CUDA counts them).
 */
#ifndef PTXEMU_EMU_SHLAYOUT_H
#define PTXEMU_EMU_SHLAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/exec.h"

/* Fills m->shared_offset and m->shlayout; false with *msg (malloc'd)
 * when out of memory. */
bool emu_shared_layout(EmuModule *m, char **msg);
void emu_shared_layout_free(EmuModule *m);

/* For decode.c, function ir index fi: */
/* offset of the .shared variable f->vars[v] */
uint64_t emu_shared_var_offset(const EmuModule *m, uint32_t fi,
                               uint32_t v);
/* where the function's code finds dynamic shared memory */
uint64_t emu_shared_dyn_offset(const EmuModule *m, uint32_t fi);
/* static shared bytes of kernel fi (UINT32_MAX when larger) */
uint32_t emu_shared_static_bytes(const EmuModule *m, uint32_t fi);

/* An extern .shared array without a size: the dynamic shared memory. */
bool emu_is_dynamic_shared(const IrSymbol *s);

#endif
