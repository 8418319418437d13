/* q8-fc-small, AVX-512 (F/BW): the input row widened to int16 once (pairs of depth positions
 * as dwords), then per 16 columns one broadcast + VPMADDWD + VPADDD per pair (wrapping, as the
 * reference's int32 sum), and the output stage of the q8 GEMM kernels: float (XNNPACK fp32) or
 * the exact fixed-point MultiplyByQuantizedMultiplier of requant-avx512.h. */
#include <immintrin.h>

#include "kernels/q8-fc-small/fc_small.h"
#include "kernels/q8-gemm/requant-avx512.h"

/* Row of K bytes -> K int16 (zero past K, to the next 32), pair q as dword xp[q]. */
static inline void widen_row(const uint8_t *xr, size_t K, bool is_signed, int32_t *xp) {
  for (size_t k = 0; k < K; k += 32) {
    const size_t left = K - k;
    const __mmask32 m = left >= 32 ? (__mmask32)0xFFFFFFFFu : (__mmask32)((1u << left) - 1u);
    const __m256i v = _mm256_maskz_loadu_epi8(m, xr + k);
    const __m512i w = is_signed ? _mm512_cvtepi8_epi16(v) : _mm512_cvtepu8_epi16(v);
    _mm512_store_si512((void *)(xp + k / 2), w);
  }
}

void tfcc_q8_fcs_avx512(const tfcc_q8_fcs_packed *p, size_t batches, const void *x, void *y) {
  _Alignas(64) int32_t xp[TFCC_Q8_FCS_MAX_K / 2 + 16];
  const size_t K = (size_t)p->kdim, N = (size_t)p->n, npad = (size_t)p->npad;
  const size_t kpairs = (size_t)p->kpairs, wstride = npad * 2;
  const __m512i zp = _mm512_set1_epi32(p->zp);
  const __m512i amin = _mm512_set1_epi32(p->act_min), amax = _mm512_set1_epi32(p->act_max);
  const __m512 lo = _mm512_set1_ps(p->lo), hi = _mm512_set1_ps(p->hi);
  for (size_t b = 0; b < batches; b++) {
    widen_row((const uint8_t *)x + b * K, K, p->is_signed, xp);
    uint8_t *yr = (uint8_t *)y + b * N;
    for (size_t j = 0; j < N; j += 16) {
      const int16_t *w = p->w + j * 2;
      __m512i acc0 = _mm512_load_si512((const void *)(p->bias + j));
      __m512i acc1 = _mm512_setzero_si512();
      size_t q = 0;
      for (; q + 2 <= kpairs; q += 2) {
        acc0 = _mm512_add_epi32(acc0, _mm512_madd_epi16(_mm512_set1_epi32(xp[q]),
                                                        _mm512_load_si512((const void *)w)));
        acc1 = _mm512_add_epi32(acc1, _mm512_madd_epi16(_mm512_set1_epi32(xp[q + 1]),
                                                        _mm512_load_si512((const void *)(w + wstride))));
        w += 2 * wstride;
      }
      if (q < kpairs)
        acc0 = _mm512_add_epi32(acc0, _mm512_madd_epi16(_mm512_set1_epi32(xp[q]),
                                                        _mm512_load_si512((const void *)w)));
      const __m512i acc = _mm512_add_epi32(acc0, acc1);
      __m512i v;
      if (p->fp32) {
        __m512 f = _mm512_mul_ps(_mm512_cvtepi32_ps(acc), _mm512_load_ps(p->scale + j));
        f = _mm512_min_ps(_mm512_max_ps(f, lo), hi);
        v = _mm512_add_epi32(_mm512_cvtps_epi32(f), zp);
      } else {
        const tfcc_q8_out o = {.mult = p->mult + j, .shift = p->shift + j, .mult_stride = 1};
        const fixq fq = fixq_load(&o, 0, 16);
        v = fixq_apply(acc, &fq, zp, amin, amax);
      }
      const size_t left = N - j;
      const __mmask16 m = left >= 16 ? (__mmask16)0xFFFFu : (__mmask16)((1u << left) - 1u);
      /* v is within the storage type: the truncating narrow keeps its value */
      _mm512_mask_cvtepi32_storeu_epi8(yr + j, m, v);
    }
  }
}
