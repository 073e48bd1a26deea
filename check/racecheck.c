/*
 * check/racecheck.c: the race checker (see racecheck.h).
 *
 * A happens-before check with one logical clock per launch.  Each byte
 * of shared memory (per CTA) and of global memory (per launch, in pages
 * made on first touch) has a shadow cell: its last write and up to two
 * reads, each as (thread, location, clock), and what its last strong
 * write published (the writer's last fence clocks).  The clock advances
 * at each barrier release, bar.warp.sync and fence.  Each warp keeps the
 * barriers it waited at (with the warps that arrived), each thread its
 * last two fences and the latest release it acquired, each CTA its
 * fences, its whole-CTA barriers and the most any of its threads
 * acquired: what decides whether an earlier access is ordered before the
 * current one (ordered()).  The report layout follows compute-sanitizer's
 * racecheck (NVIDIA, "Compute Sanitizer User Manual", "Racecheck Tool":
 * "Potential RAW hazard detected at __shared__ 0x... in block (...)",
 * one line per access, and the "analysis" report "Race reported between
 * Write access at ... and Read access at ...").
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "check/map.h"
#include "check/racecheck.h"
#include "emu/access.h"
#include "emu/client.h"

#define STRONG 0x80000000u        /* Slot.who: a strong access */
#define ATOMIC 0x40000000u        /* Slot.who: a read-modify-write */
#define WHO (ATOMIC - 1)          /* Slot.who: the thread's bits */
#define NRING 8                   /* fences remembered per CTA */
#define PAGE_BITS 10              /* global shadow page: 1 KiB */
#define PAGE (1u << PAGE_BITS)
#define MAX_PAGES 4096u           /* per launch (about 200 MB of shadow) */
#define CLOCK_MAX 0xFFFFFF00u
#define MAX_TSYNC (1u << 24)      /* threads of a launch with their own
                                     acquire clock (64 MB at most) */

typedef struct Slot {
    uint32_t who;                 /* global thread index + 1 | STRONG;
                                     0: none */
    uint32_t site;                /* SanRacecheck.sites index */
    uint32_t time;                /* launch clock at the access */
    uint32_t peers;               /* the warp's lanes on the path that
                                     made it (intra-warp races) */
} Slot;

typedef struct Cell {
    Slot w, r1, r2;
    /* What the last strong write (w, when STRONG) published: its
     * thread's last fence then, of any scope and of .gpu/.sys scope; a
     * read-modify-write adds to it (a release sequence) */
    uint32_t rel, relg;
    uint8_t wval;                 /* the byte w wrote */
} Cell;

typedef struct Ring {
    uint32_t t[NRING];
    uint32_t n;
} Ring;

typedef struct CtaSync {
    uint32_t acq;                 /* the most any thread of it acquired */
    uint32_t full;                /* clock of its last barrier release at
                                     which every warp arrived and waited
                                     (__syncthreads(), no warp exited):
                                     the fast path of ordered() */
    Ring bars;                    /* its barrier releases that every live
                                     warp arrived at */
    Ring any, gpu;                /* its fences; those of .gpu/.sys scope */
} CtaSync;

/* A thread's last two fences (last first): of any scope, of .gpu/.sys
 * scope (a .release/.acq_rel/.sc operation's fence included). */
typedef struct Rel {
    uint32_t any[2], gpu[2];
    uint32_t ws;                  /* the members of the last bar.warp.sync
                                     it took part in */
} Rel;

/* A warp's bar.warp.sync releases: clock and member mask. */
typedef struct WarpRing {
    uint32_t t[NRING], m[NRING];
    uint32_t n;
} WarpRing;

typedef struct Launch {
    uint32_t nthreads;            /* per CTA, rounded up to whole warps:
                                     a thread's index (Slot.who) is then
                                     its warp's times 32 plus its lane,
                                     and same_warp a shift */
    bool on, global_on;
    bool its;                     /* independent thread scheduling: lanes
                                     of one warp may race */
    uint32_t clock;
    CtaSync *cs;                  /* per linear CTA */
    uint32_t *tsync;              /* per thread of the launch (tsync_index)
                                     the latest release it acquired: the
                                     largest fence clock published by a
                                     strong write that it read strongly;
                                     NULL for a launch of over MAX_TSYNC
                                     threads (then the CTA's stands for
                                     all) */
    Rel *rel;                     /* per thread likewise, its fences; NULL:
                                     the CTA's stand for all */
    SanMap pages;                 /* addr >> PAGE_BITS -> Cell[PAGE] */
    uint64_t last_pn;
    Cell *last_page;
} Launch;

typedef struct Shared {           /* a CTA's shadow: shared memory, */
    Cell *c;
    uint32_t n;
    WarpRing *ws;                 /* and per warp its bar.warp.syncs */
    uint32_t nws;
    WarpRing *bars;               /* per warp, the CTA barriers it waited
                                     at (clock, the warps that arrived) */
    uint32_t *cov;                /* per warp, the acquires barriers passed
                                     on to it */
    uint32_t nbw;
    Cell *resv;                   /* the reserved shared memory (system
                                     software's: a cooperative-groups
                                     tile's barrier word), for the
                                     releases and acquires of its strong
                                     accesses only */
} Shared;

typedef struct Site {
    const EmuFunc *f;
    uint32_t pc;
} Site;

typedef enum Hazard { HZ_RAW, HZ_WAR, HZ_WAW } Hazard;
static const char *const hz_name[] = { "RAW", "WAR", "WAW" };

typedef struct Pair {             /* a reported (kind, site, site) */
    uint8_t kind, space;
    bool first_write, second_write;
    uint32_t s1, s2;
    uint64_t count;
} Pair;

struct SanRacecheck {
    EmuDevice *dev;
    SanOut *out;
    bool analysis;
    int client;
    Site *sites;
    size_t nsites, capsites;
    SanMap funcs;                 /* EmuFunc* -> its first site index */
    Pair *pairs;
    size_t npairs, cappairs;
    SanMap pairmap;               /* kind/space/sites -> pairs index + 1 */
    uint64_t hazards;             /* found so far (every report() call) */
};

/* ------------------------------------------------------------ sites */

static uint32_t site_of(SanRacecheck *r, const EmuFunc *f, uint32_t pc)
{
    uint64_t *base = san_map_get(&r->funcs, (uint64_t)(uintptr_t)f, false);
    if (!base) {
        size_t need = r->nsites + f->ncode;
        if (need > r->capsites) {
            size_t nc = r->capsites ? r->capsites : 256;
            while (nc < need) {
                nc *= 2;
            }
            Site *p = realloc(r->sites, nc * sizeof(*p));
            if (!p) {
                return 0;
            }
            r->sites = p;
            r->capsites = nc;
        }
        if (!(base = san_map_get(&r->funcs, (uint64_t)(uintptr_t)f, true))) {
            return 0;
        }
        *base = r->nsites;
        for (uint32_t k = 0; k < f->ncode; k++) {
            r->sites[r->nsites++] = (Site){ f, k };
        }
    }
    return (uint32_t)*base + pc;
}

/* ------------------------------------------------------------ order */

static void ring_push(Ring *g, uint32_t t)
{
    g->t[g->n % NRING] = t;
    g->n++;
}

/* The clock of the first fence in g after t; UINT32_MAX: none; 0: one
 * that the ring no longer holds may be it. */
static uint32_t first_after(const Ring *g, uint32_t t)
{
    uint32_t k = g->n < NRING ? g->n : NRING, best = UINT32_MAX;
    uint32_t oldest = UINT32_MAX;
    for (uint32_t i = 0; i < k; i++) {
        if (g->t[i] > t && g->t[i] < best) {
            best = g->t[i];
        }
        if (g->t[i] < oldest) {
            oldest = g->t[i];
        }
    }
    if (g->n > NRING && best == oldest) {
        return 0;
    }
    return best;
}

static bool same_warp(uint32_t a, uint32_t b)
{
    return ((a & WHO) - 1) / EMU_WARP_SIZE == ((b & WHO) - 1) / EMU_WARP_SIZE;
}

/* Where thread `t` (of the launch) keeps its acquire and release
 * clocks: its own slot under independent thread scheduling, else its
 * warp's (the lanes run warp-synchronously: one lane's fence or acquire
 * is the warp's). */
static uint32_t tsync_index(const Launch *L, uint32_t t)
{
    return L->its ? t : t - t % EMU_WARP_SIZE;
}

/* Whether a bar.warp.sync naming both lanes of `pair` (or a CTA barrier
 * that warp `pair` arrived at) was released after clock t (a ring that
 * lost entries after t may have held it: yes, never a false report). */
static bool warpsync_after(const WarpRing *g, uint32_t t, uint32_t pair)
{
    uint32_t k = g->n < NRING ? g->n : NRING;
    bool all_after = g->n > NRING;
    for (uint32_t i = 0; i < k; i++) {
        if (g->t[i] > t && (g->m[i] & pair) == pair) {
            return true;
        }
        all_after &= g->t[i] > t;
    }
    return all_after;
}

/* The clock of the current thread's last acquire: the latest release it
 * read (its own, or its warp's, see tsync_index; or one of a member of a
 * bar.warp.sync since, which passes it on to the others), or one that a
 * CTA barrier it waited at has since passed on to it (barriers are
 * cumulative: PTX ISA, "Memory Consistency Model", bar.sync is morally
 * strong and orders as a release and an acquire of the threads taking
 * part; the CTA's most, an over-estimate).  Without per-thread clocks,
 * the CTA's. */
static uint32_t acquired(const Launch *L, const Shared *sh, const Slot *cur,
                         uint32_t cta)
{
    const CtaSync *c = &L->cs[cta];
    if (!L->tsync) {
        return c->acq;
    }
    uint32_t b = (cur->who & WHO) - 1;
    uint32_t t = L->tsync[tsync_index(L, b)];
    uint32_t w = b % L->nthreads / EMU_WARP_SIZE;
    uint32_t cv = sh && sh->cov && w < sh->nbw ? sh->cov[w] : 0;
    return t > cv ? t : cv;
}

/* The first of a thread's last two fences f (last first) after t:
 * UINT32_MAX: none; 0: one before those two may be it. */
static uint32_t own_first_after(const uint32_t f[2], uint32_t t)
{
    if (f[0] <= t) {
        return UINT32_MAX;
    }
    return f[1] <= t ? f[0] : 0;
}

/* The clock of the fence that releases the access in s (PTX ISA,
 * "Memory Consistency Model", release patterns: a fence, or a
 * .release operation, after it in its thread's program order; and, as
 * bar.sync is cumulative, a fence of any thread of its CTA after a
 * barrier of the whole CTA after it), of any scope for a reader of its
 * CTA x (`same`), else of .gpu or .sys scope.  UINT32_MAX: none; 0:
 * one the rings lost may be it. */
static uint32_t released_at(const Launch *L, const Slot *s, uint32_t x,
                            bool same)
{
    const CtaSync *c = &L->cs[x];
    const Ring *fences = same ? &c->any : &c->gpu;
    uint32_t best;
    if (L->rel) {
        const Rel *r = &L->rel[tsync_index(L, (s->who & WHO) - 1)];
        best = own_first_after(same ? r->any : r->gpu, s->time);
    } else {
        best = first_after(fences, s->time);
    }
    uint32_t b = first_after(&c->bars, s->time);
    if (b != UINT32_MAX && best) {
        uint32_t f = first_after(fences, b ? b : s->time);
        best = f < best ? f : best;
    }
    return best;
}

/* Whether the access in s happens before the current one, cur, by CTA
 * cta (sh: its shadow): a CTA barrier between them that the first's
 * warp arrived at and the current's waited at (same CTA; a named
 * barrier orders only the warps taking part), or a release of the first
 * (released_at) that the current thread has acquired: read, with a
 * strong access, from a location that a strong write published at or
 * after that release (the synchronizes-with of the release and acquire
 * patterns, matched by address; which thread published it is not
 * kept, so some races are missed). */
static bool ordered(const Launch *L, const Shared *sh, const Slot *s,
                    const Slot *cur, uint32_t cta)
{
    /* every ordering needs a barrier or a fence after s: a clock tick */
    if (s->time == L->clock) {
        return false;
    }
    uint32_t a = (s->who & WHO) - 1;
    if (L->cs[cta].full > s->time && a - cta * L->nthreads < L->nthreads) {
        return true;                  /* a __syncthreads() since: the CTA */
    }
    uint32_t x = a / L->nthreads;
    if (x == cta && sh && sh->bars) {
        uint32_t wa = a % L->nthreads / EMU_WARP_SIZE;
        uint32_t wb = ((cur->who & WHO) - 1) % L->nthreads / EMU_WARP_SIZE;
        if (wb < sh->nbw &&
            warpsync_after(&sh->bars[wb], s->time, 1u << (wa & 31))) {
            return true;
        }
    }
    uint32_t f = released_at(L, s, x, x == cta);
    return f != UINT32_MAX && acquired(L, sh, cur, cta) >= f;
}

/* Two accesses by threads of one warp: whether they are ordered within
 * the warp.  Without independent thread scheduling the warp's lanes run
 * in lock step (warp-synchronous code), so always.  With it (sm_70 on:
 * CUDA C++ Programming Guide, "Independent Thread Scheduling": code that
 * assumed warp-synchronicity needs __syncwarp()) only the same thread,
 * two lanes that were on one path at both accesses (in lock step, also
 * one instruction's lanes), or a bar.warp.sync (__syncwarp) naming both
 * lanes released between the accesses. */
static bool warp_ordered(const Launch *L, const Shared *sh, const Slot *s,
                         const Slot *cur)
{
    uint32_t a = (s->who & WHO) - 1, b = (cur->who & WHO) - 1;
    if (!L->its || a == b) {
        return true;
    }
    uint32_t la = a % EMU_WARP_SIZE;
    uint32_t lb = b % EMU_WARP_SIZE;
    if ((s->peers >> lb & 1u) && (cur->peers >> la & 1u)) {
        return true;
    }
    uint32_t w = a % L->nthreads / EMU_WARP_SIZE;
    return sh && w < sh->nws &&
           warpsync_after(&sh->ws[w], s->time, 1u << la | 1u << lb);
}

/* write: whether the access in s wrote (the current one's direction is
 * the other's in RAW and WAR).  sh: the current CTA's shadow. */
static bool conflict(const Launch *L, const Shared *sh, const Slot *s,
                     bool s_write, const Slot *cur, bool cur_write,
                     uint32_t cta)
{
    if (!s->who || (s->who & cur->who & STRONG)) {
        return false;
    }
    /* a plain read against an atomic: the CAS loop of the CUDA C++
     * Programming Guide (section "Atomic Functions") reads the word
     * plainly for its first guess, which the CAS then checks */
    if (((s->who & ATOMIC) && !cur_write) ||
        ((cur->who & ATOMIC) && !s_write)) {
        return false;
    }
    if (same_warp(s->who, cur->who) && warp_ordered(L, sh, s, cur)) {
        return false;
    }
    return !ordered(L, sh, s, cur, cta);
}

/* ------------------------------------------------------------ reports */

static void print_thread(SanRacecheck *r, const EmuLaunch *l, bool write,
                         uint32_t who, uint32_t site, bool block)
{
    const Launch *L = *emu_client_launch_slot((EmuLaunch *)l, r->client);
    uint32_t t = (who & WHO) - 1, tid[3], ctaid[3];
    san_tid_of(l, t % L->nthreads, tid);
    san_ctaid_of(l, t / L->nthreads, ctaid);
    SanLoc loc;
    san_loc_of(&loc, r->sites[site].f, r->sites[site].pc);
    FILE *o = r->out->out;
    if (r->out->fmt != SAN_FMT_TEXT) {
        fprintf(o, "{\"access\":\"%s\",", write ? "write" : "read");
        san_json_dim3(o, "thread", tid);
        fputc(',', o);
        san_json_dim3(o, "block", ctaid);
        fputc(',', o);
        san_json_loc(o, "at", &loc);
        fputc('}', o);
        return;
    }
    fprintf(o, SAN_P "    %s Thread (%u,%u,%u) ", write ? "Write" : "Read",
            tid[0], tid[1], tid[2]);
    if (block) {
        fprintf(o, "in block (%u,%u,%u) ", ctaid[0], ctaid[1], ctaid[2]);
    }
    san_text_at(o, &loc);
    fputc('\n', o);
}

static void report(SanRacecheck *r, const EmuLaunch *l, Hazard kind,
                   PtxSpace space, uint64_t addr, const Slot *first,
                   const Slot *second)
{
    bool w1 = kind != HZ_WAR, w2 = kind != HZ_RAW;
    r->hazards++;
    uint64_t key = (uint64_t)kind << 62 | (uint64_t)(space ==
                   PTX_SPACE_SHARED) << 61 | (uint64_t)first->site << 31 |
                   second->site;
    uint64_t *v = san_map_get(&r->pairmap, key, true);
    if (!v) {
        return;
    }
    if (*v) {
        r->pairs[*v - 1].count++;
        return;
    }
    if (r->npairs == r->cappairs) {
        size_t nc = r->cappairs ? r->cappairs * 2 : 32;
        Pair *p = realloc(r->pairs, nc * sizeof(*p));
        if (!p) {
            return;
        }
        r->pairs = p;
        r->cappairs = nc;
    }
    r->pairs[r->npairs++] = (Pair){ (uint8_t)kind, (uint8_t)space, w1, w2,
                                    first->site, second->site, 1 };
    *v = r->npairs;
    if (r->analysis || !san_out_count(r->out)) {
        return;
    }
    const Launch *L = *emu_client_launch_slot((EmuLaunch *)l, r->client);
    uint32_t ctaid[3];
    san_ctaid_of(l, ((second->who & WHO) - 1) / L->nthreads, ctaid);
    const char *kern = l->kernel && l->kernel->ir ? l->kernel->ir->name : "?";
    FILE *o = r->out->out;
    bool sh = space == PTX_SPACE_SHARED;
    if (r->out->fmt != SAN_FMT_TEXT) {
        fprintf(o, "{\"tool\":\"racecheck\",\"kind\":\"%s\",\"space\":\"%s\","
                "\"address\":%" PRIu64 ",\"kernel\":", hz_name[kind],
                sh ? "shared" : "global", addr);
        san_json_str(o, kern);
        fputs(",\"first\":", o);
        print_thread(r, l, w1, first->who, first->site, true);
        fputs(",\"second\":", o);
        print_thread(r, l, w2, second->who, second->site, true);
        fputs("}\n", o);
        return;
    }
    fprintf(o, SAN_P "Error: Potential %s hazard detected at %s 0x%" PRIx64,
            hz_name[kind], san_space_words(space), addr);
    if (sh) {
        fprintf(o, " in block (%u,%u,%u)", ctaid[0], ctaid[1], ctaid[2]);
    }
    fprintf(o, " of kernel %s :\n", kern);
    print_thread(r, l, w1, first->who, first->site, !sh);
    print_thread(r, l, w2, second->who, second->site, !sh);
    fputs(SAN_BLANK, o);
}

/* ------------------------------------------------------------ accesses */

/* val: the byte in memory after the current access (a write's). */
static void check_byte(SanRacecheck *r, const EmuLaunch *l, Launch *L,
                       const Shared *sh, Cell *c, const Slot *cur,
                       bool write, uint8_t val, uint32_t cta,
                       PtxSpace space, uint64_t addr)
{
    if (write) {
        /* two writes of the same value are benign (compute-sanitizer
         * does not call them errors either) */
        if (!(c->wval == val && !(c->w.who & ATOMIC) &&
              !(cur->who & ATOMIC)) &&
            conflict(L, sh, &c->w, true, cur, true, cta)) {
            report(r, l, HZ_WAW, space, addr, &c->w, cur);
        }
        if (conflict(L, sh, &c->r1, false, cur, true, cta)) {
            report(r, l, HZ_WAR, space, addr, &c->r1, cur);
        } else if (conflict(L, sh, &c->r2, false, cur, true, cta)) {
            report(r, l, HZ_WAR, space, addr, &c->r2, cur);
        }
        c->w = *cur;
        c->wval = val;
        return;
    }
    if (conflict(L, sh, &c->w, true, cur, false, cta)) {
        report(r, l, HZ_RAW, space, addr, &c->w, cur);
    }
    /* keep a read that the current one does not order after, so that a
     * later write by another warp still meets it */
    if (!c->r1.who ||
        (same_warp(c->r1.who, cur->who) &&
         warp_ordered(L, sh, &c->r1, cur)) ||
        ordered(L, sh, &c->r1, cur, cta)) {
        c->r1 = *cur;
    } else {
        c->r2 = *cur;
    }
}

/* The nb bytes of one access in the contiguous cells c (of addresses
 * addr..; mem: their bytes after it, NULL: unknown).  A byte whose cell
 * holds what the previous byte's held before its check, which found
 * nothing (and, for a write, whose new value is as much the old one as
 * there), gets that one's outcome without a check (a word: four cells
 * alike). */
static void check_bytes(SanRacecheck *r, const EmuLaunch *l, Launch *L,
                        const Shared *sh, Cell *c, uint32_t nb,
                        const Slot *cur, bool write, const uint8_t *mem,
                        uint32_t cta, PtxSpace sp, uint64_t addr)
{
    Cell pre;
    bool alike = false, same_prev = false;
    for (uint32_t b = 0; b < nb; b++) {
        /* a write outside every allocation (memcheck's) compares as a
         * new value */
        uint8_t v = write ? (mem ? mem[b] : (uint8_t)~c[b].wval)
                          : c[b].wval;
        bool same = c[b].wval == v;
        if (alike && same == same_prev &&
            !memcmp(&c[b], &pre, offsetof(Cell, wval))) {
            c[b] = c[b - 1];
            c[b].wval = v;
            continue;
        }
        uint64_t before = r->hazards;
        pre = c[b];
        same_prev = same;
        check_byte(r, l, L, sh, &c[b], cur, write, v, cta, sp, addr + b);
        alike = r->hazards == before;
    }
}

/* cta's shadow, made on first use (NULL: out of memory). */
static Shared *cta_shadow(SanRacecheck *r, EmuCta *cta)
{
    void **slot = emu_client_cta_slot(cta, r->client);
    if (!slot) {
        return NULL;
    }
    if (!*slot) {
        *slot = calloc(1, sizeof(Shared));
    }
    return *slot;
}

static Cell *shared_cells(Shared *s, EmuCta *cta, uint64_t end)
{
    if (!s || end > cta->shared_bytes) {
        return NULL;                  /* the reserved region: not user's */
    }
    if (end > s->n) {
        uint32_t n = s->n ? s->n : 256;
        while (n < end) {
            n *= 2;
        }
        if (n > cta->shared_bytes) {
            n = cta->shared_bytes;
        }
        Cell *p = realloc(s->c, (size_t)n * sizeof(*p));
        if (!p) {
            return NULL;
        }
        memset(p + s->n, 0, (size_t)(n - s->n) * sizeof(*p));
        s->c = p;
        s->n = n;
    }
    return s->c;
}

static Cell *global_page(Launch *L, uint64_t pn)
{
    if (L->last_page && pn == L->last_pn) {
        return L->last_page;
    }
    uint64_t *v = san_map_get(&L->pages, pn, false);
    if (!v) {
        if (L->pages.n >= MAX_PAGES ||
            !(v = san_map_get(&L->pages, pn, true))) {
            L->global_on = false;
            return NULL;
        }
        Cell *p = calloc(PAGE, sizeof(*p));
        if (!p) {
            L->global_on = false;
            return NULL;
        }
        *v = (uint64_t)(uintptr_t)p;
    }
    L->last_pn = pn;
    L->last_page = (Cell *)(uintptr_t)*v;
    return L->last_page;
}

static bool is_strong_sem(PtxMod m)
{
    return m == PTX_M_RELAXED || m == PTX_M_ACQUIRE ||
           m == PTX_M_RELEASE || m == PTX_M_ACQ_REL || m == PTX_M_SC ||
           m == PTX_M_VOLATILE;
}

static void push2(uint32_t f[2], uint32_t t)
{
    if (f[0] != t) {
        f[1] = f[0];
        f[0] = t;
    }
}

/* A fence of `lanes` of the warp whose first thread (of the launch) is
 * `first`, in CTA cta. */
static void fence(Launch *L, uint32_t cta, PtxMod scope, uint32_t first,
                  uint32_t lanes)
{
    if (L->clock >= CLOCK_MAX) {
        L->on = false;
        return;
    }
    uint32_t t = ++L->clock;
    bool wide = scope != PTX_M_CTA && scope != PTX_M_CLUSTER;
    ring_push(&L->cs[cta].any, t);
    if (wide) {
        ring_push(&L->cs[cta].gpu, t);  /* gpu, sys, or none (gpu) */
    }
    /* bar.warp.sync is cumulative as bar.sync is: the writes of the
     * lanes that synchronised with a fencing lane are released by its
     * fence too (those since, also: fewer races found, none made up) */
    uint32_t group = lanes;
    for (uint32_t m = L->rel && L->its ? lanes : 0; m; m &= m - 1) {
        group |= L->rel[first + (uint32_t)__builtin_ctz(m)].ws;
    }
    for (uint32_t m = L->rel ? group : 0; m; m &= m - 1) {
        Rel *r = &L->rel[tsync_index(L, first + (uint32_t)__builtin_ctz(m))];
        push2(r->any, t);
        if (wide) {
            push2(r->gpu, t);
        }
    }
}

/* The last fences of `thread` (any scope, .gpu/.sys scope) in CTA cta. */
static void last_fences(const Launch *L, uint32_t thread, uint32_t cta,
                        uint32_t *any, uint32_t *gpu)
{
    if (L->rel) {
        const Rel *r = &L->rel[tsync_index(L, thread)];
        *any = r->any[0];
        *gpu = r->gpu[0];
        return;
    }
    const Ring *a = &L->cs[cta].any, *g = &L->cs[cta].gpu;
    *any = a->n ? a->t[(a->n - 1) % NRING] : 0;
    *gpu = g->n ? g->t[(g->n - 1) % NRING] : 0;
}

/* A strong access of byte cell c by `thread` of CTA cta, before it is
 * recorded: a read part acquires what the last strong write published
 * (its any-scope fence only within its CTA), a write part publishes the
 * thread's last fences (a read-modify-write adds them to what was
 * there, PTX ISA "Memory Consistency Model", release sequence). */
static void sync_byte(Launch *L, Cell *c, uint32_t thread, uint32_t cta,
                      bool read, bool write, bool rmw)
{
    const Cell *c0 = c;
    bool pub = (c0->w.who & STRONG) != 0;
    bool same = pub && ((c0->w.who & WHO) - 1) / L->nthreads == cta;
    if (read && pub) {
        uint32_t v = same && c0->rel > c0->relg ? c0->rel : c0->relg;
        uint32_t *t = L->tsync ? &L->tsync[tsync_index(L, thread)] : NULL;
        if (t && v > *t) {
            *t = v;
        }
        if (v > L->cs[cta].acq) {
            L->cs[cta].acq = v;
        }
    }
    if (write) {
        uint32_t a, g;
        last_fences(L, thread, cta, &a, &g);
        if (rmw && pub) {
            c->relg = g > c0->relg ? g : c0->relg;
            c->rel = same && c0->rel > a ? c0->rel : a;
        } else {
            c->rel = a;
            c->relg = g;
        }
    }
}

static bool same_bytes(const EmuAccess *p, const EmuAccess *q)
{
    return p->kind == EMU_ACC_READ && p->addr == q->addr &&
           p->size == q->size && p->space == q->space;
}

static void on_access(void *ctx, const EmuCtx *x, const EmuAccess *a,
                      uint32_t n)
{
    SanRacecheck *r = ctx;
    void **ls = emu_client_launch_slot(x->launch, r->client);
    Launch *L = ls ? *ls : NULL;
    if (!L || !L->on) {
        return;
    }
    uint32_t cta = x->cta->linear;
    const IrInsn *in = x->pc < x->func->ncode ? x->func->code[x->pc].ir
                                              : NULL;
    PtxMod sem = in ? ir_insn_mod(in, PTX_MG_SEM) : PTX_M_NONE;
    /* mbarrier words are synchronisation objects: every access strong */
    bool strong_insn = is_strong_sem(sem) ||
                       (in && in->op >= PTX_OP_MBARRIER_INIT &&
                        in->op <= PTX_OP_MBARRIER_PENDING_COUNT);
    uint32_t base = cta * L->nthreads + x->warp->id * EMU_WARP_SIZE + 1;
    if (sem == PTX_M_RELEASE || sem == PTX_M_ACQ_REL || sem == PTX_M_SC) {
        /* a release operation: a fence of its lanes before it */
        uint32_t lanes = 0;
        for (uint32_t k = 0; k < n; k++) {
            lanes |= 1u << (a[k].lane & 31);
        }
        fence(L, cta, ir_insn_mod(in, PTX_MG_SCOPE), base - 1, lanes);
    }
    uint32_t site = site_of(r, x->func, x->pc);
    Shared *sh = cta_shadow(r, x->cta);
    for (uint32_t k = 0; k < n; k++) {
        EmuAccKind kind = a[k].kind;
        if (kind != EMU_ACC_READ && kind != EMU_ACC_WRITE &&
            kind != EMU_ACC_ATOMIC) {
            continue;                 /* asynchronous, texel: unchecked */
        }
        /* a plain read of the bytes that the previous access, or the one
         * 16 before, read (a broadcast: lanes of one instruction in lock
         * step) meets the same writes and orders after that lane's read,
         * so it is checked once, as that lane (a 16x16 tile's rows and
         * columns: matmul) */
        if (kind == EMU_ACC_READ && !strong_insn &&
            ((k >= 1 && same_bytes(&a[k - 1], &a[k])) ||
             (k >= 16 && same_bytes(&a[k - 16], &a[k])))) {
            continue;
        }
        bool strong = strong_insn || kind == EMU_ACC_ATOMIC;
        bool rmw = kind == EMU_ACC_ATOMIC;
        uint32_t thread = base - 1 + a[k].lane;
        Slot cur = { (base + a[k].lane) | (strong ? STRONG : 0) |
                     (kind == EMU_ACC_ATOMIC ? ATOMIC : 0), site, L->clock,
                     x->active };
        bool write = kind != EMU_ACC_READ;
        PtxSpace sp = a[k].space;
        uint64_t addr = a[k].addr;
        const uint8_t *mem = NULL;        /* the bytes, for their values */
        if (sp == PTX_SPACE_SHARED && addr >= EMU_RESV_SMEM_BEGIN) {
            uint64_t off = addr - EMU_RESV_SMEM_BEGIN;
            if (strong && sh && !sh->resv) {
                sh->resv = calloc(EMU_GPU_SMEM_RESERVED, sizeof(Cell));
            }
            for (uint32_t b = 0; strong && sh && sh->resv &&
                 off + b < EMU_GPU_SMEM_RESERVED && b < a[k].size; b++) {
                Cell *c = &sh->resv[off + b];
                sync_byte(L, c, thread, cta, !write || rmw, write, rmw);
                if (write) {
                    c->w = cur;       /* the publisher */
                }
            }
        } else if (sp == PTX_SPACE_SHARED) {
            Cell *c = shared_cells(sh, x->cta, addr + a[k].size);
            mem = x->cta->shared + addr;
            for (uint32_t b = 0; c && strong && b < a[k].size; b++) {
                sync_byte(L, &c[addr + b], thread, cta, !write || rmw, write,
                          rmw);
            }
            if (c) {
                check_bytes(r, x->launch, L, sh, &c[addr], a[k].size, &cur,
                            write, mem, cta, sp, addr);
            }
        } else if (sp == PTX_SPACE_GLOBAL && L->global_on) {
            const EmuAlloc *al = write ? emu_mem_find(x->dev->mem, addr,
                                                      a[k].size) : NULL;
            mem = al ? al->host + (addr - al->addr) : NULL;
            /* the bytes page by page (an access may straddle two) */
            for (uint32_t b = 0, nb; b < a[k].size; b += nb) {
                uint64_t at = addr + b;
                Cell *p = global_page(L, at >> PAGE_BITS);
                if (!p) {
                    break;
                }
                nb = a[k].size - b;
                if ((at & (PAGE - 1)) + nb > PAGE) {
                    nb = (uint32_t)(PAGE - (at & (PAGE - 1)));
                }
                Cell *c = &p[at & (PAGE - 1)];
                for (uint32_t j = 0; strong && j < nb; j++) {
                    sync_byte(L, &c[j], thread, cta, !write || rmw, write,
                              rmw);
                }
                check_bytes(r, x->launch, L, sh, c, nb, &cur, write,
                            mem ? mem + b : NULL, cta, sp, at);
            }
        }
    }
}

/* ------------------------------------------------------------ events */

static void launch_free(Launch *L)
{
    for (size_t i = 0; i < L->pages.cap; i++) {
        if (L->pages.v[i].used) {
            free((void *)(uintptr_t)L->pages.v[i].val);
        }
    }
    san_map_free(&L->pages);
    free(L->cs);
    free(L->tsync);
    free(L->rel);
    free(L);
}

/* Warp w of cta released a bar.warp.sync of members: a clock tick. */
static void warpsync(SanRacecheck *r, Launch *L, EmuCta *cta, uint32_t w,
                     uint32_t members)
{
    if (L->clock >= CLOCK_MAX) {
        L->on = false;
        return;
    }
    Shared *sh = cta_shadow(r, cta);
    if (sh && !sh->ws && (sh->ws = calloc(cta->nwarps, sizeof(*sh->ws)))) {
        sh->nws = cta->nwarps;
    }
    if (!sh || !sh->ws || w >= sh->nws) {
        L->its = false;               /* out of memory: no intra-warp
                                         checks rather than false ones */
        return;
    }
    WarpRing *g = &sh->ws[w];
    g->t[g->n % NRING] = ++L->clock;
    g->m[g->n % NRING] = members;
    g->n++;
    /* the members' acquires pass to each other (a cooperative-groups
     * tile's sync: one lane acquires, __syncwarp() releases the rest) */
    uint64_t first = (uint64_t)cta->linear * L->nthreads +
                     (uint64_t)w * EMU_WARP_SIZE;
    uint32_t best = 0;
    for (uint32_t m = members; L->tsync && m; m &= m - 1) {
        uint64_t t = first + (uint32_t)__builtin_ctz(m);
        if (t < (uint64_t)(cta->linear + 1) * L->nthreads &&
            L->tsync[t] > best) {
            best = L->tsync[t];
        }
    }
    for (uint32_t m = members; L->tsync && m; m &= m - 1) {
        uint64_t t = first + (uint32_t)__builtin_ctz(m);
        if (t < (uint64_t)(cta->linear + 1) * L->nthreads) {
            if (best) {
                L->tsync[t] = best;
            }
            if (L->rel) {
                L->rel[t].ws = members;
            }
        }
    }
}

/* A CTA barrier of cta released: the warps `arrived` took part, those
 * `waited` waited (both 0: every warp, as for barrier.cluster and an
 * mbarrier phase). */
static void barrier(SanRacecheck *r, Launch *L, EmuCta *cta,
                    uint32_t arrived, uint32_t waited)
{
    if (L->clock >= CLOCK_MAX) {
        L->on = false;
        return;
    }
    uint32_t nw = cta->nwarps < 32 ? cta->nwarps : 32;
    uint32_t all = nw == 32 ? UINT32_MAX : (1u << nw) - 1;
    if (!arrived) {
        arrived = waited = all;
    }
    Shared *sh = cta_shadow(r, cta);
    if (sh && !sh->bars) {
        sh->bars = calloc(nw, sizeof(*sh->bars));
        sh->cov = calloc(nw, sizeof(*sh->cov));
        sh->nbw = nw;
    }
    if (!sh || !sh->bars || !sh->cov) {
        L->on = false;                /* out of memory: no checks rather
                                         than false ones */
        return;
    }
    uint32_t t = ++L->clock, live = 0;
    CtaSync *c = &L->cs[cta->linear];
    for (uint32_t w = 0; w < nw; w++) {
        live |= (uint32_t)(cta->warps[w].state != EMU_WARP_EXITED) << w;
        if (waited >> w & 1u) {
            WarpRing *g = &sh->bars[w];
            g->t[g->n % NRING] = t;
            g->m[g->n % NRING] = arrived;
            g->n++;
            if (c->acq > sh->cov[w]) {
                sh->cov[w] = c->acq;  /* acquires pass on (cumulativity) */
            }
        }
    }
    if ((arrived & live) == live) {
        ring_push(&c->bars, t);
    }
    if (arrived == all && waited == all) {
        c->full = t;
    }
}

static void on_event(void *ctx, const EmuEvent *e)
{
    SanRacecheck *r = ctx;
    void **ls = e->launch ? emu_client_launch_slot(e->launch, r->client)
                          : NULL;
    if (!ls) {
        return;
    }
    Launch *L = *ls;
    switch (e->kind) {
    case EMU_EV_LAUNCH_BEGIN: {
        const EmuLaunch *l = e->launch;
        uint64_t nt = (uint64_t)l->block[0] * l->block[1] * l->block[2];
        nt = (nt + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE * EMU_WARP_SIZE;
        uint64_t nc = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
        if (L || !nt || nt * nc >= WHO || nc > (1u << 22)) {
            return;                   /* too large a grid: not checked */
        }
        if (!(L = calloc(1, sizeof(*L)))) {
            return;
        }
        if (!(L->cs = calloc(nc, sizeof(*L->cs)))) {
            free(L);
            return;
        }
        L->nthreads = (uint32_t)nt;
        L->on = L->global_on = true;
        /* per-thread acquire clocks when affordable (calloc's pages stay
         * untouched until a thread makes a strong access) */
        L->tsync = nt * nc <= MAX_TSYNC ? calloc(nt * nc, sizeof(uint32_t))
                                       : NULL;
        L->rel = L->tsync ? calloc(nt * nc, sizeof(Rel)) : NULL;
        L->its = l->mod && l->mod->reconv == EMU_RECONV_ITS;
        *ls = L;
        return;
    }
    case EMU_EV_LAUNCH_END:
        if (L) {
            launch_free(L);
            *ls = NULL;
        }
        return;
    case EMU_EV_CTA_DONE: {
        void **cs = emu_client_cta_slot(e->cta, r->client);
        if (cs && *cs) {
            free(((Shared *)*cs)->c);
            free(((Shared *)*cs)->ws);
            free(((Shared *)*cs)->bars);
            free(((Shared *)*cs)->resv);
            free(((Shared *)*cs)->cov);
            free(*cs);
            *cs = NULL;
        }
        return;
    }
    case EMU_EV_BARRIER:
        if (L && L->on && e->cta) {
            barrier(r, L, e->cta, (uint32_t)e->addr, (uint32_t)e->size);
        }
        return;
    case EMU_EV_MBAR_FLIP:            /* as a barrier of every warp */
        if (L && L->on && e->cta) {
            barrier(r, L, e->cta, 0, 0);
        }
        return;
    case EMU_EV_FENCE:
        if (L && L->on && e->cta && e->warp) {
            fence(L, e->cta->linear, (PtxMod)e->id,
                  e->cta->linear * L->nthreads + e->warp->id * EMU_WARP_SIZE,
                  (uint32_t)e->addr);
        }
        return;
    case EMU_EV_WARPSYNC:
        if (L && L->on && e->cta && e->warp) {
            warpsync(r, L, e->cta, e->warp->id, e->id);
        }
        return;
    default:
        return;
    }
}

/* ------------------------------------------------------------ API */

SanRacecheck *san_racecheck_new(EmuDevice *d, SanOut *out, bool analysis)
{
    SanRacecheck *r = calloc(1, sizeof(*r));
    if (!r) {
        return NULL;
    }
    r->dev = d;
    r->out = out;
    r->analysis = analysis;
    EmuClient c = {
        .abi_version = EMU_CLIENT_ABI, .struct_size = sizeof(c),
        .name = "racecheck", .ctx = r, .on_access = on_access,
        .on_event = on_event,
        .spaces = 1u << PTX_SPACE_SHARED | 1u << PTX_SPACE_GLOBAL,
        .events = 1u << EMU_EV_LAUNCH_BEGIN | 1u << EMU_EV_LAUNCH_END |
                  1u << EMU_EV_CTA_DONE | 1u << EMU_EV_BARRIER |
                  1u << EMU_EV_MBAR_FLIP | 1u << EMU_EV_FENCE |
                  1u << EMU_EV_WARPSYNC,
    };
    char why[128];
    r->client = emu_client_attach(d, &c, why, sizeof(why));
    if (r->client < 0) {
        free(r);
        return NULL;
    }
    return r;
}

void san_racecheck_finish(SanRacecheck *r)
{
    if (!r->analysis) {
        return;
    }
    FILE *o = r->out->out;
    for (size_t i = 0; i < r->npairs; i++) {
        const Pair *p = &r->pairs[i];
        if (!san_out_count(r->out)) {
            continue;
        }
        SanLoc a, b;
        san_loc_of(&a, r->sites[p->s1].f, r->sites[p->s1].pc);
        san_loc_of(&b, r->sites[p->s2].f, r->sites[p->s2].pc);
        if (r->out->fmt != SAN_FMT_TEXT) {
            fprintf(o, "{\"tool\":\"racecheck\",\"kind\":\"%s\",\"space\":"
                    "\"%s\",\"hazards\":%" PRIu64 ",", hz_name[p->kind],
                    p->space == PTX_SPACE_SHARED ? "shared" : "global",
                    p->count);
            san_json_loc(o, "first", &a);
            fputc(',', o);
            san_json_loc(o, "second", &b);
            fputs("}\n", o);
            continue;
        }
        fprintf(o, SAN_P "Error: Race reported between %s access ",
                p->first_write ? "Write" : "Read");
        san_text_at(o, &a);
        fprintf(o, "\n" SAN_P "    and %s access ",
                p->second_write ? "Write" : "Read");
        san_text_at(o, &b);
        fprintf(o, " [%" PRIu64 " hazard%s on %s memory]\n" SAN_BLANK,
                p->count, p->count == 1 ? "" : "s",
                p->space == PTX_SPACE_SHARED ? "shared" : "global");
    }
}

void san_racecheck_free(SanRacecheck *r)
{
    if (!r) {
        return;
    }
    emu_client_detach(r->dev, r->client);
    san_map_free(&r->funcs);
    san_map_free(&r->pairmap);
    free(r->sites);
    free(r->pairs);
    free(r);
}
