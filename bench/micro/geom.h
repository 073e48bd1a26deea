/*
 * bench/micro/geom.h: cache geometry from a pointer-chasing latency
 * curve, by the method of Wong et al., "Demystifying GPU
 * Microarchitecture through Microbenchmarking" (ISPASS 2010), section
 * III-C, which assumes an LRU, set-associative cache without
 * prefetching, a chase stride smaller than a line, and footprints
 * sampled at least once per line.
 *
 * Following a cyclic chain over N bytes: while N <= C (the capacity)
 * every load hits, so the curve is flat.  Past C, each further line
 * overflows one more set, and an overflowing set misses on every access
 * (LRU evicts exactly the line needed next), so the latency rises in
 * steps: one per set, each `line` bytes after the previous one.  When
 * every set has overflowed the curve is flat again.  Hence capacity = the
 * last footprint at the base latency; sets = the number of steps; line =
 * the footprint distance between steps; way size = sets x line;
 * associativity = capacity / way size.
 *
 * Input points must be sorted by footprint.  With samples closer than a
 * line, the curve also creeps up between steps (each sample adds a load
 * or two to an overflowing set); a rise counts as a step when it is at
 * least half the largest rise and more than `tol` cycles (noise on real
 * hardware).
 */
#ifndef BENCH_MICRO_GEOM_H
#define BENCH_MICRO_GEOM_H

#include <stddef.h>
#include <stdint.h>

typedef struct MbPoint {
    uint64_t footprint;    /* bytes */
    double latency;        /* cycles per load */
} MbPoint;

typedef struct MbGeom {
    uint64_t capacity;     /* bytes */
    uint64_t line;         /* bytes */
    uint64_t sets;
    uint64_t ways;
    double hit;            /* latency below the capacity */
    double plateau;        /* past every step: each line's first load
                              misses, its others hit (stride < line) */
} MbGeom;

/* Infer the geometry of the first cache level the points cross.
 * 0 on success; -1 with a reason in why[] when the curve has no clean
 * base, steps or plateau (too few points, a footprint step wider than a
 * line, steps of uneven width, capacity not a multiple of the way size). */
int mb_geom_infer(const MbPoint *p, size_t n, double tol, MbGeom *out,
                  char *why, size_t whylen);

#endif
