/* What the operators that copy elements under an integer argument tensor (TILE: multiples,
 * TRANSPOSE: perm, BROADCAST_TO: shape) check alike at prepare, each against its own list of
 * accepted dtypes: the ones TFLite's kernel for that operator runs (LiteRT 2.5.3, checked with
 * one model per dtype: every fixed-size dtype, float8 included, runs through all three), and
 * int4 for TRANSPOSE only (v7). */
#ifndef TFCC_OPS_COPY_OPS_H
#define TFCC_OPS_COPY_OPS_H

#include "kernels/ref/copy.h"
#include "ops/shape_ops_util.h"

/* The fixed-size dtypes and float8, bytes copied (tfcc_so_copyable); -1 ends each list. */
#define TFCC_COPY_DTYPES \
  TFCC_FLOAT32, TFCC_FLOAT16, TFCC_BFLOAT16, TFCC_FLOAT64, TFCC_INT8, TFCC_INT16, TFCC_INT32, \
      TFCC_INT64, TFCC_UINT8, TFCC_UINT16, TFCC_UINT32, TFCC_UINT64, TFCC_BOOL, TFCC_COMPLEX64, \
      TFCC_FLOAT8_E4M3FN, TFCC_FLOAT8_E5M2

/* Exactly two inputs (the data into *in, the argument into *arg) and one output; the data's
 * dtype is one of `accepted` (terminated by -1), the output has the same dtype. Where
 * `accepted` holds int4 (one value per byte), a constant int4 tensor of the file, unpacked to
 * int8 at load, may have an int4 output (tfcc_so_check_copy_out_dtype). */
static inline tfcc_status tfcc_copy_op_open(tfcc_op_ctx *ctx, const char *op, const int *accepted,
                                            tfcc_tensor **in, tfcc_tensor **arg) {
  tfcc_status st = tfcc_so_open_typed(ctx, op, 2, 2, 1, accepted, in);
  if (st || (st = tfcc_so_input(ctx, 1, op, arg))) return st;
  bool int4 = false;
  for (const int *a = accepted; *a >= 0; a++) int4 |= *a == TFCC_INT4;
  return int4 ? tfcc_so_check_copy_out_dtype(ctx, op, *in, ctx->out[0])
              : tfcc_so_check_out_dtype(ctx, op, 0, ctx->out[0], (*in)->dtype);
}

#endif
