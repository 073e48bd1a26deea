/*
 * ptx/link.h: link several PTX modules into one, by name, as the CUDA
 * driver's JIT linker does for relocatable device code (nvcc -rdc=true
 * keeps one PTX module per translation unit).
 *
 * Rules (those of an ELF static link, which PTX linkage follows: PTX ISA
 * "Linking directives" .extern/.visible/.weak/.common):
 *   - an .extern declaration, or a function declared without a body,
 *     binds to the one .visible/.weak/.common definition of that name in
 *     any input; uses are redirected to the definition;
 *   - two .visible definitions of one name are an error; a .visible one
 *     beats .weak ones; of several .weak ones the first wins; of several
 *     .common variables the largest wins;
 *   - internal (non-visible) names stay private to their input, even
 *     when two inputs use the same name;
 *   - declarations that nothing defines stay declarations (device
 *     builtins such as vprintf and malloc are resolved by the emulator).
 * Every input must have the same .address_size.
 */
#ifndef PTXEMU_PTX_LINK_H
#define PTXEMU_PTX_LINK_H

#include <stddef.h>
#include <stdint.h>

#include "ptx/ir.h"

/* Links mods[0..n) (each from ptx_parse_*, CFGs built) into one module
 * named `name`.  Takes ownership of every input, on success and on
 * failure.  srcs/lens give each input's text, for the source lines of
 * messages (may be NULL).  On failure returns NULL and, when msg is not
 * NULL, malloc'd located messages ("FILE:LINE:COL: error: ..."). */
IrModule *ptx_link(IrModule **mods, uint32_t n, const char *name,
                   const char *const *srcs, const size_t *lens, char **msg);

#endif
