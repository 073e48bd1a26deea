/*
 * bench/hw/kernels.cu: a dozen common kernels, each checked against a
 * host reference and timed in SM cycles, the same way on a real GPU and
 * under `ptxemu exec --timing gpu`, for the hardware-versus-model
 * correlation (bench/hw/run.sh on the GPU, bench/hw/compare.sh after).
 *
 * Timing: CUDA events around `reps` back-to-back launches after one
 * warm-up launch; milliseconds per launch times the SM clock gives
 * cycles.  The SM clock is measured, not taken from the device
 * properties (a GPU runs below or above its rated clock): one thread
 * spins for a fixed number of %clock64 cycles and reads %globaltimer
 * (nanoseconds) around the spin (PTX ISA, "Special Registers": %clock64
 * counts the SM's cycles, %globaltimer nanoseconds).  Under ptxemu both
 * follow the timing model's clock (README: %globaltimer and CUDA
 * events read simulated time), so the same arithmetic gives the model's
 * cycles.  Each kernel's grid covers every SM several times.  The
 * events also time the gaps between back-to-back launches (a few
 * microseconds on recent GPUs; launch.latency under ptxemu), which weigh
 * most on the shortest kernels: compare those with care.
 *
 *   kernels [--reps N] [--only NAME] [--device]
 *
 * --device prints one line instead, `device,NAME,SMS,CC` (the device
 * name, its SM count and compute capability), for the run's record.
 * CSV (stdout): kernel,grid,block,reps,us_per_launch,clock_mhz,cycles,check
 *   check: "ok" when the result matches the host reference, else "bad"
 *   (the exit status is then 1).
 */
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "../micro/mb.h"

#define CK MB_CHECK

/* ---- the kernels ---- */

__global__ void k_vecadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}

__global__ void k_saxpy(float s, const float *x, const float *y,
                        float *out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += gridDim.x * blockDim.x) {
        out[i] = s * x[i] + y[i];
    }
}

/* tree reduction in shared memory, one partial sum per block */
__global__ void k_reduce_shared(const float *in, float *out, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x * 2 + t;
    float v = 0.0f;
    if (i < n) {
        v = in[i];
    }
    if (i + blockDim.x < n) {
        v += in[i + blockDim.x];
    }
    s[t] = v;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k) {
            s[t] += s[t + k];
        }
        __syncthreads();
    }
    if (t == 0) {
        out[blockIdx.x] = s[0];
    }
}

/* grid-stride sums reduced by warp shuffles, one atomicAdd per warp */
__global__ void k_reduce_shfl(const int *in, int *out, int n)
{
    int v = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += gridDim.x * blockDim.x) {
        v += in[i];
    }
    for (int o = 16; o > 0; o >>= 1) {
        v += __shfl_down_sync(0xffffffffu, v, o);
    }
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(out, v);
    }
}

__global__ void k_gemm_naive(const float *a, const float *b, float *c, int n)
{
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < n && col < n) {
        float acc = 0.0f;
        for (int k = 0; k < n; k++) {
            acc += a[r * n + k] * b[k * n + col];
        }
        c[r * n + col] = acc;
    }
}

#define TILE 16
__global__ void k_gemm_tiled(const float *a, const float *b, float *c, int n)
{
    __shared__ float as[TILE][TILE], bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int r = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < n; k0 += TILE) {
        as[ty][tx] = a[r * n + k0 + tx];
        bs[ty][tx] = b[(k0 + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++) {
            acc += as[ty][k] * bs[k][tx];
        }
        __syncthreads();
    }
    c[r * n + col] = acc;
}

#define RADIUS 3
__global__ void k_stencil1d(const float *in, float *out, int n)
{
    __shared__ float s[256 + 2 * RADIUS];
    int g = blockIdx.x * blockDim.x + threadIdx.x, l = threadIdx.x + RADIUS;
    s[l] = g < n ? in[g] : 0.0f;
    if (threadIdx.x < RADIUS) {
        int lo = g - RADIUS, hi = g + blockDim.x;
        s[l - RADIUS] = lo >= 0 ? in[lo] : 0.0f;
        s[l + blockDim.x] = hi < n ? in[hi] : 0.0f;
    }
    __syncthreads();
    if (g < n) {
        float v = 0.0f;
        for (int k = -RADIUS; k <= RADIUS; k++) {
            v += s[l + k];
        }
        out[g] = v;
    }
}

/* 5-point Jacobi step on an n x n grid, the border copied */
__global__ void k_stencil2d(const float *in, float *out, int n)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= n || y >= n) {
        return;
    }
    int i = y * n + x;
    if (x == 0 || y == 0 || x == n - 1 || y == n - 1) {
        out[i] = in[i];
    } else {
        out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - n] +
                         in[i + n]);
    }
}

__global__ void k_transpose_naive(const float *in, float *out, int n)
{
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    out[x * n + y] = in[y * n + x];
}

/* through a padded shared tile: both global accesses coalesced, no
 * bank conflicts (CUDA C++ Best Practices Guide, "Shared Memory") */
__global__ void k_transpose_tiled(const float *in, float *out, int n)
{
    __shared__ float t[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    t[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[y * n + x] = t[threadIdx.x][threadIdx.y];
}

/* 256 bins: per-block shared histogram, merged by global atomics */
__global__ void k_histogram(const unsigned char *in, unsigned *bins, int n)
{
    __shared__ unsigned h[256];
    h[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += gridDim.x * blockDim.x) {
        atomicAdd(&h[in[i]], 1u);
    }
    __syncthreads();
    atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}

/* inclusive scan of each 256-element block (Hillis-Steele) */
__global__ void k_scan_block(const int *in, int *out, int n)
{
    __shared__ int s[2][256];
    int t = threadIdx.x, g = blockIdx.x * blockDim.x + t, p = 0;
    s[0][t] = g < n ? in[g] : 0;
    __syncthreads();
    for (int o = 1; o < 256; o <<= 1) {
        s[1 - p][t] = s[p][t] + (t >= o ? s[p][t - o] : 0);
        p = 1 - p;
        __syncthreads();
    }
    if (g < n) {
        out[g] = s[p][t];
    }
}

/* a pointer chase per thread over a permutation: latency-bound */
__global__ void k_gather_chase(const int *next, int *out, int steps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int s = 0; s < steps; s++) {
        i = next[i];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = i;
}

/* calibration: one thread spins `cycles` clock64 cycles */
__global__ void k_calibrate(long long cycles, unsigned long long *ns,
                            long long *clk)
{
    unsigned long long g0, g1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
    long long c0 = clock64(), c1;
    do {
        c1 = clock64();
    } while (c1 - c0 < cycles);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
    *ns = g1 - g0;
    *clk = c1 - c0;
}

/* ---- host side ---- */

static unsigned rng = 12345u;
static unsigned next_rand()
{
    rng = rng * 1664525u + 1013904223u;
    return rng >> 8;
}

static void *dev(size_t bytes)
{
    void *p;
    CK(cudaMalloc(&p, bytes));
    CK(cudaMemset(p, 0, bytes));
    return p;
}

template <class T> static std::vector<T> down(const T *d, size_t n)
{
    std::vector<T> h(n);
    CK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

template <class T> static T *up(const std::vector<T> &h)
{
    T *d = (T *)dev(h.size() * sizeof(T));
    CK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

static std::vector<float> frand(size_t n)
{
    std::vector<float> v(n);
    for (auto &x : v) {
        x = (float)(next_rand() % 1000) / 500.0f - 1.0f;
    }
    return v;
}

/* Whether got is within tol (relative, absolute near 0) of want.  Put
 * as "within" so that a NaN from the device fails it: every comparison
 * with a NaN is false (IEEE 754), so "off by more than tol" would pass
 * one. */
static bool near(double got, double want, double tol)
{
    return std::fabs(got - want) <= tol * (1.0 + std::fabs(want));
}

static bool close_to(const std::vector<float> &got,
                     const std::vector<float> &want, float tol)
{
    for (size_t i = 0; i < want.size(); i++) {
        if (!near(got[i], want[i], tol)) {
            return false;
        }
    }
    return true;
}

struct Run {
    int reps;
    double mhz;
    const char *only;
    bool bad;
};

/* Time `launch` (which launches the kernel once); print its row.  The
 * result is checked after the warm-up launch alone (outputs that
 * accumulate, as the shuffle reduction's and the histogram's, start
 * from the zeros dev() leaves). */
template <class F>
static void timed(Run &r, const char *name, dim3 grid, dim3 block, F launch,
                  bool (*check)(void *), void *ctx)
{
    if (r.only && std::strcmp(r.only, name) != 0) {
        return;
    }
    launch(); /* warm-up, and the result checked */
    CK(cudaDeviceSynchronize());
    bool ok = check(ctx);
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaEventRecord(e0));
    for (int i = 0; i < r.reps; i++) {
        launch();
    }
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaGetLastError());
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    double us = ms * 1000.0 / r.reps;
    std::printf("%s,%u,%u,%d,%.3f,%.1f,%.0f,%s\n", name,
                grid.x * grid.y * grid.z, block.x * block.y * block.z, r.reps,
                us, r.mhz, us * r.mhz, ok ? "ok" : "bad");
    std::fflush(stdout);
    r.bad |= !ok;
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
}

static double calibrate()
{
    unsigned long long *ns = (unsigned long long *)dev(8);
    long long *clk = (long long *)dev(8);
    k_calibrate<<<1, 1>>>(1000, ns, clk); /* warm-up */
    k_calibrate<<<1, 1>>>(200000, ns, clk);
    CK(cudaDeviceSynchronize());
    double n = (double)down(ns, 1)[0], c = (double)down(clk, 1)[0];
    CK(cudaFree(ns));
    CK(cudaFree(clk));
    return n > 0 ? c * 1000.0 / n : 0.0;
}

/* Each check compares device results with a host computation. */
struct Vec3 {
    float *a, *b, *c;
    std::vector<float> ha, hb;
    int n;
};

static bool chk_vecadd(void *p)
{
    Vec3 *v = (Vec3 *)p;
    std::vector<float> want(v->n);
    for (int i = 0; i < v->n; i++) {
        want[i] = v->ha[i] + v->hb[i];
    }
    return close_to(down(v->c, v->n), want, 0.0f);
}

static bool chk_saxpy(void *p)
{
    Vec3 *v = (Vec3 *)p;
    std::vector<float> want(v->n);
    for (int i = 0; i < v->n; i++) {
        want[i] = 2.0f * v->ha[i] + v->hb[i];
    }
    return close_to(down(v->c, v->n), want, 1e-5f);
}

struct Red {
    float *in, *out;
    int *iin, *iout;
    std::vector<float> h;
    std::vector<int> hi;
    int n, blocks;
};

static bool chk_reduce_shared(void *p)
{
    Red *r = (Red *)p;
    std::vector<float> got = down(r->out, r->blocks);
    for (int b = 0; b < r->blocks; b++) {
        double want = 0;
        for (int i = b * 512; i < b * 512 + 512 && i < r->n; i++) {
            want += r->h[i];
        }
        if (!near(got[b], want, 1e-3)) {
            return false;
        }
    }
    return true;
}

static bool chk_reduce_shfl(void *p)
{
    Red *r = (Red *)p;
    long long want = 0;
    for (int x : r->hi) {
        want += x;
    }
    return down(r->iout, 1)[0] == (int)want;
}

struct Mat {
    float *a, *b, *c;
    std::vector<float> ha, hb;
    int n;
};

static bool chk_gemm(void *p)
{
    Mat *m = (Mat *)p;
    int n = m->n;
    std::vector<float> got = down(m->c, (size_t)n * n);
    for (int s = 0; s < 64; s++) { /* 64 sampled elements */
        int r = (int)(next_rand() % n), c = (int)(next_rand() % n);
        double want = 0;
        for (int k = 0; k < n; k++) {
            want += (double)m->ha[r * n + k] * m->hb[k * n + c];
        }
        if (!near(got[r * n + c], want, 1e-3)) {
            return false;
        }
    }
    return true;
}

static bool chk_stencil1d(void *p)
{
    Vec3 *v = (Vec3 *)p;
    std::vector<float> want(v->n);
    for (int i = 0; i < v->n; i++) {
        float s = 0;
        for (int k = -RADIUS; k <= RADIUS; k++) {
            s += i + k >= 0 && i + k < v->n ? v->ha[i + k] : 0.0f;
        }
        want[i] = s;
    }
    return close_to(down(v->c, v->n), want, 1e-5f);
}

static bool chk_stencil2d(void *p)
{
    Mat *m = (Mat *)p;
    int n = m->n;
    std::vector<float> got = down(m->c, (size_t)n * n), want(m->ha);
    for (int y = 1; y < n - 1; y++) {
        for (int x = 1; x < n - 1; x++) {
            int i = y * n + x;
            want[i] = 0.2f * (m->ha[i] + m->ha[i - 1] + m->ha[i + 1] +
                              m->ha[i - n] + m->ha[i + n]);
        }
    }
    return close_to(got, want, 1e-5f);
}

static bool chk_transpose(void *p)
{
    Mat *m = (Mat *)p;
    int n = m->n;
    std::vector<float> got = down(m->c, (size_t)n * n);
    for (int y = 0; y < n; y++) {
        for (int x = 0; x < n; x++) {
            if (got[x * n + y] != m->ha[y * n + x]) {
                return false;
            }
        }
    }
    return true;
}

struct Hist {
    unsigned char *in;
    unsigned *bins;
    std::vector<unsigned char> h;
    int n;
};

static bool chk_histogram(void *p)
{
    Hist *h = (Hist *)p;
    std::vector<unsigned> want(256, 0), got = down(h->bins, 256);
    for (unsigned char c : h->h) {
        want[c]++;
    }
    return got == want;
}

static bool chk_scan(void *p)
{
    Red *r = (Red *)p;
    std::vector<int> got = down(r->iout, r->n);
    int acc = 0;
    for (int i = 0; i < r->n; i++) {
        acc = (i % 256 == 0 ? 0 : acc) + r->hi[i];
        if (got[i] != acc) {
            return false;
        }
    }
    return true;
}

struct Chase {
    int *next, *out;
    std::vector<int> h;
    int n, steps;
};

static bool chk_chase(void *p)
{
    Chase *c = (Chase *)p;
    std::vector<int> got = down(c->out, c->n);
    for (int t = 0; t < c->n; t += 97) {
        int i = t;
        for (int s = 0; s < c->steps; s++) {
            i = c->h[i];
        }
        if (got[t] != i) {
            return false;
        }
    }
    return true;
}

int main(int argc, char **argv)
{
    Run r = {10, 0.0, nullptr, false};
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) {
            r.reps = std::atoi(argv[++i]);
        } else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) {
            r.only = argv[++i];
        } else if (!std::strcmp(argv[i], "--device")) {
            cudaDeviceProp p;
            CK(cudaGetDeviceProperties(&p, 0));
            std::printf("device,%s,%d,%d.%d\n", p.name, p.multiProcessorCount,
                        p.major, p.minor);
            return 0;
        } else {
            std::fprintf(stderr, "usage: %s [--reps N] [--only NAME] [--device]\n",
                         argv[0]);
            return 2;
        }
    }
    if (r.reps < 1) {
        r.reps = 1;
    }
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    r.mhz = calibrate();
    /* every kernel's grid covers each SM at least a few times */
    const int sms = prop.multiProcessorCount;
    std::printf("kernel,grid,block,reps,us_per_launch,clock_mhz,cycles,"
                "check\n");

    const int n = 1 << 20;
    Vec3 v = {(float *)dev(n * 4), (float *)dev(n * 4), (float *)dev(n * 4),
              frand(n), frand(n), n};
    CK(cudaMemcpy(v.a, v.ha.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(v.b, v.hb.data(), n * 4, cudaMemcpyHostToDevice));
    timed(r, "vecadd", dim3(n / 256), dim3(256),
          [&] { k_vecadd<<<n / 256, 256>>>(v.a, v.b, v.c, n); }, chk_vecadd,
          &v);

    {
        int g = sms * 8;
        timed(r, "saxpy", dim3(g), dim3(256),
              [&] { k_saxpy<<<g, 256>>>(2.0f, v.a, v.b, v.c, n); },
              chk_saxpy, &v);
    }

    Red rd;
    rd.n = n;
    rd.h = frand(n);
    rd.blocks = n / 512;
    rd.in = up(rd.h);
    rd.out = (float *)dev(rd.blocks * 4);
    timed(r, "reduce_shared", dim3(rd.blocks), dim3(256),
          [&] { k_reduce_shared<<<rd.blocks, 256>>>(rd.in, rd.out, n); },
          chk_reduce_shared, &rd);

    rd.hi.resize(n);
    for (auto &x : rd.hi) {
        x = (int)(next_rand() % 100);
    }
    rd.iin = up(rd.hi);
    rd.iout = (int *)dev(n * 4);
    {
        int g = sms * 8;
        timed(r, "reduce_shfl", dim3(g), dim3(256),
              [&] { k_reduce_shfl<<<g, 256>>>(rd.iin, rd.iout, n); },
              chk_reduce_shfl, &rd);
    }
    timed(r, "scan_block", dim3(n / 256), dim3(256),
          [&] { k_scan_block<<<n / 256, 256>>>(rd.iin, rd.iout, n); },
          chk_scan, &rd);

    const int mn = 256;
    Mat m = {nullptr, nullptr, nullptr, frand(mn * mn), frand(mn * mn), mn};
    m.a = up(m.ha);
    m.b = up(m.hb);
    m.c = (float *)dev(mn * mn * 4);
    dim3 mb(TILE, TILE), mg(mn / TILE, mn / TILE);
    timed(r, "gemm_naive", mg, mb,
          [&] { k_gemm_naive<<<mg, mb>>>(m.a, m.b, m.c, mn); }, chk_gemm, &m);
    timed(r, "gemm_tiled", mg, mb,
          [&] { k_gemm_tiled<<<mg, mb>>>(m.a, m.b, m.c, mn); }, chk_gemm, &m);

    timed(r, "stencil1d", dim3(n / 256), dim3(256),
          [&] { k_stencil1d<<<n / 256, 256>>>(v.a, v.c, n); }, chk_stencil1d,
          &v);

    const int sn = 512;
    Mat st = {nullptr, nullptr, nullptr, frand(sn * sn), {}, sn};
    st.a = up(st.ha);
    st.c = (float *)dev(sn * sn * 4);
    dim3 sg(sn / TILE, sn / TILE);
    timed(r, "stencil2d", sg, mb,
          [&] { k_stencil2d<<<sg, mb>>>(st.a, st.c, sn); }, chk_stencil2d,
          &st);
    timed(r, "transpose_naive", sg, mb,
          [&] { k_transpose_naive<<<sg, mb>>>(st.a, st.c, sn); },
          chk_transpose, &st);
    timed(r, "transpose_tiled", sg, mb,
          [&] { k_transpose_tiled<<<sg, mb>>>(st.a, st.c, sn); },
          chk_transpose, &st);

    Hist hs;
    hs.n = n;
    hs.h.resize(n);
    for (auto &c : hs.h) {
        c = (unsigned char)(next_rand() % 256);
    }
    hs.in = up(hs.h);
    hs.bins = (unsigned *)dev(256 * 4);
    {
        int g = sms * 4;
        timed(r, "histogram", dim3(g), dim3(256),
              [&] { k_histogram<<<g, 256>>>(hs.in, hs.bins, n); },
              chk_histogram, &hs);
    }

    Chase ch;
    ch.n = sms * 2 * 256;
    ch.steps = 32;
    ch.h.resize(ch.n);
    for (int i = 0; i < ch.n; i++) {
        ch.h[i] = i;
    }
    for (int i = ch.n - 1; i > 0; i--) { /* a random permutation */
        int j = (int)(next_rand() % (unsigned)(i + 1));
        int t = ch.h[i];
        ch.h[i] = ch.h[j];
        ch.h[j] = t;
    }
    ch.next = up(ch.h);
    ch.out = (int *)dev(ch.n * 4);
    timed(r, "gather_chase", dim3(ch.n / 256), dim3(256),
          [&] { k_gather_chase<<<ch.n / 256, 256>>>(ch.next, ch.out, ch.steps); },
          chk_chase, &ch);
    return r.bad ? 1 : 0;
}
