/* LOG_SOFTMAX over the last dimension: float32; uint8 / int8 with output scale 16/256 and zero
 * point 255 / 127, computed like TFLite's default kernel (optimized_ops::LogSoftmax: float
 * exp table with beta 1, log of the float sum, rint). */
#include "kernels/ref/softmax.h"
#include "ops/act_common.h"

typedef struct log_softmax_op {
  act_head head;
  float in_scale, out_scale;
  int32_t out_zp;
  float table[256];
} log_softmax_op;

static tfcc_status setup(void *params, const tfcc_ir_node *node, const tfcc_ir_tensor *in,
                         const tfcc_ir_tensor *out, tfcc_err *err) {
  static const tfcc_dtype ok[] = {TFCC_FLOAT32, TFCC_UINT8, TFCC_INT8};
  (void)node;
  log_softmax_op *p = (log_softmax_op *)params;
  tfcc_status st = act_check_types(err, in, out, ok, 3, "float32, uint8, int8");
  if (st || in->dtype == TFCC_FLOAT32) return st;
  int32_t z_in = 0;
  if ((st = act_quant_io(err, in, out, &p->in_scale, &z_in, &p->out_scale, &p->out_zp))) return st;
  const int32_t want_zp = in->dtype == TFCC_UINT8 ? 255 : 127;
  if ((double)p->out_scale != 16.0 / 256 || p->out_zp != want_zp)
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED,
                        "output needs scale 16/256 and zero point %d, "
                        "got %g and %d",
                        (int)want_zp, (double)p->out_scale, (int)p->out_zp);
  tfcc_softmax_table_build(p->table, p->in_scale, 1.0f);
  return TFCC_OK;
}

static tfcc_status init(tfcc_init_ctx *ctx) {
  return act_unary_init(ctx, sizeof(log_softmax_op), setup);
}

static tfcc_status prepare(tfcc_op_ctx *ctx) { return act_last_axis_prepare(ctx, "LOG_SOFTMAX"); }

static tfcc_status eval(tfcc_op_ctx *ctx) {
  const log_softmax_op *p = (const log_softmax_op *)ctx->params;
  const tfcc_tensor *in = ctx->in[0];
  const size_t depth = (size_t)in->dims[in->rank - 1];
  const size_t n = act_count(in);
  if (depth == 0 || n == 0) return TFCC_OK;
  if (p->head.in_type == TFCC_FLOAT32)
    tfcc_log_softmax_f32((const float *)in->data, (float *)ctx->out[0]->data, n / depth, depth);
  else
    tfcc_log_softmax_q8(p->head.in_type, in->data, ctx->out[0]->data, n / depth, depth, p->table,
                        p->in_scale, p->out_scale, p->out_zp);
  return TFCC_OK;
}

TFCC_OP_DEFINE(tfcc_op_log_softmax, "LOG_SOFTMAX", init, prepare, eval);
