/* Shared operator logic of AVERAGE_POOL_2D, MAX_POOL_2D and L2_POOL_2D: Pool2DOptions
 * (padding, stride_w, stride_h, filter_width, filter_height, fused_activation_function),
 * NHWC input, same dtype out. */
#ifndef TFCC_OPS_POOL_COMMON_H
#define TFCC_OPS_POOL_COMMON_H

#include "ops/op.h"

typedef enum { TFCC_POOL_AVG, TFCC_POOL_MAX, TFCC_POOL_L2 } tfcc_pool_kind;

tfcc_status tfcc_pool_init(tfcc_init_ctx *ctx, tfcc_pool_kind kind);

/* The operator definition `def` of pooling kind `kind`: init through tfcc_pool_init, the
 * shared prepare and eval; `kernel_fn` names the kernel for the profile (NULL: none). */
#define TFCC_POOL_OP_DEF(def, op_name, kind, kernel_fn) \
  static tfcc_status init(tfcc_init_ctx *ctx) { return tfcc_pool_init(ctx, kind); } \
  const tfcc_op_def def = {.name = op_name, \
                           .init = init, \
                           .prepare = tfcc_pool_prepare, \
                           .eval = tfcc_pool_eval, \
                           .macs = tfcc_pool_macs, \
                           .kernel = kernel_fn}
tfcc_status tfcc_pool_prepare(tfcc_op_ctx *ctx);
tfcc_status tfcc_pool_eval(tfcc_op_ctx *ctx);
/* The window taps eval walks at the current shapes (op macs hook). */
int64_t tfcc_pool_macs(const tfcc_op_ctx *ctx);
/* Name of the kernel eval runs (op kernel hook): "pool-avx512"..., or "ref". */
const char *tfcc_pool_kernel_name(const tfcc_op_ctx *ctx);

#endif
