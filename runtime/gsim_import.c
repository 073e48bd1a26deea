/*
 * runtime/gsim_import.c: GPGPU-Sim options as `gpu` model parameters
 * (gsim_import.h has the contract).
 *
 * What each option means is taken from GPGPU-Sim's public
 * configurations and their comments (Accel-Sim's tested-cfgs, e.g.
 * SM7_QV100/gpgpusim.config: the cache description
 * "<sector?>:<nsets>:<bsize>:<assoc>,<rep>:<wr>:<alloc>:<wr_alloc>:
 * <set_index_fn>,<mshr>:<N>:<merge>,<mq>:<fifo_entry>", one L2 per
 * memory sub-partition, -gpgpu_clock_domains "<Core>:<Interconnect>:
 * <L2>:<DRAM>", the DRAM timing names) and from GPGPU-Sim's manual.
 * The mapping is one row per option (the memory system's handlers are
 * in gsim_mem.c); options consumed together (the DRAM burst, the SM
 * count) are resolved after every row has run.
 */
#include "runtime/gsim_ctx.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ helpers */

void gsim_set(Ctx *c, const char *key, const GsimOpt *o, const char *fmt,
              ...)
{
    size_t i = 0;
    while (i < c->nent && strcmp(c->ent[i].key, key)) {
        i++;
    }
    if (i == MAX_ENT) {
        return; /* more keys than the table holds: cannot happen */
    }
    Ent *e = &c->ent[i];
    if (i == c->nent) {
        c->nent++;
        snprintf(e->key, sizeof e->key, "%s", key);
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->val, sizeof e->val, fmt, ap);
    va_end(ap);
    snprintf(e->why, sizeof e->why, "%s, line %u", o->name, o->line);
}

void gsim_comment(Ctx *c, const char *fmt, ...)
{
    if (c->ncomment == MAX_COMMENT) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->comment[c->ncomment++], sizeof c->comment[0], fmt, ap);
    va_end(ap);
}

void gsim_leave_out(Ctx *c, const char *fmt, ...)
{
    size_t n = strlen(c->left);
    if (n + 4 >= sizeof c->left) {
        return;
    }
    if (n) {
        c->left[n++] = ';';
        c->left[n++] = ' ';
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->left + n, sizeof c->left - n, fmt, ap);
    va_end(ap);
}

int gsim_unmapped(Ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->why, sizeof c->why, fmt, ap);
    va_end(ap);
    return 1;
}

int gsim_bad(Ctx *c, const GsimOpt *o, const char *expect)
{
    snprintf(c->err, c->errlen, "%s:%u: %s: '%.60s' is not %s", c->file,
             o->line, o->name, o->value, expect);
    return -1;
}

/* A decimal integer, blanks around it allowed. */
bool gsim_i64(const char *s, int64_t *v)
{
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') {
        s++;
    }
    if (!(*s >= '0' && *s <= '9') && *s != '-' && *s != '+') {
        return false;
    }
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (end == s || errno) {
        return false;
    }
    while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r') {
        end++;
    }
    *v = x;
    return !*end;
}

const GsimOpt *gsim_last(const Ctx *c, const char *name)
{
    for (size_t i = c->f->n; i-- > 0;) {
        if (!strcmp(c->f->opt[i].name, name)) {
            return &c->f->opt[i];
        }
    }
    return NULL;
}

/* The last value of an integer option, or dflt when absent or bad. */
int64_t gsim_int_opt(const Ctx *c, const char *name, int64_t dflt)
{
    const GsimOpt *o = gsim_last(c, name);
    int64_t v;
    return o && gsim_i64(o->value, &v) ? v : dflt;
}

int64_t gsim_scheds(const Ctx *c)
{
    int64_t s = gsim_int_opt(c, "-gpgpu_num_sched_per_core", 1);
    return s >= 1 && s <= 64 ? s : 1;
}

/* Split s at sep into at most max fields (s is modified). */
int gsim_split(char *s, char sep, char **field, int max)
{
    int n = 0;
    for (;;) {
        if (n == max) {
            return -1;
        }
        field[n++] = s;
        char *p = strchr(s, sep);
        if (!p) {
            return n;
        }
        *p = 0;
        s = p + 1;
    }
}

char *gsim_trim(char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') {
        s++;
    }
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' ||
                 s[n - 1] == '\r')) {
        s[--n] = 0;
    }
    return s;
}

/* ----------------------------------------------------------- handlers */

static int h_int(Ctx *c, const GsimOpt *o, const Row *r)
{
    int64_t v;
    if (!gsim_i64(o->value, &v) || v < r->lo || v > r->hi) {
        char what[64];
        snprintf(what, sizeof what, "an integer in [%lld, %lld]",
                 (long long)r->lo, (long long)r->hi);
        return gsim_bad(c, o, what);
    }
    gsim_set(c, r->key, o, "%lld", (long long)v);
    return 0;
}

/* Options another row or the SM count uses: a comment in the output. */
static int h_note(Ctx *c, const GsimOpt *o, const Row *r)
{
    int64_t v;
    if (!gsim_i64(o->value, &v) || v < r->lo || v > r->hi) {
        return gsim_bad(c, o, "an integer in range");
    }
    gsim_comment(c, "%s %lld (line %u): %s", o->name, (long long)v, o->line,
            r->key);
    return 0;
}

static int h_sched(Ctx *c, const GsimOpt *o, const Row *r)
{
    (void)r;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", o->value);
    char *f[8];
    int n = gsim_split(buf, ':', f, 8);
    if (n < 1) {
        return gsim_bad(c, o, "a scheduler");
    }
    if (!strcmp(f[0], "lrr") || !strcmp(f[0], "gto")) {
        gsim_set(c, "sched.policy", o, "%s", f[0]);
    } else if (!strcmp(f[0], "two_level_active")) {
        int64_t pool;
        if (n < 2 || !gsim_i64(f[1], &pool) || pool < 1 || pool > 1024) {
            return gsim_bad(c, o, "two_level_active:<active warps>:...");
        }
        gsim_set(c, "sched.policy", o, "two-level");
        gsim_set(c, "sched.pool", o, "%lld", (long long)pool);
        if (n > 2) {
            gsim_leave_out(c, "the inner and outer policies after the pool size "
                         "(the gpu model's two-level is round robin)");
        }
    } else {
        return gsim_unmapped(c, "the gpu model's policies are lrr, gto, oldest "
                           "and two-level");
    }
    return 0;
}

static int h_clocks(Ctx *c, const GsimOpt *o, const Row *r)
{
    (void)r;
    static const char *const key[4] = {"clock.mhz", "icnt.mhz", "l2.mhz",
                                       "dram.mhz"};
    char buf[256];
    snprintf(buf, sizeof buf, "%s", o->value);
    char *f[8];
    if (gsim_split(buf, ':', f, 8) != 4) {
        return gsim_bad(c, o, "<core>:<interconnect>:<L2>:<DRAM> in MHz");
    }
    for (int i = 0; i < 4; i++) {
        char *end;
        double v = strtod(gsim_trim(f[i]), &end);
        if (end == f[i] || *end || !(v > 0 && v <= 1e6)) {
            return gsim_bad(c, o, "<core>:<interconnect>:<L2>:<DRAM> in MHz");
        }
        gsim_set(c, key[i], o, "%g", v);
    }
    return 0;
}

/* -gpgpu_shader_core_pipeline <threads per SM>:<warp size> */
static int h_pipeline(Ctx *c, const GsimOpt *o, const Row *r)
{
    (void)r;
    char buf[64];
    snprintf(buf, sizeof buf, "%s", o->value);
    char *f[4];
    int64_t t, w;
    if (gsim_split(buf, ':', f, 4) != 2 || !gsim_i64(f[0], &t) ||
        !gsim_i64(f[1], &w) || t < 32 || t > (1 << 20) || w < 1 || w > 64) {
        return gsim_bad(c, o, "<threads per SM>:<warp size>");
    }
    gsim_set(c, "occ.max_threads", o, "%lld", (long long)t);
    gsim_set(c, "occ.max_warps", o, "%lld", (long long)(t / 32));
    if (w != 32) {
        gsim_leave_out(c, "warp size %lld (ptxemu's warps are 32 threads)",
                  (long long)w);
    }
    return 0;
}

/* -ptx_opcode_latency_X / _initiation_X: the first entry (ADD) is the
 * unit's; r->key is "unit.CLASS.lat" or "unit.CLASS.ii". */
static int h_oplat(Ctx *c, const GsimOpt *o, const Row *r)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", o->value);
    char *f[16];
    int n = gsim_split(buf, ',', f, 16);
    int64_t v;
    if (n < 1 || !gsim_i64(f[0], &v) || v < 1 || v > (1 << 20)) {
        return gsim_bad(c, o, "a list of cycle counts");
    }
    for (int i = 1; i < n; i++) {
        int64_t x;
        if (!gsim_i64(f[i], &x)) {
            return gsim_bad(c, o, "a list of cycle counts");
        }
    }
    gsim_set(c, r->key, o, "%lld", (long long)v);
    const char *dot = strrchr(r->key, '.');
    if (dot && !strcmp(dot, ".ii")) {
        char k[48];
        snprintf(k, sizeof k, "%.*s.lanes", (int)(dot - r->key), r->key);
        gsim_set(c, k, o, "32"); /* a whole warp per initiation interval */
    }
    if (n > 1) {
        gsim_leave_out(c, "the entries after the first (MAX, MUL, MAD, DIV...: "
                     "the gpu model times a unit class, and multi-"
                     "instruction operations by its expansion tables)");
    }
    return 0;
}

/* -gpgpu_num_X_units: units per SM, ours per scheduler. */
static int h_units(Ctx *c, const GsimOpt *o, const Row *r)
{
    int64_t v;
    if (!gsim_i64(o->value, &v) || v < 0 || v > 1024) {
        return gsim_bad(c, o, "a unit count");
    }
    if (v == 0) {
        return gsim_unmapped(c, "no units: the gpu model has every unit class");
    }
    int64_t s = gsim_scheds(c);
    char k[48];
    snprintf(k, sizeof k, "%s.count", r->key);
    gsim_set(c, k, o, "%lld", (long long)((v + s - 1) / s));
    snprintf(k, sizeof k, "%s.lanes", r->key);
    gsim_set(c, k, o, "32");
    if (v % s) {
        gsim_leave_out(c, "%lld units over %lld schedulers (rounded up)",
                  (long long)v, (long long)s);
    }
    return 0;
}

static int h_coalesce(Ctx *c, const GsimOpt *o, const Row *r)
{
    (void)r;
    int64_t v;
    if (!gsim_i64(o->value, &v)) {
        return gsim_bad(c, o, "a compute capability such as 13 or 60");
    }
    if (v >= 10 && v < 20) {
        gsim_set(c, "lsu.coalesce", o, "cc13");
    } else if (v >= 20 && v < 50) {
        gsim_set(c, "lsu.coalesce", o, "line128");
    } else if (v >= 50 && v < 200) {
        gsim_set(c, "lsu.coalesce", o, "sector32");
    } else {
        return gsim_unmapped(c, "no coalescing rule for %lld", (long long)v);
    }
    return 0;
}

/* The expansion table of a compute capability's major version. */
static int expand_for(Ctx *c, const GsimOpt *o, int64_t major)
{
    static const char *const arch[10] = {
        [1] = "gt200", [2] = "fermi", [3] = "fermi", [7] = "volta",
        [8] = "ampere", [9] = "hopper",
    };
    if (major < 0 || major > 9 || !arch[major]) {
        return gsim_unmapped(c, "no expansion table for compute capability %lld"
                           ".x",
                        (long long)major);
    }
    gsim_set(c, "expand.arch", o, "%s", arch[major]);
    return 0;
}

static int h_cap_major(Ctx *c, const GsimOpt *o, const Row *r)
{
    (void)r;
    int64_t v;
    if (!gsim_i64(o->value, &v) || v < 0 || v > 20) {
        return gsim_bad(c, o, "a compute capability major version");
    }
    return expand_for(c, o, v);
}

static int h_cap_max(Ctx *c, const GsimOpt *o, const Row *r)
{
    (void)r;
    int64_t v;
    if (!gsim_i64(o->value, &v) || v < 0 || v > 200) {
        return gsim_bad(c, o, "a compute capability such as 70");
    }
    return expand_for(c, o, v / 10);
}

static int h_warp_parts(Ctx *c, const GsimOpt *o, const Row *r)
{
    (void)r;
    int64_t v;
    if (!gsim_i64(o->value, &v) || v < 1 || v > 32 || (32 % v)) {
        return gsim_bad(c, o, "a divisor of 32");
    }
    gsim_set(c, "smem.group", o, "%lld", (long long)(32 / v));
    return 0;
}

/* An integer option with named values: r->key "KEY=n0,n1,n2..." gives
 * the value for 0, 1, 2... */
static int h_enum(Ctx *c, const GsimOpt *o, const Row *r)
{
    int64_t v;
    if (!gsim_i64(o->value, &v)) {
        return gsim_bad(c, o, "an integer");
    }
    char buf[128];
    snprintf(buf, sizeof buf, "%s", r->key);
    char *eq = strchr(buf, '=');
    char *f[8];
    int n = eq ? gsim_split(eq + 1, ',', f, 8) : 0;
    if (!eq || v < 0 || v >= n || !*f[v]) {
        return gsim_unmapped(c, "value %lld has no equivalent", (long long)v);
    }
    *eq = 0;
    gsim_set(c, buf, o, "%s", f[v]);
    return 0;
}

static int h_dual_diff(Ctx *c, const GsimOpt *o, const Row *r)
{
    (void)r;
    int64_t v;
    if (!gsim_i64(o->value, &v) || v < 0 || v > 1) {
        return gsim_bad(c, o, "0 or 1");
    }
    if (!v) {
        return gsim_unmapped(c, "dual issue to one unit: the gpu model's unit "
                           "refuses a second instruction while busy");
    }
    gsim_comment(c, "%s 1 (line %u): as the gpu model, whose busy unit refuses "
               "a second instruction",
            o->name, o->line);
    return 0;
}

/* Operand collection: banks and collector units per SM in GPGPU-Sim,
 * per scheduler (sub-core) here when -gpgpu_sub_core_model is on. */
static int h_opcoll(Ctx *c, const GsimOpt *o, const Row *r)
{
    int64_t v;
    if (!gsim_i64(o->value, &v) || v < 1 || v > 1024) {
        return gsim_bad(c, o, "a count of at least 1");
    }
    int64_t s = gsim_int_opt(c, "-gpgpu_sub_core_model", 0) ? gsim_scheds(c) : 1;
    int64_t per = v / s ? v / s : 1;
    gsim_set(c, r->key, o, "%lld", (long long)(per > r->hi ? r->hi : per));
    gsim_set(c, "oc.enabled", o, "true");
    return 0;
}

/* -gpgpu_n_clusters x -gpgpu_n_cores_per_cluster: the SM count, which
 * is the device's (--sms), not the model's. */
static int h_sms(Ctx *c, const GsimOpt *o, const Row *r)
{
    (void)r;
    int64_t v;
    if (!gsim_i64(o->value, &v) || v < 1 || v > 4096) {
        return gsim_bad(c, o, "a count from 1 to 4096");
    }
    return 2;
}

/* The option rows: every option with an equivalent. */
static const Row rows[] = {
    {"-gpgpu_n_clusters", h_sms, NULL, 0, 0},
    {"-gpgpu_n_cores_per_cluster", h_sms, NULL, 0, 0},
    {"-gpgpu_shader_registers", h_int, "occ.regs", 1, 1 << 26},
    {"-gpgpu_shader_cta", h_int, "occ.max_ctas", 1, 1 << 16},
    {"-gpgpu_shader_core_pipeline", h_pipeline, NULL, 0, 0},
    {"-gpgpu_num_sched_per_core", h_int, "sched.per_sm", 1, 64},
    {"-gpgpu_scheduler", h_sched, NULL, 0, 0},
    {"-gpgpu_max_insn_issue_per_warp", h_int, "issue.width", 1, 8},
    {"-gpgpu_dual_issue_diff_exec_units", h_dual_diff, NULL, 0, 0},
    {"-gpgpu_sub_core_model", h_note, "splits units, banks and collectors "
     "over the schedulers", 0, 1},
    {"-gpgpu_num_sp_units", h_units, "unit.fp32", 0, 0},
    {"-gpgpu_num_int_units", h_units, "unit.int", 0, 0},
    {"-gpgpu_num_dp_units", h_units, "unit.fp64", 0, 0},
    {"-gpgpu_num_sfu_units", h_units, "unit.sfu", 0, 0},
    {"-gpgpu_num_tensor_core_units", h_units, "unit.tensor", 0, 0},
    {"-ptx_opcode_latency_int", h_oplat, "unit.int.lat", 0, 0},
    {"-ptx_opcode_initiation_int", h_oplat, "unit.int.ii", 0, 0},
    {"-ptx_opcode_latency_fp", h_oplat, "unit.fp32.lat", 0, 0},
    {"-ptx_opcode_initiation_fp", h_oplat, "unit.fp32.ii", 0, 0},
    {"-ptx_opcode_latency_dp", h_oplat, "unit.fp64.lat", 0, 0},
    {"-ptx_opcode_initiation_dp", h_oplat, "unit.fp64.ii", 0, 0},
    {"-ptx_opcode_latency_sfu", h_oplat, "unit.sfu.lat", 0, 0},
    {"-ptx_opcode_initiation_sfu", h_oplat, "unit.sfu.ii", 0, 0},
    {"-ptx_opcode_latency_tesnor", h_oplat, "unit.tensor.lat", 0, 0},
    {"-ptx_opcode_latency_tensor", h_oplat, "unit.tensor.lat", 0, 0},
    {"-ptx_opcode_initiation_tensor", h_oplat, "unit.tensor.ii", 0, 0},
    {"-gpgpu_num_reg_banks", h_opcoll, "oc.banks", 0, 64},
    {"-gpgpu_operand_collector_num_units_gen", h_opcoll, "oc.collectors", 0,
     64},
    {"-gpgpu_reg_file_port_throughput", h_int, "oc.ports", 1, 16},
    {"-gpgpu_shmem_size", h_int, "occ.shared", 0, 1ll << 32},
    {"-gpgpu_shmem_num_banks", h_int, "smem.banks", 1, 64},
    {"-gpgpu_shmem_limited_broadcast", h_int, "smem.one_broadcast", 0, 1},
    {"-gpgpu_shmem_warp_parts", h_warp_parts, NULL, 0, 0},
    {"-gpgpu_smem_latency", h_int, "smem.latency", 1, 1 << 20},
    {"-gpgpu_coalesce_arch", h_coalesce, NULL, 0, 0},
    {"-gpgpu_compute_capability_major", h_cap_major, NULL, 0, 0},
    {"-gpgpu_compute_capability_minor", h_note, "the minor version "
     "(--arch sm_XY)", 0, 9},
    {"-gpgpu_ptx_force_max_capability", h_cap_max, NULL, 0, 0},
    {"-gpgpu_kernel_launch_latency", h_int, "launch.latency", 0, 1ll << 32},
    {"-gpgpu_cache:dl1", gsim_h_cache, "l1d", 0, 0},
    {"-gpgpu_cache:dl2", gsim_h_cache, "l2", 0, 0},
    {"-gpgpu_cache:il1", gsim_h_cache, "l1i", 0, 0},
    {"-gpgpu_const_cache:l1", gsim_h_cache, "l1c", 0, 0},
    {"-gpgpu_tex_cache:l1", gsim_h_cache, "l1t", 0, 0},
    {"-gpgpu_l1_latency", h_int, "l1d.lat", 1, 1 << 20},
    {"-gpgpu_l1_banks", h_int, "l1d.banks", 1, 64},
    {"-gpgpu_l2_rop_latency", h_int, "l2.lat", 1, 1 << 20},
    {"-gpgpu_n_mem", h_int, "mem.parts", 1, 1024},
    {"-gpgpu_n_sub_partition_per_mchannel", h_note, "multiplies the L2 "
     "sets: one slice per channel", 1, 64},
    {"-gpgpu_memory_partition_indexing", h_enum, "map.hash=linear,xor,poly",
     0, 0},
    {"-gpgpu_dram_timing_opt", gsim_h_dram_timing, NULL, 0, 0},
    {"-gpgpu_dram_partition_queues", gsim_h_part_queues, NULL, 0, 0},
    {"-gpgpu_dram_scheduler", h_enum, "dram.sched=fifo,frfcfs", 0, 0},
    {"-gpgpu_frfcfs_dram_sched_queue_size", h_int, "dram.rdq", 1, 1 << 20},
    {"-gpgpu_clock_domains", h_clocks, NULL, 0, 0},
    {"-gpgpu_dram_buswidth", gsim_h_burst, NULL, 1, 1024},
    {"-gpgpu_dram_burst_length", gsim_h_burst, NULL, 1, 1024},
    {"-dram_data_command_freq_ratio", gsim_h_burst, NULL, 1, 64},
    {"-gpgpu_n_mem_per_ctrlr", gsim_h_burst, NULL, 1, 64},
    {"-network_mode", h_enum, "icnt.model=,crossbar,crossbar", 0, 0},
    {"-icnt_flit_size", h_int, "icnt.flit", 1, 1 << 16},
    {"-icnt_in_buffer_limit", h_int, "icnt.inbuf", 1, 1 << 20},
    {"-icnt_out_buffer_limit", h_int, "icnt.outbuf", 1, 1 << 20},
};

/* Why a known option has no row (prefix match). */
static const struct {
    const char *prefix, *why;
} no_row[] = {
    {"-gpgpu_ptx_", "functional simulation"},
    {"-gpgpu_stack_size_limit", "a device limit"},
    {"-gpgpu_heap_size_limit", "a device limit (--heap)"},
    {"-gpgpu_registers_per_block", "a device limit"},
    {"-gpgpu_shmem_per_block", "a device limit"},
    {"-gpgpu_memlatency_stat", "statistics output"},
    {"-gpgpu_runtime_stat", "statistics output"},
    {"-gpgpu_runtime_", "a device limit"},
    {"-enable_ptx_file_line_stats", "statistics output"},
    {"-visualizer", "statistics output"},
    {"-trace", "tracing output"},
    {"-gpgpu_pipeline_widths", "pipeline-register widths: the gpu model "
     "has none between issue, operand collection and execution"},
    {"-dram_latency", "a fixed DRAM latency: the gpu model's DRAM is timed "
     "by its commands"},
    {"-gpgpu_gmem_skip_L1D", "global-only L1 bypass: mem.l1d = false "
     "bypasses local memory too"},
    {"-gpgpu_adaptive_cache_config", "the L1/shared carve-out is fixed: "
     "occ.shared and the L1's sets x ways"},
    {"-gpgpu_shmem_size", "the L1/shared carve-out is fixed: occ.shared"},
    {"-gpgpu_tensor_core_avail", "the gpu model always has tensor units"},
    {"-gpgpu_enable_specialized_operand_collector", "the gpu model's "
     "collectors are generic"},
    {"-gpgpu_operand_collector_num_", "collector ports: the gpu model's "
     "collectors read oc.collector_reads operands a cycle"},
    {"-icnt_subnets", "the crossbar has a request and a reply network"},
    {"-icnt_arbiter_algo", "the crossbar arbitrates round robin"},
    {"-gpgpu_mem_addr_mapping", "an address bit map: the gpu model maps by "
     "map.hash, map.gran and map.row_bytes"},
    {"-gpgpu_mem_address_mask", "an address bit map: the gpu model maps by "
     "map.hash, map.gran and map.row_bytes"},
    {"-dram_bnk", "bank indexing: the gpu model interleaves banks by "
     "permutation (addrmap.c)"},
    {"-dram_dual_bus_interface", "the DRAM channel has one command bus"},
    {"-gpgpu_clock_gated_lanes", "power modelling"},
    {"-gpgpu_TB_launch_latency", "per-CTA launch latency: the gpu model "
     "times the kernel's launch (launch.latency)"},
};

/* ------------------------------------------------------- after the rows */

static void resolve_sms(Ctx *c)
{
    const GsimOpt *cl = gsim_last(c, "-gpgpu_n_clusters");
    const GsimOpt *co = gsim_last(c, "-gpgpu_n_cores_per_cluster");
    if (cl && co) {
        long long n = (long long)(gsim_int_opt(c, cl->name, 1) *
                                  gsim_int_opt(c, co->name, 1));
        gsim_comment(c, "SMs: %s x %s (lines %u, %u) = %lld, the device's "
                   "option: run with --sms %lld",
                cl->name, co->name, cl->line, co->line, n, n);
    } else if (cl || co) {
        const GsimOpt *o = cl ? cl : co;
        gsim_comment(c, "SMs: %s %s (line %u) without %s: run with --sms N",
                o->name, o->value, o->line,
                cl ? "-gpgpu_n_cores_per_cluster" : "-gpgpu_n_clusters");
    }
}

/* Whether a later option of the same name replaces the one at i. */
static bool superseded(const Ctx *c, size_t i)
{
    return gsim_last(c, c->f->opt[i].name) != &c->f->opt[i];
}

int gsim_convert(const GsimFile *f, const char *file, FILE *out,
                 FILE *notes, char *err, size_t errlen)
{
    Ctx *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    *c = (Ctx){.f = f, .file = file, .notes = notes, .err = err,
               .errlen = errlen};
    /* a later option wins: earlier ones still get their values checked */
    int rc = 0;
    for (size_t i = 0; i < f->n && !rc; i++) {
        const GsimOpt *o = &f->opt[i];
        if (superseded(c, i)) {
            fprintf(notes, "%s:%u: %s: superseded by line %u\n", file,
                    o->line, o->name, gsim_last(c, o->name)->line);
            c->superseded++;
            continue;
        }
        const Row *r = NULL;
        for (size_t k = 0; !r && k < sizeof rows / sizeof rows[0]; k++) {
            if (!strcmp(rows[k].opt, o->name)) {
                r = &rows[k];
            }
        }
        c->why[0] = c->left[0] = 0;
        int k = r ? r->h(c, o, r) : 1;
        if (k < 0) {
            rc = -1;
            break;
        }
        if (k == 1) {
            const char *why = c->why[0] ? c->why : NULL;
            for (size_t j = 0; !why && j < sizeof no_row / sizeof no_row[0];
                 j++) {
                if (!strncmp(o->name, no_row[j].prefix,
                             strlen(no_row[j].prefix))) {
                    why = no_row[j].why;
                }
            }
            fprintf(notes, "%s:%u: unmapped: %s %.60s (%s)\n", file, o->line,
                    o->name, o->value,
                    why ? why : "no equivalent in the gpu model");
            c->unmapped++;
            continue;
        }
        c->mapped++;
        if (c->left[0]) {
            fprintf(notes, "%s:%u: partly mapped: %s: left out: %s\n", file,
                    o->line, o->name, c->left);
            c->partial++;
        }
    }
    if (!rc) {
        gsim_resolve_burst(c);
        resolve_sms(c);
        fprintf(out,
                "# A ptxemu timing configuration for the `gpu` model, "
                "imported from\n# %s (a GPGPU-Sim configuration) by "
                "`ptxemu config import`.\n# Each value names the option "
                "and line it came from; the options without\n# an "
                "equivalent were listed by the import.  Run:\n"
                "#   ptxemu exec --sms N --timing gpu --timing-config "
                "THIS-FILE -- ./app\n",
                file);
        for (size_t i = 0; i < c->ncomment; i++) {
            fprintf(out, "# %s\n", c->comment[i]);
        }
        fprintf(out, "gpu.arch = ampere          # the base for what is "
                     "not set below\n");
        fprintf(out, "mem.model = hier           # caches, interconnect, "
                     "L2 slices and DRAM, as GPGPU-Sim\n");
        for (size_t i = 0; i < c->nent; i++) {
            char kv[96];
            snprintf(kv, sizeof kv, "%s = %s", c->ent[i].key, c->ent[i].val);
            fprintf(out, "%-26s # %s\n", kv, c->ent[i].why);
        }
        fprintf(notes, "%s: %zu options: %u mapped (%u in part), %u "
                       "unmapped, %u superseded\n",
                file, f->n, c->mapped, c->partial, c->unmapped,
                c->superseded);
    }
    free(c);
    return rc;
}
