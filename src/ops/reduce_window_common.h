/* What REDUCE_WINDOW and STABLEHLO_REDUCE_WINDOW check alike at prepare. */
#ifndef TFCC_OPS_REDUCE_WINDOW_COMMON_H
#define TFCC_OPS_REDUCE_WINDOW_COMMON_H

#include "kernels/ref/reduce_window.h"
#include "ops/shape_ops_util.h"
#include "ops/work_estimate.h"

/* The operand in (a dtype the kernel reduces, rank 1..6), its init_value (input 1: one element
 * of in's dtype) and output 0 (in's dtype). */
static inline tfcc_status tfcc_rw_check_io(tfcc_op_ctx *ctx, const char *op, const tfcc_tensor *in,
                                           const tfcc_tensor *init) {
  TFCC_OP_CHECK(
      ctx, tfcc_ref_reduce_window_supported(in->dtype), TFCC_ERR_UNSUPPORTED,
      "%s: input 0 dtype %s is not supported (int8..int64, uint8..uint64, float32, float64)", op,
      tfcc_dtype_name(in->dtype));
  TFCC_OP_CHECK(ctx, in->rank >= 1 && in->rank <= 6, TFCC_ERR_SHAPE,
                "%s: input 0 rank %d outside [1, 6]", op, (int)in->rank);
  TFCC_OP_CHECK(ctx, init->dtype == in->dtype && tfcc_tensor_elements(init) == 1, TFCC_ERR_DTYPE,
                "%s: input 1 (init_value) must be one %s element", op, tfcc_dtype_name(in->dtype));
  return tfcc_so_check_out_dtype(ctx, op, 0, ctx->out[0], in->dtype);
}

/* The work eval does (macs hook): one step per window element of each output element (every
 * window lies inside the input, so a window as large as half of it over each of the other half
 * is quadratic in the input). window: the window's size per dimension. */
static inline int64_t tfcc_rw_work(const tfcc_tensor *out, const int64_t *window) {
  int64_t n = 1;
  for (int32_t k = 0; k < out->rank; k++) n = tfcc_work_mul(n, out->dims[k]);
  for (int32_t k = 0; k < out->rank && n > 0; k++) n = tfcc_work_mul(n, window[k]);
  return n;
}

#endif
