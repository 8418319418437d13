/* q8 table lookup, AVX2: 32 bytes per step, the same telescoped PSHUFB rows as the AVX-512
 * variant (see there); tails through a 32-byte buffer. */
#include <immintrin.h>
#include <string.h>

#include "kernels/q8-lut/lut.h"

typedef struct rows {
  __m256i t[16];
} rows;

static void make_rows(const uint8_t table[256], rows *r) {
  for (int h = 0; h < 2; h++)
    for (int k = 0; k < 8; k++) {
      const uint8_t *row = table + 16 * (8 * h + k);
      __m128i v = _mm_loadu_si128((const __m128i *)row);
      if (k > 0) v = _mm_xor_si128(v, _mm_loadu_si128((const __m128i *)(row - 16)));
      r->t[8 * h + k] = _mm256_broadcastsi128_si256(v);
    }
}

static inline __m256i half(const rows *r, int h, __m256i x) {
  const __m256i sixteen = _mm256_set1_epi8(16);
  __m256i y = _mm256_shuffle_epi8(r->t[8 * h], x);
  for (int k = 1; k < 8; k++) {
    x = _mm256_sub_epi8(x, sixteen);
    y = _mm256_xor_si256(y, _mm256_shuffle_epi8(r->t[8 * h + k], x));
  }
  return y;
}

static inline __m256i lookup(const rows *r, __m256i x) {
  const __m256i lo = half(r, 0, x);
  const __m256i hi = half(r, 1, _mm256_xor_si256(x, _mm256_set1_epi8((char)0x80)));
  return _mm256_blendv_epi8(lo, hi, x); /* top bit of each byte of x */
}

TFCC_Q8_LUT_DECL(tfcc_q8_lut_avx2) {
  rows r;
  make_rows(table, &r);
  size_t i = 0;
  for (; i + 32 <= n; i += 32)
    _mm256_storeu_si256((__m256i *)(out + i), lookup(&r, _mm256_loadu_si256((const __m256i *)(in + i))));
  if (i < n) {
    uint8_t buf[32] = {0};
    memcpy(buf, in + i, n - i);
    _mm256_storeu_si256((__m256i *)buf, lookup(&r, _mm256_loadu_si256((const __m256i *)buf)));
    memcpy(out + i, buf, n - i);
  }
}
