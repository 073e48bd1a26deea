/*
 * runtime/fatbin/nvinfo.c: the register count ptxas gave a kernel, read
 * from a SASS cubin (fatbin.h, fatbin_cubin_regcount).
 *
 * A cubin is an ELF64 file (System V ABI; glibc's <elf.h>).  Its
 * ".nv.info" section, and ".nv.info.KERNEL" per kernel, hold attribute
 * records (EIATTR_*, the names cuobjdump --dump-elf prints): a byte of
 * format, a byte of attribute, then two bytes that are the value
 * (formats NVAL 1, BVAL 2, HVAL 3) or the size of the value that
 * follows (SVAL 4).  EIATTR_REGCOUNT (0x2f) is an SVAL of 8 bytes: the
 * kernel's symbol index in .symtab and its register count, what
 * `nvcc -Xptxas -v` prints as "Used N registers" and
 * `cuobjdump --dump-resource-usage` as REG.  Every offset is checked
 * against the bytes given: a malformed cubin yields "not found".
 */
#include "config.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/fatbin/fatbin.h"

enum {
    EIFMT_SVAL = 4,
    EIATTR_REGCOUNT = 0x2f,
};

typedef struct Cubin {
    const unsigned char *b;
    size_t len;
    Elf64_Ehdr eh;
} Cubin;

static int section(const Cubin *c, size_t i, Elf64_Shdr *sh)
{
    if (i >= c->eh.e_shnum || c->eh.e_shentsize != sizeof(*sh)) {
        return -1;
    }
    uint64_t at = c->eh.e_shoff + (uint64_t)i * sizeof(*sh);
    if (c->eh.e_shoff > c->len || at > c->len - sizeof(*sh)) {
        return -1;
    }
    memcpy(sh, c->b + at, sizeof(*sh));
    return 0;
}

/* The bytes of a section, or NULL when they lie outside the file. */
static const unsigned char *section_bytes(const Cubin *c,
                                          const Elf64_Shdr *sh)
{
    if (sh->sh_type == SHT_NOBITS || sh->sh_offset > c->len ||
        sh->sh_size > c->len - sh->sh_offset) {
        return NULL;
    }
    return c->b + sh->sh_offset;
}

/* NUL-terminated string at off in section strndx, or NULL. */
static const char *str_at(const Cubin *c, size_t strndx, uint64_t off)
{
    Elf64_Shdr sh;
    const unsigned char *s;
    if (section(c, strndx, &sh) != 0 || !(s = section_bytes(c, &sh)) ||
        off >= sh.sh_size || !memchr(s + off, 0, sh.sh_size - off)) {
        return NULL;
    }
    return (const char *)s + off;
}

/* Whether symbol sym of the symbol table section symsec is `name`. */
static int symbol_is(const Cubin *c, const Elf64_Shdr *symsec, uint32_t sym,
                     const char *name)
{
    const unsigned char *t = section_bytes(c, symsec);
    Elf64_Sym s;
    if (!t || symsec->sh_entsize != sizeof(s) ||
        (uint64_t)sym >= symsec->sh_size / sizeof(s)) {
        return 0;
    }
    memcpy(&s, t + (size_t)sym * sizeof(s), sizeof(s));
    const char *n = str_at(c, symsec->sh_link, s.st_name);
    return n && strcmp(n, name) == 0;
}

/* The EIATTR_REGCOUNT record of `kernel` in one .nv.info section. */
static int scan_info(const Cubin *c, const Elf64_Shdr *info,
                     const Elf64_Shdr *symsec, const char *kernel)
{
    const unsigned char *p = section_bytes(c, info);
    if (!p) {
        return -1;
    }
    uint64_t n = info->sh_size, at = 0;
    while (n - at >= 4) {
        unsigned fmt = p[at], attr = p[at + 1];
        uint16_t v;
        memcpy(&v, p + at + 2, 2);
        at += 4;
        if (fmt != EIFMT_SVAL) {
            continue;
        }
        if (v > n - at) {
            return -1;   /* truncated */
        }
        if (attr == EIATTR_REGCOUNT && v == 8) {
            uint32_t sym, regs;
            memcpy(&sym, p + at, 4);
            memcpy(&regs, p + at + 4, 4);
            if (symsec && symbol_is(c, symsec, sym, kernel) && regs <= 255) {
                return (int)regs;
            }
        }
        at += v;
    }
    return -1;
}

int fatbin_cubin_regcount(const void *elf, size_t len, const char *kernel)
{
    Cubin c = {.b = elf, .len = len};
    if (!elf || !kernel || len < sizeof(c.eh) ||
        memcmp(elf, ELFMAG, SELFMAG) != 0 ||
        c.b[EI_CLASS] != ELFCLASS64) {
        return -1;
    }
    memcpy(&c.eh, elf, sizeof(c.eh));
    Elf64_Shdr symsec, sh;
    int have_sym = 0;
    if (section(&c, c.eh.e_shstrndx, &sh) != 0) {
        return -1;
    }
    for (size_t i = 0; i < c.eh.e_shnum; i++) {
        if (section(&c, i, &sh) == 0 && sh.sh_type == SHT_SYMTAB) {
            symsec = sh;
            have_sym = 1;
            break;
        }
    }
    if (!have_sym) {
        return -1;
    }
    /* .nv.info.KERNEL first, then the module-wide .nv.info */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < c.eh.e_shnum; i++) {
            if (section(&c, i, &sh) != 0) {
                return -1;
            }
            const char *n = str_at(&c, c.eh.e_shstrndx, sh.sh_name);
            if (!n || strncmp(n, ".nv.info", 8) != 0) {
                continue;
            }
            int mine = n[8] == '.' && strcmp(n + 9, kernel) == 0;
            if ((pass == 0 && !mine) || (pass == 1 && n[8] != 0)) {
                continue;
            }
            int r = scan_info(&c, &sh, &symsec, kernel);
            if (r >= 0) {
                return r;
            }
        }
    }
    return -1;
}

int fatbin_image_regcounts(const void *image, size_t avail, unsigned arch,
                           const char *const *names, int *regs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        regs[i] = -1;
    }
    enum { MAX_ENTRIES = 64 };
    fatbin_entry_ex v[MAX_ENTRIES];
    char err[256];
    int ne = fatbin_list_ex(image, avail, v, MAX_ENTRIES, err, sizeof err);
    if (ne <= 0) {
        return 0;
    }
    if (ne > MAX_ENTRIES) {
        ne = MAX_ENTRIES;
    }
    long best = -1;
    for (int i = 0; i < ne; i++) {
        const fatbin_entry *e = &v[i].e;
        if (e->kind != FATBIN_KIND_ELF || e->arch > arch) {
            continue;
        }
        if (best < 0 || e->arch > v[best].e.arch) {
            best = i;
        }
    }
    if (best < 0) {
        return 0;
    }
    unsigned char *elf;
    size_t len;
    if (fatbin_entry_bytes(&v[best], &elf, &len, err, sizeof err) != 0) {
        return 0;
    }
    int found = 0;
    for (size_t i = 0; i < n; i++) {
        regs[i] = names[i] ? fatbin_cubin_regcount(elf, len, names[i]) : -1;
        found += regs[i] >= 0;
    }
    free(elf);
    return found;
}
