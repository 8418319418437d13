/* q8 depthwise micro-kernel, AVX2 (dwconv_body.h): 16 channels per step, taps in pairs. The
 * pack (tfcc_q8_dw_w16) stores the int16 weights w' of taps 2p and 2p + 1 interleaved per
 * channel in tap row p (an odd last tap has a zero partner). Per pair the two taps' 16 input
 * bytes are interleaved (punpcklbw / punpckhbw), widened to int16 and meet the weights in
 * vpmaddwd: x_t * w'_t + x_t+1 * w'_t+1 per channel, exact in int32 (|x| <= 255,
 * |w'| <= 255), two useful products per lane. The channel tail goes through a zero-padded
 * copy. Epilogue as tfcc_requant_fp32 (cvtps2dq rounds half to even), 16 channels at once.
 * The fixed-point requantization of a pixel's int32 sums (tfcc_q8_dw_rq_fixed_fn) runs
 * tfcc_mbqm 8 lanes at a time. */
#include <immintrin.h>
#include <string.h>

#include "kernels/q8-dwconv/ukernels.h"
#include "kernels/ref/conv_acc.h"

#define Q8DW_N 16
typedef struct q8dw_acc {
  __m256i a0, a1; /* channels 0..7, 8..15 */
} q8dw_acc;

static inline __m128i load16(const uint8_t *p, size_t n) {
  if (n >= 16) return _mm_loadu_si128((const __m128i *)(const void *)p);
  uint8_t tmp[16] = {0};
  memcpy(tmp, p, n);
  return _mm_loadu_si128((const __m128i *)(const void *)tmp);
}

static inline __m256i widen16(__m128i b, bool is_signed) {
  return is_signed ? _mm256_cvtepi8_epi16(b) : _mm256_cvtepu8_epi16(b);
}

/* taps at xa and xb (n channels, 16 or fewer) against the pair's weights at wt */
static inline void pair(const uint8_t *xa, const uint8_t *xb, size_t n, const int16_t *wt,
                        bool is_signed, __m256i *a0, __m256i *a1) {
  const __m128i va = load16(xa, n), vb = load16(xb, n);
  const __m256i x0 = widen16(_mm_unpacklo_epi8(va, vb), is_signed);
  const __m256i x1 = widen16(_mm_unpackhi_epi8(va, vb), is_signed);
  *a0 = _mm256_add_epi32(
      *a0, _mm256_madd_epi16(x0, _mm256_loadu_si256((const __m256i *)(const void *)wt)));
  *a1 = _mm256_add_epi32(
      *a1, _mm256_madd_epi16(x1, _mm256_loadu_si256((const __m256i *)(const void *)(wt + 16))));
}

/* The taps in pairs (pair p's weights 2 * c16 int16 after pair p - 1's), an odd last tap with
 * itself (its partner's weights are zero); four accumulators. */
static inline q8dw_acc sum_n(const int32_t *bias, const uint8_t *const *taps, size_t ntaps,
                             size_t ch, size_t n, const int32_t *w, size_t c16, bool is_signed) {
  __m256i a0 = _mm256_loadu_si256((const __m256i *)(const void *)bias);
  __m256i a1 = _mm256_loadu_si256((const __m256i *)(const void *)(bias + 8));
  __m256i b0 = _mm256_setzero_si256(), b1 = _mm256_setzero_si256();
  const int16_t *wt = (const int16_t *)(const void *)w;
  const size_t wstep = 2 * c16;
  size_t t = 0;
  for (; t + 4 <= ntaps; t += 4, wt += 2 * wstep) {
    pair(taps[t] + ch, taps[t + 1] + ch, n, wt, is_signed, &a0, &a1);
    pair(taps[t + 2] + ch, taps[t + 3] + ch, n, wt + wstep, is_signed, &b0, &b1);
  }
  if (t + 2 <= ntaps) {
    pair(taps[t] + ch, taps[t + 1] + ch, n, wt, is_signed, &a0, &a1);
    t += 2, wt += wstep;
  }
  if (t < ntaps) pair(taps[t] + ch, taps[t] + ch, n, wt, is_signed, &b0, &b1);
  const q8dw_acc r = {_mm256_add_epi32(a0, b0), _mm256_add_epi32(a1, b1)};
  return r;
}

static inline q8dw_acc q8dw_sum(const int32_t *bias, const uint8_t *const *taps, size_t ntaps,
                                size_t ch, size_t n, const int32_t *w, size_t c16, bool is_signed) {
  if (n >= 16) return sum_n(bias, taps, ntaps, ch, 16, w, c16, is_signed);
  return sum_n(bias, taps, ntaps, ch, n, w, c16, is_signed);
}

static inline void q8dw_store32(int32_t *c32, q8dw_acc acc) {
  _mm256_storeu_si256((__m256i *)(void *)c32, acc.a0);
  _mm256_storeu_si256((__m256i *)(void *)(c32 + 8), acc.a1);
}

static inline __m256i requant8(__m256i acc, const float *scale, __m256 lo, __m256 hi) {
  const __m256 f = _mm256_mul_ps(_mm256_cvtepi32_ps(acc), _mm256_loadu_ps(scale));
  return _mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(f, lo), hi));
}

/* The 16 channels' bytes: each value in [lo, hi] (integers, within int16) narrowed exactly to
 * int16, + zp, and its low byte stored (tfcc_requant_fp32's truncation), min(n, 16) of them. */
static inline void q8dw_requant(uint8_t *c, q8dw_acc acc, const float *scale, float lo, float hi,
                                int32_t zp, size_t n) {
  const __m256 vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
  const __m256i v0 = requant8(acc.a0, scale, vlo, vhi), v1 = requant8(acc.a1, scale + 8, vlo, vhi);
  /* packs: qwords v0[0..3], v1[0..3], v0[4..7], v1[4..7]; permute to channel order */
  __m256i v = _mm256_permute4x64_epi64(_mm256_packs_epi32(v0, v1), 0xD8);
  v = _mm256_and_si256(_mm256_add_epi16(v, _mm256_set1_epi16((int16_t)zp)),
                       _mm256_set1_epi16(0xFF));
  const __m128i b = _mm_packus_epi16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  if (n >= 16) {
    _mm_storeu_si128((__m128i *)(void *)c, b);
    return;
  }
  uint8_t tmp[16];
  _mm_storeu_si128((__m128i *)(void *)tmp, b);
  memcpy(c, tmp, n);
}

/* 3x3 window at stride 1 or 2, dilation 1 (a run's taps: 3 rows of 3 adjacent pixels, step
 * c or 2c). The tap pairs are formed from widened input columns (16 channels each, widened
 * once) by vpunpcklwd / vpunpckhwd, and each interleaved pair is built once and used by every
 * pixel that reads it, with that pixel's weights: per column j, V_j = (row 0, row 1) of
 * column j and H_j = (row 2 of column j, row 2 of column j + 1). At stride 1 pixel i takes
 * V_i, V_i+1, V_i+2 with weights (w0x, w1x), H_i with (w20, w21) and H_i+1 with (0, w22): per
 * pixel 3 widenings and 4 unpacks (one new column). At stride 2 pixel i takes V_2i, V_2i+1,
 * V_2i+2, H_2i-1 with (0, w20) and H_2i+1 with (w21, w22): 6 widenings and 6 unpacks (two
 * new columns; the run's first H_-1 is (z_0, z_0)). The pair loop takes 20 shuffles per pixel
 * and 16 channels. The weight pairs are made from the packed ones (taps 2p, 2p + 1) once per
 * 16-channel group and run; the unpacks put channels 0-3, 8-11 in one accumulator and 4-7,
 * 12-15 in the other, so weights, biases and scales are permuted the same way, and packssdw
 * of the two restores channel order. Full 16-channel groups; returns how many channels it
 * wrote (0: not this case). Same int32 sums (exact products, wrapping adds) and
 * requantization as q8dw_sum / q8dw_requant. */
static inline __attribute__((always_inline)) __m256i col16(const uint8_t *p, bool is_signed) {
  return widen16(_mm_loadu_si128((const __m128i *)(const void *)p), is_signed);
}

static inline __m256i load8(const int32_t *p) {
  return _mm256_loadu_si256((const __m256i *)(const void *)p);
}

typedef struct p16 { /* an interleaved pair: channels 0-3, 8-11 (l) and 4-7, 12-15 (h) */
  __m256i l, h;
} p16;

static inline p16 ilv(__m256i a, __m256i b) {
  const p16 r = {_mm256_unpacklo_epi16(a, b), _mm256_unpackhi_epi16(a, b)};
  return r;
}

static inline p16 lanes(__m256i a, __m256i b) { /* channels 0-7 in a, 8-15 in b */
  const p16 r = {_mm256_permute2x128_si256(a, b, 0x20), _mm256_permute2x128_si256(a, b, 0x31)};
  return r;
}

/* one 16-channel group's weight pairs (V_0, V_1, V_2, then the two H), bias and scales in the
 * unpack's lane order, and the epilogue's constants */
typedef struct w3x3 {
  p16 w[5], b;
  __m256 sl, sh, lo, hi;
  __m256i zp, ff;
} w3x3;

/* The pairs from the packed rows R_p = (w_2p, w_2p+1) int16 per channel: taps (r, x) are
 * w_3r+x; R0 (w00, w01), R1 (w02, w10), R2 (w11, w12), R3 (w20, w21), R4 (w22, 0). */
static inline void weights3x3(w3x3 *w, const int32_t *pw, size_t c16, size_t ch, bool s2) {
  __m256i r[5][2];
  for (size_t p = 0; p < 5; p++)
    for (size_t k = 0; k < 2; k++) r[p][k] = load8(pw + (2 + p) * c16 + ch + 8 * k);
  __m256i v[5][2];
  for (size_t k = 0; k < 2; k++) {
    v[0][k] = _mm256_blend_epi16(r[0][k], r[1][k], 0xAA); /* (w00, w10) */
    v[1][k] = _mm256_blend_epi16(_mm256_srli_epi32(r[0][k], 16), _mm256_slli_epi32(r[2][k], 16),
                                 0xAA);                   /* (w01, w11) */
    v[2][k] = _mm256_blend_epi16(r[1][k], r[2][k], 0xAA); /* (w02, w12) */
    if (s2) {
      v[3][k] = _mm256_slli_epi32(r[3][k], 16); /* (0, w20) */
      v[4][k] = _mm256_blend_epi16(_mm256_srli_epi32(r[3][k], 16), _mm256_slli_epi32(r[4][k], 16),
                                   0xAA); /* (w21, w22) */
    } else {
      v[3][k] = r[3][k];                        /* (w20, w21) */
      v[4][k] = _mm256_slli_epi32(r[4][k], 16); /* (0, w22) */
    }
  }
  for (size_t p = 0; p < 5; p++) w->w[p] = lanes(v[p][0], v[p][1]);
  w->b = lanes(load8(pw + ch), load8(pw + ch + 8));
  const p16 sc = lanes(load8(pw + c16 + ch), load8(pw + c16 + ch + 8));
  w->sl = _mm256_castsi256_ps(sc.l), w->sh = _mm256_castsi256_ps(sc.h);
}

static inline __m256i madd2(__m256i acc, __m256i x, __m256i w) {
  return _mm256_add_epi32(acc, _mm256_madd_epi16(x, w));
}

/* One pixel from its 5 pairs (against w->w[0..4]), 16 bytes to out. */
static inline __attribute__((always_inline)) void px3x3(const w3x3 *w, p16 v0, p16 v1, p16 v2,
                                                        p16 ha, p16 hb, uint8_t *out) {
  __m256i al = madd2(w->b.l, v0.l, w->w[0].l), ah = madd2(w->b.h, v0.h, w->w[0].h);
  __m256i cl = _mm256_madd_epi16(v1.l, w->w[1].l), chh = _mm256_madd_epi16(v1.h, w->w[1].h);
  al = madd2(al, v2.l, w->w[2].l), ah = madd2(ah, v2.h, w->w[2].h);
  cl = madd2(cl, ha.l, w->w[3].l), chh = madd2(chh, ha.h, w->w[3].h);
  al = madd2(al, hb.l, w->w[4].l), ah = madd2(ah, hb.h, w->w[4].h);
  al = _mm256_add_epi32(al, cl);
  ah = _mm256_add_epi32(ah, chh);
  const __m256i vl = _mm256_cvtps_epi32(
      _mm256_min_ps(_mm256_max_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(al), w->sl), w->lo), w->hi));
  const __m256i vh = _mm256_cvtps_epi32(
      _mm256_min_ps(_mm256_max_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(ah), w->sh), w->lo), w->hi));
  const __m256i v = _mm256_and_si256(_mm256_add_epi16(_mm256_packs_epi32(vl, vh), w->zp), w->ff);
  _mm_storeu_si128((__m128i *)(void *)out,
                   _mm_packus_epi16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1)));
}

static inline __attribute__((always_inline)) size_t run3x3(size_t c, size_t ntaps,
                                                           const uint8_t *const *taps,
                                                           const int32_t *pw, const tfcc_q8_out *o,
                                                           size_t n, size_t step, bool is_signed) {
  if (ntaps != 9 || (step != c && step != 2 * c) || c < 16) return 0;
  for (size_t t = 0; t < 9; t += 3)
    if (taps[t + 1] != taps[t] + c || taps[t + 2] != taps[t] + 2 * c) return 0;
  const size_t c16 = (c + 15) & ~(size_t)15;
  const bool s2 = step != c;
  w3x3 w;
  w.lo = _mm256_set1_ps(o->lo), w.hi = _mm256_set1_ps(o->hi);
  w.zp = _mm256_set1_epi16((int16_t)o->zp), w.ff = _mm256_set1_epi16(0xFF);
  const size_t groups = c / 16;
  for (size_t gi = 0; gi < groups; gi++) {
    const size_t ch = gi * 16;
    weights3x3(&w, pw, c16, ch, s2);
    const uint8_t *r0 = taps[0] + ch, *r1 = taps[3] + ch, *r2 = taps[6] + ch;
    uint8_t *out = o->c + ch;
    p16 v0 = ilv(col16(r0, is_signed), col16(r1, is_signed));
    __m256i z0 = col16(r2, is_signed);
    if (!s2) { /* pixel i reads columns i..i + 2: one new column per pixel */
      const __m256i z1 = col16(r2 + c, is_signed);
      p16 v1 = ilv(col16(r0 + c, is_signed), col16(r1 + c, is_signed)), h0 = ilv(z0, z1);
      z0 = z1; /* the last column's row 2 */
      for (size_t i = 0, off = 2 * c; i < n; i++, off += c, out += c) {
        const __m256i z2 = col16(r2 + off, is_signed);
        const p16 v2 = ilv(col16(r0 + off, is_signed), col16(r1 + off, is_signed));
        const p16 h1 = ilv(z0, z2);
        px3x3(&w, v0, v1, v2, h0, h1, out);
        v0 = v1, v1 = v2, h0 = h1, z0 = z2;
      }
      continue;
    }
    /* stride 2: pixel i reads columns 2i..2i + 2; V_2i and H_2i-1 from pixel i - 1 */
    p16 hm = ilv(z0, z0);
    for (size_t i = 0, off = c; i < n; i++, off += 2 * c, out += c) {
      const __m256i z1 = col16(r2 + off, is_signed), z2 = col16(r2 + off + c, is_signed);
      const p16 v1 = ilv(col16(r0 + off, is_signed), col16(r1 + off, is_signed));
      const p16 v2 = ilv(col16(r0 + off + c, is_signed), col16(r1 + off + c, is_signed));
      const p16 hp = ilv(z1, z2);
      px3x3(&w, v0, v1, v2, hm, hp, out);
      v0 = v2, hm = hp;
    }
  }
  return groups * 16;
}

#define Q8DW_RUN_FAST run3x3
#define Q8DW_FN_S tfcc_q8_dw_s_avx2
#define Q8DW_FN_U tfcc_q8_dw_u_avx2
#define Q8DW_RUN_S tfcc_q8_dw_run_s_avx2
#define Q8DW_RUN_U tfcc_q8_dw_run_u_avx2
#include "kernels/q8-dwconv/dwconv_body.h"

/* tfcc_requant32(acc[ch], 0, r, ch) for ch < c: x << max(s, 0) (wrapping), the doubling high
 * product as (x * m + 2^30) >> 31 (vpmuldq on the even and the odd lanes), the rounding
 * division by 2^max(-s, 0) with per-lane shifts (vpsravd), + zp, clamped, the low bytes. Lanes
 * outside what that takes (m = INT32_MIN, s outside [-31, 30]) and the single-rounding mode go
 * through tfcc_requant32. */
void tfcc_q8_dw_rq_fixed_avx2(const int32_t *acc, size_t c, const tfcc_conv_requant *r,
                              uint8_t *out) {
  size_t ch = 0;
  if (!r->single_round && !r->scale && r->mult && r->shift) {
    const __m256i one = _mm256_set1_epi32(1), zero = _mm256_setzero_si256();
    const __m256i zp = _mm256_set1_epi32(r->output_offset);
    const __m256i lo = _mm256_set1_epi32(r->act_min), hi = _mm256_set1_epi32(r->act_max);
    const __m256i smin = _mm256_set1_epi32(-31), smax = _mm256_set1_epi32(30);
    const __m256i mmin = _mm256_set1_epi32(INT32_MIN), half = _mm256_set1_epi64x(1LL << 30);
    const __m256i low_bytes =
        _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8, 12,
                         -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    const bool per_ch = r->mult_stride != 0;
    for (; ch + 8 <= c; ch += 8) {
      const __m256i m = per_ch ? _mm256_loadu_si256((const __m256i *)(const void *)(r->mult + ch))
                               : _mm256_set1_epi32(r->mult[0]);
      const __m256i s = per_ch ? _mm256_loadu_si256((const __m256i *)(const void *)(r->shift + ch))
                               : _mm256_set1_epi32(r->shift[0]);
      const __m256i bad = _mm256_or_si256(
          _mm256_cmpeq_epi32(m, mmin),
          _mm256_or_si256(_mm256_cmpgt_epi32(s, smax), _mm256_cmpgt_epi32(smin, s)));
      if (!_mm256_testz_si256(bad, bad)) break;
      const __m256i left = _mm256_max_epi32(s, zero);
      const __m256i right = _mm256_max_epi32(_mm256_sub_epi32(zero, s), zero);
      const __m256i x =
          _mm256_sllv_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(acc + ch)), left);
      const __m256i pe = _mm256_add_epi64(_mm256_mul_epi32(x, m), half);
      const __m256i po = _mm256_add_epi64(
          _mm256_mul_epi32(_mm256_srli_epi64(x, 32), _mm256_srli_epi64(m, 32)), half);
      /* bits 31..62 of each lane's 64-bit sum */
      const __m256i v =
          _mm256_blend_epi32(_mm256_srli_epi64(pe, 31), _mm256_slli_epi64(po, 1), 0xAA);
      const __m256i mask = _mm256_sub_epi32(_mm256_sllv_epi32(one, right), one);
      const __m256i rem = _mm256_and_si256(v, mask);
      const __m256i thr = _mm256_sub_epi32(_mm256_srli_epi32(mask, 1), _mm256_srai_epi32(v, 31));
      __m256i q = _mm256_sub_epi32(_mm256_srav_epi32(v, right), _mm256_cmpgt_epi32(rem, thr));
      q = _mm256_min_epi32(_mm256_max_epi32(_mm256_add_epi32(q, zp), lo), hi);
      const __m256i b = _mm256_shuffle_epi8(q, low_bytes);
      const uint32_t b0 = (uint32_t)_mm256_extract_epi32(b, 0);
      const uint32_t b1 = (uint32_t)_mm256_extract_epi32(b, 4);
      memcpy(out + ch, &b0, 4);
      memcpy(out + ch + 4, &b1, 4);
    }
  }
  for (; ch < c; ch++) out[ch] = (uint8_t)tfcc_requant32(acc[ch], 0, r, (int32_t)ch);
}
