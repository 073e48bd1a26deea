/*
 * emu/emu.h: the functional SIMT emulator's core types and contracts.
 *
 * The emulator executes decoded PTX (EmuFunc, made once per function at
 * module load from the front end's IR) for warps of 32 lanes.  It knows
 * nothing about cycles: a scheduler (the functional one in sched.c, or a
 * timing model later) repeatedly asks it to execute the next instruction
 * of one warp, emu_warp_step(), and gets back a record of what happened.
 *
 * Layout of state, chosen for speed (see STYLE-EXAMPLES 3-5):
 *  - registers live per warp as structure-of-arrays: slot s of lane l is
 *    w->regs[s * 32 + l], 64 bits each, whatever the PTX type (narrower
 *    values are kept zero-extended; predicates are 0/1).  A .v4 register
 *    takes 4 consecutive slots.
 *  - an instruction is an EmuInsn: its handler, pre-resolved operands
 *    (register slots, immediates as raw bits, special registers, branch
 *    targets and reconvergence PCs as instruction indices).
 *  - a handler runs one instruction for one warp over a lane mask (the
 *    active mask AND the guard), looping over lanes itself.
 *
 * Errors: a guest fault (out of bounds, misaligned, trap, ...) is recorded
 * with emu_fault() and stops the launch with a CUDA-style error; it never
 * aborts the host.  Emulator bugs are EMU_PANIC / EMU_ASSERT (emu/panic.h).
 */
#ifndef PTXEMU_EMU_H
#define PTXEMU_EMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptx/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EMU_WARP_SIZE 32
#define EMU_NOREG UINT32_MAX
#define EMU_NOPC UINT32_MAX

typedef struct EmuDevice EmuDevice;
typedef struct EmuModule EmuModule;
typedef struct EmuFunc EmuFunc;
typedef struct EmuLaunch EmuLaunch;
typedef struct EmuCta EmuCta;
typedef struct EmuWarp EmuWarp;
typedef struct EmuInsn EmuInsn;
typedef struct EmuCtx EmuCtx;

/* ------------------------------------------------------------ status */

/* Results of emulator calls; mapped 1:1 onto cudaError_t by the runtime. */
typedef enum EmuStatus {
    EMU_OK = 0,
    EMU_ERR_INVALID_VALUE,        /* bad argument from the host */
    EMU_ERR_OUT_OF_MEMORY,
    EMU_ERR_INVALID_PTX,          /* module does not parse/validate */
    EMU_ERR_UNSUPPORTED,          /* valid PTX the emulator cannot run yet */
    EMU_ERR_NOT_FOUND,            /* no such kernel/global */
    EMU_ERR_LAUNCH_CONFIG,        /* bad grid/block/shared size */
    EMU_ERR_ILLEGAL_ADDRESS,      /* out of bounds / unmapped access */
    EMU_ERR_MISALIGNED,           /* misaligned access */
    EMU_ERR_READ_ONLY,            /* write to const/param */
    EMU_ERR_TRAP,                 /* trap instruction */
    EMU_ERR_ASSERT,               /* __assertfail */
    EMU_ERR_TIMEOUT,              /* watchdog or instruction limit */
    EMU_ERR_DEADLOCK,             /* no warp can make progress */
    EMU_ERR_ILLEGAL_INSTRUCTION,  /* e.g. divergent bar.sync.aligned */
    EMU_ERR_STACK_OVERFLOW,       /* call depth / local stack */
    EMU_STATUS_COUNT
} EmuStatus;

const char *emu_status_name(EmuStatus s);

/* A guest fault, as reported to the user. */
typedef struct EmuFault {
    EmuStatus status;
    const char *kernel;
    uint32_t ctaid[3];
    uint32_t tid[3];
    uint32_t pc;                 /* instruction index in its function */
    const char *func;            /* function executing the instruction */
    PtxLoc loc;                  /* its position in the PTX file */
    const char *file;            /* the PTX file name */
    uint64_t addr;               /* for memory faults */
    uint32_t size;
    PtxSpace space;
    char detail[512];            /* e.g. "nearest allocation: 0x... (+16)" */
} EmuFault;

/* --------------------------------------------------------- operands */

typedef enum EmuOpndKind {
    EO_NONE = 0,
    EO_REG,      /* reg = slot; sel = component for video selectors */
    EO_IMM,      /* imm = raw bits (ints two's complement, floats IEEE
                    converted at decode to the instruction's type) */
    EO_SREG,     /* imm = PtxSreg | index << 16; sel = IR_SEL_X/Y/Z */
    EO_VEC,      /* n slots in EmuFunc.vslots[reg ... reg+n-1]; an entry
                    EMU_NOREG is a sink '_' (immediates in vectors are
                    materialised into constant slots at decode) */
    EO_ADDR,     /* [reg + imm]: reg = base slot or EMU_NOREG; imm = offset,
                    already including a symbol's address when the base is
                    a variable whose address is known at load time; space
                    in EmuInsn.space; pad = 32 when the sum wraps at 32
                    bits (decode.c, addr_bits), else 0 */
    EO_LABEL,    /* imm = target instruction index */
    EO_FUNC,     /* imm = index into EmuModule.funcs */
    EO_LIST,     /* call argument list: n entries in EmuFunc.vslots[reg..]
                    (param variable ids, see EmuFunc) */
    EO_PAIR,     /* p|q: reg = first slot, imm = second slot */
    EO_SINK      /* _ */
} EmuOpndKind;

typedef struct EmuOpnd {
    uint8_t kind;        /* EmuOpndKind */
    uint8_t neg;         /* IR_NEG_* */
    uint16_t sel;        /* IR_SEL_* */
    uint32_t n;
    uint32_t reg;
    uint32_t pad;
    uint64_t imm;
} EmuOpnd;

/* ------------------------------------------------------ instructions */

typedef void (*EmuHandler)(EmuCtx *x, const EmuInsn *i, uint32_t mask);

#define EMU_MAX_OPNDS 6

/* Flags decoded from modifiers, for the hot path. */
enum {
    EMU_F_FTZ = 1u << 0,
    EMU_F_SAT = 1u << 1,
    EMU_F_APPROX = 1u << 2,
    EMU_F_CC = 1u << 3,          /* writes the carry flag */
    EMU_F_HI = 1u << 4,
    EMU_F_WIDE = 1u << 5,
    EMU_F_RELU = 1u << 6,
    EMU_F_NAN = 1u << 7,
    EMU_F_UNI = 1u << 8,
    EMU_F_SYNC = 1u << 9,
    EMU_F_ALIGNED = 1u << 10,
};

/* Rounding modes (EmuInsn.rnd). */
enum {
    EMU_RND_NONE = 0, EMU_RND_RN, EMU_RND_RZ, EMU_RND_RM, EMU_RND_RP,
    EMU_RND_RNA, EMU_RND_RS, EMU_RND_RNI, EMU_RND_RZI, EMU_RND_RMI,
    EMU_RND_RPI
};

struct EmuInsn {
    EmuHandler fn;
    uint16_t op;                 /* PtxOpcode */
    uint8_t type;                /* PtxType of type slot 0 */
    uint8_t type2;               /* PtxType of type slot 1 (cvt source...) */
    uint8_t nopnd;
    uint8_t space;               /* PtxSpace for memory instructions */
    uint8_t rnd;                 /* EMU_RND_* */
    uint8_t vec;                 /* .v2/.v4/.v8: 2/4/8, else 1 */
    uint16_t flags;              /* EMU_F_* */
    uint16_t aux;                /* family-specific (compare op, atom op..) */
    uint32_t guard;              /* predicate slot or EMU_NOREG */
    uint8_t guard_neg;
    uint8_t pad[3];
    uint32_t target;             /* branch target, or EMU_NOPC */
    uint32_t reconv;             /* reconvergence PC (IrFunc.reconv) */
    EmuOpnd o[EMU_MAX_OPNDS];
    const IrInsn *ir;            /* for diagnostics only */
};

/* ---------------------------------------------------------- functions */

struct EmuFunc {
    const IrFunc *ir;
    EmuModule *mod;
    uint32_t index;              /* in EmuModule.funcs */
    EmuInsn *code;
    uint32_t ncode;
    uint32_t nslots;             /* register slots incl. vector slots and
                                    decode-time constant slots */
    uint64_t *consts;            /* initial values of constant slots: a
                                    warp's frame copies them (nslots long,
                                    0 for ordinary registers) */
    uint32_t *vslots;            /* slot lists for EO_VEC / EO_LIST */
    uint32_t nvslots;
    /* Per-thread memory of a frame: .local variables, then .param
     * variables of call sequences, then the params of this function when
     * it is a .func.  Offsets are in IrSymbol order of IrFunc.vars. */
    uint64_t local_bytes;
    uint64_t *var_offset;        /* per IrFunc.vars[i]: offset in frame */
    uint64_t *param_offset;      /* per IrFunc.params[i] (.func only) */
    uint64_t *ret_offset;        /* per IrFunc.rets[i] */
    uint64_t param_bytes;        /* kernels: size of the param buffer */
    uint32_t shared_bytes;       /* static shared of this kernel: the
                                    .shared variables it can reach
                                    (emu/shlayout.h) */
    /* Appended by decode.c: */
    uint32_t nregslots;          /* slots [nregslots, nslots) are the
                                    decode-time constant slots */
    bool has_calls;              /* contains call instructions */
    uint64_t *param_size;        /* per IrFunc.params[i]: bytes */
    uint64_t *ret_size;          /* per IrFunc.rets[i]: bytes */
    bool has_alloca;             /* contains alloca (dynamic stack) */
    uint64_t dyn_shared_offset;  /* where this function's code finds
                                    dynamic shared memory (shlayout.h) */
    /* Appended by insninfo.c: static info per instruction (parallel to
     * code, emu/insninfo.h) and the pool of its slot lists. */
    struct EmuInsnInfo *info;
    uint32_t *info_slots;
    /* Appended by decode.c after insninfo: registers per thread for
     * occupancy, the estimate of emu/regest.h (README, "numRegs"). */
    uint32_t regs;
    /* Appended: the function's own register pressure (emu/regest.h),
     * and until emu_regest_module, per pc, what is live across each
     * call (NULL when it calls nothing). */
    uint32_t reg_pressure;
    uint32_t *call_across;
};

/* --------------------------------------------------------- the context */

/* Everything a handler may touch, passed to every handler. */
struct EmuCtx {
    EmuDevice *dev;
    EmuLaunch *launch;
    EmuCta *cta;
    EmuWarp *warp;
    uint64_t *regs;              /* the current frame's register slots */
    EmuFault *fault;             /* set by emu_fault(); NULL while ok */
    /* Where the funnel (emu/access.h) notes this instruction's memory
     * accesses: the step record's list, or the clients' (emu/client.h);
     * NULL when nothing listens (the fast path). */
    struct EmuAccList *acc;
    /* unused: keeps next_pc and branched at the offsets the fast loop
     * was tuned with (moving them cost 4% on bench/emu alu) */
    uint32_t pad_;
    uint32_t next_pc;            /* handlers of control flow set these */
    bool branched;
    const EmuFunc *func;         /* function of the current frame: EO_VEC
                                    and EO_LIST operands index its vslots
                                    (mov packing/unpacking, ops_cvt.c) */
    /* Appended by the execution core (step.c): */
    uint32_t pc;                 /* the instruction being executed */
    uint32_t active;             /* TOS mask (before the guard) */
    struct EmuFrame *frame;      /* the current call frame */
    /* The step record being filled (async tokens, waits: emu/async.h),
     * or NULL. */
    struct EmuStepRecord *rec;
};

/* EO_ADDR: sel = EMU_ADDR_FRAME when imm is relative to the current
 * frame's local base (.local / call-sequence .param variables and the
 * params of a .func); EmuInsn.space is then PTX_SPACE_LOCAL. */
#define EMU_ADDR_FRAME 1
/* EO_SREG pseudo register: the .local address of a frame variable, i.e.
 * the current frame's local base + EmuOpnd.reg (mov %rd, __local_depot0).
 * emu_src() resolves it like any special register. */
#define EMU_SREG_FRAME_ADDR 0xFFFFu

/* Register slot s of lane l in the current frame. */
static inline uint64_t *emu_slot(EmuCtx *x, uint32_t s)
{
    return &x->regs[(size_t)s * EMU_WARP_SIZE];
}

/* Value of a source operand for one lane, as raw 64-bit bits. */
uint64_t emu_sreg_value(EmuCtx *x, const EmuOpnd *o, unsigned lane);

static inline __attribute__((always_inline)) uint64_t
emu_src(EmuCtx *x, const EmuOpnd *o, unsigned lane)
{
    if (o->kind == EO_REG) {
        return x->regs[(size_t)o->reg * EMU_WARP_SIZE + lane];
    }
    if (o->kind == EO_IMM) {
        return o->imm;
    }
    return emu_sreg_value(x, o, lane);
}

/* Record a fault for `lane` of the current instruction; the launch stops
 * after this instruction.  fmt describes it (printf style). */
void emu_fault(EmuCtx *x, EmuStatus st, unsigned lane, uint64_t addr,
               uint32_t size, PtxSpace space, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

#define EMU_FOR_LANES(mask, lane)                                         \
    for (uint32_t _m = (mask), lane; _m && ((lane = (uint32_t)            \
         __builtin_ctz(_m)), 1); _m &= _m - 1)

#ifdef __cplusplus
}
#endif
#endif
