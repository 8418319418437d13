/* SPACE_TO_BATCH_ND: inputs (input rank 3 or 4 NHWC, block_shape [rank-2], paddings [rank-2, 2]),
 * both known int32/int64. Padded positions get the output zero point byte (TFLite memsets
 * output_offset). */
#include "kernels/ref/pad.h"
#include "ops/shape_ops_util.h"

#define OP "SPACE_TO_BATCH_ND"

typedef struct s2b_params {
  int64_t block[2], pad[4];
  int32_t in4[4], out4[4];
} s2b_params;

static tfcc_status s2b_compute(tfcc_op_ctx *ctx, const tfcc_tensor *in, s2b_params *p,
                               int64_t *out_dims) {
  TFCC_OP_CHECK(ctx, in->rank == 3 || in->rank == 4, TFCC_ERR_SHAPE,
                OP ": input rank %d, expected 3 or 4", (int)in->rank);
  const int32_t m = in->rank - 2;
  int64_t nb, np;
  tfcc_status st;
  if ((st = tfcc_so_read_ints(ctx, OP, "block_shape", ctx->in[1], p->block, 2, &nb)) ||
      (st = tfcc_so_read_ints(ctx, OP, "paddings", ctx->in[2], p->pad, 4, &np)))
    return st;
  TFCC_OP_CHECK(ctx, nb == m && np == 2 * m, TFCC_ERR_SHAPE,
                OP ": block_shape has %lld and paddings %lld entries for %d spatial dimensions",
                (long long)nb, (long long)np, (int)m);
  out_dims[0] = in->dims[0];
  for (int32_t i = 0; i < m; i++) {
    TFCC_OP_CHECK(ctx, p->block[i] >= 1 && p->block[i] <= INT32_MAX, TFCC_ERR_INVALID_MODEL,
                  OP ": block_shape[%d] is %lld", (int)i, (long long)p->block[i]);
    TFCC_OP_CHECK(ctx, p->pad[2 * i] >= 0 && p->pad[2 * i + 1] >= 0 &&
                           p->pad[2 * i] <= INT32_MAX && p->pad[2 * i + 1] <= INT32_MAX,
                  TFCC_ERR_INVALID_MODEL, OP ": paddings of spatial dimension %d are negative",
                  (int)i);
    int64_t padded = in->dims[i + 1] + p->pad[2 * i] + p->pad[2 * i + 1];
    TFCC_OP_CHECK(ctx, padded % p->block[i] == 0, TFCC_ERR_SHAPE,
                  OP ": padded size %lld of spatial dimension %d not divisible by block %lld",
                  (long long)padded, (int)i, (long long)p->block[i]);
    out_dims[i + 1] = padded / p->block[i];
    out_dims[0] *= p->block[i];
  }
  out_dims[m + 1] = in->dims[m + 1];
  for (int32_t d = 0; d < 4; d++) p->in4[d] = p->out4[d] = 1;
  p->in4[0] = in->dims[0];
  p->in4[1] = in->dims[1];
  p->in4[2] = m == 2 ? in->dims[2] : 1;
  p->in4[3] = in->dims[m + 1];
  p->out4[0] = (int32_t)(out_dims[0] <= INT32_MAX ? out_dims[0] : -1);
  p->out4[1] = (int32_t)out_dims[1];
  p->out4[2] = m == 2 ? (int32_t)out_dims[2] : 1;
  p->out4[3] = in->dims[m + 1];
  if (m == 1) {
    p->block[1] = 1;
    p->pad[2] = 0;
  }
  return TFCC_OK;
}

static tfcc_status s2b_prepare(tfcc_op_ctx *ctx) {
  tfcc_status st = tfcc_so_check_arity(ctx, OP, 3, 3, 1);
  if (st) return st;
  tfcc_tensor *in, *t;
  if ((st = tfcc_so_input(ctx, 0, OP, &in)) || (st = tfcc_so_input(ctx, 1, OP, &t)) ||
      (st = tfcc_so_input(ctx, 2, OP, &t)))
    return st;
  static const int ok[] = {TFCC_FLOAT32, TFCC_UINT8, TFCC_INT8, TFCC_INT16, TFCC_INT32, TFCC_INT64,
                           TFCC_FLOAT16, -1};
  if ((st = tfcc_so_check_dtype(ctx, OP, "input", in->dtype, ok))) return st;
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, ctx->out[0], in->dtype))) return st;
  s2b_params p;
  int64_t dims[4];
  if ((st = s2b_compute(ctx, in, &p, dims))) return st;
  return tfcc_so_set_shape(ctx, OP, ctx->out[0], in->rank, dims);
}

static tfcc_status s2b_eval(tfcc_op_ctx *ctx) {
  s2b_params p;
  int64_t dims[4];
  tfcc_status st = s2b_compute(ctx, ctx->in[0], &p, dims);
  if (st) return st;
  tfcc_ref_space_to_batch(ctx->in[0]->data, p.in4, p.out4, (int32_t)p.block[0],
                          (int32_t)p.block[1], (int32_t)p.pad[0], (int32_t)p.pad[2],
                          (uint8_t)tfcc_so_zero_point(ctx->out[0]),
                          tfcc_dtype_size(ctx->in[0]->dtype), ctx->out[0]->data);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_space_to_batch_nd = {
    .name = OP, .prepare = s2b_prepare, .eval = s2b_eval};
