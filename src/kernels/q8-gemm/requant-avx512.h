/* Output stage of the AVX-512 q8 GEMM kernels (q8-gemm-14x32-avx512vnni, q8-gemm-16x64-amxint8):
 * two rows of 32 int32 accumulators requantized in float (XNNPACK fp32, store_pair: the
 * requant_body.h shared with the AVX-VNNI kernel) or in fixed point
 * (tflite::MultiplyByQuantizedMultiplier, store_pair_fixed), or turned into the hybrid float
 * output (store_pair_hybrid), bytes stored. One copy, so every AVX-512 kernel rounds alike.
 * Include from files built with AVX-512 F/BW/VL/DQ. The c32 path (int32 tile out, rows 32 int32
 * apart) serves kernels whose NR is 32; wider kernels set fixed_epilogue, so the driver never
 * asks them for c32. */
#ifndef TFCC_KERNELS_Q8_GEMM_REQUANT_AVX512_H
#define TFCC_KERNELS_Q8_GEMM_REQUANT_AVX512_H

#include <immintrin.h>
#include <math.h>

#include "kernels/q8-gemm/ukernels.h"
#include "kernels/simd/i32v_avx512.h"

#include "kernels/q8-gemm/requant_body.h"

/* Hybrid float output of 16 columns of one row (tfcc_q8_out.hyb): the tile stage of
 * kernels/hybrid/hyb_out_body.h lane for lane (acc - zp * wsum wrapping, int32 -> float,
 * (t * s) * fs or t * (s * fs), + bias where there is one, max(lo, v), min(hi, v) unless
 * clamp is false), so the same bits; m: the columns stored. */
static inline void hybrid_row16(__m512i acc, __m512i ws, __m512 wf, bool fz, __m512 fs, __m512 b,
                                bool has_b, bool combined, bool clamp, int32_t zp, float s,
                                __m512 lo, __m512 hi, float *out, __mmask16 m, bool stream) {
  const __m512 vs = _mm512_set1_ps(s);
  __m512 v;
  if (fz) /* wsumf (gemm.h): acc, wsum and zp exact in float, acc - zp * wsum rounded once */
    v = _mm512_fnmadd_ps(_mm512_set1_ps((float)zp), wf, _mm512_cvtepi32_ps(acc));
  else
    v = _mm512_cvtepi32_ps(_mm512_sub_epi32(acc, _mm512_mullo_epi32(_mm512_set1_epi32(zp), ws)));
  v = combined ? _mm512_mul_ps(v, _mm512_mul_ps(vs, fs)) : _mm512_mul_ps(_mm512_mul_ps(v, vs), fs);
  if (has_b) v = _mm512_add_ps(v, b);
  if (clamp) {
    v = _mm512_max_ps(lo, v); /* v < lo ? lo : v */
    v = _mm512_min_ps(hi, v); /* v > hi ? hi : v */
  }
  if (stream && m == 0xFFFF && !((uintptr_t)out & 63))
    _mm512_stream_ps(out, v);
  else
    _mm512_mask_storeu_ps(out, m, v);
}

/* Rows i and i + 1 of the hybrid output (i + 1 may be >= mr: not stored). */
static inline void store_pair_hybrid(size_t i, size_t mr, size_t nc, __m512i a0, __m512i a1,
                                     __m512i b0, __m512i b1, const tfcc_q8_out *o) {
  const struct tfcc_q8_hybrid *h = o->hyb;
  const size_t n0 = o->hyb_n0;
  const __mmask16 m0 = (__mmask16)(nc >= 16 ? 0xFFFFu : (1u << nc) - 1u);
  const __mmask16 m1 = (__mmask16)(nc >= 32 ? 0xFFFFu : nc > 16 ? (1u << (nc - 16)) - 1u : 0u);
  const bool fz = h->wsumf != NULL;
  __m512i ws0 = _mm512_setzero_si512(), ws1 = _mm512_setzero_si512();
  __m512 wf0 = _mm512_setzero_ps(), wf1 = _mm512_setzero_ps();
  if (fz) {
    wf0 = _mm512_maskz_loadu_ps(m0, h->wsumf + n0);
    wf1 = _mm512_maskz_loadu_ps(m1, h->wsumf + n0 + 16);
  } else {
    ws0 = _mm512_maskz_loadu_epi32(m0, h->wsum + n0);
    ws1 = _mm512_maskz_loadu_epi32(m1, h->wsum + n0 + 16);
  }
  __m512 fs0, fs1, bb0 = _mm512_setzero_ps(), bb1 = _mm512_setzero_ps();
  if (h->fscale_stride) {
    fs0 = _mm512_maskz_loadu_ps(m0, h->fscale + n0);
    fs1 = _mm512_maskz_loadu_ps(m1, h->fscale + n0 + 16);
  } else {
    fs0 = fs1 = _mm512_set1_ps(h->fscale[0]);
  }
  if (h->bias) {
    bb0 = _mm512_maskz_loadu_ps(m0, h->bias + n0);
    bb1 = _mm512_maskz_loadu_ps(m1, h->bias + n0 + 16);
  }
  const __m512 lo = _mm512_set1_ps(h->lo), hi = _mm512_set1_ps(h->hi);
  const bool has_b = h->bias != NULL, comb = h->combined;
  /* a linear layer (lo = -inf, hi = +inf): max(lo, v) and min(hi, v) return v for every v, NaN
     included (the second operand where the compare is false), so they are skipped */
  const bool clamp = !(h->lo == -INFINITY && h->hi == INFINITY);
  for (size_t r = i; r < i + 2 && r < mr; r++) {
    const int32_t zp = o->hyb_zp[r * o->hyb_step];
    const float s = o->hyb_scale[r * o->hyb_step];
    float *out = o->hyb_c + r * h->c_stride;
    hybrid_row16(r == i ? a0 : b0, ws0, wf0, fz, fs0, bb0, has_b, comb, clamp, zp, s, lo, hi, out,
                 m0, h->stream == TFCC_Q8_STREAM_ON);
    if (m1)
      hybrid_row16(r == i ? a1 : b1, ws1, wf1, fz, fs1, bb1, has_b, comb, clamp, zp, s, lo, hi,
                   out + 16, m1, h->stream == TFCC_Q8_STREAM_ON);
  }
}

/* Fixed-point requantization of 16 columns: tflite::MultiplyByQuantizedMultiplier exactly.
 * x << left (wrapping); SaturatingRoundingDoublingHighMul: with p = x * m in 64 bits,
 * (p + nudge) / 2^31 truncated is (p + 2^30) >> 31 (arithmetic) for either sign of p, and
 * only x = m = INT32_MIN saturates; RoundingDivideByPOT: (v >> right) + (remainder >
 * (mask >> 1) + (v < 0)). */
typedef struct fixq {
  __m512i m, m_odd, left, right, mask, half_mask;
} fixq;

static inline fixq fixq_load(const tfcc_q8_out *o, size_t col, size_t nc) {
  fixq q;
  const size_t n = nc > col ? nc - col : 0;
  const __mmask16 valid = (__mmask16)(n >= 16 ? 0xFFFFu : (1u << n) - 1u);
  __m512i sh;
  if (o->mult_stride) {
    q.m = _mm512_maskz_loadu_epi32(valid, o->mult + col);
    sh = _mm512_maskz_loadu_epi32(valid, o->shift + col);
  } else {
    q.m = _mm512_set1_epi32(o->mult[0]);
    sh = _mm512_set1_epi32(o->shift[0]);
  }
  const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi32(1);
  q.m_odd = _mm512_srli_epi64(q.m, 32);
  q.left = _mm512_max_epi32(sh, zero);
  q.right = _mm512_max_epi32(_mm512_sub_epi32(zero, sh), zero);
  q.mask = _mm512_sub_epi32(_mm512_sllv_epi32(one, q.right), one);
  q.half_mask = _mm512_srai_epi32(q.mask, 1);
  return q;
}

static inline __m512i fixq_apply(__m512i x, const fixq *q, __m512i zp, __m512i lo, __m512i hi) {
  x = _mm512_sllv_epi32(x, q->left);
  const __m512i half = _mm512_set1_epi64(1ll << 30);
  const __m512i pe = _mm512_srai_epi64(_mm512_add_epi64(_mm512_mul_epi32(x, q->m), half), 31);
  const __m512i po = _mm512_srai_epi64(
      _mm512_add_epi64(_mm512_mul_epi32(_mm512_srli_epi64(x, 32), q->m_odd), half), 31);
  __m512i v = _mm512_mask_blend_epi32((__mmask16)0xAAAA, pe, _mm512_slli_epi64(po, 32));
  const __m512i imin = _mm512_set1_epi32(INT32_MIN);
  const __mmask16 sat = _mm512_cmpeq_epi32_mask(x, imin) & _mm512_cmpeq_epi32_mask(q->m, imin);
  v = _mm512_mask_mov_epi32(v, sat, _mm512_set1_epi32(INT32_MAX));
  const __m512i rem = _mm512_and_si512(v, q->mask);
  const __m512i thr = _mm512_sub_epi32(q->half_mask, _mm512_srai_epi32(v, 31));
  v = _mm512_srav_epi32(v, q->right);
  v = _mm512_mask_add_epi32(v, _mm512_cmpgt_epi32_mask(rem, thr), v, _mm512_set1_epi32(1));
  v = _mm512_add_epi32(v, zp);
  return _mm512_min_epi32(_mm512_max_epi32(v, lo), hi);
}

/* Rows i and i + 1 in fixed point (i + 1 may be >= mr: not stored). */
static inline void store_pair_fixed(size_t i, size_t mr, size_t nc, __m512i a0, __m512i a1,
                                    __m512i b0, __m512i b1, const tfcc_q8_out *o) {
  const fixq q0 = fixq_load(o, 0, nc), q1 = fixq_load(o, 16, nc);
  const __m512i zp = _mm512_set1_epi32(o->zp);
  const __m512i lo = _mm512_set1_epi32(o->act_min), hi = _mm512_set1_epi32(o->act_max);
  const __mmask16 m0 = (__mmask16)(nc >= 16 ? 0xFFFFu : (1u << nc) - 1u);
  const __mmask16 m1 = (__mmask16)(nc >= 32 ? 0xFFFFu : nc > 16 ? (1u << (nc - 16)) - 1u : 0u);
  uint8_t *c = o->c + i * o->c_stride;
  _mm_mask_storeu_epi8(c, m0, _mm512_cvtepi32_epi8(fixq_apply(a0, &q0, zp, lo, hi)));
  _mm_mask_storeu_epi8(c + 16, m1, _mm512_cvtepi32_epi8(fixq_apply(a1, &q1, zp, lo, hi)));
  if (i + 1 >= mr) return;
  c += o->c_stride;
  _mm_mask_storeu_epi8(c, m0, _mm512_cvtepi32_epi8(fixq_apply(b0, &q0, zp, lo, hi)));
  _mm_mask_storeu_epi8(c + 16, m1, _mm512_cvtepi32_epi8(fixq_apply(b1, &q1, zp, lo, hi)));
}

#endif
