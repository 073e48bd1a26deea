/*
 * timing/statreg.c: TmStats, the timing model's statistics registry
 * (tm.h).
 *
 * A model registers counters it owns (path -> const uint64_t *); the
 * host marks them at kernel_begin and reports each counter's delta since
 * its mark at kernel_end, as one JSON object merged into --stats.
 *  - Paths are dotted names of [A-Za-z0-9_.-], at most 255 bytes ("sm3.
 *    l1.hit"), so they need no escaping in JSON; anything else, a NULL
 *    counter or a path registered twice is refused.
 *  - The JSON lists counters in registration order: a model registers
 *    them in the order that reads best (per SM, per component), and the
 *    order is deterministic for a given model and configuration.
 *  - A counter registered after the mark (from kernel_begin) is marked
 *    at registration: its first delta counts from then.
 *  - Deltas are modulo 2^64, so a counter that wraps still reports the
 *    increase.
 */
#include "timing/tm.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define TM_STAT_MAX_PATH 255

typedef struct Stat {
    char *path;
    char *help;
    const uint64_t *ctr;
    uint64_t mark;
} Stat;

struct TmStats {
    Stat *v;
    size_t n, cap;
    /* paths -> index + 1 (0: empty), open addressing: a model
     * registers thousands of counters (per SM, per cache), and looking
     * each new path up among all before it was quadratic */
    uint32_t *slot;
    size_t nslot;               /* a power of two, or 0 */
};

TmStats *tm_stats_new(void)
{
    return calloc(1, sizeof(TmStats));
}

void tm_stats_free(TmStats *s)
{
    if (!s) {
        return;
    }
    for (size_t i = 0; i < s->n; i++) {
        free(s->v[i].path);
        free(s->v[i].help);
    }
    free(s->v);
    free(s->slot);
    free(s);
}

/* FNV-1a (Fowler, Noll, Vo), 64-bit. */
static uint64_t path_hash(const char *p)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *p; p++) {
        h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
    }
    return h;
}

/* The slot that holds path, or the empty one where it would go. */
static uint32_t *slot_of(const TmStats *s, const char *path)
{
    size_t m = s->nslot - 1, i = (size_t)path_hash(path) & m;
    while (s->slot[i] && strcmp(s->v[s->slot[i] - 1].path, path)) {
        i = (i + 1) & m;
    }
    return &s->slot[i];
}

/* Room for one more path in the index (kept at most half full). */
static int index_grow(TmStats *s)
{
    if (2 * (s->n + 1) <= s->nslot) {
        return 0;
    }
    size_t old = s->nslot, nn = old ? old * 2 : 64;
    uint32_t *keep = s->slot;
    s->slot = calloc(nn, sizeof *s->slot);
    if (!s->slot) {
        s->slot = keep;
        return -1;
    }
    s->nslot = nn;
    for (size_t i = 0; i < s->n; i++) {
        *slot_of(s, s->v[i].path) = (uint32_t)(i + 1);
    }
    free(keep);
    return 0;
}

static bool valid_path(const char *p)
{
    size_t n = strlen(p);
    if (!n || n > TM_STAT_MAX_PATH || p[0] == '.' || p[n - 1] == '.') {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (!isalnum(c) && c != '_' && c != '.' && c != '-') {
            return false;
        }
    }
    return true;
}

int tm_stats_add(TmStats *s, const char *path, const uint64_t *ctr,
                 const char *help)
{
    if (!path || !ctr || !valid_path(path)) {
        return TM_STATS_EINVAL;
    }
    if (s->n >= UINT32_MAX - 1 || index_grow(s) != 0) {
        return TM_STATS_ENOMEM;
    }
    uint32_t *slot = slot_of(s, path);
    if (*slot) {
        return TM_STATS_EDUP;
    }
    if (s->n == s->cap) {
        size_t ncap = s->cap ? s->cap * 2 : 32;
        Stat *v = realloc(s->v, ncap * sizeof(Stat));
        if (!v) {
            return TM_STATS_ENOMEM;
        }
        s->v = v;
        s->cap = ncap;
    }
    Stat *e = &s->v[s->n];
    e->path = strdup(path);
    e->help = strdup(help ? help : "");
    if (!e->path || !e->help) {
        free(e->path);
        free(e->help);
        return TM_STATS_ENOMEM;
    }
    e->ctr = ctr;
    e->mark = *ctr;
    *slot = (uint32_t)++s->n;
    return 0;
}

void tm_stats_mark(TmStats *s)
{
    for (size_t i = 0; i < s->n; i++) {
        s->v[i].mark = *s->v[i].ctr;
    }
}

size_t tm_stats_count(const TmStats *s)
{
    return s->n;
}

const char *tm_stats_name(const TmStats *s, size_t k)
{
    return k < s->n ? s->v[k].path : NULL;
}

const char *tm_stats_help(const TmStats *s, size_t k)
{
    return k < s->n ? s->v[k].help : NULL;
}

uint64_t tm_stats_delta(const TmStats *s, size_t k)
{
    return k < s->n ? *s->v[k].ctr - s->v[k].mark : 0;
}

void tm_json_string(FILE *o, const char *s)
{
    fputc('"', o);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            fprintf(o, "\\%c", c);
        } else if (c < 0x20) {
            fprintf(o, "\\u%04x", c);
        } else {
            fputc(c, o);
        }
    }
    fputc('"', o);
}

void tm_stats_json(const TmStats *s, FILE *out)
{
    fputc('{', out);
    for (size_t i = 0; i < s->n; i++) {
        /* Paths are checked at registration: no escaping needed. */
        fprintf(out, "%s\"%s\": %" PRIu64, i ? ", " : "", s->v[i].path,
                tm_stats_delta(s, i));
    }
    fputc('}', out);
}
