/*
 * timing/gpu/mem/ideal.c: the `ideal` memory system (contract in
 * ideal.h).
 *
 * Presets (the `gpu` model's gpu.arch):
 *  - ampere: global/local latency 290 cycles (Abdelkhalik et al.,
 *    arXiv:2208.11174, 2022, a global load missing L1 and L2 ... of that
 *    order); 10 bytes per SM per cycle = A100 DRAM bandwidth 1555 GB/s
 *    (whitepaper) / (108 SMs x 1.41 GHz), rounded down;
 *  - gt200: global/local latency 440 cycles (Wong et al., ISPASS 2010:
 *    436-443 without TLB misses), texture 499 (their texture-path DRAM
 *    latency), constant 8 (a constant L1 hit); 3.6 bytes per SM per
 *    cycle = GTX 280's 141.7 GB/s / (30 SMs x 1.296 GHz);
 *  - constant/param and instruction-fetch latencies for ampere, and the
 *    queue depth, are round estimates.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing/gpu/mem/ideal.h"

enum { P_AMPERE = 0, P_GT200, P_COUNT };
static const char *const preset_name[P_COUNT] = {"ampere", "gt200"};

typedef struct IdealRow {
    const char *name;
    double v[P_COUNT];
    double lo, hi;
} IdealRow;

/* The values in the order of ideal_params' numeric rows. */
enum { R_GLOBAL, R_LOCAL, R_CONST, R_TEX, R_FETCH, R_BPC, R_QUEUE, R_COUNT };
static const IdealRow rows[R_COUNT] = {
    [R_GLOBAL] = {"mem.ideal.global_latency", {290, 440}, 1, 1 << 24},
    [R_LOCAL] = {"mem.ideal.local_latency", {290, 440}, 1, 1 << 24},
    [R_CONST] = {"mem.ideal.const_latency", {20, 8}, 1, 1 << 24},
    [R_TEX] = {"mem.ideal.tex_latency", {290, 499}, 1, 1 << 24},
    [R_FETCH] = {"mem.ideal.fetch_latency", {20, 20}, 1, 1 << 24},
    [R_BPC] = {"mem.ideal.bytes_per_cycle", {10, 3.6}, 0.001, 10000},
    [R_QUEUE] = {"mem.ideal.queue", {32, 32}, 0, 1 << 24},
};

static const ptxemu_tm_param ideal_params[R_COUNT] = {
    {"mem.ideal.global_latency", PTXEMU_TM_P_DOUBLE, "-1",
     "ideal memory: global latency, cycles (-1: gpu.arch's)"},
    {"mem.ideal.local_latency", PTXEMU_TM_P_DOUBLE, "-1",
     "ideal memory: local latency (-1: gpu.arch's)"},
    {"mem.ideal.const_latency", PTXEMU_TM_P_DOUBLE, "-1",
     "ideal memory: constant and parameter latency (-1: gpu.arch's)"},
    {"mem.ideal.tex_latency", PTXEMU_TM_P_DOUBLE, "-1",
     "ideal memory: texture latency (-1: gpu.arch's)"},
    {"mem.ideal.fetch_latency", PTXEMU_TM_P_DOUBLE, "-1",
     "ideal memory: instruction fetch latency (-1: gpu.arch's)"},
    {"mem.ideal.bytes_per_cycle", PTXEMU_TM_P_DOUBLE, "-1",
     "ideal memory: global/local/texture bytes per SM per cycle "
     "(-1: gpu.arch's)"},
    {"mem.ideal.queue", PTXEMU_TM_P_DOUBLE, "-1",
     "ideal memory: cycles of transfers an SM's port queues before "
     "refusing (-1: gpu.arch's)"},
};

typedef struct Pend {
    uint64_t cycle, seq, cookie;
} Pend;

/* One SM's part: nothing in it is shared with another SM's (the
 * memory system is split by SM, gpu_mem.h), and each sits in cache
 * lines of its own, as SMs may be driven on different host threads. */
typedef struct IdealSm {
    _Alignas(64) Pend *heap;    /* replies due, earliest first */
    size_t n, cap;
    uint64_t seq;               /* requests taken: orders equal cycles */
    uint64_t port;              /* busy until, in cycles x bpcm */
    uint64_t requests, bytes, refused;
} IdealSm;

typedef struct Ideal {
    GpuMemDone done;
    void *ctx;
    uint32_t nsms;
    uint64_t lat[PTXEMU_TM_SPACE_COUNT], fetch_lat, queue;
    uint64_t bpcm;          /* bytes per cycle x 1000 */
    IdealSm *sm;
    uint64_t st_requests, st_bytes, st_refused;
} Ideal;

static bool before(const Pend *a, const Pend *b)
{
    return a->cycle < b->cycle || (a->cycle == b->cycle && a->seq < b->seq);
}

static int push(IdealSm *m, Pend p)
{
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        Pend *h = realloc(m->heap, cap * sizeof *h);
        if (!h) {
            return -1;
        }
        m->heap = h;
        m->cap = cap;
    }
    size_t i = m->n++;
    while (i > 0 && before(&p, &m->heap[(i - 1) / 2])) {
        m->heap[i] = m->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    m->heap[i] = p;
    return 0;
}

static Pend pop(IdealSm *m)
{
    Pend top = m->heap[0];
    Pend last = m->heap[--m->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= m->n) {
            break;
        }
        if (c + 1 < m->n && before(&m->heap[c + 1], &m->heap[c])) {
            c++;
        }
        if (!before(&m->heap[c], &last)) {
            break;
        }
        m->heap[i] = m->heap[c];
        i = c;
    }
    if (m->n) {
        m->heap[i] = last;
    }
    return top;
}

/* SM sm's part (a request naming no SM of the device: the first's). */
static IdealSm *sm_of(const Ideal *m, uint32_t sm)
{
    return &m->sm[sm < m->nsms ? sm : 0];
}

static void ideal_destroy(void *p)
{
    Ideal *m = p;
    if (m) {
        for (uint32_t i = 0; m->sm && i < m->nsms; i++) {
            free(m->sm[i].heap);
        }
        free(m->sm);
        free(m);
    }
}

static void *ideal_create(const ptxemu_tm_host_api *api, ptxemu_tm_host *h,
                          uint32_t nsms, double core_mhz, GpuMemDone done,
                          void *ctx)
{
    (void)core_mhz;
    if (api->declare_params(h, ideal_params, R_COUNT) != 0) {
        return NULL; /* the host said why */
    }
    const char *arch = api->param_string(h, "gpu.arch");
    int p = 0;
    while (p < P_COUNT && strcmp(arch, preset_name[p]) != 0) {
        p++;
    }
    if (p == P_COUNT) {
        p = P_AMPERE; /* the gpu model refuses an unknown arch itself */
    }
    double v[R_COUNT];
    for (int i = 0; i < R_COUNT; i++) {
        v[i] = api->param_double(h, rows[i].name);
        if (v[i] == -1.0) {
            v[i] = rows[i].v[p];
        }
        if (!(v[i] >= rows[i].lo && v[i] <= rows[i].hi)) {
            char msg[160];
            snprintf(msg, sizeof msg, "ideal memory: %s must be in [%g, %g]",
                     rows[i].name, rows[i].lo, rows[i].hi);
            api->error(h, msg);
            return NULL;
        }
    }
    Ideal *m = calloc(1, sizeof *m);
    const size_t nb = (size_t)(nsms ? nsms : 1) * sizeof(IdealSm);
    if (!m || !(m->sm = aligned_alloc(_Alignof(IdealSm), nb))) {
        free(m);
        api->error(h, "ideal memory: out of memory");
        return NULL;
    }
    memset(m->sm, 0, nb);
    m->done = done;
    m->ctx = ctx;
    m->nsms = nsms ? nsms : 1;
    for (unsigned s = 0; s < PTXEMU_TM_SPACE_COUNT; s++) {
        m->lat[s] = (uint64_t)v[R_GLOBAL];
    }
    m->lat[PTXEMU_TM_SPACE_LOCAL] = (uint64_t)v[R_LOCAL];
    m->lat[PTXEMU_TM_SPACE_CONST] = (uint64_t)v[R_CONST];
    m->lat[PTXEMU_TM_SPACE_PARAM] = (uint64_t)v[R_CONST];
    m->lat[PTXEMU_TM_SPACE_TEX] = (uint64_t)v[R_TEX];
    m->fetch_lat = (uint64_t)v[R_FETCH];
    m->bpcm = (uint64_t)(v[R_BPC] * 1000.0 + 0.5);
    m->queue = (uint64_t)v[R_QUEUE];
    int rc = api->stat(h, "mem.ideal.requests", &m->st_requests,
                       "requests the ideal memory answered");
    rc |= api->stat(h, "mem.ideal.bytes", &m->st_bytes,
                    "bytes through the SMs' ports");
    rc |= api->stat(h, "mem.ideal.refused", &m->st_refused,
                    "requests refused (a port's queue was full)");
    if (rc != 0) {
        api->error(h, "ideal memory: cannot register statistics");
        ideal_destroy(m);
        return NULL;
    }
    return m;
}

static uint64_t ideal_kernel_begin(void *p, uint64_t now,
                                   const GpuMemKernel *k)
{
    (void)p;
    (void)now;
    (void)k;
    return GPU_NEVER;
}

static bool through_port(const GpuMemReq *r)
{
    return r->kind != GPU_MEM_FETCH &&
           (r->space == PTXEMU_TM_SPACE_GLOBAL ||
            r->space == PTXEMU_TM_SPACE_LOCAL ||
            r->space == PTXEMU_TM_SPACE_TEX);
}

static bool ideal_send(void *p, const GpuMemReq *r, uint64_t now)
{
    Ideal *m = p;
    IdealSm *q = sm_of(m, r->sm);
    uint64_t at = now + 1;
    uint64_t lat = r->kind == GPU_MEM_FETCH
                       ? m->fetch_lat
                       : m->lat[r->space < PTXEMU_TM_SPACE_COUNT ? r->space : 0];
    uint64_t port = q->port, bytes = 0;
    if (through_port(r)) {
        bytes = r->sectors ? (uint64_t)__builtin_popcount(r->sectors) *
                                 GPU_SECTOR
                           : r->size;
        uint64_t start = now * m->bpcm > port ? now * m->bpcm : port;
        if (start > (now + m->queue) * m->bpcm) {
            q->refused++;
            return false;
        }
        port = start + bytes * 1000;
        at = (port + m->bpcm - 1) / m->bpcm;
    } else {
        at = now;
    }
    Pend e = {at + lat, q->seq, r->cookie};
    if (push(q, e) != 0) {
        q->refused++;
        return false; /* out of memory: offered again later */
    }
    q->seq++;
    q->port = port;
    q->requests++;
    q->bytes += bytes;
    return true;
}

static void ideal_advance_sm(void *p, uint32_t sm, uint64_t now)
{
    Ideal *m = p;
    IdealSm *q = sm_of(m, sm);
    while (q->n && q->heap[0].cycle <= now) {
        Pend e = pop(q);
        m->done(m->ctx, sm, e.cookie, e.cycle);
    }
}

/* Every SM's replies due, SM by SM (each in the order sent). */
static void ideal_advance(void *p, uint64_t now)
{
    Ideal *m = p;
    for (uint32_t i = 0; i < m->nsms; i++) {
        ideal_advance_sm(m, i, now);
    }
}

static uint64_t ideal_next_sm(const void *p, uint32_t sm)
{
    const Ideal *m = p;
    const IdealSm *q = sm_of(m, sm);
    return q->n ? q->heap[0].cycle : GPU_NEVER;
}

static uint64_t ideal_next(const void *p)
{
    const Ideal *m = p;
    uint64_t t = GPU_NEVER;
    for (uint32_t i = 0; i < m->nsms; i++) {
        uint64_t u = ideal_next_sm(m, i);
        t = u < t ? u : t;
    }
    return t;
}

static bool ideal_split(const void *p)
{
    (void)p;
    return true; /* (nothing is shared: per-SM ports and queues) */
}

static void ideal_stats_sync(void *p)
{
    Ideal *m = p;
    m->st_requests = m->st_bytes = m->st_refused = 0;
    for (uint32_t i = 0; i < m->nsms; i++) {
        m->st_requests += m->sm[i].requests;
        m->st_bytes += m->sm[i].bytes;
        m->st_refused += m->sm[i].refused;
    }
}

const GpuMemOps gpu_mem_ideal = {
    .name = "ideal",
    .help = "fixed latency per space and a bandwidth cap per SM",
    .create = ideal_create,
    .destroy = ideal_destroy,
    .kernel_begin = ideal_kernel_begin,
    .send = ideal_send,
    .advance = ideal_advance,
    .next = ideal_next,
    .split = ideal_split,
    .advance_sm = ideal_advance_sm,
    .next_sm = ideal_next_sm,
    .stats_sync = ideal_stats_sync,
};
