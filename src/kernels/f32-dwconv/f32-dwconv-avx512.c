/* f32 depthwise kernel, AVX-512F. For each output row and each 16-channel block (masked
 * tail), the filter taps stay in zmm registers while the row's pixels are computed one after
 * another: interior pixels (every tap inside the image) read their taps through the filter
 * rows' pointers, advanced by one stride per pixel, with the loads folded into the FMAs
 * (unmasked for full blocks); consecutive pixels' FMA chains overlap out of order. Every
 * path sums bias then the taps in the same order, padded taps included as FMAs with zero
 * (so explicit PAD + VALID and SAME padding give identical bits). 3x3 and 5x5 are unrolled at
 * compile time, any stride or dilation. Padding reads as zero through masked loads: filter rows outside the
 * image get an all-zero mask in the same loop, the few pixels whose columns leave the image
 * a mask per tap; nothing outside the image is read and a padded tap adds exactly 0, as the
 * reference skips it. MobileNet's shapes are compiled with their channel count (interior rows,
 * 32/96/144/192) or tile width (padded tiles of 14- and 7-wide images) as constants, so every
 * load is a pointer plus a constant offset instead of pointers kept on the stack
 * (A/B at -O3, thread CPU time: 0.79-1.0x the time of the runtime-width code, ~0.94x over
 * MobileNetV2's layers; same bits). */
#include <immintrin.h>
#include <stdbool.h>
#include <stddef.h>

#include "kernels/f32-dwconv/dwconv.h"
#include "kernels/simd/f32v_avx512.h"

#define MAX_KH 16

static inline __mmask16 tail_mask(int32_t n) {
  return n >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << n) - 1u);
}

/* One pixel with per-tap masks (taps outside the image read as zero). */
static inline __attribute__((always_inline)) __m512 pixel_masked(const tfcc_conv_geom *g,
                                                                 const float *const *rowp,
                                                                 const float *filter, int32_t KH,
                                                                 int32_t KW, int32_t ox, int32_t c0,
                                                                 __mmask16 m, __m512 acc) {
  const size_t C = (size_t)g->in_c;
  const int32_t ix0 = ox * g->stride_w - g->pad_w;
  for (int32_t ky = 0; ky < KH; ky++) {
    const float *rp = rowp[ky];
    for (int32_t kx = 0; kx < KW; kx++) {
      const int32_t ix = ix0 + kx * g->dil_w;
      const bool ok = rp && ix >= 0 && ix < g->in_w;
      const __mmask16 mt = ok ? m : 0;
      const float *src = ok ? rp + (size_t)ix * C + (size_t)c0 : filter;
      const __m512 w = _mm512_maskz_loadu_ps(
          m, filter + ((size_t)ky * (size_t)KW + (size_t)kx) * C + (size_t)c0);
      acc = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(mt, src), w, acc);
    }
  }
  return acc;
}

/* One step of the interior kernels: 4 pixels x NR output rows of 16 channels from the input
 * rows p[j] + c0 (w: the 9 taps, b: the bias), clamped and stored at orow[r] + o + c0. */
static inline __attribute__((always_inline)) void step_4px(const float *const *p, size_t C,
                                                           size_t c0, const __m512 *w, __m512 b,
                                                           __m512 lo, __m512 hi, float *const *orow,
                                                           size_t o, const int32_t SH,
                                                           const int32_t SW, const int32_t NR) {
  const int32_t NJ = (NR - 1) * SH + 3, NK = 3 * SW + 3;
  __m512 sum[2][4];
  for (int32_t r = 0; r < NR; r++)
    for (int32_t u = 0; u < 4; u++) sum[r][u] = b;
  for (int32_t j = 0; j < NJ; j++) {
    __m512 x[9];
    for (int32_t k = 0; k < NK; k++) x[k] = _mm512_loadu_ps(p[j] + (size_t)k * C + c0);
    for (int32_t r = 0; r < NR; r++) {
      const int32_t ky = j - r * SH;
      if (ky < 0 || ky >= 3) continue;
      for (int32_t u = 0; u < 4; u++)
        for (int32_t kx = 0; kx < 3; kx++)
          sum[r][u] = _mm512_fmadd_ps(w[ky * 3 + kx], x[u * SW + kx], sum[r][u]);
    }
  }
  for (int32_t r = 0; r < NR; r++)
    for (int32_t u = 0; u < 4; u++)
      _mm512_storeu_ps(orow[r] + o + (size_t)u * C + c0, f32v_clamp(sum[r][u], lo, hi));
}

/* 3x3, dilation 1, stride SH x SW (constants), full blocks, every filter row inside the
 * image: 4 pixels x NR output rows per step. Each distinct input row's columns are loaded
 * once per step and feed every output that reads them (s1, NR 2: 24 loads for 72 FMAs);
 * each output's chain still runs bias, then the taps in (ky, kx) order, like every other
 * path. rj: the (NR - 1) * SH + 3 input rows, at the block's first interior column. Returns
 * the pixels done (a multiple of 4). */
static inline __attribute__((always_inline)) int32_t interior_3x3(
    const float *const *rj, size_t C, const __m512 *w, __m512 b, __m512 lo, __m512 hi,
    float *const *orow, size_t o, int32_t n, const int32_t SH, const int32_t SW, const int32_t NR) {
  const float *p[5];
  const int32_t NJ = (NR - 1) * SH + 3;
  for (int32_t j = 0; j < NJ; j++) p[j] = rj[j];
  int32_t done = 0;
  for (; done + 4 <= n; done += 4, o += 4 * C) {
    step_4px(p, C, 0, w, b, lo, hi, orow, o, SH, SW, NR);
    for (int32_t j = 0; j < NJ; j++) p[j] += 4 * (size_t)SW * C;
  }
  return done;
}

/* The same for groups of 4 pixels across every full 16-channel block (blocks inner), so
 * each input row is read front to back, one stream per row, instead of once per block with
 * a stride of C floats; weights are reloaded per block (L1). rj: rows at the first interior
 * column, channel 0; o: output offset of that column. */
static inline __attribute__((always_inline)) void interior_3x3_rows(
    const float *const *rj, size_t C, size_t cfull, const float *filter, const float *bias,
    __m512 lo, __m512 hi, float *const *orow, size_t o, int32_t groups, const int32_t SH,
    const int32_t SW, const int32_t NR) {
  const int32_t NJ = (NR - 1) * SH + 3;
  for (int32_t gi = 0; gi < groups; gi++, o += 4 * C) {
    const float *p[5];
    for (int32_t j = 0; j < NJ; j++) p[j] = rj[j] + (size_t)gi * 4 * (size_t)SW * C;
    for (size_t c0 = 0; c0 < cfull; c0 += 16) {
      __m512 w[9];
      for (int32_t t = 0; t < 9; t++) w[t] = _mm512_loadu_ps(filter + (size_t)t * C + c0);
      const __m512 b = bias ? _mm512_loadu_ps(bias + c0) : _mm512_setzero_ps();
      step_4px(p, C, c0, w, b, lo, hi, orow, o, SH, SW, NR);
    }
  }
}

/* interior_3x3_rows with the channel count a compile-time constant for MobileNet's widths
 * under 256 (32, 96, 144, 192): every load is then a row pointer plus the block offset plus
 * a constant, instead of 9 column pointers per row the compiler keeps on the stack. */
static inline __attribute__((always_inline)) void interior_3x3_rows_c(
    const float *const *rj, size_t C, const float *filter, const float *bias, __m512 lo, __m512 hi,
    float *const *orow, size_t o, int32_t groups, const int32_t SH, const int32_t SW,
    const int32_t NR) {
#define ROWS_C(c, c16) \
  interior_3x3_rows(rj, c, c16, filter, bias, lo, hi, orow, o, groups, SH, SW, NR)
  switch (C) {
    case 32: ROWS_C(32, 32); break;
    case 96: ROWS_C(96, 96); break;
    case 144: ROWS_C(144, 144); break;
    case 192: ROWS_C(192, 192); break;
    default: ROWS_C(C, C / 16 * 16);
  }
#undef ROWS_C
}

/* Each (SH, SW, NR) of interior_3x3_rows_c and each shape of rows_fixed below is a function
 * of its own, not inlined into one caller: one function holding every specialisation took
 * clang's register allocator 9 minutes under ASan (a few minutes of every sanitizer build);
 * a call per row or per row group costs nothing measurable. */
typedef void (*interior_rows_fn)(const float *const *rj, size_t C, const float *filter,
                                 const float *bias, __m512 lo, __m512 hi, float *const *orow,
                                 size_t o, int32_t groups);
#define INTERIOR_ROWS_FN(SH, SW, NR) \
  static __attribute__((noinline)) void interior_rows_##SH##SW##NR( \
      const float *const *rj, size_t C, const float *filter, const float *bias, __m512 lo, \
      __m512 hi, float *const *orow, size_t o, int32_t groups) { \
    interior_3x3_rows_c(rj, C, filter, bias, lo, hi, orow, o, groups, SH, SW, NR); \
  }
INTERIOR_ROWS_FN(1, 1, 1)
INTERIOR_ROWS_FN(1, 2, 1)
INTERIOR_ROWS_FN(2, 1, 1)
INTERIOR_ROWS_FN(2, 2, 1)
INTERIOR_ROWS_FN(1, 1, 2)
INTERIOR_ROWS_FN(1, 2, 2)
INTERIOR_ROWS_FN(2, 1, 2)
INTERIOR_ROWS_FN(2, 2, 2)
#undef INTERIOR_ROWS_FN
/* [NR - 1][SH - 1][SW - 1] */
static const interior_rows_fn interior_rows[2][2][2] = {
    {{interior_rows_111, interior_rows_121}, {interior_rows_211, interior_rows_221}},
    {{interior_rows_112, interior_rows_122}, {interior_rows_212, interior_rows_222}}};

/* NR output rows (1 or 2, constants in the callers) at once: rowp holds NR x KH filter-row
 * pointers (NULL outside the image); two rows share the input lines they both read while
 * the lines are in L1. */
static inline __attribute__((always_inline)) void rows_fixed(
    const tfcc_conv_geom *g, const float *img, const float *const *rowp, bool rows_ok,
    const float *filter, const float *bias, __m512 lo, __m512 hi, float *const *orow,
    const int32_t KH, const int32_t KW, const int32_t NR) {
  const int32_t C = g->in_c, sw = g->stride_w, dw = g->dil_w;
  int32_t ox_lo = 0, ox_hi = g->out_w;
  while (ox_lo < g->out_w && ox_lo * sw - g->pad_w < 0) ox_lo++;
  while (ox_hi > ox_lo && (ox_hi - 1) * sw - g->pad_w + (KW - 1) * dw >= g->in_w) ox_hi--;
  const size_t step = (size_t)sw * (size_t)C, dc = (size_t)dw * (size_t)C;
  /* 3x3, dilation 1, stride 1 or 2, all filter rows inside, fewer than 256 channels:
   * interior pixel groups of every full block first, pixels outer (sequential rows; 112x112x32
   * 0.23 -> 0.17 ms), then the rest per block below */
  int32_t pre = 0;
  const int32_t sh = g->stride_h;
  if (rows_ok && KH == 3 && KW == 3 && dw == 1 && g->dil_h == 1 && (sw == 1 || sw == 2) &&
      (sh == 1 || sh == 2) && C >= 16 && C < 256 && ox_hi - ox_lo >= 4) {
    /* (wide layers keep the block-outer order: reloading 9 x C weights per pixel group
     * costs more than the strided rows; measured 14x14x576 0.050 -> 0.064 ms) */
    const float *rj[5];
    for (int32_t j = 0; j < (NR - 1) * sh + 3; j++) {
      const float *row = j < 3 ? rowp[j] : rowp[KH + j - sh];
      rj[j] = row + (size_t)(ox_lo * sw - g->pad_w) * (size_t)C;
    }
    const int32_t groups = (ox_hi - ox_lo) / 4;
    const size_t o0 = (size_t)ox_lo * (size_t)C;
    interior_rows[NR - 1][sh - 1][sw - 1](rj, (size_t)C, filter, bias, lo, hi, orow, o0, groups);
    pre = groups * 4;
  }
  for (int32_t c0 = 0; c0 < C; c0 += 16) {
    const __mmask16 m = tail_mask(C - c0);
    const bool full = C - c0 >= 16;
    __m512 w[25];
    for (int32_t t = 0; t < KH * KW; t++)
      w[t] = _mm512_maskz_loadu_ps(m, filter + (size_t)t * (size_t)C + (size_t)c0);
    const __m512 b = bias ? _mm512_maskz_loadu_ps(m, bias + c0) : _mm512_setzero_ps();
    int32_t ox = 0;
    for (; ox < ox_lo; ox++)
      for (int32_t r = 0; r < NR; r++)
        _mm512_mask_storeu_ps(
            orow[r] + (size_t)ox * (size_t)C + (size_t)c0, m,
            f32v_clamp(pixel_masked(g, rowp + r * KH, filter, KH, KW, ox, c0, m, b), lo, hi));
    if (full) ox += pre; /* done above */
    if (ox < ox_hi) {
      const float *q[2 * MAX_KH];
      __mmask16 mk[2 * MAX_KH]; /* rows outside the image: mask 0 (reads as zero, no access) */
      for (int32_t t = 0; t < NR * KH; t++) {
        mk[t] = rowp[t] ? m : 0;
        q[t] = (rowp[t] ? rowp[t] : img) + (size_t)(ox * sw - g->pad_w) * (size_t)C + (size_t)c0;
      }
      size_t o = (size_t)ox * (size_t)C + (size_t)c0;
      if (full && rows_ok && KH == 3 && KW == 3 && dw == 1 && g->dil_h == 1 &&
          (sw == 1 || sw == 2) && (g->stride_h == 1 || g->stride_h == 2)) {
        const float *rj[5];
        for (int32_t j = 0; j < (NR - 1) * sh + 3; j++) rj[j] = j < 3 ? q[j] : q[KH + j - sh];
        int32_t n = ox_hi - ox, d;
        if (sh == 1)
          d = sw == 1 ? interior_3x3(rj, (size_t)C, w, b, lo, hi, orow, o, n, 1, 1, NR)
                      : interior_3x3(rj, (size_t)C, w, b, lo, hi, orow, o, n, 1, 2, NR);
        else
          d = sw == 1 ? interior_3x3(rj, (size_t)C, w, b, lo, hi, orow, o, n, 2, 1, NR)
                      : interior_3x3(rj, (size_t)C, w, b, lo, hi, orow, o, n, 2, 2, NR);
        ox += d;
        o += (size_t)d * (size_t)C;
        for (int32_t t = 0; t < NR * KH; t++) q[t] += (size_t)d * step;
      }
      if (full && rows_ok) {
        /* 4 pixels x NR rows of independent FMA chains per step (each chain in tap order) */
        for (; ox + 4 <= ox_hi; ox += 4, o += 4 * (size_t)C) {
          __m512 sum[2][4];
          for (int32_t r = 0; r < NR; r++)
            for (int32_t u = 0; u < 4; u++) sum[r][u] = b;
          for (int32_t ky = 0; ky < KH; ky++)
            for (int32_t kx = 0; kx < KW; kx++)
              for (int32_t r = 0; r < NR; r++)
                for (int32_t u = 0; u < 4; u++)
                  sum[r][u] = _mm512_fmadd_ps(
                      w[ky * KW + kx],
                      _mm512_loadu_ps(q[r * KH + ky] + (size_t)u * step + (size_t)kx * dc),
                      sum[r][u]);
          for (int32_t t = 0; t < NR * KH; t++) q[t] += 4 * step;
          for (int32_t r = 0; r < NR; r++)
            for (int32_t u = 0; u < 4; u++)
              _mm512_storeu_ps(orow[r] + o + (size_t)u * (size_t)C, f32v_clamp(sum[r][u], lo, hi));
        }
        for (; ox < ox_hi; ox++, o += (size_t)C)
          for (int32_t r = 0; r < NR; r++) {
            __m512 sum = b;
            for (int32_t ky = 0; ky < KH; ky++) {
              for (int32_t kx = 0; kx < KW; kx++)
                sum = _mm512_fmadd_ps(w[ky * KW + kx],
                                      _mm512_loadu_ps(q[r * KH + ky] + (size_t)kx * dc), sum);
              q[r * KH + ky] += step;
            }
            _mm512_storeu_ps(orow[r] + o, f32v_clamp(sum, lo, hi));
          }
      } else {
        for (; ox < ox_hi; ox++, o += (size_t)C)
          for (int32_t r = 0; r < NR; r++) {
            __m512 sum = b;
            for (int32_t ky = 0; ky < KH; ky++) {
              const int32_t t = r * KH + ky;
              for (int32_t kx = 0; kx < KW; kx++)
                sum = _mm512_fmadd_ps(w[ky * KW + kx],
                                      _mm512_maskz_loadu_ps(mk[t], q[t] + (size_t)kx * dc), sum);
              q[t] += step;
            }
            _mm512_mask_storeu_ps(orow[r] + o, m, f32v_clamp(sum, lo, hi));
          }
      }
    }
    for (; ox < g->out_w; ox++)
      for (int32_t r = 0; r < NR; r++)
        _mm512_mask_storeu_ps(
            orow[r] + (size_t)ox * (size_t)C + (size_t)c0, m,
            f32v_clamp(pixel_masked(g, rowp + r * KH, filter, KH, KW, ox, c0, m, b), lo, hi));
  }
}

/* Small images, wide layers (14x14, 7x7 with hundreds of channels): per-row setup and the
 * masked border pixels cost more than the taps there. Instead, per 16-channel block, the
 * input window of the rows [oy0, oy1) of one image is copied once into a zero-padded stack
 * tile (rows x cols x 16 floats), then every output pixel reads its taps from it unmasked, 4
 * pixels at a time, the block's taps in registers. Same sums in the same order as the other
 * paths (padding: FMAs with zero). */
#define ROWS_FIXED_ARGS \
  const tfcc_conv_geom *g, const float *img, const float *const *rowp, bool rows_ok, \
      const float *filter, const float *bias, __m512 lo, __m512 hi, float *const *orow
static __attribute__((noinline)) void rows_3x3_2(ROWS_FIXED_ARGS) {
  rows_fixed(g, img, rowp, rows_ok, filter, bias, lo, hi, orow, 3, 3, 2);
}
static __attribute__((noinline)) void rows_3x3_1(ROWS_FIXED_ARGS) {
  rows_fixed(g, img, rowp, rows_ok, filter, bias, lo, hi, orow, 3, 3, 1);
}
static __attribute__((noinline)) void rows_5x5_1(ROWS_FIXED_ARGS) {
  rows_fixed(g, img, rowp, rows_ok, filter, bias, lo, hi, orow, 5, 5, 1);
}
static __attribute__((noinline)) void rows_any_1(ROWS_FIXED_ARGS) {
  rows_fixed(g, img, rowp, rows_ok, filter, bias, lo, hi, orow, g->filter_h, g->filter_w, 1);
}
#undef ROWS_FIXED_ARGS

#define SMALL_TILE_FLOATS (384 * 16)

static inline __attribute__((always_inline)) void small_block(
    const tfcc_conv_geom *g, const float *img, const float *filter, const float *bias, __m512 lo,
    __m512 hi, float *out, int32_t oy0, int32_t oy1, int32_t c0, float *tile, int32_t tw,
    const int32_t K, const int32_t S) {
  const int32_t C = g->in_c;
  const __mmask16 m = tail_mask(C - c0);
  const int32_t th = (oy1 - oy0 - 1) * S + K, iy0 = oy0 * S - g->pad_h;
  for (int32_t y = 0; y < th; y++) {
    const int32_t iy = iy0 + y;
    const bool row_in = iy >= 0 && iy < g->in_h;
    for (int32_t x = 0; x < tw; x++) {
      const int32_t ix = x - g->pad_w;
      const bool in = row_in && ix >= 0 && ix < g->in_w;
      const float *src =
          in ? img + ((size_t)iy * (size_t)g->in_w + (size_t)ix) * (size_t)C + (size_t)c0 : img;
      _mm512_store_ps(tile + ((size_t)y * (size_t)tw + (size_t)x) * 16,
                      _mm512_maskz_loadu_ps(in ? m : 0, src));
    }
  }
  __m512 w[25];
  for (int32_t t = 0; t < K * K; t++)
    w[t] = _mm512_maskz_loadu_ps(m, filter + (size_t)t * (size_t)C + (size_t)c0);
  const __m512 b = bias ? _mm512_maskz_loadu_ps(m, bias + c0) : _mm512_setzero_ps();
  const size_t row16 = (size_t)tw * 16;
  for (int32_t oy = oy0; oy < oy1; oy++) {
    const float *trow = tile + (size_t)((oy - oy0) * S) * row16;
    float *orow = out + (size_t)oy * (size_t)g->out_w * (size_t)C + (size_t)c0;
    int32_t ox = 0;
    for (; ox + 4 <= g->out_w; ox += 4) {
      __m512 sum[4] = {b, b, b, b};
      for (int32_t ky = 0; ky < K; ky++)
        for (int32_t kx = 0; kx < K; kx++)
          for (int32_t u = 0; u < 4; u++)
            sum[u] = _mm512_fmadd_ps(
                w[ky * K + kx],
                _mm512_load_ps(trow + (size_t)ky * row16 + (size_t)((ox + u) * S + kx) * 16),
                sum[u]);
      for (int32_t u = 0; u < 4; u++)
        _mm512_mask_storeu_ps(orow + (size_t)(ox + u) * (size_t)C, m, f32v_clamp(sum[u], lo, hi));
    }
    for (; ox < g->out_w; ox++) {
      __m512 sum = b;
      for (int32_t ky = 0; ky < K; ky++)
        for (int32_t kx = 0; kx < K; kx++)
          sum = _mm512_fmadd_ps(
              w[ky * K + kx],
              _mm512_load_ps(trow + (size_t)ky * row16 + (size_t)(ox * S + kx) * 16), sum);
      _mm512_mask_storeu_ps(orow + (size_t)ox * (size_t)C, m, f32v_clamp(sum, lo, hi));
    }
  }
}

/* Whether the small-image path takes this layer: 3x3 or 5x5, stride 1, no dilation, at least
 * 256 channels (narrower layers stream their rows, see rows_fixed), and the padded input
 * window of the whole image fits the stack tile. MobileNetV2 (dwconv_bench, thread CPU time,
 * interleaved runs): 7x7x960 0.027 -> 0.017 ms, 14x14x384/576 unchanged; at stride 2
 * (14x14x576) copying 4 input pixels per output made it slower (0.015 -> 0.025 ms). */
static bool small_fits(const tfcc_conv_geom *g) {
  const int32_t K = g->filter_h, S = g->stride_h;
  if (K != g->filter_w || (K != 3 && K != 5) || S != g->stride_w || S != 1 || g->dil_h != 1 ||
      g->dil_w != 1 || g->in_c < 256)
    return false;
  const int64_t th = (int64_t)(g->out_h - 1) * S + K, tw = (int64_t)(g->out_w - 1) * S + K;
  return th * tw * 16 <= SMALL_TILE_FLOATS;
}

static void small_image(const tfcc_conv_geom *g, const float *in, const float *filter,
                        const float *bias, __m512 lo, __m512 hi, float *out, int32_t row0,
                        int32_t row1) {
  _Alignas(64) float tile[SMALL_TILE_FLOATS];
  const int32_t C = g->in_c, K = g->filter_h;
  const int32_t tw = g->out_w - 1 + K;
  for (int32_t r = row0; r < row1;) { /* one image's rows at a time */
    const int32_t b = r / g->out_h, oy0 = r % g->out_h;
    const int32_t oy1 = row1 - r < g->out_h - oy0 ? oy0 + (row1 - r) : g->out_h;
    const float *img = in + (size_t)b * (size_t)g->in_h * (size_t)g->in_w * (size_t)C;
    float *o = out + (size_t)b * (size_t)g->out_h * (size_t)g->out_w * (size_t)C;
    for (int32_t c0 = 0; c0 < C; c0 += 16) {
      /* 3x3 on 14- and 7-wide images (MobileNet): the tile width a constant, so every tap
       * of a 4-pixel group is the group's tile address plus a constant */
      if (K == 3 && tw == 16)
        small_block(g, img, filter, bias, lo, hi, o, oy0, oy1, c0, tile, 16, 3, 1);
      else if (K == 3 && tw == 9)
        small_block(g, img, filter, bias, lo, hi, o, oy0, oy1, c0, tile, 9, 3, 1);
      else if (K == 3)
        small_block(g, img, filter, bias, lo, hi, o, oy0, oy1, c0, tile, tw, 3, 1);
      else
        small_block(g, img, filter, bias, lo, hi, o, oy0, oy1, c0, tile, tw, 5, 1);
    }
    r += oy1 - oy0;
  }
}

TFCC_F32_DWCONV_DECL(tfcc_f32_dwconv_avx512) {
  const int32_t C = g->in_c, KH = g->filter_h, KW = g->filter_w;
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  const bool small = KH <= MAX_KH && KH * KW <= 25;
  if (small_fits(g)) {
    small_image(g, in, filter, bias, vlo, vhi, out, row0, row1);
    return;
  }
  for (int32_t rw = row0; rw < row1; rw++) {
    const int32_t b = rw / g->out_h, oy = rw % g->out_h;
    const float *img = in + (size_t)b * (size_t)g->in_h * (size_t)g->in_w * (size_t)C;
    float *orow = out + (size_t)rw * (size_t)g->out_w * (size_t)C;
    const int32_t iy0 = oy * g->stride_h - g->pad_h;
    if (!small) { /* large windows: masked taps, one pixel at a time */
      for (int32_t ox = 0; ox < g->out_w; ox++)
        for (int32_t c0 = 0; c0 < C; c0 += 16) {
          const __mmask16 m = tail_mask(C - c0);
          __m512 acc = bias ? _mm512_maskz_loadu_ps(m, bias + c0) : _mm512_setzero_ps();
          const int32_t ix0 = ox * g->stride_w - g->pad_w;
          for (int32_t ky = 0; ky < KH; ky++) { /* padded taps: FMA with zero, as above */
            const int32_t iy = iy0 + ky * g->dil_h;
            for (int32_t kx = 0; kx < KW; kx++) {
              const int32_t ix = ix0 + kx * g->dil_w;
              const bool ok = iy >= 0 && iy < g->in_h && ix >= 0 && ix < g->in_w;
              const float *src =
                  ok ? img + ((size_t)iy * (size_t)g->in_w + (size_t)ix) * (size_t)C + (size_t)c0
                     : img;
              const __m512 x = _mm512_maskz_loadu_ps(ok ? m : 0, src);
              const __m512 wt = _mm512_maskz_loadu_ps(
                  m, filter + ((size_t)ky * (size_t)KW + (size_t)kx) * (size_t)C + (size_t)c0);
              acc = _mm512_fmadd_ps(x, wt, acc);
            }
          }
          _mm512_mask_storeu_ps(orow + (size_t)ox * (size_t)C + (size_t)c0, m,
                                f32v_clamp(acc, vlo, vhi));
        }
      continue;
    }
    /* 3x3: two output rows of the same image per pass when the range has them */
    const int32_t nr = KH == 3 && KW == 3 && rw + 1 < row1 && oy + 1 < g->out_h ? 2 : 1;
    const float *rowp[2 * MAX_KH];
    float *orows[2] = {orow, orow + (size_t)g->out_w * (size_t)C};
    bool rows_ok = true;
    for (int32_t r = 0; r < nr; r++)
      for (int32_t ky = 0; ky < KH; ky++) {
        const int32_t iy = iy0 + r * g->stride_h + ky * g->dil_h;
        const float *p =
            iy >= 0 && iy < g->in_h ? img + (size_t)iy * (size_t)g->in_w * (size_t)C : NULL;
        rowp[r * KH + ky] = p;
        rows_ok = rows_ok && p;
      }
    if (nr == 2) {
      rows_3x3_2(g, img, rowp, rows_ok, filter, bias, vlo, vhi, orows);
      rw++;
    } else if (KH == 3 && KW == 3) {
      rows_3x3_1(g, img, rowp, rows_ok, filter, bias, vlo, vhi, orows);
    } else if (KH == 5 && KW == 5) {
      rows_5x5_1(g, img, rowp, rows_ok, filter, bias, vlo, vhi, orows);
    } else {
      rows_any_1(g, img, rowp, rows_ok, filter, bias, vlo, vhi, orows);
    }
  }
}
