/* tfcc watermark: an owner/build id and the SHA-256 of the original model, stored as a TFLite
 * metadata entry "tfcc_watermark" so any TFLite runtime still loads the file.
 *
 * Layout of a watermarked file W made from a model F (F is kept byte for byte):
 *   W = [root offset, "TFL3", new Model table (F's fields, buffers and metadata vectors extended
 *        by one entry), new Buffer + Metadata tables, the watermark text] padded to 64 bytes
 *       + F
 * FlatBuffer offsets are relative and point forward, so F's tables need no change and its
 * constant data keeps its alignment. The text is
 *   "tfcc-watermark 1\nid=<id>\nsha256=<hex of SHA-256(F)>\nbase=<offset of F>\nsize=<bytes of F>\n".
 * Verification recomputes the digest of F and rebuilds the prefix: W must equal embed(F, id)
 * byte for byte, so neither the weights nor the graph nor the watermark can be changed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "kernels/hash/sha256.h"
#include "format/fb.h"
#include "runtime/internal.h"

#define WM_NAME "tfcc_watermark"
#define WM_ALIGN 64
#define WM_MAX_ID 256

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
  int32_t wm_index; /* metadata entry of a tfcc watermark, -1 if none */
  const uint8_t *wm_text;
  uint32_t wm_len;
} model_view;

/* Reads the fields of the Model table of data[0..size) that the watermark needs. */
static tfcc_status view_model(const uint8_t *d, size_t size, model_view *v, tfcc_err *err) {
  memset(v, 0, sizeof *v);
  v->wm_index = -1;
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
    if (b.buf && tfcc_fb_u64(&b, 1, 0) > 1)
      return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED,
                          "buffer %u lives outside the FlatBuffer (offset field): not supported",
                          i);
  }
  for (uint32_t i = 0; v->has_metadata && i < v->metadata.count; i++) {
    tfcc_fb_table m = tfcc_fb_vec_table(&v->root, &v->metadata, i);
    uint32_t len = 0;
    const char *name = m.buf ? tfcc_fb_string_field(&m, 0, &len) : NULL;
    if (!name || len != strlen(WM_NAME) || memcmp(name, WM_NAME, len) != 0) continue;
    uint32_t bi = tfcc_fb_u32(&m, 1, 0);
    if (!v->has_buffers || bi >= v->buffers.count)
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "watermark buffer %u out of range", bi);
    tfcc_fb_table b = tfcc_fb_vec_table(&v->root, &v->buffers, bi);
    tfcc_fb_vec data;
    if (!b.buf || !tfcc_fb_vec_field(&b, 0, 1, &data))
      return tfcc_err_set(err, TFCC_ERR_INTEGRITY, "watermark buffer %u has no data", bi);
    v->wm_index = (int32_t)i;
    v->wm_text = data.data;
    v->wm_len = data.count;
  }
  return TFCC_OK;
}

typedef struct wm_fields {
  char id[WM_MAX_ID + 1];
  char sha[65];
  uint64_t base, size;
} wm_fields;

static tfcc_status parse_text(const uint8_t *t, uint32_t len, wm_fields *f, tfcc_err *err) {
  char buf[1024];
  if (len >= sizeof buf)
    return tfcc_err_set(err, TFCC_ERR_INTEGRITY, "watermark text too long (%u bytes)", len);
  memcpy(buf, t, len);
  buf[len] = 0;
  memset(f, 0, sizeof *f);
  unsigned long long base = 0, size = 0;
  const char *p = buf;
  if (strncmp(p, "tfcc-watermark 1\nid=", 20) != 0)
    return tfcc_err_set(err, TFCC_ERR_INTEGRITY, "watermark text: unknown format");
  p += 20;
  const char *nl = strchr(p, '\n');
  if (!nl || nl == p || nl - p > WM_MAX_ID)
    return tfcc_err_set(err, TFCC_ERR_INTEGRITY, "watermark text: bad id");
  memcpy(f->id, p, (size_t)(nl - p));
  p = nl + 1;
  if (sscanf(p, "sha256=%64[0-9a-f]\nbase=%llu\nsize=%llu\n", f->sha, &base, &size) != 3 ||
      strlen(f->sha) != 64)
    return tfcc_err_set(err, TFCC_ERR_INTEGRITY, "watermark text: bad digest, base or size");
  f->base = base;
  f->size = size;
  return TFCC_OK;
}

static bool id_ok(const char *id) {
  size_t n = strlen(id);
  if (n == 0 || n > WM_MAX_ID) return false;
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)id[i] < 0x20 || (unsigned char)id[i] > 0x7e) return false;
  return true;
}

/* Builds W = prefix + F for model F (which must carry no watermark). */
static tfcc_status embed(const uint8_t *F, size_t n, const char *id, const char *sha_hex,
                         uint8_t **out, size_t *out_size, tfcc_err *err) {
  model_view v;
  tfcc_status st = view_model(F, n, &v, err);
  if (st != TFCC_OK) return st;
  if (v.wm_index >= 0)
    return tfcc_err_set(err, TFCC_ERR_INVALID_ARG, "model already has a watermark");
  char text[WM_MAX_ID + 200];
  int tl = snprintf(text, sizeof text, "tfcc-watermark 1\nid=%s\nsha256=%s\nbase=", id, sha_hex);
  uint32_t nb = v.has_buffers ? v.buffers.count : 0, nm = v.has_metadata ? v.metadata.count : 0;
  /* Positions (the text's length depends on base, which depends on the text: fix base's digits by
   * sizing with a 20-digit placeholder first). */
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
  pos = up(pos + 4 + sizeof WM_NAME, 4);
  size_t DV = up(pos + 4, 16) - 4; /* data vector: length, then 16-aligned bytes */
  size_t text_max = (size_t)tl + 20 + 6 + 20 + 1;
  size_t B = up(DV + 4 + text_max, WM_ALIGN);
  tl += snprintf(text + tl, sizeof text - (size_t)tl, "%zu\nsize=%zu\n", B, n);
  if ((uint64_t)B + n > 0x7fffffffu)
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED, "watermarked model would exceed 2 GiB");
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
  wr32(w + NS, (uint32_t)strlen(WM_NAME));
  memcpy(w + NS + 4, WM_NAME, sizeof WM_NAME);
  wr32(w + DV, (uint32_t)tl);
  memcpy(w + DV + 4, text, (size_t)tl);
  memcpy(w + B, F, n);
  *out = w;
  *out_size = B + n;
  return TFCC_OK;
}

/* Checks W's watermark: digest of F and the exact layout. */
static tfcc_status verify(const uint8_t *W, size_t size, const model_view *v, wm_fields *f,
                          tfcc_err *err) {
  tfcc_status st = parse_text(v->wm_text, v->wm_len, f, err);
  if (st != TFCC_OK) return st;
  if (f->base > size || f->base + f->size != size)
    return tfcc_err_set(err, TFCC_ERR_INTEGRITY,
                        "watermark: file is %zu bytes, watermark says %llu + %llu", size,
                        (unsigned long long)f->base, (unsigned long long)f->size);
  uint8_t dg[32];
  char hex[65];
  tfcc_sha256_fast(W + f->base, (size_t)f->size, dg);
  tfcc_sha256_hex(dg, hex);
  if (strcmp(hex, f->sha) != 0)
    return tfcc_err_set(err, TFCC_ERR_INTEGRITY,
                        "watermark: content hash %s does not match the stored %s", hex, f->sha);
  uint8_t *again = NULL;
  size_t again_n = 0;
  if ((st = embed(W + f->base, (size_t)f->size, f->id, hex, &again, &again_n, err)) != TFCC_OK)
    return tfcc_err_prefix(err, "watermark: rebuilding");
  bool same = again_n == size && memcmp(again, W, size) == 0;
  free(again);
  if (!same)
    return tfcc_err_set(err, TFCC_ERR_INTEGRITY,
                        "watermark: the model table or metadata was changed after embedding");
  return TFCC_OK;
}

tfcc_status tfcc_model_check_watermark(const uint8_t *data, size_t size, tfcc_err *err) {
  model_view v;
  wm_fields f;
  tfcc_status st = view_model(data, size, &v, err);
  if (st != TFCC_OK) return tfcc_err_prefix(err, "watermark required");
  if (v.wm_index < 0)
    return tfcc_err_set(err, TFCC_ERR_INTEGRITY, "watermark required, but the model has none");
  return verify(data, size, &v, &f, err);
}

/* The watermark of model[0..size): TFCC_OK with info->present = 0 when there is none, or with
 * info->valid = 0 and err's message when the check failed. */
static tfcc_status read_info(const void *model, size_t size, tfcc_watermark_info *info,
                             tfcc_err *err) {
  memset(info, 0, sizeof *info);
  model_view v;
  wm_fields f;
  tfcc_status st = view_model(model, size, &v, err);
  if (st == TFCC_OK && v.wm_index >= 0) {
    info->present = 1;
    st = verify(model, size, &v, &f, err);
    snprintf(info->id, sizeof info->id, "%s", f.id);
    snprintf(info->sha256, sizeof info->sha256, "%s", f.sha);
    info->valid = st == TFCC_OK;
    if (st == TFCC_ERR_INTEGRITY)
      return TFCC_OK; /* present but invalid: reported through info->valid */
  }
  return st;
}

tfcc_status tfcc_watermark_read(const void *model, size_t size, tfcc_watermark_info *info) {
  tfcc_err err = {0};
  if (!model || !info) return TFCC_ERR_INVALID_ARG;
  tfcc_status st = read_info(model, size, info, &err);
  if (err.msg[0]) tfcc_last_error_set(err.msg);
  return st;
}

tfcc_status tfcc_watermark_embed(const void *model, size_t size, const char *id, void **out,
                                 size_t *out_size) {
  tfcc_err err = {0};
  if (!model || !id || !out || !out_size) {
    tfcc_last_error_set("tfcc_watermark_embed: model, id or out is NULL");
    return TFCC_ERR_INVALID_ARG;
  }
  *out = NULL;
  *out_size = 0;
  if (!id_ok(id)) {
    tfcc_last_error_set("watermark id must be 1-256 printable ASCII characters");
    return TFCC_ERR_INVALID_ARG;
  }
  const uint8_t *F = model;
  model_view v;
  tfcc_status st = view_model(F, size, &v, &err);
  if (st == TFCC_OK && v.wm_index >= 0) {
    /* Replace: embed into the original model the watermark was made from. */
    wm_fields f;
    if ((st = parse_text(v.wm_text, v.wm_len, &f, &err)) == TFCC_OK) {
      if (f.base > size || f.base + f.size != size)
        st = tfcc_err_set(&err, TFCC_ERR_INTEGRITY,
                          "existing watermark: sizes do not match the file");
      F += f.base;
      size = (size_t)f.size;
    }
  }
  if (st != TFCC_OK) {
    tfcc_last_error_set(err.msg);
    return st;
  }
  uint8_t dg[32];
  char hex[65];
  tfcc_sha256_fast(F, size, dg);
  tfcc_sha256_hex(dg, hex);
  uint8_t *w = NULL;
  if ((st = embed(F, size, id, hex, &w, out_size, &err)) != TFCC_OK) {
    tfcc_last_error_set(err.msg);
    return st;
  }
  *out = w;
  return TFCC_OK;
}

bool tfcc_model_has_watermark(const uint8_t *data, size_t size) {
  model_view v;
  tfcc_err err = {0};
  return view_model(data, size, &v, &err) == TFCC_OK && v.wm_index >= 0;
}

void tfcc_model_watermark_capture(tfcc_model *m) {
  memset(&m->wm_err, 0, sizeof m->wm_err);
  m->wm_status = read_info(m->data, m->size, &m->wm_info, &m->wm_err);
  m->wm_captured = true;
}

tfcc_status tfcc_model_require_watermark(const tfcc_model *m, tfcc_err *err) {
  if (!m->wm_captured) return tfcc_model_check_watermark(m->data, m->size, err);
  if (m->wm_status != TFCC_OK) {
    tfcc_err_set(err, m->wm_status, "%s", m->wm_err.msg);
    return tfcc_err_prefix(err, "watermark required");
  }
  if (!m->wm_info.present)
    return tfcc_err_set(err, TFCC_ERR_INTEGRITY, "watermark required, but the model has none");
  if (!m->wm_info.valid) return tfcc_err_set(err, TFCC_ERR_INTEGRITY, "%s", m->wm_err.msg);
  return TFCC_OK;
}

tfcc_status tfcc_model_watermark(const tfcc_model *m, tfcc_watermark_info *info) {
  if (!m || !info) return TFCC_ERR_INVALID_ARG;
  if (!m->wm_captured) return tfcc_watermark_read(m->data, m->size, info);
  /* read at load: constant pages of the file may have been released since */
  *info = m->wm_info;
  if (m->wm_err.msg[0]) tfcc_last_error_set(m->wm_err.msg);
  return m->wm_status;
}
