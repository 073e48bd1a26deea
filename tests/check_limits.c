/*
 * tests/check_limits.c: the front end's bounds on untrusted input
 * (issue 16): whole-file reads are limited and refuse devices
 * (ptx/readfile.h), and expressions and blocks nest at most
 * PTX_MAX_NESTING levels, so that no input can exhaust memory or
 * overflow the stack of the thread that parses it.  Parsing runs on a
 * 256 KiB thread stack (a worker thread's size in many programs): before
 * the bound, 3,000 terms of "1+1+..." overflowed it.
 */
#include <check.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ptx/build.h"
#include "ptx/ptx.h"
#include "ptx/readfile.h"

#define HDR ".version 8.0\n.target sm_80\n.address_size 64\n"

/* ------------------------------------------------------------ reads */

static char tmpdir[64];

static void tmp_setup(void)
{
    strcpy(tmpdir, "/tmp/check_limits.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void tmp_teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

START_TEST(test_read_regular)
{
    char path[128], *buf, why[128];
    size_t len;
    snprintf(path, sizeof path, "%s/a.ptx", tmpdir);
    write_file(path, "0123456789");
    ck_assert_int_eq(ptx_read_file(path, 10, &buf, &len, why, sizeof why),
                     PTX_READ_OK);
    ck_assert_uint_eq(len, 10);
    ck_assert_str_eq(buf, "0123456789");
    ck_assert_int_eq(buf[11], 0);       /* two NULs follow the data */
    free(buf);
    /* One byte over the limit: refused, nothing handed back. */
    ck_assert_int_eq(ptx_read_file(path, 9, &buf, &len, why, sizeof why),
                     PTX_READ_TOO_LARGE);
    ck_assert_ptr_null(buf);
    ck_assert_msg(strstr(why, "9-byte limit") != NULL, "%s", why);
    snprintf(path, sizeof path, "%s/none", tmpdir);
    ck_assert_int_eq(ptx_read_file(path, 10, &buf, &len, why, sizeof why),
                     PTX_READ_NOT_FOUND);
}
END_TEST

START_TEST(test_read_devices)
{
    char *buf, why[128];
    size_t len;
    /* /dev/zero never ends: before the limit, reading it took all of
     * the machine's memory. */
    ck_assert_int_eq(ptx_read_file("/dev/zero", PTX_READ_LIMIT, &buf, &len,
                                   why, sizeof why), PTX_READ_NOT_REGULAR);
    ck_assert_str_eq(why, "a character device, not a file");
    ck_assert_int_eq(ptx_read_file(tmpdir, PTX_READ_LIMIT, &buf, &len, why,
                                   sizeof why), PTX_READ_NOT_REGULAR);
    ck_assert_str_eq(why, "a directory, not a file");
}
END_TEST

/* A FIFO is read (a shell's <(...)), but only up to the limit, however
 * much the writer has to give. */
START_TEST(test_read_fifo_bounded)
{
    char path[128], *buf, why[128];
    size_t len;
    snprintf(path, sizeof path, "%s/fifo", tmpdir);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        static char block[65536];
        memset(block, 'x', sizeof block);
        FILE *w = fopen(path, "wb");
        for (int i = 0; w && i < 64; i++) {       /* 4 MiB, or SIGPIPE */
            fwrite(block, 1, sizeof block, w);
        }
        _exit(0);
    }
    ck_assert_int_eq(ptx_read_file(path, 100000, &buf, &len, why,
                                   sizeof why), PTX_READ_TOO_LARGE);
    ck_assert_ptr_null(buf);
    kill(pid, SIGKILL);
}
END_TEST

START_TEST(test_parse_file_device)
{
    PtxDiag d;
    IrModule *m = ptx_parse_file("/dev/zero", &d, NULL);
    ck_assert_ptr_null(m);
    ck_assert_msg(strstr(d.buf, "/dev/zero: error: cannot read: a character "
                         "device, not a file") != NULL, "%s", d.buf);
    ptx_diag_fini(&d);
}
END_TEST

/* ---------------------------------------------------------- nesting */

/* "<HDR>.global .u32 x = <expr>;" with the expression built from n
 * copies of `rep` around or after `core`. */
static char *global_with(const char *pre, unsigned npre, const char *core,
                         const char *post, unsigned npost)
{
    size_t n = strlen(HDR) + 64 + strlen(pre) * npre + strlen(core) +
               strlen(post) * npost;
    char *s = malloc(n);
    ck_assert_ptr_nonnull(s);
    char *p = s + sprintf(s, "%s.global .u32 x = ", HDR);
    for (unsigned i = 0; i < npre; i++) {
        p += sprintf(p, "%s", pre);
    }
    p += sprintf(p, "%s", core);
    for (unsigned i = 0; i < npost; i++) {
        p += sprintf(p, "%s", post);
    }
    sprintf(p, ";\n");
    return s;
}

typedef struct Job {
    char *src;
    uint32_t value;             /* x's initial value when parsed */
    int ok;
    char msg[512];
} Job;

static void *parse_job(void *arg)
{
    Job *j = arg;
    PtxDiag d;
    IrModule *m = ptx_parse_string("t.ptx", j->src, strlen(j->src), &d,
                                   NULL);
    j->ok = m != NULL;
    snprintf(j->msg, sizeof j->msg, "%s", d.buf ? d.buf : "");
    if (m) {
        const IrSymbol *g = m->globals[0];
        uint32_t v = 0;
        if (g->init) {
            memcpy(&v, g->init, sizeof v);
        }
        j->value = v;
        FILE *null = fopen("/dev/null", "w");
        ptx_print_module(null, m);      /* the printer recurses too */
        fclose(null);
        ptx_module_free(m);
    }
    ptx_diag_fini(&d);
    return NULL;
}

/* Parses src on a thread with a 256 KiB stack. */
static Job parse_small_stack(char *src)
{
    Job j = {src, 0, 0, ""};
    pthread_attr_t a;
    pthread_t t;
    ck_assert_int_eq(pthread_attr_init(&a), 0);
    ck_assert_int_eq(pthread_attr_setstacksize(&a, 256 * 1024), 0);
    ck_assert_int_eq(pthread_create(&t, &a, parse_job, &j), 0);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    pthread_attr_destroy(&a);
    free(src);
    return j;
}

START_TEST(test_sum_chain)
{
    /* 1+1+...+1, n terms: a tree n levels deep (left-associative). */
    Job j = parse_small_stack(global_with("1+", PTX_MAX_NESTING - 1, "1",
                                          "", 0));
    ck_assert_msg(j.ok, "%s", j.msg);
    ck_assert_uint_eq(j.value, PTX_MAX_NESTING);
    j = parse_small_stack(global_with("1+", PTX_MAX_NESTING, "1", "", 0));
    ck_assert(!j.ok);
    ck_assert_msg(strstr(j.msg, "error: expression nested more than 256 "
                         "levels deep") != NULL, "%s", j.msg);
    /* The input of the report: 100,000 terms, one error, no crash. */
    j = parse_small_stack(global_with("1+", 99999, "1", "", 0));
    ck_assert(!j.ok);
    ck_assert_ptr_nonnull(strstr(j.msg, "nested more than 256"));
    ck_assert_ptr_null(strstr(strstr(j.msg, "nested more") + 1,
                              "nested more"));
}
END_TEST

START_TEST(test_unary_and_parens)
{
    Job j = parse_small_stack(global_with("-", PTX_MAX_NESTING - 1, "1", "",
                                          0));
    ck_assert_msg(j.ok, "%s", j.msg);
    ck_assert_uint_eq(j.value, (uint32_t)-1);   /* 255 minus signs */
    j = parse_small_stack(global_with("~", PTX_MAX_NESTING, "1", "", 0));
    ck_assert(!j.ok);
    ck_assert_ptr_nonnull(strstr(j.msg, "nested more than 256"));
    /* Parentheses: each is a level. */
    j = parse_small_stack(global_with("(", PTX_MAX_NESTING - 1, "7", ")",
                                      PTX_MAX_NESTING - 1));
    ck_assert_msg(j.ok, "%s", j.msg);
    ck_assert_uint_eq(j.value, 7);
    j = parse_small_stack(global_with("(", 3000, "7", ")", 3000));
    ck_assert(!j.ok);
    ck_assert_ptr_nonnull(strstr(j.msg, "nested more than 256"));
    /* Deeper than the parser's own stack: bison's "memory exhausted"
     * becomes a message that says what is wrong. */
    j = parse_small_stack(global_with("(", 20000, "7", ")", 20000));
    ck_assert(!j.ok);
    ck_assert_msg(strstr(j.msg, "error: nesting too deep: more than 10000 "
                         "parentheses") != NULL, "%s", j.msg);
    ck_assert_ptr_null(strstr(j.msg, "memory exhausted"));
}
END_TEST

START_TEST(test_blocks)
{
    for (int deep = 0; deep < 2; deep++) {
        unsigned n = deep ? 3000 : PTX_MAX_NESTING - 1;
        char *s = malloc(strlen(HDR) + 128 + 4 * n);
        char *p = s + sprintf(s, "%s.global .u32 x = 5;\n.entry k() {\n",
                              HDR);
        for (unsigned i = 0; i < n; i++) {
            p += sprintf(p, "{\n");
        }
        p += sprintf(p, "ret;\n");
        for (unsigned i = 0; i < n; i++) {
            p += sprintf(p, "}\n");
        }
        sprintf(p, "}\n");
        Job j = parse_small_stack(s);
        if (deep) {
            ck_assert(!j.ok);
            ck_assert_msg(strstr(j.msg, "error: blocks nested more than 256 "
                                 "levels deep") != NULL, "%s", j.msg);
        } else {
            ck_assert_msg(j.ok, "%s", j.msg);
        }
    }
}
END_TEST

static Suite *limits_suite(void)
{
    Suite *s = suite_create("limits");
    TCase *tc = tcase_create("read");
    tcase_add_checked_fixture(tc, tmp_setup, tmp_teardown);
    tcase_add_test(tc, test_read_regular);
    tcase_add_test(tc, test_read_devices);
    tcase_add_test(tc, test_read_fifo_bounded);
    tcase_add_test(tc, test_parse_file_device);
    suite_add_tcase(s, tc);
    tc = tcase_create("nesting");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_sum_chain);
    tcase_add_test(tc, test_unary_and_parens);
    tcase_add_test(tc, test_blocks);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(limits_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
