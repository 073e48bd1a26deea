/*
 * tests/drv_try.h: TRY(call) for the small programs of the drop-in
 * driver that tests run (not Check programs): a call that does not
 * return CUDA_SUCCESS is named on stderr with its error code, and main
 * returns 1.
 */
#ifndef PTXEMU_TESTS_DRV_TRY_H
#define PTXEMU_TESTS_DRV_TRY_H

#include <stdio.h>

#include "abi/cuda_abi.h"

#define TRY(call)                                                         \
    do {                                                                  \
        CUresult r_ = (call);                                             \
        if (r_ != CUDA_SUCCESS) {                                         \
            fprintf(stderr, "%s: error %d\n", #call, (int)r_);            \
            return 1;                                                     \
        }                                                                 \
    } while (0)

#endif
