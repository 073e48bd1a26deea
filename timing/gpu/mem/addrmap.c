/*
 * timing/gpu/mem/addrmap.c: address mapping (rules in addrmap.h).
 */
#include "timing/gpu/mem/addrmap.h"

#include <string.h>

static const char *const hash_names[] = {
    [ADDR_LINEAR] = "linear",
    [ADDR_XOR] = "xor",
    [ADDR_POLY] = "poly",
};

/* Irreducible polynomials over GF(2) of degree 1..10, bit k = x^k
 * (degree 8 is AES's x^8+x^4+x^3+x+1; the others are the trinomials of
 * the usual tables of primitive polynomials, e.g. Lidl and Niederreiter,
 * "Finite Fields", table C). */
static const uint32_t irreducible[] = {
    0, 0x3, 0x7, 0xB, 0x13, 0x25, 0x43, 0x83, 0x11B, 0x211, 0x409,
};
#define MAX_POLY_DEGREE 10u

int addrmap_hash_by_name(const char *name)
{
    for (size_t i = 0; i < sizeof hash_names / sizeof hash_names[0]; i++) {
        if (strcmp(name, hash_names[i]) == 0) {
            return (int)i;
        }
    }
    return -1;
}

static int pow2(uint64_t v)
{
    return v && !(v & (v - 1));
}

static uint32_t log2_ceil(uint32_t v)
{
    uint32_t k = 0;
    while ((1ull << k) < v) {
        k++;
    }
    return k;
}

const char *addrmap_check(const AddrMapCfg *c)
{
    if (!c->parts || c->parts > 1024) {
        return "the partition count must be 1 to 1024";
    }
    if (!pow2(c->gran) || c->gran < 128) {
        return "the interleave must be a power of two of at least 128 bytes";
    }
    if (!c->ranks || !c->banks || !c->bankgroups ||
        c->banks % c->bankgroups) {
        return "ranks, banks and bank groups must be at least 1, and the "
               "bank groups must divide the banks";
    }
    if (!pow2(c->row_bytes) || c->row_bytes < 32) {
        return "the row size must be a power of two of at least 32 bytes";
    }
    if (c->hash == ADDR_POLY &&
        (!pow2(c->parts) || log2_ceil(c->parts) > MAX_POLY_DEGREE)) {
        return "poly hashing needs a power-of-two partition count up to 1024";
    }
    return NULL;
}

/* XOR of the k-bit fields of v. */
static uint64_t fold(uint64_t v, uint32_t k)
{
    if (!k) {
        return 0;
    }
    uint64_t r = 0, mask = (1ull << k) - 1;
    while (v) {
        r ^= v & mask;
        v >>= k;
    }
    return r;
}

/* v mod p over GF(2), p of degree k. */
static uint64_t gf2_mod(uint64_t v, uint32_t p, uint32_t k)
{
    for (int bit = 63; bit >= (int)k; bit--) {
        if (v >> bit & 1) {
            v ^= (uint64_t)p << (bit - (int)k);
        }
    }
    return v;
}

static uint32_t part_of(const AddrMapCfg *c, uint64_t chunk)
{
    uint64_t low = chunk % c->parts, up = chunk / c->parts;
    uint32_t k = log2_ceil(c->parts);
    switch (c->hash) {
    case ADDR_XOR:
        if (pow2(c->parts)) {
            return (uint32_t)(low ^ fold(up, k));
        }
        return (uint32_t)((low + fold(up, k)) % c->parts);
    case ADDR_POLY:
        return (uint32_t)gf2_mod(chunk, irreducible[k], k);
    case ADDR_LINEAR:
    default:
        return (uint32_t)low;
    }
}

uint32_t addrmap_part(const AddrMapCfg *c, uint64_t addr)
{
    return c->parts == 1 ? 0 : part_of(c, addr / c->gran);
}

void addrmap_map(const AddrMapCfg *c, uint64_t addr, AddrLoc *o)
{
    uint64_t chunk = addr / c->gran;
    o->part = addrmap_part(c, addr);
    uint64_t local = chunk / c->parts * c->gran + addr % c->gran;
    o->col = (uint32_t)(local % c->row_bytes);
    uint64_t r = local / c->row_bytes;
    uint32_t nb = c->ranks * c->banks;
    uint32_t b = (uint32_t)(r % nb);
    o->row = r / nb;
    if (c->hash != ADDR_LINEAR && pow2(nb)) {
        b ^= (uint32_t)(o->row % nb);
    }
    o->rank = b / c->banks;
    uint32_t in = b % c->banks;
    o->bg = in % c->bankgroups;
    o->bank = in / c->bankgroups;
    o->bankid = b;
}
