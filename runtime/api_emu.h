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

#endif
