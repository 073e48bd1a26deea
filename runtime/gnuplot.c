/*
 * runtime/gnuplot.c: quoting for gnuplot scripts and running gnuplot
 * without a shell (contract in runtime/gnuplot.h).
 */
#include "runtime/gnuplot.h"

#include <errno.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>

extern char **environ;

void gp_quote(FILE *o, const char *s)
{
    fputc('\'', o);
    for (; *s; s++) {
        if (*s == '\'') {
            fputc('\'', o);
        }
        fputc(*s, o);
    }
    fputc('\'', o);
}

int gp_run(const char *who, const char *gp, const char *script,
           bool quiet_missing)
{
    char *argv[] = {(char *)gp, (char *)script, NULL};
    pid_t pid;
    int e = posix_spawnp(&pid, gp, NULL, NULL, argv, environ);
    if (e == ENOENT) {
        if (!quiet_missing) {
            fprintf(stderr, "%s: %s not found: the pictures are drawn by "
                    "gnuplot (Debian: apt-get install gnuplot-nox; or "
                    "--gnuplot PATH)\n", who, gp);
        }
        return GP_MISSING;
    }
    if (e) {
        fprintf(stderr, "%s: cannot run %s: %s\n", who, gp, strerror(e));
        return 1;
    }
    int ws;
    while (waitpid(pid, &ws, 0) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "%s: waiting for %s: %s\n", who, gp,
                    strerror(errno));
            return 1;
        }
    }
    if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
        fprintf(stderr, "%s: %s failed (%s %d)\n", who, gp,
                WIFEXITED(ws) ? "exit status" : "signal",
                WIFEXITED(ws) ? WEXITSTATUS(ws) : WTERMSIG(ws));
        return 1;
    }
    return 0;
}
