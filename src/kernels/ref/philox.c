/* Philox4x32-10 and TFLite's random distributions (see philox.h). */
#include "kernels/ref/philox.h"

#include <math.h>
#include <string.h>

enum {
  PHILOX_W0 = 0x9E3779B9u, /* key increments */
  PHILOX_W1 = 0xBB67AE85u,
  PHILOX_M0 = 0xD2511F53u, /* round multipliers */
  PHILOX_M1 = 0xCD9E8D57u
};

void tfcc_philox_init(tfcc_philox *p, uint64_t seed, uint64_t seed2) {
  p->key[0] = (uint32_t)seed;
  p->key[1] = (uint32_t)(seed >> 32);
  p->counter[0] = 0;
  p->counter[1] = 0;
  p->counter[2] = (uint32_t)seed2;
  p->counter[3] = (uint32_t)(seed2 >> 32);
}

void tfcc_philox_next(tfcc_philox *p, uint32_t out[4]) {
  uint32_t c[4] = {p->counter[0], p->counter[1], p->counter[2], p->counter[3]};
  uint32_t k0 = p->key[0], k1 = p->key[1];
  for (int round = 0; round < 10; round++) {
    const uint64_t a = (uint64_t)PHILOX_M0 * c[0], b = (uint64_t)PHILOX_M1 * c[2];
    const uint32_t n0 = (uint32_t)(b >> 32) ^ c[1] ^ k0, n1 = (uint32_t)b;
    const uint32_t n2 = (uint32_t)(a >> 32) ^ c[3] ^ k1, n3 = (uint32_t)a;
    c[0] = n0, c[1] = n1, c[2] = n2, c[3] = n3;
    k0 += PHILOX_W0;
    k1 += PHILOX_W1;
  }
  memcpy(out, c, sizeof c);
  if (++p->counter[0] == 0 && ++p->counter[1] == 0 && ++p->counter[2] == 0) ++p->counter[3];
}

void tfcc_philox_skip(tfcc_philox *p, uint64_t n) {
  const uint32_t lo = (uint32_t)n;
  uint32_t hi = (uint32_t)(n >> 32);
  p->counter[0] += lo;
  if (p->counter[0] < lo) ++hi;
  p->counter[1] += hi;
  if (p->counter[1] < hi && ++p->counter[2] == 0) ++p->counter[3];
}

/* [1, 2) from 23 mantissa bits, minus 1 (Uint32ToFloat) */
static float u32_to_float(uint32_t x) {
  const uint32_t bits = (127u << 23) | (x & 0x7fffffu);
  float f;
  memcpy(&f, &bits, sizeof f);
  return f - 1.0f;
}

/* [1, 2) from 52 mantissa bits (20 of x0, 32 of x1), minus 1 (Uint64ToDouble) */
static double u64_to_double(uint32_t x0, uint32_t x1) {
  const uint64_t bits = ((uint64_t)1023 << 52) | ((uint64_t)(x0 & 0xfffffu) << 32) | x1;
  double d;
  memcpy(&d, &bits, sizeof d);
  return d - 1.0;
}

void tfcc_ref_random_uniform_f32(tfcc_philox *p, float *out, int64_t n) {
  for (int64_t i = 0; i < n; i += 4) {
    uint32_t w[4];
    tfcc_philox_next(p, w);
    for (int64_t j = 0; j < 4 && i + j < n; j++) out[i + j] = u32_to_float(w[j]);
  }
}

void tfcc_ref_random_normal_f32(tfcc_philox *p, float *out, int64_t n) {
  const double two_pi = 6.283185307179586476925286766559;
  for (int64_t i = 0; i < n; i += 4) {
    uint32_t w[4];
    tfcc_philox_next(p, w);
    for (int64_t j = 0; j < 4 && i + j < n; j += 2) {
      float u1 = u32_to_float(w[j]);
      if (u1 < 1.0e-7f) u1 = 1.0e-7f;
      const float v1 = (float)(two_pi * u32_to_float(w[j + 1])); /* 2.0f * M_PI * u, in double */
      const float u2 = sqrtf(-2.0f * logf(u1));
      out[i + j] = sinf(v1) * u2;
      if (i + j + 1 < n) out[i + j + 1] = cosf(v1) * u2;
    }
  }
}

void tfcc_ref_multinomial(tfcc_philox *p, const float *logits, int64_t batch, int64_t classes,
                          int64_t samples, void *out, int idx_size, double *cdf) {
  tfcc_philox draw = *p;
  tfcc_philox_skip(p, (uint64_t)batch * (uint64_t)((samples + 3) / 4 * 4) * 2u * 256u);
  uint32_t w[4];
  int used = 4;
  for (int64_t b = 0; b < batch; b++) {
    const float *row = logits + b * classes;
    float max = -3.402823466e+38f;
    for (int64_t i = 0; i < classes; i++)
      if (isfinite(row[i]) && row[i] > max) max = row[i];
    double total = 0.0;
    for (int64_t i = 0; i < classes; i++) {
      if (isfinite(row[i])) total += exp((double)row[i] - (double)max);
      cdf[i] = total;
    }
    for (int64_t j = 0; j < samples; j++) {
      if (used == 4) {
        tfcc_philox_next(&draw, w);
        used = 0;
      }
      const double target = u64_to_double(w[used], w[used + 1]) * total;
      used += 2;
      int64_t lo = 0, hi = classes; /* first cdf entry > target (std::upper_bound) */
      while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (target < cdf[mid])
          hi = mid;
        else
          lo = mid + 1;
      }
      if (idx_size == 8)
        ((int64_t *)out)[b * samples + j] = lo;
      else
        ((int32_t *)out)[b * samples + j] = (int32_t)lo;
    }
  }
}
