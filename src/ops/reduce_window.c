/* REDUCE_WINDOW (TFLite reduce_window.cc; schema code 205): inputs (input rank 1-6, init_value:
 * one element of the input's dtype, window_shape, window_strides, window_dilations: int64 [rank],
 * constant as TFLite requires, each >= 1); ReduceWindowOptions.reduce_function ADD, MUL,
 * MINIMUM, MAXIMUM, ALL, ANY. Output of the input's dtype with (d - dw) / stride + 1 entries per
 * dimension (dw = (w - 1) dilation + 1; 0 when dw > d), as current TFLite and LiteRT (older
 * TFLite rounded up and read past the input). int8..int64, uint8..uint64, float32, float64;
 * kernels/ref/reduce_window.h. */
#include "ops/reduce_window_common.h"

#define OP "REDUCE_WINDOW"

static const char *const k_param[3] = {"window_shape", "window_strides", "window_dilations"};

static tfcc_status rw_prepare(tfcc_op_ctx *ctx) {
  tfcc_status st = tfcc_so_check_arity(ctx, OP, 5, 5, 1);
  if (st) return st;
  tfcc_tensor *t[5];
  for (int32_t i = 0; i < 5; i++)
    if ((st = tfcc_so_input(ctx, i, OP, &t[i]))) return st;
  const tfcc_tensor *in = t[0];
  const int32_t fn = ctx->node->opts.reduce_window.function;
  TFCC_OP_CHECK(ctx, fn >= TFCC_RW_ADD && fn <= TFCC_RW_ANY, TFCC_ERR_UNSUPPORTED,
                OP ": ReduceWindowOptions.reduce_function %d is UNSUPPORTED", (int)fn);
  if ((st = tfcc_rw_check_io(ctx, OP, in, t[1]))) return st;
  for (int32_t p = 0; p < 3; p++) {
    const tfcc_tensor *w = t[2 + p];
    TFCC_OP_CHECK(ctx, w->dtype == TFCC_INT64 && w->rank == 1 && w->dims[0] == in->rank,
                  TFCC_ERR_SHAPE, OP ": input %d (%s) must be int64 [%d]", (int)(2 + p), k_param[p],
                  (int)in->rank);
    TFCC_OP_CHECK(ctx, w->known && w->data, TFCC_ERR_UNSUPPORTED,
                  OP ": input %d (%s) must be constant (as TFLite requires)", (int)(2 + p),
                  k_param[p]);
    const int64_t *v = w->data;
    for (int32_t k = 0; k < in->rank; k++)
      TFCC_OP_CHECK(ctx, v[k] >= 1 && v[k] <= INT32_MAX, TFCC_ERR_INVALID_ARG,
                    OP ": %s[%d] is %lld (must be >= 1)", k_param[p], (int)k, (long long)v[k]);
  }
  const int64_t *win = t[2]->data, *str = t[3]->data, *dil = t[4]->data;
  int64_t dims[TFCC_MAX_RANK];
  for (int32_t k = 0; k < in->rank; k++) {
    const int64_t dw = (win[k] - 1) * dil[k] + 1;
    dims[k] = in->dims[k] < dw ? 0 : (in->dims[k] - dw) / str[k] + 1;
  }
  return tfcc_so_set_shape(ctx, OP, ctx->out[0], in->rank, dims);
}

static tfcc_status rw_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *in = ctx->in[0];
  const bool ok = tfcc_ref_reduce_window((tfcc_rw_fn)ctx->node->opts.reduce_window.function,
                                         in->dtype, in->data, in->dims, in->rank, ctx->in[2]->data,
                                         ctx->in[3]->data, ctx->in[4]->data, ctx->in[1]->data,
                                         ctx->out[0]->dims, ctx->out[0]->data);
  TFCC_OP_CHECK(ctx, ok, TFCC_ERR_UNSUPPORTED, OP ": dtype %s is not supported",
                tfcc_dtype_name(in->dtype));
  return TFCC_OK;
}

static int64_t rw_macs(const tfcc_op_ctx *ctx) {
  if (ctx->n_in < 5 || ctx->n_out < 1 || !ctx->in[2] || !ctx->in[2]->data || !ctx->out[0]) return 0;
  return tfcc_rw_work(ctx->out[0], ctx->in[2]->data);
}

const tfcc_op_def tfcc_op_reduce_window = {
    .name = OP, .prepare = rw_prepare, .eval = rw_eval, .macs = rw_macs};
