/*
 * timing/gpu/scoreboard.c: per-warp pending register writes (gpu.h).
 *
 * Like the scoreboard of Coon et al. (US patent 7,434,032, 2008; AFR
 * section 3.2) a warp keeps an entry per register slot an issued,
 * unfinished instruction will write; an instruction reading or writing
 * such a slot waits (RAW and WAW).  Each entry knows its producer's kind
 * (fixed latency, variable short latency, memory) so that the stall is
 * named as hardware names it, and a memory producer's entries have no
 * ready cycle until its reply (tag) comes.  Entries are few (a warp's
 * writes in flight), so a linear list is the fast structure.
 */
#include "config.h"

#include <stdlib.h>

#include "timing/gpu/gpu.h"

void gpu_sb_free(GpuSb *sb)
{
    free(sb->e);
    sb->e = NULL;
    sb->n = sb->cap = 0;
    gpu_sb_forget(sb);
}

uint64_t gpu_sb_ready(const GpuSb *sb, const uint32_t *slots, uint32_t n,
                      GpuSbKind *kind)
{
    uint64_t t = 0;
    *kind = GPU_SB_FIXED;
    for (uint32_t i = 0; i < sb->n; i++) {
        const GpuSbEntry *e = &sb->e[i];
        if (e->ready <= t) {
            continue;
        }
        for (uint32_t j = 0; j < n; j++) {
            if (slots[j] == e->slot) {
                t = e->ready;
                *kind = (GpuSbKind)e->kind;
                break;
            }
        }
    }
    return t;
}

uint64_t gpu_sb_ready_insn(GpuSb *sb, const ptxemu_tm_insn *in,
                           GpuSbKind *kind)
{
    if (sb->ckey != in) {
        GpuSbKind k1, k2;
        uint64_t a = gpu_sb_ready(sb, in->src, in->nsrc, &k1);
        uint64_t b = gpu_sb_ready(sb, in->dst, in->ndst, &k2);
        sb->ckey = in;
        sb->cready = b > a ? b : a;
        sb->ckind = (uint8_t)(b > a ? k2 : k1);
    }
    *kind = (GpuSbKind)sb->ckind;
    return sb->cready;
}

int gpu_sb_write(GpuSb *sb, const uint32_t *slots, uint32_t n, uint64_t ready,
                 GpuSbKind kind, uint64_t tag, uint64_t now)
{
    gpu_sb_forget(sb);
    uint32_t k = 0; /* drop the entries done by now */
    for (uint32_t i = 0; i < sb->n; i++) {
        if (sb->e[i].ready > now) {
            sb->e[k++] = sb->e[i];
        }
    }
    sb->n = k;
    for (uint32_t j = 0; j < n; j++) {
        GpuSbEntry *e = NULL;
        for (uint32_t i = 0; i < sb->n && !e; i++) {
            if (sb->e[i].slot == slots[j]) {
                e = &sb->e[i]; /* a later write of the slot (WAW) */
            }
        }
        if (!e) {
            if (sb->n == sb->cap) {
                uint32_t cap = sb->cap ? sb->cap * 2 : 8;
                GpuSbEntry *ne = realloc(sb->e, cap * sizeof *ne);
                if (!ne) {
                    return -1;
                }
                sb->e = ne;
                sb->cap = cap;
            }
            e = &sb->e[sb->n++];
        }
        e->slot = slots[j];
        e->ready = ready;
        e->kind = (uint8_t)kind;
        e->tag = tag;
    }
    return 0;
}

void gpu_sb_release(GpuSb *sb, uint64_t tag, uint64_t cycle)
{
    gpu_sb_forget(sb);
    for (uint32_t i = 0; i < sb->n; i++) {
        if (sb->e[i].ready == GPU_NEVER && sb->e[i].tag == tag) {
            sb->e[i].ready = cycle;
        }
    }
}

uint64_t gpu_sb_drain(const GpuSb *sb)
{
    uint64_t t = 0;
    for (uint32_t i = 0; i < sb->n; i++) {
        t = gpu_max(t, sb->e[i].ready);
    }
    return t;
}
