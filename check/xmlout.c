/*
 * check/xmlout.c: JSON Lines records to XML elements (see xmlout.h).
 * The JSON is our own (the checkers of check/, through tm_json_string, which escapes
 * only '"', '\\' and control characters as \u00XX), read by a small
 * recursive-descent reader after RFC 8259; anything else it rejects.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check/xmlout.h"

enum { MAX_DEPTH = 16 };

typedef struct Rd {
    const char *p, *end;
    FILE *o;
    bool bad;
} Rd;

static void ws(Rd *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' ||
                             *r->p == '\r')) {
        r->p++;
    }
}

static bool eat(Rd *r, char c)
{
    ws(r);
    if (r->p < r->end && *r->p == c) {
        r->p++;
        return true;
    }
    return false;
}

static void indent(FILE *o, int depth)
{
    for (int i = 0; i < depth; i++) {
        fputs("  ", o);
    }
}

/* One UTF-8 sequence at s (n bytes left): its length, 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    size_t k = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4
               : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : 0;
    if (!k || k > n) {
        return 0;
    }
    for (size_t i = 1; i < k; i++) {
        if ((s[i] & 0xc0) != 0x80) {
            return 0;
        }
    }
    return k;
}

/* A JSON string at r->p (after its '"') written as XML text (out may
 * be NULL: skipped); or, for a name, its characters checked against
 * [a-z_0-9]. */
static void string(Rd *r, FILE *out, char *name, size_t cap)
{
    size_t n = 0;
    while (r->p < r->end && *r->p != '"') {
        unsigned char c = (unsigned char)*r->p++;
        char esc = 0;
        if (c == '\\') {
            if (r->p >= r->end) {
                break;
            }
            char e = *r->p++;
            if (e == 'u' && r->end - r->p >= 4) {
                char hex[5] = { r->p[0], r->p[1], r->p[2], r->p[3], 0 };
                r->p += 4;
                c = (unsigned char)strtoul(hex, NULL, 16);
                c = c >= 0x20 && c < 0x7f ? c : '?';
            } else {
                c = e == 'n' || e == 't' || e == 'r' || e == 'b' ||
                    e == 'f' ? '?' : (unsigned char)e;
            }
            esc = 1;
        }
        if (name) {
            bool ok = (c >= 'a' && c <= 'z') || c == '_' ||
                      (n && c >= '0' && c <= '9');
            if (!ok || n + 1 >= cap) {
                r->bad = true;
                return;
            }
            name[n++] = (char)c;
            continue;
        }
        if (!out) {
            continue;
        }
        if (c == '&') {
            fputs("&amp;", out);
        } else if (c == '<') {
            fputs("&lt;", out);
        } else if (c == '>') {
            fputs("&gt;", out);
        } else if (c == '"') {
            fputs("&quot;", out);
        } else if (c < 0x20) {
            fputc('?', out);
        } else if (c < 0x80 || esc) {
            fputc(c, out);
        } else {
            size_t k = utf8_len((const unsigned char *)r->p - 1,
                                (size_t)(r->end - (r->p - 1)));
            if (k) {
                fwrite(r->p - 1, 1, k, out);
                r->p += k - 1;
            } else {
                fputc('?', out);
            }
        }
    }
    if (name) {
        name[n] = '\0';
        r->bad |= n == 0;
    }
    if (!eat(r, '"')) {
        r->bad = true;
    }
}

static void value(Rd *r, const char *name, int depth);

/* the members of an object (after its '{'), each as an element */
static void members(Rd *r, int depth)
{
    if (eat(r, '}')) {
        return;
    }
    do {
        char key[64];
        if (!eat(r, '"')) {
            r->bad = true;
            return;
        }
        string(r, NULL, key, sizeof(key));
        if (r->bad || !eat(r, ':')) {
            r->bad = true;
            return;
        }
        value(r, key, depth);
    } while (!r->bad && eat(r, ','));
    if (!eat(r, '}')) {
        r->bad = true;
    }
}

static void value(Rd *r, const char *name, int depth)
{
    FILE *o = r->o;
    if (depth > MAX_DEPTH) {
        r->bad = true;
        return;
    }
    indent(o, depth);
    fprintf(o, "<%s>", name);
    ws(r);
    if (eat(r, '{')) {
        fputc('\n', o);
        members(r, depth + 1);
        indent(o, depth);
    } else if (eat(r, '[')) {
        fputc('\n', o);
        if (!eat(r, ']')) {
            do {
                value(r, "item", depth + 1);
            } while (!r->bad && eat(r, ','));
            r->bad |= !eat(r, ']');
        }
        indent(o, depth);
    } else if (eat(r, '"')) {
        string(r, o, NULL, 0);
    } else {
        /* a number, true, false or null: its characters */
        const char *s = r->p;
        while (r->p < r->end && strchr("0123456789+-.eEtrufalsn", *r->p)) {
            r->p++;
        }
        r->bad |= r->p == s;
        fwrite(s, 1, (size_t)(r->p - s), o);
    }
    fprintf(o, "</%s>\n", name);
}

void san_xml_begin(FILE *out)
{
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<sanitize version=\"1\">\n", out);
}

void san_xml_end(FILE *out)
{
    fputs("</sanitize>\n", out);
    fflush(out);
}

/* One record: {"summary":{...}} becomes <summary>, any other object
 * <error>. */
static void record(FILE *out, const char *s, const char *end)
{
    static const char sum[] = "{\"summary\":";
    bool summary = (size_t)(end - s) > sizeof(sum) &&
                   !memcmp(s, sum, sizeof(sum) - 1);
    char *text = NULL;
    size_t len = 0;
    FILE *tmp = open_memstream(&text, &len);
    if (!tmp) {
        fputs("  <!-- out of memory -->\n", out);
        return;
    }
    Rd r = { .p = s, .end = end, .o = tmp };
    if (summary) {
        r.p += sizeof(sum) - 1;
        value(&r, "summary", 1);
        r.bad |= !eat(&r, '}');
    } else if (eat(&r, '{')) {
        fputs("  <error>\n", tmp);
        members(&r, 2);
        fputs("  </error>\n", tmp);
    } else {
        r.bad = true;
    }
    ws(&r);
    r.bad |= r.p != end;
    fclose(tmp);
    if (r.bad) {
        fputs("  <!-- a record that is not a JSON object -->\n", out);
    } else {
        fwrite(text, 1, len, out);
    }
    free(text);
}

size_t san_xml_records(FILE *out, const char *buf, size_t len)
{
    size_t done = 0;
    while (done < len) {
        const char *nl = memchr(buf + done, '\n', len - done);
        if (!nl) {
            break;
        }
        if (nl > buf + done) {
            record(out, buf + done, nl);
        }
        done = (size_t)(nl - buf) + 1;
    }
    return done;
}
