/*
 * runtime/cmd_plot.c: `ptxemu plot [options] FILE.csv`, pictures of the
 * per-interval statistics of a timed run (`--stats-interval`).
 *
 * The counters are found by the naming convention of timing/README.md
 * ("Naming statistics"), so any model that follows it is drawn:
 *  - ipc:       warp instructions per cycle of each SM (<m>.smN.issued
 *               over the interval's cycles) and of the device; one line
 *               per SM up to PLOT_SM_LINES SMs, a heat map above;
 *  - stalls:    the scheduler cycles of each interval, stacked: issued
 *               (<m>.issued) then each <m>.stall.<reason>, as fractions;
 *  - occupancy: resident warps per SM (<m>.smN.warps_resident over
 *               cycles): the mean over SMs, the least and the most;
 *  - memory:    when <m>.mem.<level>.bytes counters exist, bytes per
 *               cycle per level; with .requests and .latency, the mean
 *               latency per level.
 * In these pictures over device cycles a dashed vertical line marks
 * where each launch begins, labelled with its kernel's name (the first
 * PLOT_KERNEL_LABELS; lines for the first PLOT_KERNEL_LINES launches).
 * Each picture is drawn by gnuplot (Debian package gnuplot-nox; the
 * pngcairo and svg terminals) from data files and a script written to a
 * temporary directory; --gnuplot PATH names another gnuplot.  Without
 * gnuplot: a message and exit status 1.  Output: PREFIX-NAME.png and
 * PREFIX-NAME.svg (PREFIX: the CSV's path less ".csv", or -o PREFIX).
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/gnuplot.h"
#include "runtime/statcsv.h"

int cmd_plot(int argc, char **argv);

#define PLOT_SM_LINES 16
#define PLOT_KERNEL_LINES 256
#define PLOT_KERNEL_LABELS 24

static void plot_usage(FILE *out)
{
    fprintf(out,
        "usage: ptxemu plot [-o PREFIX] [--format png|svg|both] "
        "[--model NAME]\n"
        "                   [FILE.csv] [--stats FILE.json]\n"
        "\n"
        "Draw the per-interval statistics of a timed run (the CSV of "
        "--stats-interval)\n"
        "with gnuplot: PREFIX-ipc (IPC over time per SM), PREFIX-stalls "
        "(issue slots\n"
        "by stall reason, stacked), PREFIX-occupancy (resident warps per "
        "SM) and,\n"
        "when the model counts memory traffic "
        "(<model>.mem.<level>.bytes),\n"
        "PREFIX-memory.  Counters are found by name (timing/README.md).\n"
        "With --stats FILE.json (--stats of a timed run), PREFIX-kernels: "
        "IPC and\n"
        "stall reasons per kernel.\n"
        "\n"
        "  -o, --out PREFIX    output files' prefix (default FILE less "
        ".csv or .json)\n"
        "  --stats FILE.json   also (or only) the per-kernel picture\n"
        "  --format F          png, svg or both (default both)\n"
        "  --model NAME        the model whose counters to draw (default: "
        "the one\n"
        "                      named by the first <model>.smN.issued "
        "column)\n"
        "  --gnuplot PATH      the gnuplot to run (default: gnuplot, "
        "found on PATH)\n"
        "  -h, --help          this text\n"
        "\n"
        "Needs gnuplot (Debian: apt-get install gnuplot-nox).\n"
        "Exit status: 0 pictures written, 1 bad input or no gnuplot, 2 "
        "usage errors.\n");
}

/* The model prefix: the first column "<m>.sm<digits>.issued". */
static char *find_model(const StatCsv *c)
{
    for (size_t k = 0; k < c->ncols; k++) {
        const char *n = c->cols[k], *d = strstr(n, ".sm");
        if (!d || d == n) {
            continue;
        }
        const char *p = d + 3;
        if (*p < '0' || *p > '9') {
            continue;
        }
        while (*p >= '0' && *p <= '9') {
            p++;
        }
        if (!strcmp(p, ".issued") && !memchr(n, '.', (size_t)(d - n))) {
            return strndup(n, (size_t)(d - n));
        }
    }
    return NULL;
}

/* Columns named prefix + X + suffix (X non-empty, no '.'), in order. */
static size_t cols_like(const StatCsv *c, const char *prefix,
                        const char *suffix, long *out, char **names)
{
    size_t n = 0, lp = strlen(prefix), ls = strlen(suffix);
    for (size_t k = 0; k < c->ncols; k++) {
        const char *s = c->cols[k];
        size_t l = strlen(s);
        if (l <= lp + ls || strncmp(s, prefix, lp) ||
            strcmp(s + l - ls, suffix)) {
            continue;
        }
        if (memchr(s + lp, '.', l - lp - ls)) {
            continue;
        }
        out[n] = (long)k;
        if (names) {
            names[n] = strndup(s + lp, l - lp - ls);
        }
        n++;
    }
    return n;
}

typedef struct Plot {
    const StatCsv *c;
    const char *dir;              /* temporary directory */
    const char *prefix;           /* output prefix */
    bool png, svg;
    FILE *gp;                     /* the script */
    char **written;               /* output files, for the report */
    size_t nwritten;
    char *marks;                  /* gnuplot lines: kernel boundaries */
} Plot;

/* The gnuplot commands that mark each launch's first cycle in c: a
 * dashed line and, for the first ones, the kernel's name along it.
 * NULL when out of memory (the pictures go without). */
static char *kernel_marks(const StatCsv *c)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&buf, &len);
    if (!o) {
        return NULL;
    }
    size_t n = 0;
    if (c->nrows) { /* from the first kernel's start to the last's end */
        fprintf(o, "set xrange [%llu:%llu]\n",
                (unsigned long long)c->cycle[0],
                (unsigned long long)(c->cycle[c->nrows - 1] +
                                     c->cycles[c->nrows - 1]));
    }
    for (size_t r = 0; r < c->nrows && n < PLOT_KERNEL_LINES; r++) {
        if (r && c->launch[r] == c->launch[r - 1]) {
            continue;
        }
        n++;
        fprintf(o, "set arrow from %llu, graph 0 to %llu, graph 1 nohead "
                "dt 2 lc rgb 'gray40' front\n",
                (unsigned long long)c->cycle[r],
                (unsigned long long)c->cycle[r]);
        if (n <= PLOT_KERNEL_LABELS && c->kernel && c->kernel[r]) {
            char name[48];
            snprintf(name, sizeof name, "%.40s", c->kernel[r]);
            fprintf(o, "set label ");
            gp_quote(o, name);
            fprintf(o, " at %llu, graph 0.98 rotate by 90 right offset "
                    "char 1,0 tc rgb 'gray30' font ',9' front\n",
                    (unsigned long long)c->cycle[r]);
        }
    }
    if (fclose(o) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

static FILE *data_file(const Plot *p, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.dat", p->dir, name);
    return fopen(path, "w");
}

/* Terminal and output for picture `name` in each format, then `body`
 * (the plot command, run once per format). */
static void picture(Plot *p, const char *name, const char *setup,
                    const char *body)
{
    const char *fmts[2] = {p->png ? "png" : NULL, p->svg ? "svg" : NULL};
    for (int f = 0; f < 2; f++) {
        if (!fmts[f]) {
            continue;
        }
        char out[4096];
        snprintf(out, sizeof out, "%s-%s.%s", p->prefix, name, fmts[f]);
        /* noenhanced: counter names keep their underscores */
        fprintf(p->gp, "reset\nset terminal %s noenhanced size 1000,600%s\n",
                f ? "svg" : "pngcairo",
                f ? " dynamic background rgb 'white'" : "");
        fprintf(p->gp, "set output ");
        gp_quote(p->gp, out);
        fprintf(p->gp, "\ncd ");
        gp_quote(p->gp, p->dir);
        /* every picture but the per-kernel bars runs over device
         * cycles: mark the kernels' boundaries */
        const char *marks = strcmp(name, "kernels") && p->marks ? p->marks
                                                                : "";
        fprintf(p->gp, "\nset grid\nset key outside right\n"
                "set xlabel 'device cycle'\nset autoscale xfix\n%s%s\n"
                "%s\nunset output\n", marks, setup, body);
        char **w = realloc(p->written, (p->nwritten + 1) * sizeof(*w));
        if (w) {
            p->written = w;
            w[p->nwritten] = strdup(out);
            p->nwritten += w[p->nwritten] != NULL;
        }
    }
}

static double mid(const StatCsv *c, size_t r)
{
    return (double)c->cycle[r] + (double)c->cycles[r] / 2;
}

static int plot_ipc(Plot *p, const char *m)
{
    const StatCsv *c = p->c;
    char pre[300];
    snprintf(pre, sizeof pre, "%s.sm", m);
    long *sm = calloc(c->ncols + 1, sizeof(long));
    if (!sm) {
        return -1;
    }
    size_t n = cols_like(c, pre, ".issued", sm, NULL);
    FILE *d = data_file(p, "ipc");
    if (!d) {
        free(sm);
        return -1;
    }
    for (size_t r = 0; r < c->nrows; r++) {
        if (!c->cycles[r]) {
            continue;
        }
        double cyc = (double)c->cycles[r], all = 0;
        for (size_t k = 0; k < n; k++) {
            all += (double)statcsv_at(c, r, (size_t)sm[k]);
        }
        fprintf(d, "%.1f %.6g", mid(c, r), all / cyc);
        for (size_t k = 0; k < n; k++) {
            fprintf(d, " %.6g", (double)statcsv_at(c, r, (size_t)sm[k]) / cyc);
        }
        fputc('\n', d);
    }
    fclose(d);
    char *body = NULL;
    size_t len = 0;
    FILE *b = open_memstream(&body, &len);
    if (!b) {
        free(sm);
        return -1;
    }
    if (n <= PLOT_SM_LINES) {
        fprintf(b, "plot 'ipc.dat' using 1:2 with lines lw 2 title 'device'");
        for (size_t k = 0; k < n; k++) {
            fprintf(b, ", '' using 1:%zu with lines title '%s'", k + 3,
                    c->cols[sm[k]] + strlen(m) + 1);
        }
    } else {
        /* a heat map: one box per interval and SM */
        FILE *h = data_file(p, "ipcmap");
        if (!h) {
            fclose(b);
            free(body);
            free(sm);
            return -1;
        }
        for (size_t r = 0; r < c->nrows; r++) {
            if (!c->cycles[r]) {
                continue;
            }
            for (size_t k = 0; k < n; k++) {
                fprintf(h, "%.1f %.1f %zu %.6g\n", mid(c, r),
                        (double)c->cycles[r] / 2, k,
                        (double)statcsv_at(c, r, (size_t)sm[k]) /
                        (double)c->cycles[r]);
            }
        }
        fclose(h);
        fprintf(b, "set ylabel 'SM'\nset cblabel 'IPC'\nset yrange [-0.5:%zu.5]\n"
                "set palette rgb 33,13,10\n"
                "plot 'ipcmap.dat' using 1:3:2:(0.5):4 with boxxyerror "
                "fs solid noborder lc palette notitle", n - 1);
    }
    fclose(b);
    char setup[512];
    snprintf(setup, sizeof setup, "set title 'IPC (warp instructions per "
             "cycle) per SM, %s'\nset ylabel 'IPC'", m);
    picture(p, "ipc", setup, body);
    free(body);
    free(sm);
    return 0;
}

/* Distinct colours for stacked layers (Tableau 20), cycled. */
static const char *const layer_rgb[] = {
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
    "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#aec7e8", "#ffbb78",
    "#98df8a", "#ff9896", "#c5b0d5", "#c49c94", "#f7b6d2", "#c7c7c7",
    "#dbdb8d", "#9edae5",
};
#define NLAYER_RGB (sizeof layer_rgb / sizeof layer_rgb[0])

/* Layers: <m>.issued (unless the model counts its issue cycles as the
 * stall reason `selected`, Nsight's name), then each <m>.stall.*. */
static size_t stall_layers(const StatCsv *c, const char *m, long *col,
                           char **names)
{
    char pre[300];
    size_t n = 0;
    snprintf(pre, sizeof pre, "%s.stall.selected", m);
    bool selected = statcsv_col(c, pre) >= 0;
    snprintf(pre, sizeof pre, "%s.issued", m);
    if (!selected && (col[0] = statcsv_col(c, pre)) >= 0) {
        names[n++] = strdup("issued");
    }
    snprintf(pre, sizeof pre, "%s.stall.", m);
    size_t ns = cols_like(c, pre, "", col + n, names + n);
    return ns ? n + ns : n;
}

static void free_names(char **names, size_t n)
{
    for (size_t k = 0; names && k < n; k++) {
        free(names[k]);
    }
    free(names);
}

static int plot_stalls(Plot *p, const char *m)
{
    const StatCsv *c = p->c;
    long *col = calloc(c->ncols + 2, sizeof(long));
    char **names = calloc(c->ncols + 2, sizeof(char *));
    size_t n = 0;
    int rc = -1;
    if (!col || !names) {
        goto out;
    }
    n = stall_layers(c, m, col, names);
    if (n < 2) {
        rc = 0;                   /* no stall counters: no picture */
        goto out;
    }
    FILE *d = data_file(p, "stalls");
    if (!d) {
        goto out;
    }
    for (size_t r = 0; r < c->nrows; r++) {
        double tot = 0, cum = 0;
        for (size_t k = 0; k < n; k++) {
            tot += (double)statcsv_at(c, r, (size_t)col[k]);
        }
        if (!c->cycles[r] || tot == 0) {
            continue;
        }
        fprintf(d, "%.1f", mid(c, r));
        for (size_t k = 0; k < n; k++) {
            cum += (double)statcsv_at(c, r, (size_t)col[k]);
            fprintf(d, " %.6g", cum / tot);
        }
        fputc('\n', d);
    }
    fclose(d);
    char *body = NULL;
    size_t len = 0;
    FILE *b = open_memstream(&body, &len);
    if (!b) {
        goto out;
    }
    fprintf(b, "plot ");
    for (size_t k = 0; k < n; k++) {
        fprintf(b, "%s'stalls.dat' using 1:", k ? ", " : "");
        if (k) {
            fprintf(b, "%zu", k + 1);
        } else {
            fprintf(b, "(0)");
        }
        fprintf(b, ":%zu with filledcurves fs solid lc rgb '%s' title ",
                k + 2, layer_rgb[k % NLAYER_RGB]);
        gp_quote(b, names[k] ? names[k] : "?");
    }
    fclose(b);
    char setup[512];
    snprintf(setup, sizeof setup, "set title 'scheduler cycles: issued "
             "or stalled, by reason (%s)'\nset ylabel 'fraction of "
             "scheduler cycles'\nset yrange [0:1]", m);
    picture(p, "stalls", setup, body);
    free(body);
    rc = 0;
out:
    free_names(names, n);
    free(col);
    return rc;
}

/* From the --stats JSON, a bar per kernel: its IPC, and its scheduler
 * cycles by stall reason (as plot_stalls' layers). */
static int plot_kernels(Plot *p, const char *m)
{
    const StatCsv *c = p->c;
    long *col = calloc(c->ncols + 2, sizeof(long));
    char **names = calloc(c->ncols + 2, sizeof(char *));
    char ipcname[300];
    snprintf(ipcname, sizeof ipcname, "%s.issued", m);
    long issued = statcsv_col(c, ipcname);
    size_t n = col && names ? stall_layers(c, m, col, names) : 0;
    FILE *d = col && names ? data_file(p, "kernels") : NULL;
    if (!d) {
        free_names(names, n);
        free(col);
        return -1;
    }
    for (size_t r = 0; r < c->nrows; r++) {
        /* names as gnuplot reads a quoted field: no quote, no blank */
        char label[48];
        snprintf(label, sizeof label, "%.40s", c->kernel[r]);
        for (char *q = label; *q; q++) {
            if (*q == '"' || *q == ' ' || *q == '\t' || *q == '\\') {
                *q = '_';
            }
        }
        double tot = 0;
        for (size_t k = 0; k < n; k++) {
            tot += (double)statcsv_at(c, r, (size_t)col[k]);
        }
        fprintf(d, "\"%s\" %.6g", label, c->cycles[r] && issued >= 0
                ? (double)statcsv_at(c, r, (size_t)issued) /
                  (double)c->cycles[r] : 0.0);
        for (size_t k = 0; k < n; k++) {
            fprintf(d, " %.6g", tot > 0 ? (double)statcsv_at(c, r,
                    (size_t)col[k]) / tot : 0.0);
        }
        fputc('\n', d);
    }
    fclose(d);
    char *body = NULL;
    size_t len = 0;
    FILE *b = open_memstream(&body, &len);
    if (!b) {
        free_names(names, n);
        free(col);
        return -1;
    }
    /* labels only while they can be read */
    const char *xtic = c->nrows <= 40 ? ":xtic(1)" : "";
    fprintf(b, "set multiplot layout %d,1\nset style fill solid 1 border -1\n"
            "set xtics rotate by -30\nset xlabel\nset ylabel 'IPC'\n"
            "set boxwidth 0.8\nset yrange [0:*]\n"
            "plot 'kernels.dat' using 0:2%s with boxes lc rgb '%s' notitle\n",
            n ? 2 : 1, xtic, layer_rgb[0]);
    if (n) {
        fprintf(b, "set title 'scheduler cycles by stall reason'\n"
                "set ylabel 'fraction'\nset yrange [0:1]\n"
                "set style data histograms\n"
                "set style histogram rowstacked\nplot ");
        for (size_t k = 0; k < n; k++) {
            fprintf(b, "%s'kernels.dat' using %zu%s lc rgb '%s' title ",
                    k ? ", " : "", k + 3, k ? "" : xtic,
                    layer_rgb[k % NLAYER_RGB]);
            gp_quote(b, names[k] ? names[k] : "?");
            fputs("", b);
        }
        fputc('\n', b);
    }
    fprintf(b, "unset multiplot");
    fclose(b);
    char setup[512];
    snprintf(setup, sizeof setup, "set title 'IPC per kernel (%zu "
             "kernels, %s)'\nset autoscale xfix\nset offsets 0.5,0.5,0,0",
             c->nrows, m);
    picture(p, "kernels", setup, body);
    free(body);
    free_names(names, n);
    free(col);
    return 0;
}

static int plot_occupancy(Plot *p, const char *m)
{
    const StatCsv *c = p->c;
    char pre[300];
    snprintf(pre, sizeof pre, "%s.sm", m);
    long *w = calloc(c->ncols + 1, sizeof(long));
    size_t n = w ? cols_like(c, pre, ".warps_resident", w, NULL) : 0;
    FILE *d = n ? data_file(p, "occupancy") : NULL;
    if (!d) {
        free(w);
        return n ? -1 : 0;
    }
    for (size_t r = 0; r < c->nrows; r++) {
        if (!c->cycles[r]) {
            continue;
        }
        double cyc = (double)c->cycles[r], sum = 0, lo = 1e300, hi = 0;
        for (size_t k = 0; k < n; k++) {
            double v = (double)statcsv_at(c, r, (size_t)w[k]) / cyc;
            sum += v;
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
        fprintf(d, "%.1f %.6g %.6g %.6g\n", mid(c, r), sum / (double)n, lo,
                hi);
    }
    fclose(d);
    char setup[512];
    snprintf(setup, sizeof setup, "set title 'resident warps per SM "
             "(%zu SMs, %s)'\nset ylabel 'warps'\nset yrange [0:*]", n, m);
    picture(p, "occupancy", setup,
            "plot 'occupancy.dat' using 1:3:4 with filledcurves fs "
            "transparent solid 0.3 title 'least to most', '' using 1:2 "
            "with lines lw 2 title 'mean'");
    free(w);
    return 0;
}

static int plot_memory(Plot *p, const char *m)
{
    const StatCsv *c = p->c;
    char pre[300];
    long *by = calloc(c->ncols + 1, sizeof(long));
    char **lv = calloc(c->ncols + 1, sizeof(char *));
    /* the model's own levels, else the memory system's (mem.<level>) */
    snprintf(pre, sizeof pre, "%s.mem.", m);
    size_t n = by && lv ? cols_like(c, pre, ".bytes", by, lv) : 0;
    if (!n && by && lv) {
        snprintf(pre, sizeof pre, "mem.");
        n = cols_like(c, pre, ".bytes", by, lv);
    }
    long *req = calloc(n + 1, sizeof(long)), *lat = calloc(n + 1,
                                                           sizeof(long));
    FILE *d = n && req && lat ? data_file(p, "memory") : NULL;
    int rc = n ? -1 : 0;
    if (!d) {
        goto out;
    }
    bool any_lat = false;
    for (size_t k = 0; k < n; k++) {
        char name[600];
        snprintf(name, sizeof name, "%s%s.requests", pre, lv[k]);
        req[k] = statcsv_col(c, name);
        snprintf(name, sizeof name, "%s%s.latency", pre, lv[k]);
        lat[k] = statcsv_col(c, name);
        any_lat |= req[k] >= 0 && lat[k] >= 0;
    }
    for (size_t r = 0; r < c->nrows; r++) {
        if (!c->cycles[r]) {
            continue;
        }
        fprintf(d, "%.1f", mid(c, r));
        for (size_t k = 0; k < n; k++) {
            double rq = req[k] >= 0 ? (double)statcsv_at(c, r, (size_t)req[k])
                                    : 0;
            fprintf(d, " %.6g", (double)statcsv_at(c, r, (size_t)by[k]) /
                    (double)c->cycles[r]);
            if (lat[k] >= 0 && rq > 0) {
                fprintf(d, " %.6g", (double)statcsv_at(c, r, (size_t)lat[k]) /
                        rq);
            } else {
                fprintf(d, " NaN");
            }
        }
        fputc('\n', d);
    }
    fclose(d);
    char *body = NULL;
    size_t len = 0;
    FILE *b = open_memstream(&body, &len);
    if (!b) {
        goto out;
    }
    fprintf(b, "set multiplot layout %d,1\nset ylabel 'bytes per cycle'\n"
            "plot ", any_lat ? 2 : 1);
    for (size_t k = 0; k < n; k++) {
        fprintf(b, "%s'memory.dat' using 1:%zu with lines title '%s'",
                k ? ", " : "", 2 * k + 2, lv[k]);
    }
    if (any_lat) {
        fprintf(b, "\nset title 'mean latency'\nset ylabel 'cycles'\nplot ");
        bool first = true;
        for (size_t k = 0; k < n; k++) {
            if (req[k] >= 0 && lat[k] >= 0) {
                fprintf(b, "%s'memory.dat' using 1:%zu with linespoints title "
                        "'%s'", first ? "" : ", ", 2 * k + 3, lv[k]);
                first = false;
            }
        }
    }
    fprintf(b, "\nunset multiplot");
    fclose(b);
    char setup[512];
    snprintf(setup, sizeof setup, "set title 'memory bandwidth per level "
             "(%s)'", m);
    picture(p, "memory", setup, body);
    free(body);
    rc = 0;
out:
    for (size_t k = 0; lv && k < n; k++) {
        free(lv[k]);
    }
    free(lv);
    free(by);
    free(req);
    free(lat);
    return rc;
}

/* Remove the temporary directory's files and itself. */
static void clean(const char *dir)
{
    static const char *const files[] = {"plot.gp", "ipc.dat", "ipcmap.dat",
        "stalls.dat", "occupancy.dat", "memory.dat", "kernels.dat"};
    char path[4096];
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[k]);
        unlink(path);
    }
    rmdir(dir);
}

int cmd_plot(int argc, char **argv)
{
    static const struct option opts[] = {
        {"out", required_argument, NULL, 'o'},
        {"format", required_argument, NULL, 'f'},
        {"model", required_argument, NULL, 'm'},
        {"gnuplot", required_argument, NULL, 'g'},
        {"stats", required_argument, NULL, 's'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *prefix = NULL, *model = NULL, *gnuplot = "gnuplot";
    const char *json = NULL;
    Plot p = {.png = true, .svg = true};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o': prefix = optarg; break;
        case 'm': model = optarg; break;
        case 'g': gnuplot = optarg; break;
        case 's': json = optarg; break;
        case 'f':
            p.png = !strcmp(optarg, "png") || !strcmp(optarg, "both");
            p.svg = !strcmp(optarg, "svg") || !strcmp(optarg, "both");
            if (!p.png && !p.svg) {
                fprintf(stderr, "ptxemu plot: --format '%s': expected png, "
                        "svg or both\n", optarg);
                return 2;
            }
            break;
        case 'h':
            plot_usage(stdout);
            return 0;
        default:
            plot_usage(stderr);
            return 2;
        }
    }
    if (optind + 1 < argc || (optind == argc && !json)) {
        fprintf(stderr, "ptxemu plot: %s\n", optind == argc
                ? "no CSV file (the output of --stats-interval) nor "
                  "--stats FILE.json"
                : "one CSV file only");
        plot_usage(stderr);
        return 2;
    }
    const char *csv = optind < argc ? argv[optind] : NULL;
    char err[1024];
    StatCsv data = {0}, kdata = {0};
    if ((csv && statcsv_read(csv, &data, err, sizeof err) != 0) ||
        (json && statjson_read(json, &kdata, err, sizeof err) != 0)) {
        fprintf(stderr, "ptxemu plot: %s\n", err);
        statcsv_free(&data);
        return 1;
    }
    int status = 1;
    const char *src = csv ? csv : json;
    /* each file's own model (they may come from different runs) */
    char *m = model ? strdup(model) : find_model(csv ? &data : &kdata);
    char *mk = !json ? NULL : model ? strdup(model) : find_model(&kdata);
    char *pre = NULL;
    char dir[] = "/tmp/ptxemu-plot-XXXXXX";
    bool have_dir = false;
    if (!m || (json && !mk)) {
        fprintf(stderr, "ptxemu plot: %s: no counter <model>.smN.issued: "
                "not the statistics of a timing model that follows the "
                "naming convention (timing/README.md)\n", m ? json : src);
        goto out;
    }
    if (prefix) {
        pre = strdup(prefix);
    } else {
        const char *ext = csv ? ".csv" : ".json";
        size_t l = strlen(src), le = strlen(ext);
        pre = strdup(src);
        if (pre && l > le && !strcmp(pre + l - le, ext)) {
            pre[l - le] = 0;
        }
    }
    if (!pre || !mkdtemp(dir)) {
        fprintf(stderr, "ptxemu plot: cannot make a temporary directory: "
                "%s\n", strerror(errno));
        goto out;
    }
    have_dir = true;
    char script[sizeof dir + 16];
    snprintf(script, sizeof script, "%s/plot.gp", dir);
    p.c = &data;
    p.dir = dir;
    p.prefix = pre;
    p.gp = fopen(script, "w");
    if (!p.gp) {
        fprintf(stderr, "ptxemu plot: %s: %s\n", script, strerror(errno));
        goto out;
    }
    /* output paths are relative to where ptxemu runs: cd only affects
     * data files, so make the prefix absolute first */
    if (pre[0] != '/') {
        char cwd[2048];
        if (!getcwd(cwd, sizeof cwd)) {
            fprintf(stderr, "ptxemu plot: getcwd: %s\n", strerror(errno));
            fclose(p.gp);
            goto out;
        }
        char *abs = malloc(strlen(cwd) + strlen(pre) + 2);
        if (!abs) {
            fclose(p.gp);
            goto out;
        }
        sprintf(abs, "%s/%s", cwd, pre);
        free(pre);
        pre = abs;
        p.prefix = pre;
    }
    int rc = 0;
    if (csv) {
        p.marks = kernel_marks(&data);
        rc = plot_ipc(&p, m) | plot_stalls(&p, m) | plot_occupancy(&p, m) |
             plot_memory(&p, m);
    }
    if (json) {
        p.c = &kdata;
        rc |= plot_kernels(&p, mk);
    }
    if (fclose(p.gp) != 0 || rc) {
        fprintf(stderr, "ptxemu plot: cannot write the data files in %s\n",
                dir);
        goto out;
    }
    if ((status = gp_run("ptxemu plot", gnuplot, script, false) ? 1 : 0)
        == 0) {
        for (size_t k = 0; k < p.nwritten; k++) {
            printf("%s\n", p.written[k]);
        }
    }
out:
    for (size_t k = 0; k < p.nwritten; k++) {
        free(p.written[k]);
    }
    free(p.written);
    free(p.marks);
    if (have_dir) {
        clean(dir);
    }
    free(pre);
    free(m);
    free(mk);
    statcsv_free(&data);
    statcsv_free(&kdata);
    return status;
}
