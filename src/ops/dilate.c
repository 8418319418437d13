/* DILATE (TFLite dilate.cc): inputs (input rank >= 1, dilations int32 [rank] each >= 1,
 * padding_value: one element of the input's dtype); output of the input's dtype with dims
 * (d - 1) * f + 1, the input's elements at multiples of the factors and padding_value between
 * (kernels/ref/dilate.h). Any fixed-size dtype (bytes copied). Dilations not known at prepare
 * make the output dynamic (TFLite likewise). tfcc refuses empty input dimensions, which
 * TFLite's formula would size negative. */
#include "kernels/ref/dilate.h"
#include "ops/shape_ops_util.h"

#define OP "DILATE"

static tfcc_status dilate_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *in, *f, *pad;
  tfcc_tensor **const ins[] = {&in, &f, &pad};
  tfcc_status st = tfcc_so_open_n(ctx, OP, 3, 1, ins);
  if (st) return st;
  if ((st = tfcc_so_check_padded(ctx, OP, in, 2, pad))) return st;
  TFCC_OP_CHECK(ctx, tfcc_tensor_elements(pad) >= 1, TFCC_ERR_SHAPE,
                OP ": input 2 (padding_value) is empty");
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, ctx->out[0], in->dtype))) return st;
  TFCC_OP_CHECK(ctx, f->dtype == TFCC_INT32, TFCC_ERR_DTYPE,
                OP ": input 1 (dilations) dtype %s, expected int32", tfcc_dtype_name(f->dtype));
  TFCC_OP_CHECK(ctx, f->rank == 1 && f->dims[0] == in->rank, TFCC_ERR_SHAPE,
                OP ": input 1 (dilations) must be [%d] (one factor per input dimension)",
                (int)in->rank);
  if (!f->known || !f->data)
    return TFCC_OP_NEEDS_DATA(ctx, f, OP ": the output shape depends on the dilations (tensor %d)",
                              (int)f->index);
  const int32_t *fd = f->data;
  int64_t dims[TFCC_MAX_RANK];
  for (int32_t k = 0; k < in->rank; k++) {
    TFCC_OP_CHECK(ctx, fd[k] >= 1, TFCC_ERR_INVALID_ARG, OP ": dilation %d is %d (must be >= 1)",
                  (int)k, (int)fd[k]);
    TFCC_OP_CHECK(ctx, in->dims[k] >= 1, TFCC_ERR_SHAPE, OP ": input 0 dimension %d is empty",
                  (int)k);
    dims[k] = (int64_t)(in->dims[k] - 1) * fd[k] + 1;
  }
  return tfcc_so_set_shape(ctx, OP, ctx->out[0], in->rank, dims);
}

static tfcc_status dilate_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *in = ctx->in[0], *f = ctx->in[1];
  const int32_t *fd = f->data;
  for (int32_t k = 0; k < in->rank; k++) /* sized by prepare from these values */
    TFCC_OP_CHECK(ctx, fd[k] >= 1 && (int64_t)(in->dims[k] - 1) * fd[k] + 1 == ctx->out[0]->dims[k],
                  TFCC_ERR_RUNTIME, OP ": dilation %d (%d) does not give the output's size", (int)k,
                  (int)fd[k]);
  tfcc_ref_dilate(in->data, in->dims, fd, in->rank, tfcc_so_elem_size(in->dtype), ctx->in[2]->data,
                  ctx->out[0]->data);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_dilate = {.name = OP, .prepare = dilate_prepare, .eval = dilate_eval};
