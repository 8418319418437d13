/* Broadcast iteration and non-quantized binary kernels. Integer arithmetic wraps like
 * TFLite's two's-complement code does in practice (done in unsigned types to avoid UB). */
#include "kernels/ref/binary.h"

#include <math.h>
#include <string.h>

#include "kernels/ref/quant_util.h"
#include "kernels/ref/unary.h"

bool tfcc_bcast_shape(int32_t n, const int32_t *ranks, const int32_t *const *dims,
                      int32_t *out_rank, int32_t *out_dims, int32_t *bad_dim) {
  int32_t r = 0;
  for (int32_t k = 0; k < n; k++)
    if (ranks[k] > r) r = ranks[k];
  for (int32_t j = 0; j < r; j++) {
    int32_t d = 1;
    bool first = true;
    for (int32_t k = 0; k < n; k++) {
      int32_t at = ranks[k] - r + j; /* dimension of input k aligned with output j */
      int32_t v = at >= 0 ? dims[k][at] : 1;
      if (first) {
        d = v;
        first = false;
      } else if (v != d) {
        if (d == 1) {
          d = v;
        } else if (v != 1) {
          if (bad_dim) *bad_dim = j;
          return false;
        }
      }
    }
    out_dims[j] = d;
  }
  *out_rank = r;
  return true;
}

void tfcc_bcast_plan(tfcc_bcast *bc, int32_t n, const int32_t *ranks, const int32_t *const *dims,
                     int32_t out_rank, const int32_t *out_dims) {
  int64_t full_stride[TFCC_BCAST_MAX_IN][TFCC_MAX_DIMS];
  memset(bc, 0, sizeof(*bc));
  bc->n_in = n;
  for (int32_t k = 0; k < n; k++) {
    int64_t s = 1;
    for (int32_t j = out_rank - 1; j >= 0; j--) {
      int32_t at = ranks[k] - out_rank + j;
      int32_t v = at >= 0 ? dims[k][at] : 1;
      full_stride[k][j] = (v == 1) ? 0 : s;
      s *= v;
    }
  }
  int64_t elements = 1;
  int32_t r = 0;
  for (int32_t j = 0; j < out_rank; j++) {
    elements *= out_dims[j];
    if (out_dims[j] == 1) continue;
    /* Merge with the previous kept dimension when every input is contiguous across both. */
    bool merge = r > 0;
    for (int32_t k = 0; merge && k < n; k++)
      if (bc->strides[k][r - 1] != full_stride[k][j] * out_dims[j]) merge = false;
    if (merge) {
      bc->dims[r - 1] *= out_dims[j];
      for (int32_t k = 0; k < n; k++) bc->strides[k][r - 1] = full_stride[k][j];
    } else {
      bc->dims[r] = out_dims[j];
      for (int32_t k = 0; k < n; k++) bc->strides[k][r] = full_stride[k][j];
      r++;
    }
  }
  if (r == 0) {
    bc->dims[0] = 1;
    r = 1;
  }
  bc->rank = r;
  bc->elements = elements;
}

void tfcc_bcast_run(const tfcc_bcast *bc, void *out, size_t out_esize, const void *const *in,
                    const size_t *in_esize, tfcc_bcast_row_fn fn, const void *params) {
  if (bc->elements <= 0) return;
  const int32_t last = bc->rank - 1;
  const int64_t row = bc->dims[last];
  int64_t step[TFCC_BCAST_MAX_IN];
  int64_t off[TFCC_BCAST_MAX_IN] = {0};
  int64_t idx[TFCC_MAX_DIMS] = {0};
  const void *ptr[TFCC_BCAST_MAX_IN];
  for (int32_t k = 0; k < bc->n_in; k++) step[k] = bc->strides[k][last];
  int64_t rows = bc->elements / row;
  uint8_t *o = out;
  for (int64_t q = 0; q < rows; q++) {
    for (int32_t k = 0; k < bc->n_in; k++)
      ptr[k] = (const uint8_t *)in[k] + (size_t)off[k] * in_esize[k];
    fn(o + (size_t)(q * row) * out_esize, ptr, step, row, params);
    /* Advance the outer counters (odometer over dims[0..last-1]). */
    for (int32_t j = last - 1; j >= 0; j--) {
      idx[j]++;
      for (int32_t k = 0; k < bc->n_in; k++) off[k] += bc->strides[k][j];
      if (idx[j] < bc->dims[j]) break;
      for (int32_t k = 0; k < bc->n_in; k++) off[k] -= bc->strides[k][j] * bc->dims[j];
      idx[j] = 0;
    }
  }
}

/* ------------------------------------------------------------------ element functions */

typedef struct {
  const tfcc_binary_act *act;
} row_params;

static inline float clampf_act(float v, float lo, float hi) {
  /* ActivationFunctionWithMinMax: min(max(v, lo), hi); NaN passes through. */
  v = v < lo ? lo : v;
  return hi < v ? hi : v;
}

static inline int64_t clampi_act(int64_t v, int64_t lo, int64_t hi) {
  v = v < lo ? lo : v;
  return hi < v ? hi : v;
}

/* Wrapping integer arithmetic. */
#define WRAP_ADD(T, U, a, b) ((T)((U)(a) + (U)(b)))
#define WRAP_SUB(T, U, a, b) ((T)((U)(a) - (U)(b)))
#define WRAP_MUL(T, U, a, b) ((T)((U)(a) * (U)(b)))

/* double -> integer the way x86 truncating conversion behaves for out-of-range values
 * (TFLite's static_cast is undefined there; x86 yields the "integer indefinite" value). */
static inline int32_t f64_to_i32(double v) {
  if (!(v > -2147483649.0 && v < 2147483648.0)) return INT32_MIN;
  return (int32_t)v;
}

/* Truncating integer division without the INT_MIN / -1 trap; b == 0 yields 0 (callers
 * reject zero divisors first, as TFLite does). */
#define INT_DIV_FN(name, T, MINV) \
  static inline T name(T a, T b) { \
    if (b == 0) return 0; \
    if (b == -1) return (a == MINV) ? MINV : (T)(-a); \
    return (T)(a / b); \
  }
INT_DIV_FN(div_i32, int32_t, INT32_MIN)
INT_DIV_FN(div_i64, int64_t, INT64_MIN)
#define INT_MOD_FN(name, T) \
  static inline T name(T a, T b) { \
    if (b == 0 || b == -1) return 0; \
    T m = (T)(a % b); \
    return (m != 0 && ((b < 0) != (m < 0))) ? (T)(m + b) : m; \
  }
INT_MOD_FN(fmod_i8, int8_t)
INT_MOD_FN(fmod_i16, int16_t)
INT_MOD_FN(fmod_i32, int32_t)
INT_MOD_FN(fmod_i64, int64_t)

static inline float fmod_f32(float a, float b) {
  float m = fmodf(a, b);
  return (m != 0 && ((b < 0) != (m < 0))) ? m + b : m;
}

/* FloorDiv: std::floor(double(a) / double(b)) converted back to T. */
static inline float floordiv_f32(float a, float b) { return (float)floor((double)a / (double)b); }
static inline int32_t floordiv_i32(int32_t a, int32_t b) {
  if (b == 0) return 0;
  return f64_to_i32(floor((double)a / (double)b));
}
static inline int16_t floordiv_i16(int16_t a, int16_t b) {
  if (b == 0) return 0;
  return (int16_t)f64_to_i32(floor((double)a / (double)b));
}
static inline int8_t floordiv_i8(int8_t a, int8_t b) {
  if (b == 0) return 0;
  return (int8_t)f64_to_i32(floor((double)a / (double)b));
}

/* Pow on int32: std::pow(int, int) computes in double. */
static inline int32_t pow_i32(int32_t a, int32_t b) {
  return f64_to_i32(pow((double)a, (double)b));
}

/* Row function generator: expr uses x, y (elements) and p (row_params). */
#define ROW_FN(name, T, expr) \
  static void name(void *out, const void *const *in, const int64_t *step, int64_t n, \
                   const void *params) { \
    const T *a = in[0], *b = in[1]; \
    T *o = out; \
    const row_params *p = params; \
    (void)p; \
    const int64_t sa = step[0], sb = step[1]; \
    for (int64_t i = 0; i < n; i++) { \
      const T x = a[i * sa], y = b[i * sb]; \
      o[i] = (expr); \
    } \
  }

#define ACTF(v) clampf_act((v), p->act->f_lo, p->act->f_hi)
#define ACTI(T, v) ((T)clampi_act((int64_t)(v), p->act->i_lo, p->act->i_hi))

/* float16 (ADD v6, MUL v8): TFLite's half type converts to float32 for the arithmetic and the
 * sum or product is rounded to half once; the activation bounds are exact in half, so clamping
 * in float32 first gives the same value. */
ROW_FN(add_f16, uint16_t, tfcc_f32_to_f16(ACTF(tfcc_f16_to_f32(x) + tfcc_f16_to_f32(y))))
ROW_FN(mul_f16, uint16_t, tfcc_f32_to_f16(ACTF(tfcc_f16_to_f32(x) * tfcc_f16_to_f32(y))))

/* float32 */
ROW_FN(add_f32, float, ACTF(x + y))
ROW_FN(sub_f32, float, ACTF(x - y))
ROW_FN(mul_f32, float, ACTF(x *y))
ROW_FN(div_f32, float, ACTF(x / y))
ROW_FN(sqd_f32, float, (x - y) * (x - y))
ROW_FN(max_f32, float, x > y ? x : y)
ROW_FN(min_f32, float, x < y ? x : y)
ROW_FN(pow_f32, float, powf(x, y))
ROW_FN(fdiv_f32, float, floordiv_f32(x, y))
ROW_FN(fmod_f32r, float, fmod_f32(x, y))
/* int32 and int64: ADD / SUB / MUL wrap (through the unsigned U) */
#define WIDE_INT_ROWS(sfx, T, U) \
  ROW_FN(add_##sfx, T, ACTI(T, WRAP_ADD(T, U, x, y))) \
  ROW_FN(sub_##sfx, T, ACTI(T, WRAP_SUB(T, U, x, y))) \
  ROW_FN(mul_##sfx, T, ACTI(T, WRAP_MUL(T, U, x, y))) \
  ROW_FN(div_##sfx##r, T, ACTI(T, div_##sfx(x, y))) \
  ROW_FN(max_##sfx, T, x > y ? x : y) \
  ROW_FN(min_##sfx, T, x < y ? x : y) \
  ROW_FN(fmod_##sfx##r, T, fmod_##sfx(x, y))
WIDE_INT_ROWS(i32, int32_t, uint32_t)
WIDE_INT_ROWS(i64, int64_t, uint64_t)
/* int32 only */
ROW_FN(sqd_i32, int32_t,
       WRAP_MUL(int32_t, uint32_t, WRAP_SUB(int32_t, uint32_t, x, y),
                WRAP_SUB(int32_t, uint32_t, x, y)))
ROW_FN(pow_i32r, int32_t, pow_i32(x, y))
ROW_FN(fdiv_i32, int32_t, floordiv_i32(x, y))
/* small integers (raw values) */
ROW_FN(max_u8, uint8_t, x > y ? x : y)
ROW_FN(min_u8, uint8_t, x < y ? x : y)
ROW_FN(max_i8, int8_t, x > y ? x : y)
ROW_FN(min_i8, int8_t, x < y ? x : y)
ROW_FN(max_i16, int16_t, x > y ? x : y)
ROW_FN(min_i16, int16_t, x < y ? x : y)
ROW_FN(fdiv_i16, int16_t, floordiv_i16(x, y))
ROW_FN(fdiv_i8, int8_t, floordiv_i8(x, y))
ROW_FN(fmod_i16r, int16_t, fmod_i16(x, y))
ROW_FN(fmod_i8r, int8_t, fmod_i8(x, y))

/* The row function of each (type, operator); NULL: not supported. */
static const struct {
  tfcc_dtype dt;
  tfcc_bcast_row_fn fn[TFCC_BINOP_COUNT_];
} k_rows[] = {
    {TFCC_FLOAT32,
     {add_f32, sub_f32, mul_f32, div_f32, sqd_f32, max_f32, min_f32, pow_f32, fdiv_f32, fmod_f32r}},
    {TFCC_INT32,
     {add_i32, sub_i32, mul_i32, div_i32r, sqd_i32, max_i32, min_i32, pow_i32r, fdiv_i32,
      fmod_i32r}},
    {TFCC_INT64,
     {[TFCC_BIN_ADD] = add_i64,
      [TFCC_BIN_SUB] = sub_i64,
      [TFCC_BIN_MUL] = mul_i64,
      [TFCC_BIN_DIV] = div_i64r,
      [TFCC_BIN_MAX] = max_i64,
      [TFCC_BIN_MIN] = min_i64,
      [TFCC_BIN_FLOOR_MOD] = fmod_i64r}},
    {TFCC_UINT8, {[TFCC_BIN_MAX] = max_u8, [TFCC_BIN_MIN] = min_u8}},
    {TFCC_INT8,
     {[TFCC_BIN_MAX] = max_i8,
      [TFCC_BIN_MIN] = min_i8,
      [TFCC_BIN_FLOOR_DIV] = fdiv_i8,
      [TFCC_BIN_FLOOR_MOD] = fmod_i8r}},
    {TFCC_INT16,
     {[TFCC_BIN_MAX] = max_i16,
      [TFCC_BIN_MIN] = min_i16,
      [TFCC_BIN_FLOOR_DIV] = fdiv_i16,
      [TFCC_BIN_FLOOR_MOD] = fmod_i16r}},
    {TFCC_FLOAT16, {[TFCC_BIN_ADD] = add_f16, [TFCC_BIN_MUL] = mul_f16}},
};

static tfcc_bcast_row_fn pick(tfcc_binop op, tfcc_dtype dt) {
  for (size_t i = 0; i < sizeof k_rows / sizeof k_rows[0]; i++)
    if (k_rows[i].dt == dt) return k_rows[i].fn[op];
  return NULL;
}

bool tfcc_ref_binary_supported(tfcc_binop op, tfcc_dtype dt) {
  return op >= 0 && op < TFCC_BINOP_COUNT_ && pick(op, dt) != NULL;
}

bool tfcc_ref_binary(tfcc_binop op, tfcc_dtype dt, const tfcc_bcast *bc, const void *a,
                     const void *b, void *out, const tfcc_binary_act *act) {
  if (op < 0 || op >= TFCC_BINOP_COUNT_) return false;
  tfcc_bcast_row_fn fn = pick(op, dt);
  if (!fn) return false;
  tfcc_binary_act none;
  if (!act) {
    tfcc_binary_act_range(TFCC_ACT_NONE, &none);
    act = &none;
  }
  row_params p = {act};
  const void *in[2] = {a, b};
  size_t es = tfcc_dtype_size(dt);
  size_t ies[2] = {es, es};
  tfcc_bcast_run(bc, out, es, in, ies, fn, &p);
  return true;
}

void tfcc_binary_act_range(int activation, tfcc_binary_act *act) {
  tfcc_act_range_f32(activation, &act->f_lo, &act->f_hi);
  act->i_lo = INT64_MIN;
  act->i_hi = INT64_MAX;
  if (activation == TFCC_ACT_RELU) {
    act->i_lo = 0;
  } else if (activation == TFCC_ACT_RELU6) {
    act->i_lo = 0;
    act->i_hi = 6;
  } else if (activation == TFCC_ACT_RELU_N1_TO_1) {
    act->i_lo = -1;
    act->i_hi = 1;
  }
}

/* out[i] = sum over k of in[k][i], summed in S (float, or the unsigned twin: wrapping). */
#define ADD_N(T, S) \
  { \
    T *o = out; \
    for (int64_t i = 0; i < elements; i++) { \
      S s = 0; \
      for (int32_t k = 0; k < n; k++) s += (S)((const T *)in[k])[i]; \
      o[i] = (T)s; \
    } \
    return true; \
  }

bool tfcc_ref_add_n(tfcc_dtype dt, const void *const *in, int32_t n, void *out, int64_t elements) {
  switch (dt) {
    case TFCC_FLOAT32: ADD_N(float, float)
    case TFCC_INT32: ADD_N(int32_t, uint32_t)
    case TFCC_INT64: ADD_N(int64_t, uint64_t)
    default: return false;
  }
}

static float pow_int(float x, int32_t n) {
  if (n == 1) return x;
  const float h = pow_int(x, n / 2), r = h * h;
  return n % 2 ? r * x : r;
}

void tfcc_pow_int_f32(const float *x, int32_t n, float *y, size_t count) {
  for (size_t i = 0; i < count; i++) y[i] = pow_int(x[i], n);
}
