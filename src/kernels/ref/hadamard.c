#include "kernels/ref/hadamard.h"

#include <math.h>

bool tfcc_hadamard_size_ok(int32_t n) { return n >= 1 && (n & (n - 1)) == 0; }

static void fwht(float *d, int32_t n, float norm) {
  for (int32_t h = 1; h < n; h *= 2)
    for (int32_t i = 0; i < n; i += 2 * h)
      for (int32_t j = i; j < i + h; j++) {
        const float x = d[j], y = d[j + h];
        d[j] = x + y;
        d[j + h] = x - y;
      }
  for (int32_t k = 0; k < n; k++) d[k] *= norm;
}

void tfcc_hadamard_f32(float *data, int64_t runs, int32_t n) {
  const float norm = 1.0f / sqrtf((float)n);
  for (int64_t r = 0; r < runs; r++) fwht(data + r * n, n, norm);
}
