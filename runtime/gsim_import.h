/*
 * runtime/gsim_import.h: GPGPU-Sim configuration files (gpgpusim.config)
 * as ptxemu timing configurations for the `gpu` model (`ptxemu config
 * import`, runtime/cmd_config.c).
 *
 * Contract:
 *  - gsim_parse reads a file's text: options `-name value`, separated by
 *    blanks and newlines; '#' at the start of a token comments out the
 *    rest of its line; a value in double quotes may hold blanks and
 *    newlines (GPGPU-Sim's configs split -gpgpu_dram_timing_opt over
 *    lines so).  Every option has exactly one value, as GPGPU-Sim's
 *    option parser reads them in pairs.  Input is untrusted: at most
 *    GSIM_MAX_FILE bytes, printable text (tab, CR and LF allowed); a
 *    malformed file is an error "FILE:LINE: what", never a crash.
 *  - gsim_convert writes a `key = value` configuration to `out`, each
 *    value commented with the option and line it came from, and to
 *    `notes` one line per option it could not map ("FILE:LINE:
 *    unmapped: -name value (why)"), or mapped only in part ("partly
 *    mapped", naming what was left out), then a count.  No option is
 *    dropped silently: each one is either a value or a comment in the
 *    output, or a line in the notes.  A later option of the same name
 *    wins, as in GPGPU-Sim.  A value that is not what its option takes
 *    (a number, a cache description, ...) is an error.
 * Both return 0, or -1 with a message in err.
 */
#ifndef PTXEMU_RUNTIME_GSIM_IMPORT_H
#define PTXEMU_RUNTIME_GSIM_IMPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define GSIM_MAX_FILE (1u << 20)

typedef struct GsimOpt {
    char *name;   /* with its leading '-' */
    char *value;  /* quotes removed */
    uint32_t line;
} GsimOpt;

typedef struct GsimFile {
    GsimOpt *opt;
    size_t n, cap;
} GsimFile;

int gsim_parse(const char *text, size_t len, const char *file, GsimFile *f,
               char *err, size_t errlen);
void gsim_free(GsimFile *f);

int gsim_convert(const GsimFile *f, const char *file, FILE *out,
                 FILE *notes, char *err, size_t errlen);

#endif
