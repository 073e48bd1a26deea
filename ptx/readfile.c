/*
 * ptx/readfile.c: bounded whole-file reads (contract in readfile.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ptx/readfile.h"

/* What a file that is not one is, or NULL for a readable kind. */
static const char *refused_kind(mode_t m)
{
    return S_ISDIR(m) ? "a directory"
         : S_ISCHR(m) ? "a character device"
         : S_ISBLK(m) ? "a block device"
         : NULL;
}

ptx_read_status ptx_read_file(const char *path, size_t limit, char **buf,
                              size_t *len, char *why, size_t whylen)
{
    *buf = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        int e = errno;
        snprintf(why, whylen, "%s", strerror(e));
        return e == ENOENT ? PTX_READ_NOT_FOUND : PTX_READ_IO;
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0) {
        snprintf(why, whylen, "%s", strerror(errno));
        fclose(f);
        return PTX_READ_IO;
    }
    const char *kind = refused_kind(st.st_mode);
    if (kind) {
        snprintf(why, whylen, "%s, not a file", kind);
        fclose(f);
        return PTX_READ_NOT_REGULAR;
    }
    /* A regular file's size sizes the buffer once (a doubling buffer
     * would briefly hold twice a large file); a FIFO's is unknown. */
    size_t cap = 1 << 16;
    if (S_ISREG(st.st_mode) && st.st_size > 0) {
        if ((unsigned long long)st.st_size > limit) {
            snprintf(why, whylen, "%llu bytes, more than the %zu-byte "
                     "limit", (unsigned long long)st.st_size, limit);
            fclose(f);
            return PTX_READ_TOO_LARGE;
        }
        cap = (size_t)st.st_size + 1;
    }
    size_t n = 0;
    char *b = malloc(cap + 2);
    ptx_read_status rc = b ? PTX_READ_OK : PTX_READ_NO_MEMORY;
    while (rc == PTX_READ_OK) {
        if (n == cap) {
            if (cap > limit) {
                snprintf(why, whylen, "more than the %zu-byte limit",
                         limit);
                rc = PTX_READ_TOO_LARGE;
                break;
            }
            size_t ncap = cap * 2 > limit + 1 ? limit + 1 : cap * 2;
            char *nb = realloc(b, ncap + 2);
            if (!nb) {
                rc = PTX_READ_NO_MEMORY;
                break;
            }
            b = nb;
            cap = ncap;
        }
        size_t got = fread(b + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) {
                snprintf(why, whylen, "%s", strerror(errno ? errno : EIO));
                rc = PTX_READ_IO;
            }
            break;
        }
    }
    fclose(f);
    if (rc == PTX_READ_OK && n > limit) {
        snprintf(why, whylen, "more than the %zu-byte limit", limit);
        rc = PTX_READ_TOO_LARGE;
    }
    if (rc != PTX_READ_OK) {
        if (rc == PTX_READ_NO_MEMORY) {
            snprintf(why, whylen, "out of memory");
        }
        free(b);
        return rc;
    }
    b[n] = b[n + 1] = '\0';
    *buf = b;
    *len = n;
    return PTX_READ_OK;
}
