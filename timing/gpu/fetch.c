/*
 * timing/gpu/fetch.c: the front end: per-warp I-buffers and instruction
 * fetch (gpu.h; AFR section 3.2, the two-loop approximation).
 *
 * A warp's I-buffer holds the instructions [lo, hi) fetched and decoded;
 * it fetches the next `fetch.bytes` block (aligned) when it holds fewer
 * than ibuf.depth instructions and no fetch is on its way.  Its next
 * instruction (what the host's peek says) issues only once in the
 * buffer; one outside it (a taken branch, a call, the first instruction)
 * drops the buffer and fetches the block holding it.  With a perfect
 * I-cache a fetch starts in the first free slot of its fetch port (one
 * per SM, or per scheduler: fetch.port_per_sched; fetch.per_cycle
 * starts a cycle, 0: no limit, every warp on its own) and is decoded
 * fetch.latency cycles later; arrivals are worked out when the warp is
 * next looked at (the buffer's state follows from its issues and its
 * port's slots).
 * Otherwise a fetch is a GPU_MEM_FETCH request: queued per SM, sent one
 * per cycle (back-pressure: a refused one is offered again), decoded
 * when its reply comes; one request per warp is out at a time (a
 * redirect waits for the stale reply, then fetches).  The warps with a
 * fetch out are kept in a set, so that the reply of one dropped with a
 * kernel stopped early (a guest fault) finds nothing.
 */
#include "config.h"

#include <stdlib.h>

#include "timing/gpu/gpu.h"

uint64_t gpu_insn_addr(const GpuConfig *c, const ptxemu_tm_insn *in)
{
    return GPU_CODE_BASE + ((uint64_t)in->func_id << 24) +
           (uint64_t)in->pc * c->insn_bytes;
}

static int queue_fetch(GpuSm *sm, GpuWarp *w)
{
    if (sm->nfq == sm->capfq) {
        uint32_t cap = sm->capfq ? sm->capfq * 2 : 16;
        GpuWarp **q = realloc(sm->fq, cap * sizeof *q);
        if (!q) {
            return -1;
        }
        sm->fq = q;
        sm->capfq = cap;
    }
    sm->fq[sm->nfq++] = w;
    return 0;
}

/* The cycle a fetch asked for at `now` starts: the first with a free
 * slot at w's port.  Ports serve fetches in the order the model asks
 * for them; one asked for with an earlier time than the port's last
 * (an I-buffer settled late) waits behind it. */
static uint64_t port_slot(Gpu *g, const GpuWarp *w, uint64_t now)
{
    if (!g->c.fetch_per_cycle) {
        return now;
    }
    GpuFetchPort *p = g->c.fetch_port_per_sched ? &gpu_sched_of(g, w)->fport
                                                : &g->sm[w->cta->sm]->fport;
    if (now > p->cycle) {
        p->cycle = now;
        p->used = 0;
    }
    if (p->used == g->c.fetch_per_cycle) {
        p->cycle++;
        p->used = 0;
    }
    p->used++;
    return p->cycle;
}

/* Start fetching the block at blk at cycle now. */
static void start(Gpu *g, GpuWarp *w, uint64_t blk, uint64_t now)
{
    GpuIbuf *ib = &w->ib;
    gpu_warp_touch(w);
    ib->plo = blk;
    ib->phi = blk + g->c.fetch_bytes;
    ib->pending = true;
    ib->gen++;
    if (g->c.perfect_icache) {
        ib->at = port_slot(g, w, now) + g->c.fetch_latency;
        g->sm[w->cta->sm]->st.fetches++;
        return;
    }
    ib->at = GPU_NEVER;
    if (!ib->want) {
        ib->want = true;
        if (queue_fetch(g->sm[w->cta->sm], w) != 0) {
            /* Out of memory: behave as a perfect I-cache for this one. */
            ib->want = false;
            ib->at = now + g->c.fetch_latency;
        }
    }
}

static void prefetch(Gpu *g, GpuWarp *w, uint64_t now)
{
    GpuIbuf *ib = &w->ib;
    if (!ib->pending && ib->hi - ib->lo < g->c.ibuf_depth * g->c.insn_bytes) {
        start(g, w, ib->hi, now);
    }
}

/* Take in every fetch decoded by now, prefetching behind each. */
static void settle(Gpu *g, GpuWarp *w, uint64_t now)
{
    GpuIbuf *ib = &w->ib;
    while (ib->pending && ib->at <= now) {
        gpu_warp_touch(w);
        if (ib->plo != ib->hi) {
            ib->lo = ib->plo;
        }
        ib->hi = ib->phi;
        ib->pending = false;
        prefetch(g, w, ib->at);
    }
}

uint64_t gpu_fetch_ready(Gpu *g, GpuWarp *w, uint64_t now)
{
    GpuIbuf *ib = &w->ib;
    const uint64_t a = gpu_insn_addr(&g->c, w->next);
    settle(g, w, now);
    if (a >= ib->lo && a < ib->hi) {
        return 0;
    }
    if (ib->pending && a >= ib->plo && a < ib->phi) {
        return ib->at;
    }
    /* A redirect: drop what is buffered or on its way. */
    uint64_t blk = a & ~(uint64_t)(g->c.fetch_bytes - 1);
    ib->lo = ib->hi = blk;
    start(g, w, blk, now);
    return ib->at;
}

void gpu_fetch_issued(Gpu *g, GpuWarp *w, uint64_t now)
{
    GpuIbuf *ib = &w->ib;
    gpu_warp_touch(w);
    ib->lo = gpu_insn_addr(&g->c, w->next) + g->c.insn_bytes;
    if (ib->hi < ib->lo) {
        ib->hi = ib->lo;
    }
    prefetch(g, w, now);
}

bool gpu_fetch_send(Gpu *g, GpuSm *sm, uint64_t now)
{
    uint32_t i = 0;
    while (i < sm->nfq) {
        GpuWarp *w = sm->fq[i];
        GpuIbuf *ib = &w->ib;
        if (!ib->want) {
            i++; /* dropped meanwhile */
            continue;
        }
        if (ib->inflight) {
            break; /* its stale reply first; keeps the order */
        }
        GpuMemReq r = {0};
        r.addr = ib->plo;
        r.size = (uint32_t)g->c.fetch_bytes;
        uint32_t off = (uint32_t)(ib->plo % GPU_LINE);
        for (uint32_t s = off / GPU_SECTOR; s <= (off + r.size - 1) / GPU_SECTOR;
             s++) {
            r.sectors |= 1u << s;
        }
        r.kind = GPU_MEM_FETCH;
        r.space = PTXEMU_TM_SPACE_NONE;
        r.sm = sm->id;
        r.cookie = (uint64_t)(uintptr_t)w | 1u;
        if (!g->c.mem->send(g->mem, &r, now)) {
            break;
        }
        if (tm_map_put(&g->fetching, tm_map_ptr(w), w) != 0) {
            break; /* out of memory: offered again next cycle */
        }
        gpu_warp_touch(w); /* (its CTA waits for the reply) */
        ib->want = false;
        ib->inflight = true;
        ib->sent_gen = ib->gen;
        sm->st.fetches++;
        i++;
        break; /* one fetch per SM per cycle */
    }
    for (uint32_t j = i; j < sm->nfq; j++) {
        sm->fq[j - i] = sm->fq[j];
    }
    sm->nfq -= i;
    return sm->nfq > 0;
}

void gpu_fetch_reply(Gpu *g, GpuWarp *w, uint64_t cycle)
{
    if (!tm_map_get(&g->fetching, tm_map_ptr(w))) {
        return; /* its warp was dropped with a kernel stopped early */
    }
    tm_map_del(&g->fetching, tm_map_ptr(w));
    GpuIbuf *ib = &w->ib;
    gpu_warp_touch(w);
    ib->inflight = false;
    if (ib->sent_gen == ib->gen && ib->pending) {
        ib->at = cycle;
        settle(g, w, cycle);
    }
    gpu_poke(g, w);
}
