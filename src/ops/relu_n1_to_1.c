/* RELU_N1_TO_1: float, uint8, int8 (TFLite has no int16 kernel for it). */
#include "ops/act_common.h"

static tfcc_status relu_n1_to_1_init(tfcc_init_ctx *ctx) {
  return tfcc_relux_op_init(ctx, -1.0f, 1.0f, false);
}

const tfcc_op_def tfcc_op_relu_n1_to_1 = {
    .name = "RELU_N1_TO_1",
    .init = relu_n1_to_1_init,
    .prepare = tfcc_relux_op_prepare,
    .eval = tfcc_relux_op_eval,
    .kernel = tfcc_relux_op_kernel,
    .inplace_ok = true,
};
