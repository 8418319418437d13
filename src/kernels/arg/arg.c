/* Branch-free ARG_MAX / ARG_MIN (contract in arg.h). */
#include "kernels/arg/arg.h"

#include <float.h>
#include <stddef.h>

#include "kernels/ref/reduce.h"

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

/* REDUCE_MAX / REDUCE_MIN over [outer, n, inner]: out = init, then every input combined in
 * order (seeded: out = x[0], then x[1..], for the all-reduced case). */
#define RED_FN(NAME, T, GT) \
  static void NAME(const T *x, int64_t outer, int64_t n, int64_t inner, T init, bool seeded, \
                   T *y) { \
    if (seeded) { \
      T b = x[0]; \
      for (int64_t i = 1; i < n; i++) b = GT(x[i], b) ? x[i] : b; \
      y[0] = b; \
      return; \
    } \
    if (inner == 1) { \
      int64_t r = 0; \
      for (; r + 4 <= outer; r += 4) { \
        const T *p0 = x + r * n, *p1 = p0 + n, *p2 = p1 + n, *p3 = p2 + n; \
        T b0 = init, b1 = init, b2 = init, b3 = init; \
        for (int64_t i = 0; i < n; i++) { \
          b0 = GT(p0[i], b0) ? p0[i] : b0; \
          b1 = GT(p1[i], b1) ? p1[i] : b1; \
          b2 = GT(p2[i], b2) ? p2[i] : b2; \
          b3 = GT(p3[i], b3) ? p3[i] : b3; \
        } \
        y[r] = b0; \
        y[r + 1] = b1; \
        y[r + 2] = b2; \
        y[r + 3] = b3; \
      } \
      for (; r < outer; r++) { \
        const T *p0 = x + r * n; \
        T b0 = init; \
        for (int64_t i = 0; i < n; i++) b0 = GT(p0[i], b0) ? p0[i] : b0; \
        y[r] = b0; \
      } \
      return; \
    } \
    for (int64_t a = 0; a < outer; a++) { \
      T *o = y + a * inner; \
      const T *p = x + a * n * inner; \
      for (int64_t j = 0; j < inner; j++) o[j] = init; \
      for (int64_t i = 0; i < n; i++) { \
        const T *q = p + i * inner; \
        for (int64_t j = 0; j < inner; j++) o[j] = GT(q[j], o[j]) ? q[j] : o[j]; \
      } \
    } \
  }

#define RED_TYPE(SUF, T) \
  RED_FN(rmax_##SUF, T, GT_MAX) \
  RED_FN(rmin_##SUF, T, GT_MIN)
RED_TYPE(f32, float)
RED_TYPE(u8, uint8_t)
RED_TYPE(i8, int8_t)
RED_TYPE(i16, int16_t)
RED_TYPE(i32, int32_t)
RED_TYPE(i64, int64_t)

#define RED_CALL(SUF, T, LO, HI) \
  do { \
    if (is_max) \
      rmax_##SUF((const T *)in, outer, n, inner, (T)(LO), seeded, (T *)out); \
    else \
      rmin_##SUF((const T *)in, outer, n, inner, (T)(HI), seeded, (T *)out); \
  } while (0)

/* [outer, n, inner] of a reduction whose reduced axes are adjacent (size-1 axes anywhere);
 * false when they are not, or nothing to reduce, or a dtype without a fast loop. */
static bool red_split(const struct tfcc_reduce_shape *s, tfcc_dtype dt, int64_t *outer_out,
                      int64_t *n_out, int64_t *inner_out, bool *all_out) {
  if (s->in_count <= 0 || s->rank > TFCC_REDUCE_MAX_RANK) return false;
  if (dt != TFCC_FLOAT32 && dt != TFCC_UINT8 && dt != TFCC_INT8 && dt != TFCC_INT16 &&
      dt != TFCC_INT32 && dt != TFCC_INT64)
    return false;
  int64_t outer = 1, n = 1, inner = 1;
  int stage = 0; /* 0: before the reduced block, 1: in it, 2: after it */
  bool all = true;
  for (int32_t d = 0; d < s->rank; d++) {
    all = all && s->reduced[d];
    if (s->dims[d] == 1) continue;
    if (s->reduced[d]) {
      if (stage == 2) return false;
      stage = 1;
      n *= s->dims[d];
    } else if (stage == 0) {
      outer *= s->dims[d];
    } else {
      stage = 2;
      inner *= s->dims[d];
    }
  }
  *outer_out = outer;
  *n_out = n;
  *inner_out = inner;
  *all_out = all;
  return true;
}

bool tfcc_reduce_max_min_fast_ok(const struct tfcc_reduce_shape *s, tfcc_dtype dt) {
  int64_t outer, n, inner;
  bool all;
  return red_split(s, dt, &outer, &n, &inner, &all);
}

bool tfcc_reduce_max_min_fast(const struct tfcc_reduce_shape *s, bool is_max, tfcc_dtype dt,
                              const void *in, void *out) {
  int64_t outer, n, inner;
  bool all;
  if (!red_split(s, dt, &outer, &n, &inner, &all)) return false;
  const bool seeded = all; /* the reference's ReduceAllDims seed */
  switch (dt) {
    case TFCC_FLOAT32: RED_CALL(f32, float, -FLT_MAX, FLT_MAX); return true;
    case TFCC_UINT8: RED_CALL(u8, uint8_t, 0, UINT8_MAX); return true;
    case TFCC_INT8: RED_CALL(i8, int8_t, INT8_MIN, INT8_MAX); return true;
    case TFCC_INT16: RED_CALL(i16, int16_t, INT16_MIN, INT16_MAX); return true;
    case TFCC_INT32: RED_CALL(i32, int32_t, INT32_MIN, INT32_MAX); return true;
    case TFCC_INT64: RED_CALL(i64, int64_t, INT64_MIN, INT64_MAX); return true;
    default: return false;
  }
}
