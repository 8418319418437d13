/* Element-wise activation kernels: float loops, the 256-entry table (lut8) builder, per-type
 * quantized loops (TFCC_Q_LOOP: RELU-family, LEAKY_RELU, HARD_SWISH), int16 LOGISTIC / TANH and
 * PRELU with broadcast alpha. */
#include "kernels/ref/activation.h"

#include <math.h>

#include "kernels/ref/expf.h"
#include "kernels/ref/fixedpoint.h"
#include "kernels/ref/quant_util.h"
#include "kernels/ref/unary.h"

/* ---------------------------------------------------------------- float */

void tfcc_clamp_f32(const float *in, float *out, size_t n, float lo, float hi) {
  for (size_t i = 0; i < n; i++) {
    float v = lo < in[i] ? in[i] : lo; /* std::max(lo, x): NaN -> lo */
    out[i] = hi < v ? hi : v;
  }
}

void tfcc_leaky_relu_f32(const float *in, float *out, size_t n, float alpha) {
  for (size_t i = 0; i < n; i++) out[i] = in[i] > 0.f ? in[i] : in[i] * alpha;
}

float tfcc_act_logistic(float x) { return 1.0f / (1.0f + tfcc_expf_ref(-x)); }
float tfcc_act_tanh(float x) { return tanhf(x); }
float tfcc_act_elu(float x) { return x < 0.0f ? expm1f(x) : x; }

float tfcc_act_logistic_xnn(float x) {
  if (x > 100.0f) return 1.0f;
  if (x < -100.0f) return 0.0f;
  const double e = exp((double)x);
  return (float)(e / (1.0 + e));
}

/* GELU as tflite::reference_ops::GeluTransform: 0.5 x erfc(-x / sqrt(2)) (avoids cancellation
 * of 1 + erf for large negative x). */
float tfcc_act_gelu(float x) {
  const float neg_sqrt1_2 = (float)-0.70710678118654752440;
  return 0.5f * x * erfcf(x * neg_sqrt1_2);
}

/* 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), sqrt(2/pi) rounded from double to float. */
float tfcc_act_gelu_approx(float x) {
  const float sqrt_2_over_pi = (float)(1.12837916709551257390 * 0.70710678118654752440);
  return 0.5f * x * (1.f + tanhf(sqrt_2_over_pi * (x + 0.044715f * x * x * x)));
}

void tfcc_logistic_f32(const float *in, float *out, size_t n) {
  for (size_t i = 0; i < n; i++) out[i] = tfcc_act_logistic(in[i]);
}

void tfcc_tanh_f32(const float *in, float *out, size_t n) {
  for (size_t i = 0; i < n; i++) out[i] = tanhf(in[i]);
}

/* TANH of hybrid models (activation.h): each step its own statement, so no compiler fuses a
 * multiply and an add (ISO C mode: GCC does not contract; Clang only within an expression). */
static float tanh_xnn_eval(float x_orig) {
  const float max_x = 7.8522667885e+00f;
  float x = max_x < x_orig ? max_x : x_orig; /* min(max, x): NaN passes */
  x = -max_x > x ? -max_x : x;
  const float x2 = x * x;
  float p = x2 * 1.4248920266e-08f;
  p = p + 2.1235626264e-05f;
  p = x2 * p;
  p = p + 3.5330520477e-03f;
  p = x2 * p;
  p = p + 1.3412411511e-01f;
  p = x2 * p;
  p = p + 1.0f;
  p = x * p;
  float q = x2 * 8.1365948290e-07f;
  q = q + 3.3472978976e-04f;
  q = x2 * q;
  q = q + 2.6018999517e-02f;
  q = x2 * q;
  q = q + 4.6745735407e-01f;
  q = x2 * q;
  q = q + 1.0f;
  return p / q;
}

void tfcc_tanh_f32_xnn(const float *in, float *out, size_t n) {
  for (size_t i = 0; i < n; i++) out[i] = tanh_xnn_eval(in[i]);
}

static float tanh_eigen_eval(float x_orig) {
  static const float alpha[7] = {
      4.89352455891786e-03f,  6.37261928875436e-04f, 1.48572235717979e-05f, 5.12229709037114e-08f,
      -8.60467152213735e-11f, 2.00018790482477e-13f, -2.76076847742355e-16f};
  static const float beta[4] = {4.89352518554385e-03f, 2.26843463243900e-03f, 1.18534705686654e-04f,
                                1.19825839466702e-06f};
  const float max_x = 7.90531110763549805f;
  if (fabsf(x_orig) < 0.0004f) return x_orig;
  float x = max_x < x_orig ? max_x : x_orig; /* NaN passes */
  x = -max_x > x ? -max_x : x;
  const float x2 = x * x;
  float p = alpha[6];
  for (int i = 5; i >= 0; i--) {
    p = x2 * p;
    p = p + alpha[i];
  }
  p = x * p;
  float q = beta[3];
  for (int i = 2; i >= 0; i--) {
    q = x2 * q;
    q = q + beta[i];
  }
  return p / q;
}

void tfcc_tanh_f32_eigen(const float *in, float *out, size_t n) {
  for (size_t i = 0; i < n; i++) out[i] = tanh_eigen_eval(in[i]);
}

float tfcc_act_tanh_eigen(float x) { return tanh_eigen_eval(x); }

float tfcc_act_logistic_eigen(float x) {
  const float e = tfcc_expf_ref(x); /* std::exp: the plain build's bits on every host */
  if (isinf(e)) return 1.f;         /* e / (1 + e) would be inf / inf; -inf gives 0 / 1 */
  const float d = 1.f + e;
  return e / d;
}

void tfcc_logistic_f32_eigen(const float *in, float *out, size_t n) {
  for (size_t i = 0; i < n; i++) out[i] = tfcc_act_logistic_eigen(in[i]);
}

void tfcc_elu_f32(const float *in, float *out, size_t n) {
  for (size_t i = 0; i < n; i++) out[i] = tfcc_act_elu(in[i]);
}

void tfcc_gelu_f32(const float *in, float *out, size_t n, bool approximate) {
  if (approximate)
    for (size_t i = 0; i < n; i++) out[i] = tfcc_act_gelu_approx(in[i]);
  else
    for (size_t i = 0; i < n; i++) out[i] = tfcc_act_gelu(in[i]);
}

/* float16 GELU as LiteRT's default build runs it: XNNPACK takes the node, widens each half to
 * float32, evaluates its f32 rational 12/10 interpolant of erf (gelu) or of tanh's argument form
 * (approxgelu) with separate multiplies and adds (its wasm SIMD kernel, no FMA), and rounds the
 * float32 result to half once. Checked against LiteRT.js on all 65536 inputs of both settings.
 * Each step is its own statement so that no compiler fuses a multiply and an add. */
typedef tfcc_gelu_rational gelu_rational;

static const gelu_rational gelu_erf_12_10 = {
    5.1158981323e+00f,
    {7.9788452387e-01f, 6.6972173750e-02f, 9.3065137044e-03f, 3.2973114867e-04f, 1.2609783880e-05f,
     4.5835321316e-08f},
    {2.5060352683e-01f, 2.8431978077e-02f, 1.8622842617e-03f, 7.2267655923e-05f,
     1.1988805682e-06f}};
static const gelu_rational gelu_tanh_12_10 = {
    4.86115026e+00f,
    {7.9788458347e-01f, 6.0803253204e-02f, 7.2898347862e-03f, 2.6887017884e-04f, 1.4302649106e-05f,
     4.9544411240e-08f},
    {2.4369759858e-01f, 2.4381054565e-02f, 1.3060354395e-03f, 7.6477612311e-05f,
     1.3433452750e-06f}};

static float gelu_rational_eval(float x_orig, const gelu_rational *r) {
  float x = r->max_abs < x_orig ? r->max_abs : x_orig; /* min(max, x): NaN passes */
  x = -r->max_abs > x ? -r->max_abs : x;
  const float x2 = x * x;
  float p = r->alpha[5];
  for (int i = 4; i >= 0; i--) {
    p = x2 * p;
    p = p + r->alpha[i];
  }
  p = x * p;
  float q = r->beta[4];
  for (int i = 3; i >= 0; i--) {
    q = x2 * q;
    q = q + r->beta[i];
  }
  q = x2 * q;
  q = q + 1.0f;
  const float e = p / q;
  const float h = x_orig * 0.5f;
  const float one_plus = e + 1.0f;
  return h * one_plus;
}

const tfcc_gelu_rational *tfcc_gelu_xnn_rational(bool approximate) {
  return approximate ? &gelu_tanh_12_10 : &gelu_erf_12_10;
}

void tfcc_gelu_f16(const uint16_t *in, uint16_t *out, size_t n, bool approximate) {
  const gelu_rational *r = approximate ? &gelu_tanh_12_10 : &gelu_erf_12_10;
  for (size_t i = 0; i < n; i++)
    out[i] = tfcc_f32_to_f16(gelu_rational_eval(tfcc_f16_to_f32(in[i]), r));
}

void tfcc_gelu_f32_xnn(const float *in, float *out, size_t n, bool approximate) {
  const gelu_rational *r = approximate ? &gelu_tanh_12_10 : &gelu_erf_12_10;
  for (size_t i = 0; i < n; i++) out[i] = gelu_rational_eval(in[i], r);
}

void tfcc_hard_swish_f32(const float *in, float *out, size_t n) {
  for (size_t i = 0; i < n; i++) {
    const float x = in[i];
    float r = x + 3.f;
    r = 0.f < r ? r : 0.f;
    r = 6.f < r ? 6.f : r;
    out[i] = x * r / 6.f;
  }
}

void tfcc_hard_swish_f32_builtin(const float *in, float *out, size_t n) {
  const float sixth = 1.0f / 6.0f;
  for (size_t i = 0; i < n; i++) {
    const float x = in[i];
    float r = x + 3.f;
    r = 0.f < r ? r : 0.f;
    r = 6.f < r ? 6.f : r;
    const float m = x * r;
    out[i] = m * sixth;
  }
}

/* ---------------------------------------------------------------- 8-bit lookup tables */

/* float -> int32 as a saturating conversion (NaN -> 0); TFLite's static_cast is only defined
 * in range, where both agree. */
static int32_t f32_to_i32_sat(float v) {
  if (v != v) return 0;
  if (v >= 2147483648.f) return INT32_MAX;
  if (v < -2147483648.f) return INT32_MIN;
  return (int32_t)v;
}

/* The 256 entries of f on the dequantized inputs: TFLite's LUTPopulate rounds f(x) / s_out (ties
 * away from zero) and then adds the zero point; XNNPACK adds it first and rounds ties to even. */
static void lut8_fill(tfcc_dtype type, float in_scale, int32_t in_zp, float out_scale,
                      int32_t out_zp, float (*f)(float), bool xnn, uint8_t lut[256]) {
  const int32_t minval = type == TFCC_INT8 ? -128 : 0;
  const int32_t maxval = type == TFCC_INT8 ? 127 : 255;
  const float inverse_scale = 1 / out_scale;
  for (int32_t val = minval; val <= maxval; ++val) {
    const float scaled = f(in_scale * (float)(val - in_zp)) * inverse_scale;
    const float q = xnn ? nearbyintf(scaled + (float)out_zp) : roundf(scaled) + (float)out_zp;
    const int32_t clamped = tfcc_clamp_i32(f32_to_i32_sat(q), minval, maxval);
    lut[(uint8_t)val] = (uint8_t)clamped; /* int8 values index as their byte */
  }
}

void tfcc_lut8_build(tfcc_dtype type, float in_scale, int32_t in_zp, float out_scale,
                     int32_t out_zp, float (*f)(float), uint8_t lut[256]) {
  lut8_fill(type, in_scale, in_zp, out_scale, out_zp, f, false, lut);
}

void tfcc_lut8_build_xnn(tfcc_dtype type, float in_scale, int32_t in_zp, float out_scale,
                         int32_t out_zp, float (*f)(float), uint8_t lut[256]) {
  lut8_fill(type, in_scale, in_zp, out_scale, out_zp, f, true, lut);
}

void tfcc_lut8_apply(const uint8_t *in, uint8_t *out, size_t n, const uint8_t lut[256]) {
  for (size_t i = 0; i < n; i++) out[i] = lut[in[i]];
}

/* ---------------------------------------------------------------- requantize + clamp */

/* Loops over the three quantized element types with one body. BODY reads `q` (int32 input) and
 * assigns `r` (int32, already clamped to the storage range by the body). */
#define TFCC_Q_LOOP_CASE(ENUM, T, QMIN, QMAX, in, out, n, BODY) \
  case ENUM: { \
    const T *src_ = (const T *)(in); \
    T *dst_ = (T *)(out); \
    const int32_t qmin_ = (QMIN), qmax_ = (QMAX); \
    for (size_t i_ = 0; i_ < (n); i_++) { \
      const int32_t q = src_[i_]; \
      int32_t r; \
      BODY; \
      dst_[i_] = (T)r; \
    } \
    (void)qmin_; \
    (void)qmax_; \
    break; \
  }
#define TFCC_Q_LOOP(type, in, out, n, BODY) \
  do { \
    switch (type) { \
      TFCC_Q_LOOP_CASE(TFCC_UINT8, uint8_t, 0, 255, in, out, n, BODY) \
      TFCC_Q_LOOP_CASE(TFCC_INT8, int8_t, -128, 127, in, out, n, BODY) \
      TFCC_Q_LOOP_CASE(TFCC_INT16, int16_t, -32768, 32767, in, out, n, BODY) \
      default: break; \
    } \
  } while (0)

void tfcc_relux_q(tfcc_dtype type, const void *in, void *out, size_t n,
                  const tfcc_relux_params *p) {
  TFCC_Q_LOOP(type, in, out, n, {
    int32_t v = tfcc_fp_add(p->out_zp, tfcc_mbqm(tfcc_fp_sub(q, p->in_zp), p->mult, p->shift));
    v = v < p->act_min ? p->act_min : v;
    v = v > p->act_max ? p->act_max : v;
    r = tfcc_clamp_i32(v, qmin_, qmax_);
  });
}

int32_t tfcc_xnn_lrelu_elem(int32_t d, const tfcc_leaky_relu_params *p, int32_t qmin,
                            int32_t qmax) {
  const int32_t m = d >= 0 ? p->xnn_pos_mult : p->xnn_neg_mult;
  const int32_t acc = (int32_t)((uint32_t)p->out_zp << 8) + 0x80 + d * m;
  /* arithmetic shift right by 8 (floor) */
  const int32_t v = acc >= 0 ? acc >> 8 : -(int32_t)(~(uint32_t)acc >> 8) - 1;
  return tfcc_clamp_i32(v, qmin, qmax);
}

void tfcc_leaky_relu_q(tfcc_dtype type, const void *in, void *out, size_t n,
                       const tfcc_leaky_relu_params *p) {
  if (p->xnn) {
    TFCC_Q_LOOP(type, in, out, n, { r = tfcc_xnn_lrelu_elem(q - p->in_zp, p, qmin_, qmax_); });
    return;
  }
  TFCC_Q_LOOP(type, in, out, n, {
    const int32_t x = tfcc_fp_sub(q, p->in_zp);
    const int32_t s = x >= 0 ? tfcc_mbqm(x, p->mult_identity, p->shift_identity)
                             : tfcc_mbqm(x, p->mult_alpha, p->shift_alpha);
    r = tfcc_clamp_i32(tfcc_fp_add(p->out_zp, s), qmin_, qmax_);
  });
}

/* ---------------------------------------------------------------- hard swish */

/* tflite DownScaleInt32ToInt16Multiplier. */
static int16_t downscale_multiplier(int32_t m) {
  if (m >= INT32_MAX - (1 << 15)) return INT16_MAX;
  return (int16_t)((m + (1 << 15)) >> 16);
}

bool tfcc_hard_swish_params_init(float in_scale, int32_t in_zp, float out_scale, int32_t out_zp,
                                 tfcc_hard_swish_params *p) {
  /* Float arithmetic exactly as HardSwishPrepare. */
  const float hires_input_scale = (1.0f / 128.0f) * in_scale;
  const float reluish_scale = 3.0f / 32768.0f;
  const float output_multiplier = hires_input_scale / out_scale;
  const float reluish_multiplier = hires_input_scale / reluish_scale;
  int32_t m32;
  p->in_zp = in_zp;
  p->out_zp = out_zp;
  tfcc_quantize_multiplier((double)output_multiplier, &m32, &p->output_exponent);
  p->output_multiplier = downscale_multiplier(m32);
  tfcc_quantize_multiplier((double)reluish_multiplier, &m32, &p->reluish_exponent);
  p->reluish_multiplier = downscale_multiplier(m32);
  return p->output_exponent <= 0;
}

/* gemmlowp RoundingDivideByPOT on int16 raw values: the mask is built in 16 bits, as the
 * int16 instantiation does (matters only for exponents >= 16). */
static int16_t rdbpot16(int16_t x, int exponent) {
  if (exponent <= 0) return x;
  if (exponent > 31) exponent = 31;
  const int16_t mask = (int16_t)(uint16_t)((1ULL << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return tfcc_fp16_wrap(tfcc_asr32(x, exponent) + (remainder > threshold ? 1 : 0));
}

static int16_t sat_left_shift16(int16_t v, int amount) {
  if (amount >= 31) return v > 0 ? INT16_MAX : (v < 0 ? INT16_MIN : 0);
  int64_t r = (int64_t)v * ((int64_t)1 << amount);
  return (int16_t)(r > INT16_MAX ? INT16_MAX : (r < INT16_MIN ? INT16_MIN : r));
}

/* Non-rounding 16-bit doubling high multiply (ARM SQDMULH). */
static int16_t sdhm16(int16_t a, int16_t b) {
  if (a == INT16_MIN && b == INT16_MIN) return INT16_MAX;
  return (int16_t)(((int32_t)a * (int32_t)b) / (1 << 15));
}

void tfcc_hard_swish_q(tfcc_dtype type, const void *in, void *out, size_t n,
                       const tfcc_hard_swish_params *p) {
  TFCC_Q_LOOP(type, in, out, n, {
    /* All intermediates are int16 as in reference_ops::HardSwish (wrap where it wraps). */
    const int16_t input_value = tfcc_fp16_wrap(q - p->in_zp);
    const int16_t hires = tfcc_fp16_wrap((int32_t)input_value * (1 << 7));
    const int16_t preshift_output = tfcc_fp16_mul(hires, p->output_multiplier);
    int16_t reluish = hires;
    if (p->reluish_exponent > 0) reluish = sat_left_shift16(reluish, p->reluish_exponent - 1);
    reluish = tfcc_fp16_mul(reluish, p->reluish_multiplier);
    if (p->reluish_exponent > 0) reluish = sat_left_shift16(reluish, 1);
    if (p->reluish_exponent < 0) reluish = rdbpot16(reluish, -p->reluish_exponent);
    reluish = (int16_t)(((int32_t)reluish + (1 << 15)) >> 1);
    const int16_t preshift = sdhm16(reluish, preshift_output);
    int16_t v = rdbpot16(preshift, -p->output_exponent);
    v = tfcc_fp16_wrap((int32_t)v + p->out_zp);
    r = tfcc_clamp_i32(v, qmin_, qmax_);
  });
}

/* ---------------------------------------------------------------- int16 logistic / tanh */

/* sigmoid(i / 24) in unsigned Q0.16 for i = 0..255: the values of TFLite's
 * sigmoid_table_uint16 (a tuned table, not a plain rounding of the function; needed as data
 * for bit-exact results). */
static const uint16_t k_sigmoid_q16[256] = {
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149, 40794,
    41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369, 47911, 48443,
    48964, 49475, 49975, 50464, 50942, 51409, 51865, 52311, 52745, 53169, 53581, 53983, 54374,
    54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433, 57724, 58007, 58280, 58544,
    58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110, 61279,
    61441, 61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886, 62990,
    63090, 63186, 63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835, 63903, 63968, 64030,
    64090, 64148, 64204, 64257, 64308, 64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652,
    64687, 64721, 64754, 64786, 64816, 64845, 64873, 64900, 64926, 64950, 64974, 64997, 65019,
    65039, 65060, 65079, 65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234,
    65246, 65258, 65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360,
    65367, 65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433,
    65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474, 65476,
    65479, 65481, 65483, 65485, 65488, 65489, 65491, 65493, 65495, 65497, 65498, 65500, 65501,
    65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513, 65514, 65515, 65516,
    65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524,
    65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529, 65529,
    65529, 65530, 65530, 65530, 65530, 65531, 65531, 65531, 65531, 65531, 65532, 65532, 65532,
    65532, 65532, 65532, 65533, 65533, 65533, 65533, 65533, 65533, 65533, 65533, 65534, 65534,
    65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65535,
};

void tfcc_logistic_i16_fixed(const int16_t *in, int16_t *out, size_t n) {
  for (size_t i = 0; i < n; i++) out[i] = tfcc_fp16_logistic(in[i], 3);
}

void tfcc_tanh_i16_fixed(const int16_t *in, int16_t *out, size_t n, int input_left_shift) {
  for (size_t i = 0; i < n; i++) {
    int16_t x = input_left_shift == 1 ? tfcc_fp16_mul_pot(in[i], 1) : in[i];
    out[i] = tfcc_fp16_tanh(x, 3);
  }
}

/* ((x * multiplier + round) >> shift) in wrapping int32 arithmetic, as the reference does. */
static int32_t scale_input_i16(int16_t x, int32_t multiplier, int shift) {
  const int32_t round = shift > 0 ? (int32_t)(1u << (shift - 1)) : 0;
  const int32_t prod = (int32_t)(uint32_t)((uint64_t)(int64_t)x * (uint64_t)(int64_t)multiplier);
  return tfcc_asr32(tfcc_fp_add(prod, round), shift);
}

/* The int16 general-scale kernels' input: power-of-two scales come with multiplier 0 and are
 * turned into multiplier 3 << shift. */
static inline void lut_input_scale(int32_t *multiplier, int *left_shift) {
  if (*multiplier == 0) {
    *multiplier = 3 << *left_shift;
    *left_shift = 0;
  }
}

/* The sigmoid table read at |x| with `bits` fraction bits: entries |x| >> bits and the next,
 * interpolated linearly by the low bits; `sat` past the table's end. */
static inline uint32_t sigmoid_lerp(uint32_t abs_x, int bits, uint32_t sat) {
  const uint32_t uh = abs_x >> bits;
  if (uh >= 255) return sat;
  const uint32_t ua = k_sigmoid_q16[uh], ub = k_sigmoid_q16[uh + 1];
  const uint32_t ut = abs_x & ((1u << bits) - 1u);
  return (ua << bits) + ut * (ub - ua);
}

static inline uint32_t abs_u32(int32_t x) { return x < 0 ? 0u - (uint32_t)x : (uint32_t)x; }

/* reference_integer_ops::Logistic (int16, general scale). */
void tfcc_logistic_i16_lut(const int16_t *in, int16_t *out, size_t n, int32_t input_multiplier,
                           int input_left_shift) {
  lut_input_scale(&input_multiplier, &input_left_shift);
  for (size_t i = 0; i < n; i++) {
    const int32_t x = scale_input_i16(in[i], input_multiplier, input_left_shift);
    uint32_t result = sigmoid_lerp(abs_u32(x), 9, 0x7FFFu << 10);
    result = x >= 0 ? result + (1u << 9) : (1u << 25) - result + (1u << 9) - 1u;
    out[i] = (int16_t)(result >> 10);
  }
}

/* reference_integer_ops::Tanh (int16, general scale), using tanh(x) = 2 sigmoid(2x) - 1. */
void tfcc_tanh_i16_lut(const int16_t *in, int16_t *out, size_t n, int32_t input_multiplier,
                       int input_left_shift) {
  lut_input_scale(&input_multiplier, &input_left_shift);
  for (size_t i = 0; i < n; i++) {
    const int32_t x = scale_input_i16(in[i], input_multiplier, input_left_shift);
    int32_t result = (int32_t)sigmoid_lerp(abs_u32(x), 8, 0xFFFFu << 8);
    result = x >= 0 ? result - (1 << 23) + (1 << 7) : -result + (1 << 23) + (1 << 7) - 1;
    out[i] = (int16_t)tfcc_asr32(result, 8);
  }
}

/* ---------------------------------------------------------------- prelu */

/* Walks the input in row-major order; *alpha_off follows the broadcast strides. */
typedef struct walk_ {
  int32_t idx[TFCC_MAX_DIMS];
  int64_t alpha_off;
} walk_;

static void walk_next(walk_ *w, int32_t rank, const int32_t *dims, const int64_t *strides) {
  for (int32_t d = rank - 1; d >= 0; d--) {
    w->idx[d]++;
    w->alpha_off += strides[d];
    if (w->idx[d] < dims[d]) return;
    w->alpha_off -= strides[d] * dims[d];
    w->idx[d] = 0;
  }
}

static size_t flat_count(int32_t rank, const int32_t *dims) {
  size_t n = 1;
  for (int32_t d = 0; d < rank; d++) n *= (size_t)dims[d];
  return n;
}

void tfcc_prelu_f32(const float *in, const float *alpha, float *out, int32_t rank,
                    const int32_t *dims, const int64_t *alpha_strides) {
  const size_t n = flat_count(rank, dims);
  walk_ w = {{0}, 0};
  for (size_t i = 0; i < n; i++) {
    const float x = in[i];
    out[i] = x >= 0.0f ? x : x * alpha[w.alpha_off];
    walk_next(&w, rank, dims, alpha_strides);
  }
}

#define TFCC_PRELU_Q_LOOP(T, TA, QMIN, QMAX) \
  do { \
    const T *src = (const T *)in; \
    const TA *al = (const TA *)alpha; \
    T *dst = (T *)out; \
    for (size_t i = 0; i < n; i++) { \
      const int32_t x = (int32_t)src[i] - p->in_zp; \
      int32_t v; \
      if (x >= 0) { \
        v = tfcc_mbqm(x, p->mult_pos, p->shift_pos); \
      } else { \
        const int32_t a = (int32_t)al[w.alpha_off] - p->alpha_zp; \
        v = tfcc_mbqm(tfcc_fp_add(0, (int32_t)((uint32_t)x * (uint32_t)a)), p->mult_neg, \
                      p->shift_neg); \
      } \
      dst[i] = (T)tfcc_clamp_i32(tfcc_fp_add(v, p->out_zp), QMIN, QMAX); \
      walk_next(&w, rank, dims, alpha_strides); \
    } \
  } while (0)

void tfcc_prelu_q(tfcc_dtype type, const void *in, const void *alpha, void *out, int32_t rank,
                  const int32_t *dims, const int64_t *alpha_strides, const tfcc_prelu_params *p) {
  const size_t n = flat_count(rank, dims);
  walk_ w = {{0}, 0};
  if (type == TFCC_UINT8)
    TFCC_PRELU_Q_LOOP(uint8_t, uint8_t, 0, 255);
  else if (type == TFCC_INT8)
    TFCC_PRELU_Q_LOOP(int8_t, int8_t, -128, 127);
  else if (type == TFCC_INT16) /* 16x8: int8 alpha */
    TFCC_PRELU_Q_LOOP(int16_t, int8_t, -32768, 32767);
}
