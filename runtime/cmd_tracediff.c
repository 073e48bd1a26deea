/*
 * runtime/cmd_tracediff.c: `ptxemu trace-diff [options] REFERENCE TRACE`,
 * the control-flow trace error of HANOI section IX (seed digest 1.6):
 * per warp, the Levenshtein distance between the reference's and the
 * trace's sequences of (pc, active mask), divided by the reference's
 * length.
 *
 * Contract:
 *  - Both files are in the format of `--trace-simt` (emu/simttrace.h,
 *    version 1): a first line "# ptxemu simt trace 1", further lines
 *    starting with '#' ignored (the "# launch" headers), empty lines
 *    ignored, every other line exactly nine fields separated by one
 *    space, G CTA WARP FUNC PC MASK EXEC LINE OP: G, CTA, WARP, PC and
 *    LINE unsigned decimal, MASK and EXEC "0x" and 1-8 hex digits, FUNC
 *    and OP non-empty.  A reference from elsewhere (a GPU, through
 *    NVBit) writes the same; only G CTA WARP FUNC PC MASK are compared.
 *  - Warps are matched by (G, CTA, WARP); a warp's steps are its lines
 *    in file order.  A step is (FUNC, PC, MASK): FUNC belongs to the pc
 *    (pcs count in their function).  Insertion, deletion and
 *    substitution (pc, function or mask differ) cost 1 (HANOI IX).
 *  - Output: CSV on stdout, one row per warp in (G, CTA, WARP) order,
 *    "launch,cta,warp,present,reference_steps,trace_steps,distance,error"
 *    (present: both, reference or trace; error = distance / reference
 *    steps, empty when the reference has no steps), then a row "all"
 *    with the totals and error = total distance / total reference steps;
 *    a human summary on stderr.  Exit status 0 whatever the distance.
 *  - Guards: a file of more than --max-steps steps (default
 *    TD_MAX_STEPS), more than --max-warps warps in the two files
 *    (default TD_MAX_WARPS) or a warp whose reference x trace steps
 *    exceed --max-cells (default TD_MAX_CELLS: the O(n m) time), or
 *    warps whose products add up to more than --max-total-cells
 *    (default TD_MAX_TOTAL_CELLS: many warps each under the per-warp
 *    limit would otherwise add up to minutes), is
 *    refused with a message before the memory or the time is spent.  Malformed input:
 *    "ptxemu trace-diff: FILE:LINE: what", exit status 1; bad usage 2.
 *  - Memory: the steps (12 bytes each, at most twice that while arrays
 *    grow), the warp table (72 bytes a slot, at most 4 slots a warp) and
 *    one row of min(n, m) + 1 distances per comparison, and distinct
 *    function names up to TD_MAX_NAME_BYTES: with the defaults under
 *    1 GiB however hostile the input.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_tracediff(int argc, char **argv);

#define TD_MAX_STEPS (UINT64_C(1) << 23)     /* 8 Mi steps a file */
#define TD_MAX_WARPS (UINT64_C(1) << 20)     /* 1 Mi warps */
/* Distinct function names: their bytes and TD_NAME_COST each (malloc's
 * overhead, an array and a table entry) are held under this. */
#define TD_MAX_NAME_BYTES ((size_t)64 << 20)
#define TD_NAME_COST 48
#define TD_MAX_CELLS UINT64_C(4000000000)    /* a few seconds */
#define TD_MAX_TOTAL_CELLS TD_MAX_CELLS      /* the same, for the run */
#define TD_LINE 4096
#define TD_ME "ptxemu trace-diff"

typedef struct Step {
    uint32_t func, pc, mask;
} Step;

typedef struct Seq {
    Step *s;
    size_t n, cap;
} Seq;

typedef struct Warp {
    uint64_t grid;
    uint32_t cta, warp;
    bool used;
    Seq seq[2];             /* [0] reference, [1] trace */
} Warp;

/* Open-addressing tables: warps by key, function names by string. */
typedef struct Diff {
    Warp *w;
    size_t nw, capw;
    char **names;           /* nn of them, room for capn */
    uint32_t *slots;        /* capn */
    size_t nn, capn, name_bytes;
    uint64_t max_steps, max_warps, max_cells, max_total;
} Diff;

static uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 33;
    return h;
}

static bool grow(void **p, size_t *cap, size_t elem)
{
    size_t nc = *cap ? *cap * 2 : 64;
    void *q = calloc(nc, elem);
    if (!q) {
        return false;
    }
    *p = q;
    *cap = nc;
    return true;
}

static Warp *warp_slot(Warp *t, size_t cap, uint64_t g, uint32_t c,
                       uint32_t w)
{
    size_t i = mix(g * 0x9e3779b97f4a7c15u ^ ((uint64_t)c << 32 | w))
               & (cap - 1);
    while (t[i].used && !(t[i].grid == g && t[i].cta == c &&
                          t[i].warp == w)) {
        i = (i + 1) & (cap - 1);
    }
    return &t[i];
}

static Warp *warp_get(Diff *d, uint64_t g, uint32_t c, uint32_t w)
{
    if (2 * (d->nw + 1) > d->capw) {     /* at most half full */
        Warp *old = d->w;
        size_t oc = d->capw;
        if (!grow((void **)&d->w, &d->capw, sizeof(Warp))) {
            return NULL;
        }
        for (size_t i = 0; i < oc; i++) {
            if (old[i].used) {
                *warp_slot(d->w, d->capw, old[i].grid, old[i].cta,
                           old[i].warp) = old[i];
            }
        }
        free(old);
    }
    Warp *s = warp_slot(d->w, d->capw, g, c, w);
    if (!s->used) {
        *s = (Warp){ .grid = g, .cta = c, .warp = w, .used = true };
        d->nw++;
    }
    return s;
}

static uint64_t str_hash(const char *s)
{
    uint64_t h = 1469598103934665603u;          /* FNV-1a */
    for (; *s; s++) {
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    }
    return h;
}

/* The index of name (interned: names[i], found through slots[], which
 * hold index + 1, 0 when free), UINT32_MAX without memory, UINT32_MAX - 1
 * past TD_MAX_NAME_BYTES. */
static uint32_t name_id(Diff *d, const char *name)
{
    if (2 * (d->nn + 1) > d->capn) {
        uint32_t *slots = NULL;
        size_t cap = d->capn;
        char **names = realloc(d->names, (cap ? cap * 2 : 64) *
                               sizeof(char *));
        if (!names) {
            return UINT32_MAX;
        }
        d->names = names;
        if (!grow((void **)&slots, &cap, sizeof(uint32_t))) {
            return UINT32_MAX;
        }
        for (size_t i = 0; i < d->nn; i++) {
            size_t j = str_hash(names[i]) & (cap - 1);
            while (slots[j]) {
                j = (j + 1) & (cap - 1);
            }
            slots[j] = (uint32_t)i + 1;
        }
        free(d->slots);
        d->slots = slots;
        d->capn = cap;
    }
    size_t j = str_hash(name) & (d->capn - 1);
    while (d->slots[j] && strcmp(d->names[d->slots[j] - 1], name)) {
        j = (j + 1) & (d->capn - 1);
    }
    if (!d->slots[j]) {
        d->name_bytes += strlen(name) + TD_NAME_COST;
        if (d->name_bytes > TD_MAX_NAME_BYTES) {
            return UINT32_MAX - 1;
        }
        if (!(d->names[d->nn] = strdup(name))) {
            return UINT32_MAX;
        }
        d->slots[j] = (uint32_t)++d->nn;
    }
    return d->slots[j] - 1;
}

static bool parse_dec(const char *s, uint64_t max, uint64_t *v)
{
    if (!*s) {
        return false;
    }
    uint64_t x = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || x > (max - (uint64_t)(*s - '0')) / 10) {
            return false;
        }
        x = x * 10 + (uint64_t)(*s - '0');
    }
    *v = x;
    return true;
}

static bool parse_mask(const char *s, uint32_t *v)
{
    if (s[0] != '0' || s[1] != 'x' || !s[2] || strlen(s + 2) > 8) {
        return false;
    }
    uint32_t x = 0;
    for (s += 2; *s; s++) {
        int h = *s >= '0' && *s <= '9' ? *s - '0'
              : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
              : *s >= 'A' && *s <= 'F' ? *s - 'A' + 10 : -1;
        if (h < 0) {
            return false;
        }
        x = x << 4 | (uint32_t)h;
    }
    *v = x;
    return true;
}

/* The field names, for messages (emu/simttrace.h's order). */
static const char *const field[] = {
    "G (launch)", "CTA", "WARP", "FUNC", "PC", "MASK", "EXEC", "LINE", "OP",
};

/* One data line (without its newline) into side k; a message in why. */
static bool parse_step(Diff *d, int k, char *line, uint64_t *nsteps,
                       char *why, size_t n)
{
    char *f[10];
    int nf = 0;
    for (char *p = line;;) {
        char *sp = strchr(p, ' ');
        if (nf == 10) {
            break;
        }
        f[nf++] = p;
        if (!sp) {
            break;
        }
        *sp = 0;
        p = sp + 1;
    }
    if (nf != 9) {
        snprintf(why, n, "expected 9 fields separated by one space "
                 "(G CTA WARP FUNC PC MASK EXEC LINE OP), got %s",
                 nf > 9 ? "more" : "fewer");
        return false;
    }
    uint64_t v[9] = { 0 };
    uint32_t mask[2];
    for (int i = 0; i < 9; i++) {
        bool ok = true;
        if (!*f[i]) {
            ok = false;
        } else if (i == 0) {
            ok = parse_dec(f[i], UINT64_MAX, &v[i]);
        } else if (i == 5 || i == 6) {
            ok = parse_mask(f[i], &mask[i - 5]);
        } else if (i != 3 && i != 8) {
            ok = parse_dec(f[i], UINT32_MAX, &v[i]);
        }
        if (!ok) {
            snprintf(why, n, "field %d (%s): '%.40s' is not %s", i + 1,
                     field[i], f[i], i == 5 || i == 6
                     ? "0x and 1 to 8 hex digits" : i == 3 || i == 8
                     ? "a non-empty name" : "an unsigned decimal number");
            return false;
        }
    }
    if (++*nsteps > d->max_steps) {
        snprintf(why, n, "more than %" PRIu64 " steps (--max-steps)",
                 d->max_steps);
        return false;
    }
    uint32_t fn = name_id(d, f[3]);
    if (fn == UINT32_MAX - 1) {
        snprintf(why, n, "the distinct function names exceed %zu MiB",
                 TD_MAX_NAME_BYTES >> 20);
        return false;
    }
    Warp *w = fn == UINT32_MAX ? NULL
            : warp_get(d, v[0], (uint32_t)v[1], (uint32_t)v[2]);
    if (w && d->nw > d->max_warps) {
        snprintf(why, n, "more than %" PRIu64 " warps in the two files "
                 "(--max-warps)", d->max_warps);
        return false;
    }
    Seq *q = w ? &w->seq[k] : NULL;
    if (q && q->n == q->cap) {
        size_t nc = q->cap ? q->cap * 2 : 4;
        Step *s = realloc(q->s, nc * sizeof(Step));
        if (s) {
            q->s = s;
            q->cap = nc;
        } else {
            q = NULL;
        }
    }
    if (!q) {
        snprintf(why, n, "out of memory");
        return false;
    }
    q->s[q->n++] = (Step){ fn, (uint32_t)v[4], mask[0] };
    return true;
}

/* The next line into buf (NUL-terminated, without its newline; *len
 * counts its bytes, NULs included): 1, 0 at the end of the file, -1 when
 * it does not fit. */
static int read_line(FILE *in, char *buf, size_t cap, size_t *len)
{
    size_t n = 0;
    int c;
    while ((c = getc(in)) != EOF && c != '\n') {
        if (n + 1 == cap) {
            return -1;
        }
        buf[n++] = (char)c;
    }
    buf[n] = 0;
    *len = n;
    return c == EOF && n == 0 ? 0 : 1;
}

static bool read_trace(Diff *d, int k, const char *path)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        fprintf(stderr, TD_ME ": %s: %s\n", path, strerror(errno));
        return false;
    }
    char line[TD_LINE], why[160];
    uint64_t lineno = 0, nsteps = 0;
    size_t len;
    bool ok = true, header = false;
    for (int r; ok && (r = read_line(in, line, sizeof(line), &len)) != 0;) {
        lineno++;
        if (r < 0) {
            snprintf(why, sizeof(why), "line longer than %d bytes",
                     TD_LINE - 1);
            ok = false;
            break;
        }
        if (strlen(line) != len) {
            snprintf(why, sizeof(why), "NUL byte in the line");
            ok = false;
        } else if (!header) {
            header = !strcmp(line, "# ptxemu simt trace 1");
            if (!header) {
                snprintf(why, sizeof(why), "not a SIMT trace: the first "
                         "line must be '# ptxemu simt trace 1'");
                ok = false;
            }
        } else if (len && line[0] != '#') {
            ok = parse_step(d, k, line, &nsteps, why, sizeof(why));
        }
    }
    if (ok && ferror(in)) {
        fprintf(stderr, TD_ME ": %s: %s\n", path, strerror(errno));
        fclose(in);
        return false;
    }
    if (ok && !header) {
        snprintf(why, sizeof(why), "empty file: the first line must be "
                 "'# ptxemu simt trace 1'");
        ok = false;
        lineno = 1;
    }
    if (!ok) {
        fprintf(stderr, TD_ME ": %s:%" PRIu64 ": %s\n", path, lineno, why);
    }
    fclose(in);
    return ok;
}

static bool step_eq(const Step *a, const Step *b)
{
    return a->func == b->func && a->pc == b->pc && a->mask == b->mask;
}

/* Levenshtein distance (Wagner-Fischer), one row over the shorter
 * sequence: row[j] is the distance between a's first i and b's first j
 * steps.  (uint64_t)-1 without memory. */
static uint64_t edit_distance(const Seq *x, const Seq *y)
{
    const Seq *a = x->n >= y->n ? x : y, *b = a == x ? y : x;
    uint64_t *row = malloc((b->n + 1) * sizeof(*row));
    if (!row) {
        return UINT64_MAX;
    }
    for (size_t j = 0; j <= b->n; j++) {
        row[j] = j;
    }
    for (size_t i = 1; i <= a->n; i++) {
        uint64_t diag = row[0];        /* (i-1, j-1) */
        row[0] = i;
        for (size_t j = 1; j <= b->n; j++) {
            uint64_t up = row[j];      /* (i-1, j) */
            uint64_t best = diag + !step_eq(&a->s[i - 1], &b->s[j - 1]);
            if (up + 1 < best) {
                best = up + 1;
            }
            if (row[j - 1] + 1 < best) {
                best = row[j - 1] + 1;
            }
            row[j] = best;
            diag = up;
        }
    }
    uint64_t r = row[b->n];
    free(row);
    return r;
}

static int warp_cmp(const void *pa, const void *pb)
{
    const Warp *a = pa, *b = pb;
    if (a->grid != b->grid) {
        return a->grid < b->grid ? -1 : 1;
    }
    if (a->cta != b->cta) {
        return a->cta < b->cta ? -1 : 1;
    }
    return a->warp < b->warp ? -1 : a->warp > b->warp;
}

static void td_usage(FILE *out)
{
    fprintf(out,
        "usage: ptxemu trace-diff [--max-steps N] [--max-warps N] "
        "[--max-cells N]\n"
        "                         [--max-total-cells N] REFERENCE TRACE\n"
        "\n"
        "Compare two SIMT traces (--trace-simt's format; README, "
        "\"Comparing SIMT\ntraces\") warp by warp, warps matched by "
        "(launch, CTA, warp): the\nLevenshtein distance between the "
        "(pc, active mask) sequences, and the error\ndistance / "
        "reference length (Hanoi's metric).  CSV on stdout, a summary "
        "on\nstderr.\n"
        "  --max-steps N   refuse a file of more than N steps "
        "(default %" PRIu64 ")\n"
        "  --max-warps N   refuse more than N warps in the two files "
        "(default %" PRIu64 ")\n"
        "  --max-cells N   refuse a warp whose reference x trace steps "
        "exceed N\n"
        "                  (default %" PRIu64 ")\n"
        "  --max-total-cells N  refuse warps whose reference x trace "
        "steps add up\n"
        "                  to more than N (default %" PRIu64 ")\n",
        TD_MAX_STEPS, TD_MAX_WARPS, TD_MAX_CELLS, TD_MAX_TOTAL_CELLS);
}

static void td_free(Diff *d)
{
    for (size_t i = 0; i < d->capw; i++) {
        free(d->w[i].seq[0].s);
        free(d->w[i].seq[1].s);
    }
    free(d->w);
    for (size_t i = 0; i < d->nn; i++) {
        free(d->names[i]);
    }
    free(d->names);
    free(d->slots);
}

/* Compare and print; false (with a message) when a guard refuses. */
static bool td_report(Diff *d, const char *ref, const char *trc)
{
    size_t nw = 0;
    for (size_t i = 0; i < d->capw; i++) {
        if (d->w[i].used) {
            d->w[nw++] = d->w[i];       /* compact in place */
        }
    }
    for (size_t i = nw; i < d->capw; i++) {
        d->w[i] = (Warp){ 0 };
    }
    qsort(d->w, nw, sizeof(Warp), warp_cmp);
    for (size_t i = 0; i < nw; i++) {
        const Warp *w = &d->w[i];
        if (w->seq[0].n && w->seq[1].n &&
            (uint64_t)w->seq[0].n > d->max_cells / w->seq[1].n) {
            fprintf(stderr, TD_ME ": launch %" PRIu64 " CTA %u warp %u: "
                    "%zu x %zu steps exceed --max-cells %" PRIu64 "\n",
                    w->grid, w->cta, w->warp, w->seq[0].n, w->seq[1].n,
                    d->max_cells);
            return false;
        }
    }
    uint64_t cells = 0;                 /* <= max_total: no overflow */
    for (size_t i = 0; i < nw; i++) {
        const Warp *w = &d->w[i];
        if (w->seq[0].n && w->seq[1].n &&
            (uint64_t)w->seq[0].n > (d->max_total - cells) / w->seq[1].n) {
            fprintf(stderr, TD_ME ": the warps' reference x trace steps "
                    "exceed --max-total-cells %" PRIu64 " (at launch %"
                    PRIu64 " CTA %u warp %u)\n", d->max_total, w->grid,
                    w->cta, w->warp);
            return false;
        }
        cells += (uint64_t)w->seq[0].n * w->seq[1].n;
    }
    uint64_t tdist = 0, tref = 0, ttrc = 0, nboth = 0, nref = 0, ntrc = 0;
    double sum_err = 0, worst = -1;
    size_t worst_i = 0, nerr = 0;
    printf("launch,cta,warp,present,reference_steps,trace_steps,distance,"
           "error\n");
    for (size_t i = 0; i < nw; i++) {
        const Warp *w = &d->w[i];
        uint64_t dist = edit_distance(&w->seq[0], &w->seq[1]);
        if (dist == UINT64_MAX) {
            fprintf(stderr, TD_ME ": out of memory\n");
            return false;
        }
        const char *present = !w->seq[1].n ? (nref++, "reference")
                            : !w->seq[0].n ? (ntrc++, "trace")
                            : (nboth++, "both");
        printf("%" PRIu64 ",%u,%u,%s,%zu,%zu,%" PRIu64 ",", w->grid, w->cta,
               w->warp, present, w->seq[0].n, w->seq[1].n, dist);
        if (w->seq[0].n) {
            double e = (double)dist / (double)w->seq[0].n;
            printf("%.6f", e);
            sum_err += e;
            nerr++;
            if (e > worst) {
                worst = e;
                worst_i = i;
            }
        }
        putchar('\n');
        tdist += dist;
        tref += w->seq[0].n;
        ttrc += w->seq[1].n;
    }
    printf("all,,,,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",", tref, ttrc, tdist);
    if (tref) {
        printf("%.6f", (double)tdist / (double)tref);
    }
    putchar('\n');
    fprintf(stderr, "trace-diff: %s (reference) vs %s: %" PRIu64 " warps in "
            "both, %" PRIu64 " only in the reference, %" PRIu64 " only in "
            "the trace\n", ref, trc, nboth, nref, ntrc);
    if (tref) {
        fprintf(stderr, "trace-diff: distance %" PRIu64 " over %" PRIu64
                " reference steps: error %.2f%%; mean per-warp error "
                "%.2f%%; worst launch %" PRIu64 " CTA %u warp %u: %.2f%%\n",
                tdist, tref, 100.0 * (double)tdist / (double)tref,
                100.0 * sum_err / (double)nerr, d->w[worst_i].grid,
                d->w[worst_i].cta, d->w[worst_i].warp, 100.0 * worst);
    } else {
        fprintf(stderr, "trace-diff: distance %" PRIu64 "; the reference "
                "has no steps, so no error\n", tdist);
    }
    return true;
}

int cmd_tracediff(int argc, char **argv)
{
    static const struct option opts[] = {
        {"max-steps", required_argument, NULL, 's'},
        {"max-warps", required_argument, NULL, 'w'},
        {"max-cells", required_argument, NULL, 'c'},
        {"max-total-cells", required_argument, NULL, 't'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    Diff d = { .max_steps = TD_MAX_STEPS, .max_warps = TD_MAX_WARPS,
               .max_cells = TD_MAX_CELLS, .max_total = TD_MAX_TOTAL_CELLS };
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        uint64_t *lim = c == 's' ? &d.max_steps : c == 'w' ? &d.max_warps
                      : c == 't' ? &d.max_total : &d.max_cells;
        switch (c) {
        case 's':
        case 'w':
        case 'c':
        case 't':
            if (!parse_dec(optarg, UINT64_MAX, lim) || !*lim) {
                fprintf(stderr, TD_ME ": --%s '%s': expected a positive "
                        "number\n", c == 's' ? "max-steps" : c == 'w'
                        ? "max-warps" : c == 't' ? "max-total-cells"
                        : "max-cells", optarg);
                return 2;
            }
            break;
        case 'h':
            td_usage(stdout);
            return 0;
        default:
            td_usage(stderr);
            return 2;
        }
    }
    if (argc - optind != 2) {
        td_usage(stderr);
        return 2;
    }
    bool ok = read_trace(&d, 0, argv[optind]) &&
              read_trace(&d, 1, argv[optind + 1]) &&
              td_report(&d, argv[optind], argv[optind + 1]);
    td_free(&d);
    return ok ? 0 : 1;
}
