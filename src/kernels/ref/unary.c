/* Unary elementwise kernels. */
#include "kernels/ref/unary.h"

#include <math.h>
#include <string.h>

#include "kernels/ref/expf.h"
#include "kernels/ref/float8.h"
#include "kernels/ref/quant_util.h"

/* ------------------------------------------------------------------ float math */

/* round.cc RoundToNearest: half to even, computed from floor as TFLite does (this also fixes
 * the sign of zero results: -0.3 gives +0). */
static inline float round_half_even(float v) {
  const float fl = floorf(v);
  const float diff = v - fl;
  if (diff < 0.5f || (diff == 0.5f && fmodf(fl, 2.0f) == 0.0f)) return fl;
  return fl + 1.0f;
}

/* The float32 operations: X(op, y[i] as an expression of v = x[i]). */
#define UNARY_F32_OPS(X) \
  X(TFCC_UN_ABS, fabsf(v)) \
  X(TFCC_UN_NEG, -v) \
  X(TFCC_UN_EXP, tfcc_expf_ref(v)) \
  X(TFCC_UN_LOG, logf(v)) \
  X(TFCC_UN_SQRT, sqrtf(v)) \
  X(TFCC_UN_RSQRT, 1.f / sqrtf(v)) \
  X(TFCC_UN_SQUARE, v *v) \
  X(TFCC_UN_FLOOR, floorf(v)) \
  X(TFCC_UN_CEIL, ceilf(v)) \
  X(TFCC_UN_ROUND, round_half_even(v)) \
  X(TFCC_UN_SIN, sinf(v)) \
  X(TFCC_UN_COS, cosf(v))

#define UNARY_F32_CASE(OP, EXPR) \
  case OP: \
    for (int64_t i = 0; i < n; i++) { \
      const float v = x[i]; \
      y[i] = EXPR; \
    } \
    break;

static void unary_f32(tfcc_unop op, const float *x, float *y, int64_t n) {
  switch (op) {
    UNARY_F32_OPS(UNARY_F32_CASE)
    default: break;
  }
}

/* Integer ABS / NEG with two's-complement wrap (abs(INT_MIN) == INT_MIN as in practice). */
#define INT_ABS_NEG(sfx, T, U) \
  static void absneg_##sfx(bool neg, const T *x, T *y, int64_t n) { \
    for (int64_t i = 0; i < n; i++) { \
      U u = (U)x[i]; \
      U m = (U)(0u - u); \
      y[i] = (T)((neg || x[i] < 0) ? m : u); \
    } \
  }
INT_ABS_NEG(i8, int8_t, uint8_t)
INT_ABS_NEG(i16, int16_t, uint16_t)
INT_ABS_NEG(i32, int32_t, uint32_t)
INT_ABS_NEG(i64, int64_t, uint64_t)

bool tfcc_ref_unary_supported(tfcc_unop op, tfcc_dtype dt) {
  if (op < 0 || op >= TFCC_UNOP_COUNT_) return false;
  if (op == TFCC_UN_NOT) return dt == TFCC_BOOL;
  if (dt == TFCC_FLOAT32) return true;
  if (op == TFCC_UN_ABS || op == TFCC_UN_NEG)
    return dt == TFCC_INT8 || dt == TFCC_INT16 || dt == TFCC_INT32 || dt == TFCC_INT64;
  return false;
}

bool tfcc_ref_unary(tfcc_unop op, tfcc_dtype dt, const void *in, void *out, int64_t n) {
  if (!tfcc_ref_unary_supported(op, dt)) return false;
  const bool neg = op == TFCC_UN_NEG;
  switch (dt) {
    case TFCC_FLOAT32: unary_f32(op, in, out, n); break;
    case TFCC_INT8: absneg_i8(neg, in, out, n); break;
    case TFCC_INT16: absneg_i16(neg, in, out, n); break;
    case TFCC_INT32: absneg_i32(neg, in, out, n); break;
    case TFCC_INT64: absneg_i64(neg, in, out, n); break;
    case TFCC_BOOL: {
      const uint8_t *x = in;
      uint8_t *y = out;
      for (int64_t i = 0; i < n; i++) y[i] = x[i] == 0;
      break;
    }
    default: return false;
  }
  return true;
}

/* ------------------------------------------------------------------ quantized ABS / SQRT */

void tfcc_unary_q_prepare_abs(tfcc_unary_q *q, float in_scale, int32_t in_zp, float out_scale,
                              int32_t out_zp) {
  q->in_zp = in_zp;
  q->out_zp = out_zp;
  q->in_scale = in_scale;
  q->out_scale = out_scale;
  q->needs_rescale = in_scale != out_scale;
  int shift = 0;
  tfcc_quantize_multiplier((double)(in_scale / out_scale), &q->mult, &shift); /* float division */
  if (shift > 30) shift = 30;
  q->shift = shift;
}

static inline int32_t abs_q_elem(int32_t v, const tfcc_unary_q *q, int32_t lo, int32_t hi) {
  int32_t d = v - q->in_zp;
  int32_t value = d < 0 ? -d : d;
  /* in int64: a hostile scale ratio saturates the multiplier, and its product plus the zero
   * point can pass int32 (undefined in TFLite's int arithmetic too); same values otherwise */
  const int64_t r =
      (int64_t)(q->needs_rescale ? tfcc_mbqm(value, q->mult, q->shift) : value) + q->out_zp;
  return r < lo ? lo : r > hi ? hi : (int32_t)r;
}

bool tfcc_ref_abs_q(tfcc_dtype dt, const void *in, void *out, int64_t n, const tfcc_unary_q *q) {
  if (dt == TFCC_INT8) {
    const int8_t *x = in;
    int8_t *y = out;
    for (int64_t i = 0; i < n; i++) y[i] = (int8_t)abs_q_elem(x[i], q, INT8_MIN, INT8_MAX);
  } else if (dt == TFCC_INT16) {
    const int16_t *x = in;
    int16_t *y = out;
    for (int64_t i = 0; i < n; i++) y[i] = (int16_t)abs_q_elem(x[i], q, INT16_MIN, INT16_MAX);
  } else {
    return false;
  }
  return true;
}

static inline int32_t sqrt_q_elem(int32_t v, const tfcc_unary_q *q, int32_t lo, int32_t hi,
                                  bool *neg) {
  const float deq = q->in_scale * (float)(v - q->in_zp);
  if (!(deq >= 0.0f)) {
    *neg = true;
    return 0;
  }
  const float r = sqrtf(deq) / q->out_scale;
  /* static_cast<int>(r) + zp, then clamp; r is >= 0, guard the conversion range. */
  int32_t t = r < 2147483520.0f ? (int32_t)r : INT32_MAX;
  int64_t s = (int64_t)t + q->out_zp;
  return tfcc_clamp_i32(s > INT32_MAX ? INT32_MAX : (int32_t)s, lo, hi);
}

int64_t tfcc_ref_sqrt_q(tfcc_dtype dt, const void *in, void *out, int64_t n,
                        const tfcc_unary_q *q) {
  bool neg = false;
  for (int64_t i = 0; i < n; i++) {
    if (dt == TFCC_INT8)
      ((int8_t *)out)[i] =
          (int8_t)sqrt_q_elem(((const int8_t *)in)[i], q, INT8_MIN, INT8_MAX, &neg);
    else
      ((int16_t *)out)[i] =
          (int16_t)sqrt_q_elem(((const int16_t *)in)[i], q, INT16_MIN, INT16_MAX, &neg);
    if (neg) return i;
  }
  return -1;
}

/* ------------------------------------------------------------------ float16 */

float tfcc_f16_to_f32(uint16_t h) {
  const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1Fu;
  const uint32_t mant = h & 0x3FFu;
  uint32_t bits;
  if (exp == 0) {
    float v = ldexpf((float)mant, -24);
    return sign ? -v : v;
  } else if (exp == 31) {
    bits = sign | 0x7F800000u | (mant << 13);
  } else {
    bits = sign | ((exp + 112u) << 23) | (mant << 13);
  }
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

uint16_t tfcc_f32_to_f16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t exp = (x >> 23) & 0xFFu;
  uint32_t mant = x & 0x7FFFFFu;
  if (exp == 0xFF) return (uint16_t)(sign | 0x7C00u | (mant ? (0x200u | (mant >> 13)) : 0u));
  const int32_t e = (int32_t)exp - 127 + 15;
  if (e >= 31) return (uint16_t)(sign | 0x7C00u);
  if (e <= 0) {
    if (e < -10) return (uint16_t)sign;
    mant |= 0x800000u;
    const int shift = 14 - e;
    uint32_t half = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1u), mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1u))) half++;
    return (uint16_t)(sign | half);
  }
  uint32_t half = ((uint32_t)e << 10) | (mant >> 13);
  const uint32_t rem = mant & 0x1FFFu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1u))) half++; /* a carry rounds up to inf */
  return (uint16_t)(sign | half);
}

/* ------------------------------------------------------------------ CAST */

typedef enum { V_FLOAT, V_INT, V_UINT } vkind;
typedef struct {
  vkind kind;
  double f;
  int64_t i;
  uint64_t u;
} scalar;

static bool is_cast_type(tfcc_dtype t) {
  switch (t) {
    case TFCC_BOOL:
    case TFCC_UINT8:
    case TFCC_INT8:
    case TFCC_UINT16:
    case TFCC_INT16:
    case TFCC_UINT32:
    case TFCC_INT32:
    case TFCC_UINT64:
    case TFCC_INT64:
    case TFCC_FLOAT16:
    case TFCC_FLOAT32:
    case TFCC_FLOAT64:
    case TFCC_BFLOAT16:
    case TFCC_FLOAT8_E4M3FN:
    case TFCC_FLOAT8_E5M2: return true;
    default: return false;
  }
}

/* types: run-time int2 / int4 / uint4 (one value per byte) */
static bool is_packed_type(tfcc_dtype t) {
  return t == TFCC_INT2 || t == TFCC_INT4 || t == TFCC_UINT4;
}

static bool is_float8(tfcc_dtype t) { return t == TFCC_FLOAT8_E4M3FN || t == TFCC_FLOAT8_E5M2; }

/* cast.cc: int2 / int4 / uint4 go to float32 (and to float8 in the build with the extra
 * reference kernels, which is the one that casts float8 at all), and come from float32 only. */
bool tfcc_ref_cast_supported(tfcc_dtype from, tfcc_dtype to) {
  if (is_packed_type(from)) return to == TFCC_FLOAT32 || is_float8(to);
  if (is_packed_type(to)) return from == TFCC_FLOAT32;
  return is_cast_type(from) && is_cast_type(to);
}

/* ops: bfloat16 as Eigen::bfloat16 converts (CAST v7): the upper 16 bits of a float32, rounded
 * to nearest even; NaN becomes the quiet NaN 0x7FC0 (0xFFC0 with the sign set). */
static uint16_t f32_to_bf16(float f) {
  uint32_t b;
  memcpy(&b, &f, sizeof b);
  if (f != f) return (uint16_t)((b >> 16 & 0x8000u) | 0x7FC0u);
  b += 0x7FFFu + (b >> 16 & 1u);
  return (uint16_t)(b >> 16);
}

static float bf16_to_f32(uint16_t h) {
  const uint32_t b = (uint32_t)h << 16;
  float f;
  memcpy(&f, &b, sizeof f);
  return f;
}

static scalar of_int(int64_t i) { return (scalar){V_INT, 0, i, 0}; }
static scalar of_uint(uint64_t u) { return (scalar){V_UINT, 0, 0, u}; }
static scalar of_float(double f) { return (scalar){V_FLOAT, f, 0, 0}; }

static scalar load(tfcc_dtype t, const void *p, int64_t k) {
  switch (t) {
    case TFCC_BOOL: return of_uint(((const uint8_t *)p)[k] != 0);
    case TFCC_UINT4:
    case TFCC_UINT8: return of_uint(((const uint8_t *)p)[k]);
    case TFCC_UINT16: return of_uint(((const uint16_t *)p)[k]);
    case TFCC_UINT32: return of_uint(((const uint32_t *)p)[k]);
    case TFCC_UINT64: return of_uint(((const uint64_t *)p)[k]);
    case TFCC_INT2:
    case TFCC_INT4:
    case TFCC_INT8: return of_int(((const int8_t *)p)[k]);
    case TFCC_INT16: return of_int(((const int16_t *)p)[k]);
    case TFCC_INT32: return of_int(((const int32_t *)p)[k]);
    case TFCC_INT64: return of_int(((const int64_t *)p)[k]);
    case TFCC_FLOAT8_E4M3FN:
    case TFCC_FLOAT8_E5M2:
      return of_float(tfcc_f8_to_f32(((const uint8_t *)p)[k], t == TFCC_FLOAT8_E5M2));
    case TFCC_FLOAT16: return of_float(tfcc_f16_to_f32(((const uint16_t *)p)[k]));
    case TFCC_FLOAT32: return of_float(((const float *)p)[k]);
    case TFCC_FLOAT64: return of_float(((const double *)p)[k]);
    case TFCC_BFLOAT16: return of_float(bf16_to_f32(((const uint16_t *)p)[k]));
    default: return of_int(0);
  }
}

/* x86-64 truncating conversions, whose out-of-range result is the "integer indefinite". */
static inline int32_t cvtt32(double v) {
  return (v > -2147483649.0 && v < 2147483648.0) ? (int32_t)v : INT32_MIN;
}
static inline int64_t cvtt64(double v) {
  return (v >= -9223372036854775808.0 && v < 9223372036854775808.0) ? (int64_t)v : INT64_MIN;
}

/* The value as the low 64 bits of an integer (static_cast to an integer type). */
static uint64_t as_bits(scalar s, tfcc_dtype to) {
  if (s.kind == V_INT) return (uint64_t)s.i;
  if (s.kind == V_UINT) return s.u;
  switch (to) {
    case TFCC_INT64: return (uint64_t)cvtt64(s.f);
    case TFCC_UINT64:
      if (s.f >= 0.0 && s.f < 18446744073709551616.0) return (uint64_t)s.f;
      return (uint64_t)cvtt64(s.f);
    case TFCC_UINT32: return (uint64_t)cvtt64(s.f);
    default: return (uint64_t)(int64_t)cvtt32(s.f);
  }
}

static float as_f32(scalar s) {
  if (s.kind == V_INT) return (float)s.i;
  if (s.kind == V_UINT) return (float)s.u;
  return (float)s.f;
}

static double as_f64(scalar s) {
  if (s.kind == V_INT) return (double)s.i;
  if (s.kind == V_UINT) return (double)s.u;
  return s.f;
}

static void store(tfcc_dtype t, void *p, int64_t k, scalar s) {
  switch (t) {
    case TFCC_BOOL: {
      bool nz = s.kind == V_FLOAT ? s.f != 0.0 : (s.kind == V_INT ? s.i != 0 : s.u != 0);
      ((uint8_t *)p)[k] = nz ? 1 : 0;
      break;
    }
    case TFCC_UINT8: ((uint8_t *)p)[k] = (uint8_t)as_bits(s, t); break;
    case TFCC_INT8: ((int8_t *)p)[k] = (int8_t)(uint8_t)as_bits(s, t); break;
    case TFCC_UINT16: ((uint16_t *)p)[k] = (uint16_t)as_bits(s, t); break;
    case TFCC_INT16: ((int16_t *)p)[k] = (int16_t)(uint16_t)as_bits(s, t); break;
    case TFCC_UINT32: ((uint32_t *)p)[k] = (uint32_t)as_bits(s, t); break;
    case TFCC_INT32: ((int32_t *)p)[k] = (int32_t)(uint32_t)as_bits(s, t); break;
    case TFCC_UINT64: ((uint64_t *)p)[k] = as_bits(s, t); break;
    case TFCC_INT64: ((int64_t *)p)[k] = (int64_t)as_bits(s, t); break;
    case TFCC_FLOAT16: ((uint16_t *)p)[k] = tfcc_f32_to_f16(as_f32(s)); break;
    case TFCC_FLOAT32: ((float *)p)[k] = as_f32(s); break;
    case TFCC_FLOAT64: ((double *)p)[k] = as_f64(s); break;
    case TFCC_BFLOAT16: ((uint16_t *)p)[k] = f32_to_bf16(as_f32(s)); break;
    case TFCC_FLOAT8_E4M3FN:
    case TFCC_FLOAT8_E5M2:
      ((uint8_t *)p)[k] = tfcc_f32_to_f8(as_f32(s), t == TFCC_FLOAT8_E5M2);
      break;
    case TFCC_INT2:
    case TFCC_INT4:
    case TFCC_UINT4: {
      /* castFloatToInt2 / Int4 / Uint4: std::max(lo, std::min(hi, x)) (NaN gives hi), then
       * static_cast<int8_t> (truncation) */
      const float lo = t == TFCC_INT2 ? -2.f : t == TFCC_INT4 ? -8.f : 0.f;
      const float hi = t == TFCC_INT2 ? 1.f : t == TFCC_INT4 ? 7.f : 15.f;
      const float x = as_f32(s);
      float v = x < hi ? x : hi;
      v = lo < v ? v : lo;
      ((int8_t *)p)[k] = (int8_t)v;
      break;
    }
    default: break;
  }
}

bool tfcc_ref_cast(tfcc_dtype from, tfcc_dtype to, const void *in, void *out, int64_t n) {
  if (!tfcc_ref_cast_supported(from, to)) return false;
  if (from == to) {
    memmove(out, in, (size_t)n * tfcc_dtype_size(from));
    if (from == TFCC_BOOL)
      for (int64_t k = 0; k < n; k++) ((uint8_t *)out)[k] = ((uint8_t *)out)[k] != 0;
    return true;
  }
  for (int64_t k = 0; k < n; k++) store(to, out, k, load(from, in, k));
  return true;
}

/* ------------------------------------------------------------------ FILL / RANGE */

void tfcc_ref_range_f32(float start, float delta, float *out, int64_t n) {
  float v = start;
  for (int64_t i = 0; i < n; i++) {
    out[i] = v;
    v += delta;
  }
}

void tfcc_ref_range_i32(int32_t start, int32_t delta, int32_t *out, int64_t n) {
  uint32_t v = (uint32_t)start;
  for (int64_t i = 0; i < n; i++) {
    out[i] = (int32_t)v;
    v += (uint32_t)delta;
  }
}

void tfcc_ref_range_i64(int64_t start, int64_t delta, int64_t *out, int64_t n) {
  uint64_t v = (uint64_t)start;
  for (int64_t i = 0; i < n; i++) {
    out[i] = (int64_t)v;
    v += (uint64_t)delta;
  }
}
