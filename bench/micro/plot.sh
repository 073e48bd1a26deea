#!/bin/sh
# bench/micro/plot.sh: pictures of a microbenchmark run, drawn by gnuplot
# (Debian: gnuplot-nox), as PNG and SVG:
#  - chase-*.csv: latency per load against footprint (Wong et al.'s
#    Figs. 10-18: steps show the capacity, sets and line size);
#  - arith.csv: throughput against warps per operation (their Fig. 6).
#
#   bench/micro/plot.sh DIR [OUTDIR]      (OUTDIR defaults to DIR)
set -e
dir=$1 out=${2:-$1}
[ -d "$dir" ] || { echo "usage: $0 DIR [OUTDIR]" >&2; exit 2; }
command -v gnuplot >/dev/null || {
    echo "$0: gnuplot not found (Debian package gnuplot-nox)" >&2; exit 1; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# draw NAME TITLE XLABEL YLABEL PLOT-CLAUSES: NAME.png and NAME.svg
draw() {
    for term in "pngcairo size 900,560" "svg size 900,560"; do
        ext=${term%% *}
        ext=${ext%cairo}
        gnuplot <<G
set terminal $term
set output "$out/$1.$ext"
set title "$2"
set xlabel "$3"
set ylabel "$4"
set grid
set key outside right
set datafile separator ","
plot $5
G
    done
}

for f in "$dir"/chase-*.csv; do
    [ -f "$f" ] || continue
    name=$(basename "$f" .csv)
    space=$(awk -F, 'NR == 2 { print $2 }' "$f")
    stride=$(awk -F, 'NR == 2 { print $4 }' "$f")
    draw "$name" "pointer chase: $space memory, stride $stride B" \
        "footprint (bytes)" "cycles per load" \
        "\"$f\" every ::1 using 3:5 with linespoints pt 7 ps 0.4 title \"$space\""
done

if [ -f "$dir/arith.csv" ]; then
    clauses=
    for op in $(awk -F, '$1 == "throughput" { print $2 }' "$dir/arith.csv" |
                uniq); do
        awk -F, -v op="$op" '$1 == "throughput" && $2 == op { print $3 "," $4 }' \
            "$dir/arith.csv" >"$tmp/$op.dat"
        clauses="$clauses${clauses:+, }\"$tmp/$op.dat\" using 1:2 with linespoints title \"$op\""
    done
    [ -n "$clauses" ] && draw arith-throughput \
        "arithmetic throughput against warps (one block)" "warps" \
        "thread operations per clock" "$clauses"
fi
echo "pictures in $out/"
