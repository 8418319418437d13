/* XNNPACK's quantization arithmetic (TensorFlow Lite's default CPU delegate), used by the
 * kernels when a model runs in TFCC_QUANT_COMPAT_TFLITE mode for the operators that delegate
 * takes. Everything is float: a real scale computed in float (not a Q0.31 multiplier), values
 * rounded half to even (lrintf in the default rounding mode), clamping done in float before
 * rounding. See docs/quantization.md. */
#ifndef TFCC_KERNELS_REF_XNN_QUANT_H
#define TFCC_KERNELS_REF_XNN_QUANT_H

#include <math.h>
#include <stdint.h>

/* The requantization step of XNNPACK's "fp32" integer kernels (qs8/qu8/qc8 gemm, igemm,
 * dwconv, vadd, avgpool...): acc (int32, bias included) times scale, clamped to
 * [qmin - zp, qmax - zp] in float, rounded half to even, plus zp. One output channel's scale;
 * kept small and branch-free so SIMD kernels can mirror it lane by lane. */
static inline int32_t tfcc_requant_fp32(int32_t acc, float scale, int32_t zp, int32_t qmin,
                                        int32_t qmax) {
  float f = (float)acc * scale;
  const float lo = (float)(qmin - zp), hi = (float)(qmax - zp);
  f = f < lo ? lo : f;
  f = f > hi ? hi : f;
  return (int32_t)lrintf(f) + zp;
}

/* XNNPACK's f32 -> qs8/qu8 convert element: x * scale (scale = 1 / output scale, in float),
 * clamped to [qmin - zp, qmax - zp] (a NaN becomes qmin - zp), rounded half to even, + zp. */
static inline int32_t tfcc_quantize_fp32(float x, float scale, int32_t zp, int32_t qmin,
                                         int32_t qmax) {
  float f = x * scale;
  f = fmaxf(f, (float)(qmin - zp));
  f = fminf(f, (float)(qmax - zp));
  return (int32_t)lrintf(f) + zp;
}

/* xnn_qs8_quantize / xnn_qu8_quantize: a real value (an activation bound) to the storage
 * type, round half to even, saturating to [qmin, qmax]. */
static inline int32_t tfcc_xnn_quantize(float v, float scale, int32_t zp, int32_t qmin,
                                        int32_t qmax) {
  float f = v / scale + (float)zp;
  f = fmaxf(f, (float)qmin);
  f = fminf(f, (float)qmax);
  return (int32_t)lrintf(f);
}

/* The float output range TFLite's XNNPACK delegate gives a fused activation
 * (ConvertActivationToOutputRange): NONE -inf..inf, RELU 0..inf, RELU_N1_TO_1 -1..1,
 * RELU6 0..6. */
static inline void tfcc_xnn_act_bounds(int act, float *lo, float *hi) {
  *lo = -INFINITY;
  *hi = INFINITY;
  if (act == 1)
    *lo = 0.f;
  else if (act == 2) {
    *lo = -1.f;
    *hi = 1.f;
  } else if (act == 3) {
    *lo = 0.f;
    *hi = 6.f;
  }
}

/* Quantized fused-activation range as XNNPACK's subgraph computes it for an output with
 * the given scale and zero point and storage range [qmin, qmax]. */
static inline void tfcc_xnn_act_range(int act, float scale, int32_t zp, int32_t qmin, int32_t qmax,
                                      int32_t *lo, int32_t *hi) {
  float flo, fhi;
  tfcc_xnn_act_bounds(act, &flo, &fhi);
  *lo = tfcc_xnn_quantize(flo, scale, zp, qmin, qmax);
  *hi = tfcc_xnn_quantize(fhi, scale, zp, qmin, qmax);
}

#endif
