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
 * byte for byte, so neither the weights nor the graph nor the watermark can be changed. The
 * FlatBuffer side (finding the entry, building the prefix) is format/tflite_metadata.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "kernels/hash/sha256.h"
#include "format/tflite_metadata.h"
#include "runtime/internal.h"

#define WM_NAME "tfcc_watermark"
#define WM_MAX_ID 256

/* The watermark entry of data[0..size) (wm->found false if none). */
static tfcc_status find_watermark(const uint8_t *d, size_t size, tfcc_tflite_metadata *wm,
                                  tfcc_err *err) {
  return tfcc_tflite_metadata_find(d, size, WM_NAME, wm, err);
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

/* The watermark text, written once the offset of F in W (base) is known. */
typedef struct wm_text {
  const char *head; /* "tfcc-watermark 1\nid=...\nsha256=...\nbase=" */
  size_t model_size;
} wm_text;

static size_t write_text(void *ctx, size_t base, uint8_t *dst, size_t cap) {
  const wm_text *t = ctx;
  int n = snprintf((char *)dst, cap, "%s%zu\nsize=%zu\n", t->head, base, t->model_size);
  return n < 0 ? cap : (size_t)n;
}

/* Builds W = prefix + F for model F (which must carry no watermark). */
static tfcc_status embed(const uint8_t *F, size_t n, const char *id, const char *sha_hex,
                         uint8_t **out, size_t *out_size, tfcc_err *err) {
  tfcc_tflite_metadata wm;
  tfcc_status st = find_watermark(F, n, &wm, err);
  if (st != TFCC_OK) return st;
  if (wm.found) return tfcc_err_set(err, TFCC_ERR_INVALID_ARG, "model already has a watermark");
  char head[WM_MAX_ID + 200];
  int hl = snprintf(head, sizeof head, "tfcc-watermark 1\nid=%s\nsha256=%s\nbase=", id, sha_hex);
  /* base's and size's digits: at most 20 each, "\nsize=" and "\n", and a NUL */
  wm_text t = {head, n};
  return tfcc_tflite_metadata_prepend(F, n, WM_NAME, (size_t)hl + 20 + 6 + 20 + 1, write_text, &t,
                                      out, out_size, err);
}

/* Checks W's watermark: digest of F and the exact layout. */
static tfcc_status verify(const uint8_t *W, size_t size, const tfcc_tflite_metadata *wm,
                          wm_fields *f, tfcc_err *err) {
  tfcc_status st = parse_text(wm->data, wm->len, f, err);
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
  tfcc_tflite_metadata wm;
  wm_fields f;
  tfcc_status st = find_watermark(data, size, &wm, err);
  if (st != TFCC_OK) return tfcc_err_prefix(err, "watermark required");
  if (!wm.found)
    return tfcc_err_set(err, TFCC_ERR_INTEGRITY, "watermark required, but the model has none");
  return verify(data, size, &wm, &f, err);
}

/* The watermark of model[0..size): TFCC_OK with info->present = 0 when there is none, or with
 * info->valid = 0 and err's message when the check failed. */
static tfcc_status read_info(const void *model, size_t size, tfcc_watermark_info *info,
                             tfcc_err *err) {
  memset(info, 0, sizeof *info);
  tfcc_tflite_metadata wm;
  wm_fields f;
  tfcc_status st = find_watermark(model, size, &wm, err);
  if (st == TFCC_OK && wm.found) {
    info->present = 1;
    st = verify(model, size, &wm, &f, err);
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
  tfcc_tflite_metadata wm;
  tfcc_status st = find_watermark(F, size, &wm, &err);
  if (st == TFCC_OK && wm.found) {
    /* Replace: embed into the original model the watermark was made from. */
    wm_fields f;
    if ((st = parse_text(wm.data, wm.len, &f, &err)) == TFCC_OK) {
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
  tfcc_tflite_metadata wm;
  tfcc_err err = {0};
  return find_watermark(data, size, &wm, &err) == TFCC_OK && wm.found;
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
