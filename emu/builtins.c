/*
 * emu/builtins.c: device printf, malloc/free and __assertfail.
 * See emu/builtins.h for the contract.
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/access.h"
#include "emu/builtins.h"
#include "emu/decode.h"
#include "emu/devrt.h"
#include "emu/memory.h"

/* ------------------------------------------------- call arguments */

static const IrFunc *callee_ir(const EmuCtx *x, const EmuInsn *i, int ti)
{
    const EmuModule *m = x->launch->mod;
    if (ti < 0 || i->o[ti].kind != EO_FUNC || i->o[ti].imm >= m->ir->nfuncs) {
        return NULL;
    }
    return m->ir->funcs[i->o[ti].imm];
}

/* This lane's bytes of the current frame at frame offset off, or NULL. */
static uint8_t *frame_bytes(EmuCtx *x, unsigned lane, uint64_t off,
                            uint64_t n)
{
    EmuCta *cta = x->cta;
    uint64_t a = x->frame->local_base + off;
    if (a > cta->local_stride || n > cta->local_stride - a) {
        return NULL;
    }
    uint8_t *base = emu_local_bytes(cta);
    if (!base) {
        return NULL;
    }
    return base + ((size_t)x->warp->id * EMU_WARP_SIZE + lane) *
           cta->local_stride + a;
}

typedef struct Call {
    int ri, ti, ai;
    const IrFunc *callee;
} Call;

static void call_init(EmuCtx *x, const EmuInsn *i, Call *c)
{
    emu_call_layout(i, &c->ri, &c->ti, &c->ai);
    c->callee = callee_ir(x, i, c->ti);
}

/* Argument j of the call for one lane, zero-extended from its size. */
static uint64_t call_arg(EmuCtx *x, const EmuInsn *i, const Call *c,
                         unsigned lane, uint32_t j)
{
    if (c->ai < 0 || j >= i->o[c->ai].n) {
        return 0;
    }
    uint64_t sz = 8;
    if (c->callee && j < c->callee->nparams) {
        sz = emu_sym_size(c->callee->params[j]);
    }
    if (sz > 8) {
        sz = 8;
    }
    uint32_t v = x->func->vslots[i->o[c->ai].reg + j];
    if (v & EMU_LIST_REG) {
        uint64_t r = x->regs[(size_t)(v & ~EMU_LIST_REG) * EMU_WARP_SIZE +
                             lane];
        return sz >= 8 ? r : r & ((1ull << (8 * sz)) - 1);
    }
    const uint8_t *p = frame_bytes(x, lane, v, sz);
    uint64_t r = 0;
    for (uint64_t k = 0; p && k < sz; k++) {
        r |= (uint64_t)p[k] << (8 * k);
    }
    return r;
}

/* Store the call's result for one lane. */
static void call_ret(EmuCtx *x, const EmuInsn *i, const Call *c,
                     unsigned lane, uint64_t val)
{
    if (c->ri < 0 || i->o[c->ri].n == 0) {
        return;
    }
    uint64_t sz = 8;
    if (c->callee && c->callee->nrets) {
        sz = emu_sym_size(c->callee->rets[0]);
    }
    if (sz > 8) {
        sz = 8;
    }
    if (sz < 8) {
        val &= (1ull << (8 * sz)) - 1;
    }
    uint32_t v = x->func->vslots[i->o[c->ri].reg];
    if (v & EMU_LIST_REG) {
        x->regs[(size_t)(v & ~EMU_LIST_REG) * EMU_WARP_SIZE + lane] = val;
        return;
    }
    uint8_t *p = frame_bytes(x, lane, v, sz);
    for (uint64_t k = 0; p && k < sz; k++) {
        p[k] = (uint8_t)(val >> (8 * k));
    }
}

/* The exported forms, for the device runtime's table (devrt.c). */
uint64_t emu_builtin_arg(EmuCtx *x, const EmuInsn *i, unsigned lane,
                         uint32_t j)
{
    Call c;
    call_init(x, i, &c);
    return call_arg(x, i, &c, lane, j);
}

bool emu_builtin_arg_bytes(EmuCtx *x, const EmuInsn *i, unsigned lane,
                           uint32_t j, void *out, uint64_t n)
{
    Call c;
    call_init(x, i, &c);
    memset(out, 0, n);
    if (c.ai < 0 || j >= i->o[c.ai].n) {
        return false;
    }
    uint32_t v = x->func->vslots[i->o[c.ai].reg + j];
    if (v & EMU_LIST_REG) {
        uint64_t r = x->regs[(size_t)(v & ~EMU_LIST_REG) * EMU_WARP_SIZE +
                             lane];
        memcpy(out, &r, n < 8 ? n : 8);
        return true;
    }
    const uint8_t *p = frame_bytes(x, lane, v, n);
    if (!p) {
        return false;
    }
    memcpy(out, p, n);
    return true;
}

void emu_builtin_ret(EmuCtx *x, const EmuInsn *i, unsigned lane,
                     uint64_t val)
{
    Call c;
    call_init(x, i, &c);
    call_ret(x, i, &c, lane, val);
}

/* ------------------------------------------------- guest reads */

/* Prefix the detail of the fault just recorded with `what`. */
static void annotate(EmuCtx *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void annotate(EmuCtx *x, const char *fmt, ...)
{
    if (!x->fault) {
        return;
    }
    char pre[160], tmp[sizeof(x->fault->detail)];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pre, sizeof(pre), fmt, ap);
    va_end(ap);
    size_t n = strlen(pre);
    if (n > sizeof(tmp) - 3) {
        n = sizeof(tmp) - 3;
    }
    memcpy(tmp, pre, n);
    memcpy(tmp + n, ": ", 2);
    n += 2;
    size_t m = strnlen(x->fault->detail, sizeof(x->fault->detail));
    if (m > sizeof(tmp) - 1 - n) {
        m = sizeof(tmp) - 1 - n;
    }
    memcpy(tmp + n, x->fault->detail, m);
    tmp[n + m] = 0;
    memcpy(x->fault->detail, tmp, sizeof(tmp));
    if (!x->launch->worker) {
        x->dev->last_fault = *x->fault;
    }
}

/* n (1, 4 or 8) bytes at a generic address; false after a fault. */
static bool gread(EmuCtx *x, unsigned lane, uint64_t addr, uint32_t n,
                  uint64_t *out)
{
    const uint8_t *p = emu_access(x, lane, PTX_SPACE_GENERIC, addr, n,
                                  EMU_ACC_READ);
    if (!p) {
        return false;
    }
    uint64_t r = 0;
    for (uint32_t k = 0; k < n; k++) {
        r |= (uint64_t)p[k] << (8 * k);
    }
    *out = r;
    return true;
}

typedef struct Buf {
    char *p;
    size_t n, cap;
    bool oom;
} Buf;

static bool buf_reserve(Buf *b, size_t more)
{
    if (b->oom) {
        return false;
    }
    if (b->n + more + 1 > b->cap) {
        size_t nc = b->cap ? b->cap : 128;
        while (nc < b->n + more + 1) {
            nc *= 2;
        }
        char *p = realloc(b->p, nc);
        if (!p) {
            b->oom = true;
            return false;
        }
        b->p = p;
        b->cap = nc;
    }
    return true;
}

static void buf_put(Buf *b, const char *s, size_t n)
{
    if (buf_reserve(b, n)) {
        memcpy(b->p + b->n, s, n);
        b->n += n;
        b->p[b->n] = 0;
    }
}

/* Append the host's formatting of one conversion (spec is built here
 * from validated parts, never taken from the guest as is). */
static void buf_fmt(Buf *b, const char *spec, ...)
{
    va_list ap, aq;
    va_start(ap, spec);
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, spec, ap);
    va_end(ap);
    if (n > 0 && buf_reserve(b, (size_t)n)) {
        vsnprintf(b->p + b->n, (size_t)n + 1, spec, aq);
        b->n += (size_t)n;
    }
    va_end(aq);
}

/* A NUL-terminated guest string of at most max bytes (not counting the
 * NUL) into b; when the string is longer and `must_end`, a fault.  */
static bool gstring(EmuCtx *x, unsigned lane, uint64_t addr, size_t max,
                    bool must_end, Buf *b)
{
    for (size_t k = 0;; k++) {
        if (k == max) {
            if (must_end) {
                emu_fault(x, EMU_ERR_ILLEGAL_ADDRESS, lane, addr, 0,
                          PTX_SPACE_GENERIC, "string at 0x%llx is not "
                          "terminated within %zu bytes",
                          (unsigned long long)addr, max);
                return false;
            }
            return true;
        }
        uint64_t c;
        if (!gread(x, lane, addr + k, 1, &c)) {
            return false;
        }
        if (c == 0) {
            return true;
        }
        char ch = (char)c;
        buf_put(b, &ch, 1);
    }
}

/* ------------------------------------------------------ vprintf */

static size_t printf_limit(const EmuDevice *d)
{
    return d->cfg.printf_buffer_bytes ? (size_t)d->cfg.printf_buffer_bytes
                                      : EMU_PRINTF_BUFFER_DEFAULT;
}

/* Widths and precisions above this are cut to it (clamp_field): a
 * field must fit in the launch's printf buffer (1 MiB by default). */
#define EMU_PRINTF_MAX_FIELD (1 << 16)

typedef struct Fmt {
    EmuCtx *x;
    unsigned lane;
    uint64_t args;          /* argument buffer */
    uint64_t off;           /* next offset in it */
    uint32_t nargs;         /* arguments read */
} Fmt;

static bool next_arg(Fmt *f, uint32_t size, uint64_t *v)
{
    f->off = (f->off + size - 1) / size * size;
    if (!gread(f->x, f->lane, f->args + f->off, size, v)) {
        annotate(f->x, "vprintf: reading argument %u (offset %llu of the "
                 "argument buffer at 0x%llx)", f->nargs + 1,
                 (unsigned long long)f->off, (unsigned long long)f->args);
        return false;
    }
    f->off += size;
    f->nargs++;
    return true;
}

static int bad_format(EmuCtx *x, unsigned lane, const char *fmt,
                      size_t at, const char *why)
{
    char shown[64];
    size_t n = strlen(fmt);
    snprintf(shown, sizeof(shown), "%.48s%s", fmt, n > 48 ? "..." : "");
    for (char *p = shown; *p; p++) {
        if (*p == '\n' || *p == '\t' || (unsigned char)*p < 0x20) {
            *p = ' ';
        }
    }
    emu_fault(x, EMU_ERR_INVALID_VALUE, lane, 0, 0, PTX_SPACE_NONE,
              "vprintf: bad format \"%s\": %s at offset %zu", shown, why, at);
    return -2;
}

/* A width or precision: digits or '*' (an int argument). *v = -1 when
 * absent. */
static bool field(Fmt *f, const char *fmt, size_t *k, int64_t *v,
                  uint32_t *star_args)
{
    *v = -1;
    if (fmt[*k] == '*') {
        uint64_t a;
        (*k)++;
        if (!next_arg(f, 4, &a)) {
            return false;
        }
        (*star_args)++;
        *v = (int32_t)(uint32_t)a;
        return true;
    }
    if (fmt[*k] >= '0' && fmt[*k] <= '9') {
        int64_t n = 0;
        while (fmt[*k] >= '0' && fmt[*k] <= '9') {
            n = n * 10 + (fmt[*k] - '0');
            if (n > EMU_PRINTF_MAX_FIELD) {
                n = EMU_PRINTF_MAX_FIELD + 1;   /* clamp_field cuts it */
            }
            (*k)++;
        }
        *v = n;
    }
    return true;
}

/* A width or precision above EMU_PRINTF_MAX_FIELD.  CUDA formats device
 * printf on the host, padding to any width; holding gigabytes of
 * padding is not worth emulating, so the field is cut to the limit and
 * the cut said on stderr (once per process: every thread of a kernel
 * would repeat it). */
static void clamp_field(const char *fmt, int64_t *v, const char *what)
{
    static atomic_flag said = ATOMIC_FLAG_INIT;
    if (*v <= EMU_PRINTF_MAX_FIELD) {
        return;
    }
    if (!atomic_flag_test_and_set(&said)) {
        fprintf(stderr, "ptxemu: warning: device printf \"%.48s%s\": a "
                "%s above %d is cut to %d (further cuts are not "
                "reported)\n", fmt, strlen(fmt) > 48 ? "..." : "", what,
                EMU_PRINTF_MAX_FIELD, EMU_PRINTF_MAX_FIELD);
    }
    *v = EMU_PRINTF_MAX_FIELD;
}

/* Format the whole record into out; returns the argument count, or -2
 * after a fault. */
static int do_printf(EmuCtx *x, unsigned lane, const char *fmt,
                     uint64_t args, Buf *out)
{
    Fmt f = { x, lane, args, 0, 0 };
    uint32_t star_args = 0;
    size_t k = 0;
    while (fmt[k]) {
        size_t lit = strcspn(fmt + k, "%");
        buf_put(out, fmt + k, lit);
        k += lit;
        if (!fmt[k]) {
            break;
        }
        size_t start = k++;
        if (fmt[k] == '%') {
            buf_put(out, "%", 1);
            k++;
            continue;
        }
        char flags[8];
        size_t nf = 0;
        while (fmt[k] && strchr("-+ #0", fmt[k])) {
            if (nf < sizeof(flags) - 1 && !memchr(flags, fmt[k], nf)) {
                flags[nf++] = fmt[k];
            }
            k++;
        }
        flags[nf] = 0;
        int64_t width, prec = -1;
        bool wstar = fmt[k] == '*';
        if (!field(&f, fmt, &k, &width, &star_args)) {
            return -2;
        }
        if (wstar && width < 0) {
            /* a negative * width is the '-' flag and its magnitude */
            width = -width;
            if (!memchr(flags, '-', nf) && nf < sizeof(flags) - 1) {
                flags[nf++] = '-';
                flags[nf] = 0;
            }
        }
        clamp_field(fmt, &width, "field width");
        if (fmt[k] == '.') {
            k++;
            if (!field(&f, fmt, &k, &prec, &star_args)) {
                return -2;
            }
            if (prec < 0 && fmt[k - 1] != '*') {
                prec = 0;           /* "%.d": precision 0 */
            }
            clamp_field(fmt, &prec, "precision");
        }
        /* length modifier: 0 none, 'H' hh, 'h', 'l' (l ll z t j), 'L' */
        char len = 0;
        if (fmt[k] == 'h') {
            len = fmt[k + 1] == 'h' ? 'H' : 'h';
            k += len == 'H' ? 2 : 1;
        } else if (fmt[k] == 'l') {
            len = 'l';
            k += fmt[k + 1] == 'l' ? 2 : 1;
        } else if (fmt[k] == 'z' || fmt[k] == 't' || fmt[k] == 'j' ||
                   fmt[k] == 'q') {
            len = 'l';
            k++;
        } else if (fmt[k] == 'L') {
            len = 'L';
            k++;
        }
        char conv = fmt[k];
        if (!conv) {
            return bad_format(x, lane, fmt, start,
                              "incomplete conversion specification");
        }
        k++;
        char spec[64];
        char wbuf[24] = "", pbuf[24] = "";
        if (width >= 0) {
            snprintf(wbuf, sizeof(wbuf), "%lld", (long long)width);
        }
        if (prec >= 0) {
            snprintf(pbuf, sizeof(pbuf), ".%lld", (long long)prec);
        }
        uint64_t v;
        switch (conv) {
        case 'd':
        case 'i': {
            if (len == 'L') {
                return bad_format(x, lane, fmt, start, "length modifier L "
                                  "with an integer conversion");
            }
            if (!next_arg(&f, len == 'l' ? 8 : 4, &v)) {
                return -2;
            }
            long long sv = len == 'l' ? (long long)(int64_t)v
                : len == 'h' ? (long long)(int16_t)v
                : len == 'H' ? (long long)(int8_t)v
                : (long long)(int32_t)(uint32_t)v;
            snprintf(spec, sizeof(spec), "%%%s%s%slld", flags, wbuf, pbuf);
            buf_fmt(out, spec, sv);
            break;
        }
        case 'u':
        case 'x':
        case 'X':
        case 'o': {
            if (len == 'L') {
                return bad_format(x, lane, fmt, start, "length modifier L "
                                  "with an integer conversion");
            }
            if (!next_arg(&f, len == 'l' ? 8 : 4, &v)) {
                return -2;
            }
            unsigned long long uv = len == 'l' ? v
                : len == 'h' ? (uint16_t)v
                : len == 'H' ? (uint8_t)v
                : (uint32_t)v;
            snprintf(spec, sizeof(spec), "%%%s%s%sll%c", flags, wbuf, pbuf,
                     conv);
            buf_fmt(out, spec, uv);
            break;
        }
        case 'c': {
            if (!next_arg(&f, 4, &v)) {
                return -2;
            }
            snprintf(spec, sizeof(spec), "%%%s%sc", flags, wbuf);
            buf_fmt(out, spec, (int)(unsigned char)v);
            break;
        }
        case 's': {
            if (!next_arg(&f, 8, &v)) {
                return -2;
            }
            Buf s = { 0 };
            if (v == 0) {
                buf_put(&s, "(null)", 6);
            } else if (!gstring(x, lane, v, prec >= 0 ? (size_t)prec
                                : printf_limit(x->dev), prec < 0, &s)) {
                annotate(x, "vprintf: reading the string of argument %u",
                         f.nargs);
                free(s.p);
                return -2;
            }
            buf_put(&s, "", 0);
            snprintf(spec, sizeof(spec), "%%%s%s%ss", flags, wbuf, pbuf);
            buf_fmt(out, spec, s.p ? s.p : "");
            free(s.p);
            break;
        }
        case 'p': {
            if (!next_arg(&f, 8, &v)) {
                return -2;
            }
            snprintf(spec, sizeof(spec), "%%%s%sp", flags, wbuf);
            buf_fmt(out, spec, (void *)(uintptr_t)v);
            break;
        }
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G':
        case 'a':
        case 'A': {
            if (len == 'h' || len == 'H') {
                return bad_format(x, lane, fmt, start, "length modifier h "
                                  "with a floating conversion");
            }
            if (!next_arg(&f, 8, &v)) {
                return -2;
            }
            double dv;
            memcpy(&dv, &v, sizeof(dv));
            snprintf(spec, sizeof(spec), "%%%s%s%s%c", flags, wbuf, pbuf,
                     conv);
            buf_fmt(out, spec, dv);
            break;
        }
        case 'n':
            return bad_format(x, lane, fmt, start,
                              "%n is not supported in device code");
        default: {
            char why[48];
            if ((unsigned char)conv >= 0x20 && (unsigned char)conv < 0x7f) {
                snprintf(why, sizeof(why), "unknown conversion '%c'", conv);
            } else {
                snprintf(why, sizeof(why), "unknown conversion byte 0x%02x",
                         (unsigned)(unsigned char)conv);
            }
            return bad_format(x, lane, fmt, start, why);
        }
        }
    }
    if (out->oom) {
        emu_fault(x, EMU_ERR_OUT_OF_MEMORY, lane, 0, 0, PTX_SPACE_NONE,
                  "vprintf: out of host memory");
        return -2;
    }
    return (int)(f.nargs - star_args);
}

static void launch_append(EmuLaunch *l, const char *s, size_t n)
{
    size_t limit = printf_limit(l->dev);
    uint32_t frame = (uint32_t)n;
    if (l->worker) {
        /* a worker's copy keeps each record with its length, for
         * emu_printf_merge; a CTA's own records beyond the buffer are
         * dropped here already */
        if (n > limit || l->printf_len + n + sizeof(frame) > 2 * limit) {
            l->printf_dropped++;
            return;
        }
    } else if (l->printf_len + n > limit) {
        l->printf_dropped++;
        return;
    }
    size_t need = l->printf_len + n + (l->worker ? sizeof(frame) : 0);
    if (need > l->printf_cap) {
        size_t nc = l->printf_cap ? l->printf_cap : 1024;
        while (nc < need) {
            nc *= 2;
        }
        char *p = realloc(l->printf_buf, nc);
        if (!p) {
            l->printf_dropped++;
            return;
        }
        l->printf_buf = p;
        l->printf_cap = nc;
    }
    if (l->worker) {
        memcpy(l->printf_buf + l->printf_len, &frame, sizeof(frame));
        l->printf_len += sizeof(frame);
    }
    memcpy(l->printf_buf + l->printf_len, s, n);
    l->printf_len += n;
    l->progress++;
}

void emu_printf_merge(EmuLaunch *l, const char *rec, size_t len,
                      uint64_t dropped)
{
    size_t o = 0;
    uint32_t n;
    while (o + sizeof(n) <= len) {
        memcpy(&n, rec + o, sizeof(n));
        o += sizeof(n);
        if (n > len - o) {
            break;
        }
        launch_append(l, rec + o, n);
        o += n;
    }
    l->printf_dropped += dropped;
}

static void op_vprintf(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    Call c;
    call_init(x, i, &c);
    Buf fmt = { 0 }, out = { 0 };
    EMU_FOR_LANES(mask, lane) {
        uint64_t fa = call_arg(x, i, &c, lane, 0);
        uint64_t aa = call_arg(x, i, &c, lane, 1);
        int r = -1;
        if (fa != 0) {
            fmt.n = 0;
            out.n = 0;
            if (!gstring(x, lane, fa, printf_limit(x->dev), true, &fmt)) {
                annotate(x, "vprintf: reading the format string");
                break;
            }
            buf_put(&fmt, "", 0);
            if (fmt.oom) {
                emu_fault(x, EMU_ERR_OUT_OF_MEMORY, lane, 0, 0,
                          PTX_SPACE_NONE, "vprintf: out of host memory");
                break;
            }
            r = do_printf(x, lane, fmt.p, aa, &out);
            if (r < 0) {
                break;
            }
            launch_append(x->launch, out.p ? out.p : "", out.n);
            x->cta->progress++; /* (launch_append counts the launch's) */
        }
        call_ret(x, i, &c, lane, (uint64_t)(int64_t)r);
    }
    free(fmt.p);
    free(out.p);
}

void emu_printf_launch_end(EmuLaunch *l)
{
    EmuDevice *d = l->dev;
    Buf note = { 0 };
    if (l->printf_dropped) {
        char s[192];
        int n = snprintf(s, sizeof(s), "[ptxemu: device printf buffer of "
                         "%zu bytes full: %llu printf call(s) of kernel "
                         "'%s' dropped]\n", printf_limit(d),
                         (unsigned long long)l->printf_dropped,
                         l->kernel->ir->name);
        buf_put(&note, s, n > 0 ? (size_t)n : 0);
    }
    size_t add = l->printf_len + note.n;
    if (add) {
        if (d->printf_pending_len + add > 4 * printf_limit(d)) {
            emu_device_flush_output(d);
        }
        if (d->printf_pending_len + add > d->printf_pending_cap) {
            size_t nc = d->printf_pending_cap ? d->printf_pending_cap : 4096;
            while (nc < d->printf_pending_len + add) {
                nc *= 2;
            }
            char *p = realloc(d->printf_pending, nc);
            if (!p) {
                /* cannot keep it: write it out now */
                emu_device_flush_output(d);
                FILE *fp = d->cfg.printf_out ? d->cfg.printf_out : stdout;
                if (l->printf_len) {
                    fwrite(l->printf_buf, 1, l->printf_len, fp);
                }
                if (note.n) {
                    fwrite(note.p, 1, note.n, fp);
                }
                goto done;
            }
            d->printf_pending = p;
            d->printf_pending_cap = nc;
        }
        if (l->printf_len) {
            memcpy(d->printf_pending + d->printf_pending_len, l->printf_buf,
                   l->printf_len);
            d->printf_pending_len += l->printf_len;
        }
        if (note.n) {
            memcpy(d->printf_pending + d->printf_pending_len, note.p, note.n);
            d->printf_pending_len += note.n;
        }
    }
done:
    free(note.p);
    free(l->printf_buf);
    l->printf_buf = NULL;
    l->printf_len = l->printf_cap = 0;
    l->printf_dropped = 0;
}

void emu_device_flush_output(EmuDevice *d)
{
    if (!d) {
        return;
    }
    FILE *fp = d->cfg.printf_out ? d->cfg.printf_out : stdout;
    if (d->printf_pending_len) {
        fwrite(d->printf_pending, 1, d->printf_pending_len, fp);
        d->printf_pending_len = 0;
    }
    fflush(fp);
}

void emu_builtins_device_free(EmuDevice *d)
{
    free(d->printf_pending);
    d->printf_pending = NULL;
    d->printf_pending_len = d->printf_pending_cap = 0;
}

/* ------------------------------------------------- malloc / free */

/* emu_builtin_heap_caller(): per host thread (CTAs run on several) */
static _Thread_local const EmuCtx *heap_caller;
static _Thread_local uint32_t heap_lane;

const EmuCtx *emu_builtin_heap_caller(uint32_t *lane)
{
    *lane = heap_lane;
    return heap_caller;
}

/* emu_mem_release of heap block p for lane of x, seen by the clients
 * as that lane's free */
static void heap_release(EmuCtx *x, uint32_t lane, uint64_t p)
{
    heap_caller = x;
    heap_lane = lane;
    emu_mem_release(x->dev->mem, p);
    heap_caller = NULL;
}

static uint64_t heap_alloc(EmuCtx *x, uint32_t lane, uint64_t size,
                           uint64_t align)
{
    EmuDevice *d = x->dev;
    if (size == 0 || align == 0 || (align & (align - 1)) || align > 256) {
        return 0;
    }
    uint64_t rs = (size + 15) & ~(uint64_t)15;
    if (rs < size || rs > d->cfg.heap_bytes ||
        d->heap_used + rs > d->cfg.heap_bytes) {
        return 0;
    }
    heap_caller = x;
    heap_lane = lane;
    uint64_t a = emu_mem_alloc(d->mem, size, EMU_ALLOC_HEAP, NULL);
    heap_caller = NULL;
    if (a) {
        d->heap_used += rs;
        emu_progress(x->cta);
    }
    return a;
}

static void op_malloc(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    Call c;
    call_init(x, i, &c);
    EMU_FOR_LANES(mask, lane) {
        uint64_t size = call_arg(x, i, &c, lane, 0);
        call_ret(x, i, &c, lane, heap_alloc(x, lane, size, 16));
    }
}

/* __nv_aligned_device_malloc(size, align) */
static void op_aligned_malloc(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    Call c;
    call_init(x, i, &c);
    EMU_FOR_LANES(mask, lane) {
        uint64_t size = call_arg(x, i, &c, lane, 0);
        uint64_t align = call_arg(x, i, &c, lane, 1);
        call_ret(x, i, &c, lane, heap_alloc(x, lane, size, align));
    }
}

uint64_t emu_builtin_heap_alloc(EmuCtx *x, uint32_t lane, uint64_t size)
{
    return heap_alloc(x, lane, size, 16);
}

bool emu_builtin_heap_free(EmuCtx *x, uint32_t lane, uint64_t p)
{
    EmuDevice *d = x->dev;
    const EmuAlloc *e = emu_mem_find(d->mem, p, 0);
    if (!e || e->addr != p || e->kind != EMU_ALLOC_HEAP) {
        return false;
    }
    uint64_t rs = (e->size + 15) & ~(uint64_t)15;
    d->heap_used = d->heap_used >= rs ? d->heap_used - rs : 0;
    heap_release(x, lane, p);
    emu_progress(x->cta);
    return true;
}

static void op_free(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    Call c;
    call_init(x, i, &c);
    EmuDevice *d = x->dev;
    EMU_FOR_LANES(mask, lane) {
        uint64_t p = call_arg(x, i, &c, lane, 0);
        if (p == 0) {
            continue;
        }
        const EmuAlloc *e = emu_mem_find(d->mem, p, 0);
        if (!e || e->addr != p || e->kind != EMU_ALLOC_HEAP) {
            const EmuAlloc *n = emu_mem_nearest(d->mem, p);
            char near[128] = "no allocations";
            if (n) {
                snprintf(near, sizeof(near), "nearest allocation at 0x%llx "
                         "(%llu bytes)%s", (unsigned long long)n->addr,
                         (unsigned long long)n->size,
                         n->kind == EMU_ALLOC_HEAP ? ", a heap block" : "");
            }
            emu_fault(x, EMU_ERR_ILLEGAL_ADDRESS, lane, p, 0,
                      PTX_SPACE_GLOBAL, "free(0x%llx): not the start of a "
                      "live device-heap block (double free, or a pointer "
                      "not returned by malloc); %s",
                      (unsigned long long)p, near);
            return;
        }
        uint64_t rs = (e->size + 15) & ~(uint64_t)15;
        d->heap_used = d->heap_used >= rs ? d->heap_used - rs : 0;
        heap_release(x, lane, p);
        emu_progress(x->cta);
    }
}

/* ------------------------------------------------- __assertfail */

static void op_assertfail(EmuCtx *x, const EmuInsn *i, uint32_t mask)
{
    if (!mask) {
        return;
    }
    Call c;
    call_init(x, i, &c);
    unsigned lane = (unsigned)__builtin_ctz(mask);
    uint64_t pm = call_arg(x, i, &c, lane, 0);
    uint64_t pf = call_arg(x, i, &c, lane, 1);
    uint32_t line = (uint32_t)call_arg(x, i, &c, lane, 2);
    uint64_t pfn = call_arg(x, i, &c, lane, 3);
    Buf s[3] = { { 0 }, { 0 }, { 0 } };
    uint64_t ptrs[3] = { pm, pf, pfn };
    static const char *const what[3] = { "message", "file", "function" };
    for (int k = 0; k < 3; k++) {
        if (ptrs[k] == 0) {
            buf_put(&s[k], "?", 1);
        } else if (!gstring(x, lane, ptrs[k], 160, false, &s[k])) {
            annotate(x, "__assertfail: reading the %s string", what[k]);
            for (int j = 0; j < 3; j++) {
                free(s[j].p);
            }
            return;
        }
        buf_put(&s[k], "", 0);
    }
    const EmuCta *cta = x->cta;
    const EmuWarp *w = x->warp;
    emu_fault(x, EMU_ERR_ASSERT, lane, 0, 0, PTX_SPACE_NONE,
              "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion "
              "`%s` failed.", s[1].p ? s[1].p : "?", line,
              s[2].p ? s[2].p : "?", cta->ctaid[0], cta->ctaid[1],
              cta->ctaid[2], w->tid[0][lane], w->tid[1][lane],
              w->tid[2][lane], s[0].p ? s[0].p : "?");
    for (int j = 0; j < 3; j++) {
        free(s[j].p);
    }
}

/* ------------------------------------------------------ binding */

EmuHandler emu_builtin_handler(const char *name)
{
    static const struct {
        const char *name;
        EmuHandler fn;
    } tab[] = {
        { "vprintf", op_vprintf },
        { "malloc", op_malloc },
        { "free", op_free },
        { "__cuda_syscall_aligned_malloc", op_aligned_malloc },
        { "__assertfail", op_assertfail },
    };
    if (!name) {
        return NULL;
    }
    for (size_t k = 0; k < sizeof(tab) / sizeof(tab[0]); k++) {
        if (strcmp(tab[k].name, name) == 0) {
            return tab[k].fn;
        }
    }
    return emu_devrt_handler(name);
}
