/*
 * tests/check_client.c: the memory-access funnel (emu/access.h), step
 * record v2 (emu/exec.h) and emulator clients (emu/client.h).
 *
 *  - every memory opcode family notes its accesses in the right
 *    resolved space and kind (a generic load of a __grid_constant__
 *    parameter is a param access; generic shared and local addresses
 *    resolve to their windows), one per executing lane;
 *  - a wmma.load notes all its 512 accesses (no truncation);
 *  - cp.async and its commit/wait carry tokens the wait lists;
 *  - clients: ABI refusals, events of a small kernel in the order the
 *    functional scheduler makes them (hand-computed), allocation
 *    events, on_access once per instruction, and identical results with
 *    and without a no-op client.
 */
#include <check.h>
#include <string.h>

#include "emu/access.h"
#include "emu/client.h"
#include "emu/insninfo.h"
#include "tests/emutest.h"

#define HDR ".version 8.0\n.target sm_80\n.address_size 64\n"

/* ------------------------------------------------ accesses and spaces */

typedef struct Seen {
    EmuAccess acc[1024];
    uint32_t n;                   /* accesses seen in steps */
    uint32_t ops[64];             /* opcode of each step with accesses */
    uint32_t nops;
    uint32_t calls;               /* on_access calls */
    uint32_t delivered;           /* accesses given to on_access */
    uint32_t max_step;            /* most accesses of one step */
    uint64_t token, waits[8];
    uint32_t nwaits, wait_kind;
} Seen;

static void seen_step(void *ctx, const EmuCta *cta, const EmuWarp *w,
                      const EmuStepRecord *rec)
{
    (void)cta;
    (void)w;
    Seen *s = ctx;
    if (rec->nacc > s->max_step) {
        s->max_step = rec->nacc;
    }
    if (rec->nacc && s->nops < 64) {
        s->ops[s->nops++] = rec->op;
    }
    for (uint32_t k = 0; k < rec->nacc && s->n < 1024; k++) {
        s->acc[s->n++] = rec->acc[k];
    }
    if (rec->async_token) {
        s->token = rec->async_token;
    }
    if (rec->wait != EMU_WAIT_NONE) {
        s->wait_kind = rec->wait;
        s->nwaits = rec->nwait < 8 ? rec->nwait : 8;
        memcpy(s->waits, rec->wait_tokens, s->nwaits * sizeof(uint64_t));
    }
}

static void seen_access(void *ctx, const EmuCtx *x, const EmuAccess *a,
                        uint32_t n)
{
    (void)x;
    (void)a;
    Seen *s = ctx;
    s->calls++;
    s->delivered += n;
}

static int attach(EmuDevice *d, EmuClient *c)
{
    char why[200];
    int h = emu_client_attach(d, c, why, sizeof(why));
    ck_assert_msg(h >= 0, "attach: %s", why);
    return h;
}

/* One thread: every family's access, in program order. */
static const char *spaces_src =
    HDR
    ".visible .entry k(.param .u64 out, .param .align 8 .b8 gc[16])\n{\n"
    ".reg .b64 %rd<12>;\n.reg .b32 %r<8>;\n"
    ".shared .align 16 .b32 sh[64];\n"
    ".local .align 4 .b32 lo[4];\n"
    "ld.param.u64 %rd1, [out];\n"                 /* param read */
    "mov.b64 %rd2, gc;\n"
    "cvta.param.u64 %rd3, %rd2;\n"
    "ld.u32 %r1, [%rd3+4];\n"                     /* generic -> param */
    "mov.u32 %r2, %tid.x;\n"
    "mov.u64 %rd4, sh;\n"
    "cvta.shared.u64 %rd5, %rd4;\n"
    "st.u32 [%rd5+8], %r1;\n"                     /* generic -> shared */
    "ld.shared.u32 %r3, [sh+8];\n"                /* shared read */
    "cvta.to.global.u64 %rd6, %rd1;\n"
    "st.global.u32 [%rd6], %r3;\n"                /* global write */
    "atom.global.add.u32 %r4, [%rd6], 1;\n"       /* global atomic */
    "red.shared.add.u32 [sh], 1;\n"               /* shared atomic */
    "mov.u64 %rd7, lo;\n"
    "cvta.local.u64 %rd8, %rd7;\n"
    "st.u32 [%rd8], %r2;\n"                       /* generic -> local */
    "ld.u32 %r5, [%rd6];\n"                       /* generic -> global */
    "ret;\n}\n";

START_TEST(accesses_resolve_spaces)
{
    static const struct {
        uint8_t space, kind;
        uint32_t addr;            /* in its space; ~0u: not checked */
        uint32_t size;
    } want[] = {
        { PTX_SPACE_PARAM, EMU_ACC_READ, 0, 8 },
        { PTX_SPACE_PARAM, EMU_ACC_READ, 12, 4 },   /* gc at 8, +4 */
        { PTX_SPACE_SHARED, EMU_ACC_WRITE, 8, 4 },
        { PTX_SPACE_SHARED, EMU_ACC_READ, 8, 4 },
        { PTX_SPACE_GLOBAL, EMU_ACC_WRITE, ~0u, 4 },
        { PTX_SPACE_GLOBAL, EMU_ACC_ATOMIC, ~0u, 4 },
        { PTX_SPACE_SHARED, EMU_ACC_ATOMIC, 0, 4 },
        { PTX_SPACE_LOCAL, EMU_ACC_WRITE, ~0u, 4 },
        { PTX_SPACE_GLOBAL, EMU_ACC_READ, ~0u, 4 },
    };
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, spaces_src);
    uint64_t out = dev_alloc(d, 16);
    uint8_t gc[16] = { 0, 0, 0, 0, 42, 0, 0, 0 };
    void *args[] = { &out, gc };
    static Seen s;
    memset(&s, 0, sizeof(s));
    EmuClient c = { EMU_CLIENT_ABI, sizeof(c), "seen", EMU_ACC_ALL_SPACES,
                    0, true, &s, seen_access, NULL, seen_step };
    attach(d, &c);
    ck_assert_int_eq(run_kernel(m, "k", 1, 1, args, NULL), EMU_OK);
    ck_assert_uint_eq(s.n, sizeof(want) / sizeof(want[0]));
    for (unsigned k = 0; k < s.n; k++) {
        ck_assert_msg(s.acc[k].space == want[k].space,
                      "access %u: space %u, want %u", k, s.acc[k].space,
                      want[k].space);
        ck_assert_uint_eq(s.acc[k].kind, want[k].kind);
        ck_assert_uint_eq(s.acc[k].size, want[k].size);
        ck_assert_uint_eq(s.acc[k].lane, 0);
        if (want[k].addr != ~0u) {
            ck_assert_uint_eq(s.acc[k].addr, want[k].addr);
        }
    }
    ck_assert_uint_eq(s.acc[4].addr, out);
    /* the generic load of the parameter read its value */
    uint32_t v;
    emu_mem_read(d->mem, out, &v, 4);
    ck_assert_uint_eq(v, 43);                 /* 42 stored, then +1 */
    /* on_access: once per instruction with accesses, the same ones */
    ck_assert_uint_eq(s.calls, s.nops);
    ck_assert_uint_eq(s.delivered, s.n);
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* A client watching .shared only is given shared accesses only. */
START_TEST(accesses_filtered_by_space)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, spaces_src);
    uint64_t out = dev_alloc(d, 16);
    uint8_t gc[16] = { 0 };
    void *args[] = { &out, gc };
    static Seen s;
    memset(&s, 0, sizeof(s));
    EmuClient c = { EMU_CLIENT_ABI, sizeof(c), "shared",
                    1u << PTX_SPACE_SHARED, 0, false, &s, seen_access, NULL,
                    NULL };
    attach(d, &c);
    ck_assert_int_eq(run_kernel(m, "k", 1, 1, args, NULL), EMU_OK);
    ck_assert_uint_eq(s.calls, 3);            /* st, ld.shared, red */
    ck_assert_uint_eq(s.delivered, 3);
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* Run kernel k of src on one CTA of `block` threads with a buffer of
 * `bytes` as its one argument, a steps client filling *s; returns the
 * buffer's address. */
static uint64_t run_steps(const char *src, uint32_t block, uint64_t bytes,
                          Seen *s)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, src);
    uint64_t a = dev_alloc(d, bytes);
    void *args[] = { &a };
    memset(s, 0, sizeof(*s));
    EmuClient c = { EMU_CLIENT_ABI, sizeof(c), "seen", 0, 0, true, s,
                    NULL, NULL, seen_step };
    attach(d, &c);
    ck_assert_int_eq(run_kernel(m, "k", 1, block, args, NULL), EMU_OK);
    emu_module_free(m);
    emu_device_free(d);
    return a;
}

/* wmma.load of an m16n16k16 f16 A fragment: 16 elements per lane, 512
 * accesses of 2 bytes in one step (the v1 record stopped at 128). */
START_TEST(record_never_truncates)
{
    static const char *src =
        HDR
        ".visible .entry k(.param .u64 a)\n{\n"
        ".reg .b64 %rd<2>;\n.reg .b32 %a<8>;\n"
        "ld.param.u64 %rd0, [a];\n"
        "cvta.to.global.u64 %rd1, %rd0;\n"
        "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 "
        "{%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7}, [%rd1], 16;\n"
        "ret;\n}\n";
    static Seen s;
    uint64_t a = run_steps(src, 32, 512, &s);
    ck_assert_uint_eq(s.max_step, 512);
    /* each of the 256 elements of the 16 x 16 matrix is held by two
     * lanes (PTX ISA, wmma fragments of m16n16k16 .f16 A) */
    uint32_t hits[256] = { 0 };
    ck_assert_uint_eq(s.n, 32 + 512);         /* ld.param, wmma.load */
    for (uint32_t k = 32; k < s.n; k++) {
        ck_assert_uint_eq(s.acc[k].space, PTX_SPACE_GLOBAL);
        ck_assert_uint_eq(s.acc[k].size, 2);
        uint64_t e = (s.acc[k].addr - a) / 2;
        ck_assert_uint_lt(e, 256);
        hits[e]++;
    }
    for (unsigned e = 0; e < 256; e++) {
        ck_assert_uint_eq(hits[e], 2);
    }
}
END_TEST

/* cp.async starts an asynchronous copy (a token); commit_group and
 * wait_group 0 make the wait depend on it. */
START_TEST(async_tokens_for_cp_async)
{
    static const char *src =
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry k(.param .u64 a)\n{\n"
        ".reg .b64 %rd<4>;\n"
        ".shared .align 16 .b8 sh[64];\n"
        "ld.param.u64 %rd0, [a];\n"
        "cvta.to.global.u64 %rd1, %rd0;\n"
        "cp.async.ca.shared.global [sh], [%rd1], 16;\n"
        "cp.async.commit_group;\n"
        "cp.async.wait_group 0;\n"
        "ret;\n}\n";
    static Seen s;
    run_steps(src, 1, 64, &s);
    ck_assert_uint_ne(s.token, 0);
    ck_assert_uint_eq(s.wait_kind, EMU_WAIT_CP_ASYNC);
    ck_assert_uint_eq(s.nwaits, 1);
    ck_assert_uint_eq(s.waits[0], s.token);
    /* ld.param, then the copy's: async read of global, async write */
    ck_assert_uint_eq(s.n, 3);
    ck_assert_uint_eq(s.acc[1].kind, EMU_ACC_ASYNC_READ);
    ck_assert_uint_eq(s.acc[1].space, PTX_SPACE_GLOBAL);
    ck_assert_uint_eq(s.acc[2].kind, EMU_ACC_ASYNC_WRITE);
    ck_assert_uint_eq(s.acc[2].space, PTX_SPACE_SHARED);
}
END_TEST

/* ------------------------------------------------------------ clients */

START_TEST(attach_checks_version)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    char why[200];
    EmuClient c = { 0, sizeof(c), "old", 0, 0, false, NULL, NULL, NULL,
                    NULL };
    ck_assert_int_eq(emu_client_attach(d, &c, why, sizeof(why)), -1);
    ck_assert_ptr_nonnull(strstr(why, "too old"));
    c.abi_version = EMU_CLIENT_ABI + 1;
    c.name = "new";
    ck_assert_int_eq(emu_client_attach(d, &c, why, sizeof(why)), -1);
    ck_assert_ptr_nonnull(strstr(why, "too new"));
    c.abi_version = EMU_CLIENT_ABI;
    c.struct_size = 8;
    ck_assert_int_eq(emu_client_attach(d, &c, why, sizeof(why)), -1);
    ck_assert_ptr_nonnull(strstr(why, "struct_size"));
    c.struct_size = sizeof(c);
    int h[EMU_CLIENT_MAX];
    for (int k = 0; k < EMU_CLIENT_MAX; k++) {
        h[k] = emu_client_attach(d, &c, why, sizeof(why));
        ck_assert_int_eq(h[k], k);
    }
    ck_assert_int_eq(emu_client_attach(d, &c, why, sizeof(why)), -1);
    ck_assert_ptr_nonnull(strstr(why, "attached already"));
    for (int k = 0; k < EMU_CLIENT_MAX; k++) {
        emu_client_detach(d, h[k]);
    }
    ck_assert_ptr_null(d->clients);
    emu_device_free(d);
}
END_TEST

typedef struct Ev {
    EmuEventKind k;
    int cta, warp;
    uint32_t id;
    uint64_t addr, size;
} Ev;

typedef struct Evs {
    Ev e[64];
    unsigned n;
} Evs;

static void on_ev(void *ctx, const EmuEvent *e)
{
    Evs *v = ctx;
    ck_assert_uint_lt(v->n, 64);
    v->e[v->n++] = (Ev){ e->kind, e->cta ? (int)e->cta->linear : -1,
                         e->warp ? (int)e->warp->id : -1, e->id, e->addr,
                         e->size };
}

/* Two CTAs of two warps: bar.sync 0, then exit.  The functional
 * scheduler makes one CTA resident at a time and runs its warps round
 * robin: warp 0 arrives and waits, warp 1 arrives (the barrier
 * releases) and runs on to its exit, then warp 0 exits. */
START_TEST(events_in_order)
{
    static const char *src =
        HDR
        ".visible .entry k()\n{\n"
        "bar.sync 0;\n"
        "ret;\n}\n";
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, src);
    static Evs v;
    memset(&v, 0, sizeof(v));
    EmuClient c = { EMU_CLIENT_ABI, sizeof(c), "ev", 0, EMU_EV_ALL, false,
                    &v, NULL, on_ev, NULL };
    int h = attach(d, &c);
    uint64_t a = dev_alloc(d, 100);
    ck_assert_int_eq(run_kernel(m, "k", 2, 64, NULL, NULL), EMU_OK);
    ck_assert_int_eq(emu_mem_release(d->mem, a), EMU_OK);
    static const Ev want[] = {
        { EMU_EV_HOST_ALLOC, -1, -1, 0, 0, 100 },
        { EMU_EV_LAUNCH_BEGIN, -1, -1, 0, 0, 0 },
        { EMU_EV_CTA_START, 0, -1, 0, 0, 0 },
        { EMU_EV_BARRIER, 0, -1, 0, 3, 3 },   /* both warps arrived, waited */
        { EMU_EV_WARP_EXIT, 0, 1, 0, 0, 0 },
        { EMU_EV_WARP_EXIT, 0, 0, 0, 0, 0 },
        { EMU_EV_CTA_DONE, 0, -1, 0, 0, 0 },
        { EMU_EV_CTA_START, 1, -1, 0, 0, 0 },
        { EMU_EV_BARRIER, 1, -1, 0, 3, 3 },
        { EMU_EV_WARP_EXIT, 1, 1, 0, 0, 0 },
        { EMU_EV_WARP_EXIT, 1, 0, 0, 0, 0 },
        { EMU_EV_CTA_DONE, 1, -1, 0, 0, 0 },
        { EMU_EV_LAUNCH_END, -1, -1, 0, 0, 0 },
        { EMU_EV_HOST_FREE, -1, -1, 0, 0, 100 },
    };
    ck_assert_uint_eq(v.n, sizeof(want) / sizeof(want[0]));
    for (unsigned k = 0; k < v.n; k++) {
        ck_assert_msg(v.e[k].k == want[k].k && v.e[k].cta == want[k].cta &&
                      v.e[k].warp == want[k].warp &&
                      v.e[k].id == want[k].id &&
                      v.e[k].size == want[k].size &&
                      (want[k].k != EMU_EV_BARRIER ||
                       v.e[k].addr == want[k].addr),
                      "event %u: kind %d cta %d warp %d id %u size %llu",
                      k, v.e[k].k, v.e[k].cta, v.e[k].warp, v.e[k].id,
                      (unsigned long long)v.e[k].size);
    }
    ck_assert_uint_eq(v.e[0].addr, a);
    ck_assert_uint_eq(v.e[v.n - 1].addr, a);
    emu_client_detach(d, h);
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* Slots: per client, per launch / CTA / warp, distinct and NULL first. */
static int slot_handle;

static void slot_ev(void *ctx, const EmuEvent *e)
{
    unsigned *ok = ctx;
    if (e->kind == EMU_EV_CTA_START) {
        void **cs = emu_client_cta_slot(e->cta, slot_handle);
        void **w0 = emu_client_warp_slot(&e->cta->warps[0], slot_handle);
        void **w1 = emu_client_warp_slot(&e->cta->warps[1], slot_handle);
        void **ls = emu_client_launch_slot(e->launch, slot_handle);
        ck_assert(cs && w0 && w1 && ls);
        ck_assert(cs != w0 && w0 != w1 && (void *)ls != (void *)cs);
        ck_assert_ptr_null(*cs);
        ck_assert_ptr_null(*w1);
        *cs = ok;
        *w1 = ok;
        if (!*ls) {
            *ls = ok;
        }
    } else if (e->kind == EMU_EV_CTA_DONE) {
        ck_assert_ptr_eq(*emu_client_cta_slot(e->cta, slot_handle), ok);
        ck_assert_ptr_eq(*emu_client_warp_slot(&e->cta->warps[1],
                                               slot_handle), ok);
        ck_assert_ptr_null(*emu_client_warp_slot(&e->cta->warps[0],
                                                 slot_handle));
        ck_assert_ptr_eq(*emu_client_launch_slot(e->launch, slot_handle),
                         ok);
        (*ok)++;
    }
}

START_TEST(client_slots)
{
    static const char *src = HDR ".visible .entry k()\n{\nret;\n}\n";
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, src);
    unsigned ok = 0;
    EmuClient c = { EMU_CLIENT_ABI, sizeof(c), "slots", 0, EMU_EV_ALL,
                    false, &ok, NULL, slot_ev, NULL };
    slot_handle = attach(d, &c);
    ck_assert_int_eq(run_kernel(m, "k", 3, 64, NULL, NULL), EMU_OK);
    ck_assert_uint_eq(ok, 3);
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* The same results, instruction counts and memory with and without a
 * no-op client watching everything, for a kernel with divergence,
 * shared and global atomics, a barrier and generic accesses. */
static void noop_access(void *ctx, const EmuCtx *x, const EmuAccess *a,
                        uint32_t n)
{
    (void)x;
    (void)a;
    *(uint64_t *)ctx += n;
}

static void noop_event(void *ctx, const EmuEvent *e)
{
    (void)ctx;
    (void)e;
}

static const char *mix_src =
    HDR
    ".visible .entry k(.param .u64 out)\n{\n"
    ".reg .b64 %rd<8>;\n.reg .b32 %r<12>;\n.reg .pred %p<3>;\n"
    ".shared .align 4 .b32 h[16];\n"
    "ld.param.u64 %rd1, [out];\n"
    "cvta.to.global.u64 %rd2, %rd1;\n"
    "mov.u32 %r1, %tid.x;\n"
    "and.b32 %r2, %r1, 15;\n"
    "shl.b32 %r3, %r2, 2;\n"
    "mov.u32 %r4, h;\n"
    "add.u32 %r5, %r4, %r3;\n"
    "setp.lt.u32 %p1, %r1, 16;\n"
    "@%p1 st.shared.u32 [%r5], 0;\n"
    "bar.sync 0;\n"
    "and.b32 %r6, %r1, 3;\n"
    "setp.eq.u32 %p2, %r6, 0;\n"
    "@%p2 bra SKIP;\n"
    "atom.shared.add.u32 %r7, [%r5], %r1;\n"
    "SKIP:\n"
    "bar.sync 0;\n"
    "@!%p1 bra DONE;\n"
    "ld.shared.u32 %r8, [%r5];\n"
    "mul.wide.u32 %rd3, %r2, 4;\n"
    "add.s64 %rd4, %rd2, %rd3;\n"
    "atom.global.add.u32 %r9, [%rd4], %r8;\n"
    "DONE:\n"
    "ret;\n}\n";

static void mix_run(bool client, bool steps, uint8_t out[64],
                    uint64_t *insns, uint64_t *seen)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, mix_src);
    uint64_t o = dev_alloc(d, 64);
    void *args[] = { &o };
    *seen = 0;
    if (client) {
        EmuClient c = { EMU_CLIENT_ABI, sizeof(c), "noop",
                        EMU_ACC_ALL_SPACES, EMU_EV_ALL, false, seen,
                        noop_access, noop_event, NULL };
        attach(d, &c);
    }
    static Seen s;
    if (steps) {
        memset(&s, 0, sizeof(s));
        EmuClient c = { EMU_CLIENT_ABI, sizeof(c), "steps", 0, 0, true, &s,
                        NULL, NULL, seen_step };
        attach(d, &c);
    }
    EmuFunc *k = emu_module_kernel(m, "k");
    uint32_t g[3] = { 3, 1, 1 }, b[3] = { 96, 1, 1 };
    EmuLaunch *l;
    ck_assert_int_eq(emu_launch_begin(m, k, g, b, 0, args, &l), EMU_OK);
    ck_assert_int_eq(emu_launch_run(l), EMU_OK);
    *insns = l->insns;
    emu_launch_end(l);
    emu_mem_read(d->mem, o, out, 64);
    emu_module_free(m);
    emu_device_free(d);
}

START_TEST(noop_client_changes_nothing)
{
    uint8_t a[64], b[64], c[64];
    uint64_t ia, ib, ic, sa, sb, sc;
    mix_run(false, false, a, &ia, &sa);
    mix_run(true, false, b, &ib, &sb);
    mix_run(true, true, c, &ic, &sc);
    ck_assert_mem_eq(a, b, 64);
    ck_assert_mem_eq(a, c, 64);
    ck_assert_uint_eq(ia, ib);
    ck_assert_uint_eq(ia, ic);
    /* per CTA: 96 ld.param, 16 shared stores, 72 shared atomics (3 of
     * every 4 of 96 threads), 16 shared loads, 16 global atomics */
    ck_assert_uint_eq(sb, 3 * (96 + 16 + 72 + 16 + 16));  /* ld.param */
    ck_assert_uint_eq(sc, sb);
    /* counter h[j] of a CTA sums the threads t = j mod 16, t % 4 != 0 */
    for (unsigned j = 0; j < 16; j++) {
        uint32_t want = 0, got;
        for (unsigned t = j; t < 96; t += 16) {
            want += t % 4 ? t : 0;
        }
        memcpy(&got, a + 4 * j, 4);
        ck_assert_uint_eq(got, 3 * want);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("client");
    TCase *t = tcase_create("core");
    tcase_add_test(t, accesses_resolve_spaces);
    tcase_add_test(t, accesses_filtered_by_space);
    tcase_add_test(t, record_never_truncates);
    tcase_add_test(t, async_tokens_for_cp_async);
    tcase_add_test(t, attach_checks_version);
    tcase_add_test(t, events_in_order);
    tcase_add_test(t, client_slots);
    tcase_add_test(t, noop_client_changes_nothing);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(suite());
}
