/* What the operator unit tests share: a tfcc_tensor built over test memory, per-tensor
 * quantization storage, one operator node run through init -> prepare -> eval -> release as a
 * session runs it, deterministic pseudo-random numbers and array comparisons that name the
 * first element that differs. Header only: each test program includes it once (through its
 * family's *_test_util.h). */
#ifndef TFCC_TESTS_HARNESS_OP_RUN_H
#define TFCC_TESTS_HARNESS_OP_RUN_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/tflite_options.h"
#include "ops/op.h"
#include "test_harness.h"

/* ------------------------------------------------------------------ options */

/* Gives node (its builtin set) the options of a hand-built options table of BuiltinOptions
 * type `type` (0: the operator's own), read as the model loader reads them. An absent table
 * (buf NULL) gives the defaults. Returns the reader's status (message in *err). */
static inline tfcc_status oh_node_options(tfcc_ir_node *node, uint8_t type, tfcc_fb_table table,
                                          tfcc_err *err) {
  return tfl_read_options(node->builtin, type, &table, &node->opts, err);
}

/* ------------------------------------------------------------------ tensors */

static const tfcc_quant oh_noquant = {0, 0, NULL, NULL};

/* A tensor of dtype and shape over `data` (not copied, may be NULL); q NULL: not quantized. */
static inline tfcc_tensor oh_tensor(tfcc_dtype dt, int32_t rank, const int32_t *dims, void *data,
                                    const tfcc_quant *q) {
  tfcc_tensor t;
  memset(&t, 0, sizeof t);
  t.dtype = dt;
  t.rank = rank;
  for (int32_t i = 0; i < rank; i++) t.dims[i] = dims[i];
  t.data = data;
  t.quant = q ? q : &oh_noquant;
  t.bytes = (size_t)tfcc_shape_elements(rank, dims) * tfcc_dtype_size(dt);
  t.index = -1;
  return t;
}

/* Storage for one per-tensor (scale, zero point) pair. */
typedef struct oh_qparam {
  tfcc_quant q;
  float scale;
  int32_t zp;
} oh_qparam;

/* Fills s with (scale, zp) and returns its tfcc_quant. */
static inline const tfcc_quant *oh_qparam_set(oh_qparam *s, float scale, int32_t zp) {
  s->scale = scale;
  s->zp = zp;
  s->q.count = 1;
  s->q.axis = 0;
  s->q.scale = &s->scale;
  s->q.zero_point = &s->zp;
  return &s->q;
}

/* ------------------------------------------------------------------ one node run */

typedef struct oh_node_run {
  const tfcc_op_def *op;
  /* What init sees. NULL: a subgraph mirroring in/out is built (constant inputs carry their
   * data), and node->inputs/outputs point at it during the run if they were NULL. */
  const tfcc_ir_subgraph *sg;
  tfcc_ir_node *node;
  tfcc_tensor **in;
  int32_t n_in;
  tfcc_tensor **out;
  int32_t n_out;
  tfcc_isa isa;
  tfcc_err *err;
  /* true: each output gets a fresh buffer of its prepared size, filled with 0xA5 (the caller
   * frees out[i]->data); false: outputs keep the caller's buffers. */
  bool alloc_outputs;
  bool prepare_only;    /* stop after prepare (and macs) */
  int winograd;         /* init may choose Winograd for float32 3x3 CONV_2D (as a model load):
                        TFCC_WINO_* */
  int64_t macs;         /* result: op->macs after prepare, 0 if the op has none */
  size_t scratch_bytes; /* result: the scratch prepare asked for */
} oh_node_run;

/* Runs r->op on r->node. Scratch is 64-byte aligned and filled with 0x5A, as an arena gives
 * memory an operator must not assume zeroed. Returns the first failing status (r->err has the
 * message); params are released on every path. */
static inline tfcc_status oh_run_node(oh_node_run *r) {
  const tfcc_op_def *op = r->op;
  tfcc_err_clear(r->err);
  r->macs = 0;
  if (!op || !op->prepare)
    return tfcc_err_set(r->err, TFCC_ERR_UNSUPPORTED, "no op %d", (int)r->node->builtin);
  tfcc_ir_tensor irt[16];
  int32_t idx[16];
  tfcc_ir_subgraph own_sg;
  const tfcc_ir_subgraph *sg = r->sg;
  const bool own_io = !sg && !r->node->inputs && !r->node->outputs;
  if (!sg && r->n_in + r->n_out <= 16) {
    memset(irt, 0, sizeof irt);
    const int32_t n = r->n_in + r->n_out;
    for (int32_t i = 0; i < n; i++) {
      const tfcc_tensor *t = i < r->n_in ? r->in[i] : r->out[i - r->n_in];
      idx[i] = t ? i : -1;
      if (!t) continue;
      irt[i].name = "";
      irt[i].dtype = t->dtype;
      irt[i].rank = t->rank;
      memcpy(irt[i].dims, t->dims, sizeof t->dims);
      if (t->quant) irt[i].quant = *t->quant;
      irt[i].data = t->is_const ? t->data : NULL;
    }
    memset(&own_sg, 0, sizeof own_sg);
    own_sg.n_tensors = n;
    own_sg.tensors = irt;
    sg = &own_sg;
    if (own_io) {
      r->node->inputs = idx;
      r->node->outputs = idx + r->n_in;
    }
  }
  void *params = NULL;
  tfcc_status st = TFCC_OK;
  if (op->init) {
    tfcc_init_ctx ic;
    memset(&ic, 0, sizeof ic);
    ic.sg = sg;
    ic.node = r->node;
    ic.err = r->err;
    ic.isa = r->isa;
    ic.ks = tfcc_kernel_set_for(r->isa);
    ic.quant_compat = TFCC_QUANT_COMPAT_REFERENCE;
    ic.winograd = r->winograd;
    st = op->init(&ic);
    params = ic.params;
  }
  tfcc_op_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.node = r->node;
  ctx.params = params;
  ctx.in = r->in;
  ctx.n_in = r->n_in;
  ctx.out = r->out;
  ctx.n_out = r->n_out;
  ctx.err = r->err;
  ctx.isa = r->isa;
  ctx.ks = tfcc_kernel_set_for(r->isa);
  void *kept[8] = {0};
  for (int32_t i = 0; i < r->n_out && i < 8; i++) kept[i] = r->out[i]->data;
  if (st == TFCC_OK) st = op->prepare(&ctx);
  r->scratch_bytes = st == TFCC_OK ? ctx.scratch_bytes : 0;
  void *scratch = NULL;
  if (st == TFCC_OK) {
    for (int32_t i = 0; i < r->n_out; i++) {
      tfcc_tensor *t = r->out[i];
      t->bytes = (size_t)tfcc_shape_elements(t->rank, t->dims) * tfcc_dtype_size(t->dtype);
      if (r->alloc_outputs) {
        free(i < 8 ? kept[i] : t->data);
        t->data = malloc(t->bytes ? t->bytes : 1);
        memset(t->data, 0xA5, t->bytes);
      } else if (i < 8) {
        t->data = kept[i];
      }
    }
    if (ctx.scratch_bytes) {
      scratch = aligned_alloc(64, (ctx.scratch_bytes + 63) & ~(size_t)63);
      memset(scratch, 0x5A, ctx.scratch_bytes);
    }
    ctx.scratch = scratch;
    r->macs = op->macs ? op->macs(&ctx) : 0;
    if (!r->prepare_only) st = op->eval(&ctx);
  }
  free(scratch);
  if (params) {
    if (op->release)
      op->release(params);
    else
      free(params);
  }
  if (own_io) r->node->inputs = r->node->outputs = NULL;
  return st;
}

/* ------------------------------------------------------------------ data */

/* Deterministic pseudo-random numbers (LCG; each test program has its own sequence). */
static uint32_t oh_rng_state = 12345u;
static inline uint32_t oh_rand(void) {
  oh_rng_state = oh_rng_state * 1664525u + 1013904223u;
  return oh_rng_state >> 8;
}
static inline int32_t oh_randi(int32_t lo, int32_t hi) { /* inclusive */
  return lo + (int32_t)(oh_rand() % (uint32_t)(hi - lo + 1));
}
static inline float oh_randf(float lo, float hi) {
  return lo + (hi - lo) * (float)(oh_rand() & 0xFFFF) / 65535.f;
}

/* Element i of a uint8 / int8 / int16 array as int32. */
static inline int32_t oh_get_q(const void *p, tfcc_dtype dt, int64_t i) {
  switch (dt) {
    case TFCC_UINT8: return ((const uint8_t *)p)[i];
    case TFCC_INT8: return ((const int8_t *)p)[i];
    case TFCC_INT16: return ((const int16_t *)p)[i];
    default: return 0;
  }
}

/* Compares quantized values: counts elements that differ, fails at the first one off by more
 * than max_diff. Returns the number of elements that differ. */
static inline int64_t oh_cmp_q(const char *what, const int32_t *got, const int32_t *want, int64_t n,
                               int32_t max_diff) {
  int64_t diff = 0;
  for (int64_t i = 0; i < n; i++) {
    int32_t d = got[i] - want[i];
    if (d) diff++;
    if (d > max_diff || d < -max_diff) {
      CHECKF(0, "%s: element %lld got %d want %d", what, (long long)i, (int)got[i], (int)want[i]);
      return diff;
    }
  }
  return diff;
}

/* Fails at the first element whose error exceeds tol * (1 + |want|). */
static inline void oh_cmp_f(const char *what, const float *got, const double *want, int64_t n,
                            double tol) {
  for (int64_t i = 0; i < n; i++) {
    double e = fabs(got[i] - want[i]);
    if (!(e <= tol * (1.0 + fabs(want[i])))) {
      CHECKF(0, "%s: element %lld got %.8g want %.8g", what, (long long)i, (double)got[i], want[i]);
      return;
    }
  }
  CHECK(1);
}

#endif
