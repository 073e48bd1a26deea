/*
 * check/report.c: the checkers' shared reporting (see report.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check/report.h"
#include "check/xmlout.h"
#include "timing/tm.h"

void san_out_init(SanOut *o, FILE *out, SanFormat fmt, uint64_t limit)
{
    *o = (SanOut){ .out = out, .fmt = fmt, .limit = limit };
    if (fmt == SAN_FMT_XML) {
        o->dest = out;
        if (!(o->out = open_memstream(&o->xbuf, &o->xlen))) {
            o->out = out;             /* out of memory: JSON Lines */
            o->fmt = SAN_FMT_JSON;
            return;
        }
    }
}

/* XML: the records written so far become elements, and the buffer
 * starts again (a partial line, never left by the tools, is kept).
 * Unless forced, only once it holds XML_CHUNK bytes: a report that
 * small comes out in one piece at the summary, not cut by other text
 * on the same stream (`ptxemu run` prints a kernel's fault on stderr). */
#define XML_CHUNK (1u << 20)
static void xml_drain(SanOut *o, bool force)
{
    if (o->fmt != SAN_FMT_XML || fflush(o->out) ||
        (!force && o->xlen < XML_CHUNK)) {
        return;
    }
    if (!o->xml_begun) {
        san_xml_begin(o->dest);
        o->xml_begun = true;
    }
    size_t used = san_xml_records(o->dest, o->xbuf, o->xlen);
    size_t rest = o->xlen - used;
    char *tail = rest ? malloc(rest) : NULL;
    if (tail) {
        memcpy(tail, o->xbuf + used, rest);
    }
    fseeko(o->out, 0, SEEK_SET);
    if (tail) {
        fwrite(tail, 1, rest, o->out);
        free(tail);
    }
    fflush(o->out);
}

bool san_out_count(SanOut *o)
{
    xml_drain(o, false);
    o->errors++;
    if (o->limit && o->printed >= o->limit) {
        o->dropped++;
        return false;
    }
    o->printed++;
    return true;
}

void san_out_add(SanOut *o, uint64_t n)
{
    o->errors += n;
}

void san_out_summary(SanOut *o)
{
    if (o->fmt != SAN_FMT_TEXT) {
        fprintf(o->out, "{\"summary\":{\"errors\":%" PRIu64 ",\"printed\":%"
                PRIu64 "}}\n", o->errors, o->printed);
        fflush(o->out);
        if (o->fmt == SAN_FMT_XML) {
            xml_drain(o, true);
            san_xml_end(o->dest);
            fclose(o->out);
            free(o->xbuf);
            o->out = o->dest;
            o->xbuf = NULL;
            o->fmt = SAN_FMT_JSON;    /* the document is closed */
        }
        return;
    }
    fprintf(o->out, SAN_P "ERROR SUMMARY: %" PRIu64 " error%s\n", o->errors,
            o->errors == 1 ? "" : "s");
    if (o->dropped) {
        fprintf(o->out, SAN_P "(%" PRIu64 " errors not printed: "
                "--print-limit %" PRIu64 ")\n", o->dropped, o->limit);
    }
    fflush(o->out);
}

void san_loc_of(SanLoc *l, const EmuFunc *f, uint32_t pc)
{
    *l = (SanLoc){ .func = "?", .pc = pc };
    if (!f || !f->ir) {
        return;
    }
    l->func = f->ir->name;
    const IrModule *m = f->mod ? f->mod->ir : NULL;
    l->file = m ? ir_func_file(m, f->ir) : NULL;
    if (pc >= f->ncode || !f->code[pc].ir) {
        return;
    }
    const IrInsn *in = f->code[pc].ir;
    l->line = in->loc.line;
    if (m && in->src.file && in->src.file < m->nfiles &&
        m->files[in->src.file]) {
        l->src = m->files[in->src.file];
        l->src_line = in->src.line;
        /* inlined code: the call site is the program's line */
        uint32_t cf = in->src.inl_file;
        if (cf && cf < m->nfiles && m->files[cf]) {
            l->inl_src = l->src;
            l->inl_line = l->src_line;
            l->src = m->files[cf];
            l->src_line = in->src.inl_line;
        }
    }
}

const EmuFunc *san_func_named(const EmuModule *m, const char *name)
{
    for (uint32_t i = 0; m && name && i < m->nfuncs; i++) {
        const EmuFunc *f = m->funcs[i];
        if (f && f->ir && f->ir->name && !strcmp(f->ir->name, name)) {
            return f;
        }
    }
    return NULL;
}

void san_text_at(FILE *o, const SanLoc *l)
{
    fprintf(o, "at %s+0x%x in %s:%u", l->func, l->pc,
            l->file ? l->file : "?", l->line);
    if (l->src) {
        fprintf(o, " (%s:%u)", l->src, l->src_line);
    }
}

void san_json_str(FILE *o, const char *s)
{
    tm_json_string(o, s ? s : "");
}

void san_json_loc(FILE *o, const char *key, const SanLoc *l)
{
    fprintf(o, "\"%s\":{\"function\":", key);
    san_json_str(o, l->func);
    fprintf(o, ",\"pc\":%u,\"file\":", l->pc);
    san_json_str(o, l->file);
    fprintf(o, ",\"line\":%u", l->line);
    if (l->src) {
        fputs(",\"source\":", o);
        san_json_str(o, l->src);
        fprintf(o, ",\"source_line\":%u", l->src_line);
        if (l->inl_src) {
            fputs(",\"inlined_source\":", o);
            san_json_str(o, l->inl_src);
            fprintf(o, ",\"inlined_line\":%u", l->inl_line);
        }
    }
    fputc('}', o);
}

void san_json_dim3(FILE *o, const char *key, const uint32_t v[3])
{
    fprintf(o, "\"%s\":[%u,%u,%u]", key, v[0], v[1], v[2]);
}

static void unlinear(uint32_t linear, const uint32_t dim[3], uint32_t v[3])
{
    uint32_t dx = dim[0] ? dim[0] : 1, dy = dim[1] ? dim[1] : 1;
    v[0] = linear % dx;
    v[1] = linear / dx % dy;
    v[2] = linear / dx / dy;
}

void san_tid_of(const EmuLaunch *l, uint32_t linear, uint32_t tid[3])
{
    unlinear(linear, l->block, tid);
}

void san_ctaid_of(const EmuLaunch *l, uint32_t linear, uint32_t ctaid[3])
{
    unlinear(linear, l->grid, ctaid);
}

const char *san_space_words(PtxSpace s)
{
    switch (s) {
    case PTX_SPACE_SHARED:
    case PTX_SPACE_SHARED_CLUSTER: return "__shared__";
    case PTX_SPACE_LOCAL: return "__local__";
    case PTX_SPACE_CONST: return "__constant__";
    case PTX_SPACE_PARAM: return "__param__";
    case PTX_SPACE_GENERIC: return "__generic__";
    default: return "__global__";
    }
}
