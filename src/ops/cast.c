/* CAST: static_cast of every element between bool, uint8, int8, uint16, int16, uint32, int32,
 * uint64, int64, float16, float32, float64, bfloat16 (cast.cc; bfloat16 as Eigen::bfloat16: round
 * to nearest even through float32). The output dtype comes from the model. types: float8 e4m3fn /
 * e5m2 to and from all of those (v9, through float32 as ml_dtypes converts), run-time int2 /
 * uint4 (one value per byte; v8) and int4 to float32 / float8, and float32 to them. */
#include "ops/binary_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  tfcc_status st = tfcc_elem_check_io(ctx, "CAST", 1, 1);
  if (st != TFCC_OK) return st;
  const tfcc_tensor *in = ctx->in[0];
  tfcc_tensor *o = ctx->out[0];
  TFCC_OP_CHECK(ctx, tfcc_ref_cast_supported(in->dtype, o->dtype), TFCC_ERR_UNSUPPORTED,
                "CAST: %s to %s not supported", tfcc_dtype_name(in->dtype),
                tfcc_dtype_name(o->dtype));
  return tfcc_tensor_set_shape(o, in->rank, in->dims, ctx->err);
}

static tfcc_status eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *in = ctx->in[0];
  tfcc_tensor *o = ctx->out[0];
  if (!tfcc_ref_cast(in->dtype, o->dtype, in->data, o->data, tfcc_tensor_elements(in)))
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, "CAST: %s to %s not supported",
                        tfcc_dtype_name(in->dtype), tfcc_dtype_name(o->dtype));
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_cast = {.name = "CAST", .prepare = prepare, .eval = eval};
