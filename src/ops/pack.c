/* PACK: stacks values_count inputs of one shape along a new axis (PackOptions: values_count,
 * axis; axis in [-(rank+1), rank]). */
#include "kernels/ref/copy.h"
#include "ops/shape_ops_util.h"

#define OP "PACK"
#define PACK_MAX_INPUTS 4096

static tfcc_status pack_prepare(tfcc_op_ctx *ctx) {
  tfcc_status st = tfcc_so_check_arity(ctx, OP, 1, PACK_MAX_INPUTS, 1);
  if (st) return st;
  int32_t count = ctx->node->opts.pack.count;
  int32_t axis_opt = ctx->node->opts.pack.axis;
  TFCC_OP_CHECK(ctx, count == ctx->n_in, TFCC_ERR_INVALID_MODEL,
                OP ": values_count %d but the node has %d inputs", (int)count, (int)ctx->n_in);
  tfcc_tensor *t0;
  if ((st = tfcc_so_input(ctx, 0, OP, &t0))) return st;
  TFCC_OP_CHECK(ctx, tfcc_so_copyable(t0->dtype), TFCC_ERR_UNSUPPORTED,
                OP ": input dtype %s is not supported", tfcc_dtype_name(t0->dtype));
  int32_t axis;
  if ((st = tfcc_so_axis(ctx, OP, axis_opt, t0->rank + 1, &axis))) return st;
  for (int32_t i = 1; i < ctx->n_in; i++) {
    tfcc_tensor *t;
    if ((st = tfcc_so_input_like(ctx, i, OP, t0, &t))) return st;
    for (int32_t d = 0; d < t0->rank; d++)
      TFCC_OP_CHECK(ctx, t->dims[d] == t0->dims[d], TFCC_ERR_SHAPE,
                    OP ": input %d dimension %d is %d, expected %d", (int)i, (int)d,
                    (int)t->dims[d], (int)t0->dims[d]);
  }
  tfcc_tensor *out = ctx->out[0];
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, out, t0->dtype))) return st;
  int64_t dims[TFCC_MAX_RANK + 1];
  for (int32_t d = 0, s = 0; d <= t0->rank; d++) dims[d] = d == axis ? count : t0->dims[s++];
  ctx->scratch_bytes = (size_t)ctx->n_in * (sizeof(void *) + sizeof(size_t));
  return tfcc_so_set_shape(ctx, OP, out, t0->rank + 1, dims);
}

static tfcc_status pack_eval(tfcc_op_ctx *ctx) {
  tfcc_tensor *out = ctx->out[0];
  int32_t axis = ctx->node->opts.pack.axis;
  if (axis < 0) axis += out->rank;
  size_t inner = (size_t)tfcc_so_prod(out->dims, axis + 1, out->rank) * tfcc_dtype_size(out->dtype);
  const void **ptrs = (const void **)ctx->scratch;
  size_t *bytes = (size_t *)(void *)((uint8_t *)ctx->scratch + (size_t)ctx->n_in * sizeof(void *));
  for (int32_t i = 0; i < ctx->n_in; i++) {
    ptrs[i] = ctx->in[i]->data;
    bytes[i] = inner;
  }
  tfcc_ref_concat(ctx->n_in, ptrs, bytes, tfcc_so_prod(out->dims, 0, axis), out->data);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_pack = {.name = OP, .prepare = pack_prepare, .eval = pack_eval};
