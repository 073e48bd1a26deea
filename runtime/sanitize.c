/*
 * runtime/sanitize.c: a sanitizer session (see sanitize.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "check/apierr.h"
#include "check/initcheck.h"
#include "check/memcheck.h"
#include "check/racecheck.h"
#include "check/synccheck.h"
#include "check/report.h"
#include "runtime/api_emu.h"
#include "runtime/sanitize.h"

static const char *const tool_names[RT_SAN_NTOOLS] = {
    "memcheck", "racecheck", "initcheck", "synccheck",
};

struct RtSanitize {
    ptxemu_device *dev;
    RtSanOptions opt;
    SanOut out;
    SanMemcheck *mc;
    SanRacecheck *rc;
    SanInitcheck *ic;
    SanSynccheck *sc;
};

bool rt_sanitize_tools(const char *list, unsigned *mask)
{
    *mask = 0;
    const char *p = list;
    while (p && *p) {
        size_t len = strcspn(p, ",");
        unsigned k = 0;
        while (k < RT_SAN_NTOOLS && (strlen(tool_names[k]) != len ||
                                     strncmp(tool_names[k], p, len))) {
            k++;
        }
        if (k == RT_SAN_NTOOLS || (*mask >> k & 1u)) {
            return false;
        }
        *mask |= 1u << k;
        p += len;
        if (*p == ',' && !*++p) {
            return false;             /* a trailing comma */
        }
    }
    return *mask != 0;
}

static void on_fault(void *ctx, const EmuFault *f, const EmuModule *m)
{
    RtSanitize *s = ctx;
    if (s->mc) {
        san_memcheck_fault(s->mc, f, m);
    }
    if (s->sc) {
        san_synccheck_fault(s->sc, f, m);
    }
}

static void release(RtSanitize *s)
{
    if (s->mc || s->sc) {
        rt_set_fault_hook(s->dev, NULL, NULL);
    }
    san_memcheck_free(s->mc);
    san_racecheck_free(s->rc);
    san_initcheck_free(s->ic);
    san_synccheck_free(s->sc);
    free(s);
}

RtSanitize *rt_sanitize_start(ptxemu_device *d, const RtSanOptions *o,
                              char *why, size_t n)
{
    RtSanitize *s = calloc(1, sizeof(*s));
    if (!s) {
        snprintf(why, n, "out of memory");
        return NULL;
    }
    s->dev = d;
    s->opt = *o;
    san_out_init(&s->out, o->out, o->xml ? SAN_FMT_XML
                 : o->json ? SAN_FMT_JSON : SAN_FMT_TEXT, o->print_limit);
    EmuDevice *e = rt_device_emu(d);
    const char *failed = NULL;
    if (o->tools >> RT_SAN_MEMCHECK & 1u &&
        !(s->mc = san_memcheck_new_out(e, &s->out))) {
        failed = "memcheck";
    }
    if (!failed && o->tools >> RT_SAN_RACECHECK & 1u &&
        !(s->rc = san_racecheck_new(e, &s->out, o->race_analysis))) {
        failed = "racecheck";
    }
    if (!failed && o->tools >> RT_SAN_INITCHECK & 1u &&
        !(s->ic = san_initcheck_new(e, &s->out))) {
        failed = "initcheck";
    }
    if (!failed && o->tools >> RT_SAN_SYNCCHECK & 1u &&
        !(s->sc = san_synccheck_new(e, &s->out))) {
        failed = "synccheck";
    }
    if (s->sc) {
        san_synccheck_set_exited_lanes(s->sc, o->exited_lanes);
    }
    if (failed) {
        snprintf(why, n, "cannot start %s", failed);
        release(s);
        return NULL;
    }
    if (s->mc || s->sc) {
        rt_set_fault_hook(d, on_fault, s);
    }
    return s;
}

void rt_sanitize_bad_free(RtSanitize *s, uint64_t addr)
{
    if (s && s->mc) {
        san_memcheck_bad_free(s->mc, addr);
    }
}

void rt_sanitize_api_error(RtSanitize *s, const char *api, int code,
                           const char *name, const char *text)
{
    if (s && s->opt.api_errors) {
        san_api_error(&s->out, api, code, name, text);
    }
}

uint64_t rt_sanitize_finish(RtSanitize *s)
{
    if (s->mc) {
        san_memcheck_leak_filter(s->mc, s->opt.not_device);
        san_memcheck_finish(s->mc, s->opt.leak_check);
    }
    if (s->rc) {
        san_racecheck_finish(s->rc);
    }
    san_out_summary(&s->out);
    uint64_t errors = s->out.errors;
    release(s);
    return errors;
}
