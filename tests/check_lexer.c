/*
 * tests/check_lexer.c: the scanner on its own: token kinds, values,
 * locations, comments, sections, and its error reports.
 */
#include "config.h"

#include "testutil.h"
#include "ptx/build.h"
#include "ptx/parser.h"
#define YYSTYPE PTX_YYSTYPE
#define YYLTYPE PTX_YYLTYPE
#include "ptx/lexer.h"

typedef struct Tok {
    int kind;
    PtxTok tok;
    int line, col;
} Tok;

/* Scan src into toks (at most max); returns the count.  The text is
 * scanned in place in a static buffer, so token texts stay valid until
 * the next call. */
static int scan(const char *src0, Tok *toks, int max, PtxDiag *d)
{
    static PtxParse ps;
    static char src[4096];
    size_t n0 = strlen(src0);
    ck_assert_uint_lt(n0 + 2, sizeof(src));
    memcpy(src, src0, n0);
    src[n0] = src[n0 + 1] = '\0';
    memset(&ps, 0, sizeof(ps));
    ptx_diag_init(d, "t.ptx", src, strlen(src), NULL);
    ps.diag = d;
    ps.line = 1;
    ps.col = 1;
    ps.src = src;
    ps.srclen = strlen(src);
    yyscan_t sc;
    ck_assert_int_eq(ptx_yylex_init_extra(&ps, &sc), 0);
    YY_BUFFER_STATE b = ptx_yy_scan_buffer(src, n0 + 2, sc);
    int n = 0;
    for (;;) {
        PTX_YYSTYPE v;
        PTX_YYLTYPE l;
        memset(&v, 0, sizeof(v));
        int k = ptx_yylex(&v, &l, sc);
        if (k == 0 || n == max) {
            break;
        }
        toks[n].kind = k;
        toks[n].tok = v.tok;
        toks[n].line = l.first_line;
        toks[n].col = l.first_column;
        n++;
    }
    ptx_yy_delete_buffer(b, sc);
    ptx_yylex_destroy(sc);
    return n;
}

static bool text_is(const Tok *t, const char *s)
{
    return t->tok.len == strlen(s) &&
           memcmp(t->tok.s, s, t->tok.len) == 0;
}

START_TEST(test_words_and_directives)
{
    Tok t[32];
    PtxDiag d;
    int n = scan("ld.global.nc.v4.f32 {%f1,_}, [%rd2+-8];\n"
                 ".reg .b32 %r<10>;", t, 32, &d);
    ck_assert_int_eq(d.nerrors, 0);
    ck_assert_int_eq(t[0].kind, T_WORD);
    ck_assert(text_is(&t[0], "ld.global.nc.v4.f32"));
    ck_assert_int_eq(t[1].kind, '{');
    ck_assert_int_eq(t[2].kind, T_WORD);
    ck_assert(text_is(&t[2], "%f1"));
    ck_assert_int_eq(t[3].kind, ',');
    ck_assert_int_eq(t[4].kind, T_WORD);
    ck_assert(text_is(&t[4], "_"));
    ck_assert_int_eq(t[6].kind, ',');
    ck_assert_int_eq(t[7].kind, '[');
    ck_assert(text_is(&t[8], "%rd2"));
    ck_assert_int_eq(t[9].kind, '+');
    ck_assert_int_eq(t[10].kind, '-');
    ck_assert_int_eq(t[11].kind, T_INT);
    ck_assert_uint_eq(t[11].tok.v, 8);
    ck_assert_int_eq(t[14].kind, T_SPACE);
    ck_assert_int_eq((int)t[14].tok.v, PTX_SPACE_REG);
    ck_assert_int_eq(t[15].kind, T_TYPE);
    ck_assert_int_eq((int)t[15].tok.v, PTX_T_B32);
    ck_assert_int_eq(t[14].line, 2);
    ck_assert_int_eq(t[14].col, 1);
    ck_assert_int_eq(t[15].col, 6);
    ck_assert_int_eq(t[17].kind, '<');
    ck_assert_int_eq(n, 21);
    ptx_diag_fini(&d);
}
END_TEST

START_TEST(test_literals)
{
    Tok t[16];
    PtxDiag d;
    int n = scan("17 0x1F 017 0b101 42U 0f3F800000 0D4000000000000000 1.5 "
                 "9223372036854775808 99999999999999999999", t, 16, &d);
    ck_assert_int_eq(n, 10);
    ck_assert_uint_eq(t[0].tok.v, 17);
    ck_assert_uint_eq(t[1].tok.v, 31);
    ck_assert_uint_eq(t[2].tok.v, 15);
    ck_assert_uint_eq(t[3].tok.v, 5);
    ck_assert_uint_eq(t[4].tok.v, 42);
    ck_assert(t[4].tok.flags & NUM_UNSIGNED);
    ck_assert(!(t[0].tok.flags & NUM_UNSIGNED));
    ck_assert_int_eq(t[5].kind, T_FLT);
    ck_assert_uint_eq(t[5].tok.v, 0x3F800000u);
    ck_assert_int_eq(t[5].tok.flags, 32);
    ck_assert_int_eq(t[6].tok.flags, 64);
    ck_assert_uint_eq(t[6].tok.v, 0x4000000000000000ull);
    ck_assert_int_eq(t[7].kind, T_FLT);
    ck_assert_int_eq(t[7].tok.flags, 0);
    /* 2^63 does not fit .s64: it is .u64 (PTX ISA 4.5.1). */
    ck_assert(t[8].tok.flags & NUM_UNSIGNED);
    ck_assert(!(t[8].tok.flags & NUM_OVERFLOW));
    ck_assert(t[9].tok.flags & NUM_OVERFLOW);
    ptx_diag_fini(&d);
}
END_TEST

START_TEST(test_comments_and_lines)
{
    Tok t[8];
    PtxDiag d;
    int n = scan("// line comment\n/* block\n comment */ ret; /**/\n  exit;",
                 t, 8, &d);
    ck_assert_int_eq(n, 4);
    ck_assert(text_is(&t[0], "ret"));
    ck_assert_int_eq(t[0].line, 3);
    ck_assert_int_eq(t[0].col, 13);
    ck_assert(text_is(&t[2], "exit"));
    ck_assert_int_eq(t[2].line, 4);
    ck_assert_int_eq(t[2].col, 3);
    ptx_diag_fini(&d);
}
END_TEST

START_TEST(test_section_is_one_token)
{
    Tok t[8];
    PtxDiag d;
    const char *src = ".section .debug_info { .b8 1 { nested } .b32 x }\nret;";
    int n = scan(src, t, 8, &d);
    ck_assert_int_eq(d.nerrors, 0);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(t[0].kind, T_SECTION);
    ck_assert_int_eq(t[1].kind, T_WORD);
    ck_assert_int_eq(t[1].line, 2);
    ptx_diag_fini(&d);
}
END_TEST

START_TEST(test_lexer_errors)
{
    Tok t[8];
    PtxDiag d;
    scan("add \x01 `", t, 8, &d);
    ck_assert_int_eq(d.nerrors, 2);
    ck_assert(strstr(d.buf, "t.ptx:1:5: error: unexpected byte 0x01"));
    ck_assert(strstr(d.buf, "t.ptx:1:7: error: unexpected character '`'"));
    ptx_diag_fini(&d);
    scan("/* never closed", t, 8, &d);
    ck_assert(strstr(d.buf, "t.ptx:1:1: error: unterminated comment"));
    ptx_diag_fini(&d);
    scan("\"abc", t, 8, &d);
    ck_assert(strstr(d.buf, "unterminated string"));
    ptx_diag_fini(&d);
    scan("#include <x>", t, 8, &d);
    ck_assert(strstr(d.buf, "preprocessor directives are not supported"));
    ptx_diag_fini(&d);
}
END_TEST

START_TEST(test_keyword_table)
{
    Tok t[8];
    PtxDiag d;
    int n = scan(".entry .func .visible .v4 .align .texref .frobnicate", t, 8,
                 &d);
    ck_assert_int_eq(n, 7);
    ck_assert_int_eq(t[0].kind, T_ENTRY);
    ck_assert_int_eq(t[1].kind, T_FUNC);
    ck_assert_int_eq(t[2].kind, T_LINKAGE);
    ck_assert_int_eq(t[3].kind, T_VEC);
    ck_assert_uint_eq(t[3].tok.v, 4);
    ck_assert_int_eq(t[4].kind, T_ALIGN);
    ck_assert_int_eq(t[5].kind, T_TEXREF);
    ck_assert_int_eq(t[6].kind, T_DOTNAME);
    ptx_diag_fini(&d);
}
END_TEST

static Suite *lexer_suite(void)
{
    Suite *s = suite_create("lexer");
    TCase *tc = tcase_create("scan");
    tcase_add_test(tc, test_words_and_directives);
    tcase_add_test(tc, test_literals);
    tcase_add_test(tc, test_comments_and_lines);
    tcase_add_test(tc, test_section_is_one_token);
    tcase_add_test(tc, test_lexer_errors);
    tcase_add_test(tc, test_keyword_table);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(lexer_suite());
}
