#!/bin/sh
# Regenerate the benchmark PTX from its CUDA sources (needs nvcc 13).
# Without nvcc the committed PTX is kept.
set -eu
cd "$(dirname "$0")"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$NVCC" ]; then
    echo "nvcc not found: keeping the committed PTX" >&2
    exit 0
fi
for cu in *.cu; do
    "$NVCC" -arch=compute_80 -ptx "$cu" -o "${cu%.cu}.ptx"
done
