/* Checks and small helpers shared by the shape / data-movement operators (inputs, dtypes,
 * known integer vectors, axes, output shapes, GATHER-family inputs, copies). */
#include "ops/shape_ops_util.h"

#include <string.h>

tfcc_status tfcc_so_input(tfcc_op_ctx *ctx, int32_t i, const char *op, tfcc_tensor **t) {
  if (i >= ctx->n_in || ctx->in[i] == NULL)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, "%s: input %d is missing", op, (int)i);
  *t = ctx->in[i];
  return TFCC_OK;
}

tfcc_status tfcc_so_check_arity(tfcc_op_ctx *ctx, const char *op, int32_t min_in, int32_t max_in,
                                int32_t n_out) {
  if (ctx->n_in < min_in || ctx->n_in > max_in) {
    if (min_in == max_in)
      return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, "%s: %d inputs, expected %d", op,
                          (int)ctx->n_in, (int)min_in);
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, "%s: %d inputs, expected %d to %d", op,
                        (int)ctx->n_in, (int)min_in, (int)max_in);
  }
  if (n_out >= 0 && ctx->n_out != n_out)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, "%s: %d outputs, expected %d", op,
                        (int)ctx->n_out, (int)n_out);
  if (ctx->n_out < 1) return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, "%s: no outputs", op);
  for (int32_t i = 0; i < ctx->n_out; i++)
    if (ctx->out[i] == NULL)
      return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, "%s: output %d is missing", op, (int)i);
  return TFCC_OK;
}

tfcc_status tfcc_so_open(tfcc_op_ctx *ctx, const char *op, int32_t min_in, int32_t max_in,
                         int32_t n_out, tfcc_tensor **in0) {
  tfcc_status st = tfcc_so_check_arity(ctx, op, min_in, max_in, n_out);
  return st ? st : tfcc_so_input(ctx, 0, op, in0);
}

tfcc_status tfcc_so_open_f32(tfcc_op_ctx *ctx, const char *op, tfcc_tensor **in) {
  tfcc_status st = tfcc_so_open(ctx, op, 1, 1, 1, in);
  if (st) return st;
  TFCC_OP_CHECK(ctx, (*in)->dtype == TFCC_FLOAT32, TFCC_ERR_UNSUPPORTED,
                "%s: input dtype %s (float32 only, as TFLite)", op, tfcc_dtype_name((*in)->dtype));
  return TFCC_OK;
}

tfcc_status tfcc_so_check_padded(tfcc_op_ctx *ctx, const char *op, const tfcc_tensor *in,
                                 int32_t pad_index, const tfcc_tensor *pad) {
  TFCC_OP_CHECK(ctx, tfcc_so_elem_size(in->dtype) != 0, TFCC_ERR_UNSUPPORTED,
                "%s: input 0 dtype %s is not supported (fixed-size dtypes)", op,
                tfcc_dtype_name(in->dtype));
  TFCC_OP_CHECK(ctx, in->rank >= 1, TFCC_ERR_SHAPE, "%s: input 0 must have rank >= 1", op);
  TFCC_OP_CHECK(ctx, pad->dtype == in->dtype, TFCC_ERR_DTYPE,
                "%s: input %d (padding_value) dtype %s differs from input 0 dtype %s", op,
                (int)pad_index, tfcc_dtype_name(pad->dtype), tfcc_dtype_name(in->dtype));
  return TFCC_OK;
}

tfcc_status tfcc_so_open_n(tfcc_op_ctx *ctx, const char *op, int32_t n, int32_t n_out,
                           tfcc_tensor **const *in) {
  tfcc_status st = tfcc_so_check_arity(ctx, op, n, n, n_out);
  for (int32_t i = 0; i < n && !st; i++) st = tfcc_so_input(ctx, i, op, in[i]);
  return st;
}

tfcc_status tfcc_so_open_io(tfcc_op_ctx *ctx, const char *op, int32_t min_in, int32_t max_in,
                            const tfcc_dtype *out_dtype, tfcc_tensor **in0, tfcc_tensor **out) {
  tfcc_status st = tfcc_so_open(ctx, op, min_in, max_in, 1, in0);
  if (st) return st;
  *out = ctx->out[0];
  return tfcc_so_check_out_dtype(ctx, op, 0, *out, out_dtype ? *out_dtype : (*in0)->dtype);
}

tfcc_status tfcc_so_input_like(tfcc_op_ctx *ctx, int32_t i, const char *op, const tfcc_tensor *t0,
                               tfcc_tensor **t) {
  tfcc_status st = tfcc_so_input(ctx, i, op, t);
  if (st) return st;
  if ((*t)->dtype != t0->dtype)
    return tfcc_err_set(ctx->err, TFCC_ERR_DTYPE, "%s: input %d dtype %s, expected %s", op, (int)i,
                        tfcc_dtype_name((*t)->dtype), tfcc_dtype_name(t0->dtype));
  if ((*t)->rank != t0->rank)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "%s: input %d rank %d, expected %d", op, (int)i,
                        (int)(*t)->rank, (int)t0->rank);
  return TFCC_OK;
}

size_t tfcc_so_elem_size(tfcc_dtype t) {
  switch (t) {
    case TFCC_FLOAT32:
    case TFCC_FLOAT16:
    case TFCC_INT32:
    case TFCC_UINT8:
    case TFCC_INT64:
    case TFCC_BOOL:
    case TFCC_INT16:
    case TFCC_INT8:
    case TFCC_FLOAT64:
    case TFCC_UINT64:
    case TFCC_UINT32:
    case TFCC_UINT16:
    case TFCC_BFLOAT16:
    case TFCC_COMPLEX64: return tfcc_dtype_size(t);
    default: return 0;
  }
}

const int tfcc_so_numeric_dtypes[] = {TFCC_FLOAT32, TFCC_UINT8, TFCC_INT8, TFCC_INT16,
                                      TFCC_INT32,   TFCC_INT64, -1};

tfcc_status tfcc_so_open_typed(tfcc_op_ctx *ctx, const char *op, int32_t min_in, int32_t max_in,
                               int32_t n_out, const int *allowed, tfcc_tensor **in0) {
  tfcc_status st = tfcc_so_open(ctx, op, min_in, max_in, n_out, in0);
  return st ? st : tfcc_so_check_dtype(ctx, op, "input 0", (*in0)->dtype, allowed);
}

bool tfcc_so_copyable(tfcc_dtype t) {
  return tfcc_so_elem_size(t) != 0 || t == TFCC_FLOAT8_E4M3FN || t == TFCC_FLOAT8_E5M2;
}

tfcc_status tfcc_so_check_dtype(tfcc_op_ctx *ctx, const char *op, const char *what, tfcc_dtype t,
                                const int *allowed) {
  for (const int *a = allowed; *a >= 0; a++)
    if ((int)t == *a) return TFCC_OK;
  return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, "%s: %s dtype %s is not supported", op, what,
                      tfcc_dtype_name(t));
}

tfcc_status tfcc_so_check_out_dtype(tfcc_op_ctx *ctx, const char *op, int32_t index,
                                    const tfcc_tensor *out, tfcc_dtype expected) {
  if (out->dtype != expected)
    return tfcc_err_set(ctx->err, TFCC_ERR_DTYPE, "%s: output %d dtype %s, expected %s", op,
                        (int)index, tfcc_dtype_name(out->dtype), tfcc_dtype_name(expected));
  return TFCC_OK;
}

tfcc_status tfcc_so_check_copy_out_dtype(tfcc_op_ctx *ctx, const char *op, const tfcc_tensor *in,
                                         const tfcc_tensor *out) {
  if (out->dtype == TFCC_INT4 && in->dtype == TFCC_INT8 && in->is_const && in->data)
    return tfcc_so_int4_operand(ctx, op, "input 0", in);
  return tfcc_so_check_out_dtype(ctx, op, 0, out, in->dtype);
}

tfcc_status tfcc_so_int4_operand(tfcc_op_ctx *ctx, const char *op, const char *what,
                                 const tfcc_tensor *t) {
  if (t->dtype == TFCC_INT4) return TFCC_OK;
  if (t->dtype != TFCC_INT8 || !t->is_const || !t->data)
    return tfcc_err_set(ctx->err, TFCC_ERR_DTYPE, "%s: %s dtype %s, expected int4", op, what,
                        tfcc_dtype_name(t->dtype));
  const int8_t *v = (const int8_t *)t->data;
  const int64_t n = tfcc_tensor_elements(t);
  for (int64_t i = 0; i < n; i++)
    if (v[i] < -8 || v[i] > 7)
      return tfcc_err_set(ctx->err, TFCC_ERR_DTYPE,
                          "%s: %s is a constant int8 tensor with value %d at element %lld, "
                          "outside int4's [-8, 7] (the operator's output is int4)",
                          op, what, (int)v[i], (long long)i);
  return TFCC_OK;
}

tfcc_status tfcc_so_read_ints(tfcc_op_ctx *ctx, const char *op, const char *what,
                              const tfcc_tensor *t, int64_t *vals, int64_t max, int64_t *count) {
  if (t->dtype != TFCC_INT32 && t->dtype != TFCC_INT64)
    return tfcc_err_set(ctx->err, TFCC_ERR_DTYPE, "%s: %s dtype %s, expected int32 or int64", op,
                        what, tfcc_dtype_name(t->dtype));
  if (!t->known || t->data == NULL)
    return TFCC_OP_NEEDS_DATA(ctx, t, "%s: %s (tensor %d) is known only while running", op, what,
                              (int)t->index);
  int64_t n = tfcc_tensor_elements(t);
  if (n < 0 || n > max)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "%s: %s has %lld elements, at most %lld allowed",
                        op, what, (long long)n, (long long)max);
  size_t es = tfcc_dtype_size(t->dtype);
  if (t->bytes < (size_t)n * es)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "%s: %s holds %zu bytes, needs %zu", op, what,
                        t->bytes, (size_t)n * es);
  for (int64_t i = 0; i < n; i++) {
    if (t->dtype == TFCC_INT32) {
      int32_t v;
      memcpy(&v, (const uint8_t *)t->data + 4 * i, 4);
      vals[i] = v;
    } else {
      memcpy(&vals[i], (const uint8_t *)t->data + 8 * i, 8);
    }
  }
  *count = n;
  return TFCC_OK;
}

tfcc_status tfcc_so_axis(tfcc_op_ctx *ctx, const char *op, int64_t axis, int32_t rank,
                         int32_t *out) {
  int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, "%s: axis %lld out of range for rank %d",
                        op, (long long)axis, (int)rank);
  *out = (int32_t)a;
  return TFCC_OK;
}

int64_t tfcc_so_prod(const int32_t *dims, int32_t from, int32_t to) {
  int64_t p = 1;
  for (int32_t i = from; i < to; i++) p *= dims[i];
  return p;
}

tfcc_status tfcc_so_set_shape(tfcc_op_ctx *ctx, const char *op, tfcc_tensor *out, int32_t rank,
                              const int64_t *dims) {
  if (rank < 0 || rank > TFCC_MAX_RANK)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "%s: output rank %d exceeds %d", op, (int)rank,
                        TFCC_MAX_RANK);
  int64_t total = 1;
  for (int32_t i = 0; i < rank; i++) {
    if (dims[i] < 0 || dims[i] > INT32_MAX)
      return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "%s: output dimension %d is %lld", op, (int)i,
                          (long long)dims[i]);
    if (dims[i] != 0 && total > (INT64_C(1) << 48) / dims[i])
      return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "%s: output has too many elements", op);
    total *= dims[i];
  }
  out->rank = rank;
  for (int32_t i = 0; i < rank; i++) out->dims[i] = (int32_t)dims[i];
  return TFCC_OK;
}

float tfcc_so_scale(const tfcc_tensor *t) {
  return (t->quant && t->quant->count > 0) ? t->quant->scale[0] : 0.0f;
}

int32_t tfcc_so_zero_point(const tfcc_tensor *t) {
  return (t->quant && t->quant->count > 0) ? t->quant->zero_point[0] : 0;
}

void tfcc_so_copy(tfcc_tensor *out, const tfcc_tensor *in) {
  size_t n = out->bytes < in->bytes ? out->bytes : in->bytes;
  if (out->data != in->data && n) memmove(out->data, in->data, n);
}

tfcc_status tfcc_so_gather_inputs(tfcc_op_ctx *ctx, const char *op, bool allow_int4,
                                  tfcc_tensor **params, tfcc_tensor **indices) {
  tfcc_status st = tfcc_so_open(ctx, op, 2, 2, 1, params);
  if (st || (st = tfcc_so_input(ctx, 1, op, indices))) return st;
  /* types: float8 (GATHER v8, GATHER_ND v6) */
  static const int ok[] = {TFCC_FLOAT32,       TFCC_UINT8,       TFCC_INT8, TFCC_INT16,
                           TFCC_INT32,         TFCC_INT64,       TFCC_BOOL, TFCC_FLOAT16,
                           TFCC_FLOAT8_E4M3FN, TFCC_FLOAT8_E5M2, -1};
  static const int ok4[] = {TFCC_FLOAT32, TFCC_UINT8,         TFCC_INT8,        TFCC_INT16,
                            TFCC_INT32,   TFCC_INT64,         TFCC_BOOL,        TFCC_FLOAT16,
                            TFCC_INT4,    TFCC_FLOAT8_E4M3FN, TFCC_FLOAT8_E5M2, -1};
  static const int ok_idx[] = {TFCC_INT16, TFCC_INT32, TFCC_INT64, -1};
  if ((st = tfcc_so_check_dtype(ctx, op, "params", (*params)->dtype, allow_int4 ? ok4 : ok)) ||
      (st = tfcc_so_check_dtype(ctx, op, "indices", (*indices)->dtype, ok_idx)))
    return st;
  if (allow_int4) return tfcc_so_check_copy_out_dtype(ctx, op, *params, ctx->out[0]);
  return tfcc_so_check_out_dtype(ctx, op, 0, ctx->out[0], (*params)->dtype);
}

bool tfcc_so_dim_list_ok(const int64_t *v, uint32_t n, int64_t lim, bool ascending) {
  for (uint32_t i = 0; i < n; i++) {
    if (v[i] < 0 || v[i] >= lim) return false;
    for (uint32_t j = 0; j < i; j++)
      if (v[j] == v[i] || (ascending && v[j] > v[i])) return false;
  }
  return true;
}
