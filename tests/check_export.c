/*
 * tests/check_export.c: the driver's private export tables
 * (cuGetExportTable, runtime/cuda/drv_export.h) as the statically
 * linked CUDA runtime uses them, and the MD2/HMAC behind its integrity
 * check.
 *
 * References: MD2 against RFC 1319's test suite (appendix A.5); the
 * MD2 state after one HMAC inner block against the state ZLUDA
 * recorded from NVIDIA's driver (github.com/vosen/ZLUDA,
 * dark_api/src/lib.rs, test integrity_check_pass2); UUIDs and slot
 * layouts typed here as observed from CUDA 13.0's static runtime, not
 * taken from our tables.  The end-to-end check (the runtime accepting
 * our answers) is tests/exec.test.  Each test runs in its own process.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "abi/cuda_abi.h"
#include "runtime/cuda/drv_export.h"

#define OK(call) ck_assert_int_eq((int)(call), CUDA_SUCCESS)

static void hex16(const uint8_t *b, char out[33])
{
    for (int i = 0; i < 16; i++) {
        snprintf(out + 2 * i, 3, "%02x", b[i]);
    }
}

/* ------------------------------------------------------------ MD2 */

START_TEST(md2_rfc1319)
{
    static const struct {
        const char *msg, *digest;
    } suite[] = {
        {"", "8350e5a3e24c153df2275c9f80692773"},
        {"a", "32ec01ec4a6dac72c0ab96fb34c0b5d1"},
        {"abc", "da853b0d3f88d99b30283a69e6ded6bb"},
        {"message digest", "ab4f496bfb2a530b219ff33031fe06b0"},
        {"abcdefghijklmnopqrstuvwxyz", "4e8ddff3650292ab5a4108c3aa47940b"},
        {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
         "da33def2a42df13975352846c30338cd"},
        {"1234567890123456789012345678901234567890123456789012345678901234"
         "5678901234567890", "d5976f79d83d3a0dc9806c3c66f3efd8"},
    };
    for (size_t i = 0; i < sizeof(suite) / sizeof(suite[0]); i++) {
        /* whole, then a byte at a time: the same digest */
        for (int split = 0; split < 2; split++) {
            DrvMd2 m;
            uint8_t d[16];
            char text[33];
            size_t n = strlen(suite[i].msg);
            drv_md2_init(&m);
            if (split) {
                for (size_t k = 0; k < n; k++) {
                    drv_md2_update(&m, suite[i].msg + k, 1);
                }
            } else {
                drv_md2_update(&m, suite[i].msg, n);
            }
            drv_md2_final(&m, d);
            hex16(d, text);
            ck_assert_msg(!strcmp(text, suite[i].digest),
                          "MD2(\"%s\") = %s, want %s", suite[i].msg, text,
                          suite[i].digest);
        }
    }
}
END_TEST

/* The HMAC inner block (key ^ 0x36) leaves MD2's state as NVIDIA's
 * driver has it: X[0..48] and the checksum. */
START_TEST(md2_driver_state)
{
    static const uint8_t key[16] = {
        0x14, 0x6a, 0xdd, 0xae, 0x53, 0xa9, 0xa7, 0x52,
        0xaa, 0x08, 0x41, 0x36, 0x0b, 0xf5, 0x5a, 0x9f};
    static const uint8_t want[64] = {
        0x8b, 0x21, 0x9a, 0x49, 0xe8, 0x6d, 0x1a, 0xee, 0xf2, 0x37, 0xf9,
        0xb5, 0x4a, 0x8c, 0x3c, 0x75, 0xc7, 0x1e, 0xee, 0x21, 0xcf, 0x29,
        0x8a, 0xe5, 0x13, 0x83, 0xf4, 0xec, 0x33, 0x04, 0xe2, 0xfd, 0xb0,
        0x2f, 0x09, 0x01, 0x4f, 0xf7, 0x68, 0x6d, 0x69, 0x46, 0x43, 0x7e,
        0xb6, 0x2b, 0x21, 0xed, 0x57, 0xa1, 0x10, 0x86, 0x0e, 0x60, 0x44,
        0x1e, 0x70, 0x5f, 0x67, 0xd1, 0xeb, 0x67, 0xa1, 0x3d};
    uint8_t pad[16];
    for (int i = 0; i < 16; i++) {
        pad[i] = key[i] ^ 0x36;
    }
    DrvMd2 m;
    drv_md2_init(&m);
    drv_md2_update(&m, pad, 16);
    ck_assert_int_eq(m.n, 0);
    ck_assert_mem_eq(m.x, want, 48);
    ck_assert_mem_eq(m.c, want + 48, 16);
}
END_TEST

/* HMAC per RFC 2104 spelled out with the plain digest. */
START_TEST(hmac_composition)
{
    uint8_t key[16], msg[77], ipad[16 + 77], opad[32], inner[16], want[16];
    uint8_t got[16];
    for (int i = 0; i < 16; i++) {
        key[i] = (uint8_t)(i * 37 + 1);
    }
    for (int i = 0; i < 77; i++) {
        msg[i] = (uint8_t)(i * 11);
    }
    for (int i = 0; i < 16; i++) {
        ipad[i] = key[i] ^ 0x36;
        opad[i] = key[i] ^ 0x5c;
    }
    memcpy(ipad + 16, msg, 77);
    DrvMd2 m;
    drv_md2_init(&m);
    drv_md2_update(&m, ipad, sizeof(ipad));
    drv_md2_final(&m, inner);
    memcpy(opad + 16, inner, 16);
    drv_md2_init(&m);
    drv_md2_update(&m, opad, sizeof(opad));
    drv_md2_final(&m, want);
    drv_hmac_md2(key, msg, sizeof(msg), got);
    ck_assert_mem_eq(got, want, 16);
}
END_TEST

/* ------------------------------------------------------------ tables */

static const CUuuid cudart_id = {{
    0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a,
    0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9}};
static const CUuuid hooks_id = {{
    (char)0xa0, (char)0x94, 0x79, (char)0x8c, 0x2e, 0x74, 0x2e, 0x74,
    (char)0x93, (char)0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66}};
static const CUuuid tls_id = {{
    0x42, (char)0xd8, 0x5a, (char)0x81, 0x23, (char)0xf6, (char)0xcb, 0x47,
    (char)0x82, (char)0x98, (char)0xf6, (char)0xe7, (char)0x8a, 0x3a,
    (char)0xec, (char)0xdc}};
static const CUuuid cls_id = {{
    (char)0xc6, (char)0x93, 0x33, 0x6e, 0x11, 0x21, (char)0xdf, 0x11,
    (char)0xa8, (char)0xc3, 0x68, (char)0xf3, 0x55, (char)0xd8, (char)0x95,
    (char)0x93}};
static const CUuuid check_id = {{
    0x26, 0x3e, (char)0x88, 0x60, 0x7c, (char)0xd2, 0x61, 0x43,
    (char)0x92, (char)0xf6, (char)0xbb, (char)0xd5, 0x00, 0x6d, (char)0xfa,
    0x7e}};
static const CUuuid integrity_id = {{
    (char)0xd4, 0x08, 0x20, 0x55, (char)0xbd, (char)0xe6, 0x70, 0x4b,
    (char)0x8d, 0x34, (char)0xba, 0x12, 0x3c, 0x66, (char)0xe1,
    (char)0xf2}};

typedef CUresult (*Slot2)(uintptr_t, uintptr_t);

static const void *const *table(const CUuuid *id)
{
    const void *t = NULL;
    OK(cuGetExportTable(&t, id));
    ck_assert_ptr_nonnull(t);
    return t;
}

/* Tables that start with their size in bytes: the slot counts seen. */
START_TEST(table_sizes)
{
    OK(cuInit(0));
    ck_assert_uint_eq((uintptr_t)table(&cudart_id)[0], 10 * sizeof(void *));
    ck_assert_uint_eq((uintptr_t)table(&hooks_id)[0], 7 * sizeof(void *));
    ck_assert_uint_eq((uintptr_t)table(&tls_id)[0], 4 * sizeof(void *));
    ck_assert_uint_eq((uintptr_t)table(&check_id)[0], 4 * sizeof(void *));
    ck_assert_uint_eq((uintptr_t)table(&integrity_id)[0],
                      3 * sizeof(void *));
    /* the same table each time */
    ck_assert_ptr_eq(table(&cudart_id), table(&cudart_id));
}
END_TEST

/* Bad arguments, the table refused before cuInit, an unknown UUID (one
 * stderr line naming it and the runtime version), a known table asked
 * for by a runtime of another version (one line, once), a slot we do
 * not implement and one past the table's size. */
START_TEST(refusals)
{
    const void *t = (const void *)1;
    ck_assert_int_eq(cuGetExportTable(NULL, &cudart_id),
                     CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuGetExportTable(&t, NULL), CUDA_ERROR_INVALID_VALUE);
    static const CUuuid f8cf = {{
        (char)0xf8, (char)0xcf, (char)0xf9, 0x51, 0x21, 0x46, (char)0x8b,
        0x4e, (char)0xb9, (char)0xe2, (char)0xfb, 0x46, (char)0x9e, 0x7c,
        0x0d, (char)0xd9}};
    ck_assert_int_eq(cuGetExportTable(&t, &f8cf), CUDA_ERROR_NOT_FOUND);
    ck_assert_ptr_null(t);

    /* a CUDA 12.8 runtime: its newest entry point is of 12.8 */
    void *pfn;
    OK(cuGetProcAddress("cuInit", &pfn, 12080, 0));
    OK(cuInit(0));
    char path[] = "/tmp/check_export.XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    static const CUuuid unknown = {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                                    13, 14, 15, (char)0xff}};
    t = (const void *)1;
    CUresult r = cuGetExportTable(&t, &unknown);
    const void *known = NULL, *again = NULL;
    CUresult rk = cuGetExportTable(&known, &cudart_id);
    CUresult ra = cuGetExportTable(&again, &check_id);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    ck_assert_int_eq(r, CUDA_ERROR_NOT_SUPPORTED);
    ck_assert_ptr_null(t);
    OK(rk);
    OK(ra);
    ck_assert_ptr_nonnull(known);
    char text[1024] = "";
    FILE *fp = fopen(path, "r");
    size_t n = fread(text, 1, sizeof(text) - 1, fp);
    fclose(fp);
    unlink(path);
    text[n] = 0;
    char *second = strchr(text, '\n');
    ck_assert_ptr_nonnull(second);
    *second++ = 0;
    ck_assert_msg(strstr(text, "01020304-0506-0708-090a-0b0c0d0e0fff") &&
                  strstr(text, "CUDA 12.8"), "first line: %s", text);
    ck_assert_msg(strstr(second, "CUDA 12.8") &&
                  strstr(second, "known for 13.0"), "second line: %s",
                  second);
    /* two lines in all: the version is named once */
    ck_assert_int_eq(strlen(second), strchr(second, '\n') - second + 1);

    Slot2 s3 = (Slot2)(uintptr_t)((const void *const *)known)[3];
    ck_assert_int_eq(s3(0, 0), CUDA_ERROR_NOT_SUPPORTED);
    Slot2 s12 = (Slot2)(uintptr_t)((const void *const *)known)[12];
    ck_assert_int_eq(s12(0, 0), CUDA_ERROR_NOT_SUPPORTED);
}
END_TEST

/* CUDART_INTERFACE: [2] the primary context without retaining it,
 * [1] a module from a registration wrapper around PTX text. */
START_TEST(cudart_interface)
{
    OK(cuInit(0));
    const void *const *t = table(&cudart_id);
    CUcontext ctx = NULL, held;
    CUresult (*primary)(CUcontext *, CUdevice) =
        (CUresult (*)(CUcontext *, CUdevice))(uintptr_t)t[2];
    OK(primary(&ctx, 0));
    ck_assert_ptr_nonnull(ctx);
    ck_assert_int_eq(primary(&ctx, 1), CUDA_ERROR_INVALID_DEVICE);
    unsigned flags;
    int active = 1;
    OK(cuDevicePrimaryCtxGetState(0, &flags, &active));
    ck_assert_int_eq(active, 0);
    OK(cuDevicePrimaryCtxRetain(&held, 0));
    ck_assert_ptr_eq(held, ctx);
    OK(cuDevicePrimaryCtxRelease(0));
}
END_TEST

typedef CUresult (*ClsPut)(CUcontext, void *, void *,
                           void (*)(CUcontext, void *, void *));
typedef CUresult (*ClsDel)(CUcontext, void *);
typedef CUresult (*ClsGet)(void **, CUcontext, void *);

static CUcontext dtor_ctx;
static void *dtor_key, *dtor_value;
static int dtor_calls;

static void dtor(CUcontext ctx, void *key, void *value)
{
    dtor_ctx = ctx;
    dtor_key = key;
    dtor_value = value;
    dtor_calls++;
}

/* CONTEXT_LOCAL_STORAGE: values per (context, key); NULL is the current
 * context; a miss is CUDA_ERROR_INVALID_HANDLE; destroying the context
 * runs the destructor with what was stored. */
START_TEST(context_local_storage)
{
    OK(cuInit(0));
    const void *const *t = table(&cls_id);
    ClsPut put = (ClsPut)(uintptr_t)t[0];
    ClsDel del = (ClsDel)(uintptr_t)t[1];
    ClsGet get = (ClsGet)(uintptr_t)t[2];
    int k1, k2, v1, v2;
    void *v = NULL;
    ck_assert_int_eq(get(&v, NULL, &k1), CUDA_ERROR_INVALID_CONTEXT);
    CUcontext a, b;
    OK(cuCtxCreate(&a, 0, 0));
    ck_assert_int_eq(get(&v, NULL, &k1), CUDA_ERROR_INVALID_HANDLE);
    OK(put(NULL, &k1, &v1, dtor));
    OK(put(a, &k2, &v2, NULL));
    OK(get(&v, a, &k1));
    ck_assert_ptr_eq(v, &v1);
    OK(get(&v, NULL, &k2));
    ck_assert_ptr_eq(v, &v2);
    OK(put(a, &k2, &v1, NULL));         /* replaced */
    OK(get(&v, a, &k2));
    ck_assert_ptr_eq(v, &v1);
    OK(cuCtxCreate(&b, 0, 0));          /* now current: its own store */
    ck_assert_int_eq(get(&v, NULL, &k1), CUDA_ERROR_INVALID_HANDLE);
    OK(del(a, &k2));
    ck_assert_int_eq(get(&v, a, &k2), CUDA_ERROR_INVALID_HANDLE);
    ck_assert_int_eq(del(a, &k2), CUDA_ERROR_INVALID_HANDLE);
    OK(cuCtxDestroy(b));
    ck_assert_int_eq(dtor_calls, 0);
    OK(cuCtxDestroy(a));
    ck_assert_int_eq(dtor_calls, 1);
    ck_assert_ptr_eq(dtor_ctx, a);
    ck_assert_ptr_eq(dtor_key, &k1);
    ck_assert_ptr_eq(dtor_value, &v1);
    /* a reset primary context forgets its store too */
    CUcontext p;
    OK(cuDevicePrimaryCtxRetain(&p, 0));
    OK(put(p, &k1, &v2, dtor));
    OK(cuDevicePrimaryCtxReset(0));
    ck_assert_int_eq(dtor_calls, 2);
    ck_assert_ptr_eq(dtor_value, &v2);
    ck_assert_int_eq(get(&v, p, &k1), CUDA_ERROR_INVALID_HANDLE);
}
END_TEST

/* TOOLS_CALLBACK_HOOKS [2] and [6]: zeroed arrays (no callback on). */
START_TEST(tools_hooks)
{
    OK(cuInit(0));
    const void *const *t = table(&hooks_id);
    for (int s = 2; s <= 6; s += 4) {
        CUresult (*f)(void **, size_t *) =
            (CUresult (*)(void **, size_t *))(uintptr_t)t[s];
        void *buf = NULL;
        size_t n = 0;
        OK(f(&buf, &n));
        ck_assert_ptr_nonnull(buf);
        ck_assert_uint_ge(n, 4);
        for (size_t i = 0; i < n; i++) {
            ck_assert_int_eq(((unsigned char *)buf)[i], 0);
        }
    }
}
END_TEST

/* INTEGRITY_CHECK [1]: the constant answers for version % 10 of 0 and
 * 1; otherwise HMAC-MD2 of the record of drv_integrity.c, rebuilt here
 * from what the driver's public API says. */
START_TEST(integrity)
{
    OK(cuInit(0));
    const void *const *t = table(&integrity_id);
    CUresult (*check)(unsigned, uint64_t, uint64_t *) =
        (CUresult (*)(unsigned, uint64_t, uint64_t *))(uintptr_t)t[1];
    uint64_t r[2];
    OK(check(13000, 1, r));
    ck_assert_uint_eq(r[0], 0x3341181c03cb675cull);
    ck_assert_uint_eq(r[1], 0x8ed383aa1f4cd1e8ull);
    OK(check(12081, 1, r));
    ck_assert_uint_eq(r[0], 0x1841181c03cb675cull);
    ck_assert_uint_eq(r[1], 0x8ed383aa1f4cd1e8ull);

    uint64_t secs = 1795677737;
    OK(check(13002, secs, r));
    int v, dom, bus, dev;
    CUuuid uuid;
    OK(cuDriverGetVersion(&v));
    OK(cuDeviceGetUuid(&uuid, 0));
    OK(cuDeviceGetAttribute(&dom, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, 0));
    OK(cuDeviceGetAttribute(&bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, 0));
    OK(cuDeviceGetAttribute(&dev, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, 0));
    uint8_t msg[48 + 28];
    uint32_t w[4] = {(uint32_t)v, 13002, (uint32_t)getpid(),
                     (uint32_t)(uintptr_t)pthread_self()};
    uint64_t q[4] = {(uint64_t)(uintptr_t)table(&cudart_id),
                     (uint64_t)(uintptr_t)t, (uint64_t)(uintptr_t)t[1],
                     secs};
    int32_t pci[3] = {dom, bus, dev};
    memcpy(msg, w, 16);
    memcpy(msg + 16, q, 32);
    memcpy(msg + 48, uuid.bytes, 16);
    memcpy(msg + 64, pci, 12);
    static const uint8_t key[16] = {
        0x14, 0x6a, 0xdd, 0xae, 0x53, 0xa9, 0xa7, 0x52,
        0xaa, 0x08, 0x41, 0x36, 0x0b, 0xf5, 0x5a, 0x9f};
    uint8_t want[16];
    drv_hmac_md2(key, msg, sizeof(msg), want);
    ck_assert_mem_eq(r, want, 16);
    /* the seconds are part of it */
    uint64_t r2[2];
    OK(check(13002, secs + 1, r2));
    ck_assert(memcmp(r, r2, 16) != 0);
    ck_assert_int_eq(check(13002, secs, NULL), CUDA_ERROR_INVALID_VALUE);
}
END_TEST

/* CONTEXT_CHECK [2] answers 0 in its first out-parameter, [3] 0. */
START_TEST(context_check)
{
    OK(cuInit(0));
    const void *const *t = table(&check_id);
    CUresult (*c2)(CUcontext, unsigned *, void **) =
        (CUresult (*)(CUcontext, unsigned *, void **))(uintptr_t)t[2];
    unsigned (*c3)(void) = (unsigned (*)(void))(uintptr_t)t[3];
    unsigned flags = 7;
    void *extra = NULL;
    OK(c2(NULL, &flags, &extra));
    ck_assert_uint_eq(flags, 0);
    ck_assert_uint_eq(c3(), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("export");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, md2_rfc1319);
    tcase_add_test(tc, md2_driver_state);
    tcase_add_test(tc, hmac_composition);
    tcase_add_test(tc, table_sizes);
    tcase_add_test(tc, refusals);
    tcase_add_test(tc, cudart_interface);
    tcase_add_test(tc, context_local_storage);
    tcase_add_test(tc, tools_hooks);
    tcase_add_test(tc, integrity);
    tcase_add_test(tc, context_check);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
