/* q16-gemm vector primitives (gemm_body.h lists them), AVX-512BW: VPMADDWD on 16 lanes (built
 * with AVX512-VNNI: VPDPWSSD, the multiply-add and the sum in one; no lane can wrap, as in
 * gemm.h). */
#ifndef TFCC_KERNELS_Q16_GEMM_Q16V_AVX512_H
#define TFCC_KERNELS_Q16_GEMM_Q16V_AVX512_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

typedef __m512i q16v;
typedef __m512i q16x;
typedef __m512i q16w;
#define Q16V_N 16

static inline q16v q16v_zero(void) { return _mm512_setzero_si512(); }
static inline q16w q16v_ldw(const int16_t *p) { return _mm512_loadu_si512((const void *)p); }
static inline q16x q16x_pair(const int16_t *p) {
  int32_t v;
  memcpy(&v, p, sizeof v);
  return _mm512_set1_epi32(v);
}
static inline q16x q16x_one(const int16_t *p) { return _mm512_set1_epi32((int32_t)(uint16_t)*p); }
static inline q16v q16v_madd(q16v acc, q16x x, q16w w) {
#if defined(__AVX512VNNI__)
  return _mm512_dpwssd_epi32(acc, x, w); /* the avx512vnni build: VPDPWSSD, one instruction */
#else
  return _mm512_add_epi32(acc, _mm512_madd_epi16(x, w));
#endif
}
static inline void q16v_st(int32_t *p, q16v v) { _mm512_storeu_si512((void *)p, v); }

#endif
