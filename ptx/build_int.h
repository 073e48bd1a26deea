/*
 * ptx/build_int.h: helpers shared by the builder's files (build.c for
 * module/function structure, build_insn.c for instructions and operands,
 * build_init.c for variable initializers).  Not installed.
 */
#ifndef PTXEMU_BUILD_INT_H
#define PTXEMU_BUILD_INT_H

#include "ptx/build.h"
#include "ptx/symtab.h"

#define PS_ARRAY_PUSH(ps, arr, n, cap)                                    \
    ((arr) = ptx_arena_grow((ps)->arena, (arr), (n), &(cap), (n) + 1,     \
                            sizeof(*(arr))),                              \
     &(arr)[(n)++])

/* Arrays of the function being parsed grow in malloc'd memory and are
 * copied into the arena, exactly sized, when the function ends: growing
 * them inside the arena would abandon every outgrown copy there. */
void *pb_vec_grow(void *p, uint32_t n, uint32_t *cap, size_t elsize);
#define PS_VEC_PUSH(arr, n, cap)                                          \
    ((arr) = pb_vec_grow((arr), (n), &(cap), sizeof(*(arr))),             \
     &(arr)[(n)++])

/* An unresolved reference to a label, patched when its scope closes. */
typedef struct PtxLabelRef {
    int32_t *slot;
    const char *name;    /* arena copy */
    uint32_t len;
    PtxLoc loc;
    struct PtxLabelRef *next;
} PtxLabelRef;

const char *pb_str(PtxParse *ps, PtxStr s);
void pb_label_ref(PtxParse *ps, int32_t *slot, PtxStr name, PtxLoc loc);

/* Resolve `name` (possibly "%r17", "%tid.x", "sym") into an operand.
 * Unknown non-% names become forward label references when fwd_label
 * (then o must be arena memory: it is patched when the scope closes). */
void pb_name_opnd(PtxParse *ps, PtxStr name, PtxLoc loc, IrOperand *o,
                  bool fwd_label);

/* Give the symbol the initializer encoded for it (sizes an unsized
 * array), or report why it cannot have one. */
void pb_init_attach(PtxParse *ps, IrSymbol *sym, const PtxInit *init);

/* A variable's size in bytes from its type, vector and dimensions (0
 * for an unsized first dimension); UINT64_MAX when a later dimension is
 * unsized or the size passes 2^48 (*too_large set: for make_symbol to
 * report). */
uint64_t pb_var_size(const IrSymbol *sym, bool *too_large);

/* Size in bytes of one element of the symbol's type (times its vector). */
uint64_t pb_elem_bytes(const IrSymbol *sym);

#endif
