/*
 * ptx/arena.h: bump allocation for everything a module owns.
 *
 * A module is built once and freed at once, so its IR lives in large
 * chunks: no per-node malloc/free, and peak memory stays a small multiple
 * of the input.  Strings are interned in a hash table owned by the arena,
 * so equal names share one pointer (and compare with ==).
 */
#ifndef PTXEMU_ARENA_H
#define PTXEMU_ARENA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct PtxArena PtxArena;

PtxArena *ptx_arena_new(void);
void ptx_arena_free(PtxArena *a);

/* Zeroed, 16-byte aligned memory that lives as long as the arena.
 * Aborts on out-of-memory (the only sane response inside a parser). */
void *ptx_arena_alloc(PtxArena *a, size_t size);
void *ptx_arena_dup(PtxArena *a, const void *p, size_t size);
/* Grow an arena array of n elements of elsize to at least need elements;
 * *cap tracks capacity.  Old memory is abandoned to the arena. */
void *ptx_arena_grow(PtxArena *a, void *p, uint32_t n, uint32_t *cap,
                     uint32_t need, size_t elsize);

/* Interned copy of s[0..len): equal strings give the same pointer. */
const char *ptx_arena_intern(PtxArena *a, const char *s, size_t len);
/* Plain copy, not interned. */
char *ptx_arena_strndup(PtxArena *a, const char *s, size_t len);

/* Forget everything allocated so far but keep one chunk for reuse: for
 * per-statement scratch data.  Interned strings must not be used with a
 * scratch arena. */
void ptx_arena_reset(PtxArena *a);

/* A point in a scratch arena to come back to: ptx_arena_release frees
 * everything allocated after the mark (its memory reads as zero again)
 * and keeps what came before.  Interned strings must not be used with
 * it either. */
typedef struct PtxArenaMark {
    void *chunk;
    size_t used;
} PtxArenaMark;
PtxArenaMark ptx_arena_mark(const PtxArena *a);
void ptx_arena_release(PtxArena *a, PtxArenaMark m);

/* Bytes obtained from the system so far (for the benchmark). */
size_t ptx_arena_bytes(const PtxArena *a);

#ifdef __cplusplus
}
#endif
#endif
