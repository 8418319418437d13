/* Lenient, bounds-checked FlatBuffer accessors (see fb.h): anything absent or out of bounds
 * reads as the default / an absent table / an absent vector. */
#include "format/fb.h"

#include "format/fb_core.h"

bool tfcc_fb_table_present(const tfcc_fb_table *t) { return t && t->buf != NULL; }

/* Inline bytes of a scalar field, or NULL. */
static const uint8_t *scalar(const tfcc_fb_table *t, int field, size_t size) {
  size_t at;
  if (tfcc_fb_field_at(t, field, size, &at, NULL, 0) != TFCC_FB_OK) return NULL;
  return t->buf + at;
}

bool tfcc_fb_has(const tfcc_fb_table *t, int field) {
  size_t at;
  return tfcc_fb_field_at(t, field, 1, &at, NULL, 0) == TFCC_FB_OK;
}

/* The signed readers are the unsigned ones, their bits taken as two's complement. */
uint8_t tfcc_fb_u8(const tfcc_fb_table *t, int field, uint8_t def) {
  const uint8_t *p = scalar(t, field, 1);
  return p ? p[0] : def;
}

int8_t tfcc_fb_i8(const tfcc_fb_table *t, int field, int8_t def) {
  return (int8_t)tfcc_fb_u8(t, field, (uint8_t)def);
}

bool tfcc_fb_bool(const tfcc_fb_table *t, int field, bool def) {
  const uint8_t *p = scalar(t, field, 1);
  return p ? p[0] != 0 : def;
}

int16_t tfcc_fb_i16(const tfcc_fb_table *t, int field, int16_t def) {
  const uint8_t *p = scalar(t, field, 2);
  return p ? (int16_t)tfcc_fb_ld16(p) : def;
}

uint32_t tfcc_fb_u32(const tfcc_fb_table *t, int field, uint32_t def) {
  const uint8_t *p = scalar(t, field, 4);
  return p ? tfcc_fb_ld32(p) : def;
}

int32_t tfcc_fb_i32(const tfcc_fb_table *t, int field, int32_t def) {
  return (int32_t)tfcc_fb_u32(t, field, (uint32_t)def);
}

uint64_t tfcc_fb_u64(const tfcc_fb_table *t, int field, uint64_t def) {
  const uint8_t *p = scalar(t, field, 8);
  return p ? tfcc_fb_ld64(p) : def;
}

int64_t tfcc_fb_i64(const tfcc_fb_table *t, int field, int64_t def) {
  return (int64_t)tfcc_fb_u64(t, field, (uint64_t)def);
}

float tfcc_fb_f32(const tfcc_fb_table *t, int field, float def) {
  const uint8_t *p = scalar(t, field, 4);
  if (!p) return def;
  uint32_t u = tfcc_fb_ld32(p);
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* Target of an offset field, or false. */
static bool target(const tfcc_fb_table *t, int field, size_t *pos) {
  size_t at;
  if (tfcc_fb_field_at(t, field, 4, &at, NULL, 0) != TFCC_FB_OK) return false;
  return tfcc_fb_follow(t->buf, t->len, at, pos, NULL, 0) == TFCC_FB_OK;
}

tfcc_fb_table tfcc_fb_table_field(const tfcc_fb_table *t, int field) {
  tfcc_fb_table none = {0};
  size_t pos;
  tfcc_fb_header h;
  if (!target(t, field, &pos) || pos > UINT32_MAX) return none;
  if (tfcc_fb_header_at(t->buf, t->len, pos, &h, NULL, 0) != TFCC_FB_OK) return none;
  tfcc_fb_table r = {t->buf, t->len, (uint32_t)pos};
  return r;
}

bool tfcc_fb_vec_field(const tfcc_fb_table *t, int field, size_t elem_size, tfcc_fb_vec *out) {
  size_t pos;
  tfcc_fb_vec v;
  if (!target(t, field, &pos)) return false;
  if (tfcc_fb_vector_at(t->buf, t->len, pos, elem_size, &v, NULL, 0) != TFCC_FB_OK) return false;
  if (out) *out = v;
  return true;
}

const char *tfcc_fb_string_field(const tfcc_fb_table *t, int field, uint32_t *len) {
  size_t pos;
  const char *s;
  uint32_t l;
  if (!target(t, field, &pos)) return NULL;
  if (tfcc_fb_string_at(t->buf, t->len, pos, &s, &l, NULL, 0) != TFCC_FB_OK) return NULL;
  if (len) *len = l;
  return s;
}

tfcc_fb_table tfcc_fb_vec_table(const tfcc_fb_table *t, const tfcc_fb_vec *v, uint32_t i) {
  tfcc_fb_table none = {0};
  if (!t || !t->buf || !v || !v->data || i >= v->count) return none;
  /* v->data must lie inside t's buffer: check before computing its position. */
  uintptr_t base = (uintptr_t)t->buf, d = (uintptr_t)v->data;
  if (d < base || d - base > t->len) return none;
  size_t at = (size_t)(d - base) + 4 * (size_t)i;
  size_t pos;
  tfcc_fb_header h;
  if (tfcc_fb_follow(t->buf, t->len, at, &pos, NULL, 0) != TFCC_FB_OK) return none;
  if (pos > UINT32_MAX) return none;
  if (tfcc_fb_header_at(t->buf, t->len, pos, &h, NULL, 0) != TFCC_FB_OK) return none;
  tfcc_fb_table r = {t->buf, t->len, (uint32_t)pos};
  return r;
}

int32_t tfcc_fb_vec_i32(const tfcc_fb_vec *v, uint32_t i) {
  return (int32_t)tfcc_fb_ld32(v->data + 4 * (size_t)i);
}

int64_t tfcc_fb_vec_i64(const tfcc_fb_vec *v, uint32_t i) {
  return (int64_t)tfcc_fb_ld64(v->data + 8 * (size_t)i);
}

float tfcc_fb_vec_f32(const tfcc_fb_vec *v, uint32_t i) {
  uint32_t u = tfcc_fb_ld32(v->data + 4 * (size_t)i);
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
