/*
 * timing/gpu/mem/models.c: the memory systems behind the `gpu` model's
 * SMs, by name (`mem.model`; contract in timing/gpu/gpu_mem.h): `ideal`
 * (ideal.c: a fixed latency per space and a bandwidth cap per SM) and
 * `hier`, the detailed one of this directory.  A memory system added to
 * the tree adds one row.
 */
#include "config.h"

#include <string.h>

#include "timing/gpu/gpu_mem.h"
#include "timing/gpu/mem/hier.h"
#include "timing/gpu/mem/ideal.h"

const GpuMemOps *const gpu_mem_models[] = {
    &gpu_mem_ideal,
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
