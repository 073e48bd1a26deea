/*
 * ptx/parser.y: the PTX grammar.
 *
 * The grammar recognises shapes only; meaning is given by the builder
 * (build.c), which every action calls.  Actions return values through $$
 * and touch no globals, so several modules can be parsed at once from
 * different threads.  Instructions are not enumerated here: a mnemonic
 * with its suffixes is one T_WORD token, resolved against opcodes.def.
 *
 * Operands and constant expressions share one expression grammar; the
 * builder decides what an expression means in its position (a register,
 * a negated predicate "!p", a predicate pair "p|q", a call list "(a, b)",
 * or a constant to fold with GMP).
 *
 * Error recovery: a bad statement is skipped up to ';', a bad top-level
 * item up to ';' or '}', so one run reports many errors.
 */
%require "3.0"
%define api.pure full
%define api.prefix {ptx_yy}
%define parse.error detailed
%define parse.lac none
%locations
%expect 0
%lex-param {void *scanner}
%parse-param {void *scanner} {PtxParse *ps}

%code requires {
#include "ptx/build.h"

/* Locations are only ever the first line:column of a construct, so the
 * location stack holds just that (bison copies it on every shift and
 * reduction). */
typedef struct PTX_YYLTYPE {
    int first_line;
    int first_column;
} PTX_YYLTYPE;
#define PTX_YYLTYPE_IS_DECLARED 1
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                        \
    do {                                                                  \
        (Cur) = (N) ? YYRHSLOC(Rhs, 1) : YYRHSLOC(Rhs, 0);                \
    } while (0)
}

%code provides {
int ptx_yylex(PTX_YYSTYPE *lval, PTX_YYLTYPE *lloc, void *scanner);
void ptx_yyerror(PTX_YYLTYPE *lloc, void *scanner, PtxParse *ps,
                 const char *msg);
}

%code {
#include <string.h>

static PtxStr S(PtxTok t)
{
    return ptx_tok_str(t);
}

static PtxLoc L(PTX_YYLTYPE l)
{
    PtxLoc loc = {(uint32_t)l.first_line, (uint32_t)l.first_column};
    return loc;
}

static PtxExpr *unary(PtxParse *ps, int op, PtxExpr *a, PTX_YYLTYPE l)
{
    PtxExpr *e = pb_expr(ps, EX_UNARY, L(l));
    e->op = op;
    e->a = a;
    return pb_nest(ps, e);
}

static PtxExpr *binary(PtxParse *ps, int op, PtxExpr *a, PtxExpr *b,
                       PTX_YYLTYPE l)
{
    PtxExpr *e = pb_expr(ps, EX_BINARY, L(l));
    e->op = op;
    e->a = a;
    e->b = b;
    return pb_nest(ps, e);
}

static PtxExpr *listexpr(PtxParse *ps, PtxExprKind k, PtxExprList l,
                         PTX_YYLTYPE loc)
{
    PtxExpr *e = pb_expr(ps, k, L(loc));
    e->list = l.head;
    e->n = l.n;
    return pb_nest(ps, e);
}

static PtxDeclSpec *spec_new(PtxParse *ps, PTX_YYLTYPE l, int kind,
                             uint64_t v)
{
    PtxDeclSpec *s = ptx_arena_alloc(ps->scratch, sizeof(*s));
    s->loc = L(l);
    pb_spec_add(ps, s, kind, v, L(l));
    return s;
}
}

%union {
    PtxTok tok;
    struct { size_t start, end; } range;
    PtxExpr *expr;
    PtxExprList list;
    PtxDeclSpec *spec;     /* scratch memory: keeps the value stack small */
    PtxDeclarator *decl;
    struct { PtxDeclarator *head, *tail; } decls;
    PtxDeclList dlist;
    int ival;
    uint64_t u64;
    bool flag;
}

%token <tok> T_WORD "identifier"
%token <tok> T_INT "integer"
%token <tok> T_FLT "floating-point number"
%token <tok> T_STRING "string"
%token <tok> T_DOTNAME "directive"
%token <tok> T_VERSION ".version"
%token <tok> T_TARGET ".target"
%token <tok> T_ADDRESS_SIZE ".address_size"
%token <tok> T_FILE ".file"
%token <tok> T_LOC ".loc"
%token <tok> T_PRAGMA ".pragma"
%token <tok> T_LINKAGE "linkage directive"
%token <tok> T_ENTRY ".entry"
%token <tok> T_FUNC ".func"
%token <tok> T_CALLPROTOTYPE ".callprototype"
%token <tok> T_BRANCHTARGETS ".branchtargets"
%token <tok> T_CALLTARGETS ".calltargets"
%token <tok> T_NORETURN ".noreturn"
%token <tok> T_PERF "performance directive"
%token <tok> T_SPACE "state space"
%token <tok> T_TYPE "type"
%token <tok> T_VEC "vector width"
%token <tok> T_ALIGN ".align"
%token <tok> T_PTR ".ptr"
%token <tok> T_TEXREF "texture/sampler/surface reference"
%token <tok> T_ATTRIBUTE ".attribute"
%token <tok> T_ALIAS ".alias"
%token <range> T_SECTION ".section"
%token T_SHL "<<" T_SHR ">>" T_LE "<=" T_GE ">=" T_EQ "==" T_NE "!="
%token T_ANDAND "&&" T_OROR "||"

%type <expr> expr operand assign_val guard
%type <list> expr_list expr_list_opt perf_vals perf_ints
%type <spec> decl_specs
%type <decl> declarator
%type <decls> declarators
%type <dlist> param_list param_list_opt params_opt rets
%type <ival> opt_linkage
%type <flag> guard_neg noreturn_opt
%type <u64> dim

%right '?' ':'
%left T_OROR
%left T_ANDAND
%left '|'
%left '^'
%left '&'
%left T_EQ T_NE
%left '<' '>' T_LE T_GE
%left T_SHL T_SHR
%left '+' '-'
%left '*' '/' '%'
%precedence UNARY

%%

module
    : %empty
    | module top            { pb_stmt_done(ps); }
    ;

top
    : T_VERSION T_FLT       { pb_version(ps, S($2), L(@1), L(@2)); }
    | T_VERSION T_INT       { pb_version(ps, S($2), L(@1), L(@2)); }
    | T_TARGET target_list
    | T_ADDRESS_SIZE T_INT  { pb_address_size(ps, $2.v, L(@2)); }
    | T_FILE T_INT T_STRING file_extra { pb_file(ps, $2.v, S($3), L(@1)); }
    | T_PRAGMA pragma_list ';'
    | T_SECTION             { pb_section(ps, $1.start, $1.end); }
    | T_ALIAS T_WORD ',' T_WORD ';'
                            { pb_alias(ps, S($2), L(@2), S($4), L(@4)); }
    | opt_linkage decl_specs
                            { pb_decl_begin(ps, (IrLinkage)$1, $2); }
      declarators ';'       { pb_declare(ps, (IrLinkage)$1, $2, $4.head); }
    | opt_linkage { ps->linkage = (IrLinkage)$1; } function
    | T_WORD ':'            { pb_label(ps, S($1), L(@1)); }
    | T_WORD ';'            { pb_insn(ps, NULL, false, S($1), L(@1),
                                      (PtxExprList){0}); }
    | T_WORD expr_list ';'  { pb_insn(ps, NULL, false, S($1), L(@1), $2); }
    | '@' guard_neg guard T_WORD expr_list_opt ';'
                            { pb_insn(ps, $3, $2, S($4), L(@4), $5); }
    | error ';'             { yyerrok; }
    | error '}'             { yyerrok; pb_func_end(ps, L(@2)); }
    ;

opt_linkage
    : %empty                { $$ = IR_LINK_INTERNAL; }
    | opt_linkage T_LINKAGE { $$ = (int)$2.v; }
    ;

target_list
    : T_WORD                 { pb_target(ps, S($1), L(@1)); }
    | target_list ',' T_WORD { pb_target(ps, S($3), L(@3)); }
    ;

file_extra
    : %empty
    | ',' T_INT ',' T_INT
    ;

pragma_list
    : T_STRING                 { pb_pragma(ps, S($1), L(@1)); }
    | pragma_list ',' T_STRING { pb_pragma(ps, S($3), L(@3)); }
    ;

/* ---- declarations ---- */

decl_specs
    : T_SPACE               { $$ = spec_new(ps, @1, T_SPACE, $1.v); }
    | T_TYPE                { $$ = spec_new(ps, @1, T_TYPE, $1.v); }
    | T_VEC                 { $$ = spec_new(ps, @1, T_VEC, $1.v); }
    | T_ALIGN T_INT         { $$ = spec_new(ps, @1, T_ALIGN, $2.v); }
    | T_TEXREF              { $$ = spec_new(ps, @1, T_TEXREF, $1.v); }
    | decl_specs T_SPACE    { $$ = $1; pb_spec_add(ps, $$, T_SPACE, $2.v, L(@2)); }
    | decl_specs T_TYPE     { $$ = $1; pb_spec_add(ps, $$, T_TYPE, $2.v, L(@2)); }
    | decl_specs T_VEC      { $$ = $1; pb_spec_add(ps, $$, T_VEC, $2.v, L(@2)); }
    | decl_specs T_ALIGN T_INT
                            { $$ = $1; pb_spec_add(ps, $$, T_ALIGN, $3.v, L(@3)); }
    | decl_specs T_PTR      { $$ = $1; pb_spec_add(ps, $$, T_PTR, 0, L(@2)); }
    | decl_specs T_TEXREF   { $$ = $1; pb_spec_add(ps, $$, T_TEXREF, $2.v, L(@2)); }
    | decl_specs T_ATTRIBUTE '(' attr_list ')'
                            { $$ = $1; pb_spec_add(ps, $$, T_ATTRIBUTE, 0, L(@2)); }
    ;

attr_list
    : T_DOTNAME
    | attr_list ',' T_DOTNAME
    ;

declarators
    : declarator            { $$.head = $$.tail = $1; }
    | declarators ',' declarator
                            { $$ = $1; $$.tail->next = $3; $$.tail = $3; }
    ;

declarator
    : T_WORD                { pb_decl_name(ps, S($1)); }
      dims_opt init_opt     { $$ = pb_declarator(ps, S($1), L(@1)); }
    | T_WORD '<' T_INT '>'  { $$ = pb_declarator(ps, S($1), L(@1));
                              pb_declarator_range(ps, $$, $3.v, L(@3)); }
    ;

dims_opt
    : %empty
    | dims_opt dim
    ;

dim
    : '[' expr ']'          { $$ = pb_dim(ps, $2, L(@2)); }
    | '[' ']'               { $$ = UINT64_MAX; pb_dim_unsized(ps, L(@1)); }
    ;

/* An initializer is streamed to the builder as it is read (see
 * pb_init_begin): braces and scalars, not an expression tree. */
init_opt
    : %empty
    | '='                   { pb_init_begin(ps, L(@1)); }
      init_val              { pb_init_end(ps); }
    ;

init_val
    : '{'                   { pb_init_open(ps, L(@1)); }
      init_items_opt '}'    { pb_init_close(ps, L(@4)); }
    | expr                  { pb_init_leaf(ps, $1); }
    ;

init_items_opt
    : %empty
    | init_items
    ;

init_items
    : init_val
    | init_items ',' init_val
    ;

/* ---- functions ---- */

function
    : T_ENTRY rets T_WORD params_opt
                            { ptx_error(ps->diag, L(@2), "a kernel (.entry) "
                                        "cannot return values");
                              pb_func_head(ps, true, S($3), L(@3), NULL,
                                           false, &$4); }
      perf_list body
    | T_ENTRY T_WORD params_opt
                            { pb_func_head(ps, true, S($2), L(@2), NULL,
                                           false, &$3); }
      perf_list body
    | T_FUNC rets T_WORD params_opt
                            { pb_func_head(ps, false, S($3), L(@3), &$2,
                                           true, &$4); }
      perf_list body
    | T_FUNC T_WORD params_opt
                            { pb_func_head(ps, false, S($2), L(@2), NULL,
                                           false, &$3); }
      perf_list body
    ;

rets
    : '(' param_list_opt ')' { $$ = $2; }
    ;

params_opt
    : %empty                { $$ = (PtxDeclList){0}; }
    | '(' param_list_opt ')' { $$ = $2; }
    ;

param_list_opt
    : %empty                { $$ = (PtxDeclList){0}; }
    | param_list
    ;

param_list
    : decl_specs declarator { $$ = pb_decls_add(ps, (PtxDeclList){0}, *$1, $2); }
    | param_list ',' decl_specs declarator
                            { $$ = pb_decls_add(ps, $1, *$3, $4); }
    ;

perf_list
    : %empty
    | perf_list T_PERF perf_vals
                            { pb_func_directive(ps, (int)$2.v, $3, L(@2)); }
    | perf_list T_NORETURN  { pb_func_directive(ps, PD_NORETURN,
                                                (PtxExprList){0}, L(@2)); }
    | perf_list T_PRAGMA pragma_list ';'
    ;

perf_vals
    : %empty                { $$ = (PtxExprList){0}; }
    | perf_ints
    ;

perf_ints
    : T_INT                 { PtxExpr *e = pb_expr(ps, EX_INT, L(@1));
                              e->ival = $1.v; e->flags = $1.flags;
                              $$ = pb_list1(e); }
    | perf_ints ',' T_INT   { PtxExpr *e = pb_expr(ps, EX_INT, L(@3));
                              e->ival = $3.v; e->flags = $3.flags;
                              $$ = pb_list_add($1, e); }
    ;

/* "stmts error '}'" lets an error inside a block resynchronise at that
 * block's closing brace instead of swallowing it. */
body
    : ';'                   { pb_func_no_body(ps); }
    | '{'                   { pb_func_body_begin(ps, L(@1)); }
      block_rest
    ;

block_rest
    : stmts '}'             { pb_block_end(ps, L(@2)); }
    | stmts error '}'       { yyerrok; pb_block_end(ps, L(@3)); }
    ;

/* ---- statements ---- */

stmts
    : %empty
    | stmts stmt            { pb_stmt_done(ps); }
    ;

stmt
    : T_WORD ':'            { pb_label(ps, S($1), L(@1)); }
    | T_WORD ':' T_BRANCHTARGETS expr_list ';'
                            { pb_branchtargets(ps, S($1), L(@1), $4); }
    | T_WORD ':' T_CALLTARGETS expr_list ';'
                            { pb_calltargets(ps, S($1), L(@1), $4); }
    | T_WORD ':' T_CALLPROTOTYPE rets T_WORD params_opt noreturn_opt ';'
                            { pb_callproto(ps, S($1), L(@1), $4, true, $6,
                                           $7); }
    | T_WORD ':' T_CALLPROTOTYPE T_WORD params_opt noreturn_opt ';'
                            { pb_callproto(ps, S($1), L(@1),
                                           (PtxDeclList){0}, false, $5, $6); }
    | decl_specs            { pb_decl_begin(ps, IR_LINK_INTERNAL, $1); }
      declarators ';'       { pb_declare(ps, IR_LINK_INTERNAL, $1, $3.head); }
    | T_LINKAGE decl_specs  { pb_decl_begin(ps, (IrLinkage)$1.v, $2); }
      declarators ';'       { pb_declare(ps, (IrLinkage)$1.v, $2, $4.head); }
    | T_WORD ';'            { pb_insn(ps, NULL, false, S($1), L(@1),
                                      (PtxExprList){0}); }
    | T_WORD expr_list ';'  { pb_insn(ps, NULL, false, S($1), L(@1), $2); }
    | '@' guard_neg guard T_WORD expr_list_opt ';'
                            { pb_insn(ps, $3, $2, S($4), L(@4), $5); }
    | '{'                   { pb_scope_open(ps, L(@1)); }
      block_rest
    | T_LOC T_INT T_INT T_INT loc_extra
                            { pb_loc(ps, $2.v, $3.v, $4.v, L(@1)); }
    | T_PRAGMA pragma_list ';'
    | error ';'             { yyerrok; }
    ;


guard_neg
    : %empty                { $$ = false; }
    | '!'                   { $$ = true; }
    ;

guard
    : T_WORD                { $$ = pb_expr(ps, EX_NAME, L(@1)); $$->name = S($1); }
    ;

noreturn_opt
    : %empty                { $$ = false; }
    | T_NORETURN            { $$ = true; }
    ;

loc_extra
    : %empty
    | loc_extra ',' T_WORD T_WORD
    | loc_extra ',' T_WORD T_INT T_INT T_INT
                            { pb_loc_inlined(ps, S($3), $4.v, $5.v, L(@3)); }
    ;

/* ---- expressions and operands ---- */

expr_list_opt
    : %empty                { $$ = (PtxExprList){0}; }
    | expr_list
    ;

expr_list
    : operand               { $$ = pb_list1($1); }
    | expr_list ',' operand { $$ = pb_list_add($1, $3); }
    ;

/* A list element: an expression, or a brace list of them (vector
 * operands "{%r1, %r2}", texture coordinates).  Braces are not an
 * expression of their own, so that an initializer's braces can be read
 * by init_val without ambiguity. */
operand
    : expr
    | '{' expr_list_opt '}' { $$ = listexpr(ps, EX_VEC, $2, @1); }
    ;

/* The primaries are alternatives of expr itself rather than a nonterminal
 * of their own: one reduction less for every operand. */
expr
    : T_INT                 { $$ = pb_expr(ps, EX_INT, L(@1));
                              $$->ival = $1.v; $$->flags = $1.flags; }
    | T_FLT                 { $$ = pb_expr(ps, EX_FLT, L(@1));
                              $$->ival = $1.v; $$->flags = $1.flags; }
    | T_WORD                { $$ = pb_word_expr(ps, S($1), L(@1)); }
    | T_WORD '(' expr_list ')'
                            { $$ = listexpr(ps, EX_FCALL, $3, @1);
                              $$->name = S($1); }
    | T_WORD '=' assign_val    { $$ = pb_expr(ps, EX_ASSIGN, L(@1));
                              $$->name = S($1); $$->a = $3;
                              $$ = pb_nest(ps, $$); }
    | T_INT '(' expr ')'    { $$ = pb_expr(ps, EX_MASK, L(@1));
                              $$->ival = $1.v; $$->flags = $1.flags;
                              $$->a = $3; $$ = pb_nest(ps, $$); }
    | '(' expr_list ')'     { $$ = listexpr(ps, EX_PAREN, $2, @1); }
    | '(' ')'               { $$ = listexpr(ps, EX_PAREN, (PtxExprList){0}, @1); }
    | '[' expr_list ']'     { if ($2.n == 1) {
                                  $$ = pb_expr(ps, EX_ADDR, L(@1));
                                  $$->a = $2.head;
                                  $$ = pb_nest(ps, $$);
                              } else {
                                  $$ = listexpr(ps, EX_TUPLE, $2, @1);
                              } }
    | '-' expr %prec UNARY  { $$ = unary(ps, '-', $2, @1); }
    | '+' expr %prec UNARY  { $$ = unary(ps, '+', $2, @1); }
    | '!' expr %prec UNARY  { $$ = unary(ps, '!', $2, @1); }
    | '~' expr %prec UNARY  { $$ = unary(ps, '~', $2, @1); }
    | '(' T_TYPE ')' expr %prec UNARY
                            { $$ = pb_expr(ps, EX_CAST, L(@1));
                              $$->op = (int)$2.v; $$->a = $4;
                              $$ = pb_nest(ps, $$); }
    | expr '*' expr         { $$ = binary(ps, '*', $1, $3, @2); }
    | expr '/' expr         { $$ = binary(ps, '/', $1, $3, @2); }
    | expr '%' expr         { $$ = binary(ps, '%', $1, $3, @2); }
    | expr '+' expr         { $$ = binary(ps, '+', $1, $3, @2); }
    | expr '-' expr         { $$ = binary(ps, '-', $1, $3, @2); }
    | expr T_SHL expr       { $$ = binary(ps, T_SHL, $1, $3, @2); }
    | expr T_SHR expr       { $$ = binary(ps, T_SHR, $1, $3, @2); }
    | expr '<' expr         { $$ = binary(ps, '<', $1, $3, @2); }
    | expr '>' expr         { $$ = binary(ps, '>', $1, $3, @2); }
    | expr T_LE expr        { $$ = binary(ps, T_LE, $1, $3, @2); }
    | expr T_GE expr        { $$ = binary(ps, T_GE, $1, $3, @2); }
    | expr T_EQ expr        { $$ = binary(ps, T_EQ, $1, $3, @2); }
    | expr T_NE expr        { $$ = binary(ps, T_NE, $1, $3, @2); }
    | expr '&' expr         { $$ = binary(ps, '&', $1, $3, @2); }
    | expr '^' expr         { $$ = binary(ps, '^', $1, $3, @2); }
    | expr '|' expr         { $$ = binary(ps, '|', $1, $3, @2); }
    | expr T_ANDAND expr    { $$ = binary(ps, T_ANDAND, $1, $3, @2); }
    | expr T_OROR expr      { $$ = binary(ps, T_OROR, $1, $3, @2); }
    | expr '?' expr ':' expr
                            { $$ = pb_expr(ps, EX_COND, L(@2));
                              $$->a = $1; $$->b = $3; $$->c = $5;
                              $$ = pb_nest(ps, $$); }
    ;

/* Right-hand side of a texture/sampler attribute (filter_mode = linear). */
assign_val
    : T_WORD                { $$ = pb_expr(ps, EX_NAME, L(@1));
                              $$->name = S($1); }
    | T_INT                 { $$ = pb_expr(ps, EX_INT, L(@1));
                              $$->ival = $1.v; $$->flags = $1.flags; }
    ;

%%

void ptx_yyerror(PTX_YYLTYPE *lloc, void *scanner, PtxParse *ps,
                 const char *msg)
{
    (void)scanner;
    /* A directive we do not know is the likelier mistake than a
     * misplaced known one: name it. */
    static const char unexp[] = "syntax error, unexpected directive";
    static const char eof[] = "syntax error, unexpected end of file";
    if (ps->lex_fatal) {
        return;     /* the scanner's own error says it all */
    }
    if (strncmp(msg, unexp, sizeof(unexp) - 1) == 0 && ps->last_dotname.s) {
        pb_unknown_directive(ps, ps->last_dotname, L(*lloc));
        return;
    }
    if (strncmp(msg, eof, sizeof(eof) - 1) == 0 && ps->func && ps->in_body) {
        /* at the end of the text, not at the last token */
        ptx_error(ps->diag, ptx_loc(ps->line, ps->col), "unexpected end "
                  "of file inside function '%s'", ps->func->name);
        ps->eof_reported = true;
        return;
    }
    if (strcmp(msg, "memory exhausted") == 0) {
        /* Bison's stack holds every construct still open. */
        ptx_error(ps->diag, L(*lloc), "nesting too deep: more than %d "
                  "parentheses, braces, blocks or operators open at once "
                  "(the parser's limit)", YYMAXDEPTH);
        return;
    }
    ptx_error(ps->diag, L(*lloc), "%s", msg);
}
