/*
 * runtime/argspec.c: `ptxemu run --arg SPEC` parsing (see argspec.h).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/argspec.h"

static const ArgType types[] = {
    {"u8", 1, AT_U}, {"u16", 2, AT_U}, {"u32", 4, AT_U}, {"u64", 8, AT_U},
    {"s8", 1, AT_S}, {"s16", 2, AT_S}, {"s32", 4, AT_S}, {"s64", 8, AT_S},
    {"b8", 1, AT_B}, {"b16", 2, AT_B}, {"b32", 4, AT_B}, {"b64", 8, AT_B},
    {"f16", 2, AT_F}, {"bf16", 2, AT_BF}, {"f32", 4, AT_F}, {"f64", 8, AT_F},
};

/* Largest buffer accepted (elements * size), a guard against typos. */
#define ARGSPEC_MAX_BYTES ((uint64_t)1 << 34)

const ArgType *argspec_type(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        if (strlen(types[i].name) == len && !memcmp(types[i].name, name, len)) {
            return &types[i];
        }
    }
    return NULL;
}

__attribute__((format(printf, 3, 4)))
static int err_usage(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return ARGSPEC_USAGE;
}

/* ---- half precision ---- */

uint16_t argspec_f32_to_f16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t exp = (x >> 23) & 0xffu;
    uint32_t man = x & 0x7fffffu;
    if (exp == 0xff) {                       /* inf, nan (quiet, keep top) */
        return (uint16_t)(sign | 0x7c00u |
                          (man ? 0x200u | (man >> 13) : 0));
    }
    int e = (int)exp - 127 + 15;
    if (e >= 31) {
        return (uint16_t)(sign | 0x7c00u);  /* overflow to inf */
    }
    if (e <= 0) {                            /* subnormal or zero */
        if (e < -10) {
            return (uint16_t)sign;
        }
        man |= 0x800000u;
        unsigned shift = (unsigned)(14 - e);
        uint32_t h = man >> shift;
        uint32_t rem = man & ((1u << shift) - 1);
        uint32_t half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1))) {
            h++;
        }
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)e << 10) | (man >> 13);
    uint32_t rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) {
        h++;                                 /* may carry into inf: right */
    }
    return (uint16_t)(sign | h);
}

float argspec_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    uint32_t x;
    if (exp == 0x1f) {
        x = sign | 0x7f800000u | (man << 13);
    } else if (exp == 0) {
        if (!man) {
            x = sign;
        } else {
            float f = ldexpf((float)man, -24);
            memcpy(&x, &f, 4);
            x |= sign;
        }
    } else {
        x = sign | ((exp - 15 + 127) << 23) | (man << 13);
    }
    float f;
    memcpy(&f, &x, 4);
    return f;
}

uint16_t argspec_f32_to_bf16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u) {
        return (uint16_t)((x >> 16) | 0x40u);  /* quiet nan */
    }
    uint32_t rem = x & 0xffffu;
    uint32_t h = x >> 16;
    if (rem > 0x8000u || (rem == 0x8000u && (h & 1))) {
        h++;
    }
    return (uint16_t)h;
}

float argspec_bf16_to_f32(uint16_t h)
{
    uint32_t x = (uint32_t)h << 16;
    float f;
    memcpy(&f, &x, 4);
    return f;
}

uint64_t argspec_xorshift64s(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

/* ---- numbers ---- */

/* Integer text: optional sign, then decimal or 0x hex, nothing else. */
static bool parse_int(const char *s, size_t len, bool *neg, uint64_t *mag)
{
    char buf[80];
    if (!len || len >= sizeof(buf)) {
        return false;
    }
    memcpy(buf, s, len);
    buf[len] = '\0';
    const char *p = buf;
    *neg = false;
    if (*p == '-' || *p == '+') {
        *neg = *p == '-';
        p++;
    }
    int base = 10;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    }
    if (!*p || !(base == 16 ? strchr("0123456789abcdefABCDEF", *p) != NULL
                            : (*p >= '0' && *p <= '9'))) {
        return false;
    }
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, base);
    if (errno || *end) {
        return false;
    }
    *mag = v;
    return true;
}

bool argspec_parse_uint(const char *s, uint64_t max, uint64_t *out)
{
    bool neg;
    uint64_t v;
    if (!s || !parse_int(s, strlen(s), &neg, &v) || neg || v > max) {
        return false;
    }
    *out = v;
    return true;
}

bool argspec_parse_dim3(const char *s, unsigned d[3])
{
    d[0] = d[1] = d[2] = 1;
    unsigned n = 0;
    const char *p = s;
    while (n < 3) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        bool neg;
        uint64_t v;
        if (!parse_int(p, len, &neg, &v) || neg || v == 0 || v > UINT32_MAX) {
            return false;
        }
        d[n++] = (unsigned)v;
        if (!c) {
            return true;
        }
        p = c + 1;
    }
    return false;
}

/* Convert text to one element of type t at out.  false if malformed or
 * out of range. */
static bool parse_value(const ArgType *t, const char *s, size_t len,
                        uint8_t *out)
{
    if (t->kind == AT_F || t->kind == AT_BF) {
        char buf[128];
        if (!len || len >= sizeof(buf)) {
            return false;
        }
        memcpy(buf, s, len);
        buf[len] = '\0';
        char *end;
        errno = 0;
        double d = strtod(buf, &end);
        if (*end || end == buf) {
            return false;
        }
        if (t->size == 8) {
            memcpy(out, &d, 8);
        } else if (t->size == 4) {
            float f = (float)d;
            memcpy(out, &f, 4);
        } else {
            uint16_t h = t->kind == AT_BF ? argspec_f32_to_bf16((float)d)
                                          : argspec_f32_to_f16((float)d);
            memcpy(out, &h, 2);
        }
        return true;
    }
    bool neg;
    uint64_t mag;
    if (!parse_int(s, len, &neg, &mag)) {
        return false;
    }
    unsigned bits = t->size * 8;
    uint64_t umax = bits == 64 ? UINT64_MAX : (((uint64_t)1 << bits) - 1);
    uint64_t smax = umax >> 1;          /* largest positive signed */
    uint64_t v;
    if (neg) {
        if (t->kind == AT_U || mag > smax + 1) {
            return false;
        }
        v = (uint64_t)0 - mag;
    } else {
        if (mag > (t->kind == AT_S ? smax : umax)) {
            return false;
        }
        v = mag;
    }
    memcpy(out, &v, t->size);           /* little-endian host */
    return true;
}

/* Element i of value v converted to type t (iota, fill of integers). */
static void store_u64(const ArgType *t, uint64_t v, uint8_t *out)
{
    if (t->kind == AT_F || t->kind == AT_BF) {
        if (t->size == 8) {
            double d = (double)v;
            memcpy(out, &d, 8);
        } else if (t->size == 4) {
            float f = (float)v;
            memcpy(out, &f, 4);
        } else {
            uint16_t h = t->kind == AT_BF ? argspec_f32_to_bf16((float)v)
                                          : argspec_f32_to_f16((float)v);
            memcpy(out, &h, 2);
        }
        return;
    }
    memcpy(out, &v, t->size);
}

static void store_rand(const ArgType *t, uint64_t r, uint8_t *out)
{
    if (t->kind == AT_F || t->kind == AT_BF) {
        if (t->size == 8) {
            double d = (double)(r >> 11) * 0x1p-53;
            memcpy(out, &d, 8);
            return;
        }
        float f = (float)(r >> 40) * 0x1p-24f;
        if (t->size == 4) {
            memcpy(out, &f, 4);
        } else {
            uint16_t h = t->kind == AT_BF ? argspec_f32_to_bf16(f)
                                          : argspec_f32_to_f16(f);
            /* rounding up may reach 1.0: keep [0, 1) */
            float back = t->kind == AT_BF ? argspec_bf16_to_f32(h)
                                          : argspec_f16_to_f32(h);
            if (back >= 1.0f) {
                h = (uint16_t)(h - 1);
            }
            memcpy(out, &h, 2);
        }
        return;
    }
    memcpy(out, &r, t->size);
}

static int parse_hex(const char *s, ArgSpec *a, char *err, size_t errlen)
{
    size_t n = strlen(s);
    if (!n || n % 2) {
        return err_usage(err, errlen, "'%s': hex: needs an even, non-zero "
                         "number of hex digits", a->text);
    }
    a->nbytes = n / 2;
    a->bytes = malloc(a->nbytes);
    if (!a->bytes) {
        return err_usage(err, errlen, "out of memory");
    }
    for (size_t i = 0; i < a->nbytes; i++) {
        unsigned v;
        char pair[3] = {s[2 * i], s[2 * i + 1], 0};
        if (!strchr("0123456789abcdefABCDEF", pair[0]) ||
            !strchr("0123456789abcdefABCDEF", pair[1]) ||
            sscanf(pair, "%2x", &v) != 1) {
            return err_usage(err, errlen, "'%s': '%s' is not a hex byte",
                             a->text, pair);
        }
        a->bytes[i] = (uint8_t)v;
    }
    a->kind = ARG_RAW;
    return ARGSPEC_OK;
}

static int read_into(const char *path, ArgSpec *a, char *err, size_t errlen)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        snprintf(err, errlen, "'%s': cannot open '%s': %s", a->text, path,
                 strerror(errno));
        return ARGSPEC_IO;
    }
    size_t n = fread(a->bytes, 1, a->nbytes, fp);
    int c = fgetc(fp);
    bool bad = ferror(fp);
    fclose(fp);
    if (bad) {
        snprintf(err, errlen, "'%s': cannot read '%s'", a->text, path);
        return ARGSPEC_IO;
    }
    if (c != EOF) {
        return err_usage(err, errlen, "'%s': '%s' is larger than the buffer "
                         "(%zu bytes)", a->text, path, a->nbytes);
    }
    (void)n;                /* the rest stays zero */
    return ARGSPEC_OK;
}

static int parse_buffer(const char *s, ArgSpec *a, char *err, size_t errlen)
{
    const char *c1 = strchr(s, ':');
    if (!c1) {
        return err_usage(err, errlen, "'%s': expected buf:TYPE:COUNT[:INIT]",
                         a->text);
    }
    a->type = argspec_type(s, (size_t)(c1 - s));
    if (!a->type) {
        return err_usage(err, errlen, "'%s': unknown element type '%.*s'",
                         a->text, (int)(c1 - s), s);
    }
    const char *cs = c1 + 1;
    const char *c2 = strchr(cs, ':');
    size_t clen = c2 ? (size_t)(c2 - cs) : strlen(cs);
    bool neg;
    uint64_t count;
    if (!parse_int(cs, clen, &neg, &count) || neg || count == 0) {
        return err_usage(err, errlen, "'%s': the element count must be a "
                         "positive integer", a->text);
    }
    if (count > ARGSPEC_MAX_BYTES / a->type->size) {
        return err_usage(err, errlen, "'%s': buffer too large (at most %"
                         PRIu64 " bytes)", a->text, ARGSPEC_MAX_BYTES);
    }
    a->kind = ARG_BUFFER;
    a->count = count;
    a->nbytes = (size_t)(count * a->type->size);
    a->bytes = calloc(1, a->nbytes);
    if (!a->bytes) {
        return err_usage(err, errlen, "'%s': out of memory", a->text);
    }
    const char *init = c2 ? c2 + 1 : "zero";
    unsigned es = a->type->size;
    if (!strcmp(init, "zero")) {
        return ARGSPEC_OK;
    }
    if (!strcmp(init, "none")) {
        a->uninit = true;
        return ARGSPEC_OK;
    }
    if (!strcmp(init, "iota")) {
        for (uint64_t i = 0; i < count; i++) {
            store_u64(a->type, i, a->bytes + i * es);
        }
        return ARGSPEC_OK;
    }
    if (!strncmp(init, "fill=", 5)) {
        uint8_t v[8];
        if (!parse_value(a->type, init + 5, strlen(init + 5), v)) {
            return err_usage(err, errlen, "'%s': '%s' is not a %s value",
                             a->text, init + 5, a->type->name);
        }
        for (uint64_t i = 0; i < count; i++) {
            memcpy(a->bytes + i * es, v, es);
        }
        return ARGSPEC_OK;
    }
    if (!strncmp(init, "rand=", 5)) {
        uint64_t seed;
        if (!argspec_parse_uint(init + 5, UINT64_MAX, &seed)) {
            return err_usage(err, errlen, "'%s': rand= needs an unsigned "
                             "integer seed", a->text);
        }
        uint64_t x = seed ? seed : 0x9E3779B97F4A7C15ULL;
        for (uint64_t i = 0; i < count; i++) {
            store_rand(a->type, argspec_xorshift64s(&x), a->bytes + i * es);
        }
        return ARGSPEC_OK;
    }
    if (!strncmp(init, "values=", 7)) {
        const char *p = init + 7;
        uint64_t i = 0;
        for (;;) {
            const char *c = strchr(p, ',');
            size_t len = c ? (size_t)(c - p) : strlen(p);
            if (i >= count) {
                return err_usage(err, errlen, "'%s': more values than the "
                                 "%" PRIu64 " elements", a->text, count);
            }
            if (!parse_value(a->type, p, len, a->bytes + i * es)) {
                return err_usage(err, errlen, "'%s': '%.*s' is not a %s "
                                 "value", a->text, (int)len, p,
                                 a->type->name);
            }
            i++;
            if (!c) {
                break;
            }
            p = c + 1;
        }
        return ARGSPEC_OK;
    }
    if (!strncmp(init, "file=", 5) && init[5]) {
        return read_into(init + 5, a, err, errlen);
    }
    return err_usage(err, errlen, "'%s': unknown initialiser '%s' (zero, "
                     "iota, fill=V, rand=SEED, values=V,..., file=PATH)",
                     a->text, init);
}

int argspec_parse(const char *spec, ArgSpec *a, char *err, size_t errlen)
{
    memset(a, 0, sizeof(*a));
    a->text = spec;
    if (err && errlen) {
        err[0] = '\0';
    }
    const char *colon = strchr(spec, ':');
    if (!colon) {
        return err_usage(err, errlen, "'%s': expected TYPE:VALUE, hex:BYTES "
                         "or buf:TYPE:COUNT[:INIT]", spec);
    }
    size_t hl = (size_t)(colon - spec);
    if (hl == 3 && !memcmp(spec, "buf", 3)) {
        return parse_buffer(colon + 1, a, err, errlen);
    }
    if (hl == 3 && !memcmp(spec, "hex", 3)) {
        return parse_hex(colon + 1, a, err, errlen);
    }
    a->type = argspec_type(spec, hl);
    if (!a->type) {
        return err_usage(err, errlen, "'%s': unknown type '%.*s' (u8..u64, "
                         "s8..s64, b8..b64, f16, bf16, f32, f64, hex, buf)",
                         spec, (int)hl, spec);
    }
    a->kind = ARG_SCALAR;
    a->nbytes = a->type->size;
    a->bytes = calloc(1, 8);
    if (!a->bytes) {
        return err_usage(err, errlen, "out of memory");
    }
    if (!parse_value(a->type, colon + 1, strlen(colon + 1), a->bytes)) {
        return err_usage(err, errlen, "'%s': '%s' is not a valid %s value%s",
                         spec, colon + 1, a->type->name,
                         a->type->kind == AT_F || a->type->kind == AT_BF
                             ? "" : " (or out of range)");
    }
    return ARGSPEC_OK;
}

void argspec_free(ArgSpec *a)
{
    free(a->bytes);
    a->bytes = NULL;
}

void argspec_print_elem(FILE *out, const ArgType *t, const void *p)
{
    uint64_t u = 0;
    memcpy(&u, p, t->size);
    switch (t->kind) {
    case AT_S: {
        unsigned sh = 64 - 8 * t->size;
        int64_t s = (int64_t)(u << sh) >> sh;
        fprintf(out, "%" PRId64, s);
        break;
    }
    case AT_F:
        if (t->size == 8) {
            double d;
            memcpy(&d, p, 8);
            fprintf(out, "%.17g", d);
        } else if (t->size == 4) {
            float f;
            memcpy(&f, p, 4);
            fprintf(out, "%.9g", (double)f);
        } else {
            fprintf(out, "%.9g", (double)argspec_f16_to_f32((uint16_t)u));
        }
        break;
    case AT_BF:
        fprintf(out, "%.9g", (double)argspec_bf16_to_f32((uint16_t)u));
        break;
    default:
        fprintf(out, "%" PRIu64, u);
        break;
    }
}
