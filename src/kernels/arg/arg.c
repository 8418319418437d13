/* Branch-free ARG_MAX / ARG_MIN (contract in arg.h). */
#include "kernels/arg/arg.h"

#include <stddef.h>

/* Block of inner positions kept in the running arrays (stack, 256 x 8 + 256 x 4 bytes): rows
 * of 1 KiB (float32) per axis step, long enough for the prefetchers. */
#define ARG_BLOCK 256

/* GT(v, best): v replaces best. */
#define GT_MAX(v, b) ((v) > (b))
#define GT_MIN(v, b) ((v) < (b))

/* One step of a chain: row pointer p, running best b and index k, position i. */
#define STEP(T, GT, p, b, k, i) \
  do { \
    const T v_ = (p)[i]; \
    const bool g_ = GT(v_, b); \
    b = g_ ? v_ : b; \
    k = g_ ? (i) : k; \
  } while (0)

/* The loops for one element type T, output type O and comparison GT. */
#define ARG_FN(NAME, T, O, GT) \
  static void NAME(const T *x, int64_t outer, int32_t n, int64_t inner, O *y) { \
    if (inner == 1) { \
      int64_t r = 0; \
      for (; r + 4 <= outer; r += 4) { \
        const T *p0 = x + r * n, *p1 = p0 + n, *p2 = p1 + n, *p3 = p2 + n; \
        T b0 = p0[0], b1 = p1[0], b2 = p2[0], b3 = p3[0]; \
        int32_t k0 = 0, k1 = 0, k2 = 0, k3 = 0; \
        for (int32_t i = 1; i < n; i++) { \
          STEP(T, GT, p0, b0, k0, i); \
          STEP(T, GT, p1, b1, k1, i); \
          STEP(T, GT, p2, b2, k2, i); \
          STEP(T, GT, p3, b3, k3, i); \
        } \
        y[r] = (O)k0; \
        y[r + 1] = (O)k1; \
        y[r + 2] = (O)k2; \
        y[r + 3] = (O)k3; \
      } \
      for (; r < outer; r++) { \
        const T *p0 = x + r * n; \
        T b0 = p0[0]; \
        int32_t k0 = 0; \
        for (int32_t i = 1; i < n; i++) STEP(T, GT, p0, b0, k0, i); \
        y[r] = (O)k0; \
      } \
      return; \
    } \
    T best[ARG_BLOCK]; \
    int32_t idx[ARG_BLOCK]; \
    for (int64_t a = 0; a < outer; a++) { \
      const T *p = x + a * n * inner; \
      for (int64_t j0 = 0; j0 < inner; j0 += ARG_BLOCK) { \
        const int64_t m = inner - j0 < ARG_BLOCK ? inner - j0 : ARG_BLOCK; \
        for (int64_t j = 0; j < m; j++) { \
          best[j] = p[j0 + j]; \
          idx[j] = 0; \
        } \
        for (int32_t i = 1; i < n; i++) { \
          const T *q = p + (int64_t)i * inner + j0; \
          for (int64_t j = 0; j < m; j++) { \
            const bool g = GT(q[j], best[j]); \
            best[j] = g ? q[j] : best[j]; \
            idx[j] = g ? i : idx[j]; \
          } \
        } \
        for (int64_t j = 0; j < m; j++) y[a * inner + j0 + j] = (O)idx[j]; \
      } \
    } \
  }

#define ARG_TYPE(SUF, T) \
  ARG_FN(max32_##SUF, T, int32_t, GT_MAX) \
  ARG_FN(max64_##SUF, T, int64_t, GT_MAX) \
  ARG_FN(min32_##SUF, T, int32_t, GT_MIN) \
  ARG_FN(min64_##SUF, T, int64_t, GT_MIN)

ARG_TYPE(f32, float)
ARG_TYPE(u8, uint8_t)
ARG_TYPE(i8, int8_t)
ARG_TYPE(i16, int16_t)
ARG_TYPE(i32, int32_t)
ARG_TYPE(i64, int64_t)

#define DISPATCH(SUF, CT) \
  do { \
    const CT *x_ = (const CT *)in; \
    if (is_max) { \
      if (o32) \
        max32_##SUF(x_, outer, axis_size, inner, (int32_t *)out); \
      else \
        max64_##SUF(x_, outer, axis_size, inner, (int64_t *)out); \
    } else { \
      if (o32) \
        min32_##SUF(x_, outer, axis_size, inner, (int32_t *)out); \
      else \
        min64_##SUF(x_, outer, axis_size, inner, (int64_t *)out); \
    } \
  } while (0)

bool tfcc_arg_min_max_fast(tfcc_dtype in_dt, const void *in, int64_t outer, int32_t axis_size,
                           int64_t inner, bool is_max, tfcc_dtype out_dt, void *out) {
  if (out_dt != TFCC_INT32 && out_dt != TFCC_INT64) return false;
  if (axis_size < 1) return false;
  const bool o32 = out_dt == TFCC_INT32;
  switch (in_dt) {
    case TFCC_FLOAT32: DISPATCH(f32, float); return true;
    case TFCC_UINT8:
    case TFCC_BOOL: DISPATCH(u8, uint8_t); return true;
    case TFCC_INT8: DISPATCH(i8, int8_t); return true;
    case TFCC_INT16: DISPATCH(i16, int16_t); return true;
    case TFCC_INT32: DISPATCH(i32, int32_t); return true;
    case TFCC_INT64: DISPATCH(i64, int64_t); return true;
    default: return false;
  }
}
