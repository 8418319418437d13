/* REVERSE_V2: reverses the input along the axes of input 1 (int32, 1-D, each in [-rank, rank);
 * duplicates allowed) (TFLite reverse.cc). Data: float32, float16, uint8, int8, int16, int32,
 * int64, bool (copied bytes, quantization passed through). The axes are read at eval. */
#include <string.h>

#include "ops/shape_ops_util.h"

#define OP "REVERSE_V2"

static tfcc_status reverse_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *in, *axis;
  static const int allowed[] = {TFCC_FLOAT32,       TFCC_FLOAT16,     TFCC_UINT8, TFCC_INT8,
                                TFCC_INT16,         TFCC_INT32,       TFCC_INT64, TFCC_BOOL,
                                TFCC_FLOAT8_E4M3FN, TFCC_FLOAT8_E5M2, -1}; /* types: float8 v4 */
  tfcc_status st = tfcc_so_open_typed(ctx, OP, 2, 2, 1, allowed, &in);
  if (st || (st = tfcc_so_input(ctx, 1, OP, &axis))) return st;
  TFCC_OP_CHECK(ctx, axis->dtype == TFCC_INT32, TFCC_ERR_DTYPE,
                OP ": input 1 (axis) dtype %s, expected int32", tfcc_dtype_name(axis->dtype));
  TFCC_OP_CHECK(ctx, axis->rank == 1, TFCC_ERR_SHAPE, OP ": input 1 (axis) rank %d, expected 1",
                (int)axis->rank);
  TFCC_OP_CHECK(ctx, axis->dims[0] <= in->rank, TFCC_ERR_SHAPE,
                OP ": input 1 (axis) has %d entries for input rank %d", (int)axis->dims[0],
                (int)in->rank);
  tfcc_tensor *out = ctx->out[0];
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, out, in->dtype))) return st;
  return tfcc_tensor_set_shape(out, in->rank, in->dims, ctx->err);
}

static tfcc_status reverse_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *in = ctx->in[0], *axis = ctx->in[1];
  tfcc_tensor *out = ctx->out[0];
  const int32_t rank = in->rank;
  bool rev[TFCC_MAX_RANK] = {false};
  const int32_t *ax = axis->data;
  for (int32_t i = 0; i < axis->dims[0]; i++) {
    int32_t a = ax[i];
    TFCC_OP_CHECK(ctx, a >= -rank && a < rank, TFCC_ERR_SHAPE,
                  OP ": input 1 (axis) value %d out of range for rank %d", (int)a, (int)rank);
    rev[a < 0 ? a + rank : a] = true;
  }
  const int64_t n = tfcc_tensor_elements(in);
  const size_t es = tfcc_dtype_size(in->dtype);
  if (n == 0) return TFCC_OK;
  /* Element strides of the input; walk the output in order with a counter. */
  int64_t stride[TFCC_MAX_RANK], idx[TFCC_MAX_RANK] = {0};
  int64_t s = 1;
  for (int32_t d = rank - 1; d >= 0; d--) {
    stride[d] = s;
    s *= in->dims[d];
  }
  const uint8_t *src = in->data;
  uint8_t *dst = out->data;
  for (int64_t o = 0; o < n; o++) {
    int64_t off = 0;
    for (int32_t d = 0; d < rank; d++)
      off += (rev[d] ? in->dims[d] - 1 - idx[d] : idx[d]) * stride[d];
    memcpy(dst + (size_t)o * es, src + (size_t)off * es, es);
    for (int32_t d = rank - 1; d >= 0; d--) {
      if (++idx[d] < in->dims[d]) break;
      idx[d] = 0;
    }
  }
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_reverse_v2 = {
    .name = OP, .prepare = reverse_prepare, .eval = reverse_eval};
