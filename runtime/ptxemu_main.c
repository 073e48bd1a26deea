/*
 * runtime/ptxemu_main.c: the `ptxemu` command.  One table of
 * subcommands; each lives in its own function and returns the exit
 * status (0 ok, 1 user error such as bad PTX, 2 bad usage).
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"
#include "ptx/summary.h"

static void check_usage(FILE *out)
{
    fprintf(out,
        "usage: ptxemu check [options] FILE...\n"
        "\n"
        "Parse and validate PTX files; print a summary of each module.\n"
        "\n"
        "  --dump-ir          print the module back as PTX (from the IR)\n"
        "  --dump-cfg         print each function's CFG as Graphviz dot, with\n"
        "                     every branch's reconvergence point marked\n"
        "  --func NAME        restrict --dump-cfg to function NAME\n"
        "  -q, --quiet        print nothing but errors\n"
        "  -h, --help         this text\n"
        "\n"
        "Exit status: 0 if every file is valid, 1 if any has errors.\n");
}

static int cmd_check(int argc, char **argv)
{
    enum { OPT_IR = 256, OPT_CFG, OPT_FUNC };
    static const struct option opts[] = {
        {"dump-ir", no_argument, NULL, OPT_IR},
        {"dump-cfg", no_argument, NULL, OPT_CFG},
        {"func", required_argument, NULL, OPT_FUNC},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bool dump_ir = false, dump_cfg = false, quiet = false;
    const char *func = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "qh", opts, NULL)) != -1) {
        switch (c) {
        case OPT_IR: dump_ir = true; break;
        case OPT_CFG: dump_cfg = true; break;
        case OPT_FUNC: func = optarg; break;
        case 'q': quiet = true; break;
        case 'h': check_usage(stdout); return 0;
        default: check_usage(stderr); return 2;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "ptxemu check: no input files\n");
        check_usage(stderr);
        return 2;
    }
    int status = 0;
    for (int i = optind; i < argc; i++) {
        PtxDiag d;
        IrModule *m = ptx_parse_file(argv[i], &d, NULL);
        if (d.buf) {
            fputs(d.buf, stderr);
        }
        if (!m) {
            fprintf(stderr, "%s: %u error%s\n", argv[i], d.nerrors,
                    d.nerrors == 1 ? "" : "s");
            status = 1;
            ptx_diag_fini(&d);
            continue;
        }
        if (!quiet && !dump_ir && !dump_cfg) {
            ptx_print_summary(stdout, m);
        }
        if (dump_ir) {
            ptx_print_module(stdout, m);
        }
        if (dump_cfg) {
            bool found = false;
            for (uint32_t k = 0; k < m->nfuncs; k++) {
                IrFunc *f = m->funcs[k];
                if (f->is_decl || (func && strcmp(func, f->name) != 0)) {
                    continue;
                }
                found = true;
                ptx_print_cfg_dot(stdout, m, f);
            }
            if (func && !found) {
                fprintf(stderr, "%s: no function named '%s' with a body\n",
                        argv[i], func);
                status = 1;
            }
        }
        ptx_module_free(m);
        ptx_diag_fini(&d);
    }
    return status;
}

int cmd_run(int argc, char **argv);   /* runtime/cmd_run.c */
int cmd_fatbin(int argc, char **argv);   /* runtime/cmd_fatbin.c */
int cmd_exec(int argc, char **argv);  /* runtime/cmd_exec.c */
int cmd_sanitize(int argc, char **argv);  /* runtime/cmd_sanitize.c */
int cmd_sweep(int argc, char **argv);     /* runtime/cmd_sweep.c */
int cmd_plot(int argc, char **argv);  /* runtime/cmd_plot.c */
int cmd_config(int argc, char **argv);  /* runtime/cmd_config.c */
int cmd_tracediff(int argc, char **argv);  /* runtime/cmd_tracediff.c */

typedef struct Command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *help;
} Command;

static const Command commands[] = {
    {"check", cmd_check, "parse and validate PTX files"},
    {"run", cmd_run, "run a kernel of a PTX file on the emulator"},
    {"fatbin", cmd_fatbin, "list or extract the PTX of a CUDA fat binary"},
    {"exec", cmd_exec, "run an unmodified CUDA program on the emulator"},
    {"sanitize", cmd_sanitize, "run a CUDA program under a checker "
     "(memcheck)"},
    {"sweep", cmd_sweep, "run programs under many configurations, "
     "locally or on Slurm"},
    {"plot", cmd_plot, "draw the statistics of a timed run (PNG, SVG)"},
    {"config", cmd_config, "import a GPGPU-Sim configuration "
     "(gpgpusim.config)"},
    {"trace-diff", cmd_tracediff, "compare two SIMT traces warp by warp "
     "(Hanoi's error)"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: ptxemu COMMAND [options] [args]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].help);
    }
    fprintf(out, "\n'ptxemu COMMAND --help' describes a command.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("ptxemu %s\n", PACKAGE_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
        if (!strcmp(argv[1], commands[i].name)) {
            return commands[i].run(argc - 1, argv + 1);
        }
    }
    fprintf(stderr, "ptxemu: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
