/* q8-fc-small, AVX-512 (F/BW): the input row widened to int16 once (pairs of depth positions
 * as dwords: in a register up to depth 32, else on the stack); per 16 columns (64 past depth
 * 32) one broadcast and one VPMADDWD + VPADDD per pair (wrapping, as the reference's int32
 * sum); requantization: float (XNNPACK fp32) or the exact fixed-point
 * MultiplyByQuantizedMultiplier of the q8 GEMM's requant-avx512.h. Tiny layers are latency
 * chains (each layer reads what the previous one stored), so the short path avoids
 * store-to-load round trips. */
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

/* Up to 32 bytes of a row widened to int16 in a register (zero past K); plain loads where
 * whole 16-byte pieces are in bounds, so a row the previous layer just stored is forwarded
 * from the store buffer instead of waiting for it to reach the cache. */
static inline __m512i widen_short(const uint8_t *xr, size_t K, bool is_signed) {
  __m256i v;
  if (K >= 16) {
    const __m128i a = _mm_loadu_si128((const __m128i *)(const void *)xr);
    const __m128i b = K > 16 ? _mm_maskz_loadu_epi8((__mmask16)((1u << (K - 16)) - 1u), xr + 16)
                             : _mm_setzero_si128();
    v = _mm256_inserti128_si256(_mm256_castsi128_si256(a), b, 1);
  } else {
    v = _mm256_maskz_loadu_epi8((__mmask32)((1u << K) - 1u), xr);
  }
  return is_signed ? _mm512_cvtepi8_epi16(v) : _mm512_cvtepu8_epi16(v);
}

/* Requantization of 16 columns from column j: float (XNNPACK fp32: clamp to hi in float, round
 * half to even, clamp to lo in integers, which equals clamping in float before rounding since
 * lo and hi are integers and a value below -2^31 converts to INT32_MIN) or fixed point. */
static inline __m512i requant16(const tfcc_q8_fcs_packed *p, size_t j, __m512i acc) {
  const __m512i zp = _mm512_set1_epi32(p->zp);
  if (p->fp32) {
    __m512 f = _mm512_mul_ps(_mm512_cvtepi32_ps(acc), _mm512_load_ps(p->scale + j));
    f = _mm512_min_ps(f, _mm512_set1_ps(p->hi));
    const __m512i i =
        _mm512_max_epi32(_mm512_cvtps_epi32(f), _mm512_set1_epi32(p->act_min - p->zp));
    return _mm512_add_epi32(i, zp);
  }
  const tfcc_q8_out o = {.mult = p->mult + j, .shift = p->shift + j, .mult_stride = 1};
  const fixq fq = fixq_load(&o, 0, 16);
  return fixq_apply(acc, &fq, zp, _mm512_set1_epi32(p->act_min), _mm512_set1_epi32(p->act_max));
}

/* acc + the pairwise products of x and w (int32 lanes, wrapping like the reference's sum). */
#define FCS_DOT(acc, x, w) _mm512_add_epi32((acc), _mm512_madd_epi16((x), (w)))

/* Pair q of a row held in a register, in every lane. */
#define XPERM(q) _mm512_permutexvar_epi32(_mm512_set1_epi32((int)(q)), xw)

/* 16 output bytes (fewer at the row's end); v is within the storage type, so the truncating
 * narrow keeps its value. A whole piece is a plain store (forwards to the next layer's load). */
static inline void store16(uint8_t *y, size_t left, __m512i v) {
  if (left >= 16)
    _mm_storeu_si128((__m128i *)(void *)y, _mm512_cvtepi32_epi8(v));
  else
    _mm512_mask_cvtepi32_storeu_epi8(y, (__mmask16)((1u << left) - 1u), v);
}

void tfcc_q8_fcs_avx512(const tfcc_q8_fcs_packed *p, size_t batches, const void *x, void *y) {
  const size_t K = (size_t)p->kdim, N = (size_t)p->n, npad = (size_t)p->npad;
  const size_t kpairs = (size_t)p->kpairs, wstride = npad * 2;
  if (K <= 32) { /* the row's pairs stay in one register: broadcast by permute */
    for (size_t b = 0; b < batches; b++) {
      const __m512i xw = widen_short((const uint8_t *)x + b * K, K, p->is_signed);
      uint8_t *yr = (uint8_t *)y + b * N;
      for (size_t j = 0; j < N; j += 16) {
        const int16_t *w = p->w + j * 2;
        /* four accumulators (an AVX512-VNNI VPDPWSSD variant measured no faster: its 5-cycle
           accumulator latency is the chain on these short loops) */
        __m512i acc0 = _mm512_load_si512((const void *)(p->bias + j));
        __m512i acc1 = _mm512_setzero_si512(), acc2 = acc1, acc3 = acc1;
        size_t q = 0;
        for (; q + 4 <= kpairs; q += 4, w += 4 * wstride) {
          acc0 = FCS_DOT(acc0, XPERM(q), _mm512_load_si512((const void *)w));
          acc1 = FCS_DOT(acc1, XPERM(q + 1), _mm512_load_si512((const void *)(w + wstride)));
          acc2 = FCS_DOT(acc2, XPERM(q + 2), _mm512_load_si512((const void *)(w + 2 * wstride)));
          acc3 = FCS_DOT(acc3, XPERM(q + 3), _mm512_load_si512((const void *)(w + 3 * wstride)));
        }
        for (; q < kpairs; q++, w += wstride)
          acc0 = FCS_DOT(acc0, XPERM(q), _mm512_load_si512((const void *)w));
        acc0 = _mm512_add_epi32(_mm512_add_epi32(acc0, acc1), _mm512_add_epi32(acc2, acc3));
        store16(yr + j, N - j, requant16(p, j, acc0));
      }
    }
    return;
  }
  _Alignas(64) int32_t xp[TFCC_Q8_FCS_MAX_K / 2 + 16];
  for (size_t b = 0; b < batches; b++) {
    widen_row((const uint8_t *)x + b * K, K, p->is_signed, xp);
    uint8_t *yr = (uint8_t *)y + b * N;
    size_t j = 0;
    for (; j + 64 <= npad; j += 64) { /* 64 columns: one broadcast feeds four accumulators */
      const int16_t *w = p->w + j * 2;
      __m512i a0 = _mm512_load_si512((const void *)(p->bias + j));
      __m512i a1 = _mm512_load_si512((const void *)(p->bias + j + 16));
      __m512i a2 = _mm512_load_si512((const void *)(p->bias + j + 32));
      __m512i a3 = _mm512_load_si512((const void *)(p->bias + j + 48));
      for (size_t q = 0; q < kpairs; q++, w += wstride) {
        const __m512i xq = _mm512_set1_epi32(xp[q]);
        a0 = FCS_DOT(a0, xq, _mm512_load_si512((const void *)w));
        a1 = FCS_DOT(a1, xq, _mm512_load_si512((const void *)(w + 32)));
        a2 = FCS_DOT(a2, xq, _mm512_load_si512((const void *)(w + 64)));
        a3 = FCS_DOT(a3, xq, _mm512_load_si512((const void *)(w + 96)));
      }
      store16(yr + j, N - j, requant16(p, j, a0));
      if (j + 16 < N) store16(yr + j + 16, N - j - 16, requant16(p, j + 16, a1));
      if (j + 32 < N) store16(yr + j + 32, N - j - 32, requant16(p, j + 32, a2));
      if (j + 48 < N) store16(yr + j + 48, N - j - 48, requant16(p, j + 48, a3));
    }
    for (; j < N; j += 16) {
      const int16_t *w = p->w + j * 2;
      __m512i acc0 = _mm512_load_si512((const void *)(p->bias + j));
      __m512i acc1 = _mm512_setzero_si512(), acc2 = acc1, acc3 = acc1;
      size_t q = 0;
      for (; q + 4 <= kpairs; q += 4, w += 4 * wstride) {
        acc0 = FCS_DOT(acc0, _mm512_set1_epi32(xp[q]), _mm512_load_si512((const void *)w));
        acc1 = FCS_DOT(acc1, _mm512_set1_epi32(xp[q + 1]),
                       _mm512_load_si512((const void *)(w + wstride)));
        acc2 = FCS_DOT(acc2, _mm512_set1_epi32(xp[q + 2]),
                       _mm512_load_si512((const void *)(w + 2 * wstride)));
        acc3 = FCS_DOT(acc3, _mm512_set1_epi32(xp[q + 3]),
                       _mm512_load_si512((const void *)(w + 3 * wstride)));
      }
      for (; q < kpairs; q++, w += wstride)
        acc0 = FCS_DOT(acc0, _mm512_set1_epi32(xp[q]), _mm512_load_si512((const void *)w));
      acc0 = _mm512_add_epi32(_mm512_add_epi32(acc0, acc1), _mm512_add_epi32(acc2, acc3));
      store16(yr + j, N - j, requant16(p, j, acc0));
    }
  }
}
