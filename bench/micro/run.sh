#!/bin/sh
# bench/micro/run.sh: build the microbenchmark suite with nvcc and run it
# on the real GPU or under `ptxemu exec`, one CSV per program in OUT.
#
#   bench/micro/run.sh [--arch sm_XX] [--out DIR] [--quick]
#                      [--sweeps gt200|volta|fermi|rtx3070|ampere|hopper]
#                      [--ptxemu PATH [-- EXEC_ARGS...]]
#
# Without --ptxemu the programs run natively (a machine with an NVIDIA
# GPU and its driver).  With it they run as `PATH exec EXEC_ARGS --
# PROGRAM`, e.g. `--ptxemu ./ptxemu -- --timing gpu --timing-config
# gt200`.  Sweeps (footprints and strides of the pointer chase) follow
# Wong et al. 2010: the texture L1 at an 8-byte stride up to 8 KB (and,
# without --quick, the texture L2 at a 64-byte stride up to 384 KB), the
# constant caches at 16- and 256-byte strides, global memory at 32 bytes
# and, without --quick, the TLBs at 512 KB strides up to 40 MB and their
# associativity (16 and 17 elements at strides up to 8 MB).  With
# --sweeps volta the last sweeps are a V100's instead (Jia et al. 2018,
# Table 3.1): the L1 around its 128 KB and the L2 from 1 to 8 MB; with
# fermi or rtx3070 those GPUs' L1 and L2 capacities and a chase past
# the L2 (DRAM); with ampere or hopper (A100, H100) the L1 beside the
# largest shared-memory carve-out, an L2 hit and the L2's capacity a
# megabyte at a time (past it, DRAM).  The
# clock register's and the constant caches' sharing scope (mb_scope)
# run with either.  Infer
# cache geometries from the chase CSVs with bench/micro/mbgeom.
set -e
here=$(cd "$(dirname "$0")" && pwd)
arch=sm_80 out=micro-out quick= ptxemu= sweeps=gt200
while [ $# -gt 0 ]; do
    case $1 in
    --arch) arch=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --quick) quick=--quick; shift ;;
    --sweeps) sweeps=$2; shift 2 ;;
    --ptxemu) ptxemu=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "usage: $0 [--arch sm_XX] [--out DIR] [--quick]" \
            "[--sweeps gt200|volta|fermi|rtx3070|ampere|hopper]" \
            "[--ptxemu PATH [-- EXEC_ARGS...]]" >&2
       exit 2 ;;
    esac
done
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || { echo "$0: nvcc not found (set NVCC)" >&2; exit 1; }
mkdir -p "$out"
# built side by side (each nvcc is one process), then checked
pids=
for p in mb_arith mb_chase mb_sync mb_banks mb_atomic mb_icache \
    mb_coalesce mb_scope; do
    "$NVCC" -O2 -arch="$arch" -o "$out/$p" "$here/$p.cu" &
    pids="$pids $!"
done
for pid in $pids; do
    wait "$pid" || { echo "$0: nvcc failed" >&2; exit 1; }
done
# EXEC_ARGS go between `exec` and `--`; "$@" holds them.
go() {  # go CSV PROGRAM ARGS...
    csv=$1 prog=$2
    shift 2
    if [ -n "$ptxemu" ]; then
        "$ptxemu" exec $EXEC_ARGS -- "$out/$prog" $quick "$@" >>"$out/$csv"
    else
        "$out/$prog" $quick "$@" >>"$out/$csv"
    fi
}
EXEC_ARGS="$*"
rm -f "$out"/*.csv
go arith.csv mb_arith
go sync.csv mb_sync
go banks.csv mb_banks
go atomic.csv mb_atomic
go icache.csv mb_icache
go fetch.csv mb_icache --fetch
go coalesce.csv mb_coalesce
# what SMs share (Wong et al. Figs. 5 and 20): the clock register, and
# the constant caches seen by two chasers in one CTA or in two
go scope-clock.csv mb_scope --clock
go scope-const.csv mb_scope --space const --min 512 --max 16384 \
    --step 512 --stride 64
go chase-tex.csv mb_chase --space tex --min 4096 --max 8192 --step 8 \
    --stride 8
# the constant L1 at a 16-byte stride, footprints a line (64 bytes)
# apart: with GT200's 8 KB L2 close behind it each set's overflow adds
# only a few cycles, and footprints that end inside a line blur them
go chase-const.csv mb_chase --space const --min 1024 --max 4096 --step 64 \
    --stride 16
go chase-shared.csv mb_chase --space shared --min 1024 --max 16384 \
    --step 1024 --stride 32
go chase-global.csv mb_chase --space global --min 1024 --max 65536 \
    --step 1024 --stride 32
if [ -z "$quick" ]; then
    go chase-const-l2.csv mb_chase --space const --min 1024 --max 65536 \
        --step 256 --stride 256
fi
# the L1 and L2 capacities of the GTX 480 (16 KB beside 48 KB of shared
# memory, 768 KB) and the RTX 3070 (28 KB beside 100 KB, 4 MB), a line
# per stride; short enough to run with --quick too
case $sweeps in
fermi)
    go chase-l1.csv mb_chase --space global --min 8192 --max 32768 \
        --step 1024 --stride 128
    go chase-global-l2.csv mb_chase --space global --min 524288 \
        --max 1310720 --step 65536 --stride 128
    # DRAM: a chase over 2 MB, past the 768 KB L2
    go chase-dram.csv mb_chase --space global --min 2097152 \
        --max 2097152 --step 1024 --stride 128 ;;
rtx3070)
    go chase-l1.csv mb_chase --space global --min 16384 --max 65536 \
        --step 4096 --stride 128
    go chase-global-l2.csv mb_chase --space global --min 3670016 \
        --max 4718592 --step 131072 --stride 128
    # DRAM: a chase over 8 MB, past the 4 MB L2
    go chase-dram.csv mb_chase --space global --min 8388608 \
        --max 8388608 --step 1024 --stride 128 ;;
ampere|hopper)
    # the L1 a kernel preferring the most shared memory keeps: 28 KB of
    # the A100's 192 KB beside 164 KB, of the H100's 256 KB beside 228 KB
    go chase-l1.csv mb_chase --space global --carveout 100 --min 16384 \
        --max 65536 --step 4096 --stride 128
    # an L2 hit at 1 MB, then the L2 (40 MB, 50 MB) a MB at a time from
    # 1 MB below it to 3 MB past it (DRAM).  256 timed loads: the first
    # lines of the chain, which LRU evicts once their sets overflow (a
    # full pass would take 2 x 330,000 loads and, with the L2's hashed
    # sets, rise over several MB)
    go chase-global-l2.csv mb_chase --space global --min 1048576 \
        --max 1048576 --step 1024 --stride 128 --steps 256
    if [ "$sweeps" = ampere ]; then l2=41943040; else l2=52428800; fi
    go chase-global-l2.csv mb_chase --space global --min $((l2 - 1048576)) \
        --max $((l2 + 3145728)) --step 1048576 --stride 128 --steps 256 ;;
esac
if [ -z "$quick" ] && [ "$sweeps" = volta ]; then
    # the L1 of a kernel without shared memory (all 128 KB) a line at a
    # time, and the L2 (6 MB) a MB at a time
    go chase-l1.csv mb_chase --space global --min 122880 --max 147456 \
        --step 128 --stride 128
    go chase-global-l2.csv mb_chase --space global --min 1048576 \
        --max 8388608 --step 1048576 --stride 128
elif [ -z "$quick" ] && [ "$sweeps" = gt200 ]; then
    # the texture L2 (Wong et al. Figs. 10 and 12): 4 KB to 384 KB at a
    # 64-byte stride (every load misses the 32-byte-line L1: past its
    # 5 KB the L2's hits, past the L2's 256 KB DRAM), and one L2 line
    # (256 bytes) apart across its overflow, 248 to 296 KB
    go chase-tex-wide.csv mb_chase --space tex --min 4096 --max 393216 \
        --step 4096 --stride 64
    go chase-tex-l2.csv mb_chase --space tex --min 253952 --max 303104 \
        --step 256 --stride 64
    go chase-tlb.csv mb_chase --space global --min 1048576 \
        --max 41943040 --step 1048576 --stride 524288
    # the L1 TLB's associativity (Wong et al. Fig. 14): 16 and 17
    # elements at strides from 256 KB to 8 MB
    go chase-tlb16.csv mb_chase --space global --count 16 --min 262144 \
        --max 8388608 --step 262144
    go chase-tlb17.csv mb_chase --space global --count 17 --min 262144 \
        --max 8388608 --step 262144
fi
echo "results in $out/"
