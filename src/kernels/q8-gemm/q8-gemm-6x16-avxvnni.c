/* q8 GEMM micro-kernel, AVX-VNNI (VEX vpdpbusd on ymm, CPUs with AVX-VNNI but maybe no
 * AVX-512): 6 rows x 16 columns (12 ymm int32 accumulators, two panel vectors, one broadcast:
 * 15 of 16 registers). Per group of 4 depth bytes: two panel loads, six dword broadcasts,
 * twelve vpdpbusd (u8 x s8, wrapping int32 sums). Partial tiles run 4-, 2- or 1-row
 * instances of the same code.
 *
 * The accumulators start at bias + row term; the epilogue requantizes two rows at a time
 * like the 14x32 AVX512-VNNI kernel (see there why it equals tfcc_requant_fp32): cvtdq2ps,
 * mul, min(hi), cvtps2dq, saturating packs to int16, + zp, saturating pack to 8 bits, max
 * with act_min, one vpermd back to row order. */
#include <immintrin.h>
#include <string.h>

#include "kernels/q8-gemm/ukernels.h"

#define NR 16

/* Rows i and i + 1 (i + 1 may be >= mr: computed, not stored). */
static inline void store_pair(size_t i, size_t mr, size_t nc, __m256i a0, __m256i a1, __m256i b0,
                              __m256i b1, __m256 s0, __m256 s1, const tfcc_q8_out *o,
                              int is_signed) {
  if (o->c32) {
    _mm256_storeu_si256((__m256i *)(void *)(o->c32 + i * NR), a0);
    _mm256_storeu_si256((__m256i *)(void *)(o->c32 + i * NR + 8), a1);
    if (i + 1 < mr) {
      _mm256_storeu_si256((__m256i *)(void *)(o->c32 + (i + 1) * NR), b0);
      _mm256_storeu_si256((__m256i *)(void *)(o->c32 + (i + 1) * NR + 8), b1);
    }
    return;
  }
  const __m256 hi = _mm256_set1_ps(o->hi);
  a0 = _mm256_cvtps_epi32(_mm256_min_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(a0), s0), hi));
  a1 = _mm256_cvtps_epi32(_mm256_min_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(a1), s1), hi));
  b0 = _mm256_cvtps_epi32(_mm256_min_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(b0), s0), hi));
  b1 = _mm256_cvtps_epi32(_mm256_min_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(b1), s1), hi));
  const __m256i zp = _mm256_set1_epi16((short)o->zp);
  /* 128-bit lane l: a0[4l..4l+3] a1[4l..4l+3] (int16), likewise b */
  const __m256i pa = _mm256_adds_epi16(_mm256_packs_epi32(a0, a1), zp);
  const __m256i pb = _mm256_adds_epi16(_mm256_packs_epi32(b0, b1), zp);
  /* dword 4l + g holds elements 4l..4l+3 of a0, a1, b0, b1 for g = 0..3 */
  const int32_t amin = (int32_t)o->lo + o->zp;
  __m256i v = is_signed
                  ? _mm256_max_epi8(_mm256_packs_epi16(pa, pb), _mm256_set1_epi8((char)amin))
                  : _mm256_max_epu8(_mm256_packus_epi16(pa, pb), _mm256_set1_epi8((char)amin));
  v = _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
  uint8_t *c = o->c + i * o->c_stride;
  const __m128i r0 = _mm256_castsi256_si128(v), r1 = _mm256_extracti128_si256(v, 1);
  if (nc >= NR) {
    _mm_storeu_si128((__m128i *)(void *)c, r0);
    if (i + 1 < mr) _mm_storeu_si128((__m128i *)(void *)(c + o->c_stride), r1);
  } else {
    uint8_t tmp[2 * NR];
    _mm256_storeu_si256((__m256i *)(void *)tmp, v);
    memcpy(c, tmp, nc);
    if (i + 1 < mr) memcpy(c + o->c_stride, tmp + NR, nc);
  }
}

/* SIGNED: rows are int8 (the s8 operand), weights u8; else rows u8, weights s8. */
#define DOT(acc, xv, wv) \
  (SIGNED ? _mm256_dpbusd_avx_epi32((acc), (wv), (xv)) : _mm256_dpbusd_avx_epi32((acc), (xv), (wv)))

/* Rows >= ROWS (a compile-time constant) are not computed: their code folds away. */
#define LD(p) (TAIL ? tfcc_q8_load_tail((p) + k, kc - k) : tfcc_q8_load4((p) + k))
#define ROW(i) \
  if (ROWS > i) { \
    const __m256i x = _mm256_set1_epi32(LD(a##i)); \
    c##i##0 = DOT(c##i##0, x, w0); \
    c##i##1 = DOT(c##i##1, x, w1); \
  }
#define STEP \
  do { \
    const __m256i w0 = _mm256_load_si256((const __m256i *)(const void *)pw); \
    const __m256i w1 = _mm256_load_si256((const __m256i *)(const void *)(pw + 32)); \
    pw += 64; \
    ROW(0) ROW(1) ROW(2) ROW(3) ROW(4) ROW(5) \
  } while (0)
#define INIT(i) \
  const uint8_t *a##i = ROWS > i ? (const uint8_t *)a[i] : a0; \
  const __m256i ra##i = _mm256_set1_epi32(row_add[ROWS > i ? i : 0]); \
  __m256i c##i##0 = _mm256_add_epi32(bias0, ra##i); \
  __m256i c##i##1 = _mm256_add_epi32(bias1, ra##i);
#define PAIR(i, j) \
  if (ROWS > i && mr > i) \
    store_pair(i, mr, nc, c##i##0, c##i##1, c##j##0, c##j##1, s0, s1, o, SIGNED);

/* One function per (rows, signedness): ROWS rows computed, mr <= ROWS stored. */
#define DEFINE_TILE(name, rows, is_signed) \
  static void name(size_t mr, size_t nc, size_t kc, const void *const *a, const void *w, \
                   const int32_t *row_add, const tfcc_q8_out *o) { \
    enum { ROWS = rows, SIGNED = is_signed }; \
    const __m256i bias0 = _mm256_load_si256((const __m256i *)w); \
    const __m256i bias1 = _mm256_load_si256((const __m256i *)w + 1); \
    const uint8_t *a0 = a[0]; \
    const __m256i ra0 = _mm256_set1_epi32(row_add[0]); \
    __m256i c00 = _mm256_add_epi32(bias0, ra0), c01 = _mm256_add_epi32(bias1, ra0); \
    INIT(1) INIT(2) INIT(3) INIT(4) INIT(5) const uint8_t *pw = (const uint8_t *)w + NR * 8; \
    size_t k = 0; \
    { \
      enum { TAIL = 0 }; \
      for (; k + 4 <= kc; k += 4) STEP; \
    } \
    if (k < kc) { \
      enum { TAIL = 1 }; \
      STEP; \
    } \
    const float *scale = (const float *)(const void *)((const uint8_t *)w + NR * 4); \
    const __m256 s0 = _mm256_loadu_ps(scale), s1 = _mm256_loadu_ps(scale + 8); \
    PAIR(0, 1) PAIR(2, 3) PAIR(4, 5) \
  }

DEFINE_TILE(tile_s6, 6, 1)
DEFINE_TILE(tile_s4, 4, 1)
DEFINE_TILE(tile_s2, 2, 1)
DEFINE_TILE(tile_s1, 1, 1)
DEFINE_TILE(tile_u6, 6, 0)
DEFINE_TILE(tile_u4, 4, 0)
DEFINE_TILE(tile_u2, 2, 0)
DEFINE_TILE(tile_u1, 1, 0)

/* A partial tile runs the smallest variant that holds it (with is_signed constant, each call
 * is a direct one). */
static inline void tile(size_t mr, size_t nc, size_t kc, const void *const *a, const void *w,
                        const int32_t *row_add, const tfcc_q8_out *o, int is_signed) {
  if (mr > 4)
    (is_signed ? tile_s6 : tile_u6)(mr, nc, kc, a, w, row_add, o);
  else if (mr > 2)
    (is_signed ? tile_s4 : tile_u4)(mr, nc, kc, a, w, row_add, o);
  else if (mr > 1)
    (is_signed ? tile_s2 : tile_u2)(mr, nc, kc, a, w, row_add, o);
  else
    (is_signed ? tile_s1 : tile_u1)(mr, nc, kc, a, w, row_add, o);
}

TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_6x16_avxvnni) { tile(mr, nc, kc, a, w, row_add, o, 1); }
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_6x16_avxvnni) { tile(mr, nc, kc, a, w, row_add, o, 0); }

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
