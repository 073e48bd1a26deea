/*
 * runtime/cuda/drv_error.c: cuGetErrorName / cuGetErrorString.
 *
 * The names are the enumerators of CUresult (ABI facts); the
 * descriptions are our own wording.
 */
#include "config.h"

#include <stddef.h>

#include "runtime/cuda/drv.h"

static const struct {
    CUresult code;
    const char *name;
} names[] = {
#define CU_RESULT_NAME_(n, v) {n, #n},
    CU_RESULT_LIST(CU_RESULT_NAME_)
#undef CU_RESULT_NAME_
};

/* Our descriptions, for the codes a program meets in practice; the
 * others get a description derived from their name. */
static const struct {
    CUresult code;
    const char *text;
} texts[] = {
    {CUDA_SUCCESS, "no error"},
    {CUDA_ERROR_INVALID_VALUE, "invalid argument"},
    {CUDA_ERROR_OUT_OF_MEMORY, "out of memory"},
    {CUDA_ERROR_NOT_INITIALIZED, "driver not initialized (call cuInit)"},
    {CUDA_ERROR_DEINITIALIZED, "driver shutting down"},
    {CUDA_ERROR_STUB_LIBRARY, "stub library in use"},
    {CUDA_ERROR_NO_DEVICE, "no CUDA-capable device"},
    {CUDA_ERROR_INVALID_DEVICE, "invalid device ordinal"},
    {CUDA_ERROR_INVALID_IMAGE, "invalid device kernel image"},
    {CUDA_ERROR_INVALID_CONTEXT, "invalid or missing context"},
    {CUDA_ERROR_CONTEXT_ALREADY_CURRENT, "context already current"},
    {CUDA_ERROR_NO_BINARY_FOR_GPU,
     "no PTX for this GPU in the image (the emulator runs PTX only)"},
    {CUDA_ERROR_UNSUPPORTED_LIMIT, "limit not supported"},
    {CUDA_ERROR_INVALID_PTX, "PTX could not be compiled"},
    {CUDA_ERROR_UNSUPPORTED_PTX_VERSION, "PTX version not supported"},
    {CUDA_ERROR_INVALID_SOURCE, "invalid source"},
    {CUDA_ERROR_FILE_NOT_FOUND, "file not found"},
    {CUDA_ERROR_OPERATING_SYSTEM, "operating system call failed"},
    {CUDA_ERROR_INVALID_HANDLE, "invalid resource handle"},
    {CUDA_ERROR_ILLEGAL_STATE, "operation not valid in this state"},
    {CUDA_ERROR_NOT_FOUND, "named symbol not found"},
    {CUDA_ERROR_NOT_READY, "device not ready"},
    {CUDA_ERROR_ILLEGAL_ADDRESS, "illegal memory access by a kernel"},
    {CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "too many resources requested "
     "for the launch"},
    {CUDA_ERROR_LAUNCH_TIMEOUT, "kernel timed out"},
    {CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE, "primary context already active"},
    {CUDA_ERROR_CONTEXT_IS_DESTROYED, "context destroyed"},
    {CUDA_ERROR_ASSERT, "device-side assertion failed"},
    {CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
     "host memory already registered"},
    {CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, "host memory not registered"},
    {CUDA_ERROR_HARDWARE_STACK_ERROR, "kernel call stack overflow"},
    {CUDA_ERROR_ILLEGAL_INSTRUCTION, "illegal instruction in a kernel"},
    {CUDA_ERROR_MISALIGNED_ADDRESS, "misaligned memory access by a kernel"},
    {CUDA_ERROR_INVALID_ADDRESS_SPACE, "memory access in a wrong state "
     "space by a kernel"},
    {CUDA_ERROR_INVALID_PC, "invalid program counter"},
    {CUDA_ERROR_LAUNCH_FAILED, "kernel launch failed"},
    {CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, "cooperative grid larger "
     "than the device can hold at once"},
    {CUDA_ERROR_NOT_PERMITTED, "operation not permitted"},
    {CUDA_ERROR_NOT_SUPPORTED, "operation not supported (by the "
     "emulator)"},
    {CUDA_ERROR_INVALID_CLUSTER_SIZE, "invalid cluster size"},
    {CUDA_ERROR_UNKNOWN, "unknown error"},
};

const char *drv_result_name(CUresult r)
{
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (names[i].code == r) {
            return names[i].name;
        }
    }
    return NULL;
}

/* "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED" -> "peer access unsupported":
 * kept in a table filled once (the strings must outlive the call). */
static char derived[sizeof(names) / sizeof(names[0])][64];
static pthread_once_t derived_once = PTHREAD_ONCE_INIT;

static void derive_texts(void)
{
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        const char *s = names[i].name + 11;     /* after "CUDA_ERROR_" */
        size_t k = 0;
        for (; *s && k + 1 < sizeof(derived[i]); s++, k++) {
            char c = *s;
            derived[i][k] = c == '_' ? ' '
                            : c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a')
                            : c;
        }
        derived[i][k] = 0;
    }
}

CUresult cuGetErrorName(CUresult error, const char **pStr)
{
    CUresult r = CUDA_ERROR_INVALID_VALUE;
    if (pStr) {
        *pStr = drv_result_name(error);
        r = *pStr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    }
    return drv_trace(r, "cuGetErrorName", "%d, %p", (int)error,
                     (void *)pStr);
}

CUresult cuGetErrorString(CUresult error, const char **pStr)
{
    CUresult r = CUDA_ERROR_INVALID_VALUE;
    if (pStr) {
        *pStr = NULL;
        for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
            if (texts[i].code == error) {
                *pStr = texts[i].text;
            }
        }
        for (size_t i = 0; !*pStr && i < sizeof(names) / sizeof(names[0]);
             i++) {
            if (names[i].code == error) {
                pthread_once(&derived_once, derive_texts);
                *pStr = derived[i];
            }
        }
        r = *pStr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    }
    return drv_trace(r, "cuGetErrorString", "%d, %p", (int)error,
                     (void *)pStr);
}
