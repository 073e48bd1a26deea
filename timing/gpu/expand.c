/*
 * timing/gpu/expand.c: PTX-to-machine expansion tables and their lookup
 * (contract in expand.h; the rows and their sources in expand.def).
 */
#include "timing/gpu/expand.h"

#include <stdbool.h>
#include <string.h>

static const char *const arch_names[GPU_EXPAND_ARCH_COUNT] = {
    [GPU_EXPAND_GT200] = "gt200",
    [GPU_EXPAND_FERMI] = "fermi",
    [GPU_EXPAND_VOLTA] = "volta",
    [GPU_EXPAND_AMPERE] = "ampere",
    [GPU_EXPAND_HOPPER] = "hopper",
};

int gpu_expand_arch(const char *name)
{
    for (int a = 0; name && a < GPU_EXPAND_ARCH_COUNT; a++) {
        if (strcmp(name, arch_names[a]) == 0) {
            return a;
        }
    }
    return -1;
}

#define P(u, l, i) {PTXEMU_TM_UNIT_##u, l, i}

/* first pass: the source texts */
#define EXPAND_SOURCE(id, text) static const char src_##id[] = text;
#define EXPAND_ROW(...)
#include "timing/gpu/expand.def"
#undef EXPAND_SOURCE
#undef EXPAND_ROW

/* second pass: the rows */
#define EXPAND_SOURCE(id, text)
#define EXPAND_ROW(arch, id, op, ty, mods, n, ...)                        \
    {GPU_EXPAND_##arch, ty, op, mods, {n, {__VA_ARGS__}, src_##id}},
static const GpuExpandRow table[] = {
#include "timing/gpu/expand.def"
};
#undef EXPAND_SOURCE
#undef EXPAND_ROW

const GpuExpandRow *gpu_expand_table(uint32_t *nrows)
{
    *nrows = (uint32_t)(sizeof(table) / sizeof(table[0]));
    return table;
}

/* The opcode word of a PTX instruction's text: after blanks and a
 * guard ("@%p1", "@!%p2"); *len its length. */
static const char *opcode_word(const char *text, size_t *len)
{
    const char *s = text;
    s += strspn(s, " \t");
    if (*s == '@') {
        s += strcspn(s, " \t");
        s += strspn(s, " \t");
    }
    *len = strcspn(s, " \t;");
    return s;
}

/* Whether modifier `m` (m_len bytes, no dot) is one of the word's
 * dot-separated parts after the first. */
static bool has_mod(const char *w, size_t wlen, const char *m, size_t mlen)
{
    const char *end = w + wlen, *p = memchr(w, '.', wlen);
    while (p && p < end) {
        const char *q = p + 1;
        const char *n = memchr(q, '.', (size_t)(end - q));
        size_t plen = (size_t)((n ? n : end) - q);
        if (plen == mlen && memcmp(q, m, mlen) == 0) {
            return true;
        }
        p = n;
    }
    return false;
}

/* Whether an operand of the instruction (the text after the opcode
 * word, `ops`) is `m` (m_len bytes) or `m` and digits: "%clock" matches
 * %clock and %clock64, not %clock_hi or a register named %clockx. */
static bool has_operand(const char *ops, const char *m, size_t mlen)
{
    for (const char *p = ops; (p = strchr(p, m[0])) != NULL; p++) {
        if (strncmp(p, m, mlen) != 0 ||
            (p > ops && !strchr(" \t,{[", p[-1]))) {
            continue;
        }
        const char *e = p + mlen;
        e += strspn(e, "0123456789");
        if (!*e || strchr(" \t,;}]", *e)) {
            return true;
        }
    }
    return false;
}

/* How many modifiers row needs (all present in the word; one that begins
 * with '%' is an operand prefix instead), -1 when one is missing. */
static int mods_matched(const char *mods, const char *w, size_t wlen)
{
    int count = 0;
    const char *m = mods;
    while (*m) {
        m += *m == '.';
        size_t mlen = strcspn(m, ".");
        if (mlen) {
            bool ok = w && (*m == '%' ? has_operand(w + wlen, m, mlen)
                                      : has_mod(w, wlen, m, mlen));
            if (!ok) {
                return -1;
            }
            count++;
        }
        m += mlen;
    }
    return count;
}

const GpuExpand *gpu_expand_match(const GpuExpandRow *rows, uint32_t nrows,
                                  int arch, const ptxemu_tm_insn *insn)
{
    if (!insn || !insn->opname) {
        return NULL;
    }
    size_t wlen = 0;
    const char *w = NULL;
    if (insn->text && *insn->text) {
        w = opcode_word(insn->text, &wlen);
    }
    const GpuExpand *best = NULL;
    int most = -1;
    for (uint32_t i = 0; i < nrows; i++) {
        const GpuExpandRow *r = &rows[i];
        if (r->arch != arch || (r->type && r->type != insn->type) ||
            strcmp(r->opname, insn->opname) != 0) {
            continue;
        }
        int k = mods_matched(r->mods, w, wlen);
        if (k > most) {
            most = k;
            best = &r->e;
        }
    }
    return best;
}

const GpuExpand *gpu_expand(int arch, const ptxemu_tm_insn *insn)
{
    return gpu_expand_match(table, sizeof(table) / sizeof(table[0]), arch,
                            insn);
}
