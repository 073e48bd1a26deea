/*
 * runtime/rt_timing.c: a device's timing-model options, the message of a
 * failed ptxemu_device_create, and ptxemu_timing_help (rt_timing.h).
 */
#include "runtime/rt_timing.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "emu/exec.h"
#include "timing/intervals.h"
#include "timing/session.h"
#include "timing/tm.h"

/* Per thread, as errno: creating a device has no device to hold it. */
static __thread char create_msg[1024];

void rt_create_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(create_msg, sizeof(create_msg), fmt, ap);
    va_end(ap);
}

void rt_create_error_clear(void)
{
    create_msg[0] = 0;
}

const char *ptxemu_device_create_error(void)
{
    return create_msg;
}

/* A copy of s, NULL for NULL; *bad set when out of memory. */
static char *dup_opt(const char *s, int *bad)
{
    if (!s) {
        return NULL;
    }
    char *c = strdup(s);
    *bad |= !c;
    return c;
}

int rt_timing_copy(RtTiming *t, const ptxemu_device_options *o)
{
    memset(t, 0, sizeof(*t));
    /* Fields past the caller's size are not there: untimed. */
    if (o->size < offsetof(ptxemu_device_options, ntiming_set) +
                      sizeof(o->ntiming_set)) {
        return 0;
    }
    if (o->ntiming_set && !o->timing_set) {
        rt_create_error("ptxemu_device_options: %zu timing_set entries but "
                        "no list", o->ntiming_set);
        return -1;
    }
    int bad = 0;
    if (o->timing && *o->timing && strcmp(o->timing, "none")) {
        t->spec = dup_opt(o->timing, &bad);
    }
    t->config = dup_opt(o->timing_config, &bad);
    if (o->ntiming_set) {
        t->set = calloc(o->ntiming_set, sizeof(char *));
        bad |= !t->set;
        for (size_t k = 0; t->set && k < o->ntiming_set; k++) {
            if (!o->timing_set[k]) {
                rt_create_error("ptxemu_device_options: timing_set[%zu] is "
                                "NULL", k);
                rt_timing_free(t);
                return -1;
            }
            t->set[t->nset++] = dup_opt(o->timing_set[k], &bad);
        }
    }
    if (o->size >= offsetof(ptxemu_device_options, progress) +
                       sizeof(o->progress)) {
        if ((unsigned)o->progress > PTXEMU_PROGRESS_AUTO) {
            rt_create_error("ptxemu_device_options: progress %u is not a "
                            "ptxemu_progress", (unsigned)o->progress);
            rt_timing_free(t);
            return -1;
        }
        t->interval = o->stats_interval;
        t->csv = dup_opt(o->stats_csv, &bad);
        t->progress = o->progress;
    }
    if (!bad && t->interval && !t->spec) {
        rt_create_error("statistics per interval (stats_interval %llu) "
                        "need a timing model (--timing)",
                        (unsigned long long)t->interval);
        rt_timing_free(t);
        return -1;
    }
    if (bad) {
        rt_create_error("out of memory");
        rt_timing_free(t);
        return -1;
    }
    return 0;
}

void rt_timing_free(RtTiming *t)
{
    free(t->spec);
    free(t->config);
    for (size_t k = 0; k < t->nset; k++) {
        free(t->set[k]);
    }
    free(t->set);
    free(t->csv);
    memset(t, 0, sizeof(*t));
}

int rt_timing_observe(const RtTiming *t, TmSession *tm)
{
    if (t->interval) {
        char err[1024];
        const char *path = t->csv && *t->csv ? t->csv : RT_STATS_CSV_DEFAULT;
        TmIntervals *iv = tm_intervals_open(path, t->interval, err,
                                            sizeof err);
        if (!iv) {
            rt_create_error("--stats-csv %s", err);
            return -1;
        }
        tm_session_set_intervals(tm, iv);
    }
    if (t->progress != PTXEMU_PROGRESS_OFF) {
        bool tty = isatty(STDERR_FILENO) != 0;
        tm_session_set_progress(tm, t->progress == PTXEMU_PROGRESS_ON || tty,
                                tty);
    }
    return 0;
}

/* The parameters to list: those of an instance made on a device of the
 * default configuration with the configuration and overrides given (a
 * default for every other value), so that tables the model declares in
 * create (its components', declare_params, some chosen by a parameter)
 * are listed with its own; NULL and why when the model will not start
 * that way.  *dev and *s: what to free after printing (the tables' text
 * belongs to the model). */
static const TmParams *created_params(const char *timing, const char *config,
                                      const char *const *sets, size_t nsets,
                                      EmuDevice **dev, TmSession **s,
                                      char *why, size_t n)
{
    EmuConfig c;
    emu_config_default(&c);
    *s = NULL;
    *dev = emu_device_new(&c);
    if (!*dev) {
        tm_seterr(why, n, "out of memory");
        return NULL;
    }
    if (tm_session_open(*dev, timing, config, sets, nsets, s, why, n) != 0) {
        return NULL;
    }
    return tm_session_params(*s);
}

char *ptxemu_timing_help(const char *timing, char *err, size_t errlen)
{
    ptxemu_device_options o;
    ptxemu_device_options_default(&o);
    o.timing = timing;
    return ptxemu_timing_help_options(&o, err, errlen);
}

char *ptxemu_timing_help_options(const ptxemu_device_options *o, char *err,
                                 size_t errlen)
{
    RtTiming t;
    if (rt_timing_copy(&t, o) != 0) {
        tm_seterr(err, errlen, "%s", ptxemu_device_create_error());
        return NULL;
    }
    if (!t.spec) {
        tm_seterr(err, errlen, "no timing model named");
        rt_timing_free(&t);
        return NULL;
    }
    const char *timing = t.spec;
    TmLoaded l;
    if (tm_load(timing, &l, err, errlen)) {
        rt_timing_free(&t);
        return NULL;
    }
    TmParams *p = tm_params_new();
    char *buf = NULL;
    size_t len = 0;
    FILE *out = p ? open_memstream(&buf, &len) : NULL;
    if (!out) {
        tm_seterr(err, errlen, "out of memory");
        tm_params_free(p);
        tm_unload(&l);
        rt_timing_free(&t);
        return NULL;
    }
    /* A table the model declares is checked as a session would (a bad
     * default is the model's error, reported here too). */
    int rc = tm_params_declare(p, l.ops.params, l.ops.nparams, err, errlen);
    if (!rc) {
        fprintf(out, "timing model '%s'\n", l.ops.name);
        if (l.ops.help) {
            tm_print_wrapped(out, l.ops.help, 2);
        }
        EmuDevice *dev;
        TmSession *s;
        char why[512];
        const TmParams *all = created_params(
            timing, t.config, (const char *const *)t.set, t.nset, &dev, &s,
            why, sizeof(why));
        if (tm_params_count(all ? all : p)) {
            fprintf(out, "\nparameters (--timing-config FILE of "
                    "`key = value` lines, --timing-set key=value):\n");
            tm_params_print_help(all ? all : p, out);
        } else {
            fprintf(out, "\nno parameters\n");
        }
        if (!all) {
            fprintf(out, "\n(parameters the model declares when it "
                    "starts are not listed: it did not start: %s)\n", why);
        }
        if (s) {
            tm_session_close(s);
        }
        if (dev) {
            emu_device_free(dev);
        }
    }
    fclose(out);
    tm_params_free(p);
    tm_unload(&l);
    rt_timing_free(&t);
    if (rc) {
        free(buf);
        return NULL;
    }
    return buf;
}
