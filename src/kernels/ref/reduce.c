/* Reference reductions; see reduce.h for the TFLite behaviour each one matches. */
#include "kernels/ref/reduce.h"

#include "kernels/ref/xnn_quant.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "kernels/ref/q_store.h"
#include "kernels/ref/quant_util.h"

void tfcc_reduce_shape_finish(tfcc_reduce_shape *s) {
  int64_t stride = 1, in_count = 1, reduce_count = 1;
  for (int32_t d = s->rank - 1; d >= 0; d--) {
    in_count *= s->dims[d];
    if (s->reduced[d]) {
      s->out_stride[d] = 0;
      reduce_count *= s->dims[d];
    } else {
      s->out_stride[d] = stride;
      stride *= s->dims[d];
    }
  }
  s->in_count = in_count;
  s->out_count = stride;
  s->reduce_count = reduce_count;
}

/* Advances the input odometer idx by one element and updates the output offset *o. */
static inline void step(const tfcc_reduce_shape *s, int32_t *idx, int64_t *o) {
  for (int32_t d = s->rank - 1; d >= 0; d--) {
    *o += s->out_stride[d];
    if (++idx[d] < s->dims[d]) return;
    *o -= s->out_stride[d] * s->dims[d];
    idx[d] = 0;
  }
}

static bool all_reduced(const tfcc_reduce_shape *s) {
  for (int32_t d = 0; d < s->rank; d++)
    if (!s->reduced[d]) return false;
  return true;
}

/* Visits every input element i with its output offset o. */
#define TFCC_FOR_EACH_(s, i, o, BODY) \
  do { \
    int32_t idx_[TFCC_REDUCE_MAX_RANK] = {0}; \
    int64_t o = 0; \
    for (int64_t i = 0; i < (s)->in_count; i++) { \
      BODY; \
      step((s), idx_, &o); \
    } \
  } while (0)

/* Integer reducers compute in a wide unsigned type (W) so sums and products wrap instead of
 * overflowing, then convert back to T (modulo, as TFLite's T arithmetic ends up doing). */
#define TFCC_DEFINE_REDUCE_INT_(NAME, T, W, LOWEST, HIGHEST) \
  static inline T NAME##_combine(tfcc_reduce_kind k, T cur, T v) { \
    switch (k) { \
      case TFCC_REDUCE_SUM: return (T)((W)cur + (W)v); \
      case TFCC_REDUCE_PROD: return (T)((W)cur * (W)v); \
      case TFCC_REDUCE_MAX: return v > cur ? v : cur; \
      default: return v < cur ? v : cur; \
    } \
  } \
  static void NAME(const tfcc_reduce_shape *s, tfcc_reduce_kind k, const T *in, T *out) { \
    T init = k == TFCC_REDUCE_SUM    ? (T)0 \
             : k == TFCC_REDUCE_PROD ? (T)1 \
             : k == TFCC_REDUCE_MAX  ? (T)(LOWEST) \
                                     : (T)(HIGHEST); \
    if (all_reduced(s)) { \
      T r = s->in_count > 0 ? in[0] : init; \
      for (int64_t i = 1; i < s->in_count; i++) r = NAME##_combine(k, r, in[i]); \
      out[0] = r; \
      return; \
    } \
    for (int64_t j = 0; j < s->out_count; j++) out[j] = init; \
    TFCC_FOR_EACH_(s, i, o, out[o] = NAME##_combine(k, out[o], in[i])); \
  }

TFCC_DEFINE_REDUCE_INT_(reduce_i32, int32_t, uint32_t, INT32_MIN, INT32_MAX)
TFCC_DEFINE_REDUCE_INT_(reduce_i64, int64_t, uint64_t, INT64_MIN, INT64_MAX)
TFCC_DEFINE_REDUCE_INT_(reduce_u8, uint8_t, uint32_t, 0, UINT8_MAX)
TFCC_DEFINE_REDUCE_INT_(reduce_i8, int8_t, uint32_t, INT8_MIN, INT8_MAX)
TFCC_DEFINE_REDUCE_INT_(reduce_i16, int16_t, uint32_t, INT16_MIN, INT16_MAX)

static inline float reduce_f32_combine(tfcc_reduce_kind k, float cur, float v) {
  switch (k) {
    case TFCC_REDUCE_SUM: return v + cur;
    case TFCC_REDUCE_PROD: return v * cur;
    case TFCC_REDUCE_MAX: return v > cur ? v : cur;
    default: return v < cur ? v : cur;
  }
}

/* Float: the initial value of MAX is the lowest finite float (-FLT_MAX), as
 * std::numeric_limits<float>::lowest(). */
static void reduce_f32(const tfcc_reduce_shape *s, tfcc_reduce_kind k, const float *in,
                       float *out) {
  float init = k == TFCC_REDUCE_SUM    ? 0.f
               : k == TFCC_REDUCE_PROD ? 1.f
               : k == TFCC_REDUCE_MAX  ? -FLT_MAX
                                       : FLT_MAX;
  if (all_reduced(s)) {
    float r = s->in_count > 0 ? in[0] : init;
    for (int64_t i = 1; i < s->in_count; i++) r = reduce_f32_combine(k, r, in[i]);
    out[0] = r;
    return;
  }
  for (int64_t j = 0; j < s->out_count; j++) out[j] = init;
  TFCC_FOR_EACH_(s, i, o, out[o] = reduce_f32_combine(k, out[o], in[i]));
}

/* bool: SUM and MAX are "or", PROD and MIN are "and". */
static void reduce_bool(const tfcc_reduce_shape *s, tfcc_reduce_kind k, const uint8_t *in,
                        uint8_t *out) {
  bool is_or = k == TFCC_REDUCE_SUM || k == TFCC_REDUCE_MAX;
  uint8_t init = is_or ? 0 : 1;
  for (int64_t j = 0; j < s->out_count; j++) out[j] = init;
  if (is_or)
    TFCC_FOR_EACH_(s, i, o, out[o] = (uint8_t)(out[o] || in[i]));
  else
    TFCC_FOR_EACH_(s, i, o, out[o] = (uint8_t)(out[o] && in[i]));
}

bool tfcc_reduce_generic(const tfcc_reduce_shape *s, tfcc_reduce_kind kind, tfcc_dtype dt,
                         const void *in, void *out) {
  switch (dt) {
    case TFCC_FLOAT32: reduce_f32(s, kind, in, out); return true;
    case TFCC_INT32: reduce_i32(s, kind, in, out); return true;
    case TFCC_INT64: reduce_i64(s, kind, in, out); return true;
    case TFCC_UINT8: reduce_u8(s, kind, in, out); return true;
    case TFCC_INT8: reduce_i8(s, kind, in, out); return true;
    case TFCC_INT16: reduce_i16(s, kind, in, out); return true;
    case TFCC_BOOL: reduce_bool(s, kind, in, out); return true;
    default: return false;
  }
}

void tfcc_reduce_mean_f32(const tfcc_reduce_shape *s, const float *in, float *out) {
  for (int64_t j = 0; j < s->out_count; j++) out[j] = 0.f;
  TFCC_FOR_EACH_(s, i, o, out[o] += in[i]);
  if (s->reduce_count > 0) {
    float n = (float)s->reduce_count;
    for (int64_t j = 0; j < s->out_count; j++) out[j] = out[j] / n;
  }
}

bool tfcc_reduce_mean_int(const tfcc_reduce_shape *s, tfcc_dtype dt, const void *in, void *out,
                          int64_t *acc) {
  for (int64_t j = 0; j < s->out_count; j++) acc[j] = 0;
  if (dt == TFCC_INT32) {
    const int32_t *x = in;
    TFCC_FOR_EACH_(s, i, o, acc[o] = (int64_t)((uint64_t)acc[o] + (uint64_t)(int64_t)x[i]));
  } else if (dt == TFCC_INT64) {
    const int64_t *x = in;
    TFCC_FOR_EACH_(s, i, o, acc[o] = (int64_t)((uint64_t)acc[o] + (uint64_t)x[i]));
  } else {
    return false;
  }
  int64_t n = s->reduce_count;
  for (int64_t j = 0; j < s->out_count; j++) {
    int64_t q = n > 0 ? acc[j] / n : 0;
    if (dt == TFCC_INT32)
      ((int32_t *)out)[j] = (int32_t)q;
    else
      ((int64_t *)out)[j] = q;
  }
  return true;
}

/* Sums raw quantized values into acc (int32, wrapping). */
bool tfcc_reduce_sum_q_raw(const tfcc_reduce_shape *s, tfcc_dtype dt, const void *in,
                           int32_t *acc) {
  for (int64_t j = 0; j < s->out_count; j++) acc[j] = 0;
#define TFCC_SUMQ_(T) \
  do { \
    const T *x = in; \
    TFCC_FOR_EACH_(s, i, o, acc[o] = (int32_t)((uint32_t)acc[o] + (uint32_t)(int32_t)x[i])); \
  } while (0)
  switch (dt) {
    case TFCC_UINT8: TFCC_SUMQ_(uint8_t); return true;
    case TFCC_INT8: TFCC_SUMQ_(int8_t); return true;
    case TFCC_INT16: TFCC_SUMQ_(int16_t); return true;
    default: return false;
  }
#undef TFCC_SUMQ_
}

bool tfcc_reduce_mean_q_same(const tfcc_reduce_shape *s, tfcc_dtype dt, const void *in, void *out,
                             int32_t *acc) {
  if (!tfcc_reduce_sum_q_raw(s, dt, in, acc)) return false;
  tfcc_reduce_mean_q_same_finish(s, dt, acc, out);
  return true;
}

void tfcc_reduce_mean_q_same_finish(const tfcc_reduce_shape *s, tfcc_dtype dt, const int32_t *acc,
                                    void *out) {
  int32_t n = (int32_t)s->reduce_count;
  for (int64_t j = 0; j < s->out_count; j++) tfcc_q_store(dt, out, j, n > 0 ? acc[j] / n : 0);
}

/* float -> int32 as C++'s static_cast would do for in-range values; saturates instead of UB. */
static int32_t f2i_sat(float f) {
  if (!(f > -2147483648.f)) return f != f ? 0 : INT32_MIN;
  if (f >= 2147483648.f) return INT32_MAX;
  return (int32_t)f;
}

bool tfcc_reduce_quantized_mean_or_sum(const tfcc_reduce_shape *s, tfcc_dtype dt, const void *in,
                                       int32_t in_zp, float in_scale, void *out, int32_t out_zp,
                                       float out_scale, int32_t *acc, bool compute_sum) {
  if (!tfcc_reduce_sum_q_raw(s, dt, in, acc)) return false;
  tfcc_reduce_quantized_mean_or_sum_finish(s, dt, acc, in_zp, in_scale, out, out_zp, out_scale,
                                           compute_sum);
  return true;
}

void tfcc_reduce_quantized_mean_or_sum_finish(const tfcc_reduce_shape *s, tfcc_dtype dt,
                                              const int32_t *acc, int32_t in_zp, float in_scale,
                                              void *out, int32_t out_zp, float out_scale,
                                              bool compute_sum) {
  int32_t n = (int32_t)s->reduce_count;
  if (n <= 0) {
    for (int64_t j = 0; j < s->out_count; j++) tfcc_q_store(dt, out, j, 0);
    return;
  }
  /* Same float operations, in the same order, as QuantizedMeanOrSum. */
  const float scale = in_scale / out_scale;
  if (compute_sum) {
    const float bias = (float)(-in_zp) * scale * (float)n + 0.5f;
    for (int64_t j = 0; j < s->out_count; j++) {
      int32_t v = f2i_sat(roundf((float)acc[j] * scale + bias));
      tfcc_q_store(dt, out, j, (int32_t)((uint32_t)v + (uint32_t)out_zp));
    }
  } else {
    int32_t lo, hi;
    tfcc_q_range(dt, &lo, &hi);
    /* the classic interpreter's builtin kernel: round(mean * scale - in_zp * scale) half away
     * from zero, no further half step (conformance xnn_delegate_fails_mean_i8_ties*) */
    const float bias = (float)(-in_zp) * scale;
    for (int64_t j = 0; j < s->out_count; j++) {
      float mean = (float)acc[j] / (float)n;
      float r = roundf(mean * scale + bias) + (float)out_zp;
      /* an infinite scale ratio (a file's scales) times a zero sum is NaN, whose int conversion
       * is undefined (TFLite's too): the zero point (fuzz53, reduce.c:249 under UBSan) */
      if (r != r) r = (float)out_zp;
      if ((float)hi < r) r = (float)hi;
      if (r < (float)lo) r = (float)lo;
      tfcc_q_store(dt, out, j, (int32_t)r);
    }
  }
}

bool tfcc_reduce_mean_i16_mult(const tfcc_reduce_shape *s, const int16_t *in, int32_t in_zp,
                               float in_scale, int16_t *out, int32_t out_zp, float out_scale,
                               int32_t *acc) {
  if (s->reduce_count <= 0) return false;
  if (!tfcc_reduce_sum_q_raw(s, TFCC_INT16, in, acc)) return false;
  return tfcc_reduce_mean_q_mult_finish(s, TFCC_INT16, acc, in_zp, in_scale, out, out_zp,
                                        out_scale);
}

/* v clamped to [lo, hi], in int64: the rescaled sum plus a zero point may pass int32 (a rescale
 * of -2147483647 minus 10: fuzz_model_run); the same values wherever int32 holds them. */
static inline int32_t clamp_i64(int64_t v, int32_t lo, int32_t hi) {
  return (int32_t)(v < lo ? lo : v > hi ? hi : v);
}

bool tfcc_reduce_mean_q_mult_finish(const tfcc_reduce_shape *s, tfcc_dtype dt, const int32_t *acc,
                                    int32_t in_zp, float in_scale, void *out, int32_t out_zp,
                                    float out_scale) {
  const int64_t n = s->reduce_count;
  if (n <= 0) return false;
  int32_t mult;
  int shift;
  tfcc_quantize_multiplier((double)in_scale / (double)out_scale, &mult, &shift);
  int ds = 0;
  while (ds < 63 && (n >> (ds + 1)) != 0) ds++; /* floor(log2 n) */
  if (ds > 32) ds = 32;
  if (ds > 31 + shift) ds = 31 + shift;
  if (ds < 0) ds = 0;
  mult = (int32_t)(((int64_t)mult * ((int64_t)1 << ds)) / n);
  shift -= ds;
  const int32_t zsum = (int32_t)((uint32_t)n * (uint32_t)in_zp);
  int32_t lo, hi;
  tfcc_q_range(dt, &lo, &hi);
  for (int64_t j = 0; j < s->out_count; j++) {
    const int32_t v = (int32_t)((uint32_t)acc[j] - (uint32_t)zsum);
    /* the int32 MultiplyByQuantizedMultiplier: the sum is int32 (temp_sum), so TFLite's
     * template takes that overload (two roundings); the int64 one (16-bit multiplier, one
     * rounding) was 43 of 1,280 off LiteRT on the MobileNetV2 int16x8 twin's global pool.
     * The zero point added in int64: a fuzzed one past int32 */
    const int64_t r = (int64_t)tfcc_mbqm(v, mult, shift) + out_zp;
    tfcc_q_store(dt, out, j, clamp_i64(r, lo, hi));
  }
  return true;
}

bool tfcc_xnn_reduce_q8(const tfcc_reduce_shape *s, tfcc_dtype dt, const void *in, int32_t in_zp,
                        float in_scale, void *out, int32_t out_zp, float out_scale, int32_t *acc,
                        bool is_mean) {
  if (dt != TFCC_UINT8 && dt != TFCC_INT8) return false;
  if (!tfcc_reduce_sum_q_raw(s, dt, in, acc)) return false;
  return tfcc_xnn_reduce_q8_finish(s, dt, acc, in_zp, in_scale, out, out_zp, out_scale, is_mean);
}

float tfcc_xnn_reduce_scale(const tfcc_reduce_shape *s, float in_scale, float out_scale,
                            bool is_mean) {
  float scale = in_scale / out_scale;
  if (is_mean) scale *= 1.0f / (float)(int32_t)s->reduce_count;
  return scale;
}

float tfcc_xnn_reduce_bias(int32_t n, int32_t in_zp, float scale, int32_t out_zp) {
  const float zsum = (float)(int32_t)((uint32_t)n * (uint32_t)in_zp);
  const float share = zsum * scale;
  return (float)out_zp - share;
}

bool tfcc_xnn_reduce_q8_finish(const tfcc_reduce_shape *s, tfcc_dtype dt, const int32_t *acc,
                               int32_t in_zp, float in_scale, void *out, int32_t out_zp,
                               float out_scale, bool is_mean) {
  if (dt != TFCC_UINT8 && dt != TFCC_INT8) return false;
  const int32_t n = (int32_t)s->reduce_count;
  const float scale = tfcc_xnn_reduce_scale(s, in_scale, out_scale, is_mean);
  int32_t lo, hi;
  tfcc_q_range(dt, &lo, &hi);
  const float bias = tfcc_xnn_reduce_bias(n, in_zp, scale, out_zp);
  for (int64_t j = 0; j < s->out_count; j++) {
    /* the raw sum times the scale plus the float bias, then half to even: the output zero
     * point joins before the rounding (with an odd one a tie rounds the other way than when
     * it is added after: conformance xnn_mean_i8_ties_odd_zp*, sum_i8_ties_odd_zp), and the
     * input zero point's share is a float term of the bias, not subtracted from the sum (a
     * product within a float step of a half rounds apart: xnn_mean_i8_near_ties_*) */
    float f = (float)acc[j] * scale;
    f += bias;
    f = fmaxf(f, (float)lo);
    f = fminf(f, (float)hi);
    tfcc_q_store(dt, out, j, (int32_t)lrintf(f));
  }
  return true;
}

/* TFLite's builtin 8-bit mean over H and W (optimized_ops::Mean for uint8,
 * optimized_integer_ops::Mean for int8, the kernels its default resolver runs) after its raw
 * sums: the input zero point's share in output steps rounded half away from zero in float, the
 * multiplier of in_scale / (n * out_scale) with n a float count. */
typedef struct mean_q8_rq {
  int32_t bias, mult, lo, hi;
  int shift;
} mean_q8_rq;

static mean_q8_rq mean_q8_prepare(const int32_t dims[4], tfcc_dtype dt, int32_t in_zp,
                                  float in_scale, int32_t out_zp, float out_scale) {
  const float count = (float)(dims[2] * dims[1]);
  mean_q8_rq r;
  float zp_share = (float)in_zp * in_scale / out_scale;
  zp_share = zp_share > 0.f ? zp_share + 0.5f : zp_share - 0.5f;
  /* a hostile scale ratio: the share saturated to int32 (the conversion is undefined past it),
     a NaN one 0 */
  const int64_t share = zp_share >= 2147483647.f    ? INT32_MAX
                        : zp_share <= -2147483648.f ? INT32_MIN
                        : zp_share == zp_share      ? (int64_t)zp_share
                                                    : 0;
  r.bias = (int32_t)(uint32_t)(uint64_t)((int64_t)out_zp - share); /* wraps as TFLite's int32 */
  const double real_scale = (double)(in_scale / (count * out_scale));
  tfcc_quantize_multiplier(real_scale, &r.mult, &r.shift);
  tfcc_q_range(dt, &r.lo, &r.hi);
  return r;
}

static inline int32_t mean_q8_out(const mean_q8_rq *r, int32_t sum) {
  return clamp_i64((int64_t)tfcc_mbqm(sum, r->mult, r->shift) + r->bias, r->lo, r->hi);
}

/* The int8/int16 mean after its sums of (v - zp): rescale, divide by the element count n
 * rounding half away from zero, add the output zero point, clamp. */
static inline int32_t mean_int_out(int32_t sum, int32_t multiplier, int shift, int32_t n,
                                   int32_t out_zp, int32_t lo, int32_t hi) {
  int64_t v = tfcc_mbqm(sum, multiplier, shift);
  v = v > 0 ? (v + n / 2) / n : (v - n / 2) / n;
  return clamp_i64(v + out_zp, lo, hi);
}

bool tfcc_mean_hw_q8(const int32_t dims[4], tfcc_dtype dt, const void *in, int32_t in_zp,
                     float in_scale, void *out, int32_t out_zp, float out_scale) {
  if (dt != TFCC_UINT8 && dt != TFCC_INT8) return false;
  const int32_t nb = dims[0], h = dims[1], w = dims[2], c = dims[3];
  const mean_q8_rq r = mean_q8_prepare(dims, dt, in_zp, in_scale, out_zp, out_scale);
  for (int32_t b = 0; b < nb; b++) {
    for (int32_t d = 0; d < c; d++) {
      int32_t acc = 0;
      for (int32_t y = 0; y < h; y++) {
        for (int32_t x = 0; x < w; x++) {
          const int64_t at = (((int64_t)b * h + y) * w + x) * c + d;
          acc = tfcc_add_wrap(
              acc, dt == TFCC_UINT8 ? ((const uint8_t *)in)[at] : ((const int8_t *)in)[at]);
        }
      }
      tfcc_q_store(dt, out, (int64_t)b * c + d, mean_q8_out(&r, acc));
    }
  }
  return true;
}

bool tfcc_mean_hw_int(const int32_t dims[4], tfcc_dtype dt, const void *in, int32_t in_zp,
                      int32_t multiplier, int shift, void *out, int32_t out_zp) {
  if (dt != TFCC_INT8 && dt != TFCC_INT16) return false;
  const int32_t nb = dims[0], h = dims[1], w = dims[2], c = dims[3];
  const int32_t n = w * h;
  int32_t lo, hi;
  tfcc_q_range(dt, &lo, &hi);
  for (int32_t b = 0; b < nb; b++) {
    for (int32_t d = 0; d < c; d++) {
      int32_t acc = 0;
      for (int32_t y = 0; y < h; y++) {
        for (int32_t x = 0; x < w; x++) {
          int64_t at = (((int64_t)b * h + y) * w + x) * c + d;
          int32_t v = dt == TFCC_INT8 ? ((const int8_t *)in)[at] : ((const int16_t *)in)[at];
          acc = tfcc_add_wrap(
              acc, (int32_t)((uint32_t)v - (uint32_t)in_zp)); /* int32 sums wrap, as TFLite's */
        }
      }
      tfcc_q_store(dt, out, (int64_t)b * c + d,
                   mean_int_out(acc, multiplier, shift, n, out_zp, lo, hi));
    }
  }
  return true;
}

bool tfcc_mean_hw_q8_finish(const int32_t dims[4], tfcc_dtype dt, const int32_t *acc, int32_t in_zp,
                            float in_scale, void *out, int32_t out_zp, float out_scale) {
  if (dt != TFCC_UINT8 && dt != TFCC_INT8) return false;
  const mean_q8_rq r = mean_q8_prepare(dims, dt, in_zp, in_scale, out_zp, out_scale);
  for (int64_t j = 0; j < (int64_t)dims[0] * dims[3]; j++)
    tfcc_q_store(dt, out, j, mean_q8_out(&r, acc[j]));
  return true;
}

bool tfcc_mean_hw_int_finish(const int32_t dims[4], tfcc_dtype dt, const int32_t *acc,
                             int32_t in_zp, int32_t multiplier, int shift, void *out,
                             int32_t out_zp) {
  if (dt != TFCC_INT8 && dt != TFCC_INT16) return false;
  const int32_t nb = dims[0], h = dims[1], w = dims[2], c = dims[3];
  const int32_t n = w * h;
  int32_t lo, hi;
  tfcc_q_range(dt, &lo, &hi);
  const uint32_t zsum = (uint32_t)n * (uint32_t)in_zp;
  /* the arithmetic of tfcc_mean_hw_int after its sums: sum(v - zp) = raw sum - n * zp */
  for (int64_t j = 0; j < (int64_t)nb * c; j++) {
    const int32_t v = (int32_t)((uint32_t)acc[j] - zsum);
    tfcc_q_store(dt, out, j, mean_int_out(v, multiplier, shift, n, out_zp, lo, hi));
  }
  return true;
}

#define TFCC_ARG_LOOP_(T, OUT_T) \
  do { \
    const T *x = in; \
    OUT_T *y = out; \
    for (int64_t a = 0; a < outer; a++) { \
      for (int64_t j = 0; j < inner; j++) { \
        const T *p = x + a * axis_size * inner + j; \
        T best = p[0]; \
        int32_t bi = 0; \
        for (int32_t i = 1; i < axis_size; i++) { \
          T v = p[(int64_t)i * inner]; \
          if (is_max ? (v > best) : (v < best)) { \
            best = v; \
            bi = i; \
          } \
        } \
        y[a * inner + j] = (OUT_T)bi; \
      } \
    } \
  } while (0)

#define TFCC_ARG_BY_OUT_(T) \
  do { \
    if (out_dt == TFCC_INT32) \
      TFCC_ARG_LOOP_(T, int32_t); \
    else \
      TFCC_ARG_LOOP_(T, int64_t); \
  } while (0)

bool tfcc_arg_min_max(tfcc_dtype in_dt, const void *in, int64_t outer, int32_t axis_size,
                      int64_t inner, bool is_max, tfcc_dtype out_dt, void *out) {
  if (out_dt != TFCC_INT32 && out_dt != TFCC_INT64) return false;
  if (axis_size < 1) return false;
  switch (in_dt) {
    case TFCC_FLOAT32: TFCC_ARG_BY_OUT_(float); return true;
    case TFCC_UINT8:
    case TFCC_BOOL: TFCC_ARG_BY_OUT_(uint8_t); return true;
    case TFCC_INT8: TFCC_ARG_BY_OUT_(int8_t); return true;
    case TFCC_INT16: TFCC_ARG_BY_OUT_(int16_t); return true;
    case TFCC_INT32: TFCC_ARG_BY_OUT_(int32_t); return true;
    case TFCC_INT64: TFCC_ARG_BY_OUT_(int64_t); return true;
    default: return false;
  }
}

bool tfcc_reduce_sum_q_rescaled(const tfcc_reduce_shape *s, tfcc_dtype dt, const void *in,
                                int32_t in_zp, float in_scale, void *out, int32_t out_zp,
                                float out_scale, int32_t *acc) {
  if (!tfcc_reduce_sum_q_raw(s, dt, in, acc)) return false;
  tfcc_reduce_sum_q_rescaled_finish(s, dt, acc, in_zp, in_scale, out, out_zp, out_scale);
  return true;
}

void tfcc_reduce_sum_q_rescaled_finish(const tfcc_reduce_shape *s, tfcc_dtype dt,
                                       const int32_t *acc, int32_t in_zp, float in_scale, void *out,
                                       int32_t out_zp, float out_scale) {
  int32_t lo, hi;
  tfcc_q_range(dt, &lo, &hi);
  const float scale = in_scale / out_scale;
  const float bias = (float)(-in_zp) * scale * (float)s->reduce_count;
  for (int64_t j = 0; j < s->out_count; j++) {
    const int32_t v = f2i_sat(roundf((float)acc[j] * scale + bias));
    tfcc_q_store(dt, out, j, tfcc_clamp_i32((int32_t)((uint32_t)v + (uint32_t)out_zp), lo, hi));
  }
}

/* Whether idx (an input position) has index 0 on every reduced axis: the first input element
 * of its output in row-major order. */
static bool first_of_output(const tfcc_reduce_shape *s, const int32_t *idx) {
  for (int32_t d = 0; d < s->rank; d++)
    if (s->reduced[d] && idx[d] != 0) return false;
  return true;
}

bool tfcc_reduce_prod_q(const tfcc_reduce_shape *s, tfcc_dtype dt, const void *in, int32_t in_zp,
                        void *out, int32_t out_zp, int32_t mult, int shift, int32_t *acc) {
  if (dt != TFCC_INT8 && dt != TFCC_INT16) return false;
  if (s->in_count == 0) return true; /* TFLite returns early and leaves the output */
  const int8_t *x8 = (const int8_t *)in;
  const int16_t *x16 = (const int16_t *)in;
  TFCC_FOR_EACH_(s, i, o, {
    const int32_t v = (dt == TFCC_INT8 ? (int32_t)x8[i] : (int32_t)x16[i]) - in_zp;
    acc[o] = first_of_output(s, idx_) ? v : tfcc_mbqm64((int64_t)acc[o] * v, mult, shift);
  });
  int32_t lo, hi;
  tfcc_q_range(dt, &lo, &hi);
  /* + the zero point wraps, as TFLite's int32 expression: the rescale spans int32 for a
   * file's scales (INT32_MIN for int8 -128 x -96 x -128 at multiplier 0x70000000 x 2^7, then
   * + a negative zero point overflowed, undefined; fuzz53) */
  for (int64_t j = 0; j < s->out_count; j++)
    tfcc_q_store(
        dt, out, j,
        tfcc_clamp_i32(tfcc_add_wrap(tfcc_mbqm64((int64_t)acc[j], mult, shift), out_zp), lo, hi));
  return true;
}
