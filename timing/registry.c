/*
 * timing/registry.c: the built-in timing models, by name (tm.h).
 *
 * `--timing NAME` looks NAME up here; a model added to the tree adds one
 * row.  Built-in models go through the same init and checks as plug-ins
 * (loader.c), so they are held to the public ABI.
 */
#include "timing/tm.h"

const TmBuiltin tm_builtins[] = {
    {"simple", tm_simple_init},
    {"gpu", tm_gpu_init},
    {NULL, NULL}
};
