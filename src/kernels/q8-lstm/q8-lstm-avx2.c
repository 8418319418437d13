/* Fast LSTM, AVX2: 16 int16 lanes (activations), 8 rows per accumulator (matrix x vector). */
#include <immintrin.h>

#define V __m256i
#define M __m256i
#define VL 16
#define LD(p) _mm256_loadu_si256((const __m256i *)(p))
#define ST(p, v) _mm256_storeu_si256((__m256i *)(p), (v))
#define SET1(x) _mm256_set1_epi16((short)(x))
#define ZERO() _mm256_setzero_si256()
#define ADD _mm256_add_epi16
#define SUB _mm256_sub_epi16
#define ADDS _mm256_adds_epi16
#define AND _mm256_and_si256
#define MULHRS _mm256_mulhrs_epi16
#define SRA(v, n) _mm256_sra_epi16((v), _mm_cvtsi32_si128(n))
#define SRL(v, n) _mm256_srl_epi16((v), _mm_cvtsi32_si128(n))
#define SLL(v, n) _mm256_sll_epi16((v), _mm_cvtsi32_si128(n))
#define CMPEQ _mm256_cmpeq_epi16
#define CMPGT _mm256_cmpgt_epi16
#define BLEND(a, b, m) _mm256_blendv_epi8((a), (b), (m))
#define GEMV_LANES 8
#define GEMV_LOAD(p) _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(p)))
#define MADD _mm256_madd_epi16
#define ADD32 _mm256_add_epi32
#define SET1_32(x) _mm256_set1_epi32(x)
#define ST32(p, v) _mm256_storeu_si256((__m256i *)(p), (v))
#define M32 __m256i
#define CMPGT32 _mm256_cmpgt_epi32
#define INC_IF(v, m) _mm256_sub_epi32((v), (m))
#define SUB32 _mm256_sub_epi32
#define SLL32(v, n) _mm256_sll_epi32((v), _mm_cvtsi32_si128(n))
#define SRA32(v, n) _mm256_sra_epi32((v), _mm_cvtsi32_si128(n))
#define SRL32(v, n) _mm256_srl_epi32((v), _mm_cvtsi32_si128(n))
#define MULLO32 _mm256_mullo_epi32
#define MIN32 _mm256_min_epi32
#define MAX32 _mm256_max_epi32
#define MUL_EVEN _mm256_mul_epi32
#define ADD64 _mm256_add_epi64
#define SET1_64(x) _mm256_set1_epi64x(x)
#define SRLI64 _mm256_srli_epi64
#define SLLI64 _mm256_slli_epi64
#define BLEND_ODD32(e, o) _mm256_blend_epi32((e), (o), 0xAA)
#define LD16_32(p) _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(p)))
#define ST16_32(p, v) \
  _mm_storeu_si128((__m128i *)(p), _mm256_castsi256_si128(_mm256_permute4x64_epi64( \
                                       _mm256_packs_epi32((v), (v)), 0x08)))
static inline void st8_32(void *p, __m256i v) {
  const __m256i w = _mm256_packs_epi16(_mm256_packs_epi32(v, v), _mm256_setzero_si256());
  _mm_storel_epi64((__m128i *)p,
                   _mm_unpacklo_epi32(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1)));
}
#define ST8_32(p, v) st8_32((p), (v))
#define SFX avx2

#include "kernels/q8-lstm/q8-lstm-impl.h"
