/*
 * runtime/gnuplot.h: what the `ptxemu` subcommands that draw pictures
 * (plot, sweep) share about running gnuplot.
 *
 * Contract:
 *  - gp_quote writes S as a gnuplot single-quoted string: inside single
 *    quotes gnuplot reads '' as one quote and nothing else specially
 *    (gnuplot manual, "Strings"), so any path or name is safe in it.
 *  - gp_run runs GP (a program name looked up in PATH, or a path) on
 *    SCRIPT directly, with no shell between: no path is ever pasted into
 *    a command line.  It returns 0 when gnuplot exited with status 0,
 *    GP_MISSING when GP was not found, and 1 on any other failure.
 *    Failures are reported on stderr under WHO (the subcommand, e.g.
 *    "ptxemu plot"), except a missing gnuplot with QUIET_MISSING set:
 *    callers for which the picture is optional say nothing then.
 */
#ifndef PTXEMU_RUNTIME_GNUPLOT_H
#define PTXEMU_RUNTIME_GNUPLOT_H

#include <stdbool.h>
#include <stdio.h>

#define GP_MISSING 2

void gp_quote(FILE *o, const char *s);
int gp_run(const char *who, const char *gp, const char *script,
           bool quiet_missing);

#endif
