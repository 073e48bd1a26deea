/*
 * emu/cuerr.h: every cudaError_t of CUDA 13 with its name and the text
 * cudaGetErrorString gives (abi/cudart_errors.def).  One table
 * for the host libcudart and the device runtime's cudaGetErrorString /
 * cudaGetErrorName (emu/devrt.c).
 */
#ifndef PTXEMU_EMU_CUERR_H
#define PTXEMU_EMU_CUERR_H

#include <stddef.h>

typedef struct EmuCudaError {
    int value;
    const char *name;
    const char *text;
} EmuCudaError;

/* The table, sorted by value; *n entries. */
const EmuCudaError *emu_cuda_errors(size_t *n);

/* The entry of `value`, or NULL. */
const EmuCudaError *emu_cuda_error(int value);

/* What NVIDIA's libcudart gives for a value it does not know. */
#define EMU_CUDA_ERROR_UNKNOWN_TEXT "unrecognized error code"

#endif
