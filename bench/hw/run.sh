#!/bin/sh
# bench/hw/run.sh: on a machine with nvcc and an NVIDIA GPU, build and
# run the microbenchmark suite (bench/micro/) and the kernels of
# bench/hw/kernels.cu natively, writing the raw CSVs under one
# directory, in under 5 minutes:
#
#   bench/hw/run.sh [--out DIR] [--quick] [--reps N]
#
#   DIR/device.csv    device,NAME,SMS,CC and config,NAME (the ptxemu
#                     configuration of that GPU, "none" when none ships)
#   DIR/env.txt       nvidia-smi's and nvcc's versions and clocks
#   DIR/kernels.csv   one row per kernel: cycles per launch (CUDA events
#                     times the measured SM clock; see kernels.cu)
#   DIR/micro/*.csv   the suite's results (bench/micro/run.sh)
#
# Then, anywhere (no GPU needed; ptxemu and nvcc):
#   bench/hw/compare.sh DIR
# prints each kernel's hardware and ptxemu cycles under the GPU's own
# configuration and the mean absolute percentage error.  Commit DIR
# (as bench/hw/results/GPU/) so the comparison can be re-run without a
# GPU.  Every step has its own time limit (STEP_LIMIT seconds, default
# 100; the suite twice that), so one hung program cannot eat the machine's time.
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=hw-out quick= reps=10
while [ $# -gt 0 ]; do
    case $1 in
    --out) out=$2; shift 2 ;;
    --quick) quick=--quick; shift ;;
    --reps) reps=$2; shift 2 ;;
    *) echo "usage: $0 [--out DIR] [--quick] [--reps N]" >&2; exit 2 ;;
    esac
done
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || { echo "$0: nvcc not found (set NVCC)" >&2; exit 1; }
command -v nvidia-smi >/dev/null 2>&1 ||
    { echo "$0: no nvidia-smi: not a machine with an NVIDIA GPU" >&2; exit 1; }
limit=${STEP_LIMIT:-100}
start=$(date +%s)
mkdir -p "$out/micro"
out=$(cd "$out" && pwd)

# the GPU's compute capability picks -arch (sm_90 for 9.0)
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n 1 |
     tr -d ' .')
[ -n "$cc" ] || { echo "$0: nvidia-smi gave no compute capability" >&2; exit 1; }
arch=sm_$cc
{
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw \
        --format=csv
    "$NVCC" --version
    echo "arch=$arch started=$(date -u +%FT%TZ)"
} >"$out/env.txt" 2>&1

"$NVCC" -O2 -arch="$arch" -o "$out/kernels" "$here/kernels.cu"
"$out/kernels" --device >"$out/device.csv"
# the ptxemu configuration of this GPU (timing/configs/)
name=$(cut -d, -f2 "$out/device.csv")
case $name in
*H100* | *H800* | *H200*) cfg=hopper ;;
*A100* | *A800*) cfg=ampere ;;
*V100*) cfg=volta ;;
*"RTX 3070"*) cfg=rtx3070 ;;
*"GTX 480"*) cfg=fermi ;;
*) cfg=none ;;
esac
echo "config,$cfg" >>"$out/device.csv"

timeout "$limit" "$out/kernels" --reps "$reps" >"$out/kernels.csv" ||
    echo "$0: kernels: exit $? (a bad check or the time limit)" >&2
# the suite: the sweeps of the GPU's configuration on a V100, GTX 480
# or RTX 3070, Wong et al.'s elsewhere (their TLB and texture sweeps run
# on any GPU)
sweeps=gt200
case $cfg in volta | fermi | rtx3070) sweeps=$cfg ;; esac
timeout "$((limit * 2))" sh "$here/../micro/run.sh" --arch "$arch" \
    --out "$out/micro" --sweeps "$sweeps" $quick >"$out/micro.log" 2>&1 ||
    echo "$0: the suite: exit $? (see $out/micro.log)" >&2
rm -f "$out/kernels" "$out"/micro/mb_*  # binaries, not results
echo "elapsed=$(( $(date +%s) - start ))s" >>"$out/env.txt"
echo "results in $out/ ($(( $(date +%s) - start )) s); config $cfg"
