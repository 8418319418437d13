/* CONV_3D / CONV_3D_TRANSPOSE float32 reference loops (conv3d.h). */
#include "kernels/ref/conv3d.h"

#include <string.h>

static inline float clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

void tfcc_conv3d_f32(const tfcc_conv3d_geom *g, const float *in, const float *filter,
                     const float *bias, float act_min, float act_max, float *out) {
  const int64_t ic = g->in_c, oc = g->out_c;
  for (int32_t b = 0; b < g->batches; b++)
    for (int32_t od = 0; od < g->out_d; od++)
      for (int32_t oy = 0; oy < g->out_h; oy++)
        for (int32_t ox = 0; ox < g->out_w; ox++)
          for (int32_t o = 0; o < g->out_c; o++) {
            const int32_t d0 = od * g->stride_d - g->pad_d, y0 = oy * g->stride_h - g->pad_h,
                          x0 = ox * g->stride_w - g->pad_w;
            float total = 0.f;
            for (int32_t fd = 0; fd < g->f_d; fd++) {
              const int32_t id = d0 + g->dil_d * fd;
              if (id < 0 || id >= g->in_d) continue;
              for (int32_t fy = 0; fy < g->f_h; fy++) {
                const int32_t iy = y0 + g->dil_h * fy;
                if (iy < 0 || iy >= g->in_h) continue;
                for (int32_t fx = 0; fx < g->f_w; fx++) {
                  const int32_t ix = x0 + g->dil_w * fx;
                  if (ix < 0 || ix >= g->in_w) continue;
                  const float *ip =
                      in + ((((int64_t)b * g->in_d + id) * g->in_h + iy) * g->in_w + ix) * ic;
                  const float *fp =
                      filter + (((int64_t)fd * g->f_h + fy) * g->f_w + fx) * ic * oc + o;
                  for (int64_t c = 0; c < ic; c++) total += ip[c] * fp[c * oc];
                }
              }
            }
            const int64_t oi =
                ((((int64_t)b * g->out_d + od) * g->out_h + oy) * g->out_w + ox) * oc + o;
            out[oi] = clampf(total + (bias ? bias[o] : 0.f), act_min, act_max);
          }
}

void tfcc_conv3d_transpose_f32(const tfcc_conv3d_geom *g, const float *in, const float *filter,
                               const float *bias, float act_min, float act_max, float *out) {
  const int64_t ic = g->in_c, oc = g->out_c;
  const int64_t n_out = (int64_t)g->batches * g->out_d * g->out_h * g->out_w * oc;
  memset(out, 0, (size_t)n_out * sizeof(float));
  for (int32_t b = 0; b < g->batches; b++)
    for (int32_t id = 0; id < g->in_d; id++)
      for (int32_t iy = 0; iy < g->in_h; iy++)
        for (int32_t ix = 0; ix < g->in_w; ix++) {
          const float *ip = in + ((((int64_t)b * g->in_d + id) * g->in_h + iy) * g->in_w + ix) * ic;
          const int32_t d0 = id * g->stride_d - g->pad_d, y0 = iy * g->stride_h - g->pad_h,
                        x0 = ix * g->stride_w - g->pad_w;
          for (int32_t fd = 0; fd < g->f_d; fd++) {
            const int32_t od = d0 + g->dil_d * fd;
            if (od < 0 || od >= g->out_d) continue;
            for (int32_t fy = 0; fy < g->f_h; fy++) {
              const int32_t oy = y0 + g->dil_h * fy;
              if (oy < 0 || oy >= g->out_h) continue;
              for (int32_t fx = 0; fx < g->f_w; fx++) {
                const int32_t ox = x0 + g->dil_w * fx;
                if (ox < 0 || ox >= g->out_w) continue;
                float *op =
                    out + ((((int64_t)b * g->out_d + od) * g->out_h + oy) * g->out_w + ox) * oc;
                const float *fp = filter + (((int64_t)fd * g->f_h + fy) * g->f_w + fx) * oc * ic;
                for (int64_t o = 0; o < oc; o++) {
                  float acc = 0.f;
                  for (int64_t c = 0; c < ic; c++) acc += ip[c] * fp[o * ic + c];
                  op[o] += acc;
                }
              }
            }
          }
        }
  for (int64_t i = 0; i < n_out; i++)
    out[i] = clampf(out[i] + (bias ? bias[i % oc] : 0.f), act_min, act_max);
}
