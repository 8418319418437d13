/* RESHAPE: new shape from input 1 (a 1-D int32 tensor, as TFLite's ShapeIsVector) when present,
 * else from ReshapeOptions.new_shape (where [0] means a scalar, as legacy TFLite models use).
 * One -1 entry takes the remaining size; the element count must match. */
#include "ops/shape_ops_util.h"

#define OP "RESHAPE"

static tfcc_status reshape_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *in, *out;
  tfcc_status st = tfcc_so_open_io(ctx, OP, 1, 2, NULL, &in, &out);
  if (st) return st;
  int64_t shape[TFCC_MAX_RANK + 1], n = 0;
  const tfcc_tensor *sh = ctx->n_in > 1 ? ctx->in[1] : NULL;
  if (sh && sh->rank == 1 && sh->dtype == TFCC_INT32) {
    if ((st = tfcc_so_read_ints(ctx, OP, "shape", sh, shape, TFCC_MAX_RANK, &n))) return st;
  } else {
    const tfcc_reshape_options *o = &ctx->node->opts.reshape;
    if (o->has_new_shape) {
      TFCC_OP_CHECK(ctx, o->n_new_shape <= TFCC_MAX_RANK, TFCC_ERR_SHAPE,
                    OP ": new_shape has %u entries, at most %d supported", (unsigned)o->n_new_shape,
                    TFCC_MAX_RANK);
      n = o->n_new_shape;
      for (uint32_t i = 0; i < o->n_new_shape; i++) shape[i] = o->new_shape[i];
      if (n == 1 && shape[0] == 0) n = 0; /* legacy scalar */
    } else if (sh) {
      return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                          OP ": shape input must be a 1-D int32 tensor (got %s rank %d)",
                          tfcc_dtype_name(sh->dtype), (int)sh->rank);
    } else {
      return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                          OP ": no shape input and no new_shape option");
    }
  }
  int64_t total = tfcc_tensor_elements(in), known = 1;
  int32_t stretch = -1;
  for (int32_t i = 0; i < n; i++) {
    if (shape[i] == -1) {
      TFCC_OP_CHECK(ctx, stretch < 0, TFCC_ERR_INVALID_MODEL, OP ": more than one -1 in new shape");
      stretch = i;
    } else {
      TFCC_OP_CHECK(ctx, shape[i] >= 0 && shape[i] <= INT32_MAX, TFCC_ERR_INVALID_MODEL,
                    OP ": new shape dimension %d is %lld", (int)i, (long long)shape[i]);
      known *= shape[i];
      TFCC_OP_CHECK(ctx, known <= total || total == 0, TFCC_ERR_SHAPE,
                    OP ": new shape has more elements than the input's %lld", (long long)total);
    }
  }
  if (stretch >= 0) {
    TFCC_OP_CHECK(ctx, known != 0 && total % known == 0, TFCC_ERR_SHAPE,
                  OP ": cannot infer -1: %lld input elements, %lld in the other dimensions",
                  (long long)total, (long long)known);
    shape[stretch] = total / known;
    known *= shape[stretch];
  }
  TFCC_OP_CHECK(ctx, known == total, TFCC_ERR_SHAPE,
                OP ": new shape has %lld elements, input has %lld", (long long)known,
                (long long)total);
  return tfcc_so_set_shape(ctx, OP, out, (int32_t)n, shape);
}

static tfcc_status reshape_eval(tfcc_op_ctx *ctx) {
  tfcc_so_copy(ctx->out[0], ctx->in[0]);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_reshape = {
    .name = OP, .prepare = reshape_prepare, .eval = reshape_eval, .output_is_view = true};
