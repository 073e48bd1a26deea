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

typedef enum Kind {
    K_DIVERGENT_WARP,
    K_COUNT,
    K_BLOCK,
    K_MASK_LANE,
} Kind;

static const char *const kind_name[] = {
    "divergent-warp", "barrier-count", "divergent-block",
    "mask-excludes-lane",
};

typedef struct CtaState {
    uint32_t count[EMU_MAX_BARRIERS];     /* this round's thread count, or
                                             0: none given yet */
    uint32_t prev[EMU_MAX_BARRIERS];      /* the last round's */
    uint32_t *arrivals;                   /* [warp][id]: waits without a
                                             count */
    const EmuFunc *site_f[EMU_MAX_BARRIERS];
    uint32_t site_pc[EMU_MAX_BARRIERS];   /* the last such wait */
    uint32_t nwarps;
} CtaState;

struct SanSynccheck {
    EmuDevice *dev;
    SanOut *out;
    int client;
    SanMap seen;                          /* (site, kind) reported */
};

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

/* One error; printed when it is the first of its site and kind. */
static void report(SanSynccheck *s, const EmuCta *cta, const EmuWarp *w,
                   const EmuFunc *f, uint32_t pc, unsigned lane, Kind k,
                   const char *fmt_detail, uint64_t a, uint64_t b)
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
    uint32_t tid[3] = { w ? w->tid[0][lane] : 0, w ? w->tid[1][lane] : 0,
                        w ? w->tid[2][lane] : 0 };
    char detail[160];
    snprintf(detail, sizeof(detail), fmt_detail, a, b);
    FILE *o = s->out->out;
    if (s->out->fmt != SAN_FMT_TEXT) {
        fprintf(o, "{\"tool\":\"synccheck\",\"kind\":\"%s\",\"detail\":",
                kind_name[k]);
        san_json_str(o, detail);
        fputc(',', o);
        san_json_loc(o, "at", &loc);
        fputc(',', o);
        san_json_dim3(o, "thread", tid);
        fputc(',', o);
        san_json_dim3(o, "block", cta->ctaid);
        fputs("}\n", o);
        return;
    }
    const char *head = k == K_DIVERGENT_WARP
                           ? "Barrier error detected. Divergent thread(s) "
                             "in warp"
                       : k == K_BLOCK
                           ? "Barrier error detected. Divergent thread(s) "
                             "in block"
                       : k == K_COUNT
                           ? "Barrier error detected. Invalid arguments"
                           : "Warp synchronization error detected. Invalid "
                             "member mask";
    fprintf(o, SAN_P "%s\n" SAN_P "    ", head);
    san_text_at(o, &loc);
    fputc('\n', o);
    if (w) {
        fprintf(o, SAN_P "    by thread (%u,%u,%u) in block (%u,%u,%u)\n",
                tid[0], tid[1], tid[2], cta->ctaid[0], cta->ctaid[1],
                cta->ctaid[2]);
    } else {
        fprintf(o, SAN_P "    in block (%u,%u,%u)\n", cta->ctaid[0],
                cta->ctaid[1], cta->ctaid[2]);
    }
    fprintf(o, SAN_P "    %s\n" SAN_BLANK, detail);
}

static CtaState *cta_state(SanSynccheck *s, const EmuCta *cta)
{
    void **slot = emu_client_cta_slot((EmuCta *)cta, s->client);
    if (!slot) {
        return NULL;
    }
    if (!*slot) {
        CtaState *c = calloc(1, sizeof(*c));
        if (!c || !(c->arrivals = calloc((size_t)cta->nwarps *
                                         EMU_MAX_BARRIERS,
                                         sizeof(uint32_t)))) {
            free(c);
            return NULL;
        }
        c->nwarps = cta->nwarps;
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
    bool counted = ib >= 0 && ib < i->nopnd && i->o[ib].kind != EO_NONE &&
                   opnd_val(w, &i->o[ib], lane, &cnt);
    if (counted) {
        cnt = (uint32_t)cnt;
        /* the release comes (EMU_EV_BARRIER) before the step is seen: a
         * waiting warp that goes on completed the round just ended */
        uint32_t other = waits && w->state != EMU_WARP_AT_BARRIER
                             ? c->prev[id] : c->count[id];
        if (other && other != cnt) {
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
    if (!c) {
        return;
    }
    if (e->kind == EMU_EV_BARRIER && e->id < EMU_MAX_BARRIERS) {
        c->prev[e->id] = c->count[e->id]; /* the round is over */
        c->count[e->id] = 0;
    } else if (e->kind == EMU_EV_CTA_DONE) {
        cta_done(s, e->cta, c);
        free(c->arrivals);
        free(c);
        *slot = NULL;
    }
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
        .events = 1u << EMU_EV_BARRIER | 1u << EMU_EV_CTA_DONE,
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
