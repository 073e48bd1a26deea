/*
 * tests/check_api_oom.c: the host API when memory runs out while a
 * module is installed.  calloc is interposed (glibc's __libc_calloc
 * does the work) so that one chosen request fails: the parameter table
 * of a kernel with 7 parameters, after another kernel's was made.  The
 * load must fail with PTXEMU_ERROR_OUT_OF_MEMORY, free what it made and
 * leave the device usable.  Skipped in sanitizer builds, whose
 * allocators must not be bypassed.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "runtime/ptxemu.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define INTERPOSED 0
#else
#define INTERPOSED 1
extern void *__libc_calloc(size_t n, size_t size);

static size_t fail_n;           /* 0: none armed */

void *calloc(size_t n, size_t size)
{
    if (fail_n && n == fail_n && size == sizeof(ptxemu_param_info)) {
        fail_n = 0;
        errno = ENOMEM;
        return NULL;
    }
    return __libc_calloc(n, size);
}
#endif

#define HDR ".version 9.0\n.target sm_80\n.address_size 64\n"

static const char two_kernels[] =
    HDR
    ".visible .entry one(.param .u32 a)\n{\n  ret;\n}\n"
    ".visible .entry seven(.param .u32 a, .param .u32 b, .param .u32 c,\n"
    "  .param .u32 d, .param .u32 e, .param .u32 f, .param .u32 g)\n"
    "{\n  ret;\n}\n";

START_TEST(param_table_short_of_memory)
{
    if (!INTERPOSED) {
        return;                 /* sanitizer build: see the top */
    }
    ptxemu_device *d = NULL;
    ck_assert_int_eq(ptxemu_device_create(NULL, &d), PTXEMU_SUCCESS);
    ptxemu_module *m = NULL;
#if INTERPOSED
    fail_n = 7;
#endif
    ck_assert_int_eq(ptxemu_module_load_string(d, "k", two_kernels, 0, &m),
                     PTXEMU_ERROR_OUT_OF_MEMORY);
    ck_assert_ptr_null(m);
    /* the same source loads once memory is there */
    ck_assert_int_eq(ptxemu_module_load_string(d, "k", two_kernels, 0, &m),
                     PTXEMU_SUCCESS);
    ptxemu_function *f = NULL;
    ck_assert_int_eq(ptxemu_module_get_function(m, "seven", &f),
                     PTXEMU_SUCCESS);
    ck_assert_uint_eq(ptxemu_function_num_params(f), 7);
    ptxemu_device_destroy(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("api_oom");
    TCase *t = tcase_create("module");
    tcase_add_test(t, param_table_short_of_memory);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
