/* Test helpers for the convolution-family operator tests (one TU per test program): a case
 * (inputs, output, options) run through init / prepare / eval with tests/harness/op_run.h,
 * plus small quantization helpers for the straightforward references. */
#ifndef TFCC_TESTS_CONV_FAMILY_TEST_UTIL_H
#define TFCC_TESTS_CONV_FAMILY_TEST_UTIL_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "fb_test_builder.h"
#include "op_run.h"

/* ------------------------------------------------------------ tensors and runs */
#define TT_MAXQ 64
#define TT_MAXIN 5

typedef struct tt_spec {
  bool used; /* false: omitted optional input (index -1) */
  tfcc_dtype dtype;
  int32_t rank;
  int32_t dims[TFCC_MAX_RANK];
  void *data; /* inputs: the data (NULL allowed in prepare-only runs) */
  int32_t nq; /* 0: not quantized */
  float qs[TT_MAXQ];
  int32_t qz[TT_MAXQ];
  int32_t qaxis;
  bool not_const; /* input data not known at prepare */
} tt_spec;

typedef struct tt_case {
  int32_t builtin;
  int32_t n_in;
  tt_spec in[TT_MAXIN];
  tt_spec out;
  tfb_field opts[8];
  int32_t n_opts;
  int winograd; /* CONV_2D init may take Winograd: TFCC_WINO_* (off by default in op tests) */
  /* results */
  tfcc_status st;
  tfcc_err err;
  void *out_data; /* malloc'ed by tt_run (free with tt_done) */
  int32_t out_rank;
  int32_t out_dims[TFCC_MAX_RANK];
  int64_t macs;
  size_t scratch_bytes; /* what prepare asked for */
} tt_case;

static inline void tt_set(tt_spec *s, tfcc_dtype dt, int32_t rank, const int32_t *dims,
                          void *data) {
  memset(s, 0, sizeof(*s));
  s->used = true;
  s->dtype = dt;
  s->rank = rank;
  for (int32_t i = 0; i < rank; i++) s->dims[i] = dims[i];
  s->data = data;
}
static inline void tt_q(tt_spec *s, float scale, int32_t zp) {
  s->nq = 1;
  s->qs[0] = scale;
  s->qz[0] = zp;
}
static inline void tt_opt_i(tt_case *c, int field, tfb_kind kind, int64_t v) {
  tfb_field f;
  memset(&f, 0, sizeof(f));
  f.field = field;
  f.kind = kind;
  f.i = v;
  c->opts[c->n_opts++] = f;
}

/* Kernel level for the run: the CPU's best, capped by env TFCC_ISA (as the runtime does), so
 * the whole suite exercises each dispatch level when run under TFCC_ISA=generic|avx2|... */
static tfcc_isa tt_isa(void) {
  tfcc_isa cap = TFCC_ISA_COUNT_;
  const char *e = getenv("TFCC_ISA");
  if (e && *e && tfcc_isa_parse(e, &cap) != TFCC_OK) cap = TFCC_ISA_COUNT_;
  return tfcc_cpu_dispatch_isa(cap);
}

/* Runs init, prepare and (if eval) eval. Returns the first failing status. */
static tfcc_status tt_run(tt_case *c, bool eval) {
  const tfcc_op_def *op = tfcc_op_lookup(c->builtin);
  c->out_data = NULL;
  if (!op) return c->st = tfcc_err_set(&c->err, TFCC_ERR_UNSUPPORTED, "op not linked");
  uint8_t optbuf[1024];
  tfcc_ir_tensor irt[TT_MAXIN + 1];
  int32_t inputs[TT_MAXIN], outputs[1];
  memset(irt, 0, sizeof(irt));
  int32_t nt = 0;
  for (int32_t i = 0; i < c->n_in; i++) {
    if (!c->in[i].used) {
      inputs[i] = -1;
      continue;
    }
    tt_spec *s = &c->in[i];
    tfcc_ir_tensor *t = &irt[nt];
    t->name = "";
    t->dtype = s->dtype;
    t->rank = s->rank;
    memcpy(t->dims, s->dims, sizeof(s->dims));
    t->quant.count = s->nq;
    t->quant.axis = s->qaxis;
    t->quant.scale = s->qs;
    t->quant.zero_point = s->qz;
    t->data = s->not_const ? NULL : s->data;
    t->data_bytes =
        t->data ? (size_t)tfcc_shape_elements(s->rank, s->dims) * tfcc_dtype_size(s->dtype) : 0;
    inputs[i] = nt++;
  }
  {
    tfcc_ir_tensor *t = &irt[nt];
    t->name = "";
    t->dtype = c->out.dtype;
    t->rank = c->out.rank;
    memcpy(t->dims, c->out.dims, sizeof(c->out.dims));
    t->quant.count = c->out.nq;
    t->quant.scale = c->out.qs;
    t->quant.zero_point = c->out.qz;
    outputs[0] = nt++;
  }
  tfcc_ir_subgraph sg;
  memset(&sg, 0, sizeof(sg));
  sg.n_tensors = nt;
  sg.tensors = irt;
  tfcc_ir_node node;
  memset(&node, 0, sizeof(node));
  node.builtin = c->builtin;
  node.version = 1;
  node.n_inputs = c->n_in;
  node.n_outputs = 1;
  node.inputs = inputs;
  node.outputs = outputs;
  tfcc_fb_table opts = {0};
  if (c->n_opts) opts = tfb_build(optbuf, sizeof(optbuf), c->opts, c->n_opts);
  tfcc_err_clear(&c->err);
  c->st = oh_node_options(&node, 0, opts, &c->err);
  if (c->st != TFCC_OK) return c->st;
  tfcc_tensor tin[TT_MAXIN];
  tfcc_tensor *pin[TT_MAXIN];
  for (int32_t i = 0; i < c->n_in; i++) {
    if (inputs[i] < 0) {
      pin[i] = NULL;
      continue;
    }
    tt_spec *s = &c->in[i];
    tin[i] = oh_tensor(s->dtype, s->rank, s->dims, s->data, &irt[inputs[i]].quant);
    tin[i].is_const = !s->not_const;
    tin[i].known = !s->not_const;
    tin[i].index = inputs[i];
    pin[i] = &tin[i];
  }
  tfcc_tensor tout = oh_tensor(c->out.dtype, 0, NULL, NULL, &irt[outputs[0]].quant);
  tout.index = outputs[0];
  tfcc_tensor *pout[1] = {&tout};
  oh_node_run r = {.op = op,
                   .sg = &sg,
                   .node = &node,
                   .in = pin,
                   .n_in = c->n_in,
                   .out = pout,
                   .n_out = 1,
                   .isa = tt_isa(),
                   .err = &c->err,
                   .alloc_outputs = true,
                   .prepare_only = !eval,
                   .winograd = c->winograd};
  c->st = oh_run_node(&r);
  c->out_data = tout.data;
  c->out_rank = tout.rank;
  memcpy(c->out_dims, tout.dims, sizeof(tout.dims));
  c->macs = r.macs;
  c->scratch_bytes = r.scratch_bytes;
  return c->st;
}

static inline void tt_done(tt_case *c) {
  free(c->out_data);
  c->out_data = NULL;
}

/* ------------------------------------------------------------ data helpers */
/* Round-half-away, quantize and clamp (test-side reference of output quantization). */
static inline int32_t tt_quantize(double real, double scale, int32_t zp, int32_t lo, int32_t hi) {
  double v = round(real / scale) + zp;
  if (v < lo) v = lo;
  if (v > hi) v = hi;
  return (int32_t)v;
}

/* Expects a failure status whose message contains `needle`. */
static inline void tt_expect_fail(tt_case *c, bool eval, const char *needle) {
  tfcc_status st = tt_run(c, eval);
  CHECKF(st != TFCC_OK, "expected failure containing '%s'", needle);
  if (st != TFCC_OK)
    CHECKF(strstr(c->err.msg, needle) != NULL, "message '%s' lacks '%s'", c->err.msg, needle);
  tt_done(c);
}

#endif
