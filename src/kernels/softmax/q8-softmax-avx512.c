/* 8-bit softmax rows, AVX-512 build of the shared body (q8_softmax_body.h): 16 rows / elements
 * a step, the table entries by 16-lane gathers. */
#include <immintrin.h>
#include <stdbool.h>

#include "kernels/simd/f32v_avx512.h"
#include "kernels/softmax/q8_softmax_x86.h"

#define Q8SM_GATHER 1
typedef struct q8sm_rows {
  __m512i roff, toff, flip4;
} q8sm_rows;
static inline q8sm_rows q8sm_rows_make(const int32_t *roff, const int32_t *toff, uint8_t flip) {
  const q8sm_rows r = {_mm512_loadu_si512((const void *)roff),
                       _mm512_loadu_si512((const void *)toff), _mm512_set1_epi8((char)flip)};
  return r;
}
static inline void q8sm_gather4(const float *table, const uint8_t *p, const q8sm_rows *r,
                                f32v e[4]) {
  const __m512i w = _mm512_xor_si512(_mm512_i32gather_epi32(r->roff, (const void *)p, 1), r->flip4);
  const __m512i m = _mm512_set1_epi32(0xff);
  e[0] = _mm512_i32gather_ps(_mm512_add_epi32(r->toff, _mm512_and_si512(w, m)), table, 4);
  e[1] = _mm512_i32gather_ps(
      _mm512_add_epi32(r->toff, _mm512_and_si512(_mm512_srli_epi32(w, 8), m)), table, 4);
  e[2] = _mm512_i32gather_ps(
      _mm512_add_epi32(r->toff, _mm512_and_si512(_mm512_srli_epi32(w, 16), m)), table, 4);
  e[3] = _mm512_i32gather_ps(_mm512_add_epi32(r->toff, _mm512_srli_epi32(w, 24)), table, 4);
}
static inline f32v q8sm_gather(const float *t, const uint8_t *p, uint8_t flip) {
  const __m128i b = _mm_xor_si128(_mm_loadu_si128((const __m128i *)p), _mm_set1_epi8((char)flip));
  return _mm512_i32gather_ps(_mm512_cvtepu8_epi32(b), t, 4);
}
static inline void q8sm_st8(uint8_t *p, f32v v, bool u8) {
  (void)u8;
  _mm_storeu_si128((__m128i *)(void *)p, _mm512_cvtepi32_epi8(_mm512_cvtps_epi32(v)));
}

#define TFCC_Q8_SOFTMAX_FN tfcc_q8_softmax_avx512
#include "kernels/softmax/q8_softmax_body.h"
