/*
 * tests/check_opcode.c: the opcode, modifier, type and special-register
 * tables (ptx/opcode.c) and the instruction validator (ptx/validate.c).
 *
 * The table self-checks walk every row, so a malformed or inconsistent
 * .def row fails here.  The validation tests build IrInsn/IrFunc objects
 * directly from a small operand notation (see build_opnd) and run them
 * through ptx_validate_insn, one loop iteration per table row.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/diag.h"
#include "ptx/opcode.h"
#include "ptx/validate.h"

Suite *opcode_suite(void);

/* ---- table self-checks ---- */

START_TEST(test_opcode_names)
{
    for (unsigned op = 1; op < PTX_OP_COUNT; op++) {
        const PtxOpInfo *oi = ptx_opinfo((PtxOpcode)op);
        size_t len = strlen(oi->name);
        ck_assert_msg(len > 0, "opcode %u has no name", op);
        size_t used = 0;
        PtxOpcode got = ptx_opcode_lookup(oi->name, len, &used);
        ck_assert_msg(got == (PtxOpcode)op && used == len,
                      "lookup of '%s' gives '%s' (%zu chars)", oi->name,
                      ptx_opinfo(got)->name, used);
        for (unsigned o2 = op + 1; o2 < PTX_OP_COUNT; o2++) {
            ck_assert_msg(strcmp(oi->name, ptx_opinfo((PtxOpcode)o2)->name),
                          "duplicate opcode name '%s'", oi->name);
        }
        unsigned dots = 1;
        for (const char *p = oi->name; *p; p++) {
            dots += *p == '.';
        }
        ck_assert_uint_eq(oi->ncomp, dots);
    }
}
END_TEST

START_TEST(test_opcode_rows)
{
    for (unsigned op = 1; op < PTX_OP_COUNT; op++) {
        const PtxOpInfo *oi = ptx_opinfo((PtxOpcode)op);
        ck_assert_msg(oi->synopsis && oi->synopsis[0], "'%s': no synopsis",
                      oi->name);
        ck_assert_msg(oi->nopnd_min <= oi->nopnd_max &&
                      oi->nopnd_max <= PTX_MAX_OPNDS, "'%s': operand counts",
                      oi->name);
        ck_assert_msg(oi->ntmin <= oi->ntmax, "'%s': type counts",
                      oi->name);
        ck_assert_msg((oi->ntmax > 0) == (oi->types != 0),
                      "'%s': types listed iff types taken", oi->name);
        ck_assert_msg((oi->required & ~oi->groups) == 0,
                      "'%s': required group not allowed", oi->name);
        ck_assert_msg(!(oi->types & 1), "'%s': PTX_T_NONE in types",
                      oi->name);
        for (unsigned i = 0; i < oi->nopnd_max; i++) {
            const PtxOpndSpec *s = &oi->opnd[i];
            ck_assert_msg(strchr("dsriqpmltfavyx", s->kind) != NULL,
                          "'%s': operand %u kind", oi->name, i);
            ck_assert_msg(s->optional == (i >= oi->nopnd_min),
                          "'%s': optional operands must trail", oi->name);
            /* A type slot an operand names must exist. */
            if (s->tclass >= '0' && s->tclass <= '3') {
                ck_assert_msg(oi->ntmax > 0, "'%s': slot without types",
                              oi->name);
            }
            if (s->vec) {
                ck_assert_msg(oi->groups & ((uint64_t)1 << PTX_MG_VEC),
                              "'%s': V operand without .vec", oi->name);
            }
        }
    }
}
END_TEST

START_TEST(test_types)
{
    for (unsigned t = 1; t < PTX_T_COUNT; t++) {
        const char *name = ptx_type_name((PtxType)t);
        ck_assert_msg(ptx_type_lookup(name, strlen(name)) == (PtxType)t,
                      "type '%s' does not round-trip", name);
        ck_assert_uint_gt(ptx_type_bits((PtxType)t), 0);
        ck_assert_int_ne(ptx_type_kind((PtxType)t), PTX_TK_NONE);
    }
    ck_assert_int_eq(ptx_type_lookup("f33", 3), PTX_T_NONE);
    ck_assert_int_eq(ptx_type_lookup("f32x", 3), PTX_T_F32);
}
END_TEST

START_TEST(test_modifiers)
{
    unsigned per_group[PTX_MG_COUNT] = { 0 };
    for (unsigned m = 1; m < PTX_M_COUNT; m++) {
        const char *s = ptx_mod_name((PtxMod)m);
        size_t len = strlen(s);
        PtxModGroup g = ptx_mod_group((PtxMod)m);
        ck_assert_msg(len > 0 && s[0] != '.', "modifier %u: bad string", m);
        ck_assert_msg(g < PTX_MG_COUNT, "modifier '%s': bad group", s);
        per_group[g]++;
        /* Round trip among its own group, and some row of the string
         * among all groups. */
        ck_assert_msg(ptx_mod_lookup(s, len, (uint64_t)1 << g) == (PtxMod)m,
                      "modifier '%s' (%s) does not round-trip", s,
                      ptx_modgroup_name(g));
        PtxMod any = ptx_mod_lookup(s, len, ~(uint64_t)0);
        ck_assert_str_eq(ptx_mod_name(any), s);
        /* The parser tries types first: a modifier named like a type
         * could never be written. */
        ck_assert_msg(ptx_type_lookup(s, len) == PTX_T_NONE,
                      "modifier '%s' is also a type name", s);
    }
    for (unsigned g = 0; g < PTX_MG_COUNT; g++) {
        const char *gname = ptx_modgroup_name((PtxModGroup)g);
        ck_assert_msg(per_group[g] > 0, "group '%s' is empty", gname);
        /* An overflow group repeats the strings of its base group. */
        PtxModGroup ov = ptx_modgroup_overflow((PtxModGroup)g);
        if (ov == PTX_MG_COUNT) {
            continue;
        }
        for (unsigned m = 1; m < PTX_M_COUNT; m++) {
            if (ptx_mod_group((PtxMod)m) != (PtxModGroup)g) {
                continue;
            }
            const char *s = ptx_mod_name((PtxMod)m);
            PtxMod m2 = ptx_mod_lookup(s, strlen(s), (uint64_t)1 << ov);
            ck_assert_msg(ptx_mod_group(m2) == ov, "overflow group '%s' "
                          "lacks '%s'", ptx_modgroup_name(ov), s);
        }
    }
    ck_assert_int_eq(ptx_mod_lookup("bogus", 5, ~(uint64_t)0), PTX_M_NONE);
}
END_TEST

START_TEST(test_sregs)
{
    int idx = -1;
    for (unsigned s = 1; s < PTX_SREG_COUNT; s++) {
        const char *name = ptx_sreg_name((PtxSreg)s);
        PtxSreg got = ptx_sreg_lookup(name, strlen(name), &idx);
        if (ptx_sreg_nidx((PtxSreg)s)) {
            /* An indexed family needs its index. */
            ck_assert_int_eq(got, PTX_SREG_NONE);
        } else {
            ck_assert_msg(got == (PtxSreg)s, "sreg '%s'", name);
            ck_assert_int_eq(idx, 0);
        }
    }
    ck_assert_int_eq(ptx_sreg_lookup("%envreg31", 9, &idx), PTX_SREG_ENVREG);
    ck_assert_int_eq(idx, 31);
    ck_assert_int_eq(ptx_sreg_lookup("%pm3", 4, &idx), PTX_SREG_PM);
    ck_assert_int_eq(idx, 3);
    ck_assert_int_eq(ptx_sreg_lookup("%pm7_64", 7, &idx), PTX_SREG_PM64);
    ck_assert_int_eq(idx, 7);
    ck_assert_int_eq(ptx_sreg_lookup("%envreg32", 9, &idx), PTX_SREG_NONE);
    ck_assert_int_eq(ptx_sreg_lookup("%pm8", 4, &idx), PTX_SREG_NONE);
    ck_assert_int_eq(ptx_sreg_lookup("%pm01", 5, &idx), PTX_SREG_NONE);
    /* %reserved_smem_offset_<2> (PTX ISA 7.6) beside _begin/_end/_cap */
    ck_assert_int_eq(ptx_sreg_lookup("%reserved_smem_offset_1", 23, &idx),
                     PTX_SREG_RESERVED_SMEM_OFFSET);
    ck_assert_int_eq(idx, 1);
    ck_assert_int_eq(ptx_sreg_lookup("%reserved_smem_offset_0", 23, &idx),
                     PTX_SREG_RESERVED_SMEM_OFFSET);
    ck_assert_int_eq(idx, 0);
    ck_assert_int_eq(ptx_sreg_lookup("%reserved_smem_offset_2", 23, &idx),
                     PTX_SREG_NONE);
    ck_assert_int_eq(ptx_sreg_lookup("%reserved_smem_offset_", 22, &idx),
                     PTX_SREG_NONE);
    ck_assert_int_eq(ptx_sreg_lookup("%reserved_smem_offset_cap", 25, &idx),
                     PTX_SREG_RESERVED_SMEM_OFFSET_CAP);
    ck_assert_int_eq(ptx_sreg_lookup("%tidx", 5, &idx), PTX_SREG_NONE);
    ck_assert_int_eq(ptx_sreg_type(PTX_SREG_CLOCK64), PTX_T_U64);
    ck_assert_str_eq(ptx_space_name(PTX_SPACE_SHARED_CLUSTER),
                     "shared::cluster");
}
END_TEST

/* Longest-prefix opcode matching. */
static const struct {
    const char *text;
    const char *op;         /* NULL: no opcode */
    size_t consumed;
} prefix_rows[] = {
    { "cp.async.ca.shared.global", "cp.async", 8 },
    { "cp.async.wait_group", "cp.async.wait_group", 19 },
    { "cp.async.bulk.tensor.2d.shared::cluster.global.tile",
      "cp.async.bulk.tensor", 20 },
    { "cp.async.bulk.prefetch.tensor.1d.L2.global",
      "cp.async.bulk.prefetch.tensor", 29 },
    { "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32",
      "cp.reduce.async.bulk", 20 },
    { "bar.sync", "bar.sync", 8 },
    { "bar.cta.sync", "bar.cta.sync", 12 },
    { "barrier.sync.aligned", "barrier.sync", 12 },
    { "bar.warp.sync", "bar.warp.sync", 13 },
    { "barrier.cluster.arrive.release.aligned", "barrier.cluster.arrive",
      22 },
    { "ld.global.nc.v4.f32", "ld", 2 },
    { "ldu.global.f32", "ldu", 3 },
    { "st.async.shared::cluster.b32", "st.async", 8 },
    { "mbarrier.arrive.expect_tx.shared.b64", "mbarrier.arrive", 15 },
    { "mbarrier.try_wait.parity.b64", "mbarrier.try_wait", 17 },
    { "mma.sp::ordered_metadata.sync.aligned", "mma.sp::ordered_metadata",
      24 },
    { "mma.sync.aligned.m16n8k16", "mma", 3 },
    { "wgmma.mma_async.sp.sync", "wgmma.mma_async.sp", 18 },
    { "tcgen05.wait::ld.sync.aligned", "tcgen05.wait::ld", 16 },
    { "addc.cc.u32", "addc", 4 },
    { "add", "add", 3 },
    { "shfl.sync.idx.b32", "shfl.sync", 9 },
    { "match.any.sync.b32", "match.any.sync", 14 },
    { "multimem.cp.async.bulk.global", "multimem.cp.async.bulk", 22 },
    { "addx.s32", NULL, 0 },
    { "cp", NULL, 0 },
    { "", NULL, 0 },
};

START_TEST(test_prefix)
{
    size_t used = 99;
    PtxOpcode op = ptx_opcode_lookup(prefix_rows[_i].text,
                                     strlen(prefix_rows[_i].text), &used);
    if (!prefix_rows[_i].op) {
        ck_assert_int_eq(op, PTX_OP_INVALID);
        ck_assert_uint_eq(used, 0);
        return;
    }
    ck_assert_str_eq(ptx_opinfo(op)->name, prefix_rows[_i].op);
    ck_assert_uint_eq(used, prefix_rows[_i].consumed);
}
END_TEST

static PtxMod mod_for(const char *op, const char *s, uint64_t taken)
{
    PtxOpcode o = ptx_opcode_lookup(op, strlen(op), NULL);
    ck_assert_int_ne(o, PTX_OP_INVALID);
    return ptx_mod_lookup(s, strlen(s), ptx_opinfo(o)->groups & ~taken);
}

START_TEST(test_ambiguous_mods)
{
    ck_assert_int_eq(mod_for("mul", "lo", 0), PTX_M_LO);
    ck_assert_int_eq(mod_for("setp", "lo", 0), PTX_M_CMP_LO);
    ck_assert_int_eq(ptx_mod_group(mod_for("mul", "lo", 0)),
                     PTX_MG_MULMODE);
    ck_assert_int_eq(ptx_mod_group(mod_for("setp", "lo", 0)), PTX_MG_CMP);
    ck_assert_int_eq(mod_for("setp", "and", 0), PTX_M_BOOL_AND);
    ck_assert_int_eq(mod_for("atom", "and", 0), PTX_M_RED_AND);
    ck_assert_int_eq(mod_for("bar.red", "or", 0), PTX_M_RED_OR);
    ck_assert_int_eq(mod_for("mma", "xor", 0), PTX_M_BOOL_XOR);
    ck_assert_int_eq(mod_for("mma", "popc", 0), PTX_M_POPC);
    ck_assert_int_eq(mod_for("bra", "uni", 0), PTX_M_UNI);
    ck_assert_int_eq(mod_for("vote", "uni", 0), PTX_M_VOTE_UNI);
    ck_assert_int_eq(mod_for("shf", "r", 0), PTX_M_SHF_R);
    ck_assert_int_eq(mod_for("tld4", "r", 0), PTX_M_FRAG_R);
    ck_assert_int_eq(mod_for("suld", "b", 0), PTX_M_SURF_B);
    ck_assert_int_eq(mod_for("wmma.load", "b", 0), PTX_M_FRAG_B);
    ck_assert_int_eq(mod_for("shfl.sync", "down", 0), PTX_M_DOWN);
    ck_assert_int_eq(mod_for("tcgen05.shift", "down", 0), PTX_M_MISC_DOWN);
    /* A repeated group goes to its overflow group. */
    ck_assert_int_eq(mod_for("cp.async", "shared", 0), PTX_M_SHARED);
    ck_assert_int_eq(mod_for("cp.async", "global",
                             (uint64_t)1 << PTX_MG_SPACE), PTX_M_GLOBAL2);
    ck_assert_int_eq(mod_for("mma", "col", (uint64_t)1 << PTX_MG_LAYOUT),
                     PTX_M_COL2);
    ck_assert_int_eq(mod_for("createpolicy.fractional", "L2::evict_first",
                             (uint64_t)1 << PTX_MG_L2EVICT),
                     PTX_M_L2_EVICT_FIRST2);
    /* Not allowed anywhere on the opcode: the first row comes back. */
    ck_assert_int_eq(mod_for("add", "lo", 0), PTX_M_LO);
    ck_assert_int_eq(ptx_modgroup_overflow(PTX_MG_LAYOUT), PTX_MG_LAYOUT2);
    ck_assert_int_eq(ptx_modgroup_overflow(PTX_MG_ROUND), PTX_MG_COUNT);
}
END_TEST

/* ---- validation ---- */

/* Registers of the test function, one per type. */
enum {
    R_B32, R_U32, R_S32, R_F32, R_B64, R_U64, R_S64, R_F64, R_B16, R_U16,
    R_F16, R_PRED, R_B128, R_COUNT
};

static IrReg test_regs[R_COUNT] = {
    [R_B32] = { .name = "%r", .type = PTX_T_B32, .vec = 1 },
    [R_U32] = { .name = "%u", .type = PTX_T_U32, .vec = 1 },
    [R_S32] = { .name = "%s", .type = PTX_T_S32, .vec = 1 },
    [R_F32] = { .name = "%f", .type = PTX_T_F32, .vec = 1 },
    [R_B64] = { .name = "%rd", .type = PTX_T_B64, .vec = 1 },
    [R_U64] = { .name = "%ud", .type = PTX_T_U64, .vec = 1 },
    [R_S64] = { .name = "%sd", .type = PTX_T_S64, .vec = 1 },
    [R_F64] = { .name = "%fd", .type = PTX_T_F64, .vec = 1 },
    [R_B16] = { .name = "%h", .type = PTX_T_B16, .vec = 1 },
    [R_U16] = { .name = "%uh", .type = PTX_T_U16, .vec = 1 },
    [R_F16] = { .name = "%fh", .type = PTX_T_F16, .vec = 1 },
    [R_PRED] = { .name = "%p", .type = PTX_T_PRED, .vec = 1 },
    [R_B128] = { .name = "%q", .type = PTX_T_B128, .vec = 1 },
};

static IrLabel test_labels[2] = {
    { .name = "L0", .kind = IR_LABEL_CODE },
    { .name = "T0", .kind = IR_LABEL_BRANCHTARGETS },
};

static IrSymbol test_sym = { .name = "gvar", .space = PTX_SPACE_GLOBAL,
                             .type = PTX_T_U32 };

static IrFunc test_func = {
    .name = "k",
    .regs = test_regs,
    .nregs = R_COUNT,
    .labels = test_labels,
    .nlabels = 2,
};

/* callee: two parameters and one return value, so that the call rows
 * below can check the argument and return counts. */
static IrSymbol callee_p0 = { .name = "p0", .space = PTX_SPACE_PARAM,
                              .type = PTX_T_B32 };
static IrSymbol callee_p1 = { .name = "p1", .space = PTX_SPACE_PARAM,
                              .type = PTX_T_F32 };
static IrSymbol callee_r0 = { .name = "r0", .space = PTX_SPACE_PARAM,
                              .type = PTX_T_B32 };
static IrSymbol *callee_params[] = { &callee_p0, &callee_p1 };
static IrSymbol *callee_rets[] = { &callee_r0 };
static IrFunc callee = { .name = "callee", .params = callee_params,
                         .nparams = 2, .rets = callee_rets, .nrets = 1 };

static IrModule test_mod = { .filename = "t.ptx", .address_size = 64 };

static int reg_by_name(const char *s, size_t n)
{
    for (int i = 0; i < R_COUNT; i++) {
        if (strlen(test_regs[i].name) == n &&
            memcmp(test_regs[i].name, s, n) == 0) {
            return i;
        }
    }
    ck_abort_msg("unknown test register '%.*s'", (int)n, s);
    return -1;
}

static IrOperand opnd_pool[256];
static unsigned pool_used;

static IrOperand *pool_get(unsigned n)
{
    ck_assert_uint_le(pool_used + n, 256);
    IrOperand *o = &opnd_pool[pool_used];
    memset(o, 0, n * sizeof(*o));
    pool_used += n;
    return o;
}

/* One operand in the test notation:
 *   %r %u %f %rd ...  a register (see test_regs); "!%p" negated
 *   5 -1 0x10         integer constant
 *   0f3f800000        32-bit float constant; 0d... 64-bit
 *   [%rd] [gvar]      address
 *   {%r,%r,_}         vector ("_" is the sink)
 *   %r|%p             pair
 *   _                 sink
 *   %tid %clock64     special register
 *   gvar              variable address; callee: function; L0/T0 labels
 *   ()  (%r,%r)       parameter list */
static void build_opnd(const char *s, size_t n, IrOperand *o);

static unsigned split(const char *s, size_t n, const char **parts,
                      size_t *lens, unsigned max)
{
    unsigned k = 0;
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i <= n; i++) {
        char ch = i < n ? s[i] : ',';
        if (ch == '{' || ch == '(' || ch == '[') {
            depth++;
        } else if (ch == '}' || ch == ')' || ch == ']') {
            depth--;
        } else if (ch == ',' && depth == 0) {
            size_t a = start, b = i;
            while (a < b && s[a] == ' ') {
                a++;
            }
            while (b > a && s[b - 1] == ' ') {
                b--;
            }
            if (b > a) {
                ck_assert_uint_lt(k, max);
                parts[k] = s + a;
                lens[k] = b - a;
                k++;
            }
            start = i + 1;
        }
    }
    return k;
}

static void build_list(const char *s, size_t n, IrOperand *o,
                       IrOpndKind kind)
{
    const char *parts[16];
    size_t lens[16];
    unsigned k = split(s, n, parts, lens, 16);
    o->kind = (uint8_t)kind;
    o->n = k;
    o->u.elems = pool_get(k ? k : 1);
    for (unsigned i = 0; i < k; i++) {
        build_opnd(parts[i], lens[i], &o->u.elems[i]);
    }
}

static void build_opnd(const char *s, size_t n, IrOperand *o)
{
    memset(o, 0, sizeof(*o));
    o->loc.line = 1;
    o->loc.col = 1;
    o->id = -1;
    if (n == 1 && s[0] == '_') {
        o->kind = IR_O_SINK;
    } else if (s[0] == '[') {
        o->kind = IR_O_ADDR;
        if (s[1] == '%') {
            o->id = reg_by_name(s + 1, n - 2);
        } else {
            o->u.sym = &test_sym;
        }
    } else if (s[0] == '{') {
        build_list(s + 1, n - 2, o, IR_O_VEC);
    } else if (s[0] == '(') {
        build_list(s + 1, n - 2, o, IR_O_LIST);
    } else if (memchr(s, '|', n)) {
        const char *bar = memchr(s, '|', n);
        o->kind = IR_O_PAIR;
        o->n = 2;
        o->u.elems = pool_get(2);
        build_opnd(s, (size_t)(bar - s), &o->u.elems[0]);
        build_opnd(bar + 1, n - (size_t)(bar - s) - 1, &o->u.elems[1]);
    } else if (s[0] == '!') {
        build_opnd(s + 1, n - 1, o);
        o->neg = 1;
    } else if (n > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'd')) {
        o->kind = IR_O_FIMM;
        o->fsize = s[1] == 'f' ? 32 : 64;
        o->imm = (int64_t)strtoull(s + 2, NULL, 16);
    } else if ((s[0] >= '0' && s[0] <= '9') || s[0] == '-') {
        o->kind = IR_O_IMM;
        o->imm = strtoll(s, NULL, 0);
    } else if (s[0] == '%') {
        int idx;
        PtxSreg sr = ptx_sreg_lookup(s, n, &idx);
        if (sr != PTX_SREG_NONE) {
            o->kind = IR_O_SREG;
            o->id = (int32_t)sr;
            o->imm = idx;
        } else {
            o->kind = IR_O_REG;
            o->id = reg_by_name(s, n);
        }
    } else if (n == 4 && memcmp(s, "gvar", 4) == 0) {
        o->kind = IR_O_SYM;
        o->u.sym = &test_sym;
    } else if (n == 6 && memcmp(s, "callee", 6) == 0) {
        o->kind = IR_O_FUNC;
        o->u.func = &callee;
    } else if (n == 2 && (s[0] == 'L' || s[0] == 'T')) {
        o->kind = IR_O_LABEL;
        o->id = s[0] == 'L' ? 0 : 1;
    } else {
        ck_abort_msg("bad test operand '%.*s'", (int)n, s);
    }
}

/* Builds an instruction from its mnemonic the way the parser does:
 * longest opcode prefix, then each suffix a type or a modifier. */
static void build_insn(const char *mn, const char *opnds, IrInsn *in)
{
    memset(in, 0, sizeof(*in));
    in->guard = -1;
    in->loc.line = 1;
    in->loc.col = 1;
    size_t len = strlen(mn), used = 0;
    in->op = (uint16_t)ptx_opcode_lookup(mn, len, &used);
    ck_assert_msg(in->op != PTX_OP_INVALID, "no opcode in '%s'", mn);
    const PtxOpInfo *oi = ptx_opinfo((PtxOpcode)in->op);
    uint64_t taken = 0;
    const char *p = mn + used, *end = mn + len;
    while (p < end) {
        const char *s = ++p;
        while (p < end && *p != '.') {
            p++;
        }
        size_t n = (size_t)(p - s);
        ck_assert_uint_lt(in->nsfx, IR_MAX_SFX);
        PtxType t = ptx_type_lookup(s, n);
        if (t != PTX_T_NONE) {
            ck_assert_uint_lt(in->ntypes, IR_MAX_TYPES);
            in->types[in->ntypes++] = (uint8_t)t;
            in->sfx[in->nsfx++] = (uint16_t)(IR_SFX_TYPE | t);
            continue;
        }
        PtxMod m = ptx_mod_lookup(s, n, oi->groups & ~taken);
        ck_assert_msg(m != PTX_M_NONE, "bad suffix in '%s'", mn);
        taken |= (uint64_t)1 << ptx_mod_group(m);
        in->sfx[in->nsfx++] = (uint16_t)m;
    }
    const char *parts[PTX_MAX_OPNDS];
    size_t lens[PTX_MAX_OPNDS];
    unsigned k = split(opnds, strlen(opnds), parts, lens, PTX_MAX_OPNDS);
    in->nopnds = (uint8_t)k;
    in->opnds = pool_get(k ? k : 1);
    for (unsigned i = 0; i < k; i++) {
        build_opnd(parts[i], lens[i], &in->opnds[i]);
    }
}

typedef struct VRow {
    const char *id;
    const char *mnemonic;
    const char *opnds;
    const char *err;        /* NULL: valid; else a substring of the error */
} VRow;

static const VRow vrows[] = {
    /* arithmetic and integer/bit-size compatibility (PTX ISA 9.4) */
    { "add.s32-01", "add.s32", "%r, %u, %s", NULL },
    { "add.s32-02", "add.s32", "%r, %f, %r",
      "'add.s32': operand 2 is a .f32 register, expected a 32-bit integer" },
    { "add.s32-03", "add.s32", "5, %r, %r",
      "operand 1 must be a register, got a constant" },
    { "add.s32-04", "add.s32", "%r, %r, 0f3f800000",
      "operand 3 is a floating-point constant" },
    { "add.s32-05", "add.s32", "%r, !%r, %r", "cannot be negated" },
    { "add.s32-06", "add.s32", "%r, _, %r",
      "'_' is only allowed as a destination" },
    { "add.u32-01", "add.u32", "%r, %r, -1", NULL },
    { "add.u16-01", "add.u16", "%h, %uh, 65535", NULL },
    { "add.u16-02", "add.u16", "%h, %uh, 70000",
      "constant 70000 in operand 3 does not fit in 16 bits" },
    { "add.u16-03", "add.u16", "%r, %h, %h",
      "operand 1 is a .b32 register, expected a 16-bit integer" },
    { "add.f32-01", "add.rn.ftz.f32", "%f, %f, %r", NULL },
    { "add.f32-02", "add.f32", "%f, %u, %f",
      "operand 2 is a .u32 register, expected a .f32 or .b32 value" },
    { "add.f32-03", "add.f32", "%f, %f, 1", NULL },
    { "add.f32-04", "add.f32.f16", "%f, %fh, %f", NULL },
    { "add.f32-05", "add.f16.f32", "%f, %fh, %f", ".f32.f16 or .f32.bf16" },
    { "add.cc-01", "add.cc.u32", "%r, %r, %r", NULL },
    { "add.cc-02", "add.cc.f32", "%f, %f, %f", "needs an integer type" },
    { "add.sat-01", "add.sat.u32", "%r, %r, %r", "integer .sat needs .s32" },
    { "add.type-01", "add", "%r, %r, %r", "'add' needs a type suffix" },
    { "add.type-02", "add.b128", "%q, %q, %q", "type .b128 is not allowed" },
    { "add.mod-01", "add.lo.s32", "%r, %r, %r", "modifier .lo is not allowed" },
    { "mul.lo-01", "mul.lo.s32", "%r, %r",
      "'mul.lo.s32' takes 3 operands, got 2" },
    { "mul.lo-02", "mul.s32", "%r, %r, %r", "integer multiply needs" },
    { "mul.wide-01", "mul.wide.s32", "%sd, %r, %r", NULL },
    { "mul.wide-02", "mul.wide.s32", "%r, %r, %r",
      "operand 1 is a .b32 register, expected a 64-bit integer" },
    { "mul.wide-03", "mul.wide.u64", "%rd, %rd, %rd",
      ".wide needs a 16- or 32-bit integer type" },
    { "mad.wide-01", "mad.wide.u16", "%r, %h, %h, %u", NULL },
    { "mul24-01", "mul24.hi.u32", "%r, %r, %r", NULL },
    { "fma-01", "fma.rn.f32", "%f, %f, %f, %f", NULL },
    { "fma-02", "fma.f32", "%f, %f, %f, %f",
      "missing round modifier (e.g. .rn)" },
    { "div-01", "div.f32", "%f, %f, %f", "needs .approx, .full or" },
    { "div-02", "div.full.f32", "%f, %f, %f", NULL },
    { "min-01", "min.NaN.xorsign.abs.f16", "%h, %h, %h", NULL },
    { "min-02", "min.xorsign.f32", "%f, %f, %f", ".xorsign needs .abs" },
    { "min-03", "min.f32", "%f, %f, %f, %f", NULL },
    /* ld/st/cvt relaxed sizes (PTX ISA 9.4.1) */
    { "ld-01", "ld.global.v4.f32", "%f, [%rd]",
      "'ld.global.v4.f32': expected a vector of 4 registers" },
    { "ld-02", "ld.global.v4.f32", "{%f, %f, %f, %r}, [%rd]", NULL },
    { "ld-03", "ld.global.v2.f32", "{%f, %f, %f, %f}, [%rd]",
      "expected a vector of 2 registers" },
    { "ld-04", "ld.global.f32", "{%f, %f}, [%rd]",
      "no .v2/.v4/.v8 is given" },
    { "ld-05", "ld.global.u8", "%r, [%rd]", NULL },
    { "ld-06", "ld.global.b16", "%f, [gvar]", NULL },
    { "ld-07", "ld.global.f32", "%u, [%rd]",
      "operand 1 is a .u32 register, expected a .f32 or a bit-size" },
    { "ld-08", "ld.global.f32", "%rd, [%rd]", NULL },
    { "ld-09", "ld.global.u32", "%h, [%rd]",
      "expected an integer of at least 32 bits" },
    { "ld-10", "ld.global.s32", "%fd, [%rd]", "is a .f64 register" },
    { "ld-11", "ld.global.u32", "%r, %rd", "must be an address [...]" },
    { "ld-12", "ld.global.L2::cache_hint.u32", "%r, [%rd], %rd", NULL },
    { "ld-13", "ld.global.u32", "%r, [%rd], %rd", "needs .L2::cache_hint" },
    { "ld-14", "ld.global.nc.v4.u32", "{%r, _, %r, %r}, [%rd]", NULL },
    { "st-01", "st.global.u16", "[%rd], %r", NULL },
    { "st-02", "st.global.v2.u32", "[%rd], {%r, 0}", NULL },
    { "st-03", "st.global.u32", "[%rd], _",
      "'_' is only allowed as a destination" },
    { "cvt-01", "cvt.u64.u32", "%rd, %u", NULL },
    { "cvt-02", "cvt.u16.u32", "%r, %r", NULL },
    { "cvt-03", "cvt.rn.bf16.f32", "%r, %f",
      "operand 1 is a .b32 register, expected a .bf16 or .b16 value" },
    { "cvt-04", "cvt.rn.bf16.f32", "%h, %f", NULL },
    { "cvt-05", "cvt.s32.f32", "%r, %f",
      "float-to-integer conversion needs .rni" },
    { "cvt-06", "cvt.rzi.s32.f32", "%r, %f", NULL },
    { "cvt-07", "cvt.rn.f32.f16", "%f, %h", "widening float conversion" },
    { "cvt-08", "cvt.rn.f16x2.f32", "%r, %f, %f", NULL },
    { "cvt-09", "cvt.f32", "%f, %f", "needs 2 type suffixes, got 1" },
    { "cvt-10", "cvt.rn.f32.s32", "%f, %r", NULL },
    { "cvt-11", "cvt.f32.s32", "%f, %r", "integer-to-float conversion" },
    { "cvt-12", "cvt.rni.f32.f32", "%f, %f", NULL },
    { "cvt-13", "cvt.f32.f64", "%f, %fd", "narrowing float conversion" },
    /* mov: constants, addresses, packing */
    { "mov-01", "mov.b32", "%r, 0f3f800000", NULL },
    { "mov-02", "mov.f32", "%f, 0", NULL },
    { "mov-03", "mov.b64", "%rd, 0f3f800000",
      "floating-point constant, expected a 64-bit value" },
    { "mov-04", "mov.b64", "{%r, %f}, %rd", NULL },
    { "mov-05", "mov.b64", "%rd, {%r, %r, %r}",
      "a vector of 3 elements does not fit .b64" },
    { "mov-06", "mov.b32", "%r, {%h, _}", "vector elements must be" },
    { "mov-07", "mov.u32", "%r, %tid", NULL },
    { "mov-07b", "mov.u16", "%h, %tid", NULL },
    { "mov-08", "mov.u64", "%rd, %tid",
      "operand 2 is the .u32 special register %tid, expected a 64-bit "
      "integer" },
    { "mov-09", "mov.u64", "%rd, gvar", NULL },
    { "mov-10", "mov.f32", "%f, gvar", "operand 2 is an address" },
    { "mov-11", "mov.u32", "%tid, %r", "is read-only" },
    { "mov-12", "mov.u64", "%rd, callee", NULL },
    { "mov-13", "mov.pred", "%p, 1", NULL },
    /* comparisons and predicates */
    { "setp-01", "setp.eq.s32", "%p, %r, %r", NULL },
    { "setp-02", "setp.eq.and.s32", "%p, %r, %r, !%p", NULL },
    { "setp-03", "setp.eq.and.s32", "%p, %r, %r",
      ".and needs a fourth operand" },
    { "setp-04", "setp.eq.s32", "%p, %r, %r, %p",
      "a fourth operand needs .and, .or or .xor" },
    { "setp-05", "setp.lt.f16x2", "%p|%p, %r, %r", NULL },
    { "setp-06", "setp.eq.s32", "%r, %r, %r",
      "operand 1 is a .b32 register, expected a predicate" },
    { "setp-07", "setp.s32", "%p, %r, %r", "missing cmp modifier" },
    { "selp-01", "selp.b32", "%r, %r, 7, %p", NULL },
    { "selp-02", "selp.b32", "%r, %r, %r, %r",
      "operand 4 is a .b32 register, expected a predicate" },
    { "set-01", "set.lt.u32.f32", "%r, %f, %f", NULL },
    /* control flow */
    { "bra-01", "bra.uni", "L0", NULL },
    { "bra-02", "bra", "%r", "operand 1 must be a label" },
    { "bra-03", "bra.f32", "L0", "'bra.f32' takes no type suffix" },
    { "brx-01", "brx.idx", "%r, T0", NULL },
    { "brx-02", "brx.idx", "%r, L0", "must be a .branchtargets label" },
    { "call-01", "call.uni", "(%r), callee, (%r, %f)", NULL },
    { "call-02", "call", "callee", "'callee' takes 2 arguments, got 0" },
    { "call-06", "call", "callee, (%r, %f)",
      "'callee' returns 1 value, got 0" },
    { "call-07", "call", "(%r, %r), callee, (%r, %f)",
      "'callee' returns 1 value, got 2" },
    { "call-08", "call", "(%r), callee, (%r)",
      "'callee' takes 2 arguments, got 1" },
    { "call-03", "call", "(%r), %rd, (%r), L0", NULL },
    { "call-04", "call", "5", "expected a function" },
    { "call-05", "call", "callee, (%r), L0", "unexpected operand 3" },
    /* memory and synchronization */
    { "atom-01", "atom.global.cas.b32", "%r, [%rd], %r, %r", NULL },
    { "atom-02", "atom.global.cas.b32", "%r, [%rd], %r",
      ".cas takes operands d, [a], b, c" },
    { "atom-03", "atom.global.add.u32", "%r, [%rd], %r, %rd",
      "needs .L2::cache_hint" },
    { "atom-04", "atom.global.add.L2::cache_hint.u32", "%r, [%rd], %r, %rd",
      NULL },
    { "atom-05", "atom.global.add.f32", "%f, [%rd], %f", NULL },
    { "atom-06", "atom.global", "%r, [%rd], %r", "needs a type suffix" },
    { "red-01", "red.global.add.u64", "[%rd], %rd", NULL },
    { "bar-01", "bar.sync", "0", NULL },
    { "bar-02", "bar.sync", "%r, 128", NULL },
    { "bar-03", "bar.red.popc.u32", "%r, 0, !%p", NULL },
    { "bar-04", "bar.red.and.u32", "%r, 0, %p", "takes .popc.u32" },
    { "bar-05", "barrier.red.or.pred", "%p, 1, 64, %p", NULL },
    { "shfl-01", "shfl.sync.idx.b32", "%r|%p, %r, %r, 31, -1", NULL },
    { "shfl-02", "shfl.sync.b32", "%r, %r, %r, 31, -1",
      "missing shfl modifier" },
    { "vote-01", "vote.sync.ballot.b32", "%r, %p, -1", NULL },
    { "vote-02", "vote.sync.any.pred", "%p, !%p, %r", NULL },
    { "mbar-01", "mbarrier.try_wait.parity.shared::cta.b64",
      "%p, [%rd], %r", NULL },
    { "mbar-02", "mbarrier.try_wait.shared::cta.b64", "%p, [%rd], %r",
      "operand 3 is a .b32 register, expected a 64-bit value" },
    { "mbar-03", "mbarrier.arrive.shared.b64", "_, [%rd]", NULL },
    { "cpasync-01", "cp.async.ca.shared.global", "[%rd], [%rd], 16", NULL },
    { "cpasync-02", "cp.async.ca.shared", "[%rd], [%rd], 16",
      "missing space2 modifier" },
    { "isspacep-01", "isspacep.global", "%p, %rd", NULL },
    { "cvta-01", "cvta.to.global.u64", "%rd, %rd", NULL },
    { "lop3-01", "lop3.b32", "%r, %r, %r, %r, 0xe8", NULL },
    { "lop3-02", "lop3.or.b32", "%r|%p, %r, %r, %r, 0xe8, %p", NULL },
    { "lop3-03", "lop3.b32", "%r, %r, %r, %r, %r",
      "operand 5 must be a constant" },
    { "txq-01", "txq.level.width.b32", "%r, [gvar], %r", NULL },
    { "txq-02", "txq.width.b32", "%r, [gvar], %r",
      "a lod operand needs .level" },
};

START_TEST(test_validate)
{
    const VRow *r = &vrows[_i];
    PtxDiag d;
    IrInsn in;
    pool_used = 0;
    ptx_diag_init(&d, "t.ptx", NULL, 0, NULL);
    build_insn(r->mnemonic, r->opnds, &in);
    bool ok = ptx_validate_insn(&test_mod, &test_func, &in, &d);
    const char *buf = d.buf ? d.buf : "";
    char copy[1024];
    snprintf(copy, sizeof(copy), "%s", buf);
    unsigned nerr = d.nerrors;
    ptx_diag_fini(&d);
    if (!r->err) {
        ck_assert_msg(ok && nerr == 0, "%s: expected valid, got:\n%s",
                      r->id, copy);
    } else {
        ck_assert_msg(!ok && nerr > 0, "%s: expected an error with '%s'",
                      r->id, r->err);
        ck_assert_msg(strstr(copy, r->err) != NULL,
                      "%s: expected '%s' in:\n%s", r->id, r->err, copy);
    }
}
END_TEST

START_TEST(test_mnemonic)
{
    IrInsn in;
    char buf[64];
    pool_used = 0;
    build_insn("ld.global.nc.v4.f32", "", &in);
    ck_assert_uint_eq(ptx_insn_mnemonic(&in, buf, sizeof(buf)), 19);
    ck_assert_str_eq(buf, "ld.global.nc.v4.f32");
    /* Truncation still terminates the string. */
    ck_assert_uint_eq(ptx_insn_mnemonic(&in, buf, 6), 19);
    ck_assert_str_eq(buf, "ld.gl");
}
END_TEST

Suite *opcode_suite(void)
{
    Suite *s = suite_create("opcode");
    TCase *tc = tcase_create("tables");
    tcase_add_test(tc, test_opcode_names);
    tcase_add_test(tc, test_opcode_rows);
    tcase_add_test(tc, test_types);
    tcase_add_test(tc, test_modifiers);
    tcase_add_test(tc, test_sregs);
    tcase_add_loop_test(tc, test_prefix, 0,
                        (int)(sizeof(prefix_rows) / sizeof(prefix_rows[0])));
    tcase_add_test(tc, test_ambiguous_mods);
    suite_add_tcase(s, tc);
    tc = tcase_create("validate");
    tcase_add_loop_test(tc, test_validate, 0,
                        (int)(sizeof(vrows) / sizeof(vrows[0])));
    tcase_add_test(tc, test_mnemonic);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(opcode_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed != 0;
}
