/*
 * timing/gpu/mem/models.c: the memory systems of the `gpu` model, by
 * name (gpu_mem.h): `mem.model = hier` is the detailed one of this
 * directory.
 */
#include <string.h>

#include "timing/gpu/gpu_mem.h"
#include "timing/gpu/mem/hier.h"

const GpuMemOps *const gpu_mem_models[] = {
    &gpu_mem_hier,
    NULL,
};

const GpuMemOps *gpu_mem_find(const char *name)
{
    for (size_t i = 0; gpu_mem_models[i]; i++) {
        if (strcmp(gpu_mem_models[i]->name, name) == 0) {
            return gpu_mem_models[i];
        }
    }
    return NULL;
}
