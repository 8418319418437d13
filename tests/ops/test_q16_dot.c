/* int16 x int8 dot products (q16-dot): every variant this CPU can run against a plain int64
 * loop (depths 0..16350 around the vector widths and the int32 blocks of the dot and the GEMV
 * (255 steps of 8, 16 or 32), unit counts around 4, weight offsets of an int8 zero point, the
 * extreme values in whole blocks, sums added onto acc; the GEMV at offset 0); then the 16x8 CONV_2D and FULLY_CONNECTED drivers against the reference kernels
 * (kernels/ref: tfcc_conv_i16, tfcc_fc_i16), bit for bit, with int64, int32 and no bias,
 * per-tensor and per-channel multipliers, FULLY_CONNECTED's double rescale, padding, strides,
 * dilation and more than 256 output channels; int64 biases at the type's limits wrap as TFLite
 * adds them (two's complement). */
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/kernel_families.h"
#include "kernels/q16-dot/dot.h"
#include "kernel_test_main.h"
#include "test_harness.h"

static uint32_t rng = 12345u;
static uint32_t urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

/* values: 0 random, 1 the extremes (x = -32768, w + fo as far from 0 as the offset allows),
 * 2 the largest positive product (x = -32768, w = -128) */
static void fill(int16_t *x, int8_t *w, size_t nx, size_t nw, int32_t fo, int mode) {
  for (size_t i = 0; i < nx; i++) x[i] = mode ? (int16_t)-32768 : (int16_t)(urand() & 0xffff);
  const int8_t far = mode == 2 ? -128 : fo >= 0 ? 127 : -128;
  for (size_t i = 0; i < nw; i++) w[i] = mode ? far : (int8_t)(urand() & 0xff);
}

static void dot_case(const tfcc_q16_dot_kernel *k, size_t K, size_t units, int32_t fo, int mode) {
  const size_t stride = K + 3, nw = units * stride + 1;
  int16_t *x = malloc((K + 1) * sizeof(int16_t));
  int8_t *w = malloc(nw);
  int64_t *got = malloc((units + 1) * sizeof(int64_t)), *want = malloc(units * sizeof(int64_t));
  CHECK(x && w && got && want);
  if (!x || !w || !got || !want) return;
  fill(x, w, K + 1, nw, fo, mode);
  for (size_t u = 0; u < units; u++) {
    int64_t s = (int64_t)u * 1000003 - 77; /* the kernel adds onto acc */
    for (size_t i = 0; i < K; i++) s += (int64_t)((int32_t)w[u * stride + i] + fo) * x[i];
    want[u] = s;
    got[u] = (int64_t)u * 1000003 - 77;
  }
  got[units] = 0x5a5a;
  k->fn(x, w, K, units, stride, fo, got);
  int bad = 0;
  for (size_t u = 0; u < units; u++) bad += got[u] != want[u];
  CHECKF(bad == 0 && got[units] == 0x5a5a, "%s K %zu units %zu fo %d mode %d: %d wrong", k->name, K,
         units, (int)fo, mode, bad);
  if (fo == 0) { /* the GEMV (offset 0) */
    for (size_t u = 0; u < units; u++) got[u] = (int64_t)u * 1000003 - 77;
    k->gemv(x, w, K, units, stride, got);
    bad = 0;
    for (size_t u = 0; u < units; u++) bad += got[u] != want[u];
    CHECKF(bad == 0 && got[units] == 0x5a5a, "%s gemv K %zu units %zu mode %d: %d wrong", k->name,
           K, units, mode, bad);
  }
  free(x), free(w), free(got), free(want);
}

/* Per-channel or per-tensor multipliers of a 16x8 layer (shift <= 14, as prepare requires). */
static void requant_init(tfcc_conv_requant *q, int32_t *mult, int32_t *shift, int n, bool per_ch,
                         bool relu) {
  memset(q, 0, sizeof *q);
  for (int c = 0; c < n; c++) {
    mult[c] = (int32_t)(0x40000000u + (urand() & 0x3fffffffu));
    shift[c] = -(int32_t)(12 + urand() % 10);
  }
  q->mult = mult, q->shift = shift, q->mult_stride = per_ch ? 1 : 0;
  q->act_min = relu ? 0 : -32768, q->act_max = 32767;
}

static void conv_case(const tfcc_q16_dot_kernel *k, int H, int W, int C, int OC, int kh, int kw,
                      int stride, int pad, int dil, int bias_kind) {
  tfcc_conv_geom g;
  memset(&g, 0, sizeof g);
  g.batches = 2, g.in_h = H, g.in_w = W, g.in_c = C, g.filter_in_c = C, g.out_c = OC;
  g.filter_h = kh, g.filter_w = kw, g.stride_h = stride, g.stride_w = stride;
  g.pad_h = pad, g.pad_w = pad, g.dil_h = dil, g.dil_w = dil;
  g.out_h = (H + 2 * pad - dil * (kh - 1) - 1) / stride + 1;
  g.out_w = (W + 2 * pad - dil * (kw - 1) - 1) / stride + 1;
  const size_t nx = (size_t)2 * H * W * C, nw = (size_t)OC * kh * kw * C;
  const size_t no = (size_t)2 * g.out_h * g.out_w * OC;
  int16_t *x = malloc(nx * sizeof(int16_t)), *o0 = malloc(no * sizeof(int16_t));
  int16_t *o1 = malloc(no * sizeof(int16_t));
  int8_t *w = malloc(nw);
  int64_t *b64 = malloc((size_t)OC * sizeof(int64_t));
  int32_t *b32 = malloc((size_t)OC * sizeof(int32_t)), *mult = malloc((size_t)OC * 4);
  int32_t *shift = malloc((size_t)OC * 4);
  CHECK(x && o0 && o1 && w && b64 && b32 && mult && shift);
  if (!x || !o0 || !o1 || !w || !b64 || !b32 || !mult || !shift) return;
  fill(x, w, nx, nw, 0, 0);
  for (int c = 0; c < OC; c++) {
    b64[c] = (int64_t)(int32_t)urand() * 64 - (1 << 29);
    b32[c] = (int32_t)(urand() & 0xffffff) - (1 << 23);
  }
  tfcc_conv_requant q;
  requant_init(&q, mult, shift, OC, bias_kind != 1, bias_kind == 2);
  CHECK(tfcc_q16_conv_fits(&g, &q));
  const int64_t *bb64 = bias_kind == 0 || bias_kind == 3 ? b64 : NULL;
  const int32_t *bb32 = bias_kind == 1 ? b32 : NULL;
  tfcc_conv_i16(&g, &q, x, w, bb64, bb32, o0);
  memset(o1, 0x5a, no * sizeof(int16_t));
  tfcc_q16_conv(k, &g, &q, x, w, bb64, bb32, o1);
  CHECKF(memcmp(o0, o1, no * sizeof(int16_t)) == 0,
         "%s conv %dx%dx%d -> %d k%dx%d s%d p%d d%d bias %d differs from tfcc_conv_i16", k->name, H,
         W, C, OC, kh, kw, stride, pad, dil, bias_kind);
  free(x), free(o0), free(o1), free(w), free(b64), free(b32), free(mult), free(shift);
}

static void fc_case(const tfcc_q16_dot_kernel *k, int batches, int accum, int units, int bias_kind,
                    int32_t fo, bool real) {
  const size_t nx = (size_t)batches * accum, nw = (size_t)units * accum,
               no = (size_t)batches * units;
  int16_t *x = malloc((nx + 1) * sizeof(int16_t)), *o0 = malloc(no * sizeof(int16_t));
  int16_t *o1 = malloc(no * sizeof(int16_t));
  int8_t *w = malloc(nw + 1);
  int64_t *b64 = malloc((size_t)units * sizeof(int64_t));
  int32_t *b32 = malloc((size_t)units * 4), *mult = malloc((size_t)units * 4);
  int32_t *shift = malloc((size_t)units * 4);
  double *rs = malloc((size_t)units * sizeof(double));
  CHECK(x && o0 && o1 && w && b64 && b32 && mult && shift && rs);
  if (!x || !o0 || !o1 || !w || !b64 || !b32 || !mult || !shift || !rs) return;
  fill(x, w, nx + 1, nw + 1, fo, 0);
  for (int u = 0; u < units; u++) {
    b64[u] = (int64_t)(int32_t)urand() * 64 - (1 << 29);
    /* bias kind 3: int64 biases at the type's limits (a hostile file): the sum wraps */
    if (bias_kind == 3) b64[u] = (u & 1 ? INT64_MAX : INT64_MIN) - (u & 1 ? 1 : -1) * (int64_t)u;
    b32[u] = (int32_t)(urand() & 0xffffff) - (1 << 23);
    rs[u] = (double)(urand() % 1000 + 1) * 1e-9;
  }
  tfcc_conv_requant q;
  requant_init(&q, mult, shift, units, bias_kind != 1, false);
  q.filter_offset = fo;
  const tfcc_fc_dims d = {batches, accum, units};
  const int64_t *bb64 = bias_kind == 0 || bias_kind == 3 ? b64 : NULL;
  const int32_t *bb32 = bias_kind == 1 ? b32 : NULL;
  tfcc_fc_i16(&d, &q, x, w, bb64, bb32, real ? rs : NULL, o0);
  memset(o1, 0x5a, no * sizeof(int16_t));
  tfcc_q16_fc(k, &d, &q, x, w, bb64, bb32, real ? rs : NULL, o1);
  CHECKF(memcmp(o0, o1, no * sizeof(int16_t)) == 0,
         "%s fc %d x %d -> %d bias %d fo %d real %d differs from tfcc_fc_i16", k->name, batches,
         accum, units, bias_kind, (int)fo, (int)real);
  free(x), free(o0), free(o1), free(w), free(b64), free(b32), free(mult), free(shift), free(rs);
}

/* TFLite adds an int64 bias to the int64 sum in two's complement (the hardware's wrap); the
 * double-rescale path did it as a signed overflow (UB; stage 5 fuzzing at seed 260956874). The
 * sum -2364692 + (-9223372036854119839) wraps to +9223372036853067085: times 1e-9 it saturates
 * high (32767), where an unwrapped sum would give -32768. */
static void fc_out_bias_wraps(void) {
  int32_t mult = 1 << 30, shift = -1;
  tfcc_conv_requant q;
  memset(&q, 0, sizeof q);
  q.mult = &mult, q.shift = &shift, q.act_min = -32768, q.act_max = 32767;
  const int64_t b64 = -9223372036854119839;
  const double rs = 1e-9;
  CHECKF(tfcc_fc_i16_out(-2364692, 0, &q, &b64, NULL, &rs) == 32767,
         "int64 bias at its limit: %d, expected the wrapped sum's 32767",
         tfcc_fc_i16_out(-2364692, 0, &q, &b64, NULL, &rs));
}

int main(void) {
  fc_out_bias_wraps();
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  TFCC_CHECK_SELECTS(tfcc_q16_dot);
  static const size_t depths[] = {0,   1,   2,    3,    7,    8,    15,   16,   17,   31,   32,
                                  33,  63,  64,   65,   127,  128,  129,  255,  256,  257,  511,
                                  512, 513, 1000, 2040, 2041, 4080, 4099, 8160, 8161, 8191, 16350};
  static const int32_t offsets[] = {0, 128, -127, 5};
  int tested = 0;
  for (int ki = 0; ki < tfcc_q16_dot_kernel_count(); ki++) {
    const tfcc_q16_dot_kernel *k = tfcc_q16_dot_kernel_at(ki);
    if (!tfcc_kernel_isa_fits(k->isa, best)) {
      printf("skip %s (CPU level %s)\n", k->name, tfcc_isa_name(best));
      continue;
    }
    for (size_t di = 0; di < sizeof depths / sizeof depths[0]; di++)
      for (size_t units = 1; units <= 9; units++)
        for (size_t oi = 0; oi < sizeof offsets / sizeof offsets[0]; oi++)
          for (int mode = 0; mode < 3; mode++) dot_case(k, depths[di], units, offsets[oi], mode);
    conv_case(k, 1, 1, 512, 256, 1, 1, 1, 0, 1, 0); /* a 1x1 layer of a 16x8 model */
    conv_case(k, 7, 9, 3, 5, 3, 3, 1, 1, 1, 1);     /* 3 channels, padding, int32 bias */
    conv_case(k, 10, 8, 33, 19, 3, 3, 2, 1, 1, 2);  /* stride 2, no bias, ReLU */
    conv_case(k, 9, 9, 17, 300, 3, 3, 1, 2, 2, 0);  /* dilation, > 256 output channels */
    conv_case(k, 5, 140, 40, 40, 3, 1, 1, 1, 1, 0); /* 3x1, bcresnet-like */
    fc_case(k, 1, 512, 256, 0, 0, true);            /* TFLite's double rescale, int64 bias */
    fc_case(k, 3, 257, 300, 1, 0, true);            /* int32 bias, > 256 units */
    fc_case(k, 2, 33, 7, 2, 0, false);              /* no bias, the multiplier routines */
    fc_case(k, 4, 1000, 13, 0, -127, false);        /* a weight offset */
    fc_case(k, 1, 129, 5, 1, 128, true);
    fc_case(k, 2, 64, 9, 3, 0, true); /* int64 biases at the limits: the sums wrap */
    tested++;
  }
  printf("%d q16-dot kernels tested at CPU level %s\n", tested, tfcc_isa_name(best));
  return tfcc_test_finish("q16_dot");
}
