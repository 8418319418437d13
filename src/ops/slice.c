/* SLICE: inputs (input, begin, size) with known int32/int64 begin/size of length rank; a size
 * of -1 means "to the end" (TFLite slice.cc). Any fixed-size dtype (float16: v8) and int4 (v7:
 * tfcc's one value per byte). Runs the planned copy of kernels/move (one memcpy where the box is
 * contiguous); tfcc_ref_copy_nd is its reference twin (tests/ops/test_move.c). */
#include "kernels/move/move.h"
#include "kernels/ref/copy.h"
#include "ops/shape_ops_util.h"

#define OP "SLICE"

static tfcc_status slice_params(tfcc_op_ctx *ctx, const tfcc_tensor *in, int64_t *begin,
                                int64_t *size) {
  int64_t nb, ns;
  tfcc_status st;
  if ((st = tfcc_so_read_ints(ctx, OP, "begin", ctx->in[1], begin, TFCC_MAX_RANK, &nb)) ||
      (st = tfcc_so_read_ints(ctx, OP, "size", ctx->in[2], size, TFCC_MAX_RANK, &ns)))
    return st;
  TFCC_OP_CHECK(ctx, ctx->in[1]->dtype == ctx->in[2]->dtype, TFCC_ERR_DTYPE,
                OP ": begin dtype %s differs from size dtype %s",
                tfcc_dtype_name(ctx->in[1]->dtype), tfcc_dtype_name(ctx->in[2]->dtype));
  TFCC_OP_CHECK(ctx, nb == in->rank && ns == in->rank, TFCC_ERR_SHAPE,
                OP ": begin has %lld and size %lld entries, expected the input rank %d",
                (long long)nb, (long long)ns, (int)in->rank);
  for (int32_t d = 0; d < in->rank; d++) {
    TFCC_OP_CHECK(ctx, begin[d] >= 0 && begin[d] <= in->dims[d], TFCC_ERR_SHAPE,
                  OP ": begin %lld out of range for dimension %d of size %d", (long long)begin[d],
                  (int)d, (int)in->dims[d]);
    if (size[d] < 0) {
      TFCC_OP_CHECK(ctx, size[d] == -1, TFCC_ERR_SHAPE, OP ": size %lld in dimension %d",
                    (long long)size[d], (int)d);
      size[d] = in->dims[d] - begin[d];
    } else {
      TFCC_OP_CHECK(ctx, begin[d] + size[d] <= in->dims[d], TFCC_ERR_SHAPE,
                    OP ": begin %lld + size %lld exceed dimension %d of size %d",
                    (long long)begin[d], (long long)size[d], (int)d, (int)in->dims[d]);
    }
  }
  return TFCC_OK;
}

static tfcc_status slice_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *in, *b, *s;
  tfcc_status st = tfcc_so_open(ctx, OP, 3, 3, 1, &in);
  if (st || (st = tfcc_so_input(ctx, 1, OP, &b)) || (st = tfcc_so_input(ctx, 2, OP, &s))) return st;
  TFCC_OP_CHECK(ctx, tfcc_so_elem_size(in->dtype) != 0 || in->dtype == TFCC_INT4,
                TFCC_ERR_UNSUPPORTED, OP ": input dtype %s is not supported",
                tfcc_dtype_name(in->dtype));
  if ((st = tfcc_so_check_copy_out_dtype(ctx, OP, in, ctx->out[0]))) return st;
  int64_t begin[TFCC_MAX_RANK], size[TFCC_MAX_RANK];
  if ((st = slice_params(ctx, in, begin, size))) return st;
  return tfcc_so_set_shape(ctx, OP, ctx->out[0], in->rank, size);
}

/* The copy and the input offset (elements). */
static tfcc_status slice_plan(tfcc_op_ctx *ctx, tfcc_move_plan *plan, int64_t *off) {
  const tfcc_tensor *in = ctx->in[0];
  const tfcc_tensor *out = ctx->out[0];
  int64_t begin[TFCC_MAX_RANK], size[TFCC_MAX_RANK], is[TFCC_MAX_RANK], os[TFCC_MAX_RANK];
  tfcc_status st = slice_params(ctx, in, begin, size);
  if (st) return st;
  tfcc_ref_strides(in->rank, in->dims, is);
  tfcc_ref_strides(out->rank, out->dims, os);
  *off = 0;
  for (int32_t d = 0; d < in->rank; d++) *off += begin[d] * is[d];
  tfcc_move_plan_make(plan, out->rank, out->dims, is, os, tfcc_dtype_size(in->dtype));
  return TFCC_OK;
}

static tfcc_status slice_eval(tfcc_op_ctx *ctx) {
  tfcc_move_plan plan;
  int64_t off;
  tfcc_status st = slice_plan(ctx, &plan, &off);
  if (st) return st;
  if (tfcc_tensor_elements(ctx->out[0]) > 0)
    tfcc_move_run(&plan, ctx->in[0]->data, off, ctx->out[0]->data, 0);
  return TFCC_OK;
}

static const char *slice_kernel(const tfcc_op_ctx *ctx) {
  tfcc_op_quiet q;
  tfcc_move_plan plan;
  int64_t off;
  if (ctx->n_in < 3 || !ctx->in[0] || !ctx->in[1] || !ctx->in[2] || ctx->n_out < 1 ||
      slice_plan(tfcc_op_quiet_ctx(ctx, &q), &plan, &off))
    return "ref";
  return tfcc_move_kind_name(&plan);
}

const tfcc_op_def tfcc_op_slice = {
    .name = OP, .prepare = slice_prepare, .eval = slice_eval, .kernel = slice_kernel};
