/*
 * emu/memory.c: the device address space and checked guest accesses.
 *
 * Global allocations get addresses from a bump pointer that only grows
 * (256-byte aligned, with a 256-byte unmapped gap after each allocation),
 * so the table stays sorted by address when appended to and a released
 * address is never handed out again: a stale pointer faults instead of
 * silently reading a newer allocation.  Lookups are binary searches.
 * The bump pointer starts EMU_CTX_BYTES into the first page, which
 * stands for the context's own data (see EMU_MAP_GRANULARITY).
 *
 * What a GPU would not fault on (emu_mem_slack): every allocation's host
 * bytes are padded to a multiple of 256, and each mapped page of the
 * device range gets, on first use, host bytes for the addresses between
 * its allocations (freed when the page is no longer mapped).
 *
 * A device allocation exported for CUDA IPC (emu_mem_share) keeps its
 * host bytes in a MAP_SHARED memfd instead of the heap, so that another
 * process can map the same pages.
 *
 * The table is one block (MemTab: count and entries together) behind
 * one pointer.  Kernels look allocations up without a lock, so a host
 * thread that allocates while a kernel may run
 * (emu_mem_alloc_concurrent) never changes the block a lookup may be
 * reading: it publishes a changed copy, and the old block stays
 * readable until emu_mem_reclaim, which the runtime calls once no
 * kernel runs.  Every other change is made in place, by a thread that
 * excludes lock-free lookups (the runtime's device lock, or the one
 * thread of a launch that allocates, see emu/par.c).
 *
 * Shared and local memory are not in the table: they are windows of
 * generic addresses resolved against the current CTA (shared) or the
 * current thread (local), see emu/memory.h.
 */
#define _GNU_SOURCE 1 /* memfd_create(2), F_ADD_SEALS */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "emu/memory.h"
#include "emu/shadow.h"
#include "emu/access.h"
#include "emu/cluster.h"
#include "emu/exec.h"
#include "emu/panic.h"
#include "emu/tolerate.h"

/* The allocation table, sorted by addr: read through cur(). */
typedef struct MemTab {
    uint32_t n, cap;
    EmuAlloc a[];
} MemTab;

struct EmuMemory {
    MemTab *t;                    /* the table (atomic pointer) */
    /* tables replaced beside a running kernel (emu_mem_alloc_concurrent,
     * emu_mem_beside), still readable by its lookups, and host bytes of
     * allocations released there: freed by emu_mem_reclaim */
    void **old;
    uint32_t nold, capold;
    uint64_t oldbytes;            /* their size */
    uint64_t next;                /* next free address (atomic) */
    uint64_t nseq;                /* allocations made (EmuAlloc.seq) */
    uint64_t used;
    uint64_t limit;               /* most bytes used at once */
    uint64_t gen;                 /* bumped on every removal or change of
                                   * an entry (not on insertions, which
                                   * change no cached entry) */
    /* Held by every change to the table, next and used, and by
     * emu_mem_query: the host asks what a pointer is
     * (cuPointerGetAttribute, the copy functions' classification) or
     * allocates while a kernel runs on the device worker, possibly one
     * that waits for what the host does next.  The steps' own lookups
     * take no lock (see the top of this file). */
    pthread_mutex_t tab;
    /* the host bytes of mapped pages between allocations (slack), under
     * slack_mu: the CTAs of a launch on several host threads may meet a
     * page at once (emu_mem_slack) */
    struct { uint64_t page; uint8_t *host; } *slack;
    uint32_t nslack, capslack;
    pthread_mutex_t slack_mu;
    EmuMemObserver observe;       /* emu_mem_observe */
    void *observe_ctx;
    EmuMemWriteObserver wrote;    /* emu_mem_observe_writes */
    void *wrote_ctx;
    /* emu_mem_set_quarantine: the host bytes of released managed
     * allocations not yet freed, oldest first (a ring of qcap) */
    struct { uint8_t *host; uint64_t bytes; } *q;
    uint32_t qcap, qhead, qn;
    uint64_t qbytes, qlimit;
};

void emu_mem_observe_writes(EmuMemory *m, EmuMemWriteObserver fn,
                            void *ctx)
{
    m->wrote = fn;
    m->wrote_ctx = ctx;
}

/* emu_mem_beside: this thread changes the table beside running kernels */
static __thread bool beside;

void emu_mem_wrote(EmuMemory *m, uint64_t addr, uint64_t size)
{
    /* beside a kernel (a module's initial values) no client hears of it:
     * its allocation was made while none watched, and a client attached
     * since must not be called beside the kernel */
    if (m->wrote && size && !beside) {
        m->wrote(m->wrote_ctx, addr, size);
    }
}

void emu_mem_observe(EmuMemory *m, EmuMemObserver fn, void *ctx)
{
    pthread_mutex_lock(&m->tab);        /* emu_mem_alloc_concurrent reads */
    m->observe = fn;
    m->observe_ctx = ctx;
    pthread_mutex_unlock(&m->tab);
}

/* The table as of now: a lookup loads it once and searches that. */
static inline const MemTab *cur(const EmuMemory *m)
{
    return __atomic_load_n(&m->t, __ATOMIC_ACQUIRE);
}

static uint64_t next_addr(const EmuMemory *m)
{
    return __atomic_load_n(&m->next, __ATOMIC_RELAXED);
}

static MemTab *tab_new(uint32_t cap)
{
    MemTab *t = malloc(sizeof(*t) + (size_t)cap * sizeof(EmuAlloc));
    if (t) {
        t->n = 0;
        t->cap = cap;
    }
    return t;
}

#define EMU_ALLOC_ALIGN 256u
#define EMU_ALLOC_GAP 256u
#define EMU_MEM_LIMIT (64ull << 30)  /* 64 GiB of guest memory */
/* The most bytes of replaced tables kept while a kernel runs (many
 * allocations beside one kernel would otherwise keep a copy each). */
#define EMU_MEM_OLD_LIMIT (64ull << 20)

EmuMemory *emu_mem_new(void)
{
    EmuMemory *m = calloc(1, sizeof(*m));
    if (m && !(m->t = tab_new(64))) {
        free(m);
        m = NULL;
    }
    if (m) {
        m->next = EMU_GLOBAL_BASE + EMU_CTX_BYTES;
        m->limit = EMU_MEM_LIMIT;
        pthread_mutex_init(&m->tab, NULL);
        pthread_mutex_init(&m->slack_mu, NULL);
    }
    return m;
}

/* Host bytes of an allocation of `size`: padded to 256 so that no
 * naturally aligned access of up to 256 bytes ends past them. */
static uint64_t host_span(uint64_t size)
{
    uint64_t span = size ? size : 1;
    return (span + EMU_ALLOC_ALIGN - 1) & ~(uint64_t)(EMU_ALLOC_ALIGN - 1);
}

uint64_t emu_mem_host_span(uint64_t size)
{
    return host_span(size);
}

/* Host bytes for a device allocation (zeroed, `padded` of them, *mapped
 * set when they are a mapping of their own).  They are aligned to 256
 * bytes, as the device address is (cudaMalloc's alignment), so that a
 * warp's coalesced access to an aligned 128 bytes touches two host cache
 * lines and not three: calloc's bytes follow its 16-byte header
 * (bench/emu mem, 1 thread: 0.143 s before, 0.135 s after).  From
 * EMU_HOST_MAP_MIN up they are an anonymous mapping: zero pages the
 * kernel fills on first touch, as calloc's large blocks are, and huge
 * pages where the kernel offers them on request (madvise(2),
 * MADV_HUGEPAGE), since a kernel striding over a large buffer misses the
 * TLB on nearly every access otherwise. */
#define EMU_HOST_MAP_MIN (1u << 20)

/* padded zeroed heap bytes aligned as a device address is. */
static uint8_t *heap_zeroed(uint64_t padded)
{
    uint8_t *h = aligned_alloc(EMU_ALLOC_ALIGN, padded);
    if (h) {
        memset(h, 0, padded);
    }
    return h;
}

static uint8_t *host_new(uint64_t padded, bool *mapped)
{
    *mapped = padded >= EMU_HOST_MAP_MIN;
    if (*mapped) {
        void *h = mmap(NULL, padded, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (h == MAP_FAILED) {
            return NULL;
        }
#ifdef MADV_HUGEPAGE
        madvise(h, padded, MADV_HUGEPAGE);  /* a hint: refused is fine */
#endif
        return h;
    }
    return heap_zeroed(padded);
}

static void host_del(uint8_t *h, uint64_t padded, bool mapped)
{
    if (mapped) {
        munmap(h, padded);
    } else {
        free(h);
    }
}

/* Frees the host bytes of e when they are ours. */
static void drop_host(EmuAlloc *e)
{
    if (e->shared) {
        munmap(e->host, host_span(e->size));
        close(e->memfd);
    } else if (e->kind != EMU_ALLOC_HOST && e->kind != EMU_ALLOC_VMM) {
        host_del(e->host, host_span(e->size), e->mapped);
    }
}

/* Frees the oldest quarantined bytes until at most `count` allocations
 * and `bytes` bytes remain. */
static void quarantine_trim(EmuMemory *m, uint32_t count, uint64_t bytes)
{
    while (m->qn && (m->qn > count || m->qbytes > bytes)) {
        free(m->q[m->qhead].host);
        m->qbytes -= m->q[m->qhead].bytes;
        m->qhead = (m->qhead + 1) % m->qcap;
        m->qn--;
    }
}

/* Releases e's host bytes, into the quarantine when e is managed (its
 * address is the host pointer, which the C library would hand out
 * again) and there is one. */
static void retire_host(EmuMemory *m, EmuAlloc *e)
{
    if (e->kind != EMU_ALLOC_MANAGED || !m->qcap || e->shared) {
        drop_host(e);
        return;
    }
    uint64_t bytes = host_span(e->size);
    if (bytes > m->qlimit) {
        free(e->host);
        return;
    }
    quarantine_trim(m, m->qcap - 1, m->qlimit - bytes);
    m->q[(m->qhead + m->qn) % m->qcap].host = e->host;
    m->q[(m->qhead + m->qn) % m->qcap].bytes = bytes;
    m->qn++;
    m->qbytes += bytes;
}

uint32_t emu_mem_quarantine_held(const EmuMemory *m, uint64_t *bytes)
{
    *bytes = m->qbytes;
    return m->qn;
}

bool emu_mem_set_quarantine(EmuMemory *m, uint32_t count, uint64_t bytes)
{
    quarantine_trim(m, 0, 0);
    free(m->q);
    m->q = NULL;
    m->qcap = m->qhead = 0;
    m->qlimit = 0;
    if (!count || !bytes) {
        return true;
    }
    if (!(m->q = calloc(count, sizeof(*m->q)))) {
        return false;
    }
    m->qcap = count;
    m->qlimit = bytes;
    return true;
}

void emu_mem_free(EmuMemory *m)
{
    if (!m) {
        return;
    }
    for (uint32_t i = 0; i < m->t->n; i++) {
        drop_host(&m->t->a[i]);
    }
    emu_mem_reclaim(m);
    free(m->old);
    emu_mem_set_quarantine(m, 0, 0);
    for (uint32_t i = 0; i < m->nslack; i++) {
        free(m->slack[i].host);
    }
    free(m->slack);
    free(m->t);
    pthread_mutex_destroy(&m->tab);
    pthread_mutex_destroy(&m->slack_mu);
    free(m);
}

/* Index of the last allocation of t with addr <= a, or -1. */
static long tab_floor(const MemTab *t, uint64_t a);
static bool page_mapped(const MemTab *t, uint64_t page);

void emu_mem_beside(bool on)
{
    beside = on;
}

/* tab held.  Keeps p (bytes long) for emu_mem_reclaim; false when the
 * kept blocks would pass EMU_MEM_OLD_LIMIT or out of memory. */
static bool keep_old(EmuMemory *m, void *p, uint64_t bytes)
{
    if (m->oldbytes + bytes > EMU_MEM_OLD_LIMIT) {
        return false;
    }
    if (m->nold == m->capold) {
        uint32_t c = m->capold ? m->capold * 2 : 8;
        void **o = realloc(m->old, c * sizeof(*o));
        if (!o) {
            return false;
        }
        m->old = o;
        m->capold = c;
    }
    m->old[m->nold++] = p;
    m->oldbytes += bytes;
    return true;
}

void emu_mem_reclaim(EmuMemory *m)
{
    /* every kept block is a malloc'd table or host bytes */
    pthread_mutex_lock(&m->tab);
    for (uint32_t i = 0; i < m->nold; i++) {
        free(m->old[i]);
    }
    m->nold = 0;
    m->oldbytes = 0;
    pthread_mutex_unlock(&m->tab);
}

/* tab held.  Inserts an allocation, keeping the table sorted; fails
 * (false) on overlap or when the table cannot grow.  concurrent: into a
 * copy that replaces the table (the old one kept for emu_mem_reclaim),
 * else in place. */
static bool mem_insert_locked(EmuMemory *m, const EmuAlloc *in,
                              bool concurrent)
{
    EmuAlloc x = *in;
    x.seq = m->nseq++;                  /* (EmuAlloc.seq) */
    const EmuAlloc *e = &x;
    MemTab *t = m->t;
    uint64_t span = e->size ? e->size : 1;
    if (e->addr + span < e->addr) {
        return false;
    }
    long i = tab_floor(t, e->addr + span - 1);
    if (i >= 0 && t->a[i].addr + (t->a[i].size ? t->a[i].size : 1) >
                      e->addr) {
        return false;
    }
    uint32_t at = (uint32_t)(i + 1);
    uint32_t nc = t->n < t->cap ? t->cap : t->cap * 2;
    if (nc < t->cap) {
        return false;
    }
    size_t bytes = sizeof(*t) + (size_t)t->cap * sizeof(EmuAlloc);
    if (concurrent || beside) {
        MemTab *nt = tab_new(nc);
        if (!nt) {
            return false;
        }
        if (!keep_old(m, t, bytes)) {
            free(nt);
            return false;               /* the caller waits instead */
        }
        memcpy(nt->a, t->a, at * sizeof(*t->a));
        nt->a[at] = *e;
        memcpy(&nt->a[at + 1], &t->a[at], (t->n - at) * sizeof(*t->a));
        nt->n = t->n + 1;
        __atomic_store_n(&m->t, nt, __ATOMIC_RELEASE);
        return true;
    }
    if (nc != t->cap) {
        MemTab *nt = realloc(t, sizeof(*t) + (size_t)nc * sizeof(EmuAlloc));
        if (!nt) {
            return false;
        }
        t = nt;
        t->cap = nc;
        __atomic_store_n(&m->t, t, __ATOMIC_RELEASE);
    }
    memmove(&t->a[at + 1], &t->a[at], (t->n - at) * sizeof(*t->a));
    t->a[at] = *e;
    t->n++;
    return true;
}

static bool mem_insert(EmuMemory *m, const EmuAlloc *e)
{
    pthread_mutex_lock(&m->tab);
    bool ok = mem_insert_locked(m, e, false);
    pthread_mutex_unlock(&m->tab);
    return ok;
}

/* emu_mem_alloc; concurrent: as emu_mem_alloc_concurrent (0 also when
 * an observer is set). */
static uint64_t mem_alloc(EmuMemory *m, uint64_t size, EmuAllocKind kind,
                          const char *name, bool concurrent)
{
    if (kind == EMU_ALLOC_HOST || kind == EMU_ALLOC_VMM) {
        return 0;
    }
    /* Refused before its host bytes are made (a managed block's are
     * zeroed, all of them touched): the check under the lock below
     * decides, this one only keeps a request the limit refuses from
     * taking host memory first. */
    if (size > m->limit || emu_mem_used(m) + size > m->limit) {
        return 0;
    }
    EmuAlloc e = {0, size, NULL, kind, name, false, -1, false, 0, false};
    uint64_t span = size ? size : 1;
    uint64_t padded = host_span(size);
    /* (managed bytes stay heap: their quarantine frees them, retire_host) */
    e.host = kind == EMU_ALLOC_MANAGED ? heap_zeroed(padded)
                                       : host_new(padded, &e.mapped);
    if (!e.host) {
        return 0;
    }
    pthread_mutex_lock(&m->tab);
    e.addr = kind == EMU_ALLOC_MANAGED ? (uint64_t)(uintptr_t)e.host
                                       : m->next;
    concurrent = concurrent || beside;
    bool ok = size <= m->limit && m->used + size <= m->limit &&
              !(concurrent && m->observe) &&
              mem_insert_locked(m, &e, concurrent);
    if (ok && kind != EMU_ALLOC_MANAGED) {
        __atomic_store_n(&m->next,
                         (e.addr + span + EMU_ALLOC_GAP + EMU_ALLOC_ALIGN -
                          1) & ~(uint64_t)(EMU_ALLOC_ALIGN - 1),
                         __ATOMIC_RELAXED);
    }
    if (ok) {
        __atomic_store_n(&m->used, m->used + size, __ATOMIC_RELAXED);
    }
    /* the observer as of the insertion (none for a concurrent one): a
     * client attached after it, while a kernel runs, must not see this
     * thread's event beside the kernel's, nor one detached be called */
    EmuMemObserver obs = ok ? m->observe : NULL;
    void *obs_ctx = m->observe_ctx;
    pthread_mutex_unlock(&m->tab);
    if (!ok) {
        host_del(e.host, padded, e.mapped);
        return 0;
    }
    if (obs) {
        obs(obs_ctx, e.addr, size, kind, true);
    }
    return e.addr;
}

uint64_t emu_mem_alloc(EmuMemory *m, uint64_t size, EmuAllocKind kind,
                       const char *name)
{
    return mem_alloc(m, size, kind, name, false);
}

uint64_t emu_mem_alloc_concurrent(EmuMemory *m, uint64_t size,
                                  EmuAllocKind kind)
{
    return mem_alloc(m, size, kind, NULL, true);
}

bool emu_mem_observed(EmuMemory *m)
{
    pthread_mutex_lock(&m->tab);
    bool o = m->observe != NULL;
    pthread_mutex_unlock(&m->tab);
    return o;
}

EmuStatus emu_mem_map_host(EmuMemory *m, void *host, uint64_t size,
                           const char *name)
{
    EmuAlloc e = {(uint64_t)(uintptr_t)host, size, host, EMU_ALLOC_HOST,
                  name, false, -1, false, 0, false};
    if (!host || !size || !mem_insert(m, &e)) {
        return EMU_ERR_INVALID_VALUE;
    }
    if (m->observe) {
        m->observe(m->observe_ctx, e.addr, size, EMU_ALLOC_HOST, true);
    }
    return EMU_OK;
}

uint64_t emu_mem_reserve(EmuMemory *m, uint64_t size, uint64_t align)
{
    pthread_mutex_lock(&m->tab);
    uint64_t a = (m->next + align - 1) & ~(align - 1);
    uint64_t end = a + size + EMU_ALLOC_GAP;
    if (!size || !align || (align & (align - 1)) || a < m->next ||
        end < a || end > EMU_GLOBAL_BASE + (1ull << 46)) {
        a = 0;
    } else {
        __atomic_store_n(&m->next, end, __ATOMIC_RELAXED);
    }
    pthread_mutex_unlock(&m->tab);
    return a;
}

EmuStatus emu_mem_map_at(EmuMemory *m, uint64_t addr, uint8_t *host,
                         uint64_t size)
{
    EmuAlloc e = {addr, size, host, EMU_ALLOC_VMM, NULL, false, -1, false,
                  0, false};
    if (!host || !size || addr < EMU_GLOBAL_BASE || !mem_insert(m, &e)) {
        return EMU_ERR_INVALID_VALUE;
    }
    if (m->observe) {
        m->observe(m->observe_ctx, addr, size, EMU_ALLOC_VMM, true);
    }
    return EMU_OK;
}

EmuStatus emu_mem_protect(EmuMemory *m, uint64_t addr, bool readonly)
{
    pthread_mutex_lock(&m->tab);
    MemTab *t = m->t;
    long i = tab_floor(t, addr);
    EmuStatus st = EMU_ERR_INVALID_VALUE;
    if (i >= 0 && t->a[i].addr == addr && t->a[i].kind == EMU_ALLOC_VMM) {
        t->a[i].readonly = readonly;
        m->gen++;               /* access caches refill (ro) */
        st = EMU_OK;
    }
    pthread_mutex_unlock(&m->tab);
    return st;
}

int emu_memfd_sealed(const char *name, uint64_t bytes)
{
    int f = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (f < 0) {
        return -1;
    }
    if (bytes > (uint64_t)INT64_MAX || ftruncate(f, (off_t)bytes) != 0 ||
        fcntl(f, F_ADD_SEALS,
              F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
        close(f);
        return -1;
    }
    return f;
}

bool emu_memfd_is_sealed(int fd)
{
    int s = fcntl(fd, F_GET_SEALS);
    return s >= 0 && (s & F_SEAL_SHRINK) && (s & F_SEAL_GROW);
}

EmuStatus emu_mem_share(EmuMemory *m, uint64_t addr, int *fd,
                        uint64_t *bytes)
{
    pthread_mutex_lock(&m->tab);
    MemTab *t = m->t;
    long i = tab_floor(t, addr);
    EmuStatus st = EMU_OK;
    if (i < 0 || t->a[i].addr != addr || t->a[i].kind != EMU_ALLOC_DEVICE) {
        st = EMU_ERR_INVALID_VALUE;
        goto out;
    }
    EmuAlloc *e = &t->a[i];
    uint64_t span = host_span(e->size);
    if (!e->shared) {
        int f = emu_memfd_sealed("ptxemu-ipc", span);
        if (f < 0) {
            st = EMU_ERR_OUT_OF_MEMORY;
            goto out;
        }
        void *h = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0);
        if (h == MAP_FAILED) {
            close(f);
            st = EMU_ERR_OUT_OF_MEMORY;
            goto out;
        }
        memcpy(h, e->host, span);
        host_del(e->host, span, e->mapped);
        e->host = h;
        e->mapped = false;
        e->shared = true;
        e->memfd = f;
        m->gen++;                       /* no cache keeps the old bytes */
    }
    *fd = e->memfd;
    *bytes = span;
out:
    pthread_mutex_unlock(&m->tab);
    return st;
}

static long tab_floor(const MemTab *t, uint64_t a)
{
    long lo = 0, hi = (long)t->n - 1, r = -1;
    while (lo <= hi) {
        long mid = lo + (hi - lo) / 2;
        if (t->a[mid].addr <= a) {
            r = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return r;
}

/* emu_mem_release beside running kernels (emu_mem_beside): a copy
 * without the entry replaces the table, and the old table and the
 * allocation's host bytes are kept for emu_mem_reclaim; no observer
 * (none is set: emu_mem_alloc refused), the access-cache generation
 * and the slack pages stay (the allocation was never handed to a
 * kernel: a loader's undoing of its own allocations). */
static EmuStatus release_beside(EmuMemory *m, uint64_t addr)
{
    pthread_mutex_lock(&m->tab);
    MemTab *t = m->t;
    long i = tab_floor(t, addr);
    if (i < 0 || t->a[i].addr != addr) {
        pthread_mutex_unlock(&m->tab);
        return EMU_ERR_INVALID_VALUE;
    }
    EmuAlloc gone = t->a[i];
    bool counted = gone.kind != EMU_ALLOC_HOST && gone.kind != EMU_ALLOC_VMM;
    bool owned = counted && !gone.shared;
    size_t bytes = sizeof(*t) + (size_t)t->cap * sizeof(EmuAlloc);
    MemTab *nt = tab_new(t->cap);
    uint32_t nold = m->nold;
    uint64_t oldbytes = m->oldbytes;
    if (!nt || !keep_old(m, t, bytes) ||
        (owned && !keep_old(m, gone.host, 0))) {
        m->nold = nold;                 /* nothing changes */
        m->oldbytes = oldbytes;
        pthread_mutex_unlock(&m->tab);
        free(nt);
        return EMU_ERR_OUT_OF_MEMORY;
    }
    memcpy(nt->a, t->a, (size_t)i * sizeof(*t->a));
    memcpy(&nt->a[i], &t->a[i + 1], (t->n - (uint32_t)i - 1) * sizeof(*t->a));
    nt->n = t->n - 1;
    if (counted) {
        __atomic_store_n(&m->used, m->used - gone.size, __ATOMIC_RELAXED);
    }
    __atomic_store_n(&m->t, nt, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&m->tab);
    return EMU_OK;
}

EmuStatus emu_mem_release(EmuMemory *m, uint64_t addr)
{
    if (beside) {
        return release_beside(m, addr);
    }
    /* The caller excludes kernels and every other remover (the
     * runtime's device lock), not a host thread that inserts beside a
     * kernel (emu_mem_alloc_concurrent): that one publishes a new table
     * at any time, so the table is read through cur() outside the
     * lock.  Its entry for addr stays put: insertions only add. */
    const MemTab *ct = cur(m);
    long i = tab_floor(ct, addr);
    if (i < 0 || ct->a[i].addr != addr) {
        return EMU_ERR_INVALID_VALUE;
    }
    if (m->observe) {
        m->observe(m->observe_ctx, addr, ct->a[i].size, ct->a[i].kind,
                   false);
    }
    pthread_mutex_lock(&m->tab);
    MemTab *t = m->t;           /* an insertion may have replaced it */
    i = tab_floor(t, addr);
    EmuAlloc gone = t->a[i];
    if (gone.kind != EMU_ALLOC_HOST && gone.kind != EMU_ALLOC_VMM) {
        __atomic_store_n(&m->used, m->used - gone.size, __ATOMIC_RELAXED);
    }
    memmove(&t->a[i], &t->a[i + 1], (t->n - (uint32_t)i - 1) * sizeof(*t->a));
    t->n--;
    m->gen++;
    pthread_mutex_unlock(&m->tab);
    retire_host(m, &gone);
    /* pages no longer mapped lose their slack bytes */
    ct = cur(m);
    uint32_t k = 0;
    pthread_mutex_lock(&m->slack_mu);
    for (uint32_t j = 0; j < m->nslack; j++) {
        if (page_mapped(ct, m->slack[j].page)) {
            m->slack[k++] = m->slack[j];
        } else {
            free(m->slack[j].host);
        }
    }
    m->nslack = k;
    pthread_mutex_unlock(&m->slack_mu);
    return EMU_OK;
}

/* True when a live allocation of the device range (or the context's own
 * data, in the first page) overlaps the page at `page`. */
static bool page_mapped(const MemTab *t, uint64_t page)
{
    if (page == EMU_GLOBAL_BASE) {
        return true;
    }
    long i = tab_floor(t, page + EMU_MAP_GRANULARITY - 1);
    if (i < 0) {
        return false;
    }
    const EmuAlloc *e = &t->a[i];
    return e->kind != EMU_ALLOC_MANAGED && e->kind != EMU_ALLOC_HOST &&
           e->addr + host_span(e->size) > page;
}

uint8_t *emu_mem_slack(EmuMemory *m, uint64_t addr, uint64_t size,
                       const EmuAlloc **owner)
{
    return emu_mem_slack_cached(m, addr, size, owner, NULL);
}

uint8_t *emu_mem_slack_cached(EmuMemory *m, uint64_t addr, uint64_t size,
                              const EmuAlloc **owner, EmuSlackCache *cache)
{
    *owner = NULL;
    const MemTab *t = cur(m);
    long i = tab_floor(t, addr);
    if (i >= 0 && t->a[i].kind != EMU_ALLOC_HOST) {
        const EmuAlloc *e = &t->a[i];
        uint64_t off = addr - e->addr, span = host_span(e->size);
        if (off < span) {
            if (size > span - off) {
                return NULL;
            }
            *owner = e;
            return e->host + off;
        }
    }
    uint64_t page = addr & ~(uint64_t)(EMU_MAP_GRANULARITY - 1);
    if (addr < EMU_GLOBAL_BASE || size > EMU_MAP_GRANULARITY ||
        addr - page > EMU_MAP_GRANULARITY - size || !page_mapped(t, page)) {
        return NULL;
    }
    if (cache && cache->host && cache->page == page) {
        return cache->host + (addr - page);
    }
    pthread_mutex_lock(&m->slack_mu);
    uint8_t *h = NULL;
    for (uint32_t j = 0; j < m->nslack && !h; j++) {
        if (m->slack[j].page == page) {
            h = m->slack[j].host;
        }
    }
    if (!h && m->nslack == m->capslack) {
        uint32_t nc = m->capslack ? m->capslack * 2 : 8;
        void *p = realloc(m->slack, nc * sizeof(*m->slack));
        if (p) {
            m->slack = p;
            m->capslack = nc;
        }
    }
    if (!h && m->nslack < m->capslack &&
        (h = calloc(1, EMU_MAP_GRANULARITY))) {
        m->slack[m->nslack].page = page;
        m->slack[m->nslack++].host = h;
    }
    pthread_mutex_unlock(&m->slack_mu);
    if (cache && h) {
        cache->page = page;
        cache->host = h;
    }
    return h ? h + (addr - page) : NULL;
}

const EmuAlloc *emu_mem_find(const EmuMemory *m, uint64_t addr,
                             uint64_t size)
{
    const MemTab *t = cur(m);
    long i = tab_floor(t, addr);
    if (i < 0) {
        return NULL;
    }
    const EmuAlloc *e = &t->a[i];
    uint64_t off = addr - e->addr;
    if (off > e->size || size > e->size - off) {
        return NULL;
    }
    return e;
}

const EmuAlloc *emu_mem_nearest(const EmuMemory *m, uint64_t addr)
{
    const MemTab *t = cur(m);
    if (t->n == 0) {
        return NULL;
    }
    long i = tab_floor(t, addr);
    if (i < 0) {
        return &t->a[0];
    }
    if ((uint32_t)i + 1 >= t->n) {
        return &t->a[i];
    }
    const EmuAlloc *lo = &t->a[i], *hi = &t->a[i + 1];
    uint64_t end = lo->addr + lo->size;
    uint64_t dlo = addr >= end ? addr - end : 0;
    uint64_t dhi = hi->addr - addr;
    return dlo <= dhi ? lo : hi;
}

/* The allocation holding addr and, in *len, how much of the size bytes
 * from there it holds; NULL when addr is in none. */
static const EmuAlloc *piece(const EmuMemory *m, uint64_t addr,
                             uint64_t size, uint64_t *len)
{
    const EmuAlloc *e = emu_mem_find(m, addr, 1);
    if (e) {
        uint64_t room = e->size - (addr - e->addr);
        *len = size < room ? size : room;
    }
    return e;
}

/* Whether [addr, addr+size) is device memory a copy may touch: inside
 * one allocation, or across VMM mappings side by side (physical
 * allocations mapped next to each other in a reserved range are one
 * buffer to cuMemcpy and cuMemset: CUDA Driver API reference, "Virtual
 * Memory Management").  Allocations that merely happen to be adjacent
 * are not: a copy past the end of one is an error. */
bool emu_mem_covers(const EmuMemory *m, uint64_t addr, uint64_t size)
{
    if (size == 0) {
        return emu_mem_find(m, addr, 0) != NULL;
    }
    uint64_t len = 0;
    const EmuAlloc *e = piece(m, addr, size, &len);
    if (!e) {
        return false;
    }
    while (len < size) {
        if (e->kind != EMU_ALLOC_VMM) {
            return false;
        }
        addr += len;
        size -= len;
        e = piece(m, addr, size, &len);
        if (!e || e->kind != EMU_ALLOC_VMM) {
            return false;
        }
    }
    return true;
}

/* A thread that changes the table beside running kernels
 * (emu_mem_beside) looks allocations up under the table's lock: a
 * kernel's own device malloc and free change the table in place under
 * it (a realloc that moves it, a memmove), excluding only each other.
 * Kernels and threads that exclude them look up without it. */
static void beside_lock(const EmuMemory *m)
{
    if (beside) {
        pthread_mutex_lock((pthread_mutex_t *)&m->tab);
    }
}

static void beside_unlock(const EmuMemory *m)
{
    if (beside) {
        pthread_mutex_unlock((pthread_mutex_t *)&m->tab);
    }
}

EmuStatus emu_mem_write(EmuMemory *m, uint64_t addr, const void *src,
                        uint64_t size)
{
    beside_lock(m);
    if (!emu_mem_covers(m, addr, size)) {
        beside_unlock(m);
        return EMU_ERR_INVALID_VALUE;
    }
    const uint8_t *s = src;
    for (uint64_t len = 0; size; addr += len, s += len, size -= len) {
        const EmuAlloc *e = piece(m, addr, size, &len);
        memcpy(e->host + (addr - e->addr), s, len);
        emu_mem_wrote(m, addr, len);        /* none beside a kernel */
    }
    beside_unlock(m);
    return EMU_OK;
}

EmuStatus emu_mem_read(const EmuMemory *m, uint64_t addr, void *dst,
                       uint64_t size)
{
    beside_lock(m);
    if (!emu_mem_covers(m, addr, size)) {
        beside_unlock(m);
        return EMU_ERR_INVALID_VALUE;
    }
    uint8_t *d = dst;
    for (uint64_t len = 0; size; addr += len, d += len, size -= len) {
        const EmuAlloc *e = piece(m, addr, size, &len);
        memcpy(d, e->host + (addr - e->addr), len);
    }
    beside_unlock(m);
    return EMU_OK;
}

EmuStatus emu_mem_set(EmuMemory *m, uint64_t addr, uint8_t byte,
                      uint64_t size)
{
    beside_lock(m);
    if (!emu_mem_covers(m, addr, size)) {
        beside_unlock(m);
        return EMU_ERR_INVALID_VALUE;
    }
    for (uint64_t len = 0; size; addr += len, size -= len) {
        const EmuAlloc *e = piece(m, addr, size, &len);
        memset(e->host + (addr - e->addr), byte, len);
        emu_mem_wrote(m, addr, len);        /* none beside a kernel */
    }
    beside_unlock(m);
    return EMU_OK;
}

uint64_t emu_mem_used(const EmuMemory *m)
{
    return __atomic_load_n(&m->used, __ATOMIC_RELAXED);
}

void emu_mem_set_limit(EmuMemory *m, uint64_t bytes)
{
    m->limit = bytes < EMU_MEM_LIMIT ? bytes : EMU_MEM_LIMIT;
}

bool emu_mem_in_device_range(const EmuMemory *m, uint64_t addr)
{
    return addr >= EMU_GLOBAL_BASE && addr < next_addr(m);
}

bool emu_mem_query(EmuMemory *m, uint64_t addr, EmuAlloc *out,
                   bool *in_range)
{
    pthread_mutex_lock(&m->tab);
    const EmuAlloc *e = emu_mem_find(m, addr, 0);
    if (e) {
        *out = *e;
    }
    if (in_range) {
        *in_range = emu_mem_in_device_range(m, addr);
    }
    pthread_mutex_unlock(&m->tab);
    return e != NULL;
}


/* ------------------------------------------------------ guest access */

const char *emu_alloc_kind_name(EmuAllocKind k)
{
    switch (k) {
    case EMU_ALLOC_DEVICE: return "device allocation";
    case EMU_ALLOC_MANAGED: return "managed allocation";
    case EMU_ALLOC_GLOBAL: return ".global variable";
    case EMU_ALLOC_CONST: return ".const variable";
    case EMU_ALLOC_HEAP: return "device heap block";
    case EMU_ALLOC_HOST: return "registered host memory";
    case EMU_ALLOC_VMM: return "mapped physical memory";
    }
    EMU_PANIC("allocation kind %d outside EmuAllocKind", (int)k);
}

void emu_mem_describe_near(const EmuMemory *m, uint64_t addr, char *near,
                           size_t len)
{
    const EmuAlloc *n = emu_mem_nearest(m, addr);
    if (!n) {
        snprintf(near, len, "no allocations");
        return;
    }
    uint64_t end = n->addr + n->size;
    char rel[64];
    if (addr < n->addr) {
        snprintf(rel, sizeof(rel), "%llu bytes before it",
                 (unsigned long long)(n->addr - addr));
    } else if (addr >= end) {
        snprintf(rel, sizeof(rel), "%llu bytes past its end",
                 (unsigned long long)(addr - end));
    } else {
        snprintf(rel, sizeof(rel), "at offset %llu",
                 (unsigned long long)(addr - n->addr));
    }
    if (n->name) {
        snprintf(near, len,
                 "nearest allocation: %s '%s' at 0x%llx (%llu bytes), %s",
                 emu_alloc_kind_name(n->kind), n->name,
                 (unsigned long long)n->addr, (unsigned long long)n->size,
                 rel);
    } else {
        snprintf(near, len, "nearest allocation: %s at 0x%llx (%llu bytes), "
                 "%s", emu_alloc_kind_name(n->kind),
                 (unsigned long long)n->addr, (unsigned long long)n->size,
                 rel);
    }
}

/* Fault for a global-space access: name the nearest allocation. */
static void fault_global(EmuCtx *x, EmuStatus st, unsigned lane,
                         PtxSpace space, uint64_t addr, uint32_t size,
                         bool write, const char *what)
{
    char near[160];
    emu_mem_describe_near(x->dev->mem, addr, near, sizeof(near));
    emu_fault(x, st, lane, addr, size, space,
              "%s %s of %u bytes at %s address 0x%llx; %s", what,
              write ? "write" : "read", size, ptx_space_name(space),
              (unsigned long long)addr, near);
}

static uint8_t *window_fault(EmuCtx *x, unsigned lane, PtxSpace space,
                             uint64_t addr, uint32_t size, bool write,
                             uint64_t off, uint64_t limit)
{
    emu_fault(x, EMU_ERR_ILLEGAL_ADDRESS, lane, addr, size, space,
              "out-of-bounds %s of %u bytes at %s address 0x%llx "
              "(offset %llu, the %s window holds %llu bytes)",
              write ? "write" : "read", size, ptx_space_name(space),
              (unsigned long long)addr, (unsigned long long)off,
              ptx_space_name(space), (unsigned long long)limit);
    return NULL;
}

uint8_t *emu_local_bytes(EmuCta *cta)
{
    if (!cta->local) {
        size_t n = (size_t)cta->nwarps * EMU_WARP_SIZE;
        cta->local = calloc(n, cta->local_stride ? cta->local_stride : 1);
    }
    return cta->local;
}

/* True when [a, a+n) meets a generic shared or local window: such an
 * allocation (managed memory lives at host addresses) is not reached
 * through generic addresses, so the hit cache must not serve it. */
static bool in_windows(uint64_t a, uint64_t n)
{
    uint64_t end = a + n;
    return (a < EMU_SHARED_WINDOW + EMU_SHARED_LIMIT &&
            end > EMU_SHARED_WINDOW) ||
           (a < EMU_LOCAL_WINDOW + EMU_LOCAL_LIMIT &&
            end > EMU_LOCAL_WINDOW) || end < a;
}

/* Fills hit cache h with allocation e of m. */
static void hit_fill(EmuMemHit *h, const EmuMemory *m, const EmuAlloc *e)
{
    h->addr = e->addr;
    h->size = e->size;
    h->host = e->host;
    h->genp = &m->gen;
    h->gen = m->gen;
    h->ro = e->kind == EMU_ALLOC_CONST || e->readonly;
}

/* Fills the launch's hit cache with a global allocation just used. */
static void remember(EmuCtx *x, const EmuAlloc *e)
{
    EmuLaunch *l = x->launch;
    if (!l || in_windows(e->addr, e->size)) {
        return;
    }
    hit_fill(&l->mhit, x->dev->mem, e);
}

/* An access by a context with a store buffer (emu/shadow.h) to an
 * allocation that may be written: through the buffer; its own hit
 * cache remembers the allocation (the launch's serves only read-only
 * ones then, which never hold buffered bytes).  NULL after a fault. */
static uint8_t *shadowed(EmuCtx *x, unsigned lane, PtxSpace space,
                         uint64_t addr, uint32_t size, bool write,
                         const EmuAlloc *e, uint8_t *host)
{
    EmuShadow *sh = x->launch->shadow;
    if (e && !in_windows(e->addr, e->size)) {
        hit_fill(&sh->hit, x->dev->mem, e);
    }
    uint8_t *p = emu_shadow_at(sh, addr, size, write, host);
    if (!p) {
        emu_fault(x, EMU_ERR_OUT_OF_MEMORY, lane, addr, size, space,
                  "cannot buffer a store: out of host memory");
    }
    return p;
}

/* The store buffer's hit cache: a naturally aligned global access
 * inside the writable allocation last buffered; NULL when it misses. */
static uint8_t *shadow_hit(EmuCtx *x, PtxSpace space, uint64_t addr,
                           uint32_t size)
{
    const EmuMemHit *h = &x->launch->shadow->hit;
    uint64_t off = addr - h->addr;
    if (!(off < h->size && size <= h->size - off) || *h->genp != h->gen ||
        (addr & (size - 1)) != 0 ||
        (space != PTX_SPACE_GLOBAL && space != PTX_SPACE_GENERIC)) {
        return NULL;
    }
    return h->host + off; /* (a generic address in an allocation is
                             global: the windows hold none) */
}

uint8_t *emu_mem_guest(EmuCtx *x, unsigned lane, PtxSpace space,
                       uint64_t addr, uint32_t size, bool write)
{
    if (x->launch && x->launch->shadow) {
        uint8_t *host = shadow_hit(x, space, addr, size);
        if (host) {
            return shadowed(x, lane, space, addr, size, write, NULL, host);
        }
    }
    if (size && (addr & (size - 1)) != 0) {
        emu_fault(x, EMU_ERR_MISALIGNED, lane, addr, size, space,
                  "misaligned %s of %u bytes at %s address 0x%llx",
                  write ? "write" : "read", size, ptx_space_name(space),
                  (unsigned long long)addr);
        return NULL;
    }
    uint64_t off;
    PtxSpace sp = emu_space_of(space, addr, &off);
    switch (sp) {
    case PTX_SPACE_SHARED:
    case PTX_SPACE_SHARED_CLUSTER: {
        EmuCta *c = x->cta;
        if (sp == PTX_SPACE_SHARED_CLUSTER) {
            c = emu_cluster_target(x, lane, space, addr, size, write, &off);
            if (!c) {
                return NULL;
            }
        }
        uint64_t ro = off - EMU_RESV_SMEM_BEGIN;
        uint32_t rn = emu_resv_smem_bytes(x->dev);
        if (ro < rn && size <= rn - ro) {
            return c->resv_smem + ro;     /* the reserved region */
        }
        if (off > c->shared_bytes || size > c->shared_bytes - off) {
            return window_fault(x, lane, space, addr, size, write, off,
                                c->shared_bytes);
        }
        return c->shared + off;
    }
    case PTX_SPACE_LOCAL: {
        EmuCta *c = x->cta;
        uint64_t st = c->local_stride;
        if (off > st || size > st - off) {
            return window_fault(x, lane, space, addr, size, write, off, st);
        }
        if (x->frame && off + size > x->frame->sp[lane]) {
            /* above the lane's stack: a freed or overrun alloca, or a
             * returned frame */
            emu_fault(x, EMU_ERR_ILLEGAL_ADDRESS, lane, addr, size, space,
                      "out-of-bounds %s of %u bytes at %s address 0x%llx: "
                      "beyond the thread's stack (offset %llu, stack top "
                      "%llu)", write ? "write" : "read", size,
                      ptx_space_name(space), (unsigned long long)addr,
                      (unsigned long long)off,
                      (unsigned long long)x->frame->sp[lane]);
            return NULL;
        }
        uint8_t *base = emu_local_bytes(c);
        if (!base) {
            emu_fault(x, EMU_ERR_OUT_OF_MEMORY, lane, addr, size, space,
                      "cannot allocate local memory");
            return NULL;
        }
        size_t t = (size_t)x->warp->id * EMU_WARP_SIZE + lane;
        return base + t * st + off;
    }
    case PTX_SPACE_PARAM: {
        uint64_t pb = x->launch->kernel->param_bytes;
        if (write) {
            emu_fault(x, EMU_ERR_READ_ONLY, lane, addr, size, space,
                      "write of %u bytes to kernel parameter space at "
                      "offset %llu", size, (unsigned long long)addr);
            return NULL;
        }
        if (off > pb || size > pb - off) {
            return window_fault(x, lane, space, addr, size, write, off, pb);
        }
        return x->launch->params + off;
    }
    case PTX_SPACE_GLOBAL:
    case PTX_SPACE_CONST: {
        const EmuAlloc *e = emu_mem_find(x->dev->mem, addr, size);
        if (!e) {
            uint8_t *t = emu_access_tolerated(x, lane, space, addr, size,
                                              write);
            if (t && x->launch && x->launch->shadow) {
                /* (tolerated bytes are global memory too: buffered) */
                return shadowed(x, lane, space, addr, size, write, NULL, t);
            }
            if (t) {
                return t;
            }
            fault_global(x, EMU_ERR_ILLEGAL_ADDRESS, lane, space, addr,
                         size, write, "out-of-bounds");
            return NULL;
        }
        if (write && (e->kind == EMU_ALLOC_CONST || sp == PTX_SPACE_CONST)) {
            fault_global(x, EMU_ERR_READ_ONLY, lane, space, addr, size,
                         write, "read-only");
            return NULL;
        }
        if (write && e->readonly) {
            /* a GPU's MMU refuses it: an illegal address, as for memory
             * mapped without access */
            fault_global(x, EMU_ERR_ILLEGAL_ADDRESS, lane, space, addr, size,
                         write, "read-only mapping");
            return NULL;
        }
        if (x->launch &&
            (e->kind == EMU_ALLOC_MANAGED || e->kind == EMU_ALLOC_HOST)) {
            x->launch->reads_host = true;
        }
        uint8_t *host = e->host + (addr - e->addr);
        if (x->launch && x->launch->shadow && !e->readonly &&
            e->kind != EMU_ALLOC_CONST) {
            return shadowed(x, lane, space, addr, size, write, e, host);
        }
        remember(x, e);
        return host;
    }
    default:
        emu_fault(x, EMU_ERR_ILLEGAL_ADDRESS, lane, addr, size, space,
                  "access to unsupported state space %s",
                  ptx_space_name(space));
        return NULL;
    }
}
