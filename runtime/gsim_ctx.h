/*
 * runtime/gsim_ctx.h: what the GPGPU-Sim import's option handlers share
 * (private to gsim_import.c, which maps the SM's options and writes the
 * result, and gsim_mem.c, the memory system's options).
 *
 * A handler maps one option (o) by its row (r): it sets parameters with
 * gsim_set (a later set of a key replaces its value and its source),
 * adds output comments with gsim_comment, notes what it leaves out of a
 * mapped option with gsim_leave_out, and returns 0 (mapped), 1 with
 * gsim_unmapped's reason (not mapped), 2 (mapped later, by a resolve
 * step after every row) or -1 with gsim_bad's located message (the
 * value is not what the option takes).
 */
#ifndef PTXEMU_RUNTIME_GSIM_CTX_H
#define PTXEMU_RUNTIME_GSIM_CTX_H

#include <stdbool.h>

#include "runtime/gsim_import.h"

#define MAX_ENT 192
#define MAX_COMMENT 64

typedef struct Ent {
    char key[40];
    char val[48];
    char why[160];
} Ent;

typedef struct Ctx {
    const GsimFile *f;
    const char *file;
    FILE *notes;
    char *err;
    size_t errlen;
    Ent ent[MAX_ENT];
    size_t nent;
    char comment[MAX_COMMENT][200];
    size_t ncomment;
    char why[200];      /* a handler's reason for not mapping */
    char left[400];     /* what a handler left out of a mapped option */
    unsigned mapped, partial, unmapped, superseded;
} Ctx;

typedef struct Row Row;
typedef int (*Handler)(Ctx *c, const GsimOpt *o, const Row *r);
struct Row {
    const char *opt;
    Handler h;
    const char *key;
    int64_t lo, hi;
};

__attribute__((format(printf, 4, 5)))
void gsim_set(Ctx *c, const char *key, const GsimOpt *o, const char *fmt,
              ...);
__attribute__((format(printf, 2, 3)))
void gsim_comment(Ctx *c, const char *fmt, ...);
__attribute__((format(printf, 2, 3)))
void gsim_leave_out(Ctx *c, const char *fmt, ...);
__attribute__((format(printf, 2, 3)))
int gsim_unmapped(Ctx *c, const char *fmt, ...);
int gsim_bad(Ctx *c, const GsimOpt *o, const char *expect);
/* A decimal integer, blanks around it allowed. */
bool gsim_i64(const char *s, int64_t *v);
/* The last option of that name, or NULL. */
const GsimOpt *gsim_last(const Ctx *c, const char *name);
/* The last value of an integer option, or dflt when absent or bad. */
int64_t gsim_int_opt(const Ctx *c, const char *name, int64_t dflt);
/* -gpgpu_num_sched_per_core, 1 when absent. */
int64_t gsim_scheds(const Ctx *c);
/* Split s at sep into at most max fields (s is modified): the count, or
 * -1 when there are more. */
int gsim_split(char *s, char sep, char **field, int max);
char *gsim_trim(char *s);

/* gsim_mem.c */
int gsim_h_cache(Ctx *c, const GsimOpt *o, const Row *r);
int gsim_h_dram_timing(Ctx *c, const GsimOpt *o, const Row *r);
int gsim_h_part_queues(Ctx *c, const GsimOpt *o, const Row *r);
int gsim_h_burst(Ctx *c, const GsimOpt *o, const Row *r);
void gsim_resolve_burst(Ctx *c);

#endif
