/*
 * emu/decode.h: lowering of a function's IR into EmuInsn records.
 *
 * Contract: emu_decode_func() is called by emu_module_load() after the
 * module's .global/.const variables have device addresses and the shared
 * memory is laid out (EmuModule.global_addr/shared_offset/shlayout).
 * It lays out the function's frame (local and call-sequence .param
 * variables, .func params and returns), kernel params (param buffer
 * offsets) and takes the offsets of its function-scope .shared variables
 * from the module's shared layout (emu/shlayout.h), lowers each
 * instruction, and asks the family selectors
 * of emu/ops.h for a handler.  On failure returns NULL, *st =
 * EMU_ERR_UNSUPPORTED with a malloc'd located message in *msg (when msg
 * is not NULL) for an instruction the emulator cannot run, or *st =
 * EMU_ERR_OUT_OF_MEMORY; EMU_OK on success.
 *
 * Immediates: integers keep their two's complement bits.  A float
 * literal (0f/0d/decimal) is converted to the instruction's float type
 * (type slot 1 for cvt sources): .f32 rounds to nearest, .f64 widens;
 * for a .b32/.u32... instruction a 0d literal is rounded to f32 bits, a
 * 0f literal kept; for other types (f16, bf16, ...) the literal's own
 * bits are kept and EmuOpnd.n holds its size (32 or 64) so that the fp
 * selector can convert.
 *
 * Symbols: see emu.h (EO_IMM absolute addresses, EMU_SREG_FRAME_ADDR and
 * EMU_ADDR_FRAME for frame variables).  Call argument/return lists
 * (EO_LIST) hold, per element, EMU_LIST_REG | slot for a register or
 * constant slot, else the frame offset of a .param variable.
 */
#ifndef PTXEMU_EMU_DECODE_H
#define PTXEMU_EMU_DECODE_H

#include "emu/exec.h"

#define EMU_LIST_REG 0x80000000u

EmuFunc *emu_decode_func(EmuModule *m, const IrFunc *f, EmuStatus *st,
                         char **msg);
void emu_func_free(EmuFunc *ef);
/* Release the module's symbol map (EmuModule.symmap). */
void emu_symmap_free(EmuModule *m);

/* The index of f in m->ir->funcs (aliases resolved), or UINT32_MAX. */
uint32_t emu_func_index(const EmuModule *m, const IrFunc *f);

/* The index of module variable s in m->ir->globals, or UINT32_MAX. */
uint32_t emu_global_index(const EmuModule *m, const IrSymbol *s);

/* The state space a .space modifier names (PTX_SPACE_NONE if none). */
PtxSpace emu_space_of_mod(PtxMod mv);

/* Bytes of a variable and its alignment. */
uint64_t emu_sym_size(const IrSymbol *s);
uint32_t emu_sym_align(const IrSymbol *s);

#endif
