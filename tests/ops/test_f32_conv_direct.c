/* Direct float32 convolution (small-K first layers): every variant this CPU can run against
 * the reference convolution, and bit for bit against the im2col + GEMM path it replaces (same
 * packing, same sums): 3x3 / 2x2 / 5x3 windows, input channels 1-7, output channels around
 * the panel width (1, 7, 16, 17, 32, 33, 70), stride 1/2/3, SAME and VALID padding, images
 * smaller than the window, 7x7 x 3 and 3x3 x 16 (K near the limit), batches, activations, inline and on a 2-thread pool. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/f32-conv-direct/direct_conv.h"
#include "kernels/f32-gemm/conv.h"
#include "kernels/ref/conv.h"
#include "base/threadpool.h"
#include "kernel_variants.h"
#include "test_harness.h"

static uint32_t rng = 4242u;
static float frand(void) {
  rng = rng * 1664525u + 1013904223u;
  return (float)((rng >> 8) & 0xFFFF) / 32768.0f - 1.0f;
}

/* The GEMM kernel of the same level (its packing layout, and the path to compare bits with). */
static const tfcc_f32_gemm_kernel *gemm_twin(const tfcc_f32_direct_conv_kernel *k) {
  for (int i = 0; i < tfcc_f32_gemm_kernel_count(); i++) {
    const tfcc_f32_gemm_kernel *gk = tfcc_f32_gemm_kernel_at(i);
    if (gk->isa == k->isa && gk->nr == k->nr) return gk;
  }
  return NULL;
}

static void test_dc(const tfcc_f32_direct_conv_kernel *k, tfcc_threadpool *pool, int batches,
                    int ih, int iw, int ic, int oc, int fh, int fw, int sh, int sw, bool same,
                    bool bias, float lo, float hi) {
  tfcc_conv_geom g;
  memset(&g, 0, sizeof g);
  g.batches = batches;
  g.in_h = ih;
  g.in_w = iw;
  g.in_c = ic;
  g.out_c = oc;
  g.filter_h = fh;
  g.filter_w = fw;
  g.filter_in_c = ic;
  g.stride_h = sh;
  g.stride_w = sw;
  g.dil_h = 1;
  g.dil_w = 1;
  if (same) {
    g.out_h = (ih + sh - 1) / sh;
    g.out_w = (iw + sw - 1) / sw;
  } else {
    g.out_h = (ih - fh + sh) / sh;
    g.out_w = (iw - fw + sw) / sw;
  }
  const int ph = ((g.out_h - 1) * sh + fh - ih) / 2, pw = ((g.out_w - 1) * sw + fw - iw) / 2;
  g.pad_h = ph > 0 ? ph : 0;
  g.pad_w = pw > 0 ? pw : 0;
  CHECK(tfcc_f32_direct_conv_fits(&g));
  const tfcc_f32_gemm_kernel *gk = gemm_twin(k);
  CHECK(gk != NULL);
  if (!gk) return;
  const int K = fh * fw * ic;
  const size_t nin = (size_t)batches * ih * iw * ic, nf = (size_t)oc * K;
  const size_t nout = (size_t)batches * g.out_h * g.out_w * oc;
  float *in = malloc(sizeof(float) * nin), *f = malloc(sizeof(float) * nf);
  float *b = malloc(sizeof(float) * (size_t)oc);
  float *want = malloc(sizeof(float) * (nout + 1)), *got = malloc(sizeof(float) * (nout + 1));
  float *gemm = malloc(sizeof(float) * (nout + 1));
  for (size_t i = 0; i < nin; i++) in[i] = frand();
  for (size_t i = 0; i < nf; i++) f[i] = frand();
  for (int i = 0; i < oc; i++) b[i] = frand();
  tfcc_f32_packed pk;
  CHECK(tfcc_f32_pack(gk, oc, K, f, (size_t)K, 1, bias ? b : NULL, &pk));
  const size_t sb = tfcc_f32_conv_scratch_bytes(&g, &pk, 2);
  void *scratch = malloc(sb ? sb : 1);
  tfcc_conv_f32(&g, in, f, bias ? b : NULL, lo, hi, want);
  got[nout] = 12345.0f;
  tfcc_f32_direct_conv(pool, k, &g, pk.w, in, got, lo, hi);
  tfcc_f32_conv(pool, &g, &pk, in, gemm, lo, hi, scratch);
  int bad = 0, diff = 0;
  for (size_t i = 0; i < nout; i++) {
    if (fabsf(got[i] - want[i]) > 1e-5f * (float)(K + 1) && bad++ < 3)
      fprintf(stderr, "%s %dx%dx%d->%d f%dx%d s%d,%d: out[%zu] = %g, want %g\n", k->name, ih, iw,
              ic, oc, fh, fw, sh, sw, i, got[i], want[i]);
    if (memcmp(&got[i], &gemm[i], sizeof(float)) != 0 && diff++ < 3)
      fprintf(stderr, "%s %dx%dx%d->%d f%dx%d s%d,%d: out[%zu] = %a, GEMM %a\n", k->name, ih, iw,
              ic, oc, fh, fw, sh, sw, i, got[i], gemm[i]);
  }
  CHECKF(bad == 0, "%s %dx%dx%d->%d f%dx%d s%d,%d %s: %d wrong", k->name, ih, iw, ic, oc, fh, fw,
         sh, sw, same ? "SAME" : "VALID", bad);
  CHECKF(diff == 0, "%s %dx%dx%d->%d f%dx%d s%d,%d %s: %d differ from the GEMM path", k->name, ih,
         iw, ic, oc, fh, fw, sh, sw, same ? "SAME" : "VALID", diff);
  CHECK(got[nout] == 12345.0f);
  tfcc_f32_packed_free(&pk);
  free(scratch);
  free(in);
  free(f);
  free(b);
  free(want);
  free(got);
  free(gemm);
}

int main(void) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  tfcc_threadpool *pool2 = NULL;
  tfcc_err err = {0};
  CHECK(tfcc_threadpool_create(2, NULL, 0, &pool2, &err) == TFCC_OK);
  CHECK(tfcc_f32_direct_conv_select(TFCC_ISA_GENERIC, 8) != NULL);
  /* not taken: 1x1, dilation, groups, K too large */
  tfcc_conv_geom g = {1, 8, 8, 3, 8, 8, 16, 1, 1, 3, 1, 1, 1, 1, 0, 0};
  CHECK(!tfcc_f32_direct_conv_fits(&g));
  g.filter_h = g.filter_w = 3;
  CHECK(tfcc_f32_direct_conv_fits(&g));
  g.dil_w = 2;
  CHECK(!tfcc_f32_direct_conv_fits(&g));
  g.dil_w = 1;
  g.filter_in_c = 1;
  CHECK(!tfcc_f32_direct_conv_fits(&g));
  g.filter_in_c = g.in_c = 16; /* K 144 */
  CHECK(tfcc_f32_direct_conv_fits(&g));
  g.filter_in_c = g.in_c = 32; /* K 288 */
  CHECK(!tfcc_f32_direct_conv_fits(&g));
  int tested = 0;
  static const int ocs[] = {1, 7, 16, 17, 32, 33, 70};
  TFCC_EACH_VARIANT(tfcc_f32_direct_conv, k, best) {
    tested++;
    for (size_t oi = 0; oi < sizeof ocs / sizeof ocs[0]; oi++) {
      const int oc = ocs[oi];
      tfcc_threadpool *p = oi % 2 ? pool2 : NULL;
      for (int s = 1; s <= 2; s++) {
        test_dc(k, p, 1, 17, 29, 3, oc, 3, 3, s, s, true, true, 0.0f, 6.0f);
        test_dc(k, p, 2, 13, 12, 3, oc, 3, 3, s, s, false, false, -INFINITY, INFINITY);
        test_dc(k, p, 1, 9, 30, 1, oc, 5, 3, s, s, true, true, -1.0f, 1.0f);
        test_dc(k, p, 1, 8, 7, 7, oc, 3, 3, s, s, true, true, -INFINITY, INFINITY);
      }
      test_dc(k, p, 1, 10, 11, 4, oc, 2, 2, 2, 2, true, true, -INFINITY, INFINITY);
      test_dc(k, p, 1, 16, 40, 2, oc, 3, 3, 3, 1, true, true, 0.0f, INFINITY);
      test_dc(k, p, 1, 2, 1, 3, oc, 3, 3, 1, 1, true, true, -INFINITY, INFINITY);
      test_dc(k, p, 3, 1, 1, 5, oc, 3, 3, 2, 2, true, false, 0.0f, 6.0f);
    }
    /* the largest windows taken: 7x7 x 3 (ResNet-50's stem, K 147) and 3x3 x 16 (K 144) */
    test_dc(k, pool2, 1, 23, 21, 3, 64, 7, 7, 2, 2, true, true, -INFINITY, INFINITY);
    test_dc(k, NULL, 2, 9, 10, 16, 33, 3, 3, 1, 1, true, true, 0.0f, 6.0f);
    /* MobileNetV2's first layer (224x224x3 -> 112x112x32, 3x3 s2 SAME, RELU6) */
    test_dc(k, pool2, 1, 224, 224, 3, 32, 3, 3, 2, 2, true, true, 0.0f, 6.0f);
  }
  CHECK(tested >= 1);
  printf("%d f32 direct convolution kernels tested at CPU level %s\n", tested, tfcc_isa_name(best));
  tfcc_threadpool_destroy(pool2);
  return tfcc_test_finish("test_f32_conv_direct");
}
