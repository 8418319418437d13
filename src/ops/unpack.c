/* UNPACK: splits the input along `axis` into `num` outputs with that axis removed
 * (UnpackOptions: num, axis). */
#include "kernels/ref/copy.h"
#include "ops/shape_ops_util.h"

#define OP "UNPACK"

static tfcc_status unpack_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *in;
  tfcc_status st = tfcc_so_open(ctx, OP, 1, 1, -1, &in);
  if (st) return st;
  int32_t num = ctx->node->opts.pack.count;
  int32_t axis;
  if ((st = tfcc_so_axis(ctx, OP, ctx->node->opts.pack.axis, in->rank, &axis))) return st;
  TFCC_OP_CHECK(ctx, tfcc_so_copyable(in->dtype), TFCC_ERR_UNSUPPORTED,
                OP ": input dtype %s is not supported", tfcc_dtype_name(in->dtype));
  TFCC_OP_CHECK(ctx, in->dims[axis] == num && num == ctx->n_out, TFCC_ERR_SHAPE,
                OP ": num %d, dimension %d is %d, node has %d outputs", (int)num, (int)axis,
                (int)in->dims[axis], (int)ctx->n_out);
  int64_t dims[TFCC_MAX_RANK];
  for (int32_t d = 0, o = 0; d < in->rank; d++)
    if (d != axis) dims[o++] = in->dims[d];
  for (int32_t i = 0; i < ctx->n_out; i++) {
    if ((st = tfcc_so_check_out_dtype(ctx, OP, i, ctx->out[i], in->dtype))) return st;
    if ((st = tfcc_so_set_shape(ctx, OP, ctx->out[i], in->rank - 1, dims))) return st;
  }
  ctx->scratch_bytes = (size_t)ctx->n_out * (sizeof(void *) + sizeof(size_t));
  return TFCC_OK;
}

static tfcc_status unpack_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *in = ctx->in[0];
  int32_t axis = ctx->node->opts.pack.axis;
  if (axis < 0) axis += in->rank;
  size_t inner = (size_t)tfcc_so_prod(in->dims, axis + 1, in->rank) * tfcc_dtype_size(in->dtype);
  void **ptrs = (void **)ctx->scratch;
  size_t *bytes = (size_t *)(void *)((uint8_t *)ctx->scratch + (size_t)ctx->n_out * sizeof(void *));
  for (int32_t i = 0; i < ctx->n_out; i++) {
    ptrs[i] = ctx->out[i]->data;
    bytes[i] = inner;
  }
  tfcc_ref_split(in->data, ctx->n_out, ptrs, bytes, tfcc_so_prod(in->dims, 0, axis));
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_unpack = {.name = OP, .prepare = unpack_prepare, .eval = unpack_eval};
