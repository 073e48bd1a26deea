/*
 * timing/simple/scoreboard.c: one warp's pending register writes.
 *
 * A small array of (slot, ready cycle): a warp has few writes in flight
 * (one per issued instruction's destination, until its latency passes),
 * and slots can be anything up to the implicit ones near UINT32_MAX
 * (PTXEMU_TM_SLOT_CARRY ...), so an array indexed by slot would not do.
 * Entries whose write is done are dropped when a new write is recorded.
 */
#include "config.h"

#include <stdlib.h>

#include "timing/simple/simple.h"

void simple_sb_free(SimpleScoreboard *sb)
{
    free(sb->e);
    sb->e = NULL;
    sb->n = sb->cap = 0;
}

uint64_t simple_sb_ready(const SimpleScoreboard *sb, const uint32_t *slots,
                         uint32_t n)
{
    uint64_t ready = 0;
    for (uint32_t i = 0; i < n; i++) {
        for (uint32_t j = 0; j < sb->n; j++) {
            if (sb->e[j].slot == slots[i] && sb->e[j].ready > ready) {
                ready = sb->e[j].ready;
            }
        }
    }
    return ready;
}

static void prune(SimpleScoreboard *sb, uint64_t now)
{
    uint32_t k = 0;
    for (uint32_t j = 0; j < sb->n; j++) {
        if (sb->e[j].ready > now) {
            sb->e[k++] = sb->e[j];
        }
    }
    sb->n = k;
}

int simple_sb_write(SimpleScoreboard *sb, const uint32_t *slots, uint32_t n,
                    uint64_t ready, uint64_t now)
{
    if (n == 0) {
        return 0;
    }
    prune(sb, now);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = 0;
        while (j < sb->n && sb->e[j].slot != slots[i]) {
            j++;
        }
        if (j < sb->n) {
            if (sb->e[j].ready < ready) {
                sb->e[j].ready = ready;
            }
            continue;
        }
        if (sb->n == sb->cap) {
            uint32_t cap = sb->cap ? sb->cap * 2 : 8;
            SimpleSbEntry *e = realloc(sb->e, cap * sizeof *e);
            if (!e) {
                return -1;
            }
            sb->e = e;
            sb->cap = cap;
        }
        sb->e[sb->n].slot = slots[i];
        sb->e[sb->n].ready = ready;
        sb->n++;
    }
    return 0;
}
