/*
 * timing/gpu/mem/tlb.c: the two-level TLB (rules in tlb.h).
 */
#include "timing/gpu/mem/tlb.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Entry {
    uint64_t vpn;
    uint64_t stamp;             /* 0: empty */
} Entry;

typedef struct Level {
    Entry *e;
    uint32_t sets, ways;
} Level;

struct Tlb {
    TlbCfg c;
    TlbStats *st;
    Level l1, l2;
    uint32_t shift;             /* log2(page) */
    uint64_t clock;
};

static bool level_init(Level *l, uint32_t sets, uint32_t ways)
{
    l->sets = sets;
    l->ways = ways;
    l->e = calloc((size_t)sets * ways, sizeof *l->e);
    return l->e != NULL;
}

Tlb *tlb_new(const TlbCfg *cfg, TlbStats *st, char *err, size_t errlen)
{
    if (!cfg->l1_sets || !cfg->l1_ways || !cfg->l2_sets || !cfg->l2_ways ||
        !cfg->page || (cfg->page & (cfg->page - 1)) ||
        cfg->walk_levels > 7 ||
        (uint64_t)cfg->l1_sets * cfg->l1_ways > (1u << 20) ||
        (uint64_t)cfg->l2_sets * cfg->l2_ways > (1u << 20)) {
        if (err && errlen) {
            snprintf(err, errlen, "sets and ways must be 1 to 2^20 entries, "
                                  "the page a power of two and the walk "
                                  "0 to 7 levels");
        }
        return NULL;
    }
    Tlb *t = calloc(1, sizeof *t);
    if (!t) {
        return NULL;
    }
    t->c = *cfg;
    t->st = st;
    t->shift = (uint32_t)__builtin_ctzll(cfg->page);
    if (!level_init(&t->l1, cfg->l1_sets, cfg->l1_ways) ||
        !level_init(&t->l2, cfg->l2_sets, cfg->l2_ways)) {
        tlb_free(t);
        return NULL;
    }
    return t;
}

void tlb_free(Tlb *t)
{
    if (t) {
        free(t->l1.e);
        free(t->l2.e);
        free(t);
    }
}

void tlb_flush(Tlb *t)
{
    memset(t->l1.e, 0, (size_t)t->l1.sets * t->l1.ways * sizeof(Entry));
    memset(t->l2.e, 0, (size_t)t->l2.sets * t->l2.ways * sizeof(Entry));
}

/* Look vpn up in l (refreshing its LRU stamp); true if found. */
static bool probe(Tlb *t, Level *l, uint64_t vpn)
{
    Entry *s = &l->e[(vpn % l->sets) * l->ways];
    for (uint32_t w = 0; w < l->ways; w++) {
        if (s[w].stamp && s[w].vpn == vpn) {
            s[w].stamp = ++t->clock;
            return true;
        }
    }
    return false;
}

/* Install vpn in l over an empty entry, else the LRU one. */
static void fill(Tlb *t, Level *l, uint64_t vpn)
{
    Entry *s = &l->e[(vpn % l->sets) * l->ways], *v = &s[0];
    for (uint32_t w = 0; w < l->ways; w++) {
        if (s[w].stamp < v->stamp) {
            v = &s[w];
        }
    }
    v->vpn = vpn;
    v->stamp = ++t->clock;
}

uint32_t tlb_lookup(Tlb *t, uint64_t addr)
{
    uint64_t vpn = addr >> t->shift;
    if (probe(t, &t->l1, vpn)) {
        t->st->l1_hit++;
        return 0;
    }
    uint32_t lat;
    if (probe(t, &t->l2, vpn)) {
        t->st->l2_hit++;
        lat = t->c.l2_lat;
    } else {
        t->st->miss++;
        if (t->c.walk_levels) {
            return TLB_WALK;
        }
        fill(t, &t->l2, vpn);
        lat = t->c.walk_lat;
    }
    fill(t, &t->l1, vpn);
    return lat;
}

bool tlb_present(const Tlb *t, uint64_t addr)
{
    uint64_t vpn = addr >> t->shift;
    const Entry *s = &t->l1.e[(vpn % t->l1.sets) * t->l1.ways];
    for (uint32_t w = 0; w < t->l1.ways; w++) {
        if (s[w].stamp && s[w].vpn == vpn) {
            return true;
        }
    }
    return false;
}

uint64_t tlb_pte(const Tlb *t, uint64_t addr, uint32_t l)
{
    uint64_t vpn = addr >> t->shift;
    uint32_t down = 9 * (t->c.walk_levels - 1 - l);
    uint64_t idx = down < 64 ? vpn >> down : 0;
    return t->c.pt_base + ((uint64_t)l << 32) + idx * 8;
}

void tlb_fill(Tlb *t, uint64_t addr)
{
    uint64_t vpn = addr >> t->shift;
    t->st->walks++;
    fill(t, &t->l2, vpn);
    fill(t, &t->l1, vpn);
}
