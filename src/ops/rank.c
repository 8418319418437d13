/* RANK: the input's rank as an int32 scalar (TFLite rank.cc). Reads only the input's shape. */
#include "ops/shape_ops_util.h"

#define OP "RANK"

static tfcc_status rank_prepare(tfcc_op_ctx *ctx) {
  static const tfcc_dtype k_int32 = TFCC_INT32;
  tfcc_tensor *in, *out;
  tfcc_status st = tfcc_so_open_io(ctx, OP, 1, 1, &k_int32, &in, &out);
  return st ? st : tfcc_so_set_shape(ctx, OP, out, 0, NULL);
}

static tfcc_status rank_eval(tfcc_op_ctx *ctx) {
  *(int32_t *)ctx->out[0]->data = ctx->in[0]->rank;
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_rank = {
    .name = OP, .prepare = rank_prepare, .eval = rank_eval, .reads_shapes_only = true};
