/* Fast LSTM, SSE4.1: 8 int16 lanes (activations), 4 rows per accumulator (matrix x vector). */
#include <smmintrin.h>

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
#define SFX sse4

#include "kernels/q8-lstm/q8-lstm-impl.h"
