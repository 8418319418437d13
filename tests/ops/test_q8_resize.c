/* Fast bilinear resize: every q8-resize variant this CPU can run produces exactly the bytes of
 * the XNNPACK-arithmetic reference (tfcc_xnn_resize_bilinear_{u8,i8}), int8 and uint8, and
 * every f32-resize variant exactly the bits of tfcc_ref_resize_bilinear_f32 (2x upsampling
 * kernel and the generic one) and, in XNNPACK's order (fn_xnn, exact53), of
 * tfcc_xnn_resize_bilinear_f32: channel counts around the vector widths (1..65), upsampling,
 * downsampling, 1x1 to NxN, align_corners / half_pixel_centers / neither, batches, full-range
 * data (float: signed zeros, huge values, infinities), single threaded and on a 2-thread
 * pool. */
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/f32-resize/resize.h"
#include "kernels/kernel_families.h"
#include "kernels/q8-resize/resize.h"
#include "base/threadpool.h"
#include "kernel_test_main.h"
#include "test_harness.h"

static uint32_t rng = 4242u;
static uint32_t urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

static void run(const tfcc_q8_resize_kernel *k, tfcc_threadpool *pool, bool is_signed, int batch,
                int ih, int iw, int d, int oh, int ow, bool align, bool half) {
  tfcc_resize_shape s = {batch, ih, iw, d, oh, ow};
  const size_t nin = (size_t)batch * ih * iw * d, nout = (size_t)batch * oh * ow * d;
  uint8_t *in = malloc(nin), *want = malloc(nout), *got = malloc(nout + 1);
  for (size_t i = 0; i < nin; i++) in[i] = (uint8_t)urand();
  for (size_t i = 0; i < nin; i += 3) in[i] = (i / 3) % 2 ? 0x80 : 0x7F;
  for (size_t i = 1; i < nin; i += 5) in[i] = (i / 5) % 2 ? 0x00 : 0xFF;
  if (is_signed)
    tfcc_xnn_resize_bilinear_i8(&s, align, half, (const int8_t *)in, (int8_t *)want);
  else
    tfcc_xnn_resize_bilinear_u8(&s, align, half, in, want);
  void *scratch = malloc(tfcc_q8_resize_scratch_bytes(&s));
  memset(got, 0xEE, nout + 1);
  tfcc_q8_resize_bilinear(pool, k, &s, align, half, is_signed, in, got, scratch);
  int bad = 0;
  for (size_t i = 0; i < nout; i++)
    if (got[i] != want[i] && bad++ < 3)
      fprintf(stderr, "%s: out[%zu] = %d, want %d\n", k->name, i, got[i], want[i]);
  CHECKF(bad == 0 && got[nout] == 0xEE, "%s %s %dx%dx%dx%d -> %dx%d align %d half %d: %d wrong",
         k->name, is_signed ? "s8" : "u8", batch, ih, iw, d, oh, ow, align, half, bad);
  free(scratch);
  free(in);
  free(want);
  free(got);
}

static bool same_f32(float a, float b) {
  if (a != a || b != b) return a != a && b != b;
  return memcmp(&a, &b, sizeof a) == 0;
}

static void run_f(const tfcc_f32_resize_kernel *k, tfcc_threadpool *pool, int batch, int ih, int iw,
                  int d, int oh, int ow, bool align, bool half, bool xnn) {
  tfcc_resize_shape s = {batch, ih, iw, d, oh, ow};
  const size_t nin = (size_t)batch * ih * iw * d, nout = (size_t)batch * oh * ow * d;
  float *in = malloc(sizeof(float) * nin), *want = malloc(sizeof(float) * nout);
  float *got = malloc(sizeof(float) * (nout + 1));
  static const float sp[] = {0.f, -0.f, 1e30f, -1e30f, 3e38f, 1e-40f};
  for (size_t i = 0; i < nin; i++)
    in[i] = urand() % 9 ? (float)(int)(urand() % 20001 - 10000) * 1.2345e-3f : sp[urand() % 6];
  if (xnn)
    tfcc_xnn_resize_bilinear_f32(&s, align, half, in, want);
  else
    tfcc_ref_resize_bilinear_f32(&s, align, half, in, want);
  void *scratch = malloc(tfcc_f32_resize_scratch_bytes(&s) + 1);
  got[nout] = 1234.5f;
  if (xnn)
    tfcc_f32_resize_bilinear_xnn(pool, k, &s, align, half, in, got, scratch);
  else
    tfcc_f32_resize_bilinear(pool, k, &s, align, half, in, got, scratch);
  int bad = 0;
  for (size_t i = 0; i < nout; i++)
    if (!same_f32(got[i], want[i]) && bad++ < 3)
      fprintf(stderr, "%s: out[%zu] = %a, want %a\n", k->name, i, (double)got[i], (double)want[i]);
  CHECKF(bad == 0 && got[nout] == 1234.5f, "%s%s %dx%dx%dx%d -> %dx%d align %d half %d: %d wrong",
         k->name, xnn ? " (xnn order)" : "", batch, ih, iw, d, oh, ow, align, half, bad);
  free(scratch);
  free(in);
  free(want);
  free(got);
}

int main(void) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  tfcc_threadpool *pool = tfcc_test_pool(2);
  TFCC_CHECK_SELECTS(tfcc_q8_resize);
  static const int depths[] = {1, 3, 7, 8, 9, 15, 16, 17, 21, 31, 32, 33, 65};
  static const int sizes[][4] = {{4, 5, 9, 11}, {9, 11, 4, 5}, {1, 1, 6, 7},
                                 {3, 3, 3, 3},  {2, 7, 1, 1},  {5, 4, 17, 2}};
  int tested = 0;
  TFCC_EACH_VARIANT(tfcc_q8_resize, k, best) {
    for (int sg = 0; sg < 2; sg++)
      for (size_t di = 0; di < sizeof depths / sizeof depths[0]; di++)
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
          for (int mode = 0; mode < 3; mode++)
            run(k, NULL, sg == 1, 1 + (int)(di % 2), sizes[si][0], sizes[si][1], depths[di],
                sizes[si][2], sizes[si][3], mode == 1, mode == 2);
    /* DeepLab-like: 33x33x21 -> 257x257, split over the pool */
    run(k, pool, true, 1, 33, 33, 21, 257, 257, false, false);
    run(k, pool, false, 2, 33, 33, 21, 129, 65, true, false);
    tested++;
  }
  TFCC_EACH_VARIANT(tfcc_f32_resize, k, best) {
    for (int xnn = 0; xnn < 2; xnn++) {
      for (size_t di = 0; di < sizeof depths / sizeof depths[0]; di++) {
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
          for (int mode = 0; mode < 3; mode++)
            run_f(k, NULL, 1 + (int)(di % 2), sizes[si][0], sizes[si][1], depths[di], sizes[si][2],
                  sizes[si][3], mode == 1, mode == 2, xnn);
        run_f(k, NULL, 1 + (int)(di % 2), 3, 5, depths[di], 6, 10, false, false, xnn); /* 2x */
        run_f(k, NULL, 1, 1, 1, depths[di], 2, 2, false, false, xnn);
      }
      run_f(k, pool, 1, 33, 33, 21, 257, 257, false, false, xnn);
      run_f(k, pool, 1, 33, 33, 21, 257, 257, false, true, xnn); /* DeepLab's, half-pixel */
      run_f(k, pool, 2, 32, 16, 19, 64, 32, false, false, xnn);  /* 2x kernel, split */
    }
    tested++;
  }
  printf("%d q8 / f32 resize kernels tested at CPU level %s\n", tested, tfcc_isa_name(best));
  tfcc_threadpool_destroy(pool);
  return tfcc_test_finish("q8_resize");
}
