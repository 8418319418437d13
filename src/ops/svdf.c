/* SVDF (TFLite svdf.cc): inputs 0 input [batch, n_input], 1 weights_feature [filters, n_input],
 * 2 weights_time [filters, memory], 3 bias [units] (optional), 4 state [batch, filters * memory]
 * (variable); output [batch, units], units = filters / SVDFOptions.rank. float32; hybrid
 * (float input, int8 weights with per-tensor scales, options asymmetric_quantize_inputs);
 * full integer (int8 input/output, int8 weights_feature, int16 weights_time and state, int32
 * bias; the options' activation must be RELU, as TFLite checks, and is not applied: TFLite's
 * integer kernel clamps to int8 only). Kernels: kernels/ref/svdf.h. */
#include <string.h>

#include "kernels/ref/quant_util.h"
#include "kernels/ref/svdf.h"
#include "ops/op.h"
#include "ops/work_estimate.h"

#define CHECK_(cond, code, ...) TFCC_OP_CHECK(ctx, cond, code, "SVDF: " __VA_ARGS__)

enum { K_F32, K_HYBRID, K_INT8 };

typedef struct svdf_setup {
  tfcc_svdf_shape s;
  int kind, act;
  bool asym;
} svdf_setup;

static float scale_of(const tfcc_tensor *t) {
  return t && t->quant && t->quant->count > 0 ? t->quant->scale[0] : 0.f;
}
static int32_t zp_of(const tfcc_tensor *t) {
  return t && t->quant && t->quant->count > 0 ? t->quant->zero_point[0] : 0;
}

static tfcc_status setup(tfcc_op_ctx *ctx, svdf_setup *su) {
  memset(su, 0, sizeof *su);
  CHECK_(ctx->n_in == 5 && ctx->n_out == 1, TFCC_ERR_INVALID_MODEL,
         "%d inputs and %d outputs, expected 5 and 1", (int)ctx->n_in, (int)ctx->n_out);
  const tfcc_tensor *x = ctx->in[0], *wf = ctx->in[1], *wt = ctx->in[2], *b = ctx->in[3],
                    *st = ctx->in[4], *y = ctx->out[0];
  CHECK_(x && wf && wt && st && y, TFCC_ERR_INVALID_MODEL,
         "input, weights_feature, weights_time and state are required");
  const tfcc_svdf_options *o = ctx->node ? &ctx->node->opts.svdf : NULL;
  su->s.rank = o ? o->rank : 0;
  su->act = o ? o->activation : 0;
  su->asym = o && o->asymmetric_quantize_inputs;
  CHECK_(su->act <= 4 || su->act == 6, TFCC_ERR_UNSUPPORTED, "fused activation %d unsupported",
         su->act);
  CHECK_(x->rank == 2 && wf->rank == 2 && wt->rank == 2, TFCC_ERR_SHAPE,
         "input, weights_feature and weights_time must have rank 2");
  su->s.n_batch = x->dims[0];
  su->s.n_input = x->dims[1];
  su->s.n_filter = wf->dims[0];
  su->s.n_memory = wt->dims[1];
  CHECK_(su->s.rank > 0 && su->s.n_filter > 0 && su->s.n_filter % su->s.rank == 0,
         TFCC_ERR_INVALID_MODEL, "rank %d must divide the %d filters", (int)su->s.rank,
         (int)su->s.n_filter);
  CHECK_(wf->dims[1] == su->s.n_input, TFCC_ERR_SHAPE, "weights_feature [%d, %d] for input size %d",
         (int)wf->dims[0], (int)wf->dims[1], (int)su->s.n_input);
  CHECK_(wt->dims[0] == su->s.n_filter && su->s.n_memory > 0, TFCC_ERR_SHAPE,
         "weights_time [%d, %d] for %d filters", (int)wt->dims[0], (int)wt->dims[1],
         (int)su->s.n_filter);
  const int32_t units = su->s.n_filter / su->s.rank;
  CHECK_(!b || (b->rank == 1 && b->dims[0] == units), TFCC_ERR_SHAPE, "bias must be [%d]",
         (int)units);
  /* filters x memory in int64: weights of a file's shapes (graph inputs) may pass int32 */
  const int64_t state_w = (int64_t)su->s.n_filter * su->s.n_memory;
  CHECK_(st->rank == 2 && st->dims[0] == su->s.n_batch && st->dims[1] == state_w, TFCC_ERR_SHAPE,
         "state must be [%d, %lld]", (int)su->s.n_batch, (long long)state_w);
  if (x->dtype == TFCC_FLOAT32 && wf->dtype == TFCC_FLOAT32) {
    su->kind = K_F32;
    CHECK_(
        wt->dtype == TFCC_FLOAT32 && st->dtype == TFCC_FLOAT32 && (!b || b->dtype == TFCC_FLOAT32),
        TFCC_ERR_DTYPE, "float SVDF needs float32 weights_time, bias and state");
  } else if (x->dtype == TFCC_FLOAT32 && wf->dtype == TFCC_INT8) {
    su->kind = K_HYBRID;
    CHECK_(wt->dtype == TFCC_INT8 && st->dtype == TFCC_FLOAT32 && (!b || b->dtype == TFCC_FLOAT32),
           TFCC_ERR_DTYPE, "hybrid SVDF needs int8 weights_time, float32 bias and state");
    CHECK_(scale_of(wf) > 0.f && scale_of(wt) > 0.f, TFCC_ERR_INVALID_MODEL,
           "int8 weights without a scale");
  } else if (x->dtype == TFCC_INT8) {
    su->kind = K_INT8;
    CHECK_(
        wf->dtype == TFCC_INT8 && wt->dtype == TFCC_INT16 && st->dtype == TFCC_INT16 &&
            (!b || b->dtype == TFCC_INT32) && y->dtype == TFCC_INT8,
        TFCC_ERR_DTYPE,
        "integer SVDF needs int8 weights_feature, int16 weights_time and state, int32 bias, int8 output");
    CHECK_(su->act == 1, TFCC_ERR_UNSUPPORTED,
           "integer SVDF supports only RELU (as TFLite), got %d", su->act);
    CHECK_(scale_of(x) > 0.f && scale_of(wf) > 0.f && scale_of(wt) > 0.f && scale_of(st) > 0.f &&
               scale_of(y) > 0.f,
           TFCC_ERR_INVALID_MODEL, "integer SVDF tensors must be quantized");
  } else {
    CHECK_(false, TFCC_ERR_UNSUPPORTED, "input %s with weights %s unsupported",
           tfcc_dtype_name(x->dtype), tfcc_dtype_name(wf->dtype));
  }
  CHECK_(y->dtype == x->dtype, TFCC_ERR_DTYPE, "output dtype %s, expected %s",
         tfcc_dtype_name(y->dtype), tfcc_dtype_name(x->dtype));
  return TFCC_OK;
}

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  svdf_setup su;
  tfcc_status st = setup(ctx, &su);
  if (st != TFCC_OK) return st;
  ctx->scratch_bytes = tfcc_svdf_scratch_bytes(&su.s);
  const int32_t dims[2] = {su.s.n_batch, su.s.n_filter / su.s.rank};
  return tfcc_tensor_set_shape(ctx->out[0], 2, dims, ctx->err);
}

static tfcc_status eval(tfcc_op_ctx *ctx) {
  svdf_setup su;
  tfcc_status st = setup(ctx, &su);
  if (st != TFCC_OK) return st;
  const tfcc_tensor *x = ctx->in[0], *wf = ctx->in[1], *wt = ctx->in[2], *b = ctx->in[3];
  tfcc_tensor *state = ctx->in[4], *y = ctx->out[0];
  const void *bias = b ? b->data : NULL;
  switch (su.kind) {
    case K_F32:
      tfcc_svdf_f32(&su.s, x->data, wf->data, wt->data, bias, su.act, state->data, y->data,
                    ctx->scratch);
      break;
    case K_HYBRID:
      tfcc_svdf_hybrid(&su.s, x->data, wf->data, scale_of(wf), wt->data, scale_of(wt), bias, su.act,
                       su.asym, state->data, y->data, ctx->scratch);
      break;
    default: {
      /* effective scales as svdf.cc Prepare: float products widened to double */
      tfcc_svdf_q_params p;
      const double e1 = scale_of(x) * scale_of(wf) / scale_of(state);
      const double e2 = scale_of(state) * scale_of(wt) / scale_of(y);
      tfcc_quantize_multiplier(e1, &p.mult1, &p.shift1);
      tfcc_quantize_multiplier(e2, &p.mult2, &p.shift2);
      p.input_zp = zp_of(x);
      p.output_zp = zp_of(y);
      tfcc_svdf_q8(&su.s, &p, x->data, wf->data, wt->data, bias, state->data, y->data,
                   ctx->scratch);
      break;
    }
  }
  return TFCC_OK;
}

static int64_t macs(const tfcc_op_ctx *ctx) {
  svdf_setup su;
  tfcc_op_quiet q;
  if (setup(tfcc_op_quiet_ctx(ctx, &q), &su) != TFCC_OK) return 0;
  return tfcc_work_mul3(su.s.n_batch, su.s.n_filter, (int64_t)su.s.n_input + su.s.n_memory);
}

const tfcc_op_def tfcc_op_svdf = {.name = "SVDF", .prepare = prepare, .eval = eval, .macs = macs};
