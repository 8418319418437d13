/* L2_NORMALIZATION: float32 vs double; uint8/int8 vs the real-valued result quantized to
 * 1/128 (at most 1 unit off; differing elements counted). */
#include "conv_family_test_util.h"
#include "kernels/ref/l2norm.h"

static void run(tfcc_dtype dt, int32_t rank, const int32_t *dims, int32_t zp_in) {
  tt_case c;
  memset(&c, 0, sizeof(c));
  c.builtin = TFCC_OP_L2_NORMALIZATION;
  c.n_in = 1;
  int64_t n = 1;
  for (int i = 0; i < rank; i++) n *= dims[i];
  int32_t depth = dims[rank - 1];
  void *in = malloc((size_t)n * 4);
  double *r = malloc(sizeof(double) * (size_t)n);
  for (int64_t i = 0; i < n; i++) {
    if (dt == TFCC_FLOAT32) {
      ((float *)in)[i] = oh_randf(-3, 3);
      r[i] = ((float *)in)[i];
    } else if (dt == TFCC_UINT8) {
      int32_t v = oh_randi(0, 255);
      ((uint8_t *)in)[i] = (uint8_t)v;
      r[i] = v - zp_in;
    } else {
      int32_t v = oh_randi(-128, 127);
      ((int8_t *)in)[i] = (int8_t)v;
      r[i] = v - zp_in;
    }
  }
  tt_set(&c.in[0], dt, rank, dims, in);
  tt_set(&c.out, dt, rank, dims, NULL);
  if (dt != TFCC_FLOAT32) {
    tt_q(&c.in[0], 0.02f, zp_in);
    tt_q(&c.out, 1.f / 128.f, dt == TFCC_UINT8 ? 128 : 0);
  }
  CHECKF(tt_run(&c, true) == TFCC_OK, "%s", c.err.msg);
  if (c.out_data) {
    double *want = malloc(sizeof(double) * (size_t)n);
    for (int64_t o = 0; o < n / depth; o++) {
      double s = 0;
      for (int32_t k = 0; k < depth; k++) s += r[o * depth + k] * r[o * depth + k];
      double norm = sqrt(s);
      for (int32_t k = 0; k < depth; k++)
        want[o * depth + k] = r[o * depth + k] / (norm > 1e-6 ? norm : 1e-6);
    }
    if (dt == TFCC_FLOAT32) {
      oh_cmp_f("l2norm float", c.out_data, want, n, 1e-5);
    } else {
      int32_t *g = malloc(sizeof(int32_t) * (size_t)n), *w = malloc(sizeof(int32_t) * (size_t)n);
      int32_t zp = dt == TFCC_UINT8 ? 128 : 0;
      for (int64_t i = 0; i < n; i++) {
        g[i] = oh_get_q(c.out_data, dt, i);
        w[i] = tt_quantize(want[i], 1.0 / 128, zp, dt == TFCC_UINT8 ? 0 : -128,
                           dt == TFCC_UINT8 ? 255 : 127);
      }
      int64_t nd = oh_cmp_q("l2norm q", g, w, n, 1);
      printf("l2norm %s: %lld/%lld off by one\n", tfcc_dtype_name(dt), (long long)nd, (long long)n);
      CHECK(nd * 10 <= n);
      free(g);
      free(w);
    }
    free(want);
  }
  tt_done(&c);
  free(in);
  free(r);
}

int main(void) {
  int32_t d1[3] = {2, 3, 17}, d2[1] = {64}, d3[4] = {1, 2, 2, 5};
  const tfcc_dtype dts[3] = {TFCC_FLOAT32, TFCC_UINT8, TFCC_INT8};
  for (int k = 0; k < 3; k++) {
    int32_t zp = dts[k] == TFCC_UINT8 ? 131 : dts[k] == TFCC_INT8 ? -4 : 0;
    run(dts[k], 3, d1, zp);
    run(dts[k], 1, d2, zp);
    run(dts[k], 4, d3, zp);
  }
  /* inv sqrt of 0 and 1 saturate; of 4 gives 0.5 */
  int32_t m;
  int s;
  tfcc_inv_sqrt_multiplier_exp(0, -1, &m, &s);
  CHECK(m == INT32_MAX && s == 0);
  tfcc_inv_sqrt_multiplier_exp(1 << 20, -1, &m, &s);
  double v = (double)m / 2147483648.0 * pow(2.0, s); /* s is a left shift (<= 0) */
  CHECKF(fabs(v * 1024.0 - 1.0) < 1e-3, "1/sqrt(2^20) got %g", v);
  /* errors */
  static uint8_t buf[64];
  tt_case c;
  memset(&c, 0, sizeof(c));
  c.builtin = TFCC_OP_L2_NORMALIZATION;
  c.n_in = 1;
  int32_t dd[2] = {2, 4};
  tt_set(&c.in[0], TFCC_UINT8, 2, dd, buf);
  tt_set(&c.out, TFCC_UINT8, 2, dd, NULL);
  tt_q(&c.in[0], 0.1f, 0);
  tt_q(&c.out, 0.1f, 128);
  tt_expect_fail(&c, false, "expected 1/128 and 128");
  c.out.qs[0] = 1.f / 128.f;
  tt_opt_i(&c, 0, TFB_U8, 1);
  tt_expect_fail(&c, false, "only NONE");
  c.n_opts = 0;
  c.in[0].dtype = c.out.dtype = TFCC_INT16;
  tt_expect_fail(&c, false, "input dtype int16 unsupported");
  return tfcc_test_finish("l2norm");
}
