/*
 * emu/devrt_int.h: what the files of the device runtime share
 * (devrt.c: launching, streams, the per-thread last error;
 * devrt_query.c: device, function and error queries; devrt_async.c:
 * memcpy and memset into streams).  Internal; the contract is
 * emu/devrt.h.
 */
#ifndef PTXEMU_EMU_DEVRT_INT_H
#define PTXEMU_EMU_DEVRT_INT_H

#include "emu/exec.h"

/* cudaError_t values (driver_types.h) the device runtime returns */
enum {
    CDP_OK = 0,
    CDP_ERR_INVALID_VALUE = 1,
    CDP_ERR_MEMORY_ALLOCATION = 2,
    CDP_ERR_INVALID_CONFIGURATION = 9,
    CDP_ERR_INVALID_PITCH = 12,
    CDP_ERR_INVALID_DEVICE_POINTER = 17,
    CDP_ERR_INVALID_MEMCPY_DIRECTION = 21,
    CDP_ERR_INVALID_DEVICE = 101,
    CDP_ERR_MAX_DEPTH = 65,
    CDP_ERR_PENDING_COUNT = 69,
    CDP_ERR_INVALID_DEVICE_FUNCTION = 98,
    CDP_ERR_INVALID_HANDLE = 400,
    CDP_ERR_UNSUPPORTED_LIMIT = 708,
};

typedef enum ChildKind {
    CHILD_GRID = 0,
    CHILD_COPY,                   /* cudaMemcpy{,2D,3D}Async */
    CHILD_SET                     /* cudaMemset{,2D,3D}Async */
} ChildKind;

/* A box of bytes: depth slices of height rows of width bytes, rows
 * pitch apart, slices slice apart. */
typedef struct CdpBox {
    uint64_t addr, pitch, slice;
} CdpBox;

/* Work queued by a thread of the launch, run in queue order after the
 * launch's threads finished (tail launches last). */
typedef struct Child {
    ChildKind kind;
    const EmuFunc *kernel;        /* CHILD_GRID */
    uint32_t grid[3], block[3], shmem;
    uint8_t *params;              /* kernel->param_bytes */
    CdpBox dst, src;              /* CHILD_COPY, CHILD_SET (dst only) */
    uint64_t width, height, depth;
    uint8_t value;                /* CHILD_SET */
    const char *what;             /* the API function, for faults */
    bool tail;                    /* cudaStreamTailLaunch */
    bool started;
    uint32_t by_ctaid[3], by_tid[3];
    const EmuFunc *by_func;       /* the call that queued it */
    uint32_t by_pc;
} Child;

/* Return err from the call for this lane, remembering it as the
 * thread's last error when it is one. */
void cdp_result(EmuCtx *x, const EmuInsn *i, unsigned lane, uint32_t err);
/* Store n (4 or 8) bytes at a generic address; false after a located
 * fault whose detail starts with `what`. */
bool cdp_gwrite(EmuCtx *x, unsigned lane, uint64_t addr, uint64_t v,
                uint32_t n, const char *what);
/* Write an n-byte answer through pointer argument 0 and return
 * success; cudaErrorInvalidValue for a null pointer. */
void cdp_answer(EmuCtx *x, const EmuInsn *i, unsigned lane, uint64_t v,
                uint32_t n, const char *what);
/* The kernel of a function value (`mov.u64 %rd, kernel`), or NULL. */
const EmuFunc *cdp_kernel_of(const EmuCtx *x, uint64_t func);
/* A new queue entry of the lane's thread for `stream` (filled in by
 * the caller, kind CHILD_GRID and zeroes), or NULL with *err set. */
Child *cdp_queue(EmuCtx *x, unsigned lane, uint64_t stream,
                 uint32_t *err);

/* devrt_async.c: run a queued copy or set of launch l; a fault is
 * stored in l (located at the thread that queued it). */
EmuStatus cdp_run_mem(EmuLaunch *l, const Child *c);

/* The handlers of devrt_query.c and devrt_async.c */
void cdp_op_error_string(EmuCtx *x, const EmuInsn *i, uint32_t mask);
void cdp_op_error_name(EmuCtx *x, const EmuInsn *i, uint32_t mask);
void cdp_op_device_attribute(EmuCtx *x, const EmuInsn *i, uint32_t mask);
void cdp_op_cache_config(EmuCtx *x, const EmuInsn *i, uint32_t mask);
void cdp_op_shmem_config(EmuCtx *x, const EmuInsn *i, uint32_t mask);
void cdp_op_func_attributes(EmuCtx *x, const EmuInsn *i, uint32_t mask);
void cdp_op_occupancy(EmuCtx *x, const EmuInsn *i, uint32_t mask);
void cdp_op_occupancy_flags(EmuCtx *x, const EmuInsn *i, uint32_t mask);
void cdp_op_memcpy(EmuCtx *x, const EmuInsn *i, uint32_t mask);
void cdp_op_memcpy_2d(EmuCtx *x, const EmuInsn *i, uint32_t mask);
void cdp_op_memcpy_3d(EmuCtx *x, const EmuInsn *i, uint32_t mask);
void cdp_op_memset(EmuCtx *x, const EmuInsn *i, uint32_t mask);
void cdp_op_memset_2d(EmuCtx *x, const EmuInsn *i, uint32_t mask);
void cdp_op_memset_3d(EmuCtx *x, const EmuInsn *i, uint32_t mask);

#endif
