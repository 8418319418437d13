/* Hybrid depthwise convolution (dwconv.h): int32 accumulators per output channel for one
 * output pixel, then the builtin kernel's float order. */
#include "kernels/hybrid/dwconv.h"

#include "cpu/cpu_info.h"
#include "kernels/dw_expand.h"

int32_t tfcc_hyb_dwconv_multiplier(const tfcc_conv_geom *g) {
  if (g->in_c <= 0 || g->out_c < g->in_c || g->out_c % g->in_c != 0) return 0;
  return g->out_c / g->in_c;
}

bool tfcc_hyb_dwconv_fast_applies(const tfcc_conv_geom *g) {
  return tfcc_hyb_dwconv_multiplier(g) > 0 && g->filter_h > 0 && g->filter_w > 0 &&
         (int64_t)g->filter_h * g->filter_w <= TFCC_HYB_DW_MAX_TAPS;
}

size_t tfcc_hyb_dwconv_expanded_elems(const tfcc_conv_geom *g) {
  if (tfcc_hyb_dwconv_multiplier(g) <= 1) return 0;
  return (size_t)g->in_h * (size_t)g->in_w * (size_t)g->out_c;
}

void tfcc_hyb_dwconv_expand(struct tfcc_threadpool *pool, const tfcc_conv_geom *g, const int16_t *x,
                            int16_t *out) {
  tfcc_dw_expand_channels(pool, x, out, (size_t)g->in_h * (size_t)g->in_w, (size_t)g->in_c,
                          (size_t)tfcc_hyb_dwconv_multiplier(g), sizeof(int16_t));
}

tfcc_conv_geom tfcc_hyb_dwconv_expanded_geom(const tfcc_conv_geom *g) {
  tfcc_conv_geom e = *g;
  e.in_c = g->out_c;
  return e;
}

tfcc_hyb_dwconv_fn tfcc_hyb_dwconv_select(tfcc_isa isa) {
#if defined(__x86_64__) || defined(__i386__)
  if (tfcc_isa_level_fits(TFCC_ISA_AVX512, isa)) return tfcc_hyb_dwconv_fast_avx512;
  if (tfcc_isa_level_fits(TFCC_ISA_AVX2, isa)) return tfcc_hyb_dwconv_fast_avx2;
#endif
  return tfcc_hyb_dwconv_fast_scalar;
}

void tfcc_hyb_dwconv_rows(const tfcc_conv_geom *g, const int8_t *q, int32_t zp, float scale,
                          const int8_t *w, const float *fscale, size_t fscale_stride,
                          const float *bias, float lo, float hi, float *out, int32_t oy0,
                          int32_t oy1) {
  const int32_t C = g->in_c, OC = g->out_c, M = OC / C;
  enum { CHUNK = 256 };
  int32_t acc[CHUNK];
  for (int32_t oy = oy0; oy < oy1; oy++) {
    for (int32_t ox = 0; ox < g->out_w; ox++) {
      float *o = out + ((size_t)oy * (size_t)g->out_w + (size_t)ox) * (size_t)OC;
      for (int32_t c0 = 0; c0 < OC; c0 += CHUNK) {
        const int32_t nc = OC - c0 < CHUNK ? OC - c0 : CHUNK;
        for (int32_t j = 0; j < nc; j++) acc[j] = 0;
        for (int32_t ky = 0; ky < g->filter_h; ky++)
          for (int32_t kx = 0; kx < g->filter_w; kx++) {
            size_t xo, wo;
            if (!tfcc_hyb_dw_tap(g, oy, ox, ky, kx, (size_t)C, (size_t)OC, &xo, &wo)) continue;
            const int8_t *x = q + xo, *wk = w + wo;
            for (int32_t j = 0; j < nc; j++) {
              const int32_t oc = c0 + j;
              acc[j] += ((int32_t)x[oc / M] - zp) * (int32_t)wk[oc];
            }
          }
        for (int32_t j = 0; j < nc; j++) {
          const int32_t oc = c0 + j;
          const float t = (float)acc[j] * scale;
          float v = t * fscale[(size_t)oc * fscale_stride];
          if (bias) v += bias[oc];
          v = v < lo ? lo : v;
          v = v > hi ? hi : v;
          o[oc] = v;
        }
      }
    }
  }
}
