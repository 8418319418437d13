/* q8 GEMM micro-kernel, AVX-VNNI (VEX vpdpbusd on ymm, CPUs with AVX-VNNI but maybe no
 * AVX-512): 6 rows x 16 columns (12 ymm int32 accumulators, two panel vectors, one broadcast:
 * 15 of 16 registers). Per group of 4 depth bytes: two panel loads, six dword broadcasts,
 * twelve vpdpbusd (u8 x s8, wrapping int32 sums). Partial tiles run 4-, 2- or 1-row
 * instances of the same code: vnni_body.h, shared with the 14x32 AVX512-VNNI kernel.
 *
 * The accumulators start at bias + row term; the epilogue requantizes two rows at a time
 * (requant_body.h, see there why it equals tfcc_requant_fp32): cvtdq2ps, mul, min(hi),
 * cvtps2dq, saturating packs to int16, + zp, saturating pack to 8 bits, max with act_min, one
 * vpermd back to row order. No prefetches, no fixed-point or hybrid output stage (the driver
 * asks those of the AVX-512 kernels only). */
#include <immintrin.h>
#include <string.h>

#include "kernels/q8-gemm/ukernels.h"
#include "kernels/simd/i32v_avx2.h"

#include "kernels/q8-gemm/requant_body.h"

#define Q8G_DOT(acc, u, s) _mm256_dpbusd_avx_epi32((acc), (u), (s))
#define Q8G_TILES(X) X(6, 4) X(4, 2) X(2, 1) X(1, 0)
#define Q8G_PREFETCH 0
#define Q8G_FULL_EPILOGUE 0
#define Q8G_FN_S tfcc_q8_gemm_s_6x16_avxvnni
#define Q8G_FN_U tfcc_q8_gemm_u_6x16_avxvnni
#include "kernels/q8-gemm/vnni_body.h"

/* Sum of n bytes (int8 when is_signed, else uint8), modulo 2^32: vpdpbusd against a vector
 * of ones (s8) or vpsadbw against zero (u8), 32 bytes per step, the tail in scalar code. */
uint32_t tfcc_q8_row_sum_avxvnni(const uint8_t *x, size_t n, bool is_signed) {
  __m256i acc = _mm256_setzero_si256();
  size_t i = 0;
  uint32_t s = 0;
  if (is_signed) {
    const __m256i ones = _mm256_set1_epi8(1);
    for (; i + 32 <= n; i += 32)
      acc = _mm256_dpbusd_avx_epi32(acc, ones,
                                    _mm256_loadu_si256((const __m256i *)(const void *)(x + i)));
    for (; i < n; i++) s += (uint32_t)(int32_t)(int8_t)x[i];
  } else {
    for (; i + 32 <= n; i += 32)
      acc = _mm256_add_epi64(
          acc, _mm256_sad_epu8(_mm256_loadu_si256((const __m256i *)(const void *)(x + i)),
                               _mm256_setzero_si256()));
    for (; i < n; i++) s += x[i];
  }
  __m128i v;
  if (is_signed) { /* eight dword sums */
    v = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, 0x4E));
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, 0xB1));
  } else { /* four qword sums */
    v = _mm_add_epi64(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
    v = _mm_add_epi64(v, _mm_shuffle_epi32(v, 0x4E));
  }
  return s + (uint32_t)_mm_cvtsi128_si32(v);
}
