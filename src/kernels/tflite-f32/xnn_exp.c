#include "kernels/tflite-f32/xnn_exp.h"

#include <stdint.h>
#include <string.h>

/* Each product and sum is its own statement: no compiler contracts them into an FMA. */
float tfcc_xnn_exp_f32_one(float x) {
  float zp = x * 1.44269504089f;
  if (zp != zp) { /* WebAssembly's f32x4.max / min give the canonical NaN: -NaN on LiteRT.js */
    const uint32_t nan_bits = 0xffc00000u;
    memcpy(&zp, &nan_bits, sizeof zp);
    return zp;
  }
  zp = zp < -127.0f ? -127.0f : zp; /* max(z', -127), min(z', 128) */
  zp = zp > 128.0f ? 128.0f : zp;
  float z = zp + 12582912.0f; /* 2^23 + 2^22 */
  z = z - 12582912.0f;
  const float r = zp - z;
  const float biased = z + 8388735.0f; /* 2^23 + 127 */
  uint32_t bits;
  memcpy(&bits, &biased, sizeof bits);
  bits <<= 23;
  float two_z;
  memcpy(&two_z, &bits, sizeof two_z);
  float p = r * 5.5380910635e-03f;
  p = p + 7.2068706155e-02f;
  p = r * p;
  p = p + 4.1594290733e-01f;
  p = r * p;
  p = p + 1.0f;
  float q = r * 2.3986088112e-02f;
  q = q + -2.7720427513e-01f;
  q = r * q;
  q = q + 1.0f;
  const float two_r = p / q;
  return two_z * two_r;
}

void tfcc_xnn_exp_f32(const float *x, float *y, size_t n) {
  for (size_t i = 0; i < n; i++) y[i] = tfcc_xnn_exp_f32_one(x[i]);
}
