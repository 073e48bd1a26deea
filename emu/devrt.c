/*
 * emu/devrt.c: the CUDA device runtime (dynamic parallelism).
 * See emu/devrt.h for the contract.
 *
 * Error codes and stream handles are CUDA's ABI values (driver_types.h,
 * cuda_device_runtime_api.h): cudaStreamTailLaunch is 0x3,
 * cudaStreamFireAndForget 0x4, cudaStreamNonBlocking 0x1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/access.h"
#include "emu/builtins.h"
#include "emu/devrt.h"
#include "emu/devrt_int.h"
#include "emu/memory.h"
#include "emu/tolerate.h"

typedef struct EmuDevrt EmuDevrt;

#define STREAM_TAIL 3u
#define STREAM_FIRE_AND_FORGET 4u
/* handles of device-created streams and events: never a small value or
 * a device address */
#define HANDLE_BASE 0x00c0da0000000000ull
#define HANDLE_EVENT 0x0000008000000000ull

/* A parameter buffer handed out and not launched yet. */
typedef struct Buffer {
    uint64_t addr, size;
    const EmuFunc *kernel;        /* V2: from the buffer call; V1: NULL */
    uint32_t grid[3], block[3], shmem;
} Buffer;

typedef struct ErrSlot {
    uint64_t key;                 /* thread key + 1; 0 = empty */
    uint32_t err;
} ErrSlot;

struct EmuDevrt {
    Child *kids;
    size_t nkids, capkids;
    Buffer *bufs;
    size_t nbufs, capbufs;
    ErrSlot *errs;                /* the threads' last errors */
    size_t errcap, errused;
    uint64_t *handles;            /* live streams and events */
    size_t nhandles, caphandles;
    uint64_t next_handle;
};

static bool grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) {
        return true;
    }
    size_t nc = *cap ? *cap * 2 : 16;
    while (nc < need) {
        nc *= 2;
    }
    void *q = realloc(*p, nc * elem);
    if (!q) {
        return false;
    }
    *p = q;
    *cap = nc;
    return true;
}

static EmuDevrt *state(EmuCtx *x)
{
    EmuLaunch *l = x->launch;
    if (!l->devrt) {
        l->devrt = calloc(1, sizeof(*l->devrt));
    }
    if (!l->devrt) {
        emu_fault(x, EMU_ERR_OUT_OF_MEMORY, 0, 0, 0, PTX_SPACE_NONE,
                  "device runtime: out of host memory");
    }
    return l->devrt;
}

/* ------------------------------------------- per-thread last error */

/* Kept in a hash table (open addressing, linear probing) for the
 * threads that had an error: a grid may have millions of threads. */

static uint64_t thread_key(const EmuCtx *x, unsigned lane)
{
    const EmuLaunch *l = x->launch;
    uint64_t nt = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    return (uint64_t)x->cta->linear * nt + x->warp->id * EMU_WARP_SIZE +
           lane + 1;
}

static ErrSlot *err_slot(EmuDevrt *r, uint64_t key, bool add)
{
    if (add && (r->errused + 1) * 2 > r->errcap) {
        size_t nc = r->errcap ? r->errcap * 2 : 64;
        ErrSlot *n = calloc(nc, sizeof(*n));
        if (!n) {
            return NULL;
        }
        for (size_t k = 0; k < r->errcap; k++) {
            if (r->errs[k].key) {
                size_t h = (size_t)(r->errs[k].key * 0x9e3779b97f4a7c15ull)
                           & (nc - 1);
                while (n[h].key) {
                    h = (h + 1) & (nc - 1);
                }
                n[h] = r->errs[k];
            }
        }
        free(r->errs);
        r->errs = n;
        r->errcap = nc;
    }
    if (!r->errcap) {
        return NULL;
    }
    size_t h = (size_t)(key * 0x9e3779b97f4a7c15ull) & (r->errcap - 1);
    while (r->errs[h].key && r->errs[h].key != key) {
        h = (h + 1) & (r->errcap - 1);
    }
    if (!r->errs[h].key) {
        if (!add) {
            return NULL;
        }
        r->errs[h].key = key;
        r->errused++;
    }
    return &r->errs[h];
}

/* Remember err as the thread's last error when it is one. */
static void set_error(EmuCtx *x, unsigned lane, uint32_t err)
{
    if (err != CDP_OK) {
        EmuDevrt *r = state(x);
        ErrSlot *s = r ? err_slot(r, thread_key(x, lane), true) : NULL;
        if (s) {
            s->err = err;
        }
    }
}

void cdp_result(EmuCtx *x, const EmuInsn *i, unsigned lane, uint32_t err)
{
    set_error(x, lane, err);
    emu_builtin_ret(x, i, lane, err);
}

static uint32_t last_error(EmuCtx *x, unsigned lane, bool clear)
{
    EmuDevrt *r = x->launch->devrt;
    ErrSlot *s = r ? err_slot(r, thread_key(x, lane), false) : NULL;
    if (!s) {
        return CDP_OK;
    }
    uint32_t e = s->err;
    if (clear) {
        s->err = CDP_OK;
    }
    return e;
}

static void op_get_last_error(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        emu_builtin_ret(x, i, lane, last_error(x, lane, true));
    }
}

static void op_peek_last_error(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        emu_builtin_ret(x, i, lane, last_error(x, lane, false));
    }
}

/* -------------------------------------------------- guest writes */

/* f's detail becomes pre ": " mid post (cut to fit). */
static void set_detail(EmuFault *f, const char *pre, const char *mid,
                       const char *post)
{
    char d[3 * sizeof(f->detail)];
    snprintf(d, sizeof(d), "%s%s%.*s%s", pre, *pre ? ": " : "",
             (int)sizeof(f->detail), mid, post);
    snprintf(f->detail, sizeof(f->detail), "%.*s",
             (int)sizeof(f->detail) - 1, d);
}

bool cdp_gwrite(EmuCtx *x, unsigned lane, uint64_t addr, uint64_t v,
                   uint32_t n, const char *what)
{
    uint8_t *p = emu_access(x, lane, PTX_SPACE_GENERIC, addr, n,
                            EMU_ACC_WRITE);
    if (!p) {
        if (x->fault) {
            set_detail(x->fault, what, x->fault->detail, "");
            x->dev->last_fault = *x->fault;
        }
        return false;
    }
    memcpy(p, &v, n);
    emu_progress(x->cta);
    return true;
}

/* ------------------------------------------------------ launching */

const EmuFunc *cdp_kernel_of(const EmuCtx *x, uint64_t func)
{
    const EmuModule *m = x->launch->mod;
    if (func >= m->nfuncs || !m->funcs[func]) {
        return NULL;
    }
    const EmuFunc *f = m->funcs[func];
    return f->ir->is_entry && !f->ir->is_decl ? f : NULL;
}

static uint32_t pending_limit(const EmuDevice *d)
{
    return d->cdp_pending_limit ? d->cdp_pending_limit
                                : EMU_CDP_PENDING_DEFAULT;
}

/* Hand out a parameter buffer of `size` bytes; 0 with *err set. */
static uint64_t new_buffer(EmuCtx *x, const Buffer *b, uint32_t *err)
{
    EmuDevice *d = x->dev;
    EmuDevrt *r = state(x);
    if (!r) {
        return 0;
    }
    if (d->cdp_pending >= pending_limit(d)) {
        *err = CDP_ERR_PENDING_COUNT;
        return 0;
    }
    if (!grow((void **)&r->bufs, &r->capbufs, r->nbufs + 1,
              sizeof(*r->bufs))) {
        *err = CDP_ERR_MEMORY_ALLOCATION;
        return 0;
    }
    uint64_t a = emu_mem_alloc(d->mem, b->size, EMU_ALLOC_DEVICE,
                               "device-launch parameter buffer");
    if (!a) {
        *err = CDP_ERR_MEMORY_ALLOCATION;
        return 0;
    }
    r->bufs[r->nbufs] = *b;
    r->bufs[r->nbufs++].addr = a;
    d->cdp_pending++;
    emu_progress(x->cta);
    return a;
}

/* Release buffer k of the launch (and its pending-launch slot). */
static void drop_buffer(EmuLaunch *l, size_t k)
{
    EmuDevrt *r = l->devrt;
    emu_mem_release(l->dev->mem, r->bufs[k].addr);
    l->dev->cdp_pending--;
    r->bufs[k] = r->bufs[--r->nbufs];
}

static Buffer *find_buffer(EmuDevrt *r, uint64_t addr, size_t *k)
{
    for (size_t j = r ? r->nbufs : 0; j-- > 0;) {
        if (r->bufs[j].addr == addr) {
            *k = j;
            return &r->bufs[j];
        }
    }
    return NULL;
}

static void read_dim3(EmuCtx *x, const EmuInsn *i, unsigned lane,
                      uint32_t j, uint32_t d[3])
{
    uint8_t b[12];
    emu_builtin_arg_bytes(x, i, lane, j, b, sizeof(b));
    memcpy(d, b, sizeof(b));
}

/* __cudaCDP2GetParameterBufferV2(func, dim3 grid, dim3 block, shmem) */
static void op_param_buffer_v2(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        Buffer b;
        memset(&b, 0, sizeof(b));
        b.kernel = cdp_kernel_of(x, emu_builtin_arg(x, i, lane, 0));
        read_dim3(x, i, lane, 1, b.grid);
        read_dim3(x, i, lane, 2, b.block);
        b.shmem = (uint32_t)emu_builtin_arg(x, i, lane, 3);
        uint32_t err = CDP_ERR_INVALID_DEVICE_FUNCTION;
        uint64_t a = 0;
        if (b.kernel) {
            b.size = b.kernel->param_bytes;
            a = new_buffer(x, &b, &err);
        }
        if (x->fault) {
            return;
        }
        if (!a) {
            set_error(x, lane, err);
        }
        emu_builtin_ret(x, i, lane, a);
    }
}

/* __cudaCDP2GetParameterBuffer(alignment, size) */
static void op_param_buffer(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        Buffer b;
        memset(&b, 0, sizeof(b));
        uint64_t align = emu_builtin_arg(x, i, lane, 0);
        b.size = emu_builtin_arg(x, i, lane, 1);
        uint32_t err = CDP_ERR_INVALID_VALUE;
        uint64_t a = 0;
        if ((align & (align - 1)) == 0 && align <= 256 &&
            b.size <= (1u << 20)) {
            a = new_buffer(x, &b, &err);
        }
        if (x->fault) {
            return;
        }
        if (!a) {
            set_error(x, lane, err);
        }
        emu_builtin_ret(x, i, lane, a);
    }
}

static bool bad_config(const EmuDevice *d, const EmuFunc *k,
                       const uint32_t g[3], const uint32_t b[3],
                       uint32_t shmem)
{
    uint64_t nt = (uint64_t)b[0] * b[1] * b[2];
    return !g[0] || !g[1] || !g[2] || !nt || g[0] > INT32_MAX ||
           g[1] > 65535 || g[2] > 65535 || b[0] > 1024 || b[1] > 1024 ||
           b[2] > 64 || nt > d->cfg.max_threads_per_block ||
           (uint64_t)k->shared_bytes + shmem > d->cfg.max_shared_per_block ||
           (uint64_t)k->shared_bytes + shmem > EMU_RESV_SMEM_BEGIN ||
           k->dyn_shared_offset + shmem > EMU_RESV_SMEM_BEGIN;
}

static bool stream_known(const EmuDevrt *r, uint64_t s)
{
    for (size_t k = 0; k < r->nhandles; k++) {
        if (r->handles[k] == s && !(s & HANDLE_EVENT)) {
            return true;
        }
    }
    return false;
}

/* A new entry at the end of the launch's queue, by the lane's thread,
 * or NULL when out of host memory. */
static Child *push_child(EmuCtx *x, unsigned lane, uint64_t stream)
{
    EmuDevrt *r = x->launch->devrt;
    if (!grow((void **)&r->kids, &r->capkids, r->nkids + 1,
              sizeof(*r->kids))) {
        return NULL;
    }
    Child *c = &r->kids[r->nkids++];
    memset(c, 0, sizeof(*c));
    c->tail = stream == STREAM_TAIL;
    memcpy(c->by_ctaid, x->cta->ctaid, sizeof(c->by_ctaid));
    for (int d = 0; d < 3; d++) {
        c->by_tid[d] = x->warp->tid[d][lane];
    }
    c->by_func = x->frame->func;
    c->by_pc = x->pc;
    emu_progress(x->cta);
    return c;
}

/* Memory operations take a pending-launch slot as grids do: they are
 * queued work the device runtime holds until it runs. */
Child *cdp_queue(EmuCtx *x, unsigned lane, uint64_t stream, uint32_t *err)
{
    EmuDevice *d = x->dev;
    EmuDevrt *r = state(x);
    Child *c = NULL;
    if (!r) {
        *err = CDP_ERR_MEMORY_ALLOCATION;
    } else if (stream > STREAM_FIRE_AND_FORGET &&
               !stream_known(r, stream)) {
        *err = CDP_ERR_INVALID_HANDLE;
    } else if (d->cdp_pending >= pending_limit(d)) {
        *err = CDP_ERR_PENDING_COUNT;
    } else if (!(c = push_child(x, lane, stream))) {
        *err = CDP_ERR_MEMORY_ALLOCATION;
    } else {
        d->cdp_pending++;
    }
    return c;
}

/* Queue buffer k's launch of `kernel`; returns the CUDA error. */
static uint32_t launch(EmuCtx *x, unsigned lane, size_t k,
                       const EmuFunc *kernel, const uint32_t grid[3],
                       const uint32_t block[3], uint32_t shmem,
                       uint64_t stream)
{
    EmuLaunch *l = x->launch;
    EmuDevrt *r = l->devrt;
    Buffer *b = &r->bufs[k];
    uint32_t err = CDP_OK;
    if (!kernel) {
        err = CDP_ERR_INVALID_DEVICE_FUNCTION;
    } else if (stream > STREAM_FIRE_AND_FORGET && !stream_known(r, stream)) {
        err = CDP_ERR_INVALID_HANDLE;
    } else if (l->depth >= EMU_CDP_MAX_DEPTH) {
        err = CDP_ERR_MAX_DEPTH;
    } else if (bad_config(l->dev, kernel, grid, block, shmem)) {
        err = CDP_ERR_INVALID_CONFIGURATION;
    } else if (b->size < kernel->param_bytes) {
        err = CDP_ERR_INVALID_VALUE;
    }
    uint8_t *params = NULL;
    if (!err) {
        params = calloc(kernel->param_bytes + 1, 1);
        if (!params || emu_mem_read(l->dev->mem, b->addr, params,
                                    kernel->param_bytes) != EMU_OK) {
            err = CDP_ERR_MEMORY_ALLOCATION;
        }
    }
    Child *c = err ? NULL : push_child(x, lane, stream);
    if (!c) {
        free(params);
        drop_buffer(l, k);
        return err ? err : CDP_ERR_MEMORY_ALLOCATION;
    }
    c->kernel = kernel;
    memcpy(c->grid, grid, sizeof(c->grid));
    memcpy(c->block, block, sizeof(c->block));
    c->shmem = shmem;
    c->params = params;
    /* the buffer's pending slot passes to the queued grid */
    emu_mem_release(l->dev->mem, b->addr);
    r->bufs[k] = r->bufs[--r->nbufs];
    return CDP_OK;
}

/* __cudaCDP2LaunchDeviceV2(buffer, stream) */
static void op_launch_v2(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        uint64_t a = emu_builtin_arg(x, i, lane, 0);
        uint64_t s = emu_builtin_arg(x, i, lane, 1);
        size_t k;
        Buffer *b = find_buffer(x->launch->devrt, a, &k);
        uint32_t err = CDP_ERR_INVALID_VALUE;
        if (b && b->kernel) {
            err = launch(x, lane, k, b->kernel, b->grid, b->block, b->shmem,
                         s);
        }
        cdp_result(x, i, lane, err);
    }
}

/* __cudaCDP2LaunchDevice(func, buffer, grid, block, shmem, stream) */
static void op_launch(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        const EmuFunc *f = cdp_kernel_of(x, emu_builtin_arg(x, i, lane, 0));
        uint64_t a = emu_builtin_arg(x, i, lane, 1);
        uint32_t g[3], b3[3];
        read_dim3(x, i, lane, 2, g);
        read_dim3(x, i, lane, 3, b3);
        uint32_t shmem = (uint32_t)emu_builtin_arg(x, i, lane, 4);
        uint64_t s = emu_builtin_arg(x, i, lane, 5);
        size_t k;
        Buffer *b = find_buffer(x->launch->devrt, a, &k);
        uint32_t err = CDP_ERR_INVALID_VALUE;
        if (b && !b->kernel) {
            err = launch(x, lane, k, f, g, b3, shmem, s);
        }
        cdp_result(x, i, lane, err);
    }
}

/* ------------------------------------------------ streams, events */

static uint64_t new_handle(EmuCtx *x, bool event)
{
    EmuDevrt *r = state(x);
    if (!r || !grow((void **)&r->handles, &r->caphandles, r->nhandles + 1,
                    sizeof(*r->handles))) {
        return 0;
    }
    uint64_t h = HANDLE_BASE | (event ? HANDLE_EVENT : 0) |
                 (x->launch->gridid & 0x7fffff) << 16 |
                 (++r->next_handle & 0xffff);
    r->handles[r->nhandles++] = h;
    return h;
}

static bool drop_handle(EmuLaunch *l, uint64_t h, bool event)
{
    EmuDevrt *r = l->devrt;
    for (size_t k = 0; r && k < r->nhandles; k++) {
        if (r->handles[k] == h && !!(h & HANDLE_EVENT) == event) {
            r->handles[k] = r->handles[--r->nhandles];
            return true;
        }
    }
    return false;
}

static bool handle_known(const EmuLaunch *l, uint64_t h, bool event)
{
    const EmuDevrt *r = l->devrt;
    for (size_t k = 0; r && k < r->nhandles; k++) {
        if (r->handles[k] == h && !!(h & HANDLE_EVENT) == event) {
            return true;
        }
    }
    return false;
}

/* cudaStreamCreateWithFlags(&s, flags) / cudaEventCreateWithFlags(&e,
 * flags): device code must pass cudaStreamNonBlocking for streams */
static void create(EmuCtx *x, const EmuInsn *i, uint32_t mask, bool event)
{
    EMU_FOR_LANES(mask, lane) {
        uint64_t p = emu_builtin_arg(x, i, lane, 0);
        uint32_t flags = (uint32_t)emu_builtin_arg(x, i, lane, 1);
        if (p == 0 || (!event && flags != 1)) {
            cdp_result(x, i, lane, CDP_ERR_INVALID_VALUE);
            continue;
        }
        uint64_t h = new_handle(x, event);
        if (!h) {
            cdp_result(x, i, lane, CDP_ERR_MEMORY_ALLOCATION);
            continue;
        }
        if (!cdp_gwrite(x, lane, p, h, 8, event ? "cudaEventCreateWithFlags"
                                            : "cudaStreamCreateWithFlags")) {
            return;
        }
        cdp_result(x, i, lane, CDP_OK);
    }
}

static void op_stream_create(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    create(x, i, mask, false);
}

static void op_event_create(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    create(x, i, mask, true);
}

static void op_stream_destroy(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        uint64_t s = emu_builtin_arg(x, i, lane, 0);
        cdp_result(x, i, lane, drop_handle(x->launch, s, false)
                           ? CDP_OK : CDP_ERR_INVALID_HANDLE);
    }
}

static void op_event_destroy(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        uint64_t e = emu_builtin_arg(x, i, lane, 0);
        cdp_result(x, i, lane, drop_handle(x->launch, e, true)
                           ? CDP_OK : CDP_ERR_INVALID_HANDLE);
    }
}

static bool stream_ok(const EmuLaunch *l, uint64_t s)
{
    return s <= STREAM_FIRE_AND_FORGET || handle_known(l, s, false);
}

/* cudaEventRecord(e, s) and cudaStreamWaitEvent(s, e, flags): every
 * grid of this schedule runs in launch order, so an event is complete
 * whenever anything can wait for it. */
static void op_event_record(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        uint64_t e = emu_builtin_arg(x, i, lane, 0);
        uint64_t s = emu_builtin_arg(x, i, lane, 1);
        bool ok = handle_known(x->launch, e, true) &&
                  stream_ok(x->launch, s);
        cdp_result(x, i, lane, ok ? CDP_OK : CDP_ERR_INVALID_HANDLE);
    }
}

static void op_stream_wait_event(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        uint64_t s = emu_builtin_arg(x, i, lane, 0);
        uint64_t e = emu_builtin_arg(x, i, lane, 1);
        bool ok = handle_known(x->launch, e, true) &&
                  stream_ok(x->launch, s);
        cdp_result(x, i, lane, ok ? CDP_OK : CDP_ERR_INVALID_HANDLE);
    }
}

/* ---------------------------------------------------- queries */

void cdp_answer(EmuCtx *x, const EmuInsn *i, unsigned lane, uint64_t v,
                   uint32_t n, const char *what)
{
    uint64_t p = emu_builtin_arg(x, i, lane, 0);
    if (!p) {
        cdp_result(x, i, lane, CDP_ERR_INVALID_VALUE);
        return;
    }
    if (cdp_gwrite(x, lane, p, v, n, what)) {
        cdp_result(x, i, lane, CDP_OK);
    }
}

static void answer_all(EmuCtx *x, const EmuInsn *i, uint32_t mask,
                       uint64_t v, const char *what)
{
    EMU_FOR_LANES(mask, lane) {
        cdp_answer(x, i, lane, v, 4, what);
        if (x->fault) {
            return;
        }
    }
}

static void op_get_device(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    answer_all(x, i, mask, 0, "cudaGetDevice");
}

static void op_get_device_count(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    answer_all(x, i, mask, 1, "cudaGetDeviceCount");
}

/* cudaRuntimeGetVersion: the CUDA 13.0 runtime the drop-ins implement */
static void op_runtime_version(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    answer_all(x, i, mask, 13000, "cudaRuntimeGetVersion");
}

/* cudaDeviceGetLimit(&v, limit): cudaLimitStackSize 0,
 * cudaLimitPrintfFifoSize 1, cudaLimitMallocHeapSize 2,
 * cudaLimitDevRuntimePendingLaunchCount 4 */
static void op_device_get_limit(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    const EmuDevice *d = x->dev;
    EMU_FOR_LANES(mask, lane) {
        uint64_t v;
        switch ((uint32_t)emu_builtin_arg(x, i, lane, 1)) {
        case 0: v = d->cfg.local_bytes_per_thread; break;
        case 1:
            v = d->cfg.printf_buffer_bytes ? d->cfg.printf_buffer_bytes
                                           : EMU_PRINTF_BUFFER_DEFAULT;
            break;
        case 2: v = d->cfg.heap_bytes; break;
        case 4: v = pending_limit(d); break;
        default:
            cdp_result(x, i, lane, CDP_ERR_UNSUPPORTED_LIMIT);
            continue;
        }
        cdp_answer(x, i, lane, v, 8, "cudaDeviceGetLimit");
        if (x->fault) {
            return;
        }
    }
}

/* cudaMalloc(&p, size) / cudaFree(p) in device code: the device heap
 * of malloc and free (emu/builtins.h) */
static void op_malloc(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        uint64_t pp = emu_builtin_arg(x, i, lane, 0);
        uint64_t size = emu_builtin_arg(x, i, lane, 1);
        uint64_t a = pp ? emu_builtin_heap_alloc(x, lane, size) : 0;
        if (!pp || !a) {
            cdp_result(x, i, lane, pp ? CDP_ERR_MEMORY_ALLOCATION
                                  : CDP_ERR_INVALID_VALUE);
            continue;
        }
        if (!cdp_gwrite(x, lane, pp, a, 8, "cudaMalloc")) {
            emu_builtin_heap_free(x, lane, a);
            return;
        }
        cdp_result(x, i, lane, CDP_OK);
    }
}

static void op_free(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        uint64_t p = emu_builtin_arg(x, i, lane, 0);
        bool ok = p == 0 || emu_builtin_heap_free(x, lane, p);
        cdp_result(x, i, lane, ok ? CDP_OK : CDP_ERR_INVALID_VALUE);
    }
}

/* cudaGraphSetConditional(handle, value): the drop-in libraries'
 * conditional handles are the device address of the condition's 32-bit
 * cell (runtime/graph/gcond.h), so setting it is a store there; a bad
 * handle faults as such a store would. */
static void op_set_conditional(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        uint64_t h = emu_builtin_arg(x, i, lane, 0);
        uint64_t v = (uint32_t)emu_builtin_arg(x, i, lane, 1);
        if (!cdp_gwrite(x, lane, h, v, 4, "cudaGraphSetConditional")) {
            return;
        }
    }
}

/* ------------------------------------------------------ binding */

EmuHandler emu_devrt_handler(const char *name)
{
    static const struct {
        const char *name;
        EmuHandler fn;
    } tab[] = {
        { "GetParameterBufferV2", op_param_buffer_v2 },
        { "GetParameterBuffer", op_param_buffer },
        { "LaunchDeviceV2", op_launch_v2 },
        { "LaunchDeviceV2_ptsz", op_launch_v2 },
        { "LaunchDevice", op_launch },
        { "LaunchDevice_ptsz", op_launch },
        { "GetLastError", op_get_last_error },
        { "PeekAtLastError", op_peek_last_error },
        { "StreamCreateWithFlags", op_stream_create },
        { "StreamDestroy", op_stream_destroy },
        { "EventCreateWithFlags", op_event_create },
        { "EventDestroy", op_event_destroy },
        { "EventRecord", op_event_record },
        { "EventRecord_ptsz", op_event_record },
        { "EventRecordWithFlags", op_event_record },
        { "EventRecordWithFlags_ptsz", op_event_record },
        { "StreamWaitEvent", op_stream_wait_event },
        { "StreamWaitEvent_ptsz", op_stream_wait_event },
        { "GetDevice", op_get_device },
        { "GetDeviceCount", op_get_device_count },
        { "RuntimeGetVersion", op_runtime_version },
        { "DeviceGetLimit", op_device_get_limit },
        { "Malloc", op_malloc },
        { "Free", op_free },
        { "GetErrorString", cdp_op_error_string },
        { "GetErrorName", cdp_op_error_name },
        { "DeviceGetAttribute", cdp_op_device_attribute },
        { "DeviceGetCacheConfig", cdp_op_cache_config },
        { "DeviceGetSharedMemConfig", cdp_op_shmem_config },
        { "FuncGetAttributes", cdp_op_func_attributes },
        { "OccupancyMaxActiveBlocksPerMultiprocessor", cdp_op_occupancy },
        { "OccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
          cdp_op_occupancy_flags },
        { "MemcpyAsync", cdp_op_memcpy },
        { "MemcpyAsync_ptsz", cdp_op_memcpy },
        { "Memcpy2DAsync", cdp_op_memcpy_2d },
        { "Memcpy2DAsync_ptsz", cdp_op_memcpy_2d },
        { "Memcpy3DAsync", cdp_op_memcpy_3d },
        { "Memcpy3DAsync_ptsz", cdp_op_memcpy_3d },
        { "MemsetAsync", cdp_op_memset },
        { "MemsetAsync_ptsz", cdp_op_memset },
        { "Memset2DAsync", cdp_op_memset_2d },
        { "Memset2DAsync_ptsz", cdp_op_memset_2d },
        { "Memset3DAsync", cdp_op_memset_3d },
        { "Memset3DAsync_ptsz", cdp_op_memset_3d },
    };
    static const char prefix[] = "__cudaCDP2";
    if (name && strcmp(name, "cudaGraphSetConditional") == 0) {
        return op_set_conditional;
    }
    if (!name || strncmp(name, prefix, sizeof(prefix) - 1) != 0) {
        return NULL;
    }
    name += sizeof(prefix) - 1;
    for (size_t k = 0; k < sizeof(tab) / sizeof(tab[0]); k++) {
        if (strcmp(tab[k].name, name) == 0) {
            return tab[k].fn;
        }
    }
    return NULL;
}

/* ------------------------------------------------ running children */

/* Say in the fault of child grid l who launched it. */
static void name_launcher(EmuLaunch *l)
{
    char who[200];
    snprintf(who, sizeof(who), "in a grid of depth %u launched by kernel "
             "'%.80s' CTA (%u,%u,%u) thread (%u,%u,%u)", l->depth,
             l->parent->kernel->ir->name, l->by_ctaid[0], l->by_ctaid[1],
             l->by_ctaid[2], l->by_tid[0], l->by_tid[1], l->by_tid[2]);
    char mid[sizeof(l->fault.detail)];
    memcpy(mid, l->fault.detail, sizeof(mid));
    set_detail(&l->fault, who, mid, "");
}

static EmuStatus run_child(EmuLaunch *l, Child *c)
{
    EmuDevice *d = l->dev;
    c->started = true;
    d->cdp_pending--;
    if (c->kind != CHILD_GRID) {
        return cdp_run_mem(l, c);
    }
    uint32_t np = c->kernel->ir->nparams;
    void **args = calloc(np + 1, sizeof(*args));
    if (!args) {
        return EMU_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t k = 0; k < np; k++) {
        args[k] = c->params + c->kernel->param_offset[k];
    }
    EmuLaunch *cl = NULL;
    EmuStatus st = emu_launch_begin(l->mod, c->kernel, c->grid, c->block,
                                    c->shmem, args, &cl);
    free(args);
    if (st != EMU_OK) {
        return st;
    }
    cl->depth = l->depth + 1;
    cl->parent = l;
    memcpy(cl->by_ctaid, c->by_ctaid, sizeof(cl->by_ctaid));
    memcpy(cl->by_tid, c->by_tid, sizeof(cl->by_tid));
    cl->grid_hook = l->grid_hook;
    cl->grid_hook_ctx = l->grid_hook_ctx;
    if (cl->grid_hook) {
        cl->grid_hook(cl->grid_hook_ctx, cl, false);
    }
    st = emu_launch_run(cl);
    if (cl->grid_hook) {
        cl->grid_hook(cl->grid_hook_ctx, cl, true);
    }
    if (st != EMU_OK && cl->faulted) {
        l->fault = cl->fault;
        memcpy(l->fault_text, cl->fault_text, sizeof(l->fault_text));
        l->faulted = true;
        d->last_fault = l->fault;
        d->has_fault = true;
    }
    emu_launch_end(cl);
    return st;
}

static void free_state(EmuLaunch *l)
{
    EmuDevrt *r = l->devrt;
    while (r->nbufs) {
        drop_buffer(l, r->nbufs - 1);
    }
    for (size_t k = 0; k < r->nkids; k++) {
        if (!r->kids[k].started) {
            l->dev->cdp_pending--;
        }
        free(r->kids[k].params);
    }
    free(r->kids);
    free(r->bufs);
    free(r->errs);
    free(r->handles);
    free(r);
    l->devrt = NULL;
}

EmuStatus emu_devrt_finish(EmuLaunch *l, EmuStatus st)
{
    if (st != EMU_OK && l->parent && l->faulted) {
        name_launcher(l);
    }
    EmuDevrt *r = l->devrt;
    if (!r) {
        return st;
    }
    if (st == EMU_OK && r->nkids) {
        EmuDevice *d = l->dev;
        /* the parent's printf output comes before its children's, and
         * its instructions before theirs on %globaltimer (and its
         * warnings) */
        emu_printf_launch_end(l);
        emu_tolerate_flush(d);
        d->clock_base += l->insns;
        for (int tail = 0; tail < 2 && st == EMU_OK; tail++) {
            for (size_t k = 0; k < r->nkids && st == EMU_OK; k++) {
                if (r->kids[k].tail == (tail == 1)) {
                    st = run_child(l, &r->kids[k]);
                }
            }
        }
        d->clock_base -= l->insns;
    }
    free_state(l);
    return st;
}
