#!/bin/sh
# tests/fatbin/regen.sh: rebuilds the committed fat-binary fixtures from
# our own sources in src/ with NVIDIA's nvcc, and the reference PTX that
# each fixture must yield.  Run from anywhere; needs nvcc (skips without).
#
# The reference.  cuobjdump (NVIDIA's extractor) is not shipped with the
# toolkit installed here, so the reference is nvcc's own PTX, kept with
# -keep from the very compile that made the fixture, put through what
# fatbinary is seen to do to PTX before storing it (nvcc 13.0, by
# comparing a --no-compress payload with the kept file): comments
# removed, leading blanks removed, each run of blanks made one space.
# That transformation is this sed line, not our reader, so the tests
# compare our extraction with an independent text.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/find_nvcc.sh"
FATBINARY=$(dirname "$(command -v "$NVCC")")/fatbinary
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$here/src
out=$here
mkdir -p "$out/ref"

minify() {
    sed -e 's,//.*$,,' -e 's/^[[:blank:]]*//' \
        -e 's/[[:blank:]][[:blank:]]*/ /g' "$1" > "$2"
}

# build NAME OUTPUT NVCC-ARGS...: compiles with -keep into $tmp/NAME.
build() {
    name=$1; output=$2; shift 2
    rm -rf "${tmp:?}/$name"
    mkdir -p "$tmp/$name"
    "$NVCC" -keep -keep-dir "$tmp/$name" "$@" -o "$out/$output"
}

# ref NAME KEPT REFNAME: the reference PTX of one kept file.
ref() {
    minify "$tmp/$1/$2" "$out/ref/$3"
}

# Raw fat binaries.
build default default.fatbin -fatbin -arch=sm_80 "$src/vadd.cu"
ref default vadd.ptx default.compute_80.ptx
build nocompress nocompress.fatbin -fatbin --no-compress -arch=sm_80 \
    "$src/vadd.cu"
ref nocompress vadd.ptx nocompress.compute_80.ptx
# compress-mode=speed makes fatbinary use LZ4 rather than zstd.
build lz4 lz4.fatbin -fatbin -Xfatbin -compress-mode=speed -arch=sm_80 \
    "$src/vadd.cu"
ref lz4 vadd.ptx lz4.compute_80.ptx
build multi multi.fatbin -fatbin \
    -gencode arch=compute_80,code=compute_80 \
    -gencode arch=compute_90,code=compute_90 \
    -gencode arch=compute_80,code=sm_80 "$src/vadd.cu"
ref multi vadd.compute_80.ptx multi.compute_80.ptx
ref multi vadd.compute_90.ptx multi.compute_90.ptx
build sass sass.fatbin -fatbin -gencode arch=compute_90,code=sm_90 \
    "$src/vadd.cu"
# LTO IR only (-dlto code): no PTX to run.
build lto lto.fatbin -fatbin -gencode arch=compute_80,code=lto_80 \
    "$src/vadd.cu"
# fatbinary by hand: an identifier and ptxas options in the entry header.
# The input is already in stored form, so it is its own reference.
"$FATBINARY" --create="$out/direct.fatbin" -64 --ident=vadd.cu \
    --cmdline="-O3" \
    "--image3=kind=ptx,sm=86,file=$out/ref/default.compute_80.ptx"
cp "$out/ref/default.compute_80.ptx" "$out/ref/direct.compute_86.ptx"

# Programs and objects (ELF): .nv_fatbin, __nv_relfatbin sections.
build exe vadd.exe -cudart shared -arch=sm_80 "$src/vadd.cu"
ref exe vadd.ptx vadd_exe.compute_80.ptx
build obj vadd.obj -c -arch=sm_80 "$src/vadd.cu"
ref obj vadd.ptx vadd_o.compute_80.ptx
build rdc rdc.exe -rdc=true -cudart shared -arch=sm_80 \
    "$src/rdc_main.cu" "$src/rdc_lib.cu"
ref rdc rdc_main.ptx rdc.rdc_main.compute_80.ptx
ref rdc rdc_lib.ptx rdc.rdc_lib.compute_80.ptx
build rdcobj rdc_lib.obj -rdc=true -c -arch=sm_80 "$src/rdc_lib.cu"
ref rdcobj rdc_lib.ptx rdc_lib_o.compute_80.ptx
strip "$out/vadd.exe" "$out/rdc.exe"
echo "regen.sh: fixtures written to $out"
