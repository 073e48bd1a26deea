/*
 * tests/check_memory.c: device memory, guest access checks, address
 * spaces and atomics.
 *
 *  - table: the allocation table (alignment, lookup, nearest, release,
 *    host copies and their bounds); an allocation over the limit takes
 *    no host memory.
 *  - faults: out-of-bounds, misaligned and read-only kernel accesses
 *    produce their status and a fault naming the kernel, CTA, thread,
 *    file:line, instruction, address and nearest allocation; the next
 *    launch in the same process succeeds.
 *  - spaces: generic shared/local windows, cvta and cvta.to, isspacep,
 *    .const and .global module variables (initialisers, relocations);
 *    scalar loads of every width extend per type to the register.
 *  - atomics: 64 lanes atom.add on one word (exact sum, old values in
 *    lane order), a CAS-based counter, and a table of (op, type) rows.
 */
#include <pthread.h>
#include <sys/resource.h>

#include "emu/shadow.h"
#include "tests/emutest.h"

Suite *memory_suite(void);

/* ----------------------------------------------------------- table */

START_TEST(alloc_table)
{
    EmuMemory *m = emu_mem_new();
    uint64_t a = emu_mem_alloc(m, 100, EMU_ALLOC_DEVICE, NULL);
    uint64_t b = emu_mem_alloc(m, 256, EMU_ALLOC_GLOBAL, "gv");
    uint64_t c = emu_mem_alloc(m, 1, EMU_ALLOC_DEVICE, NULL);
    ck_assert(a && b && c);
    ck_assert(a < b && b < c);
    ck_assert_uint_eq(a % 256, 0);
    ck_assert_uint_eq(b % 256, 0);
    ck_assert_uint_ge(b, a + 100 + 1);       /* a gap after each */
    ck_assert_uint_eq(emu_mem_used(m), 357);
    ck_assert_ptr_nonnull(emu_mem_find(m, a + 99, 1));
    ck_assert_ptr_null(emu_mem_find(m, a + 100, 1));
    ck_assert_ptr_null(emu_mem_find(m, a + 90, 20));
    ck_assert_ptr_null(emu_mem_find(m, a - 1, 1));
    ck_assert_uint_eq(emu_mem_find(m, b + 255, 1)->addr, b);
    ck_assert_uint_eq(emu_mem_nearest(m, a + 104)->addr, a);
    ck_assert_uint_eq(emu_mem_nearest(m, b - 4)->addr, b);
    ck_assert_uint_eq(emu_mem_nearest(m, 0)->addr, a);
    ck_assert_uint_eq(emu_mem_nearest(m, c + 4096)->addr, c);
    ck_assert_str_eq(emu_mem_nearest(m, b + 3)->name, "gv");
    uint8_t buf[300];
    memset(buf, 0xab, sizeof(buf));
    ck_assert_int_eq(emu_mem_write(m, b, buf, 256), EMU_OK);
    ck_assert_int_eq(emu_mem_write(m, b, buf, 257), EMU_ERR_INVALID_VALUE);
    ck_assert_int_eq(emu_mem_set(m, b + 8, 0, 8), EMU_OK);
    uint8_t back[16];
    ck_assert_int_eq(emu_mem_read(m, b, back, 16), EMU_OK);
    ck_assert_uint_eq(back[0], 0xab);
    ck_assert_uint_eq(back[8], 0);
    ck_assert_int_eq(emu_mem_read(m, c, back, 2), EMU_ERR_INVALID_VALUE);
    ck_assert_int_eq(emu_mem_release(m, b), EMU_OK);
    ck_assert_ptr_null(emu_mem_find(m, b, 1));
    ck_assert_int_eq(emu_mem_release(m, b), EMU_ERR_INVALID_VALUE);
    ck_assert_int_eq(emu_mem_release(m, a + 4), EMU_ERR_INVALID_VALUE);
    uint64_t d = emu_mem_alloc(m, 16, EMU_ALLOC_DEVICE, NULL);
    ck_assert(d > c);                        /* addresses never reused */
    ck_assert_uint_eq(emu_mem_used(m), 117);
    emu_mem_free(m);
}
END_TEST

/* An allocation the limit refuses (emu_mem_set_limit, --mem-bytes) is
 * refused before any host memory is taken for it: a managed block's
 * bytes are zeroed when made, so making them first would touch all of
 * a request the limit turns down (a program probing for the largest
 * allocation it can get would then exhaust the host).  The high-water
 * mark of this process's resident memory must not grow by the 96 MiB
 * asked for. */
/* Host bytes start on a 256-byte boundary as the device address does,
 * small (heap) and large (a mapping of its own) alike, zeroed, and are
 * released with their allocation. */
START_TEST(alloc_host_bytes_aligned)
{
    EmuMemory *m = emu_mem_new();
    uint64_t sizes[] = {1, 100, 4096 + 12, (1u << 20) - 256, 1u << 20,
                        (3u << 20) + 40};
    for (unsigned i = 0; i < sizeof(sizes) / sizeof(*sizes); i++) {
        uint64_t a = emu_mem_alloc(m, sizes[i], EMU_ALLOC_DEVICE, NULL);
        ck_assert(a);
        const EmuAlloc *e = emu_mem_find(m, a, 1);
        ck_assert_ptr_nonnull(e);
        ck_assert_uint_eq((uintptr_t)e->host % 256, 0);
        ck_assert_uint_eq(e->mapped, sizes[i] >= (1u << 20)); /* 1 MiB up */
        uint64_t span = emu_mem_host_span(sizes[i]);
        for (uint64_t o = 0; o < span; o += 4093) {
            ck_assert_uint_eq(e->host[o], 0);
        }
        ck_assert_uint_eq(e->host[span - 1], 0);
        e->host[span - 1] = 0xa5;          /* all of the span is ours */
        ck_assert_int_eq(emu_mem_release(m, a), EMU_OK);
    }
    emu_mem_free(m);
}
END_TEST

START_TEST(alloc_over_limit_takes_nothing)
{
    EmuMemory *m = emu_mem_new();
    emu_mem_set_limit(m, 1u << 20);
    uint64_t a = emu_mem_alloc(m, 512u << 10, EMU_ALLOC_DEVICE, NULL);
    ck_assert(a);
    struct rusage before, after;
    ck_assert_int_eq(getrusage(RUSAGE_SELF, &before), 0);
    const uint64_t big = 96ull << 20;
    ck_assert_uint_eq(emu_mem_alloc(m, big, EMU_ALLOC_MANAGED, NULL), 0);
    ck_assert_uint_eq(emu_mem_alloc_concurrent(m, big, EMU_ALLOC_MANAGED),
                      0);
    /* within the limit alone, but not beside what is used */
    ck_assert_uint_eq(emu_mem_alloc(m, 768u << 10, EMU_ALLOC_MANAGED, NULL),
                      0);
    ck_assert_int_eq(getrusage(RUSAGE_SELF, &after), 0);
    long grown_kb = after.ru_maxrss - before.ru_maxrss;
    ck_assert_msg(grown_kb < 32 * 1024, "refused allocations touched %ld "
                  "KiB of host memory", grown_kb);
    ck_assert_uint_eq(emu_mem_used(m), 512u << 10);
    emu_mem_free(m);
}
END_TEST

/* ---------------------------------------------------------- faults */

static const char fault_src[] = PTX_HDR
    ".const .align 4 .u32 cv[2] = { 11, 22 };\n"
    ".visible .entry oob(.param .u64 p, .param .u32 off)\n"
    "{\n"
    "  .reg .pred %p<3>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  ld.param.u32 %r1, [off];\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  mov.u32 %r3, %ctaid.x;\n"
    "  setp.eq.u32 %p1, %r2, 5;\n"
    "  setp.eq.and.u32 %p2, %r3, 1, %p1;\n"
    "  selp.u32 %r4, %r1, 0, %p2;\n"
    "  mad.lo.u32 %r5, %r2, 4, %r4;\n"
    "  cvt.u64.u32 %rd2, %r5;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r2;\n"        /* line 20 */
    "}\n"
    ".visible .entry mis(.param .u64 p)\n"
    "{\n"
    "  .reg .b32 %r<2>;\n"
    "  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  ld.global.u32 %r1, [%rd1+2];\n"      /* line 27 */
    "}\n"
    ".visible .entry ro(.param .u64 p)\n"
    "{\n"
    "  .reg .b32 %r<3>;\n"
    "  .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  ld.const.u32 %r1, [cv+4];\n"
    "  st.global.u32 [%rd1], %r1;\n"
    "  mov.u64 %rd2, cv;\n"
    "  st.u32 [%rd2], 5;\n"                 /* line 37: generic -> const */
    "}\n"
    /* a write right after a read of the same .const variable: the read
     * leaves the variable as the launch's last allocation hit */
    ".visible .entry ro2(.param .u64 p)\n"
    "{\n"
    "  .reg .b32 %r<3>;\n"
    "  .reg .b64 %rd<3>;\n"
    "  mov.u64 %rd2, cv;\n"
    "  ld.u32 %r1, [%rd2];\n"
    "  st.u32 [%rd2+4], %r1;\n"            /* line 45 */
    "}\n";

static EmuStatus launch_text(EmuModule *m, const char *name, uint32_t grid,
                             uint32_t block, void **args, EmuFault *f,
                             char *text, size_t ntext)
{
    EmuFunc *k = emu_module_kernel(m, name);
    ck_assert(k != NULL);
    uint32_t g[3] = { grid, 1, 1 }, b[3] = { block, 1, 1 };
    EmuLaunch *l;
    EmuStatus st = emu_launch_begin(m, k, g, b, 0, args, &l);
    ck_assert_int_eq(st, EMU_OK);
    st = emu_launch_run(l);
    *f = l->fault;
    snprintf(text, ntext, "%s", l->fault_text);
    emu_launch_end(l);
    return st;
}

/* Changes beside a running kernel (emu/memory.h): an allocation made
 * with emu_mem_alloc_concurrent or under emu_mem_beside goes into a copy
 * of the table, so a lookup's entry from before stays readable (its
 * table is kept until emu_mem_reclaim) and both allocations are found
 * after; a release under emu_mem_beside takes the entry out (not found,
 * bytes no longer used); observers make the concurrent allocation
 * refuse. */
static void count_event(void *ctx, uint64_t addr, uint64_t size,
                        EmuAllocKind kind, bool alloc)
{
    (void)addr, (void)size, (void)kind, (void)alloc;
    ++*(int *)ctx;
}

START_TEST(alloc_beside_kernels)
{
    EmuMemory *m = emu_mem_new();
    uint64_t a = emu_mem_alloc(m, 100, EMU_ALLOC_DEVICE, NULL);
    ck_assert_uint_ne(a, 0);
    const EmuAlloc *before = emu_mem_find(m, a, 4);
    ck_assert_ptr_nonnull(before);
    uint64_t b = emu_mem_alloc_concurrent(m, 200, EMU_ALLOC_DEVICE);
    uint64_t c = emu_mem_alloc_concurrent(m, 8, EMU_ALLOC_MANAGED);
    ck_assert_uint_ne(b, 0);
    ck_assert_uint_ne(c, 0);
    /* the old table's entry, still readable: the same allocation */
    ck_assert_uint_eq(before->addr, a);
    ck_assert_uint_eq(before->size, 100);
    ck_assert_ptr_nonnull(emu_mem_find(m, a, 100));
    ck_assert_ptr_nonnull(emu_mem_find(m, b, 200));
    ck_assert_ptr_nonnull(emu_mem_find(m, c, 8));
    ck_assert_uint_eq(emu_mem_used(m), 308);
    emu_mem_beside(true);
    uint64_t d = emu_mem_alloc(m, 16, EMU_ALLOC_GLOBAL, "v");
    ck_assert_uint_ne(d, 0);
    ck_assert_int_eq(emu_mem_release(m, d), EMU_OK);
    ck_assert_int_eq(emu_mem_release(m, c), EMU_OK);
    ck_assert_int_eq(emu_mem_release(m, c), EMU_ERR_INVALID_VALUE);
    emu_mem_beside(false);
    ck_assert_ptr_null(emu_mem_find(m, d, 1));
    ck_assert_ptr_null(emu_mem_find(m, c, 1));
    ck_assert_uint_eq(emu_mem_used(m), 300);
    emu_mem_reclaim(m);
    ck_assert_ptr_nonnull(emu_mem_find(m, b, 200));
    int events = 0;
    emu_mem_observe(m, count_event, &events);
    ck_assert_uint_eq(emu_mem_alloc_concurrent(m, 8, EMU_ALLOC_DEVICE), 0);
    ck_assert_uint_ne(emu_mem_alloc(m, 8, EMU_ALLOC_DEVICE, NULL), 0);
    ck_assert_int_eq(events, 1);
    emu_mem_observe(m, NULL, NULL);
    emu_mem_free(m);
}
END_TEST

/* A loader beside a running kernel (emu_mem_beside: a module loaded
 * while a launch holds the device lock) writes its variables'
 * initialisers with emu_mem_write while the kernel's device malloc and
 * free change the table in place (they exclude only each other, through
 * the table's lock: a realloc that moves the table, a memmove under the
 * search).  Here a "kernel" thread frees 20000 blocks below the
 * loader's variable and mallocs as many above it, growing the table
 * past the size glibc serves by mmap (its realloc then moves it), while
 * the loader writes and reads the variable: every write and read must
 * find it (before, a lookup read the moved or shifting table: a crash
 * within milliseconds). */
enum { BESIDE_N = 20000 };

typedef struct Beside {
    EmuMemory *m;
    uint64_t *pre;
    volatile int done;
} Beside;

static void *beside_kernel(void *p)
{
    Beside *b = p;
    for (int i = 0; i < BESIDE_N; i++) {
        ck_assert_int_eq(emu_mem_release(b->m, b->pre[i]), EMU_OK);
        ck_assert_uint_ne(emu_mem_alloc(b->m, 16, EMU_ALLOC_HEAP, NULL), 0);
    }
    __atomic_store_n(&b->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

START_TEST(write_beside_kernel_changes)
{
    Beside b = { emu_mem_new(), malloc(BESIDE_N * sizeof(uint64_t)), 0 };
    ck_assert_ptr_nonnull(b.pre);
    for (int i = 0; i < BESIDE_N; i++) {
        b.pre[i] = emu_mem_alloc(b.m, 16, EMU_ALLOC_DEVICE, NULL);
        ck_assert_uint_ne(b.pre[i], 0);
    }
    uint64_t v = emu_mem_alloc(b.m, 64, EMU_ALLOC_GLOBAL, "v");
    ck_assert_uint_ne(v, 0);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, beside_kernel, &b), 0);
    emu_mem_beside(true);
    uint64_t n = 0, bad = 0, x = 0;
    while (!__atomic_load_n(&b.done, __ATOMIC_ACQUIRE)) {
        bad += emu_mem_write(b.m, v + 8, &n, sizeof(n)) != EMU_OK;
        bad += emu_mem_read(b.m, v + 8, &x, sizeof(x)) != EMU_OK || x != n;
        n++;
    }
    emu_mem_beside(false);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    ck_assert_msg(bad == 0, "%llu of %llu writes or reads beside the "
                  "kernel's changes failed", (unsigned long long)bad,
                  (unsigned long long)n);
    emu_mem_free(b.m);
    free(b.pre);
}
END_TEST

START_TEST(fault_out_of_bounds)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, fault_src);
    uint64_t buf = dev_alloc(d, 64 * 4);
    uint32_t off = 4096;
    void *args[] = { &buf, &off };
    EmuFault f;
    char text[512];
    EmuStatus st = launch_text(m, "oob", 2, 64, args, &f, text,
                               sizeof(text));
    ck_assert_int_eq(st, EMU_ERR_ILLEGAL_ADDRESS);
    ck_assert_int_eq(f.status, EMU_ERR_ILLEGAL_ADDRESS);
    ck_assert_str_eq(f.kernel, "oob");
    ck_assert_str_eq(f.file, "t.ptx");
    ck_assert_uint_eq(f.ctaid[0], 1);
    ck_assert_uint_eq(f.tid[0], 5);
    ck_assert_uint_eq(f.loc.line, 20);
    ck_assert_uint_eq(f.addr, buf + 5 * 4 + 4096);
    ck_assert_uint_eq(f.size, 4);
    ck_assert_int_eq(f.space, PTX_SPACE_GLOBAL);
    ck_assert_msg(strstr(f.detail, "nearest allocation: device allocation")
                  && strstr(f.detail, "3860 bytes past its end"),
                  "detail: %s", f.detail);
    ck_assert_msg(strstr(text, "st.global.u32") != NULL, "text: %s", text);
    ck_assert(d->has_fault);
    /* memory stays usable and the next launch works */
    off = 0;
    ck_assert_int_eq(run_kernel(m, "oob", 2, 64, args, NULL), EMU_OK);
    uint32_t res[64];
    emu_mem_read(d->mem, buf, res, sizeof(res));
    for (uint32_t t = 0; t < 64; t++) {
        ck_assert_uint_eq(res[t], t);
    }
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

START_TEST(fault_misaligned_readonly)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, fault_src);
    uint64_t buf = dev_alloc(d, 64);
    void *args[] = { &buf };
    EmuFault f;
    char text[512];
    ck_assert_int_eq(launch_text(m, "mis", 1, 1, args, &f, text,
                                 sizeof(text)), EMU_ERR_MISALIGNED);
    ck_assert_uint_eq(f.loc.line, 27);
    ck_assert_uint_eq(f.addr, buf + 2);
    ck_assert_ptr_nonnull(strstr(f.detail, "misaligned"));
    ck_assert_int_eq(launch_text(m, "ro", 1, 1, args, &f, text,
                                 sizeof(text)), EMU_ERR_READ_ONLY);
    ck_assert_uint_eq(f.loc.line, 37);
    ck_assert_msg(strstr(f.detail, ".const variable 'cv'") != NULL,
                  "detail: %s", f.detail);
    uint32_t v;
    emu_mem_read(d->mem, buf, &v, 4);
    ck_assert_uint_eq(v, 22);
    /* the host may write .const variables */
    uint64_t size;
    uint64_t cv = emu_module_global(m, "cv", &size);
    ck_assert(cv != 0);
    ck_assert_uint_eq(size, 8);
    uint32_t nv[2] = { 1, 99 };
    ck_assert_int_eq(emu_mem_write(d->mem, cv, nv, 8), EMU_OK);
    ck_assert_int_eq(launch_text(m, "ro", 1, 1, args, &f, text,
                                 sizeof(text)), EMU_ERR_READ_ONLY);
    emu_mem_read(d->mem, buf, &v, 4);
    ck_assert_uint_eq(v, 99);
    ck_assert_int_eq(launch_text(m, "ro2", 1, 32, args, &f, text,
                                 sizeof(text)), EMU_ERR_READ_ONLY);
    ck_assert_uint_eq(f.loc.line, 45);
    ck_assert_uint_eq(f.addr, cv + 4);
    ck_assert_uint_eq(f.tid[0], 0);
    ck_assert_msg(strstr(f.detail, ".const variable 'cv'") != NULL,
                  "detail: %s", f.detail);
    emu_mem_read(d->mem, cv, nv, 8);
    ck_assert_uint_eq(nv[0], 1);
    ck_assert_uint_eq(nv[1], 99);
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* ---------------------------------------------------------- spaces */

static const char space_src[] = PTX_HDR
    ".global .align 4 .u32 garr[4] = { 1, 2, 3, 4 };\n"
    ".global .align 8 .u64 gptr = generic(garr);\n"
    ".visible .entry sp(.param .u64 out)\n"
    "{\n"
    "  .shared .align 4 .b8 sbuf[256];\n"
    "  .local .align 4 .b8 lbuf[16];\n"
    "  .reg .pred %p<4>;\n"
    "  .reg .b32 %r<12>;\n"
    "  .reg .b64 %rd<16>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  cvta.shared.u64 %rd3, sbuf;\n"
    "  add.s64 %rd4, %rd3, %rd2;\n"
    "  add.u32 %r2, %r1, 1;\n"
    "  st.u32 [%rd4], %r2;\n"               /* generic store to shared */
    "  bar.sync 0;\n"
    "  cvta.to.shared.u64 %rd5, %rd4;\n"
    "  ld.shared.u32 %r3, [%rd5];\n"        /* = tid + 1 */
    "  isspacep.shared %p1, %rd4;\n"
    "  isspacep.global %p2, %rd4;\n"
    "  selp.u32 %r4, 1, 0, %p1;\n"
    "  selp.u32 %r5, 1, 0, %p2;\n"
    "  mov.u64 %rd6, lbuf;\n"
    "  cvta.local.u64 %rd7, %rd6;\n"
    "  mul.lo.u32 %r6, %r1, 3;\n"
    "  st.u32 [%rd7+8], %r6;\n"             /* generic store to local */
    "  ld.local.u32 %r7, [lbuf+8];\n"       /* = 3 * tid */
    "  isspacep.local %p3, %rd7;\n"
    "  selp.u32 %r8, 1, 0, %p3;\n"
    "  ld.global.u64 %rd8, [gptr];\n"
    "  ld.u32 %r9, [%rd8+8];\n"             /* garr[2] via relocation */
    "  mul.wide.u32 %rd9, %r1, 32;\n"
    "  add.s64 %rd10, %rd1, %rd9;\n"
    "  st.global.v4.u32 [%rd10], {%r3, %r4, %r5, %r7};\n"
    "  st.global.v2.u32 [%rd10+16], {%r8, %r9};\n"
    "  st.global.u64 [%rd10+24], %rd4;\n"
    "}\n"
    ".visible .entry shoob()\n"
    "{\n"
    "  .shared .align 4 .b8 s2[16];\n"
    "  .reg .b32 %r<2>;\n"
    "  ld.shared.u32 %r1, [s2+4096];\n"
    "}\n";

START_TEST(generic_windows)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, space_src);
    uint64_t out = dev_alloc(d, 40 * 32);
    void *args[] = { &out };
    EmuFault f;
    EmuStatus st = run_kernel(m, "sp", 1, 40, args, &f);
    ck_assert_msg(st == EMU_OK, "%s: %s", emu_status_name(st), f.detail);
    uint32_t res[40 * 8];
    emu_mem_read(d->mem, out, res, sizeof(res));
    for (uint32_t t = 0; t < 40; t++) {
        const uint32_t *r = &res[8 * t];
        ck_assert_uint_eq(r[0], t + 1);
        ck_assert_uint_eq(r[1], 1);
        ck_assert_uint_eq(r[2], 0);
        ck_assert_uint_eq(r[3], 3 * t);
        ck_assert_uint_eq(r[4], 1);
        ck_assert_uint_eq(r[5], 3);
        uint64_t gen = r[6] | (uint64_t)r[7] << 32;
        ck_assert_uint_ge(gen, EMU_SHARED_WINDOW);
        ck_assert_uint_lt(gen, EMU_SHARED_WINDOW + EMU_SHARED_LIMIT);
        ck_assert_uint_eq(gen % 4, 0);
        if (t) {
            uint64_t prev = res[8 * t - 2] | (uint64_t)res[8 * t - 1] << 32;
            ck_assert_uint_eq(gen, prev + 4);
        }
    }
    ck_assert_int_eq(run_kernel(m, "shoob", 1, 1, NULL, &f),
                     EMU_ERR_ILLEGAL_ADDRESS);
    ck_assert_ptr_nonnull(strstr(f.detail, "shared"));
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

static const char dyn_src[] = PTX_HDR
    ".extern .shared .align 16 .b8 dsm[];\n"
    ".visible .entry dyn(.param .u64 out)\n"
    "{\n"
    "  .shared .align 4 .u32 st0[3];\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  shl.b32 %r2, %r1, 2;\n"
    "  mov.u32 %r3, dsm;\n"
    "  add.u32 %r4, %r3, %r2;\n"
    "  st.shared.u32 [%r4], %r1;\n"
    "  st.shared.u32 [st0+8], 5;\n"
    "  bar.sync 0;\n"
    "  setp.ne.u32 %p1, %r1, 0;\n"
    "  @%p1 exit;\n"
    "  ld.shared.u32 %r5, [dsm+252];\n"
    "  mov.u32 %r6, %dynamic_smem_size;\n"
    "  st.global.v4.u32 [%rd1], {%r5, %r6, %r3, %r3};\n"
    "  ld.shared.u32 %r7, [%r4+256];\n"   /* past the dynamic bytes */
    "}\n";

START_TEST(dynamic_shared)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, dyn_src);
    uint64_t out = dev_alloc(d, 16);
    void *args[] = { &out };
    EmuFunc *k = emu_module_kernel(m, "dyn");
    uint32_t g[3] = { 1, 1, 1 }, b[3] = { 64, 1, 1 };
    EmuLaunch *l;
    ck_assert_int_eq(emu_launch_begin(m, k, g, b, 256, args, &l), EMU_OK);
    ck_assert_int_eq(emu_launch_run(l), EMU_ERR_ILLEGAL_ADDRESS);
    ck_assert_uint_eq(l->fault.tid[0], 0);
    emu_launch_end(l);
    uint32_t r[4];
    emu_mem_read(d->mem, out, r, sizeof(r));
    ck_assert_uint_eq(r[0], 63);
    ck_assert_uint_eq(r[1], 256);
    ck_assert_uint_ge(r[2], 12);
    ck_assert_uint_eq(r[2] % 16, 0);
    /* too much shared memory for a block */
    ck_assert_int_eq(emu_launch_begin(m, k, g, b, 1u << 20, args, &l),
                     EMU_ERR_LAUNCH_CONFIG);
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

static const char cpa_src[] = PTX_HDR
    ".visible .entry cpa(.param .u64 in, .param .u64 out)\n"
    "{\n"
    "  .shared .align 16 .b8 sh[64];\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<12>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  shl.b32 %r2, %r1, 4;\n"
    "  mov.u32 %r3, sh;\n"
    "  add.u32 %r4, %r3, %r2;\n"
    "  mul.wide.u32 %rd3, %r1, 16;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  setp.eq.u32 %p1, %r1, 1;\n"
    "  selp.u32 %r5, 8, 16, %p1;\n"
    "  cp.async.cg.shared.global [%r4], [%rd4], 16, %r5;\n"
    "  cp.async.commit_group;\n"
    "  cp.async.wait_group 0;\n"
    "  bar.sync 0;\n"
    "  ld.shared.v4.u32 {%r6, %r7, %r8, %r9}, [%r4];\n"
    "  add.s64 %rd5, %rd2, %rd3;\n"
    "  st.global.v4.u32 [%rd5], {%r6, %r7, %r8, %r9};\n"
    "}\n";

START_TEST(cp_async_copy)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, cpa_src);
    uint64_t in = dev_alloc(d, 64), out = dev_alloc(d, 64);
    uint8_t src[64], res[64];
    for (int k = 0; k < 64; k++) {
        src[k] = (uint8_t)(k + 1);
    }
    emu_mem_write(d->mem, in, src, 64);
    void *args[] = { &in, &out };
    EmuFault f;
    EmuStatus st = run_kernel(m, "cpa", 1, 4, args, &f);
    ck_assert_msg(st == EMU_OK, "%s: %s", emu_status_name(st), f.detail);
    emu_mem_read(d->mem, out, res, 64);
    for (int k = 0; k < 64; k++) {
        ck_assert_uint_eq(res[k], (k >= 24 && k < 32) ? 0 : k + 1);
    }
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* --------------------------------------------------------- atomics */

static const char atom_src[] = PTX_HDR
    ".visible .entry count(.param .u64 ctr, .param .u64 old)\n"
    "{\n"
    "  .shared .align 4 .u32 sc;\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [ctr];\n"
    "  ld.param.u64 %rd2, [old];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  atom.global.add.u32 %r2, [%rd1], 1;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  st.global.u32 [%rd4], %r2;\n"
    "CAS:\n"                                /* CAS-based increment */
    "  ld.volatile.global.u32 %r3, [%rd1+4];\n"
    "  add.u32 %r4, %r3, 1;\n"
    "  atom.global.cas.b32 %r5, [%rd1+4], %r3, %r4;\n"
    "  setp.ne.u32 %p1, %r5, %r3;\n"
    "  @%p1 bra CAS;\n"
    "  atom.shared.add.u32 %r6, [sc], 2;\n"
    "  red.global.add.u64 [%rd1+8], 3;\n"
    "  bar.sync 0;\n"
    "  setp.ne.u32 %p1, %r1, 0;\n"
    "  @%p1 exit;\n"
    "  ld.shared.u32 %r7, [sc];\n"
    "  st.global.u32 [%rd1+16], %r7;\n"
    "}\n";

START_TEST(atomics_ordered)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, atom_src);
    uint64_t ctr = dev_alloc(d, 24), old = dev_alloc(d, 64 * 4);
    void *args[] = { &ctr, &old };
    EmuFault f;
    EmuStatus st = run_kernel(m, "count", 1, 64, args, &f);
    ck_assert_msg(st == EMU_OK, "%s: %s", emu_status_name(st), f.detail);
    uint32_t c[6];
    emu_mem_read(d->mem, ctr, c, sizeof(c));
    ck_assert_uint_eq(c[0], 64);
    ck_assert_uint_eq(c[1], 64);
    ck_assert_uint_eq(c[2] | (uint64_t)c[3] << 32, 192);
    ck_assert_uint_eq(c[4], 128);
    uint32_t o[64];
    emu_mem_read(d->mem, old, o, sizeof(o));
    for (uint32_t t = 0; t < 64; t++) {
        ck_assert_uint_eq(o[t], t);     /* ascending lane, warp order */
    }
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* One atomic on one word: init, operands b (and c), expected old and
 * new memory values. */
typedef struct AtomRow {
    const char *id;
    const char *op;           /* "add.u32" ... */
    unsigned bytes;
    uint64_t init, b, c;
    uint64_t want_new;
} AtomRow;

#define F32(x) ((uint64_t)(x))
static const AtomRow atom_rows[] = {
    { "add.u32-01", "add.u32", 4, 0xfffffffful, 2, 0, 1 },
    { "add.s32-01", "add.s32", 4, 5, 0xfffffff9ul, 0, 0xfffffffeul },
    { "add.u64-01", "add.u64", 8, 0xffffffffull, 1, 0, 0x100000000ull },
    { "min.s32-01", "min.s32", 4, 3, 0xfffffffful, 0, 0xfffffffful },
    { "min.u32-01", "min.u32", 4, 3, 0xfffffffful, 0, 3 },
    { "max.s32-01", "max.s32", 4, 3, 0xfffffffful, 0, 3 },
    { "max.u32-01", "max.u32", 4, 3, 0xfffffffful, 0, 0xfffffffful },
    { "min.s64-01", "min.s64", 8, 1, (uint64_t)-5, 0, (uint64_t)-5 },
    { "max.u64-01", "max.u64", 8, 1, (uint64_t)-5, 0, (uint64_t)-5 },
    { "inc.u32-01", "inc.u32", 4, 4, 5, 0, 5 },
    { "inc.u32-02", "inc.u32", 4, 5, 5, 0, 0 },
    { "dec.u32-01", "dec.u32", 4, 0, 5, 0, 5 },
    { "dec.u32-02", "dec.u32", 4, 7, 5, 0, 5 },
    { "dec.u32-03", "dec.u32", 4, 3, 5, 0, 2 },
    { "and.b32-01", "and.b32", 4, 0xf0f0, 0xff00, 0, 0xf000 },
    { "or.b32-01", "or.b32", 4, 0xf0f0, 0x0f00, 0, 0xfff0 },
    { "xor.b64-01", "xor.b64", 8, 0xff00000000ull, 0xf000000001ull, 0,
      0x0f00000001ull },
    { "exch.b32-01", "exch.b32", 4, 9, 7, 0, 7 },
    { "cas.b32-01", "cas.b32", 4, 9, 9, 4, 4 },
    { "cas.b32-02", "cas.b32", 4, 9, 8, 4, 9 },
    { "cas.b64-01", "cas.b64", 8, 1ull << 40, 1ull << 40, 3, 3 },
    { "add.f32-01", "add.f32", 4, 0x3fc00000, 0x40100000, 0, 0x40700000 },
    { "add.f32-02", "add.f32", 4, 0x00000001, 0x00000002, 0, 0 },  /* ftz */
    { "add.f64-01", "add.f64", 8, 0x3ff8000000000000ull,
      0x4002000000000000ull, 0, 0x400e000000000000ull },
    { "add.f16x2-01", "add.noftz.f16x2", 4, 0x3c004000, 0x40003c00, 0,
      0x42004200 },
    { "add.f16x2-02", "add.noftz.f16x2", 4, 0x00017bff, 0x00010400, 0,
      0x00027bff },   /* subnormals kept; 65504 + 2^-14 rounds to 65504 */
    { "add.bf16x2-01", "add.noftz.bf16x2", 4, 0x3f804000, 0x40003f80, 0,
      0x40404040 },
    /* atom.cas.b16 (PTX ISA 6.3, sm_70): only the addressed halfword */
    { "cas.b16-01", "cas.b16", 2, 0x1234, 0x1234, 0xbeef, 0xbeef },
    { "cas.b16-02", "cas.b16", 2, 0x1234, 0x1235, 0xbeef, 0x1234 },
};

START_TEST(atomics_table)
{
    const AtomRow *r = &atom_rows[_i];
    char src[2048];
    const char *sz = r->bytes == 8 ? "b64" : r->bytes == 2 ? "b16" : "b32";
    const char *reg = r->bytes == 8 ? "%rd" : r->bytes == 2 ? "%rs" : "%r";
    bool cas = strncmp(r->op, "cas", 3) == 0;
    snprintf(src, sizeof(src), PTX_HDR
             ".visible .entry a(.param .u64 p, .param .%s b, .param .%s c)\n"
             "{\n"
             "  .reg .b16 %%rs<4>;\n"
             "  .reg .b32 %%r<4>;\n"
             "  .reg .b64 %%rd<4>;\n"
             "  ld.param.u64 %%rd3, [p];\n"
             "  ld.param.%s %s1, [b];\n"
             "  ld.param.%s %s2, [c];\n"
             "  atom.global.%s %s0, [%%rd3], %s1%s%s%s;\n"
             "  st.global.%s [%%rd3+8], %s0;\n"
             "}\n", sz, sz, sz, reg, sz, reg, r->op, reg, reg,
             cas ? ", " : "", cas ? reg : "", cas ? "2" : "", sz, reg);
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, src);
    uint64_t p = dev_alloc(d, 16), guard = 0x5a5a5a5a5a5a5a5aull;
    emu_mem_write(d->mem, p, &guard, 8);
    emu_mem_write(d->mem, p, &r->init, r->bytes);
    uint64_t b = r->b, c = r->c;
    void *args[] = { &p, &b, &c };
    EmuFault f;
    EmuStatus st = run_kernel(m, "a", 1, 1, args, &f);
    ck_assert_msg(st == EMU_OK, "%s: %s: %s", r->id, emu_status_name(st),
                  f.detail);
    uint64_t got_new = 0, got_old = 0;
    emu_mem_read(d->mem, p, &got_new, r->bytes);
    emu_mem_read(d->mem, p + 8, &got_old, r->bytes);
    ck_assert_msg(got_new == r->want_new, "%s: memory 0x%llx, want 0x%llx",
                  r->id, (unsigned long long)got_new,
                  (unsigned long long)r->want_new);
    ck_assert_msg(got_old == r->init, "%s: old 0x%llx", r->id,
                  (unsigned long long)got_old);
    uint8_t rest[8];
    emu_mem_read(d->mem, p, rest, 8);
    for (unsigned k = r->bytes; k < 8; k++) {
        ck_assert_msg(rest[k] == 0x5a, "%s: byte %u changed", r->id, k);
    }
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* createpolicy makes an opaque L2 policy that cache-hinted accesses
 * take as an extra operand; the data moved are unchanged by it. */
static const char policy_src[] = PTX_HDR
    ".visible .entry pol(.param .u64 p)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  createpolicy.fractional.L2::evict_last.b64 %rd2, 1.0;\n"
    "  createpolicy.fractional.L2::evict_first.L2::evict_unchanged.b64 "
    "%rd3, 0.5;\n"
    "  createpolicy.cvt.L2.b64 %rd4, %rd2;\n"
    "  ld.global.L2::cache_hint.u32 %r1, [%rd1], %rd2;\n"
    "  add.u32 %r1, %r1, 1;\n"
    "  st.global.L2::cache_hint.u32 [%rd1+4], %r1, %rd3;\n"
    "  st.global.u64 [%rd1+8], %rd2;\n"
    "  st.global.u64 [%rd1+16], %rd3;\n"
    "  st.global.u64 [%rd1+24], %rd4;\n"
    "  discard.global.L2 [%rd1+128], 128;\n"
    "  applypriority.global.L2::evict_normal [%rd1+128], 128;\n"
    "}\n";

START_TEST(cache_policy)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, policy_src);
    uint64_t p = dev_alloc(d, 256);
    uint32_t v = 41;
    emu_mem_write(d->mem, p, &v, 4);
    void *args[] = { &p };
    EmuFault f;
    EmuStatus st = run_kernel(m, "pol", 1, 1, args, &f);
    ck_assert_msg(st == EMU_OK, "%s: %s", emu_status_name(st), f.detail);
    uint64_t o[4];
    emu_mem_read(d->mem, p, o, sizeof(o));
    ck_assert_uint_eq(o[0], 41ull | 42ull << 32);
    ck_assert_uint_ne(o[1], o[2]);      /* different policies differ */
    ck_assert_uint_eq(o[3], o[1]);      /* .cvt passes the value through */
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* ------------------------------------------------------------ alloca */

/* alloca / stacksave / stackrestore (PTX ISA 7.3).  Per lane: `t + 1`
 * words at alignment 16 filled with t * k and summed back, then 8 bytes
 * at alignment 64 (an immediate size) holding the first pointer. */
static const char alloca_src[] = PTX_HDR
    ".visible .entry al(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<10>;\n"
    "  .reg .b64 %rd<12>;\n"
    "  .reg .pred %p<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  add.u32 %r2, %r1, 1;\n"
    "  shl.b32 %r3, %r2, 2;\n"
    "  cvt.u64.u32 %rd2, %r3;\n"
    "  alloca.u64 %rd3, %rd2, 16;\n"
    "  mov.u32 %r4, 0;\n"
    "L1:\n"
    "  mul.lo.u32 %r5, %r1, %r4;\n"
    "  mul.wide.u32 %rd4, %r4, 4;\n"
    "  add.u64 %rd5, %rd3, %rd4;\n"
    "  st.local.u32 [%rd5], %r5;\n"
    "  add.u32 %r4, %r4, 1;\n"
    "  setp.lt.u32 %p1, %r4, %r2;\n"
    "  @%p1 bra L1;\n"
    "  alloca.u64 %rd6, 8, 64;\n"
    "  mov.u32 %r6, 0;\n"
    "  mov.u32 %r4, 0;\n"
    "L2:\n"
    "  mul.wide.u32 %rd4, %r4, 4;\n"
    "  add.u64 %rd5, %rd3, %rd4;\n"
    "  ld.local.u32 %r7, [%rd5];\n"
    "  add.u32 %r6, %r6, %r7;\n"
    "  add.u32 %r4, %r4, 1;\n"
    "  setp.lt.u32 %p1, %r4, %r2;\n"
    "  @%p1 bra L2;\n"
    "  st.local.u64 [%rd6], %rd3;\n"
    "  cvta.local.u64 %rd10, %rd6;\n"
    "  ld.u64 %rd7, [%rd10];\n"
    "  mul.wide.u32 %rd8, %r1, 24;\n"
    "  add.u64 %rd9, %rd1, %rd8;\n"
    "  st.global.u32 [%rd9], %r6;\n"
    "  st.global.u64 [%rd9+8], %rd7;\n"
    "  st.global.u64 [%rd9+16], %rd6;\n"
    "}\n"
    /* stacksave / alloca / stackrestore / alloca: the space is reused;
     * then a u32 alloca (32-bit local pointer) */
    ".visible .entry sr(.param .u64 out)\n"
    "{\n"
    "  .local .align 16 .b8 depot[16];\n"
    "  .reg .b32 %r<6>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  st.local.u32 [depot], 99;\n"
    "  stacksave.u64 %rd2;\n"
    "  alloca.u64 %rd3, 64, 16;\n"
    "  st.local.u32 [%rd3+60], 7;\n"
    "  stackrestore.u64 %rd2;\n"
    "  alloca.u64 %rd4, 64, 16;\n"
    "  ld.local.u32 %r1, [%rd4+60];\n"
    "  alloca.u32 %r2, 4;\n"
    "  st.local.u32 [%r2], 5;\n"
    "  ld.local.u32 %r3, [%r2];\n"
    "  ld.local.u32 %r4, [depot];\n"
    "  st.global.u64 [%rd1], %rd2;\n"
    "  st.global.u64 [%rd1+8], %rd3;\n"
    "  st.global.u64 [%rd1+16], %rd4;\n"
    "  st.global.u32 [%rd1+24], %r1;\n"
    "  st.global.u32 [%rd1+28], %r2;\n"
    "  st.global.u32 [%rd1+32], %r3;\n"
    "  st.global.u32 [%rd1+36], %r4;\n"
    "}\n"
    /* one word past a 16-byte alloca (line 76) */
    ".visible .entry oob()\n"
    "{\n"
    "  .local .align 16 .b8 depot[16];\n"
    "  .reg .b64 %rd<4>;\n"
    "  st.local.u32 [depot+12], 1;\n"
    "  alloca.u64 %rd1, 16, 16;\n"
    "  st.local.u32 [%rd1+12], 2;\n"
    "  st.local.u32 [%rd1+16], 3;\n"
    "}\n"
    /* a read of freed space after stackrestore (line 86) */
    ".visible .entry freed()\n"
    "{\n"
    "  .reg .b32 %r<2>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  stacksave.u64 %rd1;\n"
    "  alloca.u64 %rd2, 32, 8;\n"
    "  st.local.u32 [%rd2], 1;\n"
    "  stackrestore.u64 %rd1;\n"
    "  ld.local.u32 %r1, [%rd2];\n"
    "}\n"
    ".visible .entry huge()\n"
    "{\n"
    "  .reg .b64 %rd<4>;\n"
    "  alloca.u64 %rd1, 1073741824, 8;\n"
    "}\n"
    /* frames: a callee's locals and allocas sit above the caller's
     * allocas (per lane sizes 32 + 16 * lane), and its allocas are freed
     * when it returns */
    ".func (.param .b64 ret) g()\n"
    "{\n"
    "  .local .align 16 .b8 gl[64];\n"
    "  .reg .b64 %rd<4>;\n"
    "  st.local.v4.u32 [gl], {0xdead, 0xdead, 0xdead, 0xdead};\n"
    "  st.local.v4.u32 [gl+48], {0xdead, 0xdead, 0xdead, 0xdead};\n"
    "  alloca.u64 %rd1, 40, 8;\n"
    "  st.local.u64 [%rd1+32], %rd1;\n"
    "  st.param.b64 [ret], %rd1;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry frames(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<6>;\n"
    "  .reg .b64 %rd<16>;\n"
    "  .reg .pred %p<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %laneid;\n"
    "  mul.wide.u32 %rd2, %r1, 16;\n"
    "  add.u64 %rd2, %rd2, 32;\n"
    "  alloca.u64 %rd3, %rd2, 16;\n"
    "  add.u64 %rd4, %rd3, %rd2;\n"
    "  add.u64 %rd5, %rd4, -8;\n"
    "  cvt.u64.u32 %rd6, %r1;\n"
    "  st.local.u64 [%rd3], %rd6;\n"
    "  st.local.u64 [%rd5], %rd2;\n"
    "  {\n"
    "    .param .b64 r0;\n"
    "    call.uni (r0), g, ();\n"
    "    ld.param.b64 %rd7, [r0];\n"
    "  }\n"
    "  {\n"
    "    .param .b64 r1;\n"
    "    call.uni (r1), g, ();\n"
    "    ld.param.b64 %rd8, [r1];\n"
    "  }\n"
    "  ld.local.u64 %rd9, [%rd3];\n"
    "  ld.local.u64 %rd10, [%rd5];\n"
    "  mul.wide.u32 %rd11, %r1, 48;\n"
    "  add.u64 %rd12, %rd1, %rd11;\n"
    "  st.global.u64 [%rd12], %rd3;\n"
    "  st.global.u64 [%rd12+8], %rd2;\n"
    "  st.global.u64 [%rd12+16], %rd7;\n"
    "  st.global.u64 [%rd12+24], %rd8;\n"
    "  st.global.u64 [%rd12+32], %rd9;\n"
    "  st.global.u64 [%rd12+40], %rd10;\n"
    "}\n";

START_TEST(alloca_per_lane)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, alloca_src);
    uint64_t out = dev_alloc(d, 64 * 24);
    void *args[] = { &out };
    EmuFault f;
    EmuStatus st = run_kernel(m, "al", 1, 64, args, &f);
    ck_assert_msg(st == EMU_OK, "%s: %s", emu_status_name(st), f.detail);
    uint64_t o[64 * 3];
    emu_mem_read(d->mem, out, o, sizeof(o));
    for (uint64_t t = 0; t < 64; t++) {
        uint64_t sum = t * (t * (t + 1) / 2), p1 = o[3 * t + 1],
                 p2 = o[3 * t + 2];
        ck_assert_uint_eq(o[3 * t] & 0xffffffffu, sum);
        ck_assert_uint_eq(p1 % 16, 0);
        ck_assert_uint_eq(p2 % 64, 0);
        ck_assert_uint_ge(p2, p1 + 4 * (t + 1));   /* no overlap */
    }
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

START_TEST(stackrestore_frees)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, alloca_src);
    uint64_t out = dev_alloc(d, 64);
    void *args[] = { &out };
    EmuFault f;
    EmuStatus st = run_kernel(m, "sr", 1, 1, args, &f);
    ck_assert_msg(st == EMU_OK, "%s: %s", emu_status_name(st), f.detail);
    uint64_t q[3];
    uint32_t w[4];
    emu_mem_read(d->mem, out, q, sizeof(q));
    emu_mem_read(d->mem, out + 24, w, sizeof(w));
    /* the saved top is past the 16-byte depot and 16-aligned, so the
     * first alloca starts there; after the restore the second reuses it
     * and sees the first one's bytes */
    ck_assert_uint_ge(q[0], 16);
    ck_assert_uint_eq(q[1], q[0]);
    ck_assert_uint_eq(q[2], q[1]);
    ck_assert_uint_eq(w[0], 7);
    ck_assert_uint_eq(w[1], q[2] + 64);   /* u32 alloca right above */
    ck_assert_uint_eq(w[2], 5);
    ck_assert_uint_eq(w[3], 99);          /* the depot is untouched */
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

START_TEST(alloca_faults)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, alloca_src);
    EmuFault f;
    EmuStatus st = run_kernel(m, "oob", 1, 1, NULL, &f);
    ck_assert_int_eq(st, EMU_ERR_ILLEGAL_ADDRESS);
    ck_assert_uint_eq(f.loc.line, 76);
    ck_assert_int_eq(f.space, PTX_SPACE_LOCAL);
    ck_assert_uint_eq(f.size, 4);
    ck_assert_msg(strstr(f.detail, "beyond the thread's stack") != NULL,
                  "%s", f.detail);
    st = run_kernel(m, "freed", 1, 1, NULL, &f);
    ck_assert_int_eq(st, EMU_ERR_ILLEGAL_ADDRESS);
    ck_assert_uint_eq(f.loc.line, 86);
    st = run_kernel(m, "huge", 1, 1, NULL, &f);
    ck_assert_int_eq(st, EMU_ERR_STACK_OVERFLOW);
    ck_assert_msg(strstr(f.detail, "alloca of 1073741824 bytes") != NULL,
                  "%s", f.detail);
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

START_TEST(alloca_frames)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, alloca_src);
    uint64_t out = dev_alloc(d, 32 * 48);
    void *args[] = { &out };
    EmuFault f;
    EmuStatus st = run_kernel(m, "frames", 1, 32, args, &f);
    ck_assert_msg(st == EMU_OK, "%s: %s", emu_status_name(st), f.detail);
    uint64_t o[32 * 6];
    emu_mem_read(d->mem, out, o, sizeof(o));
    uint64_t g0 = o[2];
    for (uint64_t l = 0; l < 32; l++) {
        const uint64_t *r = &o[6 * l];
        uint64_t size = 32 + 16 * l;
        ck_assert_uint_eq(r[1], size);
        ck_assert_uint_eq(r[2], r[3]);       /* freed at return, reused */
        ck_assert_uint_ge(r[2], r[0] + size + 64);  /* above g's locals */
        ck_assert_uint_eq(r[2], g0);         /* g's frame is warp-wide */
        ck_assert_uint_eq(r[4], l);          /* the caller's bytes kept */
        ck_assert_uint_eq(r[5], size);
    }
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* ---------------------------------------------- .b128 and vector atom */

#define PTX_HDR90 ".version 8.3\n.target sm_90\n.address_size 64\n"

/* .b128 (PTX ISA 8.3, sm_90): ld/st in global, shared and local memory,
 * mov copy/pack/unpack, atom.exch/cas.b128 on global, shared and generic
 * addresses.  p[0..1] = A = (a0, a1), p[6..7] = B (u64 words). */
static const char b128_src[] = PTX_HDR90
    ".visible .entry q(.param .u64 p)\n"
    "{\n"
    "  .reg .b128 %q<6>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  .shared .align 16 .b8 sh[32];\n"
    "  .local .align 16 .b8 lo[16];\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  ld.global.b128 %q1, [%rd1];\n"
    "  mov.b128 {%rd2, %rd3}, %q1;\n"
    "  mov.b128 %q2, {%rd3, %rd2};\n"
    "  st.global.b128 [%rd1+16], %q2;\n"
    "  st.shared.b128 [sh], %q1;\n"
    "  ld.shared.b128 %q3, [sh];\n"
    "  st.local.b128 [lo], %q3;\n"
    "  ld.local.b128 %q4, [lo];\n"
    "  mov.b128 %q5, %q4;\n"
    "  st.global.b128 [%rd1+32], %q5;\n"
    "  atom.global.exch.b128 %q3, [%rd1+48], %q2;\n"
    "  st.global.b128 [%rd1+64], %q3;\n"
    "  atom.global.cas.b128 %q3, [%rd1+48], %q2, %q1;\n"
    "  st.global.b128 [%rd1+80], %q3;\n"
    "  atom.global.cas.b128 %q3, [%rd1+48], %q2, %q2;\n"
    "  st.global.b128 [%rd1+96], %q3;\n"
    "  atom.shared.cas.b128 %q3, [sh], %q1, %q2;\n"
    "  ld.shared.b128 %q4, [sh];\n"
    "  st.global.b128 [%rd1+112], %q4;\n"
    "  mov.u64 %rd4, sh;\n"
    "  cvta.shared.u64 %rd5, %rd4;\n"
    "  atom.cas.b128 %q3, [%rd5], %q2, %q1;\n"
    "  ld.shared.b128 %q4, [sh];\n"
    "  st.global.b128 [%rd1+128], %q4;\n"
    "  st.global.b128 [%rd1+144], %q3;\n"
    "  createpolicy.fractional.L2::evict_first.b64 %rd6, 1.0;\n"
    "  atom.global.exch.L2::cache_hint.b128 %q4, [%rd1+144], %q1, %rd6;\n"
    "  st.global.b128 [%rd1+160], %q4;\n"
    "}\n"
    /* a .b128 access must be 16-byte aligned (line 45) */
    ".visible .entry mis(.param .u64 p)\n"
    "{\n"
    "  .reg .b128 %q<2>;\n"
    "  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  ld.global.b128 %q1, [%rd1+8];\n"
    "}\n";

START_TEST(b128_moves_atomics)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, b128_src);
    uint64_t p = dev_alloc(d, 176);
    const uint64_t a0 = 0x0123456789abcdefull, a1 = 0xfedcba9876543210ull,
                   b0 = 0x1111222233334444ull, b1 = 0x5555666677778888ull;
    uint64_t in[8] = { a0, a1, 0, 0, 0, 0, b0, b1 };
    emu_mem_write(d->mem, p, in, sizeof(in));
    void *args[] = { &p };
    EmuFault f;
    EmuStatus st = run_kernel(m, "q", 1, 1, args, &f);
    ck_assert_msg(st == EMU_OK, "%s: %s", emu_status_name(st), f.detail);
    uint64_t o[22];
    emu_mem_read(d->mem, p, o, sizeof(o));
    /* word pairs: the swapped value S = (a1, a0) ... */
    const uint64_t want[22] = {
        a0, a1,           /* input A */
        a1, a0,           /* mov pack of the unpacked halves, swapped */
        a0, a1,           /* shared -> local -> mov copy */
        a0, a1,           /* exch B -> S, cas S -> A, failed cas keeps A */
        b0, b1,           /* exch's old value */
        a1, a0,           /* successful cas: old S */
        a0, a1,           /* failed cas: old A */
        a1, a0,           /* shared cas A -> S */
        a0, a1,           /* generic cas on shared S -> A */
        a0, a1,           /* its old value S, then exch (cache hint) A */
        a1, a0,           /* the exch's old value */
    };
    for (int k = 0; k < 22; k++) {
        ck_assert_msg(o[k] == want[k], "word %d: 0x%llx, want 0x%llx", k,
                      (unsigned long long)o[k],
                      (unsigned long long)want[k]);
    }
    st = run_kernel(m, "mis", 1, 1, args, &f);
    ck_assert_int_eq(st, EMU_ERR_MISALIGNED);
    ck_assert_uint_eq(f.loc.line, 45);
    ck_assert_uint_eq(f.size, 16);
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* Vector atom/red (PTX ISA 8.1, sm_90), one per supported combination
 * of type and operation; expected words computed by hand (f16: 1.0 =
 * 0x3c00, 2.0 = 0x4000, 3.0 = 0x4200, -1.0 = 0xbc00, -2.0 = 0xc000;
 * bf16: 1.0 = 0x3f80, -1.0 = 0xbf80, 2.0 = 0x4000). */
static const char vatom_src[] = PTX_HDR90
    ".visible .entry va(.param .u64 p)\n"
    "{\n"
    "  .reg .f32 %f<13>;\n"
    "  .reg .b32 %r<12>;\n"
    "  .reg .b16 %h<20>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  .shared .align 4 .f32 s1;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  mov.f32 %f1, 0f3F800000;\n"
    "  mov.f32 %f2, 0fC0000000;\n"
    "  mov.f32 %f3, 0f3F000000;\n"
    "  mov.f32 %f4, 0f00000001;\n"
    "  atom.global.v4.f32.add {%f5, %f6, %f7, %f8}, [%rd1],"
    " {%f1, %f2, %f3, %f4};\n"
    "  red.global.add.v2.f32 [%rd1+16], {%f1, %f2};\n"
    "  st.global.v4.f32 [%rd1+32], {%f5, %f6, %f7, %f8};\n"
    "  red.global.add.noftz.v2.f16x2 [%rd1+48], {0x3C003C00, 0x3C000001};\n"
    "  atom.global.v2.f16x2.min.noftz {%r1, %r2}, [%rd1+56],"
    " {0xC0004000, 0x00008000};\n"
    "  st.global.v2.b32 [%rd1+120], {%r1, %r2};\n"
    "  red.global.max.noftz.v4.bf16x2 [%rd1+64],"
    " {0x40000000, 0x3F808000, 0x12345678, 0x00010001};\n"
    "  mov.b16 %h9, 0x3C00;\n"
    "  atom.global.v8.f16.add.noftz {%h1, %h2, %h3, %h4, %h5, %h6, %h7,"
    " %h8}, [%rd1+80], {%h9, %h9, %h9, %h9, %h9, %h9, %h9, %h9};\n"
    "  st.global.v4.b16 [%rd1+128], {%h1, %h2, %h3, %h4};\n"
    "  st.global.v4.b16 [%rd1+136], {%h5, %h6, %h7, %h8};\n"
    "  mov.b16 %h10, 0x3F80;\n"
    "  mov.b16 %h11, 0x0001;\n"
    "  red.global.add.noftz.v2.bf16 [%rd1+112], {%h10, %h11};\n"
    /* scalar atom.add.f32 keeps subnormals in shared memory */
    "  st.shared.f32 [s1], %f4;\n"
    "  atom.shared.add.f32 %f9, [s1], %f4;\n"
    "  ld.shared.f32 %f10, [s1];\n"
    "  st.global.f32 [%rd1+144], %f10;\n"
    /* d names b's registers in the other order */
    "  mov.f32 %f11, 0f40400000;\n"
    "  mov.f32 %f12, 0f40A00000;\n"
    "  atom.global.v2.f32.add {%f12, %f11}, [%rd1+152], {%f11, %f12};\n"
    "  st.global.v2.f32 [%rd1+160], {%f11, %f12};\n"
    "}\n";

START_TEST(vector_atomics)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, vatom_src);
    uint64_t p = dev_alloc(d, 192);
    uint32_t in[48] = { 0 };
    const uint32_t f32in[6] = { 0x3fc00000, 0x40400000, 0xbe800000,
                                0x00000001, 0x41200000, 0x41a00000 };
    memcpy(in, f32in, sizeof(f32in));
    in[12] = 0x40003c00;    /* (lo 1.0, hi 2.0) */
    in[13] = 0xc0000001;    /* (lo 2^-24, hi -2.0) */
    in[14] = 0x7e003c00;    /* (lo 1.0, hi NaN) */
    in[15] = 0x80000000;    /* (lo +0, hi -0) */
    in[16] = 0x3f80bf80;    /* bf16 (lo -1.0, hi 1.0) */
    in[17] = 0x7fc00000;    /* (lo +0, hi NaN) */
    in[18] = 0x12345678;
    in[19] = 0;
    for (int k = 0; k < 8; k++) {   /* f16 k = 0 .. 7 */
        static const uint16_t hk[8] = { 0x0000, 0x3c00, 0x4000, 0x4200,
                                        0x4400, 0x4500, 0x4600, 0x4700 };
        in[20 + k / 2] |= (uint32_t)hk[k] << (16 * (k & 1));
    }
    in[28] = 0x00013f80;    /* bf16 (lo 1.0, hi 2^-133) */
    in[38] = 0x3f800000;    /* 1.0, 2.0 */
    in[39] = 0x40000000;
    emu_mem_write(d->mem, p, in, sizeof(in));
    void *args[] = { &p };
    EmuFault f;
    EmuStatus st = run_kernel(m, "va", 1, 1, args, &f);
    ck_assert_msg(st == EMU_OK, "%s: %s", emu_status_name(st), f.detail);
    uint32_t o[48];
    emu_mem_read(d->mem, p, o, sizeof(o));
    uint32_t want[48];
    memcpy(want, in, sizeof(want));
    /* v4.f32 add: 2.5, 1.0, 0.25; global flushes the subnormal sum */
    want[0] = 0x40200000;
    want[1] = 0x3f800000;
    want[2] = 0x3e800000;
    want[3] = 0x00000000;
    want[4] = 0x41300000;   /* 11 */
    want[5] = 0x41900000;   /* 18 */
    memcpy(&want[8], f32in, 16);        /* atom's old values */
    want[12] = 0x42004000;  /* (2.0, 3.0) */
    want[13] = 0xbc000002;  /* (2^-23 kept, -1.0) */
    want[14] = 0xc0003c00;  /* min(1, 2) = 1; min(NaN, -2) = -2 */
    want[15] = 0x80008000;  /* min(+0, -0) = -0 both ways */
    want[30] = in[14];
    want[31] = in[15];
    want[16] = 0x40000000;  /* max(-1, +0) = +0; max(1, 2) = 2 */
    want[17] = 0x3f800000;  /* max(+0, -0) = +0; max(NaN, 1) = 1 */
    want[18] = 0x12345678;
    want[19] = 0x00010001;
    static const uint16_t hk1[8] = { 0x3c00, 0x4000, 0x4200, 0x4400,
                                     0x4500, 0x4600, 0x4700, 0x4800 };
    for (int k = 0; k < 8; k++) {
        want[20 + k / 2] &= ~(0xffffu << (16 * (k & 1)));
        want[20 + k / 2] |= (uint32_t)hk1[k] << (16 * (k & 1));
    }
    memcpy(&want[32], &in[20], 16);     /* v8.f16 old values */
    want[28] = 0x00024000;  /* (2.0, 2^-132 kept) */
    want[36] = 0x00000002;  /* shared: 2^-149 + 2^-149 not flushed */
    want[38] = 0x40800000;  /* 1 + 3 = 4 */
    want[39] = 0x40e00000;  /* 2 + 5 = 7 */
    want[40] = 0x40000000;  /* %f11 = old[1] = 2.0 */
    want[41] = 0x3f800000;  /* %f12 = old[0] = 1.0 */
    for (int k = 0; k < 42; k++) {
        ck_assert_msg(o[k] == want[k], "word %d: 0x%08x, want 0x%08x", k,
                      o[k], want[k]);
    }
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* Scalar loads of every width: signed types sign-extend to the
 * destination register, unsigned ones zero-extend (PTX ISA, ld: "the
 * value is sign- or zero-extended to the destination register size").
 * Input bytes 80 01 80 00 00 00 00 80 then 01..08; 40 threads, so the
 * second warp runs a partial mask. */
static const char ldw_src[] = PTX_HDR
    ".visible .entry ldw(.param .u64 in, .param .u64 out)\n"
    "{\n"
    "  .reg .b16 %h<4>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r7, %tid.x;\n"
    "  mul.wide.u32 %rd10, %r7, 64;\n"
    "  add.s64 %rd2, %rd2, %rd10;\n"
    "  ld.global.s8 %r1, [%rd1];\n"
    "  ld.global.u8 %r2, [%rd1];\n"
    "  ld.global.s16 %r3, [%rd1+2];\n"
    "  ld.global.u16 %r4, [%rd1+2];\n"
    "  ld.global.s8 %rd3, [%rd1];\n"
    "  ld.global.s32 %rd4, [%rd1+4];\n"
    "  ld.global.u32 %rd5, [%rd1+4];\n"
    "  ld.global.u64 %rd6, [%rd1+8];\n"
    "  ld.global.s8 %h1, [%rd1];\n"
    "  ld.global.s16 %h2, [%rd1+2];\n"
    "  st.global.u32 [%rd2], %r1;\n"
    "  st.global.u32 [%rd2+4], %r2;\n"
    "  st.global.u32 [%rd2+8], %r3;\n"
    "  st.global.u32 [%rd2+12], %r4;\n"
    "  st.global.u64 [%rd2+16], %rd3;\n"
    "  st.global.u64 [%rd2+24], %rd4;\n"
    "  st.global.u64 [%rd2+32], %rd5;\n"
    "  st.global.u64 [%rd2+40], %rd6;\n"
    "  st.global.u16 [%rd2+48], %h1;\n"
    "  st.global.u16 [%rd2+50], %h2;\n"
    "}\n";

START_TEST(load_widths_extend)
{
    EmuDevice *d = dev_new(EMU_TAKEN_FIRST);
    EmuModule *m = mod_load(d, ldw_src);
    static const uint8_t bytes[16] = { 0x80, 0x01, 0x01, 0x80, 0, 0, 0,
                                       0x80, 1, 2, 3, 4, 5, 6, 7, 8 };
    uint64_t in = dev_alloc(d, 16), out = dev_alloc(d, 40 * 64);
    emu_mem_write(d->mem, in, bytes, sizeof(bytes));
    void *args[] = { &in, &out };
    EmuFault f;
    EmuStatus st = run_kernel(m, "ldw", 1, 40, args, &f);
    ck_assert_msg(st == EMU_OK, "%s: %s", emu_status_name(st), f.detail);
    for (uint32_t t = 0; t < 40; t++) {
        uint8_t r[64];
        emu_mem_read(d->mem, out + t * 64, r, sizeof(r));
        uint32_t w[4];
        uint64_t q[4];
        uint16_t h[2];
        memcpy(w, r, 16);
        memcpy(q, r + 16, 32);
        memcpy(h, r + 48, 4);
        ck_assert_uint_eq(w[0], 0xFFFFFF80u);
        ck_assert_uint_eq(w[1], 0x80u);
        ck_assert_uint_eq(w[2], 0xFFFF8001u);
        ck_assert_uint_eq(w[3], 0x8001u);
        ck_assert_uint_eq(q[0], 0xFFFFFFFFFFFFFF80ull);
        ck_assert_uint_eq(q[1], 0xFFFFFFFF80000000ull);
        ck_assert_uint_eq(q[2], 0x80000000ull);
        ck_assert_uint_eq(q[3], 0x0807060504030201ull);
        ck_assert_uint_eq(h[0], 0xFF80u);
        ck_assert_uint_eq(h[1], 0x8001u);
    }
    emu_module_free(m);
    emu_device_free(d);
}
END_TEST

/* ---------------------------------------------------- store buffer */

/* emu/shadow.h on plain host bytes: a reference image is kept by hand
 * beside memory and the buffer's view. */
START_TEST(shadow_buffers_and_commits)
{
    enum { N = 3 * EMU_SHADOW_LINE };
    uint8_t *mem = aligned_alloc(256, 512); /* (a multiple: C11) */
    uint8_t ref[N];
    ck_assert_ptr_nonnull(mem);
    for (unsigned i = 0; i < N; i++) {
        mem[i] = ref[i] = (uint8_t)(i * 7 + 1);
    }
    bool mark = false;
    EmuShadow s = {0};
    s.mark = &mark;
    const uint64_t base = 0x700000000ull; /* a guest address, line 0 */
    /* a read of a line not written is memory itself */
    ck_assert_ptr_eq(emu_shadow_at(&s, base + 8, 4, false, mem + 8),
                     mem + 8);
    ck_assert(!mark);
    /* a 4-byte write: memory untouched, the buffer has it */
    uint8_t *p = emu_shadow_at(&s, base + 4, 4, true, mem + 4);
    ck_assert_ptr_nonnull(p);
    ck_assert(p != mem + 4);
    ck_assert(mark);
    ck_assert_uint_eq(p[0], mem[4]);    /* filled from memory first */
    memcpy(p, "\xa1\xa2\xa3\xa4", 4);
    ck_assert_uint_eq(mem[4], ref[4]);
    memcpy(ref + 4, "\xa1\xa2\xa3\xa4", 4);
    /* one byte in the next word, then a read across both */
    p = emu_shadow_at(&s, base + 9, 1, true, mem + 9);
    *p = 0xb9;
    ref[9] = 0xb9;
    p = emu_shadow_at(&s, base + 8, 4, false, mem + 8);
    ck_assert(p != mem + 8);
    ck_assert_uint_eq(p[0], ref[8]);    /* memory's */
    ck_assert_uint_eq(p[1], 0xb9);      /* the buffer's */
    ck_assert_uint_eq(p[2], ref[10]);
    p = emu_shadow_at(&s, base + 4, 4, false, mem + 4);
    ck_assert_mem_eq(p, ref + 4, 4);
    /* a whole second line (its halves copied whole at the commit) and
     * the last word of the third */
    for (unsigned o = 0; o < EMU_SHADOW_LINE; o += 16) {
        unsigned a = EMU_SHADOW_LINE + o;
        p = emu_shadow_at(&s, base + a, 16, true, mem + a);
        for (unsigned k = 0; k < 16; k++) {
            p[k] = ref[a + k] = (uint8_t)(0xc0 ^ (o + k));
        }
    }
    p = emu_shadow_at(&s, base + N - 4, 4, true, mem + N - 4);
    memcpy(p, "wxyz", 4);
    memcpy(ref + N - 4, "wxyz", 4);
    ck_assert_uint_eq(s.n, 3);
    for (unsigned i = 0; i < N; i++) {
        ck_assert_uint_eq(mem[i], (uint8_t)(i * 7 + 1)); /* untouched */
    }
    emu_shadow_commit(&s);
    ck_assert_mem_eq(mem, ref, N);
    ck_assert_uint_eq(s.n, 0);
    /* empty again: reads are memory's */
    ck_assert_ptr_eq(emu_shadow_at(&s, base + 4, 4, false, mem + 4),
                     mem + 4);
    /* the same bytes at a second device address (a handle mapped
     * twice): one copy, what one writes the other reads */
    const uint64_t alias = base + (2u << 20);
    p = emu_shadow_at(&s, base + 64, 4, true, mem + 64);
    memcpy(p, "\x11\x22\x33\x44", 4);
    p = emu_shadow_at(&s, alias + 64, 4, false, mem + 64);
    ck_assert(p != mem + 64);
    ck_assert_mem_eq(p, "\x11\x22\x33\x44", 4);
    ck_assert_uint_eq(s.n, 1);
    emu_shadow_commit(&s);
    ck_assert_mem_eq(mem + 64, "\x11\x22\x33\x44", 4);
    emu_shadow_fini(&s);
    free(mem);
}
END_TEST

/* Two SMs' buffers: neither sees the other's writes before the
 * commits; committed in order, the later one's bytes win where both
 * wrote, each one's own elsewhere.  Many lines (the table grows). */
START_TEST(shadow_commit_order)
{
    enum { LINES = 700, N = LINES * EMU_SHADOW_LINE };
    uint8_t *mem = calloc(1, N);
    ck_assert_ptr_nonnull(mem);
    EmuShadow a = {0}, b = {0};
    const uint64_t base = 0x700000000ull;
    for (unsigned l = 0; l < LINES; l++) {
        unsigned o = l * EMU_SHADOW_LINE;
        uint8_t *pa = emu_shadow_at(&a, base + o, 8, true, mem + o);
        memset(pa, 0xaa, 8);
        /* b writes the same first word of every other line, and the
         * second word of every line */
        if (l % 2 == 0) {
            uint8_t *pb = emu_shadow_at(&b, base + o, 4, true, mem + o);
            ck_assert_uint_eq(pb[0], 0);     /* not a's */
            memset(pb, 0xbb, 4);
        }
        uint8_t *pb = emu_shadow_at(&b, base + o + 8, 8, true, mem + o + 8);
        memset(pb, 0xb8, 8);
        uint8_t *ra = emu_shadow_at(&a, base + o + 8, 4, false, mem + o + 8);
        ck_assert_uint_eq(ra[0], 0);         /* not b's */
    }
    emu_shadow_commit(&a);
    emu_shadow_commit(&b);
    for (unsigned l = 0; l < LINES; l++) {
        const uint8_t *m = mem + l * EMU_SHADOW_LINE;
        for (unsigned k = 0; k < EMU_SHADOW_LINE; k++) {
            uint8_t want = k < 4 ? (l % 2 == 0 ? 0xbb : 0xaa)
                           : k < 8 ? 0xaa : k < 16 ? 0xb8 : 0;
            ck_assert_uint_eq(m[k], want);
        }
    }
    /* a's table grew for 700 lines: two sections of a few lines (only
     * their slots cleared at the commit) find exactly theirs */
    for (unsigned round = 0; round < 2; round++) {
        for (unsigned l = 3 + round; l < LINES; l += 300) {
            unsigned o = l * EMU_SHADOW_LINE + 64;
            uint8_t *pa = emu_shadow_at(&a, base + o, 4, true, mem + o);
            ck_assert(pa != mem + o);
            memset(pa, 0x50 + round, 4);
        }
        ck_assert_uint_eq(a.n, 3);
        for (unsigned l = 0; l < LINES; l++) {
            unsigned o = l * EMU_SHADOW_LINE + 64;
            uint8_t *r = emu_shadow_at(&a, base + o, 4, false, mem + o);
            bool mine = l >= 3 + round && (l - 3 - round) % 300 == 0;
            bool before = round == 1 && l >= 3 && (l - 3) % 300 == 0;
            ck_assert(mine ? r != mem + o : r == mem + o);
            ck_assert_uint_eq(r[0], (mine ? 0x50 + round : before ? 0x50 : 0));
        }
        emu_shadow_commit(&a);
        ck_assert_uint_eq(mem[(3 + round) * EMU_SHADOW_LINE + 64],
                          0x50 + round);
    }
    /* many more such sections (a slot left behind by each would fill
     * the table) */
    static uint8_t last[LINES];
    for (unsigned round = 0; round < 4000; round++) {
        for (unsigned k = 0; k < 3; k++) {
            unsigned l = (round * 3 + k) % LINES;
            unsigned o = l * EMU_SHADOW_LINE + 96;
            uint8_t *pa = emu_shadow_at(&a, base + o, 1, true, mem + o);
            *pa = last[l] = (uint8_t)(round + 1);
        }
        emu_shadow_commit(&a);
    }
    for (unsigned l = 0; l < LINES; l++) {
        ck_assert_uint_eq(mem[l * EMU_SHADOW_LINE + 96], last[l]);
    }
    ck_assert_uint_eq(a.nslot, 2048);       /* (grown for the 700) */
    emu_shadow_fini(&a);
    emu_shadow_fini(&b);
    free(mem);
}
END_TEST

Suite *memory_suite(void)
{
    Suite *s = suite_create("memory");
    TCase *tc = tcase_create("table");
    tcase_add_test(tc, alloc_table);
    tcase_add_test(tc, alloc_host_bytes_aligned);
    tcase_add_test(tc, shadow_buffers_and_commits);
    tcase_add_test(tc, shadow_commit_order);
    tcase_add_test(tc, alloc_over_limit_takes_nothing);
    tcase_add_test(tc, alloc_beside_kernels);
    tcase_add_test(tc, write_beside_kernel_changes);
    /* write_beside_kernel_changes memmoves a 1.3 MB table 20000 times
     * (emu_mem_release in place): about 2 s, but 20 s and more where
     * ThreadSanitizer checks every memmove's range */
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    tc = tcase_create("faults");
    tcase_add_test(tc, fault_out_of_bounds);
    tcase_add_test(tc, fault_misaligned_readonly);
    suite_add_tcase(s, tc);
    tc = tcase_create("spaces");
    tcase_add_test(tc, generic_windows);
    tcase_add_test(tc, dynamic_shared);
    tcase_add_test(tc, cp_async_copy);
    tcase_add_test(tc, load_widths_extend);
    suite_add_tcase(s, tc);
    tc = tcase_create("atomics");
    tcase_add_test(tc, atomics_ordered);
    tcase_add_test(tc, cache_policy);
    tcase_add_test(tc, alloca_per_lane);
    tcase_add_test(tc, stackrestore_frees);
    tcase_add_test(tc, alloca_faults);
    tcase_add_test(tc, alloca_frames);
    tcase_add_test(tc, b128_moves_atomics);
    tcase_add_test(tc, vector_atomics);
    tcase_add_loop_test(tc, atomics_table, 0,
                        (int)(sizeof(atom_rows) / sizeof(atom_rows[0])));
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(memory_suite());
}
