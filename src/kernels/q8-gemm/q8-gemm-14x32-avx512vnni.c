/* q8 GEMM micro-kernel, AVX512-VNNI: 14 rows x 32 columns (28 zmm int32 accumulators, two
 * panel vectors, one broadcast: 31 of 32 registers). Per group of 4 depth bytes: two panel
 * loads, fourteen dword broadcasts from the rows, 28 vpdpbusd (u8 x s8, wrapping int32 sums:
 * no saturation), so loads stay well under the two vpdpbusd per cycle. 14 rows divide every
 * 7 * 2^k spatial size (49, 196, 784, 3136, 12544 output pixels). A partial tile runs a
 * 7-, 4-, 2- or 1-row instance of the same code (batch-1 FULLY_CONNECTED is the 1-row one):
 * vnni_body.h, shared with the 6x16 AVX-VNNI kernel.
 *
 * The accumulators start at bias + row term. The epilogue requantizes two rows (64 outputs)
 * at a time exactly like tfcc_requant_fp32 (requant_body.h says why it is equal).
 * Fixed-point (REFERENCE) requantization runs in the kernel too (fixq_apply), and so does the
 * hybrid float output stage (store_pair_hybrid: no int32 tile through memory).
 * While the depth loop runs it prefetches the lines the driver names (tfcc_q8_out.pf: the next
 * weight panel) into L2, one or two per group of 4 depth bytes, and where the driver asks
 * (pf_ahead) the two lines of its own panel pf_ahead bytes ahead into L1. */
#include <immintrin.h>
#include <string.h>

#include "kernels/q8-gemm/requant-avx512.h"
#include "kernels/q8-gemm/ukernels.h"

#define Q8G_DOT(acc, u, s) _mm512_dpbusd_epi32((acc), (u), (s))
#define Q8G_TILES(X) X(14, 7) X(7, 4) X(4, 2) X(2, 1) X(1, 0)
#define Q8G_PREFETCH 1
#define Q8G_FULL_EPILOGUE 1
#define Q8G_FN_S tfcc_q8_gemm_s_14x32_avx512vnni
#define Q8G_FN_U tfcc_q8_gemm_u_14x32_avx512vnni
#include "kernels/q8-gemm/vnni_body.h"

/* Sum of n bytes (int8 when is_signed, else uint8), modulo 2^32: vpdpbusd against a vector
 * of ones (s8) or vpsadbw against zero (u8), 64 bytes per step into four accumulators in turn
 * (with one, every step waits for the previous step's sum: 5 cycles per 64 bytes of a deep
 * im2col row), a masked load for the tail. */
uint32_t tfcc_q8_row_sum_avx512vnni(const uint8_t *x, size_t n, bool is_signed) {
  const __m512i ones = _mm512_set1_epi8(1), zero = _mm512_setzero_si512();
  __m512i a0 = zero, a1 = zero, a2 = zero, a3 = zero;
  size_t i = 0;
  if (is_signed) {
    for (; i + 256 <= n; i += 256) {
      a0 = _mm512_dpbusd_epi32(a0, ones, _mm512_loadu_si512(x + i));
      a1 = _mm512_dpbusd_epi32(a1, ones, _mm512_loadu_si512(x + i + 64));
      a2 = _mm512_dpbusd_epi32(a2, ones, _mm512_loadu_si512(x + i + 128));
      a3 = _mm512_dpbusd_epi32(a3, ones, _mm512_loadu_si512(x + i + 192));
    }
    for (; i + 64 <= n; i += 64) a1 = _mm512_dpbusd_epi32(a1, ones, _mm512_loadu_si512(x + i));
    if (i < n) {
      const __mmask64 m = (__mmask64)(~0ull >> (64 - (n - i)));
      a2 = _mm512_dpbusd_epi32(a2, ones, _mm512_maskz_loadu_epi8(m, x + i));
    }
    return (uint32_t)_mm512_reduce_add_epi32(
        _mm512_add_epi32(_mm512_add_epi32(a0, a1), _mm512_add_epi32(a2, a3)));
  }
  for (; i + 256 <= n; i += 256) {
    a0 = _mm512_add_epi64(a0, _mm512_sad_epu8(_mm512_loadu_si512(x + i), zero));
    a1 = _mm512_add_epi64(a1, _mm512_sad_epu8(_mm512_loadu_si512(x + i + 64), zero));
    a2 = _mm512_add_epi64(a2, _mm512_sad_epu8(_mm512_loadu_si512(x + i + 128), zero));
    a3 = _mm512_add_epi64(a3, _mm512_sad_epu8(_mm512_loadu_si512(x + i + 192), zero));
  }
  for (; i + 64 <= n; i += 64)
    a1 = _mm512_add_epi64(a1, _mm512_sad_epu8(_mm512_loadu_si512(x + i), zero));
  if (i < n) {
    const __mmask64 m = (__mmask64)(~0ull >> (64 - (n - i)));
    a2 = _mm512_add_epi64(a2, _mm512_sad_epu8(_mm512_maskz_loadu_epi8(m, x + i), zero));
  }
  return (uint32_t)_mm512_reduce_add_epi64(
      _mm512_add_epi64(_mm512_add_epi64(a0, a1), _mm512_add_epi64(a2, a3)));
}
