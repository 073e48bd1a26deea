/*
 * tests/check_simt_trace.c: the per-instruction SIMT trace
 * (emu/simttrace.h, `--trace-simt`) and, through it, the worked examples
 * of the seed documents as exact (pc, active mask) sequences under both
 * reconvergence modes:
 *  - AFR section 3.1.1, Figs. 3.2-3.4 (the SIMT stack; seed digest 1.3):
 *    blocks A B C D E F G with masks 1111 1110 1000 0110 1110 0001 1111
 *    (the book prints lane 0 leftmost);
 *  - HANOI section VI-A, Fig. 3 (nested divergence): threads 3 and 2
 *    reconverge in E, all four in F;
 *  - HANOI section VI-B, Fig. 4 (early reconvergence), where this model
 *    and Turing differ (below);
 *  - the intra-warp spin lock of HANOI section VI-C, Fig. 5 and of the
 *    book's convergence-barrier walk-through (OCR-CN Fig. 3-11, seed
 *    digest 1.5), and its SIMT deadlock under IPDOM (AFR 3.1.2).
 * Each expected sequence is written by hand from the document's prose
 * (the figures' tables are not in the seeds), as a POSIX regular
 * expression over warp 0's "pc:mask " steps, with masks in hex, lane 0
 * the least significant bit; "( ... )+" stands for a spin iteration
 * repeated while the lock is held (how often depends on the scheduler's
 * quantum and EMU_ITS_QUIET, not on the document).
 */
#include <check.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/exec.h"
#include "emu/memory.h"
#include "tests/emutest.h"
#include "tests/testutil.h"

Suite *simt_trace_suite(void);

/* A device tracing into a memory stream. */
typedef struct Traced {
    EmuDevice *d;
    EmuModule *m;
    FILE *f;
    char *buf;
    size_t len;
} Traced;

static void traced_open(Traced *t, EmuReconvergence mode, const char *src)
{
    memset(t, 0, sizeof(*t));
    t->f = open_memstream(&t->buf, &t->len);
    ck_assert_ptr_nonnull(t->f);
    EmuConfig c;
    emu_config_default(&c);
    c.diverge_order = EMU_TAKEN_FIRST;  /* Hanoi's figures: taken first */
    c.watchdog_rounds = 50;
    c.reconvergence = mode;
    c.trace_simt = t->f;
    t->d = emu_device_new(&c);
    ck_assert_ptr_nonnull(t->d);
    t->m = mod_load(t->d, src);
}

static void traced_close(Traced *t)
{
    emu_module_free(t->m);
    emu_device_free(t->d);
    fclose(t->f);
    free(t->buf);
}

/* Warp 0 of CTA 0 of the trace as "pc:mask " steps (malloc'd), checking
 * every line's fields on the way. */
static char *warp0_steps(Traced *t)
{
    fflush(t->f);
    size_t cap = t->len * 2 + 16, o = 0;
    char *s = malloc(cap);
    ck_assert_ptr_nonnull(s);
    s[0] = 0;
    char *save = NULL, *copy = strdup(t->buf);
    ck_assert_ptr_nonnull(copy);
    ck_assert_msg(strncmp(copy, "# ptxemu simt trace 1\n", 22) == 0,
                  "header: %.40s", copy);
    for (char *ln = strtok_r(copy, "\n", &save); ln;
         ln = strtok_r(NULL, "\n", &save)) {
        if (ln[0] == '#') {
            continue;
        }
        unsigned long long g;
        unsigned cta, warp, pc, mask, exec, line;
        char fn[64], op[32];
        int n = sscanf(ln, "%llu %u %u %63s %u %x %x %u %31s", &g, &cta,
                       &warp, fn, &pc, &mask, &exec, &line, op);
        ck_assert_msg(n == 9, "trace line '%s'", ln);
        ck_assert_msg((exec & ~mask) == 0, "exec outside mask: '%s'", ln);
        ck_assert_uint_gt(line, 0);
        if (cta == 0 && warp == 0) {
            o += (size_t)snprintf(s + o, cap - o, "%u:%x ", pc, mask);
            ck_assert_uint_lt(o, cap);
        }
    }
    free(copy);
    return s;
}

static void expect_steps(Traced *t, const char *pattern)
{
    char *got = warp0_steps(t);
    regex_t re;
    ck_assert_int_eq(regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB), 0);
    int r = regexec(&re, got, 0, NULL, 0);
    regfree(&re);
    if (r != 0) {
        char shown[1024];
        snprintf(shown, sizeof(shown), "%s", got);
        free(got);
        ck_abort_msg("trace\n  %s\ndoes not match\n  %s", shown, pattern);
    }
    free(got);
}

/* Run `name` on one CTA of `block` threads with out[block] u32. */
static EmuStatus run_out(Traced *t, const char *name, uint32_t block,
                         uint32_t *res)
{
    uint64_t out = dev_alloc(t->d, 4 * block);
    void *args[] = { &out };
    EmuFault f;
    EmuStatus st = run_kernel(t->m, name, 1, block, args, &f);
    if (st == EMU_OK && res) {
        ck_assert_int_eq(emu_mem_read(t->d->mem, out, res, 4 * block),
                         EMU_OK);
    }
    return st;
}

#define STORE_AND_EXIT(first)                                             \
    "  ld.param.u64 %rd1, [out];\n"        /* first */                    \
    "  mul.wide.u32 %rd2, %r1, 4;\n"                                      \
    "  add.s64 %rd3, %rd1, %rd2;\n"                                       \
    "  st.global.u32 [%rd3], %r2;\n"                                      \
    "  exit;\n"                            /* first + 4 */                \
    "}\n"

#define REGS "  .reg .pred %p<4>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"

/* A kernel's start: %r1 = tid (pc 0), x = %r2 = 0 (pc 1). */
#define KERNEL_A(name)                                                    \
    ".visible .entry " name "(.param .u64 out)\n{\n" REGS                 \
    "  mov.u32 %r1, %tid.x;\n"                                            \
    "  mov.u32 %r2, 0;\n"

/* ------------------------------------------------- AFR Figs. 3.2-3.4 */

/* The book's CFG (seed digest 1.3) with the sense of its two branches
 * chosen so that, taken-first, the blocks run in the book's order
 * A B C D E F G (the book pushes F before B, and D before C): lanes 0-2
 * go to B, lane 3 to F; in B lane 0 goes to C, lanes 1-2 to D.  x gets
 * 1 in C, 2 in D, 3 in F. */
static const char afr_src[] = PTX_HDR
    KERNEL_A("afr")                        /* 0-1 A */
    "  setp.ne.u32 %p1, %r1, 3;\n"         /* 2 */
    "  @%p1 bra B;\n"                      /* 3  reconvergence: G */
    "  bra F;\n"                           /* 4 */
    "B:\n"
    "  setp.eq.u32 %p2, %r1, 0;\n"         /* 5  B */
    "  @%p2 bra C;\n"                      /* 6  reconvergence: E */
    "  bra D;\n"                           /* 7 */
    "C:\n"
    "  add.u32 %r2, %r2, 1;\n"             /* 8  C */
    "  bra E;\n"                           /* 9 */
    "D:\n"
    "  add.u32 %r2, %r2, 2;\n"             /* 10 D */
    "E:\n"
    "  bra G;\n"                           /* 11 E */
    "F:\n"
    "  add.u32 %r2, %r2, 3;\n"             /* 12 F */
    "G:\n"
    STORE_AND_EXIT(13);                    /* 13-17 G */

/* A(1111) B(1110) C(1000) D(0110) E(1110) F(0001) G(1111); D's path
 * starts with the fall-through `bra D` and F's with `bra F`. */
#define AFR_STEPS "^0:f 1:f 2:f 3:f 5:7 6:7 8:1 9:1 7:6 10:6 11:7 " \
    "4:8 12:8 13:f 14:f 15:f 16:f 17:f $"

/* Run `name` (4 threads, out[4]) in `mode`: the results must be `want`
 * and warp 0's steps must match `pattern`; the header names the launch
 * and the mode. */
static void walk(EmuReconvergence mode, const char *src, const char *name,
                 const uint32_t want[4], const char *pattern)
{
    Traced t;
    traced_open(&t, mode, src);
    uint32_t res[4];
    ck_assert_int_eq(run_out(&t, name, 4, res), EMU_OK);
    for (unsigned l = 0; l < 4; l++) {
        ck_assert_msg(res[l] == want[l], "%s lane %u: %u, want %u", name, l,
                      res[l], want[l]);
    }
    expect_steps(&t, pattern);
    char head[96];
    snprintf(head, sizeof(head), "# launch 1 kernel %s grid 1,1,1 block "
             "4,1,1 mode %s\n", name,
             mode == EMU_RECONV_ITS ? "its" : "ipdom");
    ck_assert_msg(strstr(t.buf, head) != NULL, "no '%s' in the trace", head);
    traced_close(&t);
}

static const uint32_t afr_want[4] = { 1, 2, 2, 3 };

/* ------------------------------------------- HANOI Fig. 3, VI-A */

/* A diverges (BSSY B0 = 1111): threads 3 and 2 to B, 0 and 1 to X.  B
 * diverges again (BSSY B0 = 1100, HANOI's MSB-left notation): thread 3
 * to C, thread 2 to D.  E reconverges threads 2 and 3 (BSYNC B0), F all
 * four.  The model's reconvergence points are those post-dominators, so
 * both modes run: A(1111) B(1100) C(1000) D(0100) E(1100) X(0011)
 * F(1111), the taken path first. */
static const char nested_src[] = PTX_HDR
    KERNEL_A("nested")                        /* 0-1 A */
    "  setp.ge.u32 %p1, %r1, 2;\n"         /* 2 */
    "  @%p1 bra B;\n"                      /* 3  reconvergence: F */
    "  add.u32 %r2, %r2, 10;\n"            /* 4  X */
    "  bra F;\n"                           /* 5 */
    "B:\n"
    "  setp.eq.u32 %p2, %r1, 3;\n"         /* 6  B */
    "  @%p2 bra C;\n"                      /* 7  reconvergence: E */
    "  add.u32 %r2, %r2, 2;\n"             /* 8  D */
    "  bra E;\n"                           /* 9 */
    "C:\n"
    "  add.u32 %r2, %r2, 3;\n"             /* 10 C */
    "E:\n"
    "  add.u32 %r2, %r2, 100;\n"           /* 11 E */
    "F:\n"
    STORE_AND_EXIT(12);                    /* 12-16 F */

static const uint32_t nested_want[4] = { 10, 10, 102, 103 };
#define NESTED_STEPS "^0:f 1:f 2:f 3:f 6:c 7:c 10:8 8:4 9:4 11:c 4:3 5:3 " \
    "12:f 13:f 14:f 15:f 16:f $"

/* ------------------------------------------- HANOI Fig. 4, VI-B */

/* A's immediate post-dominator is D, but threads 1-3 can meet earlier,
 * at B: threads 2 and 3 go from A to B, threads 0 and 1 to C, where
 * thread 1 (P1 true) goes on to B and thread 0 (P1 false: HANOI's BREAK
 * !P1 B0) to D.  On Turing ptxas puts a BSYNC B0 in B, so B runs once,
 * for threads 1-3 (1110): A(1111) C(0011) B(1110) D(1111) E(1111).  This
 * model reconverges only at immediate post-dominators (the BSYNC at the
 * IPDOM of each branch, emu/its.c), in both modes, so B runs twice, for
 * 1100 and then for 0010: A(1111) B(1100) C(0011) B(0010) D(1111) E; the
 * results are the same.  This is where a trace of ours differs from a
 * Turing trace by HANOI's metric. */
static const char early_src[] = PTX_HDR
    KERNEL_A("early")                        /* 0-1 A */
    "  setp.ge.u32 %p1, %r1, 2;\n"         /* 2 */
    "  @%p1 bra B;\n"                      /* 3  reconvergence: D */
    "  add.u32 %r2, %r2, 1;\n"             /* 4  C */
    "  setp.ne.u32 %p2, %r1, 0;\n"         /* 5 */
    "  @%p2 bra B;\n"                      /* 6  reconvergence: D */
    "  bra D;\n"                           /* 7 */
    "B:\n"
    "  add.u32 %r2, %r2, 10;\n"            /* 8  B */
    "D:\n"
    "  add.u32 %r2, %r2, 100;\n"           /* 9  D */
    STORE_AND_EXIT(10);                    /* 10-14 E */

static const uint32_t early_want[4] = { 101, 111, 110, 110 };
#define EARLY_STEPS "^0:f 1:f 2:f 3:f 8:c 4:3 5:3 6:3 8:2 7:1 9:f 10:f " \
    "11:f 12:f 13:f 14:f $"

/* The three structured walk-throughs, each in both modes (_i / 2: the
 * walk-through, _i % 2: IPDOM or ITS). */
static const struct {
    const char *name, *src, *steps;
    const uint32_t *want;
} walks[] = {
    { "afr", afr_src, AFR_STEPS, afr_want },
    { "nested", nested_src, NESTED_STEPS, nested_want },
    { "early", early_src, EARLY_STEPS, early_want },
};

START_TEST(walkthrough)
{
    unsigned k = (unsigned)_i / 2;
    walk(_i % 2 ? EMU_RECONV_ITS : EMU_RECONV_IPDOM, walks[k].src,
         walks[k].name, walks[k].want, walks[k].steps);
}
END_TEST

/* ------------------------------- spin lock: HANOI Fig. 5, OCR-CN 3-11 */

/* while (atomicCAS(mutex, 0, 1)); atomicAdd(counter, 1);
 * atomicExch(mutex, 0); with four threads.  CASes of one warp run in
 * ascending lane order, so thread 0 wins first, as in the book's
 * walk-through (HANOI's hardware had thread 3 win). */
static const char spin_src[] = PTX_HDR
    ".visible .entry spin(.param .u64 mutex, .param .u64 counter)\n{\n"
    REGS
    "  ld.param.u64 %rd1, [mutex];\n"      /* 0 */
    "  ld.param.u64 %rd2, [counter];\n"    /* 1 */
    "LOOP:\n"
    "  atom.global.cas.b32 %r1, [%rd1], 0, 1;\n"   /* 2  B: the loop */
    "  setp.ne.u32 %p1, %r1, 0;\n"         /* 3 */
    "  @%p1 bra LOOP;\n"                   /* 4  back edge (YIELD) */
    "  atom.global.add.u32 %r2, [%rd2], 1;\n"      /* 5  critical section */
    "  atom.global.exch.b32 %r3, [%rd1], 0;\n"     /* 6  release */
    "  ret;\n"                             /* 7 */
    "}\n";

static EmuStatus spin_run(Traced *t, uint32_t *count)
{
    uint64_t mu = dev_alloc(t->d, 4), cnt = dev_alloc(t->d, 4);
    void *args[] = { &mu, &cnt };
    EmuFault f;
    EmuStatus st = run_kernel(t->m, "spin", 1, 4, args, &f);
    ck_assert_int_eq(emu_mem_read(t->d->mem, cnt, count, 4), EMU_OK);
    return st;
}

/* ITS: the winner's lanes wait at the loop's post-dominator (pc 5)
 * while the losers spin (taken path first: HANOI Fig. 5's "threads 0, 1
 * and 2 jump to the beginning of the loop"); the back edge finds no
 * sibling that can run, and once the grid is quiet the winner goes on
 * alone (the book's Fig. 3-11(c): the spinning threads yielded, active
 * 1000), runs the critical section, releases the lock and leaves; the
 * spinners go on and the next lane wins (Fig. 3-11(d): t1).  Lanes win
 * in the order 0, 1, 2, 3; the last one does not diverge.
 *
 * One round: spinners M fail (the lock is held) at least once; winner W
 * runs pcs 5-7 between two of their instructions (the quiet grid is
 * noticed between scheduler quanta, so at any point of an iteration);
 * the spinners finish that iteration and the next one's CAS wins. */
#define SPIN_ITER(M) "2:" M " 3:" M " 4:" M " "
#define CS(W) "5:" W " 6:" W " 7:" W " "
#define ROUND(M, W) "(" SPIN_ITER(M) ")+(" CS(W) "|2:" M " " CS(W) "3:" M \
    " 4:" M " |2:" M " 3:" M " " CS(W) "4:" M " )" SPIN_ITER(M)

START_TEST(spinlock_its)
{
    Traced t;
    traced_open(&t, EMU_RECONV_ITS, spin_src);
    uint32_t count;
    ck_assert_int_eq(spin_run(&t, &count), EMU_OK);
    ck_assert_uint_eq(count, 4);
    expect_steps(&t, "^0:f 1:f 2:f 3:f 4:f " ROUND("e", "1") ROUND("c", "2")
                 ROUND("8", "4") CS("8") "$");
    traced_close(&t);
}
END_TEST

/* IPDOM: the same start, then the losers spin at the top of the stack
 * forever while the winner waits at the reconvergence point (AFR Fig.
 * 3.5, SIMT deadlock): the critical section never runs and the launch
 * ends as a deadlock. */
START_TEST(spinlock_ipdom_deadlock)
{
    Traced t;
    traced_open(&t, EMU_RECONV_IPDOM, spin_src);
    uint32_t count = 99;
    ck_assert_int_eq(spin_run(&t, &count), EMU_ERR_DEADLOCK);
    ck_assert_uint_eq(count, 0);
    expect_steps(&t, "^0:f 1:f 2:f 3:f 4:f (" SPIN_ITER("e") ")+(2:e (3:e )?)?$");
    traced_close(&t);
}
END_TEST

Suite *simt_trace_suite(void)
{
    Suite *s = suite_create("simt_trace");
    TCase *tc = tcase_create("walkthroughs");
    tcase_add_loop_test(tc, walkthrough, 0,
                        (int)(2 * sizeof(walks) / sizeof(walks[0])));
    tcase_add_test(tc, spinlock_its);
    tcase_add_test(tc, spinlock_ipdom_deadlock);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(simt_trace_suite());
}
