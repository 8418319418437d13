/* Portable body of the depthwise kernel, included by the per-ISA files that let the compiler
 * vectorise it for their instruction set (define TFCC_DW_FN first). Channels go in blocks of
 * TFCC_DW_CB held in a local accumulator the compiler keeps in vector registers. */
#include <stddef.h>

#include "kernels/f32-dwconv/dwconv.h"

#define TFCC_DW_CB 32

static inline float dw_clamp(float v, float lo, float hi) {
  v = v < lo ? lo : v;
  return v > hi ? hi : v;
}

#ifdef TFCC_DW_F32V
/* Explicit vectors (the ISA file includes its kernels/simd/f32v_<isa>.h and defines
 * TFCC_DW_F32V, for targets where the compiler does not keep the block below in registers:
 * wasm32; and AVX2, where it is faster and ASan does not scalarise it): 4 vectors of channels
 * per pass, then whole vectors, then a partial one (masked: slow on AMD); per channel the same
 * sum in the same order as the portable loop (bias, then each tap's product, in tap order),
 * clamped by f32v_clamp (NaN passes, as dw_clamp). */
#define DW_TAP_X(ky, kx) \
  (img + (base + (ptrdiff_t)((size_t)(ky)*row_step + (size_t)(kx)*col_step) + c))
#define DW_TAP_F(ky, kx) (filter + ((size_t)(ky) * (size_t)kw_all + (size_t)(kx)) * (size_t)C + c)
static inline void dw_pixel(const float *restrict img, ptrdiff_t base, const float *restrict filter,
                            const float *restrict bias, float *restrict out_px, int32_t C,
                            int32_t kw_all, size_t row_step, size_t col_step, int32_t ky0,
                            int32_t ky1, int32_t kx0, int32_t kx1, float lo, float hi) {
  const f32v vlo = f32v_set(lo), vhi = f32v_set(hi);
  int32_t c = 0;
  for (; c + 4 * F32V_N <= C; c += 4 * F32V_N) {
    f32v a0 = f32v_zero(), a1 = a0, a2 = a0, a3 = a0;
    if (bias) {
      a0 = f32v_ld(bias + c);
      a1 = f32v_ld(bias + c + F32V_N);
      a2 = f32v_ld(bias + c + 2 * F32V_N);
      a3 = f32v_ld(bias + c + 3 * F32V_N);
    }
    for (int32_t ky = ky0; ky < ky1; ky++)
      for (int32_t kx = kx0; kx < kx1; kx++) {
        const float *x = DW_TAP_X(ky, kx), *f = DW_TAP_F(ky, kx);
        a0 = f32v_add(a0, f32v_mul(f32v_ld(x), f32v_ld(f)));
        a1 = f32v_add(a1, f32v_mul(f32v_ld(x + F32V_N), f32v_ld(f + F32V_N)));
        a2 = f32v_add(a2, f32v_mul(f32v_ld(x + 2 * F32V_N), f32v_ld(f + 2 * F32V_N)));
        a3 = f32v_add(a3, f32v_mul(f32v_ld(x + 3 * F32V_N), f32v_ld(f + 3 * F32V_N)));
      }
    f32v_st(out_px + c, f32v_clamp(a0, vlo, vhi));
    f32v_st(out_px + c + F32V_N, f32v_clamp(a1, vlo, vhi));
    f32v_st(out_px + c + 2 * F32V_N, f32v_clamp(a2, vlo, vhi));
    f32v_st(out_px + c + 3 * F32V_N, f32v_clamp(a3, vlo, vhi));
  }
  for (; c + F32V_N <= C; c += F32V_N) {
    f32v a = bias ? f32v_ld(bias + c) : f32v_zero();
    for (int32_t ky = ky0; ky < ky1; ky++)
      for (int32_t kx = kx0; kx < kx1; kx++)
        a = f32v_add(a, f32v_mul(f32v_ld(DW_TAP_X(ky, kx)), f32v_ld(DW_TAP_F(ky, kx))));
    f32v_st(out_px + c, f32v_clamp(a, vlo, vhi));
  }
  if (c < C) {
    const size_t n = (size_t)(C - c);
    f32v a = bias ? f32v_ld_n(bias + c, n) : f32v_zero();
    for (int32_t ky = ky0; ky < ky1; ky++)
      for (int32_t kx = kx0; kx < kx1; kx++)
        a = f32v_add(a, f32v_mul(f32v_ld_n(DW_TAP_X(ky, kx), n), f32v_ld_n(DW_TAP_F(ky, kx), n)));
    f32v_st_n(out_px + c, f32v_clamp(a, vlo, vhi), n);
  }
}
#else
/* One output pixel, taps [ky0,ky1) x [kx0,kx1); KH/KW constant in the unrolled callers. */
static inline void dw_pixel(const float *restrict img, ptrdiff_t base, const float *restrict filter,
                            const float *restrict bias, float *restrict out_px, int32_t C,
                            int32_t kw_all, size_t row_step, size_t col_step, int32_t ky0,
                            int32_t ky1, int32_t kx0, int32_t kx1, float lo, float hi) {
  int32_t c = 0;
  for (; c + TFCC_DW_CB <= C; c += TFCC_DW_CB) {
    float acc[TFCC_DW_CB];
    for (int i = 0; i < TFCC_DW_CB; i++) acc[i] = bias ? bias[c + i] : 0.0f;
    for (int32_t ky = ky0; ky < ky1; ky++)
      for (int32_t kx = kx0; kx < kx1; kx++) {
        const float *restrict x =
            img + (base + (ptrdiff_t)((size_t)ky * row_step + (size_t)kx * col_step) + c);
        const float *restrict f =
            filter + ((size_t)ky * (size_t)kw_all + (size_t)kx) * (size_t)C + c;
        for (int i = 0; i < TFCC_DW_CB; i++) acc[i] += x[i] * f[i];
      }
    for (int i = 0; i < TFCC_DW_CB; i++) out_px[c + i] = dw_clamp(acc[i], lo, hi);
  }
  for (; c < C; c++) {
    float acc = bias ? bias[c] : 0.0f;
    for (int32_t ky = ky0; ky < ky1; ky++)
      for (int32_t kx = kx0; kx < kx1; kx++)
        acc += img[base + (ptrdiff_t)((size_t)ky * row_step + (size_t)kx * col_step) + c] *
               filter[((size_t)ky * (size_t)kw_all + (size_t)kx) * (size_t)C + c];
    out_px[c] = dw_clamp(acc, lo, hi);
  }
}
#endif

static inline void dw_rows(const tfcc_conv_geom *g, const float *in, const float *filter,
                           const float *bias, float lo, float hi, float *out, int32_t row0,
                           int32_t row1, int32_t KH, int32_t KW) {
  const int32_t C = g->in_c;
  const size_t col_step = (size_t)g->dil_w * (size_t)C;
  const size_t row_step = (size_t)g->dil_h * (size_t)g->in_w * (size_t)C;
  for (int32_t row = row0; row < row1; row++) {
    const int32_t b = row / g->out_h, oy = row % g->out_h;
    const int32_t iy0 = oy * g->stride_h - g->pad_h;
    int32_t ky0 = 0, ky1 = KH;
    while (ky0 < KH && iy0 + ky0 * g->dil_h < 0) ky0++;
    while (ky1 > ky0 && iy0 + (ky1 - 1) * g->dil_h >= g->in_h) ky1--;
    const float *img = in + (size_t)b * (size_t)g->in_h * (size_t)g->in_w * (size_t)C;
    float *orow = out + (size_t)row * (size_t)g->out_w * (size_t)C;
    for (int32_t ox = 0; ox < g->out_w; ox++) {
      const int32_t ix0 = ox * g->stride_w - g->pad_w;
      int32_t kx0 = 0, kx1 = KW;
      while (kx0 < KW && ix0 + kx0 * g->dil_w < 0) kx0++;
      while (kx1 > kx0 && ix0 + (kx1 - 1) * g->dil_w >= g->in_w) kx1--;
      /* base pointer of tap (0, 0), possibly outside the image: offsets keep it in range */
      const ptrdiff_t base = ((ptrdiff_t)iy0 * g->in_w + ix0) * C;
      float *o = orow + (size_t)ox * (size_t)C;
      if (ky0 == 0 && ky1 == KH && kx0 == 0 && kx1 == KW)
        dw_pixel(img, base, filter, bias, o, C, KW, row_step, col_step, 0, KH, 0, KW, lo, hi);
      else
        dw_pixel(img, base, filter, bias, o, C, KW, row_step, col_step, ky0, ky1, kx0, kx1, lo, hi);
    }
  }
}

TFCC_F32_DWCONV_DECL(TFCC_DW_FN) {
  if (g->filter_h == 3 && g->filter_w == 3)
    dw_rows(g, in, filter, bias, lo, hi, out, row0, row1, 3, 3);
  else if (g->filter_h == 5 && g->filter_w == 5)
    dw_rows(g, in, filter, bias, lo, hi, out, row0, row1, 5, 5);
  else
    dw_rows(g, in, filter, bias, lo, hi, out, row0, row1, g->filter_h, g->filter_w);
}
