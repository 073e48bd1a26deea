/*
 * ptx/diag.c: gcc-style located diagnostics with the source line and a
 * caret.  The source line is found by scanning back from the error's
 * line start, computed lazily: errors are rare, so no line table is kept
 * for the fast path.
 */
#include "ptx/diag.h"

#include <stdlib.h>
#include <string.h>

typedef struct PtxDiagRec {
    uint32_t line, col;
    size_t start, len;      /* in buf */
} PtxDiagRec;

void ptx_diag_init(PtxDiag *d, const char *filename, const char *src,
                   size_t srclen, FILE *echo)
{
    memset(d, 0, sizeof(*d));
    d->filename = filename ? filename : "<input>";
    d->src = src;
    d->srclen = srclen;
    d->echo = echo;
    d->max_errors = 50;
}

void ptx_diag_fini(PtxDiag *d)
{
    free(d->buf);
    free(d->recs);
    d->buf = NULL;
    d->recs = NULL;
    d->buflen = d->bufcap = 0;
    d->nrecs = d->caprecs = 0;
}

static int rec_cmp(const void *a, const void *b)
{
    const PtxDiagRec *x = a, *y = b;
    if (x->line != y->line) {
        return x->line < y->line ? -1 : 1;
    }
    if (x->col != y->col) {
        return x->col < y->col ? -1 : 1;
    }
    return x->start < y->start ? -1 : x->start > y->start;
}

void ptx_diag_finish(PtxDiag *d)
{
    size_t covered = 0;
    for (size_t i = 0; i < d->nrecs; i++) {
        covered += d->recs[i].len;
    }
    /* Reorder only when every message has its record (no OOM gaps). */
    if (d->nrecs > 1 && d->buf && covered == d->buflen) {
        qsort(d->recs, d->nrecs, sizeof(*d->recs), rec_cmp);
        char *nb = malloc(d->bufcap);
        if (nb) {
            size_t pos = 0;
            for (size_t i = 0; i < d->nrecs; i++) {
                memcpy(nb + pos, d->buf + d->recs[i].start, d->recs[i].len);
                d->recs[i].start = pos;
                pos += d->recs[i].len;
            }
            nb[d->buflen] = '\0';
            free(d->buf);
            d->buf = nb;
        }
    }
    if (d->echo && d->buf) {
        fputs(d->buf, d->echo);
    }
    free(d->recs);
    d->recs = NULL;
    d->nrecs = d->caprecs = 0;
    d->finished = true;
}

static void append(PtxDiag *d, const char *s, size_t n)
{
    if (d->buflen + n + 1 > d->bufcap) {
        size_t cap = d->bufcap ? d->bufcap * 2 : 256;
        while (cap < d->buflen + n + 1) {
            cap *= 2;
        }
        char *b = realloc(d->buf, cap);
        if (!b) {
            return; /* diagnostics are best effort under OOM */
        }
        d->buf = b;
        d->bufcap = cap;
    }
    memcpy(d->buf + d->buflen, s, n);
    d->buflen += n;
    d->buf[d->buflen] = '\0';
    if (d->echo && d->finished) {
        fwrite(s, 1, n, d->echo);
    }
}

static void appendf(PtxDiag *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void appendf(PtxDiag *d, const char *fmt, ...)
{
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
    va_end(ap);
    if (n < 0) {
        return;
    }
    append(d, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

static char at(const PtxDiag *d, const char *p)
{
    return p == d->hold_pos ? d->hold_char : *p;
}

/* The text of 1-based line `line`, without its newline.  The scanner's
 * held byte is put back where it stands (see PtxDiag.hold_pos). */
static const char *find_line(const PtxDiag *d, uint32_t line, size_t *len)
{
    if (!d->src || line == 0) {
        return NULL;
    }
    const char *p = d->src, *end = d->src + d->srclen;
    for (uint32_t l = 1; l < line; l++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (d->hold_pos && d->hold_char == '\n' && d->hold_pos >= p &&
            (!nl || d->hold_pos < nl)) {
            nl = d->hold_pos;
        }
        if (!nl) {
            return NULL;
        }
        p = nl + 1;
    }
    const char *q = p;
    while (q < end && at(d, q) != '\n' && at(d, q) != '\0') {
        q++;
    }
    *len = (size_t)(q - p);
    if (*len && p[*len - 1] == '\r') {
        (*len)--;
    }
    return p;
}

bool ptx_diag_full(const PtxDiag *d)
{
    return d->max_errors && d->nerrors >= d->max_errors;
}

void ptx_diag_vreport(PtxDiag *d, PtxSeverity sev, PtxLoc loc,
                      const char *fmt, va_list ap)
{
    static const char *const names[] = {"error", "warning", "note"};
    if (sev == PTX_SEV_ERROR) {
        if (ptx_diag_full(d)) {
            d->nerrors++;
            return;
        }
        d->nerrors++;
    } else if (sev == PTX_SEV_WARNING) {
        d->nwarnings++;
    }
    char msg[1024];
    vsnprintf(msg, sizeof(msg), fmt, ap);
    size_t start = d->buflen;
    if (loc.line) {
        appendf(d, "%s:%u:%u: %s: %s\n", d->filename, loc.line, loc.col,
                names[sev], msg);
    } else {
        appendf(d, "%s: %s: %s\n", d->filename, names[sev], msg);
    }
    size_t len = 0;
    const char *text = find_line(d, loc.line, &len);
    if (text) {
        if (len > 512) {
            len = 512;
        }
        append(d, " ", 1);
        for (size_t i = 0; i < len; i++) {
            char ch = at(d, text + i);
            append(d, &ch, 1);
        }
        append(d, "\n ", 2);
        /* Keep tabs so the caret lines up under tab-indented PTX. */
        for (uint32_t c = 1; c < loc.col && c - 1 < len; c++) {
            append(d, at(d, text + c - 1) == '\t' ? "\t" : " ", 1);
        }
        append(d, "^\n", 2);
    }
    if (!d->finished && d->buflen > start) {
        if (d->nrecs == d->caprecs) {
            size_t cap = d->caprecs ? d->caprecs * 2 : 16;
            PtxDiagRec *r = realloc(d->recs, cap * sizeof(*r));
            if (r) {
                d->recs = r;
                d->caprecs = cap;
            }
        }
        if (d->nrecs < d->caprecs) {
            PtxDiagRec *r = &d->recs[d->nrecs++];
            r->line = loc.line;
            r->col = loc.col;
            r->start = start;
            r->len = d->buflen - start;
        }
    }
    if (sev == PTX_SEV_ERROR && ptx_diag_full(d)) {
        appendf(d, "%s: too many errors, stopping\n", d->filename);
    }
}

void ptx_diag_report(PtxDiag *d, PtxSeverity sev, PtxLoc loc,
                     const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ptx_diag_vreport(d, sev, loc, fmt, ap);
    va_end(ap);
}
