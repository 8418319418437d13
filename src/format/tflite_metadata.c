/* A TFLite model's metadata entries, read and added (layout in tflite_metadata.h). */
#include "format/tflite_metadata.h"

#include <stdlib.h>
#include <string.h>

#include "format/fb.h"

/* Model fields (schema.fbs order). */
enum {
  F_VERSION,
  F_OPCODES,
  F_SUBGRAPHS,
  F_DESCRIPTION,
  F_BUFFERS,
  F_METADATA_BUFFER,
  F_METADATA,
  F_SIGNATURES,
  F_COUNT
};
enum { BUFFER_DATA, BUFFER_OFFSET };     /* Buffer fields */
enum { METADATA_NAME, METADATA_BUFFER }; /* Metadata fields */

static uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static void wr32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}
static void wr16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8); }
static size_t up(size_t v, size_t a) { return (v + a - 1) / a * a; }

typedef struct model_view {
  tfcc_fb_table root;
  uint32_t field_pos[F_COUNT]; /* absolute position of each present field's value (0: absent) */
  tfcc_fb_vec buffers, metadata;
  bool has_buffers, has_metadata;
} model_view;

/* Reads the Model table's field positions, buffers and metadata of data[0..size). */
static tfcc_status view_model(const uint8_t *d, size_t size, model_view *v, tfcc_err *err) {
  memset(v, 0, sizeof *v);
  if (size < 16 || size > 0x7fffffffu)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "not a TFLite model (%zu bytes)", size);
  if (memcmp(d + 4, "TFL3", 4) != 0)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "not a TFLite model (no TFL3 identifier)");
  uint32_t root = rd32(d);
  if ((uint64_t)root + 4 > size || root % 4)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "root offset %u out of range", root);
  int32_t so = (int32_t)rd32(d + root);
  int64_t vt = (int64_t)root - so;
  if (vt < 0 || vt + 4 > (int64_t)size)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "model vtable out of range");
  uint16_t vsize = (uint16_t)(d[vt] | d[vt + 1] << 8);
  if (vsize < 4 || vt + vsize > (int64_t)size || vsize % 2)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "model vtable malformed");
  int nfields = (vsize - 4) / 2;
  for (int f = 0; f < nfields; f++) {
    uint16_t off = (uint16_t)(d[vt + 4 + 2 * f] | d[vt + 5 + 2 * f] << 8);
    if (!off) continue;
    if (f >= F_COUNT)
      return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED,
                          "model table has field %d, unknown to this tfcc", f);
    if ((uint64_t)root + off + 4 > size)
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "model field %d out of range", f);
    v->field_pos[f] = root + off;
  }
  v->root = (tfcc_fb_table){d, size, root};
  v->has_buffers = tfcc_fb_vec_field(&v->root, F_BUFFERS, 4, &v->buffers);
  v->has_metadata = tfcc_fb_vec_field(&v->root, F_METADATA, 4, &v->metadata);
  if (v->field_pos[F_BUFFERS] && !v->has_buffers)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "buffers vector out of range");
  if (v->field_pos[F_METADATA] && !v->has_metadata)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "metadata vector out of range");
  for (uint32_t i = 0; v->has_buffers && i < v->buffers.count; i++) {
    tfcc_fb_table b = tfcc_fb_vec_table(&v->root, &v->buffers, i);
    if (b.buf && tfcc_fb_u64(&b, BUFFER_OFFSET, 0) > 1)
      return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED,
                          "buffer %u lives outside the FlatBuffer (offset field): not supported",
                          i);
  }
  return TFCC_OK;
}

tfcc_status tfcc_tflite_metadata_find(const uint8_t *d, size_t size, const char *name,
                                      tfcc_tflite_metadata *out, tfcc_err *err) {
  memset(out, 0, sizeof *out);
  model_view v;
  tfcc_status st = view_model(d, size, &v, err);
  if (st != TFCC_OK) return st;
  size_t name_len = strlen(name);
  for (uint32_t i = 0; v.has_metadata && i < v.metadata.count; i++) {
    tfcc_fb_table m = tfcc_fb_vec_table(&v.root, &v.metadata, i);
    uint32_t len = 0;
    const char *s = m.buf ? tfcc_fb_string_field(&m, METADATA_NAME, &len) : NULL;
    if (!s || len != name_len || memcmp(s, name, len) != 0) continue;
    uint32_t bi = tfcc_fb_u32(&m, METADATA_BUFFER, 0);
    if (!v.has_buffers || bi >= v.buffers.count)
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "%s metadata: buffer %u out of range", name,
                          bi);
    tfcc_fb_table b = tfcc_fb_vec_table(&v.root, &v.buffers, bi);
    tfcc_fb_vec data;
    if (!b.buf || !tfcc_fb_vec_field(&b, BUFFER_DATA, 1, &data))
      return tfcc_err_set(err, TFCC_ERR_INTEGRITY, "%s metadata: buffer %u has no data", name, bi);
    *out = (tfcc_tflite_metadata){true, i, data.data, data.count};
  }
  return TFCC_OK;
}

tfcc_status tfcc_tflite_metadata_prepend(const uint8_t *F, size_t n, const char *name,
                                         size_t data_max, tfcc_tflite_metadata_writer write,
                                         void *ctx, uint8_t **out, size_t *out_size,
                                         tfcc_err *err) {
  model_view v;
  tfcc_status st = view_model(F, n, &v, err);
  if (st != TFCC_OK) return st;
  uint32_t nb = v.has_buffers ? v.buffers.count : 0, nm = v.has_metadata ? v.metadata.count : 0;
  size_t name_len = strlen(name);
  if (name_len > 0xffffu)
    return tfcc_err_set(err, TFCC_ERR_INVALID_ARG, "metadata name too long (%zu bytes)", name_len);
  size_t pos = 8, V = pos; /* model vtable: 4 + 2*8 bytes */
  pos += 4 + 2 * F_COUNT;
  size_t M = up(pos, 4); /* model table: soffset + 8 slots */
  pos = M + 4 + 4 * F_COUNT;
  size_t BV = pos; /* buffers vector */
  pos += 4 + 4 * ((size_t)nb + 1);
  size_t MV = pos; /* metadata vector */
  pos += 4 + 4 * ((size_t)nm + 1);
  size_t BVT = pos; /* Buffer vtable (6 bytes) */
  pos += 8;
  size_t BT = pos; /* Buffer table: soffset, data */
  pos += 8;
  size_t MVT = pos; /* Metadata vtable (8 bytes) */
  pos += 8;
  size_t MT = pos; /* Metadata table: soffset, name, buffer */
  pos += 12;
  size_t NS = pos; /* name string */
  pos = up(pos + 4 + name_len + 1, 4);
  size_t DV = up(pos + 4, 16) - 4; /* data vector: length, then 16-aligned bytes */
  if (data_max > 0x7fffffffu || (uint64_t)DV + 4 + data_max + n > 0x7fffffffu)
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED, "model with metadata %s would exceed 2 GiB",
                        name);
  size_t B = up(DV + 4 + data_max, TFCC_TFLITE_METADATA_ALIGN);
  if ((uint64_t)B + n > 0x7fffffffu)
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED, "model with metadata %s would exceed 2 GiB",
                        name);
  uint8_t *w = calloc(1, B + n);
  if (!w) return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory (%zu bytes)", B + n);
  wr32(w, (uint32_t)M);
  memcpy(w + 4, "TFL3", 4);
  /* Model vtable + table. */
  wr16(w + V, (uint16_t)(4 + 2 * F_COUNT));
  wr16(w + V + 2, (uint16_t)(4 + 4 * F_COUNT));
  wr32(w + M, (uint32_t)(M - V));
  for (int f = 0; f < F_COUNT; f++) {
    size_t slot = M + 4 + 4 * (size_t)f;
    uint32_t target = 0;
    if (f == F_BUFFERS)
      target = (uint32_t)BV;
    else if (f == F_METADATA)
      target = (uint32_t)MV;
    else if (!v.field_pos[f])
      continue;
    wr16(w + V + 4 + 2 * f, (uint16_t)(4 + 4 * f));
    if (f == F_VERSION) {
      memcpy(w + slot, F + v.field_pos[f], 4);
      continue;
    }
    if (!target) target = (uint32_t)(B + v.field_pos[f] + rd32(F + v.field_pos[f]));
    wr32(w + slot, (uint32_t)(target - slot));
  }
  /* Vectors: old entries re-pointed into F, then the new one. */
  wr32(w + BV, nb + 1);
  for (uint32_t i = 0; i < nb; i++) {
    size_t q = BV + 4 + 4 * (size_t)i, old = (size_t)(v.buffers.data - F) + 4 * (size_t)i;
    wr32(w + q, (uint32_t)(B + old + rd32(F + old) - q));
  }
  wr32(w + BV + 4 + 4 * (size_t)nb, (uint32_t)(BT - (BV + 4 + 4 * (size_t)nb)));
  wr32(w + MV, nm + 1);
  for (uint32_t i = 0; i < nm; i++) {
    size_t q = MV + 4 + 4 * (size_t)i, old = (size_t)(v.metadata.data - F) + 4 * (size_t)i;
    wr32(w + q, (uint32_t)(B + old + rd32(F + old) - q));
  }
  wr32(w + MV + 4 + 4 * (size_t)nm, (uint32_t)(MT - (MV + 4 + 4 * (size_t)nm)));
  /* Buffer { data } */
  wr16(w + BVT, 6);
  wr16(w + BVT + 2, 8);
  wr16(w + BVT + 4, 4);
  wr32(w + BT, (uint32_t)(BT - BVT));
  wr32(w + BT + 4, (uint32_t)(DV - (BT + 4)));
  /* Metadata { name, buffer } */
  wr16(w + MVT, 8);
  wr16(w + MVT + 2, 12);
  wr16(w + MVT + 4, 4);
  wr16(w + MVT + 6, 8);
  wr32(w + MT, (uint32_t)(MT - MVT));
  wr32(w + MT + 4, (uint32_t)(NS - (MT + 4)));
  wr32(w + MT + 8, nb);
  wr32(w + NS, (uint32_t)name_len);
  memcpy(w + NS + 4, name, name_len + 1);
  /* The entry's bytes, then F (which overwrites anything the writer put past its end). */
  size_t len = write(ctx, B, w + DV + 4, B - (DV + 4));
  if (len >= B - (DV + 4)) {
    free(w);
    return tfcc_err_set(err, TFCC_ERR_INVALID_ARG, "%s metadata: %zu bytes do not fit in %zu", name,
                        len, data_max);
  }
  wr32(w + DV, (uint32_t)len);
  memcpy(w + B, F, n);
  *out = w;
  *out_size = B + n;
  return TFCC_OK;
}
