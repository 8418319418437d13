/* PRELU: out = x >= 0 ? x : x * alpha, alpha (input 1) broadcast to the input's shape (the
 * output always has the input's shape). float32, uint8, int8, and int16 with int8 alpha (LiteRT's
 * 16x8 scheme); quantized with two multipliers, input_scale / output_scale and
 * input_scale * alpha_scale / output_scale (float math, as PreluPrepare). Ranks up to TFCC_MAX_RANK (TFLite's broadcast kernel stops at 4). */
#include "kernels/f32-vbinary/vbinary.h"
#include "kernels/ref/activation.h"
#include "ops/act_common.h"

typedef struct prelu_op {
  tfcc_dtype type;
  tfcc_dtype alpha_type;
  tfcc_prelu_params q;
} prelu_op;

static tfcc_status init(tfcc_init_ctx *ctx) {
  const tfcc_ir_tensor *in = tfcc_init_ir_input(ctx, 0), *alpha = tfcc_init_ir_input(ctx, 1),
                       *out = tfcc_init_ir_output(ctx, 0);
  if (!in || !alpha || !out)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, "expected 2 inputs and 1 output");
  prelu_op *p;
  tfcc_status st = act_alloc_params(ctx, sizeof *p, (void **)&p);
  if (st) return st;
  p->type = in->dtype;
  static const tfcc_dtype ok[] = {TFCC_FLOAT32, TFCC_UINT8, TFCC_INT8, TFCC_INT16};
  st = act_check_types(ctx->err, in, out, ok, 4, "float32, uint8, int8, int16");
  /* int16 takes int8 alpha (16x8): LiteRT reads alpha as int8 whatever its declared type. */
  const tfcc_dtype alpha_type = in->dtype == TFCC_INT16 ? TFCC_INT8 : in->dtype;
  p->alpha_type = alpha_type;
  if (!st && alpha->dtype != alpha_type)
    st = tfcc_err_set(ctx->err, TFCC_ERR_DTYPE, "alpha (input 1) dtype %s, expected %s",
                      tfcc_dtype_name(alpha->dtype), tfcc_dtype_name(alpha_type));
  if (!st && in->dtype != TFCC_FLOAT32) {
    float s_in = 0.f, s_a = 0.f, s_out = 0.f;
    int32_t z_in = 0, z_a = 0, z_out = 0;
    st = act_quant_io(ctx->err, in, out, &s_in, &z_in, &s_out, &z_out);
    if (!st) st = act_quant(ctx->err, "alpha (input 1)", alpha->dtype, &alpha->quant, &s_a, &z_a);
    if (!st) {
      const float m_pos = s_in / s_out;
      const float m_neg = s_in * s_a / s_out;
      p->q.in_zp = z_in;
      p->q.alpha_zp = z_a;
      p->q.out_zp = z_out;
      st = act_multiplier(ctx->err, "positive", (double)m_pos, &p->q.mult_pos, &p->q.shift_pos);
      if (!st)
        st = act_multiplier(ctx->err, "negative", (double)m_neg, &p->q.mult_neg, &p->q.shift_neg);
    }
  }
  if (st) {
    free(p);
    ctx->params = NULL;
  }
  return st;
}

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  tfcc_status st = act_check_io(ctx, 2);
  if (st) return st;
  const prelu_op *p = (const prelu_op *)ctx->params;
  if (!p) return act_params_missing(ctx);
  const tfcc_tensor *in = ctx->in[0], *alpha = ctx->in[1];
  TFCC_OP_CHECK(ctx, in->dtype == p->type && alpha->dtype == p->alpha_type, TFCC_ERR_DTYPE,
                "input/alpha dtypes %s/%s, model declared %s/%s", tfcc_dtype_name(in->dtype),
                tfcc_dtype_name(alpha->dtype), tfcc_dtype_name(p->type),
                tfcc_dtype_name(p->alpha_type));
  if ((st = act_out_dtype(ctx->err, ctx->out[0]->dtype, p->type))) return st;
  TFCC_OP_CHECK(ctx, alpha->rank <= in->rank, TFCC_ERR_SHAPE,
                "alpha rank %d exceeds input rank %d (output must keep the input's shape)",
                (int)alpha->rank, (int)in->rank);
  for (int32_t d = 0; d < alpha->rank; d++) {
    const int32_t ad = alpha->dims[d], id = in->dims[in->rank - alpha->rank + d];
    TFCC_OP_CHECK(ctx, ad == id || ad == 1, TFCC_ERR_SHAPE,
                  "alpha dim %d (%d) does not broadcast to input dim %d (%d)", (int)d, (int)ad,
                  (int)(in->rank - alpha->rank + d), (int)id);
  }
  return act_same_shape(ctx);
}

static tfcc_status eval(tfcc_op_ctx *ctx) {
  const prelu_op *p = (const prelu_op *)ctx->params;
  const tfcc_tensor *in = ctx->in[0], *alpha = ctx->in[1];
  int64_t strides[TFCC_MAX_RANK] = {0};
  int64_t s = 1;
  for (int32_t d = alpha->rank - 1; d >= 0; d--) {
    const int32_t id = in->rank - alpha->rank + d;
    strides[id] = alpha->dims[d] == 1 ? 0 : s;
    s *= alpha->dims[d];
  }
  if (act_count(in) == 0) return TFCC_OK;
  if (p->type == TFCC_FLOAT32) {
    /* f32-vbinary with alpha as the broadcast second input (output shape = input shape) */
    const int32_t ranks[2] = {in->rank, alpha->rank};
    const int32_t *dims[2] = {in->dims, alpha->dims};
    tfcc_bcast bc;
    tfcc_bcast_plan(&bc, 2, ranks, dims, in->rank, in->dims);
    const tfcc_f32_vbinary_params fp = {TFCC_F32VB_PRELU, -INFINITY, INFINITY};
    tfcc_f32_vbinary_run(ctx->pool, ctx->ks->f32_vbinary, &fp, &bc, (const float *)in->data,
                         (const float *)alpha->data, (float *)ctx->out[0]->data);
    return TFCC_OK;
  }
  tfcc_prelu_q(p->type, in->data, alpha->data, ctx->out[0]->data, in->rank, in->dims, strides,
               &p->q);
  return TFCC_OK;
}

static const char *kernel(const tfcc_op_ctx *ctx) {
  const prelu_op *p = (const prelu_op *)ctx->params;
  return p && p->type == TFCC_FLOAT32 ? ctx->ks->f32_vbinary->name : "ref";
}

TFCC_OP_DEFINE(tfcc_op_prelu, "PRELU", init, prepare, eval, .kernel = kernel);
