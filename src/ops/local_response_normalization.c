/* LOCAL_RESPONSE_NORMALIZATION: float32 rank-4 input, LocalResponseNormalizationOptions
 * radius, bias, alpha, beta; out = in * (bias + alpha * sum of squares over the channels within
 * radius)^-beta along the last dimension (local_response_norm.cc). */
#include "kernels/ref/lrn.h"
#include "ops/shape_ops_util.h"
#include "ops/work_estimate.h"

#define OP "LOCAL_RESPONSE_NORMALIZATION"

static tfcc_status lrn_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *in;
  tfcc_status st = tfcc_so_open_f32(ctx, OP, &in);
  if (st) return st;
  TFCC_OP_CHECK(ctx, in->rank == 4, TFCC_ERR_SHAPE, OP ": input rank %d, expected 4",
                (int)in->rank);
  TFCC_OP_CHECK(ctx, ctx->node->opts.lrn.radius >= 0, TFCC_ERR_INVALID_MODEL,
                OP ": radius %d is negative", (int)ctx->node->opts.lrn.radius);
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, ctx->out[0], TFCC_FLOAT32))) return st;
  return tfcc_tensor_set_shape(ctx->out[0], in->rank, in->dims, ctx->err);
}

static tfcc_status lrn_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *in = ctx->in[0];
  const tfcc_lrn_options *o = &ctx->node->opts.lrn;
  const int64_t depth = in->dims[3];
  tfcc_ref_lrn_f32(in->data, depth ? tfcc_tensor_elements(in) / depth : 0, depth, o->radius,
                   o->bias, o->alpha, o->beta, ctx->out[0]->data);
  return TFCC_OK;
}

/* The squares eval sums (macs hook): each element's window of 2 radius + 1 channels, clipped
 * to the depth, so quadratic in a deep input's depth. */
static int64_t lrn_macs(const tfcc_op_ctx *ctx) {
  if (ctx->n_in < 1 || !ctx->in[0] || ctx->in[0]->rank != 4) return 0;
  const int64_t depth = ctx->in[0]->dims[3], win = 2 * (int64_t)ctx->node->opts.lrn.radius + 1;
  return tfcc_work_mul(tfcc_tensor_elements(ctx->in[0]), win < depth ? win : depth);
}

const tfcc_op_def tfcc_op_local_response_normalization = {
    .name = OP, .prepare = lrn_prepare, .eval = lrn_eval, .macs = lrn_macs};
