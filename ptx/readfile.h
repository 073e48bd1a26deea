/*
 * ptx/readfile.h: reading a whole input file (PTX, fat binary, cubin,
 * link input) into memory, bounded.
 *
 * Contract.  Inputs come from users and other people's programs: a
 * read never grows without limit and never blocks on a device.
 * Directories and character or block devices (/dev/zero, a terminal)
 * are refused with the reason; regular files, FIFOs and sockets are
 * read up to `limit` bytes, and a longer input is refused (nothing is
 * kept).  The buffer is malloc'd with two NUL bytes after the data (not
 * counted in *len), which the lexer's string scanner needs.
 */
#ifndef PTXEMU_PTX_READFILE_H
#define PTXEMU_PTX_READFILE_H

#include <stddef.h>

/* The default limit of every file read: 1 GiB, above any PTX module,
 * fat binary or program nvcc writes in practice. */
#define PTX_READ_LIMIT ((size_t)1 << 30)

typedef enum ptx_read_status {
    PTX_READ_OK = 0,
    PTX_READ_NOT_FOUND,         /* ENOENT */
    PTX_READ_IO,                /* cannot open or read: errno's text */
    PTX_READ_NOT_REGULAR,       /* a directory or a device */
    PTX_READ_TOO_LARGE,         /* over the limit */
    PTX_READ_NO_MEMORY
} ptx_read_status;

/* Reads `path` whole.  On PTX_READ_OK *buf (caller frees) and *len are
 * set; otherwise *buf is NULL and `why` holds a message without the
 * path ("a character device, not a file", "larger than 1073741824
 * bytes (the limit)", ...). */
ptx_read_status ptx_read_file(const char *path, size_t limit, char **buf,
                              size_t *len, char *why, size_t whylen);

#endif
