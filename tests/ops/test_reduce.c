/* MEAN, SUM, REDUCE_PROD, REDUCE_MAX, REDUCE_MIN against a straightforward double-precision
 * reference (coordinates matched element by element), plus TFLite-specific quantized paths. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_test_builder.h"
#include "format/tflite_options.h"
#include "kernels/ref/reduce.h"
#include "ops/op.h"
#include "test_harness.h"

/* The node's options from a hand-built options table, read as the model loader reads them. */
static tfcc_status read_opts(tfcc_ir_node *node, uint8_t type, tfcc_fb_table t, tfcc_err *err) {
  return tfl_read_options(node->builtin, type, &t, &node->opts, err);
}

typedef enum { R_MEAN, R_SUM, R_PROD, R_MAX, R_MIN } rop;
static const int32_t k_builtin[] = {TFCC_OP_MEAN, TFCC_OP_SUM, TFCC_OP_REDUCE_PROD,
                                    TFCC_OP_REDUCE_MAX, TFCC_OP_REDUCE_MIN};
static const char *const k_name[] = {"MEAN", "SUM", "PROD", "MAX", "MIN"};

static uint32_t rng = 12345u;
static uint32_t rnd(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

typedef struct qt {
  tfcc_quant q;
  float scale;
  int32_t zp;
} qt;

static void set_q(qt *q, float scale, int32_t zp) {
  q->scale = scale;
  q->zp = zp;
  q->q.count = 1;
  q->q.axis = 0;
  q->q.scale = &q->scale;
  q->q.zero_point = &q->zp;
}

static const tfcc_quant k_noq = {0, 0, NULL, NULL};

static void mk(tfcc_tensor *t, tfcc_dtype dt, int32_t rank, const int32_t *dims, void *data,
               const tfcc_quant *q) {
  memset(t, 0, sizeof(*t));
  t->dtype = dt;
  t->rank = rank;
  for (int32_t i = 0; i < rank; i++) t->dims[i] = dims[i];
  t->data = data;
  t->bytes = (size_t)tfcc_tensor_elements(t) * tfcc_dtype_size(dt);
  t->quant = q ? q : &k_noq;
  t->known = data != NULL;
  t->is_const = data != NULL;
}

/* Runs prepare + eval. On success *out has its shape and malloc'ed data (caller frees). */
static tfcc_status run(rop op, tfcc_tensor *in, const int32_t *axes, int32_t n_axes, bool keep,
                       tfcc_tensor *out, tfcc_err *err) {
  uint8_t storage[256];
  tfb_field f = {.field = 0, .kind = TFB_U8, .i = keep};
  tfcc_ir_node node;
  memset(&node, 0, sizeof(node));
  node.builtin = k_builtin[op];
  tfcc_status st = read_opts(&node, 0, tfb_build(storage, sizeof(storage), &f, 1), err);
  if (st != TFCC_OK) return st;
  tfcc_tensor axis;
  int32_t ad[1] = {n_axes};
  mk(&axis, TFCC_INT32, 1, ad, (void *)axes, NULL);
  tfcc_tensor *ins[2] = {in, &axis};
  tfcc_tensor *outs[1] = {out};
  tfcc_op_ctx ctx;
  memset(&ctx, 0, sizeof(ctx));
  ctx.node = &node;
  ctx.in = ins;
  ctx.n_in = 2;
  ctx.out = outs;
  ctx.n_out = 1;
  ctx.err = err;
  ctx.ks = tfcc_kernel_set_for(ctx.isa);
  const tfcc_op_def *def = tfcc_op_lookup(k_builtin[op]);
  if (!def) return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED, "no op");
  st = def->prepare(&ctx);
  if (st != TFCC_OK) return st;
  out->bytes = (size_t)tfcc_tensor_elements(out) * tfcc_dtype_size(out->dtype);
  out->data = malloc(out->bytes + 1);
  memset(out->data, 0xAB, out->bytes + 1);
  ctx.scratch = ctx.scratch_bytes ? malloc(ctx.scratch_bytes) : NULL;
  st = def->eval(&ctx);
  free(ctx.scratch);
  return st;
}

/* Double reference over reduced[] (every output element visits all inputs). */
static void ref_reduce(rop op, int32_t rank, const int32_t *dims, const bool *reduced,
                       const double *x, double *y, int64_t *n_out) {
  int64_t in_n = 1, out_n = 1;
  for (int32_t d = 0; d < rank; d++) {
    in_n *= dims[d];
    if (!reduced[d]) out_n *= dims[d];
  }
  *n_out = out_n;
  for (int64_t j = 0; j < out_n; j++) {
    double acc = op == R_PROD ? 1.0 : op == R_MAX ? -INFINITY : op == R_MIN ? INFINITY : 0.0;
    int64_t cnt = 0;
    for (int64_t i = 0; i < in_n; i++) {
      /* Output index of input i: kept coordinates in row-major order. */
      int64_t rem = i, oj = 0, mul = 1;
      for (int32_t d = rank - 1; d >= 0; d--) {
        int64_t c = rem % dims[d];
        rem /= dims[d];
        if (!reduced[d]) {
          oj += c * mul;
          mul *= dims[d];
        }
      }
      if (oj != j) continue;
      cnt++;
      if (op == R_SUM || op == R_MEAN)
        acc += x[i];
      else if (op == R_PROD)
        acc *= x[i];
      else if (op == R_MAX)
        acc = x[i] > acc ? x[i] : acc;
      else
        acc = x[i] < acc ? x[i] : acc;
    }
    y[j] = op == R_MEAN ? acc / (double)cnt : acc;
  }
}

static void mask_of(int32_t rank, const int32_t *axes, int32_t n, bool *reduced) {
  for (int32_t d = 0; d < rank; d++) reduced[d] = false;
  for (int32_t i = 0; i < n; i++) reduced[axes[i] < 0 ? axes[i] + rank : axes[i]] = true;
}

static void check_shape(const tfcc_tensor *out, int32_t rank, const int32_t *dims,
                        const bool *reduced, bool keep) {
  int32_t r = 0;
  for (int32_t d = 0; d < rank; d++) {
    if (!reduced[d]) {
      CHECKF(out->dims[r] == dims[d], "dim %d: %d vs %d", (int)r, (int)out->dims[r], (int)dims[d]);
      r++;
    } else if (keep) {
      CHECK(out->dims[r] == 1);
      r++;
    }
  }
  CHECKF(out->rank == r, "rank %d, expected %d", (int)out->rank, (int)r);
}

typedef struct axcase {
  int32_t rank;
  int32_t dims[5];
  int32_t n;
  int32_t axes[4];
} axcase;

static const axcase k_cases[] = {
    {4, {2, 3, 4, 5}, 2, {1, 2}},
    {4, {2, 3, 4, 5}, 2, {2, 1}},
    {4, {2, 3, 4, 5}, 1, {-1}},
    {4, {2, 3, 4, 5}, 3, {0, -1, 0}},
    {3, {3, 1, 7}, 2, {0, 2}},
    {2, {5, 3}, 2, {-2, -1}},
    {1, {11}, 1, {0}},
    {5, {2, 1, 3, 2, 3}, 2, {1, 3}},
    {3, {2, 3, 4}, 0, {0}},
    {3, {4, 3, 2}, 4, {2, -1, 1, 0}},
};
#define N_CASES ((int)(sizeof(k_cases) / sizeof(k_cases[0])))

static void test_float(void) {
  for (int op = R_MEAN; op <= R_MIN; op++) {
    for (int c = 0; c < N_CASES; c++) {
      for (int keep = 0; keep < 2; keep++) {
        const axcase *k = &k_cases[c];
        int64_t n = 1;
        for (int32_t d = 0; d < k->rank; d++) n *= k->dims[d];
        float *x = malloc((size_t)n * 4);
        double *xd = malloc((size_t)n * 8), *ref = malloc((size_t)n * 8);
        for (int64_t i = 0; i < n; i++) {
          x[i] = op == R_PROD ? 0.8f + (float)(rnd() % 1000) / 2500.f
                              : (float)((int)(rnd() % 2001) - 1000) / 100.f;
          xd[i] = x[i];
        }
        tfcc_tensor in, out;
        mk(&in, TFCC_FLOAT32, k->rank, k->dims, x, NULL);
        memset(&out, 0, sizeof(out));
        out.dtype = TFCC_FLOAT32;
        out.quant = &k_noq;
        tfcc_err err = {0};
        tfcc_status st = run((rop)op, &in, k->axes, k->n, keep, &out, &err);
        CHECKF(st == TFCC_OK, "%s case %d: %s", k_name[op], c, err.msg);
        if (st == TFCC_OK) {
          bool red[8];
          mask_of(k->rank, k->axes, k->n, red);
          check_shape(&out, k->rank, k->dims, red, keep);
          int64_t on;
          ref_reduce((rop)op, k->rank, k->dims, red, xd, ref, &on);
          CHECK(tfcc_tensor_elements(&out) == on);
          const float *y = out.data;
          for (int64_t j = 0; j < on; j++)
            CHECKF(fabs(y[j] - ref[j]) <= 1e-5 * fabs(ref[j]) + 1e-5, "%s case %d [%lld]: %g vs %g",
                   k_name[op], c, (long long)j, (double)y[j], ref[j]);
          CHECK(((uint8_t *)out.data)[out.bytes] == 0xAB);
        }
        free(out.data);
        free(x);
        free(xd);
        free(ref);
      }
    }
  }
}

/* int32 and int64: exact (sums wrap-free at these magnitudes; mean truncates toward zero). */
static void test_int(tfcc_dtype dt) {
  for (int op = R_MEAN; op <= R_MIN; op++) {
    for (int c = 0; c < N_CASES; c++) {
      const axcase *k = &k_cases[c];
      int64_t n = 1;
      for (int32_t d = 0; d < k->rank; d++) n *= k->dims[d];
      void *x = malloc((size_t)n * 8);
      double *xd = malloc((size_t)n * 8), *ref = malloc((size_t)n * 8);
      for (int64_t i = 0; i < n; i++) {
        int64_t v = op == R_PROD ? (int64_t)(rnd() % 3) - 1 : (int64_t)(rnd() % 20001) - 10000;
        if (dt == TFCC_INT32)
          ((int32_t *)x)[i] = (int32_t)v;
        else
          ((int64_t *)x)[i] = op == R_PROD ? v : v * 100000;
        xd[i] = (dt == TFCC_INT32 || op == R_PROD) ? (double)v : (double)(v * 100000);
      }
      tfcc_tensor in, out;
      mk(&in, dt, k->rank, k->dims, x, NULL);
      memset(&out, 0, sizeof(out));
      out.dtype = dt;
      out.quant = &k_noq;
      tfcc_err err = {0};
      tfcc_status st = run((rop)op, &in, k->axes, k->n, false, &out, &err);
      CHECKF(st == TFCC_OK, "%s int case %d: %s", k_name[op], c, err.msg);
      if (st == TFCC_OK) {
        bool red[8];
        mask_of(k->rank, k->axes, k->n, red);
        int64_t on;
        ref_reduce((rop)op, k->rank, k->dims, red, xd, ref, &on);
        for (int64_t j = 0; j < on; j++) {
          double e = op == R_MEAN ? trunc(ref[j]) : ref[j];
          int64_t got = dt == TFCC_INT32 ? ((int32_t *)out.data)[j] : ((int64_t *)out.data)[j];
          if (op == R_MEAN) {
            /* Truncating integer division of the exact sum. */
            double s = ref[j] * (double)(n / on);
            e = (double)((int64_t)llround(s) / (n / on));
          }
          CHECKF((double)got == e, "%s %s case %d [%lld]: %lld vs %g", k_name[op],
                 tfcc_dtype_name(dt), c, (long long)j, (long long)got, e);
        }
      }
      free(out.data);
      free(x);
      free(xd);
      free(ref);
    }
  }
}

static int32_t qmin_of(tfcc_dtype dt) {
  return dt == TFCC_UINT8 ? 0 : dt == TFCC_INT8 ? -128 : -32768;
}
static int32_t qmax_of(tfcc_dtype dt) {
  return dt == TFCC_UINT8 ? 255 : dt == TFCC_INT8 ? 127 : 32767;
}
static int32_t qget(tfcc_dtype dt, const void *p, int64_t i) {
  return dt == TFCC_UINT8  ? ((const uint8_t *)p)[i]
         : dt == TFCC_INT8 ? ((const int8_t *)p)[i]
                           : ((const int16_t *)p)[i];
}
static void qset(tfcc_dtype dt, void *p, int64_t i, int32_t v) {
  if (dt == TFCC_UINT8)
    ((uint8_t *)p)[i] = (uint8_t)v;
  else if (dt == TFCC_INT8)
    ((int8_t *)p)[i] = (int8_t)v;
  else
    ((int16_t *)p)[i] = (int16_t)v;
}

/* int16 MEAN as TFLite computes it (reference_ops::QuantizedMeanOrSum with its int32 temp_sum,
 * written here from the TFLite source, apart from src/kernels): QuantizeMultiplier(s_in / s_out),
 * 1/n folded into the multiplier (shift by floor(log2 n), capped at 32 and 31 + shift), then the
 * int32 MultiplyByQuantizedMultiplier: saturating rounding doubling high multiply, rounding
 * divide by a power of two. Two roundings: with small n the result is often 1 LSB from the
 * real-space reference (LiteRT agrees: conformance mean_i16_*_wide). */
static int32_t tfl_mean_i16(int64_t sum, int64_t n, double ratio) {
  int e;
  double f = frexp(ratio, &e);
  int64_t m = llround(f * 2147483648.0);
  if (m == 2147483648LL) {
    m /= 2;
    e++;
  }
  int ds = 0;
  while ((n >> (ds + 1)) != 0) ds++;
  if (ds > 32) ds = 32;
  if (ds > 31 + e) ds = 31 + e;
  m = (m * ((int64_t)1 << ds)) / n;
  e -= ds;
  int32_t x = (int32_t)sum;
  if (e > 0) x = (int32_t)((uint32_t)x << e);
  const int64_t ab = (int64_t)x * m;
  const int64_t hm = (ab + (ab >= 0 ? (1 << 30) : 1 - (1 << 30))) / ((int64_t)1 << 31);
  const int r = e < 0 ? -e : 0;
  const int64_t mask = ((int64_t)1 << r) - 1, rem = hm & mask, th = (mask >> 1) + (hm < 0);
  return (int32_t)((hm >> r) + (rem > th ? 1 : 0));
}

/* Quantized MEAN / SUM with rescaling: real-space double reference, requantized; TFLite's
 * float/fixed-point rounding may differ by one unit (counted, must be rare). int16 MEAN: also
 * exactly TFLite's integer arithmetic (tfl_mean_i16). */
static void test_quant_rescale(tfcc_dtype dt, rop op, bool keep, int c_index, float s_in,
                               int32_t z_in, float s_out, int32_t z_out, bool edges) {
  const axcase *k = &k_cases[c_index];
  int64_t n = 1;
  for (int32_t d = 0; d < k->rank; d++) n *= k->dims[d];
  void *x = malloc((size_t)n * 2);
  double *xd = malloc((size_t)n * 8), *ref = malloc((size_t)n * 8);
  int32_t lo = qmin_of(dt), hi = qmax_of(dt);
  for (int64_t i = 0; i < n; i++) {
    int32_t v = edges ? ((rnd() & 1) ? hi : lo) : lo + (int32_t)(rnd() % (uint32_t)(hi - lo + 1));
    if (dt == TFCC_INT16) v = (int32_t)(rnd() % 2001) - 1000;
    qset(dt, x, i, v);
    xd[i] = s_in * (double)(v - z_in);
  }
  qt qi, qo;
  set_q(&qi, s_in, z_in);
  set_q(&qo, s_out, z_out);
  tfcc_tensor in, out;
  mk(&in, dt, k->rank, k->dims, x, &qi.q);
  memset(&out, 0, sizeof(out));
  out.dtype = dt;
  out.quant = &qo.q;
  tfcc_err err = {0};
  tfcc_status st = run(op, &in, k->axes, k->n, keep, &out, &err);
  CHECKF(st == TFCC_OK, "%s %s: %s", k_name[op], tfcc_dtype_name(dt), err.msg);
  if (st == TFCC_OK) {
    bool red[8];
    mask_of(k->rank, k->axes, k->n, red);
    int64_t on;
    ref_reduce(op, k->rank, k->dims, red, xd, ref, &on);
    const bool i16_mean = dt == TFCC_INT16 && op == R_MEAN;
    double *isum = NULL;
    if (i16_mean) { /* integer sums of the raw values (exact in double) */
      double *xi = calloc((size_t)n, 8);
      isum = malloc((size_t)n * 8);
      for (int64_t i = 0; i < n; i++) xi[i] = (double)qget(dt, x, i);
      int64_t on2;
      ref_reduce(R_SUM, k->rank, k->dims, red, xi, isum, &on2);
      free(xi);
    }
    int64_t off = 0;
    for (int64_t j = 0; j < on; j++) {
      /* TFLite's builtin QuantizedMeanOrSum (MEAN) rounds mean * scale + bias half away from
       * zero, no extra half step (measured with the classic interpreter: conformance
       * xnn_delegate_fails_mean_i8_ties*); so do the 4-D H,W mean and SUM. */
      const bool hw =
          op == R_MEAN && keep && k->rank == 4 && k->n == 2 &&
          ((k->axes[0] == 1 && k->axes[1] == 2) || (k->axes[0] == 2 && k->axes[1] == 1));
      double q = round(ref[j] / s_out) + z_out;
      if (hw && (dt == TFCC_UINT8 || dt == TFCC_INT8)) {
        /* optimized_ops::Mean / optimized_integer_ops::Mean: the raw sum rescaled, minus the
         * input zero point's share rounded on its own */
        double mean_q = ref[j] / s_in + z_in;
        q = round(mean_q * s_in / s_out) + z_out - round(z_in * (double)s_in / s_out);
      }
      q = q < lo ? lo : (q > hi ? hi : q);
      int32_t got = qget(dt, out.data, j);
      double diff = fabs((double)got - q);
      CHECKF(diff <= 1, "%s %s case %d [%lld]: %d vs %g", k_name[op], tfcc_dtype_name(dt), c_index,
             (long long)j, (int)got, q);
      if (i16_mean) {
        int32_t e = tfl_mean_i16((int64_t)llround(isum[j]), n / on, (double)s_in / (double)s_out);
        e = e < lo ? lo : (e > hi ? hi : e);
        CHECKF(got == e, "MEAN int16 case %d [%lld]: %d, TFLite's integer arithmetic %d", c_index,
               (long long)j, (int)got, (int)e);
      } else if (diff != 0) {
        off++;
      }
    }
    CHECKF(off * 4 <= on + 1, "%s %s case %d: %lld of %lld off by one", k_name[op],
           tfcc_dtype_name(dt), c_index, (long long)off, (long long)on);
    free(isum);
  }
  free(out.data);
  free(x);
  free(xd);
  free(ref);
}

/* Hand-computed TFLite results (bit-exact paths). */
static void test_quant_exact(void) {
  /* int8 4-D mean over H,W (reference_integer_ops::Mean): [1,2,2,1] values {1,2,3,5}, zp 0,
   * equal scales: acc = 11, multiplier 1.0 -> 11, (11 + 2) / 4 = 3. */
  {
    int8_t x[4] = {1, 2, 3, 5};
    int32_t dims[4] = {1, 2, 2, 1}, axes[2] = {1, 2};
    qt qi, qo;
    set_q(&qi, 0.5f, 0);
    set_q(&qo, 0.5f, 0);
    tfcc_tensor in, out;
    mk(&in, TFCC_INT8, 4, dims, x, &qi.q);
    memset(&out, 0, sizeof(out));
    out.dtype = TFCC_INT8;
    out.quant = &qo.q;
    tfcc_err err = {0};
    CHECK(run(R_MEAN, &in, axes, 2, true, &out, &err) == TFCC_OK);
    CHECK(out.rank == 4 && out.dims[1] == 1 && out.dims[2] == 1);
    CHECKF(((int8_t *)out.data)[0] == 3, "got %d", ((int8_t *)out.data)[0]);
    free(out.data);
    /* keep_dims false: generic same-scale path truncates: 11 / 4 = 2. */
    memset(&out, 0, sizeof(out));
    out.dtype = TFCC_INT8;
    out.quant = &qo.q;
    CHECK(run(R_MEAN, &in, axes, 2, false, &out, &err) == TFCC_OK);
    CHECK(out.rank == 2);
    CHECKF(((int8_t *)out.data)[0] == 2, "got %d", ((int8_t *)out.data)[0]);
    free(out.data);
  }
  /* uint8 SUM with equal quantization saturates as LiteRT (checked with it): (250 - 3) +
   * (10 - 3) + 3 = 257 -> 255; {50, 10, 7} -> 61. */
  {
    uint8_t x[3] = {250, 10, 7};
    int32_t dims[1] = {2}, axes[1] = {0};
    qt q;
    set_q(&q, 0.1f, 3);
    tfcc_tensor in, out;
    mk(&in, TFCC_UINT8, 1, dims, x, &q.q);
    memset(&out, 0, sizeof(out));
    out.dtype = TFCC_UINT8;
    out.quant = &q.q;
    tfcc_err err = {0};
    CHECK(run(R_SUM, &in, axes, 1, false, &out, &err) == TFCC_OK);
    CHECK(out.rank == 0);
    CHECKF(((uint8_t *)out.data)[0] == 255, "got %d", ((uint8_t *)out.data)[0]);
    free(out.data);
    x[0] = 50;
    dims[0] = 3;
    mk(&in, TFCC_UINT8, 1, dims, x, &q.q);
    memset(&out, 0, sizeof(out));
    out.dtype = TFCC_UINT8;
    out.quant = &q.q;
    CHECK(run(R_SUM, &in, axes, 1, false, &out, &err) == TFCC_OK);
    CHECKF(((uint8_t *)out.data)[0] == 61, "got %d", ((uint8_t *)out.data)[0]);
    free(out.data);
  }
  /* Quantized REDUCE_PROD (QuantizedReduceProd, every factor rescaled by
   * in_scale / out_scale^(1/n)); expected values are LiteRT's own outputs. */
  {
    int8_t x[4] = {2, 3, -4, 5};
    int32_t dims[2] = {2, 2}, axes[1] = {1};
    qt q;
    set_q(&q, 0.5f, 0);
    tfcc_tensor in, out;
    mk(&in, TFCC_INT8, 2, dims, x, &q.q);
    memset(&out, 0, sizeof(out));
    out.dtype = TFCC_INT8;
    out.quant = &q.q;
    tfcc_err err = {0};
    CHECKF(run(R_PROD, &in, axes, 1, false, &out, &err) == TFCC_OK, "%s", err.msg);
    CHECKF(((int8_t *)out.data)[0] == 3 && ((int8_t *)out.data)[1] == -10, "got %d %d",
           ((int8_t *)out.data)[0], ((int8_t *)out.data)[1]);
    free(out.data);
    int16_t xs[6] = {1000, 1500, -800, 30000, -2000, 123};
    int32_t dims3[2] = {2, 3};
    qt qi, qo;
    set_q(&qi, 0.001f, 0);
    set_q(&qo, 0.002f, 0);
    mk(&in, TFCC_INT16, 2, dims3, xs, &qi.q);
    memset(&out, 0, sizeof(out));
    out.dtype = TFCC_INT16;
    out.quant = &qo.q;
    CHECKF(run(R_PROD, &in, axes, 1, false, &out, &err) == TFCC_OK, "%s", err.msg);
    CHECKF(((int16_t *)out.data)[0] == -600 && ((int16_t *)out.data)[1] == -3690, "got %d %d",
           ((int16_t *)out.data)[0], ((int16_t *)out.data)[1]);
    free(out.data);
  }
  /* Quantized MAX/MIN with equal quantization: exact. */
  {
    int8_t x[6] = {-128, 5, 127, -3, 0, -7};
    int32_t dims[2] = {2, 3}, axes[1] = {1};
    qt q;
    set_q(&q, 0.25f, -4);
    tfcc_tensor in, out;
    mk(&in, TFCC_INT8, 2, dims, x, &q.q);
    memset(&out, 0, sizeof(out));
    out.dtype = TFCC_INT8;
    out.quant = &q.q;
    tfcc_err err = {0};
    CHECK(run(R_MAX, &in, axes, 1, false, &out, &err) == TFCC_OK);
    CHECK(((int8_t *)out.data)[0] == 127 && ((int8_t *)out.data)[1] == 0);
    free(out.data);
    memset(&out, 0, sizeof(out));
    out.dtype = TFCC_INT8;
    out.quant = &q.q;
    CHECK(run(R_MIN, &in, axes, 1, true, &out, &err) == TFCC_OK);
    CHECK(out.rank == 2 && out.dims[1] == 1);
    CHECK(((int8_t *)out.data)[0] == -128 && ((int8_t *)out.data)[1] == -7);
    free(out.data);
  }
}

static void expect_fail(rop op, tfcc_tensor *in, const int32_t *axes, int32_t n, tfcc_dtype odt,
                        const tfcc_quant *oq, tfcc_status want, const char *what) {
  tfcc_tensor out;
  memset(&out, 0, sizeof(out));
  out.dtype = odt;
  out.quant = oq ? oq : &k_noq;
  tfcc_err err = {0};
  tfcc_status st = run(op, in, axes, n, false, &out, &err);
  CHECKF(st == want, "%s: status %d, expected %d (%s)", what, (int)st, (int)want, err.msg);
  CHECKF(err.msg[0] != 0, "%s: no message", what);
  free(out.data);
}

static void test_errors(void) {
  float x[6] = {0};
  int32_t dims[2] = {2, 3};
  tfcc_tensor in;
  mk(&in, TFCC_FLOAT32, 2, dims, x, NULL);
  int32_t bad[1] = {2}, neg[1] = {-3}, ok[1] = {1};
  expect_fail(R_SUM, &in, bad, 1, TFCC_FLOAT32, NULL, TFCC_ERR_SHAPE, "axis 2");
  expect_fail(R_MEAN, &in, neg, 1, TFCC_FLOAT32, NULL, TFCC_ERR_SHAPE, "axis -3");
  expect_fail(R_MAX, &in, ok, 1, TFCC_INT32, NULL, TFCC_ERR_DTYPE, "output dtype");
  int16_t xs[6] = {0};
  qt qz, qo;
  set_q(&qz, 0.5f, 3);
  set_q(&qo, 0.5f, 0);
  mk(&in, TFCC_INT16, 2, dims, xs, &qz.q);
  expect_fail(R_MEAN, &in, ok, 1, TFCC_INT16, &qo.q, TFCC_ERR_UNSUPPORTED, "int16 zp");
  int8_t xb[6] = {0};
  set_q(&qz, 0.5f, 3);
  set_q(&qo, 0.25f, 3);
  mk(&in, TFCC_INT8, 2, dims, xb, &qz.q);
  expect_fail(R_MAX, &in, ok, 1, TFCC_INT8, &qo.q, TFCC_ERR_UNSUPPORTED, "max rescale");
  uint8_t xu[6] = {0};
  mk(&in, TFCC_UINT8, 2, dims, xu, &qz.q);
  expect_fail(R_PROD, &in, ok, 1, TFCC_UINT8, &qo.q, TFCC_ERR_UNSUPPORTED, "uint8 quantized prod");
  /* Axis not known at prepare time. */
  {
    tfcc_tensor axis, out;
    int32_t ad[1] = {1};
    mk(&in, TFCC_FLOAT32, 2, dims, x, NULL);
    mk(&axis, TFCC_INT32, 1, ad, ok, NULL);
    axis.known = false;
    memset(&out, 0, sizeof(out));
    out.dtype = TFCC_FLOAT32;
    out.quant = &k_noq;
    tfcc_tensor *ins[2] = {&in, &axis}, *outs[1] = {&out};
    tfcc_err err = {0};
    tfcc_op_ctx ctx = {.in = ins,
                       .n_in = 2,
                       .out = outs,
                       .n_out = 1,
                       .err = &err,
                       .ks = tfcc_kernel_set_for(TFCC_ISA_GENERIC)};
    CHECK(tfcc_op_lookup(TFCC_OP_SUM)->prepare(&ctx) == TFCC_ERR_UNSUPPORTED);
    ctx.n_in = 1;
    CHECK(tfcc_op_lookup(TFCC_OP_SUM)->prepare(&ctx) == TFCC_ERR_INVALID_MODEL);
    ins[1] = NULL;
    ctx.n_in = 2;
    CHECK(tfcc_op_lookup(TFCC_OP_SUM)->prepare(&ctx) == TFCC_ERR_INVALID_MODEL);
  }
}

static void test_edges(void) {
  /* Empty input: MEAN gives NaN, SUM gives 0, MAX gives lowest float. */
  float x[1] = {0};
  int32_t dims[2] = {0, 3}, axes[1] = {0};
  tfcc_tensor in, out;
  mk(&in, TFCC_FLOAT32, 2, dims, x, NULL);
  tfcc_err err = {0};
  memset(&out, 0, sizeof(out));
  out.dtype = TFCC_FLOAT32;
  out.quant = &k_noq;
  CHECK(run(R_MEAN, &in, axes, 1, false, &out, &err) == TFCC_OK);
  CHECK(out.rank == 1 && out.dims[0] == 3 && isnan(((float *)out.data)[2]));
  free(out.data);
  memset(&out, 0, sizeof(out));
  out.dtype = TFCC_FLOAT32;
  out.quant = &k_noq;
  CHECK(run(R_SUM, &in, axes, 1, false, &out, &err) == TFCC_OK);
  CHECK(((float *)out.data)[1] == 0.f);
  free(out.data);
  /* Scalar input: axes ignored, value passes through. */
  float sx[1] = {4.5f};
  mk(&in, TFCC_FLOAT32, 0, dims, sx, NULL);
  memset(&out, 0, sizeof(out));
  out.dtype = TFCC_FLOAT32;
  out.quant = &k_noq;
  CHECK(run(R_MEAN, &in, axes, 1, true, &out, &err) == TFCC_OK);
  CHECK(out.rank == 0 && ((float *)out.data)[0] == 4.5f);
  free(out.data);
  /* bool MAX = any. */
  uint8_t bx[6] = {0, 0, 1, 0, 0, 0};
  int32_t bd[2] = {2, 3}, ba[1] = {1};
  mk(&in, TFCC_BOOL, 2, bd, bx, NULL);
  memset(&out, 0, sizeof(out));
  out.dtype = TFCC_BOOL;
  out.quant = &k_noq;
  CHECK(run(R_MAX, &in, ba, 1, false, &out, &err) == TFCC_OK);
  CHECK(((uint8_t *)out.data)[0] == 1 && ((uint8_t *)out.data)[1] == 0);
  free(out.data);
  /* The 4-D mean's last steps near the int32 ends (fuzz_model_run, fuzz52: a rescale of
     -2147483647 minus the rounding's 10 overflowed int32; a zero point's share of a scale ratio
     of 1e60 was converted to int32): clamped, as every value int32 holds. */
  const int32_t hw[4] = {1, 4, 5, 1}, one[4] = {1, 1, 1, 1};
  const int32_t low[1] = {INT32_MIN + 1}, zero[1] = {0};
  int16_t o16 = 0;
  CHECK(tfcc_mean_hw_int_finish(hw, TFCC_INT16, low, 0, INT32_MAX, 0, &o16, -10) &&
        o16 == INT16_MIN);
  int8_t o8 = 0;
  CHECK(tfcc_mean_hw_q8_finish(one, TFCC_INT8, low, 1000, 1.f, &o8, 0, 1.0000001f) &&
        o8 == INT8_MIN);
  o8 = 0;
  CHECK(tfcc_mean_hw_q8_finish(one, TFCC_INT8, zero, 1, 1e30f, &o8, 0, 1e-30f) && o8 == INT8_MIN);
  /* int8 REDUCE_PROD of -128, -96, -128 at multiplier 0x70000000 x 2^7 (a file's scale ratio):
     the last rescale is INT32_MIN, and + the zero point -1 wraps to INT32_MAX as TFLite's int32
     expression (fuzz53: it overflowed, undefined): 127 after the clamp */
  const int8_t px[3] = {-128, -96, -128};
  tfcc_reduce_shape ps;
  memset(&ps, 0, sizeof ps);
  ps.rank = 1;
  ps.dims[0] = 3;
  ps.reduced[0] = true;
  tfcc_reduce_shape_finish(&ps);
  int32_t pacc[1];
  o8 = 0;
  CHECK(tfcc_reduce_prod_q(&ps, TFCC_INT8, px, 0, &o8, -1, 0x70000000, 7, pacc) && o8 == 127);
  /* int8 MEAN (QuantizedMeanOrSum) with scales 3e38 / 1e-38 (an infinite ratio) over a zero sum:
     NaN, whose int conversion was undefined (fuzz53: UBSan at reduce.c:249); the zero point */
  const int32_t zsum[1] = {0};
  o8 = 0;
  tfcc_reduce_quantized_mean_or_sum_finish(&ps, TFCC_INT8, zsum, 0, 3e38f, &o8, 7, 1e-38f, false);
  CHECK(o8 == 7);
}

int main(void) {
  test_float();
  test_int(TFCC_INT32);
  test_int(TFCC_INT64);
  /* MEAN 4-D over H,W with keep_dims (TFLite's special path), different scales. */
  test_quant_rescale(TFCC_UINT8, R_MEAN, true, 0, 0.0235f, 128, 0.0117f, 120, false);
  test_quant_rescale(TFCC_UINT8, R_MEAN, true, 1, 0.02f, 0, 0.047f, 3, true);
  test_quant_rescale(TFCC_INT8, R_MEAN, true, 0, 0.0235f, -3, 0.0117f, 5, false);
  test_quant_rescale(TFCC_INT8, R_MEAN, true, 1, 0.1f, 10, 0.29f, -20, true);
  test_quant_rescale(TFCC_INT16, R_MEAN, true, 0, 0.001f, 0, 0.0007f, 0, false);
  /* Generic QuantizedMeanOrSum (not the 4-D path). */
  for (int c = 0; c < N_CASES; c++) {
    if (c == 8) continue; /* no axes: output = input requantized */
    test_quant_rescale(TFCC_UINT8, R_MEAN, false, c, 0.0235f, 128, 0.0117f, 120, false);
    test_quant_rescale(TFCC_INT8, R_MEAN, c % 2, c, 0.05f, -7, 0.04f, 2, c % 3 == 0);
    test_quant_rescale(TFCC_INT16, R_MEAN, false, c, 0.002f, 0, 0.0015f, 0, false);
    test_quant_rescale(TFCC_UINT8, R_SUM, false, c, 0.002f, 128, 0.05f, 128, false);
    test_quant_rescale(TFCC_INT8, R_SUM, true, c, 0.001f, -1, 0.04f, 0, false);
  }
  test_quant_exact();
  test_errors();
  test_edges();
  return tfcc_test_finish("ops.reduce");
}
