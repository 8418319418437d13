/* Shared prepare/eval of the reduction operators (MEAN, SUM, REDUCE_PROD, REDUCE_MAX,
 * REDUCE_MIN, REDUCE_ANY, REDUCE_ALL: TFLite reduce.cc) and of ARG_MAX/ARG_MIN (TFLite arg_min_max.cc). */
#ifndef TFCC_OPS_REDUCE_COMMON_H
#define TFCC_OPS_REDUCE_COMMON_H

#include <stdatomic.h>
#include <stdbool.h>

#include "ops/op.h"

typedef enum tfcc_reduce_op {
  TFCC_REDUCE_OP_MEAN = 0,
  TFCC_REDUCE_OP_SUM,
  TFCC_REDUCE_OP_PROD,
  TFCC_REDUCE_OP_MAX,
  TFCC_REDUCE_OP_MIN,
  TFCC_REDUCE_OP_ANY, /* bool only: logical or (REDUCE_ANY) */
  TFCC_REDUCE_OP_ALL  /* bool only: logical and (REDUCE_ALL) */
} tfcc_reduce_op;

/* init of MEAN and SUM: records the model's quant_compat (params: tfcc_reduce_params). */
typedef struct tfcc_reduce_params {
  int quant_compat;
  bool xnn_axes; /* the axis tensor as TFLite's XNNPACK delegate takes it (VisitReduceNode):
                         a model constant of rank 0 or 1 with at least one axis; a 2-D or empty
                         one, which the builtin kernels accept, leaves the node to them (act59) */
  /* uint8 / int8 MEAN and SUM, decided from the model's tensors: */
  bool xnn_q8;        /* TFLite's XNNPACK delegate runs it (VisitReduceNode): TFLITE mode, xnn_axes,
                         one scale and zero point on input and output; XNNPACK's arithmetic */
  bool q8_mean_mult;  /* act59: a MEAN the delegate leaves to LiteRT's builtin kernel (TFLITE mode,
                         not xnn_q8, positive scales): QuantizedMeanOrSum's integer multiplier,
                         except TFLite's 4-D H,W mean (is_mean_hw, a run's shapes and axes) */
  bool xnn_f32_mean;  /* ops: float32 MEAN over axes {1, 2} of a 4-D input in a hybrid model,
                         TFLITE mode: XNNPACK's mean (the sum times 1.0f / n, not divided) */
  bool xnn_f32_rmean; /* exact2: float32 MEAN of a hybrid model, TFLITE mode (the delegate takes
                         it: VisitReduceNode): reduced over trailing axes, XNNPACK's f32-rsum
                         order (tfcc_xnn_rsum_f32) times 1.0f / n; exact7: SUM too (times 1) */
  bool xnn_f32_gavgpool_old; /* exact5: the spatial MEAN in REFERENCE mode of a hybrid subgraph:
                                the older XNNPACK's global average pooling
                                (tfcc_xnn_gavgpool_f32_old) */
  atomic_bool logged;        /* KERNEL_FALLBACK noted */
} tfcc_reduce_params;
tfcc_status tfcc_reduce_op_init(tfcc_init_ctx *ctx);

tfcc_status tfcc_reduce_op_prepare(tfcc_op_ctx *ctx, tfcc_reduce_op op);
tfcc_status tfcc_reduce_op_eval(tfcc_op_ctx *ctx, tfcc_reduce_op op);
/* Name of the kernel eval runs for MEAN / SUM (op kernel hook): "reduce-avx512"..., or "ref". */
const char *tfcc_reduce_op_kernel(const tfcc_op_ctx *ctx, tfcc_reduce_op op);

tfcc_status tfcc_arg_op_prepare(tfcc_op_ctx *ctx, bool is_max);
tfcc_status tfcc_arg_op_eval(tfcc_op_ctx *ctx, bool is_max);

#endif
