/*
 * fuzz/fuzz_fatbin.c: libFuzzer entry for the fat-binary reader
 * (runtime/fatbin): the input is a file's bytes, as `ptxemu fatbin` and
 * cuModuleLoadData with a known size see them.  Every input must come
 * back as entries or as an error message; anything else (crash, leak,
 * UB, unbounded memory, hang) is a bug.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "runtime/fatbin/fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    if (size == 0) {
        return 0;
    }
    if (fatbin_is_elf(data, size)) {
        fatbin_section sec[8];
        (void)fatbin_elf_sections(data, size, sec, 8, err, sizeof err);
        return 0;
    }
    fatbin_entry_ex v[16];
    int n = fatbin_list_ex(data, size, v, 16, err, sizeof err);
    for (int i = 0; i < n && i < 16; i++) {
        /* One entry at a time, as `ptxemu fatbin --extract` takes them;
         * large ones only through the budgeted load below. */
        if (v[i].e.size > ((uint64_t)16 << 20)) {
            continue;
        }
        unsigned char *bytes;
        size_t len;
        if (fatbin_entry_bytes(&v[i], &bytes, &len, err, sizeof err) == 0) {
            free(bytes);
        }
    }
    char *ptx[4] = {NULL};
    size_t lens[4];
    int k = fatbin_get_all_ptx(data, size, 80, ptx, lens, 4, err,
                               sizeof err);
    for (int i = 0; i < k && i < 4; i++) {
        free(ptx[i]);
    }
    return 0;
}
