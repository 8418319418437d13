/* ref11: the float32 TRANSPOSE_CONV builtin order on the vector GEMM (tfcc_eigen_tconv_f32,
 * kernels/tflite-f32/eigen_f32.h) against the scalar loops it replaces (tfcc_tconv_f32 with
 * TFCC_TCONV_F32_BUILTIN, kernels/ref/transpose_conv.c), bit for bit, for every tflite_f32
 * variant this CPU runs: weights as stored and packed, odd channel counts (not multiples of any
 * vector width), strides 1-3, SAME and VALID, batch 2, pixels not a multiple of 4, Eigen's GEBP
 * on and off, depth panels (over 816 input channels), a column buffer of several chunks, bias or
 * none, a clamp, and NaN / infinities / -0 among the inputs (a NaN output equal to any NaN). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/ref/transpose_conv.h"
#include "kernels/tflite-f32/eigen_f32.h"
#include "kernels/tflite-f32/tflite_f32.h"
#include "kernel_variants.h"
#include "test_harness.h"

static uint32_t g_seed = 12345u;

static float frand(float lo, float hi) {
  g_seed = g_seed * 1664525u + 1013904223u;
  return lo + (hi - lo) * (float)(g_seed >> 8) / 16777216.0f;
}

/* TFLite's transpose padding for padding SAME (out = in * stride) or VALID (out = (in - 1) *
   stride + filter) */
static void geom(tfcc_conv_geom *g, const int32_t v[10]) {
  memset(g, 0, sizeof *g);
  g->batches = v[0];
  g->in_h = v[1];
  g->in_w = v[2];
  g->in_c = g->filter_in_c = v[3];
  g->out_c = v[4];
  g->filter_h = v[5];
  g->filter_w = v[6];
  g->stride_h = v[7];
  g->stride_w = v[8];
  g->dil_h = g->dil_w = 1;
  const bool same = v[9] != 0;
  g->out_h = same ? g->in_h * g->stride_h : (g->in_h - 1) * g->stride_h + g->filter_h;
  g->out_w = same ? g->in_w * g->stride_w : (g->in_w - 1) * g->stride_w + g->filter_w;
  const int32_t th = (g->in_h - 1) * g->stride_h + g->filter_h - g->out_h;
  const int32_t tw = (g->in_w - 1) * g->stride_w + g->filter_w - g->out_w;
  g->pad_h = th > 0 ? th / 2 : 0;
  g->pad_w = tw > 0 ? tw / 2 : 0;
}

static void tconv_case(const int32_t v[10], int variant) {
  tfcc_conv_geom g;
  geom(&g, v);
  const bool bias_on = variant != 1, special = variant == 2;
  const float lo = variant == 1 ? -0.75f : -INFINITY, hi = variant == 1 ? 1.5f : INFINITY;
  const size_t ni = (size_t)g.batches * g.in_h * g.in_w * g.in_c;
  const size_t nf = (size_t)g.out_c * g.filter_h * g.filter_w * g.in_c;
  const size_t no = (size_t)g.batches * g.out_h * g.out_w * g.out_c;
  float *in = malloc((ni + 1) * sizeof(float)), *f = malloc((nf + 1) * sizeof(float));
  float *pk = malloc((nf + 1) * sizeof(float)), *b = malloc(((size_t)g.out_c + 1) * sizeof(float));
  float *want = malloc((no + 1) * sizeof(float)), *got = malloc((no + 16) * sizeof(float));
  float *scratch = malloc(tfcc_eigen_tconv_f32_scratch(&g) + 64);
  if (!in || !f || !pk || !b || !want || !got || !scratch) {
    CHECK(!"tconv_case memory");
    goto done;
  }
  for (size_t i = 0; i < ni; i++) in[i] = frand(-1.0f, 1.0f) * (float)(1u << (i % 5));
  for (size_t i = 0; i < nf; i++) f[i] = frand(-0.5f, 0.5f);
  for (int32_t i = 0; i < g.out_c; i++) b[i] = i % 3 == 0 ? -0.0f : frand(-1.0f, 1.0f);
  if (special && ni > 6) {
    const float sv[] = {NAN, INFINITY, -INFINITY, -0.0f, 3e38f, -3e38f};
    for (size_t i = 0; i < 6; i++) in[(i * 7919u) % ni] = sv[i];
  }
  tfcc_tconv_f32_pack(f, g.out_c, g.filter_h, g.filter_w, g.in_c, pk);
  const float *bp = bias_on ? b : NULL;
  tfcc_tconv_f32(&g, in, f, NULL, bp, lo, hi, TFCC_TCONV_F32_BUILTIN, want);
  TFCC_EACH_VARIANT(tfcc_tflite_f32, k, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_)) {
    for (int src = 0; src < 2; src++) {
      for (size_t j = 0; j < no + 16; j++) got[j] = 1234.5f;
      tfcc_eigen_tconv_f32(&g, in, src ? NULL : f, src ? pk : NULL, bp, lo, hi, got, scratch,
                           k->eigen_gemm);
      size_t bad = 0;
      for (size_t j = 0; j < no; j++) /* bits, or NaN both (which NaN: the operand order) */
        bad += memcmp(&got[j], &want[j], sizeof(float)) != 0 && !(isnan(got[j]) && isnan(want[j]));
      CHECKF(bad == 0 && got[no] == 1234.5f,
             "%s tconv [%d,%d,%d,%d] -> %d, %dx%d s%d,%d %s variant %d from %s: %zu of %zu apart",
             k->name, (int)v[0], (int)v[1], (int)v[2], (int)v[3], (int)v[4], (int)v[5], (int)v[6],
             (int)v[7], (int)v[8], v[9] ? "SAME" : "VALID", variant, src ? "packed" : "stored", bad,
             no);
    }
  }
done:
  free(in), free(f), free(pk), free(b), free(want), free(got), free(scratch);
}

int main(void) {
  /* batches, in_h, in_w, in_c, out_c, filter_h, filter_w, stride_h, stride_w, SAME */
  static const int32_t shapes[][10] = {
      {2, 3, 5, 13, 7, 3, 3, 2, 2, 1},    /* odd channels, GEBP, pixels 15 (3 past the groups) */
      {2, 4, 3, 9, 5, 3, 3, 3, 3, 0},     /* stride 3 VALID */
      {2, 2, 7, 17, 3, 2, 3, 1, 2, 1},    /* stride 1 x 2 */
      {1, 1, 32, 256, 64, 1, 3, 1, 1, 1}, /* dpcrn's first: N 192, several column chunks */
      {1, 1, 128, 64, 2, 1, 5, 1, 2, 1},  /* dpcrn's last two: N 10 and 5 */
      {1, 1, 128, 64, 1, 1, 5, 1, 2, 1},
      {2, 1, 3, 5, 3, 1, 2, 1, 1, 0},    /* k + m + n < 20: one running sum, no GEBP */
      {1, 1, 1, 40, 6, 3, 3, 2, 2, 1},   /* one pixel (n = 1: a matrix-vector product) */
      {2, 3, 3, 11, 1, 1, 1, 1, 1, 1},   /* m = 1 */
      {1, 2, 3, 1031, 3, 2, 2, 2, 2, 0}, /* depth panels (1031 > 816) */
      {2, 5, 6, 33, 19, 4, 4, 2, 3, 1},  /* 4x4 filter, mixed strides */
      {1, 7, 9, 3, 37, 3, 3, 1, 1, 0},   /* wide N, few channels */
  };
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (int variant = 0; variant < 3; variant++) tconv_case(shapes[s], variant);
  return tfcc_test_finish("tconv_eigen");
}
