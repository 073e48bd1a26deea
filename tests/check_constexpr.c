/*
 * tests/check_constexpr.c: constant expressions and literals, through
 * the whole front end (a `mov` of the expression into a 64-bit register)
 * against hand-computed values.  Also the range checks: a literal past
 * 64 bits, .s64 overflow, division by zero, and immediates that do not
 * fit their instruction's type.
 */
#include "testutil.h"

typedef struct FoldCase {
    const char *id;
    const char *expr;
    const char *type;      /* instruction type of the mov */
    int64_t want;          /* raw 64-bit result */
} FoldCase;

static const FoldCase folds[] = {
    {"dec-01", "42", "s64", 42},
    {"hex-01", "0x7fffffffffffffff", "s64", INT64_MAX},
    {"hex-02", "0xFFFFFFFFFFFFFFFF", "u64", -1},
    {"oct-01", "0777", "s64", 511},
    {"bin-01", "0b101101", "s64", 45},
    {"uns-01", "18446744073709551615", "u64", -1},
    {"uns-02", "-1U", "u64", -1},
    {"add-01", "1+2*3", "s64", 7},
    {"par-01", "(1+2)*3", "s64", 9},
    {"sub-01", "10-20", "s64", -10},
    {"div-01", "-7/2", "s64", -3},           /* truncation toward zero */
    {"rem-01", "-7 % 2", "s64", -1},    /* "%2" alone would be a name */
    {"shl-01", "1<<62", "s64", (int64_t)1 << 62},
    {"shl-02", "1U<<63", "u64", INT64_MIN},
    {"shr-01", "-16>>2", "s64", -4},          /* arithmetic on .s64 */
    {"shr-02", "0x8000000000000000>>63", "u64", 1}, /* literal is .u64 */
    {"bit-01", "0xF0 | 0x0F", "s64", 0xFF},
    {"bit-02", "0xF0 & 0x3C", "s64", 0x30},
    {"bit-03", "0xF0 ^ 0xFF", "s64", 0x0F},
    {"not-01", "~0", "s64", -1},
    {"lnot-01", "!5", "s64", 0},
    {"cmp-01", "3 < 4", "s64", 1},
    {"cmp-02", "-1 < 1U", "s64", 0},          /* -1 becomes 2^64-1 */
    {"and-01", "2 && 0", "s64", 0},
    {"or-01", "0 || 3", "s64", 1},
    {"cond-01", "1 ? 10 : 20", "s64", 10},
    {"cond-02", "0 ? 10 : 20", "s64", 20},
    {"cast-01", "(.s64) 0xFFFFFFFFFFFFFFFF", "s64", -1},
    {"cast-02", "(.u64) -2", "u64", -2},
    {"min-01", "-9223372036854775807-1", "s64", INT64_MIN},
    {"wrap-01", "0xFFFFFFFFFFFFFFFF + 2", "u64", 1}, /* unsigned wraps */
    {"mul-01", "4294967296 * 2147483647", "s64", 9223372032559808512LL},
    {"neg-01", "-(-5)", "s64", 5},
};

static IrModule *mov_module(const char *type, const char *regtype,
                            const char *expr)
{
    char src[1024];
    snprintf(src, sizeof(src), PTX_HDR
             ".entry k() {\n .reg .%s %%x;\n mov.%s %%x, %s;\n ret;\n}\n",
             regtype, type, expr);
    return parse_ok(src);
}

START_TEST(test_fold)
{
    const FoldCase *c = &folds[_i];
    IrModule *m = mov_module(c->type, c->type[0] == 'u' ? "u64" : "s64",
                             c->expr);
    const IrInsn *in = &m->funcs[0]->insns[0];
    ck_assert_int_eq(in->opnds[1].kind, IR_O_IMM);
    ck_assert_msg(in->opnds[1].imm == c->want, "%s: %s = %lld, want %lld",
                  c->id, c->expr, (long long)in->opnds[1].imm,
                  (long long)c->want);
    ptx_module_free(m);
}
END_TEST

typedef struct ErrCase {
    const char *id;
    const char *expr;
    const char *want;
} ErrCase;

static const ErrCase errs[] = {
    {"big-01", "18446744073709551616", "does not fit in 64 bits"},
    {"big-02", "0x1FFFFFFFFFFFFFFFF", "does not fit in 64 bits"},
    {"ovf-01", "9223372036854775807 + 1", "overflows .s64"},
    {"ovf-02", "-9223372036854775807 - 2", "overflows .s64"},
    {"ovf-03", "4294967296 * 4294967296", "overflows .s64"},
    {"ovf-04", "1 << 63", "overflows .s64"},
    {"div-01", "1 / 0", "division by zero"},
    {"rem-01", "5 % (3 - 3)", "division by zero"},
    {"shf-01", "1 << 64", "shift count out of range"},
    {"oct-01", "09", "invalid octal literal"},
    {"lit-01", "12abc", "invalid numeric literal"},
};

START_TEST(test_fold_errors)
{
    const ErrCase *c = &errs[_i];
    char src[1024];
    snprintf(src, sizeof(src), PTX_HDR
             ".entry k() {\n .reg .s64 %%x;\n mov.s64 %%x, %s;\n ret;\n}\n",
             c->expr);
    parse_err(src, c->want);
}
END_TEST

/* Immediates must fit the instruction type (as signed or unsigned). */
typedef struct RangeCase {
    const char *type;
    const char *value;
    bool ok;
} RangeCase;

static const RangeCase ranges[] = {
    {"u32", "4294967295", true},
    {"u32", "-1", true},
    {"u32", "4294967296", false},
    {"s32", "-2147483648", true},
    {"s32", "-2147483649", false},
    {"u16", "65535", true},
    {"u16", "65536", false},
    {"s16", "-32768", true},
    {"s16", "-32769", false},
    {"u64", "18446744073709551615", true},
};

START_TEST(test_imm_range)
{
    const RangeCase *c = &ranges[_i];
    char src[1024];
    snprintf(src, sizeof(src), PTX_HDR
             ".entry k() {\n .reg .%s %%x;\n mov.%s %%x, %s;\n ret;\n}\n",
             c->type, c->type, c->value);
    if (c->ok) {
        ptx_module_free(parse_ok(src));
    } else {
        parse_err(src, "mov");
    }
}
END_TEST

/* Float literals keep their exact bits. */
START_TEST(test_float_literals)
{
    IrModule *m = parse_ok(PTX_HDR
        ".entry k() {\n .reg .f32 %f;\n .reg .f64 %d;\n"
        " mov.f32 %f, 0f3F800000;\n"
        " mov.f64 %d, 0d400921FB54442D18;\n"
        " mov.f64 %d, 1.5;\n"
        " mov.f64 %d, 2.5e-3;\n ret;\n}\n");
    const IrInsn *in = m->funcs[0]->insns;
    ck_assert_int_eq(in[0].opnds[1].kind, IR_O_FIMM);
    ck_assert_int_eq(in[0].opnds[1].fsize, 32);
    ck_assert_uint_eq((uint64_t)in[0].opnds[1].imm, 0x3F800000u);
    ck_assert_int_eq(in[1].opnds[1].fsize, 64);
    ck_assert_uint_eq((uint64_t)in[1].opnds[1].imm, 0x400921FB54442D18ull);
    ck_assert_uint_eq((uint64_t)in[2].opnds[1].imm, 0x3FF8000000000000ull);
    double d;
    int64_t bits = in[3].opnds[1].imm;
    memcpy(&d, &bits, sizeof(d));
    ck_assert(d == 2.5e-3);
    ptx_module_free(m);
}
END_TEST

static Suite *constexpr_suite(void)
{
    Suite *s = suite_create("constexpr");
    TCase *tc = tcase_create("fold");
    tcase_add_loop_test(tc, test_fold, 0, sizeof(folds) / sizeof(folds[0]));
    tcase_add_loop_test(tc, test_fold_errors, 0,
                        sizeof(errs) / sizeof(errs[0]));
    tcase_add_loop_test(tc, test_imm_range, 0,
                        sizeof(ranges) / sizeof(ranges[0]));
    tcase_add_test(tc, test_float_literals);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(constexpr_suite());
}
