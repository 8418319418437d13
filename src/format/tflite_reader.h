/* TFLite FlatBuffer → graph IR. Verifies the whole file before anything uses it. */
#ifndef TFCC_FORMAT_TFLITE_READER_H
#define TFCC_FORMAT_TFLITE_READER_H

#include "base/err.h"
#include "format/fb_verify.h"
#include "ir/ir.h"

/* Reads a .tflite model held in data[0..size) into *g (which must be zeroed).
 * data must stay valid and unchanged for the life of *g: constant tensors point into it.
 * On failure returns TFCC_ERR_INVALID_MODEL (or TFCC_ERR_NO_MEMORY/TFCC_ERR_UNSUPPORTED) with a
 * message naming the cause, and *g is left freed. Never reads outside [data, data+size),
 * never allocates more than a small multiple of size. */
tfcc_status tfcc_tflite_read(const uint8_t *data, size_t size, tfcc_graph *g, tfcc_err *err);
/* tfcc_tflite_read where the caller can read some of the file's bytes without touching
 * data[] (peek: a file descriptor of the file; format/fb_verify.h): the length of each buffer's
 * data is asked of peek first, so that the load does not touch the first page of every
 * constant (a warm load from a weights cache maps those pages and uses few of them; each first
 * touch costs ~10 us on a VM that shadows page tables). peek NULL: tfcc_tflite_read. */
tfcc_status tfcc_tflite_read_peek(const uint8_t *data, size_t size, tfcc_fbv_peek_fn peek,
                                  void *peek_user, tfcc_graph *g, tfcc_err *err);

#endif
