/* Lookup-table kernels of quantized EXP / LOG / RSQRT; the contract is in lut.h. */
#include "kernels/ref/lut.h"

#include <math.h>

#include "kernels/ref/l2norm.h"
#include "kernels/ref/quant_util.h"
#include "kernels/ref/softmax.h"

static int32_t f32_to_i32_sat(float v) {
  if (!(v == v)) return 0;
  if (v >= 2147483647.0f) return INT32_MAX;
  if (v <= -2147483648.0f) return INT32_MIN;
  return (int32_t)v;
}

void tfcc_lut8_build_fn(tfcc_dtype type, float in_scale, int32_t in_zp, float out_scale,
                        int32_t out_zp, tfcc_lut_fn f, const void *arg, uint8_t lut[256]) {
  const int32_t minval = type == TFCC_INT8 ? -128 : 0;
  const int32_t maxval = type == TFCC_INT8 ? 127 : 255;
  const float inverse_scale = 1 / out_scale;
  for (int32_t val = minval; val <= maxval; ++val) {
    const float dequantized = in_scale * (float)(val - in_zp);
    const float rescaled = roundf(f(dequantized, arg) * inverse_scale);
    const int32_t quantized = f32_to_i32_sat(rescaled + (float)out_zp);
    lut[(uint8_t)val] = (uint8_t)tfcc_clamp_i32(quantized, minval, maxval);
  }
}

static float clamp_i16f(float v) {
  return !(v >= -32768.0f) ? -32768.0f : (v > 32767.0f ? 32767.0f : v); /* NaN: the low end */
}

void tfcc_lut16_build_fn(float in_scale, int32_t in_zp, float out_scale, int32_t out_zp,
                         tfcc_lut_fn f, const void *arg, int16_t lut[TFCC_LUT16_SIZE]) {
  const float input_min = in_scale * (float)(-32768 - in_zp);
  const float input_max = in_scale * (float)(32767 - in_zp);
  const float output_min = out_scale * (float)(-32768 - out_zp);
  const float output_max = out_scale * (float)(32767 - out_zp);
  const int nb_steps = 512;
  const float step = (input_max - input_min) / (float)nb_steps;
  const float half_step = step / 2;
  const float scaling_inv = 65536.0f / (output_max - output_min);
  for (int i = 0; i < nb_steps; i++) {
    const float x = input_min + (float)i * step;
    const float val = f(x, arg);
    const float val_midpoint = f(x + half_step, arg);
    const float val_next = f(input_min + (float)(i + 1) * step, arg);
    const float sample_val = roundf(val * scaling_inv);
    const float midpoint_interp_val =
        roundf((val_next * scaling_inv + roundf(val * scaling_inv)) / 2);
    const float midpoint_val = roundf(val_midpoint * scaling_inv);
    const float bias = roundf((midpoint_interp_val - midpoint_val) / 2);
    lut[i] = (int16_t)clamp_i16f(sample_val - bias);
  }
  lut[nb_steps] = (int16_t)clamp_i16f(roundf(f(input_max, arg) * scaling_inv));
}

void tfcc_lut16_apply(const int16_t *in, int16_t *out, size_t n,
                      const int16_t lut[TFCC_LUT16_SIZE]) {
  for (size_t i = 0; i < n; i++) out[i] = tfcc_lut16_lookup(in[i], lut);
}

int8_t tfcc_rsqrt_i8(int32_t q, int32_t in_zp, int32_t out_zp, int32_t mult, int shift) {
  const int32_t value = q - in_zp;
  const int k_shift = 20; /* keeps the inverse square root an integer */
  if (value == 0) return 127;
  int32_t inv_mult;
  int inv_shift;
  tfcc_inv_sqrt_multiplier_exp(value, -1, &inv_mult, &inv_shift);
  const int32_t data = tfcc_mbqm(1, inv_mult, inv_shift + k_shift);
  const int32_t r = tfcc_mbqm(data, mult, shift - k_shift) + out_zp;
  return (int8_t)tfcc_clamp_i32(r, -128, 127);
}
