/* Reference L2 normalization along the last dimension, matching TensorFlow Lite's reference
 * L2Normalization (float with epsilon 1e-6; uint8 and int8 through
 * GetInvSqrtQuantizedMultiplierExp, output scale 1/128). */
#ifndef TFCC_KERNELS_REF_L2NORM_H
#define TFCC_KERNELS_REF_L2NORM_H

#include <stdint.h>

void tfcc_l2norm_f32(int32_t outer, int32_t depth, const float *in, float *out);
void tfcc_l2norm_u8(int32_t outer, int32_t depth, int32_t in_zp, const uint8_t *in, uint8_t *out);
void tfcc_l2norm_i8(int32_t outer, int32_t depth, int32_t in_zp, const int8_t *in, int8_t *out);

/* tflite::GetInvSqrtQuantizedMultiplierExp (Newton-Raphson in gemmlowp fixed point). */
void tfcc_inv_sqrt_multiplier_exp(int32_t input, int reverse_shift, int32_t *mult, int *shift);

#endif
