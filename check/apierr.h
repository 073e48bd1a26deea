/*
 * check/apierr.h: `ptxemu sanitize --check-api-errors yes`: a CUDA API
 * call that returned an error, reported as compute-sanitizer does
 * (NVIDIA, "Compute Sanitizer User Manual", "CUDA API Error Checking":
 * "Program hit cudaErrorInvalidValue (error 1) due to "invalid
 * argument" on CUDA API call to cudaFree.").
 *
 * Contract.
 *  - san_api_error() counts one error in o (check/report.h) and, when
 *    o's print limit allows, writes it in o's format.  api: the entry
 *    point's name; code, name and text: the error's number, enumerator
 *    and description (any may be NULL: "?").
 */
#ifndef PTXEMU_CHECK_APIERR_H
#define PTXEMU_CHECK_APIERR_H

#include "check/report.h"

void san_api_error(SanOut *o, const char *api, int code, const char *name,
                   const char *text);

#endif
