/*
 * abi/cuda_abi.h: our own declaration of the CUDA driver API
 * ABI that libcuda.so.1 (the emulator's drop-in driver) exports.
 *
 * abi/ holds the CUDA ABI facts (enumeration values, struct layouts,
 * error codes and texts) that more than one layer needs: the emulator
 * answers attribute queries and device-side cudaGetErrorString with
 * them (emu/gpuspec.c, emu/cuerr.c) and the drop-in libraries export
 * them (runtime/cuda, runtime/cudart).  It sits below every layer and
 * includes nothing of ours, so ptx/ <- emu/ <- timing/ <- runtime/ stays
 * a one-way chain (tests/layering.test checks it).
 *
 * Written here, not copied: the numeric values of the enumerations, the
 * layout of the structures and the exported symbol names are ABI facts
 * checked against CUDA 13.0's cuda.h (CUDA_VERSION 13000), which maps
 * e.g. cuMemAlloc to the exported symbol cuMemAlloc_v2.  Programs are
 * compiled against NVIDIA's header; they only see the symbols and the
 * values, so those must match exactly.
 *
 * The prototypes below use the exported (versioned) names.  The legacy
 * unversioned names that have the same signature are exported too (old
 * binaries import them); those whose pre-3.2 signature used 32-bit
 * device pointers are answered by the not-supported stubs.
 */
#ifndef PTXEMU_CUDA_ABI_H
#define PTXEMU_CUDA_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PTXEMU_CUDA_VERSION 13000       /* CUDA_VERSION we implement */

/* ------------------------------------------------------------ results */

/* X(name, value): every CUresult of CUDA 13.0. */
#define CU_RESULT_LIST(X) \
    X(CUDA_SUCCESS, 0) \
    X(CUDA_ERROR_INVALID_VALUE, 1) \
    X(CUDA_ERROR_OUT_OF_MEMORY, 2) \
    X(CUDA_ERROR_NOT_INITIALIZED, 3) \
    X(CUDA_ERROR_DEINITIALIZED, 4) \
    X(CUDA_ERROR_PROFILER_DISABLED, 5) \
    X(CUDA_ERROR_PROFILER_NOT_INITIALIZED, 6) \
    X(CUDA_ERROR_PROFILER_ALREADY_STARTED, 7) \
    X(CUDA_ERROR_PROFILER_ALREADY_STOPPED, 8) \
    X(CUDA_ERROR_STUB_LIBRARY, 34) \
    X(CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER, 36) \
    X(CUDA_ERROR_DEVICE_UNAVAILABLE, 46) \
    X(CUDA_ERROR_NO_DEVICE, 100) \
    X(CUDA_ERROR_INVALID_DEVICE, 101) \
    X(CUDA_ERROR_DEVICE_NOT_LICENSED, 102) \
    X(CUDA_ERROR_INVALID_IMAGE, 200) \
    X(CUDA_ERROR_INVALID_CONTEXT, 201) \
    X(CUDA_ERROR_CONTEXT_ALREADY_CURRENT, 202) \
    X(CUDA_ERROR_MAP_FAILED, 205) \
    X(CUDA_ERROR_UNMAP_FAILED, 206) \
    X(CUDA_ERROR_ARRAY_IS_MAPPED, 207) \
    X(CUDA_ERROR_ALREADY_MAPPED, 208) \
    X(CUDA_ERROR_NO_BINARY_FOR_GPU, 209) \
    X(CUDA_ERROR_ALREADY_ACQUIRED, 210) \
    X(CUDA_ERROR_NOT_MAPPED, 211) \
    X(CUDA_ERROR_NOT_MAPPED_AS_ARRAY, 212) \
    X(CUDA_ERROR_NOT_MAPPED_AS_POINTER, 213) \
    X(CUDA_ERROR_ECC_UNCORRECTABLE, 214) \
    X(CUDA_ERROR_UNSUPPORTED_LIMIT, 215) \
    X(CUDA_ERROR_CONTEXT_ALREADY_IN_USE, 216) \
    X(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, 217) \
    X(CUDA_ERROR_INVALID_PTX, 218) \
    X(CUDA_ERROR_INVALID_GRAPHICS_CONTEXT, 219) \
    X(CUDA_ERROR_NVLINK_UNCORRECTABLE, 220) \
    X(CUDA_ERROR_JIT_COMPILER_NOT_FOUND, 221) \
    X(CUDA_ERROR_UNSUPPORTED_PTX_VERSION, 222) \
    X(CUDA_ERROR_JIT_COMPILATION_DISABLED, 223) \
    X(CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY, 224) \
    X(CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC, 225) \
    X(CUDA_ERROR_CONTAINED, 226) \
    X(CUDA_ERROR_INVALID_SOURCE, 300) \
    X(CUDA_ERROR_FILE_NOT_FOUND, 301) \
    X(CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND, 302) \
    X(CUDA_ERROR_SHARED_OBJECT_INIT_FAILED, 303) \
    X(CUDA_ERROR_OPERATING_SYSTEM, 304) \
    X(CUDA_ERROR_INVALID_HANDLE, 400) \
    X(CUDA_ERROR_ILLEGAL_STATE, 401) \
    X(CUDA_ERROR_LOSSY_QUERY, 402) \
    X(CUDA_ERROR_NOT_FOUND, 500) \
    X(CUDA_ERROR_NOT_READY, 600) \
    X(CUDA_ERROR_ILLEGAL_ADDRESS, 700) \
    X(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, 701) \
    X(CUDA_ERROR_LAUNCH_TIMEOUT, 702) \
    X(CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING, 703) \
    X(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, 704) \
    X(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, 705) \
    X(CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE, 708) \
    X(CUDA_ERROR_CONTEXT_IS_DESTROYED, 709) \
    X(CUDA_ERROR_ASSERT, 710) \
    X(CUDA_ERROR_TOO_MANY_PEERS, 711) \
    X(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, 712) \
    X(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, 713) \
    X(CUDA_ERROR_HARDWARE_STACK_ERROR, 714) \
    X(CUDA_ERROR_ILLEGAL_INSTRUCTION, 715) \
    X(CUDA_ERROR_MISALIGNED_ADDRESS, 716) \
    X(CUDA_ERROR_INVALID_ADDRESS_SPACE, 717) \
    X(CUDA_ERROR_INVALID_PC, 718) \
    X(CUDA_ERROR_LAUNCH_FAILED, 719) \
    X(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, 720) \
    X(CUDA_ERROR_TENSOR_MEMORY_LEAK, 721) \
    X(CUDA_ERROR_NOT_PERMITTED, 800) \
    X(CUDA_ERROR_NOT_SUPPORTED, 801) \
    X(CUDA_ERROR_SYSTEM_NOT_READY, 802) \
    X(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH, 803) \
    X(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE, 804) \
    X(CUDA_ERROR_MPS_CONNECTION_FAILED, 805) \
    X(CUDA_ERROR_MPS_RPC_FAILURE, 806) \
    X(CUDA_ERROR_MPS_SERVER_NOT_READY, 807) \
    X(CUDA_ERROR_MPS_MAX_CLIENTS_REACHED, 808) \
    X(CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED, 809) \
    X(CUDA_ERROR_MPS_CLIENT_TERMINATED, 810) \
    X(CUDA_ERROR_CDP_NOT_SUPPORTED, 811) \
    X(CUDA_ERROR_CDP_VERSION_MISMATCH, 812) \
    X(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, 900) \
    X(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, 901) \
    X(CUDA_ERROR_STREAM_CAPTURE_MERGE, 902) \
    X(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED, 903) \
    X(CUDA_ERROR_STREAM_CAPTURE_UNJOINED, 904) \
    X(CUDA_ERROR_STREAM_CAPTURE_ISOLATION, 905) \
    X(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, 906) \
    X(CUDA_ERROR_CAPTURED_EVENT, 907) \
    X(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD, 908) \
    X(CUDA_ERROR_TIMEOUT, 909) \
    X(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, 910) \
    X(CUDA_ERROR_EXTERNAL_DEVICE, 911) \
    X(CUDA_ERROR_INVALID_CLUSTER_SIZE, 912) \
    X(CUDA_ERROR_FUNCTION_NOT_LOADED, 913) \
    X(CUDA_ERROR_INVALID_RESOURCE_TYPE, 914) \
    X(CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION, 915) \
    X(CUDA_ERROR_KEY_ROTATION, 916) \
    X(CUDA_ERROR_UNKNOWN, 999)

typedef enum cudaError_enum {
#define CU_RESULT_ENUM_(name, value) name = value,
    CU_RESULT_LIST(CU_RESULT_ENUM_)
#undef CU_RESULT_ENUM_
    CUDA_RESULT_ENUM_END_ = 1000
} CUresult;

/* ------------------------------------------------------------ handles */

typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef uint64_t cuuint64_t;
typedef uint32_t cuuint32_t;

typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUlib_st *CUlibrary;
typedef struct CUkern_st *CUkernel;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUlinkState_st *CUlinkState;
typedef struct CUarray_st *CUarray;
typedef struct CUmipmappedArray_st *CUmipmappedArray;
typedef unsigned long long CUtexObject;
typedef unsigned long long CUsurfObject;

typedef struct CUuuid_st {
    char bytes[16];
} CUuuid;

/* The special stream handles. */
#define CU_STREAM_LEGACY     ((CUstream)0x1)
#define CU_STREAM_PER_THREAD ((CUstream)0x2)

#define CU_DEVICE_CPU        ((CUdevice)-1)
#define CU_DEVICE_INVALID    ((CUdevice)-2)

/* ------------------------------------------------------------ device */

/* X(name, value): every CUdevice_attribute of CUDA 13.0 (aliases that
 * share a value are left out: MAX_SHARED_MEMORY_PER_BLOCK = 8, ...). */
#define CU_DEVICE_ATTRIBUTE_LIST(X) \
    X(MAX_THREADS_PER_BLOCK, 1) \
    X(MAX_BLOCK_DIM_X, 2) \
    X(MAX_BLOCK_DIM_Y, 3) \
    X(MAX_BLOCK_DIM_Z, 4) \
    X(MAX_GRID_DIM_X, 5) \
    X(MAX_GRID_DIM_Y, 6) \
    X(MAX_GRID_DIM_Z, 7) \
    X(SHARED_MEMORY_PER_BLOCK, 8) \
    X(TOTAL_CONSTANT_MEMORY, 9) \
    X(WARP_SIZE, 10) \
    X(MAX_PITCH, 11) \
    X(REGISTERS_PER_BLOCK, 12) \
    X(CLOCK_RATE, 13) \
    X(TEXTURE_ALIGNMENT, 14) \
    X(GPU_OVERLAP, 15) \
    X(MULTIPROCESSOR_COUNT, 16) \
    X(KERNEL_EXEC_TIMEOUT, 17) \
    X(INTEGRATED, 18) \
    X(CAN_MAP_HOST_MEMORY, 19) \
    X(COMPUTE_MODE, 20) \
    X(MAXIMUM_TEXTURE1D_WIDTH, 21) \
    X(MAXIMUM_TEXTURE2D_WIDTH, 22) \
    X(MAXIMUM_TEXTURE2D_HEIGHT, 23) \
    X(MAXIMUM_TEXTURE3D_WIDTH, 24) \
    X(MAXIMUM_TEXTURE3D_HEIGHT, 25) \
    X(MAXIMUM_TEXTURE3D_DEPTH, 26) \
    X(MAXIMUM_TEXTURE2D_LAYERED_WIDTH, 27) \
    X(MAXIMUM_TEXTURE2D_LAYERED_HEIGHT, 28) \
    X(MAXIMUM_TEXTURE2D_LAYERED_LAYERS, 29) \
    X(SURFACE_ALIGNMENT, 30) \
    X(CONCURRENT_KERNELS, 31) \
    X(ECC_ENABLED, 32) \
    X(PCI_BUS_ID, 33) \
    X(PCI_DEVICE_ID, 34) \
    X(TCC_DRIVER, 35) \
    X(MEMORY_CLOCK_RATE, 36) \
    X(GLOBAL_MEMORY_BUS_WIDTH, 37) \
    X(L2_CACHE_SIZE, 38) \
    X(MAX_THREADS_PER_MULTIPROCESSOR, 39) \
    X(ASYNC_ENGINE_COUNT, 40) \
    X(UNIFIED_ADDRESSING, 41) \
    X(MAXIMUM_TEXTURE1D_LAYERED_WIDTH, 42) \
    X(MAXIMUM_TEXTURE1D_LAYERED_LAYERS, 43) \
    X(CAN_TEX2D_GATHER, 44) \
    X(MAXIMUM_TEXTURE2D_GATHER_WIDTH, 45) \
    X(MAXIMUM_TEXTURE2D_GATHER_HEIGHT, 46) \
    X(MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE, 47) \
    X(MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE, 48) \
    X(MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE, 49) \
    X(PCI_DOMAIN_ID, 50) \
    X(TEXTURE_PITCH_ALIGNMENT, 51) \
    X(MAXIMUM_TEXTURECUBEMAP_WIDTH, 52) \
    X(MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH, 53) \
    X(MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS, 54) \
    X(MAXIMUM_SURFACE1D_WIDTH, 55) \
    X(MAXIMUM_SURFACE2D_WIDTH, 56) \
    X(MAXIMUM_SURFACE2D_HEIGHT, 57) \
    X(MAXIMUM_SURFACE3D_WIDTH, 58) \
    X(MAXIMUM_SURFACE3D_HEIGHT, 59) \
    X(MAXIMUM_SURFACE3D_DEPTH, 60) \
    X(MAXIMUM_SURFACE1D_LAYERED_WIDTH, 61) \
    X(MAXIMUM_SURFACE1D_LAYERED_LAYERS, 62) \
    X(MAXIMUM_SURFACE2D_LAYERED_WIDTH, 63) \
    X(MAXIMUM_SURFACE2D_LAYERED_HEIGHT, 64) \
    X(MAXIMUM_SURFACE2D_LAYERED_LAYERS, 65) \
    X(MAXIMUM_SURFACECUBEMAP_WIDTH, 66) \
    X(MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH, 67) \
    X(MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS, 68) \
    X(MAXIMUM_TEXTURE1D_LINEAR_WIDTH, 69) \
    X(MAXIMUM_TEXTURE2D_LINEAR_WIDTH, 70) \
    X(MAXIMUM_TEXTURE2D_LINEAR_HEIGHT, 71) \
    X(MAXIMUM_TEXTURE2D_LINEAR_PITCH, 72) \
    X(MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH, 73) \
    X(MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT, 74) \
    X(COMPUTE_CAPABILITY_MAJOR, 75) \
    X(COMPUTE_CAPABILITY_MINOR, 76) \
    X(MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH, 77) \
    X(STREAM_PRIORITIES_SUPPORTED, 78) \
    X(GLOBAL_L1_CACHE_SUPPORTED, 79) \
    X(LOCAL_L1_CACHE_SUPPORTED, 80) \
    X(MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, 81) \
    X(MAX_REGISTERS_PER_MULTIPROCESSOR, 82) \
    X(MANAGED_MEMORY, 83) \
    X(MULTI_GPU_BOARD, 84) \
    X(MULTI_GPU_BOARD_GROUP_ID, 85) \
    X(HOST_NATIVE_ATOMIC_SUPPORTED, 86) \
    X(SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO, 87) \
    X(PAGEABLE_MEMORY_ACCESS, 88) \
    X(CONCURRENT_MANAGED_ACCESS, 89) \
    X(COMPUTE_PREEMPTION_SUPPORTED, 90) \
    X(CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM, 91) \
    X(CAN_USE_STREAM_MEM_OPS_V1, 92) \
    X(CAN_USE_64_BIT_STREAM_MEM_OPS_V1, 93) \
    X(CAN_USE_STREAM_WAIT_VALUE_NOR_V1, 94) \
    X(COOPERATIVE_LAUNCH, 95) \
    X(COOPERATIVE_MULTI_DEVICE_LAUNCH, 96) \
    X(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 97) \
    X(CAN_FLUSH_REMOTE_WRITES, 98) \
    X(HOST_REGISTER_SUPPORTED, 99) \
    X(PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES, 100) \
    X(DIRECT_MANAGED_MEM_ACCESS_FROM_HOST, 101) \
    X(VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 102) \
    X(HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, 103) \
    X(HANDLE_TYPE_WIN32_HANDLE_SUPPORTED, 104) \
    X(HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED, 105) \
    X(MAX_BLOCKS_PER_MULTIPROCESSOR, 106) \
    X(GENERIC_COMPRESSION_SUPPORTED, 107) \
    X(MAX_PERSISTING_L2_CACHE_SIZE, 108) \
    X(MAX_ACCESS_POLICY_WINDOW_SIZE, 109) \
    X(GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED, 110) \
    X(RESERVED_SHARED_MEMORY_PER_BLOCK, 111) \
    X(SPARSE_CUDA_ARRAY_SUPPORTED, 112) \
    X(READ_ONLY_HOST_REGISTER_SUPPORTED, 113) \
    X(TIMELINE_SEMAPHORE_INTEROP_SUPPORTED, 114) \
    X(MEMORY_POOLS_SUPPORTED, 115) \
    X(GPU_DIRECT_RDMA_SUPPORTED, 116) \
    X(GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS, 117) \
    X(GPU_DIRECT_RDMA_WRITES_ORDERING, 118) \
    X(MEMPOOL_SUPPORTED_HANDLE_TYPES, 119) \
    X(CLUSTER_LAUNCH, 120) \
    X(DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED, 121) \
    X(CAN_USE_64_BIT_STREAM_MEM_OPS, 122) \
    X(CAN_USE_STREAM_WAIT_VALUE_NOR, 123) \
    X(DMA_BUF_SUPPORTED, 124) \
    X(IPC_EVENT_SUPPORTED, 125) \
    X(MEM_SYNC_DOMAIN_COUNT, 126) \
    X(TENSOR_MAP_ACCESS_SUPPORTED, 127) \
    X(HANDLE_TYPE_FABRIC_SUPPORTED, 128) \
    X(UNIFIED_FUNCTION_POINTERS, 129) \
    X(NUMA_CONFIG, 130) \
    X(NUMA_ID, 131) \
    X(MULTICAST_SUPPORTED, 132) \
    X(MPS_ENABLED, 133) \
    X(HOST_NUMA_ID, 134) \
    X(D3D12_CIG_SUPPORTED, 135) \
    X(MEM_DECOMPRESS_ALGORITHM_MASK, 136) \
    X(MEM_DECOMPRESS_MAXIMUM_LENGTH, 137) \
    X(VULKAN_CIG_SUPPORTED, 138) \
    X(GPU_PCI_DEVICE_ID, 139) \
    X(GPU_PCI_SUBSYSTEM_ID, 140) \
    X(HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 141) \
    X(HOST_NUMA_MEMORY_POOLS_SUPPORTED, 142) \
    X(HOST_NUMA_MULTINODE_IPC_SUPPORTED, 143) \
    X(HOST_MEMORY_POOLS_SUPPORTED, 144) \
    X(HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 145) \
    X(HOST_ALLOC_DMA_BUF_SUPPORTED, 146) \
    X(ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED, 147)

typedef enum CUdevice_attribute_enum {
#define CU_DEVATTR_ENUM_(name, value) CU_DEVICE_ATTRIBUTE_##name = value,
    CU_DEVICE_ATTRIBUTE_LIST(CU_DEVATTR_ENUM_)
#undef CU_DEVATTR_ENUM_
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
    CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_WIDTH = 27,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_HEIGHT = 28,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_NUMSLICES = 29,
    CU_DEVICE_ATTRIBUTE_VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED = 102,
    CU_DEVICE_ATTRIBUTE_MAX = 148
} CUdevice_attribute;

typedef enum CUcomputemode_enum {
    CU_COMPUTEMODE_DEFAULT = 0,
    CU_COMPUTEMODE_PROHIBITED = 2,
    CU_COMPUTEMODE_EXCLUSIVE_PROCESS = 3
} CUcomputemode;

/* The legacy cuDeviceGetProperties record. */
typedef struct CUdevprop_st {
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int sharedMemPerBlock;
    int totalConstantMemory;
    int SIMDWidth;
    int memPitch;
    int regsPerBlock;
    int clockRate;
    int textureAlign;
} CUdevprop;

/* ------------------------------------------------------------ contexts */

typedef enum CUctx_flags_enum {
    CU_CTX_SCHED_AUTO = 0x00,
    CU_CTX_SCHED_SPIN = 0x01,
    CU_CTX_SCHED_YIELD = 0x02,
    CU_CTX_SCHED_BLOCKING_SYNC = 0x04,
    CU_CTX_BLOCKING_SYNC = 0x04,
    CU_CTX_SCHED_MASK = 0x07,
    CU_CTX_MAP_HOST = 0x08,
    CU_CTX_LMEM_RESIZE_TO_MAX = 0x10,
    CU_CTX_COREDUMP_ENABLE = 0x20,
    CU_CTX_USER_COREDUMP_ENABLE = 0x40,
    CU_CTX_SYNC_MEMOPS = 0x80,
    CU_CTX_FLAGS_MASK = 0xFF
} CUctx_flags;

typedef enum CUlimit_enum {
    CU_LIMIT_STACK_SIZE = 0x00,
    CU_LIMIT_PRINTF_FIFO_SIZE = 0x01,
    CU_LIMIT_MALLOC_HEAP_SIZE = 0x02,
    CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH = 0x03,
    CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT = 0x04,
    CU_LIMIT_MAX_L2_FETCH_GRANULARITY = 0x05,
    CU_LIMIT_PERSISTING_L2_CACHE_SIZE = 0x06,
    CU_LIMIT_SHMEM_SIZE = 0x07,
    CU_LIMIT_CIG_ENABLED = 0x08,
    CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED = 0x09,
    CU_LIMIT_MAX
} CUlimit;

typedef enum CUfunc_cache_enum {
    CU_FUNC_CACHE_PREFER_NONE = 0x00,
    CU_FUNC_CACHE_PREFER_SHARED = 0x01,
    CU_FUNC_CACHE_PREFER_L1 = 0x02,
    CU_FUNC_CACHE_PREFER_EQUAL = 0x03
} CUfunc_cache;

typedef enum CUsharedconfig_enum {
    CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE = 0x00,
    CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE = 0x01,
    CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE = 0x02
} CUsharedconfig;

/* cuCtxCreate_v4's parameters; we accept only NULL pointers in them
 * (execution affinity and CIG are hardware partitioning features). */
typedef struct CUctxCreateParams_st {
    void *execAffinityParams;
    int numExecAffinityParams;
    void *cigParams;
} CUctxCreateParams;

/* ------------------------------------------------------------ modules */

typedef enum CUjit_option_enum {
    CU_JIT_MAX_REGISTERS = 0,
    CU_JIT_THREADS_PER_BLOCK = 1,
    CU_JIT_WALL_TIME = 2,
    CU_JIT_INFO_LOG_BUFFER = 3,
    CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
    CU_JIT_ERROR_LOG_BUFFER = 5,
    CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
    CU_JIT_OPTIMIZATION_LEVEL = 7,
    CU_JIT_TARGET_FROM_CUCONTEXT = 8,
    CU_JIT_TARGET = 9,
    CU_JIT_FALLBACK_STRATEGY = 10,
    CU_JIT_GENERATE_DEBUG_INFO = 11,
    CU_JIT_LOG_VERBOSE = 12,
    CU_JIT_GENERATE_LINE_INFO = 13,
    CU_JIT_CACHE_MODE = 14,
    CU_JIT_NEW_SM3X_OPT = 15,
    CU_JIT_FAST_COMPILE = 16,
    CU_JIT_GLOBAL_SYMBOL_NAMES = 17,
    CU_JIT_GLOBAL_SYMBOL_ADDRESSES = 18,
    CU_JIT_GLOBAL_SYMBOL_COUNT = 19,
    CU_JIT_LTO = 20,
    CU_JIT_FTZ = 21,
    CU_JIT_PREC_DIV = 22,
    CU_JIT_PREC_SQRT = 23,
    CU_JIT_FMA = 24,
    CU_JIT_REFERENCED_KERNEL_NAMES = 25,
    CU_JIT_REFERENCED_KERNEL_COUNT = 26,
    CU_JIT_REFERENCED_VARIABLE_NAMES = 27,
    CU_JIT_REFERENCED_VARIABLE_COUNT = 28,
    CU_JIT_OPTIMIZE_UNUSED_DEVICE_VARIABLES = 29,
    CU_JIT_POSITION_INDEPENDENT_CODE = 30,
    CU_JIT_MIN_CTA_PER_SM = 31,
    CU_JIT_MAX_THREADS_PER_BLOCK = 32,
    CU_JIT_OVERRIDE_DIRECTIVE_VALUES = 33,
    CU_JIT_SPLIT_COMPILE = 34,
    CU_JIT_NUM_OPTIONS
} CUjit_option;

typedef enum CUjitInputType_enum {
    CU_JIT_INPUT_CUBIN = 0,
    CU_JIT_INPUT_PTX = 1,
    CU_JIT_INPUT_FATBINARY = 2,
    CU_JIT_INPUT_OBJECT = 3,
    CU_JIT_INPUT_LIBRARY = 4,
    CU_JIT_INPUT_NVVM = 5,
    CU_JIT_NUM_INPUT_TYPES = 6
} CUjitInputType;

typedef enum CUmoduleLoadingMode_enum {
    CU_MODULE_EAGER_LOADING = 0x1,
    CU_MODULE_LAZY_LOADING = 0x2
} CUmoduleLoadingMode;

typedef int CUlibraryOption;            /* enum in cuda.h; int-sized */

typedef enum CUfunction_attribute_enum {
    CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
    CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
    CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2,
    CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
    CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
    CU_FUNC_ATTRIBUTE_PTX_VERSION = 5,
    CU_FUNC_ATTRIBUTE_BINARY_VERSION = 6,
    CU_FUNC_ATTRIBUTE_CACHE_MODE_CA = 7,
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
    CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9,
    CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET = 10,
    CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH = 11,
    CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT = 12,
    CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH = 13,
    CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED = 14,
    CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE = 15,
    CU_FUNC_ATTRIBUTE_MAX
} CUfunction_attribute;

/* ------------------------------------------------------------ memory */

typedef enum CUmemorytype_enum {
    CU_MEMORYTYPE_HOST = 0x01,
    CU_MEMORYTYPE_DEVICE = 0x02,
    CU_MEMORYTYPE_ARRAY = 0x03,
    CU_MEMORYTYPE_UNIFIED = 0x04
} CUmemorytype;

typedef enum CUmemAttach_flags_enum {
    CU_MEM_ATTACH_GLOBAL = 0x1,
    CU_MEM_ATTACH_HOST = 0x2,
    CU_MEM_ATTACH_SINGLE = 0x4
} CUmemAttach_flags;

#define CU_MEMHOSTALLOC_PORTABLE        0x01
#define CU_MEMHOSTALLOC_DEVICEMAP       0x02
#define CU_MEMHOSTALLOC_WRITECOMBINED   0x04
#define CU_MEMHOSTREGISTER_PORTABLE     0x01
#define CU_MEMHOSTREGISTER_DEVICEMAP    0x02
#define CU_MEMHOSTREGISTER_IOMEMORY     0x04
#define CU_MEMHOSTREGISTER_READ_ONLY    0x08

typedef enum CUpointer_attribute_enum {
    CU_POINTER_ATTRIBUTE_CONTEXT = 1,
    CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2,
    CU_POINTER_ATTRIBUTE_DEVICE_POINTER = 3,
    CU_POINTER_ATTRIBUTE_HOST_POINTER = 4,
    CU_POINTER_ATTRIBUTE_P2P_TOKENS = 5,
    CU_POINTER_ATTRIBUTE_SYNC_MEMOPS = 6,
    CU_POINTER_ATTRIBUTE_BUFFER_ID = 7,
    CU_POINTER_ATTRIBUTE_IS_MANAGED = 8,
    CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9,
    CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE = 10,
    CU_POINTER_ATTRIBUTE_RANGE_START_ADDR = 11,
    CU_POINTER_ATTRIBUTE_RANGE_SIZE = 12,
    CU_POINTER_ATTRIBUTE_MAPPED = 13,
    CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES = 14,
    CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE = 15,
    CU_POINTER_ATTRIBUTE_ACCESS_FLAGS = 16,
    CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE = 17,
    CU_POINTER_ATTRIBUTE_MAPPING_SIZE = 18,
    CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR = 19,
    CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID = 20
} CUpointer_attribute;

typedef struct CUDA_MEMCPY2D_st {
    size_t srcXInBytes;
    size_t srcY;
    CUmemorytype srcMemoryType;
    const void *srcHost;
    CUdeviceptr srcDevice;
    CUarray srcArray;
    size_t srcPitch;
    size_t dstXInBytes;
    size_t dstY;
    CUmemorytype dstMemoryType;
    void *dstHost;
    CUdeviceptr dstDevice;
    CUarray dstArray;
    size_t dstPitch;
    size_t WidthInBytes;
    size_t Height;
} CUDA_MEMCPY2D;

typedef struct CUDA_MEMCPY3D_st {
    size_t srcXInBytes;
    size_t srcY;
    size_t srcZ;
    size_t srcLOD;
    CUmemorytype srcMemoryType;
    const void *srcHost;
    CUdeviceptr srcDevice;
    CUarray srcArray;
    void *reserved0;
    size_t srcPitch;
    size_t srcHeight;
    size_t dstXInBytes;
    size_t dstY;
    size_t dstZ;
    size_t dstLOD;
    CUmemorytype dstMemoryType;
    void *dstHost;
    CUdeviceptr dstDevice;
    CUarray dstArray;
    void *reserved1;
    size_t dstPitch;
    size_t dstHeight;
    size_t WidthInBytes;
    size_t Height;
    size_t Depth;
} CUDA_MEMCPY3D;

/* cuMemPrefetchAsync_v2 / cuMemAdvise_v2 take this by value. */
typedef struct CUmemLocation_st {
    int type;
    int id;
} CUmemLocation;

/* Virtual memory management (cuMemCreate, cuMemMap ...), as cuda.h
 * lays them out. */
typedef unsigned long long CUmemGenericAllocationHandle;
enum {
    CU_MEM_HANDLE_TYPE_NONE = 0x0,
    CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR = 0x1,
    CU_MEM_ACCESS_FLAGS_PROT_NONE = 0x0,
    CU_MEM_ACCESS_FLAGS_PROT_READ = 0x1,
    CU_MEM_ACCESS_FLAGS_PROT_READWRITE = 0x3,
    CU_MEM_LOCATION_TYPE_DEVICE = 0x1,
    CU_MEM_ALLOCATION_TYPE_PINNED = 0x1,
    CU_MEM_ALLOC_GRANULARITY_MINIMUM = 0x0,
    CU_MEM_ALLOC_GRANULARITY_RECOMMENDED = 0x1,
    CU_MEM_ALLOCATION_COMP_NONE = 0x0,
    CU_MEM_ALLOCATION_COMP_GENERIC = 0x1
};
typedef struct CUmemAllocationProp_st {
    int type;                           /* CUmemAllocationType */
    int requestedHandleTypes;           /* CUmemAllocationHandleType */
    CUmemLocation location;
    void *win32HandleMetaData;
    struct {
        unsigned char compressionType;
        unsigned char gpuDirectRDMACapable;
        unsigned short usage;
        unsigned char reserved[4];
    } allocFlags;
} CUmemAllocationProp;
typedef struct CUmemAccessDesc_st {
    CUmemLocation location;
    int flags;                          /* CUmemAccess_flags */
} CUmemAccessDesc;

typedef int CUmem_advise;               /* enum in cuda.h; int-sized */

/* Stream-ordered allocation and memory pools (CUDA Driver API,
 * "Stream Ordered Memory Allocator"), as cuda.h lays them out. */
typedef struct CUmemPoolHandle_st *CUmemoryPool;
typedef enum CUmemPool_attribute_enum {
    CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES = 1,
    CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC = 2,
    CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES = 3,
    CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4,
    CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT = 5,
    CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH = 6,
    CU_MEMPOOL_ATTR_USED_MEM_CURRENT = 7,
    CU_MEMPOOL_ATTR_USED_MEM_HIGH = 8
} CUmemPool_attribute;
enum {
    CU_MEM_LOCATION_TYPE_NONE = 0x0,
    CU_MEM_LOCATION_TYPE_HOST = 0x2,
    CU_MEM_LOCATION_TYPE_HOST_NUMA = 0x3,
    CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT = 0x4,
    CU_MEM_ALLOCATION_TYPE_MANAGED = 0x2
};
typedef struct CUmemPoolProps_st {
    int allocType;                      /* CUmemAllocationType */
    int handleTypes;                    /* CUmemAllocationHandleType */
    CUmemLocation location;
    void *win32SecurityAttributes;
    size_t maxSize;
    unsigned short usage;
    unsigned char reserved[54];
} CUmemPoolProps;
typedef struct CUmemPoolPtrExportData_st {
    unsigned char reserved[64];
} CUmemPoolPtrExportData;
/* Graph memory nodes (cuGraphAddMemAllocNode). */
typedef struct CUDA_MEM_ALLOC_NODE_PARAMS_st {
    CUmemPoolProps poolProps;
    const CUmemAccessDesc *accessDescs;
    size_t accessDescCount;
    size_t bytesize;
    CUdeviceptr dptr;                   /* out */
} CUDA_MEM_ALLOC_NODE_PARAMS;
typedef enum CUgraphMem_attribute_enum {
    CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT = 0,
    CU_GRAPH_MEM_ATTR_USED_MEM_HIGH = 1,
    CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT = 2,
    CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH = 3
} CUgraphMem_attribute;

/* ------------------------------------------------------------ streams */

typedef enum CUstream_flags_enum {
    CU_STREAM_DEFAULT = 0x0,
    CU_STREAM_NON_BLOCKING = 0x1
} CUstream_flags;

typedef enum CUevent_flags_enum {
    CU_EVENT_DEFAULT = 0x0,
    CU_EVENT_BLOCKING_SYNC = 0x1,
    CU_EVENT_DISABLE_TIMING = 0x2,
    CU_EVENT_INTERPROCESS = 0x4
} CUevent_flags;

typedef enum CUevent_record_flags_enum {
    CU_EVENT_RECORD_DEFAULT = 0x0,
    CU_EVENT_RECORD_EXTERNAL = 0x1
} CUevent_record_flags;

typedef enum CUevent_wait_flags_enum {
    CU_EVENT_WAIT_DEFAULT = 0x0,
    CU_EVENT_WAIT_EXTERNAL = 0x1
} CUevent_wait_flags;

typedef void (*CUstreamCallback)(CUstream hStream, CUresult status,
                                 void *userData);
typedef void (*CUhostFn)(void *userData);
typedef size_t (*CUoccupancyB2DSize)(int blockSize);

/* ------------------------------------------------------------ launch */

/* Markers of cuLaunchKernel's `extra` array. */
#define CU_LAUNCH_PARAM_END_AS_INT            0x00
#define CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT 0x01
#define CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT    0x02
#define CU_LAUNCH_PARAM_END \
    ((void *)CU_LAUNCH_PARAM_END_AS_INT)
#define CU_LAUNCH_PARAM_BUFFER_POINTER \
    ((void *)CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT)
#define CU_LAUNCH_PARAM_BUFFER_SIZE \
    ((void *)CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT)

typedef enum CUlaunchAttributeID_enum {
    CU_LAUNCH_ATTRIBUTE_IGNORE = 0,
    CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW = 1,
    CU_LAUNCH_ATTRIBUTE_COOPERATIVE = 2,
    CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY = 3,
    CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4,
    CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE = 5,
    CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6,
    CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT = 7,
    CU_LAUNCH_ATTRIBUTE_PRIORITY = 8,
    CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP = 9,
    CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN = 10,
    CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION = 11,
    CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT = 12,
    CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE = 13
} CUlaunchAttributeID;

/* CUaccessPolicyWindow (an L2 persistence hint) and its properties. */
typedef enum CUaccessProperty_enum {
    CU_ACCESS_PROPERTY_NORMAL = 0,
    CU_ACCESS_PROPERTY_STREAMING = 1,
    CU_ACCESS_PROPERTY_PERSISTING = 2
} CUaccessProperty;

typedef struct CUaccessPolicyWindow_st {
    void *base_ptr;
    size_t num_bytes;
    float hitRatio;
    CUaccessProperty hitProp;
    CUaccessProperty missProp;
} CUaccessPolicyWindow;

typedef enum CUsynchronizationPolicy_enum {
    CU_SYNC_POLICY_AUTO = 1,
    CU_SYNC_POLICY_SPIN = 2,
    CU_SYNC_POLICY_YIELD = 3,
    CU_SYNC_POLICY_BLOCKING_SYNC = 4
} CUsynchronizationPolicy;

/* The value union is 64 bytes; we read only the members we honour. */
typedef union CUlaunchAttributeValue_union {
    char pad[64];
    CUaccessPolicyWindow accessPolicyWindow;
    int cooperative;
    CUsynchronizationPolicy syncPolicy;
    struct {
        unsigned int x;
        unsigned int y;
        unsigned int z;
    } clusterDim;
    int priority;
    struct {
        unsigned char default_;
        unsigned char remote;
    } memSyncDomainMap;
    int memSyncDomain;
    int clusterSchedulingPolicyPreference;
} CUlaunchAttributeValue;

typedef struct CUlaunchAttribute_st {
    CUlaunchAttributeID id;
    char pad[8 - sizeof(CUlaunchAttributeID)];
    CUlaunchAttributeValue value;
} CUlaunchAttribute;

typedef struct CUlaunchConfig_st {
    unsigned int gridDimX;
    unsigned int gridDimY;
    unsigned int gridDimZ;
    unsigned int blockDimX;
    unsigned int blockDimY;
    unsigned int blockDimZ;
    unsigned int sharedMemBytes;
    CUstream hStream;
    CUlaunchAttribute *attrs;
    unsigned int numAttrs;
} CUlaunchConfig;

/* ------------------------------------------------------------ graphs */

/* CUDA graphs and stream capture (CUDA Driver API, "Graph Management",
 * "Stream Management"); the structs are cuda.h's layouts.  The enum
 * values equal the runtime's (cudaGraphNodeType, cudaStreamCapture*). */
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphNode_st *CUgraphNode;
typedef struct CUgraphExec_st *CUgraphExec;

typedef enum CUgraphNodeType_enum {
    CU_GRAPH_NODE_TYPE_KERNEL = 0,
    CU_GRAPH_NODE_TYPE_MEMCPY = 1,
    CU_GRAPH_NODE_TYPE_MEMSET = 2,
    CU_GRAPH_NODE_TYPE_HOST = 3,
    CU_GRAPH_NODE_TYPE_GRAPH = 4,
    CU_GRAPH_NODE_TYPE_EMPTY = 5,
    CU_GRAPH_NODE_TYPE_WAIT_EVENT = 6,
    CU_GRAPH_NODE_TYPE_EVENT_RECORD = 7,
    CU_GRAPH_NODE_TYPE_MEM_ALLOC = 10,
    CU_GRAPH_NODE_TYPE_MEM_FREE = 11,
    CU_GRAPH_NODE_TYPE_CONDITIONAL = 13
} CUgraphNodeType;

typedef enum CUstreamCaptureStatus_enum {
    CU_STREAM_CAPTURE_STATUS_NONE = 0,
    CU_STREAM_CAPTURE_STATUS_ACTIVE = 1,
    CU_STREAM_CAPTURE_STATUS_INVALIDATED = 2
} CUstreamCaptureStatus;

typedef enum CUstreamCaptureMode_enum {
    CU_STREAM_CAPTURE_MODE_GLOBAL = 0,
    CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1,
    CU_STREAM_CAPTURE_MODE_RELAXED = 2
} CUstreamCaptureMode;

typedef enum CUstreamUpdateCaptureDependencies_flags_enum {
    CU_STREAM_ADD_CAPTURE_DEPENDENCIES = 0x0,
    CU_STREAM_SET_CAPTURE_DEPENDENCIES = 0x1
} CUstreamUpdateCaptureDependencies_flags;

typedef enum CUgraphInstantiate_flags_enum {
    CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH = 1,
    CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD = 2,
    CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH = 4,
    CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY = 8
} CUgraphInstantiate_flags;

typedef enum CUgraphExecUpdateResult_enum {
    CU_GRAPH_EXEC_UPDATE_SUCCESS = 0x0,
    CU_GRAPH_EXEC_UPDATE_ERROR = 0x1,
    CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED = 0x2,
    CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED = 0x3
} CUgraphExecUpdateResult;

typedef struct CUgraphExecUpdateResultInfo_st {
    CUgraphExecUpdateResult result;
    CUgraphNode errorNode;
    CUgraphNode errorFromNode;
} CUgraphExecUpdateResultInfo;

typedef struct CUgraphEdgeData_st {
    unsigned char from_port;
    unsigned char to_port;
    unsigned char type;
    unsigned char reserved[5];
} CUgraphEdgeData;

/* The first form (cuda.h's CUDA_KERNEL_NODE_PARAMS_v1): without kern
 * and ctx. */
typedef struct CUDA_KERNEL_NODE_PARAMS_st {
    CUfunction func;
    unsigned int gridDimX;
    unsigned int gridDimY;
    unsigned int gridDimZ;
    unsigned int blockDimX;
    unsigned int blockDimY;
    unsigned int blockDimZ;
    unsigned int sharedMemBytes;
    void **kernelParams;
    void **extra;
} CUDA_KERNEL_NODE_PARAMS_v1;

/* cuGraphAddKernelNode_v2's (CUDA_KERNEL_NODE_PARAMS since CUDA 12);
 * the _v1 entry points take the struct without kern and ctx. */
typedef struct CUDA_KERNEL_NODE_PARAMS_v2_st {
    CUfunction func;
    unsigned int gridDimX;
    unsigned int gridDimY;
    unsigned int gridDimZ;
    unsigned int blockDimX;
    unsigned int blockDimY;
    unsigned int blockDimZ;
    unsigned int sharedMemBytes;
    void **kernelParams;
    void **extra;
    CUkernel kern;
    CUcontext ctx;
} CUDA_KERNEL_NODE_PARAMS;

typedef struct CUDA_MEMSET_NODE_PARAMS_st {
    CUdeviceptr dst;
    size_t pitch;
    unsigned int value;
    unsigned int elementSize;
    size_t width;
    size_t height;
} CUDA_MEMSET_NODE_PARAMS;

typedef struct CUDA_HOST_NODE_PARAMS_st {
    CUhostFn fn;
    void *userData;
} CUDA_HOST_NODE_PARAMS;

/* Conditional nodes (cuGraphConditionalHandleCreate, cuGraphAddNode). */
typedef unsigned long long CUgraphConditionalHandle;
typedef struct CUDA_CONDITIONAL_NODE_PARAMS {
    CUgraphConditionalHandle handle;
    int type;                           /* IF 0, WHILE 1, SWITCH 2 */
    unsigned int size;
    CUgraph *phGraph_out;               /* out: the bodies */
    CUcontext ctx;
} CUDA_CONDITIONAL_NODE_PARAMS;

/* cuGraphAddNode's parameters: the node type, then a 232-byte union of
 * the per-type parameters (the v2/v3 structures begin as the ones
 * above). */
typedef struct CUgraphNodeParams_st {
    int type;                           /* CUgraphNodeType */
    int reserved0[3];
    union {
        long long reserved1[29];
        CUDA_KERNEL_NODE_PARAMS kernel;
        struct {
            int flags;
            int reserved;
            CUcontext copyCtx;
            CUDA_MEMCPY3D copyParams;
        } memcpy;
        CUDA_MEMSET_NODE_PARAMS memset;
        CUDA_HOST_NODE_PARAMS host;
        struct {
            CUgraph graph;
            int ownership;              /* 0: clone */
        } graph;
        struct {
            CUevent event;
        } event;                        /* eventWait, eventRecord */
        CUDA_MEM_ALLOC_NODE_PARAMS alloc;
        struct {
            CUdeviceptr dptr;
        } free;
        CUDA_CONDITIONAL_NODE_PARAMS conditional;
    };
    long long reserved2;
} CUgraphNodeParams;

typedef enum CUgraphInstantiateResult_enum {
    CUDA_GRAPH_INSTANTIATE_SUCCESS = 0,
    CUDA_GRAPH_INSTANTIATE_ERROR = 1,
    CUDA_GRAPH_INSTANTIATE_INVALID_STRUCTURE = 2,
    CUDA_GRAPH_INSTANTIATE_NODE_OPERATION_NOT_SUPPORTED = 3,
    CUDA_GRAPH_INSTANTIATE_MULTIPLE_CTXS_NOT_SUPPORTED = 4,
    CUDA_GRAPH_INSTANTIATE_CONDITIONAL_HANDLE_UNUSED = 5
} CUgraphInstantiateResult;

typedef struct CUDA_GRAPH_INSTANTIATE_PARAMS_st {
    cuuint64_t flags;
    CUstream hUploadStream;
    CUgraphNode hErrNode_out;
    CUgraphInstantiateResult result_out;
} CUDA_GRAPH_INSTANTIATE_PARAMS;

/* ------------------------------------------------------------ proc */

typedef enum CUdriverProcAddress_flags_enum {
    CU_GET_PROC_ADDRESS_DEFAULT = 0,
    CU_GET_PROC_ADDRESS_LEGACY_STREAM = 1 << 0,
    CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM = 1 << 1
} CUdriverProcAddress_flags;

typedef enum CUdriverProcAddressQueryResult_enum {
    CU_GET_PROC_ADDRESS_SUCCESS = 0,
    CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND = 1,
    CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT = 2
} CUdriverProcAddressQueryResult;

/* ------------------------------------------------------------ prototypes */

/* Initialisation, versions, errors. */
CUresult cuInit(unsigned int Flags);
CUresult cuDriverGetVersion(int *driverVersion);
CUresult cuGetErrorName(CUresult error, const char **pStr);
CUresult cuGetErrorString(CUresult error, const char **pStr);
CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion,
                          cuuint64_t flags);
CUresult cuGetProcAddress_v2(const char *symbol, void **pfn,
                             int cudaVersion, cuuint64_t flags,
                             CUdriverProcAddressQueryResult *symbolStatus);
CUresult cuGetExportTable(const void **ppExportTable,
                          const CUuuid *pExportTableId);
CUresult cuProfilerStart(void);
CUresult cuProfilerStop(void);

/* Devices. */
CUresult cuDeviceGet(CUdevice *device, int ordinal);
CUresult cuDeviceGetCount(int *count);
CUresult cuDeviceGetName(char *name, int len, CUdevice dev);
CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev);
CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev);
CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev);
CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib,
                              CUdevice dev);
CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev);
CUresult cuDeviceGetProperties(CUdevprop *prop, CUdevice dev);
CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev);
CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId);
CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev,
                               CUdevice peerDev);

/* Contexts. */
CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev);
CUresult cuDevicePrimaryCtxRelease(CUdevice dev);
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev);
CUresult cuDevicePrimaryCtxReset(CUdevice dev);
CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev);
CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags);
CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags);
CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags,
                                    int *active);
CUresult cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev);
CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev);
CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *params,
                        unsigned int flags, CUdevice dev);
CUresult cuCtxDestroy(CUcontext ctx);
CUresult cuCtxDestroy_v2(CUcontext ctx);
CUresult cuCtxPushCurrent(CUcontext ctx);
CUresult cuCtxPushCurrent_v2(CUcontext ctx);
CUresult cuCtxPopCurrent(CUcontext *pctx);
CUresult cuCtxPopCurrent_v2(CUcontext *pctx);
CUresult cuCtxSetCurrent(CUcontext ctx);
CUresult cuCtxGetCurrent(CUcontext *pctx);
CUresult cuCtxGetDevice(CUdevice *device);
CUresult cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx);
CUresult cuCtxGetFlags(unsigned int *flags);
CUresult cuCtxSetFlags(unsigned int flags);
CUresult cuCtxGetId(CUcontext ctx, unsigned long long *ctxId);
CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version);
CUresult cuCtxSynchronize(void);
CUresult cuCtxSynchronize_v2(CUcontext ctx);
CUresult cuCtxGetLimit(size_t *pvalue, CUlimit limit);
CUresult cuCtxSetLimit(CUlimit limit, size_t value);
CUresult cuCtxGetCacheConfig(CUfunc_cache *pconfig);
CUresult cuCtxSetCacheConfig(CUfunc_cache config);
CUresult cuCtxGetSharedMemConfig(CUsharedconfig *pConfig);
CUresult cuCtxSetSharedMemConfig(CUsharedconfig config);
CUresult cuCtxGetStreamPriorityRange(int *leastPriority,
                                     int *greatestPriority);
CUresult cuCtxResetPersistingL2Cache(void);

/* Modules, libraries, functions. */
CUresult cuModuleLoad(CUmodule *module, const char *fname);
CUresult cuModuleLoadData(CUmodule *module, const void *image);
CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                            unsigned int numOptions, CUjit_option *options,
                            void **optionValues);
CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin);
CUresult cuModuleUnload(CUmodule hmod);
CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod,
                             const char *name);
CUresult cuModuleGetFunctionCount(unsigned int *count, CUmodule mod);
CUresult cuModuleEnumerateFunctions(CUfunction *functions,
                                    unsigned int numFunctions, CUmodule mod);
CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes,
                              CUmodule hmod, const char *name);
CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode *mode);
CUresult cuLibraryLoadData(CUlibrary *library, const void *code,
                           CUjit_option *jitOptions,
                           void **jitOptionsValues,
                           unsigned int numJitOptions,
                           CUlibraryOption *libraryOptions,
                           void **libraryOptionValues,
                           unsigned int numLibraryOptions);
CUresult cuLibraryLoadFromFile(CUlibrary *library, const char *fileName,
                               CUjit_option *jitOptions,
                               void **jitOptionsValues,
                               unsigned int numJitOptions,
                               CUlibraryOption *libraryOptions,
                               void **libraryOptionValues,
                               unsigned int numLibraryOptions);
CUresult cuLibraryUnload(CUlibrary library);
CUresult cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library,
                            const char *name);
CUresult cuLibraryGetModule(CUmodule *pMod, CUlibrary library);
CUresult cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes,
                            CUlibrary library, const char *name);
CUresult cuLibraryGetManaged(CUdeviceptr *dptr, size_t *bytes,
                             CUlibrary library, const char *name);
CUresult cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel);
CUresult cuKernelGetLibrary(CUlibrary *pLib, CUkernel kernel);
CUresult cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex,
                              size_t *paramOffset, size_t *paramSize);
CUresult cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config,
                                CUdevice dev);
CUresult cuLibraryGetKernelCount(unsigned int *count, CUlibrary lib);
CUresult cuLibraryEnumerateKernels(CUkernel *kernels,
                                   unsigned int numKernels, CUlibrary lib);
CUresult cuKernelGetName(const char **name, CUkernel hfunc);
CUresult cuKernelGetAttribute(int *pi, CUfunction_attribute attrib,
                              CUkernel kernel, CUdevice dev);
CUresult cuKernelSetAttribute(CUfunction_attribute attrib, int val,
                              CUkernel kernel, CUdevice dev);
CUresult cuLinkCreate(unsigned int numOptions, CUjit_option *options,
                      void **optionValues, CUlinkState *stateOut);
CUresult cuLinkCreate_v2(unsigned int numOptions, CUjit_option *options,
                         void **optionValues, CUlinkState *stateOut);
CUresult cuLinkAddData(CUlinkState state, CUjitInputType type, void *data,
                       size_t size, const char *name,
                       unsigned int numOptions, CUjit_option *options,
                       void **optionValues);
CUresult cuLinkAddData_v2(CUlinkState state, CUjitInputType type,
                          void *data, size_t size, const char *name,
                          unsigned int numOptions, CUjit_option *options,
                          void **optionValues);
CUresult cuLinkAddFile(CUlinkState state, CUjitInputType type,
                       const char *path, unsigned int numOptions,
                       CUjit_option *options, void **optionValues);
CUresult cuLinkAddFile_v2(CUlinkState state, CUjitInputType type,
                          const char *path, unsigned int numOptions,
                          CUjit_option *options, void **optionValues);
CUresult cuLinkComplete(CUlinkState state, void **cubinOut,
                        size_t *sizeOut);
CUresult cuLinkDestroy(CUlinkState state);
CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib,
                            CUfunction hfunc);
CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib,
                            int value);
CUresult cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config);
CUresult cuFuncSetSharedMemConfig(CUfunction hfunc, CUsharedconfig config);
CUresult cuFuncGetModule(CUmodule *hmod, CUfunction hfunc);
CUresult cuFuncGetName(const char **name, CUfunction hfunc);
CUresult cuFuncGetParamInfo(CUfunction func, size_t paramIndex,
                            size_t *paramOffset, size_t *paramSize);
CUresult cuFuncIsLoaded(int *state, CUfunction function);
CUresult cuFuncLoad(CUfunction function);

/* Memory. */
CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total);
CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize);
CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pPitch,
                            size_t WidthInBytes, size_t Height,
                            unsigned int ElementSizeBytes);
CUresult cuMemFree_v2(CUdeviceptr dptr);
CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize,
                           unsigned int flags);
CUresult cuMemAllocHost_v2(void **pp, size_t bytesize);
CUresult cuMemFreeHost(void *p);
CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags);
CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p,
                                      unsigned int Flags);
CUresult cuMemHostGetFlags(unsigned int *pFlags, void *p);
CUresult cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags);
CUresult cuMemHostRegister_v2(void *p, size_t bytesize,
                              unsigned int Flags);
CUresult cuMemHostUnregister(void *p);
CUresult cuMemGetAddressRange_v2(CUdeviceptr *pbase, size_t *psize,
                                 CUdeviceptr dptr);
CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize,
                         CUstream hStream);
CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream);
CUresult cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count,
                            CUdevice dstDevice, CUstream hStream);
CUresult cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count,
                               CUmemLocation location, unsigned int flags,
                               CUstream hStream);
CUresult cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice,
                     CUdevice device);
CUresult cuMemAdvise_v2(CUdeviceptr devPtr, size_t count,
                        CUmem_advise advice, CUmemLocation location);
/* IPC handles (runtime/cuda/drv_ipc.c): 64 opaque bytes. */
typedef struct CUipcMemHandle_st {
    char reserved[64];
} CUipcMemHandle;
typedef struct CUipcEventHandle_st {
    char reserved[64];
} CUipcEventHandle;
CUresult cuIpcGetMemHandle(CUipcMemHandle *pHandle, CUdeviceptr dptr);
CUresult cuIpcOpenMemHandle(CUdeviceptr *pdptr, CUipcMemHandle handle,
                            unsigned int Flags);
CUresult cuIpcOpenMemHandle_v2(CUdeviceptr *pdptr, CUipcMemHandle handle,
                               unsigned int Flags);
CUresult cuIpcCloseMemHandle(CUdeviceptr dptr);
CUresult cuIpcGetEventHandle(CUipcEventHandle *pHandle, CUevent event);
CUresult cuIpcOpenEventHandle(CUevent *phEvent, CUipcEventHandle handle);
/* Memory pools (runtime/cuda/drv_pool.c). */
CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize,
                                 CUmemoryPool pool, CUstream hStream);
CUresult cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *props);
CUresult cuMemPoolDestroy(CUmemoryPool pool);
CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep);
CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr,
                               void *value);
CUresult cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr,
                               void *value);
CUresult cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc *map,
                            size_t count);
CUresult cuMemPoolGetAccess(int *flags, CUmemoryPool pool,
                            CUmemLocation *location);
CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool, CUdevice dev);
CUresult cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev);
CUresult cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool);
CUresult cuMemGetDefaultMemPool(CUmemoryPool *pool, CUmemLocation *location,
                                int type);
CUresult cuMemGetMemPool(CUmemoryPool *pool, CUmemLocation *location,
                         int type);
CUresult cuMemSetMemPool(CUmemLocation *location, int type,
                         CUmemoryPool pool);
CUresult cuMemPoolExportToShareableHandle(void *handle, CUmemoryPool pool,
                                          int handleType,
                                          unsigned long long flags);
CUresult cuMemPoolImportFromShareableHandle(CUmemoryPool *pool, void *handle,
                                            int handleType,
                                            unsigned long long flags);
CUresult cuMemPoolExportPointer(CUmemPoolPtrExportData *out,
                                CUdeviceptr ptr);
CUresult cuMemPoolImportPointer(CUdeviceptr *ptr, CUmemoryPool pool,
                                CUmemPoolPtrExportData *data);
/* Virtual memory management (runtime/cuda/drv_vmm.c). */
CUresult cuMemGetAllocationGranularity(size_t *granularity,
                                       const CUmemAllocationProp *prop,
                                       int option);
CUresult cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size,
                     const CUmemAllocationProp *prop,
                     unsigned long long flags);
CUresult cuMemRelease(CUmemGenericAllocationHandle handle);
CUresult cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t alignment,
                             CUdeviceptr addr, unsigned long long flags);
CUresult cuMemAddressFree(CUdeviceptr ptr, size_t size);
CUresult cuMemMap(CUdeviceptr ptr, size_t size, size_t offset,
                  CUmemGenericAllocationHandle handle,
                  unsigned long long flags);
CUresult cuMemUnmap(CUdeviceptr ptr, size_t size);
CUresult cuMemSetAccess(CUdeviceptr ptr, size_t size,
                        const CUmemAccessDesc *desc, size_t count);
CUresult cuMemGetAccess(unsigned long long *flags,
                        const CUmemLocation *location, CUdeviceptr ptr);
CUresult cuMemRetainAllocationHandle(CUmemGenericAllocationHandle *handle,
                                     void *addr);
CUresult cuMemGetAllocationPropertiesFromHandle(
    CUmemAllocationProp *prop, CUmemGenericAllocationHandle handle);
CUresult cuMemExportToShareableHandle(void *shareableHandle,
                                      CUmemGenericAllocationHandle handle,
                                      int handleType,
                                      unsigned long long flags);
CUresult cuMemImportFromShareableHandle(CUmemGenericAllocationHandle *handle,
                                        void *osHandle, int shHandleType);
CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute,
                               CUdeviceptr ptr);
CUresult cuPointerGetAttributes(unsigned int numAttributes,
                                CUpointer_attribute *attributes,
                                void **data, CUdeviceptr ptr);
CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount);
CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount,
                       CUstream hStream);
CUresult cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext,
                      CUdeviceptr srcDevice, CUcontext srcContext,
                      size_t ByteCount);
CUresult cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext,
                           CUdeviceptr srcDevice, CUcontext srcContext,
                           size_t ByteCount, CUstream hStream);
CUresult cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void *srcHost,
                         size_t ByteCount);
CUresult cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice,
                         size_t ByteCount);
CUresult cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
                         size_t ByteCount);
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void *srcHost,
                              size_t ByteCount, CUstream hStream);
CUresult cuMemcpyDtoHAsync_v2(void *dstHost, CUdeviceptr srcDevice,
                              size_t ByteCount, CUstream hStream);
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
                              size_t ByteCount, CUstream hStream);
CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *pCopy);
CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *pCopy);
CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *pCopy, CUstream hStream);
CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D *pCopy);
CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *pCopy, CUstream hStream);
CUresult cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc, size_t N);
CUresult cuMemsetD16_v2(CUdeviceptr dstDevice, unsigned short us,
                        size_t N);
CUresult cuMemsetD32_v2(CUdeviceptr dstDevice, unsigned int ui, size_t N);
CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N,
                         CUstream hStream);
CUresult cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us,
                          size_t N, CUstream hStream);
CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N,
                          CUstream hStream);
CUresult cuMemsetD2D8_v2(CUdeviceptr dstDevice, size_t dstPitch,
                         unsigned char uc, size_t Width, size_t Height);
CUresult cuMemsetD2D16_v2(CUdeviceptr dstDevice, size_t dstPitch,
                          unsigned short us, size_t Width, size_t Height);
CUresult cuMemsetD2D32_v2(CUdeviceptr dstDevice, size_t dstPitch,
                          unsigned int ui, size_t Width, size_t Height);
CUresult cuMemsetD2D8Async(CUdeviceptr dstDevice, size_t dstPitch,
                           unsigned char uc, size_t Width, size_t Height,
                           CUstream hStream);
CUresult cuMemsetD2D16Async(CUdeviceptr dstDevice, size_t dstPitch,
                            unsigned short us, size_t Width, size_t Height,
                            CUstream hStream);
CUresult cuMemsetD2D32Async(CUdeviceptr dstDevice, size_t dstPitch,
                            unsigned int ui, size_t Width, size_t Height,
                            CUstream hStream);

/* Launch and occupancy. */
CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX,
                        unsigned int gridDimY, unsigned int gridDimZ,
                        unsigned int blockDimX, unsigned int blockDimY,
                        unsigned int blockDimZ, unsigned int sharedMemBytes,
                        CUstream hStream, void **kernelParams,
                        void **extra);
CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f,
                          void **kernelParams, void **extra);
CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX,
                                   unsigned int gridDimY,
                                   unsigned int gridDimZ,
                                   unsigned int blockDimX,
                                   unsigned int blockDimY,
                                   unsigned int blockDimZ,
                                   unsigned int sharedMemBytes,
                                   CUstream hStream, void **kernelParams);
CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData);
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks,
                                                     CUfunction func,
                                                     int blockSize,
                                                     size_t dynamicSMemSize);
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, CUfunction func, int blockSize, size_t dynamicSMemSize,
    unsigned int flags);
CUresult cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize,
                                          CUfunction func,
                                          CUoccupancyB2DSize b2d,
                                          size_t dynamicSMemSize,
                                          int blockSizeLimit);
CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize,
                                                   int *blockSize,
                                                   CUfunction func,
                                                   CUoccupancyB2DSize b2d,
                                                   size_t dynamicSMemSize,
                                                   int blockSizeLimit,
                                                   unsigned int flags);
CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize,
                                                 CUfunction func,
                                                 int numBlocks,
                                                 int blockSize);

/* Streams and events. */
CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags);
CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags,
                                    int priority);
CUresult cuStreamDestroy(CUstream hStream);
CUresult cuStreamDestroy_v2(CUstream hStream);
CUresult cuStreamSynchronize(CUstream hStream);
CUresult cuStreamQuery(CUstream hStream);
CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent,
                           unsigned int Flags);
CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback,
                             void *userData, unsigned int flags);
CUresult cuStreamGetFlags(CUstream hStream, unsigned int *flags);
CUresult cuStreamGetPriority(CUstream hStream, int *priority);
CUresult cuStreamSetAttribute(CUstream hStream, CUlaunchAttributeID attr,
                              const CUlaunchAttributeValue *value);
CUresult cuStreamGetAttribute(CUstream hStream, CUlaunchAttributeID attr,
                              CUlaunchAttributeValue *value_out);
CUresult cuStreamCopyAttributes(CUstream dst, CUstream src);
CUresult cuStreamGetCtx(CUstream hStream, CUcontext *pctx);
CUresult cuStreamGetId(CUstream hStream, unsigned long long *streamId);
CUresult cuStreamGetDevice(CUstream hStream, CUdevice *device);
CUresult cuStreamAttachMemAsync(CUstream hStream, CUdeviceptr dptr,
                                size_t length, unsigned int flags);
CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags);
CUresult cuEventDestroy(CUevent hEvent);
CUresult cuEventDestroy_v2(CUevent hEvent);
CUresult cuEventRecord(CUevent hEvent, CUstream hStream);
CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream,
                                unsigned int flags);
CUresult cuEventQuery(CUevent hEvent);
CUresult cuEventSynchronize(CUevent hEvent);
CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart,
                            CUevent hEnd);
CUresult cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart,
                               CUevent hEnd);

/* ------------------------------------------------ arrays and textures */

typedef enum CUarray_format_enum {
    CU_AD_FORMAT_UNSIGNED_INT8 = 0x01,
    CU_AD_FORMAT_UNSIGNED_INT16 = 0x02,
    CU_AD_FORMAT_UNSIGNED_INT32 = 0x03,
    CU_AD_FORMAT_SIGNED_INT8 = 0x08,
    CU_AD_FORMAT_SIGNED_INT16 = 0x09,
    CU_AD_FORMAT_SIGNED_INT32 = 0x0a,
    CU_AD_FORMAT_HALF = 0x10,
    CU_AD_FORMAT_FLOAT = 0x20
} CUarray_format;

enum {
    CUDA_ARRAY3D_LAYERED = 0x01,
    CUDA_ARRAY3D_SURFACE_LDST = 0x02,
    CUDA_ARRAY3D_CUBEMAP = 0x04,
    CUDA_ARRAY3D_TEXTURE_GATHER = 0x08
};

typedef struct CUDA_ARRAY_DESCRIPTOR_st {
    size_t Width;
    size_t Height;
    CUarray_format Format;
    unsigned int NumChannels;
} CUDA_ARRAY_DESCRIPTOR;

typedef struct CUDA_ARRAY3D_DESCRIPTOR_st {
    size_t Width;
    size_t Height;
    size_t Depth;
    CUarray_format Format;
    unsigned int NumChannels;
    unsigned int Flags;
} CUDA_ARRAY3D_DESCRIPTOR;

typedef enum CUresourcetype_enum {
    CU_RESOURCE_TYPE_ARRAY = 0x00,
    CU_RESOURCE_TYPE_MIPMAPPED_ARRAY = 0x01,
    CU_RESOURCE_TYPE_LINEAR = 0x02,
    CU_RESOURCE_TYPE_PITCH2D = 0x03
} CUresourcetype;

typedef struct CUDA_RESOURCE_DESC_st {
    CUresourcetype resType;
    union {
        struct {
            CUarray hArray;
        } array;
        struct {
            CUmipmappedArray hMipmappedArray;
        } mipmap;
        struct {
            CUdeviceptr devPtr;
            CUarray_format format;
            unsigned int numChannels;
            size_t sizeInBytes;
        } linear;
        struct {
            CUdeviceptr devPtr;
            CUarray_format format;
            unsigned int numChannels;
            size_t width;
            size_t height;
            size_t pitchInBytes;
        } pitch2D;
        struct {
            int reserved[32];
        } reserved;
    } res;
    unsigned int flags;
} CUDA_RESOURCE_DESC;

typedef enum CUaddress_mode_enum {
    CU_TR_ADDRESS_MODE_WRAP = 0,
    CU_TR_ADDRESS_MODE_CLAMP = 1,
    CU_TR_ADDRESS_MODE_MIRROR = 2,
    CU_TR_ADDRESS_MODE_BORDER = 3
} CUaddress_mode;

typedef enum CUfilter_mode_enum {
    CU_TR_FILTER_MODE_POINT = 0,
    CU_TR_FILTER_MODE_LINEAR = 1
} CUfilter_mode;

enum {
    CU_TRSF_READ_AS_INTEGER = 0x01,
    CU_TRSF_NORMALIZED_COORDINATES = 0x02,
    CU_TRSF_SRGB = 0x10,
    CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION = 0x20,
    CU_TRSF_SEAMLESS_CUBEMAP = 0x40
};

typedef struct CUDA_TEXTURE_DESC_st {
    CUaddress_mode addressMode[3];
    CUfilter_mode filterMode;
    unsigned int flags;
    unsigned int maxAnisotropy;
    CUfilter_mode mipmapFilterMode;
    float mipmapLevelBias;
    float minMipmapLevelClamp;
    float maxMipmapLevelClamp;
    float borderColor[4];
    int reserved[12];
} CUDA_TEXTURE_DESC;

/* Only a NULL view is supported; the layout is not needed. */
typedef struct CUDA_RESOURCE_VIEW_DESC_st CUDA_RESOURCE_VIEW_DESC;

CUresult cuArrayCreate_v2(CUarray *pHandle,
                          const CUDA_ARRAY_DESCRIPTOR *pAllocateArray);
CUresult cuArray3DCreate_v2(CUarray *pHandle,
                            const CUDA_ARRAY3D_DESCRIPTOR *pAllocateArray);
CUresult cuArrayDestroy(CUarray hArray);
CUresult cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR *pArrayDescriptor,
                                 CUarray hArray);
CUresult cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *pArrayDescriptor,
                                   CUarray hArray);
CUresult cuMipmappedArrayCreate(CUmipmappedArray *pHandle,
                                const CUDA_ARRAY3D_DESCRIPTOR *pDesc,
                                unsigned int numMipmapLevels);
CUresult cuMipmappedArrayGetLevel(CUarray *pLevelArray,
                                  CUmipmappedArray hMipmappedArray,
                                  unsigned int level);
CUresult cuMipmappedArrayDestroy(CUmipmappedArray hMipmappedArray);
CUresult cuMemcpyHtoA_v2(CUarray dstArray, size_t dstOffset,
                         const void *srcHost, size_t ByteCount);
CUresult cuMemcpyAtoH_v2(void *dstHost, CUarray srcArray, size_t srcOffset,
                         size_t ByteCount);
CUresult cuTexObjectCreate(CUtexObject *pTexObject,
                           const CUDA_RESOURCE_DESC *pResDesc,
                           const CUDA_TEXTURE_DESC *pTexDesc,
                           const CUDA_RESOURCE_VIEW_DESC *pResViewDesc);
CUresult cuTexObjectDestroy(CUtexObject texObject);
CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc,
                                    CUtexObject texObject);
CUresult cuSurfObjectCreate(CUsurfObject *pSurfObject,
                            const CUDA_RESOURCE_DESC *pResDesc);
CUresult cuSurfObjectDestroy(CUsurfObject surfObject);

/* Tensor maps (TMA).  Values as the CUDA driver ABI; the 128 bytes are
 * opaque (our layout: emu/tensormap.h). */
typedef struct CUtensorMap_st {
    cuuint64_t opaque[16] __attribute__((aligned(64)));
} CUtensorMap;
typedef enum CUtensorMapDataType_enum {
    CU_TENSOR_MAP_DATA_TYPE_UINT8 = 0, CU_TENSOR_MAP_DATA_TYPE_UINT16,
    CU_TENSOR_MAP_DATA_TYPE_UINT32, CU_TENSOR_MAP_DATA_TYPE_INT32,
    CU_TENSOR_MAP_DATA_TYPE_UINT64, CU_TENSOR_MAP_DATA_TYPE_INT64,
    CU_TENSOR_MAP_DATA_TYPE_FLOAT16, CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
    CU_TENSOR_MAP_DATA_TYPE_FLOAT64, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
    CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ, CU_TENSOR_MAP_DATA_TYPE_TFLOAT32,
    CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ,
    CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B,
    CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B,
    CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B
} CUtensorMapDataType;
typedef enum CUtensorMapInterleave_enum {
    CU_TENSOR_MAP_INTERLEAVE_NONE = 0, CU_TENSOR_MAP_INTERLEAVE_16B,
    CU_TENSOR_MAP_INTERLEAVE_32B
} CUtensorMapInterleave;
typedef enum CUtensorMapSwizzle_enum {
    CU_TENSOR_MAP_SWIZZLE_NONE = 0, CU_TENSOR_MAP_SWIZZLE_32B,
    CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_SWIZZLE_128B,
    CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B,
    CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B,
    CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B
} CUtensorMapSwizzle;
typedef enum CUtensorMapL2promotion_enum {
    CU_TENSOR_MAP_L2_PROMOTION_NONE = 0, CU_TENSOR_MAP_L2_PROMOTION_L2_64B,
    CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B
} CUtensorMapL2promotion;
typedef enum CUtensorMapFloatOOBfill_enum {
    CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0,
    CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
} CUtensorMapFloatOOBfill;

CUresult cuTensorMapEncodeTiled(CUtensorMap *tensorMap,
                                CUtensorMapDataType tensorDataType,
                                cuuint32_t tensorRank, void *globalAddress,
                                const cuuint64_t *globalDim,
                                const cuuint64_t *globalStrides,
                                const cuuint32_t *boxDim,
                                const cuuint32_t *elementStrides,
                                CUtensorMapInterleave interleave,
                                CUtensorMapSwizzle swizzle,
                                CUtensorMapL2promotion l2Promotion,
                                CUtensorMapFloatOOBfill oobFill);
CUresult cuTensorMapReplaceAddress(CUtensorMap *tensorMap,
                                   void *globalAddress);

/* Graphs and stream capture (runtime/cuda/drv_graph.c, drv_capture.c). */
CUresult cuStreamBeginCapture(CUstream hStream);
CUresult cuStreamBeginCapture_ptsz(CUstream hStream);
CUresult cuStreamBeginCapture_v2(CUstream hStream, CUstreamCaptureMode mode);
CUresult cuStreamBeginCapture_v2_ptsz(CUstream hStream,
                                      CUstreamCaptureMode mode);
CUresult cuStreamBeginCaptureToGraph(CUstream hStream, CUgraph hGraph,
                                     const CUgraphNode *dependencies,
                                     const CUgraphEdgeData *dependencyData,
                                     size_t numDependencies,
                                     CUstreamCaptureMode mode);
CUresult cuStreamBeginCaptureToGraph_ptsz(CUstream hStream, CUgraph hGraph,
                                          const CUgraphNode *dependencies,
                                          const CUgraphEdgeData
                                              *dependencyData,
                                          size_t numDependencies,
                                          CUstreamCaptureMode mode);
CUresult cuStreamEndCapture(CUstream hStream, CUgraph *phGraph);
CUresult cuStreamEndCapture_ptsz(CUstream hStream, CUgraph *phGraph);
CUresult cuStreamIsCapturing(CUstream hStream,
                             CUstreamCaptureStatus *captureStatus);
CUresult cuStreamIsCapturing_ptsz(CUstream hStream,
                                  CUstreamCaptureStatus *captureStatus);
CUresult cuStreamGetCaptureInfo(CUstream hStream,
                                CUstreamCaptureStatus *captureStatus,
                                cuuint64_t *id);
CUresult cuStreamGetCaptureInfo_ptsz(CUstream hStream,
                                     CUstreamCaptureStatus *captureStatus,
                                     cuuint64_t *id);
CUresult cuStreamGetCaptureInfo_v2(CUstream hStream,
                                   CUstreamCaptureStatus *captureStatus,
                                   cuuint64_t *id, CUgraph *graph,
                                   const CUgraphNode **deps,
                                   size_t *numDeps);
CUresult cuStreamGetCaptureInfo_v2_ptsz(CUstream hStream,
                                        CUstreamCaptureStatus *captureStatus,
                                        cuuint64_t *id, CUgraph *graph,
                                        const CUgraphNode **deps,
                                        size_t *numDeps);
CUresult cuStreamGetCaptureInfo_v3(CUstream hStream,
                                   CUstreamCaptureStatus *captureStatus,
                                   cuuint64_t *id, CUgraph *graph,
                                   const CUgraphNode **deps,
                                   const CUgraphEdgeData **edges,
                                   size_t *numDeps);
CUresult cuStreamGetCaptureInfo_v3_ptsz(CUstream hStream,
                                        CUstreamCaptureStatus *captureStatus,
                                        cuuint64_t *id, CUgraph *graph,
                                        const CUgraphNode **deps,
                                        const CUgraphEdgeData **edges,
                                        size_t *numDeps);
CUresult cuStreamUpdateCaptureDependencies(CUstream hStream,
                                           CUgraphNode *dependencies,
                                           size_t numDependencies,
                                           unsigned int flags);
CUresult cuStreamUpdateCaptureDependencies_ptsz(CUstream hStream,
                                                CUgraphNode *dependencies,
                                                size_t numDependencies,
                                                unsigned int flags);
CUresult cuStreamUpdateCaptureDependencies_v2(CUstream hStream,
                                              CUgraphNode *dependencies,
                                              const CUgraphEdgeData
                                                  *dependencyData,
                                              size_t numDependencies,
                                              unsigned int flags);
CUresult cuStreamUpdateCaptureDependencies_v2_ptsz(CUstream hStream,
                                                   CUgraphNode *dependencies,
                                                   const CUgraphEdgeData
                                                       *dependencyData,
                                                   size_t numDependencies,
                                                   unsigned int flags);
CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode);
CUresult cuGraphCreate(CUgraph *phGraph, unsigned int flags);
CUresult cuGraphDestroy(CUgraph hGraph);
CUresult cuGraphClone(CUgraph *phGraphClone, CUgraph originalGraph);
CUresult cuGraphNodeFindInClone(CUgraphNode *phNode,
                                CUgraphNode hOriginalNode,
                                CUgraph hClonedGraph);
CUresult cuGraphAddKernelNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                              const CUgraphNode *dependencies,
                              size_t numDependencies,
                              const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams);
CUresult cuGraphAddKernelNode_v2(CUgraphNode *phGraphNode, CUgraph hGraph,
                                 const CUgraphNode *dependencies,
                                 size_t numDependencies,
                                 const CUDA_KERNEL_NODE_PARAMS *nodeParams);
CUresult cuGraphAddMemcpyNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                              const CUgraphNode *dependencies,
                              size_t numDependencies,
                              const CUDA_MEMCPY3D *copyParams,
                              CUcontext ctx);
CUresult cuGraphAddMemsetNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                              const CUgraphNode *dependencies,
                              size_t numDependencies,
                              const CUDA_MEMSET_NODE_PARAMS *memsetParams,
                              CUcontext ctx);
CUresult cuGraphAddHostNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                            const CUgraphNode *dependencies,
                            size_t numDependencies,
                            const CUDA_HOST_NODE_PARAMS *nodeParams);
CUresult cuGraphAddEmptyNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                             const CUgraphNode *dependencies,
                             size_t numDependencies);
CUresult cuGraphAddChildGraphNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                  const CUgraphNode *dependencies,
                                  size_t numDependencies, CUgraph childGraph);
CUresult cuGraphAddEventRecordNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                   const CUgraphNode *dependencies,
                                   size_t numDependencies, CUevent event);
CUresult cuGraphAddEventWaitNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                 const CUgraphNode *dependencies,
                                 size_t numDependencies, CUevent event);
CUresult cuGraphKernelNodeGetParams(CUgraphNode hNode,
                                    CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams);
CUresult cuGraphKernelNodeGetParams_v2(CUgraphNode hNode,
                                       CUDA_KERNEL_NODE_PARAMS *nodeParams);
CUresult cuGraphKernelNodeSetParams(CUgraphNode hNode,
                                    const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams);
CUresult cuGraphKernelNodeSetParams_v2(CUgraphNode hNode,
                                       const CUDA_KERNEL_NODE_PARAMS *p);
CUresult cuGraphMemcpyNodeGetParams(CUgraphNode hNode,
                                    CUDA_MEMCPY3D *nodeParams);
CUresult cuGraphMemcpyNodeSetParams(CUgraphNode hNode,
                                    const CUDA_MEMCPY3D *nodeParams);
CUresult cuGraphMemsetNodeGetParams(CUgraphNode hNode,
                                    CUDA_MEMSET_NODE_PARAMS *nodeParams);
CUresult cuGraphMemsetNodeSetParams(CUgraphNode hNode,
                                    const CUDA_MEMSET_NODE_PARAMS *nodeParams);
CUresult cuGraphHostNodeGetParams(CUgraphNode hNode,
                                  CUDA_HOST_NODE_PARAMS *nodeParams);
CUresult cuGraphHostNodeSetParams(CUgraphNode hNode,
                                  const CUDA_HOST_NODE_PARAMS *nodeParams);
CUresult cuGraphEventRecordNodeGetEvent(CUgraphNode hNode, CUevent *event_out);
CUresult cuGraphEventRecordNodeSetEvent(CUgraphNode hNode, CUevent event);
CUresult cuGraphEventWaitNodeGetEvent(CUgraphNode hNode, CUevent *event_out);
CUresult cuGraphEventWaitNodeSetEvent(CUgraphNode hNode, CUevent event);
CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode hNode, CUgraph *phGraph);
CUresult cuGraphNodeGetType(CUgraphNode hNode, CUgraphNodeType *type);
CUresult cuGraphGetNodes(CUgraph hGraph, CUgraphNode *nodes,
                         size_t *numNodes);
CUresult cuGraphGetRootNodes(CUgraph hGraph, CUgraphNode *rootNodes,
                             size_t *numRootNodes);
CUresult cuGraphGetEdges(CUgraph hGraph, CUgraphNode *from, CUgraphNode *to,
                         size_t *numEdges);
CUresult cuGraphGetEdges_v2(CUgraph hGraph, CUgraphNode *from,
                            CUgraphNode *to, CUgraphEdgeData *edgeData,
                            size_t *numEdges);
CUresult cuGraphNodeGetDependencies(CUgraphNode hNode,
                                    CUgraphNode *dependencies,
                                    size_t *numDependencies);
CUresult cuGraphNodeGetDependencies_v2(CUgraphNode hNode,
                                       CUgraphNode *dependencies,
                                       CUgraphEdgeData *edgeData,
                                       size_t *numDependencies);
CUresult cuGraphNodeGetDependentNodes(CUgraphNode hNode,
                                      CUgraphNode *dependentNodes,
                                      size_t *numDependentNodes);
CUresult cuGraphNodeGetDependentNodes_v2(CUgraphNode hNode,
                                         CUgraphNode *dependentNodes,
                                         CUgraphEdgeData *edgeData,
                                         size_t *numDependentNodes);
CUresult cuGraphAddDependencies(CUgraph hGraph, const CUgraphNode *from,
                                const CUgraphNode *to, size_t numDependencies);
CUresult cuGraphAddDependencies_v2(CUgraph hGraph, const CUgraphNode *from,
                                   const CUgraphNode *to,
                                   const CUgraphEdgeData *edgeData,
                                   size_t numDependencies);
CUresult cuGraphRemoveDependencies(CUgraph hGraph, const CUgraphNode *from,
                                   const CUgraphNode *to,
                                   size_t numDependencies);
CUresult cuGraphRemoveDependencies_v2(CUgraph hGraph,
                                      const CUgraphNode *from,
                                      const CUgraphNode *to,
                                      const CUgraphEdgeData *edgeData,
                                      size_t numDependencies);
CUresult cuGraphDestroyNode(CUgraphNode hNode);
CUresult cuGraphInstantiate(CUgraphExec *phGraphExec, CUgraph hGraph,
                            CUgraphNode *phErrorNode, char *logBuffer,
                            size_t bufferSize);
CUresult cuGraphInstantiate_v2(CUgraphExec *phGraphExec, CUgraph hGraph,
                               CUgraphNode *phErrorNode, char *logBuffer,
                               size_t bufferSize);
CUresult cuGraphInstantiateWithFlags(CUgraphExec *phGraphExec,
                                     CUgraph hGraph, unsigned long long flags);
CUresult cuGraphInstantiateWithParams(CUgraphExec *phGraphExec,
                                      CUgraph hGraph,
                                      CUDA_GRAPH_INSTANTIATE_PARAMS
                                          *instantiateParams);
CUresult cuGraphInstantiateWithParams_ptsz(CUgraphExec *phGraphExec,
                                           CUgraph hGraph,
                                           CUDA_GRAPH_INSTANTIATE_PARAMS
                                               *instantiateParams);
CUresult cuGraphExecDestroy(CUgraphExec hGraphExec);
CUresult cuGraphExecGetFlags(CUgraphExec hGraphExec, cuuint64_t *flags);
CUresult cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream);
CUresult cuGraphLaunch_ptsz(CUgraphExec hGraphExec, CUstream hStream);
CUresult cuGraphUpload(CUgraphExec hGraphExec, CUstream hStream);
CUresult cuGraphUpload_ptsz(CUgraphExec hGraphExec, CUstream hStream);
CUresult cuGraphExecKernelNodeSetParams(CUgraphExec hGraphExec,
                                        CUgraphNode hNode,
                                        const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams);
CUresult cuGraphExecKernelNodeSetParams_v2(CUgraphExec hGraphExec,
                                           CUgraphNode hNode,
                                           const CUDA_KERNEL_NODE_PARAMS *p);
CUresult cuGraphExecMemcpyNodeSetParams(CUgraphExec hGraphExec,
                                        CUgraphNode hNode,
                                        const CUDA_MEMCPY3D *copyParams,
                                        CUcontext ctx);
CUresult cuGraphExecMemsetNodeSetParams(CUgraphExec hGraphExec,
                                        CUgraphNode hNode,
                                        const CUDA_MEMSET_NODE_PARAMS
                                            *memsetParams,
                                        CUcontext ctx);
CUresult cuGraphExecHostNodeSetParams(CUgraphExec hGraphExec,
                                      CUgraphNode hNode,
                                      const CUDA_HOST_NODE_PARAMS *nodeParams);
CUresult cuGraphExecEventRecordNodeSetEvent(CUgraphExec hGraphExec,
                                            CUgraphNode hNode, CUevent event);
CUresult cuGraphExecEventWaitNodeSetEvent(CUgraphExec hGraphExec,
                                          CUgraphNode hNode, CUevent event);
CUresult cuGraphExecChildGraphNodeSetParams(CUgraphExec hGraphExec,
                                            CUgraphNode hNode,
                                            CUgraph childGraph);
/* Conditional nodes and generic node creation (drv_graph_cond.c). */
CUresult cuGraphConditionalHandleCreate(CUgraphConditionalHandle *pHandle_out,
                                        CUgraph hGraph, CUcontext ctx,
                                        unsigned int defaultLaunchValue,
                                        unsigned int flags);
CUresult cuGraphAddNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                        const CUgraphNode *dependencies,
                        size_t numDependencies, CUgraphNodeParams *nodeParams);
CUresult cuGraphAddNode_v2(CUgraphNode *phGraphNode, CUgraph hGraph,
                           const CUgraphNode *dependencies,
                           const CUgraphEdgeData *dependencyData,
                           size_t numDependencies,
                           CUgraphNodeParams *nodeParams);
CUresult cuGraphNodeSetParams(CUgraphNode hNode,
                              CUgraphNodeParams *nodeParams);
CUresult cuGraphExecNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                  CUgraphNodeParams *nodeParams);
/* Kernel node attributes (runtime/cuda/drv_sattr.c). */
CUresult cuGraphKernelNodeSetAttribute(CUgraphNode hNode,
                                       CUlaunchAttributeID attr,
                                       const CUlaunchAttributeValue *value);
CUresult cuGraphKernelNodeGetAttribute(CUgraphNode hNode,
                                       CUlaunchAttributeID attr,
                                       CUlaunchAttributeValue *value_out);
CUresult cuGraphKernelNodeCopyAttributes(CUgraphNode dst, CUgraphNode src);
/* Graph memory nodes (runtime/cuda/drv_graph_mem.c). */
CUresult cuGraphAddMemAllocNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                const CUgraphNode *dependencies,
                                size_t numDependencies,
                                CUDA_MEM_ALLOC_NODE_PARAMS *nodeParams);
CUresult cuGraphMemAllocNodeGetParams(CUgraphNode hNode,
                                      CUDA_MEM_ALLOC_NODE_PARAMS *params_out);
CUresult cuGraphAddMemFreeNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                               const CUgraphNode *dependencies,
                               size_t numDependencies, CUdeviceptr dptr);
CUresult cuGraphMemFreeNodeGetParams(CUgraphNode hNode, CUdeviceptr *dptr_out);
CUresult cuDeviceGraphMemTrim(CUdevice device);
CUresult cuDeviceGetGraphMemAttribute(CUdevice device,
                                      CUgraphMem_attribute attr, void *value);
CUresult cuDeviceSetGraphMemAttribute(CUdevice device,
                                      CUgraphMem_attribute attr, void *value);
CUresult cuGraphExecUpdate(CUgraphExec hGraphExec, CUgraph hGraph,
                           CUgraphNode *hErrorNode_out,
                           CUgraphExecUpdateResult *updateResult_out);
CUresult cuGraphExecUpdate_v2(CUgraphExec hGraphExec, CUgraph hGraph,
                              CUgraphExecUpdateResultInfo *resultInfo);

#ifdef __cplusplus
}
#endif
#endif
