/* Fast LSTM, AVX-512 (BW): 32 int16 lanes (activations), 16 rows per accumulator. */
#include <immintrin.h>

#define V __m512i
#define M __mmask32
#define VL 32
#define LD(p) _mm512_loadu_si512((const void *)(p))
#define ST(p, v) _mm512_storeu_si512((void *)(p), (v))
#define SET1(x) _mm512_set1_epi16((short)(x))
#define ZERO() _mm512_setzero_si512()
#define ADD _mm512_add_epi16
#define SUB _mm512_sub_epi16
#define ADDS _mm512_adds_epi16
#define AND _mm512_and_si512
#define MULHRS _mm512_mulhrs_epi16
#define SRA(v, n) _mm512_sra_epi16((v), _mm_cvtsi32_si128(n))
#define SRL(v, n) _mm512_srl_epi16((v), _mm_cvtsi32_si128(n))
#define SLL(v, n) _mm512_sll_epi16((v), _mm_cvtsi32_si128(n))
#define CMPEQ _mm512_cmpeq_epi16_mask
#define CMPGT _mm512_cmpgt_epi16_mask
#define BLEND(a, b, m) _mm512_mask_blend_epi16((m), (a), (b))
#define GEMV_LANES 16
#define GEMV_LOAD(p) _mm512_cvtepi8_epi16(_mm256_loadu_si256((const __m256i *)(p)))
#define MADD _mm512_madd_epi16
#define ADD32 _mm512_add_epi32
#define SET1_32(x) _mm512_set1_epi32(x)
#define ST32(p, v) _mm512_storeu_si512((void *)(p), (v))
#define M32 __mmask16
#define CMPGT32 _mm512_cmpgt_epi32_mask
#define INC_IF(v, m) _mm512_mask_add_epi32((v), (m), (v), _mm512_set1_epi32(1))
#define SUB32 _mm512_sub_epi32
#define SLL32(v, n) _mm512_sll_epi32((v), _mm_cvtsi32_si128(n))
#define SRA32(v, n) _mm512_sra_epi32((v), _mm_cvtsi32_si128(n))
#define SRL32(v, n) _mm512_srl_epi32((v), _mm_cvtsi32_si128(n))
#define MULLO32 _mm512_mullo_epi32
#define MIN32 _mm512_min_epi32
#define MAX32 _mm512_max_epi32
#define MUL_EVEN _mm512_mul_epi32
#define ADD64 _mm512_add_epi64
#define SET1_64(x) _mm512_set1_epi64(x)
#define SRLI64 _mm512_srli_epi64
#define SLLI64 _mm512_slli_epi64
#define BLEND_ODD32(e, o) _mm512_mask_blend_epi32((__mmask16)0xAAAA, (e), (o))
#define LD16_32(p) _mm512_cvtepi16_epi32(_mm256_loadu_si256((const __m256i *)(p)))
#define ST16_32(p, v) _mm256_storeu_si256((__m256i *)(p), _mm512_cvtepi32_epi16(v))
#define ST8_32(p, v) _mm_storeu_si128((__m128i *)(p), _mm512_cvtepi32_epi8(v))
#define TAIL_MASK(n) ((__mmask32)((1u << (n)) - 1u))
#define LD_TAIL(p, n) _mm512_maskz_loadu_epi16(TAIL_MASK(n), (p))
#define ST_TAIL(p, v, n) _mm512_mask_storeu_epi16((p), TAIL_MASK(n), (v))
#define TAIL_MASK16(n) ((__mmask16)((1u << (n)) - 1u))
#define LD32_TAIL(p, n) _mm512_maskz_loadu_epi32(TAIL_MASK16(n), (p))
#define LD16_32_TAIL(p, n) _mm512_cvtepi16_epi32(_mm256_maskz_loadu_epi16(TAIL_MASK16(n), (p)))
#define ST16_32_TAIL(p, v, n) \
  _mm256_mask_storeu_epi16((p), TAIL_MASK16(n), _mm512_cvtepi32_epi16(v))
#define ST8_32_TAIL(p, v, n) _mm_mask_storeu_epi8((p), TAIL_MASK16(n), _mm512_cvtepi32_epi8(v))
#define SFX avx512

#include "kernels/q8-lstm/q8-lstm-impl.h"
