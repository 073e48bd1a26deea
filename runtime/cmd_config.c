/*
 * runtime/cmd_config.c: `ptxemu config import [-o OUT] FILE`, a
 * GPGPU-Sim gpgpusim.config as a ptxemu timing configuration
 * (runtime/gsim_import.h).  The configuration goes to stdout or OUT;
 * the options without an equivalent, each with its line, and a count go
 * to stderr.  Exit status: 0 when converted (unmapped options are not
 * an error: they are listed), 1 on a bad file, 2 on a usage error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/gsim_import.h"

int cmd_config(int argc, char **argv);

static void config_usage(FILE *out)
{
    fprintf(out,
        "usage: ptxemu config import [-o OUT.cfg] FILE.config\n"
        "\n"
        "Convert a GPGPU-Sim configuration (gpgpusim.config) into a "
        "timing\n"
        "configuration for the `gpu` model (--timing gpu --timing-config "
        "OUT.cfg).\n"
        "Each value names the option and line it came from.  Every option "
        "that has\n"
        "no equivalent, or was mapped only in part, is listed on stderr "
        "with its\n"
        "line; none is dropped silently.  The SM count is a device option: "
        "the\n"
        "output says which --sms to run with.\n"
        "\n"
        "  -o, --out FILE   write the configuration to FILE (default "
        "stdout)\n"
        "  -h, --help       this text\n");
}

/* The whole file, bounded: NULL with a message on failure. */
static char *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file", path);
        fclose(f);
        return NULL;
    }
    char *buf = malloc(GSIM_MAX_FILE + 1);
    size_t n = buf ? fread(buf, 1, GSIM_MAX_FILE + 1, f) : 0;
    int rerr = ferror(f);
    fclose(f);
    if (!buf || rerr) {
        snprintf(err, errlen, "%s: %s", path, buf ? "read error"
                                                  : "out of memory");
        free(buf);
        return NULL;
    }
    if (n > GSIM_MAX_FILE) {
        snprintf(err, errlen, "%s: larger than 1 MiB", path);
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

static int import(const char *in, const char *outpath)
{
    char err[512] = "";
    size_t len = 0;
    char *text = slurp(in, &len, err, sizeof err);
    GsimFile f;
    if (!text || gsim_parse(text, len, in, &f, err, sizeof err)) {
        fprintf(stderr, "ptxemu config import: %s\n", err);
        free(text);
        return 1;
    }
    free(text);
    /* converted into memory first: a bad file leaves no OUT behind */
    char *buf = NULL;
    size_t blen = 0;
    FILE *mem = open_memstream(&buf, &blen);
    int rc = mem ? gsim_convert(&f, in, mem, stderr, err, sizeof err) : -1;
    if (mem && fclose(mem)) {
        rc = -1;
    }
    gsim_free(&f);
    if (rc) {
        fprintf(stderr, "ptxemu config import: %s\n",
                err[0] ? err : "out of memory");
        free(buf);
        return 1;
    }
    FILE *out = outpath ? fopen(outpath, "w") : stdout;
    if (!out) {
        fprintf(stderr, "ptxemu config import: %s: %s\n", outpath,
                strerror(errno));
        free(buf);
        return 1;
    }
    int bad = fwrite(buf, 1, blen, out) != blen;
    bad |= outpath ? fclose(out) != 0 : fflush(out) != 0;
    free(buf);
    if (bad) {
        fprintf(stderr, "ptxemu config import: %s: write error\n",
                outpath ? outpath : "stdout");
        return 1;
    }
    return 0;
}

int cmd_config(int argc, char **argv)
{
    if (argc < 2) {
        config_usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        config_usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "import")) {
        fprintf(stderr, "ptxemu config: unknown subcommand '%s'\n", argv[1]);
        config_usage(stderr);
        return 2;
    }
    const char *in = NULL, *out = NULL;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            config_usage(stdout);
            return 0;
        } else if (!strcmp(a, "-o") || !strcmp(a, "--out")) {
            if (++i == argc) {
                fprintf(stderr, "ptxemu config import: %s needs a file\n",
                        a);
                return 2;
            }
            out = argv[i];
        } else if (!strncmp(a, "--out=", 6)) {
            out = a + 6;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "ptxemu config import: unknown option '%s'\n",
                    a);
            config_usage(stderr);
            return 2;
        } else if (in) {
            fprintf(stderr, "ptxemu config import: one FILE only ('%s', "
                            "'%s')\n", in, a);
            return 2;
        } else {
            in = a;
        }
    }
    if (!in) {
        fprintf(stderr, "ptxemu config import: no FILE.config given\n");
        return 2;
    }
    return import(in, out);
}
