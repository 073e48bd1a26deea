/*
 * ptx/arena.c: chunked bump allocator with string interning.
 *
 * Chunks grow geometrically (64 KiB up to 4 MiB) so a 50 MB module costs
 * a few hundred mallocs.  Interned strings live in an open-addressing
 * table of pointers into the arena; the table itself is malloc'd because
 * it is resized and freed with the arena.
 */
#include "ptx/arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Chunk {
    struct Chunk *next;
    size_t size;
    size_t used;
    /* data follows, 16-byte aligned */
} Chunk;

#define CHUNK_HDR ((sizeof(Chunk) + 15) & ~(size_t)15)

typedef struct InternSlot {
    const char *str;
    uint32_t hash;
    uint32_t len;
} InternSlot;

struct PtxArena {
    Chunk *head;
    size_t next_size;
    size_t total;
    InternSlot *slots;
    size_t nslots;     /* power of two */
    size_t nused;
};

static void oom(void)
{
    fputs("ptxemu: out of memory\n", stderr);
    abort();
}

PtxArena *ptx_arena_new(void)
{
    PtxArena *a = calloc(1, sizeof(*a));
    if (!a) {
        oom();
    }
    a->next_size = 64 * 1024;
    return a;
}

void ptx_arena_free(PtxArena *a)
{
    if (!a) {
        return;
    }
    Chunk *c = a->head;
    while (c) {
        Chunk *n = c->next;
        free(c);
        c = n;
    }
    free(a->slots);
    free(a);
}

void ptx_arena_reset(PtxArena *a)
{
    Chunk *c = a->head;
    if (!c) {
        return;
    }
    Chunk *rest = c->next;
    while (rest) {
        Chunk *n = rest->next;
        a->total -= CHUNK_HDR + rest->size;
        free(rest);
        rest = n;
    }
    c->next = NULL;
    /* Memory handed out must read as zero again. */
    memset((char *)c + CHUNK_HDR, 0, c->used);
    c->used = 0;
}

PtxArenaMark ptx_arena_mark(const PtxArena *a)
{
    PtxArenaMark m = {a->head, a->head ? a->head->used : 0};
    return m;
}

void ptx_arena_release(PtxArena *a, PtxArenaMark m)
{
    while (a->head && a->head != (Chunk *)m.chunk) {
        Chunk *c = a->head;
        a->head = c->next;
        a->total -= CHUNK_HDR + c->size;
        free(c);
    }
    Chunk *c = a->head;
    if (c && c->used > m.used) {
        /* Memory handed out must read as zero again. */
        memset((char *)c + CHUNK_HDR + m.used, 0, c->used - m.used);
        c->used = m.used;
    }
}

void *ptx_arena_alloc(PtxArena *a, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    Chunk *c = a->head;
    if (!c || c->size - c->used < size) {
        size_t want = a->next_size;
        if (want < size) {
            want = size;
        }
        /* calloc: large chunks come straight from mmap, already zero, so
         * allocations need no memset of their own. */
        c = calloc(1, CHUNK_HDR + want);
        if (!c) {
            oom();
        }
        c->size = want;
        c->used = 0;
        c->next = a->head;
        a->head = c;
        a->total += CHUNK_HDR + want;
        if (a->next_size < 4 * 1024 * 1024) {
            a->next_size *= 2;
        }
    }
    void *p = (char *)c + CHUNK_HDR + c->used;
    c->used += size;
    return p;
}

void *ptx_arena_dup(PtxArena *a, const void *p, size_t size)
{
    void *q = ptx_arena_alloc(a, size ? size : 1);
    if (size) {
        memcpy(q, p, size);
    }
    return q;
}

void *ptx_arena_grow(PtxArena *a, void *p, uint32_t n, uint32_t *cap,
                     uint32_t need, size_t elsize)
{
    if (need <= *cap) {
        return p;
    }
    uint32_t ncap = *cap ? *cap * 2 : 8;
    while (ncap < need) {
        ncap *= 2;
    }
    void *q = ptx_arena_alloc(a, (size_t)ncap * elsize);
    if (n) {
        memcpy(q, p, (size_t)n * elsize);
    }
    *cap = ncap;
    return q;
}

/* Unaligned bytes for strings: rounding every short name up to 16 bytes
 * would cost a large module tens of megabytes.  They come from the end
 * of the current chunk, so aligned allocations are not disturbed. */
static char *alloc_bytes(PtxArena *a, size_t n)
{
    Chunk *c = a->head;
    if (!c || c->size - c->used < n) {
        return ptx_arena_alloc(a, n);
    }
    char *p = (char *)c + CHUNK_HDR + c->size - n;
    c->size -= n;
    return p;
}

char *ptx_arena_strndup(PtxArena *a, const char *s, size_t len)
{
    char *d = alloc_bytes(a, len + 1);
    memcpy(d, s, len);
    d[len] = '\0';
    return d;
}

/* FNV-1a: names are short, and this is not exposed to hostile collisions
 * beyond slowing one parse. */
static uint32_t hash_str(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

static void intern_resize(PtxArena *a)
{
    size_t n = a->nslots ? a->nslots * 2 : 1024;
    InternSlot *s = calloc(n, sizeof(*s));
    if (!s) {
        oom();
    }
    for (size_t i = 0; i < a->nslots; i++) {
        if (a->slots[i].str) {
            size_t j = a->slots[i].hash & (n - 1);
            while (s[j].str) {
                j = (j + 1) & (n - 1);
            }
            s[j] = a->slots[i];
        }
    }
    free(a->slots);
    a->slots = s;
    a->nslots = n;
}

const char *ptx_arena_intern(PtxArena *a, const char *s, size_t len)
{
    if (a->nused * 2 >= a->nslots) {
        intern_resize(a);
    }
    uint32_t h = hash_str(s, len);
    size_t j = h & (a->nslots - 1);
    while (a->slots[j].str) {
        InternSlot *e = &a->slots[j];
        if (e->hash == h && e->len == len && memcmp(e->str, s, len) == 0) {
            return e->str;
        }
        j = (j + 1) & (a->nslots - 1);
    }
    char *d = ptx_arena_strndup(a, s, len);
    a->slots[j].str = d;
    a->slots[j].hash = h;
    a->slots[j].len = (uint32_t)len;
    a->nused++;
    return d;
}

size_t ptx_arena_bytes(const PtxArena *a)
{
    return a->total + a->nslots * sizeof(InternSlot);
}
