/*
 * timing/lib/slots.h: an SM's warp slots, shared by the built-in timing
 * models: a warp takes the lowest free slot (slot % schedulers picks its
 * scheduler, as hardware assigns warps to sub-cores) and gives it back
 * when its CTA retires.  A CTA placed beyond the SM's limits (one that
 * fits no SM, placed anyway) grows the table.
 */
#ifndef PTXEMU_TIMING_LIB_SLOTS_H
#define PTXEMU_TIMING_LIB_SLOTS_H

#include <stdint.h>

typedef struct TmSlots {
    void **slot;        /* NULL: free */
    uint32_t n;
} TmSlots;

/* n free slots.  0, or -1 when out of memory. */
int tm_slots_init(TmSlots *s, uint32_t n);
void tm_slots_fini(TmSlots *s);
/* p takes the lowest free slot: its index, or -1 when out of memory. */
int64_t tm_slots_take(TmSlots *s, void *p);
/* Slot i is free again if p holds it; whether it did. */
int tm_slots_give(TmSlots *s, uint32_t i, const void *p);

#endif
