/* SQUEEZE: removes the size-1 dimensions listed in SqueezeOptions.squeeze_dims (negative
 * allowed), or every size-1 dimension when the list is empty. */
#include "ops/shape_ops_util.h"

#define OP "SQUEEZE"

static tfcc_status squeeze_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *in, *out;
  tfcc_status st = tfcc_so_open_io(ctx, OP, 1, 1, NULL, &in, &out);
  if (st) return st;
  bool drop[TFCC_MAX_RANK] = {false};
  const tfcc_squeeze_options *o = &ctx->node->opts.squeeze;
  if (o->n_dims > 0) {
    TFCC_OP_CHECK(ctx, o->n_dims <= TFCC_MAX_RANK, TFCC_ERR_INVALID_MODEL, OP ": %u squeeze_dims",
                  (unsigned)o->n_dims);
    for (uint32_t i = 0; i < o->n_dims; i++) {
      int32_t a;
      if ((st = tfcc_so_axis(ctx, OP, o->dims[i], in->rank, &a))) return st;
      TFCC_OP_CHECK(ctx, in->dims[a] == 1, TFCC_ERR_SHAPE,
                    OP ": cannot squeeze dimension %d of size %d", (int)a, (int)in->dims[a]);
      drop[a] = true;
    }
  } else {
    for (int32_t d = 0; d < in->rank; d++) drop[d] = in->dims[d] == 1;
  }
  int64_t dims[TFCC_MAX_RANK];
  int32_t r = 0;
  for (int32_t d = 0; d < in->rank; d++)
    if (!drop[d]) dims[r++] = in->dims[d];
  return tfcc_so_set_shape(ctx, OP, out, r, dims);
}

static tfcc_status squeeze_eval(tfcc_op_ctx *ctx) {
  tfcc_so_copy(ctx->out[0], ctx->in[0]);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_squeeze = {
    .name = OP, .prepare = squeeze_prepare, .eval = squeeze_eval, .output_is_view = true};
