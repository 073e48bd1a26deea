/*
 * emu/unload.c: emu_at_unload (emu/unload.h).
 */
#include "config.h"

#include <stdint.h>

#include "emu/unload.h"

/* The C++ ABI's registration, with the object's handle (Itanium C++
 * ABI 3.3.5.3, "Runtime API"; glibc's atexit is this call). */
extern void *__dso_handle;
int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);

/* Registered at most once each, under the caller's own once-guard. */
static void (*fns[EMU_AT_UNLOAD_MAX])(void);
static uint32_t nfns;

static void call(void *arg)
{
    fns[(uintptr_t)arg]();
}

int emu_at_unload(void (*fn)(void))
{
    uint32_t i = __atomic_fetch_add(&nfns, 1, __ATOMIC_RELAXED);
    if (i >= EMU_AT_UNLOAD_MAX) {
        return -1;
    }
    fns[i] = fn;
    return __cxa_atexit(call, (void *)(uintptr_t)i, &__dso_handle) ? -1 : 0;
}
