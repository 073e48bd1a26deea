/*
 * runtime/sweep_spec.c: the list files of `ptxemu sweep` (sweep.h).
 */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/readfile.h"
#include "runtime/sweep.h"
#include "timing/tm.h"

#define SWEEP_FILE_LIMIT ((size_t)1 << 20)
#define SWEEP_MAX_ITEMS 4096
#define SWEEP_MAX_WORDS 256

static const char *const subcommands[] = {"run", "exec", "sanitize", NULL};

void sweep_seterr(char *err, size_t len, const char *fmt, ...)
{
    if (err && len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, len, fmt, ap);
        va_end(ap);
    }
}

static void item_free(SweepItem *it)
{
    free(it->name);
    for (int i = 0; i < it->argc; i++) {
        free(it->argv[i]);
    }
    free(it->argv);
}

void sweep_list_free(SweepList *l)
{
    for (size_t i = 0; i < l->n; i++) {
        item_free(&l->v[i]);
    }
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

/* Split one line into words; 0, or -1 with a message (no column: lines
 * are short). */
static int split(const char *s, char ***words, int *nwords, const char **why)
{
    char **w = calloc(SWEEP_MAX_WORDS + 1, sizeof *w);
    int n = 0;
    if (!w) {
        *why = "out of memory";
        return -1;
    }
    for (;;) {
        while (*s == ' ' || *s == '\t') {
            s++;
        }
        if (!*s || *s == '#') {
            break;
        }
        if (n == SWEEP_MAX_WORDS) {
            *why = "more than 256 words";
            goto fail;
        }
        char *buf = malloc(strlen(s) + 1), *o = buf;
        if (!buf) {
            *why = "out of memory";
            goto fail;
        }
        w[n++] = buf;
        while (*s && *s != ' ' && *s != '\t') {
            if (*s == '"') {
                s++;
                while (*s && *s != '"') {
                    *o++ = *s++;
                }
                if (*s != '"') {
                    *why = "unterminated '\"'";
                    goto fail;
                }
                s++;
            } else {
                *o++ = *s++;
            }
        }
        *o = 0;
    }
    *words = w;
    *nwords = n;
    return 0;
fail:
    for (int i = 0; i < n; i++) {
        free(w[i]);
    }
    free(w);
    return -1;
}

int sweep_list_read(const char *path, int commands, SweepList *out,
                    char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->path = path;
    char *text = NULL;
    size_t len = 0;
    char why[256];
    if (ptx_read_file(path, SWEEP_FILE_LIMIT, &text, &len, why,
                      sizeof why) != PTX_READ_OK) {
        sweep_seterr(err, errlen, "%s: %s", path, why);
        return -1;
    }
    if (memchr(text, 0, len)) {
        sweep_seterr(err, errlen, "%s: a NUL byte: not a text file", path);
        free(text);
        return -1;
    }
    int lineno = 0;
    for (char *line = text, *next; line && *line; line = next) {
        lineno++;
        next = strchr(line, '\n');
        if (next) {
            *next++ = 0;
        }
        char **w;
        int n;
        const char *bad = NULL;
        if (split(line, &w, &n, &bad)) {
            sweep_seterr(err, errlen, "%s:%d: %s", path, lineno, bad);
            goto fail;
        }
        if (n == 0) {
            free(w);
            continue;
        }
        if (!tm_name_ok(w[0], 64, "_.-")) {
            bad = "a name is 1-64 of [A-Za-z0-9_.-]";
        } else if (commands && n < 2) {
            bad = "a command needs a subcommand (run, exec or sanitize)";
        } else if (out->n == SWEEP_MAX_ITEMS) {
            bad = "more than 4096 lines";
        }
        if (!bad && commands) {
            bad = "unknown subcommand (run, exec or sanitize)";
            for (int i = 0; subcommands[i]; i++) {
                if (!strcmp(w[1], subcommands[i])) {
                    bad = NULL;
                }
            }
        }
        for (size_t i = 0; !bad && i < out->n; i++) {
            if (!strcmp(out->v[i].name, w[0])) {
                bad = "the name is used twice";
            }
        }
        SweepItem *v = bad ? NULL
                           : realloc(out->v, (out->n + 1) * sizeof *v);
        if (!bad && !v) {
            bad = "out of memory";
        }
        if (bad) {
            sweep_seterr(err, errlen, "%s:%d: %s", path, lineno, bad);
            for (int i = 0; i < n; i++) {
                free(w[i]);
            }
            free(w);
            goto fail;
        }
        out->v = v;
        SweepItem *it = &v[out->n++];
        it->name = w[0];
        memmove(w, w + 1, (size_t)n * sizeof *w); /* keeps the NULL */
        it->argv = w;
        it->argc = n - 1;
        it->line = lineno;
    }
    free(text);
    if (!out->n) {
        sweep_seterr(err, errlen, "%s: no %s", path,
               commands ? "commands" : "configurations");
        return -1;
    }
    return 0;
fail:
    free(text);
    sweep_list_free(out);
    return -1;
}

void sweep_run_name(const SweepItem *c, const SweepItem *k, char *buf,
                    size_t len)
{
    snprintf(buf, len, "%s__%s", c->name, k->name);
}
