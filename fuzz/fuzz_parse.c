/*
 * fuzz/fuzz_parse.c: libFuzzer entry for the PTX front end (configure
 * with CC=clang --enable-fuzz).  Every input must come back as a module
 * or as diagnostics; anything else (crash, leak, UB, hang) is a bug.
 * A parsed module is also printed, to exercise the printer and the CFG.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>

#include "ptx/ptx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    PtxDiag d;
    IrModule *m = ptx_parse_string("fuzz.ptx", (const char *)data, size, &d,
                                   NULL);
    if (m) {
        FILE *devnull = fopen("/dev/null", "w");
        if (devnull) {
            ptx_print_module(devnull, m);
            fclose(devnull);
        }
        ptx_module_free(m);
    }
    ptx_diag_fini(&d);
    return 0;
}
