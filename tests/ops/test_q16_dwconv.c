/* int16 x int8 depthwise convolution (q16-dwconv): every variant this CPU can run, its sums
 * against a plain int64 loop (tap counts 0..32 with the extremes -32768 x -128 in every tap,
 * channel counts around the 16-channel block, sums added onto acc), then the 16x8
 * DEPTHWISE_CONV_2D driver against the reference kernel (kernels/ref: tfcc_dwconv_i16), bit for
 * bit: channels not a multiple of the vector width, depth multipliers 1..4, strides,
 * dilations, padding, int64, int32 and no bias, per-channel and per-tensor multipliers (shifts
 * -22..7, the 0x7FFF reduced multiplier), an output offset, ReLU clamps, more than 32 taps and more than 256 output channels, the inputs -32768 / 32767 and
 * weights -127..127 (and -128); the driver on 1 and 3 threads, and with one channel's shift
 * outside what the vector requantization takes (the scalar reference function then).
 * The tap-pair kernel (k->pairs on k->pack's weights) against the same plain loop (pair
 * counts 0..16, odd taps' zero second weight, 1..3 blocks), and the driver on channel counts
 * of whole blocks and blocks plus a tail (48, 40, 144, 264), even and odd tap counts, exactly
 * 32 taps, zero rows for padding taps on every border. Every depth-multiplier-1 case of at
 * most 32 taps again on the layer packing (tfcc_q16_dw_pack), which runs the fused kernel
 * (requantization from the int32 registers) where the biases are within 2^47 - 2^31 and the
 * total shifts 1..62: biases at that bound and one past 2^47, total shifts 1 and 62, channel
 * tails shorter than a block, windows with no interior column. i16x60: the layer packing and
 * the fused kernel also for 33..256 taps (49, 64, 121, 256 with the largest products; 272 past
 * the limit, 529 where the extremes' sums pass 2^31) and for depth multipliers 2..4 (the input spread to the output channels in
 * scratch, with and without the packing). dw61: any tap count on the fused kernel (its tap arrays
 * in scratch, int32 runs of 255 pairs added in int64): the kernel alone against a plain int64
 * loop and tfcc_requant64's arithmetic at 1..766 pairs (the run boundaries 255 / 256, 510 / 511,
 * 765 / 766) with the extremes -32768 x -128 and 32767 x -128 in every tap, channel tails, 1..3
 * pixels; the driver at 1x300, 1x510, 1x511, 23x23 with multipliers 1..3, 1x1100 (three runs),
 * with every value mode and the extremes 32767 x -128, biases at the bound for the tap count. */
#include <stdlib.h>
#include <string.h>

#include "base/threadpool.h"
#include "cpu/cpu_info.h"
#include "kernel_test_main.h"
#include "kernels/kernel_families.h"
#include "kernels/q16-dwconv/dwconv.h"
#include "kernels/ref/depthwise_conv.h"
#include "test_harness.h"

static uint32_t rng = 424242u;
static uint32_t urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

/* mode 0: random; 1: x -32768, w -128 (the largest product); 2: x in {-32768, 32767}, w in
 * {-127, 127}; 3: x 32767, w -128 (the most negative product) */
static int16_t xval(int mode) {
  if (mode == 1) return (int16_t)-32768;
  if (mode == 3) return (int16_t)32767;
  if (mode == 2) return urand() & 1 ? (int16_t)32767 : (int16_t)-32768;
  return (int16_t)(urand() & 0xffff);
}
static int8_t wval(int mode) {
  if (mode == 1 || mode == 3) return (int8_t)-128;
  if (mode == 2) return urand() & 1 ? (int8_t)127 : (int8_t)-127;
  return (int8_t)(urand() & 0xff);
}

static void sums_case(const tfcc_q16_dw_kernel *k, size_t taps, size_t n, int mode) {
  const int16_t *xs[TFCC_Q16_DW_MAX_TAPS];
  const int8_t *ws[TFCC_Q16_DW_MAX_TAPS];
  int16_t *x = malloc((taps * n + 1) * sizeof(int16_t));
  int8_t *w = malloc(taps * n + 1);
  int64_t *got = malloc((n + 1) * sizeof(int64_t)), *want = malloc((n + 1) * sizeof(int64_t));
  CHECK(x && w && got && want);
  if (!x || !w || !got || !want) return;
  for (size_t i = 0; i < taps * n; i++) x[i] = xval(mode), w[i] = wval(mode);
  for (size_t t = 0; t < taps; t++) xs[t] = x + t * n, ws[t] = w + (taps - 1 - t) * n;
  for (size_t c = 0; c < n; c++) {
    int64_t s = (int64_t)c * 1000003 - 77; /* the kernel adds onto acc */
    for (size_t t = 0; t < taps; t++) s += (int64_t)xs[t][c] * ws[t][c];
    want[c] = s;
    got[c] = (int64_t)c * 1000003 - 77;
  }
  got[n] = 0x5a5a;
  k->fn(taps, xs, ws, n, got);
  int bad = 0;
  for (size_t c = 0; c < n; c++) bad += got[c] != want[c];
  CHECKF(bad == 0 && got[n] == 0x5a5a, "%s taps %zu n %zu mode %d: %d wrong", k->name, taps, n,
         mode, bad);
  free(x), free(w), free(got), free(want);
}

static void pairs_case(const tfcc_q16_dw_kernel *k, size_t npairs, size_t nblocks, bool odd,
                       int mode) {
  const size_t n = nblocks * k->block, taps = 2 * npairs;
  const int16_t *xs[TFCC_Q16_DW_MAX_TAPS];
  const int8_t *ws[TFCC_Q16_DW_MAX_TAPS];
  int16_t *x = malloc((taps * n + 1) * sizeof(int16_t));
  int8_t *w = malloc(taps * n + 1);
  int16_t *pk = malloc((taps * n + 1) * sizeof(int16_t));
  int64_t *got = malloc((n + 1) * sizeof(int64_t));
  CHECK(x && w && pk && got);
  if (!x || !w || !pk || !got) return;
  for (size_t i = 0; i < taps * n; i++) x[i] = xval(mode), w[i] = wval(mode);
  for (size_t t = 0; t < taps; t++) {
    xs[t] = x + t * n;
    ws[t] = odd && t == taps - 1 ? NULL : w + (taps - 1 - t) * n;
  }
  k->pack(npairs, ws, nblocks, pk);
  for (size_t c = 0; c <= n; c++) got[c] = 0x5a5a;
  k->pairs(npairs, xs, pk, nblocks, got);
  int bad = 0;
  for (size_t c = 0; c < n; c++) {
    int64_t s = 0;
    for (size_t t = 0; t < taps; t++) s += ws[t] ? (int64_t)xs[t][c] * ws[t][c] : 0;
    bad += got[c] != s;
  }
  CHECKF(bad == 0 && got[n] == 0x5a5a, "%s pairs %zu blocks %zu odd %d mode %d: %d wrong", k->name,
         npairs, nblocks, (int)odd, mode, bad);
  free(x), free(w), free(pk), free(got);
}

/* The fused kernel alone (k->fused on tfcc_q16_dw_pack's weights) against an int64 loop and the
 * requantization x = S * mult + bm, (int32)(x >> shift), + offset, clamped: npairs pairs (an odd
 * tap count when odd: the last tap's weights zero), nc channels, npix pixels (xstep apart). */
static void fused_case(const tfcc_q16_dw_kernel *k, size_t npairs, size_t nc, size_t npix, bool odd,
                       int mode) {
  const size_t nt = 2 * npairs, taps = odd ? nt - 1 : nt, bsz = k->block;
  const size_t np = (nc + bsz - 1) / bsz * bsz, nx = nt * npix * nc;
  int16_t *x = malloc(nx * sizeof(int16_t)), *out = malloc((npix * nc + 1) * sizeof(int16_t));
  int8_t *w = malloc(taps * nc);
  int16_t *pk = malloc(tfcc_q16_dw_packed_bytes(k, (int32_t)nc, (int32_t)taps));
  const int16_t **xs = malloc(nt * sizeof *xs);
  ptrdiff_t *xstep = malloc(nt * sizeof *xstep);
  void *ws = malloc(tfcc_q16_dwf_ws_bytes(bsz, npairs));
  int64_t *mult = malloc(np * sizeof(int64_t)), *bm = malloc(np * sizeof(int64_t));
  int64_t *shift = malloc(np * sizeof(int64_t));
  CHECK(x && out && w && pk && xs && xstep && ws && mult && bm && shift);
  if (!x || !out || !w || !pk || !xs || !xstep || !ws || !mult || !bm || !shift) return;
  for (size_t i = 0; i < nx; i++) x[i] = xval(mode);
  for (size_t i = 0; i < taps * nc; i++) w[i] = wval(mode);
  tfcc_q16_dw_pack(k, (int32_t)nc, (int32_t)taps, w, pk);
  for (size_t p = 0; p < np; p++) { /* position p holds channel c (lane order) */
    const size_t c = p / bsz * bsz + tfcc_q16_dwf_chan(bsz, p % bsz);
    const int64_t b = (int64_t)(int32_t)urand() * 1024 + (int64_t)c;
    mult[p] = c % 3 == 0 ? 0x7FFF : (int64_t)(urand() % 0x7FFF) + 1;
    shift[p] = c % 5 == 0 ? 62 : 20 + (int64_t)(c % 23);
    bm[p] = b * mult[p] + ((int64_t)1 << (shift[p] - 1));
  }
  const tfcc_q16_dw_rq r = {mult, bm, shift, mode == 2 ? -5 : 3, -32768, 32767};
  for (size_t t = 0; t < nt; t++) xs[t] = x + t * npix * nc, xstep[t] = (ptrdiff_t)nc;
  out[npix * nc] = 0x5a5a;
  k->fused(npairs, xs, xstep, npix, pk, nc, &r, out, nc, ws);
  int bad = 0;
  for (size_t i = 0; i < npix; i++)
    for (size_t c = 0; c < nc; c++) {
      int64_t sum = 0;
      for (size_t t = 0; t < taps; t++)
        sum += (int64_t)x[t * npix * nc + i * nc + c] * w[t * nc + c];
      size_t p = c / bsz * bsz; /* c's position */
      while (p / bsz * bsz + tfcc_q16_dwf_chan(bsz, p % bsz) != c) p++;
      int32_t v = (int32_t)(uint32_t)(uint64_t)((sum * mult[p] + bm[p]) >> shift[p]);
      v = (int32_t)((uint32_t)v + (uint32_t)r.offset);
      v = v < -32768 ? -32768 : (v > 32767 ? 32767 : v);
      bad += out[i * nc + c] != (int16_t)v;
    }
  CHECKF(bad == 0 && out[npix * nc] == 0x5a5a,
         "%s fused pairs %zu (odd %d) nc %zu npix %zu mode %d: %d wrong", k->name, npairs, (int)odd,
         nc, npix, mode, bad);
  free(x), free(out), free(w), free(pk), free(xs), free(xstep), free(ws);
  free(mult), free(bm), free(shift);
}

typedef struct dw_shape {
  int batches, H, W, C, mult, kh, kw, sh, sw, pad_h, pad_w, dh, dw;
} dw_shape;

static tfcc_threadpool *pool3; /* every other case on 3 threads */
static int case_no, fused_cases;

/* big: biases past 2^47 (clamped) and a total shift of 63 in some channels, which the fused
 * requantization declines; else biases up to its bound 2^47 - 2^31 (one just past 2^47 in one
 * channel where case_no % 4 == 1) and total shifts 1 and 62 in some channels */
static void conv_case(const tfcc_q16_dw_kernel *k, const dw_shape *s, int bias_kind, bool per_ch,
                      bool relu, int mode, bool big) {
  tfcc_threadpool *pool = case_no++ % 2 ? pool3 : NULL;
  tfcc_conv_geom g;
  memset(&g, 0, sizeof g);
  const int OC = s->C * s->mult;
  g.batches = s->batches, g.in_h = s->H, g.in_w = s->W, g.in_c = s->C, g.out_c = OC;
  g.filter_h = s->kh, g.filter_w = s->kw, g.stride_h = s->sh, g.stride_w = s->sw;
  g.pad_h = s->pad_h, g.pad_w = s->pad_w, g.dil_h = s->dh, g.dil_w = s->dw;
  g.out_h = (s->H + 2 * s->pad_h - s->dh * (s->kh - 1) - 1) / s->sh + 1;
  g.out_w = (s->W + 2 * s->pad_w - s->dw * (s->kw - 1) - 1) / s->sw + 1;
  const size_t nx = (size_t)s->batches * s->H * s->W * s->C, nw = (size_t)s->kh * s->kw * OC;
  const size_t no = (size_t)s->batches * g.out_h * g.out_w * OC;
  int16_t *x = malloc(nx * sizeof(int16_t)), *o0 = malloc(no * sizeof(int16_t));
  int16_t *o1 = malloc(no * sizeof(int16_t));
  int8_t *w = malloc(nw);
  int64_t *b64 = malloc((size_t)OC * sizeof(int64_t));
  int32_t *b32 = malloc((size_t)OC * 4), *mult = malloc((size_t)OC * 4);
  int32_t *shift = malloc((size_t)OC * 4);
  CHECK(x && o0 && o1 && w && b64 && b32 && mult && shift);
  if (!x || !o0 || !o1 || !w || !b64 || !b32 || !mult || !shift) return;
  for (size_t i = 0; i < nx; i++) x[i] = xval(mode);
  /* beyond 32 taps the largest product -32768 x -128 in every tap (sums up to 2^30 at 256) */
  const int8_t wext = s->kh * s->kw > TFCC_Q16_DW_MAX_TAPS ? (int8_t)-128 : (int8_t)-127;
  for (size_t i = 0; i < nw; i++) w[i] = mode == 1 ? wext : wval(mode);
  tfcc_conv_requant q;
  memset(&q, 0, sizeof q);
  for (int c = 0; c < OC; c++) {
    b64[c] = (int64_t)(int32_t)urand() * 64 - (1 << 29);
    /* the fused requantization's bound (dispatch.c): 2^47 - (max(taps, 511) + 1) x 2^22 */
    const int64_t nt = (int64_t)s->kh * s->kw > 511 ? (int64_t)s->kh * s->kw : 511;
    const int64_t blim = ((int64_t)1 << 47) - (nt + 1) * ((int64_t)1 << 22);
    if (big && c % 7 == 3) b64[c] = c & 8 ? ((int64_t)1 << 50) : -((int64_t)1 << 50); /* clamped */
    if (!big && c % 7 == 3) b64[c] = c & 8 ? blim : -blim;
    if (!big && c % 13 == 5) b64[c] = (c & 16 ? blim : -blim) - (int64_t)(urand() & 0xffff);
    b32[c] = (int32_t)(urand() & 0xffffff) - (1 << 23);
    mult[c] = (int32_t)(0x40000000u + (urand() & 0x3fffffffu));
    shift[c] = (int32_t)(urand() % 30) - 22; /* -22..7 */
    if (c % 5 == 1) mult[c] = 0x7FFF8000;    /* the reduced multiplier's 0x7FFF branch */
  }
  if (big && case_no % 7 == 0 && mode == 0) { /* total shift 63, on a sum far from 2^47 */
    shift[OC / 2] = -48;
    b64[OC / 2] = 777;
  }
  if (!big) {
    shift[OC - 1] = 14;                                                        /* total shift 1 */
    if (OC > 2) shift[OC / 3] = -47, b64[OC / 3] = ((int64_t)1 << 46) + 12345; /* total 62 */
    /* past the reference's clamp: the fused path must decline it */
    if (case_no % 4 == 1) b64[OC / 2] = ((int64_t)1 << 47) + 12345;
  }
  q.mult = mult, q.shift = shift, q.mult_stride = per_ch ? 1 : 0;
  q.act_min = relu ? 0 : -32768, q.act_max = relu ? 6000 : 32767;
  q.output_offset = mode == 2 ? -5 : 0;
  CHECK(tfcc_q16_dwconv_fits(&g, &q));
  const int64_t *bb64 = bias_kind == 0 ? b64 : NULL;
  const int32_t *bb32 = bias_kind == 1 ? b32 : NULL;
  tfcc_dwconv_i16(&g, &q, x, w, bb64, bb32, o0);
  memset(o1, 0x5a, no * sizeof(int16_t));
  /* the per-pass packing; the layer's packing and the fused kernel (a depth multiplier above 1
   * with the input spread to the output channels in scratch); the spread input alone */
  const size_t pbytes = tfcc_q16_dw_packed_bytes(k, OC, s->kh * s->kw);
  const size_t sbytes = tfcc_q16_dwconv_scratch_bytes(&g, tfcc_threadpool_size(pool));
  CHECK(sbytes > 0);
  int16_t *pk = pbytes ? malloc(pbytes) : NULL;
  void *scr = sbytes ? malloc(sbytes) : NULL;
  if (pk) tfcc_q16_dw_pack(k, OC, s->kh * s->kw, w, pk);
  /* v 0: neither; 1: the packing and scratch (the fused kernel); 2: scratch only; 3: the
   * packing without scratch (the per-tap and tap-pair paths) */
  for (int v = 0; v < 4; v++) {
    if ((v % 2 == 1 && !pk) || (v && !scr)) continue;
    memset(o1, 0x5a, no * sizeof(int16_t));
    tfcc_q16_dwconv(pool, k, &g, &q, x, w, v % 2 ? pk : NULL, bb64, bb32, o1,
                    v == 1 || v == 2 ? scr : NULL);
    CHECKF(memcmp(o0, o1, no * sizeof(int16_t)) == 0,
           "%s dw %dx%dx%dx%d m%d k%dx%d s%d,%d p%d,%d d%d,%d bias %d per_ch %d relu %d mode %d "
           "big %d variant %d differs from tfcc_dwconv_i16",
           k->name, s->batches, s->H, s->W, s->C, s->mult, s->kh, s->kw, s->sh, s->sw, s->pad_h,
           s->pad_w, s->dh, s->dw, bias_kind, (int)per_ch, (int)relu, mode, (int)big, v);
    fused_cases += v == 1;
  }
  free(scr);
  free(pk);
  free(x), free(o0), free(o1), free(w), free(b64), free(b32), free(mult), free(shift);
}

int main(void) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  TFCC_CHECK_SELECTS(tfcc_q16_dw);
  /* the offset input_offset != 0 is the reference kernel's alone */
  {
    tfcc_conv_geom g;
    tfcc_conv_requant q;
    memset(&g, 0, sizeof g), memset(&q, 0, sizeof q);
    g.in_c = 3, g.out_c = 6;
    CHECK(tfcc_q16_dwconv_fits(&g, &q));
    q.input_offset = 1;
    CHECK(!tfcc_q16_dwconv_fits(&g, &q));
  }
  static const dw_shape shapes[] = {
      {1, 7, 9, 3, 1, 3, 3, 1, 1, 1, 1, 1, 1},      /* 3 channels, SAME padding */
      {2, 10, 8, 33, 1, 3, 3, 2, 2, 1, 1, 1, 1},    /* stride 2, 33 channels */
      {1, 9, 11, 17, 2, 3, 3, 1, 2, 0, 2, 1, 1},    /* multiplier 2, mixed strides / pads */
      {1, 8, 8, 5, 3, 3, 3, 1, 1, 2, 2, 2, 2},      /* multiplier 3, dilation 2 */
      {1, 6, 7, 7, 4, 5, 3, 2, 1, 2, 1, 1, 2},      /* multiplier 4, 5x3, dilation 1,2 */
      {1, 12, 12, 1, 4, 3, 3, 1, 1, 1, 1, 1, 1},    /* one input channel */
      {1, 14, 14, 96, 1, 3, 3, 1, 1, 1, 1, 1, 1},   /* MobileNetV2-like */
      {1, 7, 7, 300, 1, 3, 3, 2, 2, 1, 1, 1, 1},    /* > 256 channels */
      {1, 5, 5, 70, 4, 3, 3, 1, 1, 1, 1, 1, 1},     /* 280 output channels, multiplier 4 */
      {1, 9, 9, 20, 1, 7, 7, 1, 1, 3, 3, 1, 1},     /* 49 taps: two tap passes */
      {1, 8, 8, 16, 1, 8, 8, 1, 1, 4, 4, 1, 1},     /* 64 taps */
      {1, 3, 40, 24, 1, 1, 9, 1, 3, 0, 4, 1, 1},    /* 1x9, stride 3 */
      {1, 4, 4, 15, 1, 3, 3, 3, 3, 5, 5, 1, 1},     /* padding past the image */
      {1, 1, 1, 31, 1, 1, 1, 1, 1, 0, 0, 1, 1},     /* 1x1 */
      {1, 6, 7, 48, 1, 3, 3, 1, 1, 1, 1, 1, 1},     /* whole 16-channel blocks */
      {1, 5, 6, 144, 1, 3, 3, 2, 2, 0, 1, 1, 1},    /* 144: 32-channel blocks and a tail */
      {1, 5, 5, 40, 1, 2, 2, 1, 1, 0, 0, 1, 1},     /* 4 taps (pairs only), 40 channels */
      {1, 6, 6, 64, 1, 4, 8, 1, 1, 2, 4, 1, 1},     /* exactly 32 taps */
      {2, 4, 9, 264, 1, 5, 5, 1, 2, 2, 2, 1, 1},    /* 264: a second pass of 8 channels */
      {1, 10, 23, 37, 1, 3, 3, 1, 2, 2, 3, 2, 3},   /* dilation 2,3, stride 1,2, wide padding */
      {1, 9, 30, 7, 1, 5, 5, 2, 1, 2, 2, 1, 1},     /* 7 channels (a tail only), 5x5 */
      {1, 17, 17, 32, 1, 3, 3, 2, 2, 0, 1, 1, 1},   /* MobileNetV2's stride-2 32 channels */
      {2, 5, 19, 1, 1, 3, 3, 1, 1, 1, 1, 1, 1},     /* one channel, multiplier 1 */
      {1, 4, 12, 520, 1, 3, 3, 1, 1, 1, 1, 1, 1},   /* 520: three passes, a tail of 8 */
      {1, 6, 3, 19, 1, 3, 3, 1, 1, 1, 2, 1, 2},     /* no interior column (window wider) */
      {1, 10, 10, 40, 2, 3, 3, 2, 2, 1, 1, 1, 1},   /* multiplier 2, 80 output channels */
      {1, 9, 9, 12, 2, 7, 7, 1, 1, 3, 3, 1, 1},     /* multiplier 2, 49 taps */
      {1, 13, 13, 10, 1, 11, 11, 1, 1, 5, 5, 1, 1}, /* 121 taps */
      {1, 16, 18, 9, 1, 16, 16, 1, 1, 8, 8, 1, 1},  /* 256 taps: the fused kernel's limit */
      {1, 17, 17, 8, 1, 17, 16, 1, 1, 8, 8, 1, 1},  /* 272 taps: past it (int64 sums) */
      {1, 5, 7, 33, 3, 5, 5, 1, 2, 2, 2, 1, 1},     /* multiplier 3, 99 channels, 5x5 */
      {1, 24, 25, 8, 1, 23, 23, 1, 1, 0, 1, 1, 1},  /* 529 taps: past int32 at the extremes */
      /* dw61: past 256 taps on the fused kernel (every shape past 256 taps also runs the
       * extremes 32767 x -128) */
      {1, 1, 310, 20, 1, 1, 300, 1, 1, 0, 150, 1, 1},  /* 1x300 temporal, 20 channels */
      {1, 1, 530, 17, 1, 1, 510, 1, 2, 0, 255, 1, 1},  /* 1x510: one int32 run exactly */
      {1, 1, 530, 9, 1, 1, 511, 1, 1, 0, 100, 1, 1},   /* 1x511: a run and one pair */
      {1, 24, 25, 5, 2, 23, 23, 1, 1, 0, 1, 1, 1},     /* 23x23, multiplier 2 */
      {1, 26, 24, 3, 3, 23, 23, 2, 1, 11, 0, 1, 1},    /* 23x23, multiplier 3, stride 2 */
      {1, 1, 1150, 3, 2, 1, 1100, 1, 7, 0, 550, 1, 1}, /* 1x1100 m2: three runs */
  };
  pool3 = tfcc_test_pool(3);
  int tested = 0;
  TFCC_EACH_VARIANT(tfcc_q16_dw, k, best) {
    static const size_t ns[] = {0, 1, 2, 7, 8, 15, 16, 17, 31, 32, 33, 47, 64, 100, 256};
    for (size_t taps = 0; taps <= TFCC_Q16_DW_MAX_TAPS; taps++)
      for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++)
        for (int mode = 0; mode < 3; mode++) sums_case(k, taps, ns[ni], mode);
    for (size_t np = 0; np <= TFCC_Q16_DW_MAX_TAPS / 2; np++)
      for (size_t nb = 1; nb <= 3; nb++)
        for (int mode = 0; mode < 3; mode++) pairs_case(k, np, nb, np > 0 && mode != 1, mode);
    static const size_t fpairs[] = {1, 2, 17, 254, 255, 256, 300, 509, 510, 511, 765, 766};
    static const size_t fnc[] = {8, 13, 16, 40, 67};
    for (size_t pi = 0; pi < sizeof fpairs / sizeof fpairs[0]; pi++)
      for (size_t ni = 0; ni < sizeof fnc / sizeof fnc[0]; ni++)
        for (int mode = 0; mode < 4; mode++)
          fused_case(k, fpairs[pi], fnc[ni], 1 + (pi + ni) % 3, mode == 0 && pi % 2, mode);
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++)
      for (int bias_kind = 0; bias_kind < 3; bias_kind++)
        for (int mode = 0; mode < (shapes[si].kh * shapes[si].kw > 256 ? 4 : 3); mode++)
          for (int per_ch = 0; per_ch < 2; per_ch++)
            for (int big = 0; big < 2; big++)
              conv_case(k, &shapes[si], bias_kind, per_ch, mode == 1 && bias_kind, mode, big);
    tested++;
  }
  tfcc_threadpool_destroy(pool3);
  printf("%d q16-dwconv kernels tested at CPU level %s (%d cases on the layer packing)\n", tested,
         tfcc_isa_name(best), fused_cases);
  CHECK(fused_cases > 0);
  return tfcc_test_finish("q16_dwconv");
}
