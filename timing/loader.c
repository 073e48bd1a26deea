/*
 * timing/loader.c: tm_load(), a timing model by name or by path (tm.h).
 *
 * A spec containing '/' or ending in ".so" is a plug-in: a shared object
 * opened with dlopen(RTLD_NOW | RTLD_LOCAL) (every symbol resolved now,
 * so a plug-in with a missing dependency is refused here rather than
 * failing in the middle of a kernel; its symbols stay out of the global
 * namespace so two plug-ins cannot collide).  Anything else is the name
 * of a built-in model (registry.c).
 *
 * Both go through the same checks, the rules of the "Versioning"
 * paragraph of <ptxemu/ptxemu_timing.h>: the ops table is zero-filled,
 * its abi_version and struct_size set to ours, and the init function is
 * called once; then it must have returned 0, claim a version in
 * [PTXEMU_TM_ABI_MIN, PTXEMU_TM_ABI_VERSION], a struct_size at least as
 * large as that version's table, and fill the required callbacks.  Every
 * refusal is one line naming the file (or the built-in model), and the
 * handle is closed again.  What a plug-in does inside its own code
 * (constructors, init) cannot be guarded against; what it hands back is
 * checked before it is used.
 */
#include "timing/tm.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Size of ptxemu_tm_ops at each version (index: version).  Version 1's
 * table ends with `event`; append a row per new version. */
#define TM_OPS_V1_SIZE \
    (offsetof(ptxemu_tm_ops, event) + sizeof(((ptxemu_tm_ops *)0)->event))
static const size_t ops_size_of_version[] = {
    [1] = TM_OPS_V1_SIZE,
    [2] = TM_OPS_V1_SIZE, /* (ABI 2 added fields to ptxemu_tm_kernel) */
    [3] = TM_OPS_V1_SIZE, /* (ABI 3 to the host's table) */
    [4] = offsetof(ptxemu_tm_ops, stats_sync) +
          sizeof(((ptxemu_tm_ops *)0)->stats_sync),
    [5] = offsetof(ptxemu_tm_ops, stats_sync) + /* (ABI 5: the host's) */
          sizeof(((ptxemu_tm_ops *)0)->stats_sync),
    [6] = offsetof(ptxemu_tm_ops, stats_sync) + /* (ABI 6: the host's) */
          sizeof(((ptxemu_tm_ops *)0)->stats_sync),
};
_Static_assert(sizeof(ops_size_of_version) / sizeof(ops_size_of_version[0])
               == PTXEMU_TM_ABI_VERSION + 1,
               "a row of ops_size_of_version per ABI version");

/* The callbacks a model must provide: the host calls them on every
 * launch without checking. */
static const struct {
    const char *name;
    size_t off;
} required[] = {
    {"create", offsetof(ptxemu_tm_ops, create)},
    {"destroy", offsetof(ptxemu_tm_ops, destroy)},
    {"kernel_begin", offsetof(ptxemu_tm_ops, kernel_begin)},
    {"cycle", offsetof(ptxemu_tm_ops, cycle)},
    {"kernel_end", offsetof(ptxemu_tm_ops, kernel_end)},
};

/* More parameters than any model has: a larger count is garbage, and
 * reading that many entries could run off the plug-in's table. */
#define TM_MAX_PARAMS 65536u

static bool is_path(const char *spec)
{
    size_t n = strlen(spec);
    return strchr(spec, '/') || (n >= 3 && !strcmp(spec + n - 3, ".so"));
}

static const TmBuiltin *find_builtin(const char *name)
{
    for (const TmBuiltin *b = tm_builtins; b->name; b++) {
        if (!strcmp(b->name, name)) {
            return b;
        }
    }
    return NULL;
}

/* "simple, foo" (or "none") into buf. */
static void builtin_names(char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = 0;
    for (const TmBuiltin *b = tm_builtins; b->name && at < len; b++) {
        int n = snprintf(buf + at, len - at, "%s%s", at ? ", " : "", b->name);
        at += n > 0 ? (size_t)n : 0;
    }
    if (!buf[0]) {
        snprintf(buf, len, "none");
    }
}

/* Call init and check what it filled.  who: "PATH" or "built-in model
 * 'NAME'", the start of every message. */
static int init_and_check(const char *who, ptxemu_tm_init_fn init,
                          ptxemu_tm_ops *ops, char *err, size_t errlen)
{
    memset(ops, 0, sizeof(*ops));
    ops->abi_version = PTXEMU_TM_ABI_VERSION;
    ops->struct_size = (uint32_t)sizeof(*ops);
    int rc = init(PTXEMU_TM_ABI_VERSION, ops);
    if (rc) {
        tm_seterr(err, errlen, "%s: %s refused to load (returned %d)", who,
                  PTXEMU_TM_ENTRY, rc);
        return -1;
    }
    uint32_t v = ops->abi_version;
    if (v < PTXEMU_TM_ABI_MIN || v > PTXEMU_TM_ABI_VERSION) {
        tm_seterr(err, errlen, "%s: built for timing plug-in ABI version %u; "
                  "this ptxemu accepts versions %u to %u", who, v,
                  PTXEMU_TM_ABI_MIN, PTXEMU_TM_ABI_VERSION);
        return -1;
    }
    if (ops->struct_size < ops_size_of_version[v]) {
        tm_seterr(err, errlen, "%s: its ops table is %u bytes, smaller than "
                  "version %u's %zu", who, ops->struct_size, v,
                  ops_size_of_version[v]);
        return -1;
    }
    /* fields past its version's table are not the plug-in's: unset
     * (ops_size_of_version, per version) */
    memset((char *)ops + ops_size_of_version[v], 0,
           sizeof(*ops) - ops_size_of_version[v]);
    for (size_t k = 0; k < sizeof(required) / sizeof(required[0]); k++) {
        void (*fn)(void);
        memcpy(&fn, (const char *)ops + required[k].off, sizeof(fn));
        if (!fn) {
            tm_seterr(err, errlen, "%s: required callback '%s' is NULL", who,
                      required[k].name);
            return -1;
        }
    }
    if (ops->nparams > TM_MAX_PARAMS || (ops->nparams && !ops->params)) {
        tm_seterr(err, errlen, "%s: bad parameter table (%u entries at %p)",
                  who, ops->nparams, (const void *)ops->params);
        return -1;
    }
    return 0;
}

static int load_path(const char *path, TmLoaded *out, char *err,
                     size_t errlen)
{
    struct stat st;
    if (stat(path, &st)) {
        tm_seterr(err, errlen, "%s: cannot load timing plug-in: %s", path,
                  strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        tm_seterr(err, errlen, "%s: cannot load timing plug-in: not a regular "
                  "file", path);
        return -1;
    }
    /* dlopen searches the library path for a name without '/': make a
     * bare "my.so" mean the file in the current directory. */
    char *full = NULL;
    if (!strchr(path, '/')) {
        full = malloc(strlen(path) + 3);
        if (!full) {
            tm_seterr(err, errlen, "%s: out of memory", path);
            return -1;
        }
        strcpy(full, "./");
        strcat(full, path);
    }
    dlerror();
    void *dl = dlopen(full ? full : path, RTLD_NOW | RTLD_LOCAL);
    free(full);
    if (!dl) {
        const char *why = dlerror();
        tm_seterr(err, errlen, "%s: not a loadable shared object: %s", path,
                  why ? why : "unknown error");
        /* dlerror's text is one line; keep ours one line whatever it is. */
        for (char *c = err; err && *c; c++) {
            if (*c == '\n') {
                *c = ' ';
            }
        }
        return -1;
    }
    /* ISO C cannot convert void * to a function pointer; POSIX
     * guarantees the representation is the same, so copy the bits. */
    void *sym = dlsym(dl, PTXEMU_TM_ENTRY);
    if (!sym) {
        tm_seterr(err, errlen, "%s: not a ptxemu timing plug-in (no %s "
                  "symbol)", path, PTXEMU_TM_ENTRY);
        dlclose(dl);
        return -1;
    }
    ptxemu_tm_init_fn init;
    memcpy(&init, &sym, sizeof(init));
    if (init_and_check(path, init, &out->ops, err, errlen)) {
        dlclose(dl);
        memset(&out->ops, 0, sizeof(out->ops));
        return -1;
    }
    out->dl = dl;
    return 0;
}

int tm_load(const char *spec, TmLoaded *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    if (!spec || !*spec) {
        tm_seterr(err, errlen, "no timing model given");
        return -1;
    }
    int rc;
    if (is_path(spec)) {
        rc = load_path(spec, out, err, errlen);
    } else {
        const TmBuiltin *b = find_builtin(spec);
        if (!b) {
            char names[256];
            builtin_names(names, sizeof(names));
            tm_seterr(err, errlen, "unknown timing model '%s' (built in: %s; "
                      "a plug-in is given by path, e.g. ./%s.so)", spec, names,
                      spec);
            return -1;
        }
        char who[128];
        snprintf(who, sizeof(who), "built-in model '%s'", b->name);
        rc = init_and_check(who, b->init, &out->ops, err, errlen);
        if (rc) {
            memset(&out->ops, 0, sizeof(out->ops));
        }
    }
    if (rc) {
        return -1;
    }
    out->spec = spec;
    if (!out->ops.name) {
        out->ops.name = out->spec;
    }
    return 0;
}

void tm_unload(TmLoaded *l)
{
    if (!l) {
        return;
    }
    if (l->dl) {
        dlclose(l->dl);
    }
    memset(l, 0, sizeof(*l));
}
