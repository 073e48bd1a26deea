/*
 * runtime/statcsv.h: reading the CSV of `--stats-interval`
 * (timing/intervals.h has the format) for `ptxemu plot`.
 *
 * The whole file is read; a header line (`kernel,launch,cycle,cycles,
 * ...`) names the counter columns of the rows after it.  Columns are the
 * union of every header's counters, in order of first appearance; a row
 * has 0 for a counter its header did not name.  The --stats JSON reads
 * into the same table, a row per kernel (statjson_read).  Untrusted input: a
 * malformed line is a located error ("FILE:LINE: ..."), never a crash;
 * files over STATCSV_MAX_BYTES are refused.
 */
#ifndef PTXEMU_RUNTIME_STATCSV_H
#define PTXEMU_RUNTIME_STATCSV_H

#include <stddef.h>
#include <stdint.h>

#define STATCSV_MAX_BYTES (1ull << 30)

typedef struct StatCsv {
    size_t ncols;                 /* counters */
    char **cols;                  /* their names */
    size_t nrows;
    uint64_t *launch, *cycle, *cycles; /* per row */
    uint64_t *val;                /* nrows x ncols, row-major */
    char **kernel;                /* per row (the JSON's), or on the
                                     first row of each launch (the
                                     CSV's; NULL on the others) */
} StatCsv;

/* 0, or -1 with the message in err. */
int statcsv_read(const char *path, StatCsv *out, char *err, size_t errlen);
void statcsv_free(StatCsv *c);
/* The --stats JSON's "timing" object (runtime/statjson.c, json-c): one
 * row per kernel, in order; cycle is the sum of the kernels' cycles
 * before it, kernel[] their names, columns the union of the kernels'
 * model counters.  0, or -1 with "FILE: reason" in err (not JSON, no
 * timing model, a counter that is not a count). */
int statjson_read(const char *path, StatCsv *out, char *err,
                  size_t errlen);
/* The column named name, or -1. */
long statcsv_col(const StatCsv *c, const char *name);
/* The column named name, added (empty) when new; -1: out of memory. */
long statcsv_add_col(StatCsv *c, const char *name);
static inline uint64_t statcsv_at(const StatCsv *c, size_t row, size_t col)
{
    return c->val[row * c->ncols + col];
}

#endif
