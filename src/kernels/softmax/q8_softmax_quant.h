/* The reference's quantization of one 8-bit softmax probability (tfcc_softmax_q8,
 * kernels/ref/softmax.c), for the portable q8-softmax rows and the vector body's tails. */
#ifndef TFCC_KERNELS_SOFTMAX_Q8_SOFTMAX_QUANT_H
#define TFCC_KERNELS_SOFTMAX_Q8_SOFTMAX_QUANT_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

static inline int32_t tfcc_q8sm_to_i32_sat(float v) {
  if (v != v) return 0;
  if (v >= 2147483648.f) return INT32_MAX;
  if (v < -2147483648.f) return INT32_MIN;
  return (int32_t)v;
}

/* roundf (half away from zero) then to_i32_sat, without the libm call for the usual range:
 * for 0 <= p < 2^23, p - trunc(p) is exact, so comparing it with 0.5 decides as roundf. */
static inline int32_t tfcc_q8sm_round_sat(float p) {
  if (p >= 0.f && p < 8388608.f) {
    const int32_t i = (int32_t)p;
    return i + (p - (float)i >= 0.5f);
  }
  return tfcc_q8sm_to_i32_sat(roundf(p));
}

/* uint8: (int)(prob + 0.5f) clamped; int8: roundf(prob) + zp (wrapping), clamped */
static inline uint8_t tfcc_q8sm_quantize(float prob, bool u8, int32_t zp) {
  int32_t q;
  if (u8) {
    q = tfcc_q8sm_to_i32_sat(prob + 0.5f);
    return (uint8_t)(q < 0 ? 0 : q > 255 ? 255 : q);
  }
  q = (int32_t)((uint32_t)tfcc_q8sm_round_sat(prob) + (uint32_t)zp);
  return (uint8_t)(int8_t)(q < -128 ? -128 : q > 127 ? 127 : q);
}

#endif
