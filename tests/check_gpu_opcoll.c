/*
 * tests/check_gpu_opcoll.c: the operand collector (timing/gpu/opcoll.c)
 * cycle by cycle against hand-worked schedules.
 *
 *  - afr_naive: AFR Fig. 3.14 (one staging register, bank = reg % 4 for
 *    every warp, writebacks first): the bank rows of the figure.
 *  - afr_swizzled: AFR Fig. 3.17 (swizzled banks, collector units taking
 *    one operand a cycle): dispatches at cycles 2, 3, 4 (the figure's EU
 *    row one cycle later) and w0's r7 at cycle 6 behind the writeback.
 *  - age order, ports, duplicates and implicit slots, the output limit,
 *    the disabled mode's fixed latency, next() and the counters.
 */
#include <check.h>
#include <stdlib.h>

#include "tests/testutil.h"
#include "timing/gpu/opcoll.h"
#include "timing/ptxemu_timing.h"

Suite *gpu_opcoll_suite(void);

/* Run cycle `c` and require exactly the cookies want[0..n). */
static void expect_cycle(GpuOc *oc, uint64_t c, const uint64_t *want,
                         uint32_t n)
{
    uint64_t out[8];
    uint32_t got = gpu_oc_cycle(oc, c, out, 8);
    ck_assert_msg(got == n, "cycle %llu: %u dispatched, want %u",
                  (unsigned long long)c, got, n);
    for (uint32_t i = 0; i < n; i++) {
        ck_assert_msg(out[i] == want[i], "cycle %llu: #%u is %llu, want %llu",
                      (unsigned long long)c, i, (unsigned long long)out[i],
                      (unsigned long long)want[i]);
    }
}

#define CYCLE(oc, c, ...)                                                 \
    do {                                                                  \
        const uint64_t w_[] = {0, __VA_ARGS__};                           \
        expect_cycle(oc, c, w_ + 1, (uint32_t)(sizeof(w_) / 8 - 1));      \
    } while (0)

static void take(GpuOc *oc, uint32_t warp, const uint32_t *src, uint32_t n,
                 uint64_t cookie, uint64_t now)
{
    ck_assert_msg(gpu_oc_take(oc, warp, src, n, cookie, now),
                  "take %llu at %llu refused", (unsigned long long)cookie,
                  (unsigned long long)now);
}

/* AFR Fig. 3.14: i1 = mad r2,r5,r4,r6 (banks 1,0,2), i2 = add r5,r5,r1
 * (both bank 1).  The naive layout ignores the warp, so every warp is
 * passed as warp 0.  One staging register: one collector.
 *   cycle 1: w3 reads r5, r4, r6           -> w3:i1 dispatched
 *   cycle 2: w0 r5 (r1 waits: conflict 1)
 *   cycle 3: w0 r1; bank 2 w3:r2 WB        -> w0:i2 dispatched
 *   cycle 4: w1 r5 (r1 waits: conflict 2)
 *   cycle 5: bank 1 w0:r5 WB, w1 waits
 *   cycle 6: w1 r1                         -> w1:i2 dispatched */
START_TEST(afr_naive)
{
    const GpuOcConfig c = {.enabled = true, .banks = 4, .ports = 1,
                           .collectors = 1};
    GpuOc *oc = gpu_oc_new(&c);
    const uint32_t i1[] = {5, 4, 6}, i2[] = {5, 1}, r2[] = {2}, r5[] = {5};
    ck_assert_uint_eq(gpu_oc_next(oc), UINT64_MAX);
    take(oc, 0, i1, 3, 3, 0);
    ck_assert(!gpu_oc_can_take(oc));
    ck_assert(!gpu_oc_take(oc, 0, i2, 2, 0, 0));
    ck_assert_uint_eq(gpu_oc_next(oc), 1);
    CYCLE(oc, 1, 3);
    take(oc, 0, i2, 2, 0, 1);
    gpu_oc_writeback(oc, 0, r2, 1, 3);
    CYCLE(oc, 2);
    ck_assert_uint_eq(gpu_oc_next(oc), 3);
    CYCLE(oc, 3, 0);
    take(oc, 0, i2, 2, 1, 3);
    gpu_oc_writeback(oc, 0, r5, 1, 5);
    CYCLE(oc, 4);
    CYCLE(oc, 5);
    CYCLE(oc, 6, 1);
    ck_assert_uint_eq(gpu_oc_next(oc), UINT64_MAX);
    ck_assert_uint_eq(gpu_oc_conflicts(oc), 2);
    ck_assert_uint_eq(gpu_oc_reads(oc), 7);
    gpu_oc_free(oc);
}
END_TEST

/* AFR Fig. 3.17: i1 = add r1,r2,r5; i2 = mad r4,r3,r7,r1; bank =
 * (reg + warp) % 4; one operand per collector a cycle.
 *   cycle 1: w1 r2 (b3)
 *   cycle 2: w2 r2 (b0), w1 r5 (b2)        -> w1 dispatched
 *   cycle 3: w3 r2 (b1), w2 r5 (b3)        -> w2
 *   cycle 4: WB w1:r1 (b2); w3 r5 (b0), w0 r3 (b3) -> w3
 *   cycle 5: WB w2:r1 (b3); w0 r7 waits (conflict), w0 r1 (b1)
 *   cycle 6: WB w3:r1 (b0); w0 r7 (b3)     -> w0 */
START_TEST(afr_swizzled)
{
    const GpuOcConfig c = {.enabled = true, .banks = 4, .ports = 1,
                           .collectors = 4, .collector_reads = 1};
    GpuOc *oc = gpu_oc_new(&c);
    const uint32_t i1[] = {2, 5}, i2[] = {3, 7, 1}, r1[] = {1};
    take(oc, 1, i1, 2, 1, 0);
    CYCLE(oc, 1);
    take(oc, 2, i1, 2, 2, 1);
    CYCLE(oc, 2, 1);
    take(oc, 3, i1, 2, 3, 2);
    gpu_oc_writeback(oc, 1, r1, 1, 4);
    CYCLE(oc, 3, 2);
    take(oc, 0, i2, 3, 0, 3);
    gpu_oc_writeback(oc, 2, r1, 1, 5);
    CYCLE(oc, 4, 3);
    gpu_oc_writeback(oc, 3, r1, 1, 6);
    CYCLE(oc, 5);
    CYCLE(oc, 6, 0);
    ck_assert_uint_eq(gpu_oc_conflicts(oc), 1);
    ck_assert_uint_eq(gpu_oc_reads(oc), 9);
    gpu_oc_free(oc);
}
END_TEST

/* The oldest instruction wins a bank even from a higher-numbered
 * collector: P (collector 0, three reads of bank 0) and Q (collector 1,
 * bank 0) contend; P done at 3; R then takes collector 0 but is younger
 * than Q, so Q reads at 4 and R at 5. */
START_TEST(age_order)
{
    const GpuOcConfig c = {.enabled = true, .banks = 4, .ports = 1,
                           .collectors = 2};
    GpuOc *oc = gpu_oc_new(&c);
    const uint32_t p[] = {0, 4, 8}, q[] = {12}, r[] = {16};
    take(oc, 0, p, 3, 'P', 0);
    take(oc, 0, q, 1, 'Q', 1);
    ck_assert(!gpu_oc_can_take(oc));
    CYCLE(oc, 1);
    CYCLE(oc, 2);
    CYCLE(oc, 3, 'P');
    take(oc, 0, r, 1, 'R', 3);
    CYCLE(oc, 4, 'Q');
    CYCLE(oc, 5, 'R');
    /* conflicts: P's 4 and 8 at cycle 1, Q at 2; R at 4 */
    ck_assert_uint_eq(gpu_oc_conflicts(oc), 4);
    ck_assert_uint_eq(gpu_oc_reads(oc), 5);
    gpu_oc_free(oc);
}
END_TEST

START_TEST(ports_and_slots)
{
    /* two ports: two reads of bank 0 in one cycle, no conflict */
    const GpuOcConfig c2 = {.enabled = true, .banks = 4, .ports = 2,
                            .collectors = 2};
    GpuOc *oc = gpu_oc_new(&c2);
    const uint32_t two[] = {0, 4};
    take(oc, 0, two, 2, 7, 10);
    ck_assert_uint_eq(gpu_oc_next(oc), 11);
    CYCLE(oc, 11, 7);
    ck_assert_uint_eq(gpu_oc_conflicts(oc), 0);
    /* a slot named twice is read once; implicit slots read no bank; an
     * instruction with no bank reads dispatches the cycle after issue */
    const uint32_t dup[] = {5, 5, PTXEMU_TM_SLOT_CARRY};
    const uint32_t none[] = {PTXEMU_TM_SLOT_CARRY, PTXEMU_TM_SLOT_PARAM};
    take(oc, 0, dup, 3, 8, 11);
    take(oc, 0, none, 2, 9, 11);
    CYCLE(oc, 12, 8, 9);
    ck_assert_uint_eq(gpu_oc_reads(oc), 3);
    gpu_oc_free(oc);

    /* swizzle: slot 0 of warps 0..3 falls in banks 0..3: one cycle;
     * the same slot in one warp's four instructions: four cycles */
    const GpuOcConfig c1 = {.enabled = true, .banks = 4, .ports = 1,
                            .collectors = 4};
    oc = gpu_oc_new(&c1);
    const uint32_t s0[] = {0};
    for (uint32_t w = 0; w < 4; w++) {
        take(oc, w, s0, 1, w, 0);
    }
    CYCLE(oc, 1, 0, 1, 2, 3);
    for (uint32_t k = 0; k < 4; k++) {
        take(oc, 2, s0, 1, k, 1);
    }
    CYCLE(oc, 2, 0);
    CYCLE(oc, 3, 1);
    CYCLE(oc, 4, 2);
    CYCLE(oc, 5, 3);
    ck_assert_uint_eq(gpu_oc_conflicts(oc), 3);
    gpu_oc_free(oc);
}
END_TEST

START_TEST(output_limit)
{
    /* two done in the same cycle, room for one: the older goes, the
     * other keeps its collector and goes next cycle */
    const GpuOcConfig c = {.enabled = true, .banks = 4, .ports = 1,
                           .collectors = 2};
    GpuOc *oc = gpu_oc_new(&c);
    const uint32_t a[] = {0}, b[] = {1};
    take(oc, 0, a, 1, 'a', 0);
    take(oc, 0, b, 1, 'b', 0);
    uint64_t out[1];
    ck_assert_uint_eq(gpu_oc_cycle(oc, 1, out, 1), 1);
    ck_assert_uint_eq(out[0], 'a');
    ck_assert(gpu_oc_can_take(oc));
    take(oc, 0, a, 1, 'c', 1);
    ck_assert(!gpu_oc_can_take(oc));
    ck_assert_uint_eq(gpu_oc_next(oc), 2);
    CYCLE(oc, 2, 'b', 'c');
    gpu_oc_free(oc);
}
END_TEST

START_TEST(disabled)
{
    const GpuOcConfig c = {.enabled = false, .latency = 3, .collectors = 1};
    GpuOc *oc = gpu_oc_new(&c);
    const uint32_t s[] = {0, 4, PTXEMU_TM_SLOT_CARRY};
    for (uint64_t k = 0; k < 3; k++) {
        ck_assert(gpu_oc_can_take(oc));
        take(oc, 0, s, 3, 'a' + k, k < 2 ? 0 : 1);
    }
    ck_assert_uint_eq(gpu_oc_next(oc), 3);
    CYCLE(oc, 2);
    ck_assert_uint_eq(gpu_oc_next(oc), 3);
    uint64_t out[1];
    ck_assert_uint_eq(gpu_oc_cycle(oc, 3, out, 1), 1);
    ck_assert_uint_eq(out[0], 'a');
    ck_assert_uint_eq(gpu_oc_next(oc), 4);
    CYCLE(oc, 4, 'b', 'c');
    ck_assert_uint_eq(gpu_oc_next(oc), UINT64_MAX);
    ck_assert_uint_eq(gpu_oc_reads(oc), 6);
    ck_assert_uint_eq(gpu_oc_conflicts(oc), 0);
    /* latency 0: done in the cycle it is taken */
    gpu_oc_free(oc);
    const GpuOcConfig z = {.enabled = false, .latency = 0};
    oc = gpu_oc_new(&z);
    take(oc, 0, s, 1, 'z', 9);
    CYCLE(oc, 9, 'z');
    gpu_oc_free(oc);
}
END_TEST

Suite *gpu_opcoll_suite(void)
{
    Suite *s = suite_create("gpu_opcoll");
    TCase *tc = tcase_create("opcoll");
    tcase_add_test(tc, afr_naive);
    tcase_add_test(tc, afr_swizzled);
    tcase_add_test(tc, age_order);
    tcase_add_test(tc, ports_and_slots);
    tcase_add_test(tc, output_limit);
    tcase_add_test(tc, disabled);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(gpu_opcoll_suite());
}
