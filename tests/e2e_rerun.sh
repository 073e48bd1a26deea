# tests/e2e_rerun.sh: sourced by the tests that rerun the e2e suites in
# another configuration (timing_corpus.test, client_corpus.test,
# reconv_corpus.test).  The
# suites check every corpus kernel against host reference code, so a
# configuration that changes a result fails them.
# rerun_e2e VAR=VALUE DESCRIPTION: run each suite with VAR=VALUE in its
# environment (read by tests/e2e_util.h's e2e_device), one case per
# suite; a failing suite is named with its failing checks.
rerun_e2e() {
    [ -x "$top_builddir/tests/check_e2e" ] ||
        t_skip "the e2e suites are not built (Check is not installed)"
    for s in check_e2e check_e2e_misc check_e2e_fp check_e2e_mma \
             check_e2e_cdp check_e2e_tma check_e2e_wgmma check_e2e_access \
             check_cluster check_mbarrier; do
        p="$top_builddir/tests/$s"
        if [ ! -x "$p" ]; then
            t_fail "$s: not built"
            continue
        fi
        out=$(env "$1" CK_VERBOSITY=normal "$p" 2>&1)
        if [ $? -eq 0 ]; then
            t_pass
            echo "ok: $s $2: $(echo "$out" | grep -Eo 'Checks: [0-9]+' |
                tail -n 1)"
        else
            t_fail "$s $2"
            echo "$out" | grep -E ':[FE]:' | head -n 20
        fi
    done
}
