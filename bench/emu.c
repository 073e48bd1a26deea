/*
 * bench/emu.c: emulator throughput benchmarks.
 *
 * The four kernels of bench/benchk.h (alu, mem, diverge, atomic).
 *
 * Each kernel runs through the public API (runtime/ptxemu.h) on a device
 * without statistics (the fast path) and, unless --no-stats, again on a
 * device with collect_stats (the statistics client: per-step records).
 * Both runs are checked against a host-computed reference; any mismatch
 * makes the program exit with status 1.  Only the launch is timed
 * (CLOCK_MONOTONIC).
 *
 * Printed per kernel: warp instructions, thread instructions (sum over
 * lanes of the executed mask: guard applied; the active-mask sum too),
 * seconds (wall; CPU of the launching thread, cpu-s; CPU of every thread
 * of the process during the launch, pcpu-s: a run without clients may
 * spread CTAs over host threads, emu/pool.h, one with a checker does
 * not, so --tool costs compare by pcpu-s),
 * thread-instructions/s and warp-instructions/s.  The counts are
 * machine-independent; they come from the statistics run (the fast run
 * only knows warp instructions).
 *
 * Usage: bench/emu [--dir DIR] [--scale F] [--no-stats] [--only NAME]
 *                  [--repeat N] [--noop-client] [--tool LIST]
 *   DIR defaults to bench/kernels, then <dir of argv[0]>/kernels.
 *   F scales the work of every kernel (default 1.0, about 1-3 s each on
 *   one core).  --repeat N keeps the best of N timed fast launches.
 *   --noop-client: the fast run ("noop" in the hook column) has an
 *   emulator client attached (emu/client.h) that watches every state
 *   space and every event and does nothing: the cost of the client
 *   interface itself.
 *   --tool LIST: the fast run ("tool" in the hook column) has the
 *   checkers of `ptxemu sanitize` attached (runtime/sanitize.h; their
 *   summary goes to stderr, and an error fails the run): their cost.
 *   --threads N: instead of the table, the speed-up curve of the fast
 *   run on 1, 2, 4, ... and N host threads (emu/pool.h): wall seconds
 *   (best of --repeat), the speed-up over one thread, the parallel
 *   efficiency (speed-up / threads), the CPU seconds of all the
 *   launch's threads and of the launching one; every run checked as
 *   above.
 *   --launches N: the cost of a launch itself: N launches of vecadd on
 *   a tiny grid (4 CTAs of 32 threads), on 1 host thread and on 2 (or
 *   --threads), the microseconds per launch (best of --repeat) and the
 *   result checked against the host's sum.
 *   --fast: --threads and --launches runs in --fast mode (global atomics
 *   in the order the host threads reach them) instead of the default
 *   deterministic one (in CTA order; README, "Parallel simulation").
 */
#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/benchk.h"
#include "emu/client.h"
#include "runtime/api_emu.h"
#include "runtime/sanitize.h"
#include "runtime/ptxemu.h"

/* A run through the public API (runtime/ptxemu.h). */
typedef struct Run {
    ptxemu_device *dev;
    ptxemu_module *mod;
    ptxemu_function *fn;
    double secs;                  /* wall (CLOCK_MONOTONIC) */
    double cpu;                   /* CLOCK_THREAD_CPUTIME_ID */
    double pcpu;                  /* CLOCK_PROCESS_CPUTIME_ID: every
                                     host thread of the launch */
    ptxemu_stats st;
} Run;

static void die_api(ptxemu_device *dev, const char *what, ptxemu_status s)
{
    fprintf(stderr, "%s: %s: %s\n%s\n", bench_prog, what,
            ptxemu_status_string(s),
            dev ? ptxemu_last_error_message(dev) : "");
    exit(2);
}

#define CK(dev, what, call)                                                 \
    do {                                                                    \
        ptxemu_status ck_s = (call);                                        \
        if (ck_s != PTXEMU_SUCCESS) {                                       \
            die_api((dev), (what), ck_s);                                   \
        }                                                                   \
    } while (0)

static void run_open(Run *r, const char *file, const char *kernel,
                    const ptxemu_device_options *o)
{
    memset(r, 0, sizeof(*r));
    CK(NULL, "device", ptxemu_device_create(o, &r->dev));
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", bench_kdir, file);
    CK(r->dev, path, ptxemu_module_load_file(r->dev, path, &r->mod));
    CK(r->dev, kernel, ptxemu_module_get_function(r->mod, kernel, &r->fn));
}

static void run_launch(void *ctx, unsigned gx, unsigned bx, void **params)
{
    Run *r = ctx;
    unsigned grid[3] = {gx, 1, 1}, block[3] = {bx, 1, 1};
    ptxemu_reset_stats(r->dev);
    double p0 = bench_clk(CLOCK_PROCESS_CPUTIME_ID);
    double c0 = bench_clk(CLOCK_THREAD_CPUTIME_ID);
    double t0 = bench_clk(CLOCK_MONOTONIC);
    ptxemu_status s = ptxemu_launch(r->fn, grid, block, 0, params);
    double t1 = bench_clk(CLOCK_MONOTONIC);
    double c1 = bench_clk(CLOCK_THREAD_CPUTIME_ID);
    double p1 = bench_clk(CLOCK_PROCESS_CPUTIME_ID);
    r->cpu = c1 - c0;
    r->pcpu = p1 - p0;
    if (s != PTXEMU_SUCCESS) {
        die_api(r->dev, "launch", s);
    }
    CK(r->dev, "synchronize", ptxemu_synchronize(r->dev));
    r->secs = t1 - t0;
    ptxemu_get_stats(r->dev, &r->st);
}

static void run_close(Run *r)
{
    ptxemu_device_destroy(r->dev);
    r->dev = NULL;
}

static uint64_t io_alloc(void *ctx, size_t bytes)
{
    Run *r = ctx;
    ptxemu_devptr p;
    CK(r->dev, "malloc", ptxemu_malloc(r->dev, bytes, &p));
    return p;
}

static void io_htod(void *ctx, uint64_t dst, const void *src, size_t bytes)
{
    Run *r = ctx;
    CK(r->dev, "memcpy", ptxemu_memcpy_htod(r->dev, dst, src, bytes));
}

static void io_dtoh(void *ctx, void *dst, uint64_t src, size_t bytes)
{
    Run *r = ctx;
    CK(r->dev, "memcpy", ptxemu_memcpy_dtoh(r->dev, dst, src, bytes));
}

/* ------------------------------------------------------------ main */

/* A client that watches everything but steps and does nothing. */
static void attach_noop(ptxemu_device *dev)
{
    EmuClient c;
    emu_client_noop(&c);
    char why[160];
    if (emu_client_attach(rt_device_emu(dev), &c, why, sizeof(why)) < 0) {
        fprintf(stderr, "bench/emu: %s\n", why);
        exit(1);
    }
}

static void usage(void)
{
    fprintf(stderr, "usage: bench/emu [--dir DIR] [--scale F] [--no-stats] "
            "[--only NAME] [--repeat N] [--noop-client] [--tool LIST] "
            "[--threads N] [--launches N] [--fast]\n");
    exit(2);
}

static int fast_mode;          /* --fast (ptxemu_device_options.fast) */

/* Kernel k's fast run on t host threads: the best wall seconds of
 * `repeat` (*cpu: that run's CPU seconds over all threads); *ok false on
 * a wrong result. */
static double wall_on(const Bench *k, unsigned t, int repeat, double *cpu,
                      double *own, bool *ok)
{
    double best = 0;
    for (int rep = 0; rep < repeat; rep++) {
        Run r;
        bench_rng_reset();
        ptxemu_device_options o;
        ptxemu_device_options_default(&o);
        o.threads = t;
        o.fast = fast_mode;
        run_open(&r, k->file, k->kernel, &o);
        const BenchIo io = {&r, io_alloc, io_htod, io_dtoh, run_launch};
        if (!k->run(&io)) {
            *ok = false;
        }
        run_close(&r);
        if (rep == 0 || r.secs < best) {
            best = r.secs;
            *cpu = r.pcpu;
            *own = r.cpu;
        }
    }
    return best;
}

/* --launches N: microseconds per launch of a tiny grid on t threads
 * (the best of `repeat` batches); *ok false on a wrong sum. */
#define TINY_CTAS 4u
#define TINY_BLOCK 32u
static double tiny_us(unsigned t, unsigned launches, int repeat, bool *ok)
{
    enum { N = TINY_CTAS * TINY_BLOCK };
    float a[N], b[N], got[N];
    for (unsigned i = 0; i < N; i++) {
        a[i] = (float)i * 0.5f;
        b[i] = 3.0f - (float)i;
    }
    ptxemu_device_options o;
    ptxemu_device_options_default(&o);
    o.threads = t;
    o.fast = fast_mode;
    Run r;
    run_open(&r, "vecadd.ptx", "vecadd", &o);
    uint64_t dc = io_alloc(&r, sizeof(got)), da = io_alloc(&r, sizeof(a));
    uint64_t db = io_alloc(&r, sizeof(b));
    io_htod(&r, da, a, sizeof(a));
    io_htod(&r, db, b, sizeof(b));
    int n = N;
    void *params[] = {&dc, &da, &db, &n};
    unsigned grid[3] = {TINY_CTAS, 1, 1}, block[3] = {TINY_BLOCK, 1, 1};
    double best = 0;
    for (int rep = 0; rep < repeat; rep++) {
        double t0 = bench_clk(CLOCK_MONOTONIC);
        for (unsigned k = 0; k < launches; k++) {
            CK(r.dev, "launch", ptxemu_launch(r.fn, grid, block, 0, params));
        }
        CK(r.dev, "synchronize", ptxemu_synchronize(r.dev));
        double us = (bench_clk(CLOCK_MONOTONIC) - t0) * 1e6 / launches;
        if (rep == 0 || us < best) {
            best = us;
        }
    }
    io_dtoh(&r, got, dc, sizeof(got));
    for (unsigned i = 0; i < N; i++) {
        if (got[i] != a[i] + b[i]) {    /* one rounding: exact */
            *ok = false;
        }
    }
    run_close(&r);
    return best;
}

static bool launch_cost(unsigned launches, unsigned threads, int repeat)
{
    bool ok = true;
    printf("%7s %9s %12s\n", "threads", "launches", "us/launch");
    unsigned ts[2] = {1, threads > 1 ? threads : 2};
    for (int i = 0; i < 2; i++) {
        double us = tiny_us(ts[i], launches, repeat, &ok);
        printf("%7u %9u %12.1f\n", ts[i], launches, us);
    }
    printf("vecadd on %u CTAs of %u threads, best of %d batches; on a "
           "shared machine the figures vary\n", TINY_CTAS, TINY_BLOCK,
           repeat);
    return ok;
}

/* --threads N: the speed-up curve of every kernel. */
static bool curve(unsigned max, int repeat, const char *only)
{
    bool ok = true;
    printf("%-8s %7s %9s %9s %10s %9s %11s\n", "kernel", "threads",
           "wall-s", "speed-up", "efficiency", "cpu-s", "caller-cpu-s");
    for (size_t b = 0; b < bench_nkernels; b++) {
        const Bench *k = &bench_kernels[b];
        if (only && strcmp(only, k->name)) {
            continue;
        }
        double one = 0;
        for (unsigned t = 1; t <= max; t = t * 2 > max && t < max ? max
                                                                  : t * 2) {
            double cpu = 0, own = 0;
            double w = wall_on(k, t, repeat, &cpu, &own, &ok);
            if (t == 1) {
                one = w;
            }
            double up = w > 0 ? one / w : 0;
            printf("%-8s %7u %9.3f %8.2fx %9.0f%% %9.3f %11.3f\n", k->name,
                   t, w, up, 100.0 * up / t, cpu, own);
            fflush(stdout);
        }
    }
    printf("wall seconds of the launch, best of %d; cpu-s: CPU seconds of "
           "all its host threads (the parallel overhead), caller-cpu-s: "
           "those of the launching thread (its share of the work); on a "
           "shared machine the wall figures vary\n", repeat);
    return ok;
}

int main(int argc, char **argv)
{
    const char *kdir = NULL;
    bool stats = true, noop = false;
    RtSanOptions so = { .out = stderr };
    const char *only = NULL;
    int repeat = 1;
    unsigned threads = 0, launches = 0;
    for (int i = 1; i < argc; i++) {
        int c = bench_common_arg(argc, argv, &i, &kdir, &only);
        if (c < 0) {
            usage();
        } else if (c > 0) {
            continue;
        } else if (!strcmp(argv[i], "--no-stats")) {
            stats = false;
        } else if (!strcmp(argv[i], "--noop-client")) {
            noop = true;
        } else if (!strcmp(argv[i], "--tool") && i + 1 < argc) {
            if (!rt_sanitize_tools(argv[++i], &so.tools)) {
                usage();
            }
        } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            int t = atoi(argv[++i]);
            if (t < 1 || t > 1024) {
                usage();
            }
            threads = (unsigned)t;
        } else if (!strcmp(argv[i], "--fast")) {
            fast_mode = 1;
        } else if (!strcmp(argv[i], "--launches") && i + 1 < argc) {
            long n = atol(argv[++i]);
            if (n < 1 || n > 10000000) {
                usage();
            }
            launches = (unsigned)n;
        } else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
            repeat = atoi(argv[++i]);
            if (repeat < 1) {
                usage();
            }
        } else {
            usage();
        }
    }
    bench_prog = "bench/emu";
    if (!bench_find_kdir(argv[0], kdir)) {
        return 2;
    }
    if (launches) {
        if (!launch_cost(launches, threads, repeat)) {
            fprintf(stderr, "bench/emu: FAILED: wrong results\n");
            return 1;
        }
        printf("all results match the host references\n");
        return 0;
    }
    if (threads) {
        if (!curve(threads, repeat, only)) {
            fprintf(stderr, "bench/emu: FAILED: wrong results\n");
            return 1;
        }
        printf("all results match the host references\n");
        return 0;
    }
    bool all_ok = true;
    printf("%-8s %-4s %12s %13s %13s %7s %7s %7s %14s %13s\n", "kernel",
           "hook", "warp-insns", "thread-insns", "active-lanes", "wall-s",
           "cpu-s", "pcpu-s", "thread-insn/s", "warp-insn/s");
    for (size_t b = 0; b < bench_nkernels; b++) {
        const Bench *k = &bench_kernels[b];
        if (only && strcmp(only, k->name)) {
            continue;
        }
        /* mode 0: fast path (no statistics); mode 1: the step hook.  The
         * hook run gives the machine-independent thread counts. */
        Run best[2];
        bool have[2] = {false, false};
        for (int mode = 0; mode < (stats ? 2 : 1); mode++) {
            for (int rep = 0; rep < repeat; rep++) {
                Run r;
                bench_rng_reset();
                ptxemu_device_options o;
                ptxemu_device_options_default(&o);
                o.collect_stats = mode == 1;
                run_open(&r, k->file, k->kernel, &o);
                if (noop && mode == 0) {
                    attach_noop(r.dev);
                }
                RtSanitize *san = NULL;
                char why[128];
                if (so.tools && mode == 0 &&
                    !(san = rt_sanitize_start(r.dev, &so, why,
                                              sizeof(why)))) {
                    fprintf(stderr, "bench/emu: %s\n", why);
                    exit(1);
                }
                const BenchIo io = {&r, io_alloc, io_htod, io_dtoh,
                                    run_launch};
                if (!k->run(&io)) {
                    all_ok = false;
                }
                if (san && rt_sanitize_finish(san)) {
                    all_ok = false;
                }
                run_close(&r);
                if (!have[mode] || r.cpu < best[mode].cpu) {
                    best[mode] = r;
                    have[mode] = true;
                }
            }
        }
        uint64_t thr = 0, act = 0;
        bool have_thr = stats && (best[1].st.collected & PTXEMU_STATS_STEPS);
        if (have_thr) {
            thr = best[1].st.thread_insns_executed;
            act = best[1].st.thread_insns;
            if (best[1].st.warp_insns != best[0].st.warp_insns) {
                fprintf(stderr, "bench/emu: %s: warp instructions differ "
                        "with the hook (%" PRIu64 ") and without (%" PRIu64
                        ")\n", k->name, best[1].st.warp_insns,
                        best[0].st.warp_insns);
                all_ok = false;
            }
        }
        for (int mode = 0; mode < (stats ? 2 : 1); mode++) {
            const Run *r = &best[mode];
            char tb[32] = "n/a", ab[32] = "n/a", tr[32] = "n/a";
            if (have_thr) {
                snprintf(tb, sizeof(tb), "%" PRIu64, thr);
                snprintf(ab, sizeof(ab), "%" PRIu64, act);
                snprintf(tr, sizeof(tr), "%.1fM", (double)thr / r->cpu / 1e6);
            }
            printf("%-8s %-4s %12" PRIu64 " %13s %13s %7.3f %7.3f %7.3f %14s "
                   "%12.2fM\n", k->name,
                   mode ? "on" : so.tools ? "tool" : noop ? "noop" : "off",
                   r->st.warp_insns, tb, ab, r->secs, r->cpu, r->pcpu, tr,
                   (double)r->st.warp_insns / r->cpu / 1e6);
        }
        if (have_thr) {
            const ptxemu_stats *s = &best[1].st;
            printf("%-8s branches %" PRIu64 " (divergent %" PRIu64 "), "
                   "global accesses %" PRIu64 ", shared %" PRIu64 ", atomics "
                   "%" PRIu64 " (lanes %" PRIu64 "), barriers %" PRIu64 "\n",
                   "", s->branches, s->divergent_branches,
                   s->mem_accesses[PTXEMU_SPACE_GLOBAL],
                   s->mem_accesses[PTXEMU_SPACE_SHARED], s->atomics,
                   s->atomic_accesses, s->barriers);
        }
        fflush(stdout);
    }
    printf("rates are per CPU second of the launching thread (best of %d); "
           "pcpu-s: of every host thread (compare --tool by it); "
           "thread-insns: lanes that executed (guard applied)\n", repeat);
    if (!all_ok) {
        fprintf(stderr, "bench/emu: FAILED: wrong results\n");
        return 1;
    }
    printf("all results match the host references\n");
    return 0;
}
