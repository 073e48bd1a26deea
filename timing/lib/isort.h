/*
 * timing/lib/isort.h: sorting the short arrays a timing model sorts on
 * every instruction (a warp's accesses, its transactions): a stable
 * insertion sort, linear on the already ordered input those usually
 * are, with qsort() for long arrays or large elements.  Same contract
 * as qsort().
 */
#ifndef PTXEMU_TIMING_LIB_ISORT_H
#define PTXEMU_TIMING_LIB_ISORT_H

#include <stddef.h>

void tm_isort(void *base, size_t n, size_t size,
              int (*cmp)(const void *, const void *));

#endif
