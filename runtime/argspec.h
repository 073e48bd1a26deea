/*
 * runtime/argspec.h: kernel argument specifications of `ptxemu run`
 * (--arg SPEC), parsed into the bytes of a scalar parameter or the
 * initial contents of a device buffer.  Independent of the emulator, so
 * that it can be tested alone.
 *
 *   TYPE:VALUE              a scalar: u8 u16 u32 u64 s8 s16 s32 s64
 *                           b8 b16 b32 b64 (integers: decimal or 0x hex)
 *                           f16 bf16 f32 f64 (decimal or hex-float,
 *                           inf, nan; rounded to nearest even)
 *   hex:BYTES               raw parameter bytes in memory order, for
 *                           structs and .b8 arrays: hex:0100000002000000
 *   buf:TYPE:COUNT[:INIT]   a device buffer of COUNT elements of TYPE;
 *                           its device address is the parameter (u64).
 *                           INIT is one of
 *       zero                all bytes 0 (the default)
 *       none                not written before the launch (what a
 *                           fresh cudaMalloc holds: zero bytes here,
 *                           unwritten to `--tool initcheck`)
 *       iota                element i = i (converted to TYPE)
 *       fill=V              every element V
 *       rand=SEED           xorshift64* seeded with SEED (see below)
 *       values=V1,V2,...    the first elements; the rest are 0
 *       file=PATH           the file's bytes; the rest are 0
 *
 * Random values: x = SEED (or 0x9E3779B97F4A7C15 when SEED is 0); for
 * each element in order, x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
 * r = x * 0x2545F4914F6CDD1D (mod 2^64).  f32 = (r >> 40) * 2^-24,
 * f64 = (r >> 11) * 2^-53, f16/bf16 = the f32 value rounded, all in
 * [0, 1); integer types take the low bits of r (full range).
 */
#ifndef PTXEMU_RUNTIME_ARGSPEC_H
#define PTXEMU_RUNTIME_ARGSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum ArgTypeKind { AT_U = 'u', AT_S = 's', AT_B = 'b', AT_F = 'f',
                           AT_BF = 'h' } ArgTypeKind;

typedef struct ArgType {
    const char *name;       /* "f32" */
    unsigned size;          /* bytes */
    char kind;              /* ArgTypeKind */
} ArgType;

typedef enum ArgKind { ARG_SCALAR, ARG_RAW, ARG_BUFFER } ArgKind;

typedef struct ArgSpec {
    const char *text;       /* the spec as given (not owned) */
    ArgKind kind;
    const ArgType *type;    /* scalar and buffer element type; NULL: raw */
    uint8_t *bytes;         /* scalar value / raw bytes / buffer contents */
    size_t nbytes;
    uint64_t count;         /* buffer elements */
    uint64_t devptr;        /* buffers: filled by the caller */
    bool uninit;            /* buffers: INIT none (no copy in) */
} ArgSpec;

/* Results of argspec_parse. */
enum { ARGSPEC_OK = 0, ARGSPEC_IO = 1, ARGSPEC_USAGE = 2 };

/* Parse spec into *a (a->bytes malloc'd).  On error returns ARGSPEC_USAGE
 * (malformed) or ARGSPEC_IO (file=PATH unreadable) and writes a message
 * into err. */
int argspec_parse(const char *spec, ArgSpec *a, char *err, size_t errlen);
void argspec_free(ArgSpec *a);

/* The type named name ("u32"), or NULL. */
const ArgType *argspec_type(const char *name, size_t len);

/* Print element p of type t: integers in decimal, f16/bf16/f32 with
 * %.9g, f64 with %.17g. */
void argspec_print_elem(FILE *out, const ArgType *t, const void *p);

/* Conversions (round to nearest even), exposed for tests. */
uint16_t argspec_f32_to_f16(float f);
float argspec_f16_to_f32(uint16_t h);
uint16_t argspec_f32_to_bf16(float f);
float argspec_bf16_to_f32(uint16_t h);
/* Next value of the documented generator; *state must be non-zero. */
uint64_t argspec_xorshift64s(uint64_t *state);

/* Parse "X[,Y[,Z]]" (each >= 1) into d[3]; missing ones are 1. */
bool argspec_parse_dim3(const char *s, unsigned d[3]);
/* Parse a non-negative decimal or 0x integer that fits in max. */
bool argspec_parse_uint(const char *s, uint64_t max, uint64_t *out);

#endif
