/*
 * emu/builtins.h: the device library functions that nvcc calls as
 * external functions without a body: vprintf, malloc, free,
 * __cuda_syscall_aligned_malloc (__nv_aligned_device_malloc) and
 * __assertfail.
 *
 * Binding.  The control selector (ops_ctrl.c) asks emu_builtin_handler()
 * for the handler of a direct call to an extern function with no body;
 * any other such call keeps failing the module load as unsupported.  A
 * builtin handler runs the call for every lane of its mask, lowest lane
 * first: it reads the arguments from the caller's call-sequence .param
 * variables (or registers) exactly as emu_simt_call() copies them, and
 * writes the result to the return variable.  No frame is pushed.
 *
 * vprintf(fmt, args).  fmt is a generic pointer to a NUL-terminated
 * format; args a generic pointer to the packed argument buffer, each
 * argument aligned to its size: 4 bytes for %d %i %u %x %X %o %c (and
 * their h/hh forms), 8 with l ll z t j, 8 for %s %p and for every
 * floating conversion (floats are promoted to double).  Supported:
 * %d %i %u %x %X %o %c %s %p %f %F %e %E %g %G %a %A %%, flags "-+ #0",
 * width and precision (digits or *, a 4-byte int argument), length
 * modifiers hh h l ll z t j (and L for floats).  Conversions are done by
 * the host's snprintf, so the text is what host printf would print
 * (%p prints "(nil)" for 0, %s of a NULL pointer "(null)").  The return
 * value follows the CUDA programming guide: the number of arguments
 * parsed (conversions other than %%; * widths are not counted), 0 when
 * none, -1 when fmt is NULL.  A bad format (unknown conversion, a
 * truncated specification, %n) or an unreadable pointer is a guest fault
 * naming vprintf; the host never reads outside guest memory.
 *
 * Output.  Each call's text is one record appended to its launch's
 * buffer in execution order (deterministic: the scheduler's order, lanes
 * ascending within a warp).  The buffer holds at most
 * EmuConfig.printf_buffer_bytes (0 = 1 MiB, CUDA's default FIFO size);
 * later records are dropped whole and a note saying how many is added at
 * the end of the launch's output.  emu_launch_end() moves the launch's
 * output to the device; emu_device_flush_output() writes everything
 * pending, in launch order, to EmuConfig.printf_out (NULL = stdout): the
 * runtime calls it at synchronisation (ptxemu_synchronize) and
 * emu_device_free() calls it last.  (Should more than four buffers' worth
 * pile up without a synchronisation, the older output is written early,
 * still in order.)
 *
 * malloc(size) / free(ptr).  Each block is its own EMU_ALLOC_HEAP
 * allocation in the device address space (so every access to it is
 * bounds checked, and a freed block faults when used again); addresses
 * are 256-byte aligned (>= the 16 CUDA guarantees) and deterministic.
 * Blocks live until freed or the device is destroyed, across launches.
 * The heap holds EmuConfig.heap_bytes (sizes rounded up to 16 bytes);
 * malloc returns 0 when it is exhausted, and for size 0.
 * __cuda_syscall_aligned_malloc(size, align) returns 0 unless align is a
 * power of two no larger than 256.  free(0) does nothing; freeing
 * anything but the start of a live heap block (a double free, a stack or
 * cudaMalloc pointer) is an EMU_ERR_ILLEGAL_ADDRESS guest fault.
 *
 * __assertfail(message, file, line, function, charSize) stops the launch
 * with EMU_ERR_ASSERT; the fault's detail reads like CUDA's report:
 *   "file.cu:12: void k(int *): block: [0,0,0], thread: [3,0,0]
 *    Assertion `x > 0` failed."
 */
#ifndef PTXEMU_EMU_BUILTINS_H
#define PTXEMU_EMU_BUILTINS_H

#include "emu/exec.h"

/* Default per-launch printf buffer (CUDA's cudaLimitPrintfFifoSize). */
#define EMU_PRINTF_BUFFER_DEFAULT (1u << 20)

/* The handler of the builtin named `name` (the device runtime's too,
 * emu/devrt.h), or NULL if there is none. */
EmuHandler emu_builtin_handler(const char *name);

/* For other builtin tables (devrt.c): argument j of a builtin call for
 * one lane, zero-extended from its size (at most 8 bytes); its first n
 * bytes (aggregates such as dim3; false when there is no such argument);
 * and storing the call's result. */
uint64_t emu_builtin_arg(EmuCtx *x, const EmuInsn *i, unsigned lane,
                         uint32_t j);
bool emu_builtin_arg_bytes(EmuCtx *x, const EmuInsn *i, unsigned lane,
                           uint32_t j, void *out, uint64_t n);
void emu_builtin_ret(EmuCtx *x, const EmuInsn *i, unsigned lane,
                     uint64_t val);
/* malloc's block of size bytes for lane (0 when the heap is exhausted),
 * and free of p: false when p is not the start of a live heap block. */
uint64_t emu_builtin_heap_alloc(EmuCtx *x, uint32_t lane, uint64_t size);
bool emu_builtin_heap_free(EmuCtx *x, uint32_t lane, uint64_t p);
/* While a device malloc or free is making or releasing its block (the
 * allocation events of emu/client.h, EMU_EV_DEV_ALLOC/FREE, come from
 * there), the context of the calling instruction and *lane its lane,
 * on the host thread running it; else NULL (a checker's allocation and
 * free sites: check/memcheck.c). */
const EmuCtx *emu_builtin_heap_caller(uint32_t *lane);

/* Move a launch's printf output to its device (emu_launch_end). */
void emu_printf_launch_end(EmuLaunch *l);
/* Write the device's pending printf output to its stream and flush it. */
void emu_device_flush_output(EmuDevice *d);
/* Release the device's output buffers (emu_device_free, after a flush). */
void emu_builtins_device_free(EmuDevice *d);

/* Append the records a worker's copy of l kept (length-framed, see
 * emu/pool.h) to l's buffer with the buffer's drop rule, and count
 * `dropped` more dropped records. */
void emu_printf_merge(EmuLaunch *l, const char *rec, size_t len,
                      uint64_t dropped);

#endif
