/*
 * tests/check_cudart_tex.c: CUDA arrays, texture objects and surface
 * objects through our libcudart.so.13, as a program built by nvcc uses
 * them: hand-written PTX kernels taking bindless texture and surface
 * handles are registered as nvcc's host code does (see check_cudart.c)
 * and launched with cudaLaunchKernel.  Expected values come from the
 * CUDA C++ Programming Guide's "Texture Fetching" appendix formulas,
 * computed on the host here.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi/cuda_abi.h"
#include "runtime/cudart/cudart_api.h"

void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaUnregisterFatBinary(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun,
                            char *deviceFun, const char *deviceName,
                            int thread_limit, uint3 *tid, uint3 *bid,
                            dim3 *bDim, dim3 *gDim, int *wSize);

/* tex2d(t, c, o): thread i samples t at (c[2i], c[2i+1]) and stores
 * the first component in o[i].
 * texa2d(t, c, o): as tex2d on a layered texture; c holds 4 words per
 * thread: the layer (s32), x, y, unused.
 * surf2x(s): thread (x, y) reads the 32-bit element (x, y) of s and
 * writes back 2 * v + x + 10 * y. */
static const char ptx[] =
    ".version 8.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    ".visible .entry tex2d(.param .u64 p_t, .param .u64 p_c,"
    " .param .u64 p_o)\n"
    "{\n"
    "  .reg .b32 %r<3>; .reg .f32 %f<8>; .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [p_t];\n"
    "  ld.param.u64 %rd2, [p_c];\n"
    "  ld.param.u64 %rd3, [p_o];\n"
    "  cvta.to.global.u64 %rd2, %rd2;\n"
    "  cvta.to.global.u64 %rd3, %rd3;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd4, %r1, 8;\n"
    "  add.s64 %rd5, %rd2, %rd4;\n"
    "  ld.global.f32 %f1, [%rd5];\n"
    "  ld.global.f32 %f2, [%rd5+4];\n"
    "  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];\n"
    "  mul.wide.u32 %rd6, %r1, 4;\n"
    "  add.s64 %rd7, %rd3, %rd6;\n"
    "  st.global.f32 [%rd7], %f3;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry texa2d(.param .u64 p_t, .param .u64 p_c,"
    " .param .u64 p_o)\n"
    "{\n"
    "  .reg .b32 %r<3>; .reg .f32 %f<8>; .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [p_t];\n"
    "  ld.param.u64 %rd2, [p_c];\n"
    "  ld.param.u64 %rd3, [p_o];\n"
    "  cvta.to.global.u64 %rd2, %rd2;\n"
    "  cvta.to.global.u64 %rd3, %rd3;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd4, %r1, 16;\n"
    "  add.s64 %rd5, %rd2, %rd4;\n"
    "  ld.global.u32 %r2, [%rd5];\n"
    "  ld.global.f32 %f1, [%rd5+4];\n"
    "  ld.global.f32 %f2, [%rd5+8];\n"
    "  tex.a2d.v4.f32.f32 {%f3, %f4, %f5, %f6},"
    " [%rd1, {%r2, %f1, %f2, %f2}];\n"
    "  mul.wide.u32 %rd6, %r1, 4;\n"
    "  add.s64 %rd7, %rd3, %rd6;\n"
    "  st.global.f32 [%rd7], %f3;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry surf2x(.param .u64 p_s)\n"
    "{\n"
    "  .reg .b32 %r<10>; .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [p_s];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %tid.y;\n"
    "  shl.b32 %r3, %r1, 2;\n"
    "  suld.b.2d.b32.trap {%r4}, [%rd1, {%r3, %r2}];\n"
    "  shl.b32 %r5, %r4, 1;\n"
    "  add.s32 %r5, %r5, %r1;\n"
    "  mul.lo.s32 %r6, %r2, 10;\n"
    "  add.s32 %r5, %r5, %r6;\n"
    "  sust.b.2d.b32.trap [%rd1, {%r3, %r2}], {%r5};\n"
    "  ret;\n"
    "}\n"
    ".visible .entry texlod(.param .u64 p_t, .param .u64 p_c,"
    " .param .u64 p_o)\n"
    "{\n"
    "  .reg .b32 %r<3>; .reg .f32 %f<12>; .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [p_t];\n"
    "  ld.param.u64 %rd2, [p_c];\n"
    "  ld.param.u64 %rd3, [p_o];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd4, %r1, 16;\n"
    "  add.s64 %rd5, %rd2, %rd4;\n"
    "  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd5];\n"
    "  mov.f32 %f9, 0f00000000;\n"
    "  tex.level.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f1, %f2}],"
    " %f3;\n"
    "  mul.wide.u32 %rd6, %r1, 8;\n"
    "  add.s64 %rd7, %rd3, %rd6;\n"
    "  st.global.f32 [%rd7], %f5;\n"
    "  tex.grad.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f1, %f2}],"
    " {%f4, %f9}, {%f9, %f9};\n"
    "  st.global.f32 [%rd7+4], %f5;\n"
    "  ret;\n"
    "}\n";

static const struct {
    unsigned magic, version;
    const void *data;
    void *unused;
} wrapper = { 0x466243b1u, 1, ptx, NULL };

static void tex2d_stub(void) {}
static void texa2d_stub(void) {}
static void surf2x_stub(void) {}
static void texlod_stub(void) {}
static void **handle;

static void reg_fn(void (*stub)(void), const char *name)
{
    __cudaRegisterFunction(handle, (const char *)(uintptr_t)stub,
                           (char *)name, name, -1, NULL, NULL, NULL, NULL,
                           NULL);
}

static void setup(void)
{
    handle = __cudaRegisterFatBinary((void *)&wrapper);
    ck_assert_ptr_nonnull(handle);
    reg_fn(tex2d_stub, "tex2d");
    reg_fn(texa2d_stub, "texa2d");
    reg_fn(surf2x_stub, "surf2x");
    reg_fn(texlod_stub, "texlod");
    __cudaRegisterFatBinaryEnd(handle);
    (void)cudaGetLastError();
}

static void teardown(void)
{
    __cudaUnregisterFatBinary(handle);
}

static dim3 d3(unsigned x, unsigned y, unsigned z)
{
    dim3 d = { x, y, z };
    return d;
}

/* Runs a sampling kernel (tex2d or texa2d) over n threads whose
 * coordinates are `cbytes` bytes at c; the first components to out. */
static void sample(void (*stub)(void), cudaTextureObject_t t,
                   const void *c, size_t cbytes, float *out, unsigned n)
{
    void *dc, *dout;
    ck_assert_int_eq(cudaMalloc(&dc, cbytes), cudaSuccess);
    ck_assert_int_eq(cudaMalloc(&dout, n * sizeof(float)), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(dc, c, cbytes, cudaMemcpyHostToDevice),
                     cudaSuccess);
    void *args[] = { &t, &dc, &dout };
    ck_assert_int_eq(cudaLaunchKernel((const void *)stub, d3(1, 1, 1),
                                      d3(n, 1, 1), args, 0, 0),
                     cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(out, dout, n * sizeof(float),
                                cudaMemcpyDeviceToHost), cudaSuccess);
    ck_assert_int_eq(cudaFree(dc), cudaSuccess);
    ck_assert_int_eq(cudaFree(dout), cudaSuccess);
}

static struct cudaResourceDesc array_res(cudaArray_t a)
{
    struct cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    return r;
}

static struct cudaTextureDesc tex_desc(enum cudaTextureAddressMode m,
                                       enum cudaTextureFilterMode f,
                                       enum cudaTextureReadMode rm,
                                       int normalized)
{
    struct cudaTextureDesc t;
    memset(&t, 0, sizeof t);
    t.addressMode[0] = t.addressMode[1] = t.addressMode[2] = m;
    t.filterMode = f;
    t.readMode = rm;
    t.normalizedCoords = normalized;
    return t;
}

enum { W = 4, H = 3 };

static float texel(int i, int j)
{
    return (float)(i * i + 7 * j) + 0.5f;
}

static cudaArray_t float_array(void)
{
    float h[H][W];
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++)
            h[j][i] = texel(i, j);
    struct cudaChannelFormatDesc c =
        cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    cudaArray_t a;
    ck_assert_int_eq(cudaMallocArray(&a, &c, W, H, 0), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy2DToArray(a, 0, 0, h, sizeof h[0],
                                         sizeof h[0], H,
                                         cudaMemcpyHostToDevice),
                     cudaSuccess);
    return a;
}

static int clampi(int v, int n)
{
    return v < 0 ? 0 : v >= n ? n - 1 : v;
}

/* The guide's linear filter with clamp addressing: x = u * W - 0.5,
 * i = floor(x), alpha = frac(x) in 9-bit fixed point (8 fractional
 * bits), likewise y, and the weighted sum of the four texels. */
static float linear_ref(float u, float v)
{
    float xb = u * W - 0.5f, yb = v * H - 0.5f;
    float fi = floorf(xb), fj = floorf(yb);
    double a = round((xb - fi) * 256.0) / 256.0;
    double b = round((yb - fj) * 256.0) / 256.0;
    int i = (int)fi, j = (int)fj;
    double t00 = texel(clampi(i, W), clampi(j, H));
    double t10 = texel(clampi(i + 1, W), clampi(j, H));
    double t01 = texel(clampi(i, W), clampi(j + 1, H));
    double t11 = texel(clampi(i + 1, W), clampi(j + 1, H));
    return (float)((1 - a) * (1 - b) * t00 + a * (1 - b) * t10 +
                   (1 - a) * b * t01 + a * b * t11);
}

START_TEST(test_linear_normalized)
{
    cudaArray_t a = float_array();
    struct cudaResourceDesc r = array_res(a);
    struct cudaTextureDesc td = tex_desc(cudaAddressModeClamp,
                                         cudaFilterModeLinear,
                                         cudaReadModeElementType, 1);
    cudaTextureObject_t t = 0;
    ck_assert_int_eq(cudaCreateTextureObject(&t, &r, &td, NULL),
                     cudaSuccess);
    ck_assert_uint_ne(t, 0);
    /* Exact weights (1/4, 3/4, 1/2), clamped corners, and two points
     * whose weights are rounded to 1/256. */
    static const float c[][2] = {
        {0.4375f, 0.75f}, {0.0f, 0.5f}, {1.0f, 1.0f},
        {0.3f, 0.1f}, {0.61f, 0.47f}, {0.125f, 0.5f},
    };
    enum { N = sizeof c / sizeof c[0] };
    float out[N];
    sample(tex2d_stub, t, c, sizeof c, out, N);
    for (int k = 0; k < N; k++) {
        float want = linear_ref(c[k][0], c[k][1]);
        ck_assert_msg(fabsf(out[k] - want) <= 1e-4f * (1 + fabsf(want)),
                      "point %d (%g, %g): got %.7g, want %.7g", k,
                      c[k][0], c[k][1], out[k], want);
    }
    /* Hand-computed: (0.4375, 0.75) is x = 1.25, y = 1.75: texels
     * 1.5 8.5 / 4.5 11.5 at rows 1, 2; the 0.125 point is texel (0,1). */
    ck_assert_float_eq_tol(out[0], 0.75f * 0.25f * 8.5f +
                           0.25f * 0.25f * 11.5f +
                           0.75f * 0.75f * 15.5f +
                           0.25f * 0.75f * 18.5f, 1e-4f);
    ck_assert_float_eq_tol(out[5], 7.5f, 1e-5f);
    struct cudaResourceDesc back;
    ck_assert_int_eq(cudaGetTextureObjectResourceDesc(&back, t),
                     cudaSuccess);
    ck_assert_int_eq(back.resType, cudaResourceTypeArray);
    ck_assert_ptr_eq(back.res.array.array, a);
    ck_assert_int_eq(cudaDestroyTextureObject(t), cudaSuccess);
    ck_assert_int_eq(cudaFreeArray(a), cudaSuccess);
}
END_TEST

/* Point sampling just outside each edge (u = -0.1 and 1.1, middle
 * row): wrap reads texel 3 and 0, clamp 0 and 3, mirror 0 and 3,
 * border the border colour. */
START_TEST(test_address_modes)
{
    static const struct {
        enum cudaTextureAddressMode m;
        int lo, hi;             /* texel column, -1: border colour */
    } modes[] = {
        {cudaAddressModeWrap, 3, 0},
        {cudaAddressModeClamp, 0, 3},
        {cudaAddressModeMirror, 0, 3},
        {cudaAddressModeBorder, -1, -1},
    };
    static const float c[][2] = {{-0.1f, 0.5f}, {1.1f, 0.5f}};
    cudaArray_t a = float_array();
    for (size_t k = 0; k < sizeof modes / sizeof modes[0]; k++) {
        struct cudaResourceDesc r = array_res(a);
        struct cudaTextureDesc td = tex_desc(modes[k].m,
                                             cudaFilterModePoint,
                                             cudaReadModeElementType, 1);
        td.borderColor[0] = 42.0f;
        cudaTextureObject_t t;
        ck_assert_int_eq(cudaCreateTextureObject(&t, &r, &td, NULL),
                         cudaSuccess);
        float out[2];
        sample(tex2d_stub, t, c, sizeof c, out, 2);
        float lo = modes[k].lo < 0 ? 42.0f : texel(modes[k].lo, 1);
        float hi = modes[k].hi < 0 ? 42.0f : texel(modes[k].hi, 1);
        ck_assert_msg(out[0] == lo && out[1] == hi,
                      "mode %d: got %g %g, want %g %g", (int)modes[k].m,
                      out[0], out[1], lo, hi);
        ck_assert_int_eq(cudaDestroyTextureObject(t), cudaSuccess);
    }
    ck_assert_int_eq(cudaFreeArray(a), cudaSuccess);
}
END_TEST

/* 8-bit unsigned texels read as normalized floats: v / 255. */
START_TEST(test_u8_normalized)
{
    static const unsigned char h[2][3] = {{0, 51, 255}, {128, 7, 200}};
    struct cudaChannelFormatDesc c =
        cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
    cudaArray_t a;
    ck_assert_int_eq(cudaMallocArray(&a, &c, 3, 2, 0), cudaSuccess);
    ck_assert_int_eq(cudaMemcpyToArray(a, 0, 0, h, sizeof h,
                                       cudaMemcpyHostToDevice),
                     cudaSuccess);
    struct cudaResourceDesc r = array_res(a);
    struct cudaTextureDesc td = tex_desc(cudaAddressModeClamp,
                                         cudaFilterModePoint,
                                         cudaReadModeNormalizedFloat, 0);
    cudaTextureObject_t t;
    ck_assert_int_eq(cudaCreateTextureObject(&t, &r, &td, NULL),
                     cudaSuccess);
    float coords[6][2], out[6];
    for (int k = 0; k < 6; k++) {
        coords[k][0] = (float)(k % 3) + 0.5f;
        coords[k][1] = (float)(k / 3) + 0.5f;
    }
    sample(tex2d_stub, t, coords, sizeof coords, out, 6);
    for (int k = 0; k < 6; k++)
        ck_assert_float_eq_tol(out[k], h[k / 3][k % 3] / 255.0f, 1e-6f);
    unsigned char back[2][3];
    ck_assert_int_eq(cudaMemcpyFromArray(back, a, 0, 0, sizeof back,
                                         cudaMemcpyDeviceToHost),
                     cudaSuccess);
    ck_assert_mem_eq(back, h, sizeof h);
    /* Freeing the array while the texture uses it succeeds (CUDA: the
     * texture's later use is undefined, not the free); the handle is
     * gone at once, the storage with the texture. */
    ck_assert_int_eq(cudaFreeArray(a), cudaSuccess);
    ck_assert_int_ne(cudaFreeArray(a), cudaSuccess);
    (void)cudaGetLastError();
    ck_assert_int_eq(cudaDestroyTextureObject(t), cudaSuccess);
}
END_TEST

/* A 2x2 float array of 3 layers (passed as depth with the layered
 * flag); each layer's texels are distinct. */
START_TEST(test_layered)
{
    enum { L = 3 };
    float h[L][2][2];
    for (int l = 0; l < L; l++)
        for (int j = 0; j < 2; j++)
            for (int i = 0; i < 2; i++)
                h[l][j][i] = (float)(100 * l + 10 * j + i);
    struct cudaChannelFormatDesc c =
        cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    struct cudaExtent x = {2, 2, L};
    cudaArray_t a;
    ck_assert_int_eq(cudaMalloc3DArray(&a, &c, x, cudaArrayLayered),
                     cudaSuccess);
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr.ptr = h;
    p.srcPtr.pitch = 2 * sizeof(float);
    p.srcPtr.xsize = 2;
    p.srcPtr.ysize = 2;
    p.dstArray = a;
    p.extent = x;
    p.kind = cudaMemcpyHostToDevice;
    ck_assert_int_eq(cudaMemcpy3D(&p), cudaSuccess);
    struct cudaExtent got;
    unsigned flags;
    ck_assert_int_eq(cudaArrayGetInfo(NULL, &got, &flags, a), cudaSuccess);
    ck_assert_uint_eq(got.width, 2);
    ck_assert_uint_eq(got.height, 2);
    ck_assert_uint_eq(got.depth, L);
    ck_assert_uint_eq(flags, cudaArrayLayered);
    struct cudaResourceDesc r = array_res(a);
    struct cudaTextureDesc td = tex_desc(cudaAddressModeClamp,
                                         cudaFilterModePoint,
                                         cudaReadModeElementType, 0);
    cudaTextureObject_t t;
    ck_assert_int_eq(cudaCreateTextureObject(&t, &r, &td, NULL),
                     cudaSuccess);
    struct { int32_t layer; float x, y, pad; } cs[6];
    for (int k = 0; k < 6; k++) {
        cs[k].layer = k % L;
        cs[k].x = (float)(k & 1) + 0.5f;
        cs[k].y = (float)(k / 4) + 0.5f;
        cs[k].pad = 0;
    }
    float out[6];
    sample(texa2d_stub, t, cs, sizeof cs, out, 6);
    for (int k = 0; k < 6; k++)
        ck_assert_float_eq(out[k], h[k % L][k / 4][k & 1]);
    ck_assert_int_eq(cudaDestroyTextureObject(t), cudaSuccess);
    ck_assert_int_eq(cudaFreeArray(a), cudaSuccess);
}
END_TEST

/* Surface round trip: pitched host rows in, the kernel's 2v + x + 10y,
 * back out into rows of another pitch. */
START_TEST(test_surface)
{
    enum { SW = 4, SH = 3, SP = 6, DP = 5 };
    int32_t in[SH][SP], out[SH][DP];
    memset(out, 0x7f, sizeof out);
    for (int y = 0; y < SH; y++)
        for (int x = 0; x < SP; x++)
            in[y][x] = 1000 + 37 * y + 3 * x;
    struct cudaChannelFormatDesc c =
        cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindSigned);
    cudaArray_t a;
    ck_assert_int_eq(cudaMallocArray(&a, &c, SW, SH,
                                     cudaArraySurfaceLoadStore),
                     cudaSuccess);
    ck_assert_int_eq(cudaMemcpy2DToArray(a, 0, 0, in, sizeof in[0],
                                         SW * 4, SH,
                                         cudaMemcpyHostToDevice),
                     cudaSuccess);
    struct cudaResourceDesc r = array_res(a);
    cudaSurfaceObject_t s = 0;
    ck_assert_int_eq(cudaCreateSurfaceObject(&s, &r), cudaSuccess);
    void *args[] = { &s };
    ck_assert_int_eq(cudaLaunchKernel((const void *)surf2x_stub,
                                      d3(1, 1, 1), d3(SW, SH, 1), args, 0,
                                      0),
                     cudaSuccess);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy2DFromArray(out, sizeof out[0], a, 0, 0,
                                           SW * 4, SH,
                                           cudaMemcpyDeviceToHost),
                     cudaSuccess);
    for (int y = 0; y < SH; y++) {
        for (int x = 0; x < SW; x++)
            ck_assert_int_eq(out[y][x], 2 * in[y][x] + x + 10 * y);
        ck_assert_int_eq(out[y][SW], 0x7f7f7f7f);
    }
    /* A sub-rectangle from element (1, 1), 2 x 2, via device memory. */
    int32_t *d, sub[2][2];
    ck_assert_int_eq(cudaMalloc((void **)&d, sizeof sub), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy2DFromArray(d, 8, a, 4, 1, 8, 2,
                                           cudaMemcpyDeviceToDevice),
                     cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(sub, d, sizeof sub,
                                cudaMemcpyDeviceToHost), cudaSuccess);
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 2; x++)
            ck_assert_int_eq(sub[y][x], out[y + 1][x + 1]);
    ck_assert_int_eq(cudaFree(d), cudaSuccess);
    ck_assert_int_eq(cudaDestroySurfaceObject(s), cudaSuccess);
    ck_assert_int_eq(cudaFreeArray(a), cudaSuccess);
}
END_TEST

/* cudaMemcpy3D into a 3-D array and a box of it back out. */
START_TEST(test_memcpy3d)
{
    enum { X = 5, Y = 3, Z = 4 };
    float h[Z][Y][X], box[2][2][3];
    for (int z = 0; z < Z; z++)
        for (int y = 0; y < Y; y++)
            for (int x = 0; x < X; x++)
                h[z][y][x] = (float)(x + 10 * y + 100 * z);
    struct cudaChannelFormatDesc c =
        cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    struct cudaExtent ext = {X, Y, Z};
    cudaArray_t a;
    ck_assert_int_eq(cudaMalloc3DArray(&a, &c, ext, 0), cudaSuccess);
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr.ptr = h;
    p.srcPtr.pitch = X * sizeof(float);
    p.srcPtr.xsize = X;
    p.srcPtr.ysize = Y;
    p.dstArray = a;
    p.extent = ext;
    p.kind = cudaMemcpyHostToDevice;
    ck_assert_int_eq(cudaMemcpy3D(&p), cudaSuccess);
    memset(&p, 0, sizeof p);
    p.srcArray = a;
    p.srcPos.x = 1;
    p.srcPos.y = 1;
    p.srcPos.z = 2;
    p.dstPtr.ptr = box;
    p.dstPtr.pitch = 3 * sizeof(float);
    p.dstPtr.xsize = 3;
    p.dstPtr.ysize = 2;
    p.extent.width = 3;
    p.extent.height = 2;
    p.extent.depth = 2;
    p.kind = cudaMemcpyDeviceToHost;
    ck_assert_int_eq(cudaMemcpy3DAsync(&p, 0), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(0), cudaSuccess);
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 3; x++)
                ck_assert_float_eq(box[z][y][x], h[z + 2][y + 1][x + 1]);
    struct cudaExtent got;
    ck_assert_int_eq(cudaArrayGetInfo(NULL, &got, NULL, a), cudaSuccess);
    ck_assert_uint_eq(got.depth, Z);
    ck_assert_int_eq(cudaFreeArray(a), cudaSuccess);
}
END_TEST

START_TEST(test_channel_desc)
{
    struct cudaChannelFormatDesc c =
        cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
    cudaArray_t a;
    ck_assert_int_eq(cudaMallocArray(&a, &c, 5, 7, 0), cudaSuccess);
    struct cudaChannelFormatDesc got;
    memset(&got, 0xff, sizeof got);
    ck_assert_int_eq(cudaGetChannelDesc(&got, a), cudaSuccess);
    ck_assert_int_eq(got.x, 8);
    ck_assert_int_eq(got.y, 8);
    ck_assert_int_eq(got.z, 8);
    ck_assert_int_eq(got.w, 8);
    ck_assert_int_eq(got.f, cudaChannelFormatKindUnsigned);
    struct cudaExtent x;
    unsigned flags = 99;
    ck_assert_int_eq(cudaArrayGetInfo(&got, &x, &flags, a), cudaSuccess);
    ck_assert_uint_eq(x.width, 5);
    ck_assert_uint_eq(x.height, 7);
    ck_assert_uint_eq(x.depth, 0);
    ck_assert_uint_eq(flags, 0);
    ck_assert_int_eq(cudaFreeArray(a), cudaSuccess);

    c = cudaCreateChannelDesc(16, 16, 0, 0, cudaChannelFormatKindFloat);
    ck_assert_int_eq(cudaMallocArray(&a, &c, 9, 0, 0), cudaSuccess);
    ck_assert_int_eq(cudaGetChannelDesc(&got, a), cudaSuccess);
    ck_assert_int_eq(got.x, 16);
    ck_assert_int_eq(got.y, 16);
    ck_assert_int_eq(got.z, 0);
    ck_assert_int_eq(got.f, cudaChannelFormatKindFloat);
    ck_assert_int_eq(cudaFreeArray(a), cudaSuccess);
}
END_TEST

START_TEST(test_errors)
{
    static const struct cudaChannelFormatDesc bad[] = {
        {8, 16, 0, 0, cudaChannelFormatKindUnsigned},   /* mixed widths */
        {8, 8, 8, 0, cudaChannelFormatKindSigned},      /* 3 channels */
        {0, 8, 0, 0, cudaChannelFormatKindSigned},      /* gap */
        {12, 0, 0, 0, cudaChannelFormatKindSigned},     /* width */
        {8, 0, 0, 0, cudaChannelFormatKindFloat},       /* 8-bit float */
        {32, 0, 0, 0, cudaChannelFormatKindNone},
    };
    cudaArray_t a = NULL;
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        ck_assert_int_eq(cudaMallocArray(&a, &bad[k], 4, 4, 0),
                         cudaErrorInvalidChannelDescriptor);
        ck_assert_int_eq(cudaGetLastError(),
                         cudaErrorInvalidChannelDescriptor);
    }
    struct cudaChannelFormatDesc c =
        cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    ck_assert_int_eq(cudaMallocArray(&a, &c, 0, 4, 0), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaFreeArray(NULL), cudaSuccess);
    ck_assert_int_ne(cudaGetChannelDesc(&c, NULL), cudaSuccess);
    /* Mipmapped arrays: levels 0 .. numLevels - 1. */
    cudaMipmappedArray_t m;
    struct cudaExtent x = {8, 8, 0};
    c = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    ck_assert_int_eq(cudaMallocMipmappedArray(&m, &c, x, 3, 0),
                     cudaSuccess);
    ck_assert_int_eq(cudaGetMipmappedArrayLevel(&a, m, 0), cudaSuccess);
    ck_assert_ptr_nonnull(a);
    ck_assert_int_eq(cudaGetMipmappedArrayLevel(&a, m, 2), cudaSuccess);
    ck_assert_int_eq(cudaGetMipmappedArrayLevel(&a, m, 3),
                     cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGetMipmappedArrayLevel(&a, NULL, 0),
                     cudaErrorInvalidResourceHandle);
    ck_assert_int_eq(cudaMallocMipmappedArray(&m, &bad[0], x, 3, 0),
                     cudaErrorInvalidChannelDescriptor);
    /* a level goes with its mipmapped array only */
    ck_assert_int_ne(cudaFreeArray(a), cudaSuccess);
    ck_assert_int_eq(cudaFreeMipmappedArray(m), cudaSuccess);
    ck_assert_int_eq(cudaFreeMipmappedArray(NULL), cudaSuccess);
    /* A surface needs a resource of array type. */
    struct cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeLinear;
    cudaSurfaceObject_t s;
    ck_assert_int_eq(cudaCreateSurfaceObject(&s, &r), cudaErrorInvalidValue);
    (void)cudaGetLastError();
}
END_TEST

/* The extents of each level of a mipmapped array: halved with floor,
 * never below 1; layers (and the depth of a layered array) kept. */
static void check_levels(struct cudaExtent x, unsigned flags, unsigned ask,
                         unsigned want, const size_t (*ext)[3])
{
    struct cudaChannelFormatDesc c =
        cudaCreateChannelDesc(16, 16, 0, 0, cudaChannelFormatKindSigned);
    cudaMipmappedArray_t m;
    ck_assert_int_eq(cudaMallocMipmappedArray(&m, &c, x, ask, flags),
                     cudaSuccess);
    for (unsigned l = 0; l < want; l++) {
        cudaArray_t a;
        ck_assert_int_eq(cudaGetMipmappedArrayLevel(&a, m, l), cudaSuccess);
        struct cudaExtent e;
        struct cudaChannelFormatDesc got;
        unsigned f;
        ck_assert_int_eq(cudaArrayGetInfo(&got, &e, &f, a), cudaSuccess);
        ck_assert_msg(e.width == ext[l][0] && e.height == ext[l][1]
                      && e.depth == ext[l][2] && f == flags,
                      "level %u: %zux%zux%zu flags %u", l, e.width,
                      e.height, e.depth, f);
        ck_assert_int_eq(got.y, 16);
    }
    cudaArray_t a;
    ck_assert_int_eq(cudaGetMipmappedArrayLevel(&a, m, want),
                     cudaErrorInvalidValue);
    ck_assert_int_eq(cudaFreeMipmappedArray(m), cudaSuccess);
}

START_TEST(test_mipmap_levels)
{
    static const size_t e2[][3] = {{13, 5, 0}, {6, 2, 0}, {3, 1, 0},
                                   {1, 1, 0}};
    static const size_t e3[][3] = {{5, 3, 9}, {2, 1, 4}, {1, 1, 2},
                                   {1, 1, 1}};
    static const size_t el[][3] = {{8, 8, 3}, {4, 4, 3}, {2, 2, 3},
                                   {1, 1, 3}};
    static const size_t e1[][3] = {{1, 0, 0}};
    /* asked for more than 1 + floor(log2(largest extent)) */
    check_levels((struct cudaExtent){13, 5, 0}, 0, 9, 4, e2);
    check_levels((struct cudaExtent){5, 3, 9}, 0, 4, 4, e3);
    check_levels((struct cudaExtent){8, 8, 3}, cudaArrayLayered, 0 + 4, 4,
                 el);
    check_levels((struct cudaExtent){13, 5, 0}, 0, 2, 2, e2);
    /* 0 levels count as 1 */
    check_levels((struct cudaExtent){1, 0, 0}, 0, 0, 1, e1);
}
END_TEST

/* A 16x8 float mipmapped array of 5 levels; level l holds 100 l + i at
 * column i.  At x = y = 0.5 level l's texel is column 8 >> l. */
START_TEST(test_mipmap_sample)
{
    struct cudaChannelFormatDesc c =
        cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    cudaMipmappedArray_t m;
    struct cudaExtent x = {16, 8, 0};
    ck_assert_int_eq(cudaMallocMipmappedArray(&m, &c, x, 5, 0),
                     cudaSuccess);
    for (unsigned l = 0; l < 5; l++) {
        cudaArray_t a;
        ck_assert_int_eq(cudaGetMipmappedArrayLevel(&a, m, l), cudaSuccess);
        size_t w = 16u >> l, h = 8u >> l ? 8u >> l : 1;
        float v[128];
        for (size_t k = 0; k < w * h; k++)
            v[k] = 100.0f * (float)l + (float)(k % w);
        if (l % 2) {
            ck_assert_int_eq(cudaMemcpy2DToArray(a, 0, 0, v, w * 4, w * 4,
                                                 h, cudaMemcpyHostToDevice),
                             cudaSuccess);
        } else {
            struct cudaMemcpy3DParms p;
            memset(&p, 0, sizeof p);
            p.srcPtr.ptr = v;
            p.srcPtr.pitch = w * 4;
            p.srcPtr.xsize = w;
            p.srcPtr.ysize = h;
            p.dstArray = a;
            p.extent.width = w;
            p.extent.height = h;
            p.extent.depth = 1;
            p.kind = cudaMemcpyHostToDevice;
            ck_assert_int_eq(cudaMemcpy3D(&p), cudaSuccess);
        }
    }
    struct cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeMipmappedArray;
    r.res.mipmap.mipmap = m;
    struct cudaTextureDesc td = tex_desc(cudaAddressModeClamp,
                                         cudaFilterModePoint,
                                         cudaReadModeElementType, 1);
    td.mipmapFilterMode = cudaFilterModeLinear;
    td.maxMipmapLevelClamp = 4.0f;
    cudaTextureObject_t t;
    ck_assert_int_eq(cudaCreateTextureObject(&t, &r, &td, NULL),
                     cudaSuccess);
    struct cudaResourceDesc back;
    ck_assert_int_eq(cudaGetTextureObjectResourceDesc(&back, t),
                     cudaSuccess);
    ck_assert_int_eq(back.resType, cudaResourceTypeMipmappedArray);
    ck_assert_ptr_eq(back.res.mipmap.mipmap, m);
    /* (x, y, lod, x gradient): want tex.level, tex.grad */
    static const float in[][4] = {
        {0.5f, 0.5f, 0.0f, 0.0625f},    /* 8; 1 texel: level 0 */
        {0.5f, 0.5f, 0.5f, 0.125f},     /* (8 + 104) / 2; 2 texels */
        {0.5f, 0.5f, 2.0f, 0.5f},       /* 202; 8 texels: level 3 */
        {0.5f, 0.5f, 10.0f, 4.0f},      /* coarsest: 400 */
        {0.5f, 0.5f, 3.25f, 0.25f},     /* .75 * 301 + .25 * 400; 102 */
        {0.5f, 0.5f, -2.0f, 0.0f},      /* finest: 8; zero gradient */
    };
    static const float want[][2] = {
        {8.0f, 8.0f}, {56.0f, 104.0f}, {202.0f, 301.0f},
        {400.0f, 400.0f}, {325.75f, 202.0f}, {8.0f, 8.0f},
    };
    enum { N = sizeof in / sizeof in[0] };
    void *dc, *dout;
    ck_assert_int_eq(cudaMalloc(&dc, sizeof in), cudaSuccess);
    ck_assert_int_eq(cudaMalloc(&dout, N * 8), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(dc, in, sizeof in, cudaMemcpyHostToDevice),
                     cudaSuccess);
    void *args[] = { &t, &dc, &dout };
    ck_assert_int_eq(cudaLaunchKernel((const void *)texlod_stub,
                                      d3(1, 1, 1), d3(N, 1, 1), args, 0, 0),
                     cudaSuccess);
    float out[N][2];
    ck_assert_int_eq(cudaMemcpy(out, dout, sizeof out,
                                cudaMemcpyDeviceToHost), cudaSuccess);
    for (int k = 0; k < N; k++)
        ck_assert_msg(out[k][0] == want[k][0] && out[k][1] == want[k][1],
                      "case %d: %g, %g want %g, %g", k, (double)out[k][0],
                      (double)out[k][1], (double)want[k][0],
                      (double)want[k][1]);
    /* in use: freeing succeeds, the storage goes with the texture */
    ck_assert_int_eq(cudaFreeMipmappedArray(m), cudaSuccess);
    ck_assert_int_eq(cudaDestroyTextureObject(t), cudaSuccess);
    ck_assert_int_eq(cudaFree(dc), cudaSuccess);
    ck_assert_int_eq(cudaFree(dout), cudaSuccess);
}
END_TEST

/* A texture over pitched linear memory (cudaMallocPitch), point
 * sampled at texel centres with unnormalized coordinates. */
START_TEST(test_pitch2d)
{
    float h[H][W];
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++)
            h[j][i] = texel(i, j);
    void *d;
    size_t pitch = 0;
    ck_assert_int_eq(cudaMallocPitch(&d, &pitch, sizeof h[0], H),
                     cudaSuccess);
    ck_assert_uint_ge(pitch, sizeof h[0]);
    ck_assert_int_eq(cudaMemcpy2D(d, pitch, h, sizeof h[0], sizeof h[0], H,
                                  cudaMemcpyHostToDevice), cudaSuccess);
    struct cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypePitch2D;
    r.res.pitch2D.devPtr = d;
    r.res.pitch2D.desc = cudaCreateChannelDesc(32, 0, 0, 0,
                                               cudaChannelFormatKindFloat);
    r.res.pitch2D.width = W;
    r.res.pitch2D.height = H;
    r.res.pitch2D.pitchInBytes = pitch;
    struct cudaTextureDesc td = tex_desc(cudaAddressModeClamp,
                                         cudaFilterModePoint,
                                         cudaReadModeElementType, 0);
    cudaTextureObject_t t;
    ck_assert_int_eq(cudaCreateTextureObject(&t, &r, &td, NULL),
                     cudaSuccess);
    float c[W * H][2], out[W * H];
    for (int k = 0; k < W * H; k++) {
        c[k][0] = (float)(k % W) + 0.5f;
        c[k][1] = (float)(k / W) + 0.5f;
    }
    sample(tex2d_stub, t, c, sizeof c, out, W * H);
    for (int k = 0; k < W * H; k++)
        ck_assert_float_eq(out[k], texel(k % W, k / W));
    struct cudaResourceDesc back;
    ck_assert_int_eq(cudaGetTextureObjectResourceDesc(&back, t),
                     cudaSuccess);
    ck_assert_int_eq(back.resType, cudaResourceTypePitch2D);
    ck_assert_ptr_eq(back.res.pitch2D.devPtr, d);
    ck_assert_uint_eq(back.res.pitch2D.pitchInBytes, pitch);
    ck_assert_int_eq(back.res.pitch2D.desc.x, 32);
    ck_assert_int_eq(back.res.pitch2D.desc.f, cudaChannelFormatKindFloat);
    ck_assert_int_eq(cudaDestroyTextureObject(t), cudaSuccess);
    ck_assert_int_eq(cudaFree(d), cudaSuccess);
}
END_TEST

/* The driver API directly: a 1-D array through HtoA / AtoH, 2-D array
 * descriptors, a 2-D copy between two arrays, and handle checks. */
START_TEST(test_driver)
{
    ck_assert_int_eq(cudaFree(NULL), cudaSuccess);  /* a current context */
    CUDA_ARRAY_DESCRIPTOR d1 = {16, 0, CU_AD_FORMAT_UNSIGNED_INT16, 2};
    CUarray a1;
    ck_assert_int_eq(cuArrayCreate_v2(&a1, &d1), CUDA_SUCCESS);
    uint16_t in[32], out[32];
    for (int i = 0; i < 32; i++)
        in[i] = (uint16_t)(i * 1001);
    ck_assert_int_eq(cuMemcpyHtoA_v2(a1, 0, in, sizeof in), CUDA_SUCCESS);
    memset(out, 0, sizeof out);
    ck_assert_int_eq(cuMemcpyAtoH_v2(out, a1, 8, 24), CUDA_SUCCESS);
    ck_assert_mem_eq(out, in + 4, 24);
    /* Past the end; an offset inside an element. */
    ck_assert_int_eq(cuMemcpyHtoA_v2(a1, 8, in, sizeof in),
                     CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuMemcpyAtoH_v2(out, a1, 2, 4),
                     CUDA_ERROR_INVALID_VALUE);
    CUDA_ARRAY_DESCRIPTOR g;
    ck_assert_int_eq(cuArrayGetDescriptor_v2(&g, a1), CUDA_SUCCESS);
    ck_assert_uint_eq(g.Width, 16);
    ck_assert_uint_eq(g.Height, 0);
    ck_assert_int_eq(g.Format, CU_AD_FORMAT_UNSIGNED_INT16);
    ck_assert_uint_eq(g.NumChannels, 2);

    CUDA_ARRAY3D_DESCRIPTOR d2 = {6, 4, 0, CU_AD_FORMAT_SIGNED_INT8, 4, 0};
    CUarray a2, a3;
    ck_assert_int_eq(cuArray3DCreate_v2(&a2, &d2), CUDA_SUCCESS);
    ck_assert_int_eq(cuArray3DCreate_v2(&a3, &d2), CUDA_SUCCESS);
    int8_t img[4][6][4], back[4][6][4];
    for (size_t k = 0; k < sizeof img; k++)
        ((int8_t *)img)[k] = (int8_t)(k * 7 - 100);
    CUDA_MEMCPY2D p;
    memset(&p, 0, sizeof p);
    p.srcMemoryType = CU_MEMORYTYPE_HOST;
    p.srcHost = img;
    p.srcPitch = sizeof img[0];
    p.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    p.dstArray = a2;
    p.WidthInBytes = sizeof img[0];
    p.Height = 4;
    ck_assert_int_eq(cuMemcpy2D_v2(&p), CUDA_SUCCESS);
    /* a2 -> a3 whole, then a3 -> host. */
    memset(&p, 0, sizeof p);
    p.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    p.srcArray = a2;
    p.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    p.dstArray = a3;
    p.WidthInBytes = sizeof img[0];
    p.Height = 4;
    ck_assert_int_eq(cuMemcpy2DAsync_v2(&p, NULL), CUDA_SUCCESS);
    memset(&p, 0, sizeof p);
    p.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    p.srcArray = a3;
    p.dstMemoryType = CU_MEMORYTYPE_HOST;
    p.dstHost = back;
    p.dstPitch = sizeof back[0];
    p.WidthInBytes = sizeof back[0];
    p.Height = 4;
    ck_assert_int_eq(cuMemcpy2D_v2(&p), CUDA_SUCCESS);
    ck_assert_mem_eq(back, img, sizeof img);
    /* 2 elements wide from (1, 3): one row past the bottom. */
    p.srcXInBytes = 4;
    p.srcY = 3;
    p.WidthInBytes = 8;
    p.Height = 2;
    ck_assert_int_ne(cuMemcpy2D_v2(&p), CUDA_SUCCESS);

    CUDA_RESOURCE_DESC rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_ARRAY;
    rd.res.array.hArray = a2;
    CUsurfObject s = 0;
    /* Made without SURFACE_LDST. */
    ck_assert_int_ne(cuSurfObjectCreate(&s, &rd), CUDA_SUCCESS);
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    CUtexObject t = 0;
    ck_assert_int_eq(cuTexObjectCreate(&t, &rd, &td, NULL), CUDA_SUCCESS);
    CUDA_RESOURCE_DESC rb;
    ck_assert_int_eq(cuTexObjectGetResourceDesc(&rb, t), CUDA_SUCCESS);
    ck_assert_int_eq(rb.resType, CU_RESOURCE_TYPE_ARRAY);
    ck_assert_ptr_eq(rb.res.array.hArray, a2);
    /* destroyed while the texture uses it: success (CUDA), the handle
     * goes at once and the storage with the texture */
    ck_assert_int_eq(cuArrayDestroy(a2), CUDA_SUCCESS);
    ck_assert_int_eq(cuArrayDestroy(a2), CUDA_ERROR_INVALID_HANDLE);
    ck_assert_int_eq(cuTexObjectDestroy(t), CUDA_SUCCESS);
    ck_assert_int_ne(cuTexObjectGetResourceDesc(&rb, t), CUDA_SUCCESS);
    ck_assert_int_eq(cuArray3DGetDescriptor_v2(&d2, a2),
                     CUDA_ERROR_INVALID_HANDLE);
    ck_assert_int_eq(cuArrayDestroy(a3), CUDA_SUCCESS);
    ck_assert_int_eq(cuArrayDestroy(a1), CUDA_SUCCESS);
    /* Bad formats and channel counts. */
    CUDA_ARRAY3D_DESCRIPTOR bad = {4, 4, 0, (CUarray_format)0x7, 1, 0};
    ck_assert_int_eq(cuArray3DCreate_v2(&a1, &bad),
                     CUDA_ERROR_INVALID_VALUE);
    bad.Format = CU_AD_FORMAT_FLOAT;
    bad.NumChannels = 3;
    ck_assert_int_eq(cuArray3DCreate_v2(&a1, &bad),
                     CUDA_ERROR_INVALID_VALUE);
    /* Layered cubemap: the depth counts faces, a multiple of 6. */
    CUDA_ARRAY3D_DESCRIPTOR cube = {4, 4, 7, CU_AD_FORMAT_FLOAT, 1,
                                    CUDA_ARRAY3D_LAYERED |
                                    CUDA_ARRAY3D_CUBEMAP};
    ck_assert_int_eq(cuArray3DCreate_v2(&a1, &cube),
                     CUDA_ERROR_INVALID_VALUE);
    cube.Depth = 12;
    ck_assert_int_eq(cuArray3DCreate_v2(&a1, &cube), CUDA_SUCCESS);
    ck_assert_int_eq(cuArray3DGetDescriptor_v2(&d2, a1), CUDA_SUCCESS);
    ck_assert_uint_eq(d2.Depth, 12);
    ck_assert_uint_eq(d2.Flags, CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP);
    ck_assert_int_eq(cuArrayGetDescriptor_v2(&g, a1),
                     CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuArrayDestroy(a1), CUDA_SUCCESS);
}
END_TEST

/* Asynchronous array copies on a capturing stream become graph nodes:
 * nothing moves until the graph is launched. */
START_TEST(test_capture)
{
    enum { N = 6 };
    float in[2][N], out[2][N], zero[2][N];
    for (int k = 0; k < 2 * N; k++)
        in[k / N][k % N] = (float)k * 1.5f;
    memset(zero, 0, sizeof zero);
    struct cudaChannelFormatDesc c =
        cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    cudaArray_t a;
    ck_assert_int_eq(cudaMallocArray(&a, &c, N, 2, 0), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy2DToArray(a, 0, 0, zero, sizeof zero[0],
                                         sizeof zero[0], 2,
                                         cudaMemcpyHostToDevice),
                     cudaSuccess);
    cudaStream_t s;
    ck_assert_int_eq(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking),
                     cudaSuccess);
    ck_assert_int_eq(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal),
                     cudaSuccess);
    ck_assert_int_eq(cudaMemcpy2DToArrayAsync(a, 0, 0, in, sizeof in[0],
                                              sizeof in[0], 2,
                                              cudaMemcpyHostToDevice, s),
                     cudaSuccess);
    ck_assert_int_eq(cudaMemcpy2DFromArrayAsync(out, sizeof out[0], a, 0, 0,
                                                sizeof out[0], 2,
                                                cudaMemcpyDeviceToHost, s),
                     cudaSuccess);
    cudaGraph_t g;
    ck_assert_int_eq(cudaStreamEndCapture(s, &g), cudaSuccess);
    memset(out, 0xff, sizeof out);
    float now[2][N];
    ck_assert_int_eq(cudaMemcpy2DFromArray(now, sizeof now[0], a, 0, 0,
                                           sizeof now[0], 2,
                                           cudaMemcpyDeviceToHost),
                     cudaSuccess);
    ck_assert_mem_eq(now, zero, sizeof zero);
    cudaGraphExec_t x;
    ck_assert_int_eq(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphLaunch(x, s), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(s), cudaSuccess);
    ck_assert_mem_eq(out, in, sizeof in);
    ck_assert_int_eq(cudaGraphExecDestroy(x), cudaSuccess);
    ck_assert_int_eq(cudaGraphDestroy(g), cudaSuccess);
    ck_assert_int_eq(cudaStreamDestroy(s), cudaSuccess);
    ck_assert_int_eq(cudaFreeArray(a), cudaSuccess);
}
END_TEST

/* The driver's mipmapped arrays: level handles are CUarrays (copies,
 * surfaces of one level), errors for bad handles and levels, and a
 * cubemap level keeps its 6 faces. */
START_TEST(test_driver_mipmap)
{
    ck_assert_int_eq(cudaFree(NULL), cudaSuccess);  /* a current context */
    CUDA_ARRAY3D_DESCRIPTOR d = {8, 8, 6, CU_AD_FORMAT_FLOAT, 1,
                                 CUDA_ARRAY3D_CUBEMAP |
                                 CUDA_ARRAY3D_SURFACE_LDST};
    CUmipmappedArray m;
    ck_assert_int_eq(cuMipmappedArrayCreate(&m, &d, 0), CUDA_SUCCESS);
    CUarray l0, l1;
    ck_assert_int_eq(cuMipmappedArrayGetLevel(&l0, m, 0), CUDA_SUCCESS);
    ck_assert_int_eq(cuMipmappedArrayGetLevel(&l1, m, 1),
                     CUDA_ERROR_INVALID_VALUE);      /* 0 asks for 1 */
    ck_assert_int_eq(cuMipmappedArrayDestroy(m), CUDA_SUCCESS);
    ck_assert_int_eq(cuMipmappedArrayCreate(&m, &d, 3), CUDA_SUCCESS);
    ck_assert_int_eq(cuMipmappedArrayGetLevel(&l1, m, 2), CUDA_SUCCESS);
    CUDA_ARRAY3D_DESCRIPTOR g;
    ck_assert_int_eq(cuArray3DGetDescriptor_v2(&g, l1), CUDA_SUCCESS);
    ck_assert_uint_eq(g.Width, 2);
    ck_assert_uint_eq(g.Height, 2);
    ck_assert_uint_eq(g.Depth, 6);
    /* one level as a surface, written through a host copy */
    float in[6][2][2], out[6][2][2];
    for (int k = 0; k < 24; k++)
        (&in[0][0][0])[k] = (float)k;
    CUDA_MEMCPY3D p;
    memset(&p, 0, sizeof p);
    p.srcMemoryType = CU_MEMORYTYPE_HOST;
    p.srcHost = in;
    p.srcPitch = 8;
    p.srcHeight = 2;
    p.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    p.dstArray = l1;
    p.WidthInBytes = 8;
    p.Height = 2;
    p.Depth = 6;
    ck_assert_int_eq(cuMemcpy3D_v2(&p), CUDA_SUCCESS);
    CUDA_RESOURCE_DESC rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_ARRAY;
    rd.res.array.hArray = l1;
    CUsurfObject s;
    ck_assert_int_eq(cuSurfObjectCreate(&s, &rd), CUDA_SUCCESS);
    ck_assert_int_eq(cuSurfObjectDestroy(s), CUDA_SUCCESS);
    p.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    p.srcArray = l1;
    p.dstMemoryType = CU_MEMORYTYPE_HOST;
    p.dstHost = out;
    p.dstPitch = 8;
    p.dstHeight = 2;
    ck_assert_int_eq(cuMemcpy3D_v2(&p), CUDA_SUCCESS);
    ck_assert_mem_eq(in, out, sizeof in);
    /* a level is not destroyed alone; bad handles and levels */
    ck_assert_int_eq(cuArrayDestroy(l1), CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuMipmappedArrayGetLevel(&l1, m, 3),
                     CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuMipmappedArrayGetLevel(NULL, m, 0),
                     CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuMipmappedArrayGetLevel(&l1, (CUmipmappedArray)l1, 0),
                     CUDA_ERROR_INVALID_HANDLE);
    ck_assert_int_eq(cuMipmappedArrayCreate(&m, NULL, 2),
                     CUDA_ERROR_INVALID_VALUE);
    rd.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
    rd.res.mipmap.hMipmappedArray = (CUmipmappedArray)l0;
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    CUtexObject t;
    ck_assert_int_eq(cuTexObjectCreate(&t, &rd, &td, NULL),
                     CUDA_ERROR_INVALID_HANDLE);
    rd.res.mipmap.hMipmappedArray = m;
    td.mipmapFilterMode = (CUfilter_mode)5;
    ck_assert_int_eq(cuTexObjectCreate(&t, &rd, &td, NULL),
                     CUDA_ERROR_INVALID_VALUE);
    td.mipmapFilterMode = CU_TR_FILTER_MODE_LINEAR;
    td.flags = CU_TRSF_NORMALIZED_COORDINATES | CU_TRSF_SEAMLESS_CUBEMAP;
    ck_assert_int_eq(cuTexObjectCreate(&t, &rd, &td, NULL), CUDA_SUCCESS);
    CUDA_RESOURCE_DESC rb;
    ck_assert_int_eq(cuTexObjectGetResourceDesc(&rb, t), CUDA_SUCCESS);
    ck_assert_int_eq(rb.resType, CU_RESOURCE_TYPE_MIPMAPPED_ARRAY);
    ck_assert_ptr_eq(rb.res.mipmap.hMipmappedArray, m);
    /* destroyed while the texture uses it: success, freed with it */
    ck_assert_int_eq(cuMipmappedArrayDestroy(m), CUDA_SUCCESS);
    ck_assert_int_eq(cuMipmappedArrayDestroy(m), CUDA_ERROR_INVALID_HANDLE);
    ck_assert_int_eq(cuTexObjectDestroy(t), CUDA_SUCCESS);
}
END_TEST

static Suite *tex_suite(void)
{
    Suite *s = suite_create("cudart_tex");
    TCase *tc = tcase_create("cudart_tex");
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_linear_normalized);
    tcase_add_test(tc, test_address_modes);
    tcase_add_test(tc, test_u8_normalized);
    tcase_add_test(tc, test_layered);
    tcase_add_test(tc, test_surface);
    tcase_add_test(tc, test_memcpy3d);
    tcase_add_test(tc, test_channel_desc);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_mipmap_levels);
    tcase_add_test(tc, test_mipmap_sample);
    tcase_add_test(tc, test_driver_mipmap);
    tcase_add_test(tc, test_pitch2d);
    tcase_add_test(tc, test_driver);
    tcase_add_test(tc, test_capture);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(tex_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
