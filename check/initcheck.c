/*
 * check/initcheck.c: the initialisation checker (see initcheck.h).
 *
 * Shadow bits, one per byte, set when the byte is written: for global
 * memory in 4 KiB pages made on first write (a page not made is all
 * unwritten), for a CTA's shared memory one bitmap, for local memory
 * 64-byte blocks per thread.  Reports follow compute-sanitizer's
 * initcheck (NVIDIA, "Compute Sanitizer User Manual", "Initcheck Tool":
 * "Uninitialized __global__ memory read of size 4 bytes").
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check/initcheck.h"
#include "check/map.h"
#include "emu/access.h"
#include "emu/client.h"

#define GPAGE_BITS 12
#define GPAGE (1u << GPAGE_BITS)

typedef struct CtaShadow {
    uint64_t *shared;             /* bit per byte of shared memory */
    uint32_t nshared;             /* bytes covered */
    SanMap local;                 /* thread << 40 | offset / 64 -> bits */
} CtaShadow;

struct SanInitcheck {
    EmuDevice *dev;
    SanOut *out;
    int client;
    SanMap pages;                 /* addr >> GPAGE_BITS -> uint64_t[64] */
    SanMap seen;                  /* reported (site, space) -> 1 */
    uint64_t last_pn;             /* the page last looked up */
    uint64_t *last_bits;
    uint64_t al_addr, al_end;     /* the allocation last found (until an
                                     allocation or free) */
    bool al_tracked;
};

/* ------------------------------------------------------------ global */

static uint64_t *gpage(SanInitcheck *c, uint64_t pn, bool make)
{
    if (c->last_bits && pn == c->last_pn) {
        return c->last_bits;
    }
    uint64_t *v = san_map_get(&c->pages, pn, false);
    if (v) {
        c->last_pn = pn;
        c->last_bits = (uint64_t *)(uintptr_t)*v;
        return c->last_bits;
    }
    if (!make) {
        return NULL;
    }
    uint64_t *bits = calloc(GPAGE / 64, sizeof(uint64_t));
    if (!bits || !(v = san_map_get(&c->pages, pn, true))) {
        free(bits);
        return NULL;
    }
    *v = (uint64_t)(uintptr_t)bits;
    return bits;
}

/* Mark [addr, addr+size) of global memory written (or not). */
static void gmark(SanInitcheck *c, uint64_t addr, uint64_t size, bool set)
{
    uint64_t end = addr + size;
    while (addr < end) {
        uint64_t pn = addr >> GPAGE_BITS;
        uint64_t stop = (pn + 1) << GPAGE_BITS;
        if (stop > end || stop == 0) {
            stop = end;
        }
        uint64_t *bits = gpage(c, pn, set);
        uint32_t o0 = (uint32_t)(addr & (GPAGE - 1));
        if (bits && set && stop - addr <= 64 - o0 % 64) {
            uint64_t n = stop - addr;
            bits[o0 / 64] |= (n == 64 ? ~0ull : (1ull << n) - 1)
                             << (o0 % 64);
            addr = stop;
            continue;
        }
        for (uint64_t a = addr; bits && a < stop; a++) {
            uint32_t o = (uint32_t)(a & (GPAGE - 1));
            if (set) {
                bits[o / 64] |= 1ull << (o % 64);
            } else {
                bits[o / 64] &= ~(1ull << (o % 64));
            }
        }
        addr = stop;
    }
}

static bool tracked(const EmuAlloc *a)
{
    return a && (a->kind == EMU_ALLOC_DEVICE || a->kind == EMU_ALLOC_HEAP);
}

/* The unwritten bytes among [addr, addr+size) of global memory. */
static uint32_t gunset(SanInitcheck *c, uint64_t addr, uint32_t size)
{
    if (!(addr >= c->al_addr && addr + size <= c->al_end)) {
        const EmuAlloc *a = emu_mem_find(c->dev->mem, addr, size);
        if (!a) {
            return 0;
        }
        c->al_addr = a->addr;
        c->al_end = a->addr + a->size;
        c->al_tracked = tracked(a);
    }
    if (!c->al_tracked) {
        return 0;
    }
    uint32_t o = (uint32_t)(addr & (GPAGE - 1));
    if (size <= 64 - o % 64) {        /* within one word of the bitmap */
        const uint64_t *bits = gpage(c, addr >> GPAGE_BITS, false);
        uint64_t want = (size == 64 ? ~0ull : (1ull << size) - 1)
                        << (o % 64);
        if (!bits) {
            return size;
        }
        uint64_t unset = want & ~bits[o / 64];
        /* (no popcount for the usual answer: without -mpopcnt it is a
         * libgcc call) */
        return unset ? (uint32_t)__builtin_popcountll(unset) : 0;
    }
    uint32_t n = 0;
    for (uint32_t b = 0; b < size; b++) {
        uint64_t at = addr + b;
        const uint64_t *bits = gpage(c, at >> GPAGE_BITS, false);
        uint32_t ob = (uint32_t)(at & (GPAGE - 1));
        n += !bits || !(bits[ob / 64] >> (ob % 64) & 1u);
    }
    return n;
}

/* ------------------------------------------------------------ CTA */

static CtaShadow *cta_shadow(SanInitcheck *c, EmuCta *cta)
{
    void **slot = emu_client_cta_slot(cta, c->client);
    if (!slot) {
        return NULL;
    }
    if (!*slot) {
        CtaShadow *s = calloc(1, sizeof(*s));
        if (!s) {
            return NULL;
        }
        s->nshared = cta->shared_bytes;
        if (s->nshared &&
            !(s->shared = calloc((s->nshared + 63) / 64, sizeof(uint64_t)))) {
            free(s);
            return NULL;
        }
        *slot = s;
    }
    return *slot;
}

static void cta_free(CtaShadow *s)
{
    if (s) {
        san_map_free(&s->local);
        free(s->shared);
        free(s);
    }
}

/* The bit of byte off of thread t's local memory (made when make). */
static uint64_t *lbits(CtaShadow *s, uint32_t t, uint64_t off, bool make)
{
    uint64_t key = (uint64_t)t << 40 | off >> 6;
    uint64_t *v = san_map_get(&s->local, key, make);
    if (!v) {
        return NULL;
    }
    return v;                     /* the map's value is the 64 bits */
}

/* cta_access byte by byte (local memory, or bytes across words). */
static __attribute__((noinline)) uint32_t
cta_access_bytes(CtaShadow *s, const EmuAccess *a, uint32_t t, bool write)
{
    uint32_t n = 0;
    for (uint32_t b = 0; b < a->size; b++) {
        uint64_t off = a->addr + b;
        uint64_t *w;
        unsigned bit;
        if (a->space == PTX_SPACE_SHARED) {
            if (off >= s->nshared) {
                return n;             /* the reserved region: not user's */
            }
            w = &s->shared[off / 64];
            bit = (unsigned)(off % 64);
        } else {
            w = lbits(s, t, off, write);
            bit = (unsigned)(off % 64);
        }
        if (write) {
            if (w) {
                *w |= 1ull << bit;
            }
        } else {
            n += !w || !(*w >> bit & 1u);
        }
    }
    return n;
}

/* Mark, or count the unwritten bytes of, an access in shared or local
 * memory: the common case, shared bytes within one word of the map, at
 * once (inlined into the access hook), the rest byte by byte. */
static inline uint32_t cta_access(CtaShadow *s, const EmuAccess *a,
                                  uint32_t t, bool write)
{
    if (a->space == PTX_SPACE_SHARED && a->size < 64 &&
        a->addr + a->size <= s->nshared &&
        a->addr / 64 == (a->addr + a->size - 1) / 64) {
        uint64_t *w = &s->shared[a->addr / 64];
        uint64_t m = ((1ull << a->size) - 1) << (a->addr % 64);
        if (write) {
            *w |= m;
            return 0;
        }
        uint64_t unset = m & ~*w;
        return unset ? (uint32_t)__builtin_popcountll(unset) : 0;
    }
    return cta_access_bytes(s, a, t, write);
}

/* ------------------------------------------------------------ reports */

static void report(SanInitcheck *c, const EmuCtx *x, const EmuAccess *a,
                   uint32_t unset)
{
    uint64_t key = (uint64_t)(uintptr_t)x->func * 31 + x->pc * 8 + a->space;
    uint64_t *seen = san_map_get(&c->seen, key, true);
    if (seen && *seen) {
        san_out_add(c->out, 1);
        return;
    }
    if (seen) {
        *seen = 1;
    }
    if (!san_out_count(c->out)) {
        return;
    }
    SanLoc loc;
    san_loc_of(&loc, x->func, x->pc);
    uint32_t tid[3] = { x->warp->tid[0][a->lane], x->warp->tid[1][a->lane],
                        x->warp->tid[2][a->lane] };
    FILE *o = c->out->out;
    if (c->out->fmt != SAN_FMT_TEXT) {
        fprintf(o, "{\"tool\":\"initcheck\",\"kind\":\"uninitialized-read\","
                "\"space\":\"%s\",\"size\":%u,\"unwritten\":%u,\"address\":%"
                PRIu64 ",", ptx_space_name((PtxSpace)a->space), a->size,
                unset, a->addr);
        san_json_loc(o, "at", &loc);
        fputc(',', o);
        san_json_dim3(o, "thread", tid);
        fputc(',', o);
        san_json_dim3(o, "block", x->cta->ctaid);
        fputs("}\n", o);
        return;
    }
    fprintf(o, SAN_P "Uninitialized %s memory read of size %u byte%s\n",
            san_space_words((PtxSpace)a->space), a->size,
            a->size == 1 ? "" : "s");
    fputs(SAN_P "    ", o);
    san_text_at(o, &loc);
    fprintf(o, "\n" SAN_P "    by thread (%u,%u,%u) in block (%u,%u,%u)\n",
            tid[0], tid[1], tid[2], x->cta->ctaid[0], x->cta->ctaid[1],
            x->cta->ctaid[2]);
    fprintf(o, SAN_P "    Address 0x%" PRIx64 " (%u of %u bytes never "
            "written)\n" SAN_BLANK, a->addr, unset, a->size);
}

/* ------------------------------------------------------------ client */

static void on_access(void *ctx, const EmuCtx *x, const EmuAccess *a,
                      uint32_t n)
{
    SanInitcheck *c = ctx;
    CtaShadow *s = NULL;
    /* a .func's parameters and return values lie in local memory, and
     * the emulator copies them there at call and return, unseen: reads
     * named .param are not checked */
    const IrInsn *in = x->pc < x->func->ncode ? x->func->code[x->pc].ir
                                              : NULL;
    PtxMod sp = in ? ir_insn_mod(in, PTX_MG_SPACE) : PTX_M_NONE;
    bool param = sp == PTX_M_PARAM || sp == PTX_M_PARAM_FUNC;
    for (uint32_t k = 0; k < n; k++) {
        EmuAccKind kind = a[k].kind;
        bool read = kind == EMU_ACC_READ || kind == EMU_ACC_ATOMIC;
        bool write = emu_acc_writes(kind);
        uint32_t unset = 0;
        if (a[k].space == PTX_SPACE_GLOBAL) {
            if (read) {
                unset = gunset(c, a[k].addr, a[k].size);
            }
            if (write) {
                gmark(c, a[k].addr, a[k].size, true);
            }
        } else if (a[k].space == PTX_SPACE_SHARED ||
                   a[k].space == PTX_SPACE_LOCAL) {
            if (!s && !(s = cta_shadow(c, x->cta))) {
                return;
            }
            uint32_t t = x->warp->id * EMU_WARP_SIZE + a[k].lane;
            if (read && !(param && a[k].space == PTX_SPACE_LOCAL)) {
                unset = cta_access(s, &a[k], t, false);
            }
            if (write) {
                cta_access(s, &a[k], t, true);
            }
        }
        if (unset) {
            report(c, x, &a[k], unset);
        }
    }
}

static void on_event(void *ctx, const EmuEvent *e)
{
    SanInitcheck *c = ctx;
    switch (e->kind) {
    case EMU_EV_HOST_FREE:
    case EMU_EV_DEV_FREE:
        c->al_addr = c->al_end = 0;       /* forget the allocation found */
        return;
    case EMU_EV_HOST_ALLOC:
    case EMU_EV_DEV_ALLOC:
        c->al_addr = c->al_end = 0;
        if (tracked(emu_mem_find(c->dev->mem, e->addr, 1))) {
            gmark(c, e->addr, e->size, false);
        }
        return;
    case EMU_EV_HOST_WRITE:
        gmark(c, e->addr, e->size, true);
        return;
    case EMU_EV_CTA_DONE: {
        void **slot = emu_client_cta_slot(e->cta, c->client);
        if (slot) {
            cta_free(*slot);
            *slot = NULL;
        }
        return;
    }
    default:
        return;
    }
}

SanInitcheck *san_initcheck_new(EmuDevice *d, SanOut *out)
{
    SanInitcheck *c = calloc(1, sizeof(*c));
    if (!c) {
        return NULL;
    }
    c->dev = d;
    c->out = out;
    EmuClient cl = {
        .abi_version = EMU_CLIENT_ABI, .struct_size = sizeof(cl),
        .name = "initcheck", .ctx = c, .on_access = on_access,
        .on_event = on_event,
        .spaces = 1u << PTX_SPACE_GLOBAL | 1u << PTX_SPACE_SHARED |
                  1u << PTX_SPACE_LOCAL,
        .events = 1u << EMU_EV_HOST_ALLOC | 1u << EMU_EV_DEV_ALLOC |
                  1u << EMU_EV_HOST_FREE | 1u << EMU_EV_DEV_FREE |
                  1u << EMU_EV_HOST_WRITE | 1u << EMU_EV_CTA_DONE,
    };
    char why[128];
    c->client = emu_client_attach(d, &cl, why, sizeof(why));
    if (c->client < 0) {
        free(c);
        return NULL;
    }
    return c;
}

void san_initcheck_free(SanInitcheck *c)
{
    if (!c) {
        return;
    }
    emu_client_detach(c->dev, c->client);
    for (size_t i = 0; i < c->pages.cap; i++) {
        if (c->pages.v[i].used) {
            free((void *)(uintptr_t)c->pages.v[i].val);
        }
    }
    san_map_free(&c->pages);
    san_map_free(&c->seen);
    free(c);
}
