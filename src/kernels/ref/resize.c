/* RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR kernels (NHWC); the contract is in resize.h. */
#include "kernels/ref/resize.h"

#include <math.h>
#include <string.h>

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF /* match TFLite's separately rounded float multiply and add */
#endif

void tfcc_ref_resize_interp_f32(int32_t value, float scale, bool half_pixel, int32_t size,
                                float *scaled, int32_t *lo, int32_t *hi) {
  if (half_pixel)
    *scaled = ((float)value + 0.5f) * scale - 0.5f;
  else
    *scaled = (float)value * scale;
  float fl = floorf(*scaled);
  int32_t l = (int32_t)fl, h = (int32_t)ceilf(*scaled);
  *lo = l > 0 ? l : 0;
  *hi = h < size - 1 ? h : size - 1;
}

void tfcc_ref_resize_scales_f32(const tfcc_resize_shape *s, bool align, float *hs, float *ws) {
  *hs = (float)s->in_h / (float)s->out_h;
  *ws = (float)s->in_w / (float)s->out_w;
  if (align && s->out_h > 1) *hs = (float)(s->in_h - 1) / (float)(s->out_h - 1);
  if (align && s->out_w > 1) *ws = (float)(s->in_w - 1) / (float)(s->out_w - 1);
}

static size_t off4(const tfcc_resize_shape *s, int32_t b, int32_t y, int32_t x) {
  return (((size_t)b * (size_t)s->in_h + (size_t)y) * (size_t)s->in_w + (size_t)x) *
         (size_t)s->depth;
}

/* optimized_ops ResizeBilinear2x2 / ResizeBilinearKernel2x2 (non-NEON form). */
static void bilinear_f32_2x2(const tfcc_resize_shape *s, const float *in, float *out) {
  const int32_t D = s->depth, OW = s->out_w;
  for (int32_t b = 0; b < s->batch; b++)
    for (int32_t y0 = 0, y = 0; y <= s->out_h - 2; y += 2, y0++)
      for (int32_t x0 = 0, x = 0; x <= s->out_w - 2; x += 2, x0++) {
        int32_t x1 = x0 + 1 < s->in_w - 1 ? x0 + 1 : s->in_w - 1;
        int32_t y1 = y0 + 1 < s->in_h - 1 ? y0 + 1 : s->in_h - 1;
        const size_t xo = (size_t)(x1 - x0) * (size_t)D;
        const size_t yo = (size_t)(y1 - y0) * (size_t)D * (size_t)s->in_w;
        float *o =
            out + (((size_t)b * (size_t)s->out_h + (size_t)y) * (size_t)OW + (size_t)x) * (size_t)D;
        const size_t oxo = (size_t)D, oyo = (size_t)D * (size_t)OW;
        for (int32_t c = 0; c < D; c++) {
          const float *p = in + off4(s, b, y0, x0) + c;
          float x0y0 = p[0], x1y0 = p[xo], x0y1 = p[yo], x1y1 = p[xo + yo];
          o[c] = x0y0;
          o[c + oxo] = (x0y0 + x1y0) / 2;
          float bl = (x0y0 + x0y1) / 2;
          o[c + oyo] = bl;
          o[c + oxo + oyo] = (bl + ((x1y0 + x1y1) / 2)) / 2;
        }
      }
}

/* reference_ops::ResizeBilinear's float walk: for each output pixel (in order) the four input
 * pixels' offsets (top-left, top-right, bottom-left, bottom-right) and their weights; pixel()
 * gets the output pixel's offset too (all in elements). */
typedef void (*bilinear_pixel_fn)(void *ctx, size_t o, const size_t p[4], const float w[4]);

static inline void bilinear_walk(const tfcc_resize_shape *s, bool align_corners, bool half_pixel,
                                 bilinear_pixel_fn pixel, void *ctx) {
  float hs, ws;
  tfcc_ref_resize_scales_f32(s, align_corners, &hs, &ws);
  size_t o = 0;
  for (int32_t b = 0; b < s->batch; b++)
    for (int32_t y = 0; y < s->out_h; y++) {
      float iy;
      int32_t y0, y1;
      tfcc_ref_resize_interp_f32(y, hs, half_pixel, s->in_h, &iy, &y0, &y1);
      for (int32_t x = 0; x < s->out_w; x++) {
        float ix;
        int32_t x0, x1;
        tfcc_ref_resize_interp_f32(x, ws, half_pixel, s->in_w, &ix, &x0, &x1);
        const float dy = iy - (float)y0, dx = ix - (float)x0;
        const float w[4] = {(1 - dy) * (1 - dx), (1 - dy) * dx, dy * (1 - dx), dy * dx};
        const size_t p[4] = {off4(s, b, y0, x0), off4(s, b, y0, x1), off4(s, b, y1, x0),
                             off4(s, b, y1, x1)};
        pixel(ctx, o, p, w);
        o += (size_t)s->depth;
      }
    }
}

typedef struct bilinear_ctx {
  const void *in;
  void *out;
  size_t depth;
} bilinear_ctx;

static void pixel_f32(void *ctx, size_t o, const size_t p[4], const float w[4]) {
  const bilinear_ctx *c = ctx;
  const float *in = c->in;
  float *out = (float *)c->out + o;
  for (size_t k = 0; k < c->depth; k++) out[k] = 0.0f;
  for (int t = 0; t < 4; t++)
    for (size_t k = 0; k < c->depth; k++) out[k] += in[p[t] + k] * w[t];
}

static void pixel_u8(void *ctx, size_t o, const size_t p[4], const float w[4]) {
  const bilinear_ctx *c = ctx;
  const uint8_t *in = c->in;
  uint8_t *out = (uint8_t *)c->out + o;
  for (size_t k = 0; k < c->depth; k++) {
    float v = (float)in[p[0] + k] * w[0];
    v = v + (float)in[p[1] + k] * w[1];
    v = v + (float)in[p[2] + k] * w[2];
    v = v + (float)in[p[3] + k] * w[3];
    v = v + 0.5f;
    out[k] = (uint8_t)v;
  }
}

void tfcc_ref_resize_bilinear_f32(const tfcc_resize_shape *s, bool align_corners, bool half_pixel,
                                  const float *in, float *out) {
  if (tfcc_resize_empty(s)) return;
  if (!align_corners && !half_pixel && s->out_h == 2 * s->in_h && s->out_w == 2 * s->in_w) {
    bilinear_f32_2x2(s, in, out);
    return;
  }
  bilinear_ctx c = {in, out, (size_t)s->depth};
  bilinear_walk(s, align_corners, half_pixel, pixel_f32, &c);
}

void tfcc_ref_resize_bilinear_u8(const tfcc_resize_shape *s, bool align_corners, bool half_pixel,
                                 const uint8_t *in, uint8_t *out) {
  if (tfcc_resize_empty(s)) return;
  bilinear_ctx c = {in, out, (size_t)s->depth};
  bilinear_walk(s, align_corners, half_pixel, pixel_u8, &c);
}

/* reference_ops::ComputeInterpolationValuesInteger. */
static void interp_i(int32_t value, int32_t scale_10, bool half_pixel, int32_t size,
                     int32_t *scaled, int32_t *lo, int32_t *hi) {
  if (half_pixel)
    *scaled = value * scale_10 + scale_10 / 2 - (1 << 9);
  else
    *scaled = value * scale_10;
  int32_t l = *scaled / (1 << 10);
  int32_t h = (*scaled + (1 << 10) - 1) / (1 << 10);
  *lo = l > 0 ? l : 0;
  *hi = h < size - 1 ? h : size - 1;
}

#define TFCC_BILINEAR_INT(NAME, T) \
  void NAME(const tfcc_resize_shape *s, bool align_corners, bool half_pixel, const T *in, \
            T *out) { \
    if (tfcc_resize_empty(s)) return; \
    int32_t hs = ((1 << 10) * s->in_h + s->out_h / 2) / s->out_h; \
    int32_t ws = ((1 << 10) * s->in_w + s->out_w / 2) / s->out_w; \
    if (align_corners && s->out_h > 1) \
      hs = ((1 << 10) * (s->in_h - 1) + (s->out_h - 1) / 2) / (s->out_h - 1); \
    if (align_corners && s->out_w > 1) \
      ws = ((1 << 10) * (s->in_w - 1) + (s->out_w - 1) / 2) / (s->out_w - 1); \
    T *o = out; \
    for (int32_t b = 0; b < s->batch; b++) \
      for (int32_t y = 0; y < s->out_h; y++) { \
        int32_t iy, y0, y1; \
        interp_i(y, hs, half_pixel, s->in_h, &iy, &y0, &y1); \
        const int64_t fy = iy - (1 << 10) * y0; \
        for (int32_t x = 0; x < s->out_w; x++) { \
          int32_t ix, x0, x1; \
          interp_i(x, ws, half_pixel, s->in_w, &ix, &x0, &x1); \
          const int64_t fx = ix - (1 << 10) * x0; \
          const T *p0 = in + off4(s, b, y0, x0), *p1 = in + off4(s, b, y1, x0); \
          const T *p2 = in + off4(s, b, y0, x1), *p3 = in + off4(s, b, y1, x1); \
          for (int32_t c = 0; c < s->depth; c++) { \
            const int64_t v = (int64_t)p0[c] * ((1 << 10) - fy) * ((1 << 10) - fx) + \
                              (int64_t)p1[c] * fy * ((1 << 10) - fx) + \
                              (int64_t)p2[c] * ((1 << 10) - fy) * fx + (int64_t)p3[c] * fy * fx; \
            const int64_t round = v > 0 ? (1 << 19) : -(1 << 19); \
            *o++ = (T)((v + round) / (1 << 20)); \
          } \
        } \
      } \
  }

TFCC_BILINEAR_INT(tfcc_ref_resize_bilinear_i8, int8_t)
TFCC_BILINEAR_INT(tfcc_ref_resize_bilinear_i16, int16_t)

/* reference_ops GetNearestNeighbor. */
static int32_t nearest(int32_t v, int32_t in_size, int32_t out_size, bool align, bool half) {
  const float scale = (align && out_size > 1) ? (float)(in_size - 1) / (float)(out_size - 1)
                                              : (float)in_size / (float)out_size;
  const float offset = half ? 0.5f : 0.0f;
  const float f = ((float)v + offset) * scale;
  int32_t r = align ? (int32_t)roundf(f) : (int32_t)floorf(f);
  if (r > in_size - 1) r = in_size - 1;
  if (half && r < 0) r = 0;
  return r;
}

/* Input coordinate of output coordinate v: 16.16 fixed point (scale16) when fixed, else
 * nearest(). */
static inline int32_t nn_coord(int32_t v, int32_t in, int32_t out, bool fixed, int32_t scale16,
                               bool align_corners, bool half_pixel) {
  if (!fixed) return nearest(v, in, out, align_corners, half_pixel);
  const int64_t t = ((int64_t)v * scale16) >> 16;
  return (int32_t)(t < in - 1 ? t : in - 1);
}

void tfcc_ref_resize_nearest(const tfcc_resize_shape *s, bool align_corners, bool half_pixel,
                             size_t es, const void *in, void *out) {
  if (tfcc_resize_empty(s)) return;
  const size_t row = (size_t)s->depth * es;
  const uint8_t *src = (const uint8_t *)in;
  uint8_t *dst = (uint8_t *)out;
  /* optimized_ops::ResizeNearestNeighbor (8-bit only): 16.16 scales with +1. */
  const bool fixed = es == 1 && !align_corners && !half_pixel;
  const int32_t hs16 = (int32_t)(((int64_t)s->in_h << 16) / s->out_h + 1);
  const int32_t ws16 = (int32_t)(((int64_t)s->in_w << 16) / s->out_w + 1);
  for (int32_t b = 0; b < s->batch; b++)
    for (int32_t y = 0; y < s->out_h; y++) {
      const int32_t iy = nn_coord(y, s->in_h, s->out_h, fixed, hs16, align_corners, half_pixel);
      for (int32_t x = 0; x < s->out_w; x++) {
        const int32_t ix = nn_coord(x, s->in_w, s->out_w, fixed, ws16, align_corners, half_pixel);
        memcpy(dst, src + off4(s, b, iy, ix) * es, row);
        dst += row;
      }
    }
}

int32_t tfcc_ref_resize_nearest_coord(int32_t v, int32_t in, int32_t out, bool align_corners,
                                      bool half_pixel, size_t es) {
  const bool fixed = es == 1 && !align_corners && !half_pixel;
  const int32_t scale16 = (int32_t)(((int64_t)in << 16) / out + 1);
  return nn_coord(v, in, out, fixed, scale16, align_corners, half_pixel);
}
