/* RANGE: start, limit, delta scalars (int32, int64 or float32, all the same dtype, values known
 * at prepare to size the output); out = start, start + delta, ... accumulated as range.cc. */
#include <math.h>

#include "ops/binary_common.h"

static tfcc_status range_size(tfcc_op_ctx *ctx, int64_t *size) {
  const tfcc_tensor *s = ctx->in[0], *l = ctx->in[1], *d = ctx->in[2];
  const char *bad =
      "RANGE: requires start <= limit with delta > 0, or start >= limit with delta < 0";
  switch (s->dtype) {
    case TFCC_FLOAT32: {
      const float a = *(const float *)s->data, b = *(const float *)l->data,
                  c = *(const float *)d->data;
      TFCC_OP_CHECK(ctx, c != 0.f, TFCC_ERR_INVALID_ARG, "RANGE: delta is zero");
      TFCC_OP_CHECK(ctx, (a >= b && c < 0) || (a <= b && c > 0), TFCC_ERR_INVALID_ARG, "%s", bad);
      const float n = ceilf(fabsf((b - a) / c));
      TFCC_OP_CHECK(ctx, n <= (float)INT32_MAX, TFCC_ERR_SHAPE, "RANGE: %g elements is too many",
                    (double)n);
      *size = (int64_t)n;
      return TFCC_OK;
    }
    case TFCC_INT32:
    case TFCC_INT64: {
      int64_t a, b, c;
      if (s->dtype == TFCC_INT32) {
        a = *(const int32_t *)s->data;
        b = *(const int32_t *)l->data;
        c = *(const int32_t *)d->data;
      } else {
        a = *(const int64_t *)s->data;
        b = *(const int64_t *)l->data;
        c = *(const int64_t *)d->data;
      }
      TFCC_OP_CHECK(ctx, c != 0, TFCC_ERR_INVALID_ARG, "RANGE: delta is zero");
      TFCC_OP_CHECK(ctx, (a >= b && c < 0) || (a <= b && c > 0), TFCC_ERR_INVALID_ARG, "%s", bad);
      /* (|limit - start| + |delta| - 1) / |delta|, without overflow. */
      const uint64_t span = a <= b ? (uint64_t)b - (uint64_t)a : (uint64_t)a - (uint64_t)b;
      const uint64_t step = c > 0 ? (uint64_t)c : 0u - (uint64_t)c;
      const uint64_t n = span / step + (span % step != 0);
      TFCC_OP_CHECK(ctx, n <= (uint64_t)INT32_MAX, TFCC_ERR_SHAPE,
                    "RANGE: %llu elements is too many", (unsigned long long)n);
      *size = (int64_t)n;
      return TFCC_OK;
    }
    default:
      return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, "RANGE: dtype %s not supported",
                          tfcc_dtype_name(s->dtype));
  }
}

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  tfcc_status st = tfcc_elem_check_io(ctx, "RANGE", 3, 1);
  if (st != TFCC_OK) return st;
  static const char *names[3] = {"start", "limit", "delta"};
  for (int32_t i = 0; i < 3; i++) {
    const tfcc_tensor *t = ctx->in[i];
    TFCC_OP_CHECK(ctx, t->dtype == ctx->in[0]->dtype, TFCC_ERR_DTYPE,
                  "RANGE: %s dtype %s, expected %s", names[i], tfcc_dtype_name(t->dtype),
                  tfcc_dtype_name(ctx->in[0]->dtype));
    TFCC_OP_CHECK(ctx, tfcc_tensor_elements(t) == 1, TFCC_ERR_SHAPE,
                  "RANGE: %s has %lld elements, expected a scalar", names[i],
                  (long long)tfcc_tensor_elements(t));
    if (!t->known || !t->data)
      return TFCC_OP_NEEDS_DATA(ctx, t, "RANGE: %s (tensor %d) is known only while running",
                                names[i], (int)t->index);
  }
  tfcc_tensor *o = ctx->out[0];
  TFCC_OP_CHECK(ctx, o->dtype == ctx->in[0]->dtype, TFCC_ERR_DTYPE,
                "RANGE: output dtype %s, expected %s", tfcc_dtype_name(o->dtype),
                tfcc_dtype_name(ctx->in[0]->dtype));
  int64_t n = 0;
  if ((st = range_size(ctx, &n)) != TFCC_OK) return st;
  int32_t d = (int32_t)n;
  return tfcc_tensor_set_shape(o, 1, &d, ctx->err);
}

static tfcc_status eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *s = ctx->in[0], *d = ctx->in[2];
  tfcc_tensor *o = ctx->out[0];
  const int64_t n = tfcc_tensor_elements(o);
  switch (o->dtype) {
    case TFCC_FLOAT32:
      tfcc_ref_range_f32(*(const float *)s->data, *(const float *)d->data, o->data, n);
      break;
    case TFCC_INT32:
      tfcc_ref_range_i32(*(const int32_t *)s->data, *(const int32_t *)d->data, o->data, n);
      break;
    default:
      tfcc_ref_range_i64(*(const int64_t *)s->data, *(const int64_t *)d->data, o->data, n);
      break;
  }
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_range = {.name = "RANGE", .prepare = prepare, .eval = eval};
