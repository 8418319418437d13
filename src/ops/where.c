/* WHERE (one input): the coordinates of the true (non-zero) elements of the condition, an int64
 * [count, rank] tensor in row-major order (where.cc, SelectTrueCoords). count depends on the
 * values: with a condition known at prepare the output is sized then, else prepare asks for
 * the data (TFCC_OP_NEEDS_DATA) and the session sizes it in each run (a dynamic tensor).
 * Condition dtypes: bool as TFLite's WHERE v1, and the numeric ones newer versions accept. */
#include <string.h>

#include "ops/op.h"

#define OP "WHERE"

static bool is_true(const tfcc_tensor *c, int64_t i) {
  const uint8_t *p = (const uint8_t *)c->data;
  if (c->dtype == TFCC_FLOAT32) { /* -0.0f is false */
    float v;
    memcpy(&v, p + 4 * i, 4);
    return v != 0.0f;
  }
  /* bool and the integers (prepare admits no other dtype): true when any byte is set */
  const size_t es = tfcc_dtype_size(c->dtype);
  for (size_t b = 0; b < es; b++)
    if (p[(size_t)i * es + b]) return true;
  return false;
}

static tfcc_status where_prepare(tfcc_op_ctx *ctx) {
  TFCC_OP_CHECK(ctx, ctx->n_in == 1 && ctx->n_out == 1 && ctx->in[0] && ctx->out[0],
                TFCC_ERR_INVALID_MODEL,
                OP ": %d inputs and %d outputs, expected 1 and 1 (the 3-input form is SELECT)",
                (int)ctx->n_in, (int)ctx->n_out);
  const tfcc_tensor *c = ctx->in[0];
  tfcc_tensor *out = ctx->out[0];
  TFCC_OP_CHECK(ctx,
                c->dtype == TFCC_BOOL || c->dtype == TFCC_UINT8 || c->dtype == TFCC_INT8 ||
                    c->dtype == TFCC_INT16 || c->dtype == TFCC_INT32 || c->dtype == TFCC_INT64 ||
                    c->dtype == TFCC_FLOAT32,
                TFCC_ERR_UNSUPPORTED, OP ": condition dtype %s is not supported",
                tfcc_dtype_name(c->dtype));
  TFCC_OP_CHECK(ctx, out->dtype == TFCC_INT64, TFCC_ERR_DTYPE,
                OP ": output dtype %s, expected int64", tfcc_dtype_name(out->dtype));
  TFCC_OP_CHECK(ctx, c->rank >= 1, TFCC_ERR_SHAPE, OP ": the condition is a scalar (rank 0)");
  if (!c->known || !c->data)
    return TFCC_OP_NEEDS_DATA(
        ctx, c, OP ": the output size depends on the values of the condition (tensor %d)",
        (int)c->index);
  int64_t n = tfcc_tensor_elements(c), count = 0;
  for (int64_t i = 0; i < n; i++) count += is_true(c, i);
  TFCC_OP_CHECK(ctx, count <= INT32_MAX, TFCC_ERR_SHAPE, OP ": %lld true elements",
                (long long)count);
  int32_t dims[2] = {(int32_t)count, c->rank};
  return tfcc_tensor_set_shape(out, 2, dims, ctx->err);
}

static tfcc_status where_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *c = ctx->in[0];
  tfcc_tensor *out = ctx->out[0];
  int64_t n = tfcc_tensor_elements(c), row = 0, rows = out->dims[0];
  int64_t *o = out->data;
  for (int64_t i = 0; i < n; i++) {
    if (!is_true(c, i)) continue;
    if (row >= rows) /* sized by prepare over the same data */
      return tfcc_err_set(ctx->err, TFCC_ERR_RUNTIME,
                          OP ": more true elements than the output's %lld rows", (long long)rows);
    int64_t rest = i;
    for (int32_t d = c->rank - 1; d >= 0; d--) {
      o[row * c->rank + d] = rest % c->dims[d];
      rest /= c->dims[d];
    }
    row++;
  }
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_where = {.name = OP, .prepare = where_prepare, .eval = where_eval};
