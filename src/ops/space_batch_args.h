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

/* One run's arguments (block_shape, the crops or paddings pairs) and its input and output as
 * rank-4 shapes for the kernels. */
typedef struct tfcc_space_batch {
  int64_t block[2], pairs[4];
  int32_t in4[4], out4[4];
} tfcc_space_batch;

/* in4 and out4 from the input and the output dims (rank 3 or 4; dims checked by the prepare's
 * tfcc_so_set_shape, so a dim past INT32_MAX never reaches a kernel). */
void tfcc_space_batch_dims4(const tfcc_tensor *in, const int64_t *out_dims, tfcc_space_batch *p);

/* An operator's arguments and output dims from its input (prepare and eval alike). */
typedef tfcc_status (*tfcc_space_batch_fn)(tfcc_op_ctx *ctx, const tfcc_tensor *in,
                                           tfcc_space_batch *p, int64_t *out_dims);
/* The prepare of both: tfcc_space_batch_check, `compute`, the output shape. */
tfcc_status tfcc_space_batch_prepare(tfcc_op_ctx *ctx, const char *op, tfcc_space_batch_fn compute);

#endif
