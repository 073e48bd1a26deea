/*
 * timing/tm.h: the host side of the timing plug-in ABI, inside ptxemu.
 *
 * Four pieces, each in its own file:
 *  - params.c   TmParams: parameter tables declared by a model, values
 *               from `--timing-config FILE` and `--timing-set k=v`,
 *               located errors, `--timing-help` text.
 *  - statreg.c  TmStats: the statistics registry (path -> counter),
 *               per-kernel deltas, JSON for --stats.
 *  - loader.c   tm_load(): a built-in model by name (registry.c) or a
 *               shared object by path, with the version checks of
 *               <ptxemu/ptxemu_timing.h>; refusals are messages, never
 *               crashes.
 *  - host.c     TmSession: one configured model instance attached to a
 *               device, the ptxemu_tm_host_api it is given, and
 *               tm_session_run(), the timed driver of one launch.
 * Nothing here is exported from libptxemu: the public face is
 * <ptxemu/ptxemu_timing.h> for models and <ptxemu.h> for users.
 */
#ifndef PTXEMU_TIMING_TM_H
#define PTXEMU_TIMING_TM_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "timing/ptxemu_timing.h"

/* A message into err[errlen] (nothing when err is NULL or errlen 0):
 * the form every error of this directory takes. */
static inline void tm_seterr(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline void tm_seterr(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* ---- params.c ---- */
typedef struct TmParams TmParams;

/* An empty set of values; then read a config file and overrides. */
TmParams *tm_params_new(void);
void tm_params_free(TmParams *p);
/* Read `key = value` lines ('#' comments, blank lines).  Errors are
 * "FILE:LINE: message" in err.  0 on success. */
int tm_params_read_file(TmParams *p, const char *path, char *err,
                        size_t errlen);
/* One `key=value` override (later ones win over the file). */
int tm_params_set(TmParams *p, const char *kv, char *err, size_t errlen);
/* Declare a table: every value given for one of its names must parse as
 * its type (else a located error).  0 on success. */
int tm_params_declare(TmParams *p, const ptxemu_tm_param *t, uint32_t n,
                      char *err, size_t errlen);
/* Typed reads of declared names (the value given, else the default).
 * A read of an undeclared name, or as another type, is the model's bug:
 * it returns 0 / false / "" and tm_params_check_unused reports it (a
 * plug-in's mistake must not abort the host). */
int64_t tm_params_int(TmParams *p, const char *name);
uint64_t tm_params_uint(TmParams *p, const char *name);
double tm_params_double(TmParams *p, const char *name);
bool tm_params_bool(TmParams *p, const char *name);
const char *tm_params_string(TmParams *p, const char *name);
/* After create: a value given for a name nobody declared is an error
 * ("FILE:LINE: unknown key 'l1.kb'" or "--timing-set: unknown key"), as
 * is a bad read (above), reported first. */
int tm_params_check_unused(const TmParams *p, char *err, size_t errlen);
/* Every declared parameter: name, type, default, help (--timing-help). */
void tm_params_print_help(const TmParams *p, FILE *out);
/* How many parameters are declared. */
size_t tm_params_count(const TmParams *p);
/* text indented by `indent`, broken at blanks before column 79 (help
 * paragraphs: a model's description, `ptxemu exec --help`). */
void tm_print_wrapped(FILE *out, const char *text, int indent);

/* ---- configpath.c ---- */
/* The file `--timing-config VALUE` means: VALUE itself when it is a file
 * or a path, else a shipped configuration VALUE.cfg (in
 * $PTXEMU_CONFIG_DIR, the source tree's timing/configs, or the installed
 * configs directory) written to buf; VALUE unchanged when none exists. */
const char *tm_config_resolve(const char *config, char *buf, size_t len);
/* Whether S is a name of 1 to MAX characters, each an ASCII letter or
 * digit or one of PUNCT (never '/' in practice: a name becomes one path
 * component).  Shipped configuration names (letters, digits, '_', '-')
 * and the names of `ptxemu sweep`'s list files (also '.') use it. */
bool tm_name_ok(const char *s, size_t max, const char *punct);

/* ---- statreg.c ---- */
typedef struct TmStats TmStats;
TmStats *tm_stats_new(void);
void tm_stats_free(TmStats *s);
/* Register *ctr under path ([A-Za-z0-9_.-], dotted, at most 255 bytes).
 * 0, or TM_STATS_EINVAL (bad path, NULL ctr), TM_STATS_EDUP (the path is
 * registered already), TM_STATS_ENOMEM.  Its mark is its value now. */
enum { TM_STATS_EINVAL = -1, TM_STATS_EDUP = -2, TM_STATS_ENOMEM = -3 };
int tm_stats_add(TmStats *s, const char *path, const uint64_t *ctr,
                 const char *help);
/* Remember every counter's value (at kernel_begin). */
void tm_stats_mark(TmStats *s);
/* Each counter's value minus its mark, as one JSON object (no newline):
 * {"sm0.issued": 12, ...}. */
void tm_stats_json(const TmStats *s, FILE *out);
/* s as a JSON string, quoted and escaped (NULL: ""). */
void tm_json_string(FILE *o, const char *s);
size_t tm_stats_count(const TmStats *s);
/* Name, help and delta of counter k, in registration order (tests,
 * text output); NULL / 0 past the end. */
const char *tm_stats_name(const TmStats *s, size_t k);
const char *tm_stats_help(const TmStats *s, size_t k);
uint64_t tm_stats_delta(const TmStats *s, size_t k);

/* ---- loader.c / registry.c ---- */
typedef struct TmLoaded {
    ptxemu_tm_ops ops;            /* filled by the model's init; a NULL
                                     name is set to spec */
    void *dl;                     /* dlopen handle, NULL when built in */
    const char *spec;             /* tm_load's argument, not copied: the
                                     caller keeps it alive */
} TmLoaded;
/* spec: a built-in model's name, or a path to a shared object (anything
 * containing '/' or ending in ".so").  Fills *out.  Refusals (unknown
 * name, dlopen failure, missing entry point, version out of
 * [PTXEMU_TM_ABI_MIN, PTXEMU_TM_ABI_VERSION], init refusing, missing
 * required callbacks) return non-zero with a one-line message. */
int tm_load(const char *spec, TmLoaded *out, char *err, size_t errlen);
void tm_unload(TmLoaded *l);
/* Built-in models: name -> init function; NULL-terminated by name. */
typedef struct TmBuiltin {
    const char *name;
    ptxemu_tm_init_fn init;
} TmBuiltin;
extern const TmBuiltin tm_builtins[];

/* Built-in models' init functions. */
int tm_simple_init(uint32_t host_abi_version, ptxemu_tm_ops *ops);
int tm_gpu_init(uint32_t host_abi_version, ptxemu_tm_ops *ops);

#endif
