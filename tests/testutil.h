/*
 * tests/testutil.h: small helpers shared by the Check suites.
 */
#ifndef PTXEMU_TESTUTIL_H
#define PTXEMU_TESTUTIL_H

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"

#define PTX_HDR ".version 9.0\n.target sm_80\n.address_size 64\n"

/* Parse src; fail the test (showing the diagnostics) if it does not. */
static inline IrModule *parse_ok(const char *src)
{
    PtxDiag d;
    IrModule *m = ptx_parse_string("t.ptx", src, strlen(src), &d, NULL);
    if (!m) {
        ck_abort_msg("expected to parse, got:\n%s", d.buf ? d.buf : "");
    }
    ptx_diag_fini(&d);
    return m;
}

/* Parse src, which must fail; the diagnostics must contain `want`.
 * Returns the number of errors reported. */
static inline unsigned parse_err(const char *src, const char *want)
{
    PtxDiag d;
    IrModule *m = ptx_parse_string("t.ptx", src, strlen(src), &d, NULL);
    if (m) {
        ptx_module_free(m);
        ptx_diag_fini(&d);
        ck_abort_msg("expected an error containing '%s'", want);
    }
    const char *buf = d.buf ? d.buf : "";
    if (!strstr(buf, want)) {
        char copy[2048];
        snprintf(copy, sizeof(copy), "%s", buf);
        ptx_diag_fini(&d);
        ck_abort_msg("expected '%s' in:\n%s", want, copy);
    }
    unsigned n = d.nerrors;
    ptx_diag_fini(&d);
    return n;
}

static inline int run_suite(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
