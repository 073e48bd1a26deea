/*
 * ptxemu.h: the public host C API of ptxemu, a PTX emulator.
 *
 * A program that would call the CUDA driver API calls this instead:
 *
 *   ptxemu_device *dev;
 *   ptxemu_module *mod;
 *   ptxemu_function *k;
 *   ptxemu_device_create(NULL, &dev);
 *   if (ptxemu_module_load_file(dev, "vecadd.ptx", &mod) != PTXEMU_SUCCESS)
 *       fputs(ptxemu_last_error_message(dev), stderr);
 *   ptxemu_module_get_function(mod, "vecAdd", &k);
 *   ptxemu_devptr a;
 *   ptxemu_malloc(dev, n * sizeof(float), &a);
 *   ptxemu_memcpy_htod(dev, a, host_a, n * sizeof(float));
 *   ...
 *   void *params[] = { &a, &b, &c, &n };
 *   unsigned grid[3] = {4, 1, 1}, block[3] = {256, 1, 1};
 *   ptxemu_launch(k, grid, block, 0, params);
 *   ptxemu_synchronize(dev);
 *   ptxemu_memcpy_dtoh(dev, host_c, c, n * sizeof(float));
 *   ptxemu_module_unload(mod);
 *   ptxemu_device_destroy(dev);
 *
 * Conventions.
 *  - Every handle is opaque.  Calls return a ptxemu_status; a failing call
 *    also records its status and a message on the device, read with
 *    ptxemu_last_error() / ptxemu_last_error_message() (the record stays
 *    until the next failure or ptxemu_clear_error()).
 *  - Launches run to completion before ptxemu_launch returns (the emulator
 *    is functional and deterministic).  A launch's error is both returned
 *    and kept as the device's pending launch error, which the next
 *    ptxemu_synchronize() returns and clears, as cudaDeviceSynchronize
 *    would.  A guest fault never crashes the host and is not sticky: the
 *    device stays usable and the next launch runs normally.
 *  - Thread safety: a device and everything made from it may be used from
 *    several host threads; operations on one device are serialised,
 *    except that allocations and module loads do not wait for a running
 *    launch (as cudaMalloc and cuModuleLoadData do not).  The
 *    string returned by ptxemu_last_error_message() belongs to the device
 *    and changes at its next failure; threads sharing a device should use
 *    ptxemu_last_error_copy().
 *  - Device pointers are 64-bit addresses in the emulated device's
 *    unified address space (ptxemu_devptr); 0 is never a valid one.
 */
#ifndef PTXEMU_PUBLIC_H
#define PTXEMU_PUBLIC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PTXEMU_API_VERSION 1

typedef struct ptxemu_device ptxemu_device;
typedef struct ptxemu_module ptxemu_module;
typedef struct ptxemu_function ptxemu_function;
typedef uint64_t ptxemu_devptr;

/* ------------------------------------------------------------ status */

/* Status codes.  Each is one emulator status (the values are identical)
 * and has one CUDA meaning, given by ptxemu_status_cuda_error(). */
typedef enum ptxemu_status {
    PTXEMU_SUCCESS = 0,                 /* cudaSuccess */
    PTXEMU_ERROR_INVALID_VALUE,         /* cudaErrorInvalidValue */
    PTXEMU_ERROR_OUT_OF_MEMORY,         /* cudaErrorMemoryAllocation */
    PTXEMU_ERROR_INVALID_PTX,           /* cudaErrorInvalidPtx */
    PTXEMU_ERROR_UNSUPPORTED,           /* cudaErrorNotSupported */
    PTXEMU_ERROR_NOT_FOUND,             /* cudaErrorSymbolNotFound */
    PTXEMU_ERROR_LAUNCH_CONFIG,         /* cudaErrorInvalidConfiguration */
    PTXEMU_ERROR_ILLEGAL_ADDRESS,       /* cudaErrorIllegalAddress */
    PTXEMU_ERROR_MISALIGNED,            /* cudaErrorMisalignedAddress */
    PTXEMU_ERROR_READ_ONLY,             /* cudaErrorInvalidAddressSpace */
    PTXEMU_ERROR_TRAP,                  /* cudaErrorLaunchFailure */
    PTXEMU_ERROR_ASSERT,                /* cudaErrorAssert */
    PTXEMU_ERROR_TIMEOUT,               /* cudaErrorLaunchTimeout */
    PTXEMU_ERROR_DEADLOCK,              /* cudaErrorLaunchTimeout */
    PTXEMU_ERROR_ILLEGAL_INSTRUCTION,   /* cudaErrorIllegalInstruction */
    PTXEMU_ERROR_STACK_OVERFLOW,        /* cudaErrorHardwareStackError */
    PTXEMU_STATUS_COUNT
} ptxemu_status;

/* "PTXEMU_ERROR_ILLEGAL_ADDRESS" etc.; "PTXEMU_ERROR_UNKNOWN" if out of
 * range. */
const char *ptxemu_status_name(ptxemu_status s);
/* A short English description ("an illegal memory access was
 * encountered"). */
const char *ptxemu_status_string(ptxemu_status s);
/* The numeric cudaError_t value with the same meaning. */
int ptxemu_status_cuda_error(ptxemu_status s);
/* The numeric CUresult (driver API) value with the same meaning; it
 * differs from the runtime's only where the driver has no such code
 * (a bad launch configuration is CUDA_ERROR_INVALID_VALUE). */
int ptxemu_status_cu_result(ptxemu_status s);

/* The most recent failure recorded on dev (PTXEMU_SUCCESS if none), and
 * its message: for PTX errors the located diagnostics
 * ("file.ptx:12:5: error: ..." with the source line and a caret); for a
 * guest fault the kernel, CTA, thread, PTX file:line, the instruction,
 * the address and the nearest allocation.  Never NULL ("" if none). */
ptxemu_status ptxemu_last_error(ptxemu_device *dev);
const char *ptxemu_last_error_message(ptxemu_device *dev);
/* Copies the message into buf (always NUL-terminated when len > 0);
 * returns the message's full length. */
size_t ptxemu_last_error_copy(ptxemu_device *dev, char *buf, size_t len);
void ptxemu_clear_error(ptxemu_device *dev);

/* ------------------------------------------------------------ device */

typedef enum ptxemu_diverge_order {
    PTXEMU_DIVERGE_TAKEN_FIRST = 0,     /* taken path runs first */
    PTXEMU_DIVERGE_MAJORITY_LAST,       /* path with fewer lanes first */
    PTXEMU_DIVERGE_MAJORITY_FIRST,      /* path with more lanes first
                                           (Turing, Hanoi) */
    PTXEMU_DIVERGE_BY_MODE              /* the default: taken first under
                                           ipdom (GT200), majority first
                                           under its (Hanoi) */
} ptxemu_diverge_order;

/* How the threads of a divergent warp make progress.  IPDOM: the
 * pre-Volta SIMT stack; paths run one after the other and reconverge at
 * the immediate post-dominator, so an intra-warp spin lock is a SIMT
 * deadlock (reported).  ITS: independent thread scheduling (sm_70 and
 * newer): the same order and reconvergence for well-structured code,
 * but a path that spins without progress yields to the other paths of
 * its warp.  DEFAULT: ITS when the device's arch is sm_70 or newer
 * (the default arch is), IPDOM before, as on hardware (README,
 * "Reconvergence"). */
typedef enum ptxemu_reconvergence {
    PTXEMU_RECONVERGENCE_DEFAULT = 0,
    PTXEMU_RECONVERGENCE_IPDOM,
    PTXEMU_RECONVERGENCE_ITS
} ptxemu_reconvergence;

/* Which global, const and generic accesses outside every allocation
 * fault.  STRICT: all of them (the default here; what a memory checker
 * reports).  GPU: as on a GPU, only those outside every mapped page of
 * device memory (2 MiB pages, mapped while a live allocation overlaps
 * them); the others read and write as the GPU would, with a warning on
 * stderr once per instruction, at the end of the launch that first met
 * it, naming the lowest thread that made the access (the same at any
 * host thread count).  `ptxemu exec` and the drop-in libraries use GPU
 * unless PTXEMU_ACCESS=strict. */
typedef enum ptxemu_access_checks {
    PTXEMU_ACCESS_STRICT = 0,
    PTXEMU_ACCESS_GPU
} ptxemu_access_checks;

/* A timed device's progress line on stderr (README, "Progress"): off
 * (the default of the C API), on, or on only when stderr is a terminal
 * (what `ptxemu run` and `ptxemu exec` ask for unless told). */
typedef enum ptxemu_progress {
    PTXEMU_PROGRESS_OFF = 0,
    PTXEMU_PROGRESS_ON,
    PTXEMU_PROGRESS_AUTO
} ptxemu_progress;

typedef struct ptxemu_device_options {
    uint32_t size;                      /* sizeof(ptxemu_device_options):
                                           set by ptxemu_device_options_default */
    ptxemu_diverge_order diverge_order;
    uint64_t insn_limit;                /* warp instructions per launch;
                                           0 = no limit */
    uint32_t watchdog_rounds;           /* scheduler rounds without
                                           progress; 0 = default (1000) */
    uint32_t num_sms;                   /* %nsmid; 0 = default */
    uint32_t max_threads_per_block;     /* 0 = default (1024) */
    uint32_t max_shared_per_block;      /* bytes; 0 = default (48 KiB) */
    uint32_t max_call_depth;            /* 0 = default (1024) */
    uint64_t local_bytes_per_thread;    /* 0 = default (1 MiB) */
    uint64_t heap_bytes;                /* device malloc heap; 0 = 8 MiB */
    int collect_stats;                  /* non-zero: count per-instruction
                                           statistics (slower) */
    uint32_t arch;                      /* compute capability the device
                                           runtime's attribute queries
                                           answer for (80: sm_80);
                                           0 = default (80) */
    ptxemu_access_checks access;        /* global accesses outside every
                                           allocation: see below */
    uint64_t mem_bytes;                 /* device memory: global
                                           allocations (malloc, managed,
                                           module variables) beyond it
                                           fail; 0 = default (64 GiB) */
    /* The timing model (<ptxemu/ptxemu_timing.h>): a built-in model's
     * name ("simple") or a plug-in's path (anything with a '/' or ending
     * in ".so"); NULL, "" or "none": untimed (the default).  The strings
     * are copied by ptxemu_device_create. */
    const char *timing;
    const char *timing_config;          /* FILE of `key = value` lines,
                                           or NULL */
    const char *const *timing_set;      /* "key=value" overrides, applied
                                           in order after the file */
    size_t ntiming_set;
    ptxemu_reconvergence reconvergence; /* see above */
    uint64_t time_limit_ms;             /* wall-clock budget of a launch:
                                           past it the launch stops with
                                           PTXEMU_ERROR_TIMEOUT naming the
                                           warps still running, as a GPU's
                                           watchdog would; 0 = none;
                                           default 600000 (ten minutes) */
    /* Per-interval statistics of a timed device: every stats_interval
     * simulated cycles of a kernel, one CSV row of every counter the
     * timing model registered (its change over the interval) is
     * written to stats_csv (NULL: "ptxemu-stats.csv"), created at
     * ptxemu_device_create.  0: none (the default).  Refused without a
     * timing model.  The format is in README.md, "Statistics over
     * time". */
    uint64_t stats_interval;
    const char *stats_csv;
    ptxemu_progress progress;           /* see above; needs a timing
                                           model (untimed: ignored) */
    int trace_reconvergence;            /* non-zero: each warp's path
                                           splits, reconvergences, yields
                                           and .sync waits on stderr
                                           (README, "Reconvergence") */
    /* The per-instruction SIMT trace (README, "SIMT trace"): one line
     * per warp instruction with its pc and active mask, written to this
     * file ("-": stderr), created by ptxemu_device_create (which fails
     * with PTXEMU_ERROR_INVALID_VALUE when it cannot be) and closed by
     * ptxemu_device_destroy.  NULL: off (the default). */
    const char *trace_simt;
    uint32_t threads;                   /* host threads that run the CTAs
                                           of a launch; 0 = default (the
                                           host's online cores) */
    int verbose;                        /* non-zero: say on stderr why a
                                           launch runs on one thread */
    int fast;                           /* non-zero (--fast): the global
                                           atomics of CTAs run on several
                                           threads land in the order the
                                           threads reach them; 0 (the
                                           default, --deterministic): in
                                           CTA order, as on one thread
                                           (README, "Parallel
                                           simulation") */
} ptxemu_device_options;

void ptxemu_device_options_default(ptxemu_device_options *opts);
/* The device memory to offer for a GPU of gpu_bytes: at most half the
 * host's physical memory, so that a program that allocates until
 * cudaMalloc fails and then writes all of it fails in cudaMalloc, not
 * at the hands of the OOM killer. */
uint64_t ptxemu_default_device_memory(uint64_t gpu_bytes);
/* opts may be NULL for the defaults.  On failure the reason, when there
 * is more to say than the status (a timing model refused, a bad timing
 * parameter: one located line), is ptxemu_device_create_error(). */
ptxemu_status ptxemu_device_create(const ptxemu_device_options *opts,
                                   ptxemu_device **out);
/* The message of this thread's last failed ptxemu_device_create ("" if
 * it had none).  Valid until the thread's next ptxemu_device_create. */
const char *ptxemu_device_create_error(void);
/* The help of timing model `timing` (its name, description and its
 * parameters: name, type, default, help; with the tables it declares
 * when it starts, from an instance made with every default), as a
 * malloc'd string to free(); NULL with the reason in err when the model
 * cannot be loaded. */
char *ptxemu_timing_help(const char *timing, char *err, size_t errlen);
/* The same for the model that *opts would attach (timing, timing_config,
 * timing_set): its values apply to the instance the listing is made
 * from, so that the tables of components chosen by a parameter (the
 * `gpu` model's mem.model) are listed. */
char *ptxemu_timing_help_options(const ptxemu_device_options *opts,
                                 char *err, size_t errlen);
/* Frees the device, its modules and all its memory. */
void ptxemu_device_destroy(ptxemu_device *dev);

/* Bytes of device memory currently allocated. */
uint64_t ptxemu_mem_used(ptxemu_device *dev);
/* Resize the device malloc heap (cudaLimitMallocHeapSize); not below
 * what device code holds now. */
ptxemu_status ptxemu_set_heap_bytes(ptxemu_device *dev, uint64_t bytes);
/* Device-side launches (dynamic parallelism) that may be queued and not
 * yet started (cudaLimitDevRuntimePendingLaunchCount, default 2048);
 * at least 1. */
ptxemu_status ptxemu_set_pending_launch_limit(ptxemu_device *dev,
                                              uint64_t count);
/* The watchdog's question to the host program, for kernels that read
 * memory the host may write while they run (managed or registered host
 * memory): stamp(arg) returns -1 when some host thread may write such
 * memory now, else a value that changes whenever one may have since the
 * last call.  A kernel that reads such memory and repeats its state is
 * then reported as a livelock only when the stamp stayed the same (and
 * not -1); with no stamp (the default, stamp NULL) it is never reported,
 * and the time limit bounds it.  The drop-in driver answers from the
 * process's threads: every one either the emulator's own or blocked in
 * a synchronising CUDA call. */
ptxemu_status ptxemu_set_host_stamp(ptxemu_device *dev,
                                    int64_t (*stamp)(void *arg), void *arg);
/* The L2 set aside for persisting accesses (cudaLimitPersistingL2-
 * CacheSize), bytes, as a timing model sees it from the next launch on;
 * at most the device's MAX_PERSISTING_L2_CACHE_SIZE attribute. */
ptxemu_status ptxemu_set_l2_persisting(ptxemu_device *dev, uint64_t bytes);
uint64_t ptxemu_l2_persisting(ptxemu_device *dev);
/* Every persisting line of the L2 becomes normal
 * (cudaCtxResetPersistingL2Cache), as a timing model sees it from the
 * next launch on. */
ptxemu_status ptxemu_reset_l2_persisting(ptxemu_device *dev);

/* ------------------------------------------------------------ modules */

/* Parse, validate and load PTX.  On failure *out is NULL and the device's
 * last error message holds the located diagnostics.  `name` is the file
 * name used in messages (NULL: "<string>"); len 0 means strlen(src). */
ptxemu_status ptxemu_module_load_string(ptxemu_device *dev, const char *name,
                                        const char *src, size_t len,
                                        ptxemu_module **out);
ptxemu_status ptxemu_module_load_file(ptxemu_device *dev, const char *path,
                                      ptxemu_module **out);
/* Parse n PTX modules and link them by name into one module, as the CUDA
 * driver links relocatable device code (nvcc -rdc=true keeps one PTX
 * module per translation unit): .extern declarations bind to the
 * .visible/.weak definitions of the other inputs (ptx/link.h has the
 * rules).  names[i] is input i's file name for messages (names may be
 * NULL); lens[i] == 0 (or lens NULL) means strlen(srcs[i]).  Errors
 * (parse errors of any input, multiple definitions) are located
 * messages, as for ptxemu_module_load_string. */
ptxemu_status ptxemu_module_load_linked(ptxemu_device *dev, unsigned n,
                                        const char *const names[],
                                        const char *const srcs[],
                                        const size_t lens[],
                                        ptxemu_module **out);
/* The same for PTX files. */
ptxemu_status ptxemu_module_load_linked_files(ptxemu_device *dev,
                                              unsigned n,
                                              const char *const paths[],
                                              ptxemu_module **out);
/* Frees the module, its functions and its .global/.const variables. */
void ptxemu_module_unload(ptxemu_module *mod);

/* A kernel (.entry) by name.  The handle lives as long as the module. */
ptxemu_status ptxemu_module_get_function(ptxemu_module *mod, const char *name,
                                         ptxemu_function **out);
/* Number of kernels, and the i-th one (in declaration order). */
unsigned ptxemu_module_num_functions(ptxemu_module *mod);
ptxemu_function *ptxemu_module_function(ptxemu_module *mod, unsigned i);
/* A module-scope .global or .const variable: its device address and its
 * size in bytes (either pointer may be NULL).  .const variables are
 * writable from the host with ptxemu_memcpy_htod. */
ptxemu_status ptxemu_module_get_global(ptxemu_module *mod, const char *name,
                                       ptxemu_devptr *addr, size_t *size);

/* ------------------------------------------------------------ functions */

const char *ptxemu_function_name(ptxemu_function *f);
unsigned ptxemu_function_num_params(ptxemu_function *f);
/* Size of the kernel's parameter buffer (last offset + size, aligned). */
size_t ptxemu_function_param_bytes(ptxemu_function *f);

typedef struct ptxemu_param_info {
    const char *name;                   /* "vecAdd_param_0" */
    const char *type;                   /* PTX type: "u64", "b8", ... */
    size_t offset;                      /* in the parameter buffer */
    size_t size;                        /* bytes (arrays: all of it) */
    size_t align;                       /* bytes */
    unsigned array_len;                 /* 0 for scalars, else elements */
    int is_ptr;                         /* declared .ptr */
} ptxemu_param_info;

ptxemu_status ptxemu_function_param(ptxemu_function *f, unsigned i,
                                    ptxemu_param_info *info);

/* What cuFuncGetAttribute reports about a kernel. */
typedef struct ptxemu_function_info {
    size_t shared_bytes;                /* static .shared it can reach,
                                           the module's it names incl. */
    size_t local_bytes;                 /* per-thread frame */
    unsigned max_threads;               /* .maxntid/.reqntid product;
                                           0 when not given */
    unsigned maxnreg;                   /* .maxnreg; 0 when not given */
    unsigned virtual_regs;              /* PTX registers after decoding */
    unsigned ptx_version;               /* 10 * major + minor: 80 */
    unsigned regs;                      /* registers per thread, as
                                           numRegs reports them: an
                                           estimate from the PTX's
                                           register pressure (README,
                                           "numRegs") */
} ptxemu_function_info;

ptxemu_status ptxemu_function_get_info(ptxemu_function *f,
                                       ptxemu_function_info *info);

/* Sets the registers per thread the kernel counts as for occupancy
 * (numRegs, the occupancy API, the timing models) to what ptxas
 * allocated, e.g. read from the program's SASS cubin, in place of the
 * estimate from its PTX.  regs must be 1..255. */
ptxemu_status ptxemu_function_set_regs(ptxemu_function *f, unsigned regs);

/* ------------------------------------------------------------ memory */

/* Zeroed, 256-byte aligned, as cudaMalloc.  size 0 is an error. */
ptxemu_status ptxemu_malloc(ptxemu_device *dev, size_t size,
                            ptxemu_devptr *out);
ptxemu_status ptxemu_free(ptxemu_device *dev, ptxemu_devptr ptr);
ptxemu_status ptxemu_memcpy_htod(ptxemu_device *dev, ptxemu_devptr dst,
                                 const void *src, size_t size);
ptxemu_status ptxemu_memcpy_dtoh(ptxemu_device *dev, void *dst,
                                 ptxemu_devptr src, size_t size);
ptxemu_status ptxemu_memcpy_dtod(ptxemu_device *dev, ptxemu_devptr dst,
                                 ptxemu_devptr src, size_t size);
ptxemu_status ptxemu_memset(ptxemu_device *dev, ptxemu_devptr dst,
                            int byte, size_t size);

/* Memory shared by host and device (cudaMallocManaged, cudaMallocHost,
 * mapped pinned memory): the device address IS the host pointer, so
 * kernels and host code use the same pointer.  Zeroed; freed with
 * ptxemu_free(dev, (ptxemu_devptr)ptr). */
ptxemu_status ptxemu_malloc_managed(ptxemu_device *dev, size_t size,
                                    void **out);
/* Make existing host memory [ptr, ptr+size) device-accessible at the
 * same address (cudaHostRegister).  Overlapping an existing allocation
 * is an error.  Unregistering does not free the host memory. */
ptxemu_status ptxemu_host_register(ptxemu_device *dev, void *ptr,
                                   size_t size);
ptxemu_status ptxemu_host_unregister(ptxemu_device *dev, void *ptr);

/* Virtual memory management (cuMemAddressReserve, cuMemMap).
 * ptxemu_va_reserve: size bytes of device addresses aligned to `align`
 * (a power of two) that nothing else will get; accesses there fault
 * until mapped.  ptxemu_va_map: make [addr, addr+size) resolve to the
 * caller's host bytes (which stay the caller's: unmapping never frees
 * them); it must not overlap anything mapped or allocated.  Such memory
 * is PTXEMU_MEM_DEVICE to ptxemu_pointer_info.  ptxemu_va_unmap: undo
 * one ptxemu_va_map, by its start address. */
ptxemu_status ptxemu_va_reserve(ptxemu_device *dev, size_t size,
                                size_t align, ptxemu_devptr *out);
ptxemu_status ptxemu_va_map(ptxemu_device *dev, ptxemu_devptr addr,
                            void *host, size_t size);
ptxemu_status ptxemu_va_unmap(ptxemu_device *dev, ptxemu_devptr addr);
/* The mapping ptxemu_va_map made at addr becomes read-only to device
 * code (its writes fault with an illegal address) or read-write again;
 * host copies through this API still reach it. */
ptxemu_status ptxemu_va_protect(ptxemu_device *dev, ptxemu_devptr addr,
                                int readonly);

typedef enum ptxemu_mem_kind {
    PTXEMU_MEM_NONE = 0,                /* not device-visible memory */
    PTXEMU_MEM_DEVICE,                  /* ptxemu_malloc */
    PTXEMU_MEM_MANAGED,                 /* ptxemu_malloc_managed */
    PTXEMU_MEM_HOST,                    /* ptxemu_host_register */
    PTXEMU_MEM_MODULE                   /* a module's .global/.const */
} ptxemu_mem_kind;

/* What addr points into (cudaPointerGetAttributes, cudaMemcpyDefault):
 * the kind, and the allocation's base and size (pointers may be NULL).
 * An address outside every allocation gives PTXEMU_MEM_NONE and
 * PTXEMU_SUCCESS. */
ptxemu_status ptxemu_pointer_info(ptxemu_device *dev, ptxemu_devptr addr,
                                  ptxemu_mem_kind *kind,
                                  ptxemu_devptr *base, size_t *size);

/* Whether addr is in the emulator's range of device addresses: one that
 * ptxemu_pointer_info calls PTXEMU_MEM_NONE there is a freed or never
 * allocated device pointer, not host memory (copies refuse it). */
int ptxemu_is_device_address(ptxemu_device *dev, ptxemu_devptr addr);

/* ------------------------------------------------------------ launch */

/* Run kernel f on a grid of grid[0..2] CTAs of block[0..2] threads with
 * shared_bytes of dynamic shared memory.  params[i] points to the value
 * of the kernel's i-th parameter, exactly as for cuLaunchKernel (the
 * number and sizes come from the kernel's .param list: see
 * ptxemu_function_param).  Returns the launch's status. */
ptxemu_status ptxemu_launch(ptxemu_function *f, const unsigned grid[3],
                            const unsigned block[3], unsigned shared_bytes,
                            void **params);
/* As ptxemu_launch, for a cooperative launch: every CTA of the grid is
 * resident at once and the scheduler interleaves CTAs, so grid-wide
 * synchronisation through global memory (cooperative groups'
 * grid.sync()) completes.  The caller checks co-residency limits. */
ptxemu_status ptxemu_launch_cooperative(ptxemu_function *f,
                                        const unsigned grid[3],
                                        const unsigned block[3],
                                        unsigned shared_bytes,
                                        void **params);
/* An access-policy window (cudaAccessPolicyWindow; CUDA Programming
 * Guide, "L2 Access Management"): of the accesses to [base, base +
 * num_bytes), the fraction hit_ratio (0 to 1) gets the property hit_prop
 * and the others miss_prop; properties are CUDA's cudaAccessProperty
 * values (0 normal, 1 streaming, 2 persisting).  A hint for a timing
 * model's L2: no result depends on it. */
typedef struct ptxemu_access_window {
    uint64_t base;
    uint64_t num_bytes;                 /* 0: no window */
    float hit_ratio;
    int hit_prop, miss_prop;
} ptxemu_access_window;

/* A launch with every option (cuLaunchKernelEx).  Set size to
 * sizeof(ptxemu_launch_config) (ptxemu_launch_config_default does):
 * a caller built against an older, shorter version passes its own size
 * and the fields it lacks take their defaults (0, carveout -1). */
typedef struct ptxemu_launch_config {
    uint32_t size;                      /* sizeof(ptxemu_launch_config) */
    unsigned grid[3];                   /* CTAs */
    unsigned block[3];                  /* threads per CTA */
    unsigned shared_bytes;              /* dynamic shared memory */
    int cooperative;                    /* as ptxemu_launch_cooperative */
    /* Thread-block clusters (sm_90): CTAs per cluster in each dimension;
     * {0,0,0} = the kernel's .reqnctapercluster, or no clusters.  The
     * grid must be a multiple of it, with at most 8 CTAs per cluster (16
     * with non_portable_cluster); else PTXEMU_ERROR_LAUNCH_CONFIG.  The
     * CTAs of a cluster run together and share their shared memory
     * (distributed shared memory). */
    unsigned cluster[3];
    int non_portable_cluster;
    /* Hints for a timing model's memory system (README, "The gpu
     * model's memory system"); no result depends on them.  carveout:
     * the preferred shared-memory carve-out in percent (0 to 100) of the
     * largest capacity, as cudaFuncAttributePreferredSharedMemoryCarveout,
     * -1 for none; window: the access-policy window. */
    int carveout;
    ptxemu_access_window window;
} ptxemu_launch_config;

/* Size set, grid and block 1, carveout -1, everything else 0. */
void ptxemu_launch_config_default(ptxemu_launch_config *cfg);
ptxemu_status ptxemu_launch_ex(ptxemu_function *f,
                               const ptxemu_launch_config *cfg,
                               void **params);
/* Waits for outstanding work (none: launches are synchronous), flushes
 * device printf output, and returns and clears the first error of the
 * launches since the last synchronisation. */
ptxemu_status ptxemu_synchronize(ptxemu_device *dev);

/* ------------------------------------------------- arrays, textures */

/* CUDA arrays, texture objects and surface objects.  Enum values are
 * the CUDA runtime's (cudaChannelFormatKind, cudaArray* flags,
 * cudaTextureAddressMode, cudaTextureFilterMode, cudaTextureReadMode),
 * so a CUDA layer can pass them through.  Handles are the 64-bit values
 * a kernel receives as .u64 texture/surface parameters (bindless tex,
 * suld, sust...); 0 is never a valid handle.  Sampling follows the CUDA
 * programming guide's "Texture Fetching" appendix (9-bit linear filter
 * weights).  Mipmapped arrays (desc.levels) give textures that tex.level
 * (tex2DLod) and tex.grad (tex2DGrad) sample at a level of detail: see
 * ptxemu_texture_desc and README.md. */

typedef struct ptxemu_array ptxemu_array;

typedef enum ptxemu_channel_kind {
    PTXEMU_CHANNEL_SIGNED = 0,
    PTXEMU_CHANNEL_UNSIGNED = 1,
    PTXEMU_CHANNEL_FLOAT = 2            /* 16 bits: half, 32: float */
} ptxemu_channel_kind;

/* Element format: 1, 2 or 4 channels of `bits` (8, 16, 32) each. */
typedef struct ptxemu_format {
    uint32_t channels;
    uint32_t bits;
    ptxemu_channel_kind kind;
} ptxemu_format;

enum {
    PTXEMU_ARRAY_LAYERED = 0x01,        /* cudaArrayLayered */
    PTXEMU_ARRAY_SURFACE_LDST = 0x02,   /* cudaArraySurfaceLoadStore */
    PTXEMU_ARRAY_CUBEMAP = 0x04         /* cudaArrayCubemap */
};

typedef struct ptxemu_array_desc {
    uint32_t size;                      /* sizeof(ptxemu_array_desc) */
    /* Elements; height 0 = 1-D, depth 0 = not 3-D.  A cubemap has
     * width == height and 6 faces per layer. */
    uint32_t width, height, depth;
    uint32_t layers;                    /* with LAYERED: layers (of cubes
                                           with CUBEMAP); else 0 */
    uint32_t flags;                     /* PTXEMU_ARRAY_* */
    ptxemu_format format;
    /* Mipmapped: the number of levels (as CUDA, clamped to 1 ..
     * 1 + floor(log2(largest extent))); 0 for a plain array.  Level l
     * has extents max(1, floor(e / 2^l)); layers do not shrink. */
    uint32_t levels;
} ptxemu_array_desc;

/* A box of elements of an array: x, y, z its first element, where z is
 * the depth slice of a 3-D array, the layer of a layered one, and
 * layer * 6 + face of a cubemap. */
typedef struct ptxemu_array_box {
    uint32_t x, y, z;
    uint32_t width, height, depth;      /* elements; 0 counts as 1 */
} ptxemu_array_box;

ptxemu_status ptxemu_array_create(ptxemu_device *dev,
                                  const ptxemu_array_desc *desc,
                                  ptxemu_array **out);
/* Fails (INVALID_VALUE) while texture or surface objects use it (or,
 * for a mipmapped array, any of its levels); a level is destroyed with
 * its mipmapped array only. */
ptxemu_status ptxemu_array_destroy(ptxemu_array *a);
/* As ptxemu_array_destroy, but an array that texture or surface objects
 * still use is freed when the last of them is destroyed, and the call
 * succeeds (CUDA's cudaFreeArray / cuArrayDestroy: the objects' later
 * use is undefined, not the free).  a must not be used afterwards. */
ptxemu_status ptxemu_array_release(ptxemu_array *a);
/* Level `level` of a mipmapped array, as an array of its own (copies,
 * textures and surfaces of that level alone); it lives as long as a.
 * INVALID_VALUE if a is not mipmapped or has no such level. */
ptxemu_status ptxemu_array_get_level(ptxemu_array *a, uint32_t level,
                                     ptxemu_array **out);
/* The descriptor it was made with. */
ptxemu_status ptxemu_array_get_desc(ptxemu_array *a, ptxemu_array_desc *out);
/* Copy a box between host memory and the array.  Host rows are `pitch`
 * bytes apart and slices `pitch * rows` bytes (rows 0: box height). */
ptxemu_status ptxemu_array_copy_from_host(ptxemu_array *a,
                                          const ptxemu_array_box *box,
                                          const void *src, size_t pitch,
                                          size_t rows);
ptxemu_status ptxemu_array_copy_to_host(ptxemu_array *a,
                                        const ptxemu_array_box *box,
                                        void *dst, size_t pitch,
                                        size_t rows);

typedef enum ptxemu_address_mode {
    PTXEMU_ADDRESS_WRAP = 0,            /* normalized coordinates only */
    PTXEMU_ADDRESS_CLAMP = 1,
    PTXEMU_ADDRESS_MIRROR = 2,          /* normalized coordinates only */
    PTXEMU_ADDRESS_BORDER = 3
} ptxemu_address_mode;

typedef enum ptxemu_filter_mode {
    PTXEMU_FILTER_POINT = 0,
    PTXEMU_FILTER_LINEAR = 1            /* float results only */
} ptxemu_filter_mode;

typedef enum ptxemu_read_mode {
    PTXEMU_READ_ELEMENT_TYPE = 0,
    PTXEMU_READ_NORMALIZED_FLOAT = 1    /* 8/16-bit integer channels */
} ptxemu_read_mode;

typedef struct ptxemu_texture_desc {
    uint32_t size;                      /* sizeof(ptxemu_texture_desc) */
    /* The resource: an array, or (array NULL) device memory at ptr:
     * linear when height is 0 (width elements), else pitched (height
     * rows of `pitch` bytes).  format describes memory elements. */
    ptxemu_array *array;
    ptxemu_devptr ptr;
    uint32_t width, height;
    size_t pitch;
    ptxemu_format format;
    /* The sampler.  Wrap and mirror with unnormalized coordinates act
     * as clamp (CUDA supports them with normalized coordinates only). */
    ptxemu_address_mode address_mode[3];
    ptxemu_filter_mode filter;
    ptxemu_read_mode read_mode;
    int normalized_coords;
    int srgb;                           /* must be 0 (unsupported) */
    float border_color[4];
    /* Cubemaps: linear filtering clamps at face edges, or with
     * seamless_cubemap (CUDA's seamlessCubemap) reads the neighbouring
     * faces' texels past an edge. */
    int seamless_cubemap;
    /* Textures over a mipmapped array (CUDA's cudaTextureDesc fields):
     * the filter between two levels, a bias added to the level of
     * detail and clamps of the biased level (as in CUDA, a max clamp of
     * 0, the default, keeps fetches on level 0).  Filtering is
     * isotropic whatever max_anisotropy says (the level is that of the
     * longer gradient).  A fetch without a level of detail (tex2D) has
     * zero gradients: it reads level max(min_mipmap_level_clamp, 0).
     * Unnormalized coordinates count texels of the level read,
     * unnormalized gradients texels of level 0. */
    ptxemu_filter_mode mipmap_filter;
    float mipmap_level_bias;
    float min_mipmap_level_clamp, max_mipmap_level_clamp;
    uint32_t max_anisotropy;
} ptxemu_texture_desc;

/* Fills size and zeroes the rest (clamp, point, element type). */
void ptxemu_texture_desc_default(ptxemu_texture_desc *desc);
ptxemu_status ptxemu_texture_create(ptxemu_device *dev,
                                    const ptxemu_texture_desc *desc,
                                    uint64_t *handle);
ptxemu_status ptxemu_texture_destroy(ptxemu_device *dev, uint64_t handle);
/* A surface over an array made with PTXEMU_ARRAY_SURFACE_LDST. */
ptxemu_status ptxemu_surface_create(ptxemu_device *dev, ptxemu_array *a,
                                    uint64_t *handle);
ptxemu_status ptxemu_surface_destroy(ptxemu_device *dev, uint64_t handle);
/* Bind a module-scope .texref or .surfref to a texture or surface
 * handle (0 unbinds); NOT_FOUND if the module has no such variable. */
ptxemu_status ptxemu_module_bind_texref(ptxemu_module *mod,
                                        const char *name, uint64_t handle);

/* ------------------------------------------------ tensor maps (TMA) */

/* A tensor map for the Hopper tensor copies (cp.async.bulk.tensor):
 * 128 opaque bytes, 64-byte aligned, the size and alignment of CUDA's
 * CUtensorMap.  A kernel receives it as a __grid_constant__ parameter
 * (.param .align 64 .b8 map[128]: pass a pointer to it in the launch's
 * params) or reads it from global or constant memory. */
typedef struct ptxemu_tensor_map {
#ifdef __cplusplus
    alignas(64) uint64_t opaque[16];
#else
    _Alignas(64) uint64_t opaque[16];
#endif
} ptxemu_tensor_map;

/* Element types, values as CUtensorMapDataType (the packed sub-byte
 * types 13..15 are valid but not supported by the emulator). */
typedef enum ptxemu_tensor_dtype {
    PTXEMU_TENSOR_U8 = 0, PTXEMU_TENSOR_U16, PTXEMU_TENSOR_U32,
    PTXEMU_TENSOR_S32, PTXEMU_TENSOR_U64, PTXEMU_TENSOR_S64,
    PTXEMU_TENSOR_F16, PTXEMU_TENSOR_F32, PTXEMU_TENSOR_F64,
    PTXEMU_TENSOR_BF16, PTXEMU_TENSOR_F32_FTZ, PTXEMU_TENSOR_TF32,
    PTXEMU_TENSOR_TF32_FTZ
} ptxemu_tensor_dtype;

/* As CUtensorMapSwizzle: the shared-memory swizzle of the box. */
typedef enum ptxemu_tensor_swizzle {
    PTXEMU_TENSOR_SWIZZLE_NONE = 0, PTXEMU_TENSOR_SWIZZLE_32B,
    PTXEMU_TENSOR_SWIZZLE_64B, PTXEMU_TENSOR_SWIZZLE_128B
} ptxemu_tensor_swizzle;

typedef struct ptxemu_tensor_map_desc {
    ptxemu_tensor_dtype dtype;
    unsigned rank;                      /* 1..5 */
    ptxemu_devptr addr;                 /* 16-byte aligned */
    uint64_t dims[5];                   /* elements, dimension 0 fastest */
    uint64_t strides[4];                /* bytes, of dimensions 1..rank-1:
                                           multiples of 16, < 2^40 */
    uint32_t box[5];                    /* 1..256; box[0] * element size
                                           a multiple of 16 */
    uint32_t elem_strides[5];           /* 1..8 */
    unsigned interleave;                /* CUtensorMapInterleave: 0 only */
    ptxemu_tensor_swizzle swizzle;
    unsigned l2_promotion;              /* CUtensorMapL2promotion 0..3 */
    unsigned oob_nan;                   /* 1: out-of-bound elements of a
                                           load read as NaN (float types),
                                           0: as zero */
} ptxemu_tensor_map_desc;

/* cuTensorMapEncodeTiled: INVALID_VALUE when desc breaks a rule the
 * CUDA driver documents, UNSUPPORTED for valid maps the emulator cannot
 * use; *why (may be NULL) names the rule.  The device is not needed. */
ptxemu_status ptxemu_tensor_map_encode_tiled(const ptxemu_tensor_map_desc
                                             *desc, ptxemu_tensor_map *map,
                                             const char **why);
/* cuTensorMapReplaceAddress. */
ptxemu_status ptxemu_tensor_map_replace_address(ptxemu_tensor_map *map,
                                                ptxemu_devptr addr,
                                                const char **why);

/* ------------------------------------------------------------ statistics */

/* State spaces of memory statistics (generic accesses are counted in the
 * space they resolve to). */
typedef enum ptxemu_space {
    PTXEMU_SPACE_GLOBAL = 0,
    PTXEMU_SPACE_SHARED,
    PTXEMU_SPACE_LOCAL,
    PTXEMU_SPACE_CONST,
    PTXEMU_SPACE_PARAM,
    PTXEMU_SPACE_OTHER,
    PTXEMU_SPACE_COUNT
} ptxemu_space;

const char *ptxemu_space_name(ptxemu_space s);   /* "global", ... */

/* Which groups of counters hold data (flags in ptxemu_stats.collected). */
enum {
    PTXEMU_STATS_LAUNCHES = 1u << 0,    /* launches, threads, warp_insns */
    PTXEMU_STATS_STEPS = 1u << 1        /* everything counted per step:
                                           thread instructions, opcodes,
                                           branches, memory, atomics,
                                           barriers */
};

typedef struct ptxemu_stats {
    unsigned collected;                 /* PTXEMU_STATS_* */
    uint64_t launches;
    uint64_t ctas;
    uint64_t threads;
    uint64_t warp_insns;                /* instructions issued per warp */
    uint64_t thread_insns;              /* x lanes active (stack mask) */
    uint64_t thread_insns_executed;     /* x lanes whose guard was true */
    uint64_t branches;                  /* warp-level branch instructions */
    uint64_t divergent_branches;
    uint64_t mem_insns[PTXEMU_SPACE_COUNT];     /* warp-level ld/st/atom */
    uint64_t mem_accesses[PTXEMU_SPACE_COUNT];  /* per-lane accesses */
    uint64_t mem_bytes[PTXEMU_SPACE_COUNT];
    uint64_t loads;                     /* per-lane, all spaces */
    uint64_t stores;
    uint64_t atomics;                   /* warp-level atom/red */
    uint64_t atomic_accesses;           /* per-lane */
    uint64_t barriers;                  /* warp arrivals at barriers */
} ptxemu_stats;

/* Statistics summed over all launches on dev since creation or the last
 * reset.  Per-step counters need collect_stats in the device options. */
ptxemu_status ptxemu_get_stats(ptxemu_device *dev, ptxemu_stats *out);
void ptxemu_reset_stats(ptxemu_device *dev);

typedef struct ptxemu_opcode_count {
    const char *opcode;                 /* "ld", "add", ... */
    uint64_t warp_insns;
    uint64_t thread_insns;
} ptxemu_opcode_count;

/* Per-opcode counts, most frequent first (ties by name); fills at most
 * max entries and returns how many opcodes have a non-zero count. */
size_t ptxemu_get_opcode_stats(ptxemu_device *dev, ptxemu_opcode_count *out,
                               size_t max);

#ifdef __cplusplus
}
#endif
#endif
