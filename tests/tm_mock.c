/*
 * tests/tm_mock.c: the mock timing host (contract in tests/tm_mock.h).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tm_mock.h"
#include "timing/tm.h"

#define HOST(h) ((MockHost *)(h))

/* ---- parameters ---- */

static const ptxemu_tm_param *find(const ptxemu_tm_param *t, uint32_t n,
                                   const char *name)
{
    for (uint32_t i = 0; i < n; i++) {
        if (strcmp(t[i].name, name) == 0) {
            return &t[i];
        }
    }
    return NULL;
}

static const ptxemu_tm_param *declared_quiet(const MockHost *m,
                                             const char *name)
{
    const ptxemu_tm_param *p = find(m->ops.params, m->ops.nparams, name);
    for (uint32_t i = 0; !p && i < m->ndecls; i++) {
        p = find(m->decl[i], m->ndecl[i], name);
    }
    return p;
}

static const ptxemu_tm_param *declared(const MockHost *m, const char *name)
{
    const ptxemu_tm_param *p = declared_quiet(m, name);
    if (p) {
        return p;
    }
    ck_abort_msg("parameter '%s' read but not declared", name);
    return NULL;
}

static const char *value(const MockHost *m, const char *name)
{
    const ptxemu_tm_param *p = declared(m, name);
    size_t n = strlen(name);
    for (uint32_t i = m->nsetkv; i-- > 0;) {
        if (strncmp(m->set[i], name, n) == 0 && m->set[i][n] == '=') {
            return m->set[i] + n + 1;
        }
    }
    return p->def;
}

static int m_declare(ptxemu_tm_host *h, const ptxemu_tm_param *p, uint32_t n)
{
    MockHost *m = HOST(h);
    for (uint32_t i = 0; i < m->ndecls; i++) {
        if (m->decl[i] == p) {
            return 0; /* the same table again (a second create) */
        }
    }
    ck_assert_uint_lt(m->ndecls, MOCK_MAXDECL);
    for (uint32_t i = 0; i < n; i++) {
        ck_assert_msg(!declared_quiet(m, p[i].name), "parameter %s declared "
                      "twice", p[i].name);
    }
    m->decl[m->ndecls] = p;
    m->ndecl[m->ndecls++] = n;
    return 0;
}

/* The scale of an integer's k/M/G suffix (ptxemu_timing.h: x2^10,
 * 2^20, 2^30), as the real host reads it. */
static int64_t suffix(const char *end)
{
    return *end == 'k' ? 1 << 10 : *end == 'M' ? 1 << 20
                                  : *end == 'G' ? 1 << 30 : 1;
}

static int64_t m_int(ptxemu_tm_host *h, const char *name)
{
    ck_assert_int_eq(declared(HOST(h), name)->type, PTXEMU_TM_P_INT);
    char *end;
    int64_t v = strtoll(value(HOST(h), name), &end, 0);
    return v * suffix(end);
}

static uint64_t m_uint(ptxemu_tm_host *h, const char *name)
{
    ck_assert_int_eq(declared(HOST(h), name)->type, PTXEMU_TM_P_UINT);
    char *end;
    uint64_t v = strtoull(value(HOST(h), name), &end, 0);
    return v * (uint64_t)suffix(end);
}

static double m_double(ptxemu_tm_host *h, const char *name)
{
    ck_assert_int_eq(declared(HOST(h), name)->type, PTXEMU_TM_P_DOUBLE);
    return strtod(value(HOST(h), name), NULL);
}

static bool m_bool(ptxemu_tm_host *h, const char *name)
{
    const char *v = value(HOST(h), name);
    return strcmp(v, "1") == 0 || strcmp(v, "true") == 0;
}

static const char *m_string(ptxemu_tm_host *h, const char *name)
{
    return value(HOST(h), name);
}

static int m_stat(ptxemu_tm_host *h, const char *path, const uint64_t *ctr,
                  const char *help)
{
    MockHost *m = HOST(h);
    ck_assert_ptr_nonnull(help);
    ck_assert_uint_lt(m->nstat, MOCK_MAXSTAT);
    for (uint32_t i = 0; i < m->nstat; i++) {
        ck_assert_msg(strcmp(m->stat[i].path, path) != 0,
                      "stat %s registered twice", path);
    }
    snprintf(m->stat[m->nstat].path, sizeof m->stat[0].path, "%s", path);
    m->stat[m->nstat++].ctr = ctr;
    return 0;
}

static uint32_t m_num_sms(ptxemu_tm_host *h)
{
    return HOST(h)->nsms;
}

/* ---- residency ---- */

static int m_cta_next(ptxemu_tm_host *h, uint32_t sm, ptxemu_tm_cta **out)
{
    MockHost *m = HOST(h);
    ck_assert_uint_lt(sm, m->nsms);
    const ptxemu_tm_kernel *k = m->in_child ? &m->ck : &m->k;
    uint32_t *next = m->in_child ? &m->cnext : &m->next_cta;
    if (*next == k->nctas) {
        return PTXEMU_TM_NONE;
    }
    ptxemu_tm_cta *c = m->in_child ? &m->ccta[(*next)++]
                                   : &m->cta[(*next)++];
    c->sm = sm;
    c->live = 1;
    *out = c;
    return PTXEMU_TM_OK;
}

static uint32_t m_cta_warps(ptxemu_tm_host *h, ptxemu_tm_cta *c,
                            ptxemu_tm_warp *const **warps)
{
    (void)h;
    ck_assert(c->live);
    *warps = c->wp;
    return c->nwarps;
}

static void m_cta_retire(ptxemu_tm_host *h, ptxemu_tm_cta *c)
{
    ck_assert_msg(c->live, "cta_retire of CTA %u that is not live", c->id);
    ck_assert_msg(c->exited == c->nwarps, "CTA %u retired before its warps "
                                          "exited", c->id);
    c->live = 0;
    c->retired = 1;
    if (HOST(h)->in_child) {
        HOST(h)->cretired++;
    } else {
        HOST(h)->retired++;
    }
}

/* ---- warps ---- */

static const MockOp *cur(const MockHost *m, const ptxemu_tm_warp *w)
{
    ck_assert_uint_lt(w->pc, m->nops[w->prog]);
    return &m->prog[w->prog][w->pc];
}

static const ptxemu_tm_insn *m_peek(ptxemu_tm_host *h, ptxemu_tm_warp *w,
                                    uint32_t *active, uint32_t *exec)
{
    MockHost *m = HOST(h);
    ck_assert_msg(w->cta->live, "peek on a warp of a dead CTA");
    if (w->state != PTXEMU_TM_WARP_READY) {
        return NULL;
    }
    *active = *exec = 0xffffffffu;
    return cur(m, w)->insn;
}

static void event(MockHost *m, ptxemu_tm_event ev, ptxemu_tm_cta *c,
                  ptxemu_tm_warp *w)
{
    if (m->ops.event) {
        m->ops.event(m->tm, ev, c, w);
    }
}

/* Release the CTA's barrier if every warp that has not exited arrived. */
static void try_release(MockHost *m, ptxemu_tm_cta *c, ptxemu_tm_warp *w,
                        int bar)
{
    if (bar == 2 || c->arrived == 0 || c->arrived < c->nwarps - c->exited) {
        return;
    }
    for (uint32_t i = 0; i < c->nwarps; i++) {
        if (c->w[i].state == PTXEMU_TM_WARP_BARRIER) {
            c->w[i].state = PTXEMU_TM_WARP_READY;
        }
    }
    c->arrived = 0;
    event(m, PTXEMU_TM_EV_BARRIER_RELEASE, c, w);
}

/* The grid-wide barrier: every warp of the grid not exited arrived. */
static void grid_arrive(MockHost *m, ptxemu_tm_warp *w)
{
    uint32_t live = 0;
    for (uint32_t i = 0; i < m->k.nctas; i++) {
        live += m->cta[i].nwarps - m->cta[i].exited;
    }
    if (++m->garrived < live) {
        return;
    }
    for (uint32_t i = 0; i < m->k.nctas; i++) {
        for (uint32_t j = 0; j < m->cta[i].nwarps; j++) {
            if (m->cta[i].w[j].state == PTXEMU_TM_WARP_BARRIER) {
                m->cta[i].w[j].state = PTXEMU_TM_WARP_READY;
            }
        }
    }
    m->garrived = 0;
    event(m, PTXEMU_TM_EV_BARRIER_RELEASE, w->cta, w);
}

static void fill_ctas(struct ptxemu_tm_cta *cta, uint32_t n,
                      const ptxemu_tm_kernel *k, const uint32_t *prog_of,
                      uint32_t prog_all, const uint32_t *nops)
{
    for (uint32_t i = 0; i < n; i++) {
        ptxemu_tm_cta *c = &cta[i];
        memset(c, 0, sizeof *c);
        c->id = i;
        c->nwarps = k->warps_per_cta;
        for (uint32_t j = 0; j < c->nwarps; j++) {
            c->w[j].cta = c;
            c->w[j].idx = j;
            c->w[j].prog = j + (prog_of ? prog_of[i] : prog_all);
            c->wp[j] = &c->w[j];
            ck_assert_uint_lt(c->w[j].prog, MOCK_MAXW);
            ck_assert_msg(i >= k->nctas || nops[c->w[j].prog] > 0,
                          "warp %u of CTA %u has no program", j, i);
        }
    }
}

/* Time the child grid to its end, inside the parent's step. */
static void run_child(MockHost *m)
{
    ck_assert(!m->in_child);
    ck_assert_uint_le(m->ck.nctas, 4);
    m->in_child = 1;
    m->cnext = m->cretired = 0;
    fill_ctas(m->ccta, 4, &m->ck, NULL, m->child_prog, m->nops);
    m->ck.start_cycle = 0;
    for (uint32_t i = 0; i < m->nsms; i++) {
        if (m->time[i] > m->ck.start_cycle) {
            m->ck.start_cycle = m->time[i];
        }
    }
    ck_assert_int_eq(m->ops.kernel_begin(m->tm, &m->ck), PTXEMU_TM_OK);
    uint64_t now = 0;
    int rc;
    while ((rc = m->ops.cycle(m->tm, &now)) == 1) {
    }
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq(m->ops.kernel_end(m->tm, &m->child_end),
                     PTXEMU_TM_OK);
    ck_assert_uint_eq(m->cretired, m->ck.nctas);
    m->in_child = 0;
}

static int m_step(ptxemu_tm_host *h, ptxemu_tm_warp *w, ptxemu_tm_step *out)
{
    MockHost *m = HOST(h);
    ptxemu_tm_cta *c = w->cta;
    ck_assert_msg(c->live, "step on a warp of a dead CTA");
    ck_assert_msg(w->state == PTXEMU_TM_WARP_READY,
                  "step on a warp that is not ready (CTA %u warp %u)", c->id,
                  w->idx);
    ck_assert_uint_ge(out->struct_size, sizeof *out);
    const MockOp *op = cur(m, w);
    w->issue[w->pc] = m->time[c->sm];
    w->pc++;
    memset(out, 0, sizeof *out);
    out->struct_size = sizeof *out;
    out->insn = op->insn;
    out->active = out->exec = 0xffffffffu;
    out->nacc = op->nacc;
    out->acc = op->acc;
    out->async_token = op->token;
    out->nwait = op->nwait;
    out->wait_tokens = op->wait;
    if (op->fault) {
        return PTXEMU_TM_FAULT;
    }
    ck_assert_uint_lt(op->arrive, MOCK_MAXCNT);
    ck_assert_uint_lt(op->poll, MOCK_MAXCNT);
    if (op->arrive) {
        m->count[op->arrive]++;
    }
    if (op->poll) {
        w->failed = m->count[op->poll] < op->need;
    }
    if (op->loop && w->failed) {
        ck_assert_uint_lt(op->to, m->nops[w->prog]);
        w->pc = op->to;
    }
    if (op->child) {
        run_child(m);
    }
    if (op->insn->flags & PTXEMU_TM_I_EXIT) {
        w->state = PTXEMU_TM_WARP_EXITED;
        c->exited++;
        event(m, PTXEMU_TM_EV_WARP_EXIT, c, w);
        try_release(m, c, w, 1);
        if (c->exited == c->nwarps) {
            c->done_sent = 1;
            event(m, PTXEMU_TM_EV_CTA_DONE, c, NULL);
        }
    } else if (op->bar == 3) {
        w->state = PTXEMU_TM_WARP_BARRIER;
        grid_arrive(m, w);
    } else if (op->bar) {
        w->state = PTXEMU_TM_WARP_BARRIER;
        c->arrived++;
        try_release(m, c, w, op->bar);
    }
    return PTXEMU_TM_OK;
}

static int m_state(ptxemu_tm_host *h, ptxemu_tm_warp *w)
{
    (void)h;
    return w->state;
}

static void m_info(ptxemu_tm_host *h, ptxemu_tm_warp *w,
                   ptxemu_tm_warp_info *out)
{
    (void)h;
    out->cta = w->cta->id;
    out->warp = w->idx;
    out->sm = w->cta->sm;
    out->lanes = 32;
    out->slot = w->idx;
}

static void m_set_time(ptxemu_tm_host *h, uint32_t sm, uint64_t t)
{
    MockHost *m = HOST(h);
    ck_assert_uint_lt(sm, m->nsms);
    ck_assert_msg(t >= m->time[sm], "time went back on SM %u: %llu < %llu",
                  sm, (unsigned long long)t,
                  (unsigned long long)m->time[sm]);
    m->time[sm] = t;
    m->nset[sm]++;
}

static void m_set_clock(ptxemu_tm_host *h, double mhz)
{
    HOST(h)->mhz = mhz;
}

static void m_error(ptxemu_tm_host *h, const char *msg)
{
    snprintf(HOST(h)->err, sizeof HOST(h)->err, "%s", msg);
}

static void m_log(ptxemu_tm_host *h, const char *msg)
{
    (void)msg;
    HOST(h)->nlog++;
}

static uint32_t m_threads(ptxemu_tm_host *h)
{
    (void)h;
    return 1;
}

static void m_parallel(ptxemu_tm_host *h, int on)
{
    MockHost *m = HOST(h);
    ck_assert_int_ne(m->in_section, on);
    m->in_section = on;
}

static uint64_t m_ahead(ptxemu_tm_host *h)
{
    return HOST(h)->ahead_at;
}

static void m_drop_fault(ptxemu_tm_host *h, uint32_t sm)
{
    MockHost *m = HOST(h);
    ck_assert_int_eq(m->in_section, 0);
    ck_assert_uint_lt(m->ndropped, MOCK_MAXSM);
    m->dropped[m->ndropped++] = sm;
}

/* ---- set-up ---- */

void mock_ahead(MockHost *m, uint64_t q)
{
    m->ahead_q = q;
    m->api.threads = m_threads;
    m->api.parallel = m_parallel;
    m->api.ahead = m_ahead;
    m->api.drop_fault = m_drop_fault;
}

void mock_init_model(MockHost *m, uint32_t nsms, ptxemu_tm_init_fn init)
{
    memset(m, 0, sizeof *m);
    ck_assert_uint_le(nsms, MOCK_MAXSM);
    m->nsms = nsms;
    ptxemu_tm_host_api *a = &m->api;
    a->abi_version = PTXEMU_TM_ABI_VERSION;
    a->struct_size = sizeof *a;
    a->declare_params = m_declare;
    a->param_int = m_int;
    a->param_uint = m_uint;
    a->param_double = m_double;
    a->param_bool = m_bool;
    a->param_string = m_string;
    a->stat = m_stat;
    a->num_sms = m_num_sms;
    a->cta_next = m_cta_next;
    a->cta_warps = m_cta_warps;
    a->cta_retire = m_cta_retire;
    a->warp_peek = m_peek;
    a->warp_step = m_step;
    a->warp_state = m_state;
    a->warp_info = m_info;
    a->set_time = m_set_time;
    a->set_clock_mhz = m_set_clock;
    a->error = m_error;
    a->log = m_log;
    m->ops.abi_version = PTXEMU_TM_ABI_VERSION;
    m->ops.struct_size = sizeof m->ops;
    ck_assert_int_eq(init(PTXEMU_TM_ABI_VERSION, &m->ops), 0);
    mock_grid(m, 1, 1);
}

void mock_init(MockHost *m, uint32_t nsms)
{
    mock_init_model(m, nsms, tm_simple_init);
    /* The tests' baseline: one scheduler, no launch latency, integer
     * adds of latency 4 issuing every cycle, exits and barriers every
     * cycle.  Each test states what else it sets. */
    mock_set(m, "schedulers_per_sm=1");
    mock_set(m, "launch_latency=0");
    mock_set(m, "lat.int=4");
    mock_set(m, "ii.int=1");
    mock_set(m, "ii.ctrl=1");
    mock_set(m, "ii.sync=1");
    mock_grid(m, 1, 1);
}

void mock_set(MockHost *m, const char *kv)
{
    ck_assert_uint_lt(m->nsetkv, MOCK_MAXSET);
    m->set[m->nsetkv++] = kv;
}

void mock_grid(MockHost *m, uint32_t nctas, uint32_t nwarps)
{
    ck_assert_uint_le(nctas, MOCK_MAXCTA);
    ck_assert_uint_le(nwarps, MOCK_MAXW);
    memset(&m->k, 0, sizeof m->k);
    m->k.struct_size = sizeof m->k;
    m->k.name = "mock";
    m->k.grid[0] = nctas;
    m->k.grid[1] = m->k.grid[2] = 1;
    m->k.block[0] = 32 * nwarps;
    m->k.block[1] = m->k.block[2] = 1;
    m->k.cluster[0] = m->k.cluster[1] = m->k.cluster[2] = 1;
    m->k.nctas = nctas;
    m->k.threads_per_cta = 32 * nwarps;
    m->k.warps_per_cta = nwarps;
    m->k.carveout = -1;                 /* no preference (ABI 2) */
}

const ptxemu_tm_insn *mock_insn(MockHost *m, unsigned unit, unsigned flags,
                                unsigned wait, unsigned space, uint32_t src,
                                uint32_t dst)
{
    ck_assert_uint_lt(m->ninsn, MOCK_MAXINSN);
    MockInsn *x = &m->insn[m->ninsn];
    x->in.struct_size = sizeof x->in;
    x->in.unit = (uint8_t)unit;
    x->in.flags = (uint16_t)flags;
    x->in.wait = (uint8_t)wait;
    x->in.space = (uint8_t)space;
    x->in.opname = "mock";
    x->in.text = "mock";
    x->in.func = "mock";
    x->in.pc = m->ninsn++;
    if (src != MOCK_NOSLOT) {
        x->src[x->in.nsrc++] = src;
    }
    if (dst != MOCK_NOSLOT) {
        x->dst[x->in.ndst++] = dst;
    }
    x->in.src = x->src;
    x->in.dst = x->dst;
    return &x->in;
}

MockOp *mock_op(MockHost *m, uint32_t w, const ptxemu_tm_insn *in)
{
    ck_assert_uint_lt(w, MOCK_MAXW);
    ck_assert_uint_lt(m->nops[w], MOCK_MAXOPS);
    MockOp *op = &m->prog[w][m->nops[w]++];
    memset(op, 0, sizeof *op);
    op->insn = in;
    return op;
}

MockOp *mock_add(MockHost *m, uint32_t w, uint32_t src, uint32_t dst)
{
    return mock_op(m, w,
                   mock_insn(m, PTXEMU_TM_UNIT_INT, 0, 0, 0, src, dst));
}

MockOp *mock_exit(MockHost *m, uint32_t w)
{
    return mock_op(m, w,
                   mock_insn(m, PTXEMU_TM_UNIT_CTRL, PTXEMU_TM_I_EXIT, 0, 0,
                             MOCK_NOSLOT, MOCK_NOSLOT));
}

void mock_chain(MockHost *m, uint32_t w, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        mock_add(m, w, i ? i - 1 : MOCK_NOSLOT, i);
    }
    mock_exit(m, w);
}

void *mock_create(MockHost *m)
{
    m->tm = m->ops.create(&m->api, m);
    return m->tm;
}

static void reset_grid(MockHost *m)
{
    m->next_cta = 0;
    m->retired = 0;
    m->garrived = 0;
    memset(m->count, 0, sizeof m->count);
    fill_ctas(m->cta, MOCK_MAXCTA, &m->k, m->cta_prog, 0, m->nops);
}

int mock_run(MockHost *m, uint64_t *cycles)
{
    ck_assert_ptr_nonnull(m->tm);
    reset_grid(m);
    m->ahead_at = m->ahead_q ? (m->k.start_cycle / m->ahead_q + 1) *
                                   m->ahead_q
                             : 0;
    ck_assert_int_eq(m->ops.kernel_begin(m->tm, &m->k), PTXEMU_TM_OK);
    uint64_t now = m->k.start_cycle, prev = now;
    int rc;
    m->ncycle_calls = 0;
    while ((rc = m->ops.cycle(m->tm, &now)) == 1) {
        ck_assert_msg(now > prev, "cycle() did not advance time");
        prev = now;
        ck_assert_uint_lt(++m->ncycle_calls, 10000000);
        if (m->ahead_q) {
            /* no SM ran to or past the host's look */
            for (uint32_t i = 0; i < m->nsms; i++) {
                ck_assert_uint_lt(m->time[i], m->ahead_at);
            }
            if (now >= m->ahead_at) {
                m->ahead_at = (now / m->ahead_q + 1) * m->ahead_q;
            }
        }
    }
    uint64_t end = 0;
    ck_assert_int_eq(m->ops.kernel_end(m->tm, &end), PTXEMU_TM_OK);
    if (rc == 0) {
        ck_assert_uint_eq(end, now);
        ck_assert_uint_eq(m->retired, m->k.nctas);
    }
    *cycles = end - m->k.start_cycle;
    return rc;
}

uint64_t mock_run_to_fault(MockHost *m)
{
    ck_assert_ptr_nonnull(m->tm);
    reset_grid(m);
    m->ahead_at = m->ahead_q ? (m->k.start_cycle / m->ahead_q + 1) *
                                   m->ahead_q
                             : 0;
    ck_assert_int_eq(m->ops.kernel_begin(m->tm, &m->k), PTXEMU_TM_OK);
    uint64_t now = m->k.start_cycle;
    int rc;
    while ((rc = m->ops.cycle(m->tm, &now)) == 1) {
    }
    ck_assert_int_eq(rc, PTXEMU_TM_FAULT);
    return now;
}

uint64_t mock_time(MockHost *m)
{
    ck_assert_msg(mock_create(m) != NULL, "create refused: %s", m->err);
    uint64_t cycles = 0;
    int rc = mock_run(m, &cycles);
    ck_assert_msg(rc == 0, "cycle() returned %d: %s", rc, m->err);
    return cycles;
}

void mock_fini(MockHost *m)
{
    if (m->tm) {
        m->ops.destroy(m->tm);
        m->tm = NULL;
    }
}

uint64_t mock_stat(const MockHost *m, const char *path)
{
    for (uint32_t i = 0; i < m->nstat; i++) {
        if (strcmp(m->stat[i].path, path) == 0) {
            return *m->stat[i].ctr;
        }
    }
    ck_abort_msg("no statistic %s", path);
    return 0;
}
