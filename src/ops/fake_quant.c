/* FAKE_QUANT: float32 -> float32 of the same shape, each value rounded to the nearest of the
 * 2^num_bits levels of [min, max] nudged so that 0 is a level (FakeQuantOptions min, max,
 * num_bits; fake_quant.cc, reference FakeQuant). narrow_range is refused, as TFLite refuses it. */
#include "kernels/ref/fake_quant.h"
#include "ops/shape_ops_util.h"

#define OP "FAKE_QUANT"

static tfcc_status fake_quant_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *in;
  tfcc_status st = tfcc_so_open_f32(ctx, OP, &in);
  if (st) return st;
  const tfcc_fake_quant_options *o = &ctx->node->opts.fake_quant;
  TFCC_OP_CHECK(ctx, o->num_bits >= 2 && o->num_bits <= 16, TFCC_ERR_INVALID_MODEL,
                OP ": num_bits %d outside [2, 16]", (int)o->num_bits);
  TFCC_OP_CHECK(ctx, !o->narrow_range, TFCC_ERR_UNSUPPORTED,
                OP ": narrow_range is not supported at run time (TFLite: it is for weights only)");
  TFCC_OP_CHECK(ctx, o->min < o->max, TFCC_ERR_INVALID_MODEL, OP ": min %g must be below max %g",
                (double)o->min, (double)o->max);
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, ctx->out[0], TFCC_FLOAT32))) return st;
  return tfcc_tensor_set_shape(ctx->out[0], in->rank, in->dims, ctx->err);
}

static tfcc_status fake_quant_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *in = ctx->in[0];
  const tfcc_fake_quant_options *o = &ctx->node->opts.fake_quant;
  tfcc_ref_fake_quant_f32(in->data, tfcc_tensor_elements(in), o->min, o->max, 0,
                          (1 << o->num_bits) - 1, ctx->out[0]->data);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_fake_quant = {
    .name = OP, .prepare = fake_quant_prepare, .eval = fake_quant_eval};
