/*
 * emu/unload.h: run a function when the shared object that holds the
 * caller is unloaded (dlclose) or the process exits, whichever comes
 * first.
 *
 * That is what atexit(3) does for a shared library's handlers in glibc
 * (which registers them with __cxa_atexit and the library's
 * __dso_handle), but a sanitizer runtime that intercepts atexit
 * registers them for the whole process: ThreadSanitizer's does, so the
 * helper threads of a dlclose'd libcuda.so.1 went on in unmapped code
 * (tests/timing_unload.test).  This registers with __cxa_atexit and the
 * __dso_handle of the object it is linked into, as glibc's atexit does.
 * At most EMU_AT_UNLOAD_MAX functions per object.
 */
#ifndef PTXEMU_EMU_UNLOAD_H
#define PTXEMU_EMU_UNLOAD_H

#define EMU_AT_UNLOAD_MAX 8

/* 0, or -1 when the table is full or the registration failed. */
int emu_at_unload(void (*fn)(void));

#endif
