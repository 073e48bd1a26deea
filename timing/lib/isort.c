/*
 * timing/lib/isort.c: insertion sort for short arrays (contract in
 * isort.h).
 */
#include "timing/lib/isort.h"

#include <stdlib.h>
#include <string.h>

/* Beyond these, insertion's quadratic worst case or the copies cost
 * more than qsort's calls. */
#define ISORT_MAX_N 64
#define ISORT_MAX_SIZE 64

void tm_isort(void *base, size_t n, size_t size,
              int (*cmp)(const void *, const void *))
{
    if (n > ISORT_MAX_N || size > ISORT_MAX_SIZE) {
        qsort(base, n, size, cmp);
        return;
    }
    char *a = base, tmp[ISORT_MAX_SIZE];
    for (size_t i = 1; i < n; i++) {
        if (cmp(a + (i - 1) * size, a + i * size) <= 0) {
            continue;
        }
        memcpy(tmp, a + i * size, size);
        size_t j = i;
        while (j > 0 && cmp(a + (j - 1) * size, tmp) > 0) {
            j--;
        }
        memmove(a + (j + 1) * size, a + j * size, (i - j) * size);
        memcpy(a + j * size, tmp, size);
    }
}
