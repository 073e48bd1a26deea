/*
 * runtime/statcsv.c: the --stats-interval CSV reader (statcsv.h).
 */
#include "runtime/statcsv.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define FIXED 4                   /* kernel,launch,cycle,cycles */

static char *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    struct stat sb;
    if (!f || fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
        snprintf(err, errlen, "%s: %s", path,
                 f ? "not a regular file" : strerror(errno));
        if (f) {
            fclose(f);
        }
        return NULL;
    }
    if ((unsigned long long)sb.st_size > STATCSV_MAX_BYTES) {
        snprintf(err, errlen, "%s: larger than %llu bytes", path,
                 STATCSV_MAX_BYTES);
        fclose(f);
        return NULL;
    }
    char *buf = malloc((size_t)sb.st_size + 1);
    size_t n = buf ? fread(buf, 1, (size_t)sb.st_size, f) : 0;
    fclose(f);
    if (!buf) {
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    buf[n] = 0;
    if (strlen(buf) != n) {
        snprintf(err, errlen, "%s: a NUL byte: not a CSV file", path);
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

/* Split line (modified in place) at commas, honouring one quoted first
 * field; fields into f[], at most max.  Returns the count, or -1 when
 * there are more than max or a quote is unterminated. */
static long split(char *line, char **f, size_t max)
{
    size_t n = 0;
    char *p = line;
    if (*p == '"') {              /* the kernel name: "..." with "" */
        char *w = ++p, *r = p;
        for (;; r++) {
            if (!*r) {
                return -1;
            }
            if (*r == '"') {
                if (r[1] != '"') {
                    break;
                }
                r++;
            }
            *w++ = *r;
        }
        *w = 0;
        f[n++] = line + 1;
        p = r + 1;
        if (*p && *p != ',') {
            return -1;
        }
        if (*p) {
            p++;
        } else {
            return (long)n;
        }
    }
    for (;;) {
        if (n == max) {
            return -1;
        }
        f[n++] = p;
        char *c = strchr(p, ',');
        if (!c) {
            break;
        }
        *c = 0;
        p = c + 1;
    }
    return (long)n;
}

static bool num(const char *s, uint64_t *out)
{
    if (*s < '0' || *s > '9') {
        return false;
    }
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    *out = v;
    return !errno && !*end;
}

long statcsv_col(const StatCsv *c, const char *name)
{
    for (size_t k = 0; k < c->ncols; k++) {
        if (!strcmp(c->cols[k], name)) {
            return (long)k;
        }
    }
    return -1;
}

long statcsv_add_col(StatCsv *c, const char *name)
{
    long k = statcsv_col(c, name);
    if (k >= 0) {
        return k;
    }
    char **p = realloc(c->cols, (c->ncols + 1) * sizeof(*p));
    if (!p) {
        return -1;
    }
    c->cols = p;
    if (!(p[c->ncols] = strdup(name))) {
        return -1;
    }
    return (long)c->ncols++;
}

static bool is_header(const char *line)
{
    return !strncmp(line, "kernel,launch,cycle,cycles", 26) &&
           (line[26] == ',' || line[26] == 0);
}

/* Pass 1 (fill false): columns and rows counted; pass 2: values. */
static int pass(const char *path, char *text, size_t len, StatCsv *c,
                bool fill, char **f, size_t maxf, char *err, size_t errlen)
{
    size_t *map = NULL, nmap = 0, row = 0, lineno = 0;
    bool header = false;
    int rc = -1;
    for (char *line = text; line < text + len;) {
        char *nl = strchr(line, '\n');
        char *next = nl ? nl + 1 : text + len;
        if (nl) {
            *nl = 0;
            if (nl > line && nl[-1] == '\r') {
                nl[-1] = 0;
            }
        }
        lineno++;
        if (!*line) {
            line = next;
            continue;
        }
        char *copy = strdup(line);
        if (!copy) {
            snprintf(err, errlen, "%s: out of memory", path);
            goto out;
        }
        long n = split(copy, f, maxf);
        if (is_header(line)) {
            if (n < FIXED) {
                snprintf(err, errlen, "%s:%zu: a bad header", path, lineno);
                free(copy);
                goto out;
            }
            size_t *m = realloc(map, (size_t)n * sizeof(*m));
            if (!m) {
                snprintf(err, errlen, "%s: out of memory", path);
                free(copy);
                goto out;
            }
            map = m;
            nmap = (size_t)n - FIXED;
            for (size_t k = 0; k < nmap; k++) {
                if (!fill && statcsv_add_col(c, f[FIXED + k]) < 0) {
                    snprintf(err, errlen, "%s: out of memory", path);
                    free(copy);
                    goto out;
                }
                map[k] = (size_t)statcsv_col(c, f[FIXED + k]);
            }
            header = true;
        } else if (!header) {
            snprintf(err, errlen, "%s:%zu: no header line "
                     "(kernel,launch,cycle,cycles,...) before the rows; "
                     "not a --stats-csv file?", path, lineno);
            free(copy);
            goto out;
        } else if (n < 0) {
            snprintf(err, errlen, "%s:%zu: a quoted kernel name not closed",
                     path, lineno);
            free(copy);
            goto out;
        } else if (n != (long)(nmap + FIXED)) {
            snprintf(err, errlen, "%s:%zu: %ld fields, the header names "
                     "%zu", path, lineno, n, nmap + FIXED);
            free(copy);
            goto out;
        } else {
            if (fill) {
                uint64_t v;
                for (size_t k = 1; k < (size_t)n; k++) {
                    if (!num(f[k], &v)) {
                        snprintf(err, errlen, "%s:%zu: field %zu '%.40s' is "
                                 "not a count", path, lineno, k + 1, f[k]);
                        free(copy);
                        goto out;
                    }
                    if (k == 1) {
                        c->launch[row] = v;
                        /* the name once per launch, on its first row */
                        if ((!row || c->launch[row - 1] != v) &&
                            !(c->kernel[row] = strdup(f[0]))) {
                            snprintf(err, errlen, "%s: out of memory", path);
                            free(copy);
                            goto out;
                        }
                    } else if (k == 2) {
                        c->cycle[row] = v;
                    } else if (k == 3) {
                        c->cycles[row] = v;
                    } else {
                        c->val[row * c->ncols + map[k - FIXED]] = v;
                    }
                }
            }
            row++;
        }
        free(copy);
        line = next;
    }
    c->nrows = row;
    rc = 0;
out:
    free(map);
    return rc;
}

int statcsv_read(const char *path, StatCsv *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof(*c));
    size_t len;
    char *text = slurp(path, &len, err, errlen);
    if (!text) {
        return -1;
    }
    /* fields of the widest line */
    size_t maxf = 1, commas = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == ',') {
            commas++;
        } else if (text[i] == '\n') {
            commas = 0;
        }
        if (commas + 1 > maxf) {
            maxf = commas + 1;
        }
    }
    maxf++;
    char **f = malloc(maxf * sizeof(*f));
    char *text2 = f ? malloc(len + 1) : NULL;
    int rc = -1;
    if (!text2) {
        snprintf(err, errlen, "%s: out of memory", path);
        goto out;
    }
    memcpy(text2, text, len + 1);
    if (pass(path, text, len, c, false, f, maxf, err, errlen) != 0) {
        goto out;
    }
    if (!c->nrows) {
        snprintf(err, errlen, "%s: no rows", path);
        goto out;
    }
    size_t rows = c->nrows;
    c->launch = calloc(rows, sizeof(uint64_t));
    c->cycle = calloc(rows, sizeof(uint64_t));
    c->cycles = calloc(rows, sizeof(uint64_t));
    c->kernel = calloc(rows, sizeof(char *));
    c->val = c->ncols ? calloc(rows * c->ncols, sizeof(uint64_t))
                      : calloc(1, sizeof(uint64_t));
    if (!c->launch || !c->cycle || !c->cycles || !c->kernel || !c->val) {
        snprintf(err, errlen, "%s: out of memory", path);
        goto out;
    }
    rc = pass(path, text2, len, c, true, f, maxf, err, errlen);
out:
    free(text);
    free(text2);
    free(f);
    if (rc) {
        statcsv_free(c);
    }
    return rc;
}

void statcsv_free(StatCsv *c)
{
    for (size_t k = 0; k < c->ncols; k++) {
        free(c->cols[k]);
    }
    free(c->cols);
    free(c->launch);
    free(c->cycle);
    free(c->cycles);
    free(c->val);
    for (size_t r = 0; c->kernel && r < c->nrows; r++) {
        free(c->kernel[r]);
    }
    free(c->kernel);
    memset(c, 0, sizeof(*c));
}
