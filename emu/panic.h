/*
 * emu/panic.h: stopping on our own bugs.
 *
 * ptxemu keeps three kinds of error apart:
 *  - guest faults (an illegal address, a trap, a deadlock, the
 *    instruction limit): emu_fault() records them, the launch stops with
 *    a CUDA error and the host program lives on;
 *  - user errors (bad PTX, a bad option or config file, a broken timing
 *    plug-in): a located message and a non-zero exit, or an error code
 *    from the API;
 *  - emulator bugs: a state the code itself guarantees cannot happen (an
 *    empty SIMT stack where an entry must exist, a frame popped that was
 *    never pushed, more warps exited than a CTA has, an enum value
 *    outside its type).  Only these use EMU_PANIC and EMU_ASSERT.
 * Never use them for anything input can cause: untrusted input must not
 * stop the host.
 *
 * EMU_PANIC(fmt, ...) prints "ptxemu: internal error at FILE:LINE: " and
 * the printf-style message to stderr, then calls abort() (a core dump or
 * a debugger stops at the bug, sanitizers print the stack).
 * EMU_ASSERT(cond) panics with the condition's text when cond is false.
 * It is active in every build (NDEBUG does not remove it): it costs one
 * predicted branch, so keep it off per-lane inner loops.  cond is
 * evaluated exactly once.
 */
#ifndef PTXEMU_EMU_PANIC_H
#define PTXEMU_EMU_PANIC_H

_Noreturn void emu_panic_at(const char *file, int line, const char *fmt,
                            ...)
    __attribute__((format(printf, 3, 4), cold));

#define EMU_PANIC(...) emu_panic_at(__FILE__, __LINE__, __VA_ARGS__)

#define EMU_ASSERT(cond)                                                  \
    do {                                                                  \
        if (__builtin_expect(!(cond), 0)) {                               \
            emu_panic_at(__FILE__, __LINE__, "assertion failed: %s",      \
                         #cond);                                          \
        }                                                                 \
    } while (0)

#endif
