/*
 * check/memcheck.c: the memory checker (see memcheck.h).
 *
 * The report lines follow compute-sanitizer's memcheck (NVIDIA, "Compute
 * Sanitizer User Manual": "Invalid __global__ write of size 4 bytes",
 * "at KERNEL+0xOFF in FILE:LINE", "by thread (x,y,z) in block (x,y,z)",
 * "Address 0x... is out of bounds", "Leaked N bytes at 0x...", "LEAK
 * SUMMARY", "ERROR SUMMARY: N errors").  Our offset is the PTX
 * instruction's index in its function (there is no SASS), and the file
 * and line are the PTX file's.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check/freed.h"
#include "check/map.h"
#include "check/memcheck.h"
#include "check/report.h"
#include "emu/access.h"
#include "emu/builtins.h"
#include "emu/client.h"
#include "emu/memory.h"
#include "emu/tolerate.h"

#define P SAN_P
#define BLANK SAN_BLANK

/* freed managed allocations kept from reuse (emu_mem_set_quarantine) */
#define NFREED 256
/* The most bytes of freed managed memory kept from reuse (the default
 * of AddressSanitizer's quarantine_size_mb) */
#define QUARANTINE_BYTES (256ull << 20)

typedef struct Live {
    uint64_t addr, size;
    EmuAllocKind kind;
    uint32_t site;                /* where it was allocated (Site) */
} Live;

/* Where a device malloc or free was called (index 0: by the host), its
 * strings copied: the module may be unloaded before the report. */
typedef struct Site {
    char *func, *file, *src;
    uint32_t pc, line, src_line;
} Site;

struct SanMemcheck {
    EmuDevice *dev;
    SanOut *o;                    /* own_out, or one shared with tools */
    SanOut own_out;
    FILE *out;                    /* o->out */
    int client;
    Live *live;                   /* device allocations not yet freed */
    size_t n, cap;
    SanFreedSet freed;            /* freed ranges, with their sites */
    Site *sites;
    size_t nsites, capsites;
    SanMap sitemap;               /* (function number, pc) -> sites index */
    SanMap funcmap;               /* function -> its number (from 1) */
    uint64_t nfuncs;              /* numbers given */
    bool (*leak_skip)(uint64_t addr);
};

/* True when this error is to be printed (all are counted). */
static bool count_error(SanMemcheck *m)
{
    return san_out_count(m->o);
}

static bool json(const SanMemcheck *m)
{
    return m->o->fmt != SAN_FMT_TEXT;
}

/* "and is N bytes after the nearest allocation at 0x... of size M
 * bytes", or nothing when there are no allocations. */
static void print_nearest(SanMemcheck *m, uint64_t addr)
{
    const EmuAlloc *a = emu_mem_nearest(m->dev->mem, addr);
    if (!a) {
        return;
    }
    if (addr >= a->addr + a->size) {
        fprintf(m->out, P "    and is %" PRIu64 " bytes after the nearest "
                "allocation at 0x%" PRIx64 " of size %" PRIu64 " bytes%s\n",
                addr - (a->addr + a->size), a->addr, a->size,
                a->kind == EMU_ALLOC_HEAP ? " (device heap)" : "");
    } else if (addr < a->addr) {
        fprintf(m->out, P "    and is %" PRIu64 " bytes before the "
                "nearest allocation at 0x%" PRIx64 " of size %" PRIu64
                " bytes\n", a->addr - addr, a->addr, a->size);
    } else {
        fprintf(m->out, P "    and is inside the nearest allocation at "
                "0x%" PRIx64 " of size %" PRIu64 " bytes\n", a->addr,
                a->size);
    }
}

/* The freed allocation (cudaFree, device free) that addr lies in, or
 * NULL (check/freed.h). */
static const SanFreed *freed_at(const SanMemcheck *m, uint64_t addr)
{
    return san_freed_at(&m->freed, addr);
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

/* The site of the device malloc or free running now on this host
 * thread (emu_builtin_heap_caller), or 0: the host's. */
static uint32_t current_site(SanMemcheck *m)
{
    uint32_t lane;
    const EmuCtx *x = emu_builtin_heap_caller(&lane);
    if (!x || !x->func) {
        return 0;
    }
    /* a site's key: its function's number and its pc, both whole */
    uint64_t *fn = san_map_get(&m->funcmap, (uint64_t)(uintptr_t)x->func,
                               true);
    if (!fn) {
        return 0;
    }
    if (!*fn) {
        *fn = ++m->nfuncs;
    }
    uint64_t key = *fn << 32 | x->pc;
    uint64_t *v = san_map_get(&m->sitemap, key, false);
    if (v) {
        return (uint32_t)*v;
    }
    if (!m->nsites) {
        m->nsites = 1;            /* index 0: the host */
    }
    if (m->nsites >= m->capsites) {
        size_t nc = m->capsites ? m->capsites * 2 : 16;
        Site *p = realloc(m->sites, nc * sizeof(*p));
        if (!p) {
            return 0;
        }
        m->sites = p;
        m->capsites = nc;
    }
    if (!(v = san_map_get(&m->sitemap, key, true))) {
        return 0;
    }
    SanLoc l;
    san_loc_of(&l, x->func, x->pc);
    m->sites[m->nsites] = (Site){ dup_or_null(l.func), dup_or_null(l.file),
                                  dup_or_null(l.src), l.pc, l.line,
                                  l.src_line };
    *v = m->nsites;
    return (uint32_t)m->nsites++;
}

static SanLoc site_loc(const SanMemcheck *m, uint32_t site)
{
    const Site *s = &m->sites[site];
    return (SanLoc){ .func = s->func, .pc = s->pc, .file = s->file,
                     .line = s->line, .src = s->src,
                     .src_line = s->src_line };
}

/* "allocated at ..." / "freed by the host" lines of a freed range. */
static void print_sites(SanMemcheck *m, const SanFreed *fr)
{
    const char *what[2] = { "allocated", "freed" };
    uint32_t site[2] = { fr->alloc_site, fr->free_site };
    for (int k = 0; k < 2; k++) {
        if (!site[k]) {
            fprintf(m->out, P "    %s by the host\n", what[k]);
            continue;
        }
        SanLoc l = site_loc(m, site[k]);
        fprintf(m->out, P "    %s ", what[k]);
        san_text_at(m->out, &l);
        fputc('\n', m->out);
    }
}

static void json_sites(SanMemcheck *m, const SanFreed *fr)
{
    const char *key[2] = { "allocated_at", "freed_at" };
    uint32_t site[2] = { fr->alloc_site, fr->free_site };
    for (int k = 0; k < 2; k++) {
        fputc(',', m->out);
        if (!site[k]) {
            fprintf(m->out, "\"%s\":\"host\"", key[k]);
            continue;
        }
        SanLoc l = site_loc(m, site[k]);
        san_json_loc(m->out, key[k], &l);
    }
}

/* True when addr lies past the end of the device-heap block (device
 * malloc) nearest to it: a heap overflow. */
static bool heap_overflow(const SanMemcheck *m, uint64_t addr)
{
    const EmuAlloc *a = emu_mem_nearest(m->dev->mem, addr);
    return a && a->kind == EMU_ALLOC_HEAP && addr >= a->addr + a->size;
}

/* src: the CUDA source line of the access (from .loc), or NULL. */
static void print_access(SanMemcheck *m, PtxSpace space, bool write,
                         uint32_t size, const char *func, uint32_t pc,
                         const char *file, uint32_t line,
                         const uint32_t tid[3], const uint32_t ctaid[3],
                         uint64_t addr, const char *why, const SanLoc *src)
{
    /* named as the memory it lands in (a generic pointer into global
     * memory is a __global__ access, as compute-sanitizer says) */
    uint64_t off;
    space = emu_space_of(space, addr, &off);
    bool heap = space == PTX_SPACE_GLOBAL || space == PTX_SPACE_CONST;
    const SanFreed *fr = heap && !strcmp(why, "is out of bounds") &&
                     !emu_mem_find(m->dev->mem, addr, 1)
                         ? freed_at(m, addr) : NULL;
    if (fr) {
        why = "is in freed memory (use after free)";
    }
    if (json(m)) {
        FILE *o = m->out;
        fprintf(o, "{\"tool\":\"memcheck\",\"kind\":\"%s\",\"space\":"
                "\"%s\",\"access\":\"%s\",\"size\":%u,\"address\":%"
                PRIu64 ",", fr ? "use-after-free"
                : heap && !strcmp(why, "is out of bounds") &&
                  heap_overflow(m, addr) ? "heap-overflow"
                : strstr(why, "misaligned") ? "misaligned"
                : strstr(why, "read-only") ? "read-only" : "out-of-bounds",
                ptx_space_name(space), write ? "write" : "read", size, addr);
        SanLoc l = { .func = func, .pc = pc, .file = file, .line = line,
                     .src = src ? src->src : NULL,
                     .src_line = src ? src->src_line : 0 };
        san_json_loc(o, "at", &l);
        fputc(',', o);
        san_json_dim3(o, "thread", tid);
        fputc(',', o);
        san_json_dim3(o, "block", ctaid);
        if (fr) {
            fprintf(o, ",\"freed\":{\"address\":%" PRIu64 ",\"size\":%"
                    PRIu64, fr->addr, fr->size);
            json_sites(m, fr);
            fputc('}', o);
        }
        fputs("}\n", o);
        return;
    }
    fprintf(m->out, P "Invalid %s %s of size %u byte%s\n",
            san_space_words(space), write ? "write" : "read", size,
            size == 1 ? "" : "s");
    fprintf(m->out, P "    at %s+0x%x in %s:%u", func, pc,
            file ? file : "?", line);
    if (src && src->src) {
        fprintf(m->out, " (%s:%u)", src->src, src->src_line);
    }
    fprintf(m->out, "\n" P "    by thread (%u,%u,%u) in block (%u,%u,%u)\n",
            tid[0], tid[1], tid[2], ctaid[0], ctaid[1], ctaid[2]);
    fprintf(m->out, P "    Address 0x%" PRIx64 " %s\n", addr, why);
    if (fr) {
        fprintf(m->out, P "    of the allocation at 0x%" PRIx64 " of size %"
                PRIu64 " bytes, freed\n", fr->addr, fr->size);
        print_sites(m, fr);
    } else if (heap) {
        print_nearest(m, addr);   /* other spaces hold no allocations */
    }
    fputs(BLANK, m->out);
}

static void on_tolerated(void *ctx, const EmuTolerated *t)
{
    SanMemcheck *m = ctx;
    if (count_error(m)) {
        SanLoc src;
        san_loc_of(&src, t->launch ? san_func_named(t->launch->mod, t->func)
                                   : NULL, t->pc);
        print_access(m, t->space, t->write, t->size, t->func, t->pc,
                     t->file, t->loc.line, t->tid, t->ctaid, t->addr,
                     "is out of bounds", &src);
    }
}

/* "at":..,"thread":..,"block":..} ending a JSON report of a fault. */
static void json_where(SanMemcheck *m, const SanLoc *l, const EmuFault *f)
{
    san_json_loc(m->out, "at", l);
    fputc(',', m->out);
    san_json_dim3(m->out, "thread", f->tid);
    fputc(',', m->out);
    san_json_dim3(m->out, "block", f->ctaid);
    fputs("}\n", m->out);
}

/* A device free() of addr that is not the start of a live heap block
 * (emu/builtins.c faults): compute-sanitizer's "Malloc/Free error"
 * (Compute Sanitizer User Manual, "Memcheck Tool", error types), a
 * double free when a heap block freed lately started there. */
static void print_heap_free(SanMemcheck *m, const EmuFault *f,
                            const SanLoc *l)
{
    const SanFreed *fr = freed_at(m, f->addr);
    bool dbl = fr && fr->addr == f->addr && fr->kind == EMU_ALLOC_HEAP &&
               !emu_mem_find(m->dev->mem, f->addr, 1);
    if (json(m)) {
        fprintf(m->out, "{\"tool\":\"memcheck\",\"kind\":\"%s\","
                "\"address\":%" PRIu64 ",", dbl ? "device-double-free"
                : "device-invalid-free", f->addr);
        json_where(m, l, f);
        return;
    }
    fprintf(m->out, P "Malloc/Free error encountered : %s\n",
            dbl ? "Double free" : "Invalid pointer to free");
    fputs(P "    ", m->out);
    san_text_at(m->out, l);
    fprintf(m->out, "\n" P "    by thread (%u,%u,%u) in block (%u,%u,%u)\n",
            f->tid[0], f->tid[1], f->tid[2], f->ctaid[0], f->ctaid[1],
            f->ctaid[2]);
    fprintf(m->out, P "    Address 0x%" PRIx64 "\n", f->addr);
    if (!dbl) {
        print_nearest(m, f->addr);
    }
    fputs(BLANK, m->out);
}

void san_memcheck_fault(SanMemcheck *m, const EmuFault *f,
                        const EmuModule *mod)
{
    if (!count_error(m)) {
        return;
    }
    const char *func = f->func ? f->func : f->kernel ? f->kernel : "?";
    const EmuFunc *fn = san_func_named(mod, func);
    SanLoc src;                   /* the CUDA source line, from .loc */
    san_loc_of(&src, fn, f->pc);
    if (fn && f->pc < fn->ncode && f->status == EMU_ERR_ILLEGAL_ADDRESS &&
        fn->code[f->pc].fn &&
        fn->code[f->pc].fn == emu_builtin_handler("free")) {
        src.file = f->file;
        src.line = f->loc.line;
        print_heap_free(m, f, &src);
        return;
    }
    if (f->status == EMU_ERR_ILLEGAL_ADDRESS ||
        f->status == EMU_ERR_MISALIGNED || f->status == EMU_ERR_READ_ONLY) {
        /* The faulting access's direction is not kept in EmuFault:
         * a write to read-only memory is one by definition. */
        bool write = f->status == EMU_ERR_READ_ONLY ||
                     strstr(f->detail, " write ") != NULL;
        const char *why = f->status == EMU_ERR_MISALIGNED
                              ? "is misaligned"
                              : f->status == EMU_ERR_READ_ONLY
                                    ? "is read-only"
                                    : "is out of bounds";
        print_access(m, f->space, write, f->size, func, f->pc, f->file,
                     f->loc.line, f->tid, f->ctaid, f->addr, why, &src);
        return;
    }
    SanLoc l = { .func = func, .pc = f->pc, .file = f->file,
                 .line = f->loc.line, .src = src.src,
                 .src_line = src.src_line };
    if (json(m)) {
        fprintf(m->out, "{\"tool\":\"memcheck\",\"kind\":\"fault\","
                "\"status\":\"%s\",", emu_status_name(f->status));
        json_where(m, &l, f);
        return;
    }
    fprintf(m->out, P "Kernel fault: %s\n", emu_status_name(f->status));
    fputs(P "    ", m->out);
    san_text_at(m->out, &l);
    fprintf(m->out, "\n" P "    by thread (%u,%u,%u) in block (%u,%u,%u)\n",
            f->tid[0], f->tid[1], f->tid[2], f->ctaid[0], f->ctaid[1],
            f->ctaid[2]);
    fputs(BLANK, m->out);
}

void san_memcheck_bad_free(SanMemcheck *m, uint64_t addr)
{
    if (!count_error(m)) {
        return;
    }
    const SanFreed *fr = freed_at(m, addr);
    bool dbl = fr && fr->addr == addr && !emu_mem_find(m->dev->mem, addr, 1);
    if (json(m)) {
        fprintf(m->out, "{\"tool\":\"memcheck\",\"kind\":\"%s\","
                "\"address\":%" PRIu64, dbl ? "double-free" : "invalid-free",
                addr);
        if (dbl) {
            fprintf(m->out, ",\"size\":%" PRIu64, fr->size);
        }
        fputs("}\n", m->out);
        return;
    }
    if (dbl) {
        fprintf(m->out, P "Invalid free of 0x%" PRIx64 ": double free of "
                "the allocation of size %" PRIu64 " bytes\n" BLANK, addr,
                fr->size);
    } else {
        fprintf(m->out, P "Invalid free of 0x%" PRIx64 ": not the start "
                "of a live device allocation\n" BLANK, addr);
    }
}

static bool is_leakable(EmuAllocKind k)
{
    return k == EMU_ALLOC_DEVICE || k == EMU_ALLOC_MANAGED ||
           k == EMU_ALLOC_HEAP;
}

static void track(SanMemcheck *m, uint64_t addr, uint64_t size)
{
    san_freed_reuse(&m->freed, addr, size);
    const EmuAlloc *a = emu_mem_find(m->dev->mem, addr, 1);
    /* a module's __managed__ variable (a name) is the module's, not a
     * leak: only what cudaMallocManaged and friends made */
    if (!a || !is_leakable(a->kind) || a->name) {
        return;
    }
    if (m->n == m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 64;
        Live *p = realloc(m->live, nc * sizeof(*p));
        if (!p) {
            return;                   /* untracked: never a false leak */
        }
        m->live = p;
        m->cap = nc;
    }
    m->live[m->n++] = (Live){ addr, size, a->kind, current_site(m) };
}

static void untrack(SanMemcheck *m, uint64_t addr)
{
    for (size_t i = m->n; i-- > 0;) {
        if (m->live[i].addr == addr) {
            const Live *l = &m->live[i];
            SanFreed f = { l->addr, l->size, l->site, current_site(m),
                           (uint32_t)l->kind };
            san_freed_add(&m->freed, &f);
            m->live[i] = m->live[--m->n];
            return;
        }
    }
}

static void on_event(void *ctx, const EmuEvent *e)
{
    SanMemcheck *m = ctx;
    if (e->kind == EMU_EV_HOST_ALLOC || e->kind == EMU_EV_DEV_ALLOC) {
        track(m, e->addr, e->size);
    } else {
        untrack(m, e->addr);
    }
}

SanMemcheck *san_memcheck_new(EmuDevice *d, FILE *out,
                              uint64_t print_limit)
{
    SanMemcheck *m = san_memcheck_new_out(d, NULL);
    if (m) {
        san_out_init(&m->own_out, out, SAN_FMT_TEXT, print_limit);
        m->o = &m->own_out;
        m->out = out;
    }
    return m;
}

SanMemcheck *san_memcheck_new_out(EmuDevice *d, SanOut *out)
{
    SanMemcheck *m = calloc(1, sizeof(*m));
    if (!m) {
        return NULL;
    }
    m->dev = d;
    m->o = out;
    m->out = out ? out->out : NULL;
    EmuClient c = {
        .abi_version = EMU_CLIENT_ABI, .struct_size = sizeof(c),
        .name = "memcheck", .ctx = m, .on_event = on_event,
        .events = 1u << EMU_EV_HOST_ALLOC | 1u << EMU_EV_HOST_FREE |
                  1u << EMU_EV_DEV_ALLOC | 1u << EMU_EV_DEV_FREE,
    };
    char why[128];
    m->client = emu_client_attach(d, &c, why, sizeof(why));
    if (m->client < 0) {
        free(m);
        return NULL;
    }
    d->tolerated_hook = on_tolerated;
    d->tolerated_ctx = m;
    /* a freed managed allocation's address is not handed out again
     * while it is among the NFREED remembered (emu/memory.h) */
    (void)emu_mem_set_quarantine(d->mem, NFREED, QUARANTINE_BYTES);
    return m;
}

void san_memcheck_leak_filter(SanMemcheck *m, bool (*skip)(uint64_t addr))
{
    m->leak_skip = skip;
}

void san_memcheck_finish(SanMemcheck *m, bool leak_check)
{
    if (leak_check && m->leak_skip) {
        size_t k = 0;
        for (size_t i = 0; i < m->n; i++) {
            if (!m->leak_skip(m->live[i].addr)) {
                m->live[k++] = m->live[i];
            }
        }
        m->n = k;
    }
    if (leak_check) {
        uint64_t bytes = 0;
        for (size_t i = 0; i < m->n; i++) {
            bytes += m->live[i].size;
            if (!count_error(m)) {
                continue;
            }
            if (json(m)) {
                fprintf(m->out, "{\"tool\":\"memcheck\",\"kind\":\"leak\","
                        "\"address\":%" PRIu64 ",\"size\":%" PRIu64
                        ",\"allocation\":\"%s\"}\n", m->live[i].addr,
                        m->live[i].size,
                        emu_alloc_kind_name(m->live[i].kind));
            } else {
                fprintf(m->out, P "Leaked %" PRIu64 " bytes at 0x%" PRIx64
                        " (%s)\n" BLANK, m->live[i].size, m->live[i].addr,
                        emu_alloc_kind_name(m->live[i].kind));
            }
        }
        if (m->n && !json(m)) {
            fprintf(m->out, P "LEAK SUMMARY: %" PRIu64 " bytes leaked in "
                    "%zu allocation%s\n", bytes, m->n, m->n == 1 ? "" : "s");
        }
    }
    if (m->o == &m->own_out) {
        san_out_summary(m->o);
    }
    fflush(m->out);
}

uint64_t san_memcheck_errors(const SanMemcheck *m)
{
    return m->o->errors;
}

void san_memcheck_free(SanMemcheck *m)
{
    if (!m) {
        return;
    }
    emu_client_detach(m->dev, m->client);
    if (m->dev->tolerated_ctx == m) {
        m->dev->tolerated_hook = NULL;
        m->dev->tolerated_ctx = NULL;
    }
    (void)emu_mem_set_quarantine(m->dev->mem, 0, 0);
    for (size_t i = 1; i < m->nsites; i++) {
        free(m->sites[i].func);
        free(m->sites[i].file);
        free(m->sites[i].src);
    }
    free(m->sites);
    san_map_free(&m->sitemap);
    san_map_free(&m->funcmap);
    san_freed_free(&m->freed);
    free(m->live);
    free(m);
}
