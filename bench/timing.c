/*
 * bench/timing.c: how fast timed emulation runs.
 *
 * The kernels of bench/benchk.h run on the emulator twice: untimed (the
 * functional scheduler, `--timing none`) and through a timing model
 * (timing/session.h; default `simple`).  Both runs are checked against
 * the host references; any mismatch exits with status 1 (a model must
 * never change results).
 *
 * Printed per kernel and mode: warp instructions, thread instructions
 * (lanes that executed; from the built-in model's NAME.thread_insns
 * counter: `simple.thread_insns`, `gpu.thread_insns`), simulated cycles
 * and IPC (warp instructions per
 * cycle, whole device), the launch's wall and CPU seconds (the process's,
 * all threads: robust on a busy machine), and per CPU second: simulated
 * cycles, warp instructions and thread instructions; then the slowdown:
 * host CPU seconds per simulated second at the model's clock
 * (cycles / clock_mhz).  The untimed run shows the
 * functional emulator's own rate for comparison.
 *
 * Usage: bench/timing [--dir DIR] [--scale F] [--only NAME]
 *                     [--timing NAME|PATH.so] [--timing-config FILE]
 *                     [--timing-set KEY=VALUE]... [--no-untimed]
 *                     [--stats FILE] [--sms N] [--threads N [--repeat R]]
 *   F scales every kernel's work (default 0.1: the timed runs are
 *   slower than bench/emu's).  --stats appends each timed kernel's
 *   cycles and the model's counters (its JSON) to FILE, one line per
 *   launch, so that two builds' statistics can be compared
 *   (bench/timing_identity.sh).  --sms N: the device's SM count
 *   (default the emulator's, 108), e.g. 46 to compare with GPGPU-Sim's
 *   RTX 3070 configuration (--timing-config timing/configs/rtx3070.cfg).
 *
 * --threads N: instead of the table, the speed-up curve of the timed
 *   run on 1, 2, 4, ... and N host threads (the model steps its SMs in
 *   parallel: timing/gpu/gpu.c): wall seconds of the launch (best of
 *   --repeat R, default 1), speed-up over one thread, parallel
 *   efficiency (speed-up / threads) and CPU seconds of all threads.
 *   Every run is checked against the host references, and its cycles
 *   and the model's statistics JSON must be byte for byte those of one
 *   thread (exit status 1 otherwise).
 */
#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/benchk.h"
#include "emu/exec.h"
#include "emu/memory.h"
#include "ptx/ptx.h"
#include "timing/session.h"

#define MAX_SETS 64

typedef struct Run {
    EmuDevice *dev;
    EmuModule *mod;
    EmuFunc *fn;
    TmSession *tm;                /* NULL: untimed */
    double secs;                  /* wall time of the launch */
    double cpu;                   /* the process's CPU time in it */
    double own;                   /* the launching thread's */
    uint64_t warp_insns;
} Run;

static void die(const char *what, const char *msg)
{
    fprintf(stderr, "%s: %s: %s\n", bench_prog, what, msg);
    exit(2);
}

static void ck(const char *what, EmuStatus st)
{
    if (st != EMU_OK) {
        die(what, emu_status_name(st));
    }
}

static uint64_t io_alloc(void *ctx, size_t bytes)
{
    Run *r = ctx;
    uint64_t a = emu_mem_alloc(r->dev->mem, bytes, EMU_ALLOC_DEVICE, NULL);
    if (!a) {
        die("malloc", "out of device memory");
    }
    return a;
}

static void io_htod(void *ctx, uint64_t dst, const void *src, size_t bytes)
{
    ck("memcpy", emu_mem_write(((Run *)ctx)->dev->mem, dst, src, bytes));
}

static void io_dtoh(void *ctx, void *dst, uint64_t src, size_t bytes)
{
    ck("memcpy", emu_mem_read(((Run *)ctx)->dev->mem, src, dst, bytes));
}

static void io_launch(void *ctx, unsigned gx, unsigned bx, void **params)
{
    Run *r = ctx;
    uint32_t g[3] = {gx, 1, 1}, b[3] = {bx, 1, 1};
    EmuLaunch *l;
    ck("launch", emu_launch_begin(r->mod, r->fn, g, b, 0, params, &l));
    if (r->tm) {
        tm_session_attach(r->tm, l);
    }
    double c0 = bench_clk(CLOCK_PROCESS_CPUTIME_ID);
    double o0 = bench_clk(CLOCK_THREAD_CPUTIME_ID);
    double t0 = bench_clk(CLOCK_MONOTONIC);
    EmuStatus st = emu_launch_run(l);
    r->secs = bench_clk(CLOCK_MONOTONIC) - t0;
    r->cpu = bench_clk(CLOCK_PROCESS_CPUTIME_ID) - c0;
    r->own = bench_clk(CLOCK_THREAD_CPUTIME_ID) - o0;
    r->warp_insns = l->insns;
    emu_launch_end(l);
    if (st != EMU_OK) {
        const char *e = r->tm ? tm_session_error(r->tm) : NULL;
        die("launch", e ? e : emu_status_name(st));
    }
}

static unsigned run_threads = 1; /* host threads of the runs */
static uint32_t run_sms;          /* the device's SMs (0: default) */

static void run_open(Run *r, const Bench *k, const char *spec,
                     const char *config, const char *const *sets,
                     size_t nsets)
{
    memset(r, 0, sizeof(*r));
    EmuConfig c;
    emu_config_default(&c);
    c.threads = run_threads;
    if (run_sms) {
        c.num_sms = run_sms;
    }
    r->dev = emu_device_new(&c);
    if (!r->dev) {
        die("device", "cannot make one");
    }
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", bench_kdir, k->file);
    PtxDiag d;
    IrModule *ir = ptx_parse_file(path, &d, NULL);
    if (!ir) {
        die(path, d.buf ? d.buf : "invalid PTX");
    }
    ptx_diag_fini(&d);
    EmuStatus st = EMU_OK;
    char *msg = NULL;
    r->mod = emu_module_load(r->dev, ir, &st, &msg);
    if (!r->mod) {
        die(path, msg ? msg : emu_status_name(st));
    }
    r->fn = emu_module_kernel(r->mod, k->kernel);
    if (!r->fn) {
        die(path, "no such kernel");
    }
    if (spec) {
        char err[512];
        if (tm_session_open(r->dev, spec, config, sets, nsets, &r->tm, err,
                            sizeof(err)) != 0) {
            die("--timing", err);
        }
    }
}

static void run_close(Run *r)
{
    if (r->tm) {
        tm_session_close(r->tm);
    }
    emu_module_free(r->mod);
    emu_device_free(r->dev);
}

/* A counter of the model's JSON ("name": value), or -1. */
static int64_t json_counter(const char *json, const char *name)
{
    char key[128];
    snprintf(key, sizeof(key), "\"%s\":", name);
    const char *p = json ? strstr(json, key) : NULL;
    return p ? strtoll(p + strlen(key), NULL, 10) : -1;
}

static void usage(void)
{
    fprintf(stderr, "usage: bench/timing [--dir DIR] [--scale F] "
            "[--only NAME] [--timing NAME|PATH.so] [--timing-config FILE] "
            "[--timing-set KEY=VALUE]... [--no-untimed] [--stats FILE] "
            "[--sms N] [--threads N [--repeat R]]\n");
    exit(2);
}

/* One timed run of k on t host threads: *ok false on wrong results; the
 * statistics of its launches (malloc'd, one line each). */
static char *timed_run(const Bench *k, unsigned t, const char *spec,
                       const char *config, const char *const *sets,
                       size_t nsets, double *wall, double *cpu,
                       double *own, bool *ok)
{
    Run r;
    run_threads = t;
    bench_rng_reset();
    run_open(&r, k, spec, config, sets, nsets);
    const BenchIo io = {&r, io_alloc, io_htod, io_dtoh, io_launch};
    if (!k->run(&io)) {
        *ok = false;
    }
    *wall = r.secs;
    *cpu = r.cpu;
    *own = r.own;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    const TmKernelStats *ks;
    size_t n = tm_session_kernels(r.tm, &ks);
    for (size_t j = 0; f && j < n; j++) {
        fprintf(f, "%" PRIu64 " %s\n", ks[j].cycles,
                ks[j].json ? ks[j].json : "-");
    }
    if (f) {
        fclose(f);
    }
    run_close(&r);
    run_threads = 1;
    return buf;
}

/* --threads N: the speed-up curve of every kernel. */
static bool curve(unsigned max, int repeat, const char *only,
                  const char *spec, const char *config,
                  const char *const *sets, size_t nsets)
{
    bool ok = true;
    printf("%-8s %7s %9s %9s %10s %9s %12s %10s\n", "kernel", "threads",
           "wall-s", "speed-up", "efficiency", "cpu-s", "caller-cpu-s",
           "statistics");
    for (size_t b = 0; b < bench_nkernels; b++) {
        const Bench *k = &bench_kernels[b];
        if (only && strcmp(only, k->name)) {
            continue;
        }
        double one = 0;
        char *ref = NULL;
        for (unsigned t = 1; t <= max; t = t * 2 > max && t < max ? max
                                                                  : t * 2) {
            double best = 0, bcpu = 0, bown = 0;
            bool same = true;
            for (int i = 0; i < repeat; i++) {
                double w, c, o;
                char *st = timed_run(k, t, spec, config, sets, nsets, &w,
                                     &c, &o, &ok);
                if (!ref) {
                    ref = st; /* one thread's, the first run */
                } else {
                    same = same && st && !strcmp(st, ref);
                    free(st);
                }
                if (i == 0 || w < best) {
                    best = w;
                    bcpu = c;
                    bown = o;
                }
            }
            if (!same) {
                ok = false;
            }
            if (t == 1) {
                one = best;
            }
            double up = best > 0 ? one / best : 0;
            printf("%-8s %7u %9.3f %8.2fx %9.0f%% %9.3f %12.3f %10s\n",
                   k->name, t, best, up, 100.0 * up / t, bcpu, bown,
                   same ? "identical" : "DIFFER");
            fflush(stdout);
        }
        free(ref);
    }
    printf("wall seconds of the timed launch, best of %d; cpu-s: CPU "
           "seconds of all its host threads (the parallel overhead), "
           "caller-cpu-s: those of the launching thread (its share of the "
           "work, which bounds the speed-up on idle cores); statistics: "
           "cycles and every model counter against one thread's; on a "
           "shared machine the wall figures vary\n", repeat);
    return ok;
}

static void print_row(const Bench *k, const char *mode, const Run *r,
                      uint64_t cycles, int64_t thr, double mhz)
{
    char cyc[24] = "-", ipc[16] = "-", cps[16] = "-", slow[16] = "-";
    char tb[24] = "n/a", tps[16] = "n/a";
    if (r->tm) {
        snprintf(cyc, sizeof(cyc), "%" PRIu64, cycles);
        snprintf(ipc, sizeof(ipc), "%.2f",
                 cycles ? (double)r->warp_insns / (double)cycles : 0.0);
        snprintf(cps, sizeof(cps), "%.3fM", (double)cycles / r->cpu / 1e6);
        double sim_s = (double)cycles / (mhz * 1e6);
        snprintf(slow, sizeof(slow), "%.0fx", sim_s > 0 ? r->cpu / sim_s
                                                        : 0.0);
    }
    if (thr >= 0) {
        snprintf(tb, sizeof(tb), "%" PRId64, thr);
        snprintf(tps, sizeof(tps), "%.2fM", (double)thr / r->cpu / 1e6);
    }
    printf("%-8s %-7s %11" PRIu64 " %12s %11s %6s %7.3f %7.3f %9s %10.3fM "
           "%9s %9s\n", k->name, mode, r->warp_insns, tb, cyc, ipc, r->secs,
           r->cpu, cps, (double)r->warp_insns / r->cpu / 1e6, tps, slow);
}

int main(int argc, char **argv)
{
    const char *kdir = NULL, *only = NULL, *spec = "simple", *config = NULL;
    FILE *stats = NULL;
    const char *sets[MAX_SETS];
    size_t nsets = 0;
    bool untimed = true;
    unsigned threads = 0;
    int repeat = 1;
    bench_prog = "bench/timing";
    bench_scale = 0.1;
    for (int i = 1; i < argc; i++) {
        int c = bench_common_arg(argc, argv, &i, &kdir, &only);
        if (c < 0) {
            usage();
        } else if (c > 0) {
            continue;
        } else if (!strcmp(argv[i], "--timing") && i + 1 < argc) {
            spec = argv[++i];
        } else if (!strcmp(argv[i], "--timing-config") && i + 1 < argc) {
            config = argv[++i];
        } else if (!strcmp(argv[i], "--timing-set") && i + 1 < argc &&
                   nsets < MAX_SETS) {
            sets[nsets++] = argv[++i];
        } else if (!strcmp(argv[i], "--no-untimed")) {
            untimed = false;
        } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            long t = strtol(argv[++i], NULL, 10);
            if (t < 1 || t > 1024) {
                usage();
            }
            threads = (unsigned)t;
        } else if (!strcmp(argv[i], "--sms") && i + 1 < argc) {
            long n = strtol(argv[++i], NULL, 10);
            if (n < 1 || n > 1024) {
                usage();
            }
            run_sms = (uint32_t)n;
        } else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
            repeat = atoi(argv[++i]);
            if (repeat < 1) {
                usage();
            }
        } else if (!strcmp(argv[i], "--stats") && i + 1 < argc) {
            stats = fopen(argv[++i], "a");
            if (!stats) {
                die(argv[i], "cannot open");
            }
        } else {
            usage();
        }
    }
    if (!bench_find_kdir(argv[0], kdir)) {
        return 2;
    }
    if (threads) {
        if (!curve(threads, repeat, only, spec, config, sets, nsets)) {
            fprintf(stderr, "bench/timing: FAILED: wrong results or "
                    "statistics that differ from one thread's\n");
            return 1;
        }
        return 0;
    }
    bool all_ok = true;
    printf("%-8s %-7s %11s %12s %11s %6s %7s %7s %9s %11s %9s %9s\n",
           "kernel", "timing", "warp-insns", "thread-insns", "cycles", "IPC",
           "wall-s", "cpu-s", "cycles/s", "warp-insn/s", "thr-ins/s",
           "slowdown");
    for (size_t b = 0; b < bench_nkernels; b++) {
        const Bench *k = &bench_kernels[b];
        if (only && strcmp(only, k->name)) {
            continue;
        }
        for (int mode = untimed ? 0 : 1; mode < 2; mode++) {
            Run r;
            bench_rng_reset();
            run_open(&r, k, mode ? spec : NULL, config, sets, nsets);
            const BenchIo io = {&r, io_alloc, io_htod, io_dtoh, io_launch};
            if (!k->run(&io)) {
                all_ok = false;
            }
            uint64_t cycles = 0;
            int64_t thr = -1;
            double mhz = 1000.0;
            if (r.tm) {
                const TmKernelStats *ks;
                size_t n = tm_session_kernels(r.tm, &ks);
                if (n > 0) {
                    cycles = ks[n - 1].cycles;
                    /* a built-in model's counter: NAME.thread_insns */
                    char key[96];
                    snprintf(key, sizeof key, "%s.thread_insns",
                             strchr(spec, '/') ? "simple" : spec);
                    thr = json_counter(ks[n - 1].json, key);
                }
                for (size_t j = 0; stats && j < n; j++) {
                    fprintf(stats, "%s %zu %" PRIu64 " %s\n", k->name, j,
                            ks[j].cycles, ks[j].json ? ks[j].json : "-");
                }
                mhz = tm_session_mhz(r.tm);
            }
            print_row(k, mode ? spec : "none", &r, cycles, thr, mhz);
            fflush(stdout);
            run_close(&r);
        }
    }
    printf("rates are per CPU second of the process during the launch "
           "(all its threads); slowdown: host CPU seconds per simulated "
           "second at the model's clock\n");
    if (stats && fclose(stats) != 0) {
        die("--stats", "write error");
    }
    if (!all_ok) {
        fprintf(stderr, "bench/timing: FAILED: wrong results\n");
        return 1;
    }
    printf("all results match the host references\n");
    return 0;
}
