/*
 * tests/check_funnel_rows.c: every memory row of the opcode table
 * through the access funnel (emu/access.h), and the asynchronous
 * completion tokens of the Hopper families (emu/async.h).
 *
 *  - rows: every ptx/opcodes.def row flagged OPF_LOAD, OPF_STORE or
 *    OPF_ATOMIC has at least one case below (a test fails when a row is
 *    added without one): a small kernel whose instruction of that
 *    opcode must note exactly the listed accesses (resolved state space,
 *    kind, size, how many), or the message the load refuses it with.
 *    Each case runs twice: with a client that wants steps (the step
 *    record's list) and with one that watches every space but not steps
 *    (the fast loop's per-instruction list); both must see the same.
 *    The expectations are written from the PTX ISA 9.0 operand
 *    definitions: one access per executing lane for ld/st/atom/red and
 *    their async forms, an mbarrier word is 8 bytes (9.7.13.15), a
 *    bulk copy moves its size at once, a tensor copy one element per box
 *    position plus its 128-byte tensor map, wmma m16n16k16 .f16 A holds
 *    each element in two lanes, ldmatrix/stmatrix .x4 a 16-byte row per
 *    lane, tld4 the 2x2 texel footprint.
 *  - tokens (emu/async.h): a bulk copy and a tensor copy completing on
 *    an mbarrier, explicit expect_tx/complete_tx (the mbarrier's
 *    transactions), and a bulk async-group each carry a token that the
 *    matching wait (mbarrier try_wait/test_wait, bulk wait_group)
 *    lists, oldest first; wgmma.mma_async's token is listed by
 *    wgmma.wait_group after commit_group, wgmma.fence waits for nothing;
 *    a wait that cannot succeed yet (test_wait of an open phase) lists
 *    the phase's tokens.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/access.h"
#include "emu/client.h"
#include "emu/insninfo.h"
#include "emu/tensormap.h"
#include "emu/texfetch.h"
#include "ptx/opcode.h"
#include "tests/emutest.h"

#define HDR ".version 9.0\n.target sm_90a\n.address_size 64\n"
/* p0: a global buffer; p1: a texture/surface handle or a tensor map's
 * address.  Prelude registers: %rd31 global base, %rd33 global + 16 *
 * lane, %rd35 shared + 16 * lane (a .shared address), %r31 its 32-bit
 * form, %rd36 its generic address, %rd38 a generic local address, %rd39
 * p1, %r30 the lane, %p7 lane 0. */
#define PRELUDE                                                           \
    ".const .align 8 .b8 cbuf[256];\n"                                    \
    ".visible .entry k(.param .u64 p0, .param .u64 p1)\n{\n"              \
    ".reg .pred %p<8>;\n.reg .b16 %h<8>;\n.reg .b32 %r<40>;\n"            \
    ".reg .b64 %rd<40>;\n.reg .f32 %f<40>;\n.reg .b128 %q<4>;\n"          \
    ".shared .align 128 .b8 sm[4096];\n"                                  \
    ".shared .align 8 .b64 mb;\n"                                         \
    ".local .align 16 .b8 lo[64];\n"                                      \
    "ld.param.u64 %rd30, [p0];\n"                                         \
    "cvta.to.global.u64 %rd31, %rd30;\n"                                  \
    "ld.param.u64 %rd39, [p1];\n"                                         \
    "mov.u32 %r30, %tid.x;\n"                                             \
    "mul.wide.u32 %rd32, %r30, 16;\n"                                     \
    "add.s64 %rd33, %rd31, %rd32;\n"                                      \
    "mov.u64 %rd34, sm;\n"                                                \
    "add.s64 %rd35, %rd34, %rd32;\n"                                      \
    "cvt.u32.u64 %r31, %rd35;\n"                                          \
    "cvta.shared.u64 %rd36, %rd35;\n"                                     \
    "mov.u64 %rd37, lo;\n"                                                \
    "cvta.local.u64 %rd38, %rd37;\n"                                      \
    "setp.eq.u32 %p7, %r30, 0;\n"
#define TAIL "\nret;\n}\n"

#define GBUF 8192                 /* bytes of the global buffer */

static char *module_text(const char *body)
{
    size_t n = strlen(HDR PRELUDE TAIL) + strlen(body) + 1;
    char *s = malloc(n);
    ck_assert_ptr_nonnull(s);
    snprintf(s, n, "%s%s%s", HDR PRELUDE, body, TAIL);
    return s;
}

/* ------------------------------------------------------------ objects */

enum { OBJ_NONE = 0, OBJ_TEX, OBJ_SURF, OBJ_TMAP };

/* A texture (8 x 8 .f32, point filter, clamp) or surface (8 x 8 .u32)
 * object over a fresh allocation; returns its handle. */
static uint64_t make_texobj(EmuDevice *d, bool surf)
{
    if (!d->tex) {
        d->tex = calloc(1, sizeof(*d->tex));
        ck_assert_ptr_nonnull(d->tex);
    }
    EmuTexObj o;
    memset(&o, 0, sizeof(o));
    o.kind = surf ? EMU_OBJ_SURF : EMU_OBJ_TEX;
    o.data.addr = dev_alloc(d, 8 * 8 * 4);
    o.data.pitch = 8 * 4;
    o.data.width = o.data.height = 8;
    o.data.depth = o.data.layers = 1;
    o.data.nch = 1;
    o.data.bits = 32;
    o.data.kind = surf ? EMU_CH_UNSIGNED : EMU_CH_FLOAT;
    for (unsigned k = 0; k < 3; k++) {
        o.samp.addr_mode[k] = EMU_ADDR_CLAMP;
    }
    o.samp.filter = EMU_FILTER_POINT;
    o.samp.read_mode = EMU_READ_ELEMENT;
    uint64_t h = emu_tex_add(d->tex, &o);
    ck_assert_uint_ne(h, 0);
    return h;
}

/* A rank-1 tiled tensor map of 64 .u32 elements, box 8, in global
 * memory; returns the map's address. */
static uint64_t make_tmap(EmuDevice *d)
{
    EmuTmap t;
    memset(&t, 0, sizeof(t));
    t.dtype = EMU_TMAP_U32;
    t.rank = 1;
    t.addr = dev_alloc(d, 64 * 4);
    t.dim[0] = 64;
    t.box[0] = 8;
    t.estride[0] = 1;
    _Alignas(EMU_TMAP_ALIGN) uint8_t map[EMU_TMAP_BYTES];
    const char *why = NULL;
    ck_assert_msg(emu_tmap_encode_tiled(&t, map, &why) == EMU_OK, "%s",
                  why ? why : "");
    uint64_t a = dev_alloc(d, EMU_TMAP_BYTES);
    ck_assert_uint_eq(a % EMU_TMAP_ALIGN, 0);
    ck_assert_int_eq(emu_mem_write(d->mem, a, map, sizeof(map)), EMU_OK);
    return a;
}

/* ---------------------------------------------------- what is noted */

typedef struct Grp {
    uint8_t space, kind;
    uint32_t size, count;
} Grp;

#define MAXG 8

/* Accesses of one instruction (func, pc) tallied by (space, kind,
 * size); `over` counts groups beyond MAXG. */
typedef struct Tally {
    const EmuFunc *func;
    uint32_t pc;
    Grp g[MAXG];
    unsigned ng, over;
    uint32_t calls;               /* on_access calls for the insn */
} Tally;

static void tally_one(Tally *t, const EmuAccess *a)
{
    for (unsigned k = 0; k < t->ng; k++) {
        Grp *g = &t->g[k];
        if (g->space == a->space && g->kind == a->kind &&
            g->size == a->size) {
            g->count++;
            return;
        }
    }
    if (t->ng == MAXG) {
        t->over++;
        return;
    }
    t->g[t->ng++] = (Grp){ a->space, a->kind, a->size, 1 };
}

static void tally_step(void *ctx, const EmuCta *cta, const EmuWarp *w,
                       const EmuStepRecord *rec)
{
    (void)cta;
    (void)w;
    Tally *t = ctx;
    if (rec->func != t->func || rec->pc != t->pc) {
        return;
    }
    for (uint32_t k = 0; k < rec->nacc; k++) {
        tally_one(t, &rec->acc[k]);
    }
}

static void tally_access(void *ctx, const EmuCtx *x, const EmuAccess *a,
                         uint32_t n)
{
    Tally *t = ctx;
    if (x->func != t->func || x->pc != t->pc) {
        return;
    }
    t->calls++;
    for (uint32_t k = 0; k < n; k++) {
        tally_one(t, &a[k]);
    }
}

/* ------------------------------------------------------------- cases */

typedef struct AccCase {
    PtxOpcode op;
    const char *body;             /* the first instruction of opcode op
                                     is the one checked */
    uint32_t block;               /* threads of the one CTA */
    uint8_t obj;                  /* OBJ_*: what p1 is */
    Grp want[4];                  /* count 0 ends the list */
    const char *unsupported;      /* or: the load's message */
} AccCase;

#define G PTX_SPACE_GLOBAL
#define S PTX_SPACE_SHARED
#define L PTX_SPACE_LOCAL
#define C PTX_SPACE_CONST
#define P PTX_SPACE_PARAM
#define RD EMU_ACC_READ
#define WR EMU_ACC_WRITE
#define AT EMU_ACC_ATOMIC
#define ARD EMU_ACC_ASYNC_READ
#define AWR EMU_ACC_ASYNC_WRITE
#define AAT EMU_ACC_ASYNC_ATOMIC
#define TRD EMU_ACC_TEXEL_READ
#define TWR EMU_ACC_TEXEL_WRITE
#define NS "is not supported by the emulator yet"

/* an mbarrier for 32 arrivals, made by lane 0 before everyone uses it */
#define MB_INIT32 "@%p7 mbarrier.init.shared::cta.b64 [mb], 32;\n" \
                  "bar.sync 0;\n"
/* mb for one arrival, expecting `n` bytes; %r3: its shared::cluster
 * address and %r1 lane's shared::cluster address (own CTA, rank 0) */
#define MB_TX(n) "@%p7 mbarrier.init.shared::cta.b64 [mb], 1;\n"          \
                 "@%p7 mbarrier.expect_tx.relaxed.cta.shared::cta.b64 "   \
                 "[mb], " #n ";\n"                                       \
                 "bar.sync 0;\n"                                         \
                 "mapa.shared::cluster.u32 %r1, %r31, 0;\n"              \
                 "mov.u32 %r2, mb;\n"                                    \
                 "mapa.shared::cluster.u32 %r3, %r2, 0;\n"

static const AccCase cases[] = {
    /* ld: each space, scalar and vector, generic resolved */
    { PTX_OP_LD, "ld.global.u32 %r1, [%rd33];", 32, OBJ_NONE,
      { { G, RD, 4, 32 } }, NULL },
    { PTX_OP_LD, "ld.global.nc.u16 %h1, [%rd33];", 32, OBJ_NONE,
      { { G, RD, 2, 32 } }, NULL },
    { PTX_OP_LD, "ld.shared.v4.u32 {%r1, %r2, %r3, %r4}, [%rd35];", 32,
      OBJ_NONE, { { S, RD, 16, 32 } }, NULL },
    { PTX_OP_LD, "ld.u64 %rd1, [%rd36];", 32, OBJ_NONE,
      { { S, RD, 8, 32 } }, NULL },
    { PTX_OP_LD, "ld.local.u32 %r1, [lo+4];", 32, OBJ_NONE,
      { { L, RD, 4, 32 } }, NULL },
    { PTX_OP_LD, "ld.const.u32 %r1, [cbuf+8];", 32, OBJ_NONE,
      { { C, RD, 4, 32 } }, NULL },
    { PTX_OP_LD, "ld.param.u64 %rd1, [p1];", 7, OBJ_NONE,
      { { P, RD, 8, 7 } }, NULL },
    { PTX_OP_LD, "@%p7 ld.global.u32 %r1, [%rd33];", 32, OBJ_NONE,
      { { G, RD, 4, 1 } }, NULL },
    { PTX_OP_LDU, "ldu.global.u32 %r1, [%rd31];", 32, OBJ_NONE,
      { { G, RD, 4, 32 } }, NULL },
    /* st */
    { PTX_OP_ST, "st.global.u32 [%rd33], %r30;", 32, OBJ_NONE,
      { { G, WR, 4, 32 } }, NULL },
    { PTX_OP_ST, "st.shared.v2.u64 [%rd35], {%rd1, %rd2};", 32, OBJ_NONE,
      { { S, WR, 16, 32 } }, NULL },
    { PTX_OP_ST, "st.u32 [%rd38], %r30;", 32, OBJ_NONE,
      { { L, WR, 4, 32 } }, NULL },
    { PTX_OP_ST, "st.global.u8 [%rd33], %h1;", 16, OBJ_NONE,
      { { G, WR, 1, 16 } }, NULL },
    /* st.async / red.async: the value and the mbarrier's complete_tx,
     * both asynchronous, in the executing CTA's shared memory */
    { PTX_OP_ST_ASYNC, MB_TX(128)
      "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 "
      "[%r1], %r30, [%r3];", 32, OBJ_NONE,
      { { S, AWR, 4, 32 }, { S, AAT, 8, 32 } }, NULL },
    { PTX_OP_RED_ASYNC, MB_TX(128)
      "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::"
      "bytes.add.u32 [%r1], %r30, [%r3];", 32, OBJ_NONE,
      { { S, AAT, 4, 32 }, { S, AAT, 8, 32 } }, NULL },
    { PTX_OP_ST_BULK, "st.bulk.weak.shared::cta [%rd1], %rd2, 0;", 1,
      OBJ_NONE, { { 0 } }, "instruction 'st.bulk.weak.shared::cta' " NS },
    { PTX_OP_MULTIMEM_LD_REDUCE,
      "multimem.ld_reduce.global.add.u32 %r1, [%rd1];", 1, OBJ_NONE,
      { { 0 } }, "instruction 'multimem.ld_reduce.global.add.u32' " NS },
    { PTX_OP_MULTIMEM_ST, "multimem.st.global.u32 [%rd1], %r1;", 1,
      OBJ_NONE, { { 0 } }, "instruction 'multimem.st.global.u32' " NS },
    { PTX_OP_MULTIMEM_RED, "multimem.red.global.add.u32 [%rd1], %r1;", 1,
      OBJ_NONE, { { 0 } },
      "instruction 'multimem.red.global.add.u32' " NS },
    /* cp.async: a global read and a shared write per lane */
    { PTX_OP_CP_ASYNC, "cp.async.ca.shared.global [%rd35], [%rd33], 16;",
      32, OBJ_NONE, { { G, ARD, 16, 32 }, { S, AWR, 16, 32 } }, NULL },
    { PTX_OP_CP_ASYNC, "cp.async.ca.shared.global [%rd35], [%rd33], 8, 4;",
      32, OBJ_NONE, { { G, ARD, 4, 32 }, { S, AWR, 8, 32 } }, NULL },
    /* bulk copies: the whole size at once, and the mbarrier */
    { PTX_OP_CP_ASYNC_BULK, MB_TX(64)
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
      "[sm], [%rd31], 64, [mb];", 1, OBJ_NONE,
      { { G, ARD, 64, 1 }, { S, AWR, 64, 1 }, { S, AAT, 8, 1 } }, NULL },
    { PTX_OP_CP_ASYNC_BULK,
      "cp.async.bulk.global.shared::cta.bulk_group [%rd31], [sm], 96;", 1,
      OBJ_NONE, { { S, ARD, 96, 1 }, { G, AWR, 96, 1 } }, NULL },
    { PTX_OP_CP_REDUCE_ASYNC_BULK,
      "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 "
      "[%rd31], [sm], 64;", 1, OBJ_NONE,
      { { S, ARD, 64, 1 }, { G, AAT, 64, 1 } }, NULL },
    /* tensor copies: the map (two 64-byte reads), then an element of
     * each side per box position (8) */
    { PTX_OP_CP_ASYNC_BULK_TENSOR, MB_TX(32)
      "mov.u32 %r4, 16;\n"
      "cp.async.bulk.tensor.1d.shared::cluster.global.tile."
      "mbarrier::complete_tx::bytes [sm], [%rd39, {%r4}], [mb];", 1,
      OBJ_TMAP, { { G, ARD, 64, 2 }, { G, ARD, 4, 8 }, { S, AWR, 4, 8 },
                  { S, AAT, 8, 1 } }, NULL },
    { PTX_OP_CP_REDUCE_ASYNC_BULK_TENSOR, "mov.u32 %r4, 8;\n"
      "cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile."
      "bulk_group [%rd39, {%r4}], [sm];", 1, OBJ_TMAP,
      { { G, ARD, 64, 2 }, { S, ARD, 4, 8 }, { G, AAT, 4, 8 } }, NULL },
    { PTX_OP_TENSORMAP_REPLACE, "tensormap.replace.tile.global_address."
      "global.b1024.b64 [%rd1], %rd2;", 1, OBJ_NONE, { { 0 } },
      "instruction 'tensormap.replace.tile.global_address.global.b1024.b64' "
      NS },
    { PTX_OP_TENSORMAP_CP_FENCEPROXY, "tensormap.cp_fenceproxy.global."
      "shared::cta.tensormap::generic.release.gpu.sync.aligned "
      "[%rd1], [%rd2], 128;", 1, OBJ_NONE, { { 0 } },
      "instruction 'tensormap.cp_fenceproxy.global.shared::cta."
      "tensormap::generic.release.gpu.sync.aligned' " NS },
    /* textures and surfaces: texels of the object's global storage */
    { PTX_OP_TEX, "mov.f32 %f5, 0f40200000;\nmov.f32 %f6, 0f40200000;\n"
      "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd39, {%f5, %f6}];", 32,
      OBJ_TEX, { { G, TRD, 4, 32 } }, NULL },
    { PTX_OP_TLD4, "mov.f32 %f5, 0f40200000;\nmov.f32 %f6, 0f40200000;\n"
      "tld4.r.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd39, {%f5, %f6}];",
      32, OBJ_TEX, { { G, TRD, 4, 128 } }, NULL },
    { PTX_OP_SULD, "mov.u32 %r5, 4;\nmov.u32 %r6, 2;\n"
      "suld.b.2d.b32.trap {%r1}, [%rd39, {%r5, %r6}];", 32, OBJ_SURF,
      { { G, TRD, 4, 32 } }, NULL },
    { PTX_OP_SUST, "mov.u32 %r5, 4;\nmov.u32 %r6, 2;\n"
      "sust.b.2d.b32.trap [%rd39, {%r5, %r6}], {%r30};", 32, OBJ_SURF,
      { { G, TWR, 4, 32 } }, NULL },
    /* a surface reduction is a texel write (emu/access.h), through the
     * texture path as every surface access (timing ABI, SPACE_TEX) */
    { PTX_OP_SURED, "mov.u32 %r5, 4;\nmov.u32 %r6, 2;\n"
      "sured.b.add.2d.trap.u32 [%rd39, {%r5, %r6}], %r30;", 32, OBJ_SURF,
      { { G, TWR, 4, 32 } }, NULL },
    /* atom / red: every handler form */
    { PTX_OP_ATOM, "atom.global.add.u32 %r1, [%rd33], 1;", 32, OBJ_NONE,
      { { G, AT, 4, 32 } }, NULL },
    { PTX_OP_ATOM, "atom.shared.cas.b64 %rd1, [%rd35], %rd2, %rd3;", 32,
      OBJ_NONE, { { S, AT, 8, 32 } }, NULL },
    { PTX_OP_ATOM, "atom.add.u32 %r1, [%rd36], 1;", 32, OBJ_NONE,
      { { S, AT, 4, 32 } }, NULL },
    { PTX_OP_ATOM, "atom.global.exch.b128 %q1, [%rd33], %q2;", 32,
      OBJ_NONE, { { G, AT, 16, 32 } }, NULL },
    { PTX_OP_ATOM, "atom.global.add.v2.f32 {%f1, %f2}, [%rd33], "
      "{%f3, %f4};", 32, OBJ_NONE, { { G, AT, 8, 32 } }, NULL },
    { PTX_OP_RED, "red.global.add.u32 [%rd33], 1;", 32, OBJ_NONE,
      { { G, AT, 4, 32 } }, NULL },
    { PTX_OP_RED, "red.shared.add.u64 [%rd35], 1;", 32, OBJ_NONE,
      { { S, AT, 8, 32 } }, NULL },
    /* mbarrier: the 8-byte object in shared memory */
    { PTX_OP_MBARRIER_INIT, "@%p7 mbarrier.init.shared::cta.b64 [mb], 32;",
      32, OBJ_NONE, { { S, WR, 8, 1 } }, NULL },
    { PTX_OP_MBARRIER_INVAL, MB_INIT32
      "@%p7 mbarrier.inval.shared::cta.b64 [mb];", 32, OBJ_NONE,
      { { S, WR, 8, 1 } }, NULL },
    { PTX_OP_MBARRIER_ARRIVE, MB_INIT32
      "mbarrier.arrive.shared::cta.b64 %rd1, [mb];", 32, OBJ_NONE,
      { { S, AT, 8, 32 } }, NULL },
    { PTX_OP_MBARRIER_ARRIVE_DROP, MB_INIT32
      "mbarrier.arrive_drop.shared::cta.b64 %rd1, [mb];", 32, OBJ_NONE,
      { { S, AT, 8, 32 } }, NULL },
    { PTX_OP_MBARRIER_EXPECT_TX, MB_INIT32
      "@%p7 mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [mb], 64;", 32,
      OBJ_NONE, { { S, AT, 8, 1 } }, NULL },
    { PTX_OP_MBARRIER_COMPLETE_TX, MB_TX(64)
      "@%p7 mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [mb], 64;", 32,
      OBJ_NONE, { { S, AT, 8, 1 } }, NULL },
    { PTX_OP_MBARRIER_TEST_WAIT, MB_INIT32
      "mbarrier.arrive.shared::cta.b64 %rd1, [mb];\n"
      "mbarrier.test_wait.shared::cta.b64 %p1, [mb], %rd1;", 32, OBJ_NONE,
      { { S, RD, 8, 32 } }, NULL },
    { PTX_OP_MBARRIER_TRY_WAIT, MB_INIT32
      "mbarrier.arrive.shared::cta.b64 %rd1, [mb];\n"
      "mbarrier.try_wait.parity.shared::cta.b64 %p1, [mb], 0;", 32,
      OBJ_NONE, { { S, RD, 8, 32 } }, NULL },
    /* warp-wide matrix loads and stores */
    { PTX_OP_WMMA_LOAD, "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 "
      "{%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd31], 16;", 32,
      OBJ_NONE, { { G, RD, 2, 512 } }, NULL },
    { PTX_OP_WMMA_STORE, "wmma.store.d.sync.aligned.row.m16n16k16.global."
      "f32 [%rd31], {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, 16;", 32,
      OBJ_NONE, { { G, WR, 4, 256 } }, NULL },
    { PTX_OP_LDMATRIX, "ldmatrix.sync.aligned.m8n8.x4.shared.b16 "
      "{%r1, %r2, %r3, %r4}, [%rd35];", 32, OBJ_NONE,
      { { S, RD, 16, 32 } }, NULL },
    { PTX_OP_STMATRIX, "stmatrix.sync.aligned.m8n8.x4.shared.b16 "
      "[%rd35], {%r1, %r2, %r3, %r4};", 32, OBJ_NONE,
      { { S, WR, 16, 32 } }, NULL },
    /* tcgen05 (sm_100): refused at load */
    { PTX_OP_TCGEN05_ALLOC, "tcgen05.alloc.cta_group::1.sync.aligned."
      "shared::cta.b32 [%rd1], 32;", 32, OBJ_NONE, { { 0 } },
      "instruction 'tcgen05.alloc.cta_group::1.sync.aligned.shared::cta."
      "b32' " NS },
    { PTX_OP_TCGEN05_LD, "tcgen05.ld.sync.aligned.32x32b.x2.b32 "
      "{%r1, %r2}, [%r3];", 32, OBJ_NONE, { { 0 } },
      "instruction 'tcgen05.ld.sync.aligned.32x32b.x2.b32' " NS },
    { PTX_OP_TCGEN05_LD_RED, "tcgen05.ld.red.sync.aligned.32x32b.x2.min."
      "f32 {%f1, %f2}, %f3, [%r3];", 32, OBJ_NONE, { { 0 } },
      "instruction 'tcgen05.ld.red.sync.aligned.32x32b.x2.min.f32' " NS },
    { PTX_OP_TCGEN05_ST, "tcgen05.st.sync.aligned.32x32b.x2.b32 [%r3], "
      "{%r1, %r2};", 32, OBJ_NONE, { { 0 } },
      "instruction 'tcgen05.st.sync.aligned.32x32b.x2.b32' " NS },
};

#define NCASES (sizeof(cases) / sizeof(cases[0]))

static bool memory_row(PtxOpcode op)
{
    return (ptx_opinfo(op)->flags &
            (OPF_LOAD | OPF_STORE | OPF_ATOMIC)) != 0;
}

/* Every memory row has a case; every case is of a memory row. */
START_TEST(every_memory_row_has_a_case)
{
    unsigned seen[PTX_OP_COUNT] = { 0 };
    for (size_t c = 0; c < NCASES; c++) {
        ck_assert_msg(memory_row(cases[c].op), "case %zu: '%s' is no "
                      "load, store or atomic row", c,
                      ptx_opinfo(cases[c].op)->name);
        seen[cases[c].op]++;
    }
    unsigned rows = 0;
    for (unsigned op = 1; op < PTX_OP_COUNT; op++) {
        if (memory_row((PtxOpcode)op)) {
            rows++;
            ck_assert_msg(seen[op] > 0, "memory row '%s' has no case in "
                          "tests/check_funnel_rows.c",
                          ptx_opinfo((PtxOpcode)op)->name);
        }
    }
    ck_assert_uint_ge(rows, 39);      /* the table as this test was written */
}
END_TEST

/* The instructions of kernel k in ir. */
static const IrFunc *kernel_ir(const IrModule *ir)
{
    for (uint32_t f = 0; f < ir->nfuncs; f++) {
        if (strcmp(ir->funcs[f]->name, "k") == 0) {
            return ir->funcs[f];
        }
    }
    ck_abort_msg("no kernel k");
    return NULL;
}

/* Instructions of the prelude (which has loads of its own). */
static uint32_t prelude_insns(void)
{
    static uint32_t npre;
    if (!npre) {
        char *src = module_text("");
        IrModule *pre = parse_ok(src);
        npre = kernel_ir(pre)->ninsns - 1;          /* less the ret */
        ptx_module_free(pre);
        free(src);
    }
    return npre;
}

/* The pc of the case's first instruction of opcode op. */
static uint32_t find_pc(const IrModule *ir, PtxOpcode op)
{
    const IrFunc *fn = kernel_ir(ir);
    for (uint32_t i = prelude_insns(); i < fn->ninsns; i++) {
        if (fn->insns[i].op == op) {
            return i;
        }
    }
    ck_abort_msg("'%s': the case has no such instruction",
                 ptx_opinfo(op)->name);
    return 0;
}

static void expect(const AccCase *c, const Tally *t, const char *how)
{
    const char *name = ptx_opinfo(c->op)->name;
    uint32_t want_total = 0, got_total = 0;
    ck_assert_uint_eq(t->over, 0);
    for (unsigned k = 0; k < t->ng; k++) {
        got_total += t->g[k].count;
    }
    for (unsigned w = 0; w < 4 && c->want[w].count; w++) {
        const Grp *e = &c->want[w];
        want_total += e->count;
        uint32_t got = 0;
        for (unsigned k = 0; k < t->ng; k++) {
            if (t->g[k].space == e->space && t->g[k].kind == e->kind &&
                t->g[k].size == e->size) {
                got = t->g[k].count;
            }
        }
        ck_assert_msg(got == e->count, "'%s' (%s; %s): %u %s %s accesses "
                      "of %u bytes, want %u", name, c->body, how, got,
                      ptx_space_name((PtxSpace)e->space),
                      emu_acc_kind_name((EmuAccKind)e->kind), e->size,
                      e->count);
    }
    if (got_total != want_total) {
        char more[512] = "";
        for (unsigned k = 0; k < t->ng; k++) {
            snprintf(more + strlen(more), sizeof(more) - strlen(more),
                     " %ux%s/%s/%u", t->g[k].count,
                     ptx_space_name((PtxSpace)t->g[k].space),
                     emu_acc_kind_name((EmuAccKind)t->g[k].kind),
                     t->g[k].size);
        }
        ck_abort_msg("'%s' (%s; %s): %u accesses, want %u:%s", name,
                     c->body, how, got_total, want_total, more);
    }
}

START_TEST(row_accesses)
{
    const AccCase *c = &cases[_i];
    const char *name = ptx_opinfo(c->op)->name;
    char *src = module_text(c->body);
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    IrModule *ir = parse_ok(src);
    uint32_t pc = find_pc(ir, c->op);
    EmuStatus st;
    char *msg = NULL;
    EmuModule *m = emu_module_load(d, ir, &st, &msg);
    if (c->unsupported) {
        ck_assert_msg(m == NULL, "'%s' now loads: give it its accesses",
                      name);
        ck_assert_msg(msg && strstr(msg, c->unsupported),
                      "'%s': expected '%s' in '%s'", name, c->unsupported,
                      msg ? msg : "(none)");
        free(msg);
        emu_device_free(d);
        free(src);
        return;
    }
    ck_assert_msg(m != NULL, "'%s' does not load: %s", name,
                  msg ? msg : "(no message)");
    EmuFunc *k = emu_module_kernel(m, "k");
    ck_assert_ptr_nonnull(k);
    uint64_t buf = dev_alloc(d, GBUF);
    uint64_t p1 = c->obj == OBJ_TEX ? make_texobj(d, false)
                  : c->obj == OBJ_SURF ? make_texobj(d, true)
                  : c->obj == OBJ_TMAP ? make_tmap(d) : 0;
    void *args[] = { &buf, &p1 };
    for (int steps = 1; steps >= 0; steps--) {
        static Tally t;
        memset(&t, 0, sizeof(t));
        t.func = k;
        t.pc = pc;
        EmuClient cl = { EMU_CLIENT_ABI, sizeof(cl), "rows",
                         steps ? 0 : EMU_ACC_ALL_SPACES, 0, steps != 0, &t,
                         steps ? NULL : tally_access, NULL,
                         steps ? tally_step : NULL };
        char why[200];
        int h = emu_client_attach(d, &cl, why, sizeof(why));
        ck_assert_msg(h >= 0, "%s", why);
        EmuFault f;
        st = run_kernel(m, "k", 1, c->block, args, &f);
        ck_assert_msg(st == EMU_OK, "'%s' (%s): %s: %s", name, c->body,
                      emu_status_name(st), f.detail);
        emu_client_detach(d, h);
        expect(c, &t, steps ? "step record" : "on_access");
        if (!steps) {
            /* once per warp that executed it with accesses */
            ck_assert_uint_eq(t.calls, (c->block + 31) / 32);
        }
    }
    emu_module_free(m);
    emu_device_free(d);
    free(src);
}
END_TEST

/* ------------------------------------------------------------ tokens */

typedef struct TokStep {
    uint32_t pc, warp;
    uint64_t token;
    uint8_t wait;
    uint32_t nwait;
    uint64_t waits[4];
} TokStep;

typedef struct Toks {
    const EmuFunc *func;
    TokStep s[512];
    uint32_t n;
} Toks;

static void tok_step(void *ctx, const EmuCta *cta, const EmuWarp *w,
                     const EmuStepRecord *rec)
{
    (void)cta;
    Toks *t = ctx;
    if (rec->func != t->func || t->n == 512) {
        return;
    }
    TokStep *s = &t->s[t->n++];
    s->pc = rec->pc;
    s->warp = w->id;
    s->token = rec->async_token;
    s->wait = rec->wait;
    s->nwait = rec->nwait;
    for (uint32_t k = 0; k < rec->nwait && k < 4; k++) {
        s->waits[k] = rec->wait_tokens[k];
    }
}

/* The device, module and global buffer of a token test (freed by the
 * fixture's teardown) and the steps it recorded. */
static EmuDevice *tok_dev;
static EmuModule *tok_mod;
static uint64_t tok_buf;
static Toks toks;

static void tokens_teardown(void)
{
    if (tok_mod) {
        emu_module_free(tok_mod);
    }
    if (tok_dev) {
        emu_device_free(tok_dev);
    }
    tok_mod = NULL;
    tok_dev = NULL;
}

/* Run body on one CTA of `block` threads recording every step of k in
 * t; returns the kernel. */
static const EmuFunc *run_tokens(const char *body, uint32_t block,
                                 uint8_t obj)
{
    EmuDevice *d = tok_dev = dev_new(EMU_TAKEN_FIRST);
    char *src = module_text(body);
    EmuModule *m = tok_mod = mod_load(d, src);
    free(src);
    EmuFunc *k = emu_module_kernel(m, "k");
    ck_assert_ptr_nonnull(k);
    uint64_t buf = dev_alloc(d, GBUF);
    uint64_t p1 = obj == OBJ_TMAP ? make_tmap(d) : 0;
    void *args[] = { &buf, &p1 };
    tok_buf = buf;
    memset(&toks, 0, sizeof(toks));
    toks.func = k;
    EmuClient cl = { EMU_CLIENT_ABI, sizeof(cl), "tokens", 0, 0, true,
                     &toks, NULL, NULL, tok_step };
    char why[200];
    int h = emu_client_attach(d, &cl, why, sizeof(why));
    ck_assert_msg(h >= 0, "%s", why);
    EmuFault f;
    EmuStatus st = run_kernel(m, "k", 1, block, args, &f);
    ck_assert_msg(st == EMU_OK, "%s: %s\n%s", emu_status_name(st),
                  f.detail, body);
    emu_client_detach(d, h);
    return k;
}

/* The step of warp `warp` at the nth (from 0) instruction of opcode op
 * after the prelude. */
static const TokStep *step_of(const EmuFunc *k, PtxOpcode op, unsigned nth,
                              uint32_t warp)
{
    uint32_t pc = prelude_insns(), seen = 0;
    for (; pc < k->ir->ninsns; pc++) {
        if (k->ir->insns[pc].op == op && seen++ == nth) {
            break;
        }
    }
    ck_assert_msg(pc < k->ir->ninsns, "no instruction %u of '%s'", nth,
                  ptx_opinfo(op)->name);
    for (uint32_t j = 0; j < toks.n; j++) {
        if (toks.s[j].pc == pc && toks.s[j].warp == warp) {
            return &toks.s[j];
        }
    }
    ck_abort_msg("'%s' %u did not run in warp %u", ptx_opinfo(op)->name,
                 nth, warp);
    return NULL;
}

static void waits_for(const TokStep *s, EmuWait kind, uint32_t n,
                      uint64_t t0, uint64_t t1)
{
    ck_assert_uint_eq(s->wait, kind);
    ck_assert_uint_eq(s->nwait, n);
    if (n > 0) {
        ck_assert_uint_ne(t0, 0);
        ck_assert_uint_eq(s->waits[0], t0);
    }
    if (n > 1) {
        ck_assert_uint_ne(t1, 0);
        ck_assert_uint_eq(s->waits[1], t1);
    }
}

/* mb for one arrival expecting 64 bytes (one thread) */
#define MB1_64 "mbarrier.init.shared::cta.b64 [mb], 1;\n"                  \
               "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [mb], 64;\n"

/* A bulk copy completing on an mbarrier: its token is what the phase's
 * successful try_wait and test_wait wait for. */
START_TEST(tokens_bulk_mbarrier)
{
    const EmuFunc *k = run_tokens(MB1_64
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
        "[sm], [%rd31], 64, [mb];\n"
        "mbarrier.arrive.shared::cta.b64 %rd1, [mb];\n"
        "mbarrier.try_wait.parity.shared::cta.b64 %p1, [mb], 0;\n"
        "mbarrier.test_wait.shared::cta.b64 %p2, [mb], %rd1;", 1, OBJ_NONE);
    uint64_t ex = step_of(k, PTX_OP_MBARRIER_EXPECT_TX, 0, 0)->token;
    uint64_t tok = step_of(k, PTX_OP_CP_ASYNC_BULK, 0, 0)->token;
    ck_assert_uint_ne(tok, 0);
    ck_assert_uint_ne(tok, ex);
    /* an arrive is no transaction */
    ck_assert_uint_eq(step_of(k, PTX_OP_MBARRIER_ARRIVE, 0, 0)->token,
                      0);
    /* the phase's transactions, oldest first: expect_tx, the copy */
    waits_for(step_of(k, PTX_OP_MBARRIER_TRY_WAIT, 0, 0),
              EMU_WAIT_MBARRIER, 2, ex, tok);
    waits_for(step_of(k, PTX_OP_MBARRIER_TEST_WAIT, 0, 0),
              EMU_WAIT_MBARRIER, 2, ex, tok);
}
END_TEST

/* A TMA tile load completing on an mbarrier. */
START_TEST(tokens_tensor_mbarrier)
{
    const EmuFunc *k = run_tokens(
        "mbarrier.init.shared::cta.b64 [mb], 1;\n"
        "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [mb], 32;\n"
        "mov.u32 %r4, 0;\n"
        "cp.async.bulk.tensor.1d.shared::cluster.global.tile."
        "mbarrier::complete_tx::bytes [sm], [%rd39, {%r4}], [mb];\n"
        "mbarrier.arrive.shared::cta.b64 %rd1, [mb];\n"
        "mbarrier.try_wait.parity.shared::cta.b64 %p1, [mb], 0;", 1,
        OBJ_TMAP);
    uint64_t ex = step_of(k, PTX_OP_MBARRIER_EXPECT_TX, 0, 0)->token;
    uint64_t tok = step_of(k, PTX_OP_CP_ASYNC_BULK_TENSOR, 0, 0)->token;
    ck_assert_uint_ne(tok, 0);
    waits_for(step_of(k, PTX_OP_MBARRIER_TRY_WAIT, 0, 0),
              EMU_WAIT_MBARRIER, 2, ex, tok);
}
END_TEST

/* An explicit complete_tx joins the phase as a copy would; a wait on a
 * phase still open (two arrivals expected, one made) fails and depends
 * on that phase's tokens; a phase's tokens are not those of the next. */
START_TEST(tokens_complete_tx_and_open_phase)
{
    const EmuFunc *k = run_tokens(MB1_64
        "mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [mb], 64;\n"
        "mbarrier.arrive.shared::cta.b64 %rd1, [mb];\n"
        "mbarrier.try_wait.parity.shared::cta.b64 %p1, [mb], 0;\n"
        /* phase 1: two arrivals, a copy, one arrival */
        "mbarrier.init.shared::cta.b64 [mb], 2;\n"
        "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [mb], 64;\n"
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
        "[sm], [%rd31], 64, [mb];\n"
        "mbarrier.arrive.shared::cta.b64 %rd2, [mb];\n"
        "mbarrier.test_wait.shared::cta.b64 %p2, [mb], %rd2;\n"
        "selp.u32 %r1, 1, 0, %p2;\n"
        "st.global.u32 [%rd31], %r1;", 1, OBJ_NONE);
    uint64_t ex1 = step_of(k, PTX_OP_MBARRIER_EXPECT_TX, 0, 0)->token;
    uint64_t tx = step_of(k, PTX_OP_MBARRIER_COMPLETE_TX, 0, 0)->token;
    ck_assert_uint_ne(ex1, 0);
    ck_assert_uint_ne(tx, 0);
    ck_assert_uint_ne(tx, ex1);
    waits_for(step_of(k, PTX_OP_MBARRIER_TRY_WAIT, 0, 0),
              EMU_WAIT_MBARRIER, 2, ex1, tx);
    /* re-initialised: the earlier phase's transactions are gone */
    uint64_t ex2 = step_of(k, PTX_OP_MBARRIER_EXPECT_TX, 1, 0)->token;
    uint64_t cp = step_of(k, PTX_OP_CP_ASYNC_BULK, 0, 0)->token;
    ck_assert_uint_ne(cp, 0);
    ck_assert_uint_ne(cp, tx);
    waits_for(step_of(k, PTX_OP_MBARRIER_TEST_WAIT, 0, 0),
              EMU_WAIT_MBARRIER, 2, ex2, cp);
    /* and the test_wait did fail: the phase needs a second arrival */
    uint32_t ok = 1;
    ck_assert_int_eq(emu_mem_read(tok_dev->mem, tok_buf, &ok, 4), EMU_OK);
    ck_assert_uint_eq(ok, 0);
}
END_TEST

/* The bulk async-group: wait_group N waits for every committed group
 * but the newest N. */
START_TEST(tokens_bulk_group)
{
    const EmuFunc *k = run_tokens(
        "cp.async.bulk.global.shared::cta.bulk_group [%rd31], [sm], 64;\n"
        "cp.async.bulk.commit_group;\n"
        "add.s64 %rd1, %rd31, 64;\n"
        "cp.async.bulk.global.shared::cta.bulk_group [%rd1], [sm+64], 32;\n"
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 "
        "[%rd1], [sm], 16;\n"
        "cp.async.bulk.commit_group;\n"
        "cp.async.bulk.wait_group.read 1;\n"
        "cp.async.bulk.wait_group 0;", 1, OBJ_NONE);
    uint64_t a = step_of(k, PTX_OP_CP_ASYNC_BULK, 0, 0)->token;
    uint64_t b = step_of(k, PTX_OP_CP_ASYNC_BULK, 1, 0)->token;
    uint64_t c = step_of(k, PTX_OP_CP_REDUCE_ASYNC_BULK, 0, 0)->token;
    ck_assert_uint_ne(a, 0);
    ck_assert_uint_ne(a, b);
    ck_assert_uint_ne(b, c);
    ck_assert_uint_eq(step_of(k, PTX_OP_CP_ASYNC_BULK_COMMIT_GROUP, 0,
                              0)->nwait, 0);
    waits_for(step_of(k, PTX_OP_CP_ASYNC_BULK_WAIT_GROUP, 0, 0),
              EMU_WAIT_BULK_GROUP, 1, a, 0);
    waits_for(step_of(k, PTX_OP_CP_ASYNC_BULK_WAIT_GROUP, 1, 0),
              EMU_WAIT_BULK_GROUP, 2, b, c);
}
END_TEST

/* wgmma: each warp of the warpgroup gets a token for mma_async, and its
 * wait_group 0 after commit_group waits for it; the fence waits for no
 * asynchronous operation. */
START_TEST(tokens_wgmma)
{
    const EmuFunc *k = run_tokens(
        "mov.u64 %rd1, 0;\nmov.u64 %rd2, 0;\n"
        "setp.ne.u32 %p1, %r30, %r30;\n"
        "wgmma.fence.sync.aligned;\n"
        "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
        "{%f0, %f1, %f2, %f3}, %rd1, %rd2, %p1, 1, 1, 0, 0;\n"
        "wgmma.commit_group.sync.aligned;\n"
        "wgmma.wait_group.sync.aligned 0;", 128, OBJ_NONE);
    uint64_t seen[4];
    for (uint32_t w = 0; w < 4; w++) {
        ck_assert_uint_eq(step_of(k, PTX_OP_WGMMA_FENCE, 0, w)->nwait,
                          0);
        seen[w] = step_of(k, PTX_OP_WGMMA_MMA_ASYNC, 0, w)->token;
        ck_assert_uint_ne(seen[w], 0);
        for (uint32_t v = 0; v < w; v++) {
            ck_assert_uint_ne(seen[v], seen[w]);
        }
        waits_for(step_of(k, PTX_OP_WGMMA_WAIT_GROUP, 0, w),
                  EMU_WAIT_WGMMA, 1, seen[w], 0);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("funnel_rows");
    TCase *t = tcase_create("rows");
    tcase_add_test(t, every_memory_row_has_a_case);
    tcase_add_loop_test(t, row_accesses, 0, (int)NCASES);
    suite_add_tcase(s, t);
    t = tcase_create("tokens");
    tcase_add_checked_fixture(t, NULL, tokens_teardown);
    tcase_add_test(t, tokens_bulk_mbarrier);
    tcase_add_test(t, tokens_tensor_mbarrier);
    tcase_add_test(t, tokens_complete_tx_and_open_phase);
    tcase_add_test(t, tokens_bulk_group);
    tcase_add_test(t, tokens_wgmma);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(suite());
}
