/* ADD_N: elementwise sum of N >= 1 inputs of identical shape and dtype (float32, int32,
 * int64), summed from zero in input order as reference_ops::AddN. */
#include "ops/binary_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  TFCC_OP_CHECK(ctx, ctx->n_in >= 1 && ctx->n_out == 1 && ctx->out[0], TFCC_ERR_INVALID_MODEL,
                "ADD_N: %d inputs and %d outputs, expected >= 1 and 1", (int)ctx->n_in,
                (int)ctx->n_out);
  const tfcc_tensor *a = ctx->in[0];
  tfcc_tensor *o = ctx->out[0];
  TFCC_OP_CHECK(ctx, a != NULL, TFCC_ERR_INVALID_MODEL, "ADD_N: input 0 is missing");
  TFCC_OP_CHECK(ctx, a->dtype == TFCC_FLOAT32 || a->dtype == TFCC_INT32 || a->dtype == TFCC_INT64,
                TFCC_ERR_UNSUPPORTED, "ADD_N: dtype %s not supported", tfcc_dtype_name(a->dtype));
  TFCC_OP_CHECK(ctx, a->rank >= 0 && a->rank <= TFCC_MAX_RANK, TFCC_ERR_SHAPE,
                "ADD_N: input 0 rank %d out of range", (int)a->rank);
  for (int32_t k = 1; k < ctx->n_in; k++) {
    const tfcc_tensor *t = ctx->in[k];
    TFCC_OP_CHECK(ctx, t != NULL, TFCC_ERR_INVALID_MODEL, "ADD_N: input %d is missing", (int)k);
    TFCC_OP_CHECK(ctx, t->dtype == a->dtype, TFCC_ERR_DTYPE,
                  "ADD_N: input %d dtype %s, expected %s", (int)k, tfcc_dtype_name(t->dtype),
                  tfcc_dtype_name(a->dtype));
    bool same = t->rank == a->rank;
    for (int32_t j = 0; same && j < a->rank; j++) same = t->dims[j] == a->dims[j];
    char s0[96], s1[96];
    tfcc_shape_str(a->rank, a->dims, s0, sizeof s0);
    tfcc_shape_str(t->rank, t->dims, s1, sizeof s1);
    TFCC_OP_CHECK(ctx, same, TFCC_ERR_SHAPE, "ADD_N: input %d shape %s differs from input 0 %s",
                  (int)k, s1, s0);
  }
  TFCC_OP_CHECK(ctx, o->dtype == a->dtype, TFCC_ERR_DTYPE, "ADD_N: output dtype %s, expected %s",
                tfcc_dtype_name(o->dtype), tfcc_dtype_name(a->dtype));
  return tfcc_tensor_set_shape(o, a->rank, a->dims, ctx->err);
}

static tfcc_status eval(tfcc_op_ctx *ctx) {
  enum { kMaxInline = 64 };
  const void *ptrs[kMaxInline];
  tfcc_tensor *o = ctx->out[0];
  const int64_t n = tfcc_tensor_elements(o);
  /* Sum in groups of kMaxInline inputs: the first group starts from zero, later ones add the
   * partial sum kept in the output (same order of additions as one pass). */
  int32_t done = 0;
  while (done < ctx->n_in) {
    int32_t m = 0;
    if (done > 0) ptrs[m++] = o->data;
    while (m < kMaxInline && done < ctx->n_in) ptrs[m++] = ctx->in[done++]->data;
    if (!tfcc_ref_add_n(o->dtype, ptrs, m, o->data, n))
      return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, "ADD_N: dtype %s not supported",
                          tfcc_dtype_name(o->dtype));
  }
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_add_n = {.name = "ADD_N", .prepare = prepare, .eval = eval};
