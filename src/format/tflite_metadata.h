/* A TFLite model's metadata entries (Model.metadata: a name and a buffer index), read and added.
 *
 * Adding an entry does not rewrite the model: the new file is a prefix (a new root Model table
 * holding the old fields, its buffers and metadata vectors extended by one entry each, the new
 * Buffer and Metadata tables and the entry's bytes) followed by the model byte for byte.
 * FlatBuffer offsets are relative and point forward, so the model's tables need no change, and
 * the prefix is a multiple of TFCC_TFLITE_METADATA_ALIGN bytes so its constant data keeps its
 * alignment. The layout is a pure function of the model and the entry, so a caller can rebuild
 * a file and compare it byte for byte (the watermark does). */
#ifndef TFCC_FORMAT_TFLITE_METADATA_H
#define TFCC_FORMAT_TFLITE_METADATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

#define TFCC_TFLITE_METADATA_ALIGN 64

/* One metadata entry found by name. */
typedef struct tfcc_tflite_metadata {
  bool found;
  uint32_t index;      /* its position in Model.metadata */
  const uint8_t *data; /* its buffer's bytes (inside the model) */
  uint32_t len;
} tfcc_tflite_metadata;

/* Finds the last metadata entry called `name` in model[0..size). TFCC_OK with out->found false
 * when there is none; TFCC_ERR_INVALID_MODEL for a file that is not a TFLite model or whose
 * Model table, buffers or metadata are out of range, TFCC_ERR_INTEGRITY for an entry whose
 * buffer has no data, TFCC_ERR_UNSUPPORTED for a model with fields unknown to tfcc or a buffer
 * stored outside the FlatBuffer (such a model cannot be prefixed). */
tfcc_status tfcc_tflite_metadata_find(const uint8_t *model, size_t size, const char *name,
                                      tfcc_tflite_metadata *out, tfcc_err *err);

/* Writes an entry's bytes into dst[0..cap) once the offset of the original model inside the new
 * file (the prefix's size) is known; returns the number of bytes written (< cap). */
typedef size_t (*tfcc_tflite_metadata_writer)(void *ctx, size_t model_offset, uint8_t *dst,
                                              size_t cap);

/* Builds *out (malloc'd, *out_size bytes) = prefix + model[0..size) with one more metadata entry
 * `name` whose buffer holds what `write` writes, at most data_max bytes (a terminating NUL
 * included). Does not check whether an entry `name` exists already. */
tfcc_status tfcc_tflite_metadata_prepend(const uint8_t *model, size_t size, const char *name,
                                         size_t data_max, tfcc_tflite_metadata_writer write,
                                         void *ctx, uint8_t **out, size_t *out_size, tfcc_err *err);

#endif
