/* Portable body of the fast hybrid depthwise convolution (dwconv.h), included by the per-ISA
 * files with TFCC_HD_ISA (name suffix) defined: GCC / Clang vectors of 16 int32 lanes (one
 * AVX-512 register; the scalar build's generic vectors). AVX2 has its own intrinsics kernel
 * (dwconv-avx2.c): built for AVX2 these vectors, two registers each, stayed on the stack. Depth multiplier 1; the input comes
 * quantized and centered (int16 q - zp, half the bytes of int32), widened to int32 at load,
 * and the filter widened to int32, so that the tap loop is plain 32-bit multiply-adds. Per output pixel the taps inside the image are listed once,
 * then each block of 64 channels accumulates over them (exact, so any order) and goes
 * through the builtin kernel's float order, one statement per step (no contraction into a
 * fused multiply-add):
 *   out = clamp(((float)acc * scale) * fscale[c] + bias[c], lo, hi). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernels/hybrid/dwconv.h"

#if defined(__AVX512F__) || defined(__AVX2__)
#include <immintrin.h>
#endif

#define HD_CAT2(a, b) a##b
#define HD_CAT(a, b) HD_CAT2(a, b)

typedef int32_t hd_i __attribute__((vector_size(64)));
typedef float hd_f __attribute__((vector_size(64)));
typedef int16_t hd_h __attribute__((vector_size(32)));

/* 16 int16 values from p, sign-extended to int32 into *r (one load-and-extend instruction
 * where the build has it; the generic conversion splits the vector in halves first). */
static inline __attribute__((always_inline)) void HD_CAT(hd_widen_, TFCC_HD_ISA)(const int16_t *p,
                                                                                 hd_i *r) {
#if defined(__AVX512F__)
  const __m512i v = _mm512_cvtepi16_epi32(_mm256_loadu_si256((const __m256i *)(const void *)p));
  memcpy(r, &v, sizeof *r);
#elif defined(__AVX2__)
  const __m256i v[2] = {
      _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(const void *)p)),
      _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(const void *)(p + 8)))};
  memcpy(r, v, sizeof *r);
#else
  hd_h h;
  memcpy(&h, p, sizeof h);
  *r = __builtin_convertvector(h, hd_i);
#endif
}

/* Output pixels in a row at once where their taps are all inside the image (the filter
 * loaded once per tap for them all): HD_PX of them (set by the ISA file; 1 where the
 * accumulators would not fit in registers). */
#ifndef HD_PX
#define HD_PX 1
#endif

/* 16 * nb channels (nb = 4, or 1 for the last ones) from channel 0 of x, w, fs, b and o, for
 * np <= HD_PX output pixels whose inputs lie sx elements apart (the outputs C apart). */
static inline __attribute__((always_inline)) void HD_CAT(hd_block_, TFCC_HD_ISA)(
    int np, size_t sx, size_t C, int nb, const int16_t *x, const int32_t *w, const size_t *xoff,
    const size_t *woff, int32_t ntaps, float scale, const float *fs, size_t fs_stride,
    const float *b, float lo, float hi, float *o) {
  hd_i acc[HD_PX][4];
  for (int p = 0; p < np; p++)
    for (int u = 0; u < nb; u++) acc[p][u] = (hd_i){0};
  for (int32_t t = 0; t < ntaps; t++) {
    const int16_t *xt = x + xoff[t];
    const int32_t *wt = w + woff[t];
    hd_i wv[4];
    for (int u = 0; u < nb; u++) memcpy(&wv[u], wt + 16 * u, sizeof wv[u]);
    for (int p = 0; p < np; p++)
      for (int u = 0; u < nb; u++) {
        hd_i xv;
        HD_CAT(hd_widen_, TFCC_HD_ISA)(xt + (size_t)p * sx + 16 * u, &xv);
        acc[p][u] += xv * wv[u];
      }
  }
  const hd_f vlo = (hd_f){0} + lo, vhi = (hd_f){0} + hi;
  for (int u = 0; u < nb; u++) {
    hd_f f, bb = {0};
    if (fs_stride)
      memcpy(&f, fs + 16 * u, sizeof f);
    else
      f = (hd_f){0} + fs[0];
    if (b) memcpy(&bb, b + 16 * u, sizeof bb);
    for (int p = 0; p < np; p++) {
      const hd_f s = __builtin_convertvector(acc[p][u], hd_f) * scale;
      hd_f v = s * f;
      if (b) v = v + bb;
      hd_i m = v < vlo;
      v = (hd_f)((m & (hd_i)vlo) | (~m & (hd_i)v));
      m = v > vhi;
      v = (hd_f)((m & (hd_i)vhi) | (~m & (hd_i)v));
      memcpy(o + (size_t)p * C + 16 * u, &v, sizeof v);
    }
  }
}

/* Fewer than 16 channels, one at a time. */
static void HD_CAT(hd_tail_, TFCC_HD_ISA)(size_t nc, const int16_t *x, const int32_t *w,
                                          const size_t *xoff, const size_t *woff, int32_t ntaps,
                                          float scale, const float *fs, size_t fs_stride,
                                          const float *b, float lo, float hi, float *o) {
  for (size_t j = 0; j < nc; j++) {
    int32_t acc = 0;
    for (int32_t t = 0; t < ntaps; t++) acc += x[xoff[t] + j] * w[woff[t] + j];
    const float s = (float)acc * scale;
    float v = s * fs[j * fs_stride];
    if (b) v = v + b[j];
    v = v < lo ? lo : v;
    v = v > hi ? hi : v;
    o[j] = v;
  }
}

void HD_CAT(tfcc_hyb_dwconv_fast_, TFCC_HD_ISA)(const tfcc_conv_geom *g, const int16_t *x,
                                                float scale, const int32_t *w, const float *fscale,
                                                size_t fscale_stride, const float *bias, float lo,
                                                float hi, float *out, int32_t oy0, int32_t oy1) {
  const size_t C = (size_t)g->in_c;
  size_t xoff[TFCC_HYB_DW_MAX_TAPS], woff[TFCC_HYB_DW_MAX_TAPS];
  const size_t sx = (size_t)g->stride_w * C; /* one output pixel to the next, in the input */
  const int32_t full = g->filter_h * g->filter_w;
  for (int32_t oy = oy0; oy < oy1; oy++) {
    for (int32_t ox = 0; ox < g->out_w;) {
      int32_t nt = 0;
      for (int32_t ky = 0; ky < g->filter_h; ky++)
        for (int32_t kx = 0; kx < g->filter_w; kx++)
          nt += tfcc_hyb_dw_tap(g, oy, ox, ky, kx, C, C, &xoff[nt], &woff[nt]);
      float *o = out + ((size_t)oy * (size_t)g->out_w + (size_t)ox) * C;
      /* all taps of ox inside, and the last input column of ox + HD_PX - 1 too: those pixels
         have the same taps, sx further */
      const bool group =
          HD_PX > 1 && nt == full && ox + HD_PX <= g->out_w &&
          (ox + HD_PX - 1) * g->stride_w - g->pad_w + (g->filter_w - 1) * g->dil_w < g->in_w;
#define HD_AT(c) \
  x + (c), w + (c), xoff, woff, nt, scale, fscale + (c)*fscale_stride, fscale_stride, \
      bias ? bias + (c) : NULL, lo, hi, o + (c)
      size_t c = 0;
      if (group) {
        for (; c + 64 <= C; c += 64) HD_CAT(hd_block_, TFCC_HD_ISA)(HD_PX, sx, C, 4, HD_AT(c));
        for (; c + 16 <= C; c += 16) HD_CAT(hd_block_, TFCC_HD_ISA)(HD_PX, sx, C, 1, HD_AT(c));
        for (int p = 0; c < C && p < HD_PX; p++) HD_CAT(hd_tail_, TFCC_HD_ISA)
        (C - c, x + (size_t)p * sx + c, w + c, xoff, woff, nt, scale, fscale + c * fscale_stride,
         fscale_stride, bias ? bias + c : NULL, lo, hi, o + (size_t)p * C + c);
        ox += HD_PX;
        continue;
      }
      for (; c + 64 <= C; c += 64) HD_CAT(hd_block_, TFCC_HD_ISA)(1, sx, C, 4, HD_AT(c));
      for (; c + 16 <= C; c += 16) HD_CAT(hd_block_, TFCC_HD_ISA)(1, sx, C, 1, HD_AT(c));
      if (c < C) HD_CAT(hd_tail_, TFCC_HD_ISA)(C - c, HD_AT(c));
#undef HD_AT
      ox++;
    }
  }
}
