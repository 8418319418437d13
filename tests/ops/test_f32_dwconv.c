/* Fast float32 depthwise convolution: every variant this CPU can run against the reference
 * kernel: 3x3 and 5x5 at stride 1 and 2 (the unrolled interior), other filter sizes,
 * dilation, padding, channel counts around the vector block (1, 7, 32, 33, 67), batches,
 * activations, with and without bias, depth multipliers 1, 2 and 3, inline and on a 2-thread
 * pool; MobileNet's widths (96, 144, 192); wide layers (256, 259 channels) on small images. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/f32-dwconv/dwconv.h"
#include "kernels/ref/depthwise_conv.h"
#include "base/threadpool.h"
#include "kernel_test_main.h"
#include "test_harness.h"

static uint32_t rng = 777u;
static float frand(void) {
  rng = rng * 1664525u + 1013904223u;
  return (float)((rng >> 8) & 0xFFFF) / 32768.0f - 1.0f;
}

static void test_dwm(const tfcc_f32_dwconv_kernel *k, tfcc_threadpool *pool, int batches, int ih,
                     int iw, int ic, int mult, int fh, int fw, int sh, int sw, int dh, int dw,
                     bool same, bool bias, float lo, float hi) {
  const int c = ic * mult;
  tfcc_conv_geom g;
  memset(&g, 0, sizeof g);
  g.batches = batches;
  g.in_h = ih;
  g.in_w = iw;
  g.in_c = ic;
  g.out_c = c;
  g.filter_h = fh;
  g.filter_w = fw;
  g.filter_in_c = 1;
  g.stride_h = sh;
  g.stride_w = sw;
  g.dil_h = dh;
  g.dil_w = dw;
  const int eh = (fh - 1) * dh + 1, ew = (fw - 1) * dw + 1;
  if (same) {
    g.out_h = (ih + sh - 1) / sh;
    g.out_w = (iw + sw - 1) / sw;
  } else {
    g.out_h = (ih - eh + sh) / sh;
    g.out_w = (iw - ew + sw) / sw;
  }
  int ph = ((g.out_h - 1) * sh + eh - ih) / 2, pw = ((g.out_w - 1) * sw + ew - iw) / 2;
  g.pad_h = ph > 0 ? ph : 0;
  g.pad_w = pw > 0 ? pw : 0;
  const size_t nin = (size_t)batches * ih * iw * ic, nf = (size_t)fh * fw * c;
  const size_t nout = (size_t)batches * g.out_h * g.out_w * c;
  float *in = malloc(sizeof(float) * nin), *f = malloc(sizeof(float) * nf);
  float *b = malloc(sizeof(float) * (size_t)c);
  float *want = malloc(sizeof(float) * (nout + 1)), *got = malloc(sizeof(float) * (nout + 1));
  const size_t sb = tfcc_f32_dwconv_scratch_bytes(&g);
  void *scratch = sb ? malloc(sb) : NULL;
  for (size_t i = 0; i < nin; i++) in[i] = frand();
  for (size_t i = 0; i < nf; i++) f[i] = frand();
  for (int i = 0; i < c; i++) b[i] = frand();
  tfcc_dwconv_f32(&g, in, f, bias ? b : NULL, lo, hi, want);
  tfcc_f32_dwconv(pool, k, &g, in, f, bias ? b : NULL, lo, hi, got, scratch);
  int bad = 0;
  for (size_t i = 0; i < nout; i++)
    if (fabsf(got[i] - want[i]) > 1e-5f * (float)(fh * fw + 1) && bad++ < 3)
      fprintf(stderr, "%s %dx%dx%d m%d f%dx%d s%d,%d d%d,%d: out[%zu] = %g, want %g\n", k->name, ih,
              iw, ic, mult, fh, fw, sh, sw, dh, dw, i, got[i], want[i]);
  CHECKF(bad == 0, "%s %dx%dx%d m%d f%dx%d s%d,%d d%d,%d %s: %d wrong", k->name, ih, iw, ic, mult,
         fh, fw, sh, sw, dh, dw, same ? "SAME" : "VALID", bad);
  free(scratch);
  free(in);
  free(f);
  free(b);
  free(want);
  free(got);
}

static void test_dw(const tfcc_f32_dwconv_kernel *k, tfcc_threadpool *pool, int batches, int ih,
                    int iw, int c, int fh, int fw, int sh, int sw, int dh, int dw, bool same,
                    bool bias, float lo, float hi) {
  test_dwm(k, pool, batches, ih, iw, c, 1, fh, fw, sh, sw, dh, dw, same, bias, lo, hi);
}

int main(void) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  tfcc_threadpool *pool2 = tfcc_test_pool(2);
  CHECK(tfcc_f32_dwconv_select(TFCC_ISA_GENERIC)->isa == TFCC_ISA_GENERIC);
  int tested = 0;
  static const int chans[] = {1, 7, 32, 33, 67};
  TFCC_EACH_VARIANT(tfcc_f32_dwconv, k, best) {
    tested++;
    for (size_t ci = 0; ci < sizeof chans / sizeof chans[0]; ci++) {
      const int c = chans[ci];
      tfcc_threadpool *p = ci % 2 ? pool2 : NULL;
      for (int s = 1; s <= 2; s++) {
        test_dw(k, p, 1, 9, 11, c, 3, 3, s, s, 1, 1, true, true, 0.0f, 6.0f);
        test_dw(k, p, 2, 8, 7, c, 3, 3, s, s, 1, 1, false, false, -INFINITY, INFINITY);
        test_dw(k, p, 1, 12, 10, c, 5, 5, s, s, 1, 1, true, true, -INFINITY, INFINITY);
        test_dw(k, p, 1, 9, 9, c, 5, 5, s, s, 1, 1, false, true, -1.0f, 1.0f);
      }
      test_dw(k, p, 1, 10, 9, c, 3, 2, 1, 2, 1, 1, true, true, -INFINITY, INFINITY);
      test_dw(k, p, 1, 11, 11, c, 3, 3, 1, 1, 2, 3, true, true, 0.0f, INFINITY);
      test_dw(k, p, 1, 1, 1, c, 3, 3, 1, 1, 1, 1, true, true, -INFINITY, INFINITY);
      test_dw(k, p, 1, 6, 5, c, 1, 1, 1, 1, 1, 1, false, false, -INFINITY, INFINITY);
      test_dw(k, p, 1, 14, 14, c, 7, 7, 2, 2, 1, 1, true, true, -INFINITY, INFINITY);
      /* depth multiplier 2 and 3 (expanded input), dilation, 5x5 */
      test_dwm(k, p, 1, 9, 10, c, 2, 3, 3, 1, 1, 1, 1, true, true, 0.0f, 6.0f);
      test_dwm(k, p, 2, 11, 9, c, 2, 3, 3, 2, 2, 1, 1, false, true, -INFINITY, INFINITY);
      test_dwm(k, p, 1, 12, 12, c, 3, 5, 5, 1, 1, 2, 2, true, false, -1.0f, 1.0f);
      /* rows entirely padding (SAME with a tall window) and 16-wide rows */
      test_dw(k, p, 1, 2, 16, c, 5, 5, 1, 1, 1, 1, true, true, -INFINITY, INFINITY);
      test_dw(k, p, 1, 16, 16, c, 3, 3, 2, 1, 1, 1, true, true, 0.0f, 6.0f);
    }
  }
  /* MobileNet's widths under 256 (AVX-512 compiles the interior rows with these channel
   * counts as constants): stride 1 and 2, SAME and VALID, 2 output rows per pass and 1 */
  static const int mobile[] = {96, 144, 192};
  TFCC_EACH_VARIANT(tfcc_f32_dwconv, k, best) {
    for (size_t ci = 0; ci < sizeof mobile / sizeof mobile[0]; ci++) {
      const int c = mobile[ci];
      tfcc_threadpool *p = ci % 2 ? pool2 : NULL;
      for (int s = 1; s <= 2; s++) {
        test_dw(k, p, 1, 13, 17, c, 3, 3, s, s, 1, 1, true, true, 0.0f, 6.0f);
        test_dw(k, p, 2, 9, 12, c, 3, 3, s, s, 1, 1, false, false, -INFINITY, INFINITY);
      }
      test_dw(k, p, 1, 11, 19, c, 3, 3, 2, 1, 1, 1, true, true, -1.0f, 1.0f);
      test_dw(k, p, 1, 10, 21, c, 3, 3, 1, 2, 1, 1, false, true, -INFINITY, INFINITY);
    }
  }
  /* wide layers on small images (the padded-tile path: >= 256 channels, the padded window
   * within the stack tile): 3x3 and 5x5, stride 1 and 2, SAME and VALID, a partial last
   * block, batches split across threads mid-image, a 1x1 image; and images just too large */
  static const int wide[] = {256, 259};
  TFCC_EACH_VARIANT(tfcc_f32_dwconv, k, best) {
    for (size_t ci = 0; ci < sizeof wide / sizeof wide[0]; ci++) {
      const int c = wide[ci];
      for (int s = 1; s <= 2; s++) {
        test_dw(k, NULL, 1, 7, 7, c, 3, 3, s, s, 1, 1, true, true, 0.0f, 6.0f);
        test_dw(k, pool2, 3, 14, 14, c, 3, 3, s, s, 1, 1, true, true, 0.0f, 6.0f);
        test_dw(k, pool2, 2, 9, 11, c, 3, 3, s, s, 1, 1, false, false, -INFINITY, INFINITY);
        test_dw(k, NULL, 1, 10, 9, c, 5, 5, s, s, 1, 1, true, true, -1.0f, 1.0f);
        test_dw(k, pool2, 2, 7, 7, c, 5, 5, s, s, 1, 1, false, true, -INFINITY, INFINITY);
        test_dw(k, NULL, 1, 21, 19, c, 3, 3, s, s, 1, 1, true, true, 0.0f, 6.0f);
      }
      test_dw(k, NULL, 2, 1, 1, c, 3, 3, 1, 1, 1, 1, true, true, -INFINITY, INFINITY);
      test_dwm(k, pool2, 1, 7, 7, c / 2, 2, 3, 3, 1, 1, 1, 1, true, true, 0.0f, 6.0f);
    }
  }
  CHECK(tested >= 1);
  printf("%d f32 depthwise kernels tested at CPU level %s\n", tested, tfcc_isa_name(best));
  tfcc_threadpool_destroy(pool2);
  return tfcc_test_finish("test_f32_dwconv");
}
