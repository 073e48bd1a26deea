/*
 * ptx/opcode.h: the compiled form of opcodes.def, modifiers.def and
 * types.def, and lookups on them.
 *
 * The tables are compiled once (thread-safe) on first use: shape strings
 * become PtxOpndSpec arrays, type and group lists become bit masks.
 */
#ifndef PTXEMU_OPCODE_H
#define PTXEMU_OPCODE_H

#include <stddef.h>
#include <stdint.h>
#include "ptx/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Opcode flags (the FLAGS column of opcodes.def). */
enum {
    OPF_NONE     = 0,
    OPF_BRANCH   = 1u << 0,  /* bra: target in a label operand */
    OPF_BRX      = 1u << 1,  /* brx.idx: targets from a label list */
    OPF_CALL     = 1u << 2,
    OPF_RET      = 1u << 3,
    OPF_EXIT     = 1u << 4,  /* exit, trap: ends the thread */
    OPF_BARRIER  = 1u << 5,  /* CTA-wide barrier */
    OPF_LOAD     = 1u << 6,
    OPF_STORE    = 1u << 7,
    OPF_ATOMIC   = 1u << 8,
    OPF_WARP     = 1u << 9,  /* warp-synchronous (shfl, vote, ...) */
    OPF_FENCE    = 1u << 10,
    OPF_TEX      = 1u << 11,
    OPF_NORET_DST = 1u << 12, /* no destination (st, red, bar ...) */
    OPF_ASYNC    = 1u << 13,
    OPF_TENSOR   = 1u << 14,
    OPF_NOP      = 1u << 15, /* no architectural effect in the emulator */
};

/* Operand kinds and type classes: the shape mini-language of opcodes.def. */
typedef enum PtxOpndKindSpec {
    OK_DST = 'd', OK_SRC = 's', OK_REG = 'r', OK_IMM = 'i', OK_PDST = 'p',
    OK_PSRC = 'q', OK_MEM = 'm', OK_LABEL = 'l', OK_TARGETS = 't',
    OK_FUNC = 'f', OK_LIST = 'a', OK_VEC = 'v', OK_SYMBOL = 'y', OK_ANY = 'x'
} PtxOpndKindSpec;

typedef struct PtxOpndSpec {
    char kind;        /* PtxOpndKindSpec */
    char tclass;      /* '0'..'3', 'w', 'W', 'p', 'h', 'z', 'u', 'Z',
                         'f', 'A', '_' (see opcodes.def) */
    bool optional;
    bool vec;         /* 'V' */
    bool relaxed;     /* 'R' */
    bool unpack;      /* 'U': brace vector as wide as the type */
    bool pair;        /* 'P': d|p pair allowed */
} PtxOpndSpec;

#define PTX_MAX_OPNDS 16

typedef struct PtxOpInfo {
    const char *name;
    uint8_t ncomp;            /* dotted components in name */
    uint8_t nopnd_min, nopnd_max;
    PtxOpndSpec opnd[PTX_MAX_OPNDS];
    uint8_t ntmin, ntmax;
    uint64_t types;           /* bit (1 << PtxType) */
    uint64_t groups;          /* bit (1 << PtxModGroup) */
    uint64_t required;
    uint32_t flags;
    const char *synopsis;
} PtxOpInfo;

const PtxOpInfo *ptx_opinfo(PtxOpcode op);

/* Longest match of leading dotted components of `s` (length len, e.g.
 * "cp.async.ca.shared.global") against opcode names.  Sets *consumed to
 * the number of characters matched (so s[*consumed] is '.' or the end).
 * Returns PTX_OP_INVALID when no prefix matches. */
PtxOpcode ptx_opcode_lookup(const char *s, size_t len, size_t *consumed);

/* A type suffix ("f32") without the dot; PTX_T_NONE if not a type. */
PtxType ptx_type_lookup(const char *s, size_t len);

/* A modifier suffix without the dot, resolved among `allowed` groups
 * first; if it names no allowed group's modifier, the first row of any
 * group is returned (so the caller can say "modifier .x not allowed on
 * op").  PTX_M_NONE if the string is no modifier at all. */
PtxMod ptx_mod_lookup(const char *s, size_t len, uint64_t allowed);

/* The overflow group of a group (LAYOUT -> LAYOUT2), or PTX_MG_COUNT. */
PtxModGroup ptx_modgroup_overflow(PtxModGroup g);

/* Special register by full name ("%tid"); PTX_SREG_NONE if unknown.
 * Handles indexed families: "%envreg3" -> ENVREG with *index = 3. */
PtxSreg ptx_sreg_lookup(const char *s, size_t len, int *index);
PtxType ptx_sreg_type(PtxSreg s);
unsigned ptx_sreg_ncomp(PtxSreg s);    /* 3 for .x/.y/.z registers, else 0 */
unsigned ptx_sreg_nidx(PtxSreg s);     /* family size, 0 if not indexed */

#ifdef __cplusplus
}
#endif
#endif
