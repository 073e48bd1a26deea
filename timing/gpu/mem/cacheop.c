/*
 * timing/gpu/mem/cacheop.c: the cache operators of PTX loads and stores
 * as hints to the memory system (gpu_mem.h, GPU_HINT_*).
 *
 * The PTX ISA ("Cache Operators", tables "Cache Operators for Memory
 * Load Instructions" and "... Store Instructions"; and the
 * .level::eviction_priority qualifiers of ld and st):
 *  .ca  cache at all levels (the load default)           -> nothing
 *  .cg  cache at the global level: L2 and below, not L1  -> L1 no alloc
 *  .cs  cache streaming, likely accessed once: allocate
 *       with evict-first policy in L1 and L2             -> evict first
 *  .lu  last use: for global addresses the same as .cs   -> evict first
 *  .cv  do not cache, fetch again                        -> no alloc, both
 *  .wb  write back (the store default), .wt write through -> nothing
 *  .L1::evict_first                                      -> L1 evict first
 *  .L1::no_allocate                                      -> L1 no alloc
 * (.L1::evict_normal, evict_last and evict_unchanged keep the default.)
 * Only the instruction's first word (opcode and qualifiers) is read.
 */
#include "timing/gpu/gpu_mem.h"

#include <string.h>

static const struct {
    const char *q;
    uint8_t hint;
} ops[] = {
    {"cg", GPU_HINT_L1_NO_ALLOC},
    {"cs", GPU_HINT_L1_EVICT_FIRST | GPU_HINT_L2_EVICT_FIRST},
    {"lu", GPU_HINT_L1_EVICT_FIRST | GPU_HINT_L2_EVICT_FIRST},
    {"cv", GPU_HINT_L1_NO_ALLOC | GPU_HINT_L2_NO_ALLOC},
    {"L1::evict_first", GPU_HINT_L1_EVICT_FIRST},
    {"L1::no_allocate", GPU_HINT_L1_NO_ALLOC},
};

uint8_t gpu_cache_hint(const char *text)
{
    if (!text) {
        return 0;
    }
    /* skip a guard ("@%p ", "@!%p ") and blanks */
    text += strspn(text, " \t");
    if (*text == '@') {
        text += strcspn(text, " \t");
        text += strspn(text, " \t");
    }
    size_t end = strcspn(text, " \t;");
    uint8_t h = 0;
    const char *q = memchr(text, '.', end);
    while (q) {
        q++;
        size_t n = strcspn(q, ". \t;");
        if (q + n > text + end) {
            break;
        }
        for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
            if (strlen(ops[k].q) == n && !memcmp(q, ops[k].q, n)) {
                h |= ops[k].hint;
            }
        }
        q = q[n] == '.' ? q + n : NULL;
    }
    return h;
}
