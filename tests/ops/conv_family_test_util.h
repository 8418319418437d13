/* Test helpers for the convolution-family operator tests (one TU per test program):
 * runs an operator through init / prepare / eval on hand-built tensors, plus small
 * quantization helpers for the straightforward references.
 *
 * Until the format engineer's fb.c lands on this branch, weak definitions of the
 * FlatBuffer accessors the ops use are provided here; the library's strong definitions
 * replace them once present. */
#ifndef TFCC_TESTS_CONV_FAMILY_TEST_UTIL_H
#define TFCC_TESTS_CONV_FAMILY_TEST_UTIL_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fb_test_builder.h"
#include "cpu/cpu_info.h"
#include "ops/op.h"
#include "test_harness.h"

/* ------------------------------------------------------------ weak FlatBuffer readers */
#define TT_WEAK __attribute__((weak))

static uint32_t tt_rd(const uint8_t *p, int n) {
  uint32_t v = 0;
  for (int k = 0; k < n; k++) v |= (uint32_t)p[k] << (8 * k);
  return v;
}
/* Position of a scalar field's bytes, or 0 if absent / out of bounds. */
static size_t tt_field_pos(const tfcc_fb_table *t, int field, size_t size) {
  if (!t || !t->buf || (size_t)t->pos + 4 > t->len) return 0;
  int32_t soff = (int32_t)tt_rd(t->buf + t->pos, 4);
  int64_t vt = (int64_t)t->pos - soff;
  if (vt < 0 || (size_t)vt + 4 > t->len) return 0;
  uint32_t vt_size = tt_rd(t->buf + vt, 2);
  size_t slot = 4 + 2 * (size_t)field;
  if (field < 0 || slot + 2 > vt_size || (size_t)vt + slot + 2 > t->len) return 0;
  uint32_t off = tt_rd(t->buf + vt + slot, 2);
  if (!off || (size_t)t->pos + off + size > t->len) return 0;
  return (size_t)t->pos + off;
}
TT_WEAK bool tfcc_fb_table_present(const tfcc_fb_table *t) { return t && t->buf; }
TT_WEAK bool tfcc_fb_has(const tfcc_fb_table *t, int field) {
  return tt_field_pos(t, field, 1) != 0;
}
TT_WEAK int8_t tfcc_fb_i8(const tfcc_fb_table *t, int field, int8_t def) {
  size_t p = tt_field_pos(t, field, 1);
  return p ? (int8_t)t->buf[p] : def;
}
TT_WEAK uint8_t tfcc_fb_u8(const tfcc_fb_table *t, int field, uint8_t def) {
  size_t p = tt_field_pos(t, field, 1);
  return p ? t->buf[p] : def;
}
TT_WEAK bool tfcc_fb_bool(const tfcc_fb_table *t, int field, bool def) {
  size_t p = tt_field_pos(t, field, 1);
  return p ? t->buf[p] != 0 : def;
}
TT_WEAK int32_t tfcc_fb_i32(const tfcc_fb_table *t, int field, int32_t def) {
  size_t p = tt_field_pos(t, field, 4);
  return p ? (int32_t)tt_rd(t->buf + p, 4) : def;
}
TT_WEAK float tfcc_fb_f32(const tfcc_fb_table *t, int field, float def) {
  size_t p = tt_field_pos(t, field, 4);
  if (!p) return def;
  uint32_t u = tt_rd(t->buf + p, 4);
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* ------------------------------------------------------------ tensors and runs */
#define TT_MAXQ 64
#define TT_MAXIN 5

typedef struct tt_spec {
  bool used;          /* false: omitted optional input (index -1) */
  tfcc_dtype dtype;
  int32_t rank;
  int32_t dims[TFCC_MAX_RANK];
  void *data;         /* inputs: the data (NULL allowed in prepare-only runs) */
  int32_t nq;         /* 0: not quantized */
  float qs[TT_MAXQ];
  int32_t qz[TT_MAXQ];
  int32_t qaxis;
  bool not_const;     /* input data not known at prepare */
} tt_spec;

typedef struct tt_case {
  int32_t builtin;
  int32_t n_in;
  tt_spec in[TT_MAXIN];
  tt_spec out;
  tfb_field opts[8];
  int32_t n_opts;
  /* results */
  tfcc_status st;
  tfcc_err err;
  void *out_data;     /* malloc'ed by tt_run (free with tt_done) */
  int32_t out_rank;
  int32_t out_dims[TFCC_MAX_RANK];
  int64_t macs;
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

static inline int64_t tt_elems(const tt_spec *s) {
  int64_t n = 1;
  for (int32_t i = 0; i < s->rank; i++) n *= s->dims[i];
  return n;
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
  tfcc_err_clear(&c->err);
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
  if (c->n_opts) node.options = tfb_build(optbuf, sizeof(optbuf), c->opts, c->n_opts);
  void *params = NULL;
  if (op->init) {
    tfcc_init_ctx ic;
    memset(&ic, 0, sizeof(ic));
    ic.sg = &sg;
    ic.node = &node;
    ic.err = &c->err;
    ic.isa = tt_isa();
    ic.quant_compat = TFCC_QUANT_COMPAT_REFERENCE;
    c->st = op->init(&ic);
    if (c->st != TFCC_OK) return c->st;
    params = ic.params;
  }
  tfcc_tensor tin[TT_MAXIN], tout;
  tfcc_tensor *pin[TT_MAXIN], *pout[1] = {&tout};
  memset(tin, 0, sizeof(tin));
  memset(&tout, 0, sizeof(tout));
  for (int32_t i = 0; i < c->n_in; i++) {
    if (inputs[i] < 0) {
      pin[i] = NULL;
      continue;
    }
    tt_spec *s = &c->in[i];
    tfcc_tensor *t = &tin[i];
    t->dtype = s->dtype;
    t->rank = s->rank;
    memcpy(t->dims, s->dims, sizeof(s->dims));
    t->data = s->data;
    t->bytes = (size_t)tt_elems(s) * tfcc_dtype_size(s->dtype);
    t->quant = &irt[inputs[i]].quant;
    t->is_const = !s->not_const;
    t->known = !s->not_const;
    t->index = inputs[i];
    pin[i] = t;
  }
  tout.dtype = c->out.dtype;
  tout.quant = &irt[outputs[0]].quant;
  tout.index = outputs[0];
  tfcc_op_ctx oc;
  memset(&oc, 0, sizeof(oc));
  oc.node = &node;
  oc.params = params;
  oc.in = pin;
  oc.n_in = c->n_in;
  oc.out = pout;
  oc.n_out = 1;
  oc.err = &c->err;
  oc.isa = tt_isa();
  c->st = op->prepare(&oc);
  void *scratch = NULL;
  if (c->st == TFCC_OK) {
    c->out_rank = tout.rank;
    memcpy(c->out_dims, tout.dims, sizeof(tout.dims));
    int64_t n = 1;
    for (int32_t i = 0; i < tout.rank; i++) n *= tout.dims[i];
    tout.bytes = (size_t)n * tfcc_dtype_size(tout.dtype);
    c->out_data = malloc(tout.bytes ? tout.bytes : 1);
    memset(c->out_data, 0xA5, tout.bytes);
    tout.data = c->out_data;
    if (oc.scratch_bytes) {
      scratch = aligned_alloc(64, (oc.scratch_bytes + 63) & ~(size_t)63);
      memset(scratch, 0x5A, oc.scratch_bytes);
    }
    oc.scratch = scratch;
    c->macs = op->macs ? op->macs(&oc) : 0;
    if (eval) c->st = op->eval(&oc);
  }
  free(scratch);
  if (params) {
    if (op->release) op->release(params);
    else free(params);
  }
  return c->st;
}

static inline void tt_done(tt_case *c) {
  free(c->out_data);
  c->out_data = NULL;
}

/* ------------------------------------------------------------ data helpers */
static uint32_t tt_rng_state = 12345u;
static inline uint32_t tt_rand(void) {
  tt_rng_state = tt_rng_state * 1664525u + 1013904223u;
  return tt_rng_state >> 8;
}
static inline int32_t tt_randi(int32_t lo, int32_t hi) { /* inclusive */
  return lo + (int32_t)(tt_rand() % (uint32_t)(hi - lo + 1));
}
static inline float tt_randf(float lo, float hi) {
  return lo + (hi - lo) * (float)(tt_rand() & 0xFFFF) / 65535.f;
}

/* Round-half-away, quantize and clamp (test-side reference of output quantization). */
static inline int32_t tt_quantize(double real, double scale, int32_t zp, int32_t lo,
                                  int32_t hi) {
  double v = round(real / scale) + zp;
  if (v < lo) v = lo;
  if (v > hi) v = hi;
  return (int32_t)v;
}

/* Compares quantized outputs (as int32 arrays): counts elements off by 1, fails any by
 * more than max_diff. Returns the number of elements that differ. */
static inline int64_t tt_cmp_q(const char *what, const int32_t *got, const int32_t *want,
                               int64_t n, int32_t max_diff) {
  int64_t diff = 0;
  for (int64_t i = 0; i < n; i++) {
    int32_t d = got[i] - want[i];
    if (d) diff++;
    if (d > max_diff || d < -max_diff) {
      CHECKF(0, "%s: element %lld got %d want %d", what, (long long)i, (int)got[i],
             (int)want[i]);
      return diff;
    }
  }
  return diff;
}

static inline void tt_cmp_f(const char *what, const float *got, const double *want, int64_t n,
                            double tol) {
  for (int64_t i = 0; i < n; i++) {
    double e = fabs(got[i] - want[i]);
    if (!(e <= tol * (1.0 + fabs(want[i])))) {
      CHECKF(0, "%s: element %lld got %.8g want %.8g", what, (long long)i, (double)got[i],
             want[i]);
      return;
    }
  }
  CHECK(1);
}

/* Reads output element i as int32 (uint8/int8/int16). */
static inline int32_t tt_get_q(const void *p, tfcc_dtype dt, int64_t i) {
  switch (dt) {
    case TFCC_UINT8: return ((const uint8_t *)p)[i];
    case TFCC_INT8: return ((const int8_t *)p)[i];
    case TFCC_INT16: return ((const int16_t *)p)[i];
    default: return 0;
  }
}

/* Expects a failure status whose message contains `needle`. */
static inline void tt_expect_fail(tt_case *c, bool eval, const char *needle) {
  tfcc_status st = tt_run(c, eval);
  CHECKF(st != TFCC_OK, "expected failure containing '%s'", needle);
  if (st != TFCC_OK) CHECKF(strstr(c->err.msg, needle) != NULL, "message '%s' lacks '%s'",
                            c->err.msg, needle);
  tt_done(c);
}

#endif
