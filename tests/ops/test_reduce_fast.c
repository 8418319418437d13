/* Fast MEAN / SUM sums (src/kernels/reduce): the [outer, reduced, inner] shape test, and for
 * every variant this CPU can run: float32 sums give exactly the reference MEAN
 * (tfcc_reduce_mean_f32) after the same division, 8/16-bit raw sums equal
 * tfcc_reduce_sum_q_raw, and the reference epilogues fed with the fast sums give exactly the
 * bytes of the reference quantized MEAN / SUM kernels (XNNPACK, TFLite mean over H,W for uint8
 * and int8/int16, equal scales, float rescale, int16 multiplier, rescaled SUM), on global
 * pools (1x7x7x1280), odd channel counts, reductions over the first, middle and last axes,
 * size-1 axes, extreme values and zero points. hybrid5: the XNNPACK-order float MEAN over
 * trailing axes (xnn_mean_f32, rows side by side) gives the bits of the portable loop
 * tfcc_xnn_rsum_f32 times the scale, for every row length 0..70 and some long ones, row counts
 * around its 4-row groups, NaN, infinities, -0, and magnitudes that make the order matter. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/tflite-f32/tflite_f32.h"
#include "kernels/kernel_families.h"
#include "kernels/reduce/reduce.h"
#include "kernels/ref/quant_util.h"
#include "kernels/ref/reduce.h"
#include "kernel_variants.h"
#include "test_harness.h"

static uint32_t rng = 1234u;
static uint32_t urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

static tfcc_reduce_shape make_shape(int rank, const int32_t *dims, const bool *red) {
  tfcc_reduce_shape s;
  memset(&s, 0, sizeof s);
  s.rank = rank;
  for (int d = 0; d < rank; d++) {
    s.dims[d] = dims[d];
    s.reduced[d] = red[d];
  }
  tfcc_reduce_shape_finish(&s);
  return s;
}

static size_t qsize(tfcc_dtype t) { return t == TFCC_INT16 ? 2 : 1; }

static int n_cases = 0;

#define SAME_BYTES(a, b, n, ...) \
  do { \
    CHECKF(memcmp((a), (b), (n)) == 0, __VA_ARGS__); \
    n_cases++; \
  } while (0)

static void test_case(const tfcc_rsum_kernel *k, int rank, const int32_t *dims, const bool *red,
                      int mode) {
  const tfcc_reduce_shape s = make_shape(rank, dims, red);
  size_t O, R, I;
  if (!tfcc_rsum_shape(&s, &O, &R, &I)) return;
  CHECK((int64_t)(O * R * I) == s.in_count && (int64_t)(O * I) == s.out_count);
  const size_t nin = (size_t)s.in_count, nout = (size_t)s.out_count;
  char desc[128];
  int at = snprintf(desc, sizeof desc, "%s [", k->name);
  for (int d = 0; d < rank && at < 100; d++)
    at += snprintf(desc + at, sizeof desc - (size_t)at, "%s%d%s", d ? "," : "", (int)dims[d],
                   red[d] ? "r" : "");
  snprintf(desc + at, sizeof desc - (size_t)at, "] mode %d", mode);

  /* float32 MEAN */
  float *x = malloc(nin * 4), *want = malloc(nout * 4), *got = malloc(nout * 4);
  for (size_t i = 0; i < nin; i++) {
    x[i] = ((float)(urand() % 2000001) - 1e6f) / (mode ? 3.0f : 1e5f);
    if (mode == 2 && i % 97 == 0)
      x[i] = (i / 97) % 3 == 0 ? NAN : ((i / 97) % 3 == 1 ? INFINITY : -0.0f);
  }
  tfcc_reduce_mean_f32(&s, x, want);
  k->sum_f32(x, O, R, I, got);
  for (size_t j = 0; j < nout; j++) got[j] = got[j] / (float)s.reduce_count;
  /* bit for bit, except that any NaN matches a NaN (sign and payload are not specified) */
  for (size_t j = 0; j < nout; j++)
    if (isnan(got[j]) && isnan(want[j])) got[j] = want[j];
  SAME_BYTES(got, want, nout * 4, "%s: float MEAN differs", desc);
  free(x);
  free(want);
  free(got);

  const tfcc_dtype types[] = {TFCC_UINT8, TFCC_INT8, TFCC_INT16};
  for (int ti = 0; ti < 3; ti++) {
    const tfcc_dtype t = types[ti];
    const size_t qs = qsize(t);
    uint8_t *q = malloc(nin * qs);
    for (size_t i = 0; i < nin * qs; i++) q[i] = (uint8_t)urand();
    if (mode == 1)
      for (size_t i = 0; i < nin * qs; i++) q[i] = (t == TFCC_UINT8) ? 0xFF : 0x80;
    int32_t *a_ref = malloc(nout * 4), *a = malloc(nout * 4), *tmp = malloc(nout * 4);
    uint8_t *w = malloc(nout * qs), *g = malloc(nout * qs);
    CHECK(tfcc_reduce_sum_q_raw(&s, t, q, a_ref));
    memset(a, 0x5A, nout * 4);
    k->sum_q(t, q, O, R, I, a);
    SAME_BYTES(a, a_ref, nout * 4, "%s %s: raw sums differ", desc, tfcc_dtype_name(t));
    const int32_t zmin = t == TFCC_UINT8 ? 0 : (t == TFCC_INT8 ? -128 : 0);
    const int32_t zmax = t == TFCC_UINT8 ? 255 : (t == TFCC_INT8 ? 127 : 0);
    const int32_t in_zp =
        mode == 1 ? zmax : zmin + (int32_t)(urand() % (uint32_t)(zmax - zmin + 1));
    const int32_t out_zp =
        mode == 1 ? zmin : zmin + (int32_t)(urand() % (uint32_t)(zmax - zmin + 1));
    const float in_s = mode == 1 ? 0.5f : 0.0123f, out_s = mode == 1 ? 0.0039f : 0.0456f;
    /* equal quantization: truncating division */
    tfcc_reduce_mean_q_same(&s, t, q, w, tmp);
    tfcc_reduce_mean_q_same_finish(&s, t, a, g);
    SAME_BYTES(g, w, nout * qs, "%s %s: mean (same quant) differs", desc, tfcc_dtype_name(t));
    /* float rescale */
    tfcc_reduce_quantized_mean_or_sum(&s, t, q, in_zp, in_s, w, out_zp, out_s, tmp, false);
    tfcc_reduce_quantized_mean_or_sum_finish(&s, t, a, in_zp, in_s, g, out_zp, out_s, false);
    SAME_BYTES(g, w, nout * qs, "%s %s: mean (rescale) differs", desc, tfcc_dtype_name(t));
    tfcc_reduce_sum_q_rescaled(&s, t, q, in_zp, in_s, w, out_zp, out_s, tmp);
    tfcc_reduce_sum_q_rescaled_finish(&s, t, a, in_zp, in_s, g, out_zp, out_s);
    SAME_BYTES(g, w, nout * qs, "%s %s: rescaled sum differs", desc, tfcc_dtype_name(t));
    if (t != TFCC_INT16) {
      for (int is_mean = 0; is_mean < 2; is_mean++) {
        tfcc_xnn_reduce_q8(&s, t, q, in_zp, in_s, w, out_zp, out_s, tmp, is_mean);
        tfcc_xnn_reduce_q8_finish(&s, t, a, in_zp, in_s, g, out_zp, out_s, is_mean);
        SAME_BYTES(g, w, nout * qs, "%s %s: xnn %s differs", desc, tfcc_dtype_name(t),
                   is_mean ? "mean" : "sum");
        /* the vectorised epilogue at every ISA level */
        for (int isa = 0; isa < TFCC_ISA_COUNT_; isa++) {
          if (!tfcc_kernel_isa_fits((tfcc_isa)isa, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_)))
            continue;
          memcpy(tmp, a, nout * 4);
          memset(g, 0xEE, nout);
          tfcc_rsum_xnn_q8_finish((tfcc_isa)isa, &s, t, tmp, in_zp, in_s, g, out_zp, out_s,
                                  is_mean);
          SAME_BYTES(g, w, nout, "%s %s: vectorised xnn %s at %s differs", desc, tfcc_dtype_name(t),
                     is_mean ? "mean" : "sum", tfcc_isa_name((tfcc_isa)isa));
        }
      }
    } else {
      tfcc_reduce_mean_i16_mult(&s, (const int16_t *)(const void *)q, 0, in_s, (int16_t *)w, 0,
                                out_s, tmp);
      tfcc_reduce_mean_q_mult_finish(&s, TFCC_INT16, a, 0, in_s, (int16_t *)g, 0, out_s);
      SAME_BYTES(g, w, nout * qs, "%s int16: mean (multiplier) differs", desc);
    }
    /* TFLite's 4-D mean over H and W */
    if (rank == 4 && !red[0] && red[1] && red[2] && !red[3]) {
      if (t == TFCC_UINT8 || t == TFCC_INT8) {
        tfcc_mean_hw_q8(s.dims, t, q, in_zp, in_s, w, out_zp, out_s);
        tfcc_mean_hw_q8_finish(s.dims, t, a, in_zp, in_s, g, out_zp, out_s);
      } else {
        int32_t mult;
        int shift;
        tfcc_quantize_multiplier((double)in_s / (double)out_s, &mult, &shift);
        tfcc_mean_hw_int(s.dims, t, q, in_zp, mult, shift, w, out_zp);
        tfcc_mean_hw_int_finish(s.dims, t, a, in_zp, mult, shift, g, out_zp);
      }
      SAME_BYTES(g, w, nout * qs, "%s %s: mean over H,W differs", desc, tfcc_dtype_name(t));
    }
    free(q);
    free(a_ref);
    free(a);
    free(tmp);
    free(w);
    free(g);
  }
}

static float frnd(float lo, float hi) {
  return lo + (hi - lo) * (float)(urand() % 65536) / 65536.0f;
}

static void test_xnn_mean(const tfcc_rsum_kernel *k) {
  static const size_t longs[] = {255, 256, 257, 1000, 4099};
  float *x = malloc(9 * 4099 * sizeof(float)), *want = malloc(16 * sizeof(float));
  float *got = malloc(16 * sizeof(float));
  if (!x || !want || !got) {
    CHECK(!"test_xnn_mean memory");
    free(x), free(want), free(got);
    return;
  }
  for (size_t ri = 0; ri < 71 + sizeof longs / sizeof longs[0]; ri++) {
    const size_t R = ri < 71 ? ri : longs[ri - 71];
    for (size_t O = 1; O <= 9; O++) {
      for (size_t i = 0; i < O * R; i++) /* mixed magnitudes: every reordering shows */
        x[i] = frnd(-3.0f, 5.0f) * (float)(1u << (urand() % 20));
      if (O * R > 7) x[3] = -0.0f, x[O * R - 2] = 1e-30f;
      if (O == 5 && R > 2) x[R + 1] = NAN, x[2 * R + 2] = INFINITY, x[3 * R] = -INFINITY;
      if (O == 6 && R > 0) /* a row of -0 sums to +0 */
        for (size_t i = 0; i < R; i++) x[i] = -0.0f;
      const float scale = R ? 1.0f / (float)R : 1.0f;
      for (size_t o = 0; o < O; o++) want[o] = tfcc_xnn_rsum_f32(x + o * R, R) * scale;
      for (size_t o = 0; o < 16; o++) got[o] = 1234.5f;
      k->xnn_mean_f32(x, O, R, scale, got);
      SAME_BYTES(got, want, O * sizeof(float), "%s xnn_mean_f32 O=%zu R=%zu", k->name, O, R);
      CHECKF(got[O] == 1234.5f, "%s xnn_mean_f32 O=%zu R=%zu wrote past the end", k->name, O, R);
    }
  }
  free(x), free(want), free(got);
}

int main(void) {
  /* shape test */
  {
    size_t O, R, I;
    const int32_t d4[4] = {1, 7, 7, 1280};
    const bool hw[4] = {false, true, true, false}, c0[4] = {true, false, true, false};
    tfcc_reduce_shape s = make_shape(4, d4, hw);
    CHECK(tfcc_rsum_shape(&s, &O, &R, &I) && O == 1 && R == 49 && I == 1280);
    s = make_shape(4, d4, c0); /* the size-1 axis drops out: [7, 7r, 1280] */
    CHECK(tfcc_rsum_shape(&s, &O, &R, &I) && O == 7 && R == 7 && I == 1280);
    const int32_t d4b[4] = {2, 7, 7, 1280};
    s = make_shape(4, d4b, c0); /* two reduced runs */
    CHECK(!tfcc_rsum_shape(&s, &O, &R, &I));
    const int32_t d3[3] = {4, 1, 6};
    const bool r02[3] = {true, false, true}; /* the kept axis has size 1: one reduced run */
    s = make_shape(3, d3, r02);
    CHECK(tfcc_rsum_shape(&s, &O, &R, &I) && O == 1 && R == 24 && I == 1);
    const int32_t d0[2] = {3, 0};
    const bool r1[2] = {false, true};
    s = make_shape(2, d0, r1);
    CHECK(!tfcc_rsum_shape(&s, &O, &R, &I));
  }
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  int tested = 0;
  TFCC_EACH_VARIANT_IF(tfcc_rsum, k, best, tfcc_rsum_usable(k, best)) {
    tested++;
    test_xnn_mean(k);
    for (int mode = 0; mode < 3; mode++) {
      const int32_t g1[4] = {1, 7, 7, 1280}, g2[4] = {2, 5, 3, 33}, g3[4] = {1, 1, 1, 97};
      const bool hw[4] = {false, true, true, false};
      test_case(k, 4, g1, hw, mode);
      test_case(k, 4, g2, hw, mode);
      test_case(k, 4, g3, hw, mode);
      const int32_t d3[3] = {4, 37, 70};
      const bool a0[3] = {true, false, false}, a1[3] = {false, true, false},
                 a2[3] = {false, false, true};
      const bool a12[3] = {false, true, true}, all[3] = {true, true, true};
      test_case(k, 3, d3, a0, mode);
      test_case(k, 3, d3, a1, mode);
      test_case(k, 3, d3, a2, mode);
      test_case(k, 3, d3, a12, mode);
      test_case(k, 3, d3, all, mode);
      const int32_t d5[5] = {2, 1, 9, 1, 130};
      const bool b5[5] = {false, true, true, false, false};
      test_case(k, 5, d5, b5, mode);
    }
  }
  CHECK(tested >= 1);
  printf("%d reduce kernels tested at CPU level %s, %d comparisons\n", tested, tfcc_isa_name(best),
         n_cases);
  return tfcc_test_finish("test_reduce_fast");
}
