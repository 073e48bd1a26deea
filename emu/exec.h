/*
 * emu/exec.h: modules, launches, CTAs, warps, the SIMT stack and the step.
 *
 * Implemented by one file per concern: device.c (config, device),
 * module.c (load, variables, relocations), launch.c (launches, CTAs),
 * sreg.c (special registers), fault.c (statuses, guest faults), simt.c
 * (SIMT stack, frames, barriers; internals in simt.h) and step.c (the
 * step and the fast loop).
 *
 * Contract of the execution core:
 *  - emu_module_load() decodes every function of a parsed IrModule into
 *    EmuFuncs (decode.c) and allocates/initialises its .global and .const
 *    variables in device memory (relocations resolved).  An instruction
 *    the emulator cannot execute makes its function (and the functions
 *    calling it) fail to load with EMU_ERR_UNSUPPORTED and a located
 *    message naming it (EmuModule.load_error, emu_module_kernel_error):
 *    never a silent wrong answer at run time; the other kernels load.
 *  - emu_launch_begin() builds a launch; its CTAs are created lazily.
 *  - emu_warp_step() executes the next instruction of one warp and fills
 *    an EmuStepRecord.  It is the only way instructions run: the
 *    functional scheduler (sched.c) and, later, timing models are clients.
 *    It never looks at cycles.
 *  - Each warp has a SIMT reconvergence stack of {rpc, npc, mask}
 *    entries (seed digest 1.3).  A divergent branch turns the TOS into
 *    the reconvergence entry (npc = ipdom) and pushes both paths; the
 *    order is EmuConfig.diverge_order.  Entries whose npc reaches their
 *    rpc are popped.  Exited lanes are removed from every entry.
 *  - Calls push a frame (registers of the callee, its local memory); a
 *    call whose target differs between lanes is serialised per target.
 *  - Barriers count warps (Wong et al.): bar.sync with count N completes
 *    when N/32 warp arrivals were seen; each serialised path of a
 *    divergent warp arrives separately.
 *  - Deterministic: same inputs and config give the same results and the
 *    same order of atomics.
 */
#ifndef PTXEMU_EMU_EXEC_H
#define PTXEMU_EMU_EXEC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "emu/emu.h"
#include "emu/gpuspec.h"
#include "emu/memory.h"
#include "ptx/ir.h"

/* Which path of a divergent branch runs first. */
typedef enum EmuDivergeOrder {
    EMU_TAKEN_FIRST = 0,      /* GT200 observation (Wong et al.): default */
    EMU_MAJORITY_LAST,        /* AFR: push the larger path first, so the
                                 path with fewer lanes runs first */
    EMU_MAJORITY_FIRST,       /* Hanoi (Turing): the path with more lanes
                                 runs first (taken on a tie) */
    EMU_DIVERGE_BY_MODE,      /* the default: EMU_TAKEN_FIRST under IPDOM
                                 (GT200), EMU_MAJORITY_FIRST under ITS
                                 (Hanoi's Turing) */
} EmuDivergeOrder;

/* How the paths of a divergent warp make progress (emu/its.h). */
typedef enum EmuReconvergence {
    EMU_RECONV_DEFAULT = 0,   /* by the device's arch (emu_device_new):
                                 ITS from sm_70 (Volta) on, IPDOM before,
                                 as on hardware (CUDA C++ Programming
                                 Guide, "Independent Thread Scheduling") */
    EMU_RECONV_IPDOM,         /* pre-Volta SIMT stack (seed digest 1.3) */
    EMU_RECONV_ITS,           /* independent thread scheduling (Volta+):
                                 a path spinning without progress yields */
} EmuReconvergence;

struct EmuTolerated;

/* Global accesses outside every allocation (emu/tolerate.h). */
typedef enum EmuAccessMode {
    EMU_ACCESS_STRICT = 0,    /* all fault (the default) */
    EMU_ACCESS_GPU,           /* those a GPU tolerates run, with a warning */
} EmuAccessMode;

typedef struct EmuConfig {
    EmuDivergeOrder diverge_order;
    uint64_t insn_limit;          /* warp instructions per launch; 0 = none */
    uint64_t time_limit_ms;       /* wall-clock budget per launch (grid.h);
                                     0 = none */
    uint32_t watchdog_rounds;     /* scheduler rounds with no progress
                                     before EMU_ERR_DEADLOCK; 0 = 1000 */
    uint32_t num_sms;             /* for %nsmid, %smid */
    uint32_t max_threads_per_block;   /* 1024 */
    uint32_t max_shared_per_block;    /* 48 KiB default, opt-in more */
    uint32_t max_call_depth;          /* frames per warp; 0 = 1024 */
    uint64_t local_bytes_per_thread;  /* stack per thread; 0 = 1 MiB */
    uint64_t heap_bytes;              /* device malloc heap; 0 = 8 MiB */
    /* Appended (builtins.c): device printf, see emu/builtins.h. */
    FILE *printf_out;                 /* NULL = stdout */
    uint64_t printf_buffer_bytes;     /* per launch; 0 = 1 MiB */
    /* Appended (gpuspec.h): the compute capability the device answers
     * attribute queries for; 0 = EMU_GPU_DEFAULT_ARCH */
    uint32_t arch;
    /* Appended (tolerate.h): which global accesses outside every
     * allocation fault */
    EmuAccessMode access;
    /* Appended (its.h): the reconvergence mode; emu_device_new resolves
     * EMU_RECONV_DEFAULT by the arch, so dev->cfg holds IPDOM or ITS;
     * each module then follows its .target too (EmuModule.reconv) */
    EmuReconvergence reconvergence;
    /* Appended (rtrace.h): where the reconvergence trace goes; NULL: off */
    FILE *trace_reconv;
    /* Appended (simttrace.h): where the per-instruction (pc, mask) trace
     * goes; NULL: off.  Not closed by the emulator. */
    FILE *trace_simt;
    /* Appended (pool.h): host threads that run a launch's CTAs (0 or 1:
     * one), and where a launch that asked for more says why it runs on
     * one (NULL: silent). */
    uint32_t threads;
    FILE *par_log;
    /* Appended (pool.h): --fast: global atomics of CTAs run in parallel
     * land in whatever order the host threads reach them; false (the
     * default, --deterministic): in CTA order, as on one thread. */
    bool fast;
} EmuConfig;

void emu_config_default(EmuConfig *c);

/* ---- device ---- */

struct EmuDevice {
    EmuConfig cfg;
    EmuMemory *mem;
    EmuFault last_fault;
    bool has_fault;
    /* statistics, summed over launches */
    struct EmuStats *stats;
    /* Appended: */
    uint64_t clock_base;          /* warp instructions of ended launches
                                     (%globaltimer) */
    uint64_t ngrids;              /* launches begun (%gridid) */
    uint64_t *sm_clock;           /* per SM: warp instructions issued
                                     (%clock, monotonic across launches):
                                     emu_sm_clock */
    /* Appended (builtins.c): printf output of ended launches not yet
     * written (emu_device_flush_output), and device-heap bytes in use. */
    char *printf_pending;
    size_t printf_pending_len, printf_pending_cap;
    uint64_t heap_used;
    /* Appended (texfetch.h): texture and surface objects, lazily made */
    struct EmuTexTable *tex;
    /* Appended (devrt.c): device-side launches queued and not started,
     * and their limit (cudaLimitDevRuntimePendingLaunchCount; 0 = 2048) */
    uint32_t cdp_pending;
    uint32_t cdp_pending_limit;
    /* Appended (gpuspec.h): the GPU of cfg.arch with cfg.num_sms SMs;
     * (devrt_query.c) the device copy of the error strings, made on
     * first use: its address and each string's offset in it */
    EmuGpu gpu;
    uint64_t errstr_addr;
    uint32_t *errstr_off;
    /* Appended (the clock source): while a timing model drives launches
     * (EmuLaunch.timed), %globaltimer reads timer_ns, which the model's
     * host sets from simulated time; otherwise it reads clock_base plus
     * the launch's warp instructions. */
    uint64_t timer_ns;
    /* Appended (tolerate.h): the instructions warned about, and the hook
     * that, when set, gets every tolerated access instead (a checker
     * such as `ptxemu sanitize` reports them there as errors). */
    struct EmuTolSites *tol_sites;
    void (*tolerated_hook)(void *ctx, const struct EmuTolerated *t);
    void *tolerated_ctx;
    /* Appended (client.h): attached clients, NULL when none. */
    struct EmuClients *clients;
    /* Appended (its.h): cfg.reconvergence was given (not
     * EMU_RECONV_DEFAULT), so it holds for every module whatever its
     * .target (emu_its_module_mode). */
    bool reconv_forced;
    /* Appended (grid.c's watchdog): when set, host_stamp(host_stamp_arg)
     * answers whether the host could write host-visible memory (managed
     * or registered) right now: -1 when some host thread may run, else a
     * stamp that changes whenever a host thread may have run since.  A
     * kernel that reads such memory and repeats its state is a livelock
     * only when the stamp was the same (and not -1) at both samples;
     * without the hook it is never called one (the time limit bounds
     * it).  The drop-in driver sets it (runtime/cuda/drv_queue.c). */
    int64_t (*host_stamp)(void *arg);
    void *host_stamp_arg;
    /* Appended (runtime/api.c, for timing models): the L2 set aside for
     * persisting accesses (cudaLimitPersistingL2CacheSize, bytes) and
     * how many times its persisting lines were reset to normal
     * (cudaCtxResetPersistingL2Cache). */
    uint64_t l2_persist_bytes;
    uint32_t l2_resets;
};

EmuDevice *emu_device_new(const EmuConfig *cfg);
void emu_device_free(EmuDevice *d);

/* ---- modules ---- */

struct EmuModule {
    EmuDevice *dev;
    IrModule *ir;                 /* owned */
    EmuFunc **funcs;              /* parallel to ir->funcs */
    uint32_t nfuncs;
    uint64_t *global_addr;        /* parallel to ir->globals: device address
                                     (0 for shared/extern/opaque) */
    uint64_t *shared_offset;      /* parallel to ir->globals: offset in a
                                     CTA's shared memory for .shared ones */
    struct EmuShLayout *shlayout; /* while loading (emu/shlayout.h) */
    /* Appended: */
    void *symmap;                 /* decode.c: IrSymbol* -> global index */
    /* Appended (module.c): parallel to funcs, for a function that could
     * not be loaded (funcs[i] NULL): its located message and status
     * (EMU_ERR_UNSUPPORTED, EMU_ERR_INVALID_PTX); NULL / EMU_OK else. */
    char **load_error;
    EmuStatus *load_status;
    /* Appended (its.h): how this module's divergent warps run, from the
     * device and the module's .target (emu_its_module_mode); every
     * launch of its kernels uses it. */
    EmuReconvergence reconv;
};

/* Takes ownership of ir (also on failure).  On failure returns NULL and,
 * when msg is not NULL, a malloc'd located message. */
EmuModule *emu_module_load(EmuDevice *d, IrModule *ir, EmuStatus *st,
                           char **msg);
void emu_module_free(EmuModule *m);
EmuFunc *emu_module_kernel(EmuModule *m, const char *name);
/* Why kernel `name` could not be loaded: its status and located message
 * (*msg, owned by m); EMU_ERR_NOT_FOUND (*msg NULL) when no kernel of
 * that name failed. */
EmuStatus emu_module_kernel_error(const EmuModule *m, const char *name,
                                  const char **msg);
uint64_t emu_module_global(EmuModule *m, const char *name, uint64_t *size);

/* ---- SIMT state ---- */

typedef struct EmuSimtEntry {
    uint32_t rpc;                 /* reconvergence PC, EMU_NOPC = none */
    uint32_t npc;                 /* next PC */
    uint32_t mask;
} EmuSimtEntry;

typedef struct EmuFrame {
    const EmuFunc *func;
    uint64_t *regs;               /* nslots * 32 */
    uint64_t local_base;          /* offset of this frame in each lane's
                                     local window */
    uint32_t ret_pc;              /* caller's pc after the call */
    uint32_t stack_base;          /* SIMT stack depth at entry */
    uint32_t call_mask;           /* lanes that made the call */
    const EmuInsn *call;          /* the call instruction (for returns) */
    /* Appended: */
    uint32_t returned;            /* lanes that executed ret */
    size_t regs_cap;              /* slots allocated in regs */
    /* Per lane: the top of the lane's stack while this frame runs (an
     * offset in its local window): local_base + the function's
     * local_bytes, raised by alloca, reset by stackrestore.  Local
     * accesses at or above it fault; a callee's frame starts above the
     * calling lanes' tops, so returning frees the callee's allocas. */
    uint64_t sp[EMU_WARP_SIZE];
} EmuFrame;

typedef enum EmuWarpState {
    EMU_WARP_READY = 0,
    EMU_WARP_AT_BARRIER,
    EMU_WARP_EXITED
} EmuWarpState;

struct EmuWarp {
    EmuCta *cta;
    uint32_t id;                  /* warp index in the CTA */
    uint32_t valid;               /* lanes that exist */
    uint32_t exited;              /* lanes that exited */
    EmuWarpState state;
    uint32_t barrier_id;          /* while AT_BARRIER */
    EmuSimtEntry *stack;
    uint32_t depth, cap;
    EmuFrame *frames;
    uint32_t nframes, capframes;
    uint32_t tid[3][EMU_WARP_SIZE];   /* per-lane %tid */
    uint64_t carry;               /* per-lane carry flag bits (add.cc) */
    uint64_t ninsns;              /* warp instructions executed */
    /* Appended: a pending bar.red result, written at barrier release. */
    uint32_t red_dst;             /* destination slot or EMU_NOREG */
    uint32_t red_lanes;           /* lanes that receive it */
    uint8_t red_op;               /* PTX_M_POPC / RED_AND / RED_OR */
    bool red_pred;                /* destination is a predicate */
    /* Appended (cluster.c): lanes that arrived at the cluster barrier in
     * its current phase, lanes whose arrival completed a phase and that
     * have not waited yet, and the lanes blocked in barrier.cluster.wait
     * (the warp is then AT_BARRIER with barrier_id EMU_CLUSTER_BARRIER). */
    uint32_t cl_arrived, cl_passed, cl_wait;
    /* Appended: address | 1 of the mbarrier whose last test_wait/try_wait
     * failed, 0 after a success (deadlock reports, ops_mbarrier.c) */
    uint64_t mbar_poll;
    uint64_t mbar_fails;          /* failed waits since the last success */
    uint64_t mbar_mark;           /* mbar_fails when the scheduler's quiet
                                     window began (sched.c) */
    /* Appended (ops_bulk.c): per thread, the bulk async-group operations
     * issued since the last commit_group, and the committed groups not
     * yet retired by wait_group. */
    uint32_t bulk_open[EMU_WARP_SIZE];
    uint32_t bulk_groups[EMU_WARP_SIZE];
    /* Appended (ops_wgmma.c): wgmma.commit_group executions, and, while
     * the warp waits in wgmma.wait_group, the count that every warp of
     * its warpgroup must reach. */
    uint32_t wg_committed, wg_wait;
    /* Appended (its.c): the back edge last taken by the TOS path and the
     * state it had there (EMU_NOPC: none), and the yields so far. */
    uint32_t its_pc;
    uint64_t its_hash;
    uint64_t its_yields;
    /* Appended (its.c): lanes that arrived at a bar.warp.sync whose
     * other members have not yet. */
    uint32_t ws_arrived;
    /* Appended (its.c): lanes waiting at a .sync warp operation for
     * members on a sibling path (emu_its_sync). */
    uint32_t its_parked;
    /* Appended (its.c): the path seen spinning at a back edge (its lanes
     * and SIMT depth; mask 0: none).  Only such a path lets the lanes
     * waiting for it go on (emu_its_release): a loop that computes
     * without writing memory leaves the grid quiet too. */
    uint32_t its_spin_mask, its_spin_depth;
    uint32_t its_rel;             /* times emu_its_release let its waiting
                                     lanes go on (a timing host tells its
                                     model: the next instruction changed) */
    /* Appended (its.c): the constant-step detector of a spin whose
     * registers change (a retry counter): where the TOS path last took a
     * back edge (its_step_pc, EMU_NOPC: none; its_step_key: its CTA's
     * progress, the path's pc, mask and depth there), a linear hash of
     * its registers then, the change of that hash over the previous
     * round trip, and how many round trips in a row changed it by the
     * same non-zero amount. */
    uint32_t its_step_pc, its_steady;
    uint64_t its_step_key, its_lin, its_dlin;
    /* Appended (its.c): lanes of sibling paths executing a .sync warp
     * operation together with the running path (joint_sync), while it
     * runs: they count as present. */
    uint32_t its_joint;
};

struct EmuCta {
    EmuLaunch *launch;
    /* What of EmuLaunch.progress this CTA's warps made (memory writes
     * that changed a value, exits, barrier releases): what its warps'
     * spin detector watches (emu/its.c), so that a back edge depends on
     * the CTA alone, whichever other CTAs run beside it. */
    uint64_t progress;
    uint32_t ctaid[3];
    uint32_t linear;              /* linear CTA index */
    EmuWarp *warps;
    uint32_t nwarps;
    uint8_t *shared;              /* static and dynamic shared memory */
    uint32_t shared_bytes;        /* allocated: the static bytes, or up to
                                     the end of the dynamic ones when they
                                     start later (emu/shlayout.h) */
    uint8_t *local;               /* per-thread local memory: nthreads *
                                     local_bytes_per_thread, allocated on
                                     first use */
    /* barrier state: per barrier id 0..15 */
    uint32_t bar_arrived[16];     /* warp arrivals */
    uint32_t bar_expected[16];    /* warps expected (count/32), 0 = all */
    uint32_t bar_red[16];         /* bar.red accumulator */
    uint32_t nexited;             /* warps fully exited */
    /* Appended: */
    uint64_t local_stride;        /* local bytes per thread */
    uint8_t bar_op[16];           /* bar.red operator of the pending round */
    uint64_t *clock;              /* this CTA's SM counter (%clock), or
                                     clock_sink when a timing model sets
                                     the SM clocks */
    /* Appended (cluster.c): the CTA's cluster (NULL for a launch without
     * clusters: the CTA is then a cluster of one) and its rank there. */
    struct EmuCluster *cluster;
    uint32_t cluster_rank;
    /* Appended (client.h): the clients' CTA and warp slots, made on
     * first use. */
    void **cslots;
    /* Appended: the shared memory reserved for system software
     * (emu_resv_smem_bytes() of them are in use). */
    uint8_t resv_smem[EMU_GPU_SMEM_RESERVED];
    /* Appended (grid.c): the SM the driver placed it on (%smid; its
     * %clock is that SM's counter). */
    uint32_t sm;
    /* Appended: bumped whenever one of its warps changes state
     * (emu_warp_set_state), so that a driver tells barrier releases and
     * exits by comparing a number instead of every warp's state. */
    uint32_t wstate_gen;
    /* Appended (simt.c barrier_release): CTA barrier releases so far,
     * also those no warp waited for (a lone warp arriving), which change
     * no warp's state; with it a driver tells every release. */
    uint32_t bar_releases;
    /* Appended (simt.c): per barrier id, the warps that arrived in the
     * pending round (bit = warp index; a CTA has at most 32 warps); the
     * release's EMU_EV_BARRIER carries it (emu/client.h). */
    uint32_t bar_warps[16];
    /* Appended (grid.c): what its steps count when a timing model sets
     * the SM clocks (its own: CTAs of different SMs step on different
     * host threads, timing/host.c). */
    uint64_t clock_sink;
};

/* Every change of a warp's state goes through here. */
static inline void emu_warp_set_state(EmuWarp *w, EmuWarpState st)
{
    w->state = st;
    w->cta->wstate_gen++;
}

/* The region of a CTA's shared memory that CUDA reserves for system
 * software (cudaDevAttrReservedSharedMemoryPerBlock: 1 KiB from sm_80 on,
 * none before; PTX ISA 9.0 section 10.34, %reserved_smem_offset_begin,
 * _end, _cap and _<2>; nvcc 13 keeps the barrier word of a
 * cooperative-groups tile wider than a warp there).  Here it lies at the
 * top of the shared window, apart from the user's static and dynamic
 * shared memory, so that a user access past its allocation still faults.
 * %reserved_smem_offset_<N> is EMU_RESV_SMEM_BEGIN + 8 * N. */
#define EMU_RESV_SMEM_BEGIN \
    (EMU_SHARED_LIMIT - (uint64_t)EMU_GPU_SMEM_RESERVED)
static inline uint32_t emu_resv_smem_bytes(const EmuDevice *d)
{
    return d->gpu.arch >= 80 ? EMU_GPU_SMEM_RESERVED : 0;
}

/* A thread-block cluster (compute_90): its CTAs, resident together,
 * indexed by %cluster_ctarank. */
typedef struct EmuCluster {
    EmuCta **ctas;
    uint32_t nctas;
    uint32_t narrived;            /* lanes arrived in the current phase */
} EmuCluster;

/* EmuWarp.barrier_id of a warp blocked in barrier.cluster.wait (CTA
 * barriers use 0..EMU_MAX_BARRIERS-1). */
#define EMU_CLUSTER_BARRIER 0xC1u

/* An access-policy window (CUDA Programming Guide, "L2 Access
 * Management"): accesses to [base, base + bytes) get hit_prop with
 * probability hit_ratio and miss_prop otherwise; properties are CUDA's
 * cudaAccessProperty values (0 normal, 1 streaming, 2 persisting). */
typedef struct EmuAccessWindow {
    uint64_t base, bytes;
    float hit_ratio;
    uint8_t hit_prop, miss_prop;
} EmuAccessWindow;

struct EmuLaunch {
    EmuDevice *dev;
    EmuModule *mod;
    const EmuFunc *kernel;
    uint32_t grid[3];
    uint32_t block[3];
    uint32_t dyn_shared;
    uint8_t *params;              /* param_bytes, laid out per .param */
    uint64_t gridid;
    uint64_t insns;               /* warp instructions so far */
    EmuFault fault;
    bool faulted;
    /* Appended: */
    uint64_t *sm_clock;           /* the device's per-SM counters */
    uint64_t progress;            /* memory writes that changed a value,
                                     exits and barrier releases: the
                                     scheduler's watchdog watches it
                                     (emu_progress) */
    uint64_t local_stride;        /* local bytes per thread */
    bool reads_host;              /* touched managed or registered host
                                     memory, which the host may write
                                     while the kernel runs (grid.c) */
    char fault_text[512];         /* the faulting instruction, printed */
    /* Cooperative launch (cudaLaunchCooperativeKernel): set after
     * emu_launch_begin.  All CTAs are then resident at once, and
     * %envreg1:%envreg2 hold the address of the grid-sync workspace that
     * cooperative_groups::this_grid() uses (0 otherwise, so grid.sync()
     * traps as on hardware). */
    bool cooperative;
    uint64_t coop_ws;
    /* While a client wants steps (emu/client.h), the functional
     * scheduler steps every warp with this record (one per launch, owned
     * by emu_launch_run) and gives it to the clients after each step
     * that executed an instruction, the faulting one included; NULL
     * otherwise (the fast path, emu_warp_run, no record). */
    struct EmuStepRecord *step_rec;
    /* Appended (builtins.c): this launch's printf output and the number
     * of printf records dropped because the buffer was full. */
    char *printf_buf;
    size_t printf_len, printf_cap;
    uint64_t printf_dropped;
    /* Appended (cluster.c): CTAs per cluster in each dimension ({1,1,1}
     * without clusters) and %is_explicit_cluster.  Set by
     * emu_launch_cluster() after emu_launch_begin. */
    uint32_t cluster[3];
    bool explicit_cluster;
    /* Appended (memory.c): the last global allocation accessed. */
    EmuMemHit mhit;
    /* Appended (shadow.h): where this context's writes to writable
     * global memory go instead of memory (a timing host's per-SM
     * context in its parallel sections), or NULL. */
    struct EmuShadow *shadow;
    /* Appended (tolerate.c): what this context's tolerated accesses met
     * last, so that a hot one takes no lock: the slack page, and the
     * instructions recorded with the lowest thread key it gave them. */
    EmuSlackCache tol_page;
    struct { const void *func; uint32_t pc; uint64_t key; } tol_seen[4];
    uint32_t tol_next;
    /* Appended (devrt.c, dynamic parallelism): the grid's nesting depth
     * (0 for the host's launches), the grid that launched it and the
     * launching thread (NULL / zero for the host's), the device-runtime
     * state (made on first use), and the grid hook: called with done =
     * false before and true after each child grid runs (statistics,
     * tracing).  Children inherit the grid hook (and report to the
     * device's clients, emu/client.h). */
    uint32_t depth;
    EmuLaunch *parent;
    uint32_t by_ctaid[3], by_tid[3];
    struct EmuDevrt *devrt;
    void (*grid_hook)(void *ctx, const EmuLaunch *child, bool done);
    void *grid_hook_ctx;
    /* Appended (the driver seam): when driver is set, emu_launch_run runs
     * the grid through it (a timing model: timing/host.c) instead of the
     * functional scheduler; children of dynamic parallelism inherit it.
     * timed: the driver sets %clock (EmuDevice.sm_clock) and
     * %globaltimer (EmuDevice.timer_ns) itself, so steps do not count
     * them. */
    EmuStatus (*driver)(void *ctx, EmuLaunch *l);
    void *driver_ctx;
    bool timed;
    /* Appended (grid.c): when the watchdog first looked at the clock
     * (CLOCK_MONOTONIC ms; the time limit runs from there). */
    uint64_t start_ms;
    /* Appended (async.c): the asynchronous-operation channels of
     * recorded steps, made on first use. */
    struct EmuAsync *async;
    /* Appended (client.h): the clients' launch slots and the list the
     * funnel notes accesses in for them, made on first use. */
    void **cslots;
    struct EmuAccList *cacc;
    /* Appended (par.c): this is a worker's copy of a launch run by the
     * pool (emu/pool.h): its faults are not published to the device, and
     * device printf writes length-framed records that the driver merges
     * in CTA order. */
    bool worker;
    /* Appended (timing hints, runtime/api.c): what a timing model's
     * memory system is asked for this launch; no result depends on them.
     * carveout: the preferred shared-memory carve-out in percent of the
     * largest capacity (cudaFuncAttributePreferredSharedMemoryCarveout),
     * -1 none (emu_launch_begin's default); apw: the access-policy
     * window (cudaAccessPolicyWindow; bytes 0: none). */
    int32_t carveout;
    EmuAccessWindow apw;
    /* Appended (par.c): in a worker's copy under deterministic mode, the
     * parallel run whose turnstile orders global atomics
     * (emu_par_atomic_turn), else NULL; det_ok: the CTA the worker runs
     * has passed it (every lower CTA has finished); det_stop: the CTA
     * stopped before an atomic instead. */
    struct EmuPar *det;
    bool det_ok, det_stop;
};

/* What one step did: for schedulers, timing models and statistics. */
typedef enum EmuStepKind {
    EMU_STEP_ALU, EMU_STEP_MEM, EMU_STEP_ATOMIC, EMU_STEP_BRANCH,
    EMU_STEP_BARRIER, EMU_STEP_CALL, EMU_STEP_RET, EMU_STEP_EXIT,
    EMU_STEP_FAULT, EMU_STEP_OTHER
} EmuStepKind;

struct EmuInsnInfo;               /* emu/insninfo.h */

/* What one step did (version 2).  A zeroed record is a valid empty
 * one; the record owns its arrays (emu_step_record_fini frees them) and
 * reuses them from step to step: acc and wait_tokens are valid until
 * the next step with this record. */
typedef struct EmuStepRecord {
    EmuStepKind kind;
    uint16_t op;                  /* PtxOpcode */
    uint32_t pc;
    const EmuFunc *func;
    uint32_t active;              /* TOS mask before the instruction */
    uint32_t exec;                /* lanes that executed (guard applied) */
    bool diverged;
    /* Static information about the instruction (emu/insninfo.h), or
     * NULL where not made. */
    const struct EmuInsnInfo *info;
    /* Every memory access, in order (emu/access.h); never truncated. */
    struct EmuAccess *acc;
    uint32_t nacc, acc_cap;
    /* An instruction that starts an asynchronous operation: its token
     * (0: none).  A wait on asynchronous operations (wait: EmuWait of
     * emu/insninfo.h, EMU_WAIT_NONE otherwise): the tokens it depends on
     * (emu/async.h). */
    uint64_t async_token;
    uint8_t wait;
    uint64_t *wait_tokens;
    uint32_t nwait, wait_cap;
} EmuStepRecord;

void emu_step_record_fini(EmuStepRecord *r);

EmuStatus emu_launch_begin(EmuModule *m, const EmuFunc *kernel,
                           const uint32_t grid[3], const uint32_t block[3],
                           uint32_t dyn_shared, void **args,
                           EmuLaunch **out);
void emu_launch_end(EmuLaunch *l);

/* The occupancy calculator (emu/gpuspec.h) for kernel F on GPU: how many
 * CTAs of THREADS threads, with DYN_SMEM bytes of dynamic shared memory
 * on top of F's static ones, one SM holds, F's registers counted as
 * EmuFunc.regs gives them (emu/regest.h).  The scheduler's residency cap and the
 * device runtime's cudaOccupancyMaxActiveBlocksPerMultiprocessor both ask
 * it, so the two always agree; CARVEOUT is the preferred shared-memory
 * carve-out in percent (-1: none; emu_gpu_carveout_bytes). */
int emu_func_blocks_per_sm(const EmuGpu *gpu, const EmuFunc *f, int threads,
                           size_t dyn_smem, int carveout);

EmuStatus emu_cta_init(EmuLaunch *l, uint32_t linear, EmuCta *cta);
void emu_cta_fini(EmuCta *cta);

/* Execute the next instruction of warp w.  rec may be NULL. */
EmuStatus emu_warp_step(EmuCta *cta, EmuWarp *w, EmuStepRecord *rec);
/* The instruction the next emu_warp_step(cta, w, ...) will execute, its
 * function and pc, the lanes on its path (*active) and those that will
 * execute it (*exec, the guard applied); NULL when the warp cannot issue
 * (at a barrier, exited).  Executes nothing; it may settle the warp's
 * SIMT stack (a warp released from a barrier at the end of a function
 * pops it), as the next step would before its instruction. */
const EmuInsn *emu_warp_peek(EmuCta *cta, EmuWarp *w, const EmuFunc **fn,
                             uint32_t *pc, uint32_t *active, uint32_t *exec);
/* emu_warp_step(cta, w, NULL) up to max times while w stays ready (the
 * functional scheduler's fast loop). */
EmuStatus emu_warp_run(EmuCta *cta, EmuWarp *w, uint32_t max);

/* The functional scheduler: run a whole launch to completion. */
EmuStatus emu_launch_run(EmuLaunch *l);

/* ---- services for control-flow and memory handlers (simt.c, memory.c) ---- */

/* Split the TOS entry into n paths (pcs[k], masks[k]) that reconverge at
 * reconv, pushed per EmuConfig.diverge_order.  Empty masks are skipped;
 * a single non-empty path just moves the TOS to its pc. */
void emu_simt_split(EmuCtx *x, uint32_t n, const uint32_t *pcs,
                    const uint32_t *masks, uint32_t reconv);
/* Lanes leave the kernel (exit, or ret from the kernel's frame). */
void emu_simt_exit(EmuCtx *x, uint32_t lanes);
/* Lanes return from the current .func frame. */
void emu_simt_ret(EmuCtx *x, uint32_t lanes);
/* Lanes call callee (all lanes have the same target); args/rets are the
 * call instruction's lists.  Faults on overflow. */
void emu_simt_call(EmuCtx *x, uint32_t lanes, const EmuFunc *callee,
                   const EmuInsn *call);
/* Operand indices of a call instruction (-1 when absent): the returns
 * list ri, the target ti and the arguments list ai. */
void emu_call_layout(const EmuInsn *c, int *ri, int *ti, int *ai);
/* The calling warp arrives at barrier id, expecting `expected` warp
 * arrivals (0 = every warp of the CTA that has not exited); wait = false
 * for bar.arrive. */
void emu_barrier_arrive(EmuCtx *x, unsigned id, uint32_t expected,
                        bool wait);
/* A CTA's local memory (allocated on first use). */
uint8_t *emu_local_bytes(EmuCta *cta);
/* Start a frame's per-lane stack tops (EmuFrame.sp) at the end of its
 * static local memory. */
/* cta made progress: its own count and the launch's (EmuCta.progress). */
static inline void emu_progress(EmuCta *cta)
{
    cta->launch->progress++;
    cta->progress++;
}

/* SM sm's %clock counter in an EmuDevice.sm_clock array: one cache line
 * each, since every warp instruction of the SM's CTAs counts there, and
 * the functional pool's workers run CTAs of neighbouring SMs side by
 * side (emu/pool.h): sharing a line, 8 counters cost a third of the
 * pool's speed on ALU-bound kernels. */
#define EMU_SM_CLOCK_STRIDE 8u
static inline uint64_t *emu_sm_clock(uint64_t *clocks, uint32_t sm)
{
    return clocks + (size_t)sm * EMU_SM_CLOCK_STRIDE;
}

static inline void emu_frame_sp_init(EmuFrame *fr)
{
    uint64_t top = fr->local_base + fr->func->local_bytes;
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        fr->sp[l] = top;
    }
}

/* The local base of the current frame. */
static inline uint64_t emu_frame_base(const EmuCtx *x)
{
    return x->frame->local_base;
}

/* l->fault_text = the instruction `in` of fn as printed PTX, one line
 * (empty when in is NULL). */
/* "FILE:LINE" of the CUDA source, from the .loc directive in effect at
 * pc of f (nvcc -lineinfo or -G), or "" without one; returns buf. */
const char *emu_src_pos(const IrModule *m, const IrFunc *f, uint32_t pc,
                        char *buf, size_t n);
void emu_fault_print_insn(EmuLaunch *l, const IrFunc *fn,
                          const IrInsn *in);

/* The address an EO_ADDR operand names for one lane: register plus
 * immediate in the operand's address width (EmuOpnd.pad: a 32-bit
 * register's sum wraps at 32 bits), relative to the current frame for
 * frame variables. */
static inline uint64_t emu_lane_addr(const EmuCtx *x, const EmuOpnd *a,
                                     unsigned lane)
{
    uint64_t v = a->imm;
    if (a->reg != EMU_NOREG) {
        v += x->regs[(size_t)a->reg * EMU_WARP_SIZE + lane];
    }
    v &= UINT64_MAX >> a->pad;
    if (a->sel == EMU_ADDR_FRAME) {
        v += x->frame->local_base;
    }
    return v;
}

#define EMU_MAX_BARRIERS 16

#endif
