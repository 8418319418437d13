/* Fast hybrid depthwise convolution (dwconv.h), AVX2 (hybrid63). The portable body
 * (dwconv_body.h) built for AVX2 kept its 64-byte vectors on the stack (every accumulator and
 * filter vector stored and reloaded per tap, lanes moved through general registers: 41% of the
 * hybrid MobileNetV2 on a Zen 3 in perf); this is the same arithmetic in AVX2 registers. Per
 * output pixel the taps inside the image are listed once; 32 channels of 2 output pixels (8
 * accumulators, the 4 filter vectors of a tap loaded once for both) where both pixels have
 * every tap, else 32 channels of one, then 8 at a time, then one at a time. Each tap is the
 * int16 input q - zp sign-extended to int32 (vpmovsxwd) times the int32 filter (vpmulld),
 * added (exact, so any order); then the builtin kernel's float order, one instruction per step
 * (no fused multiply-add): out = clamp(((float)acc * scale) * fscale[c] + bias[c], lo, hi),
 * the clamps as max(lo, v) and min(hi, v) (v < lo ? lo : v and v > hi ? hi : v, NaN kept). */
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/hybrid/dwconv.h"

/* 8 int16 values from p, sign-extended to int32. */
static inline __m256i ha_x(const int16_t *p) {
  return _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(const void *)p));
}

static inline __m256i ha_w(const int32_t *p) {
  return _mm256_loadu_si256((const __m256i *)(const void *)p);
}

static inline __m256i ha_mac(__m256i acc, const int16_t *x, __m256i w) {
  return _mm256_add_epi32(acc, _mm256_mullo_epi32(ha_x(x), w));
}

/* The output stage of 8 channels (fs and b at the first of them). */
typedef struct ha_out {
  __m256 scale, lo, hi;
  size_t fs_stride;
} ha_out;

static inline void ha_store(const ha_out *s, __m256i acc, const float *fs, const float *b,
                            float *o) {
  const __m256 f = s->fs_stride ? _mm256_loadu_ps(fs) : _mm256_set1_ps(fs[0]);
  __m256 v = _mm256_mul_ps(_mm256_cvtepi32_ps(acc), s->scale);
  v = _mm256_mul_ps(v, f);
  if (b) v = _mm256_add_ps(v, _mm256_loadu_ps(b));
  v = _mm256_max_ps(s->lo, v);
  v = _mm256_min_ps(s->hi, v);
  _mm256_storeu_ps(o, v);
}

/* 32 channels from channel c of np (1 or 2) output pixels whose inputs lie sx elements apart
 * (outputs C apart). */
static inline __attribute__((always_inline)) void ha_block32(
    int np, size_t sx, size_t C, size_t c, const int16_t *x, const int32_t *w, const size_t *xoff,
    const size_t *woff, int32_t nt, const ha_out *s, const float *fs, const float *b, float *o) {
  __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
  __m256i b0 = a0, b1 = a0, b2 = a0, b3 = a0;
  for (int32_t t = 0; t < nt; t++) {
    const int16_t *xt = x + xoff[t] + c;
    const int32_t *wt = w + woff[t] + c;
    const __m256i w0 = ha_w(wt), w1 = ha_w(wt + 8), w2 = ha_w(wt + 16), w3 = ha_w(wt + 24);
    a0 = ha_mac(a0, xt, w0);
    a1 = ha_mac(a1, xt + 8, w1);
    a2 = ha_mac(a2, xt + 16, w2);
    a3 = ha_mac(a3, xt + 24, w3);
    if (np == 2) {
      b0 = ha_mac(b0, xt + sx, w0);
      b1 = ha_mac(b1, xt + sx + 8, w1);
      b2 = ha_mac(b2, xt + sx + 16, w2);
      b3 = ha_mac(b3, xt + sx + 24, w3);
    }
  }
  const size_t fc = s->fs_stride ? c : 0;
  const float *bc = b ? b + c : NULL;
  ha_store(s, a0, fs + fc, bc, o + c);
  ha_store(s, a1, fs + (s->fs_stride ? c + 8 : 0), bc ? bc + 8 : NULL, o + c + 8);
  ha_store(s, a2, fs + (s->fs_stride ? c + 16 : 0), bc ? bc + 16 : NULL, o + c + 16);
  ha_store(s, a3, fs + (s->fs_stride ? c + 24 : 0), bc ? bc + 24 : NULL, o + c + 24);
  if (np == 2) {
    ha_store(s, b0, fs + fc, bc, o + C + c);
    ha_store(s, b1, fs + (s->fs_stride ? c + 8 : 0), bc ? bc + 8 : NULL, o + C + c + 8);
    ha_store(s, b2, fs + (s->fs_stride ? c + 16 : 0), bc ? bc + 16 : NULL, o + C + c + 16);
    ha_store(s, b3, fs + (s->fs_stride ? c + 24 : 0), bc ? bc + 24 : NULL, o + C + c + 24);
  }
}

/* 8 channels from channel c of one output pixel. */
static void ha_block8(size_t c, const int16_t *x, const int32_t *w, const size_t *xoff,
                      const size_t *woff, int32_t nt, const ha_out *s, const float *fs,
                      const float *b, float *o) {
  __m256i a = _mm256_setzero_si256();
  for (int32_t t = 0; t < nt; t++) a = ha_mac(a, x + xoff[t] + c, ha_w(w + woff[t] + c));
  ha_store(s, a, fs + (s->fs_stride ? c : 0), b ? b + c : NULL, o + c);
}

/* Channels [c, C) one at a time (fewer than 8), the portable kernel's statements. */
static void ha_tail(size_t c, size_t C, const int16_t *x, const int32_t *w, const size_t *xoff,
                    const size_t *woff, int32_t nt, float scale, const float *fs, size_t fs_stride,
                    const float *b, float lo, float hi, float *o) {
  for (size_t j = c; j < C; j++) {
    int32_t acc = 0;
    for (int32_t t = 0; t < nt; t++) acc += x[xoff[t] + j] * w[woff[t] + j];
    const float sc = (float)acc * scale;
    float v = sc * fs[j * fs_stride];
    if (b) v = v + b[j];
    v = v < lo ? lo : v;
    v = v > hi ? hi : v;
    o[j] = v;
  }
}

void tfcc_hyb_dwconv_fast_avx2(const tfcc_conv_geom *g, const int16_t *x, float scale,
                               const int32_t *w, const float *fscale, size_t fscale_stride,
                               const float *bias, float lo, float hi, float *out, int32_t oy0,
                               int32_t oy1) {
  const size_t C = (size_t)g->in_c;
  size_t xoff[TFCC_HYB_DW_MAX_TAPS], woff[TFCC_HYB_DW_MAX_TAPS];
  const size_t sx = (size_t)g->stride_w * C; /* one output pixel to the next, in the input */
  const int32_t full = g->filter_h * g->filter_w;
  const ha_out s = {_mm256_set1_ps(scale), _mm256_set1_ps(lo), _mm256_set1_ps(hi), fscale_stride};
  for (int32_t oy = oy0; oy < oy1; oy++) {
    for (int32_t ox = 0; ox < g->out_w;) {
      int32_t nt = 0;
      for (int32_t ky = 0; ky < g->filter_h; ky++)
        for (int32_t kx = 0; kx < g->filter_w; kx++)
          nt += tfcc_hyb_dw_tap(g, oy, ox, ky, kx, C, C, &xoff[nt], &woff[nt]);
      float *o = out + ((size_t)oy * (size_t)g->out_w + (size_t)ox) * C;
      /* all taps of ox inside, and the last input column of ox + 1 too: the two pixels have
         the same taps, sx further */
      const int np =
          nt == full && ox + 2 <= g->out_w &&
                  (ox + 1) * g->stride_w - g->pad_w + (g->filter_w - 1) * g->dil_w < g->in_w
              ? 2
              : 1;
      size_t c = 0;
      if (np == 2)
        for (; c + 32 <= C; c += 32)
          ha_block32(2, sx, C, c, x, w, xoff, woff, nt, &s, fscale, bias, o);
      else
        for (; c + 32 <= C; c += 32)
          ha_block32(1, sx, C, c, x, w, xoff, woff, nt, &s, fscale, bias, o);
      for (int p = 0; p < np; p++) {
        const size_t px = (size_t)p * sx;
        float *op = o + (size_t)p * C;
        size_t cc = c;
        for (; cc + 8 <= C; cc += 8) ha_block8(cc, x + px, w, xoff, woff, nt, &s, fscale, bias, op);
        if (cc < C)
          ha_tail(cc, C, x + px, w, xoff, woff, nt, scale, fscale, fscale_stride, bias, lo, hi, op);
      }
      ox += np;
    }
  }
}
