/*
 * bench/micro/geom.c: mb_geom_infer (the method is in geom.h).
 */
#include "geom.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

static int fail(char *why, size_t len, const char *fmt, ...)
{
    if (why && len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, len, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int mb_geom_infer(const MbPoint *p, size_t n, double tol, MbGeom *out,
                  char *why, size_t whylen)
{
    if (n < 4) {
        return fail(why, whylen, "%zu points: too few", n);
    }
    for (size_t i = 1; i < n; i++) {
        if (p[i].footprint <= p[i - 1].footprint) {
            return fail(why, whylen, "footprints not increasing at %llu",
                        (unsigned long long)p[i].footprint);
        }
    }
    /* A step is a rise between neighbouring samples of at least half the
     * largest such rise (and more than tol): when a set overflows, all
     * of its lines start missing at once.  Between steps the curve only
     * wobbles: each further sample adds a load or two to an overflowing
     * set, a miss or a spatial hit in a line just loaded. */
    double maxrise = 0;
    for (size_t i = 1; i < n; i++) {
        double r = p[i].latency - p[i - 1].latency;
        maxrise = r > maxrise ? r : maxrise;
    }
    if (maxrise <= tol) {
        return fail(why, whylen, "the latency never rises above %.2f "
                    "(the cache is larger than the sweep)", p[0].latency);
    }
    double thresh = maxrise / 2 > tol ? maxrise / 2 : tol;
    uint64_t at[4096];
    size_t nsteps = 0, first = 0, last = 0;
    for (size_t i = 1; i < n; i++) {
        double r = p[i].latency - p[i - 1].latency;
        if (r < -thresh) {
            return fail(why, whylen, "the latency falls at %llu bytes "
                        "(not an LRU set-associative cache?)",
                        (unsigned long long)p[i].footprint);
        }
        if (r > thresh) {
            if (nsteps == sizeof at / sizeof at[0]) {
                return fail(why, whylen, "more than %zu steps", nsteps);
            }
            first = nsteps ? first : i;
            last = i;
            at[nsteps++] = p[i].footprint;
        }
    }
    /* The plateau: at least two samples after the last step, level
     * within thresh. */
    double lo = p[last].latency, hi = lo;
    for (size_t i = last; i < n; i++) {
        lo = p[i].latency < lo ? p[i].latency : lo;
        hi = p[i].latency > hi ? p[i].latency : hi;
    }
    if (n - last < 3 || hi - lo > thresh) {
        return fail(why, whylen, "no plateau: the latency still rises at "
                    "the largest footprint (%llu)",
                    (unsigned long long)p[n - 1].footprint);
    }
    size_t c = first - 1;
    double base = p[0].latency, top = p[n - 1].latency;
    uint64_t line = nsteps >= 2 ? at[1] - at[0] : 0;
    if (nsteps == 1) {
        /* One set (fully associative): the width of the step is not
         * visible; every point past the capacity misses. */
        line = 0;
    }
    for (size_t k = 2; k < nsteps; k++) {
        if (at[k] - at[k - 1] != line) {
            return fail(why, whylen, "steps of uneven width (%llu then "
                        "%llu bytes)", (unsigned long long)line,
                        (unsigned long long)(at[k] - at[k - 1]));
        }
    }
    uint64_t sample = p[c + 1].footprint - p[c].footprint;
    if (nsteps >= 2 && sample > line) {
        return fail(why, whylen, "footprint step %llu wider than the line "
                    "(%llu)", (unsigned long long)sample,
                    (unsigned long long)line);
    }
    uint64_t cap = p[c].footprint;
    out->capacity = cap;
    out->line = line;
    out->sets = nsteps;
    out->hit = base;
    out->plateau = top;
    if (nsteps >= 2) {
        uint64_t way = nsteps * line;
        if (cap % way) {
            return fail(why, whylen, "capacity %llu is not a multiple of "
                        "the way size %llu", (unsigned long long)cap,
                        (unsigned long long)way);
        }
        out->ways = cap / way;
    } else {
        out->ways = 0; /* fully associative: entries = capacity / line,
                          and the line is not measurable this way */
    }
    return 0;
}
