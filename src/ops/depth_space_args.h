/* What DEPTH_TO_SPACE and SPACE_TO_DEPTH share: arity, dtype, rank-4 and block_size checks. */
#ifndef TFCC_OPS_DEPTH_SPACE_ARGS_H
#define TFCC_OPS_DEPTH_SPACE_ARGS_H

#include "ops/op.h"

/* Checks one rank-4 input of a copyable dtype, an output of the same dtype and the options'
 * block_size (field 0) in [1, 65536]; sets *in and *bs. */
tfcc_status tfcc_depth_space_args(tfcc_op_ctx *ctx, const char *op, tfcc_tensor **in, int32_t *bs);

#endif
