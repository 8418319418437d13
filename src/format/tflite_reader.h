/* TFLite FlatBuffer → graph IR. Verifies the whole file before anything uses it. */
#ifndef TFCC_FORMAT_TFLITE_READER_H
#define TFCC_FORMAT_TFLITE_READER_H

#include "base/err.h"
#include "ir/ir.h"

/* Reads a .tflite model held in data[0..size) into *g (which must be zeroed).
 * data must stay valid and unchanged for the life of *g: constant tensors point into it.
 * On failure returns TFCC_ERR_INVALID_MODEL (or TFCC_ERR_NO_MEMORY/TFCC_ERR_UNSUPPORTED) with a
 * message naming the cause, and *g is left freed. Never reads outside [data, data+size),
 * never allocates more than a small multiple of size. */
tfcc_status tfcc_tflite_read(const uint8_t *data, size_t size, tfcc_graph *g, tfcc_err *err);

#endif
