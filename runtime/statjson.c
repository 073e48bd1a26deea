/*
 * runtime/statjson.c: the --stats JSON's per-kernel timing counters as a
 * StatCsv table (statcsv.h), read with json-c, for `ptxemu plot --stats`.
 *
 * The writer is tm_session_json (timing/host.c), inside the statistics
 * of `ptxemu run --stats=FILE` and PTXEMU_STATS=FILE:
 *   {..., "timing": {"model": ..., "kernels": [
 *       {"kernel": NAME, "cycles": C, "warp_instructions": W,
 *        "ipc": I, "model": {COUNTER: VALUE, ...}}, ...]}}
 */
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/statcsv.h"

static bool count_of(json_object *v, uint64_t *out)
{
    if (!json_object_is_type(v, json_type_int)) {
        return false;
    }
    int64_t x = json_object_get_int64(v);
    *out = (uint64_t)x;
    return x >= 0;
}

int statjson_read(const char *path, StatCsv *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof(*c));
    json_object *root = json_object_from_file(path);
    json_object *t, *ks;
    if (!root) {
        const char *why = json_util_get_last_err();
        size_t n = why ? strcspn(why, "\n") : 0;
        snprintf(err, errlen, "%s: not JSON (%.*s)", path, (int)n,
                 why ? why : "");
        return -1;
    }
    int rc = -1;
    if (!json_object_object_get_ex(root, "timing", &t) ||
        !json_object_object_get_ex(t, "kernels", &ks) ||
        !json_object_is_type(ks, json_type_array)) {
        snprintf(err, errlen, "%s: no \"timing\" object with \"kernels\": "
                 "the statistics of a run without --timing?", path);
        goto out;
    }
    size_t n = json_object_array_length(ks);
    if (!n) {
        snprintf(err, errlen, "%s: no timed kernel", path);
        goto out;
    }
    /* columns first: the union of the kernels' counters */
    for (size_t r = 0; r < n; r++) {
        json_object *m;
        if (!json_object_object_get_ex(json_object_array_get_idx(ks, r),
                                       "model", &m) ||
            !json_object_is_type(m, json_type_object)) {
            snprintf(err, errlen, "%s: kernel %zu has no \"model\" "
                     "counters", path, r);
            goto out;
        }
        json_object_object_foreach(m, key, val) {
            (void)val;
            if (statcsv_add_col(c, key) < 0) {
                snprintf(err, errlen, "%s: out of memory", path);
                goto out;
            }
        }
    }
    c->nrows = n;
    c->launch = calloc(n, sizeof(uint64_t));
    c->cycle = calloc(n, sizeof(uint64_t));
    c->cycles = calloc(n, sizeof(uint64_t));
    c->kernel = calloc(n, sizeof(char *));
    c->val = calloc(n * (c->ncols ? c->ncols : 1), sizeof(uint64_t));
    if (!c->launch || !c->cycle || !c->cycles || !c->kernel || !c->val) {
        snprintf(err, errlen, "%s: out of memory", path);
        goto out;
    }
    uint64_t at = 0;
    for (size_t r = 0; r < n; r++) {
        json_object *k = json_object_array_get_idx(ks, r), *v, *m;
        const char *name = json_object_object_get_ex(k, "kernel", &v)
                           ? json_object_get_string(v) : NULL;
        if (!json_object_object_get_ex(k, "cycles", &v) ||
            !count_of(v, &c->cycles[r]) || !name ||
            !(c->kernel[r] = strdup(name))) {
            snprintf(err, errlen, "%s: kernel %zu: no \"kernel\" name or "
                     "\"cycles\" count", path, r);
            goto out;
        }
        c->launch[r] = r;
        c->cycle[r] = at;
        at += c->cycles[r];
        json_object_object_get_ex(k, "model", &m);
        json_object_object_foreach(m, key, val) {
            long col = statcsv_add_col(c, key);
            if (col < 0 || !count_of(val, &c->val[r * c->ncols +
                                                  (size_t)col])) {
                snprintf(err, errlen, "%s: kernel %zu: counter '%s' is not "
                         "a count", path, r, key);
                goto out;
            }
        }
    }
    rc = 0;
out:
    json_object_put(root);
    if (rc) {
        statcsv_free(c);
    }
    return rc;
}
