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
/* hook(ctx, fault) for every launch that stops on a guest fault, before
 * the launch's error is returned (`ptxemu sanitize`'s checkers); NULL
 * removes it. */
void rt_set_fault_hook(ptxemu_device *d,
                       void (*hook)(void *ctx, const EmuFault *f,
                                    const EmuModule *m),
                       void *ctx);

#endif
