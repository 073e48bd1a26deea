/*
 * emu/devrt_async.c: cudaMemcpyAsync, cudaMemcpy2DAsync,
 * cudaMemcpy3DAsync, cudaMemsetAsync, cudaMemset2DAsync and
 * cudaMemset3DAsync (and their _ptsz forms) in device code.
 * See emu/devrt.h.
 *
 * Each call checks its arguments, then queues the operation with the
 * thread's child grids: it runs in queue order after the grid's threads
 * finished (emu/devrt.h's schedule), so that work a thread issues into
 * a stream runs in issue order, as CDP2 streams require.  As the
 * programming guide says for the device runtime, only device memory is
 * copied (cudaMemcpyDeviceToDevice or cudaMemcpyDefault) and pointers
 * to shared or local memory may not be passed: the operation runs
 * after the grid's threads, when those are gone.
 *
 * Errors returned: cudaErrorInvalidMemcpyDirection (21) for another
 * kind, cudaErrorInvalidValue (1) for a null pointer with bytes to
 * move, a CUDA array in cudaMemcpy3DParms or slices that overlap
 * (ysize < height), cudaErrorInvalidPitchValue (12) for rows wider
 * than their pitch, cudaErrorInvalidResourceHandle (400) for an
 * unknown stream, cudaErrorLaunchPendingCountExceeded (69) when the
 * pending-launch limit is reached.  A range not inside one device
 * allocation (or a destination in read-only memory) is a located fault
 * of the calling thread when it calls; one that goes away before the
 * operation runs (a child grid freed it) is a fault located at the
 * call, run after the grid.
 */
#include <stdio.h>
#include <string.h>

#include "emu/access.h"
#include "emu/builtins.h"
#include "emu/devrt_int.h"
#include "emu/memory.h"
#include "ptx/ptx.h"

enum { KIND_D2D = 3, KIND_DEFAULT = 4 };

/* The bytes from the first to the last of a box, or 0 when that does
 * not fit in 63 bits. */
static uint64_t box_span(const CdpBox *b, uint64_t w, uint64_t h,
                         uint64_t d)
{
    unsigned __int128 n = (unsigned __int128)(d - 1) * b->slice +
                          (unsigned __int128)(h - 1) * b->pitch + w;
    return n >> 63 ? 0 : (uint64_t)n;
}

/* The allocation holding a box, checked for writing when `write`;
 * NULL with *why set. */
static const EmuAlloc *box_alloc(const EmuMemory *m, const CdpBox *b,
                                 uint64_t span, bool write,
                                 const char **why)
{
    const EmuAlloc *a = span ? emu_mem_find(m, b->addr, span) : NULL;
    *why = a ? NULL : "is not inside one device allocation";
    if (a && write && (a->kind == EMU_ALLOC_CONST || a->readonly)) {
        /* the device's write: refused where its stores are (emu_mem_guest) */
        *why = "is read-only memory";
        return NULL;
    }
    return a;
}

static void box_detail(char *d, size_t n, const EmuMemory *m,
                       const char *what, const char *side, uint64_t addr,
                       uint64_t span, const char *why)
{
    const EmuAlloc *near = emu_mem_nearest(m, addr);
    int k = snprintf(d, n, "%s: %s [0x%llx, +%llu) %s", what, side,
                     (unsigned long long)addr, (unsigned long long)span,
                     why);
    if (near && k > 0 && (size_t)k < n) {
        snprintf(d + k, n - (size_t)k, " (nearest: %s 0x%llx, %llu "
                 "bytes)", emu_alloc_kind_name(near->kind),
                 (unsigned long long)near->addr,
                 (unsigned long long)near->size);
    }
}

/* Check a box at the call; false after a located fault. */
static bool check_box(EmuCtx *x, unsigned lane, const Child *c,
                      const CdpBox *b, bool write)
{
    uint64_t span = box_span(b, c->width, c->height, c->depth);
    const char *why;
    if (box_alloc(x->dev->mem, b, span, write, &why)) {
        return true;
    }
    char d[sizeof(((EmuFault *)0)->detail)];
    box_detail(d, sizeof(d), x->dev->mem, c->what,
               write ? "destination" : "source", b->addr, span, why);
    emu_fault(x, EMU_ERR_ILLEGAL_ADDRESS, lane, b->addr,
              span > UINT32_MAX ? UINT32_MAX : (uint32_t)span,
              PTX_SPACE_GLOBAL, "%s", d);
    return false;
}

/* Queue c (filled in but for the queue fields) for the lane; returns
 * after a fault or with the call's result set. */
static void submit(EmuCtx *x, const EmuInsn *i, unsigned lane,
                   const Child *c, uint64_t stream)
{
    if (!c->width || !c->height || !c->depth) {
        cdp_result(x, i, lane, CDP_OK);   /* nothing to do */
        return;
    }
    if (!check_box(x, lane, c, &c->dst, true) ||
        (c->kind == CHILD_COPY && !check_box(x, lane, c, &c->src, false))) {
        return;
    }
    uint32_t err = CDP_OK;
    Child *q = cdp_queue(x, lane, stream, &err);
    if (q) {
        Child keep = *q;
        *q = *c;
        q->tail = keep.tail;
        memcpy(q->by_ctaid, keep.by_ctaid, sizeof(q->by_ctaid));
        memcpy(q->by_tid, keep.by_tid, sizeof(q->by_tid));
        q->by_func = keep.by_func;
        q->by_pc = keep.by_pc;
    }
    cdp_result(x, i, lane, err);
}

static bool kind_ok(uint64_t kind)
{
    return kind == KIND_D2D || kind == KIND_DEFAULT;
}

static void copy_child(Child *c, const char *what, uint64_t dst,
                       uint64_t dpitch, uint64_t src, uint64_t spitch,
                       uint64_t w, uint64_t h)
{
    memset(c, 0, sizeof(*c));
    c->kind = CHILD_COPY;
    c->what = what;
    c->dst = (CdpBox){dst, dpitch, 0};
    c->src = (CdpBox){src, spitch, 0};
    c->width = w;
    c->height = h;
    c->depth = 1;
}

/* cudaMemcpyAsync(dst, src, count, kind, stream) */
void cdp_op_memcpy(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        uint64_t dst = emu_builtin_arg(x, i, lane, 0);
        uint64_t src = emu_builtin_arg(x, i, lane, 1);
        uint64_t n = emu_builtin_arg(x, i, lane, 2);
        uint64_t kind = emu_builtin_arg(x, i, lane, 3);
        uint64_t s = emu_builtin_arg(x, i, lane, 4);
        uint32_t err = !kind_ok(kind) ? CDP_ERR_INVALID_MEMCPY_DIRECTION
                       : n && (!dst || !src) ? CDP_ERR_INVALID_VALUE
                       : CDP_OK;
        if (err) {
            cdp_result(x, i, lane, err);
            continue;
        }
        Child c;
        copy_child(&c, "cudaMemcpyAsync", dst, n, src, n, n, 1);
        submit(x, i, lane, &c, s);
        if (x->fault) {
            return;
        }
    }
}

/* cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind,
 * stream) */
void cdp_op_memcpy_2d(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        uint64_t a[8];
        for (uint32_t k = 0; k < 8; k++) {
            a[k] = emu_builtin_arg(x, i, lane, k);
        }
        bool some = a[4] && a[5];
        uint32_t err = !kind_ok(a[6]) ? CDP_ERR_INVALID_MEMCPY_DIRECTION
                       : a[4] > a[1] || a[4] > a[3] ? CDP_ERR_INVALID_PITCH
                       : some && (!a[0] || !a[2]) ? CDP_ERR_INVALID_VALUE
                       : CDP_OK;
        if (err) {
            cdp_result(x, i, lane, err);
            continue;
        }
        Child c;
        copy_child(&c, "cudaMemcpy2DAsync", a[0], a[1], a[2], a[3], a[4],
                   a[5]);
        submit(x, i, lane, &c, a[7]);
        if (x->fault) {
            return;
        }
    }
}

/* Read n bytes (a multiple of 8, 8-aligned) of a struct the caller
 * passes by pointer; false after a located fault. */
static bool read_struct(EmuCtx *x, unsigned lane, uint64_t p, void *out,
                        uint32_t n)
{
    for (uint32_t k = 0; k < n; k += 8) {
        const uint8_t *h = emu_access(x, lane, PTX_SPACE_GENERIC, p + k, 8,
                                      EMU_ACC_READ);
        if (!h) {
            return false;
        }
        memcpy((uint8_t *)out + k, h, 8);
    }
    return true;
}

/* struct cudaMemcpy3DParms (driver_types.h): 20 words: srcArray,
 * srcPos {x, y, z}, srcPtr {ptr, pitch, xsize, ysize}, dstArray,
 * dstPos, dstPtr, extent {width, height, depth}, kind (int). */
enum {
    P3_SRC_ARRAY = 0, P3_SRC_POS = 1, P3_SRC_PTR = 4, P3_DST_ARRAY = 8,
    P3_DST_POS = 9, P3_DST_PTR = 12, P3_EXTENT = 16, P3_KIND = 19,
    P3_WORDS = 20
};

/* A side of a 3D copy: pitched pointer w[ptr..] at position w[pos..];
 * false when its slices would overlap. */
static bool side_3d(const uint64_t *w, int pos, int ptr, uint64_t h,
                    uint64_t d, CdpBox *b)
{
    uint64_t pitch = w[ptr + 1], ysize = w[ptr + 3];
    if (d > 1 && ysize < h) {
        return false;
    }
    b->pitch = pitch;
    b->slice = pitch * ysize;
    b->addr = w[ptr] + w[pos] + w[pos + 1] * pitch +
              w[pos + 2] * b->slice;
    return true;
}

/* cudaMemcpy3DAsync(&parms, stream) */
void cdp_op_memcpy_3d(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        uint64_t p = emu_builtin_arg(x, i, lane, 0);
        uint64_t s = emu_builtin_arg(x, i, lane, 1);
        uint64_t w[P3_WORDS];
        if (!p) {
            cdp_result(x, i, lane, CDP_ERR_INVALID_VALUE);
            continue;
        }
        if (!read_struct(x, lane, p, w, sizeof(w))) {
            return;
        }
        Child c;
        memset(&c, 0, sizeof(c));
        c.kind = CHILD_COPY;
        c.what = "cudaMemcpy3DAsync";
        c.width = w[P3_EXTENT];
        c.height = w[P3_EXTENT + 1];
        c.depth = w[P3_EXTENT + 2];
        bool some = c.width && c.height && c.depth;
        uint32_t err = CDP_OK;
        if (!kind_ok((uint32_t)w[P3_KIND])) {
            err = CDP_ERR_INVALID_MEMCPY_DIRECTION;
        } else if (w[P3_SRC_ARRAY] || w[P3_DST_ARRAY]) {
            err = CDP_ERR_INVALID_VALUE;    /* no CUDA arrays here */
        } else if (some && (!w[P3_SRC_PTR] || !w[P3_DST_PTR] ||
                            (c.height > 1 &&
                             (c.width > w[P3_SRC_PTR + 1] ||
                              c.width > w[P3_DST_PTR + 1])) ||
                            !side_3d(w, P3_SRC_POS, P3_SRC_PTR, c.height,
                                     c.depth, &c.src) ||
                            !side_3d(w, P3_DST_POS, P3_DST_PTR, c.height,
                                     c.depth, &c.dst))) {
            err = CDP_ERR_INVALID_VALUE;
        }
        if (err) {
            cdp_result(x, i, lane, err);
            continue;
        }
        submit(x, i, lane, &c, s);
        if (x->fault) {
            return;
        }
    }
}

static void set_child(Child *c, const char *what, uint64_t dst,
                      uint64_t pitch, uint64_t slice, uint64_t value,
                      uint64_t w, uint64_t h, uint64_t d)
{
    memset(c, 0, sizeof(*c));
    c->kind = CHILD_SET;
    c->what = what;
    c->dst = (CdpBox){dst, pitch, slice};
    c->value = (uint8_t)value;
    c->width = w;
    c->height = h;
    c->depth = d;
}

/* cudaMemsetAsync(p, value, count, stream) */
void cdp_op_memset(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        uint64_t p = emu_builtin_arg(x, i, lane, 0);
        uint64_t v = emu_builtin_arg(x, i, lane, 1);
        uint64_t n = emu_builtin_arg(x, i, lane, 2);
        uint64_t s = emu_builtin_arg(x, i, lane, 3);
        if (n && !p) {
            cdp_result(x, i, lane, CDP_ERR_INVALID_VALUE);
            continue;
        }
        Child c;
        set_child(&c, "cudaMemsetAsync", p, n, 0, v, n, 1, 1);
        submit(x, i, lane, &c, s);
        if (x->fault) {
            return;
        }
    }
}

/* cudaMemset2DAsync(p, pitch, value, width, height, stream) */
void cdp_op_memset_2d(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        uint64_t a[6];
        for (uint32_t k = 0; k < 6; k++) {
            a[k] = emu_builtin_arg(x, i, lane, k);
        }
        uint32_t err = a[3] > a[1] ? CDP_ERR_INVALID_PITCH
                       : a[3] && a[4] && !a[0] ? CDP_ERR_INVALID_VALUE
                       : CDP_OK;
        if (err) {
            cdp_result(x, i, lane, err);
            continue;
        }
        Child c;
        set_child(&c, "cudaMemset2DAsync", a[0], a[1], 0, a[2], a[3], a[4],
                  1);
        submit(x, i, lane, &c, a[5]);
        if (x->fault) {
            return;
        }
    }
}

/* cudaMemset3DAsync(cudaPitchedPtr {ptr, pitch, xsize, ysize}, value,
 * cudaExtent {width, height, depth}, stream): both structs by value */
void cdp_op_memset_3d(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    EMU_FOR_LANES(mask, lane) {
        uint64_t pp[4], ext[3];
        emu_builtin_arg_bytes(x, i, lane, 0, pp, sizeof(pp));
        uint64_t v = emu_builtin_arg(x, i, lane, 1);
        emu_builtin_arg_bytes(x, i, lane, 2, ext, sizeof(ext));
        uint64_t s = emu_builtin_arg(x, i, lane, 3);
        bool some = ext[0] && ext[1] && ext[2];
        uint32_t err = CDP_OK;
        if (some && (ext[1] > 1 || ext[2] > 1) && ext[0] > pp[1]) {
            err = CDP_ERR_INVALID_PITCH;
        } else if (some && (!pp[0] || (ext[2] > 1 && pp[3] < ext[1]))) {
            err = CDP_ERR_INVALID_VALUE;
        }
        if (err) {
            cdp_result(x, i, lane, err);
            continue;
        }
        Child c;
        set_child(&c, "cudaMemset3DAsync", pp[0], pp[1], pp[1] * pp[3], v,
                  ext[0], ext[1], ext[2]);
        submit(x, i, lane, &c, s);
        if (x->fault) {
            return;
        }
    }
}

/* ------------------------------------------------------- running */

/* A queued operation whose memory went away before it ran: a fault of
 * launch l located at the call that queued it. */
static EmuStatus run_fault(EmuLaunch *l, const Child *c, const char *side,
                           const CdpBox *b, uint64_t span, const char *why)
{
    EmuFault *f = &l->fault;
    memset(f, 0, sizeof(*f));
    f->status = EMU_ERR_ILLEGAL_ADDRESS;
    f->kernel = l->kernel->ir->name;
    memcpy(f->ctaid, c->by_ctaid, sizeof(f->ctaid));
    memcpy(f->tid, c->by_tid, sizeof(f->tid));
    f->pc = c->by_pc;
    const IrFunc *fn = c->by_func->ir;
    f->func = fn->name;
    f->file = ir_func_file(l->mod->ir, fn);
    f->addr = b->addr;
    f->size = span > UINT32_MAX ? UINT32_MAX : (uint32_t)span;
    f->space = PTX_SPACE_GLOBAL;
    /* said at the reason, before the nearest allocation */
    bool ro = strstr(why, "read-only") != NULL;
    box_detail(f->detail, sizeof(f->detail), l->dev->mem, c->what, side,
               b->addr, span,
               ro ? "is read-only memory when it ran after the grid's "
                    "threads"
                  : "is not inside one device allocation when it ran "
                    "after the grid's threads");
    const IrInsn *in = NULL;
    if (c->by_pc < fn->ninsns) {
        in = &fn->insns[c->by_pc];
        f->loc = in->loc;
    }
    emu_fault_print_insn(l, fn, in);
    l->faulted = true;
    l->dev->last_fault = *f;
    l->dev->has_fault = true;
    return EMU_ERR_ILLEGAL_ADDRESS;
}

EmuStatus cdp_run_mem(EmuLaunch *l, const Child *c)
{
    EmuMemory *m = l->dev->mem;
    const char *why;
    uint64_t dspan = box_span(&c->dst, c->width, c->height, c->depth);
    const EmuAlloc *da = box_alloc(m, &c->dst, dspan, true, &why);
    if (!da) {
        return run_fault(l, c, "destination", &c->dst, dspan, why);
    }
    const EmuAlloc *sa = NULL;
    if (c->kind == CHILD_COPY) {
        uint64_t sspan = box_span(&c->src, c->width, c->height, c->depth);
        sa = box_alloc(m, &c->src, sspan, false, &why);
        if (!sa) {
            return run_fault(l, c, "source", &c->src, sspan, why);
        }
    }
    for (uint64_t z = 0; z < c->depth; z++) {
        for (uint64_t y = 0; y < c->height; y++) {
            uint8_t *d = da->host + (c->dst.addr - da->addr) +
                         z * c->dst.slice + y * c->dst.pitch;
            if (sa) {
                const uint8_t *s = sa->host + (c->src.addr - sa->addr) +
                                   z * c->src.slice + y * c->src.pitch;
                memmove(d, s, c->width);
            } else {
                memset(d, c->value, c->width);
            }
        }
    }
    return EMU_OK;
}
