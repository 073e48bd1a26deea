/*
 * timing/lib/slots.c: warp slots (contract in slots.h).
 */
#include "config.h"

#include <stdlib.h>

#include "timing/lib/slots.h"

int tm_slots_init(TmSlots *s, uint32_t n)
{
    s->n = n;
    s->slot = calloc(n ? n : 1, sizeof *s->slot);
    return s->slot ? 0 : -1;
}

void tm_slots_fini(TmSlots *s)
{
    free(s->slot);
    s->slot = NULL;
    s->n = 0;
}

int64_t tm_slots_take(TmSlots *s, void *p)
{
    uint32_t i = 0;
    while (i < s->n && s->slot[i]) {
        i++;
    }
    if (i == s->n) {
        uint32_t n = s->n ? s->n * 2 : 64;
        void **sl = realloc(s->slot, n * sizeof *sl);
        if (!sl) {
            return -1;
        }
        for (uint32_t j = s->n; j < n; j++) {
            sl[j] = NULL;
        }
        s->slot = sl;
        s->n = n;
    }
    s->slot[i] = p;
    return i;
}

int tm_slots_give(TmSlots *s, uint32_t i, const void *p)
{
    if (i < s->n && s->slot[i] == p) {
        s->slot[i] = NULL;
        return 1;
    }
    return 0;
}
