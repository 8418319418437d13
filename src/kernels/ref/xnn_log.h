/* Float32 LOG as TensorFlow Lite's default build computes it: its XNNPACK delegate takes the
 * node and runs XNNPACK's f32-vlog "rational-3-3-div" (WebAssembly SIMD without relaxed
 * instructions: no fused multiply-add), bit for bit. Used for the float LOG of hybrid models
 * in TFLITE mode (ops/log.c): a spectrogram front end's LOG feeds convolutions that quantize
 * their input at run time, where its up to 33-ulp differences from a correctly rounded logf
 * become whole quantization steps (docs/quantization.md "Hybrid"). */
#ifndef TFCC_KERNELS_REF_XNN_LOG_H
#define TFCC_KERNELS_REF_XNN_LOG_H

#include <stddef.h>

/* y[i] = XNNPACK's log(x[i]): t = x * s (s = 1.4142134f, the float just below sqrt(2) whose
 * product with 0.70710689f is exactly 1), e = t's unbiased exponent as a float (-inf for a
 * zero or a negative denormal, NaN for other negative t, its raw exponent field less 127
 * otherwise: denormals give -127, infinities and NaNs 128), m = (t's mantissa with exponent 0) * 0.70710689f - 1, then
 * p = m * (m * (m * a3 + 1) + 1) and q = m * (m * (m * b3 + b2) + b1) + 1 (every product and
 * sum rounded), y = e * ln2 + p / q. Unlike logf, infinities and NaNs give finite values. */
void tfcc_xnn_log_f32(const float *x, float *y, size_t n);

#endif
