/* Hybrid depthwise convolution (float32 input quantized to int8 per image, int8 filter
 * [1, fh, fw, out_c], int32 accumulation), as TFLite's builtin DEPTHWISE_CONV_2D
 * EvalHybridPerChannel computes it (XNNPACK does not take hybrid depthwise nodes, so this is
 * the arithmetic of both modes):
 *   acc = sum over taps inside the image of (q - zp) * w        (padding adds nothing)
 *   out = clamp(((float)acc * scale) * fscale[c] + bias[c], lo, hi) */
#ifndef TFCC_KERNELS_HYBRID_DWCONV_H
#define TFCC_KERNELS_HYBRID_DWCONV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/ref/conv.h"
#include "tfcc/tfcc.h"

/* Image b of g (g->out_c = in_c * multiplier): q is that image's int8 input, zp and scale its
 * quantization; fscale[c * fscale_stride]; bias may be NULL; out is that image's output.
 * Rows [oy0, oy1) of the output only (threads split the rows). */
void tfcc_hyb_dwconv_rows(const tfcc_conv_geom *g, const int8_t *q, int32_t zp, float scale,
                          const int8_t *w, const float *fscale, size_t fscale_stride,
                          const float *bias, float lo, float hi, float *out, int32_t oy0,
                          int32_t oy1);

/* Filter tap (ky, kx) of output pixel (oy, ox): false where its input pixel lies in the
 * padding; else *xoff = that pixel's offset (pixels of xs elements) and *woff = the tap's
 * offset in the filter (taps of ws elements). Both kernels list their taps with it. */
static inline bool tfcc_hyb_dw_tap(const tfcc_conv_geom *g, int32_t oy, int32_t ox, int32_t ky,
                                   int32_t kx, size_t xs, size_t ws, size_t *xoff, size_t *woff) {
  const int32_t iy = oy * g->stride_h - g->pad_h + ky * g->dil_h;
  const int32_t ix = ox * g->stride_w - g->pad_w + kx * g->dil_w;
  if (iy < 0 || iy >= g->in_h || ix < 0 || ix >= g->in_w) return false;
  *xoff = ((size_t)iy * (size_t)g->in_w + (size_t)ix) * xs;
  *woff = ((size_t)ky * (size_t)g->filter_w + (size_t)kx) * ws;
  return true;
}

/* The same results, vectorised (dwconv_body.h, per-ISA builds; dwconv-avx2.c), where
 * tfcc_hyb_dwconv_fast_applies(g): any depth multiplier and at most TFCC_HYB_DW_MAX_TAPS filter
 * taps. The input comes as int16 q - zp (tfcc_hyb_quantize_asym_centered) and the filter
 * widened to int32 (done once at load, ops/hybrid.c). The kernels read one input channel per
 * output channel: with depth multiplier m > 1 the input is first expanded to out_c channels
 * (tfcc_hyb_dwconv_expand) and the kernel runs tfcc_hyb_dwconv_expanded_geom(g). */
#define TFCC_HYB_DW_MAX_TAPS 64
bool tfcc_hyb_dwconv_fast_applies(const tfcc_conv_geom *g);
/* g's depth multiplier (out_c / in_c) where it is a whole number >= 1, else 0. */
int32_t tfcc_hyb_dwconv_multiplier(const tfcc_conv_geom *g);
/* int16 elements of the expanded input of one image of g (0 at depth multiplier 1). */
size_t tfcc_hyb_dwconv_expanded_elems(const tfcc_conv_geom *g);
/* x (one image of g, in_c channels) -> out (out_c channels: channel oc is channel oc / m of x),
 * split over pool (NULL: inline). */
struct tfcc_threadpool;
void tfcc_hyb_dwconv_expand(struct tfcc_threadpool *pool, const tfcc_conv_geom *g, const int16_t *x,
                            int16_t *out);
/* g with in_c = out_c: the geometry of the expanded input. */
tfcc_conv_geom tfcc_hyb_dwconv_expanded_geom(const tfcc_conv_geom *g);
typedef void (*tfcc_hyb_dwconv_fn)(const tfcc_conv_geom *g, const int16_t *x, float scale,
                                   const int32_t *w, const float *fscale, size_t fscale_stride,
                                   const float *bias, float lo, float hi, float *out, int32_t oy0,
                                   int32_t oy1);
/* The best build allowed at dispatch level isa. */
tfcc_hyb_dwconv_fn tfcc_hyb_dwconv_select(tfcc_isa isa);

#define TFCC_HYB_DW_DECL(isa) \
  void tfcc_hyb_dwconv_fast_##isa(const tfcc_conv_geom *g, const int16_t *x, float scale, \
                                  const int32_t *w, const float *fscale, size_t fscale_stride, \
                                  const float *bias, float lo, float hi, float *out, int32_t oy0, \
                                  int32_t oy1);
TFCC_HYB_DW_DECL(avx512)
TFCC_HYB_DW_DECL(avx2)
TFCC_HYB_DW_DECL(scalar)

#endif
