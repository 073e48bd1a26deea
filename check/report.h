/*
 * check/report.h: what the checkers of `ptxemu sanitize` share: one
 * error counter and print limit for all the tools of a run, where an
 * instruction is (PTX file:line and, from `.loc`, the CUDA source
 * file:line), thread coordinates, and the two report formats.
 *
 * Contract.
 *  - SanOut counts errors for every tool that reports through it; each
 *    tool calls san_out_count() once per error and prints only when it
 *    returns true (print_limit: at most that many printed, 0 = all).
 *  - Text reports follow compute-sanitizer's layout (NVIDIA, "Compute
 *    Sanitizer User Manual"): every line starts with "========= ".
 *  - JSON reports are JSON Lines: one object per error, each with a
 *    "tool" and a "kind" member, and a last object {"summary": ...}
 *    written by san_out_summary().
 *  - XML reports (check/xmlout.h): the tools write the JSON records
 *    (their test: fmt != SAN_FMT_TEXT) into a buffer that SanOut turns
 *    into XML elements on `dest` at the summary, which ends the
 *    document and frees the buffer (or at a san_out_count() once it
 *    holds 1 MiB).
 */
#ifndef PTXEMU_CHECK_REPORT_H
#define PTXEMU_CHECK_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "emu/exec.h"

#define SAN_P "========= "
#define SAN_BLANK "=========\n"     /* compute-sanitizer's separator */

typedef enum SanFormat {
    SAN_FMT_TEXT = 0,
    SAN_FMT_JSON,
    SAN_FMT_XML,
} SanFormat;

typedef struct SanOut {
    FILE *out;                    /* not closed (XML: the JSON buffer) */
    SanFormat fmt;
    uint64_t limit, errors, printed;
    uint64_t dropped;             /* not printed because of the limit */
    FILE *dest;                   /* XML: where the document goes */
    char *xbuf;                   /* XML: out's memory */
    size_t xlen;
    bool xml_begun;               /* XML: the header is written */
} SanOut;

void san_out_init(SanOut *o, FILE *out, SanFormat fmt, uint64_t limit);
/* Count one error; true when it is to be printed. */
bool san_out_count(SanOut *o);
/* Count n errors that are not printed (repeats of one printed). */
void san_out_add(SanOut *o, uint64_t n);
/* "ERROR SUMMARY: N errors" (and how many were not printed), or the
 * JSON summary object. */
void san_out_summary(SanOut *o);

/* Where an instruction is. */
typedef struct SanLoc {
    const char *func;             /* its function's name */
    uint32_t pc;                  /* its index there */
    const char *file;             /* the PTX file, or NULL */
    uint32_t line;                /* in it (0: unknown) */
    const char *src;              /* the .loc source file, or NULL */
    uint32_t src_line;
    /* Code of an inlined function (.loc ... inlined_at, e.g. a CUDA
     * intrinsic's header): src/src_line are the call site, these the
     * inlined code's own place; else NULL. */
    const char *inl_src;
    uint32_t inl_line;
} SanLoc;

/* pc of f (both may be NULL / out of range: an unknown place). */
void san_loc_of(SanLoc *l, const EmuFunc *f, uint32_t pc);
/* The function of module m named name, or NULL. */
const EmuFunc *san_func_named(const EmuModule *m, const char *name);
/* "at FUNC+0xPC in FILE:LINE" and, with a source line, " (SRC:LINE)". */
void san_text_at(FILE *o, const SanLoc *l);
/* "KEY":{"function":..,"pc":..,"file":..,"line":..[,"source":..,
 * "source_line":..[,"inlined_source":..,"inlined_line":..]]} */
void san_json_loc(FILE *o, const char *key, const SanLoc *l);
/* "KEY":[x,y,z] */
void san_json_dim3(FILE *o, const char *key, const uint32_t v[3]);
void san_json_str(FILE *o, const char *s);

/* The %tid of thread `linear` of a CTA of launch l, and the %ctaid of
 * CTA `linear`. */
void san_tid_of(const EmuLaunch *l, uint32_t linear, uint32_t tid[3]);
void san_ctaid_of(const EmuLaunch *l, uint32_t linear, uint32_t ctaid[3]);
/* The words compute-sanitizer uses for a state space ("__shared__"). */
const char *san_space_words(PtxSpace s);

#endif
