/*
 * emu/ops_mbarrier.c: the arrive/wait barriers of PTX (mbarrier.*,
 * PTX ISA 9.0 section "Parallel Synchronization and Communication
 * Instructions: mbarrier"), cp.async.mbarrier.arrive, and the
 * complete_tx of the asynchronous bulk operations (ops_bulk.c).
 *
 * An mbarrier is a 64-bit word in shared memory whose layout the ISA
 * leaves opaque.  Ours:
 *
 *   bits  0..19  pending arrival count of the current phase
 *   bits 20..39  expected arrival count (reloaded into pending when a
 *                phase completes; arrive_drop lowers it)
 *   bits 40..60  tx-count, 21-bit two's complement: the ISA allows
 *                -(2^20-1)..2^20-1, and a bulk copy may complete its
 *                bytes before the matching expect_tx raises the count
 *   bit  61      bit 1 of the phase number (mod 4)
 *   bit  62      1 while initialised (init sets it, inval clears the
 *                word): operations on a word without it fault
 *   bit  63      phase parity (bit 0 of the phase number)
 *
 * A phase completes when pending and tx-count are both 0: the phase
 * number advances (mod 4), pending = expected, tx-count = 0.
 *
 * The state token returned by arrive is the word as that arrive left
 * it, before any phase flip: its parity is the phase the arrival counted
 * in and its pending field the arrivals still missing in that phase
 * after it (so the tokens of one phase's arrivals carry pending counts
 * expected-1 .. 0, one each).  test_wait/try_wait with a token succeed
 * once the phase is the token's next; a token two or three phases old
 * (by the phase number mod 4) is a fault: the ISA allows a token of the
 * current or the immediately preceding phase only, and its parity
 * alone would say that phase is still running, a wait that never ends
 * (a token four phases old passes as current);
 * mbarrier.pending_count returns the token's pending field.
 *
 * Asynchronous operations complete at issue here: cp.async copies are
 * done by op_cp_async before the instruction after them runs, so
 * cp.async.mbarrier.arrive arrives at once (without .noinc its implicit
 * pending+1 and the arrive cancel out), and cp.async.bulk copies and
 * then performs complete_tx of its size.  Waits never block: a failed
 * test_wait/try_wait returns false and the program loops; the
 * round-robin scheduler runs the other warps meanwhile, and its
 * watchdog (sched.c) catches a loop that can never succeed.  The warp
 * remembers the mbarrier it last polled in vain (EmuWarp.mbar_poll) so
 * that the deadlock report can say so, and counts its failed waits in a
 * row (EmuWarp.mbar_fails) for the scheduler's mbarrier rule.
 *
 * Clusters: a .shared::cluster address reaches the CTA of the cluster
 * that it names (emu/cluster.h), as for ld/st; a generic mbarrier
 * address must lie in the executing CTA's own shared window.
 * Lanes run in ascending order, one operation at a time (the word's
 * updates are atomic by construction).
 */
#include <string.h>

#include "emu/access.h"
#include "emu/async.h"
#include "emu/client.h"
#include "emu/exec.h"
#include "emu/memory.h"
#include "emu/ops.h"
#include "ptx/opcode.h"

#define MB_CNT_MASK 0xfffffull                 /* 20-bit counts */
#define MB_EXP_SHIFT 20
#define MB_TX_SHIFT 40
#define MB_TX_MASK 0x1fffffull                 /* 21 bits */
#define MB_VALID (1ull << 62)
#define MB_PHASE (1ull << 63)
#define MB_PHASE_HI_SHIFT 61                   /* phase number bit 1 */
#define MB_TX_MAX 0xfffff                      /* 2^20 - 1 */

/* aux of the arrive family */
enum {
    AUX_DROP = 1u << 0,         /* arrive_drop */
    AUX_NOCOMPLETE = 1u << 1,   /* .noComplete */
    AUX_EXPECT_TX = 1u << 2,    /* .expect_tx: operand 2 is a byte count */
    AUX_COUNT = 1u << 3,        /* operand 2 is an arrival count */
    AUX_PARITY = 1u << 4,       /* waits: operand 2 is a phase parity */
    AUX_NOINC = 1u << 5,        /* cp.async.mbarrier.arrive.noinc */
    AUX_COMPLETE_TX = 1u << 6   /* complete_tx (else expect_tx) */
};

typedef struct Mbar {
    uint32_t pending, expected;
    int32_t tx;
    unsigned phase;
} Mbar;

static Mbar mb_unpack(uint64_t w)
{
    Mbar b;
    b.pending = (uint32_t)(w & MB_CNT_MASK);
    b.expected = (uint32_t)(w >> MB_EXP_SHIFT & MB_CNT_MASK);
    uint32_t t = (uint32_t)(w >> MB_TX_SHIFT & MB_TX_MASK);
    b.tx = (int32_t)(t << 11) >> 11;          /* sign-extend 21 bits */
    b.phase = (unsigned)(w >> 63) | (unsigned)(w >> MB_PHASE_HI_SHIFT & 1) << 1;
    return b;
}

static uint64_t mb_pack(const Mbar *b)
{
    return (uint64_t)b->pending | (uint64_t)b->expected << MB_EXP_SHIFT |
           ((uint64_t)(uint32_t)b->tx & MB_TX_MASK) << MB_TX_SHIFT |
           MB_VALID | (uint64_t)(b->phase & 1) << 63 |
           (uint64_t)(b->phase >> 1 & 1) << MB_PHASE_HI_SHIFT;
}

/* Kind of mb_word() for a check that is not an access. */
#define MB_CHECK EMU_ACC_KIND_COUNT

/* The host bytes of the mbarrier at operand a for `lane`, or NULL after
 * a fault: it must be an 8-byte aligned word of shared memory.  The
 * access is noted as `kind` (MB_CHECK: not noted). */
static uint8_t *mb_word(EmuCtx *x, const EmuInsn *i, const EmuOpnd *a,
                        PtxSpace sp, unsigned lane, uint64_t *addr,
                        EmuAccKind kind)
{
    uint64_t off;
    *addr = emu_lane_addr(x, a, lane);
    if (sp == PTX_SPACE_GENERIC &&
        emu_space_of(sp, *addr, &off) != PTX_SPACE_SHARED) {
        emu_fault(x, EMU_ERR_ILLEGAL_ADDRESS, lane, *addr, 8, sp,
                  "%s: mbarrier object at generic address 0x%llx is not "
                  "in shared memory", ptx_opinfo((PtxOpcode)i->op)->name,
                  (unsigned long long)*addr);
        return NULL;
    }
    if (kind == MB_CHECK) {
        return emu_mem_guest(x, lane, sp, *addr, 8, true);
    }
    return emu_access(x, lane, sp, *addr, 8, kind);
}

static uint64_t rd64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static void wr64(EmuCtx *x, uint8_t *p, uint64_t v)
{
    if (rd64(p) != v) {
        memcpy(p, &v, 8);
        emu_progress(x->cta);
    }
}

/* The initialised mbarrier at p, or false after a fault. */
static bool mb_load(EmuCtx *x, const EmuInsn *i, const uint8_t *p,
                    unsigned lane, uint64_t addr, PtxSpace sp, Mbar *b)
{
    uint64_t w = rd64(p);
    if (!(w & MB_VALID)) {
        emu_fault(x, EMU_ERR_ILLEGAL_INSTRUCTION, lane, addr, 8, sp,
                  "%s on 0x%llx, which holds no initialised mbarrier "
                  "(mbarrier.init missing, or after mbarrier.inval)",
                  ptx_opinfo((PtxOpcode)i->op)->name,
                  (unsigned long long)addr);
        return false;
    }
    *b = mb_unpack(w);
    return true;
}

/* Complete the current phase if nothing is pending any more (the word
 * at host bytes p: its asynchronous channel sees the flip).  Also when
 * drops lowered the expected count to 0: the PTX ISA's arrive-drop is
 * an arrive-on after the decrement, and a phase completes when its
 * pending count and tx-count are zero, whatever later phases expect. */
static void mb_settle(EmuCtx *x, const uint8_t *p, uint64_t addr,
                      Mbar *b)
{
    if (b->pending == 0 && b->tx == 0) {
        b->phase = (b->phase + 1) & 3u;
        b->pending = b->expected;
        emu_async_mbar_flip(x, emu_async_mbar_id(p));
        emu_client_warp_event(x, EMU_EV_MBAR_FLIP, addr, 0);
    }
}

static bool tx_add(EmuCtx *x, const EmuInsn *i, unsigned lane,
                   uint64_t addr, PtxSpace sp, Mbar *b, int64_t d)
{
    int64_t t = (int64_t)b->tx + d;
    if (t > MB_TX_MAX || t < -MB_TX_MAX) {
        emu_fault(x, EMU_ERR_ILLEGAL_INSTRUCTION, lane, addr, 8, sp,
                  "%s: tx-count of the mbarrier at 0x%llx leaves its "
                  "range +-(2^20-1) (%lld)",
                  ptx_opinfo((PtxOpcode)i->op)->name,
                  (unsigned long long)addr, (long long)t);
        return false;
    }
    b->tx = (int32_t)t;
    return true;
}

/* mbarrier.init [a], count */
static void op_mb_init(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        uint64_t addr;
        uint8_t *p = mb_word(x, i, &i->o[0], (PtxSpace)i->space, lane,
                             &addr, EMU_ACC_WRITE);
        if (!p) {
            return;
        }
        uint64_t n = emu_src(x, &i->o[1], lane) & 0xffffffffu;
        if (n < 1 || n > MB_CNT_MASK) {
            emu_fault(x, EMU_ERR_ILLEGAL_INSTRUCTION, lane, addr, 8,
                      (PtxSpace)i->space, "mbarrier.init: count %llu out "
                      "of range [1, 2^20-1]", (unsigned long long)n);
            return;
        }
        Mbar b = { (uint32_t)n, (uint32_t)n, 0, 0 };
        wr64(x, p, mb_pack(&b));
        emu_async_mbar_reset(x, emu_async_mbar_id(p));
    }
}

/* mbarrier.inval [a]: the word becomes ordinary memory again */
static void op_mb_inval(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        uint64_t addr;
        uint8_t *p = mb_word(x, i, &i->o[0], (PtxSpace)i->space, lane,
                             &addr, EMU_ACC_WRITE);
        if (!p) {
            return;
        }
        wr64(x, p, 0);
        emu_async_mbar_reset(x, emu_async_mbar_id(p));
    }
}

/* One arrive-on of `count` (drop: also leave the later phases) plus an
 * optional expect_tx of tx bytes first.  *token: the word after the
 * arrival, before a phase flip.  False after a fault. */
static bool mb_arrive(EmuCtx *x, const EmuInsn *i, unsigned lane,
                      uint8_t *p, uint64_t addr, PtxSpace sp,
                      uint64_t count, int64_t tx, uint64_t *token)
{
    Mbar b;
    if (!mb_load(x, i, p, lane, addr, sp, &b)) {
        return false;
    }
    const char *name = ptx_opinfo((PtxOpcode)i->op)->name;
    if (count < 1 || count > MB_CNT_MASK) {
        emu_fault(x, EMU_ERR_ILLEGAL_INSTRUCTION, lane, addr, 8, sp,
                  "%s: count %llu out of range [1, 2^20-1]", name,
                  (unsigned long long)count);
        return false;
    }
    if (count > b.pending) {
        emu_fault(x, EMU_ERR_ILLEGAL_INSTRUCTION, lane, addr, 8, sp,
                  "%s: %llu arrival(s) on the mbarrier at 0x%llx, which "
                  "awaits only %u in its current phase", name,
                  (unsigned long long)count, (unsigned long long)addr,
                  b.pending);
        return false;
    }
    if ((i->aux & AUX_DROP) && count > b.expected) {
        emu_fault(x, EMU_ERR_ILLEGAL_INSTRUCTION, lane, addr, 8, sp,
                  "%s: drops %llu from an expected count of %u", name,
                  (unsigned long long)count, b.expected);
        return false;
    }
    if (tx && !tx_add(x, i, lane, addr, sp, &b, tx)) {
        return false;
    }
    b.pending -= (uint32_t)count;
    if (i->aux & AUX_DROP) {
        b.expected -= (uint32_t)count;
    }
    *token = mb_pack(&b);
    if ((i->aux & AUX_NOCOMPLETE) && b.pending == 0 && b.tx == 0) {
        emu_fault(x, EMU_ERR_ILLEGAL_INSTRUCTION, lane, addr, 8, sp,
                  "%s.noComplete would complete the phase of the "
                  "mbarrier at 0x%llx", name, (unsigned long long)addr);
        return false;
    }
    mb_settle(x, p, addr, &b);
    wr64(x, p, mb_pack(&b));
    return true;
}

/* mbarrier.arrive{_drop}{.noComplete,.expect_tx} state|_, [a]{, n} */
static void op_mb_arrive(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint32_t ds = i->o[0].kind == EO_REG ? i->o[0].reg : EMU_NOREG;
    EMU_FOR_LANES(mask, lane) {
        uint64_t addr, tok = 0, count = 1;
        int64_t tx = 0;
        uint8_t *p = mb_word(x, i, &i->o[1], (PtxSpace)i->space, lane,
                             &addr, EMU_ACC_ATOMIC);
        if (!p) {
            return;
        }
        if (i->aux & AUX_COUNT) {
            count = emu_src(x, &i->o[2], lane) & 0xffffffffu;
        } else if (i->aux & AUX_EXPECT_TX) {
            tx = (int64_t)(emu_src(x, &i->o[2], lane) & 0xffffffffu);
        }
        if (!mb_arrive(x, i, lane, p, addr, (PtxSpace)i->space, count, tx,
                       &tok)) {
            return;
        }
        if (ds != EMU_NOREG) {
            x->regs[(size_t)ds * EMU_WARP_SIZE + lane] = tok;
        }
    }
}

/* mbarrier.expect_tx / complete_tx [a], bytes */
static void op_mb_tx(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        uint64_t addr;
        Mbar b;
        PtxSpace sp = (PtxSpace)i->space;
        uint8_t *p = mb_word(x, i, &i->o[0], sp, lane, &addr,
                             EMU_ACC_ATOMIC);
        if (!p || !mb_load(x, i, p, lane, addr, sp, &b)) {
            return;
        }
        int64_t n = (int64_t)(emu_src(x, &i->o[1], lane) & 0xffffffffu);
        if (!tx_add(x, i, lane, addr, sp, &b,
                    (i->aux & AUX_COMPLETE_TX) ? -n : n)) {
            return;
        }
        emu_async_issue(x, EMU_CHAN_MBAR, emu_async_mbar_id(p));
        mb_settle(x, p, addr, &b);
        wr64(x, p, mb_pack(&b));
    }
}

/* mbarrier.test_wait / try_wait{.parity} p, [a], state|parity{, hint} */
static void op_mb_wait(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint32_t ds = i->o[0].kind == EO_REG ? i->o[0].reg : EMU_NOREG;
    uint32_t failed = 0;
    uint64_t poll = 0;
    EMU_FOR_LANES(mask, lane) {
        uint64_t addr;
        Mbar b;
        PtxSpace sp = (PtxSpace)i->space;
        uint8_t *p = mb_word(x, i, &i->o[1], sp, lane, &addr,
                             EMU_ACC_READ);
        if (!p || !mb_load(x, i, p, lane, addr, sp, &b)) {
            return;
        }
        uint64_t v = emu_src(x, &i->o[2], lane);
        bool done;
        if (i->aux & AUX_PARITY) {
            /* the phase of parity v is over once the current differs */
            done = (b.phase & 1) != (unsigned)(v & 1);
        } else {
            unsigned age = (b.phase - mb_unpack(v).phase) & 3u;
            if (age >= 2) {
                emu_fault(x, EMU_ERR_ILLEGAL_INSTRUCTION, lane, addr, 8, sp,
                          "%s: the state token is %u phases older than "
                          "the current phase of the mbarrier at 0x%llx "
                          "(PTX ISA: only a token of the current or "
                          "the immediately preceding phase is valid)",
                          ptx_opinfo((PtxOpcode)i->op)->name, age,
                          (unsigned long long)addr);
                return;
            }
            done = age == 1;
        }
        emu_async_mbar_wait(x, emu_async_mbar_id(p), done);
        if (!done) {
            failed |= 1u << lane;
            poll = addr;
        }
        if (ds != EMU_NOREG) {
            x->regs[(size_t)ds * EMU_WARP_SIZE + lane] = done;
        }
    }
    x->warp->mbar_poll = failed ? poll | 1u : 0;
    x->warp->mbar_fails = failed ? x->warp->mbar_fails + 1 : 0;
}

/* mbarrier.pending_count d, state */
static void op_mb_pending(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    uint64_t *d = emu_slot(x, i->o[0].reg);
    EMU_FOR_LANES(mask, lane) {
        d[lane] = emu_src(x, &i->o[1], lane) & MB_CNT_MASK;
    }
}

/* cp.async.mbarrier.arrive{.noinc} [a]: this thread's earlier cp.async
 * are complete already; without .noinc the implicit pending+1 cancels
 * the arrival, so only the address is checked. */
static void op_cp_async_mb_arrive(EmuCtx *x, const EmuInsn *i,
                                  uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        uint64_t addr, tok;
        Mbar b;
        PtxSpace sp = (PtxSpace)i->space;
        uint8_t *p = mb_word(x, i, &i->o[0], sp, lane, &addr,
                             EMU_ACC_ATOMIC);
        if (!p || !mb_load(x, i, p, lane, addr, sp, &b)) {
            return;
        }
        /* the mbarrier's phase now waits for this warp's copies */
        emu_async_mbar_take_cp(x, emu_async_mbar_id(p));
        if ((i->aux & AUX_NOINC) &&
            !mb_arrive(x, i, lane, p, addr, sp, 1, 0, &tok)) {
            return;
        }
    }
}

/* complete_tx of `bytes` on the mbarrier at addr (space sp) for an
 * asynchronous operation (ops_bulk.c).  The mbarrier word is resolved
 * afresh: the operation may have overwritten it. */
bool emu_mbar_complete_tx(EmuCtx *x, const EmuInsn *i, unsigned lane,
                          PtxSpace sp, uint64_t addr, uint64_t bytes)
{
    EmuOpnd a = { .kind = EO_ADDR, .reg = EMU_NOREG, .imm = addr };
    uint64_t maddr;
    Mbar b;
    uint8_t *mp = mb_word(x, i, &a, sp, lane, &maddr,
                          EMU_ACC_ASYNC_ATOMIC);
    if (!mp || !mb_load(x, i, mp, lane, maddr, sp, &b) ||
        !tx_add(x, i, lane, maddr, sp, &b, -(int64_t)bytes)) {
        return false;
    }
    emu_async_issue(x, EMU_CHAN_MBAR, emu_async_mbar_id(mp));
    mb_settle(x, mp, maddr, &b);
    wr64(x, mp, mb_pack(&b));
    return true;
}

/* The checks of emu_mbar_complete_tx without the update, made before an
 * operation starts so that a bad mbarrier faults before any byte moves. */
bool emu_mbar_check(EmuCtx *x, const EmuInsn *i, unsigned lane,
                    PtxSpace sp, uint64_t addr)
{
    EmuOpnd a = { .kind = EO_ADDR, .reg = EMU_NOREG, .imm = addr };
    uint64_t maddr;
    Mbar b;
    uint8_t *mp = mb_word(x, i, &a, sp, lane, &maddr, MB_CHECK);
    return mp && mb_load(x, i, mp, lane, maddr, sp, &b);
}

static bool has_mod(const IrInsn *in, PtxMod m)
{
    for (unsigned k = 0; k < in->nsfx; k++) {
        if (!(in->sfx[k] & IR_SFX_TYPE) && (PtxMod)in->sfx[k] == m) {
            return true;
        }
    }
    return false;
}

static bool shared_space(const EmuInsn *ei)
{
    return ei->space == PTX_SPACE_SHARED ||
           ei->space == PTX_SPACE_SHARED_CLUSTER ||
           ei->space == PTX_SPACE_GENERIC;
}

EMU_SELECTOR(mbarrier)
{
    (void)m;
    (void)f;
    unsigned aux = 0;
    switch ((PtxOpcode)in->op) {
    case PTX_OP_MBARRIER_INIT:
        ei->fn = shared_space(ei) ? op_mb_init : NULL;
        return true;
    case PTX_OP_MBARRIER_INVAL:
        ei->fn = shared_space(ei) ? op_mb_inval : NULL;
        return true;
    case PTX_OP_MBARRIER_ARRIVE_DROP:
        aux |= AUX_DROP;
        /* fall through */
    case PTX_OP_MBARRIER_ARRIVE:
        if (has_mod(in, PTX_M_NOCOMPLETE)) {
            aux |= AUX_NOCOMPLETE;
        }
        if (has_mod(in, PTX_M_EXPECT_TX)) {
            aux |= AUX_EXPECT_TX;
        } else if (ei->nopnd > 2) {
            aux |= AUX_COUNT;
        }
        ei->aux = (uint16_t)aux;
        ei->fn = NULL;
        /* .expect_tx needs its byte count, .noComplete its count */
        if (shared_space(ei) && (ei->nopnd > 2 ||
            !(aux & (AUX_EXPECT_TX | AUX_NOCOMPLETE))) &&
            (ei->o[0].kind == EO_REG || ei->o[0].kind == EO_SINK)) {
            ei->fn = op_mb_arrive;
        }
        return true;
    case PTX_OP_MBARRIER_EXPECT_TX:
    case PTX_OP_MBARRIER_COMPLETE_TX:
        ei->aux = in->op == PTX_OP_MBARRIER_COMPLETE_TX ? AUX_COMPLETE_TX
                                                         : 0;
        ei->fn = shared_space(ei) ? op_mb_tx : NULL;
        return true;
    case PTX_OP_MBARRIER_TEST_WAIT:
    case PTX_OP_MBARRIER_TRY_WAIT:
        ei->aux = has_mod(in, PTX_M_PARITY) ? AUX_PARITY : 0;
        ei->fn = shared_space(ei) &&
                 (ei->o[0].kind == EO_REG || ei->o[0].kind == EO_SINK)
                 ? op_mb_wait : NULL;
        return true;
    case PTX_OP_MBARRIER_PENDING_COUNT:
        ei->fn = ei->o[0].kind == EO_REG ? op_mb_pending : NULL;
        return true;
    case PTX_OP_CP_ASYNC_MBARRIER_ARRIVE:
        ei->aux = has_mod(in, PTX_M_NOINC) ? AUX_NOINC : 0;
        ei->fn = shared_space(ei) ? op_cp_async_mb_arrive : NULL;
        return true;
    default:
        return false;
    }
}
