/*
 * tests/check_sanxml.c: the XML report of the sanitizer (check/xmlout.h,
 * SanOut with SAN_FMT_XML in check/report.h) on records written here:
 * each JSON record becomes one element with its members in order
 * (compared whole); escaping of & < > " and of bytes that are not
 * UTF-8; a line that is not an object becomes a comment; and a report
 * larger than SanOut's 1 MiB buffer comes out whole (every record once,
 * one header, one end).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/report.h"
#include "check/xmlout.h"

/* out's text so far (malloc'd) */
static char *text_of(FILE *f)
{
    fflush(f);
    long n = ftell(f);
    char *t = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(t);
    rewind(f);
    ck_assert_uint_eq(fread(t, 1, (size_t)n, f), (size_t)n);
    t[n] = '\0';
    return t;
}

/* (what's first character does not recur in it; not a strstr loop: a
 * sanitizer's strstr measures the whole rest of the string at every
 * call, which is quadratic in a report of megabytes) */
static size_t count(const char *s, const char *what)
{
    size_t n = 0, w = strlen(what);
    for (const char *p = s; (p = strchr(p, what[0])); p++) {
        n += strncmp(p, what, w) == 0;
    }
    return n;
}

START_TEST(one_record)
{
    FILE *f = tmpfile();
    SanOut o;
    san_out_init(&o, f, SAN_FMT_XML, 0);
    ck_assert(san_out_count(&o));
    fputs("{\"tool\":\"memcheck\",\"kind\":\"leak\",\"at\":{\"line\":7},"
          "\"thread\":[3,0,1],\"file\":\"a&b<c>\\\"d\\u0001\"}\n", o.out);
    san_out_summary(&o);
    char *t = text_of(f);
    ck_assert_str_eq(t,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<sanitize version=\"1\">\n"
        "  <error>\n"
        "    <tool>memcheck</tool>\n"
        "    <kind>leak</kind>\n"
        "    <at>\n"
        "      <line>7</line>\n"
        "    </at>\n"
        "    <thread>\n"
        "      <item>3</item>\n"
        "      <item>0</item>\n"
        "      <item>1</item>\n"
        "    </thread>\n"
        "    <file>a&amp;b&lt;c&gt;&quot;d?</file>\n"
        "  </error>\n"
        "  <summary>\n"
        "    <errors>1</errors>\n"
        "    <printed>1</printed>\n"
        "  </summary>\n"
        "</sanitize>\n");
    free(t);
    fclose(f);
}
END_TEST

START_TEST(utf8_and_bad_lines)
{
    FILE *f = tmpfile();
    /* "é" (valid UTF-8) is kept, a lone 0xff byte is not */
    const char in[] = "{\"file\":\"\xc3\xa9\xff\"}\nnot json\n{\"a\":}\n";
    san_xml_records(f, in, sizeof(in) - 1);
    char *t = text_of(f);
    ck_assert_str_eq(t,
        "  <error>\n"
        "    <file>\xc3\xa9?</file>\n"
        "  </error>\n"
        "  <!-- a record that is not a JSON object -->\n"
        "  <!-- a record that is not a JSON object -->\n");
    free(t);
    fclose(f);
}
END_TEST

START_TEST(large_report_whole)
{
    enum { N = 20000 };           /* about 1.5 MiB of records */
    FILE *f = tmpfile();
    SanOut o;
    san_out_init(&o, f, SAN_FMT_XML, 0);
    for (int i = 0; i < N; i++) {
        ck_assert(san_out_count(&o));
        fprintf(o.out, "{\"tool\":\"initcheck\",\"kind\":\"uninitialized\","
                "\"n\":%d,\"pad\":\"%040d\"}\n", i, i);
    }
    san_out_summary(&o);
    char *t = text_of(f);
    ck_assert_uint_eq(count(t, "<error>"), N);
    ck_assert_uint_eq(count(t, "<?xml"), 1);
    ck_assert_uint_eq(count(t, "<sanitize "), 1);
    ck_assert_uint_eq(count(t, "</sanitize>"), 1);
    ck_assert_ptr_nonnull(strstr(t, "<n>0</n>"));
    ck_assert_ptr_nonnull(strstr(t, "<n>19999</n>"));
    ck_assert_ptr_nonnull(strstr(t, "<errors>20000</errors>"));
    ck_assert_ptr_null(strstr(t, "<!--"));
    free(t);
    fclose(f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sanxml");
    TCase *tc = tcase_create("sanxml");
    tcase_add_test(tc, one_record);
    tcase_add_test(tc, utf8_and_bad_lines);
    tcase_add_test(tc, large_report_whole);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
