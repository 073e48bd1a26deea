/*
 * runtime/fatbin/elf.c: finds the fat-binary sections of an ELF file
 * held in memory (programs, shared libraries and objects that nvcc
 * made).  Only the section headers are read, each bound checked; the
 * ELF structures are the System V ABI's, from glibc's <elf.h>.
 */
#include "config.h"

#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "runtime/fatbin/fatbin.h"

/* The sections nvcc puts fat binaries in: whole-program or device-
 * linked code, and relocatable code per translation unit (-rdc). */
static const char *const fb_section_names[] = {
    ".nv_fatbin",
    "__nv_relfatbin",
};

static int elf_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int elf_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        int n = snprintf(err, errlen, "ELF: ");
        size_t used = n > 0 && (size_t)n < errlen ? (size_t)n : 0;
        va_start(ap, fmt);
        vsnprintf(err + used, errlen - used, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int fatbin_is_elf(const void *file, size_t len)
{
    return len >= SELFMAG && memcmp(file, ELFMAG, SELFMAG) == 0;
}

/* Section header i, copied out (the file bytes need not be aligned). */
static Elf64_Shdr shdr_at(const unsigned char *f, uint64_t shoff, size_t i)
{
    Elf64_Shdr sh;
    memcpy(&sh, f + shoff + i * sizeof sh, sizeof sh);
    return sh;
}

static int is_fatbin_name(const char *name)
{
    for (size_t i = 0; i < sizeof fb_section_names /
                           sizeof fb_section_names[0]; i++) {
        if (strcmp(name, fb_section_names[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

int fatbin_elf_sections(const void *file, size_t len, fatbin_section *out,
                        size_t max, char *err, size_t errlen)
{
    const unsigned char *f = file;
    Elf64_Ehdr eh;
    if (!fatbin_is_elf(file, len)) {
        return elf_err(err, errlen, "not an ELF file (no \\177ELF magic)");
    }
    if (len < EI_NIDENT) {
        return elf_err(err, errlen, "identification truncated (%zu of %d "
                       "bytes)", len, EI_NIDENT);
    }
    if (f[EI_CLASS] != ELFCLASS64) {
        return elf_err(err, errlen, "only 64-bit ELF files are supported");
    }
    if (f[EI_DATA] != ELFDATA2LSB) {
        return elf_err(err, errlen,
                       "only little-endian ELF files are supported");
    }
    if (len < sizeof eh) {
        return elf_err(err, errlen, "file header truncated (%zu of %zu "
                       "bytes)", len, sizeof eh);
    }
    memcpy(&eh, f, sizeof eh);
    if (eh.e_shoff == 0) {
        return elf_err(err, errlen, "no section headers");
    }
    if (eh.e_shentsize != sizeof(Elf64_Shdr)) {
        return elf_err(err, errlen, "section header size %u, expected %zu",
                       eh.e_shentsize, sizeof(Elf64_Shdr));
    }
    if (eh.e_shoff > len || len - eh.e_shoff < sizeof(Elf64_Shdr)) {
        return elf_err(err, errlen, "section headers at %llu lie past the "
                       "end (%zu bytes)",
                       (unsigned long long)eh.e_shoff, len);
    }
    /* Extended numbering: counts too large for the file header live in
     * section header 0. */
    Elf64_Shdr sh0 = shdr_at(f, eh.e_shoff, 0);
    uint64_t shnum = eh.e_shnum ? eh.e_shnum : sh0.sh_size;
    uint64_t strndx = eh.e_shstrndx == SHN_XINDEX ? sh0.sh_link
                                                   : eh.e_shstrndx;
    if (shnum > (len - eh.e_shoff) / sizeof(Elf64_Shdr)) {
        return elf_err(err, errlen, "%llu section headers run past the end",
                       (unsigned long long)shnum);
    }
    if (strndx >= shnum) {
        return elf_err(err, errlen, "section-name table index %llu out of "
                       "range (%llu sections)", (unsigned long long)strndx,
                       (unsigned long long)shnum);
    }
    Elf64_Shdr st = shdr_at(f, eh.e_shoff, (size_t)strndx);
    if (st.sh_type == SHT_NOBITS || st.sh_offset > len ||
        st.sh_size > len - st.sh_offset) {
        return elf_err(err, errlen, "section-name table lies outside the "
                       "file");
    }
    const char *names = (const char *)f + st.sh_offset;
    size_t found = 0;
    for (size_t i = 1; i < shnum; i++) {
        Elf64_Shdr sh = shdr_at(f, eh.e_shoff, i);
        if (sh.sh_name >= st.sh_size ||
            !memchr(names + sh.sh_name, 0, st.sh_size - sh.sh_name)) {
            return elf_err(err, errlen, "section %zu: name offset %u "
                           "outside the name table", i, sh.sh_name);
        }
        const char *name = names + sh.sh_name;
        if (!is_fatbin_name(name)) {
            continue;
        }
        if (sh.sh_type == SHT_NOBITS || sh.sh_offset > len ||
            sh.sh_size > len - sh.sh_offset) {
            return elf_err(err, errlen, "section %zu (%s): %llu bytes at "
                           "%llu lie outside the file (%zu bytes)", i, name,
                           (unsigned long long)sh.sh_size,
                           (unsigned long long)sh.sh_offset, len);
        }
        if (found < max) {
            fatbin_section *s = &out[found];
            snprintf(s->name, sizeof s->name, "%s", name);
            s->offset = sh.sh_offset;
            s->size = sh.sh_size;
        }
        found++;
    }
    return found > INT32_MAX ? INT32_MAX : (int)found;
}
