/* What DEPTH_TO_SPACE and SPACE_TO_DEPTH share: arity, dtype, rank-4 and block_size checks,
 * and the strided copy of their evals. */
#ifndef TFCC_OPS_DEPTH_SPACE_ARGS_H
#define TFCC_OPS_DEPTH_SPACE_ARGS_H

#include "ops/op.h"

/* Checks one rank-4 input of a copyable dtype, an output of the same dtype and the options'
 * block_size (field 0) in [1, 65536]; sets *in and *bs. */
tfcc_status tfcc_depth_space_args(tfcc_op_ctx *ctx, const char *op, tfcc_tensor **in, int32_t *bs);
/* The eval: copies in[0], read with strides `is` over the 6-D view `dims`, to out[0] laid out
 * contiguously in that view. */
void tfcc_depth_space_copy(tfcc_op_ctx *ctx, const int32_t dims[6], const int64_t is[6]);

#endif
