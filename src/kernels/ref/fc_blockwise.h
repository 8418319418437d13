/* FULLY_CONNECTED with blockwise-quantized int8 weights (int4 in the file, unpacked by the
 * loader) and a float32 input, in the arithmetic of TensorFlow Lite's default build (XNNPACK's
 * qd8 x qb4w GEMM): the input row is quantized to qd8 (q, zero point, scale) by the caller;
 * each block of block_size weights of a row gives an int32 sum of (q - zp) * w, accumulated in
 * float as sum * block scale, blocks in order; the output is acc * scale + bias, clamped to
 * [lo, hi]. Block scales as XNNPACK stores them: rounded to bfloat16 (tfcc_fc_bw_scale).
 * tfcc_fc_blockwise_row_builtin: TFLite's builtin EvalBlockwise4Bit (blocks XNNPACK does not
 * take, REFERENCE mode): per block a float sum * scale of the raw q * w, then
 * out - zp * sum(scale * block weight sum), times the input scale, plus bias. */
#ifndef TFCC_KERNELS_REF_FC_BLOCKWISE_H
#define TFCC_KERNELS_REF_FC_BLOCKWISE_H

#include <stdint.h>

/* f rounded to bfloat16 (nearest, ties to even) and widened back to float. */
float tfcc_fc_bw_scale(float f);

/* out[units] of one quantized row q[accum]; w [units][accum], bscale [units][accum / bs],
 * bias [units] or NULL. */
void tfcc_fc_blockwise_row(const int8_t *q, int32_t zp, float scale, const int8_t *w,
                           const float *bscale, const float *bias, int32_t units, int32_t accum,
                           int32_t bs, float lo, float hi, float *out);

void tfcc_fc_blockwise_row_builtin(const int8_t *q, int32_t zp, float scale, const int8_t *w,
                                   const float *bscale, const float *bias, int32_t units,
                                   int32_t accum, int32_t bs, float lo, float hi, float *out);

#endif
