/*
 * timing/gpu/config.c: the `gpu` model's parameter table, the gpu.arch
 * presets and the validated reading into a GpuConfig.
 *
 * One row list (GPU_NUM_PARAMS) makes the table the host parses and the
 * reader, so a parameter cannot be declared without being read.  Numeric
 * parameters default to -1, "the preset's value": each row carries its
 * value for every preset (the columns of `presets` below).
 *
 * ampere: an NVIDIA A100 (sm_80) SM, 4 sub-cores:
 *  - occupancy limits: CUDA C++ Programming Guide, "Technical
 *    Specifications per Compute Capability", 8.0 (2048 threads, 64
 *    warps, 32 CTAs, 64K registers, 164 KB shared memory per SM, 1 KB
 *    reserved per CTA); allocation units (256 registers per warp, 128 B
 *    of shared memory) from NVIDIA's CUDA occupancy calculator;
 *  - per sub-core 16 INT32, 16 FP32, 8 FP64, 4 SFU and 8 LD/ST lanes and
 *    one tensor core; 1410 MHz: NVIDIA A100 Tensor Core GPU Architecture
 *    whitepaper (2020); GPCs of up to 16 SMs (8 TPCs): the same;
 *  - dependent FP32/INT latency 4: Abdelkhalik et al., "Demystifying
 *    the Nvidia Ampere Architecture through Microbenchmarking and
 *    Instruction-level Analysis" (arXiv:2208.11174, 2022), Table II;
 *  - shared-memory load 29 cycles: Luo et al., "Benchmarking and
 *    Dissecting the Nvidia Hopper GPU Architecture" (arXiv:2402.13499,
 *    2024), Table IV, A100 (the value timing/configs/ampere.cfg cites);
 *  - 32 banks of 4 bytes served per warp; 32-byte sectors: CUDA C++
 *    Programming Guide, "Shared Memory" (5.x onward) and Best Practices
 *    Guide, "Coalesced Access to Global Memory";
 *  - 16-byte instructions (Volta onward encode 128-bit instructions:
 *    Jia et al., "Dissecting the NVIDIA Volta GPU Architecture via
 *    Microbenchmarking", 2018), I-buffer of 2 (GPGPU-Sim's default);
 *  - one instruction fetch per sub-core per cycle: each sub-core has its
 *    own L0 instruction cache (NVIDIA Tesla V100 GPU Architecture
 *    whitepaper, 2017, "Volta SM"; the A100 whitepaper keeps it);
 *  - greedy-then-oldest scheduling, as Accel-Sim's Turing configuration
 *    (Khairy et al., ISCA 2020);
 *  - a memory instruction the LSU queue cannot take waits to issue
 *    (lsu.replay 0), its warp in lg_throttle, which Nsight Compute's
 *    Kernel Profiling Guide defines as a stall ("waiting for the L1
 *    instruction queue for local and global (LG) memory operations to
 *    be not full"), not an issue; GPGPU-Sim likewise holds the
 *    instruction before the memory pipeline's register.  Replaying it
 *    from the I-buffer instead (lsu.replay N; AFR section 4.1) spends
 *    an issue slot every N cycles per waiting warp: a streaming kernel
 *    then replays each load dozens of times, where a coalesced stream
 *    on the hardware shows inst_issued close to inst_executed;
 *  - two register-file banks per sub-core: Jia et al. (2018) for Volta;
 *  - the rest (SFU, FP64, tensor, lane-exchange and control latencies,
 *    fetch/branch/barrier/fence latencies, queue depths, collector
 *    counts, the launch) are round estimates of the same order, not
 *    measurements.
 * gt200: an NVIDIA GTX 280 SM (compute capability 1.3), from Wong et
 * al., "Demystifying GPU Microarchitecture through Microbenchmarking"
 * (ISPASS 2010): one scheduler; 8 SPs (a warp instruction takes 4
 * cycles), 2 SFUs, 1 DPU; dependent SP latency 24; shared-memory latency
 * 38; 64-byte instruction fetches, one warp's fetch per SM per cycle (the
 * fetch stage AFR section 3.2 describes for this generation); bar.sync 20 cycles; %clock at half
 * the shader clock; 16K registers allocated 4 per thread; 3 SMs per TPC.
 * Occupancy limits (1024 threads, 32 warps, 8 CTAs, 16 KB shared, 512-B
 * shared allocation unit), 16 banks served per half-warp and the
 * compute-1.3 coalescing rule: CUDA C Programming Guide 3.x, appendices
 * A and G; the 1296 MHz shader clock: NVIDIA's GTX 280 specifications.
 * SFU, DPU and control latencies and the collectors are estimates (Wong
 * et al. saw no register bank conflicts; 4 logical banks).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing/gpu/gpu.h"

#define U(x) unit[PTXEMU_TM_UNIT_##x]

/* The presets, in the order of the value columns of the rows. */
enum { P_AMPERE = 0, P_GT200, P_COUNT };
static const char *const preset_name[P_COUNT] = {"ampere", "gt200"};

/* Units: X(key, field, count, lanes, lat, ii) x presets. */
#define UNIT_ROWS(X, Y)                                                        \
    X("int", U(INT), Y(1, 1), Y(16, 8), Y(4, 24), Y(1, 1))                     \
    X("fp16", U(FP16), Y(1, 1), Y(16, 8), Y(4, 24), Y(1, 1))                   \
    X("fp32", U(FP32), Y(1, 1), Y(16, 8), Y(4, 24), Y(1, 1))                   \
    X("fp64", U(FP64), Y(1, 1), Y(8, 1), Y(8, 48), Y(1, 1))                    \
    X("sfu", U(SFU), Y(1, 1), Y(4, 2), Y(16, 48), Y(1, 1))                     \
    X("tensor", U(TENSOR), Y(1, 1), Y(32, 32), Y(32, 32), Y(8, 8))             \
    X("ldst", U(LDST), Y(1, 1), Y(8, 8), Y(24, 24), Y(1, 1))                   \
    X("tex", U(TEX), Y(1, 1), Y(4, 8), Y(24, 24), Y(1, 1))                     \
    X("ctrl", U(CTRL), Y(1, 1), Y(32, 8), Y(4, 24), Y(1, 1))                   \
    X("sync", U(SYNC), Y(1, 1), Y(32, 32), Y(4, 4), Y(1, 1))                   \
    X("async", U(ASYNC), Y(1, 1), Y(32, 32), Y(4, 4), Y(1, 1))                 \
    X("misc", U(MISC), Y(1, 1), Y(32, 8), Y(4, 24), Y(1, 1))                   \
    X("warp", U(WARP), Y(1, 1), Y(16, 8), Y(24, 24), Y(1, 1))

/* X(name, field, preset values, lo, hi, help) */
#define GPU_NUM_PARAMS(X, Y)                                                   \
    X("sched.per_sm", sched_per_sm, Y(4, 1), 1, 64,                            \
      "warp schedulers (sub-cores) per SM; a warp belongs to slot % N")        \
    X("issue.width", issue_width, Y(1, 1), 1, 8,                               \
      "instructions a scheduler may issue per cycle (2: dual issue)")          \
    X("sched.pool", pool, Y(4, 4), 1, 1024,                                    \
      "two-level: warps in a scheduler's active pool")                         \
    X("ibuf.depth", ibuf_depth, Y(2, 2), 1, 64,                                \
      "I-buffer entries (instructions) per warp")                              \
    X("fetch.bytes", fetch_bytes, Y(32, 64), 4, 128,                           \
      "bytes per instruction fetch (a power of two, <= 128)")                  \
    X("fetch.insn_bytes", insn_bytes, Y(16, 8), 1, 128,                        \
      "bytes per instruction (for instruction addresses)")                     \
    X("fetch.latency", fetch_latency, Y(2, 2), 1, 1u << 20,                    \
      "cycles from a fetch to decoded instructions (perfect I-cache)")         \
    X("fetch.per_cycle", fetch_per_cycle, Y(1, 1), 0, 64,                      \
      "perfect I-cache: fetches a fetch port starts per cycle (0: any)")       \
    X("fetch.port_per_sched", fetch_port_per_sched, Y(1, 0), 0, 1,             \
      "1: a fetch port per scheduler (an L0 I-cache per sub-core); 0: "       \
      "one per SM")                                                            \
    X("branch.latency", branch_latency, Y(2, 2), 0, 1u << 20,                  \
      "cycles before a warp issues after a branch, call or return")            \
    X("bar.latency", bar_latency, Y(20, 20), 0, 1u << 20,                      \
      "cycles from a barrier's release to its warps' next issue")              \
    X("unit.sfu.mul_ii", sfu_mul_ii, Y(0, 10), 0, 1u << 20,                    \
      "cycles the SFUs take for a warp's FP32 multiply while the FP32 "     \
      "unit is busy (GT200's SP+SFU dual issue); 0: never")                 \
    X("unit.full_delay", full_delay, Y(0, 0), 0, 1u << 20,                    \
      "cycles added to the result of a warp instruction issued to a unit "  \
      "that took one with no gap for at least its latency (its pipeline "   \
      "full; gt200.cfg: Wong et al. Fig. 6); 0: never")                     \
    X("fence.latency", fence_latency, Y(8, 8), 0, 1u << 20,                    \
      "cycles after a fence (once earlier memory completed)")                  \
    X("oc.latency", oc_latency, Y(0, 0), 0, 1u << 20,                          \
      "oc.enabled false: operand-read cycles added to every result")          \
    X("oc.banks", oc.banks, Y(2, 4), 1, 64, "register-file banks")            \
    X("oc.ports", oc.ports, Y(1, 1), 1, 16, "reads per bank per cycle")        \
    X("oc.collectors", oc.collectors, Y(8, 4), 1, 64,                          \
      "collector units per scheduler")                                         \
    X("oc.collector_reads", oc.collector_reads, Y(0, 0), 0, 16,                \
      "operands a collector reads per cycle (0: no limit)")                    \
    X("lsu.queue", lsu_queue, Y(8, 8), 1, 1u << 16,                            \
      "memory instructions an SM's LSU holds before sending")                  \
    X("lsu.txn_per_cycle", lsu_txn_per_cycle, Y(1, 1), 1, 64,                  \
      "transactions the LSU sends per cycle")                                  \
    X("lsu.replay", lsu_replay, Y(0, 0), 0, 1u << 20,                          \
      "a memory instruction issued while the LSU queue is full is refused "   \
      "and replayed from the I-buffer this many cycles later (0: it waits "   \
      "to issue)")                                                             \
    X("lsu.mio_queue", mio_queue, Y(8, 8), 0, 1u << 20,                        \
      "cycles of shared-memory work the MIO pipe queues")                      \
    X("smem.latency", smem_latency, Y(29, 38), 1, 1u << 20,                    \
      "shared-memory load latency without conflicts")                          \
    X("smem.dsmem_latency", dsmem_latency, Y(180, 180), 1, 1u << 20,           \
      "latency of another cluster CTA's shared memory")                        \
    X("smem.banks", banks.banks, Y(32, 16), 1, 64, "shared-memory banks")      \
    X("smem.width", banks.width, Y(4, 4), 1, 16, "bytes per bank")             \
    X("smem.group", banks.group, Y(32, 16), 1, 32,                             \
      "lanes served together (16: per half-warp)")                             \
    X("smem.one_broadcast", banks.one_broadcast, Y(0, 1), 0, 1,                \
      "1: one broadcast word per pass (compute 1.x); 0: multicast")           \
    X("occ.max_threads", occ.max_threads, Y(2048, 1024), 1, 1u << 20,         \
      "resident threads per SM")                                               \
    X("occ.max_warps", occ.max_warps, Y(64, 32), 1, 1u << 16,                  \
      "resident warps per SM")                                                 \
    X("occ.max_ctas", occ.max_ctas, Y(32, 8), 1, 1u << 16,                     \
      "resident CTAs per SM")                                                  \
    X("occ.regs", occ.regs, Y(65536, 16384), 1, 1u << 26,                      \
      "32-bit registers per SM")                                               \
    X("occ.reg_unit", occ.reg_alloc_unit, Y(256, 128), 1, 1u << 20,            \
      "registers are allocated per warp in multiples of this")                 \
    X("occ.shared", occ.shared, Y(167936, 16384), 0, 1ull << 32,               \
      "shared-memory bytes per SM")                                            \
    X("occ.shared_unit", occ.shared_alloc_unit, Y(128, 512), 1, 1u << 20,      \
      "shared memory is allocated per CTA in multiples of this")               \
    X("occ.shared_reserved", occ.shared_reserved, Y(1024, 0), 0, 1u << 20,     \
      "shared-memory bytes reserved per CTA by the system")                    \
    X("launch.latency", launch_latency, Y(1000, 1000), 0, 1ull << 32,          \
      "cycles from the launch to the first CTA placed")                        \
    X("gpc.sms", gpc_sms, Y(16, 3), 1, 1u << 16,                               \
      "SMs per GPC (a cluster's CTAs share one GPC)")                          \
    X("clock.divider", clock_div, Y(1, 2), 1, 1u << 10,                        \
      "%clock counts in steps of this many cycles")

#define Y_AMPERE(a, b) a
#define Y_GT200(a, b) b
#define STR_(x) #x

/* The table: every numeric parameter is an INT defaulting to -1. */
#define TABLE_ROW(name, field, v, lo, hi, help)                                \
    {name, PTXEMU_TM_P_INT, "-1", help " (-1: gpu.arch's)"},
#define UNIT_TABLE(key, field, n, l, t, i)                                     \
    {"unit." key ".count", PTXEMU_TM_P_INT, "-1",                              \
     "units of this class per scheduler (-1: gpu.arch's)"},                    \
    {"unit." key ".lanes", PTXEMU_TM_P_INT, "-1",                              \
     "lanes per unit: a warp takes 32/lanes passes (-1: gpu.arch's)"},         \
    {"unit." key ".lat", PTXEMU_TM_P_INT, "-1",                                \
     "cycles from issue to the result (-1: gpu.arch's)"},                      \
    {"unit." key ".ii", PTXEMU_TM_P_INT, "-1",                                 \
     "cycles a unit is busy per pass (-1: gpu.arch's)"},
#define NOTHING(a, b) 0
const ptxemu_tm_param gpu_params[] = {
    {"gpu.arch", PTXEMU_TM_P_STRING, "ampere",
     "preset of every parameter left at -1 or \"\": ampere (A100), gt200"},
    {"sched.policy", PTXEMU_TM_P_STRING, "",
     "warp scheduling: lrr, gto, oldest, two-level (\"\": gpu.arch's)"},
    {"mem.model", PTXEMU_TM_P_STRING, "ideal",
     "the memory system behind the SMs (timing/gpu/mem/models.c)"},
    {"lsu.coalesce", PTXEMU_TM_P_STRING, "",
     "coalescing rule: cc13, line128, sector32 (\"\": gpu.arch's)"},
    {"oc.enabled", PTXEMU_TM_P_BOOL, "false",
     "operand collectors and register-file banks (AFR 3.3); false: a "
     "fixed oc.latency"},
    {"expand.arch", PTXEMU_TM_P_STRING, "",
     "PTX-to-machine expansion table: gt200, fermi, volta, ampere, hopper,"
     " none (\"\": gpu.arch's)"},
    {"fetch.perfect_icache", PTXEMU_TM_P_BOOL, "true",
     "every fetch takes fetch.latency (false: FETCH requests to memory)"},
    {"clock.mhz", PTXEMU_TM_P_DOUBLE, "-1",
     "core clock for %globaltimer and event timing (-1: gpu.arch's)"},
    {"par.adapt", PTXEMU_TM_P_BOOL, "true",
     "with --threads: fan a cycle out to the host threads only while that "
     "is measured to be faster (false: every cycle with two busy SMs; "
     "no result depends on it)"},
    {"par.split_mem", PTXEMU_TM_P_BOOL, "true",
     "drive a memory system split by SM (mem.model=ideal) SM by SM, each "
     "on its SM's thread, and buffer plain global steps (false: as one, "
     "between cycles, global steps in SM order; cycles and statistics do "
     "not depend on it, what loads racing across SMs read may)"},
    GPU_NUM_PARAMS(TABLE_ROW, NOTHING)
    UNIT_ROWS(UNIT_TABLE, NOTHING)
};
const uint32_t gpu_nparams =
    (uint32_t)(sizeof(gpu_params) / sizeof(gpu_params[0]));

typedef struct NumField {
    const char *name;
    size_t off, size;             /* a uint64_t or uint32_t member */
    uint64_t preset[P_COUNT];
    uint64_t lo, hi;
} NumField;

#define Y_BOTH(a, b) {a, b}
#define SIZE(field) sizeof(((GpuConfig *)0)->field)
#define FIELD_ROW(name, field, v, lo, hi, help)                                \
    {name, offsetof(GpuConfig, field), SIZE(field), v, lo, hi},
#define UNIT_FIELDS(key, field, n, l, t, i)                                    \
    {"unit." key ".count", offsetof(GpuConfig, field.count), 8, n, 1, 64},       \
    {"unit." key ".lanes", offsetof(GpuConfig, field.lanes), 8, l, 1, 32},       \
    {"unit." key ".lat", offsetof(GpuConfig, field.lat), 8, t, 1, 1u << 20},     \
    {"unit." key ".ii", offsetof(GpuConfig, field.ii), 8, i, 1, 1u << 20},
static const NumField fields[] = {GPU_NUM_PARAMS(FIELD_ROW, Y_BOTH)
                                      UNIT_ROWS(UNIT_FIELDS, Y_BOTH)};

static const struct {
    const char *coalesce, *policy;
    double mhz;
} preset_str[P_COUNT] = {
    [P_AMPERE] = {"sector32", "gto", 1410.0},
    [P_GT200] = {"cc13", "lrr", 1296.0},
};

static int refuse(const ptxemu_tm_host_api *api, ptxemu_tm_host *h,
                  const char *msg)
{
    api->error(h, msg);
    return -1;
}

static const char *or_preset(const char *v, const char *preset)
{
    return v && *v ? v : preset;
}

int gpu_config_read(GpuConfig *c, const ptxemu_tm_host_api *api,
                    ptxemu_tm_host *h)
{
    char msg[200];
    const char *arch = api->param_string(h, "gpu.arch");
    int p = 0;
    while (p < P_COUNT && strcmp(arch, preset_name[p]) != 0) {
        p++;
    }
    if (p == P_COUNT) {
        snprintf(msg, sizeof msg, "gpu: unknown gpu.arch '%s' (ampere, "
                                  "gt200)", arch);
        return refuse(api, h, msg);
    }
    c->arch = preset_name[p];
    for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
        const NumField *f = &fields[i];
        int64_t v = api->param_int(h, f->name);
        uint64_t u = v == -1 ? f->preset[p] : (uint64_t)v;
        if (v < -1 || u < f->lo || u > f->hi) {
            snprintf(msg, sizeof msg, "gpu: %s must be in [%llu, %llu] "
                                      "(or -1), got %lld", f->name,
                     (unsigned long long)f->lo, (unsigned long long)f->hi,
                     (long long)v);
            return refuse(api, h, msg);
        }
        if (f->size == sizeof(uint32_t)) {
            *(uint32_t *)((char *)c + f->off) = (uint32_t)u;
        } else {
            *(uint64_t *)((char *)c + f->off) = u;
        }
    }
    if (c->fetch_bytes & (c->fetch_bytes - 1)) {
        return refuse(api, h, "gpu: fetch.bytes must be a power of two");
    }
    const char *pol = or_preset(api->param_string(h, "sched.policy"),
                                preset_str[p].policy);
    c->policy = gpu_policy_find(pol);
    if (!c->policy) {
        snprintf(msg, sizeof msg, "gpu: unknown sched.policy '%s' (lrr, "
                                  "gto, oldest, two-level)", pol);
        return refuse(api, h, msg);
    }
    const char *co = or_preset(api->param_string(h, "lsu.coalesce"),
                               preset_str[p].coalesce);
    int rule = gpu_coalesce_rule(co);
    if (rule < 0) {
        snprintf(msg, sizeof msg, "gpu: unknown lsu.coalesce '%s' (cc13, "
                                  "line128, sector32)", co);
        return refuse(api, h, msg);
    }
    c->coalesce = (GpuCoalesceRule)rule;
    const char *mm = api->param_string(h, "mem.model");
    c->mem = gpu_mem_find(mm);
    if (!c->mem) {
        snprintf(msg, sizeof msg, "gpu: unknown mem.model '%s'", mm);
        return refuse(api, h, msg);
    }
    const char *ex = or_preset(api->param_string(h, "expand.arch"),
                               preset_name[p]);
    c->expand_arch = strcmp(ex, "none") == 0 ? -1 : gpu_expand_arch(ex);
    if (c->expand_arch < 0 && strcmp(ex, "none") != 0) {
        snprintf(msg, sizeof msg, "gpu: unknown expand.arch '%s' (gt200, "
                                  "fermi, volta, ampere, hopper, none)", ex);
        return refuse(api, h, msg);
    }
    c->perfect_icache = api->param_bool(h, "fetch.perfect_icache");
    c->oc.enabled = api->param_bool(h, "oc.enabled");
    c->par_adapt = api->param_bool(h, "par.adapt");
    c->par_split = api->param_bool(h, "par.split_mem");
    if (c->oc.enabled) {
        c->oc_latency = 0; /* the collectors take the time instead */
    }
    c->clock_mhz = api->param_double(h, "clock.mhz");
    if (c->clock_mhz == -1.0) {
        c->clock_mhz = preset_str[p].mhz;
    }
    if (!(c->clock_mhz > 0.0 && c->clock_mhz <= 1e6)) {
        return refuse(api, h, "gpu: clock.mhz must be in (0, 1e6]");
    }
    return 0;
}
