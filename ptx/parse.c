/*
 * ptx/parse.c: the front end's entry points: read, scan, parse, build,
 * check the module-level rules, and hand back an IrModule or NULL.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/build_int.h"
#include "ptx/parser.h"
#include "ptx/ptx.h"
#include "ptx/readfile.h"

#define YYSTYPE PTX_YYSTYPE
#define YYLTYPE PTX_YYLTYPE
#include "ptx/lexer.h"

/* The header is a heap block of its own, not arena memory: a program
 * that keeps a module to its end (a CUDA module is freed with its
 * context, which a program need not destroy) then reaches every block
 * from the pointer it holds, not only through pointers into the middle
 * of the arena's chunks, which leak checkers report as possibly lost.
 * Out of memory aborts, as the arena does. */
IrModule *ptx_module_new(const char *filename)
{
    IrModule *m = calloc(1, sizeof(*m));
    if (!m) {
        fputs("ptxemu: out of memory\n", stderr);
        abort();
    }
    m->arena = ptx_arena_new();
    m->filename = ptx_arena_strndup(m->arena, filename, strlen(filename));
    m->address_size = 64;
    return m;
}

void ptx_module_free(IrModule *m)
{
    if (m) {
        /* The arrays live in m->arena: free the others first. */
        for (uint32_t i = 0; i < m->nmore_arenas; i++) {
            ptx_arena_free(m->more_arenas[i]);
        }
        ptx_arena_free(m->arena);
        free(m);
    }
}

/* Parse a buffer that ends with two NUL bytes beyond len (flex's
 * in-place scanning needs them; the text itself may contain NULs, which
 * the scanner reports as unexpected bytes). */
static IrModule *parse_buffer(const char *filename, char *buf, size_t len,
                              PtxDiag *d)
{
    IrModule *m = ptx_module_new(filename);
    PtxParse ps;
    memset(&ps, 0, sizeof(ps));
    ps.diag = d;
    ps.mod = m;
    ps.arena = m->arena;
    ps.scratch = ptx_arena_new();
    ps.src = buf;
    ps.srclen = len;
    ps.line = 1;
    ps.col = 1;
    ps.syms = ptx_symtab_new();

    yyscan_t scanner;
    if (ptx_yylex_init_extra(&ps, &scanner) != 0) {
        ptx_error(d, ptx_loc(0, 0), "cannot initialise the scanner");
        goto out;
    }
    ps.scanner = scanner;
    YY_BUFFER_STATE bs = ptx_yy_scan_buffer(buf, len + 2, scanner);
    if (!bs) {
        ptx_error(d, ptx_loc(0, 0), "cannot initialise the scanner");
        ptx_yylex_destroy(scanner);
        goto out;
    }
    /* A full parser stack (status 2) was reported by ptx_yyerror. */
    (void)ptx_yyparse(scanner, &ps);
    /* A file cut inside a function body leaves it open. */
    if (ps.func && ps.in_body) {
        if (!ps.lex_fatal && !ps.eof_reported) {
            ptx_error(d, ptx_loc(ps.line, ps.col), "unexpected end of file "
                      "inside function '%s'", ps.func->name);
        }
        pb_func_end(&ps, ptx_loc(ps.line, ps.col));
    }
    ptx_yy_delete_buffer(bs, scanner);
    ptx_yylex_destroy(scanner);
    if (!ps.seen_version && d->nerrors == 0) {
        ptx_error(d, ptx_loc(1, 1), "missing .version directive");
    }
    if (m->ntargets == 0 && d->nerrors == 0) {
        ptx_error(d, ptx_loc(1, 1), "missing .target directive");
    }
out:
    d->hold_pos = NULL;
    ptx_diag_finish(d);
    free(ps.scope_refs);
    pb_init_reset(&ps);     /* an initializer cut off by the end */
    ptx_symtab_free(ps.syms);
    ptx_arena_free(ps.scratch);
    if (d->nerrors) {
        ptx_module_free(m);
        return NULL;
    }
    return m;
}

IrModule *ptx_parse_string(const char *filename, const char *src, size_t len,
                           PtxDiag *d, FILE *echo)
{
    if (!filename) {
        filename = "<string>";
    }
    char *buf = malloc(len + 2);
    if (!buf) {
        ptx_diag_init(d, filename, NULL, 0, echo);
        ptx_error(d, ptx_loc(0, 0), "out of memory reading input");
        return NULL;
    }
    memcpy(buf, src, len);
    buf[len] = buf[len + 1] = '\0';
    ptx_diag_init(d, filename, buf, len, echo);
    IrModule *m = parse_buffer(filename, buf, len, d);
    /* The diagnostics keep pointing at the text for source lines; they
     * are complete by now, so drop the pointer with the buffer. */
    d->src = NULL;
    d->srclen = 0;
    free(buf);
    return m;
}

IrModule *ptx_parse_file(const char *path, PtxDiag *d, FILE *echo)
{
    char *buf;
    size_t len;
    char why[128];
    ptx_read_status rs = ptx_read_file(path, PTX_READ_LIMIT, &buf, &len,
                                       why, sizeof why);
    if (rs != PTX_READ_OK) {
        ptx_diag_init(d, path, NULL, 0, echo);
        ptx_error(d, ptx_loc(0, 0), "cannot %s: %s",
                  rs == PTX_READ_NOT_FOUND || rs == PTX_READ_IO ? "open"
                                                               : "read",
                  why);
        return NULL;
    }
    ptx_diag_init(d, path, buf, len, echo);
    IrModule *m = parse_buffer(path, buf, len, d);
    d->src = NULL;
    d->srclen = 0;
    free(buf);
    return m;
}

IrFunc *ir_find_func(const IrModule *m, const char *name)
{
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        if (strcmp(m->funcs[i]->name, name) == 0) {
            return m->funcs[i];
        }
    }
    return NULL;
}

IrSymbol *ir_find_global(const IrModule *m, const char *name)
{
    for (uint32_t i = 0; i < m->nglobals; i++) {
        if (strcmp(m->globals[i]->name, name) == 0) {
            return m->globals[i];
        }
    }
    return NULL;
}
