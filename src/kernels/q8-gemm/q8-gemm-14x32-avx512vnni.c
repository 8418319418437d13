/* q8 GEMM micro-kernel, AVX512-VNNI: 14 rows x 32 columns (28 zmm int32 accumulators, two
 * panel vectors, one broadcast: 31 of 32 registers). Per group of 4 depth bytes: two panel
 * loads, fourteen dword broadcasts from the rows, 28 vpdpbusd (u8 x s8, wrapping int32 sums:
 * no saturation), so loads stay well under the two vpdpbusd per cycle. 14 rows divide every
 * 7 * 2^k spatial size (49, 196, 784, 3136, 12544 output pixels). A partial tile runs a
 * 7-, 4-, 2- or 1-row instance of the same code (batch-1 FULLY_CONNECTED is the 1-row one).
 *
 * The accumulators start at bias + row term. The epilogue requantizes two rows (64 outputs)
 * at a time exactly like tfcc_requant_fp32 (clamp((float)acc * scale, lo, hi), round half to
 * even, + zp) but with fewer instructions: cvtdq2ps, mul, min(hi) in float, cvtps2dq (round
 * half to even; below -2^31 it gives INT32_MIN, which saturates to the bottom like the value
 * would), saturating packs to int16, + zp (saturating), saturating pack to 8 bits, max with
 * act_min, one dword permute back to row order. Equal to the reference because rounding is
 * monotone and lo, hi are integers: round(clamp(f, lo, hi)) = clamp(round(f), lo, hi), and
 * every saturation on the way is monotone and the identity on [act_min, act_max].
 * Fixed-point (REFERENCE) requantization runs in the kernel too (fixq_apply), and so does the
 * hybrid float output stage (store_pair_hybrid: no int32 tile through memory).
 * While the depth loop runs it prefetches the lines the driver names (tfcc_q8_out.pf: the next
 * weight panel) into L2, one or two per group of 4 depth bytes, and where the driver asks
 * (pf_ahead) the two lines of its own panel pf_ahead bytes ahead into L1. */
#include <immintrin.h>
#include <string.h>

#include "kernels/q8-gemm/requant-avx512.h"
#include "kernels/q8-gemm/ukernels.h"

#define NR 32

/* SIGNED: rows are int8 (the s8 operand), weights u8; else rows u8, weights s8. */
#define DOT(acc, xv, wv) \
  (SIGNED ? _mm512_dpbusd_epi32((acc), (wv), (xv)) : _mm512_dpbusd_epi32((acc), (xv), (wv)))

/* Rows >= ROWS (a compile-time constant) are not computed: their code folds away. */
#define LD(p) (TAIL ? tfcc_q8_load_tail((p) + k, kc - k) : tfcc_q8_load4((p) + k))
#define ROW(i) \
  if (ROWS > i) { \
    const __m512i x = _mm512_set1_epi32(LD(a##i)); \
    c##i##0 = DOT(c##i##0, x, w0); \
    c##i##1 = DOT(c##i##1, x, w1); \
  }
#define STEP \
  do { \
    const __m512i w0 = _mm512_load_si512(pw), w1 = _mm512_load_si512(pw + 64); \
    pw += 128; \
    ROW(0) \
    ROW(1) ROW(2) ROW(3) ROW(4) ROW(5) ROW(6) ROW(7) ROW(8) ROW(9) ROW(10) ROW(11) ROW(12) ROW(13) \
  } while (0)
#define INIT(i) \
  const uint8_t *a##i = ROWS > i ? (const uint8_t *)a[i] : a0; \
  const __m512i ra##i = _mm512_set1_epi32(row_add[ROWS > i ? i : 0]); \
  __m512i c##i##0 = _mm512_add_epi32(bias0, ra##i); \
  __m512i c##i##1 = _mm512_add_epi32(bias1, ra##i);
#define PAIR(i, j) \
  if (ROWS > i && mr > i) { \
    if (o->hyb) \
      store_pair_hybrid(i, mr, nc, c##i##0, c##i##1, c##j##0, c##j##1, o); \
    else if (o->mult && !o->c32) \
      store_pair_fixed(i, mr, nc, c##i##0, c##i##1, c##j##0, c##j##1, o); \
    else \
      store_pair(i, mr, nc, c##i##0, c##i##1, c##j##0, c##j##1, s0, s1, o, SIGNED); \
  }

/* One function per (rows, signedness): ROWS rows computed, mr <= ROWS stored. */
/* a macro list that clang-format 14 rewraps differently on each pass: */
/* clang-format off */
#define DEFINE_TILE(name, rows, is_signed)                                                \
  static void name(size_t mr, size_t nc, size_t kc, const void *const *a, const void *w,  \
                   const int32_t *row_add, const tfcc_q8_out *o) {                        \
    enum { ROWS = rows, SIGNED = is_signed };                                             \
    const __m512i bias0 = _mm512_load_si512(w);                                           \
    const __m512i bias1 = _mm512_load_si512((const uint8_t *)w + 64);                     \
    const uint8_t *a0 = a[0];                                                             \
    const __m512i ra0 = _mm512_set1_epi32(row_add[0]);                                    \
    __m512i c00 = _mm512_add_epi32(bias0, ra0), c01 = _mm512_add_epi32(bias1, ra0);       \
    INIT(1) INIT(2) INIT(3) INIT(4) INIT(5) INIT(6)                                       \
    INIT(7) INIT(8) INIT(9) INIT(10) INIT(11) INIT(12) INIT(13)                           \
    const uint8_t *pw = (const uint8_t *)w + NR * 8;                                      \
    size_t k = 0;                                                                         \
    {                                                                                     \
      enum { TAIL = 0 };                                                                  \
      const char *pf = (const char *)o->pf;                                               \
      size_t pf_n = pf ? (size_t)(o->pf_end - o->pf) : 0;                                 \
      const size_t pf_step = o->pf_step, ahead = o->pf_ahead;                             \
      for (; k + 4 <= kc; k += 4) {                                                       \
        if (pf_n && !((k >> 2) & o->pf_skip)) {                                           \
          _mm_prefetch(pf, _MM_HINT_T1);                                                  \
          _mm_prefetch(pf + (pf_n > 64 ? pf_step - 64 : 0), _MM_HINT_T1);                 \
          pf += pf_n > pf_step ? pf_step : pf_n;                                          \
          pf_n = pf_n > pf_step ? pf_n - pf_step : 0;                                     \
        }                                                                                 \
        if (ahead) {                                                                      \
          _mm_prefetch((const char *)pw + ahead, _MM_HINT_T0);                            \
          _mm_prefetch((const char *)pw + ahead + 64, _MM_HINT_T0);                       \
        }                                                                                 \
        STEP;                                                                             \
      }                                                                                   \
    }                                                                                     \
    if (k < kc) {                                                                         \
      enum { TAIL = 1 };                                                                  \
      STEP;                                                                               \
    }                                                                                     \
    const float *scale = (const float *)(const void *)((const uint8_t *)w + NR * 4);      \
    const __m512 s0 = _mm512_loadu_ps(scale), s1 = _mm512_loadu_ps(scale + 16);          \
    PAIR(0, 1) PAIR(2, 3) PAIR(4, 5) PAIR(6, 7) PAIR(8, 9) PAIR(10, 11) PAIR(12, 13)      \
  }
/* clang-format on */

DEFINE_TILE(tile_s14, 14, 1)
DEFINE_TILE(tile_s7, 7, 1)
DEFINE_TILE(tile_s4, 4, 1)
DEFINE_TILE(tile_s2, 2, 1)
DEFINE_TILE(tile_s1, 1, 1)
DEFINE_TILE(tile_u14, 14, 0)
DEFINE_TILE(tile_u7, 7, 0)
DEFINE_TILE(tile_u4, 4, 0)
DEFINE_TILE(tile_u2, 2, 0)
DEFINE_TILE(tile_u1, 1, 0)

/* A partial tile (the last rows of M, or a GEMV) runs the smallest variant that holds it
 * (with is_signed constant, each call is a direct one). */
static inline void tile(size_t mr, size_t nc, size_t kc, const void *const *a, const void *w,
                        const int32_t *row_add, const tfcc_q8_out *o, int is_signed) {
  if (mr > 7)
    (is_signed ? tile_s14 : tile_u14)(mr, nc, kc, a, w, row_add, o);
  else if (mr > 4)
    (is_signed ? tile_s7 : tile_u7)(mr, nc, kc, a, w, row_add, o);
  else if (mr > 2)
    (is_signed ? tile_s4 : tile_u4)(mr, nc, kc, a, w, row_add, o);
  else if (mr > 1)
    (is_signed ? tile_s2 : tile_u2)(mr, nc, kc, a, w, row_add, o);
  else
    (is_signed ? tile_s1 : tile_u1)(mr, nc, kc, a, w, row_add, o);
}

TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_14x32_avx512vnni) { tile(mr, nc, kc, a, w, row_add, o, 1); }
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_14x32_avx512vnni) { tile(mr, nc, kc, a, w, row_add, o, 0); }

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
