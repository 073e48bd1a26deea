#!/bin/sh
# tests/fuzz/make_corpus.sh: regenerate the malformed-input corpus in
# tests/fuzz/corpus (consumed by tests/fuzz_corpus.test, and usable as
# a libFuzzer seed corpus).
#
# Usage: tests/fuzz/make_corpus.sh [OUTDIR]     (run from anywhere)
#
# Deterministic: every "random" choice comes from a Park-Miller generator
# (x = x * 16807 mod 2^31-1, exact in awk's doubles) with fixed seeds, so
# the same seed files always give byte-identical output, whatever the
# awk.  Only POSIX sh, awk, od, dd, sed, cat, printf are used.
#
# Inputs are a few committed PTX files (tests/fuzz/seeds, see SEEDS).  Derived files:
#   seed_*      the seeds themselves (valid input)
#   trunc_*     the seed cut at an offset: mid-token, mid-string,
#               mid-comment, mid-function, and evenly spaced offsets
#   flip_*      one byte changed (a bit flipped, or set to a PTX
#               punctuation character)
#   del_*       one byte deleted
#   dup_*       a line duplicated / a line dropped
#   garbage_*   random bytes, random printable text, random PTX tokens
#   nul_*       NUL bytes in the middle of tokens and between statements
#   big_*       resource stress: 100 KB identifiers, 10000 nested braces,
#               10000 nested parentheses, 1000-digit numbers, huge
#               register counts, deep initializers, many errors
#   misc_*      empty file, only ';', CRLF / CR line ends, a BOM, UTF-8
#               in identifiers, a .section without end, ...
#   found_*     inputs that once crashed ptxemu (libFuzzer finds,
#               minimized), kept verbatim in tests/fuzz/found
set -e
LC_ALL=C
export LC_ALL

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/corpus}
mkdir -p "$out"
rm -f "$out"/*

# Frozen copies (tests/fuzz/seeds) of two nvcc 13 outputs from
# tests/corpus/ptx and of some hand-written tests/ptx/succ_* fixtures, so
# that regenerating those does not change this corpus.
SEEDS="debug_g printf initializers literals_constexpr decls_misc
indirect_calls brx_branchtargets"

HDR='.version 9.0
.target sm_80
.address_size 64
'

# ---------------------------------------------------------------- helpers

# bytes FILE: the file's bytes as decimal numbers, one per line.
bytes() {
    od -An -v -tu1 "$1" | awk '{ for (i = 1; i <= NF; i++) print $i }'
}

# putbytes: decimal byte values on stdin (whitespace separated) to raw
# bytes on stdout, via printf(1) octal escapes (NUL and bytes >= 0x80
# included).  Chunked to keep each printf argument small.
putbytes() {
    awk '{ for (i = 1; i <= NF; i++) {
               s = s sprintf("\\%03o", $i); n++
               if (n == 512) { print s; s = ""; n = 0 } } }
         END { if (n) print s }' |
    while IFS= read -r chunk; do
        printf "$chunk"
    done
}

# trunc SRC LEN DST: the first LEN bytes of SRC.
trunc() {
    dd if="$1" of="$3" bs=1 count="$2" 2>/dev/null
}

# setbyte SRC OFF VALUE DST: SRC with the byte at OFF replaced.
setbyte() {
    cat "$1" >"$4"
    echo "$3" | putbytes | dd of="$4" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# delbyte SRC OFF DST: SRC without the byte at OFF.
delbyte() {
    { dd if="$1" bs=1 count="$2" 2>/dev/null
      dd if="$1" bs=1 skip=$(($2 + 1)) 2>/dev/null; } >"$3"
}

# insbytes SRC OFF DST VALUES...: SRC with VALUES inserted before OFF.
insbytes() {
    src=$1 off=$2 dst=$3
    shift 3
    { dd if="$src" bs=1 count="$off" 2>/dev/null
      echo "$@" | putbytes
      dd if="$src" bs=1 skip="$off" 2>/dev/null; } >"$dst"
}

# rep N STRING: STRING repeated N times (no newline).
rep() {
    awk -v n="$1" -v s="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", s }'
}

# ------------------------------------------------------ seed derivations

si=0
for name in $SEEDS; do
    si=$((si + 1))
    src="$here/seeds/$name.ptx"
    [ -f "$src" ] || { echo "make_corpus.sh: missing seed $src" >&2; exit 1; }
    cat "$src" >"$out/seed_$name.ptx"
    size=$(wc -c <"$src" | awk '{ print $1 }')

    # Interesting offsets, from the byte stream:
    #   S: just inside the first and last string literal
    #   C: just inside the first /* comment and the first // comment
    #   T: in the middle of identifiers/numbers (three pseudo-random ones)
    #   F: just after the first '{' of a function body, and the middle of
    #      the body; just before the final '}'
    #   E: evenly spaced, 8 of them, plus 1 and size-1
    offsets=$(bytes "$src" | awk -v seed="$si" -v n="$size" '
        function rnd(m) { x = (x * 16807) % 2147483647; return x % m }
        function alnum(c) { return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) ||
                                   (c >= 97 && c <= 122) || c == 95 || c == 37 }
        { b[NR - 1] = $1 }
        END {
            x = 1000 + seed * 7919
            fs = ls = fc = lc = fb = lb = -1; nt = 0
            for (i = 1; i < n; i++) {
                if (b[i - 1] == 34) { if (fs < 0) fs = i + 2; ls = i + 2 }
                if (b[i - 1] == 47 && b[i] == 42 && fc < 0) fc = i + 3
                if (b[i - 1] == 47 && b[i] == 47 && lc < 0) lc = i + 4
                if (b[i - 1] == 123 && fb < 0 && i > 40) fb = i + 1
                if (b[i - 1] == 125) lb = i - 1
                if (i > 1 && alnum(b[i - 1]) && alnum(b[i])) tok[nt++] = i
            }
            if (fs > 0) print fs; if (ls > 0) print ls
            if (fc > 0) print fc; if (lc > 0) print lc
            if (fb > 0) { print fb; print int((fb + lb) / 2) }
            if (lb > 0) print lb
            for (k = 0; k < 3 && nt > 0; k++) print tok[rnd(nt)]
            for (k = 1; k <= 8; k++) print int(n * k / 9)
            print 1; print n - 1
        }' | awk '$1 > 0 && !seen[$1]++')
    for off in $offsets; do
        trunc "$src" "$off" "$out/trunc_${name}_$off.ptx"
    done

    # Byte changes at pseudo-random offsets: 6 flips, 4 deletions.
    bytes "$src" | awk -v seed="$si" -v n="$size" '
        function rnd(m) { x = (x * 16807) % 2147483647; return x % m }
        { b[NR - 1] = $1 }
        END {
            x = 5000 + seed * 104729
            split("59 123 125 44 91 93 40 41 46 37 0 255 34 64 33 60 62", punct, " ")
            for (k = 0; k < 6; k++) {
                off = rnd(n); v = b[off]
                if (k % 2 == 0) {           # flip one bit
                    bit = 2 ^ rnd(8)
                    v = (int(v / bit) % 2) ? v - bit : v + bit
                } else {                    # PTX punctuation, NUL, 0xff
                    v = punct[1 + rnd(17)]
                }
                print "flip", off, v
            }
            for (k = 0; k < 4; k++) print "del", rnd(n), 0
        }' >"$out/.ops"
    while read -r op off v; do
        case $op in
        flip) setbyte "$src" "$off" "$v" "$out/flip_${name}_${off}_$v.ptx" ;;
        del)  delbyte "$src" "$off" "$out/del_${name}_$off.ptx" ;;
        esac
    done <"$out/.ops"
    rm -f "$out/.ops"

    # Structural edits: drop the line holding the first '{' after the
    # header, and duplicate the .version line in the middle of the file.
    awk 'done || !/^[ \t]*\{/ { print; next } { done = 1 }' "$src" \
        >"$out/dup_${name}_nobrace.ptx"
    awk -v n="$size" '{ print } NR == 30 { print ".version 9.0" }' "$src" \
        >"$out/dup_${name}_version.ptx"
done

# --------------------------------------------------------------- garbage

# Random bytes of several sizes, and random printable ASCII.
for g in 1 2 3 4 5 6; do
    awk -v seed="$g" 'BEGIN {
        x = 77 + seed * 31337
        n = int(16 * 4 ^ (seed - 1)); if (n > 8192) n = 8192
        for (i = 0; i < n; i++) { x = (x * 16807) % 2147483647; printf "%d ", x % 256
                                  if (i % 64 == 63) printf "\n" } }' |
        putbytes >"$out/garbage_bytes_$g.bin"
    awk -v seed="$g" 'BEGIN {
        x = 99 + seed * 7
        for (i = 0; i < 2000; i++) { x = (x * 16807) % 2147483647
            c = 32 + x % 96; printf "%c", (c == 127 ? 10 : c) } }' \
        >"$out/garbage_text_$g.ptx"
done

# PTX token soup: a valid header, then random sequences of PTX words
# and punctuation, so the parser gets deep into its grammar.
for g in 1 2 3 4 5 6 7 8; do
    { printf '%s\n' "$HDR"
      awk -v seed="$g" 'BEGIN {
        x = 4242 + seed * 65537
        nw = split(".entry .func .visible .extern .weak .reg .param .global " \
          ".shared .const .local .b8 .b32 .u64 .f32 .pred .v2 .v4 .align 8 " \
          "{ } ( ) [ ] ; , : = + - * / << >> ! ~ & | ^ ? @ _ " \
          "%r1 %rd2 %f3 %p1 %tid.x %ntid %r<4> $L1 $L1: k f " \
          "ld.global.u32 st.shared.v2.f32 add.s32 mov.u32 bra.uni call.uni " \
          "setp.lt.s32 ret; exit; mad.lo.s32 cvt.rn.f32.s32 brx.idx " \
          ".branchtargets .callprototype .calltargets .loc .file .pragma " \
          "\"str\" 0f3F800000 0d3FF0000000000000 0x7fffffff 42 -1 1U 0b101 " \
          ".section .debug_info .maxntid .reqntid generic( mask( .texref", w, " ")
        for (i = 0; i < 600; i++) { x = (x * 16807) % 2147483647
            printf "%s", w[1 + x % nw]
            x = (x * 16807) % 2147483647
            printf "%s", (x % 7 == 0) ? "\n" : " " }
        print "" }'; } >"$out/garbage_tokens_$g.ptx"
done

# --------------------------------------------------------------- NUL bytes

b1="$here/seeds/brx_branchtargets.ptx"
# inside an opcode ("ld.pa<NUL>ram"), inside a comment, between
# statements, and a file that is NUL from some point on.
off=$(bytes "$b1" | awk '{ b[NR-1] = $1 }
    END { for (i = 0; i in b; i++) if (b[i] == 108 && b[i+1] == 100 && b[i+2] == 46) { print i + 5; exit } }')
insbytes "$b1" "$off" "$out/nul_in_opcode.ptx" 0
insbytes "$b1" 10 "$out/nul_in_comment.ptx" 0 0 0
off=$(bytes "$b1" | awk '{ b[NR-1] = $1 }
    END { for (i = 200; i in b; i++) if (b[i] == 59) { print i + 1; exit } }')
insbytes "$b1" "$off" "$out/nul_between_stmts.ptx" 0 10
{ dd if="$b1" bs=1 count=400 2>/dev/null; rep 300 '0 ' | putbytes; } >"$out/nul_tail.ptx"
{ printf '%s\n' "$HDR"; printf '.global .b8 s'; echo 0 | putbytes
  printf 'x[4];\n'; } >"$out/nul_in_identifier.ptx"
{ printf '%s\n' "$HDR"; printf '.pragma "abc'; echo 0 | putbytes
  printf 'def";\n'; } >"$out/nul_in_string.ptx"

# ---------------------------------------------------------- big / deep

body_open='.visible .entry k(
	.param .u64 k_param_0
)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
'
body_close='	ret;
}
'
long=$(rep 100000 a)
{ printf '%s\n' "$HDR"; printf '%s' "$body_open"
  printf '\tmov.u32 %%%s, 1;\n' "$long"; printf '%s' "$body_close"; } \
    >"$out/big_ident_register.ptx"
{ printf '%s\n' "$HDR"; printf '.visible .entry %s()\n{\n\tret;\n}\n' "$long"; } \
    >"$out/big_ident_function.ptx"
{ printf '%s\n' "$HDR"; printf '%s' "$body_open"
  printf '\t%s.u32 %%r1, 1;\n' "$long"; printf '%s' "$body_close"; } \
    >"$out/big_ident_opcode.ptx"
{ printf '%s\n' "$HDR"; printf '%s' "$body_open"
  printf '\tadd.s32 %%r1, %%r2, 1;\n\t.pragma "%s";\n' "$long"
  printf '%s' "$body_close"; } >"$out/big_string.ptx"
long=
{ printf '%s\n' "$HDR"; printf '%s' "$body_open"
  printf '\tadd'; rep 3000 '.rn'; printf '.f32 %%r1, %%r1, 1;\n'
  printf '%s' "$body_close"; } >"$out/big_many_modifiers.ptx"
{ printf '%s\n' "$HDR"; printf '%s' "$body_open"
  printf '\tmov.u32 %%r1, 1;\n\tadd'; rep 3000 '.s32'; printf ' %%r1, %%r1, 1;\n'
  printf '%s' "$body_close"; } >"$out/big_many_types.ptx"

# 10000 nested braces: inside a body (unbalanced and balanced), and at
# module scope.
{ printf '%s\n' "$HDR"; printf '%s' "$body_open"; rep 10000 '{'
  printf '\n%s' "$body_close"; } >"$out/big_braces_open.ptx"
{ printf '%s\n' "$HDR"; printf '%s' "$body_open"; rep 10000 '{'
  printf '\n\tmov.u32 %%r1, 1;\n'; rep 10000 '}'; printf '\n%s' "$body_close"; } \
    >"$out/big_braces_balanced.ptx"
{ printf '%s\n' "$HDR"; rep 10000 '{'; printf '\n'; } >"$out/big_braces_module.ptx"
{ printf '%s\n' "$HDR"; rep 10000 '}'; printf '\n'; } >"$out/big_braces_close.ptx"
{ printf '%s\n' "$HDR"; printf '%s' "$body_open"
  rep 5000 '{ .reg .b32 %t; '; rep 5000 '} '; printf '\n%s' "$body_close"; } \
    >"$out/big_scopes.ptx"

# 10000 nested parentheses in an operand, balanced and not; long chains
# of unary and binary operators.
{ printf '%s\n' "$HDR"; printf '%s' "$body_open"; printf '\tmov.u32 %%r1, '
  rep 10000 '('; printf 1; rep 10000 ')'; printf ';\n%s' "$body_close"; } \
    >"$out/big_parens_balanced.ptx"
{ printf '%s\n' "$HDR"; printf '%s' "$body_open"; printf '\tmov.u32 %%r1, '
  rep 10000 '('; printf '1;\n%s' "$body_close"; } >"$out/big_parens_open.ptx"
{ printf '%s\n' "$HDR"; printf '%s' "$body_open"; printf '\tmov.u32 %%r1, '
  rep 10000 '-'; printf '1;\n\tmov.u32 %%r2, '; rep 10000 '!~'
  printf '1;\n%s' "$body_close"; } >"$out/big_unary_chain.ptx"
{ printf '%s\n' "$HDR"; printf '%s' "$body_open"; printf '\tmov.u32 %%r1, 1'
  rep 10000 ' + 1'; printf ';\n\tmov.u32 %%r2, 1'; rep 5000 ' ? 1 : 1'
  printf ';\n%s' "$body_close"; } >"$out/big_binary_chain.ptx"
{ printf '%s\n' "$HDR"; printf '.global .u32 g[10001] = {0'; rep 10000 ', 1'
  printf '};\n'; } >"$out/big_init_list.ptx"
{ printf '%s\n' "$HDR"; printf '.global .u32 g[2] = {0'; rep 10000 ', 1'
  printf '};\n'; } >"$out/big_init_too_many.ptx"

# 1000-digit numbers in every position that takes one.
digits=$(rep 100 1234567890)
{ printf '%s\n' "$HDR"; printf '%s' "$body_open"
  printf '\tmov.u32 %%r1, %s;\n\tmov.u64 %%rd1, 0x%s;\n\tmov.u32 %%r2, 0%s;\n' \
      "$digits" "$digits" "$(rep 1000 7)"
  printf '\tmov.u32 %%r3, 0b%s;\n\tmov.f32 %%r4, 0f%s;\n' "$(rep 1000 1)" "$digits"
  printf '\tmov.u32 %%r5, %s.5e%s;\n' "$digits" "$digits"
  printf '\tld.global.u32 %%r6, [%%rd1+%s];\n' "$digits"
  printf '%s' "$body_close"; } >"$out/big_number_operands.ptx"
printf '.version %s.%s\n.target sm_80\n.address_size 64\n' "$digits" "$digits" \
    >"$out/big_number_version.ptx"
{ printf '%s\n' "$HDR"; printf '.global .u32 a[%s];\n.global .b8 b[%s][%s];\n' \
      "$digits" "$digits" "$digits"
  printf '.global .align %s .u32 c;\n' "$digits"; } >"$out/big_number_array.ptx"
{ printf '%s\n' "$HDR"; printf '.visible .entry k()\n.maxntid %s, 1, 1\n{\n' "$digits"
  printf '\t.reg .b32 %%r<%s>;\n\t.loc 1 %s %s\n\tret;\n}\n' "$digits" "$digits" "$digits"
  printf '.file %s "x.cu"\n' "$digits"; } >"$out/big_number_directives.ptx"
digits=

# Huge register declarations.
for n in 99999999 16777216 16777217 4294967296 18446744073709551616 0; do
    { printf '%s\n' "$HDR"; printf '.visible .entry k()\n{\n'
      printf '\t.reg .b32 %%r<%s>;\n\t.reg .pred %%p<%s>;\n' "$n" "$n"
      printf '\tmov.u32 %%r1, 1;\n\tret;\n}\n'; } >"$out/big_regdecl_$n.ptx"
done
{ printf '%s\n' "$HDR"; printf '.visible .entry k()\n{\n'
  rep 20 '	.reg .b32 %r<100000>;
'; awk 'BEGIN { for (i = 0; i < 4; i++) printf "\t.reg .b32 %%v%d_<1000000>;\n", i }'
  printf '\tmov.u32 %%v3_999999, 1;\n\tret;\n}\n'; } >"$out/big_regdecl_repeated.ptx"

# Deeply nested initializer braces.
{ printf '%s\n' "$HDR"; printf '.global .u32 g[1] = '; rep 10000 '{'
  printf 1; rep 10000 '}'; printf ';\n'; } >"$out/big_init_nested.ptx"
{ printf '%s\n' "$HDR"; printf '.global .u32 g[2][2][2][2] = '; rep 10000 '{'
  printf ';\n'; } >"$out/big_init_nested_open.ptx"
{ printf '%s\n' "$HDR"; printf '.global .u64 g = '; rep 5000 'generic('
  printf g; rep 5000 ')'; printf ';\n'; } >"$out/big_init_generic.ptx"

# Many errors: the diagnostic limit and recovery must hold up.
{ printf '%s\n' "$HDR"; printf '%s' "$body_open"
  rep 5000 '	bogus.s32 %r1, %r2;
'; printf '%s' "$body_close"; } >"$out/big_many_errors.ptx"
{ printf '%s\n' "$HDR"; rep 3000 '} ; { ) ( ] [ , :
'; } >"$out/big_many_syntax_errors.ptx"
{ printf '%s\n' "$HDR"; printf '%s' "$body_open"
  rep 20000 'L:
'; printf '%s' "$body_close"; } >"$out/big_duplicate_labels.ptx"
{ printf '%s\n' "$HDR"
  awk 'BEGIN { for (i = 0; i < 3000; i++) printf ".visible .entry k%d()\n{\n\tret;\n}\n", i }'
} >"$out/big_many_functions.ptx"
{ printf '%s\n' "$HDR"; printf '%s' "$body_open"
  awk 'BEGIN { for (i = 0; i < 5000; i++) printf "$L%d:\n\tbra.uni $L%d;\n", i, (i * 7919) % 5000 }'
  printf '%s' "$body_close"; } >"$out/big_many_labels.ptx"

# ---------------------------------------------------------------- misc

: >"$out/misc_empty.ptx"
rep 10000 ';' >"$out/misc_only_semicolons.ptx"
printf ';\n' >"$out/misc_one_semicolon.ptx"
printf '\n\n\n' >"$out/misc_only_newlines.ptx"
printf '// only a comment' >"$out/misc_only_comment.ptx"
printf '/*' >"$out/misc_open_comment.ptx"
printf '"' >"$out/misc_open_string.ptx"
printf '.' >"$out/misc_lone_dot.ptx"
printf '%%' >"$out/misc_lone_percent.ptx"
printf '.version' >"$out/misc_version_eof.ptx"
printf '.version 9.' >"$out/misc_version_dot_eof.ptx"
printf '%s' "$HDR" | sed '$d' >"$out/misc_header_only.ptx"
printf '%s\n.visible .entry k(' "$HDR" >"$out/misc_params_eof.ptx"
printf '%s\n.visible .entry k()\n{\n\tret;\n}' "$HDR" >"$out/misc_no_final_newline.ptx"
printf '%s\n.visible .entry k() { ret; } }}} {{{ ret; }\n' "$HDR" >"$out/misc_extra_braces.ptx"

# A .section that never ends, and variants of its brace structure.
{ printf '%s\n' "$HDR"; printf '.section .debug_info\n{\n.b32 1\n.b8 2, 3\n'; } \
    >"$out/misc_section_noend.ptx"
{ printf '%s\n' "$HDR"; printf '.section .debug_str\n{\n$L__s0:\n.b8 "}"\n{{{\n'; } \
    >"$out/misc_section_nested.ptx"
{ printf '%s\n' "$HDR"; printf '.section .debug_info\n'; } >"$out/misc_section_nobrace.ptx"
{ printf '%s\n' "$HDR"; printf '.section\n'; } >"$out/misc_section_noname.ptx"
{ printf '%s\n' "$HDR"; printf '.section .debug_info {'; rep 10000 '{'; printf '\n'; } \
    >"$out/misc_section_deep.ptx"

# Line-ending and encoding variants of a valid file.
crlf_src="$here/seeds/predicates_sink.ptx"
awk '{ printf "%s\r\n", $0 }' "$crlf_src" >"$out/misc_crlf.ptx"
awk '{ printf "%s\r", $0 }' "$crlf_src" >"$out/misc_cr_only.ptx"
awk '{ printf "%s\n\r", $0 }' "$crlf_src" >"$out/misc_lfcr.ptx"
{ echo 239 187 191 | putbytes; cat "$crlf_src"; } >"$out/misc_bom.ptx"
awk '{ gsub(/\t/, "\f"); print }' "$crlf_src" >"$out/misc_formfeeds.ptx"
awk '{ gsub(/\t/, "\v"); print }' "$crlf_src" >"$out/misc_vtabs.ptx"

# UTF-8 (valid, overlong, truncated) in identifiers, labels, strings.
{ printf '%s\n' "$HDR"; printf '%s' "$body_open"; printf '\t.reg .b32 %%'
  echo 195 169 | putbytes; printf 't;\n\tmov.u32 %%'; echo 195 169 | putbytes
  printf 't, 1;\n$L_'; echo 226 130 172 | putbytes; printf ':\n\tbra.uni $L_'
  echo 226 130 172 | putbytes; printf ';\n%s' "$body_close"; } >"$out/misc_utf8_ident.ptx"
{ printf '%s\n' "$HDR"; printf '.visible .entry k_'; echo 240 159 152 128 | putbytes
  printf '()\n{\n\tret;\n}\n'; } >"$out/misc_utf8_emoji.ptx"
{ printf '%s\n' "$HDR"; printf '.global .u32 x'; echo 192 175 | putbytes
  printf ';\n.global .u32 y'; echo 237 160 128 | putbytes
  printf ';\n.global .u32 z'; echo 226 130 | putbytes; } >"$out/misc_utf8_bad.ptx"
{ printf '%s\n' "$HDR"; printf '.pragma "'; echo 226 130 172 0 255 | putbytes
  printf '";\n// comment '; echo 255 254 | putbytes; printf '\n'; } >"$out/misc_utf8_string.ptx"

# Directives and operands cut short or out of place.
{ printf '%s\n' "$HDR"; printf '.reg .b32 %%r<4>;\nadd.s32 %%r1, %%r2, %%r3;\n$L:\nret;\n}\n'; } \
    >"$out/misc_body_at_module.ptx"
{ printf '%s\n' "$HDR"; printf '%s' "$body_open"
  printf '\t.visible .entry inner()\n\t{\n\tret;\n\t}\n%s' "$body_close"; } \
    >"$out/misc_nested_entry.ptx"
{ printf '%s\n' "$HDR"; printf '%s' "$body_open"
  printf '\tld.global.v4.u32 {%%r1, %%r2, {%%r3, {%%r4}}}, [[[%%rd1]]];\n'
  printf '\tst.global.u32 [%%rd1+%%rd2+%%rd3], %%r1;\n'
  printf '\tadd.s32 %%r1|%%r2|%%r3, !!%%r1, -%%r2;\n\t@@%%p1 bra;\n\t@ ret;\n'
  printf '\tcall.uni (((, ))), , ();\n\tmov.u32 %%tid.q.x.y, %%r1;\n'
  printf '%s' "$body_close"; } >"$out/misc_operand_soup.ptx"
{ printf '.version 9.0 .target sm_80 .address_size 64 .visible .entry k() { ret; }'; } \
    >"$out/misc_one_line.ptx"
{ printf '.target sm_80\n.version 9.0\n.address_size 64\n.version 8.0\n.target sm_90\n'; } \
    >"$out/misc_header_order.ptx"
{ printf '%s\n' "$HDR"; printf '.global .samplerref s = { addr_mode_0 = , = wrap, filter_mode };\n'
  printf '.global .texref t = { 1, 2 };\n'; } >"$out/misc_sampler_init.ptx"
{ printf '%s\n' "$HDR"; printf '%s' "$body_open"
  printf '\t.loc 1 2 3, function_name , inlined_at 1\n\t.loc\n\t.file\n\t.pragma;\n'
  printf '\t.pragma 5;\n\t$x: .branchtargets ;\n\tbrx.idx %%r1, $x;\n'
  printf '\tp: .callprototype (.param .b32 _) _ (;\n'
  printf '%s' "$body_close"; } >"$out/misc_directive_soup.ptx"

# ------------------------------------------------- past crashes, verbatim

for f in "$here"/found/*; do
    [ -f "$f" ] || continue
    cat "$f" >"$out/$(basename "$f")"
done
