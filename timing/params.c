/*
 * timing/params.c: TmParams, a timing model's typed parameters (tm.h).
 *
 * Values are given before the model says what it accepts: the host reads
 * `--timing-config FILE` and every `--timing-set key=value`, then creates
 * the model, which declares its tables (ops->params, declare_params).  So
 * given values are kept as text with where they came from, and parsed
 * when (or, for a value given later, as soon as) their name is declared;
 * tm_params_check_unused then reports the names nobody declared.
 *
 * Input syntax (the same for a file line and an override):
 *   key = value        surrounding blanks ignored; '#' starts a comment
 *                      (outside a double-quoted value) in a file
 *   key = "a # b"      a value in double quotes keeps its blanks and '#'
 * Keys are [A-Za-z0-9_.-]+.  In one file a key may appear once; a later
 * file wins over an earlier one, and an override (--timing-set) always
 * wins over every file, whatever the order of the calls; among
 * overrides the last wins.
 *
 * Types: int (int64) and uint (uint64) are decimal or 0x-hex, with an
 * optional binary suffix k/K (x1024), m/M (x2^20) or g/G (x2^30), as
 * cache and memory sizes are given ("32k"); overflow is an error.
 * double is strtod's syntax, finite only.  bool is 0/1, true/false,
 * yes/no, on/off (any case).  string is the text as given.  A default
 * is parsed as input would be, so a table with a bad default is refused
 * at declare time.
 *
 * Reading a name that was not declared, or reading it as another type,
 * is the model's bug.  It must not crash the host (the plug-in ABI
 * promises that), so the read returns the type's zero (0, false, "") and
 * the first such misuse is remembered; tm_params_check_unused reports
 * it as an error, which stops the model's creation.
 *
 * Input is bounded: a config file must be a regular file of at most
 * TM_PARAMS_MAX_FILE bytes without NUL bytes.
 */
#include "timing/tm.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define TM_PARAMS_MAX_FILE (1u << 20)
#define SET_ORIGIN "--timing-set"

/* A value as given: key, text and where it came from. */
typedef struct Given {
    char *key;
    char *val;
    const char *origin;         /* file name (owned by files[]) or NULL:
                                   an override */
    uint32_t line;
    uint32_t file;              /* index + 1 in files[]; 0: override */
    bool declared;              /* some table declared key */
} Given;

typedef union Value {
    int64_t i;
    uint64_t u;
    double d;
    bool b;
    const char *s;              /* points into a Given's or the table's
                                   text: both outlive the read */
} Value;

/* A declared parameter. */
typedef struct Decl {
    ptxemu_tm_param p;          /* name, def and help point into the
                                   model's table (valid until destroy) */
    Value v;
} Decl;

struct TmParams {
    Given *given;
    size_t ngiven, capgiven;
    Decl *decl;
    size_t ndecl, capdecl;
    char **files;
    size_t nfiles, capfiles;
    char misuse[256];           /* the first bad read, "" if none */
};

/* ------------------------------------------------------------ helpers */

/* "FILE:LINE" or "--timing-set", for messages. */
static void where(const Given *g, char *buf, size_t len)
{
    if (g->origin) {
        snprintf(buf, len, "%s:%u", g->origin, g->line);
    } else {
        snprintf(buf, len, "%s", SET_ORIGIN);
    }
}

static bool grow(void **arr, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap) {
        return true;
    }
    size_t ncap = *cap ? *cap * 2 : 16;
    void *a = realloc(*arr, ncap * elem);
    if (!a) {
        return false;
    }
    *arr = a;
    *cap = ncap;
    return true;
}

static bool valid_key(const char *k, size_t n)
{
    if (!n) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)k[i];
        if (!isalnum(c) && c != '_' && c != '.' && c != '-') {
            return false;
        }
    }
    return true;
}

static const char *const type_name[] = {
    [PTXEMU_TM_P_INT] = "int",
    [PTXEMU_TM_P_UINT] = "uint",
    [PTXEMU_TM_P_DOUBLE] = "double",
    [PTXEMU_TM_P_BOOL] = "bool",
    [PTXEMU_TM_P_STRING] = "string",
};

/* "'abc' is not <what> for 'name'" */
static const char *const type_what[] = {
    [PTXEMU_TM_P_INT] = "an integer",
    [PTXEMU_TM_P_UINT] = "an unsigned integer",
    [PTXEMU_TM_P_DOUBLE] = "a finite number",
    [PTXEMU_TM_P_BOOL] = "a boolean (0/1, true/false, yes/no, on/off)",
    [PTXEMU_TM_P_STRING] = "a string",
};

static bool valid_type(ptxemu_tm_ptype t)
{
    return (unsigned)t <= PTXEMU_TM_P_STRING;
}

/* ------------------------------------------------------------ typed parse */

/* Magnitude with an optional binary suffix; false on junk or overflow. */
static bool parse_mag(const char *s, uint64_t *out)
{
    if (!isdigit((unsigned char)*s)) {
        return false;           /* no sign, blank or empty text here */
    }
    /* Decimal or 0x-hex; a leading 0 is not octal ("010" is ten). */
    bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, hex ? 16 : 10);
    if (errno || end == s || (hex && !isxdigit((unsigned char)s[2]))) {
        return false;
    }
    unsigned shift = 0;
    switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    default: break;
    }
    if (*end || (shift && x > (UINT64_MAX >> shift))) {
        return false;
    }
    *out = (uint64_t)x << shift;
    return true;
}

static bool parse_value(ptxemu_tm_ptype t, const char *s, Value *v)
{
    uint64_t m;
    switch (t) {
    case PTXEMU_TM_P_UINT:
        if (!parse_mag(s, &m)) {
            return false;
        }
        v->u = m;
        return true;
    case PTXEMU_TM_P_INT: {
        bool neg = *s == '-';
        if (!parse_mag(s + (neg || *s == '+'), &m)) {
            return false;
        }
        if (neg ? m > (uint64_t)INT64_MAX + 1 : m > (uint64_t)INT64_MAX) {
            return false;
        }
        v->i = neg ? (int64_t)(0 - m) : (int64_t)m;
        return true;
    }
    case PTXEMU_TM_P_DOUBLE: {
        char *end;
        errno = 0;
        double d = strtod(s, &end);
        if (end == s || *end || isspace((unsigned char)*s) || !isfinite(d) ||
            errno == ERANGE) {
            return false;
        }
        v->d = d;
        return true;
    }
    case PTXEMU_TM_P_BOOL: {
        static const char *const yes[] = {"1", "true", "yes", "on"};
        static const char *const no[] = {"0", "false", "no", "off"};
        for (size_t k = 0; k < sizeof(yes) / sizeof(yes[0]); k++) {
            if (!strcasecmp(s, yes[k]) || !strcasecmp(s, no[k])) {
                v->b = !strcasecmp(s, yes[k]);
                return true;
            }
        }
        return false;
    }
    case PTXEMU_TM_P_STRING:
        v->s = s;
        return true;
    }
    return false;
}

/* ------------------------------------------------------------ lifetime */

TmParams *tm_params_new(void)
{
    return calloc(1, sizeof(TmParams));
}

void tm_params_free(TmParams *p)
{
    if (!p) {
        return;
    }
    for (size_t i = 0; i < p->ngiven; i++) {
        free(p->given[i].key);
        free(p->given[i].val);
    }
    for (size_t i = 0; i < p->nfiles; i++) {
        free(p->files[i]);
    }
    free(p->given);
    free(p->decl);
    free(p->files);
    free(p);
}

/* ------------------------------------------------------------ lookup */

static Decl *find_decl(const TmParams *p, const char *name)
{
    for (size_t i = 0; i < p->ndecl; i++) {
        if (!strcmp(p->decl[i].p.name, name)) {
            return &p->decl[i];
        }
    }
    return NULL;
}

/* The value that wins for key: the last override, else the last file
 * entry. */
static Given *winning(const TmParams *p, const char *key)
{
    Given *file = NULL;
    for (size_t i = p->ngiven; i-- > 0;) {
        Given *g = &p->given[i];
        if (strcmp(g->key, key)) {
            continue;
        }
        if (!g->file) {
            return g;
        }
        if (!file) {
            file = g;
        }
    }
    return file;
}

/* Parse given value g for declaration d; located error on failure. */
static int apply(Decl *d, const Given *g, char *err, size_t errlen)
{
    Value v;
    if (!parse_value(d->p.type, g->val, &v)) {
        char at[300];
        where(g, at, sizeof(at));
        tm_seterr(err, errlen, "%s: '%s' is not %s for '%s'", at, g->val,
                  type_what[d->p.type], d->p.name);
        return -1;
    }
    d->v = v;
    return 0;
}

/* ------------------------------------------------------------ input */

/* Record key/val (already trimmed; copies them).  An entry of a file
 * (file != 0) may not repeat a key of the same file. */
static int add_given(TmParams *p, const char *key, size_t klen,
                     const char *val, size_t vlen, uint32_t file,
                     uint32_t line, char *err, size_t errlen)
{
    const char *origin = file ? p->files[file - 1] : NULL;
    char at[300];
    Given probe = {.origin = origin, .line = line, .file = file};
    where(&probe, at, sizeof(at));
    if (!valid_key(key, klen)) {
        tm_seterr(err, errlen, "%s: '%.*s' is not a parameter name "
                  "(letters, digits, '_', '.', '-')", at,
                  (int)(klen > 64 ? 64 : klen), key);
        return -1;
    }
    if (file) {
        for (size_t i = 0; i < p->ngiven; i++) {
            const Given *g = &p->given[i];
            if (g->file == file && strlen(g->key) == klen &&
                !memcmp(g->key, key, klen)) {
                tm_seterr(err, errlen, "%s: '%s' is already set at line %u",
                          at, g->key, g->line);
                return -1;
            }
        }
    }
    if (!grow((void **)&p->given, &p->capgiven, p->ngiven, sizeof(Given))) {
        tm_seterr(err, errlen, "%s: out of memory", at);
        return -1;
    }
    Given *g = &p->given[p->ngiven];
    *g = probe;
    g->key = strndup(key, klen);
    g->val = strndup(val, vlen);
    if (!g->key || !g->val) {
        free(g->key);
        free(g->val);
        tm_seterr(err, errlen, "%s: out of memory", at);
        return -1;
    }
    p->ngiven++;
    /* Declared already: parse now, so a bad value is reported here. */
    Decl *d = find_decl(p, g->key);
    if (d) {
        g->declared = true;
        if (winning(p, g->key) == g && apply(d, g, err, errlen)) {
            return -1;
        }
    }
    return 0;
}

static const char *skip_blank(const char *s, const char *end)
{
    while (s < end && (*s == ' ' || *s == '\t' || *s == '\r')) {
        s++;
    }
    return s;
}

static const char *trim_end(const char *s, const char *end)
{
    while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r')) {
        end--;
    }
    return end;
}

/* One line [s, end) of a file (or an override when file == 0). */
static int parse_line(TmParams *p, const char *s, const char *end,
                      uint32_t file, uint32_t line, char *err, size_t errlen)
{
    const char *origin = file ? p->files[file - 1] : NULL;
    char at[300];
    Given probe = {.origin = origin, .line = line, .file = file};
    where(&probe, at, sizeof(at));
    s = skip_blank(s, end);
    if (file && (s == end || *s == '#')) {
        return 0;               /* blank or comment line */
    }
    const char *eq = memchr(s, '=', (size_t)(end - s));
    if (!eq) {
        tm_seterr(err, errlen, "%s: expected 'key = value'", at);
        return -1;
    }
    const char *kend = trim_end(s, eq);
    const char *v = skip_blank(eq + 1, end);
    const char *vend;
    if (v < end && *v == '"') {
        v++;
        const char *q = memchr(v, '"', (size_t)(end - v));
        if (!q) {
            tm_seterr(err, errlen, "%s: unterminated \"string\"", at);
            return -1;
        }
        vend = q;
        const char *rest = skip_blank(q + 1, end);
        if (rest < end && !(file && *rest == '#')) {
            tm_seterr(err, errlen, "%s: text after the closing quote", at);
            return -1;
        }
    } else {
        vend = end;
        if (file) {
            const char *hash = memchr(v, '#', (size_t)(end - v));
            if (hash) {
                vend = hash;
            }
        }
        vend = trim_end(v, vend);
    }
    return add_given(p, s, (size_t)(kend - s), v, (size_t)(vend - v), file,
                     line, err, errlen);
}

int tm_params_read_file(TmParams *p, const char *path, char *err,
                        size_t errlen)
{
    /* O_NONBLOCK: opening a FIFO must not wait for a writer; the type is
     * checked on the descriptor we read (no race with a rename). */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        tm_seterr(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        tm_seterr(err, errlen, "%s: not a regular file", path);
        close(fd);
        return -1;
    }
    if (st.st_size > TM_PARAMS_MAX_FILE) {
        tm_seterr(err, errlen, "%s: larger than %u bytes (a timing config is "
                  "a short list of key = value lines)", path,
                  TM_PARAMS_MAX_FILE);
        close(fd);
        return -1;
    }
    /* Read one byte more than the limit: the file may have grown. */
    char *buf = malloc(TM_PARAMS_MAX_FILE + 1);
    size_t n = 0;
    if (!buf) {
        tm_seterr(err, errlen, "%s: out of memory", path);
        close(fd);
        return -1;
    }
    for (;;) {
        ssize_t r = read(fd, buf + n, TM_PARAMS_MAX_FILE + 1 - n);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r < 0) {
            tm_seterr(err, errlen, "%s: %s", path, strerror(errno));
            free(buf);
            close(fd);
            return -1;
        }
        if (r == 0 || (n += (size_t)r) > TM_PARAMS_MAX_FILE) {
            break;
        }
    }
    close(fd);
    if (n > TM_PARAMS_MAX_FILE) {
        tm_seterr(err, errlen, "%s: larger than %u bytes", path,
                  TM_PARAMS_MAX_FILE);
        free(buf);
        return -1;
    }
    char *name = strdup(path);
    if (!name || !grow((void **)&p->files, &p->capfiles, p->nfiles,
                       sizeof(char *))) {
        free(name);
        free(buf);
        tm_seterr(err, errlen, "%s: out of memory", path);
        return -1;
    }
    p->files[p->nfiles++] = name;
    uint32_t file = (uint32_t)p->nfiles;
    int rc = 0;
    uint32_t line = 1;
    for (const char *s = buf, *end = buf + n; s < end && !rc; line++) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *le = nl ? nl : end;
        if (memchr(s, '\0', (size_t)(le - s))) {
            tm_seterr(err, errlen, "%s:%u: a NUL byte (not a text file)", path,
                      line);
            rc = -1;
            break;
        }
        rc = parse_line(p, s, le, file, line, err, errlen);
        s = le + 1;
    }
    free(buf);
    return rc;
}

int tm_params_set(TmParams *p, const char *kv, char *err, size_t errlen)
{
    return parse_line(p, kv, kv + strlen(kv), 0, 0, err, errlen);
}

/* ------------------------------------------------------------ declare */

int tm_params_declare(TmParams *p, const ptxemu_tm_param *t, uint32_t n,
                      char *err, size_t errlen)
{
    if (n && !t) {
        tm_seterr(err, errlen, "a parameter table of %u entries is NULL", n);
        return -1;
    }
    for (uint32_t k = 0; k < n; k++) {
        const ptxemu_tm_param *e = &t[k];
        if (!e->name || !valid_key(e->name, strlen(e->name))) {
            tm_seterr(err, errlen, "parameter %u of the table: '%s' is not a "
                      "parameter name (letters, digits, '_', '.', '-')", k,
                      e->name ? e->name : "(null)");
            return -1;
        }
        if (!valid_type(e->type)) {
            tm_seterr(err, errlen, "parameter '%s': unknown type %d", e->name,
                      (int)e->type);
            return -1;
        }
        if (find_decl(p, e->name)) {
            tm_seterr(err, errlen, "parameter '%s' is declared twice",
                      e->name);
            return -1;
        }
        Decl d = {.p = *e};
        if (!d.p.def) {
            d.p.def = "";
        }
        if (!d.p.help) {
            d.p.help = "";
        }
        if (!parse_value(d.p.type, d.p.def, &d.v)) {
            tm_seterr(err, errlen, "parameter '%s': default '%s' is not %s",
                      e->name, d.p.def, type_what[d.p.type]);
            return -1;
        }
        Given *g = winning(p, e->name);
        if (g && apply(&d, g, err, errlen)) {
            return -1;
        }
        if (!grow((void **)&p->decl, &p->capdecl, p->ndecl, sizeof(Decl))) {
            tm_seterr(err, errlen, "out of memory");
            return -1;
        }
        p->decl[p->ndecl++] = d;
        for (size_t i = 0; i < p->ngiven; i++) {
            if (!strcmp(p->given[i].key, e->name)) {
                p->given[i].declared = true;
            }
        }
    }
    return 0;
}

/* ------------------------------------------------------------ reads */

static const Value *lookup(TmParams *p, const char *name, ptxemu_tm_ptype t)
{
    Decl *d = name ? find_decl(p, name) : NULL;
    if (d && d->p.type == t) {
        return &d->v;
    }
    if (!p->misuse[0]) {
        if (!d) {
            snprintf(p->misuse, sizeof(p->misuse), "the timing model read "
                     "parameter '%.64s', which it did not declare",
                     name ? name : "(null)");
        } else {
            snprintf(p->misuse, sizeof(p->misuse), "the timing model read "
                     "%s parameter '%.64s' as %s", type_name[d->p.type], name,
                     type_name[t]);
        }
    }
    return NULL;
}

int64_t tm_params_int(TmParams *p, const char *name)
{
    const Value *v = lookup(p, name, PTXEMU_TM_P_INT);
    return v ? v->i : 0;
}

uint64_t tm_params_uint(TmParams *p, const char *name)
{
    const Value *v = lookup(p, name, PTXEMU_TM_P_UINT);
    return v ? v->u : 0;
}

double tm_params_double(TmParams *p, const char *name)
{
    const Value *v = lookup(p, name, PTXEMU_TM_P_DOUBLE);
    return v ? v->d : 0.0;
}

bool tm_params_bool(TmParams *p, const char *name)
{
    const Value *v = lookup(p, name, PTXEMU_TM_P_BOOL);
    return v ? v->b : false;
}

const char *tm_params_string(TmParams *p, const char *name)
{
    const Value *v = lookup(p, name, PTXEMU_TM_P_STRING);
    return v ? v->s : "";
}

/* ------------------------------------------------------------ checks */

int tm_params_check_unused(const TmParams *p, char *err, size_t errlen)
{
    if (p->misuse[0]) {
        tm_seterr(err, errlen, "%s", p->misuse);
        return -1;
    }
    const Given *first = NULL;
    size_t more = 0;
    for (size_t i = 0; i < p->ngiven; i++) {
        if (!p->given[i].declared) {
            if (first) {
                more++;
            } else {
                first = &p->given[i];
            }
        }
    }
    if (!first) {
        return 0;
    }
    char at[300];
    where(first, at, sizeof(at));
    if (more) {
        tm_seterr(err, errlen, "%s: unknown key '%s' (and %zu more unknown "
                  "key%s; --timing-help lists the parameters)", at, first->key,
                  more, more == 1 ? "" : "s");
    } else {
        tm_seterr(err, errlen, "%s: unknown key '%s' (--timing-help lists the "
                  "parameters)", at, first->key);
    }
    return -1;
}

size_t tm_params_count(const TmParams *p)
{
    return p->ndecl;
}

void tm_params_print_help(const TmParams *p, FILE *out)
{
    int wname = (int)strlen("parameter"), wtype = (int)strlen("type");
    int wdef = (int)strlen("default");
    for (size_t i = 0; i < p->ndecl; i++) {
        const ptxemu_tm_param *e = &p->decl[i].p;
        int ln = (int)strlen(e->name), lt = (int)strlen(type_name[e->type]);
        int ld = (int)strlen(e->def) + (e->type == PTXEMU_TM_P_STRING ? 2 : 0);
        wname = ln > wname ? ln : wname;
        wtype = lt > wtype ? lt : wtype;
        wdef = ld > wdef ? ld : wdef;
    }
    fprintf(out, "  %-*s  %-*s  %-*s  %s\n", wname, "parameter", wtype,
            "type", wdef, "default", "help");
    for (size_t i = 0; i < p->ndecl; i++) {
        const ptxemu_tm_param *e = &p->decl[i].p;
        char def[256];
        /* Strings are quoted so an empty default is visible. */
        snprintf(def, sizeof(def), e->type == PTXEMU_TM_P_STRING ?
                 "\"%s\"" : "%s", e->def);
        fprintf(out, "  %-*s  %-*s  %-*s  %s\n", wname, e->name, wtype,
                type_name[e->type], wdef, def, e->help);
    }
}

/* Prints text indented by `indent`, broken at blanks before column 79. */
void tm_print_wrapped(FILE *out, const char *text, int indent)
{
    const int width = 79 - indent;
    while (*text) {
        int n = (int)strlen(text);
        if (n > width) {
            n = width;
            while (n > 0 && text[n] != ' ') {
                n--;
            }
            if (n == 0) {           /* one word longer than a line */
                n = (int)strcspn(text, " ");
            }
        }
        fprintf(out, "%*s%.*s\n", indent, "", n, text);
        text += n;
        while (*text == ' ') {
            text++;
        }
    }
}
