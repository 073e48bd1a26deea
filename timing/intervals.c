/*
 * timing/intervals.c: per-interval CSV time series of a model's counters
 * (contract and attribution rules in intervals.h).
 */
#include "timing/intervals.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct TmIntervals {
    FILE *out;
    char *path;
    uint64_t n;                   /* cycles per row */
    uint64_t launches;
    size_t header_cols;           /* counters named by the last header */
    bool header;                  /* a header has been written */
};

TmIntervals *tm_intervals_open(const char *path, uint64_t n, char *err,
                               size_t errlen)
{
    TmIntervals *iv = calloc(1, sizeof(*iv));
    if (!iv || !(iv->path = strdup(path))) {
        free(iv);
        tm_seterr(err, errlen, "out of memory");
        return NULL;
    }
    iv->out = fopen(path, "w");
    if (!iv->out) {
        tm_seterr(err, errlen, "%s: %s", path, strerror(errno));
        free(iv->path);
        free(iv);
        return NULL;
    }
    iv->n = n ? n : 1;
    return iv;
}

void tm_intervals_close(TmIntervals *iv)
{
    if (!iv) {
        return;
    }
    if (ferror(iv->out) | (fclose(iv->out) != 0)) {
        fprintf(stderr, "ptxemu: --stats-csv %s: write error\n", iv->path);
    }
    free(iv->path);
    free(iv);
}

uint64_t tm_intervals_length(const TmIntervals *iv)
{
    return iv->n;
}

/* Make room for the counters registered so far (new ones start at 0:
 * their deltas count from their registration). */
static bool grow(TmIvRun *r, const TmStats *st)
{
    size_t n = tm_stats_count(st);
    if (n <= r->nc) {
        return !r->nomem;
    }
    if (n > r->cap) {
        size_t cap = n + 16;
        uint64_t *p = realloc(r->prev, cap * sizeof(*p));
        if (p) {
            r->prev = p;
        }
        uint64_t *a = p ? realloc(r->acc, cap * sizeof(*a)) : NULL;
        if (!a) {
            r->nomem = true;
            return false;
        }
        r->acc = a;
        r->cap = cap;
    }
    memset(r->prev + r->nc, 0, (n - r->nc) * sizeof(*r->prev));
    memset(r->acc + r->nc, 0, (n - r->nc) * sizeof(*r->acc));
    r->nc = n;
    return true;
}

/* The kernel name as one CSV field. */
static void csv_field(FILE *o, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, o);
        return;
    }
    fputc('"', o);
    for (; *s; s++) {
        if (*s == '"') {
            fputc('"', o);
        }
        fputc(*s, o);
    }
    fputc('"', o);
}

/* Write row r->row of `len` cycles and open the next. */
static void flush_row(TmIntervals *iv, TmIvRun *r, const TmStats *st,
                      uint64_t len)
{
    FILE *o = iv->out;
    if (!iv->header || iv->header_cols != r->nc) {
        fputs("kernel,launch,cycle,cycles", o);
        for (size_t k = 0; k < r->nc; k++) {
            fprintf(o, ",%s", tm_stats_name(st, k));
        }
        fputc('\n', o);
        iv->header = true;
        iv->header_cols = r->nc;
    }
    csv_field(o, r->kernel);
    fprintf(o, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, r->launch,
            r->begin + r->row * iv->n, len);
    for (size_t k = 0; k < r->nc; k++) {
        fprintf(o, ",%" PRIu64, r->acc[k]);
        r->acc[k] = 0;
    }
    fputc('\n', o);
    r->row++;
}

void tm_iv_begin(TmIntervals *iv, TmIvRun *r, const TmStats *st,
                 const char *kernel, uint64_t begin)
{
    memset(r, 0, sizeof(*r));
    r->kernel = kernel;
    r->launch = iv->launches++;
    r->begin = r->at = begin;
    grow(r, st);
}

void tm_iv_rebase(TmIvRun *r, const TmStats *st)
{
    if (!grow(r, st)) {
        return;
    }
    for (size_t k = 0; k < r->nc; k++) {
        r->prev[k] = tm_stats_delta(st, k);
    }
}

void tm_iv_advance(TmIntervals *iv, TmIvRun *r, const TmStats *st,
                   uint64_t now)
{
    if (!grow(r, st)) {
        return;
    }
    if (now <= r->at) {           /* no time passed: the open row */
        for (size_t k = 0; k < r->nc; k++) {
            uint64_t v = tm_stats_delta(st, k);
            r->acc[k] += v - r->prev[k];
            r->prev[k] = v;
        }
        return;
    }
    const uint64_t n = iv->n, a = r->at, len = now - a;
    const uint64_t first = (a - r->begin) / n;
    const uint64_t last = (now - 1 - r->begin) / n;
    while (r->row < first) {      /* a ended the open row exactly */
        flush_row(iv, r, st, n);
    }
    if (first == last) {
        for (size_t k = 0; k < r->nc; k++) {
            uint64_t v = tm_stats_delta(st, k);
            r->acc[k] += v - r->prev[k];
            r->prev[k] = v;
        }
        r->at = now;
        return;
    }
    /* Spread each gain over rows first..last by their share of [a, now)
     * (intervals.h); g * C fits 128 bits. */
    uint64_t *gain = r->prev;     /* reused: gains, then the new deltas */
    for (size_t k = 0; k < r->nc; k++) {
        gain[k] = tm_stats_delta(st, k) - r->prev[k];
    }
    uint64_t cum_prev = 0;
    for (uint64_t j = first; j <= last; j++) {
        uint64_t row_end = r->begin + (j + 1) * n;
        uint64_t cum = (row_end < now ? row_end : now) - a;
        for (size_t k = 0; k < r->nc; k++) {
            unsigned __int128 g = gain[k];
            r->acc[k] += (uint64_t)(g * cum / len - g * cum_prev / len);
        }
        cum_prev = cum;
        if (j < last) {
            flush_row(iv, r, st, n);
        }
    }
    for (size_t k = 0; k < r->nc; k++) {
        r->prev[k] = tm_stats_delta(st, k);
    }
    r->at = now;
}

void tm_iv_end(TmIntervals *iv, TmIvRun *r, const TmStats *st,
               uint64_t end)
{
    tm_iv_advance(iv, r, st, end);
    if (!r->nomem) {
        uint64_t start = r->begin + r->row * iv->n;
        flush_row(iv, r, st, end > start ? end - start : 0);
        fflush(iv->out);
    } else {
        fprintf(stderr, "ptxemu: --stats-csv: out of memory; kernel '%s' "
                "left out\n", r->kernel);
    }
    free(r->prev);
    free(r->acc);
    r->prev = r->acc = NULL;
    r->nc = r->cap = 0;
}
