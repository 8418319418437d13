/* Portable body of the XNNPACK-exact float32 kernels (xnn_f32.h), included by the per-ISA
 * files with TFCC_XF_ISA (name suffix) and XF_W (lanes) defined: GCC / Clang vectors of XF_W
 * floats; every product and sum is its own statement, so nothing is contracted into a fused
 * multiply-add even where the file is built with FMA enabled. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernels/hybrid/xnn_f32.h"

#define XF_CAT2(a, b) a##b
#define XF_CAT(a, b) XF_CAT2(a, b)

typedef float xv4 __attribute__((vector_size(XF_W * 4)));
typedef int32_t xi4 __attribute__((vector_size(XF_W * 4)));
typedef uint32_t xu4 __attribute__((vector_size(XF_W * 4)));

/* All lanes v: the scalar broadcast of "v - 0" (exact for every v, -0.0 included), which
 * compilers fold to a plain broadcast. */
static inline xv4 splat(float v) { return v - (xv4){0}; }

static inline xv4 sigmoid_v(xv4 x) {
  const xv4 magic = splat(0x1.8000FEp23f), minus_log2e = splat(-0x1.715476p+0f);
  const xv4 ln2_hi = splat(0x1.62E400p-1f), ln2_lo = splat(0x1.7F7D1Cp-20f);
  const xv4 c5 = splat(-0x1.0F9F9Cp-7f), c4 = splat(0x1.573A1Ap-5f), c3 = splat(-0x1.555A80p-3f);
  const xv4 c2 = splat(0x1.FFFDC6p-2f), c1 = splat(-0x1.FFFFF6p-1f), one = splat(1.0f);
  const xv4 cutoff = splat(0x1.5D589Ep+6f);
  const xi4 xi = (xi4)x;
  const xv4 z = (xv4)(xi & 0x7FFFFFFF);
  xv4 n = z * minus_log2e;
  n = n + magic;
  const xv4 s = (xv4)((xu4)n << 23);
  n = n - magic;
  xv4 t = n * ln2_hi;
  t = t + z;
  xv4 u = n * ln2_lo;
  t = u + t;
  xv4 p = t * c5;
  p = p + c4;
  p = t * p;
  p = p + c3;
  p = t * p;
  p = p + c2;
  p = t * p;
  p = p + c1;
  t = t * s;
  xv4 e = t * p;
  e = e + s;
  const xv4 d = e + one;
  xv4 f = e / d;
  f = (xv4)((xi4)f & ~(z > cutoff));
  const xv4 cf = one - f;
  const xi4 neg = xi >> 31; /* all ones for a set sign bit */
  return (xv4)(((xi4)f & neg) | ((xi4)cf & ~neg));
}

void XF_CAT(tfcc_xnn_sigmoid_f32_, TFCC_XF_ISA)(const float *x, float *y, size_t n) {
  size_t i = 0;
  for (; i + XF_W <= n; i += XF_W) {
    xv4 v;
    memcpy(&v, x + i, sizeof v);
    v = sigmoid_v(v);
    memcpy(y + i, &v, sizeof v);
  }
  if (i < n) {
    xv4 v = splat(0.0f);
    memcpy(&v, x + i, (n - i) * sizeof(float));
    v = sigmoid_v(v);
    memcpy(y + i, &v, (n - i) * sizeof(float));
  }
}

/* XF_PX output pixels of a row at a time, each with its own accumulator (independent chains, so
 * that the adds overlap; every pixel's sum is formed in the IGEMM order, as one at a time), for
 * nb <= XF_NB blocks of XF_W output channels at once (the taps listed and each input value
 * broadcast once for them all). A short last group repeats its last pixel and stores only its
 * own. */
#define XF_PX 8
#ifndef XF_NB
#define XF_NB 1
#endif

static inline __attribute__((always_inline)) void XF_CAT(xf_pixels_, TFCC_XF_ISA)(
    int nb, const tfcc_conv_geom *g, const float *img, int32_t oy, int32_t ox0, int32_t np,
    const float *wp, int32_t ocp, int32_t oc, const float *bias, float lo, float hi, float *o) {
  const int32_t C = g->in_c, OC = g->out_c;
  const xv4 vlo = splat(lo), vhi = splat(hi);
  xv4 acc[XF_NB][XF_PX];
  for (int b = 0; b < nb; b++) {
    acc[b][0] = splat(0.0f);
    for (int32_t j = 0; j < XF_W && oc + b * XF_W + j < OC; j++)
      acc[b][0][j] = bias ? bias[oc + b * XF_W + j] : 0.0f;
    for (int p = 1; p < XF_PX; p++) acc[b][p] = acc[b][0];
  }
  const float *w = wp + oc;
  const size_t xs = (size_t)g->stride_w * (size_t)C; /* one output pixel to the next */
  for (int32_t ky = 0; ky < g->filter_h; ky++) {
    const int32_t iy = oy * g->stride_h - g->pad_h + ky * g->dil_h;
    const bool row_inside = iy >= 0 && iy < g->in_h;
    for (int32_t kx = 0; kx < g->filter_w; kx++) {
      const int32_t ix0 = ox0 * g->stride_w - g->pad_w + kx * g->dil_w;
      const int32_t ixl = ix0 + (np - 1) * g->stride_w;
      const float *x[XF_PX];
      if (row_inside && ix0 >= 0 && ixl < g->in_w) {
        const float *x0 = img + ((size_t)iy * (size_t)g->in_w + (size_t)ix0) * (size_t)C;
        for (int p = 0; p < XF_PX; p++) x[p] = x0 + (size_t)(p < np ? p : np - 1) * xs;
        for (int32_t c = 0; c < C; c++, w += ocp) {
          xv4 wv[XF_NB];
          for (int b = 0; b < nb; b++) memcpy(&wv[b], w + b * XF_W, sizeof wv[b]);
          for (int p = 0; p < XF_PX; p++) {
            const xv4 xv = splat(x[p][c]);
            for (int b = 0; b < nb; b++) {
              const xv4 prod = xv * wv[b];
              acc[b][p] = acc[b][p] + prod;
            }
          }
        }
        continue;
      }
      for (int p = 0; p < XF_PX; p++) {
        const int32_t ix = ix0 + (p < np ? p : np - 1) * g->stride_w;
        const bool inside = row_inside && ix >= 0 && ix < g->in_w;
        x[p] = inside ? img + ((size_t)iy * (size_t)g->in_w + (size_t)ix) * (size_t)C : NULL;
      }
      for (int32_t c = 0; c < C; c++, w += ocp) {
        xv4 wv[XF_NB];
        for (int b = 0; b < nb; b++) memcpy(&wv[b], w + b * XF_W, sizeof wv[b]);
        for (int p = 0; p < XF_PX; p++) {
          const xv4 xv = splat(x[p] ? x[p][c] : 0.0f);
          for (int b = 0; b < nb; b++) {
            const xv4 prod = xv * wv[b];
            acc[b][p] = acc[b][p] + prod;
          }
        }
      }
    }
  }
  for (int b = 0; b < nb; b++) {
    const int32_t ob = oc + b * XF_W;
    for (int p = 0; p < np; p++) {
      xv4 v = acc[b][p];
      v = (xv4)(((xi4)v & (v > vlo)) | ((xi4)vlo & ~(v > vlo)));
      v = (xv4)(((xi4)v & (v < vhi)) | ((xi4)vhi & ~(v < vhi)));
      float *op = o + (size_t)p * (size_t)OC + (size_t)ob;
      if (ob + XF_W <= OC)
        memcpy(op, &v, sizeof v);
      else
        for (int32_t j = 0; ob + j < OC; j++) op[j] = v[j];
    }
  }
}

void XF_CAT(tfcc_xnn_conv_f32_rows_, TFCC_XF_ISA)(const tfcc_conv_geom *g, const float *in,
                                                  const float *wp, int32_t ocp, const float *bias,
                                                  float lo, float hi, float *out, int32_t r0,
                                                  int32_t r1) {
  const int32_t C = g->in_c, OC = g->out_c;
  for (int32_t row = r0; row < r1; row++) {
    const int32_t b = row / g->out_h, oy = row % g->out_h;
    const float *img = in + (size_t)b * (size_t)g->in_h * (size_t)g->in_w * (size_t)C;
    for (int32_t ox0 = 0; ox0 < g->out_w; ox0 += XF_PX) {
      const int32_t np = g->out_w - ox0 < XF_PX ? g->out_w - ox0 : XF_PX;
      float *o = out + ((size_t)row * (size_t)g->out_w + (size_t)ox0) * (size_t)OC;
      int32_t oc = 0;
      /* whole groups of XF_NB blocks inside the packed width ocp, then one block at a time */
      for (; XF_NB > 1 && oc + XF_NB * XF_W <= ocp && oc + (XF_NB - 1) * XF_W < OC;
           oc += XF_NB * XF_W)
        XF_CAT(xf_pixels_, TFCC_XF_ISA)(XF_NB, g, img, oy, ox0, np, wp, ocp, oc, bias, lo, hi, o);
      for (; oc < OC; oc += XF_W)
        XF_CAT(xf_pixels_, TFCC_XF_ISA)(1, g, img, oy, ox0, np, wp, ocp, oc, bias, lo, hi, o);
    }
  }
}

/* DEPTHWISE_CONV_2D, depth multiplier 1 (xnn_f32.h, tfcc_xnn_dwconv_f32_rows): XF_DPX output
 * pixels of a row at a time, one block of XF_W channels, each pixel its own accumulator (its sum
 * in XNNPACK's order: bias, then kx outer, ky inner; a padding tap adds 0 * w); accumulators
 * stay in registers across the taps. A short last group repeats its last pixel and stores only
 * its own; the last channel block is partial where the channels are not a multiple of XF_W. */
#define XF_DPX 4

static inline __attribute__((always_inline)) void XF_CAT(xf_dw_pixels_, TFCC_XF_ISA)(
    const tfcc_conv_geom *g, const float *img, int32_t oy, int32_t ox0, int32_t np,
    const float *filter, const float *bias, xv4 vlo, xv4 vhi, int32_t c0, float *o) {
  const int32_t C = g->in_c;
  const int32_t nc = C - c0 < XF_W ? C - c0 : XF_W;
  xv4 acc[XF_DPX];
  acc[0] = splat(0.0f);
  if (bias) {
    if (nc == XF_W)
      memcpy(&acc[0], bias + c0, sizeof acc[0]);
    else
      memcpy(&acc[0], bias + c0, (size_t)nc * sizeof(float));
  }
  for (int p = 1; p < XF_DPX; p++) acc[p] = acc[0];
  const size_t xs = (size_t)g->stride_w * (size_t)C;
  for (int32_t kx = 0; kx < g->filter_w; kx++) {
    const int32_t ix0 = ox0 * g->stride_w - g->pad_w + kx * g->dil_w;
    const int32_t ixl = ix0 + (np - 1) * g->stride_w;
    const bool cols_inside = ix0 >= 0 && ixl < g->in_w;
    for (int32_t ky = 0; ky < g->filter_h; ky++) {
      const int32_t iy = oy * g->stride_h - g->pad_h + ky * g->dil_h;
      const bool row_inside = iy >= 0 && iy < g->in_h;
      const float *wr = filter + ((size_t)ky * (size_t)g->filter_w + (size_t)kx) * (size_t)C + c0;
      xv4 w = splat(0.0f);
      if (nc == XF_W)
        memcpy(&w, wr, sizeof w);
      else
        memcpy(&w, wr, (size_t)nc * sizeof(float));
      if (row_inside && cols_inside) {
        const float *x0 = img + ((size_t)iy * (size_t)g->in_w + (size_t)ix0) * (size_t)C + c0;
        for (int p = 0; p < XF_DPX; p++) {
          const float *xp = x0 + (size_t)(p < np ? p : np - 1) * xs;
          xv4 xv = splat(0.0f);
          if (nc == XF_W)
            memcpy(&xv, xp, sizeof xv);
          else
            memcpy(&xv, xp, (size_t)nc * sizeof(float));
          const xv4 prod = xv * w;
          acc[p] = acc[p] + prod;
        }
        continue;
      }
      for (int p = 0; p < XF_DPX; p++) {
        const int32_t ix = ix0 + (p < np ? p : np - 1) * g->stride_w;
        xv4 xv = splat(0.0f); /* padding: 0 * w */
        if (row_inside && ix >= 0 && ix < g->in_w) {
          const float *xp = img + ((size_t)iy * (size_t)g->in_w + (size_t)ix) * (size_t)C + c0;
          if (nc == XF_W)
            memcpy(&xv, xp, sizeof xv);
          else
            memcpy(&xv, xp, (size_t)nc * sizeof(float));
        }
        const xv4 prod = xv * w;
        acc[p] = acc[p] + prod;
      }
    }
  }
  for (int p = 0; p < np; p++) {
    xv4 v = acc[p];
    /* lo < v ? v : lo, then v < hi ? v : hi (a NaN becomes lo) */
    const xi4 gt = vlo < v;
    v = (xv4)(((xi4)v & gt) | ((xi4)vlo & ~gt));
    const xi4 lt = v < vhi;
    v = (xv4)(((xi4)v & lt) | ((xi4)vhi & ~lt));
    float *op = o + (size_t)p * (size_t)C + (size_t)c0;
    if (nc == XF_W)
      memcpy(op, &v, sizeof v);
    else
      memcpy(op, &v, (size_t)nc * sizeof(float));
  }
}

void XF_CAT(tfcc_xnn_dwconv_f32_rows_, TFCC_XF_ISA)(const tfcc_conv_geom *g, const float *in,
                                                    const float *filter, const float *bias,
                                                    float lo, float hi, float *out, int32_t r0,
                                                    int32_t r1) {
  const int32_t C = g->in_c;
  const xv4 vlo = splat(lo), vhi = splat(hi);
  for (int32_t row = r0; row < r1; row++) {
    const int32_t b = row / g->out_h, oy = row % g->out_h;
    const float *img = in + (size_t)b * (size_t)g->in_h * (size_t)g->in_w * (size_t)C;
    for (int32_t ox0 = 0; ox0 < g->out_w; ox0 += XF_DPX) {
      const int32_t np = g->out_w - ox0 < XF_DPX ? g->out_w - ox0 : XF_DPX;
      float *o = out + ((size_t)row * (size_t)g->out_w + (size_t)ox0) * (size_t)C;
      for (int32_t c0 = 0; c0 < C; c0 += XF_W)
        XF_CAT(xf_dw_pixels_, TFCC_XF_ISA)(g, img, oy, ox0, np, filter, bias, vlo, vhi, c0, o);
    }
  }
}
