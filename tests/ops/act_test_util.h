/* Helpers for the activation / softmax / quantize operator tests: tensors built by hand, one
 * node run through init -> prepare -> eval as a session would. */
#ifndef TFCC_TESTS_OPS_ACT_TEST_UTIL_H
#define TFCC_TESTS_OPS_ACT_TEST_UTIL_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_test_builder.h"
#include "ops/op.h"
#include "test_harness.h"

/* Fallback option readers for builds where src/format/fb.c has not landed yet: weak, so the
 * library's real accessors take precedence once they exist. They read tables built by
 * tfb_build (no bounds checks needed for those). */
static inline uint16_t att_u16_(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline const uint8_t *att_field_(const tfcc_fb_table *t, int field) {
  if (!t || !t->buf) return NULL;
  const uint8_t *tbl = t->buf + t->pos;
  int32_t soff = (int32_t)((uint32_t)tbl[0] | (uint32_t)tbl[1] << 8 | (uint32_t)tbl[2] << 16 |
                           (uint32_t)tbl[3] << 24);
  const uint8_t *vt = tbl - soff;
  uint16_t vt_size = att_u16_(vt);
  if (4 + 2 * field + 2 > vt_size) return NULL;
  uint16_t off = att_u16_(vt + 4 + 2 * field);
  return off ? tbl + off : NULL;
}
__attribute__((weak)) float tfcc_fb_f32(const tfcc_fb_table *t, int field, float def) {
  const uint8_t *p = att_field_(t, field);
  if (!p) return def;
  float f;
  memcpy(&f, p, 4);
  return f;
}
__attribute__((weak)) bool tfcc_fb_bool(const tfcc_fb_table *t, int field, bool def) {
  const uint8_t *p = att_field_(t, field);
  return p ? p[0] != 0 : def;
}

typedef struct att_tensor {
  tfcc_tensor t;
  tfcc_quant q;
  float scale[1];
  int32_t zp[1];
} att_tensor;

/* A tensor over caller-owned data; scale 0 means "not quantized". */
static inline void att_make(att_tensor *a, tfcc_dtype dt, int32_t rank, const int32_t *dims, void *data,
                     float scale, int32_t zp) {
  memset(a, 0, sizeof *a);
  a->t.dtype = dt;
  a->t.rank = rank;
  for (int32_t i = 0; i < rank; i++) a->t.dims[i] = dims[i];
  a->t.data = data;
  a->t.bytes = (size_t)tfcc_tensor_elements(&a->t) * tfcc_dtype_size(dt);
  a->scale[0] = scale;
  a->zp[0] = zp;
  a->q.count = scale != 0.f ? 1 : 0;
  a->q.scale = a->scale;
  a->q.zero_point = a->zp;
  a->t.quant = &a->q;
}

/* Runs builtin on inputs -> out. Returns the first failing status (err has the message). */
static inline tfcc_status att_run(int32_t builtin, att_tensor **ins, int n_in, att_tensor *out,
                           tfcc_fb_table options, tfcc_err *err) {
  const tfcc_op_def *op = tfcc_op_lookup(builtin);
  if (!op) return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED, "no op %d", (int)builtin);
  tfcc_ir_tensor irt[4];
  int32_t in_idx[3], out_idx[1];
  memset(irt, 0, sizeof irt);
  for (int i = 0; i <= n_in; i++) {
    const tfcc_tensor *t = i < n_in ? &ins[i]->t : &out->t;
    irt[i].name = "";
    irt[i].dtype = t->dtype;
    irt[i].rank = t->rank;
    memcpy(irt[i].dims, t->dims, sizeof t->dims);
    irt[i].quant = *t->quant;
    if (i < n_in) in_idx[i] = i;
  }
  out_idx[0] = n_in;
  tfcc_ir_subgraph sg;
  memset(&sg, 0, sizeof sg);
  sg.n_tensors = n_in + 1;
  sg.tensors = irt;
  tfcc_ir_node node;
  memset(&node, 0, sizeof node);
  node.builtin = builtin;
  node.n_inputs = n_in;
  node.n_outputs = 1;
  node.inputs = in_idx;
  node.outputs = out_idx;
  node.options = options;
  node.op = op;

  tfcc_status st = TFCC_OK;
  void *params = NULL;
  if (op->init) {
    tfcc_init_ctx ic;
    memset(&ic, 0, sizeof ic);
    ic.sg = &sg;
    ic.node = &node;
    ic.err = err;
    ic.quant_compat = TFCC_QUANT_COMPAT_REFERENCE;
    st = op->init(&ic);
    params = ic.params;
    if (st) {
      if (params) free(params);
      return st;
    }
  }
  tfcc_tensor *in_ptrs[3], *out_ptrs[1] = {&out->t};
  for (int i = 0; i < n_in; i++) in_ptrs[i] = &ins[i]->t;
  tfcc_op_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.node = &node;
  ctx.params = params;
  ctx.in = in_ptrs;
  ctx.n_in = n_in;
  ctx.out = out_ptrs;
  ctx.n_out = 1;
  ctx.err = err;
  void *data = out->t.data;
  st = op->prepare(&ctx);
  if (!st) {
    out->t.bytes = (size_t)tfcc_tensor_elements(&out->t) * tfcc_dtype_size(out->t.dtype);
    out->t.data = data;
    ctx.scratch = ctx.scratch_bytes ? calloc(1, ctx.scratch_bytes) : NULL;
    st = op->eval(&ctx);
    free(ctx.scratch);
  }
  if (params) {
    if (op->release)
      op->release(params);
    else
      free(params);
  }
  return st;
}

static inline tfcc_fb_table att_no_options(void) {
  tfcc_fb_table t;
  memset(&t, 0, sizeof t);
  return t;
}

/* Options table with one float field 0 (SoftmaxOptions.beta, LeakyReluOptions.alpha). */
static inline tfcc_fb_table att_f32_option(uint8_t *storage, size_t cap, float v) {
  tfb_field f;
  memset(&f, 0, sizeof f);
  f.field = 0;
  f.kind = TFB_F32;
  f.f = v;
  return tfb_build(storage, cap, &f, 1);
}

static inline tfcc_fb_table att_bool_option(uint8_t *storage, size_t cap, bool v) {
  tfb_field f;
  memset(&f, 0, sizeof f);
  f.field = 0;
  f.kind = TFB_U8;
  f.i = v ? 1 : 0;
  return tfb_build(storage, cap, &f, 1);
}

/* Deterministic pseudo-random numbers (xorshift32). */
static uint32_t att_rand_state = 2463534242u;
static inline uint32_t att_rand(void) {
  uint32_t x = att_rand_state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return att_rand_state = x;
}
static inline float att_uniform(float lo, float hi) {
  return lo + (hi - lo) * (float)(att_rand() >> 8) / 16777216.0f;
}

static inline int32_t att_qmin(tfcc_dtype t) { return t == TFCC_UINT8 ? 0 : (t == TFCC_INT8 ? -128 : -32768); }
static inline int32_t att_qmax(tfcc_dtype t) { return t == TFCC_UINT8 ? 255 : (t == TFCC_INT8 ? 127 : 32767); }

static inline int32_t att_get(tfcc_dtype t, const void *p, size_t i) {
  if (t == TFCC_UINT8) return ((const uint8_t *)p)[i];
  if (t == TFCC_INT8) return ((const int8_t *)p)[i];
  return ((const int16_t *)p)[i];
}
static inline void att_set(tfcc_dtype t, void *p, size_t i, int32_t v) {
  if (t == TFCC_UINT8) ((uint8_t *)p)[i] = (uint8_t)v;
  else if (t == TFCC_INT8) ((int8_t *)p)[i] = (int8_t)v;
  else ((int16_t *)p)[i] = (int16_t)v;
}

/* Straightforward quantization of a real value: round half away from zero, clamp. */
static inline int32_t att_quantize(double x, double scale, int32_t zp, tfcc_dtype t) {
  double q = round(x / scale) + zp;
  if (q < att_qmin(t)) q = att_qmin(t);
  if (q > att_qmax(t)) q = att_qmax(t);
  return (int32_t)q;
}

#endif
