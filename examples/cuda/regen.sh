#!/bin/sh
# examples/cuda/regen.sh: regenerate driver_api.ptx, the module that
# driver_api.c loads, from driver_api_kernels.cu with nvcc.  The PTX is
# committed so that the driver-API example needs no nvcc to run: any C
# compiler with CUDA's cuda.h builds driver_api.c (link -lcuda).
set -e
cd "$(dirname "$0")"
NVCC=${NVCC:-nvcc}
"$NVCC" -ptx -arch=sm_80 -o driver_api.ptx driver_api_kernels.cu
