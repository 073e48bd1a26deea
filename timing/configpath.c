/*
 * timing/configpath.c: where `--timing-config NAME` is found (tm.h).
 *
 * A value that names an existing file, or holds a '/', is a path.  A bare
 * name ("gt200") is a shipped configuration, NAME.cfg, looked for in
 * $PTXEMU_CONFIG_DIR, then in the source tree's timing/configs (a build
 * tree run), then in the installed $(pkgdatadir)/configs.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "timing/config_paths.h"
#include "timing/tm.h"

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

bool tm_name_ok(const char *s, size_t max, const char *punct)
{
    size_t n = strlen(s);
    if (n == 0 || n > max) {
        return false;
    }
    for (; *s; s++) {
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || strchr(punct, *s))) {
            return false;
        }
    }
    return true;
}

const char *tm_config_resolve(const char *config, char *buf, size_t len)
{
    if (!config || is_file(config) || !tm_name_ok(config, 64, "_-")) {
        return config;
    }
    const char *env = getenv("PTXEMU_CONFIG_DIR");
    const char *dirs[] = {env && *env ? env : NULL, PTXEMU_SRC_CONFIGS_DIR,
                          PTXEMU_CONFIGS_DIR};
    for (size_t k = 0; k < sizeof dirs / sizeof dirs[0]; k++) {
        if (!dirs[k]) {
            continue;
        }
        int n = snprintf(buf, len, "%s/%s.cfg", dirs[k], config);
        if (n > 0 && (size_t)n < len && is_file(buf)) {
            return buf;
        }
    }
    return config; /* opened as given: its error names it */
}
