/* Segment reductions (see segment.h). */
#include "kernels/ref/segment.h"

#include <float.h>

static float f32_apply(tfcc_segment_op op, float a, float b) {
  switch (op) {
    case TFCC_SEGMENT_SUM: return a + b;
    case TFCC_SEGMENT_PROD: return a * b;
    case TFCC_SEGMENT_MAX: return a < b ? b : a; /* std::max(a, b) */
    default: return b < a ? b : a;               /* std::min(a, b) */
  }
}

static int32_t i32_apply(tfcc_segment_op op, int32_t a, int32_t b) {
  switch (op) {
    case TFCC_SEGMENT_SUM: return (int32_t)((uint32_t)a + (uint32_t)b);
    case TFCC_SEGMENT_PROD: return (int32_t)((uint32_t)a * (uint32_t)b);
    case TFCC_SEGMENT_MAX: return a < b ? b : a;
    default: return b < a ? b : a;
  }
}

/* out starts at op's identity (the lowest / highest value for MAX / MIN), then each row i of
 * in with ids[i] >= 0 is combined into row ids[i] by APPLY. */
#define SEGMENT_REDUCE(T, LOWEST, HIGHEST, APPLY) \
  { \
    const T init = op == TFCC_SEGMENT_SUM    ? (T)0 \
                   : op == TFCC_SEGMENT_PROD ? (T)1 \
                   : op == TFCC_SEGMENT_MAX  ? LOWEST \
                                             : HIGHEST; \
    const T *x = in; \
    T *y = out; \
    for (int64_t i = 0; i < n_out; i++) y[i] = init; \
    for (int64_t i = 0; i < n_ids; i++) { \
      if (ids[i] < 0) continue; \
      T *row = y + ids[i] * inner; \
      for (int64_t j = 0; j < inner; j++) row[j] = APPLY(op, row[j], x[i * inner + j]); \
    } \
  }

void tfcc_ref_segment_reduce(tfcc_segment_op op, tfcc_dtype dtype, const void *in,
                             const int32_t *ids, int64_t n_ids, int64_t inner, int64_t num_segments,
                             void *out) {
  const int64_t n_out = num_segments * inner;
  if (dtype == TFCC_FLOAT32)
    SEGMENT_REDUCE(float, -FLT_MAX, FLT_MAX, f32_apply)
  else
    SEGMENT_REDUCE(int32_t, INT32_MIN, INT32_MAX, i32_apply)
}
