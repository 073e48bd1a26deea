# tests/gpu_expand/walk.awk: the machine instructions one thread runs
# through each kernel of a `cuobjdump -sass` listing, on the common path.
# Output: one line per kernel, "k_name MNEMONIC MNEMONIC ...".
#
# Rules (what ptxas emits for these kernels):
#  - start at the first instruction; stop at an unpredicated EXIT;
#  - a predicated forward BRA (or, in Kepler code, a predicated ".S"
#    instruction popping to the SSY target) that jumps over a CALL/CAL is
#    taken: ptxas puts the rare cases (denormals, zero, infinity, huge
#    quotients) in a called subroutine behind such a test; any other
#    predicated branch falls through;
#  - an unpredicated CALL/CAL is followed to its RET;
#  - predicated-off instructions count (they take an issue slot);
#    "@!PT" placeholders and NOPs do not.
function hex(s,   i, c, v) {
    sub(/^0x/, "", s)
    v = 0
    for (i = 1; i <= length(s); i++) {
        c = index("0123456789abcdef", tolower(substr(s, i, 1)))
        if (!c) break
        v = v * 16 + c - 1
    }
    return v
}
function has_call(from, to,   a) {
    for (a = nxt[from]; a != "" && a < to; a = nxt[a])
        if (op[a] ~ /^CALL/ || op[a] ~ /^CAL$/) return 1
    return 0
}
function flush(   pc, n, sp, stack, m, t, out, ssy) {
    if (fn == "") return
    pc = first; n = 0; sp = 0; out = ""; ssy = ""
    while (pc != "" && (pc in op) && n < 4000) {
        n++
        m = op[pc]
        if (m !~ /^NOP$/) out = out " " m
        if (m == "EXIT" && pred[pc] == "") break
        if (m == "SSY") { ssy = tgt[pc]; pc = nxt[pc]; continue }
        if (m ~ /\.S$/ && ssy != "") {
            if (pred[pc] == "") { pc = ssy; continue }
            if (has_call(pc, ssy)) { pc = ssy; continue }
        }
        if (m ~ /^BRA/) {
            t = tgt[pc]
            if (pred[pc] == "") { if (t == pc) break; pc = t; continue }
            if (t > pc && has_call(pc, t)) { pc = t; continue }
        } else if (m ~ /^CALL/ || m == "CAL") {
            stack[++sp] = nxt[pc]; pc = tgt[pc]; continue
        } else if (m ~ /^RET/) {
            if (sp == 0) break
            pc = stack[sp--]; continue
        }
        pc = nxt[pc]
    }
    print fn out
    split("", op); split("", pred); split("", tgt); split("", nxt)
    fn = ""
}
/Function :/ { flush(); fn = $NF; first = ""; last = ""; next }
/^[ \t]+\/\*[0-9a-f]+\*\/[ \t]+[^ \t]/ {
    if (fn == "") next
    line = $0
    sub(/\/\* 0x.*$/, "", line)
    match(line, /\/\*[0-9a-f]+\*\//)
    addr = hex(substr(line, RSTART + 2, RLENGTH - 4))
    rest = substr(line, RSTART + RLENGTH)
    sub(/^[ \t]+/, "", rest); sub(/[ \t;]+$/, "", rest)
    p = ""
    if (rest ~ /^@/) {
        split(rest, w, /[ \t]+/); p = w[1]
        rest = substr(rest, length(p) + 1); sub(/^[ \t]+/, "", rest)
    }
    split(rest, w, /[ \t;]+/)
    mn = w[1]
    if (p == "@!PT") { mn = "NOP"; p = "" }     # never runs: a placeholder
    op[addr] = mn; pred[addr] = p
    if (first == "") first = addr; else nxt[last] = addr
    last = addr
    if (mn ~ /^(BRA|CALL|CAL$|SSY)/) {
        n2 = split(rest, ww, /[ ,;]+/)
        tgt[addr] = hex(ww[n2])
    }
}
END { flush() }
