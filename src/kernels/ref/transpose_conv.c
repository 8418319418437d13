/* Reference transposed convolution kernels; the contract is in transpose_conv.h. */
#include "kernels/ref/transpose_conv.h"

#include <stddef.h>
#include <string.h>

#include "kernels/hybrid/quantize.h"
#include "kernels/ref/conv_acc.h"

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF /* the float sums round each product, as TFLite's kernels here do */
#endif

/* Batches the scatter walks: none for an empty input, whose rows (2^30 of width 0) add
 * nothing. */
static int32_t scatter_batches(const tfcc_conv_geom *g) {
  return g->in_h > 0 && g->in_w > 0 && g->in_c > 0 ? g->batches : 0;
}

#define TFCC_TCONV_SCATTER(ACC, IN_EXPR, F_EXPR) \
  for (int32_t b = 0; b < scatter_batches(g); b++) \
    for (int32_t iy = 0; iy < g->in_h; iy++) \
      for (int32_t ix = 0; ix < g->in_w; ix++) { \
        const int32_t oy0 = iy * g->stride_h - g->pad_h; \
        const int32_t ox0 = ix * g->stride_w - g->pad_w; \
        const size_t ib = (((size_t)b * g->in_h + iy) * g->in_w + ix) * g->in_c; \
        for (int32_t fy = 0; fy < g->filter_h; fy++) { \
          const int32_t oy = oy0 + fy; \
          if (oy < 0 || oy >= g->out_h) continue; \
          for (int32_t fx = 0; fx < g->filter_w; fx++) { \
            const int32_t ox = ox0 + fx; \
            if (ox < 0 || ox >= g->out_w) continue; \
            const size_t obase = (((size_t)b * g->out_h + oy) * g->out_w + ox) * g->out_c; \
            for (int32_t oc = 0; oc < g->out_c; oc++) { \
              const size_t fb = (((size_t)oc * g->filter_h + fy) * g->filter_w + fx) * g->in_c; \
              for (int32_t ic = 0; ic < g->in_c; ic++) ACC[obase + oc] += (IN_EXPR) * (F_EXPR); \
            } \
          } \
        } \
      }

static size_t out_count(const tfcc_conv_geom *g) {
  return (size_t)g->batches * g->out_h * g->out_w * g->out_c;
}

/* One depth block of a tap's dot product, in the order of the GEMM inside TFLite's builtin
   float TRANSPOSE_CONV (TransposeConvV2: Eigen's GEBP, columns = input pixels in blocks of 4):
   for a pixel in a full block of 4, the channels below the largest multiple of 8 go to two
   sums (even, odd), which are added, then the rest one by one; for a pixel past the last full
   block, one running sum. */
static inline float tconv_dot_block(const float *x, const float *w, size_t ws, int32_t n,
                                    int in_block) {
  float d = 0.f;
  int32_t k = 0;
  if (in_block) {
    const int32_t peeled = n / 8 * 8;
    float a0 = 0.f, a1 = 0.f;
    for (; k < peeled; k += 2) {
      a0 += x[k] * w[k * ws];
      a1 += x[k + 1] * w[(k + 1) * ws];
    }
    d = a0 + a1;
  }
  for (; k < n; k++) d += x[k] * w[k * ws];
  return d;
}

/* Eigen's depth blocking of that GEMM (computeProductBlockingSizes, one thread): at most
   max_kc = ((L1 - mr * nr * 4) / ((mr + nr) * 4)) rounded down to a multiple of 8 channels per
   block, L1 16 KiB (Eigen's default where it cannot query the cache, as in the wasm build), mr 1
   and nr 4 (scalar GEBP): 816; a deeper GEMM takes blocks of kc (the last one shorter), kc
   shrunk in steps of 8 to even them out without adding a block. Found by probing the classic
   interpreter at 640..2048 input channels (1024 -> 520, 2048 -> 688, 900 -> 456). */
static int32_t tconv_eigen_kc(int32_t n) {
  const int32_t max_kc = 816;
  if (n <= max_kc) return n;
  if (n % max_kc == 0) return max_kc;
  return max_kc - 8 * ((max_kc - 1 - n % max_kc) / (8 * (n / max_kc + 1)));
}

/* A tap's dot product: each depth block's sum added to the GEMM's zeroed result in turn. */
static float tconv_dot_f32(const float *x, const float *w, size_t ws, int32_t n, int32_t kc,
                           int in_block) {
  float d = 0.f;
  if (ws == 1) /* the weights as stored: a constant stride, as the compiler schedules best */
    for (int32_t s = 0; s < n; s += kc)
      d += tconv_dot_block(x + s, w + s, 1, n - s < kc ? n - s : kc, in_block);
  else
    for (int32_t s = 0; s < n; s += kc)
      d += tconv_dot_block(x + s, w + (size_t)s * ws, ws, n - s < kc ? n - s : kc, in_block);
  return d;
}

/* Where the float weights are read from: weight (oc, tap, k) at w[oc * s_oc + tap * s_tap +
   k * s_k], tap = fy * filter_w + fx. As stored ([out_c][H][W][in_c]) or as
   tfcc_tconv_f32_pack lays them out ([H][W][in_c][out_c]): the same values, the same sums. */
typedef struct tconv_wview {
  const float *w;
  size_t s_oc, s_tap, s_k;
} tconv_wview;

static tconv_wview tconv_view(const tfcc_conv_geom *g, const float *filter, const float *packed) {
  tconv_wview v;
  if (packed) {
    v.w = packed;
    v.s_oc = 1;
    v.s_k = (size_t)g->out_c;
    v.s_tap = (size_t)g->in_c * g->out_c;
  } else {
    v.w = filter;
    v.s_k = 1;
    v.s_tap = (size_t)g->in_c;
    v.s_oc = (size_t)g->filter_h * g->filter_w * g->in_c;
  }
  return v;
}

static const float *tconv_w(const tconv_wview *v, const tfcc_conv_geom *g, int32_t oc, int32_t fy,
                            int32_t fx) {
  return v->w + (size_t)oc * v->s_oc + ((size_t)fy * g->filter_w + fx) * v->s_tap;
}

/* The builtin kernel's order (tfcc_tconv_f32, TFCC_TCONV_F32_BUILTIN). */
static void tconv_f32_builtin(const tfcc_conv_geom *g, const float *in, const tconv_wview *wv,
                              float *out) {
  /* the builtin kernel's Col2im: each (input pixel, tap) dot product added to the zeroed
     output in this order, the bias after all of them. Eigen runs the GEMM (depth k = input
     channels, m = taps x output channels, n = pixels of an image) through GEBP only when
     k + m + n >= 20 (EIGEN_GEMM_TO_COEFFBASED_THRESHOLD; below it a coefficient-wise product)
     and m, n > 1 (else a matrix-vector product); those two make each dot product one running
     sum over all channels, no depth blocks (checked against the classic interpreter: k + m + n
     = 19 / 20, m = 1 and n = 1 at 2048 channels). */
  const int32_t pixels = g->in_h * g->in_w;
  const int32_t m = g->filter_h * g->filter_w * g->out_c;
  const int gebp = g->in_c + m + pixels >= 20 && m > 1 && pixels > 1;
  const int32_t full = gebp ? pixels / 4 * 4 : 0, kc = gebp ? tconv_eigen_kc(g->in_c) : g->in_c;
  for (int32_t b = 0; b < g->batches; b++)
    for (int32_t iy = 0; iy < g->in_h; iy++)
      for (int32_t ix = 0; ix < g->in_w; ix++) {
        const int32_t oy0 = iy * g->stride_h - g->pad_h;
        const int32_t ox0 = ix * g->stride_w - g->pad_w;
        const float *ip = in + (((size_t)b * g->in_h + iy) * g->in_w + ix) * g->in_c;
        const int in_block = iy * g->in_w + ix < full;
        for (int32_t fy = 0; fy < g->filter_h; fy++) {
          const int32_t oy = oy0 + fy;
          if (oy < 0 || oy >= g->out_h) continue;
          for (int32_t fx = 0; fx < g->filter_w; fx++) {
            const int32_t ox = ox0 + fx;
            if (ox < 0 || ox >= g->out_w) continue;
            float *op = out + (((size_t)b * g->out_h + oy) * g->out_w + ox) * g->out_c;
            for (int32_t oc = 0; oc < g->out_c; oc++)
              op[oc] +=
                  tconv_dot_f32(ip, tconv_w(wv, g, oc, fy, fx), wv->s_k, g->in_c, kc, in_block);
          }
        }
      }
}

/* Input row of tap (fy, fx) for output pixel (oy, ox), or -1 where the tap reads no input
   pixel (XNNPACK's indirection then points at its zero buffer: +0 products, no change). */
static int32_t tconv_src(int32_t o, int32_t pad, int32_t f, int32_t stride, int32_t n) {
  const int32_t t = o + pad - f;
  if (t < 0 || t % stride != 0 || t / stride >= n) return -1;
  return t / stride;
}

/* XNNPACK's f32 deconvolution (TFLITE mode, the delegate's), as its IGEMM runs it: per output
   pixel and channel one accumulator started at the bias, the taps in filter order (fy, then
   fx, ascending), each tap's input channels in order, product and sum rounded apart (wasm
   SIMD: no FMA). With fewer than 8 output channels (the default micro-kernel's column tile)
   XNNPACK takes its "nr2" micro-kernel, 4x2c4: four lanes, channel k of a tap in lane k % 4
   (the bias in lane 0), lanes added (0 + 2) + (1 + 3) after the last tap. Matches LiteRT.js
   bit for bit (docs/quantization.md). */
static inline __attribute__((always_inline)) void tconv_f32_xnnpack_body(
    const tfcc_conv_geom *g, const float *in, const tconv_wview *wv, size_t ws, const float *bias,
    float act_min, float act_max, float *out) {
  const int c4 = g->out_c < 8;
  const int32_t n = g->in_c, n4 = n / 4 * 4;
  float lane[8][4];
  for (int32_t b = 0; b < g->batches; b++)
    for (int32_t oy = 0; oy < g->out_h; oy++)
      for (int32_t ox = 0; ox < g->out_w; ox++) {
        float *op = out + (((size_t)b * g->out_h + oy) * g->out_w + ox) * g->out_c;
        for (int32_t oc = 0; oc < g->out_c; oc++) {
          const float b0 = bias ? bias[oc] : 0.f;
          if (c4) {
            lane[oc][0] = b0;
            lane[oc][1] = lane[oc][2] = lane[oc][3] = 0.f;
          } else {
            op[oc] = b0;
          }
        }
        for (int32_t fy = 0; fy < g->filter_h; fy++) {
          const int32_t iy = tconv_src(oy, g->pad_h, fy, g->stride_h, g->in_h);
          if (iy < 0) continue;
          for (int32_t fx = 0; fx < g->filter_w; fx++) {
            const int32_t ix = tconv_src(ox, g->pad_w, fx, g->stride_w, g->in_w);
            if (ix < 0) continue;
            const float *x = in + (((size_t)b * g->in_h + iy) * g->in_w + ix) * n;
            for (int32_t oc = 0; oc < g->out_c; oc++) {
              const float *w = tconv_w(wv, g, oc, fy, fx);
              if (c4) {
                float *l = lane[oc];
                int32_t k = 0;
                for (; k < n4; k += 4) {
                  l[0] += x[k] * w[k * ws];
                  l[1] += x[k + 1] * w[(k + 1) * ws];
                  l[2] += x[k + 2] * w[(k + 2) * ws];
                  l[3] += x[k + 3] * w[(k + 3) * ws];
                }
                for (; k < n; k++) l[k - n4] += x[k] * w[k * ws];
              } else {
                float acc = op[oc];
                for (int32_t k = 0; k < n; k++) acc += x[k] * w[k * ws];
                op[oc] = acc;
              }
            }
          }
        }
        for (int32_t oc = 0; oc < g->out_c; oc++) {
          float v = c4 ? (lane[oc][0] + lane[oc][2]) + (lane[oc][1] + lane[oc][3]) : op[oc];
          v = v < act_min ? act_min : v;
          op[oc] = v > act_max ? act_max : v;
        }
      }
}

/* ws: the weights' channel stride, 1 (as stored: contiguous loads, which the lanes' products
   vectorize on) or out_c (the packing); each body compiled for its own. */
static void tconv_f32_xnnpack(const tfcc_conv_geom *g, const float *in, const tconv_wview *wv,
                              const float *bias, float act_min, float act_max, float *out) {
  if (wv->s_k == 1)
    tconv_f32_xnnpack_body(g, in, wv, 1, bias, act_min, act_max, out);
  else
    tconv_f32_xnnpack_body(g, in, wv, wv->s_k, bias, act_min, act_max, out);
}

void tfcc_tconv_f32_pack(const float *filter, int32_t out_c, int32_t filter_h, int32_t filter_w,
                         int32_t in_c, float *packed) {
  for (int32_t oc = 0; oc < out_c; oc++)
    for (int32_t fy = 0; fy < filter_h; fy++)
      for (int32_t fx = 0; fx < filter_w; fx++)
        for (int32_t k = 0; k < in_c; k++)
          packed[(((size_t)fy * filter_w + fx) * in_c + k) * out_c + oc] =
              filter[(((size_t)oc * filter_h + fy) * filter_w + fx) * in_c + k];
}

/* XNNPACK's order with 8 or more output channels, on weights packed [fy][fx][in_c][out_c]: the
   same sums as tconv_f32_xnnpack's (each channel's accumulator in the output, the bias, then
   tap by tap, input channel by input channel), the innermost loop running across the output
   channels, whose sums are independent: vectorized by the compiler without reordering any. */
static void tconv_f32_xnnpack_packed(const tfcc_conv_geom *g, const float *in, const float *packed,
                                     const float *bias, float act_min, float act_max, float *out) {
  const int32_t n = g->in_c, oc_n = g->out_c;
  for (int32_t b = 0; b < g->batches; b++)
    for (int32_t oy = 0; oy < g->out_h; oy++)
      for (int32_t ox = 0; ox < g->out_w; ox++) {
        float *restrict op = out + (((size_t)b * g->out_h + oy) * g->out_w + ox) * oc_n;
        for (int32_t oc = 0; oc < oc_n; oc++) op[oc] = bias ? bias[oc] : 0.f;
        for (int32_t fy = 0; fy < g->filter_h; fy++) {
          const int32_t iy = tconv_src(oy, g->pad_h, fy, g->stride_h, g->in_h);
          if (iy < 0) continue;
          for (int32_t fx = 0; fx < g->filter_w; fx++) {
            const int32_t ix = tconv_src(ox, g->pad_w, fx, g->stride_w, g->in_w);
            if (ix < 0) continue;
            const float *restrict x = in + (((size_t)b * g->in_h + iy) * g->in_w + ix) * n;
            const float *restrict w = packed + ((size_t)fy * g->filter_w + fx) * n * oc_n;
            for (int32_t k = 0; k < n; k++, w += oc_n) {
              const float xk = x[k];
              for (int32_t oc = 0; oc < oc_n; oc++) op[oc] += xk * w[oc];
            }
          }
        }
        for (int32_t oc = 0; oc < oc_n; oc++) {
          const float v = op[oc] < act_min ? act_min : op[oc];
          op[oc] = v > act_max ? act_max : v;
        }
      }
}

void tfcc_tconv_f32(const tfcc_conv_geom *g, const float *in, const float *filter,
                    const float *packed, const float *bias, float act_min, float act_max,
                    tfcc_tconv_f32_order order, float *out) {
  if (order == TFCC_TCONV_F32_XNNPACK && packed && g->out_c >= 8) {
    tconv_f32_xnnpack_packed(g, in, packed, bias, act_min, act_max, out);
    return;
  }
  /* the stored weights where the caller has them (contiguous per tap), else the packing */
  const tconv_wview wv = tconv_view(g, filter, filter ? NULL : packed);
  if (order == TFCC_TCONV_F32_XNNPACK) {
    tconv_f32_xnnpack(g, in, &wv, bias, act_min, act_max, out);
    return;
  }
  const size_t n = out_count(g);
  memset(out, 0, n * sizeof(float));
  tconv_f32_builtin(g, in, &wv, out);
  for (size_t i = 0; i < n; i++) {
    out[i] = tfcc_bias_act_f32(out[i], bias, i % (size_t)g->out_c, act_min, act_max);
  }
}

void tfcc_tconv_u8(const tfcc_conv_geom *g, const tfcc_conv_requant *q, const uint8_t *in,
                   const uint8_t *filter, const int32_t *bias, int64_t *acc, uint8_t *out) {
  const size_t n = out_count(g);
  const int32_t io = q->input_offset, fo = q->filter_offset;
  memset(acc, 0, n * sizeof(int64_t));
  TFCC_TCONV_SCATTER(acc, (int64_t)((int32_t)in[ib + ic] + io),
                     (int64_t)((int32_t)filter[fb + ic] + fo))
  for (size_t i = 0; i < n; i++) {
    const int32_t oc = (int32_t)(i % (size_t)g->out_c);
    out[i] = (uint8_t)tfcc_requant32_b(acc[i], bias, q, oc);
  }
}

void tfcc_tconv_i8(const tfcc_conv_geom *g, const tfcc_conv_requant *q, const int8_t *in,
                   const int8_t *filter, const int32_t *bias, int64_t *acc, int8_t *out) {
  const size_t n = out_count(g);
  const int32_t io = q->input_offset;
  memset(acc, 0, n * sizeof(int64_t));
  TFCC_TCONV_SCATTER(acc, (int64_t)((int32_t)in[ib + ic] + io), (int64_t)filter[fb + ic])
  for (size_t i = 0; i < n; i++) {
    const int32_t oc = (int32_t)(i % (size_t)g->out_c);
    out[i] = (int8_t)tfcc_requant32_b(acc[i], bias, q, oc);
  }
}

void tfcc_tconv_i16(const tfcc_conv_geom *g, const tfcc_conv_requant *q, const int16_t *in,
                    const int8_t *filter, const int64_t *bias64, const int32_t *bias32,
                    int64_t *acc, int16_t *out) {
  const size_t n = out_count(g);
  memset(acc, 0, n * sizeof(int64_t));
  TFCC_TCONV_SCATTER(acc, (int64_t)in[ib + ic], (int64_t)filter[fb + ic])
  for (size_t i = 0; i < n; i++) {
    const int32_t oc = (int32_t)(i % (size_t)g->out_c);
    out[i] = (int16_t)(bias32 ? tfcc_requant16_b32(acc[i], bias32[oc], q, oc)
                              : tfcc_requant64(acc[i], bias64 ? bias64[oc] : 0, q, oc));
  }
}

size_t tfcc_tconv_hybrid_scratch(const tfcc_conv_geom *g) {
  const size_t n_out = (size_t)g->out_h * g->out_w * g->out_c;
  const size_t n_in = (size_t)g->in_h * g->in_w * g->in_c;
  return n_out * sizeof(int32_t) + n_in + 64;
}

void tfcc_tconv_hybrid(const tfcc_conv_geom *g, const float *in, const int8_t *filter,
                       const float *w_scale, int32_t w_scale_stride, const float *bias,
                       float act_min, float act_max, void *scratch, float *out, bool qd8) {
  const size_t n_out = (size_t)g->out_h * g->out_w * g->out_c;
  const size_t n_in = (size_t)g->in_h * g->in_w * g->in_c;
  int32_t *acc = scratch;
  int8_t *q = (int8_t *)(acc + n_out);
  for (int32_t b = 0; b < g->batches; b++) {
    float s = 1.f;
    int32_t zp = 0;
    if (n_in > 0)
      tfcc_hyb_quantize(qd8 ? TFCC_HYB_QD8 : TFCC_HYB_ASYM, in + (size_t)b * n_in, n_in, q, &s, &zp,
                        NULL, NULL);
    memset(acc, 0, n_out * sizeof(int32_t));
    for (int32_t iy = 0; iy < (n_in > 0 ? g->in_h : 0); iy++)
      for (int32_t ix = 0; ix < g->in_w; ix++) {
        const int8_t *ip = q + ((size_t)iy * g->in_w + ix) * g->in_c;
        const int32_t oy0 = iy * g->stride_h - g->pad_h, ox0 = ix * g->stride_w - g->pad_w;
        for (int32_t fy = 0; fy < g->filter_h; fy++) {
          const int32_t oy = oy0 + fy;
          if (oy < 0 || oy >= g->out_h) continue;
          for (int32_t fx = 0; fx < g->filter_w; fx++) {
            const int32_t ox = ox0 + fx;
            if (ox < 0 || ox >= g->out_w) continue;
            int32_t *op = acc + ((size_t)oy * g->out_w + ox) * g->out_c;
            for (int32_t oc = 0; oc < g->out_c; oc++) {
              const int8_t *fp =
                  filter + (((size_t)oc * g->filter_h + fy) * g->filter_w + fx) * g->in_c;
              int32_t sum = 0;
              for (int32_t ic = 0; ic < g->in_c; ic++) sum += ((int32_t)ip[ic] - zp) * fp[ic];
              op[oc] += sum;
            }
          }
        }
      }
    float *ob = out + (size_t)b * n_out;
    for (size_t i = 0; i < n_out; i++) {
      const int32_t oc = (int32_t)(i % (size_t)g->out_c);
      const float ws = w_scale[oc * w_scale_stride], bv = bias ? bias[oc] : 0.f;
      const float v = qd8 ? ((float)acc[i] * s) * ws + bv : (float)acc[i] * (s * ws) + bv;
      ob[i] = v < act_min ? act_min : (v > act_max ? act_max : v);
    }
  }
}
