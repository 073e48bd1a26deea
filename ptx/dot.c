/*
 * ptx/dot.c: a function's CFG as a Graphviz digraph, for looking at
 * divergence by eye (`ptxemu --dot k.ptx | dot -Tsvg > k.svg`).
 *
 * One box per basic block listing its labels and instructions, ENTRY and
 * EXIT ovals, solid edges for control flow, and, for every block that
 * ends in a branch with more than one successor, a dashed red edge
 * labelled "reconv" to its immediate post-dominator: where the SIMT
 * stack will join the split lanes again.  Labels are plain dot strings
 * (no record or HTML syntax), so escaping is confined to dot_escape.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"

/* Write s[0..len) inside a dot "..." string.  Quotes and backslashes
 * must be escaped; braces, bars and angle brackets only matter to record
 * shapes, but escaping them keeps the text safe under any shape (dot
 * drops the backslash of an unknown escape).  Newlines become \l, which
 * ends a left-justified line; other control characters become spaces. */
static void dot_escape(FILE *out, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"':
        case '\\':
        case '{':
        case '}':
        case '|':
        case '<':
        case '>':
            fputc('\\', out);
            fputc(c, out);
            break;
        case '\n':
            fputs("\\l", out);
            break;
        default:
            fputc(c < 0x20 || c == 0x7f ? ' ' : c, out);
            break;
        }
    }
}

/* One instruction, as the printer writes it, trimmed to a single line
 * (leading indentation and the trailing newline dropped). */
static void dot_insn(FILE *out, const IrModule *m, const IrFunc *f,
                     const IrInsn *in)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *ms = open_memstream(&buf, &len);
    const char *s;

    if (!ms) {
        fputs("?", out);
        return;
    }
    ptx_print_insn(ms, m, f, in);
    if (fclose(ms) != 0 || !buf) {
        free(buf);
        fputs("?", out);
        return;
    }
    s = buf;
    while (len > 0 && (*s == ' ' || *s == '\t')) {
        s++;
        len--;
    }
    while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == ' ')) {
        len--;
    }
    dot_escape(out, s, len);
    free(buf);
}

static void dot_node_name(FILE *out, uint32_t b)
{
    if (b == IR_EXIT_BLOCK) {
        fputs("EXIT", out);
    } else {
        fprintf(out, "B%u", b);
    }
}

void ptx_print_cfg_dot(FILE *out, const IrModule *m, const IrFunc *f)
{
    const char *name = f->name ? f->name : "";
    uint32_t *first_label = NULL, *next_label = NULL;

    fputs("digraph \"", out);
    dot_escape(out, name, strlen(name));
    fputs("\" {\n", out);
    fputs("    node [shape=box, fontname=\"monospace\"];\n", out);
    fputs("    ENTRY [shape=oval];\n", out);
    fputs("    EXIT [shape=oval];\n", out);
    if (f->nblocks == 0) {
        fputs("    ENTRY -> EXIT;\n}\n", out);
        return;
    }

    /* Code labels by instruction, as chains, so each block can print the
     * labels that start it without scanning every label. */
    first_label = malloc((size_t)f->ninsns * sizeof(*first_label));
    next_label = malloc(((size_t)f->nlabels + 1) * sizeof(*next_label));
    if (first_label && next_label) {
        memset(first_label, 0xff, (size_t)f->ninsns * sizeof(*first_label));
        for (uint32_t k = f->nlabels; k-- > 0;) {
            const IrLabel *l = &f->labels[k];
            if (l->kind == IR_LABEL_CODE && l->insn < f->ninsns) {
                next_label[k] = first_label[l->insn];
                first_label[l->insn] = k;
            }
        }
    }

    for (uint32_t b = 0; b < f->nblocks; b++) {
        const IrBlock *bk = &f->blocks[b];
        fprintf(out, "    B%u [label=\"B%u\\l", b, b);
        for (uint32_t i = bk->first; i < bk->end; i++) {
            if (first_label && next_label) {
                for (uint32_t k = first_label[i]; k != UINT32_MAX;
                     k = next_label[k]) {
                    const char *ln = f->labels[k].name;
                    ln = ln ? ln : "";
                    dot_escape(out, ln, strlen(ln));
                    fputs(":\\l", out);
                }
            }
            fputs("    ", out);
            dot_insn(out, m, f, &f->insns[i]);
            fputs("\\l", out);
        }
        fputs("\"];\n", out);
    }

    fputs("    ENTRY -> B0;\n", out);
    for (uint32_t b = 0; b < f->nblocks; b++) {
        const IrBlock *bk = &f->blocks[b];
        for (uint32_t k = 0; k < bk->nsucc; k++) {
            fprintf(out, "    B%u -> ", b);
            dot_node_name(out, bk->succ[k]);
            fputs(";\n", out);
        }
        if (bk->nsucc > 1) {
            /* constraint=false: the reconvergence edge must not bend
             * the layout, which follows the real control flow. */
            fprintf(out, "    B%u -> ", b);
            dot_node_name(out, bk->ipdom);
            fputs(" [style=dashed, color=red, fontcolor=red, "
                  "label=\"reconv\", constraint=false];\n", out);
        }
    }
    fputs("}\n", out);
    free(first_label);
    free(next_label);
}
