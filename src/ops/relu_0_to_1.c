/* RELU_0_TO_1: float, uint8, int8 (TFLite activations.cc Relu0to1Eval; no int16 kernel). */
#include "ops/act_common.h"

static tfcc_status relu_0_to_1_init(tfcc_init_ctx *ctx) {
  return tfcc_relux_op_init(ctx, 0.0f, 1.0f, false);
}

const tfcc_op_def tfcc_op_relu_0_to_1 = {
    .name = "RELU_0_TO_1",
    .init = relu_0_to_1_init,
    .prepare = tfcc_relux_op_prepare,
    .eval = tfcc_relux_op_eval,
    .kernel = tfcc_relux_op_kernel,
    .inplace_ok = true,
};
