/* Helpers for the elementwise operator tests: tensors built by hand and one call that runs an
 * operator's init / prepare / eval like the session does. Included by one test file each. */
#ifndef TFCC_TESTS_ELEM_TEST_UTIL_H
#define TFCC_TESTS_ELEM_TEST_UTIL_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_test_builder.h"
#include "ops/op.h"
#include "test_harness.h"

/* Until the format module's fb.c is in this branch: weak stand-ins for the few FlatBuffer
 * accessors the operators use (the library's strong definitions win once they exist). */
static inline uint32_t etu_rd(const uint8_t *p, int n) {
  uint32_t v = 0;
  for (int k = 0; k < n; k++) v |= (uint32_t)p[k] << (8 * k);
  return v;
}
static inline const uint8_t *etu_field(const tfcc_fb_table *t, int field, int size) {
  if (!t || !t->buf || (size_t)t->pos + 4 > t->len) return NULL;
  int32_t so = (int32_t)etu_rd(t->buf + t->pos, 4);
  int64_t vt = (int64_t)t->pos - so;
  if (vt < 0 || (size_t)vt + 4 > t->len) return NULL;
  uint32_t vt_size = etu_rd(t->buf + vt, 2);
  if ((uint32_t)(4 + 2 * field + 2) > vt_size || (size_t)vt + vt_size > t->len) return NULL;
  uint32_t off = etu_rd(t->buf + vt + 4 + 2 * field, 2);
  if (!off || (size_t)t->pos + off + (size_t)size > t->len) return NULL;
  return t->buf + t->pos + off;
}
__attribute__((weak)) bool tfcc_fb_table_present(const tfcc_fb_table *t) { return t && t->buf; }
__attribute__((weak)) int8_t tfcc_fb_i8(const tfcc_fb_table *t, int field, int8_t def) {
  const uint8_t *p = etu_field(t, field, 1);
  return p ? (int8_t)p[0] : def;
}
__attribute__((weak)) bool tfcc_fb_bool(const tfcc_fb_table *t, int field, bool def) {
  const uint8_t *p = etu_field(t, field, 1);
  return p ? p[0] != 0 : def;
}

/* A tensor over caller memory. q may be NULL (not quantized). */
static tfcc_quant etu_noquant = {0, 0, NULL, NULL};
static inline tfcc_tensor etu_t(tfcc_dtype dt, int32_t rank, const int32_t *dims, void *data,
                         const tfcc_quant *q) {
  tfcc_tensor t;
  memset(&t, 0, sizeof t);
  t.dtype = dt;
  t.rank = rank;
  for (int32_t i = 0; i < rank; i++) t.dims[i] = dims[i];
  t.data = data;
  t.quant = q ? q : &etu_noquant;
  t.bytes = (size_t)tfcc_shape_elements(rank, dims) * tfcc_dtype_size(dt);
  t.index = -1;
  return t;
}

/* Per-tensor quantization storage. */
typedef struct {
  float scale;
  int32_t zp;
  tfcc_quant q;
} etu_q;
static inline void etu_q_set(etu_q *e, float scale, int32_t zp) {
  e->scale = scale;
  e->zp = zp;
  e->q.count = 1;
  e->q.axis = 0;
  e->q.scale = &e->scale;
  e->q.zero_point = &e->zp;
}

/* Options for ADD/SUB/MUL/DIV (field 0 activation, field 1 pot_scale_int16 if pot >= 0).
 * opts_type 0 = no options table. */
typedef struct {
  uint8_t opts_type;
  int activation;
  int pot; /* -1: field absent */
} etu_opts;

/* Runs op `builtin` on in[0..n_in) -> out. Returns the first failing status; the message is in
 * *err. If out_data_check, checks that prepare's output shape has out_elems elements. */
static inline tfcc_status etu_run(int32_t builtin, tfcc_tensor **in, int32_t n_in, tfcc_tensor *out,
                           const etu_opts *opts, tfcc_err *err) {
  const tfcc_op_def *op = tfcc_op_lookup(builtin);
  tfcc_err_clear(err);
  if (!op) return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED, "no op %d", (int)builtin);
  uint8_t storage[256];
  tfcc_ir_node node;
  memset(&node, 0, sizeof node);
  node.builtin = builtin;
  if (opts && opts->opts_type) {
    tfb_field f[2];
    int nf = 0;
    f[nf++] = (tfb_field){0, TFB_U8, opts->activation, 0, NULL, 0, NULL};
    if (opts->pot >= 0) f[nf++] = (tfb_field){1, TFB_U8, opts->pot, 0, NULL, 0, NULL};
    node.options = tfb_build(storage, sizeof storage, f, nf);
    node.options_type = opts->opts_type;
  }
  void *params = NULL;
  tfcc_status st = TFCC_OK;
  if (op->init) {
    tfcc_init_ctx ic;
    memset(&ic, 0, sizeof ic);
    ic.node = &node;
    ic.err = err;
    ic.quant_compat = TFCC_QUANT_COMPAT_REFERENCE;
    st = op->init(&ic);
    if (st != TFCC_OK) return st;
    params = ic.params;
  }
  tfcc_tensor *outs[1] = {out};
  tfcc_op_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.node = &node;
  ctx.params = params;
  ctx.in = in;
  ctx.n_in = n_in;
  ctx.out = outs;
  ctx.n_out = 1;
  ctx.err = err;
  void *out_data = out->data;
  st = op->prepare(&ctx);
  if (st == TFCC_OK) {
    int64_t n = tfcc_shape_elements(out->rank, out->dims);
    out->bytes = (size_t)n * tfcc_dtype_size(out->dtype);
    out->data = out_data;
    void *scratch = ctx.scratch_bytes ? malloc(ctx.scratch_bytes) : NULL;
    ctx.scratch = scratch;
    st = op->eval(&ctx);
    free(scratch);
  }
  if (params) {
    if (op->release)
      op->release(params);
    else
      free(params);
  }
  return st;
}

/* Broadcast index: the element of a tensor of shape (r, d) read for output index `oi` of an
 * output of shape (ro, dout) (numpy rules). */
static inline int64_t etu_bidx(int64_t oi, int32_t ro, const int32_t *dout, int32_t r, const int32_t *d) {
  int64_t idx = 0, mul = 1;
  for (int32_t j = ro - 1; j >= 0; j--) {
    int64_t c = oi % dout[j];
    oi /= dout[j];
    int32_t at = r - ro + j;
    if (at >= 0) {
      if (d[at] != 1) idx += c * mul;
      mul *= d[at];
    }
  }
  return idx;
}

/* Deterministic pseudo-random numbers. */
static uint32_t etu_seed = 12345u;
static inline uint32_t etu_rand(void) {
  etu_seed = etu_seed * 1664525u + 1013904223u;
  return etu_seed >> 8;
}
static inline float etu_uniform(float lo, float hi) {
  return lo + (hi - lo) * (float)(etu_rand() & 0xFFFF) / 65535.0f;
}

#endif
