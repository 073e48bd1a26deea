/*
 * tests/check_timing_loader.c: tm_load() (timing/loader.c), the built-in
 * registry and every refusal of a plug-in, against the shared objects of
 * tests/tmplug.c (one per broken variant, built by make check).
 *
 *  - accept: the well-formed plug-in loads (its init checked that the
 *    host zero-filled and stamped the table), twice, and by a bare file
 *    name relative to the current directory; every built-in model loads.
 *  - refuse: a missing file, a directory, a file that is not a shared
 *    object, no entry point, init refusing, a version too new or too old,
 *    a table too small, a NULL required callback, an unknown model name:
 *    each one line naming the file, exactly, and the object is closed
 *    again (dlopen RTLD_NOLOAD no longer finds it).
 *  - api: ptxemu_timing_help's text, the timing fields of
 *    ptxemu_device_options (defaults, "none", an older struct, bad lists,
 *    a refused model and ptxemu_device_create_error), and the
 *    PTXEMU_TIMING* variables split as the drop-in driver reads them.
 */
#include <check.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/envopts.h"
#include "runtime/ptxemu.h"
#include "tests/testutil.h"
#include "timing/tm.h"

Suite *timing_loader_suite(void);

/* top_builddir/tests/.libs/tmplug_VARIANT.so */
static void plug(const char *variant, char *buf, size_t len)
{
    const char *top = getenv("top_builddir");
    snprintf(buf, len, "%s/tests/.libs/tmplug_%s.so", top ? top : ".",
             variant);
}

static bool still_loaded(const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    if (h) {
        dlclose(h);
    }
    return h != NULL;
}

START_TEST(good_plugin)
{
    char path[512], err[512] = "";
    plug("good", path, sizeof(path));
    TmLoaded a, b;
    ck_assert_msg(!tm_load(path, &a, err, sizeof(err)), "%s", err);
    ck_assert_msg(!tm_load(path, &b, err, sizeof(err)), "%s", err);
    ck_assert_ptr_nonnull(a.dl);
    ck_assert_str_eq(a.spec, path);
    ck_assert_str_eq(a.ops.name, "tmplug");
    ck_assert_uint_eq(a.ops.abi_version, PTXEMU_TM_ABI_VERSION);
    ck_assert_uint_eq(a.ops.nparams, 2);
    ck_assert_str_eq(a.ops.params[0].name, "lat");
    ck_assert_ptr_nonnull(a.ops.create);
    ck_assert_ptr_null(a.ops.event);
    /* The same object, opened twice: one mapping, two references. */
    ck_assert_ptr_eq(a.ops.create, b.ops.create);
    tm_unload(&a);
    ck_assert_ptr_null(a.dl);
    ck_assert(still_loaded(path));
    tm_unload(&b);
    ck_assert(!still_loaded(path));
}
END_TEST

/* A plug-in built for version 1 (before ptxemu_tm_kernel's ABI 2
 * fields) still loads: versions PTXEMU_TM_ABI_MIN up are accepted, and
 * the host's newer fields are read only through struct_size. */
START_TEST(version1_plugin)
{
    char path[512], err[512] = "";
    plug("v1", path, sizeof(path));
    TmLoaded a;
    ck_assert_msg(!tm_load(path, &a, err, sizeof(err)), "%s", err);
    ck_assert_uint_eq(a.ops.abi_version, 1);
    ck_assert_uint_eq(PTXEMU_TM_ABI_MIN, 1);
    ck_assert_ptr_nonnull(a.ops.create);
    tm_unload(&a);
}
END_TEST

/* A plug-in built for version 2 with the ops table of versions 1 to 3
 * loads: each version's minimum table size is looked up in a row of its
 * own (the loader once read past its one-row table for every version
 * after 1). */
START_TEST(version2_plugin)
{
    char path[512], err[512] = "";
    plug("v2", path, sizeof(path));
    TmLoaded a;
    ck_assert_msg(!tm_load(path, &a, err, sizeof(err)), "%s", err);
    ck_assert_uint_eq(a.ops.abi_version, 2);
    ck_assert_ptr_nonnull(a.ops.create);
    tm_unload(&a);
}
END_TEST

/* "tmplug_good.so" means ./tmplug_good.so, not a library-path search. */
START_TEST(bare_name)
{
    char path[512], err[512] = "";
    plug("good", path, sizeof(path));
    *strrchr(path, '/') = 0;
    char here[4096];
    ck_assert_ptr_nonnull(getcwd(here, sizeof(here)));
    ck_assert_int_eq(chdir(path), 0);
    TmLoaded l;
    ck_assert_msg(!tm_load("tmplug_good.so", &l, err, sizeof(err)), "%s",
                  err);
    ck_assert_str_eq(l.ops.name, "tmplug");
    tm_unload(&l);
    ck_assert_int_eq(tm_load("tmplug_none.so", &l, err, sizeof(err)), -1);
    ck_assert_str_eq(err, "tmplug_none.so: cannot load timing plug-in: No "
                     "such file or directory");
    ck_assert_int_eq(chdir(here), 0);      /* for CK_FORK=no runs */
}
END_TEST

START_TEST(builtins_load)
{
    char err[512] = "";
    for (const TmBuiltin *b = tm_builtins; b->name; b++) {
        TmLoaded l;
        ck_assert_msg(!tm_load(b->name, &l, err, sizeof(err)), "%s", err);
        ck_assert_ptr_null(l.dl);
        ck_assert_ptr_nonnull(l.ops.name);
        tm_unload(&l);
    }
}
END_TEST

/* Variant -> the message after "PATH: ". */
static const struct {
    const char *variant;
    const char *want;
} refusals[] = {
    {"nosym", "not a ptxemu timing plug-in (no ptxemu_timing_plugin_init "
     "symbol)"},
    {"refuse", "ptxemu_timing_plugin_init refused to load (returned 3)"},
    {"newer", NULL},            /* the versions are computed below */
    {"older", NULL},
    {"small", NULL},
    {"nullcb", "required callback 'cycle' is NULL"},
};

START_TEST(refused)
{
    char path[512], err[512] = "", want[1024];
    plug(refusals[_i].variant, path, sizeof(path));
    const char *v = refusals[_i].variant;
    if (refusals[_i].want) {
        snprintf(want, sizeof(want), "%s: %s", path, refusals[_i].want);
    } else if (!strcmp(v, "small")) {
        snprintf(want, sizeof(want), "%s: its ops table is 16 bytes, smaller "
                 "than version %u's %zu", path, PTXEMU_TM_ABI_VERSION,
                 sizeof(ptxemu_tm_ops));
    } else {
        snprintf(want, sizeof(want), "%s: built for timing plug-in ABI "
                 "version %u; this ptxemu accepts versions %u to %u", path,
                 !strcmp(v, "newer") ? PTXEMU_TM_ABI_VERSION + 1 : 0,
                 PTXEMU_TM_ABI_MIN, PTXEMU_TM_ABI_VERSION);
    }
    TmLoaded l;
    memset(&l, 0xa5, sizeof(l));
    ck_assert_int_eq(tm_load(path, &l, err, sizeof(err)), -1);
    ck_assert_str_eq(err, want);
    ck_assert_ptr_null(l.dl);
    ck_assert_ptr_null(l.ops.create);
    ck_assert(!still_loaded(path));
    tm_unload(&l);                      /* a refused load unloads cleanly */
}
END_TEST

START_TEST(refused_files)
{
    char dir[] = "/tmp/tmloadXXXXXX", path[512], err[512] = "", want[1024];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    TmLoaded l;

    snprintf(path, sizeof(path), "%s/missing.so", dir);
    ck_assert_int_eq(tm_load(path, &l, err, sizeof(err)), -1);
    snprintf(want, sizeof(want), "%s: cannot load timing plug-in: No such "
             "file or directory", path);
    ck_assert_str_eq(err, want);

    snprintf(path, sizeof(path), "%s/", dir);
    ck_assert_int_eq(tm_load(path, &l, err, sizeof(err)), -1);
    snprintf(want, sizeof(want), "%s: cannot load timing plug-in: not a "
             "regular file", path);
    ck_assert_str_eq(err, want);

    snprintf(path, sizeof(path), "%s/text.so", dir);
    FILE *f = fopen(path, "w");
    fputs("not an ELF file\n", f);
    fclose(f);
    ck_assert_int_eq(tm_load(path, &l, err, sizeof(err)), -1);
    snprintf(want, sizeof(want), "%s: not a loadable shared object: ", path);
    ck_assert_msg(!strncmp(err, want, strlen(want)), "%s", err);
    ck_assert_ptr_null(strchr(err, '\n'));
    unlink(path);
    rmdir(dir);

    ck_assert_int_eq(tm_load("", &l, err, sizeof(err)), -1);
    ck_assert_str_eq(err, "no timing model given");
    ck_assert_int_eq(tm_load(NULL, &l, err, sizeof(err)), -1);
    ck_assert_str_eq(err, "no timing model given");

    /* An unknown name lists the built-in models. */
    char names[256] = "";
    for (const TmBuiltin *b = tm_builtins; b->name; b++) {
        snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
                 names[0] ? ", " : "", b->name);
    }
    snprintf(want, sizeof(want), "unknown timing model 'nosuch' (built in: "
             "%s; a plug-in is given by path, e.g. ./nosuch.so)",
             names[0] ? names : "none");
    ck_assert_int_eq(tm_load("nosuch", &l, err, sizeof(err)), -1);
    ck_assert_str_eq(err, want);
}
END_TEST

/* ---------------------------------------------------------------- api */

/* ptxemu_timing_help: the model's name, description and table, with
 * the parameters it declares at create. */
START_TEST(api_help)
{
    char path[512], err[512] = "";
    plug("good", path, sizeof(path));
    char *text = ptxemu_timing_help(path, err, sizeof(err));
    ck_assert_msg(text != NULL, "%s", err);
    ck_assert_str_eq(text,
        "timing model 'tmplug'\n"
        "  a test plug-in\n"
        "\n"
        "parameters (--timing-config FILE of `key = value` lines, "
        "--timing-set key=value):\n"
        "  parameter   type    default  help\n"
        "  lat         uint    4        latency\n"
        "  name        string  \"x\"      a name\n"
        "  late.width  int     8        declared at create\n");
    free(text);
    /* the values of the options apply to the instance listed: with
     * name=more the plug-in declares more.depth too */
    ptxemu_device_options o;
    ptxemu_device_options_default(&o);
    const char *const sets[] = { "name=more" };
    o.timing = path;
    o.timing_set = sets;
    o.ntiming_set = 1;
    text = ptxemu_timing_help_options(&o, err, sizeof(err));
    ck_assert_msg(text != NULL, "%s", err);
    ck_assert_ptr_nonnull(strstr(text,
        "  late.width  int     8        declared at create\n"
        "  more.depth  uint    3        declared when name = more\n"));
    free(text);
    o.timing = NULL;
    ck_assert_ptr_null(ptxemu_timing_help_options(&o, err, sizeof(err)));
    ck_assert_str_eq(err, "no timing model named");
    /* a model that will not start: its own table, and why the rest is
     * missing */
    plug("nostart", path, sizeof(path));
    text = ptxemu_timing_help(path, err, sizeof(err));
    ck_assert_msg(text != NULL, "%s", err);
    ck_assert_str_eq(text,
        "timing model 'tmplug'\n"
        "  a test plug-in\n"
        "\n"
        "parameters (--timing-config FILE of `key = value` lines, "
        "--timing-set key=value):\n"
        "  parameter  type    default  help\n"
        "  lat        uint    4        latency\n"
        "  name       string  \"x\"      a name\n"
        "\n"
        "(parameters the model declares when it starts are not listed: "
        "it did not start: timing model 'tmplug': tmplug: no start)\n");
    free(text);
    plug("newer", path, sizeof(path));
    ck_assert_ptr_null(ptxemu_timing_help(path, err, sizeof(err)));
    char newer[64];
    snprintf(newer, sizeof newer, "built for timing plug-in ABI version %u",
             PTXEMU_TM_ABI_VERSION + 1);
    ck_assert_ptr_nonnull(strstr(err, newer));
}
END_TEST

/* The device options: untimed by default and for "none"; a bad list or
 * a model that cannot load fails the create with a message; an older
 * options struct (without the timing fields) is untimed. */
START_TEST(api_device_options)
{
    ptxemu_device_options o;
    ptxemu_device *dev;
    ptxemu_device_options_default(&o);
    ck_assert_ptr_null(o.timing);
    ck_assert_uint_eq(o.ntiming_set, 0);
    o.timing = "none";
    ck_assert_int_eq(ptxemu_device_create(&o, &dev), PTXEMU_SUCCESS);
    ck_assert_str_eq(ptxemu_device_create_error(), "");
    ptxemu_device_destroy(dev);

    o.timing = "nosuch";
    o.size = offsetof(ptxemu_device_options, timing);   /* older caller */
    ck_assert_int_eq(ptxemu_device_create(&o, &dev), PTXEMU_SUCCESS);
    ptxemu_device_destroy(dev);

    ptxemu_device_options_default(&o);
    o.ntiming_set = 2;
    ck_assert_int_ne(ptxemu_device_create(&o, &dev), PTXEMU_SUCCESS);
    ck_assert_ptr_null(dev);
    ck_assert_str_eq(ptxemu_device_create_error(), "ptxemu_device_options: "
                     "2 timing_set entries but no list");
    const char *sets[] = {"a=1", NULL};
    o.timing_set = sets;
    ck_assert_int_ne(ptxemu_device_create(&o, &dev), PTXEMU_SUCCESS);
    ck_assert_str_eq(ptxemu_device_create_error(), "ptxemu_device_options: "
                     "timing_set[1] is NULL");

    char path[512], want[1024];
    plug("refuse", path, sizeof(path));
    ptxemu_device_options_default(&o);
    o.timing = path;
    ck_assert_int_ne(ptxemu_device_create(&o, &dev), PTXEMU_SUCCESS);
    snprintf(want, sizeof(want), "%s: ptxemu_timing_plugin_init refused to "
             "load (returned 3)", path);
    ck_assert_str_eq(ptxemu_device_create_error(), want);
}
END_TEST

/* PTXEMU_TIMING* variables, as the drop-in driver reads them. */
START_TEST(env_options)
{
    ptxemu_device_options o;
    unsigned arch;
    char err[256] = "";
    setenv("PTXEMU_TIMING", "./m.so", 1);
    setenv("PTXEMU_TIMING_CONFIG", "a.cfg", 1);
    setenv("PTXEMU_TIMING_SET", "a=1;b=2,,c=x y;", 1);
    ptxemu_device_options_default(&o);
    ck_assert_int_eq(ptxemu_env_device_options(&o, &arch, err, sizeof(err)),
                     0);
    ck_assert_str_eq(o.timing, "./m.so");
    ck_assert_str_eq(o.timing_config, "a.cfg");
    ck_assert_uint_eq(o.ntiming_set, 3);
    ck_assert_str_eq(o.timing_set[0], "a=1");
    ck_assert_str_eq(o.timing_set[1], "b=2");
    ck_assert_str_eq(o.timing_set[2], "c=x y");
    ptxemu_env_device_options_fini(&o);
    ck_assert_ptr_null(o.timing_set);
    ck_assert_uint_eq(o.ntiming_set, 0);
    /* a list value keeps its commas: a ',' ends an item only before
     * another KEY=VALUE */
    setenv("PTXEMU_TIMING_SET",
           "l1d.carveouts=0,8,16;a=1,b=2, 3,c.d=4,", 1);
    ptxemu_device_options_default(&o);
    ck_assert_int_eq(ptxemu_env_device_options(&o, &arch, err, sizeof(err)),
                     0);
    ck_assert_uint_eq(o.ntiming_set, 4);
    ck_assert_str_eq(o.timing_set[0], "l1d.carveouts=0,8,16");
    ck_assert_str_eq(o.timing_set[1], "a=1");
    ck_assert_str_eq(o.timing_set[2], "b=2, 3");
    ck_assert_str_eq(o.timing_set[3], "c.d=4");
    ptxemu_env_device_options_fini(&o);
    unsetenv("PTXEMU_TIMING_SET");
    unsetenv("PTXEMU_TIMING");
    unsetenv("PTXEMU_TIMING_CONFIG");
    ptxemu_device_options_default(&o);
    ck_assert_int_eq(ptxemu_env_device_options(&o, &arch, err, sizeof(err)),
                     0);
    ck_assert_ptr_null(o.timing);
    ck_assert_ptr_null(o.timing_set);
    ptxemu_env_device_options_fini(&o);
}
END_TEST

Suite *timing_loader_suite(void)
{
    Suite *s = suite_create("timing_loader");
    TCase *tc = tcase_create("accept");
    tcase_add_test(tc, good_plugin);
    tcase_add_test(tc, version1_plugin);
    tcase_add_test(tc, version2_plugin);
    tcase_add_test(tc, bare_name);
    tcase_add_test(tc, builtins_load);
    suite_add_tcase(s, tc);
    tc = tcase_create("refuse");
    tcase_add_loop_test(tc, refused, 0,
                        (int)(sizeof(refusals) / sizeof(refusals[0])));
    tcase_add_test(tc, refused_files);
    suite_add_tcase(s, tc);
    tc = tcase_create("api");
    tcase_add_test(tc, api_help);
    tcase_add_test(tc, api_device_options);
    tcase_add_test(tc, env_options);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(timing_loader_suite());
}
