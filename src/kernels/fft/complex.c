/* REAL / IMAG / COMPLEX_ABS; contract in complex.h. */
#include "kernels/fft/complex.h"

#include <float.h>
#include <math.h>

void tfcc_complex_real(const float *in, float *out, size_t n) {
  for (size_t i = 0; i < n; i++) out[i] = in[2 * i];
}

void tfcc_complex_imag(const float *in, float *out, size_t n) {
  for (size_t i = 0; i < n; i++) out[i] = in[2 * i + 1];
}

/* |re + i im| as the reference TFLite build computes it (std::abs -> hypotf of a musl libc,
 * the WebAssembly oracle's): the sum of squares in double, rounded to float, then sqrtf.
 * Where that sum overflows or is subnormal in float, libm's hypotf (scaled) instead. */
static float abs_one(float re, float im) {
  const float s = (float)((double)re * re + (double)im * im);
  if (s >= FLT_MIN && s <= FLT_MAX) return sqrtf(s);
  return hypotf(re, im);
}

void tfcc_complex_abs(const float *in, float *out, size_t n) {
  for (size_t i = 0; i < n; i++) out[i] = abs_one(in[2 * i], in[2 * i + 1]);
}
