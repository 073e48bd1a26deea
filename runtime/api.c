/*
 * runtime/api.c: the public host API (runtime/ptxemu.h) over the
 * emulator core (emu/exec.h, emu/memory.h).
 *
 * A ptxemu_device owns one EmuDevice and a mutex held around every
 * operation on it.  Modules keep a copy of their PTX text, so that a
 * fault message can quote the faulting source line.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "abi/cuda_abi.h"
#include "emu/builtins.h"
#include "emu/client.h"
#include "emu/pool.h"
#include "emu/cluster.h"
#include "emu/exec.h"
#include "emu/memory.h"
#include "emu/tensormap.h"
#include "emu/texfetch.h"
#include "runtime/api_emu.h"
#include "ptx/ptx.h"
#include "ptx/link.h"
#include "ptx/readfile.h"
#include "runtime/ptxemu.h"
#include "runtime/rt_timing.h"
#include "runtime/stats.h"
#include "timing/session.h"

/* The public codes are the emulator's, value for value. */
#define SAME(a, b) _Static_assert((int)(a) == (int)(b), #a " != " #b)
SAME(PTXEMU_SUCCESS, EMU_OK);
SAME(PTXEMU_ERROR_INVALID_VALUE, EMU_ERR_INVALID_VALUE);
SAME(PTXEMU_ERROR_OUT_OF_MEMORY, EMU_ERR_OUT_OF_MEMORY);
SAME(PTXEMU_ERROR_INVALID_PTX, EMU_ERR_INVALID_PTX);
SAME(PTXEMU_ERROR_UNSUPPORTED, EMU_ERR_UNSUPPORTED);
SAME(PTXEMU_ERROR_NOT_FOUND, EMU_ERR_NOT_FOUND);
SAME(PTXEMU_ERROR_LAUNCH_CONFIG, EMU_ERR_LAUNCH_CONFIG);
SAME(PTXEMU_ERROR_ILLEGAL_ADDRESS, EMU_ERR_ILLEGAL_ADDRESS);
SAME(PTXEMU_ERROR_MISALIGNED, EMU_ERR_MISALIGNED);
SAME(PTXEMU_ERROR_READ_ONLY, EMU_ERR_READ_ONLY);
SAME(PTXEMU_ERROR_TRAP, EMU_ERR_TRAP);
SAME(PTXEMU_ERROR_ASSERT, EMU_ERR_ASSERT);
SAME(PTXEMU_ERROR_TIMEOUT, EMU_ERR_TIMEOUT);
SAME(PTXEMU_ERROR_DEADLOCK, EMU_ERR_DEADLOCK);
SAME(PTXEMU_ERROR_ILLEGAL_INSTRUCTION, EMU_ERR_ILLEGAL_INSTRUCTION);
SAME(PTXEMU_ERROR_STACK_OVERFLOW, EMU_ERR_STACK_OVERFLOW);
SAME(PTXEMU_STATUS_COUNT, EMU_STATUS_COUNT);
SAME(PTXEMU_DIVERGE_TAKEN_FIRST, EMU_TAKEN_FIRST);
SAME(PTXEMU_DIVERGE_MAJORITY_LAST, EMU_MAJORITY_LAST);
SAME(PTXEMU_DIVERGE_MAJORITY_FIRST, EMU_MAJORITY_FIRST);
SAME(PTXEMU_DIVERGE_BY_MODE, EMU_DIVERGE_BY_MODE);
#undef SAME

struct ptxemu_function {
    ptxemu_module *mod;
    EmuFunc *ef;
    const IrFunc *ir;
    ptxemu_param_info *params;
    unsigned nparams;
    size_t param_bytes;
};

struct ptxemu_module {
    ptxemu_device *dev;
    EmuModule *em;
    char *name;                 /* file name for messages */
    char *src;                  /* the PTX text, NUL-terminated */
    size_t srclen;
    /* Linked modules (ptxemu_module_load_linked): each input's name and
     * text, for fault reports; name/src above are then unused. */
    unsigned nunits;
    char **unit_name, **unit_src;
    size_t *unit_len;
    ptxemu_function *funcs;     /* the kernels */
    unsigned nfuncs;
    ptxemu_module *prev, *next;
};

struct ptxemu_device {
    pthread_mutex_t lock;
    /* Guards last, msg and the mods list, which calls that do not wait
     * for a running kernel (whose launch holds lock) change too: a
     * module load beside it (ptxemu_module_load_string), a failure of
     * such a call.  Taken after lock, never before it. */
    pthread_mutex_t note;
    EmuDevice *emu;
    bool collect_stats;
    ptxemu_status last;
    char *msg;                  /* malloc'd, or NULL */
    ptxemu_status pending;      /* first launch error since synchronize */
    ptxemu_module *mods;
    RtStats stats;
    ptxemu_array *arrays;       /* live CUDA arrays (api.c, textures) */
    bool trace;                 /* PTXEMU_TRACE: device launches too */
    RtTiming timing;            /* the timing model's options (copied) */
    TmSession *tm;              /* the timing model, or NULL: untimed */
    void (*fault_hook)(void *ctx, const EmuFault *f,
                       const EmuModule *m);         /* sanitize */
    void *fault_ctx;
    FILE *simt_out;             /* --trace-simt's file, or NULL */
};

/* --trace-simt's file, after the device that writes it is gone. */
static void simt_close(ptxemu_device *d)
{
    if (d->simt_out && d->simt_out != stderr) {
        fclose(d->simt_out);
    } else if (d->simt_out) {
        fflush(d->simt_out);
    }
    d->simt_out = NULL;
}

EmuDevice *rt_device_emu(ptxemu_device *d)
{
    return d->emu;
}

int rt_mem_share(ptxemu_device *d, ptxemu_devptr addr, int *fd,
                 uint64_t *bytes)
{
    pthread_mutex_lock(&d->lock);
    EmuStatus st = emu_mem_share(d->emu->mem, addr, fd, bytes);
    pthread_mutex_unlock(&d->lock);
    return st == EMU_OK ? 0 : -1;
}

void rt_set_fault_hook(ptxemu_device *d,
                       void (*hook)(void *ctx, const EmuFault *f,
                                    const EmuModule *m),
                       void *ctx)
{
    d->fault_hook = hook;
    d->fault_ctx = ctx;
}

/* ------------------------------------------------------------ status */

static const struct {
    const char *name;
    const char *text;
    int cuda;
    int cu;                     /* CUresult */
} status_info[PTXEMU_STATUS_COUNT] = {
    {"PTXEMU_SUCCESS", "no error", 0, 0},
    {"PTXEMU_ERROR_INVALID_VALUE", "invalid argument", 1, 1},
    {"PTXEMU_ERROR_OUT_OF_MEMORY", "out of memory", 2, 2},
    {"PTXEMU_ERROR_INVALID_PTX", "a PTX JIT compilation failed", 218, 218},
    {"PTXEMU_ERROR_UNSUPPORTED", "operation not supported by the emulator",
     801, 801},
    {"PTXEMU_ERROR_NOT_FOUND", "named symbol not found", 500, 500},
    {"PTXEMU_ERROR_LAUNCH_CONFIG", "invalid configuration argument", 9, 1},
    {"PTXEMU_ERROR_ILLEGAL_ADDRESS",
     "an illegal memory access was encountered", 700, 700},
    {"PTXEMU_ERROR_MISALIGNED", "misaligned address", 716, 716},
    {"PTXEMU_ERROR_READ_ONLY", "write to a read-only state space", 717, 717},
    {"PTXEMU_ERROR_TRAP", "unspecified launch failure (trap)", 719, 719},
    {"PTXEMU_ERROR_ASSERT", "device-side assert triggered", 710, 710},
    {"PTXEMU_ERROR_TIMEOUT",
     "the launch timed out (instruction limit or watchdog)", 702, 702},
    {"PTXEMU_ERROR_DEADLOCK", "the launch deadlocked (no warp can progress)",
     702, 702},
    {"PTXEMU_ERROR_ILLEGAL_INSTRUCTION", "an illegal instruction was "
     "encountered", 715, 715},
    {"PTXEMU_ERROR_STACK_OVERFLOW", "hardware stack error (call stack or "
     "local memory overflow)", 714, 714},
};

const char *ptxemu_status_name(ptxemu_status s)
{
    return (unsigned)s < PTXEMU_STATUS_COUNT ? status_info[s].name
                                             : "PTXEMU_ERROR_UNKNOWN";
}

const char *ptxemu_status_string(ptxemu_status s)
{
    return (unsigned)s < PTXEMU_STATUS_COUNT ? status_info[s].text
                                             : "unknown error";
}

int ptxemu_status_cuda_error(ptxemu_status s)
{
    return (unsigned)s < PTXEMU_STATUS_COUNT ? status_info[s].cuda : 999;
}

int ptxemu_status_cu_result(ptxemu_status s)
{
    return (unsigned)s < PTXEMU_STATUS_COUNT ? status_info[s].cu : 999;
}

const char *ptxemu_space_name(ptxemu_space s)
{
    static const char *const names[PTXEMU_SPACE_COUNT] = {
        "global", "shared", "local", "const", "param", "other"};
    return (unsigned)s < PTXEMU_SPACE_COUNT ? names[s] : "?";
}

/* Record a failure whose message is already built (takes ownership). */
static ptxemu_status fail_take(ptxemu_device *dev, ptxemu_status st,
                               char *msg)
{
    pthread_mutex_lock(&dev->note);
    free(dev->msg);
    dev->msg = msg;
    dev->last = st;
    pthread_mutex_unlock(&dev->note);
    return st;
}

/* Record a failure on dev; returns st. */
__attribute__((format(printf, 3, 4)))
static ptxemu_status fail(ptxemu_device *dev, ptxemu_status st,
                          const char *fmt, ...)
{
    va_list ap;
    char *m = NULL;
    va_start(ap, fmt);
    if (vasprintf(&m, fmt, ap) < 0) {
        m = NULL;
    }
    va_end(ap);
    return fail_take(dev, st, m);
}


ptxemu_status ptxemu_last_error(ptxemu_device *dev)
{
    if (!dev) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&dev->note);
    ptxemu_status st = dev->last;
    pthread_mutex_unlock(&dev->note);
    return st;
}

const char *ptxemu_last_error_message(ptxemu_device *dev)
{
    if (!dev) {
        return "invalid device handle";
    }
    pthread_mutex_lock(&dev->note);
    const char *m = dev->msg ? dev->msg : "";
    pthread_mutex_unlock(&dev->note);
    return m;
}

size_t ptxemu_last_error_copy(ptxemu_device *dev, char *buf, size_t len)
{
    if (!dev) {
        return 0;
    }
    pthread_mutex_lock(&dev->note);
    const char *m = dev->msg ? dev->msg : "";
    size_t n = strlen(m);
    if (buf && len) {
        size_t k = n < len - 1 ? n : len - 1;
        memcpy(buf, m, k);
        buf[k] = '\0';
    }
    pthread_mutex_unlock(&dev->note);
    return n;
}

void ptxemu_clear_error(ptxemu_device *dev)
{
    if (!dev) {
        return;
    }
    pthread_mutex_lock(&dev->note);
    free(dev->msg);
    dev->msg = NULL;
    dev->last = PTXEMU_SUCCESS;
    pthread_mutex_unlock(&dev->note);
}

/* ------------------------------------------------------------ device */

void ptxemu_device_options_default(ptxemu_device_options *o)
{
    if (!o) {
        return;
    }
    memset(o, 0, sizeof(*o));
    o->size = sizeof(*o);
    o->diverge_order = PTXEMU_DIVERGE_BY_MODE;
    o->time_limit_ms = 600000;
}

uint64_t ptxemu_default_device_memory(uint64_t gpu_bytes)
{
    long pages = sysconf(_SC_PHYS_PAGES), pg = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || pg <= 0) {
        return gpu_bytes;
    }
    uint64_t half = (uint64_t)pages * (uint64_t)pg / 2;
    return half < gpu_bytes ? half : gpu_bytes;
}

ptxemu_status ptxemu_device_create(const ptxemu_device_options *opts,
                                   ptxemu_device **out)
{
    rt_create_error_clear();
    if (!out) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    *out = NULL;
    ptxemu_device_options o;
    ptxemu_device_options_default(&o);
    if (opts) {
        if (opts->size < offsetof(ptxemu_device_options, insn_limit) ||
            opts->size > sizeof(o)) {
            return PTXEMU_ERROR_INVALID_VALUE;
        }
        memcpy(&o, opts, opts->size);
        if ((o.diverge_order != PTXEMU_DIVERGE_TAKEN_FIRST &&
             o.diverge_order != PTXEMU_DIVERGE_MAJORITY_LAST &&
             o.diverge_order != PTXEMU_DIVERGE_MAJORITY_FIRST &&
             o.diverge_order != PTXEMU_DIVERGE_BY_MODE) ||
            (unsigned)o.reconvergence > PTXEMU_RECONVERGENCE_ITS ||
            (o.access != PTXEMU_ACCESS_STRICT &&
             o.access != PTXEMU_ACCESS_GPU)) {
            return PTXEMU_ERROR_INVALID_VALUE;
        }
    }
    EmuConfig c;
    emu_config_default(&c);
    c.diverge_order = (EmuDivergeOrder)o.diverge_order;
    c.insn_limit = o.insn_limit;
    c.time_limit_ms = o.time_limit_ms;
    c.access = o.access == PTXEMU_ACCESS_GPU ? EMU_ACCESS_GPU
                                             : EMU_ACCESS_STRICT;
    /* DEFAULT: the emulator picks by arch (EMU_RECONV_DEFAULT) */
    c.reconvergence = o.reconvergence == PTXEMU_RECONVERGENCE_ITS
        ? EMU_RECONV_ITS : o.reconvergence == PTXEMU_RECONVERGENCE_IPDOM
        ? EMU_RECONV_IPDOM : EMU_RECONV_DEFAULT;
    c.trace_reconv = o.trace_reconvergence ? stderr : NULL;
    c.threads = o.threads ? o.threads : emu_host_cores();
    c.par_log = o.verbose ? stderr : NULL;
    c.fast = o.fast != 0;
#define OVERRIDE(f) do { if (o.f) { c.f = o.f; } } while (0)
    OVERRIDE(watchdog_rounds);
    OVERRIDE(num_sms);
    OVERRIDE(max_threads_per_block);
    OVERRIDE(max_shared_per_block);
    OVERRIDE(max_call_depth);
    OVERRIDE(local_bytes_per_thread);
    OVERRIDE(heap_bytes);
    OVERRIDE(arch);
#undef OVERRIDE
    /* the SMs of the GPU named by arch, unless given */
    if (o.arch && !o.num_sms) {
        c.num_sms = emu_gpu_for(o.arch).sms;
    }
    ptxemu_device *d = calloc(1, sizeof(*d));
    if (!d) {
        return PTXEMU_ERROR_OUT_OF_MEMORY;
    }
    if (o.trace_simt && *o.trace_simt) {
        d->simt_out = strcmp(o.trace_simt, "-") ? fopen(o.trace_simt, "w")
                                                : stderr;
        if (!d->simt_out) {
            rt_create_error("--trace-simt %s: %s", o.trace_simt,
                            strerror(errno));
            free(d);
            return PTXEMU_ERROR_INVALID_VALUE;
        }
        c.trace_simt = d->simt_out;
    }
    d->emu = emu_device_new(&c);
    if (!d->emu) {
        simt_close(d);
        free(d);
        return PTXEMU_ERROR_OUT_OF_MEMORY;
    }
    if (o.mem_bytes) {
        emu_mem_set_limit(d->emu->mem, o.mem_bytes);
    }
    if (rt_timing_copy(&d->timing, &o)) {
        emu_device_free(d->emu);
        simt_close(d);
        free(d);
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    /* The timing model: opened now, so that every refusal and
     * parameter error is reported by the create (rt_create_error); every
     * launch then runs through it (tm_session_attach). */
    if (d->timing.spec) {
        char err[1024];
        if (tm_session_open(d->emu, d->timing.spec, d->timing.config,
                            (const char *const *)d->timing.set,
                            d->timing.nset, &d->tm, err, sizeof(err))) {
            rt_create_error("%s", err);
            rt_timing_free(&d->timing);
            emu_device_free(d->emu);
            simt_close(d);
            free(d);
            return PTXEMU_ERROR_INVALID_VALUE;
        }
        if (rt_timing_observe(&d->timing, d->tm)) {
            tm_session_close(d->tm);
            rt_timing_free(&d->timing);
            emu_device_free(d->emu);
            simt_close(d);
            free(d);
            return PTXEMU_ERROR_INVALID_VALUE;
        }
    }
    pthread_mutex_init(&d->lock, NULL);
    pthread_mutex_init(&d->note, NULL);
    d->collect_stats = o.collect_stats != 0;
    const char *t = getenv("PTXEMU_TRACE");
    d->trace = t && *t && strcmp(t, "0") != 0;
    rt_stats_reset(&d->stats);
    *out = d;
    return PTXEMU_SUCCESS;
}

static void module_free_locked(ptxemu_module *m);
static void arrays_free_locked(ptxemu_device *dev);

void ptxemu_device_destroy(ptxemu_device *dev)
{
    if (!dev) {
        return;
    }
    pthread_mutex_lock(&dev->lock);
    while (dev->mods) {
        module_free_locked(dev->mods);
    }
    arrays_free_locked(dev);
    tm_session_close(dev->tm);
    emu_device_free(dev->emu);
    simt_close(dev);
    rt_timing_free(&dev->timing);
    free(dev->msg);
    pthread_mutex_unlock(&dev->lock);
    pthread_mutex_destroy(&dev->lock);
    pthread_mutex_destroy(&dev->note);
    free(dev);
}

uint64_t ptxemu_mem_used(ptxemu_device *dev)
{
    if (!dev) {
        return 0;
    }
    pthread_mutex_lock(&dev->lock);
    uint64_t n = emu_mem_used(dev->emu->mem);
    pthread_mutex_unlock(&dev->lock);
    return n;
}

ptxemu_status ptxemu_set_heap_bytes(ptxemu_device *dev, uint64_t bytes)
{
    if (!dev) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&dev->lock);
    ptxemu_status st = PTXEMU_SUCCESS;
    if (bytes < dev->emu->heap_used) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE, "a device heap of %"
                  PRIu64 " bytes is smaller than the %" PRIu64 " in use",
                  bytes, dev->emu->heap_used);
    } else {
        dev->emu->cfg.heap_bytes = bytes;
    }
    pthread_mutex_unlock(&dev->lock);
    return st;
}

ptxemu_status ptxemu_set_pending_launch_limit(ptxemu_device *dev,
                                              uint64_t count)
{
    if (!dev || count == 0 || count > UINT32_MAX) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&dev->lock);
    dev->emu->cdp_pending_limit = (uint32_t)count;
    pthread_mutex_unlock(&dev->lock);
    return PTXEMU_SUCCESS;
}

ptxemu_status ptxemu_set_host_stamp(ptxemu_device *dev,
                                    int64_t (*stamp)(void *arg), void *arg)
{
    if (!dev) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&dev->lock);
    dev->emu->host_stamp = stamp;
    dev->emu->host_stamp_arg = arg;
    pthread_mutex_unlock(&dev->lock);
    return PTXEMU_SUCCESS;
}

/* The CUDA documentation of cuCtxSetLimit lets the driver clamp a limit
 * to what the hardware allows: the persisting set-aside to the device's
 * MAX_PERSISTING_L2_CACHE_SIZE. */
ptxemu_status ptxemu_set_l2_persisting(ptxemu_device *dev, uint64_t bytes)
{
    if (!dev) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    int max = 0;
    emu_gpu_attribute(&dev->emu->gpu,
                      CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE, &max);
    pthread_mutex_lock(&dev->lock);
    dev->emu->l2_persist_bytes = bytes < (uint64_t)max ? bytes
                                                       : (uint64_t)max;
    pthread_mutex_unlock(&dev->lock);
    return PTXEMU_SUCCESS;
}

uint64_t ptxemu_l2_persisting(ptxemu_device *dev)
{
    if (!dev) {
        return 0;
    }
    pthread_mutex_lock(&dev->lock);
    uint64_t v = dev->emu->l2_persist_bytes;
    pthread_mutex_unlock(&dev->lock);
    return v;
}

ptxemu_status ptxemu_reset_l2_persisting(ptxemu_device *dev)
{
    if (!dev) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&dev->lock);
    dev->emu->l2_resets++;
    pthread_mutex_unlock(&dev->lock);
    return PTXEMU_SUCCESS;
}

/* ------------------------------------------------------------ modules */

static size_t align_up(size_t v, size_t a)
{
    return a > 1 ? (v + a - 1) / a * a : v;
}

/* Parameter layout of a kernel, as cuLaunchKernel expects it: each
 * parameter at the next multiple of its alignment (.align, or its
 * element's natural size). */
static bool function_init(ptxemu_function *f, ptxemu_module *m, EmuFunc *ef)
{
    const IrFunc *ir = ef->ir;
    f->mod = m;
    f->ef = ef;
    f->ir = ir;
    f->nparams = ir->nparams;
    f->params = ir->nparams ? calloc(ir->nparams, sizeof(*f->params)) : NULL;
    if (ir->nparams && !f->params) {
        return false;
    }
    size_t off = 0, maxalign = 1;
    for (unsigned i = 0; i < ir->nparams; i++) {
        const IrSymbol *p = ir->params[i];
        ptxemu_param_info *pi = &f->params[i];
        size_t elem = (ptx_type_bits(p->type) + 7) / 8 * (p->vec ? p->vec : 1);
        if (!elem) {
            elem = 8;       /* .texref & co: 64-bit handles */
        }
        size_t size = p->size ? p->size : elem;
        size_t al = p->align ? p->align : elem;
        off = align_up(off, al);
        pi->name = p->name;
        pi->type = p->type ? ptx_type_name(p->type) : "handle";
        pi->offset = off;
        pi->size = size;
        pi->align = al;
        pi->array_len = p->ndims ? (unsigned)p->dims[0] : 0;
        pi->is_ptr = p->is_ptr;
        off += size;
        if (al > maxalign) {
            maxalign = al;
        }
    }
    f->param_bytes = align_up(off, maxalign);
    return true;
}

static void free_units(ptxemu_module *m)
{
    for (unsigned i = 0; i < m->nunits; i++) {
        free(m->unit_name[i]);
        free(m->unit_src[i]);
    }
    free(m->unit_name);
    free(m->unit_src);
    free(m->unit_len);
    m->nunits = 0;
}

static void module_free_locked(ptxemu_module *m)
{
    ptxemu_device *dev = m->dev;
    pthread_mutex_lock(&dev->note);
    if (m->prev) {
        m->prev->next = m->next;
    } else {
        dev->mods = m->next;
    }
    if (m->next) {
        m->next->prev = m->prev;
    }
    pthread_mutex_unlock(&dev->note);
    for (unsigned i = 0; i < m->nfuncs; i++) {
        free(m->funcs[i].params);
    }
    free(m->funcs);
    emu_tex_unbind_module(dev->emu->tex, m->em);
    emu_module_free(m->em);
    free(m->name);
    free(m->src);
    free_units(m);
    free(m);
}

static ptxemu_status install_locked(ptxemu_device *dev, ptxemu_module *m,
                                    IrModule *ir, ptxemu_module **out);

static ptxemu_status load_locked(ptxemu_device *dev, const char *name,
                                 char *src, size_t len, ptxemu_module **out)
{
    ptxemu_module *m = calloc(1, sizeof(*m));
    char *nm = strdup(name);
    if (!m || !nm) {
        free(m);
        free(nm);
        free(src);
        return fail(dev, PTXEMU_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    m->dev = dev;
    m->name = nm;
    m->src = src;
    m->srclen = len;
    PtxDiag d;
    /* a kernel whose body does not parse fails alone (ptx_parse_lazy) */
    IrModule *ir = ptx_parse_lazy(m->name, m->src, len, &d);
    if (!ir) {
        char *msg = d.buf;
        d.buf = NULL;
        if (!msg && asprintf(&msg, "%s: error: invalid PTX\n", m->name) < 0) {
            msg = NULL;
        }
        ptx_diag_fini(&d);
        free(m->name);
        free(m->src);
        free(m);
        return fail_take(dev, PTXEMU_ERROR_INVALID_PTX, msg);
    }
    ptx_diag_fini(&d);
    return install_locked(dev, m, ir, out);
}

/* Loads the parsed module ir into the emulator as m (which owns its
 * names and texts; freed on failure) and links it into dev's list. */
static ptxemu_status install_locked(ptxemu_device *dev, ptxemu_module *m,
                                    IrModule *ir, ptxemu_module **out)
{
    EmuStatus est = EMU_OK;
    char *emsg = NULL;
    m->em = emu_module_load(dev->emu, ir, &est, &emsg);
    if (!m->em) {
        if (est == EMU_OK) {
            est = EMU_ERR_UNSUPPORTED;
        }
        if (!emsg && asprintf(&emsg, "%s: error: cannot load module: %s\n",
                              m->name, emu_status_name(est)) < 0) {
            emsg = NULL;
        }
        free(m->name);
        free(m->src);
        free_units(m);
        free(m);
        return fail_take(dev, (ptxemu_status)est, emsg);
    }
    unsigned nk = 0;
    for (uint32_t i = 0; i < m->em->nfuncs; i++) {
        const IrFunc *f = m->em->ir->funcs[i];
        if (f->is_entry && !f->is_decl && m->em->funcs[i]) {
            nk++;
        }
    }
    m->funcs = nk ? calloc(nk, sizeof(*m->funcs)) : NULL;
    bool short_of_memory = nk && !m->funcs;   /* reported below */
    for (uint32_t i = 0; m->funcs && i < m->em->nfuncs; i++) {
        const IrFunc *f = m->em->ir->funcs[i];
        if (f->is_entry && !f->is_decl && m->em->funcs[i]) {
            /* nfuncs counts the functions made whole, which
             * module_free_locked frees */
            if (!function_init(&m->funcs[m->nfuncs], m, m->em->funcs[i])) {
                short_of_memory = true;
                break;
            }
            m->nfuncs++;
        }
    }
    pthread_mutex_lock(&dev->note);
    m->next = dev->mods;
    if (m->next) {
        m->next->prev = m;
    }
    dev->mods = m;
    pthread_mutex_unlock(&dev->note);
    if (short_of_memory) {
        module_free_locked(m);
        return fail(dev, PTXEMU_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    *out = m;
    return PTXEMU_SUCCESS;
}

ptxemu_status ptxemu_module_load_string(ptxemu_device *dev, const char *name,
                                        const char *src, size_t len,
                                        ptxemu_module **out)
{
    if (!dev) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    if (out) {
        *out = NULL;
    }
    if (!src || !out) {
        return fail(dev, PTXEMU_ERROR_INVALID_VALUE,
                    "ptxemu_module_load_string: NULL %s",
                    !src ? "source" : "output pointer");
    }
    if (!len) {
        len = strlen(src);
    }
    /* cuModuleLoadData does not wait for a running kernel (CUDA does
     * not list it among the synchronising calls): while a launch holds
     * the lock, the module is loaded beside the kernel, its variables
     * put in the memory table as alloc_any's allocations are
     * (emu_mem_beside); it waits when clients see allocations or when
     * loading beside failed for want of memory (emu_mem_alloc_concurrent
     * says when). */
    EmuMemory *mem = dev->emu->mem;
    bool beside = pthread_mutex_trylock(&dev->lock) != 0;
    /* the error record before the call: a load beside the kernel that
     * failed for want of memory recorded its error, which the retry
     * under the lock must not leave behind when it succeeds */
    ptxemu_status was = PTXEMU_SUCCESS;
    char *was_msg = NULL;
    if (beside) {
        pthread_mutex_lock(&dev->note);
        was = dev->last;
        was_msg = dev->msg ? strdup(dev->msg) : NULL;
        pthread_mutex_unlock(&dev->note);
    }
    for (int pass = 0;; pass++) {
        if (beside && (pass > 0 || emu_mem_observed(mem))) {
            pthread_mutex_lock(&dev->lock);
            beside = false;
            if (pass > 0) {
                fail_take(dev, was, was_msg);
                was_msg = NULL;
            }
        }
        if (!beside) {
            emu_mem_reclaim(mem);       /* no kernel runs */
        }
        ptxemu_status st;
        char *copy = malloc(len + 1);
        if (!copy) {
            st = fail(dev, PTXEMU_ERROR_OUT_OF_MEMORY, "out of memory");
        } else {
            memcpy(copy, src, len);
            copy[len] = '\0';
            emu_mem_beside(beside);
            st = load_locked(dev, name ? name : "<string>", copy, len, out);
            emu_mem_beside(false);
        }
        if (!beside) {
            pthread_mutex_unlock(&dev->lock);
            free(was_msg);
            return st;
        }
        if (st != PTXEMU_ERROR_OUT_OF_MEMORY) {
            free(was_msg);
            return st;
        }
        /* once more, waiting for the kernel */
    }
}

/* dev->lock held.  A PTX file read whole (bounded, see
 * ptx/readfile.h), or the error recorded. */
static ptxemu_status read_input_locked(ptxemu_device *dev, const char *path,
                                       char **src, size_t *len)
{
    char why[128];
    ptx_read_status rs = ptx_read_file(path, PTX_READ_LIMIT, src, len, why,
                                       sizeof why);
    if (rs == PTX_READ_OK) {
        return PTXEMU_SUCCESS;
    }
    return fail(dev, rs == PTX_READ_NO_MEMORY ? PTXEMU_ERROR_OUT_OF_MEMORY
                                              : PTXEMU_ERROR_INVALID_VALUE,
                "%s: error: cannot %s: %s\n", path,
                rs == PTX_READ_NOT_FOUND || rs == PTX_READ_IO ? "open"
                                                              : "read",
                why);
}

ptxemu_status ptxemu_module_load_file(ptxemu_device *dev, const char *path,
                                      ptxemu_module **out)
{
    if (!dev) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&dev->lock);
    ptxemu_status st;
    if (out) {
        *out = NULL;
    }
    if (!path || !out) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE,
                  "ptxemu_module_load_file: NULL %s",
                  !path ? "path" : "output pointer");
    } else {
        size_t len = 0;
        char *src;
        st = read_input_locked(dev, path, &src, &len);
        if (st == PTXEMU_SUCCESS) {
            st = load_locked(dev, path, src, len, out);
        }
    }
    pthread_mutex_unlock(&dev->lock);
    return st;
}

ptxemu_status ptxemu_module_load_linked(ptxemu_device *dev, unsigned n,
                                        const char *const names[],
                                        const char *const srcs[],
                                        const size_t lens[],
                                        ptxemu_module **out)
{
    if (!dev) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    if (out) {
        *out = NULL;
    }
    if (!out || !srcs || !n) {
        pthread_mutex_lock(&dev->lock);
        ptxemu_status st = fail(dev, PTXEMU_ERROR_INVALID_VALUE,
                                "ptxemu_module_load_linked: %s",
                                !out ? "NULL output pointer"
                                : !n ? "no modules" : "NULL sources");
        pthread_mutex_unlock(&dev->lock);
        return st;
    }
    ptxemu_module *m = calloc(1, sizeof(*m));
    IrModule **irs = calloc(n, sizeof(*irs));
    size_t joined = 1;
    if (m) {
        m->unit_name = calloc(n, sizeof(char *));
        m->unit_src = calloc(n, sizeof(char *));
        m->unit_len = calloc(n, sizeof(size_t));
    }
    if (!m || !irs || !m->unit_name || !m->unit_src || !m->unit_len) {
        if (m) {
            free(m->unit_name);
            free(m->unit_src);
            free(m->unit_len);
        }
        free(m);
        free(irs);
        pthread_mutex_lock(&dev->lock);
        ptxemu_status st = fail(dev, PTXEMU_ERROR_OUT_OF_MEMORY,
                                "out of memory");
        pthread_mutex_unlock(&dev->lock);
        return st;
    }
    m->dev = dev;
    m->nunits = n;
    char *diag = NULL;
    size_t diaglen = 0;
    bool ok = true;
    for (unsigned i = 0; i < n; i++) {
        char def[32];
        snprintf(def, sizeof(def), "<string %u>", i);
        const char *nm = names && names[i] ? names[i] : def;
        size_t len = lens && lens[i] ? lens[i] : srcs[i] ? strlen(srcs[i]) : 0;
        m->unit_name[i] = strdup(nm);
        m->unit_src[i] = malloc(len + 1);
        m->unit_len[i] = len;
        if (!m->unit_name[i] || !m->unit_src[i] || !srcs[i]) {
            ok = false;
            continue;
        }
        memcpy(m->unit_src[i], srcs[i], len);
        m->unit_src[i][len] = '\0';
        joined += strlen(nm) + 1;
        PtxDiag d;
        irs[i] = ptx_parse_string(m->unit_name[i], m->unit_src[i], len, &d,
                                  NULL);
        if (!irs[i]) {
            ok = false;
            const char *t = d.buf ? d.buf : "error: invalid PTX\n";
            size_t k = strlen(t);
            char *nd = realloc(diag, diaglen + k + 1);
            if (nd) {
                memcpy(nd + diaglen, t, k + 1);
                diag = nd;
                diaglen += k;
            }
        }
        ptx_diag_fini(&d);
    }
    m->name = malloc(joined);
    if (m->name) {
        m->name[0] = '\0';
        for (unsigned i = 0; i < n; i++) {
            if (m->unit_name[i]) {
                strcat(strcat(m->name, i ? "+" : ""), m->unit_name[i]);
            }
        }
    }
    pthread_mutex_lock(&dev->lock);
    ptxemu_status st;
    if (!ok || !m->name) {
        for (unsigned i = 0; i < n; i++) {
            ptx_module_free(irs[i]);
        }
        st = diag ? fail_take(dev, PTXEMU_ERROR_INVALID_PTX, diag)
                  : fail(dev, !srcs[0] ? PTXEMU_ERROR_INVALID_VALUE
                                       : PTXEMU_ERROR_OUT_OF_MEMORY,
                         "ptxemu_module_load_linked: NULL source or out of "
                         "memory");
        diag = NULL;
        free(m->name);
        free_units(m);
        free(m);
    } else {
        char *lmsg = NULL;
        IrModule *ir = ptx_link(irs, n, m->name,
                                (const char *const *)m->unit_src,
                                m->unit_len, &lmsg);
        if (!ir) {
            st = fail_take(dev, PTXEMU_ERROR_INVALID_PTX, lmsg);
            free(m->name);
            free_units(m);
            free(m);
        } else {
            free(lmsg);
            st = install_locked(dev, m, ir, out);
        }
    }
    pthread_mutex_unlock(&dev->lock);
    free(diag);
    free(irs);
    return st;
}

ptxemu_status ptxemu_module_load_linked_files(ptxemu_device *dev,
                                              unsigned n,
                                              const char *const paths[],
                                              ptxemu_module **out)
{
    if (!dev) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    if (!paths || !n) {
        return ptxemu_module_load_linked(dev, n, NULL, NULL, NULL, out);
    }
    char **srcs = calloc(n, sizeof(char *));
    size_t *lens = calloc(n, sizeof(size_t));
    ptxemu_status st = PTXEMU_SUCCESS;
    if (!srcs || !lens) {
        pthread_mutex_lock(&dev->lock);
        st = fail(dev, PTXEMU_ERROR_OUT_OF_MEMORY, "out of memory");
        pthread_mutex_unlock(&dev->lock);
    }
    for (unsigned i = 0; st == PTXEMU_SUCCESS && i < n; i++) {
        pthread_mutex_lock(&dev->lock);
        st = paths[i] ? read_input_locked(dev, paths[i], &srcs[i], &lens[i])
                      : fail(dev, PTXEMU_ERROR_INVALID_VALUE,
                             "(null): error: cannot open: no path\n");
        pthread_mutex_unlock(&dev->lock);
    }
    if (st == PTXEMU_SUCCESS) {
        st = ptxemu_module_load_linked(dev, n, paths,
                                       (const char *const *)srcs, lens, out);
    } else if (out) {
        *out = NULL;
    }
    for (unsigned i = 0; srcs && i < n; i++) {
        free(srcs[i]);
    }
    free(srcs);
    free(lens);
    return st;
}

void ptxemu_module_unload(ptxemu_module *mod)
{
    if (!mod) {
        return;
    }
    ptxemu_device *dev = mod->dev;
    pthread_mutex_lock(&dev->lock);
    module_free_locked(mod);
    pthread_mutex_unlock(&dev->lock);
}

ptxemu_status ptxemu_module_get_function(ptxemu_module *mod, const char *name,
                                         ptxemu_function **out)
{
    if (!mod) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    /* the module's own data: no need to wait for a running kernel
     * (failures are recorded under dev->note) */
    ptxemu_device *dev = mod->dev;
    ptxemu_status st = PTXEMU_SUCCESS;
    if (out) {
        *out = NULL;
    }
    if (!name || !out) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE,
                  "ptxemu_module_get_function: NULL argument");
    } else {
        for (unsigned i = 0; i < mod->nfuncs; i++) {
            if (!strcmp(mod->funcs[i].ir->name, name)) {
                *out = &mod->funcs[i];
                break;
            }
        }
        const char *why = NULL;
        EmuStatus est = *out ? EMU_OK
            : emu_module_kernel_error(mod->em, name, &why);
        if (!*out && why) {
            /* loaded lazily: this kernel alone fails, located */
            st = fail(dev, (ptxemu_status)est, "kernel '%s' cannot be "
                      "loaded:\n%s", name, why);
        } else if (!*out) {
            st = fail(dev, PTXEMU_ERROR_NOT_FOUND,
                      "%s: no kernel named '%s'", mod->name, name);
        }
    }
    return st;
}

unsigned ptxemu_module_num_functions(ptxemu_module *mod)
{
    return mod ? mod->nfuncs : 0;
}

ptxemu_function *ptxemu_module_function(ptxemu_module *mod, unsigned i)
{
    return mod && i < mod->nfuncs ? &mod->funcs[i] : NULL;
}

ptxemu_status ptxemu_module_get_global(ptxemu_module *mod, const char *name,
                                       ptxemu_devptr *addr, size_t *size)
{
    if (!mod) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    ptxemu_device *dev = mod->dev;       /* as get_function: no wait */
    ptxemu_status st = PTXEMU_SUCCESS;
    if (!name) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE,
                  "ptxemu_module_get_global: NULL name");
    } else {
        uint64_t sz = 0;
        uint64_t a = emu_module_global(mod->em, name, &sz);
        if (!a) {
            st = fail(dev, PTXEMU_ERROR_NOT_FOUND,
                      "%s: no .global or .const variable named '%s'",
                      mod->name, name);
        } else {
            if (addr) {
                *addr = a;
            }
            if (size) {
                *size = (size_t)sz;
            }
        }
    }
    return st;
}

/* ------------------------------------------------------------ functions */

const char *ptxemu_function_name(ptxemu_function *f)
{
    return f ? f->ir->name : NULL;
}

unsigned ptxemu_function_num_params(ptxemu_function *f)
{
    return f ? f->nparams : 0;
}

size_t ptxemu_function_param_bytes(ptxemu_function *f)
{
    return f ? f->param_bytes : 0;
}

ptxemu_status ptxemu_function_set_regs(ptxemu_function *f, unsigned regs)
{
    if (!f || regs == 0 || regs > 255) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    f->ef->regs = regs;
    return PTXEMU_SUCCESS;
}

ptxemu_status ptxemu_function_get_info(ptxemu_function *f,
                                       ptxemu_function_info *info)
{
    if (!f || !info) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    memset(info, 0, sizeof(*info));
    info->shared_bytes = f->ef->shared_bytes;
    info->local_bytes = f->ef->local_bytes;
    const uint32_t *nt = f->ir->reqntid[0] ? f->ir->reqntid
                                           : f->ir->maxntid;
    if (nt[0]) {
        info->max_threads = nt[0] * (nt[1] ? nt[1] : 1) *
                            (nt[2] ? nt[2] : 1);
    }
    info->maxnreg = f->ir->maxnreg;
    info->virtual_regs = f->ef->nregslots;
    info->regs = f->ef->regs;
    const IrModule *m = f->mod->em->ir;
    info->ptx_version = m->version_major * 10 + m->version_minor;
    return PTXEMU_SUCCESS;
}

ptxemu_status ptxemu_function_param(ptxemu_function *f, unsigned i,
                                    ptxemu_param_info *info)
{
    if (!f || !info || i >= f->nparams) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    *info = f->params[i];
    return PTXEMU_SUCCESS;
}

/* ------------------------------------------------------------ memory */

/* An allocation of `kind` (DEVICE or MANAGED), not waiting for a
 * running kernel: cudaMalloc, cudaMallocManaged and cudaMallocHost do
 * not synchronise with the device (CUDA Runtime API reference: only
 * the functions it marks as synchronising, cudaFree among them, wait),
 * and a kernel may be waiting for what the host does after allocating.
 * A launch holds dev->lock while its kernel runs: when the lock is
 * busy the allocation goes into the memory table beside the kernel
 * (emu_mem_alloc_concurrent), and only a failure, clients that see
 * allocations (emu_mem_observed) or very many allocations during one
 * kernel wait for the lock.  *out gets the address (0 on failure,
 * recorded); out NULL or size 0 is refused. */
static ptxemu_status alloc_any(ptxemu_device *dev, size_t size,
                               EmuAllocKind kind, const char *what,
                               uint64_t *out)
{
    if (!dev) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    EmuMemory *mem = dev->emu->mem;
    if (out && size && pthread_mutex_trylock(&dev->lock) != 0) {
        *out = emu_mem_observed(mem)
               ? 0 : emu_mem_alloc_concurrent(mem, size, kind);
        if (*out) {
            return PTXEMU_SUCCESS;
        }
        pthread_mutex_lock(&dev->lock);
    } else if (!out || !size) {
        pthread_mutex_lock(&dev->lock);
        ptxemu_status st = fail(dev, PTXEMU_ERROR_INVALID_VALUE, "%s: %s",
                                what, !out ? "NULL output pointer"
                                           : "size 0");
        pthread_mutex_unlock(&dev->lock);
        return st;
    }
    emu_mem_reclaim(mem);               /* no kernel runs */
    *out = emu_mem_alloc(mem, size, kind, NULL);
    ptxemu_status st = PTXEMU_SUCCESS;
    if (!*out) {
        st = fail(dev, PTXEMU_ERROR_OUT_OF_MEMORY, "%s: cannot allocate "
                  "%zu bytes", what, size);
    }
    pthread_mutex_unlock(&dev->lock);
    return st;
}

ptxemu_status ptxemu_malloc(ptxemu_device *dev, size_t size,
                            ptxemu_devptr *out)
{
    return alloc_any(dev, size, EMU_ALLOC_DEVICE, "ptxemu_malloc", out);
}

ptxemu_status ptxemu_free(ptxemu_device *dev, ptxemu_devptr ptr)
{
    if (!dev) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    if (!ptr) {
        return PTXEMU_SUCCESS;         /* as cudaFree(NULL) */
    }
    pthread_mutex_lock(&dev->lock);
    const EmuAlloc *a = emu_mem_find(dev->emu->mem, ptr, 1);
    ptxemu_status st;
    if (!a || a->addr != ptr ||
        (a->kind != EMU_ALLOC_DEVICE && a->kind != EMU_ALLOC_MANAGED)) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE,
                  "ptxemu_free: 0x%" PRIx64 " is not the start of a "
                  "ptxemu_malloc or ptxemu_malloc_managed allocation", ptr);
    } else {
        st = (ptxemu_status)emu_mem_release(dev->emu->mem, ptr);
        if (st != PTXEMU_SUCCESS) {
            fail(dev, st, "ptxemu_free: cannot free 0x%" PRIx64, ptr);
        }
    }
    pthread_mutex_unlock(&dev->lock);
    return st;
}

ptxemu_status ptxemu_malloc_managed(ptxemu_device *dev, size_t size,
                                    void **out)
{
    uint64_t a = 0;
    ptxemu_status st = alloc_any(dev, size, EMU_ALLOC_MANAGED,
                                 "ptxemu_malloc_managed", out ? &a : NULL);
    if (out) {
        *out = (void *)(uintptr_t)a;
    }
    return st;
}

ptxemu_status ptxemu_host_register(ptxemu_device *dev, void *ptr,
                                   size_t size)
{
    if (!dev) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&dev->lock);
    ptxemu_status st = PTXEMU_SUCCESS;
    if (emu_mem_map_host(dev->emu->mem, ptr, size, NULL) != EMU_OK) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE,
                  "ptxemu_host_register: [%p, +%zu) is empty or overlaps "
                  "memory the device already knows", ptr, size);
    }
    pthread_mutex_unlock(&dev->lock);
    return st;
}

ptxemu_status ptxemu_host_unregister(ptxemu_device *dev, void *ptr)
{
    if (!dev) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&dev->lock);
    uint64_t addr = (uint64_t)(uintptr_t)ptr;
    const EmuAlloc *a = emu_mem_find(dev->emu->mem, addr, 1);
    ptxemu_status st = PTXEMU_SUCCESS;
    if (!a || a->addr != addr || a->kind != EMU_ALLOC_HOST) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE,
                  "ptxemu_host_unregister: %p was not registered", ptr);
    } else {
        emu_mem_release(dev->emu->mem, addr);
    }
    pthread_mutex_unlock(&dev->lock);
    return st;
}

ptxemu_status ptxemu_va_reserve(ptxemu_device *dev, size_t size,
                                size_t align, ptxemu_devptr *out)
{
    if (!dev || !out) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&dev->lock);
    *out = emu_mem_reserve(dev->emu->mem, size, align);
    ptxemu_status st = PTXEMU_SUCCESS;
    if (!*out) {
        st = fail(dev, PTXEMU_ERROR_OUT_OF_MEMORY,
                  "ptxemu_va_reserve: no %zu bytes of addresses aligned to "
                  "%zu", size, align);
    }
    pthread_mutex_unlock(&dev->lock);
    return st;
}

ptxemu_status ptxemu_va_map(ptxemu_device *dev, ptxemu_devptr addr,
                            void *host, size_t size)
{
    if (!dev) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&dev->lock);
    ptxemu_status st = PTXEMU_SUCCESS;
    if (emu_mem_map_at(dev->emu->mem, addr, host, size) != EMU_OK) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE,
                  "ptxemu_va_map: [0x%" PRIx64 ", +%zu) is empty or "
                  "overlaps mapped memory", addr, size);
    }
    pthread_mutex_unlock(&dev->lock);
    return st;
}

ptxemu_status ptxemu_va_protect(ptxemu_device *dev, ptxemu_devptr addr,
                                int readonly)
{
    if (!dev) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&dev->lock);
    ptxemu_status st = PTXEMU_SUCCESS;
    if (emu_mem_protect(dev->emu->mem, addr, readonly != 0) != EMU_OK) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE,
                  "ptxemu_va_protect: nothing ptxemu_va_map made starts at "
                  "0x%" PRIx64, addr);
    }
    pthread_mutex_unlock(&dev->lock);
    return st;
}

ptxemu_status ptxemu_va_unmap(ptxemu_device *dev, ptxemu_devptr addr)
{
    if (!dev) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&dev->lock);
    const EmuAlloc *a = emu_mem_find(dev->emu->mem, addr, 1);
    ptxemu_status st = PTXEMU_SUCCESS;
    if (!a || a->addr != addr || a->kind != EMU_ALLOC_VMM) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE,
                  "ptxemu_va_unmap: 0x%" PRIx64 " is not mapped", addr);
    } else {
        emu_mem_release(dev->emu->mem, addr);
    }
    pthread_mutex_unlock(&dev->lock);
    return st;
}

/* These two take the memory table's own lock (emu_mem_query), not
 * dev->lock, which a launch holds while its kernel runs: a host thread
 * classifying a pointer (an asynchronous copy's arguments) must not
 * wait for a kernel that may be waiting for that thread. */
int ptxemu_is_device_address(ptxemu_device *dev, ptxemu_devptr addr)
{
    if (!dev) {
        return 0;
    }
    EmuAlloc a;
    bool in = false;
    emu_mem_query(dev->emu->mem, addr, &a, &in);
    return in;
}

ptxemu_status ptxemu_pointer_info(ptxemu_device *dev, ptxemu_devptr addr,
                                  ptxemu_mem_kind *kind,
                                  ptxemu_devptr *base, size_t *size)
{
    if (!dev) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    EmuAlloc buf;
    const EmuAlloc *a = emu_mem_query(dev->emu->mem, addr, &buf, NULL)
                        ? &buf : NULL;
    if (a && addr == a->addr + a->size && a->size) {
        a = NULL;                       /* one past the end */
    }
    ptxemu_mem_kind k = PTXEMU_MEM_NONE;
    if (a) {
        switch (a->kind) {
        case EMU_ALLOC_DEVICE:
        case EMU_ALLOC_VMM:
        case EMU_ALLOC_HEAP: k = PTXEMU_MEM_DEVICE; break;
        case EMU_ALLOC_MANAGED: k = PTXEMU_MEM_MANAGED; break;
        case EMU_ALLOC_HOST: k = PTXEMU_MEM_HOST; break;
        case EMU_ALLOC_GLOBAL:
        case EMU_ALLOC_CONST: k = PTXEMU_MEM_MODULE; break;
        }
    }
    if (kind) {
        *kind = k;
    }
    if (base) {
        *base = a ? a->addr : 0;
    }
    if (size) {
        *size = a ? (size_t)a->size : 0;
    }
    return PTXEMU_SUCCESS;
}

static ptxemu_status bad_range(ptxemu_device *dev, const char *what,
                               ptxemu_devptr p, size_t size)
{
    return fail(dev, PTXEMU_ERROR_INVALID_VALUE,
                "%s: [0x%" PRIx64 ", +%zu) is not inside one device "
                "allocation", what, p, size);
}

ptxemu_status ptxemu_memcpy_htod(ptxemu_device *dev, ptxemu_devptr dst,
                                 const void *src, size_t size)
{
    if (!dev) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    if (!size) {
        return PTXEMU_SUCCESS;
    }
    ptxemu_status st = PTXEMU_SUCCESS;
    pthread_mutex_lock(&dev->lock);
    if (!src) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE,
                  "ptxemu_memcpy_htod: NULL source");
    } else if (emu_mem_write(dev->emu->mem, dst, src, size) != EMU_OK) {
        st = bad_range(dev, "ptxemu_memcpy_htod", dst, size);
    }
    pthread_mutex_unlock(&dev->lock);
    return st;
}

ptxemu_status ptxemu_memcpy_dtoh(ptxemu_device *dev, void *dst,
                                 ptxemu_devptr src, size_t size)
{
    if (!dev) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    if (!size) {
        return PTXEMU_SUCCESS;
    }
    ptxemu_status st = PTXEMU_SUCCESS;
    pthread_mutex_lock(&dev->lock);
    if (!dst) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE,
                  "ptxemu_memcpy_dtoh: NULL destination");
    } else if (emu_mem_read(dev->emu->mem, src, dst, size) != EMU_OK) {
        st = bad_range(dev, "ptxemu_memcpy_dtoh", src, size);
    }
    pthread_mutex_unlock(&dev->lock);
    return st;
}

ptxemu_status ptxemu_memcpy_dtod(ptxemu_device *dev, ptxemu_devptr dst,
                                 ptxemu_devptr src, size_t size)
{
    if (!dev) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    if (!size) {
        return PTXEMU_SUCCESS;
    }
    ptxemu_status st = PTXEMU_SUCCESS;
    pthread_mutex_lock(&dev->lock);
    EmuMemory *mem = dev->emu->mem;
    const EmuAlloc *s = emu_mem_find(mem, src, size);
    const EmuAlloc *d = emu_mem_find(mem, dst, size);
    if (s && d) {
        memmove(d->host + (dst - d->addr), s->host + (src - s->addr), size);
        emu_mem_wrote(mem, dst, size);
    } else {
        /* VMM mappings side by side (emu_mem_read): through a copy, which
         * keeps memmove's meaning for overlapping ranges */
        uint8_t *tmp = NULL;
        if (!emu_mem_covers(mem, src, size)) {
            st = bad_range(dev, "ptxemu_memcpy_dtod (source)", src, size);
        } else if (!emu_mem_covers(mem, dst, size)) {
            st = bad_range(dev, "ptxemu_memcpy_dtod (destination)", dst,
                           size);
        } else if (!(tmp = malloc(size))) {
            st = fail(dev, PTXEMU_ERROR_OUT_OF_MEMORY,
                      "ptxemu_memcpy_dtod: no %zu bytes of host memory",
                      size);
        } else if (emu_mem_read(mem, src, tmp, size) != EMU_OK) {
            st = bad_range(dev, "ptxemu_memcpy_dtod (source)", src, size);
        } else if (emu_mem_write(mem, dst, tmp, size) != EMU_OK) {
            st = bad_range(dev, "ptxemu_memcpy_dtod (destination)", dst,
                           size);
        }
        free(tmp);
    }
    pthread_mutex_unlock(&dev->lock);
    return st;
}

ptxemu_status ptxemu_memset(ptxemu_device *dev, ptxemu_devptr dst, int byte,
                            size_t size)
{
    if (!dev) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    if (!size) {
        return PTXEMU_SUCCESS;
    }
    ptxemu_status st = PTXEMU_SUCCESS;
    pthread_mutex_lock(&dev->lock);
    if (emu_mem_set(dev->emu->mem, dst, (uint8_t)byte, size) != EMU_OK) {
        st = bad_range(dev, "ptxemu_memset", dst, size);
    }
    pthread_mutex_unlock(&dev->lock);
    return st;
}

/* ------------------------------------------------------------ launch */

/* The source line `line` (1-based) of m, trimmed, into buf. */
static const char *source_line(const ptxemu_module *m, const char *file,
                               uint32_t line, char *buf, size_t len)
{
    const char *p = m->src, *end = m->src + m->srclen;
    for (unsigned i = 0; i < m->nunits; i++) {
        if (file && strcmp(file, m->unit_name[i]) == 0) {
            p = m->unit_src[i];
            end = p + m->unit_len[i];
        }
    }
    if (!p) {
        buf[0] = '\0';
        return buf;
    }
    buf[0] = '\0';
    if (!line) {
        return buf;
    }
    for (uint32_t l = 1; l < line && p < end; l++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) {
            return buf;
        }
        p = nl + 1;
    }
    while (p < end && (*p == ' ' || *p == '\t')) {
        p++;
    }
    const char *e = p;
    while (e < end && *e != '\n' && *e != '\r') {
        e++;
    }
    size_t n = (size_t)(e - p);
    if (n >= len) {
        n = len - 1;
    }
    memcpy(buf, p, n);
    buf[n] = '\0';
    for (char *q = buf; *q; q++) {
        if (*q == '\t') {
            *q = ' ';
        }
    }
    return buf;
}

/* The message of a failed launch: everything EmuFault knows. */
static char *fault_message(ptxemu_device *dev, const ptxemu_function *f,
                           EmuStatus st, const EmuFault *flt,
                           const char *insn_text)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&buf, &len);
    if (!o) {
        return NULL;
    }
    const char *kname = flt && flt->kernel ? flt->kernel : f->ir->name;
    fprintf(o, "kernel '%s' failed: %s (%s)\n", kname,
            ptxemu_status_string((ptxemu_status)st),
            ptxemu_status_name((ptxemu_status)st));
    if (flt) {
        const char *file = flt->file ? flt->file : f->mod->name;
        fprintf(o, "  at %s:%u:%u", file, flt->loc.line, flt->loc.col);
        if (flt->func && strcmp(flt->func, kname) != 0) {
            fprintf(o, " in function '%s'", flt->func);
        }
        fprintf(o, ", CTA (%u,%u,%u), thread (%u,%u,%u)\n", flt->ctaid[0],
                flt->ctaid[1], flt->ctaid[2], flt->tid[0], flt->tid[1],
                flt->tid[2]);
        char line[256];
        if (insn_text && *insn_text) {
            size_t n = strcspn(insn_text, "\n");
            fprintf(o, "  instruction: %.*s\n", (int)n, insn_text);
        } else if (*source_line(f->mod, file, flt->loc.line, line,
                                sizeof(line))) {
            fprintf(o, "  instruction: %s\n", line);
        }
        bool memfault = st == EMU_ERR_ILLEGAL_ADDRESS ||
                        st == EMU_ERR_MISALIGNED || st == EMU_ERR_READ_ONLY ||
                        flt->addr != 0;
        if (memfault) {
            fprintf(o, "  address: 0x%016" PRIx64, flt->addr);
            if (flt->size) {
                fprintf(o, " (%u byte%s", flt->size,
                        flt->size == 1 ? "" : "s");
                if (flt->space != PTX_SPACE_NONE) {
                    fprintf(o, ", %s", ptx_space_name(flt->space));
                }
                fputc(')', o);
            }
            fputc('\n', o);
        }
        if (flt->detail[0]) {
            fprintf(o, "  %.*s\n", (int)sizeof(flt->detail), flt->detail);
        }
        if (memfault && !strstr(flt->detail, "nearest allocation")) {
            const EmuAlloc *a = emu_mem_nearest(dev->emu->mem, flt->addr);
            if (a) {
                fprintf(o, "  nearest allocation: %s%s%s[0x%016" PRIx64
                        ", +%" PRIu64 ")", emu_alloc_kind_name(a->kind),
                        a->name ? " " : "", a->name ? a->name : "",
                        a->addr, a->size);
                if (flt->addr >= a->addr + a->size) {
                    fprintf(o, ", the address is %" PRIu64 " bytes past "
                            "its end", flt->addr - (a->addr + a->size));
                } else if (flt->addr < a->addr) {
                    fprintf(o, ", the address is %" PRIu64 " bytes before "
                            "its start", a->addr - flt->addr);
                } else {
                    fprintf(o, ", offset %" PRIu64, flt->addr - a->addr);
                }
                fputc('\n', o);
            } else {
                fprintf(o, "  nearest allocation: none\n");
            }
        }
    }
    fclose(o);
    return buf;
}

typedef struct StepCtx {
    RtStats *stats;
    uint64_t steps;
    bool trace;
    bool collect;                 /* the statistics client is attached */
} StepCtx;

/* A grid launched from the device (emu/devrt.h): traced before it runs,
 * counted after. */
static void on_grid(void *ctx, const EmuLaunch *c, bool done)
{
    StepCtx *sc = ctx;
    if (done) {
        rt_stats_launch(sc->stats, c, sc->collect);
        return;
    }
    if (sc->trace) {
        fprintf(stderr, "ptxemu: device launch %s<<<(%u,%u,%u), (%u,%u,%u)"
                ", %u>>> by kernel '%s' CTA (%u,%u,%u) thread (%u,%u,%u), "
                "depth %u\n", c->kernel->ir->name, c->grid[0], c->grid[1],
                c->grid[2], c->block[0], c->block[1], c->block[2],
                c->dyn_shared, c->parent->kernel->ir->name, c->by_ctaid[0],
                c->by_ctaid[1], c->by_ctaid[2], c->by_tid[0], c->by_tid[1],
                c->by_tid[2], c->depth);
    }
}

/* The statistics client (emu/client.h): every step of the launch and of
 * its child grids. */
static void on_step(void *ctx, const EmuCta *cta, const EmuWarp *w,
                    const EmuStepRecord *rec)
{
    (void)cta;
    (void)w;
    StepCtx *sc = ctx;
    sc->steps++;
    rt_stats_step(sc->stats, rec);
}

/* The memory-system hints of a launch (hints NULL: none). */
static void launch_hints(EmuLaunch *l, const ptxemu_launch_config *hints)
{
    if (!hints) {
        return;
    }
    l->carveout = hints->carveout;
    l->apw.base = hints->window.base;
    l->apw.bytes = hints->window.num_bytes;
    l->apw.hit_ratio = hints->window.hit_ratio;
    l->apw.hit_prop = (uint8_t)hints->window.hit_prop;
    l->apw.miss_prop = (uint8_t)hints->window.miss_prop;
}

static ptxemu_status launch(ptxemu_function *f, const unsigned grid[3],
                            const unsigned block[3], unsigned shared_bytes,
                            void **params, bool cooperative,
                            const unsigned cluster[3], bool non_portable,
                            const ptxemu_launch_config *hints)
{
    if (!f) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    ptxemu_module *m = f->mod;
    ptxemu_device *dev = m->dev;
    const EmuConfig *cfg = &dev->emu->cfg;
    const char *kn = f->ir->name;
    ptxemu_status st = PTXEMU_SUCCESS;
    pthread_mutex_lock(&dev->lock);
    if (!grid || !block) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE,
                  "launch of '%s': NULL grid or block", kn);
        goto out;
    }
    uint64_t nthreads = (uint64_t)block[0] * block[1] * block[2];
    if (!grid[0] || !grid[1] || !grid[2] || !block[0] || !block[1] ||
        !block[2]) {
        st = fail(dev, PTXEMU_ERROR_LAUNCH_CONFIG,
                  "launch of '%s': grid (%u,%u,%u) and block (%u,%u,%u) must "
                  "be at least 1 in every dimension", kn, grid[0], grid[1],
                  grid[2], block[0], block[1], block[2]);
        goto out;
    }
    if (grid[0] > INT32_MAX || grid[1] > 65535 || grid[2] > 65535 ||
        block[2] > 64 ||
        block[0] > 1024 || block[1] > 1024 ||
        (cfg->max_threads_per_block && nthreads > cfg->max_threads_per_block)) {
        st = fail(dev, PTXEMU_ERROR_LAUNCH_CONFIG,
                  "launch of '%s': grid (%u,%u,%u) block (%u,%u,%u): at most "
                  "%u threads per block (x,y <= 1024, z <= 64), grid x "
                  "< 2^31 and grid y,z <= 65535", kn, grid[0], grid[1], grid[2],
                  block[0], block[1], block[2], cfg->max_threads_per_block);
        goto out;
    }
    /* The static bytes are kept saturated to 32 bits (emu/shlayout.h):
     * a kernel declaring 4 GiB or more is said to, not to have
     * 4294967295. */
    uint32_t static_shared = f->ef->shared_bytes;
    char static_text[32];
    snprintf(static_text, sizeof(static_text),
             static_shared == UINT32_MAX ? "4 GiB or more" : "%u bytes",
             static_shared);
    if (cfg->max_shared_per_block &&
        (uint64_t)shared_bytes + static_shared > cfg->max_shared_per_block) {
        st = fail(dev, PTXEMU_ERROR_LAUNCH_CONFIG,
                  "launch of '%s': %s of static plus %u bytes of dynamic "
                  "shared memory exceed the limit of %u", kn, static_text,
                  shared_bytes, cfg->max_shared_per_block);
        goto out;
    }
    if (static_shared > EMU_SHARED_LIMIT) {
        st = fail(dev, PTXEMU_ERROR_LAUNCH_CONFIG,
                  "launch of '%s': %s of static shared memory pass the "
                  "emulator's %llu-byte shared window", kn, static_text,
                  (unsigned long long)EMU_SHARED_LIMIT);
        goto out;
    }
    if (f->ef->dyn_shared_offset + shared_bytes > EMU_SHARED_LIMIT) {
        /* a .func naming dynamic shared memory fixes where it starts
         * for all its kernels (emu/shlayout.h) */
        st = fail(dev, PTXEMU_ERROR_LAUNCH_CONFIG,
                  "launch of '%s': its dynamic shared memory starts at "
                  "byte %" PRIu64 " (past the static shared of every "
                  "kernel that calls a function using it); %u bytes more "
                  "pass the emulator's %llu-byte shared window", kn,
                  f->ef->dyn_shared_offset, shared_bytes,
                  (unsigned long long)EMU_SHARED_LIMIT);
        goto out;
    }
    for (unsigned i = 0; i < f->nparams; i++) {
        if (!params || !params[i]) {
            st = fail(dev, PTXEMU_ERROR_INVALID_VALUE,
                      "launch of '%s': no value for parameter %u '%s'", kn,
                      i, f->params[i].name);
            goto out;
        }
    }
    dev->emu->has_fault = false;
    EmuLaunch *l = NULL;
    EmuStatus est = emu_launch_begin(m->em, f->ef, grid, block, shared_bytes,
                                     params, &l);
    if (est != EMU_OK || !l) {
        if (est == EMU_OK) {
            est = EMU_ERR_OUT_OF_MEMORY;
        }
        st = fail(dev, (ptxemu_status)est, "launch of '%s' failed: %s (%s)",
                  kn, ptxemu_status_string((ptxemu_status)est),
                  emu_status_name(est));
        goto out;
    }
    l->cooperative = cooperative;
    launch_hints(l, hints);
    char why[200];
    est = emu_launch_cluster(l, cluster, non_portable, why, sizeof(why));
    if (est != EMU_OK) {
        st = fail(dev, (ptxemu_status)est, "launch of '%s': %s", kn, why);
        emu_launch_end(l);
        goto out;
    }
    uint64_t steps = 0;
    StepCtx sc = {&dev->stats, 0, dev->trace, false};
    int stats_client = -1;
    if (dev->collect_stats) {
        EmuClient cl = { EMU_CLIENT_ABI, sizeof(cl), "stats", 0, 0, true,
                         &sc, NULL, NULL, on_step };
        stats_client = emu_client_attach(dev->emu, &cl, why, sizeof(why));
        if (stats_client < 0) {
            st = fail(dev, PTXEMU_ERROR_OUT_OF_MEMORY, "launch of '%s': %s",
                      kn, why);
            emu_launch_end(l);
            goto out;
        }
        sc.collect = true;
    }
    l->grid_hook = on_grid;
    l->grid_hook_ctx = &sc;
    if (dev->tm) {
        tm_session_attach(dev->tm, l);
    }
    est = emu_launch_run(l);
    emu_client_detach(dev->emu, stats_client);
    steps = sc.steps;
    rt_stats_launch(&dev->stats, l, steps);
    if (est != EMU_OK && dev->tm && tm_session_error(dev->tm)) {
        /* the timing model stopped the kernel: its own message */
        st = fail(dev, (ptxemu_status)est, "launch of '%s': timing model "
                  "'%s': %s", kn, tm_session_model(dev->tm),
                  tm_session_error(dev->tm));
        if (dev->pending == PTXEMU_SUCCESS) {
            dev->pending = st;
        }
    } else if (est != EMU_OK) {
        const EmuFault *flt = l->faulted ? &l->fault
                              : dev->emu->has_fault ? &dev->emu->last_fault
                                                    : NULL;
        if (flt && dev->fault_hook) {
            dev->fault_hook(dev->fault_ctx, flt, l->mod);
        }
        st = fail_take(dev, (ptxemu_status)est,
                       fault_message(dev, f, est, flt,
                                     l->faulted ? l->fault_text : NULL));
        if (dev->pending == PTXEMU_SUCCESS) {
            dev->pending = st;
        }
    }
    emu_launch_end(l);
    /* no kernel runs now: tables that allocations beside it replaced
     * go (alloc_any) */
    emu_mem_reclaim(dev->emu->mem);
out:
    pthread_mutex_unlock(&dev->lock);
    return st;
}

ptxemu_status ptxemu_launch(ptxemu_function *f, const unsigned grid[3],
                            const unsigned block[3], unsigned shared_bytes,
                            void **params)
{
    static const unsigned none[3];
    return launch(f, grid, block, shared_bytes, params, false, none, false,
                  NULL);
}

ptxemu_status ptxemu_launch_cooperative(ptxemu_function *f,
                                        const unsigned grid[3],
                                        const unsigned block[3],
                                        unsigned shared_bytes,
                                        void **params)
{
    static const unsigned none[3];
    return launch(f, grid, block, shared_bytes, params, true, none, false,
                  NULL);
}

void ptxemu_launch_config_default(ptxemu_launch_config *cfg)
{
    if (!cfg) {
        return;
    }
    memset(cfg, 0, sizeof(*cfg));
    cfg->size = sizeof(*cfg);
    for (int i = 0; i < 3; i++) {
        cfg->grid[i] = 1;
        cfg->block[i] = 1;
    }
    cfg->carveout = -1;
}

ptxemu_status ptxemu_launch_ex(ptxemu_function *f,
                               const ptxemu_launch_config *cfg,
                               void **params)
{
    /* fields up to and including `cooperative` are the first version */
    size_t v1 = offsetof(ptxemu_launch_config, cluster);
    if (!f || !cfg || cfg->size < v1) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    ptxemu_launch_config c;
    memset(&c, 0, sizeof(c));
    c.carveout = -1;                    /* a caller without the field */
    memcpy(&c, cfg, cfg->size < sizeof(c) ? cfg->size : sizeof(c));
    if (cfg->size >= offsetof(ptxemu_launch_config, window) &&
        (c.carveout < -1 || c.carveout > 100)) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    if (c.window.num_bytes &&
        (!(c.window.hit_ratio >= 0.0f && c.window.hit_ratio <= 1.0f) ||
         (unsigned)c.window.hit_prop > 2 ||
         (unsigned)c.window.miss_prop > 2)) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    return launch(f, c.grid, c.block, c.shared_bytes, params,
                  c.cooperative != 0, c.cluster,
                  c.non_portable_cluster != 0, &c);
}

ptxemu_status ptxemu_synchronize(ptxemu_device *dev)
{
    if (!dev) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&dev->lock);
    ptxemu_status st = dev->pending;
    dev->pending = PTXEMU_SUCCESS;
    /* device printf: the launches' output, in launch order */
    emu_device_flush_output(dev->emu);
    pthread_mutex_unlock(&dev->lock);
    fflush(stdout);
    return st;
}

/* ------------------------------------------------------------ statistics */

ptxemu_status ptxemu_get_stats(ptxemu_device *dev, ptxemu_stats *out)
{
    if (!dev || !out) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&dev->lock);
    *out = dev->stats.s;
    pthread_mutex_unlock(&dev->lock);
    return PTXEMU_SUCCESS;
}

void ptxemu_reset_stats(ptxemu_device *dev)
{
    if (!dev) {
        return;
    }
    pthread_mutex_lock(&dev->lock);
    rt_stats_reset(&dev->stats);
    pthread_mutex_unlock(&dev->lock);
}

size_t ptxemu_get_opcode_stats(ptxemu_device *dev, ptxemu_opcode_count *out,
                               size_t max)
{
    if (!dev) {
        return 0;
    }
    pthread_mutex_lock(&dev->lock);
    size_t n = rt_stats_opcodes(&dev->stats, out, out ? max : 0);
    pthread_mutex_unlock(&dev->lock);
    return n;
}

/* ------------------------------------------------- arrays, textures */

struct ptxemu_array {
    ptxemu_device *dev;
    ptxemu_array_desc desc;
    EmuTexData data;            /* storage: device memory at data.addr */
    uint32_t users;             /* texture and surface objects */
    ptxemu_array *next;
    /* A mipmapped array owns nlevels level views (levels[0] shares its
     * data); a view points at its parent and owns nothing. */
    uint32_t nlevels;
    ptxemu_array *levels;
    ptxemu_array *parent;
    /* ptxemu_array_release while in use: freed with its last user */
    bool released;
};

static void arrays_free_locked(ptxemu_device *dev)
{
    while (dev->arrays) {
        ptxemu_array *a = dev->arrays;
        dev->arrays = a->next;
        free(a->levels);
        free(a);
    }
}

static EmuTexTable *tex_table(ptxemu_device *dev)
{
    if (!dev->emu->tex) {
        dev->emu->tex = calloc(1, sizeof(EmuTexTable));
    }
    return dev->emu->tex;
}

/* NULL if the format is valid, else what is wrong with it. */
static const char *bad_format(const ptxemu_format *f)
{
    if (f->channels != 1 && f->channels != 2 && f->channels != 4) {
        return "channels must be 1, 2 or 4";
    }
    if (f->bits != 8 && f->bits != 16 && f->bits != 32) {
        return "bits must be 8, 16 or 32";
    }
    if ((unsigned)f->kind > PTXEMU_CHANNEL_FLOAT) {
        return "unknown channel kind";
    }
    if (f->kind == PTXEMU_CHANNEL_FLOAT && f->bits == 8) {
        return "no 8-bit float channels";
    }
    return NULL;
}

static void set_format(EmuTexData *d, const ptxemu_format *f)
{
    d->nch = (uint8_t)f->channels;
    d->bits = (uint8_t)f->bits;
    d->kind = (uint8_t)f->kind;
}

/* Why an array descriptor is invalid, or NULL. */
static const char *bad_array(const ptxemu_array_desc *d)
{
    const uint32_t max = 1u << 16;
    if (d->size < sizeof(*d)) {
        return "desc->size is smaller than sizeof(ptxemu_array_desc)";
    }
    if (!d->width || d->width > max || d->height > max || d->depth > max
        || d->layers > 2048) {
        return "width must be 1..65536, height and depth 0..65536, "
               "layers 0..2048";
    }
    if (d->flags & ~(uint32_t)(PTXEMU_ARRAY_LAYERED
                               | PTXEMU_ARRAY_SURFACE_LDST
                               | PTXEMU_ARRAY_CUBEMAP)) {
        return "unknown flags";
    }
    bool layered = d->flags & PTXEMU_ARRAY_LAYERED;
    if (layered != (d->layers != 0)) {
        return "layers must be set exactly for PTXEMU_ARRAY_LAYERED";
    }
    if ((d->flags & PTXEMU_ARRAY_CUBEMAP)
        && (d->width != d->height || d->depth)) {
        return "a cubemap needs width == height and depth 0";
    }
    if (layered && d->depth) {
        return "a layered array has no depth";
    }
    if (d->depth && !d->height) {
        return "a 3-D array needs a height";
    }
    return bad_format(&d->format);
}

/* CUDA's level count of a mipmapped array: at most 1 + floor(log2 of
 * the largest extent), layers not counted (cuMipmappedArrayCreate). */
static uint32_t max_levels(const ptxemu_array_desc *d)
{
    uint32_t m = d->width > d->height ? d->width : d->height;
    m = m > d->depth ? m : d->depth;
    uint32_t n = 1;
    while (m >>= 1) {
        n++;
    }
    return n;
}

static uint32_t halve(uint32_t e, uint32_t l)
{
    return e >> l ? e >> l : 1;
}

/* The level views of a mipmapped array a whose data (level 0) is set:
 * one allocation holds the levels one after another. */
static const char *make_levels(ptxemu_device *dev, ptxemu_array *a)
{
    const ptxemu_array_desc *d = &a->desc;
    uint32_t n = d->levels < max_levels(d) ? d->levels : max_levels(d);
    a->desc.levels = n;
    a->nlevels = n;
    a->levels = calloc(n, sizeof(*a->levels));
    if (!a->levels) {
        return "out of host memory";
    }
    uint64_t off = 0;
    for (uint32_t l = 0; l < n; l++) {
        ptxemu_array *v = &a->levels[l];
        v->dev = dev;
        v->parent = a;
        v->desc = *d;
        v->desc.levels = 0;
        v->desc.width = halve(d->width, l);
        v->desc.height = d->height ? halve(d->height, l) : 0;
        v->desc.depth = d->depth ? halve(d->depth, l) : 0;
        v->data = a->data;
        v->data.width = v->desc.width;
        v->data.height = v->desc.height ? v->desc.height : 1;
        v->data.depth = v->desc.depth ? v->desc.depth : 1;
        v->data.pitch = (uint64_t)v->data.width
                        * emu_tex_elem_bytes(&a->data);
        v->data.addr = off;     /* an offset until allocated */
        off += v->data.pitch * v->data.height * v->data.depth
               * v->data.layers;
    }
    uint64_t base = emu_mem_alloc(dev->emu->mem, off, EMU_ALLOC_DEVICE,
                                  "CUDA mipmapped array");
    if (!base) {
        free(a->levels);
        return "cannot allocate the levels";
    }
    for (uint32_t l = 0; l < n; l++) {
        a->levels[l].data.addr += base;
    }
    a->data = a->levels[0].data;
    return NULL;
}

ptxemu_status ptxemu_array_create(ptxemu_device *dev,
                                  const ptxemu_array_desc *desc,
                                  ptxemu_array **out)
{
    if (!dev) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    ptxemu_status st = PTXEMU_SUCCESS;
    pthread_mutex_lock(&dev->lock);
    const char *why = !desc || !out ? "NULL argument" : bad_array(desc);
    ptxemu_array *a = why ? NULL : calloc(1, sizeof(*a));
    if (why) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE, "ptxemu_array_create: %s",
                  why);
        goto done;
    }
    if (!a) {
        st = fail(dev, PTXEMU_ERROR_OUT_OF_MEMORY,
                  "ptxemu_array_create: out of host memory");
        goto done;
    }
    a->dev = dev;
    a->desc = *desc;
    EmuTexData *d = &a->data;
    set_format(d, &desc->format);
    d->width = desc->width;
    d->height = desc->height ? desc->height : 1;
    d->depth = desc->depth ? desc->depth : 1;
    d->cube = (desc->flags & PTXEMU_ARRAY_CUBEMAP) != 0;
    d->layered = (desc->flags & PTXEMU_ARRAY_LAYERED) != 0;
    d->layers = (desc->layers ? desc->layers : 1) * (d->cube ? 6 : 1);
    d->pitch = (uint64_t)d->width * emu_tex_elem_bytes(d);
    uint64_t bytes = d->pitch * d->height * d->depth * d->layers;
    if (desc->levels) {
        why = make_levels(dev, a);
        if (why) {
            free(a);
            st = fail(dev, PTXEMU_ERROR_OUT_OF_MEMORY,
                      "ptxemu_array_create: %s", why);
            goto done;
        }
    } else {
        d->addr = emu_mem_alloc(dev->emu->mem, bytes, EMU_ALLOC_DEVICE,
                                "CUDA array");
    }
    if (!d->addr) {
        free(a);
        st = fail(dev, PTXEMU_ERROR_OUT_OF_MEMORY,
                  "ptxemu_array_create: cannot allocate %" PRIu64 " bytes",
                  bytes);
        goto done;
    }
    a->next = dev->arrays;
    dev->arrays = a;
    *out = a;
done:
    pthread_mutex_unlock(&dev->lock);
    return st;
}

/* Texture and surface objects using a (or, mipmapped, its levels). */
static uint32_t array_users(const ptxemu_array *a)
{
    uint32_t users = a->users;
    for (uint32_t l = 0; l < a->nlevels; l++) {
        users += a->levels[l].users;
    }
    return users;
}

static void array_free_locked(ptxemu_device *dev, ptxemu_array *a)
{
    ptxemu_array **pp = &dev->arrays;
    while (*pp && *pp != a) {
        pp = &(*pp)->next;
    }
    if (*pp) {
        *pp = a->next;
    }
    emu_mem_release(dev->emu->mem, a->data.addr);
    free(a->levels);
    free(a);
}

static ptxemu_status array_end(ptxemu_array *a, bool release,
                               const char *what)
{
    if (!a) {
        return PTXEMU_SUCCESS;
    }
    ptxemu_device *dev = a->dev;
    ptxemu_status st = PTXEMU_SUCCESS;
    pthread_mutex_lock(&dev->lock);
    uint32_t users = array_users(a);
    if (a->parent) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE, "%s: a level of a "
                  "mipmapped array is destroyed with the mipmapped array "
                  "only", what);
    } else if (a->released) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE, "%s: the array was "
                  "already released", what);
    } else if (users && release) {
        a->released = true;         /* freed with its last user */
    } else if (users) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE, "%s: %u texture or "
                  "surface objects still use the array", what, users);
    } else {
        array_free_locked(dev, a);
    }
    pthread_mutex_unlock(&dev->lock);
    return st;
}

ptxemu_status ptxemu_array_destroy(ptxemu_array *a)
{
    return array_end(a, false, "ptxemu_array_destroy");
}

ptxemu_status ptxemu_array_release(ptxemu_array *a)
{
    return array_end(a, true, "ptxemu_array_release");
}

ptxemu_status ptxemu_array_get_level(ptxemu_array *a, uint32_t level,
                                     ptxemu_array **out)
{
    if (!a) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    ptxemu_device *dev = a->dev;
    ptxemu_status st = PTXEMU_SUCCESS;
    pthread_mutex_lock(&dev->lock);
    if (!out) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE,
                  "ptxemu_array_get_level: NULL argument");
    } else if (!a->nlevels) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE,
                  "ptxemu_array_get_level: the array is not mipmapped");
    } else if (level >= a->nlevels) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE,
                  "ptxemu_array_get_level: level %u of an array of %u "
                  "levels", level, a->nlevels);
    } else {
        *out = &a->levels[level];
    }
    pthread_mutex_unlock(&dev->lock);
    return st;
}

ptxemu_status ptxemu_array_get_desc(ptxemu_array *a, ptxemu_array_desc *out)
{
    if (!a || !out) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    *out = a->desc;
    return PTXEMU_SUCCESS;
}

static ptxemu_status array_copy(ptxemu_array *a, const ptxemu_array_box *b,
                                uint8_t *host, size_t pitch, size_t rows,
                                bool to_array, const char *what)
{
    if (!a) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    ptxemu_device *dev = a->dev;
    ptxemu_status st = PTXEMU_SUCCESS;
    pthread_mutex_lock(&dev->lock);
    const EmuTexData *d = &a->data;
    uint64_t eb = emu_tex_elem_bytes(d);
    uint64_t w = b ? (b->width ? b->width : 1) : 0;
    uint64_t h = b ? (b->height ? b->height : 1) : 0;
    uint64_t dp = b ? (b->depth ? b->depth : 1) : 0;
    uint64_t zmax = (uint64_t)d->depth * d->layers;
    if (!b || !host) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE, "%s: NULL argument",
                  what);
    } else if (b->x + w > d->width || b->y + h > d->height
               || b->z + dp > zmax) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE, "%s: box (%u, %u, %u) + "
                  "(%" PRIu64 ", %" PRIu64 ", %" PRIu64 ") outside the "
                  "%ux%ux%" PRIu64 " array", what, b->x, b->y, b->z, w, h,
                  dp, d->width, d->height, zmax);
    } else if (pitch < w * eb || (rows && rows < h)) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE,
                  "%s: host pitch %zu or rows %zu smaller than the box",
                  what, pitch, rows);
    } else {
        const EmuAlloc *al = emu_mem_find(dev->emu->mem, d->addr, 1);
        uint8_t *base = al->host + (d->addr - al->addr);
        size_t slice = pitch * (rows ? rows : h);
        for (uint64_t z = 0; z < dp; z++) {
            for (uint64_t y = 0; y < h; y++) {
                uint8_t *arr = base + ((b->z + z) * d->height + b->y + y)
                               * d->pitch + b->x * eb;
                uint8_t *hp = host + z * slice + y * pitch;
                if (to_array) {
                    memcpy(arr, hp, w * eb);
                    emu_mem_wrote(dev->emu->mem, d->addr + (uint64_t)(arr -
                                  base), w * eb);
                } else {
                    memcpy(hp, arr, w * eb);
                }
            }
        }
    }
    pthread_mutex_unlock(&dev->lock);
    return st;
}

ptxemu_status ptxemu_array_copy_from_host(ptxemu_array *a,
                                          const ptxemu_array_box *box,
                                          const void *src, size_t pitch,
                                          size_t rows)
{
    return array_copy(a, box, (uint8_t *)(uintptr_t)src, pitch, rows, true,
                      "ptxemu_array_copy_from_host");
}

ptxemu_status ptxemu_array_copy_to_host(ptxemu_array *a,
                                        const ptxemu_array_box *box,
                                        void *dst, size_t pitch,
                                        size_t rows)
{
    return array_copy(a, box, dst, pitch, rows, false,
                      "ptxemu_array_copy_to_host");
}

void ptxemu_texture_desc_default(ptxemu_texture_desc *desc)
{
    memset(desc, 0, sizeof(*desc));
    desc->size = sizeof(*desc);
    for (unsigned k = 0; k < 3; k++) {
        desc->address_mode[k] = PTXEMU_ADDRESS_CLAMP;
    }
}

/* Fill o from a texture descriptor; returns why it is invalid or NULL. */
static const char *tex_obj(ptxemu_device *dev, const ptxemu_texture_desc *t,
                           EmuTexObj *o)
{
    memset(o, 0, sizeof(*o));
    o->kind = EMU_OBJ_TEX;
    EmuTexData *d = &o->data;
    if (t->size < sizeof(*t)) {
        return "desc->size is smaller than sizeof(ptxemu_texture_desc)";
    }
    if (t->array) {
        *d = t->array->data;
        o->nlevels = (uint8_t)t->array->nlevels;
        for (uint32_t l = 0; l < t->array->nlevels; l++) {
            o->lv[l] = t->array->levels[l].data;
        }
    } else {
        const char *why = bad_format(&t->format);
        if (why) {
            return why;
        }
        set_format(d, &t->format);
        d->addr = t->ptr;
        d->width = t->width;
        d->height = t->height ? t->height : 1;
        d->depth = d->layers = 1;
        d->pitch = t->height ? t->pitch
                             : (uint64_t)t->width * emu_tex_elem_bytes(d);
        if (!t->width || d->pitch < (uint64_t)t->width
                                     * emu_tex_elem_bytes(d)
            || d->pitch > (1ull << 40) || t->width > (1u << 30)) {
            return "width 0 or too large, or pitch smaller than a row "
                   "or too large";
        }
        if (!emu_mem_find(dev->emu->mem, d->addr, d->pitch * d->height)) {
            return "the memory is not inside one device allocation";
        }
    }
    EmuTexSampler *s = &o->samp;
    for (unsigned k = 0; k < 3; k++) {
        unsigned m = t->address_mode[k];
        if (m > PTXEMU_ADDRESS_BORDER) {
            return "unknown address mode";
        }
        if (!t->normalized_coords && (m == PTXEMU_ADDRESS_WRAP
                                      || m == PTXEMU_ADDRESS_MIRROR)) {
            m = PTXEMU_ADDRESS_CLAMP;
        }
        s->addr_mode[k] = (uint8_t)m;
    }
    if ((unsigned)t->filter > PTXEMU_FILTER_LINEAR
        || (unsigned)t->read_mode > PTXEMU_READ_NORMALIZED_FLOAT) {
        return "unknown filter or read mode";
    }
    bool floats = d->kind == EMU_CH_FLOAT
                  || (t->read_mode == PTXEMU_READ_NORMALIZED_FLOAT
                      && d->bits < 32);
    if (t->filter == PTXEMU_FILTER_LINEAR && !floats) {
        return "linear filtering needs float results (float channels or "
               "normalized-float reads of 8/16-bit channels)";
    }
    s->filter = (uint8_t)t->filter;
    s->read_mode = (uint8_t)t->read_mode;
    s->normalized = t->normalized_coords != 0;
    memcpy(s->border, t->border_color, sizeof(s->border));
    if ((unsigned)t->mipmap_filter > PTXEMU_FILTER_LINEAR) {
        return "unknown mipmap filter mode";
    }
    if (o->nlevels && t->mipmap_filter == PTXEMU_FILTER_LINEAR
        && !floats) {
        return "linear mipmap filtering needs float results";
    }
    if (isnan(t->mipmap_level_bias) || isnan(t->min_mipmap_level_clamp)
        || isnan(t->max_mipmap_level_clamp)) {
        return "a mipmap level bias or clamp is NaN";
    }
    s->seamless = d->cube && t->seamless_cubemap;
    s->mip_filter = (uint8_t)t->mipmap_filter;
    s->lod_bias = t->mipmap_level_bias;
    s->min_lod = t->min_mipmap_level_clamp;
    s->max_lod = t->max_mipmap_level_clamp;
    s->max_aniso = (uint8_t)(t->max_anisotropy > 16 ? 16
                                                    : t->max_anisotropy);
    return NULL;
}

ptxemu_status ptxemu_texture_create(ptxemu_device *dev,
                                    const ptxemu_texture_desc *desc,
                                    uint64_t *handle)
{
    if (!dev) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    ptxemu_status st = PTXEMU_SUCCESS;
    pthread_mutex_lock(&dev->lock);
    EmuTexObj o;
    EmuTexTable *tt = tex_table(dev);
    const char *why = !desc || !handle ? "NULL argument"
                      : tex_obj(dev, desc, &o);
    if (why) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE,
                  "ptxemu_texture_create: %s", why);
    } else if (desc->srgb) {
        st = fail(dev, PTXEMU_ERROR_UNSUPPORTED,
                  "ptxemu_texture_create: sRGB textures are not "
                  "supported by the emulator");
    } else if (!tt || !(*handle = emu_tex_add(tt, &o))) {
        st = fail(dev, PTXEMU_ERROR_OUT_OF_MEMORY,
                  "ptxemu_texture_create: out of host memory");
    } else {
        tt->objs[(*handle & 0xFFFFFFFFu) - 1].owner = desc->array;
        if (desc->array) {
            desc->array->users++;
        }
    }
    pthread_mutex_unlock(&dev->lock);
    return st;
}

static ptxemu_status obj_destroy(ptxemu_device *dev, uint64_t h,
                                 uint8_t kind, const char *what)
{
    if (!dev) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    ptxemu_status st = PTXEMU_SUCCESS;
    pthread_mutex_lock(&dev->lock);
    EmuTexObj *o = emu_tex_find(dev->emu->tex, h, kind);
    if (!o) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE,
                  "%s: 0x%" PRIx64 " is not a live handle", what, h);
    } else {
        ptxemu_array *a = (ptxemu_array *)(uintptr_t)o->owner;
        emu_tex_remove(dev->emu->tex, h, kind);
        if (a) {
            a->users--;
            ptxemu_array *top = a->parent ? a->parent : a;
            if (top->released && !array_users(top)) {
                array_free_locked(dev, top);
            }
        }
    }
    pthread_mutex_unlock(&dev->lock);
    return st;
}

ptxemu_status ptxemu_texture_destroy(ptxemu_device *dev, uint64_t handle)
{
    return obj_destroy(dev, handle, EMU_OBJ_TEX, "ptxemu_texture_destroy");
}

ptxemu_status ptxemu_surface_destroy(ptxemu_device *dev, uint64_t handle)
{
    return obj_destroy(dev, handle, EMU_OBJ_SURF, "ptxemu_surface_destroy");
}

ptxemu_status ptxemu_surface_create(ptxemu_device *dev, ptxemu_array *a,
                                    uint64_t *handle)
{
    if (!dev) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    ptxemu_status st = PTXEMU_SUCCESS;
    pthread_mutex_lock(&dev->lock);
    EmuTexTable *tt = tex_table(dev);
    if (!a || !handle) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE,
                  "ptxemu_surface_create: NULL argument");
    } else if (!(a->desc.flags & PTXEMU_ARRAY_SURFACE_LDST)) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE,
                  "ptxemu_surface_create: the array was not made with "
                  "PTXEMU_ARRAY_SURFACE_LDST");
    } else {
        EmuTexObj o;
        memset(&o, 0, sizeof(o));
        o.kind = EMU_OBJ_SURF;
        o.data = a->data;
        o.owner = a;
        if (!tt || !(*handle = emu_tex_add(tt, &o))) {
            st = fail(dev, PTXEMU_ERROR_OUT_OF_MEMORY,
                      "ptxemu_surface_create: out of host memory");
        } else {
            a->users++;
        }
    }
    pthread_mutex_unlock(&dev->lock);
    return st;
}

ptxemu_status ptxemu_module_bind_texref(ptxemu_module *mod,
                                        const char *name, uint64_t handle)
{
    if (!mod) {
        return PTXEMU_ERROR_INVALID_VALUE;
    }
    ptxemu_device *dev = mod->dev;
    ptxemu_status st = PTXEMU_SUCCESS;
    pthread_mutex_lock(&dev->lock);
    const IrModule *ir = mod->em->ir;
    const IrSymbol *sym = NULL;
    for (uint32_t i = 0; name && i < ir->nglobals; i++) {
        const IrSymbol *g = ir->globals[i];
        if ((g->kind == IR_SYM_TEXREF || g->kind == IR_SYM_SURFREF)
            && !strcmp(g->name, name)) {
            sym = g;
        }
    }
    EmuTexTable *tt = tex_table(dev);
    uint8_t kind = sym && sym->kind == IR_SYM_SURFREF ? EMU_OBJ_SURF
                                                       : EMU_OBJ_TEX;
    if (!sym) {
        st = fail(dev, PTXEMU_ERROR_NOT_FOUND, "ptxemu_module_bind_texref: "
                  "no .texref or .surfref '%s' in the module",
                  name ? name : "(null)");
    } else if (handle && !emu_tex_find(tt, handle, kind)) {
        st = fail(dev, PTXEMU_ERROR_INVALID_VALUE,
                  "ptxemu_module_bind_texref: 0x%" PRIx64 " is not a live "
                  "%s handle", handle,
                  kind == EMU_OBJ_TEX ? "texture" : "surface");
    } else if (!tt || emu_tex_bind(tt, mod->em, name, handle) != EMU_OK) {
        st = fail(dev, PTXEMU_ERROR_OUT_OF_MEMORY,
                  "ptxemu_module_bind_texref: out of host memory");
    }
    pthread_mutex_unlock(&dev->lock);
    return st;
}

/* ------------------------------------------------------ tensor maps */

ptxemu_status ptxemu_tensor_map_encode_tiled(const ptxemu_tensor_map_desc
                                             *desc, ptxemu_tensor_map *map,
                                             const char **why)
{
    const char *w = "NULL argument";
    EmuStatus st = EMU_ERR_INVALID_VALUE;
    if (desc) {
        EmuTmap t = {
            .dtype = (unsigned)desc->dtype, .rank = desc->rank,
            .interleave = desc->interleave,
            .swizzle = (unsigned)desc->swizzle,
            .l2promo = desc->l2_promotion, .oobfill = desc->oob_nan,
            .addr = desc->addr
        };
        for (unsigned i = 0; i < EMU_TMAP_MAX_RANK && i < desc->rank;
             i++) {
            t.dim[i] = desc->dims[i];
            t.box[i] = desc->box[i];
            t.estride[i] = desc->elem_strides[i];
            if (i >= 1) {
                t.gstride[i - 1] = desc->strides[i - 1];
            }
        }
        st = emu_tmap_encode_tiled(&t, map, &w);
    }
    if (why) {
        *why = w;
    }
    return (ptxemu_status)st;
}

ptxemu_status ptxemu_tensor_map_replace_address(ptxemu_tensor_map *map,
                                                ptxemu_devptr addr,
                                                const char **why)
{
    const char *w;
    EmuStatus st = emu_tmap_replace_address(map, addr, &w);
    if (why) {
        *why = w;
    }
    return (ptxemu_status)st;
}

TmSession *rt_device_timing(ptxemu_device *dev)
{
    return dev ? dev->tm : NULL;
}
