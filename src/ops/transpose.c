/* TRANSPOSE: out[i0..] = in[...] with out dim d = in dim perm[d]; perm a known int32/int64
 * permutation of [0, rank) (TFLite rejects entries outside [0, rank)). Any fixed-size dtype, and
 * int4 (v7: tfcc's one value per byte; TFLite unpacks, transposes as int8 and packs again).
 * Runs the planned copy of kernels/move (runs, blocked 2-D transposes); tfcc_ref_copy_nd is its
 * reference twin (tests/ops/test_move.c). */
#include "kernels/move/move.h"
#include "ops/copy_ops.h"

#define OP "TRANSPOSE"

static tfcc_status read_perm(tfcc_op_ctx *ctx, const tfcc_tensor *in, int32_t *perm) {
  int64_t p[TFCC_MAX_RANK], n;
  tfcc_status st = tfcc_so_read_ints(ctx, OP, "perm", ctx->in[1], p, TFCC_MAX_RANK, &n);
  if (st) return st;
  TFCC_OP_CHECK(ctx, n == in->rank, TFCC_ERR_SHAPE, OP ": perm has %lld entries, input rank %d",
                (long long)n, (int)in->rank);
  bool seen[TFCC_MAX_RANK] = {false};
  for (int32_t d = 0; d < n; d++) {
    TFCC_OP_CHECK(ctx, p[d] >= 0 && p[d] < n && !seen[p[d]], TFCC_ERR_INVALID_MODEL,
                  OP ": perm[%d] = %lld is not a permutation of [0, %d)", (int)d, (long long)p[d],
                  (int)n);
    seen[p[d]] = true;
    perm[d] = (int32_t)p[d];
  }
  return TFCC_OK;
}

static tfcc_status transpose_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *in, *pt;
  static const int accepted[] = {TFCC_COPY_DTYPES, TFCC_INT4, -1};
  tfcc_status st = tfcc_copy_op_open(ctx, OP, accepted, &in, &pt);
  if (st) return st;
  int32_t perm[TFCC_MAX_RANK];
  if ((st = read_perm(ctx, in, perm))) return st;
  int64_t dims[TFCC_MAX_RANK];
  for (int32_t d = 0; d < in->rank; d++) dims[d] = in->dims[perm[d]];
  return tfcc_so_set_shape(ctx, OP, ctx->out[0], in->rank, dims);
}

/* The copy: output dims in order, input strides permuted. */
static tfcc_status transpose_plan(tfcc_op_ctx *ctx, tfcc_move_plan *plan) {
  const tfcc_tensor *in = ctx->in[0];
  const tfcc_tensor *out = ctx->out[0];
  int32_t perm[TFCC_MAX_RANK];
  tfcc_status st = read_perm(ctx, in, perm);
  if (st) return st;
  int64_t is[TFCC_MAX_RANK], ps[TFCC_MAX_RANK], os[TFCC_MAX_RANK];
  tfcc_ref_strides(in->rank, in->dims, is);
  tfcc_ref_strides(out->rank, out->dims, os);
  for (int32_t d = 0; d < in->rank; d++) ps[d] = is[perm[d]];
  tfcc_move_plan_make(plan, out->rank, out->dims, ps, os, tfcc_dtype_size(in->dtype));
  return TFCC_OK;
}

static tfcc_status transpose_eval(tfcc_op_ctx *ctx) {
  tfcc_move_plan plan;
  tfcc_status st = transpose_plan(ctx, &plan);
  if (st) return st;
  tfcc_move_run(&plan, ctx->in[0]->data, 0, ctx->out[0]->data, 0);
  return TFCC_OK;
}

static const char *transpose_kernel(const tfcc_op_ctx *ctx) {
  tfcc_op_quiet q;
  tfcc_move_plan plan;
  if (ctx->n_in < 2 || !ctx->in[0] || !ctx->in[1] || ctx->n_out < 1 ||
      transpose_plan(tfcc_op_quiet_ctx(ctx, &q), &plan))
    return "ref";
  return tfcc_move_kind_name(&plan);
}

const tfcc_op_def tfcc_op_transpose = {
    .name = OP, .prepare = transpose_prepare, .eval = transpose_eval, .kernel = transpose_kernel};
