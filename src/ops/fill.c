/* FILL: output of shape `dims` (input 0: 1-D int32 or int64, values known at prepare, each
 * >= 0) with every element equal to the scalar `value` (input 1); output dtype = value dtype
 * (fill.cc). */
#include "ops/binary_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  tfcc_status st = tfcc_elem_check_io(ctx, "FILL", 2, 1);
  if (st != TFCC_OK) return st;
  const tfcc_tensor *dims = ctx->in[0], *value = ctx->in[1];
  tfcc_tensor *o = ctx->out[0];
  TFCC_OP_CHECK(ctx, dims->dtype == TFCC_INT32 || dims->dtype == TFCC_INT64, TFCC_ERR_DTYPE,
                "FILL: dims dtype %s, expected int32 or int64", tfcc_dtype_name(dims->dtype));
  TFCC_OP_CHECK(ctx, dims->rank == 1, TFCC_ERR_SHAPE, "FILL: dims has rank %d, expected 1",
                (int)dims->rank);
  if (!dims->known || !dims->data)
    return TFCC_OP_NEEDS_DATA(ctx, dims, "FILL: dims (tensor %d) is known only while running",
                              (int)dims->index);
  TFCC_OP_CHECK(ctx, value->rank == 0, TFCC_ERR_SHAPE, "FILL: value has rank %d, expected a scalar",
                (int)value->rank);
  TFCC_OP_CHECK(ctx, o->dtype == value->dtype, TFCC_ERR_DTYPE, "FILL: output dtype %s, expected %s",
                tfcc_dtype_name(o->dtype), tfcc_dtype_name(value->dtype));
  TFCC_OP_CHECK(ctx, tfcc_dtype_size(value->dtype) > 0, TFCC_ERR_UNSUPPORTED,
                "FILL: dtype %s not supported", tfcc_dtype_name(value->dtype));
  const int32_t rank = dims->dims[0];
  TFCC_OP_CHECK(ctx, rank <= TFCC_MAX_RANK, TFCC_ERR_UNSUPPORTED, "FILL: output rank %d exceeds %d",
                (int)rank, TFCC_MAX_RANK);
  int32_t out_dims[TFCC_MAX_RANK];
  int64_t total = 1;
  for (int32_t i = 0; i < rank; i++) {
    int64_t d = dims->dtype == TFCC_INT32 ? ((const int32_t *)dims->data)[i]
                                          : ((const int64_t *)dims->data)[i];
    TFCC_OP_CHECK(ctx, d >= 0 && d <= INT32_MAX, TFCC_ERR_SHAPE,
                  "FILL: dimension %d is %lld (must be >= 0)", (int)i, (long long)d);
    out_dims[i] = (int32_t)d;
    total *= d;
    TFCC_OP_CHECK(ctx, total <= INT32_MAX, TFCC_ERR_SHAPE, "FILL: output has too many elements");
  }
  return tfcc_tensor_set_shape(o, rank, out_dims, ctx->err);
}

static tfcc_status eval(tfcc_op_ctx *ctx) {
  tfcc_tensor *o = ctx->out[0];
  tfcc_ref_fill(o->data, tfcc_tensor_elements(o), ctx->in[1]->data, tfcc_dtype_size(o->dtype));
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_fill = {.name = "FILL", .prepare = prepare, .eval = eval};
