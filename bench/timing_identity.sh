#!/bin/sh
# bench/timing_identity.sh: do two builds of bench/timing simulate the
# same?  Runs every bench kernel under a matrix of `gpu` model
# configurations (the presets, the detailed memory system, each policy,
# optional part and DRAM, network and cache variant) with both binaries
# and compares the cycles and the full statistics JSON of every launch
# (bench/timing --stats).  A change meant only to make the model faster
# must leave them byte-identical.
#
# Usage: bench/timing_identity.sh OLD NEW [SCALE]
#   OLD, NEW: two bench/timing binaries (copy the old one aside before
#   rebuilding); SCALE: bench/timing --scale (default 0.02).
# Exit status 0 when every run matches, 1 when one differs (the diff is
# printed), 2 on a usage or run error.
set -u
[ $# -ge 2 ] || { echo "usage: $0 OLD NEW [SCALE]" >&2; exit 2; }
old=$1 new=$2 scale=${3:-0.02}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
# name|settings (each a --timing-set KEY=VALUE, or cfg=FILE)
cat > "$tmp/matrix" <<'M'
ideal|
hier|mem.model=hier
hier-replay0|mem.model=hier lsu.replay=0
hier-replay4|mem.model=hier lsu.replay=4
gt200|gpu.arch=gt200
gt200-hier-fetch|gpu.arch=gt200 mem.model=hier fetch.perfect_icache=false
variant|cfg=tests/timing_gpu_variant.cfg
lrr|sched.policy=lrr mem.model=hier
oldest-dual|sched.policy=oldest issue.width=2 fetch.per_cycle=1
collectors|oc.enabled=true lsu.replay=0 mem.model=hier
two-level|sched.policy=two-level mem.model=hier
dram-fifo|mem.model=hier dram.sched=fifo
dram-closed-ranks|mem.model=hier dram.policy=closed dram.ranks=2
hbm2-ideal-net|mem.model=hier dram.preset=hbm2 icnt.model=ideal
gddr6-tpc-caches|mem.model=hier dram.preset=gddr6 icnt.hop_lat=2 icnt.group=3 mem.tpc_ci=true mem.ci_l3=true
tlb-walks|mem.model=hier tlb.on=true tlb.walk_levels=2 dram.bank_stats=true
no-l1-clocks|mem.model=hier mem.l1d=false icnt.mhz=1100 l2.mhz=900
dram-fixed|mem.model=hier dram.model=fixed
M
rc=0
while IFS='|' read -r name sets; do
    args=""
    for s in $sets; do
        case $s in
        cfg=*) args="$args --timing-config $here/${s#cfg=}" ;;
        *) args="$args --timing-set $s" ;;
        esac
    done
    for b in old new; do
        eval bin=\$$b
        # shellcheck disable=SC2086
        if ! "$bin" --timing gpu --no-untimed --scale "$scale" $args \
                --stats "$tmp/$name.$b" >"$tmp/$name.$b.out" 2>&1; then
            echo "$name: $bin failed:" >&2
            cat "$tmp/$name.$b.out" >&2
            exit 2
        fi
    done
    n=$(wc -l < "$tmp/$name.new")
    if cmp -s "$tmp/$name.old" "$tmp/$name.new"; then
        echo "same: $name ($n launches)"
    else
        echo "DIFFERENT: $name"
        diff "$tmp/$name.old" "$tmp/$name.new" | tr ',' '\n' | \
            grep '^[<>]\|"' | head -40
        rc=1
    fi
done < "$tmp/matrix"
exit $rc
