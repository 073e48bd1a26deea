/*
 * check/memcheck.h: the memory checker of `ptxemu sanitize --tool
 * memcheck`, reporting in compute-sanitizer's layout (NVIDIA,
 * "Compute Sanitizer User Manual", sections "Memcheck Tool" and "Leak
 * Checking"): every line starts with "========= ".
 *
 * Contract.
 *  - san_memcheck_new() attaches to an EmuDevice: it takes the device's
 *    tolerated_hook (emu/tolerate.h), so that every global access a GPU
 *    tolerates (the 256-byte slack after an allocation, a mapped page)
 *    is reported and counted as an error instead of warned about once.
 *    The device must run with EMU_ACCESS_GPU for those to reach it (with
 *    EMU_ACCESS_STRICT they fault, and come through san_memcheck_fault).
 *  - san_memcheck_fault() reports a launch that stopped on a guest
 *    fault: an invalid access in compute-sanitizer's words, any other
 *    fault as "Unspecified launch failure"-style text with its status.
 *  - san_memcheck_finish() reports device allocations (cudaMalloc,
 *    cudaMallocManaged, device malloc) still live when leak_check, then
 *    the "ERROR SUMMARY"; call it once, before the device is freed.
 *  - print_limit: at most that many errors are printed (0: no limit);
 *    all are counted.
 *  - An out-of-bounds global access inside an allocation freed (and
 *    not reallocated since; check/freed.h keeps the ranges) is reported
 *    as a use after free, with that allocation and where it was
 *    allocated and freed (the device malloc/free call, or the host).
 *    While attached it quarantines
 *    freed managed memory (emu_mem_set_quarantine: 256 releases or 256
 *    MiB), whose addresses the C library would otherwise hand to the
 *    next managed allocation; device-range addresses are never reused.
 *    (Memory pools keep no freed block under memcheck either:
 *    runtime/cuda/drv_pool.c.)
 *  - Detach with san_memcheck_free() before freeing the device.
 */
#ifndef PTXEMU_CHECK_MEMCHECK_H
#define PTXEMU_CHECK_MEMCHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "emu/exec.h"

typedef struct SanMemcheck SanMemcheck;

/* out: where reports go (not closed). NULL when out of memory. */
SanMemcheck *san_memcheck_new(EmuDevice *d, FILE *out,
                              uint64_t print_limit);
/* Reporting through `out`, shared with other tools (check/report.h):
 * its format and print limit; san_memcheck_finish() then prints no
 * ERROR SUMMARY (the owner of `out` does, san_out_summary()). */
struct SanOut;
SanMemcheck *san_memcheck_new_out(EmuDevice *d, struct SanOut *out);
/* mod: the module of the launch (for the CUDA source line from .loc;
 * NULL: none).  A device free() that faulted is a "Malloc/Free error". */
void san_memcheck_fault(SanMemcheck *m, const EmuFault *f,
                        const EmuModule *mod);
/* The host freed addr, which is not the start of a live device
 * allocation: a double free when it is the start of one of the last
 * allocations freed, else an invalid free. */
void san_memcheck_bad_free(SanMemcheck *m, uint64_t addr);
/* The leak check leaves out the allocations for which skip(addr) is
 * true (the driver's page-locked host memory, which it makes as managed
 * memory: compute-sanitizer checks device memory only); NULL: none. */
void san_memcheck_leak_filter(SanMemcheck *m, bool (*skip)(uint64_t addr));
void san_memcheck_finish(SanMemcheck *m, bool leak_check);
uint64_t san_memcheck_errors(const SanMemcheck *m);
void san_memcheck_free(SanMemcheck *m);

#endif
