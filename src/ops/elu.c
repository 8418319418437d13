/* ELU (alpha 1): float32; int8 through a 256-entry table of expm1 (EluPrepare; TFLITE mode:
 * XNNPACK's table, ties to even). */
#include "kernels/ref/activation.h"
#include "ops/act_common.h"
#include "ops/act_kernels.h"

typedef struct elu_op {
  act_head head;
  uint8_t lut[256];
} elu_op;

static tfcc_status setup(void *params, const tfcc_ir_node *node, const tfcc_ir_tensor *in,
                         const tfcc_ir_tensor *out, tfcc_err *err) {
  static const tfcc_dtype ok[] = {TFCC_FLOAT32, TFCC_INT8};
  elu_op *p = (elu_op *)params;
  act_io io;
  tfcc_status st = act_open_io(err, in, out, ok, 2, "float32, int8", &io);
  if (st || !io.quantized) return st;
  /* TFLITE mode: the XNNPACK delegate takes int8 ELU (its table rounds ties to even) */
  if (p->head.quant_compat == TFCC_QUANT_COMPAT_TFLITE)
    tfcc_lut8_build_xnn(in->dtype, io.s_in, io.z_in, io.s_out, io.z_out, tfcc_act_elu, p->lut);
  else
    tfcc_lut8_build(in->dtype, io.s_in, io.z_in, io.s_out, io.z_out, tfcc_act_elu, p->lut);
  return TFCC_OK;
}

static tfcc_status init(tfcc_init_ctx *ctx) { return act_unary_init(ctx, sizeof(elu_op), setup); }

static tfcc_status eval(tfcc_op_ctx *ctx) {
  const elu_op *p = (const elu_op *)ctx->params;
  const size_t n = act_count(ctx->in[0]);
  if (p->head.in_type == TFCC_FLOAT32)
    tfcc_elu_f32((const float *)ctx->in[0]->data, (float *)ctx->out[0]->data, n);
  else
    act_run_lut(ctx, p->lut);
  return TFCC_OK;
}

TFCC_OP_DEFINE(tfcc_op_elu, "ELU", init, act_unary_prepare, eval);
