/*
 * ptx/symtab.h: scoped name bindings for the parser (see symtab.c).
 */
#ifndef PTXEMU_SYMTAB_H
#define PTXEMU_SYMTAB_H

#include <stdbool.h>
#include <stdint.h>
#include "ptx/ir.h"

typedef enum PtxBindKind {
    BIND_REG,        /* index */
    BIND_REGRANGE,   /* index = first register, count */
    BIND_VAR,        /* sym */
    BIND_FUNC,       /* func */
    BIND_LABEL       /* index */
} PtxBindKind;

typedef struct PtxBinding {
    const char *name;
    uint32_t len;
    uint8_t kind;
    uint32_t depth;      /* scope depth it was bound at */
    int32_t shadow;
    uint32_t index;
    uint32_t count;
    IrSymbol *sym;
    IrFunc *func;
} PtxBinding;

typedef struct PtxSymtab PtxSymtab;

PtxSymtab *ptx_symtab_new(void);
void ptx_symtab_free(PtxSymtab *t);
PtxBinding *ptx_symtab_find(PtxSymtab *t, const char *s, uint32_t len);
/* New innermost binding; `name` must stay valid while bound. */
PtxBinding *ptx_symtab_bind(PtxSymtab *t, const char *name, uint32_t len);
void ptx_symtab_push(PtxSymtab *t);
void ptx_symtab_pop(PtxSymtab *t);
unsigned ptx_symtab_depth(const PtxSymtab *t);
/* Whether any live binding is named like a register, "%..." ending in a
 * digit: if none is, "%r17" can only be a member of a %r<N> range and
 * the exact lookup is skipped. */
bool ptx_symtab_has_digit_names(const PtxSymtab *t);

#endif
