/*
 * ptx/symtab.c: the scoped symbol table used while parsing.
 *
 * Names are looked up by content (the scanner does not intern operand
 * names: most are register references that only need a lookup).  Each
 * name maps to its innermost binding; a binding remembers the one it
 * shadows, and closing a scope pops the bindings made in it, which
 * restores the outer ones.  Parameterized register declarations (%r<100>)
 * are one binding of the prefix "%r" with a count.
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/symtab.h"

typedef struct Slot {
    const char *name;
    uint32_t len;
    uint32_t hash;
    int32_t top;        /* innermost binding, -1 when none */
} Slot;

struct PtxSymtab {
    Slot *slots;
    uint32_t nslots;    /* power of two */
    uint32_t nused;
    PtxBinding *b;      /* binding stack */
    uint32_t nb, capb;
    uint32_t *marks;    /* binding count at each open scope */
    uint32_t nmarks, capmarks;
    uint32_t ndigit;    /* live "%...N" bindings (register-like names) */
    uint32_t ndead;     /* slots whose name has no live binding */
};

static bool ends_in_digit(const char *s, uint32_t len)
{
    return len > 1 && s[0] == '%' && s[len - 1] >= '0' && s[len - 1] <= '9';
}

static uint32_t hash_name(const char *s, uint32_t len)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (!q) {
        abort();
    }
    return q;
}

PtxSymtab *ptx_symtab_new(void)
{
    PtxSymtab *t = calloc(1, sizeof(*t));
    if (!t) {
        abort();
    }
    t->nslots = 256;
    t->slots = calloc(t->nslots, sizeof(Slot));
    if (!t->slots) {
        abort();
    }
    return t;
}

void ptx_symtab_free(PtxSymtab *t)
{
    if (!t) {
        return;
    }
    free(t->slots);
    free(t->b);
    free(t->marks);
    free(t);
}

static Slot *find_slot(PtxSymtab *t, const char *s, uint32_t len, uint32_t h)
{
    uint32_t mask = t->nslots - 1;
    uint32_t j = h & mask;
    while (t->slots[j].name) {
        Slot *e = &t->slots[j];
        if (e->hash == h && e->len == len && memcmp(e->name, s, len) == 0) {
            return e;
        }
        j = (j + 1) & mask;
    }
    return &t->slots[j];
}

static void grow(PtxSymtab *t)
{
    uint32_t n = t->nslots * 2;
    Slot *s = calloc(n, sizeof(Slot));
    if (!s) {
        abort();
    }
    for (uint32_t i = 0; i < t->nslots; i++) {
        Slot *e = &t->slots[i];
        if (e->name) {
            uint32_t j = e->hash & (n - 1);
            while (s[j].name) {
                j = (j + 1) & (n - 1);
            }
            s[j] = *e;
        }
    }
    free(t->slots);
    t->slots = s;
    t->nslots = n;
}

/* Re-insert only the slots that still have a binding. */
static void rebuild(PtxSymtab *t)
{
    uint32_t live = t->nused - t->ndead;
    uint32_t n = 256;
    while (n < live * 4) {
        n *= 2;
    }
    Slot *s = calloc(n, sizeof(Slot));
    if (!s) {
        abort();
    }
    for (uint32_t i = 0; i < t->nslots; i++) {
        Slot *e = &t->slots[i];
        if (e->name && e->top >= 0) {
            uint32_t j = e->hash & (n - 1);
            while (s[j].name) {
                j = (j + 1) & (n - 1);
            }
            s[j] = *e;
        }
    }
    free(t->slots);
    t->slots = s;
    t->nslots = n;
    t->nused = live;
    t->ndead = 0;
}

PtxBinding *ptx_symtab_find(PtxSymtab *t, const char *s, uint32_t len)
{
    Slot *e = find_slot(t, s, len, hash_name(s, len));
    if (!e->name || e->top < 0) {
        return NULL;
    }
    return &t->b[e->top];
}

PtxBinding *ptx_symtab_bind(PtxSymtab *t, const char *name, uint32_t len)
{
    if ((t->nused + 1) * 2 > t->nslots) {
        grow(t);
    }
    uint32_t h = hash_name(name, len);
    Slot *e = find_slot(t, name, len, h);
    if (!e->name) {
        e->name = name;   /* caller guarantees name outlives the table */
        e->len = len;
        e->hash = h;
        e->top = -1;
        t->nused++;
    } else if (e->top < 0) {
        t->ndead--;
    }
    if (t->nb == t->capb) {
        t->capb = t->capb ? t->capb * 2 : 256;
        t->b = xrealloc(t->b, t->capb * sizeof(PtxBinding));
    }
    PtxBinding *b = &t->b[t->nb];
    memset(b, 0, sizeof(*b));
    b->name = name;
    b->len = len;
    b->shadow = e->top;
    b->depth = t->nmarks;
    e->top = (int32_t)t->nb;
    t->nb++;
    if (ends_in_digit(name, len)) {
        t->ndigit++;
    }
    return b;
}

void ptx_symtab_push(PtxSymtab *t)
{
    if (t->nmarks == t->capmarks) {
        t->capmarks = t->capmarks ? t->capmarks * 2 : 16;
        t->marks = xrealloc(t->marks, t->capmarks * sizeof(uint32_t));
    }
    t->marks[t->nmarks++] = t->nb;
}

void ptx_symtab_pop(PtxSymtab *t)
{
    if (!t->nmarks) {
        return;
    }
    uint32_t keep = t->marks[--t->nmarks];
    while (t->nb > keep) {
        PtxBinding *b = &t->b[t->nb - 1];
        Slot *e = find_slot(t, b->name, b->len, hash_name(b->name, b->len));
        e->top = b->shadow;
        if (e->top < 0) {
            t->ndead++;
        }
        if (ends_in_digit(b->name, b->len)) {
            t->ndigit--;
        }
        t->nb--;
    }
    /* Names of finished functions would otherwise stay in the table for
     * good, lengthening every probe of a large module: drop them once
     * they are the majority. */
    if (t->ndead > 1024 && t->ndead * 2 > t->nused) {
        rebuild(t);
    }
}

bool ptx_symtab_has_digit_names(const PtxSymtab *t)
{
    return t->ndigit != 0;
}

unsigned ptx_symtab_depth(const PtxSymtab *t)
{
    return t->nmarks;
}
