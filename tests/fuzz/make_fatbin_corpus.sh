#!/bin/sh
# tests/fuzz/make_fatbin_corpus.sh: regenerate tests/fuzz/fatbin, the
# corpus of the fat-binary reader's and module registration's fuzz
# targets (fuzz/fuzz_fatbin.c, fuzz/fuzz_register.c; replayed by
# tests/fuzz_replay.test, and a libFuzzer seed corpus).
#
# Usage: tests/fuzz/make_fatbin_corpus.sh [OUTDIR]   (run from anywhere)
#
# Deterministic, from the committed fixtures tests/fatbin/*.fatbin (nvcc
# 13 output for our own sources): each fixture, cut at the places a
# header ends; the zstd, LZ4 and uncompressed ones each with one header
# field overwritten by a hostile
# value (the container's body size, an entry's header size, payload
# size, compressed and uncompressed sizes, flags, string offsets); and
# inputs that once crashed a reader (found_*, kept verbatim in
# tests/fuzz/fatbin_found).  Only POSIX sh, dd, printf, cat.
set -e
LC_ALL=C
export LC_ALL

here=$(cd "$(dirname "$0")" && pwd)
fix=$here/../fatbin
out=${1:-$here/fatbin}
mkdir -p "$out"
rm -f "$out"/*

# patch IN OUT OFFSET BYTES...: a copy of IN with BYTES (octal escapes
# for printf) written at OFFSET.
patch() {
    cp "$1" "$2"
    dst=$2
    off=$3
    shift 3
    printf "$*" | dd of="$dst" bs=1 seek="$off" conv=notrunc 2>/dev/null
}

for f in default nocompress lz4 multi lto sass direct; do
    src=$fix/$f.fatbin
    cp "$src" "$out/seed_$f"
    # Cuts: inside the container header, inside the first entry's
    # header, just after it, inside the payload.
    for n in 3 12 40 80 200; do
        dd if="$src" of="$out/cut_${f}_$n" bs=1 count=$n 2>/dev/null
    done
    # Field overwrites (offsets: runtime/fatbin/fatbin.c's layout; the
    # first entry starts at 16), on one fixture per compression.
    case $f in default|lz4|nocompress) ;; *) continue ;; esac
    patch "$src" "$out/body_huge_$f" 8 '\377\377\377\377\377\377\377\177'
    patch "$src" "$out/body_zero_$f" 8 '\000\000\000\000\000\000\000\000'
    patch "$src" "$out/hsize_big_$f" 20 '\377\377\000\000'
    patch "$src" "$out/hsize_small_$f" 20 '\010\000\000\000'
    patch "$src" "$out/payload_huge_$f" 24 '\377\377\377\377\377\377\000\000'
    patch "$src" "$out/packed_huge_$f" 32 '\377\377\377\377'
    patch "$src" "$out/options_out_$f" 36 '\370\377\000\000'
    patch "$src" "$out/ident_out_$f" 48 '\100\000\000\000\377\377\377\377'
    patch "$src" "$out/flags_both_$f" 56 '\021\240\000\000'
    patch "$src" "$out/flags_zstd_$f" 56 '\021\200\000\000'
    patch "$src" "$out/unpacked_huge_$f" 72 '\000\000\000\100\000\000\000\000'
    patch "$src" "$out/unpacked_one_$f" 72 '\001\000\000\000\000\000\000\000'
    patch "$src" "$out/magic_$f" 0 '\121'
done
for f in "$here"/fatbin_found/*; do
    [ -f "$f" ] && cp "$f" "$out/found_$(basename "$f")"
done
exit 0
