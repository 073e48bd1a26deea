/*
 * runtime/cuda/drv_quiet.c: whether the host program could be writing
 * host-visible memory while a kernel runs (see drv_quiet.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE                     /* dladdr(3) */
#endif
#include "config.h"

#include <dirent.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/pool.h"
#include "runtime/cuda/drv_queue.h"
#include "runtime/cuda/drv_quiet.h"

static atomic_int ours;                 /* our threads outside user code */
static atomic_int waiting;              /* host threads waiting in CUDA */
static atomic_uint_fast64_t stamp;      /* bumped when one may run */

void drv_quiet_ours(int delta)
{
    if (delta < 0) {
        atomic_fetch_add(&stamp, 1);
    }
    atomic_fetch_add(&ours, delta);
}

void drv_quiet_wait_begin(void)
{
    atomic_fetch_add(&waiting, 1);
}

void drv_quiet_wait_end(void)
{
    drv_quiet_wait_released(1);
}

void drv_quiet_wait_released(unsigned n)
{
    atomic_fetch_add(&stamp, 1);
    atomic_fetch_sub(&waiting, (int)n);
}

/* A forked child has only the thread that forked (pthread_atfork(3)):
 * none of the parent's worker, callback or waiting threads,
 * whose counts would otherwise pass the child's own threads off as
 * ours and its livelock rule call a kernel stuck that a thread of the
 * child is about to release. */
static void quiet_forked(void)
{
    atomic_store(&ours, 0);
    atomic_store(&waiting, 0);
    atomic_fetch_add(&stamp, 1);
}

static void quiet_init(void)
{
    pthread_atfork(NULL, NULL, quiet_forked);
}

void drv_quiet_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, quiet_init);
}

/* The start of /proc/self/task/TID/NAME (proc(5)) in buf, NUL-ended
 * ("" when unreadable). */
static void read_task_file(const char *tid, const char *name, char *buf,
                           size_t cap)
{
    char path[300];
    snprintf(path, sizeof(path), "/proc/self/task/%s/%s", tid, name);
    FILE *f = fopen(path, "r");
    size_t len = f ? fread(buf, 1, cap - 1, f) : 0;
    if (f) {
        fclose(f);
    }
    buf[len] = 0;
}

#if defined(__SANITIZE_THREAD__)
/* ThreadSanitizer's runtime has a thread of its own (its background
 * thread, started at the process's first pthread_create and again in a
 * forked child) that never runs the program's code, so it is no writer.
 * It is told apart by where it waits: in a system call made from the
 * runtime's own code (the last field of /proc/[tid]/syscall is the
 * caller's program counter, proc(5)).  While it runs it is counted as
 * any thread is, and the caller asks again later. */
extern void __tsan_init(void);

static bool sanitizer_thread(const char *tid)
{
    char buf[256];
    read_task_file(tid, "syscall", buf, sizeof(buf));
    const char *pc = strrchr(buf, ' ');
    Dl_info at, rt;
    return pc && strncmp(buf, "running", 7) != 0 &&
           dladdr((void *)(uintptr_t)strtoull(pc + 1, NULL, 16), &at) &&
           dladdr((void *)(uintptr_t)__tsan_init, &rt) &&
           at.dli_fbase == rt.dli_fbase;
}
#else
static bool sanitizer_thread(const char *tid)
{
    (void)tid;
    return false;
}
#endif

/* The process's threads now (Linux: one entry per thread in
 * /proc/self/task) but a sanitizer's own, -1 when unknown; *running: how
 * many of them are running or runnable (state R in their stat file,
 * proc(5)). */
static long count_threads(long *running)
{
    DIR *d = opendir("/proc/self/task");
    if (!d) {
        return -1;
    }
    long n = 0;
    *running = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || sanitizer_thread(e->d_name)) {
            continue;
        }
        n++;
        char buf[512];
        read_task_file(e->d_name, "stat", buf, sizeof(buf));
        /* "tid (comm) S ...": the state follows the last ')' */
        const char *p = strrchr(buf, ')');
        if (!p || p[1] != ' ' || p[2] == 'R') {
            (*running)++;               /* unreadable counts as running */
        }
    }
    closedir(d);
    return n;
}

int64_t drv_quiet_stamp(void *arg)
{
    (void)arg;
    uint_fast64_t before = atomic_load(&stamp);
    long running = 0;
    long n = count_threads(&running);
    long pool = (long)emu_pool_threads();
    long known = (long)atomic_load(&ours) + atomic_load(&waiting) + pool;
    /* Besides the counts, no thread may be runnable but this one (the
     * kernel's) and the emulator's CTA threads: a waiter whose wait is
     * over, or any thread about to run the program's code, is. */
    if (n < 0 || n > known || running > 1 + pool ||
        drv_queue_host_ready() != 0 || atomic_load(&stamp) != before) {
        return -1;
    }
    return (int64_t)(before & INT64_MAX);
}
