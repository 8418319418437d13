/* LSH_PROJECTION and farmhash's 64-bit fingerprint: see lsh.h. The fingerprint is written
 * from farmhash's published algorithm (the "na" variant: lengths 0-16, 17-32, 33-64, then
 * 64-byte blocks), little-endian loads. */
#include "kernels/ref/lsh.h"

#include <string.h>

static const uint64_t k0 = 0xc3a5c85c97cb3127ULL;
static const uint64_t k1 = 0xb492b66fbe98f273ULL;
static const uint64_t k2 = 0x9ae16a3b2f90404fULL;

static uint64_t ld64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

static uint64_t ld32(const uint8_t *p) {
  return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24;
}

static uint64_t rot(uint64_t v, int s) { return s == 0 ? v : (v >> s) | (v << (64 - s)); }
static uint64_t shift_mix(uint64_t v) { return v ^ (v >> 47); }

static uint64_t len16(uint64_t u, uint64_t v, uint64_t mul) {
  uint64_t a = (u ^ v) * mul;
  a ^= a >> 47;
  uint64_t b = (v ^ a) * mul;
  b ^= b >> 47;
  return b * mul;
}

static uint64_t len0to16(const uint8_t *s, size_t len) {
  if (len >= 8) {
    const uint64_t mul = k2 + len * 2;
    const uint64_t a = ld64(s) + k2, b = ld64(s + len - 8);
    const uint64_t c = rot(b, 37) * mul + a, d = (rot(a, 25) + b) * mul;
    return len16(c, d, mul);
  }
  if (len >= 4) {
    const uint64_t mul = k2 + len * 2;
    const uint64_t a = ld32(s);
    return len16(len + (a << 3), ld32(s + len - 4), mul);
  }
  if (len > 0) {
    const uint32_t a = s[0], b = s[len >> 1], c = s[len - 1];
    const uint32_t y = a + (b << 8), z = (uint32_t)len + (c << 2);
    return shift_mix((uint64_t)y * k2 ^ (uint64_t)z * k0) * k2;
  }
  return k2;
}

static uint64_t len17to32(const uint8_t *s, size_t len) {
  const uint64_t mul = k2 + len * 2;
  const uint64_t a = ld64(s) * k1, b = ld64(s + 8);
  const uint64_t c = ld64(s + len - 8) * mul, d = ld64(s + len - 16) * k2;
  return len16(rot(a + b, 43) + rot(c, 30) + d, a + rot(b + k2, 18) + c, mul);
}

static uint64_t len33to64(const uint8_t *s, size_t len) {
  const uint64_t mul = k2 + len * 2;
  const uint64_t a = ld64(s) * k2, b = ld64(s + 8);
  const uint64_t c = ld64(s + len - 8) * mul, d = ld64(s + len - 16) * k2;
  const uint64_t y = rot(a + b, 43) + rot(c, 30) + d;
  const uint64_t z = len16(y, a + rot(b + k2, 18) + c, mul);
  const uint64_t e = ld64(s + 16) * mul, f = ld64(s + 24);
  const uint64_t g = (y + ld64(s + len - 32)) * mul, h = (z + ld64(s + len - 24)) * mul;
  return len16(rot(e + f, 43) + rot(g, 30) + h, e + rot(f + a, 18) + g, mul);
}

typedef struct u128 {
  uint64_t first, second;
} u128;

static u128 weak32(const uint8_t *s, uint64_t a, uint64_t b) {
  const uint64_t w = ld64(s), x = ld64(s + 8), y = ld64(s + 16), z = ld64(s + 24);
  a += w;
  b = rot(b + a + z, 21);
  const uint64_t c = a;
  a += x;
  a += y;
  b += rot(a, 44);
  u128 r = {a + z, b + c};
  return r;
}

/* One 64-byte round of the long-input hash (the last one with mul and extra factor 9, the
 * others with k1 and 1). */
static void round64(const uint8_t *s, uint64_t mul, uint64_t f, uint64_t *x, uint64_t *y,
                    uint64_t *z, u128 *v, u128 *w) {
  *x = rot(*x + *y + v->first + ld64(s + 8), 37) * mul;
  *y = rot(*y + v->second + ld64(s + 48), 42) * mul;
  *x ^= w->second * f;
  *y += v->first * f + ld64(s + 40);
  *z = rot(*z + w->first, 33) * mul;
  *v = weak32(s, v->second * mul, *x + w->first);
  *w = weak32(s + 32, *z + w->second, *y + ld64(s + 16));
  const uint64_t t = *z;
  *z = *x;
  *x = t;
}

uint64_t tfcc_fingerprint64(const uint8_t *s, size_t len) {
  if (len <= 16) return len0to16(s, len);
  if (len <= 32) return len17to32(s, len);
  if (len <= 64) return len33to64(s, len);
  const uint64_t seed = 81;
  uint64_t x = seed, y = seed * k1 + 113, z = shift_mix(y * k2 + 113) * k2;
  u128 v = {0, 0}, w = {0, 0};
  x = x * k2 + ld64(s);
  const uint8_t *end = s + ((len - 1) / 64) * 64;
  const uint8_t *last64 = end + ((len - 1) & 63) - 63;
  do {
    round64(s, k1, 1, &x, &y, &z, &v, &w);
    s += 64;
  } while (s != end);
  const uint64_t mul = k1 + ((z & 0xff) << 1);
  s = last64;
  w.first += (len - 1) & 63;
  v.first += w.first;
  w.first += v.first;
  round64(s, mul, 9, &x, &y, &z, &v, &w);
  return len16(len16(v.first, w.first, mul) + shift_mix(y) * k0 + z,
               len16(v.second, w.second, mul) + x, mul);
}

static int sign_bit(const tfcc_lsh_args *a, float seed, uint8_t *key) {
  double score = 0.0;
  memcpy(key, &seed, sizeof seed);
  for (int32_t i = 0; i < a->items; i++) {
    if (a->item_bytes)
      memcpy(key + sizeof seed, a->input + (size_t)i * a->item_bytes, a->item_bytes);
    const double v = (double)(int64_t)tfcc_fingerprint64(key, sizeof seed + a->item_bytes);
    score += a->weights ? (double)a->weights[i] * v : v;
  }
  return score > 0 ? 1 : 0;
}

void tfcc_ref_lsh_projection(const tfcc_lsh_args *a, uint8_t *key, int32_t *out) {
  if (!a->sparse && a->num_bits == 0) return; /* an empty output: 2^31 hashes of no bits */
  for (int32_t h = 0; h < a->num_hash; h++) {
    uint32_t sig = 0;
    for (int32_t b = 0; b < a->num_bits; b++) {
      const int bit = sign_bit(a, a->seeds[(int64_t)h * a->num_bits + b], key);
      if (a->sparse)
        sig = (sig << 1) | (uint32_t)bit;
      else
        *out++ = bit;
    }
    if (a->sparse) {
      /* h * (1 << num_bits) in int32: the shift count masked to 5 bits as the hardware
       * (x86, WebAssembly) does for TFLite's `1 << num_bits` at num_bits 32 */
      const uint32_t offset = (uint32_t)h * (1u << (a->num_bits & 31));
      *out++ = (int32_t)(sig + offset);
    }
  }
}
