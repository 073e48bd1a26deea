/*
 * ptx/diag.h: located diagnostics.
 *
 * Every user-facing error about PTX text goes through here, so that all of
 * them look alike: "FILE:LINE:COL: error: MESSAGE", then the source line
 * and a caret under the column.  Messages are collected in a buffer (the
 * runtime may want them as a string) and optionally echoed to a stream.
 */
#ifndef PTXEMU_DIAG_H
#define PTXEMU_DIAG_H

#include <stdarg.h>
#include <stdio.h>
#include "ptx/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum PtxSeverity { PTX_SEV_ERROR, PTX_SEV_WARNING, PTX_SEV_NOTE } PtxSeverity;

typedef struct PtxDiag {
    const char *filename;
    const char *src;        /* whole source text (not owned) */
    size_t srclen;
    FILE *echo;             /* also print here as reported; may be NULL */
    unsigned nerrors;
    unsigned nwarnings;
    unsigned max_errors;    /* stop reporting after this many; 0 = 50 */
    char *buf;              /* all messages, NUL-terminated (malloc'd) */
    size_t buflen, bufcap;
    /* The scanner works in place and keeps a NUL at the end of its
     * current token; the byte it replaced is remembered here so that
     * echoed source lines are whole. */
    const char *hold_pos;
    char hold_char;
    /* one record per message, to put them in source order at the end */
    struct PtxDiagRec *recs;
    size_t nrecs, caprecs;
    bool finished;
} PtxDiag;

void ptx_diag_init(PtxDiag *d, const char *filename, const char *src,
                   size_t srclen, FILE *echo);
void ptx_diag_fini(PtxDiag *d);
void ptx_diag_report(PtxDiag *d, PtxSeverity sev, PtxLoc loc,
                     const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void ptx_diag_vreport(PtxDiag *d, PtxSeverity sev, PtxLoc loc,
                      const char *fmt, va_list ap);
#define ptx_error(d, loc, ...) ptx_diag_report((d), PTX_SEV_ERROR, (loc), __VA_ARGS__)
#define ptx_warning(d, loc, ...) ptx_diag_report((d), PTX_SEV_WARNING, (loc), __VA_ARGS__)

static inline PtxLoc ptx_loc(uint32_t line, uint32_t col)
{
    PtxLoc l = {line, col};
    return l;
}

/* Put the messages in source order (line, column, then report order),
 * and echo them.  The parser calls this once it is done; messages
 * reported afterwards are appended as they come. */
void ptx_diag_finish(PtxDiag *d);

/* True once max_errors errors were reported: callers stop early. */
bool ptx_diag_full(const PtxDiag *d);

#ifdef __cplusplus
}
#endif
#endif
