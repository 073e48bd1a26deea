/*
 * ptx/lazy.c: parse a module whose functions may fail one by one
 * (see ptx_parse_lazy in ptx.h).
 *
 * When the whole module does not parse, the source is scanned for the
 * functions' bodies (the '{' ... '}' at the top level after .entry or
 * .func, skipping comments and strings); when every error lies inside a
 * body, those bodies are replaced in the text by "{ ret; }" (line breaks
 * kept, so that positions stay the same) and it is parsed again.  Each
 * replaced function then carries its own errors in IrFunc.load_error.
 */
#include <stdlib.h>
#include <string.h>

#include "ptx/arena.h"
#include "ptx/ptx.h"

typedef struct Body {
    size_t open, close;          /* offsets of its '{' and '}' */
    uint32_t line0, line1;       /* their lines */
    char name[256];
    bool bad;
    char *errs;                  /* its error records (malloc'd) */
    size_t nerrs;
} Body;

/* Copies the function name that follows .entry/.func at p (skipping
 * directives, '(' ... ')' groups and blanks) into b->name. */
static void func_name(const char *s, size_t len, size_t p, Body *b)
{
    int depth = 0;
    b->name[0] = 0;
    while (p < len && s[p] != '{' && s[p] != ';') {
        char c = s[p];
        if (c == '(') {
            depth++;
        } else if (c == ')') {
            depth--;
        } else if (depth == 0 && (c == '_' || c == '$' || c == '%' ||
                   (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
            size_t q = p;
            while (q < len && (s[q] == '_' || s[q] == '$' || s[q] == '%' ||
                   (s[q] >= 'a' && s[q] <= 'z') ||
                   (s[q] >= 'A' && s[q] <= 'Z') ||
                   (s[q] >= '0' && s[q] <= '9'))) {
                q++;
            }
            size_t n = q - p < sizeof(b->name) - 1 ? q - p
                                                     : sizeof(b->name) - 1;
            memcpy(b->name, s + p, n);
            b->name[n] = 0;
            return;
        } else if (depth == 0 && c == '.') {
            while (p + 1 < len && s[p + 1] != ' ' && s[p + 1] != '\t' &&
                   s[p + 1] != '\n' && s[p + 1] != '(') {
                p++;
            }
        }
        p++;
    }
}

static bool word_at(const char *s, size_t len, size_t p, const char *w)
{
    size_t n = strlen(w);
    return p + n <= len && memcmp(s + p, w, n) == 0 &&
           (p + n == len || !((s[p + n] >= 'a' && s[p + n] <= 'z') ||
                              s[p + n] == '_'));
}

/* The bodies of the functions in s; NULL with *n = 0 when there are none
 * or memory runs out. */
static Body *find_bodies(const char *s, size_t len, size_t *n)
{
    Body *v = NULL;
    size_t cap = 0;
    *n = 0;
    int depth = 0;
    uint32_t line = 1;
    bool in_func = false;        /* after .entry/.func, before its body */
    size_t func_at = 0;
    for (size_t p = 0; p < len; p++) {
        char c = s[p];
        if (c == '\n') {
            line++;
        } else if (c == '/' && p + 1 < len && s[p + 1] == '/') {
            while (p + 1 < len && s[p + 1] != '\n') {
                p++;
            }
        } else if (c == '/' && p + 1 < len && s[p + 1] == '*') {
            p += 2;
            while (p + 1 < len && !(s[p] == '*' && s[p + 1] == '/')) {
                line += s[p] == '\n';
                p++;
            }
            p++;
        } else if (c == '"') {
            while (p + 1 < len && s[p + 1] != '"' && s[p + 1] != '\n') {
                p += s[p + 1] == '\\' ? 2 : 1;
            }
            p++;
        } else if (depth == 0 && c == '.' &&
                   (word_at(s, len, p, ".entry") ||
                    word_at(s, len, p, ".func"))) {
            in_func = true;
            func_at = p + (s[p + 1] == 'e' ? 6 : 5);
        } else if (c == ';' && depth == 0) {
            in_func = false;     /* a declaration */
        } else if (c == '{') {
            if (depth == 0 && in_func) {
                if (*n == cap) {
                    size_t nc = cap ? cap * 2 : 16;
                    Body *nv = realloc(v, nc * sizeof(*v));
                    if (!nv) {
                        free(v);
                        *n = 0;
                        return NULL;
                    }
                    v = nv;
                    cap = nc;
                }
                Body *b = &v[(*n)++];
                memset(b, 0, sizeof(*b));
                b->open = p;
                b->line0 = line;
                func_name(s, len, func_at, b);
                in_func = false;
            }
            depth++;
        } else if (c == '}' && depth > 0) {
            depth--;
            if (depth == 0 && *n && v[*n - 1].close == 0 &&
                v[*n - 1].open < p) {
                v[*n - 1].close = p;
                v[*n - 1].line1 = line;
            }
        }
    }
    return v;
}

/* The body holding line, or NULL. */
static Body *body_of(Body *v, size_t n, uint32_t line)
{
    for (size_t i = 0; i < n; i++) {
        if (v[i].close && line > v[i].line0 && line <= v[i].line1) {
            return &v[i];
        }
    }
    return NULL;
}

/* Hands each error record of diag text buf ("FILE:LINE:COL: error: ..."
 * and the lines up to the next record) to its body; false when one lies
 * outside every body or memory runs out. */
static bool assign_errors(const char *file, const char *buf, Body *v,
                          size_t n)
{
    size_t fl = strlen(file);
    const char *p = buf;
    while (*p) {
        const char *end = p;
        do {
            end = strchr(end, '\n');
            end = end ? end + 1 : p + strlen(p);
        } while (*end && !(strncmp(end, file, fl) == 0 && end[fl] == ':'));
        if (strncmp(p, file, fl) != 0 || p[fl] != ':') {
            return false;
        }
        uint32_t line = (uint32_t)strtoul(p + fl + 1, NULL, 10);
        bool warning = strstr(p, ": warning: ") &&
            strstr(p, ": warning: ") < strchr(p, '\n');
        Body *b = body_of(v, n, line);
        if (!b && !warning) {
            return false;
        }
        if (b && !warning) {
            size_t k = (size_t)(end - p);
            char *e = realloc(b->errs, b->nerrs + k + 1);
            if (!e) {
                return false;
            }
            memcpy(e + b->nerrs, p, k);
            b->nerrs += k;
            e[b->nerrs] = 0;
            b->errs = e;
            b->bad = true;
        }
        p = end;
    }
    return true;
}

IrModule *ptx_parse_lazy(const char *filename, char *src, size_t len,
                         PtxDiag *d)
{
    IrModule *m = ptx_parse_string(filename, src, len, d, NULL);
    if (m || !d->buf) {
        return m;
    }
    size_t nb = 0;
    Body *v = find_bodies(src, len, &nb);
    if (!v || !assign_errors(filename, d->buf, v, nb)) {
        goto out;
    }
    for (size_t i = 0; i < nb; i++) {
        if (!v[i].bad) {
            continue;
        }
        for (size_t p = v[i].open + 1; p < v[i].close; p++) {
            if (src[p] != '\n') {
                src[p] = ' ';
            }
        }
        if (v[i].close - v[i].open > 4) {
            memcpy(src + v[i].open + 1, "ret;", 4);
        }
    }
    PtxDiag d2;
    m = ptx_parse_string(filename, src, len, &d2, NULL);
    ptx_diag_fini(&d2);
    for (uint32_t f = 0; m && f < m->nfuncs; f++) {
        IrFunc *fn = m->funcs[f];
        for (size_t i = 0; i < nb; i++) {
            if (v[i].bad && !fn->is_decl && !strcmp(fn->name, v[i].name)) {
                fn->load_error = ptx_arena_intern(m->arena, v[i].errs,
                                                  v[i].nerrs);
            }
        }
    }
out:
    for (size_t i = 0; i < nb; i++) {
        free(v[i].errs);
    }
    free(v);
    return m;
}
