/*
 * check/initcheck.h: the initialisation checker of `ptxemu sanitize
 * --tool initcheck`: reads of device memory that nothing wrote, per
 * byte, in global memory (as compute-sanitizer's initcheck) and in
 * shared and local memory (which it does not check).
 *
 * What is detected:
 *  - Global: a kernel read (ld, the read of an atom/red) of a byte of a
 *    cudaMalloc'd or device-malloc'd allocation that no host copy or
 *    memset (cudaMemcpy*, cudaMemset*, their driver forms) and no kernel
 *    write has written since the allocation was made.  Managed, mapped
 *    host and VMM memory, and module variables count as written.
 *  - Shared: a read of a byte that no thread of the CTA wrote since the
 *    CTA started (an asynchronous copy into it counts as a write).
 *  - Local: a thread's read of a byte of its local memory (stack
 *    frames) that it did not write since it started.  Reads named .param
 *    (a .func's parameters and return values, which the emulator copies
 *    at call and return) are not checked.
 *  - Not checked: asynchronous copies' source bytes (cp.async, bulk, TMA
 *    copy them on as written), texture and surface fetches, and reads of
 *    another CTA's shared memory (shared::cluster).  Written bytes stay
 *    written: a callee's frame reusing an earlier frame's bytes is not
 *    uninitialised.
 *
 * Contract.
 *  - san_initcheck_new() attaches a client; reports go through `out`.
 *    Each uninitialised access (per lane) is one error; the first of
 *    each instruction and state space is printed, the others counted.
 *  - Detach with san_initcheck_free() before freeing the device.
 */
#ifndef PTXEMU_CHECK_INITCHECK_H
#define PTXEMU_CHECK_INITCHECK_H

#include "check/report.h"
#include "emu/exec.h"

typedef struct SanInitcheck SanInitcheck;

SanInitcheck *san_initcheck_new(EmuDevice *d, SanOut *out);
void san_initcheck_free(SanInitcheck *c);

#endif
