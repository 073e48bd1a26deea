/*
 * ptx/diag.c: gcc-style located diagnostics with the source line and a
 * caret.  The source line is found by scanning back from the error's
 * line start, computed lazily: errors are rare, so no line table is kept
 * for the fast path.
 */
#include "ptx/diag.h"

#include <stdlib.h>
#include <string.h>

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
    d->buf = NULL;
    d->buflen = d->bufcap = 0;
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
    if (d->echo) {
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

/* The text of 1-based line `line`, without its newline. */
static const char *find_line(const PtxDiag *d, uint32_t line, size_t *len)
{
    if (!d->src || line == 0) {
        return NULL;
    }
    const char *p = d->src, *end = d->src + d->srclen;
    for (uint32_t l = 1; l < line; l++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) {
            return NULL;
        }
        p = nl + 1;
    }
    /* The scanner works in place and keeps a NUL where its current token
     * ends: that byte ends the line too. */
    const char *q = p;
    while (q < end && *q != '\n' && *q != '\0') {
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
        append(d, text, len);
        append(d, "\n ", 2);
        /* Keep tabs so the caret lines up under tab-indented PTX. */
        for (uint32_t c = 1; c < loc.col && c - 1 < len; c++) {
            append(d, text[c - 1] == '\t' ? "\t" : " ", 1);
        }
        append(d, "^\n", 2);
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
