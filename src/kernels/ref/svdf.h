/* SVDF (TFLite svdf.cc, reference_ops svdf.h): a rank-r singular value decomposition filter
 * with a per-filter memory of the last memory_size activations.
 *   state [batch, filters, memory] shifts left by one; its last column gets
 *   dot(weights_feature [filters, n_input], input); then per filter the dot product of its
 *   memory with weights_time [filters, memory], the sum over each unit's `rank` consecutive
 *   filters, plus bias [units], then the fused activation (units = filters / rank).
 * float32; hybrid (int8 weights_feature and weights_time with per-tensor scales, float input,
 * state and bias: the input is quantized per batch row at run time, weights_time dequantized as
 * q * scale); full integer (int8 input/output, int16 state and weights_time, int32 bias, the
 * feature product rescaled to the state's scale and the sum to the output's; TFLite applies no
 * activation there, it requires RELU in the options). */
#ifndef TFCC_KERNELS_REF_SVDF_H
#define TFCC_KERNELS_REF_SVDF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tfcc_svdf_shape {
  int32_t n_batch, n_input, n_filter, n_memory, rank;
} tfcc_svdf_shape;

/* Scratch bytes of every variant (int8 input copy, per-filter results, float weights_time). */
size_t tfcc_svdf_scratch_bytes(const tfcc_svdf_shape *s);

void tfcc_svdf_f32(const tfcc_svdf_shape *s, const float *input, const float *w_feature,
                   const float *w_time, const float *bias, int act, float *state, float *output,
                   void *scratch);

void tfcc_svdf_hybrid(const tfcc_svdf_shape *s, const float *input, const int8_t *w_feature,
                      float feature_scale, const int8_t *w_time, float time_scale,
                      const float *bias, int act, bool asymmetric, float *state, float *output,
                      void *scratch);

typedef struct tfcc_svdf_q_params {
  int32_t mult1, mult2; /* input * feature / state, state * time / output */
  int shift1, shift2;
  int32_t input_zp, output_zp;
} tfcc_svdf_q_params;

void tfcc_svdf_q8(const tfcc_svdf_shape *s, const tfcc_svdf_q_params *p, const int8_t *input,
                  const int8_t *w_feature, const int16_t *w_time, const int32_t *bias,
                  int16_t *state, int8_t *output, void *scratch);

#endif
