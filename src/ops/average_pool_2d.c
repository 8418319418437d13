/* AVERAGE_POOL_2D: Pool2DOptions; see ops/pool_common.c and kernels/ref/pool.c. Float32 in a
 * subgraph with hybrid nodes (TFLITE mode), windows of up to 9 taps: XNNPACK's unipass order,
 * kernels/tflite-f32/xnn_avgpool.c. */
#include "ops/pool_common.h"

TFCC_POOL_OP_DEF(tfcc_op_average_pool_2d, "AVERAGE_POOL_2D", TFCC_POOL_AVG, tfcc_pool_kernel_name);
