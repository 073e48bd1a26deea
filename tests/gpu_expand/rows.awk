# tests/gpu_expand/rows.awk: expansion rows from walked kernels.
# Input: rows.txt, then "walk" lines of one architecture (walk.awk).
# -v arch=NAME (volta ...) -v sm=NN -v units="FP32:lat:ii INT:lat:ii ..."
# -v what=def|txt
#
# A row's machine instructions are the kernel's walked instructions less
# those of its baseline kernel (a multiset difference: each baseline
# instruction cancels one of the same class, the first not yet
# cancelled), in the kernel's order.  Register moves (MOV, MOV32I,
# IMAD.MOV*, HFMA2.MMA of constants) are one class, since ptxas picks
# among them freely, and so are loads and stores of any width (ptxas
# loads only the high word an rcp.approx.f64 reads); one move more or
# less is set-up noise.
function cls(m) {
    if (m ~ /^(MOV|MOV32I|IMAD\.MOV|HFMA2\.MMA)/) return "MOV"
    if (m ~ /^(LDG|LD)\./) return "LD"
    if (m ~ /^(STG|ST)\./) return "ST"
    return m
}
function unit(m,   r) {
    r = m; sub(/\..*/, "", r)
    if (r ~ /^(FFMA|FADD|FMUL|FSETP|FSEL|FMNMX|FSET|FCHK|FSWZADD|FFMA32I|FADD32I|FMUL32I)$/) return "FP32"
    if (r ~ /^(MUFU|I2F|F2I|F2F|I2I|FRND|F2FP|I2FP)$/) return "SFU"
    if (r ~ /^(DFMA|DADD|DMUL|DSETP|DMNMX)$/) return "FP64"
    if (r ~ /^(HFMA2|HADD2|HMUL2)$/ && m !~ /MMA/) return "FP16"
    if (r ~ /^(BRA|CALL|CAL|RET|BSSY|BSYNC|BMOV|EXIT|SSY|NOP|WARPSYNC)$/) return "CTRL"
    return "INT"
}
BEGIN {
    n = split(units, u, " ")
    for (i = 1; i <= n; i++) { split(u[i], f, ":"); lat[f[1]] = f[2]; ii[f[1]] = f[3] }
}
FNR == NR {
    if ($0 ~ /^#/ || NF < 5) next
    nrow++; rk[nrow] = $1; rb[nrow] = $2; ro[nrow] = $3; rt[nrow] = $4; rm[nrow] = $5
    next
}
{ w[$1] = $0 }
# Whether every modifier of a ("." separated) is one of b's.
function subset(a, b,   na, nb, x, y, i, j, found) {
    na = split(a, x, "."); nb = split(b, y, ".")
    for (i = 1; i <= na; i++) {
        if (x[i] == "") continue
        found = 0
        for (j = 1; j <= nb; j++) if (x[i] == y[j]) found = 1
        if (!found) return 0
    }
    return 1
}
END {
    # pass 1: the machine instruction count of each row
    for (r = 1; r <= nrow; r++) {
        k = "k_" rk[r]; b = "k_" rb[r]
        rn[r] = -1
        if (!(k in w) || !(b in w)) continue
        nk = split(w[k], tk, " "); nb = split(w[b], tb, " ")
        split("", gone)
        c = 0
        for (j = 2; j <= nb; j++)
            for (i = 2; i <= nk; i++)
                if (!(i in gone) && cls(tk[i]) == cls(tb[j])) { gone[i] = 1; c++; break }
        rn[r] = nk - 1 - c
    }
    # a one-instruction row is kept only where a less specific row of
    # several would otherwise match it (sqrt.approx.ftz.f32 under
    # sqrt.approx.f32)
    for (r = 1; r <= nrow; r++) {
        keep[r] = rn[r] > 1
        if (rn[r] != 1) continue
        for (q = 1; q <= nrow; q++)
            if (q != r && rn[q] > 1 && ro[q] == ro[r] && rt[q] == rt[r] &&
                subset(rm[q], rm[r]))
                keep[r] = 1
    }
    for (r = 1; r <= nrow; r++) {
        k = "k_" rk[r]; b = "k_" rb[r]
        if (!(k in w) || !(b in w)) continue
        nk = split(w[k], tk, " "); nb = split(w[b], tb, " ")
        split("", gone)
        for (j = 2; j <= nb; j++)
            for (i = 2; i <= nk; i++)
                if (!(i in gone) && cls(tk[i]) == cls(tb[j])) { gone[i] = 1; break }
        cnt = 0; list = ""; parts = ""
        for (i = 2; i <= nk; i++) {
            if (i in gone) continue
            cnt++
            list = list " " tk[i]
            uu = unit(tk[i])
            parts = parts (cnt > 1 ? "," : "") (cnt % 4 == 1 ? "\n    " : " ") \
                    "P(" uu ", " lat[uu] ", " ii[uu] ")"
        }
        if (what == "txt") {
            printf "%-7s %-6s %-16s %3d %s\n", arch, ro[r], rm[r], cnt, substr(list, 2)
        } else if (keep[r]) {
            printf "EXPAND_ROW(%s, %s_SASS, \"%s\", %d, \"%s\", %d,%s)\n", \
                toupper(arch), toupper(arch), ro[r], rt[r], rm[r], cnt, parts
        }
    }
}
