/* EXPAND_DIMS: inserts a size-1 dimension at the known axis input (int32/int64, one element;
 * axis in [-(rank+1), rank]); quantized input and output share scale and zero point. */
#include "ops/shape_ops_util.h"

#define OP "EXPAND_DIMS"

static tfcc_status expand_dims_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *in, *ax;
  tfcc_status st = tfcc_so_open(ctx, OP, 2, 2, 1, &in);
  if (st || (st = tfcc_so_input(ctx, 1, OP, &ax))) return st;
  tfcc_tensor *out = ctx->out[0];
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, out, in->dtype))) return st;
  /* TFLite's Prepare (both builds) refuses a quantized EXPAND_DIMS whose output scale or zero
   * point differs from the input's: the copy would reinterpret the values. */
  if (in->dtype == TFCC_UINT8 || in->dtype == TFCC_INT8 || in->dtype == TFCC_INT16) {
    const float si = tfcc_so_scale(in), so = tfcc_so_scale(out);
    const int32_t zi = tfcc_so_zero_point(in), zo = tfcc_so_zero_point(out);
    TFCC_OP_CHECK(ctx, si == so && zi == zo, TFCC_ERR_UNSUPPORTED,
                  OP
                  ": %s output quantization (scale %g, zero point %d) differs from the "
                  "input's (scale %g, zero point %d); TFLite requires them equal",
                  tfcc_dtype_name(in->dtype), (double)so, (int)zo, (double)si, (int)zi);
  }
  int64_t axis_v, n;
  if ((st = tfcc_so_read_ints(ctx, OP, "axis", ax, &axis_v, 1, &n))) return st;
  TFCC_OP_CHECK(ctx, n == 1, TFCC_ERR_SHAPE, OP ": axis has %lld elements, expected 1",
                (long long)n);
  int32_t axis;
  if ((st = tfcc_so_axis(ctx, OP, axis_v, in->rank + 1, &axis))) return st;
  int64_t dims[TFCC_MAX_RANK + 1];
  for (int32_t d = 0, s = 0; d <= in->rank; d++) dims[d] = d == axis ? 1 : in->dims[s++];
  return tfcc_so_set_shape(ctx, OP, out, in->rank + 1, dims);
}

static tfcc_status expand_dims_eval(tfcc_op_ctx *ctx) {
  tfcc_so_copy(ctx->out[0], ctx->in[0]);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_expand_dims = {
    .name = OP, .prepare = expand_dims_prepare, .eval = expand_dims_eval, .output_is_view = true};
