/* ZEROS_LIKE: a tensor of zeros with the input's shape and dtype (zeros_like.cc: int32, int64,
 * float32; any fixed-size dtype works the same here). */
#include <string.h>

#include "ops/binary_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  tfcc_status st = tfcc_elem_check_io(ctx, "ZEROS_LIKE", 1, 1);
  if (st != TFCC_OK) return st;
  const tfcc_tensor *in = ctx->in[0];
  tfcc_tensor *o = ctx->out[0];
  TFCC_OP_CHECK(ctx, o->dtype == in->dtype, TFCC_ERR_DTYPE,
                "ZEROS_LIKE: output dtype %s, expected %s", tfcc_dtype_name(o->dtype),
                tfcc_dtype_name(in->dtype));
  TFCC_OP_CHECK(ctx, tfcc_dtype_size(in->dtype) > 0, TFCC_ERR_UNSUPPORTED,
                "ZEROS_LIKE: dtype %s not supported", tfcc_dtype_name(in->dtype));
  return tfcc_tensor_set_shape(o, in->rank, in->dims, ctx->err);
}

static tfcc_status eval(tfcc_op_ctx *ctx) {
  tfcc_tensor *o = ctx->out[0];
  const size_t bytes = (size_t)tfcc_tensor_elements(o) * tfcc_dtype_size(o->dtype);
  if (bytes) memset(o->data, 0, bytes);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_zeros_like = {.name = "ZEROS_LIKE", .prepare = prepare, .eval = eval};
