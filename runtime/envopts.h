/*
 * runtime/envopts.h: the emulator options that reach the CUDA drop-ins
 * (libcuda.so.1, libcudart.so.13) through environment variables.
 *
 * One table serves both ends: `ptxemu exec` turns its command-line flags
 * into these variables and prints the table in --help; the driver reads
 * the variables when it initialises (ptxemu_env_device_options).
 */
#ifndef PTXEMU_RUNTIME_ENVOPTS_H
#define PTXEMU_RUNTIME_ENVOPTS_H

#include <stddef.h>

#include "runtime/ptxemu.h"

typedef struct ptxemu_env_option {
    const char *env;            /* "PTXEMU_ARCH" */
    const char *flag;           /* "--arch" (ptxemu exec) */
    const char *arg;            /* "sm_XX"; NULL: a switch, set to "1" */
    const char *help;           /* one line */
    int repeat;                 /* a flag given again appends ";VALUE" */
} ptxemu_env_option;

/* Terminated by an entry whose env is NULL. */
extern const ptxemu_env_option ptxemu_env_options[];

/* The option whose flag is `flag` ("--arch"), or NULL. */
const ptxemu_env_option *ptxemu_env_option_by_flag(const char *flag);

/* Fills *opts (after ptxemu_device_options_default) from the PTXEMU_*
 * variables, and *arch with the virtual architecture (80 for sm_80).
 * Returns 0, or -1 with a message naming the variable and its bad
 * value in err. */
/* "ipdom" or "its" (--reconvergence, PTXEMU_RECONVERGENCE): 0 and
 * *out set, or -1. */
int ptxemu_parse_reconvergence(const char *v, ptxemu_reconvergence *out);

int ptxemu_env_device_options(ptxemu_device_options *opts, unsigned *arch,
                              char *err, size_t errlen);
/* Frees what ptxemu_env_device_options allocated in *opts (the list of
 * PTXEMU_TIMING_SET overrides); call it once the device is created (it
 * copies them). */
void ptxemu_env_device_options_fini(ptxemu_device_options *opts);

#endif
