/* XNNPACK's float32 log (f32-vlog rational-3-3-div); the contract is in xnn_log.h. */
#include "kernels/ref/xnn_log.h"

#include <stdint.h>
#include <string.h>

static inline uint32_t f2u(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static inline float u2f(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* The exponent of t as a float: t's sign and exponent bits shifted right by 8 with the sign
 * repeated, OR-ed into 256.0f's bits, less 383 (256 + the bias 127). A zero t is given the
 * sign bit first, so its exponent comes out -inf; a negative t gives NaN. */
static inline float signed_exponent(float t) {
  uint32_t b = f2u(t);
  if (t == 0.0f) b |= 0x80000000u;
  const uint32_t se = b & 0xff800000u;
  /* arithmetic shift by 8 written out: the sign bit fills the top 8 bits */
  const uint32_t sh = (se >> 8) | ((se & 0x80000000u) ? 0xff000000u : 0u);
  return u2f(f2u(256.0f) | sh) - 383.0f;
}

void tfcc_xnn_log_f32(const float *x, float *y, size_t n) {
  const float sqrt2 = 1.4142134190e+00f, sqrt1_2 = 7.0710688829e-01f;
  const float ln2 = 0.69314718055994531f;
  const float a3 = 1.824996918440e-01f;
  const float b1 = 1.5f, b2 = 0.599170029163f, b3 = 0.049584995955f;
  for (size_t i = 0; i < n; i++) {
    const float t = x[i] * sqrt2;
    const float e = signed_exponent(t);
    const float mant = u2f((f2u(t) & 0x007fffffu) | f2u(1.0f));
    float m = mant * sqrt1_2;
    m = m - 1.0f;
    /* one rounding per product and per sum, as WebAssembly SIMD without fused multiply-add */
    float p = m * a3;
    p = p + 1.0f;
    p = m * p;
    p = p + 1.0f;
    p = m * p;
    float q = m * b3;
    q = q + b2;
    q = m * q;
    q = q + b1;
    q = m * q;
    q = q + 1.0f;
    const float r = p / q;
    float l = e * ln2;
    l = l + r;
    y[i] = l;
  }
}
