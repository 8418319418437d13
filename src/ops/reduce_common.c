/* Reductions and ARG_MAX/ARG_MIN: validation, output shapes and dispatch to
 * kernels/ref/reduce.c, following TFLite's reduce.cc / arg_min_max.cc. */
#include "ops/reduce_common.h"

#include <stdlib.h>

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "kernels/arg/arg.h"
#include "kernels/reduce/reduce.h"
#include "kernels/ref/quant_util.h"
#include "kernels/ref/reduce.h"
#include "kernels/tflite-f32/tflite_f32.h"
#include "ops/f32_fast.h"
#include "ops/hybrid.h"

static const char *const k_names[] = {"MEAN",       "SUM",        "REDUCE_PROD", "REDUCE_MAX",
                                      "REDUCE_MIN", "REDUCE_ANY", "REDUCE_ALL"};

typedef struct reduce_setup {
  tfcc_reduce_shape shape;
  bool keep_dims;
  int32_t out_rank;
  int32_t out_dims[TFCC_MAX_RANK];
  int32_t n_axis;  /* raw axis count (before removing duplicates) */
  bool is_mean_hw; /* TFLite's special 4-D mean over axes {1,2} (raw axis values) */
} reduce_setup;

static void quant_of(const tfcc_tensor *t, float *scale, int32_t *zp) {
  if (t->quant && t->quant->count > 0) {
    *scale = t->quant->scale[0];
    *zp = t->quant->zero_point[0];
  } else {
    *scale = 0.f;
    *zp = 0;
  }
}

static bool is_q(tfcc_dtype dt) { return dt == TFCC_UINT8 || dt == TFCC_INT8 || dt == TFCC_INT16; }

/* Checks the inputs and resolves the axes into *su (shared by prepare and eval). */
static tfcc_status setup(tfcc_op_ctx *ctx, tfcc_reduce_op op, reduce_setup *su) {
  const char *name = k_names[op];
  TFCC_OP_CHECK(ctx, ctx->n_in == 2, TFCC_ERR_INVALID_MODEL, "%s: %d inputs, expected 2", name,
                (int)ctx->n_in);
  TFCC_OP_CHECK(ctx, ctx->n_out == 1, TFCC_ERR_INVALID_MODEL, "%s: %d outputs, expected 1", name,
                (int)ctx->n_out);
  const tfcc_tensor *in = ctx->in[0], *axis = ctx->in[1];
  TFCC_OP_CHECK(ctx, in && axis && ctx->out[0], TFCC_ERR_INVALID_MODEL,
                "%s: input, axis and output are required", name);
  TFCC_OP_CHECK(ctx, axis->dtype == TFCC_INT32, TFCC_ERR_DTYPE, "%s: axis dtype %s, expected int32",
                name, tfcc_dtype_name(axis->dtype));
  if (!axis->known || !axis->data)
    return TFCC_OP_NEEDS_DATA(ctx, axis, "%s: axis (tensor %d) is known only while running", name,
                              (int)axis->index);
  int64_t n_axis = tfcc_tensor_elements(axis);
  TFCC_OP_CHECK(ctx, n_axis >= 0 && n_axis <= 1024, TFCC_ERR_SHAPE, "%s: %lld axes", name,
                (long long)n_axis);
  TFCC_OP_CHECK(ctx, in->rank >= 0 && in->rank <= TFCC_REDUCE_MAX_RANK, TFCC_ERR_SHAPE,
                "%s: input rank %d unsupported", name, (int)in->rank);

  memset(su, 0, sizeof(*su));
  su->keep_dims = ctx->node ? ctx->node->opts.reducer.keep_dims : false;
  su->n_axis = (int32_t)n_axis;
  tfcc_reduce_shape *s = &su->shape;
  s->rank = in->rank;
  for (int32_t d = 0; d < in->rank; d++) {
    TFCC_OP_CHECK(ctx, in->dims[d] >= 0, TFCC_ERR_SHAPE, "%s: input dim %d is negative", name,
                  (int)d);
    s->dims[d] = in->dims[d];
  }
  const int32_t *ax = axis->data;
  /* A scalar input ignores the axes (TFLite's ResolveAxis short-circuits rank 0). */
  if (in->rank > 0) {
    for (int64_t i = 0; i < n_axis; i++) {
      int32_t a = ax[i];
      TFCC_OP_CHECK(ctx, a >= -in->rank && a < in->rank, TFCC_ERR_SHAPE,
                    "%s: axis %d out of range for rank %d", name, (int)a, (int)in->rank);
      s->reduced[a < 0 ? a + in->rank : a] = true;
    }
  }
  tfcc_reduce_shape_finish(s);
  su->out_rank = 0;
  for (int32_t d = 0; d < in->rank; d++) {
    if (!s->reduced[d])
      su->out_dims[su->out_rank++] = s->dims[d];
    else if (su->keep_dims)
      su->out_dims[su->out_rank++] = 1;
  }
  su->is_mean_hw = su->keep_dims && in->rank == 4 && n_axis == 2 &&
                   ((ax[0] == 1 && ax[1] == 2) || (ax[0] == 2 && ax[1] == 1));
  return TFCC_OK;
}

/* ops: a float32 4-D input reduced over the constant axes {1, 2} (int32, either order, negative
 * counted from the end), the spatial mean XNNPACK's delegate takes. */
static bool xnn_spatial_mean(const tfcc_init_ctx *ctx) {
  const tfcc_ir_node *n = ctx->node;
  const tfcc_ir_tensor *in = &ctx->sg->tensors[n->inputs[0]], *ax = &ctx->sg->tensors[n->inputs[1]];
  if (n->inputs[0] < 0 || n->inputs[0] >= ctx->sg->n_tensors || in->dtype != TFCC_FLOAT32 ||
      in->rank != 4 || ax->dtype != TFCC_INT32 || ax->data_bytes != 2 * sizeof(int32_t))
    return false;
  int32_t a[2];
  memcpy(a, ax->data, sizeof a);
  for (int k = 0; k < 2; k++) a[k] = a[k] < 0 ? a[k] + 4 : a[k];
  return (a[0] == 1 && a[1] == 2) || (a[0] == 2 && a[1] == 1);
}

tfcc_status tfcc_reduce_op_init(tfcc_init_ctx *ctx) {
  tfcc_reduce_params *p = calloc(1, sizeof *p);
  if (!p) return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory");
  p->quant_compat = ctx->quant_compat;
  const tfcc_ir_node *n = ctx->node;
  if (n && ctx->sg && n->n_inputs >= 2 && n->inputs[1] >= 0 && n->inputs[1] < ctx->sg->n_tensors) {
    /* CheckAxesTensorShape (rank 1 at most), CheckTensorStaticAllocation, and
     * num_reduction_axes > 0 */
    const tfcc_ir_tensor *ax = &ctx->sg->tensors[n->inputs[1]];
    p->xnn_axes = ax->data != NULL && ax->rank <= 1 && ax->data_bytes >= sizeof(int32_t);
  }
  p->xnn_f32_mean = n && n->builtin == TFCC_OP_MEAN && p->xnn_axes && xnn_spatial_mean(ctx) &&
                    tfcc_hybrid_xnn_float(ctx);
  /* the classic interpreter's older delegate takes it as a global average pooling */
  p->xnn_f32_gavgpool_old = n && n->builtin == TFCC_OP_MEAN && p->xnn_axes &&
                            xnn_spatial_mean(ctx) && tfcc_hybrid_ref_delegated_float(ctx);
  /* not tfcc_hybrid_xnn_float: its rank-4 rule is the spatial MEAN's; the delegate takes a
   * MEAN over trailing axes at any rank */
  p->xnn_f32_rmean = n && (n->builtin == TFCC_OP_MEAN || n->builtin == TFCC_OP_SUM) &&
                     p->xnn_axes && n->inputs[0] >= 0 && n->inputs[0] < ctx->sg->n_tensors &&
                     ctx->sg->tensors[n->inputs[0]].dtype == TFCC_FLOAT32 &&
                     ctx->sg->tensors[n->inputs[0]].rank >= 1 &&
                     ctx->quant_compat == TFCC_QUANT_COMPAT_TFLITE &&
                     tfcc_hybrid_in_model(ctx->graph, ctx->sg);
  const tfcc_ir_tensor *in = tfcc_init_ir_input(ctx, 0), *out = tfcc_init_ir_output(ctx, 0);
  if (in && out && (in->dtype == TFCC_UINT8 || in->dtype == TFCC_INT8) &&
      ctx->quant_compat == TFCC_QUANT_COMPAT_TFLITE) {
    /* the delegate's CheckTensorQInt8OrQUInt8Type: affine, one scale */
    p->xnn_q8 = p->xnn_axes && in->quant.count == 1 && out->quant.count == 1;
    p->q8_mean_mult = n->builtin == TFCC_OP_MEAN && !p->xnn_q8 && in->quant.count > 0 &&
                      in->quant.scale[0] > 0.f && out->quant.count > 0 && out->quant.scale[0] > 0.f;
  }
  ctx->params = p;
  return TFCC_OK;
}

static bool same_quant(const tfcc_tensor *a, const tfcc_tensor *b) {
  float sa, sb;
  int32_t za, zb;
  quant_of(a, &sa, &za);
  quant_of(b, &sb, &zb);
  return sa == sb && za == zb;
}

/* The int32 sum per output that quantized MEAN and rescaled SUM keep in scratch: the elements
 * per output must fit it. */
static tfcc_status int32_sums(tfcc_op_ctx *ctx, const char *name, const reduce_setup *su,
                              size_t *scratch) {
  TFCC_OP_CHECK(ctx, su->shape.reduce_count <= INT32_MAX, TFCC_ERR_SHAPE,
                "%s: %lld elements per output overflow int32", name,
                (long long)su->shape.reduce_count);
  *scratch = (size_t)su->shape.out_count * 4;
  return TFCC_OK;
}

/* Quantized REDUCE_PROD (int8, int16): GetQuantProdScaling = in_scale / out_scale^(1/n) with n
 * the elements per output, as reduce.cc PrepareProd. */
static tfcc_status prod_q_multiplier(tfcc_op_ctx *ctx, const reduce_setup *su, int32_t *mult,
                                     int *shift) {
  const tfcc_tensor *in = ctx->in[0], *out = ctx->out[0];
  TFCC_OP_CHECK(ctx, in->dtype == TFCC_INT8 || in->dtype == TFCC_INT16, TFCC_ERR_UNSUPPORTED,
                "REDUCE_PROD: quantized %s input not supported (TFLite: int8, int16)",
                tfcc_dtype_name(in->dtype));
  float in_s, out_s;
  int32_t in_zp, out_zp;
  quant_of(in, &in_s, &in_zp);
  quant_of(out, &out_s, &out_zp);
  TFCC_OP_CHECK(ctx, in_s > 0.f && out_s > 0.f && isfinite(in_s) && isfinite(out_s),
                TFCC_ERR_INVALID_MODEL, "REDUCE_PROD: quantized scales %g/%g must be positive",
                (double)in_s, (double)out_s);
  *mult = 0;
  *shift = 0;
  if (su->shape.in_count == 0 || su->shape.out_count == 0) return TFCC_OK;
  const double n = (double)(su->shape.in_count / su->shape.out_count);
  const double scaling = (double)in_s / pow((double)out_s, 1.0 / n);
  tfcc_quantize_multiplier(scaling, mult, shift);
  /* MultiplyByQuantizedMultiplier(int64) works for shifts in [-31, 7] (its total shift 15 - shift). */
  TFCC_OP_CHECK(ctx, *shift >= -31 && *shift <= 7, TFCC_ERR_UNSUPPORTED,
                "REDUCE_PROD: per-factor scale %g is out of the supported range", scaling);
  return TFCC_OK;
}

tfcc_status tfcc_reduce_op_prepare(tfcc_op_ctx *ctx, tfcc_reduce_op op) {
  reduce_setup su;
  tfcc_status st = setup(ctx, op, &su);
  if (st != TFCC_OK) return st;
  const char *name = k_names[op];
  const tfcc_tensor *in = ctx->in[0];
  tfcc_tensor *out = ctx->out[0];
  tfcc_dtype dt = in->dtype;
  TFCC_OP_CHECK(ctx, out->dtype == dt, TFCC_ERR_DTYPE, "%s: output dtype %s, expected %s", name,
                tfcc_dtype_name(out->dtype), tfcc_dtype_name(dt));
  if (op == TFCC_REDUCE_OP_ANY || op == TFCC_REDUCE_OP_ALL) {
    TFCC_OP_CHECK(ctx, dt == TFCC_BOOL, TFCC_ERR_UNSUPPORTED, "%s: input dtype %s, expected bool",
                  name, tfcc_dtype_name(dt));
    ctx->scratch_bytes = 0;
    return tfcc_tensor_set_shape(out, su.out_rank, su.out_dims, ctx->err);
  }
  bool ok_type = dt == TFCC_FLOAT32 || dt == TFCC_INT32 || dt == TFCC_INT64 || is_q(dt) ||
                 (dt == TFCC_BOOL && (op == TFCC_REDUCE_OP_MAX || op == TFCC_REDUCE_OP_MIN));
  TFCC_OP_CHECK(ctx, ok_type, TFCC_ERR_UNSUPPORTED, "%s: input dtype %s unsupported", name,
                tfcc_dtype_name(dt));
  float in_s, out_s;
  int32_t in_zp, out_zp;
  quant_of(in, &in_s, &in_zp);
  quant_of(out, &out_s, &out_zp);
  if (dt == TFCC_INT16)
    TFCC_OP_CHECK(ctx, in_zp == 0 && out_zp == 0, TFCC_ERR_UNSUPPORTED,
                  "%s: int16 zero points %d/%d, expected 0", name, (int)in_zp, (int)out_zp);
  size_t scratch = 0;
  switch (op) {
    case TFCC_REDUCE_OP_MEAN:
      if (dt == TFCC_INT32 || dt == TFCC_INT64) scratch = (size_t)su.shape.out_count * 8;
      if (is_q(dt)) {
        if (!same_quant(in, out) || su.is_mean_hw)
          TFCC_OP_CHECK(ctx, in_s > 0.f && out_s > 0.f, TFCC_ERR_UNSUPPORTED,
                        "%s: quantized %s needs input and output scales (got %g, %g)", name,
                        tfcc_dtype_name(dt), (double)in_s, (double)out_s);
        if ((st = int32_sums(ctx, name, &su, &scratch)) != TFCC_OK) return st;
      }
      break;
    case TFCC_REDUCE_OP_SUM:
      if (dt == TFCC_UINT8 || dt == TFCC_INT8 || dt == TFCC_INT16) {
        /* quantized SUM always rescales (LiteRT saturates even at equal scales); uint8/int8
         * in TFLITE mode with XNNPACK's arithmetic */
        const tfcc_reduce_params *p = ctx->params; /* xnn_q8: XNNPACK's delegate runs it */
        if ((p && p->xnn_q8) || !same_quant(in, out) || in_s > 0.f) {
          TFCC_OP_CHECK(ctx, out_s > 0.f, TFCC_ERR_UNSUPPORTED,
                        "%s: rescaling %s sum needs an output scale", name, tfcc_dtype_name(dt));
          if ((st = int32_sums(ctx, name, &su, &scratch)) != TFCC_OK) return st;
        }
      }
      break;
    case TFCC_REDUCE_OP_PROD:
      if (is_q(dt) && in->quant && in->quant->count > 0) {
        int32_t mult;
        int shift;
        if ((st = prod_q_multiplier(ctx, &su, &mult, &shift)) != TFCC_OK) return st;
        scratch = (size_t)su.shape.out_count * 4;
      }
      break;
    case TFCC_REDUCE_OP_MAX:
    case TFCC_REDUCE_OP_MIN:
      if (is_q(dt))
        TFCC_OP_CHECK(ctx, same_quant(in, out), TFCC_ERR_UNSUPPORTED,
                      "%s: %s input and output quantization differ (scale %g/%g, zero point %d/%d)",
                      name, tfcc_dtype_name(dt), (double)in_s, (double)out_s, (int)in_zp,
                      (int)out_zp);
      break;
    case TFCC_REDUCE_OP_ANY:
    case TFCC_REDUCE_OP_ALL: break; /* bool: returned above */
  }
  ctx->scratch_bytes = scratch;
  size_t o, r, i;
  if ((op == TFCC_REDUCE_OP_MEAN || op == TFCC_REDUCE_OP_SUM) && ctx->params &&
      su.shape.in_count > 0 && (is_q(dt) || (dt == TFCC_FLOAT32 && op == TFCC_REDUCE_OP_MEAN)) &&
      !tfcc_rsum_shape(&su.shape, &o, &r, &i))
    tfcc_f32_log_fallback_once(&((tfcc_reduce_params *)ctx->params)->logged, ctx, name,
                               "reduced axes are not one contiguous run");
  return tfcc_tensor_set_shape(out, su.out_rank, su.out_dims, ctx->err);
}

/* Raw int32 sums of a quantized input into acc (out_count values): the fast kernels for an
 * [outer, reduced, inner] layout, else the reference summation. */
static void sum_q(const tfcc_op_ctx *ctx, const tfcc_reduce_shape *s, int32_t *acc) {
  size_t o, r, i;
  if (tfcc_rsum_shape(s, &o, &r, &i))
    ctx->ks->rsum->sum_q(ctx->in[0]->dtype, ctx->in[0]->data, o, r, i, acc);
  else
    tfcc_reduce_sum_q_raw(s, ctx->in[0]->dtype, ctx->in[0]->data, acc);
}

static tfcc_status eval_mean(tfcc_op_ctx *ctx, const reduce_setup *su) {
  const tfcc_tensor *in = ctx->in[0];
  tfcc_tensor *out = ctx->out[0];
  const tfcc_reduce_shape *s = &su->shape;
  tfcc_dtype dt = in->dtype;
  if (s->in_count == 0) {
    /* TFLite fills the output with quiet NaN (0 for integer types). */
    for (int64_t j = 0; j < s->out_count; j++) {
      if (dt == TFCC_FLOAT32) ((float *)out->data)[j] = NAN;
    }
    if (dt != TFCC_FLOAT32) memset(out->data, 0, (size_t)s->out_count * tfcc_dtype_size(dt));
    return TFCC_OK;
  }
  if (dt == TFCC_FLOAT32) {
    size_t o, r, i;
    if (tfcc_rsum_shape(s, &o, &r, &i)) {
      float *y = out->data;
      const tfcc_reduce_params *xp = ctx->params;
      if (xp && xp->xnn_f32_gavgpool_old && i > 0) { /* REFERENCE mode */
        tfcc_xnn_gavgpool_f32_old(in->data, o, r, i, -INFINITY, INFINITY, y);
        return TFCC_OK;
      }
      if (xp && xp->xnn_f32_rmean && i == 1) { /* XNNPACK's rsum, times 1 / n */
        ctx->ks->rsum->xnn_mean_f32(in->data, o, r, 1.0f / (float)r, y);
        return TFCC_OK;
      }
      /* the reference's sums in its order, then its division */
      ctx->ks->rsum->sum_f32(in->data, o, r, i, y);
      const float n = (float)s->reduce_count;
      const tfcc_reduce_params *p = ctx->params;
      /* ops: XNNPACK multiplies by the reciprocal; also after its f32-rdsum (reduced
         axes followed by kept ones: the rows added in order, as sum_f32) */
      if (p && (p->xnn_f32_mean || p->xnn_f32_rmean)) {
        const float inv = 1.0f / n;
        for (int64_t j = 0; j < s->out_count; j++) y[j] = y[j] * inv;
        return TFCC_OK;
      }
      for (int64_t j = 0; j < s->out_count; j++) y[j] = y[j] / n;
      return TFCC_OK;
    }
    tfcc_reduce_mean_f32(s, in->data, out->data);
    return TFCC_OK;
  }
  if (dt == TFCC_INT32 || dt == TFCC_INT64) {
    tfcc_reduce_mean_int(s, dt, in->data, out->data, ctx->scratch);
    return TFCC_OK;
  }
  float in_s, out_s;
  int32_t in_zp, out_zp;
  quant_of(in, &in_s, &in_zp);
  quant_of(out, &out_s, &out_zp);
  int32_t *acc = ctx->scratch;
  sum_q(ctx, s, acc);
  const tfcc_reduce_params *p = ctx->params;
  if (p && p->xnn_q8) { /* XNNPACK's delegate runs it */
    tfcc_rsum_xnn_q8_finish(ctx->isa, s, dt, acc, in_zp, in_s, out->data, out_zp, out_s, true);
    return TFCC_OK;
  }
  if (p && p->q8_mean_mult && !su->is_mean_hw) {
    /* act59: an 8-bit MEAN the delegate leaves to LiteRT's builtin kernel (a 2-D or empty axis
     * tensor): QuantizedMeanOrSum's integer multiplier, as int16's below (the classic
     * interpreter's float formula and equal-scale division stay for REFERENCE mode) */
    tfcc_reduce_mean_q_mult_finish(s, dt, acc, in_zp, in_s, out->data, out_zp, out_s);
    return TFCC_OK;
  }
  /* int16 has no H,W special case in current TFLite (EvalMean's optimized Mean is 8-bit only):
   * its H,W means take QuantizedMeanOrSum's folded multiplier below, as LiteRT does. The
   * classic interpreter (tfweb) divides after rescaling (tfcc_mean_hw_int_finish): 43 of 1,280
   * outputs 1 LSB apart on the MobileNetV2 int16x8 twin's global pool (docs/quantization.md). */
  if (su->is_mean_hw && dt != TFCC_INT16) {
    /* TFLite's builtin 8-bit kernels (optimized_ops::Mean / optimized_integer_ops::Mean) */
    tfcc_mean_hw_q8_finish(s->dims, dt, acc, in_zp, in_s, out->data, out_zp, out_s);
  } else if (dt == TFCC_INT16 && !(in_zp == out_zp && in_s == out_s)) {
    tfcc_reduce_mean_q_mult_finish(s, TFCC_INT16, acc, in_zp, in_s, out->data, out_zp, out_s);
  } else if (in_zp == out_zp && in_s == out_s) {
    tfcc_reduce_mean_q_same_finish(s, dt, acc, out->data);
  } else {
    tfcc_reduce_quantized_mean_or_sum_finish(s, dt, acc, in_zp, in_s, out->data, out_zp, out_s,
                                             false);
  }
  return TFCC_OK;
}

const char *tfcc_reduce_op_kernel(const tfcc_op_ctx *ctx, tfcc_reduce_op op) {
  reduce_setup su;
  tfcc_op_quiet q;
  if (setup(tfcc_op_quiet_ctx(ctx, &q), op, &su) != TFCC_OK) return "ref";
  const tfcc_dtype dt = ctx->in[0]->dtype;
  /* as eval: kernels/arg's loops when the reduced axes are adjacent */
  if (op == TFCC_REDUCE_OP_MAX || op == TFCC_REDUCE_OP_MIN)
    return tfcc_reduce_max_min_fast_ok(&su.shape, dt) ? "arg-select" : "ref";
  if (!ctx->params) return "ref";
  const bool q8 = dt == TFCC_UINT8 || dt == TFCC_INT8 || dt == TFCC_INT16;
  size_t o, r, i;
  if (!tfcc_rsum_shape(&su.shape, &o, &r, &i)) return "ref";
  if (op == TFCC_REDUCE_OP_MEAN && (dt == TFCC_FLOAT32 || q8)) return ctx->ks->rsum->name;
  const tfcc_reduce_params *xp = ctx->params;
  if (op == TFCC_REDUCE_OP_SUM && dt == TFCC_FLOAT32 && xp->xnn_f32_rmean && i == 1)
    return ctx->ks->rsum->name;
  if (op == TFCC_REDUCE_OP_SUM && q8) {
    float in_s, out_s;
    int32_t in_zp, out_zp;
    quant_of(ctx->in[0], &in_s, &in_zp);
    quant_of(ctx->out[0], &out_s, &out_zp);
    /* as eval: XNNPACK or rescaled sums; else the generic reference reduction */
    if (xp->xnn_q8 || !same_quant(ctx->in[0], ctx->out[0]) || in_s > 0.f)
      return ctx->ks->rsum->name;
  }
  return "ref";
}

tfcc_status tfcc_reduce_op_eval(tfcc_op_ctx *ctx, tfcc_reduce_op op) {
  reduce_setup su;
  tfcc_status st = setup(ctx, op, &su);
  if (st != TFCC_OK) return st;
  const tfcc_tensor *in = ctx->in[0];
  tfcc_tensor *out = ctx->out[0];
  tfcc_dtype dt = in->dtype;
  const tfcc_reduce_params *rp = ctx->params;
  const bool xq8 = rp && rp->xnn_q8; /* XNNPACK's delegate runs this MEAN/SUM */
  switch (op) {
    case TFCC_REDUCE_OP_MEAN: return eval_mean(ctx, &su);
    case TFCC_REDUCE_OP_SUM:
      if (dt == TFCC_FLOAT32 && su.shape.in_count > 0) {
        const tfcc_reduce_params *xp = ctx->params;
        size_t o, r, i;
        /* XNNPACK's rsum order, as MEAN's (times 1.0f: exact) */
        if (xp && xp->xnn_f32_rmean && tfcc_rsum_shape(&su.shape, &o, &r, &i) && i == 1) {
          ctx->ks->rsum->xnn_mean_f32(in->data, o, r, 1.0f, out->data);
          return TFCC_OK;
        }
      }
      if (xq8 && su.shape.in_count > 0) {
        float in_s, out_s;
        int32_t in_zp, out_zp;
        quant_of(in, &in_s, &in_zp);
        quant_of(out, &out_s, &out_zp);
        sum_q(ctx, &su.shape, ctx->scratch);
        tfcc_rsum_xnn_q8_finish(ctx->isa, &su.shape, dt, ctx->scratch, in_zp, in_s, out->data,
                                out_zp, out_s, false);
        return TFCC_OK;
      }
      if ((dt == TFCC_UINT8 || dt == TFCC_INT8 || dt == TFCC_INT16) &&
          (!same_quant(in, out) ||
           (in->quant && in->quant->count > 0 && in->quant->scale[0] > 0.f))) {
        float in_s, out_s;
        int32_t in_zp, out_zp;
        quant_of(in, &in_s, &in_zp);
        quant_of(out, &out_s, &out_zp);
        sum_q(ctx, &su.shape, ctx->scratch);
        tfcc_reduce_sum_q_rescaled_finish(&su.shape, dt, ctx->scratch, in_zp, in_s, out->data,
                                          out_zp, out_s);
        return TFCC_OK;
      }
      tfcc_reduce_generic(&su.shape, TFCC_REDUCE_SUM, dt, in->data, out->data);
      return TFCC_OK;
    case TFCC_REDUCE_OP_PROD:
      if (is_q(dt) && in->quant && in->quant->count > 0) {
        int32_t mult;
        int shift;
        if ((st = prod_q_multiplier(ctx, &su, &mult, &shift)) != TFCC_OK) return st;
        float s_unused;
        int32_t in_zp, out_zp;
        quant_of(in, &s_unused, &in_zp);
        quant_of(out, &s_unused, &out_zp);
        tfcc_reduce_prod_q(&su.shape, dt, in->data, in_zp, out->data, out_zp, mult, shift,
                           ctx->scratch);
        return TFCC_OK;
      }
      tfcc_reduce_generic(&su.shape, TFCC_REDUCE_PROD, dt, in->data, out->data);
      return TFCC_OK;
    case TFCC_REDUCE_OP_MAX:
      /* Adjacent reduced axes: kernels/arg's loops (tfcc_reduce_generic is their twin). */
      if (!tfcc_reduce_max_min_fast(&su.shape, true, dt, in->data, out->data))
        tfcc_reduce_generic(&su.shape, TFCC_REDUCE_MAX, dt, in->data, out->data);
      return TFCC_OK;
    case TFCC_REDUCE_OP_MIN:
      if (!tfcc_reduce_max_min_fast(&su.shape, false, dt, in->data, out->data))
        tfcc_reduce_generic(&su.shape, TFCC_REDUCE_MIN, dt, in->data, out->data);
      return TFCC_OK;
    case TFCC_REDUCE_OP_ALL: /* bool: min is and, max is or */
      tfcc_reduce_generic(&su.shape, TFCC_REDUCE_MIN, dt, in->data, out->data);
      return TFCC_OK;
    case TFCC_REDUCE_OP_ANY:
      tfcc_reduce_generic(&su.shape, TFCC_REDUCE_MAX, dt, in->data, out->data);
      return TFCC_OK;
  }
  return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_ARG, "unknown reduction %d", (int)op);
}

/* ---------------------------------------------------------------- ARG_MAX / ARG_MIN */

typedef struct arg_setup {
  int32_t axis;
  int64_t outer, inner;
  int32_t axis_size;
} arg_setup;

static tfcc_status arg_setup_of(tfcc_op_ctx *ctx, bool is_max, arg_setup *a) {
  const char *name = is_max ? "ARG_MAX" : "ARG_MIN";
  TFCC_OP_CHECK(ctx, ctx->n_in == 2 && ctx->n_out == 1, TFCC_ERR_INVALID_MODEL,
                "%s: %d inputs and %d outputs, expected 2 and 1", name, (int)ctx->n_in,
                (int)ctx->n_out);
  const tfcc_tensor *in = ctx->in[0], *axis = ctx->in[1];
  TFCC_OP_CHECK(ctx, in && axis && ctx->out[0], TFCC_ERR_INVALID_MODEL,
                "%s: input, axis and output are required", name);
  TFCC_OP_CHECK(ctx, axis->dtype == TFCC_INT32 || axis->dtype == TFCC_INT64, TFCC_ERR_DTYPE,
                "%s: axis dtype %s, expected int32 or int64", name, tfcc_dtype_name(axis->dtype));
  TFCC_OP_CHECK(ctx, tfcc_tensor_elements(axis) == 1, TFCC_ERR_SHAPE,
                "%s: axis has %lld elements, expected 1", name,
                (long long)tfcc_tensor_elements(axis));
  if (!axis->known || !axis->data)
    return TFCC_OP_NEEDS_DATA(ctx, axis, "%s: axis (tensor %d) is known only while running", name,
                              (int)axis->index);
  TFCC_OP_CHECK(ctx, in->rank >= 1 && in->rank <= TFCC_MAX_RANK, TFCC_ERR_SHAPE,
                "%s: input rank %d, expected 1..%d", name, (int)in->rank, TFCC_MAX_RANK);
  int64_t ax =
      axis->dtype == TFCC_INT32 ? *(const int32_t *)axis->data : *(const int64_t *)axis->data;
  TFCC_OP_CHECK(ctx, ax >= -in->rank && ax < in->rank, TFCC_ERR_SHAPE,
                "%s: axis %lld out of range for rank %d", name, (long long)ax, (int)in->rank);
  a->axis = (int32_t)(ax < 0 ? ax + in->rank : ax);
  a->outer = 1;
  a->inner = 1;
  for (int32_t d = 0; d < in->rank; d++) {
    TFCC_OP_CHECK(ctx, in->dims[d] >= 0, TFCC_ERR_SHAPE, "%s: input dim %d is negative", name,
                  (int)d);
    if (d < a->axis) a->outer *= in->dims[d];
    if (d > a->axis) a->inner *= in->dims[d];
  }
  a->axis_size = in->dims[a->axis];
  TFCC_OP_CHECK(ctx, a->axis_size >= 1 || a->outer * a->inner == 0, TFCC_ERR_SHAPE,
                "%s: reduced axis %d has size 0", name, (int)a->axis);
  return TFCC_OK;
}

tfcc_status tfcc_arg_op_prepare(tfcc_op_ctx *ctx, bool is_max) {
  const char *name = is_max ? "ARG_MAX" : "ARG_MIN";
  arg_setup a = {0, 0, 0, 0};
  tfcc_status st = arg_setup_of(ctx, is_max, &a);
  if (st != TFCC_OK) return st;
  const tfcc_tensor *in = ctx->in[0];
  tfcc_tensor *out = ctx->out[0];
  tfcc_dtype dt = in->dtype;
  TFCC_OP_CHECK(ctx,
                dt == TFCC_FLOAT32 || dt == TFCC_UINT8 || dt == TFCC_INT8 || dt == TFCC_INT16 ||
                    dt == TFCC_INT32 || dt == TFCC_INT64 || dt == TFCC_BOOL,
                TFCC_ERR_UNSUPPORTED, "%s: input dtype %s unsupported", name, tfcc_dtype_name(dt));
  TFCC_OP_CHECK(ctx, out->dtype == TFCC_INT32 || out->dtype == TFCC_INT64, TFCC_ERR_DTYPE,
                "%s: output dtype %s, expected int32 or int64", name, tfcc_dtype_name(out->dtype));
  /* ArgMaxOptions/ArgMinOptions.output_type (field 0) must agree with the output tensor. */
  if (ctx->node && ctx->node->opts.arg.has_type) {
    int32_t ot = ctx->node->opts.arg.type;
    TFCC_OP_CHECK(ctx, ot == (int32_t)out->dtype, TFCC_ERR_DTYPE,
                  "%s: options output_type %s but output tensor is %s", name,
                  tfcc_dtype_name((tfcc_dtype)ot), tfcc_dtype_name(out->dtype));
  }
  int32_t dims[TFCC_MAX_RANK], r = 0;
  for (int32_t d = 0; d < in->rank; d++)
    if (d != a.axis) dims[r++] = in->dims[d];
  ctx->scratch_bytes = 0;
  return tfcc_tensor_set_shape(out, r, dims, ctx->err);
}

tfcc_status tfcc_arg_op_eval(tfcc_op_ctx *ctx, bool is_max) {
  arg_setup a = {0, 0, 0, 0};
  tfcc_status st = arg_setup_of(ctx, is_max, &a);
  if (st != TFCC_OK) return st;
  if (a.outer * a.inner == 0) return TFCC_OK;
  /* Branch-free kernel (kernels/arg); tfcc_arg_min_max is its reference twin. */
  if (!tfcc_arg_min_max_fast(ctx->in[0]->dtype, ctx->in[0]->data, a.outer, a.axis_size, a.inner,
                             is_max, ctx->out[0]->dtype, ctx->out[0]->data))
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, "%s: dtype %s -> %s unsupported",
                        is_max ? "ARG_MAX" : "ARG_MIN", tfcc_dtype_name(ctx->in[0]->dtype),
                        tfcc_dtype_name(ctx->out[0]->dtype));
  return TFCC_OK;
}
