/* RELU, RELU6, RELU_N1_TO_1, LEAKY_RELU, ELU, GELU, HARD_SWISH, LOGISTIC, TANH, PRELU:
 * float against double math, quantized over every representable input (a sweep for int16)
 * against double math then quantize (at most `tol` units apart, differing elements counted). */
#include "act_test_util.h"

typedef double (*real_fn)(double x, double arg);

static double f_clamp_relu(double x, double a) {
  (void)a;
  return x > 0 ? x : 0;
}
static double f_clamp_relu6(double x, double a) {
  (void)a;
  return x < 0 ? 0 : (x > 6 ? 6 : x);
}
static double f_clamp_relu1(double x, double a) {
  (void)a;
  return x < -1 ? -1 : (x > 1 ? 1 : x);
}
static double f_leaky(double x, double a) { return x > 0 ? x : x * a; }
static double f_logistic(double x, double a) {
  (void)a;
  return 1.0 / (1.0 + exp(-x));
}
static double f_tanh(double x, double a) {
  (void)a;
  return tanh(x);
}
static double f_elu(double x, double a) {
  (void)a;
  return x < 0 ? expm1(x) : x;
}
static double f_gelu(double x, double a) {
  (void)a;
  return 0.5 * x * (1.0 + erf(x / sqrt(2.0)));
}
static double f_gelu_approx(double x, double a) {
  (void)a;
  return 0.5 * x * (1.0 + tanh(sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
}
static double f_hard_swish(double x, double a) {
  (void)a;
  double r = x + 3;
  r = r < 0 ? 0 : (r > 6 ? 6 : r);
  return x * r / 6;
}

/* Every input value of type t (int16: a sweep incl. both ends), shape [1, n]. */
static void check_unary_q(const char *what, int32_t builtin, tfcc_fb_table opts, tfcc_dtype t,
                          float s_in, int32_t z_in, float s_out, int32_t z_out, real_fn f,
                          double arg, int tol, double max_off_fraction) {
  enum { CAP = 65536 };
  static int16_t in_buf[CAP], out_buf[CAP];
  size_t n = 0;
  const int32_t step = t == TFCC_INT16 ? 37 : 1;
  for (int32_t q = att_qmin(t); q <= att_qmax(t); q += step) att_set(t, in_buf, n++, q);
  att_set(t, in_buf, n++, att_qmax(t));
  att_tensor in, out;
  int32_t dims[2] = {1, (int32_t)n};
  att_make(&in, t, 2, dims, in_buf, s_in, z_in);
  att_make(&out, t, 2, dims, out_buf, s_out, z_out);
  att_tensor *ins[1] = {&in};
  tfcc_err err = {0};
  tfcc_status st = att_run(builtin, ins, 1, &out, opts, &err);
  CHECKF(st == TFCC_OK, "%s: %s", what, err.msg);
  if (st) return;
  CHECK(out.t.rank == 2 && out.t.dims[1] == (int32_t)n);
  size_t off = 0;
  int worst = 0;
  for (size_t i = 0; i < n; i++) {
    const int32_t q = att_get(t, in_buf, i);
    const int32_t want = att_quantize(f(s_in * (double)(q - z_in), arg), s_out, z_out, t);
    const int32_t got = att_get(t, out_buf, i);
    const int d = abs(got - want);
    if (d) {
      off++;
      if (getenv("ATT_DEBUG"))
        printf("    %s q=%d got %d want %d\n", what, (int)q, (int)got, (int)want);
    }
    if (d > worst) worst = d;
    if (d > tol) {
      CHECKF(d <= tol, "%s: input %d -> %d, expected %d", what, (int)q, (int)got, (int)want);
      break;
    }
  }
  CHECKF((double)off <= max_off_fraction * (double)n, "%s: %zu of %zu elements differ", what, off,
         n);
  printf("  %-44s %5zu/%5zu off by <=%d\n", what, off, n, worst);
}

static void check_unary_f32(const char *what, int32_t builtin, tfcc_fb_table opts, real_fn f,
                            double arg, float lo, float hi, double rel_tol) {
  enum { N = 3 * 5 * 7 };
  float in_buf[N], out_buf[N];
  for (int i = 0; i < N; i++) in_buf[i] = att_uniform(lo, hi);
  in_buf[0] = 0.f;
  in_buf[1] = lo;
  in_buf[2] = hi;
  att_tensor in, out;
  int32_t dims[3] = {3, 5, 7};
  att_make(&in, TFCC_FLOAT32, 3, dims, in_buf, 0, 0);
  att_make(&out, TFCC_FLOAT32, 3, dims, out_buf, 0, 0);
  att_tensor *ins[1] = {&in};
  tfcc_err err = {0};
  tfcc_status st = att_run(builtin, ins, 1, &out, opts, &err);
  CHECKF(st == TFCC_OK, "%s: %s", what, err.msg);
  if (st) return;
  CHECK(out.t.rank == 3 && out.t.dims[0] == 3 && out.t.dims[1] == 5 && out.t.dims[2] == 7);
  for (int i = 0; i < N; i++) {
    const double want = f(in_buf[i], arg);
    CHECKF(fabs(out_buf[i] - want) <= rel_tol * (1e-6 + fabs(want)) + (rel_tol ? 1e-6 : 0),
           "%s: f(%g) = %g, expected %g", what, (double)in_buf[i], (double)out_buf[i], want);
  }
}

static void test_relu_family(void) {
  tfcc_fb_table none = att_no_options();
  check_unary_f32("RELU f32", TFCC_OP_RELU, none, f_clamp_relu, 0, -8, 8, 0);
  check_unary_f32("RELU6 f32", TFCC_OP_RELU6, none, f_clamp_relu6, 0, -8, 8, 0);
  check_unary_f32("RELU_N1_TO_1 f32", TFCC_OP_RELU_N1_TO_1, none, f_clamp_relu1, 0, -3, 3, 0);
  const struct {
    int32_t op;
    real_fn f;
    const char *name;
    bool i16;
  } ops[] = {{TFCC_OP_RELU, f_clamp_relu, "RELU", true},
             {TFCC_OP_RELU6, f_clamp_relu6, "RELU6", true},
             {TFCC_OP_RELU_N1_TO_1, f_clamp_relu1, "RELU_N1_TO_1", false}};
  char name[96];
  for (int k = 0; k < 3; k++) {
    snprintf(name, sizeof name, "%s uint8", ops[k].name);
    check_unary_q(name, ops[k].op, none, TFCC_UINT8, 0.05f, 100, 0.03f, 10, ops[k].f, 0, 1, 0.05);
    snprintf(name, sizeof name, "%s uint8 same scale (exact)", ops[k].name);
    check_unary_q(name, ops[k].op, none, TFCC_UINT8, 0.02f, 128, 0.02f, 128, ops[k].f, 0, 0, 0);
    snprintf(name, sizeof name, "%s int8", ops[k].name);
    check_unary_q(name, ops[k].op, none, TFCC_INT8, 0.04f, -5, 0.06f, -128, ops[k].f, 0, 1, 0.05);
    if (ops[k].i16) {
      snprintf(name, sizeof name, "%s int16", ops[k].name);
      check_unary_q(name, ops[k].op, none, TFCC_INT16, 1.f / 4096, 0, 1.f / 5000, 0, ops[k].f, 0, 1,
                    0.05);
    }
  }
  /* RELU_N1_TO_1 has no int16 kernel in TFLite. */
  int16_t buf[4] = {0};
  int32_t dims[1] = {4};
  att_tensor in, out;
  att_make(&in, TFCC_INT16, 1, dims, buf, 1.f / 4096, 0);
  att_make(&out, TFCC_INT16, 1, dims, buf, 1.f / 4096, 0);
  att_tensor *ins[1] = {&in};
  tfcc_err err = {0};
  CHECK(att_run(TFCC_OP_RELU_N1_TO_1, ins, 1, &out, none, &err) == TFCC_ERR_UNSUPPORTED);
  CHECK(strstr(err.msg, "int16") != NULL);
  /* int16 zero point must be 0 */
  att_make(&in, TFCC_INT16, 1, dims, buf, 1.f / 4096, 3);
  CHECK(att_run(TFCC_OP_RELU, ins, 1, &out, none, &err) == TFCC_ERR_UNSUPPORTED);
  /* output dtype must match input */
  att_make(&in, TFCC_UINT8, 1, dims, buf, 0.1f, 0);
  att_make(&out, TFCC_INT8, 1, dims, buf, 0.1f, 0);
  CHECK(att_run(TFCC_OP_RELU6, ins, 1, &out, none, &err) == TFCC_ERR_DTYPE);
  /* quantized input without quantization parameters */
  att_make(&in, TFCC_UINT8, 1, dims, buf, 0.f, 0);
  att_make(&out, TFCC_UINT8, 1, dims, buf, 0.1f, 0);
  CHECK(att_run(TFCC_OP_RELU, ins, 1, &out, none, &err) == TFCC_ERR_INVALID_MODEL);
  CHECK(strstr(err.msg, "no quantization") != NULL);
}

static void test_leaky_relu(void) {
  uint8_t opt_buf[256];
  const float alphas[3] = {0.2f, 0.01f, 1.5f};
  char name[96];
  for (int k = 0; k < 3; k++) {
    tfcc_fb_table o = att_f32_option(opt_buf, sizeof opt_buf, alphas[k]);
    snprintf(name, sizeof name, "LEAKY_RELU f32 alpha %g", (double)alphas[k]);
    check_unary_f32(name, TFCC_OP_LEAKY_RELU, o, f_leaky, alphas[k], -5, 5, 1e-6);
    snprintf(name, sizeof name, "LEAKY_RELU uint8 alpha %g", (double)alphas[k]);
    /* TFLite rounds twice (SRDHM, then the rounding shift): up to ~1/4 of the negative side can
     * land one unit away from single rounding when the multiplier shift is small. */
    check_unary_q(name, TFCC_OP_LEAKY_RELU, o, TFCC_UINT8, 0.0517f, 130, 0.0413f, 90, f_leaky,
                  alphas[k], 1, 0.15);
    snprintf(name, sizeof name, "LEAKY_RELU int8 alpha %g", (double)alphas[k]);
    check_unary_q(name, TFCC_OP_LEAKY_RELU, o, TFCC_INT8, 0.0517f, 7, 0.0413f, -30, f_leaky,
                  alphas[k], 1, 0.15);
    snprintf(name, sizeof name, "LEAKY_RELU int16 alpha %g", (double)alphas[k]);
    check_unary_q(name, TFCC_OP_LEAKY_RELU, o, TFCC_INT16, 1.f / 2011, 0, 1.f / 1493, 0, f_leaky,
                  alphas[k], 1, 0.15);
  }
}

static void test_lut_ops(void) {
  tfcc_fb_table none = att_no_options();
  uint8_t ob[256];
  check_unary_f32("LOGISTIC f32", TFCC_OP_LOGISTIC, none, f_logistic, 0, -20, 20, 1e-5);
  check_unary_f32("TANH f32", TFCC_OP_TANH, none, f_tanh, 0, -6, 6, 1e-5);
  check_unary_f32("ELU f32", TFCC_OP_ELU, none, f_elu, 0, -6, 6, 1e-5);
  check_unary_f32("GELU f32", TFCC_OP_GELU, none, f_gelu, 0, -6, 6, 1e-5);
  check_unary_f32("GELU f32 approximate", TFCC_OP_GELU, att_bool_option(ob, sizeof ob, true),
                  f_gelu_approx, 0, -6, 6, 1e-5);
  check_unary_f32("HARD_SWISH f32", TFCC_OP_HARD_SWISH, none, f_hard_swish, 0, -6, 6, 1e-6);

  check_unary_q("LOGISTIC uint8", TFCC_OP_LOGISTIC, none, TFCC_UINT8, 0.1f, 128, 1.f / 256, 0,
                f_logistic, 0, 1, 0.02);
  check_unary_q("LOGISTIC int8", TFCC_OP_LOGISTIC, none, TFCC_INT8, 0.06f, 3, 1.f / 256, -128,
                f_logistic, 0, 1, 0.02);
  check_unary_q("TANH uint8", TFCC_OP_TANH, none, TFCC_UINT8, 0.03f, 120, 1.f / 128, 128, f_tanh, 0,
                1, 0.02);
  check_unary_q("TANH int8", TFCC_OP_TANH, none, TFCC_INT8, 0.03f, 0, 1.f / 128, 0, f_tanh, 0, 1,
                0.02);
  check_unary_q("ELU int8", TFCC_OP_ELU, none, TFCC_INT8, 0.05f, 20, 0.04f, -60, f_elu, 0, 1, 0.02);
  check_unary_q("GELU uint8", TFCC_OP_GELU, none, TFCC_UINT8, 0.04f, 140, 0.03f, 20, f_gelu, 0, 1,
                0.02);
  check_unary_q("GELU int8", TFCC_OP_GELU, none, TFCC_INT8, 0.04f, -10, 0.03f, -100, f_gelu, 0, 1,
                0.02);
  check_unary_q("GELU int8 approximate", TFCC_OP_GELU, att_bool_option(ob, sizeof ob, true),
                TFCC_INT8, 0.04f, -10, 0.03f, -100, f_gelu_approx, 0, 1, 0.02);
  check_unary_q("HARD_SWISH uint8", TFCC_OP_HARD_SWISH, none, TFCC_UINT8, 0.0517f, 128, 0.0413f, 40,
                f_hard_swish, 0, 1, 0.05);
  check_unary_q("HARD_SWISH int8", TFCC_OP_HARD_SWISH, none, TFCC_INT8, 0.03f, -20, 0.025f, -90,
                f_hard_swish, 0, 1, 0.05);
  check_unary_q("HARD_SWISH int8 large range", TFCC_OP_HARD_SWISH, none, TFCC_INT8, 0.4f, 0, 0.2f,
                -100, f_hard_swish, 0, 1, 0.05);

  /* int16: power-of-two scales run gemmlowp 16-bit fixed point, others the sigmoid table. Both
   * are TFLite's approximations: a few units of 2^-15 from the true function (16-bit
   * Newton-Raphson reciprocal has 2^-13 resolution; the 16-bit exp underflows near the ends),
   * so wider tolerances here; exact anchor values are checked below. */
  check_unary_q("LOGISTIC int16 (pot, fixed point)", TFCC_OP_LOGISTIC, none, TFCC_INT16, 1.f / 4096,
                0, 1.f / 32768, 0, f_logistic, 0, 8, 1.0);
  check_unary_q("LOGISTIC int16 (table)", TFCC_OP_LOGISTIC, none, TFCC_INT16, 1.f / 3000, 0,
                1.f / 32768, 0, f_logistic, 0, 2, 0.5);
  check_unary_q("TANH int16 (pot 2^-12, fixed point)", TFCC_OP_TANH, none, TFCC_INT16, 1.f / 4096,
                0, 1.f / 32768, 0, f_tanh, 0, 12, 1.0);
  check_unary_q("TANH int16 (pot 2^-13, fixed point)", TFCC_OP_TANH, none, TFCC_INT16, 1.f / 8192,
                0, 1.f / 32768, 0, f_tanh, 0, 4, 0.6);
  check_unary_q("TANH int16 (table)", TFCC_OP_TANH, none, TFCC_INT16, 1.f / 1000, 0, 1.f / 32768, 0,
                f_tanh, 0, 2, 0.6);

  /* Fixed values: logistic(0) = 1/2, tanh(0) = 0 exactly; near-saturation at +-8. */
  int16_t in16[3] = {0, 32767, -32768}, out16[3];
  int32_t dims[1] = {3};
  att_tensor in, out;
  att_tensor *ins[1] = {&in};
  tfcc_err err = {0};
  att_make(&in, TFCC_INT16, 1, dims, in16, 1.f / 4096, 0);
  att_make(&out, TFCC_INT16, 1, dims, out16, 1.f / 32768, 0);
  CHECK(att_run(TFCC_OP_LOGISTIC, ins, 1, &out, none, &err) == TFCC_OK);
  CHECKF(out16[0] == 16384 && abs(out16[1] - 32757) <= 2 && abs(out16[2] - 11) <= 2, "%d %d %d",
         out16[0], out16[1], out16[2]);
  CHECK(att_run(TFCC_OP_TANH, ins, 1, &out, none, &err) == TFCC_OK);
  CHECKF(out16[0] == 0 && out16[1] >= 32765 && out16[2] <= -32765, "%d %d %d", out16[0], out16[1],
         out16[2]);

  /* Rejections. */
  uint8_t b8[3] = {0};
  att_make(&in, TFCC_UINT8, 1, dims, b8, 0.1f, 0);
  att_make(&out, TFCC_UINT8, 1, dims, b8, 1.f / 255, 0);
  CHECK(att_run(TFCC_OP_LOGISTIC, ins, 1, &out, none, &err) == TFCC_ERR_UNSUPPORTED);
  CHECK(strstr(err.msg, "1/256") != NULL);
  CHECK(att_run(TFCC_OP_ELU, ins, 1, &out, none, &err) == TFCC_ERR_UNSUPPORTED); /* ELU uint8 */
  att_make(&in, TFCC_INT16, 1, dims, in16, 1.f / 4096, 0);
  att_make(&out, TFCC_INT16, 1, dims, out16, 1.f / 16384, 0);
  CHECK(att_run(TFCC_OP_TANH, ins, 1, &out, none, &err) == TFCC_ERR_UNSUPPORTED);
  CHECK(att_run(TFCC_OP_HARD_SWISH, ins, 1, &out, none, &err) == TFCC_ERR_UNSUPPORTED);
  /* HARD_SWISH: input_scale/128/output_scale >= 1 is rejected as in TFLite. */
  att_make(&in, TFCC_INT8, 1, dims, b8, 1.0f, 0);
  att_make(&out, TFCC_INT8, 1, dims, b8, 1.f / 1024, 0);
  CHECK(att_run(TFCC_OP_HARD_SWISH, ins, 1, &out, none, &err) == TFCC_ERR_UNSUPPORTED);
}

/* PRELU: alpha broadcast over trailing dims. */
static void test_prelu(void) {
  enum { B = 2, H = 3, W = 4, C = 5, N = B * H * W * C };
  const int32_t dims[4] = {B, H, W, C};
  struct {
    int32_t rank;
    int32_t dims[4];
  } alphas[] = {{1, {C}}, {3, {1, 1, C}}, {4, {B, H, W, C}}, {3, {H, 1, C}}, {1, {1}}};
  tfcc_fb_table none = att_no_options();
  for (size_t k = 0; k < sizeof alphas / sizeof alphas[0]; k++) {
    int32_t an = 1;
    for (int32_t d = 0; d < alphas[k].rank; d++) an *= alphas[k].dims[d];
    /* alpha index of input element (b, h, w, c) */
    float xf[N], af[N], of[N];
    uint8_t xq[N], aq[N], oq[N];
    int8_t xs[N], as[N], os[N];
    for (int i = 0; i < N; i++) xf[i] = att_uniform(-4, 4);
    for (int i = 0; i < an; i++) af[i] = att_uniform(-0.5f, 1.5f);
    att_tensor in, al, out;
    att_tensor *ins[2] = {&in, &al};
    tfcc_err err = {0};
    att_make(&in, TFCC_FLOAT32, 4, dims, xf, 0, 0);
    att_make(&al, TFCC_FLOAT32, alphas[k].rank, alphas[k].dims, af, 0, 0);
    att_make(&out, TFCC_FLOAT32, 4, dims, of, 0, 0);
    tfcc_status st = att_run(TFCC_OP_PRELU, ins, 2, &out, none, &err);
    CHECKF(st == TFCC_OK, "PRELU f32 alpha %zu: %s", k, err.msg);
    const float s_in = 0.04f, s_a = 0.01f, s_out = 0.05f;
    const int32_t z_in = 120, z_a = 60, z_out = 90;
    for (int i = 0; i < N; i++) {
      xq[i] = (uint8_t)att_quantize(xf[i], s_in, z_in, TFCC_UINT8);
      xs[i] = (int8_t)att_quantize(xf[i], s_in, z_in - 128, TFCC_INT8);
    }
    for (int i = 0; i < an; i++) {
      aq[i] = (uint8_t)att_quantize(af[i], s_a, z_a, TFCC_UINT8);
      as[i] = (int8_t)att_quantize(af[i], s_a, z_a - 128, TFCC_INT8);
    }
    att_make(&in, TFCC_UINT8, 4, dims, xq, s_in, z_in);
    att_make(&al, TFCC_UINT8, alphas[k].rank, alphas[k].dims, aq, s_a, z_a);
    att_make(&out, TFCC_UINT8, 4, dims, oq, s_out, z_out);
    st = att_run(TFCC_OP_PRELU, ins, 2, &out, none, &err);
    CHECKF(st == TFCC_OK, "PRELU uint8 alpha %zu: %s", k, err.msg);
    att_make(&in, TFCC_INT8, 4, dims, xs, s_in, z_in - 128);
    att_make(&al, TFCC_INT8, alphas[k].rank, alphas[k].dims, as, s_a, z_a - 128);
    att_make(&out, TFCC_INT8, 4, dims, os, s_out, z_out - 128);
    st = att_run(TFCC_OP_PRELU, ins, 2, &out, none, &err);
    CHECKF(st == TFCC_OK, "PRELU int8 alpha %zu: %s", k, err.msg);
    int off_u = 0, off_s = 0;
    for (int b = 0, i = 0; b < B; b++)
      for (int h = 0; h < H; h++)
        for (int w = 0; w < W; w++)
          for (int c = 0; c < C; c++, i++) {
            int ai;
            switch (k) {
              case 0:
              case 1: ai = c; break;
              case 2: ai = i; break;
              case 3: ai = h * C + c; break;
              default: ai = 0; break;
            }
            const float wantf = xf[i] >= 0 ? xf[i] : xf[i] * af[ai];
            CHECKF(fabsf(of[i] - wantf) <= 1e-6f, "PRELU f32 %d: %g vs %g", i, (double)of[i],
                   (double)wantf);
            const double xr = s_in * (double)(xq[i] - z_in), ar = s_a * (double)(aq[ai] - z_a);
            const int32_t wu = att_quantize(xr >= 0 ? xr : xr * ar, s_out, z_out, TFCC_UINT8);
            const double xr2 = s_in * (double)(xs[i] - (z_in - 128));
            const double ar2 = s_a * (double)(as[ai] - (z_a - 128));
            const int32_t ws =
                att_quantize(xr2 >= 0 ? xr2 : xr2 * ar2, s_out, z_out - 128, TFCC_INT8);
            CHECKF(abs(oq[i] - wu) <= 1, "PRELU uint8 %d: %d vs %d", i, oq[i], (int)wu);
            CHECKF(abs(os[i] - ws) <= 1, "PRELU int8 %d: %d vs %d", i, os[i], (int)ws);
            off_u += oq[i] != wu;
            off_s += os[i] != ws;
          }
    CHECKF(off_u <= N / 20 && off_s <= N / 20, "PRELU alpha %zu: %d / %d elements off", k, off_u,
           off_s);
    printf("  PRELU alpha shape #%zu: uint8 %d/%d, int8 %d/%d off by 1\n", k, off_u, N, off_s, N);
  }
  /* alpha that would change the output shape */
  float x[6] = {0}, a[6] = {0}, o[6];
  int32_t d1[2] = {1, 3}, d2[2] = {2, 3};
  att_tensor in, al, out;
  att_tensor *ins[2] = {&in, &al};
  tfcc_err err = {0};
  att_make(&in, TFCC_FLOAT32, 2, d1, x, 0, 0);
  att_make(&al, TFCC_FLOAT32, 2, d2, a, 0, 0);
  att_make(&out, TFCC_FLOAT32, 2, d1, o, 0, 0);
  CHECK(att_run(TFCC_OP_PRELU, ins, 2, &out, none, &err) == TFCC_ERR_SHAPE);
  /* alpha dtype mismatch */
  int8_t a8[3] = {0};
  att_make(&al, TFCC_INT8, 1, &d1[1], a8, 0.1f, 0);
  CHECK(att_run(TFCC_OP_PRELU, ins, 2, &out, none, &err) == TFCC_ERR_DTYPE);
}

int main(void) {
  test_relu_family();
  test_leaky_relu();
  test_lut_ops();
  test_prelu();
  return tfcc_test_finish("ops.activation");
}
