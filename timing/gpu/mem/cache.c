/*
 * timing/gpu/mem/cache.c: the generic sectored cache (rules in cache.h).
 *
 * Sector bookkeeping follows the sectored caches of NVIDIA GPUs since
 * Fermi as Accel-Sim models them (Khairy et al., "Accel-Sim", ISCA 2020,
 * section 4: 128-byte lines of four 32-byte sectors, a sector miss
 * fetching only the missing sectors, MSHRs merging requests to a line
 * in flight).  A line with a sector being filled is never chosen as a
 * victim, so an MSHR always belongs to a resident line and the line
 * keeps its index.
 */
#include "timing/gpu/mem/cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/panic.h"

typedef struct CLine {
    uint64_t addr;              /* the line's first byte */
    uint64_t stamp;             /* LRU: last use; FIFO: fill order */
    uint32_t valid, pending, dirty;
    int32_t mshr;               /* -1: none */
    bool used;
    bool persist;               /* in the set-aside (cache.h) */
} CLine;

typedef struct Waiter {
    MemMsg m;
    uint32_t need;              /* line sectors it waits for */
} Waiter;

typedef struct Mshr {
    uint32_t line;              /* index into lines[] */
    uint32_t nwait, fills;      /* waiting requests, fills in flight */
    bool busy;
} Mshr;

struct Cache {
    CacheCfg cfg;
    CacheStats *st;
    CacheStats *sum;            /* also counted here (NULL: no) */
    CLine *lines;               /* sets * ways */
    Mshr *mshr;
    Waiter *wait;               /* mshrs * merge */
    uint32_t *freem;            /* free MSHR stack */
    uint32_t nfree;
    uint64_t *bank_used;        /* cycle + 1 of the bank's last access */
    MemQ up, down;
    uint32_t uprsv;             /* up slots promised, not yet queued */
    uint64_t clock;             /* stamps */
    uint32_t spl;               /* sectors per line */
    size_t nlines;              /* lines[] (cache_set_shape) */
    uint32_t lshift;            /* log2(line) */
    uint64_t set_mask, bank_mask; /* sets - 1, banks - 1 when powers of
                                     two (no division on the hot path) */
    uint32_t pways;             /* persisting set-aside, ways per set */
    bool some_persist;          /* a line was made persisting since the
                                   last reset (else none is) */
    CacheWindow win;            /* the access-policy window */
    CacheProp prop;             /* of the access being looked at */
};

#define COUNT(c, f, v) MEM_COUNT((c)->st, (c)->sum, f, v)

static bool pow2(uint32_t v)
{
    return v && !(v & (v - 1));
}

Cache *cache_new(const CacheCfg *cfg, CacheStats *st, char *err,
                 size_t errlen)
{
    const char *bad = NULL;
    if (!pow2(cfg->line) || cfg->line < GPU_SECTOR || cfg->line > 1024) {
        bad = "line size must be a power of two from 32 to 1024 bytes";
    } else if (!cfg->sets || !cfg->ways || !cfg->banks) {
        bad = "sets, ways and banks must be at least 1";
    } else if (!cfg->mshrs || !cfg->merge || !cfg->missq || !cfg->outq) {
        bad = "mshrs, merge, missq and outq must be at least 1";
    } else if (cfg->missq < 2 * (cfg->line > GPU_LINE ? cfg->line / GPU_LINE
                                                        : 1)) {
        bad = "missq must hold a fill and a write-back of a whole line";
    } else if (cfg->idx_parts > 1 &&
               (!pow2(cfg->idx_gran) || cfg->idx_gran < cfg->line)) {
        bad = "a partition's interleave must be a power of two of at "
              "least a line";
    } else if ((uint64_t)cfg->sets * cfg->ways > (1u << 24)) {
        bad = "more than 16M lines";
    }
    if (bad) {
        if (err && errlen) {
            snprintf(err, errlen, "%s", bad);
        }
        return NULL;
    }
    Cache *c = calloc(1, sizeof *c);
    if (!c) {
        return NULL;
    }
    c->cfg = *cfg;
    c->st = st;
    c->spl = cfg->line / GPU_SECTOR;
    c->lshift = (uint32_t)__builtin_ctz(cfg->line);
    c->set_mask = pow2(cfg->sets) ? cfg->sets - 1 : 0;
    c->bank_mask = pow2(cfg->banks) ? cfg->banks - 1 : 0;
    size_t nl = (size_t)cfg->sets * cfg->ways;
    c->nlines = nl;
    c->lines = calloc(nl, sizeof *c->lines);
    c->mshr = calloc(cfg->mshrs, sizeof *c->mshr);
    c->wait = calloc((size_t)cfg->mshrs * cfg->merge, sizeof *c->wait);
    c->freem = calloc(cfg->mshrs, sizeof *c->freem);
    c->bank_used = calloc(cfg->banks, sizeof *c->bank_used);
    if (!c->lines || !c->mshr || !c->wait || !c->freem || !c->bank_used ||
        memq_init(&c->up, cfg->outq + cfg->mshrs * cfg->merge) ||
        memq_init(&c->down, cfg->missq)) {
        cache_free(c);
        return NULL;
    }
    for (size_t i = 0; i < nl; i++) {
        c->lines[i].mshr = -1;
    }
    /* pop order 0, 1, 2 ...: a stack holding mshrs-1 .. 0 */
    for (uint32_t i = 0; i < cfg->mshrs; i++) {
        c->freem[i] = cfg->mshrs - 1 - i;
    }
    c->nfree = cfg->mshrs;
    return c;
}

void cache_free(Cache *c)
{
    if (!c) {
        return;
    }
    free(c->lines);
    free(c->mshr);
    free(c->wait);
    free(c->freem);
    free(c->bank_used);
    memq_fini(&c->up);
    memq_fini(&c->down);
    free(c);
}

void cache_invalidate(Cache *c)
{
    size_t nl = (size_t)c->cfg.sets * c->cfg.ways;
    for (size_t i = 0; i < nl; i++) {
        CLine *l = &c->lines[i];
        if (!l->pending) {
            l->used = false;
            l->persist = false;
            l->valid = l->dirty = 0;
        }
    }
}

bool cache_idle(const Cache *c)
{
    return c->nfree == c->cfg.mshrs && !c->up.n && !c->down.n && !c->uprsv;
}

void cache_set_shape(Cache *c, uint32_t sets, uint32_t ways)
{
    EMU_ASSERT(cache_idle(c) && sets >= 1 && ways >= 1 &&
               (uint64_t)sets * ways <= c->nlines);
    c->cfg.sets = sets;
    c->cfg.ways = ways;
    c->set_mask = pow2(sets) ? sets - 1 : 0;
    if (c->pways >= ways) {
        c->pways = ways - 1;
    }
    for (size_t i = 0; i < c->nlines; i++) {
        c->lines[i] = (CLine){.mshr = -1};
    }
}

const CacheCfg *cache_cfg(const Cache *c)
{
    return &c->cfg;
}

/* ---- addressing ---- */

static uint64_t first_byte(const MemMsg *m)
{
    return m->addr + GPU_SECTOR * (uint32_t)__builtin_ctz(m->sectors);
}

static uint64_t line_of(const Cache *c, const MemMsg *m)
{
    return first_byte(m) & ~(uint64_t)(c->cfg.line - 1);
}

/* m's sectors as bits of its line (line_addr). */
static uint32_t line_mask(const Cache *c, const MemMsg *m, uint64_t la)
{
    if (m->addr >= la) {
        return (uint32_t)m->sectors << ((m->addr - la) / GPU_SECTOR);
    }
    uint32_t mask = m->sectors >> ((la - m->addr) / GPU_SECTOR);
    EMU_ASSERT(mask << ((la - m->addr) / GPU_SECTOR) == m->sectors);
    (void)c;
    return mask;
}

uint32_t cache_line_split(const MemMsg *m, uint32_t line, MemMsg out[4])
{
    if (line >= GPU_LINE) {
        out[0] = *m;
        return 1;
    }
    uint32_t per = line / GPU_SECTOR;   /* sectors per line: 1 or 2 */
    uint32_t n = 0;
    for (uint32_t s = 0; s < GPU_LINE / GPU_SECTOR; s += per) {
        uint32_t part = m->sectors & (((1u << per) - 1) << s);
        if (part) {
            out[n] = *m;
            out[n].sectors = (uint8_t)part;
            n++;
        }
    }
    return n;
}

/* The line number that picks la's set and bank (cache.h). */
static uint64_t index_of(const Cache *c, uint64_t la)
{
    if (c->cfg.idx_parts > 1) {
        uint64_t g = c->cfg.idx_gran;
        la = la / (g * c->cfg.idx_parts) * g + (la & (g - 1));
    }
    return la >> c->lshift;
}

static CLine *set_of(Cache *c, uint64_t la)
{
    uint64_t n = index_of(c, la);
    uint64_t set = c->set_mask || c->cfg.sets == 1 ? n & c->set_mask
                                                   : n % c->cfg.sets;
    return &c->lines[set * c->cfg.ways];
}

static CLine *find(Cache *c, uint64_t la)
{
    CLine *s = set_of(c, la);
    for (uint32_t w = 0; w < c->cfg.ways; w++) {
        if (s[w].used && s[w].addr == la) {
            return &s[w];
        }
    }
    return NULL;
}

/* Persisting lines of the set that starts at s. */
static uint32_t set_persist(const Cache *c, const CLine *s)
{
    uint32_t n = 0;
    for (uint32_t w = 0; w < c->cfg.ways; w++) {
        n += s[w].used && s[w].persist;
    }
    return n;
}

/* An unused way, else the LRU/FIFO way with no pending sector, among
 * the lines the access's property may replace (cache.h). */
static CLine *victim(Cache *c, uint64_t la)
{
    CLine *s = set_of(c, la);
    CLine *best = NULL;
    uint32_t np = c->some_persist ? set_persist(c, s) : 0;
    bool among_persist = c->prop == CACHE_PROP_PERSISTING && c->pways &&
                         np >= c->pways;
    bool any = np > c->pways;
    for (uint32_t w = 0; w < c->cfg.ways; w++) {
        CLine *l = &s[w];
        if (!l->used) {
            if (!among_persist) {
                return l;
            }
            continue;
        }
        bool cand = among_persist ? l->persist : any || !l->persist;
        if (cand && !l->pending && (!best || l->stamp < best->stamp)) {
            best = l;
        }
    }
    return best;
}

/* The window's property of an access to line la (cache.h). */
static CacheProp prop_of(const Cache *c, const MemMsg *m, uint64_t la)
{
    const CacheWindow *w = &c->win;
    uint64_t a = first_byte(m);
    if (!w->bytes || !(w->units >> m->unit & 1) || a < w->base ||
        a - w->base >= w->bytes) {
        return CACHE_PROP_NONE;
    }
    return (CacheProp)(cache_window_hash(la >> c->lshift) < w->hit_below
                           ? w->hit_prop
                           : w->miss_prop);
}

uint32_t cache_window_hash(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return (uint32_t)(x >> 32);
}

void cache_set_persist_ways(Cache *c, uint32_t ways)
{
    c->pways = ways < c->cfg.ways ? ways : c->cfg.ways - 1;
}

void cache_reset_persist(Cache *c)
{
    for (size_t i = 0; i < c->nlines; i++) {
        c->lines[i].persist = false;
    }
    c->some_persist = false;
}

void cache_set_window(Cache *c, const CacheWindow *w)
{
    if (w && w->bytes) {
        c->win = *w;
    } else {
        memset(&c->win, 0, sizeof c->win);
    }
}

uint32_t cache_persist_lines(const Cache *c)
{
    uint32_t n = 0;
    for (size_t i = 0; i < c->nlines; i++) {
        n += c->lines[i].used && c->lines[i].persist;
    }
    return n;
}

/* The messages that carry `mask` of line la down: one per 128-byte
 * piece with a sector in it. */
static uint32_t pieces(const Cache *c, uint32_t mask)
{
    if (c->cfg.line <= GPU_LINE) {
        return mask ? 1 : 0;
    }
    uint32_t n = 0;
    for (uint32_t p = 0; p < c->spl; p += 4) {
        n += ((mask >> p) & 0xFu) != 0;
    }
    return n;
}

/* Queue `mask` of line la going down (due now + 1); returns the number
 * of messages. */
static uint32_t send_down(Cache *c, const MemMsg *tmpl, uint64_t la,
                          uint32_t mask, int32_t mshr, uint8_t kind,
                          uint8_t flags, uint64_t now)
{
    uint32_t n = 0;
    for (uint32_t p = 0; p < c->spl || p == 0; p += 4) {
        uint32_t bits;
        uint64_t addr;
        if (c->cfg.line <= GPU_LINE) {
            addr = la & ~(uint64_t)(GPU_LINE - 1);
            bits = mask << ((la - addr) / GPU_SECTOR);
            p = c->spl;         /* one piece */
        } else {
            addr = la + (uint64_t)p * GPU_SECTOR;
            bits = (mask >> p) & 0xFu;
        }
        if (!bits) {
            continue;
        }
        MemMsg d = *tmpl;
        d.addr = addr;
        d.sectors = (uint8_t)bits;
        d.mshr = mshr;
        d.kind = kind;
        d.flags = flags;
        memq_push(&c->down, &d, now + 1);
        n++;
    }
    return n;
}

static bool up_room(const Cache *c)
{
    return c->up.n + c->uprsv < c->up.cap;
}

/* m streams: its operator or its window says evict first. */
static bool evict_first(const Cache *c, const MemMsg *m)
{
    return (m->flags & MEM_F_EVICT_FIRST) ||
           c->prop == CACHE_PROP_STREAMING;
}

/* A use of l by m: LRU moves it last, unless m streams (evict-first
 * leaves a line where it is); its window's property makes it persisting
 * (room in the set-aside) or normal. */
static void touch(Cache *c, CLine *l, const MemMsg *m)
{
    if (c->cfg.repl == CACHE_LRU && !evict_first(c, m)) {
        l->stamp = ++c->clock;
    }
    if (c->prop == CACHE_PROP_PERSISTING) {
        if (!l->persist && c->pways &&
            set_persist(c, set_of(c, l->addr)) < c->pways) {
            l->persist = true;
            c->some_persist = true;
        }
    } else if (c->prop != CACHE_PROP_NONE) {
        l->persist = false;
    }
}

static void reply(Cache *c, const MemMsg *m, uint64_t due)
{
    if (!(m->flags & MEM_F_NOREPLY)) {
        memq_push(&c->up, m, due);
    }
}

/* Evict l (written back first if dirty) and install la with nothing
 * valid. */
static void install(Cache *c, CLine *l, uint64_t la, const MemMsg *m,
                    uint64_t now)
{
    if (l->used && l->dirty && c->cfg.write_back) {
        COUNT(c, writeback, 1);
        send_down(c, m, l->addr, l->dirty & l->valid, -1, GPU_MEM_WRITE,
                  MEM_F_NOREPLY, now);
    }
    l->used = true;
    l->addr = la;
    l->valid = l->pending = l->dirty = 0;
    l->mshr = -1;
    /* victim() chose among the persisting lines when the set-aside is
     * full, so this keeps the set within it */
    l->persist = c->prop == CACHE_PROP_PERSISTING && c->pways;
    c->some_persist |= l->persist;
    /* evict-first (PTX .cs, .lu, .L1::evict_first, a streaming window):
     * first in line to go, whatever the replacement order */
    l->stamp = evict_first(c, m) ? 0 : ++c->clock;
}

/* Down-queue messages an eviction of l would write back. */
static uint32_t wb_pieces(const Cache *c, const CLine *l)
{
    return (l->used && c->cfg.write_back) ? pieces(c, l->dirty & l->valid)
                                          : 0;
}

static Waiter *waiters(Cache *c, uint32_t k)
{
    return &c->wait[(size_t)k * c->cfg.merge];
}

static void add_waiter(Cache *c, CLine *l, const MemMsg *m, uint32_t need)
{
    Mshr *e = &c->mshr[l->mshr];
    Waiter *w = &waiters(c, (uint32_t)l->mshr)[e->nwait++];
    w->m = *m;
    w->need = need;
    c->uprsv++;
}

/* A read-like access (read, fetch, atomic at a write-back cache). */
static CacheOutcome access_read(Cache *c, const MemMsg *m, uint64_t la,
                                uint32_t mask, uint64_t now)
{
    bool atomic = m->kind == GPU_MEM_ATOMIC;
    CLine *l = find(c, la);
    if (l && !(mask & ~l->valid)) {
        if (!up_room(c)) {
            return CACHE_FAIL_RES;
        }
        touch(c, l, m);
        if (atomic) {
            l->dirty |= mask;
        }
        reply(c, m, now + c->cfg.hit_lat);
        return CACHE_HIT;
    }
    if (!up_room(c)) {
        return CACHE_FAIL_RES;
    }
    if (l) {
        uint32_t fetch = mask & ~l->valid & ~l->pending;
        if (l->mshr >= 0) {
            if (c->mshr[l->mshr].nwait >= c->cfg.merge) {
                return CACHE_FAIL_RES;
            }
        } else if (!c->nfree) {
            return CACHE_FAIL_RES;
        }
        if (memq_room(&c->down) < pieces(c, fetch)) {
            return CACHE_FAIL_RES;
        }
        if (l->mshr < 0) {
            l->mshr = (int32_t)c->freem[--c->nfree];
            c->mshr[l->mshr] = (Mshr){.line = (uint32_t)(l - c->lines),
                                      .busy = true};
        }
        touch(c, l, m);
        if (atomic) {
            l->dirty |= mask;
        }
        add_waiter(c, l, m, mask);
        if (!fetch) {
            return CACHE_MERGE;
        }
        l->pending |= fetch;
        c->mshr[l->mshr].fills +=
            send_down(c, m, la, fetch, l->mshr, GPU_MEM_READ,
                      m->flags & MEM_F_NEXT_HINTS, now);
        return CACHE_SECTOR_MISS;
    }
    if (!c->nfree || memq_full(&c->down)) {
        return CACHE_FAIL_RES;  /* cheap refusals first */
    }
    CLine *v = victim(c, la);
    if (!v || memq_room(&c->down) < pieces(c, mask) + wb_pieces(c, v)) {
        return CACHE_FAIL_RES;
    }
    install(c, v, la, m, now);
    v->mshr = (int32_t)c->freem[--c->nfree];
    c->mshr[v->mshr] = (Mshr){.line = (uint32_t)(v - c->lines),
                              .busy = true};
    if (atomic) {
        v->dirty |= mask;
    }
    add_waiter(c, v, m, mask);
    v->pending = mask;
    c->mshr[v->mshr].fills +=
        send_down(c, m, la, mask, v->mshr, GPU_MEM_READ,
                  m->flags & MEM_F_NEXT_HINTS, now);
    return CACHE_MISS;
}

/* Pass m down unchanged (its reply comes back through cache_fill). */
static bool pass_down(Cache *c, const MemMsg *m, uint64_t now)
{
    bool wants = !(m->flags & MEM_F_NOREPLY);
    if (memq_full(&c->down) || (wants && !up_room(c))) {
        return false;
    }
    memq_push(&c->down, m, now + 1);
    if (wants) {
        c->uprsv++;
    }
    return true;
}

static CacheOutcome access_write(Cache *c, const MemMsg *m, uint64_t la,
                                 uint32_t mask, uint64_t now)
{
    bool wants = !(m->flags & MEM_F_NOREPLY);
    bool alloc = c->cfg.write_alloc && !(m->flags & MEM_F_NO_ALLOC);
    CLine *l = find(c, la);
    if (c->cfg.write_back) {
        if (l || alloc) {
            CLine *v = l ? l : victim(c, la);
            if (!v || (wants && !up_room(c)) ||
                (!l && memq_room(&c->down) < wb_pieces(c, v))) {
                return CACHE_FAIL_RES;
            }
            if (!l) {
                install(c, v, la, m, now);
            }
            touch(c, v, m);
            v->valid |= mask;
            v->dirty |= mask;
            reply(c, m, now + c->cfg.hit_lat);
            return l ? CACHE_HIT : CACHE_MISS;
        }
        return pass_down(c, m, now) ? CACHE_MISS : CACHE_FAIL_RES;
    }
    /* write-through: update or allocate, then pass it on */
    CLine *v = l;
    if (!l && alloc) {
        v = victim(c, la);
        if (!v) {
            return CACHE_FAIL_RES;
        }
    }
    if (!pass_down(c, m, now)) {
        return CACHE_FAIL_RES;
    }
    if (v) {
        if (!l) {
            install(c, v, la, m, now);
        }
        touch(c, v, m);
        v->valid |= mask;
    }
    return l ? CACHE_HIT : CACHE_MISS;
}

CacheOutcome cache_access(Cache *c, const MemMsg *m, uint64_t now)
{
    uint64_t la = line_of(c, m);
    uint32_t mask = line_mask(c, m, la);
    uint64_t n = index_of(c, la);
    uint32_t bank = (uint32_t)(c->bank_mask || c->cfg.banks == 1
                                   ? n & c->bank_mask
                                   : n % c->cfg.banks);
    if (c->bank_used[bank] == now + 1) {
        COUNT(c, bank_conflict, 1);
        return CACHE_FAIL_BANK;
    }
    c->prop = c->win.bytes ? prop_of(c, m, la) : CACHE_PROP_NONE;
    CacheOutcome r;
    if (m->kind == GPU_MEM_WRITE) {
        r = access_write(c, m, la, mask, now);
    } else if (m->kind == GPU_MEM_ATOMIC && !c->cfg.write_back) {
        /* done below: drop our copy, pass it on */
        CLine *l = find(c, la);
        r = CACHE_FAIL_RES;
        if (pass_down(c, m, now)) {
            r = CACHE_MISS;
            if (l) {
                l->valid &= ~(mask & ~l->pending);
            }
        }
    } else if (m->flags & MEM_F_NO_ALLOC) {
        /* around this cache (PTX .cg, .cv, .L1::no_allocate): nothing
         * allocated, the reply passed up as it comes */
        r = pass_down(c, m, now) ? CACHE_MISS : CACHE_FAIL_RES;
    } else {
        r = access_read(c, m, la, mask, now);
    }
    if (r >= CACHE_FAIL_BANK) {
        COUNT(c, resfail, 1);
        return r;
    }
    c->bank_used[bank] = now + 1;
    COUNT(c, access, 1);
    COUNT(c, bytes, (uint64_t)mem_sector_count(mask) * GPU_SECTOR);
    static const size_t ctr[] = {
        [CACHE_HIT] = offsetof(CacheStats, hit),
        [CACHE_MISS] = offsetof(CacheStats, miss),
        [CACHE_SECTOR_MISS] = offsetof(CacheStats, sector_miss),
        [CACHE_MERGE] = offsetof(CacheStats, mshr_merge),
    };
    (*(uint64_t *)((char *)c->st + ctr[r]))++;
    if (c->sum) {
        (*(uint64_t *)((char *)c->sum + ctr[r]))++;
    }
    return r;
}

void cache_set_sum(Cache *c, CacheStats *sum)
{
    c->sum = sum;
}

void cache_count_resfail(Cache *c, uint64_t n)
{
    COUNT(c, resfail, n);
}

void cache_fill(Cache *c, const MemMsg *m, uint64_t now)
{
    if (m->mshr < 0) {
        /* the acknowledgement of a message passed on */
        EMU_ASSERT(c->uprsv > 0);
        c->uprsv--;
        memq_push(&c->up, m, now);
        return;
    }
    EMU_ASSERT((uint32_t)m->mshr < c->cfg.mshrs);
    Mshr *e = &c->mshr[m->mshr];
    EMU_ASSERT(e->busy && e->fills > 0);
    CLine *l = &c->lines[e->line];
    uint32_t mask = line_mask(c, m, l->addr);
    l->valid |= mask;
    l->pending &= ~mask;
    e->fills--;
    /* answer, in arrival order, every request whose sectors are all in */
    Waiter *w = waiters(c, (uint32_t)m->mshr);
    uint32_t keep = 0;
    for (uint32_t i = 0; i < e->nwait; i++) {
        if (!(w[i].need & ~l->valid)) {
            c->uprsv--;
            reply(c, &w[i].m, now + (c->cfg.fill_lat ? c->cfg.fill_lat
                                                     : c->cfg.hit_lat));
        } else {
            w[keep++] = w[i];
        }
    }
    e->nwait = keep;
    if (!e->fills) {
        EMU_ASSERT(!e->nwait);
        e->busy = false;
        c->freem[c->nfree++] = (uint32_t)m->mshr;
        l->mshr = -1;
    }
}

const MemMsg *cache_up_peek(const Cache *c, uint64_t now)
{
    return memq_peek(&c->up, now);
}

void cache_up_pop(Cache *c)
{
    memq_pop(&c->up);
}

const MemMsg *cache_down_peek(const Cache *c, uint64_t now)
{
    return memq_peek(&c->down, now);
}

void cache_down_pop(Cache *c)
{
    memq_pop(&c->down);
}

uint64_t cache_next(const Cache *c)
{
    return mem_min(memq_next(&c->up), memq_next(&c->down));
}

uint64_t cache_up_next(const Cache *c)
{
    return memq_next(&c->up);
}

uint64_t cache_down_next(const Cache *c)
{
    return memq_next(&c->down);
}
