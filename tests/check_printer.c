/*
 * tests/check_printer.c: the PTX printer and ir_module_equal.
 *
 *  - insn: instructions built by hand, printed one at a time and compared
 *    with the expected text (suffix order, guards, vectors, addresses,
 *    float immediates as hex, special registers, pairs, call lists).
 *  - module: a whole hand-built module (globals with initializers and
 *    relocations, nested scopes, register ranges, labels, .loc, function
 *    directives) against its expected text.
 *  - equal: ir_module_equal on two identical builds, then with one field
 *    changed per row; it must notice, and say where.
 *  - roundtrip: every tests/corpus/ptx/NAME.ptx and tests/ptx/succ_NAME.ptx,
 *    plus inline snippets for features the corpus lacks: parse, print,
 *    parse again; the two IRs must be equal and the second print must be
 *    identical to the first.
 */
#include <check.h>
#include <glob.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/arena.h"
#include "ptx/ptx.h"

/* ---- building IR by hand ---- */

#define CAP 64

typedef struct Build {
    PtxArena *a;
    IrModule *m;
} Build;

static void *zalloc(Build *b, size_t n)
{
    return ptx_arena_alloc(b->a, n);
}

static const char *str(Build *b, const char *s)
{
    return ptx_arena_intern(b->a, s, strlen(s));
}

static Build build_new(void)
{
    Build b;
    b.a = ptx_arena_new();
    b.m = ptx_arena_alloc(b.a, sizeof(*b.m));
    b.m->arena = b.a;
    b.m->version_major = 8;
    b.m->version_minor = 0;
    b.m->targets = zalloc(&b, sizeof(char *) * CAP);
    b.m->targets[b.m->ntargets++] = str(&b, "sm_80");
    b.m->address_size = 64;
    b.m->globals = zalloc(&b, sizeof(IrSymbol *) * CAP);
    b.m->funcs = zalloc(&b, sizeof(IrFunc *) * CAP);
    return b;
}

static IrFunc *func_new(Build *b, const char *name, bool entry)
{
    IrFunc *f = zalloc(b, sizeof(*f));
    f->name = str(b, name);
    f->is_entry = entry;
    f->linkage = entry ? IR_LINK_VISIBLE : IR_LINK_INTERNAL;
    f->params = zalloc(b, sizeof(IrSymbol *) * CAP);
    f->rets = zalloc(b, sizeof(IrSymbol *) * CAP);
    f->regs = zalloc(b, sizeof(IrReg) * CAP);
    f->vars = zalloc(b, sizeof(IrSymbol *) * CAP);
    f->insns = zalloc(b, sizeof(IrInsn) * CAP);
    f->labels = zalloc(b, sizeof(IrLabel) * CAP);
    f->scopes = zalloc(b, sizeof(IrScope) * CAP);
    f->nscopes = 1;
    b->m->funcs[b->m->nfuncs++] = f;
    return f;
}

static int32_t reg(Build *b, IrFunc *f, const char *name, PtxType t,
                   uint32_t scope)
{
    ck_assert_uint_lt(f->nregs, CAP);
    IrReg *r = &f->regs[f->nregs];
    r->name = str(b, name);
    r->type = t;
    r->vec = 1;
    r->scope = scope;
    return (int32_t)f->nregs++;
}

static IrSymbol *sym_new(Build *b, const char *name, PtxSpace sp, PtxType t)
{
    IrSymbol *s = zalloc(b, sizeof(*s));
    s->name = str(b, name);
    s->space = sp;
    s->type = t;
    s->vec = 1;
    s->size = ptx_type_bits(t) / 8;
    return s;
}

static IrSymbol *global(Build *b, const char *name, PtxSpace sp, PtxType t)
{
    IrSymbol *s = sym_new(b, name, sp, t);
    b->m->globals[b->m->nglobals++] = s;
    return s;
}

/* An array variable with initial data copied from `data`. */
static void set_init(Build *b, IrSymbol *s, uint64_t dim0, const void *data)
{
    s->ndims = 1;
    s->dims[0] = dim0;
    s->size = dim0 * (ptx_type_bits(s->type) / 8) * s->vec;
    s->init = zalloc(b, s->size);
    if (data) {
        memcpy(s->init, data, s->size);
    }
}

static IrReloc *reloc_add(Build *b, IrSymbol *s, uint64_t off)
{
    if (!s->relocs) {
        s->relocs = zalloc(b, sizeof(IrReloc) * CAP);
    }
    IrReloc *r = &s->relocs[s->nrelocs++];
    r->offset = off;
    r->size = (uint8_t)(ptx_type_bits(s->type) / 8);
    return r;
}

/* Operands. */
static IrOperand o_reg(int32_t id)
{
    return (IrOperand){.kind = IR_O_REG, .id = id};
}

static IrOperand o_imm(int64_t v)
{
    return (IrOperand){.kind = IR_O_IMM, .id = -1, .imm = v};
}

static IrOperand o_f32(uint32_t bits)
{
    return (IrOperand){.kind = IR_O_FIMM, .id = -1, .imm = bits, .fsize = 32};
}

static IrOperand o_f64(uint64_t bits)
{
    return (IrOperand){.kind = IR_O_FIMM, .id = -1, .imm = (int64_t)bits,
                       .fsize = 64};
}

static IrOperand o_sreg(PtxSreg s, uint8_t sel, int64_t index)
{
    return (IrOperand){.kind = IR_O_SREG, .id = (int32_t)s, .sel = sel,
                       .imm = index};
}

static IrOperand o_sym(const IrSymbol *s, int64_t off)
{
    IrOperand o = {.kind = IR_O_SYM, .id = -1, .imm = off};
    o.u.sym = s;
    return o;
}

static IrOperand o_func(const IrFunc *f)
{
    IrOperand o = {.kind = IR_O_FUNC, .id = -1};
    o.u.func = f;
    return o;
}

static IrOperand o_label(int32_t id)
{
    return (IrOperand){.kind = IR_O_LABEL, .id = id};
}

static IrOperand o_addr(int32_t base, const IrSymbol *s, int64_t off)
{
    IrOperand o = {.kind = IR_O_ADDR, .id = base, .imm = off};
    o.u.sym = s;
    return o;
}

static IrOperand o_sink(void)
{
    return (IrOperand){.kind = IR_O_SINK, .id = -1};
}

/* VEC, LIST or PAIR of n operands. */
static IrOperand o_group(Build *b, IrOpndKind k, uint32_t n,
                         const IrOperand *elems)
{
    IrOperand o = {.kind = (uint8_t)k, .id = -1, .n = n};
    o.u.elems = zalloc(b, sizeof(IrOperand) * (n ? n : 1));
    memcpy(o.u.elems, elems, sizeof(IrOperand) * n);
    return o;
}

#define TY(t) ((uint16_t)(IR_SFX_TYPE | (t)))
#define END 0xffffu

/* Append an instruction: suffixes (END-terminated, types via TY()) and
 * operands. */
static IrInsn *insn(Build *b, IrFunc *f, PtxOpcode op, const uint16_t *sfx,
                    unsigned nop, const IrOperand *ops)
{
    ck_assert_uint_lt(f->ninsns, CAP);
    IrInsn *in = &f->insns[f->ninsns++];
    in->op = (uint16_t)op;
    in->guard = -1;
    for (unsigned i = 0; sfx && sfx[i] != END; i++) {
        in->sfx[in->nsfx++] = sfx[i];
        if (sfx[i] & IR_SFX_TYPE) {
            in->types[in->ntypes++] = (uint8_t)(sfx[i] & ~IR_SFX_TYPE);
        }
    }
    in->nopnds = (uint8_t)nop;
    in->opnds = zalloc(b, sizeof(IrOperand) * (nop ? nop : 1));
    if (nop) {
        memcpy(in->opnds, ops, sizeof(IrOperand) * nop);
    }
    f->scopes[0].end_insn = f->ninsns;
    return in;
}

static IrLabel *label(Build *b, IrFunc *f, const char *name, uint32_t at,
                      uint32_t scope)
{
    IrLabel *l = &f->labels[f->nlabels++];
    l->name = str(b, name);
    l->insn = at;
    l->scope = scope;
    return l;
}

/* Printing into a malloc'd string. */
static char *print_module(const IrModule *m)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    ptx_print_module(f, m);
    fclose(f);
    return buf;
}

static char *print_insn(const IrModule *m, const IrFunc *fn,
                        const IrInsn *in)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    ptx_print_insn(f, m, fn, in);
    fclose(f);
    return buf;
}

/* ---- insn ---- */

START_TEST(test_insn_text)
{
    Build b = build_new();
    IrFunc *f = func_new(&b, "k", true);
    IrFunc *callee = func_new(&b, "foo", false);
    IrSymbol *g = global(&b, "gsym", PTX_SPACE_GLOBAL, PTX_T_U32);
    IrSymbol *sm = global(&b, "smem", PTX_SPACE_SHARED, PTX_T_B8);
    int32_t r1 = reg(&b, f, "%r1", PTX_T_B32, 0);
    int32_t r2 = reg(&b, f, "%r2", PTX_T_B32, 0);
    int32_t rd1 = reg(&b, f, "%rd1", PTX_T_B64, 0);
    int32_t p1 = reg(&b, f, "%p1", PTX_T_PRED, 0);
    int32_t p2 = reg(&b, f, "%p2", PTX_T_PRED, 0);
    int32_t f1 = reg(&b, f, "%f1", PTX_T_F32, 0);
    int32_t f2 = reg(&b, f, "%f2", PTX_T_F32, 0);
    int32_t fd1 = reg(&b, f, "%fd1", PTX_T_F64, 0);
    int32_t v = reg(&b, f, "%v", PTX_T_F32, 0);
    f->regs[v].vec = 4;
    IrSymbol *pa = sym_new(&b, "param0", PTX_SPACE_PARAM, PTX_T_B32);
    IrSymbol *pb = sym_new(&b, "param1", PTX_SPACE_PARAM, PTX_T_B64);
    IrSymbol *rv = sym_new(&b, "retval0", PTX_SPACE_PARAM, PTX_T_B32);
    label(&b, f, "$L__BB0_1", 0, 0);

    static const struct {
        const char *want;
    } rows[] = {
        {"@!%p1 add.s32 %r1, %r2, 42;"},
        {"ld.global.v2.f32 {%f1, %f2}, [%rd1+-8];"},
        {"mov.f32 %f1, 0f3F800000;"},
        {"mov.f64 %fd1, 0dBFF0000000000000;"},
        {"mov.u32 %r1, %tid.x;"},
        {"st.global.u32 [gsym+4], %r1;"},
        {"setp.lt.s32 %p1|%p2, %r1, -5;"},
        {"@%p2 bra.uni $L__BB0_1;"},
        {"call.uni (retval0), foo, (param0, param1);"},
        {"mov.u32 %r1, %envreg3;"},
        {"mov.u64 %rd1, %pm2_64;"},
        {"ld.global.u32 %r1, [100];"},
        {"ld.shared.u32 %r1, [smem];"},
        {"ld.u32 %r1, [%rd1];"},
        {"mov.u64 %rd1, gsym+8;"},
        {"mov.f32 %f1, %v.w;"},
        {"add.rn.ftz.f32 %f2, %f1, %f2;"},
        {"tex.2d.v4.f32.f32 {%f1, _, _, %f2}, [gsym, {%f1, %f2}];"},
        {"mov.u64 %rd1, 0x8000000000000000;"},
        {"cp.async.wait_group 0;"},
        {"ret;"},
    };

    IrInsn *in;
    in = insn(&b, f, PTX_OP_ADD, (uint16_t[]){TY(PTX_T_S32), END}, 3,
              (IrOperand[]){o_reg(r1), o_reg(r2), o_imm(42)});
    in->guard = p1;
    in->guard_neg = true;
    insn(&b, f, PTX_OP_LD,
         (uint16_t[]){PTX_M_GLOBAL, PTX_M_V2, TY(PTX_T_F32), END}, 2,
         (IrOperand[]){o_group(&b, IR_O_VEC, 2,
                               (IrOperand[]){o_reg(f1), o_reg(f2)}),
                       o_addr(rd1, NULL, -8)});
    insn(&b, f, PTX_OP_MOV, (uint16_t[]){TY(PTX_T_F32), END}, 2,
         (IrOperand[]){o_reg(f1), o_f32(0x3f800000)});
    insn(&b, f, PTX_OP_MOV, (uint16_t[]){TY(PTX_T_F64), END}, 2,
         (IrOperand[]){o_reg(fd1), o_f64(0xbff0000000000000ull)});
    insn(&b, f, PTX_OP_MOV, (uint16_t[]){TY(PTX_T_U32), END}, 2,
         (IrOperand[]){o_reg(r1), o_sreg(PTX_SREG_TID, IR_SEL_X, 0)});
    insn(&b, f, PTX_OP_ST, (uint16_t[]){PTX_M_GLOBAL, TY(PTX_T_U32), END},
         2, (IrOperand[]){o_addr(-1, g, 4), o_reg(r1)});
    insn(&b, f, PTX_OP_SETP, (uint16_t[]){PTX_M_LT, TY(PTX_T_S32), END}, 3,
         (IrOperand[]){o_group(&b, IR_O_PAIR, 2,
                               (IrOperand[]){o_reg(p1), o_reg(p2)}),
                       o_reg(r1), o_imm(-5)});
    in = insn(&b, f, PTX_OP_BRA, (uint16_t[]){PTX_M_UNI, END}, 1,
              (IrOperand[]){o_label(0)});
    in->guard = p2;
    insn(&b, f, PTX_OP_CALL, (uint16_t[]){PTX_M_UNI, END}, 3,
         (IrOperand[]){o_group(&b, IR_O_LIST, 1,
                               (IrOperand[]){o_sym(rv, 0)}),
                       o_func(callee),
                       o_group(&b, IR_O_LIST, 2,
                               (IrOperand[]){o_sym(pa, 0), o_sym(pb, 0)})});
    insn(&b, f, PTX_OP_MOV, (uint16_t[]){TY(PTX_T_U32), END}, 2,
         (IrOperand[]){o_reg(r1), o_sreg(PTX_SREG_ENVREG, 0, 3)});
    insn(&b, f, PTX_OP_MOV, (uint16_t[]){TY(PTX_T_U64), END}, 2,
         (IrOperand[]){o_reg(rd1), o_sreg(PTX_SREG_PM64, 0, 2)});
    insn(&b, f, PTX_OP_LD, (uint16_t[]){PTX_M_GLOBAL, TY(PTX_T_U32), END},
         2, (IrOperand[]){o_reg(r1), o_addr(-1, NULL, 100)});
    insn(&b, f, PTX_OP_LD, (uint16_t[]){PTX_M_SHARED, TY(PTX_T_U32), END},
         2, (IrOperand[]){o_reg(r1), o_addr(-1, sm, 0)});
    insn(&b, f, PTX_OP_LD, (uint16_t[]){TY(PTX_T_U32), END}, 2,
         (IrOperand[]){o_reg(r1), o_addr(rd1, NULL, 0)});
    insn(&b, f, PTX_OP_MOV, (uint16_t[]){TY(PTX_T_U64), END}, 2,
         (IrOperand[]){o_reg(rd1), o_sym(g, 8)});
    IrOperand vw = o_reg(v);
    vw.sel = IR_SEL_W;
    insn(&b, f, PTX_OP_MOV, (uint16_t[]){TY(PTX_T_F32), END}, 2,
         (IrOperand[]){o_reg(f1), vw});
    insn(&b, f, PTX_OP_ADD,
         (uint16_t[]){PTX_M_RN, PTX_M_FTZ, TY(PTX_T_F32), END}, 3,
         (IrOperand[]){o_reg(f2), o_reg(f1), o_reg(f2)});
    insn(&b, f, PTX_OP_TEX,
         (uint16_t[]){PTX_M_G2D, PTX_M_V4, TY(PTX_T_F32), TY(PTX_T_F32),
                      END}, 2,
         (IrOperand[]){o_group(&b, IR_O_VEC, 4,
                               (IrOperand[]){o_reg(f1), o_sink(), o_sink(),
                                             o_reg(f2)}),
                       o_group(&b, IR_O_TUPLE, 2,
                               (IrOperand[]){o_sym(g, 0),
                                             o_group(&b, IR_O_VEC, 2,
                                                     (IrOperand[]){
                                                         o_reg(f1),
                                                         o_reg(f2)})})});
    insn(&b, f, PTX_OP_MOV, (uint16_t[]){TY(PTX_T_U64), END}, 2,
         (IrOperand[]){o_reg(rd1), o_imm(INT64_MIN)});
    insn(&b, f, PTX_OP_CP_ASYNC_WAIT_GROUP, NULL, 1,
         (IrOperand[]){o_imm(0)});
    insn(&b, f, PTX_OP_RET, NULL, 0, NULL);

    ck_assert_uint_eq(f->ninsns, sizeof(rows) / sizeof(rows[0]));
    for (uint32_t i = 0; i < f->ninsns; i++) {
        char *got = print_insn(b.m, f, &f->insns[i]);
        ck_assert_msg(strcmp(got, rows[i].want) == 0,
                      "insn %u: got '%s', want '%s'", i, got, rows[i].want);
        free(got);
    }
    ptx_arena_free(b.a);
}
END_TEST

/* ---- module ---- */

/* The sample module used by the module and equal tests.  Everything that
 * a field-mutation row below touches is reachable from here. */
static Build build_sample(void)
{
    Build b = build_new();
    IrModule *m = b.m;

    m->files = zalloc(&b, sizeof(char *) * 3);
    m->nfiles = 2;
    m->files[1] = str(&b, "k.cu");
    m->pragmas = zalloc(&b, sizeof(char *) * 2);
    m->pragmas[m->npragmas++] = str(&b, "nounroll");

    IrSymbol *tab = global(&b, "tab", PTX_SPACE_GLOBAL, PTX_T_U32);
    tab->linkage = IR_LINK_VISIBLE;
    tab->align = 4;
    set_init(&b, tab, 4, (uint32_t[]){1, 2, 3, 0xffffffffu});

    IrSymbol *one = global(&b, "one", PTX_SPACE_CONST, PTX_T_F32);
    one->init = zalloc(&b, 4);
    memcpy(one->init, &(uint32_t){0x3f800000}, 4);

    IrSymbol *neg = global(&b, "neg", PTX_SPACE_CONST, PTX_T_S8);
    set_init(&b, neg, 3, (int8_t[]){-1, 5, -128});

    IrSymbol *m2 = global(&b, "m2", PTX_SPACE_GLOBAL, PTX_T_U16);
    set_init(&b, m2, 2, NULL);
    m2->ndims = 2;
    m2->dims[1] = 2;
    m2->size = 8;
    m2->init = zalloc(&b, 8);
    memcpy(m2->init, (uint16_t[]){1, 2, 3, 4}, 8);

    IrSymbol *ptrs = global(&b, "ptrs", PTX_SPACE_GLOBAL, PTX_T_U64);
    set_init(&b, ptrs, 3, NULL);
    IrReloc *r = reloc_add(&b, ptrs, 0);
    r->sym = tab;
    r->generic = true;
    r->addend = 4;
    r = reloc_add(&b, ptrs, 8);
    r->sym = tab;

    IrSymbol *fp = global(&b, "fp", PTX_SPACE_GLOBAL, PTX_T_U64);
    fp->init = zalloc(&b, 8);

    IrSymbol *bytes = global(&b, "bytes", PTX_SPACE_GLOBAL, PTX_T_U8);
    set_init(&b, bytes, 2, NULL);
    r = reloc_add(&b, bytes, 0);
    r->sym = tab;
    r->generic = true;
    r->mask = 0xff;
    r = reloc_add(&b, bytes, 1);
    r->sym = tab;
    r->generic = true;
    r->mask = 0xff00;
    r->shift = 8;
    r->addend = -2;

    IrSymbol *tex = global(&b, "tex0", PTX_SPACE_GLOBAL, PTX_T_NONE);
    tex->kind = IR_SYM_TEXREF;

    IrSymbol *vec = global(&b, "v2", PTX_SPACE_GLOBAL, PTX_T_F32);
    vec->vec = 2;
    vec->size = 8;
    vec->init = zalloc(&b, 8);
    memcpy(vec->init, (uint32_t[]){0x3f800000, 0x80000000}, 8);

    IrSymbol *ext = global(&b, "dyn", PTX_SPACE_SHARED, PTX_T_B8);
    ext->linkage = IR_LINK_EXTERN;
    ext->align = 16;
    ext->ndims = 1;
    ext->size = 0;

    /* A kernel; helper() is defined after it, but `fp` refers to it, so
     * it needs a prototype before the globals. */
    IrFunc *k = func_new(&b, "k", true);
    IrFunc *h = func_new(&b, "helper", false);
    r = reloc_add(&b, fp, 0);
    r->func = h;

    IrSymbol *p0 = sym_new(&b, "k_param_0", PTX_SPACE_PARAM, PTX_T_U64);
    p0->is_ptr = true;
    p0->ptr_space = PTX_SPACE_GLOBAL;
    p0->ptr_align = 16;
    IrSymbol *p1 = sym_new(&b, "k_param_1", PTX_SPACE_PARAM, PTX_T_B8);
    p1->align = 8;
    p1->ndims = 1;
    p1->dims[0] = 16;
    p1->size = 16;
    k->params[k->nparams++] = p0;
    k->params[k->nparams++] = p1;
    k->maxntid[0] = 256;
    k->maxntid[1] = 1;
    k->maxntid[2] = 1;
    k->minnctapersm = 2;

    for (int i = 0; i < 4; i++) {
        char name[16];
        snprintf(name, sizeof(name), "%%r%d", i);
        reg(&b, k, name, PTX_T_B32, 0);
    }
    int32_t pr = reg(&b, k, "%p0", PTX_T_PRED, 0);
    int32_t rd = reg(&b, k, "%rd5", PTX_T_B64, 0);
    int32_t tmp = reg(&b, k, "%tmp", PTX_T_B32, 1);

    IrSymbol *par = sym_new(&b, "param0", PTX_SPACE_PARAM, PTX_T_B32);
    par->scope = 1;
    k->vars[k->nvars++] = par;
    IrSymbol *loc = sym_new(&b, "depot", PTX_SPACE_LOCAL, PTX_T_B8);
    loc->align = 8;
    loc->ndims = 1;
    loc->dims[0] = 8;
    loc->size = 8;
    k->vars[k->nvars++] = loc;

    IrInsn *in;
    in = insn(&b, k, PTX_OP_LD, (uint16_t[]){PTX_M_PARAM, TY(PTX_T_U64),
                                             END}, 2,
              (IrOperand[]){o_reg(rd), o_addr(-1, p0, 0)});
    in->src = (IrSrcPos){.file = 1, .line = 10, .col = 3};
    in = insn(&b, k, PTX_OP_SETP, (uint16_t[]){PTX_M_LT, TY(PTX_T_S32),
                                               END}, 3,
              (IrOperand[]){o_reg(pr), o_reg(0), o_imm(42)});
    in->src = (IrSrcPos){.file = 1, .line = 10, .col = 3};
    in = insn(&b, k, PTX_OP_ADD, (uint16_t[]){TY(PTX_T_S32), END}, 3,
              (IrOperand[]){o_reg(tmp), o_reg(1), o_imm(1)});
    in->src = (IrSrcPos){.file = 1, .line = 11, .col = 5};
    in->scope = 1;
    in = insn(&b, k, PTX_OP_ST, (uint16_t[]){PTX_M_PARAM, TY(PTX_T_B32),
                                             END}, 2,
              (IrOperand[]){o_addr(-1, par, 0), o_reg(tmp)});
    in->src = (IrSrcPos){.file = 1, .line = 11, .col = 5};
    in->scope = 1;
    in = insn(&b, k, PTX_OP_BRA, NULL, 1, (IrOperand[]){o_label(1)});
    in->guard = pr;
    in->src = (IrSrcPos){.file = 1, .line = 12, .col = 1};
    in = insn(&b, k, PTX_OP_RET, NULL, 0, NULL);
    in->src = (IrSrcPos){.file = 1, .line = 12, .col = 1};
    /* Scope 1: {insn 2, insn 3}; scope 2: empty, nested in scope 0 after
     * scope 1; scope 3: empty, nested in scope 2. */
    k->nscopes = 4;
    k->scopes[1] = (IrScope){0, 2, 4, {0, 0}};
    k->scopes[2] = (IrScope){0, 4, 4, {0, 0}};
    k->scopes[3] = (IrScope){2, 4, 4, {0, 0}};
    label(&b, k, "$L_top", 1, 0);
    label(&b, k, "$L_end", 6, 0);
    label(&b, k, "$L_in", 3, 1);

    IrSymbol *hr = sym_new(&b, "ret0", PTX_SPACE_PARAM, PTX_T_B32);
    h->rets[h->nrets++] = hr;
    IrSymbol *hp = sym_new(&b, "x", PTX_SPACE_PARAM, PTX_T_B32);
    h->params[h->nparams++] = hp;
    int32_t hx = reg(&b, h, "%hx", PTX_T_B32, 0);
    insn(&b, h, PTX_OP_LD, (uint16_t[]){PTX_M_PARAM, TY(PTX_T_B32), END}, 2,
         (IrOperand[]){o_reg(hx), o_addr(-1, hp, 0)});
    insn(&b, h, PTX_OP_ST, (uint16_t[]){PTX_M_PARAM, TY(PTX_T_B32), END}, 2,
         (IrOperand[]){o_addr(-1, hr, 0), o_reg(hx)});
    insn(&b, h, PTX_OP_RET, NULL, 0, NULL);
    h->pragmas = zalloc(&b, sizeof(char *));
    h->pragmas[h->npragmas++] = str(&b, "nounroll");

    IrFunc *e = func_new(&b, "ext", false);
    e->is_decl = true;
    e->linkage = IR_LINK_EXTERN;
    e->params[e->nparams++] = sym_new(&b, "a", PTX_SPACE_PARAM, PTX_T_B64);

    m->sections = zalloc(&b, sizeof(char *));
    m->sections[m->nsections++] = str(&b, ".section .debug_str\n{\n}");
    return b;
}

static const char sample_text[] =
    ".version 8.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    "\n"
    ".file 1 \"k.cu\"\n"
    ".pragma \"nounroll\";\n"
    "\n"
    ".visible .entry k(\n"
    "\t.param .u64 .ptr.global.align 16 k_param_0,\n"
    "\t.param .align 8 .b8 k_param_1[16]\n"
    ")\n"
    ".maxntid 256, 1, 1\n"
    ".minnctapersm 2;\n"
    "\n"
    ".func (.param .b32 ret0) helper(\n"
    "\t.param .b32 x\n"
    ");\n"
    "\n"
    ".visible .global .align 4 .u32 tab[4] = {1, 2, 3, 4294967295};\n"
    ".const .f32 one = 0f3F800000;\n"
    ".const .s8 neg[3] = {-1, 5, -128};\n"
    ".global .u16 m2[2][2] = {{1, 2}, {3, 4}};\n"
    ".global .u64 ptrs[3] = {generic(tab)+4, tab, 0};\n"
    ".global .u64 fp = helper;\n"
    ".global .u8 bytes[2] = {0xFF(generic(tab)), 0xFF00(generic(tab)+-2)};\n"
    ".global .texref tex0;\n"
    ".global .v2 .f32 v2 = {0f3F800000, 0f80000000};\n"
    ".extern .shared .align 16 .b8 dyn[];\n"
    "\n"
    ".visible .entry k(\n"
    "\t.param .u64 .ptr.global.align 16 k_param_0,\n"
    "\t.param .align 8 .b8 k_param_1[16]\n"
    ")\n"
    ".maxntid 256, 1, 1\n"
    ".minnctapersm 2\n"
    "{\n"
    "\t.reg .b32 %r<4>;\n"
    "\t.reg .pred %p0;\n"
    "\t.reg .b64 %rd5;\n"
    "\t.local .align 8 .b8 depot[8];\n"
    "\t.loc\t1 10 3\n"
    "\tld.param.u64 %rd5, [k_param_0];\n"
    "$L_top:\n"
    "\tsetp.lt.s32 %p0, %r0, 42;\n"
    "\t{\n"
    "\t.reg .b32 %tmp;\n"
    "\t.param .b32 param0;\n"
    "\t.loc\t1 11 5\n"
    "\tadd.s32 %tmp, %r1, 1;\n"
    "$L_in:\n"
    "\tst.param.b32 [param0], %tmp;\n"
    "\t}\n"
    "\t{\n"
    "\t{\n"
    "\t}\n"
    "\t}\n"
    "\t.loc\t1 12 1\n"
    "\t@%p0 bra $L_end;\n"
    "\tret;\n"
    "$L_end:\n"
    "}\n"
    "\n"
    ".func (.param .b32 ret0) helper(\n"
    "\t.param .b32 x\n"
    ")\n"
    "{\n"
    "\t.pragma \"nounroll\";\n"
    "\t.reg .b32 %hx;\n"
    "\tld.param.b32 %hx, [x];\n"
    "\tst.param.b32 [ret0], %hx;\n"
    "\tret;\n"
    "}\n"
    "\n"
    ".extern .func ext(\n"
    "\t.param .b64 a\n"
    ");\n"
    "\n"
    ".section .debug_str\n"
    "{\n"
    "}\n";

/* Print the first line where two texts differ, for a readable failure. */
static void diff_lines(const char *got, const char *want)
{
    int line = 1;
    const char *g = got, *w = want;
    while (*g && *g == *w) {
        if (*g == '\n') {
            line++;
        }
        g++;
        w++;
    }
    while (g > got && g[-1] != '\n') {
        g--;
    }
    while (w > want && w[-1] != '\n') {
        w--;
    }
    fprintf(stderr, "first difference at line %d:\n  got:  %.*s\n"
            "  want: %.*s\n", line, (int)strcspn(g, "\n"), g,
            (int)strcspn(w, "\n"), w);
}

START_TEST(test_module_text)
{
    Build b = build_sample();
    char *got = print_module(b.m);
    if (strcmp(got, sample_text) != 0) {
        diff_lines(got, sample_text);
    }
    ck_assert_str_eq(got, sample_text);
    free(got);
    ptx_arena_free(b.a);
}
END_TEST

/* Register-range compression: only a run PREFIX0..PREFIX(N-1) of one type
 * and scope, in table order, becomes "PREFIX<N>". */
START_TEST(test_reg_ranges)
{
    Build b = build_new();
    IrFunc *f = func_new(&b, "k", true);
    reg(&b, f, "%r0", PTX_T_B32, 0);
    reg(&b, f, "%r1", PTX_T_B32, 0);
    reg(&b, f, "%r2", PTX_T_B32, 0);
    reg(&b, f, "%f0", PTX_T_F32, 0);     /* single: %f<1> would be odd */
    reg(&b, f, "%rd1", PTX_T_B64, 0);    /* does not start at 0 */
    reg(&b, f, "%rd2", PTX_T_B64, 0);
    reg(&b, f, "%q0", PTX_T_B16, 0);
    reg(&b, f, "%q1", PTX_T_B32, 0);     /* type changes */
    reg(&b, f, "%x10", PTX_T_B32, 0);    /* prefix would end in a digit */
    reg(&b, f, "%x11", PTX_T_B32, 0);
    reg(&b, f, "%s0", PTX_T_B32, 0);
    reg(&b, f, "%s2", PTX_T_B32, 0);     /* gap */
    insn(&b, f, PTX_OP_RET, NULL, 0, NULL);
    char *got = print_module(b.m);
    const char *want =
        "{\n"
        "\t.reg .b32 %r<3>;\n"
        "\t.reg .f32 %f0;\n"
        "\t.reg .b64 %rd1;\n"
        "\t.reg .b64 %rd2;\n"
        "\t.reg .b16 %q0;\n"
        "\t.reg .b32 %q1;\n"
        "\t.reg .b32 %x10;\n"
        "\t.reg .b32 %x11;\n"
        "\t.reg .b32 %s0;\n"
        "\t.reg .b32 %s2;\n"
        "\tret;\n"
        "}\n";
    ck_assert_ptr_nonnull(strstr(got, want));
    free(got);
    ptx_arena_free(b.a);
}
END_TEST

/* Labels with .branchtargets / .calltargets / .callprototype. */
START_TEST(test_label_kinds)
{
    Build b = build_new();
    IrFunc *f = func_new(&b, "k", true);
    IrFunc *g = func_new(&b, "g", false);
    g->is_decl = true;
    int32_t r = reg(&b, f, "%r1", PTX_T_B32, 0);
    insn(&b, f, PTX_OP_RET, NULL, 0, NULL);
    insn(&b, f, PTX_OP_RET, NULL, 0, NULL);
    (void)r;
    IrLabel *l0 = label(&b, f, "L0", 0, 0);
    IrLabel *l1 = label(&b, f, "L1", 1, 0);
    IrLabel *bt = label(&b, f, "bt", 1, 0);
    bt->kind = IR_LABEL_BRANCHTARGETS;
    bt->ntargets = 2;
    bt->targets = zalloc(&b, 2 * sizeof(int32_t));
    bt->targets[0] = 0;
    bt->targets[1] = 1;
    IrLabel *ct = label(&b, f, "ct", 1, 0);
    ct->kind = IR_LABEL_CALLTARGETS;
    ct->ntargets = 1;
    ct->ftargets = zalloc(&b, sizeof(IrFunc *));
    ct->ftargets[0] = g;
    IrLabel *cp = label(&b, f, "proto", 2, 0);
    cp->kind = IR_LABEL_CALLPROTO;
    IrFunc *p = zalloc(&b, sizeof(*p));
    p->is_proto = true;
    p->rets = zalloc(&b, sizeof(IrSymbol *));
    p->params = zalloc(&b, 2 * sizeof(IrSymbol *));
    p->rets[p->nrets++] = sym_new(&b, "_", PTX_SPACE_PARAM, PTX_T_B32);
    p->params[p->nparams++] = sym_new(&b, "_", PTX_SPACE_PARAM, PTX_T_B64);
    p->params[p->nparams++] = sym_new(&b, "_", PTX_SPACE_PARAM, PTX_T_B32);
    cp->proto = p;
    (void)l0;
    (void)l1;
    char *got = print_module(b.m);
    const char *want =
        "L0:\n"
        "\tret;\n"
        "L1:\n"
        "bt: .branchtargets L0, L1;\n"
        "ct: .calltargets g;\n"
        "\tret;\n"
        "proto: .callprototype (.param .b32 _) _ (.param .b64 _, "
        ".param .b32 _);\n"
        "}\n";
    if (!strstr(got, want)) {
        fprintf(stderr, "%s", got);
    }
    ck_assert_ptr_nonnull(strstr(got, want));
    /* g is referenced by k (earlier), so it is declared first. */
    ck_assert_ptr_nonnull(strstr(got, ".func g();\n"));
    ck_assert(strstr(got, ".func g();") < strstr(got, "{"));
    free(got);
    ptx_arena_free(b.a);
}
END_TEST

/* ---- equal ---- */

typedef struct Mutation {
    const char *name;
    void (*apply)(Build *b);
    const char *why;     /* expected substring of the explanation */
} Mutation;

static IrFunc *fn(Build *b, uint32_t i)
{
    return b->m->funcs[i];
}

static void mu_version(Build *b) { b->m->version_minor = 1; }
static void mu_target(Build *b) { b->m->targets[0] = str(b, "sm_90"); }
static void mu_addr(Build *b) { b->m->address_size = 32; }
static void mu_file(Build *b) { b->m->files[1] = str(b, "x.cu"); }
static void mu_pragma(Build *b) { b->m->pragmas[0] = str(b, "x"); }
static void mu_nglobals(Build *b) { b->m->nglobals--; }
static void mu_gname(Build *b) { b->m->globals[0]->name = str(b, "tab2"); }
static void mu_galign(Build *b) { b->m->globals[0]->align = 8; }
static void mu_glink(Build *b) { b->m->globals[0]->linkage = IR_LINK_WEAK; }
static void mu_ginit(Build *b) { b->m->globals[0]->init[5] = 7; }
static void mu_ginit_none(Build *b) { b->m->globals[1]->init = NULL; }
static void mu_gdims(Build *b) { b->m->globals[3]->dims[1] = 3; }
static void mu_raddend(Build *b) { b->m->globals[4]->relocs[0].addend = 8; }
static void mu_rgeneric(Build *b) { b->m->globals[4]->relocs[1].generic = 1; }
static void mu_rsym(Build *b)
{
    b->m->globals[4]->relocs[1].sym = b->m->globals[1];
}
static void mu_rfunc(Build *b) { b->m->globals[5]->relocs[0].func = fn(b, 0); }
static void mu_rmask(Build *b) { b->m->globals[6]->relocs[1].mask = 0xff; }
static void mu_gkind(Build *b) { b->m->globals[7]->kind = IR_SYM_SURFREF; }
static void mu_gvec(Build *b) { b->m->globals[8]->vec = 4; }
static void mu_nfuncs(Build *b) { b->m->nfuncs--; }
static void mu_fname(Build *b) { fn(b, 0)->name = str(b, "kk"); }
static void mu_entry(Build *b) { fn(b, 1)->is_entry = true; }
static void mu_decl(Build *b) { fn(b, 2)->is_decl = false; }
static void mu_ptr(Build *b) { fn(b, 0)->params[0]->ptr_align = 8; }
static void mu_ptrsp(Build *b)
{
    fn(b, 0)->params[0]->ptr_space = PTX_SPACE_SHARED;
}
static void mu_nparams(Build *b) { fn(b, 0)->nparams = 1; }
static void mu_ret(Build *b) { fn(b, 1)->rets[0]->type = PTX_T_B64; }
static void mu_maxntid(Build *b) { fn(b, 0)->maxntid[1] = 2; }
static void mu_minncta(Build *b) { fn(b, 0)->minnctapersm = 0; }
static void mu_fpragma(Build *b) { fn(b, 1)->npragmas = 0; }
static void mu_regtype(Build *b) { fn(b, 0)->regs[1].type = PTX_T_U32; }
static void mu_regname(Build *b) { fn(b, 0)->regs[1].name = str(b, "%q"); }
static void mu_regscope(Build *b) { fn(b, 0)->regs[6].scope = 0; }
static void mu_varname(Build *b) { fn(b, 0)->vars[0]->name = str(b, "p"); }
static void mu_varscope(Build *b) { fn(b, 0)->vars[1]->scope = 1; }
static void mu_scope(Build *b) { fn(b, 0)->scopes[1].end_insn = 3; }
static void mu_scopepar(Build *b) { fn(b, 0)->scopes[3].parent = 0; }
static void mu_label(Build *b) { fn(b, 0)->labels[0].insn = 2; }
static void mu_labname(Build *b) { fn(b, 0)->labels[1].name = str(b, "x"); }
static void mu_op(Build *b) { fn(b, 0)->insns[5].op = PTX_OP_BRA; }
static void mu_type(Build *b)
{
    fn(b, 0)->insns[1].types[0] = PTX_T_U32;
}
static void mu_sfx(Build *b)
{
    fn(b, 0)->insns[1].sfx[0] = PTX_M_GT;
}
static void mu_guard(Build *b) { fn(b, 0)->insns[4].guard_neg = true; }
static void mu_noguard(Build *b) { fn(b, 0)->insns[4].guard = -1; }
static void mu_imm(Build *b) { fn(b, 0)->insns[1].opnds[2].imm = 43; }
static void mu_okind(Build *b)
{
    fn(b, 0)->insns[1].opnds[2].kind = IR_O_FIMM;
}
static void mu_oreg(Build *b) { fn(b, 0)->insns[1].opnds[1].id = 2; }
static void mu_osym(Build *b)
{
    fn(b, 0)->insns[0].opnds[1].u.sym = fn(b, 0)->params[1];
}
static void mu_olabel(Build *b) { fn(b, 0)->insns[4].opnds[0].id = 0; }
static void mu_src(Build *b) { fn(b, 0)->insns[3].src.line = 99; }
static void mu_iscope(Build *b) { fn(b, 0)->insns[3].scope = 0; }
static void mu_section(Build *b) { b->m->nsections = 0; }

static const Mutation mutations[] = {
    {"version", mu_version, "module: version_minor 0 != 1"},
    {"target", mu_target, "module: target 0: 'sm_80' != 'sm_90'"},
    {"address_size", mu_addr, "module: address_size 64 != 32"},
    {"file", mu_file, "module: file 1: 'k.cu' != 'x.cu'"},
    {"pragma", mu_pragma, "module: pragma 0: 'nounroll' != 'x'"},
    {"nglobals", mu_nglobals, "global count 10 != 9"},
    {"global name", mu_gname, "global 0 'tab': name 'tab' != 'tab2'"},
    {"global align", mu_galign, "global 0 'tab': align 4 != 8"},
    {"global linkage", mu_glink, "global 0 'tab': linkage"},
    {"global init", mu_ginit, "global 0 'tab': init byte 5: 0 != 7"},
    {"global no init", mu_ginit_none, "global 1 'one': init present != none"},
    {"global dims", mu_gdims, "global 3 'm2': dims[1] 2 != 3"},
    {"reloc addend", mu_raddend, "global 4 'ptrs' reloc 0: addend 4 != 8"},
    {"reloc generic", mu_rgeneric, "global 4 'ptrs' reloc 1: generic 0 != 1"},
    {"reloc sym", mu_rsym, "global 4 'ptrs' reloc 1: sym 'tab' != 'one'"},
    {"reloc func", mu_rfunc,
     "global 5 'fp' reloc 0: func 'helper' != 'k'"},
    {"reloc mask", mu_rmask,
     "global 6 'bytes' reloc 1: mask 65280 != 255"},
    {"global kind", mu_gkind, "global 7 'tex0': kind 1 != 3"},
    {"global vec", mu_gvec, "global 8 'v2': vec 2 != 4"},
    {"nfuncs", mu_nfuncs, "module: nfuncs 3 != 2"},
    {"func name", mu_fname, "func 'k': name 'k' != 'kk'"},
    {"is_entry", mu_entry, "func 'helper': is_entry 0 != 1"},
    {"is_decl", mu_decl, "func 'ext': is_decl 1 != 0"},
    {"ptr align", mu_ptr, "func 'k' param 0 'k_param_0': ptr_align 16 != 8"},
    {"ptr space", mu_ptrsp, "func 'k' param 0 'k_param_0': ptr_space"},
    {"nparams", mu_nparams, "func 'k': param count 2 != 1"},
    {"ret type", mu_ret, "func 'helper' ret 0 'ret0': type b32 != b64"},
    {"maxntid", mu_maxntid, "func 'k': maxntid[1] 1 != 2"},
    {"minnctapersm", mu_minncta, "func 'k': minnctapersm 2 != 0"},
    {"func pragma", mu_fpragma, "func 'helper': pragma count 1 != 0"},
    {"reg type", mu_regtype, "func 'k' reg 1: type b32 != u32"},
    {"reg name", mu_regname, "func 'k' reg 1: name '%r1' != '%q'"},
    {"reg scope", mu_regscope, "func 'k' reg 6: scope 1 != 0"},
    {"var name", mu_varname, "func 'k' var 0 'param0': name"},
    {"var scope", mu_varscope, "func 'k' var 1 'depot': scope 0 != 1"},
    {"scope end", mu_scope, "func 'k' scope 1: end_insn 4 != 3"},
    {"scope parent", mu_scopepar, "func 'k' scope 3: parent 2 != 0"},
    {"label insn", mu_label, "func 'k' label 0 '$L_top': insn 1 != 2"},
    {"label name", mu_labname, "func 'k' label 1 '$L_end': name"},
    {"op", mu_op, "func 'k' insn 5: op ret != bra"},
    {"type", mu_type, "func 'k' insn 1: types[0] s32 != u32"},
    {"sfx", mu_sfx, "func 'k' insn 1: sfx[0]"},
    {"guard_neg", mu_guard, "func 'k' insn 4: guard_neg 0 != 1"},
    {"guard", mu_noguard, "func 'k' insn 4: guard 4 != -1"},
    {"imm", mu_imm, "func 'k' insn 1 operand 2: imm 42 != 43"},
    {"operand kind", mu_okind, "func 'k' insn 1 operand 2: kind 3 != 4"},
    {"operand reg", mu_oreg, "func 'k' insn 1 operand 1: id 0 != 2"},
    {"operand sym", mu_osym,
     "func 'k' insn 0 operand 1: sym 'k_param_0' != 'k_param_1'"},
    {"operand label", mu_olabel, "func 'k' insn 4 operand 0: id 1 != 0"},
    {"src", mu_src, "func 'k' insn 3: src.line 11 != 99"},
    {"insn scope", mu_iscope, "func 'k' insn 3: scope 1 != 0"},
    {"sections", mu_section, "module: section count 1 != 0"},
};

#define N_MUTATIONS ((int)(sizeof(mutations) / sizeof(mutations[0])))

START_TEST(test_equal_same)
{
    Build a = build_sample();
    Build b = build_sample();
    char why[512] = "unchanged";
    ck_assert_msg(ir_module_equal(a.m, b.m, why, sizeof(why)), "%s", why);
    ck_assert_str_eq(why, "");
    /* Source positions and the CFG are not part of the comparison. */
    fn(&b, 0)->insns[2].loc = (PtxLoc){77, 7};
    fn(&b, 0)->insns[2].opnds[0].loc = (PtxLoc){77, 9};
    fn(&b, 0)->insns[2].block = 3;
    fn(&b, 0)->labels[0].loc = (PtxLoc){5, 5};
    b.m->globals[0]->loc = (PtxLoc){3, 3};
    b.m->filename = "other.ptx";
    ck_assert_msg(ir_module_equal(a.m, b.m, why, sizeof(why)), "%s", why);
    /* NULL why is allowed. */
    ck_assert(ir_module_equal(a.m, b.m, NULL, 0));
    ptx_arena_free(a.a);
    ptx_arena_free(b.a);
}
END_TEST

START_TEST(test_equal_diff)
{
    const Mutation *mu = &mutations[_i];
    Build a = build_sample();
    Build b = build_sample();
    char why[512] = "";
    mu->apply(&b);
    ck_assert_msg(!ir_module_equal(a.m, b.m, why, sizeof(why)),
                  "%s: difference not noticed", mu->name);
    ck_assert_msg(strstr(why, mu->why) != NULL, "%s: why is '%s', want '%s'",
                  mu->name, why, mu->why);
    /* A tiny buffer is truncated, never overrun. */
    char small[8];
    ck_assert(!ir_module_equal(a.m, b.m, small, sizeof(small)));
    ck_assert_uint_lt(strlen(small), sizeof(small));
    ptx_arena_free(a.a);
    ptx_arena_free(b.a);
}
END_TEST

/* ---- roundtrip ---- */

static glob_t corpus;

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(buf);
    ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* parse -> print -> parse -> print: equal IRs, identical texts.  Returns
 * NULL, or what went wrong (in a static buffer) after freeing everything,
 * so a failing case leaks nothing even when Check does not fork. */
static const char *roundtrip(const char *name, const char *src, size_t len)
{
    static char err[4096];
    PtxDiag d;
    IrModule *m1 = ptx_parse_string(name, src, len, &d, NULL);
    if (!m1) {
        snprintf(err, sizeof(err), "%s does not parse:\n%s", name,
                 d.buf ? d.buf : "");
        ptx_diag_fini(&d);
        return err;
    }
    ptx_diag_fini(&d);
    char *t1 = print_module(m1);
    const char *res = NULL;
    char *t2 = NULL;

    IrModule *m2 = ptx_parse_string("printed", t1, strlen(t1), &d, NULL);
    if (!m2) {
        fprintf(stderr, "---- %s printed as:\n%s----\n", name, t1);
        snprintf(err, sizeof(err), "%s: printed text does not parse:\n%s",
                 name, d.buf ? d.buf : "");
        ptx_diag_fini(&d);
        res = err;
        goto done;
    }
    ptx_diag_fini(&d);

    char why[1024];
    if (!ir_module_equal(m1, m2, why, sizeof(why))) {
        snprintf(err, sizeof(err), "%s: reparsed IR differs: %s", name, why);
        res = err;
        goto done;
    }
    t2 = print_module(m2);
    if (strcmp(t1, t2) != 0) {
        diff_lines(t2, t1);
        snprintf(err, sizeof(err), "%s: second print differs", name);
        res = err;
    }
done:
    free(t1);
    free(t2);
    ptx_module_free(m1);
    if (m2) {
        ptx_module_free(m2);
    }
    return res;
}

/* A wrong source directory must not pass as "no files, no failures". */
START_TEST(test_corpus_found)
{
    ck_assert_msg(corpus.gl_pathc > 0, "no tests/corpus/ptx files found; "
                  "set top_srcdir");
}
END_TEST

START_TEST(test_roundtrip_file)
{
    const char *path = corpus.gl_pathv[_i];
    size_t len;
    char *src = read_file(path, &len);
    const char *err = roundtrip(path, src, len);
    free(src);
    ck_assert_msg(err == NULL, "%s", err);
}
END_TEST

/* Features the compiler-generated corpus does not exercise. */
static const char *const snippets[] = {
    /* globals, initializers with addresses, texrefs, prototypes */
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".pragma \"nounroll\";\n"
    ".extern .func (.param .b32 r) ext (.param .b64 p);\n"
    ".func f2 (.param .b32 a);\n"
    ".visible .global .align 4 .u32 tab[4] = {1, 2, 3, 0xffffffff};\n"
    ".const .f32 cf[2] = {0f3F800000, 0fBF800000};\n"
    ".const .f64 cd = 0d4000000000000000;\n"
    ".global .s8 neg[3] = {-1, 5, -128};\n"
    ".global .u16 m2[2][2] = {{1, 2}, {3, 4}};\n"
    ".global .u64 ptrs[] = {generic(tab)+4, tab, 0, tab-4};\n"
    ".global .u64 fps[2] = {f2, ext};\n"
    ".global .texref tx;\n"
    ".global .samplerref smp;\n"
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".global .v2 .u32 vv = {7, 8};\n"
    ".weak .global .b32 wk;\n"
    ".func f2 (.param .b32 a) { ret; }\n",

    /* kernels: .ptr params, directives, scopes, callseq, .loc, labels */
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".file 1 \"k.cu\"\n"
    ".file 2 \"dir/h.h\"\n"
    ".func (.param .b32 rv) callee (.param .b32 a, .param .b64 b)\n"
    "{\n"
    "  .reg .b32 %t<2>;\n"
    "  ld.param.b32 %t0, [a];\n"
    "  st.param.b32 [rv], %t0;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry k (.param .u64 .ptr .global .align 16 p0,\n"
    "                   .param .align 8 .b8 p1[16], .param .u32 n)\n"
    ".maxntid 128, 1, 1\n"
    ".minnctapersm 2\n"
    "{\n"
    "  .reg .pred %p<3>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  .reg .f32 %f<4>;\n"
    "  .reg .f64 %fd1;\n"
    "  .local .align 8 .b8 depot[16];\n"
    "  .shared .align 4 .b32 sh[32];\n"
    "  .loc 1 3 5\n"
    "  ld.param.u64 %rd1, [p0];\n"
    "  ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  mov.u32 %r3, %ctaid.y;\n"
    "  setp.ge.u32 %p1, %r2, %r1;\n"
    "  .loc 2 7 1\n"
    "  @%p1 bra $L_exit;\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mul.wide.u32 %rd3, %r2, 4;\n"
    "  add.s64 %rd2, %rd2, %rd3;\n"
    "  ld.global.v2.f32 {%f1, %f2}, [%rd2+-8];\n"
    "  add.rn.ftz.f32 %f3, %f1, 0f3F800000;\n"
    "  mov.f64 %fd1, 0dBFF0000000000000;\n"
    "  setp.lt.and.f32 %p2, %f3, %f2, !%p1;\n"
    "  st.shared.u32 [sh+4], %r2;\n"
    "  mov.u64 %rd3, sh;\n"
    "  selp.b32 %r4, 1, -7, %p2;\n"
    "$L_loop:\n"
    "  {\n"
    "    .reg .b32 %inner;\n"
    "    .param .b32 param0;\n"
    "    .param .b64 param1;\n"
    "    st.param.b32 [param0], %r4;\n"
    "    st.param.b64 [param1], %rd3;\n"
    "    .param .b32 retval0;\n"
    "    call.uni (retval0), callee, (param0, param1);\n"
    "    ld.param.b32 %inner, [retval0];\n"
    "    add.s32 %r5, %inner, 1;\n"
    "  $L_in:\n"
    "  }\n"
    "  { { } }\n"
    "  { }\n"
    "  @!%p2 bra.uni $L_loop;\n"
    "$L_exit:\n"
    "  ret;\n"
    "}\n",

    /* A global refers to a function first declared after a kernel (so
     * the kernel is declared early too), .reg parameters, .f16 data,
     * directives, indexed special registers, vector registers, pairs. */
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry first() { ret; }\n"
    ".func (.reg .b32 r) regfn (.reg .b32 a)\n"
    "{\n"
    "  add.s32 r, a, 1;\n"
    "  ret;\n"
    "}\n"
    ".global .u64 fpt = regfn;\n"
    ".global .f16 hv[3] = {1.0, -2.5, 0f33800000};\n"
    ".weak .func wk () .noreturn { trap; }\n"
    ".entry k2 .reqntid 32, 2 .maxnreg 64\n"
    "{\n"
    "  .reg .pred %p<3>;\n"
    "  .reg .b32 %r<3>;\n"
    "  .reg .b64 %rd<2>;\n"
    "  .reg .v4 .f32 %v;\n"
    "  .reg .f32 %f1;\n"
    "  mov.u32 %r0, %envreg3;\n"
    "  mov.u64 %rd0, %pm2_64;\n"
    "  mov.u32 %r1, %laneid;\n"
    "  mov.f32 %f1, %v.w;\n"
    "  setp.lt.s32 %p1|%p2, %r1, 5;\n"
    "  { .reg .b32 %r5; mov.u32 %r5, 7; }\n"
    "  @%p1 call.uni wk, ();\n"
    "  ret;\n"
    "}\n",
};

#define N_SNIPPETS ((int)(sizeof(snippets) / sizeof(snippets[0])))

START_TEST(test_roundtrip_snippet)
{
    char name[32];
    snprintf(name, sizeof(name), "snippet-%d", _i);
    const char *err = roundtrip(name, snippets[_i], strlen(snippets[_i]));
    ck_assert_msg(err == NULL, "%s", err);
}
END_TEST

static void corpus_glob(void)
{
    const char *srcdir = getenv("top_srcdir");
    if (!srcdir) {
        srcdir = getenv("srcdir");
    }
    char pat[4096];
    int flags = 0;
    static const char *const pats[] = {
        "tests/corpus/ptx/*.ptx", "tests/ptx/succ_*.ptx",
    };
    /* `make check` exports top_srcdir (the tree is non-recursive, so
     * srcdir is the same); run by hand, the current directory. */
    for (size_t i = 0; i < sizeof(pats) / sizeof(pats[0]); i++) {
        snprintf(pat, sizeof(pat), "%s/%s", srcdir ? srcdir : ".", pats[i]);
        glob(pat, flags, NULL, &corpus);
        flags = GLOB_APPEND;
    }
}

Suite *printer_suite(void);

Suite *printer_suite(void)
{
    Suite *s = suite_create("printer");
    TCase *tc;

    tc = tcase_create("insn");
    tcase_add_test(tc, test_insn_text);
    suite_add_tcase(s, tc);

    tc = tcase_create("module");
    tcase_add_test(tc, test_module_text);
    tcase_add_test(tc, test_reg_ranges);
    tcase_add_test(tc, test_label_kinds);
    suite_add_tcase(s, tc);

    tc = tcase_create("equal");
    tcase_add_test(tc, test_equal_same);
    tcase_add_loop_test(tc, test_equal_diff, 0, N_MUTATIONS);
    suite_add_tcase(s, tc);

    tc = tcase_create("roundtrip");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_corpus_found);
    tcase_add_loop_test(tc, test_roundtrip_snippet, 0, N_SNIPPETS);
    tcase_add_loop_test(tc, test_roundtrip_file, 0, (int)corpus.gl_pathc);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    corpus_glob();
    SRunner *sr = srunner_create(printer_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    globfree(&corpus);
    return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
