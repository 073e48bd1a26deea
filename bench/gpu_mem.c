/*
 * bench/gpu_mem.c: how fast the `gpu` model's memory systems run
 * (timing/gpu/mem/), on their own, driven the way an SM's load/store
 * unit drives them: every core cycle advance(), then each SM offers a
 * request if it has fewer than --window outstanding; when no SM can
 * send, the loop jumps to next().
 *
 * Patterns: hit (each SM rereads 64 lines of its own: L1 hits after the
 * first pass), stream (each SM reads consecutive lines of its own
 * region: every request misses to DRAM), mix (3 of 4 requests hit, the
 * 4th streams).  Printed per pattern: requests, simulated core cycles,
 * CPU seconds (the process's: robust on a busy machine), requests and
 * core cycles per CPU second.
 *
 * Usage: bench/gpu_mem [--model hier] [--sms N] [--requests N]
 *                      [--window N] [--set KEY=VALUE]...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "timing/gpu/gpu_mem.h"
#include "timing/reghost.h"

typedef struct Run {
    uint32_t *out;              /* outstanding per SM */
    uint64_t done;
} Run;

static void on_done(void *ctx, uint32_t sm, uint64_t cookie, uint64_t cycle)
{
    Run *r = ctx;
    (void)cookie;
    (void)cycle;
    r->out[sm]--;
    r->done++;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t addr_of(const char *pat, uint32_t sm, uint64_t k)
{
    uint64_t base = (uint64_t)sm << 32;
    if (!strcmp(pat, "hit")) {
        return base + (k % 64) * GPU_LINE;
    }
    if (!strcmp(pat, "stream")) {
        return base + k * GPU_LINE;
    }
    return base + ((k % 4) == 3 ? (1u << 20) + k * GPU_LINE
                                : (k % 64) * GPU_LINE);
}

int main(int argc, char **argv)
{
    const char *model = "hier";
    uint32_t nsms = 80, window = 32;
    uint64_t nreq = 2000000;
    const char *sets[32];
    int nsets = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--model") && i + 1 < argc) {
            model = argv[++i];
        } else if (!strcmp(argv[i], "--sms") && i + 1 < argc) {
            nsms = (uint32_t)strtoul(argv[++i], NULL, 0);
        } else if (!strcmp(argv[i], "--requests") && i + 1 < argc) {
            nreq = strtoull(argv[++i], NULL, 0);
        } else if (!strcmp(argv[i], "--window") && i + 1 < argc) {
            window = (uint32_t)strtoul(argv[++i], NULL, 0);
        } else if (!strcmp(argv[i], "--set") && i + 1 < argc && nsets < 32) {
            sets[nsets++] = argv[++i];
        } else {
            fprintf(stderr, "usage: %s [--model NAME] [--sms N] "
                            "[--requests N] [--window N] [--set K=V]...\n",
                    argv[0]);
            return 2;
        }
    }
    const GpuMemOps *ops = gpu_mem_find(model);
    if (!ops || !nsms || !window) {
        fprintf(stderr, "%s: unknown memory system '%s' or bad sizes\n",
                argv[0], model);
        return 2;
    }
    printf("%-8s %10s %12s %8s %12s %12s\n", "pattern", "requests",
           "cycles", "cpu_s", "req/s", "cycles/s");
    static const char *const pats[] = {"hit", "stream", "mix"};
    for (size_t p = 0; p < sizeof pats / sizeof pats[0]; p++) {
        TmRegHost h;
        char err[256];
        if (tm_reghost_init(&h)) {
            return 1;
        }
        for (int i = 0; i < nsets; i++) {
            if (tm_params_set(h.p, sets[i], err, sizeof err)) {
                fprintf(stderr, "%s: %s\n", argv[0], err);
                return 2;
            }
        }
        Run r = {.out = calloc(nsms, sizeof(uint32_t))};
        uint64_t *next = calloc(nsms, sizeof(uint64_t));
        void *m = ops->create(&tm_reghost_api, &h, nsms, 1400.0, on_done,
                              &r);
        if (!m || !r.out || !next) {
            fprintf(stderr, "%s: %s\n", argv[0], m ? "out of memory" : h.err);
            return 1;
        }
        GpuMemKernel mk = {.carveout = -1};
        ops->kernel_begin(m, 0, &mk);
        uint64_t sent = 0, t = 0;
        double t0 = now_s();
        while (r.done < nreq) {
            ops->advance(m, t);
            bool any = false;
            for (uint32_t s = 0; s < nsms && sent < nreq; s++) {
                if (r.out[s] >= window) {
                    continue;
                }
                GpuMemReq q = {.addr = addr_of(pats[p], s, next[s]),
                               .size = 128, .sectors = 0xF,
                               .kind = GPU_MEM_READ,
                               .space = PTXEMU_TM_SPACE_GLOBAL, .sm = s,
                               .cookie = sent};
                if (ops->send(m, &q, t)) {
                    r.out[s]++;
                    next[s]++;
                    sent++;
                    any = true;
                }
            }
            uint64_t n = ops->next(m);
            t = any || n == GPU_NEVER || n <= t ? t + 1 : n;
        }
        double cpu = now_s() - t0;
        printf("%-8s %10llu %12llu %8.2f %12.3g %12.3g\n", pats[p],
               (unsigned long long)r.done, (unsigned long long)t, cpu,
               (double)r.done / cpu, (double)t / cpu);
        ops->destroy(m);
        free(r.out);
        free(next);
        tm_reghost_fini(&h);
    }
    return 0;
}
