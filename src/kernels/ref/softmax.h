/* Softmax and log-softmax kernels over the last dimension (outer x depth rows), matching the
 * TensorFlow Lite default builtin kernels:
 *   float         exp((x - max) * beta) / sum, (x - max) - log(sum exp(x - max))
 *   uint8/int8    optimized_ops::Softmax / LogSoftmax: a 256-entry float table of
 *                 exp(-input_scale * beta * d) indexed by d = max - x, float sums
 *   int16         reference_ops::SoftmaxInt16: int16 exp and 1/(1+x) tables with interpolation */
#ifndef TFCC_KERNELS_REF_SOFTMAX_H
#define TFCC_KERNELS_REF_SOFTMAX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tfcc/tfcc.h"

void tfcc_softmax_f32(const float *in, float *out, size_t outer, size_t depth, float beta);
void tfcc_log_softmax_f32(const float *in, float *out, size_t outer, size_t depth);
/* types: float16 SOFTMAX (v4): the max in half, exp((x - max) * beta) and its sum in float32;
 * out = half(e / sum), or with half_exp half(half(e) / sum) as reference_ops::Softmax<half>,
 * which stores each exp as half before dividing. */
void tfcc_softmax_f16(const uint16_t *in, uint16_t *out, size_t outer, size_t depth, float beta,
                      bool half_exp);

/* table[255 - d] = expf((-input_scale * beta) * d), d = 0..255 (PopulateSoftmaxLookupTable). */
void tfcc_softmax_table_build(float table[256], float input_scale, float beta);

/* in_type uint8|int8; out_type uint8|int8|int16. uint8 output is (int)(p + 0.5f) and ignores
 * the zero point, like TFLite's non-aarch64 QuantizeSoftmaxOutput<uint8_t>; others round(p)+zp. */
void tfcc_softmax_q8(tfcc_dtype in_type, const void *in, tfcc_dtype out_type, void *out,
                     size_t outer, size_t depth, const float table[256], float out_scale,
                     int32_t out_zp);

/* LOG_SOFTMAX uint8/int8 (table built with beta 1). */
void tfcc_log_softmax_q8(tfcc_dtype type, const void *in, void *out, size_t outer, size_t depth,
                         const float table[256], float in_scale, float out_scale, int32_t out_zp);

#define TFCC_SOFTMAX_I16_LUT 513
typedef struct tfcc_softmax_i16_params {
  int32_t input_multiplier;
  int input_shift;
  int16_t exp_lut[TFCC_SOFTMAX_I16_LUT];   /* exp(x), x in [-10, 0] */
  int16_t recip_lut[TFCC_SOFTMAX_I16_LUT]; /* 1 / (1 + x), x in [0, 1] */
} tfcc_softmax_i16_params;

/* As SoftmaxPrepare for int16 (double arithmetic of the LUT generator). */
void tfcc_softmax_i16_params_init(float input_scale, float beta, tfcc_softmax_i16_params *p);
void tfcc_softmax_i16(const int16_t *in, int16_t *out, size_t outer, size_t depth,
                      const tfcc_softmax_i16_params *p);
/* SoftmaxInt16's pieces, for the vector kernels' tails (kernels/softmax/q16_softmax_body.h):
 * the exp table's value for x in a row whose maximum is max_in_row; from the row's sum of
 * exps, the 1 / sum table value and the right shift (false where the sum has no headroom:
 * unreachable for real data, the row is then zeros); one exp times the reciprocal. */
int16_t tfcc_softmax_i16_exp(int16_t x, int16_t max_in_row, const tfcc_softmax_i16_params *p);
bool tfcc_softmax_i16_recip(int32_t sum_of_exps, const tfcc_softmax_i16_params *p,
                            int16_t *reciprocal_q015, int *right_shift);
int16_t tfcc_softmax_i16_scale(int16_t e, int16_t reciprocal_q015, int right_shift);

/* tflite LUTLookup for a 513-entry int16 table. */
int16_t tfcc_lut16_lookup(int16_t value, const int16_t *lut);

#endif
