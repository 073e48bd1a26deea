/*
 * runtime/sweep_merge.c: every run's statistics into one CSV (sweep.h),
 * read with json-c.
 */
#include "config.h"

#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/sweep.h"

/* The columns: dotted names in the order first seen, and per run one
 * value per column. */
typedef struct Cols {
    char **name;
    size_t n, cap;
} Cols;

typedef struct Row {
    double *v;
    unsigned char *set;
    size_t cap;
} Row;

static long col_of(Cols *c, const char *name)
{
    for (size_t i = 0; i < c->n; i++) {
        if (!strcmp(c->name[i], name)) {
            return (long)i;
        }
    }
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 64;
        char **p = realloc(c->name, cap * sizeof *p);
        if (!p) {
            return -1;
        }
        c->name = p;
        c->cap = cap;
    }
    if (!(c->name[c->n] = strdup(name))) {
        return -1;
    }
    return (long)c->n++;
}

static int row_set(Row *r, long col, double v, int add)
{
    if ((size_t)col >= r->cap) {
        size_t cap = (size_t)col + 64;
        double *pv = realloc(r->v, cap * sizeof *pv);
        if (!pv) {
            return -1;
        }
        r->v = pv;
        unsigned char *ps = realloc(r->set, cap);
        if (!ps) {
            return -1;
        }
        r->set = ps;
        memset(r->set + r->cap, 0, cap - r->cap);
        r->cap = cap;
    }
    r->v[col] = add && r->set[col] ? r->v[col] + v : v;
    r->set[col] = 1;
    return 0;
}

/* Numbers (and booleans) under obj, as prefix.key.  Arrays are skipped,
 * but for timing.kernels, whose model counters are summed. */
static int flatten(json_object *obj, const char *prefix, Cols *c, Row *r,
                   int add)
{
    char path[512];
    json_object_object_foreach(obj, key, val)
    {
        snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "",
                 key);
        long col;
        switch (json_object_get_type(val)) {
        case json_type_int:
        case json_type_double:
        case json_type_boolean:
            if ((col = col_of(c, path)) < 0 ||
                row_set(r, col, json_object_get_double(val), add)) {
                return -1;
            }
            break;
        case json_type_object:
            if (flatten(val, path, c, r, add)) {
                return -1;
            }
            break;
        case json_type_array:
            if (!strcmp(path, "timing.kernels")) {
                for (size_t i = 0; i < json_object_array_length(val); i++) {
                    json_object *k = json_object_array_get_idx(val, i);
                    json_object *m;
                    if (json_object_get_type(k) == json_type_object &&
                        json_object_object_get_ex(k, "model", &m) &&
                        json_object_get_type(m) == json_type_object &&
                        flatten(m, "timing.model", c, r, 1)) {
                        return -1;
                    }
                }
            }
            break;
        default:
            break;
        }
    }
    return 0;
}

int sweep_merge(const char *outdir, const SweepList *cfg,
                const SweepList *cmd, FILE *out, bool *timed, char *err,
                size_t errlen)
{
    size_t nruns = cfg->n * cmd->n;
    Cols cols = {0};
    Row *rows = calloc(nruns ? nruns : 1, sizeof *rows);
    int *status = calloc(nruns ? nruns : 1, sizeof *status);
    double *wall = calloc(nruns ? nruns : 1, sizeof *wall);
    int rc = -1;
    if (!rows || !status || !wall) {
        sweep_seterr(err, errlen, "out of memory");
        goto done;
    }
    for (size_t r = 0; r < nruns; r++) {
        const SweepItem *c = &cfg->v[r / cmd->n], *k = &cmd->v[r % cmd->n];
        char name[160], path[4096];
        sweep_run_name(c, k, name, sizeof name);
        status[r] = -1;
        wall[r] = -1;
        snprintf(path, sizeof path, "%s/runs/%s/status", outdir, name);
        FILE *f = fopen(path, "r");
        if (f) {
            if (fscanf(f, "exit %d wall %lf", &status[r], &wall[r]) != 2) {
                status[r] = -1;
            }
            fclose(f);
        }
        snprintf(path, sizeof path, "%s/runs/%s/stats.json", outdir, name);
        json_object *j = json_object_from_file(path);
        if (!j) {
            continue; /* a failed run: its cells stay empty */
        }
        int bad = json_object_get_type(j) == json_type_object &&
                  flatten(j, "", &cols, &rows[r], 0);
        json_object_put(j);
        if (bad) {
            sweep_seterr(err, errlen, "out of memory");
            goto done;
        }
    }
    fprintf(out, "config,command,exit,wall_s");
    *timed = false;
    for (size_t i = 0; i < cols.n; i++) {
        fprintf(out, ",%s", cols.name[i]);
        *timed = *timed || !strcmp(cols.name[i], "timing.cycles");
    }
    fputc('\n', out);
    for (size_t r = 0; r < nruns; r++) {
        fprintf(out, "%s,%s,", cfg->v[r / cmd->n].name,
                cmd->v[r % cmd->n].name);
        if (status[r] >= 0) {
            fprintf(out, "%d,%.3f", status[r], wall[r]);
        } else {
            fputc(',', out);
        }
        for (size_t i = 0; i < cols.n; i++) {
            if (i < rows[r].cap && rows[r].set[i]) {
                double v = rows[r].v[i];
                /* counters exactly; ratios (ipc) to 6 digits */
                if (v == floor(v) && fabs(v) < 9007199254740992.0) {
                    fprintf(out, ",%.0f", v);
                } else {
                    fprintf(out, ",%.6g", v);
                }
            } else {
                fputc(',', out);
            }
        }
        fputc('\n', out);
    }
    rc = 0;
done:
    for (size_t i = 0; i < cols.n; i++) {
        free(cols.name[i]);
    }
    free(cols.name);
    for (size_t r = 0; rows && r < nruns; r++) {
        free(rows[r].v);
        free(rows[r].set);
    }
    free(rows);
    free(status);
    free(wall);
    return rc;
}
