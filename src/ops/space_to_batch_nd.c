/* SPACE_TO_BATCH_ND: inputs (input rank 3 or 4 NHWC, block_shape [rank-2], paddings [rank-2, 2]),
 * both known int32/int64. Padded positions get the output zero point byte (TFLite memsets
 * output_offset). Runs kernels/move's per-block box copies; tfcc_ref_space_to_batch is their
 * reference twin (tests/ops/test_move_ops.c). */
#include "kernels/move/space_batch.h"
#include "ops/shape_ops_util.h"
#include "ops/space_batch_args.h"

#define OP "SPACE_TO_BATCH_ND"

static tfcc_status s2b_compute(tfcc_op_ctx *ctx, const tfcc_tensor *in, tfcc_space_batch *p,
                               int64_t *out_dims) {
  int32_t m;
  tfcc_status st = tfcc_space_batch_args(ctx, OP, in, "paddings", p->block, p->pairs, &m);
  if (st) return st;
  out_dims[0] = in->dims[0];
  for (int32_t i = 0; i < m; i++) {
    int64_t padded = in->dims[i + 1] + p->pairs[2 * i] + p->pairs[2 * i + 1];
    TFCC_OP_CHECK(ctx, padded % p->block[i] == 0, TFCC_ERR_SHAPE,
                  OP ": padded size %lld of spatial dimension %d not divisible by block %lld",
                  (long long)padded, (int)i, (long long)p->block[i]);
    out_dims[i + 1] = padded / p->block[i];
    out_dims[0] *= p->block[i];
  }
  out_dims[m + 1] = in->dims[m + 1];
  tfcc_space_batch_dims4(in, out_dims, p);
  return TFCC_OK;
}

static tfcc_status s2b_prepare(tfcc_op_ctx *ctx) {
  return tfcc_space_batch_prepare(ctx, OP, s2b_compute);
}

static tfcc_status s2b_eval(tfcc_op_ctx *ctx) {
  tfcc_space_batch p;
  int64_t dims[4];
  tfcc_status st = s2b_compute(ctx, ctx->in[0], &p, dims);
  if (st) return st;
  tfcc_move_space_to_batch(ctx->in[0]->data, p.in4, p.out4, (int32_t)p.block[0],
                           (int32_t)p.block[1], (int32_t)p.pairs[0], (int32_t)p.pairs[2],
                           (uint8_t)tfcc_so_zero_point(ctx->out[0]),
                           tfcc_dtype_size(ctx->in[0]->dtype), ctx->out[0]->data);
  return TFCC_OK;
}

/* The planned copy's kind (kernels/move; the reference kernel is its twin). */
static const char *s2b_kernel(const tfcc_op_ctx *ctx) {
  tfcc_op_quiet q;
  tfcc_space_batch p;
  int64_t dims[4];
  if (ctx->n_in < 3 || !ctx->in[0] || !ctx->in[1] || !ctx->in[2] || ctx->n_out < 1 ||
      s2b_compute(tfcc_op_quiet_ctx(ctx, &q), ctx->in[0], &p, dims))
    return "ref";
  return tfcc_move_space_batch_kind(p.in4, p.out4, (int32_t)p.block[0], (int32_t)p.block[1],
                                    tfcc_dtype_size(ctx->in[0]->dtype));
}

const tfcc_op_def tfcc_op_space_to_batch_nd = {
    .name = OP, .prepare = s2b_prepare, .eval = s2b_eval, .kernel = s2b_kernel};
