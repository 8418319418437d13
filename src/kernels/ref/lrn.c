/* LOCAL_RESPONSE_NORMALIZATION (see lrn.h). */
#include "kernels/ref/lrn.h"

#include <math.h>

void tfcc_ref_lrn_f32(const float *in, int64_t rows, int64_t depth, int32_t radius, float bias,
                      float alpha, float beta, float *out) {
  for (int64_t r = 0; r < rows; r++) {
    const float *x = in + r * depth;
    float *y = out + r * depth;
    for (int64_t c = 0; c < depth; c++) {
      const int64_t lo = c - radius < 0 ? 0 : c - radius;
      const int64_t hi = c + radius + 1 > depth ? depth : c + radius + 1;
      float acc = 0.f;
      for (int64_t j = lo; j < hi; j++) acc += x[j] * x[j];
      y[c] = x[c] * powf(bias + alpha * acc, -beta);
    }
  }
}
