/*
 * <ptxemu/ptxemu_timing.h>: the timing plug-in ABI.
 *
 * Installed as $(includedir)/ptxemu/ptxemu_timing.h; a plug-in is built
 * with `pkg-config --cflags ptxemu` (which names both $(includedir) and
 * $(includedir)/ptxemu) and includes <ptxemu/ptxemu_timing.h>.  See
 * examples/timing-plugin/ for a complete plug-in.
 *
 * A timing model decides *when* warps issue; ptxemu's functional emulator
 * decides *what* every instruction computes.  A model is built in (chosen
 * by name: `--timing simple`) or a shared object loaded by path
 * (`--timing ./my.so`).  This header is the whole contract between the
 * two; it includes nothing of ptxemu's internals, and a plug-in links
 * against nothing of ptxemu (it calls the host only through the function
 * table it is given).
 *
 * Entry point.  A plug-in exports exactly one symbol:
 *
 *     int ptxemu_timing_plugin_init(uint32_t host_abi_version,
 *                                   ptxemu_tm_ops *ops);
 *
 * The host zero-fills *ops, sets ops->abi_version to its own version and
 * ops->struct_size to its sizeof(ptxemu_tm_ops) and calls it once.  The
 * plug-in fills the fields it knows (it must not write past
 * ops->struct_size), sets ops->abi_version to the version it was built
 * for (PTXEMU_TM_ABI_VERSION) and returns 0, or non-zero to refuse.
 *
 * Versioning (the rules QEMU's TCG plug-ins follow).  Both tables start
 * with `abi_version` and `struct_size`.  Fields are only ever appended;
 * a field's meaning never changes.  The host accepts plug-ins built for
 * any version in [PTXEMU_TM_ABI_MIN, PTXEMU_TM_ABI_VERSION] and refuses
 * older or newer ones, a missing entry point, a refusal, or a table
 * without the required callbacks, each with a one-line message naming
 * the file; it never crashes on a bad plug-in.  A plug-in may rely on
 * every host field up to its own version being present; it reads newer
 * fields only after checking host->struct_size.
 *
 * Inversion of control (as gem5's CPU models drive StaticInst::execute).
 * The model owns the cycle loop.  Per kernel the host calls
 * kernel_begin, then cycle() until it returns 0, then kernel_end.  A
 * kernel stopped early (cycle() negative, a guest fault, a deadlock)
 * gets its kernel_end too, at once: the model drops what it holds of it
 * (the host frees its CTAs and warps right after; the end cycle is not
 * used).  Only a refused kernel_begin has no kernel_end.  Inside
 * cycle() the model asks the host for work and drives it:
 *  - cta_next(sm)       places the grid's next CTA on an SM (residency
 *                       limits are the model's business; the host only
 *                       hands CTAs out in order, a cluster's CTAs one
 *                       after another);
 *  - warp_peek(w)       the warp's next instruction and the lanes that
 *                       will execute it, without executing it;
 *  - warp_step(w)       executes that instruction functionally, now (at
 *                       issue, as GPGPU-Sim and Accel-Sim do), and
 *                       reports its memory accesses: addresses, sizes
 *                       and kinds, never data;
 *  - set_time(sm, t)    what %clock/%clock64 read on that SM.
 * Values never depend on the model: any model gives the same results
 * (the host checks nothing about timing, but it owns every byte).
 *
 * Handles (ptxemu_tm_cta, ptxemu_tm_warp) are opaque and valid from the
 * call that hands them out until the CTA is retired (cta_retire) or the
 * kernel ends.  Static instruction info (ptxemu_tm_insn) stays valid
 * until kernel_end.  The host is not thread-safe: call it only from the
 * thread that called into the model, except as "Parallel stepping"
 * allows.  A model must never call ptxemu's public API (ptxemu_*, cu*,
 * cuda*) from a callback.
 *
 * Parallel stepping (ABI 3).  In kernel_begin a model may ask
 * host->threads() how many host threads it may use for the kernel (1:
 * one; the host says why under --verbose).  Between
 * host->parallel(h, 1) and host->parallel(h, 0), both called from the
 * thread that called into the model, the model may call warp_peek,
 * warp_step, warp_state, warp_info and set_time from any threads, each
 * SM's warps from one thread at a time, provided that no step executes
 * an instruction flagged PTXEMU_TM_I_SHARED (peek first: such a step
 * must wait until parallel(h, 0)).  The events of those steps come on
 * the thread of the step.  A step's output arrays stay valid until the
 * next warp_step for a warp of the same SM.  A guest fault of such a
 * step stops the kernel only as the model's negative result does; the
 * host reports the fault of the lowest SM whose parallel step faulted,
 * unless a step outside the parallel section faulted first.  Everything
 * else (cta_next, cta_retire, stat, error ...) stays on the model's
 * calling thread, outside the section.  A model that never calls
 * parallel() runs as before.
 *
 * Running ahead (ABI 5).  Inside a parallel section a model may step
 * an SM through later cycles than the others (a window), where nothing
 * outside the SM can reach it: such steps are never flagged SHARED, so
 * they commute with every step of the other SMs.  The host looks at the
 * launch between cycle() calls (its watchdog); host->ahead() says up to
 * which device cycle (exclusive) it will not: a model keeps every SM's
 * steps below it, and returns from cycle() no later than it with every
 * SM's cycles before the returned *now done, so that the host, when it
 * looks, sees the launch as stepping every SM cycle by cycle leaves it.
 * When its watchdog changes a warp's next instruction there, it says so
 * (PTXEMU_TM_EV_WARP_CHANGED).  0: the host looks after
 * every cycle (statistics intervals): no window.  A window's step may
 * fault at a later cycle than another SM's fault that stops the kernel:
 * the model then drops it (host->drop_fault), so that the host reports
 * the fault one thread would have met first.
 *
 * Buffered global accesses (ABI 6).  To a model of ABI 6 on, plain
 * loads and stores (ld, ldu, st without .volatile, .mmio or a
 * .relaxed/.acquire/.release qualifier wider than the CTA) of the
 * .global and generic spaces come flagged PTXEMU_TM_I_BUFFERED beside
 * PTXEMU_TM_I_SHARED.  When host->buffered() says so for a kernel, the
 * model may step them inside a parallel section: each SM's stores to
 * global memory then go to a buffer of the SM's, its own loads see them
 * and other SMs' do not (they see memory as the last parallel(h, 0)
 * left it), and parallel(h, 0) writes the buffers to memory in SM
 * order.  Outside a section steps access memory directly, so a model
 * that steps them in sections for a kernel must step every SM of that
 * kernel inside sections (on one thread too) for its results to be the
 * same at any thread count, races between SMs included.  A model that
 * keeps them out of sections (as SHARED steps) runs as before.  When
 * buffered() is 0 a model gets one thread (threads() and ahead() say
 * so) and should not open sections.
 *
 * Events.  warp_step may complete things for other warps: a bar.sync
 * that releases its CTA, a warp that exits, a CTA whose warps have all
 * exited.  The host reports them through ops->event, called from inside
 * warp_step (before it returns) in the order they happen.
 *
 * Errors.  A callback returning a negative ptxemu_tm_result stops the
 * kernel; the host reports guest faults (out-of-bounds access, trap,
 * deadlock) itself with the functional emulator's located message, and
 * a model's own error text set through host->error().
 */
#ifndef PTXEMU_TIMING_H
#define PTXEMU_TIMING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ABI version history: 1 = first release; 2 = ptxemu_tm_kernel's
 * memory-system hints (carveout, the L2's persisting set-aside and the
 * access-policy window); 3 = stepping SMs on several host threads
 * (host->threads, host->parallel, PTXEMU_TM_I_SHARED; "Parallel
 * stepping" at the top); 4 = ops->stats_sync (counters a model keeps
 * lazily, brought up to date when the host reads them during a
 * kernel); 5 = running SMs ahead (host->ahead, host->drop_fault;
 * "Running ahead" at the top); 6 = buffered global accesses in parallel
 * sections (host->buffered; "Buffered global accesses" at the top). */
#define PTXEMU_TM_ABI_VERSION 6u
#define PTXEMU_TM_ABI_MIN 1u
#define PTXEMU_TM_ENTRY "ptxemu_timing_plugin_init"

typedef struct ptxemu_tm_host ptxemu_tm_host;   /* the host's context */
typedef struct ptxemu_tm_cta ptxemu_tm_cta;     /* a resident CTA */
typedef struct ptxemu_tm_warp ptxemu_tm_warp;   /* a warp of one */

/* Results of host calls and of model callbacks. */
typedef enum ptxemu_tm_result {
    PTXEMU_TM_OK = 0,
    PTXEMU_TM_NONE = 1,           /* cta_next: no CTA left to place */
    PTXEMU_TM_ERROR = -1,         /* the model's error (host->error) */
    PTXEMU_TM_FAULT = -2,         /* a guest fault: the kernel stops */
    PTXEMU_TM_BAD_HANDLE = -3,    /* a handle that is not live */
} ptxemu_tm_result;

/* Functional-unit classes (what an instruction occupies). */
typedef enum ptxemu_tm_unit {
    PTXEMU_TM_UNIT_INT = 0,       /* integer and logic ALU */
    PTXEMU_TM_UNIT_FP16,          /* packed f16/bf16 ALU */
    PTXEMU_TM_UNIT_FP32,
    PTXEMU_TM_UNIT_FP64,
    PTXEMU_TM_UNIT_SFU,           /* transcendentals, approximate rcp/sqrt */
    PTXEMU_TM_UNIT_TENSOR,        /* mma, wmma, wgmma */
    PTXEMU_TM_UNIT_LDST,          /* loads, stores, atomics, shuffles' port */
    PTXEMU_TM_UNIT_TEX,           /* texture and surface */
    PTXEMU_TM_UNIT_CTRL,          /* branch, call, return, exit */
    PTXEMU_TM_UNIT_SYNC,          /* barriers, fences, mbarrier */
    PTXEMU_TM_UNIT_ASYNC,         /* bulk copies and TMA (copy engine) */
    PTXEMU_TM_UNIT_MISC,          /* everything else (nop-like) */
    PTXEMU_TM_UNIT_WARP,          /* lane exchange: shfl, vote, match,
                                     redux, elect, movmatrix */
    PTXEMU_TM_UNIT_COUNT
} ptxemu_tm_unit;

/* State spaces of accesses (generic addresses already resolved). */
typedef enum ptxemu_tm_space {
    PTXEMU_TM_SPACE_NONE = 0,
    PTXEMU_TM_SPACE_GLOBAL,
    PTXEMU_TM_SPACE_SHARED,       /* the CTA's own shared memory */
    PTXEMU_TM_SPACE_SHARED_CLUSTER, /* another CTA's, in the cluster */
    PTXEMU_TM_SPACE_LOCAL,
    PTXEMU_TM_SPACE_CONST,
    PTXEMU_TM_SPACE_PARAM,
    PTXEMU_TM_SPACE_TEX,          /* texel reads and surface accesses:
                                     the texture path, at the global
                                     address of the texel */
    PTXEMU_TM_SPACE_COUNT
} ptxemu_tm_space;

/* What kind of waiting an instruction does (decided at decode). */
typedef enum ptxemu_tm_wait {
    PTXEMU_TM_WAIT_NONE = 0,
    PTXEMU_TM_WAIT_BARRIER,       /* bar.sync / barrier.sync (CTA) */
    PTXEMU_TM_WAIT_CLUSTER,       /* barrier.cluster.wait */
    PTXEMU_TM_WAIT_ASYNC_GROUP,   /* cp.async.wait_group / wait_all */
    PTXEMU_TM_WAIT_BULK_GROUP,    /* cp.async.bulk.wait_group */
    PTXEMU_TM_WAIT_MBARRIER,      /* mbarrier.test_wait / try_wait */
    PTXEMU_TM_WAIT_WGMMA,         /* wgmma.wait_group */
    PTXEMU_TM_WAIT_FENCE,         /* membar / fence */
    PTXEMU_TM_WAIT_WARP,          /* bar.warp.sync */
    PTXEMU_TM_WAIT_TCGEN05,       /* tcgen05.wait::ld / ::st */
    PTXEMU_TM_WAIT_GRID,          /* griddepcontrol.wait */
    PTXEMU_TM_WAIT_SLEEP,         /* nanosleep */
    PTXEMU_TM_WAIT_COUNT
} ptxemu_tm_wait;

/* ptxemu_tm_insn.flags */
enum {
    PTXEMU_TM_I_LOAD = 1u << 0,
    PTXEMU_TM_I_STORE = 1u << 1,
    PTXEMU_TM_I_ATOMIC = 1u << 2,
    PTXEMU_TM_I_BRANCH = 1u << 3, /* may change the pc of some lanes */
    PTXEMU_TM_I_CALL = 1u << 4,
    PTXEMU_TM_I_RET = 1u << 5,
    PTXEMU_TM_I_EXIT = 1u << 6,
    PTXEMU_TM_I_BARRIER = 1u << 7,
    PTXEMU_TM_I_ASYNC = 1u << 8,  /* starts an asynchronous operation */
    PTXEMU_TM_I_WARP = 1u << 9,   /* warp-synchronous (shfl, vote ...) */
    PTXEMU_TM_I_SHARED = 1u << 10,/* ABI 3: its functional effect may be
                                     seen by (or depend on) other SMs in
                                     the same cycle: global and generic
                                     memory, textures and surfaces,
                                     atomics, asynchronous copies and
                                     their waits, fences, calls, exits,
                                     cluster and grid barriers, reads of
                                     %globaltimer (the host's time) */
    PTXEMU_TM_I_BUFFERED = 1u << 11,/* ABI 6: a plain global load or store
                                     (with SHARED), which a section may
                                     step when host->buffered() says so
                                     ("Buffered global accesses") */
};

/* Register slots: per function, 0..func_slots-1 (vector elements,
 * predicates and both halves of a predicate pair each have their own).
 * Implicit state has fixed slots of its own at the top of the range:
 * PTXEMU_TM_SLOT_IMPLICIT + k, k < PTXEMU_TM_SLOT_IMPLICIT_COUNT. */
#define PTXEMU_TM_SLOT_IMPLICIT 0xFFFFFF00u
#define PTXEMU_TM_SLOT_CARRY 0xFFFFFF00u  /* the carry flag: .cc writes,
                                             addc/subc/madc read */
#define PTXEMU_TM_SLOT_BAR_RED 0xFFFFFF01u /* bar.red's deferred result */
#define PTXEMU_TM_SLOT_PARAM 0xFFFFFF02u  /* call-sequence .param space */
#define PTXEMU_TM_SLOT_STACK 0xFFFFFF03u  /* the stack pointer (alloca) */
#define PTXEMU_TM_SLOT_IMPLICIT_COUNT 4u

/* Static information about one instruction, made once at load.  Valid
 * until kernel_end; the same pointer for the same instruction. */
typedef struct ptxemu_tm_insn {
    uint32_t struct_size;
    uint16_t opcode;              /* ptxemu's opcode id (see opname) */
    uint8_t unit;                 /* ptxemu_tm_unit */
    uint8_t wait;                 /* ptxemu_tm_wait */
    uint8_t space;                /* ptxemu_tm_space (NONE: not memory,
                                     or generic: known only per access) */
    uint8_t type;                 /* operand width in bits / 8 (0: none) */
    uint16_t flags;               /* PTXEMU_TM_I_* */
    const char *opname;           /* "add", "ld", "mma.sync" ... */
    const char *text;             /* the instruction as PTX, one line */
    const char *func;             /* the function it belongs to */
    uint32_t pc;                  /* index in that function */
    uint32_t line;                /* PTX source line (0: unknown) */
    uint32_t func_id;             /* distinct per function of the kernel */
    uint32_t func_slots;          /* register slots of that function */
    uint16_t nsrc, ndst;
    const uint32_t *src;          /* source register slots (guard too) */
    const uint32_t *dst;          /* destination register slots */
} ptxemu_tm_insn;

/* Access kinds. */
typedef enum ptxemu_tm_access_kind {
    PTXEMU_TM_READ = 0,
    PTXEMU_TM_WRITE,
    PTXEMU_TM_ATOMIC,             /* read-modify-write */
    PTXEMU_TM_ASYNC_READ,         /* by an asynchronous copy */
    PTXEMU_TM_ASYNC_WRITE,
} ptxemu_tm_access_kind;

typedef struct ptxemu_tm_access {
    uint64_t addr;                /* in its space (shared: offset) */
    uint32_t size;                /* bytes */
    uint8_t lane;                 /* 0..31 */
    uint8_t space;                /* ptxemu_tm_space */
    uint8_t kind;                 /* ptxemu_tm_access_kind */
    uint8_t pad;
} ptxemu_tm_access;

/* What a step did.  The host owns the arrays; they stay valid until the
 * next warp_step call. */
typedef struct ptxemu_tm_step {
    uint32_t struct_size;         /* set by the caller: sizeof */
    const ptxemu_tm_insn *insn;   /* NULL: no instruction ran (the warp
                                     only settled its stack) */
    uint32_t active;              /* lanes on the path */
    uint32_t exec;                /* lanes that executed (guard applied) */
    uint8_t diverged;             /* the warp split */
    uint8_t pad[3];
    uint32_t nacc;
    const ptxemu_tm_access *acc;
    /* asynchronous operations: an instruction that starts one has a
     * token (0: none); a wait instruction lists the tokens it waited
     * for.  The functional effect is complete at issue: a model delays
     * the wait (or what follows) until its modelled completion. */
    uint64_t async_token;
    uint32_t nwait;
    const uint64_t *wait_tokens;
} ptxemu_tm_step;

/* Warp states. */
typedef enum ptxemu_tm_warp_state {
    PTXEMU_TM_WARP_READY = 0,     /* can issue (peek gives its insn) */
    PTXEMU_TM_WARP_BARRIER,       /* blocked at a barrier */
    PTXEMU_TM_WARP_EXITED,
} ptxemu_tm_warp_state;

/* A warp's identity, for models that keep their own tables. */
typedef struct ptxemu_tm_warp_info {
    uint32_t struct_size;
    uint32_t cta;                 /* linear CTA id in the grid */
    uint32_t warp;                /* warp index in the CTA */
    uint32_t sm;                  /* the SM its CTA was placed on */
    uint32_t lanes;               /* lanes that exist (a partial warp) */
    uint32_t slot;                /* CTA-local slot: 0..nwarps-1 */
} ptxemu_tm_warp_info;

/* Access properties of an access-policy window (CUDA's
 * cudaAccessProperty values). */
typedef enum ptxemu_tm_access_prop {
    PTXEMU_TM_PROP_NORMAL = 0,    /* resets a line's persisting status */
    PTXEMU_TM_PROP_STREAMING = 1, /* less likely to stay in L2 */
    PTXEMU_TM_PROP_PERSISTING = 2,/* more likely to stay (the set-aside) */
} ptxemu_tm_access_prop;

/* The kernel a model is about to time.  Fields after start_cycle came
 * with ABI 2: the host fills every field it knows and sets struct_size
 * to its sizeof; a model reads a field only when struct_size covers it
 * (PTXEMU_TM_HAS(k, field)). */
typedef struct ptxemu_tm_kernel {
    uint32_t struct_size;
    const char *name;
    uint32_t grid[3], block[3], cluster[3];
    uint64_t nctas;               /* grid[0]*grid[1]*grid[2] */
    uint32_t threads_per_cta;
    uint32_t warps_per_cta;
    uint32_t regs_per_thread;     /* estimate: the kernel's registers */
    uint32_t shared_per_cta;      /* static + dynamic bytes */
    uint32_t local_per_thread;
    uint32_t depth;               /* dynamic parallelism: 0 for host */
    uint8_t cooperative;          /* every CTA must be co-resident */
    uint8_t pad[3];
    uint64_t start_cycle;         /* device time at the launch */
    /* ABI 2: hints for the memory system (no result depends on them). */
    int32_t carveout;             /* preferred shared-memory carve-out,
                                     percent of the largest capacity
                                     (cudaFuncAttributePreferredShared-
                                     MemoryCarveout); -1: none */
    uint32_t l2_resets;           /* cudaCtxResetPersistingL2Cache calls
                                     so far: when it changed since the
                                     last kernel, every persisting line
                                     of the L2 is normal again */
    uint64_t l2_persist_bytes;    /* L2 set aside for persisting accesses
                                     (cudaLimitPersistingL2CacheSize) */
    /* The access-policy window of the launch (its stream's, its graph
     * node's or its own launch attribute): accesses to [apw_base,
     * apw_base + apw_bytes) get apw_hit_prop with probability
     * apw_hit_ratio, apw_miss_prop otherwise (ptxemu_tm_access_prop);
     * apw_bytes 0: no window. */
    uint64_t apw_base, apw_bytes;
    float apw_hit_ratio;
    uint8_t apw_hit_prop, apw_miss_prop;
    uint8_t pad2[2];
} ptxemu_tm_kernel;

/* Does the host's ptxemu_tm_kernel *k hold field f? */
#define PTXEMU_TM_HAS(k, f)                                                \
    ((k)->struct_size >= offsetof(ptxemu_tm_kernel, f) + sizeof((k)->f))

/* Typed parameter tables.  A model declares its parameters (and those of
 * the components it instantiates) as tables; the host parses
 * `--timing-config FILE` (lines `key = value`, `#` comments) and
 * `--timing-set key=value` against them, with located errors
 * ("FILE:LINE: unknown key 'l1.kb'"), and generates `--timing-help`.
 * Values as users write them (and defaults, parsed the same way):
 * integers decimal or 0x-hex with an optional k/M/G suffix (x2^10,
 * 2^20, 2^30); doubles finite; a value in double quotes keeps blanks
 * and '#'.  Names are [A-Za-z0-9_.-]+, each declared once.  Reading a
 * name not declared, or as another type, returns 0 and fails create. */
typedef enum ptxemu_tm_ptype {
    PTXEMU_TM_P_INT = 0,          /* int64 */
    PTXEMU_TM_P_UINT,             /* uint64 */
    PTXEMU_TM_P_DOUBLE,
    PTXEMU_TM_P_BOOL,             /* 0/1, true/false, yes/no, on/off */
    PTXEMU_TM_P_STRING,
} ptxemu_tm_ptype;

typedef struct ptxemu_tm_param {
    const char *name;             /* dotted: "sched.policy", "l1.sets" */
    ptxemu_tm_ptype type;
    const char *def;              /* default, as text (parsed like input) */
    const char *help;             /* one line */
} ptxemu_tm_param;

/* The host's services, given to the model at create. */
typedef struct ptxemu_tm_host_api {
    uint32_t abi_version;         /* the host's PTXEMU_TM_ABI_VERSION */
    uint32_t struct_size;

    /* -- parameters (valid during create; names declared in ops->params
     * or with declare_params before they are read) -- */
    int (*declare_params)(ptxemu_tm_host *h, const ptxemu_tm_param *p,
                          uint32_t n);
    int64_t (*param_int)(ptxemu_tm_host *h, const char *name);
    uint64_t (*param_uint)(ptxemu_tm_host *h, const char *name);
    double (*param_double)(ptxemu_tm_host *h, const char *name);
    bool (*param_bool)(ptxemu_tm_host *h, const char *name);
    const char *(*param_string)(ptxemu_tm_host *h, const char *name);

    /* -- statistics: the host reads *ctr at kernel_end and reports the
     * kernel's delta in --stats (path "sm3.l1.hit"); ctr must stay valid
     * until destroy.  Register during create or kernel_begin.  With
     * --stats-interval it also reads them after each cycle() call,
     * calling ops->stats_sync first where the model has one (ABI 4). -- */
    int (*stat)(ptxemu_tm_host *h, const char *path, const uint64_t *ctr,
                const char *help);

    /* -- the device -- */
    uint32_t (*num_sms)(ptxemu_tm_host *h);

    /* -- residency -- */
    /* Place the next CTA of the grid on SM sm.  PTXEMU_TM_NONE when every
     * CTA has been handed out. */
    int (*cta_next)(ptxemu_tm_host *h, uint32_t sm, ptxemu_tm_cta **cta);
    /* The CTA's warps (valid while the CTA lives). */
    uint32_t (*cta_warps)(ptxemu_tm_host *h, ptxemu_tm_cta *cta,
                          ptxemu_tm_warp *const **warps);
    /* The CTA has finished (all warps exited: the model was told by
     * PTXEMU_TM_EV_CTA_DONE) and the model has drained it: free it. */
    void (*cta_retire)(ptxemu_tm_host *h, ptxemu_tm_cta *cta);

    /* -- warps -- */
    /* The next instruction and the lanes that will execute it (guard
     * applied; *active: the lanes on the path).  NULL when the warp
     * cannot issue (blocked or exited).  Never executes anything. */
    const ptxemu_tm_insn *(*warp_peek)(ptxemu_tm_host *h,
                                       ptxemu_tm_warp *w, uint32_t *active,
                                       uint32_t *exec);
    /* Execute the instruction peek returned; fill *out. */
    int (*warp_step)(ptxemu_tm_host *h, ptxemu_tm_warp *w,
                     ptxemu_tm_step *out);
    int (*warp_state)(ptxemu_tm_host *h, ptxemu_tm_warp *w);
    void (*warp_info)(ptxemu_tm_host *h, ptxemu_tm_warp *w,
                      ptxemu_tm_warp_info *out);

    /* -- time -- */
    /* What %clock/%clock64 read on SM sm from now on (cycles). */
    void (*set_time)(ptxemu_tm_host *h, uint32_t sm, uint64_t cycle);
    /* The core clock, for %globaltimer and event timing (default 1000). */
    void (*set_clock_mhz)(ptxemu_tm_host *h, double mhz);

    /* -- messages -- */
    /* The model's error text (then return PTXEMU_TM_ERROR). */
    void (*error)(ptxemu_tm_host *h, const char *msg);
    void (*log)(ptxemu_tm_host *h, const char *msg); /* stderr, prefixed */

    /* -- ABI 3: parallel stepping (see the top of this file) -- */
    /* Host threads the model may step the kernel's SMs on (>= 1);
     * valid in kernel_begin. */
    uint32_t (*threads)(ptxemu_tm_host *h);
    /* on: the parallel section begins; 0: it ends (the host folds what
     * the section's steps counted). */
    void (*parallel)(ptxemu_tm_host *h, int on);

    /* -- ABI 5: running ahead (see the top of this file) -- */
    /* The device cycle before which the host will not look at the
     * launch; 0: it looks after every cycle (no window). */
    uint64_t (*ahead)(ptxemu_tm_host *h);
    /* Forget the fault of SM sm's steps in the last parallel section
     * (they ran past the cycle the kernel stopped at). */
    void (*drop_fault)(ptxemu_tm_host *h, uint32_t sm);

    /* -- ABI 6: buffered global accesses (see the top of this file) -- */
    /* Nonzero when the kernel's steps flagged PTXEMU_TM_I_BUFFERED may
     * run inside a parallel section, buffered (a model of ABI 6 on);
     * valid in kernel_begin. */
    uint32_t (*buffered)(ptxemu_tm_host *h);
} ptxemu_tm_host_api;

/* Events (ops->event). */
typedef enum ptxemu_tm_event {
    PTXEMU_TM_EV_BARRIER_RELEASE = 0, /* w: the warp whose arrival
                                         released the CTA barrier */
    PTXEMU_TM_EV_WARP_EXIT,       /* w exited (all its lanes) */
    PTXEMU_TM_EV_CTA_DONE,        /* cta: every warp exited */
    PTXEMU_TM_EV_WARP_CHANGED,    /* ABI 5, to models of ABI 5 on: w's
                                     next instruction changed between
                                     cycles (the host's watchdog let the
                                     lanes waiting for a spinning path go
                                     on, emu/its.h): peek it again */
    PTXEMU_TM_EV_COUNT
} ptxemu_tm_event;

/* The model's side. */
typedef struct ptxemu_tm_ops {
    uint32_t abi_version;         /* the version the plug-in was built for */
    uint32_t struct_size;
    const char *name;             /* short name, for messages */
    const char *help;             /* one paragraph for --timing-help */
    const ptxemu_tm_param *params;/* the model's parameter table */
    uint32_t nparams;

    /* Make an instance.  Read parameters through api->param_*.  NULL and
     * api->error() to refuse. */
    void *(*create)(const ptxemu_tm_host_api *api, ptxemu_tm_host *h);
    void (*destroy)(void *tm);
    int (*kernel_begin)(void *tm, const ptxemu_tm_kernel *k);
    /* Advance simulated time by at least one cycle (a model may jump over
     * cycles in which nothing can happen) and set *now to the current
     * device cycle.  1: the kernel still runs; 0: every CTA has retired;
     * negative: stop (error or fault). */
    int (*cycle)(void *tm, uint64_t *now);
    /* The kernel's end; *end_cycle: the device cycle it finished at. */
    int (*kernel_end)(void *tm, uint64_t *end_cycle);
    /* Optional (NULL: not told). */
    void (*event)(void *tm, ptxemu_tm_event ev, ptxemu_tm_cta *cta,
                  ptxemu_tm_warp *w);

    /* -- ABI 4 -- */
    /* Optional: bring every counter registered with stat() up to the
     * current cycle, for a model that keeps some lazily (adds a
     * per-cycle amount only when its owner changes state, instead of
     * every cycle).  The host calls it after a cycle() call, before it
     * reads the counters then (--stats-interval); after kernel_end the
     * counters must be current without it.  NULL: always current. */
    void (*stats_sync)(void *tm);
} ptxemu_tm_ops;

typedef int (*ptxemu_tm_init_fn)(uint32_t host_abi_version,
                                 ptxemu_tm_ops *ops);

/* The entry point, declared here with default visibility so that a
 * plug-in built with -fvisibility=hidden still exports it (and needs no
 * prototype of its own). */
#if defined(__GNUC__)
#define PTXEMU_TM_EXPORT __attribute__((visibility("default")))
#else
#define PTXEMU_TM_EXPORT
#endif
PTXEMU_TM_EXPORT int ptxemu_timing_plugin_init(uint32_t host_abi_version,
                                               ptxemu_tm_ops *ops);

#ifdef __cplusplus
}
#endif

#endif
