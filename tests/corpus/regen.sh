#!/usr/bin/env bash
# Regenerate the PTX fixture corpus in tests/corpus/ptx/ from the sources in
# tests/corpus/cu/ (nvcc) and tests/corpus/llvm/ (LLVM NVPTX backend: *.c and
# *.cl through clang, *.cu through clang's CUDA mode without the CUDA
# headers, *.ll through llc), then rewrite tests/corpus/opcodes-seen.txt.
#
# Usage: tests/corpus/regen.sh [name ...]
#   With no arguments every source is regenerated; otherwise only the sources
#   whose base name (without extension) is listed.
#
# Environment:
#   NVCC   path to nvcc   (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc)
#   CLANG  path to clang  (default: clang on PATH)
#   LLC    path to llc    (default: llc on PATH)
#
# Per-file tags, one or more lines of the form "// regen: TAG [TAG...]" in a
# .cu file:
#   sm90-only   do not generate the .sm80.ptx variant
#   sm90a       use -arch=compute_90a instead of compute_90 for .sm90.ptx
#   -FLAG       passed verbatim to nvcc (e.g. -rdc=true, -lineinfo, -G)
#
# The output is normalised so that it does not depend on the checkout
# location (see the comment above run_nvcc).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here"
mkdir -p ptx

want() {
    # want NAME: true if NAME was selected on the command line (or no filter)
    local name=$1 sel
    if [ "${#selected[@]}" -eq 0 ]; then
        return 0
    fi
    for sel in "${selected[@]}"; do
        if [ "$sel" = "$name" ]; then
            return 0
        fi
    done
    return 1
}

selected=("$@")
status=0

# ---------------------------------------------------------------- nvcc ----
nvcc_bin=${NVCC:-}
if [ -z "$nvcc_bin" ]; then
    if command -v nvcc >/dev/null 2>&1; then
        nvcc_bin=$(command -v nvcc)
    elif [ -x /usr/local/cuda/bin/nvcc ]; then
        nvcc_bin=/usr/local/cuda/bin/nvcc
    fi
fi

if [ -z "$nvcc_bin" ] || ! [ -x "$nvcc_bin" ]; then
    echo "regen.sh: nvcc not found: keeping committed PTX"
    exit 0
fi

echo "regen.sh: using $("$nvcc_bin" --version | tail -n 2 | head -n 1) ($nvcc_bin)"

# nvcc records the compilation directory in the output (.file paths, the
# DWARF comp_dir of -G builds, and a hash of the source path in the names of
# internal-linkage symbols). To keep the committed PTX independent of where
# the repository is checked out, the sources are copied into a scratch
# directory whose path always has the same length, compiled from there, and
# the scratch path is then replaced by the fixed placeholder $placeholder.
placeholder=/tmp/ptxemu-regen.XXXXXXXX
work=$(mktemp -d "$placeholder")
trap 'rm -rf "$work"' EXIT
cp -R cu "$work/"

# decimal byte list of a string, as nvcc writes strings into DWARF sections
dwarf_bytes() {
    printf '%s' "$1" | od -An -v -tu1 | tr -s ' \n' ',' | sed 's/^,//; s/,$//'
}
work_bytes=$(dwarf_bytes "$work")
placeholder_bytes=$(dwarf_bytes "$placeholder")
internal_bytes=$(dwarf_bytes _INTERNAL_)
global_n_bytes=$(dwarf_bytes _GLOBAL__N__)
hex_byte='(4[89]|5[0-7]|9[7-9]|10[0-2])'   # ASCII 0-9a-f
zero8_bytes=$(printf ',48%.0s' 1 2 3 4 5 6 7 8)

# ptxas from the same toolkit, used to check every generated file (nvcc -ptx
# itself does not assemble compute_80 output, so invalid inline PTX would
# otherwise go unnoticed)
ptxas_bin=$(dirname "$nvcc_bin")/ptxas

check_ptx() {
    # check_ptx SM FILE: assemble FILE for SM (as relocatable code when it
    # references .extern functions, as -rdc=true builds do)
    local reloc=()
    if ! [ -x "$ptxas_bin" ]; then
        return 0
    fi
    if grep -q '^\.extern \.func' "$2"; then
        reloc=(-c)
    fi
    if ! "$ptxas_bin" -arch="$1" "${reloc[@]}" --suppress-stack-size-warning \
        -o /dev/null "$2"; then
        echo "regen.sh: ptxas rejected $2 ($1)" >&2
        status=1
    fi
}

run_nvcc() {
    # run_nvcc ARCH OUT SRC [FLAGS...]
    local arch=$1 out=$2 src=$3
    shift 3
    if (cd "$work" && "$nvcc_bin" -arch="$arch" -ptx "$@" -o "$here/$out.tmp" "$src"); then
        # .file "<work>/cu/x.cu" -> "cu/x.cu"; DWARF comp_dir -> placeholder;
        # _INTERNAL_<path hash>_... / _GLOBAL__N__<path hash>_... -> zero
        # hash, both in symbol names and in byte-encoded DWARF strings
        sed -E -i -e "s|\"$work/|\"|g" \
            -e "s|\"$work\"|\"$placeholder\"|g" \
            -e "s|^\\.b8 $work_bytes\$|.b8 $placeholder_bytes|" \
            -e 's/(_INTERNAL_|_GLOBAL__N__)[0-9a-f]{8}_/\100000000_/g' \
            -e "s/($internal_bytes|$global_n_bytes)(,$hex_byte){8},95/\1$zero8_bytes,95/g" \
            "$out.tmp"
        mv "$out.tmp" "$out"
        echo "  $out"
        check_ptx "sm_${arch#compute_}" "$out"
    else
        rm -f "$out.tmp"
        echo "regen.sh: FAILED: $src ($arch)" >&2
        status=1
    fi
}

for src in cu/*.cu; do
    name=$(basename "$src" .cu)
    want "$name" || continue

    flags=()
    do_sm80=1
    arch90=compute_90
    tags=$(sed -n 's|^// regen:||p' "$src")
    for tag in $tags; do
        case $tag in
            sm90-only) do_sm80=0 ;;
            sm90a) arch90=compute_90a ;;
            -*) flags+=("$tag") ;;
            *)
                echo "regen.sh: $src: unknown regen tag '$tag'" >&2
                status=1
                ;;
        esac
    done

    if [ "$do_sm80" -eq 1 ]; then
        run_nvcc compute_80 "ptx/$name.sm80.ptx" "$src" "${flags[@]}"
    else
        rm -f "ptx/$name.sm80.ptx"
    fi
    run_nvcc "$arch90" "ptx/$name.sm90.ptx" "$src" "${flags[@]}"
done

# --------------------------------------------------------------- clang ----
clang_bin=${CLANG:-}
if [ -z "$clang_bin" ] && command -v clang >/dev/null 2>&1; then
    clang_bin=$(command -v clang)
fi
llc_bin=${LLC:-}
if [ -z "$llc_bin" ] && command -v llc >/dev/null 2>&1; then
    llc_bin=$(command -v llc)
fi

run_llvm() {
    # run_llvm OUT CMD...
    local out=$1
    shift
    if "$@" -o "$out.tmp"; then
        mv "$out.tmp" "$out"
        echo "  $out"
        check_ptx sm_80 "$out"
    else
        rm -f "$out.tmp"
        echo "regen.sh: FAILED: $out" >&2
        status=1
    fi
}

shopt -s nullglob
for src in llvm/*.c llvm/*.cl llvm/*.cu llvm/*.ll; do
    file=$(basename "$src")
    name=${file%.*}
    want "$name" || continue
    out="ptx/$name.llvm.ptx"
    case $src in
        *.c)
            if [ -z "$clang_bin" ]; then
                echo "regen.sh: clang not found: keeping committed $out"
                continue
            fi
            run_llvm "$out" "$clang_bin" --target=nvptx64-nvidia-cuda \
                -march=sm_80 -O2 -S -nogpulib -x c "$src"
            ;;
        *.cl)
            if [ -z "$clang_bin" ]; then
                echo "regen.sh: clang not found: keeping committed $out"
                continue
            fi
            run_llvm "$out" "$clang_bin" --target=nvptx64-nvidia-cuda \
                -march=sm_80 -O2 -S -nogpulib -x cl -cl-std=CL1.2 "$src"
            ;;
        *.cu)
            # CUDA without the CUDA headers/libdevice: independent of the
            # installed toolkit version
            if [ -z "$clang_bin" ]; then
                echo "regen.sh: clang not found: keeping committed $out"
                continue
            fi
            run_llvm "$out" "$clang_bin" -x cuda --cuda-device-only \
                --cuda-gpu-arch=sm_80 -nocudainc -nocudalib \
                -Xclang -target-feature -Xclang +ptx70 \
                -Wno-unknown-cuda-version -O2 -S "$src"
            ;;
        *.ll)
            if [ -z "$llc_bin" ]; then
                echo "regen.sh: llc not found: keeping committed $out"
                continue
            fi
            run_llvm "$out" "$llc_bin" -march=nvptx64 -mcpu=sm_80 \
                -mattr=+ptx70 -O2 "$src"
            ;;
    esac
done

# ------------------------------------------------------ opcode summary ----
# List every distinct instruction (opcode and full opcode.modifier string)
# found in the corpus. Statements are split at ';'; comments, directive lines
# (.loc, .maxntid, .param ... which have no ';'), labels, braces and
# predicate guards are removed first.
list_instructions() {
    sed -e 's|//.*||' -e '/^[[:space:]]*\./d' "$@" |
        awk 'BEGIN { RS = ";" }
        {
            s = $0 " "
            while (1) {
                sub(/^[[:space:]{}()]+/, "", s)
                if (match(s, /^[A-Za-z_$][A-Za-z0-9_$]*[ \t]*:[^:]/)) {
                    s = substr(s, RLENGTH)
                    continue
                }
                if (match(s, /^@!?%?[A-Za-z0-9_]+[ \t]+/)) {
                    s = substr(s, RLENGTH + 1)
                    continue
                }
                break
            }
            if (match(s, /^[a-z][a-z0-9_]*(\.[A-Za-z0-9_:]+)*/))
                print substr(s, RSTART, RLENGTH)
        }'
}

if compgen -G 'ptx/*.ptx' >/dev/null; then
    all_insns=$(list_instructions ptx/*.ptx | LC_ALL=C sort -u)
    {
        echo "# Generated by regen.sh from tests/corpus/ptx/*.ptx; do not edit."
        opcodes=$(cut -d. -f1 <<<"$all_insns" | LC_ALL=C sort -u)
        echo "# Distinct opcodes (first dotted component): $(wc -l <<<"$opcodes")"
        echo "$opcodes"
        echo
        echo "# Distinct opcode+modifier strings: $(wc -l <<<"$all_insns")"
        echo "$all_insns"
    } >opcodes-seen.txt
    echo "  opcodes-seen.txt"
fi

exit "$status"
