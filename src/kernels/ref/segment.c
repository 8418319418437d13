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

void tfcc_ref_segment_reduce(tfcc_segment_op op, tfcc_dtype dtype, const void *in,
                             const int32_t *ids, int64_t n_ids, int64_t inner, int64_t num_segments,
                             void *out) {
  const int64_t n_out = num_segments * inner;
  if (dtype == TFCC_FLOAT32) {
    const float init = op == TFCC_SEGMENT_SUM    ? 0.f
                       : op == TFCC_SEGMENT_PROD ? 1.f
                       : op == TFCC_SEGMENT_MAX  ? -FLT_MAX
                                                 : FLT_MAX;
    const float *x = in;
    float *y = out;
    for (int64_t i = 0; i < n_out; i++) y[i] = init;
    for (int64_t i = 0; i < n_ids; i++) {
      if (ids[i] < 0) continue;
      float *row = y + ids[i] * inner;
      for (int64_t j = 0; j < inner; j++) row[j] = f32_apply(op, row[j], x[i * inner + j]);
    }
  } else {
    const int32_t init = op == TFCC_SEGMENT_SUM    ? 0
                         : op == TFCC_SEGMENT_PROD ? 1
                         : op == TFCC_SEGMENT_MAX  ? INT32_MIN
                                                   : INT32_MAX;
    const int32_t *x = in;
    int32_t *y = out;
    for (int64_t i = 0; i < n_out; i++) y[i] = init;
    for (int64_t i = 0; i < n_ids; i++) {
      if (ids[i] < 0) continue;
      int32_t *row = y + ids[i] * inner;
      for (int64_t j = 0; j < inner; j++) row[j] = i32_apply(op, row[j], x[i * inner + j]);
    }
  }
}
