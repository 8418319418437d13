/* q8 depthwise row kernel, AVX512-VNNI: one output row per call, 64 channels at a time (the
 * last block masked). Pass 1 builds, for every input column of the row's window, the column
 * quads of filter rows 4q..4q+3 (two byte and two word unpacks per 4 rows); pass 2 runs each
 * output pixel as filter_w x filter_h/4 x 4 vpdpbusd against the packed weight quads. See
 * dwconv.h for the arithmetic and the lane order. Epilogue as tfcc_requant_fp32 (cvtdq2ps,
 * mul, max/min, cvtps2dq rounding half to even), then saturating packs that restore the
 * channel order (exact: values are already in range) and + zp; fixed-point mode is the
 * reference's tfcc_requant32 (tfcc_mbqm) lane by lane. */
#include <immintrin.h>

#include "kernels/q8-dwconv/ukernels.h"

#define CB 64

static inline __mmask64 block_mask(size_t n) {
  return n >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << n) - 1);
}

/* Column quads of input columns [ix_lo, ix_lo + ncols) into cols (ncols x nq x 4 vectors).
 * Each vector holds P pixels (P = 1: 64 channels from c0; P > 1: pixels ix..ix+P-1, all
 * channels); bytes outside the image hold the zero point. */
static inline __attribute__((always_inline)) void build_cols(const tfcc_q8_dw_row *a, size_t c0,
                                                             __mmask64 m, __m512i flip, __m512i zpv,
                                                             int32_t ix_lo, int32_t ncols,
                                                             const int32_t KH, const int32_t NQ,
                                                             const int32_t P, __m512i *cols) {
  const tfcc_conv_geom *g = a->g;
  const size_t C = (size_t)a->p->c;
  for (int32_t col = 0; col < ncols; col++) {
    const int32_t ix = ix_lo + col;
    const bool inside = ix >= 0 && ix + P <= g->in_w;
    const bool partial = !inside && P > 1 && ix + P > 0 && ix < g->in_w;
    const size_t off = (size_t)ix * C + c0;
    const __m512i zraw = _mm512_set1_epi8((char)a->zp_byte);
    for (int32_t q = 0; q < NQ; q++) {
      __m512i r[4];
      for (int32_t k = 0; k < 4; k++) {
        const int32_t ky = 4 * q + k;
        if (ky >= KH) {
          r[k] = _mm512_setzero_si512();
        } else if (inside && a->rows[ky]) {
          r[k] = _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, a->rows[ky] + off), flip);
        } else if (partial && a->rows[ky]) {
          /* some of the P pixels are padding: load the valid bytes over the zero point (the
           * address may precede the row; masked-off bytes are never accessed) */
          const int32_t p0 = ix < 0 ? -ix : 0, p1 = ix + P > g->in_w ? g->in_w - ix : P;
          const __mmask64 bm = block_mask((size_t)p1 * C) & ~block_mask((size_t)p0 * C);
          const uint8_t *src =
              (const uint8_t *)((uintptr_t)a->rows[ky] + (uintptr_t)(intptr_t)ix * C);
          r[k] = _mm512_xor_si512(_mm512_mask_loadu_epi8(zraw, bm, src), flip);
        } else {
          r[k] = zpv;
        }
      }
      const __m512i lo01 = _mm512_unpacklo_epi8(r[0], r[1]),
                    hi01 = _mm512_unpackhi_epi8(r[0], r[1]);
      const __m512i lo23 = _mm512_unpacklo_epi8(r[2], r[3]),
                    hi23 = _mm512_unpackhi_epi8(r[2], r[3]);
      __m512i *d = cols + ((size_t)col * (size_t)NQ + (size_t)q) * 4;
      _mm512_storeu_si512(d + 0, _mm512_unpacklo_epi16(lo01, lo23));
      _mm512_storeu_si512(d + 1, _mm512_unpackhi_epi16(lo01, lo23));
      _mm512_storeu_si512(d + 2, _mm512_unpacklo_epi16(hi01, hi23));
      _mm512_storeu_si512(d + 3, _mm512_unpackhi_epi16(hi01, hi23));
    }
  }
}

/* tfcc_mbqm(x, qm, shift) + zp clamped to [lo, hi], 16 lanes (left = max(shift, 0),
 * right = max(-shift, 0)). srdhm: (x * qm + nudge) / 2^31 truncated equals
 * (x * qm + 2^30) >> 31 (arithmetic) for both signs; rdbpot rounds half away from zero. */
static inline __m512i requant_fixed(__m512i x, __m512i qm, __m512i left, __m512i right, __m512i zp,
                                    __m512i lo, __m512i hi) {
  const __m512i one = _mm512_set1_epi32(1), rnd = _mm512_set1_epi64((int64_t)1 << 30);
  x = _mm512_sllv_epi32(x, left);
  const __m512i pe = _mm512_srai_epi64(_mm512_add_epi64(_mm512_mul_epi32(x, qm), rnd), 31);
  const __m512i po = _mm512_srai_epi64(
      _mm512_add_epi64(_mm512_mul_epi32(_mm512_srli_epi64(x, 32), _mm512_srli_epi64(qm, 32)), rnd),
      31);
  __m512i s = _mm512_mask_blend_epi32((__mmask16)0xAAAA, pe, _mm512_slli_epi64(po, 32));
  const __m512i imin = _mm512_set1_epi32(INT32_MIN);
  const __mmask16 sat = _mm512_cmpeq_epi32_mask(x, imin) & _mm512_cmpeq_epi32_mask(qm, imin);
  s = _mm512_mask_mov_epi32(s, sat, _mm512_set1_epi32(INT32_MAX));
  const __m512i mask = _mm512_sub_epi32(_mm512_sllv_epi32(one, right), one);
  const __m512i rem = _mm512_and_si512(s, mask);
  const __m512i thr = _mm512_sub_epi32(_mm512_srai_epi32(mask, 1), _mm512_srai_epi32(s, 31));
  __m512i v = _mm512_srav_epi32(s, right);
  v = _mm512_mask_add_epi32(v, _mm512_cmpgt_epi32_mask(rem, thr), v, one);
  v = _mm512_add_epi32(v, zp);
  return _mm512_min_epi32(_mm512_max_epi32(v, lo), hi);
}

/* Hybrid output (dwconv.h, tfcc_q8_dw_hyb): the accumulators start from the packed bias less
 * zp * sum(w) (hyb_bias), so they end as acc; hyb_store writes one pixel's 64-channel block from
 * c0: the four accumulators' 128-bit lanes transposed into channel order, then the float stage
 * with the portable kernel's operations (x86 max(lo, v) is v < lo ? lo : v, min(hi, v) is
 * v > hi ? hi : v) on the block's filter scales fs[k] and biases bb[k] (loaded once). */
static inline __m512i hyb_bias(__m512i b, __m512i zp) {
  /* the packed bias is -128 * sum(w) (the flip's term): sum(w) is its arithmetic shift by 7 */
  return _mm512_add_epi32(b, _mm512_mullo_epi32(zp, _mm512_srai_epi32(b, 7)));
}

static inline __attribute__((always_inline)) void hyb_store(const tfcc_q8_dw_row *a, size_t c0,
                                                            size_t C, int32_t ox, __m512i a0,
                                                            __m512i a1, __m512i a2, __m512i a3,
                                                            const __m512 *fs, const __m512 *bb) {
  const tfcc_q8_dw_hyb *h = a->hyb;
  /* a_j lane L element i is channel 16 L + 4 j + i: channels 16 k.. are lane k of a0..a3 */
  const __m512i t0 = _mm512_shuffle_i32x4(a0, a1, 0x44), t1 = _mm512_shuffle_i32x4(a2, a3, 0x44);
  const __m512i t2 = _mm512_shuffle_i32x4(a0, a1, 0xEE), t3 = _mm512_shuffle_i32x4(a2, a3, 0xEE);
  const __m512i v[4] = {_mm512_shuffle_i32x4(t0, t1, 0x88), _mm512_shuffle_i32x4(t0, t1, 0xDD),
                        _mm512_shuffle_i32x4(t2, t3, 0x88), _mm512_shuffle_i32x4(t2, t3, 0xDD)};
  const __m512 s = _mm512_set1_ps(h->scale), lo = _mm512_set1_ps(h->lo), hi = _mm512_set1_ps(h->hi);
  float *o = a->fout + (size_t)ox * C;
  for (size_t k = 0; k < 4; k++) {
    const size_t c = c0 + 16 * k;
    if (c >= C) break;
    const __mmask16 m = C - c >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (C - c)) - 1u);
    __m512 f = _mm512_mul_ps(_mm512_cvtepi32_ps(v[k]), s);
    f = _mm512_mul_ps(f, fs[k]);
    if (h->bias) f = _mm512_add_ps(f, bb[k]);
    f = _mm512_max_ps(lo, f);
    f = _mm512_min_ps(hi, f);
    _mm512_mask_storeu_ps(o + c, m, f);
  }
}

static inline __attribute__((always_inline)) void row_body(const tfcc_q8_dw_row *a,
                                                           const bool is_signed, const int32_t KH,
                                                           const int32_t KW, const bool multi) {
  const tfcc_conv_geom *g = a->g;
  const tfcc_q8_dw_packed *p = a->p;
  const int32_t NQ = (KH + 3) / 4;
  const size_t C = (size_t)p->c;
  const size_t bstride = (size_t)(4 + NQ * KW) * CB; /* int32 per block */
  const int32_t sw = g->stride_w, dw = g->dil_w;
  const int32_t ix_lo = -g->pad_w;
  const int32_t ncols = (g->out_w - 1) * sw + (KW - 1) * dw + 1;
  const __m512i flip = _mm512_set1_epi8(is_signed ? (char)0x80 : 0);
  const __m512i zpv = _mm512_xor_si512(_mm512_set1_epi8((char)a->zp_byte), flip);
  const __m512 lo = _mm512_set1_ps(a->lo), hi = _mm512_set1_ps(a->hi);
  const __m512i zp16 = _mm512_set1_epi16((short)a->zp);
  const __m512i zpi = _mm512_set1_epi32(a->zp);
  const __m512i blo = _mm512_set1_epi8((char)a->r->act_min),
                bhi = _mm512_set1_epi8((char)a->r->act_max);
  const __m512i ilo = _mm512_set1_epi32(a->r->act_min), ihi = _mm512_set1_epi32(a->r->act_max);
  __m512i kzq[TFCC_Q8_DW_MAX_TAPS / 4];
  const bool has_kz = p->kz != 0, fp32 = p->fp32, lt1 = p->scale_lt1;
  for (int32_t q = 0; q < NQ; q++) {
    uint32_t word = 0;
    for (int32_t k = 0; k < 4; k++)
      if (4 * q + k < KH) word |= (uint32_t)(uint8_t)(int8_t)p->kz << (8 * k);
    kzq[q] = _mm512_set1_epi32((int32_t)word);
  }
  __m512i *cols = a->cols;
  /* P pixels per vector: the extra block of channel counts dividing 64, at stride 1 */
  const int32_t P = multi ? (int32_t)(CB / C) : 1;
  const size_t nblk = (C + CB - 1) / CB;
  for (size_t c0 = 0, blk = P > 1 ? nblk : 0; c0<C; c0 += P> 1 ? C : CB, blk++) {
    const __mmask64 m = P > 1 ? ~(__mmask64)0 : block_mask(C - c0);
    const int32_t *pw = p->w + blk * bstride;
    const __m512i *wq = (const __m512i *)(const void *)(pw + 4 * CB);
    build_cols(a, c0, m, flip, zpv, ix_lo, ncols, KH, NQ, P, cols);
    __m512i b0 = _mm512_loadu_si512(pw), b1 = _mm512_loadu_si512(pw + 16);
    __m512i b2 = _mm512_loadu_si512(pw + 32), b3 = _mm512_loadu_si512(pw + 48);
    __m512 hfs[4] = {_mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps(),
                     _mm512_setzero_ps()};
    __m512 hbb[4] = {hfs[0], hfs[0], hfs[0], hfs[0]};
    if (a->hyb) {
      const tfcc_q8_dw_hyb *h = a->hyb;
      const __m512i hz = _mm512_set1_epi32(h->zp);
      b0 = hyb_bias(b0, hz), b1 = hyb_bias(b1, hz), b2 = hyb_bias(b2, hz), b3 = hyb_bias(b3, hz);
      for (size_t k = 0; k < 4; k++) {
        const size_t c = c0 + 16 * k;
        const __mmask16 hm = c >= C        ? 0
                             : C - c >= 16 ? (__mmask16)0xFFFF
                                           : (__mmask16)((1u << (C - c)) - 1u);
        hfs[k] = h->fscale_stride ? _mm512_maskz_loadu_ps(hm, h->fscale + c)
                                  : _mm512_set1_ps(h->fscale[0]);
        hbb[k] = h->bias ? _mm512_maskz_loadu_ps(hm, h->bias + c) : _mm512_setzero_ps();
      }
    }
    const float *sc = (const float *)(const void *)(pw + CB);
    const __m512 s0 = _mm512_loadu_ps(sc), s1 = _mm512_loadu_ps(sc + 16);
    const __m512 s2 = _mm512_loadu_ps(sc + 32), s3 = _mm512_loadu_ps(sc + 48);
    const __m512i zero = _mm512_setzero_si512();
    const __m512i qm0 = _mm512_loadu_si512(pw + 128), qm1 = _mm512_loadu_si512(pw + 144);
    const __m512i qm2 = _mm512_loadu_si512(pw + 160), qm3 = _mm512_loadu_si512(pw + 176);
    const __m512i sh0 = _mm512_loadu_si512(pw + 192), sh1 = _mm512_loadu_si512(pw + 208);
    const __m512i sh2 = _mm512_loadu_si512(pw + 224), sh3 = _mm512_loadu_si512(pw + 240);
    const __m512i l0 = _mm512_max_epi32(sh0, zero),
                  r0 = _mm512_max_epi32(_mm512_sub_epi32(zero, sh0), zero);
    const __m512i l1 = _mm512_max_epi32(sh1, zero),
                  r1 = _mm512_max_epi32(_mm512_sub_epi32(zero, sh1), zero);
    const __m512i l2 = _mm512_max_epi32(sh2, zero),
                  r2 = _mm512_max_epi32(_mm512_sub_epi32(zero, sh2), zero);
    const __m512i l3 = _mm512_max_epi32(sh3, zero),
                  r3 = _mm512_max_epi32(_mm512_sub_epi32(zero, sh3), zero);
    for (int32_t ox = 0; ox < g->out_w; ox += P) {
      const __mmask64 mo =
          P > 1 ? block_mask((size_t)(g->out_w - ox < P ? g->out_w - ox : P) * C) : m;
      __m512i a0 = b0, a1 = b1, a2 = b2, a3 = b3;
      for (int32_t kx = 0; kx < KW; kx++) {
        const __m512i *cq = cols + (size_t)(ox * sw + kx * dw) * (size_t)NQ * 4;
        for (int32_t q = 0; q < NQ; q++) {
          const __m512i *w = wq + ((size_t)q * (size_t)KW + (size_t)kx) * 4;
          const __m512i x0 = _mm512_loadu_si512(cq + 4 * q),
                        x1 = _mm512_loadu_si512(cq + 4 * q + 1);
          const __m512i x2 = _mm512_loadu_si512(cq + 4 * q + 2),
                        x3 = _mm512_loadu_si512(cq + 4 * q + 3);
          a0 = _mm512_dpbusd_epi32(a0, x0, _mm512_loadu_si512(w));
          a1 = _mm512_dpbusd_epi32(a1, x1, _mm512_loadu_si512(w + 1));
          a2 = _mm512_dpbusd_epi32(a2, x2, _mm512_loadu_si512(w + 2));
          a3 = _mm512_dpbusd_epi32(a3, x3, _mm512_loadu_si512(w + 3));
          if (has_kz) {
            a0 = _mm512_dpbusd_epi32(a0, x0, kzq[q]);
            a1 = _mm512_dpbusd_epi32(a1, x1, kzq[q]);
            a2 = _mm512_dpbusd_epi32(a2, x2, kzq[q]);
            a3 = _mm512_dpbusd_epi32(a3, x3, kzq[q]);
          }
        }
      }
      if (a->hyb) {
        hyb_store(a, c0, C, ox, a0, a1, a2, a3, hfs, hbb);
        continue;
      }
      uint8_t *o = a->out + (size_t)ox * C + c0;
      if (!fp32) {
        const __m512i v0 = requant_fixed(a0, qm0, l0, r0, zpi, ilo, ihi);
        const __m512i v1 = requant_fixed(a1, qm1, l1, r1, zpi, ilo, ihi);
        const __m512i v2 = requant_fixed(a2, qm2, l2, r2, zpi, ilo, ihi);
        const __m512i v3 = requant_fixed(a3, qm3, l3, r3, zpi, ilo, ihi);
        const __m512i p01 = _mm512_packs_epi32(v0, v1), p23 = _mm512_packs_epi32(v2, v3);
        const __m512i bytes =
            is_signed ? _mm512_packs_epi16(p01, p23) : _mm512_packus_epi16(p01, p23);
        _mm512_mask_storeu_epi8(o, mo, bytes);
        continue;
      }
      __m512 f0 = _mm512_mul_ps(_mm512_cvtepi32_ps(a0), s0);
      __m512 f1 = _mm512_mul_ps(_mm512_cvtepi32_ps(a1), s1);
      __m512 f2 = _mm512_mul_ps(_mm512_cvtepi32_ps(a2), s2);
      __m512 f3 = _mm512_mul_ps(_mm512_cvtepi32_ps(a3), s3);
      if (!lt1) { /* |f| may reach 2^31: clamp before converting */
        f0 = _mm512_min_ps(_mm512_max_ps(f0, lo), hi);
        f1 = _mm512_min_ps(_mm512_max_ps(f1, lo), hi);
        f2 = _mm512_min_ps(_mm512_max_ps(f2, lo), hi);
        f3 = _mm512_min_ps(_mm512_max_ps(f3, lo), hi);
      }
      /* |f| < 2^31: round, saturate (monotonic) and clamp the bytes; rounding commutes with
       * clamping to the integer bounds, so this equals clamp-then-round */
      const __m512i p01 = _mm512_adds_epi16(
          _mm512_packs_epi32(_mm512_cvtps_epi32(f0), _mm512_cvtps_epi32(f1)), zp16);
      const __m512i p23 = _mm512_adds_epi16(
          _mm512_packs_epi32(_mm512_cvtps_epi32(f2), _mm512_cvtps_epi32(f3)), zp16);
      const __m512i bytes =
          is_signed ? _mm512_min_epi8(_mm512_max_epi8(_mm512_packs_epi16(p01, p23), blo), bhi)
                    : _mm512_min_epu8(_mm512_max_epu8(_mm512_packus_epi16(p01, p23), blo), bhi);
      _mm512_mask_storeu_epi8(o, mo, bytes);
    }
  }
}

static inline void row_dispatch(const tfcc_q8_dw_row *a, const bool is_signed) {
  const int32_t KH = a->g->filter_h, KW = a->g->filter_w;
  const bool multi = a->p->rep && a->g->stride_w == 1 && !a->hyb;
  if (KH == 3 && KW == 3) {
    if (multi)
      row_body(a, is_signed, 3, 3, true);
    else
      row_body(a, is_signed, 3, 3, false);
  } else if (KH == 5 && KW == 5) {
    if (multi)
      row_body(a, is_signed, 5, 5, true);
    else
      row_body(a, is_signed, 5, 5, false);
  } else {
    row_body(a, is_signed, KH, KW, multi);
  }
}

void tfcc_q8_dw_row_s_avx512vnni(const tfcc_q8_dw_row *a) { row_dispatch(a, true); }
void tfcc_q8_dw_row_u_avx512vnni(const tfcc_q8_dw_row *a) { row_dispatch(a, false); }
