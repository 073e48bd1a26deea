#!/bin/sh
# bench/micro/compare.sh: a model-versus-published table.
#
#   bench/micro/compare.sh DIR TABLE [--max-error PCT] [--markdown]
#
# DIR holds the CSVs bench/micro/run.sh wrote; TABLE lists published
# figures (bench/micro/published/*.csv: quantity, file, selector,
# published value, unit, source).  Prints one CSV row per quantity:
#
#   quantity,published,measured,error_pct,unit,source
#
# (measured "-" and error "-" when the run has no such figure), then a
# summary line on stderr: how many are within 5% and 10%.  Exit status 1
# when --max-error is given and some figure is further off or missing.
# With --markdown the rows come as a Markdown table (docs/gt200.md).
# Needs bench/micro/mbgeom (MBGEOM, default: beside this script) for
# geometry selectors.
dir=$1 table=$2
[ -d "$dir" ] && [ -f "$table" ] || {
    echo "usage: $0 DIR TABLE [--max-error PCT]" >&2; exit 2; }
max= md=
shift 2
while [ $# -gt 0 ]; do
    case $1 in
    --max-error) max=$2; shift 2 ;;
    --markdown) md=1; shift ;;
    *) echo "$0: unknown option $1" >&2; exit 2 ;;
    esac
done
here=$(cd "$(dirname "$0")" && pwd)
MBGEOM=${MBGEOM:-$here/mbgeom}

# value FILE SELECTOR: the measured figure, or nothing
value() {
    f="$dir/$1"
    [ -f "$f" ] || return 0
    case $2 in
    first) awk -F, 'NR > 1 { print $NF; exit }' "$f" ;;
    at/*) awk -F, -v fp="${2#at/}" '$1 == "chase" && $3 == fp { print $NF }' "$f" ;;
    row/*) awk -F, -v sel="${2#row/}" '
               BEGIN { n = split(sel, k, "/") }
               { for (i = 1; i <= n; i++) if ($i != k[i]) next
                 print $NF; exit }' "$f" ;;
    geom/*)
        set -- $(echo "${2#geom/}" | tr / ' ')
        "$MBGEOM" "$f" --min "$1" --max "$2" 2>/dev/null |
            awk -F, -v want="$3" '
                NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i }
                NR == 2 { print $col[want] }' ;;
    esac
}

out="${TMPDIR:-/tmp}/compare.$$"
trap 'rm -f "$out"' EXIT
echo "quantity,published,measured,error_pct,unit,source" >"$out"
grep -v '^#' "$table" | grep -v '^[[:space:]]*$' |
while IFS=, read -r q file sel pub unit src; do
    m=$(value "$file" "$sel")
    if [ -z "$m" ]; then
        echo "$q,$pub,-,-,$unit,$src"
    else
        awk -v q="$q" -v p="$pub" -v m="$m" -v u="$unit" -v s="$src" 'BEGIN {
            e = (m - p) / p * 100
            printf "%s,%s,%s,%.1f,%s,%s\n", q, p, m, e, u, s }'
    fi
done >>"$out"
if [ -n "$md" ]; then
    awk -F, 'NR == 1 { print "| quantity | published | ptxemu | error % |" \
                             " unit | source |"
                       print "|---|---|---|---|---|---|"; next }
             { printf "| %s | %s | %s | %s | %s | %s |\n",
                      $1, $2, $3, $4, $5, $6 }' "$out"
else
    cat "$out"
fi
awk -F, -v max="$max" '
    NR == 1 { next }
    { n++ }
    $4 == "-" { missing++; bad++; next }
    { e = $4 < 0 ? -$4 : $4
      if (e <= 5) w5++
      if (e <= 10) w10++
      if (max != "" && e > max) bad++ }
    END { printf "%d figures: %d within 5%%, %d within 10%%, %d missing\n",
                 n, w5, w10, missing > "/dev/stderr"
          exit (max != "" && bad) ? 1 : 0 }' "$out"
