/* What BATCH_TO_SPACE_ND and SPACE_TO_BATCH_ND share: the input/shape/value checks of their
 * prepare, and reading block_shape plus the per-dimension (before, after) pairs (crops or
 * paddings) with the range checks both apply. */
#ifndef TFCC_OPS_SPACE_BATCH_ARGS_H
#define TFCC_OPS_SPACE_BATCH_ARGS_H

#include "ops/op.h"

/* Checks input rank (3 or 4), reads in[1] as block_shape and in[2] as `pairs_name` (e.g.
 * "crops"): m = rank - 2 blocks in [1, INT32_MAX] and m pairs in [0, INT32_MAX]. For m == 1,
 * block[1] = 1 and pairs[2] = 0 so the rank-4 kernels serve. */
tfcc_status tfcc_space_batch_args(tfcc_op_ctx *ctx, const char *op, const tfcc_tensor *in,
                                  const char *pairs_name, int64_t block[2], int64_t pairs[4],
                                  int32_t *m);

/* Arity (3 in, 1 out), dtype and output-dtype checks of both operators' prepare. */
tfcc_status tfcc_space_batch_check(tfcc_op_ctx *ctx, const char *op, tfcc_tensor **in);

#endif
