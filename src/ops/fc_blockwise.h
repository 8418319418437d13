/* FULLY_CONNECTED with a float32 input and constant weights under blockwise quantization
 * (QuantizationDetails BlockwiseQuantization: int4 or int8 weights [units, accum], one float16 /
 * float32 scale per block of block_size along accum, in the tensor the details name; zero
 * points -1, i.e. symmetric), as TFLite's default build runs it (XNNPACK's qd8 x qb4w GEMM:
 * kernels/ref/fc_blockwise.h). */
#ifndef TFCC_OPS_FC_BLOCKWISE_H
#define TFCC_OPS_FC_BLOCKWISE_H

#include <stdbool.h>
#include <stdint.h>

#include "ops/op.h"

typedef struct tfcc_fc_blockwise tfcc_fc_blockwise;

/* Input 0 float32 and input 1 a weights tensor with blockwise quantization. */
bool tfcc_fc_blockwise_applies(const tfcc_init_ctx *ctx);
/* Checks the weights, the scales tensor and the zero points; keeps the scales as XNNPACK does
 * (bfloat16). act: the fused activation. */
tfcc_status tfcc_fc_blockwise_init(const tfcc_init_ctx *ctx, int32_t act, tfcc_fc_blockwise **out);
void tfcc_fc_blockwise_free(tfcc_fc_blockwise *b);
/* dtypes and sizes of this run's tensors; scratch for one quantized row. */
tfcc_status tfcc_fc_blockwise_prepare(tfcc_op_ctx *ctx, const tfcc_fc_blockwise *b, int32_t units,
                                      int32_t accum);
tfcc_status tfcc_fc_blockwise_eval(tfcc_op_ctx *ctx, const tfcc_fc_blockwise *b, int32_t batches,
                                   int32_t units, int32_t accum);

#endif
