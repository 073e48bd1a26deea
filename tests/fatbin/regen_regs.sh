#!/bin/sh
# tests/fatbin/regen_regs.sh: rebuilds the register-count fixtures from
# src/regs.cu with NVIDIA's nvcc: regs.cubin (SASS for sm_80),
# regs.fatbin (that SASS beside the compute_80 PTX), regs.ptx (the PTX
# alone), and ref/regs.txt, "KERNEL N" per kernel, where N is what ptxas
# printed ("Used N registers", nvcc -Xptxas -v) for that very compile:
# the reference tests/check_fatbin.c holds our cubin reader to, and
# which `cuobjdump --dump-resource-usage` reports as REG.  Needs nvcc
# (skips without).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/find_nvcc.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$here"
"$NVCC" -cubin -arch=sm_80 -Xptxas -v src/regs.cu -o regs.cubin \
    >"$tmp/log" 2>&1
"$NVCC" -fatbin -gencode arch=compute_80,code=sm_80 \
    -gencode arch=compute_80,code=compute_80 src/regs.cu -o regs.fatbin
"$NVCC" -ptx -arch=sm_80 src/regs.cu -o regs.ptx
# ptxas prints "Compiling entry function 'K' for 'sm_80'", then
# "Function properties for K", then "Used N registers, ..."
awk '/Compiling entry function/ { split($0, q, "'"'"'"); k = q[2] }
     /Used [0-9]+ registers/ { for (i = 1; i <= NF; i++)
                                   if ($i == "Used") n = $(i + 1)
                               if (k != "") print k, n; k = "" }' \
    "$tmp/log" | sort >ref/regs.txt
cat ref/regs.txt
