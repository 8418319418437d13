/* RELU6: float, uint8, int8, int16 (see the RELU family in relu.c). */
#include "ops/act_common.h"

static tfcc_status relu6_init(tfcc_init_ctx *ctx) {
  return tfcc_relux_op_init(ctx, 0.0f, 6.0f, true);
}

const tfcc_op_def tfcc_op_relu6 = {
    .name = "RELU6",
    .init = relu6_init,
    .prepare = tfcc_relux_op_prepare,
    .eval = tfcc_relux_op_eval,
    .kernel = tfcc_relux_op_kernel,
    .inplace_ok = true,
};
