/* QUANTIZE / DEQUANTIZE / requantize kernels with TFLite arithmetic;
 * the contract is in quantize.h. */
#include "kernels/ref/quantize.h"

#include <math.h>
#include <string.h>

#include "kernels/ref/float8.h"
#include "kernels/ref/quant_util.h"
#include "kernels/ref/xnn_quant.h"

/* int4: one value per byte (tfcc's int4 storage), range [-8, 7]; types: uint4 likewise, [0, 15],
 * int2 [-2, 1] */
static int32_t qmin_of(tfcc_dtype t) {
  return t == TFCC_UINT8 || t == TFCC_UINT4 ? 0
         : t == TFCC_INT8                   ? -128
         : t == TFCC_INT4                   ? -8
         : t == TFCC_INT2                   ? -2
                                            : (t == TFCC_INT32 ? INT32_MIN : -32768);
}
static int32_t qmax_of(tfcc_dtype t) {
  return t == TFCC_UINT8   ? 255
         : t == TFCC_INT8  ? 127
         : t == TFCC_INT4  ? 7
         : t == TFCC_UINT4 ? 15
         : t == TFCC_INT2  ? 1
                           : (t == TFCC_INT32 ? INT32_MAX : 32767);
}

static void store_q(tfcc_dtype t, void *out, size_t i, int32_t v) {
  if (t == TFCC_UINT8 || t == TFCC_UINT4)
    ((uint8_t *)out)[i] = (uint8_t)v;
  else if (t == TFCC_INT8 || t == TFCC_INT4 || t == TFCC_INT2)
    ((int8_t *)out)[i] = (int8_t)v;
  else if (t == TFCC_INT32)
    ((int32_t *)out)[i] = v;
  else
    ((int16_t *)out)[i] = (int16_t)v;
}

static int32_t load_q(tfcc_dtype t, const void *in, size_t i) {
  if (t == TFCC_UINT8 || t == TFCC_UINT4) return ((const uint8_t *)in)[i];
  if (t == TFCC_INT8 || t == TFCC_INT4 || t == TFCC_INT2) return ((const int8_t *)in)[i];
  if (t == TFCC_INT32) return ((const int32_t *)in)[i];
  return ((const int16_t *)in)[i];
}

/* One element of TFLite's AffineQuantize. f64: optimized_ops::AffineQuantize, the kernel its
 * default resolver runs for 8- and 16-bit outputs, divides in double, round(x / (double)scale)
 * (measured with the classic interpreter: conformance xnn_delegate_fails_quantize_ties_*);
 * else x / scale in float (PerChannelQuantize, AffineQuantizeToInt4 / ToUInt4). NaN is stored
 * as the zero point (TFLite's static_cast of a NaN double is undefined; this keeps the output
 * defined). */
static int32_t quantize_one(float x, float scale, int32_t zp, int32_t qmin, int32_t qmax,
                            bool f64) {
  const double q = f64 ? round((double)x / (double)scale) : (double)roundf(x / scale);
  const double unclamped = q + (double)zp;
  if (unclamped != unclamped) return tfcc_clamp_i32(zp, qmin, qmax);
  double c = unclamped < (double)qmin ? (double)qmin : unclamped;
  c = c > (double)qmax ? (double)qmax : c;
  return (int32_t)c;
}

void tfcc_affine_quantize(const float *in, tfcc_dtype out_type, void *out, size_t n, float scale,
                          int32_t zp) {
  const int32_t qmin = qmin_of(out_type), qmax = qmax_of(out_type);
  /* 4-bit outputs: AffineQuantizeToInt4 / ToUInt4 divide in float (conformance
   * quantize_f32_u4_zp15_v5) */
  const bool f64 = out_type != TFCC_INT4 && out_type != TFCC_UINT4 && out_type != TFCC_INT2;
  for (size_t i = 0; i < n; i++)
    store_q(out_type, out, i, quantize_one(in[i], scale, zp, qmin, qmax, f64));
}

void tfcc_affine_quantize_pc(const float *in, tfcc_dtype out_type, void *out, size_t outer,
                             size_t channels, size_t inner, const float *scales,
                             const int32_t *zps) {
  const int32_t qmin = qmin_of(out_type), qmax = qmax_of(out_type);
  size_t i = 0;
  for (size_t o = 0; o < outer; o++)
    for (size_t c = 0; c < channels; c++)
      for (size_t k = 0; k < inner; k++, i++)
        store_q(out_type, out, i, quantize_one(in[i], scales[c], zps[c], qmin, qmax, false));
}

void tfcc_requantize(tfcc_dtype in_type, const void *in, tfcc_dtype out_type, void *out, size_t n,
                     int32_t multiplier, int shift, int32_t in_zp, int32_t out_zp) {
  const int32_t qmin = qmin_of(out_type), qmax = qmax_of(out_type);
  for (size_t i = 0; i < n; i++) {
    /* int32 arithmetic as reference_ops::Requantize: the differences and sums wrap (they
     * can only overflow with int32 data) */
    const int32_t x = (int32_t)((uint32_t)load_q(in_type, in, i) - (uint32_t)in_zp);
    const int32_t v = (int32_t)((uint32_t)tfcc_mbqm(x, multiplier, shift) + (uint32_t)out_zp);
    store_q(out_type, out, i, v < qmin ? qmin : (v > qmax ? qmax : v));
  }
}

float tfcc_half_to_float(uint16_t h) {
  const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13); /* inf / NaN (payload kept) */
  } else if (exp != 0) {
    bits = sign | ((exp + 112u) << 23) | (mant << 13); /* rebias 15 -> 127 */
  } else if (mant == 0) {
    bits = sign; /* +-0 */
  } else {
    /* subnormal: value = mant * 2^-24; normalise */
    int e = -1;
    do {
      e++;
      mant <<= 1;
    } while (!(mant & 0x400u));
    mant &= 0x3ffu;
    bits = sign | ((uint32_t)(112 - e) << 23) | (mant << 13);
  }
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

void tfcc_dequantize(tfcc_dtype in_type, const void *in, float *out, size_t n, float scale,
                     int32_t zp) {
  if (in_type == TFCC_FLOAT16) {
    const uint8_t *p = (const uint8_t *)in;
    for (size_t i = 0; i < n; i++) {
      uint16_t h;
      memcpy(&h, p + 2 * i, 2);
      out[i] = tfcc_half_to_float(h);
    }
    return;
  }
  if (in_type == TFCC_FLOAT8_E4M3FN || in_type == TFCC_FLOAT8_E5M2) {
    for (size_t i = 0; i < n; i++)
      out[i] = tfcc_f8_to_f32(((const uint8_t *)in)[i], in_type == TFCC_FLOAT8_E5M2);
    return;
  }
  const double s = scale;
  for (size_t i = 0; i < n; i++) out[i] = (float)(s * (double)(load_q(in_type, in, i) - zp));
}

void tfcc_dequantize_pc(tfcc_dtype in_type, const void *in, float *out, size_t outer,
                        size_t channels, size_t inner, const float *scales, const int32_t *zps) {
  size_t i = 0;
  for (size_t o = 0; o < outer; o++)
    for (size_t c = 0; c < channels; c++)
      for (size_t k = 0; k < inner; k++, i++)
        out[i] = scales[c] * (float)(load_q(in_type, in, i) - zps[c]);
}

/* ---------------------------------------------------------------- XNNPACK converts */

void tfcc_xnn_quantize_f32(const float *in, tfcc_dtype out_type, void *out, size_t n,
                           float inv_scale, int32_t zp) {
  const int32_t qmin = out_type == TFCC_UINT8 ? 0 : -128, qmax = out_type == TFCC_UINT8 ? 255 : 127;
  for (size_t i = 0; i < n; i++) {
    const int32_t q = tfcc_quantize_fp32(in[i], inv_scale, zp, qmin, qmax);
    if (out_type == TFCC_UINT8)
      ((uint8_t *)out)[i] = (uint8_t)q;
    else
      ((int8_t *)out)[i] = (int8_t)q;
  }
}

int32_t tfcc_xnn_requant_elem(int32_t x, int32_t mult, int32_t in_zp, int32_t out_zp, int32_t qmin,
                              int32_t qmax) {
  const int32_t bias = (int32_t)((uint32_t)out_zp << 8) - mult * in_zp + 0x80;
  const int32_t acc = bias + x * mult;
  /* arithmetic shift right by 8 (floor) */
  int32_t v = acc >= 0 ? acc >> 8 : -(int32_t)(~(uint32_t)acc >> 8) - 1;
  return v < qmin ? qmin : (v > qmax ? qmax : v);
}

void tfcc_xnn_requantize_q8(tfcc_dtype type, const void *in, void *out, size_t n, int32_t mult,
                            int32_t in_zp, int32_t out_zp) {
  if (type == TFCC_UINT8) {
    const uint8_t *a = in;
    uint8_t *o = out;
    for (size_t i = 0; i < n; i++)
      o[i] = (uint8_t)tfcc_xnn_requant_elem(a[i], mult, in_zp, out_zp, 0, 255);
  } else {
    const int8_t *a = in;
    int8_t *o = out;
    for (size_t i = 0; i < n; i++)
      o[i] = (int8_t)tfcc_xnn_requant_elem(a[i], mult, in_zp, out_zp, -128, 127);
  }
}
