/*
 * runtime/cmd_fatbin.c: `ptxemu fatbin`, a look inside the fat binaries
 * of a CUDA program, library or object (or a raw .fatbin file): lists
 * every entry and writes out the PTX, the part ptxemu can run.
 * Exit status: 0 ok, 1 bad or unreadable file (the message says where),
 * 2 bad usage.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ptx/readfile.h"
#include "runtime/fatbin/fatbin.h"

int cmd_fatbin(int argc, char **argv);

/* Files above this are not fat binaries we mean to read whole. */
#define FB_CLI_MAX_FILE PTX_READ_LIMIT

enum {
    FB_CLI_MAX_SECTIONS = 16,
    FB_EM_CUDA = 190,           /* e_machine of a cubin (System V ABI) */
};

static void fatbin_usage(FILE *out)
{
    fprintf(out,
        "usage: ptxemu fatbin FILE [--extract DIR] [--arch sm_XX]\n"
        "\n"
        "List the entries of the CUDA fat binaries in FILE: a program, a\n"
        "shared library or an object built by nvcc (its .nv_fatbin and\n"
        "__nv_relfatbin sections), or a raw fat binary (nvcc -fatbin).\n"
        "\n"
        "  --extract DIR   write each PTX entry to DIR/N.compute_XX.ptx\n"
        "                  (N: its number in the listing)\n"
        "  --arch sm_XX    show which PTX ptxemu runs for that GPU (the\n"
        "                  same arch, else the newest below, else the\n"
        "                  newest); with --extract, write only those\n"
        "  -h, --help      this text\n");
}

static int fail(const char *file, const char *msg)
{
    fprintf(stderr, "ptxemu fatbin: error: %s: %s\n", file, msg);
    return 1;
}

/* Reads the whole file into a malloc'd buffer. */
static int read_file(const char *path, unsigned char **buf, size_t *len)
{
    char why[128], *b;
    if (ptx_read_file(path, FB_CLI_MAX_FILE, &b, len, why, sizeof why) !=
        PTX_READ_OK) {
        return fail(path, why);
    }
    *buf = (unsigned char *)b;
    return 0;
}

/* The image to read: the file itself, or an ELF file's fat-binary
 * sections laid end to end (each padded to 8 bytes, as containers
 * are aligned), with where each section starts in it. */
typedef struct fb_image {
    unsigned char *bytes;
    size_t len;
    int nsec;
    fatbin_section sec[FB_CLI_MAX_SECTIONS];
    size_t sec_at[FB_CLI_MAX_SECTIONS];
} fb_image;

static int image_from_elf(const char *path, const unsigned char *file,
                          size_t len, fb_image *im)
{
    char err[256];
    int n = fatbin_elf_sections(file, len, im->sec, FB_CLI_MAX_SECTIONS,
                                err, sizeof err);
    if (n < 0) {
        return fail(path, err);
    }
    if (n == 0 && len >= 20 && (file[18] | file[19] << 8) == FB_EM_CUDA) {
        return fail(path, "a cubin (SASS), which ptxemu cannot run: give "
                    "PTX, or a program built with "
                    "-gencode arch=compute_XX,code=compute_XX");
    }
    if (n == 0) {
        return fail(path, "no .nv_fatbin or __nv_relfatbin section: no "
                    "device code from nvcc in this file");
    }
    if (n > FB_CLI_MAX_SECTIONS) {
        return fail(path, "too many fat-binary sections");
    }
    size_t total = 0;
    for (int i = 0; i < n; i++) {
        total += ((size_t)im->sec[i].size + 7) & ~(size_t)7;
    }
    im->bytes = calloc(1, total ? total : 1);
    if (!im->bytes) {
        return fail(path, "out of memory");
    }
    size_t at = 0;
    for (int i = 0; i < n; i++) {
        im->sec_at[i] = at;
        memcpy(im->bytes + at, file + im->sec[i].offset,
               (size_t)im->sec[i].size);
        at += ((size_t)im->sec[i].size + 7) & ~(size_t)7;
    }
    im->len = total;
    im->nsec = n;
    return 0;
}

/* "sm_80", "compute_80" or "80" to 80; 0 when malformed. */
static unsigned parse_arch(const char *s)
{
    if (strncmp(s, "sm_", 3) == 0) {
        s += 3;
    } else if (strncmp(s, "compute_", 8) == 0) {
        s += 8;
    }
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || end == s || v == 0 || v > 10000 ||
        (*end && !((*end == 'a' || *end == 'f') && !end[1]))) {
        return 0;
    }
    return (unsigned)v;
}

static void print_entries(const fb_image *im, const fatbin_entry_ex *v,
                          size_t n)
{
    static const char head[] = "  #  cont kind arch           stored"
                               "      size comp  identifier [options]\n";
    int sec = -1;
    if (im->nsec == 0) {
        fputs(head, stdout);
    }
    for (size_t i = 0; i < n; i++) {
        const fatbin_entry_ex *x = &v[i];
        while (sec + 1 < im->nsec && x->container_at >= im->sec_at[sec + 1]) {
            sec++;
            printf("section %s (file offset %llu, %llu bytes):\n",
                   im->sec[sec].name,
                   (unsigned long long)im->sec[sec].offset,
                   (unsigned long long)im->sec[sec].size);
            fputs(head, stdout);
        }
        char arch[32];
        fatbin_arch_name(&x->e, arch, sizeof arch);
        if (x->raw_kind == 8) {
            snprintf(arch, sizeof arch, "lto_%u", x->e.arch);
        }
        const char *kind = x->e.kind == FATBIN_KIND_PTX ? "PTX"
                         : x->e.kind == FATBIN_KIND_ELF ? "ELF"
                         : x->raw_kind == 8 ? "LTO" : "?";
        printf("%3zu %5u %-4s %-12s %9llu %9llu %-5s %s%s%s%s\n", i,
               x->container, kind, arch,
               (unsigned long long)x->e.stored_size,
               (unsigned long long)x->e.size,
               fatbin_compression_name(x->compression), x->e.identifier,
               x->options[0] ? " [" : "", x->options,
               x->options[0] ? "]" : "");
    }
}

static int write_ptx(const char *path, const char *dir, size_t i,
                     const fatbin_entry_ex *x)
{
    char err[256], name[4096], arch[32];
    unsigned char *data;
    size_t n;
    if (fatbin_entry_bytes(x, &data, &n, err, sizeof err) != 0) {
        return fail(path, err);
    }
    size_t t = strnlen((const char *)data, n);
    fatbin_arch_name(&x->e, arch, sizeof arch);
    snprintf(name, sizeof name, "%s/%zu.%s.ptx", dir, i, arch);
    FILE *f = fopen(name, "wb");
    int bad = !f || fwrite(data, 1, t, f) != t;
    if (f && fclose(f) != 0) {
        bad = 1;
    }
    free(data);
    if (bad) {
        return fail(name, strerror(errno));
    }
    printf("wrote %s (%zu bytes)\n", name, t);
    return 0;
}

static int same_target(const fatbin_entry *a, const fatbin_entry *b)
{
    return a->kind == b->kind && a->arch == b->arch &&
           a->arch_suffix == b->arch_suffix;
}

static int show(const char *path, const fb_image *im, const char *dir,
                unsigned want)
{
    char err[512];
    if (im->len >= 4 && im->bytes[0] == 0xb1 && im->bytes[1] == 0x43 &&
        im->bytes[2] == 0x62 && im->bytes[3] == 0x46) {
        /* Its pointers are addresses in a running program. */
        return fail(path, "a bare registration wrapper holds pointers, "
                    "not data; give the program file instead");
    }
    int n = fatbin_list_ex(im->bytes, im->len, NULL, 0, err, sizeof err);
    if (n < 0) {
        return fail(path, err);
    }
    fatbin_entry_ex *v = calloc((size_t)n + 1, sizeof *v);
    if (!v) {
        return fail(path, "out of memory");
    }
    fatbin_list_ex(im->bytes, im->len, v, (size_t)n, err, sizeof err);
    unsigned ncont = n ? v[n - 1].container + 1 : 0;
    printf("%s: %s, %u container%s, %d entr%s\n", path,
           im->nsec ? "ELF file"
           : im->bytes[0] == 0x50 ? "fat binary" : "PTX text", ncont,
           ncont == 1 ? "" : "s", n, n == 1 ? "y" : "ies");
    print_entries(im, v, (size_t)n);
    long best = -1;
    int rc = 0;
    if (want) {
        best = fatbin_choose_ptx(v, (size_t)n, want);
        if (best < 0) {
            char *ptx = NULL;
            fatbin_get_ptx(im->bytes, im->len, want, &ptx, NULL, NULL, err,
                           sizeof err);
            free(ptx);
            free(v);
            return fail(path, err);
        }
        printf("for sm_%u ptxemu runs:", want);
        for (int i = 0; i < n; i++) {
            if (same_target(&v[i].e, &v[best].e) &&
                !fatbin_entry_is_devrt(&v[i])) {
                printf(" %d", i);
            }
        }
        printf("\n");
    }
    if (dir) {
        if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
            free(v);
            return fail(dir, strerror(errno));
        }
        for (int i = 0; i < n && rc == 0; i++) {
            if (v[i].e.kind == FATBIN_KIND_PTX &&
                (best < 0 || (same_target(&v[i].e, &v[best].e) &&
                              !fatbin_entry_is_devrt(&v[i])))) {
                rc = write_ptx(path, dir, (size_t)i, &v[i]);
            }
        }
    }
    free(v);
    return rc;
}

int cmd_fatbin(int argc, char **argv)
{
    static const struct option opts[] = {
        {"extract", required_argument, NULL, 'x'},
        {"arch", required_argument, NULL, 'a'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *dir = NULL;
    unsigned want = 0;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'x': dir = optarg; break;
        case 'a':
            want = parse_arch(optarg);
            if (!want) {
                fprintf(stderr, "ptxemu fatbin: --arch '%s': expected "
                        "sm_XX\n", optarg);
                return 2;
            }
            break;
        case 'h': fatbin_usage(stdout); return 0;
        default: fatbin_usage(stderr); return 2;
        }
    }
    if (optind + 1 != argc) {
        fprintf(stderr, "ptxemu fatbin: expected one FILE\n");
        fatbin_usage(stderr);
        return 2;
    }
    const char *path = argv[optind];
    unsigned char *file;
    size_t len;
    if (read_file(path, &file, &len) != 0) {
        return 1;
    }
    if (len == 0) {
        free(file);
        return fail(path, "empty file");
    }
    fb_image im;
    memset(&im, 0, sizeof im);
    int rc;
    if (fatbin_is_elf(file, len)) {
        rc = image_from_elf(path, file, len, &im);
        free(file);
        if (rc != 0) {
            return rc;
        }
    } else {
        im.bytes = file;
        im.len = len;
    }
    rc = show(path, &im, dir, want);
    free(im.bytes);
    return rc;
}
