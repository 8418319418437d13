/* Shared part of SPLIT and SPLIT_V: output shapes from per-output sizes along an axis, and the
 * copy. */
#ifndef TFCC_OPS_SPLIT_COMMON_H
#define TFCC_OPS_SPLIT_COMMON_H

#include "ops/op.h"

#define TFCC_SPLIT_MAX_OUTPUTS 1024

/* Checks dtypes (outputs same as input), sets output i's shape to in's with dims[axis] =
 * sizes[i] and asks for scratch. */
tfcc_status tfcc_split_prepare_common(tfcc_op_ctx *ctx, const char *op, const tfcc_tensor *in,
                                      int32_t axis, const int64_t *sizes);
tfcc_status tfcc_split_eval_common(tfcc_op_ctx *ctx, const tfcc_tensor *in, int32_t axis);

#endif
