/* What the operators that copy elements of any fixed-size dtype under an integer argument tensor
 * (TILE: multiples, TRANSPOSE: perm, BROADCAST_TO: shape) check alike at prepare. */
#ifndef TFCC_OPS_COPY_OPS_H
#define TFCC_OPS_COPY_OPS_H

#include "kernels/ref/copy.h"
#include "ops/shape_ops_util.h"

/* Exactly two inputs (the data into *in, the argument into *arg) and one output; the data's
 * dtype has fixed-size elements or is float8 (tfcc_so_copyable), the output has the same dtype.
 * with_int4: int4 data is accepted too (one value per byte), and a constant int4 tensor of the
 * file, unpacked to int8 at load, may have an int4 output (tfcc_so_check_copy_out_dtype). */
static inline tfcc_status tfcc_copy_op_open(tfcc_op_ctx *ctx, const char *op, bool with_int4,
                                            tfcc_tensor **in, tfcc_tensor **arg) {
  tfcc_status st = tfcc_so_open(ctx, op, 2, 2, 1, in);
  if (st || (st = tfcc_so_input(ctx, 1, op, arg))) return st;
  const tfcc_dtype dt = (*in)->dtype;
  TFCC_OP_CHECK(ctx, tfcc_so_copyable(dt) || (with_int4 && dt == TFCC_INT4), TFCC_ERR_UNSUPPORTED,
                "%s: input dtype %s is not supported", op, tfcc_dtype_name(dt));
  return with_int4 ? tfcc_so_check_copy_out_dtype(ctx, op, *in, ctx->out[0])
                   : tfcc_so_check_out_dtype(ctx, op, 0, ctx->out[0], dt);
}

#endif
