# tests/lib.sh: shared by the shell tests.  Each test counts its cases
# and ends with one "tests: N passed, M failed" line (summed by .ci/run),
# exiting 1 on any failure, 77 when skipped.
: "${top_srcdir:=.}"
: "${top_builddir:=.}"
PTXEMU="$top_builddir/ptxemu"
T_PASS=0
T_FAIL=0

# In an --enable-asan build the CUDA drop-ins are instrumented: a program
# that is not (nvcc's output, the ABI checkers) can load them only with
# the ASan runtime preloaded.  Prefix such runs with $ASAN_ENV ("" in a
# normal build).  Leak checking stays on (the drop-ins free what they
# allocate), and a leak makes the program exit non-zero.
# A sanitizer report exits 86, not its default 1: 1 is also our programs'
# status for a reported error, which the tests expect on bad input.
ASAN_ENV=
_asan=$(ldd "$top_builddir/.libs/libcuda.so.1" 2>/dev/null |
        awk '/libasan/ { print $3; exit }')
if [ -n "$_asan" ]; then
    ASAN_ENV="env LD_PRELOAD=$_asan"
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86"
    UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86"
    export ASAN_OPTIONS UBSAN_OPTIONS
fi
# The same for an --enable-tsan build (ThreadSanitizer), with the
# suppressions of tests/tsan.supp.
_tsan=$(ldd "$top_builddir/.libs/libcuda.so.1" 2>/dev/null |
        awk '/libtsan/ { print $3; exit }')
if [ -n "$_tsan" ]; then
    ASAN_ENV="env LD_PRELOAD=$_tsan"
    TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS:}exitcode=86"
    # the drop-ins start their threads afresh in a forked child (CUDA
    # after fork, tests/check_fork): TSan would stop such a child
    TSAN_OPTIONS="$TSAN_OPTIONS:die_after_fork=0"
    # the e2e suites these tests rerun under a timing model spend most of
    # their time in TSan's checks of bulk copies and allocations (memcpy,
    # memset, malloc): far slower, not stuck, so Check's limits grow
    CK_TIMEOUT_MULTIPLIER=${CK_TIMEOUT_MULTIPLIER:-4}
    export CK_TIMEOUT_MULTIPLIER
    # absolute: the tests run programs from directories of their own
    TSAN_OPTIONS="$TSAN_OPTIONS:suppressions=$(cd "$top_srcdir" &&
                                               pwd)/tests/tsan.supp"
    export TSAN_OPTIONS
fi

t_pass() { T_PASS=$((T_PASS + 1)); }
t_fail() { T_FAIL=$((T_FAIL + 1)); echo "FAIL: $*"; }

t_done() {
    echo "tests: $T_PASS passed, $T_FAIL failed"
    [ "$T_FAIL" -eq 0 ] || exit 1
    exit 0
}

t_skip() {
    echo "SKIP: $*"
    exit 77
}
