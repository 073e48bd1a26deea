/*
 * tests/check_gpu_coalesce.c: the `gpu` model's load/store unit parts,
 * against hand-computed tables.
 *
 *  - coalesce (timing/gpu/coalesce.c): the transactions of one warp's
 *    accesses under each rule: stride 1, 2, 32, broadcast, misaligned,
 *    reversed, 1-, 2-, 8- and 16-byte words, partial warps, and the CUDA
 *    C Programming Guide 3.2 Figure G-1 examples (4-byte words, one
 *    warp: aligned sequential, aligned permuted, misaligned sequential)
 *    for compute 1.2/1.3 and 2.x.
 *  - smem (timing/gpu/smem.c): bank-conflict wavefronts on 32 banks
 *    (multicast) and 16 banks per half-warp with one broadcast word
 *    (compute 1.x, the guide's G.3.3 examples), and constant-cache
 *    passes by distinct address.
 *  - isort (timing/lib/isort.c): the sort these parts use.
 * Each expected value is worked out in the comment beside it.
 */
#include <check.h>
#include <stdlib.h>

#include "tests/testutil.h"
#include "timing/gpu/coalesce.h"
#include "timing/gpu/smem.h"
#include "timing/lib/isort.h"

Suite *gpu_coalesce_suite(void);

/* Accesses of lanes [0, n): lane i reads `size` bytes at base + off[i]
 * (off NULL: base + i * stride). */
static uint32_t mk(ptxemu_tm_access *a, uint32_t n, uint64_t base,
                   uint64_t stride, uint32_t size, const uint64_t *off)
{
    for (uint32_t i = 0; i < n; i++) {
        a[i] = (ptxemu_tm_access){.addr = base + (off ? off[i] : i * stride),
                                  .size = size,
                                  .lane = (uint8_t)i,
                                  .space = PTXEMU_TM_SPACE_GLOBAL,
                                  .kind = PTXEMU_TM_READ};
    }
    return n;
}

/* Coalesce under rule and compare with want[0..nwant). */
static void expect(GpuCoalesceRule rule, const ptxemu_tm_access *a,
                   uint32_t n, const GpuTxn *want, size_t nwant)
{
    GpuTxn *out = NULL;
    size_t cap = 0;
    size_t got = gpu_coalesce(rule, a, n, &out, &cap);
    ck_assert_uint_eq(got, nwant);
    for (size_t i = 0; i < nwant; i++) {
        ck_assert_msg(out[i].addr == want[i].addr &&
                          out[i].size == want[i].size &&
                          out[i].sectors == want[i].sectors,
                      "txn %zu: got {%llu,%u,0x%x} want {%llu,%u,0x%x}", i,
                      (unsigned long long)out[i].addr, out[i].size,
                      out[i].sectors, (unsigned long long)want[i].addr,
                      want[i].size, want[i].sectors);
    }
    free(out);
}

#define EXPECT(rule, a, n, ...)                                          \
    do {                                                                 \
        const GpuTxn w_[] = {__VA_ARGS__};                               \
        expect(rule, a, n, w_, sizeof(w_) / sizeof(w_[0]));              \
    } while (0)

#define CC13 GPU_COALESCE_CC13
#define L128 GPU_COALESCE_LINE128
#define S32 GPU_COALESCE_SECTOR32

START_TEST(rule_names)
{
    ck_assert_int_eq(gpu_coalesce_rule("cc13"), GPU_COALESCE_CC13);
    ck_assert_int_eq(gpu_coalesce_rule("line128"), GPU_COALESCE_LINE128);
    ck_assert_int_eq(gpu_coalesce_rule("sector32"), GPU_COALESCE_SECTOR32);
    ck_assert_int_eq(gpu_coalesce_rule("sector"), -1);
    ck_assert_int_eq(gpu_coalesce_rule(""), -1);
    ck_assert_int_eq(gpu_coalesce_rule(NULL), -1);
}
END_TEST

START_TEST(empty)
{
    GpuTxn *out = NULL;
    size_t cap = 0;
    for (int r = 0; r < GPU_COALESCE_RULE_COUNT; r++) {
        ck_assert_uint_eq(gpu_coalesce((GpuCoalesceRule)r, NULL, 0, &out,
                                       &cap), 0);
    }
    free(out);
}
END_TEST

/* Programming Guide 3.2, Figure G-1, compute capability 1.2 and 1.3. */
START_TEST(cc13_guide_examples)
{
    ptxemu_tm_access a[32];
    /* aligned and sequential, 128..255: each half-warp uses one half of
     * the 128-byte segment at 128, reduced to 64 bytes */
    EXPECT(CC13, a, mk(a, 32, 128, 4, 4, NULL), {128, 64, 0x3},
           {192, 64, 0xC});
    /* aligned and non-sequential: the same words permuted inside each
     * half-warp give the same two transactions */
    uint64_t perm[32];
    for (uint32_t i = 0; i < 32; i++) {
        perm[i] = 4u * ((i & 16u) | ((i * 7u + 3u) & 15u));
    }
    EXPECT(CC13, a, mk(a, 32, 128, 0, 4, perm), {128, 64, 0x3},
           {192, 64, 0xC});
    /* misaligned and sequential, 132..259: the first half-warp spans
     * 132..195 (both halves of 128..255: 128 bytes); the second
     * 196..255 in segment 128 (upper half, and both its quarters: 64 at
     * 192) and lane 31's 256..259 (32 at 256) */
    EXPECT(CC13, a, mk(a, 32, 132, 4, 4, NULL), {128, 128, 0xF},
           {192, 64, 0xC}, {256, 32, 0x1});
}
END_TEST

START_TEST(cc13_strides)
{
    ptxemu_tm_access a[32];
    /* stride 2 words: a half-warp spans 0..123 / 128..251: 128 each */
    EXPECT(CC13, a, mk(a, 32, 0, 8, 4, NULL), {0, 128, 0xF},
           {128, 128, 0xF});
    /* stride 32 words: every lane its own segment, reduced to 32 */
    {
        GpuTxn w[32];
        for (uint32_t i = 0; i < 32; i++) {
            w[i] = (GpuTxn){128u * i, 32, 0x1};
        }
        expect(CC13, a, mk(a, 32, 0, 128, 4, NULL), w, 32);
    }
    /* broadcast of the word at 64: per half-warp 128 -> 64 at 64 -> 32
     * at 64 (sector 2 of line 0) */
    EXPECT(CC13, a, mk(a, 32, 64, 0, 4, NULL), {64, 32, 0x4},
           {64, 32, 0x4});
    /* reversed: lane i reads 124 - 4i; half-warp 0 uses 64..127, half-
     * warp 1 uses 0..63; order is by half-warp, then address */
    uint64_t rev[32];
    for (uint32_t i = 0; i < 32; i++) {
        rev[i] = 124u - 4u * i;
    }
    EXPECT(CC13, a, mk(a, 32, 0, 0, 4, rev), {64, 64, 0xC}, {0, 64, 0x3});
    /* random words inside one 64-byte segment, one half-warp (the 2.x
     * guide's "random float access within a 64B segment": one 64-byte
     * transaction) */
    uint64_t rnd[16];
    for (uint32_t i = 0; i < 16; i++) {
        rnd[i] = 4u * ((i * 5u + 11u) % 16u);
    }
    EXPECT(CC13, a, mk(a, 16, 256, 0, 4, rnd), {256, 64, 0x3});
}
END_TEST

START_TEST(cc13_word_sizes)
{
    ptxemu_tm_access a[32];
    /* 1-byte words: 32-byte segments; half-warps read 0..15 and 16..31,
     * both in the segment at 0 (32 bytes cannot shrink) */
    EXPECT(CC13, a, mk(a, 32, 0, 1, 1, NULL), {0, 32, 0x1}, {0, 32, 0x1});
    /* 2-byte words: 64-byte segments; 0..31 lower half, 32..63 upper */
    EXPECT(CC13, a, mk(a, 32, 0, 2, 2, NULL), {0, 32, 0x1}, {32, 32, 0x2});
    /* 8-byte words: a half-warp reads 128 bytes: one line each */
    EXPECT(CC13, a, mk(a, 32, 0, 8, 8, NULL), {0, 128, 0xF},
           {128, 128, 0xF});
    /* 16-byte words: a half-warp reads 256 bytes: two 128-byte
     * transactions each */
    EXPECT(CC13, a, mk(a, 32, 0, 16, 16, NULL), {0, 128, 0xF},
           {128, 128, 0xF}, {256, 128, 0xF}, {384, 128, 0xF});
    /* an 8-byte access across a line (misaligned, as reported): pieces
     * 124..127 and 128..131, each reduced to 32 bytes */
    EXPECT(CC13, a, mk(a, 1, 124, 0, 8, NULL), {96, 32, 0x8},
           {128, 32, 0x1});
}
END_TEST

START_TEST(cc13_partial)
{
    ptxemu_tm_access a[32];
    /* five lanes, 0..19: 128 -> 64 -> 32 at 0 */
    EXPECT(CC13, a, mk(a, 5, 0, 4, 4, NULL), {0, 32, 0x1});
    /* lanes 0 and 15 (one half-warp) at 0 and 124: the 128-byte
     * segment's both ends are used: no reduction */
    ptxemu_tm_access b[2];
    mk(b, 2, 0, 124, 4, NULL);
    b[1].lane = 15;
    EXPECT(CC13, b, 2, {0, 128, 0xF});
    /* lanes 0 and 16 at the same addresses: one per half-warp */
    b[1].lane = 16;
    EXPECT(CC13, b, 2, {0, 32, 0x1}, {96, 32, 0x8});
    /* only lane 20 at 200: the second half-warp, 32 at 192 */
    b[0] = (ptxemu_tm_access){.addr = 200, .size = 4, .lane = 20};
    EXPECT(CC13, b, 1, {192, 32, 0x4});
}
END_TEST

START_TEST(line128)
{
    ptxemu_tm_access a[32];
    /* Figure G-1, compute 2.x: aligned sequential one 128 at 128;
     * misaligned sequential two, at 128 and 256 */
    EXPECT(L128, a, mk(a, 32, 128, 4, 4, NULL), {128, 128, 0xF});
    EXPECT(L128, a, mk(a, 32, 132, 4, 4, NULL), {128, 128, 0xF},
           {256, 128, 0xF});
    /* stride 2 words: 256 bytes, two lines */
    EXPECT(L128, a, mk(a, 32, 0, 8, 4, NULL), {0, 128, 0xF},
           {128, 128, 0xF});
    /* stride 32 words: 32 lines */
    {
        GpuTxn w[32];
        for (uint32_t i = 0; i < 32; i++) {
            w[i] = (GpuTxn){128u * i, 128, 0xF};
        }
        expect(L128, a, mk(a, 32, 0, 128, 4, NULL), w, 32);
    }
    /* broadcast: one line */
    EXPECT(L128, a, mk(a, 32, 64, 0, 4, NULL), {0, 128, 0xF});
    /* 16-byte words: 512 bytes, four lines; lanes reversed: ascending */
    uint64_t rev[32];
    for (uint32_t i = 0; i < 32; i++) {
        rev[i] = 16u * (31u - i);
    }
    EXPECT(L128, a, mk(a, 32, 0, 0, 16, rev), {0, 128, 0xF},
           {128, 128, 0xF}, {256, 128, 0xF}, {384, 128, 0xF});
    /* partial warp: three lanes in one line */
    EXPECT(L128, a, mk(a, 3, 1000, 4, 4, NULL), {896, 128, 0xF});
}
END_TEST

START_TEST(sector32)
{
    ptxemu_tm_access a[32];
    /* misaligned sequential 132..259: line 128 all four sectors, line
     * 256 sector 0 */
    EXPECT(S32, a, mk(a, 32, 132, 4, 4, NULL), {128, 128, 0xF},
           {256, 128, 0x1});
    /* stride 16 words (64 bytes): sectors 0 and 2 of 16 lines */
    {
        GpuTxn w[16];
        for (uint32_t i = 0; i < 16; i++) {
            w[i] = (GpuTxn){128u * i, 128, 0x5};
        }
        expect(S32, a, mk(a, 32, 0, 64, 4, NULL), w, 16);
    }
    /* stride 8 words (32 bytes): every sector of 8 lines */
    {
        GpuTxn w[8];
        for (uint32_t i = 0; i < 8; i++) {
            w[i] = (GpuTxn){128u * i, 128, 0xF};
        }
        expect(S32, a, mk(a, 32, 0, 32, 4, NULL), w, 8);
    }
    /* broadcast of 64: sector 2 of line 0 */
    EXPECT(S32, a, mk(a, 32, 64, 0, 4, NULL), {0, 128, 0x4});
    /* 2-byte words at 96: 96..159, sector 3 of line 0, 0 of line 128 */
    EXPECT(S32, a, mk(a, 32, 96, 2, 2, NULL), {0, 128, 0x8},
           {128, 128, 0x1});
    /* a partial warp: lanes 0..1 at 40 and 72 (stride 32): sectors 1, 2 */
    EXPECT(S32, a, mk(a, 2, 40, 32, 4, NULL), {0, 128, 0x6});
    /* a 16-byte access at 120 (misaligned) spans two lines */
    EXPECT(S32, a, mk(a, 1, 120, 0, 16, NULL), {0, 128, 0x8},
           {128, 128, 0x1});
}
END_TEST

/* ------------------------------------------------------------ smem */

static const GpuBanks FERMI = {32, 4, 32, 0};
static const GpuBanks GT200 = {16, 4, 16, 1};

static uint32_t smem(const GpuBanks *b, uint32_t n, uint64_t base,
                     uint64_t stride, uint32_t size)
{
    ptxemu_tm_access a[32];
    mk(a, n, base, stride, size, NULL);
    for (uint32_t i = 0; i < n; i++) {
        a[i].space = PTXEMU_TM_SPACE_SHARED;
    }
    return gpu_smem_wavefronts(b, a, n);
}

/* Regular patterns: lanes [0, n) read `size` bytes at base + i*stride. */
static const struct {
    const GpuBanks *b;
    uint32_t n, base, stride, size, want;
    const char *why;
} smem_table[] = {
    /* stride s words on 32 banks: gcd(s, 32) lanes share each bank */
    {&FERMI, 32, 0, 4, 4, 1, "stride 1"},
    {&FERMI, 32, 0, 8, 4, 2, "stride 2"},
    {&FERMI, 32, 0, 12, 4, 1, "stride 3"},
    {&FERMI, 32, 0, 16, 4, 4, "stride 4"},
    {&FERMI, 32, 0, 64, 4, 16, "stride 16"},
    {&FERMI, 32, 0, 128, 4, 32, "stride 32"},
    {&FERMI, 32, 40, 0, 4, 1, "broadcast: one word for every lane"},
    {&FERMI, 32, 0, 8, 8, 2, "64-bit: 64 words over 32 banks, 2 each"},
    {&FERMI, 32, 0, 16, 16, 4, "128-bit: 128 words, 4 each"},
    {&FERMI, 32, 0, 1, 1, 1, "bytes: 8 words, 8 banks (multicast)"},
    {&FERMI, 8, 0, 128, 4, 8, "partial warp: 8 lanes at stride 32"},
    /* 16 banks per half-warp, one broadcast word per step */
    {&GT200, 32, 0, 4, 4, 2, "stride 1: one step per half-warp"},
    {&GT200, 32, 0, 8, 4, 4, "stride 2: 16 words over 8 banks: 2 + 2"},
    {&GT200, 32, 0, 64, 4, 32, "stride 16: one bank, 16 + 16 steps"},
    {&GT200, 32, 0, 0, 4, 2, "broadcast: one step per half-warp"},
    {&GT200, 32, 0, 8, 8, 4, "double shared[tid]: 2-way (guide G.3.3)"},
    /* char shared[tid]: 4 words of 4 lanes in banks 0..3; each step
     * takes the broadcast word of the lowest waiting lane and one
     * address of each other bank: served lanes {0-3,4,8,12},
     * {5-7,9,13}, {10,11,14}, {15}: 4 steps per half-warp */
    {&GT200, 32, 0, 1, 1, 8, "char shared[tid]: 4-way (guide G.3.3)"},
    {&GT200, 16, 0, 4, 4, 1, "one half-warp only"},
};

START_TEST(smem_patterns)
{
    const size_t n = sizeof(smem_table) / sizeof(smem_table[0]);
    for (size_t i = 0; i < n; i++) {
        uint32_t got = smem(smem_table[i].b, smem_table[i].n,
                            smem_table[i].base, smem_table[i].stride,
                            smem_table[i].size);
        ck_assert_msg(got == smem_table[i].want, "%s: got %u want %u",
                      smem_table[i].why, got, smem_table[i].want);
    }
}
END_TEST

START_TEST(smem_32banks)
{
    ck_assert_uint_eq(gpu_smem_wavefronts(&FERMI, NULL, 0), 0);
    /* lanes alternate between words 0 and 32 (both bank 0): 2; and a
     * third lane group on word 0 again adds nothing */
    ptxemu_tm_access a[32];
    for (uint32_t i = 0; i < 32; i++) {
        a[i] = (ptxemu_tm_access){.addr = (i % 3 == 1) ? 128 : 0, .size = 4,
                                  .lane = (uint8_t)i};
    }
    ck_assert_uint_eq(gpu_smem_wavefronts(&FERMI, a, 32), 2);
}
END_TEST

START_TEST(smem_gt200)
{
    /* lanes 0..7 on word 0, 8..15 on word 1: step 1 word 0 + lane 8,
     * step 2 word 1; with multicast on the same banks one pass */
    ptxemu_tm_access a[16];
    for (uint32_t i = 0; i < 16; i++) {
        a[i] = (ptxemu_tm_access){.addr = i < 8 ? 0 : 4, .size = 4,
                                  .lane = (uint8_t)i};
    }
    ck_assert_uint_eq(gpu_smem_wavefronts(&GT200, a, 16), 2);
    const GpuBanks multi16 = {16, 4, 16, 0};
    ck_assert_uint_eq(gpu_smem_wavefronts(&multi16, a, 16), 1);
}
END_TEST

START_TEST(const_passes)
{
    ptxemu_tm_access a[32];
    /* one address: one pass per group */
    mk(a, 32, 16, 0, 4, NULL);
    ck_assert_uint_eq(gpu_const_passes(32, a, 32), 1);
    ck_assert_uint_eq(gpu_const_passes(16, a, 32), 2);
    /* every lane its own word: 32 either way */
    mk(a, 32, 0, 4, 4, NULL);
    ck_assert_uint_eq(gpu_const_passes(32, a, 32), 32);
    ck_assert_uint_eq(gpu_const_passes(16, a, 32), 32);
    /* two addresses alternating: 2 per warp, 2 per half-warp */
    for (uint32_t i = 0; i < 32; i++) {
        a[i].addr = (i & 1) ? 256 : 0;
    }
    ck_assert_uint_eq(gpu_const_passes(32, a, 32), 2);
    ck_assert_uint_eq(gpu_const_passes(16, a, 32), 4);
    /* lanes 0..15 on 0, 16..31 on 8: 2 per warp, 1 + 1 per half */
    for (uint32_t i = 0; i < 32; i++) {
        a[i].addr = i < 16 ? 0 : 8;
    }
    ck_assert_uint_eq(gpu_const_passes(32, a, 32), 2);
    ck_assert_uint_eq(gpu_const_passes(16, a, 32), 2);
    /* partial warp of four distinct words */
    mk(a, 4, 0, 64, 4, NULL);
    ck_assert_uint_eq(gpu_const_passes(32, a, 4), 4);
    ck_assert_uint_eq(gpu_const_passes(32, a, 0), 0);
}
END_TEST

/* ------------------------------------------------------------ isort */

typedef struct KV {
    int key, seq;
} KV;

static int by_key(const void *a, const void *b)
{
    const KV *x = a, *y = b;
    return (x->key > y->key) - (x->key < y->key);
}

/* tm_isort, which these parts sort with: sorted, stable for short
 * arrays (keys i*7 % 5 repeat; seq records the original order), and
 * sorted through qsort for long ones. */
START_TEST(isort)
{
    KV a[70];
    for (size_t n = 0; n <= 70; n += 10) {
        for (int i = 0; i < (int)n; i++) {
            a[i] = (KV){(i * 7) % 5, i};
        }
        tm_isort(a, n, sizeof(a[0]), by_key);
        for (size_t i = 1; i < n; i++) {
            ck_assert_int_le(a[i - 1].key, a[i].key);
            if (n <= 64 && a[i - 1].key == a[i].key) {
                ck_assert_int_lt(a[i - 1].seq, a[i].seq);
            }
        }
    }
    /* every key 0..4 still there the right number of times */
    int count[5] = {0};
    for (int i = 0; i < 70; i++) {
        count[a[i].key]++;
    }
    for (int k = 0; k < 5; k++) {
        ck_assert_int_eq(count[k], 14);
    }
}
END_TEST

Suite *gpu_coalesce_suite(void)
{
    Suite *s = suite_create("gpu_coalesce");
    TCase *tc = tcase_create("coalesce");
    tcase_add_test(tc, rule_names);
    tcase_add_test(tc, empty);
    tcase_add_test(tc, cc13_guide_examples);
    tcase_add_test(tc, cc13_strides);
    tcase_add_test(tc, cc13_word_sizes);
    tcase_add_test(tc, cc13_partial);
    tcase_add_test(tc, line128);
    tcase_add_test(tc, sector32);
    suite_add_tcase(s, tc);
    tc = tcase_create("smem");
    tcase_add_test(tc, smem_patterns);
    tcase_add_test(tc, smem_32banks);
    tcase_add_test(tc, smem_gt200);
    tcase_add_test(tc, const_passes);
    tcase_add_test(tc, isort);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(gpu_coalesce_suite());
}
