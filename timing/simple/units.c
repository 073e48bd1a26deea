/*
 * timing/simple/units.c: what an instruction occupies and how long its
 * memory accesses take.
 *
 * Memory cost of one instruction: the slowest state space it touched
 * sets the latency; global and local accesses are coalesced into 32-byte
 * sectors (the unit of an L1/L2 transaction since Maxwell: CUDA C++ Best
 * Practices Guide, "Coalesced Access to Global Memory") and pass the
 * SM's memory port at mem.bytes_per_cycle, which adds
 * ceil(sectors * 32 / B) cycles to their latency and keeps the port busy
 * that long.  Sectors are counted from merged per-space intervals, so a
 * bulk copy of many kilobytes costs no more host work than a load.
 */
#include "config.h"

#include <stdlib.h>

#include "timing/simple/simple.h"

unsigned simple_unit(const ptxemu_tm_insn *insn)
{
    return insn->unit < PTXEMU_TM_UNIT_COUNT ? insn->unit
                                             : PTXEMU_TM_UNIT_MISC;
}

/* Spaces whose accesses pass the SM's memory port. */
static bool port_space(unsigned space)
{
    return space == PTXEMU_TM_SPACE_GLOBAL || space == PTXEMU_TM_SPACE_LOCAL;
}

bool simple_needs_port(const ptxemu_tm_insn *insn)
{
    const unsigned mem = PTXEMU_TM_I_LOAD | PTXEMU_TM_I_STORE |
                         PTXEMU_TM_I_ATOMIC | PTXEMU_TM_I_ASYNC;
    if (!(insn->flags & mem)) {
        return false;
    }
    /* NONE: a generic address, known only per access. */
    return insn->space == PTXEMU_TM_SPACE_NONE || port_space(insn->space);
}

static bool async_kind(unsigned kind)
{
    return kind == PTXEMU_TM_ASYNC_READ || kind == PTXEMU_TM_ASYNC_WRITE;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Distinct sectors of one space's accesses of the wanted kind. */
static int sectors_of(const ptxemu_tm_step *st, unsigned space,
                      bool kinds_async, SimpleScratch *scr, uint64_t *out)
{
    size_t n = 0;
    for (uint32_t i = 0; i < st->nacc; i++) {
        const ptxemu_tm_access *a = &st->acc[i];
        if (a->space != space || async_kind(a->kind) != kinds_async ||
            a->size == 0) {
            continue;
        }
        if (2 * (n + 1) > scr->cap) {
            size_t cap = scr->cap ? scr->cap * 2 : 128;
            uint64_t *iv = realloc(scr->iv, cap * sizeof *iv);
            if (!iv) {
                return -1;
            }
            scr->iv = iv;
            scr->cap = cap;
        }
        uint64_t span = (uint64_t)a->size - 1;
        uint64_t last = a->addr > UINT64_MAX - span ? UINT64_MAX
                                                    : a->addr + span;
        scr->iv[2 * n] = a->addr / SIMPLE_SECTOR;
        scr->iv[2 * n + 1] = last / SIMPLE_SECTOR;
        n++;
    }
    qsort(scr->iv, n, 2 * sizeof(uint64_t), cmp_u64);
    uint64_t total = 0, end = 0;
    bool open = false;
    for (size_t i = 0; i < n; i++) {
        uint64_t first = scr->iv[2 * i], last = scr->iv[2 * i + 1];
        if (open && last <= end) {
            continue; /* inside what is counted already */
        }
        if (open && first <= end) {
            first = end + 1;
        }
        total += last - first + 1;
        end = last;
        open = true;
    }
    *out = total;
    return 0;
}

int simple_mem_cost(const SimpleConfig *c, const ptxemu_tm_step *st,
                    bool kinds_async, SimpleScratch *scr, SimpleMemCost *out)
{
    out->any = false;
    out->latency = 0;
    out->transfer = 0;
    if (st->nacc == 0) {
        return 0;
    }
    bool seen[PTXEMU_TM_SPACE_COUNT] = {false};
    for (uint32_t i = 0; i < st->nacc; i++) {
        const ptxemu_tm_access *a = &st->acc[i];
        if (async_kind(a->kind) == kinds_async) {
            unsigned sp = a->space < PTXEMU_TM_SPACE_COUNT ? a->space
                                                           : PTXEMU_TM_SPACE_NONE;
            seen[sp] = true;
            out->any = true;
        }
    }
    uint64_t sectors = 0;
    for (unsigned sp = 0; sp < PTXEMU_TM_SPACE_COUNT; sp++) {
        if (seen[sp] && port_space(sp)) {
            uint64_t n;
            if (sectors_of(st, sp, kinds_async, scr, &n) != 0) {
                return -1;
            }
            sectors += n;
        }
    }
    const uint64_t cap = 1ull << 40; /* keeps sectors * 32 in range */
    if (sectors > cap) {
        sectors = cap;
    }
    out->transfer = (sectors * SIMPLE_SECTOR + c->bytes_per_cycle - 1) /
                    c->bytes_per_cycle;
    for (unsigned sp = 0; sp < PTXEMU_TM_SPACE_COUNT; sp++) {
        if (seen[sp]) {
            uint64_t lat = c->mem_lat[sp] + (port_space(sp) ? out->transfer : 0);
            if (lat > out->latency) {
                out->latency = lat;
            }
        }
    }
    return 0;
}
