/*
 * runtime/cuda/drv_tensormap.c: tensor maps for the tensor memory
 * accelerator (CUDA Driver API, "Tensor Map Object Management"), over
 * the emulator's encoder (ptxemu_tensor_map_encode_tiled): the same
 * checks, the same 128-byte maps, so that kernels launched through
 * either API read them alike.  im2col maps stay unsupported
 * (cuTensorMapEncodeIm2col is a not-supported stub).
 */
#include "config.h"

#include <string.h>

#include "runtime/cuda/drv.h"

_Static_assert(sizeof(CUtensorMap) == sizeof(ptxemu_tensor_map),
               "a CUtensorMap is 128 bytes");
_Static_assert(_Alignof(CUtensorMap) == 64, "a CUtensorMap is 64-aligned");

static CUresult encode(CUtensorMap *map, CUtensorMapDataType dtype,
                       cuuint32_t rank, void *addr, const cuuint64_t *dim,
                       const cuuint64_t *strides, const cuuint32_t *box,
                       const cuuint32_t *estr, CUtensorMapInterleave il,
                       CUtensorMapSwizzle swz, CUtensorMapL2promotion l2,
                       CUtensorMapFloatOOBfill oob, const char **why)
{
    CUresult r = drv_ready(NULL);
    if (r) {
        return r;
    }
    if (!map || !dim || !box || !estr || (rank > 1 && !strides)) {
        *why = "NULL argument";
        return CUDA_ERROR_INVALID_VALUE;
    }
    ptxemu_tensor_map_desc d;
    memset(&d, 0, sizeof(d));
    d.dtype = (ptxemu_tensor_dtype)dtype;
    d.rank = rank;
    d.addr = (ptxemu_devptr)(uintptr_t)addr;
    for (cuuint32_t i = 0; i < rank && i < 5; i++) {
        d.dims[i] = dim[i];
        d.box[i] = box[i];
        d.elem_strides[i] = estr[i];
        if (i >= 1) {
            d.strides[i - 1] = strides[i - 1];
        }
    }
    d.interleave = (unsigned)il;
    d.swizzle = (ptxemu_tensor_swizzle)swz;
    d.l2_promotion = (unsigned)l2;
    d.oob_nan = (unsigned)oob;
    /* the layout is ours: the caller's pointer is only checked and
     * written as bytes (the encoder tests its alignment) */
    return drv_status(ptxemu_tensor_map_encode_tiled(
        &d, (ptxemu_tensor_map *)(void *)map, why));
}

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
                                CUtensorMapFloatOOBfill oobFill)
{
    const char *why = "";
    CUresult r = encode(tensorMap, tensorDataType, tensorRank,
                        globalAddress, globalDim, globalStrides, boxDim,
                        elementStrides, interleave, swizzle, l2Promotion,
                        oobFill, &why);
    return drv_trace(r, "cuTensorMapEncodeTiled",
                     "%p, %d, %u, %p, ... [%s]", (void *)tensorMap,
                     (int)tensorDataType, tensorRank, globalAddress,
                     why ? why : "");
}

CUresult cuTensorMapReplaceAddress(CUtensorMap *tensorMap,
                                   void *globalAddress)
{
    const char *why = "";
    CUresult r = drv_ready(NULL);
    if (!r) {
        r = drv_status(ptxemu_tensor_map_replace_address(
            (ptxemu_tensor_map *)(void *)tensorMap,
            (ptxemu_devptr)(uintptr_t)globalAddress, &why));
    }
    return drv_trace(r, "cuTensorMapReplaceAddress", "%p, %p [%s]",
                     (void *)tensorMap, globalAddress, why ? why : "");
}
