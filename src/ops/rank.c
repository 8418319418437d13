/* RANK: the input's rank as an int32 scalar (TFLite rank.cc). Reads only the input's shape. */
#include "ops/shape_ops_util.h"

#define OP "RANK"

static tfcc_status rank_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *in;
  tfcc_status st = tfcc_so_open(ctx, OP, 1, 1, 1, &in);
  if (st) return st;
  tfcc_tensor *out = ctx->out[0];
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, out, TFCC_INT32))) return st;
  return tfcc_so_set_shape(ctx, OP, out, 0, NULL);
}

static tfcc_status rank_eval(tfcc_op_ctx *ctx) {
  *(int32_t *)ctx->out[0]->data = ctx->in[0]->rank;
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_rank = {
    .name = OP, .prepare = rank_prepare, .eval = rank_eval, .reads_shapes_only = true};
