/*
 * bench/benchk.c: the bench kernels of bench/kernels (see benchk.h): each
 * runs on a caller-made device against a host-computed reference.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/benchk.h"

const char *bench_prog = "bench";
const char *bench_kdir = NULL;
double bench_scale = 1.0;

double bench_clk(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint32_t scaled(uint32_t base, uint32_t min)
{
    double v = (double)base * bench_scale;
    if (v < (double)min) {
        return min;
    }
    if (v > 4e9) {
        return 4000000000u;
    }
    return (uint32_t)v;
}


/* ------------------------------------------------------------ a run */


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

void bench_run_open(Run *r, const char *file, const char *kernel,
                    const ptxemu_device_options *o)
{
    memset(r, 0, sizeof(*r));
    CK(NULL, "device", ptxemu_device_create(o, &r->dev));
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", bench_kdir, file);
    CK(r->dev, path, ptxemu_module_load_file(r->dev, path, &r->mod));
    CK(r->dev, kernel, ptxemu_module_get_function(r->mod, kernel, &r->fn));
}

static void run_launch(Run *r, unsigned gx, unsigned bx, void **params)
{
    unsigned grid[3] = {gx, 1, 1}, block[3] = {bx, 1, 1};
    ptxemu_reset_stats(r->dev);
    double c0 = bench_clk(CLOCK_THREAD_CPUTIME_ID);
    double t0 = bench_clk(CLOCK_MONOTONIC);
    ptxemu_status s = ptxemu_launch(r->fn, grid, block, 0, params);
    double t1 = bench_clk(CLOCK_MONOTONIC);
    double c1 = bench_clk(CLOCK_THREAD_CPUTIME_ID);
    r->cpu = c1 - c0;
    if (s != PTXEMU_SUCCESS) {
        die_api(r->dev, "launch", s);
    }
    CK(r->dev, "synchronize", ptxemu_synchronize(r->dev));
    r->secs = t1 - t0;
    ptxemu_get_stats(r->dev, &r->st);
}

void bench_run_close(Run *r)
{
    ptxemu_device_destroy(r->dev);
    r->dev = NULL;
}

static ptxemu_devptr dalloc(Run *r, size_t bytes, const void *init)
{
    ptxemu_devptr p;
    CK(r->dev, "malloc", ptxemu_malloc(r->dev, bytes, &p));
    if (init) {
        CK(r->dev, "memcpy", ptxemu_memcpy_htod(r->dev, p, init, bytes));
    }
    return p;
}

static void dget(Run *r, void *dst, ptxemu_devptr src, size_t bytes)
{
    CK(r->dev, "memcpy", ptxemu_memcpy_dtoh(r->dev, dst, src, bytes));
}

static bool check_u32(const char *what, const uint32_t *got,
                      const uint32_t *want, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (got[i] != want[i]) {
            fprintf(stderr, "%s: %s: MISMATCH at %zu: got 0x%08x, "
                    "expected 0x%08x\n", bench_prog, what, i, got[i], want[i]);
            return false;
        }
    }
    return true;
}

static bool check_f32(const char *what, const float *got, const float *want,
                      size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (memcmp(&got[i], &want[i], sizeof(float)) != 0) {
            fprintf(stderr, "%s: %s: MISMATCH at %zu: got %.9g, "
                    "expected %.9g\n", bench_prog, what, i, (double)got[i],
                    (double)want[i]);
            return false;
        }
    }
    return true;
}

static uint32_t rng_state = 0x12345678u;

void bench_rng_reset(void)
{
    rng_state = 0x12345678u;
}

static uint32_t rng(void)
{
    uint32_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return rng_state = x;
}

/* ------------------------------------------------------------ kernels */


/* alu */
#define ALU_BLOCK 256u
static uint32_t alu_ctas(void) { return 16; }
static uint32_t alu_iters(void) { return scaled(12000, 4); }

static bool alu_run(Run *r)
{
    uint32_t n = alu_ctas() * ALU_BLOCK;
    int iters = (int)alu_iters();
    ptxemu_devptr out = dalloc(r, n * 4u, NULL);
    ptxemu_devptr fout = dalloc(r, n * 4u, NULL);
    void *params[] = {&out, &fout, &iters};
    run_launch(r, alu_ctas(), ALU_BLOCK, params);
    uint32_t *got = malloc(n * 4u), *want = malloc(n * 4u);
    float *fgot = malloc(n * 4u), *fwant = malloc(n * 4u);
    if (!got || !want || !fgot || !fwant) {
        abort();
    }
    dget(r, got, out, n * 4u);
    dget(r, fgot, fout, n * 4u);
    for (uint32_t t = 0; t < n; t++) {
        uint32_t a = t, b = t * 2654435761u + 1u, c = 12345u;
        float x = (float)(t & 255) * 0.25f, y = 1.0f;
        for (int i = 0; i < iters; i++) {
            a = a * 1664525u + 1013904223u;
            b ^= b << 13;
            b ^= b >> 17;
            b ^= b << 5;
            c += (a >> 7) & 0xffu;
            x = fmaf(x, 0.999f, 0.5f);
            y = fmaf(y, 0.5f, 0.25f);     /* nvcc contracts y*0.5f+0.25f */
        }
        want[t] = a ^ b ^ c;
        volatile float s = x + y;
        fwant[t] = s;
    }
    bool ok = check_u32("alu (integer)", got, want, n) &&
              check_f32("alu (float)", fgot, fwant, n);
    free(got);
    free(want);
    free(fgot);
    free(fwant);
    return ok;
}

/* saxpy */
static uint32_t mem_n(void) { return scaled(12u << 20, 1024); }

static bool mem_run(Run *r)
{
    uint32_t n = mem_n();
    float *x = calloc(n, 4), *y = calloc(n, 4);
    float *got = malloc((size_t)n * 4);
    if (!x || !y || !got) {
        abort();
    }
    for (uint32_t i = 0; i < n; i++) {
        x[i] = (float)(rng() & 0xffff) * (1.0f / 256.0f) - 100.0f;
        y[i] = (float)(rng() & 0xfff) * 0.125f;
    }
    ptxemu_devptr dy = dalloc(r, (size_t)n * 4, y);
    ptxemu_devptr dx = dalloc(r, (size_t)n * 4, x);
    float a = 2.5f;
    int ni = (int)n;
    void *params[] = {&dy, &dx, &a, &ni};
    run_launch(r, 128, 256, params);
    dget(r, got, dy, (size_t)n * 4);
    for (uint32_t i = 0; i < n; i++) {
        y[i] = fmaf(a, x[i], y[i]);
    }
    bool ok = check_f32("saxpy", got, y, n);
    free(x);
    free(y);
    free(got);
    return ok;
}

/* diverge */
#define DIV_BLOCK 256u
static uint32_t div_ctas(void) { return 16; }
static uint32_t div_iters(void) { return scaled(4000, 4); }

static bool div_run(Run *r)
{
    uint32_t n = div_ctas() * DIV_BLOCK;
    int iters = (int)div_iters();
    uint32_t *in = malloc(n * 4u), *got = malloc(n * 4u);
    uint32_t *want = malloc(n * 4u);
    if (!in || !got || !want) {
        abort();
    }
    for (uint32_t i = 0; i < n; i++) {
        in[i] = rng();
    }
    ptxemu_devptr dout = dalloc(r, n * 4u, NULL);
    ptxemu_devptr din = dalloc(r, n * 4u, in);
    void *params[] = {&dout, &din, &iters};
    run_launch(r, div_ctas(), DIV_BLOCK, params);
    dget(r, got, dout, n * 4u);
    for (uint32_t t = 0; t < n; t++) {
        uint32_t v = in[t], acc = 0;
        for (int i = 0; i < iters; i++) {
            switch (v & 3u) {
            case 0: acc += v >> 3; break;
            case 1: acc ^= v * 7u; break;
            case 2: acc = acc * 3u + 1u; break;
            default:
                if (v & 4u) {
                    acc -= v;
                } else {
                    acc += 0x9e3779b9u;
                }
                break;
            }
            v = v * 1103515245u + 12345u;
            v ^= v >> 11;
        }
        want[t] = acc;
    }
    bool ok = check_u32("diverge", got, want, n);
    free(in);
    free(got);
    free(want);
    return ok;
}

/* histo */
static uint32_t histo_n(void) { return scaled(14u << 20, 1024); }

static bool histo_run(Run *r)
{
    uint32_t n = histo_n();
    uint8_t *data = malloc(n);
    if (!data) {
        abort();
    }
    for (uint32_t i = 0; i < n; i++) {
        /* skewed: many lanes of a warp hit the same bins */
        uint32_t v = rng();
        data[i] = (uint8_t)((v & 0x300) ? (v & 0x1f) : v);
    }
    uint32_t want[256] = {0}, want16[16] = {0}, got[256], got16[16];
    for (uint32_t i = 0; i < n; i++) {
        want[data[i]]++;
        want16[data[i] & 15]++;
    }
    ptxemu_devptr dh = dalloc(r, sizeof(got), NULL);
    ptxemu_devptr dh16 = dalloc(r, sizeof(got16), NULL);
    ptxemu_devptr dd = dalloc(r, n, data);
    int ni = (int)n;
    void *params[] = {&dh, &dh16, &dd, &ni};
    run_launch(r, 32, 256, params);
    dget(r, got, dh, sizeof(got));
    dget(r, got16, dh16, sizeof(got16));
    free(data);
    return check_u32("histo (shared)", got, want, 256) &&
           check_u32("histo (global)", got16, want16, 16);
}

const Bench bench_kernels[] = {
    {"alu", "alu.ptx", "alu", "ALU-bound: int+float loop", alu_run},
    {"mem", "mem.ptx", "saxpy", "memory-bound: saxpy", mem_run},
    {"diverge", "diverge.ptx", "diverge", "divergent branches", div_run},
    {"atomic", "atomic.ptx", "histo", "atomics: histogram", histo_run},
};
const size_t bench_nkernels = sizeof(bench_kernels) / sizeof(bench_kernels[0]);

static bool dir_has_kernels(const char *d)
{
    char p[4096];
    snprintf(p, sizeof(p), "%s/alu.ptx", d);
    return access(p, R_OK) == 0;
}


const char *bench_find_kdir(const char *argv0, const char *given)
{
    static char buf[4096];
    const char *d = given;
    if (!d) {
        if (dir_has_kernels("bench/kernels")) {
            d = "bench/kernels";
        } else {
            const char *sl = strrchr(argv0, '/');
            int len = sl ? (int)(sl - argv0) : 1;
            snprintf(buf, sizeof(buf), "%.*s/kernels", len, sl ? argv0 : ".");
            d = buf;
        }
    }
    if (!dir_has_kernels(d)) {
        fprintf(stderr, "%s: no kernels in %s (use --dir)\n", bench_prog, d);
        return NULL;
    }
    bench_kdir = d;
    return d;
}
