/*
 * runtime/cuda/drv_export.c: cuGetExportTable and the private tables
 * that the statically linked CUDA runtime asks for (contract and
 * sources in drv_export.h).
 *
 * Each table is described once below (name, UUID, length, whether slot
 * 0 holds the size, the slots we implement); the pointer array handed
 * out is built from that on first use.  A slot we do not implement is a
 * stub that names the table and slot in the API trace, with the six
 * integer arguments as they arrived, and answers
 * CUDA_ERROR_NOT_SUPPORTED: the trace of a program shows which slots a
 * runtime really calls.  (CUDA 13.0's runtime loads its fat binaries
 * with cuLibraryLoadData; the CUDART_INTERFACE slots that older ones
 * used for that, 1, 6 and 8 in ZLUDA's notes, are such stubs.)  The
 * stubs read their arguments as six integer registers whatever the
 * slot takes (x86-64 and AArch64 pass the first six in registers; the
 * caller owns them).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cuda/drv_export.h"
#include "runtime/sanitize.h"
#include "runtime/cuda/drv_queue.h"

enum { MAX_SLOTS = 16 };

typedef uintptr_t (*SlotFn)(uintptr_t, uintptr_t, uintptr_t, uintptr_t,
                            uintptr_t, uintptr_t);

typedef struct Impl {
    unsigned slot;
    const void *fn;
} Impl;

typedef struct TableDesc {
    const char *name;
    uint8_t uuid[16];
    unsigned nslots;
    int sized;                          /* slot 0 holds the size */
    Impl impl[8];                       /* ends at fn == NULL */
} TableDesc;

/* ------------------------------------------------------------ stubs */

static uintptr_t unimplemented(unsigned t, unsigned slot, uintptr_t a0,
                               uintptr_t a1, uintptr_t a2, uintptr_t a3,
                               uintptr_t a4, uintptr_t a5);

#define STUB(t, s) \
    static uintptr_t stub_##t##_##s(uintptr_t a0, uintptr_t a1, \
                                    uintptr_t a2, uintptr_t a3, \
                                    uintptr_t a4, uintptr_t a5) \
    { \
        return unimplemented(t, s, a0, a1, a2, a3, a4, a5); \
    }
#define STUBS(t) \
    STUB(t, 0) STUB(t, 1) STUB(t, 2) STUB(t, 3) STUB(t, 4) STUB(t, 5) \
    STUB(t, 6) STUB(t, 7) STUB(t, 8) STUB(t, 9) STUB(t, 10) STUB(t, 11) \
    STUB(t, 12) STUB(t, 13) STUB(t, 14) STUB(t, 15)
#define STUB_ROW(t) \
    {stub_##t##_0, stub_##t##_1, stub_##t##_2, stub_##t##_3, \
     stub_##t##_4, stub_##t##_5, stub_##t##_6, stub_##t##_7, \
     stub_##t##_8, stub_##t##_9, stub_##t##_10, stub_##t##_11, \
     stub_##t##_12, stub_##t##_13, stub_##t##_14, stub_##t##_15}

STUBS(0) STUBS(1) STUBS(2) STUBS(3) STUBS(4) STUBS(5) STUBS(6) STUBS(7)
static const SlotFn stubs[ETBL_COUNT][MAX_SLOTS] = {
    STUB_ROW(0), STUB_ROW(1), STUB_ROW(2), STUB_ROW(3), STUB_ROW(4),
    STUB_ROW(5), STUB_ROW(6), STUB_ROW(7)
};

/* ------------------------------------------------------------ CUDART */

/* [2] (CUcontext *out, CUdevice dev): the device's primary context,
 * not retained: the runtime retains it through
 * cuDevicePrimaryCtxRetain when it first uses it, and releases it once
 * at exit. */
static CUresult cudart_primary(CUcontext *out, CUdevice dev)
{
    CUresult r = !drv.initialized ? CUDA_ERROR_NOT_INITIALIZED
                 : !out ? CUDA_ERROR_INVALID_VALUE
                 : dev != 0 ? CUDA_ERROR_INVALID_DEVICE : CUDA_SUCCESS;
    if (!r) {
        *out = &drv.primary;
    }
    return drv_trace(r, "CUDART_INTERFACE[2] primary context", "%p, %d",
                     (void *)out, dev);
}

/* ------------------------------------------------------------ tools */

/* [2], [6] (void **buf, size_t *bytes): arrays the runtime reads to see
 * which of its API callbacks a tool has enabled; all zero, since no
 * tool is attached.  The sizes are those ZLUDA found. */
static uint32_t hooks_buf2[1024], hooks_buf6[14];

static CUresult hooks_buffer(void **buf, size_t *bytes, void *mem,
                             size_t len, const char *name)
{
    CUresult r = CUDA_ERROR_INVALID_VALUE;
    if (buf && bytes) {
        *buf = mem;
        *bytes = len;
        r = CUDA_SUCCESS;
    }
    return drv_trace(r, name, "%p, %p", (void *)buf, (void *)bytes);
}

static CUresult hooks_buffer2(void **buf, size_t *bytes)
{
    return hooks_buffer(buf, bytes, hooks_buf2, sizeof(hooks_buf2),
                        "TOOLS_CALLBACK_HOOKS[2] callback mask");
}

static CUresult hooks_buffer6(void **buf, size_t *bytes)
{
    return hooks_buffer(buf, bytes, hooks_buf6, sizeof(hooks_buf6),
                        "TOOLS_CALLBACK_HOOKS[6] callback mask");
}

/* ------------------------------------------------------------ checks */

/* [2] (CUcontext ctx, unsigned *flags, void **extra): *flags 0 (ZLUDA
 * observed 0 from the real driver). */
static CUresult ctx_check(CUcontext ctx, unsigned *flags, void **extra)
{
    CUresult r = CUDA_ERROR_INVALID_VALUE;
    if (flags) {
        *flags = 0;
        r = CUDA_SUCCESS;
    }
    return drv_trace(r, "CONTEXT_CHECK[2]", "%p, %p, %p", (void *)ctx,
                     (void *)flags, (void *)extra);
}

/* [3] (): 0 */
static unsigned ctx_check3(void)
{
    drv_trace(CUDA_SUCCESS, "CONTEXT_CHECK[3]", "%s", "");
    return 0;
}

/* ------------------------------------------------------------ registry */

static CUresult integrity_slot(unsigned version, uint64_t secs,
                               uint64_t result[2])
{
    return drv_trace(drv_integrity_check(version, secs, result),
                     "INTEGRITY_CHECK[1]", "%u, %llu, %p", version,
                     (unsigned long long)secs, (void *)result);
}

#define FN(f) ((const void *)(uintptr_t)(f))

static const TableDesc descs[ETBL_COUNT] = {
    [ETBL_CUDART] = {"CUDART_INTERFACE",
        {0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a,
         0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9}, 10, 1,
        {{2, FN(cudart_primary)}}},
    [ETBL_TOOLS_TLS] = {"TOOLS_TLS",
        {0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47,
         0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc}, 4, 1, {{0}}},
    [ETBL_TOOLS_HOOKS] = {"TOOLS_CALLBACK_HOOKS",
        {0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74,
         0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66}, 7, 1,
        {{2, FN(hooks_buffer2)}, {6, FN(hooks_buffer6)}}},
    [ETBL_CLS] = {"CONTEXT_LOCAL_STORAGE",
        {0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11,
         0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93}, 4, 0,
        {{0, FN(drv_cls_put)}, {1, FN(drv_cls_delete)},
         {2, FN(drv_cls_get)}}},
    [ETBL_CTX_CHECK] = {"CONTEXT_CHECK",
        {0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43,
         0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e}, 4, 1,
        {{2, FN(ctx_check)}, {3, FN(ctx_check3)}}},
    [ETBL_INTEGRITY] = {"INTEGRITY_CHECK",
        {0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b,
         0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2}, 3, 1,
        {{1, FN(integrity_slot)}}},
    [ETBL_SANITIZE] = {"PTXEMU_SANITIZE", RT_SAN_TABLE_UUID, 2, 1,
        {{1, FN(drv_sanitize_api_error)}}},
    [ETBL_PTXEMU_QUEUE] = {"PTXEMU_QUEUE", DRV_PTXEMU_QUEUE_UUID, 4, 1,
        {{1, FN(drv_enqueue_seq)}, {2, FN(drv_dev_lock)},
         {3, FN(drv_dev_unlock)}}},
};

/* Asked for before cuInit; refused, the runtime goes on without it
 * (a table we do not serve, not an unknown one: no message). */
static const uint8_t refused_uuid[16] = {
    0xf8, 0xcf, 0xf9, 0x51, 0x21, 0x46, 0x8b, 0x4e,
    0xb9, 0xe2, 0xfb, 0x46, 0x9e, 0x7c, 0x0d, 0xd9};

static const void *tables[ETBL_COUNT][MAX_SLOTS];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void build_tables(void)
{
    for (unsigned t = 0; t < ETBL_COUNT; t++) {
        const TableDesc *d = &descs[t];
        /* Stubs past the end too: a runtime whose table is longer than
         * the size we give gets an error it can report, not a NULL to
         * call. */
        for (unsigned s = 0; s < MAX_SLOTS; s++) {
            tables[t][s] = FN(stubs[t][s]);
        }
        if (d->sized) {
            tables[t][0] = (const void *)(uintptr_t)(d->nslots *
                                                     sizeof(void *));
        }
        for (const Impl *i = d->impl; i->fn; i++) {
            tables[t][i->slot] = i->fn;
        }
    }
}

const void *const *drv_export_table(DrvTable t)
{
    pthread_once(&tables_once, build_tables);
    return tables[t];
}

static uintptr_t unimplemented(unsigned t, unsigned slot, uintptr_t a0,
                               uintptr_t a1, uintptr_t a2, uintptr_t a3,
                               uintptr_t a4, uintptr_t a5)
{
    char name[64];
    snprintf(name, sizeof(name), "%s[%u] (not provided)", descs[t].name,
             slot);
    return drv_trace(CUDA_ERROR_NOT_SUPPORTED, name,
                     "0x%lx, 0x%lx, 0x%lx, 0x%lx, 0x%lx, 0x%lx",
                     (unsigned long)a0, (unsigned long)a1,
                     (unsigned long)a2, (unsigned long)a3,
                     (unsigned long)a4, (unsigned long)a5);
}

/* ------------------------------------------------------------ entry */

static _Atomic int rt_version;

void drv_export_note_version(int cuda_version)
{
    if (cuda_version > rt_version) {
        rt_version = cuda_version;
    }
}

static void uuid_text(const uint8_t *b, char out[40])
{
    snprintf(out, 40, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
             "%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3], b[4], b[5],
             b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
             b[15]);
}

/* The runtime's CUDA version as "13.0": the newest entry point version
 * it asked cuGetProcAddress for (it asks for them all before its first
 * table), so a lower bound. */
static void version_text(char out[24])
{
    int v = rt_version;
    if (v > 0) {
        snprintf(out, 24, "%d.%d", v / 1000, v % 1000 / 10);
    } else {
        snprintf(out, 24, "unknown");
    }
}

/* Once: the tables were found with CUDA 13.0's runtime; another one may
 * expect them to differ. */
static void check_version(void)
{
    static _Atomic int said;
    int v = rt_version;
    if (v / 10 != PTXEMU_CUDA_VERSION / 10 && v > 0 &&
        !atomic_exchange_explicit(&said, 1, memory_order_relaxed)) {
        char text[24];
        version_text(text);
        fprintf(stderr, "ptxemu: the CUDA runtime linked into the program "
                "is CUDA %s; the driver's private tables are known for "
                "13.0 (if it fails, build with -cudart shared)\n", text);
    }
}

static CUresult get_table(const void **out, const CUuuid *id,
                          const char **name)
{
    if (!out || !id) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    *out = NULL;
    for (unsigned t = 0; t < ETBL_COUNT; t++) {
        if (!memcmp(id->bytes, descs[t].uuid, 16)) {
            check_version();
            *name = descs[t].name;
            *out = drv_export_table(t);
            return CUDA_SUCCESS;
        }
    }
    if (!memcmp(id->bytes, refused_uuid, 16)) {
        *name = "(not provided)";
        return CUDA_ERROR_NOT_FOUND;
    }
    char text[40], version[24];
    uuid_text((const uint8_t *)id->bytes, text);
    version_text(version);
    fprintf(stderr, "ptxemu: the CUDA runtime linked into the program "
            "(CUDA %s) asked the driver for private table {%s}, which the "
            "emulator does not know (build with -cudart shared)\n",
            version, text);
    *name = "(unknown)";
    return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuGetExportTable(const void **ppExportTable,
                          const CUuuid *pExportTableId)
{
    const char *name = "";
    CUresult r = get_table(ppExportTable, pExportTableId, &name);
    char text[40] = "null";
    if (pExportTableId) {
        uuid_text((const uint8_t *)pExportTableId->bytes, text);
    }
    return drv_trace(r, "cuGetExportTable", "%p, {%s} %s",
                     (void *)ppExportTable, text, name);
}
