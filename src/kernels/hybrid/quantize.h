/* Run-time quantization of float32 activations for the dynamic-range ("hybrid") operators:
 * float32 input, int8 constant weights, int32 accumulation. One call quantizes one group of
 * values (a batch, a row or a pixel, as the operator decides) to int8 with its own scale and
 * zero point. Three schemes, the three ways TensorFlow Lite does it (docs/quantization.md):
 *
 *   qd8   XNNPACK's dynamically quantized int8 (xnn_f32_qd8 convert): range [min(0, lo),
 *         max(0, hi)], inv = 255 / range in float, zero point from the smaller error side,
 *         nudged with lrintf; q = clamp(rint(x * inv) + zp); the accumulator is dequantized
 *         with scale = 1 / inv.
 *   sym   TFLite's builtin SymmetricQuantizeFloats: r = max(|lo|, |hi|), scale = r / 127,
 *         q = clamp(round(x * (127 / r)), -127, 127) (round half away from zero), zp 0.
 *   asym  TFLite's builtin AsymmetricQuantizeFloats: scale = (range) / 255 and the zero point
 *         in double, q = clamp(round(zp + x * (1 / scale))), the sum in float, rounded half
 *         away from zero (not round(x / scale) + zp: the float sum can round to a half).
 *
 * An all-zero group gets scale 1 and every q equal to its zero point (0, or 127 for qd8). */
#ifndef TFCC_KERNELS_HYBRID_QUANTIZE_H
#define TFCC_KERNELS_HYBRID_QUANTIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <math.h>

#include "kernels/quantize/quantize.h"

typedef enum tfcc_hyb_scheme {
  TFCC_HYB_QD8 = 0,
  TFCC_HYB_SYM = 1,
  TFCC_HYB_ASYM = 2,
} tfcc_hyb_scheme;

/* Smallest and largest value of x[0..n), n >= 1 (vectorised builds: hyb_out.h). */
typedef void (*tfcc_hyb_minmax_fn)(const float *x, size_t n, float *lo, float *hi);

/* v = clamp(round_half_away(clamp(zp + x[i] * inv, -256, 256)), qmin, qmax) (float sum), the element of
 * the sym and asym schemes (vectorised builds: hyb_out.h), stored as int8 q[i] = v, or
 * (centered) as int16 q[i] = v - zp (in [-255, 255]). */
typedef void (*tfcc_hyb_round_fn)(const float *x, size_t n, float inv, int32_t zp, int32_t qmin,
                                  int32_t qmax, void *q, bool centered);

/* Quantizes x[0..n) (n >= 1) into q; *scale is what an int32 accumulator of (q - zp) * w is
 * multiplied by, *zp the zero point. qz: the vectorised QUANTIZE kernels (their XNNPACK
 * f32 -> int8 element is qd8's) and mm a vectorised min/max for qd8, or NULL for the portable
 * loops; the result is the same. */
void tfcc_hyb_quantize(tfcc_hyb_scheme s, const float *x, size_t n, int8_t *q, float *scale,
                       int32_t *zp, const tfcc_qz_kernel *qz, tfcc_hyb_minmax_fn mm);
/* The same with a vectorised element of the sym and asym schemes (rnd; NULL: the portable
 * loop), whose min/max pass is then mm too. */
void tfcc_hyb_quantize_vec(tfcc_hyb_scheme s, const float *x, size_t n, int8_t *q, float *scale,
                           int32_t *zp, const tfcc_qz_kernel *qz, tfcc_hyb_minmax_fn mm,
                           tfcc_hyb_round_fn rnd);

/* Whether x[0..n) holds a NaN. XNNPACK's qd8 quantization as LiteRT runs it (WebAssembly's
 * NaN-propagating min / max) gives a group holding a NaN a NaN scale, so every output computed
 * from that group (a row, a pixel, a batch image) is NaN: the qd8 paths set the group's scale to
 * NaN where this is true (sweep62b; the builtin sym / asym schemes keep TFLite's
 * std::minmax_element semantics). */
static inline bool tfcc_hyb_any_nan(const float *x, size_t n) {
  int bad = 0;
  for (size_t i = 0; i < n; i++) bad |= x[i] != x[i];
  return bad != 0;
}

/* XNNPACK's qd8 parameters of a group whose extremes are lo and hi: the multiplier inv
 * (= 1 / scale), the zero point and the scale (inline: once per row of a 1x1 convolution). */
static inline void tfcc_hyb_qd8_params(float lo, float hi, float *inv, int32_t *zp, float *scale) {
  const float qmin = -128.0f, qmax = 127.0f;
  const float rmin = lo < 0.0f ? lo : 0.0f;
  const float rmax = hi > 0.0f ? hi : 0.0f;
  const float s = rmin == rmax ? 1.0f : (qmax - qmin) / (rmax - rmin);
  const float dmin = rmin * s, dmax = rmax * s;
  const float emin = qmin + dmin, emax = qmax + dmax;
  float z = emin + emax > 0.0f ? qmin - dmin : qmax - dmax;
  z = z > qmin ? z : qmin;
  z = z < qmax ? z : qmax;
  *inv = s;
  *zp = (int32_t)lrintf(z);
  *scale = 1.0f / s;
}

/* qd8 of `rows` rows of len floats, one group per row (vectorised builds: hyb_out.h); off (0 or
 * 128) is added to every stored byte (modulo 256) and zero point: 128 stores the q8 GEMM's
 * uint8 q + 128 and zero points + 128 (ops/hybrid.c) directly. */
typedef void (*tfcc_hyb_qd8_rows_fn)(const float *x, size_t len, size_t rows, int8_t *q,
                                     float *scale, int32_t *zp, int32_t off);

/* The asym scale and zero point of a group whose extremes are lo and hi (the element's
 * multiplier is 1.0f / scale); false for an all-zero range (scale 1, zp 0, every q 0). */
bool tfcc_hyb_asym_params(float lo, float hi, float *scale, int32_t *zp);

/* asym into int16 values q - zp (the hybrid depthwise kernel's input). */
void tfcc_hyb_quantize_asym_centered(const float *x, size_t n, int16_t *q, float *scale,
                                     int32_t *zp, tfcc_hyb_minmax_fn mm, tfcc_hyb_round_fn rnd);

#endif
