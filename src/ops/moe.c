/* moe (sweep7; LiteRT's mixture-of-experts operator, which the XNNPACK delegate runs:
 * tflite/delegates/xnnpack/moe_delegate_kernel.cc; ai-edge-quantizer's single_moe_multiaxis).
 * Inputs: src float32 [..., model_dim], top_weights float32 and top_indices int32 (tokens x
 * num_active_experts values each), then the constant float32 expert weights: gate, ff1 (up),
 * linear (down) and per_expert_scale [num_experts]. The output has src's shape. Arithmetic:
 * kernels/ref/moe.c. As the TFLite build here (LiteRT 2.5.3's delegate): weight_type "fp32"
 * and activation "gelu" only (newer LiteRT sources add int8 / int4 weights and "gelu_tanh", which
 * no TFLite build here runs: refused, naming them), weights constant with the counts the
 * delegate checks; an expert index outside -num_experts .. num_experts - 1 fails the run. */

#include "kernels/ref/moe.h"
#include "ops/custom_params.h"

typedef struct moe_op {
  tfcc_moe_shape s;
} moe_op;

static tfcc_status init(tfcc_init_ctx *ctx) {
  tfcc_status st = tfcc_custom_params_new(
      ctx, TFCC_OPTIONS_MOE, "num_experts, num_active_experts, model_dim, hidden_dim, weight_type",
      sizeof(moe_op));
  if (st) return st;
  const tfcc_moe_options *o = &ctx->node->opts.moe;
  if (o->weight_type != TFCC_MOE_F32 || o->gelu_tanh)
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED,
                        "moe with %s weights and activation %s: only fp32 weights and gelu (as "
                        "the TFLite build tfcc follows)",
                        o->weight_type == TFCC_MOE_INT8   ? "int8"
                        : o->weight_type == TFCC_MOE_INT4 ? "int4"
                                                          : "fp32",
                        o->gelu_tanh ? "gelu_tanh" : "gelu");
  ((moe_op *)ctx->params)->s =
      (tfcc_moe_shape){o->num_experts, o->num_active_experts, o->model_dim, o->hidden_dim};
  return TFCC_OK;
}

/* Input i, a constant float32 tensor of `want` values (checked). */
static tfcc_status weight_of(tfcc_op_ctx *ctx, int32_t i, const char *name, int64_t want,
                             const float **w) {
  const tfcc_tensor *t = ctx->in[i];
  TFCC_OP_CHECK(ctx, t->is_const && t->dtype == TFCC_FLOAT32 && tfcc_tensor_elements(t) == want,
                TFCC_ERR_INVALID_MODEL,
                "%s (input %d): %s%s with %lld values, expected constant float32 with %lld", name,
                (int)i, t->is_const ? "" : "non-constant ", tfcc_dtype_name(t->dtype),
                (long long)tfcc_tensor_elements(t), (long long)want);
  *w = (const float *)t->data;
  return TFCC_OK;
}

static tfcc_status weights_of(tfcc_op_ctx *ctx, const tfcc_moe_shape *s, tfcc_moe_weights *w) {
  const int64_t e = s->num_experts, d = s->model_dim, h = s->hidden_dim;
  tfcc_status st;
  if ((st = weight_of(ctx, 3, "gate_weight", h * e * d, &w->gate)) ||
      (st = weight_of(ctx, 4, "ff1_weight", h * e * d, &w->up)) ||
      (st = weight_of(ctx, 5, "linear_weight", d * e * h, &w->down)))
    return st;
  return weight_of(ctx, 6, "per_expert_scale", e, &w->per_expert_scale);
}

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  const tfcc_moe_shape *s = &((const moe_op *)ctx->params)->s;
  TFCC_OP_CHECK(ctx, ctx->n_in == 7 && ctx->n_out == 1 && ctx->out[0], TFCC_ERR_INVALID_MODEL,
                "%d inputs and %d outputs, expected 7 (src, top_weights, top_indices, gate, ff1, "
                "linear, per_expert_scale) and 1",
                (int)ctx->n_in, (int)ctx->n_out);
  for (int32_t i = 0; i < 7; i++)
    TFCC_OP_CHECK(ctx, ctx->in[i], TFCC_ERR_INVALID_MODEL, "input %d is omitted", (int)i);
  const tfcc_tensor *src = ctx->in[0], *tw = ctx->in[1], *ti = ctx->in[2];
  TFCC_OP_CHECK(ctx,
                src->dtype == TFCC_FLOAT32 && tw->dtype == TFCC_FLOAT32 &&
                    ti->dtype == TFCC_INT32 && ctx->out[0]->dtype == TFCC_FLOAT32,
                TFCC_ERR_DTYPE,
                "src %s, top_weights %s, top_indices %s, output %s: expected float32, float32, "
                "int32, float32",
                tfcc_dtype_name(src->dtype), tfcc_dtype_name(tw->dtype), tfcc_dtype_name(ti->dtype),
                tfcc_dtype_name(ctx->out[0]->dtype));
  tfcc_moe_weights w;
  tfcc_status st = weights_of(ctx, s, &w);
  if (st) return st;
  const int64_t n = tfcc_tensor_elements(src), tokens = n / s->model_dim;
  TFCC_OP_CHECK(ctx,
                n % s->model_dim == 0 && tfcc_tensor_elements(tw) == tokens * s->num_active &&
                    tfcc_tensor_elements(ti) == tokens * s->num_active,
                TFCC_ERR_SHAPE,
                "src of %lld values (model_dim %d), top_weights %lld and top_indices %lld values: "
                "expected tokens x %d each",
                (long long)n, (int)s->model_dim, (long long)tfcc_tensor_elements(tw),
                (long long)tfcc_tensor_elements(ti), (int)s->num_active);
  ctx->scratch_bytes = tfcc_moe_scratch_floats(s) * sizeof(float);
  return tfcc_tensor_set_shape(ctx->out[0], src->rank, src->dims, ctx->err);
}

static tfcc_status eval(tfcc_op_ctx *ctx) {
  const tfcc_moe_shape *s = &((const moe_op *)ctx->params)->s;
  const tfcc_moe_weights w = {(const float *)ctx->in[3]->data, (const float *)ctx->in[4]->data,
                              (const float *)ctx->in[5]->data, (const float *)ctx->in[6]->data};
  const int64_t tokens = tfcc_tensor_elements(ctx->in[0]) / s->model_dim;
  int32_t bad = 0;
  if (!tfcc_moe_f32(s, tokens, (const float *)ctx->in[0]->data, (const float *)ctx->in[1]->data,
                    (const int32_t *)ctx->in[2]->data, &w, (float *)ctx->out[0]->data,
                    (float *)ctx->scratch, &bad))
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_ARG,
                        "moe: expert index %d is out of range (%d experts)", (int)bad,
                        (int)s->num_experts);
  return TFCC_OK;
}

TFCC_OP_DEFINE(tfcc_op_moe, "moe", init, prepare, eval);
