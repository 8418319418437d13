/* f32 depthwise kernel, wasm SIMD128. 3x3 filters with channels in whole vectors: the pixels
 * whose window lies inside the image go channel vector by channel vector over a run of up to
 * DW_RUN pixels of the row, the vector's 9 weights held in registers across the run (9 input
 * loads, 9 multiplies, 9 adds per pixel and vector, against 18 loads when each pixel reloads
 * its weights; V8 on x86-64 is load-bound there); the run's input columns (3 rows) and output
 * stay in L1 while the channel vectors walk them. Border pixels, other filters and channel
 * tails: the portable body on explicit SIMD128 vectors (TFCC_DW_F32V; clang does not keep its
 * local block in v128 registers for wasm32). Same sums in the same order either way: bias (or
 * zero), then each tap's product in tap order, multiply and add rounded separately, clamped by
 * f32v_clamp. */
#include "kernels/f32-dwconv/dwconv.h"
#include "kernels/simd/f32v_wasmsimd.h"
#define TFCC_DW_F32V
#define TFCC_DW_FN dwconv_body_wasmsimd
TFCC_F32_DWCONV_DECL(dwconv_body_wasmsimd);
#include "kernels/f32-dwconv/dwconv_body.h"

#define DW_RUN 8

/* Interior pixels [ox_a, ox_b) of one output row: x0 is tap (0, 0) of pixel ox_a (channel 0),
 * px_step floats between pixels, col / row the tap steps. */
static void dw3x3_run(const float *x0, size_t px_step, size_t col, size_t row, const float *filter,
                      const float *bias, size_t C, float *o, size_t n, float lo, float hi) {
  const f32v vlo = f32v_set(lo), vhi = f32v_set(hi);
  for (size_t c = 0; c < C; c += F32V_N) {
    const float *f = filter + c;
    const f32v w0 = f32v_ld(f), w1 = f32v_ld(f + C), w2 = f32v_ld(f + 2 * C);
    const f32v w3 = f32v_ld(f + 3 * C), w4 = f32v_ld(f + 4 * C), w5 = f32v_ld(f + 5 * C);
    const f32v w6 = f32v_ld(f + 6 * C), w7 = f32v_ld(f + 7 * C), w8 = f32v_ld(f + 8 * C);
    const float *x = x0 + c;
    float *op = o + c;
    for (size_t i = 0; i < n; i++, x += px_step, op += C) {
      f32v a = bias ? f32v_ld(bias + c) : f32v_zero();
      const float *r0 = x, *r1 = x + row, *r2 = x + 2 * row;
      a = f32v_add(a, f32v_mul(f32v_ld(r0), w0));
      a = f32v_add(a, f32v_mul(f32v_ld(r0 + col), w1));
      a = f32v_add(a, f32v_mul(f32v_ld(r0 + 2 * col), w2));
      a = f32v_add(a, f32v_mul(f32v_ld(r1), w3));
      a = f32v_add(a, f32v_mul(f32v_ld(r1 + col), w4));
      a = f32v_add(a, f32v_mul(f32v_ld(r1 + 2 * col), w5));
      a = f32v_add(a, f32v_mul(f32v_ld(r2), w6));
      a = f32v_add(a, f32v_mul(f32v_ld(r2 + col), w7));
      a = f32v_add(a, f32v_mul(f32v_ld(r2 + 2 * col), w8));
      f32v_st(op, f32v_clamp(a, vlo, vhi));
    }
  }
}

/* Pixel ox of a row whose filter rows are all inside the image (base0: its first row), the
 * columns outside skipped, as the portable body does. */
static void border_pixel(const tfcc_conv_geom *g, const float *img, ptrdiff_t base0,
                         const float *filter, const float *bias, float *orow, int32_t ox, float lo,
                         float hi) {
  const size_t C = (size_t)g->in_c;
  const int32_t ix0 = ox * g->stride_w - g->pad_w;
  int32_t kx0 = 0, kx1 = 3;
  while (kx0 < 3 && ix0 + kx0 * g->dil_w < 0) kx0++;
  while (kx1 > kx0 && ix0 + (kx1 - 1) * g->dil_w >= g->in_w) kx1--;
  dw_pixel(img, base0 + (ptrdiff_t)ix0 * (ptrdiff_t)C, filter, bias, orow + (size_t)ox * C,
           (int32_t)C, 3, (size_t)g->dil_h * (size_t)g->in_w * C, (size_t)g->dil_w * C, 0, 3, kx0,
           kx1, lo, hi);
}

/* Output rows [row0, row1) of a 3x3 filter, C a multiple of F32V_N. */
static void dw3x3_rows(const tfcc_conv_geom *g, const float *in, const float *filter,
                       const float *bias, float lo, float hi, float *out, int32_t row0,
                       int32_t row1) {
  const size_t C = (size_t)g->in_c;
  const size_t col = (size_t)g->dil_w * C, row = (size_t)g->dil_h * (size_t)g->in_w * C;
  const size_t px_step = (size_t)g->stride_w * C;
  /* interior columns: ix0 >= 0 and ix0 + 2 * dil_w < in_w */
  int32_t ox_a = (g->pad_w + g->stride_w - 1) / g->stride_w;
  const int32_t last = g->in_w - 1 - 2 * g->dil_w + g->pad_w; /* largest ox * stride_w */
  int32_t ox_b = last < 0 ? 0 : last / g->stride_w + 1;
  if (ox_b > g->out_w) ox_b = g->out_w;
  if (ox_a > ox_b) ox_a = ox_b;
  for (int32_t r = row0; r < row1; r++) {
    const int32_t oy = r % g->out_h, b = r / g->out_h;
    const int32_t iy0 = oy * g->stride_h - g->pad_h;
    if (iy0 < 0 || iy0 + 2 * g->dil_h >= g->in_h || ox_a >= ox_b) {
      dwconv_body_wasmsimd(g, in, filter, bias, lo, hi, out, r, r + 1);
      continue;
    }
    const float *img = in + (size_t)b * (size_t)g->in_h * (size_t)g->in_w * C;
    float *orow = out + (size_t)r * (size_t)g->out_w * C;
    const ptrdiff_t base0 = (ptrdiff_t)iy0 * g->in_w * (ptrdiff_t)C;
    for (int32_t ox = 0; ox < ox_a; ox++)
      border_pixel(g, img, base0, filter, bias, orow, ox, lo, hi);
    for (int32_t ox = ox_a; ox < ox_b; ox += DW_RUN) {
      const size_t n = (size_t)(ox_b - ox < DW_RUN ? ox_b - ox : DW_RUN);
      const float *x0 = img + base0 + (ptrdiff_t)(ox * g->stride_w - g->pad_w) * (ptrdiff_t)C;
      dw3x3_run(x0, px_step, col, row, filter, bias, C, orow + (size_t)ox * C, n, lo, hi);
    }
    for (int32_t ox = ox_b; ox < g->out_w; ox++)
      border_pixel(g, img, base0, filter, bias, orow, ox, lo, hi);
  }
}

TFCC_F32_DWCONV_DECL(tfcc_f32_dwconv_wasmsimd) {
  if (g->filter_h == 3 && g->filter_w == 3 && g->in_c % F32V_N == 0)
    dw3x3_rows(g, in, filter, bias, lo, hi, out, row0, row1);
  else
    dwconv_body_wasmsimd(g, in, filter, bias, lo, hi, out, row0, row1);
}
