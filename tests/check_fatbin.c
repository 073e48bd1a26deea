/*
 * tests/check_fatbin.c: the fat-binary reader (runtime/fatbin).
 *
 * References: the fixtures in tests/fatbin were made by nvcc from our
 * own sources, and tests/fatbin/ref holds the PTX that nvcc itself
 * wrote for each (see tests/fatbin/regen.sh); the extracted PTX must
 * equal it byte for byte.  The arch rule, the wrapper forms and the
 * header fields are checked against hand-built images and against the
 * options regen.sh passed to nvcc and fatbinary.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/fatbin/fatbin.h"

/* ------------------------------------------------------------ helpers */

typedef struct blob {
    unsigned char *p;
    size_t n;
} blob;

static blob load(const char *rel)
{
    const char *top = getenv("top_srcdir");
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/fatbin/%s", top ? top : ".", rel);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    ck_assert(n >= 0);
    blob b = {malloc((size_t)n + 1), (size_t)n};
    ck_assert(b.p != NULL);
    ck_assert_uint_eq(fread(b.p, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    b.p[n] = 0;
    return b;
}

/* An exact-size copy, so that AddressSanitizer sees any over-read. */
static unsigned char *dup_bytes(const void *p, size_t n)
{
    unsigned char *d = malloc(n ? n : 1);
    ck_assert(d != NULL);
    memcpy(d, p, n);
    return d;
}

/* The bytes of one named section of an ELF fixture. */
static blob elf_section(const blob *file, const char *name)
{
    fatbin_section sec[8];
    char err[256];
    int n = fatbin_elf_sections(file->p, file->n, sec, 8, err, sizeof err);
    ck_assert_msg(n >= 0, "%s", err);
    for (int i = 0; i < n && i < 8; i++) {
        if (strcmp(sec[i].name, name) == 0) {
            blob b = {dup_bytes(file->p + sec[i].offset, sec[i].size),
                      sec[i].size};
            return b;
        }
    }
    ck_abort_msg("no section %s", name);
    return (blob){NULL, 0};
}

static void assert_same(const char *got, size_t len, const char *refname)
{
    char rel[256];
    snprintf(rel, sizeof rel, "ref/%s", refname);
    blob ref = load(rel);
    ck_assert_msg(len == ref.n, "%s: %zu bytes, reference %zu", refname,
                  len, ref.n);
    ck_assert_msg(memcmp(got, ref.p, len) == 0, "%s: bytes differ",
                  refname);
    ck_assert_msg(got[len] == 0, "%s: not NUL-terminated", refname);
    free(ref.p);
}

static void check_ptx(const void *img, size_t n, unsigned want,
                      const char *refname, unsigned want_chosen)
{
    char *ptx = NULL, err[512];
    size_t len = 0;
    unsigned arch = 0;
    int rc = fatbin_get_ptx(img, n, want, &ptx, &len, &arch, err,
                            sizeof err);
    ck_assert_msg(rc == 0, "%s: %s", refname, err);
    ck_assert_uint_eq(arch, want_chosen);
    assert_same(ptx, len, refname);
    free(ptx);
}

/* ------------------------------------------- PTX equals nvcc's own PTX */

static const struct {
    const char *fixture;
    unsigned want;              /* the GPU's arch */
    const char *ref;            /* the PTX that must come out */
    unsigned chosen;            /* its arch */
} raw_cases[] = {
    {"default.fatbin", 80, "default.compute_80.ptx", 80},
    {"default.fatbin", 90, "default.compute_80.ptx", 80},
    {"nocompress.fatbin", 80, "nocompress.compute_80.ptx", 80},
    {"lz4.fatbin", 86, "lz4.compute_80.ptx", 80},
    {"direct.fatbin", 86, "direct.compute_86.ptx", 86},
    {"direct.fatbin", 70, "direct.compute_86.ptx", 86},
    /* multi holds compute_80 and compute_90 PTX */
    {"multi.fatbin", 80, "multi.compute_80.ptx", 80},
    {"multi.fatbin", 86, "multi.compute_80.ptx", 80},
    {"multi.fatbin", 89, "multi.compute_80.ptx", 80},
    {"multi.fatbin", 90, "multi.compute_90.ptx", 90},
    {"multi.fatbin", 120, "multi.compute_90.ptx", 90},
    {"multi.fatbin", 75, "multi.compute_90.ptx", 90},
    {"multi.fatbin", 0, "multi.compute_90.ptx", 90},
};

START_TEST(raw_fixture_ptx)
{
    blob b = load(raw_cases[_i].fixture);
    unsigned char *img = dup_bytes(b.p, b.n);
    check_ptx(img, b.n, raw_cases[_i].want, raw_cases[_i].ref,
              raw_cases[_i].chosen);
    /* avail 0: the headers alone bound the reads */
    check_ptx(img, 0, raw_cases[_i].want, raw_cases[_i].ref,
              raw_cases[_i].chosen);
    free(img);
    free(b.p);
}
END_TEST

START_TEST(multi_refs_differ)
{
    /* so that the arch cases above can tell the two apart */
    blob a = load("ref/multi.compute_80.ptx");
    blob b = load("ref/multi.compute_90.ptx");
    ck_assert(a.n != b.n || memcmp(a.p, b.p, a.n) != 0);
    free(a.p);
    free(b.p);
}
END_TEST

START_TEST(elf_fixture_ptx)
{
    blob f = load("vadd.exe");
    blob s = elf_section(&f, ".nv_fatbin");
    /* the device-link container (SASS only), then the program's */
    check_ptx(s.p, s.n, 80, "vadd_exe.compute_80.ptx", 80);
    free(s.p);
    free(f.p);
    f = load("vadd.obj");
    s = elf_section(&f, ".nv_fatbin");
    check_ptx(s.p, s.n, 80, "vadd_o.compute_80.ptx", 80);
    free(s.p);
    free(f.p);
    f = load("rdc_lib.obj");
    s = elf_section(&f, "__nv_relfatbin");
    check_ptx(s.p, s.n, 80, "rdc_lib_o.compute_80.ptx", 80);
    free(s.p);
    free(f.p);
}
END_TEST

START_TEST(rdc_all_modules)
{
    blob f = load("rdc.exe");
    blob s = elf_section(&f, "__nv_relfatbin");
    char *ptx[4] = {0}, err[512];
    size_t len[4] = {0};
    int n = fatbin_get_all_ptx(s.p, s.n, 80, ptx, len, 4, err, sizeof err);
    ck_assert_msg(n == 2, "%d: %s", n, err);
    assert_same(ptx[0], len[0], "rdc.rdc_main.compute_80.ptx");
    assert_same(ptx[1], len[1], "rdc.rdc_lib.compute_80.ptx");
    free(ptx[0]);
    free(ptx[1]);
    /* max below the count: the count still, only max filled */
    n = fatbin_get_all_ptx(s.p, s.n, 80, ptx, len, 1, err, sizeof err);
    ck_assert_int_eq(n, 2);
    assert_same(ptx[0], len[0], "rdc.rdc_main.compute_80.ptx");
    free(ptx[0]);
    free(s.p);
    free(f.p);
}
END_TEST

/* -------------------------------------------------- wrapper and forms */

/* The registration wrapper's layout (fatbinary_section.h). */
typedef struct wrapper {
    uint32_t magic;
    uint32_t version;
    const void *data;
    const void *fatbins;
} wrapper;

START_TEST(wrapper_v1)
{
    blob b = load("default.fatbin");
    wrapper w = {FATBIN_WRAPPER_MAGIC, 1, b.p, NULL};
    check_ptx(&w, 0, 80, "default.compute_80.ptx", 80);
    check_ptx(&w, sizeof w, 80, "default.compute_80.ptx", 80);
    free(b.p);
}
END_TEST

static uint64_t container_len(const unsigned char *p)
{
    uint64_t body = 0;
    for (int i = 7; i >= 0; i--) {
        body = body << 8 | p[8 + i];
    }
    return 16 + body;
}

START_TEST(wrapper_v2_prelinked)
{
    blob f = load("rdc.exe");
    blob linked = elf_section(&f, ".nv_fatbin");
    blob rel = elf_section(&f, "__nv_relfatbin");
    const void *list[3] = {rel.p, rel.p + container_len(rel.p), NULL};
    wrapper w = {FATBIN_WRAPPER_MAGIC, 2, linked.p, list};
    char *ptx[4] = {0}, err[512];
    size_t len[4];
    int n = fatbin_get_all_ptx(&w, 0, 80, ptx, len, 4, err, sizeof err);
    ck_assert_msg(n == 2, "%d: %s", n, err);
    assert_same(ptx[0], len[0], "rdc.rdc_main.compute_80.ptx");
    assert_same(ptx[1], len[1], "rdc.rdc_lib.compute_80.ptx");
    free(ptx[0]);
    free(ptx[1]);
    fatbin_entry e[8];
    ck_assert_int_eq(fatbin_list(&w, 0, e, 8, err, sizeof err), 5);
    ck_assert_int_eq(e[0].kind, FATBIN_KIND_ELF);   /* the linked cubin */
    /* without the translation units only linked SASS remains */
    w.fatbins = NULL;
    char *one = NULL;
    ck_assert_int_eq(fatbin_get_ptx(&w, 0, 80, &one, NULL, NULL, err,
                                    sizeof err), -1);
    ck_assert_ptr_null(one);
    ck_assert_msg(strstr(err, "arch=compute_80,code=compute_80"), "%s",
                  err);
    free(linked.p);
    free(rel.p);
    free(f.p);
}
END_TEST

START_TEST(wrapper_bad)
{
    blob b = load("default.fatbin");
    char err[512], *ptx = NULL;
    wrapper w = {FATBIN_WRAPPER_MAGIC, 3, b.p, NULL};
    ck_assert_int_eq(fatbin_get_ptx(&w, 0, 80, &ptx, NULL, NULL, err,
                                    sizeof err), -1);
    ck_assert_msg(strstr(err, "version 3"), "%s", err);
    w.version = 1;
    w.data = NULL;
    ck_assert_int_eq(fatbin_get_ptx(&w, 0, 80, &ptx, NULL, NULL, err,
                                    sizeof err), -1);
    ck_assert_msg(strstr(err, "NULL"), "%s", err);
    w.data = b.p;
    ck_assert_int_eq(fatbin_get_ptx(&w, 10, 80, &ptx, NULL, NULL, err,
                                    sizeof err), -1);
    ck_assert_msg(strstr(err, "24 bytes"), "%s", err);
    free(b.p);
}
END_TEST

START_TEST(plain_ptx)
{
    static const char text[] =
        "// a comment\n/* another */\n.version 8.0\n.target sm_75\n"
        ".address_size 64\n";
    char *ptx = NULL, err[256];
    size_t len = 0;
    ck_assert_int_eq(fatbin_get_ptx(text, 0, 80, &ptx, &len, NULL, err,
                                    sizeof err), 0);
    ck_assert_uint_eq(len, strlen(text));
    ck_assert_str_eq(ptx, text);
    free(ptx);
    ck_assert_int_eq(fatbin_get_ptx(text, sizeof text, 80, &ptx, &len,
                                    NULL, err, sizeof err), 0);
    ck_assert_str_eq(ptx, text);
    free(ptx);
    fatbin_entry e;
    ck_assert_int_eq(fatbin_list(text, 0, &e, 1, err, sizeof err), 1);
    ck_assert_int_eq(e.kind, FATBIN_KIND_PTX);
    ck_assert_uint_eq(e.arch, 75);
    ck_assert_int_eq(fatbin_get_ptx("hello", 0, 80, &ptx, &len, NULL, err,
                                    sizeof err), -1);
    ck_assert_msg(strstr(err, "neither"), "%s", err);
    /* a cubin handed over alone (cuModuleLoadData accepts one) */
    blob b = load("default.fatbin");
    fatbin_entry_ex x;
    ck_assert_int_eq(fatbin_list_ex(b.p, b.n, &x, 1, err, sizeof err), 2);
    ck_assert_int_eq(x.e.kind, FATBIN_KIND_ELF);
    ck_assert_int_eq(fatbin_get_ptx(x.payload, x.e.stored_size, 80, &ptx,
                                    &len, NULL, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "cubin"), "%s", err);
    free(b.p);
    ck_assert_int_eq(fatbin_get_ptx("", 0, 80, &ptx, &len, NULL, err,
                                    sizeof err), -1);
    ck_assert_int_eq(fatbin_get_ptx(NULL, 0, 80, &ptx, &len, NULL, err,
                                    sizeof err), -1);
}
END_TEST

/* ------------------------------------------------------- entry fields */

START_TEST(fields_direct)
{
    /* regen.sh: fatbinary --ident=vadd.cu --cmdline="-O3" sm=86, zstd */
    blob b = load("direct.fatbin");
    blob ref = load("ref/direct.compute_86.ptx");
    fatbin_entry_ex x[2];
    char err[256];
    ck_assert_int_eq(fatbin_list_ex(b.p, b.n, x, 2, err, sizeof err), 1);
    ck_assert_int_eq(x[0].e.kind, FATBIN_KIND_PTX);
    ck_assert_uint_eq(x[0].e.arch, 86);
    ck_assert_int_eq(x[0].e.arch_suffix, 0);
    ck_assert_str_eq(x[0].e.identifier, "vadd.cu");
    ck_assert_str_eq(x[0].options, "-O3");
    ck_assert_int_eq(x[0].e.compressed, 1);
    ck_assert_int_eq(x[0].compression, FATBIN_COMP_ZSTD);
    /* the stored text keeps its NUL */
    ck_assert_uint_eq(x[0].e.size, ref.n + 1);
    ck_assert_uint_eq(x[0].version_major, 9);   /* .version 9.0 */
    ck_assert_uint_eq(x[0].version_minor, 0);
    ck_assert(memcmp(ref.p, ".version 9.0", 12) == 0 ||
              strstr((char *)ref.p, ".version 9.0") != NULL);
    unsigned char *data;
    size_t n;
    ck_assert_int_eq(fatbin_entry_bytes(&x[0], &data, &n, err, sizeof err),
                     0);
    ck_assert_uint_eq(n, ref.n + 1);
    ck_assert(memcmp(data, ref.p, ref.n) == 0 && data[ref.n] == 0);
    free(data);
    free(ref.p);
    free(b.p);
}
END_TEST

START_TEST(fields_kinds)
{
    static const struct {
        const char *fixture;
        int n;
        fatbin_compression ptx_comp;
    } cases[] = {
        {"default.fatbin", 2, FATBIN_COMP_ZSTD},
        {"nocompress.fatbin", 2, FATBIN_COMP_NONE},
        {"lz4.fatbin", 2, FATBIN_COMP_LZ4},
        {"multi.fatbin", 3, FATBIN_COMP_ZSTD},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        blob b = load(cases[c].fixture);
        fatbin_entry_ex x[4];
        char err[256];
        ck_assert_int_eq(fatbin_list_ex(b.p, b.n, x, 4, err, sizeof err),
                         cases[c].n);
        /* nvcc puts the SASS of -arch=sm_80 first, uncompressed */
        ck_assert_int_eq(x[0].e.kind, FATBIN_KIND_ELF);
        ck_assert_uint_eq(x[0].e.arch, 80);
        ck_assert_int_eq(x[0].compression, FATBIN_COMP_NONE);
        unsigned char *data;
        size_t n;
        ck_assert_int_eq(fatbin_entry_bytes(&x[0], &data, &n, err,
                                            sizeof err), 0);
        ck_assert(n > 4 && memcmp(data, "\177ELF", 4) == 0);
        free(data);
        ck_assert_int_eq(x[1].e.kind, FATBIN_KIND_PTX);
        ck_assert_int_eq(x[1].compression, cases[c].ptx_comp);
        ck_assert_int_eq(x[1].e.compressed,
                         cases[c].ptx_comp != FATBIN_COMP_NONE);
        ck_assert(x[1].e.offset + x[1].e.stored_size <= b.n);
        free(b.p);
    }
}
END_TEST

/* ------------------------------------- the arch rule on built images */

typedef struct syn {
    unsigned kind;
    unsigned arch;
    int suffix;
    const char *text;
} syn;

static void put(unsigned char *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++) {
        p[i] = (unsigned char)(v >> (8 * i));
    }
}

/* Lays out a container per the format documented in fatbin.c. */
static size_t build(unsigned char *buf, size_t cap, const syn *e, size_t n)
{
    size_t off = 16;
    memset(buf, 0, cap);
    for (size_t i = 0; i < n; i++) {
        size_t t = strlen(e[i].text) + 1;
        size_t padded = (t + 7) & ~(size_t)7;
        ck_assert(off + 64 + padded <= cap);
        unsigned char *q = buf + off;
        put(q, e[i].kind, 2);
        put(q + 2, 0x101, 2);
        put(q + 4, 64, 4);
        put(q + 8, padded, 8);
        put(q + 0x18, 0, 2);
        put(q + 0x1a, 9, 2);
        put(q + 0x1c, e[i].arch, 4);
        put(q + 0x28, 0x11 | (e[i].suffix == 'a' ? 0x100000 : 0)
                           | (e[i].suffix == 'f' ? 0x200000 : 0), 8);
        memcpy(q + 64, e[i].text, t);
        off += 64 + padded;
    }
    put(buf, FATBIN_MAGIC, 4);
    put(buf + 4, 1, 2);
    put(buf + 6, 16, 2);
    put(buf + 8, off - 16, 8);
    return off;
}

static const struct {
    syn e[4];
    size_t n;
    unsigned want;
    const char *expect;         /* the text chosen */
} rule_cases[] = {
    /* exact match */
    {{{1, 70, 0, "A"}, {1, 80, 0, "B"}, {1, 90, 0, "C"}}, 3, 80, "B"},
    /* newest not above */
    {{{1, 70, 0, "A"}, {1, 80, 0, "B"}, {1, 90, 0, "C"}}, 3, 86, "B"},
    {{{1, 90, 0, "C"}, {1, 70, 0, "A"}, {1, 80, 0, "B"}}, 3, 100, "C"},
    /* none at or below: the newest */
    {{{1, 80, 0, "B"}, {1, 90, 0, "C"}}, 2, 75, "C"},
    {{{1, 90, 0, "C"}, {1, 80, 0, "B"}}, 2, 0, "C"},
    /* plain before arch-specific of the same number */
    {{{1, 90, 'a', "X"}, {1, 90, 0, "C"}}, 2, 90, "C"},
    {{{1, 90, 'a', "X"}, {1, 80, 0, "B"}}, 2, 90, "X"},
    /* SASS never chosen */
    {{{2, 80, 0, "S"}, {1, 70, 0, "A"}}, 2, 80, "A"},
};

START_TEST(arch_rule)
{
    unsigned char buf[1024];
    size_t n = build(buf, sizeof buf, rule_cases[_i].e, rule_cases[_i].n);
    unsigned char *img = dup_bytes(buf, n);
    char *ptx = NULL, err[256];
    size_t len;
    ck_assert_msg(fatbin_get_ptx(img, n, rule_cases[_i].want, &ptx, &len,
                                 NULL, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(ptx, rule_cases[_i].expect);
    ck_assert_uint_eq(len, strlen(rule_cases[_i].expect));
    free(ptx);
    free(img);
}
END_TEST

START_TEST(sass_only)
{
    blob b = load("sass.fatbin");    /* -gencode arch=compute_90,code=sm_90 */
    char *ptx = NULL, err[512];
    ck_assert_int_eq(fatbin_get_ptx(b.p, b.n, 80, &ptx, NULL, NULL, err,
                                    sizeof err), -1);
    ck_assert_ptr_null(ptx);
    ck_assert_msg(strstr(err, "only SASS (sm_90)"), "%s", err);
    ck_assert_msg(strstr(err, "-gencode arch=compute_90,code=compute_90"),
                  "%s", err);
    char *all[2];
    ck_assert_int_eq(fatbin_get_all_ptx(b.p, b.n, 80, all, NULL, 2, err,
                                        sizeof err), -1);
    free(b.p);
    /* LTO IR only (-gencode arch=compute_80,code=lto_80) */
    b = load("lto.fatbin");
    ck_assert_int_eq(fatbin_get_ptx(b.p, b.n, 90, &ptx, NULL, NULL, err,
                                    sizeof err), -1);
    ck_assert_msg(strstr(err, "only LTO IR (lto_80)"), "%s", err);
    ck_assert_msg(strstr(err, "-gencode arch=compute_80,code=compute_80"),
                  "%s", err);
    fatbin_entry_ex x;
    ck_assert_int_eq(fatbin_list_ex(b.p, b.n, &x, 1, err, sizeof err), 1);
    ck_assert_uint_eq(x.raw_kind, 8);
    ck_assert_int_eq(x.e.kind, FATBIN_KIND_OTHER);
    free(b.p);
    /* an arch-specific cubin: the rebuild names the same target */
    syn e[] = {{2, 90, 'a', "S"}, {2, 80, 0, "T"}};
    unsigned char buf[512];
    size_t n = build(buf, sizeof buf, e, 2);
    ck_assert_int_eq(fatbin_get_ptx(buf, n, 90, &ptx, NULL, NULL, err,
                                    sizeof err), -1);
    ck_assert_msg(strstr(err, "arch=compute_90a,code=compute_90a"), "%s",
                  err);
}
END_TEST

/* The device runtime library's PTX (nvcc -rdc=true ... -lcudadevrt puts
 * it beside the program's; it defines the __cudaCDP2 entry points, which
 * the emulator provides) is never chosen nor linked; a program's PTX
 * that only declares them is. */
START_TEST(devrt_left_out)
{
    static const char user[] =
        ".extern .func (.param .b32 r) __cudaCDP2GetLastError\n();\nU";
    static const char devrt[] =
        "// lib\n.visible .func (.param .b32 r) __cudaCDP2GetLastError()"
        "\n{\n}\n";
    syn e[] = {{1, 80, 0, user}, {1, 121, 0, devrt}, {1, 121, 0, "V"}};
    unsigned char buf[1024];
    size_t n = build(buf, sizeof buf, e, 3);
    char *ptx[4] = {0}, err[256];
    size_t len[4];
    ck_assert_int_eq(fatbin_get_all_ptx(buf, n, 121, ptx, len, 4, err,
                                        sizeof err), 1);
    ck_assert_str_eq(ptx[0], "V");
    free(ptx[0]);
    ck_assert_int_eq(fatbin_get_all_ptx(buf, n, 80, ptx, len, 4, err,
                                        sizeof err), 1);
    ck_assert_str_eq(ptx[0], user);
    free(ptx[0]);
    /* only the library's PTX for 121: the program's 80 is the one */
    n = build(buf, sizeof buf, e, 2);
    ck_assert_int_eq(fatbin_get_all_ptx(buf, n, 121, ptx, len, 4, err,
                                        sizeof err), 1);
    ck_assert_str_eq(ptx[0], user);
    free(ptx[0]);
    ck_assert_int_eq(fatbin_get_ptx(buf, n, 121, ptx, len, NULL, err,
                                    sizeof err), 0);
    ck_assert_str_eq(ptx[0], user);
    free(ptx[0]);
    fatbin_entry_ex x[2];
    ck_assert_int_eq(fatbin_list_ex(buf, n, x, 2, err, sizeof err), 2);
    ck_assert_int_eq(fatbin_entry_is_devrt(&x[0]), 0);
    ck_assert_int_eq(fatbin_entry_is_devrt(&x[1]), 1);
    ck_assert_int_eq(fatbin_choose_ptx(x, 2, 121), 0);
}
END_TEST

/* ---------------------------------------------- malformed input */

static int try_all(const unsigned char *img, size_t n)
{
    char *ptx = NULL, *all[4] = {0}, err[512];
    size_t len = 0, lens[4];
    fatbin_entry_ex x[8];
    int rc = fatbin_get_ptx(img, n, 80, &ptx, &len, NULL, err, sizeof err);
    if (rc == 0) {
        ck_assert_uint_eq(strlen(ptx), len);
        free(ptx);
    } else {
        ck_assert(err[0] != 0);
    }
    int k = fatbin_get_all_ptx(img, n, 80, all, lens, 4, err, sizeof err);
    for (int i = 0; i < k && i < 4; i++) {
        free(all[i]);
    }
    int m = fatbin_list_ex(img, n, x, 8, err, sizeof err);
    for (int i = 0; i < m && i < 8; i++) {
        unsigned char *d;
        if (fatbin_entry_bytes(&x[i], &d, NULL, err, sizeof err) == 0) {
            free(d);
        }
    }
    return rc;
}

START_TEST(every_truncation)
{
    static const char *const fixtures[] = {
        "direct.fatbin", "default.fatbin", "lz4.fatbin",
    };
    for (size_t f = 0; f < 3; f++) {
        blob b = load(fixtures[f]);
        for (size_t n = 1; n < b.n; n++) {
            unsigned char *img = dup_bytes(b.p, n);
            ck_assert_msg(try_all(img, n) == -1, "%s cut to %zu bytes read",
                          fixtures[f], n);
            free(img);
        }
        free(b.p);
    }
}
END_TEST

START_TEST(elf_truncation)
{
    blob b = load("rdc_lib.obj");
    fatbin_section s[4];
    char err[256];
    for (size_t n = 0; n <= b.n; n++) {
        unsigned char *img = dup_bytes(b.p, n);
        int k = fatbin_elf_sections(img, n, s, 4, err, sizeof err);
        for (int i = 0; i < k && i < 4; i++) {
            ck_assert(s[i].offset + s[i].size <= n);
        }
        if (n == b.n) {
            ck_assert_int_eq(k, 1);
        }
        free(img);
    }
    free(b.p);
    /* ELFCLASS32 in the identification */
    static const char elf32[64] = "\177ELF\001\001\001";
    ck_assert_int_eq(fatbin_elf_sections(elf32, sizeof elf32, s, 4, err,
                                         sizeof err), -1);
    ck_assert_msg(strstr(err, "64-bit"), "%s", err);
    ck_assert_int_eq(fatbin_elf_sections(elf32, 7, s, 4, err, sizeof err),
                     -1);
    ck_assert_msg(strstr(err, "truncated"), "%s", err);
    ck_assert_int_eq(fatbin_elf_sections("abcd", 4, s, 4, err, sizeof err),
                     -1);
}
END_TEST

/* Named header fields set to bad values: each must be an error.
 * Offsets per the layout in fatbin.c; direct.fatbin has one PTX entry
 * at 16 with a 0x58-byte header. */
static const struct {
    size_t at;
    int bytes;
    uint64_t value;
    const char *msg;
} bad_fields[] = {
    {0, 1, 0x51, "magic"},
    {4, 2, 2, "version 2"},
    {6, 2, 8, "header size"},
    {8, 8, 1u << 20, "run past"},
    {16 + 4, 4, 0xffffffffu, "header size"},
    {16 + 4, 4, 32, "header size"},
    {16 + 8, 8, 1u << 20, "runs past"},
    {16 + 0x10, 4, 0, "compressed size"},
    {16 + 0x10, 4, 1u << 20, "compressed size"},
    {16 + 0x38, 8, 0, "uncompressed size"},
    {16 + 0x38, 8, 10, "zstd"},
    {16 + 0x38, 8, (uint64_t)1 << 40, "uncompressed size"},
    {16 + 0x28, 8, 0xa011, "both"},
    {16 + 0x28, 8, 0x2011, "LZ4"},
    {16 + 0x20, 4, 0x1000, "identifier"},
    {16 + 0x24, 4, 0x1000, "identifier"},
    {16 + 0x14, 4, 0x54, "options"},
    {16 + 0x48, 4, 0x1000, "options"},
    {16 + 0x58, 4, 0, "zstd"},          /* the frame's magic */
};

START_TEST(bad_field)
{
    blob b = load("direct.fatbin");
    put(b.p + bad_fields[_i].at, bad_fields[_i].value, bad_fields[_i].bytes);
    char *ptx = NULL, err[512];
    unsigned char *img = dup_bytes(b.p, b.n);
    ck_assert_int_eq(fatbin_get_ptx(img, b.n, 80, &ptx, NULL, NULL, err,
                                    sizeof err), -1);
    ck_assert_msg(strstr(err, bad_fields[_i].msg), "want '%s' in: %s",
                  bad_fields[_i].msg, err);
    try_all(img, b.n);
    free(img);
    free(b.p);
}
END_TEST

/* Flips `flips` random bytes among the first `span` of img (xorshift64*
 * state in *x). */
static void flip_bytes(unsigned char *img, int flips, size_t span,
                       uint64_t *x)
{
    for (int k = 0; k < flips; k++) {
        *x ^= *x >> 12;
        *x ^= *x << 25;
        *x ^= *x >> 27;
        uint64_t r = *x * 0x2545F4914F6CDD1Du;
        img[(r >> 16) % span] ^= (unsigned char)(1 + (r & 0xfe));
    }
}

START_TEST(random_corruption)
{
    static const char *const fixtures[] = {
        "direct.fatbin", "default.fatbin", "lz4.fatbin", "multi.fatbin",
    };
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (size_t f = 0; f < 4; f++) {
        blob b = load(fixtures[f]);
        for (int iter = 0; iter < 400; iter++) {
            unsigned char *img = dup_bytes(b.p, b.n);
            /* mostly the headers, where the lengths live */
            flip_bytes(img, 1 + iter % 4,
                       iter % 2 ? b.n : (b.n < 160 ? b.n : 160), &x);
            try_all(img, b.n);
            free(img);
        }
        free(b.p);
    }
}
END_TEST

/* ---- register counts from SASS (runtime/fatbin/nvinfo.c) ---- */

/* ref/regs.txt: "KERNEL N", N what ptxas printed for regs.cubin */
typedef struct RegRef {
    char name[64];
    int regs;
} RegRef;

static size_t reg_refs(RegRef *r, size_t max)
{
    blob b = load("ref/regs.txt");
    size_t n = 0;
    const char *p = (const char *)b.p;
    int used;
    while (n < max && sscanf(p, "%63s %d%n", r[n].name, &r[n].regs,
                             &used) == 2) {
        n++;
        p += used;
    }
    free(b.p);
    ck_assert_uint_ge(n, 4);
    return n;
}

START_TEST(cubin_regcount)
{
    RegRef ref[16];
    size_t n = reg_refs(ref, 16);
    blob b = load("regs.cubin");
    unsigned char *img = dup_bytes(b.p, b.n);
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(fatbin_cubin_regcount(img, b.n, ref[i].name),
                         ref[i].regs);
    }
    ck_assert_int_eq(fatbin_cubin_regcount(img, b.n, "no_such_kernel"), -1);
    ck_assert_int_eq(fatbin_cubin_regcount(img, b.n, "smal"), -1);
    free(img);
    free(b.p);
}
END_TEST

/* through a fat binary: the sm_80 SASS serves a device of 8.0 or newer,
 * none older; kernels it does not hold get -1 */
START_TEST(fatbin_regcounts)
{
    RegRef ref[16];
    size_t n = reg_refs(ref, 16);
    const char *names[17];
    int regs[17];
    for (size_t i = 0; i < n; i++) {
        names[i] = ref[i].name;
    }
    names[n] = "absent";
    blob b = load("regs.fatbin");
    unsigned char *img = dup_bytes(b.p, b.n);
    ck_assert_int_eq(fatbin_image_regcounts(img, b.n, 90, names, regs,
                                            n + 1), (int)n);
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(regs[i], ref[i].regs);
    }
    ck_assert_int_eq(regs[n], -1);
    ck_assert_int_eq(fatbin_image_regcounts(img, b.n, 80, names, regs, n),
                     (int)n);
    ck_assert_int_eq(fatbin_image_regcounts(img, b.n, 75, names, regs, n),
                     0);
    ck_assert_int_eq(regs[0], -1);
    free(img);
    free(b.p);
}
END_TEST

/* a damaged cubin never crashes the reader nor yields a count above
 * 255: every truncation, and random flips (ASan sees over-reads, the
 * copies being exact-size) */
START_TEST(cubin_corruption)
{
    blob b = load("regs.cubin");
    for (size_t len = 0; len < b.n; len += 1 + len / 16) {
        unsigned char *img = dup_bytes(b.p, len);
        int r = fatbin_cubin_regcount(img, len, "wide");
        ck_assert_int_le(r, 255);
        free(img);
    }
    uint64_t x = 0x243F6A8885A308D3u;
    for (int iter = 0; iter < 2000; iter++) {
        unsigned char *img = dup_bytes(b.p, b.n);
        flip_bytes(img, 1 + iter % 4,
                   iter % 2 ? b.n : (b.n < 256 ? b.n : 256), &x);
        ck_assert_int_le(fatbin_cubin_regcount(img, b.n, "wide"), 255);
        ck_assert_int_le(fatbin_cubin_regcount(img, b.n, "small"), 255);
        free(img);
    }
    free(b.p);
}
END_TEST

static Suite *fatbin_suite(void)
{
    Suite *s = suite_create("fatbin");
    TCase *t = tcase_create("reference");
    tcase_add_loop_test(t, raw_fixture_ptx, 0,
                        sizeof raw_cases / sizeof raw_cases[0]);
    tcase_add_test(t, multi_refs_differ);
    tcase_add_test(t, elf_fixture_ptx);
    tcase_add_test(t, rdc_all_modules);
    suite_add_tcase(s, t);
    t = tcase_create("forms");
    tcase_add_test(t, wrapper_v1);
    tcase_add_test(t, wrapper_v2_prelinked);
    tcase_add_test(t, wrapper_bad);
    tcase_add_test(t, plain_ptx);
    tcase_add_test(t, fields_direct);
    tcase_add_test(t, fields_kinds);
    suite_add_tcase(s, t);
    t = tcase_create("choice");
    tcase_add_loop_test(t, arch_rule, 0,
                        sizeof rule_cases / sizeof rule_cases[0]);
    tcase_add_test(t, sass_only);
    tcase_add_test(t, devrt_left_out);
    suite_add_tcase(s, t);
    t = tcase_create("malformed");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, every_truncation);
    tcase_add_test(t, elf_truncation);
    tcase_add_loop_test(t, bad_field, 0,
                        sizeof bad_fields / sizeof bad_fields[0]);
    tcase_add_test(t, random_corruption);
    tcase_add_test(t, cubin_corruption);
    suite_add_tcase(s, t);
    t = tcase_create("regcount");
    tcase_add_test(t, cubin_regcount);
    tcase_add_test(t, fatbin_regcounts);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(fatbin_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
