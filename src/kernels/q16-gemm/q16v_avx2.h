/* q16-gemm vector primitives (gemm_body.h lists them), AVX2: VPMADDWD on 8 lanes. */
#ifndef TFCC_KERNELS_Q16_GEMM_Q16V_AVX2_H
#define TFCC_KERNELS_Q16_GEMM_Q16V_AVX2_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

typedef __m256i q16v;
typedef __m256i q16x;
typedef __m256i q16w;
#define Q16V_N 8

static inline q16v q16v_zero(void) { return _mm256_setzero_si256(); }
static inline q16w q16v_ldw(const int16_t *p) {
  return _mm256_loadu_si256((const __m256i *)(const void *)p);
}
static inline q16x q16x_pair(const int16_t *p) {
  int32_t v;
  memcpy(&v, p, sizeof v);
  return _mm256_set1_epi32(v);
}
static inline q16x q16x_one(const int16_t *p) { return _mm256_set1_epi32((int32_t)(uint16_t)*p); }
static inline q16v q16v_madd(q16v acc, q16x x, q16w w) {
  return _mm256_add_epi32(acc, _mm256_madd_epi16(x, w));
}
static inline void q16v_st(int32_t *p, q16v v) { _mm256_storeu_si256((__m256i *)(void *)p, v); }

#endif
