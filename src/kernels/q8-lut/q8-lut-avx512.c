/* q8 table lookup, AVX-512BW build of the shared PSHUFB body (lut_pshufb_body.h): 64 bytes
 * per step; tails through a byte mask. */
#include <immintrin.h>

#define LUT_FN tfcc_q8_lut_avx512
#define LUT_W 64
typedef __m512i lut_v;
#define LUT_BCAST16(v) _mm512_broadcast_i32x4(v)
#define LUT_SET1(b) _mm512_set1_epi8(b)
#define LUT_SHUF(t, x) _mm512_shuffle_epi8(t, x)
#define LUT_SUB(a, b) _mm512_sub_epi8(a, b)
#define LUT_XOR(a, b) _mm512_xor_si512(a, b)
#define LUT_TOPBIT_BLEND(lo, hi, x) _mm512_mask_blend_epi8(_mm512_movepi8_mask(x), lo, hi)
#define LUT_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define LUT_STORE(p, v) _mm512_storeu_si512((void *)(p), v)
#define LUT_TAIL(r, src, dst, k) \
  do { \
    const __mmask64 m = (__mmask64)((~0ull) >> (64 - (k))); \
    _mm512_mask_storeu_epi8(dst, m, lookup(r, _mm512_maskz_loadu_epi8(m, src))); \
  } while (0)
#include "kernels/q8-lut/lut_pshufb_body.h"
