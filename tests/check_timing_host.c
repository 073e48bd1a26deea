/*
 * tests/check_timing_host.c: the timing host (timing/host.c) against the
 * real emulator, driven by a tiny model written here ("serial"): each
 * cycle it places CTAs up to `ctas` resident ones (SMs round robin),
 * then issues one instruction of the next ready warp (round robin over
 * the resident warps), then advances time by one cycle and sets every
 * SM's clock to it.  So with no warp ever waiting, a kernel takes exactly
 * as many cycles as it executes warp instructions, and the n-th issued
 * instruction (from 0) reads %clock64 = start + n: the expectations
 * below are counted by hand from the PTX.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "emu/exec.h"
#include "tests/emutest.h"
#include "timing/session.h"

/* ------------------------------------------------------- the model */

typedef struct Serial {
    const ptxemu_tm_host_api *api;
    ptxemu_tm_host *h;
    uint32_t max_ctas, nsms, next_sm;
    ptxemu_tm_cta *res[64];
    bool done[64];
    uint32_t nres;
    uint32_t rr;                  /* round-robin position over warps */
    uint64_t now;
    bool placing_done;
    bool check_peek;
    int fail_at;                  /* cycle() returns -1 at this cycle */
    bool never_place;
    /* counters (also registered as statistics) */
    uint64_t issued, releases, exits, ctas_done, peek_mismatch, stepped0;
    uint64_t begins, ends; /* kernel_begin / kernel_end calls */
    uint64_t text_bad;     /* issued insns whose text is not their PTX */
    bool saw_bra_line;     /* "@%p2 bra LOOP;" came as a text */
    /* the texts of the first instructions issued and their flags */
    const char *seen_text[32];
    uint32_t seen_flags[32], nseen;
} Serial;

static Serial *last_model;

static const ptxemu_tm_param serial_params[] = {
    {"ctas", PTXEMU_TM_P_UINT, "1", "resident CTAs at most"},
    {"check_peek", PTXEMU_TM_P_BOOL, "true", "compare peek with step"},
    {"fail_at", PTXEMU_TM_P_INT, "-1", "fail at this cycle (-1: never)"},
    {"never_place", PTXEMU_TM_P_BOOL, "false", "end without placing"},
};

static void *serial_create(const ptxemu_tm_host_api *api, ptxemu_tm_host *h)
{
    Serial *m = calloc(1, sizeof(*m));
    m->api = api;
    m->h = h;
    m->max_ctas = (uint32_t)api->param_uint(h, "ctas");
    m->check_peek = api->param_bool(h, "check_peek");
    m->fail_at = (int)api->param_int(h, "fail_at");
    m->never_place = api->param_bool(h, "never_place");
    if (m->max_ctas == 0 || m->max_ctas > 64) {
        api->error(h, "ctas must be 1..64");
        free(m);
        return NULL;
    }
    m->nsms = api->num_sms(h);
    api->stat(h, "serial.issued", &m->issued, "warp instructions");
    api->stat(h, "serial.releases", &m->releases, "barrier releases");
    last_model = m;
    return m;
}

static void serial_destroy(void *tm)
{
    if (last_model == tm) {
        last_model = NULL;
    }
    free(tm);
}

static int serial_begin(void *tm, const ptxemu_tm_kernel *k)
{
    Serial *m = tm;
    m->begins++;
    m->now = k->start_cycle;
    m->nres = 0;
    m->rr = 0;
    m->placing_done = false;
    for (uint32_t s = 0; s < m->nsms; s++) {
        m->api->set_time(m->h, s, m->now);
    }
    return 0;
}

static void serial_event(void *tm, ptxemu_tm_event ev, ptxemu_tm_cta *cta,
                         ptxemu_tm_warp *w)
{
    Serial *m = tm;
    (void)w;
    switch (ev) {
    case PTXEMU_TM_EV_BARRIER_RELEASE: m->releases++; break;
    case PTXEMU_TM_EV_WARP_EXIT: m->exits++; break;
    case PTXEMU_TM_EV_CTA_DONE:
        m->ctas_done++;
        for (uint32_t k = 0; k < m->nres; k++) {
            if (m->res[k] == cta) {
                m->done[k] = true;
            }
        }
        break;
    default: break;
    }
}

static int serial_cycle(void *tm, uint64_t *now)
{
    Serial *m = tm;
    if (m->fail_at >= 0 && m->now >= (uint64_t)m->fail_at) {
        m->api->error(m->h, "fail_at reached");
        return -1;
    }
    /* retire the finished CTAs */
    for (uint32_t k = 0; k < m->nres;) {
        if (m->done[k]) {
            m->api->cta_retire(m->h, m->res[k]);
            m->res[k] = m->res[m->nres - 1];
            m->done[k] = m->done[m->nres - 1];
            m->nres--;
        } else {
            k++;
        }
    }
    while (!m->never_place && !m->placing_done && m->nres < m->max_ctas) {
        ptxemu_tm_cta *c;
        int r = m->api->cta_next(m->h, m->next_sm, &c);
        if (r == PTXEMU_TM_NONE) {
            m->placing_done = true;
            break;
        }
        if (r != PTXEMU_TM_OK) {
            return -1;
        }
        m->next_sm = (m->next_sm + 1) % m->nsms;
        m->done[m->nres] = false;
        m->res[m->nres++] = c;
    }
    if (m->nres == 0 && (m->placing_done || m->never_place)) {
        *now = m->now;
        return 0;
    }
    /* one instruction of the next ready warp */
    uint32_t total = 0;
    for (uint32_t k = 0; k < m->nres; k++) {
        ptxemu_tm_warp *const *ws;
        total += m->api->cta_warps(m->h, m->res[k], &ws);
    }
    for (uint32_t t = 0; t < total; t++) {
        uint32_t idx = (m->rr + t) % total, c = 0;
        ptxemu_tm_warp *const *ws;
        uint32_t n = m->api->cta_warps(m->h, m->res[c], &ws);
        while (idx >= n) {
            idx -= n;
            n = m->api->cta_warps(m->h, m->res[++c], &ws);
        }
        uint32_t active, exec;
        const ptxemu_tm_insn *pi = m->api->warp_peek(m->h, ws[idx], &active,
                                                     &exec);
        if (!pi) {
            continue;
        }
        ptxemu_tm_step st;
        memset(&st, 0, sizeof(st));
        st.struct_size = sizeof(st);
        int r = m->api->warp_step(m->h, ws[idx], &st);
        if (st.insn) {
            m->issued++;
            /* the text is the PTX line: its opcode word, after any guard,
             * starts with the opcode name */
            const char *tx = st.insn->text ? st.insn->text : "";
            const char *w = tx[0] == '@' ? strchr(tx, ' ') : tx;
            w = w ? w + strspn(w, " ") : "";
            if (strncmp(w, st.insn->opname, strlen(st.insn->opname)) != 0) {
                m->text_bad++;
            }
            m->saw_bra_line |= strcmp(tx, "@%p2 bra LOOP;") == 0;
            if (m->nseen < 32) {
                m->seen_text[m->nseen] = tx;
                m->seen_flags[m->nseen++] = st.insn->flags;
            }
            if (m->check_peek &&
                (st.insn != pi || st.exec != exec || st.active != active)) {
                m->peek_mismatch++;
            }
        } else {
            m->stepped0++;
        }
        if (r < 0) {
            return r;
        }
        m->rr = (m->rr + t + 1) % total;
        break;
    }
    m->now++;
    for (uint32_t s = 0; s < m->nsms; s++) {
        m->api->set_time(m->h, s, m->now);
    }
    *now = m->now;
    return 1;
}

static int serial_end(void *tm, uint64_t *end)
{
    Serial *m = tm;
    m->ends++;
    m->nres = 0; /* the host frees the CTAs of a kernel stopped early */
    *end = m->now;
    return 0;
}

static ptxemu_tm_ops serial_ops(void)
{
    ptxemu_tm_ops o;
    memset(&o, 0, sizeof(o));
    o.abi_version = PTXEMU_TM_ABI_VERSION;
    o.struct_size = sizeof(o);
    o.name = "serial";
    o.params = serial_params;
    o.nparams = sizeof(serial_params) / sizeof(serial_params[0]);
    o.create = serial_create;
    o.destroy = serial_destroy;
    o.kernel_begin = serial_begin;
    o.cycle = serial_cycle;
    o.kernel_end = serial_end;
    o.event = serial_event;
    return o;
}

/* ------------------------------------------------------- helpers */

static TmSession *open_serial(EmuDevice *d, const char *const *sets,
                              size_t n)
{
    ptxemu_tm_ops o = serial_ops();
    TmSession *s = NULL;
    char err[256] = "";
    int r = tm_session_open_ops(d, &o, NULL, sets, n, &s, err, sizeof(err));
    ck_assert_msg(r == 0, "open: %s", err);
    return s;
}

/* A session of the built-in model `model` with n settings. */
static TmSession *open_model(EmuDevice *d, const char *model,
                             const char *const *sets, size_t n)
{
    TmSession *s = NULL;
    char err[256] = "";
    ck_assert_msg(tm_session_open(d, model, NULL, sets, n, &s, err,
                                  sizeof(err)) == 0, "%s", err);
    return s;
}

static EmuStatus run_timed(TmSession *s, EmuModule *m, const char *name,
                           uint32_t grid, uint32_t block, void **args)
{
    EmuFunc *k = emu_module_kernel(m, name);
    ck_assert_ptr_nonnull(k);
    uint32_t g[3] = {grid, 1, 1}, b[3] = {block, 1, 1};
    EmuLaunch *l;
    ck_assert_int_eq(emu_launch_begin(m, k, g, b, 0, args, &l), EMU_OK);
    tm_session_attach(s, l);
    EmuStatus st = emu_launch_run(l);
    emu_launch_end(l);
    return st;
}

static uint64_t last_cycles(TmSession *s)
{
    const TmKernelStats *ks;
    size_t n = tm_session_kernels(s, &ks);
    ck_assert_uint_gt(n, 0);
    return ks[n - 1].cycles;
}

/* ------------------------------------------------------- tests */

/* 8 instructions; %clock64 read by the 1st and the 5th issued. */
static const char *clk_ptx =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry clk(.param .u64 out)\n{\n"
    "  .reg .b64 %rd<6>;\n"
    "  mov.u64 %rd1, %clock64;\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  add.u64 %rd3, %rd1, 1;\n"
    "  add.u64 %rd3, %rd3, 1;\n"
    "  mov.u64 %rd4, %clock64;\n"
    "  st.global.u64 [%rd2], %rd1;\n"
    "  st.global.u64 [%rd2+8], %rd4;\n"
    "  ret;\n}\n";

START_TEST(clock_follows_model)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, clk_ptx);
    TmSession *s = open_serial(d, NULL, 0);
    uint64_t out = dev_alloc(d, 16);
    void *args[] = {&out};
    uint64_t v[2];
    ck_assert_int_eq(run_timed(s, m, "clk", 1, 32, args), EMU_OK);
    ck_assert_uint_eq(last_cycles(s), 8);
    emu_mem_read(d->mem, out, v, 16);
    ck_assert_uint_eq(v[0], 0);
    ck_assert_uint_eq(v[1], 4);
    /* device time runs on: the second launch starts at cycle 8 */
    ck_assert_int_eq(run_timed(s, m, "clk", 1, 32, args), EMU_OK);
    emu_mem_read(d->mem, out, v, 16);
    ck_assert_uint_eq(v[0], 8);
    ck_assert_uint_eq(v[1], 12);
    ck_assert_uint_eq(tm_session_now(s), 16);
    ck_assert_uint_eq(last_model->peek_mismatch, 0);
    tm_session_close(s);
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* %globaltimer in simulated nanoseconds: the model's clock is 1000 MHz
 * unless it says otherwise, so ns == cycles here. */
static const char *gt_ptx =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry gt(.param .u64 out)\n{\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  add.u64 %rd3, %rd2, 0;\n"
    "  mov.u64 %rd1, %globaltimer;\n"
    "  st.global.u64 [%rd2], %rd1;\n"
    "  ret;\n}\n";

START_TEST(globaltimer_is_simulated_time)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, gt_ptx);
    TmSession *s = open_serial(d, NULL, 0);
    uint64_t out = dev_alloc(d, 8), v;
    void *args[] = {&out};
    /* the host sets timer_ns after each cycle() call: the 3rd issued
     * instruction runs in the cycle that starts at time 2 */
    ck_assert_int_eq(run_timed(s, m, "gt", 1, 32, args), EMU_OK);
    emu_mem_read(d->mem, out, &v, 8);
    ck_assert_uint_eq(v, 2);
    ck_assert_uint_eq(last_cycles(s), 5);
    tm_session_close(s);
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* 4 CTAs x 2 warps; each warp: ld.param, 2 x mov/tid, bar.sync, st, ret
 * = 7 instructions (the add below included); 56 in all.  One CTA
 * resident at a time: the barrier never stalls the serial model longer
 * than the other warp's issue, so cycles == instructions. */
static const char *bar_ptx =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry bar(.param .u64 out)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  bar.sync 0;\n"
    "  mad.lo.u32 %r3, %r2, 64, %r1;\n"
    "  mul.wide.u32 %rd2, %r3, 4;\n"
    "  add.u64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r3;\n"
    "  ret;\n}\n";

START_TEST(barrier_events_and_waves)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, bar_ptx);
    const char *one[] = {"ctas=1"};
    TmSession *s = open_serial(d, one, 1);
    uint64_t out = dev_alloc(d, 256 * 4);
    void *args[] = {&out};
    ck_assert_int_eq(run_timed(s, m, "bar", 4, 64, args), EMU_OK);
    /* 9 instructions per warp, 8 warps */
    ck_assert_uint_eq(last_model->issued, 72);
    ck_assert_uint_eq(last_cycles(s), 72);
    ck_assert_uint_eq(last_model->releases, 4);
    ck_assert_uint_eq(last_model->exits, 8);
    ck_assert_uint_eq(last_model->ctas_done, 4);
    ck_assert_uint_eq(last_model->peek_mismatch, 0);
    uint32_t v[256];
    emu_mem_read(d->mem, out, v, sizeof(v));
    for (uint32_t i = 0; i < 256; i++) {
        ck_assert_uint_eq(v[i], i);
    }
    /* the statistics registry saw the kernel's counters */
    const TmKernelStats *ks;
    ck_assert_uint_eq(tm_session_kernels(s, &ks), 1);
    ck_assert_ptr_nonnull(strstr(ks[0].json, "\"serial.issued\": 72"));
    ck_assert_ptr_nonnull(strstr(ks[0].json, "\"serial.releases\": 4"));
    char *js = NULL;
    size_t jl = 0;
    FILE *o = open_memstream(&js, &jl);
    tm_session_json(s, o);
    fclose(o);
    ck_assert_ptr_nonnull(strstr(js, "\"model\": \"serial\""));
    ck_assert_ptr_nonnull(strstr(js, "\"cycles\": 72, "
                                     "\"warp_instructions\": 72, "
                                     "\"ipc\": 1.0000"));
    free(js);
    tm_session_close(s);
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* The same kernel with CTAs of one warp: each warp arrives alone, and
 * the barrier releases at its own arrival with no warp changing state;
 * the model still hears one release per CTA (ptxemu_timing.h). */
START_TEST(barrier_events_one_warp)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, bar_ptx);
    TmSession *s = open_serial(d, NULL, 0);
    uint64_t out = dev_alloc(d, 256 * 4);
    void *args[] = {&out};
    ck_assert_int_eq(run_timed(s, m, "bar", 4, 32, args), EMU_OK);
    ck_assert_uint_eq(last_model->issued, 36);
    ck_assert_uint_eq(last_model->releases, 4);
    ck_assert_uint_eq(last_model->exits, 4);
    ck_assert_uint_eq(last_model->ctas_done, 4);
    uint32_t v[256];
    emu_mem_read(d->mem, out, v, sizeof(v));
    for (uint32_t i = 0; i < 256; i++) {
        if (i % 64 < 32) {
            ck_assert_uint_eq(v[i], i);
        }
    }
    tm_session_close(s);
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* Divergence, reconvergence and a call: peek must name exactly what the
 * next step executes, with the same masks. */
static const char *div_ptx =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".func (.param .b32 r) twice(.param .b32 a)\n{\n"
    "  .reg .b32 %t<2>;\n"
    "  ld.param.b32 %t1, [a];\n"
    "  add.u32 %t1, %t1, %t1;\n"
    "  st.param.b32 [r], %t1;\n"
    "  ret;\n}\n"
    ".visible .entry dv(.param .u64 out)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  and.b32 %r2, %r1, 3;\n"
    "  setp.eq.u32 %p1, %r2, 0;\n"
    "  mov.u32 %r3, 0;\n"
    "  @%p1 bra ZERO;\n"
    "LOOP:\n"
    "  add.u32 %r3, %r3, %r2;\n"
    "  sub.u32 %r2, %r2, 1;\n"
    "  setp.ne.u32 %p2, %r2, 0;\n"
    "  @%p2 bra LOOP;\n"
    "  {\n"
    "  .param .b32 pa;\n  .param .b32 pr;\n"
    "  st.param.b32 [pa], %r3;\n"
    "  call (pr), twice, (pa);\n"
    "  ld.param.b32 %r4, [pr];\n"
    "  }\n"
    "  mov.u32 %r3, %r4;\n"
    "ZERO:\n"
    "  mov.u32 %r5, %ctaid.x;\n"
    "  mad.lo.u32 %r6, %r5, 64, %r1;\n"
    "  mul.wide.u32 %rd2, %r6, 4;\n"
    "  add.u64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r3;\n"
    "  ret;\n}\n";

START_TEST(peek_agrees_with_step)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, div_ptx);
    const char *two[] = {"ctas=2"};
    TmSession *s = open_serial(d, two, 1);
    uint64_t out = dev_alloc(d, 128 * 4);
    void *args[] = {&out};
    ck_assert_int_eq(run_timed(s, m, "dv", 2, 64, args), EMU_OK);
    ck_assert_uint_eq(last_model->peek_mismatch, 0);
    ck_assert_uint_gt(last_model->issued, 4 * 10);
    ck_assert_uint_eq(last_model->text_bad, 0);
    ck_assert(last_model->saw_bra_line);
    uint32_t v[128];
    emu_mem_read(d->mem, out, v, sizeof(v));
    for (uint32_t i = 0; i < 128; i++) {
        uint32_t k = (i % 64) & 3;   /* tid.x & 3: sum 1..k, doubled */
        ck_assert_uint_eq(v[i], k * (k + 1));
    }
    /* the same kernel untimed gives the same values */
    uint64_t out2 = dev_alloc(d, 128 * 4);
    void *args2[] = {&out2};
    ck_assert_int_eq(run_kernel(m, "dv", 2, 64, args2, NULL), EMU_OK);
    uint32_t w[128];
    emu_mem_read(d->mem, out2, w, sizeof(w));
    ck_assert_mem_eq(v, w, sizeof(v));
    tm_session_close(s);
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* bar.sync 0, 64 in a CTA of one warp: no second warp will ever come. */
static const char *dead_ptx =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry dead()\n{\n"
    "  bar.sync 0, 64;\n"
    "  ret;\n}\n";

START_TEST(deadlock_is_reported)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, dead_ptx);
    TmSession *s = open_serial(d, NULL, 0);
    ck_assert_int_eq(run_timed(s, m, "dead", 1, 32, NULL),
                     EMU_ERR_DEADLOCK);
    tm_session_close(s);
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* A guest fault (trap) in the second warp instruction. */
static const char *trap_ptx =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry tr()\n{\n"
    "  .reg .b32 %r<2>;\n"
    "  mov.u32 %r1, 1;\n"
    "  trap;\n"
    "  ret;\n}\n";

/* Every kernel_begin gets its kernel_end, also when the kernel stopped
 * early: a guest fault, a deadlock, the model's own error (the ABI's
 * rule, so that models drop what they hold at once). */
START_TEST(kernel_end_after_a_stop)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *tm = mod_load(d, trap_ptx);
    EmuModule *dm = mod_load(d, dead_ptx);
    EmuModule *cm = mod_load(d, clk_ptx);
    uint64_t out = dev_alloc(d, 16);
    void *args[] = {&out};
    const char *f[] = {"fail_at=3"};
    TmSession *s = open_serial(d, NULL, 0);
    ck_assert_int_ne(run_timed(s, tm, "tr", 2, 32, NULL), EMU_OK);
    ck_assert_uint_eq(last_model->begins, 1);
    ck_assert_uint_eq(last_model->ends, 1);
    ck_assert_int_eq(run_timed(s, dm, "dead", 1, 32, NULL),
                     EMU_ERR_DEADLOCK);
    ck_assert_uint_eq(last_model->ends, 2);
    ck_assert_int_eq(run_timed(s, cm, "clk", 1, 32, args), EMU_OK);
    ck_assert_uint_eq(last_model->ends, 3);
    tm_session_close(s);
    s = open_serial(d, f, 1);
    ck_assert_int_eq(run_timed(s, cm, "clk", 1, 32, args),
                     EMU_ERR_INVALID_VALUE);
    ck_assert_uint_eq(last_model->begins, 1);
    ck_assert_uint_eq(last_model->ends, 1);
    tm_session_close(s);
    emu_module_free(tm);
    emu_module_free(dm);
    emu_module_free(cm);
    emu_device_free(d);
}
END_TEST

START_TEST(model_errors_fail_the_launch)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, clk_ptx);
    uint64_t out = dev_alloc(d, 16);
    void *args[] = {&out};
    const char *f[] = {"fail_at=3"};
    TmSession *s = open_serial(d, f, 1);
    ck_assert_int_eq(run_timed(s, m, "clk", 1, 32, args),
                     EMU_ERR_INVALID_VALUE);
    ck_assert_ptr_nonnull(tm_session_error(s));
    ck_assert_ptr_nonnull(strstr(tm_session_error(s), "fail_at reached"));
    tm_session_close(s);
    const char *np[] = {"never_place=1"};
    s = open_serial(d, np, 1);
    ck_assert_int_eq(run_timed(s, m, "clk", 3, 32, args),
                     EMU_ERR_INVALID_VALUE);
    ck_assert_ptr_nonnull(strstr(tm_session_error(s), "never placed"));
    tm_session_close(s);
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

START_TEST(bad_parameters_are_refused)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    ptxemu_tm_ops o = serial_ops();
    TmSession *s = NULL;
    char err[256] = "";
    const char *bad[] = {"ctas=0"};
    ck_assert_int_ne(tm_session_open_ops(d, &o, NULL, bad, 1, &s, err,
                                         sizeof(err)), 0);
    ck_assert_ptr_null(s);
    ck_assert_ptr_nonnull(strstr(err, "ctas must be 1..64"));
    const char *unknown[] = {"l1.kb=4"};
    ck_assert_int_ne(tm_session_open_ops(d, &o, NULL, unknown, 1, &s, err,
                                         sizeof(err)), 0);
    ck_assert_ptr_nonnull(strstr(err, "l1.kb"));
    emu_device_free(d);
}
END_TEST

/* div_ptx's "dv" on 2 CTAs of 64 under s, its values checked. */
static void run_dv(EmuDevice *d, TmSession *s, EmuModule *m)
{
    uint64_t out = dev_alloc(d, 128 * 4);
    void *args[] = {&out};
    ck_assert_int_eq(run_timed(s, m, "dv", 2, 64, args), EMU_OK);
    uint32_t v[128];
    emu_mem_read(d->mem, out, v, sizeof(v));
    for (uint32_t i = 0; i < 128; i++) {
        uint32_t k = (i % 64) & 3; /* tid.x & 3: sum 1..k, doubled */
        ck_assert_uint_eq(v[i], k * (k + 1));
    }
}

/* The built-in simple model on the real emulator: the values of an
 * untimed run, and the same cycles on every run. */
START_TEST(simple_model_is_deterministic)
{
    uint64_t cycles[2];
    for (int run = 0; run < 2; run++) {
        EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
        EmuModule *m = mod_load(d, div_ptx);
        TmSession *s = open_model(d, "simple", NULL, 0);
        run_dv(d, s, m);
        cycles[run] = last_cycles(s);
        ck_assert_uint_gt(cycles[run], 0);
        tm_session_close(s);
        emu_module_free(m);
        emu_device_free(d);
    }
    ck_assert_uint_eq(cycles[0], cycles[1]);
}
END_TEST

/* Each of 2048 threads adds 1 to its own element of a 64 KiB buffer, at
 * index 37 * i mod 16384 (all distinct: 37 is odd), so its lines are
 * scattered over the caches' sets. */
static const char *scatter_ptx =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry sd(.param .u64 buf)\n{\n"
    "  .reg .b32 %r<6>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [buf];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n"
    "  mad.lo.u32 %r3, %r2, 256, %r1;\n"
    "  mul.lo.u32 %r4, %r3, 37;\n  and.b32 %r4, %r4, 16383;\n"
    "  mul.wide.u32 %rd2, %r4, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r5, [%rd3];\n  add.u32 %r5, %r5, 1;\n"
    "  st.global.u32 [%rd3], %r5;\n"
    "  ret;\n}\n";

/* A managed buffer lives at a host pointer, which the host's heap
 * chooses (here moved by a block the second run allocates first): the
 * gpu model with its caches takes the same cycles wherever it is
 * (host.c's model_addr), and the values are right. */
START_TEST(managed_memory_cycles_do_not_follow_the_heap)
{
    uint64_t cycles[2], addr[2];
    static const char *const sets[] = {"mem.model=hier"};
    for (int run = 0; run < 2; run++) {
        void *junk = run ? malloc(5000 + 3 * 4096) : NULL;
        EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
        EmuModule *m = mod_load(d, scatter_ptx);
        TmSession *s = open_model(d, "gpu", sets, 1);
        uint64_t buf = emu_mem_alloc(d->mem, 65536, EMU_ALLOC_MANAGED, NULL);
        ck_assert_uint_ne(buf, 0);
        addr[run] = buf;
        void *args[] = {&buf};
        ck_assert_int_eq(run_timed(s, m, "sd", 8, 256, args), EMU_OK);
        cycles[run] = last_cycles(s);
        const uint32_t *v = (const uint32_t *)(uintptr_t)buf;
        for (uint32_t i = 0; i < 2048; i++) {
            ck_assert_uint_eq(v[(37 * i) & 16383], 1);
        }
        tm_session_close(s);
        emu_module_free(m);
        emu_device_free(d);
        free(junk);
    }
    ck_assert_uint_ne(addr[0], addr[1]);
    ck_assert_uint_eq(cycles[0], cycles[1]);
}
END_TEST

/* The gpu model after a guest fault: the next launch on the same
 * session takes as many cycles as on a fresh one (the faulted kernel's
 * CTAs hold no SM, its requests wake nothing), and the values are
 * right. */
START_TEST(gpu_model_after_a_fault)
{
    uint64_t cycles[2];
    for (int faulted = 0; faulted < 2; faulted++) {
        EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
        EmuModule *tm = mod_load(d, trap_ptx);
        EmuModule *m = mod_load(d, div_ptx);
        TmSession *s = open_model(d, "gpu", NULL, 0);
        if (faulted) {
            ck_assert_int_ne(run_timed(s, tm, "tr", 64, 128, NULL), EMU_OK);
        }
        run_dv(d, s, m);
        cycles[faulted] = last_cycles(s);
        tm_session_close(s);
        emu_module_free(tm);
        emu_module_free(m);
        emu_device_free(d);
    }
    ck_assert_uint_eq(cycles[0], cycles[1]);
}
END_TEST

/* ABI 6: which steps come flagged PTXEMU_TM_I_BUFFERED (plain loads
 * and stores of global or generic memory, with SHARED) and which only
 * SHARED (strong wider than the CTA, volatile, global atomics) or
 * neither (shared memory, its atomics included); the PTX ISA's memory
 * consistency model says which accesses are strong. */
static const char *flags_ptx =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry fl(.param .u64 p)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<3>;\n"
    "  .shared .b32 sh;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  ld.global.u32 %r1, [%rd1];\n"
    "  st.global.u32 [%rd1+4], %r1;\n"
    "  ld.u32 %r2, [%rd1+8];\n"
    "  ld.relaxed.cta.global.u32 %r3, [%rd1];\n"
    "  ld.volatile.global.u32 %r3, [%rd1];\n"
    "  ld.relaxed.gpu.global.u32 %r3, [%rd1];\n"
    "  st.release.sys.global.u32 [%rd1+12], %r3;\n"
    "  atom.global.add.u32 %r3, [%rd1+16], 1;\n"
    "  st.shared.u32 [sh], %r2;\n"
    "  atom.shared.add.u32 %r3, [sh], 1;\n"
    "  ret;\n}\n";

START_TEST(buffered_flags)
{
    static const struct {
        const char *text;
        uint32_t flags; /* of SHARED | BUFFERED */
    } want[] = {
        {"ld.global.u32 %r1, [%rd1];",
         PTXEMU_TM_I_SHARED | PTXEMU_TM_I_BUFFERED},
        {"st.global.u32 [%rd1+4], %r1;",
         PTXEMU_TM_I_SHARED | PTXEMU_TM_I_BUFFERED},
        {"ld.u32 %r2, [%rd1+8];", PTXEMU_TM_I_SHARED | PTXEMU_TM_I_BUFFERED},
        {"ld.relaxed.cta.global.u32 %r3, [%rd1];",
         PTXEMU_TM_I_SHARED | PTXEMU_TM_I_BUFFERED},
        {"ld.volatile.global.u32 %r3, [%rd1];", PTXEMU_TM_I_SHARED},
        {"ld.relaxed.gpu.global.u32 %r3, [%rd1];", PTXEMU_TM_I_SHARED},
        {"st.release.sys.global.u32 [%rd1+12], %r3;", PTXEMU_TM_I_SHARED},
        {"atom.global.add.u32 %r3, [%rd1+16], 1;", PTXEMU_TM_I_SHARED},
        {"st.shared.u32 [sh], %r2;", 0},
        {"atom.shared.add.u32 %r3, [sh], 1;", 0}, /* the CTA's own */
    };
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, flags_ptx);
    TmSession *s = open_serial(d, NULL, 0);
    uint64_t buf = dev_alloc(d, 64);
    void *args[] = {&buf};
    ck_assert_int_eq(run_timed(s, m, "fl", 1, 32, args), EMU_OK);
    const uint32_t mask = PTXEMU_TM_I_SHARED | PTXEMU_TM_I_BUFFERED;
    for (size_t i = 0; i < sizeof(want) / sizeof(*want); i++) {
        uint32_t k = 0;
        while (k < last_model->nseen &&
               strcmp(last_model->seen_text[k], want[i].text) != 0) {
            k++;
        }
        ck_assert_msg(k < last_model->nseen, "'%s' not issued", want[i].text);
        ck_assert_msg((last_model->seen_flags[k] & mask) == want[i].flags,
                      "'%s': flags 0x%x", want[i].text,
                      last_model->seen_flags[k] & mask);
    }
    tm_session_close(s);
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("timing_host");
    TCase *tc = tcase_create("host");
    tcase_add_test(tc, clock_follows_model);
    tcase_add_test(tc, globaltimer_is_simulated_time);
    tcase_add_test(tc, barrier_events_and_waves);
    tcase_add_test(tc, barrier_events_one_warp);
    tcase_add_test(tc, peek_agrees_with_step);
    tcase_add_test(tc, deadlock_is_reported);
    tcase_add_test(tc, model_errors_fail_the_launch);
    tcase_add_test(tc, kernel_end_after_a_stop);
    tcase_add_test(tc, gpu_model_after_a_fault);
    tcase_add_test(tc, managed_memory_cycles_do_not_follow_the_heap);
    tcase_add_test(tc, bad_parameters_are_refused);
    tcase_add_test(tc, simple_model_is_deterministic);
    tcase_add_test(tc, buffered_flags);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
