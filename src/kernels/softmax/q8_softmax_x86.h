/* The 16-byte primitives of q8_softmax_body.h on SSE2 (the AVX2 and AVX-512 builds). */
#ifndef TFCC_KERNELS_SOFTMAX_Q8_SOFTMAX_X86_H
#define TFCC_KERNELS_SOFTMAX_Q8_SOFTMAX_X86_H

#include <immintrin.h>
#include <stdint.h>

typedef __m128i q8b;
static inline q8b q8b_ld(const uint8_t *p) { return _mm_loadu_si128((const __m128i *)p); }
static inline q8b q8b_set(int x) { return _mm_set1_epi8((char)x); }
static inline q8b q8b_xor(q8b a, q8b b) { return _mm_xor_si128(a, b); }
static inline q8b q8b_max(q8b a, q8b b) { return _mm_max_epu8(a, b); }
static inline q8b q8b_min(q8b a, q8b b) { return _mm_min_epu8(a, b); }
static inline int q8b_hmax(q8b v) {
  v = _mm_max_epu8(v, _mm_srli_si128(v, 8));
  v = _mm_max_epu8(v, _mm_srli_si128(v, 4));
  v = _mm_max_epu8(v, _mm_srli_si128(v, 2));
  v = _mm_max_epu8(v, _mm_srli_si128(v, 1));
  return _mm_cvtsi128_si32(v) & 0xff;
}

#endif
