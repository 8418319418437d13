/* The 2-D window walk of the conv, depthwise and pooling reference kernels (g: the geometry):
 * TFCC_CONV_PIXELS runs its body per output pixel (b, oy, ox) with the window's origin iy0,
 * ix0 in the input and out_base, the pixel's first output element; TFCC_CONV_TAPS, inside it,
 * runs its body per filter tap (fy, fx) whose input pixel (iy, ix) is inside the image (the
 * reference kernels skip the others: zero padding in real terms). */
#ifndef TFCC_KERNELS_REF_CONV_WALK_H
#define TFCC_KERNELS_REF_CONV_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/ref/conv.h"

/* An empty output walks no batch (a CONV_2D of [268435457, 0, 16, 8] walked its
 * 268 M batches for nothing, 10 s under ASan). */
#define TFCC_CONV_PIXELS(...) \
  for (int32_t b = 0; b < (g->out_h > 0 && g->out_w > 0 && g->out_c > 0 ? g->batches : 0); b++) \
    for (int32_t oy = 0; oy < g->out_h; oy++) \
      for (int32_t ox = 0; ox < g->out_w; ox++) { \
        const int32_t iy0 = oy * g->stride_h - g->pad_h; \
        const int32_t ix0 = ox * g->stride_w - g->pad_w; \
        const size_t out_base = (((size_t)b * g->out_h + oy) * g->out_w + ox) * g->out_c; \
        __VA_ARGS__ \
      }
#define TFCC_CONV_TAPS(...) \
  for (int32_t fy = 0; fy < g->filter_h; fy++) { \
    const int32_t iy = iy0 + g->dil_h * fy; \
    if (iy < 0 || iy >= g->in_h) continue; \
    for (int32_t fx = 0; fx < g->filter_w; fx++) { \
      const int32_t ix = ix0 + g->dil_w * fx; \
      if (ix < 0 || ix >= g->in_w) continue; \
      __VA_ARGS__ \
    } \
  }

#endif
