/* Quantized elementwise arithmetic (see arith_quant.h for the TFLite functions matched). */
#include "kernels/ref/arith_quant.h"

#include <math.h>
#include <string.h>

#include "kernels/ref/xnn_quant.h"

#include <math.h>

#include "kernels/ref/quant_util.h"

/* ------------------------------------------------------------------ fixed-point pieces */

/* Arithmetic shift right (C leaves >> of negative values implementation-defined). */
static inline int32_t tfcc_asr_(int32_t x, int s) {
  return x >= 0 ? (int32_t)((uint32_t)x >> s) : (int32_t) ~(~(uint32_t)x >> s);
}

int32_t tfcc_q_rdbpot(int32_t x, int exponent) {
  /* TFLite only calls RoundingDivideByPOT with 0 <= exponent <= 31; a negative exponent (a
   * multiplier above one where TFLite assumes below) is taken as the left shift it stands for. */
  if (exponent <= 0) return tfcc_shl_wrap(x, exponent < -31 ? 31 : -exponent);
  if (exponent > 31) {
    /* What TFLite's gemmlowp code computes on x86 and WebAssembly, whose shifts take their
     * count modulo the operand width: mask = (int32)((1LL << (e % 64)) - 1), x >> (e % 32).
     * Quantized DIV gets here for a zero numerator (headroom 31): 0 becomes 1, as TFLite. */
    const int32_t mask = (int32_t)(uint32_t)((1ULL << (exponent & 63)) - 1u);
    const int32_t remainder = x & mask;
    const int32_t threshold = tfcc_asr_(mask, 1) + (x < 0 ? 1 : 0);
    return tfcc_asr_(x, exponent & 31) + (remainder > threshold ? 1 : 0);
  }
  return tfcc_rdbpot(x, exponent);
}

int32_t tfcc_q_mbqm_lt1(int32_t x, int32_t qm, int shift) {
  return tfcc_q_rdbpot(tfcc_srdhm(x, qm), -shift);
}

int tfcc_q_clrsb32(int32_t x) {
  uint32_t u = x >= 0 ? (uint32_t)x : ~(uint32_t)x;
  if (u == 0) return 31;
  return __builtin_clz(u) - 1;
}

static inline int32_t wrap_add32(int32_t a, int32_t b) {
  return (int32_t)((uint32_t)a + (uint32_t)b);
}
static inline int32_t wrap_sub32(int32_t a, int32_t b) {
  return (int32_t)((uint32_t)a - (uint32_t)b);
}

/* gemmlowp SaturatingRoundingMultiplyByPOT<e> for e > 0. */
static inline int32_t sat_mul_pot(int32_t x, int e) {
  const int32_t threshold = (int32_t)((1u << (31 - e)) - 1u);
  if (x > threshold) return INT32_MAX;
  if (x < -threshold) return INT32_MIN;
  return tfcc_shl_wrap(x, e);
}

/* gemmlowp RoundingHalfSum. */
static inline int32_t rounding_half_sum(int32_t a, int32_t b) {
  int64_t sum = (int64_t)a + (int64_t)b;
  int64_t sign = sum >= 0 ? 1 : -1;
  return (int32_t)((sum + sign) / 2);
}

/* gemmlowp one_over_one_plus_x_for_x_in_0_1 on raw Q0.31 input, Q0.31 output. */
static int32_t one_over_one_plus_x(int32_t a) {
  const int32_t half_den = rounding_half_sum(a, INT32_MAX); /* F0 */
  const int32_t c48_17 = 1515870810;                        /* F2: 48/17 */
  const int32_t cneg32_17 = -1010580540;                    /* F2: -32/17 */
  const int32_t one_f2 = 1 << 29;
  int32_t x = wrap_add32(c48_17, tfcc_srdhm(half_den, cneg32_17));
  for (int i = 0; i < 3; i++) {
    int32_t hdx = tfcc_srdhm(half_den, x);
    int32_t one_minus = wrap_sub32(one_f2, hdx);
    x = wrap_add32(x, sat_mul_pot(tfcc_srdhm(x, one_minus), 2));
  }
  return sat_mul_pot(x, 1);
}

int32_t tfcc_q_reciprocal(int32_t x, int x_integer_digits, int *num_bits_over_unit) {
  if (x <= 0) {
    *num_bits_over_unit = 0;
    return 0;
  }
  int headroom_plus_one = __builtin_clz((uint32_t)x);
  *num_bits_over_unit = x_integer_digits - headroom_plus_one;
  int32_t shifted_minus_one = (int32_t)(((uint32_t)x << headroom_plus_one) - ((uint32_t)1 << 31));
  return one_over_one_plus_x(shifted_minus_one);
}

/* ------------------------------------------------------------------ parameters */

static void qm(double m, int32_t *mult, int32_t *shift) {
  int s = 0;
  tfcc_quantize_multiplier(m, mult, &s);
  if (s > 30) s = 30; /* absurd scales: keep later shifts defined (TFLite is undefined there) */
  *shift = s;
}

/* The offsets and the input shift every prepare sets. */
static void q_offsets(tfcc_arith_q *q, int32_t z1, int32_t z2, int32_t zo, int32_t left_shift) {
  q->in1_offset = -z1;
  q->in2_offset = -z2;
  q->out_offset = zo;
  q->left_shift = left_shift;
}

/* add.cc and squared_difference.cc: both inputs rescaled to twice the larger input scale
 * (`2 * std::max(float, float)` is float; the quotients are double), the output multiplier
 * twice_max^out_pow / den (den = `(1 << shift) * output_scale`, float, passed in). */
static void q_twice_max(tfcc_arith_q *q, float s1, float s2, int out_pow, float den) {
  const double twice_max = (double)(2.0f * (s1 > s2 ? s1 : s2));
  const double m1 = (double)s1 / twice_max;
  const double m2 = (double)s2 / twice_max;
  const double mo = (out_pow == 2 ? twice_max * twice_max : twice_max) / (double)den;
  qm(m1, &q->in1_mult, &q->in1_shift);
  qm(m2, &q->in2_mult, &q->in2_shift);
  qm(mo, &q->out_mult, &q->out_shift);
}

void tfcc_arith_q_prepare_add(tfcc_arith_q *q, float s1, int32_t z1, float s2, int32_t z2, float so,
                              int32_t zo, int32_t left_shift, bool negate_in2) {
  q_offsets(q, z1, z2, zo, left_shift);
  q_twice_max(q, s1, s2, 1, (float)(1 << left_shift) * so);
  if (negate_in2) q->in2_mult = -q->in2_mult; /* sub.cc: input2_multiplier *= -1 */
}

bool tfcc_checked_log2(float x, int32_t *log2_rounded) {
  /* tflite::CheckedLog2, in float as there. */
  const float x_log2 = logf(x) * (1.0f / logf(2.0f));
  const float r = roundf(x_log2);
  const float frac = x_log2 - r;
  *log2_rounded = (int32_t)r;
  return fabsf(frac) < 1e-3f;
}

/* mul.cc and div.cc: only the output is rescaled, by m (computed in float as there). */
static void q_out_only(tfcc_arith_q *q, int32_t z1, int32_t z2, int32_t zo, float m) {
  q_offsets(q, z1, z2, zo, 0);
  qm((double)m, &q->out_mult, &q->out_shift);
  q->in1_mult = q->in2_mult = 0;
  q->in1_shift = q->in2_shift = 0;
}

void tfcc_arith_q_prepare_mul(tfcc_arith_q *q, float s1, int32_t z1, float s2, int32_t z2, float so,
                              int32_t zo) {
  /* mul.cc: `input1->params.scale * input2->params.scale / output->params.scale` is float. */
  const float prod = s1 * s2;
  q_out_only(q, z1, z2, zo, prod / so);
}

void tfcc_arith_q_prepare_div(tfcc_arith_q *q, float s1, int32_t z1, float s2, int32_t z2, float so,
                              int32_t zo) {
  /* div.cc: `input1->params.scale / (input2->params.scale * output->params.scale)` in float. */
  const float den = s2 * so;
  q_out_only(q, z1, z2, zo, s1 / den);
}

void tfcc_arith_q_prepare_sqdiff(tfcc_arith_q *q, float s1, int32_t z1, float s2, int32_t z2,
                                 float so, int32_t zo) {
  q_offsets(q, z1, z2, zo, 7);
  q_twice_max(q, s1, s2, 2, (float)(1 << (7 * 2)) * so);
  q->act_min = -128;
  q->act_max = 127;
}

void tfcc_arith_q_prepare_compare(tfcc_arith_q *q, float s1, int32_t z1, float s2, int32_t z2) {
  q->in1_offset = -z1;
  q->in2_offset = -z2;
  q->out_offset = 0;
  q->left_shift = 8;
  qm((double)s1, &q->in1_mult, &q->in1_shift);
  qm((double)s2, &q->in2_mult, &q->in2_shift);
  q->out_mult = 0;
  q->out_shift = 0;
  q->act_min = q->act_max = 0;
}

int32_t tfcc_compare_rescale(int32_t raw, int32_t offset, int32_t mult, int32_t shift,
                             int32_t left_shift) {
  const int32_t v = offset + raw;
  return tfcc_q_mbqm_lt1(tfcc_shl_wrap(v, left_shift), mult, shift);
}

void tfcc_arith_q_prepare_add_xnn(tfcc_arith_q *q, float s1, int32_t z1, float s2, int32_t z2,
                                  float so, int32_t zo, bool negate_in2) {
  const float a_scale = s1 / so;
  const float b_scale = negate_in2 ? -s2 / so : s2 / so;
  const float abs_a = fabsf(a_scale), abs_b = fabsf(b_scale);
  const float max_abs = abs_a > abs_b ? abs_a : abs_b;
  uint32_t bits;
  memcpy(&bits, &max_abs, sizeof bits);
  const int32_t max_exp = (int32_t)(bits >> 23) - 127;
  const int32_t shift = 20 - max_exp; /* [12, 30] for the ratios the delegate accepts */
  const int32_t abs_am = (int32_t)lrintf(ldexpf(abs_a, shift));
  const int32_t abs_bm = (int32_t)lrintf(ldexpf(abs_b, shift));
  const int32_t am = signbit(a_scale) ? -abs_am : abs_am;
  const int32_t bm = signbit(b_scale) ? -abs_bm : abs_bm;
  q->xnn_a_mult = am;
  q->xnn_b_mult = bm;
  q->xnn_shift = shift;
  q->xnn_bias = (int32_t)((uint32_t)1 << (shift - 1)) - am * z1 - bm * z2;
  q->in1_offset = -z1;
  q->in2_offset = -z2;
  q->out_offset = zo;
}

void tfcc_arith_q_prepare_mul_xnn(tfcc_arith_q *q, float s1, int32_t z1, float s2, int32_t z2,
                                  float so, int32_t zo) {
  const float product_scale = s1 * s2;
  q->xnn_scale = product_scale / so;
  q->in1_offset = -z1;
  q->in2_offset = -z2;
  q->out_offset = zo;
}

/* ------------------------------------------------------------------ element functions */

static inline int32_t clamp_act(int32_t v, const tfcc_arith_q *q) {
  return tfcc_clamp_i32(v, q->act_min, q->act_max);
}

static inline int32_t add_elem(int32_t a, int32_t b, const tfcc_arith_q *q) {
  const int32_t v1 = q->in1_offset + a, v2 = q->in2_offset + b;
  const int32_t s1 = tfcc_q_mbqm_lt1(tfcc_shl_wrap(v1, q->left_shift), q->in1_mult, q->in1_shift);
  const int32_t s2 = tfcc_q_mbqm_lt1(tfcc_shl_wrap(v2, q->left_shift), q->in2_mult, q->in2_shift);
  const int32_t raw = tfcc_q_mbqm_lt1(wrap_add32(s1, s2), q->out_mult, q->out_shift);
  return clamp_act(wrap_add32(raw, q->out_offset), q);
}

static inline int32_t sat16(int32_t v) {
  return v < INT16_MIN ? INT16_MIN : (v > INT16_MAX ? INT16_MAX : v);
}

/* reference_ops::Add(int16, pot_scale = true). */
static inline int32_t add_pot_elem(int32_t a, int32_t b, const tfcc_arith_q *q) {
  int32_t r;
  if (q->in1_shift == 0)
    r = sat16(a + tfcc_q_rdbpot(b, -q->in2_shift));
  else
    r = sat16(tfcc_q_rdbpot(a, -q->in1_shift) + b);
  return clamp_act(r, q);
}

/* reference_ops::Sub16. */
static inline int32_t sub_pot_elem(int32_t a, int32_t b, const tfcc_arith_q *q) {
  int32_t r;
  if (q->in1_shift == 0)
    r = sat16(a - tfcc_q_rdbpot(b, -q->in2_shift));
  else
    r = sat16(tfcc_q_rdbpot(a, -q->in1_shift) - b);
  return clamp_act(r, q);
}

static inline int32_t mul_elem(int32_t a, int32_t b, const tfcc_arith_q *q) {
  const int32_t v1 = q->in1_offset + a, v2 = q->in2_offset + b;
  const int32_t prod = (int32_t)((uint32_t)v1 * (uint32_t)v2);
  return clamp_act(wrap_add32(q->out_offset, tfcc_mbqm(prod, q->out_mult, q->out_shift)), q);
}

static inline int32_t div_elem(int32_t a, int32_t b, const tfcc_arith_q *q) {
  int32_t v1 = q->in1_offset + a, v2 = q->in2_offset + b;
  if (v2 == 0) return clamp_act(q->out_offset, q); /* rejected by the operator before eval */
  if (v2 < 0) {
    v1 = -v1;
    v2 = -v2;
  }
  int recip_shift = 0;
  const int32_t inv = tfcc_q_reciprocal(v2, 31, &recip_shift);
  const int headroom = tfcc_q_clrsb32(v1);
  const int32_t unscaled = tfcc_srdhm(tfcc_shl_wrap(v1, headroom), inv);
  const int total_shift = q->out_shift - recip_shift - headroom;
  const int32_t r = wrap_add32(q->out_offset, tfcc_q_mbqm_lt1(unscaled, q->out_mult, total_shift));
  return clamp_act(r, q);
}

static inline int32_t sqdiff_elem(int32_t a, int32_t b, const tfcc_arith_q *q) {
  const int32_t v1 = q->in1_offset + a, v2 = q->in2_offset + b;
  const int32_t s1 = tfcc_q_mbqm_lt1(tfcc_shl_wrap(v1, q->left_shift), q->in1_mult, q->in1_shift);
  const int32_t s2 = tfcc_q_mbqm_lt1(tfcc_shl_wrap(v2, q->left_shift), q->in2_mult, q->in2_shift);
  const int32_t d = wrap_sub32(s1, s2);
  const int32_t sq = (int32_t)((uint32_t)d * (uint32_t)d);
  const int32_t raw = tfcc_q_mbqm_lt1(sq, q->out_mult, q->out_shift);
  return clamp_act(wrap_add32(raw, q->out_offset), q);
}

/* XNNPACK qs8/qu8 vadd-minmax (scalar): int32 arithmetic wrapping like the C kernels. */
int32_t tfcc_arith_add_xnn_elem(int32_t a, int32_t b, const tfcc_arith_q *q) {
  const uint32_t acc = (uint32_t)q->xnn_bias + (uint32_t)a * (uint32_t)q->xnn_a_mult +
                       (uint32_t)b * (uint32_t)q->xnn_b_mult;
  const int32_t v = (int32_t)acc;
  /* arithmetic shift right (floor), without relying on signed >> */
  const int32_t sh = v >= 0 ? (v >> q->xnn_shift) : -(int32_t)((~(uint32_t)v >> q->xnn_shift)) - 1;
  return clamp_act(wrap_add32(sh, q->out_offset), q);
}

/* XNNPACK qs8/qu8 vmul-minmax-fp32 (scalar). */
static inline int32_t mul_xnn_elem(int32_t a, int32_t b, const tfcc_arith_q *q) {
  const int32_t prod = (a + q->in1_offset) * (b + q->in2_offset);
  return tfcc_requant_fp32(prod, q->xnn_scale, q->out_offset, q->act_min, q->act_max);
}

#define QROW_FN(name, T, elem) \
  static void name(void *out, const void *const *in, const int64_t *step, int64_t n, \
                   const void *params) { \
    const T *a = in[0], *b = in[1]; \
    T *o = out; \
    const tfcc_arith_q *q = params; \
    const int64_t sa = step[0], sb = step[1]; \
    for (int64_t i = 0; i < n; i++) o[i] = (T)elem((int32_t)a[i * sa], (int32_t)b[i * sb], q); \
  }

#define QROW_ALL(T, sfx) \
  QROW_FN(add_##sfx, T, add_elem) \
  QROW_FN(mul_##sfx, T, mul_elem) \
  QROW_FN(div_##sfx, T, div_elem) \
  QROW_FN(sqd_##sfx, T, sqdiff_elem)

QROW_ALL(uint8_t, u8)
QROW_ALL(int8_t, i8)
/* XNNPACK vadd rows: the same arithmetic as tfcc_arith_add_xnn_elem, written branch-free
 * (floor shift as sign ^ ((v ^ sign) >> s)) so that the compiler vectorises the contiguous
 * and the scalar-broadcast rows (ResNet-style residual ADDs). */
#define ADDX_ROW_FN(name, T) \
  static void name(void *out, const void *const *in, const int64_t *step, int64_t n, \
                   const void *params) { \
    const T *restrict a = in[0], *restrict b = in[1]; \
    T *restrict o = out; \
    const tfcc_arith_q *q = params; \
    const int64_t sa = step[0], sb = step[1]; \
    const uint32_t bias = (uint32_t)q->xnn_bias, am = (uint32_t)q->xnn_a_mult; \
    const uint32_t bm = (uint32_t)q->xnn_b_mult, zo = (uint32_t)q->out_offset; \
    const int s = q->xnn_shift; \
    const int32_t lo = q->act_min, hi = q->act_max; \
    if (!((sa == 1 || sa == 0) && (sb == 1 || sb == 0))) { \
      for (int64_t i = 0; i < n; i++) \
        o[i] = (T)tfcc_arith_add_xnn_elem((int32_t)a[i * sa], (int32_t)b[i * sb], q); \
      return; \
    } \
    for (int64_t i = 0; i < n; i++) { \
      const uint32_t v = \
          bias + (uint32_t)(int32_t)a[i * sa] * am + (uint32_t)(int32_t)b[i * sb] * bm; \
      const uint32_t sign = 0u - (v >> 31); \
      int32_t r = (int32_t)((((v ^ sign) >> s) ^ sign) + zo); \
      r = r < lo ? lo : r; \
      o[i] = (T)(r > hi ? hi : r); \
    } \
  }
ADDX_ROW_FN(addx_u8, uint8_t)
ADDX_ROW_FN(addx_i8, int8_t)
QROW_FN(mulx_u8, uint8_t, mul_xnn_elem)
QROW_FN(mulx_i8, int8_t, mul_xnn_elem)
QROW_ALL(int16_t, i16)
QROW_FN(addpot_i16, int16_t, add_pot_elem)
QROW_FN(subpot_i16, int16_t, sub_pot_elem)

bool tfcc_ref_arith_q(tfcc_arith_qop op, tfcc_dtype dt, const tfcc_bcast *bc, const void *a,
                      const void *b, void *out, const tfcc_arith_q *q) {
  tfcc_bcast_row_fn fn = NULL;
  switch (dt) {
    case TFCC_UINT8: {
      static const tfcc_bcast_row_fn t[TFCC_AQ_COUNT_] = {add_u8, NULL,   NULL,    mul_u8,
                                                          div_u8, sqd_u8, addx_u8, mulx_u8};
      fn = (op >= 0 && op < TFCC_AQ_COUNT_) ? t[op] : NULL;
      break;
    }
    case TFCC_INT8: {
      static const tfcc_bcast_row_fn t[TFCC_AQ_COUNT_] = {add_i8, NULL,   NULL,    mul_i8,
                                                          div_i8, sqd_i8, addx_i8, mulx_i8};
      fn = (op >= 0 && op < TFCC_AQ_COUNT_) ? t[op] : NULL;
      break;
    }
    case TFCC_INT16: {
      static const tfcc_bcast_row_fn t[TFCC_AQ_COUNT_] = {add_i16, addpot_i16, subpot_i16,
                                                          mul_i16, div_i16,    sqd_i16};
      fn = (op >= 0 && op < TFCC_AQ_COUNT_) ? t[op] : NULL;
      break;
    }
    default: break;
  }
  if (!fn) return false;
  const void *in[2] = {a, b};
  size_t es = tfcc_dtype_size(dt);
  size_t ies[2] = {es, es};
  tfcc_bcast_run(bc, out, es, in, ies, fn, q);
  return true;
}
