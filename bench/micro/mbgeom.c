/*
 * bench/micro/mbgeom.c: `mbgeom FILE [--min B] [--max B] [--tol T]`
 * reads mb_chase's CSV (chase,space,footprint,stride,cycles_per_load),
 * keeps the rows whose footprint lies in [min, max] (one cache level's
 * window), and prints the geometry that mb_geom_infer finds:
 *
 *   capacity,line,sets,ways,hit_cycles,plateau_cycles
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geom.h"

int main(int argc, char **argv)
{
    const char *path = NULL;
    unsigned long long lo = 0, hi = ~0ull;
    double tol = 0.5;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--min") && i + 1 < argc) {
            lo = strtoull(argv[++i], NULL, 0);
        } else if (!strcmp(argv[i], "--max") && i + 1 < argc) {
            hi = strtoull(argv[++i], NULL, 0);
        } else if (!strcmp(argv[i], "--tol") && i + 1 < argc) {
            tol = strtod(argv[++i], NULL);
        } else if (!path && argv[i][0] != '-') {
            path = argv[i];
        } else {
            path = NULL;
            break;
        }
    }
    if (!path) {
        fprintf(stderr, "usage: mbgeom FILE.csv [--min B] [--max B] "
                        "[--tol CYCLES]\n");
        return 2;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return 1;
    }
    static MbPoint pts[65536];
    size_t n = 0;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char space[64];
        unsigned long long fp, stride;
        double lat;
        if (sscanf(line, "chase,%63[^,],%llu,%llu,%lf", space, &fp, &stride,
                   &lat) != 4) {
            continue; /* the header, or another benchmark's row */
        }
        if (fp < lo || fp > hi) {
            continue;
        }
        if (n == sizeof pts / sizeof pts[0]) {
            fprintf(stderr, "%s: more than %zu points\n", path, n);
            fclose(f);
            return 1;
        }
        pts[n].footprint = fp;
        pts[n].latency = lat;
        n++;
    }
    fclose(f);
    MbGeom g;
    char why[256];
    if (mb_geom_infer(pts, n, tol, &g, why, sizeof why)) {
        fprintf(stderr, "%s: %s\n", path, why);
        return 1;
    }
    printf("capacity,line,sets,ways,hit_cycles,plateau_cycles\n");
    printf("%llu,%llu,%llu,%llu,%.2f,%.2f\n",
           (unsigned long long)g.capacity, (unsigned long long)g.line,
           (unsigned long long)g.sets, (unsigned long long)g.ways, g.hit,
           g.plateau);
    return 0;
}
