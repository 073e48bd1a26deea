#!/bin/sh
# bench/hw/compare.sh: hardware versus ptxemu, kernel by kernel.
#
#   bench/hw/compare.sh HWDIR [--config NAME] [--emu DIR] [--save DIR]
#                       [--ptxemu PATH] [--markdown] [--max-mape PCT]
#
# HWDIR is what bench/hw/run.sh wrote on the GPU (device.csv,
# kernels.csv).  The ptxemu side is DIR/kernels.csv when --emu names
# one; otherwise bench/hw/kernels.cu is built here with nvcc and run
# under `ptxemu exec --arch sm_CC --sms SMS --timing gpu --timing-config
# NAME` (the GPU's compute capability and SM count from device.csv, the
# configuration from device.csv or --config), its CSV kept in --save DIR
# when given.  Prints one row per kernel whose result both sides checked
# ("ok"):
#
#   kernel,hw_cycles,ptxemu_cycles,error_pct
#
# then `MAPE,PCT,N` (the mean of |error_pct| over those N kernels).
# A kernel missing on one side, or checked "bad" on either, is listed
# on stderr and left out.  Exit status 1 when --max-mape is given and
# the MAPE is above it or no kernel compares; 2 on usage errors.
hw=$1
[ -n "$hw" ] && [ -f "$hw/kernels.csv" ] || {
    echo "usage: $0 HWDIR [--config NAME] [--emu DIR] [--save DIR]" \
         "[--ptxemu PATH] [--markdown] [--max-mape PCT]" >&2
    exit 2
}
shift
cfg= emu= save= md= max=
here=$(cd "$(dirname "$0")" && pwd)
PTXEMU=${PTXEMU:-$here/../../ptxemu}
while [ $# -gt 0 ]; do
    case $1 in
    --config) cfg=$2; shift 2 ;;
    --emu) emu=$2; shift 2 ;;
    --save) save=$2; shift 2 ;;
    --ptxemu) PTXEMU=$2; shift 2 ;;
    --markdown) md=1; shift ;;
    --max-mape) max=$2; shift 2 ;;
    *) echo "$0: unknown option $1" >&2; exit 2 ;;
    esac
done
dev=$hw/device.csv
field() {  # field KEY N: column N of device.csv's KEY row
    [ -f "$dev" ] && awk -F, -v k="$1" -v n="$2" '$1 == k { print $n }' "$dev"
}
[ -n "$cfg" ] || cfg=$(field config 2)

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
if [ -n "$emu" ]; then
    [ -f "$emu/kernels.csv" ] || { echo "$0: no $emu/kernels.csv" >&2; exit 2; }
    cp "$emu/kernels.csv" "$tmp/emu.csv"
else
    if [ -z "$cfg" ] || [ "$cfg" = none ]; then
        echo "$0: no ptxemu configuration for this GPU (give --config)" >&2
        exit 2
    fi
    sms=$(field device 3) cc=$(field device 4 | tr -d .)
    [ -n "$sms" ] && [ -n "$cc" ] ||
        { echo "$0: $dev names no SM count or compute capability" >&2; exit 2; }
    NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
    [ -x "$NVCC" ] || { echo "$0: nvcc not found (set NVCC)" >&2; exit 2; }
    # sm_80 code runs as any later GPU under ptxemu (and CUDA 13's nvcc
    # builds nothing older); --arch gives the GPU's own
    "$NVCC" -O2 -arch=sm_80 -cudart shared -o "$tmp/kernels" \
        "$here/kernels.cu" || exit 2
    "$PTXEMU" exec --arch "sm_$cc" --sms "$sms" --timing gpu \
        --timing-config "$cfg" -- "$tmp/kernels" --reps 1 >"$tmp/emu.csv" ||
        echo "$0: ptxemu run: exit $? (rows so far are compared)" >&2
    if [ -n "$save" ]; then
        mkdir -p "$save" && cp "$tmp/emu.csv" "$save/kernels.csv"
    fi
fi

# kernel -> cycles of the rows checked ok; then the join
awk -F, -v md="$md" -v max="$max" -v cfg="$cfg" '
    FNR == 1 { side++; next }
    side == 1 { if ($8 == "ok") hw[$1] = $7; else bad[$1] = "hardware"
                order[++n] = $1; next }
    side == 2 { if ($8 == "ok") em[$1] = $7; else bad[$1] = "ptxemu"
                seen[$1] = 1 }
    END {
        if (md) { printf "| kernel | hardware | ptxemu (%s) | error %% |\n", cfg
                  print "|---|---|---|---|" }
        else print "kernel,hw_cycles,ptxemu_cycles,error_pct"
        for (i = 1; i <= n; i++) {
            k = order[i]
            if (k in bad) { printf "%s: checked bad on %s\n", k, bad[k] > "/dev/stderr"; continue }
            if (!(k in em)) { printf "%s: no ptxemu row\n", k > "/dev/stderr"; continue }
            if (hw[k] <= 0) { printf "%s: no hardware cycles\n", k > "/dev/stderr"; continue }
            e = (em[k] - hw[k]) / hw[k] * 100
            sum += e < 0 ? -e : e; m++
            if (md) printf "| %s | %s | %s | %.1f |\n", k, hw[k], em[k], e
            else printf "%s,%s,%s,%.1f\n", k, hw[k], em[k], e
        }
        mape = m ? sum / m : 0
        if (md) printf "\nMAPE %.1f%% over %d kernels\n", mape, m
        else printf "MAPE,%.1f,%d\n", mape, m
        exit (max != "" && (m == 0 || mape > max + 0)) ? 1 : 0
    }' "$hw/kernels.csv" "$tmp/emu.csv"
