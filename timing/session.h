/*
 * timing/session.h: a timing model attached to a device (timing/host.c).
 *
 *  - tm_session_open() loads a model (timing/tm.h: tm_load), reads its
 *    configuration (`--timing-config FILE`, then `--timing-set k=v`
 *    overrides), creates the instance and checks that every key given
 *    was declared.  Errors are one message in err; nothing is left open.
 *  - tm_session_attach() makes a launch run through the model
 *    (EmuLaunch.driver = tm_session_run, inherited by child grids).
 *  - After each timed kernel the session keeps its cycles and the
 *    model's counters (the deltas over the kernel) for --stats.
 * Device time (cycles) runs on across launches: each kernel begins at
 * the cycle the previous one ended.
 */
#ifndef PTXEMU_TIMING_SESSION_H
#define PTXEMU_TIMING_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "emu/exec.h"
#include "timing/tm.h"

typedef struct TmSession TmSession;
struct TmIntervals;               /* timing/intervals.h */

typedef struct TmKernelStats {
    char *name;
    uint64_t cycles;              /* the kernel's simulated cycles */
    uint64_t warp_insns;          /* warp instructions it executed */
    char *json;                   /* the model's counters, a JSON object */
} TmKernelStats;

int tm_session_open(EmuDevice *dev, const char *spec, const char *config,
                    const char *const *sets, size_t nsets, TmSession **out,
                    char *err, size_t errlen);
/* The same for a model linked into the program (tests, embedders):
 * ops as its init function filled them. */
int tm_session_open_ops(EmuDevice *dev, const ptxemu_tm_ops *ops,
                        const char *config, const char *const *sets,
                        size_t nsets, TmSession **out, char *err,
                        size_t errlen);
void tm_session_close(TmSession *s);
void tm_session_attach(TmSession *s, EmuLaunch *l);
/* Write the per-interval time series of every kernel's counters to iv
 * (timing/intervals.h); the session owns iv from now (NULL: none). */
void tm_session_set_intervals(TmSession *s, struct TmIntervals *iv);
/* The progress line on stderr (timing/progress.h), rewritten in place
 * when tty. */
void tm_session_set_progress(TmSession *s, bool on, bool tty);
/* The driver (EmuLaunch.driver). */
EmuStatus tm_session_run(void *ctx, EmuLaunch *l);

/* The model's error that failed the last launch (EMU_ERR_INVALID_VALUE
 * from tm_session_run), or NULL. */
const char *tm_session_error(const TmSession *s);
/* The timed kernels so far as one JSON object (no trailing newline):
 * model, clock, total cycles, warp instructions, IPC, and per kernel its
 * cycles, instructions, IPC and the model's counters. */
void tm_session_json(const TmSession *s, FILE *o);
size_t tm_session_kernels(const TmSession *s, const TmKernelStats **out);
const char *tm_session_model(const TmSession *s);
/* The session's parameters: the model's table and every table it
 * declared at create (declare_params), in declaration order
 * (--timing-help).  Valid until tm_session_close. */
const TmParams *tm_session_params(const TmSession *s);
uint64_t tm_session_now(const TmSession *s);   /* device cycles */
/* The same time in nanoseconds at the model's clock (%globaltimer, CUDA
 * events).  Any host thread may ask, also while another one runs a
 * launch: it gets the time of the launch's latest cycle. */
uint64_t tm_session_time_ns(const TmSession *s);
double tm_session_mhz(const TmSession *s);

#endif
