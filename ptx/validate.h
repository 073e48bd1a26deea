/*
 * ptx/validate.h: checks one parsed instruction against the opcode table.
 *
 * Contract: the parser has built the instruction (opcode resolved, types
 * and modifiers in in->sfx, operands resolved, registers are indices into
 * f->regs).  ptx_validate_insn() checks what the grammar cannot: the number
 * and kinds of type suffixes and modifiers, the operand count and shapes,
 * and register and immediate types against the PTX ISA 9.0 type-checking
 * rules (section 9.4, relaxed rules of 9.4.1 for ld/st/cvt).  Every problem
 * is reported through ptx_error() at the operand's (or the instruction's)
 * location, as "'add.s32': ..." naming the instruction as written.
 * Operands of kind IR_O_NONE were already reported by the parser and are
 * skipped.
 */
#ifndef PTXEMU_VALIDATE_H
#define PTXEMU_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>

#include "ptx/diag.h"
#include "ptx/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* True when the instruction is valid (no error was reported).  m may be
 * NULL (64-bit addresses are then assumed). */
bool ptx_validate_insn(const IrModule *m, const IrFunc *f, const IrInsn *in,
                       PtxDiag *d);

/* Writes the mnemonic as written ("ld.global.v4.f32") into buf, always
 * NUL-terminated when size > 0; returns the length it needed. */
size_t ptx_insn_mnemonic(const IrInsn *in, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
