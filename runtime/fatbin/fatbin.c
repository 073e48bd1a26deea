/*
 * runtime/fatbin/fatbin.c: reads CUDA fat binaries (contract in
 * fatbin.h).
 *
 * The layout below was found by experiment with the CUDA 13.0 tools
 * (nvcc, fatbinary, objdump): compiling our own sources with different
 * options and comparing the bytes; the registration wrapper's four
 * fields are also declared in the toolkit's fatbinary_section.h.  Not
 * every field is understood; those we do not need are named "seen".
 * All integers are little-endian.
 *
 * Registration wrapper (section .nvFatBinSegment, 24 bytes, one per
 * translation unit plus one for the device link):
 *   +0  u32  magic 0x466243b1
 *   +4  u32  version: 1, or 2 for the device-linked image of a program
 *            built with -rdc=true
 *   +8  ptr  the container (in .nv_fatbin, or __nv_relfatbin for a
 *            translation unit of relocatable code)
 *   +16 ptr  version 1: 0 (an offline file name when not 0);
 *            version 2: a NULL-terminated array of pointers to the
 *            containers of every translation unit, filled at start-up
 *            by the device-link stub before __cudaRegisterFatBinary
 *
 * Container (nvcc -fatbin writes exactly one; sections hold several
 * back to back, each a multiple of 8 bytes):
 *   +0  u32  magic 0xba55ed50
 *   +4  u16  version, 1
 *   +6  u16  header size, 16
 *   +8  u64  body size: the entries that follow the header
 *
 * Entry (header, then payload; the next entry follows the payload):
 *   +0x00 u16 kind: 1 PTX, 2 ELF (a cubin holding SASS), 8 LTO IR
 *             (-gencode arch=compute_80,code=lto_80; not runnable here)
 *   +0x02 u16 seen 0x0101 always
 *   +0x04 u32 header size: 64, more when strings follow (80, 96...)
 *   +0x08 u64 payload size as stored, padded to a multiple of 8
 *   +0x10 u32 compressed size: bytes of the compressed stream at the
 *             start of the payload (0 when not compressed)
 *   +0x14 u32 offset, from the entry header, of a pair {u32 offset,
 *             u32 length} locating the ptxas options string (fatbinary
 *             --cmdline; "--compile-only" for -rdc=true PTX); 0: none
 *   +0x18 u16 minor, +0x1a u16 major: PTX ISA version of a PTX entry
 *             (9.0 for nvcc 13.0); 1.8 for every ELF entry seen
 *   +0x1c u32 arch: 80 for compute_80 / sm_80
 *   +0x20 u32 offset, from the entry header, of the identifier
 *             (fatbinary --ident, a source file name), +0x24 u32 its
 *             length (without the NUL that follows it); 0, 0: none
 *   +0x28 u64 flags: 0x1 64-bit host code, 0x2 debug (-g), 0x10 Linux
 *             host, 0x2000 LZ4-compressed payload, 0x8000 zstd-
 *             compressed payload, 0x100000 arch-specific target
 *             (sm_90a), 0x200000 family target (sm_100f)
 *   +0x30 u64 seen 0; in LTO IR entries a value that differed between
 *             two builds of the same source
 *   +0x38 u64 uncompressed size (0 when not compressed)
 *   +0x40...  the strings named above, NUL-terminated, padded to 8
 *
 * Compression.  nvcc 13 compresses PTX by default (and relocatable
 * ELF), with zstd: the payload starts with the Zstandard frame magic
 * 28 b5 2f fd.  `-Xfatbin -compress-mode=speed` gives an LZ4 block
 * (no frame) instead, flag 0x2000.  Both are decompressed with the
 * Debian libraries libzstd and liblz4.  Stored PTX is NUL-terminated
 * and has been minified by fatbinary (comments dropped, leading blanks
 * dropped, runs of blanks made one space).
 */
#include "config.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lz4.h>
#include <zstd.h>

#include "runtime/fatbin/fatbin.h"

enum {
    FB_WRAPPER_SIZE = 24,
    FB_HEADER_SIZE = 16,
    FB_ENTRY_MIN = 64,
    FB_KIND_LTO = 8,
    FB_MAX_CONTAINERS = 4096,
};

/* Limits that keep a corrupt header from asking for absurd memory. */
#define FB_MAX_CONTAINER_BYTES ((uint64_t)1 << 31)
#define FB_MAX_UNPACKED ((uint64_t)1 << 30)

enum {
    FB_FLAG_DEBUG = 0x2,
    FB_FLAG_LZ4 = 0x2000,
    FB_FLAG_ZSTD = 0x8000,
    FB_FLAG_ARCH_A = 0x100000,
    FB_FLAG_ARCH_F = 0x200000,
};

typedef struct fb_cont {
    const unsigned char *p;
    uint64_t len;               /* header + body */
    uint64_t at;                /* offset in the image, 0 if not in it */
} fb_cont;

/* The image, opened: its containers, or plain PTX text. */
typedef struct fb_set {
    fb_cont *c;
    size_t n;
    const char *text;           /* plain PTX image, else NULL */
    size_t text_len;
} fb_set;

static int fb_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fb_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        int n = snprintf(err, errlen, "fat binary: ");
        size_t used = n > 0 && (size_t)n < errlen ? (size_t)n : 0;
        va_start(ap, fmt);
        vsnprintf(err + used, errlen - used, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static uint16_t rd16(const unsigned char *p)
{
    return (uint16_t)(p[0] | (unsigned)p[1] << 8);
}

static uint32_t rd32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static uint64_t rd64(const unsigned char *p)
{
    return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

/* ---------------------------------------------------------------- text */

/* Length of the text at p: up to the NUL, within avail when known. */
static size_t text_len(const unsigned char *p, size_t avail)
{
    if (avail) {
        const unsigned char *z = memchr(p, 0, avail);
        return z ? (size_t)(z - p) : avail;
    }
    return strlen((const char *)p);
}

/* Whether the text starts, after blanks and comments, with ".version":
 * how every PTX module begins. */
static int looks_like_ptx(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
            i++;
        } else if (i + 1 < n && s[i] == '/' && s[i + 1] == '/') {
            while (i < n && s[i] != '\n') {
                i++;
            }
        } else if (i + 1 < n && s[i] == '/' && s[i + 1] == '*') {
            i += 2;
            while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/')) {
                i++;
            }
            i += 2;
        } else {
            break;
        }
    }
    return i < n && n - i >= 8 && memcmp(s + i, ".version", 8) == 0;
}

/* The NN of the first ".target sm_NN" in a PTX text, or 0. */
static unsigned ptx_target_arch(const char *s, size_t n)
{
    static const char key[] = ".target";
    for (size_t i = 0; i + sizeof key - 1 < n; i++) {
        if (memcmp(s + i, key, sizeof key - 1) != 0) {
            continue;
        }
        i += sizeof key - 1;
        while (i < n && (s[i] == ' ' || s[i] == '\t')) {
            i++;
        }
        if (i + 3 > n || memcmp(s + i, "sm_", 3) != 0) {
            return 0;
        }
        unsigned v = 0;
        for (i += 3; i < n && s[i] >= '0' && s[i] <= '9' && v < 10000;
             i++) {
            v = v * 10 + (unsigned)(s[i] - '0');
        }
        return v;
    }
    return 0;
}

/* ---------------------------------------------------------- containers */

static int set_add(fb_set *s, const unsigned char *p, uint64_t len,
                   uint64_t at, char *err, size_t errlen)
{
    if (s->n == FB_MAX_CONTAINERS) {
        return fb_err(err, errlen, "more than %d containers",
                      FB_MAX_CONTAINERS);
    }
    if (s->n % 16 == 0) {
        fb_cont *c = realloc(s->c, (s->n + 16) * sizeof *c);
        if (!c) {
            return fb_err(err, errlen, "out of memory");
        }
        s->c = c;
    }
    s->c[s->n++] = (fb_cont){p, len, at};
    return 0;
}

/* Checks the container header at p; `left` bytes are readable (0:
 * unknown).  Sets *len to header + body. */
static int cont_header(const unsigned char *p, uint64_t left, uint64_t at,
                       uint64_t *len, char *err, size_t errlen)
{
    if (left && left < FB_HEADER_SIZE) {
        return fb_err(err, errlen,
                      "container at offset %llu: header needs %d bytes, "
                      "%llu left", (unsigned long long)at, FB_HEADER_SIZE,
                      (unsigned long long)left);
    }
    uint32_t magic = rd32(p);
    if (magic != FATBIN_MAGIC) {
        return fb_err(err, errlen,
                      "container at offset %llu: magic 0x%08x, expected "
                      "0x%08x", (unsigned long long)at, magic, FATBIN_MAGIC);
    }
    unsigned version = rd16(p + 4), hs = rd16(p + 6);
    uint64_t body = rd64(p + 8);
    if (version != 1) {
        return fb_err(err, errlen,
                      "container at offset %llu: format version %u "
                      "unknown (1 is)", (unsigned long long)at, version);
    }
    if (hs < FB_HEADER_SIZE) {
        return fb_err(err, errlen,
                      "container at offset %llu: header size %u below %d",
                      (unsigned long long)at, hs, FB_HEADER_SIZE);
    }
    uint64_t cap = left ? left : FB_MAX_CONTAINER_BYTES;
    if (hs > cap || body > cap - hs) {
        return fb_err(err, errlen,
                      "container at offset %llu: %u header and %llu body "
                      "bytes run past the %llu %s", (unsigned long long)at,
                      hs, (unsigned long long)body, (unsigned long long)cap,
                      left ? "bytes left" : "bytes allowed");
    }
    *len = hs + body;
    return 0;
}

/* Containers back to back from p (zero padding to 8 bytes between);
 * with avail 0 only the first, trusting its header as far as `bound`
 * readable bytes allow (0: unknown). */
static int add_containers(fb_set *s, const unsigned char *p, size_t avail,
                          int in_image, uint64_t bound, char *err,
                          size_t errlen)
{
    size_t off = 0;
    for (;;) {
        uint64_t len = 0;
        uint64_t left = avail ? avail - off : bound;
        if (cont_header(p + off, left, off, &len, err, errlen) != 0 ||
            set_add(s, p + off, len, in_image ? off : 0, err,
                    errlen) != 0) {
            return -1;
        }
        if (!avail) {
            return 0;
        }
        off += (size_t)len;
        size_t z = off;
        while (z < avail && p[z] == 0) {
            z++;
        }
        if (z == avail) {
            return 0;           /* trailing padding */
        }
        while (off % 8 != 0 && p[off] == 0) {
            off++;
        }
    }
}

/* The readable bytes from p, which must be at least `need`: into
 * *bound (0 when that cannot be told), or an error naming `what`. */
static int bound_of(const void *p, size_t need, uint64_t *bound,
                    const char *what, char *err, size_t errlen)
{
    size_t ext = 0;
    int r = fatbin_readable(p, &ext);
    *bound = r == 1 ? ext : 0;
    if (r == 0) {
        return fb_err(err, errlen, "%s at %p is not in readable memory",
                      what, p);
    }
    if (r == 1 && ext < need) {
        return fb_err(err, errlen, "%s at %p: %zu bytes readable, %zu "
                      "needed", what, p, ext, need);
    }
    return 0;
}

/* A registration wrapper (avail 0: a pointer, whose fields and the
 * memory they lead to are bounded by what is readable). */
static int open_wrapper(fb_set *s, const unsigned char *p, size_t avail,
                        char *err, size_t errlen)
{
    if (avail && avail < FB_WRAPPER_SIZE) {
        return fb_err(err, errlen,
                      "registration wrapper needs %d bytes, %zu given",
                      FB_WRAPPER_SIZE, avail);
    }
    uint64_t bound;
    if (!avail && bound_of(p, FB_WRAPPER_SIZE, &bound,
                           "the registration wrapper", err, errlen) != 0) {
        return -1;
    }
    uint32_t version = rd32(p + 4);
    const unsigned char *data;
    const unsigned char *list;
    memcpy(&data, p + 8, sizeof data);
    memcpy(&list, p + 16, sizeof list);
    if (version != 1 && version != 2) {
        return fb_err(err, errlen,
                      "registration wrapper version %u unknown (1 and 2 "
                      "are)", version);
    }
    if (!data) {
        return fb_err(err, errlen,
                      "registration wrapper has a NULL data pointer");
    }
    if (bound_of(data, 4, &bound, "the wrapper's data", err, errlen) != 0) {
        return -1;
    }
    if (rd32(data) != FATBIN_MAGIC) {
        /* Code registering PTX by hand points the wrapper at text. */
        size_t n = text_len(data, (size_t)bound);
        if (looks_like_ptx((const char *)data, n)) {
            s->text = (const char *)data;
            s->text_len = n;
            return 0;
        }
    }
    if (add_containers(s, data, 0, 0, bound, err, errlen) != 0) {
        return -1;
    }
    if (version == 1 || !list) {
        return 0;
    }
    uint64_t lb;
    if (bound_of(list, sizeof(void *), &lb, "the wrapper's container list",
                 err, errlen) != 0) {
        return -1;
    }
    for (size_t i = 0;; i++) {
        const unsigned char *c;
        if (lb && (i + 1) * sizeof c > lb) {
            return fb_err(err, errlen, "the wrapper's container list at %p "
                          "has no NULL end in its %llu readable bytes",
                          (const void *)list, (unsigned long long)lb);
        }
        memcpy(&c, list + i * sizeof c, sizeof c);
        if (!c) {
            return 0;
        }
        uint64_t cb;
        if (bound_of(c, FB_HEADER_SIZE, &cb, "a translation unit's "
                     "container", err, errlen) != 0 ||
            add_containers(s, c, 0, 0, cb, err, errlen) != 0) {
            return -1;
        }
    }
}

static void set_free(fb_set *s)
{
    free(s->c);
    s->c = NULL;
    s->n = 0;
}

static int set_open(fb_set *s, const void *image, size_t avail,
                    char *err, size_t errlen)
{
    const unsigned char *p = image;
    memset(s, 0, sizeof *s);
    if (!p) {
        return fb_err(err, errlen, "no image (NULL pointer)");
    }
    /* Peek at most 4 bytes, stopping at a NUL so that a short string
     * is never over-read when avail is unknown; neither magic holds a
     * zero byte. */
    uint64_t bound = 0;
    if (!avail && bound_of(p, 1, &bound, "the image", err, errlen) != 0) {
        return -1;
    }
    unsigned char b[4] = {0};
    size_t nb = 0;
    while (nb < 4 && (!avail || nb < avail) && (!bound || nb < bound)) {
        b[nb] = p[nb];
        if (b[nb++] == 0) {
            break;
        }
    }
    uint32_t magic = nb == 4 ? rd32(b) : 0;
    int rc;
    if (magic == FATBIN_WRAPPER_MAGIC) {
        rc = open_wrapper(s, p, avail, err, errlen);
    } else if (magic == FATBIN_MAGIC) {
        rc = add_containers(s, p, avail, 1, bound, err, errlen);
    } else if (nb == 4 && memcmp(b, "\177ELF", 4) == 0) {
        return fb_err(err, errlen,
                      "an ELF cubin (SASS), not PTX; ptxemu runs PTX: "
                      "load PTX, or a fat binary with PTX in it (nvcc "
                      "-gencode arch=compute_XX,code=compute_XX)");
    } else {
        size_t n = text_len(p, avail ? avail : (size_t)bound);
        if (!looks_like_ptx((const char *)p, n)) {
            return fb_err(err, errlen,
                          "neither a registration wrapper (magic 0x%08x), "
                          "a container (magic 0x%08x) nor PTX text "
                          "(\".version\" first); first bytes "
                          "%02x %02x %02x %02x", FATBIN_WRAPPER_MAGIC,
                          FATBIN_MAGIC, b[0], b[1], b[2], b[3]);
        }
        s->text = (const char *)p;
        s->text_len = n;
        return 0;
    }
    if (rc != 0) {
        set_free(s);
    }
    return rc;
}

/* ------------------------------------------------------------- entries */

/* Copies a header string, printable characters only. */
static void copy_str(char *dst, size_t cap, const unsigned char *src,
                     uint64_t n)
{
    size_t i = 0;
    for (; i + 1 < cap && i < n && src[i]; i++) {
        dst[i] = src[i] >= 0x20 && src[i] < 0x7f ? (char)src[i] : '?';
    }
    dst[i] = 0;
}

/* Reads the string whose offset and length the header gives, checked to
 * lie within the entry header's hs bytes. */
static int header_str(const unsigned char *q, uint32_t hs, uint32_t off,
                      uint32_t len, char *dst, size_t cap, const char *what,
                      char *where, char *err, size_t errlen)
{
    if (off == 0) {
        dst[0] = 0;
        return 0;
    }
    if (off > hs || len > hs - off) {
        return fb_err(err, errlen,
                      "%s: %s at %u, %u bytes, outside the %u-byte header",
                      where, what, off, len, hs);
    }
    copy_str(dst, cap, q + off, len);
    return 0;
}

static int parse_entry(const fb_cont *c, unsigned ci, uint64_t off,
                       size_t idx, fatbin_entry_ex *x, uint64_t *next,
                       char *err, size_t errlen)
{
    char where[96];
    snprintf(where, sizeof where, "container %u entry %zu (offset %llu)",
             ci, idx, (unsigned long long)(c->at + off));
    uint64_t left = c->len - off;
    const unsigned char *q = c->p + off;
    if (left < FB_ENTRY_MIN) {
        return fb_err(err, errlen,
                      "%s: header needs %d bytes, %llu left", where,
                      FB_ENTRY_MIN, (unsigned long long)left);
    }
    uint32_t hs = rd32(q + 4);
    uint64_t size = rd64(q + 8);
    if (hs < FB_ENTRY_MIN || hs > left) {
        return fb_err(err, errlen,
                      "%s: header size %u outside %d..%llu", where, hs,
                      FB_ENTRY_MIN, (unsigned long long)left);
    }
    if (size > left - hs) {
        return fb_err(err, errlen,
                      "%s: payload of %llu bytes runs past the %llu left",
                      where, (unsigned long long)size,
                      (unsigned long long)(left - hs));
    }
    memset(x, 0, sizeof *x);
    unsigned kind = rd16(q);
    x->raw_kind = kind;
    x->e.kind = kind == 1 ? FATBIN_KIND_PTX
              : kind == 2 ? FATBIN_KIND_ELF : FATBIN_KIND_OTHER;
    x->e.arch = rd32(q + 0x1c);
    x->flags = rd64(q + 0x28);
    x->e.arch_suffix = x->flags & FB_FLAG_ARCH_A ? 'a'
                     : x->flags & FB_FLAG_ARCH_F ? 'f' : 0;
    x->debug = (x->flags & FB_FLAG_DEBUG) != 0;
    x->version_minor = rd16(q + 0x18);
    x->version_major = rd16(q + 0x1a);
    x->container = ci;
    x->container_at = c->at;
    x->e.offset = off + hs;
    x->e.stored_size = size;
    x->payload = q + hs;
    x->packed_size = size;
    x->e.size = size;
    if ((x->flags & FB_FLAG_LZ4) && (x->flags & FB_FLAG_ZSTD)) {
        return fb_err(err, errlen, "%s: flagged both LZ4 and zstd", where);
    }
    if (x->flags & (FB_FLAG_LZ4 | FB_FLAG_ZSTD)) {
        x->compression = x->flags & FB_FLAG_LZ4 ? FATBIN_COMP_LZ4
                                                : FATBIN_COMP_ZSTD;
        x->e.compressed = 1;
        x->packed_size = rd32(q + 0x10);
        x->e.size = rd64(q + 0x38);
        if (x->packed_size == 0 || x->packed_size > size) {
            return fb_err(err, errlen,
                          "%s: compressed size %llu outside 1..%llu", where,
                          (unsigned long long)x->packed_size,
                          (unsigned long long)size);
        }
        if (x->e.size == 0 || x->e.size > FB_MAX_UNPACKED) {
            return fb_err(err, errlen,
                          "%s: uncompressed size %llu outside 1..%llu",
                          where, (unsigned long long)x->e.size,
                          (unsigned long long)FB_MAX_UNPACKED);
        }
    }
    if (header_str(q, hs, rd32(q + 0x20), rd32(q + 0x24), x->e.identifier,
                   sizeof x->e.identifier, "identifier", where, err,
                   errlen) != 0) {
        return -1;
    }
    uint32_t opt = rd32(q + 0x14);
    if (opt != 0) {
        if (opt > hs - 8) {
            return fb_err(err, errlen,
                          "%s: options record at %u outside the %u-byte "
                          "header", where, opt, hs);
        }
        if (header_str(q, hs, rd32(q + opt), rd32(q + opt + 4),
                       x->options, sizeof x->options, "options", where,
                       err, errlen) != 0) {
            return -1;
        }
    }
    *next = off + hs + size;
    return 0;
}

/* Every entry of the set, in a malloc'd array (*n of them). */
static int set_entries(const fb_set *s, fatbin_entry_ex **out, size_t *n,
                       char *err, size_t errlen)
{
    fatbin_entry_ex *v = NULL;
    size_t cnt = 0, cap = 0;
    *out = NULL;
    *n = 0;
    if (s->text) {
        v = calloc(1, sizeof *v);
        if (!v) {
            return fb_err(err, errlen, "out of memory");
        }
        v->e.kind = FATBIN_KIND_PTX;
        v->e.arch = ptx_target_arch(s->text, s->text_len);
        v->e.stored_size = v->e.size = v->packed_size = s->text_len;
        v->payload = (const unsigned char *)s->text;
        *out = v;
        *n = 1;
        return 0;
    }
    for (size_t ci = 0; ci < s->n; ci++) {
        const fb_cont *c = &s->c[ci];
        uint64_t off = rd16(c->p + 6);
        for (size_t idx = 0; off < c->len; idx++) {
            if (cnt == cap) {
                size_t ncap = cap ? cap * 2 : 8;
                fatbin_entry_ex *nv = realloc(v, ncap * sizeof *nv);
                if (!nv) {
                    free(v);
                    return fb_err(err, errlen, "out of memory");
                }
                v = nv;
                cap = ncap;
            }
            if (parse_entry(c, (unsigned)ci, off, idx, &v[cnt], &off, err,
                            errlen) != 0) {
                free(v);
                return -1;
            }
            cnt++;
        }
    }
    *out = v;
    *n = cnt;
    return 0;
}

static int list_entries(const void *image, size_t avail,
                        fatbin_entry_ex **v, size_t *n,
                        char *err, size_t errlen)
{
    fb_set s;
    if (set_open(&s, image, avail, err, errlen) != 0) {
        return -1;
    }
    int rc = set_entries(&s, v, n, err, errlen);
    set_free(&s);
    return rc;
}

int fatbin_list_ex(const void *image, size_t avail, fatbin_entry_ex *out,
                   size_t max, char *err, size_t errlen)
{
    fatbin_entry_ex *v;
    size_t n;
    if (list_entries(image, avail, &v, &n, err, errlen) != 0) {
        return -1;
    }
    if (n > INT_MAX) {
        free(v);
        return fb_err(err, errlen, "too many entries");
    }
    for (size_t i = 0; i < n && i < max; i++) {
        out[i] = v[i];
    }
    free(v);
    return (int)n;
}

int fatbin_list(const void *image, size_t avail, fatbin_entry *out,
                size_t max, char *err, size_t errlen)
{
    fatbin_entry_ex *v;
    size_t n;
    if (list_entries(image, avail, &v, &n, err, errlen) != 0) {
        return -1;
    }
    if (n > INT_MAX) {
        free(v);
        return fb_err(err, errlen, "too many entries");
    }
    for (size_t i = 0; i < n && i < max; i++) {
        out[i] = v[i].e;
    }
    free(v);
    return (int)n;
}

/* -------------------------------------------------------- decompression */

int fatbin_entry_bytes(const fatbin_entry_ex *x, unsigned char **data,
                       size_t *len, char *err, size_t errlen)
{
    *data = NULL;
    if (x->e.size > FB_MAX_UNPACKED || x->packed_size > x->e.stored_size) {
        return fb_err(err, errlen, "entry sizes out of range");
    }
    size_t size = (size_t)x->e.size;
    if (x->compression == FATBIN_COMP_ZSTD) {
        /* The frame header records the size too (nvcc's do): a
         * disagreement is found before allocating. */
        unsigned long long fcs = ZSTD_getFrameContentSize(
            x->payload, (size_t)x->packed_size);
        if (fcs == ZSTD_CONTENTSIZE_ERROR ||
            (fcs != ZSTD_CONTENTSIZE_UNKNOWN && fcs != size)) {
            return fb_err(err, errlen,
                          "container %u: zstd payload at offset %llu is "
                          "corrupt (frame header %s; entry header says "
                          "%zu bytes)", x->container,
                          (unsigned long long)x->e.offset,
                          fcs == ZSTD_CONTENTSIZE_ERROR ? "unreadable"
                                                        : "disagrees",
                          size);
        }
    }
    unsigned char *buf = malloc(size + 1);
    if (!buf) {
        return fb_err(err, errlen, "out of memory for %zu bytes", size);
    }
    if (x->compression == FATBIN_COMP_NONE) {
        memcpy(buf, x->payload, size);
    } else if (x->compression == FATBIN_COMP_LZ4) {
        if (x->packed_size > INT_MAX || size > INT_MAX) {
            free(buf);
            return fb_err(err, errlen, "LZ4 payload too large");
        }
        int r = LZ4_decompress_safe((const char *)x->payload, (char *)buf,
                                    (int)x->packed_size, (int)size);
        if (r < 0 || (size_t)r != size) {
            free(buf);
            return fb_err(err, errlen,
                          "container %u: LZ4 payload at offset %llu is "
                          "corrupt (%s %d bytes, header says %zu)",
                          x->container, (unsigned long long)x->e.offset,
                          r < 0 ? "error" : "gave", r, size);
        }
    } else {
        size_t r = ZSTD_decompress(buf, size, x->payload,
                                   (size_t)x->packed_size);
        if (ZSTD_isError(r) || r != size) {
            free(buf);
            return fb_err(err, errlen,
                          "container %u: zstd payload at offset %llu is "
                          "corrupt (%s; header says %zu bytes)",
                          x->container, (unsigned long long)x->e.offset,
                          ZSTD_isError(r) ? ZSTD_getErrorName(r)
                                          : "size differs", size);
        }
    }
    buf[size] = 0;
    *data = buf;
    if (len) {
        *len = size;
    }
    return 0;
}

const char *fatbin_compression_name(fatbin_compression c)
{
    static const char *const names[] = {"none", "lz4", "zstd"};
    return (unsigned)c < sizeof names / sizeof names[0] ? names[c] : "?";
}

void fatbin_arch_name(const fatbin_entry *e, char *buf, size_t len)
{
    const char *base = e->kind == FATBIN_KIND_PTX ? "compute" : "sm";
    if (e->arch_suffix) {
        snprintf(buf, len, "%s_%u%c", base, e->arch, e->arch_suffix);
    } else {
        snprintf(buf, len, "%s_%u", base, e->arch);
    }
}

/* ------------------------------------------------------------ choosing */

/* Orders candidates by the rule of fatbin.h: the wanted arch, else the
 * newest not above it, else the newest; a plain target before an
 * 'a' or 'f' one of the same number. */
static int better(const fatbin_entry *a, const fatbin_entry *b,
                  unsigned want)
{
    int ca = a->arch == want ? 2 : a->arch < want ? 1 : 0;
    int cb = b->arch == want ? 2 : b->arch < want ? 1 : 0;
    if (ca != cb) {
        return ca > cb;
    }
    if (a->arch != b->arch) {
        return a->arch > b->arch;
    }
    return a->arch_suffix == 0 && b->arch_suffix != 0;
}

/* Index of the best entry of the kind, or -1; entries with skip[i] set
 * (skip may be NULL) are not candidates. */
static long choose(const fatbin_entry_ex *v, size_t n, fatbin_kind kind,
                   unsigned want, const unsigned char *skip)
{
    long best = -1;
    for (size_t i = 0; i < n; i++) {
        if (v[i].e.kind == kind && !(skip && skip[i]) &&
            (best < 0 || better(&v[i].e, &v[best].e, want))) {
            best = (long)i;
        }
    }
    return best;
}

long fatbin_choose_ptx(const fatbin_entry_ex *v, size_t n,
                       unsigned want_arch)
{
    unsigned char *skip = calloc(n ? n : 1, 1);
    long best = -1;
    if (!skip) {
        return -1;
    }
    /* Best first: only the entries up to the first that is not the
     * device runtime are decompressed to look. */
    while ((best = choose(v, n, FATBIN_KIND_PTX, want_arch, skip)) >= 0 &&
           fatbin_entry_is_devrt(&v[best])) {
        skip[best] = 1;
    }
    free(skip);
    return best;
}

static int no_ptx_error(const fatbin_entry_ex *v, size_t n, unsigned want,
                        char *err, size_t errlen)
{
    long s = choose(v, n, FATBIN_KIND_ELF, want, NULL);
    const char *what = "SASS";
    char name[32], virt[32];
    if (s < 0) {
        for (size_t i = 0; i < n; i++) {
            if (v[i].raw_kind == FB_KIND_LTO &&
                (s < 0 || better(&v[i].e, &v[s].e, want))) {
                s = (long)i;
            }
        }
        if (s < 0) {
            return fb_err(err, errlen, "no PTX entry (%zu entries, none "
                          "PTX, SASS or LTO IR)", n);
        }
        what = "LTO IR";
        snprintf(name, sizeof name, "lto_%u", v[s].e.arch);
    } else {
        fatbin_arch_name(&v[s].e, name, sizeof name);
    }
    fatbin_entry ptx = v[s].e;
    ptx.kind = FATBIN_KIND_PTX;
    fatbin_arch_name(&ptx, virt, sizeof virt);
    return fb_err(err, errlen,
                  "the program holds only %s (%s) and no PTX; ptxemu "
                  "runs PTX, so rebuild it with "
                  "-gencode arch=%s,code=%s", what, name, virt, virt);
}

/* The PTX text of an entry: decompressed, cut at its NUL. */
static int entry_text(const fatbin_entry_ex *x, char **ptx, size_t *len,
                      char *err, size_t errlen)
{
    unsigned char *data;
    size_t n;
    if (fatbin_entry_bytes(x, &data, &n, err, errlen) != 0) {
        return -1;
    }
    size_t t = text_len(data, n);
    data[t] = 0;
    *ptx = (char *)data;
    if (len) {
        *len = t;
    }
    return 0;
}

static int same_target(const fatbin_entry *a, const fatbin_entry *b)
{
    return a->kind == b->kind && a->arch == b->arch &&
           a->arch_suffix == b->arch_suffix;
}

/* Whether PTX text defines a __cudaCDP2 function: the device runtime
 * library (libcudadevrt, linked in with -rdc=true), whose entry points
 * the emulator provides itself (emu/devrt.h). */
static int defines_devrt(const char *t)
{
    for (const char *p = t; (p = strstr(p, "__cudaCDP2")) != NULL; p++) {
        const char *line = p;
        while (line > t && line[-1] != '\n') {
            line--;
        }
        while (*line == ' ' || *line == '\t') {
            line++;
        }
        if (strncmp(line, ".visible .func", 14) == 0 ||
            strncmp(line, ".weak .func", 11) == 0) {
            return 1;
        }
    }
    return 0;
}

int fatbin_entry_is_devrt(const fatbin_entry_ex *x)
{
    char *t = NULL;
    char e[8];
    int devrt = x->e.kind == FATBIN_KIND_PTX &&
                entry_text(x, &t, NULL, e, sizeof e) == 0 &&
                defines_devrt(t);
    free(t);
    return devrt;
}

/* Decompressed bytes one load may take, over all the entries it reads:
 * a fat binary's headers declare the sizes, and a few kilobytes of
 * zstd can declare (and truly hold) gigabytes. */
#define FB_MAX_LOAD_BYTES ((uint64_t)1 << 30)

/* Charges `size` decompressed bytes to the load's budget. */
static int charge(uint64_t *used, uint64_t size, const char *what,
                  char *err, size_t errlen)
{
    if (size > FB_MAX_LOAD_BYTES - *used) {
        return fb_err(err, errlen,
                      "%s: %llu bytes once decompressed, over the %llu a "
                      "load may decompress (%llu taken already); the "
                      "rest is refused", what, (unsigned long long)size,
                      (unsigned long long)FB_MAX_LOAD_BYTES,
                      (unsigned long long)*used);
    }
    *used += size;
    return 0;
}

/* The PTX texts of every entry of the best target (the device runtime
 * library's left out, see fatbin.h), decompressing only those: at most
 * max kept in ptx[] / len[], the count returned, or -1. */
static int best_ptx_texts(const fatbin_entry_ex *v, size_t n,
                          unsigned want, char **ptx, size_t *len, size_t max,
                          unsigned *arch, char *err, size_t errlen)
{
    unsigned char *skip = calloc(n ? n : 1, 1);
    if (!skip) {
        return fb_err(err, errlen, "out of memory");
    }
    uint64_t used = 0;
    size_t got = 0, total = 0;
    int rc = 0;
    while (rc == 0 && total == 0) {
        long b = choose(v, n, FATBIN_KIND_PTX, want, skip);
        if (b < 0) {
            rc = no_ptx_error(v, n, want, err, errlen);
            break;
        }
        /* All of the target's declared sizes first: a bomb is refused
         * before anything is decompressed. */
        uint64_t sum = 0;
        for (size_t i = 0; i < n; i++) {
            if (!skip[i] && same_target(&v[i].e, &v[b].e)) {
                sum += v[i].e.size;     /* each <= FB_MAX_UNPACKED */
            }
        }
        char what[64], name[32];
        fatbin_arch_name(&v[b].e, name, sizeof name);
        snprintf(what, sizeof what, "the PTX entries for %s", name);
        if (charge(&used, sum, what, err, errlen) != 0) {
            rc = -1;
            break;
        }
        for (size_t i = 0; rc == 0 && i < n; i++) {
            if (skip[i] || !same_target(&v[i].e, &v[b].e)) {
                continue;
            }
            char *t;
            size_t tl;
            skip[i] = 1;
            if (entry_text(&v[i], &t, &tl, err, errlen) != 0) {
                rc = -1;
            } else if (defines_devrt(t)) {
                free(t);
            } else if (got < max) {
                ptx[got] = t;
                if (len) {
                    len[got] = tl;
                }
                got++;
                total++;
            } else {
                free(t);
                total++;
            }
        }
        if (arch && total) {
            *arch = v[b].e.arch;
        }
    }
    free(skip);
    if (rc != 0) {
        while (got > 0) {
            free(ptx[--got]);
            ptx[got] = NULL;
        }
        return -1;
    }
    return total > INT_MAX ? INT_MAX : (int)total;
}

int fatbin_get_all_ptx(const void *image, size_t avail, unsigned want_arch,
                       char **ptx, size_t *len, size_t max,
                       char *err, size_t errlen)
{
    fatbin_entry_ex *v;
    size_t n;
    if (list_entries(image, avail, &v, &n, err, errlen) != 0) {
        return -1;
    }
    int rc = best_ptx_texts(v, n, want_arch, ptx, len, max, NULL, err,
                            errlen);
    free(v);
    return rc;
}

int fatbin_get_ptx(const void *image, size_t avail, unsigned want_arch,
                   char **ptx, size_t *len, unsigned *arch,
                   char *err, size_t errlen)
{
    fatbin_entry_ex *v;
    size_t n;
    *ptx = NULL;
    if (list_entries(image, avail, &v, &n, err, errlen) != 0) {
        return -1;
    }
    /* The first of the best target's modules (there is one unless the
     * image holds relocatable device code). */
    char *texts[1] = {NULL};
    size_t lens[1] = {0};
    int rc = best_ptx_texts(v, n, want_arch, texts, lens, 1, arch, err,
                            errlen);
    free(v);
    if (rc < 0) {
        return -1;
    }
    *ptx = texts[0];
    if (len) {
        *len = lens[0];
    }
    return 0;
}
