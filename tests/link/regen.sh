#!/bin/sh
# tests/link/regen.sh: regenerate the PTX of the relocatable-device-code
# test (two translation units linked by name) with nvcc.
set -eu
cd "$(dirname "$0")"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
if ! command -v "$NVCC" >/dev/null 2>&1; then
    echo "regen.sh: nvcc not found ($NVCC): keeping the committed PTX"
    exit 0
fi
for tu in rdc_a rdc_b; do
    "$NVCC" -rdc=true -arch=compute_80 -ptx "$tu.cu" -o "$tu.sm80.ptx"
done
