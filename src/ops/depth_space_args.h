/* What DEPTH_TO_SPACE and SPACE_TO_DEPTH share: arity, dtype, rank-4 and block_size checks,
 * and the strided copy of their evals. */
#ifndef TFCC_OPS_DEPTH_SPACE_ARGS_H
#define TFCC_OPS_DEPTH_SPACE_ARGS_H

#include "ops/op.h"

/* Checks one rank-4 input of a copyable dtype, an output of the same dtype and the options'
 * block_size (field 0) in [1, 65536]; sets *in and *bs. */
tfcc_status tfcc_depth_space_args(tfcc_op_ctx *ctx, const char *op, tfcc_tensor **in, int32_t *bs);
/* The eval: copies in[0] to out[0] as kernels/move's planned copy (tfcc_ref_copy_nd is its
 * reference twin): the output laid out contiguously as a 6-D view of the input read with
 * strides. d2s: DEPTH_TO_SPACE, else SPACE_TO_DEPTH; block size from the node's options. */
void tfcc_depth_space_copy(tfcc_op_ctx *ctx, bool d2s);
/* The kernel's name for the profile ("move-runs", "move-transpose", ...). */
const char *tfcc_depth_space_kernel(const tfcc_op_ctx *ctx, bool d2s);

#endif
