#!/usr/bin/env bash
# Regenerate the committed PTX of the seeded-bug suite (tests/seeded.test)
# from the CUDA sources beside this script: seeded/NAME.cu ->
# seeded/NAME.ptx, nvcc -arch=compute_80 -ptx -lineinfo (the .loc lines
# give the reports their CUDA source lines).  The sources are compiled
# from a scratch directory and its path is cut from the .file lines, so
# that the PTX names them "seeded/NAME.cu" wherever the checkout is.
#
# Usage: tests/sanitize/seeded/regen.sh      (NVCC: nvcc to use)
# After regenerating, check the expected lines in cases.txt still hold
# (they name source lines through the "// @NAME" markers, not numbers).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
nvcc_bin=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if ! [ -x "$nvcc_bin" ]; then
    echo "regen.sh: nvcc not found: keeping the committed PTX"
    exit 0
fi
# a fixed scratch path: nvcc hashes it into the names of internal
# symbols (_INTERNAL_<hash>_...), which must not change between runs
work=/tmp/ptxemu-seeded-regen
rm -rf "$work"
mkdir "$work"
trap 'rm -rf "$work"' EXIT
mkdir "$work/seeded"
cp "$here"/*.cu "$work/seeded/"
ptxas_bin=$(dirname "$nvcc_bin")/ptxas
status=0
for src in "$here"/*.cu; do
    name=$(basename "$src" .cu)
    out="$here/$name.ptx"
    if (cd "$work" && "$nvcc_bin" -arch=compute_80 -ptx -lineinfo \
            -o "$out.tmp" "seeded/$name.cu"); then
        sed -i -e "s|\"$work/|\"|g" "$out.tmp"
        mv "$out.tmp" "$out"
        echo "  $out"
        if [ -x "$ptxas_bin" ] &&
           ! "$ptxas_bin" -arch=sm_80 -o /dev/null "$out"; then
            echo "regen.sh: ptxas rejected $out" >&2
            status=1
        fi
    else
        rm -f "$out.tmp"
        echo "regen.sh: FAILED: $src" >&2
        status=1
    fi
done
exit "$status"
