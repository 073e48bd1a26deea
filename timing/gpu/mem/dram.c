/*
 * timing/gpu/mem/dram.c: a DRAM channel and its controller (rules in
 * dram.h).  Each bank keeps the earliest cycle each command may issue
 * to it; a command issued moves those limits forward (the usual
 * "next allowed time" bookkeeping of cycle-level DRAM models such as
 * DRAMSim3 and Ramulator); dram_next takes the minimum over the queued
 * requests' next commands, so waits on timing cost no ticks.
 *
 * The requests of one bank whose next command is of the same kind (ACT,
 * PRE, RD or WR) share their earliest cycle: it depends on the bank, its
 * rank, group and channel, never on the request otherwise.  So each bank
 * counts its queued requests, those to its open row and the writes among
 * them, and dram_next and dram_tick look at the banks that have requests
 * (at most four cases each) instead of every queued request.  Each
 * bank also knows its oldest queued request and its oldest read and
 * write to the open row (by arrival number), so fr-fcfs finds the
 * oldest request that may issue among the banks, not the queue.
 */
#include "timing/gpu/mem/dram.h"

#include <stdio.h>
#include <stdlib.h>

#include "emu/panic.h"
#include "timing/gpu/mem/bitset.h"

typedef struct Bank {
    bool open;
    uint32_t nreq;              /* queued requests to the bank */
    uint32_t hits;              /* queued requests to the open row */
    uint32_t hits_wr;           /* the writes among them */
    uint32_t rank, bg;          /* its rank, its group in bg_ncas[] */
    uint64_t first;             /* the arrival number (Req.seq) of its
                                   oldest queued request, */
    uint64_t first_rd, first_wr; /* of its oldest read and write to the
                                   open row (NO_SEQ: none) */
    uint64_t row;
    uint64_t nact;              /* earliest ACT (tRC, tRP, tRFC) */
    uint64_t npre;              /* earliest PRE (tRAS, tRTP, tWR) */
    uint64_t ncas;              /* earliest column command (tRCD) */
} Bank;

typedef struct Rank {
    uint64_t nact;              /* tRRD */
    uint64_t faw[4];            /* its last four ACTs' cycles (tFAW), a
                                   ring from faw_at; 0: none yet */
    uint32_t faw_at, nfaw;
    uint64_t ref_due;           /* MEM_NEVER: no refresh */
} Rank;

/* What the scheduler looks at, every cycle, for every queued request:
 * kept small (its message is in the parallel array qm[]). */
typedef struct Req {
    uint64_t seq;               /* arrival number: q[] is in its order */
    uint64_t row;
    uint16_t bank;              /* in the channel */
    uint16_t rank, bg;          /* its rank, its group in bg_ncas[] */
    uint8_t ncas;               /* column commands still to issue */
    bool write, started;
} Req;

struct Dram {
    DramCfg c;
    DramStats *st, *sum;
    DramBankStats *bst;         /* per bank */
    Bank *bank;                 /* ranks x banks */
    uint64_t *active;           /* bit per bank: nreq > 0 */
    uint32_t nactive_w;         /* words of active[] */
    Rank *rank;
    uint64_t *bg_ncas;          /* ranks x bankgroups: tCCDL */
    uint64_t ncas;              /* channel: tCCDS */
    uint64_t nrd, nwr;          /* channel: tWTR / tRTW turnarounds */
    Req *q;                     /* arrival order */
    uint64_t seq;               /* the next arrival number */
    MemMsg *qm;                 /* their messages */
    uint32_t nq, nrd_held, nwr_held;    /* held: queued or in out */
    MemQ out;
    uint64_t last;              /* last tick + 1 (0: none yet) */
    uint64_t next;              /* dram_next's answer while !stale */
    bool stale;
    DramCmd *log;
    uint32_t logcap, *nlog;
};

#define T(d, x) ((uint64_t)(d)->c.t[DT_##x])
#define NO_SEQ UINT64_MAX

#define COUNT(d, f, v) MEM_COUNT((d)->st, (d)->sum, f, v)

static uint64_t max64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

Dram *dram_new(const DramCfg *cfg, DramStats *st, char *err, size_t errlen)
{
    const char *bad = NULL;
    if (!cfg->ranks || !cfg->banks || !cfg->bankgroups ||
        cfg->banks % cfg->bankgroups) {
        bad = "ranks, banks and bank groups must be at least 1, and the "
              "bank groups must divide the banks";
    } else if (!cfg->burst_bytes || !cfg->rdq || !cfg->wrq) {
        bad = "burst bytes and queue depths must be at least 1";
    } else if (!cfg->t[DT_BURST] || !cfg->t[DT_CCDS] || !cfg->t[DT_CCDL]) {
        bad = "tBURST, tCCDS and tCCDL must be at least 1";
    } else if ((uint64_t)cfg->ranks * cfg->banks > 65535) {
        bad = "too many banks";
    }
    if (bad) {
        if (err && errlen) {
            snprintf(err, errlen, "%s", bad);
        }
        return NULL;
    }
    Dram *d = calloc(1, sizeof *d);
    if (!d) {
        return NULL;
    }
    d->c = *cfg;
    d->st = st;
    d->stale = true;
    d->bank = calloc((size_t)cfg->ranks * cfg->banks, sizeof *d->bank);
    d->rank = calloc(cfg->ranks, sizeof *d->rank);
    d->bg_ncas = calloc((size_t)cfg->ranks * cfg->bankgroups,
                        sizeof *d->bg_ncas);
    d->bst = calloc((size_t)cfg->ranks * cfg->banks, sizeof *d->bst);
    d->nactive_w = bitset_words(cfg->ranks * cfg->banks);
    d->active = calloc(d->nactive_w, sizeof *d->active);
    d->q = calloc((size_t)cfg->rdq + cfg->wrq, sizeof *d->q);
    d->qm = calloc((size_t)cfg->rdq + cfg->wrq, sizeof *d->qm);
    if (!d->bank || !d->rank || !d->bg_ncas || !d->q || !d->qm || !d->bst ||
        !d->active ||
        memq_init(&d->out, cfg->rdq + cfg->wrq)) {
        dram_free(d);
        return NULL;
    }
    for (uint32_t r = 0; r < cfg->ranks; r++) {
        d->rank[r].ref_due = cfg->t[DT_REFI] ? cfg->t[DT_REFI] : MEM_NEVER;
    }
    for (uint32_t b = 0; b < cfg->ranks * cfg->banks; b++) {
        d->bank[b].first = d->bank[b].first_rd = d->bank[b].first_wr = NO_SEQ;
        d->bank[b].rank = b / cfg->banks;
        d->bank[b].bg = d->bank[b].rank * cfg->bankgroups +
                        (b % cfg->banks) % cfg->bankgroups;
    }
    return d;
}

void dram_free(Dram *d)
{
    if (!d) {
        return;
    }
    free(d->bank);
    free(d->rank);
    free(d->bg_ncas);
    free(d->q);
    free(d->qm);
    free(d->bst);
    free(d->active);
    memq_fini(&d->out);
    free(d);
}

void dram_set_sum(Dram *d, DramStats *sum)
{
    d->sum = sum;
}

const DramBankStats *dram_bank_stats(const Dram *d)
{
    return d->bst;
}

void dram_set_log(Dram *d, DramCmd *log, uint32_t cap, uint32_t *n)
{
    d->log = log;
    d->logcap = cap;
    d->nlog = n;
    *n = 0;
}

static void catch_up(Dram *d, uint64_t now);

/* A request arrives at now, taken or not: the channel is brought up to
 * it.  True when the queue it needs is full (refused: counted). */
static bool arrive_full(Dram *d, bool write, uint64_t now)
{
    if (!d->nq) {
        catch_up(d, now);
    }
    /* nothing is issued for it before it arrived */
    d->last = max64(d->last, now);
    d->stale = true;
    if (write ? d->nwr_held >= d->c.wrq : d->nrd_held >= d->c.rdq) {
        COUNT(d, refused, 1);
        return true;
    }
    return false;
}

bool dram_refuse_full(Dram *d, const MemMsg *m, uint64_t now)
{
    if (!(m->kind == GPU_MEM_WRITE ? d->nwr_held >= d->c.wrq
                                   : d->nrd_held >= d->c.rdq)) {
        return false;
    }
    return arrive_full(d, m->kind == GPU_MEM_WRITE, now);
}

bool dram_accept(Dram *d, const MemMsg *m, uint32_t bankid, uint64_t row,
                 uint64_t now)
{
    bool write = m->kind == GPU_MEM_WRITE;
    EMU_ASSERT(bankid < d->c.ranks * d->c.banks);
    if (arrive_full(d, write, now)) {
        return false;
    }
    uint32_t bytes = mem_sector_count(m->sectors) * GPU_SECTOR;
    Req *r = &d->q[d->nq++];
    Bank *b = &d->bank[bankid];
    d->qm[d->nq - 1] = *m;
    *r = (Req){.seq = d->seq++, .bank = (uint16_t)bankid, .row = row,
               .write = write,
               .rank = (uint16_t)b->rank, .bg = (uint16_t)b->bg,
               .ncas = (uint8_t)((bytes + d->c.burst_bytes - 1) /
                                 d->c.burst_bytes)};
    if (!r->ncas) {
        r->ncas = 1;
    }
    if (!b->nreq++) {
        bitset_add(d->active, bankid);
        b->first = r->seq;
    }
    if (b->open && b->row == row) {
        /* the newest: the oldest of its kind only when alone */
        if (write ? !b->hits_wr : b->hits == b->hits_wr) {
            *(write ? &b->first_wr : &b->first_rd) = r->seq;
        }
        b->hits++;
        b->hits_wr += write;
    }
    if (write) {
        d->nwr_held++;
        COUNT(d, writes, 1);
    } else {
        d->nrd_held++;
        COUNT(d, reads, 1);
    }
    return true;
}

/* ---- commands ---- */

static uint32_t rank_of(const Dram *d, uint32_t b)
{
    return b / d->c.banks;
}

static void log_cmd(Dram *d, uint64_t now, DramCmdKind k, uint32_t b,
                    uint64_t row)
{
    if (d->log && *d->nlog < d->logcap) {
        d->log[(*d->nlog)++] = (DramCmd){.cycle = now, .cmd = (uint8_t)k,
                                         .rank = (uint8_t)rank_of(d, b),
                                         .bank = (uint16_t)b, .row = row};
    }
}

static bool ref_pending(const Dram *d, uint32_t rank, uint64_t now)
{
    return d->rank[rank].ref_due <= now;
}

typedef enum Next { N_ACT, N_PRE, N_CAS } Next;

/* When rank rk's refresh can issue its next command (REF once every bank
 * is closed and may be activated, else the first possible PRE). */
static uint64_t ref_action(const Dram *d, uint32_t rk)
{
    const Bank *b = &d->bank[rk * d->c.banks];
    uint64_t ready = 0, pre = MEM_NEVER;
    for (uint32_t k = 0; k < d->c.banks; k++) {
        ready = max64(ready, b[k].nact);
        if (b[k].open) {
            pre = mem_min(pre, b[k].npre);
        }
    }
    return max64(d->rank[rk].ref_due, pre != MEM_NEVER ? pre : ready);
}

/* The earliest ACT of rank rk as the rank allows: tRRD after its last
 * ACT, and tFAW after the fourth-last (at most four ACTs in any window
 * of tFAW cycles; tFAW 0: no such limit). */
static uint64_t act_window(const Dram *d, uint32_t rk)
{
    const Rank *k = &d->rank[rk];
    uint64_t t = k->nact;
    if (T(d, FAW) && k->nfaw == 4) {
        t = max64(t, k->faw[k->faw_at] + T(d, FAW));
    }
    return t;
}

static Next next_cmd(const Dram *d, const Req *r)
{
    const Bank *b = &d->bank[r->bank];
    if (!b->open) {
        return N_ACT;
    }
    return b->row == r->row ? N_CAS : N_PRE;
}

/* The earliest cycle an ACT of closed bank b may issue. */
static uint64_t act_earliest(const Dram *d, const Bank *b)
{
    uint64_t t = max64(b->nact, act_window(d, b->rank));
    /* a refresh due first holds every ACT of the rank back */
    return d->rank[b->rank].ref_due <= t
               ? max64(t, ref_action(d, b->rank) + 1)
               : t;
}

/* The earliest cycle a read (or a write) to the open row of bank b may
 * issue. */
static uint64_t cas_earliest(const Dram *d, const Bank *b, bool write)
{
    uint64_t t = max64(b->ncas, max64(d->bg_ncas[b->bg], d->ncas));
    return max64(t, write ? d->nwr : d->nrd);
}

/* The earliest cycle r's next command may issue (other requests and a
 * pending refresh aside). */
static uint64_t earliest(const Dram *d, const Req *r)
{
    const Bank *b = &d->bank[r->bank];
    switch (next_cmd(d, r)) {
    case N_ACT:
        return act_earliest(d, b);
    case N_PRE:
        return b->npre;
    case N_CAS:
    default:
        return cas_earliest(d, b, r->write);
    }
}

/* The least earliest() of bank b's queued requests (nreq > 0): requests
 * whose next command is of one kind share it. */
static uint64_t bank_earliest(const Dram *d, const Bank *b)
{
    if (!b->open) {
        return act_earliest(d, b);
    }
    uint64_t t = b->nreq > b->hits ? b->npre : MEM_NEVER;
    if (b->hits > b->hits_wr) {
        t = mem_min(t, cas_earliest(d, b, false));
    }
    if (b->hits_wr) {
        t = mem_min(t, cas_earliest(d, b, true));
    }
    return t;
}

static void do_act(Dram *d, uint32_t bi, uint64_t row, uint64_t now)
{
    Bank *b = &d->bank[bi];
    b->open = true;
    b->row = row;
    b->hits = b->hits_wr = 0;
    b->first_rd = b->first_wr = NO_SEQ;
    for (uint32_t i = d->nq; i-- > 0;) {     /* (oldest last) */
        const Req *r = &d->q[i];
        if (r->bank == bi && r->row == row) {
            b->hits++;
            b->hits_wr += r->write;
            *(r->write ? &b->first_wr : &b->first_rd) = r->seq;
        }
    }
    b->ncas = now + T(d, RCD);
    b->npre = now + T(d, RAS);
    b->nact = now + T(d, RC);
    Rank *k = &d->rank[rank_of(d, bi)];
    k->nact = now + T(d, RRD);
    k->faw[k->faw_at] = now;
    k->faw_at = (k->faw_at + 1) % 4;
    k->nfaw += k->nfaw < 4;
    COUNT(d, act, 1);
    d->bst[bi].act++;
    log_cmd(d, now, DC_ACT, bi, row);
}

static void close_bank(Dram *d, Bank *b, uint64_t at)
{
    b->open = false;
    b->hits = b->hits_wr = 0;
    b->first_rd = b->first_wr = NO_SEQ;
    b->nact = max64(b->nact, at + T(d, RP));
}

static void do_pre(Dram *d, uint32_t bi, uint64_t now)
{
    Bank *b = &d->bank[bi];
    log_cmd(d, now, DC_PRE, bi, b->row);
    close_bank(d, b, now);
    COUNT(d, pre, 1);
}

/* The arrival number of the first request from q[from] on to bank bi
 * (only reads or writes to its open row, as write says, with hit), or
 * NO_SEQ. */
static uint64_t next_seq(const Dram *d, uint32_t from, uint32_t bi,
                         bool hit, bool write)
{
    const Bank *b = &d->bank[bi];
    for (uint32_t k = from; k < d->nq; k++) {
        const Req *q = &d->q[k];
        if (q->bank == bi &&
            (!hit || (q->row == b->row && q->write == write))) {
            return q->seq;
        }
    }
    return NO_SEQ;
}

/* Column command of q[i]; a finished request leaves the queue. */
static void do_cas(Dram *d, uint32_t i, uint64_t now)
{
    Req *r = &d->q[i];
    Bank *b = &d->bank[r->bank];
    d->bg_ncas[r->bg] = now + T(d, CCDL);
    d->ncas = now + T(d, CCDS);
    COUNT(d, data_cycles, T(d, BURST));
    COUNT(d, bytes, d->c.burst_bytes);
    uint64_t done;
    if (r->write) {
        b->npre = max64(b->npre, now + T(d, WL) + T(d, BURST) + T(d, WR));
        d->nrd = max64(d->nrd, now + T(d, WL) + T(d, BURST) + T(d, WTR));
        done = now + T(d, WL) + T(d, BURST);
        COUNT(d, wr, 1);
        log_cmd(d, now, DC_WR, r->bank, r->row);
    } else {
        b->npre = max64(b->npre, now + T(d, RTP));
        d->nwr = max64(d->nwr, now + T(d, RTW));
        done = now + T(d, CL) + T(d, BURST);
        COUNT(d, rd, 1);
        log_cmd(d, now, DC_RD, r->bank, r->row);
    }
    /* the way to the devices and back, which no DRAM timing covers
     * (GPGPU-Sim's -dram_latency plays this part) */
    done += d->c.path_lat;
    if (!r->started) {
        r->started = true;
        COUNT(d, row_hit, 1);
        d->bst[r->bank].row_hit++;
    }
    if (--r->ncas) {
        return;
    }
    EMU_ASSERT(b->hits > 0 && b->nreq > 0);
    b->hits--;              /* it leaves the queue */
    b->hits_wr -= r->write;
    if (!--b->nreq) {
        bitset_del(d->active, r->bank);
    }
    /* the oldest of its bank (and of its kind there) now is the next
     * such behind it */
    if (b->first == r->seq) {
        b->first = next_seq(d, i + 1, r->bank, false, false);
    }
    uint64_t *fk = r->write ? &b->first_wr : &b->first_rd;
    if (*fk == r->seq) {
        *fk = next_seq(d, i + 1, r->bank, true, r->write);
    }
    if (d->c.policy == DRAM_CLOSED) {
        close_bank(d, b, b->npre);
    }
    if (r->write && (d->qm[i].flags & MEM_F_NOREPLY)) {
        d->nwr_held--;
    } else {
        memq_push(&d->out, &d->qm[i], done);
    }
    for (uint32_t k = i + 1; k < d->nq; k++) {
        d->q[k - 1] = d->q[k];
        d->qm[k - 1] = d->qm[k];
    }
    d->nq--;
}

static bool legal(const Dram *d, const Req *r, Next n, uint64_t now)
{
    if (earliest(d, r) > now) {
        return false;
    }
    return n != N_ACT || !ref_pending(d, r->rank, now);
}

/* Issue q[i]'s next command n. */
static void issue(Dram *d, uint32_t i, Next n, uint64_t now)
{
    Req *r = &d->q[i];
    if (n == N_CAS) {
        do_cas(d, i, now);
        return;
    }
    if (!r->started) {
        r->started = true;
        if (n == N_ACT) {
            COUNT(d, row_miss, 1);
            d->bst[r->bank].row_miss++;
        } else {
            COUNT(d, row_conflict, 1);
            d->bst[r->bank].row_conflict++;
        }
    }
    if (n == N_ACT) {
        do_act(d, r->bank, r->row, now);
    } else {
        do_pre(d, r->bank, now);
    }
}

static void do_ref(Dram *d, uint32_t rk, uint64_t now)
{
    Bank *b = &d->bank[rk * d->c.banks];
    for (uint32_t k = 0; k < d->c.banks; k++) {
        b[k].nact = max64(b[k].nact, now + T(d, RFC));
    }
    d->rank[rk].ref_due += T(d, REFI);
    COUNT(d, ref, 1);
    log_cmd(d, now, DC_REF, rk * d->c.banks, 0);
}

/* A rank due for refresh: REF when every bank may be activated, else
 * precharge an open bank.  True when a command issued. */
static bool refresh(Dram *d, uint64_t now)
{
    for (uint32_t rk = 0; rk < d->c.ranks; rk++) {
        if (!ref_pending(d, rk, now)) {
            continue;
        }
        Bank *b = &d->bank[rk * d->c.banks];
        bool closed = true;
        uint64_t ready = 0;
        for (uint32_t k = 0; k < d->c.banks; k++) {
            closed &= !b[k].open;
            ready = max64(ready, b[k].nact);
        }
        if (closed) {
            if (ready > now) {
                continue;
            }
            do_ref(d, rk, now);
            return true;
        }
        for (uint32_t k = 0; k < d->c.banks; k++) {
            if (b[k].open && b[k].npre <= now) {
                do_pre(d, rk * d->c.banks + k, now);
                return true;
            }
        }
    }
    return false;
}

/* An idle channel is not ticked, refresh included: when a request
 * arrives, the refreshes due meanwhile are done as they would have been
 * (PRE of the open banks as soon as allowed, REF once all may be
 * activated), up to now. */
static void catch_up(Dram *d, uint64_t now)
{
    for (uint32_t rk = 0; rk < d->c.ranks; rk++) {
        while (d->rank[rk].ref_due <= now) {
            Bank *b = &d->bank[rk * d->c.banks];
            for (uint32_t k = 0; k < d->c.banks; k++) {
                uint64_t at = max64(b[k].npre, d->rank[rk].ref_due);
                if (b[k].open && at <= now) {
                    do_pre(d, rk * d->c.banks + k, at);
                }
            }
            uint64_t at = ref_action(d, rk);
            bool closed = true;
            for (uint32_t k = 0; k < d->c.banks; k++) {
                closed &= !b[k].open;
            }
            if (!closed || at > now) {
                break;
            }
            do_ref(d, rk, at);
        }
    }
}

/* What bank b's requests may issue at now (dram_tick's choices). */
enum {
    OK_RD = 1,          /* a read to the open row */
    OK_WR = 2,          /* a write to the open row */
    OK_OTHER = 4,       /* the ACT of a closed bank, or the PRE of a row
                           no queued request hits */
};

static uint8_t bank_ok(const Dram *d, const Bank *b, uint64_t now)
{
    if (!b->open) {
        return act_earliest(d, b) <= now && !ref_pending(d, b->rank, now)
                   ? OK_OTHER
                   : 0;
    }
    if (!b->hits) {
        return b->npre <= now ? OK_OTHER : 0;
    }
    uint8_t ok = 0;
    if (b->hits > b->hits_wr && cas_earliest(d, b, false) <= now) {
        ok |= OK_RD;
    }
    if (b->hits_wr && cas_earliest(d, b, true) <= now) {
        ok |= OK_WR;
    }
    return ok;
}

/* fr-fcfs's choice at now over the banks with requests (the others
 * are not looked at): the arrival number of the oldest request whose
 * column command may issue, else of the oldest whose ACT or PRE may
 * (a bank that may ACT or PRE has no request to its open row: its
 * oldest), else NO_SEQ; *cas says which. */
static uint64_t banks_pick(const Dram *d, uint64_t now, bool *cas)
{
    uint64_t col = NO_SEQ, other = NO_SEQ;
    for (uint32_t w = 0; w < d->nactive_w; w++) {
        for (uint64_t m = d->active[w]; m; m &= m - 1) {
            const Bank *b = &d->bank[bitset_at(w, m)];
            uint8_t ok = bank_ok(d, b, now);
            if (ok & OK_RD) {
                col = mem_min(col, b->first_rd);
            }
            if (ok & OK_WR) {
                col = mem_min(col, b->first_wr);
            }
            if (ok & OK_OTHER) {
                other = mem_min(other, b->first);
            }
        }
    }
    *cas = col != NO_SEQ;
    return *cas ? col : other;
}

/* The index in q of the request with arrival number seq (queued). */
static uint32_t index_of(const Dram *d, uint64_t seq)
{
    uint32_t lo = 0, hi = d->nq;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (d->q[mid].seq <= seq) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    EMU_ASSERT(d->q[lo].seq == seq);
    return lo;
}

void dram_tick(Dram *d, uint64_t now)
{
    d->last = now + 1;
    d->stale = true;
    COUNT(d, queue_sum, d->nq);
    /* refresh too waits for a request (catch_up) when nothing is queued */
    if (!d->nq || refresh(d, now)) {
        return;
    }
    if (d->c.sched == DRAM_FIFO) {
        Next n = next_cmd(d, &d->q[0]);
        if (legal(d, &d->q[0], n, now)) {
            issue(d, 0, n, now);
        }
        return;
    }
    /* the oldest column command that may issue wins; failing one, the
     * oldest ACT or PRE that may (a PRE only of a row no queued request
     * still hits), what may issue decided per bank (bank_ok) */
    bool cas;
    uint64_t seq = banks_pick(d, now, &cas);
    if (seq != NO_SEQ) {
        uint32_t i = index_of(d, seq);
        issue(d, i, cas ? N_CAS : next_cmd(d, &d->q[i]), now);
    }
}

/* The least of t and the banks' earliest, or any value <= d->last once
 * one is: dram_next answers no earlier than the next tick, so the
 * search stops at the first bank that can act by then (while requests
 * wait on a busy bus, most can). */
static uint64_t banks_earliest(const Dram *d, uint64_t t)
{
    for (uint32_t w = 0; w < d->nactive_w; w++) {
        for (uint64_t m = d->active[w]; m; m &= m - 1) {
            if (t <= d->last) {
                return t;
            }
            t = mem_min(t, bank_earliest(d, &d->bank[bitset_at(w, m)]));
        }
    }
    return t;
}

uint64_t dram_next(const Dram *dc)
{
    /* the answer is kept until the state changes (accept, tick, pop):
     * owners ask far more often than that */
    Dram *d = (Dram *)dc;
    if (!d->stale) {
        return d->next;
    }
    d->stale = false;
    uint64_t t = memq_next(&d->out);
    for (uint32_t rk = 0; d->nq && rk < d->c.ranks; rk++) {
        if (d->rank[rk].ref_due != MEM_NEVER) {
            t = mem_min(t, ref_action(d, rk));
        }
    }
    if (d->c.sched == DRAM_FIFO) {
        t = d->nq ? mem_min(t, earliest(d, &d->q[0])) : t;
    } else {
        t = banks_earliest(d, t);
    }
    d->next = t == MEM_NEVER ? t : max64(t, d->last);
    return d->next;
}

const MemMsg *dram_out_peek(const Dram *d, uint64_t now)
{
    return memq_peek(&d->out, now);
}

void dram_out_pop(Dram *d)
{
    const MemMsg *m = &d->out.it[d->out.head].m;
    if (m->kind == GPU_MEM_WRITE) {
        d->nwr_held--;
    } else {
        d->nrd_held--;
    }
    memq_pop(&d->out);
    d->stale = true;
}
