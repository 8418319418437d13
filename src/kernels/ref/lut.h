/* Lookup-table kernels of the quantized element-wise math operators (EXP, LOG, RSQRT on int8 /
 * int16), built exactly as TensorFlow Lite's LUTPopulate<int8_t|int16_t> (float math, with a
 * parameter for the transform) and applied as its reference_integer_ops::LookupTable. */
#ifndef TFCC_KERNELS_REF_LUT_H
#define TFCC_KERNELS_REF_LUT_H

#include <stddef.h>
#include <stdint.h>

#include "tfcc/tfcc.h"

#define TFCC_LUT16_SIZE 513

/* f(x, arg): the real function the table samples. */
typedef float (*tfcc_lut_fn)(float x, const void *arg);

/* int8 / uint8: entry for raw byte b = clamp(round(f(in_scale * (q - in_zp)) / out_scale) +
 * out_zp), indexed by the byte (int8 values cast to uint8). */
void tfcc_lut8_build_fn(tfcc_dtype type, float in_scale, int32_t in_zp, float out_scale,
                        int32_t out_zp, tfcc_lut_fn f, const void *arg, uint8_t lut[256]);

/* int16: 512 linear segments over the input's representable range, each sample biased by half
 * its midpoint interpolation error (LUTPopulateInt16<float>). */
void tfcc_lut16_build_fn(float in_scale, int32_t in_zp, float out_scale, int32_t out_zp,
                         tfcc_lut_fn f, const void *arg, int16_t lut[TFCC_LUT16_SIZE]);
void tfcc_lut16_apply(const int16_t *in, int16_t *out, size_t n,
                      const int16_t lut[TFCC_LUT16_SIZE]);

/* Quantized int8 RSQRT of one value (elementwise.cc RsqrtEvalQuantizedInt8): v = q - in_zp
 * (>= 0; 0 gives 127), Newton-Raphson inverse square root, then the output multiplier
 * QuantizeMultiplier(1 / (sqrt(in_scale) * out_scale)). */
int8_t tfcc_rsqrt_i8(int32_t q, int32_t in_zp, int32_t out_zp, int32_t mult, int shift);

#endif
