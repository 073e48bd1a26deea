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


/* A device buffer holding init, or zeros when init is NULL (written, as
 * a CUDA program must: cudaMalloc does not clear; `ptxemu sanitize
 * --tool initcheck` found the histograms read before this). */
static uint64_t dalloc(const BenchIo *io, size_t bytes, const void *init)
{
    uint64_t p = io->alloc(io->ctx, bytes);
    void *zero = init ? NULL : calloc(1, bytes ? bytes : 1);
    if (init || zero) {
        io->htod(io->ctx, p, init ? init : zero, bytes);
    }
    free(zero);
    return p;
}

static void dget(const BenchIo *io, void *dst, uint64_t src, size_t bytes)
{
    io->dtoh(io->ctx, dst, src, bytes);
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

static bool alu_run(const BenchIo *io)
{
    uint32_t n = alu_ctas() * ALU_BLOCK;
    int iters = (int)alu_iters();
    uint64_t out = dalloc(io, n * 4u, NULL);
    uint64_t fout = dalloc(io, n * 4u, NULL);
    void *params[] = {&out, &fout, &iters};
    io->launch(io->ctx, alu_ctas(), ALU_BLOCK, params);
    uint32_t *got = malloc(n * 4u), *want = malloc(n * 4u);
    float *fgot = malloc(n * 4u), *fwant = malloc(n * 4u);
    if (!got || !want || !fgot || !fwant) {
        abort();
    }
    dget(io, got, out, n * 4u);
    dget(io, fgot, fout, n * 4u);
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

static bool mem_run(const BenchIo *io)
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
    uint64_t dy = dalloc(io, (size_t)n * 4, y);
    uint64_t dx = dalloc(io, (size_t)n * 4, x);
    float a = 2.5f;
    int ni = (int)n;
    void *params[] = {&dy, &dx, &a, &ni};
    io->launch(io->ctx, 128, 256, params);
    dget(io, got, dy, (size_t)n * 4);
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

static bool div_run(const BenchIo *io)
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
    uint64_t dout = dalloc(io, n * 4u, NULL);
    uint64_t din = dalloc(io, n * 4u, in);
    void *params[] = {&dout, &din, &iters};
    io->launch(io->ctx, div_ctas(), DIV_BLOCK, params);
    dget(io, got, dout, n * 4u);
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

static bool histo_run(const BenchIo *io)
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
    uint64_t dh = dalloc(io, sizeof(got), NULL);
    uint64_t dh16 = dalloc(io, sizeof(got16), NULL);
    uint64_t dd = dalloc(io, n, data);
    int ni = (int)n;
    void *params[] = {&dh, &dh16, &dd, &ni};
    io->launch(io->ctx, 32, 256, params);
    dget(io, got, dh, sizeof(got));
    dget(io, got16, dh16, sizeof(got16));
    free(data);
    return check_u32("histo (shared)", got, want, 256) &&
           check_u32("histo (global)", got16, want16, 16);
}

/* vecadd: c = a + b (one rounding each: the host's sum is the same) */
static uint32_t vec_n(void) { return scaled(8u << 20, 1024); }

static bool vecadd_run(const BenchIo *io)
{
    uint32_t n = vec_n();
    float *a = malloc((size_t)n * 4), *b = malloc((size_t)n * 4);
    float *got = malloc((size_t)n * 4);
    if (!a || !b || !got) {
        abort();
    }
    for (uint32_t i = 0; i < n; i++) {
        a[i] = (float)(rng() & 0xffff) * (1.0f / 64.0f);
        b[i] = (float)(rng() & 0xffff) * (1.0f / 1024.0f) - 30.0f;
    }
    uint64_t dc = dalloc(io, (size_t)n * 4, NULL);
    uint64_t da = dalloc(io, (size_t)n * 4, a);
    uint64_t db = dalloc(io, (size_t)n * 4, b);
    int ni = (int)n;
    void *params[] = {&dc, &da, &db, &ni};
    io->launch(io->ctx, (n + 255) / 256, 256, params);
    dget(io, got, dc, (size_t)n * 4);
    for (uint32_t i = 0; i < n; i++) {
        a[i] = a[i] + b[i];
    }
    bool ok = check_f32("vecadd", got, a, n);
    free(a);
    free(b);
    free(got);
    return ok;
}

/* reduce: per-CTA partial sums (u32, exact) of a grid-stride share */
#define RED_CTAS 128u
#define RED_BLOCK 256u
static uint32_t red_n(void) { return scaled(8u << 20, 1024); }

static bool reduce_run(const BenchIo *io)
{
    uint32_t n = red_n();
    uint32_t *in = malloc((size_t)n * 4);
    uint32_t got[RED_CTAS], want[RED_CTAS] = {0};
    if (!in) {
        abort();
    }
    for (uint32_t i = 0; i < n; i++) {
        in[i] = rng();
        want[i / RED_BLOCK % RED_CTAS] += in[i]; /* i's CTA, grid-stride */
    }
    uint64_t dp = dalloc(io, sizeof got, NULL);
    uint64_t din = dalloc(io, (size_t)n * 4, in);
    int ni = (int)n;
    void *params[] = {&dp, &din, &ni};
    io->launch(io->ctx, RED_CTAS, RED_BLOCK, params);
    dget(io, got, dp, sizeof got);
    free(in);
    return check_u32("reduce", got, want, RED_CTAS);
}

/* matmul: n x n, n a multiple of 16 growing with the cube root of the
 * scale; entries k/4 for small k, so every product and sum is exact and
 * any order of the additions gives the host's value */
static uint32_t mm_n(void)
{
    double v = 512.0 * cbrt(bench_scale);
    uint32_t n = (uint32_t)(v / 16.0 + 0.5) * 16u;
    return n < 16 ? 16 : n > 2048 ? 2048 : n;
}

static bool matmul_run(const BenchIo *io)
{
    uint32_t n = mm_n();
    size_t nn = (size_t)n * n;
    float *a = malloc(nn * 4), *b = malloc(nn * 4), *got = malloc(nn * 4);
    float *want = malloc(nn * 4);
    if (!a || !b || !got || !want) {
        abort();
    }
    for (size_t i = 0; i < nn; i++) {
        a[i] = (float)(rng() & 7) * 0.25f;
        b[i] = (float)(rng() & 7) * 0.25f - 1.0f;
    }
    uint64_t dc = dalloc(io, nn * 4, NULL);
    uint64_t da = dalloc(io, nn * 4, a);
    uint64_t db = dalloc(io, nn * 4, b);
    int ni = (int)n;
    void *params[] = {&dc, &da, &db, &ni};
    io->launch(io->ctx, (n / 16) * (n / 16), 256, params);
    dget(io, got, dc, nn * 4);
    for (uint32_t r = 0; r < n; r++) {
        for (uint32_t c = 0; c < n; c++) {
            float sum = 0.0f;
            for (uint32_t k = 0; k < n; k++) {
                sum = fmaf(a[(size_t)r * n + k], b[(size_t)k * n + c], sum);
            }
            want[(size_t)r * n + c] = sum;
        }
    }
    bool ok = check_f32("matmul", got, want, nn);
    free(a);
    free(b);
    free(got);
    free(want);
    return ok;
}

const Bench bench_kernels[] = {
    {"alu", "alu.ptx", "alu", "ALU-bound: int+float loop", alu_run},
    {"mem", "mem.ptx", "saxpy", "memory-bound: saxpy", mem_run},
    {"diverge", "diverge.ptx", "diverge", "divergent branches", div_run},
    {"atomic", "atomic.ptx", "histo", "atomics: histogram", histo_run},
    {"vecadd", "vecadd.ptx", "vecadd", "streaming: c = a + b", vecadd_run},
    {"reduce", "reduce.ptx", "reduce", "shared-memory tree reduction",
     reduce_run},
    {"matmul", "matmul.ptx", "matmul", "16x16-tiled matrix multiply",
     matmul_run},
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

int bench_common_arg(int argc, char **argv, int *i, const char **kdir,
                     const char **only)
{
    const char *a = argv[*i];
    if (*i + 1 >= argc) {
        return 0;
    }
    if (!strcmp(a, "--dir")) {
        *kdir = argv[++*i];
    } else if (!strcmp(a, "--only")) {
        *only = argv[++*i];
    } else if (!strcmp(a, "--scale")) {
        bench_scale = atof(argv[++*i]);
        return bench_scale > 0 ? 1 : -1;
    } else {
        return 0;
    }
    return 1;
}
