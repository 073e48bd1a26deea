/*
 * emu/tolerate.h: global accesses that a GPU tolerates.
 *
 * Contract.  With EmuConfig.access = EMU_ACCESS_GPU, a global, const or
 * generic access that lies in no allocation but that a GPU would not
 * fault on (emu_mem_slack: the 256-byte padding after an allocation, or
 * a page of the device range that a live allocation maps, at
 * EMU_MAP_GRANULARITY) reads and writes host bytes kept for it, as the
 * GPU would read and write that memory, and is reported: through the
 * device's tolerated_hook when one is set (every such access; the
 * memcheck of `ptxemu sanitize` reports each as an error there),
 * otherwise as one warning on stderr per instruction (function and pc)
 * for the device's life, written by emu_tolerate_flush at the end of
 * the launch that first met it and naming the lowest thread (CTA, then
 * thread) that made the access there: the same report whichever host
 * threads ran the CTAs.  Safe from several host threads at once.
 * Everything else still faults: an address in no mapped page (an unmapped
 * gap of the device range past the last page, below it, a freed page,
 * wild pointers), a misaligned access, a write to .const memory, and any
 * access with EMU_ACCESS_STRICT (the default of the C API).
 */
#ifndef PTXEMU_EMU_TOLERATE_H
#define PTXEMU_EMU_TOLERATE_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/exec.h"

/* One tolerated access, for EmuDevice.tolerated_hook. */
typedef struct EmuTolerated {
    const EmuLaunch *launch;
    const char *func;             /* function executing the access */
    const char *file;             /* its PTX file */
    PtxLoc loc;
    uint32_t pc;
    uint32_t ctaid[3], tid[3];
    uint64_t addr;
    uint32_t size;
    bool write;
    PtxSpace space;
} EmuTolerated;

/* Host bytes for the access when a GPU tolerates it (reported as above),
 * or NULL: the caller faults as before. */
uint8_t *emu_access_tolerated(EmuCtx *x, unsigned lane, PtxSpace space,
                              uint64_t addr, uint32_t size, bool write);

/* Write the warnings of the instructions met since the last flush
 * (in the order of their threads; the launch's end calls it). */
void emu_tolerate_flush(EmuDevice *d);

/* Forget the instructions met since the last flush only by CTAs above
 * `cta` (linear): a launch stopped by that CTA's fault, whose CTAs above
 * it ran on other host threads only (emu/par.c), as one thread would
 * not have run them.  They are reported when a later launch meets
 * them. */
void emu_tolerate_drop_above(EmuDevice *d, uint64_t cta);

/* The device's per-site warning record. */
void emu_tolerate_free(EmuDevice *d);

#endif
