/*
 * emu/ops_warp.c: warp-level instructions: shfl(.sync), vote(.sync),
 * match.any/all.sync, redux.sync and activemask.
 *
 * A warp-level handler sees the registers of all 32 lanes.  It reads the
 * sources of every lane it needs before writing any destination (a
 * destination may be the source register).  Lanes outside `mask` (the
 * active lanes that pass the guard) do not take part.  The membermask
 * operand of the .sync forms is read per lane as given; the lanes that
 * take part for lane l are mask & membermask(l).  Reading from a lane that
 * does not take part is undefined in PTX; we return that lane's register
 * value, which keeps runs deterministic.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "emu/emu.h"
#include "emu/exec.h"
#include "emu/intops.h"
#include "emu/its.h"
#include "emu/ops.h"

#define SRC(k, l) emu_src(x, &i->o[k], (l))

/* Under independent thread scheduling a .sync form first waits for the
 * lanes of its membermask (operand k; emu/its.h), which may switch to
 * another path or fault; IPDOM runs it with the lanes present, as a
 * pre-Volta GPU. */
#define ITS_GATE(k)                                                       \
    do {                                                                  \
        if (x->launch->mod->reconv == EMU_RECONV_ITS &&                  \
            !emu_its_sync(x, &i->o[k], mask)) {                           \
            return;                                                       \
        }                                                                 \
    } while (0)

/* Inner lane loop (EMU_FOR_LANES cannot nest: it names its counter _m). */
#define FOR_BITS(bits, k)                                                 \
    for (uint32_t _b = (bits), k; _b && ((k = (uint32_t)                  \
         __builtin_ctz(_b)), 1); _b &= _b - 1)

static inline uint32_t pred_src(EmuCtx *x, const EmuOpnd *o, unsigned l)
{
    uint32_t v = (uint32_t)emu_src(x, o, l) & 1;
    return o->neg == IR_NEG_NOT ? v ^ 1 : v;
}

/* The values of operand o for all lanes (a register's slots, or buf
 * filled for an immediate or special register). */
static inline const uint64_t *all_lanes(EmuCtx *x, const EmuOpnd *o,
                                        uint64_t *buf)
{
    if (o->kind == EO_REG) {
        return emu_slot(x, o->reg);
    }
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        buf[l] = o->kind == EO_IMM ? o->imm : emu_sreg_value(x, o, l);
    }
    return buf;
}

/* ------------------------------------------------ shfl */

enum { SHFL_UP, SHFL_DOWN, SHFL_BFLY, SHFL_IDX };

/* PTX ISA shfl.sync pseudo-code: source lane j and whether it is in range.
 *   maxLane = (lane & segmask) | (cval & ~segmask); minLane = lane & segmask
 *   up: j = lane - b, ok = j >= maxLane;   down: j = lane + b, ok = j <= maxLane
 *   bfly: j = lane ^ b, ok = j <= maxLane; idx: j = minLane | (b & ~segmask),
 *   ok = j <= maxLane; when !ok, j = lane. */
static inline int shfl_src(unsigned mode, int lane, uint32_t b, uint32_t c,
                           bool *ok)
{
    int bval = (int)(b & 31), cval = (int)(c & 31);
    int seg = (int)((c >> 8) & 31);
    int maxl = (lane & seg) | (cval & ~seg);
    int minl = lane & seg;
    int j;
    bool p;
    switch (mode) {
    case SHFL_UP: j = lane - bval; p = j >= maxl; break;
    case SHFL_DOWN: j = lane + bval; p = j <= maxl; break;
    case SHFL_BFLY: j = lane ^ bval; p = j <= maxl; break;
    default: j = minl | (bval & ~seg); p = j <= maxl; break;
    }
    *ok = p;
    return p ? j : lane;
}

#define DEF_SHFL(name, MODE)                                              \
    static void h_shfl_##name(EmuCtx *x, const EmuInsn *i, uint32_t mask) \
    {                                                                     \
        if (i->nopnd > 4) {                                               \
            ITS_GATE(4);                                                  \
        }                                                                 \
        uint64_t ab[EMU_WARP_SIZE], bb[EMU_WARP_SIZE], cb[EMU_WARP_SIZE]; \
        const uint64_t *av = all_lanes(x, &i->o[1], ab);                  \
        const uint64_t *bv = all_lanes(x, &i->o[2], bb);                  \
        const uint64_t *cv = all_lanes(x, &i->o[3], cb);                  \
        uint32_t res[EMU_WARP_SIZE];                                      \
        uint32_t pv = 0;                                                  \
        EMU_FOR_LANES(mask, l) {                                          \
            bool ok;                                                      \
            int j = shfl_src(MODE, (int)l, (uint32_t)bv[l],               \
                             (uint32_t)cv[l], &ok);                       \
            res[l] = (uint32_t)av[j];                                     \
            pv |= (uint32_t)ok << l;                                      \
        }                                                                 \
        if (i->o[0].reg != EMU_NOREG) {                                   \
            uint64_t *d = emu_slot(x, i->o[0].reg);                       \
            EMU_FOR_LANES(mask, l) {                                      \
                d[l] = res[l];                                            \
            }                                                             \
        }                                                                 \
        if (i->o[0].kind == EO_PAIR &&                                    \
            (uint32_t)i->o[0].imm != EMU_NOREG) {                         \
            uint64_t *p = emu_slot(x, (uint32_t)i->o[0].imm);             \
            EMU_FOR_LANES(mask, l) {                                      \
                p[l] = (pv >> l) & 1;                                     \
            }                                                             \
        }                                                                 \
    }
DEF_SHFL(up, SHFL_UP)
DEF_SHFL(down, SHFL_DOWN)
DEF_SHFL(bfly, SHFL_BFLY)
DEF_SHFL(idx, SHFL_IDX)

/* ------------------------------------------------ vote */

enum { VOTE_ALL, VOTE_ANY, VOTE_UNI, VOTE_BALLOT };

/* Lanes taking part for lane l: mask, and the membermask (operand k) for
 * the .sync forms. */
static inline uint32_t part_of(EmuCtx *x, const EmuInsn *i, int k,
                               uint32_t mask, unsigned l)
{
    return k < 0 ? mask : mask & (uint32_t)SRC(k, l);
}

#define DEF_VOTE(name, MODE, MMK)                                         \
    static void h_vote_##name(EmuCtx *x, const EmuInsn *i, uint32_t mask) \
    {                                                                     \
        if (MMK >= 0) {                                                   \
            ITS_GATE(MMK);                                                \
        }                                                                 \
        uint32_t pm = 0;                                                  \
        uint32_t res[EMU_WARP_SIZE];                                      \
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {                    \
            pm |= pred_src(x, &i->o[1], l) << l;                          \
        }                                                                 \
        EMU_FOR_LANES(mask, l) {                                          \
            uint32_t part = part_of(x, i, MMK, mask, l);                  \
            uint32_t t = pm & part;                                       \
            switch (MODE) {                                               \
            case VOTE_ALL: res[l] = t == part; break;                     \
            case VOTE_ANY: res[l] = t != 0; break;                        \
            case VOTE_UNI: res[l] = t == 0 || t == part; break;           \
            default: res[l] = t; break;                                   \
            }                                                             \
        }                                                                 \
        uint64_t *d = emu_slot(x, i->o[0].reg);                           \
        EMU_FOR_LANES(mask, l) {                                          \
            d[l] = res[l];                                                \
        }                                                                 \
    }
DEF_VOTE(all_s, VOTE_ALL, 2)
DEF_VOTE(any_s, VOTE_ANY, 2)
DEF_VOTE(uni_s, VOTE_UNI, 2)
DEF_VOTE(ballot_s, VOTE_BALLOT, 2)
DEF_VOTE(all, VOTE_ALL, -1)
DEF_VOTE(any, VOTE_ANY, -1)
DEF_VOTE(uni, VOTE_UNI, -1)
DEF_VOTE(ballot, VOTE_BALLOT, -1)

/* ------------------------------------------------ match */

static void h_match_any(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    ITS_GATE(2);
    uint64_t av[EMU_WARP_SIZE];
    uint32_t res[EMU_WARP_SIZE];
    bool w64 = i->type == PTX_T_B64;
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        av[l] = w64 ? SRC(1, l) : (uint32_t)SRC(1, l);
    }
    EMU_FOR_LANES(mask, l) {
        uint32_t part = mask & (uint32_t)SRC(2, l), r = 0;
        FOR_BITS(part, k) {
            r |= (uint32_t)(av[k] == av[l]) << k;
        }
        res[l] = r;
    }
    uint64_t *d = emu_slot(x, i->o[0].reg);
    EMU_FOR_LANES(mask, l) {
        d[l] = res[l];
    }
}

static void h_match_all(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    ITS_GATE(2);
    uint64_t av[EMU_WARP_SIZE];
    uint32_t res[EMU_WARP_SIZE];
    uint32_t pv = 0;
    bool w64 = i->type == PTX_T_B64;
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        av[l] = w64 ? SRC(1, l) : (uint32_t)SRC(1, l);
    }
    EMU_FOR_LANES(mask, l) {
        uint32_t part = mask & (uint32_t)SRC(2, l);
        bool same = true;
        FOR_BITS(part, k) {
            same &= av[k] == av[l];
        }
        res[l] = same ? part : 0;
        pv |= (uint32_t)same << l;
    }
    if (i->o[0].reg != EMU_NOREG) {
        uint64_t *d = emu_slot(x, i->o[0].reg);
        EMU_FOR_LANES(mask, l) {
            d[l] = res[l];
        }
    }
    if (i->o[0].kind == EO_PAIR && (uint32_t)i->o[0].imm != EMU_NOREG) {
        uint64_t *p = emu_slot(x, (uint32_t)i->o[0].imm);
        EMU_FOR_LANES(mask, l) {
            p[l] = (pv >> l) & 1;
        }
    }
}

/* ------------------------------------------------ redux */

enum {
    RX_ADD, RX_UMIN, RX_UMAX, RX_SMIN, RX_SMAX, RX_AND, RX_OR, RX_XOR,
    RX_FMIN, RX_FMAX, RX_N
};
#define RX_ABS 0x100
#define RX_NAN 0x200

/* f32 min/max as redux.sync does: -0 < +0; NaN inputs are ignored unless
 * .NaN, and the result is the canonical NaN 0x7fffffff when all inputs
 * are NaN (or any is, with .NaN). */
static inline uint32_t fminmax(uint32_t a, uint32_t b, bool mx, bool nan)
{
    bool an = (a & 0x7fffffffu) > 0x7f800000u;
    bool bn = (b & 0x7fffffffu) > 0x7f800000u;
    if (an || bn) {
        if (nan || (an && bn)) {
            return 0x7fffffffu;
        }
        return an ? b : a;
    }
    float fa = iop_u2f(a), fb = iop_u2f(b);
    if (fa == fb) {                     /* equal, or +0 vs -0 */
        bool aneg = a >> 31;
        return mx ? (aneg ? b : a) : (aneg ? a : b);
    }
    return (mx ? fa > fb : fa < fb) ? a : b;
}

static inline uint32_t rx_step(unsigned op, uint32_t acc, uint32_t v)
{
    switch (op & 0xff) {
    case RX_ADD: return acc + v;
    case RX_UMIN: return v < acc ? v : acc;
    case RX_UMAX: return v > acc ? v : acc;
    case RX_SMIN: return (int32_t)v < (int32_t)acc ? v : acc;
    case RX_SMAX: return (int32_t)v > (int32_t)acc ? v : acc;
    case RX_AND: return acc & v;
    case RX_OR: return acc | v;
    case RX_XOR: return acc ^ v;
    case RX_FMIN: return fminmax(acc, v, false, op & RX_NAN);
    default: return fminmax(acc, v, true, op & RX_NAN);
    }
}

/* One reduction per instruction; the op switch runs per participating
 * lane of each distinct membermask, not per lane and element pair. */
static void h_redux(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    ITS_GATE(2);
    uint32_t av[EMU_WARP_SIZE];
    uint32_t res[EMU_WARP_SIZE];
    unsigned op = i->aux;
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        uint32_t v = (uint32_t)SRC(1, l);
        av[l] = (op & RX_ABS) ? v & 0x7fffffffu : v;
    }
    uint32_t last_part = 0, last = 0;
    bool have = false;
    EMU_FOR_LANES(mask, l) {
        uint32_t part = mask & (uint32_t)SRC(2, l);
        if (!have || part != last_part) {
            uint32_t acc = 0;
            bool first = true;
            FOR_BITS(part, k) {
                acc = first ? av[k] : rx_step(op, acc, av[k]);
                first = false;
            }
            last_part = part;
            last = acc;
            have = true;
        }
        res[l] = last;
    }
    uint64_t *d = emu_slot(x, i->o[0].reg);
    EMU_FOR_LANES(mask, l) {
        d[l] = res[l];
    }
}

/* ------------------------------------------------ activemask */

static void h_activemask(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    EMU_FOR_LANES(mask, l) {
        d[l] = mask;
    }
}

/* ------------------------------------------------ selector */

static EmuHandler select_shfl(const IrInsn *in)
{
    switch (ir_insn_mod(in, PTX_MG_SHFL)) {
    case PTX_M_UP: return h_shfl_up;
    case PTX_M_DOWN: return h_shfl_down;
    case PTX_M_BFLY: return h_shfl_bfly;
    case PTX_M_IDX: return h_shfl_idx;
    default: return NULL;
    }
}

static EmuHandler select_vote(const IrInsn *in, bool sync)
{
    static const EmuHandler tab[2][4] = {
        { h_vote_all, h_vote_any, h_vote_uni, h_vote_ballot },
        { h_vote_all_s, h_vote_any_s, h_vote_uni_s, h_vote_ballot_s },
    };
    unsigned t = in->ntypes ? in->types[0] : PTX_T_NONE;
    switch (ir_insn_mod(in, PTX_MG_VOTE)) {
    case PTX_M_ALL: return t == PTX_T_PRED ? tab[sync][VOTE_ALL] : NULL;
    case PTX_M_ANY: return t == PTX_T_PRED ? tab[sync][VOTE_ANY] : NULL;
    case PTX_M_VOTE_UNI: return t == PTX_T_PRED ? tab[sync][VOTE_UNI] : NULL;
    case PTX_M_BALLOT: return t == PTX_T_B32 ? tab[sync][VOTE_BALLOT] : NULL;
    default: return NULL;
    }
}

static EmuHandler select_redux(const IrInsn *in, EmuInsn *ei)
{
    unsigned t = in->ntypes ? in->types[0] : PTX_T_NONE;
    bool abs = ir_insn_mod(in, PTX_MG_ABSMOD) != PTX_M_NONE;
    bool nan = ir_insn_mod(in, PTX_MG_NAN) != PTX_M_NONE;
    int op = -1;
    bool f = t == PTX_T_F32, s = t == PTX_T_S32;
    switch (ir_insn_mod(in, PTX_MG_REDOP)) {
    case PTX_M_ADD: op = (t == PTX_T_U32 || s) ? RX_ADD : -1; break;
    case PTX_M_MIN: op = f ? RX_FMIN : s ? RX_SMIN
                         : t == PTX_T_U32 ? RX_UMIN : -1; break;
    case PTX_M_MAX: op = f ? RX_FMAX : s ? RX_SMAX
                         : t == PTX_T_U32 ? RX_UMAX : -1; break;
    case PTX_M_RED_AND: op = t == PTX_T_B32 ? RX_AND : -1; break;
    case PTX_M_RED_OR: op = t == PTX_T_B32 ? RX_OR : -1; break;
    case PTX_M_RED_XOR: op = t == PTX_T_B32 ? RX_XOR : -1; break;
    default: break;
    }
    if (op < 0 || ((abs || nan) && !f)) {
        return NULL;
    }
    ei->aux = (uint16_t)((unsigned)op | (abs ? RX_ABS : 0) |
                         (nan ? RX_NAN : 0));
    return h_redux;
}

EMU_SELECTOR(warp)
{
    (void)m;
    (void)f;
    EmuHandler h;
    switch ((PtxOpcode)in->op) {
    case PTX_OP_SHFL:
    case PTX_OP_SHFL_SYNC:
        h = select_shfl(in);
        break;
    case PTX_OP_VOTE:
        h = select_vote(in, false);
        break;
    case PTX_OP_VOTE_SYNC:
        h = select_vote(in, true);
        break;
    case PTX_OP_MATCH_ANY_SYNC:
        h = h_match_any;
        break;
    case PTX_OP_MATCH_ALL_SYNC:
        h = h_match_all;
        break;
    case PTX_OP_REDUX_SYNC:
        h = select_redux(in, ei);
        break;
    case PTX_OP_ACTIVEMASK:
        h = h_activemask;
        break;
    default:
        return false;
    }
    /* Destinations must be registers (a sink would need no result but
     * the instruction still synchronises: run it into nothing). */
    if (h && ei->nopnd > 0 && ei->o[0].kind != EO_REG &&
        ei->o[0].kind != EO_PAIR) {
        h = NULL;
    }
    ei->fn = h;
    return true;
}
