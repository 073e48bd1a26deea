/*
 * tests/check_pool.c: the host threads of emu/pool.h.  Against its
 * contract: every k of 0..n-1 runs exactly once per call, k = 0 on the
 * caller and the others on distinct threads; the threads are kept (a
 * later call runs on the same kernel thread ids, gettid(2), as the first:
 * Linux hands out new ids in increasing order, so threads made anew
 * would show new ids); a call from inside a call and two calls from two
 * host threads at once both complete; a forked child (pthread_atfork)
 * runs calls of its own.
 */
#define _GNU_SOURCE
#include <check.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emu/pool.h"

#define MAXN 8

typedef struct Job {
    unsigned ran[MAXN];       /* atomic: times each k ran */
    long tid[MAXN];
    bool nest;                /* k = 1 starts a call of its own */
    unsigned inner;           /* what that call returned */
    struct Job *sub;
} Job;

static long tid_now(void) { return (long)syscall(SYS_gettid); }

static void body(void *ctx, unsigned k)
{
    Job *j = ctx;
    __atomic_fetch_add(&j->ran[k], 1, __ATOMIC_RELAXED);
    j->tid[k] = tid_now();
    if (j->nest && k == 1) {
        j->inner = emu_pool_run(3, body, j->sub);
    }
}

/* fn ran each k < n once, k = 0 here, the others on distinct threads */
static void check_job(const Job *j, unsigned n)
{
    for (unsigned k = 0; k < MAXN; k++) {
        ck_assert_uint_eq(j->ran[k], k < n ? 1u : 0u);
    }
    ck_assert_int_eq(j->tid[0], tid_now());
    for (unsigned a = 0; a < n; a++) {
        for (unsigned b = a + 1; b < n; b++) {
            ck_assert_int_ne(j->tid[a], j->tid[b]);
        }
    }
}

START_TEST(each_once_and_kept)
{
    long first[MAXN] = {0};
    for (int rep = 0; rep < 300; rep++) {
        unsigned n = 1 + (unsigned)rep % 5;   /* 1..5: grows and shrinks */
        Job j = {0};
        ck_assert_uint_eq(emu_pool_run(n, body, &j), n);
        check_job(&j, n);
        if (n == 5) {
            if (!first[1]) {
                for (unsigned k = 1; k < 5; k++) {
                    first[k] = j.tid[k];
                }
            }
            for (unsigned k = 1; k < 5; k++) {
                ck_assert_int_eq(j.tid[k], first[k]);   /* kept */
            }
        }
    }
}
END_TEST

START_TEST(nested_call)
{
    Job sub = {0}, j = {.nest = true, .sub = &sub};
    ck_assert_uint_eq(emu_pool_run(4, body, &j), 4);
    check_job(&j, 4);
    ck_assert_uint_eq(j.inner, 3);
    for (unsigned k = 0; k < MAXN; k++) {
        ck_assert_uint_eq(sub.ran[k], k < 3 ? 1u : 0u);
    }
}
END_TEST

static void *caller(void *p)
{
    Job *js = p;
    for (int rep = 0; rep < 100; rep++) {
        Job j = {0};
        if (emu_pool_run(3, body, &j) != 3) {
            return NULL;
        }
        for (unsigned k = 0; k < MAXN; k++) {
            if (j.ran[k] != (k < 3)) {
                return NULL;
            }
        }
    }
    return js;
}

START_TEST(two_callers)
{
    pthread_t t[2];
    Job tag[2];
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(pthread_create(&t[i], NULL, caller, &tag[i]), 0);
    }
    for (int i = 0; i < 2; i++) {
        void *r;
        pthread_join(t[i], &r);
        ck_assert_ptr_eq(r, &tag[i]);
    }
}
END_TEST

START_TEST(after_fork)
{
    Job j = {0};
    ck_assert_uint_eq(emu_pool_run(3, body, &j), 3);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        /* ThreadSanitizer refuses to start threads in the child of a
         * multi-threaded fork (its die_after_fork): there the child's
         * call asks for one thread only */
#ifdef __SANITIZE_THREAD__
        unsigned n = 1;
#else
        unsigned n = 3;
#endif
        Job c = {0};
        unsigned got = emu_pool_run(n, body, &c);
        bool ok = got == n;
        for (unsigned k = 0; k < MAXN; k++) {
            ok &= c.ran[k] == (k < n);
        }
        _exit(ok ? 0 : 1);
    }
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert(WIFEXITED(st));
    ck_assert_int_eq(WEXITSTATUS(st), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("pool");
    TCase *tc = tcase_create("pool");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, each_once_and_kept);
    tcase_add_test(tc, nested_call);
    tcase_add_test(tc, two_callers);
    tcase_add_test(tc, after_fork);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
