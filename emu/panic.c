/*
 * emu/panic.c: EMU_PANIC's report (emu/panic.h): one line on stderr,
 * then abort().
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "emu/panic.h"

void emu_panic_at(const char *file, int line, const char *fmt, ...)
{
    /* the host's own output first, so that the report comes last */
    fflush(stdout);
    fprintf(stderr, "ptxemu: internal error at %s:%d: ", file, line);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs(" (an emulator bug: please report it)\n", stderr);
    fflush(stderr);
    abort();
}
