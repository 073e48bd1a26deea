/*
 * check/synccheck.c: the synchronisation checker (see synccheck.h).
 *
 * Report lines follow compute-sanitizer's synccheck (NVIDIA, "Compute
 * Sanitizer User Manual", "Synccheck Tool": "Barrier error detected.
 * Divergent thread(s) in warp", "... in block", "Invalid arguments").
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check/map.h"
#include "check/synccheck.h"
#include "emu/client.h"
#include "ptx/opcode.h"

typedef enum Kind {
    K_DIVERGENT_WARP,
    K_COUNT,
    K_BLOCK,
    K_MASK_LANE,
    K_NEVER_BAR,
    K_NEVER_WARP,
    K_MBARRIER,
    K_MASK_EXITED,
} Kind;

static const char *const kind_name[] = {
    "divergent-warp", "barrier-count", "divergent-block",
    "mask-excludes-lane", "barrier-never-arrive", "warp-never-arrive",
    "mbarrier-misuse", "mask-names-exited",
};

static const char *const kind_head[] = {
    [K_DIVERGENT_WARP] = "Barrier error detected. Divergent thread(s) in "
                         "warp",
    [K_COUNT] = "Barrier error detected. Invalid arguments",
    [K_BLOCK] = "Barrier error detected. Divergent thread(s) in block",
    [K_MASK_LANE] = "Warp synchronization error detected. Invalid member "
                    "mask",
    [K_NEVER_BAR] = "Barrier error detected. Threads never arrive",
    [K_NEVER_WARP] = "Warp synchronization error detected. Threads never "
                     "arrive",
    [K_MBARRIER] = "Barrier error detected. Invalid mbarrier use",
    [K_MASK_EXITED] = "Warp synchronization warning. Member mask names "
                      "exited thread(s)",
};

/* Where a warp last did something the deadlock report names. */
typedef struct Site {
    const EmuFunc *f;
    uint32_t pc;
} Site;

typedef struct CtaState {
    uint32_t count[EMU_MAX_BARRIERS];     /* this round's thread count, or
                                             0: none given yet */
    uint32_t prev[EMU_MAX_BARRIERS];      /* the last round's */
    uint32_t *arrivals;                   /* [warp][id]: waits without a
                                             count */
    const EmuFunc *site_f[EMU_MAX_BARRIERS];
    uint32_t site_pc[EMU_MAX_BARRIERS];   /* the last such wait */
    uint32_t nwarps;
    /* For the report of a deadlock: per warp, its last CTA barrier and
     * its last bar.warp.sync (with that one's member mask); per thread
     * ([warp * 32 + lane]), where it exited; per warp, the lanes whose
     * exit is recorded. */
    Site *bar_site, *ws_site, *exit_site;
    uint32_t *ws_mask, *exit_seen;
    bool deadlocked;              /* its counts mean nothing at the end */
    bool count_bad[EMU_MAX_BARRIERS];     /* a K_COUNT error reported: a
                                             deadlock there follows */
} CtaState;

struct SanSynccheck {
    EmuDevice *dev;
    SanOut *out;
    int client;
    SanMap seen;                          /* (site, kind) reported */
    bool exited_lanes;                    /* report masks naming exited
                                             lanes (opt-in) */
};

void san_synccheck_set_exited_lanes(SanSynccheck *s, bool on)
{
    s->exited_lanes = on;
}

static bool opnd_val(const EmuWarp *w, const EmuOpnd *o, unsigned lane,
                     uint64_t *v)
{
    if (o->kind == EO_IMM) {
        *v = o->imm;
        return true;
    }
    if (o->kind == EO_REG && w->nframes) {
        *v = w->frames[w->nframes - 1].regs[(size_t)o->reg * EMU_WARP_SIZE +
                                            lane];
        return true;
    }
    return false;
}

/* One error; printed when it is the first of its site and kind.  detail:
 * one or more lines (the JSON record joins them with "; "). */
static void report_at(SanSynccheck *s, const uint32_t *tid,
                      const uint32_t ctaid[3], const EmuFunc *f,
                      uint32_t pc, Kind k, const char *detail);

static void report_text(SanSynccheck *s, const EmuCta *cta,
                        const EmuWarp *w, const EmuFunc *f, uint32_t pc,
                        unsigned lane, Kind k, const char *detail)
{
    uint32_t tid[3] = { w ? w->tid[0][lane] : 0, w ? w->tid[1][lane] : 0,
                        w ? w->tid[2][lane] : 0 };
    report_at(s, w ? tid : NULL, cta->ctaid, f, pc, k, detail);
}

/* tid: NULL for an error of the block */
static void report_at(SanSynccheck *s, const uint32_t *tid,
                      const uint32_t ctaid[3], const EmuFunc *f,
                      uint32_t pc, Kind k, const char *detail)
{
    uint64_t key = ((uint64_t)(uintptr_t)f * 31 + pc) * 8 + k;
    uint64_t *seen = san_map_get(&s->seen, key, true);
    if (seen && *seen) {
        san_out_add(s->out, 1);
        return;
    }
    if (seen) {
        *seen = 1;
    }
    if (!san_out_count(s->out)) {
        return;
    }
    SanLoc loc;
    san_loc_of(&loc, f, pc);
    static const uint32_t none[3];
    FILE *o = s->out->out;
    if (s->out->fmt != SAN_FMT_TEXT) {
        char one[1024];
        size_t n = 0;
        for (const char *p = detail; *p && n + 3 < sizeof(one); p++) {
            if (*p == '\n') {
                one[n++] = ';';
                one[n++] = ' ';
            } else {
                one[n++] = *p;
            }
        }
        one[n] = 0;
        fprintf(o, "{\"tool\":\"synccheck\",\"kind\":\"%s\",\"detail\":",
                kind_name[k]);
        san_json_str(o, one);
        fputc(',', o);
        san_json_loc(o, "at", &loc);
        fputc(',', o);
        san_json_dim3(o, "thread", tid ? tid : none);
        fputc(',', o);
        san_json_dim3(o, "block", ctaid);
        fputs("}\n", o);
        return;
    }
    fprintf(o, SAN_P "%s\n" SAN_P "    ", kind_head[k]);
    san_text_at(o, &loc);
    fputc('\n', o);
    if (tid) {
        fprintf(o, SAN_P "    by thread (%u,%u,%u) in block (%u,%u,%u)\n",
                tid[0], tid[1], tid[2], ctaid[0], ctaid[1], ctaid[2]);
    } else {
        fprintf(o, SAN_P "    in block (%u,%u,%u)\n", ctaid[0], ctaid[1],
                ctaid[2]);
    }
    for (const char *p = detail; *p;) {
        size_t len = strcspn(p, "\n");
        fprintf(o, SAN_P "    %.*s\n", (int)len, p);
        p += len + (p[len] == '\n');
    }
    fputs(SAN_BLANK, o);
}

static void report(SanSynccheck *s, const EmuCta *cta, const EmuWarp *w,
                   const EmuFunc *f, uint32_t pc, unsigned lane, Kind k,
                   const char *fmt_detail, uint64_t a, uint64_t b)
{
    char detail[160];
    snprintf(detail, sizeof(detail), fmt_detail, a, b);
    report_text(s, cta, w, f, pc, lane, k, detail);
}

static void cta_state_free(CtaState *c)
{
    free(c->arrivals);
    free(c->bar_site);
    free(c->ws_site);
    free(c->exit_site);
    free(c->ws_mask);
    free(c->exit_seen);
    free(c);
}

static CtaState *cta_state(SanSynccheck *s, const EmuCta *cta)
{
    void **slot = emu_client_cta_slot((EmuCta *)cta, s->client);
    if (!slot) {
        return NULL;
    }
    if (!*slot) {
        CtaState *c = calloc(1, sizeof(*c));
        size_t nw = cta->nwarps;
        if (!c) {
            return NULL;
        }
        c->arrivals = calloc(nw * EMU_MAX_BARRIERS, sizeof(uint32_t));
        c->bar_site = calloc(nw, sizeof(Site));
        c->ws_site = calloc(nw, sizeof(Site));
        c->exit_site = calloc(nw * EMU_WARP_SIZE, sizeof(Site));
        c->ws_mask = calloc(nw, sizeof(uint32_t));
        c->exit_seen = calloc(nw, sizeof(uint32_t));
        c->nwarps = cta->nwarps;
        if (!c->arrivals || !c->bar_site || !c->ws_site || !c->exit_site ||
            !c->ws_mask || !c->exit_seen) {
            cta_state_free(c);
            return NULL;
        }
        *slot = c;
    }
    return *slot;
}

/* The CTA barriers: whether op is one, where its id and count operands
 * are, whether it must be reached by whole warps, and whether it waits. */
static bool bar_layout(const EmuInsn *i, int *ia, int *ib, bool *aligned,
                       bool *waits)
{
    switch ((PtxOpcode)i->op) {
    case PTX_OP_BAR_SYNC: case PTX_OP_BAR_CTA_SYNC:
        *aligned = true; *waits = true; *ia = 0; *ib = 1; return true;
    case PTX_OP_BARRIER_SYNC: case PTX_OP_BARRIER_CTA_SYNC:
        *aligned = i->flags & EMU_F_ALIGNED; *waits = true;
        *ia = 0; *ib = 1; return true;
    case PTX_OP_BAR_ARRIVE: case PTX_OP_BAR_CTA_ARRIVE:
        *aligned = true; *waits = false; *ia = 0; *ib = 1; return true;
    case PTX_OP_BARRIER_ARRIVE: case PTX_OP_BARRIER_CTA_ARRIVE:
        *aligned = i->flags & EMU_F_ALIGNED; *waits = false;
        *ia = 0; *ib = 1; return true;
    case PTX_OP_BAR_RED: case PTX_OP_BAR_CTA_RED:
        *aligned = true; *waits = true; *ia = 1; *ib = i->nopnd > 3 ? 2 : -1;
        return true;
    case PTX_OP_BARRIER_RED: case PTX_OP_BARRIER_CTA_RED:
        *aligned = i->flags & EMU_F_ALIGNED; *waits = true;
        *ia = 1; *ib = i->nopnd > 3 ? 2 : -1; return true;
    default:
        return false;
    }
}

static bool is_warp_sync(PtxOpcode op)
{
    return op == PTX_OP_BAR_WARP_SYNC || op == PTX_OP_SHFL_SYNC ||
           op == PTX_OP_VOTE_SYNC || op == PTX_OP_MATCH_ANY_SYNC ||
           op == PTX_OP_MATCH_ALL_SYNC || op == PTX_OP_REDUX_SYNC ||
           op == PTX_OP_ELECT_SYNC;
}

static void check_barrier(SanSynccheck *s, const EmuCta *cta,
                          const EmuWarp *w, const EmuStepRecord *rec,
                          const EmuInsn *i, int ia, int ib, bool aligned,
                          bool waits)
{
    uint32_t live = w->valid & ~w->exited;
    uint32_t exec = rec->exec;
    if (!exec) {
        return;
    }
    unsigned lane = (unsigned)__builtin_ctz(exec);
    if (aligned && exec != live) {
        report(s, cta, w, rec->func, rec->pc, lane, K_DIVERGENT_WARP,
               "lanes 0x%08" PRIx64 " of the warp's live 0x%08" PRIx64
               " execute it", exec, live);
    }
    uint64_t id = 0, cnt = 0;
    if (ia < 0 || ia >= i->nopnd || !opnd_val(w, &i->o[ia], lane, &id)) {
        return;
    }
    id &= EMU_MAX_BARRIERS - 1;
    CtaState *c = cta_state(s, cta);
    if (!c) {
        return;
    }
    if (w->id < c->nwarps) {
        c->bar_site[w->id] = (Site){ rec->func, rec->pc };
    }
    bool counted = ib >= 0 && ib < i->nopnd && i->o[ib].kind != EO_NONE &&
                   opnd_val(w, &i->o[ib], lane, &cnt);
    if (counted) {
        cnt = (uint32_t)cnt;
        /* the release comes (EMU_EV_BARRIER) before the step is seen: a
         * waiting warp that goes on completed the round just ended */
        uint32_t other = waits && w->state != EMU_WARP_AT_BARRIER
                             ? c->prev[id] : c->count[id];
        if (other && other != cnt) {
            c->count_bad[id] = true;
            report(s, cta, w, rec->func, rec->pc, lane, K_COUNT,
                   "thread count %" PRIu64 " differs from the %" PRIu64
                   " another warp gave for this barrier", cnt, other);
        }
        if (!(waits && w->state != EMU_WARP_AT_BARRIER)) {
            c->count[id] = (uint32_t)cnt;
        }
    } else if (waits && w->id < c->nwarps) {
        c->arrivals[(size_t)w->id * EMU_MAX_BARRIERS + id]++;
        c->site_f[id] = rec->func;
        c->site_pc[id] = rec->pc;
    }
}

static void check_warp_sync(SanSynccheck *s, const EmuCta *cta,
                            const EmuWarp *w, const EmuStepRecord *rec,
                            const EmuInsn *i)
{
    if (!i->nopnd) {
        return;
    }
    const EmuOpnd *mo = &i->o[i->nopnd - 1];
    uint32_t exec = rec->exec;
    if (mo->kind == EO_IMM && !s->exited_lanes) {
        /* one mask for every lane (the usual 0xffffffff), and only the
         * lanes it leaves out are reported: the others need no look */
        exec &= ~(uint32_t)mo->imm;
    }
    for (uint32_t m = exec; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t v;
        if (!opnd_val(w, mo, l, &v)) {
            return;
        }
        uint32_t mask = (uint32_t)v;
        /* lanes the mask names that exited, or that do not execute the
         * instruction and exit later, are allowed ("all non-exited
         * threads named in mask must execute the same intrinsic": CUDA
         * C++ Programming Guide, "Warp Shuffle Functions"); which live
         * lanes will come is not known here */
        if (!(mask >> l & 1u)) {
            report(s, cta, w, rec->func, rec->pc, l, K_MASK_LANE,
                   "member mask 0x%08" PRIx64 " does not include the "
                   "executing lane %" PRIu64, mask, l);
        }
        /* allowed, but a sign of a mask computed for a full warp:
         * reported only when asked (san_synccheck_set_exited_lanes) */
        if (!s->exited_lanes) {
            continue;
        }
        uint32_t gone = mask & w->exited & w->valid;
        if (gone) {
            report(s, cta, w, rec->func, rec->pc, l, K_MASK_EXITED,
                   "member mask 0x%08" PRIx64 " names lane %u, which "
                   "exited", (uint64_t)mask,
                   (unsigned)__builtin_ctz(gone));
        }
    }
}

/* ---- what the deadlock report needs: exits and bar.warp.sync waits */

static void note_exit(SanSynccheck *s, const EmuCta *cta, const EmuWarp *w,
                      const EmuStepRecord *rec)
{
    CtaState *c = cta_state(s, cta);
    if (!c || w->id >= c->nwarps) {
        return;
    }
    uint32_t fresh = w->exited & ~c->exit_seen[w->id];
    c->exit_seen[w->id] |= fresh;
    for (uint32_t m = fresh; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        c->exit_site[(size_t)w->id * EMU_WARP_SIZE + l] =
            (Site){ rec->func, rec->pc };
    }
}

/* The member mask of the warp's last bar.warp.sync (that of its lowest
 * executing lane; a lane with another mask is what check_warp_sync
 * reports). */
static void note_warpsync(SanSynccheck *s, const EmuCta *cta,
                          const EmuWarp *w, const EmuStepRecord *rec,
                          const EmuInsn *i)
{
    uint64_t m;
    CtaState *c = cta_state(s, cta);
    if (!c || w->id >= c->nwarps || !rec->exec || !i->nopnd ||
        !opnd_val(w, &i->o[i->nopnd - 1],
                  (unsigned)__builtin_ctz(rec->exec), &m)) {
        return;
    }
    c->ws_site[w->id] = (Site){ rec->func, rec->pc };
    c->ws_mask[w->id] = (uint32_t)m;
}

/* ---- the deadlock report: who waits where, who never arrives */

/* A report's detail lines, written to memory. */
typedef struct Text {
    char *buf;
    size_t len;
    FILE *o;
} Text;

static bool text_open(Text *t)
{
    t->buf = NULL;
    t->len = 0;
    t->o = open_memstream(&t->buf, &t->len);
    return t->o != NULL;
}

/* Close t and make its text the detail of one error. */
static void text_report(SanSynccheck *s, const EmuCta *cta,
                        const EmuWarp *w, const Site *at, unsigned lane,
                        Kind k, Text *t)
{
    fclose(t->o);
    report_text(s, cta, w, at->f, at->pc, lane, k, t->buf ? t->buf : "");
    free(t->buf);
}

static void put_loc(FILE *o, const EmuFunc *f, uint32_t pc)
{
    SanLoc loc;
    san_loc_of(&loc, f, pc);
    san_text_at(o, &loc);
}

static void put_threads(FILE *o, const EmuWarp *w, uint32_t lanes)
{
    unsigned a = (unsigned)__builtin_ctz(lanes);
    unsigned b = 31u - (unsigned)__builtin_clz(lanes);
    fprintf(o, "threads (%u,%u,%u) to (%u,%u,%u)", w->tid[0][a],
            w->tid[1][a], w->tid[2][a], w->tid[0][b], w->tid[1][b],
            w->tid[2][b]);
}

/* Where lanes of w's current frame are: the deepest SIMT entry holding
 * some of them (its next pc). */
static uint32_t lanes_pc(const EmuWarp *w, uint32_t lanes)
{
    for (uint32_t d = w->depth; d-- > 0;) {
        if (w->stack[d].mask & lanes) {
            return w->stack[d].npc;
        }
    }
    return UINT32_MAX;
}

/* What warp wi, which does not wait at barrier id, is doing instead. */
static void warp_instead(FILE *o, const CtaState *c, const EmuWarp *w,
                         unsigned id)
{
    const EmuFunc *f = w->nframes ? w->frames[w->nframes - 1].func : NULL;
    if (w->state == EMU_WARP_EXITED) {
        uint32_t l = (uint32_t)__builtin_ctz(w->valid | (1u << 31));
        const Site *x = &c->exit_site[(size_t)w->id * EMU_WARP_SIZE + l];
        fputs("exited ", o);
        put_loc(o, x->f, x->pc);
    } else if (w->state == EMU_WARP_AT_BARRIER &&
               w->barrier_id < EMU_MAX_BARRIERS && w->barrier_id != id) {
        fprintf(o, "wait for barrier %u ", w->barrier_id);
        put_loc(o, c->bar_site[w->id].f, c->bar_site[w->id].pc);
    } else {
        fputs("still running, now ", o);
        put_loc(o, f, lanes_pc(w, w->valid & ~w->exited));
    }
}

/* Barrier id of the deadlocked CTA has waiting warps: one error naming
 * them and every warp that does not arrive, consecutive warps alike
 * merged into one line. */
static void stuck_barrier(SanSynccheck *s, const EmuCta *cta,
                          const CtaState *c, unsigned id)
{
    uint32_t first = UINT32_MAX, nwait = 0, live = 0;
    for (uint32_t wi = 0; wi < cta->nwarps; wi++) {
        const EmuWarp *w = &cta->warps[wi];
        live += (uint32_t)__builtin_popcount(w->valid & ~w->exited);
        if (w->state == EMU_WARP_AT_BARRIER && w->barrier_id == id) {
            nwait += (uint32_t)__builtin_popcount(w->valid & ~w->exited);
            first = first == UINT32_MAX ? wi : first;
        }
    }
    if (first == UINT32_MAX || first >= c->nwarps || c->count_bad[id]) {
        return;
    }
    Text t;
    if (!text_open(&t)) {
        return;
    }
    FILE *o = t.o;
    if (c->count[id]) {
        fprintf(o, "barrier %u waits for %u threads; %u wait here", id,
                c->count[id], nwait);
    } else {
        fprintf(o, "barrier %u waits for all %u threads of the block that "
                "have not exited; %u wait here", id, live, nwait);
    }
    /* groups of consecutive warps [g0, g1] alike */
    char *prev = NULL;
    uint32_t g0 = 0, g1 = 0, lines = 0, more = 0;
    for (uint32_t wi = 0; wi <= cta->nwarps; wi++) {
        char *d = NULL;
        const EmuWarp *w = wi < cta->nwarps ? &cta->warps[wi] : NULL;
        Text wt;
        if (w && !(w->state == EMU_WARP_AT_BARRIER &&
                   w->barrier_id == id) && wi < c->nwarps &&
            text_open(&wt)) {
            warp_instead(wt.o, c, w, id);
            fclose(wt.o);
            d = wt.buf;
        }
        if (prev && (!d || strcmp(d, prev) || wi != g1 + 1)) {
            if (lines < 8) {
                const EmuWarp *a = &cta->warps[g0], *b = &cta->warps[g1];
                unsigned la = (unsigned)__builtin_ctz(a->valid);
                unsigned lb = 31u - (unsigned)__builtin_clz(b->valid);
                if (g0 == g1) {
                    fprintf(o, "\nnever arrive: warp %u, ", g0);
                    put_threads(o, a, a->valid);
                } else {
                    fprintf(o, "\nnever arrive: warps %u to %u, threads "
                            "(%u,%u,%u) to (%u,%u,%u)", g0, g1,
                            a->tid[0][la], a->tid[1][la], a->tid[2][la],
                            b->tid[0][lb], b->tid[1][lb], b->tid[2][lb]);
                }
                fprintf(o, ": %s", prev);
                lines++;
            } else {
                more += g1 - g0 + 1;
            }
            free(prev);
            prev = NULL;
        }
        if (d && !prev) {
            prev = d;
            g0 = g1 = wi;
        } else if (d) {
            g1 = wi;
            free(d);
        }
    }
    if (more) {
        fprintf(o, "\nand %u more warps that never arrive", more);
    }
    if (!lines && c->count[id] > live) {
        fprintf(o, "\nno other thread can arrive: the block has %u that "
                "have not exited", live);
    }
    text_report(s, cta, NULL, &c->bar_site[first], 0, K_NEVER_BAR, &t);
}

/* Lanes of warp w that executed a bar.warp.sync (under independent
 * thread scheduling, emu/its.h) whose other members never come. */
static void stuck_warpsync(SanSynccheck *s, const EmuCta *cta,
                           const CtaState *c, const EmuWarp *w)
{
    /* the arrived lanes may have gone on (and exited): a path waiting
     * past a bar.warp.sync runs again when the one it waits for yields
     * (emu/its.h); on a GPU they would wait */
    uint32_t waiting = w->ws_arrived;
    if (!waiting || w->id >= c->nwarps || !c->ws_site[w->id].f) {
        return;
    }
    uint32_t mask = c->ws_mask[w->id];
    uint32_t missing = mask & ~w->ws_arrived & ~w->exited & w->valid;
    if (!missing) {
        return;
    }
    Text t;
    if (!text_open(&t)) {
        return;
    }
    FILE *o = t.o;
    fprintf(o, "member mask 0x%08x; lanes 0x%08x arrived", mask, waiting);
    const EmuFunc *f = w->nframes ? w->frames[w->nframes - 1].func : NULL;
    for (uint32_t d = w->depth, left = missing; left && d-- > 0;) {
        uint32_t l = w->stack[d].mask & left;
        if (!l) {
            continue;
        }
        left &= ~l;
        fprintf(o, "\nnever arrive: lanes 0x%08x, ", l);
        put_threads(o, w, l);
        fputs(": still running, now ", o);
        put_loc(o, f, w->stack[d].npc);
    }
    text_report(s, cta, w, &c->ws_site[w->id],
                (unsigned)__builtin_ctz(waiting), K_NEVER_WARP, &t);
}

/* Lanes `waiting` of warp w execute the .sync warp operation at pc of
 * the current frame (shfl, vote, match, redux, bar.warp.sync: under
 * independent thread scheduling each waits "until all non-exited
 * threads corresponding to membermask have executed" it, PTX ISA,
 * "shfl.sync") for `members`, some of which never come: one error
 * saying where each path holding missing lanes is (running, or waiting
 * at another instruction). */
static void stuck_sync(SanSynccheck *s, const EmuCta *cta, const CtaState *c,
                       const EmuWarp *w, uint32_t waiting, uint32_t members,
                       uint32_t pc)
{
    const EmuFunc *f = w->nframes ? w->frames[w->nframes - 1].func : NULL;
    uint32_t missing = members & ~waiting & ~w->exited & w->valid;
    Text t;
    if (!f || pc >= f->ncode || !waiting || !missing || w->id >= c->nwarps ||
        !text_open(&t)) {
        return;
    }
    FILE *o = t.o;
    fprintf(o, "%s member mask 0x%08x; lanes 0x%08x wait here",
            ptx_opinfo((PtxOpcode)f->code[pc].op)->name, members, waiting);
    for (uint32_t d = w->depth, left = missing; left && d-- > 0;) {
        const EmuSimtEntry *e = &w->stack[d];
        uint32_t l = e->mask & left;
        if (!l) {
            continue;
        }
        left &= ~l;
        fprintf(o, "\nnever arrive: lanes 0x%08x, ", l);
        put_threads(o, w, l);
        if (d == w->depth - 1 && !(e->mask & w->its_parked)) {
            fputs(": still running, now ", o);
        } else if (e->npc < f->ncode &&
                   is_warp_sync((PtxOpcode)f->code[e->npc].op)) {
            fprintf(o, ": wait at %s ",
                    ptx_opinfo((PtxOpcode)f->code[e->npc].op)->name);
        } else {
            fputs(": wait ", o);
        }
        put_loc(o, f, e->npc);
    }
    Site at = { f, pc };
    text_report(s, cta, w, &at, (unsigned)__builtin_ctz(waiting),
                K_NEVER_WARP, &t);
}

/* The paths of w parked at a .sync warp operation (emu/its.h) when the
 * launch deadlocked: each waits for members that never come. */
static void stuck_parked(SanSynccheck *s, const EmuCta *cta,
                         const CtaState *c, const EmuWarp *w)
{
    const EmuFunc *f = w->nframes ? w->frames[w->nframes - 1].func : NULL;
    for (uint32_t d = 0; f && w->its_parked && d < w->depth; d++) {
        const EmuSimtEntry *e = &w->stack[d];
        uint64_t m;
        if (!e->mask || (e->mask & w->its_parked) != e->mask ||
            e->npc >= f->ncode || !f->code[e->npc].nopnd ||
            !opnd_val(w, &f->code[e->npc].o[f->code[e->npc].nopnd - 1],
                      (unsigned)__builtin_ctz(e->mask), &m)) {
            continue;
        }
        stuck_sync(s, cta, c, w, e->mask, (uint32_t)m, e->npc);
    }
}

/* e: EMU_EV_DEADLOCK; with a warp, one .sync operation of it (emu/its.h)
 * whose members cannot arrive, else the whole launch is stuck. */
static void deadlock(SanSynccheck *s, const EmuEvent *e, CtaState *c)
{
    const EmuCta *cta = e->cta;
    if (e->warp) {
        stuck_sync(s, cta, c, e->warp, (uint32_t)e->addr, (uint32_t)e->size,
                   e->id);
        return;
    }
    c->deadlocked = true;
    for (unsigned id = 0; id < EMU_MAX_BARRIERS; id++) {
        stuck_barrier(s, cta, c, id);
    }
    for (uint32_t wi = 0; wi < cta->nwarps; wi++) {
        stuck_warpsync(s, cta, c, &cta->warps[wi]);
        stuck_parked(s, cta, c, &cta->warps[wi]);
    }
}

static void on_step(void *ctx, const EmuCta *cta, const EmuWarp *w,
                    const EmuStepRecord *rec)
{
    SanSynccheck *s = ctx;
    if (!rec->func || rec->pc >= rec->func->ncode) {
        return;
    }
    const EmuInsn *i = &rec->func->code[rec->pc];
    int ia, ib;
    bool aligned, waits;
    if (bar_layout(i, &ia, &ib, &aligned, &waits)) {
        check_barrier(s, cta, w, rec, i, ia, ib, aligned, waits);
    } else if (is_warp_sync((PtxOpcode)i->op)) {
        check_warp_sync(s, cta, w, rec, i);
        if (i->op == PTX_OP_BAR_WARP_SYNC) {
            note_warpsync(s, cta, w, rec, i);
        }
    } else if (i->op == PTX_OP_EXIT || i->op == PTX_OP_RET) {
        note_exit(s, cta, w, rec);
    }
}

/* At the end of a CTA: barriers without a count that some warps
 * reached fewer times than others. */
static void cta_done(SanSynccheck *s, const EmuCta *cta, CtaState *c)
{
    for (unsigned id = 0; id < EMU_MAX_BARRIERS; id++) {
        uint32_t lo = UINT32_MAX, hi = 0;
        for (uint32_t w = 0; w < c->nwarps; w++) {
            uint32_t n = c->arrivals[(size_t)w * EMU_MAX_BARRIERS + id];
            lo = n < lo ? n : lo;
            hi = n > hi ? n : hi;
        }
        if (hi > lo) {
            report(s, cta, NULL, c->site_f[id], c->site_pc[id], 0, K_BLOCK,
                   "some warps reached barrier %" PRIu64 " %" PRIu64
                   " times, others fewer (a warp exited first)", id, hi);
        }
    }
}

static void on_event(void *ctx, const EmuEvent *e)
{
    SanSynccheck *s = ctx;
    void **slot = e->cta ? emu_client_cta_slot(e->cta, s->client) : NULL;
    CtaState *c = slot ? *slot : NULL;
    if (!c && e->kind == EMU_EV_DEADLOCK && e->cta) {
        c = cta_state(s, e->cta);     /* none yet: no barrier ran */
    }
    if (!c) {
        return;
    }
    if (e->kind == EMU_EV_DEADLOCK) {
        deadlock(s, e, c);
    } else if (e->kind == EMU_EV_BARRIER && e->id < EMU_MAX_BARRIERS) {
        c->prev[e->id] = c->count[e->id]; /* the round is over */
        c->count[e->id] = 0;
    } else if (e->kind == EMU_EV_CTA_DONE) {
        if (!c->deadlocked) {
            cta_done(s, e->cta, c);
        }
        cta_state_free(c);
        *slot = NULL;
    }
}

void san_synccheck_fault(SanSynccheck *s, const EmuFault *f,
                         const EmuModule *mod)
{
    const EmuFunc *fn = san_func_named(mod, f->func ? f->func : f->kernel);
    if (!fn || f->pc >= fn->ncode ||
        f->status != EMU_ERR_ILLEGAL_INSTRUCTION) {
        return;
    }
    PtxOpcode op = (PtxOpcode)fn->code[f->pc].op;
    if ((op < PTX_OP_MBARRIER_INIT || op > PTX_OP_MBARRIER_PENDING_COUNT) &&
        op != PTX_OP_CP_ASYNC_MBARRIER_ARRIVE) {
        return;
    }
    /* the emulator's words for the misuse, without its PTX ISA note */
    char detail[sizeof(f->detail)];
    snprintf(detail, sizeof(detail), "%s", f->detail);
    char *note = strstr(detail, " (PTX ISA");
    if (note) {
        *note = 0;
    }
    report_at(s, f->tid, f->ctaid, fn, f->pc, K_MBARRIER, detail);
}

SanSynccheck *san_synccheck_new(EmuDevice *d, SanOut *out)
{
    SanSynccheck *s = calloc(1, sizeof(*s));
    if (!s) {
        return NULL;
    }
    s->dev = d;
    s->out = out;
    EmuClient cl = {
        .abi_version = EMU_CLIENT_ABI, .struct_size = sizeof(cl),
        .name = "synccheck", .ctx = s, .on_step = on_step,
        .on_event = on_event, .want_steps = true,
        .events = 1u << EMU_EV_BARRIER | 1u << EMU_EV_CTA_DONE |
                  1u << EMU_EV_DEADLOCK,
    };
    char why[128];
    s->client = emu_client_attach(d, &cl, why, sizeof(why));
    if (s->client < 0) {
        free(s);
        return NULL;
    }
    return s;
}

void san_synccheck_free(SanSynccheck *s)
{
    if (!s) {
        return;
    }
    emu_client_detach(s->dev, s->client);
    san_map_free(&s->seen);
    free(s);
}
