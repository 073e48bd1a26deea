/*
 * emu/shadow.h: a store buffer for global memory, so that steps of
 * several SMs can run side by side and still give results that do not
 * depend on which host thread ran what, or when.
 *
 * Contract.  While a launch context's `shadow` is set (EmuLaunch, the
 * per-SM copies a timing host steps in its parallel sections:
 * timing/host.c, ptxemu_timing.h's ABI 6), every checked access to a
 * writable global allocation goes through emu_shadow_at():
 *  - a write lands in the buffer, never in memory: the buffer keeps a
 *    copy of each 128-byte line written and which of its bytes were;
 *  - a read of a line the buffer holds sees those bytes, and memory for
 *    the rest; a read of any other line reads memory directly;
 * and emu_shadow_commit() writes the bytes written into memory and
 * empties the buffer.  Between two commits nothing else may write the
 * global memory the buffered steps read (the host runs no other step
 * meanwhile, and each SM's steps go to its own buffer): so a step sees
 * memory as it was at the last commit plus its own SM's writes since,
 * and the buffers committed in SM order give memory the same bytes on
 * every run at any thread count, even when SMs race (PTX ISA 9.0,
 * "Memory Consistency Model": weak accesses of different threads that
 * are not ordered by synchronisation need not see each other in any
 * order, so holding writes back until a commit is one permitted
 * outcome).  Read-only allocations never hold buffered lines (a write
 * to one faults before it gets here).
 *
 * Two device addresses of the same bytes (one handle mapped twice)
 * share their buffered copy.  Natural alignment (checked before) keeps
 * an access of at most 128 bytes inside one line.  One buffer is used
 * by one thread at a time; its commit runs when none of them steps.
 * Accesses a GPU tolerates (emu/tolerate.h) are buffered too.
 */
#ifndef PTXEMU_EMU_SHADOW_H
#define PTXEMU_EMU_SHADOW_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/memory.h"

#define EMU_SHADOW_LINE 128u

typedef struct EmuShadowLine {
    uint64_t line;                /* its name (shadow.c: by host address,
                                     so that aliases share it) */
    uintptr_t host;               /* where the line's first byte is on the
                                     host (perhaps before its allocation's
                                     bytes: only bytes written are used) */
    uint64_t mask[2];             /* bytes written: bit k of byte k */
    uint8_t data[EMU_SHADOW_LINE];
} EmuShadowLine;

typedef struct EmuShadow {
    EmuShadowLine *v;             /* the lines, in the order first written */
    uint32_t n, cap;
    uint32_t *slot;               /* hash of line -> index + 1 (0: empty) */
    uint32_t nslot;               /* a power of two, at least 2 n */
    uint32_t last;                /* index + 1 of the line last found */
    bool *mark;                   /* set when the buffer becomes non-empty
                                     (the owner's list of buffers to
                                     commit), or NULL */
    EmuMemHit hit;                /* the writable allocation last buffered */
} EmuShadow;

/* The bytes an access of `size` bytes at global address addr uses,
 * host the checked host bytes of memory there: host itself for a read
 * of a line not buffered, else the line's copy (created for a write,
 * with the bytes of the access not yet written filled from memory);
 * a write marks its bytes written (the caller then stores them there).
 * NULL when out of host memory. */
uint8_t *emu_shadow_at(EmuShadow *s, uint64_t addr, uint32_t size,
                       bool write, uint8_t *host);

/* Write the buffered bytes to memory, line by line in the order first
 * written, and empty the buffer. */
void emu_shadow_commit(EmuShadow *s);

/* Free what the buffer holds (it may be used again). */
void emu_shadow_fini(EmuShadow *s);

#endif
