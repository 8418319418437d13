/* Reference fully-connected kernels: out[b][u] = act(sum_k in[b][k] * w[u][k] + bias[u]),
 * matching TensorFlow Lite's reference FullyConnected (float, uint8) and
 * reference_integer_ops::FullyConnected / FullyConnectedPerChannel (int8, 16x8).
 * Weights are [units, accum] row-major. */
#ifndef TFCC_KERNELS_REF_FULLY_CONNECTED_H
#define TFCC_KERNELS_REF_FULLY_CONNECTED_H

#include <stdint.h>

#include "kernels/ref/conv.h"

typedef struct tfcc_fc_dims {
  int32_t batches, accum, units;
} tfcc_fc_dims;

void tfcc_fc_f32(const tfcc_fc_dims *d, const float *in, const float *w, const float *bias,
                 float act_min, float act_max, float *out);
/* float32 in the order of TFLite's builtin FULLY_CONNECTED through Eigen's GEBP (what LiteRT.js
 * runs for run-time weights: 4-batch groups sum even and odd k apart over the depth rounded down
 * to 8, then the rest; other batches in order; depth blocks of at most 816); measured bit-exact
 * against LiteRT on single-node models (conformance hybrid_net_fc_runtime_weights_*). */
void tfcc_fc_f32_eigen(const tfcc_fc_dims *d, const float *in, const float *w, const float *bias,
                       float act_min, float act_max, float *out);
/* TFLite's Eigen backend takes one unit (lhs rows 1) or one batch (rhs columns 1) as a
 * matrix-vector product, not GEBP (cpu_backend_gemm_eigen.cc): tfcc_fc_f32_eigen_gemv sums
 * each output over its whole depth in order, one accumulator, products and sums apart
 * (measured on LiteRT: conformance hybrid_net_fc_runtime_weights_gemv_*). */
static inline bool tfcc_fc_eigen_is_gemv(const tfcc_fc_dims *d) {
  return d->units == 1 || d->batches == 1;
}
void tfcc_fc_f32_eigen_gemv(const tfcc_fc_dims *d, const float *in, const float *w,
                            const float *bias, float act_min, float act_max, float *out);
/* The depth block of that order for depth k (k itself up to 816; kernels/hybrid/fc_eigen.h's
 * vector variants block the same way). */
int32_t tfcc_fc_eigen_kc(int32_t k);
/* uint8: input and weight offsets. int8: weight offset applies for per-tensor weights only
 * (q->filter_offset is 0 for per-channel), as TFLite. */
void tfcc_fc_u8(const tfcc_fc_dims *d, const tfcc_conv_requant *q, const uint8_t *in,
                const uint8_t *w, const int32_t *bias, uint8_t *out);
void tfcc_fc_i8(const tfcc_fc_dims *d, const tfcc_conv_requant *q, const int8_t *in,
                const int8_t *w, const int32_t *bias, int8_t *out);
/* 16x8: with an int32 bias TFLite accumulates in int32, with an int64 bias (or none) in
 * int64. real (ops; per unit when q->mult_stride is 1, else one value): the effective scales
 * input * weight / output in double; when given, the sum is rescaled as current TFLite's
 * reference kernel does, round(acc * real) (half away from zero), else with the multiplier
 * routines (the int32 one for an int32 bias, the int64 one otherwise). */
void tfcc_fc_i16(const tfcc_fc_dims *d, const tfcc_conv_requant *q, const int16_t *in,
                 const int8_t *w, const int64_t *bias64, const int32_t *bias32, const double *real,
                 int16_t *out);
/* tfcc_fc_i16's output of unit u from its int64 sum acc (shared with kernels/q16-dot). */
int16_t tfcc_fc_i16_out(int64_t acc, int32_t u, const tfcc_conv_requant *q, const int64_t *bias64,
                        const int32_t *bias32, const double *real);

#endif
