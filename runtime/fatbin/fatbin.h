/*
 * runtime/fatbin/fatbin.h: CUDA fat binaries: the registration wrapper
 * that nvcc places in .nvFatBinSegment, the fat-binary container in
 * .nv_fatbin, its entries (PTX, ELF/SASS), and their decompression.
 *
 * Contract.  Everything here reads untrusted bytes: every length is
 * checked against the bytes available, and a malformed image gives an
 * error message, never a crash.  Nothing here knows about devices; the
 * driver (runtime/cuda) loads the PTX it gets through the C API.
 *
 * An "image" is any of what CUDA accepts where a fat binary may appear
 * (cuModuleLoadData, cuModuleLoadFatBinary, __cudaRegisterFatBinary):
 *   - the registration wrapper (magic FATBIN_WRAPPER_MAGIC), whose data
 *     pointer leads to the container;
 *   - the container itself (magic FATBIN_MAGIC);
 *   - NUL-terminated PTX text (starts with optional blanks/comments and
 *     ".version"), returned as is.
 */
#ifndef PTXEMU_RUNTIME_FATBIN_H
#define PTXEMU_RUNTIME_FATBIN_H

#include <stddef.h>
#include <stdint.h>

#define FATBIN_WRAPPER_MAGIC 0x466243b1u   /* __fatBinC_Wrapper_t.magic */
#define FATBIN_MAGIC         0xba55ed50u   /* container header */

typedef enum fatbin_kind {
    FATBIN_KIND_PTX = 1,
    FATBIN_KIND_ELF = 2,        /* SASS cubin: we cannot run it */
    FATBIN_KIND_OTHER = 0
} fatbin_kind;

typedef struct fatbin_entry {
    fatbin_kind kind;
    unsigned arch;              /* 80 for compute_80 / sm_80, 90 for 90 */
    int arch_suffix;            /* 'a', 'f' or 0 (sm_90a ...) */
    int compressed;             /* payload compressed in the image */
    uint64_t offset;            /* payload offset from the container */
    uint64_t stored_size;       /* bytes in the image */
    uint64_t size;              /* bytes once decompressed */
    char identifier[128];       /* file name nvcc recorded, may be "" */
} fatbin_entry;

/* Lists the entries of the image's container(s).  `avail` bounds the
 * bytes readable from `image` (0: unknown, trust the headers, as for a
 * pointer handed to __cudaRegisterFatBinary).  Fills at most `max`
 * entries and returns how many there are, or -1 with a message in err. */
int fatbin_list(const void *image, size_t avail, fatbin_entry *out,
                size_t max, char *err, size_t errlen);

/* The PTX to run for virtual architecture `want_arch` (e.g. 80): the
 * PTX entry whose arch equals it, else the newest PTX not above it,
 * else the newest PTX.  On success returns 0 and a malloc'd
 * NUL-terminated text in *ptx (caller frees), its length in *len and
 * the chosen arch in *arch (any of len/arch may be NULL).  Plain PTX
 * text images are copied.  When the image holds only SASS, fails with
 * a message telling the user to rebuild with
 * -gencode arch=compute_XX,code=compute_XX.  Returns -1 with a message
 * in err on failure. */
int fatbin_get_ptx(const void *image, size_t avail, unsigned want_arch,
                   char **ptx, size_t *len, unsigned *arch,
                   char *err, size_t errlen);

/* All PTX entries for the best arch (as above) when one image holds
 * several PTX modules (relocatable device code keeps one per
 * translation unit): returns their count, fills at most max texts
 * (each malloc'd, caller frees), or -1 with a message. */
int fatbin_get_all_ptx(const void *image, size_t avail, unsigned want_arch,
                       char **ptx, size_t *len, size_t max,
                       char *err, size_t errlen);

/* ---- Additions (tools and tests) ----------------------------------
 *
 * Image forms, in full.  A registration wrapper of version 1 leads to
 * one container; one of version 2 (relocatable device code, after the
 * device link) leads to the linked container and, through its second
 * pointer, to a NULL-terminated array of the translation units'
 * containers, whose PTX fatbin_get_all_ptx returns.  With avail != 0 a
 * container may be followed by more (zero padding to 8 bytes between),
 * as in an ELF file's .nv_fatbin or __nv_relfatbin section. */

typedef enum fatbin_compression {
    FATBIN_COMP_NONE = 0,
    FATBIN_COMP_LZ4 = 1,        /* LZ4 block, no frame */
    FATBIN_COMP_ZSTD = 2        /* Zstandard frame */
} fatbin_compression;

typedef struct fatbin_entry_ex {
    fatbin_entry e;             /* as fatbin_list gives it */
    unsigned raw_kind;          /* the header's kind: 1, 2, 8 (LTO IR,
                                 * -gencode code=lto_XX), ... */
    unsigned container;         /* which container of the image */
    uint64_t container_at;      /* its offset in the image's bytes, or
                                 * 0 when reached through a pointer */
    const unsigned char *payload;   /* the e.stored_size stored bytes */
    uint64_t packed_size;       /* compressed bytes at payload */
    unsigned version_major;     /* PTX ISA version for PTX, ELF */
    unsigned version_minor;     /* container format version for ELF */
    uint64_t flags;             /* the entry header's flag word */
    fatbin_compression compression;
    int debug;                  /* compiled with -g */
    char options[128];          /* ptxas options recorded, may be "" */
} fatbin_entry_ex;

/* fatbin_list with every detail of each entry. */
int fatbin_list_ex(const void *image, size_t avail, fatbin_entry_ex *out,
                   size_t max, char *err, size_t errlen);

/* The payload of one listed entry, decompressed: a malloc'd buffer of
 * *len bytes plus a NUL not counted (caller frees).  0 or -1. */
int fatbin_entry_bytes(const fatbin_entry_ex *x, unsigned char **data,
                       size_t *len, char *err, size_t errlen);

/* Index in v[0..n) of the PTX entry that fatbin_get_ptx would pick for
 * want_arch, or -1 when there is no PTX entry. */
long fatbin_choose_ptx(const fatbin_entry_ex *v, size_t n,
                       unsigned want_arch);

/* Whether an entry is the PTX of the CUDA device runtime library
 * (libcudadevrt, which nvcc -rdc=true ... -lcudadevrt adds beside the
 * program's): it defines the __cudaCDP2 entry points, which the emulator
 * provides itself (emu/devrt.h), so fatbin_get_ptx, fatbin_get_all_ptx
 * and fatbin_choose_ptx leave it out. */
int fatbin_entry_is_devrt(const fatbin_entry_ex *x);

/* "none", "lz4", "zstd". */
const char *fatbin_compression_name(fatbin_compression c);

/* Writes "compute_80", "sm_90a"... for an entry into buf. */
void fatbin_arch_name(const fatbin_entry *e, char *buf, size_t len);

/* The fat-binary sections of an ELF file image (runtime/fatbin/elf.c):
 * ".nv_fatbin" (linked or whole-program code) and "__nv_relfatbin"
 * (relocatable code per translation unit). */
typedef struct fatbin_section {
    char name[32];
    uint64_t offset;            /* in the file */
    uint64_t size;
} fatbin_section;

/* Whether p points into readable memory of this process: 1 with the
 * bytes readable from p (through adjoining mappings) in *extent, 0 when
 * it does not (a wild pointer), -1 when that cannot be told (no
 * /proc/self/maps).  The reader bounds an image given without a size
 * (avail 0) and each container its wrapper points to by this, so that
 * a corrupt header is an error, never a read past the mapping
 * (runtime/fatbin/extent.c). */
int fatbin_readable(const void *p, size_t *extent);

/* 1 when the bytes start like an ELF file. */
int fatbin_is_elf(const void *file, size_t len);

/* Finds the fat-binary sections of a 64-bit little-endian ELF file held
 * in memory: returns how many there are (filling at most max), or -1
 * with a message. */
int fatbin_elf_sections(const void *file, size_t len, fatbin_section *out,
                        size_t max, char *err, size_t errlen);

/* The registers per thread ptxas allocated for `kernel` in a SASS
 * cubin of len bytes (runtime/fatbin/nvinfo.c: EIATTR_REGCOUNT of its
 * .nv.info sections), or -1 when the cubin does not say or is
 * malformed. */
int fatbin_cubin_regcount(const void *elf, size_t len, const char *kernel);

/* For each of n kernels names[i], the register count of the image's
 * SASS for architecture `arch` (an ELF entry of exactly that arch, else
 * the newest below it) into regs[i], -1 where none is found.  Returns
 * the number found (0 also when the image holds no usable cubin). */
int fatbin_image_regcounts(const void *image, size_t avail, unsigned arch,
                           const char *const *names, int *regs, size_t n);

#endif
