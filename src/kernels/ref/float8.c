/* float8 <-> float32, bit by bit (no float arithmetic, so no dependence on the rounding mode). */
#include "kernels/ref/float8.h"

#include <string.h>

float tfcc_f8_to_f32(uint8_t b, bool e5m2) {
  const unsigned mbits = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
  const unsigned exp = (b & 0x7Fu) >> mbits, man = b & ((1u << mbits) - 1);
  const uint32_t sign = (uint32_t)(b & 0x80u) << 24;
  uint32_t bits;
  if (e5m2 && exp == 31) {
    bits = sign | (man ? 0x7FC00000u : 0x7F800000u); /* the quiet NaN, as ml_dtypes converts */
  } else if (!e5m2 && (b & 0x7Fu) == 0x7Fu) {
    bits = sign | 0x7FC00000u;
  } else if (exp == 0) {
    if (man == 0) {
      bits = sign;
    } else { /* subnormal: man * 2^(1 - bias - mbits), normalised */
      int e = 1 - (int)bias;
      unsigned m = man;
      while (!(m & (1u << mbits))) m <<= 1, e--;
      bits = sign | (uint32_t)(e + 127) << 23 | (uint32_t)(m & ((1u << mbits) - 1)) << (23 - mbits);
    }
  } else {
    bits = sign | (uint32_t)((int)exp - (int)bias + 127) << 23 | (uint32_t)man << (23 - mbits);
  }
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

uint8_t tfcc_f32_to_f8(float f, bool e5m2) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  const uint8_t sign = (uint8_t)(bits >> 24 & 0x80u);
  const uint32_t abs = bits & 0x7FFFFFFFu;
  const unsigned mbits = e5m2 ? 2 : 3;
  const int bias = e5m2 ? 15 : 7;
  const uint8_t inf = e5m2 ? 0x7C : 0x7F, nan = e5m2 ? 0x7E : 0x7F, max_finite = e5m2 ? 0x7B : 0x7E;
  if (abs > 0x7F800000u) return sign | nan;
  if (abs == 0x7F800000u) return sign | inf;
  if (abs == 0) return sign;
  /* normalised mantissa with the implicit bit at bit 23, and the unbiased exponent */
  int e;
  uint32_t m;
  if (abs >> 23) {
    e = (int)(abs >> 23) - 127;
    m = (abs & 0x7FFFFFu) | 0x800000u;
  } else { /* float32 subnormal: far below float8's range, rounds to zero below */
    e = -126;
    m = abs;
    while (!(m & 0x800000u)) m <<= 1, e--;
  }
  /* target biased exponent minus one; below zero the value is subnormal in float8 */
  const int base = e + bias - 1;
  int shift = (int)(23 - mbits) + (base < 0 ? -base : 0);
  if (shift > 25) shift = 25; /* everything shifted out: rounds to zero */
  /* round to nearest even at bit `shift` (RoundBitsToNearestEven) */
  const uint64_t mm = (uint64_t)m + ((m >> shift) & 1u) + (((uint64_t)1 << (shift - 1)) - 1);
  const uint32_t aligned = (uint32_t)(mm >> shift);
  const uint32_t result = aligned + ((uint32_t)(base > 0 ? base : 0) << mbits);
  if (base >= (e5m2 ? 31 : 16) || result > max_finite) return sign | inf;
  return sign | (uint8_t)result;
}
