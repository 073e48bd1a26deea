/*
 * runtime/cuda/drv_export.h: the driver's private export tables
 * (cuGetExportTable), shared by the files that implement them.
 * Internal.
 *
 * Contract.  A CUDA runtime linked statically into a program (nvcc's
 * default, `-cudart static`, and CMake's CUDA_RUNTIME_LIBRARY Static)
 * dlopens libcuda.so.1, takes the documented entry points through
 * cuGetProcAddress, and asks for private tables with
 * cuGetExportTable(&table, &uuid).  A table is an array of pointers:
 * most begin with their own size in bytes, then functions.  NVIDIA does
 * not document them; what we know of each UUID, slot and argument was
 * found by tracing what CUDA 13.0's static runtime asks of this library
 * (`PTXEMU_TRACE=1` shows every request and slot call), checked against
 * the public notes of ZLUDA (github.com/vosen/ZLUDA, dark_api/src/lib.rs)
 * where it names the same slots.
 *
 * drv_export.c holds the table registry and cuGetExportTable; every slot
 * we do not implement answers CUDA_ERROR_NOT_SUPPORTED and names itself
 * in the trace.  drv_integrity.c holds the runtime's validity check.
 * A request for a UUID we do not know gets one stderr line naming it
 * and the runtime's version, and CUDA_ERROR_NOT_SUPPORTED.
 */
#ifndef PTXEMU_CUDA_DRV_EXPORT_H
#define PTXEMU_CUDA_DRV_EXPORT_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/cuda/drv.h"
#include "runtime/cuda/queue_table.h"

/* The tables we serve, in the order of drv_export.c's registry. */
typedef enum DrvTable {
    ETBL_CUDART,            /* module registration, primary context */
    ETBL_TOOLS_TLS,         /* tools thread-local state (size only) */
    ETBL_TOOLS_HOOKS,       /* runtime -> tools callback hooks */
    ETBL_CLS,               /* context-local storage */
    ETBL_CTX_CHECK,         /* per-context checks */
    ETBL_INTEGRITY,         /* the runtime's validity check */
    ETBL_SANITIZE,          /* ours: API errors of our libcudart
                               (runtime/sanitize.h) */
    ETBL_PTXEMU_QUEUE,      /* ours: stream work for our libcudart */
    ETBL_COUNT
} DrvTable;

/* The served table (the pointer handed to the runtime); its slot 1 for
 * the integrity check, which hashes these addresses. */
const void *const *drv_export_table(DrvTable t);

/* CONTEXT_LOCAL_STORAGE slots 0-2 (drv_export_cls.c). */
typedef void (*DrvClsDtor)(CUcontext ctx, void *key, void *value);
CUresult drv_cls_put(CUcontext ctx, void *key, void *value, DrvClsDtor dtor);
CUresult drv_cls_delete(CUcontext ctx, void *key);
CUresult drv_cls_get(void **value, CUcontext ctx, void *key);

/* INTEGRITY slot 1 (drv_integrity.c). */
CUresult drv_integrity_check(unsigned version, uint64_t unix_seconds,
                             uint64_t result[2]);

/* MD2 (RFC 1319) and HMAC (RFC 2104) over it, 16-byte key. */
typedef struct DrvMd2 {
    uint8_t x[48], c[16], buf[16];
    unsigned n;                         /* bytes in buf */
} DrvMd2;
void drv_md2_init(DrvMd2 *m);
void drv_md2_update(DrvMd2 *m, const void *data, size_t len);
void drv_md2_final(DrvMd2 *m, uint8_t out[16]);
void drv_hmac_md2(const uint8_t key[16], const void *msg, size_t len,
                  uint8_t out[16]);

/* A context goes away (destroyed, or the primary one reset or released
 * for the last time): run the destructors its context-local storage
 * holds.  Called from drv_ctx.c without drv.lock held. */
void drv_export_ctx_gone(CUcontext ctx);

/* The CUDA version a runtime asked cuGetProcAddress for (0: none yet),
 * for the message about an unknown table. */
void drv_export_note_version(int cuda_version);

#endif
