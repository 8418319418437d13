/* q8 GEMM micro-kernel, AVX2: 4 rows x 8 columns without vpdpbusd and without int16
 * saturation: per group of 4 depth bytes the panel's 32 weight bytes are widened to int16
 * (two ymm, four columns each), the row's 4 bytes widened and broadcast, and vpmaddwd sums
 * pairs exactly into int32 (|a * w| <= 255 * 255, two of them < 2^31). Each column keeps two
 * partial sums, folded by vphaddd in the epilogue. Requantization as tfcc_requant_fp32. */
#include <immintrin.h>
#include <string.h>

#include "kernels/q8-gemm/ukernels.h"
#include "kernels/simd/q8_requant_avx2.h"

#define NR 8

static inline __m256i row4(const uint8_t *p, size_t n, bool is_signed) {
  uint32_t v = 0;
  if (n >= 4)
    memcpy(&v, p, 4);
  else
    for (size_t i = 0; i < n; i++) v |= (uint32_t)p[i] << (8 * i);
  const __m128i b = _mm_cvtsi32_si128((int)v);
  const __m128i h = is_signed ? _mm_cvtepi8_epi16(b) : _mm_cvtepu8_epi16(b);
  return _mm256_broadcastq_epi64(h);
}

static inline void store_row(size_t i, size_t nc, __m256i a, __m256i b, __m256i bias,
                             const int32_t *row_add, const float *scale, const tfcc_q8_out *o) {
  __m256i v = _mm256_permute4x64_epi64(_mm256_hadd_epi32(a, b), 0xD8);
  v = _mm256_add_epi32(_mm256_add_epi32(v, bias), _mm256_set1_epi32(row_add[i]));
  if (o->c32) {
    _mm256_storeu_si256((__m256i *)(void *)(o->c32 + i * NR), v);
    return;
  }
  tfcc_q8_requant8_avx2(o->c + i * o->c_stride, v, scale, o->lo, o->hi, o->zp, nc);
}

static inline void tile(size_t mr, size_t nc, size_t kc, const void *const *a, const void *w,
                        const int32_t *row_add, const tfcc_q8_out *o, bool is_signed) {
  const uint8_t *a0 = a[0], *a1 = a[1], *a2 = a[2], *a3 = a[3];
  const uint8_t *pw = (const uint8_t *)w + NR * 8;
  const float *scale = (const float *)(const void *)((const uint8_t *)w + NR * 4);
  __m256i c0a = _mm256_setzero_si256(), c0b = c0a, c1a = c0a, c1b = c0a;
  __m256i c2a = c0a, c2b = c0a, c3a = c0a, c3b = c0a;
  for (size_t k = 0; k < kc; k += 4, pw += 32) {
    const size_t n = kc - k;
    const __m256i wb = _mm256_loadu_si256((const __m256i *)(const void *)pw);
    const __m128i wl = _mm256_castsi256_si128(wb), wh = _mm256_extracti128_si256(wb, 1);
    const __m256i w0 = is_signed ? _mm256_cvtepu8_epi16(wl) : _mm256_cvtepi8_epi16(wl);
    const __m256i w1 = is_signed ? _mm256_cvtepu8_epi16(wh) : _mm256_cvtepi8_epi16(wh);
    __m256i x = row4(a0 + k, n, is_signed);
    c0a = _mm256_add_epi32(c0a, _mm256_madd_epi16(x, w0));
    c0b = _mm256_add_epi32(c0b, _mm256_madd_epi16(x, w1));
    x = row4(a1 + k, n, is_signed);
    c1a = _mm256_add_epi32(c1a, _mm256_madd_epi16(x, w0));
    c1b = _mm256_add_epi32(c1b, _mm256_madd_epi16(x, w1));
    x = row4(a2 + k, n, is_signed);
    c2a = _mm256_add_epi32(c2a, _mm256_madd_epi16(x, w0));
    c2b = _mm256_add_epi32(c2b, _mm256_madd_epi16(x, w1));
    x = row4(a3 + k, n, is_signed);
    c3a = _mm256_add_epi32(c3a, _mm256_madd_epi16(x, w0));
    c3b = _mm256_add_epi32(c3b, _mm256_madd_epi16(x, w1));
  }
  const __m256i bias = _mm256_loadu_si256((const __m256i *)w);
  store_row(0, nc, c0a, c0b, bias, row_add, scale, o);
  if (mr > 1) store_row(1, nc, c1a, c1b, bias, row_add, scale, o);
  if (mr > 2) store_row(2, nc, c2a, c2b, bias, row_add, scale, o);
  if (mr > 3) store_row(3, nc, c3a, c3b, bias, row_add, scale, o);
}

TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_4x8_avx2) { tile(mr, nc, kc, a, w, row_add, o, true); }
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_4x8_avx2) { tile(mr, nc, kc, a, w, row_add, o, false); }
