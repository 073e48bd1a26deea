/*
 * tests/check_tensormap.c: the drop-in driver's tensor maps
 * (cuTensorMapEncodeTiled, cuTensorMapReplaceAddress): every
 * CUDA_ERROR_INVALID_VALUE rule of the CUDA Driver API reference, one
 * broken at a time from a valid map, the valid limits next to them, the
 * maps the emulator refuses as not supported, and a TMA kernel launched
 * through cuLaunchKernel with maps made here.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi/cuda_abi.h"

#define OK(call) ck_assert_int_eq((call), CUDA_SUCCESS)

static CUcontext ctx;
static CUdeviceptr gmem;

static void setup(void)
{
    CUdevice dev;
    OK(cuInit(0));
    OK(cuDeviceGet(&dev, 0));
    OK(cuCtxCreate_v2(&ctx, 0, dev));
    OK(cuMemAlloc_v2(&gmem, 1 << 16));
}

static void teardown(void)
{
    if (gmem)
        cuMemFree_v2(gmem);
    gmem = 0;
    if (ctx)
        cuCtxDestroy_v2(ctx);
    ctx = NULL;
}

/* The arguments of one call, starting from a valid 2D f32 map. */
typedef struct Args {
    CUtensorMap *map;
    CUtensorMapDataType dt;
    cuuint32_t rank;
    uint64_t addr;
    cuuint64_t dim[5], stride[4];
    cuuint32_t box[5], est[5];
    CUtensorMapInterleave il;
    CUtensorMapSwizzle swz;
    CUtensorMapL2promotion l2;
    CUtensorMapFloatOOBfill oob;
} Args;

static CUtensorMap the_map;

static Args valid(void)
{
    Args a = {&the_map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, 0,
              {64, 32, 1, 1, 1}, {256, 256 * 32, 0, 0},
              {32, 8, 1, 1, 1}, {1, 1, 1, 1, 1},
              CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
              CU_TENSOR_MAP_L2_PROMOTION_NONE,
              CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE};
    a.addr = gmem;
    return a;
}

static CUresult call(const Args *a)
{
    return cuTensorMapEncodeTiled(a->map, a->dt, a->rank,
                                  (void *)(uintptr_t)a->addr, a->dim,
                                  a->stride, a->box, a->est, a->il, a->swz,
                                  a->l2, a->oob);
}

#define EXPECT(want, what, ...)                                           \
    do {                                                                  \
        Args a = valid();                                                 \
        __VA_ARGS__;                                                      \
        CUresult r_ = call(&a);                                           \
        ck_assert_msg(r_ == (want), "%s: got %d, expected %d", what,      \
                      (int)r_, (int)(want));                              \
    } while (0)
#define INVALID(what, ...) EXPECT(CUDA_ERROR_INVALID_VALUE, what, __VA_ARGS__)
#define VALID(what, ...) EXPECT(CUDA_SUCCESS, what, __VA_ARGS__)

START_TEST(encode_rules)
{
    static union {
        CUtensorMap m;
        unsigned char b[256];
    } raw;
    VALID("the base map", (void)0);
    INVALID("NULL map", a.map = NULL);
    INVALID("map not 64-byte aligned",
            a.map = (CUtensorMap *)(void *)(raw.b + 32));
    INVALID("data type out of range", a.dt = (CUtensorMapDataType)16);
    INVALID("rank 0", a.rank = 0);
    INVALID("rank 6", a.rank = 6);
    VALID("rank 1", a.rank = 1);
    VALID("rank 5", a.rank = 5);
    INVALID("address not 16-byte aligned", a.addr += 8);
    INVALID("globalDim 0", a.dim[1] = 0);
    INVALID("globalDim 2^32 + 1", a.dim[1] = (1ull << 32) + 1);
    VALID("globalDim 2^32", a.dim[1] = 1ull << 32);
    INVALID("stride not a multiple of 16", a.stride[0] = 264);
    INVALID("stride 2^40", a.stride[0] = 1ull << 40);
    VALID("stride 2^40 - 16", a.stride[0] = (1ull << 40) - 16);
    INVALID("boxDim 0", a.box[1] = 0);
    INVALID("boxDim 257", a.box[1] = 257);
    VALID("boxDim 256", a.box[1] = 256);
    INVALID("inner box not a multiple of 16 bytes", a.box[0] = 6);
    INVALID("elementStrides 0", a.est[1] = 0);
    INVALID("elementStrides 9", a.est[1] = 9);
    VALID("elementStrides 8", a.est[1] = 8);
    INVALID("interleave out of range", a.il = (CUtensorMapInterleave)3);
    INVALID("interleave with rank 2", a.il = CU_TENSOR_MAP_INTERLEAVE_16B);
    INVALID("swizzle out of range", a.swz = (CUtensorMapSwizzle)7);
    INVALID("32B swizzle, 64-byte inner box",
            a.box[0] = 16; a.swz = CU_TENSOR_MAP_SWIZZLE_32B);
    VALID("32B swizzle, 32-byte inner box",
          a.box[0] = 8; a.swz = CU_TENSOR_MAP_SWIZZLE_32B);
    INVALID("64B swizzle, 128-byte inner box",
            a.box[0] = 32; a.swz = CU_TENSOR_MAP_SWIZZLE_64B);
    INVALID("128B swizzle, 256-byte inner box",
            a.box[0] = 64; a.swz = CU_TENSOR_MAP_SWIZZLE_128B);
    VALID("128B swizzle, 128-byte inner box",
          a.box[0] = 32; a.swz = CU_TENSOR_MAP_SWIZZLE_128B);
    INVALID("L2 promotion out of range", a.l2 = (CUtensorMapL2promotion)4);
    INVALID("OOB fill out of range", a.oob = (CUtensorMapFloatOOBfill)2);
    INVALID("NaN fill of an integer type",
            a.dt = CU_TENSOR_MAP_DATA_TYPE_UINT32;
            a.oob = CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA);
    VALID("NaN fill of f16",
          a.dt = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
          a.oob = CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA);
    {
        Args a = valid();
        ck_assert_int_eq(cuTensorMapEncodeTiled(
                             a.map, a.dt, a.rank, (void *)(uintptr_t)a.addr,
                             NULL, a.stride, a.box, a.est, a.il, a.swz,
                             a.l2, a.oob),
                         CUDA_ERROR_INVALID_VALUE);
    }
    /* interleaved layouts: rank >= 3, 32B needs 32-byte alignment and
     * strides, and the 32B swizzle */
    INVALID("interleave 32B, swizzle none",
            a.rank = 3; a.il = CU_TENSOR_MAP_INTERLEAVE_32B);
    INVALID("interleave 32B, 16-byte aligned address",
            a.rank = 3; a.il = CU_TENSOR_MAP_INTERLEAVE_32B;
            a.swz = CU_TENSOR_MAP_SWIZZLE_32B; a.addr += 16);
    INVALID("interleave 32B, stride a multiple of 16 only",
            a.rank = 3; a.il = CU_TENSOR_MAP_INTERLEAVE_32B;
            a.swz = CU_TENSOR_MAP_SWIZZLE_32B; a.stride[0] = 272);
    /* valid for CUDA, not for the emulator */
    EXPECT(CUDA_ERROR_NOT_SUPPORTED, "interleave 32B (supported by CUDA)",
           a.rank = 3; a.il = CU_TENSOR_MAP_INTERLEAVE_32B;
           a.swz = CU_TENSOR_MAP_SWIZZLE_32B);
    INVALID("16U4_ALIGN8B, odd globalDim[0]",
            a.dt = CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B; a.dim[0] = 63);
    EXPECT(CUDA_ERROR_NOT_SUPPORTED, "16U4_ALIGN8B (supported by CUDA)",
           a.dt = CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B);
    EXPECT(CUDA_ERROR_NOT_SUPPORTED, "the sm_100 128B atom swizzle",
           a.swz = CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B);
}
END_TEST

START_TEST(replace_address)
{
    Args a = valid();
    OK(call(&a));
    OK(cuTensorMapReplaceAddress(&the_map, (void *)(uintptr_t)(gmem + 256)));
    ck_assert_int_eq(cuTensorMapReplaceAddress(
                         &the_map, (void *)(uintptr_t)(gmem + 8)),
                     CUDA_ERROR_INVALID_VALUE);
    CUtensorMap junk;
    memset(&junk, 0x5a, sizeof(junk));
    ck_assert_int_eq(cuTensorMapReplaceAddress(&junk,
                                               (void *)(uintptr_t)gmem),
                     CUDA_ERROR_INVALID_VALUE);
}
END_TEST

/* tma_2d of the corpus through cuLaunchKernel: a 40 x 20 float tensor
 * (pitch 48 floats), 2 x 1 tiles of 32 x 32 hanging over both edges. */
START_TEST(launch_tma_2d)
{
    enum { W = 40, H = 20, P = 48, ROWS = 32 };
    const char *top = getenv("top_srcdir");
    char path[1024];
    snprintf(path, sizeof(path), "%s/tests/corpus/ptx/tma_bulk.sm90.ptx",
             top ? top : ".");
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    static char ptx[1 << 16];
    size_t n = fread(ptx, 1, sizeof(ptx) - 1, f);
    fclose(f);
    ptx[n] = 0;
    CUmodule mod;
    CUfunction fn;
    OK(cuModuleLoadData(&mod, ptx));
    OK(cuModuleGetFunction(&fn, mod, "tma_2d"));
    static float in[ROWS * P], out[ROWS * P];
    for (int i = 0; i < ROWS * P; i++) {
        in[i] = (float)(i % 97) - 40.0f;
        out[i] = -1.0f;
    }
    CUdeviceptr din, dout;
    OK(cuMemAlloc_v2(&din, sizeof(in)));
    OK(cuMemAlloc_v2(&dout, sizeof(out)));
    OK(cuMemcpyHtoD_v2(din, in, sizeof(in)));
    OK(cuMemcpyHtoD_v2(dout, out, sizeof(out)));
    CUtensorMap mi, mo;
    cuuint64_t dim[2] = {W, H}, stride[1] = {P * 4};
    cuuint32_t box[2] = {32, 32}, est[2] = {1, 1};
    OK(cuTensorMapEncodeTiled(&mi, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2,
                              (void *)(uintptr_t)din, dim, stride, box, est,
                              CU_TENSOR_MAP_INTERLEAVE_NONE,
                              CU_TENSOR_MAP_SWIZZLE_NONE,
                              CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                              CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
    mo = mi;
    OK(cuTensorMapReplaceAddress(&mo, (void *)(uintptr_t)dout));
    float scale = -2.0f;
    void *params[] = {&mi, &mo, &scale};
    OK(cuLaunchKernel(fn, 2, 1, 1, 64, 1, 1, 0, NULL, params, NULL));
    OK(cuCtxSynchronize());
    OK(cuMemcpyDtoH_v2(out, dout, sizeof(out)));
    for (int y = 0; y < ROWS; y++) {
        for (int x = 0; x < P; x++) {
            float exp = (x < W && y < H) ? in[y * P + x] * scale : -1.0f;
            ck_assert_msg(out[y * P + x] == exp, "(%d, %d): %g, not %g", x,
                          y, (double)out[y * P + x], (double)exp);
        }
    }
    OK(cuModuleUnload(mod));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("tensormap");
    TCase *tc = tcase_create("driver");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, encode_rules);
    tcase_add_test(tc, replace_address);
    tcase_add_test(tc, launch_tma_2d);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
