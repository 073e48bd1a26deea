/*
 * tests/check_timing_params.c: the timing host's parameter tables
 * (timing/params.c) and statistics registry (timing/statreg.c).
 *
 *  - parse: config files ('#' comments, blanks, quotes, suffixes),
 *    overrides and their precedence, typed values against hand-computed
 *    numbers.
 *  - errors: every located message, exactly, from a table of inputs.
 *  - files: refusals of a missing file, a directory, a FIFO, a file over
 *    1 MiB, a NUL byte.
 *  - misuse: reads of undeclared names or with the wrong type return
 *    zero and are reported by tm_params_check_unused.
 *  - help: the --timing-help table, byte for byte.
 *  - stats: registration refusals, marks and deltas, JSON text.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/testutil.h"
#include "timing/tm.h"

Suite *timing_params_suite(void);

static char tmpdir[64];

static void setup_dir(void)
{
    snprintf(tmpdir, sizeof(tmpdir), "/tmp/tmparamsXXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
}

/* Write text (len bytes) to tmpdir/name; the path goes to path. */
static void write_file(const char *name, const char *text, size_t len,
                       char *path, size_t pathlen)
{
    snprintf(path, pathlen, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(text, 1, len, f), len);
    ck_assert_int_eq(fclose(f), 0);
}

static const ptxemu_tm_param table[] = {
    {"sched.width", PTXEMU_TM_P_UINT, "4", "warps issued per SM per cycle"},
    {"l1.size", PTXEMU_TM_P_UINT, "32k", "L1 bytes"},
    {"offset", PTXEMU_TM_P_INT, "-3", "signed knob"},
    {"clock", PTXEMU_TM_P_DOUBLE, "1410.5", "core clock, MHz"},
    {"trace", PTXEMU_TM_P_BOOL, "off", "print every issue"},
    {"policy", PTXEMU_TM_P_STRING, "gto", "warp scheduling policy"},
};
#define NTABLE ((uint32_t)(sizeof(table) / sizeof(table[0])))

/* ---------------------------------------------------------------- parse */

START_TEST(defaults)
{
    TmParams *p = tm_params_new();
    char err[512] = "";
    ck_assert_int_eq(tm_params_declare(p, table, NTABLE, err, sizeof(err)), 0);
    ck_assert_uint_eq(tm_params_uint(p, "sched.width"), 4);
    ck_assert_uint_eq(tm_params_uint(p, "l1.size"), 32 * 1024);
    ck_assert_int_eq(tm_params_int(p, "offset"), -3);
    ck_assert_double_eq(tm_params_double(p, "clock"), 1410.5);
    ck_assert(!tm_params_bool(p, "trace"));
    ck_assert_str_eq(tm_params_string(p, "policy"), "gto");
    ck_assert_int_eq(tm_params_check_unused(p, err, sizeof(err)), 0);
    tm_params_free(p);
}
END_TEST

START_TEST(file_values)
{
    static const char text[] =
        "# a timing configuration\n"
        "\n"
        "  sched.width=010   # decimal, not octal\n"
        "l1.size = 0x40K\n"
        "\toffset\t=\t-9223372036854775808\r\n"
        "clock = 1.5e3\n"
        "trace = ON\n"
        "policy = \"  lrr # kept \"  # comment\n"
        "# trailing comment without newline";
    char path[128], err[512] = "";
    write_file("a.cfg", text, sizeof(text) - 1, path, sizeof(path));
    TmParams *p = tm_params_new();
    ck_assert_msg(!tm_params_read_file(p, path, err, sizeof(err)), "%s", err);
    ck_assert_msg(!tm_params_declare(p, table, NTABLE, err, sizeof(err)),
                  "%s", err);
    ck_assert_uint_eq(tm_params_uint(p, "sched.width"), 10);
    ck_assert_uint_eq(tm_params_uint(p, "l1.size"), 64 * 1024);
    ck_assert(tm_params_int(p, "offset") == INT64_MIN);
    ck_assert_double_eq(tm_params_double(p, "clock"), 1500.0);
    ck_assert(tm_params_bool(p, "trace"));
    ck_assert_str_eq(tm_params_string(p, "policy"), "  lrr # kept ");
    ck_assert_int_eq(tm_params_check_unused(p, err, sizeof(err)), 0);
    tm_params_free(p);
}
END_TEST

/* Overrides win over files whatever the call order; among overrides the
 * last wins; a later file wins over an earlier one. */
START_TEST(precedence)
{
    char a[128], b[128], err[512] = "";
    write_file("a.cfg", "sched.width = 1\nl1.size = 1\noffset = 1\n", 39,
               a, sizeof(a));
    write_file("b.cfg", "sched.width = 2\nl1.size = 2\n", 28, b, sizeof(b));
    TmParams *p = tm_params_new();
    ck_assert_int_eq(tm_params_set(p, "sched.width=7", err, sizeof(err)), 0);
    ck_assert_int_eq(tm_params_read_file(p, a, err, sizeof(err)), 0);
    ck_assert_int_eq(tm_params_read_file(p, b, err, sizeof(err)), 0);
    ck_assert_int_eq(tm_params_set(p, " sched.width = 9 ", err, sizeof(err)),
                     0);
    ck_assert_int_eq(tm_params_declare(p, table, NTABLE, err, sizeof(err)), 0);
    ck_assert_uint_eq(tm_params_uint(p, "sched.width"), 9);
    ck_assert_uint_eq(tm_params_uint(p, "l1.size"), 2);
    ck_assert_int_eq(tm_params_int(p, "offset"), 1);
    /* Set after declare: parsed at once. */
    ck_assert_int_eq(tm_params_set(p, "l1.size=3G", err, sizeof(err)), 0);
    ck_assert_uint_eq(tm_params_uint(p, "l1.size"), 3ull << 30);
    ck_assert_int_eq(tm_params_set(p, "policy=", err, sizeof(err)), 0);
    ck_assert_str_eq(tm_params_string(p, "policy"), "");
    ck_assert_int_eq(tm_params_check_unused(p, err, sizeof(err)), 0);
    tm_params_free(p);
}
END_TEST

/* Typed parsing edges, each checked through a one-entry table. */
static const struct {
    ptxemu_tm_ptype type;
    const char *text;
    int ok;
    int64_t i;                  /* expected int / uint (as bits) */
    double d;
    int b;
} typed[] = {
    {PTXEMU_TM_P_UINT, "0", 1, 0, 0, 0},
    {PTXEMU_TM_P_UINT, "18446744073709551615", 1, -1, 0, 0},
    {PTXEMU_TM_P_UINT, "18446744073709551616", 0, 0, 0, 0},
    {PTXEMU_TM_P_UINT, "16G", 1, 17179869184, 0, 0},
    {PTXEMU_TM_P_UINT, "17179869184G", 0, 0, 0, 0},
    {PTXEMU_TM_P_UINT, "17179869183G", 1, (int64_t)0xFFFFFFFFC0000000ull, 0,
     0},
    {PTXEMU_TM_P_UINT, "2m", 1, 2097152, 0, 0},
    {PTXEMU_TM_P_UINT, "-1", 0, 0, 0, 0},
    {PTXEMU_TM_P_UINT, "+1", 0, 0, 0, 0},
    {PTXEMU_TM_P_UINT, "0x", 0, 0, 0, 0},
    {PTXEMU_TM_P_UINT, "0xffK", 1, 255 * 1024, 0, 0},
    {PTXEMU_TM_P_UINT, "4kb", 0, 0, 0, 0},
    {PTXEMU_TM_P_UINT, "1.5", 0, 0, 0, 0},
    {PTXEMU_TM_P_UINT, "", 0, 0, 0, 0},
    {PTXEMU_TM_P_INT, "9223372036854775807", 1, INT64_MAX, 0, 0},
    {PTXEMU_TM_P_INT, "9223372036854775808", 0, 0, 0, 0},
    {PTXEMU_TM_P_INT, "-2k", 1, -2048, 0, 0},
    {PTXEMU_TM_P_INT, "+5", 1, 5, 0, 0},
    {PTXEMU_TM_P_INT, "--5", 0, 0, 0, 0},
    {PTXEMU_TM_P_DOUBLE, "-0.25", 1, 0, -0.25, 0},
    {PTXEMU_TM_P_DOUBLE, "1e999", 0, 0, 0, 0},
    {PTXEMU_TM_P_DOUBLE, "nan", 0, 0, 0, 0},
    {PTXEMU_TM_P_DOUBLE, "inf", 0, 0, 0, 0},
    {PTXEMU_TM_P_DOUBLE, "3x", 0, 0, 0, 0},
    {PTXEMU_TM_P_BOOL, "Yes", 1, 0, 0, 1},
    {PTXEMU_TM_P_BOOL, "0", 1, 0, 0, 0},
    {PTXEMU_TM_P_BOOL, "false", 1, 0, 0, 0},
    {PTXEMU_TM_P_BOOL, "maybe", 0, 0, 0, 0},
    {PTXEMU_TM_P_BOOL, "2", 0, 0, 0, 0},
};

static const char *const what[] = {
    "an integer", "an unsigned integer", "a finite number",
    "a boolean (0/1, true/false, yes/no, on/off)", "a string",
};

START_TEST(typed_values)
{
    const ptxemu_tm_param tt = {"k", typed[_i].type, "0", "h"};
    TmParams *p = tm_params_new();
    char kv[128], err[512] = "";
    snprintf(kv, sizeof(kv), "k=%s", typed[_i].text);
    ck_assert_int_eq(tm_params_set(p, kv, err, sizeof(err)), 0);
    int rc = tm_params_declare(p, &tt, 1, err, sizeof(err));
    if (!typed[_i].ok) {
        char want[512];
        snprintf(want, sizeof(want), "--timing-set: '%s' is not %s for 'k'",
                 typed[_i].text, what[typed[_i].type]);
        ck_assert_int_eq(rc, -1);
        ck_assert_str_eq(err, want);
        tm_params_free(p);
        return;
    }
    ck_assert_msg(rc == 0, "%s: %s", typed[_i].text, err);
    switch (typed[_i].type) {
    case PTXEMU_TM_P_INT:
        ck_assert(tm_params_int(p, "k") == typed[_i].i);
        break;
    case PTXEMU_TM_P_UINT:
        ck_assert(tm_params_uint(p, "k") == (uint64_t)typed[_i].i);
        break;
    case PTXEMU_TM_P_DOUBLE:
        ck_assert_double_eq(tm_params_double(p, "k"), typed[_i].d);
        break;
    case PTXEMU_TM_P_BOOL:
        ck_assert_int_eq(tm_params_bool(p, "k"), typed[_i].b);
        break;
    default:
        ck_abort();
    }
    tm_params_free(p);
}
END_TEST

/* ---------------------------------------------------------------- errors */

/* A config file (text) against `table`; the message expected after
 * "PATH:" ("" for none), from reading, declaring or the unused check. */
static const struct {
    const char *text;
    const char *want;
} file_errors[] = {
    {"sched.width = 2\n\nl1.kb = 4\n",
     "3: unknown key 'l1.kb' (--timing-help lists the parameters)"},
    {"l1.kb = 4\nzz = 1\nyy=2\n",
     "1: unknown key 'l1.kb' (and 2 more unknown keys; --timing-help lists "
     "the parameters)"},
    {"sched.width = abc\n",
     "1: 'abc' is not an unsigned integer for 'sched.width'"},
    {"# ok\noffset = 1.5\n", "2: '1.5' is not an integer for 'offset'"},
    {"clock = fast\n", "1: 'fast' is not a finite number for 'clock'"},
    {"trace = maybe\n", "1: 'maybe' is not a boolean (0/1, true/false, "
     "yes/no, on/off) for 'trace'"},
    {"sched.width\n", "1: expected 'key = value'"},
    {"= 3\n", "1: '' is not a parameter name (letters, digits, '_', '.', "
     "'-')"},
    {"l1 size = 3\n", "1: 'l1 size' is not a parameter name (letters, "
     "digits, '_', '.', '-')"},
    {"offset = 1\nclock = 2\noffset = 3\n", "3: 'offset' is already set at "
     "line 1"},
    {"policy = \"lrr\n", "1: unterminated \"string\""},
    {"policy = \"lrr\" x\n", "1: text after the closing quote"},
    {"policy = ok\nclock = 1\0\n", "2: a NUL byte (not a text file)"},
};

START_TEST(file_error_messages)
{
    char path[128], err[512] = "", want[768];
    size_t len = strlen(file_errors[_i].text);
    if (strstr(file_errors[_i].want, "NUL")) {
        len += 2;                           /* the NUL and the newline */
    }
    write_file("e.cfg", file_errors[_i].text, len, path, sizeof(path));
    snprintf(want, sizeof(want), "%s:%s", path, file_errors[_i].want);
    TmParams *p = tm_params_new();
    int rc = tm_params_read_file(p, path, err, sizeof(err));
    if (!rc) {
        rc = tm_params_declare(p, table, NTABLE, err, sizeof(err));
    }
    if (!rc) {
        rc = tm_params_check_unused(p, err, sizeof(err));
    }
    ck_assert_int_eq(rc, -1);
    ck_assert_str_eq(err, want);
    tm_params_free(p);
}
END_TEST

START_TEST(override_errors)
{
    char err[512] = "";
    TmParams *p = tm_params_new();
    ck_assert_int_eq(tm_params_set(p, "nokey", err, sizeof(err)), -1);
    ck_assert_str_eq(err, "--timing-set: expected 'key = value'");
    ck_assert_int_eq(tm_params_set(p, "a/b=1", err, sizeof(err)), -1);
    ck_assert_str_eq(err, "--timing-set: 'a/b' is not a parameter name "
                     "(letters, digits, '_', '.', '-')");
    /* '#' is not a comment in an override: it is part of the value. */
    ck_assert_int_eq(tm_params_set(p, "sched.width=4#x", err, sizeof(err)), 0);
    ck_assert_int_eq(tm_params_declare(p, table, NTABLE, err, sizeof(err)),
                     -1);
    ck_assert_str_eq(err, "--timing-set: '4#x' is not an unsigned integer for "
                     "'sched.width'");
    tm_params_free(p);

    /* After declaring, a bad override is refused at once. */
    p = tm_params_new();
    ck_assert_int_eq(tm_params_declare(p, table, NTABLE, err, sizeof(err)), 0);
    ck_assert_int_eq(tm_params_set(p, "offset=x", err, sizeof(err)), -1);
    ck_assert_str_eq(err, "--timing-set: 'x' is not an integer for 'offset'");
    ck_assert_int_eq(tm_params_set(p, "l1.kb=1", err, sizeof(err)), 0);
    ck_assert_int_eq(tm_params_check_unused(p, err, sizeof(err)), -1);
    ck_assert_str_eq(err, "--timing-set: unknown key 'l1.kb' (--timing-help "
                     "lists the parameters)");
    tm_params_free(p);
}
END_TEST

START_TEST(declare_errors)
{
    char err[512] = "";
    TmParams *p = tm_params_new();
    ck_assert_int_eq(tm_params_declare(p, table, 2, err, sizeof(err)), 0);
    ck_assert_int_eq(tm_params_declare(p, table + 1, 1, err, sizeof(err)), -1);
    ck_assert_str_eq(err, "parameter 'l1.size' is declared twice");
    /* The refused table left nothing behind; the next one declares. */
    ck_assert_int_eq(tm_params_declare(p, table + 2, 4, err, sizeof(err)), 0);

    static const ptxemu_tm_param bad_def = {"x", PTXEMU_TM_P_UINT, "zz", ""};
    ck_assert_int_eq(tm_params_declare(p, &bad_def, 1, err, sizeof(err)), -1);
    ck_assert_str_eq(err, "parameter 'x': default 'zz' is not an unsigned "
                     "integer");
    static const ptxemu_tm_param bad_name = {"x y", PTXEMU_TM_P_UINT, "1", ""};
    ck_assert_int_eq(tm_params_declare(p, &bad_name, 1, err, sizeof(err)), -1);
    ck_assert_str_eq(err, "parameter 0 of the table: 'x y' is not a parameter "
                     "name (letters, digits, '_', '.', '-')");
    static const ptxemu_tm_param no_name = {NULL, PTXEMU_TM_P_UINT, "1", ""};
    ck_assert_int_eq(tm_params_declare(p, &no_name, 1, err, sizeof(err)), -1);
    ck_assert_str_eq(err, "parameter 0 of the table: '(null)' is not a "
                     "parameter name (letters, digits, '_', '.', '-')");
    static const ptxemu_tm_param bad_type = {"t", (ptxemu_tm_ptype)9, "1", ""};
    ck_assert_int_eq(tm_params_declare(p, &bad_type, 1, err, sizeof(err)), -1);
    ck_assert_str_eq(err, "parameter 't': unknown type 9");
    ck_assert_int_eq(tm_params_declare(p, NULL, 3, err, sizeof(err)), -1);
    ck_assert_str_eq(err, "a parameter table of 3 entries is NULL");
    /* NULL default: the empty text (fine for a string, not a number). */
    static const ptxemu_tm_param null_def = {"s", PTXEMU_TM_P_STRING, NULL,
                                             NULL};
    ck_assert_int_eq(tm_params_declare(p, &null_def, 1, err, sizeof(err)), 0);
    ck_assert_str_eq(tm_params_string(p, "s"), "");
    tm_params_free(p);
}
END_TEST

/* ---------------------------------------------------------------- files */

START_TEST(file_refusals)
{
    char path[192], want[512], err[512] = "";
    TmParams *p = tm_params_new();

    snprintf(path, sizeof(path), "%s/missing.cfg", tmpdir);
    ck_assert_int_eq(tm_params_read_file(p, path, err, sizeof(err)), -1);
    snprintf(want, sizeof(want), "%s: No such file or directory", path);
    ck_assert_str_eq(err, want);

    ck_assert_int_eq(tm_params_read_file(p, tmpdir, err, sizeof(err)), -1);
    snprintf(want, sizeof(want), "%s: not a regular file", tmpdir);
    ck_assert_str_eq(err, want);

    /* A FIFO nobody writes: refused at once, not waited on. */
    snprintf(path, sizeof(path), "%s/fifo", tmpdir);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    ck_assert_int_eq(tm_params_read_file(p, path, err, sizeof(err)), -1);
    snprintf(want, sizeof(want), "%s: not a regular file", path);
    ck_assert_str_eq(err, want);

    /* 1 MiB is accepted (all comment), one byte more is not. */
    size_t n = 1u << 20;
    char *big = malloc(n + 1);
    memset(big, '#', n + 1);
    big[n - 1] = '\n';
    write_file("big.cfg", big, n, path, sizeof(path));
    ck_assert_msg(!tm_params_read_file(p, path, err, sizeof(err)), "%s", err);
    write_file("big.cfg", big, n + 1, path, sizeof(path));
    ck_assert_int_eq(tm_params_read_file(p, path, err, sizeof(err)), -1);
    snprintf(want, sizeof(want), "%s: larger than 1048576 bytes (a timing "
             "config is a short list of key = value lines)", path);
    ck_assert_str_eq(err, want);
    free(big);
    tm_params_free(p);
}
END_TEST

/* ---------------------------------------------------------------- misuse */

START_TEST(misuse_reported)
{
    char err[512] = "";
    TmParams *p = tm_params_new();
    ck_assert_int_eq(tm_params_declare(p, table, NTABLE, err, sizeof(err)), 0);
    ck_assert_uint_eq(tm_params_uint(p, "nope"), 0);
    ck_assert_int_eq(tm_params_int(p, "sched.width"), 0);   /* a uint */
    ck_assert_str_eq(tm_params_string(p, "clock"), "");
    ck_assert(!tm_params_bool(p, NULL));
    ck_assert_int_eq(tm_params_check_unused(p, err, sizeof(err)), -1);
    /* The first misuse is the one reported. */
    ck_assert_str_eq(err, "the timing model read parameter 'nope', which it "
                     "did not declare");
    tm_params_free(p);

    p = tm_params_new();
    ck_assert_int_eq(tm_params_declare(p, table, NTABLE, err, sizeof(err)), 0);
    ck_assert_double_eq(tm_params_double(p, "trace"), 0.0);
    ck_assert_int_eq(tm_params_check_unused(p, err, sizeof(err)), -1);
    ck_assert_str_eq(err, "the timing model read bool parameter 'trace' as "
                     "double");
    tm_params_free(p);
}
END_TEST

/* ---------------------------------------------------------------- help */

START_TEST(help_table)
{
    char err[512] = "";
    TmParams *p = tm_params_new();
    ck_assert_int_eq(tm_params_declare(p, table, NTABLE, err, sizeof(err)), 0);
    /* A value given does not change the help's default column. */
    ck_assert_int_eq(tm_params_set(p, "clock=1", err, sizeof(err)), 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    tm_params_print_help(p, f);
    fclose(f);
    ck_assert_str_eq(buf,
        "  parameter    type    default  help\n"
        "  sched.width  uint    4        warps issued per SM per cycle\n"
        "  l1.size      uint    32k      L1 bytes\n"
        "  offset       int     -3       signed knob\n"
        "  clock        double  1410.5   core clock, MHz\n"
        "  trace        bool    off      print every issue\n"
        "  policy       string  \"gto\"    warp scheduling policy\n");
    free(buf);
    tm_params_free(p);
}
END_TEST

/* ---------------------------------------------------------------- stats */

/* --timing-config NAME: a shipped configuration by name, a path as it
 * is, an unknown name unchanged (its open error names it), and
 * PTXEMU_CONFIG_DIR first. */
START_TEST(config_by_name)
{
    char buf[4096];
    const char *p = tm_config_resolve("gt200", buf, sizeof buf);
    ck_assert_ptr_eq(p, buf);
    size_t n = strlen(p);
    ck_assert_msg(n > 10 && !strcmp(p + n - 10, "/gt200.cfg"), "%s", p);
    ck_assert_msg(access(p, R_OK) == 0, "%s", p);
    ck_assert_str_eq(tm_config_resolve("./gt200", buf, sizeof buf),
                     "./gt200");
    ck_assert_str_eq(tm_config_resolve("no-such-config", buf, sizeof buf),
                     "no-such-config");
    ck_assert_ptr_null(tm_config_resolve(NULL, buf, sizeof buf));
    char path[256];
    snprintf(path, sizeof path, "%s/mine.cfg", tmpdir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("gpu.arch = gt200\n", f);
    fclose(f);
    setenv("PTXEMU_CONFIG_DIR", tmpdir, 1);
    ck_assert_str_eq(tm_config_resolve("mine", buf, sizeof buf), path);
    unsetenv("PTXEMU_CONFIG_DIR");
    ck_assert_str_eq(tm_config_resolve("mine", buf, sizeof buf), "mine");
    unlink(path);
}
END_TEST

/* Thousands of counters (a model's per-SM, per-cache ones): each path
 * once, a second registration of any refused, the order kept. */
START_TEST(stats_registry_many)
{
    enum { N = 3000 };
    static uint64_t ctr[N];
    TmStats *s = tm_stats_new();
    char path[32];
    for (int i = 0; i < N; i++) {
        snprintf(path, sizeof path, "sm%d.c%d", i / 7, i % 7);
        ck_assert_int_eq(tm_stats_add(s, path, &ctr[i], NULL), 0);
    }
    for (int i = 0; i < N; i += 499) {
        snprintf(path, sizeof path, "sm%d.c%d", i / 7, i % 7);
        ck_assert_int_eq(tm_stats_add(s, path, &ctr[0], NULL), TM_STATS_EDUP);
    }
    ck_assert_int_eq(tm_stats_add(s, "sm0.c7", &ctr[0], NULL), 0);
    ck_assert_uint_eq(tm_stats_count(s), N + 1);
    for (int i = 0; i < N; i++) {
        snprintf(path, sizeof path, "sm%d.c%d", i / 7, i % 7);
        ck_assert_str_eq(tm_stats_name(s, (size_t)i), path);
    }
    ck_assert_str_eq(tm_stats_name(s, N), "sm0.c7");
    tm_stats_free(s);
}
END_TEST

START_TEST(stats_registry)
{
    uint64_t issued = 5, hits = 0, wrap = UINT64_MAX - 1, late = 100;
    TmStats *s = tm_stats_new();
    ck_assert_int_eq(tm_stats_add(s, "sm0.issued", &issued, "warp insns"), 0);
    ck_assert_int_eq(tm_stats_add(s, "sm0.l1.hit", &hits, NULL), 0);
    ck_assert_int_eq(tm_stats_add(s, "wrap", &wrap, "wraps"), 0);
    ck_assert_int_eq(tm_stats_add(s, "sm0.issued", &hits, "again"),
                     TM_STATS_EDUP);
    ck_assert_int_eq(tm_stats_add(s, "bad path", &hits, ""), TM_STATS_EINVAL);
    ck_assert_int_eq(tm_stats_add(s, "q\"uote", &hits, ""), TM_STATS_EINVAL);
    ck_assert_int_eq(tm_stats_add(s, "", &hits, ""), TM_STATS_EINVAL);
    ck_assert_int_eq(tm_stats_add(s, ".x", &hits, ""), TM_STATS_EINVAL);
    ck_assert_int_eq(tm_stats_add(s, "x.", &hits, ""), TM_STATS_EINVAL);
    ck_assert_int_eq(tm_stats_add(s, "nullctr", NULL, ""), TM_STATS_EINVAL);
    ck_assert_int_eq(tm_stats_add(s, NULL, &hits, ""), TM_STATS_EINVAL);
    char longp[300];
    memset(longp, 'a', sizeof(longp));
    longp[256] = 0;
    ck_assert_int_eq(tm_stats_add(s, longp, &hits, ""), TM_STATS_EINVAL);
    longp[255] = 0;
    /* The same counter under a second path is allowed. */
    ck_assert_int_eq(tm_stats_add(s, longp, &hits, ""), 0);
    ck_assert_uint_eq(tm_stats_count(s), 4);
    ck_assert_str_eq(tm_stats_name(s, 1), "sm0.l1.hit");
    ck_assert_str_eq(tm_stats_help(s, 1), "");
    ck_assert_str_eq(tm_stats_help(s, 0), "warp insns");
    ck_assert_ptr_null(tm_stats_name(s, 4));

    /* Kernel 1: counts from the mark. */
    tm_stats_mark(s);
    issued += 12;
    hits += 3;
    wrap += 3;                                  /* wraps to 1 */
    ck_assert_int_eq(tm_stats_add(s, "late", &late, "from kernel_begin"), 0);
    late += 7;
    ck_assert_uint_eq(tm_stats_delta(s, 0), 12);
    ck_assert_uint_eq(tm_stats_delta(s, 2), 3);
    ck_assert_uint_eq(tm_stats_delta(s, 4), 7);
    ck_assert_uint_eq(tm_stats_delta(s, 9), 0);

    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    tm_stats_json(s, f);
    fclose(f);
    char want[1024];
    snprintf(want, sizeof(want), "{\"sm0.issued\": 12, \"sm0.l1.hit\": 3, "
             "\"wrap\": 3, \"%s\": 3, \"late\": 7}", longp);
    ck_assert_str_eq(buf, want);
    free(buf);

    /* Kernel 2: a fresh mark. */
    tm_stats_mark(s);
    issued += 1;
    ck_assert_uint_eq(tm_stats_delta(s, 0), 1);
    ck_assert_uint_eq(tm_stats_delta(s, 4), 0);
    tm_stats_free(s);

    s = tm_stats_new();
    buf = NULL;
    f = open_memstream(&buf, &len);
    tm_stats_json(s, f);
    fclose(f);
    ck_assert_str_eq(buf, "{}");
    free(buf);
    tm_stats_free(s);
}
END_TEST

Suite *timing_params_suite(void)
{
    Suite *s = suite_create("timing_params");
    TCase *tc = tcase_create("parse");
    tcase_add_checked_fixture(tc, setup_dir, teardown_dir);
    tcase_add_test(tc, defaults);
    tcase_add_test(tc, file_values);
    tcase_add_test(tc, precedence);
    tcase_add_loop_test(tc, typed_values, 0,
                        (int)(sizeof(typed) / sizeof(typed[0])));
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_add_checked_fixture(tc, setup_dir, teardown_dir);
    tcase_add_loop_test(tc, file_error_messages, 0,
                        (int)(sizeof(file_errors) / sizeof(file_errors[0])));
    tcase_add_test(tc, override_errors);
    tcase_add_test(tc, declare_errors);
    suite_add_tcase(s, tc);
    tc = tcase_create("files");
    tcase_add_checked_fixture(tc, setup_dir, teardown_dir);
    tcase_add_test(tc, file_refusals);
    tcase_add_test(tc, misuse_reported);
    tcase_add_test(tc, help_table);
    suite_add_tcase(s, tc);
    tc = tcase_create("stats");
    tcase_add_test(tc, stats_registry);
    tcase_add_test(tc, stats_registry_many);
    suite_add_tcase(s, tc);
    tc = tcase_create("configs");
    tcase_add_checked_fixture(tc, setup_dir, teardown_dir);
    tcase_add_test(tc, config_by_name);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(timing_params_suite());
}
