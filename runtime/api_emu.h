/*
 * runtime/api_emu.h: the emulator device behind a ptxemu_device, for
 * in-tree tools that attach emulator clients (emu/client.h), such as
 * bench/emu --noop-client.  Not part of the public API.
 */
#ifndef PTXEMU_RUNTIME_API_EMU_H
#define PTXEMU_RUNTIME_API_EMU_H

#include "emu/exec.h"
#include "runtime/ptxemu.h"

EmuDevice *rt_device_emu(ptxemu_device *d);
/* emu_mem_share (emu/memory.h) of the device allocation at addr, under
 * the device's lock, for CUDA IPC: 0, or -1 when it is not the base of
 * a device allocation or no memfd can be made. */
int rt_mem_share(ptxemu_device *d, ptxemu_devptr addr, int *fd,
                 uint64_t *bytes);
/* hook(ctx, fault) for every launch that stops on a guest fault, before
 * the launch's error is returned (`ptxemu sanitize`'s checkers); NULL
 * removes it. */
void rt_set_fault_hook(ptxemu_device *d,
                       void (*hook)(void *ctx, const EmuFault *f,
                                    const EmuModule *m),
                       void *ctx);

#endif
