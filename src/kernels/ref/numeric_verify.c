#include "kernels/ref/numeric_verify.h"

#include <math.h>

size_t tfcc_numeric_verify_diff(float *diff, const float *ref, size_t n, bool check,
                                float max_diff) {
  for (size_t i = 0; i < n; i++) {
    const float d = diff[i] - ref[i];
    if (check && fabsf(d) > max_diff) return i;
    diff[i] = d;
  }
  return n;
}
