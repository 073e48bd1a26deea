/*
 * ptx/ir.h: the typed intermediate representation of a PTX module.
 *
 * Contract: everything the emulator, the timing models and the printer
 * know about a PTX program is here.  A module owns all of its memory: its
 * header and one arena (ptx_module_free releases them at once); nothing
 * points outside the module.  Names are interned strings owned by the
 * module.
 *
 * Identity: registers are numbered per function (IrFunc.regs), symbols are
 * pointers to IrSymbol, labels are indices into IrFunc.labels, and
 * instructions are indices into IrFunc.insns.  Scopes (nested { } blocks)
 * are indices into IrFunc.scopes; scope 0 is the function body.
 */
#ifndef PTXEMU_IR_H
#define PTXEMU_IR_H
/* NOTE to co-authors: IrInsn modifiers are the sfx[] list (not a per-group
 * array) and IrOperand's pointers are a union u.{sym,func,elems}; ADDR
 * keeps its base register in id and base symbol in u.sym. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- types, modifiers, opcodes: generated from the .def tables ---- */

typedef enum PtxType {
    PTX_T_NONE = 0,
#define TYPE(id, name, bits, kind) PTX_T_##id,
#include "ptx/types.def"
#undef TYPE
    PTX_T_COUNT
} PtxType;

typedef enum PtxTypeKind {
    PTX_TK_NONE, PTX_TK_B, PTX_TK_U, PTX_TK_S, PTX_TK_F, PTX_TK_P, PTX_TK_X
} PtxTypeKind;

typedef enum PtxModGroup {
#define MGROUP(id, name, overflow) PTX_MG_##id,
#include "ptx/modgroups.def"
#undef MGROUP
    PTX_MG_COUNT
} PtxModGroup;

/* Modifier values: one enum over all groups; value 0 = absent. */
typedef enum PtxMod {
    PTX_M_NONE = 0,
#define MOD(group, id, str) PTX_M_##id,
#include "ptx/modifiers.def"
#undef MOD
    PTX_M_COUNT
} PtxMod;

typedef enum PtxOpcode {
    PTX_OP_INVALID = 0,
#define OP(id, name, shape, ntmin, ntmax, types, groups, flags, synopsis) \
    PTX_OP_##id,
#include "ptx/opcodes.def"
#undef OP
    PTX_OP_COUNT
} PtxOpcode;

/* State spaces (PTX ISA 9.0 section 5.1). */
typedef enum PtxSpace {
    PTX_SPACE_NONE = 0,
    PTX_SPACE_REG,
    PTX_SPACE_SREG,
    PTX_SPACE_CONST,
    PTX_SPACE_GLOBAL,
    PTX_SPACE_LOCAL,
    PTX_SPACE_PARAM,         /* kernel or function parameter, or callseq */
    PTX_SPACE_SHARED,        /* .shared or .shared::cta */
    PTX_SPACE_SHARED_CLUSTER,
    PTX_SPACE_TEX,
    PTX_SPACE_GENERIC,
    PTX_SPACE_COUNT
} PtxSpace;

/* Special registers (PTX ISA 9.0 chapter 10). */
typedef enum PtxSreg {
    PTX_SREG_NONE = 0,
#define SREG(id, name, type, ncomp, nidx) PTX_SREG_##id,
#include "ptx/sregs.def"
#undef SREG
    PTX_SREG_COUNT
} PtxSreg;

/* ---- source positions ---- */

typedef struct PtxLoc {
    uint32_t line;  /* 1-based line in the PTX text */
    uint32_t col;   /* 1-based column */
} PtxLoc;

/* A .loc directive in effect for an instruction (file index from .file).
 * With "inlined_at F L C" (PTX ISA, ".loc"): the code of an inlined
 * function, called at file inl_file, line inl_line. */
typedef struct IrSrcPos {
    uint32_t file;  /* 0 = none */
    uint32_t line;
    uint32_t col;
    uint32_t inl_file;  /* 0 = not inlined */
    uint32_t inl_line;
} IrSrcPos;

/* ---- registers ---- */

typedef struct IrReg {
    const char *name;   /* full name, e.g. "%r17" */
    PtxType type;
    uint8_t vec;        /* 1, 2, 4 or 8 for .v registers */
    uint32_t scope;     /* declaring scope */
} IrReg;

/* ---- variables (module or function scope) ---- */

typedef enum IrLinkage {
    IR_LINK_INTERNAL = 0,
    IR_LINK_VISIBLE,
    IR_LINK_EXTERN,
    IR_LINK_WEAK,
    IR_LINK_COMMON
} IrLinkage;

/* An address inside an initializer: bytes at `offset` hold the address
 * of `sym` (or of function `func`) plus `addend`, optionally converted
 * to a generic address (generic(sym)) or masked (mask(...)). */
typedef struct IrReloc {
    uint64_t offset;
    uint8_t size;            /* 4 or 8 bytes */
    bool generic;
    const struct IrSymbol *sym;
    const struct IrFunc *func;
    int64_t addend;
    uint64_t mask;           /* 0 = none; else AND mask then shift */
    uint8_t shift;
} IrReloc;

/* One attribute of a .texref/.samplerref/.surfref initializer, as
 * written: { filter_mode = linear, addr_mode_0 = wrap, ... }. */
typedef struct IrTexAttr {
    const char *key;
    const char *value;
} IrTexAttr;

typedef struct IrSymbol {
    const char *name;
    PtxSpace space;
    PtxType type;            /* element type; PTX_T_NONE for .texref etc. */
    uint8_t vec;             /* 1, 2, 4, 8 */
    uint8_t kind;            /* IR_SYM_VAR, IR_SYM_TEXREF, ... */
    IrLinkage linkage;
    uint32_t align;          /* bytes; 0 = natural */
    uint32_t ndims;
    uint64_t dims[4];        /* 0 in dims[0] = unsized [] */
    uint64_t size;           /* total bytes (0 when unsized) */
    uint8_t *init;           /* size bytes of initial data, or NULL */
    IrReloc *relocs;
    uint32_t nrelocs;
    IrTexAttr *texattrs;     /* opaque-type initializer, in source order */
    uint32_t ntexattrs;
    /* .param attributes: .ptr .space .align */
    bool is_ptr;
    PtxSpace ptr_space;
    uint32_t ptr_align;
    uint32_t scope;          /* function scope index; 0 at module level */
    bool managed;            /* .attribute(.managed) */
    PtxLoc loc;
} IrSymbol;

enum {
    IR_SYM_VAR = 0,
    IR_SYM_TEXREF,
    IR_SYM_SAMPLERREF,
    IR_SYM_SURFREF
};

/* ---- operands ---- */

typedef enum IrOpndKind {
    IR_O_NONE = 0,
    IR_O_REG,        /* id = register index; sel = component */
    IR_O_SREG,       /* id = PtxSreg; sel = component (x=0 ... ) */
    IR_O_IMM,        /* integer immediate in imm (two's complement) */
    IR_O_FIMM,       /* float immediate: fbits holds IEEE bits, fsize 32|64 */
    IR_O_SYM,        /* address of a variable: u.sym + imm */
    IR_O_FUNC,       /* a function used as a value or call target */
    IR_O_LABEL,      /* id = label index */
    IR_O_ADDR,       /* [base + imm]: base register id (or -1) and/or
                        base symbol u.sym (or NULL), offset imm */
    IR_O_VEC,        /* { a, b, ... }: n elements in u.elems */
    IR_O_LIST,       /* ( a, b, ... ) call argument/return list */
    IR_O_PAIR,       /* p|q predicate pair: u.elems[0], u.elems[1] */
    IR_O_SINK,       /* _ */
    IR_O_TUPLE       /* [ a, b, ... ]: texture/surface/tensor operands
                        (tex [t, {x, y}], cp.async.bulk.tensor [m, {c}]),
                        n elements in u.elems */
} IrOpndKind;

/* Component selectors on operands (%r.x, %tid.y, %r.b0, %r.h1), and the
 * SIMD video selectors of several digits (%r.b3210, %r.h10): those are
 * IR_SEL_BYTES / IR_SEL_HALVES | (ndigits - 1) << 12 | digits, 3 bits a
 * byte digit and 2 bits a half digit, first digit in the low bits. */
enum {
    IR_SEL_NONE = 0,
    IR_SEL_X, IR_SEL_Y, IR_SEL_Z, IR_SEL_W,
    IR_SEL_B0, IR_SEL_B1, IR_SEL_B2, IR_SEL_B3,
    IR_SEL_H0, IR_SEL_H1,
    IR_SEL_BYTES = 0x8000,
    IR_SEL_HALVES = 0x4000
};

/* IrOperand.neg values. */
enum {
    IR_NEG_NONE = 0,
    IR_NEG_NOT = 1,      /* !p: logical negation of a predicate */
    IR_NEG_MINUS = 2     /* -a: arithmetic negation (vmad, mad operands) */
};

typedef struct IrOperand {
    uint8_t kind;        /* IrOpndKind */
    uint8_t neg;         /* IR_NEG_* */
    uint16_t sel;        /* IR_SEL_* */
    uint8_t fsize;       /* IR_O_FIMM: 32 or 64 */
    uint32_t n;          /* IR_O_VEC/LIST/PAIR: number of elems */
    int32_t id;          /* REG: register; SREG: PtxSreg; LABEL: label;
                            ADDR: base register or -1 */
    PtxLoc loc;
    int64_t imm;         /* IMM value; FIMM IEEE bits; SYM/ADDR offset;
                            SREG: index of %envregN / %pmN */
    union {
        const IrSymbol *sym;          /* SYM, and ADDR's base symbol */
        const struct IrFunc *func;    /* FUNC */
        struct IrOperand *elems;      /* VEC, LIST, PAIR, TUPLE */
    } u;
} IrOperand;

/* ---- instructions ---- */

#define IR_MAX_TYPES 6     /* block-scaled mma has 5 */
#define IR_MAX_SFX 14
#define IR_SFX_TYPE 0x8000u    /* sfx entry is IR_SFX_TYPE | PtxType */

/* Kept small on purpose: a 50 MB module holds millions of these, and the
 * parse benchmark's peak-memory bound is 10x the file size.  Modifiers are
 * therefore a short list in source order rather than a per-group array;
 * ir_insn_mod() finds a group's value. */
typedef struct IrInsn {
    uint16_t op;                 /* PtxOpcode */
    uint8_t ntypes;
    uint8_t nopnds;
    uint8_t types[IR_MAX_TYPES]; /* PtxType, in source order */
    /* All suffixes in source order (for printing): a PtxMod, or
     * IR_SFX_TYPE | PtxType.  At most one modifier per group. */
    uint16_t sfx[IR_MAX_SFX];
    uint8_t nsfx;
    bool guard_neg;
    int32_t guard;               /* predicate register, -1 = none */
    IrOperand *opnds;
    uint32_t scope;
    uint32_t block;              /* basic block, after ir_cfg_build */
    PtxLoc loc;                  /* position of the opcode in the file */
    IrSrcPos src;                /* .loc in effect */
} IrInsn;

/* A label: its name, the instruction it precedes (== ninsns at the end),
 * and, for .branchtargets / .calltargets labels, its list of targets. */
typedef struct IrLabel {
    const char *name;
    uint32_t insn;
    uint32_t scope;
    uint8_t kind;                /* IR_LABEL_* */
    uint32_t ntargets;
    int32_t *targets;            /* label indices (branchtargets) */
    const struct IrFunc **ftargets; /* functions (calltargets) */
    struct IrFunc *proto;        /* .callprototype */
    PtxLoc loc;
} IrLabel;

enum {
    IR_LABEL_CODE = 0,
    IR_LABEL_BRANCHTARGETS,
    IR_LABEL_CALLTARGETS,
    IR_LABEL_CALLPROTO
};

typedef struct IrScope {
    uint32_t parent;             /* scope 0 is its own parent */
    uint32_t first_insn;         /* insns [first_insn, end_insn) */
    uint32_t end_insn;
    PtxLoc loc;
} IrScope;

/* ---- control-flow graph (filled by ir_cfg_build) ---- */

typedef struct IrBlock {
    uint32_t first;              /* first instruction */
    uint32_t end;                /* one past the last */
    uint32_t nsucc, npred;
    uint32_t *succ;              /* block indices; IR_EXIT_BLOCK for exit */
    uint32_t *pred;
    uint32_t ipdom;              /* immediate post-dominator block, or
                                    IR_EXIT_BLOCK */
} IrBlock;

#define IR_EXIT_BLOCK UINT32_MAX

/* ---- functions ---- */

typedef struct IrFunc {
    const char *name;
    bool is_entry;               /* .entry (kernel) vs .func */
    bool is_decl;                /* prototype only, no body */
    bool is_proto;               /* .callprototype */
    bool noreturn;
    IrLinkage linkage;
    IrSymbol **params;
    uint32_t nparams;
    IrSymbol **rets;             /* .func return parameters */
    uint32_t nrets;
    /* performance directives; 0 = not given */
    uint32_t maxntid[3], reqntid[3], reqnctapercluster[3];
    uint32_t maxnreg, minnctapersm, maxnctapersm, maxclusterrank;
    bool explicitcluster;
    bool blocksareclusters;
    /* pragmas (.pragma "nounroll"; ...) in source order */
    const char **pragmas;
    uint32_t npragmas;

    IrReg *regs;
    uint32_t nregs;
    IrSymbol **vars;             /* .local/.shared/.param/.const inside */
    uint32_t nvars;
    IrInsn *insns;
    uint32_t ninsns;
    IrLabel *labels;
    uint32_t nlabels;
    IrScope *scopes;
    uint32_t nscopes;

    IrBlock *blocks;             /* NULL until ir_cfg_build */
    uint32_t nblocks;
    /* Reconvergence point of each instruction that may diverge (branch,
     * brx.idx, call through a register...): the first instruction of
     * its immediate post-dominator, or UINT32_MAX for "at exit".
     * Indexed by instruction; UINT32_MAX elsewhere. */
    uint32_t *reconv;
    PtxLoc loc;
    /* The PTX file this function was parsed from, when the module was
     * linked from several (ptx_link); NULL: the module's filename. */
    const char *file;
    /* ptx_parse_lazy: this function's body did not parse; its located
     * errors (the body was replaced by "ret;"). NULL otherwise. */
    const char *load_error;
} IrFunc;

/* ---- module ---- */

/* .alias ALIAS, TARGET; (PTX ISA 11.6.x): calls to alias run target. */
typedef struct IrAlias {
    struct IrFunc *alias;
    struct IrFunc *target;
} IrAlias;

typedef struct IrModule {
    const char *filename;        /* for diagnostics */
    uint32_t version_major, version_minor;
    const char **targets;        /* .target list, in order */
    uint32_t ntargets;
    uint32_t address_size;       /* 32 or 64 */
    const char **files;          /* .file index -> name; files[0] unused */
    uint32_t nfiles;
    IrSymbol **globals;          /* module-scope variables, in order */
    uint32_t nglobals;
    IrFunc **funcs;              /* functions in order of first declaration */
    uint32_t nfuncs;
    /* Raw text of .section blocks (DWARF), kept for round-tripping. */
    const char **sections;
    uint32_t nsections;
    const char **pragmas;        /* module-level .pragma strings */
    uint32_t npragmas;
    IrAlias *aliases;
    uint32_t naliases;
    struct PtxArena *arena;
    /* A linked module (ptx_link) also owns its inputs' arenas. */
    struct PtxArena **more_arenas;
    uint32_t nmore_arenas;
} IrModule;

/* The PTX file that function f of module m came from. */
static inline const char *ir_func_file(const IrModule *m, const IrFunc *f)
{
    return f->file ? f->file : m->filename;
}

/* ---- queries ---- */

const char *ptx_type_name(PtxType t);
unsigned ptx_type_bits(PtxType t);
PtxTypeKind ptx_type_kind(PtxType t);
const char *ptx_space_name(PtxSpace s);
const char *ptx_sreg_name(PtxSreg s);
const char *ptx_mod_name(PtxMod m);
PtxModGroup ptx_mod_group(PtxMod m);

/* The modifier of group g on an instruction, or PTX_M_NONE. */
static inline PtxMod ir_insn_mod(const IrInsn *in, PtxModGroup g)
{
    for (unsigned i = 0; i < in->nsfx; i++) {
        unsigned v = in->sfx[i];
        if (!(v & IR_SFX_TYPE) && ptx_mod_group((PtxMod)v) == g) {
            return (PtxMod)v;
        }
    }
    return PTX_M_NONE;
}
const char *ptx_modgroup_name(PtxModGroup g);

IrFunc *ir_find_func(const IrModule *m, const char *name);
IrSymbol *ir_find_global(const IrModule *m, const char *name);

#ifdef __cplusplus
}
#endif
#endif
