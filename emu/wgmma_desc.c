/*
 * emu/wgmma_desc.c: wgmma matrix descriptors and their element
 * addresses (layout rules in wgmma_desc.h).
 */
#include "emu/wgmma_desc.h"

WgDesc wg_desc_decode(uint64_t d)
{
    WgDesc w;
    w.start = (uint32_t)(d & 0x3fff) << 4;
    w.lbo = (uint32_t)((d >> 16) & 0x3fff) << 4;
    w.sbo = (uint32_t)((d >> 32) & 0x3fff) << 4;
    w.base = (unsigned)(d >> 49) & 7;
    w.swizzle = (unsigned)(d >> 62) & 3;
    return w;
}

uint64_t wg_elem_bitaddr(const WgDesc *d, bool mn_major, unsigned bits,
                         unsigned mn, unsigned k)
{
    unsigned t = 128 / bits;    /* elements per 16-byte unit */
    /* row width of the swizzle atom in bytes; 16 when not swizzled */
    unsigned w = d->swizzle ? 256u >> d->swizzle : 16;
    uint64_t off;
    unsigned inner;             /* element index within its unit */
    if (!mn_major) {
        unsigned unit = k / t, r = mn % 8, g = mn / 8;
        inner = k % t;
        off = (uint64_t)g * d->sbo + (uint64_t)r * w +
              (d->swizzle ? 16ull * unit : (uint64_t)unit * d->lbo);
    } else {
        unsigned unit = mn / t, r = k % 8, kg = k / 8;
        inner = mn % t;
        if (!d->swizzle) {
            off = (uint64_t)unit * d->sbo + 16ull * r +
                  (uint64_t)kg * d->lbo;
        } else {
            unsigned per = w / 16;      /* units per atom row */
            off = 16ull * (unit % per) + (uint64_t)(unit / per) * d->lbo +
                  (uint64_t)r * w + (uint64_t)kg * d->sbo;
        }
    }
    uint64_t a = d->start + off;
    if (d->swizzle) {
        uint64_t rows = w / 16 - 1;     /* phase mask: 7, 3 or 1 */
        uint64_t phase = ((a >> 7) - d->base) & rows;
        a ^= phase << 4;
    }
    return a * 8 + (uint64_t)inner * bits;
}
