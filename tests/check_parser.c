/*
 * tests/check_parser.c: the grammar and the builder: declarations,
 * symbol resolution and scoping, labels, functions and their directives,
 * initializers, operands, and located errors with recovery.
 */
#include "testutil.h"
#include "ptx/opcode.h"

static const IrFunc *func(const IrModule *m, const char *name)
{
    const IrFunc *f = ir_find_func(m, name);
    ck_assert_msg(f != NULL, "no function %s", name);
    return f;
}

START_TEST(test_module_directives)
{
    IrModule *m = parse_ok(
        ".version 8.5\n.target sm_90a, texmode_independent, debug\n"
        ".address_size 64\n"
        ".file 1 \"/src/a.cu\"\n.file 2 \"b.h\", 1700000000, 42\n"
        ".pragma \"nounroll\";\n"
        ".section .debug_abbrev { .b8 17 .b8 1 }\n"
        ".entry k() { ret; }\n");
    ck_assert_uint_eq(m->version_major, 8);
    ck_assert_uint_eq(m->version_minor, 5);
    ck_assert_uint_eq(m->ntargets, 3);
    ck_assert_str_eq(m->targets[0], "sm_90a");
    ck_assert_str_eq(m->targets[2], "debug");
    ck_assert_uint_eq(m->address_size, 64);
    ck_assert_uint_ge(m->nfiles, 3);
    ck_assert_str_eq(m->files[1], "/src/a.cu");
    ck_assert_str_eq(m->files[2], "b.h");
    ck_assert_uint_eq(m->npragmas, 1);
    ck_assert_str_eq(m->pragmas[0], "nounroll");
    ck_assert_uint_eq(m->nsections, 1);
    ck_assert(strstr(m->sections[0], ".debug_abbrev"));
    ptx_module_free(m);
}
END_TEST

START_TEST(test_registers_and_ranges)
{
    IrModule *m = parse_ok(PTX_HDR
        ".entry k() {\n"
        " .reg .b32 %r<4>;\n .reg .pred %p, %q;\n .reg .v2 .f32 %v;\n"
        " add.s32 %r3, %r0, %r2;\n"
        " ret;\n}\n");
    const IrFunc *f = func(m, "k");
    ck_assert_uint_eq(f->nregs, 7);
    ck_assert_str_eq(f->regs[0].name, "%r0");
    ck_assert_str_eq(f->regs[3].name, "%r3");
    ck_assert_int_eq(f->regs[3].type, PTX_T_B32);
    ck_assert_str_eq(f->regs[4].name, "%p");
    ck_assert_int_eq(f->regs[6].vec, 2);
    const IrInsn *in = &f->insns[0];
    ck_assert_int_eq(in->op, ptx_opcode_lookup("add", 3, &(size_t){0}));
    ck_assert_uint_eq(in->nopnds, 3);
    ck_assert_int_eq(in->opnds[0].id, 3);
    ck_assert_int_eq(in->opnds[1].id, 0);
    ck_assert_int_eq(in->opnds[2].id, 2);
    ck_assert_uint_eq(in->ntypes, 1);
    ck_assert_int_eq(in->types[0], PTX_T_S32);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_register_out_of_range)
{
    parse_err(PTX_HDR ".entry k() {\n .reg .b32 %r<4>;\n"
              " mov.b32 %r4, 1;\n ret;\n}\n",
              "t.ptx:6:10: error: '%r4' is not declared");
    parse_err(PTX_HDR ".entry k() {\n .reg .b32 %r<4>;\n"
              " mov.b32 %r01, 1;\n ret;\n}\n", "'%r01' is not declared");
}
END_TEST

/* nvcc's inline asm: nested blocks that redeclare registers and labels. */
START_TEST(test_scopes_shadow)
{
    IrModule *m = parse_ok(PTX_HDR
        ".entry k() {\n"
        " .reg .b32 %r<3>;\n .reg .pred %p;\n"
        " mov.b32 %r1, 1;\n"
        " {\n  .reg .b64 %r1;\n  .reg .pred %p;\n"
        "  mov.b64 %r1, 2;\n  @%p bra L;\n  mov.b64 %r1, 3;\n L:\n }\n"
        " {\n  .reg .b16 %r1;\n  bra L;\n L:\n  mov.b16 %r1, 4;\n }\n"
        " mov.b32 %r1, 5;\n"
        " bra L;\n"
        "L:\n ret;\n}\n");
    const IrFunc *f = func(m, "k");
    /* %r0..2, %p, inner %r1 (b64), inner %p, second inner %r1 (b16) */
    ck_assert_uint_eq(f->nregs, 7);
    ck_assert_uint_eq(f->nscopes, 3);
    ck_assert_uint_eq(f->scopes[1].parent, 0);
    ck_assert_uint_eq(f->nlabels, 3);
    const IrInsn *in = f->insns;
    ck_assert_int_eq(in[0].opnds[0].id, 1);             /* outer %r1 */
    ck_assert_int_eq(f->regs[in[1].opnds[0].id].type, PTX_T_B64);
    ck_assert_int_eq(in[2].guard, 5);                   /* inner %p */
    /* each bra binds to the label of its own block */
    ck_assert_int_eq(in[2].opnds[0].id, 0);
    ck_assert_uint_eq(f->labels[0].insn, 4);
    ck_assert_int_eq(in[4].opnds[0].id, 1);
    ck_assert_int_eq(f->regs[in[5].opnds[0].id].type, PTX_T_B16);
    ck_assert_int_eq(in[6].opnds[0].id, 1);             /* outer again */
    ck_assert_int_eq(in[7].opnds[0].id, 2);
    ck_assert_uint_eq(f->labels[2].insn, 8);
    ck_assert_uint_eq(in[3].scope, 1);
    ck_assert_uint_eq(in[5].scope, 2);
    ck_assert_uint_eq(in[6].scope, 0);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_label_errors)
{
    parse_err(PTX_HDR ".entry k() {\n bra NOWHERE;\n}\n",
              "t.ptx:5:6: error: 'NOWHERE' is not declared");
    parse_err(PTX_HDR ".entry k() {\nL:\nL:\n ret;\n}\n",
              "t.ptx:6:1: error: redeclaration of 'L'");
    /* a label inside a closed block is not visible outside it */
    parse_err(PTX_HDR ".entry k() {\n { L: ret; }\n bra L;\n}\n",
              "'L' is not declared");
}
END_TEST

START_TEST(test_params_and_directives_decls)
{
    IrModule *m = parse_ok(PTX_HDR
        ".visible .entry k(\n"
        " .param .u64 .ptr .global .align 16 k_p0,\n"
        " .param .align 8 .b8 k_p1[24],\n .param .u32 k_p2)\n"
        " .maxntid 256, 1, 1 .minnctapersm 2 .maxnreg 64 .reqntid 32\n"
        "{\n .reg .b64 %rd;\n ld.param.u64 %rd, [k_p0+0];\n ret;\n}\n"
        ".func (.param .b32 r) f(.param .b32 a);\n"
        ".func (.param .b32 r) f(.param .b32 a)\n"
        "{\n .reg .b32 %x;\n ld.param.b32 %x, [a];\n"
        " st.param.b32 [r], %x;\n ret;\n}\n");
    ck_assert_uint_eq(m->nfuncs, 2);
    const IrFunc *k = func(m, "k");
    ck_assert(k->is_entry);
    ck_assert_int_eq(k->linkage, IR_LINK_VISIBLE);
    ck_assert_uint_eq(k->nparams, 3);
    ck_assert(k->params[0]->is_ptr);
    ck_assert_int_eq(k->params[0]->ptr_space, PTX_SPACE_GLOBAL);
    ck_assert_uint_eq(k->params[0]->ptr_align, 16);
    ck_assert_uint_eq(k->params[1]->align, 8);
    ck_assert_uint_eq(k->params[1]->size, 24);
    ck_assert_uint_eq(k->maxntid[0], 256);
    ck_assert_uint_eq(k->maxntid[2], 1);
    ck_assert_uint_eq(k->reqntid[0], 32);
    ck_assert_uint_eq(k->reqntid[1], 1);
    ck_assert_uint_eq(k->minnctapersm, 2);
    ck_assert_uint_eq(k->maxnreg, 64);
    const IrOperand *a = &k->insns[0].opnds[1];
    ck_assert_int_eq(a->kind, IR_O_ADDR);
    ck_assert_ptr_eq(a->u.sym, k->params[0]);
    const IrFunc *f = func(m, "f");
    ck_assert(!f->is_decl);
    ck_assert_uint_eq(f->nrets, 1);
    ck_assert_str_eq(f->rets[0]->name, "r");
    ptx_module_free(m);
}
END_TEST

START_TEST(test_initializers)
{
    IrModule *m = parse_ok(PTX_HDR
        ".global .align 4 .u32 a[4] = {1, 2, 0xFFFFFFFF, -1};\n"
        ".global .s16 b[2][2] = {{1, -2}, {3, 4}};\n"
        ".const .f32 c[] = {1.0, 0f40000000};\n"
        ".global .u64 p[3] = {a, a+8, generic(b)+2};\n"
        ".global .u8 s[] = {104, 105, 0};\n"
        ".global .f64 d = 0.5;\n"
        ".global .u8 mk[2] = {0xFF(a), 0xFF00(generic(b)+4)};\n"
        ".global .f16 h = 0x3C00;\n"
        ".entry k() { ret; }\n");
    const IrSymbol *a = ir_find_global(m, "a");
    ck_assert_uint_eq(a->size, 16);
    static const uint8_t abytes[16] = {1, 0, 0, 0, 2, 0, 0, 0,
                                       0xff, 0xff, 0xff, 0xff,
                                       0xff, 0xff, 0xff, 0xff};
    ck_assert_mem_eq(a->init, abytes, 16);
    const IrSymbol *b = ir_find_global(m, "b");
    ck_assert_uint_eq(b->size, 8);
    static const uint8_t bbytes[8] = {1, 0, 0xfe, 0xff, 3, 0, 4, 0};
    ck_assert_mem_eq(b->init, bbytes, 8);
    const IrSymbol *c = ir_find_global(m, "c");
    ck_assert_uint_eq(c->dims[0], 2);
    ck_assert_uint_eq(c->size, 8);
    static const uint8_t cbytes[8] = {0, 0, 0x80, 0x3f, 0, 0, 0, 0x40};
    ck_assert_mem_eq(c->init, cbytes, 8);
    const IrSymbol *p = ir_find_global(m, "p");
    ck_assert_uint_eq(p->nrelocs, 3);
    ck_assert_ptr_eq(p->relocs[0].sym, a);
    ck_assert_uint_eq(p->relocs[1].offset, 8);
    ck_assert_int_eq(p->relocs[1].addend, 8);
    ck_assert(p->relocs[2].generic);
    ck_assert_ptr_eq(p->relocs[2].sym, b);
    ck_assert_int_eq(p->relocs[2].addend, 2);
    ck_assert_uint_eq(ir_find_global(m, "s")->size, 3);
    const IrSymbol *d = ir_find_global(m, "d");
    double dv;
    memcpy(&dv, d->init, 8);
    ck_assert(dv == 0.5);
    const IrSymbol *mk = ir_find_global(m, "mk");
    ck_assert_uint_eq(mk->nrelocs, 2);
    ck_assert_uint_eq(mk->relocs[0].size, 1);
    ck_assert_uint_eq(mk->relocs[0].mask, 0xFF);
    ck_assert_uint_eq(mk->relocs[0].shift, 0);
    ck_assert_uint_eq(mk->relocs[1].offset, 1);
    ck_assert_uint_eq(mk->relocs[1].mask, 0xFF00);
    ck_assert_uint_eq(mk->relocs[1].shift, 8);
    ck_assert(mk->relocs[1].generic);
    ck_assert_int_eq(mk->relocs[1].addend, 4);
    const IrSymbol *h = ir_find_global(m, "h");
    ck_assert_uint_eq(h->init[0], 0x00);
    ck_assert_uint_eq(h->init[1], 0x3C);   /* bit pattern, not 15360.0 */
    ptx_module_free(m);
}
END_TEST

START_TEST(test_initializer_errors)
{
    parse_err(PTX_HDR ".global .u8 a[2] = {1, 2, 3};\n",
              "t.ptx:4:27: error: too many initializers for 'a'");
    parse_err(PTX_HDR ".global .u8 a = 256;\n",
              "t.ptx:4:17: error: initializer value does not fit in .u8");
    parse_err(PTX_HDR ".global .u32 a = nosuch;\n",
              "'nosuch' is not a declared variable or function");
    parse_err(PTX_HDR ".global .u16 a = b;\n.global .u8 b;\n",
              "t.ptx:4:18: error: an address initializer needs a 32- or "
              "64-bit element type");
    /* names must be declared before the initializer that uses them */
    parse_err(PTX_HDR ".global .u64 a = b;\n.global .u8 b;\n",
              "t.ptx:4:18: error: 'b' is not a declared variable or function");
}
END_TEST

START_TEST(test_operands)
{
    IrModule *m = parse_ok(PTX_HDR
        ".global .u32 g[4];\n"
        ".entry k() {\n"
        " .reg .b32 %r<4>;\n .reg .pred %p<3>;\n .reg .f32 %f<5>;\n"
        " .reg .b64 %rd<3>;\n"
        " mov.u32 %r1, %tid.y;\n"
        " ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+-8];\n"
        " ld.global.u32 %r2, [g+4];\n"
        " setp.lt.and.s32 %p1|%p2, %r1, 7, !%p0;\n"
        " mov.u64 %rd2, g;\n"
        " ld.global.u32 %r3, [100];\n"
        " ret;\n}\n");
    const IrInsn *in = func(m, "k")->insns;
    ck_assert_int_eq(in[0].opnds[1].kind, IR_O_SREG);
    ck_assert_int_eq(in[0].opnds[1].id, PTX_SREG_TID);
    ck_assert_int_eq(in[0].opnds[1].sel, IR_SEL_Y);
    ck_assert_int_eq(in[1].opnds[0].kind, IR_O_VEC);
    ck_assert_uint_eq(in[1].opnds[0].n, 4);
    ck_assert_int_eq(in[1].opnds[1].kind, IR_O_ADDR);
    ck_assert_int_eq(in[1].opnds[1].imm, -8);
    ck_assert_int_eq(in[2].opnds[1].imm, 4);
    ck_assert_str_eq(in[2].opnds[1].u.sym->name, "g");
    ck_assert_int_eq(in[2].opnds[1].id, -1);
    ck_assert_int_eq(in[3].opnds[0].kind, IR_O_PAIR);
    ck_assert_int_eq(in[3].opnds[3].kind, IR_O_REG);
    ck_assert_int_eq(in[3].opnds[3].neg, 1);
    ck_assert_int_eq(in[4].opnds[1].kind, IR_O_SYM);
    ck_assert_int_eq(in[5].opnds[1].kind, IR_O_ADDR);
    ck_assert_int_eq(in[5].opnds[1].id, -1);
    ck_assert(in[5].opnds[1].u.sym == NULL);
    ck_assert_int_eq(in[5].opnds[1].imm, 100);
    ptx_module_free(m);
}
END_TEST

/* PTX ISA section 4.4: the predefined constant WARP_SZ (nvcc writes it
 * for warpSize) is the warp size, 32, wherever a constant may stand; the
 * other predefined identifiers are special registers, among them the
 * indexed %reserved_smem_offset_<2> of nvcc 13's cooperative groups. */
START_TEST(test_predefined_identifiers)
{
    IrModule *m = parse_ok(PTX_HDR
        ".global .u32 g[WARP_SZ / 8] = { WARP_SZ, 1, 2, 3 };\n"
        ".entry k() {\n"
        " .reg .b32 %r<4>;\n"
        " mov.u32 %r1, WARP_SZ;\n"
        " add.u32 %r2, %r1, WARP_SZ - 1;\n"
        " mov.u32 %r3, %reserved_smem_offset_1;\n"
        " mov.u32 %r3, %reserved_smem_offset_0;\n"
        " mov.u32 %r3, %reserved_smem_offset_end;\n"
        " ret;\n}\n");
    const IrInsn *in = func(m, "k")->insns;
    ck_assert_int_eq(in[0].opnds[1].kind, IR_O_IMM);
    ck_assert_int_eq(in[0].opnds[1].imm, 32);
    ck_assert_int_eq(in[1].opnds[2].kind, IR_O_IMM);
    ck_assert_int_eq(in[1].opnds[2].imm, 31);
    ck_assert_int_eq(in[2].opnds[1].kind, IR_O_SREG);
    ck_assert_int_eq(in[2].opnds[1].id, PTX_SREG_RESERVED_SMEM_OFFSET);
    ck_assert_int_eq(in[2].opnds[1].imm, 1);
    ck_assert_int_eq(in[3].opnds[1].id, PTX_SREG_RESERVED_SMEM_OFFSET);
    ck_assert_int_eq(in[3].opnds[1].imm, 0);
    ck_assert_int_eq(in[4].opnds[1].id, PTX_SREG_RESERVED_SMEM_OFFSET_END);
    ck_assert_uint_eq(m->nglobals, 1);
    ck_assert_uint_eq(m->globals[0]->ndims, 1);
    ck_assert_uint_eq(m->globals[0]->dims[0], 4);
    ptx_module_free(m);
    /* only two offsets; WARP_SZ is a constant, not a register */
    parse_err(PTX_HDR ".entry k() {\n .reg .b32 %r1;\n"
              " mov.u32 %r1, %reserved_smem_offset_2;\n ret;\n}\n",
              "'%reserved_smem_offset_2' is not declared");
    parse_err(PTX_HDR ".entry k() {\n .reg .b32 %r1;\n"
              " mov.u32 WARP_SZ, %r1;\n ret;\n}\n", "error");
}
END_TEST

/* ptxas accepts ".sync" after other suffixes (CUB's inline assembly
 * writes vote.ballot.sync.b32): the instruction is still OP.sync, with
 * the same modifiers as in the canonical order. */
START_TEST(test_sync_anywhere)
{
    IrModule *m = parse_ok(PTX_HDR
        ".entry k() {\n"
        " .reg .b32 %r<4>;\n .reg .pred %p<3>;\n"
        " vote.ballot.sync.b32 %r1, %p1, -1;\n"
        " vote.sync.ballot.b32 %r1, %p1, -1;\n"
        " vote.any.sync.pred %p2, %p1, -1;\n"
        " shfl.down.sync.b32 %r2, %r1, 1, 31, -1;\n"
        " shfl.sync.down.b32 %r2, %r1, 1, 31, -1;\n"
        " ret;\n}\n");
    const IrInsn *in = func(m, "k")->insns;
    ck_assert_int_eq(in[0].op, PTX_OP_VOTE_SYNC);
    ck_assert_int_eq(in[2].op, PTX_OP_VOTE_SYNC);
    ck_assert_int_eq(in[3].op, PTX_OP_SHFL_SYNC);
    ck_assert_int_eq(in[4].op, PTX_OP_SHFL_SYNC);
    ck_assert_int_eq(ir_insn_mod(&in[0], ptx_mod_group(PTX_M_BALLOT)),
                     PTX_M_BALLOT);
    ck_assert_int_eq(ir_insn_mod(&in[1], ptx_mod_group(PTX_M_BALLOT)),
                     PTX_M_BALLOT);
    ck_assert_int_eq(in[0].ntypes, 1);
    ck_assert_int_eq(in[0].types[0], PTX_T_B32);
    ptx_module_free(m);
    /* Twice is still an error, and plain vote has no .sync group. */
    parse_err(PTX_HDR ".entry k() {\n .reg .b32 %r;\n .reg .pred %p;\n"
              " vote.sync.ballot.sync.b32 %r, %p, -1;\n ret;\n}\n",
              "t.ptx:7:");
}
END_TEST

START_TEST(test_modifier_errors)
{
    parse_err(PTX_HDR ".entry k() {\n .reg .b32 %r;\n frob.s32 %r, %r;\n}\n",
              "t.ptx:6:2: error: unknown instruction 'frob'");
    parse_err(PTX_HDR ".entry k() {\n .reg .b32 %r;\n"
              " add.bogus.s32 %r, %r, %r;\n ret;\n}\n",
              "t.ptx:6:5: error: unknown modifier '.bogus' on 'add'");
    parse_err(PTX_HDR ".entry k() {\n .reg .b32 %r;\n"
              " add.s32.rn.s32 %r, %r, %r;\n ret;\n}\n",
              "t.ptx:6:2: error: 'add.s32.rn.s32'");
}
END_TEST

/* Several errors in one run; recovery at ';' and '}'. */
START_TEST(test_recovery)
{
    unsigned n = parse_err(PTX_HDR
        ".entry k() {\n"
        " .reg .b32 %r;\n"
        " add.s32 %r, %r, ;\n"
        " mov.b32 %r, %nosuch;\n"
        " bogus %r;\n"
        " ret;\n}\n"
        ".global .u32 x = (;\n"
        ".entry k2() {\n ret;\n}\n",
        "t.ptx:6:18: error: syntax error");
    ck_assert_uint_ge(n, 4);
}
END_TEST

START_TEST(test_caret_line)
{
    PtxDiag d;
    const char *src = PTX_HDR ".entry k() {\n\tfrob;\n}\n";
    IrModule *m = ptx_parse_string("t.ptx", src, strlen(src), &d, NULL);
    ck_assert(m == NULL);
    ck_assert_str_eq(d.buf, "t.ptx:5:2: error: unknown instruction 'frob'\n"
                            " \tfrob;\n \t^\n");
    ptx_diag_fini(&d);
}
END_TEST

START_TEST(test_missing_version)
{
    parse_err(".target sm_80\n.entry k() { ret; }\n",
              "missing .version directive");
    parse_err(".version 9.9\n.target sm_80\n", "unsupported PTX version 9.9");
    parse_err(".version 9.0\n.target sm_80\n.entry k() {\n ret;\n",
              "unexpected end of file");
}
END_TEST

START_TEST(test_loc_and_callseq)
{
    IrModule *m = parse_ok(PTX_HDR
        ".file 1 \"k.cu\"\n"
        ".file 2 \"h.hpp\"\n"
        ".extern .func (.param .b32 func_retval0) vprintf\n"
        "(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);\n"
        ".entry k() {\n .reg .b64 %rd<2>;\n .reg .b32 %r;\n"
        " .loc 1 10 3\n"
        " { // callseq 0, 0\n"
        " .param .b64 param0;\n st.param.b64 [param0], %rd0;\n"
        " .param .b64 param1;\n st.param.b64 [param1], %rd1;\n"
        " .param .b32 retval0;\n"
        " .loc 2 11 5, function_name $L__info, inlined_at 1 10 3\n"
        " call.uni (retval0), vprintf, (param0, param1);\n"
        " .loc 1 12 1\n"
        " ld.param.b32 %r, [retval0];\n"
        " }\n ret;\n}\n");
    const IrFunc *f = func(m, "k");
    ck_assert_uint_eq(f->nvars, 3);
    ck_assert_uint_eq(f->vars[0]->scope, 1);
    const IrInsn *call = &f->insns[2];
    ck_assert_uint_eq(call->src.file, 2);
    ck_assert_uint_eq(call->src.line, 11);
    ck_assert_uint_eq(call->src.col, 5);
    /* inlined_at: the call site (PTX ISA, ".loc") */
    ck_assert_uint_eq(call->src.inl_file, 1);
    ck_assert_uint_eq(call->src.inl_line, 10);
    ck_assert_uint_eq(f->insns[0].src.line, 10);
    ck_assert_uint_eq(f->insns[0].src.inl_file, 0);
    /* the .loc after the call's is not inlined */
    ck_assert_uint_eq(f->insns[3].src.line, 12);
    ck_assert_uint_eq(f->insns[3].src.inl_file, 0);
    ck_assert_int_eq(call->opnds[0].kind, IR_O_LIST);
    ck_assert_uint_eq(call->opnds[0].n, 1);
    ck_assert_int_eq(call->opnds[1].kind, IR_O_FUNC);
    ck_assert_str_eq(call->opnds[1].u.func->name, "vprintf");
    ck_assert_int_eq(call->opnds[2].kind, IR_O_LIST);
    ck_assert_uint_eq(call->opnds[2].n, 2);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_branchtargets)
{
    IrModule *m = parse_ok(PTX_HDR
        ".entry k() {\n .reg .b32 %r;\n"
        " ts: .branchtargets A, B, A;\n"
        " brx.idx %r, ts;\n"
        "A: ret;\n"
        "B: ret;\n}\n");
    const IrFunc *f = func(m, "k");
    ck_assert_uint_eq(f->nlabels, 3);
    ck_assert_int_eq(f->labels[0].kind, IR_LABEL_BRANCHTARGETS);
    ck_assert_uint_eq(f->labels[0].ntargets, 3);
    ck_assert_int_eq(f->labels[0].targets[0], 1);
    ck_assert_int_eq(f->labels[0].targets[1], 2);
    ck_assert_int_eq(f->labels[0].targets[2], 1);
    ck_assert_int_eq(f->insns[0].opnds[1].kind, IR_O_LABEL);
    ck_assert_int_eq(f->insns[0].opnds[1].id, 0);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_callprototype)
{
    IrModule *m = parse_ok(PTX_HDR
        ".func (.param .b32 r) f(.param .b32 a) { ret; }\n"
        ".entry k() {\n .reg .b64 %fp;\n"
        " mov.u64 %fp, f;\n"
        " { .param .b32 p; .param .b32 q;\n"
        " proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
        " call (q), %fp, (p), proto;\n }\n"
        " ret;\n}\n");
    const IrFunc *k = func(m, "k");
    ck_assert_int_eq(k->insns[0].opnds[1].kind, IR_O_FUNC);
    const IrLabel *l = &k->labels[0];
    ck_assert_int_eq(l->kind, IR_LABEL_CALLPROTO);
    ck_assert_uint_eq(l->proto->nparams, 1);
    ck_assert_uint_eq(l->proto->nrets, 1);
    ck_assert_int_eq(k->insns[1].opnds[3].kind, IR_O_LABEL);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_redeclaration)
{
    parse_err(PTX_HDR ".global .u32 x;\n.global .u32 x;\n",
              "t.ptx:5:14: error: redeclaration of 'x'");
    parse_err(PTX_HDR ".entry k() { ret; }\n.entry k() { ret; }\n",
              "redefinition of function 'k'");
    /* .extern then a definition is one symbol */
    IrModule *m = parse_ok(PTX_HDR ".extern .global .u32 x;\n"
                           ".global .u32 x = 5;\n.entry k() { ret; }\n");
    ck_assert_uint_eq(m->nglobals, 1);
    ck_assert_uint_eq(m->globals[0]->init[0], 5);
    ptx_module_free(m);
}
END_TEST

static Suite *parser_suite(void)
{
    Suite *s = suite_create("parser");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, test_module_directives);
    tcase_add_test(tc, test_registers_and_ranges);
    tcase_add_test(tc, test_register_out_of_range);
    tcase_add_test(tc, test_scopes_shadow);
    tcase_add_test(tc, test_label_errors);
    tcase_add_test(tc, test_params_and_directives_decls);
    tcase_add_test(tc, test_initializers);
    tcase_add_test(tc, test_initializer_errors);
    tcase_add_test(tc, test_operands);
    tcase_add_test(tc, test_predefined_identifiers);
    tcase_add_test(tc, test_sync_anywhere);
    tcase_add_test(tc, test_modifier_errors);
    tcase_add_test(tc, test_recovery);
    tcase_add_test(tc, test_caret_line);
    tcase_add_test(tc, test_missing_version);
    tcase_add_test(tc, test_loc_and_callseq);
    tcase_add_test(tc, test_branchtargets);
    tcase_add_test(tc, test_callprototype);
    tcase_add_test(tc, test_redeclaration);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(parser_suite());
}
