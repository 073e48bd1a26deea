/*
 * ptx/lexkw.h: the directive keywords the scanner turns into tokens.
 */
#ifndef PTXEMU_LEXKW_H
#define PTXEMU_LEXKW_H

#include <stddef.h>

typedef struct PtxKeyword {
    const char *name;   /* without the leading dot */
    int token;          /* bison token */
    int value;          /* PtxSpace, PtxType, PD_*, vector width ... */
} PtxKeyword;

const PtxKeyword *ptx_keyword_lookup(const char *s, size_t len);

#endif
