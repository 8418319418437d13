/* Helpers for the activation / softmax / quantize operator tests: a tensor with its own
 * quantization, one node run through tests/harness/op_run.h, option tables, and quantize /
 * clamp references. */
#ifndef TFCC_TESTS_OPS_ACT_TEST_UTIL_H
#define TFCC_TESTS_OPS_ACT_TEST_UTIL_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_test_builder.h"
#include "op_run.h"

typedef struct att_tensor {
  tfcc_tensor t;
  tfcc_quant q;
  float scale[1];
  int32_t zp[1];
} att_tensor;

/* A tensor over caller-owned data; scale 0 means "not quantized". */
static inline void att_make(att_tensor *a, tfcc_dtype dt, int32_t rank, const int32_t *dims,
                            void *data, float scale, int32_t zp) {
  memset(a, 0, sizeof *a);
  a->scale[0] = scale;
  a->zp[0] = zp;
  a->q.count = scale != 0.f ? 1 : 0;
  a->q.scale = a->scale;
  a->q.zero_point = a->zp;
  a->t = oh_tensor(dt, rank, dims, data, &a->q);
  a->t.index = 0;
}

/* Runs builtin on inputs -> out. Returns the first failing status (err has the message). */
static inline tfcc_status att_run(int32_t builtin, att_tensor **ins, int n_in, att_tensor *out,
                                  tfcc_fb_table options, tfcc_err *err) {
  const tfcc_op_def *op = tfcc_op_lookup(builtin);
  if (!op) return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED, "no op %d", (int)builtin);
  tfcc_ir_node node;
  memset(&node, 0, sizeof node);
  node.builtin = builtin;
  node.n_inputs = n_in;
  node.n_outputs = 1;
  node.op = op;
  tfcc_status st = oh_node_options(&node, 0, options, err);
  if (st != TFCC_OK) return st;

  tfcc_tensor *in_ptrs[3], *out_ptrs[1] = {&out->t};
  for (int i = 0; i < n_in; i++) in_ptrs[i] = &ins[i]->t;
  oh_node_run r = {.op = op,
                   .node = &node,
                   .in = in_ptrs,
                   .n_in = n_in,
                   .out = out_ptrs,
                   .n_out = 1,
                   .err = err};
  return oh_run_node(&r);
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

static inline int32_t att_qmin(tfcc_dtype t) {
  return t == TFCC_UINT8 ? 0 : (t == TFCC_INT8 ? -128 : -32768);
}
static inline int32_t att_qmax(tfcc_dtype t) {
  return t == TFCC_UINT8 ? 255 : (t == TFCC_INT8 ? 127 : 32767);
}

static inline int32_t att_get(tfcc_dtype t, const void *p, size_t i) {
  if (t == TFCC_UINT8) return ((const uint8_t *)p)[i];
  if (t == TFCC_INT8) return ((const int8_t *)p)[i];
  return ((const int16_t *)p)[i];
}
static inline void att_set(tfcc_dtype t, void *p, size_t i, int32_t v) {
  if (t == TFCC_UINT8)
    ((uint8_t *)p)[i] = (uint8_t)v;
  else if (t == TFCC_INT8)
    ((int8_t *)p)[i] = (int8_t)v;
  else
    ((int16_t *)p)[i] = (int16_t)v;
}

/* Straightforward quantization of a real value: round half away from zero, clamp. */
static inline int32_t att_quantize(double x, double scale, int32_t zp, tfcc_dtype t) {
  double q = round(x / scale) + zp;
  if (q < att_qmin(t)) q = att_qmin(t);
  if (q > att_qmax(t)) q = att_qmax(t);
  return (int32_t)q;
}

#endif
