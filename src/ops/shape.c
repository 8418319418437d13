/* SHAPE: the input's dimensions as a 1-D int32 or int64 tensor (ShapeOptions.out_type; the
 * output dtype from the model must match it). Cheap: the session may fold it at prepare. */
#include <string.h>

#include "ops/shape_ops_util.h"

#define OP "SHAPE"

static tfcc_status shape_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *in;
  tfcc_status st = tfcc_so_open(ctx, OP, 1, 1, 1, &in);
  if (st) return st;
  tfcc_tensor *out = ctx->out[0];
  const tfcc_type_options *o = &ctx->node->opts.shape;
  int32_t out_type = o->type;
  TFCC_OP_CHECK(ctx, out_type == TFCC_INT32 || out_type == TFCC_INT64, TFCC_ERR_UNSUPPORTED,
                OP ": out_type %s is not supported (int32 or int64)",
                tfcc_dtype_name((tfcc_dtype)out_type));
  if (out->dtype != (tfcc_dtype)out_type && o->has_type)
    return tfcc_so_check_out_dtype(ctx, OP, 0, out, (tfcc_dtype)out_type);
  TFCC_OP_CHECK(ctx, out->dtype == TFCC_INT32 || out->dtype == TFCC_INT64, TFCC_ERR_DTYPE,
                OP ": output dtype %s, expected int32 or int64", tfcc_dtype_name(out->dtype));
  int64_t dims[1] = {in->rank};
  return tfcc_so_set_shape(ctx, OP, out, 1, dims);
}

static tfcc_status shape_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *in = ctx->in[0];
  tfcc_tensor *out = ctx->out[0];
  for (int32_t d = 0; d < in->rank; d++) {
    if (out->dtype == TFCC_INT64) {
      int64_t v = in->dims[d];
      memcpy((uint8_t *)out->data + 8 * d, &v, 8);
    } else {
      int32_t v = in->dims[d];
      memcpy((uint8_t *)out->data + 4 * d, &v, 4);
    }
  }
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_shape = {
    .name = OP, .prepare = shape_prepare, .eval = shape_eval, .reads_shapes_only = true};
