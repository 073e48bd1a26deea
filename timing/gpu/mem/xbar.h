/*
 * timing/gpu/mem/xbar.h: the interconnect between SMs and memory
 * partitions, one instance per direction (requests: SMs to partitions;
 * replies: partitions to SMs), in cycles of the interconnect clock.  It
 * keeps memif.h's contract.
 *
 * crossbar: an input-queued crossbar (Dally and Towles, "Principles and
 * Practices of Interconnection Networks", ch. 19).  A packet of
 * ceil(bytes / flit) flits waits in its source's input buffer (`inbuf`
 * flits; xbar_push refuses what does not fit).  Every cycle each output,
 * in index order, looks at the sources whose head packet goes to it,
 * from its round-robin pointer on, and grants the first that is not
 * still sending (a source sends one flit per cycle) when the output is
 * free and its buffer (`outbuf` flits, counted until the owner pops the
 * packet) has room; the pointer then moves past the winner.  A granted
 * packet holds its source and its output for `flits` cycles and arrives
 * `lat` cycles after its last flit left: at grant + lat + flits - 1.
 * A packet larger than a whole buffer is taken into an empty one.
 * Only the head of a source's queue competes (head-of-line blocking, as
 * in the hardware).  xbar_next counts a head whose output buffer is full
 * as waiting for the owner's pop (after which the owner asks again).
 *
 * ideal: no contention and no serialisation: a packet arrives `lat`
 * cycles after it was pushed; the output buffers still bound what is in
 * flight (push refuses when the destination's buffer is full).
 *
 * Position (both kinds): a packet from src to dst takes extra[src x ndst
 * + dst] cycles more (the wires between distant ports are longer), and
 * an output hands packets on in the order they arrive at it: one that
 * would overtake an earlier packet at that output arrives with it.
 */
#ifndef PTXEMU_TIMING_GPU_MEM_XBAR_H
#define PTXEMU_TIMING_GPU_MEM_XBAR_H

#include <stddef.h>

#include "timing/gpu/mem/memif.h"

typedef enum XbarKind { XBAR_CROSSBAR = 0, XBAR_IDEAL } XbarKind;

typedef struct XbarCfg {
    uint32_t nsrc, ndst;
    uint32_t flit;              /* bytes */
    uint32_t inbuf, outbuf;     /* flits */
    uint32_t lat;               /* cycles */
    XbarKind kind;
    const uint32_t *extra;      /* nsrc x ndst extra cycles by position
                                   (src x ndst + dst), copied; NULL: 0 */
} XbarCfg;

typedef struct XbarStats {
    uint64_t packets, flits;
    uint64_t conflicts;         /* a head that lost an arbitration */
    uint64_t stalls;            /* an output free but its buffer full */
    uint64_t refused;           /* a push that did not fit */
} XbarStats;

typedef struct Xbar Xbar;

/* The kind by name ("crossbar", "ideal"); -1 if unknown. */
int xbar_kind_by_name(const char *name);
Xbar *xbar_new(const XbarCfg *cfg, XbarStats *st, char *err, size_t errlen);
void xbar_free(Xbar *x);
/* Offer a packet of `bytes` from src to dst at cycle now. */
bool xbar_push(Xbar *x, uint32_t src, uint32_t dst, const MemMsg *m,
               uint32_t bytes, uint64_t now);
void xbar_tick(Xbar *x, uint64_t now);
/* The packet at the head of dst's buffer if it has arrived by now. */
const MemMsg *xbar_peek(const Xbar *x, uint32_t dst, uint64_t now);
void xbar_pop(Xbar *x, uint32_t dst);
uint64_t xbar_next(const Xbar *x);
/* The same, ignoring arrivals at outputs marked in skip[] (their
 * receiver refused; the owner wakes the network when it may accept). */
uint64_t xbar_next_skip(const Xbar *x, const uint8_t *skip);
/* The least output >= from with a packet in its buffer (arrived or
 * not), UINT32_MAX when none: the owner visits only those. */
uint32_t xbar_next_out(const Xbar *x, uint32_t from);
/* The sources the last tick granted (crossbar: their input buffers
 * gained room); their count. */
uint32_t xbar_granted(const Xbar *x, const uint32_t **src);

#endif
