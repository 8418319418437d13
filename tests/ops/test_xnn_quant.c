/* The XNNPACK-semantics kernels of TFCC_QUANT_COMPAT_TFLITE, each checked against a plain
 * statement of its arithmetic (written independently of the kernel's own formulation), plus
 * the model option itself: TFLITE mode matches TensorFlow Lite's output on a conformance case
 * where TFLite's builtin arithmetic (REFERENCE mode) differs by one unit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/ref/activation.h"
#include "kernels/ref/arith_quant.h"
#include "kernels/ref/conv.h"
#include "kernels/ref/quantize.h"
#include "kernels/ref/reduce.h"
#include "kernels/ref/resize.h"
#include "kernels/ref/xnn_quant.h"
#include "npy_load.h"
#include "test_harness.h"
#include "tfcc/tfcc.h"

static uint32_t g_rng = 12345u;
static uint32_t rnd(void) {
  g_rng = g_rng * 1664525u + 1013904223u;
  return g_rng >> 8;
}
static int32_t rnd_in(int32_t lo, int32_t hi) {
  return lo + (int32_t)(rnd() % (uint32_t)(hi - lo + 1));
}

/* floor(a / 2^s) for any sign, in int64. */
static int64_t floor_shift(int64_t a, int s) {
  const int64_t d = (int64_t)1 << s;
  int64_t q = a / d;
  if (a % d != 0 && a < 0) q--;
  return q;
}

static int32_t clampi(int64_t v, int32_t lo, int32_t hi) {
  return (int32_t)(v < lo ? lo : (v > hi ? hi : v));
}

/* fp32 requantization: float product, round half to even, clamp. */
static void test_requant_fp32(void) {
  /* ties go to even */
  CHECK(tfcc_requant_fp32(5, 0.5f, 0, -128, 127) == 2);
  CHECK(tfcc_requant_fp32(7, 0.5f, 0, -128, 127) == 4);
  CHECK(tfcc_requant_fp32(-5, 0.5f, 0, -128, 127) == -2);
  CHECK(tfcc_requant_fp32(-7, 0.5f, 3, -128, 127) == -1);
  /* clamp in the zero-point-shifted domain */
  CHECK(tfcc_requant_fp32(100000, 0.5f, 10, -128, 127) == 127);
  CHECK(tfcc_requant_fp32(-100000, 0.5f, 10, 0, 255) == 0);
  for (int i = 0; i < 20000; i++) {
    const int32_t acc = rnd_in(-2000000, 2000000);
    const float scale = (float)(rnd() % 100000 + 1) * 1e-7f;
    const int32_t zp = rnd_in(-20, 20);
    const float prod = (float)acc * scale; /* the float product XNNPACK forms */
    const int64_t want = clampi((int64_t)nearbyint((double)prod) + zp, -128, 127);
    const int32_t got = tfcc_requant_fp32(acc, scale, zp, -128, 127);
    CHECKF(got == want, "acc %d scale %g zp %d: %d vs %lld", (int)acc, (double)scale, (int)zp,
           (int)got, (long long)want);
    if (got != want) break;
  }
  /* activation ranges: lrintf(v / scale + zp) saturated */
  int32_t lo, hi;
  tfcc_xnn_act_range(3 /* RELU6 */, 0.05f, -10, -128, 127, &lo, &hi);
  CHECK(lo == -10 && hi == 110);
  tfcc_xnn_act_range(0, 0.05f, -10, -128, 127, &lo, &hi);
  CHECK(lo == -128 && hi == 127);
  tfcc_xnn_act_range(1, 0.5f, 300, 0, 255, &lo, &hi); /* zp beyond the range saturates */
  CHECK(lo == 255 && hi == 255);
}

/* A per-channel int8 convolution through the reference kernel in XNNPACK mode against a
 * direct sum of products and the float requantization statement. */
static void test_conv_i8_xnn(void) {
  tfcc_conv_geom g = {0};
  g.batches = 1;
  g.in_h = 5, g.in_w = 4, g.in_c = 3;
  g.filter_h = 3, g.filter_w = 3, g.filter_in_c = 3;
  g.out_h = 5, g.out_w = 4, g.out_c = 2;
  g.stride_h = g.stride_w = 1;
  g.dil_h = g.dil_w = 1;
  g.pad_h = g.pad_w = 1;
  int8_t in[60], filt[54], out[40];
  int32_t bias[2] = {150, -321};
  for (int i = 0; i < 60; i++) in[i] = (int8_t)rnd_in(-128, 127);
  for (int i = 0; i < 54; i++) filt[i] = (int8_t)rnd_in(-127, 127);
  const float scale[2] = {0.0123f, 0.00731f};
  const int32_t mult[2] = {0, 0}, shift[2] = {0, 0};
  tfcc_conv_requant q = {0};
  q.input_offset = 7; /* input zero point -7 */
  q.output_offset = -3;
  q.mult = mult;
  q.shift = shift;
  q.mult_stride = 1;
  q.act_min = -128;
  q.act_max = 127;
  q.scale = scale;
  tfcc_conv_i8(&g, &q, in, filt, bias, out);
  for (int oy = 0; oy < 5; oy++)
    for (int ox = 0; ox < 4; ox++)
      for (int oc = 0; oc < 2; oc++) {
        int64_t acc = bias[oc];
        for (int ky = 0; ky < 3; ky++)
          for (int kx = 0; kx < 3; kx++) {
            const int iy = oy - 1 + ky, ix = ox - 1 + kx;
            if (iy < 0 || iy >= 5 || ix < 0 || ix >= 4) continue;
            for (int ic = 0; ic < 3; ic++)
              acc += (int64_t)(in[(iy * 4 + ix) * 3 + ic] + 7) *
                     filt[((oc * 3 + ky) * 3 + kx) * 3 + ic];
          }
        const float prod = (float)acc * scale[oc];
        const int32_t want = clampi((int64_t)nearbyint((double)prod) - 3, -128, 127);
        const int32_t got = out[(oy * 4 + ox) * 2 + oc];
        CHECKF(got == want, "conv [%d,%d,%d]: %d vs %d", oy, ox, oc, (int)got, (int)want);
      }
}

/* vadd: statement with explicitly computed 21-bit multipliers and a floor shift in int64,
 * and within half a unit (plus the multiplier rounding) of the real-valued result. */
static void test_add_xnn(void) {
  const float s1 = 0.0371f, s2 = 0.0213f, so = 0.0452f;
  const int32_t z1 = 5, z2 = -9, zo = 2;
  for (int sub = 0; sub < 2; sub++) {
    tfcc_arith_q q;
    memset(&q, 0, sizeof q);
    tfcc_arith_q_prepare_add_xnn(&q, s1, z1, s2, z2, so, zo, sub == 1);
    q.act_min = -128;
    q.act_max = 127;
    /* max(|s1/so|, |s2/so|) = 0.82 -> exponent -1 -> shift 21 */
    CHECK(q.xnn_shift == 21);
    const int64_t am = llrint((double)(s1 / so) * 2097152.0);
    const int64_t bm = (sub ? -1 : 1) * llrint((double)(s2 / so) * 2097152.0);
    CHECK(q.xnn_a_mult == am && q.xnn_b_mult == bm);
    int worst = 0;
    for (int a = -128; a <= 127; a += 3)
      for (int b = -128; b <= 127; b += 5) {
        const int64_t acc = am * (a - z1) + bm * (b - z2) + ((int64_t)1 << 20);
        const int32_t want = clampi(floor_shift(acc, 21) + zo, -128, 127);
        const int32_t got = tfcc_arith_add_xnn_elem(a, b, &q);
        if (got != want) worst++;
        const double real = (s1 * (a - z1) + (sub ? -1.0 : 1.0) * s2 * (b - z2)) / so + zo;
        if (real > -127.0 && real < 126.0) CHECK(fabs(got - real) <= 0.5 + 1e-3);
      }
    CHECKF(worst == 0, "vadd (sub %d): %d elements differ from the statement", sub, worst);
  }
}

/* vmul: (a - za)(b - zb) times (s1 * s2) / so in float, round half to even. */
static void test_mul_xnn(void) {
  tfcc_arith_q q;
  memset(&q, 0, sizeof q);
  const float s1 = 0.02f, s2 = 0.031f, so = 0.05f;
  tfcc_arith_q_prepare_mul_xnn(&q, s1, 3, s2, 130, so, 128);
  q.act_min = 0;
  q.act_max = 255;
  const float scale = (s1 * s2) / so;
  CHECK(q.xnn_scale == scale);
  uint8_t a[256], b[256], o[256];
  for (int i = 0; i < 256; i++) a[i] = (uint8_t)i, b[i] = (uint8_t)(255 - i);
  const int32_t dims[1] = {256}, ranks[2] = {1, 1};
  const int32_t *dl[2] = {dims, dims};
  tfcc_bcast bc;
  tfcc_bcast_plan(&bc, 2, ranks, dl, 1, dims);
  CHECK(tfcc_ref_arith_q(TFCC_AQ_MUL_XNN, TFCC_UINT8, &bc, a, b, o, &q));
  for (int i = 0; i < 256; i++) {
    const int32_t prod = (a[i] - 3) * (b[i] - 130);
    const int32_t want = clampi((int64_t)nearbyint((double)((float)prod * scale)) + 128, 0, 255);
    CHECKF(o[i] == want, "mul %d: %d vs %d", i, (int)o[i], (int)want);
  }
}

/* vlrelu: 8.8 fixed point with floor. */
static void test_lrelu_xnn(void) {
  tfcc_leaky_relu_params p;
  memset(&p, 0, sizeof p);
  p.xnn = true;
  p.in_zp = -4;
  p.out_zp = 6;
  const float pos = 0.8f, neg = pos * 0.1f;
  p.xnn_pos_mult = (int32_t)lrintf(256.0f * pos);
  p.xnn_neg_mult = (int32_t)lrintf(256.0f * neg);
  int8_t in[256], out[256];
  for (int i = 0; i < 256; i++) in[i] = (int8_t)(i - 128);
  tfcc_leaky_relu_q(TFCC_INT8, in, out, 256, &p);
  for (int i = 0; i < 256; i++) {
    const int32_t d = in[i] + 4;
    const int64_t m = d >= 0 ? 205 : 20; /* lrint(204.8), lrint(20.48) */
    const int32_t want = clampi(floor_shift((int64_t)6 * 256 + 128 + d * m, 8), -128, 127);
    CHECKF(out[i] == want, "lrelu %d: %d vs %d", (int)in[i], (int)out[i], (int)want);
  }
}

/* Converts: f32 -> q8 (x times 1/scale, half to even) and q8 -> q8 (8.8 fixed point). */
static void test_convert_xnn(void) {
  const float xs[6] = {0.25f, 0.75f, -0.25f, 1e9f, -1e9f, 0.0f};
  int8_t q[6];
  /* 0.5 -> 0, 1.5 -> 2, -0.5 -> 0 (half to even), then + 1 */
  tfcc_xnn_quantize_f32(xs, TFCC_INT8, q, 6, 1.0f / 0.5f, 1);
  CHECK(q[0] == 1 && q[1] == 3 && q[2] == 1 && q[3] == 127 && q[4] == -128 && q[5] == 1);
  const float nan_in = NAN;
  uint8_t qn;
  tfcc_xnn_quantize_f32(&nan_in, TFCC_UINT8, &qn, 1, 2.0f, 100);
  CHECK(qn == 0);
  uint8_t in[256], out[256];
  for (int i = 0; i < 256; i++) in[i] = (uint8_t)i;
  const float ratio = 0.0203f / 0.0157f;
  const int32_t m = (int32_t)lrintf(256.0f * ratio);
  tfcc_xnn_requantize_q8(TFCC_UINT8, in, out, 256, m, 120, 131);
  for (int i = 0; i < 256; i++) {
    const int32_t want = clampi(floor_shift((int64_t)(i - 120) * m + 128, 8) + 131, 0, 255);
    CHECKF(out[i] == want, "requant %d: %d vs %d", i, (int)out[i], (int)want);
  }
}

/* ibilinear: four corner weights (2048 - wh)(2048 - wv) ... over 2^22, rounded half up. */
static void test_resize_xnn(void) {
  for (int i = 0; i < 5000; i++) {
    const int32_t tl = rnd_in(-128, 127), tr = rnd_in(-128, 127), bl = rnd_in(-128, 127),
                  br = rnd_in(-128, 127), wh = rnd_in(0, 2048), wv = rnd_in(0, 2048);
    const int64_t num = (int64_t)tl * (2048 - wh) * (2048 - wv) + (int64_t)tr * wh * (2048 - wv) +
                        (int64_t)bl * (2048 - wh) * wv + (int64_t)br * wh * wv;
    const int64_t want = floor_shift(num + ((int64_t)1 << 21), 22);
    const int32_t got = tfcc_xnn_ibilinear(tl, tr, bl, br, wh, wv);
    CHECKF(got == want, "ibilinear: %d vs %lld", (int)got, (long long)want);
    if (got != want) break;
  }
  /* 2x2 -> 3x3 align_corners: centre is the mean of the four corners, corners unchanged */
  const tfcc_resize_shape s = {1, 2, 2, 1, 3, 3};
  const uint8_t in[4] = {10, 20, 30, 41};
  uint8_t out[9];
  tfcc_xnn_resize_bilinear_u8(&s, true, false, in, out);
  CHECK(out[0] == 10 && out[2] == 20 && out[6] == 30 && out[8] == 41);
  CHECK(out[4] == 25);                 /* 25.25 */
  CHECK(out[1] == 15 && out[7] == 36); /* 35.5 rounds half up */
}

/* MEAN / SUM: the raw int32 sum times the float scale (MEAN: times 1 / n), plus the float bias
 * zo - (n * zi) * scale, half to even. */
static void test_reduce_xnn(void) {
  tfcc_reduce_shape s;
  memset(&s, 0, sizeof s);
  s.rank = 2;
  s.dims[0] = 3;
  s.dims[1] = 7;
  s.reduced[1] = true;
  tfcc_reduce_shape_finish(&s);
  int8_t in[21], out[3];
  int32_t acc[3];
  for (int i = 0; i < 21; i++) in[i] = (int8_t)rnd_in(-128, 127);
  const float si = 0.031f, so = 0.017f;
  for (int mean = 0; mean < 2; mean++) {
    CHECK(tfcc_xnn_reduce_q8(&s, TFCC_INT8, in, -5, si, out, 9, so, acc, mean == 1));
    float scale = si / so;
    if (mean) scale *= 1.0f / 7.0f;
    const float bias = 9.0f - (float)(7 * -5) * scale;
    for (int r = 0; r < 3; r++) {
      int32_t sum = 0;
      for (int k = 0; k < 7; k++) sum += in[r * 7 + k];
      const float f = (float)sum * scale + bias;
      const int32_t want = clampi((int64_t)nearbyint((double)f), -128, 127);
      CHECKF(out[r] == want, "%s row %d: %d vs %d", mean ? "mean" : "sum", r, (int)out[r],
             (int)want);
    }
  }
}

/* The option: a uint8 3x3 convolution where TFLite's builtin fixed-point requantization and
 * XNNPACK's float one disagree in one element (conformance case conv_2d_u8_3x3_same). */
static void test_model_option(void) {
  const char *src = getenv("TFCC_SOURCE_DIR");
  char path[1024], in_path[1024], ref_path[1024];
  snprintf(path, sizeof path, "%s/tests/ops/conformance/conv_2d_u8_3x3_same.tflite",
           src ? src : ".");
  snprintf(in_path, sizeof in_path, "%s/tests/ops/conformance/conv_2d_u8_3x3_same.in0.npy",
           src ? src : ".");
  snprintf(ref_path, sizeof ref_path, "%s/tests/ops/conformance/conv_2d_u8_3x3_same.out0.npy",
           src ? src : ".");
  tfcc_runtime *rt = NULL;
  CHECK(tfcc_runtime_create(NULL, &rt) == TFCC_OK);
  if (!rt) return;
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  CHECK(mo.quant_compat == TFCC_QUANT_COMPAT_TFLITE);
  tfcc_model *m = NULL;
  mo.quant_compat = (tfcc_quant_compat)7;
  CHECK(tfcc_model_load_file(rt, path, &mo, &m) == TFCC_ERR_INVALID_ARG && m == NULL);
  CHECK(strstr(tfcc_last_error(), "quant_compat") != NULL);
  test_npy x, ref;
  if (test_npy_load(in_path, &x) != 0 || test_npy_load(ref_path, &ref) != 0) {
    CHECK(!"conformance files readable");
    tfcc_runtime_destroy(rt);
    return;
  }
  int differ[2] = {-1, -1};
  for (int mode = 0; mode < 2; mode++) {
    mo.quant_compat = mode ? TFCC_QUANT_COMPAT_REFERENCE : TFCC_QUANT_COMPAT_TFLITE;
    m = NULL;
    CHECK(tfcc_model_load_file(rt, path, &mo, &m) == TFCC_OK);
    tfcc_session *sess = NULL;
    if (m) CHECK(tfcc_session_create(m, NULL, &sess) == TFCC_OK);
    if (sess) {
      uint8_t *out = malloc(ref.bytes);
      const void *ins[1] = {x.data};
      void *outs[1] = {out};
      CHECK(tfcc_session_run(sess, ins, outs) == TFCC_OK);
      differ[mode] = 0;
      for (size_t i = 0; i < ref.bytes; i++) differ[mode] += out[i] != ((uint8_t *)ref.data)[i];
      free(out);
      tfcc_session_destroy(sess);
    }
    tfcc_model_release(m);
  }
  CHECKF(differ[0] == 0, "TFLITE mode: %d elements differ from TensorFlow Lite", differ[0]);
  CHECKF(differ[1] == 1, "REFERENCE mode: %d elements differ (builtin arithmetic: 1)", differ[1]);
  test_npy_free(&x);
  test_npy_free(&ref);
  tfcc_runtime_destroy(rt);
}

int main(void) {
  test_requant_fp32();
  test_conv_i8_xnn();
  test_add_xnn();
  test_mul_xnn();
  test_lrelu_xnn();
  test_convert_xnn();
  test_resize_xnn();
  test_reduce_xnn();
  test_model_option();
  return tfcc_test_finish("ops.xnn_quant");
}
