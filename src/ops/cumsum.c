/* CUMSUM: running sum along one axis (input 1: int32 scalar or 1-element tensor, in
 * [-rank, rank), read at eval), CumsumOptions exclusive/reverse (TFLite cumsum.cc).
 * float32, int32, int64; each running sum is accumulated in the data type, in order. */
#include "ops/shape_ops_util.h"

#define OP "CUMSUM"

static tfcc_status cumsum_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *in, *axis;
  tfcc_status st = tfcc_so_open(ctx, OP, 2, 2, 1, &in);
  if (st || (st = tfcc_so_input(ctx, 1, OP, &axis))) return st;
  static const int allowed[] = {TFCC_FLOAT32, TFCC_INT32, TFCC_INT64, -1};
  if ((st = tfcc_so_check_dtype(ctx, OP, "input 0", in->dtype, allowed))) return st;
  TFCC_OP_CHECK(ctx, axis->dtype == TFCC_INT32, TFCC_ERR_DTYPE,
                OP ": input 1 (axis) dtype %s, expected int32", tfcc_dtype_name(axis->dtype));
  TFCC_OP_CHECK(ctx, tfcc_tensor_elements(axis) == 1, TFCC_ERR_SHAPE,
                OP ": input 1 (axis) has %lld elements, expected 1",
                (long long)tfcc_tensor_elements(axis));
  TFCC_OP_CHECK(ctx, in->rank >= 1, TFCC_ERR_SHAPE, OP ": input 0 is a scalar (rank >= 1 needed)");
  tfcc_tensor *out = ctx->out[0];
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, out, in->dtype))) return st;
  return tfcc_tensor_set_shape(out, in->rank, in->dims, ctx->err);
}

/* Accumulates in A: float for float32; for the integers their unsigned type, so that a sum
 * wraps like TFLite's int32/int64 adds without signed-overflow UB. */
#define CUMSUM_LOOP(T, A) \
  do { \
    const T *x = in->data; \
    T *y = out->data; \
    for (int64_t o = 0; o < outer; o++) \
      for (int64_t i = 0; i < inner; i++) { \
        A acc = 0; \
        for (int64_t k = 0; k < n; k++) { \
          const int64_t at = (o * n + (rev ? n - 1 - k : k)) * inner + i; \
          const A v = (A)x[at]; \
          if (excl) y[at] = (T)acc; \
          acc = (A)(acc + v); \
          if (!excl) y[at] = (T)acc; \
        } \
      } \
  } while (0)

static tfcc_status cumsum_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *in = ctx->in[0];
  tfcc_tensor *out = ctx->out[0];
  int32_t a = *(const int32_t *)ctx->in[1]->data;
  TFCC_OP_CHECK(ctx, a >= -in->rank && a < in->rank, TFCC_ERR_SHAPE,
                OP ": input 1 (axis) value %d out of range for rank %d", (int)a, (int)in->rank);
  if (a < 0) a += in->rank;
  const int64_t outer = tfcc_so_prod(in->dims, 0, a), n = in->dims[a];
  const int64_t inner = tfcc_so_prod(in->dims, a + 1, in->rank);
  const bool excl = ctx->node->opts.cumsum.exclusive, rev = ctx->node->opts.cumsum.reverse;
  /* an empty input of huge other dimensions ([2^20, 0, 2^20]: 2^40 empty running sums) */
  if (outer == 0 || n == 0 || inner == 0) return TFCC_OK;
  if (in->dtype == TFCC_FLOAT32)
    CUMSUM_LOOP(float, float);
  else if (in->dtype == TFCC_INT32)
    CUMSUM_LOOP(int32_t, uint32_t);
  else
    CUMSUM_LOOP(int64_t, uint64_t);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_cumsum = {.name = OP, .prepare = cumsum_prepare, .eval = cumsum_eval};
