/* Bounds-checked FlatBuffer primitives.
 *
 * A tfcc_fb_table is a view of one table inside a buffer. Every accessor checks every offset
 * it follows against the buffer, so a view can be read safely even if the table was never
 * verified against a schema: a field that is absent, or whose bytes would fall outside the
 * buffer, reads as the default. Used by the TFLite reader and by operators to read their
 * builtin options tables (fields are numbered from 0 in schema order; a union field takes two
 * numbers, its _type byte then its value, and deprecated fields keep theirs).
 * Strict variants that report malformed fields as errors are in fb_verify.h. */
#ifndef TFCC_FORMAT_FB_H
#define TFCC_FORMAT_FB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tfcc_fb_table {
  const uint8_t *buf; /* whole buffer; NULL for an absent table */
  size_t len;
  uint32_t pos; /* offset of the table's start (its soffset to the vtable) */
} tfcc_fb_table;

/* A vector of scalars: data points at the first element (unaligned access is allowed
 * only through the tfcc_fb_vec_* readers). count is checked against the buffer. */
typedef struct tfcc_fb_vec {
  const uint8_t *data;
  uint32_t count;
} tfcc_fb_vec;

bool tfcc_fb_table_present(const tfcc_fb_table *t);
/* true if the field is present in the vtable (and inside the buffer). */
bool tfcc_fb_has(const tfcc_fb_table *t, int field);

int8_t tfcc_fb_i8(const tfcc_fb_table *t, int field, int8_t def);
uint8_t tfcc_fb_u8(const tfcc_fb_table *t, int field, uint8_t def);
bool tfcc_fb_bool(const tfcc_fb_table *t, int field, bool def);
int16_t tfcc_fb_i16(const tfcc_fb_table *t, int field, int16_t def);
int32_t tfcc_fb_i32(const tfcc_fb_table *t, int field, int32_t def);
uint32_t tfcc_fb_u32(const tfcc_fb_table *t, int field, uint32_t def);
int64_t tfcc_fb_i64(const tfcc_fb_table *t, int field, int64_t def);
uint64_t tfcc_fb_u64(const tfcc_fb_table *t, int field, uint64_t def);
float tfcc_fb_f32(const tfcc_fb_table *t, int field, float def);

/* Sub-table field; returns a table with buf == NULL if absent or out of bounds. */
tfcc_fb_table tfcc_fb_table_field(const tfcc_fb_table *t, int field);
/* Vector field of elements of elem_size bytes; false if absent or out of bounds. */
bool tfcc_fb_vec_field(const tfcc_fb_table *t, int field, size_t elem_size, tfcc_fb_vec *out);
/* String field; returns a pointer to the bytes and sets *len; NULL if absent/out of bounds. */
const char *tfcc_fb_string_field(const tfcc_fb_table *t, int field, uint32_t *len);
/* Element i of a vector of tables. */
tfcc_fb_table tfcc_fb_vec_table(const tfcc_fb_table *t, const tfcc_fb_vec *v, uint32_t i);

/* Little-endian element readers for tfcc_fb_vec data (i < count is the caller's job). */
int32_t tfcc_fb_vec_i32(const tfcc_fb_vec *v, uint32_t i);
int64_t tfcc_fb_vec_i64(const tfcc_fb_vec *v, uint32_t i);
float tfcc_fb_vec_f32(const tfcc_fb_vec *v, uint32_t i);

#endif
