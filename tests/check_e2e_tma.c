/*
 * tests/check_e2e_tma.c: end-to-end tests of the Hopper bulk copies and
 * the tensor memory accelerator: the five kernels of the corpus file
 * tests/corpus/cu/tma_bulk.cu (compute_90 PTX), and hand-written
 * kernels for what the corpus does not reach: tensor tiles hanging over
 * the tensor's edges (zero or NaN fill on load, clipped stores and
 * reductions), element strides, every swizzle mode, every reduction of
 * cp.reduce.async.bulk, shared-to-cluster copies and located faults.
 *
 * References are host code written from the PTX ISA and the CUDA
 * documentation: the box traversal of cuTensorMapEncodeTiled
 * (ceil(boxDim / elementStrides) elements per dimension, the stride of
 * dimension 0 ignored), and the TMA swizzle of the CUDA C++ Programming
 * Guide ("TMA Swizzle": the 16-byte chunks of each 128-byte shared
 * memory line are permuted by XOR with the line's index within the
 * swizzle's repeat of 2, 4 or 8 lines).
 */
#include <check.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/ptxemu.h"

#include "tests/e2e_util.h"

static void open_sm90(const char *base)
{
    const char *top = getenv("top_srcdir");
    char path[1024];
    snprintf(path, sizeof(path), "%s/tests/corpus/ptx/%s.sm90.ptx",
             top ? top : ".", base);
    e2e_device();
    ptxemu_status st = ptxemu_module_load_file(dev, path, &mod);
    ck_assert_msg(st == PTXEMU_SUCCESS, "loading %s: %s", path,
                  ptxemu_last_error_message(dev));
}

static void open_src(const char *src)
{
    e2e_device();
    ptxemu_status st = ptxemu_module_load_string(dev, "tma", src, 0, &mod);
    ck_assert_msg(st == PTXEMU_SUCCESS, "loading: %s\n%s",
                  ptxemu_last_error_message(dev), src);
}

/* Launch expecting failure with status `want`; the message must name
 * `what`. */
static void launch_fail(const char *name, unsigned gx, unsigned bx,
                        void **params, ptxemu_status want, const char *what)
{
    ptxemu_function *f = NULL;
    ck_assert_int_eq(ptxemu_module_get_function(mod, name, &f),
                     PTXEMU_SUCCESS);
    unsigned grid[3] = {gx, 1, 1}, block[3] = {bx, 1, 1};
    ptxemu_status st = ptxemu_launch(f, grid, block, 0, params);
    if (st == PTXEMU_SUCCESS)
        st = ptxemu_synchronize(dev);
    const char *msg = ptxemu_last_error_message(dev);
    ck_assert_msg(st == want, "%s: got %s (%s), expected %s", name,
                  ptxemu_status_name(st), msg, ptxemu_status_name(want));
    ck_assert_msg(strstr(msg, what) != NULL, "message '%s' lacks '%s'",
                  msg, what);
}

/* --------------------------------------------------- corpus kernels */

START_TEST(e2e_bulk_copy_roundtrip)
{
    enum { TILE = 1024, NBLK = 3 };
    open_sm90("tma_bulk");
    rng_seed(11);
    static int32_t in[NBLK * TILE], out[NBLK * TILE];
    for (int i = 0; i < NBLK * TILE; i++) {
        in[i] = (int32_t)rnd() >> 4;
        out[i] = (int32_t)rnd();
    }
    ptxemu_devptr din = dbuf(in, sizeof(in)), dout = dbuf(out, sizeof(out));
    void *params[] = {&din, &dout};
    launch("bulk_copy_roundtrip", NBLK, 128, 0, params);
    dget(out, dout, sizeof(out));
    for (int b = 0; b < NBLK; b++) {
        const int32_t *s = in + b * TILE;
        for (int k = 0; k < TILE; k++) {
            /* tile[k] = in[k] + k, bulk-stored whole; then the first
             * half of the tile is added to the second half of out */
            uint32_t exp = (uint32_t)s[k] + (uint32_t)k;
            if (k >= TILE / 2)
                exp += (uint32_t)s[k - TILE / 2] + (uint32_t)(k - TILE / 2);
            EQ_I("out", b * TILE + k, (uint32_t)out[b * TILE + k], exp);
        }
    }
}
END_TEST

/* A row-major W x H float tensor with a padded row pitch. */
static ptxemu_tensor_map_desc desc2d(ptxemu_tensor_dtype t,
                                     ptxemu_devptr a, uint64_t w,
                                     uint64_t h, uint64_t pitch,
                                     uint32_t bx, uint32_t by)
{
    ptxemu_tensor_map_desc d;
    memset(&d, 0, sizeof(d));
    d.dtype = t;
    d.rank = 2;
    d.addr = a;
    d.dims[0] = w;
    d.dims[1] = h;
    d.strides[0] = pitch;
    d.box[0] = bx;
    d.box[1] = by;
    d.elem_strides[0] = d.elem_strides[1] = 1;
    return d;
}

static void encode(const ptxemu_tensor_map_desc *d, ptxemu_tensor_map *m)
{
    const char *why = NULL;
    ptxemu_status st = ptxemu_tensor_map_encode_tiled(d, m, &why);
    ck_assert_msg(st == PTXEMU_SUCCESS, "encode: %s: %s",
                  ptxemu_status_name(st), why ? why : "");
}

START_TEST(e2e_tma_2d)
{
    /* 80 x 50 floats, pitch 96 floats; 3 x 2 tiles of 32 x 32 hang
     * over the right and bottom edges */
    enum { W = 80, H = 50, P = 96, ROWS = 64 };
    open_sm90("tma_bulk");
    rng_seed(12);
    static float in[ROWS * P], out[ROWS * P];
    for (int i = 0; i < ROWS * P; i++) {
        in[i] = rndf(-4, 4);
        out[i] = -1000.0f - (float)i;      /* sentinels */
    }
    ptxemu_devptr din = dbuf(in, sizeof(in)), dout = dbuf(out, sizeof(out));
    ptxemu_tensor_map mi, mo;
    ptxemu_tensor_map_desc d = desc2d(PTXEMU_TENSOR_F32, din, W, H,
                                      P * 4, 32, 32);
    encode(&d, &mi);
    d.addr = dout;
    encode(&d, &mo);
    float scale = 1.5f;
    void *params[] = {&mi, &mo, &scale};
    launch3("tma_2d", 3, 2, 128, 1, 0, params);
    dget(out, dout, sizeof(out));
    for (int y = 0; y < ROWS; y++) {
        for (int x = 0; x < P; x++) {
            float exp = (x < W && y < H) ? in[y * P + x] * scale
                                         : -1000.0f - (float)(y * P + x);
            EQ_F("out", y * P + x, out[y * P + x], exp);
        }
    }
}
END_TEST

START_TEST(e2e_dependent_launch)
{
    open_sm90("tma_bulk");
    rng_seed(13);
    float in[NN], out[NN];
    for (int i = 0; i < NN; i++) {
        in[i] = rndf(-100, 100);
        out[i] = 7.0f;
    }
    ptxemu_devptr din = dbuf(in, sizeof(in)), dout = dbuf(out, sizeof(out));
    int n = NN - 5;
    void *params[] = {&din, &dout, &n};
    launch("dependent_launch", NB, BS, 0, params);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < NN; i++) {
        /* the PTX computes in * 2 + 1 with fma.rn.f32 */
        float exp = i < n ? fmaf(in[i], 2.0f, 1.0f) : 7.0f;
        EQ_F("out", i, out[i], exp);
    }
}
END_TEST

START_TEST(e2e_hopper_misc)
{
    open_sm90("tma_bulk");
    rng_seed(14);
    uint32_t in[4 * 32], out[4 * 32];
    for (int i = 0; i < 4 * 32; i++)
        in[i] = rnd();
    ptxemu_devptr din = dbuf(in, sizeof(in)), dout = dbuf(NULL, sizeof(out));
    void *params[] = {&din, &dout};
    launch("hopper_misc", 4, 32, 0, params);
    dget(out, dout, sizeof(out));
    for (int b = 0; b < 4; b++) {
        for (int t = 0; t < 32; t++) {
            /* slot[s] = in[s] (st.async) + 1 (red.async.add); lane 0 is
             * the elected leader of the full warp */
            uint32_t exp = in[b * 32 + 31 - t] + 1u + (t == 0 ? 1000u : 0u);
            EQ_I("out", b * 32 + t, out[b * 32 + t], exp);
        }
    }
}
END_TEST

START_TEST(e2e_stmatrix_prefetch)
{
    open_sm90("tma_bulk");
    rng_seed(15);
    uint32_t in[2 * 32];
    uint16_t out[2 * 64];
    int32_t next[2 * 64];
    for (int i = 0; i < 2 * 32; i++)
        in[i] = rnd();
    for (int i = 0; i < 2 * 64; i++)
        next[i] = i;
    ptxemu_devptr din = dbuf(in, sizeof(in)), dout = dbuf(NULL, sizeof(out));
    ptxemu_devptr dnext = dbuf(next, sizeof(next));
    void *params[] = {&din, &dout, &dnext};
    launch("stmatrix_prefetch", 2, 32, 0, params);
    dget(out, dout, sizeof(out));
    for (int b = 0; b < 2; b++) {
        uint16_t tile[64];
        /* m8n8 fragment: lane t holds row t/4, columns 2(t%4), 2(t%4)+1
         * (low half first); .trans stores element (r, c) at tile[c][r] */
        for (int t = 0; t < 32; t++) {
            uint32_t f = in[b * 32 + t];
            int r = t / 4, c = 2 * (t % 4);
            tile[c * 8 + r] = (uint16_t)f;
            tile[(c + 1) * 8 + r] = (uint16_t)(f >> 16);
        }
        for (int k = 0; k < 64; k++)
            EQ_I("out", b * 64 + k, out[b * 64 + k], tile[k]);
    }
}
END_TEST

/* ------------------------------------------ hand-written tensor tests */

#define PTX_HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

/* Byte loops shared by the kernels: %r4 bytes between tile (%r5) and
 * the buffer at %rd3. */
#define COPY_TILE_TO_OUT \
    " mov.u32 %r10, 0;\n" \
    "C:\n setp.ge.u32 %p2, %r10, %r4;\n @%p2 bra E;\n" \
    " add.u32 %r11, %r5, %r10;\n ld.shared.u8 %r12, [%r11];\n" \
    " cvt.u64.u32 %rd4, %r10;\n add.s64 %rd5, %rd3, %rd4;\n" \
    " st.global.u8 [%rd5], %r12;\n add.u32 %r10, %r10, 1;\n bra C;\n" \
    "E:\n ret;\n"
#define COPY_IN_TO_TILE \
    " mov.u32 %r10, 0;\n" \
    "F:\n setp.ge.u32 %p2, %r10, %r4;\n @%p2 bra G;\n" \
    " cvt.u64.u32 %rd4, %r10;\n add.s64 %rd5, %rd3, %rd4;\n" \
    " ld.global.u8 %r12, [%rd5];\n" \
    " add.u32 %r11, %r5, %r10;\n st.shared.u8 [%r11], %r12;\n" \
    " add.u32 %r10, %r10, 1;\n bra F;\n" \
    "G:\n fence.proxy.async.shared::cta;\n"
#define DECLS \
    " .reg .b64 %rd<8>;\n .reg .b32 %r<16>;\n .reg .pred %p<4>;\n"
#define PROLOGUE(ncoord) \
    " mov.b64 %rd1, map;\n cvta.param.u64 %rd2, %rd1;\n" \
    " ld.param.u64 %rd3, [buf];\n ld.param.u32 %r4, [nb];\n" \
    " ld.param.s32 %r1, [c0];\n ld.param.s32 %r2, [c1];\n" \
    " ld.param.s32 %r3, [c2];\n" \
    " mov.u32 %r5, tile;\n mov.u32 %r6, bar;\n"
#define PARAMS \
    "(.param .align 64 .b8 map[128], .param .u64 buf, .param .s32 c0,\n" \
    " .param .s32 c1, .param .s32 c2, .param .u32 nb)\n"

static const char tensor_ptx[] =
    PTX_HEAD
    ".shared .align 1024 .b8 tile[12288];\n"
    ".shared .align 8 .b64 bar;\n"
    ".const .align 64 .b8 cmap[128];\n"
    /* a 2D box through the map in constant memory */
    ".visible .entry tloadc" PARAMS "{\n" DECLS
    " mov.u64 %rd1, cmap;\n cvta.const.u64 %rd2, %rd1;\n"
    " ld.param.u64 %rd3, [buf];\n ld.param.u32 %r4, [nb];\n"
    " ld.param.s32 %r1, [c0];\n ld.param.s32 %r2, [c1];\n"
    " mov.u32 %r5, tile;\n mov.u32 %r6, bar;\n"
    " mbarrier.init.shared::cta.b64 [%r6], 1;\n"
    " cp.async.bulk.tensor.2d.shared::cta.global.tile"
    ".mbarrier::complete_tx::bytes [%r5], [%rd2, {%r1, %r2}], [%r6];\n"
    " mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r6], %r4;\n"
    "W:\n mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r6], 0;\n"
    " @!%p1 bra W;\n"
    COPY_TILE_TO_OUT "}\n"
    /* load a 2D box into a tile prefilled with 0xEE, copy it out raw */
    ".visible .entry tload2" PARAMS "{\n" DECLS PROLOGUE(2)
    " mov.u32 %r10, 0;\n"
    "P:\n setp.ge.u32 %p2, %r10, %r4;\n @%p2 bra Q;\n"
    " add.u32 %r11, %r5, %r10;\n st.shared.u8 [%r11], 0xEE;\n"
    " add.u32 %r10, %r10, 1;\n bra P;\n"
    "Q:\n mbarrier.init.shared::cta.b64 [%r6], 1;\n"
    " fence.proxy.async.shared::cta;\n"
    " cp.async.bulk.tensor.2d.shared::cluster.global.tile"
    ".mbarrier::complete_tx::bytes [%r5], [%rd2, {%r1, %r2}], [%r6];\n"
    " mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r6], %r4;\n"
    "W:\n mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r6], 0;\n"
    " @!%p1 bra W;\n"
    COPY_TILE_TO_OUT "}\n"
    /* the same in 3D, through a map in global memory */
    ".visible .entry tload3(.param .u64 gmap, .param .u64 buf,\n"
    " .param .s32 c0, .param .s32 c1, .param .s32 c2, .param .u32 nb)\n"
    "{\n" DECLS
    " ld.param.u64 %rd1, [gmap];\n cvta.global.u64 %rd2, %rd1;\n"
    " ld.param.u64 %rd3, [buf];\n ld.param.u32 %r4, [nb];\n"
    " ld.param.s32 %r1, [c0];\n ld.param.s32 %r2, [c1];\n"
    " ld.param.s32 %r3, [c2];\n"
    " mov.u32 %r5, tile;\n mov.u32 %r6, bar;\n"
    " mbarrier.init.shared::cta.b64 [%r6], 1;\n"
    " prefetch.tensormap [%rd2];\n"
    " cp.async.bulk.prefetch.tensor.3d.L2.global.tile [%rd2, {%r1, %r2, "
    "%r3}];\n"
    " cp.async.bulk.tensor.3d.shared::cta.global.tile"
    ".mbarrier::complete_tx::bytes [%r5], [%rd2, {%r1, %r2, %r3}], [%r6];\n"
    " mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r6], %r4;\n"
    "W:\n mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r6], 0;\n"
    " @!%p1 bra W;\n"
    COPY_TILE_TO_OUT "}\n"
    /* a 5D box through a param map */
    ".visible .entry tload5(.param .align 64 .b8 map[128], .param .u64 buf,"
    "\n .param .s32 c0, .param .s32 c1, .param .s32 c2, .param .s32 c3,\n"
    " .param .s32 c4, .param .u32 nb)\n{\n" DECLS
    " mov.b64 %rd1, map;\n cvta.param.u64 %rd2, %rd1;\n"
    " ld.param.u64 %rd3, [buf];\n ld.param.u32 %r4, [nb];\n"
    " ld.param.s32 %r1, [c0];\n ld.param.s32 %r2, [c1];\n"
    " ld.param.s32 %r3, [c2];\n ld.param.s32 %r7, [c3];\n"
    " ld.param.s32 %r8, [c4];\n"
    " mov.u32 %r5, tile;\n mov.u32 %r6, bar;\n"
    " mbarrier.init.shared::cta.b64 [%r6], 1;\n"
    " cp.async.bulk.tensor.5d.shared::cta.global.tile"
    ".mbarrier::complete_tx::bytes [%r5], [%rd2, {%r1, %r2, %r3, %r7, "
    "%r8}], [%r6];\n"
    " mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r6], %r4;\n"
    "W:\n mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r6], 0;\n"
    " @!%p1 bra W;\n"
    COPY_TILE_TO_OUT "}\n"
    /* fill the tile from buf, store it as a 2D box */
    ".visible .entry tstore2" PARAMS "{\n" DECLS PROLOGUE(2)
    COPY_IN_TO_TILE
    " cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group "
    "[%rd2, {%r1, %r2}], [%r5];\n"
    " cp.async.bulk.commit_group;\n cp.async.bulk.wait_group.read 0;\n"
    " ret;\n}\n"
    /* fill the tile from buf, add it into a 2D box */
    ".visible .entry tred2" PARAMS "{\n" DECLS PROLOGUE(2)
    COPY_IN_TO_TILE
    " cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile"
    ".bulk_group [%rd2, {%r1, %r2}], [%r5];\n"
    " cp.async.bulk.commit_group;\n cp.async.bulk.wait_group 0;\n"
    " ret;\n}\n"
    ".visible .entry tmin2" PARAMS "{\n" DECLS PROLOGUE(2)
    COPY_IN_TO_TILE
    " cp.reduce.async.bulk.tensor.2d.global.shared::cta.min.tile"
    ".bulk_group [%rd2, {%r1, %r2}], [%r5];\n"
    " cp.async.bulk.commit_group;\n cp.async.bulk.wait_group 0;\n"
    " ret;\n}\n";

/* The host tensor: rank <= 5, dimension 0 fastest, byte strides. */
#define HR 5
typedef struct HostTensor {
    unsigned rank, es;
    int64_t dim[HR];
    uint64_t stride[HR];                /* stride[0] = es */
    uint32_t box[HR], est[HR];
    int swizzle;                        /* 0, 1, 2, 3: none, 32/64/128B */
} HostTensor;

/* Chunk permutation of the CUDA guide's TMA swizzle: in a repeat of
 * 2^s 128-byte lines, chunk j of line r moves to chunk j ^ r. */
static size_t ref_swizzle(int s, size_t off)
{
    if (s == 0)
        return off;
    size_t lines = (size_t)1 << s;          /* 2, 4, 8 */
    size_t r = (off / 128) % lines;
    size_t j = (off / 16) % lines;
    return off - j * 16 + (j ^ r) * 16;
}

/* Elements per dimension and box bytes. */
static size_t box_shape(const HostTensor *t, uint32_t n[HR])
{
    size_t bytes = t->es;
    for (unsigned d = 0; d < HR; d++) {
        uint32_t st = d == 0 ? 1 : t->est[d];
        n[d] = d < t->rank ? (t->box[d] + st - 1) / st : 1;
        bytes *= n[d];
    }
    return bytes;
}

/* Where box element (linear index e) lies in the tensor: its byte
 * offset, or -1 when outside. */
static int64_t box_elem(const HostTensor *t, const int32_t *c,
                        const uint32_t n[HR], size_t e)
{
    int64_t off = 0;
    for (unsigned d = 0; d < HR; d++) {
        size_t k = e % n[d];
        e /= n[d];
        if (d >= t->rank)
            continue;
        int64_t x = (int64_t)c[d] + (int64_t)k * (d ? t->est[d] : 1);
        if (x < 0 || x >= t->dim[d])
            return -1;
        off += x * (int64_t)t->stride[d];
    }
    return off;
}

static void run_tensor(const char *k, ptxemu_tensor_map *m,
                       ptxemu_devptr buf, const int32_t *c, uint32_t nb)
{
    int32_t c0 = c[0], c1 = c[1], c2 = c[2];
    void *params[] = {m, &buf, &c0, &c1, &c2, &nb};
    launch(k, 1, 1, 0, params);
}

/* Load a box of t (host bytes g, device copy at dg) at c with map m;
 * compare the raw shared tile with the reference. */
static void check_load(const HostTensor *t, const uint8_t *g,
                       ptxemu_tensor_map *m, const int32_t *c, int nan)
{
    uint32_t n[HR];
    size_t nb = box_shape(t, n);
    uint8_t *exp = malloc(nb), *got = malloc(nb);
    ck_assert_ptr_nonnull(exp);
    ck_assert_ptr_nonnull(got);
    for (size_t e = 0; e < nb / t->es; e++) {
        int64_t o = box_elem(t, c, n, e);
        uint8_t *dst = exp + ref_swizzle(t->swizzle, e * t->es);
        if (o >= 0)
            memcpy(dst, g + o, t->es);
        else
            memset(dst, 0, t->es);
    }
    ptxemu_devptr out = dbuf(NULL, nb);
    if (t->rank == 5) {
        int32_t c0 = c[0], c1 = c[1], c2 = c[2], c3 = c[3], c4 = c[4];
        uint32_t nbu = (uint32_t)nb;
        void *params[] = {m, &out, &c0, &c1, &c2, &c3, &c4, &nbu};
        launch("tload5", 1, 1, 0, params);
    } else if (t->rank == 3) {
        ptxemu_devptr gm = dbuf(m, sizeof(*m));
        int32_t c0 = c[0], c1 = c[1], c2 = c[2];
        uint32_t nbu = (uint32_t)nb;
        void *params[] = {&gm, &out, &c0, &c1, &c2, &nbu};
        launch("tload3", 1, 1, 0, params);
    } else {
        run_tensor("tload2", m, out, c, (uint32_t)nb);
    }
    dget(got, out, nb);
    for (size_t e = 0; e < nb / t->es; e++) {
        size_t at = ref_swizzle(t->swizzle, e * t->es);
        if (nan && box_elem(t, c, n, e) < 0) {
            float f;
            memcpy(&f, got + at, 4);
            ck_assert_msg(isnan(f), "element %zu: out of bounds, not NaN",
                          e);
            continue;
        }
        ck_assert_msg(memcmp(got + at, exp + at, t->es) == 0,
                      "element %zu (shared offset %zu) differs", e, at);
    }
    free(exp);
    free(got);
}

static uint8_t *rand_bytes(size_t n)
{
    uint8_t *p = malloc(n);
    ck_assert_ptr_nonnull(p);
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rnd();
    return p;
}

/* A 2D tensor W x H of es-byte elements, pitch bytes per row. */
static HostTensor tensor2(unsigned es, int64_t w, int64_t h, uint64_t pitch,
                          uint32_t bx, uint32_t by, int swz)
{
    HostTensor t = {2, es, {w, h, 1}, {es, pitch, 0}, {bx, by, 1},
                    {1, 1, 1}, swz};
    return t;
}

static ptxemu_tensor_map map_of(const HostTensor *t, ptxemu_tensor_dtype dt,
                                ptxemu_devptr a, int nan)
{
    ptxemu_tensor_map_desc d;
    memset(&d, 0, sizeof(d));
    d.dtype = dt;
    d.rank = t->rank;
    d.addr = a;
    for (unsigned i = 0; i < t->rank; i++) {
        d.dims[i] = (uint64_t)t->dim[i];
        d.box[i] = t->box[i];
        d.elem_strides[i] = t->est[i];
        if (i)
            d.strides[i - 1] = t->stride[i];
    }
    d.swizzle = (ptxemu_tensor_swizzle)t->swizzle;
    d.oob_nan = (unsigned)nan;
    ptxemu_tensor_map m;
    encode(&d, &m);
    return m;
}

START_TEST(e2e_tma_load_edges)
{
    open_src(tensor_ptx);
    rng_seed(21);
    /* 70 x 45 floats, pitch 288 bytes (72 floats) of random bytes */
    HostTensor t = tensor2(4, 70, 45, 288, 32, 16, 0);
    size_t bytes = 288 * 45;
    uint8_t *g = rand_bytes(bytes);
    ptxemu_devptr dg = dbuf(g, bytes);
    ptxemu_tensor_map m = map_of(&t, PTXEMU_TENSOR_F32, dg, 0);
    static const int32_t origins[][3] = {
        {0, 0, 0}, {64, 40, 0}, {-8, -3, 0}, {50, -15, 0}, {-40, 10, 0},
        {70, 0, 0}, {1000, 1000, 0}
    };
    for (size_t i = 0; i < sizeof(origins) / sizeof(origins[0]); i++)
        check_load(&t, g, &m, origins[i], 0);
    /* NaN fill */
    ptxemu_tensor_map mn = map_of(&t, PTXEMU_TENSOR_F32, dg, 1);
    check_load(&t, g, &mn, origins[1], 1);
    check_load(&t, g, &mn, origins[2], 1);
    free(g);
}
END_TEST

START_TEST(e2e_tma_swizzle)
{
    open_src(tensor_ptx);
    rng_seed(22);
    static const struct {
        unsigned es;
        ptxemu_tensor_dtype dt;
        uint32_t bx, by;
        int swz;
    } cases[] = {
        {1, PTXEMU_TENSOR_U8, 128, 20, 3},      /* 128B: full lines */
        {4, PTXEMU_TENSOR_F32, 32, 9, 3},
        {2, PTXEMU_TENSOR_F16, 32, 12, 2},      /* 64B */
        {2, PTXEMU_TENSOR_BF16, 16, 24, 2},     /* 32-byte rows, 64B */
        {8, PTXEMU_TENSOR_F64, 4, 19, 1},       /* 32B */
        {4, PTXEMU_TENSOR_S32, 4, 40, 1},       /* 16-byte rows, 32B */
        {8, PTXEMU_TENSOR_U64, 16, 8, 3},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        unsigned es = cases[i].es;
        int64_t w = 300 / es, h = 37;
        uint64_t pitch = (uint64_t)((w * es + 15) / 16 * 16 + 32);
        HostTensor t = tensor2(es, w, h, pitch, cases[i].bx, cases[i].by,
                               cases[i].swz);
        uint8_t *g = rand_bytes(pitch * (uint64_t)h);
        ptxemu_devptr dg = dbuf(g, pitch * (uint64_t)h);
        ptxemu_tensor_map m = map_of(&t, cases[i].dt, dg, 0);
        int32_t c[3] = {(int32_t)(w - (int64_t)cases[i].bx / 2), 3, 0};
        check_load(&t, g, &m, c, 0);
        int32_t c2[3] = {-2, (int32_t)h - 5, 0};
        check_load(&t, g, &m, c2, 0);
        free(g);
    }
}
END_TEST

START_TEST(e2e_tma_3d_strides)
{
    open_src(tensor_ptx);
    rng_seed(23);
    /* 24 x 10 x 6 u32, element strides 1 (ignored for dim 0), 2, 3 */
    HostTensor t = {3, 4, {24, 10, 6}, {4, 112, 112 * 11}, {8, 6, 5},
                    {1, 2, 3}, 0};
    size_t bytes = 112 * 11 * 6;
    uint8_t *g = rand_bytes(bytes);
    ptxemu_devptr dg = dbuf(g, bytes);
    ptxemu_tensor_map m = map_of(&t, PTXEMU_TENSOR_U32, dg, 0);
    static const int32_t origins[][3] = {
        {0, 0, 0}, {20, 7, 3}, {-4, -1, -2}, {16, 9, 5}
    };
    for (size_t i = 0; i < sizeof(origins) / sizeof(origins[0]); i++)
        check_load(&t, g, &m, origins[i], 0);
    free(g);
}
END_TEST

START_TEST(e2e_tma_5d)
{
    open_src(tensor_ptx);
    rng_seed(25);
    /* 8 x 5 x 4 x 3 x 3 u16 with padded strides; box 8 x 3 x 3 x 2 x 2,
     * element strides 2 and 3 in dimensions 2 and 4 */
    HostTensor t = {5, 2, {8, 5, 4, 3, 3},
                    {2, 32, 32 * 6, 32 * 6 * 4, 32 * 6 * 4 * 3},
                    {8, 3, 3, 2, 4}, {1, 1, 2, 1, 3}, 0};
    size_t bytes = 32 * 6 * 4 * 3 * 3;
    uint8_t *g = rand_bytes(bytes);
    ptxemu_devptr dg = dbuf(g, bytes);
    ptxemu_tensor_map m = map_of(&t, PTXEMU_TENSOR_U16, dg, 0);
    static const int32_t origins[][HR] = {
        {0, 0, 0, 0, 0}, {4, 3, 1, 2, 1}, {-3, -1, -2, -1, -4},
        {0, 4, 3, 2, 2}
    };
    for (size_t i = 0; i < sizeof(origins) / sizeof(origins[0]); i++)
        check_load(&t, g, &m, origins[i], 0);
    free(g);
}
END_TEST

/* Store (or reduce, op 1 = add.s32, 2 = min.u32) a tile into a 2D
 * tensor; check in-bound elements and untouched others. */
static void check_store(const char *k, int op, unsigned es,
                        ptxemu_tensor_dtype dt, int swz, uint32_t bx,
                        uint32_t by, const int32_t *c)
{
    int64_t w = 50, h = 21;
    uint64_t pitch = 256;
    HostTensor t = tensor2(es, w, h, pitch, bx, by, swz);
    size_t gbytes = pitch * (uint64_t)(h + 2);
    uint8_t *g = rand_bytes(gbytes);
    uint32_t n[HR];
    size_t nb = box_shape(&t, n);
    uint8_t *tile = rand_bytes(nb);
    uint8_t *exp = malloc(gbytes), *got = malloc(gbytes);
    ck_assert_ptr_nonnull(exp);
    ck_assert_ptr_nonnull(got);
    memcpy(exp, g, gbytes);
    for (size_t e = 0; e < nb / es; e++) {
        int64_t o = box_elem(&t, c, n, e);
        if (o < 0)
            continue;
        const uint8_t *s = tile + ref_swizzle(swz, e * es);
        if (op == 0) {
            memcpy(exp + o, s, es);
        } else {
            uint32_t a, b;
            memcpy(&a, exp + o, 4);
            memcpy(&b, s, 4);
            uint32_t r = op == 1 ? a + b : (a < b ? a : b);
            memcpy(exp + o, &r, 4);
        }
    }
    ptxemu_devptr dg = dbuf(g, gbytes), dt_ = dbuf(tile, nb);
    ptxemu_tensor_map m = map_of(&t, dt, dg, 0);
    run_tensor(k, &m, dt_, c, (uint32_t)nb);
    dget(got, dg, gbytes);
    for (size_t i = 0; i < gbytes; i++)
        ck_assert_msg(got[i] == exp[i], "%s: byte %zu: got 0x%02x, "
                      "expected 0x%02x", k, i, got[i], exp[i]);
    free(g);
    free(tile);
    free(exp);
    free(got);
}

START_TEST(e2e_tma_store_clip)
{
    open_src(tensor_ptx);
    rng_seed(24);
    static const int32_t origins[][3] = {
        {0, 0, 0}, {40, 15, 0}, {-5, -7, 0}, {48, -2, 0}, {60, 30, 0}
    };
    for (size_t i = 0; i < sizeof(origins) / sizeof(origins[0]); i++) {
        check_store("tstore2", 0, 4, PTXEMU_TENSOR_F32, 0, 16, 8,
                    origins[i]);
        check_store("tstore2", 0, 2, PTXEMU_TENSOR_U16, 2, 32, 9,
                    origins[i]);
        check_store("tstore2", 0, 8, PTXEMU_TENSOR_F64, 3, 16, 5,
                    origins[i]);
        check_store("tstore2", 0, 1, PTXEMU_TENSOR_U8, 1, 32, 11,
                    origins[i]);
        check_store("tred2", 1, 4, PTXEMU_TENSOR_S32, 3, 32, 7,
                    origins[i]);
        check_store("tmin2", 2, 4, PTXEMU_TENSOR_U32, 0, 8, 6,
                    origins[i]);
    }
}
END_TEST

/* ------------------------------------------- non-tensor bulk copies */

/* A one-thread kernel k(dst, src, n): n bytes of src into shared buf
 * (byte loop), then `body`, which sees dst in %rd1, n in %r1, buf in
 * %r3, a second buffer buf + 2048 in %r6, an initialised mbarrier in
 * %r9. */
static char *bulk_kernel(const char *body)
{
    static const char head[] =
        PTX_HEAD
        ".visible .entry k(.param .u64 pd, .param .u64 ps, .param .u32 pn)"
        "\n{\n .reg .b64 %rd<8>;\n .reg .b32 %r<16>;\n .reg .pred %p<4>;\n"
        " .shared .align 128 .b8 buf[4096];\n"
        " .shared .align 8 .b64 bar;\n"
        " ld.param.u64 %rd1, [pd];\n ld.param.u64 %rd2, [ps];\n"
        " ld.param.u32 %r1, [pn];\n mov.u32 %r3, buf;\n"
        " add.u32 %r6, %r3, 2048;\n mov.u32 %r9, bar;\n"
        " mbarrier.init.shared::cta.b64 [%r9], 1;\n"
        " mov.u32 %r2, 0;\n"
        "L:\n setp.ge.u32 %p1, %r2, %r1;\n @%p1 bra D;\n"
        " cvt.u64.u32 %rd3, %r2;\n add.s64 %rd4, %rd2, %rd3;\n"
        " ld.global.u8 %r4, [%rd4];\n add.u32 %r5, %r3, %r2;\n"
        " st.shared.u8 [%r5], %r4;\n add.u32 %r2, %r2, 1;\n bra L;\n"
        "D:\n fence.proxy.async.shared::cta;\n";
    static const char tail[] = " ret;\n}\n";
    size_t n = sizeof(head) + strlen(body) + sizeof(tail);
    char *s = malloc(n);
    ck_assert_ptr_nonnull(s);
    strcpy(s, head);
    strcat(s, body);
    strcat(s, tail);
    return s;
}

#define WAIT_BAR \
    "W:\n mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r9], 0;\n" \
    " @!%p2 bra W;\n"
#define STORE_BACK(reg) \
    " cp.async.bulk.global.shared::cta.bulk_group [%rd1], [" reg "], %r1;\n" \
    " cp.async.bulk.commit_group;\n cp.async.bulk.wait_group.read 0;\n"

/* Half-precision helpers for the reference: decode, and round a double
 * (exactly a sum of two such values) to nearest even. */
static double h_dec(uint16_t h, int bf)
{
    int eb = bf ? 8 : 5, mb = bf ? 7 : 10, bias = (1 << (eb - 1)) - 1;
    int e = (h >> mb) & ((1 << eb) - 1);
    double m = h & ((1 << mb) - 1);
    double v = e ? ldexp(1.0 + m / (1 << mb), e - bias)
                 : ldexp(m / (1 << mb), 1 - bias);
    return (h & 0x8000) ? -v : v;
}

static uint16_t h_enc(double v, int bf)
{
    /* search the 16-bit patterns of v's sign for the nearest, ties to
     * even (small, exhaustive, independent of the emulator) */
    uint16_t best = 0;
    double bd = INFINITY;
    uint16_t sign = signbit(v) ? 0x8000 : 0;
    uint16_t lim = bf ? 0x7f80 : 0x7c00;
    for (uint32_t b = 0; b <= lim; b++) {
        double d = fabs(h_dec((uint16_t)(b | sign), bf) - v);
        if (d < bd || (d == bd && !(b & 1))) {
            bd = d;
            best = (uint16_t)(b | sign);
        }
    }
    return best;
}

typedef struct RedCase {
    const char *sfx;                    /* "add.u32" ... */
    unsigned es;
} RedCase;

static uint64_t rd(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    memcpy(&v, p, n);
    return v;
}

/* Host reference of one element of a reduction. */
static uint64_t red_ref(const char *sfx, uint64_t a, uint64_t b)
{
    char op[8], ty[8];
    sscanf(sfx, "%7[a-z].%7[a-z0-9]", op, ty);
    if (!strcmp(ty, "noftz"))
        sscanf(sfx, "%*[a-z].noftz.%7[a-z0-9]", ty);
    int f16 = !strcmp(ty, "f16"), bf16 = !strcmp(ty, "bf16");
    if (f16 || bf16) {
        double x = h_dec((uint16_t)a, bf16), y = h_dec((uint16_t)b, bf16);
        if (!strcmp(op, "add"))
            return h_enc(x + y, bf16);
        int less = x < y;
        return (!strcmp(op, "min") ? less : !less && x != y) ? a : b;
    }
    if (!strcmp(ty, "f32")) {
        float x, y;
        uint32_t u = (uint32_t)a, v = (uint32_t)b;
        memcpy(&x, &u, 4);
        memcpy(&y, &v, 4);
        x += y;
        memcpy(&u, &x, 4);
        return u;
    }
    if (!strcmp(ty, "f64")) {
        double x, y;
        memcpy(&x, &a, 8);
        memcpy(&y, &b, 8);
        x += y;
        memcpy(&a, &x, 8);
        return a;
    }
    int w64 = strstr(ty, "64") != NULL, sgn = ty[0] == 's';
    if (!w64) {
        a = (uint32_t)a;
        b = (uint32_t)b;
    }
    int64_t sa = w64 ? (int64_t)a : (int32_t)a;
    int64_t sb = w64 ? (int64_t)b : (int32_t)b;
    uint64_t r;
    if (!strcmp(op, "add"))
        r = a + b;
    else if (!strcmp(op, "min"))
        r = sgn ? (sa < sb ? a : b) : (a < b ? a : b);
    else if (!strcmp(op, "max"))
        r = sgn ? (sa > sb ? a : b) : (a > b ? a : b);
    else if (!strcmp(op, "inc"))
        r = a >= b ? 0 : a + 1;
    else if (!strcmp(op, "dec"))
        r = (a == 0 || a > b) ? b : a - 1;
    else if (!strcmp(op, "and"))
        r = a & b;
    else if (!strcmp(op, "or"))
        r = a | b;
    else
        r = a ^ b;
    return w64 ? r : (uint32_t)r;
}

/* Random values for the reduction's type: small-exponent floats (sums
 * exact in double, no subnormals), integers around the inc/dec bound. */
static void rand_elems(const char *sfx, uint8_t *p, size_t n, unsigned es)
{
    for (size_t k = 0; k < n; k += es) {
        uint64_t v = rnd64();
        if (strstr(sfx, "f16") || strstr(sfx, "bf16")) {
            int bf = strstr(sfx, "bf16") != NULL;
            v = h_enc(ldexp(rndf(-1, 1), (int)(rnd() % 7) - 3), bf);
        } else if (strstr(sfx, "f32")) {
            float f = rndf(-100, 100);
            uint32_t u;
            memcpy(&u, &f, 4);
            v = u;
        } else if (strstr(sfx, "f64")) {
            double d = rndf(-100, 100) * 1.000001;
            memcpy(&v, &d, 8);
        } else if (strstr(sfx, "inc") || strstr(sfx, "dec")) {
            v = rnd() % 12;
        }
        memcpy(p + k, &v, es);
    }
}

START_TEST(e2e_bulk_reduce_ops)
{
    static const RedCase cases[] = {
        {"add.u32", 4}, {"add.s32", 4}, {"add.u64", 8}, {"min.u32", 4},
        {"min.s32", 4}, {"max.u32", 4}, {"max.s32", 4}, {"min.u64", 8},
        {"min.s64", 8}, {"max.u64", 8}, {"max.s64", 8}, {"inc.u32", 4},
        {"dec.u32", 4}, {"and.b32", 4}, {"or.b32", 4}, {"xor.b32", 4},
        {"and.b64", 8}, {"or.b64", 8}, {"xor.b64", 8}, {"add.f32", 4},
        {"add.f64", 8}, {"add.noftz.f16", 2}, {"add.noftz.bf16", 2},
        {"min.f16", 2}, {"max.f16", 2}, {"min.bf16", 2}, {"max.bf16", 2},
    };
    rng_seed(31);
    enum { N = 512 };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        char body[512];
        snprintf(body, sizeof(body),
                 " cp.reduce.async.bulk.global.shared::cta.bulk_group.%s "
                 "[%%rd1], [%%r3], %%r1;\n"
                 " cp.async.bulk.commit_group;\n"
                 " cp.async.bulk.wait_group.read 0;\n", cases[c].sfx);
        char *src = bulk_kernel(body);
        open_src(src);
        free(src);
        uint8_t s[N], d[N], got[N];
        rand_elems(cases[c].sfx, s, N, cases[c].es);
        rand_elems(cases[c].sfx, d, N, cases[c].es);
        ptxemu_devptr dd = dbuf(d, N), ds = dbuf(s, N);
        uint32_t n = N;
        void *params[] = {&dd, &ds, &n};
        launch("k", 1, 1, 0, params);
        dget(got, dd, N);
        for (size_t k = 0; k < N; k += cases[c].es) {
            uint64_t exp = red_ref(cases[c].sfx, rd(d + k, cases[c].es),
                                   rd(s + k, cases[c].es));
            ck_assert_msg(rd(got + k, cases[c].es) == exp,
                          "%s element %zu: got 0x%" PRIx64 " expected 0x%"
                          PRIx64 " (0x%" PRIx64 " op 0x%" PRIx64 ")",
                          cases[c].sfx, k / cases[c].es,
                          rd(got + k, cases[c].es), exp,
                          rd(d + k, cases[c].es), rd(s + k, cases[c].es));
        }
        close_ptx();
    }
}
END_TEST

START_TEST(e2e_bulk_cluster_forms)
{
    /* shared::cta -> shared::cluster (own CTA) copy and reductions on
     * an mbarrier, then a bulk store of the result */
    static const char body[] =
        " cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx"
        "::bytes [%r6], [%r3], %r1, [%r9];\n"
        " cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier"
        "::complete_tx::bytes.add.u32 [%r6], [%r3], %r1, [%r9];\n"
        " cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier"
        "::complete_tx::bytes.xor.b64 [%r6], [%r3], 32, [%r9];\n"
        " add.u32 %r7, %r1, %r1;\n add.u32 %r7, %r7, 32;\n"
        " mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r9], %r7;\n"
        WAIT_BAR STORE_BACK("%r6");
    char *src = bulk_kernel(body);
    open_src(src);
    free(src);
    rng_seed(32);
    enum { N = 256 };
    uint32_t s[N / 4], got[N / 4];
    for (int i = 0; i < N / 4; i++)
        s[i] = rnd();
    ptxemu_devptr dd = dbuf(NULL, N), ds = dbuf(s, N);
    uint32_t n = N;
    void *params[] = {&dd, &ds, &n};
    launch("k", 1, 1, 0, params);
    dget(got, dd, N);
    for (int i = 0; i < N / 4; i++) {
        uint32_t exp = s[i] + s[i];
        if (i < 8)                  /* 32 bytes xor'ed as b64: bitwise */
            exp ^= s[i];
        EQ_I("out", i, got[i], exp);
    }
}
END_TEST

/* Clusters of two CTAs: each sends 64 bytes of its shared memory to its
 * peer (cp.async.bulk shared::cta -> shared::cluster), one st.async and
 * one red.async.add into the peer's memory, all completing on the
 * peer's mbarrier; each then waits on its own and writes what it got. */
static const char peer_ptx[] =
    PTX_HEAD
    ".visible .entry peer(.param .u64 out)\n{\n"
    " .reg .b64 %rd<8>;\n .reg .b32 %r<24>;\n .reg .pred %p<4>;\n"
    " .shared .align 128 .b8 src[64];\n"
    " .shared .align 128 .b8 dst[80];\n"
    " .shared .align 8 .b64 bar;\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.u32 %r1, %cluster_ctarank;\n xor.b32 %r2, %r1, 1;\n"
    " mov.u32 %r3, %ctaid.x;\n"
    " mov.u32 %r4, src;\n mov.u32 %r5, dst;\n mov.u32 %r6, bar;\n"
    " mov.u32 %r10, 0;\n"
    "F:\n setp.ge.u32 %p1, %r10, 16;\n @%p1 bra G;\n"
    " mad.lo.u32 %r11, %r3, 1000, %r10;\n shl.b32 %r12, %r10, 2;\n"
    " add.u32 %r13, %r4, %r12;\n st.shared.u32 [%r13], %r11;\n"
    " add.u32 %r13, %r5, %r12;\n st.shared.u32 [%r13], 0;\n"
    " add.u32 %r10, %r10, 1;\n bra F;\n"
    "G:\n st.shared.u32 [%r5+64], 7;\n st.shared.u32 [%r5+68], 0;\n"
    " mbarrier.init.shared::cta.b64 [%r6], 1;\n"
    " mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r6], 72;\n"
    " fence.proxy.async.shared::cta;\n"
    " barrier.cluster.arrive;\n barrier.cluster.wait;\n"
    " mapa.shared::cluster.u32 %r7, %r5, %r2;\n"
    " mapa.shared::cluster.u32 %r8, %r6, %r2;\n"
    " cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx"
    "::bytes [%r7], [%r4], 64, [%r8];\n"
    " add.u32 %r9, %r7, 64;\n"
    " add.u32 %r14, %r3, 500;\n"
    " red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx"
    "::bytes.add.u32 [%r9], %r14, [%r8];\n"
    " add.u32 %r9, %r7, 68;\n"
    " st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r9], "
    "%r3, [%r8];\n"
    "W:\n mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r6], 0;\n"
    " @!%p2 bra W;\n"
    " mul.wide.u32 %rd2, %r3, 72;\n add.s64 %rd3, %rd1, %rd2;\n"
    " mov.u32 %r10, 0;\n"
    "C:\n setp.ge.u32 %p1, %r10, 18;\n @%p1 bra E;\n"
    " shl.b32 %r12, %r10, 2;\n add.u32 %r13, %r5, %r12;\n"
    " ld.shared.u32 %r11, [%r13];\n"
    " mul.wide.u32 %rd4, %r10, 4;\n add.s64 %rd5, %rd3, %rd4;\n"
    " st.global.u32 [%rd5], %r11;\n add.u32 %r10, %r10, 1;\n bra C;\n"
    "E:\n barrier.cluster.arrive;\n barrier.cluster.wait;\n ret;\n}\n";

START_TEST(e2e_bulk_cluster_peers)
{
    enum { NCTA = 4 };
    open_src(peer_ptx);
    ptxemu_function *f = NULL;
    ck_assert_int_eq(ptxemu_module_get_function(mod, "peer", &f),
                     PTXEMU_SUCCESS);
    ptxemu_devptr dout = dbuf(NULL, NCTA * 72);
    void *params[] = {&dout};
    ptxemu_launch_config cfg;
    ptxemu_launch_config_default(&cfg);
    cfg.grid[0] = NCTA;
    cfg.cluster[0] = 2;
    cfg.cluster[1] = cfg.cluster[2] = 1;
    ptxemu_status st = ptxemu_launch_ex(f, &cfg, params);
    ck_assert_msg(st == PTXEMU_SUCCESS, "%s: %s", ptxemu_status_name(st),
                  ptxemu_last_error_message(dev));
    ck_assert_int_eq(ptxemu_synchronize(dev), PTXEMU_SUCCESS);
    uint32_t out[NCTA * 18];
    dget(out, dout, sizeof(out));
    for (uint32_t c = 0; c < NCTA; c++) {
        uint32_t p = c ^ 1;             /* the peer in its cluster */
        for (uint32_t k = 0; k < 16; k++)
            EQ_I("copied", c * 18 + k, out[c * 18 + k], p * 1000 + k);
        EQ_I("red.async", c * 18 + 16, out[c * 18 + 16], 7 + p + 500);
        EQ_I("st.async", c * 18 + 17, out[c * 18 + 17], p);
    }
}
END_TEST

/* .multicast::cluster (sm_90a): CTA rank 0 of each cluster of four
 * loads a 2D tile (TMA) and 256 bytes (bulk copy) into the CTAs of
 * ctaMask 0b1011, each completing on that CTA's own mbarrier; rank 2 is
 * left out and keeps its sentinels. */
static const char mcast_ptx[] =
    ".version 8.0\n.target sm_90a\n.address_size 64\n"
    ".shared .align 1024 .b8 tile[1024];\n"
    ".shared .align 128 .b8 raw[256];\n"
    ".shared .align 8 .b64 bar;\n"
    ".visible .entry mcast(.param .align 64 .b8 map[128], .param .u64 src,"
    "\n .param .u64 out)\n{\n"
    " .reg .b64 %rd<8>;\n .reg .b32 %r<24>;\n .reg .pred %p<4>;\n .reg .b16 %rs<2>;\n"
    " mov.b64 %rd1, map;\n cvta.param.u64 %rd2, %rd1;\n"
    " ld.param.u64 %rd3, [src];\n ld.param.u64 %rd6, [out];\n"
    " mov.u32 %r1, %cluster_ctarank;\n mov.u32 %r3, %ctaid.x;\n"
    " mov.u32 %r5, tile;\n mov.u32 %r6, bar;\n mov.u32 %r7, raw;\n"
    " mov.u32 %r10, 0;\n"
    "F:\n setp.ge.u32 %p1, %r10, 1280;\n @%p1 bra G;\n"
    " add.u32 %r11, %r5, %r10;\n st.shared.u8 [%r11], 0xA5;\n"
    " add.u32 %r10, %r10, 1;\n bra F;\n"
    "G:\n mbarrier.init.shared::cta.b64 [%r6], 1;\n"
    " setp.ne.u32 %p3, %r1, 2;\n"
    " @%p3 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r6], 1280;\n"
    " fence.proxy.async.shared::cta;\n"
    " barrier.cluster.arrive;\n barrier.cluster.wait;\n"
    " setp.ne.u32 %p1, %r1, 0;\n @%p1 bra W;\n"
    " mov.u16 %rs1, 11;\n"
    " cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier"
    "::complete_tx::bytes.multicast::cluster [%r5], [%rd2, {%r3, 0}], "
    "[%r6], 11;\n"
    " cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
    ".multicast::cluster [%r7], [%rd3], 256, [%r6], %rs1;\n"
    "W:\n @!%p3 bra C0;\n"
    "W1:\n mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r6], 0;\n"
    " @!%p2 bra W1;\n"
    "C0:\n mul.wide.u32 %rd4, %r3, 1280;\n add.s64 %rd5, %rd6, %rd4;\n"
    " mov.u32 %r10, 0;\n"
    "C:\n setp.ge.u32 %p1, %r10, 1280;\n @%p1 bra E;\n"
    " add.u32 %r11, %r5, %r10;\n ld.shared.u8 %r12, [%r11];\n"
    " cvt.u64.u32 %rd4, %r10;\n add.s64 %rd7, %rd5, %rd4;\n"
    " st.global.u8 [%rd7], %r12;\n add.u32 %r10, %r10, 1;\n bra C;\n"
    "E:\n barrier.cluster.arrive;\n barrier.cluster.wait;\n ret;\n}\n";

START_TEST(e2e_multicast)
{
    enum { NCTA = 8, W = 64, H = 8 };
    open_src(mcast_ptx);
    rng_seed(51);
    /* a 64 x 8 u32 tensor; box 32 x 8 at x = %ctaid.x of the issuer */
    static uint32_t g[W * H];
    uint8_t raw[256];
    for (int i = 0; i < W * H; i++)
        g[i] = rnd();
    for (int i = 0; i < 256; i++)
        raw[i] = (uint8_t)rnd();
    ptxemu_devptr dg = dbuf(g, sizeof(g)), dr = dbuf(raw, sizeof(raw));
    ptxemu_devptr dout = dbuf(NULL, NCTA * 1280);
    HostTensor t = tensor2(4, W, H, W * 4, 32, 8, 0);
    ptxemu_tensor_map m = map_of(&t, PTXEMU_TENSOR_U32, dg, 0);
    ptxemu_function *f = NULL;
    ck_assert_int_eq(ptxemu_module_get_function(mod, "mcast", &f),
                     PTXEMU_SUCCESS);
    void *params[] = {&m, &dr, &dout};
    ptxemu_launch_config cfg;
    ptxemu_launch_config_default(&cfg);
    cfg.grid[0] = NCTA;
    cfg.cluster[0] = 4;
    cfg.cluster[1] = cfg.cluster[2] = 1;
    ptxemu_status st = ptxemu_launch_ex(f, &cfg, params);
    ck_assert_msg(st == PTXEMU_SUCCESS, "%s: %s", ptxemu_status_name(st),
                  ptxemu_last_error_message(dev));
    ck_assert_int_eq(ptxemu_synchronize(dev), PTXEMU_SUCCESS);
    static uint8_t out[NCTA * 1280];
    dget(out, dout, sizeof(out));
    for (int c = 0; c < NCTA; c++) {
        int issuer = c / 4 * 4, rank = c % 4;
        const uint8_t *o = out + c * 1280;
        for (int k = 0; k < 1024; k += 4) {
            int e = k / 4, x = issuer + e % 32, y = e / 32;
            uint32_t v;
            memcpy(&v, o + k, 4);
            EQ_I("tile", c * 256 + e, v, rank == 2 ? 0xA5A5A5A5u
                                                   : g[y * W + x]);
        }
        for (int k = 0; k < 256; k++)
            EQ_I("raw", c * 256 + k, o[1024 + k],
                 rank == 2 ? 0xA5u : raw[k]);
    }
}
END_TEST

/* ------------------------------------------------------------ faults */

static void bulk_fault(const char *body, uint32_t n, size_t dbytes,
                       ptxemu_status want, const char *what)
{
    char *src = bulk_kernel(body);
    open_src(src);
    free(src);
    ptxemu_devptr dd = dbuf(NULL, dbytes), ds = dbuf(NULL, 4096);
    void *params[] = {&dd, &ds, &n};
    launch_fail("k", 1, 1, params, want, what);
    close_ptx();
}

START_TEST(e2e_bulk_faults)
{
    /* destination 4 bytes off the 16-byte grid */
    bulk_fault(" add.s64 %rd1, %rd1, 4;\n" STORE_BACK("%r3"), 64, 256,
               PTXEMU_ERROR_MISALIGNED, "multiples of 16");
    /* size not a multiple of 16 */
    bulk_fault(STORE_BACK("%r3"), 24, 256, PTXEMU_ERROR_MISALIGNED,
               "cp.async.bulk");
    /* shared source address off the grid */
    bulk_fault(" add.u32 %r3, %r3, 8;\n" STORE_BACK("%r3"), 32, 256,
               PTXEMU_ERROR_MISALIGNED, "cp.async.bulk");
    /* 512 bytes into a 256-byte allocation */
    bulk_fault(STORE_BACK("%r3"), 512, 256, PTXEMU_ERROR_ILLEGAL_ADDRESS,
               "out-of-bounds");
    /* global -> shared beyond the CTA's shared memory */
    bulk_fault(" cp.async.bulk.shared::cta.global.mbarrier::complete_tx"
               "::bytes [%r6], [%rd2], 4096, [%r9];\n", 16, 256,
               PTXEMU_ERROR_ILLEGAL_ADDRESS, "shared");
    /* an mbarrier never initialised */
    bulk_fault(" add.u32 %r9, %r3, 64;\n"
               " cp.async.bulk.shared::cta.global.mbarrier::complete_tx"
               "::bytes [%r6], [%rd2], 16, [%r9];\n", 16, 256,
               PTXEMU_ERROR_ILLEGAL_INSTRUCTION, "mbarrier");
    /* a reduction running off the end of global memory */
    bulk_fault(" add.s64 %rd1, %rd1, 240;\n"
               " cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32"
               " [%rd1], [%r3], %r1;\n", 32, 256,
               PTXEMU_ERROR_ILLEGAL_ADDRESS, "out-of-bounds");
    /* prefetch: the operand rules only */
    bulk_fault(" cp.async.bulk.prefetch.L2.global [%rd2], 20;\n", 16, 256,
               PTXEMU_ERROR_MISALIGNED, "cp.async.bulk.prefetch");
}
END_TEST

START_TEST(e2e_tma_faults)
{
    open_src(tensor_ptx);
    rng_seed(41);
    uint8_t *g = rand_bytes(4096);
    ptxemu_devptr dg = dbuf(g, 4096), out = dbuf(NULL, 4096);
    int32_t c[3] = {0, 0, 0};
    int32_t c0 = 0, c1 = 0, c2 = 0;
    uint32_t nb = 512;
    /* a map that no encoder made */
    ptxemu_tensor_map junk;
    memcpy(&junk, g, sizeof(junk));
    void *params[] = {&junk, &out, &c0, &c1, &c2, &nb};
    launch_fail("tload2", 1, 1, params, PTXEMU_ERROR_ILLEGAL_INSTRUCTION,
                "tensor map");
    /* a rank-3 map used by .2d */
    HostTensor t3 = {3, 4, {8, 4, 4}, {4, 32, 128}, {8, 4, 4}, {1, 1, 1},
                     0};
    ptxemu_tensor_map m3 = map_of(&t3, PTXEMU_TENSOR_F32, dg, 0);
    void *p3[] = {&m3, &out, &c0, &c1, &c2, &nb};
    launch_fail("tload2", 1, 1, p3, PTXEMU_ERROR_ILLEGAL_INSTRUCTION,
                "rank 3");
    /* a map over 4 KiB of a tensor that claims 64 x 64 floats: the box
     * at row 32 leaves the allocation */
    HostTensor big = tensor2(4, 64, 64, 256, 32, 4, 0);
    ptxemu_tensor_map mb = map_of(&big, PTXEMU_TENSOR_F32, dg, 0);
    c1 = 32;
    void *pb[] = {&mb, &out, &c0, &c1, &c2, &nb};
    launch_fail("tload2", 1, 1, pb, PTXEMU_ERROR_ILLEGAL_ADDRESS,
                "out-of-bounds");
    /* add on a u16 tensor has no reduction */
    HostTensor t16 = tensor2(2, 64, 8, 128, 16, 2, 0);
    ptxemu_tensor_map m16 = map_of(&t16, PTXEMU_TENSOR_U16, dg, 0);
    c1 = 0;
    nb = 64;
    void *pr[] = {&m16, &out, &c0, &c1, &c2, &nb};
    launch_fail("tred2", 1, 1, pr, PTXEMU_ERROR_ILLEGAL_INSTRUCTION,
                ".add is not defined");
    (void)c;
    free(g);
}
END_TEST

START_TEST(e2e_tma_replace_address)
{
    open_src(tensor_ptx);
    rng_seed(42);
    HostTensor t = tensor2(4, 16, 8, 64, 16, 8, 0);
    uint8_t *a = rand_bytes(512), *b = rand_bytes(512);
    ptxemu_devptr da = dbuf(a, 512), db = dbuf(b, 512);
    ptxemu_tensor_map m = map_of(&t, PTXEMU_TENSOR_F32, da, 0);
    int32_t c[3] = {0, 0, 0};
    check_load(&t, a, &m, c, 0);
    const char *why = NULL;
    ck_assert_int_eq(ptxemu_tensor_map_replace_address(&m, db, &why),
                     PTXEMU_SUCCESS);
    check_load(&t, b, &m, c, 0);
    ck_assert_int_eq(ptxemu_tensor_map_replace_address(&m, db + 8, &why),
                     PTXEMU_ERROR_INVALID_VALUE);
    ck_assert_ptr_nonnull(strstr(why, "16-byte"));
    /* the same map read from constant memory */
    ptxemu_devptr cmap = 0;
    size_t csize = 0;
    ck_assert_int_eq(ptxemu_module_get_global(mod, "cmap", &cmap, &csize),
                     PTXEMU_SUCCESS);
    ck_assert_uint_eq(csize, sizeof(m));
    ck_assert_int_eq(ptxemu_memcpy_htod(dev, cmap, &m, sizeof(m)),
                     PTXEMU_SUCCESS);
    uint32_t got[128];
    ptxemu_devptr out = dbuf(NULL, sizeof(got));
    int32_t c0 = 0, c1 = 0, c2 = 0;
    uint32_t nb = sizeof(got);
    void *params[] = {&m, &out, &c0, &c1, &c2, &nb};
    launch("tloadc", 1, 1, 0, params);
    dget(got, out, sizeof(got));
    ck_assert(memcmp(got, b, sizeof(got)) == 0);
    free(a);
    free(b);
}
END_TEST

Suite *e2e_tma_suite(void);

Suite *e2e_tma_suite(void)
{
    Suite *s = suite_create("e2e_tma");
    TCase *tc = tcase_create("tma");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, NULL, close_ptx);
    const TTest *tests[] = {
        e2e_bulk_copy_roundtrip, e2e_tma_2d, e2e_dependent_launch,
        e2e_hopper_misc, e2e_stmatrix_prefetch, e2e_tma_load_edges,
        e2e_tma_swizzle, e2e_tma_3d_strides, e2e_tma_5d,
        e2e_tma_store_clip,
        e2e_bulk_reduce_ops, e2e_bulk_cluster_forms,
        e2e_bulk_cluster_peers, e2e_multicast, e2e_bulk_faults,
        e2e_tma_faults, e2e_tma_replace_address,
    };
    for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
        tcase_add_test(tc, tests[i]);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(e2e_tma_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
