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

#include "check/memcheck.h"
#include "emu/access.h"
#include "emu/client.h"
#include "emu/memory.h"
#include "emu/tolerate.h"

#define P "========= "
#define BLANK "=========\n"     /* compute-sanitizer's separator */

typedef struct Live {
    uint64_t addr, size;
    EmuAllocKind kind;
} Live;

struct SanMemcheck {
    EmuDevice *dev;
    FILE *out;
    uint64_t limit, errors, printed;
    int client;
    Live *live;                   /* device allocations not yet freed */
    size_t n, cap;
};

/* The words compute-sanitizer uses for a state space. */
static const char *space_words(PtxSpace s)
{
    switch (s) {
    case PTX_SPACE_SHARED:
    case PTX_SPACE_SHARED_CLUSTER: return "__shared__";
    case PTX_SPACE_LOCAL: return "__local__";
    case PTX_SPACE_CONST: return "__constant__";
    case PTX_SPACE_PARAM: return "__param__";
    case PTX_SPACE_GENERIC: return "__generic__";
    default: return "__global__";
    }
}

/* True when this error is to be printed (all are counted). */
static bool count_error(SanMemcheck *m)
{
    m->errors++;
    if (m->limit && m->printed >= m->limit) {
        return false;
    }
    m->printed++;
    return true;
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
                "allocation at 0x%" PRIx64 " of size %" PRIu64 " bytes\n",
                addr - (a->addr + a->size), a->addr, a->size);
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

static void print_access(SanMemcheck *m, PtxSpace space, bool write,
                         uint32_t size, const char *func, uint32_t pc,
                         const char *file, uint32_t line,
                         const uint32_t tid[3], const uint32_t ctaid[3],
                         uint64_t addr, const char *why)
{
    /* named as the memory it lands in (a generic pointer into global
     * memory is a __global__ access, as compute-sanitizer says) */
    uint64_t off;
    space = emu_space_of(space, addr, &off);
    fprintf(m->out, P "Invalid %s %s of size %u byte%s\n",
            space_words(space), write ? "write" : "read", size,
            size == 1 ? "" : "s");
    fprintf(m->out, P "    at %s+0x%x in %s:%u\n", func, pc,
            file ? file : "?", line);
    fprintf(m->out, P "    by thread (%u,%u,%u) in block (%u,%u,%u)\n",
            tid[0], tid[1], tid[2], ctaid[0], ctaid[1], ctaid[2]);
    fprintf(m->out, P "    Address 0x%" PRIx64 " %s\n", addr, why);
    if (space == PTX_SPACE_GLOBAL || space == PTX_SPACE_CONST) {
        print_nearest(m, addr);   /* other spaces hold no allocations */
    }
    fputs(BLANK, m->out);
}

static void on_tolerated(void *ctx, const EmuTolerated *t)
{
    SanMemcheck *m = ctx;
    if (count_error(m)) {
        print_access(m, t->space, t->write, t->size, t->func, t->pc,
                     t->file, t->loc.line, t->tid, t->ctaid, t->addr,
                     "is out of bounds");
    }
}

void san_memcheck_fault(SanMemcheck *m, const EmuFault *f)
{
    if (!count_error(m)) {
        return;
    }
    const char *func = f->func ? f->func : f->kernel ? f->kernel : "?";
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
                     f->loc.line, f->tid, f->ctaid, f->addr, why);
        return;
    }
    fprintf(m->out, P "Kernel fault: %s\n", emu_status_name(f->status));
    fprintf(m->out, P "    at %s+0x%x in %s:%u\n", func, f->pc,
            f->file ? f->file : "?", f->loc.line);
    fprintf(m->out, P "    by thread (%u,%u,%u) in block (%u,%u,%u)\n",
            f->tid[0], f->tid[1], f->tid[2], f->ctaid[0], f->ctaid[1],
            f->ctaid[2]);
    fputs(BLANK, m->out);
}

static bool is_leakable(EmuAllocKind k)
{
    return k == EMU_ALLOC_DEVICE || k == EMU_ALLOC_MANAGED ||
           k == EMU_ALLOC_HEAP;
}

static void track(SanMemcheck *m, uint64_t addr, uint64_t size)
{
    const EmuAlloc *a = emu_mem_find(m->dev->mem, addr, 1);
    if (!a || !is_leakable(a->kind)) {
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
    m->live[m->n++] = (Live){ addr, size, a->kind };
}

static void untrack(SanMemcheck *m, uint64_t addr)
{
    for (size_t i = m->n; i-- > 0;) {
        if (m->live[i].addr == addr) {
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
    SanMemcheck *m = calloc(1, sizeof(*m));
    if (!m) {
        return NULL;
    }
    m->dev = d;
    m->out = out;
    m->limit = print_limit;
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
    return m;
}

void san_memcheck_finish(SanMemcheck *m, bool leak_check)
{
    if (leak_check) {
        uint64_t bytes = 0;
        for (size_t i = 0; i < m->n; i++) {
            bytes += m->live[i].size;
            if (count_error(m)) {
                fprintf(m->out, P "Leaked %" PRIu64 " bytes at 0x%" PRIx64
                        " (%s)\n" BLANK, m->live[i].size, m->live[i].addr,
                        emu_alloc_kind_name(m->live[i].kind));
            }
        }
        if (m->n) {
            fprintf(m->out, P "LEAK SUMMARY: %" PRIu64 " bytes leaked in "
                    "%zu allocation%s\n", bytes, m->n, m->n == 1 ? "" : "s");
        }
    }
    fprintf(m->out, P "ERROR SUMMARY: %" PRIu64 " error%s\n", m->errors,
            m->errors == 1 ? "" : "s");
    if (m->limit && m->errors > m->printed) {
        fprintf(m->out, P "(%" PRIu64 " errors not printed: --print-limit "
                "%" PRIu64 ")\n", m->errors - m->printed, m->limit);
    }
    fflush(m->out);
}

uint64_t san_memcheck_errors(const SanMemcheck *m)
{
    return m->errors;
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
    free(m->live);
    free(m);
}
