/* q8 table lookup, AVX-512BW: 64 bytes per step. Rows R_k = table[16k .. 16k+15]; within each
 * half (k < 8, k >= 8) the shuffled rows are telescoped, T_0 = R_0, T_k = R_k ^ R_{k-1}, and
 * looked up with index x - 16k: PSHUFB yields T_k[x & 15] while that index is in [0, 127] (k
 * <= x / 16) and 0 once it wraps negative, so the XOR of the eight lookups is R_{x/16}[x & 15].
 * The upper half runs on x ^ 0x80; the top bit of x picks the half. */
#include <immintrin.h>

#include "kernels/q8-lut/lut.h"

typedef struct rows {
  __m512i t[16];
} rows;

static void make_rows(const uint8_t table[256], rows *r) {
  for (int h = 0; h < 2; h++)
    for (int k = 0; k < 8; k++) {
      const uint8_t *row = table + 16 * (8 * h + k);
      __m128i v = _mm_loadu_si128((const __m128i *)row);
      if (k > 0) v = _mm_xor_si128(v, _mm_loadu_si128((const __m128i *)(row - 16)));
      r->t[8 * h + k] = _mm512_broadcast_i32x4(v);
    }
}

static inline __m512i half(const rows *r, int h, __m512i x) {
  const __m512i sixteen = _mm512_set1_epi8(16);
  __m512i y = _mm512_shuffle_epi8(r->t[8 * h], x);
  for (int k = 1; k < 8; k++) {
    x = _mm512_sub_epi8(x, sixteen);
    y = _mm512_xor_si512(y, _mm512_shuffle_epi8(r->t[8 * h + k], x));
  }
  return y;
}

static inline __m512i lookup(const rows *r, __m512i x) {
  const __m512i lo = half(r, 0, x);
  const __m512i hi = half(r, 1, _mm512_xor_si512(x, _mm512_set1_epi8((char)0x80)));
  return _mm512_mask_blend_epi8(_mm512_movepi8_mask(x), lo, hi);
}

TFCC_Q8_LUT_DECL(tfcc_q8_lut_avx512) {
  rows r;
  make_rows(table, &r);
  size_t i = 0;
  for (; i + 64 <= n; i += 64)
    _mm512_storeu_si512((void *)(out + i), lookup(&r, _mm512_loadu_si512((const void *)(in + i))));
  if (i < n) {
    const __mmask64 m = (__mmask64)((~0ull) >> (64 - (n - i)));
    _mm512_mask_storeu_epi8(out + i, m, lookup(&r, _mm512_maskz_loadu_epi8(m, in + i)));
  }
}
