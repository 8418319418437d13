/* q8 table lookup, AVX2 build of the shared PSHUFB body (lut_pshufb_body.h): 32 bytes per
 * step; tails through a 32-byte buffer. */
#include <immintrin.h>
#include <string.h>

#define LUT_FN tfcc_q8_lut_avx2
#define LUT_W 32
typedef __m256i lut_v;
#define LUT_BCAST16(v) _mm256_broadcastsi128_si256(v)
#define LUT_SET1(b) _mm256_set1_epi8(b)
#define LUT_SHUF(t, x) _mm256_shuffle_epi8(t, x)
#define LUT_SUB(a, b) _mm256_sub_epi8(a, b)
#define LUT_XOR(a, b) _mm256_xor_si256(a, b)
#define LUT_TOPBIT_BLEND(lo, hi, x) _mm256_blendv_epi8(lo, hi, x)
#define LUT_LOAD(p) _mm256_loadu_si256((const __m256i *)(p))
#define LUT_STORE(p, v) _mm256_storeu_si256((__m256i *)(p), v)
#define LUT_TAIL(r, src, dst, k) \
  do { \
    uint8_t buf[32] = {0}; \
    memcpy(buf, src, k); \
    LUT_STORE(buf, lookup(r, LUT_LOAD(buf))); \
    memcpy(dst, buf, k); \
  } while (0)
#include "kernels/q8-lut/lut_pshufb_body.h"
