/* Strict FlatBuffer reads for the model loader: like the fb.h accessors, but a field that is
 * present and malformed (offset out of the buffer, vector longer than the file, string
 * without its NUL, broken vtable) is an error (TFCC_ERR_INVALID_MODEL, message naming the
 * offending offsets) instead of reading as absent. Callers prefix the message with what
 * they were reading ("tensor 12 (conv1/w): quantization: ..."). */
#ifndef TFCC_FORMAT_FB_VERIFY_H
#define TFCC_FORMAT_FB_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "format/fb.h"

/* Root table: uoffset at 0, header of the table it points to. */
tfcc_status tfcc_fbv_root(const uint8_t *buf, size_t len, tfcc_fb_table *root, tfcc_err *err);
/* Verifies the header of table t (vtable, inline size) and that every present field's
 * offset lies inside the table. */
tfcc_status tfcc_fbv_table(const tfcc_fb_table *t, tfcc_err *err);

/* Scalar fields: *v = def if absent. */
tfcc_status tfcc_fbv_u8(const tfcc_fb_table *t, int field, uint8_t def, uint8_t *v, tfcc_err *err);
tfcc_status tfcc_fbv_i8(const tfcc_fb_table *t, int field, int8_t def, int8_t *v, tfcc_err *err);
tfcc_status tfcc_fbv_i32(const tfcc_fb_table *t, int field, int32_t def, int32_t *v, tfcc_err *err);
tfcc_status tfcc_fbv_u32(const tfcc_fb_table *t, int field, uint32_t def, uint32_t *v,
                         tfcc_err *err);
tfcc_status tfcc_fbv_u64(const tfcc_fb_table *t, int field, uint64_t def, uint64_t *v,
                         tfcc_err *err);

/* Sub-table (header verified with tfcc_fbv_table); out->buf == NULL if absent. */
tfcc_status tfcc_fbv_subtable(const tfcc_fb_table *t, int field, tfcc_fb_table *out, tfcc_err *err);
/* Vector of elem-byte elements; *present false (and out zeroed) if absent. */
tfcc_status tfcc_fbv_vector(const tfcc_fb_table *t, int field, size_t elem, tfcc_fb_vec *out,
                            bool *present, tfcc_err *err);
/* Reads the n bytes of the buffer at offset off into dst without touching the buffer's
 * memory (a file descriptor holding the same bytes), or returns false (then they are read from
 * the buffer). */
typedef bool (*tfcc_fbv_peek_fn)(void *user, size_t off, void *dst, size_t n);
/* tfcc_fbv_vector whose element count (the uint32 before the elements) is read through peek
 * when it serves it (NULL: tfcc_fbv_vector): the vector's first page is not touched. */
tfcc_status tfcc_fbv_vector_peek(const tfcc_fb_table *t, int field, size_t elem,
                                 tfcc_fbv_peek_fn peek, void *user, tfcc_fb_vec *out, bool *present,
                                 tfcc_err *err);
/* String; *s = NULL, *len = 0 if absent. */
tfcc_status tfcc_fbv_string(const tfcc_fb_table *t, int field, const char **s, uint32_t *len,
                            tfcc_err *err);
/* Element i (< v->count) of a vector of tables obtained from t; header verified. */
tfcc_status tfcc_fbv_vec_table(const tfcc_fb_table *t, const tfcc_fb_vec *v, uint32_t i,
                               tfcc_fb_table *out, tfcc_err *err);

#endif
