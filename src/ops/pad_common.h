/* Shared by PAD, PADV2 and MIRROR_PAD: reads the known [rank, 2] paddings (int32/int64) and sets
 * the output shape. */
#ifndef TFCC_OPS_PAD_COMMON_H
#define TFCC_OPS_PAD_COMMON_H

#include "ops/op.h"

tfcc_status tfcc_pad_read(tfcc_op_ctx *ctx, const char *op, const tfcc_tensor *in,
                          const tfcc_tensor *paddings, int64_t *before, int64_t *after);
/* prepare for PAD / PADV2: arity, dtypes, paddings, output shape. */
tfcc_status tfcc_pad_prepare_common(tfcc_op_ctx *ctx, const char *op, int32_t min_in,
                                    int32_t max_in);
/* The default pad element of out: 0, or the zero point of a quantized uint8/int8/int16 output
 * (TFLite pad.cc), as the output's bytes in value[0..es). */
void tfcc_pad_zero_value(const tfcc_tensor *out, uint8_t value[8]);
/* eval for PAD / PADV2 with the pad element at value. */
tfcc_status tfcc_pad_eval_common(tfcc_op_ctx *ctx, const char *op, const void *value);
/* The kernel name PAD / PADV2 report (kernels/f32-copy/pad.c, any dtype). */
const char *tfcc_pad_kernel_name(const tfcc_op_ctx *ctx);

#endif
