/* CONV_3D / CONV_3D_TRANSPOSE float32 reference loops (conv3d.h). */
#include "kernels/ref/conv3d.h"

#include <string.h>

static inline float clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

/* The 3-D window walk both loops share (kernels/ref/conv_walk.h does it in 2-D): PIXELS3 runs
 * its body per position (b, qd, qy, qx) of a grid of nd x nh x nw with the window's origin
 * d0, y0, x0 (position * stride - pad); TAPS3, inside it, per filter tap (fd, fy, fx) whose
 * position pd, py, px (origin + dilation * tap) lies inside [0, nd) x [0, nh) x [0, nw). The
 * convolution walks the output grid and gathers from the input, the transpose walks the input
 * grid and scatters into the output. */
/* Positions in int64: a CONV_3D_TRANSPOSE's input grid times a stride of 2013265921 passed
 * int32 (fuzz60); its taps then lie outside the output and are skipped.
 * Walks no batch when the walked volume is empty (a CONV_3D_TRANSPOSE input of
 * [1, 33554435, 67108864, 0, 3] walked 2.3e15 empty rows, past the fuzzer's 20 s). */
#define PIXELS3(nd, nh, nw, ...) \
  for (int32_t b = 0; b < ((nd) > 0 && (nh) > 0 && (nw) > 0 ? g->batches : 0); b++) \
    for (int32_t qd = 0; qd < (nd); qd++) \
      for (int32_t qy = 0; qy < (nh); qy++) \
        for (int32_t qx = 0; qx < (nw); qx++) { \
          const int64_t d0 = (int64_t)qd * g->stride_d - g->pad_d, \
                        y0 = (int64_t)qy * g->stride_h - g->pad_h, \
                        x0 = (int64_t)qx * g->stride_w - g->pad_w; \
          __VA_ARGS__ \
        }
#define TAPS3(nd, nh, nw, ...) \
  for (int32_t fd = 0; fd < g->f_d; fd++) { \
    const int64_t pd = d0 + (int64_t)g->dil_d * fd; \
    if (pd < 0 || pd >= (nd)) continue; \
    for (int32_t fy = 0; fy < g->f_h; fy++) { \
      const int64_t py = y0 + (int64_t)g->dil_h * fy; \
      if (py < 0 || py >= (nh)) continue; \
      for (int32_t fx = 0; fx < g->f_w; fx++) { \
        const int64_t px = x0 + (int64_t)g->dil_w * fx; \
        if (px < 0 || px >= (nw)) continue; \
        __VA_ARGS__ \
      } \
    } \
  }

void tfcc_conv3d_f32(const tfcc_conv3d_geom *g, const float *in, const float *filter,
                     const float *bias, float act_min, float act_max, float *out) {
  const int64_t ic = g->in_c, oc = g->out_c;
  PIXELS3(g->out_d, g->out_h, g->out_w, {
    for (int32_t o = 0; o < g->out_c; o++) {
      float total = 0.f;
      TAPS3(g->in_d, g->in_h, g->in_w, {
        const float *ip = in + ((((int64_t)b * g->in_d + pd) * g->in_h + py) * g->in_w + px) * ic;
        const float *fp = filter + (((int64_t)fd * g->f_h + fy) * g->f_w + fx) * ic * oc + o;
        for (int64_t c = 0; c < ic; c++) total += ip[c] * fp[c * oc];
      })
      const int64_t oi = ((((int64_t)b * g->out_d + qd) * g->out_h + qy) * g->out_w + qx) * oc + o;
      out[oi] = clampf(total + (bias ? bias[o] : 0.f), act_min, act_max);
    }
  })
}

void tfcc_conv3d_transpose_f32(const tfcc_conv3d_geom *g, const float *in, const float *filter,
                               const float *bias, float act_min, float act_max, float *out) {
  const int64_t ic = g->in_c, oc = g->out_c;
  const int64_t n_out = (int64_t)g->batches * g->out_d * g->out_h * g->out_w * oc;
  memset(out, 0, (size_t)n_out * sizeof(float));
  PIXELS3(g->in_d, g->in_h, g->in_w, {
    const float *ip = in + ((((int64_t)b * g->in_d + qd) * g->in_h + qy) * g->in_w + qx) * ic;
    TAPS3(g->out_d, g->out_h, g->out_w, {
      float *op = out + ((((int64_t)b * g->out_d + pd) * g->out_h + py) * g->out_w + px) * oc;
      const float *fp = filter + (((int64_t)fd * g->f_h + fy) * g->f_w + fx) * oc * ic;
      for (int64_t o = 0; o < oc; o++) {
        float acc = 0.f;
        for (int64_t c = 0; c < ic; c++) acc += ip[c] * fp[o * ic + c];
        op[o] += acc;
      }
    })
  })
  for (int64_t i = 0; i < n_out; i++)
    out[i] = clampf(out[i] + (bias ? bias[i % oc] : 0.f), act_min, act_max);
}
