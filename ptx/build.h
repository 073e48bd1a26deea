/*
 * ptx/build.h: the parser's state and the IR builder its actions call.
 *
 * The grammar (parser.y) only recognises shapes; every decision about
 * meaning (what a name refers to, which scope a declaration lands in,
 * which modifier a suffix is) is made here, so the actions stay one-line
 * calls and touch no globals.  Expressions are built as small trees in a
 * per-statement scratch arena and folded or resolved when the statement
 * is complete.
 */
#ifndef PTXEMU_BUILD_H
#define PTXEMU_BUILD_H

#include <stdbool.h>
#include <stdint.h>
#include "ptx/arena.h"
#include "ptx/diag.h"
#include "ptx/ir.h"

typedef struct PtxStr {
    const char *s;      /* points into the source buffer; not terminated */
    uint32_t len;
} PtxStr;

/* A token's value: its text, and for numbers the value.  Laid out in 24
 * bytes because bison copies it on every shift. */
typedef struct PtxTok {
    const char *s;      /* text, in the source buffer */
    uint64_t v;         /* integer value, IEEE bits, or keyword value */
    uint32_t len;
    uint8_t flags;      /* NUM_* for integers; 32/64/0 for floats */
} PtxTok;

static inline PtxStr ptx_tok_str(PtxTok t)
{
    PtxStr s = {t.s, t.len};
    return s;
}

/* Integer literal flags. */
enum { NUM_UNSIGNED = 1, NUM_OVERFLOW = 2 };

typedef enum PtxExprKind {
    EX_INT, EX_FLT, EX_NAME, EX_UNARY, EX_BINARY, EX_COND, EX_CAST,
    EX_PAREN,           /* ( a, b, ... ): a group or a call list */
    EX_FCALL,           /* generic(x) */
    EX_MASK,            /* 0xFF00(addr): masked address bytes (ival) */
    EX_ASSIGN,          /* name = value: sampler/texture attributes */
    EX_ADDR,            /* [ e ] */
    EX_VEC,             /* { a, b, ... } */
    EX_TUPLE            /* [ a, b, ... ]: texture/tensor operands */
} PtxExprKind;

/* How deeply expressions (operators, parentheses, initializer braces)
 * and blocks may nest.  Every pass over them recurses (folding,
 * operand conversion, printing), so an input-sized depth would let a
 * few kilobytes of text overflow the stack of the thread parsing it;
 * nvcc writes a handful of levels. */
#define PTX_MAX_NESTING 256

typedef struct PtxExpr {
    uint8_t kind;
    uint8_t flags;       /* EX_INT: NUM_*; EX_FLT: 32/64 hex, 0 decimal */
    uint16_t depth;      /* 1 + the deepest operand's (pb_nest) */
    int op;              /* operator token for UNARY/BINARY; PtxType CAST */
    PtxLoc loc;
    uint64_t ival;       /* EX_INT value; EX_FLT IEEE bits (decimal: f64) */
    PtxStr name;         /* EX_NAME, EX_FCALL */
    struct PtxExpr *a, *b, *c;
    struct PtxExpr *next; /* in lists */
    struct PtxExpr *list; /* PAREN, FCALL, VEC, initializer braces */
    uint32_t n;
} PtxExpr;

typedef struct PtxExprList {
    PtxExpr *head, *tail;
    uint32_t n;
} PtxExprList;

/* Declaration specifiers: everything before the names. */
typedef struct PtxDeclSpec {
    PtxSpace space;
    PtxType type;
    uint8_t vec;
    uint8_t symkind;     /* IR_SYM_* */
    uint32_t align;
    bool is_ptr;
    PtxSpace ptr_space;
    uint32_t ptr_align;
    bool managed;        /* .attribute(.managed) */
    PtxLoc loc;
} PtxDeclSpec;

/* A variable's initializer, encoded while it was parsed (build_init.c):
 * the parser streams it (braces, scalars) straight into the bytes of
 * the variable, so a multi-megabyte initializer costs its bytes, not an
 * expression tree. */
typedef struct PtxInit {
    PtxLoc loc;          /* its first token */
    bool encoded;        /* bytes/relocs/attrs are valid (else: refused,
                            reported when the symbol is made) */
    bool failed;         /* an error inside it was reported */
    bool braced;         /* it began with '{' */
    uint64_t count;      /* scalars written (sizes unsized arrays) */
    uint8_t *bytes;      /* module arena; the whole variable when sized */
    IrReloc *relocs;
    uint32_t nrelocs;
    IrTexAttr *attrs;    /* .texref/.samplerref/.surfref attributes */
    uint32_t nattrs;
} PtxInit;

typedef struct PtxDeclarator {
    PtxStr name;
    PtxLoc loc;
    uint32_t range;      /* %r<N>: N; 0 otherwise */
    uint32_t ndims;
    uint64_t dims[4];
    bool unsized;        /* first dimension [] */
    PtxInit *init;       /* initializer, or NULL */
    struct PtxDeclarator *next;
} PtxDeclarator;

typedef struct PtxDecl {
    PtxDeclSpec spec;
    PtxDeclarator *decl;   /* one declarator: params */
    struct PtxDecl *next;
} PtxDecl;

typedef struct PtxDeclList {
    PtxDecl *head, *tail;
    uint32_t n;
} PtxDeclList;

/* Performance directives of a function header. */
enum {
    PD_MAXNREG, PD_MAXNTID, PD_REQNTID, PD_MINNCTAPERSM, PD_MAXNCTAPERSM,
    PD_EXPLICITCLUSTER, PD_REQNCTAPERCLUSTER, PD_NORETURN,
    PD_BLOCKSARECLUSTERS, PD_MAXCLUSTERRANK
};

typedef struct PtxSymtab PtxSymtab;

typedef struct PtxParse {
    PtxDiag *diag;
    IrModule *mod;
    PtxArena *arena;        /* the module's */
    PtxArena *scratch;      /* per statement */
    void *scanner;
    const char *src;
    size_t srclen;
    /* lexer state */
    uint32_t line, col;
    uint32_t section_depth;
    size_t section_start;
    PtxLoc section_loc;
    PtxStr last_dotname;    /* the last unknown directive scanned */
    bool lex_fatal;         /* the scanner gave up (open comment...) */
    bool eof_reported;      /* "end of file inside function" said */
    uint64_t total_regs;    /* registers declared in the module */
    PtxLoc head_loc;        /* name of the function header being parsed */
    size_t offset;          /* byte offset of the next character */
    bool seen_version;
    /* builder state */
    PtxSymtab *syms;
    IrFunc *func;           /* function whose body is being parsed */
    uint32_t scope;         /* current scope in func */
    uint32_t cap_regs, cap_insns, cap_labels, cap_scopes, cap_vars;
    uint32_t cap_globals, cap_funcs, cap_targets, cap_files, cap_sections;
    uint32_t cap_pragmas, cap_fpragmas, cap_aliases;
    IrSrcPos cur_src;       /* the last .loc */
    IrSrcPos loc_inl;       /* inlined_at of the .loc being read */
    IrLinkage linkage;      /* of the function header being parsed */
    bool in_body;
    /* unresolved label references, one list per scope of func */
    struct PtxLabelRef **scope_refs;   /* malloc'd */
    uint32_t nscope_refs, cap_scope_refs;
    /* the declarator being parsed (dims and initializer come first) */
    uint32_t pend_ndims;
    uint64_t pend_dims[4];
    bool pend_unsized;
    bool pend_dims_bad;
    PtxInit *pend_init;
    PtxStr pend_name;       /* its name */
    /* the declaration being parsed: what an initializer is encoded for */
    const PtxDeclSpec *decl_spec;
    IrLinkage decl_link;
    struct PtxInitStream *init; /* the initializer being parsed (malloc'd;
                                   build_init.c) */
    bool nest_reported;     /* "nested too deeply" said in this statement */
} PtxParse;

/* ---- lexer/parser glue ---- */
PtxExpr *pb_expr(PtxParse *ps, PtxExprKind kind, PtxLoc loc);
/* A name in an expression: EX_NAME, or EX_INT for a predefined constant
 * (WARP_SZ). */
PtxExpr *pb_word_expr(PtxParse *ps, PtxStr w, PtxLoc loc);
/* Sets e's depth from its operands; past PTX_MAX_NESTING reports a
 * located error (once per statement) and returns a leaf in its place,
 * so that no tree deeper than the limit is ever built. */
PtxExpr *pb_nest(PtxParse *ps, PtxExpr *e);
PtxExprList pb_list1(PtxExpr *e);
PtxExprList pb_list_add(PtxExprList l, PtxExpr *e);
PtxDeclList pb_decls_add(PtxParse *ps, PtxDeclList l, PtxDeclSpec spec,
                         PtxDeclarator *d);

/* ---- declarations ---- */
void pb_spec_add(PtxParse *ps, PtxDeclSpec *s, int kind, uint64_t v,
                 PtxLoc loc);
PtxDeclarator *pb_declarator(PtxParse *ps, PtxStr name, PtxLoc loc);
void pb_declarator_range(PtxParse *ps, PtxDeclarator *d, uint64_t n,
                         PtxLoc loc);
uint64_t pb_dim(PtxParse *ps, PtxExpr *e, PtxLoc loc);
void pb_dim_unsized(PtxParse *ps, PtxLoc loc);
/* A declaration's specifiers and linkage are known (before its
 * declarators: their initializers are encoded as they are read). */
void pb_decl_begin(PtxParse *ps, IrLinkage link, const PtxDeclSpec *spec);
/* A declarator's name (before its dimensions and initializer). */
void pb_decl_name(PtxParse *ps, PtxStr name);
/* An initializer, streamed (build_init.c): begin after '=', then for
 * every '{' open, every scalar or address expression leaf, every '}'
 * close; end leaves the result in ps->pend_init for pb_declarator.
 * Each leaf's expression tree is freed as soon as it is encoded. */
void pb_init_begin(PtxParse *ps, PtxLoc loc);
void pb_init_open(PtxParse *ps, PtxLoc loc);
void pb_init_leaf(PtxParse *ps, PtxExpr *e);
void pb_init_close(PtxParse *ps, PtxLoc loc);
void pb_init_end(PtxParse *ps);
/* Forget an initializer cut short by a syntax error; free the stream. */
void pb_init_reset(PtxParse *ps);

/* ---- module level ---- */
void pb_version(PtxParse *ps, PtxStr text, PtxLoc dirloc, PtxLoc loc);
void pb_target(PtxParse *ps, PtxStr name, PtxLoc loc);
void pb_address_size(PtxParse *ps, uint64_t n, PtxLoc loc);
void pb_file(PtxParse *ps, uint64_t idx, PtxStr name, PtxLoc loc);
void pb_pragma(PtxParse *ps, PtxStr str, PtxLoc loc);
void pb_section(PtxParse *ps, size_t start, size_t end);
void pb_alias(PtxParse *ps, PtxStr alias, PtxLoc aloc, PtxStr target,
              PtxLoc tloc);
void pb_declare(PtxParse *ps, IrLinkage link, PtxDeclSpec *spec,
                PtxDeclarator *list);

/* ---- functions ---- */
void pb_func_head(PtxParse *ps, bool is_entry, PtxStr name, PtxLoc loc,
                  PtxDeclList *rets, bool has_rets, PtxDeclList *params);
void pb_func_directive(PtxParse *ps, int which, PtxExprList vals, PtxLoc loc);
void pb_func_body_begin(PtxParse *ps, PtxLoc loc);
void pb_func_end(PtxParse *ps, PtxLoc loc);
/* A closing brace: of a nested block, or of the function body. */
void pb_block_end(PtxParse *ps, PtxLoc loc);
void pb_unknown_directive(PtxParse *ps, PtxStr name, PtxLoc loc);
void pb_func_no_body(PtxParse *ps);

/* ---- function bodies ---- */
void pb_scope_open(PtxParse *ps, PtxLoc loc);
void pb_scope_close(PtxParse *ps, PtxLoc loc);
void pb_label(PtxParse *ps, PtxStr name, PtxLoc loc);
void pb_branchtargets(PtxParse *ps, PtxStr name, PtxLoc loc, PtxExprList l);
void pb_calltargets(PtxParse *ps, PtxStr name, PtxLoc loc, PtxExprList l);
void pb_callproto(PtxParse *ps, PtxStr name, PtxLoc loc, PtxDeclList rets,
                  bool has_rets, PtxDeclList params, bool noreturn);
void pb_insn(PtxParse *ps, PtxExpr *guard, bool guard_neg, PtxStr word,
             PtxLoc loc, PtxExprList opnds);
/* ".loc ..., WORD F L C": for WORD inlined_at, the call site of the
 * .loc being read (pb_loc takes it). */
void pb_loc_inlined(PtxParse *ps, PtxStr word, uint64_t file,
                    uint64_t line, PtxLoc loc);
void pb_loc(PtxParse *ps, uint64_t file, uint64_t line, uint64_t col,
            PtxLoc loc);
void pb_stmt_done(PtxParse *ps);


#endif
