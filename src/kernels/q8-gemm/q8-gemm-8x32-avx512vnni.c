/* q8 GEMM micro-kernel, AVX512-VNNI: 8 rows x 32 columns (16 zmm int32 accumulators).
 * Per group of 4 depth bytes: two panel loads, eight dword broadcasts from the rows, sixteen
 * vpdpbusd (u8 x s8, wrapping int32 sums: no saturation). The epilogue adds the folded
 * bias and the row term, then requantizes in float exactly like tfcc_requant_fp32:
 * cvtdq2ps, mul, max/min, cvtps2dq (round half to even), + zp, vpmovdb. */
#include <immintrin.h>
#include <string.h>

#include "kernels/q8-gemm/ukernels.h"

#define NR 32

static inline int32_t load4(const uint8_t *p) {
  int32_t v;
  memcpy(&v, p, 4);
  return v;
}

/* the last kc % 4 bytes of a row, zero-extended (never reads past the row) */
static inline int32_t load_tail(const uint8_t *p, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; i++) v |= (uint32_t)p[i] << (8 * i);
  return (int32_t)v;
}

static inline void store_row(size_t i, size_t nc, __m512i v0, __m512i v1, const __m512i *bias,
                             const int32_t *row_add, const float *scale, const tfcc_q8_out *o) {
  const __m512i ra = _mm512_set1_epi32(row_add[i]);
  v0 = _mm512_add_epi32(_mm512_add_epi32(v0, bias[0]), ra);
  v1 = _mm512_add_epi32(_mm512_add_epi32(v1, bias[1]), ra);
  if (o->c32) {
    _mm512_storeu_si512(o->c32 + i * NR, v0);
    _mm512_storeu_si512(o->c32 + i * NR + 16, v1);
    return;
  }
  const __m512 lo = _mm512_set1_ps(o->lo), hi = _mm512_set1_ps(o->hi);
  const __m512i zp = _mm512_set1_epi32(o->zp);
  __m512 f0 = _mm512_mul_ps(_mm512_cvtepi32_ps(v0), _mm512_loadu_ps(scale));
  __m512 f1 = _mm512_mul_ps(_mm512_cvtepi32_ps(v1), _mm512_loadu_ps(scale + 16));
  f0 = _mm512_min_ps(_mm512_max_ps(f0, lo), hi);
  f1 = _mm512_min_ps(_mm512_max_ps(f1, lo), hi);
  const __m128i b0 = _mm512_cvtepi32_epi8(_mm512_add_epi32(_mm512_cvtps_epi32(f0), zp));
  const __m128i b1 = _mm512_cvtepi32_epi8(_mm512_add_epi32(_mm512_cvtps_epi32(f1), zp));
  uint8_t *c = o->c + i * o->c_stride;
  if (nc >= 32) {
    _mm_storeu_si128((__m128i *)(void *)c, b0);
    _mm_storeu_si128((__m128i *)(void *)(c + 16), b1);
  } else if (nc >= 16) {
    _mm_storeu_si128((__m128i *)(void *)c, b0);
    _mm_mask_storeu_epi8(c + 16, (__mmask16)((1u << (nc - 16)) - 1u), b1);
  } else {
    _mm_mask_storeu_epi8(c, (__mmask16)((1u << nc) - 1u), b0);
  }
}

/* SIGNED: rows are int8 (the s8 operand), weights u8; else rows u8, weights s8. */
#define DOT(acc, xv, wv) \
  (SIGNED ? _mm512_dpbusd_epi32((acc), (wv), (xv)) : _mm512_dpbusd_epi32((acc), (xv), (wv)))

#define LD(p) (TAIL ? load_tail((p) + k, kc - k) : load4((p) + k))
#define STEP                                                                              \
  do {                                                                                    \
    const __m512i w0 = _mm512_load_si512(pw), w1 = _mm512_load_si512(pw + 64);           \
    pw += 128;                                                                            \
    __m512i x = _mm512_set1_epi32(LD(a0));                                                \
    c00 = DOT(c00, x, w0); c01 = DOT(c01, x, w1);                                         \
    x = _mm512_set1_epi32(LD(a1));                                                        \
    c10 = DOT(c10, x, w0); c11 = DOT(c11, x, w1);                                         \
    x = _mm512_set1_epi32(LD(a2));                                                        \
    c20 = DOT(c20, x, w0); c21 = DOT(c21, x, w1);                                         \
    x = _mm512_set1_epi32(LD(a3));                                                        \
    c30 = DOT(c30, x, w0); c31 = DOT(c31, x, w1);                                         \
    x = _mm512_set1_epi32(LD(a4));                                                        \
    c40 = DOT(c40, x, w0); c41 = DOT(c41, x, w1);                                         \
    x = _mm512_set1_epi32(LD(a5));                                                        \
    c50 = DOT(c50, x, w0); c51 = DOT(c51, x, w1);                                         \
    x = _mm512_set1_epi32(LD(a6));                                                        \
    c60 = DOT(c60, x, w0); c61 = DOT(c61, x, w1);                                         \
    x = _mm512_set1_epi32(LD(a7));                                                        \
    c70 = DOT(c70, x, w0); c71 = DOT(c71, x, w1);                                         \
  } while (0)

#define KERNEL_BODY                                                                         \
  const uint8_t *a0 = a[0], *a1 = a[1], *a2 = a[2], *a3 = a[3];                           \
  const uint8_t *a4 = a[4], *a5 = a[5], *a6 = a[6], *a7 = a[7];                           \
  const uint8_t *pw = (const uint8_t *)w + NR * 8;                                        \
  const float *scale = (const float *)(const void *)((const uint8_t *)w + NR * 4);        \
  __m512i c00 = _mm512_setzero_si512(), c01 = c00, c10 = c00, c11 = c00, c20 = c00;      \
  __m512i c21 = c00, c30 = c00, c31 = c00, c40 = c00, c41 = c00, c50 = c00, c51 = c00;   \
  __m512i c60 = c00, c61 = c00, c70 = c00, c71 = c00;                                    \
  size_t k = 0;                                                                           \
  {                                                                                       \
    enum { TAIL = 0 };                                                                    \
    for (; k + 4 <= kc; k += 4) STEP;                                                     \
  }                                                                                       \
  if (k < kc) {                                                                           \
    enum { TAIL = 1 };                                                                    \
    STEP;                                                                                 \
  }                                                                                       \
  const __m512i bias[2] = {_mm512_load_si512(w), _mm512_load_si512((const uint8_t *)w + 64)}; \
  store_row(0, nc, c00, c01, bias, row_add, scale, o);                                    \
  if (mr > 1) store_row(1, nc, c10, c11, bias, row_add, scale, o);                        \
  if (mr > 2) store_row(2, nc, c20, c21, bias, row_add, scale, o);                        \
  if (mr > 3) store_row(3, nc, c30, c31, bias, row_add, scale, o);                        \
  if (mr > 4) store_row(4, nc, c40, c41, bias, row_add, scale, o);                        \
  if (mr > 5) store_row(5, nc, c50, c51, bias, row_add, scale, o);                        \
  if (mr > 6) store_row(6, nc, c60, c61, bias, row_add, scale, o);                        \
  if (mr > 7) store_row(7, nc, c70, c71, bias, row_add, scale, o);

TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_8x32_avx512vnni) {
#define SIGNED 1
  KERNEL_BODY
#undef SIGNED
}

TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_8x32_avx512vnni) {
#define SIGNED 0
  KERNEL_BODY
#undef SIGNED
}
