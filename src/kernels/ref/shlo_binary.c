/* StableHLO elementwise binary kernels: see shlo_binary.h. */
#include "kernels/ref/shlo_binary.h"

#include "kernels/ref/unary.h"

/* The four operations every type has, over x, y -> o; ADD and MUL are o[i]'s expressions. */
#define BIN_SWITCH(ADD, MUL) \
  switch (op) { \
    case TFCC_SHLO_ADD: \
      for (int64_t i = 0; i < n; i++) o[i] = ADD; \
      return true; \
    case TFCC_SHLO_MUL: \
      for (int64_t i = 0; i < n; i++) o[i] = MUL; \
      return true; \
    case TFCC_SHLO_MAX: \
      for (int64_t i = 0; i < n; i++) o[i] = x[i] < y[i] ? y[i] : x[i]; \
      return true; \
    case TFCC_SHLO_MIN: \
      for (int64_t i = 0; i < n; i++) o[i] = y[i] < x[i] ? y[i] : x[i]; \
      return true; \
    default: return false; \
  }

/* Integers: ADD / MUL through the unsigned twin U (wrapping, no UB); AND and SHL too. */
#define INT_LOOPS(T, U) \
  { \
    const T *x = a, *y = b; \
    T *o = out; \
    if (op == TFCC_SHLO_AND) { \
      for (int64_t i = 0; i < n; i++) o[i] = (T)(x[i] & y[i]); \
      return true; \
    } \
    if (op == TFCC_SHLO_SHL) { \
      for (int64_t i = 0; i < n; i++) \
        o[i] = (T)(uint32_t)((uint32_t)(int32_t)x[i] << ((uint32_t)(int32_t)y[i] & 31u)); \
      return true; \
    } \
    BIN_SWITCH((T)(U)((uint64_t)(U)x[i] + (U)y[i]), (T)(U)((uint64_t)(U)x[i] * (U)y[i])) \
  }

#define FLOAT_LOOPS(T) \
  { \
    const T *x = a, *y = b; \
    T *o = out; \
    BIN_SWITCH(x[i] + y[i], x[i] * y[i]) \
  }

/* float16 (ops) as Eigen::half computes: each operation in float32, the result rounded to the
 * nearest half; MAX / MIN compare the float32 values (std::max / std::min). */
static bool half_loops(tfcc_shlo_binop op, const uint16_t *x, const uint16_t *y, uint16_t *o,
                       int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    const float a = tfcc_f16_to_f32(x[i]), b = tfcc_f16_to_f32(y[i]);
    switch (op) {
      case TFCC_SHLO_ADD: o[i] = tfcc_f32_to_f16(a + b); break;
      case TFCC_SHLO_MUL: o[i] = tfcc_f32_to_f16(a * b); break;
      case TFCC_SHLO_MAX: o[i] = a < b ? y[i] : x[i]; break;
      case TFCC_SHLO_MIN: o[i] = b < a ? y[i] : x[i]; break;
      default: return false;
    }
  }
  return true;
}

bool tfcc_ref_shlo_binary_supported(tfcc_shlo_binop op, tfcc_dtype dt) {
  const bool is_int = dt == TFCC_INT8 || dt == TFCC_INT16 || dt == TFCC_INT32 || dt == TFCC_INT64 ||
                      dt == TFCC_UINT8 || dt == TFCC_UINT16 || dt == TFCC_UINT32 ||
                      dt == TFCC_UINT64;
  const bool is_float = dt == TFCC_FLOAT32 || dt == TFCC_FLOAT64 || dt == TFCC_FLOAT16;
  switch (op) {
    case TFCC_SHLO_ADD:
    case TFCC_SHLO_MUL:
    case TFCC_SHLO_MAX:
    case TFCC_SHLO_MIN: return is_int || is_float;
    case TFCC_SHLO_AND: return is_int || dt == TFCC_BOOL;
    case TFCC_SHLO_SHL: return dt == TFCC_INT8 || dt == TFCC_INT16 || dt == TFCC_INT32;
  }
  return false;
}

bool tfcc_ref_shlo_binary(tfcc_shlo_binop op, tfcc_dtype dt, const void *a, const void *b,
                          void *out, int64_t n) {
  if (!tfcc_ref_shlo_binary_supported(op, dt)) return false;
  switch (dt) {
    case TFCC_FLOAT32: FLOAT_LOOPS(float)
    case TFCC_FLOAT64: FLOAT_LOOPS(double)
    case TFCC_FLOAT16: return half_loops(op, a, b, out, n);
    case TFCC_INT8: INT_LOOPS(int8_t, uint8_t)
    case TFCC_INT16: INT_LOOPS(int16_t, uint16_t)
    case TFCC_INT32: INT_LOOPS(int32_t, uint32_t)
    case TFCC_INT64: INT_LOOPS(int64_t, uint64_t)
    case TFCC_UINT8: INT_LOOPS(uint8_t, uint8_t)
    case TFCC_UINT16: INT_LOOPS(uint16_t, uint16_t)
    case TFCC_UINT32: INT_LOOPS(uint32_t, uint32_t)
    case TFCC_UINT64: INT_LOOPS(uint64_t, uint64_t)
    case TFCC_BOOL: {
      /* Bytes, as every bool kernel reads them: a tensor from the file or the caller may hold any
       * byte value (loading one through a C bool is undefined); nonzero is true, out is 0 or 1. */
      const uint8_t *x = a, *y = b;
      uint8_t *o = out;
      for (int64_t i = 0; i < n; i++) o[i] = (uint8_t)(x[i] != 0 && y[i] != 0);
      return true;
    }
    default: return false;
  }
}
