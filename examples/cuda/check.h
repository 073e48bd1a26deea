/*
 * examples/cuda/check.h: the error check shared by the runtime-API
 * examples.  Every example ends by printing PASSED (exit 0) or a
 * FAILED line naming what went wrong (exit 1).
 */
#ifndef EXAMPLES_CUDA_CHECK_H
#define EXAMPLES_CUDA_CHECK_H

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                        \
    do {                                                                   \
        cudaError_t e_ = (call);                                           \
        if (e_ != cudaSuccess) {                                           \
            std::printf("FAILED: %s:%d: %s: %s (%s)\n", __FILE__,          \
                        __LINE__, #call, cudaGetErrorName(e_),             \
                        cudaGetErrorString(e_));                           \
            std::exit(1);                                                  \
        }                                                                  \
    } while (0)

/* A failed comparison: one line, then exit 1. */
#define EXPECT(cond, ...)                                                  \
    do {                                                                   \
        if (!(cond)) {                                                     \
            std::printf("FAILED: %s:%d: ", __FILE__, __LINE__);            \
            std::printf(__VA_ARGS__);                                      \
            std::printf("\n");                                             \
            std::exit(1);                                                  \
        }                                                                  \
    } while (0)

static inline int passed(void)
{
    std::printf("PASSED\n");
    return 0;
}

#endif
