/*
 * timing/progress.c: the progress line of timed kernels (progress.h).
 *
 * Line shapes (tests/timing_stats.test holds them):
 *   ptxemu: NAME: 1.23M cycles, 4.56M warp insns, 2.1M cycles/s,
 *           7.8M insns/s, CTAs 12/100 (12%), ETA 3.4 s
 *   ptxemu: NAME done: 1234567 cycles, 456789 warp insns, IPC 0.37,
 *           0.52 s (2.4M cycles/s, 0.88M insns/s)
 * (each on one line; the CTA part only when the grid's size is known).
 */
#include "timing/progress.h"

#include <stdlib.h>
#include <time.h>

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void tm_progress_init(TmProgress *p, FILE *out, bool tty)
{
    p->out = out;
    p->tty = tty;
    p->period = tty ? TM_PROGRESS_TTY_S : TM_PROGRESS_LOG_S;
    const char *v = getenv("PTXEMU_PROGRESS_PERIOD");
    if (v && *v) {
        char *end;
        double d = strtod(v, &end);
        if (!*end && d >= 0 && d < 1e6) {
            p->period = d;
        }
    }
}

void tm_progress_begin(const TmProgress *p, TmProgRun *r,
                       const char *kernel, uint64_t begin, uint64_t nctas)
{
    (void)p;
    r->kernel = kernel;
    r->begin = begin;
    r->nctas = nctas;
    r->check_cycle = begin + TM_PROGRESS_CHECK;
    r->check_insns = TM_PROGRESS_CHECK;
    r->t0 = r->last = wall();
    r->shown = false;
}

/* x with an SI suffix, 3 significant digits ("1.23M"). */
static const char *si(char *buf, size_t len, double x)
{
    static const char suf[] = " kMGTPE";
    int k = 0;
    while (x >= 999.5 && k < 6) {
        x /= 1000;
        k++;
    }
    if (k == 0) {
        snprintf(buf, len, "%.0f", x);
    } else {
        snprintf(buf, len, "%.3g%c", x, suf[k]);
    }
    return buf;
}

void tm_progress_update(const TmProgress *p, TmProgRun *r, uint64_t now,
                        uint64_t insns, uint64_t ctas_done)
{
    r->check_cycle = now + TM_PROGRESS_CHECK;
    r->check_insns = insns + TM_PROGRESS_CHECK;
    double t = wall();
    if (t - r->last < p->period) {
        return;
    }
    r->last = t;
    double el = t - r->t0 > 1e-9 ? t - r->t0 : 1e-9;
    uint64_t cyc = now - r->begin;
    char a[16], b[16], c[16], d[16];
    fprintf(p->out, "%sptxemu: %s: %s cycles, %s warp insns, %s cycles/s, "
            "%s insns/s", p->tty ? "\r\033[K" : "", r->kernel,
            si(a, sizeof a, (double)cyc), si(b, sizeof b, (double)insns),
            si(c, sizeof c, (double)cyc / el),
            si(d, sizeof d, (double)insns / el));
    if (r->nctas) {
        fprintf(p->out, ", CTAs %llu/%llu (%.0f%%)",
                (unsigned long long)ctas_done, (unsigned long long)r->nctas,
                100.0 * (double)ctas_done / (double)r->nctas);
        if (ctas_done) {
            fprintf(p->out, ", ETA %.1f s", el * (double)(r->nctas -
                    ctas_done) / (double)ctas_done);
        }
    }
    fputs(p->tty ? "" : "\n", p->out);
    fflush(p->out);
    r->shown = p->tty;
}

void tm_progress_end(const TmProgress *p, TmProgRun *r, uint64_t now,
                     uint64_t insns, uint64_t ctas_done, bool ok)
{
    double el = wall() - r->t0;
    double div = el > 1e-9 ? el : 1e-9;
    uint64_t cyc = now - r->begin;
    char c[16], d[16];
    fprintf(p->out, "%sptxemu: %s %s: %llu cycles, %llu warp insns, "
            "IPC %.2f, %.2f s (%s cycles/s, %s insns/s)",
            r->shown ? "\r\033[K" : "", r->kernel, ok ? "done" : "failed",
            (unsigned long long)cyc, (unsigned long long)insns,
            cyc ? (double)insns / (double)cyc : 0.0, el,
            si(c, sizeof c, (double)cyc / div),
            si(d, sizeof d, (double)insns / div));
    if (!ok && r->nctas) {
        fprintf(p->out, ", CTAs %llu/%llu", (unsigned long long)ctas_done,
                (unsigned long long)r->nctas);
    }
    fputc('\n', p->out);
    fflush(p->out);
    r->shown = false;
}
