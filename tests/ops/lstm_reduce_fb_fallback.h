/* Weak stand-ins for the FlatBuffer scalar accessors the reduction / LSTM operators use, so
 * their unit tests link while src/format/fb.c is not in this branch. The library's real
 * (strong) definitions replace these as soon as fb.c is linked in. Include in one test file. */
#ifndef TFCC_TEST_LSTM_REDUCE_FB_FALLBACK_H
#define TFCC_TEST_LSTM_REDUCE_FB_FALLBACK_H

#include <stdint.h>
#include <string.h>

#include "format/fb.h"

/* Position of a field's value, or 0 if absent/out of bounds. */
static uint32_t fbf_field_pos(const tfcc_fb_table *t, int field, size_t size) {
  if (!t || !t->buf || (size_t)t->pos + 4 > t->len) return 0;
  int32_t soff;
  memcpy(&soff, t->buf + t->pos, 4);
  int64_t vt = (int64_t)t->pos - soff;
  if (vt < 0 || (size_t)vt + 4 > t->len) return 0;
  uint16_t vt_size, off;
  memcpy(&vt_size, t->buf + vt, 2);
  size_t slot = 4 + 2 * (size_t)field;
  if (field < 0 || slot + 2 > vt_size || (size_t)vt + slot + 2 > t->len) return 0;
  memcpy(&off, t->buf + vt + slot, 2);
  if (off == 0 || (size_t)t->pos + off + size > t->len) return 0;
  return t->pos + off;
}

__attribute__((weak)) bool tfcc_fb_table_present(const tfcc_fb_table *t) { return t && t->buf; }
__attribute__((weak)) bool tfcc_fb_has(const tfcc_fb_table *t, int field) {
  return fbf_field_pos(t, field, 1) != 0;
}
__attribute__((weak)) int8_t tfcc_fb_i8(const tfcc_fb_table *t, int field, int8_t def) {
  uint32_t p = fbf_field_pos(t, field, 1);
  return p ? (int8_t)t->buf[p] : def;
}
__attribute__((weak)) uint8_t tfcc_fb_u8(const tfcc_fb_table *t, int field, uint8_t def) {
  uint32_t p = fbf_field_pos(t, field, 1);
  return p ? t->buf[p] : def;
}
__attribute__((weak)) bool tfcc_fb_bool(const tfcc_fb_table *t, int field, bool def) {
  uint32_t p = fbf_field_pos(t, field, 1);
  return p ? t->buf[p] != 0 : def;
}
__attribute__((weak)) int32_t tfcc_fb_i32(const tfcc_fb_table *t, int field, int32_t def) {
  uint32_t p = fbf_field_pos(t, field, 4);
  int32_t v = def;
  if (p) memcpy(&v, t->buf + p, 4);
  return v;
}
__attribute__((weak)) float tfcc_fb_f32(const tfcc_fb_table *t, int field, float def) {
  uint32_t p = fbf_field_pos(t, field, 4);
  float v = def;
  if (p) memcpy(&v, t->buf + p, 4);
  return v;
}

#endif
