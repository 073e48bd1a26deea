/*
 * runtime/cuda/drv_ipcev.c: the shared completion state of an
 * interprocess event (contract in drv_ipcev.h).
 *
 * The page holds C11 atomics (lock-free 32-bit ones, address-free as
 * C11 7.17.5 recommends, so they work between processes through a
 * MAP_SHARED mapping).  Waiters sleep on the completed generation with
 * FUTEX_WAIT, not FUTEX_WAIT_PRIVATE (futex(2): the shared form keys
 * the wait on the file page, so a wake from another process that maps
 * it reaches them), with a timeout so that a recorder that exits
 * without completing is noticed.  Generations wrap: compared by
 * difference.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "emu/memory.h"
#include "runtime/cuda/drv_ipcev.h"

#define PAGE_MAGIC 0x50544556u          /* "PTEV" */

typedef struct Page {
    _Atomic uint32_t magic;
    _Atomic uint32_t recorded;          /* last record's generation */
    _Atomic uint32_t completed;         /* highest completed one */
    _Atomic uint32_t recorder;          /* pid of the last record's */
} Page;

_Static_assert(sizeof(Page) <= DRV_IPCEV_BYTES, "the page holds it");

struct DrvIpcEv {
    Page *p;
    _Atomic int fd;
    _Atomic int refs;
};

static DrvIpcEv *wrap(void *map, int fd)
{
    DrvIpcEv *v = calloc(1, sizeof(*v));
    if (!v) {
        munmap(map, DRV_IPCEV_BYTES);
        if (fd >= 0) {
            close(fd);
        }
        return NULL;
    }
    v->p = map;
    atomic_init(&v->fd, fd);
    atomic_init(&v->refs, 1);
    return v;
}

DrvIpcEv *drv_ipcev_new(void)
{
    int fd = emu_memfd_sealed("ptxemu-ipcev", DRV_IPCEV_BYTES);
    if (fd < 0) {
        return NULL;
    }
    void *m = mmap(NULL, DRV_IPCEV_BYTES, PROT_READ | PROT_WRITE,
                   MAP_SHARED, fd, 0);
    if (m == MAP_FAILED) {
        close(fd);
        return NULL;
    }
    Page *p = m;                        /* a fresh memfd reads zero */
    atomic_store(&p->magic, PAGE_MAGIC);
    return wrap(m, fd);
}

DrvIpcEv *drv_ipcev_adopt(void *map)
{
    if (!map) {
        return NULL;
    }
    if (atomic_load(&((Page *)map)->magic) != PAGE_MAGIC) {
        munmap(map, DRV_IPCEV_BYTES);
        return NULL;
    }
    return wrap(map, -1);
}

int drv_ipcev_fd(DrvIpcEv *v)
{
    return atomic_load(&v->fd);
}

void drv_ipcev_unexport(DrvIpcEv *v)
{
    int fd = v ? atomic_exchange(&v->fd, -1) : -1;
    if (fd >= 0) {
        close(fd);
    }
}

void drv_ipcev_ref(DrvIpcEv *v)
{
    atomic_fetch_add(&v->refs, 1);
}

void drv_ipcev_unref(DrvIpcEv *v)
{
    if (v && atomic_fetch_sub(&v->refs, 1) == 1) {
        munmap(v->p, DRV_IPCEV_BYTES);
        drv_ipcev_unexport(v);
        free(v);
    }
}

uint32_t drv_ipcev_record(DrvIpcEv *v)
{
    atomic_store(&v->p->recorder, (uint32_t)getpid());
    return atomic_fetch_add(&v->p->recorded, 1) + 1;
}

void drv_ipcev_complete(DrvIpcEv *v, uint32_t gen)
{
    uint32_t cur = atomic_load(&v->p->completed);
    while ((int32_t)(gen - cur) > 0 &&
           !atomic_compare_exchange_weak(&v->p->completed, &cur, gen)) {
    }
    syscall(SYS_futex, &v->p->completed, FUTEX_WAKE, INT_MAX, NULL, NULL,
            0);
}

uint32_t drv_ipcev_last(const DrvIpcEv *v)
{
    return atomic_load(&v->p->recorded);
}

/* Whether the last recorder has exited (its records never complete). */
static int recorder_gone(const Page *p)
{
    pid_t pid = (pid_t)atomic_load(&p->recorder);
    return pid > 0 && kill(pid, 0) != 0 && errno == ESRCH;
}

int drv_ipcev_done(const DrvIpcEv *v, uint32_t gen)
{
    return (int32_t)(atomic_load(&v->p->completed) - gen) >= 0 ||
           recorder_gone(v->p);
}

void drv_ipcev_wait(const DrvIpcEv *v, uint32_t gen)
{
    for (;;) {
        uint32_t cur = atomic_load(&v->p->completed);
        if ((int32_t)(cur - gen) >= 0 || recorder_gone(v->p)) {
            return;
        }
        /* Sleeps while completed is still cur; 50 ms at most. */
        struct timespec ts = { 0, 50 * 1000 * 1000 };
        syscall(SYS_futex, &v->p->completed, FUTEX_WAIT, cur, &ts, NULL, 0);
    }
}
