/*
 * tests/check_panic.c: EMU_PANIC and EMU_ASSERT (emu/panic.h) report
 * our own bugs as one line naming the file and line on stderr and then
 * abort(); a true assertion does nothing, and the condition is evaluated
 * once.  Each panic runs in a forked child whose stderr is a pipe.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emu/panic.h"
#include "tests/testutil.h"

typedef void (*Body)(void);

/* Run body in a child; returns its wait status and its stderr in err. */
static int in_child(Body body, char *err, size_t cap)
{
    int fd[2];
    ck_assert_int_eq(pipe(fd), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(fd[0]);
        dup2(fd[1], 2);
        body();
        _exit(0);
    }
    close(fd[1]);
    size_t n = 0;
    ssize_t k;
    while (n + 1 < cap && (k = read(fd[0], err + n, cap - 1 - n)) > 0) {
        n += (size_t)k;
    }
    err[n] = 0;
    close(fd[0]);
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    return st;
}

/* Each body's panic is on the line after its enum (the report names
 * this file and that line). */
enum { PANIC_LINE = __LINE__ + 1 };
static void do_panic(void) { EMU_PANIC("frame %u of %u", 7u, 3u); }

enum { ASSERT_LINE = __LINE__ + 1 };
static void do_assert_false(void) { int depth = 0; EMU_ASSERT(depth > 0); }

static int evals;
static int count_eval(void)
{
    return ++evals;
}
static void do_assert_true(void)
{
    EMU_ASSERT(count_eval() == 1);
    EMU_ASSERT(evals == 1);
    if (evals != 1) {
        _exit(3);
    }
}

START_TEST(test_panic_reports_and_aborts)
{
    char err[512], want[256];
    int st = in_child(do_panic, err, sizeof(err));
    ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT,
                  "status %d, stderr: %s", st, err);
    ck_assert_msg(strstr(err, "ptxemu: internal error at "), "%s", err);
    snprintf(want, sizeof(want), "check_panic.c:%d: frame 7 of 3 ",
             PANIC_LINE);
    ck_assert_msg(strstr(err, want), "want '%s' in: %s", want, err);
    /* one line */
    ck_assert_ptr_eq(strchr(err, '\n'), err + strlen(err) - 1);
}
END_TEST

START_TEST(test_assert_false_aborts_with_condition)
{
    char err[512];
    int st = in_child(do_assert_false, err, sizeof(err));
    ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT,
                  "status %d, stderr: %s", st, err);
    char want[256];
    snprintf(want, sizeof(want),
             "check_panic.c:%d: assertion failed: depth > 0 ", ASSERT_LINE);
    ck_assert_msg(strstr(err, want), "want '%s' in: %s", want, err);
}
END_TEST

START_TEST(test_assert_true_is_silent_and_evaluates_once)
{
    char err[512];
    int st = in_child(do_assert_true, err, sizeof(err));
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
                  "status %d, stderr: %s", st, err);
    ck_assert_str_eq(err, "");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("panic");
    TCase *tc = tcase_create("panic");
    tcase_add_test(tc, test_panic_reports_and_aborts);
    tcase_add_test(tc, test_assert_false_aborts_with_condition);
    tcase_add_test(tc, test_assert_true_is_silent_and_evaluates_once);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
