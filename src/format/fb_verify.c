/* Strict FlatBuffer reads for the model loader (malformed present fields are errors);
 * the contract is in fb_verify.h. */
#include "format/fb_verify.h"

#include "format/fb_core.h"

#define WHY_MAX 256

static tfcc_status bad(tfcc_err *err, const char *why) {
  return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "%s", why);
}

tfcc_status tfcc_fbv_root(const uint8_t *buf, size_t len, tfcc_fb_table *root, tfcc_err *err) {
  if (len > TFCC_FB_MAX_LEN) len = TFCC_FB_MAX_LEN;
  if (len < 8)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        "file truncated: %zu bytes, a FlatBuffer needs at least 8", len);
  uint32_t pos = tfcc_fb_ld32(buf);
  if (pos < 4 || !tfcc_fb_in(len, pos, 4))
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        pos < 4 ? "invalid root table offset %u (size %zu)"
                                : "file truncated: root table offset %u past end (size %zu)",
                        pos, len);
  root->buf = buf;
  root->len = len;
  root->pos = pos;
  tfcc_status st = tfcc_fbv_table(root, err);
  if (st != TFCC_OK) return tfcc_err_prefix(err, "root table");
  return TFCC_OK;
}

tfcc_status tfcc_fbv_table(const tfcc_fb_table *t, tfcc_err *err) {
  char why[WHY_MAX];
  tfcc_fb_header h;
  if (tfcc_fb_header_at(t->buf, t->len, t->pos, &h, why, sizeof why) != TFCC_FB_OK)
    return bad(err, why);
  for (size_t slot = 4; slot + 2 <= h.vsize; slot += 2) {
    uint16_t off = tfcc_fb_ld16(t->buf + h.vtable + slot);
    if (off != 0 && (off < 4 || off >= h.tsize))
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                          "table at offset %u: field %zu at inline offset %u outside the "
                          "table's %u bytes",
                          t->pos, (slot - 4) / 2, (unsigned)off, (unsigned)h.tsize);
  }
  return TFCC_OK;
}

/* Inline bytes of a scalar field or NULL if absent. */
static tfcc_status scalar(const tfcc_fb_table *t, int field, size_t size, const uint8_t **p,
                          tfcc_err *err) {
  char why[WHY_MAX];
  size_t at;
  *p = NULL;
  tfcc_fb_res r = tfcc_fb_field_at(t, field, size, &at, why, sizeof why);
  if (r == TFCC_FB_BAD) return bad(err, why);
  if (r == TFCC_FB_OK) *p = t->buf + at;
  return TFCC_OK;
}

#define SCALAR_READER(name, type, size, expr) \
  tfcc_status name(const tfcc_fb_table *t, int field, type def, type *v, tfcc_err *err) { \
    const uint8_t *p; \
    tfcc_status st = scalar(t, field, size, &p, err); \
    if (st != TFCC_OK) return st; \
    *v = p ? (type)(expr) : def; \
    return TFCC_OK; \
  }

SCALAR_READER(tfcc_fbv_u8, uint8_t, 1, p[0])
SCALAR_READER(tfcc_fbv_i8, int8_t, 1, p[0])
SCALAR_READER(tfcc_fbv_i32, int32_t, 4, tfcc_fb_ld32(p))
SCALAR_READER(tfcc_fbv_u32, uint32_t, 4, tfcc_fb_ld32(p))
SCALAR_READER(tfcc_fbv_u64, uint64_t, 8, tfcc_fb_ld64(p))

/* Target of an offset field; *found false if absent. */
static tfcc_status target(const tfcc_fb_table *t, int field, size_t *pos, bool *found,
                          tfcc_err *err) {
  char why[WHY_MAX];
  size_t at = 0; /* set when found (aarch64 gcc 12 warns otherwise) */
  *found = false;
  tfcc_fb_res r = tfcc_fb_field_at(t, field, 4, &at, why, sizeof why);
  if (r == TFCC_FB_BAD) return bad(err, why);
  if (r == TFCC_FB_ABSENT) return TFCC_OK;
  if (tfcc_fb_follow(t->buf, t->len, at, pos, why, sizeof why) != TFCC_FB_OK) return bad(err, why);
  *found = true;
  return TFCC_OK;
}

static tfcc_status table_at(const tfcc_fb_table *t, size_t pos, tfcc_fb_table *out, tfcc_err *err) {
  tfcc_fb_table r = {t->buf, t->len, (uint32_t)pos};
  tfcc_status st = tfcc_fbv_table(&r, err);
  if (st != TFCC_OK) return st;
  *out = r;
  return TFCC_OK;
}

tfcc_status tfcc_fbv_subtable(const tfcc_fb_table *t, int field, tfcc_fb_table *out,
                              tfcc_err *err) {
  size_t pos;
  bool found;
  memset(out, 0, sizeof *out);
  tfcc_status st = target(t, field, &pos, &found, err);
  if (st != TFCC_OK || !found) return st;
  return table_at(t, pos, out, err);
}

tfcc_status tfcc_fbv_vector(const tfcc_fb_table *t, int field, size_t elem, tfcc_fb_vec *out,
                            bool *present, tfcc_err *err) {
  return tfcc_fbv_vector_peek(t, field, elem, NULL, NULL, out, present, err);
}

tfcc_status tfcc_fbv_vector_peek(const tfcc_fb_table *t, int field, size_t elem,
                                 tfcc_fbv_peek_fn peek, void *user, tfcc_fb_vec *out, bool *present,
                                 tfcc_err *err) {
  char why[WHY_MAX];
  size_t pos;
  bool found;
  memset(out, 0, sizeof *out);
  if (present) *present = false;
  tfcc_status st = target(t, field, &pos, &found, err);
  if (st != TFCC_OK || !found) return st;
  uint8_t count[4];
  tfcc_fb_res r = peek && tfcc_fb_in(t->len, pos, 4) && peek(user, pos, count, 4)
                      ? tfcc_fb_vector_counted(t->buf, t->len, pos, elem, tfcc_fb_ld32(count), out,
                                               why, sizeof why)
                      : tfcc_fb_vector_at(t->buf, t->len, pos, elem, out, why, sizeof why);
  if (r != TFCC_FB_OK) return bad(err, why);
  if (present) *present = true;
  return TFCC_OK;
}

tfcc_status tfcc_fbv_string(const tfcc_fb_table *t, int field, const char **s, uint32_t *len,
                            tfcc_err *err) {
  char why[WHY_MAX];
  size_t pos;
  bool found;
  *s = NULL;
  *len = 0;
  tfcc_status st = target(t, field, &pos, &found, err);
  if (st != TFCC_OK || !found) return st;
  if (tfcc_fb_string_at(t->buf, t->len, pos, s, len, why, sizeof why) != TFCC_FB_OK)
    return bad(err, why);
  return TFCC_OK;
}

tfcc_status tfcc_fbv_vec_table(const tfcc_fb_table *t, const tfcc_fb_vec *v, uint32_t i,
                               tfcc_fb_table *out, tfcc_err *err) {
  char why[WHY_MAX];
  uintptr_t base = (uintptr_t)t->buf, d = (uintptr_t)v->data;
  if (i >= v->count || d < base || d - base > t->len)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "element %u of a %u-element vector", i,
                        v->count);
  size_t at = (size_t)(d - base) + 4 * (size_t)i, pos;
  if (tfcc_fb_follow(t->buf, t->len, at, &pos, why, sizeof why) != TFCC_FB_OK) return bad(err, why);
  return table_at(t, pos, out, err);
}
