/*
 * timing/simple/config.c: the `simple` model's parameter table and its
 * validated reading into a SimpleConfig.
 *
 * One row list (SIMPLE_UINT_PARAMS) makes both the table the host parses
 * (`--timing-help`, `--timing-set`) and the reader, so a parameter cannot
 * be declared without being read or read without being declared.
 *
 * Defaults model an NVIDIA A100 (Ampere, sm_80) SM:
 *  - occupancy limits: CUDA C++ Programming Guide, "Technical
 *    Specifications per Compute Capability", compute capability 8.0
 *    (2048 threads, 64 warps, 32 blocks, 64K 32-bit registers, 164 KB
 *    shared memory per SM, 1 KB shared memory reserved per block); the
 *    allocation granularities (registers per warp in units of 256,
 *    shared memory in units of 128 bytes) are those of NVIDIA's CUDA
 *    occupancy calculator for 8.0;
 *  - four schedulers per SM and the per-partition unit widths behind the
 *    initiation intervals (16 INT32, 16 FP32, 8 FP64, 4 SFU, 8 LD/ST
 *    lanes and one tensor core per partition; a 32-thread warp occupies
 *    a 16-lane pipe for 2 cycles): NVIDIA A100 Tensor Core GPU
 *    Architecture whitepaper (2020); the 1410 MHz boost clock too;
 *  - dependent FP32 latency 4 cycles and shared/global load latencies of
 *    roughly 23 and 290 cycles: Abdelkhalik et al., "Demystifying the
 *    Nvidia Ampere Architecture through Microbenchmarking and
 *    Instruction-level Analysis" (arXiv:2208.11174, 2022);
 *  - mem.bytes_per_cycle: A100 DRAM bandwidth (1555 GB/s, whitepaper)
 *    per SM per cycle: 1555e9 / (108 * 1.41e9) = 10.2, rounded to 10;
 *  - every other latency (INT, FP16, FP64, SFU, tensor, control, lane
 *    exchange, texture, constant, distributed shared memory, the launch)
 *    and the lane-exchange interval is a round
 *    estimate of the same order as those measurements, not a measured
 *    figure.
 */
#include "config.h"

#include <stdio.h>

#include "timing/simple/simple.h"

#define U(unit) PTXEMU_TM_UNIT_##unit
#define S(space) PTXEMU_TM_SPACE_##space

/* X(name, field, default, min, max, help) */
#define SIMPLE_UINT_PARAMS(X)                                                  \
    X("schedulers_per_sm", schedulers, 4, 1, 64,                               \
      "warp schedulers per SM; a warp belongs to (SM warp slot % N)")          \
    X("lat.int", lat[U(INT)], 4, 1, 1u << 20, "integer ALU latency (cycles)")  \
    X("lat.fp16", lat[U(FP16)], 4, 1, 1u << 20, "packed f16 ALU latency")      \
    X("lat.fp32", lat[U(FP32)], 4, 1, 1u << 20, "FP32 latency")                \
    X("lat.fp64", lat[U(FP64)], 8, 1, 1u << 20, "FP64 latency")                \
    X("lat.sfu", lat[U(SFU)], 16, 1, 1u << 20, "SFU (transcendental) latency") \
    X("lat.tensor", lat[U(TENSOR)], 32, 1, 1u << 20,                           \
      "tensor-core (mma, wgmma) latency")                                      \
    X("lat.ldst", lat[U(LDST)], 24, 1, 1u << 20,                               \
      "LD/ST unit latency of an instruction without memory accesses")          \
    X("lat.tex", lat[U(TEX)], 24, 1, 1u << 20,                                 \
      "texture unit latency of an instruction without texel accesses")         \
    X("lat.ctrl", lat[U(CTRL)], 4, 1, 1u << 20, "branch/call/exit latency")    \
    X("lat.sync", lat[U(SYNC)], 4, 1, 1u << 20, "barrier/fence latency")       \
    X("lat.async", lat[U(ASYNC)], 4, 1, 1u << 20,                              \
      "issue latency of a bulk copy (its transfer: mem.*)")                    \
    X("lat.misc", lat[U(MISC)], 4, 1, 1u << 20, "latency of everything else")  \
    X("lat.warp", lat[U(WARP)], 24, 1, 1u << 20,                               \
      "lane-exchange (shfl, vote, match, redux) latency")                      \
    X("ii.int", ii[U(INT)], 2, 1, 1u << 20,                                    \
      "integer ALU initiation interval (cycles busy per warp instruction)")    \
    X("ii.fp16", ii[U(FP16)], 1, 1, 1u << 20, "f16 ALU initiation interval")   \
    X("ii.fp32", ii[U(FP32)], 2, 1, 1u << 20, "FP32 initiation interval")      \
    X("ii.fp64", ii[U(FP64)], 4, 1, 1u << 20, "FP64 initiation interval")      \
    X("ii.sfu", ii[U(SFU)], 8, 1, 1u << 20, "SFU initiation interval")         \
    X("ii.tensor", ii[U(TENSOR)], 8, 1, 1u << 20,                              \
      "tensor-core initiation interval")                                       \
    X("ii.ldst", ii[U(LDST)], 4, 1, 1u << 20, "LD/ST initiation interval")     \
    X("ii.tex", ii[U(TEX)], 8, 1, 1u << 20, "texture initiation interval")     \
    X("ii.ctrl", ii[U(CTRL)], 1, 1, 1u << 20, "control initiation interval")   \
    X("ii.sync", ii[U(SYNC)], 1, 1, 1u << 20, "barrier/fence initiation "      \
                                              "interval")                      \
    X("ii.async", ii[U(ASYNC)], 1, 1, 1u << 20,                                \
      "bulk-copy issue initiation interval")                                   \
    X("ii.misc", ii[U(MISC)], 1, 1, 1u << 20, "initiation interval of the "    \
                                              "rest")                          \
    X("ii.warp", ii[U(WARP)], 2, 1, 1u << 20,                                  \
      "lane-exchange initiation interval")                                     \
    X("mem.global.latency", mem_lat[S(GLOBAL)], 290, 1, 1u << 24,              \
      "global load/store/atomic latency (cycles, before the transfer)")        \
    X("mem.shared.latency", mem_lat[S(SHARED)], 23, 1, 1u << 24,               \
      "shared memory latency (no bank conflicts modelled)")                    \
    X("mem.dsmem.latency", mem_lat[S(SHARED_CLUSTER)], 180, 1, 1u << 24,       \
      "latency of another cluster CTA's shared memory")                        \
    X("mem.local.latency", mem_lat[S(LOCAL)], 290, 1, 1u << 24,                \
      "local memory latency (backed by global)")                               \
    X("mem.const.latency", mem_lat[S(CONST)], 20, 1, 1u << 24,                 \
      "constant memory latency")                                               \
    X("mem.param.latency", mem_lat[S(PARAM)], 20, 1, 1u << 24,                 \
      "kernel parameter latency (they live in a constant bank)")               \
    X("mem.tex.latency", mem_lat[S(TEX)], 400, 1, 1u << 24,                    \
      "texel fetch latency")                                                   \
    X("mem.bytes_per_cycle", bytes_per_cycle, 10, 1, 1u << 20,                 \
      "global+local bytes per cycle through one SM's memory port")             \
    X("launch_latency", launch_latency, 1000, 0, 1ull << 32,                   \
      "cycles from the launch to the first CTA placed")                        \
    X("max_threads_per_sm", occ.max_threads, 2048, 1, 1u << 20,                \
      "resident threads per SM")                                               \
    X("max_warps_per_sm", occ.max_warps, 64, 1, 1u << 16,                      \
      "resident warps per SM (warp slots)")                                    \
    X("max_ctas_per_sm", occ.max_ctas, 32, 1, 1u << 16, "resident CTAs per SM")    \
    X("regs_per_sm", occ.regs, 65536, 1, 1u << 26, "32-bit registers per SM")  \
    X("reg_alloc_unit", occ.reg_alloc_unit, 256, 1, 1u << 20,                  \
      "registers are allocated per warp in multiples of this")                 \
    X("shared_per_sm", occ.shared, 167936, 0, 1ull << 32,                      \
      "shared memory bytes per SM")                                            \
    X("shared_alloc_unit", occ.shared_alloc_unit, 128, 1, 1u << 20,            \
      "shared memory is allocated per CTA in multiples of this")               \
    X("shared_reserved_per_cta", occ.shared_reserved, 1024, 0, 1u << 20,       \
      "shared memory bytes the system reserves per CTA")

#define TABLE_ROW(name, field, def, lo, hi, help)                              \
    {name, PTXEMU_TM_P_UINT, #def, help},
const ptxemu_tm_param simple_params[] = {
    SIMPLE_UINT_PARAMS(TABLE_ROW)
    {"clock_mhz", PTXEMU_TM_P_DOUBLE, "1410",
     "core clock (MHz) for %globaltimer and event timing"},
};
const uint32_t simple_nparams =
    (uint32_t)(sizeof(simple_params) / sizeof(simple_params[0]));

typedef struct UintField {
    const char *name;
    size_t off;
    uint64_t lo, hi;
} UintField;

#define FIELD_ROW(name, field, def, lo, hi, help)                              \
    {name, offsetof(SimpleConfig, field), lo, hi},
static const UintField fields[] = {SIMPLE_UINT_PARAMS(FIELD_ROW)};

static int refuse(const ptxemu_tm_host_api *api, ptxemu_tm_host *h,
                  const char *msg)
{
    api->error(h, msg);
    return -1;
}

int simple_config_read(SimpleConfig *c, const ptxemu_tm_host_api *api,
                       ptxemu_tm_host *h)
{
    char msg[160];
    for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
        const UintField *f = &fields[i];
        uint64_t v = api->param_uint(h, f->name);
        if (v < f->lo || v > f->hi) {
            snprintf(msg, sizeof msg,
                     "simple: %s must be in [%llu, %llu], got %llu", f->name,
                     (unsigned long long)f->lo, (unsigned long long)f->hi,
                     (unsigned long long)v);
            return refuse(api, h, msg);
        }
        *(uint64_t *)((char *)c + f->off) = v;
    }
    c->clock_mhz = api->param_double(h, "clock_mhz");
    if (!(c->clock_mhz > 0.0 && c->clock_mhz <= 1e6)) {
        return refuse(api, h, "simple: clock_mhz must be in (0, 1e6]");
    }
    /* Units without a parameter of their own (a newer header's) behave
     * like MISC. */
    for (unsigned u = 0; u < PTXEMU_TM_UNIT_COUNT; u++) {
        if (c->lat[u] == 0) {
            c->lat[u] = c->lat[PTXEMU_TM_UNIT_MISC];
        }
        if (c->ii[u] == 0) {
            c->ii[u] = c->ii[PTXEMU_TM_UNIT_MISC];
        }
    }
    /* Spaces without a parameter of their own. */
    c->mem_lat[PTXEMU_TM_SPACE_NONE] = c->lat[PTXEMU_TM_UNIT_LDST];
    return 0;
}
