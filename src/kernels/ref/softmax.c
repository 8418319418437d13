/* Softmax and log-softmax kernels over the last dimension; the contract is in softmax.h. */
#include "kernels/ref/softmax.h"

#include <float.h>
#include <math.h>

#include "kernels/ref/expf.h"
#include "kernels/ref/fixedpoint.h"
#include "kernels/ref/q_store.h"
#include "kernels/ref/quant_util.h"
#include "kernels/ref/unary.h"

void tfcc_softmax_f32(const float *in, float *out, size_t outer, size_t depth, float beta) {
  for (size_t r = 0; r < outer; r++, in += depth, out += depth) {
    float max = -FLT_MAX;
    for (size_t c = 0; c < depth; c++) max = in[c] > max ? in[c] : max;
    float sum = 0.f;
    for (size_t c = 0; c < depth; c++) {
      out[c] = tfcc_expf_ref((in[c] - max) * beta);
      sum += out[c];
    }
    const float inv = 1.f / sum; /* Eigen: scale = 1 / colwise sum, then multiply */
    for (size_t c = 0; c < depth; c++) out[c] *= inv;
  }
}

void tfcc_softmax_f16(const uint16_t *in, uint16_t *out, size_t outer, size_t depth, float beta,
                      bool half_exp) {
  for (size_t i = 0; i < outer; i++) {
    const uint16_t *x = in + i * depth;
    uint16_t *y = out + i * depth;
    float max = -65504.f; /* std::numeric_limits<half>::lowest(), then std::max */
    for (size_t c = 0; c < depth; c++) {
      const float v = tfcc_f16_to_f32(x[c]);
      max = max < v ? v : max;
    }
    float sum = 0.f;
    for (size_t c = 0; c < depth; c++) sum += tfcc_expf_ref((tfcc_f16_to_f32(x[c]) - max) * beta);
    for (size_t c = 0; c < depth; c++) {
      const float e = tfcc_expf_ref((tfcc_f16_to_f32(x[c]) - max) * beta);
      y[c] = tfcc_f32_to_f16((half_exp ? tfcc_f16_to_f32(tfcc_f32_to_f16(e)) : e) / sum);
    }
  }
}

void tfcc_log_softmax_f32(const float *in, float *out, size_t outer, size_t depth) {
  for (size_t r = 0; r < outer; r++, in += depth, out += depth) {
    float max = -FLT_MAX;
    for (size_t c = 0; c < depth; c++) max = in[c] > max ? in[c] : max;
    float sum = 0.f;
    for (size_t c = 0; c < depth; c++) sum += tfcc_expf_ref(in[c] - max);
    const float log_sum = logf(sum);
    for (size_t c = 0; c < depth; c++) out[c] = in[c] - max - log_sum;
  }
}

void tfcc_softmax_table_build(float table[256], float input_scale, float beta) {
  const float scale = -input_scale * beta;
  for (int32_t val = 0; val <= 255; ++val) table[255 - val] = tfcc_expf_ref(scale * (float)val);
}

static int32_t f32_to_i32_sat(float v) {
  if (v != v) return 0;
  if (v >= 2147483648.f) return INT32_MAX;
  if (v < -2147483648.f) return INT32_MIN;
  return (int32_t)v;
}

/* Reads element j of an 8-bit row as int32. */
static inline int32_t load8(tfcc_dtype t, const void *p, size_t j) {
  return t == TFCC_INT8 ? (int32_t)((const int8_t *)p)[j] : (int32_t)((const uint8_t *)p)[j];
}

/* An 8-bit row's maximum (from the type's lowest value up) and the sum of the exponentials
 * table[255 - (max - x)] over its elements x. Returns the table offset by the maximum:
 * table_offset[x] == table[255 - (max - x)]. */
static const float *row_exp_sum(tfcc_dtype t, const void *row, size_t depth, const float table[256],
                                int32_t *max_out, float *sum_out) {
  int32_t max_val = t == TFCC_INT8 ? -128 : 0;
  for (size_t j = 0; j < depth; j++) {
    const int32_t v = load8(t, row, j);
    max_val = v > max_val ? v : max_val;
  }
  const float *table_offset = table + (255 - max_val);
  float sum_exp = 0.0f;
  for (size_t j = 0; j < depth; j++) sum_exp += table_offset[load8(t, row, j)];
  *max_out = max_val;
  *sum_out = sum_exp;
  return table_offset;
}

void tfcc_softmax_q8(tfcc_dtype in_type, const void *in, tfcc_dtype out_type, void *out,
                     size_t outer, size_t depth, const float table[256], float out_scale,
                     int32_t out_zp) {
  const size_t out_size = out_type == TFCC_INT16 ? 2 : 1;
  int32_t clamp_min, clamp_max;
  tfcc_q_range(out_type, &clamp_min, &clamp_max);
  for (size_t r = 0; r < outer; r++) {
    const void *row = (const uint8_t *)in + r * depth;
    void *orow = (uint8_t *)out + r * depth * out_size;
    int32_t max_val;
    float sum_exp;
    const float *table_offset = row_exp_sum(in_type, row, depth, table, &max_val, &sum_exp);
    const float inv_sum_exp = 1.0f / (sum_exp * out_scale);
    for (size_t j = 0; j < depth; j++) {
      const float prob_rescaled = table_offset[load8(in_type, row, j)] * inv_sum_exp;
      int32_t q;
      if (out_type == TFCC_UINT8)
        q = f32_to_i32_sat(prob_rescaled + 0.5f);
      else
        q = tfcc_fp_add(f32_to_i32_sat(roundf(prob_rescaled)), out_zp);
      tfcc_q_store(out_type, orow, (int64_t)j, tfcc_clamp_i32(q, clamp_min, clamp_max));
    }
  }
}

void tfcc_log_softmax_q8(tfcc_dtype type, const void *in, void *out, size_t outer, size_t depth,
                         const float table[256], float in_scale, float out_scale, int32_t out_zp) {
  const int32_t clamp_min = type == TFCC_INT8 ? -128 : 0;
  const int32_t clamp_max = type == TFCC_INT8 ? 127 : 255;
  for (size_t r = 0; r < outer; r++) {
    const void *row = (const uint8_t *)in + r * depth;
    int32_t max_val;
    float sum_exp;
    (void)row_exp_sum(type, row, depth, table, &max_val, &sum_exp);
    const float log_sum_exp = logf(sum_exp);
    const float scale = in_scale / out_scale;
    const float precomputed = (in_scale * (float)max_val + log_sum_exp) / out_scale;
    for (size_t j = 0; j < depth; j++) {
      const float log_prob = scale * (float)load8(type, row, j) - precomputed;
      /* std::rint (ties to even) + zero point, in float, then to int */
      const int32_t q =
          tfcc_clamp_i32(f32_to_i32_sat(rintf(log_prob) + (float)out_zp), clamp_min, clamp_max);
      if (type == TFCC_INT8)
        ((int8_t *)out)[r * depth + j] = (int8_t)q;
      else
        ((uint8_t *)out)[r * depth + j] = (uint8_t)q;
    }
  }
}

/* tflite LUTPopulate<int16_t> in its double variant: 512 interpolation segments over
 * [input_min, input_max], each entry biased by half the midpoint interpolation error. */
static void lut16_populate(double input_scale, int32_t input_zp, double output_scale,
                           int32_t output_zp, double (*f)(double), int16_t *lut) {
  const double input_min = input_scale * (double)(-32768 - input_zp);
  const double input_max = input_scale * (double)(32767 - input_zp);
  const double output_min = output_scale * (double)(-32768 - output_zp);
  const double output_max = output_scale * (double)(32767 - output_zp);
  const int nb_steps = 512;
  const double step = (input_max - input_min) / nb_steps;
  const double half_step = step / 2;
  const double output_scaling_inv = (double)(32767 - (-32768) + 1) / (output_max - output_min);
  for (int i = 0; i < nb_steps; i++) {
    const double val = f(input_min + i * step);
    const double val_midpoint = f(input_min + i * step + half_step);
    const double val_next = f(input_min + (i + 1) * step);
    const double sample_val = round(val * output_scaling_inv);
    const double midpoint_interp_val =
        round((val_next * output_scaling_inv + round(val * output_scaling_inv)) / 2);
    const double midpoint_val = round(val_midpoint * output_scaling_inv);
    const double midpoint_err = midpoint_interp_val - midpoint_val;
    const double bias = round(midpoint_err / 2);
    double v = sample_val - bias;
    v = v < -32768.0 ? -32768.0 : (v > 32767.0 ? 32767.0 : v);
    lut[i] = (int16_t)v;
  }
  double last = round(f(input_max) * output_scaling_inv);
  last = last < -32768.0 ? -32768.0 : (last > 32767.0 ? 32767.0 : last);
  lut[nb_steps] = (int16_t)last;
}

static double exp_d(double x) { return exp(x); }
static double one_over_one_plus_x_d(double x) { return 1.0 / (1.0 + x); }

void tfcc_softmax_i16_params_init(float input_scale, float beta, tfcc_softmax_i16_params *p) {
  const int32_t range = 32767 - (-32768);
  lut16_populate(10.0 / range, 32767, 2.0 / range, 0, exp_d, p->exp_lut);
  lut16_populate(1.0 / range, -32768, 2.0 / range, 0, one_over_one_plus_x_d, p->recip_lut);
  /* input_scale * beta is a float product in TFLite, then divided in double. */
  const float scale_beta = input_scale * beta;
  const double rescale = (double)scale_beta / (10.0 / 65535.0);
  tfcc_quantize_multiplier(rescale, &p->input_multiplier, &p->input_shift);
}

int16_t tfcc_lut16_lookup(int16_t value, const int16_t *lut) {
  const int index = 256 + (tfcc_asr32(value, 7));
  const int32_t offset = value & 0x7f;
  const int32_t base = lut[index];
  const int32_t slope = (int32_t)lut[index + 1] - lut[index];
  const int32_t delta = tfcc_asr32(slope * offset + 64, 7);
  return tfcc_fp16_wrap(base + delta);
}

bool tfcc_softmax_i16_recip(int32_t sum_of_exps, const tfcc_softmax_i16_params *p,
                            int16_t *reciprocal_q015, int *right_shift) {
  const int headroom_plus_one = tfcc_clz32((uint32_t)sum_of_exps);
  /* unreachable for real data (the maximum contributes exp(0)) */
  if (headroom_plus_one < 1 || headroom_plus_one > 31) return false;
  const int32_t shifted_sum =
      (int32_t)((((int64_t)sum_of_exps << (headroom_plus_one - 1)) + (1 << 13)) >> 14);
  const int32_t sym_shifted_sum = shifted_sum + (-((1 << 15) + (1 << 16)));
  const int16_t sat_sum = (int16_t)tfcc_clamp_i32(sym_shifted_sum, -32768, 32767);
  *reciprocal_q015 = tfcc_lut16_lookup(sat_sum, p->recip_lut);
  *right_shift = 31 - headroom_plus_one;
  return true;
}

int16_t tfcc_softmax_i16_exp(int16_t x, int16_t max_in_row, const tfcc_softmax_i16_params *p) {
  const int32_t input_diff = (int32_t)x - max_in_row;
  const int32_t scaled_diff = tfcc_mbqm(input_diff, p->input_multiplier, p->input_shift);
  const int32_t sym = tfcc_fp_add(scaled_diff, 32767);
  return tfcc_lut16_lookup((int16_t)tfcc_clamp_i32(sym, -32768, 32767), p->exp_lut);
}

int16_t tfcc_softmax_i16_scale(int16_t e, int16_t reciprocal_q015, int right_shift) {
  const int64_t round = right_shift > 0 ? ((int64_t)1 << (right_shift - 1)) : 0;
  const int64_t prod = (int64_t)e * (int64_t)reciprocal_q015 + round;
  int64_t result =
      prod >= 0 ? prod >> right_shift : -((-prod + ((1LL << right_shift) - 1)) >> right_shift);
  int32_t r32 = (int32_t)(uint32_t)(uint64_t)result;
  return (int16_t)tfcc_clamp_i32(r32, 0, 32767);
}

void tfcc_softmax_i16(const int16_t *in, int16_t *out, size_t outer, size_t depth,
                      const tfcc_softmax_i16_params *p) {
  for (size_t r = 0; r < outer; r++, in += depth, out += depth) {
    int16_t max_in_row = INT16_MIN;
    for (size_t c = 0; c < depth; c++) max_in_row = in[c] > max_in_row ? in[c] : max_in_row;
    /* exp values are cached in the output row, as TFLite does. */
    int32_t sum_of_exps = 0; /* Q16.15 */
    for (size_t c = 0; c < depth; c++) {
      out[c] = tfcc_softmax_i16_exp(in[c], max_in_row, p);
      sum_of_exps = tfcc_fp_add(sum_of_exps, out[c]);
    }
    int16_t reciprocal_q015;
    int right_shift;
    if (!tfcc_softmax_i16_recip(sum_of_exps, p, &reciprocal_q015, &right_shift)) {
      for (size_t c = 0; c < depth; c++) out[c] = 0; /* keep the output defined */
      continue;
    }
    for (size_t c = 0; c < depth; c++)
      out[c] = tfcc_softmax_i16_scale(out[c], reciprocal_q015, right_shift);
  }
}
