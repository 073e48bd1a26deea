/*
 * tests/check_cluster.c: thread-block clusters (sm_90): the cluster
 * special registers, barrier.cluster, mapa / getctarank / isspacep and
 * ld/st/atom/red on shared::cluster addresses (distributed shared
 * memory), launch-shape checks and faults, then the corpus kernels of
 * tests/corpus/cu/cluster.cu.
 *
 * References: the special registers against their PTX ISA definitions
 * computed on the host (%clusterid = %ctaid / cluster shape, %cluster_
 * ctaid = %ctaid mod shape, %cluster_ctarank x-fastest within the
 * cluster); data movement against hand-worked results (who receives
 * what in a ring, sums of 1..n); the corpus kernels against host C
 * versions of cluster.cu.
 */
#include <check.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/e2e_util.h"

#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n"

static void load(const char *src)
{
    ck_assert_int_eq(ptxemu_device_create(NULL, &dev), PTXEMU_SUCCESS);
    ptxemu_status st = ptxemu_module_load_string(dev, "cluster_test.ptx",
                                                 src, 0, &mod);
    ck_assert_msg(st == PTXEMU_SUCCESS, "load: %s",
                  ptxemu_last_error_message(dev));
}

static ptxemu_function *fn(const char *name)
{
    ptxemu_function *f = NULL;
    ck_assert_msg(ptxemu_module_get_function(mod, name, &f) ==
                  PTXEMU_SUCCESS, "no kernel %s", name);
    return f;
}

/* Launch with cluster shape c (NULL: none given); returns the status. */
static ptxemu_status run_ex(const char *name, const unsigned g[3],
                            const unsigned b[3], const unsigned *c,
                            int non_portable, void **params)
{
    ptxemu_launch_config cfg;
    ptxemu_launch_config_default(&cfg);
    memcpy(cfg.grid, g, sizeof(cfg.grid));
    memcpy(cfg.block, b, sizeof(cfg.block));
    if (c) {
        memcpy(cfg.cluster, c, sizeof(cfg.cluster));
    }
    cfg.non_portable_cluster = non_portable;
    return ptxemu_launch_ex(fn(name), &cfg, params);
}

static void run_ok(const char *name, const unsigned g[3],
                   const unsigned b[3], const unsigned *c, void **params)
{
    ptxemu_status st = run_ex(name, g, b, c, 0, params);
    ck_assert_msg(st == PTXEMU_SUCCESS, "%s: %s: %s", name,
                  ptxemu_status_name(st), ptxemu_last_error_message(dev));
    ck_assert_int_eq(ptxemu_synchronize(dev), PTXEMU_SUCCESS);
}

/* The launch fails with st and its message contains what. */
static void run_fails(const char *name, const unsigned g[3],
                      const unsigned b[3], const unsigned *c,
                      int non_portable, void **params, ptxemu_status st,
                      const char *what)
{
    ptxemu_status got = run_ex(name, g, b, c, non_portable, params);
    const char *msg = ptxemu_last_error_message(dev);
    ck_assert_msg(got == st, "%s: got %s, expected %s (%s)", name,
                  ptxemu_status_name(got), ptxemu_status_name(st), msg);
    ck_assert_msg(strstr(msg, what), "%s: message '%s' lacks '%s'", name,
                  msg, what);
    ptxemu_clear_error(dev);
    ptxemu_synchronize(dev);
}

/* ------------------------------------------------ special registers */

/* Thread 0 of each CTA writes 16 words at out + 64 * linear ctaid. */
static const char sregs_ptx[] = HDR
    ".visible .entry sregs(.param .u64 out)\n{\n"
    " .reg .pred %p<3>; .reg .b32 %r<40>; .reg .b64 %rd<4>;\n"
    " mov.u32 %r1, %tid.x; setp.ne.u32 %p1, %r1, 0; @%p1 bra DONE;\n"
    " mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ctaid.y; mov.u32 %r4, %ctaid.z;\n"
    " mov.u32 %r5, %nctaid.x; mov.u32 %r6, %nctaid.y;\n"
    " mad.lo.u32 %r7, %r6, %r4, %r3; mad.lo.u32 %r7, %r7, %r5, %r2;\n"
    " mul.wide.u32 %rd1, %r7, 64; ld.param.u64 %rd2, [out];\n"
    " add.u64 %rd2, %rd2, %rd1;\n"
    " mov.u32 %r10, %clusterid.x; st.global.u32 [%rd2], %r10;\n"
    " mov.u32 %r10, %clusterid.y; st.global.u32 [%rd2+4], %r10;\n"
    " mov.u32 %r10, %clusterid.z; st.global.u32 [%rd2+8], %r10;\n"
    " mov.u32 %r10, %nclusterid.x; st.global.u32 [%rd2+12], %r10;\n"
    " mov.u32 %r10, %nclusterid.y; st.global.u32 [%rd2+16], %r10;\n"
    " mov.u32 %r10, %nclusterid.z; st.global.u32 [%rd2+20], %r10;\n"
    " mov.u32 %r10, %cluster_ctaid.x; st.global.u32 [%rd2+24], %r10;\n"
    " mov.u32 %r10, %cluster_ctaid.y; st.global.u32 [%rd2+28], %r10;\n"
    " mov.u32 %r10, %cluster_ctaid.z; st.global.u32 [%rd2+32], %r10;\n"
    " mov.u32 %r10, %cluster_nctaid.x; st.global.u32 [%rd2+36], %r10;\n"
    " mov.u32 %r10, %cluster_nctaid.y; st.global.u32 [%rd2+40], %r10;\n"
    " mov.u32 %r10, %cluster_nctaid.z; st.global.u32 [%rd2+44], %r10;\n"
    " mov.u32 %r10, %cluster_ctarank; st.global.u32 [%rd2+48], %r10;\n"
    " mov.u32 %r10, %cluster_nctarank; st.global.u32 [%rd2+52], %r10;\n"
    " mov.pred %p2, %is_explicit_cluster; selp.u32 %r10, 1, 0, %p2;\n"
    " st.global.u32 [%rd2+56], %r10;\n"
    "DONE:\n ret;\n}\n"
    /* the same kernel's shape fixed by directives */
    ".visible .entry sregs_req(.param .u64 out)\n"
    ".explicitcluster\n.reqnctapercluster 2, 2\n{\n"
    " .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    " mov.u32 %r1, %ctaid.x; mov.u32 %r2, %nctaid.x; mov.u32 %r3, %ctaid.y;\n"
    " mad.lo.u32 %r1, %r3, %r2, %r1; mul.wide.u32 %rd1, %r1, 8;\n"
    " ld.param.u64 %rd2, [out]; add.u64 %rd2, %rd2, %rd1;\n"
    " mov.u32 %r1, %cluster_ctarank; mov.u32 %r2, %cluster_nctarank;\n"
    " st.global.v2.u32 [%rd2], {%r1, %r2};\n ret;\n}\n";

static void check_sregs(const unsigned g[3], const unsigned *cl)
{
    unsigned c[3] = {1, 1, 1};
    if (cl) {
        memcpy(c, cl, sizeof(c));
    }
    unsigned n = g[0] * g[1] * g[2];
    ptxemu_devptr out = dbuf(NULL, (size_t)n * 64);
    void *params[] = {&out};
    unsigned b[3] = {64, 1, 1};
    run_ok("sregs", g, b, cl, params);
    uint32_t *h = calloc(n, 64);
    ck_assert_ptr_nonnull(h);
    dget(h, out, (size_t)n * 64);
    unsigned nc = c[0] * c[1] * c[2];
    unsigned char *seen = calloc(n, 1);
    ck_assert_ptr_nonnull(seen);
    for (unsigned z = 0; z < g[2]; z++) {
        for (unsigned y = 0; y < g[1]; y++) {
            for (unsigned x = 0; x < g[0]; x++) {
                unsigned id[3] = {x, y, z};
                unsigned lin = x + g[0] * (y + g[1] * z);
                const uint32_t *o = &h[lin * 16];
                for (int d = 0; d < 3; d++) {
                    EQ_I("clusterid", lin, o[d], id[d] / c[d]);
                    EQ_I("nclusterid", lin, o[3 + d], g[d] / c[d]);
                    EQ_I("cluster_ctaid", lin, o[6 + d], id[d] % c[d]);
                    EQ_I("cluster_nctaid", lin, o[9 + d], c[d]);
                }
                unsigned rank = x % c[0] + c[0] * (y % c[1] + c[1] *
                                                   (z % c[2]));
                EQ_I("cluster_ctarank", lin, o[12], rank);
                EQ_I("cluster_nctarank", lin, o[13], nc);
                EQ_I("is_explicit_cluster", lin, o[14], cl != NULL);
                /* each (cluster, rank) pair names one CTA */
                unsigned cid = x / c[0] + g[0] / c[0] *
                    (y / c[1] + g[1] / c[1] * (z / c[2]));
                ck_assert_uint_eq(seen[cid * nc + rank], 0);
                seen[cid * nc + rank] = 1;
            }
        }
    }
    free(seen);
    free(h);
}

START_TEST(sregs_shapes)
{
    load(sregs_ptx);
    static const unsigned shapes[][6] = {
        {8, 1, 1, 4, 1, 1},        /* 1-D */
        {4, 6, 1, 2, 3, 1},        /* 2-D */
        {4, 4, 2, 2, 2, 2},        /* 3-D */
        {6, 2, 3, 3, 1, 1},
        {2, 2, 2, 1, 1, 1},        /* explicit clusters of one CTA */
    };
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        check_sregs(shapes[i], &shapes[i][3]);
    }
    unsigned g[3] = {3, 2, 1};
    check_sregs(g, NULL);           /* no clusters: each CTA alone */
    close_ptx();
}
END_TEST

START_TEST(sregs_directive)
{
    load(sregs_ptx);
    ptxemu_devptr out = dbuf(NULL, 8 * 8);
    void *params[] = {&out};
    unsigned g[3] = {4, 2, 1}, b[3] = {32, 1, 1};
    /* .reqnctapercluster 2, 2: plain ptxemu_launch gets that shape */
    ck_assert_int_eq(ptxemu_launch(fn("sregs_req"), g, b, 0, params),
                     PTXEMU_SUCCESS);
    uint32_t h[16];
    dget(h, out, sizeof(h));
    for (unsigned y = 0; y < 2; y++) {
        for (unsigned x = 0; x < 4; x++) {
            unsigned lin = x + 4 * y;
            EQ_I("rank", lin, h[2 * lin], x % 2 + 2 * (y % 2));
            EQ_I("nrank", lin, h[2 * lin + 1], 4);
        }
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------ ring exchange */

/* Each thread t of cluster rank r stores ctaid.x * 1000 + t into the
 * inbox of rank r + 1 (mod n) with st.shared::cluster; after the cluster
 * barrier it reports its own inbox, reads back through a generic mapa
 * address what it sent, and the rank that getctarank finds there, and
 * whether isspacep calls that address shared::cta / shared::cluster. */
static const char ring_ptx[] = HDR
    ".visible .entry ring(.param .u64 out)\n{\n"
    " .shared .align 4 .b32 inbox[64];\n"
    " .reg .pred %p<4>; .reg .b32 %r<30>; .reg .b64 %rd<12>;\n"
    " mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x;\n"
    " mov.u32 %r3, %cluster_ctarank; mov.u32 %r4, %cluster_nctarank;\n"
    " add.u32 %r5, %r3, 1; rem.u32 %r5, %r5, %r4;\n"
    " mov.u32 %r6, inbox; shl.b32 %r7, %r1, 2; add.u32 %r6, %r6, %r7;\n"
    " barrier.cluster.arrive.release.aligned;\n"
    " barrier.cluster.wait.acquire.aligned;\n"
    " mapa.shared::cluster.u32 %r8, %r6, %r5;\n"
    " mad.lo.u32 %r9, %r2, 1000, %r1;\n"
    " st.shared::cluster.u32 [%r8], %r9;\n"
    " barrier.cluster.arrive.aligned;\n"
    " barrier.cluster.wait.aligned;\n"
    " ld.shared.u32 %r10, [%r6];\n"
    " cvt.u64.u32 %rd1, %r6; cvta.shared.u64 %rd2, %rd1;\n"
    " mapa.u64 %rd3, %rd2, %r5;\n"
    " ld.u32 %r11, [%rd3];\n"
    " getctarank.u64 %r12, %rd3;\n"
    " isspacep.shared::cta %p1, %rd3; selp.u32 %r13, 1, 0, %p1;\n"
    " isspacep.shared::cluster %p2, %rd3; selp.u32 %r14, 1, 0, %p2;\n"
    " barrier.cluster.arrive.aligned;\n"
    " barrier.cluster.wait.aligned;\n"
    " mov.u32 %r15, %ntid.x; mad.lo.u32 %r16, %r2, %r15, %r1;\n"
    " mul.wide.u32 %rd4, %r16, 16; ld.param.u64 %rd5, [out];\n"
    " add.u64 %rd5, %rd5, %rd4;\n"
    " st.global.v4.u32 [%rd5], {%r10, %r11, %r12, %r14};\n"
    " shl.b32 %r13, %r13, 8; ld.global.u32 %r17, [%rd5+12];\n"
    " or.b32 %r17, %r17, %r13; st.global.u32 [%rd5+12], %r17;\n"
    " ret;\n}\n";

START_TEST(ring_exchange)
{
    load(ring_ptx);
    static const unsigned shapes[][2] = {{8, 4}, {6, 2}, {16, 8}, {3, 1}};
    for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
        unsigned G = shapes[s][0], N = shapes[s][1], T = 64;
        ptxemu_devptr out = dbuf(NULL, (size_t)G * T * 16);
        void *params[] = {&out};
        unsigned g[3] = {G, 1, 1}, b[3] = {T, 1, 1}, c[3] = {N, 1, 1};
        run_ok("ring", g, b, c, params);
        uint32_t *h = malloc((size_t)G * T * 16);
        ck_assert_ptr_nonnull(h);
        dget(h, out, (size_t)G * T * 16);
        for (unsigned cta = 0; cta < G; cta++) {
            unsigned r = cta % N, base = cta - r;
            unsigned from = base + (r + N - 1) % N;
            for (unsigned t = 0; t < T; t++) {
                const uint32_t *o = &h[(cta * T + t) * 4];
                unsigned i = cta * T + t;
                EQ_I("received", i, o[0], from * 1000 + t);
                EQ_I("sent", i, o[1], cta * 1000 + t);
                EQ_I("getctarank", i, o[2], (r + 1) % N);
                /* shared::cluster always; shared::cta only when the
                 * neighbour is this CTA (clusters of one) */
                EQ_I("isspacep", i, o[3], 1u | (N == 1 ? 1u << 8 : 0));
            }
        }
        free(h);
    }
    close_ptx();
}
END_TEST

/* ------------------------------------------------ atomics to rank 0 */

/* Every thread adds tid + 1 to rank 0's counter with atom, and 1 to its
 * second counter with red; after the barrier rank 0 reports both. */
static const char atom_ptx[] = HDR
    ".visible .entry tally(.param .u64 out)\n{\n"
    " .shared .align 8 .b32 cnt[2];\n"
    " .reg .pred %p<3>; .reg .b32 %r<20>; .reg .b64 %rd<8>;\n"
    " mov.u32 %r1, %tid.x; mov.u32 %r2, %cluster_ctarank;\n"
    " or.b32 %r3, %r1, %r2; setp.eq.u32 %p1, %r3, 0;\n"
    " mov.u32 %r4, 0;\n"
    " @%p1 st.shared.v2.u32 [cnt], {%r4, %r4};\n"
    " barrier.cluster.arrive; barrier.cluster.wait;\n"
    " mov.u32 %r5, cnt; mov.u32 %r6, 0;\n"
    " mapa.shared::cluster.u32 %r7, %r5, %r6;\n"
    " add.u32 %r8, %r1, 1;\n"
    " atom.shared::cluster.add.u32 %r9, [%r7], %r8;\n"
    " red.shared::cluster.add.u32 [%r7+4], 1;\n"
    " barrier.cluster.arrive; barrier.cluster.wait;\n"
    " @!%p1 bra DONE;\n"
    " ld.shared.v2.u32 {%r10, %r11}, [cnt];\n"
    " mov.u32 %r12, %clusterid.x; mul.wide.u32 %rd1, %r12, 8;\n"
    " ld.param.u64 %rd2, [out]; add.u64 %rd2, %rd2, %rd1;\n"
    " st.global.v2.u32 [%rd2], {%r10, %r11};\n"
    "DONE:\n ret;\n}\n";

START_TEST(atomics_to_rank0)
{
    load(atom_ptx);
    unsigned g[3] = {16, 1, 1}, b[3] = {96, 1, 1}, c[3] = {8, 1, 1};
    ptxemu_devptr out = dbuf(NULL, 2 * 8);
    void *params[] = {&out};
    run_ok("tally", g, b, c, params);
    uint32_t h[4];
    dget(h, out, sizeof(h));
    for (int k = 0; k < 2; k++) {
        /* 8 CTAs x (1 + 2 + ... + 96) and 8 x 96 */
        EQ_I("atom sum", k, h[2 * k], 8 * (96 * 97 / 2));
        EQ_I("red count", k, h[2 * k + 1], 8 * 96);
    }
    /* cooperative launch of the same clusters: all resident at once */
    ptxemu_launch_config cfg;
    ptxemu_launch_config_default(&cfg);
    memcpy(cfg.grid, g, sizeof(g));
    memcpy(cfg.block, b, sizeof(b));
    memcpy(cfg.cluster, c, sizeof(c));
    cfg.cooperative = 1;
    ptxemu_devptr out2 = dbuf(NULL, 2 * 8);
    params[0] = &out2;
    ck_assert_int_eq(ptxemu_launch_ex(fn("tally"), &cfg, params),
                     PTXEMU_SUCCESS);
    dget(h, out2, sizeof(h));
    EQ_I("coop atom sum", 1, h[2], 8 * (96 * 97 / 2));
    EQ_I("coop red count", 1, h[3], 8 * 96);
    close_ptx();
}
END_TEST

/* ------------------------------------------------ errors */

static const char bad_ptx[] = HDR
    /* warp 0 of rank 1 waits at bar.sync 1 for warp 1, which waits at
     * the cluster barrier for warp 0: nobody can move */
    ".visible .entry stuck()\n{\n"
    " .reg .pred %p<3>; .reg .b32 %r<4>;\n"
    " mov.u32 %r1, %cluster_ctarank; mov.u32 %r2, %tid.x;\n"
    " setp.eq.u32 %p1, %r1, 1; setp.lt.u32 %p2, %r2, 32;\n"
    " and.pred %p1, %p1, %p2;\n"
    " @%p1 bar.sync 1;\n"
    " @!%p1 barrier.cluster.arrive;\n"
    " @!%p1 barrier.cluster.wait;\n"
    " ret;\n}\n"
    /* mapa to rank %r = param */
    ".visible .entry badrank(.param .u32 rank)\n{\n"
    " .shared .align 4 .b32 v;\n"
    " .reg .b32 %r<4>;\n"
    " ld.param.u32 %r1, [rank]; mov.u32 %r2, v;\n"
    " mapa.shared::cluster.u32 %r3, %r2, %r1;\n"
    " ld.shared::cluster.u32 %r3, [%r3];\n ret;\n}\n"
    /* a hand-made shared::cluster address: rank field = param */
    ".visible .entry badfield(.param .u32 field)\n{\n"
    " .shared .align 4 .b32 v;\n"
    " .reg .b32 %r<5>;\n"
    " ld.param.u32 %r1, [field]; shl.b32 %r1, %r1, 24;\n"
    " mov.u32 %r2, v; or.b32 %r3, %r2, %r1;\n"
    " st.shared::cluster.u32 [%r3], %r1;\n ret;\n}\n"
    /* a shared::cluster address of another CTA used as shared::cta */
    ".visible .entry ctaspace()\n{\n"
    " .shared .align 4 .b32 v;\n"
    " .reg .b32 %r<5>;\n"
    " mov.u32 %r1, 1; mov.u32 %r2, v;\n"
    " mapa.shared::cluster.u32 %r3, %r2, %r1;\n"
    " ld.shared.u32 %r4, [%r3];\n ret;\n}\n"
    /* rank 1 and the upper lanes of rank 0 exit before the cluster
     * barrier: it waits for non-exited threads only */
    ".visible .entry early(.param .u64 out)\n{\n"
    " .reg .pred %p<3>; .reg .b32 %r<5>; .reg .b64 %rd<4>;\n"
    " mov.u32 %r1, %cluster_ctarank; mov.u32 %r2, %tid.x;\n"
    " setp.ne.u32 %p1, %r1, 0; @%p1 exit;\n"
    " setp.ge.u32 %p2, %r2, 16; @%p2 exit;\n"
    " barrier.cluster.arrive; barrier.cluster.wait;\n"
    " mov.u32 %r3, %ctaid.x; shl.b32 %r4, %r3, 5; add.u32 %r4, %r4, %r2;\n"
    " mul.wide.u32 %rd1, %r4, 4; ld.param.u64 %rd2, [out];\n"
    " add.u64 %rd2, %rd2, %rd1; st.global.u32 [%rd2], 1;\n ret;\n}\n"
    /* wait without arrive */
    ".visible .entry nowait()\n{\n"
    " barrier.cluster.wait;\n ret;\n}\n"
    ".visible .entry fixed()\n.reqnctapercluster 2\n{\n ret;\n}\n"
    ".visible .entry mustgive()\n.explicitcluster\n{\n ret;\n}\n";

START_TEST(cluster_deadlock)
{
    load(bad_ptx);
    unsigned g[3] = {4, 1, 1}, b[3] = {64, 1, 1}, c[3] = {2, 1, 1};
    run_fails("stuck", g, b, c, 0, NULL, PTXEMU_ERROR_DEADLOCK,
              "at the cluster barrier");
    /* exited threads do not hold the barrier back */
    unsigned g4[3] = {4, 1, 1};
    uint32_t h[4 * 64];
    ptxemu_devptr out = dbuf(NULL, sizeof(h));
    void *params[] = {&out};
    run_ok("early", g4, b, c, params);
    dget(h, out, sizeof(h));
    for (unsigned i = 0; i < 4 * 32; i++) {
        unsigned cta = i / 32, t = i % 32;
        EQ_I("early", i, h[i], cta % 2 == 0 && t < 16);
    }
    /* the device stays usable */
    g[0] = 2;
    run_fails("nowait", g, b, c, 0, NULL, PTXEMU_ERROR_ILLEGAL_INSTRUCTION,
              "has not executed barrier.cluster.arrive");
    close_ptx();
}
END_TEST

START_TEST(bad_shapes)
{
    load(bad_ptx);
    unsigned b[3] = {32, 1, 1};
    struct {
        unsigned g[3], c[3];
        int np;
        const char *fn, *what;
    } bad[] = {
        {{3, 1, 1}, {2, 1, 1}, 0, "nowait", "not a multiple"},
        {{4, 3, 1}, {2, 2, 1}, 0, "nowait", "not a multiple"},
        {{9, 1, 1}, {9, 1, 1}, 0, "nowait", "portable limit"},
        {{4, 4, 2}, {4, 2, 2}, 0, "nowait", "at most 8"},
        {{17, 1, 1}, {17, 1, 1}, 1, "nowait", "at most 16"},
        {{2, 1, 1}, {2, 0, 1}, 0, "nowait", "at least 1"},
        {{4, 1, 1}, {4, 1, 1}, 0, "fixed", ".reqnctapercluster"},
        {{4, 1, 1}, {0, 0, 0}, 0, "mustgive", ".explicitcluster"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        run_fails(bad[i].fn, bad[i].g, b, bad[i].c, bad[i].np, NULL,
                  PTXEMU_ERROR_LAUNCH_CONFIG, bad[i].what);
    }
    /* .reqnctapercluster 2 and a grid of 3 */
    unsigned g3[3] = {3, 1, 1};
    run_fails("fixed", g3, b, NULL, 0, NULL, PTXEMU_ERROR_LAUNCH_CONFIG,
              "not a multiple");
    /* 16 CTAs is allowed when non-portable sizes are */
    unsigned g16[3] = {8, 4, 1}, c16[3] = {4, 4, 1};
    ck_assert_int_eq(run_ex("fixed", g16, b, NULL, 0, NULL),
                     PTXEMU_SUCCESS);
    ck_assert_int_eq(run_ex("mustgive", g16, b, c16, 1, NULL),
                     PTXEMU_SUCCESS);
    /* a config struct shorter than the first version */
    ptxemu_launch_config cfg;
    ptxemu_launch_config_default(&cfg);
    cfg.size = 8;
    ck_assert_int_eq(ptxemu_launch_ex(fn("fixed"), &cfg, NULL),
                     PTXEMU_ERROR_INVALID_VALUE);
    /* an older caller's struct without the cluster fields: the kernel's
     * own shape applies */
    ptxemu_launch_config_default(&cfg);
    cfg.size = (uint32_t)offsetof(ptxemu_launch_config, cluster);
    cfg.grid[0] = 2;
    cfg.cluster[0] = 5;             /* beyond its size: never read */
    ck_assert_int_eq(ptxemu_launch_ex(fn("fixed"), &cfg, NULL),
                     PTXEMU_SUCCESS);
    close_ptx();
}
END_TEST

START_TEST(rank_out_of_range)
{
    load(bad_ptx);
    unsigned g[3] = {4, 1, 1}, b[3] = {32, 1, 1}, c[3] = {2, 1, 1};
    uint32_t rank = 1;
    void *params[] = {&rank};
    ck_assert_int_eq(run_ex("badrank", g, b, c, 0, params), PTXEMU_SUCCESS);
    rank = 2;
    run_fails("badrank", g, b, c, 0, params, PTXEMU_ERROR_ILLEGAL_ADDRESS,
              "mapa to CTA rank 2, outside the cluster of 2 CTA(s)");
    /* the message is located: file and line of the mapa */
    run_fails("badrank", g, b, c, 0, params, PTXEMU_ERROR_ILLEGAL_ADDRESS,
              "cluster_test.ptx:");
    uint32_t field = 2;             /* rank 1: in range */
    params[0] = &field;
    ck_assert_int_eq(run_ex("badfield", g, b, c, 0, params),
                     PTXEMU_SUCCESS);
    field = 3;                      /* rank 2 of a cluster of 2 */
    run_fails("badfield", g, b, c, 0, params, PTXEMU_ERROR_ILLEGAL_ADDRESS,
              "names CTA rank 2, outside the cluster of 2 CTA(s)");
    field = 200;
    run_fails("badfield", g, b, c, 0, params, PTXEMU_ERROR_ILLEGAL_ADDRESS,
              "outside the cluster");
    run_fails("ctaspace", g, b, c, 0, NULL, PTXEMU_ERROR_ILLEGAL_ADDRESS,
              "out-of-bounds read");
    close_ptx();
}
END_TEST

/* ------------------------------------------------ corpus kernels */

static void open_sm90(void)
{
    const char *top = getenv("top_srcdir");
    char path[1024];
    snprintf(path, sizeof(path), "%s/tests/corpus/ptx/cluster.sm90.ptx",
             top ? top : ".");
    ck_assert_int_eq(ptxemu_device_create(NULL, &dev), PTXEMU_SUCCESS);
    ptxemu_status st = ptxemu_module_load_file(dev, path, &mod);
    ck_assert_msg(st == PTXEMU_SUCCESS, "loading %s: %s", path,
                  ptxemu_last_error_message(dev));
}

START_TEST(corpus_exchange)
{
    open_sm90();
    enum { G = 6, T = 128 };
    int n = G * T - 37;
    int32_t in[G * T], out[G * T];
    rng_seed(11);
    for (int i = 0; i < G * T; i++) {
        in[i] = (int32_t)(rnd() % 100000) - 50000;
    }
    ptxemu_devptr din = dbuf(in, sizeof(in)), dout = dbuf(NULL, sizeof(out));
    void *params[] = {&din, &dout, &n};
    launch("cluster_exchange", G, T, 0, params);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < n; i++) {
        int b = i / T, t = i % T, peer = b ^ 1;
        int j = peer * T + (T - 1 - t);
        int v = j < n ? in[j] : 0;
        EQ_I("cluster_exchange", i, out[i], v * 2 + in[i] + 2);
    }
    close_ptx();
}
END_TEST

START_TEST(corpus_histogram)
{
    open_sm90();
    enum { G = 8, T = 64, N = 5000 };
    unsigned char data[N];
    uint32_t hist[32], ref[32] = {0};
    rng_seed(5);
    for (int i = 0; i < N; i++) {
        data[i] = (unsigned char)rnd();
        ref[data[i] & 31]++;
    }
    int n = N;
    ptxemu_devptr dd = dbuf(data, sizeof(data));
    ptxemu_devptr dh = dbuf(NULL, sizeof(hist));
    void *params[] = {&dd, &dh, &n};
    launch("cluster_histogram", G, T, 0, params);
    dget(hist, dh, sizeof(hist));
    for (int k = 0; k < 32; k++) {
        EQ_I("cluster_histogram", k, hist[k], ref[k]);
    }
    close_ptx();
}
END_TEST

START_TEST(corpus_sregs)
{
    open_sm90();
    enum { GX = 4, GY = 2 };
    uint32_t out[GX * GY * 8];
    ptxemu_devptr d = dbuf(NULL, sizeof(out));
    void *params[] = {&d};
    launch3("cluster_sregs", GX, GY, 32, 1, 0, params);
    dget(out, d, sizeof(out));
    for (unsigned y = 0; y < GY; y++) {
        for (unsigned x = 0; x < GX; x++) {
            unsigned g = x + GX * y;
            const uint32_t *o = &out[g * 8];
            unsigned rank = x % 2 + 2 * (y % 2);
            uint32_t exp[8] = {x / 2, GX / 2, x % 2, 2, rank, 4, 1, rank};
            for (int k = 0; k < 8; k++) {
                EQ_I("cluster_sregs", g * 8 + k, o[k], exp[k]);
            }
        }
    }
    close_ptx();
}
END_TEST

START_TEST(corpus_dsmem_asm)
{
    open_sm90();
    enum { G = 4, T = 128 };
    int32_t in[G * T], out[G * T];
    rng_seed(3);
    for (int i = 0; i < G * T; i++) {
        in[i] = (int32_t)(rnd() % 1000000);
    }
    ptxemu_devptr din = dbuf(in, sizeof(in)), dout = dbuf(NULL, sizeof(out));
    void *params[] = {&din, &dout};
    launch("cluster_dsmem_asm", G, T, 0, params);
    dget(out, dout, sizeof(out));
    for (int i = 0; i < G * T; i++) {
        /* the peer read slot[t] and stored it back plus one; owner is
         * the peer's rank */
        int owner = (i / T % 2) ^ 1;
        EQ_I("cluster_dsmem_asm", i, out[i], (in[i] + 1) * 16 + owner);
    }
    close_ptx();
}
END_TEST

START_TEST(corpus_dynamic)
{
    open_sm90();
    enum { G = 12, T = 32, NIN = 5 };
    float in[NIN], out[G];
    rng_seed(9);
    for (int i = 0; i < NIN; i++) {
        in[i] = rndf(-4.0f, 4.0f);
    }
    int n = NIN;
    ptxemu_devptr din = dbuf(in, sizeof(in)), dout = dbuf(NULL, sizeof(out));
    void *params[] = {&din, &dout, &n};
    static const unsigned cs[] = {1, 2, 3, 4, 6};
    unsigned g[3] = {G, 1, 1}, b[3] = {T, 1, 1};
    for (size_t s = 0; s < sizeof(cs) / sizeof(cs[0]); s++) {
        unsigned c[3] = {cs[s], 1, 1};
        run_ok("cluster_dynamic", g, b, c, params);
        dget(out, dout, sizeof(out));
        for (unsigned blk = 0; blk < G; blk++) {
            unsigned base = blk - blk % cs[s];
            float ref = 0.0f;
            for (unsigned r = 0; r < cs[s]; r++) {
                ref += in[(base + r) % NIN];
            }
            EQ_F("cluster_dynamic", blk, out[blk], ref);
        }
    }
    /* without cluster dimensions every CTA is its own cluster */
    launch("cluster_dynamic", G, T, 0, params);
    dget(out, dout, sizeof(out));
    for (unsigned blk = 0; blk < G; blk++) {
        EQ_F("cluster_dynamic unclustered", blk, out[blk], in[blk % NIN]);
    }
    close_ptx();
}
END_TEST

static Suite *cluster_suite(void)
{
    Suite *s = suite_create("cluster");
    TCase *tc = tcase_create("cluster");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, sregs_shapes);
    tcase_add_test(tc, sregs_directive);
    tcase_add_test(tc, ring_exchange);
    tcase_add_test(tc, atomics_to_rank0);
    tcase_add_test(tc, cluster_deadlock);
    tcase_add_test(tc, bad_shapes);
    tcase_add_test(tc, rank_out_of_range);
    tcase_add_test(tc, corpus_exchange);
    tcase_add_test(tc, corpus_histogram);
    tcase_add_test(tc, corpus_sregs);
    tcase_add_test(tc, corpus_dsmem_asm);
    tcase_add_test(tc, corpus_dynamic);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(cluster_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
