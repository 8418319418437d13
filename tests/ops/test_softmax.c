/* SOFTMAX (float32, uint8->uint8|int16, int8->int8|int16, int16->int16) and LOG_SOFTMAX
 * (float32, uint8, int8) against double-precision softmax of the dequantized input, quantized
 * (at most `tol` units apart, differing elements counted), plus exact cases. */
#include "act_test_util.h"

/* Double softmax / log-softmax of row x (depth d) with beta. */
static void ref_softmax(const double *x, double *y, int d, double beta, bool log_form) {
  double m = x[0];
  for (int i = 1; i < d; i++) m = x[i] > m ? x[i] : m;
  double s = 0;
  for (int i = 0; i < d; i++) s += exp((x[i] - m) * beta);
  for (int i = 0; i < d; i++)
    y[i] = log_form ? (x[i] - m) * beta - log(s) : exp((x[i] - m) * beta) / s;
}

static void check_float(int32_t op, int32_t outer, int32_t depth, float beta, bool log_form) {
  enum { CAP = 4096 };
  static float in[CAP], out[CAP];
  static double xd[CAP], yd[CAP];
  const int32_t n = outer * depth;
  for (int32_t i = 0; i < n; i++) in[i] = att_uniform(-10, 10);
  uint8_t ob[256];
  att_tensor ti, to;
  int32_t dims[3] = {1, outer, depth};
  att_make(&ti, TFCC_FLOAT32, 3, dims, in, 0, 0);
  att_make(&to, TFCC_FLOAT32, 3, dims, out, 0, 0);
  att_tensor *ins[1] = {&ti};
  tfcc_err err = {0};
  tfcc_fb_table opt = log_form ? att_no_options() : att_f32_option(ob, sizeof ob, beta);
  tfcc_status st = att_run(op, ins, 1, &to, opt, &err);
  CHECKF(st == TFCC_OK, "%s", err.msg);
  for (int32_t r = 0; r < outer; r++) {
    for (int32_t c = 0; c < depth; c++) xd[c] = in[r * depth + c];
    ref_softmax(xd, yd, depth, log_form ? 1.0 : beta, log_form);
    for (int32_t c = 0; c < depth; c++)
      CHECKF(fabs(out[r * depth + c] - yd[c]) <= 1e-5 * (1 + fabs(yd[c])),
             "%s row %d col %d: %g vs %g", log_form ? "LOG_SOFTMAX" : "SOFTMAX", (int)r, (int)c,
             (double)out[r * depth + c], yd[c]);
  }
}

/* Quantized: random rows, reference = double softmax of the dequantized input. */
static void check_q(const char *what, int32_t op, float beta, tfcc_dtype it, float s_in,
                    int32_t z_in, tfcc_dtype ot, float s_out, int32_t z_out, int32_t outer,
                    int32_t depth, int tol, double max_off_fraction) {
  enum { CAP = 4096 };
  static int16_t in[CAP], out[CAP];
  static double xd[CAP], yd[CAP];
  const int32_t n = outer * depth;
  for (int32_t i = 0; i < n; i++) {
    const int32_t lo = att_qmin(it), span = att_qmax(it) - lo + 1;
    att_set(it, in, (size_t)i, lo + (int32_t)(att_rand() % (uint32_t)span));
  }
  uint8_t ob[256];
  att_tensor ti, to;
  int32_t dims[2] = {outer, depth};
  att_make(&ti, it, 2, dims, in, s_in, z_in);
  att_make(&to, ot, 2, dims, out, s_out, z_out);
  att_tensor *ins[1] = {&ti};
  tfcc_err err = {0};
  const bool log_form = op == TFCC_OP_LOG_SOFTMAX;
  tfcc_fb_table opt = log_form ? att_no_options() : att_f32_option(ob, sizeof ob, beta);
  tfcc_status st = att_run(op, ins, 1, &to, opt, &err);
  CHECKF(st == TFCC_OK, "%s: %s", what, err.msg);
  if (st) return;
  int off = 0, worst = 0;
  for (int32_t r = 0; r < outer; r++) {
    for (int32_t c = 0; c < depth; c++)
      xd[c] = s_in * (double)(att_get(it, in, (size_t)(r * depth + c)) - z_in);
    ref_softmax(xd, yd, depth, log_form ? 1.0 : beta, log_form);
    for (int32_t c = 0; c < depth; c++) {
      /* uint8 softmax output ignores its zero point in TFLite (it must be 0 in practice) */
      const int32_t want = att_quantize(yd[c], s_out, z_out, ot);
      const int32_t got = att_get(ot, out, (size_t)(r * depth + c));
      const int d = abs(got - want);
      off += d != 0;
      worst = d > worst ? d : worst;
      CHECKF(d <= tol, "%s row %d col %d: got %d expected %d", what, (int)r, (int)c, (int)got,
             (int)want);
      if (d > tol) return;
    }
  }
  CHECKF(off <= max_off_fraction * n, "%s: %d of %d elements differ", what, off, (int)n);
  printf("  %-40s %4d/%4d off by <=%d\n", what, off, (int)n, worst);
}

static void test_exact(void) {
  /* Equal inputs: each probability is exactly 1/depth. */
  uint8_t in[8] = {200, 200, 200, 200, 7, 7, 7, 7}, out[8];
  int8_t in8[8], out8[8];
  int32_t dims[2] = {2, 4};
  att_tensor ti, to;
  att_tensor *ins[1] = {&ti};
  tfcc_err err = {0};
  uint8_t ob[256];
  tfcc_fb_table beta1 = att_f32_option(ob, sizeof ob, 1.0f);
  att_make(&ti, TFCC_UINT8, 2, dims, in, 0.3f, 10);
  att_make(&to, TFCC_UINT8, 2, dims, out, 1.f / 256, 0);
  CHECK(att_run(TFCC_OP_SOFTMAX, ins, 1, &to, beta1, &err) == TFCC_OK);
  for (int i = 0; i < 8; i++) CHECKF(out[i] == 64, "uint8 equal row: %d", out[i]);
  for (int i = 0; i < 8; i++) in8[i] = (int8_t)(in[i] - 128);
  att_make(&ti, TFCC_INT8, 2, dims, in8, 0.3f, 10);
  att_make(&to, TFCC_INT8, 2, dims, out8, 1.f / 256, -128);
  CHECK(att_run(TFCC_OP_SOFTMAX, ins, 1, &to, beta1, &err) == TFCC_OK);
  for (int i = 0; i < 8; i++) CHECKF(out8[i] == -64, "int8 equal row: %d", out8[i]);
  /* depth 1: probability 1 saturates at 255 / 127 */
  int32_t d1[2] = {8, 1};
  att_make(&ti, TFCC_UINT8, 2, d1, in, 0.3f, 10);
  att_make(&to, TFCC_UINT8, 2, d1, out, 1.f / 256, 0);
  CHECK(att_run(TFCC_OP_SOFTMAX, ins, 1, &to, beta1, &err) == TFCC_OK);
  for (int i = 0; i < 8; i++) CHECKF(out[i] == 255, "depth 1: %d", out[i]);
  /* the largest input wins with a large beta*scale: 1.0 -> 255, others 0 */
  uint8_t in2[4] = {0, 255, 100, 254}, out2[4];
  int32_t d4[1] = {4};
  att_make(&ti, TFCC_UINT8, 1, d4, in2, 1.0f, 0);
  att_make(&to, TFCC_UINT8, 1, d4, out2, 1.f / 256, 0);
  CHECK(att_run(TFCC_OP_SOFTMAX, ins, 1, &to, beta1, &err) == TFCC_OK);
  CHECKF(out2[0] == 0 && out2[2] == 0 && out2[1] == 187 && out2[3] == 69, "%d %d %d %d", out2[0],
         out2[1], out2[2], out2[3]);

  /* Rejections with messages. */
  att_make(&ti, TFCC_INT8, 2, dims, in8, 0.3f, 10);
  att_make(&to, TFCC_INT8, 2, dims, out8, 1.f / 256, 0);
  CHECK(att_run(TFCC_OP_SOFTMAX, ins, 1, &to, beta1, &err) == TFCC_ERR_UNSUPPORTED);
  CHECK(strstr(err.msg, "-128") != NULL);
  float f[8] = {0};
  att_make(&ti, TFCC_FLOAT32, 2, dims, f, 0, 0);
  att_make(&to, TFCC_UINT8, 2, dims, out, 1.f / 256, 0);
  CHECK(att_run(TFCC_OP_SOFTMAX, ins, 1, &to, beta1, &err) == TFCC_ERR_UNSUPPORTED);
  att_make(&ti, TFCC_UINT8, 2, dims, in, 0.3f, 10);
  att_make(&to, TFCC_UINT8, 2, dims, out, 1.f / 256, 0);
  CHECK(att_run(TFCC_OP_LOG_SOFTMAX, ins, 1, &to, att_no_options(), &err) == TFCC_ERR_UNSUPPORTED);
  CHECK(strstr(err.msg, "16/256") != NULL);
  att_make(&ti, TFCC_FLOAT32, 0, dims, f, 0, 0);
  att_make(&to, TFCC_FLOAT32, 0, dims, f, 0, 0);
  CHECK(att_run(TFCC_OP_SOFTMAX, ins, 1, &to, beta1, &err) == TFCC_ERR_SHAPE);
}

int main(void) {
  check_float(TFCC_OP_SOFTMAX, 5, 7, 1.0f, false);
  check_float(TFCC_OP_SOFTMAX, 3, 33, 0.37f, false);
  check_float(TFCC_OP_SOFTMAX, 1, 1001, 1.0f, false);
  check_float(TFCC_OP_LOG_SOFTMAX, 4, 9, 1.0f, true);
  check_float(TFCC_OP_LOG_SOFTMAX, 1, 1001, 1.0f, true);

  check_q("SOFTMAX uint8->uint8", TFCC_OP_SOFTMAX, 1.0f, TFCC_UINT8, 0.0921f, 37, TFCC_UINT8,
          1.f / 256, 0, 6, 13, 1, 0.03);
  check_q("SOFTMAX uint8->uint8 1001 classes", TFCC_OP_SOFTMAX, 1.0f, TFCC_UINT8, 0.0713f, 0,
          TFCC_UINT8, 1.f / 256, 0, 2, 1001, 1, 0.03);
  check_q("SOFTMAX uint8->uint8 beta 0.6", TFCC_OP_SOFTMAX, 0.6f, TFCC_UINT8, 0.1713f, 100,
          TFCC_UINT8, 1.f / 256, 0, 4, 10, 1, 0.03);
  check_q("SOFTMAX int8->int8", TFCC_OP_SOFTMAX, 1.0f, TFCC_INT8, 0.0613f, -3, TFCC_INT8, 1.f / 256,
          -128, 7, 11, 1, 0.03);
  check_q("SOFTMAX int8->int16", TFCC_OP_SOFTMAX, 1.0f, TFCC_INT8, 0.0613f, 5, TFCC_INT16,
          1.f / 32768, 0, 3, 17, 1, 0.05);
  check_q("SOFTMAX uint8->int16", TFCC_OP_SOFTMAX, 1.0f, TFCC_UINT8, 0.0613f, 5, TFCC_INT16,
          1.f / 32768, 0, 3, 17, 1, 0.05);
  check_q("SOFTMAX int16->int16", TFCC_OP_SOFTMAX, 1.0f, TFCC_INT16, 1.f / 8000, 0, TFCC_INT16,
          1.f / 32768, 0, 3, 19, 12, 1.0);
  check_q("SOFTMAX int16->int16 beta 0.5", TFCC_OP_SOFTMAX, 0.5f, TFCC_INT16, 1.f / 3000, 0,
          TFCC_INT16, 1.f / 32768, 0, 4, 9, 12, 1.0);
  check_q("LOG_SOFTMAX uint8", TFCC_OP_LOG_SOFTMAX, 1.0f, TFCC_UINT8, 0.0821f, 20, TFCC_UINT8,
          16.f / 256, 255, 5, 13, 1, 0.03);
  check_q("LOG_SOFTMAX int8", TFCC_OP_LOG_SOFTMAX, 1.0f, TFCC_INT8, 0.0821f, -20, TFCC_INT8,
          16.f / 256, 127, 5, 13, 1, 0.03);
  test_exact();
  return tfcc_test_finish("ops.softmax");
}
