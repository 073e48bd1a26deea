/*
 * runtime/sanitize.h: a sanitizer session on a device: the checkers of
 * check/ that `ptxemu sanitize` (through the drop-in driver,
 * runtime/cuda/drv_sanitize.c) and `ptxemu run --tool` attach, sharing
 * one report stream and one ERROR SUMMARY.
 *
 * Contract.
 *  - tools: a comma-separated list of memcheck, racecheck, initcheck,
 *    synccheck (each at most once).  rt_sanitize_tools() parses it into
 *    a mask of 1u << RtSanTool; false for a bad list.
 *  - rt_sanitize_start() attaches the tools (memcheck also takes the
 *    device's fault hook and its tolerated-access hook); NULL with a
 *    message in why on failure.
 *  - rt_sanitize_finish() writes what the tools report at the end (leaks,
 *    the racecheck analysis), the summary, detaches everything and frees
 *    the session; it returns the number of errors.
 */
#ifndef PTXEMU_RUNTIME_SANITIZE_H
#define PTXEMU_RUNTIME_SANITIZE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "runtime/ptxemu.h"

typedef enum RtSanTool {
    RT_SAN_MEMCHECK = 0,
    RT_SAN_RACECHECK,
    RT_SAN_INITCHECK,
    RT_SAN_SYNCCHECK,
    RT_SAN_NTOOLS
} RtSanTool;

typedef struct RtSanOptions {
    unsigned tools;               /* 1u << RtSanTool */
    bool json;                    /* JSON Lines instead of text */
    bool xml;                     /* XML (check/xmlout.h), over json */
    uint64_t print_limit;         /* 0: all */
    bool leak_check;              /* memcheck: report leaks at the end */
    bool race_analysis;           /* racecheck: grouped report */
    bool api_errors;              /* report CUDA API calls that fail */
    bool exited_lanes;            /* synccheck: masks naming exited
                                     lanes (san_synccheck_set_exited_lanes) */
    /* memcheck's leak check leaves out the allocations this says are
     * not device memory (page-locked host memory); NULL: none */
    bool (*not_device)(uint64_t addr);
    FILE *out;                    /* not closed */
} RtSanOptions;

typedef struct RtSanitize RtSanitize;

/* The driver's private export table (cuGetExportTable) through which
 * our runtime, libcudart.so.13, hands its failing calls to the session
 * of the driver (runtime/cuda/drv_sanitize.c); our own UUID, no
 * NVIDIA runtime asks for it.  Slot 0: the table's size; slot 1:
 * void (*)(const char *api, int code, const char *name,
 * const char *text), as rt_sanitize_api_error. */
#define RT_SAN_TABLE_UUID \
    {'p', 't', 'x', 'e', 'm', 'u', '-', 's', 'a', 'n', 'i', 't', 'i', \
     'z', 'e', '1'}

bool rt_sanitize_tools(const char *list, unsigned *mask);
RtSanitize *rt_sanitize_start(ptxemu_device *d, const RtSanOptions *o,
                              char *why, size_t n);
uint64_t rt_sanitize_finish(RtSanitize *s);
/* The host tried to free addr, which is not the start of a live device
 * allocation: memcheck (when on) reports a double or invalid free. */
void rt_sanitize_bad_free(RtSanitize *s, uint64_t addr);
/* A CUDA API call returned an error (check/apierr.h): reported and
 * counted when the session was started with api_errors. */
void rt_sanitize_api_error(RtSanitize *s, const char *api, int code,
                           const char *name, const char *text);

#endif
