/* Paddings reading, prepare, eval and the default pad value shared by PAD / PADV2 / MIRROR_PAD. */
#include "ops/pad_common.h"

#include <string.h>

#include "kernels/f32-copy/pad.h"
#include "kernels/ref/pad.h"
#include "ops/shape_ops_util.h"

tfcc_status tfcc_pad_read(tfcc_op_ctx *ctx, const char *op, const tfcc_tensor *in,
                          const tfcc_tensor *paddings, int64_t *before, int64_t *after) {
  int64_t v[2 * TFCC_MAX_RANK], n;
  tfcc_status st = tfcc_so_read_ints(ctx, op, "paddings", paddings, v, 2 * TFCC_MAX_RANK, &n);
  if (st) return st;
  TFCC_OP_CHECK(ctx, paddings->rank == 2 && paddings->dims[0] == in->rank && paddings->dims[1] == 2,
                TFCC_ERR_SHAPE, "%s: paddings must have shape [%d, 2]", op, (int)in->rank);
  for (int32_t d = 0; d < in->rank; d++) {
    before[d] = v[2 * d];
    after[d] = v[2 * d + 1];
    TFCC_OP_CHECK(
        ctx, before[d] >= 0 && after[d] >= 0 && before[d] <= INT32_MAX && after[d] <= INT32_MAX,
        TFCC_ERR_INVALID_MODEL, "%s: paddings of dimension %d are (%lld, %lld)", op, (int)d,
        (long long)before[d], (long long)after[d]);
  }
  return TFCC_OK;
}

tfcc_status tfcc_pad_prepare_common(tfcc_op_ctx *ctx, const char *op, int32_t min_in,
                                    int32_t max_in) {
  tfcc_tensor *in, *pd;
  tfcc_status st = tfcc_so_open(ctx, op, min_in, max_in, 1, &in);
  if (st || (st = tfcc_so_input(ctx, 1, op, &pd))) return st;
  static const int ok[] = {TFCC_FLOAT32,     TFCC_UINT8, TFCC_INT8,
                           TFCC_INT16,       TFCC_INT32, TFCC_INT64,
                           TFCC_FLOAT16,     TFCC_BOOL,  TFCC_FLOAT8_E4M3FN,
                           TFCC_FLOAT8_E5M2, -1}; /* types: float8 (v6), padded with byte 0 */
  if ((st = tfcc_so_check_dtype(ctx, op, "input", in->dtype, ok))) return st;
  if ((st = tfcc_so_check_out_dtype(ctx, op, 0, ctx->out[0], in->dtype))) return st;
  int64_t before[TFCC_MAX_RANK], after[TFCC_MAX_RANK], dims[TFCC_MAX_RANK];
  if ((st = tfcc_pad_read(ctx, op, in, pd, before, after))) return st;
  for (int32_t d = 0; d < in->rank; d++) dims[d] = in->dims[d] + before[d] + after[d];
  return tfcc_so_set_shape(ctx, op, ctx->out[0], in->rank, dims);
}

tfcc_status tfcc_pad_eval_common(tfcc_op_ctx *ctx, const char *op, const void *value) {
  const tfcc_tensor *in = ctx->in[0];
  int64_t before[TFCC_MAX_RANK], after[TFCC_MAX_RANK];
  tfcc_status st = tfcc_pad_read(ctx, op, in, ctx->in[1], before, after);
  if (st) return st;
  /* one sequential pass over the output (leading dimensions split over the pool);
   * tfcc_ref_pad_const is its tested twin */
  tfcc_pad_const_fast_pool(ctx->pool, in->data, in->rank, in->dims, before, ctx->out[0]->dims,
                           value, tfcc_dtype_size(in->dtype), ctx->out[0]->data);
  return TFCC_OK;
}

void tfcc_pad_zero_value(const tfcc_tensor *out, uint8_t value[8]) {
  memset(value, 0, 8);
  int32_t zp = tfcc_so_zero_point(out);
  if (out->dtype == TFCC_UINT8) {
    value[0] = (uint8_t)zp;
  } else if (out->dtype == TFCC_INT8) {
    int8_t v = (int8_t)zp;
    memcpy(value, &v, 1);
  } else if (out->dtype == TFCC_INT16) {
    int16_t v = (int16_t)zp;
    memcpy(value, &v, 2);
  }
}

const char *tfcc_pad_kernel_name(const tfcc_op_ctx *ctx) {
  (void)ctx;
  return "pad-copy";
}
