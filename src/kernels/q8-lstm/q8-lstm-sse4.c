/* Fast LSTM, SSE4.1: 8 int16 lanes (activations), 4 rows per accumulator (matrix x vector). */
#include <smmintrin.h>
#include <string.h>

#define V __m128i
#define M __m128i
#define VL 8
#define LD(p) _mm_loadu_si128((const __m128i *)(p))
#define ST(p, v) _mm_storeu_si128((__m128i *)(p), (v))
#define SET1(x) _mm_set1_epi16((short)(x))
#define ZERO() _mm_setzero_si128()
#define ADD _mm_add_epi16
#define SUB _mm_sub_epi16
#define ADDS _mm_adds_epi16
#define AND _mm_and_si128
#define MULHRS _mm_mulhrs_epi16
#define SRA(v, n) _mm_sra_epi16((v), _mm_cvtsi32_si128(n))
#define SRL(v, n) _mm_srl_epi16((v), _mm_cvtsi32_si128(n))
#define SLL(v, n) _mm_sll_epi16((v), _mm_cvtsi32_si128(n))
#define CMPEQ _mm_cmpeq_epi16
#define CMPGT _mm_cmpgt_epi16
#define BLEND(a, b, m) _mm_blendv_epi8((a), (b), (m))
#define GEMV_LANES 4
#define GEMV_LOAD(p) _mm_cvtepi8_epi16(_mm_loadl_epi64((const __m128i *)(p)))
#define MADD _mm_madd_epi16
#define ADD32 _mm_add_epi32
#define SET1_32(x) _mm_set1_epi32(x)
#define ST32(p, v) _mm_storeu_si128((__m128i *)(p), (v))
#define M32 __m128i
#define CMPGT32 _mm_cmpgt_epi32
#define INC_IF(v, m) _mm_sub_epi32((v), (m))
#define SUB32 _mm_sub_epi32
#define SLL32(v, n) _mm_sll_epi32((v), _mm_cvtsi32_si128(n))
#define SRA32(v, n) _mm_sra_epi32((v), _mm_cvtsi32_si128(n))
#define SRL32(v, n) _mm_srl_epi32((v), _mm_cvtsi32_si128(n))
#define MULLO32 _mm_mullo_epi32
#define MIN32 _mm_min_epi32
#define MAX32 _mm_max_epi32
#define MUL_EVEN _mm_mul_epi32
#define ADD64 _mm_add_epi64
#define SET1_64(x) _mm_set1_epi64x(x)
#define SRLI64 _mm_srli_epi64
#define SLLI64 _mm_slli_epi64
#define BLEND_ODD32(e, o) _mm_blend_epi16((e), (o), 0xCC)
#define LD16_32(p) _mm_cvtepi16_epi32(_mm_loadl_epi64((const __m128i *)(p)))
#define ST16_32(p, v) _mm_storel_epi64((__m128i *)(p), _mm_packs_epi32((v), (v)))
static inline void st8_32(void *p, __m128i v) {
  const int32_t w = _mm_cvtsi128_si32(_mm_packs_epi16(_mm_packs_epi32(v, v), v));
  memcpy(p, &w, 4);
}
#define ST8_32(p, v) st8_32((p), (v))
#define SFX sse4

#include "kernels/q8-lstm/q8-lstm-impl.h"
