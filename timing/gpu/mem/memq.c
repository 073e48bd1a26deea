/*
 * timing/gpu/mem/memq.c: MemQ, the bounded queue ordered by due cycle
 * that every component of the memory system keeps its outputs in
 * (memif.h).  Items almost always arrive in due order (a fixed latency
 * after a non-decreasing cycle), so insertion walks back from the tail
 * and usually stops at once.
 */
#include "timing/gpu/mem/memif.h"

#include <stdlib.h>

#include "emu/panic.h"

int memq_init(MemQ *q, uint32_t cap)
{
    q->it = calloc(cap ? cap : 1, sizeof *q->it);
    q->cap = cap;
    q->head = q->n = 0;
    return q->it ? 0 : -1;
}

void memq_fini(MemQ *q)
{
    free(q->it);
    q->it = NULL;
    q->cap = q->n = 0;
}

void memq_push(MemQ *q, const MemMsg *m, uint64_t due)
{
    EMU_ASSERT(q->n < q->cap);
    uint32_t pos = q->n;
    /* shift later-due items one place towards the tail */
    while (pos > 0) {
        uint32_t prev = (q->head + pos - 1) % q->cap;
        if (q->it[prev].due <= due) {
            break;
        }
        q->it[(q->head + pos) % q->cap] = q->it[prev];
        pos--;
    }
    MemQItem *slot = &q->it[(q->head + pos) % q->cap];
    slot->m = *m;
    slot->due = due;
    q->n++;
}

void memq_pop(MemQ *q)
{
    EMU_ASSERT(q->n > 0);
    q->head = (q->head + 1) % q->cap;
    q->n--;
}
