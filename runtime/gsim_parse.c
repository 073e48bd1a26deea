/*
 * runtime/gsim_parse.c: a gpgpusim.config file as a list of options
 * (gsim_import.h has the syntax and the rules on bad input).
 */
#include "runtime/gsim_import.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define GSIM_MAX_TOKEN 4096

typedef struct Lexer {
    const char *p, *end;
    uint32_t line;
    const char *file;
    char *err;
    size_t errlen;
} Lexer;

static int fail(Lexer *lx, uint32_t line, const char *what, const char *tok)
{
    if (tok) {
        snprintf(lx->err, lx->errlen, "%s:%u: %s '%.60s'", lx->file, line,
                 what, tok);
    } else {
        snprintf(lx->err, lx->errlen, "%s:%u: %s", lx->file, line, what);
    }
    return -1;
}

static bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The next token into buf (NUL-terminated) and its line; 0 at the end
 * of the text, 1 for a token, -1 on an error. */
static int next_token(Lexer *lx, char *buf, uint32_t *line)
{
    for (;;) {
        while (lx->p < lx->end && blank(*lx->p)) {
            lx->line += *lx->p++ == '\n';
        }
        if (lx->p == lx->end) {
            return 0;
        }
        if (*lx->p != '#') {
            break;
        }
        while (lx->p < lx->end && *lx->p != '\n') {
            lx->p++;
        }
    }
    *line = lx->line;
    size_t n = 0;
    if (*lx->p == '"') {
        lx->p++;
        while (lx->p < lx->end && *lx->p != '"') {
            if (n + 1 >= GSIM_MAX_TOKEN) {
                return fail(lx, *line, "quoted value too long", NULL);
            }
            lx->line += *lx->p == '\n';
            buf[n++] = *lx->p++;
        }
        if (lx->p == lx->end) {
            return fail(lx, *line, "unterminated quoted value", NULL);
        }
        lx->p++;
    } else {
        while (lx->p < lx->end && !blank(*lx->p)) {
            if (n + 1 >= GSIM_MAX_TOKEN) {
                return fail(lx, *line, "token too long", NULL);
            }
            buf[n++] = *lx->p++;
        }
    }
    buf[n] = 0;
    return 1;
}

static bool name_ok(const char *s)
{
    if (s[0] != '-' || !s[1] || strlen(s) > 128) {
        return false;
    }
    for (s++; *s; s++) {
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || *s == '_' || *s == ':' ||
              *s == '.' || *s == '-')) {
            return false;
        }
    }
    return true;
}

static int add(GsimFile *f, const char *name, const char *value,
               uint32_t line)
{
    if (f->n == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 64;
        GsimOpt *o = realloc(f->opt, cap * sizeof *o);
        if (!o) {
            return -1;
        }
        f->opt = o;
        f->cap = cap;
    }
    GsimOpt *o = &f->opt[f->n];
    o->name = strdup(name);
    o->value = strdup(value);
    o->line = line;
    if (!o->name || !o->value) {
        free(o->name);
        free(o->value);
        return -1;
    }
    f->n++;
    return 0;
}

int gsim_parse(const char *text, size_t len, const char *file, GsimFile *f,
               char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    Lexer lx = {text, text + len, 1, file, err, errlen};
    if (len > GSIM_MAX_FILE) {
        return fail(&lx, 1, "file larger than 1 MiB", NULL);
    }
    uint32_t line = 1;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if ((c < 0x20 && c != '\t' && c != '\r' && c != '\n') || c == 0x7f) {
            char what[64];
            snprintf(what, sizeof what, "unexpected byte 0x%02x (not a text "
                                        "file?)", c);
            return fail(&lx, line, what, NULL);
        }
        line += c == '\n';
    }
    char *name = malloc(GSIM_MAX_TOKEN), *value = malloc(GSIM_MAX_TOKEN);
    int rc = name && value ? 0 : -1;
    if (rc) {
        snprintf(err, errlen, "%s: out of memory", file);
    }
    while (!rc) {
        uint32_t nl, vl;
        int k = next_token(&lx, name, &nl);
        if (k <= 0) {
            rc = k;
            break;
        }
        if (!name_ok(name)) {
            rc = fail(&lx, nl, "expected an option (-name), found", name);
            break;
        }
        k = next_token(&lx, value, &vl);
        if (k < 0) {
            rc = -1;
        } else if (k == 0) {
            rc = fail(&lx, nl, "option without a value:", name);
        } else if (add(f, name, value, nl)) {
            snprintf(err, errlen, "%s: out of memory", file);
            rc = -1;
        }
    }
    free(name);
    free(value);
    if (rc) {
        gsim_free(f);
    }
    return rc;
}

void gsim_free(GsimFile *f)
{
    for (size_t i = 0; i < f->n; i++) {
        free(f->opt[i].name);
        free(f->opt[i].value);
    }
    free(f->opt);
    memset(f, 0, sizeof *f);
}
