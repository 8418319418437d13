/* Helpers for the shape-operator tests: tensors built by hand, one call that runs an operator's
 * init/prepare/eval, and weak FlatBuffer readers used only until src/format/fb.c is linked in
 * (the library's strong definitions win as soon as it is). */
#ifndef TFCC_TESTS_SHAPE_TEST_UTIL_H
#define TFCC_TESTS_SHAPE_TEST_UTIL_H

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fb_test_builder.h"
#include "ops/op.h"
#include "test_harness.h"

/* ---- minimal weak table reader (little-endian, bounds-checked) ---- */
static inline uint32_t st_rd(const uint8_t *b, size_t at, int n) {
  uint32_t v = 0;
  for (int k = 0; k < n; k++) v |= (uint32_t)b[at + (size_t)k] << (8 * k);
  return v;
}
static inline size_t st_field_pos(const tfcc_fb_table *t, int field, size_t size) {
  if (!t->buf || (size_t)t->pos + 4 > t->len) return 0;
  int32_t so = (int32_t)st_rd(t->buf, t->pos, 4);
  int64_t vt = (int64_t)t->pos - so;
  if (vt < 0 || (size_t)vt + 4 > t->len) return 0;
  uint32_t vsz = st_rd(t->buf, (size_t)vt, 2);
  if ((uint32_t)(4 + 2 * field + 2) > vsz || (size_t)vt + 4 + 2 * (size_t)field + 2 > t->len) return 0;
  uint32_t off = st_rd(t->buf, (size_t)vt + 4 + 2 * (size_t)field, 2);
  if (off == 0 || (size_t)t->pos + off + size > t->len) return 0;
  return (size_t)t->pos + off;
}
__attribute__((weak)) bool tfcc_fb_table_present(const tfcc_fb_table *t) { return t->buf != NULL; }
__attribute__((weak)) bool tfcc_fb_has(const tfcc_fb_table *t, int f) { return st_field_pos(t, f, 1) != 0; }
__attribute__((weak)) int8_t tfcc_fb_i8(const tfcc_fb_table *t, int f, int8_t d) {
  size_t p = st_field_pos(t, f, 1);
  return p ? (int8_t)t->buf[p] : d;
}
__attribute__((weak)) uint8_t tfcc_fb_u8(const tfcc_fb_table *t, int f, uint8_t d) {
  size_t p = st_field_pos(t, f, 1);
  return p ? t->buf[p] : d;
}
__attribute__((weak)) bool tfcc_fb_bool(const tfcc_fb_table *t, int f, bool d) {
  size_t p = st_field_pos(t, f, 1);
  return p ? t->buf[p] != 0 : d;
}
__attribute__((weak)) int32_t tfcc_fb_i32(const tfcc_fb_table *t, int f, int32_t d) {
  size_t p = st_field_pos(t, f, 4);
  return p ? (int32_t)st_rd(t->buf, p, 4) : d;
}
__attribute__((weak)) float tfcc_fb_f32(const tfcc_fb_table *t, int f, float d) {
  size_t p = st_field_pos(t, f, 4);
  if (!p) return d;
  uint32_t u = st_rd(t->buf, p, 4);
  float v;
  memcpy(&v, &u, 4);
  return v;
}
__attribute__((weak)) bool tfcc_fb_vec_field(const tfcc_fb_table *t, int f, size_t es, tfcc_fb_vec *out) {
  size_t p = st_field_pos(t, f, 4);
  if (!p) return false;
  size_t v = p + st_rd(t->buf, p, 4);
  if (v + 4 > t->len) return false;
  uint32_t n = st_rd(t->buf, v, 4);
  if (v + 4 + (size_t)n * es > t->len) return false;
  out->data = t->buf + v + 4;
  out->count = n;
  return true;
}
__attribute__((weak)) int32_t tfcc_fb_vec_i32(const tfcc_fb_vec *v, uint32_t i) {
  return (int32_t)st_rd(v->data, 4 * (size_t)i, 4);
}

/* ---- tensors ---- */
static const tfcc_quant st_noquant = {0, 0, NULL, NULL};

typedef struct st_qstore {
  tfcc_quant q;
  float scale;
  int32_t zp;
} st_qstore;

/* A tensor of dtype and shape; data copied from src (if any) into a fresh buffer. */
static inline tfcc_tensor st_tensor(tfcc_dtype dt, int32_t rank, const int32_t *dims, const void *src) {
  tfcc_tensor t;
  memset(&t, 0, sizeof(t));
  t.dtype = dt;
  t.rank = rank;
  for (int32_t i = 0; i < rank; i++) t.dims[i] = dims[i];
  t.bytes = (size_t)tfcc_tensor_elements(&t) * tfcc_dtype_size(dt);
  t.data = malloc(t.bytes ? t.bytes : 1);
  if (src) memcpy(t.data, src, t.bytes);
  t.quant = &st_noquant;
  t.known = src != NULL;
  t.is_const = src != NULL;
  return t;
}
static inline void st_quant(tfcc_tensor *t, st_qstore *s, float scale, int32_t zp) {
  s->scale = scale;
  s->zp = zp;
  s->q.count = 1;
  s->q.axis = 0;
  s->q.scale = &s->scale;
  s->q.zero_point = &s->zp;
  t->quant = &s->q;
}
static inline tfcc_tensor st_output(tfcc_dtype dt) {
  tfcc_tensor t;
  memset(&t, 0, sizeof(t));
  t.dtype = dt;
  t.quant = &st_noquant;
  return t;
}
static inline void st_free(tfcc_tensor *t) {
  free(t->data);
  t->data = NULL;
}

/* Runs op `builtin` (options table opts). Outputs get buffers of their prepared size (freed by
 * the caller with st_free). Returns the status of the first failing step; msg gets the error. */
static inline tfcc_status st_run(int32_t builtin, tfcc_fb_table opts, tfcc_tensor **in, int32_t n_in,
                          tfcc_tensor **out, int32_t n_out, char *msg, size_t msg_len) {
  static tfcc_err err;
  err.code = TFCC_OK;
  err.msg[0] = 0;
  const tfcc_op_def *op = tfcc_op_lookup(builtin);
  if (!op || !op->prepare) {
    snprintf(msg, msg_len, "no op %d", (int)builtin);
    return TFCC_ERR_UNSUPPORTED;
  }
  tfcc_ir_node node;
  memset(&node, 0, sizeof(node));
  node.builtin = builtin;
  node.options = opts;
  node.n_inputs = n_in;
  node.n_outputs = n_out;
  tfcc_op_ctx ctx;
  memset(&ctx, 0, sizeof(ctx));
  ctx.node = &node;
  ctx.in = in;
  ctx.n_in = n_in;
  ctx.out = out;
  ctx.n_out = n_out;
  ctx.err = &err;
  tfcc_status st = op->prepare(&ctx);
  if (st == TFCC_OK) {
    for (int32_t i = 0; i < n_out; i++) {
      out[i]->bytes = (size_t)tfcc_tensor_elements(out[i]) * tfcc_dtype_size(out[i]->dtype);
      free(out[i]->data);
      out[i]->data = malloc(out[i]->bytes ? out[i]->bytes : 1);
      memset(out[i]->data, 0xA5, out[i]->bytes);
    }
    void *scratch = ctx.scratch_bytes ? aligned_alloc(64, (ctx.scratch_bytes + 63) & ~(size_t)63)
                                      : NULL;
    ctx.scratch = scratch;
    st = op->eval(&ctx);
    free(scratch);
  }
  snprintf(msg, msg_len, "%s", err.msg);
  return st;
}

/* Deterministic pseudo-random numbers. */
static uint32_t st_rng_state = 12345u;
static inline uint32_t st_rand(void) {
  st_rng_state = st_rng_state * 1664525u + 1013904223u;
  return st_rng_state >> 8;
}

#endif
