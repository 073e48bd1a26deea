/*
 * runtime/fatbin/extent.c: how many bytes are readable from a pointer
 * (contract in fatbin.h, fatbin_readable).
 *
 * A fat binary handed over by pointer (__cudaRegisterFatBinary,
 * cuModuleLoadData) comes without a size, and its headers may lie: the
 * reader is bounded by the readable mappings of the process instead,
 * as the kernel lists them in /proc/self/maps (proc(5): "start-end
 * perms offset dev inode path", addresses in hex).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "runtime/fatbin/fatbin.h"

int fatbin_readable(const void *p, size_t *extent)
{
    FILE *f = fopen("/proc/self/maps", "re");
    if (!f) {
        return -1;
    }
    uintptr_t a = (uintptr_t)p, end = 0;
    char line[512];
    int found = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long long lo, hi;
        char perms[8];
        if (sscanf(line, "%llx-%llx %7s", &lo, &hi, perms) != 3) {
            continue;
        }
        if (!found) {
            if (a >= lo && a < hi && perms[0] == 'r') {
                found = 1;
                end = (uintptr_t)hi;
            }
        } else if (lo == end && perms[0] == 'r') {
            end = (uintptr_t)hi;        /* the next mapping adjoins */
        } else if (lo >= end) {
            break;
        }
        /* lines that do not end within the buffer: skip the rest */
        while (!strchr(line, '\n') && fgets(line, sizeof line, f)) {
        }
    }
    fclose(f);
    if (found) {
        *extent = (size_t)(end - a);
    }
    return found;
}
