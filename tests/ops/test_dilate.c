/* DILATE: hostile inputs (wrong operand dtypes, mismatched shapes, factors below 1, empty
 * dimensions give errors naming the operand and the cause) and TFLite's 3x3 by [2, 3] example
 * (dilate.cc) worked by hand; TFLite's own results are in the conformance suite (dilate_*). */
#include "elem_test_util.h"

static void expect_err(tfcc_tensor **in, tfcc_tensor *out, tfcc_status want, const char *needle) {
  tfcc_err err;
  tfcc_status st = etu_run(TFCC_OP_DILATE, in, 3, out, NULL, &err);
  CHECKF(st == want, "status %d, expected %d (%s)", (int)st, (int)want, err.msg);
  CHECKF(strstr(err.msg, needle) != NULL, "message '%s' lacks '%s'", err.msg, needle);
}

int main(void) {
  const int32_t d33[2] = {3, 3}, d2[1] = {2}, d3[1] = {3}, d03[2] = {0, 3};
  int32_t a[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, f[2] = {2, 3}, f3[3] = {1, 1, 1}, pad = -1, o[64];
  float fpad = 0.f;
  tfcc_tensor ta = oh_tensor(TFCC_INT32, 2, d33, a, NULL),
              tf = oh_tensor(TFCC_INT32, 1, d2, f, NULL);
  tfcc_tensor tp = oh_tensor(TFCC_INT32, 0, NULL, &pad, NULL),
              to = oh_tensor(TFCC_INT32, 0, NULL, o, NULL);
  tf.known = tf.is_const = true;
  tfcc_tensor *in[3] = {&ta, &tf, &tp};
  tfcc_err err;
  CHECKF(etu_run(TFCC_OP_DILATE, in, 3, &to, NULL, &err) == TFCC_OK, "%s", err.msg);
  CHECKF(to.rank == 2 && to.dims[0] == 5 && to.dims[1] == 7, "output shape");
  int bad = 0;
  for (int r = 0; r < 5; r++)
    for (int c = 0; c < 7; c++) {
      const int want = (r % 2 == 0 && c % 3 == 0) ? a[(r / 2) * 3 + c / 3] : -1;
      bad += o[r * 7 + c] != want;
    }
  CHECKF(bad == 0, "DILATE [2, 3]: %d elements differ", bad);
  /* hostile */
  tfcc_tensor tpf = oh_tensor(TFCC_FLOAT32, 0, NULL, &fpad, NULL);
  tfcc_tensor *wrong_pad[3] = {&ta, &tf, &tpf};
  expect_err(wrong_pad, &to, TFCC_ERR_DTYPE, "input 2 (padding_value) dtype float32");
  tfcc_tensor tf3 = oh_tensor(TFCC_INT32, 1, d3, f3, NULL);
  tf3.known = true;
  tfcc_tensor *short_f[3] = {&ta, &tf3, &tp};
  expect_err(short_f, &to, TFCC_ERR_SHAPE, "input 1 (dilations) must be [2]");
  f[1] = 0;
  expect_err(in, &to, TFCC_ERR_INVALID_ARG, "dilation 1 is 0");
  f[1] = 3;
  tfcc_tensor te = oh_tensor(TFCC_INT32, 2, d03, a, NULL);
  tfcc_tensor *empty[3] = {&te, &tf, &tp};
  expect_err(empty, &to, TFCC_ERR_SHAPE, "dimension 0 is empty");
  tfcc_tensor tff = oh_tensor(TFCC_FLOAT32, 1, d2, f, NULL);
  tff.known = true;
  tfcc_tensor *ffac[3] = {&ta, &tff, &tp};
  expect_err(ffac, &to, TFCC_ERR_DTYPE, "input 1 (dilations) dtype float32");
  return tfcc_test_finish("ops.dilate");
}
