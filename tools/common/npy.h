/* NumPy .npy reader and writer (format versions 1.0, 2.0 and 3.0).
 *
 * Supported: little-endian (or byte-order-free) data in C order, dtypes
 * f2 f4 f8 i1 u1 i2 u2 i4 u4 i8 u8 b1, rank 0..TFCC_MAX_DIMS. Everything else is
 * rejected with a message naming the cause (big-endian, Fortran order, bad header, ...).
 * Element types are expressed as tfcc_dtype so they compare directly with a model's. */
#ifndef TFCC_TOOLS_NPY_H
#define TFCC_TOOLS_NPY_H

#include <stddef.h>
#include <stdint.h>

#include "tfcc/tfcc.h"

typedef struct npy_array {
  tfcc_dtype dtype;
  int32_t rank;
  int32_t dims[TFCC_MAX_DIMS];
  size_t count; /* product of dims (1 for rank 0) */
  size_t bytes; /* count x element size */
  void *data;   /* malloc'ed, bytes long (at least 1 byte allocated); free with npy_free */
} npy_array;

/* Parses a whole .npy image held in memory; copies the data. Returns 0, or -1 with err set. */
int npy_parse(const void *buf, size_t size, npy_array *out, char *err, size_t err_size);

/* Reads and parses a .npy file. Messages start with the path. Returns 0 or -1. */
int npy_read_file(const char *path, npy_array *out, char *err, size_t err_size);

/* Builds the header (magic .. trailing newline, total length a multiple of 64) for an array.
 * Returns the header length written to hdr (at most hdr_size), or 0 if the dtype has no
 * .npy equivalent or hdr_size is too small. */
size_t npy_header(tfcc_dtype dtype, int32_t rank, const int32_t *dims, char *hdr, size_t hdr_size);

/* Writes data (count of dims elements of dtype) as a .npy file. Returns 0 or -1. */
int npy_write_file(const char *path, tfcc_dtype dtype, int32_t rank, const int32_t *dims,
                   const void *data, char *err, size_t err_size);

void npy_free(npy_array *a);

/* The .npy descr of a dtype ("<f4", "|u1", ...), NULL if it has none. */
const char *npy_descr(tfcc_dtype dtype);

/* Formats "[1,224,224,3]" into buf (always NUL-terminated). Returns buf. */
char *npy_shape_str(int32_t rank, const int32_t *dims, char *buf, size_t size);

#endif
